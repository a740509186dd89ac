"""A refusal names what the question actually asked about, as written: the whole outside
entity ("HSBC Life", 中信保诚人寿, "World Cup") or the unreported figure ("annualised premium
equivalent sales"), never a verb ("pay") or a fragment ("Life", 保诚, "annualised")."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from ragspine_action.systems.reference.answers import Answer
from ragspine_action.systems.reference.system import ReferenceSystem
from ragspine_action.systems.reference.tool_mode import answer_question

REF = date(2026, 6, 12)
# (question, what the refusal names, fragments it must not name on their own)
NAMED = [
    ("What dividend per share did ACME pay in FY2025?", "dividend per share", ["pay"]),
    ("What was HSBC Life's revenue in FY2025?", "HSBC Life", []),
    ("What was Berkshire Hathaway's operating profit in FY2025?", "Berkshire Hathaway", []),
    ("中信保诚人寿2025年的营运利润是多少？", "中信保诚人寿", []),
    ("Who won the 2022 World Cup?", "World Cup", []),
    (
        "What were ACME's annualised premium equivalent sales in FY2025?",
        "annualised premium equivalent sales",
        [],
    ),
    ("What was Prudential plc's revenue in FY2025?", "Prudential plc", []),
    ("What was Sun Life Financial's ROE in FY2025?", "Sun Life Financial", []),
    ("ACME 2025年的综合偿付能力充足率是多少？", "偿付能力充足率", ["的综合"]),
    ("ACME 2025年的派息率是多少？", "派息率", ["的派息率"]),
    ("How much revenue did ACME Hong Kong book in FY2025 versus Ping An Insurance?", "Ping An", []),
    # a listed place keeps the question's capitals, not the word list's lower case
    ("What's the weather like in Singapore tomorrow?", "Singapore", ["singapore"]),
    ("What is the capital of France?", "France", ["france"]),
]
# names that are whole already must stay as written
KEPT = [
    ("what was allianz revenue in fy2025?", "allianz"),
    ("保诚去年的利润是多少？", "保诚"),
]


def _ask(system: ReferenceSystem, question: str) -> Answer:
    if system.mode == "tool":
        return answer_question(system.kb, question, REF)
    return system.orchestrator.run(question, REF)


def _named(text: str) -> str:
    """What the refusal says is outside the KB or is not a metric."""
    m = re.match(r"^'?(.+?)'? is (?:outside|not a metric)", text) or re.match(
        r"^(?:知识库中没有“)?(.+?)(?:”这一指标|不在ACME知识库)", text
    )
    assert m is not None, text
    return m.group(1)


@pytest.mark.parametrize("mode", ["tool", "agent"])
def test_refusals_name_the_whole_thing_asked_about(mode: str, tmp_path: Path) -> None:
    system = ReferenceSystem(mode, kb_dir=str(tmp_path))  # type: ignore[arg-type]
    for question, name, wrong in [*NAMED, *[(q, n, []) for q, n in KEPT]]:
        answer = _ask(system, question)
        assert answer.refused and answer.value is None, (question, answer.text)
        named = _named(answer.text)
        assert name in named, (question, answer.text)
        for fragment in wrong:
            assert named != fragment, (question, answer.text)

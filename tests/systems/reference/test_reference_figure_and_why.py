"""A question in two parts — a reported figure and what drove it — gets both in both modes:
the value with its table cell, and the passage that explains it."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_action.systems.reference.answers import Answer
from ragspine_action.systems.reference.intent import parse_intent
from ragspine_action.systems.reference.system import ReferenceSystem
from ragspine_action.systems.reference.tool_mode import answer_question

REF = date(2026, 6, 12)
TWO_PARTS = [
    ("What were Hong Kong new business sales in FY2025 and what drove them?", 1240.0),
    (
        "What were mainland China's new business sales in FY2025, and which channel drove them?",
        1586.0,
    ),
    ("ACME香港2025年的新业务销售是多少，是什么带动的？", 1240.0),
    ("What was ACME Group's operating profit in FY2025 and why did it change?", 1960.0),
]
WHY_ONLY = [
    "What drove ACME Hong Kong's new sales in FY2025?",
    "Why did Hong Kong revenue rise in FY2025 and what drove it?",
]


def _ask(system: ReferenceSystem, question: str) -> Answer:
    if system.mode == "tool":
        return answer_question(system.kb, question, REF)
    return system.orchestrator.run(question, REF)


def test_routes() -> None:
    for question, _ in TWO_PARTS:
        assert parse_intent(question, REF).route == "composite", question
    for question in WHY_ONLY:
        assert parse_intent(question, REF).route == "narrative", question


@pytest.mark.parametrize("mode", ["tool", "agent"])
def test_both_parts_are_answered(mode: str, tmp_path: Path) -> None:
    system = ReferenceSystem(mode, kb_dir=str(tmp_path))  # type: ignore[arg-type]
    for question, value in TWO_PARTS:
        answer = _ask(system, question)
        assert answer.value == value and answer.unit == "USD_M", (question, answer.text)
        assert answer.source is not None and answer.source.doc == "ACME_FY2025_Results.pptx"
        assert "Management_Commentary" in answer.text, (question, answer.text)

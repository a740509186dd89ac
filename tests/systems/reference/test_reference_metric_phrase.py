"""A figure named with words the KB knows but not reported by it ("dividend payout ratio") is
refused with the reported metrics, named as written, in both modes; a question naming no
figure ("ACME's results for FY2025") is still asked back."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from ragspine_action.systems.reference.answers import Answer
from ragspine_action.systems.reference.metric_phrase import unreported_metric_phrase
from ragspine_action.systems.reference.system import ReferenceSystem
from ragspine_action.systems.reference.tool_mode import answer_question

REF = date(2026, 6, 12)
UNREPORTED = [
    ("What was ACME's dividend payout ratio for FY2025?", "dividend payout ratio"),
    ("dividend payout ratio for FY2025", "dividend payout ratio"),
    ("What was the combined ratio of ACME Hong Kong in FY2025?", "combined ratio"),
    ("What was ACME Group's cash flow in 2025H1?", "cash flow"),
    ("How much was ACME's dividend yield last year?", "dividend yield"),
]
ASKED_BACK = [
    "What was ACME's figure for FY2025?",
    "What were ACME's results in FY2025?",
    "How did ACME Hong Kong do in FY2025?",
]


def _ask(system: ReferenceSystem, question: str) -> Answer:
    if system.mode == "tool":
        return answer_question(system.kb, question, REF)
    return system.orchestrator.run(question, REF)


def test_phrase_needs_a_figure_word() -> None:
    assert unreported_metric_phrase("'s dividend payout ratio for ") == ("dividend payout ratio",)
    assert unreported_metric_phrase("的派息率") == ("派息率",)
    assert unreported_metric_phrase("'s results in ") == ()
    assert unreported_metric_phrase("'s strategy in ") == ()


@pytest.mark.parametrize("mode", ["tool", "agent"])
def test_unreported_figures_are_refused_naming_them(mode: str, tmp_path: Path) -> None:
    system = ReferenceSystem(mode, kb_dir=str(tmp_path))  # type: ignore[arg-type]
    for question, phrase in UNREPORTED:
        answer = _ask(system, question)
        assert answer.refused and answer.value is None, (question, answer.text)
        assert answer.clarification == "none", (question, answer.text)
        assert phrase in answer.text.lower(), (question, answer.text)
        assert "operating profit" in answer.text, (question, answer.text)  # what it reports
        assert not re.search(r"\d", answer.text), (question, answer.text)


@pytest.mark.parametrize("mode", ["tool", "agent"])
def test_a_question_naming_no_figure_is_still_asked_back(mode: str, tmp_path: Path) -> None:
    system = ReferenceSystem(mode, kb_dir=str(tmp_path))  # type: ignore[arg-type]
    for question in ASKED_BACK:
        answer = _ask(system, question)
        assert answer.clarification == "ask_first" and not answer.refused, (question, answer.text)

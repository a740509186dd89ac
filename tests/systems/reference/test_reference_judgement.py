"""Evaluative questions ask for a judgement the KB cannot give: refused as opinion in both
modes with no number; factual questions that merely contain such a word are answered."""

from __future__ import annotations

import re
from datetime import date

import pytest

from ragspine_action.systems.reference.answers import Answer
from ragspine_action.systems.reference.judgement import asks_judgement
from ragspine_action.systems.reference.system import ReferenceSystem
from ragspine_action.systems.reference.tool_mode import answer_question

REF = date(2026, 6, 12)


def _ask(system: ReferenceSystem, question: str) -> Answer:
    if system.mode == "tool":
        return answer_question(system.kb, question, REF)
    return system.orchestrator.run(question, REF)


JUDGEMENTS = [
    "Is ACME's dividend policy good for investors?",
    "ACME的股息政策对股东友好吗？",
    "ACME的股息政策合理吗？",
    "Are ACME's dividends generous?",
    "Is the FY2025 operating profit of ACME Hong Kong reasonable?",
    "How attractive is ACME's dividend?",
    "Is ACME's dividend policy shareholder-friendly?",
    "Should investors hold ACME shares?",
    "Is ACME's dividend worth it for a retiree?",
    "Does ACME's dividend policy look sensible?",
    "ACME的派息水平是否公平？",
    "ACME香港的新业务值不值得关注？",
    "买ACME的储蓄险划算吗？",
    "ACME的股息政策好不好？",
    "ACME的派息是不是太低？",
]
FACTUAL = [
    "What does the board consider when reviewing the dividend policy?",
    "What was ACME's operating profit in FY2025?",
    "What drove ACME Hong Kong's new business growth?",
    "董事会审视股息政策时会考虑哪些因素？",
    "ACME香港的业绩怎么样",
    "Which risks are worth noting for ACME?",
    "What is good business?",
]


@pytest.mark.parametrize("question", JUDGEMENTS)
def test_judgement_questions_are_detected(question: str) -> None:
    assert asks_judgement(question)


@pytest.mark.parametrize("question", FACTUAL)
def test_factual_questions_with_such_words_are_not(question: str) -> None:
    assert not asks_judgement(question)


@pytest.mark.parametrize("mode", ["tool", "agent"])
def test_judgements_are_refused_as_opinion_without_a_number(mode: str, tmp_path: object) -> None:
    system = ReferenceSystem(mode, kb_dir=str(tmp_path))  # type: ignore[arg-type]
    for question in JUDGEMENTS:
        answer = _ask(system, question)
        assert answer.refused, (question, answer.text)
        assert not re.search(r"\d", answer.text), (question, answer.text)
        assert "opinion" in answer.text or "观点" in answer.text, (question, answer.text)


@pytest.mark.parametrize("mode", ["tool", "agent"])
def test_the_factual_dividend_question_is_still_answered(mode: str, tmp_path: object) -> None:
    system = ReferenceSystem(mode, kb_dir=str(tmp_path))  # type: ignore[arg-type]
    question = "What does the board consider when reviewing the dividend policy?"
    answer = _ask(system, question)
    assert not answer.refused
    assert "自由盈余" in answer.text

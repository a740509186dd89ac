"""The groundedness gates' checks kept per distinct input (``CheckMemo``) never change a
result: a case whose input repeats another's gets the check it would get alone, and a
case that differs in any input the check reads (the question, the cited docs, the sign of
a zero value, the contexts, the reference) is judged afresh."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine_action.gates import answer_accuracy, faithfulness
from ragspine_action.gates.answer_accuracy import AnswerAccuracy
from ragspine_action.gates.base import Check, CheckMemo, GateSettings, cited_docs, know_docs
from ragspine_action.gates.faithfulness import Faithfulness
from ragspine_action.golden.models import GoldenCase
from ragspine_action.outcomes.model import Outcome

_SENTENCES = [
    "Staff get 20 days of leave.",
    "Staff get 25 days of leave.",
    "Revenue was 0 USD_M in FY2025.",
    "What is the leave policy?",
    "See Handbook.pdf p. 3.",
    "The policy does not allow carry-over.",
    "休假为二十天。",
]
_CONTEXTS = ["Staff get 20 days of leave. Carry-over is not allowed.", "Revenue was 0 USD_M."]
_QUESTIONS = ["What is the leave policy?", "Staff get 20 days of leave?", ""]


@st.composite
def _pair(draw: st.DrawFn) -> tuple[GoldenCase, Outcome]:
    answer = " ".join(draw(st.lists(st.sampled_from(_SENTENCES), min_size=1, max_size=3)))
    value = draw(st.sampled_from([None, 0.0, -0.0, 20.0]))
    case: dict[str, Any] = {
        "id": "c",
        "question": draw(st.sampled_from(_QUESTIONS)) or "Why?",
        "case_type": "composite" if value is not None else "narrative",
        "expected": {"reference_answer": draw(st.sampled_from(_SENTENCES))},
    }
    if value is not None:
        case["expected"].update(value=20.0, unit="USD_M", source={"doc": "A.pdf"})
    outcome: dict[str, Any] = {
        "id": "c",
        "answer": answer,
        "contexts": draw(st.lists(st.sampled_from(_CONTEXTS), max_size=2)),
        "sources": [{"doc": d} for d in draw(st.lists(st.sampled_from(["Handbook.pdf", "B.pdf"])))],
    }
    if value is not None:
        outcome.update(value=value, unit="USD_M", source={"doc": "A.pdf"})
    return GoldenCase.model_validate(case), Outcome.model_validate(outcome)


def _fresh(case: GoldenCase, outcome: Outcome, settings_: GateSettings) -> tuple[Check, Check]:
    """Both checks with empty memos (what a case alone gets)."""
    faithfulness._MEMO = CheckMemo()
    answer_accuracy._MEMO = CheckMemo()
    return (
        Faithfulness().check(case, outcome, settings_),
        AnswerAccuracy().check(case, outcome, settings_),
    )


@settings(max_examples=60, deadline=None)
@given(st.lists(_pair(), min_size=2, max_size=8))
def test_a_memo_warmed_by_other_cases_gives_each_case_its_own_check(
    pairs: list[tuple[GoldenCase, Outcome]],
) -> None:
    gate_settings = GateSettings()
    alone = [_fresh(case, outcome, gate_settings) for case, outcome in pairs]
    faithfulness._MEMO = CheckMemo()
    answer_accuracy._MEMO = CheckMemo()
    for _ in range(2):  # the second round finds every input in the memos
        for (case, outcome), expected in zip(pairs, alone, strict=True):
            got = (
                Faithfulness().check(case, outcome, gate_settings),
                AnswerAccuracy().check(case, outcome, gate_settings),
            )
            assert got == expected


def test_a_zero_value_and_a_negative_zero_are_different_inputs() -> None:
    keys = set()
    for value in (0.0, -0.0):
        outcome = Outcome.model_validate({"id": "c", "answer": "x", "value": value})
        case = GoldenCase.model_validate(
            {"id": "c", "question": "q?", "case_type": "narrative", "expected": {}}
        )
        keys.add(faithfulness._key(case, outcome, cited_docs(outcome)))
    assert len(keys) == 2


def test_known_docs_are_used_for_that_outcome_only() -> None:
    outcome = Outcome.model_validate(
        {"id": "c", "answer": "x", "sources": [{"doc": "A.pdf"}], "source": {"doc": "S.pdf"}}
    )
    other = Outcome.model_validate({"id": "d", "answer": "x", "sources": [{"doc": "B.pdf"}]})
    know_docs(outcome, ["A.pdf"])
    assert cited_docs(outcome) == ["A.pdf", "S.pdf"]
    assert cited_docs(other) == ["B.pdf"]


def test_the_memo_is_owned_by_its_settings_and_sized_by_use() -> None:
    memo = CheckMemo()
    owner, other = object(), object()
    check = Check(True)
    memo.put(owner, "k", check)
    assert memo.get(owner, "k") is check
    assert memo.get(other, "k") is None  # another run's settings: nothing is shared
    memo = CheckMemo()
    for i in range(10_001):  # never asked again: the next memo is small
        memo.put(owner, i, check)
    assert memo._limit == 500
    for i in range(100):
        memo.put(owner, i, check)
    for i in range(25):  # one look-up in 20 hits: the full size again
        assert memo.get(owner, i) is check
    assert memo._limit == 10_000

"""A metric asked of an organisation the KB does not know is refused, without a number."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine_action.gates import detect_fabricated_numbers
from ragspine_action.golden.models import GoldenCase
from ragspine_action.systems.reference import ReferenceSystem

REF = date(2026, 6, 12)


@pytest.fixture(scope="module")
def system() -> ReferenceSystem:
    return ReferenceSystem()


def _ask(system: ReferenceSystem, question: str) -> tuple[bool, float | None, str]:
    case = GoldenCase(id="q", question=question, case_type="refusal", expected={"refuse": True})
    outcome = system.answer(case.model_copy(update={"reference_date": REF}))
    return outcome.refused, outcome.value, outcome.answer


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("How much revenue did Contoso make last year?", "Contoso"),
        ("What is Northwind Traders' ROE in FY2025?", "Northwind Traders"),
        ("Tell me the new sales of Fabrikam for 2025", "Fabrikam"),
    ],
)
def test_unknown_organisation_is_refused(system: ReferenceSystem, question: str, name: str) -> None:
    refused, value, answer = _ask(system, question)
    assert refused and value is None
    assert name in answer
    assert detect_fabricated_numbers(answer) == []


@pytest.mark.parametrize(
    "question",
    [
        "What was revenue last year?",  # no entity: the group is assumed, not refused
        "What does IFRS 17 change for profit?",  # an accounting standard, not a company
        "What does the Insurance Authority require for profit reporting?",  # the regulator
    ],
)
def test_known_concepts_are_not_mistaken_for_companies(
    system: ReferenceSystem, question: str
) -> None:
    refused, _, _ = _ask(system, question)
    assert not refused

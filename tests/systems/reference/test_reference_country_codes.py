"""A country written as a capitalised code ("the current US interest rate", "UK insurers")
is another place, refused naming it; "us" the pronoun and "US dollar" are not."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine_action.systems.reference.intent import parse_intent

REF = date(2026, 6, 12)


@pytest.mark.parametrize(
    "question",
    [
        "What is the current US interest rate?",
        "How are UK insurers regulated?",
        "What do EU rules say?",
    ],
)
def test_country_codes_are_other_places(question: str) -> None:
    intent = parse_intent(question, REF)
    assert intent.route == "out_of_scope" and intent.competitors, question


@pytest.mark.parametrize(
    "question",
    ["Tell us about ACME Hong Kong revenue in FY2025", "How does ACME hedge its US dollar assets?"],
)
def test_pronoun_and_currency_are_not(question: str) -> None:
    assert parse_intent(question, REF).competitors == (), question

"""A ceiling told as a floor (gates/bounds.py), EN and ZH, and what must still agree."""

from __future__ import annotations

import pytest

from ragspine_action.gates.bounds import bound_problem, may_bound

CEILING_EN = "Employees may accept gifts only if the value does not exceed 50 USD."
CEILING_ZH = "员工仅可接受价值不超过300元的供应商礼品。"


@pytest.mark.parametrize(
    ("claim", "sentence"),
    [
        ("Gifts worth more than 50 USD may be accepted.", CEILING_EN),
        ("Gifts worth over 50 USD may be accepted.", CEILING_EN),
        ("Gifts of at least 50 USD may be accepted.", CEILING_EN),
        ("员工可以接受价值超过300元的供应商礼品。", CEILING_ZH),
        ("员工可接受300元以上的供应商礼品。", CEILING_ZH),
        ("Refunds are paid within 14 days.", "Refunds are paid after at least 14 days."),
    ],
)
def test_a_bound_turned_round_is_named(claim: str, sentence: str) -> None:
    assert may_bound(claim)
    assert bound_problem(claim, sentence, "the contexts") is not None


@pytest.mark.parametrize(
    ("claim", "sentence"),
    [
        ("Gifts up to 50 USD may be accepted.", CEILING_EN),
        ("Gifts of no more than 50 USD may be accepted.", CEILING_EN),
        ("员工可接受价值在300元以内的供应商礼品。", CEILING_ZH),
        ("员工最多可接受价值300元的供应商礼品。", CEILING_ZH),
        # a negation outside the bound turns the reading round: not compared
        ("Employees may not accept gifts worth more than 50 USD.", CEILING_EN),
        # both sides in the sentence: nothing turned
        (
            "Gifts over 50 USD must be declared.",
            "Gifts up to 50 USD are kept; gifts over 50 USD must be declared.",
        ),
        # another number
        ("Gifts worth more than 80 USD may be accepted.", CEILING_EN),
    ],
)
def test_the_same_bound_or_no_comparison_agrees(claim: str, sentence: str) -> None:
    assert bound_problem(claim, sentence, "the contexts") is None

"""A ceiling told as a floor (gates/bounds.py), EN and ZH, and what must still agree."""

from __future__ import annotations

import pytest

from ragspine_action.gates.bounds import bound_problem, may_bound, same_bound

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


ONLY_WITHIN_EN = "Employees may accept gifts only if their value is HKD 500 or less."
FORBIDDEN_PAST_EN = "Employees must not accept gifts worth more than HKD 500."
FORBIDDEN_PAST_ZH = "员工不得接受价值超过500港元的礼品。"


@pytest.mark.parametrize(
    ("claim", "sentence"),
    [
        ("Employees may not accept gifts worth more than HKD 500.", ONLY_WITHIN_EN),
        (
            "Staff must not accept gifts worth more than 50 dollars.",
            "Staff may accept a gift only if it is worth 50 dollars or less.",
        ),
        ("You cannot claim more than 3 taxis per month.", "You may claim up to 3 taxis per month."),
        ("Employees may accept gifts worth up to HKD 500.", FORBIDDEN_PAST_EN),
        ("员工仅可接受价值不超过500港元的礼品。", FORBIDDEN_PAST_ZH),
        ("员工每月不得报销超过3次出租车费用。", "每月最多可报销3次出租车费用。"),
    ],
)
def test_one_bound_forbidden_past_or_allowed_within_is_the_same(claim: str, sentence: str) -> None:
    assert same_bound(claim, sentence)
    assert same_bound(sentence, claim)


@pytest.mark.parametrize(
    ("claim", "sentence", "around"),
    [
        # the sides disagree once the prohibition is read
        ("Employees may not accept gifts worth less than HKD 500.", ONLY_WITHIN_EN, ""),
        ("Employees may accept gifts worth more than HKD 500.", FORBIDDEN_PAST_EN, ""),
        ("员工不得接受价值低于500港元的礼品。", "员工仅可接受价值不超过500港元的礼品。", ""),
        # another number
        ("Employees may not accept gifts worth more than HKD 1,000.", ONLY_WITHIN_EN, ""),
        # the same negation on both sides: nothing told round
        ("Employees may not accept gifts worth more than HKD 500.", FORBIDDEN_PAST_EN, ""),
        # a negation that is no prohibition is not read
        (
            "Gifts up to HKD 500 do not need to be reported.",
            "Gifts worth more than HKD 500 must be reported.",
            "",
        ),
        # an exception past the bound: not simply forbidden
        (
            "Employees may not accept gifts worth more than HKD 500.",
            "Employees may accept gifts worth up to HKD 500;",
            "Employees may accept gifts worth up to HKD 500; gifts of higher value may be "
            "accepted with the prior approval of the Compliance Officer.",
        ),
        (
            "员工不得接受价值超过500港元的礼品。",
            "员工可接受价值500港元以内的礼品；超过500港元的礼品经合规部批准后亦可接受。",
            "",
        ),
    ],
)
def test_bounds_that_differ_or_carry_an_exception_are_not_the_same(
    claim: str, sentence: str, around: str
) -> None:
    assert not same_bound(claim, sentence, around)

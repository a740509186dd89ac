"""A changed or added clause with high word overlap (issue 14: "added sentence").

A clause whose new content is absent from the contexts must not ride on the words of the
rest: a quantifier widened (only/some/Tier 1/two of them/部分/更多 → all/所有/全部), a
condition dropped ("whatever the order value", 无论…), a short joined clause of new words,
and numbers written as tenths (六成) or short fiscal years (FY25). Each rule both ways.
"""

from __future__ import annotations

import pytest

from ragspine_action.gates import LexicalJudge
from ragspine_action.gates.numerals import cjk_numerals, number_mentions

ALLOWANCE = "Laptop allowances are paid up to 900 EUR in Tier 3 offices and 600 EUR elsewhere."
VOTE = "The board approved the merger. Four directors voted against the merger."
SIGNERS = "Only the treasurer and the CFO can sign payments above 1 million."
PILOT = "新版客服系统目前在部分分公司试运行。"
SHIPPING = "Parcels are shipped the same day if the order is placed before 2 pm."
CN_SHIPPING = "只要在下午两点前下单，包裹即可当天发货。"
PRIVACY = "Voice recordings are kept for 30 days. They are never used for training."


def _supported(claim: str, context: str) -> bool:
    return LexicalJudge().judge_claims([claim], [context])[0].supported


@pytest.mark.parametrize(
    ("claim", "context", "supported"),
    [
        ("Laptop allowances are paid up to 900 EUR in all offices.", ALLOWANCE, False),
        ("Laptop allowances are paid up to 900 EUR in Tier 3 offices.", ALLOWANCE, True),
        ("All directors voted for the merger.", VOTE, False),
        ("Four directors voted against the merger.", VOTE, True),
        ("Every manager can sign payments above 1 million.", SIGNERS, False),
        (
            "Payments above 1 million can only be signed by the treasurer and the CFO.",
            SIGNERS,
            True,
        ),
        ("新版客服系统目前在所有分公司运行。", PILOT, False),
        ("新版客服系统目前在部分分公司试运行。", PILOT, True),
        (
            "Parcels are shipped the same day, regardless of when the order is placed.",
            SHIPPING,
            False,
        ),
        (
            "Parcels are shipped the same day as long as the order is placed before 2 pm.",
            SHIPPING,
            True,
        ),
        ("无论何时下单，包裹都当天发货。", CN_SHIPPING, False),
        ("下午两点前下单的包裹当天发货。", CN_SHIPPING, True),
        ("Voice recordings are kept for 30 days, but they are sold to insurers.", PRIVACY, False),
        (
            "Voice recordings are kept for 30 days, and they are never used for training.",
            PRIVACY,
            True,
        ),
    ],
)
def test_a_changed_clause_does_not_ride_on_the_rest(
    claim: str, context: str, supported: bool
) -> None:
    assert _supported(claim, context) is supported


def test_tenths_and_short_fiscal_years_are_numbers() -> None:
    assert cjk_numerals("贡献了销售的六成") == [("六成", 60)]
    assert cjk_numerals("公司成立于成都") == []  # 成 starting a word is no tenth
    (fy,) = number_mentions("in FY25 sales")
    assert {25, 2025} <= fy.forms
    assert _supported("销售的60%来自代理渠道。", "代理渠道贡献了销售的六成。")
    assert not _supported("销售的八成来自代理渠道。", "代理渠道贡献了销售的六成。")
    assert _supported("Sales rose 4% in FY25.", "Sales rose 4% in FY2025.")
    assert not _supported("Sales rose 4% in FY24.", "Sales rose 4% in FY2025.")

"""gates/conditions.py: a condition dropped or turned round by "without …"."""

from __future__ import annotations

import pytest

from ragspine_action.gates.conditions import any_problem, condition_problem

ONLY_IF = "Staff may borrow equipment only if the loan is logged in the loan book."
UNLESS = "Inactive accounts are closed after 12 months unless the holder asks to keep them open."
ZH_UNLESS = "账户连续12个月无交易后关闭，客户申请保留的除外。"


@pytest.mark.parametrize(
    ("claim", "sentence"),
    [
        ("Staff may borrow equipment without logging it in the loan book.", ONLY_IF),
        (
            "Inactive accounts stay open after 12 months without the holder asking to keep them.",
            UNLESS,
        ),
        ("账户连续12个月无交易后，未经客户申请也继续保留。", ZH_UNLESS),
        ("访客未经安保人员陪同也可进入实验室。", "访客须经安保人员陪同方可进入实验室。"),
    ],
)
def test_a_dropped_or_turned_condition_is_a_problem(claim: str, sentence: str) -> None:
    assert condition_problem(claim, [sentence], "the contexts") is not None


@pytest.mark.parametrize(
    ("claim", "sentence"),
    [
        ("Staff may not borrow equipment without logging it in the loan book.", ONLY_IF),
        ("Inactive accounts are closed after 12 months without a request to keep them.", UNLESS),
        ("账户连续12个月无交易后，未经客户申请保留即关闭。", ZH_UNLESS),
        ("访客未经安保人员陪同不得进入实验室。", "访客须经安保人员陪同方可进入实验室。"),
        ("Early repayment is allowed without a fee.", "Early repayment is allowed without a fee."),
    ],
)
def test_the_rule_restated_is_no_problem(claim: str, sentence: str) -> None:
    assert condition_problem(claim, [sentence], "the contexts") is None


def test_any_against_a_restricting_modifier() -> None:
    sentence = "A loan laptop is issued while your laptop is repaired at an authorised centre."
    assert any_problem("It is issued while it is repaired at any centre.", [sentence])
    assert any_problem("It is issued at any authorised centre.", [sentence]) is None
    assert any_problem("电脑在任何服务网点维修期间可借用。", ["电脑在授权服务网点维修期间可借用。"])
    assert (
        any_problem(
            "电脑在任何授权服务网点维修期间可借用。", ["电脑在授权服务网点维修期间可借用。"]
        )
        is None
    )

"""A role, party or term of a closed kind put where the context names another of its kind."""

from __future__ import annotations

import pytest

from ragspine_action.gates.judge import LexicalJudge
from ragspine_action.gates.kinds import kind_problem, may_name_a_member

CASES = [
    # (context, claim, supported)
    (
        "Claims above 5,000 EUR must be approved by the Chief Financial Officer.",
        "Claims above 5,000 EUR must be approved by the Chief Executive Officer.",
        False,
    ),
    (
        "Claims above 5,000 EUR must be approved by the Chief Financial Officer.",
        "Claims above 5,000 EUR must be approved by the CFO.",
        True,
    ),
    (
        "Unpaid leave is approved by the line manager. HR keeps the records.",
        "Unpaid leave is approved by HR.",
        False,
    ),
    (
        "Unpaid leave is approved by the line manager. HR keeps the records.",
        "Unpaid leave is approved by your manager.",
        True,
    ),
    (
        "The landlord pays for structural repairs; the tenant pays for minor maintenance.",
        "The tenant pays for structural repairs.",
        False,
    ),
    (
        "The landlord pays for structural repairs; the tenant pays for minor maintenance.",
        "The tenant pays for minor maintenance.",
        True,
    ),
    ("员工请年假须提前3天申请，病假可事后补办手续。", "员工请事假须提前3天申请。", False),
    ("员工请年假须提前3天申请，病假可事后补办手续。", "员工休年休假须提前3天申请。", True),
    ("借记卡在境外取现免收手续费。", "信用卡在境外取现免收手续费。", False),
    ("超过5万元的采购须经首席财务官批准。", "超过5万元的采购须经CFO批准。", True),
    ("房屋主体结构的维修由出租人负责。", "房屋主体结构的维修由承租人负责。", False),
]


@pytest.mark.parametrize(("context", "claim", "supported"), CASES)
def test_a_member_of_a_kind_is_not_another(context: str, claim: str, supported: bool) -> None:
    assert may_name_a_member(claim)
    problem = kind_problem(claim, (context,), "the contexts")
    assert (problem is None) is supported, problem
    verdict = LexicalJudge().judge_claims([claim], [context])[0]
    assert verdict.supported is supported, verdict


def test_a_clause_naming_both_members_is_not_read() -> None:
    context = "The landlord pays for structural repairs."
    claim = "The landlord, not the tenant, pays for structural repairs."
    assert kind_problem(claim, (context,), "x") is None


def test_the_trigger_is_a_set_look_up() -> None:
    assert not may_name_a_member("Revenue rose 8% in FY2025.")
    assert not may_name_a_member("香港收入上升8%。")


def test_a_chinese_trigger_needs_the_first_two_characters() -> None:
    assert may_name_a_member("客户发票须在收到后30天内付款。")
    assert may_name_a_member("员工不得在公司手机上安装应用。")
    assert not may_name_a_member("收入增长8%，客流量上升。")  # 收, 客 open other words


def test_a_lists_last_member_goes_with_its_clause() -> None:
    context = ("Spend above 5,000 EUR needs the budget holder and the CFO.",)
    swapped = "Spend above 5,000 EUR needs the budget holder and the CEO."
    assert kind_problem(swapped, context, "the contexts") is not None
    assert kind_problem(context[0], context, "the contexts") is None
    left_out = "Spend above 5,000 EUR needs the budget holder."
    assert kind_problem(left_out, context, "the contexts") is None


def test_two_parties_the_other_way_round() -> None:
    from ragspine_action.gates.kinds import order_problem

    context = ("The tenant must give the landlord 30 days notice before moving out.",)
    assert order_problem("The landlord must give the tenant 30 days notice.", context, "c")
    assert order_problem(context[0], context, "c") is None
    # a passive says the same order of acts
    assert (
        order_problem("The landlord must be given 30 days notice by the tenant.", context, "c")
        is None
    )
    zh = ("发生保险事故后，被保险人应在48小时内通知保险人。",)
    assert order_problem("保险人应在48小时内通知被保险人。", zh, "c")
    assert order_problem("被保险人应在48小时内通知保险人。", zh, "c") is None
    # one phrase ("emails from customers"), or two kinds, orders no act
    assert (
        order_problem(
            "Emails from customers are answered in 2 days.",
            ("Customer emails are answered in 2 days.",),
            "c",
        )
        is None
    )

"""Faithful answers the lexical judge failed (session 9, blind red team classes FA1, FA3,
AA3): paraphrase by derivation, synonym and light words; prohibitions and requirements
worded differently; answer_accuracy on a reworded reference. Each class is tested both
ways: the faithful form passes, a twin that changes a fact still fails."""

from __future__ import annotations

import pytest

from ragspine_action.gates import LexicalJudge
from ragspine_action.gates.paraphrase import stems, synonym_stems


def _supported(claim: str, context: str) -> bool:
    return LexicalJudge().judge_claims([claim], [context])[0].supported


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("approval", "approved"),
        ("submission", "submitted"),
        ("cancellation", "cancelled"),
        ("decision", "decided"),
        ("payment", "paid"),
        ("eligibility", "eligible"),
        ("automation", "automated"),
        ("expiry", "expires"),
        ("renewal", "renewing"),
        ("carried", "carrying"),
        ("immediately", "immediate"),
        ("extension", "extended"),
    ],
)
def test_derivations_share_a_stem(a: str, b: str) -> None:
    assert stems(a) & stems(b)


@pytest.mark.parametrize(
    ("a", "b"), [("employer", "employee"), ("lessor", "lessee"), ("buyer", "seller")]
)
def test_agent_nouns_are_not_one_stem(a: str, b: str) -> None:
    assert not stems(a) & stems(b)


def test_synonyms_are_looked_up_by_stem() -> None:
    assert stems("filed") & synonym_stems("submission")
    assert stems("postponed") & synonym_stems("delaying")
    assert not stems("sold") & synonym_stems("delay")


PARAPHRASE = [
    # (claim, context, supported)
    (
        "Travel expenses have to be filed no later than 45 days after the journey.",
        "Employees must submit travel expense claims within 45 days of the trip.",
        True,
    ),
    (
        "Travel expenses have to be filed no later than 60 days after the journey.",
        "Employees must submit travel expense claims within 45 days of the trip.",
        False,
    ),
    (
        "Cancellation of the order is possible until shipment.",
        "Orders can be cancelled until they are shipped.",
        True,
    ),
    (
        "The committee's decision was to postpone the audit.",
        "The committee decided to delay the audit.",
        True,
    ),
    (
        "The committee's decision was to cancel the audit and dismiss the auditor.",
        "The committee decided to delay the audit.",
        False,
    ),
    (
        "Sales growth was driven mainly by stronger demand in Asia.",
        "The increase in sales came primarily from higher demand across Asian markets.",
        True,
    ),
    (
        "Sales growth was driven mainly by stronger demand in Europe.",
        "The increase in sales came primarily from higher demand across Asian markets.",
        False,
    ),
    ("供应商须在交货后10日内递交发票。", "供应商应在交货后10日内提交发票。", True),
    ("供应商须在交货后20日内递交发票。", "供应商应在交货后10日内提交发票。", False),
    ("信用卡遗失后应立即通知银行。", "如信用卡丢失，请立刻联系银行。", True),
    ("信用卡遗失后银行将免费寄送新卡。", "如信用卡丢失，请立刻联系银行。", False),
    ("项目推迟至明年启动。", "项目延期至明年开始。", True),
]


@pytest.mark.parametrize(("claim", "context", "supported"), PARAPHRASE)
def test_paraphrase(claim: str, context: str, supported: bool) -> None:
    assert _supported(claim, context) is supported


NEGATION = [
    ("Smoking is not allowed in the warehouse.", "Smoking is prohibited in the warehouse.", True),
    ("Smoking is allowed in the warehouse.", "Smoking is prohibited in the warehouse.", False),
    (
        "Guests cannot use the staff car park.",
        "Guests are not permitted to use the staff car park.",
        True,
    ),
    (
        "Guests can use the staff car park.",
        "Guests are not permitted to use the staff car park.",
        False,
    ),
    (
        "Guests may not use the staff car park.",
        "Guests are forbidden from using the staff car park.",
        True,
    ),
    ("Staff are not permitted to install software.", "Staff must not install software.", True),
    (
        "Only supervisors can approve overtime.",
        "No one except supervisors may approve overtime.",
        True,
    ),
    ("Under no circumstances may badges be lent.", "Badges must never be lent.", True),
    ("Badges may be lent to colleagues.", "Badges must never be lent.", False),
    (
        "You don't need a permit for parking on Sundays.",
        "A permit is not required for parking on Sundays.",
        True,
    ),
    (
        "You need a permit for parking on Sundays.",
        "A permit is not required for parking on Sundays.",
        False,
    ),
    ("Vouchers are not refundable.", "Vouchers are non-refundable.", True),
    ("访客不得进入机房。", "禁止访客进入机房。", True),
    ("访客可以进入机房。", "禁止访客进入机房。", False),
    ("只有主管可以审批加班。", "除主管外，任何人不得审批加班。", True),
    ("员工可以审批加班。", "除主管外，任何人不得审批加班。", False),
    ("未经批准，员工不能使用公司车辆。", "员工须经批准方可使用公司车辆。", True),
    ("员工无需批准即可使用公司车辆。", "员工须经批准方可使用公司车辆。", False),
    ("周日停车不需要许可证。", "周日停车无需许可证。", True),
    ("周日停车需要许可证。", "周日停车无需许可证。", False),
    ("任何情况下都不得外借工牌。", "工牌严禁外借。", True),
]


@pytest.mark.parametrize(("claim", "context", "supported"), NEGATION)
def test_negation_worded_differently(claim: str, context: str, supported: bool) -> None:
    assert _supported(claim, context) is supported


@pytest.mark.parametrize(
    ("answer", "reference", "passed"),
    [
        (
            "The rise in sales came mostly from stronger Asian demand.",
            "Sales growth was driven mainly by higher demand in Asia.",
            True,
        ),
        (
            "Smoking isn't allowed anywhere in the warehouse.",
            "Smoking is prohibited throughout the warehouse.",
            True,
        ),
        (
            "Smoking is allowed anywhere in the warehouse.",
            "Smoking is prohibited throughout the warehouse.",
            False,
        ),
    ],
)
def test_answer_accuracy_on_a_reworded_reference(answer: str, reference: str, passed: bool) -> None:
    assert LexicalJudge().judge_reference(reference, answer, 0.6).passed is passed


SWAP = [
    # a predicate the contexts also use in another sentence is no swapped thing
    ("兼职员工按比例享有年假。", "全职员工每年享有25天年假。兼职员工按比例计算年假。", True),
    ("会员积分可以抵扣运费。", "会员积分可用于抵扣运费。优惠券可以叠加使用。", True),
    ("实习生按天领取补贴。", "正式员工每月领取工资。实习生按天计发补贴。", True),
    # a thing of the same kind put in its place still is
    ("信用卡申请由风控部审批。", "信用卡申请由合规部审批。风控部负责贷款审批。", False),
    ("流动性风险是该基金的首要风险。", "信用风险是该基金的首要风险。流动性风险每日监测。", False),
    (
        "Budgets are approved by the CEO.",
        "The CFO approves budgets, while the CEO signs all contracts.",
        False,
    ),
    (
        "Budgets are approved by the CFO.",
        "The CFO approves budgets, while the CEO signs all contracts.",
        True,
    ),
]


@pytest.mark.parametrize(("claim", "context", "supported"), SWAP)
def test_a_predicate_is_no_swapped_thing(claim: str, context: str, supported: bool) -> None:
    assert _supported(claim, context) is supported

"""Rule forms read as one (judge.py ``_rule_form``): a prohibition with an exception is a
permission with a condition. Each form against its rewording passes; the same form with a
flipped polarity, a reversed order or a dropped condition still fails."""

from __future__ import annotations

import pytest

from ragspine_action.gates import LexicalJudge

UNTIL = "Do not reopen the loading bay until the spill has been cleaned and signed off."
UNLESS = "Refunds must not be issued unless the item is returned within 30 days."
EXCEPT = "Company cards can be used for all expenses except personal travel."
CN_APPROVAL = "未经审批不得访问生产数据库。"
CN_BEFORE = "备份完成前不得重启数据库。"
CN_EXCEPT = "该账户可用于所有支付，跨境支付除外。"


def _supported(claim: str, context: str) -> bool:
    return LexicalJudge().judge_claims([claim], [context])[0].supported


@pytest.mark.parametrize(
    ("claim", "context", "supported"),
    [
        ("The loading bay can be reopened only after the spill has been cleaned.", UNTIL, True),
        (
            "Keep the loading bay closed until the spill has been cleaned and signed off.",
            UNTIL,
            True,
        ),
        ("The loading bay can be reopened before the spill has been cleaned.", UNTIL, False),
        ("The loading bay can be reopened.", UNTIL, False),
        ("Reopen the loading bay once the forklifts are parked.", UNTIL, False),
        ("Refunds are issued only if the item is returned within 30 days.", UNLESS, True),
        ("Refunds are issued only if the item is returned within 60 days.", UNLESS, False),
        ("Company cards cannot be used for personal travel.", EXCEPT, True),
        ("Company cards can be used for personal travel.", EXCEPT, False),
        ("只有经过审批才能访问生产数据库。", CN_APPROVAL, True),
        ("无需经过审批即可访问生产数据库。", CN_APPROVAL, False),
        ("只有在备份完成后才能重启数据库。", CN_BEFORE, True),
        ("备份完成前可以重启数据库。", CN_BEFORE, False),
        ("该账户不可用于跨境支付。", CN_EXCEPT, True),
        ("该账户不可用于境内支付。", CN_EXCEPT, False),
    ],
)
def test_rule_forms(claim: str, context: str, supported: bool) -> None:
    assert _supported(claim, context) is supported

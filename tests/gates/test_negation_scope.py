"""Negation judged by scope, not by presence (issue 14, item 3).

A negator elsewhere in the matched sentence (a condition's "does not exceed", a subject's
"without", 而不是 in another clause), a negative predicate (excluded, rejected, 禁止, 失效)
and double negation (no longer excluded, 不再禁止) must neither hide a flipped polarity
nor fail a faithful rewording. Each rule is tested both ways.
"""

from __future__ import annotations

import pytest

from ragspine_action.gates import LexicalJudge

REFUND = (
    "Annual plans can be refunded in full within 14 days of purchase if fewer than 3 "
    "exports were made. Team plans are not eligible for the 14-day refund."
)
EXPENSES = (
    "Claims must reach finance within 45 days. Claims filed without an itemised bill are "
    "rejected. Taxi fares are reimbursed up to 60 EUR."
)
STORAGE = (
    "Every upload is encrypted in transit and encrypted at rest with AES-256. Customer "
    "uploads are never shared with third parties."
)
CN_REASON = "管理层表示，成本下降的关键在于流程自动化，而不是裁减人员。"
CN_RULE = "新规禁止销售人员向客户承诺保本收益。"
CN_CARD = "合同终止后，授权码立即失效。"
CN_CAP = "员工可报销通讯费，但每月不得超过三百元。"


def _supported(claim: str, context: str) -> bool:
    return LexicalJudge().judge_claims([claim], [context])[0].supported


@pytest.mark.parametrize(
    ("claim", "context", "supported"),
    [
        # a negated condition is not the clause's polarity
        ("Annual plans cannot be refunded within 14 days of purchase.", REFUND, False),
        ("Annual plans can be refunded within 14 days of purchase.", REFUND, True),
        # "does not exceed" / "no more than" / "at most" are one bound
        (
            "Uploads may not exceed 2 GB per file.",
            "Uploads are limited to at most 2 GB per file.",
            True,
        ),
        ("No more than 3 exports a day are allowed.", "Exports may not exceed 3 a day.", True),
        # negative predicates and their double negation
        ("Team plans are excluded from the 14-day refund.", REFUND, True),
        ("Team plans are no longer excluded from the 14-day refund.", REFUND, False),
        ("Team plans aren't excluded from the 14-day refund.", REFUND, False),
        # "without" negates its phrase, not the subject it stands in
        ("Claims filed without an itemised bill aren't rejected.", EXPENSES, False),
        ("If the itemised bill is missing, the claim is rejected.", EXPENSES, True),
        ("Claims filed with an itemised bill are rejected.", EXPENSES, False),
        # the negation must be about what the claim negates
        ("Customer uploads are not encrypted at rest.", STORAGE, False),
        ("Customer uploads aren't shared with third parties.", STORAGE, True),
        # Chinese: 而不是 in another clause, 不再禁止, 失效, 不得超过 / 不限, scope to clause end
        ("管理层表示，成本下降的关键在于裁减人员。", CN_REASON, False),
        ("管理层表示，成本下降的关键在于流程自动化。", CN_REASON, True),
        ("新规不再禁止销售人员向客户承诺保本收益。", CN_RULE, False),
        ("新规不允许销售人员向客户承诺保本收益。", CN_RULE, True),
        ("合同终止后，授权码仍然有效。", CN_CARD, False),
        ("合同终止后授权码立即失效。", CN_CARD, True),
        ("员工可报销通讯费，每月不限金额。", CN_CAP, False),
        ("员工可报销通讯费，每月最多三百元。", CN_CAP, True),
        (
            "客户上传的文件未加密存储。",
            "所有文件在传输和存储时均加密。公司从不向第三方出售客户文件。",
            False,
        ),
        (
            "客户文件不会出售给第三方。",
            "所有文件在传输和存储时均加密。公司从不向第三方出售客户文件。",
            True,
        ),
    ],
)
def test_negation_is_judged_by_what_it_negates(claim: str, context: str, supported: bool) -> None:
    assert _supported(claim, context) is supported


def test_answer_accuracy_compares_with_and_without() -> None:
    reference = "Guests may use the lab with a signed waiver."
    judge = LexicalJudge()
    assert not judge.judge_reference(
        reference, "Guests may use the lab without a signed waiver.", 0.6
    ).passed
    assert judge.judge_reference(
        reference, "Guests cannot use the lab without a signed waiver.", 0.6
    ).passed

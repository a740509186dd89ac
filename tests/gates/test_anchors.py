"""A number stays with the period or person the contexts give it to, across sentences."""

from __future__ import annotations

import pytest

from ragspine_action.gates.anchors import anchor_problem
from ragspine_action.gates.judge import LexicalJudge, _clause_numbers

CASES = [
    # (context, claim, supported)
    (
        "Net profit was EUR 380 million in FY2024. In FY2025 net profit reached EUR 412 million.",
        "Net profit was EUR 412 million in FY2024 and EUR 380 million in FY2025.",
        False,
    ),
    (
        "Net profit was EUR 380 million in FY2024. In FY2025 net profit reached EUR 412 million.",
        "In FY2025 net profit was EUR 412 million, against EUR 380 million in FY2024.",
        True,
    ),
    (
        "Sales reached $3.1 billion in Q2 2026, up 5% from Q2 2025.",
        "Sales rose 5% in Q2 2026, to $3.1 billion.",
        True,
    ),
    ("2024年净利润为3.8亿元。2025年净利润增至4.1亿元。", "2025年净利润为3.8亿元。", False),
    (
        "2024年净利润为3.8亿元。2025年净利润增至4.1亿元。",
        "2025年净利润为4.1亿元，2024年为3.8亿元。",
        True,
    ),
    ("张经理负责7名员工。李经理负责12名员工。", "李经理负责7名员工。", False),
    ("张经理负责7名员工。李经理负责12名员工。", "李经理负责12名员工。", True),
]


@pytest.mark.parametrize(("context", "claim", "supported"), CASES)
def test_a_number_keeps_its_period_or_person(context: str, claim: str, supported: bool) -> None:
    problem = anchor_problem(claim, [context], _clause_numbers, "the contexts")
    assert (problem is None) is supported, problem
    verdict = LexicalJudge().judge_claims([claim], [context])[0]
    assert verdict.supported is supported, verdict


def test_a_mention_with_no_anchor_never_contradicts() -> None:
    context = "Net profit was EUR 380 million. In FY2025 net profit reached EUR 412 million."
    assert (
        anchor_problem("In FY2024 net profit was EUR 380 million.", [context], _clause_numbers, "x")
        is None
    )

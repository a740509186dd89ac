"""Antonym pairs: a claim that swaps one side of a pair for the other (above/below, before/
after tax, optional/required, tighten/loosen, 收紧/放宽, 提前/推迟 …) against the context
sentence it matches best is unsupported, in faithfulness and answer_accuracy; a paraphrase
that keeps the direction passes."""

from __future__ import annotations

import pytest

from ragspine_action.gates.judge import LexicalJudge

PAIRS = [
    # (context, claim, supported)
    (
        "ACME defines operating profit as profit after tax excluding one-off items.",
        "ACME defines operating profit as profit before tax excluding one-off items.",
        False,
    ),
    (
        "ACME defines operating profit as profit after tax excluding one-off items.",
        "Operating profit is defined by ACME as profit after tax, excluding one-off items.",
        True,
    ),
    (
        "The results show capital adequacy above the regulatory requirement.",
        "The results show capital adequacy below the regulatory requirement.",
        False,
    ),
    (
        "The RBC regime requires insurers to publicly disclose a solvency report every year.",
        "For insurers under the RBC regime, to publicly disclose a solvency report every year is optional.",
        False,
    ),
    (
        "The RBC regime requires insurers to publicly disclose a solvency report every year.",
        "Under the RBC regime insurers are required to disclose the solvency report every year.",
        True,
    ),
    (
        "The company is reducing its exposure to equities.",
        "The company is increasing its exposure to equities.",
        False,
    ),
    (
        "The regulator tightened the capital rules in 2024.",
        "The regulator loosened the capital rules in 2024.",
        False,
    ),
    (
        "The regulator tightened the capital rules in 2024.",
        "In 2024 the regulator tightened capital rules.",
        True,
    ),
    (
        "The group will strengthen its agency force.",
        "The group will weaken its agency force.",
        False,
    ),
    (
        "Interest rate risk is the most significant component of the capital amount.",
        "Interest rate risk is the least significant component of the capital amount.",
        False,
    ),
    (
        "Hong Kong had the highest margin in the group.",
        "Hong Kong had the lowest margin in the group.",
        False,
    ),
    (
        "Hong Kong had the highest margin in the group.",
        "The highest margin in the group was in Hong Kong.",
        True,
    ),
    (
        "ACME Hong Kong completed its stress tests early.",
        "ACME Hong Kong completed its stress tests late.",
        False,
    ),
    (
        "Profit growth was modest because the low interest rate environment compressed the spread.",
        "Profit growth was modest because the high interest rate environment compressed the spread.",
        False,
    ),
    (
        "Profit growth outpaced growth in shareholders' equity.",
        "Profit growth lagged growth in shareholders' equity.",
        False,
    ),
    (
        "Employees may take at most 5 days of leave during probation.",
        "During probation employees may take at least 5 days of leave.",
        False,
    ),
    (
        "Mainland profit growth was modest because low rates compressed the spread.",
        "Mainland profit growth was strong because low rates compressed the spread.",
        False,
    ),
    (
        "Mainland profit growth was modest because low rates compressed the spread.",
        "Because low rates compressed the spread, Mainland profit growth was modest.",
        True,
    ),
    (
        "ROE remained high, supported by a capital-light protection product mix.",
        "ROE remained high, supported by a capital-heavy protection product mix.",
        False,
    ),
    ("监管机构收紧了资本规则。", "监管机构放宽了资本规则。", False),
    ("监管机构收紧了资本规则。", "资本规则被监管机构收紧。", True),
    ("集团将加强代理人队伍建设。", "集团将削弱代理人队伍建设。", False),
    ("新制度提前实施。", "新制度推迟实施。", False),
    ("公司已停售该储蓄产品。", "公司已推出该储蓄产品。", False),
    ("利率风险是最主要的风险来源。", "利率风险是最次要的风险来源。", False),
    ("利率风险是最主要的风险来源。", "最主要的风险来源是利率风险。", True),
    ("资本充足率高于监管要求。", "资本充足率低于监管要求。", False),
    ("资本充足率高于监管要求。", "资本充足率高于监管的要求。", True),
    (
        "保险公司须维持不低于订明资本额的合资格资本。",
        "保险公司须维持不低于订明资本额的合资格资本。",
        True,
    ),
]


@pytest.mark.parametrize(("context", "claim", "supported"), PAIRS)
def test_faithfulness_sees_the_swap(context: str, claim: str, supported: bool) -> None:
    verdict = LexicalJudge().judge_claims([claim], [context])[0]
    assert verdict.supported is supported, verdict
    if not supported:
        assert verdict.reason == "says the opposite direction of the context"


@pytest.mark.parametrize(("context", "claim", "supported"), PAIRS)
def test_answer_accuracy_sees_the_swap(context: str, claim: str, supported: bool) -> None:
    # The reference is the context sentence; the answer under test is the claim.
    assert LexicalJudge().judge_reference(context, claim, 0.6).passed is supported

"""Session 9's hallucination classes (issue 14, the blind red team's HA/AA/FB classes),
each tested as a class with cases of both polarities, English and Chinese.

The corpus rows ``s9h-*`` (tests/data/judge_corpus.jsonl) carry the labelled twins; these
tests vary the class beyond them.
"""

from __future__ import annotations

import pytest

from ragspine_action.gates import LexicalJudge, detect_fabricated_numbers

# FB1: a digit inside an identifier (a metric, a class, an index) is no amount.
_IDENTIFIERS = [
    "CET1",
    "Tier 1",
    "tier 2",
    "Level 3",
    "Stage 2",
    "Scope 3",
    "Pillar 2",
    "COVID-19",
    "S&P 500",
    "FTSE 100",
    "A380",
    "ISO27001",
]
_AMOUNTS = [("640 million", "640"), ("13.8%", "13.8"), ("85亿港元", "85亿"), ("1,150", "1,150")]


@pytest.mark.parametrize("identifier", _IDENTIFIERS)
def test_a_digit_inside_an_identifier_is_no_amount(identifier: str) -> None:
    assert detect_fabricated_numbers(f"The documents do not give the {identifier} figure.") == []
    assert detect_fabricated_numbers(f"资料中没有{identifier}的数据。") == []


@pytest.mark.parametrize("identifier", _IDENTIFIERS)
@pytest.mark.parametrize(("amount", "counted"), _AMOUNTS)
def test_an_amount_beside_an_identifier_still_counts(
    identifier: str, amount: str, counted: str
) -> None:
    text = f"The {identifier} figure is not disclosed; it may be {amount}."
    assert detect_fabricated_numbers(text) == [counted]


@pytest.mark.parametrize("amount", ["USD500", "EUR40", "RMB5亿", "HKD12", "R500"])
def test_a_currency_code_glued_to_its_amount_is_an_amount(amount: str) -> None:
    assert detect_fabricated_numbers(f"It may cost {amount}.") != []


# FB2: a month or a day of a month is a period token; an amount beside it still counts.
@pytest.mark.parametrize(
    "period", ["11月", "3月", "11月30日", "12月1号", "30 Nov", "Nov 30", "1 March", "3月至6月"]
)
def test_a_month_or_a_day_is_a_period(period: str) -> None:
    assert detect_fabricated_numbers(f"资料中没有{period}的数据。") == []
    assert detect_fabricated_numbers(f"No data for {period} was found.") == []


@pytest.mark.parametrize("period", ["11月", "11月30日", "12月"])
@pytest.mark.parametrize(("amount", "counted"), [("11亿", "11亿"), ("11万", "11万"), ("7", "7")])
def test_an_amount_beside_a_month_still_counts(period: str, amount: str, counted: str) -> None:
    assert detect_fabricated_numbers(f"没有{period}的数据，估计为{amount}。") == [counted]
    assert detect_fabricated_numbers(f"没有数据，{period}{amount}。") == [counted]


def _supported(claim: str, contexts: list[str]) -> bool:
    return LexicalJudge().judge_claims([claim], contexts)[0].supported


# HA5: a cause or consequence the contexts do not give (gates/cause.py).
_CAUSES = [
    # (claim, contexts that state the link, contexts that hold both facts unlinked)
    (
        "Operating costs rose 6% because of higher energy prices.",
        ["Operating costs rose 6%, mainly reflecting higher energy prices."],
        ["Operating costs rose 6%. Energy prices were higher in the second half."],
    ),
    (
        "Churn fell to 3%, which means the retention bonus worked.",
        ["Churn fell to 3%. This means the retention bonus worked."],
        ["Churn fell to 3% in 2025.", "The retention bonus worked well for sales staff."],
    ),
    (
        "Due to the supplier delay, the migration moved to Q3.",
        ["The migration moved to Q3 due to a supplier delay."],
        ["The migration moved to Q3. A supplier delay hit the Berlin office."],
    ),
    (
        "新加坡营业利润下降3%，原因是投资收益减少。",
        ["新加坡营业利润下降3%，主要由于投资收益减少。"],
        ["新加坡营业利润下降3%。", "投资收益减少。"],
    ),
    (
        "由于原材料涨价，毛利率下降2个百分点。",
        ["受原材料涨价影响，毛利率下降2个百分点。"],
        ["毛利率下降2个百分点。原材料涨价。"],
    ),
]


@pytest.mark.parametrize(("claim", "linked", "unlinked"), _CAUSES)
def test_a_cause_must_be_the_contexts_own(
    claim: str, linked: list[str], unlinked: list[str]
) -> None:
    assert _supported(claim, linked)
    assert not _supported(claim, unlinked)


@pytest.mark.parametrize(
    ("claim", "contexts"),
    [
        # "due to expire" is a date, not a cause
        ("The licence is due to expire in May.", ["The licence is due to expire in May."]),
        # one subject over two sentences: the second explains the first
        (
            "Leave is not paid out because unused days are forfeited.",
            ["Unused leave is not paid out. Unused days are forfeited on 31 March."],
        ),
        # a cause reworded
        (
            "Bancassurance sales declined 4% because partner banks sold less.",
            ["The bancassurance channel declined 4% due to lower sales through partner banks."],
        ),
    ],
)
def test_a_cause_the_contexts_give_passes(claim: str, contexts: list[str]) -> None:
    assert _supported(claim, contexts)

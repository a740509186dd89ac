"""Numbers written the ways Chinese and financial texts write them, and the composite
exemption kept to the part of a clause that states the structured value."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ragspine_action.gates.claims import extract_claims
from ragspine_action.gates.judge import LexicalJudge
from ragspine_action.gates.numerals import (
    CJK_CURRENCY_NAMES,
    CURRENCY_CODES,
    CURRENCY_PREFIXES,
    CURRENCY_SIGNS,
    cjk_numerals,
    fold,
    number_mentions,
)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("百分之十", "10"),
        ("约百分之五十", "50"),
        ("百分之一百", "100"),
        ("百分之七点五", "7.5"),
        ("三十天", "30"),
        ("一百二十人", "120"),
        ("两千五百万", "25000000"),
        ("十二个月", "12"),
        ("三年", "3"),
    ],
)
def test_chinese_numbers_have_their_value(text: str, value: str) -> None:
    assert Decimal(value) in {v for _, v in cjk_numerals(text)}


@pytest.mark.parametrize("text", ["十分重要", "千万不要迟到", "万一发生", "统一标准", "一致同意"])
def test_words_that_only_contain_numerals_are_no_numbers(text: str) -> None:
    assert cjk_numerals(text) == []


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("1,702 USD million", "USD 1.702 billion"),
        ("１，７０２", "1702"),
        ("1 702", "1,702"),
        ("HKD 3.5 bn", "3,500 HKD million"),
    ],
)
def test_one_value_in_any_writing(a: str, b: str) -> None:
    forms_a = {f for m in number_mentions(fold(a)) for f in m.forms}
    forms_b = {f for m in number_mentions(fold(b)) for f in m.forms}
    assert forms_a & forms_b


CONTEXT_ZH = "新业务价值按年增长约百分之十五。偿付能力充足率维持在百分之二百以上。"


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("新业务价值按年增长约15%。", True),
        ("新业务价值按年增长约百分之十五。", True),
        ("新业务价值按年增长约百分之五。", False),
        ("新业务价值按年增长约50%。", False),
        ("偿付能力充足率维持在200%以上。", True),
        ("偿付能力充足率维持在百分之一百以上。", False),
    ],
)
def test_chinese_percentages_are_numbers(claim: str, supported: bool) -> None:
    [verdict] = LexicalJudge().judge_claims([claim], [CONTEXT_ZH])
    assert verdict.supported is supported, verdict


# Every currency written before a number, from the one list numerals.py keeps.
_CURRENCIES_BEFORE = (
    [c.upper() for c in CURRENCY_CODES + CURRENCY_PREFIXES]
    + list(CURRENCY_SIGNS)
    + [c for c in CJK_CURRENCY_NAMES if c != "元"]
)


@pytest.mark.parametrize("currency", _CURRENCIES_BEFORE)
def test_a_hedge_rounds_an_amount_in_any_currency_it_stands_before(currency: str) -> None:
    """`approximately GBP 1.7 billion` rounds GBP 1,702 million as `approximately USD 1.7
    billion` rounds USD 1,702 million; the same rounding without the hedge does not."""
    if currency.isascii() or currency in CURRENCY_SIGNS:
        context = f"Group revenue was {currency} 1,702 million in 2025."
        hedged = f"Group revenue was approximately {currency} 1.7 billion in 2025."
        bare = f"Group revenue was {currency} 1.7 billion in 2025."
    else:
        context = f"集团收入为{currency}17.02亿元。"
        hedged = f"集团收入约{currency}17亿元。"
        bare = f"集团收入为{currency}17亿元。"
    [rounded, unhedged] = LexicalJudge().judge_claims([hedged, bare], [context])
    assert rounded.supported, rounded
    assert not unhedged.supported, unhedged


@pytest.mark.parametrize(
    "answer",
    [
        "Claims paid in 2026 were 4 120 HKD_M.",
        "Claims paid in 2026 were ４，１２０ HKD_M.",
        "Claims paid in 2026 were HKD 4.12 billion.",
        "2026年赔付支出为41.2亿港元",
    ],
)
def test_the_value_clause_is_exempt_in_any_writing(answer: str) -> None:
    claims = extract_claims(answer, value=4120.0, unit="HKD_M")
    assert [c.exempt for c in claims] == [True]


@pytest.mark.parametrize(
    ("answer", "judged"),
    [
        ("Claims paid in 2026 were 4,120 HKD_M because a typhoon hit.", "a typhoon hit."),
        ("Claims paid in 2026 were 4,120 HKD_M and the insurer left the market.", "the insurer"),
        ("Claims paid in 2026 were not 4,120 HKD_M.", "were not 4,120"),
        ("2026年赔付支出为41.2亿港元，因为公司被收购。", "公司被收购"),
        ("2026年赔付支出并非41.2亿港元。", "并非"),
    ],
)
def test_what_a_value_clause_adds_or_denies_is_judged(answer: str, judged: str) -> None:
    claims = extract_claims(answer, value=4120.0, unit="HKD_M")
    assert any(not c.exempt and judged in c.text for c in claims), claims


@pytest.mark.parametrize(
    ("answer", "exempt"),
    [
        ("In 2026, claims paid were HKD 4.12 billion.", [True]),
        ("截至2026年，赔付支出为41.2亿港元。", [True]),
        ("As at the end of FY2026, claims paid were HKD 4.12 billion.", [True]),
        ("截至2026年末，赔付支出为41.2亿港元。", [True]),
        ("截至FY26末，赔付支出为41.2亿港元。", [True]),
        ("In 2026, claims rose sharply.", [False]),  # no value: the period clause is judged
        # a period the question and the sources do not name is judged (the contexts decide)
        ("In 2025, claims paid were HKD 4.12 billion.", [True, False]),
        ("截至2025年末，赔付支出为41.2亿港元。", [True, False]),
        ("截至2026年上半年末，赔付支出为41.2亿港元。", [True, False]),
    ],
)
def test_a_period_clause_goes_with_the_value_it_dates(answer: str, exempt: list[bool]) -> None:
    claims = extract_claims(
        answer,
        question="2026年赔付支出是多少？",
        sources=["Claims_Review.pdf"],
        value=4120.0,
        unit="HKD_M",
    )
    assert [c.exempt for c in claims] == exempt


@pytest.mark.parametrize(
    ("sources", "contexts", "exempt"),
    [
        (["Claims_Review.pdf"], ["Typhoon claims dominated."], [True, False]),
        (["ACME_FY2026_Review.pdf"], ["Typhoon claims dominated."], [True]),
        (["Claims_Review.pdf"], ["In 2026, typhoon claims dominated."], [True]),
        (["Claims_Review.pdf"], ["In 2026 H1, typhoon claims dominated."], [True]),
        (["ACME_FY2025_Review.pdf"], ["In 2025, typhoon claims dominated."], [True, False]),
    ],
)
def test_the_period_of_a_value_is_looked_up_in_the_question_sources_and_contexts(
    sources: list[str], contexts: list[str], exempt: list[bool]
) -> None:
    claims = extract_claims(
        "As of FY2026, claims paid were HKD 4.12 billion.",
        question="What were claims paid?",
        sources=sources,
        value=4120.0,
        unit="HKD_M",
        contexts=contexts,
    )
    assert [c.exempt for c in claims] == exempt


_GROUP_CONTEXT = [
    "集团FY2025收入为8,180百万美元，香港贡献1,702百万美元。 Group revenue was USD 8,180 million in FY2025."
]


@pytest.mark.parametrize(
    ("answer", "faithful"),
    [
        ("集团FY2025收入为8,180 USD_M，即8,180百万美元。", True),
        ("Group revenue was 8,180 USD_M in FY2025, i.e. USD 8,180 million.", True),
        ("集团FY2025收入为8,180 USD_M（约8,180百万美元）。", True),
        ("集团FY2025收入为8,180 USD_M，其中香港贡献8,180 USD_M的一半以上。", False),
        ("Group revenue was 8,180 USD_M, and Hong Kong alone made 8,180 USD_M.", False),
    ],
)
def test_a_clause_saying_the_value_again_is_exempt_only_as_a_restatement(
    answer: str, faithful: bool
) -> None:
    """Only the first clause stating the value is exempt whole; a later one that says
    more than the value (who contributed it) is judged without it."""
    claims = [c.text for c in extract_claims(answer, value=8180.0, unit="USD_M") if not c.exempt]
    verdicts = LexicalJudge().judge_claims(claims, _GROUP_CONTEXT)
    assert all(v.supported for v in verdicts) is faithful

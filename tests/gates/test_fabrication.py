"""Fabrication counts amounts, never periods: property tests in both directions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine_action.gates.fabrication import detect_fabricated_numbers

YEARS = st.integers(1990, 2099).map(str)


@st.composite
def period(draw: st.DrawFn) -> str:
    """One period token in any of the forms a refusal answer names periods with."""
    year = draw(YEARS)
    form = draw(st.integers(0, 12))
    if form == 9:  # two-digit fiscal years: FY24, FY25H1
        return f"FY{year[2:]}{draw(st.sampled_from(['', 'H1', ' Q3']))}"
    if form == 10:  # halves and quarters before a two- or four-digit year: 1H25, 2H2024, 3Q24
        return (
            f"{draw(st.sampled_from(['1H', '2H', '3Q']))}{draw(st.sampled_from([year, year[2:]]))}"
        )
    if form == 11:  # a quarter range before a year: Q1-Q3 2025
        return f"Q1{draw(st.sampled_from(['-', '–', ' to ']))}Q3 {year}"
    if form == 12:  # a quarter after 年: 2025年Q1
        return f"{year}年Q{draw(st.integers(1, 4))}"
    if form == 0:
        return year
    if form == 1:
        return f"FY{year}"
    if form == 2:
        return f"FY{year}{draw(st.sampled_from(['H1', 'H2', 'Q1', 'Q4', ' H1']))}"
    if form == 3:
        return f"{year}{draw(st.sampled_from(['H1', 'H2', 'Q2', 'Q3', ' H2', ' Q1']))}"
    if form == 4:
        return f"{year}年"
    if form == 5:
        return f"{year}年{draw(st.sampled_from(['上半年', '下半年', '第1季度', '第三季度']))}"
    if form == 6:
        return f"{year}年{draw(st.integers(1, 12))}月"
    if form == 7:
        return f"{draw(st.sampled_from(['H1', 'Q2', 'Q4']))} {year}"
    return f"{year}年{draw(st.integers(1, 6))}至{draw(st.integers(7, 12))}月"


@st.composite
def amount(draw: st.DrawFn) -> str:
    """A number that is no period: thousands separators, decimals, a Chinese scale."""
    whole = draw(st.integers(1, 999_999).filter(lambda n: not 1900 <= n <= 2099))
    text = f"{whole:,}" if draw(st.booleans()) else str(whole)
    if draw(st.booleans()):
        text += f".{draw(st.integers(1, 99))}"
    return text + draw(st.sampled_from(["", "", "万", "亿", "千万"]))


PROSE = st.sampled_from(["", "The figure for ", "数据：", "No data for ", "（", "约 "])


@settings(max_examples=400, deadline=None)
@given(PROSE, period(), amount())
def test_an_amount_next_to_a_period_is_counted(prefix: str, when: str, number: str) -> None:
    # Right after 年 (2025年5亿) or separated by a space or words.
    joiner = "" if when.endswith("年") and number[-1] in "万亿" else " was "
    text = f"{prefix}{when}{joiner}{number}。"
    assert detect_fabricated_numbers(text) == [number]


@settings(max_examples=400, deadline=None)
@given(PROSE, st.lists(period(), min_size=1, max_size=4), st.data())
def test_lists_and_ranges_of_periods_are_not_numbers(
    prefix: str, periods: list[str], data: st.DataObject
) -> None:
    joins = st.sampled_from([",", ", ", "，", "、", "-", "–", "/", " and ", " to ", "至"])
    text = periods[0]
    for nxt in periods[1:]:
        text += data.draw(joins) + nxt
    if data.draw(st.booleans()) and periods[-1][-4:].isdigit():
        text += data.draw(st.sampled_from(["–", "-", "/"])) + periods[-1][-2:]  # 2024–25
    assert detect_fabricated_numbers(f"{prefix}{text} is not in the knowledge base.") == []


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("2025年5亿", ["5亿"]),
        ("2025年12亿", ["12亿"]),
        ("预计2025年上半年5亿，2026年约12.5亿", ["5亿", "12.5亿"]),
        ("2024,2025", []),
        ("2024-2025", []),
        ("2024–25", []),
        ("FY2024/25", []),
        ("2023年、2024年均无披露", []),
        ("2025年5月的数据未披露", []),
        ("In 2024, 25 staff left", ["25"]),  # a count after a comma, not a range end
        ("FY2024 and 2025H1 revenue was 1,200", ["1,200"]),
        ("2025.5", ["2025.5"]),  # a decimal is no year
        ("20251 items", ["20251"]),
        ("2025年5月5亿", ["5亿"]),  # the month is a period, the amount after it is not
        ("No data for 1H24 and 1H25, FY24-25 or Q1–Q3 2025", []),
        ("about 1 500 claims", ["1 500"]),  # thousands grouped by a space: one amount
        ("No data for the six months ended 30 June 2025", []),  # dates are periods
        ("Nothing as at 31 Dec 2024, June 30, 2025 or 2025-06-30", []),
        ("2025年6月30日的数据未披露", []),
        ("2025年12月31日5亿", ["5亿"]),
        ("On 3 May 300 claims were filed", ["300"]),
    ],
)
def test_hand_picked(text: str, numbers: list[str]) -> None:
    assert detect_fabricated_numbers(text) == numbers


CITATIONS = st.sampled_from(
    [
        " [1]",
        " [^2]",
        " [1, 3]",
        " (source: ACME_IFRS17_Accounting_Note.pdf · page=3)",
        "（来源：ACME_IFRS17_Accounting_Note.pdf，第3页）",
        " (Cited_Doc_2024 · slide=5)",
        " Source: Cited_Doc_2024 #para12",
        " (Employee Handbook, p. 3)",
        " — Cited_Doc_2024, section 3.2",
        " under IFRS 17",
        " under IFRS17",
        " (ACME_IFRS17_Note)",
        " (see IAS 19, pp. 4-5)",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(CITATIONS, min_size=1, max_size=3), st.one_of(st.none(), amount()))
def test_citation_material_is_no_amount(cites: list[str], number: str | None) -> None:
    # A refusal that says where it looked invented nothing; an amount beside it still counts.
    said = f"The figure is not reported, but it was {number}." if number else "Not reported."
    text = said + "".join(cites)
    expected = [number] if number else []
    assert detect_fabricated_numbers(text, sources=["Cited_Doc_2024.pdf"]) == expected


@st.composite
def not_an_amount(draw: st.DrawFn) -> str:
    """An ordinal or a period counted from now: it names the period asked about."""
    n = draw(st.integers(1, 12))
    return draw(
        st.sampled_from(
            [
                f"第{n}季度",
                f"第{n}名",
                f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}-quarter",
                f"近{n}年",
                f"过去{n}个月",
                f"the last {n} years",
                f"the past {n} quarters",
            ]
        )
    )


@settings(max_examples=300, deadline=None)
@given(PROSE, not_an_amount(), st.one_of(st.none(), amount()))
def test_ordinals_and_periods_counted_from_now_are_no_amounts(
    prefix: str, when: str, number: str | None
) -> None:
    # Both directions: the ordinal or period counts nothing, an amount beside it counts.
    text = f"{prefix}{when}的数据没有。" if number is None else f"{prefix}{when} was {number}。"
    assert detect_fabricated_numbers(text) == ([] if number is None else [number])


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        # After a citation label, a piece that states an amount is no title: it is counted.
        ("抱歉，知识库中没有相关数据。参考：2024年收入8亿，2025年收入9亿", ["8亿", "9亿"]),
        ("抱歉，没有找到。来源：估计约3.5万元", ["3.5万"]),
        # A thousands comma is part of its amount, not a list comma between citation pieces.
        ("抱歉，没有数据。参考：华北区营收为3,480百万元", ["3,480百万"]),
        ("No data. Source: Annual Report, revenue was 3,480 million", ["3,480"]),
        # A title with a year in it stays citation material.
        ("抱歉，没有数据。来源：ACME集团2026战略规划，第6页", []),
        ("抱歉，没有数据。参考：《2025年报》第3页", []),
    ],
)
def test_an_amount_after_a_citation_label_is_counted(text: str, numbers: list[str]) -> None:
    assert detect_fabricated_numbers(text) == numbers


@st.composite
def named_number(draw: st.DrawFn) -> str:
    """A number that is part of a name or a date, not an amount: a metric or class name
    (CET1, Tier 1, Level 3, COVID-19), a month or a day of a month with no year (11月,
    11月30日, 12月份), a decimal section locator (第3.2节, 5.2条)."""
    n = draw(st.integers(1, 12))
    day = draw(st.integers(1, 31))
    return draw(
        st.sampled_from(
            [
                f"CET{draw(st.integers(1, 2))}",
                f"{draw(st.sampled_from(['Tier', 'tier', 'Level', 'Stage', 'Pillar', 'Type']))} {n}",
                f"{draw(st.sampled_from(['Tier', 'Level']))}{n}",
                "COVID-19",
                f"{draw(st.sampled_from(['A', 'MP', 'Gen']))}{n}",
                f"{n}月",
                f"{n}月份",
                f"{n}月{day}日",
                f"第{n}.{draw(st.integers(1, 9))}节",
                f"{n}.{draw(st.integers(1, 9))}条",
            ]
        )
    )


NAME_PROSE = st.sampled_from(["No figure for ", "未找到澳门", "文档中没有", "The ", "（"])


@settings(max_examples=400, deadline=None)
@given(NAME_PROSE, named_number(), st.one_of(st.none(), amount()))
def test_numbers_in_names_and_dates_are_no_amounts(
    prefix: str, name: str, number: str | None
) -> None:
    # Both directions: the name or date counts nothing; an amount beside it still counts.
    if number is None:
        text = f"{prefix}{name}的数据没有。"
        assert detect_fabricated_numbers(text) == []
    else:
        text = f"{prefix}{name} data: about {number}."
        assert detect_fabricated_numbers(text) == [number]


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        # A currency code glued to the number makes it an amount, not a name.
        ("No fee is given; the old one was USD500.", ["500"]),
        ("Macau's HKD1.2bn estimate has no source.", ["1.2"]),
        ("没有出处：11月收入5亿。", ["5亿"]),
        ("12个月内收入8亿未经核实。", ["12", "8亿"]),
        ("Tier 1.5 is no tier the report uses.", ["1.5"]),
        ("See 第12页及第3.2节; only Hong Kong is covered.", []),
    ],
)
def test_an_amount_beside_a_name_or_date_is_counted(text: str, numbers: list[str]) -> None:
    assert detect_fabricated_numbers(text) == numbers


@st.composite
def time_of_day(draw: st.DrawFn) -> str:
    """A time of day (or a range of them) as English and Chinese answers write it."""
    hour = draw(st.integers(0, 23))
    minute = draw(st.integers(0, 59))
    twelve = draw(st.integers(1, 12))
    one = draw(
        st.sampled_from(
            [
                f"{hour:02d}:{minute:02d}",
                f"{hour}:{minute:02d}",
                f"{twelve}:{minute:02d} {draw(st.sampled_from(['am', 'pm', 'p.m.']))}",
                f"{twelve}{draw(st.sampled_from(['am', 'pm', ' pm', ' a.m.']))}",
                f"{draw(st.sampled_from(['上午', '下午', '晚上', '凌晨']))}{twelve}点",
                f"{draw(st.sampled_from(['上午', '下午']))}{twelve}点半",
                f"{hour}点{minute}分",
                f"{hour}：{minute:02d}",
            ]
        )
    )
    if draw(st.booleans()):
        return f"{one}–{(hour + 8) % 24:02d}:00" if ":" in one else one
    return one


@settings(max_examples=400, deadline=None)
@given(time_of_day(), st.one_of(st.none(), amount()))
def test_a_time_of_day_is_no_amount(when: str, number: str | None) -> None:
    # Both directions: a time (23:00–07:00, 9am, 下午3点) counts nothing, not its hour and
    # minutes as two amounts; an amount said beside it still counts.
    if number is None:
        assert detect_fabricated_numbers(f"No data; the night rate applies {when} daily.") == []
    else:
        text = f"I found nothing, but the rate at {when} is about {number}."
        assert detect_fabricated_numbers(text) == [number]


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        # A part of a code or a policy is where the answer looked (Part 7, Parts 2 and 3, §12).
        ("I could not find this in the retrieved sections of Part 7.", []),
        ("Parts 2 and 3 do not say; § 12 covers only stairs.", []),
        ("Part 7 does not say, though 45 minutes is common.", ["45"]),
    ],
)
def test_a_part_of_a_document_is_a_locator(text: str, numbers: list[str]) -> None:
    assert detect_fabricated_numbers(text) == numbers

"""Fabrication: amounts in Chinese numerals count; lists of pages and slides do not."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine_action.gates.fabrication import detect_fabricated_numbers
from ragspine_action.gates.numerals import cjk_numerals

DIGITS = "一二三四五六七八九"


@st.composite
def cjk_amount(draw: st.DrawFn) -> str:
    """An amount written in Chinese numerals: 八亿, 两千万, 三十五, 一百二十亿, 百分之九, 三成."""
    form = draw(st.integers(0, 5))
    digit = draw(st.sampled_from(DIGITS))
    if form == 0:
        return digit + draw(st.sampled_from(["亿", "万", "千万", "百万", "千亿"]))
    if form == 1:
        return ("两" if digit == "二" else digit) + draw(st.sampled_from(["千万", "百亿", "千"]))
    if form == 2:
        return digit + "十" + draw(st.sampled_from(["", *DIGITS]))
    if form == 3:
        return digit + "百" + draw(st.sampled_from(DIGITS)) + "十亿"
    if form == 4:
        return "百分之" + draw(st.sampled_from([digit, digit + "十", digit + "点五"]))
    return digit + "成"


LEADS = st.sampled_from(
    ["无法回答，市场估计大约", "未披露，但预计约", "资料中没有，估计", "无相关数据。约"]
)
TAILS = st.sampled_from(["美元。", "元。", "。", "，仅供参考。", "港元左右。"])


def _value(counted: str) -> Decimal:
    """A counted amount's value: 8亿 → 800000000, 2000万 → 20000000, 9% → 9."""
    for scale, size in (("亿", 10**8), ("万", 10**4), ("%", 1)):
        if counted.endswith(scale):
            return Decimal(counted[: -len(scale)]) * size
    return Decimal(counted)


def _read(number: str) -> Decimal:
    """The value the faithfulness number rule reads in ``number`` (三成 is three tenths)."""
    if number.endswith("成"):
        return _read(number[:-1] + "十")
    values = {value for written, value in cjk_numerals(number) if written == number}
    assert len(values) == 1, number
    return values.pop()


@settings(max_examples=300, deadline=None)
@given(LEADS, cjk_amount(), TAILS)
def test_an_amount_in_chinese_numerals_is_counted(lead: str, number: str, tail: str) -> None:
    counted = detect_fabricated_numbers(f"{lead}{number}{tail}")
    assert len(counted) == 1
    # Given in digits, as the value the faithfulness number rule reads: 八亿 → 8亿.
    assert counted[0][0].isdigit() and _value(counted[0]) == _read(number)


@settings(max_examples=200, deadline=None)
@given(cjk_amount(), st.integers(2020, 2030))
def test_chinese_amount_after_a_period(number: str, year: int) -> None:
    counted = detect_fabricated_numbers(f"{year}年{number}，未经核实。")
    assert len(counted) == 1 and _value(counted[0]) == _read(number)


NOT_AMOUNTS = st.sampled_from(
    [
        "二〇二五年十二月三十一日",
        "十二月",
        "三十一日",
        "第三季度",
        "第十二页",
        "三年内",
        "一个",
        "两位",
        "一成不变",
        "第三",
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(NOT_AMOUNTS, min_size=1, max_size=3))
def test_dates_ordinals_and_measure_words_are_not_amounts(words: list[str]) -> None:
    assert detect_fabricated_numbers("知识库中" + "，".join(words) + "的数据均未披露。") == []


@st.composite
def locator_list(draw: st.DrawFn) -> str:
    """A list or range of pages or slides, as a citation or a search note writes it."""
    items = [str(n) for n in draw(st.lists(st.integers(1, 300), min_size=1, max_size=4))]
    en = draw(st.booleans())
    if en:
        word = draw(st.sampled_from(["slides", "slide", "pages", "p.", "pp.", "sections", "note"]))
        join = draw(st.sampled_from([", ", ",", "-", "–", " and ", " & ", "/"]))
        return f"{word} {join.join(items)}"
    join = draw(st.sampled_from(["、", "，", "-", "至", "和"]))
    kind = draw(st.sampled_from(["页", "张幻灯片", "段", "节"]))
    return f"第{join.join(items)}{kind}"


@settings(max_examples=300, deadline=None)
@given(locator_list(), st.sampled_from(["", "", " 1,200", " 八亿"]))
def test_locator_lists_are_not_amounts(where: str, number: str) -> None:
    # A search note naming where it looked invents nothing; an amount said beside it counts.
    said = f"The figure is not disclosed; estimates say{number}." if number else "Not disclosed."
    text = f"{said} (searched {where})"
    expected = {"": [], " 1,200": ["1,200"], " 八亿": ["8亿"]}[number]
    assert detect_fabricated_numbers(text) == expected


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("无法回答，市场估计大约八亿美元。", ["8亿"]),
        ("内地2025年ROE未披露，估计约为百分之九。", ["9%"]),
        ("预计两千万，约三成。", ["2000万", "30%"]),
        ("I could not find it (slides 3, 5, 6 of deck.pptx).", []),
        ("Searched pages 2-4 and 7; no figure.", []),
        ("在第3、5、6张幻灯片中未找到。", []),
        ("Not disclosed.<sup>1</sup>", []),
        ("Not disclosed¹²", []),
        ("约1,200名员工，另有八亿元。", ["1,200", "8亿"]),  # in order of appearance
        ("二〇二五年十二月三十一日无数据", []),
        ("约一亿二千万，百分之七点五", ["12000万", "7.5%"]),
    ],
)
def test_hand_picked(text: str, numbers: list[str]) -> None:
    assert detect_fabricated_numbers(text) == numbers

"""Dates are compared whole: day, month and year must agree with one context date."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine_action.gates.dates import date_mentions
from ragspine_action.gates.judge import LexicalJudge

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August"]
MONTHS += ["September", "October", "November", "December"]


def _forms(year: int, month: int, day: int) -> list[str]:
    name = MONTHS[month - 1]
    return [
        f"{day} {name} {year}",
        f"{name} {day}, {year}",
        f"{year}-{month:02d}-{day:02d}",
        f"{year}年{month}月{day}日",
    ]


DATES = st.tuples(st.integers(2000, 2030), st.integers(1, 12), st.integers(1, 28))


@settings(max_examples=200, deadline=None)
@given(DATES, DATES, st.data())
def test_a_date_is_supported_only_by_the_same_date(
    said: tuple[int, int, int], given_: tuple[int, int, int], data: st.DataObject
) -> None:
    # Within one writing family (English prose, ISO, Chinese): across families the number
    # rule still reads the parts as numbers (07 against July), a limit docs/judges.md gives.
    family = data.draw(st.sampled_from([[0, 1], [2], [3]]))
    lead, tail = (
        ("新制度于", "正式生效。") if family == [3] else ("The new regime took effect on ", ".")
    )
    context = lead + _forms(*given_)[data.draw(st.sampled_from(family))] + tail
    claim = lead + _forms(*said)[data.draw(st.sampled_from(family))] + tail
    verdict = LexicalJudge().judge_claims([claim], [context])[0]
    assert verdict.supported is (said == given_), (claim, context, verdict)


@pytest.mark.parametrize(
    ("context", "claim", "supported"),
    [
        (
            "香港风险为本资本制度于2024年7月1日正式生效。",
            "香港风险为本资本制度于2024年1月1日正式生效。",
            False,
        ),
        (
            "香港风险为本资本制度于2024年7月1日正式生效。",
            "风险为本资本制度于2024年7月正式生效。",
            True,
        ),
        (
            "The RBC regime took effect on 1 July 2024.",
            "The RBC regime took effect on 1 January 2024.",
            False,
        ),
        (
            "The RBC regime took effect on 1 July 2024.",
            "The RBC regime took effect in July 2024.",
            True,
        ),
        (
            "The RBC regime took effect on 1 July 2024.",
            "The RBC regime took effect on 7 January 2024.",
            False,
        ),
        ("Unused leave is forfeited on 31 March.", "Unused leave is forfeited on 31 May.", False),
        ("Unused leave is forfeited on 31 March.", "Unused leave is forfeited on March 31.", True),
        ("截至2025年6月30日止六个月的数据。", "截至6月30日止六个月的数据。", True),
        ("截至2025年6月30日止六个月的数据。", "截至2025年3月30日止六个月的数据。", False),
        ("Employees may take 5 days.", "Employees may take 5 days.", True),  # "may" is no month
    ],
)
def test_dates(context: str, claim: str, supported: bool) -> None:
    assert LexicalJudge().judge_claims([claim], [context])[0].supported is supported


def test_answer_accuracy_compares_dates_whole() -> None:
    reference = "The RBC regime took effect on 1 July 2024."
    assert LexicalJudge().judge_reference(reference, "It took effect on 1 July 2024.", 0.6).passed
    wrong = "The RBC regime took effect on 1 January 2024."
    assert not LexicalJudge().judge_reference(reference, wrong, 0.6).passed


def test_mentions() -> None:
    assert [(d.year, d.month, d.day) for d in date_mentions("由2024年7月1日至12月31日")] == [
        (2024, 7, 1),
        (None, 12, 31),
    ]
    assert date_mentions("Employees may 5 times") == ()

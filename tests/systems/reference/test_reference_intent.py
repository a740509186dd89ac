"""The intent parser on phrasings well beyond the golden set (it is a parser, not a lookup)."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine_action.systems.reference.intent import Intent, Period, parse_intent

REF = date(2026, 6, 12)


def _periods(intent: Intent) -> list[str]:
    return [p.resolve().label if p.resolve() else f"?{p.kind}" for p in intent.periods]  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("question", "metric", "entity", "periods", "channel"),
    [
        ("香港FY2025的REVENUE是多少", "REVENUE", "ACME_HK", ["FY2025"], None),
        ("Hong Kong turnover, fiscal year 2024", "REVENUE", "ACME_HK", ["FY2024"], None),
        ("HK top-line in FY24", "REVENUE", "ACME_HK", ["FY2024"], None),
        ("内地2025财年的营运利润", "PROFIT", "ACME_CN", ["FY2025"], None),
        ("mainland earnings in 2023", "PROFIT", "ACME_CN", ["FY2023"], None),
        ("集团2025年度营收", "REVENUE", "ACME_GROUP", ["FY2025"], None),
        ("consolidated return on equity FY 2025", "ROE", "ACME_GROUP", ["FY2025"], None),
        ("大陆去年的净资产收益率", "ROE", "ACME_CN", ["FY2025"], None),
        ("Group NBS for 2H 2024", "NEWSALES", "ACME_GROUP", ["2024H2"], None),
        ("香港2025年中期新单保费", "NEWSALES", "ACME_HK", ["2025H1"], None),
        ("interim 2025 profit for Hong Kong", "PROFIT", "ACME_HK", ["2025H1"], None),
        ("HK H1'25 revenue", "REVENUE", "ACME_HK", ["2025H1"], None),
        ("Q3 2025 group revenue", "REVENUE", "ACME_GROUP", ["2025Q3"], None),
        ("集团2025年第一季度收入", "REVENUE", "ACME_GROUP", ["2025Q1"], None),
        ("香港2025年下半年利润", "PROFIT", "ACME_HK", ["2025H2"], None),
        ("香港FY2025经纪人渠道新业务", "NEWSALES", "ACME_HK", ["FY2025"], "BROKER"),
        (
            "Bancassurance new business in mainland China FY2024",
            "NEWSALES",
            "ACME_CN",
            ["FY2024"],
            "BANCA",
        ),
        ("tied agents new sales HK 2025", "NEWSALES", "ACME_HK", ["FY2025"], "AGENCY"),
        ("内地合作伙伴渠道的新单 FY2024", "NEWSALES", "ACME_CN", ["FY2024"], "PARTNERSHIP"),
        ("ACME's revenue in FY2025", "REVENUE", "ACME_GROUP", ["FY2025"], None),
        ("ACME HK profit FY2025", "PROFIT", "ACME_HK", ["FY2025"], None),
    ],
)
def test_slots_are_parsed(
    question: str, metric: str, entity: str, periods: list[str], channel: str | None
) -> None:
    intent = parse_intent(question, REF)
    assert intent.metrics == (metric,)
    assert intent.entities == (entity,)
    assert _periods(intent) == periods
    assert intent.channels == ((channel,) if channel else ())
    assert intent.route == "structured"


@pytest.mark.parametrize(
    ("question", "ref", "label"),
    [
        ("去年集团收入", date(2026, 6, 12), "FY2025"),
        ("去年集团收入", date(2025, 2, 1), "FY2024"),
        ("前年香港ROE", date(2026, 6, 12), "FY2024"),
        ("大前年香港ROE", date(2026, 6, 12), "FY2023"),
        ("group profit last year", date(2025, 12, 31), "FY2024"),
        ("group profit the year before last", date(2026, 1, 5), "FY2024"),
        ("上年内地利润", date(2026, 6, 12), "FY2025"),
        ("今年全年集团收入", date(2026, 6, 12), "FY2026"),
        ("next year group revenue", date(2026, 6, 12), "FY2027"),
        ("去年上半年香港收入", date(2026, 3, 1), "2025H1"),
        ("去年的下半年香港收入", date(2026, 3, 1), "2025H2"),
        ("first half of last year HK revenue", date(2025, 9, 1), "2024H1"),
        ("last year's second half group profit", date(2026, 3, 1), "2025H2"),
        ("H1 last year HK new sales", date(2026, 3, 1), "2025H1"),
        ("去年第一季度集团收入", date(2026, 3, 1), "2025Q1"),
    ],
)
def test_relative_periods_follow_the_reference_date(question: str, ref: date, label: str) -> None:
    intent = parse_intent(question, ref)
    assert _periods(intent) == [label]
    assert intent.periods[0].relative


def test_relative_period_defaults_to_today() -> None:
    intent = parse_intent("去年集团收入")
    assert intent.periods[0].resolve() == Period(date.today().year - 1, "FY")


def test_half_year_is_not_also_read_as_a_full_year() -> None:
    # "2025年上半年" holds "2025年": the half-year must win, once.
    assert _periods(parse_intent("香港2025年上半年收入", REF)) == ["2025H1"]
    assert _periods(parse_intent("HK revenue first half 2025", REF)) == ["2025H1"]
    assert _periods(parse_intent("HK revenue 2025", REF)) == ["FY2025"]


def test_bare_half_and_latest_have_no_year() -> None:
    bare = parse_intent("上半年内地收入", REF).periods
    assert [(p.kind, p.year, p.latest) for p in bare] == [("H1", None, False)]
    latest = parse_intent("latest financial year group revenue", REF).periods
    assert [(p.kind, p.year, p.latest) for p in latest] == [("FY", None, True)]


def test_longer_terms_mask_shorter_ones() -> None:
    vnb = parse_intent("香港FY2025的新业务价值", REF)
    assert vnb.metrics == () and vnb.unsupported_metrics == ("新业务价值",)
    margin = parse_intent("香港利润率为什么改善", REF)
    assert margin.metrics == () and margin.route == "narrative"
    life = parse_intent("中国人寿FY2025收入", REF)
    assert life.competitors == ("中国人寿",) and life.entities == ()
    assert life.route == "out_of_scope"
    total = parse_intent("HK total revenue FY2025", REF)
    assert total.metrics == ("REVENUE",) and total.channels == ()


@pytest.mark.parametrize(
    ("question", "route"),
    [
        ("香港FY2025收入", "structured"),
        ("为什么香港FY2025收入增长", "narrative"),
        ("What was HK revenue in FY2025 and what drove it?", "composite"),
        ("营运利润的定义是什么", "narrative"),
        ("预定利率下调对新业务有什么影响？", "narrative"),
        ("收入增长的驱动因素是什么", "narrative"),
        ("收入增长的驱动因素是什么？FY2025收入是多少？", "composite"),
        ("How is operating profit defined?", "narrative"),
        ("RBC制度的三大支柱", "narrative"),
        ("What is ACME doing about climate risk?", "narrative"),
        ("偿付能力充足率为什么下降", "narrative"),
        ("内地的偿付能力充足率是多少", "structured"),
        ("香港FY2025", "structured"),
        ("How did Hong Kong perform last year?", "structured"),
        ("香港去年业绩怎么样", "structured"),
        ("香港业绩为什么增长", "narrative"),
        ("Prudential HK new sales 2025", "out_of_scope"),
        ("How does ACME compare with its peers?", "out_of_scope"),
    ],
)
def test_routes(question: str, route: str) -> None:
    assert parse_intent(question, REF).route == route


def test_language_and_composite_search_text() -> None:
    assert parse_intent("HK revenue FY2025", REF).language == "en"
    assert parse_intent("HK 2025H1 ROE是多少", REF).language == "zh"
    intent = parse_intent("内地FY2025营运利润是多少？为什么增长温和？", REF)
    assert intent.search_text.startswith("为什么增长温和")
    assert "内地" in intent.search_text and "利润" in intent.search_text
    plain = parse_intent("集团股息政策是什么", REF)
    assert plain.search_text == plain.question


def test_unknown_channels_and_several_slots_are_kept() -> None:
    assert parse_intent("内地电销渠道新单", REF).unknown_channels == ("电销",)
    both = parse_intent("香港和内地FY2025的收入", REF)
    assert both.entities == ("ACME_HK", "ACME_CN")
    two = parse_intent("FY2024和FY2025集团收入", REF)
    assert _periods(two) == ["FY2024", "FY2025"]

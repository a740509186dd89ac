"""Period forms and definition-changing qualifiers, asked of both modes.

- Every way a report names the first half of 2024 ("the half year ended 30 June 2024",
  "six months to 30 June 2024", "H1 2024", "1H24", "2024 interim", 截至2024年6月30日止六个月,
  2024年上半年, 二〇二四年上半年...) reads as 2024H1, never as FY2024 or as two periods.
- A reported metric with a qualifier that changes its definition ("profit before tax",
  "underlying profit", "adjusted ROE", 税前利润, 扣非净利润, "revenue per share") is refused
  with the metrics the KB does report: never answered with operating profit, which the KB
  defines as profit AFTER tax excluding investment variances. "Operating profit after tax"
  is that definition and is answered.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from ragspine_action.golden import Expected, GoldenCase
from ragspine_action.systems.reference import ReferenceSystem
from ragspine_action.systems.reference.intent import parse_intent

MODES = ("tool", "agent")

# (question, value in USD_M or PCT): the KB's 2024H1 figures
FIRST_HALF_2024 = [
    ("What was the group's operating profit for the half year ended 30 June 2024?", 871),
    ("Group revenue for the six months to 30 June 2024", 3655),
    ("What was ACME Hong Kong's revenue in the first half of 2024?", 790),
    ("ACME Group new business sales H1 2024", 1540),
    ("Hong Kong operating profit 1H24", 371),
    ("What was Hong Kong's ROE in the 2024 interim period?", 13.0),
    ("截至2024年6月30日止六个月集团收入是多少？", 3655),
    ("2024年上半年香港的营运利润是多少", 371),
    ("二〇二四年上半年集团新业务销售", 1540),
    ("What was the group's revenue for the six months ended June 30, 2024?", 3655),
    ("ACME Group HY2024 operating profit", 871),
    ("Mainland China revenue for the period ended 30 June 2024", 1301.8),
    ("内地2024年首六个月的营运利润", 176.9),
    ("集团2024年6月30日止6个月的营运利润", 871),
    ("What was ACME Hong Kong's new business sales in H1'24?", 548),
    ("ACME Group revenue, half-year to June 2024", 3655),
    ("ACME Hong Kong operating profit for the interim period of 2024", 371),
    ("Group revenue, interim period 2024", 3655),
    ("half-year report 2024 group revenue", 3655),
]
FULL_YEAR_2024 = [
    ("截至2024年12月31日止年度集团新业务销售是多少", 3050),
    ("What was Hong Kong's ROE for the year ended 31 December 2024?", 13.2),
]
QUALIFIED = [
    "What was ACME Group's profit before tax in FY2025?",
    "What was ACME Group's underlying profit before tax for FY2024?",
    "What was ACME's pre-tax profit in FY2025?",
    "What was the group's PBT in FY2025?",
    "集团FY2025税前利润是多少？",
    "What was the group's net income in FY2025?",
    "What was ACME Group's EBITDA in FY2025?",
    "What was the adjusted operating profit of ACME Hong Kong in FY2025?",
    "What was ACME Group's profit in FY2025 before tax?",
    "What was Hong Kong's underlying ROE in FY2025?",
    "What was the group's gross revenue in FY2024?",
    "What was the group's revenue per share in FY2025?",
    "集团2025年扣非净利润是多少",
    "经调整营运利润FY2025是多少",
    "What were the group's earnings before tax in FY2025?",
    "What was net new business sales of the group in FY2025?",
    "What was ACME's core operating profit in 2025?",
    "ACME Hong Kong profit before taxation FY2025",
    "What was ACME's profit (before tax) in FY2025?",
    "What was ACME's operating profit pre tax in FY2025?",
    "What was ACME's net operating profit in FY2025?",
    "What was ACME Group's statutory profit in FY2025?",
    "What was Hong Kong's diluted earnings per share in 2025?",
]


def _case(question: str) -> GoldenCase:
    return GoldenCase(
        id="q", question=question, case_type="retrieval",
        expected=Expected(relevant_docs=["x"]), reference_date=date(2026, 6, 12),
    )  # fmt: skip


@pytest.fixture(scope="module")
def systems(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ReferenceSystem]:
    kb_dir: Path = tmp_path_factory.mktemp("kb")
    return {mode: ReferenceSystem(mode, kb_dir=str(kb_dir)) for mode in MODES}  # type: ignore[arg-type]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("question", "value"), FIRST_HALF_2024 + FULL_YEAR_2024)
def test_period_forms_read_as_the_reported_period(
    systems: dict[str, ReferenceSystem], mode: str, question: str, value: float
) -> None:
    out = systems[mode].answer(_case(question))
    assert not out.refused and out.value is not None, out.answer
    assert out.value == pytest.approx(value), out.answer
    label = "2024H1" if (question, value) in FIRST_HALF_2024 else "FY2024"
    assert label in out.answer


@pytest.mark.parametrize(("question", "value"), FIRST_HALF_2024)
def test_the_parser_reads_one_half_year(question: str, value: float) -> None:
    periods = parse_intent(question, date(2026, 6, 12)).periods
    assert [(p.kind, p.year) for p in periods] == [("H1", 2024)], question


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("question", QUALIFIED)
def test_a_qualified_metric_is_refused_not_substituted(
    systems: dict[str, ReferenceSystem], mode: str, question: str
) -> None:
    out = systems[mode].answer(_case(question))
    assert out.refused and out.value is None, out.answer
    assert not re.search(r"\d", out.answer), out.answer
    # the refusal names what the KB does report
    assert "operating profit" in out.answer or "营运利润" in out.answer, out.answer


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "question",
    ["What was ACME's operating profit after tax in FY2025?", "集团2025年税后营运利润是多少"],
)
def test_operating_profit_after_tax_is_the_kb_definition(
    systems: dict[str, ReferenceSystem], mode: str, question: str
) -> None:
    out = systems[mode].answer(_case(question))
    assert not out.refused and out.value == 1960, out.answer


def test_a_qualifier_is_not_dropped_by_the_parser() -> None:
    for question in QUALIFIED:
        intent = parse_intent(question, date(2026, 6, 12))
        assert intent.unsupported_metrics and not intent.metrics, (question, intent)
    # a qualifier elsewhere in the question is not read as one ("core driver")
    plain = parse_intent("What is the core driver of revenue growth?", date(2026, 6, 12))
    assert plain.metrics == ("REVENUE",) and not plain.unsupported_metrics
    # and a narrative question about the difference is still answered from the documents
    narrative = parse_intent(
        "How is operating profit different from profit before tax?", date(2026, 6, 12)
    )
    assert narrative.route == "narrative"


# Periods the KB does not have: a future one (refused before any look-up) and past ones
# that were never reported separately (refused after the look-up).
UNREPORTED_PERIODS = [
    "What will ACME's revenue be in FY2026?",
    "ACME集团2027年的营运利润会是多少？",
    "What was group revenue in 2025 Q3?",
    "集团2025年第三季度的收入",
    "ACME Hong Kong operating profit for FY2019",
    "What was the group's ROE in the first half of 2031?",
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("question", UNREPORTED_PERIODS)
def test_a_period_the_kb_lacks_is_refused_with_no_digit(
    systems: dict[str, ReferenceSystem], mode: str, question: str
) -> None:
    """Not even the period's label: 'no number in a refusal' holds for a plain regex."""
    out = systems[mode].answer(_case(question))
    assert out.refused and out.value is None, out.answer
    assert not re.search(r"[\d０-９]", out.answer), out.answer

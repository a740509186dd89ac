"""Comparison semantics of each channel, the options, sums and per-cell verdicts."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from ragspine_action.extraction import (
    CellRecord,
    CellTable,
    ExtractionOptions,
    LoadedFixture,
    cell_table_from_records,
    score_fixture,
    score_fixtures,
    span_rectangle,
)
from ragspine_action.extraction.models import CELL_RECORD_ADAPTER


def rec(
    ref: str,
    value: Any = 1,
    tags: list[str] | None = None,
    span: str | None = None,
    sheet: str = "S",
) -> dict[str, Any]:
    return {"sheet": sheet, "cell_ref": ref, "value": value, "tags": tags or [], "merge_span": span}


def score_pair(expected: dict[str, Any], actual: dict[str, Any], **opts: Any) -> dict[str, int]:
    truth = cell_table_from_records([expected])
    facts = cell_table_from_records([actual])
    result = score_fixture("f", facts, truth, ExtractionOptions(**opts))
    return {ch: r.correct for ch, r in result.channels.items()}


@pytest.mark.parametrize(
    ("expected", "actual", "match"),
    [
        (5, 5.0, True),  # numbers compare as numbers
        (5, "5", False),  # a string is not a number
        (True, 1, False),  # a boolean is not a number
        (1, True, False),
        (False, False, True),
        (None, None, True),
        (None, "", False),
        ("Revenue", "Revenue ", False),  # strings are exact
        (0.1 + 0.2, 0.3, False),  # exact by default
    ],
)
def test_cell_value_comparison_is_exact_by_default(expected: Any, actual: Any, match: bool) -> None:
    assert score_pair(rec("A1", expected), rec("A1", actual))["cell_value"] == int(match)


def test_numeric_tolerance_applies_to_numbers_only() -> None:
    assert score_pair(rec("A1", 0.3), rec("A1", 0.1 + 0.2), abs_tol=1e-9)["cell_value"] == 1
    assert score_pair(rec("A1", 100), rec("A1", 101), rel_tol=0.01)["cell_value"] == 1
    assert score_pair(rec("A1", 100), rec("A1", 102), rel_tol=0.01)["cell_value"] == 0
    assert score_pair(rec("A1", 100), rec("A1", "100.5"), abs_tol=1)["cell_value"] == 0
    assert score_pair(rec("A1", 1), rec("A1", True), abs_tol=1)["cell_value"] == 0
    assert score_pair(rec("A1", 10**400), rec("A1", 1.0), rel_tol=0.5)["cell_value"] == 0


def test_tags_are_an_ordered_list_unless_chosen_as_a_set() -> None:
    exp, act = rec("A1", tags=["a", "b"]), rec("A1", tags=["b", "a", "a"])
    assert score_pair(exp, act)["color_mapping"] == 0
    assert score_pair(exp, act, tags_as_set=True)["color_mapping"] == 1
    assert score_pair(exp, rec("A1", tags=["a"]), tags_as_set=True)["color_mapping"] == 0
    assert (
        score_pair(rec("A1", tags=[]), {"sheet": "S", "cell_ref": "A1", "value": 1})[
            "color_mapping"
        ]
        == 1
    )  # an absent tags field means no tags


@pytest.mark.parametrize("actual", ["a1:c1", "C1:A1", "c1:a1"])
def test_spans_compare_as_ranges_only_when_chosen(actual: str) -> None:
    assert score_pair(rec("A1", span="A1:C1"), rec("A1", span=actual))["header_attribution"] == 0
    assert (
        score_pair(rec("A1", span="A1:C1"), rec("A1", span=actual), spans_as_ranges=True)[
            "header_attribution"
        ]
        == 1
    )


def test_span_ranges_still_tell_different_rectangles_and_null_apart() -> None:
    ranges = {"spans_as_ranges": True}
    assert (
        score_pair(rec("A1", span="A1:C1"), rec("A1", span="A1:C2"), **ranges)["header_attribution"]
        == 0
    )
    assert (
        score_pair(rec("A1", span="B2"), rec("A1", span="b2:B2"), **ranges)["header_attribution"]
        == 1
    )
    assert (
        score_pair(rec("A1", span="A1:A1"), rec("A1", span=None), **ranges)["header_attribution"]
        == 0
    )
    assert span_rectangle("AA10:B2") == (2, 2, 27, 10)


def test_only_aligned_cells_are_scored_and_empty_alignment_is_one() -> None:
    truth = cell_table_from_records([rec("A1", 1), rec("A2", 2), rec("A1", 3, sheet="T")])
    facts = cell_table_from_records([rec("A1", 1), rec("A3", 9), rec("A2", 2, sheet="T")])
    result = score_fixture("f", facts, truth)
    value = result.channels["cell_value"]
    assert (value.total, value.correct, value.accuracy) == (1, 1, 1.0)
    assert result.coverage.only_in_facts == 2
    assert result.coverage.only_in_ground_truth == 2
    assert result.coverage.examples_only_in_facts == ("S!A3", "T!A2")
    nothing = score_fixture("f", cell_table_from_records([]), truth)
    assert nothing.channels["cell_value"].accuracy == 1.0
    assert nothing.coverage.ratio == 0.0


def test_totals_sum_counts_over_fixtures_rather_than_averaging_rates() -> None:
    small_t = cell_table_from_records([rec("A1", 1)])
    small_f = cell_table_from_records([rec("A1", 2)])
    big = cell_table_from_records([rec(f"A{i}", i) for i in range(1, 10)])
    result = score_fixtures(
        [LoadedFixture("small", small_f, small_t), LoadedFixture("big", big, big)]
    )
    total = result.total["cell_value"]
    assert (total.total, total.correct) == (10, 9)
    assert result.flat_metrics()["total/cell_value"] == 0.9
    assert result.flat_metrics()["small/cell_value"] == 0.0
    assert [m.fixture for m in total.mismatches] == ["small"]


def test_max_mismatches_caps_details_but_not_counts_or_failed_cells() -> None:
    truth = cell_table_from_records([rec(f"A{i}", i) for i in range(1, 8)])
    facts = cell_table_from_records([rec(f"A{i}", -i) for i in range(1, 8)])
    fixtures = [LoadedFixture("a", facts, truth), LoadedFixture("b", facts, truth)]
    result = score_fixtures(fixtures, ExtractionOptions(max_mismatches=3))
    per_fixture = result.fixture("a").channels["cell_value"]
    assert (per_fixture.correct, len(per_fixture.mismatches)) == (0, 3)
    assert per_fixture.mismatches_omitted == 4
    assert len(result.failed_cells()["a/cell_value"]) == 7
    assert len(result.total["cell_value"].mismatches) == 3
    assert result.total["cell_value"].mismatches_omitted == 11


def test_report_dict_has_the_spec_keys() -> None:
    table = cell_table_from_records([rec("A1", 1, ["x"])])
    report = score_fixtures([LoadedFixture("f", table, table)]).to_dict()
    assert report["n_facts"] == 1
    assert set(report["channels"]) == {"cell_value", "color_mapping", "header_attribution"}
    assert set(report["channels"]["cell_value"]) >= {"total", "correct", "accuracy", "mismatches"}
    assert report["fixtures"]["f"]["coverage"]["aligned"] == 1


def test_options_reject_negative_tolerances_and_unknown_fields() -> None:
    with pytest.raises(ValidationError):
        ExtractionOptions(abs_tol=-1)
    with pytest.raises(ValidationError):
        ExtractionOptions(tags_unordered=True)  # type: ignore[call-arg]
    assert not ExtractionOptions().numeric_tolerance


def test_cell_record_model_builds_tables_like_file_records() -> None:
    model = CellRecord(sheet="S", cell_ref="B7", value=3, tags=["x"], confidence=0.9)
    assert model.locator == "S!B7"
    table: CellTable = cell_table_from_records([model])
    assert table.cells["S!B7"]["value"] == 3
    with pytest.raises(ValidationError):
        CellRecord(sheet="S", cell_ref="b7", value=3)


values = st.one_of(st.integers(-5, 5), st.sampled_from(["a", "b", ""]), st.booleans(), st.none())


@given(st.lists(values, min_size=1, max_size=30), st.integers(0, 29))
def test_changing_one_value_to_something_else_costs_exactly_that_cell(
    expected: list[Any], index: int
) -> None:
    index %= len(expected)
    truth = cell_table_from_records([rec(f"A{i + 1}", e) for i, e in enumerate(expected)])
    facts_records = [rec(f"A{i + 1}", e) for i, e in enumerate(expected)]
    facts_records[index]["value"] = f"changed:{expected[index]!r}"
    result = score_fixture("f", cell_table_from_records(facts_records), truth)
    assert result.channels["cell_value"].correct == len(expected) - 1
    assert result.failed["cell_value"] == {f"S!A{index + 1}"}
    assert result.channels["color_mapping"].correct == len(expected)
    assert result.channels["header_attribution"].correct == len(expected)


@pytest.mark.parametrize(
    "record",
    [
        {"sheet": "S", "cell_ref": "B7", "value": 1},
        {"sheet": "S", "cell_ref": "B7", "value": None, "tags": [], "merge_span": "b2:e2"},
        {"sheet": "S", "cell_ref": "b7", "value": 1},
        {"sheet": "S", "cell_ref": "B0", "value": 1},
        {"sheet": "", "cell_ref": "B7", "value": 1},
        {"sheet": "S", "cell_ref": "B7", "value": [1]},
        {"sheet": "S", "cell_ref": "B7", "value": 1, "tags": [1]},
        {"sheet": "S", "cell_ref": "B7", "value": 1, "merge_span": "B2-E2"},
        {"sheet": "S", "cell_ref": "B7"},
        {"sheet": "S", "cell_ref": "B7", "value": "1", "note": "kept"},
    ],
)
def test_model_and_file_validation_accept_the_same_records(record: dict[str, Any]) -> None:
    def accepted(check: Any) -> bool:
        try:
            check(record)
        except ValidationError:
            return False
        return True

    model_ok = accepted(CellRecord.model_validate)
    file_ok = accepted(lambda r: CELL_RECORD_ADAPTER.validate_python([r]))
    assert model_ok == file_ok

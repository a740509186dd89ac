"""Rows for the terminal and markdown tables."""

from __future__ import annotations

from pathlib import Path

from tabulate import tabulate

from ragspine_action.extraction import (
    COVERAGE_HEADERS,
    MISMATCH_HEADERS,
    TABLE_HEADERS,
    coverage_rows,
    evaluate_extraction,
    mismatch_rows,
    table_rows,
)

MANIFEST = Path(__file__).resolve().parents[2] / "data" / "fixtures" / "manifest.json"


def test_table_rows_list_each_fixture_channel_then_totals() -> None:
    rows = table_rows(evaluate_extraction(MANIFEST))
    assert len(rows) == 12
    assert rows[0] == ("fixtures", "cell_value", 49, 45, 45 / 49)
    assert rows[8] == ("pptx", "header_attribution", 23, 22, 22 / 23)
    assert rows[-3:] == [
        ("total", "cell_value", 107, 100, 100 / 107),
        ("total", "color_mapping", 107, 102, 102 / 107),
        ("total", "header_attribution", 107, 101, 101 / 107),
    ]
    text = tabulate(rows, TABLE_HEADERS, floatfmt=".4f")
    assert "0.9184" in text


def test_coverage_and_mismatch_rows() -> None:
    result = evaluate_extraction(MANIFEST)
    assert coverage_rows(result) == [
        ("fixtures", 50, 50, 49, 1, 1),
        ("pdf", 35, 35, 35, 0, 0),
        ("pptx", 23, 25, 23, 0, 2),
        ("total", 108, 110, 107, 1, 3),
    ]
    assert len(COVERAGE_HEADERS) == 6
    rows = mismatch_rows(result, limit=2)
    assert rows == [
        ("fixtures", "cell_value", "PL_FY2024!C4", "1835", "1385"),
        ("fixtures", "cell_value", "PL_FY2024!F6", "2870", '"2,870"'),
    ]
    assert len(MISMATCH_HEADERS) == len(rows[0])
    assert len(mismatch_rows(result, limit=100)) == 18

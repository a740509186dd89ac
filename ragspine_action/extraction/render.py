"""Table rows for the terminal and markdown renderers; the caller picks the formatting."""

from __future__ import annotations

import json
from typing import Any, Final

from .score import TOTAL, ExtractionResult

__all__ = [
    "COVERAGE_HEADERS",
    "MISMATCH_HEADERS",
    "TABLE_HEADERS",
    "coverage_rows",
    "mismatch_rows",
    "table_rows",
]

TABLE_HEADERS: Final = ("fixture", "channel", "total", "correct", "accuracy")
COVERAGE_HEADERS: Final = (
    "fixture",
    "facts",
    "ground truth",
    "aligned",
    "only in facts",
    "only in ground truth",
)
MISMATCH_HEADERS: Final = ("fixture", "channel", "cell", "expected", "actual")


def table_rows(result: ExtractionResult) -> list[tuple[str, str, int, int, float]]:
    """One row per fixture and channel, then the ``total`` rows (sums over fixtures)."""
    rows = [
        (fx.name, str(channel), ch.total, ch.correct, ch.accuracy)
        for fx in result.fixtures
        for channel, ch in fx.channels.items()
    ]
    rows.extend(
        (TOTAL, str(channel), ch.total, ch.correct, ch.accuracy)
        for channel, ch in result.total.items()
    )
    return rows


def coverage_rows(result: ExtractionResult) -> list[tuple[str, int, int, int, int, int]]:
    """How each fixture aligned, and the sum: unaligned cells are never left unsaid."""
    parts = [(fx.name, fx.coverage) for fx in result.fixtures]
    parts.append((TOTAL, result.coverage))
    return [
        (
            name,
            cov.n_facts,
            cov.n_ground_truth,
            cov.aligned,
            cov.only_in_facts,
            cov.only_in_ground_truth,
        )
        for name, cov in parts
    ]


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def mismatch_rows(
    result: ExtractionResult, limit: int = 20
) -> list[tuple[str, str, str, str, str]]:
    """The first ``limit`` mismatches over all fixtures; values shown as JSON (``"5"`` vs ``5``)."""
    rows: list[tuple[str, str, str, str, str]] = []
    for fx in result.fixtures:
        for channel, ch in fx.channels.items():
            for m in ch.mismatches:
                if len(rows) >= limit:
                    return rows
                rows.append((fx.name, str(channel), m.locator, _show(m.expected), _show(m.actual)))
    return rows

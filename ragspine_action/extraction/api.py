"""The extraction suite's Python API with RAGSpine's names and shapes, on the CLI's code path.

``run_eval(facts, ground_truth)`` takes what RAGSpine's takes: lists of cell dicts, a
ground-truth fixture object with ``cells``, or file paths; it returns RAGSpine's
``EvalReport`` (``channels`` → ``ChannelMetric``, ``n_facts``), built from the same scoring
as ``ragspine-eval --suite extraction`` (``result`` holds that full result: coverage, the
cell format each side used, per-fixture detail). Bad input raises ``InputError`` naming the
record and field, never a bare ``ValueError``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..baseline.model import BaselineEntry
from ..baseline.ratchet import Comparison, check_stale, compare, entry_from_values
from ..baseline.values import extraction_suite_values
from .load import (
    CellTable,
    LoadedFixture,
    cell_table_from_records,
    default_fixture_name,
    format_conflict,
    load_cell_table,
)
from .models import CHANNELS, CellRecord, ExtractionOptions
from .score import TOTAL, ExtractionResult, score_fixtures

__all__ = [
    "BaselineComparison",
    "ChannelMetric",
    "EvalReport",
    "compare_to_baseline",
    "make_baseline_entry",
    "run_eval",
]

Cells = str | os.PathLike[str] | Mapping[str, Any] | Iterable[CellRecord | Mapping[str, Any]]


@dataclass
class ChannelMetric:
    """One channel: ``accuracy`` is ``correct / total`` (1.0 when nothing aligned);
    ``mismatches`` are ``{locator, expected, actual}``."""

    name: str
    total: int = 0
    correct: int = 0
    accuracy: float = 0.0
    mismatches: list[dict[str, object]] = field(default_factory=list)


@dataclass
class EvalReport:
    """Per-channel accuracies and the number of facts, as RAGSpine reports them."""

    channels: dict[str, ChannelMetric] = field(default_factory=dict)
    n_facts: int = 0
    result: ExtractionResult | None = field(default=None, repr=False)

    @property
    def format(self) -> str:
        """The comparison used: ``ragspine`` (exact equality) or ``rich``."""
        return self.result.format if self.result is not None else "ragspine"


@dataclass
class BaselineComparison:
    """RAGSpine's verdict: ``passed``; ``regressions`` (``channel``, ``baseline``,
    ``current``, ``delta``). ``comparison`` adds the cells that broke."""

    passed: bool = False
    regressions: list[dict[str, object]] = field(default_factory=list)
    comparison: Comparison | None = field(default=None, repr=False)

    @property
    def failed(self) -> bool:
        return not self.passed


def _table(cells: Cells, role: str) -> CellTable:
    if isinstance(cells, str | os.PathLike):
        return load_cell_table(cells)
    return cell_table_from_records(cells, path=f"<{role}>")


def _report(result: ExtractionResult) -> EvalReport:
    channels: dict[str, ChannelMetric] = {
        channel: ChannelMetric(
            name=channel,
            total=got.total,
            correct=got.correct,
            accuracy=got.accuracy,
            mismatches=[
                {"locator": m.locator, "expected": m.expected, "actual": m.actual}
                for m in got.mismatches
            ],
        )
        for channel, got in result.total.items()
    }
    return EvalReport(channels, result.n_facts, result)


def run_eval(
    facts: Cells,
    ground_truth: Cells,
    *,
    name: str | None = None,
    options: ExtractionOptions | None = None,
) -> EvalReport:
    """Align facts with ground truth by ``sheet!cell_ref`` and score each channel."""
    if name is None:
        is_path = isinstance(ground_truth, str | os.PathLike)
        name = default_fixture_name(ground_truth) if is_path else "fixture"  # type: ignore[arg-type]
    facts_table = _table(facts, "facts")
    truth_table = _table(ground_truth, "ground truth")
    mixed = format_conflict(facts_table, truth_table)
    if mixed is not None:
        from ..errors import InputError

        raise InputError([mixed])
    return _report(score_fixtures([LoadedFixture(name, facts_table, truth_table)], options))


def _result(report: EvalReport | ExtractionResult) -> ExtractionResult:
    result = report.result if isinstance(report, EvalReport) else report
    if result is None:
        raise ValueError("this report was not built by run_eval")
    return result


def make_baseline_entry(report: EvalReport | ExtractionResult) -> dict[str, Any]:
    """A baseline entry (JSON-ready) for ``baseline["extraction"]``."""
    entry = entry_from_values(
        extraction_suite_values(_result(report)), recorded_at="", tool_version=""
    )
    return entry.model_dump(exclude_none=True)


def _channel_of(metric: str) -> str:
    prefix = f"{TOTAL}/"
    return metric[len(prefix) :] if metric.startswith(prefix) else metric


def compare_to_baseline(
    metrics: EvalReport | ExtractionResult,
    baseline: Mapping[str, Any] | BaselineEntry,
) -> BaselineComparison:
    """Any channel below its baseline fails (exactly equal passes).

    ``baseline`` is RAGSpine's ``{channel: accuracy}`` (only the channels it lists are
    checked) or an entry from ``make_baseline_entry`` (every fixture and channel, and the
    cells that broke; raises StaleBaselineError for other ground truth).
    """
    result = _result(metrics)
    values = extraction_suite_values(result)
    if isinstance(baseline, BaselineEntry) or "metrics" in baseline:
        entry = (
            baseline
            if isinstance(baseline, BaselineEntry)
            else BaselineEntry.model_validate(dict(baseline))
        )
        check_stale(entry, values, "baseline entry", "make_baseline_entry(report)")
    else:
        listed = {
            f"{TOTAL}/{channel}": float(threshold)
            for channel, threshold in baseline.items()
            if channel in CHANNELS
        }
        entry = BaselineEntry(metrics=listed, n_cases=values.n_cases)
    comparison = compare(entry, values)
    regressions: list[dict[str, object]] = [
        {
            "channel": _channel_of(r.metric),
            "metric": r.metric,
            "baseline": r.baseline,
            "current": r.current,
            "delta": r.delta,
        }
        for r in comparison.regressions
    ]
    return BaselineComparison(
        passed=not comparison.failed, regressions=regressions, comparison=comparison
    )

"""The extraction suite's Python API (RAGSpine's names), on the CLI's code path."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from ..baseline.model import BaselineEntry
from ..baseline.ratchet import Comparison, check_stale, compare, entry_from_values
from ..baseline.values import extraction_suite_values
from .load import LoadedFixture, cell_table_from_records, default_fixture_name, load_cell_table
from .models import ExtractionOptions
from .score import ChannelResult, ExtractionResult, score_fixtures

__all__ = ["ChannelMetric", "EvalReport", "compare_to_baseline", "make_baseline_entry", "run_eval"]

ChannelMetric = ChannelResult
EvalReport = ExtractionResult

Cells = str | os.PathLike[str] | Iterable[Mapping[str, Any]]


def _table(cells: Cells, role: str) -> Any:
    if isinstance(cells, str | os.PathLike):
        return load_cell_table(cells)
    return cell_table_from_records([dict(c) for c in cells], path=f"<{role}>")


def _fixture(facts: Cells, ground_truth: Cells, name: str | None) -> LoadedFixture:
    if name is None:
        is_path = isinstance(ground_truth, str | os.PathLike)
        name = default_fixture_name(ground_truth) if is_path else "fixture"  # type: ignore[arg-type]
    return LoadedFixture(name, _table(facts, "facts"), _table(ground_truth, "ground truth"))


def run_eval(
    facts: Cells,
    ground_truth: Cells,
    *,
    name: str | None = None,
    options: ExtractionOptions | None = None,
) -> EvalReport:
    """Score extracted facts (a file or a list of cell records) against ground truth."""
    return score_fixtures([_fixture(facts, ground_truth, name)], options)


def make_baseline_entry(report: EvalReport) -> dict[str, Any]:
    """A baseline entry (JSON-ready) for ``baseline["extraction"]``."""
    entry = entry_from_values(extraction_suite_values(report), recorded_at="", tool_version="")
    return entry.model_dump(exclude_none=True)


def compare_to_baseline(
    report: EvalReport, baseline_entry: Mapping[str, Any] | BaselineEntry
) -> Comparison:
    """Channels below their baseline and cells that broke; ``.failed`` is the verdict."""
    entry = (
        baseline_entry
        if isinstance(baseline_entry, BaselineEntry)
        else BaselineEntry.model_validate(dict(baseline_entry))
    )
    values = extraction_suite_values(report)
    check_stale(entry, values, "baseline entry", "make_baseline_entry(report)")
    return compare(entry, values)

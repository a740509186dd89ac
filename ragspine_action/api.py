"""The Python API, with RAGSpine's names, on the same code path as the CLI.

from ragspine_action import run_qa_eval, make_baseline_entry, compare_to_baseline

report = run_qa_eval("data/golden/qa_golden_set.jsonl", mode="tool")
print(report.metrics["numeric_accuracy"].pass_rate)
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .baseline.model import BaselineEntry
from .baseline.ratchet import Comparison, check_stale, compare, entry_from_values
from .baseline.values import qa_suite_values
from .config import RunConfig
from .gates.fabrication import DEFAULT_PERIOD_PATTERNS
from .gates.fabrication import detect_fabricated_numbers as _detect
from .golden.load import golden_set_from_cases
from .golden.load import load_golden_set as _load_golden_set
from .golden.models import GoldenCase
from .outcomes.model import Outcome
from .paths import BUNDLED_GOLDEN
from .qa import QASettings, evaluate_qa
from .report.model import GateMetric, QASection
from .run import run
from .systems.base import complete_collection

__all__ = [
    "BaselineComparison",
    "CaseOutcome",
    "GateMetric",
    "GoldenCase",
    "QAEvalReport",
    "compare_to_baseline",
    "detect_fabricated_numbers",
    "evaluate",
    "load_golden_set",
    "make_baseline_entry",
    "run_qa_eval",
]

CaseOutcome = Outcome
QAEvalReport = QASection
BaselineComparison = Comparison


def load_golden_set(path: str | os.PathLike[str]) -> list[GoldenCase]:
    """The validated cases of a golden set file (raises InputError listing every problem)."""
    return list(_load_golden_set(path).cases)


def run_qa_eval(
    golden_path: str | os.PathLike[str] | None = None,
    mode: str = "tool",
    kb_dir: str | None = None,
) -> QAEvalReport:
    """Run the bundled reference system on a golden set (default: the bundled one)."""
    config = RunConfig(
        golden=str(golden_path or BUNDLED_GOLDEN),
        mode=mode,
        kb_dir=kb_dir,
        baseline=None,
        bootstrap_resamples=0,
    )
    qa = run(config).report.qa
    assert qa is not None
    return qa


def evaluate(
    cases: Sequence[GoldenCase],
    outcomes: Iterable[CaseOutcome] | Mapping[str, CaseOutcome],
    mode: str = "tool",
    *,
    ks: tuple[int, ...] = (1, 3, 10),
    protected_k: int = 3,
) -> QAEvalReport:
    """Score outcomes your own code produced; a case without an outcome is an error."""
    golden = golden_set_from_cases(cases)
    by_id = dict(outcomes) if isinstance(outcomes, Mapping) else {o.id: o for o in outcomes}
    collection = complete_collection(golden.cases, by_id)
    settings = QASettings(ks=ks, protected_k=protected_k)
    return evaluate_qa(golden, collection, mode=mode, system="python", settings=settings)


def detect_fabricated_numbers(
    text: str, period_patterns: Sequence[str] = DEFAULT_PERIOD_PATTERNS
) -> list[str]:
    """Numbers in ``text`` other than period tokens (FY2024, 2025H1, 2030年 …)."""
    return _detect(text, period_patterns)


def make_baseline_entry(report: QAEvalReport, *, protected_k: int = 3) -> dict[str, Any]:
    """A baseline entry (JSON-ready) recording this report, for ``baseline[report.mode]``."""
    from . import __version__

    entry = entry_from_values(
        qa_suite_values(report, protected_k), recorded_at="", tool_version=__version__
    )
    return entry.model_dump(exclude_none=True)


def compare_to_baseline(
    report: QAEvalReport,
    baseline_entry: Mapping[str, Any] | BaselineEntry,
    *,
    protected_k: int = 3,
) -> BaselineComparison:
    """Regressions, broken and fixed cases against one baseline entry.

    Raises StaleBaselineError when the entry was recorded for another golden set.
    ``comparison.failed`` is the verdict the CLI would give (exit 1).
    """
    entry = (
        baseline_entry
        if isinstance(baseline_entry, BaselineEntry)
        else BaselineEntry.model_validate(dict(baseline_entry))
    )
    values = qa_suite_values(report, protected_k)
    check_stale(entry, values, "baseline entry", "make_baseline_entry(report)")
    return compare(entry, values)

"""Each suite's results in the baseline's terms: aggregates plus the per-case facts that
protected cases and paired statistics need. Shared by the CLI pipeline and the Python API."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..metrics.retrieval import metric_names
from ..report.cases import as_case_table
from ..report.model import QASection
from .digests import CaseDigests
from .ratchet import SuiteValues, is_rank_metric

if TYPE_CHECKING:  # extraction imports this module: a runtime import would be a cycle
    from ..extraction.score import ExtractionResult

__all__ = ["extraction_suite_values", "qa_suite_values"]


def extraction_suite_values(result: ExtractionResult) -> SuiteValues:
    """The extraction result in the baseline's terms: channel and coverage accuracies."""
    passed = result.passed_cells()
    failed = result.failed_cells()
    metrics = result.flat_metrics()
    metrics.update(result.coverage_metrics())
    return SuiteValues.from_lists(
        key="extraction",
        fingerprint=result.fingerprint,
        n_cases=result.coverage.n_ground_truth,
        metrics=metrics,
        passed=passed,
        applicable={k: passed[k] | failed.get(k, frozenset()) for k in passed},
    )


def qa_suite_values(
    qa: QASection, protected_k: int, digests: Callable[[], CaseDigests] | None = None
) -> SuiteValues:
    """The QA section in the baseline's terms: aggregates plus per-case columns.

    ``digests`` gives the golden cases' digests when a baseline needs them.
    """
    table = as_case_table(qa.cases, list(qa.metrics), _metric_names(qa))
    metrics = {name: m.pass_rate for name, m in qa.metrics.items()}
    results = {name: table.gate_column(name) for name in qa.metrics}
    ranks = None
    case_values: dict[str, npt.NDArray[np.float64]] = {}
    if qa.retrieval is not None and qa.retrieval.n_scored:
        metrics.update(qa.retrieval.overall)
        scored = table.scored
        for name in qa.retrieval.overall:
            if not is_rank_metric(name):
                case_values[name] = table.metric_column(name)
        ranks = np.where(scored, table.ranks, -1).astype(np.int32)
        hit = (table.ranks > 0) & (table.ranks <= protected_k)
        results[f"hit@{protected_k}"] = np.where(scored, hit.astype(np.int8), -1).astype(np.int8)
    return SuiteValues(
        key=qa.mode,
        fingerprint=qa.golden.fingerprint,
        n_cases=qa.n_cases,
        metrics=metrics,
        fabrication_count=qa.fabrication_count,
        ids=table.ids,
        results=results,
        ranks=ranks,
        case_values=case_values,
        fabricated=frozenset(table.ids[i] for i in table.fabricated),
        digests=digests,
        judge=_judge_of(qa),
    )


def _judge_of(qa: QASection) -> dict[str, str] | None:
    """The judge identity of a QA section (TREC files: none, no answer was judged)."""
    if qa.system == "trec":
        return None
    found = qa.judge or {"kind": "lexical"}
    return {k: str(found[k]) for k in ("kind", "model", "prompt_version") if k in found}


def _metric_names(qa: QASection) -> list[str]:
    if qa.retrieval is None:
        return []
    return metric_names(qa.retrieval.k)

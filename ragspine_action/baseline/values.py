"""Each suite's results in the baseline's terms: aggregates plus the per-case facts that
protected cases and paired statistics need. Shared by the CLI pipeline and the Python API."""

from __future__ import annotations

import numpy as np

from ..extraction.score import ExtractionResult
from ..metrics.retrieval import metric_names
from ..report.cases import as_case_table
from ..report.model import QASection
from .ratchet import SuiteValues

__all__ = ["extraction_suite_values", "qa_suite_values"]


def extraction_suite_values(result: ExtractionResult) -> SuiteValues:
    """The extraction result in the baseline's terms: channel and coverage accuracies."""
    passed = result.passed_cells()
    failed = result.failed_cells()
    metrics = result.flat_metrics()
    metrics.update(result.coverage_metrics())
    return SuiteValues(
        key="extraction",
        fingerprint=result.fingerprint,
        n_cases=result.coverage.n_ground_truth,
        metrics=metrics,
        passed={k: sorted(v) for k, v in passed.items()},
        applicable={k: sorted(passed[k] | failed.get(k, frozenset())) for k in passed},
    )


def qa_suite_values(qa: QASection, protected_k: int) -> SuiteValues:
    """The QA section in the baseline's terms: aggregates plus per-case facts."""
    table = as_case_table(qa.cases, list(qa.metrics), _metric_names(qa))
    ids = table.ids
    metrics = {name: m.pass_rate for name, m in qa.metrics.items()}
    applicable: dict[str, list[str]] = {}
    passed: dict[str, list[str]] = {}
    for name in qa.metrics:
        column = table.gate_column(name)
        applicable[name] = [ids[i] for i in np.flatnonzero(column >= 0).tolist()]
        passed[name] = [ids[i] for i in np.flatnonzero(column == 1).tolist()]
    ranks: dict[str, int | None] = {}
    case_values: dict[str, dict[str, float]] = {}
    if qa.retrieval is not None and qa.retrieval.n_scored:
        metrics.update(qa.retrieval.overall)
        scored = np.flatnonzero(table.scored).tolist()
        scored_ids = [ids[i] for i in scored]
        for name in qa.retrieval.overall:
            applicable[name] = scored_ids
            if not (name.startswith("hit@") or name == "mrr"):
                column = table.metric_column(name)[scored].tolist()
                case_values[name] = dict(zip(scored_ids, column, strict=True))
        protected = f"hit@{protected_k}"
        applicable[protected] = scored_ids
        rank_list = table.ranks[scored].tolist()
        passed[protected] = [
            i for i, r in zip(scored_ids, rank_list, strict=True) if 0 < r <= protected_k
        ]
        ranks = {i: (r or None) for i, r in zip(scored_ids, rank_list, strict=True)}
    return SuiteValues(
        key=qa.mode,
        fingerprint=qa.golden.fingerprint,
        n_cases=qa.n_cases,
        metrics=metrics,
        fabrication_count=qa.fabrication_count,
        passed=passed,
        applicable=applicable,
        ranks=ranks,
        case_values=case_values,
    )


def _metric_names(qa: QASection) -> list[str]:
    if qa.retrieval is None:
        return []
    return metric_names(qa.retrieval.k)

"""Each suite's results in the baseline's terms: aggregates plus the per-case facts that
protected cases and paired statistics need. Shared by the CLI pipeline and the Python API."""

from __future__ import annotations

from ..extraction.score import ExtractionResult
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
    metrics = {name: m.pass_rate for name, m in qa.metrics.items()}
    applicable: dict[str, list[str]] = {name: [] for name in qa.metrics}
    passed: dict[str, list[str]] = {name: [] for name in qa.metrics}
    for case in qa.cases:
        for gate, ok in case.gates.items():
            applicable[gate].append(case.id)
            if ok:
                passed[gate].append(case.id)
    ranks: dict[str, int | None] = {}
    case_values: dict[str, dict[str, float]] = {}
    if qa.retrieval is not None and qa.retrieval.n_scored:
        metrics.update(qa.retrieval.overall)
        scored = [c for c in qa.cases if c.retrieval is not None]
        scored_ids = [c.id for c in scored]
        for name in qa.retrieval.overall:
            applicable[name] = scored_ids
            if not (name.startswith("hit@") or name == "mrr"):
                case_values[name] = {c.id: c.retrieval[name] for c in scored if c.retrieval}
        protected = f"hit@{protected_k}"
        applicable[protected] = scored_ids
        passed[protected] = [c.id for c in scored if c.rank is not None and c.rank <= protected_k]
        ranks = {c.id: c.rank for c in scored}
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

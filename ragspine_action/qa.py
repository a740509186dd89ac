"""Score a collection of outcomes against the golden set: gates, fabrication, errors.

Pure: takes cases and outcomes, returns the report's ``qa`` section. Every golden case
ends up in ``cases`` exactly once, as passed, failed or error.

Two steps, so that a sharded run can be merged: ``score_case`` decides one case (its
``CaseResult`` and the failure details per gate); ``assemble_qa`` computes every
aggregate from those per-case records alone. ``ragspine-eval merge`` calls the same
``assemble_qa`` on the shards' cases, which is why a merged report equals an unsharded one.

Report objects are built with ``model_construct``: every value here is already typed by
the code that made it, and validating a million of them again costs seconds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .gates import GATES, GateSettings, detect_fabricated_numbers
from .golden.load import GoldenSet
from .golden.models import GoldenCase
from .metrics.attribution import NEXT_STEPS, attribute, count_attributions
from .metrics.retrieval import CaseRetrieval, aggregate_retrieval, case_retrieval
from .outcomes.model import Outcome
from .report.model import (
    AttributionSection,
    CaseResult,
    ErrorCase,
    ErrorsSection,
    FabricationCase,
    FabricationSection,
    Failure,
    GateMetric,
    GoldenInfo,
    QASection,
    RetrievalMiss,
    RetrievalSection,
    TagCount,
)
from .systems.base import Collection

__all__ = [
    "QASettings",
    "ScoredCase",
    "assemble_qa",
    "evaluate_qa",
    "gate_metric",
    "qa_warnings",
    "score_case",
]

# Shared "fields set" of constructed models: every field is given, and one set per
# object would cost ~700 bytes a case at a million cases.
_CASE_FIELDS: set[str] = set(CaseResult.model_fields)
_FAILURE_FIELDS: set[str] = set(Failure.model_fields)


@dataclass(frozen=True)
class QASettings:
    gates: GateSettings = field(default_factory=GateSettings)
    ks: tuple[int, ...] = (1, 3, 10)
    protected_k: int = 3
    relevance_level: int = 1


def gate_metric(
    total: int, passed: int, failures: list[Failure], by_tag: dict[str, dict[str, TagCount]]
) -> GateMetric:
    rate = 1.0 if total == 0 else passed / total
    return GateMetric.model_construct(
        total=total, passed=passed, pass_rate=rate, failures=failures, by_tag=by_tag
    )


@dataclass
class ScoredCase:
    """One case decided: its report row, failure details per failed gate, refusal checked."""

    result: CaseResult
    failures: dict[str, Failure]
    refusal_checked: bool


def _failure(case_id: str, expected: Any, actual: Any) -> Failure:
    return Failure.model_construct(_FAILURE_FIELDS, id=case_id, expected=expected, actual=actual)


def score_case(
    case: GoldenCase, outcome: Outcome, settings: QASettings, retrieval: CaseRetrieval
) -> ScoredCase:
    """Every applicable gate, fabrication, retrieval rank and attribution of one case."""
    results: dict[str, bool] = {}
    failures: dict[str, Failure] = {}
    error = outcome.error
    for gate in GATES:
        if not gate.applies(case):
            continue
        if error is not None:
            ok = False
            failures[gate.name] = _failure(case.id, None, {"error": error})
        else:
            check = gate.check(case, outcome, settings.gates)
            ok = check.passed
            if not ok:
                failures[gate.name] = _failure(case.id, check.expected, check.actual)
        results[gate.name] = ok
    numbers: list[str] = []
    if case.expected.refuse and error is None:
        numbers = detect_fabricated_numbers(outcome.answer, settings.gates.period_patterns)
    passed = error is None and all(results.values()) and not numbers
    if case.case_type == "retrieval":
        passed = passed and retrieval.hit_within(settings.protected_k)
    result = CaseResult.model_construct(
        _CASE_FIELDS,
        id=case.id,
        case_type=case.case_type,
        tags=case.tags,
        gates=results,
        passed=passed,
        error=error,
        fabricated=numbers,
        rank=retrieval.rank,
        retrieval=None if retrieval.excluded else retrieval.values,
        attribution=attribute(
            not passed,
            error is not None,
            retrieval.rank,
            settings.protected_k,
            has_relevant=not retrieval.excluded,
        ),
    )
    return ScoredCase(result, failures, bool(case.expected.refuse))


def _gate_metrics(
    cases: Sequence[CaseResult], failures: Mapping[str, list[Failure]]
) -> dict[str, GateMetric]:
    totals = dict.fromkeys((g.name for g in GATES), 0)
    passes = dict.fromkeys(totals, 0)
    # gate → tag key → tag value → [total, passed]
    tags: dict[str, dict[str, dict[str, list[int]]]] = {name: {} for name in totals}
    for case in cases:
        for gate, ok in case.gates.items():
            totals[gate] += 1
            passes[gate] += ok
            by_key = tags[gate]
            for key, value in case.tags.items():
                counts = by_key.setdefault(key, {}).setdefault(value, [0, 0])
                counts[0] += 1
                counts[1] += ok
    metrics: dict[str, GateMetric] = {}
    for name, total in totals.items():
        by_tag = {
            key: {
                value: TagCount.model_construct(total=c[0], passed=c[1])
                for value, c in sorted(values.items())
            }
            for key, values in sorted(tags[name].items())
        }
        metrics[name] = gate_metric(total, passes[name], list(failures.get(name, ())), by_tag)
    return metrics


def _retrieval_section(
    cases: Sequence[CaseResult], ks: Sequence[int], protected_k: int
) -> RetrievalSection:
    rows = (
        (
            c.id,
            c.tags,
            CaseRetrieval(c.retrieval or {}, c.rank, 0 if c.retrieval is None else 1, 0),
        )
        for c in cases
    )
    summary = aggregate_retrieval(rows, ks, protected_k=protected_k)
    return RetrievalSection(
        k=list(summary.k),
        protected_k=summary.protected_k,
        n_scored=summary.n,
        n_excluded=summary.excluded,
        overall=summary.overall,
        by_tag={
            key: {value: dict(entry) for value, entry in values.items()}
            for key, values in summary.by_tag.items()
        },
        misses=[RetrievalMiss.model_construct(id=m.id, rank=m.rank) for m in summary.misses],
    )


def assemble_qa(
    *,
    mode: str,
    system: str,
    golden: GoldenInfo,
    cases: list[CaseResult],
    failures: Mapping[str, list[Failure]],
    refusal_checked: int,
    settings: QASettings,
    unknown_outcome_ids: list[str] | None = None,
    system_stats: dict[str, Any] | None = None,
) -> QASection:
    """Every aggregate of the ``qa`` section from per-case records in report order.

    ``failures`` holds, per gate, the failure details in the same order as ``cases``.
    """
    n = len(cases)
    fabricated = [
        FabricationCase.model_construct(id=c.id, numbers=c.fabricated)
        for c in cases
        if c.fabricated
    ]
    errors = [
        ErrorCase.model_construct(id=c.id, error=c.error) for c in cases if c.error is not None
    ]
    return QASection(
        mode=mode,
        system=system,
        golden=golden,
        n_cases=n,
        metrics=_gate_metrics(cases, failures),
        fabrication=FabricationSection(
            checked=refusal_checked, count=len(fabricated), cases=fabricated
        ),
        fabrication_count=len(fabricated),
        errors=ErrorsSection(count=len(errors), rate=(len(errors) / n if n else 0.0), cases=errors),
        unknown_outcome_ids=list(unknown_outcome_ids or []),
        retrieval=_retrieval_section(cases, settings.ks, settings.protected_k),
        attribution=_attribution_section(cases),
        cases=cases,
        system_stats=dict(system_stats or {}),
    )


def evaluate_qa(
    golden: GoldenSet,
    collection: Collection,
    *,
    mode: str,
    system: str,
    settings: QASettings | None = None,
    cases: Sequence[GoldenCase] | None = None,
) -> QASection:
    """Run every applicable gate on every case and tally the results.

    ``cases`` (default: the whole golden set) restricts the run to a shard; the golden
    info still describes the whole set, which is what a baseline and a merge are tied to.
    """
    settings = settings or QASettings()
    selected = golden.cases if cases is None else cases
    results: list[CaseResult] = []
    failures: dict[str, list[Failure]] = {gate.name: [] for gate in GATES}
    refusal_checked = 0
    for case in selected:
        outcome = collection.outcomes[case.id]
        retrieval = case_retrieval(
            outcome.ranked_docs(),
            case.relevance(),
            settings.ks,
            relevance_level=settings.relevance_level,
        )
        scored = score_case(case, outcome, settings, retrieval)
        results.append(scored.result)
        for gate, failure in scored.failures.items():
            failures[gate].append(failure)
        refusal_checked += scored.refusal_checked
    return assemble_qa(
        mode=mode,
        system=system,
        golden=GoldenInfo(path=golden.path, fingerprint=golden.fingerprint, n_cases=len(golden)),
        cases=results,
        failures=failures,
        refusal_checked=refusal_checked,
        settings=settings,
        unknown_outcome_ids=collection.unknown_ids,
        system_stats=collection.stats,
    )


def qa_warnings(qa: QASection, *, system: str, max_error_rate: float) -> tuple[list[str], bool]:
    """The run's warnings about the QA section, and whether the service itself failed."""
    warnings: list[str] = []
    if qa.unknown_outcome_ids:
        shown = ", ".join(qa.unknown_outcome_ids[:5])
        warnings.append(
            f"{len(qa.unknown_outcome_ids)} outcomes have ids not in the golden set: {shown}"
        )
    if qa.errors.count:
        warnings.append(f"{qa.errors.count} of {qa.n_cases} cases ended in an error")
    service_failed = system == "http" and qa.errors.rate > max_error_rate
    if service_failed:
        warnings.append(
            f"error rate {qa.errors.rate:.1%} is above --max-error-rate "
            f"{max_error_rate:.1%}: the service failed, this is not a quality verdict"
        )
    return warnings, service_failed


def _attribution_section(cases: Sequence[CaseResult]) -> AttributionSection:
    counts = count_attributions(c.attribution for c in cases)
    advice = {name: NEXT_STEPS[name] for name, n in counts.items() if n}
    return AttributionSection(**counts, advice=advice)

"""Score a collection of outcomes against the golden set: gates, fabrication, errors.

Pure: takes cases and outcomes, returns the report's ``qa`` section. Every golden case
ends up in ``cases`` exactly once, as passed, failed or error.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from .gates import GATES, GateSettings, detect_fabricated_numbers
from .golden.load import GoldenSet
from .metrics.attribution import NEXT_STEPS, attribute, count_attributions
from .metrics.retrieval import score_retrieval
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

__all__ = ["QASettings", "evaluate_qa", "gate_metric"]


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
    return GateMetric(total=total, passed=passed, pass_rate=rate, failures=failures, by_tag=by_tag)


class _GateTally:
    def __init__(self) -> None:
        self.total = 0
        self.passed = 0
        self.failures: list[Failure] = []
        self.by_tag: dict[str, dict[str, TagCount]] = defaultdict(dict)

    def add(self, case_id: str, tags: dict[str, str], ok: bool, failure: Failure | None) -> None:
        self.total += 1
        self.passed += ok
        if failure is not None:
            self.failures.append(failure)
        for key, value in tags.items():
            count = self.by_tag[key].get(value)
            if count is None:
                count = self.by_tag[key][value] = TagCount()
            count.total += 1
            count.passed += ok

    def metric(self) -> GateMetric:
        by_tag = {k: dict(sorted(v.items())) for k, v in sorted(self.by_tag.items())}
        return gate_metric(self.total, self.passed, self.failures, by_tag)


def evaluate_qa(
    golden: GoldenSet,
    collection: Collection,
    *,
    mode: str,
    system: str,
    settings: QASettings | None = None,
) -> QASection:
    """Run every applicable gate on every case and tally the results."""
    settings = settings or QASettings()
    per_case_retrieval, summary = score_retrieval(
        golden.cases,
        collection.outcomes,
        settings.ks,
        protected_k=settings.protected_k,
        relevance_level=settings.relevance_level,
    )
    tallies = {gate.name: _GateTally() for gate in GATES}
    cases: list[CaseResult] = []
    errors: list[ErrorCase] = []
    fabricated_cases: list[FabricationCase] = []
    refusal_checked = 0
    for case in golden.cases:
        outcome = collection.outcomes[case.id]
        results: dict[str, bool] = {}
        for gate in GATES:
            if not gate.applies(case):
                continue
            failure: Failure | None
            if outcome.error is not None:
                ok = False
                failure = Failure(id=case.id, expected=None, actual={"error": outcome.error})
            else:
                check = gate.check(case, outcome, settings.gates)
                ok = check.passed
                failure = (
                    None
                    if ok
                    else Failure(id=case.id, expected=check.expected, actual=check.actual)
                )
            results[gate.name] = ok
            tallies[gate.name].add(case.id, case.tags, ok, failure)
        numbers: list[str] = []
        if case.expected.refuse:
            refusal_checked += 1
            if outcome.error is None:
                numbers = detect_fabricated_numbers(outcome.answer, settings.gates.period_patterns)
            if numbers:
                fabricated_cases.append(FabricationCase(id=case.id, numbers=numbers))
        if outcome.error is not None:
            errors.append(ErrorCase(id=case.id, error=outcome.error))
        retrieval = per_case_retrieval[case.id]
        passed = outcome.error is None and all(results.values()) and not numbers
        if case.case_type == "retrieval":
            passed = passed and retrieval.hit_within(settings.protected_k)
        cases.append(
            CaseResult(
                id=case.id,
                case_type=case.case_type,
                tags=case.tags,
                gates=results,
                passed=passed,
                error=outcome.error,
                fabricated=numbers,
                rank=retrieval.rank,
                retrieval=None if retrieval.excluded else retrieval.values,
                attribution=attribute(
                    not passed,
                    outcome.error is not None,
                    retrieval.rank,
                    settings.protected_k,
                    has_relevant=not retrieval.excluded,
                ),
            )
        )
    n = len(golden.cases)
    return QASection(
        mode=mode,
        system=system,
        golden=GoldenInfo(path=golden.path, fingerprint=golden.fingerprint, n_cases=n),
        n_cases=n,
        metrics={name: tally.metric() for name, tally in tallies.items()},
        fabrication=FabricationSection(
            checked=refusal_checked, count=len(fabricated_cases), cases=fabricated_cases
        ),
        fabrication_count=len(fabricated_cases),
        errors=ErrorsSection(count=len(errors), rate=(len(errors) / n if n else 0.0), cases=errors),
        unknown_outcome_ids=collection.unknown_ids,
        retrieval=RetrievalSection(
            k=list(summary.k),
            protected_k=summary.protected_k,
            n_scored=summary.n,
            n_excluded=summary.excluded,
            overall=summary.overall,
            by_tag={
                key: {
                    value: {m: float(v) for m, v in entry.items()}
                    for value, entry in values.items()
                }
                for key, values in summary.by_tag.items()
            },
            misses=[RetrievalMiss(id=m.id, rank=m.rank) for m in summary.misses],
        ),
        attribution=_attribution_section(cases),
        cases=cases,
        system_stats=collection.stats,
    )


def _attribution_section(cases: list[CaseResult]) -> AttributionSection:
    counts = count_attributions(c.attribution for c in cases)
    advice = {name: NEXT_STEPS[name] for name, n in counts.items() if n}
    return AttributionSection(**counts, advice=advice)

"""Compare a run with its baseline entry, and update the entry only upwards (SPEC §6).

Pure: no I/O. The run pipeline loads and writes the file around these functions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..errors import BaselineUpdateError, StaleBaselineError
from ..report.model import CaseChange, Interval, Lowering, Regression
from .model import BaselineEntry, BaselineFile, HistoryRecord

__all__ = [
    "EPSILON",
    "Comparison",
    "IntervalFn",
    "SuiteValues",
    "apply_update",
    "check_stale",
    "compare",
    "entry_from_values",
    "per_case_values",
]

# Exactly equal passes; this only absorbs float noise from summing in another order.
EPSILON = 1e-12

IntervalFn = Callable[[Sequence[float], Sequence[float]], Interval]


@dataclass(frozen=True)
class SuiteValues:
    """What one suite produced for one baseline key, in the baseline's own terms."""

    key: str
    fingerprint: str
    n_cases: int
    metrics: dict[str, float]
    fabrication_count: int = 0
    passed: dict[str, list[str]] = field(default_factory=dict)
    applicable: dict[str, list[str]] = field(default_factory=dict)
    ranks: dict[str, int | None] = field(default_factory=dict)
    case_values: dict[str, dict[str, float]] = field(default_factory=dict)


@dataclass
class Comparison:
    key: str
    regressions: list[Regression] = field(default_factory=list)
    improvements: list[Regression] = field(default_factory=list)
    broken: list[CaseChange] = field(default_factory=list)
    fixed: list[CaseChange] = field(default_factory=list)
    intervals: dict[str, Interval] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        return bool(self.regressions or self.broken)


def entry_from_values(values: SuiteValues, *, recorded_at: str, tool_version: str) -> BaselineEntry:
    return BaselineEntry(
        metrics=dict(values.metrics),
        fabrication_count=values.fabrication_count,
        n_cases=values.n_cases,
        fingerprint=values.fingerprint,
        passed={k: sorted(v) for k, v in values.passed.items()},
        ranks=dict(sorted(values.ranks.items())),
        case_values={m: dict(sorted(v.items())) for m, v in values.case_values.items()},
        recorded_at=recorded_at,
        tool_version=tool_version,
    )


def check_stale(entry: BaselineEntry, values: SuiteValues, where: str, rerecord: str) -> None:
    """Raise StaleBaselineError when the entry was recorded for another golden set."""
    if entry.fingerprint is not None:
        if entry.fingerprint == values.fingerprint:
            return
        detail = (
            f"recorded for {entry.fingerprint[:19]}…, the inputs are {values.fingerprint[:19]}…"
        )
    else:
        if entry.n_cases == values.n_cases:
            return
        detail = f"recorded for {entry.n_cases} cases, the inputs have {values.n_cases}"
    raise StaleBaselineError(
        f"{where}: baseline '{values.key}' is stale ({detail}); re-record it with: {rerecord}"
    )


def _rank_hit(rank: int | None, k: int) -> float:
    return 1.0 if rank is not None and rank <= k else 0.0


def per_case_values(entry: BaselineEntry, metric: str, ids: Sequence[str]) -> list[float] | None:
    """Per-case values of ``metric`` for ``ids`` as recorded in ``entry``, or None if unknown."""
    if metric in entry.passed:
        passed = set(entry.passed[metric])
        return [1.0 if i in passed else 0.0 for i in ids]
    if metric.startswith("hit@") and entry.ranks and metric[4:].isdigit():
        k = int(metric[4:])
        return [_rank_hit(entry.ranks.get(i), k) for i in ids]
    if metric == "mrr" and entry.ranks:
        return [1.0 / r if (r := entry.ranks.get(i)) else 0.0 for i in ids]
    if metric in entry.case_values:
        recorded = entry.case_values[metric]
        return [recorded.get(i, 0.0) for i in ids]
    return None


def _case_changes(
    key: str, old: BaselineEntry, new: BaselineEntry, values: SuiteValues
) -> tuple[list[CaseChange], list[CaseChange]]:
    broken: list[CaseChange] = []
    fixed: list[CaseChange] = []
    for metric, old_ids in old.passed.items():
        if metric not in values.applicable:
            continue
        before = set(old_ids)
        now = set(new.passed.get(metric, ()))
        retrieval = metric.startswith("hit@")
        for case_id in values.applicable[metric]:
            was, is_ = case_id in before, case_id in now
            if was == is_:
                continue
            if retrieval:
                change = CaseChange(
                    key=key,
                    id=case_id,
                    metric=metric,
                    before=old.ranks.get(case_id),
                    after=new.ranks.get(case_id),
                )
            else:
                change = CaseChange(
                    key=key,
                    id=case_id,
                    metric=metric,
                    before="pass" if was else "fail",
                    after="pass" if is_ else "fail",
                )
            (broken if was else fixed).append(change)
    return broken, fixed


def compare(
    entry: BaselineEntry, values: SuiteValues, interval_fn: IntervalFn | None = None
) -> Comparison:
    """Regressions (value fell, metric vanished, fabrication rose), case changes, intervals."""
    result = Comparison(values.key)
    for metric, old in entry.metrics.items():
        current = values.metrics.get(metric)
        if current is None:
            result.regressions.append(
                Regression(key=values.key, metric=metric, baseline=old, current=0.0, delta=-old)
            )
            continue
        delta = current - old
        row = Regression(key=values.key, metric=metric, baseline=old, current=current, delta=delta)
        if delta < -EPSILON:
            result.regressions.append(row)
        elif delta > EPSILON:
            result.improvements.append(row)
    if values.fabrication_count > entry.fabrication_count:
        result.regressions.append(
            Regression(
                key=values.key,
                metric="fabrication_count",
                baseline=entry.fabrication_count,
                current=values.fabrication_count,
                delta=values.fabrication_count - entry.fabrication_count,
            )
        )
    new_entry = entry_from_values(values, recorded_at="", tool_version="")
    result.broken, result.fixed = _case_changes(values.key, entry, new_entry, values)
    if interval_fn is not None:
        for metric in values.metrics:
            ids = values.applicable.get(metric)
            if not ids:
                continue
            now_values = per_case_values(new_entry, metric, ids)
            if now_values is None:
                continue
            before = per_case_values(entry, metric, ids) if metric in entry.metrics else None
            result.intervals[metric] = interval_fn(before if before is not None else [], now_values)
    return result


def apply_update(
    baseline: BaselineFile | None,
    values: SuiteValues,
    comparison: Comparison | None,
    *,
    lower_reason: str | None,
    now: str,
    tool_version: str,
    stale: bool = False,
) -> tuple[BaselineFile, list[Lowering], str]:
    """The baseline after recording ``values``; never lower without ``lower_reason``.

    Returns the new file, the lowerings it contains and the status (created/updated).
    """
    baseline = baseline or BaselineFile()
    new_entry = entry_from_values(values, recorded_at=now, tool_version=tool_version)
    old = baseline.entries.get(values.key)
    entries = dict(baseline.entries)
    entries[values.key] = new_entry
    history = list(baseline.history)
    if old is None:
        return baseline.model_copy(update={"entries": entries}), [], "created"
    lowered = [
        Lowering(
            key=values.key,
            metric=r.metric,
            old=r.baseline,
            new=r.current,
            reason=lower_reason or "",
        )
        for r in (comparison.regressions if comparison else [])
    ]
    broken = comparison.broken if comparison else []
    if (lowered or broken) and not lower_reason:
        what = [f"{lo.metric} {lo.old:.4g} → {lo.new:.4g}" for lo in lowered]
        what += [f"case {b.id} no longer passes {b.metric}" for b in broken[:5]]
        more = f" (and {len(broken) - 5} more cases)" if len(broken) > 5 else ""
        raise BaselineUpdateError(
            f"refusing to lower baseline '{values.key}': {'; '.join(what)}{more}. "
            "An update only ratchets up; to lower it deliberately pass "
            '--lower-baseline "<reason>" (the reason is kept in the file\'s _history)'
        )
    if lowered or broken or stale:
        changes: list[dict[str, object]] = [
            {"metric": lo.metric, "from": lo.old, "to": lo.new} for lo in lowered
        ]
        changes += [
            {"case": b.id, "metric": b.metric, "from": b.before, "to": b.after} for b in broken
        ]
        reason = (
            lower_reason or "re-recorded: the golden set or ground truth changed (no value lowered)"
        )
        history.append(HistoryRecord(at=now, key=values.key, reason=reason, changes=changes))
    updated = baseline.model_copy(update={"entries": entries, "history": history})
    return updated, lowered, "updated"

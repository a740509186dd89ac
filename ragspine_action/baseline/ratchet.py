"""Compare a run with its baseline entry, and update the entry only upwards (SPEC §6).

Pure: no I/O. The run pipeline loads and writes the file around these functions.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import BaselineUpdateError, StaleBaselineError
from ..report.model import CaseChange, Interval, Lowering, Regression
from .model import BASELINE_SCHEMA_VERSION, BaselineEntry, BaselineFile, HistoryRecord

__all__ = [
    "EPSILON",
    "Comparison",
    "IntervalFn",
    "SuiteValues",
    "apply_update",
    "check_stale",
    "compare",
    "entry_from_values",
    "is_rank_metric",
]

# Exactly equal passes; this only absorbs float noise from summing in another order.
EPSILON = 1e-12

PerCase = Sequence[float] | npt.NDArray[np.float64]
IntervalFn = Callable[[PerCase, PerCase], Interval]


# Per-case outcome codes of ``SuiteValues.results`` and the baseline's pass strings.
PASS, FAIL, NOT_APPLICABLE = 1, 0, -1
_CHARS = np.frombuffer(b"-01", dtype=np.uint8)  # indexed by code + 1


@dataclass(frozen=True)
class SuiteValues:
    """What one suite produced for one baseline key, in the baseline's own terms.

    Per-case facts are columns aligned to ``ids`` (a million cases are arrays, not dicts):
    ``results`` per gate-like metric (1 pass, 0 fail, -1 not applicable), ``ranks`` the
    rank of the first relevant doc (0 none, -1 not scored), ``case_values`` the other
    per-case metric values (NaN where not scored).
    """

    key: str
    fingerprint: str
    n_cases: int
    metrics: dict[str, float]
    fabrication_count: int = 0
    ids: Sequence[str] = ()
    results: dict[str, npt.NDArray[np.int8]] = field(default_factory=dict)
    ranks: npt.NDArray[np.int32] | None = None
    case_values: dict[str, npt.NDArray[np.float64]] = field(default_factory=dict)

    @classmethod
    def from_lists(
        cls,
        *,
        key: str,
        fingerprint: str,
        n_cases: int,
        metrics: dict[str, float],
        fabrication_count: int = 0,
        passed: Mapping[str, Iterable[str]] | None = None,
        applicable: Mapping[str, Iterable[str]] | None = None,
        ranks: Mapping[str, int | None] | None = None,
        case_values: Mapping[str, Mapping[str, float]] | None = None,
    ) -> SuiteValues:
        """From id lists and maps (small suites, tests): ids are every id named anywhere."""
        passed = passed or {}
        applicable = applicable or {}
        names: dict[str, None] = {}
        for group in (*passed.values(), *applicable.values()):
            names.update(dict.fromkeys(group))
        names.update(dict.fromkeys(ranks or {}))
        for per_case in (case_values or {}).values():
            names.update(dict.fromkeys(per_case))
        ids = sorted(names)
        where = {case_id: i for i, case_id in enumerate(ids)}
        results: dict[str, npt.NDArray[np.int8]] = {}
        for metric in {**applicable, **passed}:
            column = np.full(len(ids), NOT_APPLICABLE, dtype=np.int8)
            column[[where[i] for i in applicable.get(metric, ())]] = FAIL
            column[[where[i] for i in passed.get(metric, ())]] = PASS
            results[metric] = column
        rank_column = None
        if ranks:
            rank_column = np.full(len(ids), -1, dtype=np.int32)
            for case_id, rank in ranks.items():
                rank_column[where[case_id]] = rank or 0
        values: dict[str, npt.NDArray[np.float64]] = {}
        for metric, per_case in (case_values or {}).items():
            column_f = np.full(len(ids), np.nan)
            for case_id, value in per_case.items():
                column_f[where[case_id]] = value
            values[metric] = column_f
        return cls(
            key=key,
            fingerprint=fingerprint,
            n_cases=n_cases,
            metrics=metrics,
            fabrication_count=fabrication_count,
            ids=ids,
            results=results,
            ranks=rank_column,
            case_values=values,
        )

    def applicable(self, metric: str) -> npt.NDArray[np.bool_] | None:
        """Which cases ``metric`` has a per-case value for (None: no per-case values)."""
        mask: npt.NDArray[np.bool_] | None = None
        if metric in self.results:
            mask = self.results[metric] != NOT_APPLICABLE
        elif metric in self.case_values:
            mask = ~np.isnan(self.case_values[metric])
        elif self.ranks is not None and is_rank_metric(metric):
            mask = self.ranks >= 0
        return mask

    def per_case(self, metric: str) -> npt.NDArray[np.float64] | None:
        """Per-case values of ``metric`` (pass = 1.0), aligned to ``ids``."""
        if metric in self.results:
            passed: npt.NDArray[np.float64] = (self.results[metric] == PASS).astype(np.float64)
            return passed
        if metric in self.case_values:
            return self.case_values[metric]
        if self.ranks is not None and is_rank_metric(metric):
            return _rank_values(metric, self.ranks)
        return None


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


def is_rank_metric(metric: str) -> bool:
    """hit@k and mrr: per-case values that follow from the rank alone."""
    return metric == "mrr" or (metric.startswith("hit@") and metric[4:].isdigit())


def _rank_values(metric: str, ranks: npt.NDArray[np.int32]) -> npt.NDArray[np.float64]:
    """hit@k or reciprocal rank per case from ranks (0 or -1: nothing relevant ranked)."""
    found = ranks > 0
    if metric == "mrr":
        out = np.zeros(len(ranks))
        out[found] = 1.0 / ranks[found]
        return out
    return (found & (ranks <= int(metric[4:]))).astype(np.float64)


def entry_from_values(values: SuiteValues, *, recorded_at: str, tool_version: str) -> BaselineEntry:
    """The baseline entry of a run: ids sorted, per-case facts aligned to them."""
    order = sorted(range(len(values.ids)), key=values.ids.__getitem__)
    index = np.asarray(order, dtype=np.intp)
    passed = {
        metric: _CHARS[column[index].astype(np.intp) + 1].tobytes().decode("ascii")
        for metric, column in values.results.items()
    }
    ranks: list[int | None] = []
    if values.ranks is not None:
        ranks = [r if r > 0 else None for r in values.ranks[index].tolist()]
    case_values = {
        metric: [None if math.isnan(v) else v for v in column[index].tolist()]
        for metric, column in values.case_values.items()
    }
    return BaselineEntry.model_construct(
        metrics=dict(values.metrics),
        fabrication_count=values.fabrication_count,
        n_cases=values.n_cases,
        fingerprint=values.fingerprint,
        ids=[values.ids[i] for i in order],
        passed=passed,
        ranks=ranks,
        case_values=case_values,
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


class _Recorded:
    """A baseline entry's per-case facts, aligned to the current run's ids (each column
    aligned once: the case changes and the intervals read the same ones)."""

    def __init__(self, entry: BaselineEntry, ids: Sequence[str]) -> None:
        self.entry = entry
        position = {case_id: i for i, case_id in enumerate(ids)}
        found = [position.get(case_id, -1) for case_id in entry.ids]
        self._src = np.flatnonzero(np.asarray(found, dtype=np.intp) >= 0)
        self._dst = np.asarray(found, dtype=np.intp)[self._src]
        self.n = len(ids)
        self._passed: dict[str, npt.NDArray[np.bool_]] = {}

    def _align(self, values: npt.NDArray[Any], fill: Any, dtype: Any) -> npt.NDArray[Any]:
        out = np.full(self.n, fill, dtype=dtype)
        out[self._dst] = values[self._src]
        return out

    def passed(self, metric: str) -> npt.NDArray[np.bool_]:
        if metric not in self._passed:
            raw = np.frombuffer(self.entry.passed[metric].encode("ascii"), dtype=np.uint8)
            self._passed[metric] = self._align(raw == ord("1"), False, bool)
        return self._passed[metric]

    @functools.cached_property
    def ranks(self) -> npt.NDArray[np.int32]:
        if not self.entry.ranks:  # a hand-made entry may hold hit@k without ranks
            return np.zeros(self.n, dtype=np.int32)
        raw = np.array([r or 0 for r in self.entry.ranks], dtype=np.int32)
        return self._align(raw, 0, np.int32)

    def per_case(self, metric: str) -> npt.NDArray[np.float64] | None:
        """Per-case values as recorded; a case the entry does not know counts 0."""
        if metric in self.entry.passed:
            return self.passed(metric).astype(np.float64)
        if self.entry.ranks and is_rank_metric(metric):
            return _rank_values(metric, self.ranks)
        if metric in self.entry.case_values:
            raw = np.array([0.0 if v is None else v for v in self.entry.case_values[metric]])
            return self._align(raw, 0.0, np.float64)
        return None


def _case_changes(
    key: str, recorded: _Recorded, values: SuiteValues
) -> tuple[list[CaseChange], list[CaseChange]]:
    broken: list[CaseChange] = []
    fixed: list[CaseChange] = []
    for metric in recorded.entry.passed:
        applies = values.applicable(metric)
        now_values = values.per_case(metric)
        if applies is None or now_values is None:
            continue
        before = recorded.passed(metric)
        now = now_values == 1.0
        retrieval = metric.startswith("hit@")
        for i in np.flatnonzero(applies & (before != now)).tolist():
            was = bool(before[i])
            if retrieval:
                after = int(values.ranks[i]) if values.ranks is not None else 0
                change = CaseChange(
                    key=key,
                    id=values.ids[i],
                    metric=metric,
                    before=int(recorded.ranks[i]) or None,
                    after=after if after > 0 else None,
                )
            else:
                change = CaseChange(
                    key=key,
                    id=values.ids[i],
                    metric=metric,
                    before="pass" if was else "fail",
                    after="fail" if was else "pass",
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
    recorded = _Recorded(entry, values.ids)
    result.broken, result.fixed = _case_changes(values.key, recorded, values)
    if interval_fn is not None:
        for metric in values.metrics:
            applies = values.applicable(metric)
            now_values = values.per_case(metric)
            if applies is None or now_values is None or not applies.any():
                continue
            before = recorded.per_case(metric) if metric in entry.metrics else None
            result.intervals[metric] = interval_fn(
                [] if before is None else before[applies], now_values[applies]
            )
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
        created = {"entries": entries, "schema_version": BASELINE_SCHEMA_VERSION}
        return baseline.model_copy(update=created), [], "created"
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
    updated = baseline.model_copy(
        update={"entries": entries, "history": history, "schema_version": BASELINE_SCHEMA_VERSION}
    )
    return updated, lowered, "updated"

"""Compare a run with its baseline entry, and update the entry only upwards (SPEC §6).

Pure: no I/O. The run pipeline loads and writes the file around these functions.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ..errors import BaselineUpdateError, StaleBaselineError
from ..report.model import CaseChange, Interval, Lowering, Regression
from .digests import CASE_COLUMN, DIGEST_FIELDS, METADATA_FIELDS, CaseDigests, digest_column
from .model import BASELINE_SCHEMA_VERSION, BaselineEntry, BaselineFile, HistoryRecord

__all__ = [
    "EPSILON",
    "CaseDiff",
    "ChangedCase",
    "Comparison",
    "IntervalFn",
    "LoweredItem",
    "SuiteValues",
    "apply_update",
    "check_stale",
    "compare",
    "diff_cases",
    "entry_from_values",
    "entry_lowerings",
    "is_rank_metric",
    "recorded_columns",
    "stale_changes_message",
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
    # Ids of the refusal cases whose answer fabricated numbers (None: not known).
    fabricated: frozenset[str] | None = None
    # The golden cases' digests (``baseline.digests``), computed only when a baseline
    # needs them: the golden set changed, or an entry is written.
    digests: Callable[[], CaseDigests] | None = field(default=None, compare=False)
    # With ``--repeats N``: per case, the fraction of repeats that passed each metric of
    # ``results`` (NaN: not applicable); ``results`` then holds the majority verdict.
    fractions: dict[str, npt.NDArray[np.float64]] = field(default_factory=dict)
    repeats: int = 1
    # The judge that produced the groundedness values ({"kind", "model", "prompt_version"});
    # None: no judge involved (TREC files, the extraction suite).
    judge: dict[str, str] | None = None

    @functools.cached_property
    def case_digests(self) -> CaseDigests | None:
        """The digests aligned to ``ids`` (None: no digests for this suite)."""
        if self.digests is None:
            return None
        return self.digests().aligned(self.ids)

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

    def passes_now(self, metric: str) -> npt.NDArray[np.bool_]:
        """Whether each case passes ``metric``: in a strict majority of its repeats (with
        one run: it passed). False where there is no per-case value."""
        if metric in self.results:
            passed: npt.NDArray[np.bool_] = self.results[metric] == PASS
            return passed
        values = self.per_case(metric)
        if values is None:
            return np.zeros(len(self.ids), dtype=bool)
        full: npt.NDArray[np.bool_] = values == 1.0
        return full

    def per_case(self, metric: str) -> npt.NDArray[np.float64] | None:
        """Per-case values of ``metric`` (pass = 1.0; with repeats, the pass fraction),
        aligned to ``ids``."""
        if metric in self.fractions:
            return np.nan_to_num(self.fractions[metric], nan=0.0)
        if metric in self.results:
            passed: npt.NDArray[np.float64] = (self.results[metric] == PASS).astype(np.float64)
            return passed
        if metric in self.case_values:
            return self.case_values[metric]
        if self.ranks is not None and is_rank_metric(metric):
            return _rank_values(metric, self.ranks)
        return None


@dataclass(frozen=True)
class ChangedCase:
    """A case present in both the baseline and the golden set, whose content changed."""

    id: str
    fields: tuple[str, ...]
    comparable: bool  # only metadata (tags) changed: its recorded result still holds


@dataclass
class CaseDiff:
    """How the golden set differs from the one an entry was recorded for (by case digest)."""

    added: list[str]
    removed: list[str]
    changed: list[ChangedCase]
    # Over the run's ids: recorded in the entry and still comparable (the compared cases).
    common: npt.NDArray[np.bool_]

    @property
    def incomparable(self) -> list[ChangedCase]:
        return [c for c in self.changed if not c.comparable]

    @property
    def n_common(self) -> int:
        return int(self.common.sum())


@dataclass
class Comparison:
    key: str
    regressions: list[Regression] = field(default_factory=list)
    improvements: list[Regression] = field(default_factory=list)
    broken: list[CaseChange] = field(default_factory=list)
    fixed: list[CaseChange] = field(default_factory=list)
    intervals: dict[str, Interval] = field(default_factory=dict)
    # Metrics of the entry this run did not compute (another k): warned, never a drop.
    not_measured: list[str] = field(default_factory=list)
    # Metrics with no per-case values to compare on the common cases of a changed set.
    not_comparable: list[str] = field(default_factory=list)
    # The values compared (on the common cases when the golden set changed).
    baseline_values: dict[str, float] = field(default_factory=dict)
    current_values: dict[str, float] = field(default_factory=dict)
    diff: CaseDiff | None = None

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
    # With repeats, a gate's per-case pass fractions: the paired tests compare means with
    # means (a majority would not be comparable with one run's pass or fail).
    case_values = {
        metric: [None if math.isnan(v) else v for v in column[index].tolist()]
        for metric, column in (*values.case_values.items(), *values.fractions.items())
    }
    ids = [values.ids[i] for i in order]
    extra: dict[str, Any] = {}
    if values.case_digests is not None:
        extra["digests"] = dict(values.case_digests.aligned(ids).columns)
    if values.fabricated is not None:
        extra["fabricated"] = sorted(values.fabricated)
    if values.judge is not None:
        extra["judge"] = dict(values.judge)
    return BaselineEntry.model_construct(
        metrics=dict(values.metrics),
        fabrication_count=values.fabrication_count,
        n_cases=values.n_cases,
        fingerprint=values.fingerprint,
        ids=ids,
        passed=passed,
        ranks=ranks,
        case_values=case_values,
        **extra,
        recorded_at=recorded_at,
        tool_version=tool_version,
    )


def recorded_judge(entry: BaselineEntry) -> dict[str, str]:
    """The judge an entry's groundedness values came from (entries that name none were
    recorded when the lexical judge was the only one)."""
    return dict(entry.judge) if entry.judge else {"kind": "lexical"}


def _judge_label(judge: dict[str, str]) -> str:
    extra = [f"{k} {v}" for k, v in judge.items() if k != "kind"]
    return judge.get("kind", "?") + (f" ({', '.join(extra)})" if extra else "")


def check_judge(entry: BaselineEntry, values: SuiteValues, where: str, rerecord: str) -> None:
    """Raise StaleBaselineError when the entry's groundedness values came from another
    judge: values of two judges are never compared."""
    if values.judge is None:
        return
    before = recorded_judge(entry)
    if before == values.judge:
        return
    raise StaleBaselineError(
        f"{where}: baseline '{values.key}' is stale: its groundedness values were recorded "
        f"with the {_judge_label(before)} judge, this run uses the {_judge_label(values.judge)} "
        f"judge (values of different judges are not compared); re-record it with: {rerecord}"
    )


def check_stale(entry: BaselineEntry, values: SuiteValues, where: str, rerecord: str) -> None:
    """Raise StaleBaselineError when the entry was recorded for another golden set.

    Used for entries without per-case digests (schema 3 and before, extraction): any
    change of the set is stale, as it always was.
    """
    if entry.fingerprint is not None:
        if entry.fingerprint == values.fingerprint:
            return
        detail = (
            f"recorded for {entry.fingerprint[:19]}…, the inputs are {values.fingerprint[:19]}…"
        )
        if values.digests is not None:
            detail += "; it predates per-case digests, so the changed cases cannot be named"
    else:
        if entry.n_cases == values.n_cases:
            return
        detail = f"recorded for {entry.n_cases} cases, the inputs have {values.n_cases}"
    raise StaleBaselineError(
        f"{where}: baseline '{values.key}' is stale ({detail}); re-record it with: {rerecord}"
    )


def diff_cases(entry: BaselineEntry, values: SuiteValues) -> CaseDiff | None:
    """Added, removed and changed cases by digest; None when the set is the recorded one
    (same fingerprint) or the entry has no digests (then ``check_stale`` decides)."""
    if entry.fingerprint is not None and entry.fingerprint == values.fingerprint:
        return None
    now = values.case_digests
    if now is None:
        return None
    if CASE_COLUMN not in entry.digests:
        return _grown_legacy(entry, values, now)
    position = {case_id: i for i, case_id in enumerate(entry.ids)}
    where = np.asarray([position.get(case_id, -1) for case_id in values.ids], dtype=np.intp)
    present = where >= 0
    old_rows = where[present]

    def moved(name: str) -> npt.NDArray[np.bool_]:
        """Per current case: recorded, and its digest in column ``name`` differs."""
        before = digest_column(entry.digests[name], name)[old_rows]
        out = np.zeros(len(values.ids), dtype=bool)
        out[present] = before != digest_column(now.columns[name], name)[present]
        return out

    same = present & ~moved(CASE_COLUMN)
    fields = [f for f in DIGEST_FIELDS if f in entry.digests and f in now.columns]
    field_moved = {f: moved(f) for f in fields}
    touched = present & ~same
    for column in field_moved.values():
        touched |= column
    changed: list[ChangedCase] = []
    for j in np.flatnonzero(touched).tolist():
        names = tuple(f for f in fields if field_moved[f][j])
        if same[j]:
            changed.append(ChangedCase(values.ids[j], names, True))
        else:
            scored = [f for f in names if f not in METADATA_FIELDS]
            changed.append(
                ChangedCase(values.ids[j], names if scored else (*names, "other"), False)
            )
    added = [values.ids[j] for j in np.flatnonzero(~present).tolist()]
    known = set(values.ids)
    removed = [case_id for case_id in entry.ids if case_id not in known]
    return CaseDiff(added=added, removed=removed, changed=changed, common=same)


def _grown_legacy(entry: BaselineEntry, values: SuiteValues, now: CaseDigests) -> CaseDiff | None:
    """An entry without per-case digests (schema 3) can still prove the set only grew:
    when every recorded id is still there and those cases hash to the recorded
    fingerprint, they are unchanged and the rest were added. Otherwise None (stale)."""
    if entry.fingerprint is None or not entry.ids:
        return None
    position = {case_id: j for j, case_id in enumerate(values.ids)}
    if any(case_id not in position for case_id in entry.ids):
        return None
    if now.fingerprint_of(entry.ids) != entry.fingerprint:
        return None
    common = np.zeros(len(values.ids), dtype=bool)
    common[[position[i] for i in entry.ids]] = True
    added = [case_id for j, case_id in enumerate(values.ids) if not common[j]]
    return CaseDiff(added=added, removed=[], changed=[], common=common)


def stale_changes_message(
    diff: CaseDiff, key: str, where: str, rerecord: str, limit: int = 10
) -> str:
    """The one-line exit-2 message for changed cases whose recorded result no longer holds."""
    bad = diff.incomparable
    shown = "; ".join(f"{c.id} ({', '.join(c.fields)})" for c in bad[:limit])
    more = f" and {len(bad) - limit} more" if len(bad) > limit else ""
    return (
        f"{where}: baseline '{key}' cannot compare {len(bad)} changed case(s): {shown}{more} "
        "(their recorded results answered another question or expectation); re-record them "
        f"with: {rerecord}"
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

    def chars(self, metric: str) -> npt.NDArray[np.uint8]:
        """The pass string of ``metric`` aligned (``-`` for cases the entry does not know)."""
        raw = np.frombuffer(self.entry.passed[metric].encode("ascii"), dtype=np.uint8)
        return self._align(raw, ord("-"), np.uint8)

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

    @functools.cached_property
    def scored(self) -> npt.NDArray[np.bool_] | None:
        """Which cases the entry scored for retrieval (None: it cannot tell)."""
        for metric, text in self.entry.passed.items():
            if metric.startswith("hit@"):
                raw = np.frombuffer(text.encode("ascii"), dtype=np.uint8) != ord("-")
                return self._align(raw, False, bool)
        for column in self.entry.case_values.values():
            raw = np.array([v is not None for v in column], dtype=bool)
            return self._align(raw, False, bool)
        return None

    def per_case(self, metric: str) -> npt.NDArray[np.float64] | None:
        """Per-case values as recorded (a gate recorded with repeats: its pass fractions);
        a case the entry does not know counts 0."""
        if metric in self.entry.passed and metric in self.entry.case_values:
            raw = np.array([0.0 if v is None else v for v in self.entry.case_values[metric]])
            return self._align(raw, 0.0, np.float64)
        if metric in self.entry.passed:
            return self.passed(metric).astype(np.float64)
        if self.entry.ranks and is_rank_metric(metric):
            return _rank_values(metric, self.ranks)
        if metric in self.entry.case_values:
            raw = np.array([0.0 if v is None else v for v in self.entry.case_values[metric]])
            return self._align(raw, 0.0, np.float64)
        return None

    def applicable(self, metric: str) -> npt.NDArray[np.bool_] | None:
        """Which cases the entry has a value of ``metric`` for (None: no per-case values)."""
        if metric in self.entry.passed:
            applies: npt.NDArray[np.bool_] = self.chars(metric) != ord("-")
            return applies
        if self.entry.ranks and is_rank_metric(metric):
            return self.scored
        if metric in self.entry.case_values:
            raw = np.array([v is not None for v in self.entry.case_values[metric]], dtype=bool)
            return self._align(raw, False, bool)
        return None


def recorded_columns(entry: BaselineEntry, ids: Sequence[str]) -> _Recorded:
    """The entry's per-case facts aligned to ``ids`` (for the significance tests)."""
    return _Recorded(entry, ids)


def _is_gate(metric: str, *holders: Iterable[str]) -> bool:
    return any(metric in h for h in holders) and not is_rank_metric(metric)


def _common_pair(
    metric: str, recorded: _Recorded, values: SuiteValues, mask: npt.NDArray[np.bool_]
) -> tuple[float, float] | None:
    """(baseline, current) of ``metric`` recomputed over the cases of ``mask``."""
    now_applies, now_values = values.applicable(metric), values.per_case(metric)
    old_applies, old_values = recorded.applicable(metric), recorded.per_case(metric)
    if now_applies is None or now_values is None or old_applies is None or old_values is None:
        return None
    chosen = mask & now_applies & old_applies
    if not chosen.any():
        if _is_gate(metric, values.results, recorded.entry.passed):
            return 1.0, 1.0  # a gate with no applicable case passes (SPEC §2)
        return None
    return float(np.mean(old_values[chosen])), float(np.mean(now_values[chosen]))


def _case_changes(
    key: str,
    recorded: _Recorded,
    values: SuiteValues,
    mask: npt.NDArray[np.bool_] | None = None,
) -> tuple[list[CaseChange], list[CaseChange]]:
    broken: list[CaseChange] = []
    fixed: list[CaseChange] = []
    for metric in recorded.entry.passed:
        applies = values.applicable(metric)
        now_values = values.per_case(metric)
        if applies is None or now_values is None:
            continue
        if mask is not None:
            applies = applies & mask
        before = recorded.passed(metric)
        now = values.passes_now(metric)
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
    entry: BaselineEntry,
    values: SuiteValues,
    interval_fn: IntervalFn | None = None,
    diff: CaseDiff | None = None,
) -> Comparison:
    """Regressions (value fell, fabrication rose), case changes, intervals.

    With ``diff`` (the golden set changed), aggregates are recomputed on both sides over
    the common, comparable cases; added cases are not gated on their first run. A metric
    of the entry that this run did not compute is ``not_measured``, never a drop to 0.
    """
    result = Comparison(values.key, diff=diff)
    mask = None if diff is None else diff.common
    recorded = _Recorded(entry, values.ids)
    for metric, recorded_value in entry.metrics.items():
        current = values.metrics.get(metric)
        old = recorded_value
        if current is None:
            result.not_measured.append(metric)
            continue
        if mask is not None:
            pair = _common_pair(metric, recorded, values, mask)
            if pair is None:
                result.not_comparable.append(metric)
                continue
            old, current = pair
        result.baseline_values[metric] = old
        result.current_values[metric] = current
        delta = current - old
        row = Regression(key=values.key, metric=metric, baseline=old, current=current, delta=delta)
        if delta < -EPSILON:
            result.regressions.append(row)
        elif delta > EPSILON:
            result.improvements.append(row)
    old_fab, now_fab = entry.fabrication_count, values.fabrication_count
    if mask is not None and entry.fabricated is not None and values.fabricated is not None:
        common_ids = {values.ids[i] for i in np.flatnonzero(mask).tolist()}
        old_fab = len(common_ids.intersection(entry.fabricated))
        now_fab = len(common_ids.intersection(values.fabricated))
    if now_fab > old_fab:
        result.regressions.append(
            Regression(
                key=values.key,
                metric="fabrication_count",
                baseline=old_fab,
                current=now_fab,
                delta=now_fab - old_fab,
            )
        )
    result.broken, result.fixed = _case_changes(values.key, recorded, values, mask)
    if interval_fn is not None:
        for metric in values.metrics:
            applies = values.applicable(metric)
            now_values = values.per_case(metric)
            if applies is None or now_values is None:
                continue
            if mask is not None:
                applies = applies & mask
            if not applies.any():
                continue
            before = recorded.per_case(metric) if metric in entry.metrics else None
            result.intervals[metric] = interval_fn(
                [] if before is None else before[applies], now_values[applies]
            )
    return result


LoweringKind = Literal["metric", "count", "case", "rank", "protection", "changed"]


@dataclass(frozen=True)
class LoweredItem:
    """One thing an update would lower: a value, a count, a case's pass, a rank, a protection."""

    kind: LoweringKind
    metric: str
    before: Any = None
    after: Any = None
    id: str | None = None

    def describe(self) -> str:
        if self.kind in ("metric", "count"):
            after = "not recorded" if self.after is None else f"{self.after:.4g}"
            return f"{self.metric} {self.before:.4g} → {after}"
        if self.kind == "protection":
            return f"protection {self.metric} dropped"
        if self.kind == "rank":
            return f"case {self.id} rank {self.before} → {self.after or 'none'}"
        if self.kind == "changed":
            return f"changed case {self.id} now fails {self.metric}"
        return f"case {self.id} no longer passes {self.metric}"

    def as_change(self) -> dict[str, Any]:
        out: dict[str, Any] = {"metric": self.metric, "from": self.before, "to": self.after}
        if self.id is not None:
            out = {"case": self.id, **out}
        if self.kind not in ("metric", "case"):
            out["kind"] = self.kind
        return out

    @property
    def structural(self) -> bool:
        """Dropped from the entry (not a value that moved): never noise."""
        return self.kind == "protection" or (self.kind == "metric" and self.after is None)


def _entry_digest_match(
    old: BaselineEntry, new: BaselineEntry, position: npt.NDArray[np.intp]
) -> npt.NDArray[np.bool_]:
    """Per old id: its case digest equals the new entry's (True when either lacks digests)."""
    if CASE_COLUMN not in old.digests or CASE_COLUMN not in new.digests:
        return np.ones(len(old.ids), dtype=bool)
    present = position >= 0
    same = np.zeros(len(old.ids), dtype=bool)
    before = digest_column(old.digests[CASE_COLUMN], CASE_COLUMN)[present]
    after = digest_column(new.digests[CASE_COLUMN], CASE_COLUMN)[position[present]]
    same[present] = before == after
    return same


def entry_lowerings(
    old: BaselineEntry, new: BaselineEntry, unchanged: Iterable[str] | None = None
) -> list[LoweredItem]:
    """Everything ``new`` records lower than ``old``: an aggregate (on the cases both were
    recorded for, unchanged, when the golden set changed), the fabrication count, a case's
    pass on any gate or protection, a rank, a protection level, a metric dropped. Cases
    added or removed lower nothing; a changed case lowers when its new result is worse."""
    items: list[LoweredItem] = []
    where_new = {case_id: j for j, case_id in enumerate(new.ids)}
    position = np.asarray([where_new.get(i, -1) for i in old.ids], dtype=np.intp)
    present = position >= 0
    same_fingerprint = old.fingerprint is not None and old.fingerprint == new.fingerprint
    if unchanged is not None and not same_fingerprint:
        # The comparison proved which cases are unchanged (a schema-3 entry that grew).
        kept = set(unchanged)
        same_case = present & np.array([i in kept for i in old.ids], dtype=bool)
        same_set = False
    else:
        same_case = _entry_digest_match(old, new, position) & present
        same_set = same_fingerprint or not (
            CASE_COLUMN in old.digests and CASE_COLUMN in new.digests
        )
    changed = present & ~same_case
    before = _Recorded(old, old.ids)
    after = _Recorded(new, old.ids)
    for metric, value in old.metrics.items():
        now = new.metrics.get(metric)
        if now is None:
            items.append(LoweredItem("metric", metric, value, None))
            continue
        if not same_set:
            pair = _entry_pair(metric, before, after, same_case)
            if pair is not None:
                value, now = pair
        if now < value - EPSILON:
            items.append(LoweredItem("metric", metric, value, now))
    old_fab, new_fab = old.fabrication_count, new.fabrication_count
    if not same_set and old.fabricated is not None and new.fabricated is not None:
        kept = {old.ids[i] for i in np.flatnonzero(same_case).tolist()}
        old_fab, new_fab = (
            len(kept.intersection(old.fabricated)),
            len(kept.intersection(new.fabricated)),
        )
    if new_fab > old_fab:
        items.append(LoweredItem("count", "fabrication_count", old_fab, new_fab))
    for metric, text in old.passed.items():
        if metric not in new.passed:
            items.append(LoweredItem("protection", metric))
            continue
        was = np.frombuffer(text.encode("ascii"), dtype=np.uint8) == ord("1")
        now_pass = after.chars(metric) == ord("1")
        for i in np.flatnonzero(was & present & ~now_pass).tolist():
            kind: LoweringKind = "changed" if changed[i] else "case"
            items.append(LoweredItem(kind, metric, "pass", "fail", old.ids[i]))
    if old.ranks and new.ranks:
        old_ranks = np.array([r or 0 for r in old.ranks], dtype=np.int64)
        new_ranks = after.ranks.astype(np.int64)
        worse = present & (old_ranks > 0) & ((new_ranks == 0) | (new_ranks > old_ranks))
        for i in np.flatnonzero(worse).tolist():
            items.append(
                LoweredItem(
                    "rank", "rank", int(old_ranks[i]), int(new_ranks[i]) or None, old.ids[i]
                )
            )
    return items


def _entry_pair(
    metric: str, before: _Recorded, after: _Recorded, mask: npt.NDArray[np.bool_]
) -> tuple[float, float] | None:
    old_applies, old_values = before.applicable(metric), before.per_case(metric)
    new_applies, new_values = after.applicable(metric), after.per_case(metric)
    if old_applies is None or old_values is None or new_applies is None or new_values is None:
        return None
    chosen = mask & old_applies & new_applies
    if not chosen.any():
        return None
    return float(np.mean(old_values[chosen])), float(np.mean(new_values[chosen]))


def _carry(old: BaselineEntry, new: BaselineEntry, values: SuiteValues) -> BaselineEntry:
    """What the update keeps from the old entry without being asked to lower anything:
    metrics this run did not measure (another k) and every old protection level (a changed
    ``--protected-k`` adds a protection; the old one is recomputed from this run's ranks)."""
    metrics = dict(new.metrics)
    passed = dict(new.passed)
    case_values = dict(new.case_values)
    where_old = {case_id: i for i, case_id in enumerate(old.ids)}
    index = [where_old.get(case_id, -1) for case_id in new.ids]
    for metric, value in old.metrics.items():
        if metric in metrics:
            continue
        metrics[metric] = value
        if metric in old.case_values:
            column = old.case_values[metric]
            case_values[metric] = [column[i] if i >= 0 else None for i in index]
    ranks_by_id: dict[str, int] = {}
    if values.ranks is not None:
        ranks_by_id = dict(zip(values.ids, values.ranks.tolist(), strict=True))
    for metric, text in old.passed.items():
        if metric in passed:
            continue
        if metric.startswith("hit@") and metric[4:].isdigit() and ranks_by_id:
            k = int(metric[4:])
            passed[metric] = "".join(
                "-" if r < 0 else "1" if 0 < r <= k else "0"
                for r in (ranks_by_id.get(case_id, -1) for case_id in new.ids)
            )
        else:
            passed[metric] = "".join(text[i] if i >= 0 else "-" for i in index)
    return new.model_copy(update={"metrics": metrics, "passed": passed, "case_values": case_values})


_SHOWN = 5
_KEPT = 200  # lowered items kept per history record


def _refusal(key: str, items: list[LoweredItem]) -> BaselineUpdateError:
    shown = [i.describe() for i in items[:_SHOWN]]
    more = f" (and {len(items) - _SHOWN} more)" if len(items) > _SHOWN else ""
    return BaselineUpdateError(
        f"refusing to lower baseline '{key}': {'; '.join(shown)}{more}. "
        "An update only ratchets up; to lower it deliberately pass "
        '--lower-baseline "<reason>" (the reason is kept in the file\'s _history)'
    )


def apply_update(
    baseline: BaselineFile | None,
    values: SuiteValues,
    comparison: Comparison | None,
    *,
    lower_reason: str | None,
    now: str,
    tool_version: str,
    stale: bool = False,
    significant: bool = False,
    tested: Callable[[str], bool] | None = None,
) -> tuple[BaselineFile, list[Lowering], str]:
    """The baseline after recording ``values``; never lower anything without ``lower_reason``.

    Anything lowered — gated or not: a metric, the fabrication count, a case's pass, a
    rank, a protection level — refuses the update (BaselineUpdateError, a regression)
    unless ``lower_reason`` is given; it is then kept in ``_history``. Cases added to or
    removed from the golden set are recorded without lowering anything, in ``_history``.
    With ``significant`` (gate.mode significant) only a significant drop (the
    comparison failed) or a dropped metric or protection refuses; changes the test calls
    noise are recorded, and listed in ``_history``. ``tested`` says which metrics the
    significance tests judged (the gated ones); any other lowering refuses as in exact
    mode (rank changes count with the gates when every metric is gated).

    Returns the new file, the lowered aggregates and the status (created/updated).
    """
    baseline = baseline or BaselineFile()
    new_entry = entry_from_values(values, recorded_at=now, tool_version=tool_version)
    old = baseline.entries.get(values.key)
    entries = dict(baseline.entries)
    history = list(baseline.history)
    if old is None:
        entries[values.key] = new_entry
        created = {"entries": entries, "schema_version": BASELINE_SCHEMA_VERSION}
        return baseline.model_copy(update=created), [], "created"
    if not lower_reason:
        new_entry = _carry(old, new_entry, values)
    entries[values.key] = new_entry
    diff = comparison.diff if comparison else None
    unchanged = None
    if diff is not None and CASE_COLUMN not in old.digests:
        unchanged = [values.ids[i] for i in np.flatnonzero(diff.common).tolist()]
    items = entry_lowerings(old, new_entry, unchanged)
    failed = comparison is not None and comparison.failed
    judged = tested or (lambda metric: True)
    blocking = (
        [i for i in items if i.structural or failed or not judged(i.metric)]
        if significant
        else items
    )
    if blocking and not lower_reason:
        raise _refusal(values.key, blocking)
    if diff is not None and (diff.added or diff.removed or diff.changed):
        history.append(
            HistoryRecord(
                at=now,
                key=values.key,
                reason=(
                    f"golden set changed: {len(diff.added)} added, {len(diff.removed)} removed, "
                    f"{len(diff.changed)} changed"
                ),
                added=diff.added[: _KEPT * 5],
                removed=diff.removed[: _KEPT * 5],
                changed=[c.id for c in diff.changed[: _KEPT * 5]],
            )
        )
    if items:
        reason = lower_reason or (
            "gate.mode significant: changes within noise recorded (no significant drop)"
        )
        changes = [i.as_change() for i in items[:_KEPT]]
        if len(items) > _KEPT:
            changes.append({"more": len(items) - _KEPT})
        history.append(HistoryRecord(at=now, key=values.key, reason=reason, changes=changes))
    elif stale and diff is None:
        history.append(
            HistoryRecord(
                at=now,
                key=values.key,
                reason="re-recorded: the golden set or ground truth changed (no value lowered)",
            )
        )
    lowered = [
        Lowering(
            key=values.key,
            metric=i.metric,
            old=i.before,
            new=i.after if i.after is not None else 0.0,
            reason=lower_reason or history[-1].reason,
        )
        for i in items
        if i.kind in ("metric", "count")
    ]
    updated = baseline.model_copy(
        update={"entries": entries, "history": history, "schema_version": BASELINE_SCHEMA_VERSION}
    )
    return updated, lowered, "updated"

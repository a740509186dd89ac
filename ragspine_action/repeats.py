"""``--repeats N``: run every case N times and see how noisy the system is.

Per case and gate: the fraction of repeats that passed; a case that passed some repeats
and failed others is *flaky*. Per metric: the mean over the repeats and their spread.
The baseline records, per case, the majority verdict (protected cases) and the pass
fractions (paired statistics); the aggregates are the means over the repeats.

The reference and http systems are called N times; an outcomes file holds the repeats
itself: several outcomes per id, each with a ``repeat`` index.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence

import numpy as np
import numpy.typing as npt

from .baseline.digests import CaseDigests
from .baseline.ratchet import FAIL, NOT_APPLICABLE, PASS, SuiteValues
from .baseline.values import qa_suite_values
from .errors import InputError, Problem
from .golden.models import GoldenCase
from .outcomes.model import Outcome
from .report.model import FlakyCase, MetricSpread, QASection, RepeatsSection
from .systems.base import Collection, System

__all__ = [
    "MAX_LISTED_FLAKY",
    "collect_repeats",
    "repeated_suite_values",
    "repeats_section",
    "saved_outcomes",
]

MAX_LISTED_FLAKY = 1000


def collect_repeats(system: System, cases: Sequence[GoldenCase], repeats: int) -> list[Collection]:
    """One collection per repeat. An outcomes file holds its own repeats (its ``repeat``
    indices); ``repeats`` (0: not given) must then agree with it."""
    from_file = getattr(system, "collect_repeats", None)
    if from_file is not None:
        collections: list[Collection] = from_file(cases, repeats)
        return collections
    return [system.collect(cases) for _ in range(max(1, repeats))]


def saved_outcomes(collections: Sequence[Collection]) -> Iterator[Outcome]:
    """What ``--save-outcomes`` writes: with repeats, each outcome with its repeat index."""
    if len(collections) == 1:
        yield from collections[0].outcomes.values()
        return
    for index, collection in enumerate(collections):
        for outcome in collection.outcomes.values():
            yield outcome.model_copy(update={"repeat": index})


def _same_cases(values: Sequence[SuiteValues]) -> None:
    ids = list(values[0].ids)
    for other in values[1:]:
        if list(other.ids) != ids:  # the same cases in the same order, every repeat
            raise InputError([Problem("<repeats>", None, None, "repeats scored other cases")])


def repeated_suite_values(
    sections: Sequence[QASection],
    protected_k: int,
    digests: Callable[[], CaseDigests] | None = None,
) -> SuiteValues:
    """The repeats in the baseline's terms: majority per case, pass fractions, mean metrics."""
    runs = [qa_suite_values(qa, protected_k, digests) for qa in sections]
    _same_cases(runs)
    first = runs[0]
    n = len(first.ids)
    results: dict[str, npt.NDArray[np.int8]] = {}
    fractions: dict[str, npt.NDArray[np.float64]] = {}
    for metric, column in first.results.items():
        stacked = np.stack([r.results[metric] for r in runs])
        applies = column != NOT_APPLICABLE
        share = np.full(n, np.nan)
        share[applies] = (stacked[:, applies] == PASS).mean(axis=0)
        fractions[metric] = share
        majority = np.where(share > 0.5, PASS, FAIL).astype(np.int8)
        results[metric] = np.where(applies, majority, NOT_APPLICABLE).astype(np.int8)
    case_values: dict[str, npt.NDArray[np.float64]] = {}
    for metric in first.case_values:
        stacked_f = np.stack([r.case_values[metric] for r in runs])
        scored = ~np.isnan(stacked_f[0])
        mean = np.full(n, np.nan)
        mean[scored] = stacked_f[:, scored].mean(axis=0)
        case_values[metric] = mean
    ranks = None
    if first.ranks is not None:
        ranks = _median_ranks(np.stack([r.ranks for r in runs if r.ranks is not None]))
    metrics = {m: math.fsum(r.metrics[m] for r in runs) / len(runs) for m in first.metrics}
    fabricated: set[str] = set()
    for r in runs:
        fabricated |= r.fabricated or set()
    return SuiteValues(
        key=first.key,
        fingerprint=first.fingerprint,
        n_cases=first.n_cases,
        metrics=metrics,
        # A number hallucinated in any repeat is counted: fabrication is never noise.
        fabrication_count=len(fabricated),
        ids=first.ids,
        results=results,
        ranks=ranks,
        case_values=case_values,
        fabricated=frozenset(fabricated),
        digests=digests,
        fractions=fractions,
        repeats=len(runs),
        judge=first.judge,
    )


def _median_ranks(ranks: npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
    """Per case, the lower median rank over the repeats (nothing ranked counts as last)."""
    big = np.iinfo(np.int32).max
    scored = ranks[0] >= 0
    worst = np.where(ranks == 0, big, ranks)
    median = np.sort(worst, axis=0)[(ranks.shape[0] - 1) // 2]
    out = np.where(median == big, 0, median).astype(np.int32)
    return np.where(scored, out, -1).astype(np.int32)


def repeats_section(sections: Sequence[QASection], values: SuiteValues) -> RepeatsSection:
    """The report's view: per-metric mean and spread, and the flaky cases."""
    per_metric: dict[str, list[float]] = {}
    for qa in sections:
        for name, gate in qa.metrics.items():
            per_metric.setdefault(name, []).append(gate.pass_rate)
        if qa.retrieval is not None:
            for name, value in qa.retrieval.overall.items():
                per_metric.setdefault(name, []).append(value)
    spreads = {
        name: MetricSpread(
            mean=math.fsum(got) / len(got),
            std=float(np.std(got, ddof=1)) if len(got) > 1 else 0.0,
            min=min(got),
            max=max(got),
            values=got,
        )
        for name, got in per_metric.items()
    }
    flaky_rows = np.zeros(len(values.ids), dtype=bool)
    for share in values.fractions.values():
        flaky_rows |= (share > 0) & (share < 1)
    flaky: list[FlakyCase] = []
    for i in np.flatnonzero(flaky_rows)[:MAX_LISTED_FLAKY].tolist():
        gates = {
            metric: float(share[i])
            for metric, share in values.fractions.items()
            if not math.isnan(share[i])
        }
        flaky.append(FlakyCase(id=values.ids[i], passed=gates))
    return RepeatsSection(
        count=len(sections),
        metrics=spreads,
        n_flaky=int(flaky_rows.sum()),
        flaky=flaky,
    )

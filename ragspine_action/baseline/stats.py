"""Paired bootstrap intervals for a metric's change against the baseline.

The statistic is a mean, and a bootstrap resample's mean depends only on how many times
each distinct value is drawn. So instead of drawing ``n`` indices per resample (cost
cases × resamples), we draw multinomial counts over the distinct values (cost distinct
values × resamples, independent of the number of cases). Pass/fail gives at most three
distinct paired differences (-1, 0, 1), rank-based metrics a few dozen.

Two percentile intervals are reported, each resampled on its own:

* the paired mean difference ``mean(current - baseline)``: the paired bootstrap resamples
  whole cases, and the mean difference depends only on the per-case differences, so
  resampling the differences *is* the paired bootstrap;
* the current mean.

Continuous metrics can have up to ``n`` distinct values. Then, if ``n × resamples`` is
small (≤ ``DIRECT_BUDGET``), cases are resampled directly (exact); otherwise the values
are cut into ``MAX_CATEGORIES`` equal-count quantile bins, each represented by its mean,
and the resampled means are rescaled around the sample mean by
``sqrt(total variance / between-bin variance)`` so the spread lost inside the bins is put
back. ``BootstrapInterval.method`` says which path ran.

Deterministic for a given seed (and numpy version: numpy's ``Generator`` streams are
stable across platforms, and its multinomial sampler has been stable across releases).
Empty input gives ``n == 0``, ``method == "empty"`` and None for every mean and bound.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

__all__ = [
    "DEFAULT_CONFIDENCE",
    "DEFAULT_RESAMPLES",
    "DEFAULT_SEED",
    "DIRECT_BUDGET",
    "MAX_CATEGORIES",
    "BootstrapInterval",
    "binomial_tail",
    "bootstrap_p_value",
    "paired_bootstrap",
]

DEFAULT_RESAMPLES = 5000
DEFAULT_SEED = 2026
DEFAULT_CONFIDENCE = 0.95
MAX_CATEGORIES = 128
"""Above this many distinct values, sample directly or bin (multinomial cost grows with it)."""
DIRECT_BUDGET = 10_000_000
"""Largest ``cases × resamples`` resampled index by index."""

Method = Literal["multinomial", "direct", "binned", "empty"]
_FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class BootstrapInterval:
    """Percentile intervals of the paired mean difference and of the current mean.

    ``delta`` is ``current_mean - baseline_mean`` (the observed change); ``delta_low`` /
    ``delta_high`` bound it, ``current_low`` / ``current_high`` bound the current mean.
    """

    n: int
    resamples: int
    confidence: float
    seed: int
    method: Method
    baseline_mean: float | None
    current_mean: float | None
    delta: float | None
    delta_low: float | None
    delta_high: float | None
    current_low: float | None
    current_high: float | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for the report's ``baseline.intervals.<metric>``."""
        return {
            "n": self.n,
            "resamples": self.resamples,
            "confidence": self.confidence,
            "seed": self.seed,
            "method": self.method,
            "baseline": self.baseline_mean,
            "current": self.current_mean,
            "delta": self.delta,
            "delta_interval": [self.delta_low, self.delta_high],
            "current_interval": [self.current_low, self.current_high],
        }


def _as_array(values: Sequence[float] | _FloatArray, name: str) -> _FloatArray:
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a sequence of numbers") from exc
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a flat sequence of numbers")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains a non-finite value")
    return arr


def _resampled_means(
    values: _FloatArray, resamples: int, rng: np.random.Generator
) -> tuple[_FloatArray, Method]:
    """``resamples`` bootstrap means of ``values`` by the cheapest faithful method."""
    n = values.size
    distinct, counts = np.unique(values, return_counts=True)
    if distinct.size <= MAX_CATEGORIES:
        draws = rng.multinomial(n, counts / n, size=resamples)
        return (draws @ distinct) / n, "multinomial"
    if n * resamples <= DIRECT_BUDGET:
        means = np.empty(resamples, dtype=np.float64)
        chunk = max(1, DIRECT_BUDGET // (10 * n))
        for start in range(0, resamples, chunk):
            stop = min(resamples, start + chunk)
            idx = rng.integers(0, n, size=(stop - start, n))
            means[start:stop] = values[idx].mean(axis=1)
        return means, "direct"
    ordered = np.sort(values)
    bins = np.array_split(ordered, MAX_CATEGORIES)
    sizes = np.array([b.size for b in bins], dtype=np.float64)
    bin_means = np.array([b.mean() for b in bins], dtype=np.float64)
    draws = rng.multinomial(n, sizes / n, size=resamples)
    means = (draws @ bin_means) / n
    centre = float(values.mean())
    total_var = float(values.var())
    between_var = float(np.sum(sizes * (bin_means - centre) ** 2) / n)
    if between_var > 0.0:
        means = centre + (means - centre) * math.sqrt(total_var / between_var)
    return means, "binned"


def _bounds(means: _FloatArray, confidence: float) -> tuple[float, float]:
    alpha = (1.0 - confidence) / 2.0
    ordered = np.sort(means)
    return linear_quantile(ordered, alpha), linear_quantile(ordered, 1.0 - alpha)


def linear_quantile(ordered: _FloatArray, q: float) -> float:
    """``np.quantile(values, q)`` (its default, 'linear' method) of ``ordered``, the values
    sorted: the same float operations in the same order, so the same bits (tested). numpy's
    own path imports ``numpy.ma`` (through ``np.unique``), ~5 ms of every bundled run."""
    n = ordered.size
    virtual = (n - 1) * q
    if virtual >= n - 1:  # numpy: above the last index, the last value
        previous = following = -1
    elif virtual < 0:
        previous = following = 0
    else:
        previous = math.floor(virtual)
        following = previous + 1
    gamma = virtual - previous
    a, b = float(ordered[previous]), float(ordered[following])
    diff = b - a
    # numpy's _lerp: from the nearer end, a + diff·t below one half, b - diff·(1 - t) above
    return b - diff * (1 - gamma) if gamma >= 0.5 else a + diff * gamma


def _mean(values: _FloatArray) -> float:
    return math.fsum(values.tolist()) / values.size


def paired_bootstrap(
    baseline: Sequence[float] | _FloatArray,
    current: Sequence[float] | _FloatArray,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    confidence: float = DEFAULT_CONFIDENCE,
) -> BootstrapInterval:
    """Bootstrap the change of a per-case metric; ``baseline[i]`` and ``current[i]`` are one case.

    Per-case values are 0/1 for pass/fail gates, or a retrieval metric's value.
    """
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 1:
        raise ValueError(f"resamples must be a positive integer, got {resamples!r}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence!r}")
    base = _as_array(baseline, "baseline")
    cur = _as_array(current, "current")
    if base.size != cur.size:
        raise ValueError(
            f"paired samples differ in length: {base.size} baseline vs {cur.size} current"
        )
    if base.size == 0:
        return BootstrapInterval(
            0, resamples, confidence, seed, "empty", None, None, None, None, None, None, None
        )
    rng = np.random.default_rng(seed)
    delta_means, delta_method = _resampled_means(cur - base, resamples, rng)
    current_means, current_method = _resampled_means(cur, resamples, rng)
    order: tuple[Method, ...] = ("multinomial", "direct", "binned")
    method = max(delta_method, current_method, key=order.index)
    delta_low, delta_high = _bounds(delta_means, confidence)
    current_low, current_high = _bounds(current_means, confidence)
    base_mean = _mean(base)
    cur_mean = _mean(cur)
    return BootstrapInterval(
        n=int(base.size),
        resamples=resamples,
        confidence=confidence,
        seed=seed,
        method=method,
        baseline_mean=base_mean,
        current_mean=cur_mean,
        delta=cur_mean - base_mean,
        delta_low=delta_low,
        delta_high=delta_high,
        current_low=current_low,
        current_high=current_high,
    )


def bootstrap_p_value(
    differences: Sequence[float] | _FloatArray,
    threshold: float = 0.0,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> float:
    """One-sided bootstrap p-value of "the mean paired change is at least ``threshold``".

    The share of bootstrap means of ``differences`` that reach ``threshold`` (counted as
    ``(k + 1) / (resamples + 1)``): below ``a`` when the upper ``1 - a`` percentile bound
    of the change lies below ``threshold`` (the interval "entirely below zero", or below
    ``-tolerance``).
    """
    diffs = _as_array(differences, "differences")
    if diffs.size == 0:
        return 1.0
    rng = np.random.default_rng(seed)
    distinct, counts = np.unique(diffs, return_counts=True)
    if distinct.size <= MAX_CATEGORIES:
        means = _category_means(distinct, counts, resamples, rng)
    else:
        means, _ = _resampled_means(diffs, resamples, rng)
    reached = int(np.count_nonzero(means >= threshold - 1e-12))
    return (reached + 1) / (resamples + 1)  # a Monte Carlo p-value is never 0


def _category_means(
    distinct: _FloatArray, counts: npt.NDArray[np.int64], resamples: int, rng: np.random.Generator
) -> _FloatArray:
    """Bootstrap means over few distinct values: multinomial counts drawn as a chain of
    binomials, each vectorised over the resamples (one call per value, not per resample)."""
    n = int(counts.sum())
    left = np.full(resamples, n, dtype=np.int64)
    total = np.zeros(resamples, dtype=np.float64)
    share_left = 1.0
    for value, count in zip(distinct.tolist(), counts.tolist(), strict=True):
        share = count / n
        p = min(1.0, share / share_left) if share_left > 0 else 1.0
        drawn = rng.binomial(left, p)
        total += drawn * value
        left -= drawn
        share_left -= share
    return total / n


def binomial_tail(successes: int, trials: int) -> float:
    """P(X ≥ ``successes``) for X ~ Binomial(``trials``, 1/2): the exact one-sided McNemar
    test on discordant pairs (``successes`` of them went the bad way)."""
    if successes <= 0:
        return 1.0
    if successes > trials:
        return 0.0
    if 2 * successes <= trials:  # P(X ≥ b) = 1 - P(X ≥ n - b + 1), by symmetry
        return 1.0 - binomial_tail(trials - successes + 1, trials)
    log_term = (
        math.lgamma(trials + 1)
        - math.lgamma(successes + 1)
        - math.lgamma(trials - successes + 1)
        - trials * math.log(2.0)
    )
    term = math.exp(log_term)
    total = term
    k = successes
    while k < trials and term > total * 1e-17:
        term *= (trials - k) / (k + 1)
        total += term
        k += 1
    return min(1.0, total)

"""``gate.mode: significant``: a verdict that survives a noisy (sampling) system.

``exact`` (the default, RAGSpine's rule) fails on any drop of a gated value and on any
protected case that breaks. On a nondeterministic pipeline one sampling flip then fails
CI. ``significant`` keeps only the drops the data cannot explain as noise:

* an aggregate metric fails when the paired bootstrap of its per-case change (cases
  resampled, fixed seed) puts the whole upper interval below ``-gate.tolerance``: the
  one-sided p-value is the share of resampled mean changes that reach ``-tolerance``;
* a gate's protected cases fail when the exact binomial (McNemar) test on the discordant
  pairs says the breakage is significant: ``b`` cases passed in the baseline and fail now,
  ``c`` failed and pass now; under "no change" ``b ~ Binomial(b + c, 1/2)``. With
  ``--repeats N`` a case fails now when it fails in a strict majority of its repeats and
  its change is its pass fraction;
* the tests of one baseline key are one family: Holm's step-down at ``gate.alpha`` keeps
  the chance that an unchanged system fails the run at or below ``alpha`` (a plain per-test
  threshold would fail ~1 - (1 - alpha)^m of identical reruns with m gated metrics);
* the fabrication count stays exact: a hallucinated number is never noise.

Tests with no changed case cannot reject and are left out of the family (Tarone).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..report.model import SignificanceTest
from .model import BaselineEntry
from .ratchet import Comparison, SuiteValues, recorded_columns
from .stats import DEFAULT_RESAMPLES, DEFAULT_SEED, binomial_tail, bootstrap_p_value

__all__ = ["SignificanceSettings", "apply_significance", "holm"]


@dataclass(frozen=True)
class SignificanceSettings:
    alpha: float = 0.05
    tolerance: float = 0.0
    resamples: int = DEFAULT_RESAMPLES
    seed: int = DEFAULT_SEED


def holm(p_values: list[float], alpha: float) -> tuple[list[bool], list[float]]:
    """Holm's step-down: which hypotheses are rejected, and the threshold each was held to."""
    order = sorted(range(len(p_values)), key=p_values.__getitem__)
    rejected = [False] * len(p_values)
    thresholds = [alpha] * len(p_values)
    m = len(p_values)
    still = True
    for rank, i in enumerate(order):
        thresholds[i] = alpha / (m - rank)
        if still and p_values[i] <= thresholds[i]:
            rejected[i] = True
        else:
            still = False
    return rejected, thresholds


def apply_significance(
    entry: BaselineEntry,
    values: SuiteValues,
    comparison: Comparison,
    settings: SignificanceSettings,
    gated: Callable[[str], bool],
) -> list[SignificanceTest]:
    """Test every gated change of ``comparison``; keep only the significant regressions and
    broken cases in it. Returns the tests, for the report."""
    key = values.key
    mask = (
        comparison.diff.common
        if comparison.diff is not None
        else np.ones(len(values.ids), dtype=bool)
    )
    recorded = recorded_columns(entry, values.ids)
    tests: list[SignificanceTest] = []
    untestable: set[str] = set()
    for metric in comparison.baseline_values:
        if not gated(metric):
            continue
        now_applies, now_values = values.applicable(metric), values.per_case(metric)
        old_applies, old_values = recorded.applicable(metric), recorded.per_case(metric)
        if now_applies is None or now_values is None or old_applies is None or old_values is None:
            untestable.add(metric)  # no per-case values: judged exactly
            continue
        chosen = mask & now_applies & old_applies
        diffs = now_values[chosen] - old_values[chosen]
        if not np.any(diffs):
            continue
        p = bootstrap_p_value(
            diffs, -settings.tolerance, resamples=settings.resamples, seed=settings.seed
        )
        tests.append(
            SignificanceTest(
                key=key,
                metric=metric,
                kind="bootstrap",
                p_value=p,
                significant=False,
                delta=float(np.mean(diffs)),
            )
        )
    for metric in entry.passed:
        applies = values.applicable(metric)
        if applies is None or not gated(metric):
            continue
        applies = applies & mask
        before = recorded.passed(metric)
        now = values.passes_now(metric)
        broke = int(np.count_nonzero(applies & before & ~now))
        mended = int(np.count_nonzero(applies & ~before & now))
        if broke == 0:
            continue
        tests.append(
            SignificanceTest(
                key=key,
                metric=metric,
                kind="binomial",
                p_value=binomial_tail(broke, broke + mended),
                significant=False,
                discordant=[broke, mended],
            )
        )
    rejected, thresholds = holm([t.p_value for t in tests], settings.alpha)
    for test, bad, threshold in zip(tests, rejected, thresholds, strict=True):
        test.significant = bad
        test.threshold = threshold
    failing_metrics = {t.metric for t in tests if t.significant and t.kind == "bootstrap"}
    failing_gates = {t.metric for t in tests if t.significant and t.kind == "binomial"}
    comparison.regressions = [
        r
        for r in comparison.regressions
        if r.metric == "fabrication_count" or r.metric in failing_metrics or r.metric in untestable
    ]
    comparison.broken = [c for c in comparison.broken if c.metric in failing_gates]
    return tests

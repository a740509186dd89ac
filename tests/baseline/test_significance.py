"""``gate.mode: significant`` against a seeded, simulated noisy system (issue 16, point 5).

The simulated system has a true pass/fail state per case and gate; every observation
flips it with probability 0.1 (a sampling LLM). Identical reruns must fail the run at a
rate ≤ alpha over 200 seeds; a real 10-point drop of the true pass rate over 1,000 cases
must be caught ≥ 95% of the time. Both with one run per case and with ``--repeats 5``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt
import pytest

from ragspine_action.baseline.ratchet import SuiteValues, compare, entry_from_values
from ragspine_action.baseline.significance import SignificanceSettings, apply_significance, holm
from ragspine_action.baseline.stats import binomial_tail, bootstrap_p_value

N_CASES = 1000
FLIP = 0.1
GATES = ("answer_accuracy", "faithfulness", "numeric_accuracy")
ALPHA = 0.05
SEEDS = 200


@dataclass
class NoisySystem:
    """True per-case states (1 pass) per gate; each observation flips with ``FLIP``."""

    truth: dict[str, npt.NDArray[np.bool_]]

    @classmethod
    def draw(cls, rng: np.random.Generator, pass_rate: float = 0.85) -> NoisySystem:
        return cls({g: rng.random(N_CASES) < pass_rate for g in GATES})

    def dropped(self, rng: np.random.Generator, gate: str, points: float) -> NoisySystem:
        """The same system with ``points`` of ``gate``'s true pass rate lost."""
        truth = dict(self.truth)
        passing = np.flatnonzero(truth[gate])
        lost = rng.choice(passing, size=round(points * N_CASES), replace=False)
        column = truth[gate].copy()
        column[lost] = False
        truth[gate] = column
        return NoisySystem(truth)

    def observe(self, rng: np.random.Generator, repeats: int = 1) -> SuiteValues:
        """One evaluation: per case and gate, the majority over ``repeats`` observations."""
        ids = [f"c{i:04d}" for i in range(N_CASES)]
        results: dict[str, npt.NDArray[np.int8]] = {}
        fractions: dict[str, npt.NDArray[np.float64]] = {}
        metrics: dict[str, float] = {}
        for gate, truth in self.truth.items():
            flips = rng.random((repeats, N_CASES)) < FLIP
            passes = (truth[None, :] ^ flips).mean(axis=0)
            results[gate] = (passes > 0.5).astype(np.int8)
            if repeats > 1:
                fractions[gate] = passes
            metrics[gate] = float(passes.mean())
        return SuiteValues(
            key="tool",
            fingerprint="sha256:same",
            n_cases=N_CASES,
            metrics=metrics,
            ids=ids,
            results=results,
            fractions=fractions,
            repeats=repeats,
        )


def _fails(
    baseline: SuiteValues, now: SuiteValues, settings: SignificanceSettings | None = None
) -> bool:
    entry = entry_from_values(baseline, recorded_at="t", tool_version="v")
    comparison = compare(entry, now)
    apply_significance(
        entry, now, comparison, settings or SignificanceSettings(resamples=2000), lambda m: True
    )
    return comparison.failed


def _rates(repeats: int) -> tuple[float, float]:
    false_alarms = caught = 0
    for seed in range(SEEDS):
        rng = np.random.default_rng(seed)
        system = NoisySystem.draw(rng)
        baseline = system.observe(rng, repeats)
        false_alarms += _fails(baseline, system.observe(rng, repeats))
        worse = system.dropped(rng, "answer_accuracy", 0.10)
        caught += _fails(baseline, worse.observe(rng, repeats))
    return false_alarms / SEEDS, caught / SEEDS


@pytest.mark.parametrize("repeats", [1, 5])
def test_identical_reruns_rarely_fail_and_a_real_drop_is_caught(repeats: int) -> None:
    false_alarm_rate, power = _rates(repeats)
    assert false_alarm_rate <= ALPHA, false_alarm_rate
    assert power >= 0.95, power


def test_exact_mode_fails_nearly_every_identical_rerun_of_the_same_system() -> None:
    """Why the mode exists: the exact ratchet cannot tell noise from a regression."""
    failed = 0
    for seed in range(20):
        rng = np.random.default_rng(seed)
        system = NoisySystem.draw(rng)
        entry = entry_from_values(system.observe(rng), recorded_at="t", tool_version="v")
        failed += compare(entry, system.observe(rng)).failed
    assert failed == 20


def test_a_tolerance_forgives_a_small_significant_drop_of_an_aggregate() -> None:
    rng = np.random.default_rng(7)
    system = NoisySystem.draw(rng, pass_rate=0.95)
    baseline = system.observe(rng, 5)
    worse = system.dropped(rng, "answer_accuracy", 0.05).observe(rng, 5)
    entry = entry_from_values(baseline, recorded_at="t", tool_version="v")

    def verdict(tolerance: float) -> bool:
        comparison = compare(entry, worse)
        tests = apply_significance(
            entry,
            worse,
            comparison,
            SignificanceSettings(tolerance=tolerance, resamples=2000),
            lambda m: m == "answer_accuracy",
        )
        aggregate = next(t for t in tests if t.kind == "bootstrap")
        assert aggregate.delta is not None and aggregate.delta < -0.03
        return aggregate.significant

    assert verdict(0.0)
    assert not verdict(0.1)  # the interval does not lie entirely below -0.1


def test_one_deterministic_break_among_a_thousand_is_not_significant_but_a_cluster_is() -> None:
    rng = np.random.default_rng(3)
    baseline = NoisySystem.draw(rng).observe(rng)
    column = baseline.results["numeric_accuracy"].copy()
    passing = np.flatnonzero(column == 1)
    column[passing[:1]] = 0
    now = replace(baseline, results={**baseline.results, "numeric_accuracy": column})
    assert not _fails(baseline, now)  # b = 1, c = 0: p = 0.5
    column = column.copy()
    column[passing[:12]] = 0
    now = replace(baseline, results={**baseline.results, "numeric_accuracy": column})
    assert _fails(baseline, now)  # b = 12, c = 0: p = 0.00024 < 0.05 / 2


def test_the_exact_binomial_tail_matches_the_definition() -> None:
    from math import comb

    for n in (1, 2, 7, 20, 61):
        for b in range(n + 2):
            want = sum(comb(n, k) for k in range(b, n + 1)) / 2**n if b <= n else 0.0
            assert binomial_tail(b, n) == pytest.approx(want, rel=1e-9, abs=1e-15)
    assert binomial_tail(600_000, 1_000_000) < 1e-300 or binomial_tail(600_000, 1_000_000) == 0.0
    assert binomial_tail(500_500, 1_000_000) == pytest.approx(0.1587, abs=2e-3)


def test_the_bootstrap_p_value_is_the_share_of_resampled_means_reaching_the_threshold() -> None:
    assert bootstrap_p_value([0.0] * 50) == 1.0
    assert bootstrap_p_value([-1.0] * 40 + [0.0] * 60, resamples=999) == 1 / 1000
    assert bootstrap_p_value([-1.0] * 40 + [0.0] * 60, -0.2) == pytest.approx(0.0, abs=1e-3)
    assert bootstrap_p_value([-1.0] * 40 + [0.0] * 60, -0.6) == pytest.approx(1.0, abs=1e-3)
    assert 0.3 < bootstrap_p_value([-1.0] * 50 + [1.0] * 50) < 0.7


def test_holm_steps_down_and_stops_at_the_first_survivor() -> None:
    rejected, thresholds = holm([0.001, 0.04, 0.012, 0.5], 0.05)
    assert rejected == [True, False, True, False]
    assert thresholds == pytest.approx([0.0125, 0.025, 0.05 / 3, 0.05])

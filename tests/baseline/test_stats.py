"""Paired bootstrap: correctness against a naive bootstrap, paths, determinism, edge cases."""

from __future__ import annotations

import random
import struct

import numpy as np
import pytest

from ragspine_action.baseline.stats import (
    DIRECT_BUDGET,
    MAX_CATEGORIES,
    BootstrapInterval,
    linear_quantile,
    paired_bootstrap,
)


def _pass_fail(n: int, p_base: float, p_cur: float, seed: int) -> tuple[list[float], list[float]]:
    rng = random.Random(seed)
    base = [float(rng.random() < p_base) for _ in range(n)]
    cur = [float(rng.random() < p_cur) if rng.random() < 0.3 else b for b in base]
    return base, cur


def _naive(base: list[float], cur: list[float], resamples: int, seed: int) -> tuple[float, ...]:
    """Textbook paired bootstrap: resample whole cases (cost n x resamples)."""
    rng = np.random.default_rng(seed)
    b, c = np.asarray(base), np.asarray(cur)
    idx = rng.integers(0, len(b), size=(resamples, len(b)))
    deltas = c[idx].mean(axis=1) - b[idx].mean(axis=1)
    currents = c[idx].mean(axis=1)
    return (*np.quantile(deltas, [0.025, 0.975]), *np.quantile(currents, [0.025, 0.975]))


def _bounds(iv: BootstrapInterval) -> tuple[float, ...]:
    assert iv.delta_low is not None and iv.delta_high is not None
    assert iv.current_low is not None and iv.current_high is not None
    return iv.delta_low, iv.delta_high, iv.current_low, iv.current_high


@pytest.mark.slow
def test_pass_fail_matches_naive_paired_bootstrap() -> None:
    base, cur = _pass_fail(3000, 0.7, 0.75, seed=1)
    iv = paired_bootstrap(base, cur)
    assert iv.method == "multinomial"
    for ours, naive in zip(_bounds(iv), _naive(base, cur, 5000, seed=7), strict=True):
        assert ours == pytest.approx(naive, abs=0.004)
    assert iv.baseline_mean == pytest.approx(sum(base) / len(base))
    assert iv.current_mean == pytest.approx(sum(cur) / len(cur))
    assert iv.delta == pytest.approx(iv.current_mean - iv.baseline_mean)  # type: ignore[operator]
    assert iv.delta_low < iv.delta < iv.delta_high  # type: ignore[operator]


def test_rank_metric_matches_naive_paired_bootstrap() -> None:
    rng = random.Random(3)
    values = [0.0, 1.0, 0.5, 1 / 3, 0.25, 0.2]
    base = [rng.choice(values) for _ in range(2000)]
    cur = [b if rng.random() < 0.6 else rng.choice(values) for b in base]
    iv = paired_bootstrap(base, cur)
    assert iv.method == "multinomial"
    for ours, naive in zip(_bounds(iv), _naive(base, cur, 5000, seed=11), strict=True):
        assert ours == pytest.approx(naive, abs=0.006)


def test_large_inputs_never_resample_case_by_case() -> None:
    # 100,000 cases x 5,000 resamples: the multinomial path, whose cost is independent of n.
    base, cur = _pass_fail(100_000, 0.8, 0.82, seed=5)
    iv = paired_bootstrap(base, cur, resamples=5000)
    assert iv.method == "multinomial" and iv.n == 100_000
    assert DIRECT_BUDGET < 100_000 * 5000
    # Continuous values at that size take the binned path, not direct resampling.
    rng = random.Random(6)
    cb = [rng.random() for _ in range(100_000)]
    cc = [x + rng.gauss(0.0, 0.1) for x in cb]
    assert paired_bootstrap(cb, cc).method == "binned"


def test_binned_interval_keeps_the_spread() -> None:
    rng = random.Random(8)
    n = 50_000
    base = [rng.random() for _ in range(n)]
    cur = [b + rng.gauss(0.01, 0.2) for b in base]
    iv = paired_bootstrap(base, cur)
    assert iv.method == "binned"
    diffs = np.asarray(cur) - np.asarray(base)
    half = 1.96 * diffs.std() / np.sqrt(n)  # the CLT interval, accurate at this n
    assert iv.delta_low == pytest.approx(diffs.mean() - half, abs=half * 0.08)
    assert iv.delta_high == pytest.approx(diffs.mean() + half, abs=half * 0.08)
    cur_half = 1.96 * np.asarray(cur).std() / np.sqrt(n)
    assert iv.current_high - iv.current_low == pytest.approx(2 * cur_half, rel=0.08)  # type: ignore[operator]


def test_small_continuous_input_is_resampled_directly() -> None:
    rng = random.Random(9)
    base = [rng.random() for _ in range(MAX_CATEGORIES * 2)]
    cur = [b + rng.gauss(0.0, 0.1) for b in base]
    iv = paired_bootstrap(base, cur, resamples=2000)
    assert iv.method == "direct"
    naive = _naive(base, cur, 2000, seed=4)
    width = naive[1] - naive[0]
    for ours, expected in zip(_bounds(iv), naive, strict=True):
        assert ours == pytest.approx(expected, abs=width * 0.15)


def test_deterministic_for_a_seed() -> None:
    base, cur = _pass_fail(500, 0.5, 0.55, seed=2)
    assert paired_bootstrap(base, cur) == paired_bootstrap(base, cur)
    assert paired_bootstrap(base, cur, seed=1) != paired_bootstrap(base, cur, seed=2)
    assert paired_bootstrap(base, cur).seed == 2026


def test_no_change_gives_a_zero_width_delta_interval() -> None:
    values = [1.0, 0.0, 1.0, 1.0]
    iv = paired_bootstrap(values, values)
    assert (iv.delta, iv.delta_low, iv.delta_high) == (0.0, 0.0, 0.0)
    constant = paired_bootstrap([1.0] * 10, [1.0] * 10)
    assert (constant.current_low, constant.current_high) == (1.0, 1.0)


def test_confidence_narrows_the_interval() -> None:
    base, cur = _pass_fail(1000, 0.6, 0.65, seed=3)
    wide = paired_bootstrap(base, cur, confidence=0.95)
    narrow = paired_bootstrap(base, cur, confidence=0.5)
    assert narrow.delta_low > wide.delta_low  # type: ignore[operator]
    assert narrow.delta_high < wide.delta_high  # type: ignore[operator]


def test_empty_input() -> None:
    iv = paired_bootstrap([], [])
    assert iv.n == 0 and iv.method == "empty"
    assert iv.delta is None and iv.delta_low is None and iv.current_high is None
    assert iv.to_dict()["delta_interval"] == [None, None]


def test_to_dict_keys() -> None:
    d = paired_bootstrap([0.0, 1.0], [1.0, 1.0], resamples=100).to_dict()
    assert d["delta"] == 0.5 and d["resamples"] == 100 and d["seed"] == 2026
    assert set(d) == {
        "n",
        "resamples",
        "confidence",
        "seed",
        "method",
        "baseline",
        "current",
        "delta",
        "delta_interval",
        "current_interval",
    }


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"baseline": [1.0], "current": [1.0, 0.0]}, "differ in length"),
        ({"baseline": [float("nan")], "current": [1.0]}, "non-finite"),
        ({"baseline": [1.0], "current": [1.0], "resamples": 0}, "resamples"),
        ({"baseline": [1.0], "current": [1.0], "confidence": 1.0}, "confidence"),
    ],
)
def test_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        paired_bootstrap(**kwargs)  # type: ignore[arg-type]


@pytest.mark.slow
def test_binned_interval_restores_heavy_tail_spread() -> None:
    # Lognormal values pile a huge spread into the top bin; bin means alone would
    # shrink the interval by about 40%.
    gen = np.random.default_rng(1)
    n = 50_000
    cur = gen.lognormal(0.0, 2.0, n)
    iv = paired_bootstrap([0.0] * n, cur.tolist())
    assert iv.method == "binned"
    idx = gen.integers(0, n, size=(1000, n))
    naive_low, naive_high = np.quantile(cur[idx].mean(axis=1), [0.025, 0.975])
    width = naive_high - naive_low
    assert iv.current_low == pytest.approx(naive_low, abs=width * 0.08)
    assert iv.current_high == pytest.approx(naive_high, abs=width * 0.08)
    assert iv.delta_low == pytest.approx(naive_low, abs=width * 0.08)


def _bits(x: float) -> bytes:
    return struct.pack("<d", x)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 74, 1000, 4999, 5000, 5001])
def test_linear_quantile_is_numpys_to_the_bit(n: int) -> None:
    """The interval bounds no longer go through np.quantile (which imports numpy.ma):
    the same value, bit for bit, for any size, spread, duplicates and level."""
    rng = np.random.default_rng(n)
    samples = [
        rng.normal(size=n),
        np.round(rng.normal(size=n), 2),  # many ties
        rng.integers(-3, 4, size=n) / 74,  # few distinct values, as pass/fail deltas
        np.full(n, -0.0),
        rng.random(n) * 1e-300,
        rng.random(n) * 1e300,
    ]
    levels = [0.0, 1e-12, 0.005, 0.025, 0.05, 0.1, 1 / 3, 0.5, 2 / 3, 0.95, 0.975, 0.995, 1.0]
    for values in samples:
        ordered = np.sort(values)
        for q in levels + list(rng.random(20)):
            expected = float(np.quantile(values, q))
            assert _bits(linear_quantile(ordered, float(q))) == _bits(expected), (n, q)
        pair = np.quantile(values, [0.025, 0.975])  # as _bounds used to ask, both at once
        assert [_bits(linear_quantile(ordered, q)) for q in (0.025, 0.975)] == [
            _bits(float(v)) for v in pair
        ]

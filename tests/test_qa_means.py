"""qa._ColumnMeans: the means from distinct rows and counts are fsum's means, bit for bit."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine_action.qa import _ColumnMeans, _mean

_values = st.one_of(
    st.sampled_from([0.0, 1.0, 0.5, 1 / 3, 2 / 3, 0.1, 0.2, 0.6309297535714575, 1e-300]),
    st.floats(min_value=0.0, max_value=1.0),
    st.floats(min_value=-1e6, max_value=1e6, allow_subnormal=True),
)


@st.composite
def _rows_and_masks(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    width = draw(st.integers(1, 4))
    patterns = draw(st.lists(st.lists(_values, min_size=width, max_size=width), min_size=1))
    picks = draw(st.lists(st.integers(0, len(patterns) - 1), min_size=1, max_size=300))
    rows = np.array([patterns[i] for i in picks], dtype=np.float64)
    selected = np.array(draw(st.lists(st.booleans(), min_size=len(picks), max_size=len(picks))))
    n = int(selected.sum())
    subset = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    return rows, selected, subset


@settings(max_examples=300, deadline=None)
@given(_rows_and_masks())
def test_means_equal_fsum_means(drawn: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
    rows, selected, subset = drawn
    means = _ColumnMeans(rows)
    assert means.means() == [_mean(rows[:, i]) for i in range(rows.shape[1])]
    if selected.any():
        chosen = rows[selected]
        means = _ColumnMeans(rows, selected)
        assert means.means() == [_mean(chosen[:, i]) for i in range(rows.shape[1])]
        if subset.any():
            expected = [_mean(chosen[subset][:, i]) for i in range(rows.shape[1])]
            assert means.means(subset) == expected


def test_rows_are_grouped_across_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    import ragspine_action.qa as qa

    monkeypatch.setattr(qa, "_BLOCK_ROWS", 7)
    rows = np.array([[0.1, 1 / 3], [0.7, 2 / 3], [0.1, 1 / 3], [0.3, 0.0]] * 25)
    selected = np.arange(len(rows)) % 3 != 0
    chosen = rows[selected]
    assert _ColumnMeans(rows, selected).means() == [_mean(chosen[:, 0]), _mean(chosen[:, 1])]


def test_many_repeats_of_values_fsum_rounds_differently_from_a_plain_sum() -> None:
    rows = np.array([[0.1, 1 / 3]] * 100_003 + [[0.7, 2 / 3]] * 99_991)
    assert sum(rows[:, 0].tolist()) != math.fsum(rows[:, 0].tolist())  # the case that matters
    assert _ColumnMeans(rows).means() == [_mean(rows[:, 0]), _mean(rows[:, 1])]


def test_a_nan_or_an_infinity_is_left_to_fsum() -> None:
    rows = np.array([[0.5, math.inf], [0.25, 1.0], [math.nan, 0.0], [0.5, 0.5]])
    got = _ColumnMeans(rows).means()
    expected = [_mean(rows[:, 0]), _mean(rows[:, 1])]
    assert [str(x) for x in got] == [str(x) for x in expected]
    selected = np.array([True, True, False, True])
    subset = np.array([False, True, True])
    got = _ColumnMeans(rows, selected).means(subset)
    assert got == [_mean(rows[[1, 3], 0]), _mean(rows[[1, 3], 1])]

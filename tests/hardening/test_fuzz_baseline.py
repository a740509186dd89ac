"""Baseline JSON under fuzzing: loaded, or refused with located lines — and never rewritten."""

from __future__ import annotations

import functools
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hardening_support import (
    MINI_GOLDEN,
    MINI_OUTCOMES,
    assert_clean_error,
    assert_located,
    fuzz_settings,
    mutate,
    run_cli,
)
from hypothesis import given
from hypothesis import strategies as st
from strategies import JSON_VALUES, MUTATIONS

from ragspine_action.baseline.store import load_baseline, parse_baseline
from ragspine_action.errors import InputError

MODE = "fuzz"


def _args(baseline: Path, *extra: str) -> list[str]:
    return [
        "--system", "outcomes", "--golden", str(MINI_GOLDEN), "--outcomes", str(MINI_OUTCOMES),
        "--mode", MODE, "--baseline", str(baseline), "--bootstrap-resamples", "0", *extra,
    ]  # fmt: skip


@functools.cache
def recorded_baseline() -> bytes:
    """A real baseline recorded by the CLI for the mini golden set (the mutation seed)."""
    path = Path(tempfile.mkdtemp(prefix="rs-fuzz-")) / "baseline.json"
    assert run_cli(_args(path)).code == 0
    return path.read_bytes()


def _load_or_error(path: Path) -> InputError | None:
    try:
        load_baseline(path)
    except InputError as exc:
        assert_located(exc, path)
        return exc
    return None


@fuzz_settings()
@given(MUTATIONS)
def test_mutated_baseline_loads_or_fails_located(ops: list[tuple[str, int, int]]) -> None:
    path = Path(tempfile.mkdtemp(prefix="rs-fuzz-")) / "baseline.json"
    path.write_bytes(mutate(recorded_baseline(), ops))
    _load_or_error(path)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*prefix, index))
    return found


@pytest.mark.slow
@fuzz_settings()
@given(st.data(), JSON_VALUES)
def test_any_value_anywhere_in_a_baseline_is_loaded_or_refused(
    data: st.DataObject, replacement: Any
) -> None:
    """Replace one node of a real baseline with any JSON value: typed or refused, never a crash."""
    doc = json.loads(recorded_baseline())
    where = data.draw(st.sampled_from(_paths(doc)[1:]))
    node = doc
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = replacement
    try:
        parsed = parse_baseline(doc, "baseline.json")
    except InputError as exc:
        assert_located(exc, "baseline.json")
        return
    for entry in parsed.entries.values():  # whatever loads is the type it claims to be
        assert all(isinstance(v, float | int) and v >= 0 for v in entry.metrics.values())
        assert isinstance(entry.n_cases, int)


@fuzz_settings(60)
@given(MUTATIONS, st.booleans())
def test_cli_never_crashes_on_a_bad_baseline_and_never_rewrites_it(
    ops: list[tuple[str, int, int]], update: bool
) -> None:
    path = Path(tempfile.mkdtemp(prefix="rs-fuzz-")) / "baseline.json"
    mutated = mutate(recorded_baseline(), ops)
    path.write_bytes(mutated)
    failed = _load_or_error(path)
    result = run_cli(_args(path, *(["--update-baseline"] if update else [])))
    assert "Traceback" not in result.stderr
    if failed is not None:
        assert_clean_error(result, path)
        assert path.read_bytes() == mutated
    else:
        assert result.code in (0, 1, 2), result.stderr
        if result.code == 2 and "Baseline: stale" not in result.stdout:
            assert_clean_error(result, path)  # a stale baseline is reported in the table

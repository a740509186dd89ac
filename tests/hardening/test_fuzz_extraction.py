"""Extraction facts, ground truth and manifests under fuzzing."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hardening_support import (
    DATA,
    assert_clean_error,
    assert_located,
    fuzz_settings,
    mutate,
    run_cli,
)
from hypothesis import given
from hypothesis import strategies as st
from strategies import JSON_VALUES, MUTATIONS

from ragspine_action.errors import InputError
from ragspine_action.extraction.load import load_cell_table, load_manifest

FIXTURES = DATA.parent.parent / "data" / "fixtures"
FACTS = FIXTURES / "fixtures_facts.json"
TRUTH = FIXTURES / "fixtures_ground_truth.json"


def _dir() -> Path:
    return Path(tempfile.mkdtemp(prefix="rs-fuzz-"))


def _load_or_error(path: Path, *, require_cells: bool = False) -> InputError | None:
    try:
        table = load_cell_table(path, require_cells=require_cells)
    except InputError as exc:
        assert_located(exc, path)
        return exc
    json.dumps(table.cells, ensure_ascii=False, allow_nan=False).encode("utf-8")
    return None


@fuzz_settings()
@given(MUTATIONS, st.booleans())
def test_mutated_cell_files_load_or_fail_located(
    ops: list[tuple[str, int, int]], truth: bool
) -> None:
    path = _dir() / "cells.json"
    path.write_bytes(mutate((TRUTH if truth else FACTS).read_bytes(), ops))
    _load_or_error(path, require_cells=truth)


@fuzz_settings()
@given(st.data(), JSON_VALUES)
def test_any_value_in_any_cell_field_is_typed_or_refused(data: st.DataObject, value: Any) -> None:
    doc = json.loads(FACTS.read_text(encoding="utf-8"))
    cell = data.draw(st.sampled_from(doc["cells"]))
    field = data.draw(st.sampled_from([*cell, "extra", "sheet", "cell_ref"]))
    cell[field] = value
    path = _dir() / "cells.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    _load_or_error(path)


@pytest.mark.slow
@fuzz_settings()
@given(JSON_VALUES)
def test_arbitrary_manifest_is_loaded_or_refused(doc: Any) -> None:
    path = _dir() / "manifest.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    try:
        pairs = load_manifest(path)
    except InputError as exc:
        assert_located(exc, path)
    else:
        assert pairs and len({p.name for p in pairs}) == len(pairs)


@fuzz_settings(60)
@given(MUTATIONS)
def test_cli_on_mutated_facts_never_crashes(ops: list[tuple[str, int, int]]) -> None:
    work = _dir()
    facts = work / "fixtures_facts.json"
    facts.write_bytes(mutate(FACTS.read_bytes(), ops))
    failed = _load_or_error(facts)
    result = run_cli(
        [
            "--suite",
            "extraction",
            "--facts",
            str(facts),
            "--ground-truth",
            str(TRUTH),
            "--no-baseline",
            "--report",
            str(work / "r.json"),
        ]
    )
    if failed is not None:
        assert_clean_error(result, facts)
        assert not (work / "r.json").exists()
    else:
        assert result.code in (0, 1), result.stderr  # 1: a mismatch, with no baseline
        report = json.loads((work / "r.json").read_text(encoding="utf-8"))
        assert report["extraction"]["channels"]

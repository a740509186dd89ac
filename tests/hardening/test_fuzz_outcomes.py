"""Outcomes JSONL under fuzzing, alone and through the CLI with its golden set."""

from __future__ import annotations

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
from strategies import JSON_VALUES, MUTATIONS, golden_cases, jsonl, outcome_for

from ragspine_action.errors import InputError
from ragspine_action.outcomes.load import load_outcomes


def _dir() -> Path:
    return Path(tempfile.mkdtemp(prefix="rs-fuzz-"))


def _load_or_error(path: Path) -> InputError | None:
    try:
        outcomes = load_outcomes(path)
    except InputError as exc:
        assert_located(exc, path)
        return exc
    for outcome in outcomes.values():
        outcome.model_dump_json()  # serialisable: no lone surrogate, no NaN
    return None


@fuzz_settings()
@given(MUTATIONS)
def test_mutated_outcomes_load_or_fail_located(ops: list[tuple[str, int, int]]) -> None:
    path = _dir() / "outcomes.jsonl"
    path.write_bytes(mutate(MINI_OUTCOMES.read_bytes(), ops))
    _load_or_error(path)


@pytest.mark.slow
@fuzz_settings()
@given(st.lists(JSON_VALUES, max_size=5))
def test_arbitrary_json_lines_load_or_fail_located(values: list[Any]) -> None:
    path = _dir() / "outcomes.jsonl"
    path.write_text("\n".join(json.dumps(v) for v in values), encoding="utf-8")
    _load_or_error(path)


def _report_cases(report: Path) -> dict[str, dict[str, Any]]:
    data = json.loads(report.read_text(encoding="utf-8"))
    return {c["id"]: c for c in data["qa"]["cases"]}


@fuzz_settings(60)
@given(MUTATIONS)
def test_cli_on_mutated_outcomes_accounts_for_every_case(ops: list[tuple[str, int, int]]) -> None:
    work = _dir()
    outcomes, report = work / "outcomes.jsonl", work / "report.json"
    outcomes.write_bytes(mutate(MINI_OUTCOMES.read_bytes(), ops))
    failed = _load_or_error(outcomes)
    result = run_cli(
        [
            "--system",
            "outcomes",
            "--golden",
            str(MINI_GOLDEN),
            "--outcomes",
            str(outcomes),
            "--no-baseline",
            "--mode",
            "fuzz",
            "--max-error-rate",
            "1",  # a truncated file leaves cases without outcomes: scored, not an outage
            "--report",
            str(report),
        ]
    )
    if failed is not None:
        assert_clean_error(result, outcomes)
        assert not report.exists()
        return
    assert result.code in (0, 1) and "Traceback" not in result.stderr  # 1: a failing case
    golden_ids = [json.loads(line)["id"] for line in MINI_GOLDEN.read_text().splitlines()]
    assert sorted(_report_cases(report)) == sorted(golden_ids)


@pytest.mark.slow
@fuzz_settings(60)
@given(golden_cases(), st.data())
def test_generated_runs_render_and_account_for_every_case(
    cases: list[dict[str, Any]], data: st.DataObject
) -> None:
    """Any well-formed outcomes (some missing, some erroring) give a full report and table."""
    work = _dir()
    golden, outcomes, report = work / "g.jsonl", work / "o.jsonl", work / "r.json"
    golden.write_text(jsonl(cases), encoding="utf-8")
    kept = [c for c in cases if data.draw(st.integers(0, 5), label="keep") > 0]
    rows = [data.draw(outcome_for(c)) for c in kept]
    fallback = '{"id": "not-a-case", "answer": "x"}\n'
    outcomes.write_text(jsonl(rows) if rows else fallback, encoding="utf-8")
    result = run_cli(
        [
            "--system",
            "outcomes",
            "--golden",
            str(golden),
            "--outcomes",
            str(outcomes),
            "--no-baseline",
            "--mode",
            "fuzz",
            "--max-error-rate",
            "1",  # missing and erroring outcomes are scored, not an outage
            "--report",
            str(report),
        ]
    )
    assert result.code in (0, 1), result.stderr  # 1: a failing case, with no baseline
    by_id = _report_cases(report)
    assert sorted(by_id) == sorted(c["id"] for c in cases)
    doc = json.loads(report.read_text(encoding="utf-8"))
    missing = {c["id"] for c in cases} - {c["id"] for c in kept}
    erroring = {r["id"] for r in rows if "error" in r}
    assert doc["qa"]["errors"]["count"] == len(missing | erroring)
    assert result.stdout.strip()

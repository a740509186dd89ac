"""Golden set JSONL under fuzzing: a valid set or located one-line problems, never a crash."""

from __future__ import annotations

import json
import random
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
from strategies import JSON_VALUES, MUTATIONS, golden_cases, jsonl

from ragspine_action.errors import InputError
from ragspine_action.golden.load import load_golden_set


def _write(data: bytes | str, name: str = "golden.jsonl") -> Path:
    path = Path(tempfile.mkdtemp(prefix="rs-fuzz-")) / name
    path.write_bytes(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    return path


def _load_or_error(path: Path) -> Any:
    try:
        golden = load_golden_set(path)
    except InputError as exc:
        assert_located(exc, path)
        return exc
    assert len(golden.cases) >= 1
    assert len({c.id for c in golden.cases}) == len(golden.cases)
    for case in golden.cases:  # every loaded case can be written back as UTF-8 JSON
        json.dumps(case.model_dump(mode="json"), ensure_ascii=False).encode("utf-8")
    return golden


@fuzz_settings()
@given(MUTATIONS)
def test_mutated_golden_file_loads_or_fails_located(ops: list[tuple[str, int, int]]) -> None:
    _load_or_error(_write(mutate(MINI_GOLDEN.read_bytes(), ops)))


@pytest.mark.slow
@fuzz_settings()
@given(st.lists(JSON_VALUES, min_size=0, max_size=5), st.sampled_from(["\n", "\r\n"]))
def test_arbitrary_json_lines_load_or_fail_located(values: list[Any], newline: str) -> None:
    text = newline.join(json.dumps(v) for v in values)
    _load_or_error(_write(text))


@pytest.mark.slow
@fuzz_settings()
@given(golden_cases(), st.randoms(use_true_random=False), st.booleans(), st.booleans())
def test_valid_sets_load_whatever_the_formatting(
    cases: list[dict[str, Any]], rnd: random.Random, bom: bool, crlf: bool
) -> None:
    """BOM, CRLF, blank lines and line order are formatting: same cases, same fingerprint."""
    first = load_golden_set(_write(jsonl(cases)))
    shuffled = list(cases)
    rnd.shuffle(shuffled)
    text = jsonl(shuffled).replace("\n", "\r\n\n" if crlf else "\n\n")
    second = load_golden_set(_write(("\ufeff" if bom else "") + text))
    assert [c.id for c in first.cases] == [c["id"] for c in cases]
    assert first.fingerprint == second.fingerprint


def _break(case: dict[str, Any], how: int) -> dict[str, Any]:
    broken = json.loads(json.dumps(case))
    exp = broken["expected"]
    match how:
        case 0:
            del broken["question"]
        case 1:
            broken["case_type"] = "numerik"
        case 2:
            broken["id"] = 7
        case 3:
            broken["question"] = "   "
        case 4:
            exp["value"] = "1702"
        case 5:
            broken["expected"] = {"refuse": "yes"}
        case 6:
            # unknown fields are ignored (RAGSpine's files carry notes); a wrong type is not
            broken["expected"] = {**exp, "narrative_doc": ["a.pdf"]}
        case 7:
            broken["tags"] = ["scope"]  # tag values may be any JSON value; tags not a list
        case 8:
            broken["reference_date"] = "2025-13-45"
        case _:
            broken["expected"] = {**exp, "relevant_docs": {"a.pdf": 0}}
    return broken


@pytest.mark.slow
@fuzz_settings()
@given(golden_cases(min_size=2), st.data())
def test_one_broken_record_is_never_a_pass(
    cases: list[dict[str, Any]], data: st.DataObject
) -> None:
    """Garbage in one line rejects the whole file, and the problem names that line."""
    index = data.draw(st.integers(0, len(cases) - 1))
    cases[index] = _break(cases[index], data.draw(st.integers(0, 9)))
    path = _write(jsonl(cases))
    try:
        load_golden_set(path)
    except InputError as exc:
        assert_located(exc, path)
        assert any(p.line == index + 1 for p in exc.problems), str(exc)
    else:
        raise AssertionError("a broken golden record was accepted")


@fuzz_settings(40)
@given(MUTATIONS)
def test_cli_on_a_mutated_golden_set_never_crashes(ops: list[tuple[str, int, int]]) -> None:
    path = _write(mutate(MINI_GOLDEN.read_bytes(), ops))
    loaded = _load_or_error(path)
    result = run_cli(
        [
            "--system",
            "outcomes",
            "--golden",
            str(path),
            "--outcomes",
            str(MINI_OUTCOMES),
            "--no-baseline",
            "--mode",
            "fuzz",
            # A mutated id leaves its outcome unmatched: an error, not a crash. This test is
            # about crashes, so the error budget must not turn that into exit 2.
            "--max-error-rate",
            "1",
        ]
    )
    if isinstance(loaded, InputError):
        assert_clean_error(result, path)
    else:
        assert result.code in (0, 1), result.stderr
        assert "Traceback" not in result.stderr

"""TREC qrels and run files under fuzzing, alone and through ``--qrels/--run``."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hardening_support import assert_clean_error, assert_located, fuzz_settings, mutate, run_cli
from hypothesis import example, given
from hypothesis import strategies as st
from strategies import MUTATIONS

from ragspine_action.errors import InputError
from ragspine_action.metrics.trec import load_qrels, load_run, trec_to_golden

QRELS = b"q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 1\nq2 0 d9 1\n# comment\nq3 0 d1 -1\n"
RUN = (
    b"q1 Q0 d3 1 9.5 sys\nq1 Q0 d1 2 9.5 sys\nq1 Q0 d7 3 1e-3 sys\n"
    b"q2 Q0 d9 1 -2 sys\nq4 Q0 d1 1 3 sys\n"
)
TOKENS = st.sampled_from(
    ["q1", "0", "Q0", "d1", "1", "-1", "1e309", "nan", "inf", "١", "²", "9" * 5000, "\u2028",
     "\x00", "\ufeff", "#", "q\u200b1", "x"]
)  # fmt: skip


def _write(data: bytes, name: str) -> Path:
    path = Path(tempfile.mkdtemp(prefix="rs-fuzz-")) / name
    path.write_bytes(data)
    return path


def _try(loader: object, path: Path) -> InputError | None:
    try:
        loader(path)  # type: ignore[operator]
    except InputError as exc:
        assert_located(exc, path)
        return exc
    return None


@fuzz_settings()
@given(MUTATIONS, st.booleans())
def test_mutated_trec_files_load_or_fail_located(
    ops: list[tuple[str, int, int]], qrels: bool
) -> None:
    path = _write(mutate(QRELS if qrels else RUN, ops), "file.txt")
    _try(load_qrels if qrels else load_run, path)


@fuzz_settings()
@given(st.lists(st.lists(TOKENS, max_size=7), max_size=6), st.booleans())
def test_token_soup_loads_or_fails_located(lines: list[list[str]], qrels: bool) -> None:
    text = "\n".join(" ".join(tokens) for tokens in lines)
    path = _write(text.encode("utf-8"), "file.txt")
    _try(load_qrels if qrels else load_run, path)


@fuzz_settings(60)
@given(MUTATIONS, st.booleans(), st.integers(min_value=-2, max_value=3))
@example(
    ops=[
        ("dup", 0, 20),
        ("dup", 0, 63),
        ("insert", 2773, 241),
        (
            "truncate",
            38,
            0,  # or any other generated value
        ),
    ],
    break_qrels=True,
    level=1,
).via("discovered failure")
def test_cli_on_mutated_trec_files_never_crashes(
    ops: list[tuple[str, int, int]], break_qrels: bool, level: int
) -> None:
    qrels = _write(mutate(QRELS, ops) if break_qrels else QRELS, "qrels.txt")
    run = _write(RUN if break_qrels else mutate(RUN, ops), "run.txt")
    bad = _try(load_qrels, qrels) or _try(load_run, run)
    result = run_cli(
        [
            "--qrels",
            str(qrels),
            "--run",
            str(run),
            "--relevance-level",
            str(level),
            "--no-baseline",
            "--mode",
            "trec",
        ]
    )
    assert "Traceback" not in result.stderr
    if bad is not None or level < 1:
        assert_clean_error(result, qrels, run)
        return
    try:
        trec_to_golden(load_qrels(qrels), load_run(run), relevance_level=level)
    except InputError:
        assert_clean_error(result, qrels, run)
    else:
        assert result.code in (0, 1, 2), result.stderr  # 1: a miss, with no baseline
        if result.code == 2:
            assert_clean_error(result, qrels, run)

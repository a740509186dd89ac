"""Fixtures shared across the test tree."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def bench_synth() -> ModuleType:
    """``bench/synth.py``: the benchmark's deterministic golden sets and outcomes."""
    spec = importlib.util.spec_from_file_location("bench_synth", ROOT / "bench" / "synth.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

"""Fixtures: real failing reports (built by report_support)."""

from __future__ import annotations

from pathlib import Path

import pytest
from report_support import failing_run


@pytest.fixture
def failing_report(tmp_path: Path) -> Path:
    return failing_run(tmp_path)

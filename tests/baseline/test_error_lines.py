"""A name from a user's baseline with a line break still gives a one-line error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragspine_action.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"


def test_lowering_refusal_with_a_multiline_metric_name_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline = tmp_path / "baseline.json"
    args = ["--system", "outcomes", "--golden", str(DATA / "mini_golden.jsonl")]
    args += ["--outcomes", str(DATA / "mini_outcomes.jsonl"), "--baseline", str(baseline)]
    assert main([*args, "--quiet"]) == 0
    doc = json.loads(baseline.read_text())
    doc["tool"]["metrics"]["evil\nmetric\u2028name"] = 1.0
    baseline.write_text(json.dumps(doc))
    before = baseline.read_bytes()
    capsys.readouterr()
    assert main([*args, "--update-baseline", "--quiet"]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and err[0].startswith("ragspine-eval: error: refusing to lower")
    assert "evil\\nmetric\\u2028name" in err[0]
    assert baseline.read_bytes() == before

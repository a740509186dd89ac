"""Names from a user's baseline or golden set with line breaks still give one-line messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragspine_action.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"


def _args(golden: Path, outcomes: Path, baseline: Path) -> list[str]:
    args = ["--system", "outcomes", "--mode", "tool", "--golden", str(golden)]
    args += ["--outcomes", str(outcomes)]
    return [*args, "--baseline", str(baseline), "--bootstrap-resamples", "0"]


def test_a_metric_not_measured_with_a_multiline_name_is_kept_and_warned_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline = tmp_path / "baseline.json"
    args = _args(DATA / "mini_golden.jsonl", DATA / "mini_outcomes.jsonl", baseline)
    assert main([*args, "--quiet"]) == 0
    doc = json.loads(baseline.read_text())
    doc["tool"]["metrics"]["evil\nmetric\u2028name"] = 1.0
    baseline.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(args) == 0  # not measured is no drop to 0
    out = capsys.readouterr().out
    warned = [line for line in out.splitlines() if "not measured" in line and "evil" in line]
    assert len(warned) == 2 and all("evil\\nmetric\\u2028name" in w for w in warned)
    assert main([*args, "--update-baseline", "--quiet"]) == 0
    kept = json.loads(baseline.read_text())["tool"]["metrics"]
    assert kept["evil\nmetric\u2028name"] == 1.0  # an update never drops what it did not measure


def test_a_refused_update_naming_a_multiline_case_id_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden = tmp_path / "golden.jsonl"
    outcomes = tmp_path / "outcomes.jsonl"
    baseline = tmp_path / "baseline.json"
    cases = [json.loads(line) for line in (DATA / "mini_golden.jsonl").read_text().splitlines()]
    good = [json.loads(line) for line in (DATA / "mini_outcomes.jsonl").read_text().splitlines()]
    evil = "n1\nFAKE LINE\u2028"
    rename = {cases[0]["id"]: evil}
    golden.write_text(
        "".join(json.dumps(dict(c, id=rename.get(c["id"], c["id"]))) + "\n" for c in cases)
    )
    renamed = [dict(o, id=rename.get(o["id"], o["id"])) for o in good]
    outcomes.write_text("".join(json.dumps(o) + "\n" for o in renamed))
    args = _args(golden, outcomes, baseline)
    assert main([*args, "--quiet"]) == 0
    before = baseline.read_bytes()
    worse = [
        dict(o, value=(o.get("value") or 0) + 1, answer="nothing") if o["id"] == evil else o
        for o in renamed
    ]
    outcomes.write_text("".join(json.dumps(o) + "\n" for o in worse))
    capsys.readouterr()
    assert main([*args, "--update-baseline", "--quiet"]) == 1
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and "refusing to lower" in err[0]
    assert "n1\\nFAKE LINE\\u2028" in err[0]
    assert baseline.read_bytes() == before

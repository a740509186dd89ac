"""ragspine-eval merge: 4 shards merged equal one unsharded run; mixed inputs are refused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ragspine_action.cli import main
from ragspine_action.paths import BUNDLED_BASELINE

ROOT = Path(__file__).resolve().parent.parent


def _comparable(path: Path) -> dict[str, Any]:
    """The report without what may differ between two runs: timing and the output path."""
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("generated_at")
    data["config"].pop("report")
    return data


def _run_sharded(tmp_path: Path, args: list[str], n: int = 4) -> list[str]:
    parts = []
    for i in range(1, n + 1):
        part = tmp_path / f"part{i}.json"
        assert main([*args, "--shard", f"{i}/{n}", "--report", str(part), "--quiet"]) in (0, 1)
        parts.append(str(part))
    return parts


def test_bundled_run_merged_from_four_shards_equals_the_unsharded_run(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    shutil.copy(BUNDLED_BASELINE, baseline)
    out = tmp_path / "out.json"
    whole_code = main(["--baseline", str(baseline), "--report", str(out), "--quiet"])
    whole = _comparable(out)
    parts = _run_sharded(tmp_path, ["--baseline", str(baseline)])
    merged_code = main(["merge", *parts, "--baseline", str(baseline), "--report", str(out)])
    assert merged_code == whole_code
    merged = _comparable(out)
    assert merged == whole
    assert merged["qa"]["shard"] is None
    assert merged["baseline"]["status"] in ("pass", "regression")
    assert merged["baseline"]["intervals"], "intervals recomputed from the merged cases"


@pytest.fixture()
def synthetic(tmp_path: Path, bench_synth: ModuleType) -> tuple[Path, Path, Path]:
    """400 cases of every type with errors, missing outcomes, fabrication and an unknown id;
    a baseline recorded from better outcomes, so the merged verdict is a regression."""
    golden, outcomes = bench_synth.write_qa(tmp_path / "data", 400, seed=7)
    lines = outcomes.read_text(encoding="utf-8").splitlines()
    baseline = tmp_path / "baseline.json"
    args = ["--system", "outcomes", "--mode", "synth", "--golden", str(golden)]
    args += ["--max-error-rate", "1"]  # errors within budget: scored, compared, recorded
    assert main([*args, "--outcomes", str(outcomes), "--baseline", str(baseline), "--quiet"]) == 0
    worse = tmp_path / "worse.jsonl"
    changed = []
    for number, line in enumerate(lines):
        record = json.loads(line)
        if number % 9 == 0:
            record = {"id": record["id"], "error": "HTTP 503"}
        changed.append(json.dumps(record, ensure_ascii=False))
    changed.append(json.dumps({"id": "not-in-golden", "answer": "x"}))
    worse.write_text("\n".join(changed) + "\n", encoding="utf-8")
    return golden, worse, baseline


def test_synthetic_regression_merged_equals_unsharded(
    tmp_path: Path, synthetic: tuple[Path, Path, Path]
) -> None:
    golden, outcomes, baseline = synthetic
    args = ["--system", "outcomes", "--mode", "synth", "--golden", str(golden)]
    args += ["--outcomes", str(outcomes), "--baseline", str(baseline), "--max-error-rate", "1"]
    out = tmp_path / "out.json"
    assert main([*args, "--report", str(out), "--quiet"]) == 1
    whole = _comparable(out)
    parts = _run_sharded(tmp_path, args)
    for part in parts:
        partial = json.loads(Path(part).read_text(encoding="utf-8"))
        assert partial["baseline"]["status"] == "none", "a shard never gates"
        assert partial["qa"]["unknown_outcome_ids"] == ["not-in-golden"]
    code = main(["merge", str(tmp_path / "part*.json"), "--baseline", str(baseline)])
    assert code == 1
    assert main(["merge", *parts, "--baseline", str(baseline), "--report", str(out)]) == 1
    merged = _comparable(out)
    assert merged == whole
    assert merged["qa"]["errors"]["count"] > 40
    assert merged["baseline"]["regressions"] and merged["baseline"]["broken"]
    assert merged["warnings"] == whole["warnings"] and merged["warnings"]
    assert sum(json.loads(Path(p).read_text())["qa"]["n_cases"] for p in parts) == 400


@pytest.mark.slow
def test_the_split_is_the_same_on_every_run(tmp_path: Path) -> None:
    first = _run_sharded(tmp_path / "a", [], n=3)
    second = _run_sharded(tmp_path / "b", [], n=3)
    for one, two in zip(first, second, strict=True):
        ids_one = [c["id"] for c in json.loads(Path(one).read_text())["qa"]["cases"]]
        ids_two = [c["id"] for c in json.loads(Path(two).read_text())["qa"]["cases"]]
        assert ids_one == ids_two and ids_one


def _refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["merge", *args]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def test_missing_and_duplicate_shards_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parts = _run_sharded(tmp_path, [], n=3)
    capsys.readouterr()
    assert "missing shard(s) 2 of 3" in _refused([parts[0], parts[2]], capsys)
    err = _refused([parts[0], parts[1], parts[1], parts[2]], capsys)
    assert "duplicate shard 2/3" in err


def test_shards_of_another_golden_set_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], synthetic: tuple[Path, Path, Path]
) -> None:
    golden, outcomes, _ = synthetic
    ours = _run_sharded(
        tmp_path / "ours",
        [
            "--system",
            "outcomes",
            "--golden",
            str(golden),
            "--outcomes",
            str(outcomes),
            "--mode",
            "synth",
            "--max-error-rate",
            "1",
        ],
        n=2,
    )
    other_golden = tmp_path / "other.jsonl"
    lines = golden.read_text(encoding="utf-8").splitlines()
    other_golden.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    theirs = _run_sharded(
        tmp_path / "theirs",
        [
            "--system",
            "outcomes",
            "--golden",
            str(other_golden),
            "--outcomes",
            str(outcomes),
            "--mode",
            "synth",
            "--max-error-rate",
            "1",
        ],
        n=2,
    )
    capsys.readouterr()
    assert "another golden set" in _refused([ours[0], theirs[1]], capsys)


def test_shards_run_with_other_settings_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = _run_sharded(tmp_path / "a", [], n=2)
    second = _run_sharded(tmp_path / "b", ["--k", "1,5"], n=2)
    capsys.readouterr()
    err = _refused([first[0], second[1]], capsys)
    assert "settings differ" in err and "ks" in err


def test_a_whole_report_or_garbage_is_not_a_partial_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = tmp_path / "whole.json"
    assert main(["--report", str(whole), "--quiet"]) == 0
    capsys.readouterr()
    assert "not a partial report" in _refused([str(whole)], capsys)
    junk = tmp_path / "junk.json"
    junk.write_text('{"verdict": 3}', encoding="utf-8")
    assert "not a ragspine-eval report" in _refused([str(junk)], capsys)
    assert "no partial report matches" in _refused([str(tmp_path / "none-*.json")], capsys)


def test_a_bad_case_row_in_a_shard_is_named_by_file_and_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parts = _run_sharded(tmp_path, [], n=2)
    capsys.readouterr()
    data = json.loads(Path(parts[1]).read_text(encoding="utf-8"))
    data["qa"]["cases"][3]["passed"] = "perhaps"
    Path(parts[1]).write_text(json.dumps(data), encoding="utf-8")
    err = _refused(parts, capsys)
    assert parts[1] in err and "qa.cases.3.passed" in err
    data["qa"]["cases"][3]["passed"] = True
    data["qa"]["cases"][5]["retrieval"] = {"map": 0.5}  # not one of the run's metrics
    Path(parts[1]).write_text(json.dumps(data), encoding="utf-8")
    err = _refused(parts, capsys)
    assert parts[1] in err and "qa.cases.5.retrieval" in err


def test_merged_shards_hold_their_cases_as_columns(tmp_path: Path) -> None:
    from ragspine_action.merge import load_partial_report
    from ragspine_action.report.cases import CaseTable

    parts = _run_sharded(tmp_path, [], n=2)
    report = load_partial_report(parts[0])
    assert report.qa is not None and isinstance(report.qa.cases, CaseTable)
    raw = json.loads(Path(parts[0]).read_text(encoding="utf-8"))["qa"]["cases"]
    assert report.qa.cases.to_dicts() == raw

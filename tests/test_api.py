"""The documented Python API reproduces the CLI's numbers, on the same code path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ragspine_action
from ragspine_action import (
    compare_to_baseline,
    detect_fabricated_numbers,
    evaluate,
    load_golden_set,
    make_baseline_entry,
    run_qa_eval,
)
from ragspine_action.cli import main
from ragspine_action.errors import StaleBaselineError
from ragspine_action.extraction import compare_to_baseline as compare_extraction
from ragspine_action.extraction import make_baseline_entry as extraction_entry
from ragspine_action.extraction import run_eval
from ragspine_action.outcomes.model import Outcome

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"


def _outcomes() -> list[Outcome]:
    lines = (DATA / "mini_outcomes.jsonl").read_text().splitlines()
    return [Outcome.model_validate(json.loads(line)) for line in lines]


def test_run_qa_eval_reproduces_the_cli_report(tmp_path: Path) -> None:
    report_path = tmp_path / "r.json"
    assert main(["--report", str(report_path), "--quiet", "--no-baseline"]) == 0
    cli = json.loads(report_path.read_text())["qa"]
    api = run_qa_eval(ROOT / "data" / "golden" / "qa_golden_set.jsonl", mode="tool")
    assert {k: (m.passed, m.total) for k, m in api.metrics.items()} == {
        k: (m["passed"], m["total"]) for k, m in cli["metrics"].items()
    }
    assert api.retrieval is not None
    assert api.retrieval.overall == cli["retrieval"]["overall"]
    assert api.fabrication_count == cli["fabrication_count"]


def test_evaluate_equals_the_outcomes_system(tmp_path: Path) -> None:
    report_path = tmp_path / "r.json"
    args = ["--system", "outcomes", "--golden", str(DATA / "mini_golden.jsonl")]
    args += ["--outcomes", str(DATA / "mini_outcomes.jsonl"), "--report", str(report_path)]
    assert main([*args, "--quiet"]) == 0
    cli = json.loads(report_path.read_text())["qa"]
    api = evaluate(load_golden_set(DATA / "mini_golden.jsonl"), _outcomes(), mode="tool")
    assert {k: m.pass_rate for k, m in api.metrics.items()} == {
        k: m["pass_rate"] for k, m in cli["metrics"].items()
    }


def test_baseline_round_trip_regression_and_staleness() -> None:
    cases = load_golden_set(DATA / "mini_golden.jsonl")
    good = evaluate(cases, _outcomes())
    entry = make_baseline_entry(good)
    assert entry["metrics"]["numeric_accuracy"] == 1.0 and entry["fingerprint"].startswith(
        "sha256:"
    )
    assert compare_to_baseline(good, entry).passed

    broken = [o.model_copy(update={"unit": "USD_B"}) if o.id == "n1" else o for o in _outcomes()]
    comparison = compare_to_baseline(evaluate(cases, broken), entry)
    assert comparison.failed and not comparison.passed
    assert [r["metric"] for r in comparison.regressions] == ["numeric_accuracy"]
    assert comparison.comparison is not None
    assert [c.id for c in comparison.comparison.broken] == ["n1"]

    fewer = evaluate(cases[1:], _outcomes())
    with pytest.raises(StaleBaselineError):
        compare_to_baseline(fewer, entry)


def test_missing_outcome_is_an_error_not_a_skip() -> None:
    cases = load_golden_set(DATA / "mini_golden.jsonl")
    report = evaluate(cases, _outcomes()[1:])
    assert report.errors.count == 1 and report.errors.cases[0].id == "n1"


def test_detect_fabricated_numbers() -> None:
    assert detect_fabricated_numbers("FY2024 and 2025H1 revenue was 1,200") == ["1,200"]
    assert detect_fabricated_numbers("数据在2030年不可用") == []


def test_extraction_api() -> None:
    truth = [{"sheet": "S", "cell_ref": "A1", "value": 1, "tags": ["t"], "merge_span": None}]
    facts = [{"sheet": "S", "cell_ref": "A1", "value": 2, "tags": ["t"], "merge_span": None}]
    report = run_eval(truth, truth)
    assert report.channels["cell_value"].accuracy == 1.0
    entry = extraction_entry(report)
    worse = run_eval(facts, truth)
    assert worse.channels["cell_value"].accuracy == 0.0
    comparison = compare_extraction(worse, entry)
    assert comparison.failed
    assert {r["metric"] for r in comparison.regressions} == {
        "fixture/cell_value",
        "total/cell_value",
    }


def test_every_exported_name_is_documented_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    for name in ragspine_action.__all__:
        if not name.startswith("_") and name != "extraction":
            assert f"`{name}`" in readme, f"{name} is exported but not documented"

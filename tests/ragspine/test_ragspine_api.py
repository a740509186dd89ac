"""A RAGSpine user's Python calls, unchanged, give the CLI's numbers in RAGSpine's shapes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from ragspine_action import (
    CaseOutcome,
    GateMetric,
    QAEvalReport,
    compare_to_baseline,
    evaluate,
    load_golden_set,
    make_baseline_entry,
    make_entailment_judge,
    run_qa_eval,
)
from ragspine_action.cli import main

DATA = Path(__file__).resolve().parents[1] / "data" / "ragspine"
TEXTS = {
    p.name.removesuffix(".txt"): p.read_text(encoding="utf-8")
    for p in (DATA / "reference_texts").iterdir()
}


def _case_outcomes(name: str) -> dict[str, CaseOutcome]:
    """What RAGSpine's runner returns: ``{case_id: CaseOutcome}``."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    outcomes = [CaseOutcome(**json.loads(line)) for line in lines]
    return {o.case_id: o for o in outcomes}


def test_evaluate_with_ragspines_signature_equals_the_cli(tmp_path: Path) -> None:
    cases = load_golden_set(DATA / "qa_golden_set.jsonl")
    report = evaluate(cases, _case_outcomes("outcomes_flawed.jsonl"), "tool", reference_texts=TEXTS)
    assert isinstance(report, QAEvalReport)
    path = tmp_path / "r.json"
    argv = ["--system", "outcomes", "--mode", "tool", "--no-baseline", "--quiet"]
    argv += ["--golden", str(DATA / "qa_golden_set.jsonl")]
    argv += ["--outcomes", str(DATA / "outcomes_flawed.jsonl"), "--report", str(path)]
    argv += ["--reference-texts", str(DATA / "reference_texts")]
    main(argv)
    cli = json.loads(path.read_text(encoding="utf-8"))["qa"]
    assert {n: (m.passed, m.total) for n, m in report.metrics.items()} == {
        n: (m["passed"], m["total"]) for n, m in cli["metrics"].items()
    }
    assert report.fabrication_count == cli["fabrication_count"] == 1


def test_the_report_has_ragspines_shapes() -> None:
    cases = load_golden_set(DATA / "qa_golden_set.jsonl")
    report = evaluate(cases, _case_outcomes("outcomes_flawed.jsonl"), "tool", reference_texts=TEXTS)
    numeric = report.metrics["numeric_accuracy"]
    assert isinstance(numeric, GateMetric) and numeric.name == "numeric_accuracy"
    assert (numeric.total, numeric.passed, numeric.pass_rate) == (5, 4, 0.8)
    assert [f["id"] for f in numeric.failures] == ["num-003"]
    assert numeric.by_tag["qtype"]["numeric_trap"] == {"total": 1, "passed": 0}
    assert numeric.by_tag["priority"]["1"] == {"total": 1, "passed": 1}  # tag value 1
    # fabrication is a GateMetric beside the gates: 3 refusal cases, ref-002 made up 1800
    fab = report.fabrication
    assert (fab.name, fab.total, fab.passed) == ("fabrication", 3, 2)
    assert fab.failures == [
        {"id": "ref-002", "expected": "no number but period tokens", "actual": ["1800"]}
    ]
    assert report.fabrication_count == 1
    as_dict = report.to_dict()
    assert set(as_dict) >= {"mode", "n_cases", "metrics", "fabrication", "fabrication_count"}
    assert as_dict["metrics"]["numeric_accuracy"]["pass_rate"] == 0.8  # type: ignore[index]
    assert report.n_cases == 12 and report.mode == "tool"


def test_ragspines_baseline_entry_is_compared_as_ragspine_compares_it() -> None:
    cases = load_golden_set(DATA / "qa_golden_set.jsonl")
    baseline = json.loads((DATA / "qa_baseline.json").read_text(encoding="utf-8"))
    good = evaluate(cases, _case_outcomes("outcomes_tool.jsonl"), "tool", reference_texts=TEXTS)
    bad = evaluate(cases, _case_outcomes("outcomes_flawed.jsonl"), "tool", reference_texts=TEXTS)
    verdict = compare_to_baseline(bad, baseline["tool"])
    assert not verdict.passed
    metrics = {r["metric"] for r in verdict.regressions}
    assert {"numeric_accuracy", "citation_validity", "fabrication"} <= metrics
    row = next(r for r in verdict.regressions if r["metric"] == "numeric_accuracy")
    assert row == {
        "metric": "numeric_accuracy",
        "baseline": 1.0,
        "current": 0.8,
        "delta": -0.19999999999999996,
    }
    entry = make_baseline_entry(good)
    assert {"metrics", "fabrication_count", "n_cases"} <= set(entry)
    assert entry["n_cases"] == 12 and entry["fabrication_count"] == 0
    assert compare_to_baseline(good, entry).passed


def test_a_case_outcome_with_a_wrong_type_is_a_located_error() -> None:
    with pytest.raises(ValidationError, match=r"value"):
        CaseOutcome(case_id="x", found_value="1702").to_outcome()  # type: ignore[arg-type]


def test_make_entailment_judge_is_the_judge_seam() -> None:
    judge = make_entailment_judge("lexical", threshold=0.6)
    context = "香港 REVENUE 下降主要因为高端客群收缩与银保渠道调整。"
    assert judge.entails("香港 REVENUE 下降", context)
    assert not judge.entails("澳门利润大幅上升三倍", context)
    with pytest.raises(NotImplementedError):
        make_entailment_judge("nli")
    with pytest.raises(ValueError, match="unknown entailment judge"):
        make_entailment_judge("oracle")


def test_run_qa_eval_keeps_its_signature() -> None:
    report = run_qa_eval(None, "tool", None)
    assert report.mode == "tool" and report.n_cases == 74
    assert set(report.metrics) >= {"numeric_accuracy", "faithfulness", "answer_accuracy"}
    assert all(m.pass_rate == 1.0 for m in report.metrics.values())
    assert report.fabrication.total == report.section.fabrication.checked  # type: ignore[union-attr]


def test_bad_cases_or_outcomes_in_python_are_located_input_errors() -> None:
    from ragspine_action.errors import InputError

    cases = load_golden_set(DATA / "qa_golden_set.jsonl")
    with pytest.raises(InputError) as exc:
        evaluate(
            cases, [{"case_id": "num-001", "found_value": "1702"}, {"id": "x", "refused": "no"}]
        )
    assert [(p.path, p.line, p.field) for p in exc.value.problems] == [
        ("<outcomes>", 1, "value"),
        ("<outcomes>", 2, "refused"),
    ]
    with pytest.raises(InputError) as exc:
        evaluate([{"id": "a", "question": "q", "case_type": "numerik"}], [])
    assert [(p.line, p.field) for p in exc.value.problems] == [(1, "case_type")]

"""A gate that applied to no case is "n/a (0 cases)" in every table, never a 1.0 pass."""

from __future__ import annotations

import json
from pathlib import Path

from ragspine_action.cli import main
from ragspine_action.report.model import Report
from ragspine_action.report.render_markdown import render_markdown
from ragspine_action.report.render_terminal import render_terminal

GOLDEN = [
    {
        "id": "n1",
        "question": "What was ACME HK revenue in FY2025?",
        "case_type": "numeric",
        "expected": {
            "value": 1702.0,
            "unit": "USD_M",
            "source": {"doc": "Results.pptx", "locator": "slide=5"},
        },
    },
    {
        "id": "r1",
        "question": "Revenue in FY2031?",
        "case_type": "refusal",
        "expected": {"refuse": True},
    },
]
OUTCOMES = [
    {
        "id": "n1",
        "answer": "1,702 USD_M (Results.pptx)",
        "value": 1702.0,
        "unit": "USD_M",
        "source": {"doc": "Results.pptx", "locator": "slide=5"},
        "sources": [{"doc": "Results.pptx", "locator": "slide=5"}],
    },
    {"id": "r1", "answer": "No data for FY2031.", "refused": True},
]


def _report(tmp_path: Path) -> Report:
    golden, outcomes = tmp_path / "g.jsonl", tmp_path / "o.jsonl"
    golden.write_text("".join(json.dumps(c) + "\n" for c in GOLDEN))
    outcomes.write_text("".join(json.dumps(o) + "\n" for o in OUTCOMES))
    path = tmp_path / "r.json"
    args = ["--system", "outcomes", "--golden", str(golden), "--outcomes", str(outcomes)]
    assert main([*args, "--no-baseline", "--report", str(path), "--quiet"]) == 0
    return Report.model_validate_json(path.read_text())


def test_json_keeps_pass_rate_one_and_says_not_applicable(tmp_path: Path) -> None:
    metrics = _report(tmp_path).model_dump()["qa"]["metrics"]
    for gate in ("faithfulness", "answer_accuracy"):
        assert metrics[gate]["total"] == 0
        assert metrics[gate]["pass_rate"] == 1.0
        assert metrics[gate]["applicable"] is False
    assert metrics["numeric_accuracy"]["applicable"] is True


def test_tables_show_na_instead_of_a_pass_rate(tmp_path: Path) -> None:
    report = _report(tmp_path)
    for text in (render_terminal(report), render_markdown(report)):
        for gate in ("faithfulness", "answer_accuracy"):
            line = next(row for row in text.splitlines() if gate in row)
            assert "n/a (0 cases)" in line
            assert "100.0%" not in line
        numeric = next(row for row in text.splitlines() if "numeric_accuracy" in row)
        assert "100.0%" in numeric and "n/a" not in numeric

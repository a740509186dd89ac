"""Every broken case shows its question in every view, whatever broke it.

A case that breaks only on retrieval (a retrieval case, or an answered case whose
relevant document fell out of the protected top k) fails no answer gate, so no gate
failure carries its question: the report's ``retrieval.misses`` must. Checked on the
parallel outcomes-file path, the sequential path and a merge of shards, through the
markdown, terminal, HTML and JUnit renderers working from the report file alone.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragspine_action.cli import main as cli_main
from ragspine_action.render import render_report
from ragspine_action.report.read import read_report

QUESTIONS = {
    "where-reg-update": "Where is the HK regulatory update?",
    "policy_doc": "Which document holds the travel policy?",
    "hk-revenue": "What was ACME HK revenue in FY2025?",
}


def _golden() -> list[dict[str, Any]]:
    return [
        {
            "id": "where-reg-update",
            "question": QUESTIONS["where-reg-update"],
            "case_type": "retrieval",
            "expected": {"relevant_docs": {"REG_WATCH_HK.pptx": 2}},
        },
        {
            "id": "policy_doc",
            "question": QUESTIONS["policy_doc"],
            "case_type": "retrieval",
            "expected": {"relevant_docs": ["travel.md"]},
        },
        {  # an answered case: its answer stays right, its document falls out of the top 3
            "id": "hk-revenue",
            "question": QUESTIONS["hk-revenue"],
            "case_type": "numeric",
            "expected": {
                "value": 1702.0,
                "unit": "USD_M",
                "source": {"doc": "ACME.pptx", "locator": "slide=5"},
            },
            "relevant_docs": ["ACME.pptx"],
        },
    ]


def _outcomes(good: bool) -> list[dict[str, Any]]:
    def ranked(doc: str) -> list[str]:
        return [doc, "x.md"] if good else ["a.md", "b.md", "c.md", doc]

    return [
        {"id": "where-reg-update", "sources": ranked("REG_WATCH_HK.pptx")},
        {"id": "policy_doc", "sources": [] if not good else ["travel.md"]},
        {
            "id": "hk-revenue",
            "answer": "HK revenue was 1,702 USD_M (ACME.pptx slide=5).",
            "value": 1702.0,
            "unit": "USD_M",
            "source": {"doc": "ACME.pptx", "locator": "slide=5"},
            "sources": ranked("ACME.pptx"),
        },
    ]


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def runs(tmp_path: Path) -> tuple[list[str], Path]:
    golden = _write(tmp_path / "golden.jsonl", _golden())
    good = _write(tmp_path / "good.jsonl", _outcomes(True))
    _write(tmp_path / "bad.jsonl", _outcomes(False))
    common = ["--system", "outcomes", "--mode", "m", "--golden", str(golden), "--quiet"]
    baseline = ["--baseline", str(tmp_path / "baseline.json")]
    assert cli_main([*common, *baseline, "--outcomes", str(good), "--update-baseline"]) == 0
    return [*common, "--outcomes", str(tmp_path / "bad.jsonl")], tmp_path


def _report(runs: tuple[list[str], Path], path: str) -> Path:
    args, tmp_path = runs
    baseline = ["--baseline", str(tmp_path / "baseline.json")]
    out = tmp_path / f"{path}.json"
    if path == "merged":
        parts = []
        for i in range(2):
            part = tmp_path / f"part{i}.json"
            assert cli_main([*args, "--shard", f"{i + 1}/2", "--report", str(part)]) in (0, 1)
            parts.append(str(part))
        assert cli_main(["merge", *parts, *baseline, "--report", str(out)]) == 1
        return out
    extra = ["--save-outcomes", str(tmp_path / "saved.jsonl")] if path == "sequential" else []
    assert cli_main([*args, *baseline, *extra, "--report", str(out)]) == 1
    return out


@pytest.mark.parametrize("path", ["parallel", "sequential", "merged"])
def test_a_case_broken_only_by_retrieval_shows_its_question_everywhere(
    runs: tuple[list[str], Path], path: str
) -> None:
    report_path = _report(runs, path)
    raw = json.loads(report_path.read_text(encoding="utf-8"))
    broken = {c["id"] for c in raw["baseline"]["broken"]}
    assert broken == set(QUESTIONS), raw["baseline"]["broken"]
    misses = {m["id"]: m.get("question") for m in raw["qa"]["retrieval"]["misses"]}
    assert misses == QUESTIONS
    report = read_report(str(report_path))  # the renderers work from the file alone
    for fmt in ("markdown", "terminal", "html", "junit"):
        text = render_report(report, fmt, show_failures=None)
        for case_id, question in QUESTIONS.items():
            assert question in text, (fmt, case_id)
    markdown = render_report(report, "markdown")
    for case_id, question in QUESTIONS.items():
        assert f"- `{case_id}` — {question}" in markdown
    terminal = render_report(report, "terminal").splitlines()
    for case_id, question in QUESTIONS.items():
        (line,) = [x for x in terminal if x.strip().startswith(case_id + " ")]
        assert line.rstrip().endswith(question), line


def test_a_report_without_questions_on_misses_still_renders(
    runs: tuple[list[str], Path],
) -> None:
    """Reports written before misses carried questions (or by hand) stay readable."""
    report_path = _report(runs, "parallel")
    raw = json.loads(report_path.read_text(encoding="utf-8"))
    for miss in raw["qa"]["retrieval"]["misses"]:
        miss.pop("question", None)
    report_path.write_text(json.dumps(raw), encoding="utf-8")
    text = render_report(read_report(str(report_path)), "markdown")
    assert "- `where-reg-update` _(retrieval stage)_" in text

"""Groundedness failures show the judge's evidence in every view, on one short line.

A faithfulness failure names the first unsupported claim, the judge's reason and the
closest context sentence; an answer_accuracy failure the reference sentence the answer
contradicts and the answer's closest sentence. The line is clipped (a 700-character
claim with a line break, HTML, backticks, pipes and a mention stays one short, inert line).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from ragspine_action.cli import main as cli_main
from ragspine_action.render import render_report
from ragspine_action.report.read import read_report
from ragspine_action.report.render_markdown import render_markdown
from ragspine_action.report.view import suite_views

CONTEXT = "Revenue rose 5% in Q4 thanks to Hong Kong sales."
LONG_CLAIM = (
    "Revenue rose 9% in Q4 thanks to Hong Kong sales "
    + "and many other things " * 30
    + "\nwith <script>x</script> `tick` | pipe @team."
)
REFERENCE = "Employees accrue 25 days of paid leave per year."
WRONG = "Employees accrue 20 days of paid leave per year (handbook.md)."


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def report_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("judged")
    golden = [
        {
            "id": "why_rev",
            "question": "Why did revenue rise?",
            "case_type": "narrative",
            "expected": {"narrative_doc": "QBR.pptx"},
        },
        {
            "id": "leave",
            "question": "How many days of leave?",
            "case_type": "narrative",
            "expected": {"narrative_doc": "handbook.md", "reference_answer": REFERENCE},
        },
    ]
    good = [
        {
            "id": "why_rev",
            "answer": CONTEXT[:-1] + " (QBR.pptx).",
            "sources": ["QBR.pptx"],
            "contexts": [CONTEXT],
        },
        {
            "id": "leave",
            "answer": REFERENCE[:-1] + " (handbook.md).",
            "sources": ["handbook.md"],
            "contexts": [REFERENCE],
        },
    ]
    bad = [
        {**good[0], "answer": LONG_CLAIM + " (QBR.pptx)"},
        {**good[1], "answer": WRONG, "contexts": [WRONG]},
    ]
    _write(tmp / "golden.jsonl", golden)
    common = ["--system", "outcomes", "--mode", "m", "--golden", str(tmp / "golden.jsonl")]
    common += ["--baseline", str(tmp / "baseline.json"), "--quiet"]
    good_path = _write(tmp / "good.jsonl", good)
    assert cli_main([*common, "--outcomes", str(good_path), "--update-baseline"]) == 0
    bad_path = _write(tmp / "bad.jsonl", bad)
    report = tmp / "report.json"
    assert cli_main([*common, "--outcomes", str(bad_path), "--report", str(report)]) == 1
    return report


def _evidence(report_path: Path) -> dict[str, str]:
    (view,) = suite_views(read_report(str(report_path)))
    return {
        f"{case.id}/{f.gate}": f.evidence
        for case in view.broken
        for f in case.failures
        if f.evidence is not None
    }


def test_the_evidence_names_the_claim_the_reason_and_the_closest_sentence(
    report_path: Path,
) -> None:
    evidence = _evidence(report_path)
    assert set(evidence) == {"why_rev/faithfulness", "leave/answer_accuracy"}
    faithful = evidence["why_rev/faithfulness"]
    assert faithful.startswith("unsupported: “Revenue rose 9% in Q4 thanks to Hong Kong sales")
    assert "words in the contexts" in faithful  # the judge's reason
    assert f"closest context: “{CONTEXT}”" in faithful
    assert "…”" in faithful and len(faithful) < 300  # the long claim is clipped
    assert "\n" not in faithful
    accuracy = evidence["leave/answer_accuracy"]
    assert accuracy.startswith(f"reference not matched: “{REFERENCE}”")
    assert "numbers not in the answer: 25" in accuracy
    assert f"closest in the answer: “{WRONG}”" in accuracy


def test_every_view_shows_the_evidence_line(report_path: Path) -> None:
    report = read_report(str(report_path))
    claim_start = "Revenue rose 9% in Q4 thanks to Hong Kong sales"
    terminal = render_report(report, "terminal")
    lines = terminal.splitlines()
    (at,) = [i for i, line in enumerate(lines) if line.strip().startswith("faithfulness:")]
    assert "got 2 of 2 claims unsupported" in lines[at]  # in words, not a JSON record
    assert lines[at + 1].strip().startswith(f"unsupported: “{claim_start}")
    assert CONTEXT in lines[at + 1]
    (at,) = [i for i, line in enumerate(lines) if line.strip().startswith("answer_accuracy:")]
    assert "expected recall ≥ 0.6 of the reference_answer, got recall 0.86" in lines[at]
    assert lines[at + 1].strip().startswith(f"reference not matched: “{REFERENCE}”")

    markdown = render_markdown(report)
    (line,) = [x for x in markdown.splitlines() if x.startswith("    - unsupported:")]
    assert claim_start in line and "&lt;script" not in line  # clipped before the HTML
    assert CONTEXT in line
    assert f"    - reference not matched: “{REFERENCE}”" in markdown

    html = render_report(report, "html")
    assert f"unsupported: “{claim_start}" in html and "<script>x" not in html
    assert "closest in the answer: “Employees accrue 20 days" in html

    junit = render_report(report, "junit")
    assert re.search(r"evidence: unsupported: “Revenue rose 9%", junit)
    assert "evidence: reference not matched: “Employees accrue 25 days" in junit


def test_an_inert_evidence_line_in_markdown(tmp_path: Path, report_path: Path) -> None:
    """Whatever the claim holds, its line is escaped prose: no HTML, no table break, no
    mention, no line break."""
    raw = json.loads(report_path.read_text(encoding="utf-8"))
    for case in raw["qa"]["cases"]:
        for evidence in (case.get("judge") or {}).values():
            for claim in evidence["claims"]:
                claim["claim"] = "<img src=x> | @octocat\n# heading `x`"
                claim["matched"] = "<b>bold</b>\r\n> quote"
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps(raw), encoding="utf-8")
    markdown = render_markdown(read_report(str(hostile)))
    evidence = [x for x in markdown.splitlines() if x.startswith("    - ")]
    assert len(evidence) == 2
    for line in evidence:
        assert "<" not in line and "@o" not in line and "\\|" in line
        assert "&lt;img src=x&gt;" in line or "&lt;b&gt;" in line


def test_a_report_without_evidence_shows_the_gate_line_alone(
    tmp_path: Path, report_path: Path
) -> None:
    raw = json.loads(report_path.read_text(encoding="utf-8"))
    for case in raw["qa"]["cases"]:
        case.pop("judge", None)
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(raw), encoding="utf-8")
    assert _evidence(bare) == {}
    terminal = render_report(read_report(str(bare)), "terminal")
    assert "faithfulness: expected every claim entailed" in terminal

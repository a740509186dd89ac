"""Real reports to render: a baseline recorded from good answers, then a failing run.

The ids are the ugly ones reviewers saw mangled (``my_rag``-style underscores, ``!``,
``<``, backticks, ``@``, surrounding spaces); the failing run breaks a numeric answer and a
clarification, fabricates a number in a refusal and ends one case in an error.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ragspine_action.cli import main as cli_main

DATA = Path(__file__).resolve().parents[1] / "data"
UGLY_IDS = ["headcount_2024", "p37_table1!A1", "a<b", "x`y``z", "@octocat", " spaced "]


def _rows(name: str) -> list[dict[str, Any]]:
    text = (DATA / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def _write(path: Path, rows: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def failing_run(tmp_path: Path, *, error_case: bool = True) -> Path:
    """The report of a run that fails against its baseline (see the module docstring)."""
    golden, good = _rows("mini_golden.jsonl"), _rows("mini_outcomes.jsonl")
    for case, outcome, case_id in zip(golden, good, UGLY_IDS, strict=True):
        case["id"] = outcome["id"] = case_id
    _write(tmp_path / "golden.jsonl", golden)
    _write(tmp_path / "good.jsonl", good)
    bad = [dict(o) for o in good]
    bad[0]["value"] = 1700.0
    bad[0]["answer"] = bad[0]["answer"].replace("1,702", "1,700")
    bad[2].update(clarification="none", answer="We made 9,999 last year.")
    bad[3]["answer"] = "ROE was 12.5% in FY2025."
    if error_case:
        bad[4]["error"] = "HTTP 503: upstream <timeout> @oncall"
    _write(tmp_path / "bad.jsonl", bad)
    common = [
        "--system",
        "outcomes",
        "--mode",
        "my_rag",
        "--golden",
        str(tmp_path / "golden.jsonl"),
    ]
    common += ["--baseline", str(tmp_path / "baseline.json"), "--quiet"]
    assert cli_main([*common, "--outcomes", str(tmp_path / "good.jsonl"), "--update-baseline"]) == 0
    report = tmp_path / "report.json"
    args = [*common, "--outcomes", str(tmp_path / "bad.jsonl"), "--report", str(report)]
    args += ["--max-error-rate", "0.5"]
    assert cli_main(args) == 1
    return report

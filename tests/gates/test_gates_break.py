"""Break the system under test the way each gate guards against; that gate turns red, exit 1."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ragspine_action.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"
GOLDEN = DATA / "mini_golden.jsonl"
GOOD = DATA / "mini_outcomes.jsonl"

Outcomes = dict[str, dict[str, Any]]


def _read_outcomes() -> Outcomes:
    rows = [json.loads(line) for line in GOOD.read_text(encoding="utf-8").splitlines() if line]
    return {row["id"]: row for row in rows}


def _run(tmp_path: Path, outcomes: Outcomes, baseline: Path) -> tuple[int, dict[str, Any]]:
    path = tmp_path / "outcomes.jsonl"
    path.write_text("".join(json.dumps(o) + "\n" for o in outcomes.values()), encoding="utf-8")
    report = tmp_path / "report.json"
    code = main(
        [
            "--system",
            "outcomes",
            "--mode",
            "tool",
            "--golden",
            str(GOLDEN),
            "--outcomes",
            str(path),
            "--baseline",
            str(baseline),
            "--report",
            str(report),
            "--quiet",
        ]
    )
    return code, json.loads(report.read_text(encoding="utf-8"))


def _wrong_unit(o: Outcomes) -> None:
    o["n1"]["unit"] = "USD_B"


def _wrong_source(o: Outcomes) -> None:
    o["n1"]["source"] = {
        "doc": "ACME_FY2025_Results.pptx",
        "locator": "slide=5,table=1,row=3,col=3",
    }


def _doc_not_named(o: Outcomes) -> None:
    o["n1"]["answer"] = "ACME HK revenue in FY2025 was 1,702 USD_M."


def _refusal_answered_with_number(o: Outcomes) -> None:
    o["r1"].update(
        refused=False, value=12.5, unit="PCT", answer="ACME China ROE was 12.5% in FY2025."
    )


def _answerable_refused(o: Outcomes) -> None:
    o["n2"].update(refused=True)


def _asks_back_on_complete_question(o: Outcomes) -> None:
    o["n1"]["clarification"] = "ask_first"


def _unsupported_sentence(o: Outcomes) -> None:
    o["t1"]["answer"] += " Management expects a dividend increase after the merger with Contoso."


def _leaves_out_reference(o: Outcomes) -> None:
    o["t1"]["answer"] = "The numbers changed. Source: HK_QBR_2025Q4.pptx"
    o["t1"]["contexts"] = ["The numbers changed."]


CASES: list[tuple[str, Callable[[Outcomes], None], set[str], int]] = [
    ("wrong unit", _wrong_unit, {"numeric_accuracy"}, 0),
    ("right value, wrong source", _wrong_source, {"citation_validity"}, 0),
    ("doc name missing from the answer", _doc_not_named, {"citation_validity"}, 0),
    (
        "refusal case answered with a number",
        _refusal_answered_with_number,
        {"refusal_appropriateness", "fabrication_count"},
        1,
    ),
    ("answerable case refused", _answerable_refused, {"refusal_appropriateness"}, 0),
    (
        "complete question asked back",
        _asks_back_on_complete_question,
        {"clarification_appropriateness"},
        0,
    ),
    ("unsupported sentence in a narrative answer", _unsupported_sentence, {"faithfulness"}, 0),
    ("narrative answer leaves out the reference", _leaves_out_reference, {"answer_accuracy"}, 0),
]


@pytest.mark.parametrize(
    ("what", "breaker", "red", "fabrication"), CASES, ids=[c[0] for c in CASES]
)
def test_breaking_the_system_turns_exactly_that_gate_red(
    tmp_path: Path,
    what: str,
    breaker: Callable[[Outcomes], None],
    red: set[str],
    fabrication: int,
) -> None:
    baseline = tmp_path / "baseline.json"
    code, report = _run(tmp_path, _read_outcomes(), baseline)
    assert code == 0 and report["baseline"]["status"] == "created"
    assert all(m["pass_rate"] == 1.0 for m in report["qa"]["metrics"].values())

    broken = _read_outcomes()
    breaker(broken)
    code, report = _run(tmp_path, broken, baseline)

    assert code == 1, what
    assert report["verdict"] == "fail"
    assert {r["metric"] for r in report["baseline"]["regressions"]} == red
    assert report["qa"]["fabrication_count"] == fabrication
    for gate in red - {"fabrication_count"}:
        metric = report["qa"]["metrics"][gate]
        assert metric["passed"] == metric["total"] - 1
        assert len(metric["failures"]) == 1
    assert report["baseline"]["broken"], "the broken case must be listed by id"

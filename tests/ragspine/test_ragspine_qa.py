"""RAGSpine's QA files load unchanged and score to the numbers a hand count gives.

The fixtures in ``tests/data/ragspine/`` were written here from RAGSpine's format
description (seed 001): a golden set with its ``topic/scope/qtype`` tags, extra keys and a
non-string tag value; its ``qa_baseline.json`` (mode → ``{metrics, fabrication_count,
n_cases}``); outcomes as its ``CaseOutcome`` dataclass dumps them (tool mode, its field
names) and in the SPEC's names with its agent answer template (agent mode); reference texts
for ``answer_accuracy``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from ragspine_action.cli import main

DATA = Path(__file__).resolve().parents[1] / "data" / "ragspine"
GOLDEN = DATA / "qa_golden_set.jsonl"
TEXTS = DATA / "reference_texts"
GATES = (
    "numeric_accuracy",
    "citation_validity",
    "refusal_appropriateness",
    "clarification_appropriateness",
    "answer_accuracy",
)


def _run(tmp_path: Path, outcomes: str, mode: str, *extra: str) -> tuple[int, dict[str, Any]]:
    baseline = tmp_path / "qa_baseline.json"
    shutil.copy(DATA / "qa_baseline.json", baseline)
    report = tmp_path / "report.json"
    argv = ["--system", "outcomes", "--golden", str(GOLDEN), "--outcomes", str(DATA / outcomes)]
    argv += ["--mode", mode, "--baseline", str(baseline), "--report", str(report), "--quiet"]
    argv += ["--bootstrap-resamples", "0", *extra]
    code = main(argv)
    return code, json.loads(report.read_text(encoding="utf-8"))


def _counts(report: dict[str, Any]) -> dict[str, tuple[int, int, list[str]]]:
    metrics = report["qa"]["metrics"]
    return {
        gate: (
            metrics[gate]["passed"],
            metrics[gate]["total"],
            sorted(f["id"] for f in metrics[gate]["failures"]),
        )
        for gate in GATES
    }


# Hand count over the 12 cases (numeric: num-001..003, clr-001, comp-001 carry a value;
# citation: those 5 by source + nar-001..003 by narrative_doc; refusal and clarification:
# all 12; answer_accuracy: nar-001 and nar-002 have a reference text, nar-003 has none and
# is not applicable; fabrication is checked on the 3 refusal cases).
ALL_PASS = {
    "numeric_accuracy": (5, 5, []),
    "citation_validity": (8, 8, []),
    "refusal_appropriateness": (12, 12, []),
    "clarification_appropriateness": (12, 12, []),
    "answer_accuracy": (2, 2, []),
}


@pytest.mark.parametrize(
    ("outcomes", "mode"), [("outcomes_tool.jsonl", "tool"), ("outcomes_agent.jsonl", "agent")]
)
def test_ragspine_outcomes_score_to_the_hand_count(
    tmp_path: Path, outcomes: str, mode: str
) -> None:
    _, report = _run(tmp_path, outcomes, mode, "--reference-texts", str(TEXTS))
    assert _counts(report) == ALL_PASS
    qa = report["qa"]
    assert qa["n_cases"] == 12
    assert qa["fabrication"]["checked"] == 3
    assert qa["fabrication_count"] == 0
    assert qa["errors"]["count"] == 0


def test_flawed_outcomes_fail_exactly_the_hand_counted_cases(tmp_path: Path) -> None:
    code, report = _run(tmp_path, "outcomes_flawed.jsonl", "tool", "--reference-texts", str(TEXTS))
    assert _counts(report) == {
        # num-003 says 8.18 USD_BN for 8180 USD_M
        "numeric_accuracy": (4, 5, ["num-003"]),
        # num-002 never names its doc in the answer; nar-002 cites CN_QBR, not HK_QBR
        "citation_validity": (6, 8, ["nar-002", "num-002"]),
        # oos-001 is refused (out_of_scope_entity) as the golden set expects
        "refusal_appropriateness": (12, 12, []),
        # clr-001 answered without flagging its assumption; oos-001 says out_of_scope_entity
        # where the golden set expects none (RAGSpine's golden sets cannot expect it)
        "clarification_appropriateness": (10, 12, ["clr-001", "oos-001"]),
        # nar-002's answer is about China: it recalls little of HK_QBR's text
        "answer_accuracy": (1, 2, ["nar-002"]),
    }
    # ref-002: "香港2030年…约为1800 USD_M" – 2030年 is a period, 1800 is made up
    assert report["qa"]["fabrication_count"] == 1
    assert report["qa"]["fabrication"]["cases"] == [
        {"id": "ref-002", "numbers": ["1800"], "question": "香港2030年REVENUE多少"}
    ]
    assert code == 1
    regressed = {r["metric"] for r in report["baseline"]["regressions"]}
    assert {"numeric_accuracy", "citation_validity", "fabrication_count"} <= regressed


@pytest.mark.parametrize(
    ("outcomes", "mode"), [("outcomes_tool.jsonl", "tool"), ("outcomes_agent.jsonl", "agent")]
)
def test_ragspine_baseline_passes_when_the_outcomes_match(
    tmp_path: Path, outcomes: str, mode: str
) -> None:
    code, report = _run(tmp_path, outcomes, mode, "--reference-texts", str(TEXTS))
    assert report["qa"]["metrics"]["faithfulness"]["pass_rate"] == 1.0
    assert (code, report["verdict"], report["baseline"]["status"]) == (0, "pass", "pass")


@pytest.mark.parametrize(
    ("outcomes", "mode"), [("outcomes_tool.jsonl", "tool"), ("outcomes_agent.jsonl", "agent")]
)
def test_ragspine_baseline_gates_every_gate_it_lists(
    tmp_path: Path, outcomes: str, mode: str
) -> None:
    """The RAGSpine baseline is read as it is: each listed gate compared, none invented."""
    _, report = _run(tmp_path, outcomes, mode, "--reference-texts", str(TEXTS))
    assert report["baseline"]["status"] in ("pass", "regression")
    regressed = {r["metric"] for r in report["baseline"]["regressions"]}
    assert regressed <= {"faithfulness"}  # issue 14 clears this one


def test_without_reference_texts_narrative_cases_are_not_applicable(tmp_path: Path) -> None:
    _, report = _run(tmp_path, "outcomes_tool.jsonl", "tool")
    gate = report["qa"]["metrics"]["answer_accuracy"]
    assert (gate["total"], gate["passed"]) == (0, 0)
    assert all("answer_accuracy" not in case.get("gates", {}) for case in report["qa"]["cases"])
    [warning] = [w for w in report["warnings"] if w.startswith("answer_accuracy")]
    assert "did not measure 3 narrative cases (nar-001, nar-002, nar-003)" in warning
    assert "--reference-texts" in warning


def test_a_narrative_doc_without_a_text_is_named_in_a_warning(tmp_path: Path) -> None:
    _, report = _run(tmp_path, "outcomes_tool.jsonl", "tool", "--reference-texts", str(TEXTS))
    [warning] = [w for w in report["warnings"] if w.startswith("answer_accuracy")]
    assert "1 narrative case (nar-003)" in warning
    # --reference-texts was given: the warning says it lacks the doc, not "give it"
    assert f"--reference-texts {TEXTS} holds no text" in warning and "give" not in warning


def test_reference_texts_from_a_json_object_score_the_same(tmp_path: Path) -> None:
    texts = {p.name.removesuffix(".txt"): p.read_text(encoding="utf-8") for p in TEXTS.iterdir()}
    as_json = tmp_path / "texts.json"
    as_json.write_text(json.dumps(texts, ensure_ascii=False), encoding="utf-8")
    _, from_dir = _run(tmp_path, "outcomes_flawed.jsonl", "tool", "--reference-texts", str(TEXTS))
    _, from_json = _run(
        tmp_path, "outcomes_flawed.jsonl", "tool", "--reference-texts", str(as_json)
    )
    assert _counts(from_json) == _counts(from_dir)
    assert from_json["qa"]["metrics"]["answer_accuracy"]["total"] == 2

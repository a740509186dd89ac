"""Break the engine on purpose: each break turns its gate red through the CLI.

A baseline is recorded from the intact engine in a temporary file; every broken run is
then compared against it and must exit 1 with the matching metric among the regressions.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from ragspine_action.cli import main
from ragspine_action.systems.reference import intent, kb, scope, tool_mode, tools
from ragspine_action.systems.reference.answers import Answer


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("baseline") / "qa_baseline.json"
    for mode in ("tool", "agent"):
        assert main(["--mode", mode, "--baseline", str(path), "--quiet"]) == 0
    recorded = json.loads(path.read_text(encoding="utf-8"))
    assert {"tool", "agent"} <= set(recorded)
    return path


def run_cli(baseline: Path, tmp_path: Path, mode: str = "tool") -> tuple[int, dict[str, Any]]:
    report = tmp_path / "report.json"
    code = main(["--mode", mode, "--baseline", str(baseline), "--report", str(report), "--quiet"])
    return code, json.loads(report.read_text(encoding="utf-8"))


def red(report: dict[str, Any]) -> dict[str, float]:
    return {k: v["pass_rate"] for k, v in report["qa"]["metrics"].items() if v["pass_rate"] < 1.0}


def regressed(report: dict[str, Any]) -> set[str]:
    return {r["metric"] for r in report["baseline"]["regressions"]}


def drop_unit_conversion(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(tools, "normalise_unit", lambda value, unit: (value, unit))


def ignore_period_type(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(intent, "_kind_of", lambda match: "FY")


def answer_instead_of_refusing(mp: pytest.MonkeyPatch) -> None:
    def guess(result: tools.MetricResult, lang: str) -> Answer:
        return Answer("大约是 1,000 USD_M。", value=1000.0, unit="USD_M")

    mp.setattr(tool_mode, "not_found_answer", guess)


def ask_back_complete_questions(mp: pytest.MonkeyPatch) -> None:
    real = scope.decide_scope

    def always_ask(parsed: intent.Intent, base: kb.KnowledgeBase) -> scope.ScopeDecision:
        decision = real(parsed, base)
        if decision.action == "query" and decision.clarification == "none":
            return scope.ScopeDecision("ask_first", "ask_first", reason="no_metric")
        return decision

    mp.setattr(tool_mode, "decide_scope", always_ask)


def cite_the_wrong_cell(mp: pytest.MonkeyPatch) -> None:
    real = kb.KnowledgeBase.lookup

    def shifted(self: kb.KnowledgeBase, *args: Any, **kwargs: Any) -> kb.Fact | None:
        fact = real(self, *args, **kwargs)
        return replace(fact, locator=fact.locator.replace("col=2", "col=3")) if fact else None

    mp.setattr(kb.KnowledgeBase, "lookup", shifted)


@pytest.mark.parametrize(
    ("breaker", "gate", "untouched"),
    [
        (drop_unit_conversion, "numeric_accuracy", "citation_validity"),
        (ignore_period_type, "numeric_accuracy", "clarification_appropriateness"),
        (answer_instead_of_refusing, "refusal_appropriateness", "numeric_accuracy"),
        (ask_back_complete_questions, "clarification_appropriateness", None),
        (cite_the_wrong_cell, "citation_validity", "numeric_accuracy"),
    ],
)
def test_each_break_turns_its_gate_red(
    breaker: Callable[[pytest.MonkeyPatch], None],
    gate: str,
    untouched: str | None,
    baseline: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    breaker(monkeypatch)
    code, report = run_cli(baseline, tmp_path)
    assert code == 1 and report["verdict"] == "fail"
    assert gate in red(report) and gate in regressed(report)
    assert untouched not in red(report)
    assert report["qa"]["metrics"][gate]["failures"]
    narrative = [c for c in report["qa"]["cases"] if c["case_type"] == "narrative"]
    assert narrative and all(c["passed"] for c in narrative)  # a break stays where it is


def test_unit_conversion_break_names_the_magnitude_trap(
    baseline: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drop_unit_conversion(monkeypatch)
    _, report = run_cli(baseline, tmp_path)
    failed = {f["id"] for f in report["qa"]["metrics"]["numeric_accuracy"]["failures"]}
    assert {"num-002", "num-006", "num-009", "num-018"} <= failed  # USD_BN and USD_K decks
    assert "num-003" not in failed  # 818 USD_M needs no conversion


def test_answering_refusals_is_counted_as_fabrication(
    baseline: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer_instead_of_refusing(monkeypatch)
    _, report = run_cli(baseline, tmp_path)
    failed = {f["id"] for f in report["qa"]["metrics"]["refusal_appropriateness"]["failures"]}
    assert {"ref-001", "ref-005", "ref-007", "ref-011"} <= failed
    assert report["qa"]["fabrication_count"] > 0


def test_agent_mode_shares_the_tools_and_breaks_too(
    baseline: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drop_unit_conversion(monkeypatch)
    code, report = run_cli(baseline, tmp_path, mode="agent")
    assert code == 1 and "numeric_accuracy" in regressed(report)


def test_the_intact_engine_passes_against_its_baseline(baseline: Path, tmp_path: Path) -> None:
    for mode in ("tool", "agent"):
        code, report = run_cli(baseline, tmp_path, mode)
        assert code == 0 and report["baseline"]["status"] == "pass" and red(report) == {}

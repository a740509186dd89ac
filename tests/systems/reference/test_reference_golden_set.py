"""The bundled golden set: its coverage, and both modes passing it, deterministically."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from ragspine_action.cli import main
from ragspine_action.golden import Expected, load_golden_set
from ragspine_action.paths import BUNDLED_GOLDEN
from ragspine_action.systems.reference import ReferenceSystem

GOLDEN = load_golden_set(str(BUNDLED_GOLDEN))


def test_golden_set_covers_every_case_type_tag_and_trap() -> None:
    assert len(GOLDEN) >= 60
    types = Counter(c.case_type for c in GOLDEN.cases)
    assert set(types) == {
        "numeric",
        "clarification",
        "refusal",
        "narrative",
        "composite",
        "retrieval",
    }
    assert min(types.values()) >= 5
    for case in GOLDEN.cases:
        assert {"topic", "scope", "qtype"} <= set(case.tags), case.id
    assert {c.tags["lang"] for c in GOLDEN.cases} == {"zh", "en", "mixed"}
    qtypes = {c.tags["qtype"] for c in GOLDEN.cases}
    assert {
        "magnitude_trap", "fy_vs_half", "channel_subtotal", "relative_period", "must_not_clarify",
        "assume_defaults", "ask_first", "missing_metric", "future_period", "unreported_period",
        "unknown_channel", "competitor", "unknown_metric", "paraphrase",
    } <= qtypes  # fmt: skip
    values = {c.expected.value for c in GOLDEN.cases}
    assert {818.0, 8180.0} <= values  # the magnitude pair
    assert {851.0, 1702.0} <= values  # the FY / half-year pair
    assert {318.0, 538.0, 1240.0} <= values  # a channel, its sub-total, the total
    assert len({c.reference_date for c in GOLDEN.cases}) > 1
    assert sum(1 for c in GOLDEN.cases if c.expected.reference_answer) >= 5


def _outcomes(mode: str, tmp: Path) -> dict[str, dict[str, Any]]:
    system = ReferenceSystem(mode, kb_dir=str(tmp))  # type: ignore[arg-type]
    collected = system.collect(GOLDEN.cases)
    return {cid: o.model_dump() for cid, o in collected.outcomes.items()}


def test_modes_agree_on_every_verdict_and_runs_are_deterministic(tmp_path: Path) -> None:
    """Agent mode reads the question with its own planner, so its texts and lower-ranked
    sources may differ from tool mode's; what each case is judged on may not."""
    tool_a = _outcomes("tool", tmp_path / "a")
    tool_b = _outcomes("tool", tmp_path / "b")
    agent_a = _outcomes("agent", tmp_path / "c")
    agent_b = _outcomes("agent", tmp_path / "d")
    assert tool_a == tool_b and agent_a == agent_b
    for cid, tool in tool_a.items():
        agent = agent_a[cid]
        for key in ("refused", "clarification", "value", "unit", "source"):
            assert tool[key] == agent[key], (cid, key, tool["answer"], agent["answer"])
        assert tool["sources"][:1] == agent["sources"][:1], cid  # the same passage cited
    assert not any(o["error"] for o in tool_a.values())
    assert all(o["latency_ms"] is None for o in tool_a.values())


def test_outcomes_do_not_depend_on_the_expectations(tmp_path: Path) -> None:
    """The engine reads the question and reference date only: blanking ``expected`` (and
    the case type and tags) changes nothing."""
    system = ReferenceSystem("tool", kb_dir=str(tmp_path))
    for case in GOLDEN.cases:
        blind = case.model_copy(
            update={"expected": Expected(relevant_docs=["?"]), "case_type": "retrieval", "tags": {}}
        )
        assert system.answer(blind) == system.answer(case), case.id


@pytest.mark.parametrize("mode", ["tool", "agent"])
def test_cli_passes_every_gate_on_the_bundled_set(
    mode: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reports = []
    for n in (1, 2):
        path = tmp_path / f"report{n}.json"
        args = ["--mode", mode, "--no-baseline", "--quiet", "--report", str(path)]
        args += ["--kb-dir", str(tmp_path / "kb")]
        assert main(args) == 0
        reports.append(json.loads(path.read_text(encoding="utf-8")))
    qa = reports[0]["qa"]
    assert qa["n_cases"] == len(GOLDEN)
    for gate, metric in qa["metrics"].items():
        assert metric["pass_rate"] == 1.0, (gate, metric["failures"])
        assert metric["total"] > 0
    assert qa["fabrication_count"] == 0 and qa["errors"]["count"] == 0
    assert qa["retrieval"]["overall"]["hit@1"] == 1.0
    assert "PASS" in capsys.readouterr().out
    for report in reports:  # two runs: identical apart from the timestamp (and report path)
        report.pop("generated_at")
        report["config"].pop("report")
    assert reports[0] == reports[1]

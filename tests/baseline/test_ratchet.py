"""The baseline ratchet, end to end through the CLI and directly on the pure functions.

Each CLI scenario records a baseline from one outcomes file, then changes the outcomes the
way a real regression would and checks the verdict, the exit code and the report.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragspine_action import cli
from ragspine_action.baseline.model import BaselineEntry, BaselineFile
from ragspine_action.baseline.ratchet import (
    SuiteValues,
    apply_update,
    check_stale,
    compare,
    entry_from_values,
)
from ragspine_action.errors import BaselineUpdateError, StaleBaselineError
from ragspine_action.golden import load_golden_set

DATA = Path(__file__).parent.parent / "data"
MINI_GOLDEN = DATA / "mini_golden.jsonl"
MINI_OUTCOMES = DATA / "mini_outcomes.jsonl"


def _outcomes() -> list[dict[str, Any]]:
    return [json.loads(line) for line in MINI_OUTCOMES.read_text().splitlines() if line]


def _wrong_value(outcomes: list[dict[str, Any]], case_id: str) -> list[dict[str, Any]]:
    """Same answer, wrong number: fails numeric_accuracy only."""
    return [dict(o, value=o["value"] + 1) if o["id"] == case_id else o for o in outcomes]


class Project:
    """A tmp project: a golden set, an outcomes file, a baseline and a report path."""

    def __init__(self, root: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.root = root
        self.capsys = capsys
        self.golden = root / "golden.jsonl"
        self.golden.write_text(MINI_GOLDEN.read_text())
        self.outcomes = root / "outcomes.jsonl"
        self.baseline = root / "qa_baseline.json"
        self.report_path = root / "report.json"
        self.out = ""

    def write_outcomes(self, outcomes: list[dict[str, Any]]) -> None:
        self.outcomes.write_text("".join(json.dumps(o) + "\n" for o in outcomes))

    def run(self, *extra: str, outcomes: list[dict[str, Any]] | None = None) -> int:
        self.write_outcomes(outcomes if outcomes is not None else _outcomes())
        self.report_path.unlink(missing_ok=True)
        argv = ["--system", "outcomes", "--mode", "tool", "--golden", str(self.golden)]
        argv += ["--outcomes", str(self.outcomes), "--baseline", str(self.baseline)]
        argv += ["--report", str(self.report_path), "--bootstrap-resamples", "200", *extra]
        code = cli.main(argv)
        captured = self.capsys.readouterr()
        self.out = captured.out + captured.err
        assert "Traceback" not in self.out
        return code

    def report(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.report_path.read_text())
        return data

    def stored(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.baseline.read_text())
        return data


@pytest.fixture
def project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Project:
    return Project(tmp_path, capsys)


def test_first_run_creates_the_entry_with_fingerprint_and_passed_ids(project: Project) -> None:
    assert not project.baseline.exists()
    assert project.run() == 0
    assert project.report()["baseline"]["status"] == "created"
    entry = project.stored()["tool"]
    assert entry["fingerprint"] == load_golden_set(project.golden).fingerprint
    assert entry["n_cases"] == 6
    assert entry["metrics"]["numeric_accuracy"] == 1.0
    assert entry["fabrication_count"] == 0
    assert _passed(entry, "numeric_accuracy") == ["n1", "n2"]
    assert _passed(entry, "citation_validity") == ["n1", "n2", "t1"]
    assert _passed(entry, "hit@3") == ["n1", "n2", "q1", "t1"]
    # schema 3: per-case facts aligned to the sorted ids; "-" where a gate does not apply
    assert entry["ids"] == sorted(entry["ids"]) and len(entry["ids"]) == 6
    assert entry["passed"]["numeric_accuracy"].count("-") == 6 - 2


def test_identical_rerun_passes_and_leaves_the_file_alone(project: Project) -> None:
    assert project.run() == 0
    before = project.baseline.read_bytes()
    assert project.run() == 0
    report = project.report()
    assert report["verdict"] == "pass"
    assert report["baseline"]["status"] == "pass"
    assert report["baseline"]["regressions"] == []
    assert project.baseline.read_bytes() == before


def test_exactly_equal_values_pass(project: Project) -> None:
    """A baseline recorded at 0.5 and a run at exactly 0.5 (different failing case kept)."""
    half = _wrong_value(_outcomes(), "n2")
    assert project.run(outcomes=half) == 0
    assert project.stored()["tool"]["metrics"]["numeric_accuracy"] == 0.5
    assert project.run(outcomes=half) == 0
    assert project.report()["baseline"]["status"] == "pass"


def test_lower_gate_value_is_a_regression_with_metric_baseline_current_delta(
    project: Project,
) -> None:
    assert project.run() == 0
    before = project.baseline.read_bytes()
    assert project.run(outcomes=_wrong_value(_outcomes(), "n1")) == 1
    report = project.report()
    assert report["verdict"] == "fail"
    assert report["baseline"]["status"] == "regression"
    rows = {r["metric"]: r for r in report["baseline"]["regressions"]}
    assert set(rows) == {"numeric_accuracy"}
    row = rows["numeric_accuracy"]
    assert (row["baseline"], row["current"], row["delta"]) == (1.0, 0.5, -0.5)
    assert "numeric_accuracy" in project.out
    assert project.baseline.read_bytes() == before  # a plain run never writes


def test_fabrication_rise_is_a_regression(project: Project) -> None:
    assert project.run() == 0
    fabricated = [
        dict(o, answer="ACME China ROE was 12.5% in FY2025, but I cannot confirm it.")
        if o["id"] == "r1"
        else o
        for o in _outcomes()
    ]
    assert project.run(outcomes=fabricated) == 1
    report = project.report()
    assert report["qa"]["fabrication_count"] == 1
    rows = {r["metric"]: r for r in report["baseline"]["regressions"]}
    assert rows["fabrication_count"]["baseline"] == 0
    assert rows["fabrication_count"]["current"] == 1
    assert rows["fabrication_count"]["delta"] == 1
    # The refusal itself still passes: only the fabrication count caught it.
    assert report["qa"]["metrics"]["refusal_appropriateness"]["pass_rate"] == 1.0


def test_protected_case_breaks_while_the_aggregate_is_unchanged(project: Project) -> None:
    assert project.run(outcomes=_wrong_value(_outcomes(), "n2")) == 0  # n1 passes, n2 fails
    # Now n1 breaks and n2 is fixed: numeric_accuracy stays 0.5.
    assert project.run(outcomes=_wrong_value(_outcomes(), "n1")) == 1
    base = project.report()["baseline"]
    assert base["status"] == "regression"
    assert base["regressions"] == []
    assert [(b["id"], b["metric"]) for b in base["broken"]] == [("n1", "numeric_accuracy")]
    assert [(f["id"], f["metric"]) for f in base["fixed"]] == [("n2", "numeric_accuracy")]
    assert "n1" in project.out


def test_protected_retrieval_case_breaks_on_hit_at_protected_k(project: Project) -> None:
    assert project.run() == 0
    # q1 loses every relevant doc from its top 3, t1 (narrative) keeps its doc.
    moved = [
        dict(o, sources=["A.pptx", "B.pptx", "C.pptx", "REG_WATCH_HK.pptx"])
        if o["id"] == "q1"
        else o
        for o in _outcomes()
    ]
    assert project.run(outcomes=moved) == 1
    broken = project.report()["baseline"]["broken"]
    assert {(b["id"], b["metric"]) for b in broken} == {("q1", "hit@3")}
    assert [(b["before"], b["after"]) for b in broken] == [(1, 4)]


def test_update_that_raises_values_writes_them(project: Project) -> None:
    assert project.run(outcomes=_wrong_value(_outcomes(), "n2")) == 0
    assert project.run("--update-baseline") == 0
    report = project.report()
    assert report["baseline"]["status"] == "updated"
    entry = project.stored()["tool"]
    assert entry["metrics"]["numeric_accuracy"] == 1.0
    assert _passed(entry, "numeric_accuracy") == ["n1", "n2"]
    assert "_history" not in project.stored()  # raising needs no reason


def test_update_that_would_lower_is_refused_and_the_file_is_unchanged(project: Project) -> None:
    assert project.run() == 0
    before = project.baseline.read_bytes()
    code = project.run("--update-baseline", outcomes=_wrong_value(_outcomes(), "n1"))
    assert code == 1  # a refused update is a regression: table printed, report written
    assert "refusing to lower" in project.out
    assert "numeric_accuracy" in project.out
    assert "--lower-baseline" in project.out
    assert "numeric_accuracy" in project.out.split("Update refused")[0]  # the table
    assert project.baseline.read_bytes() == before
    report = project.report()
    assert report["verdict"] == "fail" and report["exit_code"] == 1
    assert report["baseline"]["status"] == "regression"
    assert "refusing to lower" in report["baseline"]["update_refused"]


def test_update_that_only_breaks_a_protected_case_is_refused(project: Project) -> None:
    assert project.run(outcomes=_wrong_value(_outcomes(), "n2")) == 0
    before = project.baseline.read_bytes()
    code = project.run("--update-baseline", outcomes=_wrong_value(_outcomes(), "n1"))
    assert code == 1
    assert "case n1 no longer passes numeric_accuracy" in project.out
    assert project.baseline.read_bytes() == before


def test_lowering_with_a_reason_is_kept_in_history_and_shown(project: Project) -> None:
    assert project.run() == 0
    reason = "n1 source slide was withdrawn by finance (TICKET-42)"
    code = project.run(
        "--update-baseline", "--lower-baseline", reason, outcomes=_wrong_value(_outcomes(), "n1")
    )
    assert code == 0
    stored = project.stored()
    assert stored["tool"]["metrics"]["numeric_accuracy"] == 0.5
    history = stored["_history"]
    assert len(history) == 1
    assert history[0]["reason"] == reason
    assert history[0]["key"] == "tool"
    assert {"metric": "numeric_accuracy", "from": 1.0, "to": 0.5} in history[0]["changes"]
    lowered = project.report()["baseline"]["lowered"]
    assert lowered == [
        {"key": "tool", "metric": "numeric_accuracy", "from": 1.0, "to": 0.5, "reason": reason}
    ]
    # The next run gates against the lowered value.
    assert project.run(outcomes=_wrong_value(_outcomes(), "n1")) == 0


def test_changed_golden_set_makes_the_baseline_stale(project: Project) -> None:
    assert project.run() == 0
    before = project.baseline.read_bytes()
    project.golden.write_text(
        project.golden.read_text().replace("Group new sales FY2025?", "Group new sales, FY2025?")
    )
    assert project.run() == 2
    base = project.report()["baseline"]
    assert base["status"] == "stale"
    assert project.report()["verdict"] == "error"
    assert "stale" in project.out
    assert f"--golden {project.golden}" in project.out
    assert f"--baseline {project.baseline} --update-baseline" in project.out
    assert project.baseline.read_bytes() == before
    # Following the advice re-records it.
    assert project.run("--update-baseline") == 0
    assert project.stored()["tool"]["fingerprint"] == load_golden_set(project.golden).fingerprint
    assert project.run() == 0


def test_reordering_the_golden_set_is_not_stale(project: Project) -> None:
    assert project.run() == 0
    lines = project.golden.read_text().splitlines()
    project.golden.write_text("\n\n".join(reversed(lines)) + "\n")
    assert project.run() == 0


LEGACY_METRICS = {
    "numeric_accuracy": 1.0,
    "citation_validity": 1.0,
    "refusal_appropriateness": 1.0,
    "clarification_appropriateness": 1.0,
}


def _legacy(**metrics: float) -> dict[str, Any]:
    return {"metrics": dict(LEGACY_METRICS, **metrics), "fabrication_count": 0, "n_cases": 6}


def test_ragspine_legacy_baseline_loads_and_gates(project: Project) -> None:
    project.baseline.write_text(json.dumps({"tool": _legacy()}, indent=2))
    before = project.baseline.read_bytes()
    assert project.run() == 0
    assert project.report()["baseline"]["status"] == "pass"
    assert project.baseline.read_bytes() == before
    assert project.run(outcomes=_wrong_value(_outcomes(), "n1")) == 1
    rows = project.report()["baseline"]["regressions"]
    assert [(r["metric"], r["baseline"], r["current"]) for r in rows] == [
        ("numeric_accuracy", 1.0, 0.5)
    ]


def test_legacy_baseline_with_another_case_count_is_stale(project: Project) -> None:
    project.baseline.write_text(json.dumps({"tool": dict(_legacy(), n_cases=7)}))
    assert project.run() == 2
    assert "recorded for 7 cases" in project.out


def test_update_leaves_other_keys_untouched(project: Project) -> None:
    agent = _legacy(numeric_accuracy=0.25)
    original = {"_comment": {"owner": "qa-team"}, "agent": agent, "tool": _legacy()}
    project.baseline.write_text(json.dumps(original, indent=2))
    assert project.run("--update-baseline") == 0
    stored = project.stored()
    assert stored["_comment"] == {"owner": "qa-team"}
    assert stored["tool"]["fingerprint"].startswith("sha256:")
    # The other key keeps every value it had and gains nothing that changes its meaning.
    assert {k: v for k, v in stored["agent"].items() if v not in ({}, [], None)} == agent


# --- the pure functions -------------------------------------------------------------------


def _passed(entry: dict[str, Any], metric: str) -> list[str]:
    """The ids a stored entry records as passing ``metric``."""
    return BaselineEntry.model_validate(entry).passed_ids(metric)


def _values(**over: Any) -> SuiteValues:
    base: dict[str, Any] = {
        "key": "tool",
        "fingerprint": "sha256:abc",
        "n_cases": 4,
        "metrics": {"numeric_accuracy": 0.5, "mrr": 0.75},
        "fabrication_count": 0,
        "passed": {"numeric_accuracy": ["a", "b"]},
        "applicable": {"numeric_accuracy": ["a", "b", "c", "d"]},
    }
    base.update(over)
    return SuiteValues.from_lists(**base)


def _entry(values: SuiteValues) -> BaselineEntry:
    return entry_from_values(values, recorded_at="2026-01-01T00:00:00+00:00", tool_version="t")


def test_compare_equal_is_clean_and_float_noise_is_not_a_regression() -> None:
    entry = _entry(_values(metrics={"numeric_accuracy": 0.1 + 0.2, "mrr": 0.75}))
    result = compare(entry, _values(metrics={"numeric_accuracy": 0.3, "mrr": 0.75}))
    assert not result.failed
    assert result.regressions == [] and result.improvements == []


def test_compare_reports_drops_rises_and_vanished_metrics() -> None:
    entry = _entry(_values(metrics={"numeric_accuracy": 0.5, "mrr": 0.75, "ndcg@3": 0.6}))
    result = compare(entry, _values(metrics={"numeric_accuracy": 0.75, "mrr": 0.5}))
    got = {r.metric: (r.baseline, r.current, r.delta) for r in result.regressions}
    assert got == {"mrr": (0.75, 0.5, -0.25)}
    assert result.not_measured == ["ndcg@3"]  # another k: a warning, never a drop to 0
    assert [r.metric for r in result.improvements] == ["numeric_accuracy"]
    assert result.failed


def test_compare_fabrication_only_counts_a_rise() -> None:
    entry = _entry(_values(fabrication_count=2))
    assert not compare(entry, _values(fabrication_count=1)).failed
    assert not compare(entry, _values(fabrication_count=2)).failed
    rise = compare(entry, _values(fabrication_count=3))
    assert [(r.metric, r.delta) for r in rise.regressions] == [("fabrication_count", 1)]


def test_compare_lists_broken_and_fixed_cases() -> None:
    entry = _entry(_values())
    result = compare(entry, _values(passed={"numeric_accuracy": ["a", "c"]}))
    assert result.regressions == []
    assert [(c.id, c.before, c.after) for c in result.broken] == [("b", "pass", "fail")]
    assert [(c.id, c.before, c.after) for c in result.fixed] == [("c", "fail", "pass")]
    assert result.failed


def test_case_no_longer_in_the_gate_is_not_broken() -> None:
    """A case that left the golden set cannot break (the fingerprint catches the change)."""
    entry = _entry(_values())
    now = _values(passed={"numeric_accuracy": ["a"]}, applicable={"numeric_accuracy": ["a"]})
    assert compare(entry, now).broken == []


def test_check_stale_by_fingerprint_and_by_case_count() -> None:
    entry = _entry(_values())
    check_stale(entry, _values(), "b.json", "CMD")
    with pytest.raises(StaleBaselineError, match="re-record it with: CMD") as info:
        check_stale(entry, _values(fingerprint="sha256:other"), "b.json", "CMD")
    assert info.value.exit_code == 2
    legacy = BaselineEntry(metrics={"mrr": 0.5}, n_cases=4)
    check_stale(legacy, _values(fingerprint="sha256:whatever"), "b.json", "CMD")
    with pytest.raises(StaleBaselineError, match="recorded for 4 cases"):
        check_stale(legacy, _values(n_cases=5), "b.json", "CMD")


def test_apply_update_creates_raises_refuses_and_lowers_with_reason() -> None:
    first, lowered, status = apply_update(
        None, _values(), None, lower_reason=None, now="t0", tool_version="v"
    )
    assert status == "created" and lowered == []
    assert first.entries["tool"].metrics["numeric_accuracy"] == 0.5

    better = _values(
        metrics={"numeric_accuracy": 0.75, "mrr": 0.75},
        passed={"numeric_accuracy": ["a", "b", "c"]},
    )
    raised, lowered, status = apply_update(
        first,
        better,
        compare(first.entries["tool"], better),
        lower_reason=None,
        now="t1",
        tool_version="v",
    )
    assert status == "updated" and lowered == [] and raised.history == []
    assert raised.entries["tool"].metrics["numeric_accuracy"] == 0.75

    worse = _values(metrics={"numeric_accuracy": 0.5, "mrr": 0.75})
    drop = compare(raised.entries["tool"], worse)
    with pytest.raises(BaselineUpdateError, match="refusing to lower") as info:
        apply_update(raised, worse, drop, lower_reason=None, now="t2", tool_version="v")
    assert info.value.exit_code == 1
    assert raised.entries["tool"].metrics["numeric_accuracy"] == 0.75  # input not mutated

    lowered_file, lowered, _ = apply_update(
        raised, worse, drop, lower_reason="flaky doc removed", now="t3", tool_version="v"
    )
    assert [(lo.metric, lo.old, lo.new, lo.reason) for lo in lowered] == [
        ("numeric_accuracy", 0.75, 0.5, "flaky doc removed")
    ]
    assert [(h.at, h.reason) for h in lowered_file.history] == [("t3", "flaky doc removed")]
    assert lowered_file.entries["tool"].metrics["numeric_accuracy"] == 0.5


def test_apply_update_keeps_other_entries_and_meta() -> None:
    other = BaselineEntry(metrics={"cell_value": 0.9}, n_cases=10)
    start = BaselineFile(entries={"extraction": other}, extra_meta={"_note": "keep"})
    updated, _, status = apply_update(
        start, _values(), None, lower_reason=None, now="t", tool_version="v"
    )
    assert status == "created"
    assert updated.entries["extraction"] == other
    assert updated.to_json_obj()["_note"] == "keep"


def test_update_leaves_other_keys_byte_for_byte(project: Project) -> None:
    agent = _legacy(numeric_accuracy=0.25)
    project.baseline.write_text(json.dumps({"agent": agent, "tool": _legacy()}, indent=2))
    assert project.run("--update-baseline") == 0
    assert project.stored()["agent"] == agent

"""An evolving golden set, end to end through the CLI (issue 16, SPEC §10 "Baseline").

Each scenario records a baseline, then edits the golden set (or the flags) the way a team
would, and checks the verdict, the exit code, the report and the recorded file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragspine_action import cli

DATA = Path(__file__).parent.parent / "data"


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


NEW_CASE = {
    "id": "n3",
    "question": "What was ACME Singapore revenue in FY2025?",
    "case_type": "numeric",
    "expected": {
        "value": 512.0,
        "unit": "USD_M",
        "source": {"doc": "ACME_FY2025_Results.pptx", "locator": "slide=5,table=1,row=4,col=3"},
    },
    "tags": {"scope": "SG"},
}
# The system gets the new case wrong: it must be shown, not gated, on its first run.
NEW_OUTCOME_WRONG = {
    "id": "n3",
    "answer": "ACME Singapore revenue in FY2025 was 499 USD_M (ACME_FY2025_Results.pptx).",
    "value": 499.0,
    "unit": "USD_M",
    "source": {"doc": "ACME_FY2025_Results.pptx", "locator": "slide=5,table=1,row=4,col=3"},
}


class Team:
    """A project directory: golden set, outcomes, baseline, report; edited between runs."""

    def __init__(self, root: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.capsys = capsys
        self.golden = root / "golden.jsonl"
        self.outcomes_path = root / "outcomes.jsonl"
        self.baseline = root / "baseline.json"
        self.report_path = root / "report.json"
        self.cases = _lines(DATA / "mini_golden.jsonl")
        self.outcomes = _lines(DATA / "mini_outcomes.jsonl")
        self.out = ""
        self.err = ""

    def run(self, *extra: str) -> int:
        self.golden.write_text("".join(json.dumps(c) + "\n" for c in self.cases))
        self.outcomes_path.write_text("".join(json.dumps(o) + "\n" for o in self.outcomes))
        self.report_path.unlink(missing_ok=True)
        argv = ["--system", "outcomes", "--mode", "tool", "--golden", str(self.golden)]
        argv += ["--outcomes", str(self.outcomes_path), "--baseline", str(self.baseline)]
        argv += ["--report", str(self.report_path), "--bootstrap-resamples", "200", *extra]
        code = cli.main(argv)
        captured = self.capsys.readouterr()
        self.out, self.err = captured.out, captured.err
        assert "Traceback" not in self.out + self.err
        return code

    def report(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.report_path.read_text())
        return data

    def stored(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.baseline.read_text())
        return data

    def entry(self) -> dict[str, Any]:
        entry: dict[str, Any] = self.stored()["tool"]
        return entry

    def case(self, case_id: str) -> dict[str, Any]:
        return next(c for c in self.cases if c["id"] == case_id)

    def outcome(self, case_id: str) -> dict[str, Any]:
        return next(o for o in self.outcomes if o["id"] == case_id)


@pytest.fixture
def team(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Team:
    return Team(tmp_path, capsys)


def _passed(entry: dict[str, Any], metric: str) -> list[str]:
    return [i for i, c in zip(entry["ids"], entry["passed"][metric], strict=True) if c == "1"]


# --- one case added -------------------------------------------------------------------


def test_an_added_case_is_reported_as_new_and_not_gated_on_its_first_run(team: Team) -> None:
    assert team.run() == 0
    team.cases.append(NEW_CASE)
    team.outcomes.append(NEW_OUTCOME_WRONG)
    assert team.run() == 0
    base = team.report()["baseline"]
    assert base["status"] == "pass" and base["regressions"] == [] and base["broken"] == []
    assert [(c["id"], c["results"]["numeric_accuracy"]) for c in base["added"]] == [("n3", False)]
    assert base["cases"]["tool"] == {
        "compared": 6,
        "added": 1,
        "removed": 0,
        "changed": 0,
        "incomparable": 0,
    }
    # Compared on the six common cases: numeric_accuracy is 1.0 there on both sides.
    assert base["values"]["tool"]["numeric_accuracy"] == 1.0
    assert base["current"]["tool"]["numeric_accuracy"] == 1.0
    assert "New cases" in team.out and "n3" in team.out
    assert "numeric_accuracy FAIL" in team.out


def test_update_records_an_added_case_without_lowering(team: Team) -> None:
    assert team.run() == 0
    team.cases.append(NEW_CASE)
    team.outcomes.append(NEW_OUTCOME_WRONG)
    assert team.run("--update-baseline") == 0  # no --lower-baseline needed
    entry = team.entry()
    assert "n3" in entry["ids"] and "n3" not in _passed(entry, "numeric_accuracy")
    assert entry["metrics"]["numeric_accuracy"] == pytest.approx(2 / 3)
    history = team.stored()["_history"]
    assert len(history) == 1 and history[0]["added"] == ["n3"]
    assert "changes" not in history[0] or history[0]["changes"] == []
    assert team.report()["baseline"]["lowered"] == []
    # The recorded set is now the current one: an identical rerun passes as before.
    assert team.run() == 0
    assert team.report()["baseline"]["cases"] == {}


def test_a_common_case_that_breaks_still_fails_when_a_case_is_added(team: Team) -> None:
    assert team.run() == 0
    team.cases.append(NEW_CASE)
    team.outcomes.append(NEW_OUTCOME_WRONG)
    team.outcome("n1")["value"] = 1.0
    assert team.run() == 1
    base = team.report()["baseline"]
    assert {(b["id"], b["metric"]) for b in base["broken"]} == {("n1", "numeric_accuracy")}
    regression = next(r for r in base["regressions"] if r["metric"] == "numeric_accuracy")
    assert (regression["baseline"], regression["current"]) == (1.0, 0.5)  # the 2 common cases
    assert team.run("--update-baseline") == 1  # breaking n1 needs --lower-baseline


# --- a case changed -------------------------------------------------------------------


def test_a_changed_expected_value_is_stale_naming_the_case(team: Team) -> None:
    assert team.run() == 0
    team.case("n1")["expected"]["value"] = 1703.0
    assert team.run() == 2
    message = team.err.strip()
    assert "n1 (expected.value)" in message
    assert "--update-baseline" in message and "ragspine-eval" in message
    assert "n2" not in message
    base = team.report()["baseline"]
    assert base["status"] == "stale"
    assert [(c["id"], c["fields"], c["comparable"]) for c in base["changed"]] == [
        ("n1", ["expected.value"], False)
    ]


@pytest.mark.parametrize(
    ("case_id", "edit", "field"),
    [
        ("n2", lambda c: c.update(question="Group new sales in FY2025?"), "question"),
        ("n2", lambda c: c["expected"]["source"].update(locator="slide=4"), "expected.source"),
        ("n2", lambda c: c["expected"].update(unit="USD_K"), "expected.unit"),
        ("c1", lambda c: c["expected"].update(clarification="answer_with_assumptions"), None),
        ("r1", lambda c: c.update(reference_date="2025-06-30"), "reference_date"),
        ("t1", lambda c: c["expected"].update(reference_answer="volumes fell"), None),
        ("q1", lambda c: c["expected"]["relevant_docs"].update({"X.pptx": 1}), None),
    ],
)
def test_every_change_of_what_is_scored_is_named(
    team: Team, case_id: str, edit: Any, field: str | None
) -> None:
    assert team.run() == 0
    edit(team.case(case_id))
    assert team.run() == 2
    changed = team.report()["baseline"]["changed"]
    assert [c["id"] for c in changed] == [case_id]
    assert changed[0]["comparable"] is False
    if field is not None:
        assert changed[0]["fields"] == [field]
    assert f"{case_id} (" in team.err


def test_a_tags_only_change_is_listed_and_still_compared(team: Team) -> None:
    assert team.run() == 0
    team.case("n1")["tags"] = {"scope": "HONG KONG"}
    assert team.run() == 0
    base = team.report()["baseline"]
    assert [(c["id"], c["fields"], c["comparable"]) for c in base["changed"]] == [
        ("n1", ["tags"], True)
    ]
    team.outcome("n1")["value"] = 1.0
    assert team.run() == 1  # n1 is still protected
    assert team.run("--update-baseline") == 1


def test_update_rerecords_a_changed_case_when_its_new_result_is_not_worse(team: Team) -> None:
    assert team.run() == 0
    team.case("n1")["expected"]["value"] = 1703.0
    team.outcome("n1")["value"] = 1703.0
    assert team.run("--update-baseline") == 0
    history = team.stored()["_history"]
    assert history[-1]["changed"] == ["n1"]
    assert "n1" in _passed(team.entry(), "numeric_accuracy")
    assert team.run() == 0


def test_a_changed_case_whose_new_result_is_worse_needs_lower_baseline(team: Team) -> None:
    assert team.run() == 0
    before = team.baseline.read_bytes()
    team.case("n1")["expected"]["value"] = 1703.0  # the system still answers 1702
    assert team.run("--update-baseline") == 1
    assert "changed case n1 now fails numeric_accuracy" in team.out
    assert team.baseline.read_bytes() == before
    assert team.report()["baseline"]["update_refused"]
    assert team.run("--update-baseline", "--lower-baseline", "finance restated n1") == 0
    history = team.stored()["_history"]
    assert history[-1]["reason"] == "finance restated n1"
    assert {
        "case": "n1",
        "metric": "numeric_accuracy",
        "from": "pass",
        "to": "fail",
        "kind": "changed",
    } in history[-1]["changes"]


# --- a case removed -------------------------------------------------------------------


def test_removing_a_case_is_listed_and_recorded_without_lowering(team: Team) -> None:
    team.outcome("n2")["value"] = 1.0  # n2 fails in the baseline: 1/2 numeric
    assert team.run() == 0
    team.cases = [c for c in team.cases if c["id"] != "n1"]  # a passing case retired
    team.outcomes = [o for o in team.outcomes if o["id"] != "n1"]
    assert team.run() == 0  # raw numeric_accuracy 0.5 → 0.0 is dilution, not a regression
    base = team.report()["baseline"]
    assert [c["id"] for c in base["removed"]] == ["n1"]
    assert base["values"]["tool"]["numeric_accuracy"] == 0.0
    assert team.run("--update-baseline") == 0
    assert team.stored()["_history"][-1]["removed"] == ["n1"]
    assert "n1" not in team.entry()["ids"]


# --- k and protected k ----------------------------------------------------------------


def test_another_k_is_not_measured_not_a_regression(team: Team) -> None:
    assert team.run() == 0  # k 1,3,10
    assert team.run("--k", "1,3,5") == 0
    base = team.report()["baseline"]
    missing = {m["metric"] for m in base["not_measured"]}
    assert missing == {"hit@10", "ndcg@10", "recall@10", "precision@10"}
    assert base["regressions"] == []
    assert "not measured" in team.out
    assert any("hit@10 not measured" in w for w in team.report()["warnings"])
    assert team.run("--k", "1,3,5", "--update-baseline") == 0
    metrics = team.entry()["metrics"]
    assert "hit@10" in metrics and "hit@5" in metrics  # kept, and the new k recorded
    assert "_history" not in team.stored()
    assert team.run("--k", "1,3,5", "--update-baseline", "--lower-baseline", "k=10 retired") == 0
    assert "hit@10" not in team.entry()["metrics"]


def test_a_changed_protected_k_keeps_the_stricter_protection(team: Team) -> None:
    assert team.run() == 0  # protected k 3: q1 ranks its first relevant doc at 1
    assert team.run("--protected-k", "5", "--update-baseline") == 0
    entry = team.entry()
    assert "q1" in _passed(entry, "hit@3") and "q1" in _passed(entry, "hit@5")
    team.outcome("q1")["sources"] = ["A.pptx", "B.pptx", "C.pptx", "REG_WATCH_HK.pptx"]
    assert team.run("--protected-k", "5") == 1  # rank 4: hit@5 holds, hit@3 broke
    broken = team.report()["baseline"]["broken"]
    assert {(b["id"], b["metric"]) for b in broken} >= {("q1", "hit@3")}


# --- ungated values (issue 15, point 6) -------------------------------------------------


def test_gate_metrics_never_let_an_update_lower_an_ungated_metric(
    team: Team, tmp_path: Path
) -> None:
    config = tmp_path / "ragspine-eval.yml"
    config.write_text("gate:\n  metrics: [numeric_accuracy]\n")
    assert team.run("--config", str(config)) == 0
    before = team.baseline.read_bytes()
    team.outcome("c1")["clarification"] = "none"  # ungated clarification drops
    assert team.run("--config", str(config)) == 0  # not gated: no regression
    assert team.run("--config", str(config), "--update-baseline") == 1
    assert "clarification_appropriateness" in team.out
    assert team.baseline.read_bytes() == before
    assert team.report()["baseline"]["status"] == "regression"
    assert team.run("--config", str(config), "--update-baseline", "--lower-baseline", "why") == 0
    assert team.stored()["_history"][-1]["reason"] == "why"


def test_a_rank_that_got_worse_is_a_lowering(team: Team) -> None:
    team.outcome("q1")["sources"] = ["REG_WATCH_HK.pptx", "X.pptx"]
    assert team.run() == 0
    team.outcome("q1")["sources"] = ["X.pptx", "REG_WATCH_HK.pptx"]  # rank 1 → 2, hit@3 holds
    assert team.run("--update-baseline") == 1
    assert "refusing to lower" in team.out and "mrr" in team.out
    assert team.run("--update-baseline", "--lower-baseline", "reranker swap") == 0
    changes = team.stored()["_history"][-1]["changes"]
    assert {"case": "q1", "metric": "rank", "from": 1, "to": 2, "kind": "rank"} in changes


# --- old baselines --------------------------------------------------------------------


def _strip_digests(team: Team) -> None:
    """Make the stored baseline a schema-3 file (no per-case digests)."""
    doc = team.stored()
    del doc["tool"]["digests"]
    del doc["tool"]["fabricated"]
    doc["_schema_version"] = 3
    team.baseline.write_text(json.dumps(doc))


def test_a_baseline_without_digests_that_only_grew_is_proved_by_its_fingerprint(
    team: Team,
) -> None:
    assert team.run() == 0
    _strip_digests(team)
    assert team.run() == 0  # same set: compared as before
    team.cases.append(NEW_CASE)
    team.outcomes.append(NEW_OUTCOME_WRONG)
    # The recorded fingerprint equals the fingerprint of the recorded ids' cases now:
    # they are unchanged, n3 was added.
    assert team.run() == 0
    assert [c["id"] for c in team.report()["baseline"]["added"]] == ["n3"]
    assert team.run("--update-baseline") == 0  # recorded without lowering
    assert team.stored()["_history"][-1]["added"] == ["n3"]
    assert "case" in team.entry()["digests"]  # digests from now on


@pytest.mark.parametrize("change", ["edit", "remove"])
def test_a_baseline_without_digests_is_stale_on_any_other_change_as_before(
    team: Team, change: str
) -> None:
    assert team.run() == 0
    _strip_digests(team)
    if change == "edit":
        team.case("n2")["question"] = "Group new sales in FY2025?"
    else:
        team.cases = [c for c in team.cases if c["id"] != "n2"]
    assert team.run() == 2
    assert "stale" in team.err and "predates per-case digests" in team.err
    # As before: re-recording compares the whole set, and n2's pass would be lost.
    expected = 0 if change == "edit" else 1
    assert team.run("--update-baseline") == expected
    assert team.run("--update-baseline", "--lower-baseline", "n2 retired") == 0
    assert "case" in team.entry()["digests"]


def test_the_bundled_baseline_accepts_an_added_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ragspine_action.paths import BUNDLED_BASELINE, BUNDLED_GOLDEN

    golden = tmp_path / "golden.jsonl"
    baseline = tmp_path / "baseline.json"
    added = dict(NEW_CASE, id="zz-new-001")
    golden.write_text(BUNDLED_GOLDEN.read_text() + json.dumps(added) + "\n")
    baseline.write_bytes(BUNDLED_BASELINE.read_bytes())
    report = tmp_path / "report.json"
    args = ["--golden", str(golden), "--baseline", str(baseline), "--report", str(report)]
    assert cli.main([*args, "--quiet"]) == 0
    assert [c["id"] for c in json.loads(report.read_text())["baseline"]["added"]] == ["zz-new-001"]
    assert cli.main([*args, "--quiet", "--update-baseline"]) == 0
    stored = json.loads(baseline.read_text())
    assert stored["_history"][-1]["added"] == ["zz-new-001"]
    capsys.readouterr()


# --- the pull-request guard -------------------------------------------------------------


def test_the_guard_does_not_call_a_growth_only_update_a_lowering(team: Team) -> None:
    from ragspine_action.guard import GuardReport, compare_baselines

    assert team.run() == 0
    base = team.stored()
    team.cases.append(NEW_CASE)
    team.outcomes.append(NEW_OUTCOME_WRONG)  # the raw numeric pass rate falls 1.0 → 0.667
    assert team.run("--update-baseline") == 0
    head = team.stored()
    assert head["tool"]["metrics"]["numeric_accuracy"] < base["tool"]["metrics"]["numeric_accuracy"]
    grown = GuardReport()
    compare_baselines(base, head, grown)
    assert grown.lowered == [] and not grown.unrecorded_lowering

    team.outcome("n1")["value"] = 1.0
    assert team.run("--update-baseline", "--lower-baseline", "n1 withdrawn") == 0
    lowered = GuardReport()
    compare_baselines(base, team.stored(), lowered)
    assert "tool/numeric_accuracy lowered 1 → 0.5" in lowered.lowered
    assert "tool: case n1 no longer passes numeric_accuracy" in lowered.lowered
    hand = team.stored()
    hand["_history"] = hand["_history"][:1]  # the lowering's record deleted by hand
    sneaky = GuardReport()
    compare_baselines(head, hand, sneaky)
    assert sneaky.lowered and sneaky.unrecorded_lowering


def test_a_sharded_run_merged_sees_the_added_case(team: Team, tmp_path: Path) -> None:
    assert team.run() == 0
    team.cases.append(NEW_CASE)
    team.outcomes.append(NEW_OUTCOME_WRONG)
    team.golden.write_text("".join(json.dumps(c) + "\n" for c in team.cases))
    team.outcomes_path.write_text("".join(json.dumps(o) + "\n" for o in team.outcomes))
    common = ["--system", "outcomes", "--mode", "tool", "--golden", str(team.golden)]
    common += ["--outcomes", str(team.outcomes_path), "--quiet"]
    parts = []
    for i in (1, 2):
        parts.append(str(tmp_path / f"p{i}.json"))
        assert cli.main([*common, "--shard", f"{i}/2", "--report", parts[-1]]) == 0
    merged = tmp_path / "merged.json"
    args = ["merge", *parts, "--baseline", str(team.baseline), "--report", str(merged)]
    assert cli.main([*args, "--quiet"]) == 0
    base = json.loads(merged.read_text())["baseline"]
    assert [c["id"] for c in base["added"]] == ["n3"] and base["regressions"] == []
    assert cli.main([*args, "--update-baseline", "--quiet"]) == 0
    assert team.stored()["_history"][-1]["added"] == ["n3"]


def test_the_pr_comment_lists_new_and_changed_cases(team: Team) -> None:
    from ragspine_action.report.model import Report
    from ragspine_action.report.render_markdown import render_markdown

    assert team.run() == 0
    team.cases.append(NEW_CASE)
    team.outcomes.append(NEW_OUTCOME_WRONG)
    team.case("n2")["tags"] = {"scope": "ELSEWHERE"}
    assert team.run("--k", "1,3") == 0
    body = render_markdown(Report.model_validate(team.report()))
    assert "**New cases** (1: shown, not gated on their first run)" in body
    assert "- `n3` numeric_accuracy **fail**" in body
    assert "**Changed cases** (1)" in body and "- `n2`: tags" in body
    assert "not measured (warning)" in body  # hit@10 and friends

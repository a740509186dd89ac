"""Invariants of the gate over random sequences of runs through ``cli.main``.

1. The baseline never decreases, and never changes on a run that does not update it;
   only ``--update-baseline --lower-baseline REASON`` may lower it, and that leaves a
   ``_history`` record with the reason.
2. Every golden case is accounted for in every report: exactly once, passed or failed,
   with an error when its outcome errored or was missing.
3. The verdict is ``fail`` (exit 1) whenever a gated value fell below the baseline.

Each checker is shown to catch a deliberately broken implementation (monkeypatched).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hardening_support import MINI_GOLDEN, MINI_OUTCOMES, fuzz_settings, run_cli
from hypothesis import given
from hypothesis import strategies as st

from ragspine_action.baseline import ratchet
from ragspine_action.baseline.ratchet import EPSILON

GOLDEN_IDS = [json.loads(line)["id"] for line in MINI_GOLDEN.read_text().splitlines()]
GOOD = {r["id"]: r for r in map(json.loads, MINI_OUTCOMES.read_text().splitlines())}
MODE = "inv"


def _variant(case_id: str, kind: int) -> dict[str, Any] | None:
    """The good outcome (0) or one of a few characteristic failures (1..4)."""
    row = json.loads(json.dumps(GOOD[case_id]))
    match kind:
        case 0:
            return row
        case 1:
            return None  # missing: an error for every gate
        case 2:
            return {"id": case_id, "error": "timeout"}
        case 3:
            row.update(answer="ROE was 12.5% and 3 more", refused=False, unit="EUR", value=1.0,
                       clarification="none")  # fmt: skip
            return row
        case _:
            row["sources"] = list(reversed(row.get("sources", [])))[1:]
            row["answer"] = "unrelated words only"
            return row


RUN = st.tuples(
    st.lists(st.integers(0, 4), min_size=len(GOLDEN_IDS), max_size=len(GOLDEN_IDS)),
    st.sampled_from(["check", "update", "lower"]),
)


def _run(work: Path, variants: list[int], action: str) -> tuple[int, dict[str, Any]]:
    rows = [_variant(i, k) for i, k in zip(GOLDEN_IDS, variants, strict=True)]
    outcomes = work / "outcomes.jsonl"
    present = [r for r in rows if r is not None] or [{"id": "none-of-them"}]
    outcomes.write_text("".join(json.dumps(r) + "\n" for r in present), encoding="utf-8")
    report = work / "report.json"
    report.unlink(missing_ok=True)
    extra = {"check": [], "update": ["--update-baseline"],
             "lower": ["--update-baseline", "--lower-baseline", "accepted on purpose"]}[action]  # fmt: skip
    result = run_cli(
        ["--system", "outcomes", "--golden", str(MINI_GOLDEN), "--outcomes", str(outcomes),
         "--mode", MODE, "--baseline", str(work / "baseline.json"), "--bootstrap-resamples", "0",
         "--max-error-rate", "1",  # errors are gated like failures here, not an outage
         "--report", str(report), *extra]
    )  # fmt: skip
    assert "Traceback" not in result.stderr
    data = json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}
    return result.code, data


def _entry(path: Path) -> dict[str, Any] | None:
    if not path.exists():
        return None
    entry: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))[MODE]
    return entry


def check_ratchet(before: dict[str, Any] | None, after: dict[str, Any] | None,
                  action: str, history_grew: bool) -> None:  # fmt: skip
    """Invariant 1 for one step."""
    if before is None:
        return
    assert after is not None, "a baseline entry disappeared"
    if action == "check":
        assert after == before, "a run without --update-baseline changed the baseline"
        return
    fell = [m for m, v in before["metrics"].items() if after["metrics"].get(m, -1.0) < v - EPSILON]
    if after["fabrication_count"] > before["fabrication_count"]:
        fell.append("fabrication_count")
    if action == "update":
        assert not fell, f"an update without --lower-baseline lowered {fell}"
    elif fell:
        assert history_grew, "a lowering left no _history record"


def check_verdict(
    before: dict[str, Any] | None, code: int, report: dict[str, Any], action: str
) -> None:
    """Invariant 3: any gated value below the baseline fails the run (check runs)."""
    if before is None or action != "check":
        return
    current = {**report["qa"]["retrieval"]["overall"]} if report["qa"].get("retrieval") else {}
    current.update({n: m["pass_rate"] for n, m in report["qa"]["metrics"].items()})
    fell = [m for m, v in before["metrics"].items() if current.get(m, -1.0) < v - EPSILON]
    if report["qa"]["fabrication_count"] > before["fabrication_count"]:
        fell.append("fabrication_count")
    if fell:
        assert code == 1 and report["verdict"] == "fail", (
            f"{fell} fell but verdict {report['verdict']}"
        )


def check_accounted(report: dict[str, Any], variants: list[int]) -> None:
    """Invariant 2: each golden case once, passed or failed, errors where outcomes failed."""
    cases = report["qa"]["cases"]
    assert sorted(c["id"] for c in cases) == sorted(GOLDEN_IDS), "a golden case is unaccounted"
    by_id = {c["id"]: c for c in cases}
    for case_id, kind in zip(GOLDEN_IDS, variants, strict=True):
        case = by_id[case_id]
        assert isinstance(case["passed"], bool)
        if kind in (1, 2):
            assert case["error"] and not case["passed"], case
    assert report["qa"]["errors"]["count"] == sum(k in (1, 2) for k in variants)


def _history_len(path: Path) -> int:
    return (
        len(json.loads(path.read_text())["_history"])
        if path.exists() and "_history" in path.read_text()
        else 0
    )


def run_sequence(steps: list[tuple[list[int], str]]) -> None:
    work = Path(tempfile.mkdtemp(prefix="rs-inv-"))
    baseline = work / "baseline.json"
    for variants, action in steps:
        before, history = _entry(baseline), _history_len(baseline)
        before_bytes = baseline.read_bytes() if baseline.exists() else None
        code, report = _run(work, variants, action)
        after = _entry(baseline)
        assert code in (0, 1) and report
        if (report.get("baseline") or {}).get("update_refused"):
            # A refused update is a regression (exit 1) with a report; the file is untouched.
            assert action == "update" and code == 1 and baseline.read_bytes() == before_bytes
        check_accounted(report, variants)
        check_ratchet(before, after, action, _history_len(baseline) > history)
        check_verdict(before, code, report, action)


@pytest.mark.slow
@fuzz_settings(40)
@given(st.lists(RUN, min_size=1, max_size=6))
def test_invariants_hold_over_any_sequence_of_runs(steps: list[tuple[list[int], str]]) -> None:
    run_sequence(steps)


# -- each checker catches its invariant broken on purpose ------------------------------------

ALL_GOOD = [0] * len(GOLDEN_IDS)
ALL_BAD = [3] * len(GOLDEN_IDS)


def test_ratchet_checker_catches_an_update_that_lowers(monkeypatch: pytest.MonkeyPatch) -> None:
    real = ratchet.apply_update

    def lowering(*args: Any, **kwargs: Any) -> Any:
        kwargs["lower_reason"] = kwargs.get("lower_reason") or "sneaky"
        new, lows, status = real(*args, **kwargs)
        return new.model_copy(update={"history": []}), lows, status

    monkeypatch.setattr("ragspine_action.run.apply_update", lowering)
    with pytest.raises(AssertionError, match="lowered"):
        run_sequence([(ALL_GOOD, "check"), (ALL_BAD, "update")])


def test_ratchet_checker_catches_a_check_run_that_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    from ragspine_action import run as run_module

    monkeypatch.setattr(run_module, "_gate_baseline", _always_update(run_module))
    with pytest.raises(AssertionError, match="without --update-baseline"):
        run_sequence([(ALL_GOOD, "check"), (ALL_BAD, "check")])


def _always_update(run_module: Any) -> Any:
    original = run_module._gate_baseline

    def gate(config: Any, suites: Any, now: str) -> Any:
        from dataclasses import replace

        return original(replace(config, update_baseline=True, lower_reason="x"), suites, now)

    return gate


def test_verdict_checker_catches_a_fall_that_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    def blind_compare(entry: Any, values: Any, interval_fn: Any = None, diff: Any = None) -> Any:
        return ratchet.Comparison(values.key)

    monkeypatch.setattr("ragspine_action.run.compare", blind_compare)
    with pytest.raises(AssertionError, match="fell but verdict"):
        run_sequence([(ALL_GOOD, "check"), (ALL_BAD, "check")])


def test_accounting_checker_catches_a_dropped_case(monkeypatch: pytest.MonkeyPatch) -> None:
    from ragspine_action import run as run_module

    real = run_module.assemble_qa  # what the outcomes-file path assembles its section with

    def dropping(**kwargs: Any) -> Any:
        section = real(**kwargs)
        return section.model_copy(update={"cases": section.cases[1:]})

    monkeypatch.setattr(run_module, "assemble_qa", dropping)
    with pytest.raises(AssertionError, match="unaccounted"):
        run_sequence([(ALL_GOOD, "check")])


def test_the_sequence_runner_sees_regressions_refusals_and_lowerings() -> None:
    """Not vacuous: a fall fails, an update of it is refused, a lowering is recorded."""
    work = Path(tempfile.mkdtemp(prefix="rs-inv-"))
    assert _run(work, ALL_GOOD, "check")[0] == 0  # creates the baseline
    code, report = _run(work, ALL_BAD, "check")
    assert code == 1 and report["verdict"] == "fail"
    code, report = _run(work, ALL_BAD, "update")
    assert code == 1 and "refusing to lower" in report["baseline"]["update_refused"]
    assert _run(work, ALL_BAD, "lower")[0] == 0
    assert _history_len(work / "baseline.json") == 1
    run_sequence([(ALL_GOOD, "check"), (ALL_BAD, "check"), (ALL_BAD, "update"), (ALL_BAD, "lower")])

"""ragspine-eval.yml: floors, gated metrics, overrides, and located errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragspine_action.cli import main

DATA = Path(__file__).resolve().parent / "data"


def _setup(tmp_path: Path, config: str) -> Path:
    (tmp_path / "golden.jsonl").write_text((DATA / "mini_golden.jsonl").read_text())
    rows = [json.loads(x) for x in (DATA / "mini_outcomes.jsonl").read_text().splitlines()]
    rows[4]["answer"] += (
        " Management expects a dividend increase after the merger."  # t1 unfaithful
    )
    (tmp_path / "outcomes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "ragspine-eval.yml").write_text(config)
    return tmp_path


BASE = """\
system: outcomes
mode: mine
golden: golden.jsonl
outcomes: outcomes.jsonl
baseline: baseline.json
report: report.json
"""


def _run(ws: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> tuple[int, dict[str, Any]]:
    monkeypatch.chdir(ws)
    code = main(["--quiet", *extra])
    report = ws / "report.json"
    return code, json.loads(report.read_text()) if report.exists() else {}


def test_floor_fails_a_run_the_baseline_passes_and_removing_it_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = _setup(tmp_path, BASE)
    code, report = _run(ws, monkeypatch)  # creates the baseline with faithfulness 0.0
    assert code == 0 and report["qa"]["metrics"]["faithfulness"]["pass_rate"] == 0.0
    code, report = _run(ws, monkeypatch)
    assert code == 0 and report["baseline"]["status"] == "pass"

    (ws / "ragspine-eval.yml").write_text(BASE + "gate:\n  floors:\n    faithfulness: 0.85\n")
    code, report = _run(ws, monkeypatch)
    assert code == 1 and report["verdict"] == "fail"
    assert report["baseline"]["status"] == "pass", "the baseline alone passes"
    [floor] = [f for f in report["floors"] if not f["passed"]]
    assert (floor["metric"], floor["floor"], floor["current"]) == ("faithfulness", 0.85, 0.0)
    assert "below floor: faithfulness 0 < 0.85" in capsys.readouterr().out
    assert report["config"]["floors"] == {"faithfulness": 0.85}

    (ws / "ragspine-eval.yml").write_text(BASE)
    code, report = _run(ws, monkeypatch)
    assert code == 0 and report["floors"] == []


def test_floor_applies_with_no_baseline_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = _setup(tmp_path, BASE + "gate:\n  floors:\n    hit@3: 0.8\n    faithfulness: 0.5\n")
    code, report = _run(ws, monkeypatch, "--no-baseline")
    assert code == 1
    assert {f["metric"]: f["passed"] for f in report["floors"]} == {
        "hit@3": True,
        "faithfulness": False,
    }


def test_flags_override_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = _setup(
        tmp_path, BASE + "retrieval:\n  k: [1, 2]\ngate:\n  floors:\n    faithfulness: 0.9\n"
    )
    code, report = _run(ws, monkeypatch, "--k", "5", "--floor", "faithfulness=0")
    assert code == 0
    assert report["qa"]["retrieval"]["k"] == [5]
    assert report["config"]["floors"] == {"faithfulness": 0.0}
    assert report["config"]["config_file"].endswith("ragspine-eval.yml")


def test_gate_metrics_limits_what_can_fail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = _setup(tmp_path, BASE)
    rows = [json.loads(x) for x in (DATA / "mini_outcomes.jsonl").read_text().splitlines()]
    (ws / "outcomes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert _run(ws, monkeypatch)[0] == 0  # faithfulness 1.0 recorded
    rows[4]["answer"] += " Management expects a dividend increase after the merger."
    (ws / "outcomes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert _run(ws, monkeypatch)[0] == 1
    (ws / "ragspine-eval.yml").write_text(BASE + "gate:\n  metrics: [numeric_accuracy, hit@3]\n")
    code, report = _run(ws, monkeypatch)
    assert code == 0
    assert report["baseline"]["gated"] == ["numeric_accuracy", "hit@3"]


def test_an_empty_gate_metrics_list_is_exit_2_not_a_green_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``gate: {metrics: []}`` gated nothing: every metric could drop to 0 with exit 0."""
    ws = _setup(tmp_path, BASE)
    rows = [json.loads(x) for x in (DATA / "mini_outcomes.jsonl").read_text().splitlines()]
    (ws / "outcomes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert _run(ws, monkeypatch)[0] == 0  # the baseline, faithfulness 1.0
    for row in rows:
        row["answer"] = "Nothing to say."
    (ws / "outcomes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (ws / "ragspine-eval.yml").write_text(BASE + "gate:\n  metrics: []\n")
    capsys.readouterr()
    code, _ = _run(ws, monkeypatch)
    assert code == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert "gate.metrics: an empty list gates nothing" in line


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (
            "gate:\n  flors:\n    faithfulness: 0.8\n",
            "ragspine-eval.yml:8: gate.flors: unknown field",
        ),
        (
            "gate:\n  floors:\n    faithfulness: high\n",
            "ragspine-eval.yml:9: gate.floors.faithfulness:",
        ),
        ("retrieval:\n  k: three\n", "ragspine-eval.yml:8: retrieval.k:"),
        ("http:\n  concurrency: 0\n", "ragspine-eval.yml:8: http.concurrency:"),
        ("judge: [1, 2]\n", "ragspine-eval.yml:7: judge:"),
        # BASE sets system already: a second key is refused, never "last one wins".
        ("system: magic\n", "ragspine-eval.yml:7: duplicate key 'system' (first on line"),
        # A metric name no run has is found after loading: still the file's line.
        (
            "gate:\n  floors:\n    faithfulnes: 0.8\n",
            "ragspine-eval.yml:9: gate.floors.faithfulnes: no metric of that name",
        ),
        (
            "gate:\n  metrics:\n    - faithfulness\n    - numeric_acuracy\n",
            "ragspine-eval.yml:10: gate.metrics.numeric_acuracy: no metric of that name",
        ),
        (
            "gate:\n  metrics: [faithfulness, hit@33]\n",
            "ragspine-eval.yml:8: gate.metrics.hit@33: no metric of that name",
        ),
        ("judge:\n  concurrency: 0\n", "ragspine-eval.yml:8: judge.concurrency:"),
        ("retrieval: {k: [1, 3\n", "ragspine-eval.yml:8: invalid YAML"),
    ],
)
def test_bad_config_is_exit_2_naming_the_key_path(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    extra: str,
    expected: str,
) -> None:
    ws = _setup(tmp_path, BASE.replace("report: report.json\n", "report: report.json\n") + extra)
    code, report = _run(ws, monkeypatch)
    err = capsys.readouterr().err
    assert code == 2
    assert expected in err, err
    assert "Traceback" not in err
    assert report == {} and not (ws / "baseline.json").exists()

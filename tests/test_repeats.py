"""``--repeats N`` and ``gate.mode: significant`` through the CLI (issue 16, points 4-5)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

from ragspine_action import cli

DATA = Path(__file__).parent / "data"


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


GOOD = _lines(DATA / "mini_outcomes.jsonl")


def _repeated(per_repeat: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    return [dict(o, repeat=i) for i, outcomes in enumerate(per_repeat) for o in outcomes]


def _wrong(outcomes: list[dict[str, Any]], *ids: str) -> list[dict[str, Any]]:
    return [dict(o, value=o["value"] + 1) if o["id"] in ids else o for o in outcomes]


class Runs:
    def __init__(self, root: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.capsys = capsys
        self.outcomes = root / "outcomes.jsonl"
        self.baseline = root / "baseline.json"
        self.report_path = root / "report.json"
        self.out = self.err = ""

    def run(self, outcomes: list[dict[str, Any]], *extra: str) -> int:
        self.outcomes.write_text("".join(json.dumps(o) + "\n" for o in outcomes))
        self.report_path.unlink(missing_ok=True)
        argv = ["--system", "outcomes", "--mode", "tool"]
        argv += ["--golden", str(DATA / "mini_golden.jsonl"), "--outcomes", str(self.outcomes)]
        argv += ["--baseline", str(self.baseline), "--report", str(self.report_path), *extra]
        code = cli.main(argv)
        captured = self.capsys.readouterr()
        self.out, self.err = captured.out, captured.err
        assert "Traceback" not in self.out + self.err
        return code

    def report(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.report_path.read_text())
        return data


@pytest.fixture
def runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Runs:
    return Runs(tmp_path, capsys)


def test_an_outcomes_file_with_repeat_indices_reports_flaky_cases_and_spreads(
    runs: Runs,
) -> None:
    outcomes = _repeated([GOOD, _wrong(GOOD, "n1"), GOOD])
    assert runs.run(outcomes) == 0
    rep = runs.report()["repeats"]
    assert rep["count"] == 3 and rep["n_flaky"] == 1
    assert rep["flaky"][0]["id"] == "n1"
    assert rep["flaky"][0]["passed"]["numeric_accuracy"] == pytest.approx(2 / 3)
    numeric = rep["metrics"]["numeric_accuracy"]
    assert numeric["values"] == [1.0, 0.5, 1.0]
    assert numeric["mean"] == pytest.approx(2.5 / 3) and numeric["min"] == 0.5
    assert numeric["std"] == pytest.approx(0.288675, abs=1e-5)
    assert "flaky n1: passed numeric_accuracy 67%" in runs.out
    entry = json.loads(runs.baseline.read_text())["tool"]
    assert entry["metrics"]["numeric_accuracy"] == pytest.approx(2.5 / 3)  # the mean
    n1 = entry["ids"].index("n1")
    assert entry["passed"]["numeric_accuracy"][n1] == "1"  # the majority
    assert entry["case_values"]["numeric_accuracy"][n1] == pytest.approx(2 / 3)


def test_repeats_given_must_match_the_outcomes_file(runs: Runs) -> None:
    assert runs.run(GOOD, "--repeats", "3") == 2
    assert "--repeats 3" in runs.err and "one outcome per id" in runs.err
    assert runs.run(_repeated([GOOD, GOOD]), "--repeats", "3") == 2
    assert "2 repeats" in runs.err
    assert runs.run(_repeated([GOOD, GOOD]), "--repeats", "2") == 0


def test_a_missing_repeat_index_or_a_duplicate_pair_is_located(runs: Runs) -> None:
    mixed = _repeated([GOOD, GOOD])
    del mixed[-1]["repeat"]
    assert runs.run(mixed) == 2
    assert ":12: " in runs.err and "repeat" in runs.err
    twice = [*_repeated([GOOD, GOOD]), dict(GOOD[0], repeat=1)]
    assert runs.run(twice) == 2
    assert "duplicate id for repeat 1 (first on line 7)" in runs.err


def test_a_case_missing_from_one_repeat_is_an_error_in_that_repeat(runs: Runs) -> None:
    outcomes = _repeated([GOOD, [o for o in GOOD if o["id"] != "c1"]])
    assert runs.run(outcomes, "--max-error-rate", "1") in (0, 1)
    rep = runs.report()["repeats"]
    assert [f["id"] for f in rep["flaky"]] == ["c1"]
    assert any(
        w.startswith("repeat 2: 1 of 6 cases ended in an error") for w in runs.report()["warnings"]
    )


def test_the_reference_system_runs_every_case_n_times(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    args = ["--repeats", "2", "--no-baseline", "--report", str(report), "--quiet"]
    assert cli.main(args) == 0
    rep = json.loads(report.read_text())["repeats"]
    assert rep["count"] == 2 and rep["n_flaky"] == 0  # deterministic
    assert all(s["min"] == s["max"] for s in rep["metrics"].values())


def test_significant_mode_tolerates_a_flip_that_exact_mode_fails(runs: Runs) -> None:
    assert runs.run(_repeated([GOOD, GOOD, GOOD])) == 0  # baseline: all pass
    flip = _repeated([GOOD, _wrong(GOOD, "n1"), GOOD])  # n1 flips in one of three
    assert runs.run(flip) == 1  # exact: the mean numeric_accuracy fell
    assert runs.run(flip, "--gate-mode", "significant") == 0
    base = runs.report()["baseline"]
    assert base["gate_mode"] == "significant"
    test = next(t for t in base["tests"] if t["metric"] == "numeric_accuracy")
    assert test["kind"] == "bootstrap" and not test["significant"]
    assert "within noise" in runs.out


def test_significant_mode_fails_a_consistent_drop(runs: Runs) -> None:
    assert runs.run(_repeated([GOOD, GOOD, GOOD])) == 0
    broken = _wrong(GOOD, "n1", "n2")
    assert runs.run(_repeated([broken, broken, broken]), "--gate-mode", "significant") == 1
    base = runs.report()["baseline"]
    assert [r["metric"] for r in base["regressions"]] == ["numeric_accuracy"]
    assert "SIGNIFICANT DROP" in runs.out


def test_significant_mode_from_the_config_file(runs: Runs, tmp_path: Path) -> None:
    config = tmp_path / "ragspine-eval.yml"
    config.write_text("gate:\n  mode: significant\n  alpha: 0.01\n  tolerance: 0.05\n")
    assert runs.run(_repeated([GOOD, GOOD, GOOD]), "--config", str(config)) == 0
    flip = _repeated([GOOD, _wrong(GOOD, "n1"), GOOD])
    assert runs.run(flip, "--config", str(config)) == 0
    assert runs.report()["config"]["gate_alpha"] == 0.01
    config.write_text("gate:\n  mode: sometimes\n")
    assert runs.run(flip, "--config", str(config)) == 2
    assert "gate.mode" in runs.err


def test_an_update_in_significant_mode_records_noise_in_history(runs: Runs) -> None:
    assert runs.run(_repeated([GOOD, GOOD, GOOD])) == 0
    flip = _repeated([GOOD, _wrong(GOOD, "n1"), GOOD])
    assert runs.run(flip, "--update-baseline") == 1  # exact: the mean fell, refused
    assert runs.run(flip, "--gate-mode", "significant", "--update-baseline") == 0
    history = json.loads(runs.baseline.read_text())["_history"]
    assert "significant" in history[-1]["reason"]
    assert any(c["metric"] == "numeric_accuracy" for c in history[-1]["changes"])


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--repeats", "-1"], "--repeats"),
        (["--gate-alpha", "0"], "--gate-alpha"),  # a flag's error names the flag
        (["--gate-alpha", "1.5"], "--gate-alpha"),
        (["--gate-tolerance", "2"], "--gate-tolerance"),
    ],
)
def test_bad_gate_settings_are_one_line_errors(runs: Runs, flags: list[str], message: str) -> None:
    assert runs.run(GOOD, *flags) == 2
    assert message in runs.err and len(runs.err.strip().splitlines()) == 1


class _FlakyService(BaseHTTPRequestHandler):
    """Answers from the mini outcomes; n1's value is wrong on every second call."""

    calls: ClassVar[dict[str, int]] = {}

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        case_id = body["id"]
        count = self.calls[case_id] = self.calls.get(case_id, 0) + 1
        outcome = next(o for o in GOOD if o["id"] == case_id)
        if case_id == "n1" and count % 2 == 0:
            outcome = dict(outcome, value=outcome["value"] + 1)
        data = json.dumps(outcome).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass


def test_the_http_system_is_called_n_times_and_its_noise_is_seen(tmp_path: Path) -> None:
    _FlakyService.calls = {}
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FlakyService)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        report = tmp_path / "r.json"
        url = f"http://127.0.0.1:{server.server_address[1]}/answer"
        args = ["--system", "http", "--endpoint", url, "--mode", "svc", "--repeats", "4"]
        args += ["--golden", str(DATA / "mini_golden.jsonl"), "--no-baseline"]
        assert cli.main([*args, "--report", str(report), "--quiet"]) == 1  # a flaky case fails
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
    assert _FlakyService.calls == {o["id"]: 4 for o in GOOD}
    rep = json.loads(report.read_text())["repeats"]
    assert [(f["id"], f["passed"]["numeric_accuracy"]) for f in rep["flaky"]] == [("n1", 0.5)]
    assert rep["metrics"]["numeric_accuracy"]["values"] == [1.0, 0.5, 1.0, 0.5]


def test_the_pr_comment_shows_the_flaky_cases_and_the_tests(runs: Runs) -> None:
    from ragspine_action.report.model import Report
    from ragspine_action.report.render_markdown import render_markdown

    assert runs.run(_repeated([GOOD, GOOD, GOOD])) == 0
    broken = _wrong(GOOD, "n1", "n2")
    assert runs.run(_repeated([broken, GOOD, broken]), "--gate-mode", "significant") == 1
    body = render_markdown(Report.model_validate(runs.report()))
    assert "**Repeats:** 3 per case · flaky cases: 2 (`n1`, `n2`)" in body
    assert "**gate.mode significant:**" in body and "numeric_accuracy p=" in body


def test_significant_mode_never_calls_an_ungated_drop_noise(runs: Runs, tmp_path: Path) -> None:
    config = tmp_path / "ragspine-eval.yml"
    config.write_text("gate:\n  mode: significant\n  metrics: [numeric_accuracy]\n")
    assert runs.run(_repeated([GOOD, GOOD, GOOD]), "--config", str(config)) == 0
    unclear = [dict(o, clarification="none") if o["id"] == "c1" else o for o in GOOD]
    noisy = _repeated([GOOD, _wrong(unclear, "n1"), unclear])  # c1 is ungated
    assert runs.run(noisy, "--config", str(config)) == 0  # neither gate nor noise fails
    assert runs.run(noisy, "--config", str(config), "--update-baseline") == 1
    assert "clarification_appropriateness" in runs.report()["baseline"]["update_refused"]
    only_noise = _repeated([GOOD, _wrong(GOOD, "n1"), GOOD])
    assert runs.run(only_noise, "--config", str(config), "--update-baseline") == 0


def test_saved_repeats_score_again_offline_as_the_same_repeats(tmp_path: Path) -> None:
    saved = tmp_path / "saved.jsonl"
    first, again = tmp_path / "first.json", tmp_path / "again.json"
    args = ["--repeats", "2", "--no-baseline", "--quiet", "--save-outcomes", str(saved)]
    assert cli.main([*args, "--report", str(first)]) == 0
    lines = _lines(saved)
    n_cases = json.loads(first.read_text())["qa"]["n_cases"]
    assert len(lines) == 2 * n_cases
    assert sorted({o["repeat"] for o in lines}) == [0, 1]
    offline = ["--system", "outcomes", "--outcomes", str(saved), "--mode", "tool"]
    assert cli.main([*offline, "--no-baseline", "--quiet", "--report", str(again)]) == 0
    before = json.loads(first.read_text())["repeats"]
    after = json.loads(again.read_text())["repeats"]
    assert after["count"] == 2 and after["metrics"] == before["metrics"]

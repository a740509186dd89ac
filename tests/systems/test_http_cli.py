"""``--system http`` end to end through the CLI, against real services on 127.0.0.1.

The healthy service is ``examples/http_service.py`` (bearer-token protected). The faulty
one answers with the same ``answer()`` but fails chosen cases: a permanent 500 with an
HTML debug page that echoes the request headers, a 200 with truncated JSON, a 500
once then a good answer, and a good answer whose contexts echo the token (realistic
ways for a service to leak it).
"""

from __future__ import annotations

import importlib.util
import json
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ragspine_action import cli
from ragspine_action.systems.http import HEADERS_ENV

REPO = Path(__file__).resolve().parents[2]
TOKEN = "tok-CLI-5ecret-0a1b2c3d4e"
AUTH = f"Bearer {TOKEN}"

# Questions the example service answers from its three documents (and one it refuses).
CASES: list[dict[str, Any]] = [
    {
        "id": "leave",
        "question": "How many days of paid leave do employees accrue per year?",
        "doc": "handbook.md",
        "reference": "Employees accrue 25 days of paid leave per year.",
    },
    {
        "id": "remote",
        "question": "How many days a week is remote work allowed?",
        "doc": "handbook.md",
        "reference": "Remote work is allowed up to three days a week.",
    },
    {
        "id": "passwords",
        "question": "How often must passwords be rotated?",
        "doc": "security-policy.md",
        "reference": "Passwords must be rotated every 90 days.",
    },
    {
        "id": "laptops",
        "question": "Which encryption must company laptops use?",
        "doc": "security-policy.md",
        "reference": "Company laptops must use full-disk encryption.",
    },
    {
        "id": "meals",
        "question": "What is the cap for meal expenses per day?",
        "doc": "expenses.md",
        "reference": "Meal expenses are capped at 40 EUR per day.",
    },
    {
        "id": "travel",
        "question": "How quickly are travel expenses reimbursed?",
        "doc": "expenses.md",
        "reference": "Travel expenses are reimbursed within 14 days of submission.",
    },
    {"id": "capital", "question": "What is the capital of France?", "refuse": True},
    {"id": "weather", "question": "Will it rain in Lisbon tomorrow?", "refuse": True},
]
BROKEN_500 = "laptops"  # always 500 with an HTML page echoing the headers
BROKEN_JSON = "travel"  # always a 200 with truncated JSON
FLAKY = "remote"  # 500 once, then the right answer
ECHO = "meals"  # a good answer whose contexts echo the Authorization header back


def _load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "example_http_service_cli", REPO / "examples" / "http_service.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EXAMPLE = _load_example()


def _write_golden(path: Path) -> Path:
    lines = []
    for case in CASES:
        if case.get("refuse"):
            row = {"case_type": "refusal", "expected": {"refuse": True}}
        else:
            row = {
                "case_type": "narrative",
                "expected": {"narrative_doc": case["doc"], "reference_answer": case["reference"]},
            }
        lines.append(json.dumps({"id": case["id"], "question": case["question"], **row}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# --------------------------------------------------------------------------- services


def _serve(server: ThreadingHTTPServer) -> Iterator[str]:
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/answer"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def healthy_url() -> Iterator[str]:
    """The example service, requiring the bearer token."""
    yield from _serve(EXAMPLE.make_server(token=TOKEN))


class _FaultyServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _FaultyHandler)
        self.lock = threading.Lock()
        self.attempts: Counter[str] = Counter()
        self.auth_seen: set[str] = set()


class _FaultyHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _FaultyServer

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        case_id = request["id"]
        with self.server.lock:
            self.server.attempts[case_id] += 1
            attempt = self.server.attempts[case_id]
            self.server.auth_seen.add(self.headers.get("Authorization", ""))
        if case_id == BROKEN_500 or (case_id == FLAKY and attempt == 1):
            dump = "".join(f"<li>{k}: {v}</li>" for k, v in self.headers.items())
            self._send(500, f"<html><h1>Internal error</h1><ul>{dump}</ul></html>", "text/html")
        elif case_id == BROKEN_JSON:
            self._send(200, json.dumps(EXAMPLE.answer(request))[:25], "application/json")
        else:
            outcome = EXAMPLE.answer(request)
            if case_id == ECHO:
                outcome["contexts"].append(f"debug: Authorization={self.headers['Authorization']}")
            self._send(200, json.dumps(outcome), "application/json")

    def _send(self, status: int, text: str, content_type: str) -> None:
        body = text.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def faulty() -> Iterator[tuple[_FaultyServer, str]]:
    server = _FaultyServer()
    for url in _serve(server):
        yield server, url


# --------------------------------------------------------------------------- helpers


class _Run:
    def __init__(self, code: int, out: str, err: str, report_path: Path) -> None:
        self.code, self.out, self.err = code, out, err
        self.report_text = report_path.read_text(encoding="utf-8")
        self.report: dict[str, Any] = json.loads(self.report_text)


@pytest.fixture
def golden(tmp_path: Path) -> Path:
    return _write_golden(tmp_path / "golden.jsonl")


@pytest.fixture
def auth_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(HEADERS_ENV, json.dumps({"Authorization": AUTH}))


def _cli(
    capsys: pytest.CaptureFixture[str], report: Path, *args: str, system: str = "http"
) -> _Run:
    code = cli.main(["--system", system, "--report", str(report), *args])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return _Run(code, out, err, report)


def _http(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, url: str, golden: Path, *args: str
) -> _Run:
    report = tmp_path / f"report-{len(list(tmp_path.glob('report-*')))}.json"
    return _cli(
        capsys,
        report,
        "--endpoint",
        url,
        "--golden",
        str(golden),
        "--mode",
        "svc",
        "--concurrency",
        "4",
        "--timeout",
        "5",
        *args,
    )


def _assert_no_secret(run: _Run, *files: Path) -> None:
    for where, text in [("stdout", run.out), ("stderr", run.err), ("report", run.report_text)]:
        assert TOKEN not in text, where
    for path in files:
        assert TOKEN not in path.read_text(encoding="utf-8"), path.name


# --------------------------------------------------------------------------- healthy service


def test_a_healthy_service_passes_and_its_stats_are_reported(
    healthy_url: str,
    golden: Path,
    auth_env: None,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    baseline = tmp_path / "baseline.json"
    first = _http(capsys, tmp_path, healthy_url, golden, "--baseline", str(baseline))
    assert (first.code, first.report["verdict"]) == (0, "pass")
    assert first.report["baseline"]["status"] == "created"
    again = _http(capsys, tmp_path, healthy_url, golden, "--baseline", str(baseline))
    assert (again.code, again.report["verdict"], again.report["baseline"]["status"]) == (
        0,
        "pass",
        "pass",
    )
    qa = again.report["qa"]
    assert qa["system"] == "http" and qa["n_cases"] == len(CASES)
    assert qa["errors"] == {"count": 0, "rate": 0.0, "cases": []}
    for gate in ("citation_validity", "faithfulness", "answer_accuracy", "refusal_appropriateness"):
        metric = qa["metrics"][gate]
        assert metric["passed"] == metric["total"] > 0, gate
    assert qa["fabrication_count"] == 0
    assert qa["retrieval"]["overall"]["hit@1"] == 1.0
    stats = qa["system_stats"]
    assert stats["requests"] == stats["attempts"] == len(CASES)
    latency = stats["latency_ms"]
    assert 0 < latency["p50"] <= latency["p95"] <= latency["max"]
    assert stats["wall_s"] > 0
    # The service only answers with the right token: passing proves it was sent.
    _assert_no_secret(again, baseline)


def test_saved_outcomes_score_identically_offline(
    healthy_url: str,
    golden: Path,
    auth_env: None,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    saved = tmp_path / "outcomes.jsonl"
    baseline = tmp_path / "baseline.json"
    online = _http(
        capsys,
        tmp_path,
        healthy_url,
        golden,
        "--save-outcomes",
        str(saved),
        "--baseline",
        str(baseline),
    )
    assert online.code == 0
    assert [json.loads(line)["id"] for line in saved.read_text().splitlines()] == [
        c["id"] for c in CASES
    ]
    offline = _cli(
        capsys,
        tmp_path / "offline.json",
        "--outcomes",
        str(saved),
        "--golden",
        str(golden),
        "--mode",
        "svc",
        "--baseline",
        str(baseline),
        system="outcomes",
    )
    assert (offline.code, offline.report["verdict"]) == (0, "pass")
    assert offline.report["baseline"]["status"] == "pass"
    assert offline.report["baseline"]["regressions"] == []
    a, b = online.report["qa"], offline.report["qa"]
    for key in ("metrics", "retrieval", "fabrication", "errors", "attribution", "cases"):
        assert a[key] == b[key], key
    assert b["system"] == "outcomes" and b["system_stats"] == {}
    _assert_no_secret(online, saved)


def test_a_headers_file_authenticates_and_is_never_shown(
    healthy_url: str,
    golden: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(HEADERS_ENV, raising=False)
    headers = tmp_path / "headers.txt"
    headers.write_text(f"# auth for the service\nAuthorization: {AUTH}\n", encoding="utf-8")
    saved = tmp_path / "outcomes.jsonl"
    run = _http(
        capsys,
        tmp_path,
        healthy_url,
        golden,
        "--headers-file",
        str(headers),
        "--save-outcomes",
        str(saved),
        "--no-baseline",
    )
    assert (run.code, run.report["qa"]["errors"]["count"]) == (0, 0)
    _assert_no_secret(run, saved)


def test_without_the_token_every_case_is_an_error_not_a_quality_verdict(
    healthy_url: str,
    golden: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(HEADERS_ENV, raising=False)
    run = _http(capsys, tmp_path, healthy_url, golden, "--no-baseline")
    assert (run.code, run.report["verdict"], run.report["exit_code"]) == (2, "error", 2)
    errors = run.report["qa"]["errors"]
    assert errors["count"] == len(CASES) and errors["rate"] == 1.0
    assert all(e["error"].startswith("HTTP 401") for e in errors["cases"])
    assert run.report["qa"]["attribution"]["error"] == len(CASES)


def test_an_outage_prints_its_reason_once_with_the_count_and_first_ids(
    healthy_url: str,
    golden: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """docs/http.md's demo without the token: every request is the same 401. The report
    on the terminal says it once, with how many cases and which, not once per case (nor
    again in warnings and the baseline line); the one error line on stderr ends it."""
    monkeypatch.delenv(HEADERS_ENV, raising=False)
    run = _http(capsys, tmp_path, healthy_url, golden, "--no-baseline")
    assert run.code == 2
    reason = "HTTP 401: Unauthorized: missing or wrong bearer token; 1 attempt"
    assert run.out.count("missing or wrong bearer token") == 1, run.out
    first = ", ".join(c["id"] for c in CASES[:5])
    assert f"  {len(CASES)} cases ({first}, …): {reason}" in run.out.splitlines()
    assert f"Errors ({len(CASES)} cases):" in run.out
    # Each case is still listed as failing by an error, without repeating the reason.
    assert all(f"  {c['id']}  [error]" in run.out for c in CASES)
    # The baseline line still says why nothing was compared: the budget, not the reasons.
    assert (
        f"Baseline: none — not compared: {len(CASES)} of {len(CASES)} cases ended in an "
        "error; error rate 100.0% > --max-error-rate 0.0%: not a quality verdict"
    ) in run.out
    [error] = run.err.strip().splitlines()
    assert error.startswith(f"ragspine-eval: error: {len(CASES)} of {len(CASES)} cases ended")
    assert reason in error


def test_distinct_error_reasons_are_each_listed_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two reasons over three cases: one line per reason, the single case by its id."""
    golden = _write_golden(tmp_path / "golden.jsonl")
    rows = [{"id": c["id"], "error": "upstream 503"} for c in CASES[:2]]
    rows.append({"id": CASES[2]["id"], "error": "timeout after 30 s"})
    outcomes = tmp_path / "outcomes.jsonl"
    outcomes.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    run = _cli(
        capsys,
        tmp_path / "report.json",
        "--golden",
        str(golden),
        "--outcomes",
        str(outcomes),
        "--mode",
        "svc",
        "--max-error-rate",
        "1",
        system="outcomes",
    )
    lines = run.out.splitlines()
    start = lines.index(f"Errors ({len(CASES)} cases, 3 reasons):")
    assert lines[start + 1 : start + 4] == [
        f"  2 cases ({CASES[0]['id']}, {CASES[1]['id']}): upstream 503",
        f"  {CASES[2]['id']}: timeout after 30 s",
        f"  {len(CASES) - 3} cases ({', '.join(c['id'] for c in CASES[3:8])}): "
        "no outcome for this case",
    ]
    assert run.out.count("upstream 503") == 1 and run.out.count("timeout after 30 s") == 1


def test_the_readme_http_snippet_runs_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A user pastes the README's HTTP snippet into an empty directory: it writes the
    golden set it reads (no file only docs/http.md defines) and the run gates: exit 0,
    baseline created, every case passing."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Gating your own RAG service over HTTP") :]
    start = section.index("```sh\n") + len("```sh\n")
    block = section[start : section.index("```", start)]
    heredoc = re.search(r"cat > (\S+) <<'EOF'\n(.*?)\nEOF\n", block, re.DOTALL)
    assert heredoc is not None, block
    command = block[heredoc.end() :].replace("\\\n", " ").split()
    assert command[0] == "ragspine-eval" and "--golden" in command
    assert command[command.index("--golden") + 1] == heredoc.group(1)
    monkeypatch.chdir(tmp_path)
    (tmp_path / heredoc.group(1)).write_text(heredoc.group(2) + "\n", encoding="utf-8")
    monkeypatch.delenv(HEADERS_ENV, raising=False)
    serving = _serve(EXAMPLE.make_server())  # as started by the snippet: no token
    url = next(serving)
    try:
        argv = [url if a.startswith("http://127.0.0.1:8000") else a for a in command[1:]]
        code = cli.main(["--no-config", *argv, "--report", "report.json", "--quiet"])
    finally:
        serving.close()
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert (code, report["verdict"], report["baseline"]["status"]) == (0, "pass", "created")
    assert report["qa"]["n_cases"] == 2 and report["qa"]["errors"]["count"] == 0
    for name, metric in report["qa"]["metrics"].items():
        assert metric["passed"] == metric["total"], name


# --------------------------------------------------------------------------- faulty service


def test_failed_cases_are_errors_with_reasons_and_retried_cases_pass(
    faulty: tuple[_FaultyServer, str],
    golden: Path,
    auth_env: None,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    server, url = faulty
    saved = tmp_path / "outcomes.jsonl"
    run = _http(
        capsys,
        tmp_path,
        url,
        golden,
        "--retries",
        "1",
        "--max-error-rate",
        "0.25",
        "--save-outcomes",
        str(saved),
        "--no-baseline",
    )
    qa = run.report["qa"]
    errors = {e["id"]: e["error"] for e in qa["errors"]["cases"]}
    assert set(errors) == {BROKEN_500, BROKEN_JSON}
    assert (qa["errors"]["count"], qa["errors"]["rate"]) == (2, 0.25)
    assert errors[BROKEN_500].startswith("HTTP 500") and "2 attempts" in errors[BROKEN_500]
    assert "JSON" in errors[BROKEN_JSON]
    # Every case is accounted for: errors and answers together are the golden set.
    cases = {c["id"]: c for c in qa["cases"]}
    assert set(cases) == {c["id"] for c in CASES}
    assert cases[FLAKY]["passed"] and cases[FLAKY]["error"] is None
    assert server.attempts[FLAKY] == 2 and server.attempts["leave"] == 1
    for case_id in errors:
        assert cases[case_id]["attribution"] == "error"
        assert not any(cases[case_id]["gates"].values())
    assert qa["attribution"]["error"] == 2
    # One retry each for the flaky case and the 500; a 200 with bad JSON is not retried.
    assert qa["system_stats"]["attempts"] == len(CASES) + 2
    assert server.auth_seen == {AUTH}
    # The echoed Authorization header is scrubbed from the outcome, which still passes.
    assert cases[ECHO]["passed"]
    echoed = [json.loads(line) for line in saved.read_text().splitlines()]
    contexts = next(o["contexts"] for o in echoed if o["id"] == ECHO)
    assert "debug: Authorization=[redacted]" in contexts
    saved_ids = [json.loads(line)["id"] for line in saved.read_text().splitlines()]
    assert sorted(saved_ids) == sorted(c["id"] for c in CASES)
    _assert_no_secret(run, saved)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("max_rate", "code", "verdict"),
    [
        ("0", 2, "error"),  # the default: any error is an outage
        ("0.2", 2, "error"),  # 2/8 = 0.25 is above
        ("0.25", 1, "fail"),  # at the limit: gated normally, and the errors regress
        ("0.5", 1, "fail"),
    ],
)
def test_max_error_rate_decides_between_outage_and_regression(
    max_rate: str,
    code: int,
    verdict: str,
    faulty: tuple[_FaultyServer, str],
    healthy_url: str,
    golden: Path,
    auth_env: None,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    baseline = tmp_path / "baseline.json"
    assert _http(capsys, tmp_path, healthy_url, golden, "--baseline", str(baseline)).code == 0
    recorded = baseline.read_bytes()
    _, url = faulty
    run = _http(
        capsys,
        tmp_path,
        url,
        golden,
        "--retries",
        "1",
        "--max-error-rate",
        max_rate,
        "--baseline",
        str(baseline),
    )
    assert (run.code, run.report["verdict"], run.report["exit_code"]) == (code, verdict, code)
    assert run.report["qa"]["errors"]["count"] == 2
    if verdict == "error":
        assert any("--max-error-rate" in w for w in run.report["warnings"])
        assert "ERROR" in run.out
    else:
        assert run.report["baseline"]["status"] == "regression"
        broken = {(b["id"], b["metric"]) for b in run.report["baseline"]["broken"]}
        assert (BROKEN_500, "citation_validity") in broken
    assert baseline.read_bytes() == recorded
    _assert_no_secret(run, baseline)


def test_an_outage_never_creates_or_updates_a_baseline(
    faulty: tuple[_FaultyServer, str],
    golden: Path,
    auth_env: None,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, url = faulty
    baseline = tmp_path / "baseline.json"
    run = _http(capsys, tmp_path, url, golden, "--retries", "0", "--baseline", str(baseline))
    assert (run.code, run.report["verdict"]) == (2, "error")
    assert not baseline.exists(), "a baseline recorded from an outage would lock in its errors"
    update = _http(
        capsys,
        tmp_path,
        url,
        golden,
        "--retries",
        "0",
        "--baseline",
        str(baseline),
        "--update-baseline",
    )
    assert (update.code, update.report["verdict"]) == (2, "error")
    assert not baseline.exists()


def test_progress_bar_on_a_terminal_and_silence_in_a_pipe(
    healthy_url: str,
    golden: Path,
    tmp_path: Path,
    run_cli_on_a_tty: Callable[..., tuple[int, str, str]],
) -> None:
    """The real CLI in a child process: stderr on a pseudo-terminal shows the live bar
    (redrawn with carriage returns); the same run with stderr in a pipe prints no
    progress at all — a CI log gets the report and nothing else."""
    env = {HEADERS_ENV: json.dumps({"Authorization": AUTH})}
    args = ["--system", "http", "--endpoint", healthy_url, "--golden", str(golden)]
    args += ["--mode", "svc", "--concurrency", "2", "--report", str(tmp_path / "r.json")]
    code, _, tty_err = run_cli_on_a_tty(args, tty=True, env=env)
    assert code == 0, tty_err
    assert "\rhttp [" in tty_err and f"{len(CASES)}/{len(CASES)} 100%" in tty_err
    code, piped_out, piped_err = run_cli_on_a_tty(args, tty=False, env=env)
    assert code == 0, piped_err
    assert "http" not in piped_err and "\r" not in piped_err, piped_err
    assert "\r" not in piped_out and "http [" not in piped_out
    assert piped_out.strip().splitlines()[-1].startswith("ragspine-eval: PASS")

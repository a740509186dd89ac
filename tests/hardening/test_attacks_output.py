"""Round-2 attacks on what leaves the process: logs, comments, secrets, the HTTP client.

Each test is written as the attack (findings 1, 4, 5, 11, 14, 15 and 19 of issue 17): a
hostile golden set, endpoint or credential, then a check that the CLI and the action end
in a clear error or a correct verdict with nothing injected, leaked, hung or crashed.
"""

from __future__ import annotations

import base64
import io
import json
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from github_fakes import FakeGitHub
from hardening_support import MINI_GOLDEN, MINI_OUTCOMES, assert_clean_error, fuzz_settings, run_cli
from hypothesis import given
from hypothesis import strategies as st
from runner_view import executed_commands, log_directives

from ragspine_action.action import main as action_main
from ragspine_action.safe_text import comment_safe, log_safe

MARK = "pwned"
HOSTILE_IDS = [
    f"a\n::error::{MARK}-1",
    f"::add-mask::{MARK}",
    "::stop-commands::ragspine",
    f"b\r::warning::{MARK}-2",
    f"##[group]{MARK}",
    f"c\u2028::error::{MARK}-3",
    f"  ::notice::{MARK}-4",
    f"x ##[error]{MARK}-5",
]
HIDDEN = ["\u061c", "\u200e", "\u200f", "\u202a", "\u202e", "\u2066", "\u2069", "\U000e0041"]
HIDDEN_IDS = [f"d{c}i{c}" for c in HIDDEN]
OUR_COMMANDS = {"error", "warning", "notice", "add-mask"}


def assert_nothing_injected(text: str) -> None:
    """Every command the runner would execute is ours: an injected one would carry the
    attack's text as its message or mask (ours may quote an id, escaped, mid-message)."""
    for command in executed_commands(text):
        assert command.name in OUR_COMMANDS, command
        assert not command.message.startswith(MARK), command
        assert not (command.name == "add-mask" and MARK in command.message), command
    assert log_directives(text) == []


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").split("\n") if line.strip()]


def _write(path: Path, rows: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")


def _hostile_inputs(directory: Path, ids: list[str]) -> tuple[Path, Path]:
    """The mini golden set and matching outcomes with the case ids replaced."""
    golden, outcomes = _rows(MINI_GOLDEN), _rows(MINI_OUTCOMES)
    mapping = {g["id"]: ids[i % len(ids)] + f"-{i}" for i, g in enumerate(golden)}
    for row in golden + outcomes:
        row["id"] = mapping[row["id"]]
    _write(directory / "golden.jsonl", golden)
    _write(directory / "outcomes.jsonl", outcomes)
    return directory / "golden.jsonl", directory / "outcomes.jsonl"


def _break_all(outcomes: Path) -> None:
    rows = _rows(outcomes)
    for row in rows:
        row.update(answer="no idea", value=None, unit=None, source=None, sources=[])
        row.update(refused=not row.get("refused"))
    _write(outcomes, rows)


@pytest.mark.parametrize("ids", [HOSTILE_IDS, HIDDEN_IDS], ids=["commands", "hidden"])
def test_cli_prints_hostile_case_ids_inert(tmp_path: Path, ids: list[str]) -> None:
    golden, outcomes = _hostile_inputs(tmp_path, ids)
    base = ["--system", "outcomes", "--golden", str(golden), "--outcomes", str(outcomes)]
    base += ["--mode", "m"]
    baseline = ["--baseline", str(tmp_path / "baseline.json")]
    assert run_cli([*base, *baseline]).code == 0
    _break_all(outcomes)
    result = run_cli([*base, *baseline])
    assert result.code == 1, result.stderr
    assert "Broken cases" in result.stdout  # the ids were printed, inertly
    for stream in (result.stdout, result.stderr):
        assert_nothing_injected(stream)
        assert not any(c in stream for c in HIDDEN)


def test_cli_error_lines_with_hostile_ids_are_inert(tmp_path: Path) -> None:
    golden, outcomes = _hostile_inputs(tmp_path, HOSTILE_IDS)
    rows = _rows(golden)
    for row in rows:
        row["case_type"] = "bogus"
    _write(golden, rows)
    result = run_cli(
        [
            "--system",
            "outcomes",
            "--golden",
            str(golden),
            "--outcomes",
            str(outcomes),
            "--mode",
            "m",
        ]
    )
    assert_clean_error(result, golden)
    assert_nothing_injected(result.stderr)
    assert "%3A" in result.stderr  # the id is shown, neutralised, not dropped


def _pr_env(tmp_path: Path, ws: Path, github: FakeGitHub) -> dict[str, str]:
    event = tmp_path / "event.json"
    pr = {
        "number": 3,
        "base": {"sha": "b" * 40, "ref": "main", "repo": {"full_name": "acme/rag"}},
        "head": {"sha": "c" * 40, "ref": "f", "repo": {"full_name": "acme/rag"}},
    }
    event.write_text(json.dumps({"number": 3, "pull_request": pr}), encoding="utf-8")
    return {
        "GITHUB_ACTIONS": "true",
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_REPOSITORY": "acme/rag",
        "GITHUB_API_URL": github.url,
        "GITHUB_SERVER_URL": "https://github.example",
        "GITHUB_RUN_ID": "5",
        "GITHUB_WORKSPACE": str(ws),
        "GITHUB_OUTPUT": str(tmp_path / "output.txt"),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "INPUT_SYSTEM": "outcomes",
        "INPUT_GOLDEN": "golden.jsonl",
        "INPUT_OUTCOMES": "outcomes.jsonl",
        "INPUT_BASELINE": "baseline.json",
        "INPUT_MODE": "m",
        "INPUT_COMMENT": "always",
        "INPUT_GITHUB-TOKEN": "ghs_attack_token_123456",
        "INPUT_BASELINE-MISSING": "create",  # no git history here: the guard is tested apart
    }


@pytest.mark.parametrize("ids", [HOSTILE_IDS, HIDDEN_IDS], ids=["commands", "hidden"])
def test_action_log_comment_and_summary_stay_inert(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ids: list[str]
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    golden, outcomes = _hostile_inputs(ws, ids)
    assert run_cli(["--system", "outcomes", "--golden", str(golden), "--outcomes",
                    str(outcomes), "--mode", "m",
                    "--baseline", str(ws / "baseline.json")]).code == 0  # fmt: skip
    _break_all(outcomes)
    monkeypatch.chdir(ws)
    with FakeGitHub() as github:
        github.add_token("ghs_attack_token_123456", "github-actions[bot]", user_type="Bot")
        log = io.StringIO()
        code = action_main(_pr_env(tmp_path, ws, github), log, sleep=lambda _s: None)
        comments = github.comments_on("acme", "rag", 3)
    text = log.getvalue()
    assert code == 1, text
    assert_nothing_injected(text)
    # The gate's own annotations are not silenced by a stop-commands in an id.
    errors = [c for c in executed_commands(text) if c.name == "error"]
    assert any("broke" in c.message for c in errors), text
    bodies = [c["body"] for c in comments] + [(tmp_path / "summary.md").read_text("utf-8")]
    assert comments
    for body in bodies:
        for char in HIDDEN:
            assert char not in body, (repr(char), body[:2000])
        assert not any(0xE0000 <= ord(c) <= 0xE007F for c in body)


@fuzz_settings(300)
@given(st.text(alphabet=st.characters(codec=None), max_size=60))
def test_log_safe_never_yields_a_command_or_hidden_character(text: str) -> None:
    shown = log_safe(text)
    assert_nothing_injected("\n".join(["::error::ours", shown, shown + shown]))
    assert executed_commands(shown) == [] and "##[" not in shown
    shown.encode("utf-8")  # no lone surrogate reaches a strict stream
    assert not any(c in shown for c in [*HIDDEN, "\r", "\x1b", "\x00"])


@fuzz_settings(200)
@given(st.text(max_size=60))
def test_comment_safe_removes_bidi_and_tags_only(text: str) -> None:
    cleaned = comment_safe(text)
    assert not any(c in cleaned for c in HIDDEN)
    assert [c for c in text if c in "\n\t" or c.isalnum()] == [
        c for c in cleaned if c in "\n\t" or c.isalnum()
    ]


# ----------------------------------------------------------------- hostile endpoints


class _Server:
    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def port(self) -> int:
        return int(self.httpd.server_port)

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server_factory() -> Iterator[Any]:
    started: list[_Server] = []

    def start(handler: type[BaseHTTPRequestHandler]) -> _Server:
        started.append(_Server(handler))
        return started[-1]

    yield start
    for server in started:
        server.close()


SECRET_KEY = "K" + "9f3a7c2e" * 7 + "Zq8Wx1"  # 63 characters, like an API key


def _secret_prefixes(text: str) -> list[str]:
    return [SECRET_KEY[:n] for n in range(8, len(SECRET_KEY) + 1) if SECRET_KEY[:n] in text]


@pytest.mark.parametrize("offset", [0, 140, 150, 160, 190, 196, 199])
def test_secret_echoed_in_an_error_body_is_not_cut_into_a_leaking_prefix(
    tmp_path: Path, server_factory: Any, monkeypatch: pytest.MonkeyPatch, offset: int
) -> None:
    class Echo(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            key = self.headers.get("X-Api-Key", "")
            body = json.dumps({"error": "x" * offset + f" bad key {key} " + "y" * 50}).encode()
            self.send_response(401)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = server_factory(Echo)
    monkeypatch.setenv("RAGSPINE_HTTP_HEADERS", json.dumps({"X-Api-Key": SECRET_KEY}))
    report, saved = tmp_path / "r.json", tmp_path / "o.jsonl"
    result = run_cli(["--system", "http", "--endpoint", f"http://127.0.0.1:{server.port}/", "--golden",
                      str(MINI_GOLDEN), "--mode", "m", "--no-baseline", "--retries", "0",
                      "--max-error-rate", "1", "--report", str(report), "--save-outcomes",
                      str(saved)])  # fmt: skip
    assert result.code in (0, 1), result.stderr
    for text in (result.stdout, result.stderr, report.read_text(), saved.read_text()):
        assert _secret_prefixes(text) == []
    if offset <= 150:
        assert "[redacted]" in saved.read_text()


def test_slow_loris_ends_at_the_whole_response_deadline(
    tmp_path: Path, server_factory: Any
) -> None:
    stop = threading.Event()

    class Drip(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n")
            self.wfile.flush()
            while not stop.is_set():  # one header byte well inside every read timeout
                try:
                    self.wfile.write(b"X")
                    self.wfile.flush()
                except OSError:
                    return
                stop.wait(0.3)

        def log_message(self, *args: Any) -> None:
            pass

    server = server_factory(Drip)
    golden = tmp_path / "g.jsonl"
    golden.write_text(MINI_GOLDEN.read_text().splitlines()[0] + "\n")
    report = tmp_path / "r.json"
    started = time.monotonic()
    try:
        result = run_cli(["--system", "http", "--endpoint", f"http://127.0.0.1:{server.port}/", "--golden",
                          str(golden), "--mode", "m", "--no-baseline", "--timeout", "1",
                          "--retries", "0", "--report", str(report)])  # fmt: skip
    finally:
        stop.set()
    elapsed = time.monotonic() - started
    assert elapsed < 20, elapsed  # without a whole-response deadline this never ends
    assert result.code == 2, result.stderr  # all cases errored: above the error budget
    case = json.loads(report.read_text())["qa"]["errors"]
    assert "timeout" in json.dumps(case)


def test_slow_body_ends_at_the_deadline(tmp_path: Path, server_factory: Any) -> None:
    stop = threading.Event()

    class DripBody(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            self.wfile.write(b'{"answer": "')
            while not stop.is_set():
                try:
                    self.wfile.write(b"a")
                    self.wfile.flush()
                except OSError:
                    return
                stop.wait(0.2)

        def log_message(self, *args: Any) -> None:
            pass

    server = server_factory(DripBody)
    golden = tmp_path / "g.jsonl"
    golden.write_text(MINI_GOLDEN.read_text().splitlines()[0] + "\n")
    started = time.monotonic()
    try:
        result = run_cli(["--system", "http", "--endpoint", f"http://127.0.0.1:{server.port}/", "--golden",
                          str(golden), "--mode", "m", "--no-baseline", "--timeout", "1",
                          "--retries", "0", "--max-error-rate", "1"])  # fmt: skip
    finally:
        stop.set()
    assert time.monotonic() - started < 20
    assert result.code in (0, 1), result.stderr
    assert "error" in result.stdout


def test_raw_surrogate_bytes_from_the_endpoint_become_an_error_outcome(
    tmp_path: Path, server_factory: Any
) -> None:
    class Surrogates(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            body = b'{"answer": "bad \xed\xa0\x80 text", "contexts": ["\xed\xb0\x80"]}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = server_factory(Surrogates)
    report, saved = tmp_path / "r.json", tmp_path / "o.jsonl"
    result = run_cli(["--system", "http", "--endpoint", f"http://127.0.0.1:{server.port}/", "--golden",
                      str(MINI_GOLDEN), "--mode", "m", "--no-baseline", "--retries", "0",
                      "--max-error-rate", "1", "--report", str(report), "--save-outcomes",
                      str(saved)])  # fmt: skip
    assert result.code in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    report.read_text(encoding="utf-8")
    assert "not valid UTF-8" in saved.read_text(encoding="utf-8")


def test_endpoint_userinfo_is_sent_as_basic_auth_and_never_printed(
    tmp_path: Path, server_factory: Any
) -> None:
    seen: list[str] = []

    class Auth(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            seen.append(self.headers.get("Authorization", ""))
            body = json.dumps({"answer": f"you sent {self.headers.get('Authorization')}"})
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body.encode())

        def log_message(self, *args: Any) -> None:
            pass

    server = server_factory(Auth)
    password = "p@ss:w0rd-9912"
    url = f"http://svc-user:p%40ss%3Aw0rd-9912@127.0.0.1:{server.port}/rag"
    report = tmp_path / "r.json"
    result = run_cli(["--system", "http", "--endpoint", url, "--golden", str(MINI_GOLDEN), "--mode", "m",
                      "--no-baseline", "--retries", "0", "--max-error-rate", "1",
                      "--report", str(report)])  # fmt: skip
    assert result.code in (0, 1), result.stderr
    expected = "Basic " + base64.b64encode(f"svc-user:{password}".encode()).decode()
    assert seen and set(seen) == {expected}
    for text in (result.stdout, result.stderr, report.read_text()):
        for secret in (password, "p%40ss%3Aw0rd-9912", expected.split()[1]):
            assert secret not in text


@pytest.mark.parametrize(
    "endpoint", ["http://[::1", "http://[::1]:99999/x", "http://h:port/", "http://[zz]/"]
)
def test_unparsable_endpoints_are_one_line_errors(endpoint: str) -> None:
    result = run_cli(
        ["--system", "http", "--endpoint", endpoint, "--golden", str(MINI_GOLDEN), "--mode", "m"]
    )
    assert_clean_error(result)
    assert len(result.stderr.strip().splitlines()) == 1


def test_connection_refused_is_an_error_outcome_not_a_hang(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    golden = tmp_path / "g.jsonl"
    shutil.copy(MINI_GOLDEN, golden)
    result = run_cli(["--system", "http", "--endpoint", f"http://127.0.0.1:{port}/", "--golden", str(golden),
                      "--mode", "m", "--no-baseline", "--retries", "0"])  # fmt: skip
    assert result.code == 2 and "Traceback" not in result.stderr


@fuzz_settings(40)
@given(st.text(min_size=1, max_size=40).filter(lambda s: s.strip() == s and s.strip()))
def test_any_case_id_reaches_the_log_inert(
    tmp_path_factory: pytest.TempPathFactory, case_id: str
) -> None:
    """The class, not the examples: whatever an id holds, stdout and stderr of a failing
    input (the id in an error line) and of an unknown outcome id stay inert."""
    root = tmp_path_factory.mktemp("ids")
    golden, outcomes = root / "golden.jsonl", root / "outcomes.jsonl"
    bad = {"id": case_id, "question": "q", "case_type": "bogus"}
    golden.write_text(MINI_GOLDEN.read_text() + json.dumps(bad) + "\n", "utf-8")
    extra = {"id": case_id + "-x", "answer": "a"}
    outcomes.write_text(MINI_OUTCOMES.read_text() + json.dumps(extra) + "\n", "utf-8")
    args = ["--system", "outcomes", "--mode", "m", "--no-baseline", "--outcomes", str(outcomes)]
    for golden_path in (golden, MINI_GOLDEN):
        result = run_cli([*args, "--golden", str(golden_path)])
        assert "Traceback" not in result.stderr
        for stream in (result.stdout, result.stderr):
            assert_nothing_injected(stream)
            assert not any(c in stream for c in [*HIDDEN, "\r"])

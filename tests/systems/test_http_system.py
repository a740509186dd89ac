"""The ``http`` system against real loopback services: faults, secrets, concurrency."""

from __future__ import annotations

import importlib.util
import io
import json
import logging
import random
import socket
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ragspine_action.errors import ConfigError, InputError
from ragspine_action.golden.models import GoldenCase
from ragspine_action.outcomes import Outcome, load_outcomes
from ragspine_action.outcomes.save import save_outcomes
from ragspine_action.systems.base import Collection
from ragspine_action.systems.http import (
    HEADERS_ENV,
    HttpSettings,
    HttpSystem,
    TokenBucket,
    backoff_delay,
    error_rate,
    load_headers,
    parse_retry_after,
)
from ragspine_action.systems.http_progress import Progress, format_duration

SECRET_TOKEN = "tok-SECRET-9f8e7d6c5b4a"
SECRET_HEADER = f"Bearer {SECRET_TOKEN}"
REPO = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------- servers


class _RecordingServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128

    def __init__(self, behave: Callable[[_Handler, dict[str, Any], int], None]) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.behave = behave
        self.lock = threading.Lock()
        self.attempts: Counter[str] = Counter()
        self.times: dict[str, list[float]] = {}
        self.auth_seen: set[str] = set()
        self.connections: set[tuple[str, int]] = set()
        self.in_flight = 0
        self.max_in_flight = 0
        self.release = threading.Event()  # frees handlers that simulate a hung service

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/answer"


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: _RecordingServer

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        request = json.loads(raw)
        srv = self.server
        with srv.lock:
            srv.attempts[request["id"]] += 1
            attempt = srv.attempts[request["id"]]
            srv.times.setdefault(request["id"], []).append(time.monotonic())
            srv.auth_seen.add(self.headers.get("Authorization", ""))
            srv.connections.add(self.client_address[:2])
            srv.in_flight += 1
            srv.max_in_flight = max(srv.max_in_flight, srv.in_flight)
        try:
            srv.behave(self, request, attempt)
        finally:
            with srv.lock:
                srv.in_flight -= 1

    def send_body(
        self,
        status: int,
        body: bytes | str,
        content_type: str = "application/json",
        extra: dict[str, str] | None = None,
    ) -> None:
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def send_json(self, obj: Any, status: int = 200) -> None:
        self.send_body(status, json.dumps(obj))

    def drop(self) -> None:
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_RDWR)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _serve(behave: Callable[[_Handler, dict[str, Any], int], None]) -> Iterator[_RecordingServer]:
    server = _RecordingServer(behave)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.release.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def _good(request: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": request["id"],
        "answer": f"answer to {request['question']} [kb.md]",
        "sources": [{"doc": "kb.md", "locator": "p1"}, "other.md"],
        "contexts": ["some passage"],
    }


def _faulty(handler: _Handler, request: dict[str, Any], attempt: int) -> None:
    """Behaviour chosen by case id; see FAULT_CASES."""
    case_id = request["id"]
    auth = handler.headers.get("Authorization", "")
    if (case_id == "drop-once" and attempt == 1) or case_id == "drop-always":
        handler.drop()
    elif case_id == "hang":
        handler.server.release.wait(3)
        handler.send_json(_good(request))
    elif case_id == "500-then-ok" and attempt == 1:
        handler.send_body(500, "<html>boom</html>", "text/html")
    elif case_id == "429-then-ok" and attempt == 1:
        handler.send_json({"error": "slow down"}, status=429)
    elif case_id == "503-always":
        handler.send_body(503, f"overloaded; you sent {auth}", "text/plain")
    elif case_id == "404":
        handler.send_json({"error": f"no route for token {auth.split()[-1]}"}, status=404)
    elif case_id == "html":
        handler.send_body(200, f"<html><body>login page {auth}</body></html>", "text/html")
    elif case_id == "truncated":
        handler.send_body(200, '{"id": "truncated", "answer": "abc')
    elif case_id == "oversize":
        handler.send_json({**_good(request), "answer": "x" * 5000})
    elif case_id == "oversize-chunked":
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Transfer-Encoding", "chunked")
        handler.end_headers()
        payload = json.dumps({**_good(request), "answer": "y" * 5000}).encode()
        for start in range(0, len(payload), 512):
            part = payload[start : start + 512]
            handler.wfile.write(f"{len(part):x}\r\n".encode() + part + b"\r\n")
        handler.wfile.write(b"0\r\n\r\n")
    elif case_id == "short-body":  # promises 100 bytes, sends 20, hangs up
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", "100")
        handler.end_headers()
        handler.wfile.write(b'{"id": "short-body",')
        handler.drop()
    elif case_id == "wrong-id":
        handler.send_json({**_good(request), "id": "someone-else"})
    elif case_id == "bad-types":
        handler.send_json({"id": case_id, "refused": auth, "value": "12", "sources": 5})
    elif case_id == "array":
        handler.send_json([_good(request)])
    elif case_id == "no-id":
        body = _good(request)
        del body["id"]
        handler.send_json(body)
    elif case_id == "echo":
        handler.send_json({**_good(request), "answer": f"your token is {auth}"})
    else:
        handler.send_json(_good(request))


def _faulty_with_retry_after(handler: _Handler, request: dict[str, Any], attempt: int) -> None:
    if request["id"] == "429-then-ok" and attempt == 1:
        handler.send_body(429, '{"error": "slow down"}', extra={"Retry-After": "1"})
    else:
        _faulty(handler, request, attempt)


@pytest.fixture
def fault_server() -> Iterator[_RecordingServer]:
    yield from _serve(_faulty_with_retry_after)


def _case(case_id: str, question: str = "What is the leave policy?", **extra: Any) -> GoldenCase:
    return GoldenCase(id=case_id, question=question, case_type="refusal", **extra)


class _SleepRecorder:
    """Really sleeps (the server sees the gap) and remembers every wait."""

    def __init__(self) -> None:
        self.waits: list[float] = []
        self._lock = threading.Lock()

    def __call__(self, seconds: float) -> None:
        with self._lock:
            self.waits.append(seconds)
        time.sleep(seconds)


def _settings(url: str, **overrides: Any) -> HttpSettings:
    values: dict[str, Any] = {
        "endpoint": url,
        "headers": {"Authorization": SECRET_HEADER},
        "concurrency": 4,
        "timeout_s": 0.5,
        "retries": 2,
        "backoff_base_s": 0.01,
        "backoff_max_s": 0.05,
        "max_response_bytes": 2048,
    }
    values.update(overrides)
    return HttpSettings(**values)


FAULT_CASES = [
    "ok-1",
    "ok-2",
    "no-id",
    "drop-once",
    "drop-always",
    "hang",
    "500-then-ok",
    "429-then-ok",
    "503-always",
    "404",
    "html",
    "truncated",
    "oversize",
    "oversize-chunked",
    "short-body",
    "wrong-id",
    "bad-types",
    "array",
    "echo",
]


@pytest.fixture(scope="module")
def fault_run() -> Iterator[tuple[_RecordingServer, Collection, _SleepRecorder, str]]:
    """One run over every fault, shared by the tests that inspect its results."""
    for server in _serve(_faulty_with_retry_after):
        yield _run_faults(server)


def _run_faults(
    fault_server: _RecordingServer,
) -> tuple[_RecordingServer, Collection, _SleepRecorder, str]:
    sleeper = _SleepRecorder()
    progress_out = io.StringIO()
    system = HttpSystem(
        _settings(fault_server.url),
        rng=random.Random(7),
        sleep=sleeper,
        progress=Progress(progress_out, tty=True),
    )
    collection = system.collect([_case(cid) for cid in FAULT_CASES])
    return fault_server, collection, sleeper, progress_out.getvalue()


# --------------------------------------------------------------------------- fault injection


@pytest.mark.slow
def test_every_case_is_accounted_for_and_retried_cases_pass(
    fault_run: tuple[_RecordingServer, Collection, _SleepRecorder, str],
) -> None:
    server, collection, _, _ = fault_run
    assert list(collection.outcomes) == FAULT_CASES
    assert collection.unknown_ids == []
    passed = {cid for cid, o in collection.outcomes.items() if o.error is None}
    assert passed == {"ok-1", "ok-2", "no-id", "drop-once", "500-then-ok", "429-then-ok", "echo"}
    for cid in ("drop-once", "500-then-ok", "429-then-ok"):
        assert server.attempts[cid] == 2, cid
    good = collection.outcomes["500-then-ok"]
    assert good.ranked_docs() == ["kb.md", "other.md"]
    assert good.latency_ms is not None and good.latency_ms > 0
    assert collection.outcomes["no-id"].id == "no-id"


def test_failures_carry_status_reason_and_attempts(
    fault_run: tuple[_RecordingServer, Collection, _SleepRecorder, str],
) -> None:
    server, collection, _, _ = fault_run
    errors = {cid: o.error for cid, o in collection.outcomes.items() if o.error is not None}
    expected = {
        "drop-always": "connection error: connection closed by the server without a response; 3 attempts",
        "hang": "timeout: no response within 0.5 s; 3 attempts",
        "503-always": "HTTP 503: Service Unavailable: overloaded; you sent [redacted]; 3 attempts",
        "404": "HTTP 404: Not Found: no route for token [redacted]; 1 attempt",
        "html": "HTTP 200: response is not JSON (text/html); 1 attempt",
        "oversize": "HTTP 200: response of 5",  # prefix: the size includes the JSON overhead
        "oversize-chunked": "HTTP 200: response is over the limit of 2048 bytes; 1 attempt",
        "short-body": "connection error: connection closed in the middle of the response; 3 attempts",
        "wrong-id": "HTTP 200: response id 'someone-else' does not match the case id; 1 attempt",
        "array": "HTTP 200: response is an array, not a JSON object; 1 attempt",
    }
    for cid, message in expected.items():
        got = errors.pop(cid)
        assert got is not None and got.startswith(message), (cid, got)
    assert "over the limit of 2048 bytes; 1 attempt" in collection.outcomes["oversize"].error  # type: ignore[operator]
    truncated = errors.pop("truncated")
    assert truncated is not None
    assert truncated.startswith("HTTP 200: response is not valid JSON: Unterminated string")
    bad = errors.pop("bad-types")
    assert bad is not None and bad.startswith("HTTP 200: response is not a valid outcome: ")
    for field in ("refused", "value", "sources"):
        assert field in bad
    assert errors == {}
    # Not retried: a client error or a malformed answer will not improve by asking again.
    for cid in ("404", "html", "truncated", "oversize", "wrong-id", "bad-types", "array"):
        assert server.attempts[cid] == 1, cid
    for cid in ("drop-always", "hang", "503-always", "short-body"):
        assert server.attempts[cid] == 3, cid


def test_stats_count_every_attempt(
    fault_run: tuple[_RecordingServer, Collection, _SleepRecorder, str],
) -> None:
    server, collection, _, progress = fault_run
    stats = collection.stats
    assert stats["requests"] == len(FAULT_CASES)
    assert stats["attempts"] == sum(server.attempts.values())
    assert stats["retries"] == stats["attempts"] - len(FAULT_CASES)
    assert stats["errors"] == 12
    assert error_rate(collection) == pytest.approx(12 / len(FAULT_CASES))
    latency = stats["latency_ms"]
    assert 0 < latency["p50"] <= latency["p95"] <= latency["max"]
    assert stats["concurrency"] == 4 and stats["wall_s"] > 0
    last = progress.rstrip("\n").split("\r")[-1]  # the bar's final drawing
    n = len(FAULT_CASES)
    assert last.startswith(f"http [{'#' * 24}] {n}/{n} 100% | 12 errors | "), last


def test_429_retry_after_is_honoured(
    fault_run: tuple[_RecordingServer, Collection, _SleepRecorder, str],
) -> None:
    server, _, sleeper, _ = fault_run
    assert 1.0 in sleeper.waits  # Retry-After: 1 is a floor over the 50 ms jitter ceiling
    first, second = server.times["429-then-ok"]
    assert second - first >= 0.95
    # The other retries used the small jittered backoff, not Retry-After.
    assert all(w <= 0.05 for w in sleeper.waits if w != 1.0)


def test_the_auth_header_is_sent_and_never_shown(
    fault_server: _RecordingServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    settings = _settings(fault_server.url)
    system = HttpSystem(settings, sleep=lambda s: None, progress=Progress(sys.stderr, tty=True))
    print(settings, system)
    collection = system.collect([_case(cid) for cid in FAULT_CASES])
    save_outcomes(tmp_path / "outcomes.jsonl", collection.outcomes.values())
    print(json.dumps(collection.stats))
    assert fault_server.auth_seen == {SECRET_HEADER}

    echoed = collection.outcomes["echo"]
    assert echoed.error is None and echoed.answer == "your token is [redacted]"
    texts = [o.model_dump_json() for o in collection.outcomes.values()]
    texts += [json.dumps(collection.stats), repr(settings), repr(system)]
    texts.append((tmp_path / "outcomes.jsonl").read_text())
    captured = capsys.readouterr()
    texts += [captured.out, captured.err, caplog.text]
    assert "\r" in captured.err  # the live bar did draw
    for text in texts:
        assert SECRET_TOKEN not in text
    assert any("[redacted]" in (o.error or "") for o in collection.outcomes.values())


def test_a_missing_token_is_a_client_error_not_retried(fault_server: _RecordingServer) -> None:
    def needs_auth(handler: _Handler, request: dict[str, Any], attempt: int) -> None:
        handler.send_json({"detail": "unauthorized"}, status=401)

    fault_server.behave = needs_auth
    collection = HttpSystem(_settings(fault_server.url, headers={})).collect([_case("a")])
    assert collection.outcomes["a"].error == "HTTP 401: Unauthorized: unauthorized; 1 attempt"
    assert fault_server.auth_seen == {""}


def test_connection_refused_is_retried_then_an_error() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    sleeper = _SleepRecorder()
    system = HttpSystem(
        _settings(
            f"http://127.0.0.1:{port}/answer?key={SECRET_TOKEN}",
            # A 2-character value is not scrubbed: "on" would mangle "connection".
            headers={"Authorization": SECRET_HEADER, "X-Mode": "on"},
        ),
        sleep=sleeper,
        rng=random.Random(1),
    )
    collection = system.collect([_case("a"), _case("b")])
    for cid in ("a", "b"):
        error = collection.outcomes[cid].error
        assert error == "connection error: connection refused; 3 attempts"
    assert len(sleeper.waits) == 4
    assert collection.stats["attempts"] == 6 and collection.stats["errors"] == 2
    assert collection.stats["latency_ms"] == {"p50": None, "p95": None, "max": None}
    assert error_rate(collection) == 1.0
    assert SECRET_TOKEN not in repr(system)


def test_redirects_are_not_followed(fault_server: _RecordingServer) -> None:
    def redirect(handler: _Handler, request: dict[str, Any], attempt: int) -> None:
        handler.send_body(302, "", extra={"Location": "http://elsewhere.example/x?token=abc"})

    fault_server.behave = redirect
    collection = HttpSystem(_settings(fault_server.url)).collect([_case("a")])
    assert collection.outcomes["a"].error == (
        "HTTP 302: Found: redirect to http://elsewhere.example/x?… not followed (use that URL); "
        "1 attempt"
    )


def test_request_body_follows_the_contract(fault_server: _RecordingServer) -> None:
    seen: list[dict[str, Any]] = []

    def capture(handler: _Handler, request: dict[str, Any], attempt: int) -> None:
        seen.append({**request, "_content_type": handler.headers.get("Content-Type")})
        handler.send_json({"answer": "ok"})

    fault_server.behave = capture
    cases = [
        _case("dated", "Revenue last year?", reference_date="2025-03-31", tags={"lang": "en"}),
        _case("plain", "営業利益は？"),
    ]
    collection = HttpSystem(_settings(fault_server.url)).collect(cases)
    assert sorted(seen, key=lambda r: r["id"]) == [
        {
            "id": "dated",
            "question": "Revenue last year?",
            "reference_date": "2025-03-31",
            "tags": {"lang": "en"},
            "_content_type": "application/json",
        },
        {
            "id": "plain",
            "question": "営業利益は？",
            "reference_date": None,
            "tags": {},
            "_content_type": "application/json",
        },
    ]
    assert all(o.error is None and o.answer == "ok" for o in collection.outcomes.values())


def test_outcomes_round_trip_through_save_and_load(
    fault_run: tuple[_RecordingServer, Collection, _SleepRecorder, str], tmp_path: Path
) -> None:
    _, collection, _, _ = fault_run
    path = tmp_path / "saved.jsonl"
    assert save_outcomes(path, collection.outcomes.values()) == len(FAULT_CASES)
    assert load_outcomes(path) == collection.outcomes


# --------------------------------------------------------------------------- throughput


@pytest.fixture
def slow_server() -> Iterator[_RecordingServer]:
    def delayed(handler: _Handler, request: dict[str, Any], attempt: int) -> None:
        time.sleep(0.02)
        handler.send_json({"id": request["id"], "answer": "ok"})

    yield from _serve(delayed)


@pytest.mark.slow
def test_throughput_scales_with_concurrency_and_reuses_connections(
    slow_server: _RecordingServer,
) -> None:
    cases = [_case(f"c{i}") for i in range(200)]
    timings: dict[int, float] = {}
    connections: dict[int, int] = {}
    for concurrency in (1, 32):
        slow_server.connections.clear()
        slow_server.max_in_flight = 0
        system = HttpSystem(_settings(slow_server.url, concurrency=concurrency, timeout_s=10))
        started = time.perf_counter()
        collection = system.collect(cases)
        timings[concurrency] = time.perf_counter() - started
        connections[concurrency] = len(slow_server.connections)
        assert collection.stats["errors"] == 0
        assert collection.stats["attempts"] == 200
        if concurrency == 32:
            assert slow_server.max_in_flight >= 8
    assert connections[1] == 1  # keep-alive: one connection for 200 requests
    assert connections[32] <= 40
    assert timings[1] / timings[32] >= 4  # ideal is 32; this only proves it scales


# --------------------------------------------------------------------------- the example service


def _load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "example_http_service", REPO / "examples" / "http_service.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def example_url() -> Iterator[str]:
    module = _load_example()
    server = module.make_server(token="example-token-123")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/answer"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def test_the_example_service_answers_the_contract(example_url: str) -> None:
    headers = load_headers(env={HEADERS_ENV: '{"Authorization": "Bearer example-token-123"}'})
    system = HttpSystem(HttpSettings(endpoint=example_url, headers=headers, concurrency=2))
    cases = [
        _case("leave", "How many days of paid leave do employees accrue per year?"),
        _case("meals", "What is the cap for meal expenses per day?"),
        _case("paris", "What is the capital of France?"),
    ]
    collection = system.collect(cases)
    leave = collection.outcomes["leave"]
    assert leave.error is None and not leave.refused
    assert leave.source is not None and leave.source.doc == "handbook.md"
    assert leave.source.locator == "p1"
    assert "25 days" in leave.answer and "handbook.md" in leave.answer
    assert leave.ranked_docs()[0] == "handbook.md" and leave.contexts
    meals = collection.outcomes["meals"]
    assert meals.source is not None and meals.source.doc == "expenses.md"
    paris = collection.outcomes["paris"]
    assert paris.refused and paris.sources == [] and paris.error is None


def test_the_example_service_rejects_a_missing_token(example_url: str) -> None:
    collection = HttpSystem(HttpSettings(endpoint=example_url)).collect([_case("x")])
    assert collection.outcomes["x"].error == (
        "HTTP 401: Unauthorized: missing or wrong bearer token; 1 attempt"
    )


# --------------------------------------------------------------------------- units


def test_backoff_is_full_jitter_capped_and_deterministic() -> None:
    def delays(seed: int) -> list[float]:
        rng = random.Random(seed)
        return [backoff_delay(n, rng, base_s=0.5, max_s=4.0) for n in range(1, 8)]

    assert delays(3) == delays(3)
    assert delays(3) != delays(4)
    for attempt, delay in enumerate(delays(3), start=1):
        assert 0 <= delay <= min(4.0, 0.5 * 2 ** (attempt - 1))
    rng = random.Random(0)
    assert backoff_delay(1, rng, base_s=0.5, max_s=4.0, retry_after_s=7.0) == 7.0
    assert backoff_delay(3, rng, base_s=0.0, max_s=4.0) == 0.0


def test_retry_after_accepts_seconds_and_http_dates_and_is_capped() -> None:
    now = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)
    clock = lambda: now  # noqa: E731
    assert parse_retry_after("3", cap_s=60) == 3.0
    assert parse_retry_after("3600", cap_s=60) == 60.0
    later = format_datetime(now + timedelta(seconds=20), usegmt=True)
    assert parse_retry_after(later, cap_s=60, now=clock) == 20.0
    earlier = format_datetime(now - timedelta(seconds=20), usegmt=True)
    assert parse_retry_after(earlier, cap_s=60, now=clock) == 0.0
    for junk in (None, "", "soon", "-5", "1.5"):
        assert parse_retry_after(junk, cap_s=60, now=clock) is None


def test_token_bucket_spaces_requests_across_threads() -> None:
    now = [100.0]
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)

    bucket = TokenBucket(4.0, clock=lambda: now[0], sleep=sleep)
    for _ in range(5):
        bucket.acquire()
    assert waits == pytest.approx([0.25, 0.5, 0.75, 1.0])
    now[0] += 10  # idle long enough to refill, but the burst is one request
    waits.clear()
    bucket.acquire()
    bucket.acquire()
    assert waits == pytest.approx([0.25])


def test_rate_limit_is_applied_to_every_attempt(fault_server: _RecordingServer) -> None:
    sleeper = _SleepRecorder()
    system = HttpSystem(_settings(fault_server.url, rate_limit=50.0), sleep=sleeper)
    collection = system.collect([_case(f"ok-{i}") for i in range(10)])
    assert collection.stats["errors"] == 0
    assert len(sleeper.waits) >= 8  # burst of one: nearly every request waited its turn
    assert sum(sleeper.waits) >= 0.1


def test_progress_off_a_terminal_writes_nothing() -> None:
    """A CI log or a pipe gets no progress at all (the report has the run's stats)."""
    now = [0.0]
    out = io.StringIO()
    progress = Progress(out, tty=False, clock=lambda: now[0])
    progress.start(100)
    for done in range(1, 101):
        now[0] = done * 0.5  # a long run: 50 s
        progress.update(done, errors=done // 50)
    progress.finish()
    assert out.getvalue() == ""
    pipe = io.StringIO()  # no isatty(): detected as no terminal
    detected = Progress(pipe)
    detected.start(3)
    detected.update(3, 0)
    detected.finish()
    assert pipe.getvalue() == ""


def test_progress_on_a_terminal_redraws_one_line() -> None:
    now = [0.0]
    out = io.StringIO()
    progress = Progress(out, tty=True, clock=lambda: now[0], bar_width=10)
    progress.start(4)
    now[0] = 1.0
    progress.update(1, 0)
    now[0] = 2.0
    progress.update(2, 1)
    progress.finish()
    progress.finish()  # idempotent
    frames = out.getvalue().split("\r")
    assert frames[2] == "http [##--------] 1/4  25% | 0 errors | 1.0/s | ETA 0:03"
    assert frames[3].startswith("http [#####-----] 2/4  50% | 1 error | 1.0/s | ETA 0:02")
    assert out.getvalue().endswith("\n") and out.getvalue().count("\n") == 1


def test_progress_survives_a_closed_stream() -> None:
    out = io.StringIO()
    progress = Progress(out, tty=True)
    out.close()
    progress.start(1)
    progress.update(1, 0)
    progress.finish()


def test_format_duration() -> None:
    assert format_duration(0) == "0:00"
    assert format_duration(75.2) == "1:16"
    assert format_duration(3725) == "1:02:05"


def test_headers_from_env_and_file(tmp_path: Path) -> None:
    lines = tmp_path / "headers.txt"
    lines.write_text("# auth\nAuthorization: Bearer abc:def \n\nX-Team: rag\n", encoding="utf-8")
    assert load_headers(env={}, path=lines) == {
        "Authorization": "Bearer abc:def",
        "X-Team": "rag",
    }
    as_json = tmp_path / "headers.json"
    as_json.write_text('{"X-Api-Key": "k1"}', encoding="utf-8")
    env = {HEADERS_ENV: '{"X-Api-Key": "k2", "X-Env": "yes"}'}
    assert load_headers(env=env, path=as_json) == {"X-Api-Key": "k2", "X-Env": "yes"}
    assert load_headers(env={}) == {}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"Authorization": 5}', f"{HEADERS_ENV}: header Authorization: value must be a string"),
        ('["Bearer zz-secret"]', f"{HEADERS_ENV}: expected a JSON object"),
        ('{"Authorization": "Bearer zz-secret"', f"{HEADERS_ENV}: invalid JSON"),
        ('{"Bad Name": "zz-secret"}', f"{HEADERS_ENV}: invalid header name of 8 characters"),
        (
            '{"X-Key": "zz-secret\\r\\nX-Evil: 1"}',
            f"{HEADERS_ENV}: header X-Key: value contains a line break or NUL",
        ),
    ],
)
def test_bad_headers_are_config_errors_without_the_value(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_headers(env={HEADERS_ENV: text})
    assert str(info.value).startswith(message)
    assert "zz-secret" not in str(info.value)


def test_a_bad_headers_file_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "h.txt"
    path.write_text("X-Ok: 1\nBearer zz-secret\n", encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_headers(env={}, path=path)
    assert str(info.value) == f"{path}:2: expected a 'Name: value' line"
    with pytest.raises(InputError, match="file not found"):
        load_headers(env={}, path=tmp_path / "missing.txt")


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"endpoint": "ftp://x/y"}, "http endpoint: expected an http:// or https:// URL"),
        ({"endpoint": "http://user:pw-secret@/x"}, "http endpoint: expected an http://"),
        ({"concurrency": 0}, "http concurrency: expected an integer > 0, got 0"),
        ({"concurrency": True}, "http concurrency: expected an integer > 0, got True"),
        ({"timeout_s": float("nan")}, "http timeout: expected a number > 0, got nan"),
        ({"retries": -1}, "http retries: expected an integer ≥ 0, got -1"),
        ({"rate_limit": 0}, "http rate limit: expected a number > 0, got 0"),
        ({"max_response_bytes": 0}, "http max response bytes: expected an integer > 0"),
    ],
)
def test_bad_settings_are_config_errors(overrides: dict[str, Any], message: str) -> None:
    values: dict[str, Any] = {"endpoint": "http://127.0.0.1:1/answer", **overrides}
    with pytest.raises(ConfigError) as info:
        HttpSettings(**values)
    assert str(info.value).startswith(message)
    assert "pw-secret" not in str(info.value)


def test_settings_hide_header_values_and_list_secrets() -> None:
    settings = HttpSettings(
        endpoint="http://127.0.0.1:1/answer",
        headers={"Authorization": "Bearer abcdef", "X-Key": "k-123456"},
    )
    assert "abcdef" not in repr(settings) and "k-123456" not in repr(settings)
    assert set(settings.secret_values()) == {"Bearer abcdef", "abcdef", "k-123456"}
    in_url = HttpSettings(endpoint="https://bot:pw-1@rag.example:8443/answer?key=zz")
    # The password, the user:password pair, its Basic form and the query are all secrets.
    assert set(in_url.secret_values()) == {"pw-1", "bot:pw-1", "Ym90OnB3LTE=", "key=zz"}
    assert in_url.request_headers() == {"Authorization": "Basic Ym90OnB3LTE="}
    assert in_url.display_endpoint() == "https://rag.example:8443/answer?…"
    for shown in (repr(in_url), repr(HttpSystem(in_url))):
        assert "pw-1" not in shown and "zz" not in shown
    assert repr(settings).startswith(
        "HttpSettings(endpoint='http://127.0.0.1:1/answer', "
        "headers=['Authorization', 'X-Key'] (values hidden), concurrency=8, "
    )
    with pytest.raises(TypeError):
        settings.headers["X-New"] = "1"  # type: ignore[index]


def test_error_rate_of_an_empty_collection_is_zero() -> None:
    assert error_rate(Collection({})) == 0.0
    mixed = Collection({"a": Outcome(id="a"), "b": Outcome(id="b", error="x")})
    assert error_rate(mixed) == 0.5

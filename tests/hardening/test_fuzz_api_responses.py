"""Hostile answers from the GitHub API, the artifact service and the user's endpoint.

One loopback server answers whatever the test queues (status, headers, body). The clients
must turn every answer into a result or their typed error — never another exception.
"""

from __future__ import annotations

import json
import tempfile
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from github_fakes import make_runtime_token
from hardening_support import fuzz_settings
from hypothesis import example, given
from hypothesis import strategies as st
from strategies import JSON_VALUES

from ragspine_action.github.artifacts import backend_ids_from_token, upload_file_artifact
from ragspine_action.github.errors import ArtifactError, GithubError
from ragspine_action.github.rest import GithubClient, IssueComment
from ragspine_action.golden.models import GoldenCase
from ragspine_action.systems.http import HttpSettings, HttpSystem

Reply = tuple[int, dict[str, str], bytes]


class HostileServer:
    """Answers every request with ``self.reply`` (status, headers, body)."""

    def __init__(self) -> None:
        self.reply: Reply = (200, {}, b"{}")
        server = self

        class Handler(BaseHTTPRequestHandler):
            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                status, headers, body = server.reply
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                if "Content-Length" not in headers:
                    self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = do_PATCH = do_PUT = _serve

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_port}"


@pytest.fixture(scope="module")
def hostile() -> Iterator[HostileServer]:
    server = HostileServer()
    server.thread.start()
    yield server
    server.httpd.shutdown()
    server.httpd.server_close()
    server.thread.join()


BODIES = st.one_of(
    JSON_VALUES.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=64),
    st.sampled_from(
        [b"[" * 100_000, b'{"a":' * 50_000, b"\xff\xfe", b'{"ok": true}', b"{}", b"null",
         b'[{"id": 1, "body": "<!-- ragspine-eval:sticky:x -->", "user": null}]',
         b'{"ok": true, "signed_upload_url": "ftp://x", "artifact_id": "x"}',
         b'{"ok": true, "signedUploadUrl": 5}', b'{"id": "\\ud800"}']
    ),
)  # fmt: skip
HEADERS = st.dictionaries(
    st.sampled_from(
        ["Retry-After", "x-ratelimit-remaining", "x-ratelimit-reset", "Content-Type", "Link"]
    ),
    st.sampled_from(
        ["²", "0", "1", "-1", "1e9", "99999999999999999999", "application/json", "text/html",
         '<http://127.0.0.1:1/x>; rel="next"', "<>; rel=next", "Wed, 21 Oct 2015 07:28:00 GMT"]
    ),
    max_size=4,
)  # fmt: skip
STATUSES = st.sampled_from([200, 201, 204, 301, 400, 401, 403, 404, 409, 422, 429, 500, 503])
WORST: Reply = (
    429,
    {"Retry-After": "²", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "²"},
    b"{}",
)


@pytest.mark.slow
@fuzz_settings(50)
@given(STATUSES, HEADERS, BODIES)
@example(*WORST)
@example(200, {"Content-Type": "application/json"}, b"[" * 100_000)
def test_github_client_answers_or_raises_github_error(
    hostile: HostileServer, status: int, headers: dict[str, str], body: bytes
) -> None:
    hostile.reply = (status, headers, body)
    client = GithubClient(
        "t0ken-value", api_url=hostile.url, server_error_retries=0, backoff_factor=0,
        max_rate_limit_retries=1, sleep=lambda _s: None,
    )  # fmt: skip
    for call in (
        lambda: client.list_issue_comments("acme", "rag", 7),
        lambda: client.create_issue_comment("acme", "rag", 7, "body"),
        client.authenticated_login,
    ):
        try:
            call()
        except GithubError as exc:
            assert str(exc) and "t0ken-value" not in str(exc)


@fuzz_settings(50)
@given(STATUSES, HEADERS, BODIES)
@example(*WORST)
@example(200, {"Content-Type": "application/json"}, b"[" * 100_000)
def test_artifact_upload_succeeds_or_raises_artifact_error(
    hostile: HostileServer, status: int, headers: dict[str, str], body: bytes
) -> None:
    hostile.reply = (status, headers, body)
    report = Path(tempfile.mkdtemp(prefix="rs-fuzz-")) / "report.json"
    report.write_text("{}", encoding="utf-8")
    try:
        upload_file_artifact(
            report, name="report", runtime_token=make_runtime_token("r", "j"),
            results_url=hostile.url + "/", attempts=2, backoff=0, sleep=lambda _s: None,
        )  # fmt: skip
    except GithubError as exc:
        assert str(exc)


@fuzz_settings()
@given(st.one_of(st.text(max_size=40), st.builds(lambda v: "a." + v + ".c", st.text(max_size=40))))
@example("a." + "W1s" * 40_000 + ".c")  # base64 of "[[[" repeated: deeply nested JSON
def test_runtime_token_payload_parses_or_raises_artifact_error(token: str) -> None:
    try:
        ids = backend_ids_from_token(token)
    except ArtifactError:
        return
    assert ids.run_id and ids.job_id


@pytest.mark.slow
@fuzz_settings()
@given(JSON_VALUES)
def test_comment_objects_parse_or_raise(data: Any) -> None:
    try:
        comment = IssueComment.from_json(data)
    except GithubError:
        return
    assert isinstance(comment.body, str)


CASE = GoldenCase.model_validate(
    {"id": "c1", "question": "q", "case_type": "refusal", "expected": {"refuse": True}}
)


@pytest.mark.slow
@fuzz_settings(50)
@given(STATUSES, HEADERS, BODIES)
@example(*WORST)
@example(503, {"Retry-After": "²"}, b"")
def test_http_system_turns_any_answer_into_an_outcome(
    hostile: HostileServer, status: int, headers: dict[str, str], body: bytes
) -> None:
    hostile.reply = (status, headers, body)
    settings = HttpSettings(endpoint=hostile.url + "/rag", retries=1, timeout_s=5,
                            backoff_base_s=0, retry_after_max_s=0)  # fmt: skip
    collection = HttpSystem(settings, sleep=lambda _s: None).collect([CASE])
    outcome = collection.outcomes["c1"]
    outcome.model_dump_json()  # writable as UTF-8 JSON
    if status >= 400:
        assert outcome.error, (status, outcome)
    if outcome.error:
        assert "internal error" not in outcome.error, outcome.error

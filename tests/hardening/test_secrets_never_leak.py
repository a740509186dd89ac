"""Tokens and endpoint credentials never reach anything a user or a log can read.

A hostile endpoint echoes the credentials it receives into answers, contexts, sources and
error bodies. Everything the CLI and the action write is then scanned for them: stdout,
stderr, the report, saved outcomes, comment bodies, the job summary, outputs, annotations
and the uploaded artifact. The one allowed occurrence is an ``::add-mask::`` line.
"""

from __future__ import annotations

import io
import json
import shutil
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from github_fakes import FakeArtifactService, FakeGitHub
from hardening_support import MINI_GOLDEN, run_cli

from ragspine_action.action import main as action_main

HEADER_TOKEN = "s3cr3t-header-Tok3n-7781"
HEADER_VALUE = f"Bearer {HEADER_TOKEN}"
API_KEY = "k3y-0f-the-rag-service-99"
URL_PASSWORD = "pa55w0rd-in-url-31"
QUERY_SECRET = "qs3cret-in-query-55"
GITHUB_TOKEN = "ghs_hardening_secret_token_4242"
SECRETS = [HEADER_TOKEN, API_KEY, URL_PASSWORD, QUERY_SECRET, GITHUB_TOKEN]


def find_leaks(text: str, where: str) -> list[str]:
    """``where: secret`` for every secret in ``text`` outside ``::add-mask::`` lines."""
    found = []
    for line in text.splitlines():
        if line.startswith("::add-mask::"):
            continue
        found += [f"{where}: {s}" for s in SECRETS if s in line or json.dumps(s)[1:-1] in line]
    return found


def test_the_scanner_finds_a_leak() -> None:
    assert find_leaks(f"x\n::add-mask::{HEADER_TOKEN}\n", "log") == []
    assert find_leaks(f"token {GITHUB_TOKEN}", "log") == [f"log: {GITHUB_TOKEN}"]


class EchoEndpoint:
    """A RAG endpoint that echoes every credential it is sent back into its answers."""

    def __init__(self) -> None:
        self.seen_auth: list[str] = []
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                creds = f"{self.headers.get('Authorization')} {self.headers.get('X-Api-Key')} {self.path}"
                endpoint.seen_auth.append(creds)
                status, answer = (
                    200,
                    {
                        "id": body["id"],
                        "answer": f"you sent {creds}",
                        "contexts": [creds],
                        "sources": [{"doc": creds, "locator": creds}],
                        "refused": body["id"] == "r1",
                        "debug": {"headers": dict(self.headers.items())},
                    },
                )
                if body["id"] == "n2":
                    status, answer = 500, {"error": f"rejected credentials {creds}"}
                if body["id"] == "c1":
                    status, answer = 200, {"id": body["id"], "error": {"auth": creds}}
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        port = self.httpd.server_port
        return f"http://rag:{URL_PASSWORD}@127.0.0.1:{port}/rag?key={QUERY_SECRET}"


@pytest.fixture
def endpoint(monkeypatch: pytest.MonkeyPatch) -> Iterator[EchoEndpoint]:
    server = EchoEndpoint()
    server.thread.start()
    monkeypatch.setenv(
        "RAGSPINE_HTTP_HEADERS", json.dumps({"Authorization": HEADER_VALUE, "X-Api-Key": API_KEY})
    )
    yield server
    server.httpd.shutdown()
    server.httpd.server_close()
    server.thread.join()


def _read_all(paths: list[Path]) -> list[str]:
    leaks: list[str] = []
    for path in paths:
        assert path.exists(), path
        leaks += find_leaks(path.read_text(encoding="utf-8", errors="replace"), path.name)
    return leaks


def test_cli_http_run_leaks_no_credential(tmp_path: Path, endpoint: EchoEndpoint) -> None:
    report, saved = tmp_path / "report.json", tmp_path / "outcomes.jsonl"
    result = run_cli(
        ["--system", "http", "--endpoint", endpoint.url, "--golden", str(MINI_GOLDEN),
         "--mode", "secret-scan", "--no-baseline", "--retries", "0", "--report", str(report),
         "--save-outcomes", str(saved)]
    )  # fmt: skip
    assert result.code in (0, 1, 2), result.stderr
    assert any(HEADER_TOKEN in s and API_KEY in s for s in endpoint.seen_auth), "not sent"
    leaks = find_leaks(result.stdout, "stdout") + find_leaks(result.stderr, "stderr")
    leaks += _read_all([report, saved])
    assert leaks == []
    assert "[redacted]" in saved.read_text(encoding="utf-8")


def test_action_http_run_leaks_no_credential(
    tmp_path: Path, endpoint: EchoEndpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    shutil.copy(MINI_GOLDEN, ws / "golden.jsonl")
    event = tmp_path / "event.json"
    pr = {
        "number": 7,
        "base": {"sha": "b" * 40, "ref": "main", "repo": {"full_name": "acme/rag"}},
        "head": {"sha": "h" * 40, "ref": "f", "repo": {"full_name": "acme/rag"}},
    }
    event.write_text(json.dumps({"number": 7, "pull_request": pr}), encoding="utf-8")
    monkeypatch.chdir(ws)
    with FakeGitHub() as github, FakeArtifactService() as artifacts:
        github.add_token(GITHUB_TOKEN, "github-actions[bot]", user_type="Bot", can_read_user=False)
        env = {
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
            "ACTIONS_RUNTIME_TOKEN": artifacts.runtime_token,
            "ACTIONS_RESULTS_URL": artifacts.results_url,
            "INPUT_SYSTEM": "http",
            "INPUT_ENDPOINT": endpoint.url,
            "INPUT_GOLDEN": "golden.jsonl",
            "INPUT_BASELINE": "baseline.json",
            "INPUT_BASELINE-MISSING": "create",  # no base commit: record it in CI
            "INPUT_MODE": "secret-scan",
            "INPUT_COMMENT": "always",
            "INPUT_GITHUB-TOKEN": GITHUB_TOKEN,
            "INPUT_ARTIFACT-NAME": "ragspine-report",
            "INPUT_ARGS": f"--retries 0 --max-error-rate 1 --save-outcomes {ws / 'saved.jsonl'}",
        }
        log = io.StringIO()
        code = action_main(env, log, sleep=lambda _s: None)
        comments = github.comments_on("acme", "rag", 7)
        sent_bodies = [r.body.decode("utf-8", "replace") for r in github.recorded("POST")]
        sent_bodies += [r.body.decode("utf-8", "replace") for r in github.recorded("PATCH")]
        uploaded = [f for a in artifacts.artifacts.values() for f in a.files().values()]
    text = log.getvalue()
    assert code in (0, 1), text
    assert f"::add-mask::{GITHUB_TOKEN}" in text
    assert f"::add-mask::{HEADER_TOKEN}" in text or f"::add-mask::{HEADER_VALUE}" in text
    assert comments and uploaded, "the comment and the artifact must exist to be scanned"
    leaks = find_leaks(text, "log (annotations, terminal table)")
    leaks += [x for c in comments for x in find_leaks(c["body"], "comment")]
    leaks += [x for b in sent_bodies for x in find_leaks(b, "comment request")]
    leaks += [
        x for blob in uploaded for x in find_leaks(blob.decode("utf-8", "replace"), "artifact")
    ]
    leaks += _read_all(
        [tmp_path / "summary.md", tmp_path / "output.txt", ws / "ragspine-report.json",
         ws / "saved.jsonl", ws / "baseline.json"]
    )  # fmt: skip
    assert leaks == []

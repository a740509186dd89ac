"""A tiny RAG service that speaks ragspine-eval's ``http`` contract (SPEC §5).

Request:  POST /answer  {"id", "question", "reference_date", "tags"}
Response: 200 {"id", "answer", "refused", "source", "sources", "contexts", "latency_ms"}

Retrieval is keyword overlap over three small documents; the best passage is the answer,
followed by a "Source: <doc>" line. A question that matches nothing is refused.
Standard library only:

    python examples/http_service.py --port 8000          # no auth
    EXAMPLE_SERVICE_TOKEN=s3cret python examples/http_service.py --port 8000

    RAGSPINE_HTTP_HEADERS='{"Authorization": "Bearer s3cret"}' \\
      ragspine-eval --system http --endpoint http://127.0.0.1:8000/answer --golden golden.jsonl
"""

from __future__ import annotations

import argparse
import hmac
import json
import os
import re
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["DOCUMENTS", "answer", "make_server"]

DOCUMENTS: dict[str, list[str]] = {
    "handbook.md": [
        "Employees accrue 25 days of paid leave per year.",
        "Remote work is allowed up to three days a week with manager approval.",
    ],
    "security-policy.md": [
        "Passwords must be rotated every 90 days.",
        "Company laptops must use full-disk encryption.",
    ],
    "expenses.md": [
        "Travel expenses are reimbursed within 14 days of submission.",
        "Meal expenses are capped at 40 EUR per day.",
    ],
}

REFUSAL = "I cannot answer that from the knowledge base."
_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "at",
        "be",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "how",
        "i",
        "in",
        "is",
        "it",
        "many",
        "much",
        "of",
        "on",
        "or",
        "per",
        "the",
        "to",
        "we",
        "what",
        "when",
        "which",
        "who",
        "with",
        "within",
        "you",
    ]
)
_WORD = re.compile(r"[a-z0-9]+")


def _terms(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS}


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """The outcome for one request: the best-matching passage, cited, or a refusal."""
    started = time.perf_counter()
    wanted = _terms(request["question"])
    scored = []
    for doc, passages in DOCUMENTS.items():
        for number, passage in enumerate(passages, start=1):
            overlap = len(wanted & _terms(passage))
            if overlap:
                scored.append((overlap, doc, f"p{number}", passage))
    scored.sort(key=lambda hit: -hit[0])  # stable: ties keep document order
    outcome: dict[str, Any] = {"id": request["id"]}
    if not scored or scored[0][0] < 2:
        outcome.update(answer=REFUSAL, refused=True, sources=[], contexts=[])
    else:
        _, doc, locator, passage = scored[0]
        outcome.update(
            answer=f"{passage}\nSource: {doc}",
            refused=False,
            source={"doc": doc, "locator": locator},
            sources=[{"doc": d, "locator": loc} for _, d, loc, _ in scored[:3]],
            contexts=[p for _, _, _, p in scored[:3]],
        )
    outcome["latency_ms"] = round((time.perf_counter() - started) * 1000, 3)
    return outcome


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: the client reuses connections
    server: _Server

    def do_POST(self) -> None:
        if self.path.split("?", 1)[0] != "/answer":
            self._send(404, {"error": "POST to /answer"})
            return
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        token = self.server.token
        if token is not None:
            given = self.headers.get("Authorization", "")
            if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
                self._send(401, {"error": "missing or wrong bearer token"})
                return
        try:
            request = json.loads(raw)
        except ValueError:
            self._send(400, {"error": "request body is not JSON"})
            return
        if not (
            isinstance(request, dict)
            and isinstance(request.get("id"), str)
            and isinstance(request.get("question"), str)
        ):
            self._send(400, {"error": "expected an object with string id and question"})
            return
        self._send(200, answer(request))

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        body = json.dumps(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        if self.server.verbose:
            super().log_message(format, *args)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128

    def __init__(self, address: tuple[str, int], token: str | None, verbose: bool) -> None:
        self.token = token
        self.verbose = verbose
        super().__init__(address, _Handler)


def make_server(
    host: str = "127.0.0.1", port: int = 0, *, token: str | None = None, verbose: bool = False
) -> ThreadingHTTPServer:
    """A ready server (port 0 picks a free port); call ``serve_forever()`` to run it."""
    return _Server((host, port), token, verbose)


def main() -> None:
    parser = argparse.ArgumentParser(description="Example RAG service for ragspine-eval.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    server = make_server(
        args.host, args.port, token=os.environ.get("EXAMPLE_SERVICE_TOKEN") or None, verbose=True
    )
    host, port = server.server_address[:2]
    print(f"serving on http://{host!s}:{port}/answer", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()

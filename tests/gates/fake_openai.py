"""A loopback OpenAI-compatible chat-completions server for the LLM judge's tests.

Started on 127.0.0.1, port 0, inside a test (``with FakeOpenAI(...) as server``) and shut
down on exit. It judges the way a scripted model would: a claim containing
``unsupported_phrase`` (case-insensitive) is unsupported, every other claim supported;
``script`` replaces that with any behaviour (statuses, Retry-After, malformed answers,
slow answers). Every request is recorded (body, Authorization header).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CLAIM_MARKERS = ("Claim (from the reference): ", "Claim: ")


@dataclass
class Reply:
    status: int = 200
    body: Any = None  # a dict is sent as JSON, bytes as they are
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


def claim_of(body: dict[str, Any]) -> str:
    """The claim the judge asked about (the line after ``Claim:`` in the user message)."""
    text = body["messages"][-1]["content"]
    for marker in CLAIM_MARKERS:
        if marker in text:
            return text.split(marker, 1)[1].split("\n", 1)[0]
    raise AssertionError(f"no claim in {text!r}")


def completion(content: str, *, prompt_tokens: int = 50, completion_tokens: int = 7) -> Any:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": "fake",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def verdict(supported: bool, reason: str = "scripted") -> Any:
    text = json.dumps({"verdict": "supported" if supported else "unsupported", "reason": reason})
    return completion(text)


class FakeOpenAI:
    def __init__(
        self,
        *,
        unsupported_phrase: str = "XYZZY",
        script: Callable[[dict[str, Any], int], Reply] | None = None,
    ) -> None:
        self.phrase = unsupported_phrase.lower()
        self.script = script
        self.requests: list[dict[str, Any]] = []
        self.auth: list[str | None] = []
        self.paths: list[str] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def count(self) -> int:
        with self._lock:
            return len(self.requests)

    def reply(self, body: dict[str, Any], n: int) -> Reply:
        if self.script is not None:
            return self.script(body, n)
        claim = claim_of(body)
        return Reply(body=verdict(self.phrase not in claim.lower()))

    def __enter__(self) -> FakeOpenAI:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(length)
                body = json.loads(raw)
                with fake._lock:
                    fake.requests.append(body)
                    fake.auth.append(self.headers.get("Authorization"))
                    fake.paths.append(self.path)
                    n = len(fake.requests)
                if self.path != "/v1/chat/completions":
                    answer = Reply(404, {"error": "not found"})
                else:
                    answer = fake.reply(body, n)
                if answer.delay_s:
                    time.sleep(answer.delay_s)
                data = (
                    answer.body
                    if isinstance(answer.body, bytes)
                    else json.dumps(answer.body).encode("utf-8")
                )
                try:
                    self.send_response(answer.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in answer.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._server is not None and self._thread is not None
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

"""Recording fakes of the GitHub REST API and of the Actions artifact service.

Both are real ``ThreadingHTTPServer``s on 127.0.0.1 (port 0), so the code under test talks
HTTP exactly as it would to GitHub — also from inside a container (host network). They
record every request and can be told to fail:

- ``FakeGitHub.fail(status, method=…, path=…, times=…, headers=…)`` queues failures
  (429 with ``Retry-After``, 403 primary rate limit, 500 …);
- ``FakeGitHub.forbid_comment_writes = True`` answers 403 "Resource not accessible by
  integration" to comment POST/PATCH, like a fork's read-only token;
- ``FakeGitHub.page_size`` forces small pages so listings span several ``Link`` pages;
- ``FakeArtifactService.fail(status, method="CreateArtifact" | "FinalizeArtifact" | "PUT")``.

Used by ``tests/github/conftest.py`` fixtures and reusable by end-to-end tests; run
``python tests/github/github_fakes.py --state FILE`` to serve both until SIGTERM/SIGINT
(it prints a JSON line with URLs and tokens, and writes the recorded state to FILE at exit).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import itertools
import json
import re
import threading
import zipfile
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self
from urllib.parse import parse_qs, unquote, urlsplit

DEFAULT_TOKEN = "ghs_fake_installation_token"
FORK_MESSAGE = "Resource not accessible by integration"


@dataclass
class RecordedRequest:
    """One request as the fake saw it (header names lower-cased)."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "path": self.path,
            "query": self.query,
            "headers": self.headers,
            "body": self.body.decode("utf-8", "replace"),
        }


@dataclass
class Failure:
    """A queued error answer for requests matching ``method`` and the ``path`` regex."""

    status: int
    method: str | None
    path: str | None
    times: int
    headers: dict[str, str]
    body: dict[str, Any]

    def matches(self, method: str, path: str) -> bool:
        return (
            self.times > 0
            and (self.method is None or self.method == method)
            and (self.path is None or re.search(self.path, path) is not None)
        )


@dataclass
class Identity:
    """Who a token belongs to; installation tokens may not call ``GET /user``."""

    login: str
    type: str = "User"
    can_read_user: bool = True


@dataclass
class Reply:
    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def json(cls, status: int, data: Any, headers: dict[str, str] | None = None) -> Reply:
        return cls(
            status,
            json.dumps(data).encode("utf-8"),
            {"Content-Type": "application/json", **(headers or {})},
        )


class _FakeServer:
    """A threading HTTP server whose handler calls ``self.handle(request) -> Reply``."""

    def __init__(self) -> None:
        self.requests: list[RecordedRequest] = []
        self.failures: list[Failure] = []
        self.lock = threading.RLock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                parts = urlsplit(self.path)
                recorded = RecordedRequest(
                    method=self.command,
                    path=unquote(parts.path),
                    query=parse_qs(parts.query),
                    headers={k.lower(): v for k, v in self.headers.items()},
                    body=body,
                )
                fake.before_handle(recorded)
                with fake.lock:
                    fake.requests.append(recorded)
                    reply = fake._queued_failure(recorded) or fake.handle(recorded)
                self.send_response(reply.status)
                for key, value in reply.headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)

            do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _serve

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}"

    def start(self) -> Self:
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def fail(
        self,
        status: int,
        *,
        method: str | None = None,
        path: str | None = None,
        times: int = 1,
        headers: dict[str, str] | None = None,
        message: str = "fake failure",
    ) -> None:
        """Answer the next ``times`` matching requests with ``status``."""
        with self.lock:
            self.failures.append(
                Failure(status, method, path, times, headers or {}, {"message": message})
            )

    def _queued_failure(self, request: RecordedRequest) -> Reply | None:
        key = self._failure_key(request)
        for failure in self.failures:
            if failure.matches(*key):
                failure.times -= 1
                return Reply.json(failure.status, failure.body, failure.headers)
        return None

    def _failure_key(self, request: RecordedRequest) -> tuple[str, str]:
        return request.method, request.path

    def before_handle(self, request: RecordedRequest) -> None:
        """Called outside the lock before each request is answered (a place to wait)."""

    def handle(self, request: RecordedRequest) -> Reply:
        raise NotImplementedError

    def recorded(self, method: str | None = None, path: str | None = None) -> list[RecordedRequest]:
        """Recorded requests, optionally filtered by method and a path regex."""
        with self.lock:
            return [
                r
                for r in self.requests
                if (method is None or r.method == method)
                and (path is None or re.search(path, r.path))
            ]


class FakeGitHub(_FakeServer):
    """Issue comments, ``GET /user`` and the contents API, with GitHub's answer shapes."""

    def __init__(self) -> None:
        super().__init__()
        self.identities: dict[str, Identity] = {
            DEFAULT_TOKEN: Identity("github-actions[bot]", "Bot", can_read_user=False)
        }
        self.comments: dict[tuple[str, str, int], list[dict[str, Any]]] = {}
        self.files: dict[tuple[str, str, str, str], bytes] = {}
        self.page_size: int | None = None
        self.forbid_comment_writes = False
        self.contents_inline_limit = 1_000_000
        self._ids = itertools.count(1001)
        self._list_barrier: threading.Barrier | None = None
        self.pulls: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self._held = 0

    def race_comment_listings(self, runs: int, timeout: float = 60.0) -> None:
        """Hold the next ``runs`` first-page comment listings until all have arrived, so
        that concurrent runs all see the same (empty) list: the race two pushes cause."""
        with self.lock:
            self._list_barrier = threading.Barrier(runs, timeout=timeout)
            self._held = 0

    # -- set-up helpers ---------------------------------------------------------------------

    def add_token(
        self, token: str, login: str, *, user_type: str = "User", can_read_user: bool = True
    ) -> None:
        with self.lock:
            self.identities[token] = Identity(login, user_type, can_read_user)

    def add_comment(
        self, owner: str, repo: str, number: int, body: str, *, login: str, user_type: str = "User"
    ) -> dict[str, Any]:
        with self.lock:
            return self._new_comment(owner, repo, number, body, Identity(login, user_type))

    def add_file(self, owner: str, repo: str, path: str, ref: str, content: bytes) -> None:
        with self.lock:
            self.files[(owner, repo, path, ref)] = content

    def add_pull(
        self, owner: str, repo: str, number: int, *, head_label: str, head_sha: str
    ) -> None:
        """An open pull request whose head is ``head_label`` (``owner:branch``) at ``head_sha``."""
        with self.lock:
            self.pulls.setdefault((owner, repo), []).append(
                {
                    "number": number,
                    "state": "open",
                    "head": {
                        "label": head_label,
                        "sha": head_sha,
                        "ref": head_label.split(":")[-1],
                    },
                }
            )

    def comments_on(self, owner: str, repo: str, number: int) -> list[dict[str, Any]]:
        with self.lock:
            return [dict(c) for c in self.comments.get((owner, repo, number), [])]

    def _new_comment(
        self, owner: str, repo: str, number: int, body: str, author: Identity
    ) -> dict[str, Any]:
        comment_id = next(self._ids)
        comment = {
            "id": comment_id,
            "node_id": f"IC_{comment_id}",
            "body": body,
            "user": {"login": author.login, "type": author.type},
            "html_url": f"https://github.com/{owner}/{repo}/pull/{number}#issuecomment-{comment_id}",
            "issue_url": f"{self.url}/repos/{owner}/{repo}/issues/{number}",
            "created_at": "2026-11-29T00:00:00Z",
            "updated_at": "2026-11-29T00:00:00Z",
            "edits": 0,
        }
        self.comments.setdefault((owner, repo, number), []).append(comment)
        return comment

    # -- request handling -------------------------------------------------------------------

    def before_handle(self, request: RecordedRequest) -> None:
        barrier = self._list_barrier
        if (
            barrier is not None
            and request.method == "GET"
            and request.path.endswith("/comments")
            and "page" not in request.query
        ):
            with self.lock:
                self._held += 1
                hold = self._held <= barrier.parties
            if hold:
                with contextlib.suppress(threading.BrokenBarrierError):
                    barrier.wait()

    def _identity(self, request: RecordedRequest) -> Identity | None:
        auth = request.headers.get("authorization", "")
        scheme, _, token = auth.partition(" ")
        if scheme.lower() not in ("bearer", "token"):
            return None
        return self.identities.get(token)

    def handle(self, request: RecordedRequest) -> Reply:
        who = self._identity(request)
        if who is None:
            return Reply.json(401, {"message": "Bad credentials"})
        path, method = request.path, request.method
        if path == "/user" and method == "GET":
            if not who.can_read_user:
                return Reply.json(403, {"message": FORK_MESSAGE})
            return Reply.json(200, {"login": who.login, "type": who.type, "id": 1})
        m = re.fullmatch(r"/repos/([^/]+)/([^/]+)/issues/(\d+)/comments", path)
        if m:
            owner, repo, number = m.group(1), m.group(2), int(m.group(3))
            if method == "GET":
                return self._list(request, owner, repo, number)
            if method == "POST":
                if self.forbid_comment_writes:
                    return Reply.json(403, {"message": FORK_MESSAGE})
                body = request.json().get("body")
                if not isinstance(body, str) or len(body) > 65536:
                    return Reply.json(422, {"message": "Validation Failed"})
                return Reply.json(201, self._new_comment(owner, repo, number, body, who))
        m = re.fullmatch(r"/repos/([^/]+)/([^/]+)/issues/comments/(\d+)", path)
        if m and method == "PATCH":
            return self._edit(request, m.group(1), m.group(2), int(m.group(3)), who)
        if m and method == "DELETE":
            return self._delete(m.group(1), m.group(2), int(m.group(3)), who)
        m = re.fullmatch(r"/repos/([^/]+)/([^/]+)/pulls", path)
        if m and method == "GET":
            head = request.query.get("head", [""])[0]
            state = request.query.get("state", ["open"])[0]
            found = [
                p
                for p in self.pulls.get((m.group(1), m.group(2)), [])
                if (not head or p["head"]["label"] == head)
                and (state == "all" or p["state"] == state)
            ]
            return Reply.json(200, found)
        m = re.fullmatch(r"/repos/([^/]+)/([^/]+)/contents/(.+)", path)
        if m and method == "GET":
            return self._contents(request, m.group(1), m.group(2), m.group(3))
        return Reply.json(404, {"message": "Not Found"})

    def _list(self, request: RecordedRequest, owner: str, repo: str, number: int) -> Reply:
        per_page = self.page_size or min(int(request.query.get("per_page", ["30"])[0]), 100)
        page = int(request.query.get("page", ["1"])[0])
        comments = self.comments.get((owner, repo, number), [])
        chunk = comments[(page - 1) * per_page : page * per_page]
        last = max(1, -(-len(comments) // per_page))
        headers = {}
        if page < last:
            base = f"{self.url}{request.path}"
            headers["Link"] = (
                f'<{base}?per_page={per_page}&page={page + 1}>; rel="next", '
                f'<{base}?per_page={per_page}&page={last}>; rel="last"'
            )
        public = [{k: v for k, v in c.items() if k != "edits"} for c in chunk]
        return Reply.json(200, public, headers)

    def _edit(
        self, request: RecordedRequest, owner: str, repo: str, comment_id: int, who: Identity
    ) -> Reply:
        if self.forbid_comment_writes:
            return Reply.json(403, {"message": FORK_MESSAGE})
        for (o, r, _), comments in self.comments.items():
            for comment in comments:
                if (o, r) == (owner, repo) and comment["id"] == comment_id:
                    if comment["user"]["login"] != who.login:
                        return Reply.json(403, {"message": FORK_MESSAGE})
                    comment["body"] = request.json()["body"]
                    comment["edits"] += 1
                    comment["updated_at"] = "2026-11-29T01:00:00Z"
                    return Reply.json(200, {k: v for k, v in comment.items() if k != "edits"})
        return Reply.json(404, {"message": "Not Found"})

    def _delete(self, owner: str, repo: str, comment_id: int, who: Identity) -> Reply:
        if self.forbid_comment_writes:
            return Reply.json(403, {"message": FORK_MESSAGE})
        for (o, r, _), comments in self.comments.items():
            for comment in comments:
                if (o, r) == (owner, repo) and comment["id"] == comment_id:
                    if comment["user"]["login"] != who.login:
                        return Reply.json(403, {"message": FORK_MESSAGE})
                    comments.remove(comment)
                    return Reply(204)
        return Reply.json(404, {"message": "Not Found"})

    def _contents(self, request: RecordedRequest, owner: str, repo: str, path: str) -> Reply:
        ref = request.query.get("ref", [""])[0]
        content = self.files.get((owner, repo, path, ref))
        if content is None:
            return Reply.json(404, {"message": "Not Found"})
        if request.headers.get("accept") == "application/vnd.github.raw+json":
            return Reply(200, content, {"Content-Type": "application/vnd.github.raw"})
        inline = len(content) <= self.contents_inline_limit
        return Reply.json(
            200,
            {
                "type": "file",
                "path": path,
                "size": len(content),
                "encoding": "base64" if inline else "none",
                "content": base64.encodebytes(content).decode() if inline else "",
            },
        )

    def state(self) -> dict[str, Any]:
        with self.lock:
            return {
                "comments": [
                    {"owner": o, "repo": r, "number": n, "comments": cs}
                    for (o, r, n), cs in self.comments.items()
                ],
                "requests": [r.to_dict() for r in self.requests],
            }


def make_runtime_token(
    run_id: str, job_id: str, extra_scopes: str = "Actions.GenericRead:x"
) -> str:
    """An unsigned JWT shaped like ``ACTIONS_RUNTIME_TOKEN`` (the client never verifies it)."""

    def part(data: dict[str, Any]) -> str:
        raw = base64.urlsafe_b64encode(json.dumps(data).encode()).decode()
        return raw.rstrip("=")

    payload = {"scp": f"{extra_scopes} Actions.Results:{run_id}:{job_id}", "exp": 4102444800}
    return f"{part({'typ': 'JWT', 'alg': 'none'})}.{part(payload)}.c2lnbmF0dXJl"


@dataclass
class FakeArtifact:
    id: int
    name: str
    expires_at: str | None
    blob: bytes | None = None
    size: str | None = None
    hash: str | None = None
    finalized: bool = False

    def files(self) -> dict[str, bytes]:
        """The zip's members, name → bytes."""
        assert self.blob is not None, "nothing was uploaded"
        with zipfile.ZipFile(io.BytesIO(self.blob)) as archive:
            return {name: archive.read(name) for name in archive.namelist()}


class FakeArtifactService(_FakeServer):
    """Twirp ``CreateArtifact``/``FinalizeArtifact`` plus the blob ``PUT`` of the signed URL."""

    SERVICE = "/twirp/github.actions.results.api.v1.ArtifactService/"
    SIGNATURE = "fake-sas-signature"

    def __init__(self, run_id: str = "run-backend-1", job_id: str = "job-backend-1") -> None:
        super().__init__()
        self.run_id, self.job_id = run_id, job_id
        self.runtime_token = make_runtime_token(run_id, job_id)
        self.artifacts: dict[str, FakeArtifact] = {}
        self.camel_case = False
        self._ids = itertools.count(7001)

    @property
    def results_url(self) -> str:
        return self.url + "/"

    def _failure_key(self, request: RecordedRequest) -> tuple[str, str]:
        if request.path.startswith(self.SERVICE):
            return request.path[len(self.SERVICE) :], request.path
        return request.method, request.path

    def _twirp(self, status: int, code: str, msg: str) -> Reply:
        return Reply.json(status, {"code": code, "msg": msg})

    def _answer(self, data: dict[str, Any]) -> Reply:
        if self.camel_case:
            data = {re.sub(r"_(\w)", lambda m: m.group(1).upper(), k): v for k, v in data.items()}
        return Reply.json(200, data)

    def handle(self, request: RecordedRequest) -> Reply:
        if request.method == "PUT" and request.path.startswith("/blob/"):
            return self._blob(request)
        if request.method != "POST" or not request.path.startswith(self.SERVICE):
            return self._twirp(404, "bad_route", "no such route")
        if request.headers.get("authorization") != f"Bearer {self.runtime_token}":
            return self._twirp(401, "unauthenticated", "bad runtime token")
        try:
            body = request.json()
        except ValueError:
            return self._twirp(400, "malformed", "body is not JSON")
        if (
            body.get("workflow_run_backend_id") != self.run_id
            or body.get("workflow_job_run_backend_id") != self.job_id
        ):
            return self._twirp(400, "invalid_argument", "backend ids do not match the token")
        method = request.path[len(self.SERVICE) :]
        name = body.get("name")
        if method == "CreateArtifact":
            if body.get("version") != 4 or not isinstance(name, str) or not name:
                return self._twirp(400, "invalid_argument", "version 4 and a name are required")
            if name in self.artifacts:
                return self._twirp(409, "already_exists", "an artifact with this name exists")
            artifact = FakeArtifact(next(self._ids), name, body.get("expires_at"))
            self.artifacts[name] = artifact
            url = f"{self.url}/blob/{artifact.id}?sig={self.SIGNATURE}&sv=2023"
            return self._answer({"ok": True, "signed_upload_url": url})
        if method == "FinalizeArtifact":
            found = self.artifacts.get(name) if isinstance(name, str) else None
            if found is None or found.blob is None:
                return self._twirp(404, "not_found", "no uploaded artifact with this name")
            size, digest = body.get("size"), body.get("hash")
            if size != str(len(found.blob)):
                return self._twirp(400, "invalid_argument", f"size {size!r} does not match")
            if digest != "sha256:" + hashlib.sha256(found.blob).hexdigest():
                return self._twirp(400, "invalid_argument", "hash does not match the upload")
            found.size, found.hash, found.finalized = size, digest, True
            return self._answer({"ok": True, "artifact_id": str(found.id)})
        return self._twirp(404, "bad_route", f"unknown method {method}")

    def _blob(self, request: RecordedRequest) -> Reply:
        if request.query.get("sig") != [self.SIGNATURE]:
            return Reply(403, b"<Error><Code>AuthenticationFailed</Code></Error>")
        if "authorization" in request.headers:
            return Reply(400, b"<Error><Code>InvalidAuthenticationInfo</Code></Error>")
        if request.headers.get("x-ms-blob-type") != "BlockBlob":
            return Reply(400, b"<Error><Code>MissingRequiredHeader</Code></Error>")
        artifact_id = int(request.path.rsplit("/", 1)[1])
        for artifact in self.artifacts.values():
            if artifact.id == artifact_id:
                artifact.blob = request.body
                return Reply(201)
        return Reply(404, b"<Error><Code>BlobNotFound</Code></Error>")

    def state(self) -> dict[str, Any]:
        with self.lock:
            return {
                "artifacts": [
                    {
                        "id": a.id,
                        "name": a.name,
                        "finalized": a.finalized,
                        "size": a.size,
                        "hash": a.hash,
                        "expires_at": a.expires_at,
                        "files": {k: v.decode("utf-8", "replace") for k, v in a.files().items()}
                        if a.blob
                        else {},
                    }
                    for a in self.artifacts.values()
                ],
                "requests": [r.to_dict() for r in self.requests],
            }


def main(argv: list[str] | None = None) -> int:
    """Serve both fakes until SIGTERM/SIGINT; print their URLs, dump state to ``--state``."""
    import argparse
    import signal

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--state", required=True, help="write the recorded state here at exit")
    parser.add_argument("--forbid-comment-writes", action="store_true")
    args = parser.parse_args(argv)
    github, artifacts = FakeGitHub().start(), FakeArtifactService().start()
    github.forbid_comment_writes = args.forbid_comment_writes
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    info = {
        "api_url": github.url,
        "token": DEFAULT_TOKEN,
        "results_url": artifacts.results_url,
        "runtime_token": artifacts.runtime_token,
    }
    print(json.dumps(info), flush=True)
    stop.wait()
    with open(args.state, "w", encoding="utf-8") as handle:
        json.dump({"github": github.state(), "artifacts": artifacts.state()}, handle, indent=2)
    github.stop()
    artifacts.stop()
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())

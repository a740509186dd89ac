"""The ``http`` system: POST each golden case to the team's own RAG endpoint (SPEC §3, §5).

Every case ends as exactly one outcome. A transport failure, a bad status or a malformed
response becomes an error outcome that says what happened and after how many attempts,
so an outage is counted as errors, never dropped and never mistaken for an answer.

Header values are secrets (auth tokens): they are sent, never shown. They are kept out
of ``repr``, and every message that leaves this module is scrubbed of them.
"""

from __future__ import annotations

import base64
import contextlib
import heapq
import http.client
import json
import math
import os
import random
import re
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from http import HTTPStatus
from types import MappingProxyType
from typing import Any
from urllib.parse import SplitResult, unquote, urlsplit, urlunsplit

import requests
import urllib3
import urllib3.exceptions
from pydantic import ValidationError
from requests.adapters import HTTPAdapter

from ..contract import KeyCensus
from ..errors import ConfigError
from ..golden.models import GoldenCase
from ..jsonio import loads_strict, read_text_file
from ..outcomes.load import parse_outcome
from ..outcomes.model import Outcome, error_outcome
from ..safe_text import truncate
from ..validation import problems_from_validation_error
from .base import Collection, complete_collection
from .http_progress import ProgressReporter

__all__ = [
    "DEFAULT_MAX_RESPONSE_BYTES",
    "HEADERS_ENV",
    "HttpSettings",
    "HttpSystem",
    "TokenBucket",
    "backoff_delay",
    "error_rate",
    "load_headers",
    "parse_retry_after",
]

DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024
HEADERS_ENV = "RAGSPINE_HTTP_HEADERS"
REDACTED = "[redacted]"

_TOKEN_RE = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")  # RFC 9110 header name
_BAD_VALUE_RE = re.compile(r"[\r\n\x00]")
_USER_AGENT = "ragspine-eval (http system)"


# --------------------------------------------------------------------------- settings


def _display_url(url: str) -> str:
    """The endpoint as it may be shown: no user info, no query (either may hold a token)."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        if ":" in host:
            host = f"[{host}]"
        if parts.port is not None:
            host = f"{host}:{parts.port}"
        return urlunsplit((parts.scheme, host, parts.path, "…" if parts.query else "", ""))
    except ValueError:
        return "(unparsable URL)"


def _split_endpoint(url: object) -> SplitResult | None:
    """The parsed endpoint, or None when it is no URL at all (``http://[::1``, bad port)."""
    if not isinstance(url, str):
        return None
    try:
        parts = urlsplit(url)
        _ = parts.port  # raises for a port that is not a number in 0-65535
    except ValueError:
        return None
    return parts


def _without_userinfo(url: str) -> str:
    """The endpoint as requested: credentials travel in the Authorization header only."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def _check_header(name: object, value: object, where: str) -> tuple[str, str]:
    """Validate one header; messages name the header, never its value."""
    if not isinstance(name, str) or not _TOKEN_RE.match(name):
        # Never the name itself: a headers file may be a link to secrets (/proc/self/environ).
        shown = f"of {len(name)} characters" if isinstance(name, str) else "(not a string)"
        raise ConfigError(
            f"{where}: invalid header name {shown}: use letters, digits and !#$%&'*+-.^_`|~"
        )
    if not isinstance(value, str):
        raise ConfigError(f"{where}: header {name}: value must be a string")
    value = value.strip()
    if _BAD_VALUE_RE.search(value):
        raise ConfigError(f"{where}: header {name}: value contains a line break or NUL")
    return name, value


def _positive(name: str, value: object, *, integer: bool, allow_zero: bool = False) -> None:
    kind = int if integer else (int, float)
    ok = isinstance(value, kind) and not isinstance(value, bool)
    if ok:
        number = float(value)  # type: ignore[arg-type]
        ok = math.isfinite(number) and (number >= 0 if allow_zero else number > 0)
    if not ok:
        what = "an integer" if integer else "a number"
        bound = "≥ 0" if allow_zero else "> 0"
        raise ConfigError(f"http {name}: expected {what} {bound}, got {value!r}")


@dataclass(frozen=True, repr=False)
class HttpSettings:
    """How to call the endpoint. ``headers`` values are secrets and stay out of ``repr``."""

    endpoint: str
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    concurrency: int = 8
    timeout_s: float = 30.0
    retries: int = 3
    backoff_base_s: float = 0.5
    backoff_max_s: float = 30.0
    retry_after_max_s: float = 60.0
    rate_limit: float | None = None
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES

    def __post_init__(self) -> None:
        parts = _split_endpoint(self.endpoint)
        if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
            shown = _display_url(self.endpoint) if isinstance(self.endpoint, str) else "?"
            raise ConfigError(
                f"http endpoint: expected an http:// or https:// URL with a host, got {shown!r}"
            )
        _positive("concurrency", self.concurrency, integer=True)
        _positive("timeout", self.timeout_s, integer=False)
        _positive("retries", self.retries, integer=True, allow_zero=True)
        _positive("backoff base", self.backoff_base_s, integer=False, allow_zero=True)
        _positive("backoff max", self.backoff_max_s, integer=False, allow_zero=True)
        _positive("retry-after max", self.retry_after_max_s, integer=False, allow_zero=True)
        _positive("max response bytes", self.max_response_bytes, integer=True)
        if self.rate_limit is not None:
            _positive("rate limit", self.rate_limit, integer=False)
        if not isinstance(self.headers, Mapping):
            raise ConfigError("http headers: expected a mapping of header name to value")
        checked = dict(_check_header(k, v, "http headers") for k, v in self.headers.items())
        object.__setattr__(self, "headers", MappingProxyType(checked))

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{f.name}={getattr(self, f.name)!r}"
            for f in fields(self)
            if f.name not in ("endpoint", "headers")
        )
        names = sorted(self.headers)
        return (
            f"HttpSettings(endpoint={self.display_endpoint()!r}, headers={names!r} (values hidden), "
            f"{shown})"
        )

    def display_endpoint(self) -> str:
        """The endpoint fit for logs and reports: no user info, no query string."""
        return _display_url(self.endpoint)

    def request_headers(self) -> dict[str, str]:
        """The headers every request carries: the user's, plus Basic authentication from
        ``user:password@`` in the endpoint (unless an Authorization header is given)."""
        headers = dict(self.headers)
        basic = self._basic_credentials()
        if basic is not None and not any(k.lower() == "authorization" for k in headers):
            headers["Authorization"] = f"Basic {basic}"
        return headers

    def _basic_credentials(self) -> str | None:
        parts = urlsplit(self.endpoint)
        if parts.username is None and parts.password is None:
            return None
        pair = f"{unquote(parts.username or '')}:{unquote(parts.password or '')}"
        return base64.b64encode(pair.encode("utf-8")).decode("ascii")

    def secret_values(self) -> list[str]:
        """Strings to scrub from output (and to mask in CI logs): each header value, its
        credential part after a scheme word such as ``Bearer``, and the endpoint's
        password and query string."""
        found: set[str] = set()
        for value in self.headers.values():
            if value:
                found.add(value)
            _scheme, _, credential = value.partition(" ")
            if credential.strip() and len(credential.strip()) >= 4:
                found.add(credential.strip())
        parts = urlsplit(self.endpoint)
        found.update(x for x in (parts.password, parts.query) if x)
        if parts.password:
            found.add(unquote(parts.password))
            found.add(parts.netloc.rpartition("@")[0])
        basic = self._basic_credentials()
        if basic is not None:
            found.add(basic)
        return sorted(found, key=len, reverse=True)


def load_headers(
    *,
    env: Mapping[str, str] | None = None,
    path: str | os.PathLike[str] | None = None,
) -> dict[str, str]:
    """Extra request headers from a file and/or ``RAGSPINE_HTTP_HEADERS``.

    The file holds ``Name: value`` lines (blank lines and ``#`` comments skipped) or a
    JSON object; the variable holds a JSON object and wins over the file. Errors name
    the source and the header, never a value.
    """
    headers: dict[str, str] = {}
    if path is not None:
        headers.update(_headers_from_text(read_text_file(path, max_bytes=1024 * 1024), str(path)))
    environ = os.environ if env is None else env
    raw = environ.get(HEADERS_ENV)
    if raw is not None and raw.strip():
        headers.update(_headers_from_json(raw, HEADERS_ENV))
    return headers


def _headers_from_json(text: str, where: str) -> dict[str, str]:
    try:
        obj = loads_strict(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{where}: invalid JSON: {exc.msg} (column {exc.colno})") from None
    except (ValueError, RecursionError):
        raise ConfigError(f"{where}: invalid JSON") from None
    if not isinstance(obj, dict):
        raise ConfigError(f"{where}: expected a JSON object of header name to string value")
    return dict(_check_header(k, v, where) for k, v in obj.items())


def _headers_from_text(text: str, where: str) -> dict[str, str]:
    if "\x00" in text:
        raise ConfigError(f"{where}: contains NUL bytes: not a headers file")
    if text.lstrip().startswith("{"):
        return _headers_from_json(text, where)
    headers: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, sep, value = line.partition(":")
        if not sep:
            raise ConfigError(f"{where}:{number}: expected a 'Name: value' line")
        key, val = _check_header(name.strip(), value, f"{where}:{number}")
        headers[key] = val
    return headers


# --------------------------------------------------------------------------- retry policy


def backoff_delay(
    attempt: int,
    rng: random.Random,
    *,
    base_s: float,
    max_s: float,
    retry_after_s: float | None = None,
) -> float:
    """Seconds to wait before retry number ``attempt`` (1-based).

    Full jitter (uniform in ``[0, min(max, base·2^(attempt-1))]``) spreads retries from
    many workers; a server's ``Retry-After`` is a floor, since it said when to come back.
    """
    ceiling = min(max_s, base_s * 2 ** (attempt - 1))
    delay = rng.uniform(0.0, ceiling) if ceiling > 0 else 0.0
    if retry_after_s is not None:
        delay = max(delay, retry_after_s)
    return delay


def parse_retry_after(
    value: str | None, *, cap_s: float, now: Callable[[], datetime] | None = None
) -> float | None:
    """``Retry-After`` as seconds (delta-seconds or an HTTP date), capped; None if absent
    or unparsable."""
    if value is None:
        return None
    text = value.strip()
    if not text:
        return None
    if text.isascii() and text.isdigit():
        return min(float(text), cap_s)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    current = now() if now is not None else datetime.now(UTC)
    return min(max(0.0, (when - current).total_seconds()), cap_s)


class TokenBucket:
    """A requests-per-second limit shared by all worker threads.

    Callers reserve a token under the lock and sleep outside it, so waiting threads
    queue up in order instead of spinning.
    """

    def __init__(
        self,
        rate: float,
        *,
        burst: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Any] = time.sleep,
    ) -> None:
        if not rate > 0:
            raise ValueError("rate must be > 0")
        self._rate = rate
        self._burst = max(1.0, burst)
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._tokens = self._burst
        self._updated = clock()

    def reserve(self) -> float:
        """Take one token; return how long the caller must wait before using it."""
        with self._lock:
            now = self._clock()
            self._tokens = min(self._burst, self._tokens + (now - self._updated) * self._rate)
            self._updated = now
            self._tokens -= 1.0
            return 0.0 if self._tokens >= 0 else -self._tokens / self._rate

    def acquire(self) -> None:
        wait = self.reserve()
        if wait > 0:
            self._sleep(wait)


# --------------------------------------------------------------------------- one attempt


class _Redactor:
    """Replaces every secret (plain and JSON-escaped) with ``[redacted]``.

    Values shorter than 4 characters are not scrubbed: replacing "1" or "en" everywhere
    would mangle every message, and such a value guards nothing.
    """

    def __init__(self, secrets: Sequence[str]) -> None:
        variants: set[str] = set()
        for secret in secrets:
            variants.add(secret)
            variants.add(json.dumps(secret)[1:-1])
        self._secrets = sorted((v for v in variants if len(v) >= 4), key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for secret in self._secrets:
            if secret in text:
                text = text.replace(secret, REDACTED)
        return text

    @property
    def values(self) -> list[str]:
        return list(self._secrets)

    def cut(self, text: str, limit: int) -> str:
        """Redact, then shorten: a secret is never cut into a prefix that survives."""
        return truncate(text, limit, self._secrets)

    def outcome(self, outcome: Outcome) -> Outcome:
        """The outcome with secrets scrubbed from every string but the case id."""
        if not self._secrets:
            return outcome
        dumped = outcome.model_dump_json()
        if self(dumped) == dumped:
            return outcome
        data = outcome.model_dump(mode="json")
        cleaned = {k: v if k == "id" else self._scrub(v) for k, v in data.items()}
        return Outcome.model_validate(cleaned)

    def _scrub(self, value: Any) -> Any:
        if isinstance(value, str):
            return self(value)
        if isinstance(value, list):
            return [self._scrub(v) for v in value]
        if isinstance(value, dict):
            return {k: self._scrub(v) for k, v in value.items()}
        return value


@dataclass(frozen=True)
class _Attempt:
    """What one HTTP attempt gave: an outcome, or a failure and whether to retry."""

    outcome: Outcome | None = None
    head: str = ""  # "HTTP 503", "connection error", "timeout"
    reason: str = ""
    retryable: bool = False
    retry_after_s: float | None = None
    latency_ms: float | None = None
    # What a caller's own parser read from a 2xx response (``HttpSystem.send``).
    value: Any = None

    @property
    def ok(self) -> bool:
        return self.outcome is not None or self.value is not None


# Reads a complete 2xx response: (response, body, "HTTP 200", latency in ms) → an attempt.
ResponseParser = Callable[[urllib3.BaseHTTPResponse, bytes, str, float], _Attempt]


@dataclass(frozen=True)
class _CaseResult:
    outcome: Outcome
    attempts: int
    latency_ms: float | None  # of the successful attempt


class _TooLarge(Exception):
    pass


class _Deadline(Exception):
    pass


_ATTEMPT = threading.local()  # the _Guard of the attempt this worker thread is making


class _Guard:
    """One attempt's whole-response deadline and the connection it is using."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.expired = False
        self.done = False
        self.connection: Any = None
        self.sock: socket.socket | None = None  # kept: http.client drops conn.sock on close

    def cut(self) -> bool:
        """Shut the connection's socket (a blocked read then returns); False if none yet."""
        sock = self.sock or getattr(self.connection, "sock", None)
        if sock is None:
            return False
        # socket.socket's own shutdown: an SSLSocket's would drop its TLS state under
        # the reading thread.
        with contextlib.suppress(OSError):
            socket.socket.shutdown(sock, socket.SHUT_RDWR)
        return True


class _Watchdog:
    """One thread that ends every attempt still running at its deadline.

    Socket timeouts bound each read, not the response: a server sending a byte just
    inside every timeout (slow-loris) would hold a case for ever. At the deadline the
    watchdog shuts the attempt's socket, so the blocked read returns at once.
    """

    _RECHECK_S = 0.02  # an attempt still connecting has no socket to shut yet

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._heap: list[tuple[float, int, _Guard]] = []
        self._counter = 0
        self._thread: threading.Thread | None = None

    def arm(self, timeout_s: float) -> _Guard:
        guard = _Guard(time.monotonic() + timeout_s)
        with self._cond:
            self._counter += 1
            heapq.heappush(self._heap, (guard.deadline, self._counter, guard))
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._loop, name="ragspine-http-deadline", daemon=True
                )
                self._thread.start()
            self._cond.notify()
        return guard

    def disarm(self, guard: _Guard) -> None:
        with self._cond:
            guard.done = True

    def _loop(self) -> None:
        with self._cond:
            while True:
                while self._heap and self._heap[0][2].done:
                    heapq.heappop(self._heap)
                if not self._heap:
                    self._cond.wait()
                    continue
                deadline, _, guard = self._heap[0]
                now = time.monotonic()
                if now < deadline:
                    self._cond.wait(deadline - now)
                    continue
                guard.expired = True
                heapq.heappop(self._heap)
                if not guard.cut():
                    self._counter += 1
                    retry_at = now + self._RECHECK_S
                    heapq.heappush(self._heap, (retry_at, self._counter, guard))


def _watched_connection(cls: type[Any]) -> type[Any]:
    """``cls`` registering itself with the current attempt's guard when it is used."""

    def _attach(conn: Any) -> None:
        guard = getattr(_ATTEMPT, "guard", None)
        if guard is not None:
            guard.connection = conn
            if getattr(conn, "sock", None) is not None:
                guard.sock = conn.sock
            if guard.expired:
                raise _Deadline

    class Watched(cls):  # type: ignore[misc]
        def connect(self) -> None:
            _attach(self)
            super().connect()
            _attach(self)

        def request(self, *args: Any, **kwargs: Any) -> None:
            _attach(self)
            super().request(*args, **kwargs)
            _attach(self)

    return Watched


class _Transport:
    """One connection pool to the endpoint, shared by all workers.

    requests resolves what the environment asks for (proxies, CA bundle) and builds the
    pool (``HTTPAdapter(pool_maxsize=concurrency)``); each attempt then goes straight to
    the pool. A full ``Session.post`` spends more CPU per call than a loopback round
    trip takes, which caps throughput long before the endpoint does.
    """

    def __init__(self, endpoint: str, concurrency: int) -> None:
        with requests.Session() as probe:
            env = probe.merge_environment_settings(endpoint, {}, None, None, None)
        proxies: dict[str, str] = dict(env.get("proxies") or {})
        verify = env.get("verify", True)
        self._adapter = HTTPAdapter(
            pool_connections=1, pool_maxsize=concurrency, max_retries=0, pool_block=False
        )
        endpoint = _without_userinfo(endpoint)
        prepared = requests.Request("POST", endpoint).prepare()
        pool = self._adapter.get_connection_with_tls_context(
            prepared, verify, proxies=proxies, cert=None
        )
        if not isinstance(pool, urllib3.HTTPConnectionPool):  # pragma: no cover
            raise TypeError(f"unexpected connection pool {type(pool).__name__}")
        pool.ConnectionCls = _watched_connection(pool.ConnectionCls)
        self._pool = pool
        self._adapter.cert_verify(pool, endpoint, verify, None)  # type: ignore[no-untyped-call]
        self._target = self._adapter.request_url(prepared, proxies)
        self._host_headers = {"User-Agent": _USER_AGENT, "Accept": "application/json"}

    def post(
        self, body: bytes, headers: Mapping[str, str], timeout_s: float
    ) -> urllib3.BaseHTTPResponse:
        return self._pool.urlopen(
            "POST",
            self._target,
            body=body,
            headers={
                **self._host_headers,
                "Accept-Encoding": "gzip, deflate",
                "Content-Type": "application/json",
                "Content-Length": str(len(body)),
                **headers,
            },
            redirect=False,
            assert_same_host=False,
            preload_content=False,
            decode_content=True,
            retries=False,
            timeout=urllib3.Timeout(total=timeout_s, connect=timeout_s, read=timeout_s),
            chunked=False,
        )

    def close(self) -> None:
        self._adapter.close()


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """The exception and everything it wraps (args, ``reason``, cause, context)."""
    seen: set[int] = set()
    queue: list[BaseException] = [exc]
    while queue and len(seen) < 32:
        current = queue.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        linked = [*current.args, getattr(current, "reason", None)]
        linked += [current.__cause__, current.__context__]
        queue.extend(x for x in linked if isinstance(x, BaseException))


def _is_timeout(exc: BaseException) -> bool:
    for cause in _causes(exc):
        if isinstance(cause, urllib3.exceptions.NewConnectionError):
            continue  # urllib3 files "connection refused" under ConnectTimeoutError
        if isinstance(cause, urllib3.exceptions.TimeoutError | TimeoutError):
            return True
    return False


def _describe_connection_error(exc: BaseException) -> str:
    """A short description without the URL (urllib3's text repeats it, query and all)."""
    for cause in _causes(exc):
        if isinstance(cause, ConnectionRefusedError):
            return "connection refused"
        if isinstance(cause, http.client.RemoteDisconnected):
            return "connection closed by the server without a response"
        if isinstance(cause, ConnectionResetError | BrokenPipeError):
            return "connection reset by the server"
        if isinstance(cause, urllib3.exceptions.NameResolutionError | socket.gaierror):
            return "cannot resolve the host name"
        if isinstance(cause, urllib3.exceptions.SSLError | ssl.SSLError):
            return "TLS error"
        if isinstance(cause, urllib3.exceptions.ProxyError):
            return "proxy error"
        if isinstance(
            cause,
            http.client.IncompleteRead | urllib3.exceptions.InvalidChunkLength,
        ):
            return "connection closed in the middle of the response"
    return f"connection failed ({type(exc).__name__})"


def _media_type(resp: urllib3.BaseHTTPResponse) -> str:
    return str(resp.headers.get("Content-Type", "")).split(";", 1)[0].strip().lower()


def _json_kind(value: object) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return "null"


def _snippet(resp: urllib3.BaseHTTPResponse, data: bytes, redact: _Redactor) -> str:
    """A hint from an error body: a JSON ``error``/``detail``/``message``, or short text."""
    media = _media_type(resp)
    text = ""
    if "json" in media:
        try:
            obj = loads_strict(data)
        except (ValueError, RecursionError):
            obj = None
        if isinstance(obj, dict):
            for key in ("error", "detail", "message"):
                if isinstance(obj.get(key), str):
                    text = obj[key]
                    break
    elif media == "text/plain":
        text = data.decode("utf-8", "replace")
    return redact.cut(" ".join(text.split()), 200)


# --------------------------------------------------------------------------- the system


def _percentile(sorted_values: Sequence[float], share: float) -> float | None:
    """Nearest-rank percentile (a value that was actually observed)."""
    if not sorted_values:
        return None
    rank = max(1, math.ceil(share * len(sorted_values)))
    return round(sorted_values[rank - 1], 1)


def error_rate(collection: Collection) -> float:
    """Share of outcomes that are errors (0.0 for an empty collection)."""
    outcomes = collection.outcomes
    if not outcomes:
        return 0.0
    return sum(o.error is not None for o in outcomes.values()) / len(outcomes)


class HttpSystem:
    """POSTs ``{"id", "question", "reference_date", "tags"}`` per case; reads an outcome.

    ``rng`` makes retry jitter reproducible; ``sleep`` is how waits happen (tests record
    it); ``progress`` receives done/error counts as cases finish.
    """

    name = "http"

    def __init__(
        self,
        settings: HttpSettings,
        *,
        progress: ProgressReporter | None = None,
        rng: random.Random | None = None,
        sleep: Callable[[float], Any] | None = None,
    ) -> None:
        self.settings = settings
        self._progress = progress
        self._rng = rng or random.Random()
        self._rng_lock = threading.Lock()
        self._sleep_override = sleep
        self._redact = _Redactor(settings.secret_values())
        self._headers = settings.request_headers()
        self._watchdog = _Watchdog()
        self._stop = threading.Event()
        self._bucket: TokenBucket | None = None
        self._transport: _Transport | None = None
        self._lock = threading.Lock()
        self._results: dict[str, _CaseResult] = {}
        self._errors = 0
        self._census = KeyCensus()

    def __repr__(self) -> str:
        return f"HttpSystem(endpoint={self.settings.display_endpoint()!r})"

    # -- collection

    def collect(self, cases: Sequence[GoldenCase]) -> Collection:
        cases = list(cases)
        settings = self.settings
        self._results = {}
        self._errors = 0
        self._census = KeyCensus()
        self.open()
        started = time.perf_counter()
        if self._progress is not None:
            self._progress.start(len(cases))
        pool = ThreadPoolExecutor(
            max_workers=max(1, min(settings.concurrency, len(cases))),
            thread_name_prefix="ragspine-http",
        )
        try:
            futures = [pool.submit(self._run_case_safely, case) for case in cases]
            wait(futures)
        except BaseException:
            # Ctrl-C: wake sleeping workers, drop queued cases, leave promptly.
            self._stop.set()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        else:
            pool.shutdown(wait=True)
            self.close()
        finally:
            if self._progress is not None:
                self._progress.finish()
        wall_s = time.perf_counter() - started
        with self._lock:
            results = dict(self._results)
        produced = {case_id: r.outcome for case_id, r in results.items()}
        collection = complete_collection(cases, produced, self._stats(results, wall_s))
        with self._lock:
            collection.census = self._census
        return collection

    def open(self) -> None:
        """Set up the connection pool and the rate limit (``collect`` does it; a caller of
        ``send`` does it once, then ``close``)."""
        settings = self.settings
        self._stop = threading.Event()
        self._bucket = (
            TokenBucket(settings.rate_limit, sleep=self._wait)
            if settings.rate_limit is not None
            else None
        )
        try:
            self._transport = _Transport(settings.endpoint, settings.concurrency)
        except (requests.RequestException, urllib3.exceptions.HTTPError, ValueError) as exc:
            shown = _display_url(settings.endpoint)
            raise ConfigError(
                f"http endpoint {shown}: cannot set up a connection ({type(exc).__name__})"
            ) from None

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()
            self._transport = None

    def redact(self, text: str) -> str:
        """``text`` with every secret of the settings replaced by ``[redacted]``."""
        return self._redact(text)

    def send(self, body: bytes, parse: ResponseParser) -> tuple[_Attempt, int]:
        """POST ``body`` under the retry policy (backoff, ``Retry-After``, the whole-response
        deadline): the last attempt and how many were made. A 2xx response is read by
        ``parse``; a failed attempt's ``head``/``reason`` say why (secrets not scrubbed)."""
        settings = self.settings
        attempts = 0
        while True:
            if self._stop.is_set():
                return _Attempt(head="interrupted", reason="interrupted"), attempts
            if self._bucket is not None:
                self._bucket.acquire()
            attempts += 1
            result = self._exchange(body, parse)
            if result.ok or not result.retryable or attempts > settings.retries:
                return result, attempts
            with self._rng_lock:
                delay = backoff_delay(
                    attempts,
                    self._rng,
                    base_s=settings.backoff_base_s,
                    max_s=settings.backoff_max_s,
                    retry_after_s=result.retry_after_s,
                )
            self._wait(delay)

    def _record(self, case: GoldenCase, result: _CaseResult) -> None:
        with self._lock:
            self._results[case.id] = result
            self._errors += result.outcome.error is not None
            done, errors = len(self._results), self._errors
            if self._progress is not None:
                self._progress.update(done, errors)

    def _stats(self, results: Mapping[str, _CaseResult], wall_s: float) -> dict[str, Any]:
        requests_n = len(results)
        attempts = sum(r.attempts for r in results.values())
        latencies = sorted(r.latency_ms for r in results.values() if r.latency_ms is not None)
        return {
            "requests": requests_n,
            "attempts": attempts,
            "retries": attempts - requests_n,
            "errors": sum(r.outcome.error is not None for r in results.values()),
            "latency_ms": {
                "p50": _percentile(latencies, 0.50),
                "p95": _percentile(latencies, 0.95),
                "max": round(latencies[-1], 1) if latencies else None,
            },
            "wall_s": round(wall_s, 3),
            "rate_per_s": round(requests_n / wall_s, 1) if wall_s > 0 else None,
            "concurrency": self.settings.concurrency,
        }

    def _wait(self, seconds: float) -> None:
        if self._sleep_override is not None:
            self._sleep_override(seconds)
        else:
            self._stop.wait(seconds)

    # -- one case

    def _run_case_safely(self, case: GoldenCase) -> None:
        try:
            result = self._run_case(case)
        except Exception as exc:  # a bug must cost one case, not the run
            message = self._redact(f"internal error: {type(exc).__name__}: {exc}")
            result = _CaseResult(error_outcome(case.id, message), 1, None)
        self._record(case, result)

    def _run_case(self, case: GoldenCase) -> _CaseResult:
        body = json.dumps(
            {
                "id": case.id,
                "question": case.question,
                "reference_date": (
                    case.reference_date.isoformat() if case.reference_date else None
                ),
                "tags": dict(case.tags),
            },
            ensure_ascii=False,
        ).encode("utf-8")
        result, attempts = self.send(
            body, lambda resp, data, head, ms: self._parse(case, resp, data, head, ms)
        )
        if result.outcome is not None:
            outcome = result.outcome
            if outcome.latency_ms is None and result.latency_ms is not None:
                outcome = outcome.model_copy(update={"latency_ms": result.latency_ms})
            return _CaseResult(self._redact.outcome(outcome), attempts, result.latency_ms)
        if result.head == "interrupted":
            return _CaseResult(error_outcome(case.id, "interrupted"), attempts, None)
        plural = "" if attempts == 1 else "s"
        message = f"{result.head}: {result.reason}; {attempts} attempt{plural}"
        return _CaseResult(error_outcome(case.id, self._redact(message)), attempts, None)

    def _exchange(self, body: bytes, parse: ResponseParser) -> _Attempt:
        assert self._transport is not None
        timeout = self.settings.timeout_s
        started = time.perf_counter()
        guard = self._watchdog.arm(timeout)
        _ATTEMPT.guard = guard
        too_late = _Attempt(
            head="timeout", reason=f"response not complete within {timeout:g} s", retryable=True
        )
        try:
            resp = self._transport.post(body, self._headers, timeout)
        except (_Deadline, urllib3.exceptions.HTTPError, OSError) as exc:
            self._watchdog.disarm(guard)
            expired = guard.expired or isinstance(exc, _Deadline)
            return self._transport_failure(exc, timed_out=expired)
        finally:
            _ATTEMPT.guard = None
        complete = False
        try:
            head = f"HTTP {resp.status}"
            try:
                data = self._read_body(resp, guard.deadline)
                complete = not guard.expired
            except _TooLarge as exc:
                return _Attempt(head=head, reason=str(exc))
            except _Deadline:
                return too_late
            except (urllib3.exceptions.HTTPError, OSError) as exc:
                return too_late if guard.expired else self._transport_failure(exc)
            finally:
                self._watchdog.disarm(guard)
            if guard.expired:  # the watchdog cut the body short: it is not the response
                return too_late
        finally:
            if not complete:
                resp.close()  # unread bytes or a cut socket: the connection cannot be reused
            resp.release_conn()
        latency_ms = (time.perf_counter() - started) * 1000.0
        if 200 <= resp.status < 300:
            return parse(resp, data, head, latency_ms)
        return self._status_failure(resp, data, head)

    def _transport_failure(self, exc: BaseException, *, timed_out: bool = False) -> _Attempt:
        if timed_out or _is_timeout(exc):
            return _Attempt(
                head="timeout",
                reason=f"no response within {self.settings.timeout_s:g} s",
                retryable=True,
            )
        if isinstance(exc, urllib3.exceptions.DecodeError):
            return _Attempt(head="HTTP response", reason="response body cannot be decompressed")
        return _Attempt(
            head="connection error", reason=_describe_connection_error(exc), retryable=True
        )

    def _read_body(self, resp: urllib3.BaseHTTPResponse, deadline: float) -> bytes:
        limit = self.settings.max_response_bytes
        declared = str(resp.headers.get("Content-Length", "")).strip()
        if declared.isascii() and declared.isdigit() and int(declared) > limit:
            raise _TooLarge(f"response of {int(declared)} bytes is over the limit of {limit} bytes")
        buffer = bytearray()
        for chunk in resp.stream(64 * 1024, decode_content=True):
            buffer += chunk
            if len(buffer) > limit:
                raise _TooLarge(f"response is over the limit of {limit} bytes")
            if time.monotonic() > deadline:
                raise _Deadline
        return bytes(buffer)

    def _status_failure(self, resp: urllib3.BaseHTTPResponse, data: bytes, head: str) -> _Attempt:
        status = resp.status
        try:
            phrase = HTTPStatus(status).phrase
        except ValueError:
            phrase = resp.reason or "unknown status"
        if 300 <= status < 400:
            location = _display_url(str(resp.headers.get("Location", "")))
            return _Attempt(
                head=head, reason=f"{phrase}: redirect to {location} not followed (use that URL)"
            )
        hint = _snippet(resp, data, self._redact)
        reason = f"{phrase}: {hint}" if hint else phrase
        if status == 429 or status >= 500:
            retry_after = parse_retry_after(
                resp.headers.get("Retry-After"), cap_s=self.settings.retry_after_max_s
            )
            return _Attempt(head=head, reason=reason, retryable=True, retry_after_s=retry_after)
        return _Attempt(head=head, reason=reason)

    def _parse(
        self,
        case: GoldenCase,
        resp: urllib3.BaseHTTPResponse,
        data: bytes,
        head: str,
        latency_ms: float,
    ) -> _Attempt:
        media = _media_type(resp) or "no Content-Type"
        if not data.strip():
            return _Attempt(head=head, reason="response body is empty")
        try:
            obj = loads_strict(data)
        except (ValueError, RecursionError) as exc:
            if "json" not in media:
                return _Attempt(head=head, reason=f"response is not JSON ({media})")
            if isinstance(exc, json.JSONDecodeError):
                detail = f"{exc.msg} (column {exc.colno})"
            elif isinstance(exc, UnicodeDecodeError):
                detail = "not valid UTF-8"
            else:
                detail = str(exc)
            return _Attempt(head=head, reason=f"response is not valid JSON: {detail}")
        if not isinstance(obj, dict):
            return _Attempt(head=head, reason=f"response is {_json_kind(obj)}, not a JSON object")
        with self._lock:
            self._census.add(obj)
        if obj.get("id") is None:
            obj = {**obj, "id": case.id}
        elif isinstance(obj["id"], str) and obj["id"] != case.id:
            shown = self._redact.cut(obj["id"], 60)
            return _Attempt(head=head, reason=f"response id {shown!r} does not match the case id")
        try:
            outcome = parse_outcome(obj)
        except ValidationError as exc:
            problems = problems_from_validation_error(exc, "", None, None)
            details = self._redact.cut("; ".join(f"{p.field}: {p.message}" for p in problems), 500)
            return _Attempt(head=head, reason=f"response is not a valid outcome: {details}")
        return _Attempt(outcome=outcome, latency_ms=round(latency_ms, 3))

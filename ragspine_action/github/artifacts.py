"""Upload one file as a workflow artifact, the way ``actions/upload-artifact@v4`` does.

Protocol (Twirp JSON at the origin of ``ACTIONS_RESULTS_URL``, bearer
``ACTIONS_RUNTIME_TOKEN``):

1. ``CreateArtifact`` with the backend ids from the runtime token's ``scp`` claim
   (``Actions.Results:<run>:<job>``), the name and ``version: 4`` → ``signed_upload_url``;
2. ``PUT`` the zip to that URL with ``x-ms-blob-type: BlockBlob`` and no Authorization;
3. ``FinalizeArtifact`` with ``size`` (int64 → a JSON string) and ``hash`` ``sha256:<hex>``
   → ``artifact_id``.

Answers may use snake_case or camelCase keys. 429 and 5xx are retried with backoff
(``Retry-After`` honoured up to a cap). Errors raise ``ArtifactError``; messages never
contain the runtime token or the signed URL's query (its signature is a credential).
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import hashlib
import io
import json
import time
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import requests
from requests.auth import AuthBase

from ragspine_action.github.errors import ArtifactError, ArtifactNameError

__all__ = [
    "ARTIFACT_SERVICE",
    "INVALID_NAME_CHARACTERS",
    "ArtifactUpload",
    "BackendIds",
    "backend_ids_from_token",
    "upload_file_artifact",
    "validate_artifact_name",
    "zip_file",
    "zip_files",
]

ARTIFACT_SERVICE = "github.actions.results.api.v1.ArtifactService"
#: The characters actions/upload-artifact refuses in names (and in paths inside the zip).
INVALID_NAME_CHARACTERS = ('"', ":", "<", ">", "|", "*", "?", "\r", "\n", "\\", "/")
_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


@dataclass(frozen=True)
class BackendIds:
    """The run and job ids the results service knows this job by."""

    workflow_run_backend_id: str
    workflow_job_run_backend_id: str


@dataclass(frozen=True)
class ArtifactUpload:
    """A finished upload."""

    artifact_id: int
    name: str
    size: int  # bytes of the zip
    digest: str  # "sha256:<hex>" of the zip


def validate_artifact_name(name: str) -> str:
    """Return ``name`` if the artifact service will take it, else ``ArtifactNameError``."""
    if not name or not name.strip():
        raise ArtifactNameError("artifact name is empty")
    bad = sorted({repr(c) for c in name if c in INVALID_NAME_CHARACTERS})
    if bad:
        raise ArtifactNameError(
            f"artifact name {name!r} contains {', '.join(bad)}; "
            'not allowed: " : < > | * ? \\r \\n \\ /'
        )
    return name


def backend_ids_from_token(runtime_token: str) -> BackendIds:
    """Read ``Actions.Results:<run>:<job>`` from the JWT's ``scp`` claim (no verification)."""
    parts = runtime_token.split(".")
    if len(parts) != 3:
        raise ArtifactError("ACTIONS_RUNTIME_TOKEN is not a JWT")
    payload_b64 = parts[1] + "=" * (-len(parts[1]) % 4)
    try:
        payload = json.loads(base64.urlsafe_b64decode(payload_b64))
    except (binascii.Error, ValueError, RecursionError):
        raise ArtifactError("ACTIONS_RUNTIME_TOKEN has an unreadable payload") from None
    scopes = payload.get("scp") if isinstance(payload, dict) else None
    if not isinstance(scopes, str):
        raise ArtifactError("ACTIONS_RUNTIME_TOKEN has no scp claim")
    for scope in scopes.split():
        pieces = scope.split(":")
        if pieces[0] == "Actions.Results" and len(pieces) == 3 and all(pieces[1:]):
            return BackendIds(pieces[1], pieces[2])
    raise ArtifactError("ACTIONS_RUNTIME_TOKEN has no Actions.Results:<run>:<job> scope")


def zip_files(files: Sequence[tuple[str | Path, str]]) -> bytes:
    """Each ``(path, arcname)`` deflated into one in-memory zip, in the given order."""
    buffer = io.BytesIO()
    seen: set[str] = set()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path, arcname in files:
            source = Path(path)
            if any(c in arcname for c in INVALID_NAME_CHARACTERS if c != "/"):
                raise ArtifactNameError(f"file name {arcname!r} is not allowed in an artifact")
            if arcname in seen:
                raise ArtifactNameError(f"file name {arcname!r} twice in one artifact")
            seen.add(arcname)
            try:
                data = source.read_bytes()
                mtime = source.stat().st_mtime
            except OSError as exc:
                raise ArtifactError(f"cannot read {source}: {exc.strerror}") from exc
            stamp = dt.datetime.fromtimestamp(max(mtime, 315_532_800), tz=dt.UTC)  # zip: 1980+
            info = zipfile.ZipInfo(arcname, date_time=stamp.timetuple()[:6])
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return buffer.getvalue()


def zip_file(path: str | Path, arcname: str | None = None) -> bytes:
    """The file, deflated into an in-memory zip under ``arcname`` (default: its basename)."""
    return zip_files([(path, arcname or Path(path).name)])


class _NoAuth(AuthBase):
    """The signed URL is the credential: send no Authorization, not even from ``~/.netrc``."""

    def __call__(self, request: requests.PreparedRequest) -> requests.PreparedRequest:
        request.headers.pop("Authorization", None)
        return request


def _pick(answer: dict[str, Any], snake: str) -> Any:
    head, *rest = snake.split("_")
    camel = head + "".join(word.title() for word in rest)
    return answer[snake] if snake in answer else answer.get(camel)


def _retry_wait(response: requests.Response, attempt: int, base: float, cap: float) -> float:
    value = str(response.headers.get("Retry-After", "")).strip()
    if value.isascii() and value.replace(".", "", 1).isdigit():
        return min(float(value), cap)
    return min(base * 2.0**attempt, cap)


class _Uploader:
    def __init__(
        self,
        session: requests.Session,
        timeout: float,
        attempts: int,
        backoff: float,
        max_wait: float,
        sleep: Callable[[float], None],
    ) -> None:
        self.session = session
        self.timeout = timeout
        self.attempts = max(1, attempts)
        self.backoff = backoff
        self.max_wait = max_wait
        self.sleep = sleep

    def send(self, what: str, method: str, url: str, **kwargs: Any) -> requests.Response:
        """One call with retries on 429/5xx and connection failures."""
        last = ""
        for attempt in range(self.attempts):
            try:
                response = self.session.request(method, url, timeout=self.timeout, **kwargs)
            except requests.RequestException as exc:
                last = f"request failed ({type(exc).__name__})"
                if attempt + 1 < self.attempts:
                    self.sleep(min(self.backoff * 2**attempt, self.max_wait))
                continue
            if response.status_code < 400:
                return response
            last = f"HTTP {response.status_code} {_twirp_message(response)}".rstrip()
            if response.status_code not in _RETRY_STATUSES:
                break
            if attempt + 1 < self.attempts:
                self.sleep(_retry_wait(response, attempt, self.backoff, self.max_wait))
        raise ArtifactError(f"{what}: {last}")

    def twirp(self, origin: str, method: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
        response = self.send(
            method,
            "POST",
            f"{origin}/twirp/{ARTIFACT_SERVICE}/{method}",
            data=json.dumps(body).encode("utf-8"),
            headers={
                "Authorization": f"Bearer {token}",
                "Content-Type": "application/json",
                "Accept": "application/json",
                "User-Agent": "ragspine-eval",
            },
        )
        try:
            answer = response.json()
        except (ValueError, RecursionError):
            raise ArtifactError(f"{method}: answer is not JSON") from None
        if not isinstance(answer, dict):
            raise ArtifactError(f"{method}: answer is not a JSON object")
        if answer.get("ok") is not True:
            raise ArtifactError(f"{method}: the artifact service answered ok=false")
        return answer


def _twirp_message(response: requests.Response) -> str:
    try:
        data = response.json()
    except (ValueError, RecursionError):
        return response.reason or ""
    msg = data.get("msg") or data.get("message") if isinstance(data, dict) else None
    return " ".join(str(msg or response.reason or "").split())[:200]


def upload_file_artifact(
    path: str | Path,
    *,
    name: str,
    runtime_token: str,
    results_url: str,
    retention_days: int | None = None,
    session: requests.Session | None = None,
    timeout: float = 60.0,
    attempts: int = 5,
    backoff: float = 1.0,
    max_wait: float = 30.0,
    sleep: Callable[[float], None] = time.sleep,
    now: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.UTC),
    extra_files: Sequence[tuple[str | Path, str]] = (),
) -> ArtifactUpload:
    """Zip ``path`` (and any ``(path, arcname)`` of ``extra_files``) and upload it as
    artifact ``name``; return the artifact id."""
    validate_artifact_name(name)
    if retention_days is not None and not 1 <= retention_days <= 90:
        raise ArtifactError(f"artifact retention days must be 1–90, got {retention_days}")
    if not runtime_token:
        raise ArtifactError("ACTIONS_RUNTIME_TOKEN is not set: not running in GitHub Actions")
    parts = urlsplit(results_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ArtifactError("ACTIONS_RESULTS_URL is not set or not a URL")
    origin = f"{parts.scheme}://{parts.netloc}"
    ids = backend_ids_from_token(runtime_token)
    archive = zip_files([(path, Path(path).name), *extra_files])
    digest = "sha256:" + hashlib.sha256(archive).hexdigest()

    uploader = _Uploader(session or requests.Session(), timeout, attempts, backoff, max_wait, sleep)
    id_fields = {
        "workflow_run_backend_id": ids.workflow_run_backend_id,
        "workflow_job_run_backend_id": ids.workflow_job_run_backend_id,
    }
    create: dict[str, Any] = {**id_fields, "name": name, "version": 4}
    if retention_days is not None:
        expires = now() + dt.timedelta(days=retention_days)
        create["expires_at"] = expires.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    answer = uploader.twirp(origin, "CreateArtifact", runtime_token, create)
    signed_url = _pick(answer, "signed_upload_url")
    if not isinstance(signed_url, str) or urlsplit(signed_url).scheme not in ("http", "https"):
        raise ArtifactError("CreateArtifact: no signed_upload_url in the answer")

    blob = urlsplit(signed_url)
    uploader.send(
        f"blob upload to {blob.netloc}{blob.path}",
        "PUT",
        signed_url,
        data=archive,
        auth=_NoAuth(),
        headers={
            "x-ms-blob-type": "BlockBlob",
            "Content-Type": "application/zip",
            "User-Agent": "ragspine-eval",
        },
    )

    finalize = {**id_fields, "name": name, "size": str(len(archive)), "hash": digest}
    answer = uploader.twirp(origin, "FinalizeArtifact", runtime_token, finalize)
    raw_id = _pick(answer, "artifact_id")
    try:
        artifact_id = int(raw_id)
    except (TypeError, ValueError):
        raise ArtifactError("FinalizeArtifact: no artifact_id in the answer") from None
    return ArtifactUpload(artifact_id=artifact_id, name=name, size=len(archive), digest=digest)

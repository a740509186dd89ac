"""Artifact upload against the fake results service: calls, ids, size, hash, retries."""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
from pathlib import Path

import pytest
from github_fakes import FakeArtifactService, make_runtime_token

from ragspine_action.github import (
    ArtifactError,
    ArtifactNameError,
    backend_ids_from_token,
    upload_file_artifact,
    validate_artifact_name,
    zip_file,
)

SERVICE = "/twirp/github.actions.results.api.v1.ArtifactService/"


class Sleeps(list[float]):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture
def report(tmp_path: Path) -> Path:
    path = tmp_path / "ragspine-report.json"
    path.write_text(json.dumps({"verdict": "fail", "qa": {"n_cases": 3}}))
    return path


def _upload(fake: FakeArtifactService, path: Path, **kwargs: object) -> object:
    options: dict[str, object] = {
        "name": "ragspine-report",
        "runtime_token": fake.runtime_token,
        "results_url": fake.results_url + "some/path?x=1",
        "sleep": Sleeps(),
        **kwargs,
    }
    return upload_file_artifact(path, **options)  # type: ignore[arg-type]


def test_upload_protocol(fake_artifacts: FakeArtifactService, report: Path) -> None:
    result = _upload(fake_artifacts, report)
    artifact = fake_artifacts.artifacts["ragspine-report"]
    assert artifact.finalized
    assert result.artifact_id == artifact.id  # type: ignore[attr-defined]
    assert artifact.files() == {"ragspine-report.json": report.read_bytes()}

    create, put, finalize = fake_artifacts.requests
    assert create.path == SERVICE + "CreateArtifact"
    assert create.headers["authorization"] == f"Bearer {fake_artifacts.runtime_token}"
    assert create.headers["content-type"] == "application/json"
    assert create.json() == {
        "workflow_run_backend_id": "run-backend-1",
        "workflow_job_run_backend_id": "job-backend-1",
        "name": "ragspine-report",
        "version": 4,
    }
    assert put.method == "PUT" and put.headers["x-ms-blob-type"] == "BlockBlob"
    assert "authorization" not in put.headers
    assert finalize.path == SERVICE + "FinalizeArtifact"
    body = finalize.json()
    assert body["size"] == str(len(put.body)) and isinstance(body["size"], str)
    assert body["hash"] == "sha256:" + hashlib.sha256(put.body).hexdigest()
    assert result.digest == body["hash"] and result.size == len(put.body)  # type: ignore[attr-defined]


def test_camel_case_answers_are_accepted(fake_artifacts: FakeArtifactService, report: Path) -> None:
    fake_artifacts.camel_case = True
    result = _upload(fake_artifacts, report)
    assert result.artifact_id == fake_artifacts.artifacts["ragspine-report"].id  # type: ignore[attr-defined]


def test_retention_days_set_expiry(fake_artifacts: FakeArtifactService, report: Path) -> None:
    fixed = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)
    _upload(fake_artifacts, report, retention_days=5, now=lambda: fixed)
    assert fake_artifacts.requests[0].json()["expires_at"] == "2026-12-04T12:00:00Z"


@pytest.mark.parametrize("days", [0, 91])
def test_bad_retention_days(fake_artifacts: FakeArtifactService, report: Path, days: int) -> None:
    with pytest.raises(ArtifactError, match="retention"):
        _upload(fake_artifacts, report, retention_days=days)
    assert fake_artifacts.requests == []


def test_create_500_is_retried(fake_artifacts: FakeArtifactService, report: Path) -> None:
    fake_artifacts.fail(500, method="CreateArtifact", times=2)
    sleeps = Sleeps()
    _upload(fake_artifacts, report, sleep=sleeps, backoff=0.5)
    assert sleeps == [0.5, 1.0]
    creates = [r for r in fake_artifacts.requests if r.path.endswith("CreateArtifact")]
    assert len(creates) == 3
    assert fake_artifacts.artifacts["ragspine-report"].finalized


def test_429_retry_after_is_honoured_on_the_blob(
    fake_artifacts: FakeArtifactService, report: Path
) -> None:
    fake_artifacts.fail(429, method="PUT", headers={"Retry-After": "4"})
    sleeps = Sleeps()
    _upload(fake_artifacts, report, sleep=sleeps)
    assert sleeps == [4.0]
    assert fake_artifacts.artifacts["ragspine-report"].finalized


def test_persistent_500_is_a_typed_error(fake_artifacts: FakeArtifactService, report: Path) -> None:
    fake_artifacts.fail(500, method="CreateArtifact", times=100)
    with pytest.raises(ArtifactError, match="CreateArtifact: HTTP 500") as info:
        _upload(fake_artifacts, report, attempts=3)
    assert len(fake_artifacts.requests) == 3
    assert fake_artifacts.runtime_token not in str(info.value)


def test_client_errors_are_not_retried(fake_artifacts: FakeArtifactService, report: Path) -> None:
    _upload(fake_artifacts, report)
    with pytest.raises(ArtifactError, match="409 an artifact with this name exists"):
        _upload(fake_artifacts, report)
    assert len(fake_artifacts.requests) == 4


def test_blob_failure_never_leaks_the_signature(
    fake_artifacts: FakeArtifactService, report: Path
) -> None:
    fake_artifacts.fail(503, method="PUT", times=100)
    with pytest.raises(ArtifactError, match="blob upload") as info:
        _upload(fake_artifacts, report, attempts=2)
    assert fake_artifacts.SIGNATURE not in str(info.value)
    assert not fake_artifacts.artifacts["ragspine-report"].finalized


@pytest.mark.parametrize("name", ["a/b", "a\\b", "x:y", 'q"', "<t>", "p|q", "s*", "w?", "l\nf", ""])
def test_invalid_names_are_refused_before_any_call(
    fake_artifacts: FakeArtifactService, report: Path, name: str
) -> None:
    with pytest.raises(ArtifactNameError):
        _upload(fake_artifacts, report, name=name)
    assert fake_artifacts.requests == []


def test_valid_name_is_returned() -> None:
    assert validate_artifact_name("ragspine report (tool) #3") == "ragspine report (tool) #3"


def test_backend_ids_from_scp_claim() -> None:
    ids = backend_ids_from_token(make_runtime_token("r-1", "j-2"))
    assert (ids.workflow_run_backend_id, ids.workflow_job_run_backend_id) == ("r-1", "j-2")


def _jwt(payload: object) -> str:
    raw = base64.urlsafe_b64encode(json.dumps(payload).encode()).decode().rstrip("=")
    return f"eyJhbGciOiJub25lIn0.{raw}.sig"


@pytest.mark.parametrize(
    "token",
    [
        "not-a-jwt",
        "a.!!!.c",
        _jwt({"scp": "Actions.GenericRead:x Actions.UploadArtifacts:a:b"}),
        _jwt({"scp": "Actions.Results:only-run"}),
        _jwt({"sub": "no scp"}),
        _jwt(["not", "an", "object"]),
    ],
)
def test_bad_runtime_tokens(token: str) -> None:
    with pytest.raises(ArtifactError) as info:
        backend_ids_from_token(token)
    assert token not in str(info.value)


def test_missing_runtime_environment(report: Path) -> None:
    with pytest.raises(ArtifactError, match="ACTIONS_RUNTIME_TOKEN"):
        upload_file_artifact(report, name="r", runtime_token="", results_url="http://x/")
    with pytest.raises(ArtifactError, match="ACTIONS_RESULTS_URL"):
        upload_file_artifact(report, name="r", runtime_token="a.b.c", results_url="")


def test_missing_file_is_a_typed_error(tmp_path: Path) -> None:
    with pytest.raises(ArtifactError, match="cannot read"):
        zip_file(tmp_path / "absent.json")


def test_unreachable_service_is_a_typed_error(report: Path) -> None:
    with FakeArtifactService() as fake:
        token, url = fake.runtime_token, fake.results_url
    sleeps = Sleeps()
    with pytest.raises(ArtifactError, match="CreateArtifact: request failed"):
        upload_file_artifact(
            report, name="r", runtime_token=token, results_url=url, attempts=2, sleep=sleeps
        )
    assert sleeps == [1.0]

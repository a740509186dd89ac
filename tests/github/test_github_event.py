"""The run context: variables, event file, pull request and fork detection."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragspine_action.github import GithubContext, GithubContextError, pull_request_from_event


def _pr_payload(head_repo: str | None = "acme/rag", number: int = 42) -> dict[str, Any]:
    return {
        "action": "synchronize",
        "number": number,
        "pull_request": {
            "number": number,
            "base": {"sha": "b" * 40, "ref": "main", "repo": {"full_name": "acme/rag"}},
            "head": {
                "sha": "h" * 40,
                "ref": "feature",
                "repo": None if head_repo is None else {"full_name": head_repo, "fork": True},
            },
        },
    }


def _env(tmp_path: Path, event_name: str, payload: Any) -> dict[str, str]:
    event = tmp_path / "event.json"
    event.write_text(json.dumps(payload))
    return {
        "GITHUB_ACTIONS": "true",
        "GITHUB_EVENT_NAME": event_name,
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_REPOSITORY": "acme/rag",
        "GITHUB_SERVER_URL": "https://github.example",
        "GITHUB_API_URL": "https://api.github.example",
        "GITHUB_RUN_ID": "123456",
        "GITHUB_OUTPUT": "/github/file_commands/set_output_x",
        "GITHUB_STEP_SUMMARY": "/github/file_commands/step_summary_x",
        "ACTIONS_RUNTIME_TOKEN": "secret-runtime-token",
        "ACTIONS_RESULTS_URL": "https://results.example/",
    }


@pytest.mark.parametrize("event_name", ["pull_request", "pull_request_target"])
def test_pull_request_from_same_repo(tmp_path: Path, event_name: str) -> None:
    ctx = GithubContext.from_env(_env(tmp_path, event_name, _pr_payload()))
    pr = ctx.pull_request
    assert pr is not None
    assert (pr.number, pr.base_sha, pr.head_sha, pr.base_ref) == (42, "b" * 40, "h" * 40, "main")
    assert pr.is_fork is False
    assert (ctx.owner, ctx.repo) == ("acme", "rag")
    assert ctx.run_url == "https://github.example/acme/rag/actions/runs/123456"
    assert ctx.api_url == "https://api.github.example"
    assert ctx.output_file.endswith("set_output_x")


def test_fork_and_deleted_fork_are_forks(tmp_path: Path) -> None:
    fork = GithubContext.from_env(_env(tmp_path, "pull_request", _pr_payload("someone/rag")))
    assert fork.pull_request is not None and fork.pull_request.is_fork
    gone = pull_request_from_event("pull_request", _pr_payload(None))
    assert gone is not None and gone.is_fork and gone.head_repo is None


def test_push_event_has_no_pull_request(tmp_path: Path) -> None:
    ctx = GithubContext.from_env(_env(tmp_path, "push", {"ref": "refs/heads/main"}))
    assert ctx.pull_request is None
    assert ctx.in_actions


def test_outside_actions_everything_is_empty_and_no_file_is_read() -> None:
    ctx = GithubContext.from_env({})
    assert not ctx.in_actions
    assert ctx.pull_request is None and ctx.run_url is None
    assert ctx.api_url == "https://api.github.com"


def test_runtime_token_is_not_in_repr(tmp_path: Path) -> None:
    ctx = GithubContext.from_env(_env(tmp_path, "push", {}))
    assert ctx.runtime_token == "secret-runtime-token"
    assert "secret-runtime-token" not in repr(ctx)


def test_unreadable_event_file_is_a_typed_error(tmp_path: Path) -> None:
    env = _env(tmp_path, "pull_request", {})
    Path(env["GITHUB_EVENT_PATH"]).write_text("{not json")
    with pytest.raises(GithubContextError, match="not valid JSON"):
        GithubContext.from_env(env)
    env["GITHUB_EVENT_PATH"] = str(tmp_path / "missing.json")
    with pytest.raises(GithubContextError, match="cannot read event file"):
        GithubContext.from_env(env)


def test_pull_request_event_without_number_is_a_typed_error(tmp_path: Path) -> None:
    with pytest.raises(GithubContextError, match="pull request number"):
        GithubContext.from_env(_env(tmp_path, "pull_request", {"pull_request": {}}))
    payload = _pr_payload()
    del payload["pull_request"]["base"]["sha"]
    with pytest.raises(GithubContextError, match=r"pull_request\.base\.sha"):
        GithubContext.from_env(_env(tmp_path, "pull_request_target", payload))

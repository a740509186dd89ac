"""What the runner tells a step about its run: variables and the event file.

``GithubContext.from_env`` is the only place in ``github/`` that looks at environment
variables, and it takes them as an argument (a mapping), so tests pass a dict.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ragspine_action.errors import InputError
from ragspine_action.github.errors import GithubContextError
from ragspine_action.input_files import read_input_bytes

__all__ = [
    "PULL_REQUEST_EVENTS",
    "GithubContext",
    "PullRequestInfo",
    "load_event",
    "pull_request_from_event",
    "run_url",
]

#: The runner's event payloads are a few hundred KiB at most; anything far larger is not one.
MAX_EVENT_BYTES = 64 * 1024 * 1024

#: Events whose payload carries ``pull_request`` and that the sticky comment serves.
PULL_REQUEST_EVENTS = frozenset({"pull_request", "pull_request_target"})


@dataclass(frozen=True)
class PullRequestInfo:
    """The pull request a run belongs to, as far as commenting and the baseline guard need."""

    number: int
    base_sha: str
    head_sha: str
    base_ref: str
    head_ref: str
    base_repo: str  # owner/name of the repository the PR targets
    head_repo: str | None  # owner/name of the PR's source; None when the fork was deleted
    is_fork: bool  # True → the run's token is read-only: expect a 403 on commenting


def run_url(server_url: str, repository: str, run_id: str) -> str:
    """Link to the workflow run page, for the comment and summary."""
    return f"{server_url.rstrip('/')}/{repository}/actions/runs/{run_id}"


def load_event(event_path: str | Path) -> dict[str, Any]:
    """Read the webhook payload the runner saved for this run."""
    try:
        text = read_input_bytes(event_path, MAX_EVENT_BYTES).decode("utf-8")
    except InputError as exc:
        problem = exc.problems[0]
        raise GithubContextError(
            f"cannot read event file {problem.path}: {problem.message}"
        ) from None
    except UnicodeDecodeError as exc:
        raise GithubContextError(
            f"event file {event_path}: not valid UTF-8 (byte {exc.start})"
        ) from None
    text = text.removeprefix("\ufeff")
    try:
        payload = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GithubContextError(
            f"event file {event_path}: not valid JSON (line {exc.lineno}: {exc.msg})"
        ) from exc
    except (ValueError, RecursionError) as exc:  # too deep, or a 5000-digit number
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise GithubContextError(f"event file {event_path}: not valid JSON ({reason})") from None
    if not isinstance(payload, dict):
        raise GithubContextError(f"event file {event_path}: expected a JSON object")
    return payload


def _get(payload: Mapping[str, Any], dotted: str) -> Any:
    node: Any = payload
    for part in dotted.split("."):
        if not isinstance(node, Mapping):
            return None
        node = node.get(part)
    return node


def pull_request_from_event(event_name: str, payload: Mapping[str, Any]) -> PullRequestInfo | None:
    """The pull request of a ``pull_request``/``pull_request_target`` payload, else ``None``."""
    if event_name not in PULL_REQUEST_EVENTS:
        return None
    number = _get(payload, "pull_request.number")
    if number is None:
        number = payload.get("number")
    if isinstance(number, bool) or not isinstance(number, int) or number <= 0:
        raise GithubContextError(f"{event_name} event file has no pull request number")
    required = {
        "base_sha": "pull_request.base.sha",
        "head_sha": "pull_request.head.sha",
        "base_repo": "pull_request.base.repo.full_name",
    }
    values: dict[str, str] = {}
    for key, dotted in required.items():
        value = _get(payload, dotted)
        if not isinstance(value, str) or not value:
            raise GithubContextError(f"{event_name} event file has no {dotted}")
        values[key] = value
    head_repo = _get(payload, "pull_request.head.repo.full_name")
    head_repo = head_repo if isinstance(head_repo, str) and head_repo else None
    # A PR from another repository (or from a deleted one) runs with a read-only token on
    # ``pull_request``; comparing names is what the runner itself relies on.
    is_fork = head_repo is None or head_repo.lower() != values["base_repo"].lower()
    return PullRequestInfo(
        number=number,
        base_sha=values["base_sha"],
        head_sha=values["head_sha"],
        base_ref=str(_get(payload, "pull_request.base.ref") or ""),
        head_ref=str(_get(payload, "pull_request.head.ref") or ""),
        base_repo=values["base_repo"],
        head_repo=head_repo,
        is_fork=is_fork,
    )


@dataclass(frozen=True)
class GithubContext:
    """The run as the runner describes it; empty strings where a variable is absent."""

    in_actions: bool
    event_name: str
    event_path: str
    repository: str
    server_url: str
    api_url: str
    run_id: str
    run_attempt: str
    sha: str
    ref: str
    workspace: str
    output_file: str
    step_summary_file: str
    results_url: str
    runtime_token: str = field(repr=False)
    pull_request: PullRequestInfo | None

    @property
    def owner(self) -> str:
        return self.repository.partition("/")[0]

    @property
    def repo(self) -> str:
        return self.repository.partition("/")[2]

    @property
    def run_url(self) -> str | None:
        """Link to this run, or ``None`` outside Actions."""
        if not (self.server_url and self.repository and self.run_id):
            return None
        return run_url(self.server_url, self.repository, self.run_id)

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> GithubContext:
        """Build the context from the given variables, reading the event file on PR events.

        Outside Actions (``GITHUB_ACTIONS`` not ``true``) every field may be empty and no
        event file is read. A PR event with an unusable event file is a ``GithubContextError``.
        """
        in_actions = env.get("GITHUB_ACTIONS", "").lower() == "true"
        event_name = env.get("GITHUB_EVENT_NAME", "")
        event_path = env.get("GITHUB_EVENT_PATH", "")
        repository = env.get("GITHUB_REPOSITORY", "")
        if repository and repository.count("/") != 1:
            raise GithubContextError(f"GITHUB_REPOSITORY is not owner/name: {repository!r}")
        pull_request = None
        if event_name in PULL_REQUEST_EVENTS:
            if not event_path:
                raise GithubContextError(f"{event_name} run without GITHUB_EVENT_PATH")
            pull_request = pull_request_from_event(event_name, load_event(event_path))
        return cls(
            in_actions=in_actions,
            event_name=event_name,
            event_path=event_path,
            repository=repository,
            server_url=env.get("GITHUB_SERVER_URL", "https://github.com") or "https://github.com",
            api_url=env.get("GITHUB_API_URL", "https://api.github.com") or "https://api.github.com",
            run_id=env.get("GITHUB_RUN_ID", ""),
            run_attempt=env.get("GITHUB_RUN_ATTEMPT", ""),
            sha=env.get("GITHUB_SHA", ""),
            ref=env.get("GITHUB_REF", ""),
            workspace=env.get("GITHUB_WORKSPACE", ""),
            output_file=env.get("GITHUB_OUTPUT", ""),
            step_summary_file=env.get("GITHUB_STEP_SUMMARY", ""),
            results_url=env.get("ACTIONS_RESULTS_URL", ""),
            runtime_token=env.get("ACTIONS_RUNTIME_TOKEN", ""),
            pull_request=pull_request,
        )

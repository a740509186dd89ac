"""The runner's event file and variables under fuzzing: a context or a GithubContextError."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hardening_support import fuzz_settings, mutate
from hypothesis import example, given
from hypothesis import strategies as st
from strategies import JSON_VALUES, MUTATIONS

from ragspine_action.github.errors import GithubContextError
from ragspine_action.github.event import GithubContext

VALID_EVENT = json.dumps(
    {
        "number": 7,
        "pull_request": {
            "number": 7,
            "base": {"sha": "b" * 40, "ref": "main", "repo": {"full_name": "acme/rag"}},
            "head": {"sha": "h" * 40, "ref": "f", "repo": {"full_name": "fork/rag"}},
        },
    }
).encode()


def _context(event: bytes, **env: str) -> GithubContext | None:
    path = Path(tempfile.mkdtemp(prefix="rs-fuzz-")) / "event.json"
    path.write_bytes(event)
    variables = {
        "GITHUB_ACTIONS": "true",
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(path),
        "GITHUB_REPOSITORY": "acme/rag",
        **env,
    }
    try:
        ctx = GithubContext.from_env(variables)
    except GithubContextError as exc:
        assert str(exc) and len(str(exc).splitlines()) == 1
        return None
    if ctx.pull_request is not None:
        assert ctx.pull_request.number > 0 and ctx.pull_request.base_sha
    return ctx


@fuzz_settings()
@given(MUTATIONS)
@example([("insert", 0, 1)])  # "\xff\xfe" in front: not UTF-8
@example([("insert", 0, 8)])  # 5000 "[" in front
def test_mutated_event_file_gives_a_context_or_a_context_error(
    ops: list[tuple[str, int, int]],
) -> None:
    _context(mutate(VALID_EVENT, ops))


@pytest.mark.slow
@fuzz_settings()
@given(JSON_VALUES, st.sampled_from(["pull_request", "pull_request_target", "push", ""]))
@example(json.loads("[" * 5 + "]" * 5), "pull_request")
def test_any_json_event_gives_a_context_or_a_context_error(payload: Any, event: str) -> None:
    _context(json.dumps(payload).encode(), GITHUB_EVENT_NAME=event)


@fuzz_settings()
@given(
    st.dictionaries(
        st.sampled_from(
            ["GITHUB_REPOSITORY", "GITHUB_API_URL", "GITHUB_SERVER_URL", "GITHUB_RUN_ID"]
        ),
        st.text(max_size=30),
    )
)
def test_any_runner_variables_give_a_context_or_a_context_error(env: dict[str, str]) -> None:
    _context(VALID_EVENT, **env)


def test_deeply_nested_event_file_is_a_context_error() -> None:
    assert _context(b"[" * 200_000) is None


def test_event_file_with_a_5000_digit_number_is_a_context_error() -> None:
    assert _context(b'{"number": ' + b"9" * 5000 + b"}") is None


def test_event_file_that_is_not_utf8_is_a_context_error() -> None:
    assert _context(b'{"number": 7, "x": "\xff"}') is None

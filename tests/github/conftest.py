"""Fixtures: the fake GitHub API and artifact service, started per test on 127.0.0.1."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from github_fakes import DEFAULT_TOKEN, FakeArtifactService, FakeGitHub

__all__ = ["DEFAULT_TOKEN", "fake_artifacts", "fake_github"]


@pytest.fixture
def fake_github() -> Iterator[FakeGitHub]:
    """A fresh fake REST API; its default token is an installation token (github-actions[bot])."""
    with FakeGitHub() as server:
        yield server


@pytest.fixture
def fake_artifacts() -> Iterator[FakeArtifactService]:
    """A fresh fake artifact service; use its ``runtime_token`` and ``results_url``."""
    with FakeArtifactService() as server:
        yield server

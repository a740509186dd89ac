"""A test that needs a missing system tool skips with one line, except under .ci/run."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import pytest

ROOT = Path(__file__).resolve().parents[1]
REQUIRE_TOOLS_ENV = "RAGSPINE_REQUIRE_TOOLS"  # the name tests/conftest.py reads


def test_missing_tool_skips_with_its_reason_by_default(
    missing_tool: Callable[[str], NoReturn], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(REQUIRE_TOOLS_ENV, raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"^buildah is not installed$"):
        missing_tool("buildah is not installed")
    monkeypatch.setenv(REQUIRE_TOOLS_ENV, "0")
    with pytest.raises(pytest.skip.Exception):
        missing_tool("buildah is not installed")


@pytest.mark.parametrize("value", ["1", "true", "yes"])
def test_missing_tool_fails_when_ci_requires_every_tool(
    missing_tool: Callable[[str], NoReturn], monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv(REQUIRE_TOOLS_ENV, value)
    with pytest.raises(pytest.fail.Exception, match=r"^buildah is not installed \(RAGSPINE"):
        missing_tool("buildah is not installed")


def test_ci_run_requires_every_tool_and_runs_the_readme_command() -> None:
    script = (ROOT / ".ci" / "run").read_text()
    assert f"export {REQUIRE_TOOLS_ENV}=1" in script
    readme = (ROOT / "README.md").read_text()
    command = script.strip().splitlines()[-1]
    assert f"```sh\n{command}\n```" in readme, command

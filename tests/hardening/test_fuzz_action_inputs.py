"""Action inputs (``INPUT_*``) under fuzzing: ActionInputs + CLI flags, or one ConfigError."""

from __future__ import annotations

import io
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hardening_support import MINI_GOLDEN, MINI_OUTCOMES, fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

from ragspine_action.action import main as action_main
from ragspine_action.cli import build_parser, config_from_args
from ragspine_action.config import action_inputs_from_env
from ragspine_action.errors import ConfigError, RagspineError

INPUT_NAMES = [
    "suites", "system", "mode", "golden", "outcomes", "endpoint", "baseline",
    "lower-baseline-reason", "update-baseline", "report", "args", "artifact-retention-days",
    "comment", "github-token", "artifact-name", "fail-on", "shard", "config",
]  # fmt: skip
# A real environment variable cannot hold a NUL byte, so generated values never do.
VALUES = st.one_of(
    st.text(max_size=20).filter(lambda v: "\x00" not in v),
    st.sampled_from(
        ["true", "false", "TRUE", "yes", "0", "90", "91", "²", "١٢", "-1", "1,3,10", "²,3",
         "'unbalanced", '"', "--k ²", "--protected-k 0", "--k 0", "--timeout nan",
         "--concurrency -5", "--seed 1e3", "--faithfulness-threshold inf", "all", "qa,,",
         "never", "on-failure", "regression", " ", "\n", "a\nb", "--help", "--version"]
    ),
)  # fmt: skip


def _env(inputs: dict[str, str]) -> dict[str, str]:
    return {"INPUT_" + k.upper(): v for k, v in inputs.items()}


@pytest.mark.slow
@fuzz_settings()
@given(st.dictionaries(st.sampled_from(INPUT_NAMES), VALUES, max_size=8))
def test_inputs_become_flags_or_one_config_error(inputs: dict[str, str]) -> None:
    try:
        parsed = action_inputs_from_env(_env(inputs))
    except ConfigError as exc:
        assert len(str(exc).splitlines()) == 1 and str(exc).startswith("input ")
        return
    assert parsed.fail_on in ("regression", "never")
    assert "--report" in parsed.argv
    try:
        config_from_args(build_parser().parse_args(list(parsed.argv)))
    except RagspineError as exc:
        assert str(exc).strip() and "Traceback" not in str(exc)
    except SystemExit as exc:  # --help / --version print and exit 0, like any CLI
        assert exc.code == 0


@pytest.fixture(scope="module")
def workspace() -> str:
    ws = Path(tempfile.mkdtemp(prefix="rs-action-"))
    shutil.copy(MINI_GOLDEN, ws / "golden.jsonl")
    shutil.copy(MINI_OUTCOMES, ws / "outcomes.jsonl")
    return str(ws)


@pytest.mark.slow
@fuzz_settings(40)
@given(st.dictionaries(st.sampled_from(INPUT_NAMES), VALUES, max_size=5))
def test_action_main_returns_an_exit_code_for_any_inputs(
    workspace: str, inputs: dict[str, str]
) -> None:
    """The whole action, outside a pull request: an exit code and workflow commands, no crash."""
    env = {
        "GITHUB_WORKSPACE": workspace,
        "INPUT_SYSTEM": "outcomes",
        "INPUT_GOLDEN": "golden.jsonl",
        "INPUT_OUTCOMES": "outcomes.jsonl",
        "INPUT_MODE": "fuzz",
        "INPUT_REPORT": os.path.join(workspace, "report.json"),
        "INPUT_ARTIFACT-NAME": "",
        **_env(inputs),
    }
    env["INPUT_BASELINE"] = ""  # never write a baseline into the shared workspace
    env.pop("INPUT_UPDATE-BASELINE", None)
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(workspace)
    try:
        code = action_main(env, out, sleep=lambda _s: None)
    except SystemExit as exc:  # --help/--version inside args: argparse's own exit
        assert exc.code == 0
        return
    finally:
        os.chdir(cwd)
    assert code in (0, 1, 2)
    assert "Traceback" not in out.getvalue()
    if code == 2:
        assert "::error" in out.getvalue()

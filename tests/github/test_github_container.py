"""The real image, built from the repository's files and run the way the runner runs it.

``scripts/container_test.sh --build-only`` builds the Dockerfile with buildah on a
debootstrap'ed ``debian:bookworm-slim`` stand-in (cached in /var/cache/ragspine-rootfs;
about a minute the first time) and checks the image config. The tests then run the image
with the runner's mounts and environment against the loopback fakes of the GitHub API and
the artifact service: a pull request run twice (pass, then a regression), a fork's
read-only token with a broken artifact service, ``docker run``-style CLI flags, and the
bundled default. Needs root, buildah and debootstrap (``.ci/run`` installs them).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import pytest
import yaml
from github_fakes import DEFAULT_TOKEN, FakeArtifactService, FakeGitHub

pytestmark = pytest.mark.slow  # builds the image: minutes the first time

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "container_test.sh"
DATA = ROOT / "tests" / "data"
OWNER, REPO, PR = "acme", "rag", 42
MIB = 1024 * 1024


@dataclass(frozen=True)
class Image:
    name: str
    entrypoint: list[str]
    size_bytes: int


@dataclass(frozen=True)
class Run:
    code: int
    stdout: str
    stderr: str


def _buildah(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["buildah", *args], capture_output=True, text=True, timeout=timeout, check=False
    )


@pytest.fixture(scope="module")
def image(missing_tool: Callable[[str], NoReturn]) -> Iterator[Image]:
    """Build once per module under a name of our own; removed afterwards."""
    if os.geteuid() != 0:
        missing_tool("the container test needs root (buildah, debootstrap)")
    for tool in ("buildah", "debootstrap"):
        if shutil.which(tool) is None:
            missing_tool(f"{tool} is not installed (.ci/run installs it)")
    name = f"localhost/ragspine-eval:pytest-{os.getpid()}"
    env = {**os.environ, "RAGSPINE_IMAGE": name}
    built = subprocess.run(
        [str(SCRIPT), "--build-only"], env=env, capture_output=True, text=True, timeout=1800
    )
    assert built.returncode == 0, (built.stdout + built.stderr)[-4000:]
    assert "workspace mounted at /github/workspace" in built.stderr
    assert re.search(r"image size: \S+", built.stderr), built.stderr
    try:
        config = json.loads(_buildah("inspect", "--type", "image", name).stdout)["OCIv1"]["config"]
        yield Image(name, list(config["Entrypoint"]), _image_bytes(name))
    finally:
        _buildah("rmi", "-f", name)


def _image_bytes(name: str) -> int:
    """The image's size as buildah reports it ('220 MB'), in bytes."""
    shown = _buildah("images", "--format", "{{.Size}}", name).stdout.strip().splitlines()
    match = re.fullmatch(r"([\d.]+)\s*([kMG]?B)", shown[0] if shown else "")
    if not match:
        return 0
    unit = {"B": 1, "kB": 1000, "MB": 1000**2, "GB": 1000**3}[match.group(2)]
    return int(float(match.group(1)) * unit)


def _run(
    image: Image,
    args: list[str],
    *,
    env: Mapping[str, str] | None = None,
    mounts: Mapping[Path, str] | None = None,
    container: str | None = None,
    command: list[str] | None = None,
) -> Run:
    """``buildah run`` with the runner's layout: the workspace mount is the working directory."""
    own = container is None
    c = container or _buildah("from", "--pull-never", image.name).stdout.strip()
    assert c, f"buildah from {image.name} failed"
    volumes = [f"-v{host}:{inside}" for host, inside in (mounts or {}).items()]
    envs = [f"-e{key}={value}" for key, value in (env or {}).items()]
    try:
        done = _buildah(
            "run", "--isolation", "chroot", *volumes, "--workingdir", "/github/workspace",
            *envs, c, "--", *(command or image.entrypoint), *args,
            timeout=600,
        )  # fmt: skip
    finally:
        if own:
            _buildah("rm", c)
    # buildah adds its own lines about the exit status; what remains is the program's.
    stderr = _BUILDAH_NOISE.sub("", done.stderr)
    return Run(done.returncode, done.stdout, stderr)


_BUILDAH_NOISE = re.compile(r"^(subprocess exited with status \d+|Error: exit status \d+)\n", re.M)


def _action_inputs(with_: Mapping[str, str], token: str) -> dict[str, str]:
    """``INPUT_*`` as the runner sets them: every input of action.yml, defaults filled in."""
    inputs = yaml.safe_load((ROOT / "action.yml").read_text())["inputs"]
    values = {name: str(spec.get("default", "")) for name, spec in inputs.items()}
    assert set(with_) <= set(values), set(with_) - set(values)
    values.update(with_)
    values = {k: v.replace("${{ github.token }}", token) for k, v in values.items()}
    return {f"INPUT_{name.upper().replace(' ', '_')}": value for name, value in values.items()}


@dataclass
class Runner:
    """One job's directories, as the runner mounts them into a container action."""

    root: Path

    @property
    def workspace(self) -> Path:
        return self.root / "workspace"

    def __post_init__(self) -> None:
        for sub in ("workspace", "workflow", "file_commands", "home"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)

    def mounts(self) -> dict[Path, str]:
        return {
            self.workspace: "/github/workspace",
            self.root / "workflow": "/github/workflow",
            self.root / "file_commands": "/github/file_commands",
            self.root / "home": "/github/home",
        }

    def step(
        self,
        github: FakeGitHub,
        artifacts: FakeArtifactService,
        run_id: str,
        with_: Mapping[str, str],
    ) -> tuple[dict[str, str], Path, Path]:
        """A fresh step: new output and summary files (the runner makes one per step)."""
        step = uuid.uuid4().hex
        output, summary = f"set_output_{step}", f"step_summary_{step}"
        for name in (output, summary):
            (self.root / "file_commands" / name).write_text("")
        event = {
            "action": "synchronize",
            "number": PR,
            "pull_request": {
                "number": PR,
                "base": {"sha": "b" * 40, "ref": "main", "repo": {"full_name": f"{OWNER}/{REPO}"}},
                "head": {
                    "sha": "c" * 40,
                    "ref": "feature",
                    "repo": {"full_name": f"{OWNER}/{REPO}"},
                },
            },
            "repository": {"full_name": f"{OWNER}/{REPO}"},
        }
        (self.root / "workflow" / "event.json").write_text(json.dumps(event))
        env = {
            "CI": "true",
            "HOME": "/github/home",
            "GITHUB_ACTIONS": "true",
            "GITHUB_EVENT_NAME": "pull_request",
            "GITHUB_EVENT_PATH": "/github/workflow/event.json",
            "GITHUB_WORKSPACE": "/github/workspace",
            "GITHUB_REPOSITORY": f"{OWNER}/{REPO}",
            "GITHUB_SERVER_URL": "https://github.example",
            "GITHUB_API_URL": github.url,
            "GITHUB_RUN_ID": run_id,
            "GITHUB_OUTPUT": f"/github/file_commands/{output}",
            "GITHUB_STEP_SUMMARY": f"/github/file_commands/{summary}",
            "ACTIONS_RUNTIME_TOKEN": artifacts.runtime_token,
            "ACTIONS_RUNTIME_URL": artifacts.url + "/",
            "ACTIONS_RESULTS_URL": artifacts.results_url,
            **_action_inputs(with_, DEFAULT_TOKEN),
        }
        return env, self.root / "file_commands" / output, self.root / "file_commands" / summary


def _outputs(path: Path) -> dict[str, str]:
    """Parse ``GITHUB_OUTPUT`` (``name<<DELIM`` blocks) the way the runner does."""
    text = path.read_text()
    found = re.findall(r"^([\w-]+)<<(\S+)\n(.*?)\n?\2$", text, flags=re.S | re.M)
    names = [name for name, _, _ in found]
    assert len(names) == len(set(names)), f"outputs set twice: {names}"
    return {name: value for name, _, value in found}


def _gate_rows(body: str) -> dict[str, dict[str, str]]:
    """The folded "All metrics" table's rows, metric → {column header: cell}."""
    rows: dict[str, dict[str, str]] = {}
    headers: list[str] = []
    in_all = False
    for line in body.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if "All metrics" in line:
            in_all = True
        elif in_all and line.startswith("| metric |"):
            headers = [h or "status" for h in cells]
        elif headers and len(cells) == len(headers) and re.fullmatch(r"`[\w@]+`", cells[0]):
            rows[cells[0].strip("`")] = dict(zip(headers, cells, strict=True))
        elif headers and not line.startswith("|"):
            return rows
    return rows


def _pct(value: float) -> str:
    return f"{value * 100:.1f}%"


def _check_table_matches_report(
    body: str, report: dict[str, Any], baseline: dict[str, Any]
) -> None:
    rows = _gate_rows(body)
    metrics = report["qa"]["metrics"]
    assert set(metrics) <= set(rows), (sorted(metrics), sorted(rows))
    for gate, metric in metrics.items():
        row = rows[gate]
        assert row["now"] == _pct(metric["pass_rate"]), row
        assert row["passed"] == f"{metric['passed']}/{metric['total']}", row
    for name, value in report["qa"]["retrieval"]["overall"].items():
        if name in rows:
            assert rows[name]["now"] == _pct(value), rows[name]
    regressed = {r["metric"] for r in report["baseline"]["regressions"]}
    assert regressed, "the second run must regress"
    for name, row in rows.items():
        assert ("❌" in row["status"]) == (name in regressed), row
    for r in report["baseline"]["regressions"]:
        delta = rows[r["metric"]]["Δ [95% CI]"].replace("−", "-")
        assert delta.startswith(f"{r['delta'] * 100:+.1f} pp"), rows[r["metric"]]
        moved = f"`{r['metric']}` | {_pct(baseline['metrics'][r['metric']])} → {_pct(r['current'])}"
        assert moved in body, moved


def _break_first_numeric_outcome(workspace: Path) -> None:
    rows = [json.loads(line) for line in (workspace / "outcomes.jsonl").read_text().splitlines()]
    rows[0]["unit"] = "USD_B"  # n1: numeric_accuracy regresses, a protected case breaks
    (workspace / "outcomes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def _seed_workspace(workspace: Path) -> None:
    shutil.copy(DATA / "mini_golden.jsonl", workspace / "golden.jsonl")
    shutil.copy(DATA / "mini_outcomes.jsonl", workspace / "outcomes.jsonl")


WITH = {
    "system": "outcomes",
    "mode": "my-rag",
    "golden": "golden.jsonl",
    "outcomes": "outcomes.jsonl",
    "baseline": "baseline.json",
}
CREATE = {**WITH, "baseline-missing": "create"}


def test_image_is_small_and_shaped_like_a_container_action(image: Image) -> None:
    assert image.entrypoint == ["/opt/venv/bin/python", "/app/entrypoint.py"]
    assert 0 < image.size_bytes < 150 * 1000**2, f"image is {image.size_bytes} bytes"
    listing = _run(
        image,
        ["-c", "import os; print(sorted(os.listdir('/app'))); print(os.listdir('/opt/venv/bin'))"],
        command=[image.entrypoint[0]],
    )
    assert listing.code == 0, listing.stderr
    # Only the entry point beside the venv: the code and its data are the installed wheel.
    assert listing.stdout.splitlines()[0] == "['entrypoint.py']"
    assert "'pip'" not in listing.stdout  # no installer left in the runtime venv
    tools = _run(
        image,
        ["-c", "import shutil; print([t for t in ('sh', 'bash', 'apt-get', 'dpkg', 'pip', 'gcc', "
         "'perl') if shutil.which(t, path='/usr/bin:/bin:/usr/sbin:/sbin:/opt/venv/bin')])"],
        command=[image.entrypoint[0]],
    )  # fmt: skip
    assert tools.code == 0 and tools.stdout.strip() == "[]", tools.stdout + tools.stderr
    where = _run(
        image,
        ["-c", "import ragspine_action as r, ragspine_action.paths as p; "
               "print(r.__file__); print(p.DATA_DIR); print(p.SCHEMA_DIR)"],
        command=[image.entrypoint[0]],
    )  # fmt: skip
    assert where.code == 0, where.stderr
    site = "/opt/venv/lib/python3.11/site-packages/ragspine_action"
    assert where.stdout.split() == [f"{site}/__init__.py", f"{site}/_data", f"{site}/_schema"]


def test_pull_request_run_twice_edits_one_comment_and_exit_code_is_the_verdict(
    image: Image, tmp_path: Path
) -> None:
    runner = Runner(tmp_path / "runner")
    ws = runner.workspace
    _seed_workspace(ws)
    with FakeGitHub() as github:
        # First run: nothing committed yet, so only with baseline-missing: create does the
        # gate create the baseline (in the workspace, and uploaded with the report).
        with FakeArtifactService("run-1", "job-1") as artifacts:
            env, output_file, summary_file = runner.step(github, artifacts, "101", CREATE)
            first = _run(image, [], env=env, mounts=runner.mounts())
            assert first.code == 0, first.stdout + first.stderr
            assert json.loads((ws / "baseline.json").read_text())["my-rag"]["n_cases"] == 6
            report_bytes = (ws / "ragspine-report.json").read_bytes()
            assert json.loads(report_bytes)["verdict"] == "pass"
            (artifact,) = artifacts.artifacts.values()
            assert artifact.name == "ragspine-report" and artifact.finalized
            assert artifact.files() == {
                "ragspine-report.json": report_bytes,
                "baseline/baseline.json": (ws / "baseline.json").read_bytes(),
            }
            assert artifact.hash == "sha256:" + hashlib.sha256(artifact.blob or b"").hexdigest()
            creates = artifacts.recorded(path="CreateArtifact$")
            assert [r.json()["workflow_run_backend_id"] for r in creates] == ["run-1"]
            outputs = _outputs(output_file)
            (comment,) = github.comments_on(OWNER, REPO, PR)
            assert outputs == {
                "verdict": "pass",
                "report-path": "ragspine-report.json",
                "comment-url": comment["html_url"],
                "artifact-id": str(artifact.id),
                "summary": json.loads(report_bytes)["summary"],
            }
            assert outputs["summary"].endswith("baseline created in CI, not committed")
            assert comment["body"].startswith("<!--") or "ragspine-eval: PASS" in comment["body"]
            assert "### ✅ ragspine-eval: PASS" in comment["body"]
            assert f"/artifacts/{artifact.id}" in comment["body"]
            summary = summary_file.read_text()
            assert "### ✅ ragspine-eval: PASS" in summary and len(summary.encode()) < MIB
            assert len(github.recorded("POST", r"/comments$")) == 1
            assert github.recorded("PATCH") == []

        # The baseline is committed on main; a new push to the PR regresses.
        github.add_file(OWNER, REPO, "baseline.json", "b" * 40, (ws / "baseline.json").read_bytes())
        _break_first_numeric_outcome(ws)
        with FakeArtifactService("run-2", "job-2") as artifacts:
            env, output_file, summary_file = runner.step(github, artifacts, "102", WITH)
            second = _run(image, [], env=env, mounts=runner.mounts())
            assert second.code == 1, second.stdout + second.stderr
            report_bytes = (ws / "ragspine-report.json").read_bytes()
            report = json.loads(report_bytes)
            assert report["verdict"] == "fail" and report["exit_code"] == 1
            comments = github.comments_on(OWNER, REPO, PR)
            assert len(comments) == 1, "the second run must edit the sticky comment, not add one"
            assert comments[0]["id"] == comment["id"] and comments[0]["edits"] == 1
            assert len(github.recorded("POST", r"/comments$")) == 1
            assert len(github.recorded("PATCH", rf"/issues/comments/{comment['id']}$")) == 1
            body = comments[0]["body"]
            assert "### ❌ ragspine-eval: FAIL" in body and "PASS" not in body.split("\n", 3)[0]
            baseline = json.loads((ws / "baseline.json").read_text())["my-rag"]
            _check_table_matches_report(body, report, baseline)
            assert "`n1`" in body  # the broken protected case is listed
            (artifact,) = artifacts.artifacts.values()
            assert artifact.finalized and artifact.files() == {"ragspine-report.json": report_bytes}
            assert f"/artifacts/{artifact.id}" in body
            outputs = _outputs(output_file)
            assert outputs["verdict"] == "fail"
            assert outputs["comment-url"] == comments[0]["html_url"]
            assert outputs["artifact-id"] == str(artifact.id)
            assert outputs["summary"] == report["summary"]
            assert outputs["summary"].startswith("ragspine-eval: FAIL")
            summary = summary_file.read_text()
            assert "### ❌ ragspine-eval: FAIL" in summary and "PASS" not in summary
            _check_table_matches_report(summary, report, baseline)

        # The token is masked before anything else and never printed in clear.
        log = second.stdout + second.stderr
        assert log.startswith(f"::add-mask::{DEFAULT_TOKEN}\n"), log[:200]
        assert log.count(DEFAULT_TOKEN) == 1
        assert re.search(
            r"^::error title=ragspine-eval regression,file=baseline.json,line=\d+::"
            r"my-rag/numeric_accuracy fell",
            log,
            re.M,
        ), log
        assert "Traceback" not in log
        for request in github.recorded():
            assert request.headers["authorization"] == f"Bearer {DEFAULT_TOKEN}"
            assert request.headers["accept"] == "application/vnd.github+json"
            assert request.headers["x-github-api-version"] == "2022-11-28"
        # Inside the image nothing else was written into the workspace.
        assert sorted(p.name for p in ws.iterdir()) == [
            "baseline.json", "golden.jsonl", "outcomes.jsonl", "ragspine-report.json",
        ]  # fmt: skip


def test_fork_token_and_failing_artifact_service_only_warn(image: Image, tmp_path: Path) -> None:
    runner = Runner(tmp_path / "runner")
    _seed_workspace(runner.workspace)
    with FakeGitHub() as github, FakeArtifactService() as artifacts:
        github.forbid_comment_writes = True  # a fork's read-only token: 403 on comments
        artifacts.fail(500, method="CreateArtifact", times=100)
        env, output_file, summary_file = runner.step(github, artifacts, "201", CREATE)
        done = _run(image, [], env=env, mounts=runner.mounts())
    log = done.stdout + done.stderr
    assert done.code == 0, "the gate passed; comment and upload failures must not fail the job"
    assert re.search(r"^::warning title=ragspine-eval::.*may not comment", log, re.M), log
    assert re.search(r"^::warning title=ragspine-eval::report not uploaded", log, re.M), log
    assert len(artifacts.recorded(path="CreateArtifact$")) > 1  # retried before giving up
    assert github.comments_on(OWNER, REPO, PR) == []
    outputs = _outputs(output_file)
    assert (outputs["verdict"], outputs["comment-url"], outputs["artifact-id"]) == ("pass", "", "")
    assert "### ✅ ragspine-eval: PASS" in summary_file.read_text()
    assert (runner.workspace / "ragspine-report.json").exists()  # the report stays on disk


def test_docker_run_style_cli_flags_use_the_mounted_workspace(image: Image, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "eval").mkdir(parents=True)
    shutil.copy(DATA / "mini_golden.jsonl", ws / "eval" / "golden.jsonl")
    shutil.copy(DATA / "mini_outcomes.jsonl", ws / "eval" / "outcomes.jsonl")
    flags = [
        "--system", "outcomes", "--mode", "my-rag",
        "--golden", "eval/golden.jsonl", "--outcomes", "eval/outcomes.jsonl",
        "--baseline", "eval/baseline.json", "--report", "out/report.json",
    ]  # fmt: skip
    mounts = {ws: "/github/workspace"}
    created = _run(image, flags, mounts=mounts)
    assert created.code == 0, created.stdout + created.stderr
    assert "baseline created" in created.stdout
    assert json.loads((ws / "out" / "report.json").read_text())["verdict"] == "pass"
    assert "my-rag" in json.loads((ws / "eval" / "baseline.json").read_text())

    _break_first_numeric_outcome(ws / "eval")
    # With arguments it is the CLI even inside a GitHub job (GITHUB_ACTIONS=true).
    regressed = _run(image, flags, mounts=mounts, env={"GITHUB_ACTIONS": "true"})
    assert regressed.code == 1, regressed.stdout + regressed.stderr
    assert json.loads((ws / "out" / "report.json").read_text())["verdict"] == "fail"
    assert "::error" not in regressed.stdout

    missing = ["--system", "outcomes", "--golden", "eval/missing.jsonl", "--outcomes", "x.jsonl"]
    bad = _run(image, missing, mounts=mounts)
    assert bad.code == 2
    errors = [line for line in bad.stderr.splitlines() if line.strip()]
    assert len(errors) == 1 and "eval/missing.jsonl" in errors[0], bad.stderr
    assert "Traceback" not in bad.stdout + bad.stderr


def _context_files(under: str) -> dict[str, str]:
    """sha256 of each file the build context had under ``under`` (same rule as the script)."""
    rev = os.environ.get("RAGSPINE_CONTEXT_REV")

    def git(*args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, check=True)

    if rev:
        names = git("ls-tree", "-r", "--name-only", rev, under).stdout.decode().splitlines()
        return {n: hashlib.sha256(git("show", f"{rev}:{n}").stdout).hexdigest() for n in names}
    listed = git("ls-files", "--cached", "--others", "--exclude-standard", under).stdout
    return {
        n: hashlib.sha256((ROOT / n).read_bytes()).hexdigest()
        for n in listed.decode().splitlines()
        if (ROOT / n).is_file() and "__pycache__" not in n
    }


_SNAPSHOT = """
import hashlib, json, os
from ragspine_action.paths import DATA_DIR
found = {}
for base, dirs, files in os.walk(DATA_DIR):
    for name in files:
        path = os.path.join(base, name)
        stat = os.stat(path)
        rel = os.path.relpath(path, DATA_DIR)
        found[rel] = [hashlib.sha256(open(path, 'rb').read()).hexdigest(), stat.st_mtime_ns]
print(json.dumps(found, sort_keys=True))
"""


def test_no_arguments_runs_the_bundled_default_without_writing_its_data(
    image: Image, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    mounts = {ws: "/github/workspace"}
    c = _buildah("from", "--pull-never", image.name).stdout.strip()
    try:
        python = [image.entrypoint[0]]
        before = _run(image, ["-c", _SNAPSHOT], mounts=mounts, container=c, command=python)
        done = _run(image, [], mounts=mounts, container=c)
        after = _run(image, ["-c", _SNAPSHOT], mounts=mounts, container=c, command=python)
    finally:
        _buildah("rm", c)
    assert done.code == 0, done.stdout + done.stderr
    assert "ragspine-eval: PASS" in done.stdout
    assert re.search(r"^QA · tool · reference · \d+ cases$", done.stdout, re.M), done.stdout[:300]
    assert "Baseline: pass" in done.stdout, done.stdout[-1500:]
    assert before.code == 0 and json.loads(before.stdout), before.stderr
    assert after.stdout == before.stdout, "the bundled default wrote into the image's data dir"
    expected = {rel.removeprefix("data/"): digest for rel, digest in _context_files("data").items()}
    assert {k: v[0] for k, v in json.loads(after.stdout).items()} == expected
    assert list(ws.iterdir()) == []  # and nothing into the workspace either

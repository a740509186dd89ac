"""The action in a real repository, end to end against the loopback GitHub fakes.

Each test is a pull request as GitHub runs it: an event file, ``INPUT_*`` with the defaults
of action.yml filled in, the workspace as working directory, the REST and artifact (v4)
services on 127.0.0.1. The base commit's files are served by the fake contents API (the
image has no git), or by a real git history in the workspace. What is judged: no PR passes
without a committed baseline, every verdict (error included) reaches the comment, the
summary and the outputs, and they all say the same thing.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from github_fakes import DEFAULT_TOKEN, FakeArtifactService, FakeGitHub

from ragspine_action.action import main as action_main
from ragspine_action.cli import main as cli_main

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
OWNER, REPO, PR = "acme", "rag", 17
BASE_SHA = "0b" * 20
HEAD_SHA = "4ead5a17c0ffee0123456789abcdef0123456789"
MARKER = "<!-- ragspine-eval:sticky:my-rag -->"


def action_defaults() -> dict[str, str]:
    """Every input of action.yml with its default, as the runner passes them."""
    inputs = yaml.safe_load((ROOT / "action.yml").read_text())["inputs"]
    return {name: str(spec.get("default", "")) for name, spec in inputs.items()}


@dataclass
class Repo:
    """A checked-out pull request: workspace, runner files, base commit served by the fake."""

    root: Path
    github: FakeGitHub
    artifacts: FakeArtifactService | None = None
    head_sha: str = HEAD_SHA
    runs: int = 0
    with_: dict[str, str] = field(default_factory=dict)

    @property
    def ws(self) -> Path:
        return self.root / "ws"

    def commit_to_base(self, *paths: str) -> None:
        """The workspace's current files as they are at the base commit (contents API)."""
        for rel in paths:
            self.github.add_file(OWNER, REPO, rel, BASE_SHA, (self.ws / rel).read_bytes())

    def record_baseline_on_main(self) -> None:
        """What the docs tell a user to do once: record with the CLI and commit."""
        code = cli_main(
            [
                "--system", "outcomes", "--mode", "my-rag",
                "--golden", str(self.ws / "golden.jsonl"),
                "--outcomes", str(self.ws / "outcomes.jsonl"),
                "--baseline", str(self.ws / "baseline.json"),
                "--update-baseline", "--quiet",
            ]
        )  # fmt: skip
        assert code == 0
        self.commit_to_base("golden.jsonl", "baseline.json")

    def env(self, **overrides: str) -> dict[str, str]:
        self.runs += 1
        step = self.root / f"step{self.runs}"
        step.mkdir()
        event = {
            "action": "synchronize",
            "number": PR,
            "pull_request": {
                "number": PR,
                "base": {"sha": BASE_SHA, "ref": "main", "repo": {"full_name": f"{OWNER}/{REPO}"}},
                "head": {
                    "sha": self.head_sha,
                    "ref": "feature",
                    "repo": {"full_name": f"{OWNER}/{REPO}"},
                },
            },
        }
        (step / "event.json").write_text(json.dumps(event))
        (step / "output").write_text("")
        (step / "summary").write_text("")
        values = action_defaults()
        values.update(
            {
                "system": "outcomes",
                "golden": "golden.jsonl",
                "outcomes": "outcomes.jsonl",
                "baseline": "baseline.json",
                "mode": "my-rag",
                "artifact-name": f"ragspine-report-{self.runs}",
            }
        )
        values.update(self.with_)
        values.update(overrides)
        values = {k: v.replace("${{ github.token }}", DEFAULT_TOKEN) for k, v in values.items()}
        env = {
            "CI": "true",
            "GITHUB_ACTIONS": "true",
            "GITHUB_EVENT_NAME": "pull_request",
            "GITHUB_EVENT_PATH": str(step / "event.json"),
            "GITHUB_REPOSITORY": f"{OWNER}/{REPO}",
            "GITHUB_SERVER_URL": "https://github.example",
            "GITHUB_API_URL": self.github.url,
            "GITHUB_RUN_ID": str(500 + self.runs),
            "GITHUB_SHA": "3e" * 20,  # the merge commit; the comment names the PR head
            "GITHUB_WORKSPACE": str(self.ws),
            "GITHUB_OUTPUT": str(step / "output"),
            "GITHUB_STEP_SUMMARY": str(step / "summary"),
            **{f"INPUT_{k.upper()}": v for k, v in values.items()},
        }
        if self.artifacts is not None:
            env["ACTIONS_RUNTIME_TOKEN"] = self.artifacts.runtime_token
            env["ACTIONS_RESULTS_URL"] = self.artifacts.results_url
        return env

    def step_dir(self) -> Path:
        return self.root / f"step{self.runs}"

    def outputs(self) -> dict[str, str]:
        text = (self.step_dir() / "output").read_text()
        found = re.findall(r"^([\w-]+)<<(\S+)\n(.*?)\n\2$", text, flags=re.S | re.M)
        names = [n for n, _, _ in found]
        assert len(names) == len(set(names)), f"outputs set twice: {names}"
        return {name: value for name, _, value in found}

    def summary(self) -> str:
        return (self.step_dir() / "summary").read_text()

    def comments(self) -> list[dict[str, Any]]:
        return self.github.comments_on(OWNER, REPO, PR)


@dataclass
class Done:
    code: int
    log: str


def run_action(repo: Repo, monkeypatch: pytest.MonkeyPatch, **overrides: str) -> Done:
    env = repo.env(**overrides)
    monkeypatch.chdir(repo.ws)
    out = io.StringIO()
    code = action_main(env, out, sleep=lambda _s: None)
    return Done(code, out.getvalue())


@pytest.fixture
def repo(tmp_path: Path, fake_github: FakeGitHub, fake_artifacts: FakeArtifactService) -> Repo:
    found = Repo(tmp_path, fake_github, fake_artifacts)
    found.ws.mkdir()
    shutil.copy(DATA / "mini_golden.jsonl", found.ws / "golden.jsonl")
    shutil.copy(DATA / "mini_outcomes.jsonl", found.ws / "outcomes.jsonl")
    return found


def _break_outcome(ws: Path) -> None:
    rows = [json.loads(line) for line in (ws / "outcomes.jsonl").read_text().splitlines()]
    rows[0]["unit"] = "USD_B"  # n1: numeric_accuracy regresses, a protected case breaks
    (ws / "outcomes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def _heading(body: str) -> str:
    return next(line for line in body.splitlines() if line.startswith("### "))


def _assert_one_verdict(repo: Repo, done: Done, verdict: str) -> None:
    """Exit code, outputs, summary line, report, job summary and comment agree."""
    word = verdict.upper()
    outputs = repo.outputs()
    assert outputs["verdict"] == verdict, outputs
    assert outputs["summary"].startswith(f"ragspine-eval: {word}"), outputs
    assert "\n" not in outputs["summary"]
    summary = repo.summary()
    assert f"ragspine-eval: {word}" in _heading(summary)
    for other in {"PASS", "FAIL", "ERROR"} - {word}:
        assert f"ragspine-eval: {other}" not in summary, summary
    if outputs["report-path"]:
        report = json.loads((repo.ws / outputs["report-path"]).read_text())
        assert report["verdict"] == verdict and report["summary"] == outputs["summary"]
        assert report["exit_code"] == done.code
    [comment] = repo.comments()
    assert _heading(comment["body"]) == _heading(summary)
    for text in (comment["body"], summary):  # the head commit is named once, in the heading
        assert text.count(repo.head_sha[:7]) == 1, text
    assert outputs["comment-url"] == comment["html_url"]
    assert done.code == {"pass": 0, "fail": 1, "error": 2}[verdict], done.log


# -- a pull request without a committed baseline never passes silently ----------------------


def test_pr_without_committed_baseline_is_an_error_and_says_how_to_record_it(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    done = run_action(repo, monkeypatch)
    _assert_one_verdict(repo, done, "error")
    assert not (repo.ws / "baseline.json").exists(), "nothing is created half-way"
    assert repo.artifacts is not None and repo.artifacts.artifacts == {}
    body = repo.comments()[0]["body"]
    assert body.startswith(MARKER)
    assert "baseline.json does not exist at the base commit" in body
    # the commands that record it on main, runnable as shown
    block = body.split("```sh\n", 1)[1].split("\n```", 1)[0].splitlines()
    assert block[0] == "git switch main && git pull"
    assert block[1].split() == [
        "ragspine-eval", "--suite", "qa", "--system", "outcomes", "--mode", "my-rag",
        "--golden", "golden.jsonl", "--outcomes", "outcomes.jsonl",
        "--baseline", "baseline.json", "--update-baseline",
    ]  # fmt: skip
    assert block[2] == "git add baseline.json"
    assert "baseline-missing: create" in body
    assert re.search(r"^::error title=ragspine-eval%3A no committed baseline::", done.log, re.M)
    assert repo.outputs()["report-path"] == ""


def test_the_recorded_command_records_a_baseline_that_then_gates(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The five-minute path: record on main with the CLI, commit, and the PR is gated."""
    repo.record_baseline_on_main()
    done = run_action(repo, monkeypatch)
    _assert_one_verdict(repo, done, "pass")
    report = json.loads((repo.ws / "ragspine-report.json").read_text())
    assert report["baseline"]["status"] == "pass"
    _break_outcome(repo.ws)
    done = run_action(repo, monkeypatch)
    _assert_one_verdict(repo, done, "fail")


def test_a_pr_that_deletes_the_baseline_is_an_error(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.record_baseline_on_main()
    (repo.ws / "baseline.json").unlink()
    done = run_action(repo, monkeypatch)
    _assert_one_verdict(repo, done, "error")
    assert "exists at the base commit" in repo.comments()[0]["body"]
    assert not (repo.ws / "baseline.json").exists()


def test_a_baseline_only_in_the_pr_is_not_committed_at_base(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Adding the baseline in the PR itself: it is not at the base, so nothing gates it."""
    assert cli_main(
        ["--system", "outcomes", "--mode", "my-rag", "--golden", str(repo.ws / "golden.jsonl"),
         "--outcomes", str(repo.ws / "outcomes.jsonl"), "--baseline",
         str(repo.ws / "baseline.json"), "--update-baseline", "--quiet"]
    ) == 0  # fmt: skip
    done = run_action(repo, monkeypatch)
    _assert_one_verdict(repo, done, "error")


def test_no_baseline_input_on_a_pr_is_an_error(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    done = run_action(repo, monkeypatch, baseline="")
    _assert_one_verdict(repo, done, "error")
    assert "would compare with nothing" in repo.outputs()["summary"]


def test_baseline_missing_create_uploads_the_baseline_and_says_it_is_not_committed(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    done = run_action(repo, monkeypatch, **{"baseline-missing": "create"})
    _assert_one_verdict(repo, done, "pass")
    outputs = repo.outputs()
    assert "baseline created in CI, not committed" in outputs["summary"]
    body = repo.comments()[0]["body"]
    assert "was created in this CI run and is not committed" in body
    assert repo.artifacts is not None
    (artifact,) = repo.artifacts.artifacts.values()
    assert str(artifact.id) == outputs["artifact-id"]
    files = artifact.files()
    assert set(files) == {"ragspine-report.json", "baseline/baseline.json"}
    assert files["baseline/baseline.json"] == (repo.ws / "baseline.json").read_bytes()
    assert json.loads(files["baseline/baseline.json"])["my-rag"]["n_cases"] == 6
    assert re.search(r"^::warning title=ragspine-eval baseline not committed::", done.log, re.M)


def test_base_commit_read_from_git_history_when_the_checkout_has_it(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fetch-depth: 0``: git answers, no contents API call is needed."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-C", str(repo.ws), "-c", "user.email=t@t", "-c", "user.name=t", *args],
            check=True, capture_output=True, text=True,
        ).stdout.strip()  # fmt: skip

    git("init", "-q")
    git("add", "golden.jsonl", "outcomes.jsonl")
    git("commit", "-qm", "base without a baseline")
    base = git("rev-parse", "HEAD")
    env = repo.env()
    event = json.loads(Path(env["GITHUB_EVENT_PATH"]).read_text())
    event["pull_request"]["base"]["sha"] = base
    Path(env["GITHUB_EVENT_PATH"]).write_text(json.dumps(event))
    monkeypatch.chdir(repo.ws)
    out = io.StringIO()
    code = action_main(env, out, sleep=lambda _s: None)
    assert code == 2, out.getvalue()
    assert repo.github.recorded("GET", "/contents/") == []
    assert f"does not exist at the base commit {base[:12]}" in repo.outputs()["summary"]


# -- every verdict publishes ----------------------------------------------------------------


def test_invalid_input_replaces_the_green_comment_and_writes_the_summary(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.record_baseline_on_main()
    first = run_action(repo, monkeypatch)
    _assert_one_verdict(repo, first, "pass")
    [green] = repo.comments()
    assert "✅" in _heading(green["body"])

    lines = (repo.ws / "golden.jsonl").read_text().splitlines()
    lines[2] = '{"id": "c1", "question": 5'  # line 3: not JSON
    (repo.ws / "golden.jsonl").write_text("\n".join(lines) + "\n")
    done = run_action(repo, monkeypatch)
    _assert_one_verdict(repo, done, "error")
    [comment] = repo.comments()
    assert comment["id"] == green["id"] and comment["edits"] == 1
    body = comment["body"]
    assert "✅" not in body and "⚠️ ragspine-eval: ERROR" in _heading(body)
    assert "golden.jsonl:3" in body
    assert "golden.jsonl:3" in repo.summary()
    assert re.search(
        r"^::error title=ragspine-eval%3A invalid input,file=golden.jsonl,line=3::golden.jsonl:3",
        done.log,
        re.M,
    ), done.log
    assert HEAD_SHA[:12] in _heading(body) and HEAD_SHA[:12] in _heading(repo.summary())


def test_a_bad_action_input_still_updates_the_comment(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.record_baseline_on_main()
    _assert_one_verdict(repo, run_action(repo, monkeypatch), "pass")
    done = run_action(repo, monkeypatch, **{"fail-on": "sometimes"})
    _assert_one_verdict(repo, done, "error")
    assert "input fail-on" in repo.comments()[0]["body"]
    done = run_action(repo, monkeypatch, args="--k 0")
    _assert_one_verdict(repo, done, "error")
    assert "--k" in repo.comments()[0]["body"]


def test_a_config_file_error_is_annotated_at_its_line(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.record_baseline_on_main()
    (repo.ws / "gate.yml").write_text("gate:\n  floors: [1, 2\n")
    done = run_action(repo, monkeypatch, config="gate.yml")
    _assert_one_verdict(repo, done, "error")
    assert re.search(r"^::error title=[^:]*,file=gate.yml,line=\d+::", done.log, re.M), done.log


def test_on_failure_updates_the_red_comment_when_the_pr_turns_green(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.record_baseline_on_main()
    quiet = run_action(repo, monkeypatch, comment="on-failure")
    assert quiet.code == 0 and repo.comments() == [], "a green PR gets no new comment"
    _break_outcome(repo.ws)
    red = run_action(repo, monkeypatch, comment="on-failure")
    _assert_one_verdict(repo, red, "fail")
    shutil.copy(DATA / "mini_outcomes.jsonl", repo.ws / "outcomes.jsonl")
    green = run_action(repo, monkeypatch, comment="on-failure")
    _assert_one_verdict(repo, green, "pass")
    [comment] = repo.comments()
    assert comment["edits"] == 1 and "❌" not in comment["body"]


def test_after_a_guard_failure_every_output_says_fail(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.record_baseline_on_main()
    baseline = json.loads((repo.ws / "baseline.json").read_text())
    baseline["my-rag"]["metrics"]["numeric_accuracy"] = 0.5  # lowered by hand, no _history
    (repo.ws / "baseline.json").write_text(json.dumps(baseline, indent=2))
    done = run_action(repo, monkeypatch)
    _assert_one_verdict(repo, done, "fail")
    report = json.loads((repo.ws / "ragspine-report.json").read_text())
    assert "lowers the baseline without a _history record" in report["summary"]
    assert "ragspine-eval: PASS" not in done.log and "ragspine-eval: FAIL" in done.log
    body = repo.comments()[0]["body"]
    assert "PASS" not in body
    assert re.search(
        r"^::error title=ragspine-eval baseline guard,file=baseline.json::", done.log, re.M
    )


def test_fail_on_never_keeps_the_verdict_but_not_the_exit_code(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.record_baseline_on_main()
    _break_outcome(repo.ws)
    done = run_action(repo, monkeypatch, **{"fail-on": "never"})
    assert done.code == 0
    assert repo.outputs()["verdict"] == "fail"
    assert "ragspine-eval: FAIL" in _heading(repo.comments()[0]["body"])


def test_annotations_point_at_the_baseline_and_golden_lines(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.record_baseline_on_main()
    _break_outcome(repo.ws)
    done = run_action(repo, monkeypatch)
    assert done.code == 1
    found = re.search(
        r"^::error title=ragspine-eval regression,file=baseline.json,line=(\d+)::"
        r"my-rag/numeric_accuracy fell",
        done.log,
        re.M,
    )
    assert found, done.log
    baseline_lines = (repo.ws / "baseline.json").read_text().splitlines()
    assert '"numeric_accuracy"' in baseline_lines[int(found.group(1)) - 1]
    golden_line = next(
        i for i, line in enumerate((repo.ws / "golden.jsonl").read_text().splitlines(), 1)
        if json.loads(line)["id"] == "n1"
    )  # fmt: skip
    assert (
        f"::error title=ragspine-eval protected case,file=golden.jsonl,line={golden_line}::case n1"
        in done.log
    )


def test_comment_and_summary_show_the_head_sha_and_time(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ragspine_action.report.view import fmt_when

    repo.record_baseline_on_main()
    run_action(repo, monkeypatch)
    body, summary = repo.comments()[0]["body"], repo.summary()
    report = json.loads((repo.ws / "ragspine-report.json").read_text())
    for text in (body, summary):
        heading = _heading(text)
        assert f"`{HEAD_SHA[:12]}`" in heading, heading
        assert text.count(HEAD_SHA[:7]) == 1, text  # once: no footer repeats it
        assert fmt_when(report["generated_at"]) in heading, heading
        assert "3e3e3e3e3e3e" not in text  # the merge commit is not what the author pushed
    repo.head_sha = "5" * 40
    run_action(repo, monkeypatch)
    [comment] = repo.comments()
    assert "`555555555555`" in _heading(comment["body"]) and HEAD_SHA[:12] not in comment["body"]


def test_an_error_comment_shows_the_head_sha_too(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    done = run_action(repo, monkeypatch)  # no committed baseline: an error
    assert done.code == 2
    assert f"`{HEAD_SHA[:12]}`" in _heading(repo.comments()[0]["body"])
    assert f"`{HEAD_SHA[:12]}`" in _heading(repo.summary())
    assert repo.comments()[0]["body"].count(HEAD_SHA[:7]) == 1


# -- two runs at once -----------------------------------------------------------------------


def test_two_racing_runs_leave_one_comment_with_the_head_sha(repo: Repo) -> None:
    """Two pushes in quick succession: both runs list the comments before either creates
    one (the fake holds both listings until both have arrived). Run as the runner does:
    ``entrypoint.py`` with no arguments, INPUT_* in the environment."""
    repo.record_baseline_on_main()
    repo.github.race_comment_listings(2)
    procs = []
    for sha in ("a" * 40, "b" * 40):
        repo.head_sha = sha
        env = {**{k: v for k, v in os.environ.items() if not k.startswith(("INPUT_", "GITHUB_"))}}
        env.update(repo.env())
        env["PYTHONPATH"] = str(ROOT)
        procs.append(
            subprocess.Popen(
                [sys.executable, str(ROOT / "entrypoint.py")],
                cwd=repo.ws,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
        )
    logs = [p.communicate(timeout=300)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], logs
    assert len(repo.github.recorded("POST", r"/comments$")) == 2, "both runs created one"
    assert len(repo.github.recorded("DELETE")) >= 1
    [comment] = repo.comments()
    assert comment["body"].startswith(MARKER)
    shas = [s for s in ("a" * 12, "b" * 12) if f"`{s}`" in comment["body"]]
    assert len(shas) == 1, "exactly one run's head SHA"
    assert comment["id"] == 1001, "the oldest comment wins"


# -- fork pull requests: workflow_run publishes the gate run's report ------------------------


def _workflow_run_env(repo: Repo, report: Path, head_sha: str, **overrides: str) -> dict[str, str]:
    """The comment workflow of examples/workflows/ragspine-eval-fork-comment.yml."""
    env = repo.env(**overrides)
    event = {
        "action": "completed",
        "workflow_run": {
            "id": 9001,
            "event": "pull_request",
            "head_sha": head_sha,
            "head_branch": "feature",
            "head_repository": {"full_name": "forker/rag", "owner": {"login": "forker"}},
            "pull_requests": [],  # GitHub lists none for a fork's pull request
        },
    }
    Path(env["GITHUB_EVENT_PATH"]).write_text(json.dumps(event))
    env["GITHUB_EVENT_NAME"] = "workflow_run"
    keep = {"INPUT_GITHUB-TOKEN", "INPUT_COMMENT", "INPUT_FAIL-ON"}
    for key in [k for k in env if k.startswith("INPUT_") and k not in keep]:
        env[key] = ""
    env["INPUT_PUBLISH-REPORT"] = str(report)
    env.update({f"INPUT_{k.upper()}": v for k, v in overrides.items()})
    return env


def _fork_gate_report(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Part 1: the fork's run, read-only token, comment: never; its report is the artifact."""
    repo.record_baseline_on_main()
    _break_outcome(repo.ws)
    done = run_action(repo, monkeypatch, comment="never")
    assert done.code == 1 and repo.comments() == []
    artifact = repo.root / "downloaded" / "ragspine-report.json"
    artifact.parent.mkdir()
    shutil.copy(repo.ws / "ragspine-report.json", artifact)
    return artifact


def test_workflow_run_comments_the_fork_report_on_the_pr_found_by_its_head(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    artifact = _fork_gate_report(repo, monkeypatch)
    report = json.loads(artifact.read_text())
    repo.github.add_pull(OWNER, REPO, 3, head_label="forker:feature", head_sha="9" * 40)
    repo.github.add_pull(OWNER, REPO, PR, head_label="forker:feature", head_sha=HEAD_SHA)
    env = _workflow_run_env(repo, artifact, HEAD_SHA)
    out = io.StringIO()
    monkeypatch.chdir(repo.root)  # nothing of the fork is checked out here
    code = action_main(env, out, sleep=lambda _s: None)
    assert code == 1, out.getvalue()
    [comment] = repo.comments()
    body = comment["body"]
    assert body.startswith(MARKER) and "❌ ragspine-eval: FAIL" in _heading(body)
    assert f"`{HEAD_SHA[:12]}`" in body
    assert repo.github.comments_on(OWNER, REPO, 3) == []
    outputs = repo.outputs()
    assert outputs["verdict"] == "fail" and outputs["summary"] == report["summary"]
    assert outputs["comment-url"] == comment["html_url"]
    assert _heading(repo.summary()) == _heading(body)
    lookup = repo.github.recorded("GET", r"/pulls$")
    assert [r.query["head"] for r in lookup] == [["forker:feature"]]


def test_workflow_run_without_a_matching_pr_comments_nowhere(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    artifact = _fork_gate_report(repo, monkeypatch)
    repo.github.add_pull(OWNER, REPO, PR, head_label="forker:feature", head_sha="7" * 40)
    env = _workflow_run_env(repo, artifact, HEAD_SHA)
    out = io.StringIO()
    code = action_main(env, out, sleep=lambda _s: None)
    assert code == 1
    assert repo.comments() == []
    assert "no open pull request has this run's head commit" in out.getvalue()
    assert "ragspine-eval: FAIL" in _heading(repo.summary())


def test_workflow_run_with_a_forged_report_is_an_error_not_a_crash(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    forged = repo.root / "forged.json"
    forged.write_text(json.dumps({"verdict": "pass", "summary": "all good"}))
    repo.github.add_pull(OWNER, REPO, PR, head_label="forker:feature", head_sha=HEAD_SHA)
    env = _workflow_run_env(repo, forged, HEAD_SHA)
    out = io.StringIO()
    code = action_main(env, out, sleep=lambda _s: None)
    assert code == 2, out.getvalue()
    assert "is not a ragspine-eval report" in repo.outputs()["summary"]
    assert repo.outputs()["verdict"] == "error"
    assert "Traceback" not in out.getvalue()


def test_a_bug_is_exit_3_with_outputs_not_a_traceback(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ragspine_action.action as action

    def broken(*_args: object, **_kwargs: object) -> object:
        raise ZeroDivisionError("a bug")

    repo.record_baseline_on_main()
    monkeypatch.setattr(action, "run", broken)
    done = run_action(repo, monkeypatch)
    assert done.code == 3
    assert "Traceback" not in done.log
    assert re.search(
        r"^::error title=ragspine-eval%3A internal error::.*ZeroDivisionError", done.log, re.M
    )
    assert repo.outputs()["verdict"] == "error"


def test_an_unreadable_base_commit_blocks_only_a_baseline_missing_from_the_checkout(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No token and no git history: the base cannot be read. A baseline in the checkout is
    used (with a warning); none at all is still an error, never a silent creation."""
    done = run_action(repo, monkeypatch, **{"github-token": ""})
    assert done.code == 2
    summary = repo.outputs()["summary"]
    assert "is not in this checkout" in summary and "could not be read" in summary
    assert not (repo.ws / "baseline.json").exists()
    repo.record_baseline_on_main()
    done = run_action(repo, monkeypatch, **{"github-token": ""})
    assert done.code == 0, done.log
    assert "could not check that baseline.json is committed at the base commit" in done.log


def test_without_a_committed_baseline_input_errors_are_still_located(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first thing to fix comes first: a broken golden line, then the baseline."""
    lines = (repo.ws / "golden.jsonl").read_text().splitlines()
    lines[1] = '{"id": "n2", "question": '
    (repo.ws / "golden.jsonl").write_text("\n".join(lines) + "\n")
    done = run_action(repo, monkeypatch)
    _assert_one_verdict(repo, done, "error")
    body = repo.comments()[0]["body"]
    assert "golden.jsonl:2" in body and "invalid input" in body
    assert re.search(r"^::error title=[^:]*,file=golden.jsonl,line=2::", done.log, re.M)
    assert not (repo.ws / "baseline.json").exists()
    for no_baseline in ("", "baseline.json"):  # no input, or a path not committed
        done = run_action(repo, monkeypatch, baseline=no_baseline)
        assert "golden.jsonl:2" in repo.outputs()["summary"], no_baseline


def test_many_long_input_problems_still_fit_the_comment(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.record_baseline_on_main()
    bad = "".join(
        json.dumps({"id": f"{i}" + "x" * 3000, "question": "q", "case_type": "nonsense" * 400})
        + "\n"
        for i in range(400)
    )
    (repo.ws / "golden.jsonl").write_text(bad)
    done = run_action(repo, monkeypatch)
    _assert_one_verdict(repo, done, "error")
    body = repo.comments()[0]["body"]
    assert len(body) < 65_536 and "golden.jsonl:1" in body


# -- extraction --------------------------------------------------------------------------------


def test_an_extraction_regression_shows_its_cells(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixtures = ROOT / "data" / "fixtures" / "pptx"
    shutil.copy(fixtures / "pptx_facts.json", repo.ws / "facts.json")
    shutil.copy(fixtures / "pptx_ground_truth.json", repo.ws / "truth.json")
    flags = ["--facts", "facts.json", "--ground-truth", "truth.json"]
    monkeypatch.chdir(repo.ws)
    assert cli_main(
        ["--suite", "extraction", *flags, "--baseline", "baseline.json", "--update-baseline",
         "--quiet"]
    ) == 0  # fmt: skip
    repo.commit_to_base("baseline.json")
    facts = json.loads((repo.ws / "facts.json").read_text())
    truth = {
        (c["sheet"], c["cell_ref"]): c
        for c in json.loads((repo.ws / "truth.json").read_text())["cells"]
    }
    broken = next(
        c for c in facts["cells"]
        if truth.get((c["sheet"], c["cell_ref"]), {}).get("value") == c["value"]
        and isinstance(c["value"], int | float)
    )  # fmt: skip
    expected = broken["value"]
    broken["value"] = 424242
    (repo.ws / "facts.json").write_text(json.dumps(facts))
    repo.with_ = {"system": "", "golden": "", "outcomes": "", "mode": ""}
    done = run_action(repo, monkeypatch, suites="extraction", args=" ".join(flags))
    _assert_one_verdict(repo, done, "fail")
    for text in (repo.comments()[0]["body"], repo.summary()):
        assert "424242" in text, text
        assert broken["cell_ref"] in text and broken["sheet"] in text
        line = next(x for x in text.splitlines() if "424242" in x)
        assert f"{expected:g}" in line, line  # expected and actual side by side

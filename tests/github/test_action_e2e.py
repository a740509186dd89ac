"""The action end to end in a fake pull-request environment, against loopback fakes."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from github_fakes import DEFAULT_TOKEN, FakeArtifactService, FakeGitHub

from ragspine_action.action import main

DATA = Path(__file__).resolve().parents[1] / "data"
OWNER, REPO, PR = "acme", "rag", 7


def _workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    shutil.copy(DATA / "mini_golden.jsonl", ws / "golden.jsonl")
    shutil.copy(DATA / "mini_outcomes.jsonl", ws / "outcomes.jsonl")
    return ws


def _env(
    ws: Path,
    github: FakeGitHub,
    artifacts: FakeArtifactService | None,
    **inputs: str,
) -> dict[str, str]:
    event = ws.parent / "event.json"
    event.write_text(
        json.dumps(
            {
                "number": PR,
                "pull_request": {
                    "number": PR,
                    "base": {
                        "sha": "b" * 40,
                        "ref": "main",
                        "repo": {"full_name": f"{OWNER}/{REPO}"},
                    },
                    "head": {
                        "sha": "h" * 40,
                        "ref": "feature",
                        "repo": {"full_name": f"{OWNER}/{REPO}"},
                    },
                },
            }
        )
    )
    env = {
        "GITHUB_ACTIONS": "true",
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_REPOSITORY": f"{OWNER}/{REPO}",
        "GITHUB_SERVER_URL": "https://github.example",
        "GITHUB_API_URL": github.url,
        "GITHUB_RUN_ID": "99",
        "GITHUB_WORKSPACE": str(ws),
        "GITHUB_OUTPUT": str(ws.parent / "output.txt"),
        "GITHUB_STEP_SUMMARY": str(ws.parent / "summary.md"),
        "INPUT_SYSTEM": "outcomes",
        "INPUT_GOLDEN": "golden.jsonl",
        "INPUT_OUTCOMES": "outcomes.jsonl",
        "INPUT_BASELINE": "baseline.json",
        "INPUT_MODE": "my-rag",
        "INPUT_COMMENT": "auto",
        "INPUT_GITHUB-TOKEN": DEFAULT_TOKEN,
        "INPUT_ARTIFACT-NAME": "ragspine-report",
        "INPUT_REPORT": "ragspine-report.json",
        # These tests start from an empty repository: the first run records the baseline
        # in CI (test_action_trust.py covers the default, an error).
        "INPUT_BASELINE-MISSING": "create",
    }
    if artifacts is not None:
        env["ACTIONS_RUNTIME_TOKEN"] = artifacts.runtime_token
        env["ACTIONS_RESULTS_URL"] = artifacts.results_url
    env.update({f"INPUT_{k.upper().replace('_', '-')}": v for k, v in inputs.items()})
    return env


def _outputs(ws: Path) -> dict[str, str]:
    text = (ws.parent / "output.txt").read_text()
    found = re.findall(r"^([\w-]+)<<(\S+)\n(.*?)\n\2$", text, flags=re.S | re.M)
    return {name: value for name, _, value in found}


WAITS: list[float] = []


def _run(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    monkeypatch.chdir(env["GITHUB_WORKSPACE"])
    out = io.StringIO()
    code = main(env, out, sleep=WAITS.append)
    return code, out.getvalue()


def _break_outcome(ws: Path) -> None:
    rows = [json.loads(line) for line in (ws / "outcomes.jsonl").read_text().splitlines()]
    rows[0]["unit"] = "USD_B"  # n1: numeric_accuracy regresses
    (ws / "outcomes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_two_runs_leave_one_comment_edited_in_place(
    tmp_path: Path,
    fake_github: FakeGitHub,
    fake_artifacts: FakeArtifactService,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ws = _workspace(tmp_path)
    env = _env(ws, fake_github, fake_artifacts)

    code, log = _run(env, monkeypatch)
    assert code == 0
    comments = fake_github.comments_on(OWNER, REPO, PR)
    assert len(comments) == 1
    first_body = comments[0]["body"]
    assert "ragspine-eval: PASS" in first_body
    assert "baseline created" in first_body.lower() or "created" in first_body

    _break_outcome(ws)
    env["INPUT_ARTIFACT-NAME"] = "ragspine-report-2"  # artifact names are unique per run
    code, log = _run(env, monkeypatch)
    assert code == 1, log
    comments = fake_github.comments_on(OWNER, REPO, PR)
    assert len(comments) == 1, "the second run must edit, not add"
    assert len(fake_github.recorded("PATCH")) == 1
    body = comments[0]["body"]
    assert "ragspine-eval: FAIL" in body
    report = json.loads((ws / "ragspine-report.json").read_text())
    metric = report["qa"]["metrics"]["numeric_accuracy"]
    moved, row = [line for line in body.splitlines() if line.startswith("| `numeric_accuracy`")]
    assert "100.0% → 50.0%" in moved  # what changed, then the full table
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert [cells[1], cells[2]] == [
        f"{metric['pass_rate'] * 100:.1f}%",
        f"{metric['passed']}/{metric['total']}",
    ]
    assert cells[-1] == "❌"
    assert "`n1`" in body  # broken case listed

    summary = (ws.parent / "summary.md").read_text()
    assert summary.count("### ❌ ragspine-eval: FAIL") == 1
    assert summary.count("### ✅ ragspine-eval: PASS") == 1
    outputs = _outputs(ws)
    assert outputs["verdict"] == "fail"
    assert outputs["report-path"] == "ragspine-report.json"
    assert outputs["comment-url"] == comments[0]["html_url"]
    assert outputs["artifact-id"], log
    assert outputs["summary"].startswith("ragspine-eval: FAIL")
    assert re.search(
        r"^::error title=ragspine-eval regression,file=baseline.json,line=\d+::"
        r"my-rag/numeric_accuracy fell",
        log,
        re.M,
    ), log
    assert f"::add-mask::{DEFAULT_TOKEN}" in log

    uploaded = list(fake_artifacts.artifacts.values())
    assert len(uploaded) == 2 and all(a.finalized for a in uploaded)
    files = uploaded[-1].files()
    assert json.loads(files["ragspine-report.json"])["verdict"] == "fail"


def test_fork_403_rate_limit_and_artifact_500_only_warn(
    tmp_path: Path,
    fake_github: FakeGitHub,
    fake_artifacts: FakeArtifactService,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ws = _workspace(tmp_path)
    env = _env(ws, fake_github, fake_artifacts)
    fake_github.forbid_comment_writes = True
    fake_artifacts.fail(500, times=100)
    WAITS.clear()
    code, log = _run(env, monkeypatch)
    assert code == 0, "the gate passed: comment and upload failures must not fail the job"
    assert WAITS, "the artifact service's 500s were retried with waits"
    assert "::warning" in log and "may not comment" in log
    assert "not uploaded as an artifact" in log
    outputs = _outputs(ws)
    assert (
        outputs["verdict"] == "pass"
        and outputs["artifact-id"] == ""
        and outputs["comment-url"] == ""
    )

    _break_outcome(ws)
    fake_github.forbid_comment_writes = False
    fake_github.fail(429, path="/comments$", headers={"Retry-After": "3600"}, times=100)
    code, log = _run(env, monkeypatch)
    assert code == 1, "the gate failed: the verdict decides, whatever the API does"
    assert "pull request comment failed" in log


def test_hostile_golden_text_renders_inertly(
    tmp_path: Path, fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = _workspace(tmp_path)
    hostile = "a|b <script>alert(1)</script> @org/team <!-- ragspine-eval:sticky:my-rag -->"
    rows = [json.loads(line) for line in (ws / "outcomes.jsonl").read_text().splitlines()]
    rows[0]["unit"] = hostile
    (ws / "outcomes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    env = _env(ws, fake_github, None)
    fake_github.add_comment(
        OWNER, REPO, PR, "<!-- ragspine-eval:sticky:my-rag --> planted", login="mallory"
    )
    code, _ = _run(env, monkeypatch)
    assert code == 0  # baseline created
    ours = [c for c in fake_github.comments_on(OWNER, REPO, PR) if c["user"]["login"] != "mallory"]
    assert len(ours) == 1
    body = ours[0]["body"]
    assert "<script>" not in body and "@org/team" not in body
    assert body.count("<!-- ragspine-eval") == 1, "only our own marker may appear raw"
    planted = [
        c for c in fake_github.comments_on(OWNER, REPO, PR) if c["user"]["login"] == "mallory"
    ]
    assert planted[0]["body"].endswith("planted"), "a user's comment is never edited"
    # every row of every table keeps its header's column count (no unescaped `|` leaked)
    table: list[int] = []
    for line in [*body.splitlines(), ""]:
        if line.startswith("|"):
            table.append(len(re.findall(r"(?<!\\)\|", line)))
        elif table:
            assert len(set(table)) == 1, table
            table = []
    assert "a\\|b" in body


def _git(ws: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ws), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def test_baseline_guard_fails_an_unrecorded_lowering(
    tmp_path: Path, fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = _workspace(tmp_path)
    env = _env(ws, fake_github, None)
    code, _ = _run(env, monkeypatch)  # records baseline.json
    assert code == 0
    _git(ws, "init", "-q")
    _git(ws, "-c", "user.email=t@t", "-c", "user.name=t", "add", "golden.jsonl", "baseline.json")
    _git(ws, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "base")
    base_sha = _git(ws, "rev-parse", "HEAD")
    event = json.loads(Path(env["GITHUB_EVENT_PATH"]).read_text())
    event["pull_request"]["base"]["sha"] = base_sha
    Path(env["GITHUB_EVENT_PATH"]).write_text(json.dumps(event))

    baseline: dict[str, Any] = json.loads((ws / "baseline.json").read_text())
    baseline["my-rag"]["metrics"]["numeric_accuracy"] = 0.5  # hand-lowered, no _history record
    (ws / "baseline.json").write_text(json.dumps(baseline))
    golden = (ws / "golden.jsonl").read_text().splitlines()
    (ws / "golden.jsonl").write_text("\n".join(golden[1:]) + "\n")  # drops case n1

    code, _ = _run(env, monkeypatch)
    body = fake_github.comments_on(OWNER, REPO, PR)[0]["body"]
    assert "This pull request changes the baseline and the golden set" in body
    assert body.index("changes the baseline") < body.index("### ")
    assert "numeric_accuracy lowered 1 → 0.5" in body
    assert "Cases removed (1): n1" in body
    assert code in (1, 2)  # stale golden set (exit 2) — and the guard still speaks first


def test_a_crash_while_publishing_is_a_warning_not_a_failed_job(
    tmp_path: Path, fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ragspine_action.action as action

    def broken_renderer(*args: Any, **kwargs: Any) -> str:
        raise RuntimeError("renderer exploded")

    monkeypatch.setattr(action, "render_markdown", broken_renderer)
    ws = _workspace(tmp_path)
    code, log = _run(_env(ws, fake_github, None), monkeypatch)
    assert code == 0, "the gate verdict (baseline created) decides the job"
    assert "publishing the results failed: RuntimeError: renderer exploded" in log
    assert _outputs(ws)["verdict"] == "pass"


def test_merge_use_gates_the_shards_and_comments(
    tmp_path: Path, fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ragspine_action.cli import main as cli_main

    ws = _workspace(tmp_path)
    monkeypatch.chdir(ws)
    (ws / "partials").mkdir()
    common = ["--system", "outcomes", "--golden", "golden.jsonl", "--outcomes", "outcomes.jsonl"]
    for i in (1, 2):
        shard = ["--shard", f"{i}/2", "--mode", "my-rag", "--quiet"]
        assert cli_main([*common, *shard, "--report", f"partials/p{i}.json"]) == 0
    assert cli_main([*common, "--mode", "my-rag", "--report", "whole.json", "--quiet"]) == 0

    env = _env(ws, fake_github, None)
    for name in ("SYSTEM", "GOLDEN", "OUTCOMES", "MODE"):
        env.pop(f"INPUT_{name}")
    env["INPUT_MERGE-REPORTS"] = "partials/*.json"
    code, log = _run(env, monkeypatch)
    assert code == 0, log
    merged = json.loads((ws / "ragspine-report.json").read_text())
    whole = json.loads((ws / "whole.json").read_text())
    assert merged["qa"]["metrics"] == whole["qa"]["metrics"]
    assert merged["baseline"]["status"] == "created"
    [comment] = fake_github.comments_on(OWNER, REPO, PR)
    assert "ragspine-eval: PASS" in comment["body"] and "6 cases" in comment["body"]
    assert _outputs(ws)["verdict"] == "pass"

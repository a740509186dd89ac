"""The action's ``formats`` input: HTML and JUnit beside the JSON report, in the artifact;
the comment and the job summary carry the same markdown, with the head SHA."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from github_fakes import FakeArtifactService, FakeGitHub
from test_action_e2e import OWNER, PR, REPO, _break_outcome, _env, _run, _workspace

from ragspine_action.action import main


def test_formats_attach_html_and_junit_and_the_comment_equals_the_summary(
    tmp_path: Path,
    fake_github: FakeGitHub,
    fake_artifacts: FakeArtifactService,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ws = _workspace(tmp_path)
    env = _env(ws, fake_github, fake_artifacts, formats="html, junit")
    event = Path(env["GITHUB_EVENT_PATH"])
    data = json.loads(event.read_text())
    data["pull_request"]["head"]["sha"] = "0123abcd" * 5
    event.write_text(json.dumps(data))
    assert _run(env, monkeypatch)[0] == 0
    _break_outcome(ws)
    (ws.parent / "summary.md").unlink()
    env["INPUT_ARTIFACT-NAME"] = "ragspine-report-2"
    code, log = _run(env, monkeypatch)
    assert code == 1, log
    files = list(fake_artifacts.artifacts.values())[-1].files()
    assert set(files) >= {
        "ragspine-report.json",
        "ragspine-report.html",
        "ragspine-report.junit.xml",
    }
    assert b"ragspine-eval: FAIL" in files["ragspine-report.html"]
    assert b'<failure type="numeric_accuracy"' in files["ragspine-report.junit.xml"]
    assert (ws / "ragspine-report.html").is_file()

    [comment] = fake_github.comments_on(OWNER, REPO, PR)
    body = comment["body"]
    summary = (ws.parent / "summary.md").read_text(encoding="utf-8")
    marker_line, rest = body.split("\n", 1)
    assert marker_line.startswith("<!-- ragspine-eval:sticky:")
    assert rest.strip() in summary  # one markdown, two places
    verdict = next(line for line in rest.splitlines() if line.startswith("### "))
    assert verdict.startswith("### ❌ ragspine-eval: FAIL · head `0123abcd0123` · ")


@pytest.mark.parametrize("formats", ["pdf", "html,xml"])
def test_an_unknown_format_is_one_line_and_exit_2(
    tmp_path: Path, fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch, formats: str
) -> None:
    ws = _workspace(tmp_path)
    env = _env(ws, fake_github, None, formats=formats)
    monkeypatch.chdir(ws)
    out = io.StringIO()
    assert main(env, out, sleep=lambda _s: None) == 2
    assert "input formats:" in out.getvalue() and "html, junit" in out.getvalue()

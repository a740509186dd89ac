"""The action with ``judge: llm``: inputs become flags, the key is masked and leaks nowhere."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI
from github_fakes import DEFAULT_TOKEN, FakeArtifactService, FakeGitHub
from test_llm_judge_cli import CASES, KEY, _write_inputs

from ragspine_action.action import main


def _leaks(text: str) -> list[str]:
    """Lines carrying the key, other than the ::add-mask:: line itself."""
    return [
        line
        for line in text.splitlines()
        if not line.startswith("::add-mask::") and (KEY in line or KEY[3:] in line)
    ]


def test_action_masks_the_key_and_judges(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    _write_inputs(ws)
    event = tmp_path / "event.json"
    event.write_text(
        json.dumps(
            {
                "number": 7,
                "pull_request": {
                    "number": 7,
                    "base": {"sha": "b" * 40, "ref": "main", "repo": {"full_name": "acme/rag"}},
                    "head": {"sha": "h" * 40, "ref": "f", "repo": {"full_name": "acme/rag"}},
                },
            }
        )
    )
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.chdir(ws)
    with (
        FakeGitHub() as github,
        FakeArtifactService() as artifacts,
        FakeOpenAI(unsupported_phrase="XYZZY") as judge,
    ):
        env = {
            "GITHUB_ACTIONS": "true",
            "GITHUB_EVENT_NAME": "pull_request",
            "GITHUB_EVENT_PATH": str(event),
            "GITHUB_REPOSITORY": "acme/rag",
            "GITHUB_SERVER_URL": "https://github.example",
            "GITHUB_API_URL": github.url,
            "GITHUB_RUN_ID": "99",
            "GITHUB_WORKSPACE": str(ws),
            "GITHUB_OUTPUT": str(tmp_path / "output.txt"),
            "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
            "ACTIONS_RUNTIME_TOKEN": artifacts.runtime_token,
            "ACTIONS_RESULTS_URL": artifacts.results_url,
            "OPENAI_API_KEY": KEY,
            "INPUT_GOLDEN": "golden.jsonl",
            "INPUT_OUTCOMES": "outcomes.jsonl",
            "INPUT_BASELINE": "baseline.json",
            "INPUT_BASELINE-MISSING": "create",
            "INPUT_MODE": "mine",
            "INPUT_COMMENT": "always",
            "INPUT_GITHUB-TOKEN": DEFAULT_TOKEN,
            "INPUT_ARTIFACT-NAME": "ragspine-report",
            "INPUT_REPORT": "ragspine-report.json",
            "INPUT_JUDGE": "llm",
            "INPUT_JUDGE-URL": judge.url,
            "INPUT_JUDGE-MODEL": "judge-model-1",
            "INPUT_JUDGE-CACHE": "judge-cache.sqlite",
        }
        log = io.StringIO()
        code = main(env, log, sleep=lambda _s: None)
        sent = judge.count
        assert judge.auth == [f"Bearer {KEY}"] * sent and sent == 7
        comments = github.comments_on("acme", "rag", 7)
        bodies = [r.body.decode("utf-8", "replace") for r in github.recorded()]
        uploaded = [f for a in artifacts.artifacts.values() for f in a.files().values()]
    text = log.getvalue()
    assert code == 0, text
    assert f"::add-mask::{KEY}" in text
    assert _leaks(text) == []
    assert comments and all(_leaks(c["body"]) == [] for c in comments)
    assert all(_leaks(b) == [] for b in bodies)
    assert uploaded and all(KEY.encode() not in f for f in uploaded)
    for path in [*ws.rglob("*"), *tmp_path.glob("*.*")]:
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), path
    report = json.loads((ws / "ragspine-report.json").read_text())
    verdicts = {c["id"]: c["gates"]["faithfulness"] for c in report["qa"]["cases"]}
    assert verdicts == {case_id: ok for case_id, _, _, ok in CASES}
    assert json.loads((ws / "baseline.json").read_text())["mine"]["judge"]["kind"] == "llm"

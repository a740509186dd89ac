"""Hostile golden text and system answers render inertly in the comment and job summary.

Inert means: no raw ``<`` but our own tags, no ``@mention``, no control or zero-width
characters, table rows keep their column count, and at most one raw sticky marker.
"""

from __future__ import annotations

import io
import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from github_fakes import DEFAULT_TOKEN, FakeGitHub
from hardening_support import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

from ragspine_action.action import main as action_main
from ragspine_action.config import RunConfig
from ragspine_action.report.render_markdown import render_markdown
from ragspine_action.run import run

MARKER_TEXT = "<!-- ragspine-eval:sticky:"
HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<!-- ragspine-eval:sticky:my-rag -->",
    "--> <!-- ragspine-eval:sticky:fuzz -->",
    "@octocat @org/team ping",
    "| x | y |\n|---|---|\n| injected | row |",
    "a\\|b\\\\|c",
    "</details><details open>",
    "**bold** [link](javascript:alert(1)) ![img](http://x/y.png)",
    "\u200b\u200c\u200d\u2060\ufeff\u202e\u2066\u2069",
    "line\u2028sep\u2029para\x85next\x0bvt\x0cff",
    "\x00\x01\x1b[31mred\x7f",
    "w" * 20_000,
    "```\ncode\n```",
    "&lt;already&gt; &amp;",
    "\U0001f600 emoji and 中文",
]
_OUR_TAGS = re.compile(r"</?details>|</?summary>|<!-- ragspine-eval:sticky:[A-Za-z0-9._-]+ -->")
_FORBIDDEN_CHARS = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200c-\u200f\u2028-\u202e\u2060-\u2069\ufeff]"
)


def _outside_code(body: str) -> str:
    """The body without fenced blocks and code spans: GitHub shows their text literally
    (no HTML, no @mentions), so ids can be shown there exactly as written."""
    body = re.sub(r"^(`{3,})[^\n]*\n.*?^\1\s*$", "", body, flags=re.S | re.M)
    return re.sub(r"(?<!`)(`+)(?!`).+?(?<!`)\1(?!`)", "", body)


def check_inert(body: str, *, markers_allowed: int = 1) -> None:
    """The rendering rules every comment and summary body must keep (the test's checker)."""
    assert body.count(MARKER_TEXT) <= markers_allowed, "a second sticky marker leaked in"
    prose = _outside_code(body)
    assert "<" not in _OUR_TAGS.sub("", prose), "raw '<' from untrusted text"
    assert re.search(r"(?<!\w)@[A-Za-z0-9]", prose) is None, "an @mention would ping someone"
    assert _FORBIDDEN_CHARS.search(body) is None, "control or invisible character"
    assert all("\u200b" not in line.replace("@\u200b", "") for line in body.splitlines())
    assert max(len(line) for line in body.splitlines()) < 4000, "an unbounded line"
    lines = body.split("\n")
    index = 0
    while index < len(lines):
        if lines[index].startswith("|"):
            width = _cells(lines[index])
            while index < len(lines) and lines[index].startswith("|"):
                assert _cells(lines[index]) == width, f"table row broken: {lines[index][:200]!r}"
                index += 1
        index += 1


def _cells(row: str) -> int:
    unescaped = re.sub(r"\\.", "", row)  # an escaped pipe is text, not a cell border
    return unescaped.count("|")


def test_the_checker_catches_what_it_must() -> None:
    """Sanity: each rule of check_inert fires on a body that breaks it."""
    for bad in [
        "| a | b |\n|---|---|\n| x | y | z |",
        "hello <b>x</b>",
        "thanks @octocat",
        "`a` <b>x</b> `c`",
        "``x` @octocat",
        f"{MARKER_TEXT}a -->\n{MARKER_TEXT}b -->",
        "zero\u200dwidth",
        "x" * 5000,
    ]:
        with pytest.raises(AssertionError):
            check_inert(bad)


def _files(texts: list[str], answers: list[str]) -> tuple[Path, Path]:
    work = Path(tempfile.mkdtemp(prefix="rs-hostile-"))
    cases, outcomes = [], []
    for i, (text, answer) in enumerate(zip(texts, answers, strict=True)):
        case_id = f"{text[:40]}#{i}" if text.strip() else f"case#{i}"
        cases.append(
            {
                "id": case_id,
                "question": text if text.strip() else "?",
                "case_type": "narrative",
                "expected": {"narrative_doc": text or "doc", "reference_answer": text or "ref"},
                "tags": {text[:20] or "k": text[:50]},
            }
        )
        outcomes.append(
            {"id": case_id, "answer": answer, "sources": [text or "d"], "contexts": [answer],
             "error": answer if i % 3 == 2 else None}
        )  # fmt: skip
    golden, outs = work / "golden.jsonl", work / "outcomes.jsonl"
    golden.write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    outs.write_text("".join(json.dumps(o) + "\n" for o in outcomes), encoding="utf-8")
    return golden, outs


@fuzz_settings(40)
@given(
    st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=30)), min_size=1, max_size=6),
    st.data(),
)
def test_markdown_of_hostile_cases_is_inert(texts: list[str], data: st.DataObject) -> None:
    answers = [data.draw(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=30))) for _ in texts]
    golden, outcomes = _files(texts, answers)
    config = RunConfig(system="outcomes", mode="fuzz", golden=str(golden), outcomes=str(outcomes),
                       baseline=None, bootstrap_resamples=0)  # fmt: skip
    report = run(config).report
    body = render_markdown(report, run_url="https://github.example/run/1")
    check_inert(body, markers_allowed=0)
    assert len(body) <= 65_536


def _action_env(ws: Path, github: FakeGitHub, mode: str) -> dict[str, str]:
    event = ws.parent / "event.json"
    pr: dict[str, Any] = {
        "number": 7,
        "base": {"sha": "b" * 40, "ref": "main", "repo": {"full_name": "acme/rag"}},
        "head": {"sha": "h" * 40, "ref": "f", "repo": {"full_name": "acme/rag"}},
    }
    event.write_text(json.dumps({"number": 7, "pull_request": pr}), encoding="utf-8")
    return {
        "GITHUB_ACTIONS": "true",
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_REPOSITORY": "acme/rag",
        "GITHUB_API_URL": github.url,
        "GITHUB_SERVER_URL": "https://github.example",
        "GITHUB_RUN_ID": "1",
        "GITHUB_WORKSPACE": str(ws),
        "GITHUB_OUTPUT": str(ws.parent / "output.txt"),
        "GITHUB_STEP_SUMMARY": str(ws.parent / "summary.md"),
        "INPUT_SYSTEM": "outcomes",
        "INPUT_GOLDEN": "golden.jsonl",
        "INPUT_OUTCOMES": "outcomes.jsonl",
        "INPUT_BASELINE": "baseline.json",
        "INPUT_BASELINE-MISSING": "create",  # no base commit: record it in CI
        "INPUT_MODE": mode,
        "INPUT_GITHUB-TOKEN": DEFAULT_TOKEN,
        "INPUT_ARTIFACT-NAME": "",
        "INPUT_ARGS": "--bootstrap-resamples 0 --max-error-rate 1",  # errors reach the comment
    }


@pytest.mark.parametrize("mode", ["my-rag", "my rag <b>@team</b>"])
def test_action_comment_and_summary_of_hostile_run_are_inert(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """Baseline first, then every case breaks: ids, answers and reasons reach the comment."""
    ws = tmp_path / "ws"
    ws.mkdir()
    golden, outcomes = _files(HOSTILE, HOSTILE[::-1])
    (ws / "golden.jsonl").write_bytes(golden.read_bytes())
    good = [json.loads(line) for line in outcomes.read_text(encoding="utf-8").splitlines()]
    for row in good:
        row.update(error=None, answer=row["id"], sources=[])
    (ws / "outcomes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in good), "utf-8")
    monkeypatch.chdir(ws)
    with FakeGitHub() as github:
        env = _action_env(ws, github, mode)
        assert action_main(env, io.StringIO(), sleep=lambda _s: None) == 0  # records the baseline
        (ws / "outcomes.jsonl").write_bytes(outcomes.read_bytes())
        log = io.StringIO()
        code = action_main(env, log, sleep=lambda _s: None)
        assert "Traceback" not in log.getvalue()
        comments = github.comments_on("acme", "rag", 7)
    assert len(comments) == 1, "one sticky comment, edited in place"
    body = comments[0]["body"]
    assert body.startswith(MARKER_TEXT)
    check_inert(body, markers_allowed=1)
    summary = (ws.parent / "summary.md").read_text(encoding="utf-8")
    check_inert(summary, markers_allowed=1)
    assert code in (0, 1)

"""Round-2 attacks on the baseline guard (findings 2, 3, 7 and 18 of issue 17).

A real git repository is the base commit; the pull request then weakens its own gate in
one of the ways the review found (a BOM that broke the guard's parser, a symlink to a
lowered copy, one edited character of a protected pass string, deleted per-case facts,
a settings file that ungates metrics) and must not end in exit 0.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hardening_support import DATA

from ragspine_action.action import main as action_main
from ragspine_action.config_file import parse_config_text
from ragspine_action.guard import GuardReport, compare_settings, is_commit_id

MODE = "m"
SETTINGS = (
    "system: outcomes\nmode: m\ngolden: golden.jsonl\noutcomes: outcomes.jsonl\n"
    "baseline: baseline.json\n"
)


def _git(ws: Path, *args: str) -> str:
    who = ["-c", "user.email=t@t", "-c", "user.name=t"]
    done = subprocess.run(["git", "-C", str(ws), *who, *args], check=True, capture_output=True)
    return done.stdout.decode().strip()


def _action(ws: Path, base_sha: str, **inputs: str) -> tuple[int, str]:
    event = ws.parent / "event.json"
    pr = {
        "number": 5,
        "base": {"sha": base_sha, "ref": "main", "repo": {"full_name": "acme/rag"}},
        "head": {"sha": "c" * 40, "ref": "f", "repo": {"full_name": "acme/rag"}},
    }
    event.write_text(json.dumps({"number": 5, "pull_request": pr}))
    env = {
        "GITHUB_ACTIONS": "true",
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_REPOSITORY": "acme/rag",
        "GITHUB_WORKSPACE": str(ws),
        "GITHUB_OUTPUT": str(ws.parent / "output.txt"),
        "INPUT_COMMENT": "never",
        "INPUT_ARGS": "--config ragspine-eval.yml",
    }
    env.update({f"INPUT_{k.upper().replace('_', '-')}": v for k, v in inputs.items()})
    log = io.StringIO()
    import os

    cwd = os.getcwd()
    os.chdir(ws)
    try:
        code = action_main(env, log, sleep=lambda _s: None)
    finally:
        os.chdir(cwd)
    return code, log.getvalue()


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, str]:
    """A repository whose base commit holds settings, golden set, outcomes and baseline."""
    ws = tmp_path / "ws"
    ws.mkdir()
    shutil.copy(DATA / "mini_golden.jsonl", ws / "golden.jsonl")
    shutil.copy(DATA / "mini_outcomes.jsonl", ws / "outcomes.jsonl")
    (ws / "ragspine-eval.yml").write_text(SETTINGS)
    from hardening_support import run_cli

    recorded = run_cli(["--config", str(ws / "ragspine-eval.yml"), "--baseline",
                        str(ws / "baseline.json")])  # fmt: skip
    assert recorded.code == 0, recorded.stderr
    _git(ws, "init", "-q")
    _git(ws, "add", ".")
    _git(ws, "commit", "-qm", "base")
    return ws, _git(ws, "rev-parse", "HEAD")


def _baseline(ws: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((ws / "baseline.json").read_text("utf-8-sig"))
    return loaded


def _save(ws: Path, doc: dict[str, Any], *, bom: bool = False) -> None:
    data = json.dumps(doc, indent=2).encode()
    (ws / "baseline.json").write_bytes((b"\xef\xbb\xbf" if bom else b"") + data)


def _break_n1(ws: Path) -> None:
    rows = [json.loads(line) for line in (ws / "outcomes.jsonl").read_text().splitlines()]
    rows[0]["unit"] = "USD_B"  # n1 now fails numeric_accuracy
    (ws / "outcomes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_an_untouched_pull_request_passes(repo: tuple[Path, str]) -> None:
    ws, sha = repo
    code, log = _action(ws, sha)
    assert code == 0, log


def _lower_metric_with_bom(ws: Path) -> None:
    doc = _baseline(ws)
    doc[MODE]["metrics"]["numeric_accuracy"] = 0.0
    _save(ws, doc, bom=True)


def _symlink_to_lowered_copy(ws: Path) -> None:
    doc = _baseline(ws)
    doc[MODE]["metrics"]["numeric_accuracy"] = 0.0
    doc[MODE]["passed"] = {}
    (ws / "lowered.json").write_text(json.dumps(doc))
    (ws / "baseline.json").unlink()
    (ws / "baseline.json").symlink_to("lowered.json")


def _edit_one_pass_character(ws: Path) -> None:
    doc = _baseline(ws)
    passed = doc[MODE]["passed"]["numeric_accuracy"]
    index = doc[MODE]["ids"].index("n1")
    passed = passed[:index] + "0" + passed[index + 1 :]
    doc[MODE]["passed"]["numeric_accuracy"] = passed
    _save(ws, doc)


def _delete_per_case_facts(ws: Path) -> None:
    doc = _baseline(ws)
    for key in ("ids", "passed", "ranks", "case_values", "digests", "fabricated"):
        doc[MODE].pop(key, None)
    _save(ws, doc)


def _drop_n1_from_the_entry(ws: Path) -> None:
    doc = _baseline(ws)
    entry = doc[MODE]
    index = entry["ids"].index("n1")
    entry["ids"].pop(index)
    for name, text in entry["passed"].items():
        entry["passed"][name] = text[:index] + text[index + 1 :]
    if entry.get("ranks"):
        entry["ranks"].pop(index)
    for values in entry.get("case_values", {}).values():
        values.pop(index)
    for name, text in entry.get("digests", {}).items():
        width = len(text) // (len(entry["ids"]) + 1) if entry["ids"] else 0
        entry["digests"][name] = text[: index * width] + text[(index + 1) * width :]
    _save(ws, doc)


def _rewrite_history(ws: Path) -> None:
    doc = _baseline(ws)
    doc["_schema_version"] = 1
    _save(ws, doc)


@pytest.mark.parametrize(
    "attack",
    [
        _lower_metric_with_bom,
        _symlink_to_lowered_copy,
        _edit_one_pass_character,
        _delete_per_case_facts,
        _drop_n1_from_the_entry,
        _rewrite_history,
    ],
)
def test_weakened_baseline_then_broken_case_never_passes(
    repo: tuple[Path, str], attack: Callable[[Path], None]
) -> None:
    ws, sha = repo
    attack(ws)
    _break_n1(ws)
    code, log = _action(ws, sha)
    assert code in (1, 2), log
    assert "baseline guard" in log or "_history" in log, log


@pytest.mark.parametrize(
    "edit",
    [
        "gate:\n  metrics: [citation_validity]\n",
        "gate:\n  floors: {}\n",
        "judge:\n  faithfulness_threshold: 0.1\n",
        "http:\n  max_error_rate: 1\n",
        "retrieval:\n  protected_k: 10\n",
    ],
)
def test_settings_that_switch_the_gate_off_fail(repo: tuple[Path, str], edit: str) -> None:
    ws, sha = repo
    if "floors: {}" in edit:  # base gets a floor first, the PR removes it
        (ws / "ragspine-eval.yml").write_text(SETTINGS + "gate:\n  floors:\n    mrr: 0.1\n")
        _git(ws, "commit", "-qam", "floor")
        sha = _git(ws, "rev-parse", "HEAD")
    (ws / "ragspine-eval.yml").write_text(SETTINGS + edit)
    code, log = _action(ws, sha)
    assert code == 1, log
    assert "weakens the gate settings" in log


def test_moving_the_baseline_to_a_lowered_copy_fails(repo: tuple[Path, str]) -> None:
    ws, sha = repo
    doc = _baseline(ws)
    doc[MODE]["metrics"]["numeric_accuracy"] = 0.0
    doc[MODE]["passed"] = {}
    (ws / "other.json").write_text(json.dumps(doc))
    (ws / "ragspine-eval.yml").write_text(SETTINGS.replace("baseline.json", "other.json"))
    _break_n1(ws)
    code, log = _action(ws, sha)
    assert code in (1, 2), log
    assert "lowers the baseline" in log


def test_renaming_the_mode_compares_with_the_old_entry(repo: tuple[Path, str]) -> None:
    ws, sha = repo
    (ws / "ragspine-eval.yml").write_text(SETTINGS.replace("mode: m", "mode: fresh"))
    _break_n1(ws)
    code, log = _action(ws, sha, baseline_missing="create")
    assert code in (1, 2), log


@pytest.mark.parametrize(
    "sha", ["--output=/tmp/pwned", "-p", "HEAD", "main", "abc", "0" * 39, "g" * 40, "a" * 41]
)
def test_a_forged_base_commit_never_reaches_git(repo: tuple[Path, str], sha: str) -> None:
    ws, _ = repo
    code, log = _action(ws, sha)
    assert code == 2, log
    assert not Path("/tmp/pwned").exists()
    assert "commit id" in log


def test_commit_ids() -> None:
    assert is_commit_id("a" * 40) and is_commit_id("0" * 64)
    for bad in ("A" * 40, "-" + "a" * 39, "a" * 40 + "\n", ""):
        assert not is_commit_id(bad)


@pytest.mark.parametrize(
    ("base", "head", "weak"),
    [
        ("", "gate: {metrics: [mrr]}", True),
        ("gate: {metrics: [mrr, hit@3]}", "gate: {metrics: [mrr]}", True),
        ("gate: {metrics: [mrr]}", "gate: {metrics: [mrr, hit@3]}", False),
        ("gate: {metrics: [mrr]}", "", False),
        ("gate: {floors: {mrr: 0.5}}", "gate: {floors: {mrr: 0.4}}", True),
        ("gate: {floors: {mrr: 0.5}}", "gate: {floors: {mrr: 0.6}}", False),
        ("judge: {answer_accuracy_threshold: 0.7}", "", True),
        ("", "judge: {answer_accuracy_threshold: 0.7}", False),
        ("", "extraction: {abs_tol: 0.5}", True),
        ("", "extraction: {tags_as_set: true}", True),
        ("suites: all", "suites: qa", True),
        ("", "fabrication: {period_patterns: ['\\\\d+']}", True),
        ("", "retrieval: {k: [1, 3]}", False),
        ("retrieval: {k: [1, 3, 10]}", "retrieval: {k: [1, 3]}", True),
        ("", "bootstrap: {seed: 4}", False),
    ],
)
def test_settings_comparison_table(base: str, head: str, weak: bool) -> None:
    report = GuardReport()
    compare_settings(parse_config_text(base, "b.yml"), parse_config_text(head, "h.yml"), report)
    assert bool(report.settings_weakened) is weak, report.settings_weakened

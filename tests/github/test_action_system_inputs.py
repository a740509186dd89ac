"""Point 1 through the action: ``outcomes:``/``endpoint:`` imply the system (SPEC §10).

Run as the runner runs the action: every input of action.yml with its default (``system``
and ``mode`` default to empty), on a pull request with the baseline committed at the base.
The bundled reference system must never be scored in place of the user's.
"""

from __future__ import annotations

import json
import socket

import pytest
from test_action_trust import OWNER, REPO, Repo, _assert_one_verdict, run_action
from test_action_trust import repo as repo  # the fixture


def _outcomes_run(repo: Repo, monkeypatch: pytest.MonkeyPatch, **inputs: str) -> dict[str, object]:
    repo.record_baseline_on_main()
    repo.with_ = {"system": ""}  # the action.yml default, as a user who leaves it out
    done = run_action(repo, monkeypatch, **inputs)
    _assert_one_verdict(repo, done, "pass")
    report: dict[str, object] = json.loads((repo.ws / "ragspine-report.json").read_text())
    return report


def test_outcomes_without_system_scores_the_outcomes(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = _outcomes_run(repo, monkeypatch)
    qa = report["qa"]
    assert isinstance(qa, dict)
    assert qa["system"] == "outcomes" and qa["n_cases"] == 6
    baseline = json.loads((repo.ws / "baseline.json").read_text())
    assert "tool" not in baseline and "agent" not in baseline
    body = repo.comments()[0]["body"]
    assert "reference" not in body.lower()


def test_a_regressed_outcomes_file_fails_without_system(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If the reference system were scored, a broken outcomes file would still pass."""
    from test_action_trust import _break_outcome

    repo.record_baseline_on_main()
    _break_outcome(repo.ws)
    repo.with_ = {"system": ""}
    done = run_action(repo, monkeypatch)
    _assert_one_verdict(repo, done, "fail")


def test_endpoint_without_system_calls_the_endpoint(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as probe:  # a port nobody listens on: every case errors
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    repo.record_baseline_on_main()
    repo.with_ = {"system": "", "outcomes": ""}
    done = run_action(
        repo, monkeypatch, endpoint=f"http://127.0.0.1:{port}/answer", args="--retries 0"
    )
    _assert_one_verdict(repo, done, "error")
    assert "reference" not in repo.outputs()["summary"]
    report = json.loads((repo.ws / repo.outputs()["report-path"]).read_text())
    assert report["qa"]["system"] == "http" and report["qa"]["errors"]["count"] == 6
    baseline = json.loads((repo.ws / "baseline.json").read_text())
    assert set(baseline) - {"_schema_version", "_history"} == {"my-rag"}


@pytest.mark.parametrize(
    "inputs",
    [
        {"system": "reference"},  # with outcomes: (a contradiction)
        {"system": "http"},  # with outcomes: and no endpoint
    ],
)
def test_a_contradiction_is_an_error_comment(
    repo: Repo, monkeypatch: pytest.MonkeyPatch, inputs: dict[str, str]
) -> None:
    repo.record_baseline_on_main()
    done = run_action(repo, monkeypatch, **inputs)
    _assert_one_verdict(repo, done, "error")
    assert repo.outputs()["report-path"] == ""
    assert not any("tool" in k for k in json.loads((repo.ws / "baseline.json").read_text()))
    assert repo.github.comments_on(OWNER, REPO, 17)[0]["body"].count("ERROR") >= 1


def test_the_five_minute_path_in_the_docs_works_as_written(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/action.md: copy the workflow, run the one command, commit; the PR is gated."""
    import shlex

    import yaml
    from test_action_trust import ROOT, _break_outcome

    from ragspine_action.cli import main as cli_main

    docs = (ROOT / "docs" / "action.md").read_text()
    path = docs.split("## Five minutes to a gate", 1)[1].split("\n## ", 1)[0]
    workflow = yaml.safe_load(path.split("```yaml\n", 1)[1].split("```", 1)[0])
    [step] = [
        s for s in workflow["jobs"]["ragspine"]["steps"] if "ragspine-eval" in str(s.get("uses"))
    ]
    shell = path.split("**2. Record the baseline", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    command = shell.replace("\\\n", " ").splitlines()[1]
    argv = shlex.split(command)
    assert argv[0] == "ragspine-eval"

    (repo.ws / "eval").mkdir()
    (repo.ws / "golden.jsonl").rename(repo.ws / "eval" / "golden.jsonl")
    (repo.ws / "outcomes.jsonl").rename(repo.ws / "eval" / "outcomes.jsonl")
    monkeypatch.chdir(repo.ws)
    assert cli_main(argv[1:]) == 0  # step 2, on main
    repo.commit_to_base("eval/baseline.json", "eval/golden.jsonl")  # step 3
    repo.with_ = {"system": "", "golden": "", "outcomes": "", "baseline": "", "mode": ""}
    done = run_action(repo, monkeypatch, **step["with"])
    _assert_one_verdict(repo, done, "pass")
    _break_outcome(repo.ws / "eval")
    done = run_action(repo, monkeypatch, **step["with"])
    _assert_one_verdict(repo, done, "fail")

"""End to end through the CLI: ``--judge llm`` against a loopback OpenAI-compatible server.

The server marks claims containing XYZZY unsupported. Checked: the per-case faithfulness
verdicts are exactly those; a second identical run sends no request; the API key is in no
output or file; a server answering 500 to everything ends in exit 2 (never 1); a baseline
recorded with the lexical judge is stale under the LLM judge.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI, Reply

from ragspine_action.cli import main

KEY = "sk-test-9f8e7d6c5b4a39281706-secret"

CASES = [
    # (id, answer, contexts, faithful per the scripted model)
    (
        "leave",
        "Employees may carry over five days of annual leave. Unused days expire in March.",
        ["Employees may carry over five days of annual leave. Unused days expire in March."],
        True,
    ),
    (
        "bonus",
        "Employees may carry over five days of annual leave. The XYZZY bonus is paid monthly.",
        ["Employees may carry over five days of annual leave."],
        False,
    ),
    (
        # A paraphrase the lexical judge cannot see: no shared content word.
        "mfa",
        "Remote staff must use a second factor when they sign in.",
        ["Multi-factor authentication is mandatory for remote access."],
        True,
    ),
    (
        "travel",
        "Hotel costs are reimbursed on receipt. A xyzzy allowance applies abroad.",
        ["Hotel costs are reimbursed on receipt."],
        False,
    ),
]


def _write_inputs(tmp: Path) -> tuple[Path, Path]:
    golden = tmp / "golden.jsonl"
    outcomes = tmp / "outcomes.jsonl"
    golden.write_text(
        "".join(
            json.dumps(
                {
                    "id": case_id,
                    "question": f"What does the policy say ({case_id})?",
                    "case_type": "narrative",
                    "expected": {"narrative_doc": "HR_Policy.md"},
                }
            )
            + "\n"
            for case_id, _, _, _ in CASES
        ),
        encoding="utf-8",
    )
    outcomes.write_text(
        "".join(
            json.dumps({"id": case_id, "answer": answer, "contexts": contexts}) + "\n"
            for case_id, answer, contexts, _ in CASES
        ),
        encoding="utf-8",
    )
    return golden, outcomes


def _argv(tmp: Path, url: str, *extra: str) -> list[str]:
    golden, outcomes = _write_inputs(tmp)
    return [
        "--no-config",
        "--golden",
        str(golden),
        "--outcomes",
        str(outcomes),
        "--mode",
        "mine",
        "--judge",
        "llm",
        "--judge-url",
        url,
        "--judge-model",
        "judge-model-1",
        "--report",
        str(tmp / "report.json"),
        *extra,
    ]


def _faithfulness(report_path: Path) -> dict[str, bool]:
    report = json.loads(report_path.read_text(encoding="utf-8"))
    return {c["id"]: c["gates"]["faithfulness"] for c in report["qa"]["cases"]}


@pytest.fixture
def key_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.chdir(tmp_path)  # the default cache lands here
    return tmp_path


def _every_file(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()]


def test_verdicts_cache_and_key(key_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tmp = key_env
    with FakeOpenAI(unsupported_phrase="XYZZY") as server:
        argv = _argv(tmp, server.url, "--no-baseline")
        assert main(argv) in (0, 1)  # no baseline: the verdicts are the point here
        first = capsys.readouterr()
        verdicts = _faithfulness(tmp / "report.json")
        assert verdicts == {case_id: ok for case_id, _, _, ok in CASES}
        sent = server.count
        # one request per claim: 2 + 2 + 1 + 2 claims
        assert sent == 7
        assert all(a == f"Bearer {KEY}" for a in server.auth)
        body = server.requests[0]
        assert body["temperature"] == 0
        assert body["response_format"] == {"type": "json_object"}
        assert body["model"] == "judge-model-1"
        assert server.paths == ["/v1/chat/completions"] * sent
        report = json.loads((tmp / "report.json").read_text(encoding="utf-8"))
        judge = report["qa"]["judge"]
        assert judge["kind"] == "llm" and judge["model"] == "judge-model-1"
        assert judge["requests"] == 7 and judge["cache_hits"] == 0
        assert judge["total_tokens"] == 7 * 57 and judge["prompt_tokens"] == 7 * 50
        assert "7 requests, 0 cache hits, 399 tokens" in first.out

        # The same run again: every verdict from the cache, no request.
        main(argv)
        second = capsys.readouterr()
        assert server.count == sent
        assert _faithfulness(tmp / "report.json") == verdicts
        again = json.loads((tmp / "report.json").read_text(encoding="utf-8"))["qa"]["judge"]
        assert again["requests"] == 0 and again["cache_hits"] == 7
        assert (tmp / ".ragspine-judge-cache.sqlite").is_file()

    # The key is in no output and no file (report, cache, inputs).
    for text in (first.out, first.err, second.out, second.err):
        assert KEY not in text
    files = _every_file(tmp)
    assert len(files) >= 4
    for path in files:
        assert KEY.encode() not in path.read_bytes(), path


def test_failing_faithfulness_is_a_regression_not_an_error(key_env: Path) -> None:
    """With a baseline recorded by the same judge, a new unsupported claim fails (exit 1)."""
    tmp = key_env
    with FakeOpenAI(unsupported_phrase="NO-SUCH-PHRASE") as server:
        argv = _argv(tmp, server.url, "--baseline", str(tmp / "baseline.json"))
        assert main(argv) == 0  # created, every claim supported
        entry = json.loads((tmp / "baseline.json").read_text())["mine"]
        assert entry["judge"] == {"kind": "llm", "model": "judge-model-1", "prompt_version": "1"}
    with FakeOpenAI(unsupported_phrase="XYZZY") as server:
        cache = tmp / "other-cache.sqlite"
        argv = _argv(
            tmp, server.url, "--baseline", str(tmp / "baseline.json"), "--judge-cache", str(cache)
        )
        assert main(argv) == 1


def test_server_500_everywhere_is_exit_2(key_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tmp = key_env

    def broken(body: dict[str, Any], n: int) -> Reply:
        # A server that echoes the credentials it got: the message must not carry them.
        return Reply(500, {"error": f"internal error for key {KEY}"})

    with FakeOpenAI(script=broken) as server:
        argv = _argv(tmp, server.url, "--baseline", str(tmp / "baseline.json"))
        code = main(argv)
        out = capsys.readouterr()
        assert server.count > 7  # retried
    assert code == 2
    report = json.loads((tmp / "report.json").read_text(encoding="utf-8"))
    assert report["verdict"] == "error"
    assert report["qa"]["judge"]["errors"] == 4
    assert not (tmp / "baseline.json").exists()  # an outage records nothing
    assert "judge errors on 4 of 4" in out.err
    assert "HTTP 500" in out.err
    for text in (out.out, out.err, (tmp / "report.json").read_text()):
        assert KEY not in text


def test_lexical_baseline_is_stale_under_llm_judge(
    key_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tmp = key_env
    golden, outcomes = _write_inputs(tmp)
    baseline = tmp / "baseline.json"
    lexical = [
        "--no-config",
        "--golden",
        str(golden),
        "--outcomes",
        str(outcomes),
        "--mode",
        "mine",
        "--baseline",
        str(baseline),
    ]
    assert main(lexical) == 0
    assert json.loads(baseline.read_text())["mine"]["judge"] == {"kind": "lexical"}
    before = baseline.read_bytes()
    capsys.readouterr()
    with FakeOpenAI() as server:
        code = main(_argv(tmp, server.url, "--baseline", str(baseline)))
    out = capsys.readouterr()
    assert code == 2
    assert "stale" in out.err and "lexical" in out.err and "judge-model-1" in out.err
    assert "--update-baseline" in out.err and "--judge llm" in out.err
    assert baseline.read_bytes() == before
    report = json.loads((tmp / "report.json").read_text(encoding="utf-8"))
    assert report["baseline"]["status"] == "stale"

    # A baseline written before judges were recorded (no "judge") counts as lexical.
    data = json.loads(before)
    del data["mine"]["judge"]
    baseline.write_text(json.dumps(data))
    with FakeOpenAI() as server:
        assert main(_argv(tmp, server.url, "--baseline", str(baseline))) == 2
    assert main(lexical) == 0  # and the lexical judge still compares with it


def test_cache_only_replays_without_network(key_env: Path) -> None:
    tmp = key_env
    with FakeOpenAI() as server:
        argv = _argv(tmp, server.url, "--no-baseline")
        main(argv)
        url = server.url
    # The server is gone: a replay needs no network and gives the same verdicts.
    main([*_argv(tmp, url, "--no-baseline"), "--judge-cache-only"])
    assert _faithfulness(tmp / "report.json") == {c[0]: c[3] for c in CASES}
    # A miss (another model) is an error, exit 2.
    argv = _argv(tmp, url, "--no-baseline", "--judge-cache-only")
    argv[argv.index("judge-model-1")] = "another-model"
    assert main(argv) == 2


def test_llm_flags_without_llm_judge_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--no-config", "--judge-model", "x"]) == 2
    assert "--judge-model" in capsys.readouterr().err
    assert main(["--no-config", "--judge-cache", "x.db"]) == 2
    assert "--judge-cache: only used by the LLM judge" in capsys.readouterr().err
    assert main(["--no-config", "--judge", "llm", "--judge-url", "http://127.0.0.1:9/v1"]) == 2
    assert "--judge-model" in capsys.readouterr().err

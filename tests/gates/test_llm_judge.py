"""The LLM judge against a loopback OpenAI-compatible server: protocol, cache, failures."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI, Reply, claim_of, completion, verdict

from ragspine_action.action import _judge_secrets
from ragspine_action.config import RunConfig, action_inputs_from_env
from ragspine_action.errors import ConfigError
from ragspine_action.gates.llm_judge import (
    PROMPT_VERSION,
    LlmJudge,
    LlmJudgeSettings,
    chat_url,
)

CONTEXTS = ["Employees may carry over five days of annual leave. Unused days expire in March."]


def _judge(url: str, tmp: Path, **kw: Any) -> LlmJudge:
    settings = LlmJudgeSettings(base_url=url, model="m-1", cache=str(tmp / "cache.sqlite"), **kw)
    return LlmJudge(settings, env={"OPENAI_API_KEY": "sk-unit-key-123456"})


def test_chat_url_keeps_a_query() -> None:
    assert chat_url("http://h:1/v1/") == "http://h:1/v1/chat/completions"
    assert chat_url("http://h:1/v1/chat/completions/") == "http://h:1/v1/chat/completions"
    assert chat_url("https://x/openai/v1?api-version=2") == (
        "https://x/openai/v1/chat/completions?api-version=2"
    )


def test_one_request_per_claim_and_verdicts(tmp_path: Path) -> None:
    with FakeOpenAI(unsupported_phrase="bonus") as server:
        judge = _judge(server.url, tmp_path)
        try:
            got = judge.judge_claims(
                ["Employees may carry over five days.", "A bonus is paid monthly."], CONTEXTS
            )
        finally:
            judge.close()
        assert [v.supported for v in got] == [True, False]
        assert not any(v.error for v in got)
        assert server.count == 2
        claims = sorted(claim_of(b) for b in server.requests)
        assert claims == ["A bonus is paid monthly.", "Employees may carry over five days."]
        for body in server.requests:
            assert body["temperature"] == 0
            assert body["response_format"] == {"type": "json_object"}
            assert CONTEXTS[0] in body["messages"][-1]["content"]
        assert judge.stats.total_tokens == 2 * 57
        assert judge.stats.prompt_tokens == 100 and judge.stats.completion_tokens == 14


def test_cache_key_covers_model_claim_and_contexts(tmp_path: Path) -> None:
    with FakeOpenAI() as server:
        for model, contexts in (("m-1", CONTEXTS), ("m-1", CONTEXTS), ("m-2", CONTEXTS)):
            judge = LlmJudge(
                LlmJudgeSettings(base_url=server.url, model=model, cache=str(tmp_path / "c.db")),
                env={},
            )
            judge.judge_claims(["Unused days expire in March."], contexts)
            judge.close()
        assert server.count == 2  # the repeat was a hit; another model is a miss
        judge = _judge(server.url, tmp_path, cache_only=False)
        judge.close()
        other = LlmJudge(
            LlmJudgeSettings(base_url=server.url, model="m-1", cache=str(tmp_path / "c.db")),
            env={},
        )
        other.judge_claims(["Unused days expire in March."], ["Something else."])
        other.close()
        assert server.count == 3
    rows = sqlite3.connect(tmp_path / "c.db").execute("SELECT prompt_version FROM verdicts")
    assert {r[0] for r in rows} == {PROMPT_VERSION}


def test_retry_after_is_honoured(tmp_path: Path) -> None:
    def script(body: dict[str, Any], n: int) -> Reply:
        if n == 1:
            return Reply(429, {"error": "slow down"}, {"Retry-After": "1"})
        return Reply(body=verdict(True))

    with FakeOpenAI(script=script) as server:
        judge = _judge(server.url, tmp_path)
        got = judge.judge_claims(["Unused days expire in March."], CONTEXTS)
        judge.close()
    assert got[0].supported and server.count == 2
    assert judge.stats.requests == 2 and judge.stats.wall_s >= 1.0


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (Reply(500, {"error": "boom"}), "HTTP 500"),
        (Reply(body=completion("this is not json")), "not JSON"),
        (Reply(body=completion('{"verdict": "maybe"}')), "'maybe' is not supported"),
        (Reply(body={"choices": []}), "no choices[0].message.content"),
        (Reply(body=b"<html>"), "response is not JSON"),
        (Reply(400, {"error": "bad model"}), "HTTP 400"),
    ],
)
def test_a_bad_answer_is_a_judge_error(tmp_path: Path, reply: Reply, reason: str) -> None:
    with FakeOpenAI(script=lambda body, n: reply) as server:
        judge = _judge(server.url, tmp_path, retries=1)
        got = judge.judge_claims(["Unused days expire in March."], CONTEXTS)
        judge.close()
    assert got[0].error and not got[0].supported
    assert reason in (got[0].reason or "")
    assert got[0].to_json()["verdict"] == "error"
    assert judge.stats.failed_checks == 1 and judge.stats.error_rate == 1.0
    retried = reply.status >= 500
    assert server.count == (2 if retried else 1)
    # An error is never cached: the next run asks again.
    assert sqlite3.connect(tmp_path / "cache.sqlite").execute(
        "SELECT COUNT(*) FROM verdicts"
    ).fetchone() == (0,)


def test_a_timeout_is_a_judge_error(tmp_path: Path) -> None:
    with FakeOpenAI(script=lambda body, n: Reply(body=verdict(True), delay_s=1.5)) as server:
        judge = _judge(server.url, tmp_path, retries=0, timeout_s=0.3)
        got = judge.judge_claims(["Unused days expire in March."], CONTEXTS)
        judge.close()
    assert got[0].error and "timeout" in (got[0].reason or "")
    assert server.count == 1


def test_numbers_and_negation_veto_a_supported(tmp_path: Path) -> None:
    with FakeOpenAI(unsupported_phrase="never-said") as server:
        judge = _judge(server.url, tmp_path)
        got = judge.judge_claims(
            [
                "Staff can roll leave into the next year.",  # a paraphrase: no veto
                "Employees may carry over 7 days of annual leave.",
                "Unused days do not expire in March.",
                "Employees may carry over five days of annual leave.",
            ],
            CONTEXTS,
        )
        judge.close()
        no_veto = _judge(server.url, tmp_path / "other", veto=False)
        plain = no_veto.judge_claims(["Employees may carry over 7 days of annual leave."], CONTEXTS)
        no_veto.close()
    assert [v.supported for v in got] == [True, False, False, True]
    assert "lexical veto" in (got[1].reason or "") and "7" in (got[1].reason or "")
    assert "lexical veto" in (got[2].reason or "")
    assert plain[0].supported


def test_answer_accuracy_asks_per_reference_sentence(tmp_path: Path) -> None:
    reference = "Leave carries over for five days. The bonus is paid in March."
    with FakeOpenAI(unsupported_phrase="bonus") as server:
        judge = _judge(server.url, tmp_path)
        got = judge.judge_reference(reference, "You can carry over five days.", 0.6)
        judge.close()
        assert server.count == 2
        text = server.requests[0]["messages"][-1]["content"]
        assert reference in text and "You can carry over five days." in text
    assert got.score == 0.5 and not got.passed
    assert [v.supported for v in got.claims] == [True, False]


@pytest.mark.parametrize(
    ("reference", "answer", "passed"),
    [
        # An omitted clause with numbers of its own is an omission, not a contradiction.
        (
            "Employees accrue 25 days of annual leave a year, up from 20 days in 2023.",
            "Employees accrue 25 days of annual leave a year.",
            True,
        ),
        ("员工每年享有25天年假，较2023年的20天有所增加。", "员工每年享有25天年假。", True),
        # The clause the answer does state, with another number or polarity, is vetoed.
        (
            "Employees accrue 25 days of annual leave a year, up from 20 days in 2023.",
            "Employees accrue 30 days of annual leave a year.",
            False,
        ),
        ("员工每年享有25天年假，较2023年的20天有所增加。", "员工每年享有30天年假。", False),
        (
            "Unused leave expires on 31 March, and it cannot be paid out.",
            "Unused leave does not expire on 31 March.",
            False,
        ),
    ],
)
def test_answer_accuracy_veto_is_contradiction_only(
    tmp_path: Path, reference: str, answer: str, passed: bool
) -> None:
    # The model finds every reference sentence stated: only the veto can fail the case.
    with FakeOpenAI() as server:
        judge = _judge(server.url, tmp_path)
        got = judge.judge_reference(reference, answer, 0.6)
        judge.close()
    assert got.passed is passed
    if not passed:
        assert "lexical veto" in (got.claims[0].reason or "")


def test_cache_only_misses_are_errors_and_need_no_server(tmp_path: Path) -> None:
    with FakeOpenAI() as server:
        judge = _judge(server.url, tmp_path)
        judge.judge_claims(["Unused days expire in March."], CONTEXTS)
        judge.close()
    replay = _judge("http://127.0.0.1:9/v1", tmp_path, cache_only=True)
    got = replay.judge_claims(["Unused days expire in March.", "Something new."], CONTEXTS)
    replay.close()
    assert got[0].supported and not got[0].error
    assert got[1].error and "not in the judge cache" in (got[1].reason or "")
    assert replay.stats.requests == 0 and replay.stats.cache_hits == 1
    with pytest.raises(ConfigError, match="does not exist"):
        _judge("http://127.0.0.1:9/v1", tmp_path / "none", cache_only=True)


def test_the_key_travels_only_in_the_header(tmp_path: Path) -> None:
    with FakeOpenAI(script=lambda b, n: Reply(401, {"error": "bad key sk-unit-key-123456"})) as s:
        judge = _judge(s.url, tmp_path)
        got = judge.judge_claims(["Unused days expire in March."], CONTEXTS)
        judge.close()
        assert s.auth == ["Bearer sk-unit-key-123456"]
        assert "sk-unit-key-123456" not in json.dumps(s.requests)
    assert got[0].error and "sk-unit-key-123456" not in (got[0].reason or "")
    assert "[redacted]" in (got[0].reason or "")
    assert b"sk-unit-key-123456" not in (tmp_path / "cache.sqlite").read_bytes()


def test_action_inputs_and_mask() -> None:
    inputs = action_inputs_from_env(
        {
            "INPUT_JUDGE": "llm",
            "INPUT_JUDGE-URL": "http://127.0.0.1:1/v1",
            "INPUT_JUDGE-MODEL": "m",
            "INPUT_JUDGE-CACHE": "judge.sqlite",
            "INPUT_JUDGE-CACHE-ONLY": "true",
        }
    )
    argv = " ".join(inputs.argv)
    assert "--judge llm" in argv and "--judge-url http://127.0.0.1:1/v1" in argv
    assert "--judge-model m" in argv and "--judge-cache judge.sqlite" in argv
    assert "--judge-cache-only" in argv
    config = RunConfig(judge="llm", judge_model="m", judge_api_key_env="MY_KEY")
    assert _judge_secrets(config, {"MY_KEY": "sk-abcdef", "OPENAI_API_KEY": "x"}) == ["sk-abcdef"]
    assert _judge_secrets(RunConfig(), {"OPENAI_API_KEY": "sk-abcdef"}) == []


def test_config_file_judge_section(tmp_path: Path) -> None:
    from ragspine_action.cli import build_parser, config_from_args
    from ragspine_action.config import validate_config

    path = tmp_path / "ragspine-eval.yml"
    path.write_text(
        "judge:\n  kind: llm\n  base_url: http://127.0.0.1:1/v1\n  model: m\n"
        "  api_key_env: MY_KEY\n  cache: judge.db\n  concurrency: 2\n  timeout: 5\n"
        "  retries: 1\n  max_error_rate: 0.25\n  veto: false\n",
        encoding="utf-8",
    )
    config = validate_config(config_from_args(build_parser().parse_args(["--config", str(path)])))
    assert (config.judge, config.judge_url, config.judge_model) == (
        "llm",
        "http://127.0.0.1:1/v1",
        "m",
    )
    assert config.judge_api_key_env == "MY_KEY"
    assert config.judge_cache == str(tmp_path / "judge.db")
    assert (config.judge_concurrency, config.judge_timeout_s, config.judge_retries) == (2, 5, 1)
    assert config.judge_max_error_rate == 0.25 and config.judge_veto is False
    path.write_text("judge:\n  model: m\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"judge\.model: only used by the LLM judge"):
        validate_config(config_from_args(build_parser().parse_args(["--config", str(path)])))
    path.write_text(
        "judge:\n  kind: llm\n  model: m\n  base_url: http://x/v1\n  api_key_env: sk-123\n"
    )
    with pytest.raises(ConfigError, match="not an environment variable name"):
        validate_config(config_from_args(build_parser().parse_args(["--config", str(path)])))

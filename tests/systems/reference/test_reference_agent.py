"""Agent mode: the tool-use loop, and the orchestrator's hard rules against a bad provider."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from datetime import date

import pytest

from ragspine_action.gates import detect_fabricated_numbers
from ragspine_action.systems.reference import (
    FinalAnswer,
    KnowledgeBase,
    Orchestrator,
    ScriptedProvider,
    ToolCall,
    ToolResult,
    answer_question,
    build_kb,
)

REF = date(2026, 6, 12)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeBase]:
    base = KnowledgeBase(build_kb(db_dir=tmp_path_factory.mktemp("kb")))
    yield base
    base.close()


def tools_called(run_transcript: Sequence[ToolResult]) -> list[str]:
    return [r.call.name for r in run_transcript]


@pytest.mark.parametrize(
    ("question", "tools"),
    [
        ("香港FY2025收入", ["search_docs", "check_scope", "query_metric"]),
        ("内地FY2025的ROE", ["search_docs", "check_scope", "query_metric"]),
        ("HK ROE", ["search_docs", "check_scope", "reported_periods", "query_metric"]),
        ("股息政策是什么", ["search_docs", "check_scope"]),
        (
            "香港FY2025收入是多少？为什么增长？",
            ["search_docs", "check_scope", "search_docs", "query_metric"],
        ),
        ("香港去年表现如何", ["search_docs", "check_scope"]),
        ("Zenith Life revenue FY2025", ["search_docs", "check_scope"]),
    ],
)
def test_scripted_provider_drives_the_loop(
    kb: KnowledgeBase, question: str, tools: list[str]
) -> None:
    run = Orchestrator(kb, ScriptedProvider()).run_traced(question, REF)
    assert tools_called(run.transcript) == tools
    assert run.violations == ()
    assert run.answer == answer_question(kb, question, REF)


class Guesser:
    """A provider that answers at once with a confident, invented number."""

    def __init__(self, **claims: object) -> None:
        self.claims = claims

    def next_step(
        self, question: str, reference_date: date | None, transcript: Sequence[ToolResult]
    ) -> ToolCall | FinalAnswer:
        text = str(self.claims.pop("text", "It was about 1,234 USD_M."))
        return FinalAnswer(text, **self.claims)  # type: ignore[arg-type]


class Twist(ScriptedProvider):
    """The scripted provider, with its final answer altered by ``change``."""

    def __init__(self, **change: object) -> None:
        self.change = change

    def next_step(
        self, question: str, reference_date: date | None, transcript: Sequence[ToolResult]
    ) -> ToolCall | FinalAnswer:
        step = super().next_step(question, reference_date, transcript)
        return replace(step, **self.change) if isinstance(step, FinalAnswer) else step  # type: ignore[arg-type]


def test_a_guessed_number_for_missing_data_becomes_a_refusal(kb: KnowledgeBase) -> None:
    run = Orchestrator(kb, Guesser(value=1234.0, unit="PCT")).run_traced("内地FY2025的ROE", REF)
    assert "ungrounded_value" in run.violations
    assert run.answer.refused and run.answer.value is None
    assert detect_fabricated_numbers(run.answer.text) == []


def test_a_guess_for_an_unclarified_question_is_asked_back(kb: KnowledgeBase) -> None:
    run = Orchestrator(kb, Guesser(value=851.0, unit="USD_M")).run_traced("香港去年表现如何", REF)
    assert "answered_unclarified" in run.violations
    assert run.answer.clarification == "ask_first" and run.answer.value is None


def test_a_right_number_without_looking_it_up_is_not_trusted(kb: KnowledgeBase) -> None:
    run = Orchestrator(kb, Guesser(value=1702.0, unit="USD_M")).run_traced("香港FY2025收入", REF)
    assert "ungrounded_value" in run.violations  # no tool call backs it
    assert run.answer.value == 1702.0 and run.answer.source is not None  # the pipeline's, cited


def test_an_out_of_scope_answer_is_refused(kb: KnowledgeBase) -> None:
    run = Orchestrator(kb, Guesser(text="Zenith Life grew strongly.")).run_traced(
        "Zenith Life revenue FY2025", REF
    )
    assert run.violations == ("answered_out_of_scope",)
    assert run.answer.refused


def test_numbers_in_a_refusal_are_removed(kb: KnowledgeBase) -> None:
    provider = Twist(text="没有内地ROE数据，估计约为 9.5%。")
    run = Orchestrator(kb, provider).run_traced("内地FY2025的ROE", REF)
    assert run.violations == ("number_in_refusal",)
    assert detect_fabricated_numbers(run.answer.text) == [] and run.answer.refused


def test_a_complete_question_is_not_asked_back(kb: KnowledgeBase) -> None:
    run = Orchestrator(kb, Twist(clarification="ask_first")).run_traced("香港FY2025收入", REF)
    assert "asked_back_complete_question" in run.violations
    assert run.answer.clarification == "none" and run.answer.value == 1702.0


def test_assumptions_must_be_declared(kb: KnowledgeBase) -> None:
    run = Orchestrator(kb, Twist(clarification="none")).run_traced("ROE是多少", REF)
    assert run.violations == ("assumptions_not_stated",)
    assert run.answer.clarification == "answer_with_assumptions"


def test_a_value_must_be_cited(kb: KnowledgeBase) -> None:
    run = Orchestrator(kb, Twist(text="香港收入为1,702 USD_M。")).run_traced("香港FY2025收入", REF)
    assert run.violations == ("uncited_value",)
    assert "ACME_FY2025_Results.pptx" in run.answer.text


def test_a_provider_that_never_finishes_or_fails_is_replaced(kb: KnowledgeBase) -> None:
    class Looper:
        def next_step(self, *args: object) -> ToolCall:
            return ToolCall("search_docs", {"query": "股息"})

    class Crasher:
        def next_step(self, *args: object) -> ToolCall:
            raise RuntimeError("model endpoint down")

    looped = Orchestrator(kb, Looper(), max_steps=3).run_traced("香港FY2025收入", REF)
    assert looped.violations == ("no_final_answer",) and len(looped.transcript) == 3
    crashed = Orchestrator(kb, Crasher()).run_traced("香港FY2025收入", REF)
    assert crashed.violations == ("provider_error: RuntimeError",)
    assert looped.answer == crashed.answer == answer_question(kb, "香港FY2025收入", REF)


def test_tool_errors_are_fed_back_to_the_provider(kb: KnowledgeBase) -> None:
    class Clumsy(ScriptedProvider):
        def next_step(
            self, question: str, reference_date: date | None, transcript: Sequence[ToolResult]
        ) -> ToolCall | FinalAnswer:
            if not transcript:
                return ToolCall("lookup_everything", {})
            if len(transcript) == 1:
                assert transcript[0].error == "unknown tool 'lookup_everything'"
                return ToolCall("query_metric", {"metric": "ROE"})
            if len(transcript) == 2:
                assert transcript[1].error is not None and "bad arguments" in transcript[1].error
            return super().next_step(question, reference_date, transcript[2:])

    run = Orchestrator(kb, Clumsy()).run_traced("香港FY2025收入", REF)
    assert tools_called(run.transcript)[:2] == ["lookup_everything", "query_metric"]
    assert run.violations == () and run.answer.value == 1702.0


def test_evidence_comes_from_the_tools_not_the_provider(kb: KnowledgeBase) -> None:
    run = Orchestrator(kb, ScriptedProvider()).run_traced("HK ROE FY2024", REF)
    assert run.answer.source is not None
    assert run.answer.source.label() == "ACME_FY2024_Results.pptx · slide=5,table=1,row=5,col=2"
    assert run.answer.contexts[0].startswith(run.answer.source.label())

"""``agent`` mode: a tool-use loop between a provider (the "model") and an orchestrator.

The provider proposes one step at a time — a tool call or the final answer — from the
question and the results of the calls so far. The orchestrator runs the tools and owns the
hard rules, whatever the provider says:

- never answer a question that must be clarified first (and never ask back a complete one);
- refuse rather than guess: a value must come from a ``found`` metric query, an out-of-scope
  or unreported question is refused, and a refusal carries no number but period labels;
- a value is cited with the source the tool returned, not one the provider names.

When the provider breaks a rule (or loops, or fails), the orchestrator records the
violation and answers with the deterministic tool pipeline instead. ``ScriptedProvider``
decides its calls the way a model would, deterministically; a real model can implement
:class:`Provider` later.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Protocol

from ...golden.models import ClarificationMode, SourceRef
from .answers import (
    Answer,
    ask_first_answer,
    fact_answer,
    fact_sentence,
    narrative_answer,
    not_found_answer,
    passage_evidence,
    refusal_answer,
)
from .intent import Intent, Period, parse_intent
from .kb import KnowledgeBase
from .scope import MetricQuery, ScopeDecision, decide_scope
from .tool_mode import RETRIEVAL_K, answer_question
from .tools import MetricResult, SearchResult, query_metric, search_docs

__all__ = [
    "MAX_STEPS",
    "AgentRun",
    "FinalAnswer",
    "Orchestrator",
    "Provider",
    "ScriptedProvider",
    "ToolCall",
    "ToolResult",
]

MAX_STEPS = 8
_PERIOD_TOKEN = re.compile(r"FY\d{4}|\d{4}\s*[HQ][1-4]|\d{4}年", re.IGNORECASE)


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ToolResult:
    call: ToolCall
    output: Any = None
    error: str | None = None


@dataclass(frozen=True)
class FinalAnswer:
    """What the provider claims: the orchestrator checks every field against the tools."""

    text: str
    clarification: ClarificationMode = "none"
    refused: bool = False
    value: float | None = None
    unit: str | None = None


class Provider(Protocol):
    """The model side of the loop: one step per call, from the transcript so far."""

    def next_step(
        self, question: str, reference_date: date | None, transcript: Sequence[ToolResult]
    ) -> ToolCall | FinalAnswer: ...


@dataclass(frozen=True)
class AgentRun:
    answer: Answer
    transcript: tuple[ToolResult, ...]
    violations: tuple[str, ...]


@dataclass(frozen=True)
class Analysis:
    """The ``analyse_question`` tool's output."""

    intent: Intent
    decision: ScopeDecision


class Orchestrator:
    """Runs the loop, executes tools, and enforces the hard rules on the final answer."""

    def __init__(self, kb: KnowledgeBase, provider: Provider, max_steps: int = MAX_STEPS) -> None:
        self.kb = kb
        self.provider = provider
        self.max_steps = max_steps

    # -- tools ---------------------------------------------------------------------------

    def _run_tool(self, call: ToolCall, reference_date: date | None) -> ToolResult:
        args = call.arguments
        try:
            if call.name == "analyse_question":
                intent = parse_intent(str(args["question"]), reference_date)
                return ToolResult(call, Analysis(intent, decide_scope(intent, self.kb)))
            if call.name == "query_metric":
                period = args["period"]
                if not isinstance(period, Period):
                    raise ValueError("period must be a Period")
                query = MetricQuery(
                    str(args["metric"]),
                    str(args["entity"]),
                    period,
                    str(args.get("channel", "TOTAL")),
                )
                return ToolResult(call, query_metric(self.kb, query))
            if call.name == "search_docs":
                k = int(args.get("k", RETRIEVAL_K))
                return ToolResult(call, search_docs(self.kb, str(args["query"]), k))
        except (KeyError, TypeError, ValueError) as exc:
            return ToolResult(call, error=f"bad arguments for {call.name}: {exc}")
        return ToolResult(call, error=f"unknown tool {call.name!r}")

    # -- the loop ------------------------------------------------------------------------

    def run(self, question: str, reference_date: date | None) -> Answer:
        return self.run_traced(question, reference_date).answer

    def run_traced(self, question: str, reference_date: date | None) -> AgentRun:
        intent = parse_intent(question, reference_date)
        policy = decide_scope(intent, self.kb)  # the orchestrator's own view, for the rules
        transcript: list[ToolResult] = []
        final: FinalAnswer | None = None
        violations: list[str] = []
        try:
            for _ in range(self.max_steps):
                step = self.provider.next_step(question, reference_date, tuple(transcript))
                if isinstance(step, FinalAnswer):
                    final = step
                    break
                transcript.append(self._run_tool(step, reference_date))
        except Exception as exc:  # a provider failure must not become a guess
            violations.append(f"provider_error: {type(exc).__name__}")
        if final is None and not violations:
            violations.append("no_final_answer")
        answer: Answer | None = None
        if final is not None:
            violations += self._violations(final, intent, policy, transcript)
            if not violations:
                answer = self._assemble(final, intent, transcript)
        if answer is None:
            answer = answer_question(self.kb, question, reference_date)
        return AgentRun(answer, tuple(transcript), tuple(violations))

    # -- the hard rules --------------------------------------------------------------------

    @staticmethod
    def _violations(
        final: FinalAnswer, intent: Intent, policy: ScopeDecision, transcript: list[ToolResult]
    ) -> list[str]:
        found: list[str] = []
        results = [r.output for r in transcript if isinstance(r.output, MetricResult)]
        hits = [r for r in results if r.status == "found"]
        if policy.action == "ask_first" and final.clarification != "ask_first":
            found.append("answered_unclarified")
        if policy.action != "ask_first" and final.clarification == "ask_first":
            found.append("asked_back_complete_question")
        if policy.action == "refuse" and not final.refused:
            found.append("answered_out_of_scope")
        if final.value is not None:
            if final.refused:
                found.append("value_in_refusal")
            elif not any(r.value == final.value and r.unit == final.unit for r in hits):
                found.append("ungrounded_value")
            elif not any(r.fact is not None and r.fact.doc in final.text for r in hits):
                found.append("uncited_value")
        if intent.route == "structured" and policy.action == "query" and not final.refused:
            if not hits:
                found.append("answered_without_a_found_value")
            elif final.value is None:
                found.append("found_value_not_given")
        if final.refused and re.search(r"\d", _PERIOD_TOKEN.sub("", final.text)):
            found.append("number_in_refusal")
        if (
            policy.action == "query"
            and not final.refused
            and final.value is not None
            and final.clarification != policy.clarification
        ):
            found.append("assumptions_not_stated")
        return found

    def _assemble(self, final: FinalAnswer, intent: Intent, transcript: list[ToolResult]) -> Answer:
        """Outcome fields from the tools' evidence; only the text comes from the provider."""
        source: SourceRef | None = None
        value: float | None = None
        unit: str | None = None
        sources: list[SourceRef] = []
        contexts: list[str] = []
        for result in transcript:
            out = result.output
            if isinstance(out, MetricResult) and out.status == "found" and out.fact is not None:
                ref = SourceRef(doc=out.fact.doc, locator=out.fact.locator)
                end = "。" if intent.language == "zh" else "."
                sources.append(ref)
                contexts.append(f"{ref.label()}: {fact_sentence(out, intent.language)}{end}")
                if final.value is not None and out.value == final.value and source is None:
                    source, value, unit = ref, out.value, out.unit
            elif isinstance(out, SearchResult):
                refs, texts = passage_evidence(out.passages)
                sources.extend(refs)
                contexts.extend(texts)
        if final.refused:
            return Answer(final.text, final.clarification, refused=True)
        return Answer(
            final.text,
            final.clarification,
            value=value,
            unit=unit,
            source=source,
            sources=tuple(sources),
            contexts=tuple(contexts),
        )


class ScriptedProvider:
    """A deterministic stand-in for a model: analyse, then query and/or search, then write.

    It writes its final answer with the same templates the tool pipeline uses, so both
    modes agree on every gate; what it decides is which tools to call and in what order.
    """

    def next_step(
        self, question: str, reference_date: date | None, transcript: Sequence[ToolResult]
    ) -> ToolCall | FinalAnswer:
        if not transcript:
            return ToolCall("analyse_question", {"question": question})
        analysis = transcript[0].output
        if not isinstance(analysis, Analysis):
            return FinalAnswer("The question could not be analysed.", refused=True)
        intent, decision = analysis.intent, analysis.decision
        lang = intent.language
        if decision.action == "refuse":
            return _final(refusal_answer(decision, lang))
        if decision.action == "ask_first":
            return _final(ask_first_answer(decision, intent))
        metric = next((r.output for r in transcript if isinstance(r.output, MetricResult)), None)
        search = next((r.output for r in transcript if isinstance(r.output, SearchResult)), None)
        wants_docs = decision.action == "narrative" or intent.route == "composite"
        if decision.action == "query" and metric is None:
            q = decision.query
            assert q is not None
            args = {
                "metric": q.metric,
                "entity": q.entity,
                "period": q.period,
                "channel": q.channel,
            }
            return ToolCall("query_metric", args)
        if wants_docs and search is None:
            return ToolCall("search_docs", {"query": intent.search_text, "k": RETRIEVAL_K})
        narrative = narrative_answer(search, lang) if search is not None else None
        if metric is None or metric.status != "found":
            if narrative is not None and (metric is None or intent.route == "composite"):
                return _final(narrative)
            assert metric is not None
            return _final(not_found_answer(metric, lang))
        return _final(fact_answer(metric, decision, lang, narrative))


def _final(answer: Answer) -> FinalAnswer:
    return FinalAnswer(answer.text, answer.clarification, answer.refused, answer.value, answer.unit)

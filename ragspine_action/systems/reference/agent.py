"""``agent`` mode: a tool-use loop between a provider (the "model") and an orchestrator.

The provider proposes one step at a time — a tool call or the final answer — from the
question and the results of the calls so far. The orchestrator runs the tools and owns the
hard rules, whatever the provider says:

- never answer a question that must be clarified first (and never ask back a complete one);
- refuse rather than guess: a value must come from a ``found`` metric query, an out-of-scope
  or unreported question is refused, and a refusal carries no number but period labels;
- a value is cited with the source the tool returned, not one the provider names.

When the provider breaks a rule (or loops, or fails), the orchestrator records the
violation and answers with the deterministic tool pipeline instead. The tools:
``search_docs``, ``query_metric``, ``reported_periods`` (the periods the fact table
reports) and ``check_scope`` (the hard rules' verdict: refuse or ask back, never a query).
:class:`planner.ScriptedProvider` decides its calls the way a model would, with its own
reading of the question; a real model can implement :class:`Provider` later.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Protocol

from ...golden.models import ClarificationMode, SourceRef
from .answers import Answer, fact_sentence, passage_evidence
from .intent import Intent, Period, parse_intent
from .kb import KnowledgeBase
from .lexicon import METRIC_TERMS
from .scope import MetricQuery, ScopeDecision, decide_scope
from .tool_mode import RETRIEVAL_K, answer_question
from .tools import MetricResult, SearchResult, query_metric, search_docs

__all__ = [
    "MAX_STEPS",
    "AgentRun",
    "FinalAnswer",
    "Orchestrator",
    "Provider",
    "ScopeVerdict",
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
class ScopeVerdict:
    """The ``check_scope`` tool's output: the hard rules' verdict on a question. ``decision``
    is set only when the question must be refused or asked back; it never carries the
    metric query, which the provider works out itself."""

    decision: ScopeDecision | None
    unreported_metric: str | None = None  # the metric asked for, which the KB does not report


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
            if call.name == "check_scope":
                intent = parse_intent(str(args["question"]), reference_date)
                decision = decide_scope(intent, self.kb)
                blocked = decision.action in ("refuse", "ask_first")
                asked = decision.query.metric if decision.query is not None else None
                unreported = asked if asked is not None and asked not in METRIC_TERMS else None
                return ToolResult(call, ScopeVerdict(decision if blocked else None, unreported))
            if call.name == "reported_periods":
                return ToolResult(call, self.kb.reported_periods(str(args["period_type"])))
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
        query = policy.query
        if query is not None and query.metric not in METRIC_TERMS and not final.refused:
            found.append("answered_unreported_metric")
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
        metrics = [r.output for r in transcript if isinstance(r.output, MetricResult)]
        searches = [r.output for r in transcript if isinstance(r.output, SearchResult)]
        for out in metrics:
            if out.status == "found" and out.fact is not None:
                ref = SourceRef(doc=out.fact.doc, locator=out.fact.locator)
                if out.fact.doc not in final.text:
                    continue  # looked up, not used: not evidence of this answer
                end = "。" if intent.language == "zh" else "."
                sources.append(ref)
                contexts.append(f"{ref.label()}: {fact_sentence(out, intent.language)}{end}")
                if final.value is not None and out.value == final.value and source is None:
                    source, value, unit = ref, out.value, out.unit
        for search in reversed(searches):  # the latest search whose top passage is cited
            if search.passages and search.passages[0].label() in final.text:
                refs, texts = passage_evidence(search.passages)
                sources.extend(refs)
                contexts.extend(texts)
                break
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

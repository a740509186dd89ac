"""Scope clarification: decide, before any lookup, whether a question can be answered.

The outcomes are: answer as asked (``none``), answer under stated default assumptions
(``answer_with_assumptions``: group entity, latest reported period), ask back first
(``ask_first``: no metric named, or several where one is needed), or refuse (an entity out
of scope such as a competitor, a metric the KB does not know, a period still in the future).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...golden.models import ClarificationMode
from .intent import Intent, Period, PeriodMention
from .kb import KnowledgeBase

__all__ = ["MetricQuery", "ScopeDecision", "decide_scope"]

Action = Literal["query", "narrative", "ask_first", "refuse"]
DEFAULT_ENTITY = "ACME_GROUP"


@dataclass(frozen=True)
class MetricQuery:
    """One fact to look up; ``metric`` / ``channel`` may be terms the KB does not know."""

    metric: str
    entity: str
    period: Period
    channel: str = "TOTAL"


@dataclass(frozen=True)
class ScopeDecision:
    action: Action
    clarification: ClarificationMode
    query: MetricQuery | None = None
    assumptions: tuple[str, ...] = ()  # "entity", "period"
    reason: str = ""  # why we ask or refuse: a code the answer templates understand
    detail: tuple[str, ...] = ()  # the terms involved (never invented numbers)


def _latest(kb: KnowledgeBase, kind: str, intent: Intent) -> Period | None:
    """The most recent reported period of this kind that had ended by the reference date."""
    candidates: list[Period] = []
    for label in kb.reported_periods("FY" if kind == "FY" else "HY" if kind[0] == "H" else "Q"):
        year = int(label[2:6]) if label.startswith("FY") else int(label[:4])
        period = Period(year, "FY" if label.startswith("FY") else label[4:])
        if period.kind == kind and period.end <= intent.reference_date:
            candidates.append(period)
    return max(candidates) if candidates else None


def _resolve_period(
    kb: KnowledgeBase, mention: PeriodMention | None, intent: Intent
) -> tuple[Period | None, bool]:
    """(period, assumed): a missing period or year defaults to the latest reported one."""
    if mention is None:
        return _latest(kb, "FY", intent), True
    exact = mention.resolve()
    if exact is not None:
        return exact, False
    return _latest(kb, mention.kind, intent), not mention.latest


def decide_scope(intent: Intent, kb: KnowledgeBase) -> ScopeDecision:
    """What to do with the question; pure apart from reading which periods are reported."""
    if intent.route == "out_of_scope" and intent.opinion and not intent.competitors:
        return ScopeDecision("refuse", "none", reason="opinion")
    if intent.route == "out_of_scope":
        return ScopeDecision("refuse", "none", reason="competitor", detail=intent.competitors)
    if intent.route == "narrative":
        return ScopeDecision("narrative", "none")
    metric_terms = intent.metrics + intent.unsupported_metrics
    if not metric_terms:
        return ScopeDecision(
            "ask_first", "ask_first", reason="no_metric", detail=intent.ambiguous_terms
        )
    if len(metric_terms) > 1:
        return ScopeDecision("ask_first", "ask_first", reason="many_metrics", detail=metric_terms)
    if len(intent.entities) > 1:
        return ScopeDecision(
            "ask_first", "ask_first", reason="many_entities", detail=intent.entities
        )
    if len(intent.periods) > 1:
        labels = tuple(p.text for p in intent.periods)
        return ScopeDecision("ask_first", "ask_first", reason="many_periods", detail=labels)
    channels = intent.channels + intent.unknown_channels
    if len(channels) > 1:
        return ScopeDecision("ask_first", "ask_first", reason="many_channels", detail=channels)

    mention = intent.periods[0] if intent.periods else None
    explicit = mention.resolve() if mention is not None else None
    if explicit is not None and explicit.end > intent.reference_date:
        return ScopeDecision("refuse", "none", reason="future_period", detail=(explicit.label,))
    period, period_assumed = _resolve_period(kb, mention, intent)
    if period is None:
        return ScopeDecision("refuse", "none", reason="no_reported_period")
    entity_assumed = not intent.entities
    entity = intent.entities[0] if intent.entities else DEFAULT_ENTITY
    channel = channels[0] if channels else "TOTAL"
    assumptions = tuple(
        name for name, flag in (("entity", entity_assumed), ("period", period_assumed)) if flag
    )
    return ScopeDecision(
        "query",
        "answer_with_assumptions" if assumptions else "none",
        MetricQuery(metric_terms[0], entity, period, channel),
        assumptions,
    )

"""``tool`` mode: question → intent → scope → metric query or retrieval → answer. No model."""

from __future__ import annotations

from collections import Counter
from datetime import date

from .answers import (
    Answer,
    ask_first_answer,
    fact_answer,
    narrative_answer,
    not_found_answer,
    refusal_answer,
)
from .intent import parse_intent
from .kb import KnowledgeBase
from .scope import decide_scope
from .tools import query_metric, search_docs

__all__ = ["RETRIEVAL_K", "answer_question"]

RETRIEVAL_K = 5


def answer_question(
    kb: KnowledgeBase,
    question: str,
    reference_date: date | None,
    calls: Counter[str] | None = None,
) -> Answer:
    """The deterministic pipeline; each branch ends in exactly one answer. ``calls`` counts
    the tool calls made (``query_metric``, ``search_docs``) for the run's system stats."""
    tally: Counter[str] = calls if calls is not None else Counter()
    intent = parse_intent(question, reference_date)
    decision = decide_scope(intent, kb)
    lang = intent.language
    if decision.action == "refuse":
        return refusal_answer(decision, lang)
    if decision.action == "ask_first":
        return ask_first_answer(decision, lang)
    if decision.action == "narrative":
        tally["search_docs"] += 1
        return narrative_answer(search_docs(kb, intent.search_text, RETRIEVAL_K), lang)
    assert decision.query is not None
    tally["query_metric"] += 1
    result = query_metric(kb, decision.query)
    if intent.route == "composite":
        tally["search_docs"] += 1
        narrative = narrative_answer(search_docs(kb, intent.search_text, RETRIEVAL_K), lang)
        if result.status != "found":
            # "why is there no CN ROE?": the documents answer it, the fact table cannot.
            return narrative
        return fact_answer(result, decision, lang, narrative)
    if result.status != "found":
        return not_found_answer(result, lang)
    return fact_answer(result, decision, lang)

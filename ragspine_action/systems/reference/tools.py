"""The two tools both modes use: a metric query over the fact table and document search.

The metric query normalises every money amount to ``USD_M`` (decks report in USD_BN,
USD_M or USD_K), which is where the 818 vs 8,180 magnitude trap is defused.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from .kb import Fact, KnowledgeBase, Passage
from .lexicon import CHANNEL_TERMS, METRIC_TERMS
from .ranking import WeightedConcept
from .relevance import covers, topic_terms
from .scope import MetricQuery
from .text import to_simplified

__all__ = ["MetricResult", "SearchResult", "normalise_unit", "query_metric", "search_docs"]

Status = Literal["found", "not_found", "unrecognised"]
_TO_USD_M = {"USD_BN": Decimal(1000), "USD_M": Decimal(1), "USD_K": Decimal("0.001")}


@dataclass(frozen=True)
class MetricResult:
    status: Status
    query: MetricQuery
    fact: Fact | None = None
    value: float | None = None
    unit: str | None = None
    reason: str = ""  # not_found: metric_missing | period_missing | channel_missing | combination


def normalise_unit(value: Decimal, unit: str) -> tuple[Decimal, str]:
    """Money to USD_M, exactly (Decimal), so 8.18 USD_BN is 8,180 USD_M and not 8.18."""
    factor = _TO_USD_M.get(unit)
    if factor is None:
        return value, unit
    return (value * factor).normalize(), "USD_M"


def query_metric(kb: KnowledgeBase, query: MetricQuery) -> MetricResult:
    """Look one fact up; the status says whether it exists, and if not, what is missing."""
    if query.metric not in METRIC_TERMS:
        return MetricResult("unrecognised", query, reason="metric_unknown")
    fact = kb.lookup(query.metric, query.entity, query.period.label, query.channel)
    if fact is not None:
        value, unit = normalise_unit(fact.value, fact.unit)
        return MetricResult("found", query, fact, float(value), unit)
    if not kb.has_metric(query.metric, query.entity):
        reason = "metric_missing"
    elif query.channel not in CHANNEL_TERMS or query.channel not in kb.channels(query.metric):
        reason = "channel_missing"
    elif query.period.label not in kb.reported_periods(query.period.period_type):
        reason = "period_missing"
    else:
        reason = "combination"
    return MetricResult("not_found", query, reason=reason)


@dataclass(frozen=True)
class SearchResult:
    """Ranked passages, the query as expanded by the glossary, and the query's weighted
    concepts (used to pick the answer's sentences)."""

    query: str
    expanded: str
    passages: tuple[Passage, ...]
    concepts: tuple[WeightedConcept, ...] = ()


def search_docs(kb: KnowledgeBase, text: str, k: int = 5) -> SearchResult:
    """Narrative retrieval: the k best passages, the best-ranked one that covers the
    question's topic terms first (:mod:`relevance`), or none when none of them does: out
    of the KB's scope."""
    text = to_simplified(text)  # the documents are written in simplified characters
    passages = tuple(kb.search(text, k))
    terms = topic_terms(text)
    # the best-ranked passage that covers the question is answered from; none: refused
    first = next((i for i, p in enumerate(passages) if covers(kb, terms, p, text)), None)
    if first is None:
        passages = ()
    elif first:
        passages = (passages[first], *passages[:first], *passages[first + 1 :])
    return SearchResult(text, kb.expand(text), passages, kb.concept_weights(text))

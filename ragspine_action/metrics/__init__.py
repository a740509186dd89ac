"""Retrieval metrics (trec_eval definitions), TREC file formats and failure attribution."""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .attribution import (
    ATTRIBUTIONS,
    NEXT_STEPS,
    Attribution,
    attribute,
    count_attributions,
    next_step,
)
from .retrieval import (
    DEFAULT_KS,
    DEFAULT_PROTECTED_K,
    CaseRetrieval,
    RetrievalMiss,
    RetrievalSummary,
    aggregate_retrieval,
    case_retrieval,
    dedupe,
    first_relevant_rank,
    hit_at,
    metric_names,
    ndcg_at,
    precision_at,
    recall_at,
    reciprocal_rank,
    score_retrieval,
)

if TYPE_CHECKING:
    from .trec import (
        Qrels,
        TrecConversion,
        TrecRun,
        load_qrels,
        load_run,
        rank_by_score,
        trec_to_golden,
    )

# The TREC readers (and the golden and outcome models they build) on first use (PEP 562):
# reading a report (``render``) needs the retrieval metrics' names, not TREC files.
_TREC = frozenset(
    (
        "Qrels",
        "TrecConversion",
        "TrecRun",
        "load_qrels",
        "load_run",
        "rank_by_score",
        "trec_to_golden",
    )
)


def __getattr__(name: str) -> Any:
    if name not in _TREC:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(".trec", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "ATTRIBUTIONS",
    "DEFAULT_KS",
    "DEFAULT_PROTECTED_K",
    "NEXT_STEPS",
    "Attribution",
    "CaseRetrieval",
    "Qrels",
    "RetrievalMiss",
    "RetrievalSummary",
    "TrecConversion",
    "TrecRun",
    "aggregate_retrieval",
    "attribute",
    "case_retrieval",
    "count_attributions",
    "dedupe",
    "first_relevant_rank",
    "hit_at",
    "load_qrels",
    "load_run",
    "metric_names",
    "ndcg_at",
    "next_step",
    "precision_at",
    "rank_by_score",
    "recall_at",
    "reciprocal_rank",
    "score_retrieval",
    "trec_to_golden",
]

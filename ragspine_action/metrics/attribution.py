"""Failure attribution: did a failed case break at retrieval or at generation?

A failed case whose outcome carries an error is an ``error``. Otherwise, when no relevant
doc is ranked within the protected k, the answer never had its evidence: ``retrieval``.
When a relevant doc was there and the answer still failed: ``generation``. A case with no
relevant doc to retrieve (refusal, clarification) can only fail at ``generation``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, get_args

__all__ = [
    "ATTRIBUTIONS",
    "NEXT_STEPS",
    "Attribution",
    "attribute",
    "count_attributions",
    "next_step",
]

Attribution = Literal["retrieval", "generation", "error"]
ATTRIBUTIONS: tuple[Attribution, ...] = get_args(Attribution)

NEXT_STEPS: dict[Attribution, str] = {
    "retrieval": (
        "The relevant document was not retrieved within the protected k: improve chunking, "
        "retrieval (query rewriting, hybrid search, more candidates) or embeddings."
    ),
    "generation": (
        "The relevant document was retrieved but the answer failed: improve prompting, "
        "reranking (put the relevant passage first) or answer synthesis."
    ),
    "error": (
        "The system raised an error or returned no outcome: fix the pipeline errors first; "
        "they hide the quality of every gate they touch."
    ),
}


def attribute(
    case_failed: bool,
    has_error: bool,
    rank: int | None,
    protected_k: int,
    *,
    has_relevant: bool = True,
) -> Attribution | None:
    """Where a case broke, or None when it passed.

    ``rank`` is the rank of the first relevant doc in the outcome's sources (None when
    absent). ``has_relevant=False`` marks a case with no relevant doc at all.
    """
    if protected_k < 1:
        raise ValueError(f"protected_k must be >= 1, got {protected_k}")
    if has_error:
        return "error"
    if not case_failed:
        return None
    if not has_relevant:
        return "generation"
    if rank is None or rank > protected_k:
        return "retrieval"
    return "generation"


def count_attributions(values: Iterable[Attribution | None]) -> dict[Attribution, int]:
    """Count per attribution (all three keys present, zero when none); None is skipped."""
    counts: dict[Attribution, int] = dict.fromkeys(ATTRIBUTIONS, 0)
    for value in values:
        if value is not None:
            counts[value] += 1
    return counts


def next_step(attribution: Attribution) -> str:
    """The advice the report prints next to a failure count."""
    return NEXT_STEPS[attribution]

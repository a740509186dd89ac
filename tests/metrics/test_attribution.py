"""Failure attribution: error, retrieval or generation stage."""

from __future__ import annotations

import pytest

from ragspine_action.metrics.attribution import (
    ATTRIBUTIONS,
    NEXT_STEPS,
    attribute,
    count_attributions,
    next_step,
)


@pytest.mark.parametrize(
    ("failed", "error", "rank", "expected"),
    [
        (False, False, 1, None),
        (False, False, None, None),
        (True, True, 1, "error"),
        (False, True, None, "error"),
        (True, False, None, "retrieval"),
        (True, False, 4, "retrieval"),
        (True, False, 3, "generation"),
        (True, False, 1, "generation"),
    ],
)
def test_attribute(failed: bool, error: bool, rank: int | None, expected: str | None) -> None:
    assert attribute(failed, error, rank, 3) == expected


def test_case_without_relevant_docs_fails_at_generation() -> None:
    assert attribute(True, False, None, 3, has_relevant=False) == "generation"
    assert attribute(True, True, None, 3, has_relevant=False) == "error"


def test_protected_k_must_be_positive() -> None:
    with pytest.raises(ValueError, match="protected_k"):
        attribute(True, False, 1, 0)


def test_counts_and_advice() -> None:
    counts = count_attributions(["retrieval", None, "generation", "retrieval"])
    assert counts == {"retrieval": 2, "generation": 1, "error": 0}
    assert set(NEXT_STEPS) == set(ATTRIBUTIONS)
    assert "chunking" in next_step("retrieval") and "embeddings" in next_step("retrieval")
    assert "prompting" in next_step("generation") and "reranking" in next_step("generation")
    assert "error" in next_step("error")

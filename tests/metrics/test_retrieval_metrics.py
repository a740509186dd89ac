"""Hand-checked retrieval metric values and the aggregator's shape."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine_action.golden import GoldenCase
from ragspine_action.metrics.retrieval import (
    CaseRetrieval,
    aggregate_retrieval,
    case_retrieval,
    checked_case_retrieval,
    dedupe,
    first_relevant_rank,
    hit_at,
    metric_names,
    ndcg_at,
    precision_at,
    ranked_case_retrieval,
    recall_at,
    reciprocal_rank,
    score_retrieval,
)
from ragspine_action.outcomes import Outcome

REL = {"a": 1, "c": 2}


def test_dedupe_keeps_first_occurrence_rank() -> None:
    assert dedupe(["x", "a", "x", "b", "a"]) == ["x", "a", "b"]


def test_hit_and_reciprocal_rank() -> None:
    ranked = ["x", "y", "c", "a"]
    assert first_relevant_rank(ranked, REL) == 3
    assert hit_at(ranked, REL, 2) == 0.0
    assert hit_at(ranked, REL, 3) == 1.0
    assert reciprocal_rank(ranked, REL) == pytest.approx(1 / 3)
    assert reciprocal_rank(["x", "y"], REL) == 0.0


def test_k_larger_than_list() -> None:
    ranked = ["a"]
    assert hit_at(ranked, REL, 10) == 1.0
    assert recall_at(ranked, REL, 10) == 0.5
    # P_k divides by k even when fewer than k docs were retrieved.
    assert precision_at(ranked, REL, 10) == pytest.approx(0.1)
    assert ndcg_at(ranked, REL, 10) == pytest.approx(1 / (2 + 1 / math.log2(3)))


def test_empty_ranking_scores_zero() -> None:
    assert hit_at([], REL, 1) == 0.0
    assert reciprocal_rank([], REL) == 0.0
    assert ndcg_at([], REL, 3) == 0.0
    assert recall_at([], REL, 3) == 0.0
    assert precision_at([], REL, 3) == 0.0


def test_duplicates_do_not_count_twice() -> None:
    ranked = ["x", "c", "c", "c", "a"]
    # After dedup: x, c, a -> c at rank 2, a at rank 3.
    assert first_relevant_rank(ranked, REL) == 2
    assert precision_at(ranked, REL, 3) == pytest.approx(2 / 3)
    assert recall_at(ranked, REL, 2) == 0.5
    result = case_retrieval(ranked, REL, [3])
    assert result.values["precision@3"] == pytest.approx(2 / 3)
    assert result.n_retrieved == 3


def test_graded_ndcg() -> None:
    ranked = ["a", "x", "c"]
    dcg = 1 / math.log2(2) + 2 / math.log2(4)
    ideal = 2 / math.log2(2) + 1 / math.log2(3)
    assert ndcg_at(ranked, REL, 3) == pytest.approx(dcg / ideal)
    # At k=1 the ideal is grade 2 alone.
    assert ndcg_at(ranked, REL, 1) == pytest.approx(1 / 2)
    assert ndcg_at(["c", "a"], REL, 2) == pytest.approx(1.0)


def test_ndcg_ignores_level_and_non_positive_grades() -> None:
    rel = {"a": 1, "b": 3, "z": 0, "n": -1}
    # Level 2 makes 'a' non-relevant for binary measures, but it still gains in nDCG.
    assert hit_at(["a"], rel, 1, relevance_level=2) == 0.0
    assert ndcg_at(["a"], rel, 1) == pytest.approx(1 / 3)
    assert ndcg_at(["z", "n"], rel, 2) == 0.0
    assert ndcg_at(["a"], {"z": 0}, 3) == 0.0


def test_relevance_level_for_binary_measures() -> None:
    rel = {"a": 1, "b": 2, "c": 3}
    ranked = ["a", "b", "c"]
    assert reciprocal_rank(ranked, rel, relevance_level=2) == 0.5
    assert recall_at(ranked, rel, 2, relevance_level=2) == 0.5
    assert precision_at(ranked, rel, 3, relevance_level=3) == pytest.approx(1 / 3)


@pytest.mark.parametrize("k", [0, -1, True, 1.5])
def test_bad_k_rejected(k: object) -> None:
    with pytest.raises(ValueError, match="k must be a positive integer"):
        hit_at(["a"], REL, k)  # type: ignore[arg-type]


def test_bad_relevance_level_rejected() -> None:
    with pytest.raises(ValueError, match="relevance_level"):
        case_retrieval(["a"], REL, relevance_level=0)


def test_case_retrieval_keys_and_values() -> None:
    result = case_retrieval(["x", "a", "c"], REL, [3, 1])
    assert list(result.values) == metric_names([1, 3])
    assert list(result.values) == [
        "hit@1",
        "hit@3",
        "mrr",
        "ndcg@1",
        "ndcg@3",
        "recall@1",
        "recall@3",
        "precision@1",
        "precision@3",
    ]
    assert result.rank == 2
    assert result.values["hit@1"] == 0.0
    assert result.values["hit@3"] == 1.0
    assert result.values["mrr"] == 0.5
    assert result.values["recall@3"] == 1.0
    assert result.values["precision@3"] == pytest.approx(2 / 3)
    assert not result.excluded
    assert result.hit_within(2) and not result.hit_within(1)


def test_no_relevant_docs_is_excluded() -> None:
    result = case_retrieval(["a", "b"], {}, [1, 3])
    assert result.excluded and result.values == {} and result.rank is None
    below_level = case_retrieval(["a"], {"a": 1}, [1], relevance_level=2)
    assert below_level.excluded


def _row(
    case_id: str, ranked: list[str], tags: dict[str, str]
) -> tuple[str, dict[str, str], CaseRetrieval]:
    return case_id, tags, case_retrieval(ranked, {"good": 1}, [1, 3])


def test_aggregate_overall_by_tag_misses_and_excluded() -> None:
    rows = [
        _row("q1", ["good"], {"kind": "direct"}),
        _row("q2", ["x", "good"], {"kind": "direct", "lang": "en"}),
        _row("q3", ["x", "y", "z", "good"], {"kind": "paraphrase"}),
        _row("q4", [], {"kind": "paraphrase"}),
        ("r1", {"kind": "refusal"}, case_retrieval(["x"], {}, [1, 3])),
    ]
    summary = aggregate_retrieval(rows, [1, 3], protected_k=3)
    assert summary.n == 4 and summary.excluded == 1
    assert summary.excluded_ids == ["r1"]
    assert summary.overall["hit@1"] == pytest.approx(0.25)
    assert summary.overall["hit@3"] == pytest.approx(0.5)
    assert summary.overall["mrr"] == pytest.approx((1 + 0.5 + 0.25 + 0) / 4)
    assert summary.by_tag["kind"]["direct"]["n"] == 2
    assert summary.by_tag["kind"]["direct"]["mrr"] == pytest.approx(0.75)
    assert summary.by_tag["kind"]["paraphrase"]["hit@3"] == 0.0
    assert "refusal" not in summary.by_tag["kind"]
    assert summary.by_tag["lang"]["en"]["n"] == 1
    assert [(m.id, m.rank) for m in summary.misses] == [("q3", 4), ("q4", None)]
    as_dict = summary.to_dict()
    assert as_dict["k"] == [1, 3]
    assert as_dict["misses"] == [{"id": "q3", "rank": 4}, {"id": "q4", "rank": None}]
    assert as_dict["by_tag"]["kind"]["direct"]["hit@1"] == 0.5


def test_protected_k_not_in_ks_still_uses_rank() -> None:
    rows = [_row("q", ["x", "good"], {})]
    assert [m.id for m in aggregate_retrieval(rows, [1, 3], protected_k=1).misses] == ["q"]
    assert aggregate_retrieval(rows, [1, 3], protected_k=2).misses == []


def test_aggregate_with_only_excluded_cases_has_empty_overall() -> None:
    summary = aggregate_retrieval([("r", {}, case_retrieval([], {}, [1]))], [1])
    assert summary.n == 0 and summary.excluded == 1 and summary.overall == {}


def test_aggregate_rejects_results_scored_with_other_ks() -> None:
    with pytest.raises(ValueError, match="hit@10"):
        aggregate_retrieval([_row("q", ["good"], {})], [1, 10])


def test_score_retrieval_from_golden_cases_and_outcomes() -> None:
    cases = [
        GoldenCase.model_validate(
            {
                "id": "c1",
                "question": "q?",
                "case_type": "retrieval",
                "expected": {"relevant_docs": {"d2": 2, "d9": 1}},
                "tags": {"kind": "direct"},
            }
        ),
        GoldenCase.model_validate(
            {
                "id": "c2",
                "question": "q?",
                "case_type": "narrative",
                "expected": {"narrative_doc": "story"},
            }
        ),
        GoldenCase.model_validate(
            {"id": "c3", "question": "q?", "case_type": "refusal", "expected": {"refuse": True}}
        ),
    ]
    outcomes = {
        "c1": Outcome.model_validate({"id": "c1", "sources": ["d1", "d2", "d2", "d9"]}),
        "c3": Outcome.model_validate({"id": "c3"}),
    }
    per_case, summary = score_retrieval(cases, outcomes, [1, 3], protected_k=3)
    assert per_case["c1"].rank == 2
    assert per_case["c1"].values["recall@3"] == 1.0
    assert per_case["c2"].rank is None and not per_case["c2"].excluded  # no outcome: a miss
    assert per_case["c3"].excluded
    assert summary.n == 2 and summary.excluded == 1
    assert [m.id for m in summary.misses] == ["c2"]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from("abcdefgh"), max_size=12),
    st.dictionaries(st.sampled_from("abcdefghij"), st.integers(0, 3), max_size=6),
    st.sampled_from([(1,), (1, 3), (1, 3, 10), (2, 5)]),
    st.integers(1, 3),
)
def test_results_kept_per_grade_pattern_equal_the_single_metric_functions(
    ranked: list[str], relevance: dict[str, int], ks: tuple[int, ...], level: int
) -> None:
    """Two rankings with the same grade pattern share a result: it is still every metric's
    own value (the same floats), whichever case filled the pattern first."""
    first = case_retrieval(ranked, relevance, ks, relevance_level=level)
    renamed = {f"x{doc}": grade for doc, grade in relevance.items()}
    again = case_retrieval([f"x{doc}" for doc in ranked], renamed, ks, relevance_level=level)
    assert again == first
    if first.excluded:
        assert first.values == {}
        return
    for k in ks:
        assert first.values[f"hit@{k}"] == hit_at(ranked, relevance, k, relevance_level=level)
        assert first.values[f"ndcg@{k}"] == ndcg_at(ranked, relevance, k)
        assert first.values[f"recall@{k}"] == recall_at(ranked, relevance, k, relevance_level=level)
        assert first.values[f"precision@{k}"] == precision_at(
            ranked, relevance, k, relevance_level=level
        )
    assert first.values["mrr"] == reciprocal_rank(ranked, relevance, relevance_level=level)
    assert first.rank == first_relevant_rank(ranked, relevance, relevance_level=level)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), max_size=8),
    st.dictionaries(st.sampled_from(["a", "c", "e", "f"]), st.integers(0, 3), max_size=4),
)
def test_a_ranking_deduplicated_once_scores_as_the_raw_one(
    ranked: list[str], relevance: dict[str, int]
) -> None:
    """The scorer dedupes a ranking once (for retrieval and citation_validity)."""
    ks = (1, 3, 10)
    assert ranked_case_retrieval(dedupe(ranked), relevance, ks, 1) == checked_case_retrieval(
        ranked, relevance, ks, 1
    )

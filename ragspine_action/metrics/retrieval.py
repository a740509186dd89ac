"""Retrieval metrics per case and aggregated, defined exactly as NIST trec_eval does.

Each metric is a pure function of a ranked doc list and a relevance map
``{doc: grade}``. A doc is *relevant* when its grade is at least ``relevance_level``
(trec_eval's ``-l``, default 1); docs missing from the map are not relevant.

==============  ==============  =====================================================
ours            trec_eval       definition
==============  ==============  =====================================================
``hit@k``       ``success_k``   1 if a relevant doc is ranked within the top k, else 0
``mrr``         ``recip_rank``  1 / rank of the first relevant doc, 0 when none
``ndcg@k``      ``ndcg_cut_k``  DCG@k / ideal DCG@k; gain = grade (grades <= 0 give
                                nothing), discount log2(rank + 1); the ideal ranks
                                every positive grade of the case, whatever the level
``recall@k``    ``recall_k``    relevant docs in the top k / relevant docs of the case
``precision@k`` ``P_k``         relevant docs in the top k / k (even when fewer than k
                                docs were retrieved)
==============  ==============  =====================================================

Like trec_eval, nDCG ignores ``relevance_level``: a doc graded below the level still
counts as gain. Ranked lists are deduplicated by doc, the first occurrence keeping its
rank (trec_eval rejects duplicates instead; ``metrics.trec.load_run`` does too).

Deliberate differences from trec_eval, both required by the product contract:

* A case with no relevant doc (no grade >= ``relevance_level``: refusal or
  clarification cases) is *excluded* from every mean and counted in ``excluded``;
  trec_eval would score such a query 0 on the binary measures and average it in.
* ``relevance_level`` must be >= 1 (trec_eval also accepts ``-l0``, which would make
  grade-0 judgments relevant).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..golden.models import GoldenCase
    from ..outcomes.model import Outcome

__all__ = [
    "DEFAULT_KS",
    "DEFAULT_PROTECTED_K",
    "CaseRetrieval",
    "RetrievalMiss",
    "RetrievalSummary",
    "aggregate_retrieval",
    "case_retrieval",
    "checked_case_retrieval",
    "dedupe",
    "first_relevant_rank",
    "hit_at",
    "metric_names",
    "ndcg_at",
    "normalise_ks",
    "precision_at",
    "ranked_case_retrieval",
    "recall_at",
    "reciprocal_rank",
    "score_retrieval",
]

DEFAULT_KS: tuple[int, ...] = (1, 3, 10)
DEFAULT_PROTECTED_K = 3


def _check_k(k: int) -> None:
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be a positive integer, got {k!r}")


def _check_level(relevance_level: int) -> None:
    if isinstance(relevance_level, bool) or not isinstance(relevance_level, int):
        raise ValueError(f"relevance_level must be an integer, got {relevance_level!r}")
    if relevance_level < 1:
        raise ValueError(f"relevance_level must be >= 1, got {relevance_level}")


def dedupe(ranked_docs: Iterable[str]) -> list[str]:
    """Drop repeated docs; the first occurrence keeps its rank."""
    return list(dict.fromkeys(ranked_docs))


def _is_relevant(doc: str, relevance: Mapping[str, int], level: int) -> bool:
    return relevance.get(doc, 0) >= level


def _relevant_in_top(
    ranked_docs: Sequence[str], relevance: Mapping[str, int], k: int, level: int
) -> int:
    return sum(1 for doc in dedupe(ranked_docs)[:k] if _is_relevant(doc, relevance, level))


def _num_relevant(relevance: Mapping[str, int], level: int) -> int:
    return sum(1 for grade in relevance.values() if grade >= level)


def first_relevant_rank(
    ranked_docs: Sequence[str], relevance: Mapping[str, int], *, relevance_level: int = 1
) -> int | None:
    """1-based rank of the first relevant doc after deduplication, or None."""
    _check_level(relevance_level)
    for rank, doc in enumerate(dedupe(ranked_docs), start=1):
        if _is_relevant(doc, relevance, relevance_level):
            return rank
    return None


def hit_at(
    ranked_docs: Sequence[str], relevance: Mapping[str, int], k: int, *, relevance_level: int = 1
) -> float:
    """trec_eval ``success_k``: 1.0 when a relevant doc is within the top k."""
    _check_k(k)
    rank = first_relevant_rank(ranked_docs, relevance, relevance_level=relevance_level)
    return 1.0 if rank is not None and rank <= k else 0.0


def reciprocal_rank(
    ranked_docs: Sequence[str], relevance: Mapping[str, int], *, relevance_level: int = 1
) -> float:
    """trec_eval ``recip_rank``: 1/rank of the first relevant doc, 0.0 when none is retrieved."""
    rank = first_relevant_rank(ranked_docs, relevance, relevance_level=relevance_level)
    return 0.0 if rank is None else 1.0 / rank


def recall_at(
    ranked_docs: Sequence[str], relevance: Mapping[str, int], k: int, *, relevance_level: int = 1
) -> float:
    """trec_eval ``recall_k``: share of the case's relevant docs found in the top k (0 if none)."""
    _check_k(k)
    _check_level(relevance_level)
    total = _num_relevant(relevance, relevance_level)
    if total == 0:
        return 0.0
    return _relevant_in_top(ranked_docs, relevance, k, relevance_level) / total


def precision_at(
    ranked_docs: Sequence[str], relevance: Mapping[str, int], k: int, *, relevance_level: int = 1
) -> float:
    """trec_eval ``P_k``: relevant docs in the top k divided by k, however many were retrieved."""
    _check_k(k)
    _check_level(relevance_level)
    return _relevant_in_top(ranked_docs, relevance, k, relevance_level) / k


# log2(rank + 1) for rank 1, 2, …: the same floats math.log2 gives, computed once.
_DISCOUNTS: list[float] = [math.log2(i + 2) for i in range(64)]


def _discount(i: int) -> float:
    return _DISCOUNTS[i] if i < len(_DISCOUNTS) else math.log2(i + 2)


def _dcg(gains: Iterable[int]) -> float:
    return math.fsum([g / _discount(i) for i, g in enumerate(gains) if g > 0])


def ndcg_at(ranked_docs: Sequence[str], relevance: Mapping[str, int], k: int) -> float:
    """trec_eval ``ndcg_cut_k``: graded DCG@k over the ideal DCG@k of every positive grade.

    Independent of the relevance level, as in trec_eval. 0.0 when no doc has a positive grade.
    """
    _check_k(k)
    ideal = _dcg(sorted((g for g in relevance.values() if g > 0), reverse=True)[:k])
    if ideal <= 0.0:
        return 0.0
    gains = [relevance.get(doc, 0) for doc in dedupe(ranked_docs)[:k]]
    return _dcg(gains) / ideal


def metric_names(ks: Sequence[int]) -> list[str]:
    """Metric keys in report order: hit@k…, mrr, ndcg@k…, recall@k…, precision@k…."""
    hits, ndcgs, recalls, precisions = _names(tuple(ks))
    return [*hits, "mrr", *ndcgs, *recalls, *precisions]


def normalise_ks(ks: Iterable[int]) -> tuple[int, ...]:
    """The cut-offs in metric order: each checked, sorted, once."""
    out: list[int] = []
    for k in ks:
        _check_k(k)
        if k not in out:
            out.append(k)
    if not out:
        raise ValueError("at least one k is required")
    return tuple(sorted(out))


@dataclass(frozen=True)
class CaseRetrieval:
    """One case's retrieval result.

    ``values`` holds every metric of ``metric_names(ks)``; it is empty when the case is
    ``excluded`` (no relevant doc), so an excluded case never looks like a miss.
    ``rank`` is the rank of the first relevant doc, or None.
    """

    values: dict[str, float]
    rank: int | None
    n_relevant: int
    n_retrieved: int

    @property
    def excluded(self) -> bool:
        return self.n_relevant == 0

    def hit_within(self, k: int) -> bool:
        """Whether a relevant doc is within the top k (False for excluded cases)."""
        return self.rank is not None and self.rank <= k


def case_retrieval(
    ranked_docs: Sequence[str],
    relevance: Mapping[str, int],
    ks: Iterable[int] = DEFAULT_KS,
    *,
    relevance_level: int = 1,
) -> CaseRetrieval:
    """All metrics of one case at each k, on the deduplicated ranking."""
    kk = normalise_ks(ks)
    _check_level(relevance_level)
    return checked_case_retrieval(ranked_docs, relevance, kk, relevance_level)


@functools.lru_cache(maxsize=32)
def _names(kk: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
    """Metric names per family (hit, ndcg, recall, precision), made once per set of ks."""
    return tuple(
        tuple(f"{family}@{k}" for k in kk) for family in ("hit", "ndcg", "recall", "precision")
    )


def checked_case_retrieval(
    ranked_docs: Sequence[str],
    relevance: Mapping[str, int],
    kk: tuple[int, ...],
    relevance_level: int,
) -> CaseRetrieval:
    """``case_retrieval`` for ks already normalised and a level already checked (the
    per-case loop of a million cases checks them once).

    Every value depends only on the grades in ranking order and the case's positive
    grades, and few such patterns exist (one relevant doc at rank 1…10 or none is most
    cases), so results are kept per pattern: the result is shared, never to be mutated.
    """
    return ranked_case_retrieval(dedupe(ranked_docs), relevance, kk, relevance_level)


def ranked_case_retrieval(
    docs: Sequence[str],
    relevance: Mapping[str, int],
    kk: tuple[int, ...],
    relevance_level: int,
) -> CaseRetrieval:
    """``checked_case_retrieval`` for a ranking already deduplicated (``dedupe``): the
    scorer dedupes a case's ranking once for retrieval and citation_validity."""
    get = relevance.get
    grades = [get(doc, 0) for doc in docs]
    key = (
        tuple(grades),
        tuple(sorted([g for g in relevance.values() if g > 0], reverse=True)),
        kk,
        relevance_level,
    )
    known = _BY_PATTERN.get(key)
    if known is None:
        known = _case_retrieval(grades, relevance, kk, relevance_level, len(docs))
        if len(_BY_PATTERN) < _PATTERNS_MAX:
            _BY_PATTERN[key] = known
    return known


# Results by (grades in rank order, positive grades, ks, level): see checked_case_retrieval.
_BY_PATTERN: dict[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int], CaseRetrieval] = {}
_PATTERNS_MAX = 8192


def _case_retrieval(
    grades: list[int],
    relevance: Mapping[str, int],
    kk: tuple[int, ...],
    relevance_level: int,
    n_retrieved: int,
) -> CaseRetrieval:
    n_relevant = _num_relevant(relevance, relevance_level)
    if n_relevant == 0:
        return CaseRetrieval({}, None, 0, n_retrieved)
    # One pass over the ranking; each value is the same float the single-metric functions give.
    found = [g >= relevance_level for g in grades]
    rank = found.index(True) + 1 if True in found else None
    positive = sorted((g for g in relevance.values() if g > 0), reverse=True)
    hits, ndcgs, recalls, precisions = _names(kk)
    values: dict[str, float] = {
        name: 1.0 if rank is not None and rank <= k else 0.0
        for name, k in zip(hits, kk, strict=True)
    }
    values["mrr"] = 0.0 if rank is None else 1.0 / rank
    for name, k in zip(ndcgs, kk, strict=True):
        ideal = _dcg(positive[:k])
        values[name] = 0.0 if ideal <= 0.0 else _dcg(grades[:k]) / ideal
    within = [sum(found[:k]) for k in kk]
    for name, n in zip(recalls, within, strict=True):
        values[name] = n / n_relevant
    for name, n, k in zip(precisions, within, kk, strict=True):
        values[name] = n / k
    return CaseRetrieval(values, rank, n_relevant, n_retrieved)


@dataclass(frozen=True)
class RetrievalMiss:
    """A case with no relevant doc within the protected k; ``rank`` may be beyond it."""

    id: str
    rank: int | None


@dataclass(frozen=True)
class RetrievalSummary:
    """Aggregated retrieval metrics: the report's ``qa.retrieval`` section.

    ``overall`` and every ``by_tag`` entry are means over the included cases; ``overall``
    is empty when no case was included (nothing to gate).
    """

    k: tuple[int, ...]
    protected_k: int
    n: int
    excluded: int
    overall: dict[str, float]
    by_tag: dict[str, dict[str, dict[str, float | int]]]
    misses: list[RetrievalMiss] = field(default_factory=list)
    excluded_ids: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form with the SPEC §8 keys."""
        return {
            "k": list(self.k),
            "protected_k": self.protected_k,
            "n": self.n,
            "excluded": self.excluded,
            "excluded_ids": list(self.excluded_ids),
            "overall": dict(self.overall),
            "by_tag": {
                key: {value: dict(entry) for value, entry in values.items()}
                for key, values in self.by_tag.items()
            },
            "misses": [{"id": m.id, "rank": m.rank} for m in self.misses],
        }


def _means(results: Sequence[CaseRetrieval], names: Sequence[str]) -> dict[str, float]:
    # fsum is exactly rounded, so the mean does not depend on the order of the cases
    # (a merged sharded run gives the same floats as one run).
    values = [r.values for r in results]
    return {name: math.fsum(map(itemgetter(name), values)) / len(values) for name in names}


def aggregate_retrieval(
    cases: Iterable[tuple[str, Mapping[str, str], CaseRetrieval]],
    ks: Iterable[int] = DEFAULT_KS,
    *,
    protected_k: int = DEFAULT_PROTECTED_K,
) -> RetrievalSummary:
    """Mean of every metric over included cases, per tag key and value, plus the misses.

    ``cases`` are ``(case id, tags, CaseRetrieval)`` in report order; each CaseRetrieval
    must have been computed with (at least) these ``ks``. A miss is an included case
    whose first relevant doc is not within ``protected_k``.
    """
    kk = normalise_ks(ks)
    _check_k(protected_k)
    names = metric_names(kk)
    included: list[CaseRetrieval] = []
    groups: dict[str, dict[str, list[CaseRetrieval]]] = {}
    misses: list[RetrievalMiss] = []
    excluded_ids: list[str] = []
    for case_id, tags, result in cases:
        if result.excluded:
            excluded_ids.append(case_id)
            continue
        missing = [name for name in names if name not in result.values]
        if missing:
            raise ValueError(f"case {case_id!r} was scored without {', '.join(missing)}")
        included.append(result)
        for key, value in tags.items():
            groups.setdefault(key, {}).setdefault(value, []).append(result)
        if not result.hit_within(protected_k):
            misses.append(RetrievalMiss(case_id, result.rank))
    overall = _means(included, names) if included else {}
    by_tag: dict[str, dict[str, dict[str, float | int]]] = {}
    for key in sorted(groups):
        by_tag[key] = {}
        for value in sorted(groups[key]):
            members = groups[key][value]
            entry: dict[str, float | int] = {"n": len(members)}
            entry.update(_means(members, names))
            by_tag[key][value] = entry
    return RetrievalSummary(
        k=kk,
        protected_k=protected_k,
        n=len(included),
        excluded=len(excluded_ids),
        overall=overall,
        by_tag=by_tag,
        misses=misses,
        excluded_ids=excluded_ids,
    )


def score_retrieval(
    cases: Iterable[GoldenCase],
    outcomes: Mapping[str, Outcome],
    ks: Iterable[int] = DEFAULT_KS,
    *,
    protected_k: int = DEFAULT_PROTECTED_K,
    relevance_level: int = 1,
) -> tuple[dict[str, CaseRetrieval], RetrievalSummary]:
    """Score golden cases against their outcomes' ranked ``sources``.

    The relevance map is ``GoldenCase.relevance()``; a case without an outcome (or with an
    error outcome and no sources) ranks nothing, so it counts as a miss, never a skip.
    """
    kk = normalise_ks(ks)
    per_case: dict[str, CaseRetrieval] = {}
    rows: list[tuple[str, Mapping[str, str], CaseRetrieval]] = []
    for case in cases:
        outcome = outcomes.get(case.id)
        ranked = outcome.ranked_docs() if outcome is not None else []
        result = case_retrieval(ranked, case.relevance(), kk, relevance_level=relevance_level)
        per_case[case.id] = result
        rows.append((case.id, case.tags, result))
    return per_case, aggregate_retrieval(rows, kk, protected_k=protected_k)

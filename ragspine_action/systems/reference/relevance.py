"""Relevance: does the best passage actually speak to the question, and which passage does?

bm25 (SQLite FTS5) ranks the passages over the bilingual text with glossary expansion; it
always returns *something* for a question sharing one token with the KB ("the weather in
Hong Kong" shares "Hong Kong"). So each of the top-k passages is also scored by its
*coverage*: the share of the question's topic terms (its content tokens, without stop
words and without the names of ACME and its units, which every passage shares) that the
passage contains, directly or through one of the term's glossary expansions. The passage
answered from is the best-covering one (bm25 order breaks ties), and below
:data:`MIN_COVERAGE` the question is refused as outside the KB.

Calibration (tests/systems/reference/test_reference_dev_set.py keeps it honest): on the
bundled golden set and the development set in tests/data/reference_dev, every answerable
narrative question's top passage covers at least 0.17 of its topic terms (Chinese questions
are scored on character bigrams, so a few spurious bigrams lower the share), and every
off-topic question (weather, sports, cooking) covers 0; the threshold sits between at 0.1.
Ranking stays bm25's (coverage is too coarse to reorder passages: it would move the
"营运利润是如何定义的" question off its definition passage).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from . import lexicon as lx
from .kb import KnowledgeBase, Passage
from .text import retrieval_tokens

__all__ = ["MIN_COVERAGE", "coverage", "rank_by_coverage", "topic_terms"]

MIN_COVERAGE = 0.1


@lru_cache(maxsize=1)
def _entity_tokens() -> frozenset[str]:
    names = [t for terms in lx.ENTITY_TERMS.values() for t in terms] + ["ACME"]
    return frozenset(tok for name in names for tok in retrieval_tokens(name))


def topic_terms(question: str) -> list[str]:
    """The question's content tokens minus stop words and the names of ACME and its units."""
    entity = _entity_tokens()
    return list(
        dict.fromkeys(t for t in retrieval_tokens(question, drop_stop=True) if t not in entity)
    )


def coverage(kb: KnowledgeBase, terms: Sequence[str], passage: Passage) -> float:
    """Share of ``terms`` found in the passage, directly or via a glossary expansion."""
    if not terms:
        return 0.0
    tokens = set(retrieval_tokens(f"{passage.title} {passage.heading} {passage.text}"))
    hit = 0
    for term in terms:
        expansions = set(retrieval_tokens(kb.expand(term))) - {term}
        if term in tokens or expansions & tokens:
            hit += 1
    return hit / len(terms)


def rank_by_coverage(
    kb: KnowledgeBase, question: str, passages: Sequence[Passage]
) -> tuple[tuple[Passage, ...], float]:
    """The passages, best coverage first (bm25 order breaks ties), and the best coverage."""
    terms = topic_terms(question)
    scored = [(coverage(kb, terms, p), i, p) for i, p in enumerate(passages)]
    scored.sort(key=lambda s: (-s[0], s[1]))
    best = scored[0][0] if scored else 0.0
    return tuple(p for _, _, p in scored), best

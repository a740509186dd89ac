"""Passage ranking by the question's *concepts*, so an English question finds a Chinese passage.

FTS5's ``bm25()`` over the glossary-expanded query counts tokens: an English question over
the mostly Chinese documents matches the English IFRS 17 note word for word ("operating",
"profit", "insurance") while its Chinese passage matches only through the glossary, and
words naming ACME or its units ("Hong Kong", "group") weigh as much as the topic. So each
question is first read as concepts:

- every glossary term it contains (longest first, each span read once) is ONE concept,
  found in a passage through the term itself or any of its expansions (``inclusive
  insurance`` → 普惠保险; ``prescribed capital`` → 订明资本额), whichever language the
  passage is written in;
- every other content word (English) or character bigram (Chinese) is a concept of its own.

A passage scores the sum, over the concepts it contains, of the concept's idf across all
passages (a concept every passage has — "insurance" once expanded to 保险 — weighs nearly
nothing) times its weight: names of ACME and its units weigh :data:`ENTITY_WEIGHT`, the
topic weighs 1. Containment is an FTS5 phrase query per surface form (porter stemming, the
same tokens as the index); bm25 over the expanded query breaks ties, so term frequency and
passage length still count between passages that carry the same concepts.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from . import lexicon as lx
from .text import (
    PLURAL,
    contains_cjk,
    fts_query,
    is_stop_token,
    literal_spans,
    phrase_spans,
    phrase_words,
    retrieval_tokens,
    stem,
)

__all__ = [
    "CUE_WEIGHT",
    "DENSITY_BONUS",
    "ENTITY_WEIGHT",
    "NEAR_CHARS",
    "PAIR_BONUS",
    "Concept",
    "ConceptRanker",
    "entity_tokens",
]

# How much a name of ACME or one of its units counts against a topic concept: enough to
# choose the Hong Kong passage over the group's for "what drove Hong Kong's revenue
# growth", too little to outweigh one topic term ("prescribed capital" of ACME Hong Kong).
ENTITY_WEIGHT = 0.3
# Words that ask *for* an explanation ("why", "what drove", 原因) say what kind of answer is
# wanted, not what it is about: they weigh like a name, or 原因 would pull every "why"
# question to the one passage that writes it.
CUE_WEIGHT = 0.1
# Between passages holding the same concept, the one where it is densest (FTS5 bm25 of the
# concept alone: term frequency, passage length) gains up to this share of its weight.
DENSITY_BONUS = 0.5
# Two topic concepts written within NEAR_CHARS characters of each other in a passage (a
# phrase of the question, 集团营运利润增长) add this share of the smaller one's weight.
PAIR_BONUS = 0.5
NEAR_CHARS = 12
_CUE_WORDS = (
    *lx.EXPLANATION_CUES,
    *("cause", "caused", "causes", "came from", "come from", "source of"),
    *("benefit", "benefited", "hurt"),
)


@dataclass(frozen=True)
class Concept:
    """One thing the question asks about, and the surface forms that show it in a passage."""

    text: str
    surfaces: tuple[str, ...]
    weight: float


# (surface forms, weight x idf): what a sentence must contain to carry a concept.
WeightedConcept = tuple[tuple[str, ...], float]


def sentence_has(sentence: str, surfaces: Sequence[str]) -> bool:
    """Whether a sentence contains a surface form: Chinese as a substring, English as a
    sequence of words compared by their stems ("disclose" finds "disclosed")."""
    lowered = sentence.lower()
    words = [stem(t) for t in retrieval_tokens(lowered) if t.isascii()]
    for surface in surfaces:
        low = surface.lower().replace("_", " ")
        if contains_cjk(low):
            if low.replace(" ", "") in lowered.replace(" ", ""):
                return True
            continue
        seq = [stem(t) for t in retrieval_tokens(low)]
        n = len(seq)
        if n and any(words[i : i + n] == seq for i in range(len(words) - n + 1)):
            return True
    return False


@lru_cache(maxsize=1)
def entity_tokens() -> frozenset[str]:
    """Tokens of the names of ACME and its units, in both languages."""
    names = [t for terms in lx.ENTITY_TERMS.values() for t in terms] + ["ACME"]
    names += [t for pair in lx.ENTITY_NAMES.values() for t in pair]
    # English names by word; Chinese ones whole (香港, 内地, 集团: not 公司 of 香港分公司)
    return frozenset(
        tok
        for name in names
        for tok in retrieval_tokens(name)
        if tok.isascii() or tok in {"香港", "港区", "内地", "大陆", "中国", "集团", "整体"}
    )


_ASCII_TERM_CACHE: dict[str, re.Pattern[str]] = {}
_ALNUM = re.compile(r"[a-z0-9]+")


def _term_pattern(term: str) -> re.Pattern[str]:
    pattern = _ASCII_TERM_CACHE.get(term)
    if pattern is None:
        body = r"[\s\-]+".join(re.escape(w) for w in re.split(r"[\s\-]+", term))
        plural = "" if term.endswith("s") else "(?:e?s)?"  # "pricing rates" is "pricing rate"
        pattern = re.compile(rf"(?<![a-z0-9]){body}{plural}(?![a-z0-9])")
        _ASCII_TERM_CACHE[term] = pattern
    return pattern


def _term_spans(term: str, text: str) -> list[tuple[int, int]]:
    """The spans of :func:`_term_pattern`'s matches; words joined by spaces or hyphens
    without compiling it (``text.phrase_spans``: the same spans)."""
    words = phrase_words(term)
    if words is not None:
        return phrase_spans(text, words, ("",) if term.endswith("s") else PLURAL)
    return [m.span() for m in _term_pattern(term).finditer(text)]


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each span replaced by as many spaces."""
    parts: list[str] = []
    last = 0
    for start, end in spans:
        parts += [text[last:start], " " * (end - start)]
        last = end
    return "".join([*parts, text[last:]])


@lru_cache(maxsize=1)
def _cue_tokens() -> frozenset[str]:
    return frozenset(tok for cue in _CUE_WORDS for tok in retrieval_tokens(cue))


# A period ("FY2025", "2024", "H1") says when, not what about: it weighs like a name.
_PERIOD_TOKEN = re.compile(r"^(?:fy)?\d{2,4}(?:[hq][1-4])?$|^[hq][1-4]$|^[1-4][hq]\d{0,4}$")


def _form(surface: str) -> str:
    return " ".join(retrieval_tokens(surface.replace("_", " ")))


def _weight(tokens: Iterable[str]) -> float:
    listed = list(tokens)
    if listed and all(_PERIOD_TOKEN.match(t) for t in listed):
        return ENTITY_WEIGHT
    toks = [t for t in listed if not t.isdigit()]
    if toks and all(t in _cue_tokens() for t in toks):
        return CUE_WEIGHT
    toks = [t for t in tokens if not t.isdigit()]
    if toks and all(t in entity_tokens() for t in toks):
        return ENTITY_WEIGHT
    return 1.0


class ConceptRanker:
    """Ranks a KB's passages for a question by weighted concept coverage (see module doc)."""

    def __init__(self, conn: sqlite3.Connection, glossary: Sequence[tuple[str, str]]) -> None:
        self._conn = conn
        grouped: dict[str, list[str]] = {}
        for term, expansion in glossary:
            grouped.setdefault(term.lower(), []).extend(expansion.split())
        # longest first, so "risk-based capital" is read before "capital" and "risk"
        self._terms = sorted(grouped.items(), key=lambda kv: (-len(kv[0]), kv[0]))
        # an ASCII term can only match a text holding its first word as a whole word:
        # terms are skipped on that (and their patterns compiled only when tried)
        self._first_word = {
            term: first
            for term, _ in self._terms
            if term.isascii()
            and (first := next((w for w in re.split(r"[\s\-]+", term) if w), ""))
            and _ALNUM.fullmatch(first)
        }
        self._total = int(conn.execute("SELECT count(*) FROM passages").fetchone()[0])
        self._hits: dict[tuple[str, ...], dict[int, float]] = {}
        self._concepts: dict[str, tuple[Concept, ...]] = {}
        self._texts: dict[int, str] = {}
        self._offsets: dict[tuple[int, tuple[str, ...]], list[int]] = {}

    # --- the question's concepts -------------------------------------------------------

    def concepts(self, question: str) -> tuple[Concept, ...]:
        """The question's concepts: glossary terms first, then the remaining words/bigrams."""
        cached = self._concepts.get(question)
        if cached is not None:
            return cached
        text = question.lower()
        words = set(_ALNUM.findall(text))
        # a one-word term also matches its plural ("margins" is "margin"): singulars count
        words |= {w[:-1] for w in words if w.endswith("s")} | {
            w[:-2] for w in words if w.endswith("es")
        }
        found: list[Concept] = []
        for term, expansions in self._terms:
            if term.isascii():
                first = self._first_word.get(term)
                if first is not None and first not in words:
                    continue
                spans = _term_spans(term, text)
                if not spans:
                    continue
                text = _blank(text, spans)
            else:
                if term not in text:
                    continue
                text = text.replace(term, " ")
            tokens = retrieval_tokens(term)
            if not tokens or all(is_stop_token(t) for t in tokens):
                continue
            surfaces = tuple(dict.fromkeys([term, *expansions]))
            found.append(Concept(term, surfaces, _weight(tokens)))
        for token in retrieval_tokens(text, drop_stop=True):
            found.append(Concept(token, (token,), _weight([token])))
        # one meaning written twice (the question's "profit" and the 利润 a caller appends,
        # "ROE" and "return on equity") is one concept: a surface form equal to, part of or
        # containing one already read adds nothing
        result_list: list[Concept] = []
        seen: set[str] = set()
        for concept in found:
            forms = {_form(s) for s in concept.surfaces}
            if any(f" {f} " in f" {g} " or f" {g} " in f" {f} " for f in forms for g in seen):
                continue  # also a less or more specific form: 利润 / 营运利润, 新业务 / 新业务销售
            seen |= forms
            result_list.append(concept)
        result = tuple(result_list)
        if len(self._concepts) < 4096:
            self._concepts[question] = result
        return result

    # --- which passages hold a concept -----------------------------------------------------

    def _density(self, concept: Concept) -> dict[int, float]:
        """Passages holding the concept (in heading or text, not the document's title),
        each with its bm25 for the concept relative to the best passage's, in (0, 1]."""
        cached = self._hits.get(concept.surfaces)
        if cached is not None:
            return cached
        phrases = []
        for surface in concept.surfaces:
            tokens = retrieval_tokens(surface)
            if tokens:
                phrases.append('"' + " ".join(t.replace('"', '""') for t in tokens) + '"')
        found: dict[int, float] = {}
        if phrases:
            rows = self._conn.execute(
                "SELECT rowid, bm25(passages_fts) FROM passages_fts WHERE passages_fts MATCH ?",
                ("tokens : (" + " OR ".join(phrases) + ")",),
            ).fetchall()
            best = max((-float(r[1]) for r in rows), default=0.0)
            found = {int(r[0]): (-float(r[1]) / best if best > 0 else 1.0) for r in rows}
        self._hits[concept.surfaces] = found
        return found

    def passages_with(self, concept: Concept) -> frozenset[int]:
        """Row ids of the passages containing any surface form of the concept (a phrase)."""
        return frozenset(self._density(concept))

    def idf(self, concept: Concept) -> float:
        n = len(self._density(concept))
        if n == 0:
            return 0.0
        return math.log((self._total - n + 0.5) / (n + 0.5) + 1.0)

    def scores(self, question: str) -> dict[int, float]:
        """Each passage's concept score (only passages holding at least one concept): a
        concept counts its weight times its idf, up to :data:`DENSITY_BONUS` more in the
        passages where it is densest (its own bm25); two topic concepts written next to
        each other in the passage (集团营运利润增长 for "growth in the group's operating
        profit") add :data:`PAIR_BONUS` of the smaller one."""
        out: dict[int, float] = {}
        concepts = self.concepts(question)
        values = {c.text: c.weight * self.idf(c) for c in concepts}
        for concept in concepts:
            weight = values[concept.text]
            for rowid, density in self._density(concept).items():
                out[rowid] = out.get(rowid, 0.0) + weight * (1.0 + DENSITY_BONUS * density)
        topic = [c for c in concepts if c.weight == 1.0 and values[c.text] > 0]
        for i, first in enumerate(topic):
            for second in topic[i + 1 :]:
                both = set(self._density(first)) & set(self._density(second))
                bonus = PAIR_BONUS * min(values[first.text], values[second.text])
                for rowid in both:
                    if self._near(rowid, first, second):
                        out[rowid] += bonus
        return out

    def _positions(self, rowid: int, surfaces: tuple[str, ...]) -> list[int]:
        """Character offsets of the surface forms in a passage's heading and text."""
        key = (rowid, surfaces)
        cached = self._offsets.get(key)
        if cached is not None:
            return cached
        if not self._texts:
            self._texts = {
                int(r[0]): f"{r[1]} {r[2]}".lower()
                for r in self._conn.execute("SELECT id, heading, text FROM passages")
            }
        text = self._texts.get(rowid, "")
        found: list[int] = []
        for surface in surfaces:
            low = surface.lower().replace("_", " ")
            if contains_cjk(low):
                found += [start for start, _ in literal_spans(text, low)]
            elif low.strip():
                found += [start for start, _ in _term_spans(low, text)]
        self._offsets[key] = found
        return found

    def _near(self, rowid: int, first: Concept, second: Concept) -> bool:
        a = self._positions(rowid, first.surfaces)
        b = self._positions(rowid, second.surfaces)
        return any(0 < abs(x - y) <= NEAR_CHARS for x in a for y in b)

    def weighted(self, question: str) -> tuple[WeightedConcept, ...]:
        """The question's concepts found in the KB, as (surface forms, weight x idf)."""
        out = []
        for concept in self.concepts(question):
            value = concept.weight * self.idf(concept)
            if value > 0:
                out.append((concept.surfaces, value))
        return tuple(out)

    def rank(self, question: str, expanded: str, k: int) -> list[tuple[int, float]]:
        """(rowid, bm25) of the k best passages: concept score first, bm25 second."""
        tokens = retrieval_tokens(expanded, drop_stop=True)
        if not tokens:
            return []
        bm25 = {
            int(r[0]): float(r[1])
            for r in self._conn.execute(
                "SELECT rowid, bm25(passages_fts) FROM passages_fts WHERE passages_fts MATCH ?",
                (fts_query(tokens),),
            )
        }
        concept = self.scores(question)
        order = sorted(bm25, key=lambda r: (-round(concept.get(r, 0.0), 6), bm25[r], r))
        return [(r, bm25[r]) for r in order[:k]]

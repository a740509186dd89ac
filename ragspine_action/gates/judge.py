"""Entailment judges for groundedness: is a claim supported by the retrieved contexts?

The default judge is lexical (SPEC §2): a claim is entailed when the share of its content
tokens that occur in the contexts reaches a threshold. It is deterministic and needs no
model; stronger judges (NLI, LLM) plug in through the ``Judge`` protocol.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

__all__ = [
    "Judge",
    "LexicalJudge",
    "content_tokens",
    "split_claims",
    "tokenize",
]

# ASCII word runs, or one CJK character (unified ideographs, extension A, compatibility).
_TOKEN = re.compile(r"[A-Za-z0-9]+|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# Bracketed citations ([1], [handbook.md], 【deck · p3】) and citation trailers are not claims.
_INDEX_MARKER = re.compile(r"\[[^\[\]\n]{0,200}\]|【[^【】\n]{0,200}】")
_CITATION_TRAILER = re.compile(
    r"^\s*[\(\[（【]?\s*(sources?|citations?|references?|refs?|来源|出处|资料来源|引用)\s*[:：]",
    re.IGNORECASE,
)
# A full stop ends a sentence only before whitespace, so "Deck_2025.pptx" stays whole.
_SENTENCE_END = re.compile(r"(?<=[。！？；])|(?<=[.!?;])\s+|\n+")
# The same cut without CJK punctuation, 3× faster than the look-behinds: mark each
# break with a newline, then split on newlines (empty pieces are no claims either way).
_CJK_SENTENCE_END = re.compile(r"[。！？；]")
_SENTENCE_BREAK = re.compile(r"([.!?;])\s+")

# What a citation trailer legitimately holds: file names, locators like slide=5,row=2, dots.
_CITATION_PARTS = re.compile(
    r"[^\s,;，；()（）\[\]]+\.[A-Za-z]{2,5}\b|\w+=\w+|[·•|,;，；()（）\[\]]"
)

_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "by",
        "with",
        "from",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "there",
        "here",
        "what",
        "which",
        "who",
        "whom",
        "whose",
        "how",
        "why",
        "when",
        "where",
        "do",
        "does",
        "did",
        "has",
        "have",
        "had",
        "not",
        "no",
        "so",
        "than",
        "then",
        "too",
        "very",
        "can",
        "could",
        "should",
        "would",
        "will",
        "may",
        "might",
        "must",
        "shall",
        "i",
        "we",
        "you",
        "he",
        "she",
        "they",
        "them",
        "our",
        "your",
        "their",
        "my",
        "me",
        "us",
        "his",
        "her",
    ]
)


def tokenize(text: str) -> list[str]:
    """Lower-cased ASCII word runs and single CJK characters, in order."""
    return _TOKEN.findall(text.lower())


def content_tokens(text: str) -> list[str]:
    """Tokens that carry content: English stop words dropped, CJK characters kept."""
    return [t for t in tokenize(text) if t not in _STOPWORDS]


def _has_content(text: str) -> bool:
    """Whether any token is a content token (stops at the first one, unlike content_tokens)."""
    return any(m.group() not in _STOPWORDS for m in _TOKEN.finditer(text.lower()))


def _sentences(answer: str) -> list[str]:
    if _CJK_SENTENCE_END.search(answer) is not None:
        return _SENTENCE_END.split(answer)
    return _SENTENCE_BREAK.sub("\\1\n", answer).split("\n")


def split_claims(answer: str, cited_docs: Iterable[str] = ()) -> list[str]:
    """Sentences of an answer that assert something (citations and markers removed).

    ``cited_docs`` are the outcome's source names: after "Source:" they are citation, not
    claim, even without a file extension; any other text hidden there is a claim.
    """
    names = sorted({d for d in cited_docs if d}, key=len, reverse=True)
    claims: list[str] = []
    for piece in _sentences(answer):
        trailer = _CITATION_TRAILER.match(piece)
        if trailer:
            rest = piece[trailer.end() :]
            for name in names:
                rest = rest.replace(name, " ")
            piece = _CITATION_PARTS.sub(" ", rest)
        sentence = _INDEX_MARKER.sub(" ", piece).strip()
        if sentence and _has_content(sentence):
            claims.append(sentence)
    return claims


class Judge(Protocol):
    """Decides whether claims are supported by the contexts.

    ``unsupported`` judges all claims of one answer at once, so a judge can prepare the
    contexts once (the lexical judge builds their vocabulary once per answer).
    """

    @property
    def name(self) -> str: ...

    def entailed(self, claim: str, contexts: Sequence[str]) -> bool: ...

    def unsupported(self, claims: Sequence[str], contexts: Sequence[str]) -> list[str]: ...


@dataclass(frozen=True)
class LexicalJudge:
    """Share of the claim's content tokens found in the contexts ≥ ``threshold``."""

    threshold: float = 0.6
    name: str = "lexical"

    def support(self, claim: str, context_vocabulary: Iterable[str]) -> float:
        tokens = content_tokens(claim)
        if not tokens:
            return 1.0
        vocab = (
            context_vocabulary if isinstance(context_vocabulary, set) else set(context_vocabulary)
        )
        return sum(1 for t in tokens if t in vocab) / len(tokens)

    def entailed(self, claim: str, contexts: Sequence[str]) -> bool:
        return not self.unsupported([claim], contexts)

    def unsupported(self, claims: Sequence[str], contexts: Sequence[str]) -> list[str]:
        vocab = set(tokenize(" ".join(contexts)))
        return [c for c in claims if self.support(c, vocab) < self.threshold]

"""Text helpers shared by indexing and querying: one tokenisation, so both sides agree.

Chinese has no spaces, so CJK runs are indexed as overlapping character bigrams (single
characters for one-character runs); ASCII is indexed as lower-cased word runs. SQLite's
FTS5 then ranks the space-joined tokens with bm25.
"""

from __future__ import annotations

import re
from decimal import Decimal

__all__ = [
    "contains_cjk",
    "format_number",
    "fts_query",
    "is_stop_token",
    "retrieval_tokens",
    "split_sentences",
    "stem",
    "stem_text",
]

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN_RE = re.compile(rf"[{_CJK}]+|[A-Za-z0-9]+")
_CJK_RE = re.compile(rf"[{_CJK}]")
_SENTENCE_RE = re.compile(r"(?<=[。！？!?；])|(?<=\.)\s+(?=\S)")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Question fluff that carries no topic: dropped from retrieval queries only.
_STOP_WORDS = _words(
    """a an the of in on at to for and or is are was were be been what which who whom how
    does do did say says said about tell me please document documents doc file files there
    that this these those with from by under as its it their our we i you any much many
    acme s"""
)
_STOP_BIGRAMS = _words(
    """什么 哪些 是否 如何 怎么 怎样 请问 多少 哪个 哪份 文件 文档 提到 关于 一下 告诉 我们 的是
    是什 么是 了什 有哪 些文 份文 件提 到了 么样 样的 为什 么的"""
)


def contains_cjk(text: str) -> bool:
    """Whether a text is (at least partly) Chinese: picks the answer language."""
    return _CJK_RE.search(text) is not None


def is_stop_token(token: str) -> bool:
    """Whether a retrieval token is question fluff (an English stop word or Chinese bigram)."""
    return token in _STOP_WORDS or token in _STOP_BIGRAMS


def retrieval_tokens(text: str, *, drop_stop: bool = False) -> list[str]:
    """ASCII words (lower-cased) and CJK bigrams, in text order."""
    out: list[str] = []
    for run in _TOKEN_RE.findall(text):
        if _CJK_RE.match(run):
            grams = [run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)]
            out.extend(g for g in grams if not (drop_stop and g in _STOP_BIGRAMS))
        else:
            word = run.lower()
            if not (drop_stop and word in _STOP_WORDS):
                out.append(word)
    return out


def fts_query(tokens: list[str]) -> str:
    """An FTS5 MATCH expression: any of the tokens, each quoted (no operator injection)."""
    unique = list(dict.fromkeys(t for t in tokens if t))
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in unique)


def split_sentences(text: str) -> list[str]:
    """Sentences of a passage; decimal points (8.18) do not end a sentence."""
    return [s.strip() for s in _SENTENCE_RE.split(text) if s.strip()]


def format_number(value: Decimal | float) -> str:
    """Thousands separators, no trailing zeros: 8180 → '8,180', 1412.3 → '1,412.3'."""
    dec = value if isinstance(value, Decimal) else Decimal(repr(value))
    if dec == dec.to_integral_value():
        return f"{int(dec):,}"
    text = f"{dec.normalize():,f}"
    return text


_WORD_RE = re.compile(r"[A-Za-z]+")


def stem(token: str) -> str:
    """A crude, symmetric English stem (rates → rate, reported → report); CJK unchanged."""
    if not token.isascii() or len(token) <= 3:
        return token
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if token.endswith(suffix) and len(token) - len(suffix) >= 3 and not token.endswith("ss"):
            return token[: -len(suffix)] + keep
    return token


def stem_text(text: str) -> str:
    """The text with every English word stemmed (glossary phrases then match plurals)."""
    return _WORD_RE.sub(lambda m: stem(m.group(0).lower()), text)

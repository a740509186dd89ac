"""Comparisons: which side is the greater, read the same way in a claim and its context.

A bag of words cannot tell "Singapore's portfolio was larger than Malaysia's" from "…
smaller than Malaysia's" (one word differs, and both words may be in the contexts), nor
"Malaysia's ratio was higher than Singapore's" (the context's own sentence) from
"Singapore's ratio was lower than Malaysia's" (the same fact told from the other side,
where the direction word is opposite but the sides are exchanged too). So a comparison is
parsed into its two sides and the direction it gives the first over the second
(``greater``: more, larger, higher, exceeded, ahead of, 高于, 超过, 多于, 领先 …;
``lesser``: fewer, smaller, lower, trailed, behind, 低于, 不及, 少于, 落后 …), and two
comparisons agree when they keep their sides and their direction, or exchange both; they
contradict when they keep their sides and turn the direction, or exchange the sides and
keep it.

The sides are matched by the words that name what is compared (the words of either
comparison's second side, less any word a comparison has on both of its sides: the
figure in "A's revenue was higher than B's revenue"), so an elliptical side ("…than
Singapore's") still pairs with the other comparison's full one. A comparison under a
negation ("was not larger than") is not read; bounds ("no more than 40") are rewritten
before this module sees the text.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from .claims import STOPWORDS

__all__ = ["Comparison", "Verdict", "compare", "comparisons", "may_compare"]

_GREATER_EN = r"more|greater|larger|bigger|higher|faster|quicker|stronger|better|longer|wider"
_LESSER_EN = r"less|fewer|smaller|lower|slower|weaker|worse|shorter|narrower"
# "grew more slowly than": the adverb says which way; these turn "more" round.
_LESSER_ADVERBS = frozenset(
    ["slowly", "slow", "weakly", "poorly", "badly", "modestly", "sluggishly", "gradually"]
)
_EN = re.compile(
    rf"\b(?P<adj>{_GREATER_EN}|{_LESSER_EN})\s+(?P<gap>(?:[\w'-]+\s+){{0,3}}?)than\b"
    r"|\b(?P<gv>exceed(?:ed|s)?|outpac(?:ed|es|e)|outgrew|outgrows|outperform(?:ed|s)?|"
    r"overt(?:ook|akes?)|surpass(?:ed|es)?|outsold|outsells|outstripped|ahead\s+of)\b"
    r"|\b(?P<lv>trailed|lagged(?:\s+behind)?|lags(?:\s+behind)?|lag\s+behind|underperform(?:ed|s)?|"
    r"fell\s+short\s+of|falls\s+short\s+of|behind)\b",
    re.IGNORECASE,
)
_ZH = re.compile(
    r"(?P<g>高于|多于|大于|快于|优于|好于|强于|胜于|超过|超出|领先于|领先|跑赢|长于)"
    r"|(?P<l>低于|少于|小于|慢于|劣于|差于|弱于|逊于|不及(?!格|时)|不如|落后于|落后|跑输|短于)"
)
# A negation right before the comparison word: "was not larger than" is not read.
_NEGATED_BEFORE = re.compile(r"(?:\b(?:not|never|no)\s+(?:\w+\s+)?$|(?:不|没有|并非|未)$)", re.I)
_SIDE_BREAK = re.compile(
    r"[，,；;：:。.!?！？()（）]|\b(?:while|whereas|but|although|because|which)\b|而|但|因为|主要",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z]+|\d+(?:[.,]\d+)*")
_LETTER_NAME = re.compile(r"(?<=[A-Za-z] )[A-Z]\b")
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
# Words that carry no side: the verbs and fillers around a comparison.
_FILLER = frozenset(
    ["was", "were", "is", "are", "be", "been", "remained", "stayed", "grew", "rose"]
)


class Comparison(NamedTuple):
    """One comparison: its sides' keys, whether the first side is the greater, where the
    comparison word stands (so a caller can read the rest of the clause without it)."""

    left: frozenset[str]
    right: frozenset[str]
    greater: bool
    start: int
    end: int

    @property
    def keys(self) -> frozenset[str]:
        return self.left | self.right


def may_compare(text: str) -> bool:
    """A cheap test before any regex: whether ``text`` can hold a comparison."""
    if text.isascii():
        lower = text.lower()
        return (
            "than" in lower
            or "ahead" in lower
            or "behind" in lower
            or "exceed" in lower
            or "out" in lower
            or "trail" in lower
            or "lag" in lower
            or "short of" in lower
            or "overt" in lower
            or "surpass" in lower
        )
    return (
        "于" in text
        or "超" in text
        or "不及" in text
        or "不如" in text
        or "领先" in text
        or "落后" in text
        or "跑" in text
    )


def _keys(text: str) -> frozenset[str]:
    """Words (first five letters, so ``Malaysia``/``Malaysian`` are one), numbers, and
    Chinese character pairs of one side."""
    out: set[str] = set()
    lower = text.lower().replace("'s", " ").replace("’s", " ")
    for word in _WORD.findall(lower):
        if word[0].isdigit():
            out.add(word.replace(",", ""))
        elif word not in STOPWORDS and word not in _FILLER and len(word) > 1:
            out.add(word[:5])
    # a one-letter name ("Product A", "Plan B"), not the article that opens a side
    out.update(m.lower() for m in _LETTER_NAME.findall(text))
    for run in _CJK_RUN.findall(text):
        if len(run) == 1:
            out.add(run)
        out.update(run[i : i + 2] for i in range(len(run) - 1))
    return frozenset(out)


@lru_cache(maxsize=4096)
def comparisons(text: str) -> tuple[Comparison, ...]:
    """The comparisons of ``text`` (a clause or a sentence), each with its two sides cut
    at the clause around it."""
    if not may_compare(text):
        return ()
    out: list[Comparison] = []
    pattern = _EN if text.isascii() else _ZH
    for m in pattern.finditer(text):
        before = text[: m.start()]
        if _NEGATED_BEFORE.search(before) is not None:
            continue
        if pattern is _EN:
            adj = m.group("adj")
            if adj is not None:
                greater = re.fullmatch(_GREATER_EN, adj, re.IGNORECASE) is not None
                gap = (m.group("gap") or "").split()
                if gap and adj.lower() in ("more", "less") and gap[0].lower() in _LESSER_ADVERBS:
                    greater = not greater  # "more slowly than" is "slower than"
            else:
                greater = m.group("gv") is not None
        else:
            greater = m.group("g") is not None
        left = _SIDE_BREAK.split(before)[-1]
        right = _SIDE_BREAK.split(text[m.end() :])[0]
        left_keys, right_keys = _keys(left), _keys(right)
        if left_keys and right_keys:
            out.append(Comparison(left_keys, right_keys, greater, m.start(), m.end()))
    return tuple(out)


def _order(claim: Comparison, said: Comparison) -> bool | None:
    """True when ``claim`` keeps the sides of ``said``, False when it exchanges them, None
    when the sides' words cannot tell."""
    named = (claim.right | said.right) - (claim.left & claim.right) - (said.left & said.right)
    if not named:
        return None
    kept = len(named & claim.right & said.right) + len(named & claim.left & said.left)
    crossed = len(named & claim.right & said.left) + len(named & claim.left & said.right)
    if kept == crossed:
        return None
    return kept > crossed


class Verdict(NamedTuple):
    """How a claim's comparison reads against a context sentence's."""

    agrees: bool
    turned: bool  # the sides are exchanged (told from the other side, or inverted)
    comparison: Comparison  # the claim's


def compare(claim: str, sentence: str) -> Verdict | None:
    """How the claim's comparison reads against ``sentence``'s, for the pair of
    comparisons that share most words; None when either has none or their sides cannot
    be paired. Of tied pairs, one that agrees wins (never cry wolf on a sentence that
    makes two comparisons)."""
    ours = comparisons(claim)
    if not ours:
        return None
    theirs = comparisons(sentence)
    if not theirs:
        return None
    best: tuple[int, bool, bool, Comparison] | None = None
    for mine in ours:
        for said in theirs:
            shared = len(mine.keys & said.keys)
            if shared == 0:
                continue
            kept = _order(mine, said)
            if kept is None:
                continue
            agrees = (mine.greater == said.greater) == kept
            if best is None or (shared, agrees) > (best[0], best[1]):
                best = (shared, agrees, not kept, mine)
    if best is None:
        return None
    return Verdict(best[1], best[2], best[3])

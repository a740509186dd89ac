"""When a period starts: ``… counted from the date the vehicle is first registered`` where
the contexts count it from the date it is first delivered; ``自车辆上牌之日起计算`` where
they say ``自销售者开具购车发票之日起计算``. A start-point clause added to a copied sentence
shares the sentence's words, so its score hides it; its event must be the contexts' own.

The claim's start event (the words after "from the date", between 自 and 之日起) is compared
with each start event the contexts write: one that holds all its content words agrees. When
the contexts write no start event, nothing is compared (another rule judges the words).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["start_problem"]

_EN = re.compile(
    r"\b(?:from|on|since)\s+the\s+(?:date|day)\s+(?:of\s+|on\s+which\s+|when\s+|that\s+)?"
    r"(?P<x>[^,.;:()]{3,80})",
    re.IGNORECASE,
)
_ZH = re.compile(r"[自从](?P<x>[^，。；,;：:（）()自从]{2,24}?)(?:之日|当日|当天|日)起")
_CUE = re.compile(r"\b(?:date|day)\b|之日起|当日起|当天起|日起", re.IGNORECASE)
_EN_STOP = frozenset(
    [
        "the",
        "a",
        "an",
        "of",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "it",
        "its",
        "their",
        "his",
        "her",
        "to",
        "by",
        "in",
        "on",
        "at",
        "for",
        "and",
        "or",
        "with",
        "which",
        "when",
        "that",
        "this",
        "first",
    ]
)
_ZH_FUNCTION = frozenset("的了是在和与及或也都将已为对于其之而并向由被把这那个此该")


def _events(text: str) -> list[frozenset[str]]:
    """The content words of each start event of ``text``."""
    out = []
    for m in _EN.finditer(text):
        words = [w.lower() for w in re.findall(r"[A-Za-z]+", m.group("x"))]
        out.append(frozenset(w[:5] for w in words if w not in _EN_STOP))
    for m in _ZH.finditer(text):
        out.append(
            frozenset(ch for ch in m.group("x") if "\u4e00" <= ch <= "\u9fff") - _ZH_FUNCTION
        )
    return [e for e in out if e]


def start_problem(claim: str, contexts: Sequence[str], label: str) -> str | None:
    """A reason when ``claim`` counts a period from an event no start event of the
    contexts names."""
    if _CUE.search(claim) is None:
        return None
    claimed = _events(claim)
    if not claimed:
        return None
    said = [e for text in contexts for e in _events(text)]
    if not said:
        return None
    for event in claimed:
        if not any(event <= other for other in said):
            missing = sorted(event - max(said, key=lambda o: len(event & o)))
            return f"counts from an event {label} do not name ({', '.join(missing)})"
    return None

"""A time of day taken from another sentence (rule 5 of docs/judges.md, with binding).

"Express delivery guarantees next-working-day delivery … for orders placed before 2 pm"
copies the express sentence ("… if ordered before 12 noon") but takes its cut-off from the
standard-delivery sentence ("Orders placed before 2 pm are dispatched the same day"): the
number 2 is in the contexts, and the claim's words "orders placed before" are the
standard sentence's, so the number rules pass it. A clock time is read as minutes of the
day (``12 noon``, ``noon``, ``2 pm``, ``14:00``, ``中午12点``, ``下午3点``, ``15时30分``): a
claim that states one time and copies a sentence that states other times only fails.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["clock_problem", "may_tell_time"]

_EN = re.compile(
    r"\b(\d{1,2})(?:[:.](\d\d))?\s*(a\.?m\.?|p\.?m\.?|noon|midday|midnight|o'clock)(?![a-z])"
    r"|\b(\d{1,2}):(\d\d)\b"
    r"|\b(noon|midday|midnight)\b",
    re.IGNORECASE,
)
_ZH = re.compile(
    r"(上午|早上|中午|下午|傍晚|晚上|凌晨)?\s*(\d{1,2})\s*(?:点|时)(?!间|期|候|段|效|限)"
    r"(半|(\d{1,2})\s*分)?"
)
_CUE = re.compile(
    r"(?i)\d\s*(?:[ap]\.?m|noon|midday|midnight|o'clock|点|时)|\d:\d\d|noon|midday|midnight"
)
_AFTERNOON = frozenset(["下午", "傍晚", "晚上"])


def may_tell_time(claim: str) -> bool:
    """A cheap look before ``clock_problem``."""
    return _CUE.search(claim) is not None


def _times(text: str) -> set[int]:
    """The clock times ``text`` states, as minutes after midnight."""
    out: set[int] = set()
    for m in _EN.finditer(text):
        if m.group(6):
            word = m.group(6).lower()
            out.add(0 if word == "midnight" else 12 * 60)
            continue
        if m.group(4):
            hour, minute = int(m.group(4)), int(m.group(5))
            if hour < 24 and minute < 60:
                out.add(hour * 60 + minute)
            continue
        hour, minute = int(m.group(1)), int(m.group(2) or 0)
        word = m.group(3).lower().replace(".", "")
        if hour > 12 or minute >= 60:
            continue
        if word == "pm" and hour < 12:
            hour += 12
        elif (word == "am" and hour == 12) or word == "midnight":
            hour = 0
        out.add(hour * 60 + minute)
    if not text.isascii():
        for m in _ZH.finditer(text):
            hour = int(m.group(2))
            minute = 30 if m.group(3) == "半" else int(m.group(4) or 0)
            if hour > 24 or minute >= 60:
                continue
            if m.group(1) in _AFTERNOON and hour < 12:
                hour += 12
            out.add(hour % 24 * 60 + minute)
    return out


def clock_problem(
    claim: str,
    sentence: str,
    claim_words: Iterable[str],
    sentence_words: frozenset[str],
    label: str,
) -> str | None:
    """Why ``claim``'s one clock time is not the one of ``sentence``, the context sentence
    it copies (most of its words, ``claim_words``, are the sentence's), or None.

    A claim with two times or more may join two sentences' rules; a sentence that states no
    time gives none to compare."""
    ours = _times(claim)
    if len(ours) != 1:
        return None
    theirs = _times(sentence)
    if not theirs or ours <= theirs:
        return None
    words = [w for w in claim_words if not w.isdigit()]
    if not words or sum(w in sentence_words for w in words) * 5 < len(words) * 3:
        return None  # not a copy of this sentence
    (time,) = ours
    shown = f"{time // 60}:{time % 60:02d}"
    said = ", ".join(f"{t // 60}:{t % 60:02d}" for t in sorted(theirs))
    return f"gives the time {shown} where the sentence it copies in {label} says {said}"

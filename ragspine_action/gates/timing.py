"""Timing: "at once" said of what the contexts make wait.

A claim that says a thing happens at once (`vest immediately`, `on the same day`, `入职即
归属`, `当天`) where the context sentence it matches sets a waiting time (`vest after 2 years
of service`, `must be requested two weeks ahead`, `服务满2年后归属`, `提前3天`) changes the
fact, though it keeps most words and states no number to compare: the waiting time is
left out and replaced by its opposite. A claim that also states the waiting time (`…
immediately after 2 years`) is judged by the number rules instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["may_say_at_once", "timing_problem"]

_NUMBER = r"(?:\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|twelve)"
_UNIT = r"(?:working\s+|business\s+|calendar\s+)?(?:days?|weeks?|months?|years?|hours?)"
_CJK_NUMBER = r"[\d一二两三四五六七八九十半]+"
_CJK_UNIT = r"(?:个)?(?:工作日|自然日|年|个?月|天|日|周|小时)"

_AT_ONCE = re.compile(
    r"\b(?:immediately|instantly|at\s+once|straight\s+away|right\s+away|from\s+day\s+one|"
    r"from\s+the\s+first\s+day|on\s+the\s+(?:same|very)\s+day|same[-\s]day|on\s+joining|"
    r"upon\s+joining|without\s+(?:any\s+)?(?:waiting|notice))\b"
    r"|入职即|入职当天|入职起即|立即|立刻|马上|即时|当天|当日|随时",
    re.IGNORECASE,
)
_WAIT = re.compile(
    rf"\bafter\s+(?:(?:at\s+least|a|the|of|full)\s+)*{_NUMBER}\s+{_UNIT}"
    rf"|\b{_NUMBER}\s+{_UNIT}\s+(?:ahead|in\s+advance|beforehand|before|prior)"
    rf"|\b(?:at\s+least|no\s+less\s+than)\s+{_NUMBER}\s+{_UNIT}(?:'|’)?\s+(?:notice|ahead|in\s+advance)"
    rf"|满{_CJK_NUMBER}{_CJK_UNIT}|提前{_CJK_NUMBER}{_CJK_UNIT}|{_CJK_NUMBER}{_CJK_UNIT}(?:之)?后",
    re.IGNORECASE,
)
# English claims and sentences are split into clauses at these, as the polarity rule does
_CLAUSE = re.compile(r"[，；;]|,\s+|\s+(?:and|but|while|whereas)\s+", re.IGNORECASE)


def may_say_at_once(claim: str) -> bool:
    """Whether ``claim`` says something happens at once (a cheap test before the rule)."""
    return _AT_ONCE.search(claim) is not None


def timing_problem(
    claim: str, best_sentence: Callable[[str], str | None], label: str
) -> str | None:
    """Why a clause of ``claim`` that says "at once" contradicts the sentence it matches
    (``best_sentence``), which sets a waiting time; None if none does."""
    if _WAIT.search(claim) is not None:
        return None  # the claim states a waiting time: the number rules judge it
    for clause in _CLAUSE.split(claim):
        said = _AT_ONCE.search(clause)
        if said is None:
            continue
        sentence = best_sentence(clause)
        if sentence is None or _AT_ONCE.search(sentence) is not None:
            continue
        wait = _WAIT.search(sentence)
        if wait is not None and not _states(claim, wait.group()):
            return f"says {said.group()!r} where {label} say {wait.group()!r}"
    return None


_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6"}
_WORDS |= {"seven": "7", "eight": "8", "nine": "9", "ten": "10", "twelve": "12"}
_CJK_DIGITS = dict(zip("一二两三四五六七八九十", "1223456789十", strict=True))


def _states(claim: str, wait: str) -> bool:
    """Whether the claim states the waiting time's number anywhere (`Once they have
    completed 6 months …, … immediately` waits the 6 months)."""
    m = re.search(rf"{_NUMBER}|{_CJK_NUMBER}", wait, re.IGNORECASE)
    if m is None:
        return False
    number = m.group().lower()
    number = _WORDS.get(number, "".join(_CJK_DIGITS.get(ch, ch) for ch in number))
    said = {_WORDS.get(w, w) for w in re.findall(r"[a-z]+|\d+(?:\.\d+)?", claim.lower())}
    said |= {"".join(_CJK_DIGITS.get(ch, ch) for ch in w) for w in re.findall(_CJK_NUMBER, claim)}
    return number in said

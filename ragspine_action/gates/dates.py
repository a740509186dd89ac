"""Dates compared whole: a claim's date must be one date of the contexts.

The number rule checks each number on its own, so ``2024年1月1日`` passes against a context
giving ``2024年7月1日`` (the 1 of 1日 is found) and ``1 January 2024`` against ``1 July
2024``. A date is read as (year, month, day), in English (``1 July 2024``, ``July 1,
2024``, ``1 Jul``, ``July 2024``), Chinese (``2024年7月1日``, ``7月1日``, ``2024年7月``) or ISO
(``2024-07-01``) form, and it is supported only when one context date agrees on every part
both of them give (``2024年7月`` agrees with ``1 July 2024``; ``1 July`` with ``2024年7月1日``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from .numerals import fold

__all__ = ["DateMention", "date_mentions", "dates_agree"]


class DateMention(NamedTuple):
    written: str
    year: int | None
    month: int
    day: int | None


_MONTHS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "may": 5,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
# Title case only: "may" is a verb.
_MONTH = (
    r"(January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?"
)
_DAY = r"(3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?"
_YEAR = r"((?:19|20)\d{2})"
_DATE = re.compile(
    rf"\b{_DAY}\s{_MONTH}(?:,?\s{_YEAR})?(?![A-Za-z])"  # 1 July 2024, 1 Jul
    rf"|\b{_MONTH}\s{_DAY}(?:,?\s{_YEAR})?(?![A-Za-z\d])"  # July 1, 2024
    rf"|\b{_MONTH}\s{_YEAR}(?!\d)"  # July 2024
    r"|(?<!\d)((?:19|20)\d{2})-(1[0-2]|0?[1-9])-(3[01]|[12]\d|0?[1-9])(?!\d)"  # 2024-07-01
    r"|(?:(?<!\d)((?:19|20)\d{2})\s?年\s?)?(?<!\d)(1[0-2]|0?[1-9])\s?月(?:\s?(3[01]|[12]\d|0?[1-9])\s?[日号])?"
)


def _int(text: str | None) -> int | None:
    return int(text) if text else None


@lru_cache(maxsize=4096)
def date_mentions(text: str) -> tuple[DateMention, ...]:
    """The dates of ``text`` as (written, year, month, day); a part not given is None."""
    if not any(ch.isdigit() for ch in text):
        return ()
    text = fold(text)
    out: list[DateMention] = []
    for m in _DATE.finditer(text):
        g = m.groups()
        if g[1] is not None:  # day month [year]
            month, day, year = g[1], g[0], g[2]
        elif g[3] is not None:  # month day [year]
            month, day, year = g[3], g[4], g[5]
        elif g[6] is not None:  # month year
            month, day, year = g[6], None, g[7]
        elif g[8] is not None:  # ISO
            out.append(DateMention(m.group(), int(g[8]), int(g[9]), int(g[10])))
            continue
        else:  # 2024年7月1日
            out.append(DateMention(m.group(), _int(g[11]), int(g[12]), _int(g[13])))
            continue
        written = m.group().rstrip(".")
        out.append(DateMention(written, _int(year), _MONTHS[month[:3].lower()], _int(day)))
    return tuple(out)


def dates_agree(claim: DateMention, context: DateMention) -> bool:
    """Whether two dates agree on every part both give."""
    return (
        claim.month == context.month
        and (claim.day is None or context.day is None or claim.day == context.day)
        and (claim.year is None or context.year is None or claim.year == context.year)
    )

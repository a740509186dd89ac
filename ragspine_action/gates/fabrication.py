"""Fabrication: numbers left in a refusal answer once period tokens are removed (SPEC §2).

A system that refuses but still prints "about 1,200" has invented a number. Period tokens
(FY2024, 2025H1, 2025 H2, 2025Q1, 2030年, 2024 年上半年, 2025年5月, plain years 19xx/20xx)
name the period that was asked about and are allowed, and so are lists and ranges of them
(``2024,2025``, ``2024-2025``, ``2024–25``, ``FY2024/25``, ``2023年、2024年``). An amount
written right after a period is still an amount: ``2025年5亿`` leaves ``5亿`` (a month needs
its 月, so ``2025年12亿`` is not December). Chinese amounts keep their scale (``5亿``,
``3.5万``) because the scale is what makes them amounts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

__all__ = ["DEFAULT_PERIOD_PATTERNS", "compile_periods", "detect_fabricated_numbers"]

_MONTH = r"(?:1[0-2]|0?[1-9])"
DEFAULT_PERIOD_PATTERNS: tuple[str, ...] = (
    r"FY\s?(?:19|20)\d{2}(?:\s?[HQ][1-4])?",
    r"(?:19|20)\d{2}\s?(?:H[12]|Q[1-4])",
    # 2030年, 2024年上半年, 2025年第1季度, 2025年5月, 2025年1至3月 (a month only with 月)
    r"(?:19|20)\d{2}\s?年(?:\s?(?:上半年|下半年|第?[一二三四1-4]\s?季度?"
    rf"|{_MONTH}(?:\s?[-–~～至到]\s?{_MONTH})?\s?月))?",
    r"(?:19|20)\d{2}",
    r"(?:H[12]|Q[1-4])\s?(?:19|20)\d{2}",
)

# A number, with the Chinese scale that makes it an amount (5亿, 3.5万, 7,800万).
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*(?:\s?(?:千万|百万|万亿|[万亿]))?")
# Between two periods of a list or range: a comma, an enumeration comma, a dash or a
# slash (or 至/到/~ for ranges).
_JOIN = r"\s?(?:[,，、/~～至到]|[-–—])\s?"
# A two-digit year that ends a range: the 25 of 2024–25 and FY2024/25 (never after a comma:
# in "in 2024, 25 staff left" the 25 is a count).
_SHORT_YEAR_END = r"\s?[-–—/]\s?\d{2}(?![\d.,]*\d)"


@lru_cache(maxsize=16)
def compile_periods(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """Periods, and lists and ranges of them, as one pattern.

    Anchored so a period token is never the middle of a longer number.
    """
    body = "|".join(f"(?:{p})" for p in patterns)
    single = rf"(?:{body})"
    return re.compile(
        rf"(?<![\d.,]){single}(?:{_JOIN}{single})*(?:{_SHORT_YEAR_END})?(?![\d.,]*\d)",
        re.IGNORECASE,
    )


def detect_fabricated_numbers(
    text: str, period_patterns: Sequence[str] = DEFAULT_PERIOD_PATTERNS
) -> list[str]:
    """Numbers in ``text`` that are not period tokens, in order of appearance."""
    if not any(ch.isdigit() for ch in text):
        return []
    stripped = compile_periods(tuple(period_patterns)).sub(" ", text)
    return _NUMBER.findall(stripped)

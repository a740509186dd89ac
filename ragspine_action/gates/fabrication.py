"""Fabrication: numbers left in a refusal answer once period tokens are removed (SPEC §2).

A system that refuses but still prints "about 1,200" has invented a number. Period tokens
(FY2024, 2025H1, 2025 H2, 2025Q1, 2030年, 2024 年上半年, plain years 19xx/20xx) name the
period that was asked about and are allowed; any other four-digit number is a number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

__all__ = ["DEFAULT_PERIOD_PATTERNS", "compile_periods", "detect_fabricated_numbers"]

DEFAULT_PERIOD_PATTERNS: tuple[str, ...] = (
    r"FY\s?(?:19|20)\d{2}(?:\s?[HQ][1-4])?",
    r"(?:19|20)\d{2}\s?(?:H[12]|Q[1-4])",
    r"(?:19|20)\d{2}\s?年(?:\s?(?:上半年|下半年|第?[一二三四1-4]季度?|[1-9]|1[0-2])月?)?",
    r"(?:19|20)\d{2}",
    r"(?:H[12]|Q[1-4])\s?(?:19|20)\d{2}",
)

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


@lru_cache(maxsize=16)
def compile_periods(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """One alternation, anchored so a period token is never the middle of a longer number."""
    body = "|".join(f"(?:{p})" for p in patterns)
    return re.compile(rf"(?<![\d.,])(?:{body})(?![\d.,]*\d)", re.IGNORECASE)


def detect_fabricated_numbers(
    text: str, period_patterns: Sequence[str] = DEFAULT_PERIOD_PATTERNS
) -> list[str]:
    """Numbers in ``text`` that are not period tokens, in order of appearance."""
    if not any(ch.isdigit() for ch in text):
        return []
    stripped = compile_periods(tuple(period_patterns)).sub(" ", text)
    return _NUMBER.findall(stripped)

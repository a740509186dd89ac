"""A number put in another unit of the same measure: ``重量不超过5磅`` where the contexts say
``5公斤``, ``5元/MB`` where they say ``5元/GB``, 60,000 miles for 60,000 km, 500 ml for 500 l.

Each number with a unit of weight, length, data or volume written right after it (or
after a price: ``5元/GB``, ``$5 per GB``) is read as (measure, whether a rate, unit). When
the contexts state the same number in the same measure and role only with other units,
the claim changed the unit. A context that also states it in the claim's unit, or never
in that measure, leaves it alone (``5 kg (11 lb)`` restates; a bare ``5`` agrees with any).
The rule reads the text only near its numbers, so it costs nothing for a claim without one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from functools import lru_cache

__all__ = ["measure_problem"]

# unit written → (measure, canonical unit); longer forms are tried first by the pattern.
_UNITS: dict[str, tuple[str, str]] = {
    **dict.fromkeys(["kg", "kgs", "kilogram", "kilograms", "公斤", "千克"], ("mass", "kg")),
    **dict.fromkeys(["gram", "grams", "克"], ("mass", "g")),
    **dict.fromkeys(["lb", "lbs", "pound", "pounds", "磅"], ("mass", "lb")),
    **dict.fromkeys(["oz", "ounce", "ounces", "盎司"], ("mass", "oz")),
    **dict.fromkeys(["斤"], ("mass", "斤")),
    **dict.fromkeys(
        ["km", "kilometre", "kilometres", "kilometer", "kilometers", "公里", "千米"],
        ("length", "km"),
    ),
    **dict.fromkeys(["mile", "miles", "英里"], ("length", "mile")),
    **dict.fromkeys(["metre", "metres", "meter", "meters", "米"], ("length", "m")),
    **dict.fromkeys(["cm", "厘米"], ("length", "cm")),
    **dict.fromkeys(["mm", "毫米"], ("length", "mm")),
    **dict.fromkeys(["inch", "inches", "英寸"], ("length", "in")),
    **dict.fromkeys(["ft", "foot", "feet", "英尺"], ("length", "ft")),
    **dict.fromkeys(["kb"], ("data", "KB")),
    **dict.fromkeys(["mb"], ("data", "MB")),
    **dict.fromkeys(["gb"], ("data", "GB")),
    **dict.fromkeys(["tb"], ("data", "TB")),
    **dict.fromkeys(
        ["ml", "millilitre", "millilitres", "milliliter", "milliliters", "毫升"], ("volume", "ml")
    ),
    **dict.fromkeys(["litre", "litres", "liter", "liters", "升"], ("volume", "l")),
}
_ALTERNATION = "|".join(sorted((re.escape(u) for u in _UNITS), key=len, reverse=True))
# number, then an optional price word and "/", "per" or 每 (a rate), then the unit.
_MEASURE = re.compile(
    r"(?<![\d.,])(?P<n>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s?"
    r"(?:(?P<price>元|美元|港元|欧元|英镑|usd|eur|gbp|cny|rmb|dollars?|euros?)\s?"
    r"(?:/|per\s|每|a\s)\s?|(?P<per>/|per\s|每)\s?)?"
    rf"(?P<unit>{_ALTERNATION})(?![A-Za-z])",
    re.IGNORECASE,
)
_HAS_DIGIT = re.compile(r"\d")


@lru_cache(maxsize=4096)
def _measures(text: str) -> tuple[tuple[Decimal, str, bool, str], ...]:
    """(number, measure, rate, unit) of each measured number of ``text``."""
    out = []
    for m in _MEASURE.finditer(text):
        try:
            value = Decimal(m.group("n").replace(",", ""))
        except InvalidOperation:  # pragma: no cover - the pattern admits numbers only
            continue
        measure, unit = _UNITS[m.group("unit").lower()]
        rate = m.group("price") is not None or m.group("per") is not None
        out.append((value, measure, rate, unit))
    return tuple(out)


def measure_problem(claim: str, contexts: Sequence[str], label: str) -> str | None:
    """A reason when a number of ``claim`` is in the contexts, in the same measure, only
    with another unit (5磅 where they say 5公斤; 5元/MB where they say 5元/GB)."""
    if _HAS_DIGIT.search(claim) is None:
        return None
    claimed = _measures(claim)
    if not claimed:
        return None
    said = [m for text in contexts for m in _measures(text)]
    for value, measure, rate, unit in claimed:
        units = {u for v, ms, r, u in said if v == value and ms == measure and r == rate}
        if units and unit not in units:
            other = sorted(units)[0]
            return f"{value} {unit} where {label} say {value} {other} (another unit)"
    return None

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

from .numerals import numbers_with_units

__all__ = ["counted_elsewhere", "measure_problem"]

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


# What a Chinese number counts (2件物品, 2次, 3个): a measure word right after it.
_CJK_COUNTERS = frozenset("件次个项张名位台辆份间晚家人款条种套")


_CLAUSE = re.compile(r"[。；;!?！？\n]|\.(?:\s|$)")
_WORD = re.compile(r"[A-Za-z]+|[\u3400-\u4dbf\u4e00-\u9fff]")


def _words(text: str) -> frozenset[str]:
    """Words of ``text`` for an overlap: lower-case English words, Chinese characters."""
    return frozenset(w.lower() for w in _WORD.findall(text))


def _counted(text: str) -> dict[str, set[Decimal]]:
    """The numbers of ``text`` by what they count: {件: {1}, item: {2}}."""
    out: dict[str, set[Decimal]] = {}
    for forms, (word, _) in numbers_with_units(text):
        if word in _CJK_COUNTERS or (word.isascii() and word.isalpha() and len(word) > 2):
            out.setdefault(word, set()).update(forms)
    return out


def counted_elsewhere(claim: str, matched: str, contexts: Sequence[str], label: str) -> str | None:
    """A reason when the sentence ``claim`` copies counts the same thing with another
    number, and the claim's number is the one the contexts give another subject:
    ``经济舱旅客每人可随身携带2件物品`` where its sentence says 经济舱 … 1件 and 2件 is
    头等舱和公务舱's. A claim that also states the sentence's number (经济舱1件，公务舱2件)
    combines two facts and is left alone."""
    if _HAS_DIGIT.search(claim) is None:
        return None
    claimed = _counted(claim)
    if not claimed:
        return None
    said = _counted(matched)
    every = {n for forms, _ in numbers_with_units(matched) for n in forms}
    for word, numbers in claimed.items():
        own = said.get(word)
        if not own or not own.isdisjoint(numbers) or not numbers.isdisjoint(every):
            continue  # the number is in its sentence at all ("8 to 24 hours" in "24 to 48")
        # The sentences that give the claim's number to this thing: none may hold a word
        # of the claim its own sentence lacks (经济舱 is in the 1件 one only); one that
        # does names the claim's subject, and was its source.
        holding = [
            c for t in contexts for c in _CLAUSE.split(t) if numbers <= _counted(c).get(word, set())
        ]
        if not holding:
            continue
        words, own_words = _words(claim), _words(matched)
        if any(words & _words(c) - own_words for c in holding):
            continue  # "part-time staff accrue 15 days": that sentence names "part"
        if words & own_words:
            shown = ", ".join(sorted(f"{n:f}".rstrip("0").rstrip(".") for n in own))
            return (
                f"its sentence in {label} counts {word} as {shown}; the claim's number is another's"
            )
    return None

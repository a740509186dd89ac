"""How a pattern's ``match`` can begin: a set look-up that spares the engine most texts.

The judges test every sentence against patterns anchored at its start (meta lead-ins,
citation labels, citing words) that almost never match: the engine fails an ordinary
sentence only after trying each alternative (~1 µs for the meta patterns). A match begins
with one of a few short prefixes ("bas", "acc", "the", "sou", …), so a sentence whose
first characters are none of them cannot match, at the cost of a few set look-ups.

``Leading(pattern)`` reads the parsed pattern (``re._parser``) for the ASCII prefixes of
up to ``DEPTH`` characters its matches can begin with. It is conservative by
construction: what it does not understand (an unknown opcode, inline flags, a
back-reference, too many prefixes) turns the filter off; a look-around or an anchor is
read as matching the empty string (that only widens the set); which ASCII characters a
one-character item matches is asked of the engine itself under the pattern's own flags,
so case folding is the engine's. A text whose first characters are not all ASCII is
always handed to the engine. tests/gates/test_leading.py checks ``may_match`` never
says no to a text the pattern matches.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

# The parser ``re`` compiles with (private: any surprise only turns the filter off).
_sre_parse: Any = importlib.import_module("re._parser")

__all__ = ["DEPTH", "Leading"]

DEPTH = 3  # characters of a text's start that are looked up
_MAX_PREFIXES = 20_000  # more than this: no filter (a class repeated at the start)
_ASCII = [chr(c) for c in range(128)]
_CATEGORIES = {
    "CATEGORY_DIGIT": r"\d",
    "CATEGORY_NOT_DIGIT": r"\D",
    "CATEGORY_SPACE": r"\s",
    "CATEGORY_NOT_SPACE": r"\S",
    "CATEGORY_WORD": r"\w",
    "CATEGORY_NOT_WORD": r"\W",
}


class _Unknown(Exception):
    """A form the reading does not follow: no filter."""


# A set of prefixes: strings of at most DEPTH characters. One shorter than DEPTH is a
# whole match (the part ends there); one of DEPTH characters is where a match begins.
_Prefixes = frozenset[str]


class Leading:
    """The prefixes of ``pattern``'s matches; ``may_match(text)`` is False only when
    ``pattern.match(text)`` is None."""

    __slots__ = ("heads", "pattern", "prefixes")

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.prefixes: _Prefixes | None = None
        self.heads: tuple[slice, ...] = ()  # the text's starts to look up
        try:
            parsed = _sre_parse.parse(pattern.pattern, pattern.flags)
            prefixes = _sequence(list(parsed), pattern.flags)
        except (_Unknown, RecursionError, TypeError, ValueError, re.error):
            return
        if "" not in prefixes:  # a pattern that can match nothing matches every text
            self.prefixes = prefixes
            self.heads = tuple(slice(0, n) for n in sorted({len(p) for p in prefixes}))

    def may_match(self, text: str) -> bool:
        prefixes = self.prefixes
        if prefixes is None:
            return True
        head = text[:DEPTH]
        if not head.isascii():
            return True
        return not prefixes.isdisjoint(map(head.__getitem__, self.heads))

    def match(self, text: str) -> re.Match[str] | None:
        """``pattern.match(text)``, the engine asked only when a match can begin there."""
        return self.pattern.match(text) if self.may_match(text) else None


def _then(first: _Prefixes, after: _Prefixes) -> _Prefixes:
    """Prefixes of a match of one part followed by another."""
    out = {p for p in first if len(p) == DEPTH}
    out.update((p + q)[:DEPTH] for p in first if len(p) < DEPTH for q in after)
    if len(out) > _MAX_PREFIXES:
        raise _Unknown
    return frozenset(out)


def _sequence(items: list[tuple[Any, Any]], flags: int) -> _Prefixes:
    out: _Prefixes = frozenset([""])
    for op, arg in items:
        if all(len(p) == DEPTH for p in out):
            break  # what follows cannot change the first DEPTH characters
        out = _then(out, _item(str(op), arg, flags))
    return out


def _item(op: str, arg: Any, flags: int) -> _Prefixes:
    if op == "LITERAL":
        return _one_character(re.escape(chr(arg)), flags)
    if op == "NOT_LITERAL":
        return _one_character("[^" + re.escape(chr(arg)) + "]", flags)
    if op == "ANY":
        return _one_character(".", flags)
    if op == "IN":
        return _one_character(_class_source(arg), flags)
    if op == "BRANCH":
        out: set[str] = set()
        for branch in arg[1]:
            out |= _sequence(list(branch), flags)
        return frozenset(out)
    if op == "SUBPATTERN":
        _group, add_flags, del_flags, body = arg
        if add_flags or del_flags:  # (?i:…) and the like: not followed
            raise _Unknown
        return _sequence(list(body), flags)
    if op == "ATOMIC_GROUP":
        return _sequence(list(arg), flags)
    if op in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        low, high, body = arg
        return _repeat(low, high, _sequence(list(body), flags))
    if op in ("AT", "ASSERT", "ASSERT_NOT"):
        return frozenset([""])  # zero-width: ignoring what it demands only widens the set
    raise _Unknown(op)  # a back-reference, a conditional, …


def _repeat(low: int, high: int, body: _Prefixes) -> _Prefixes:
    """Prefixes of ``body`` repeated ``low`` to ``high`` times (a superset: counts below
    ``low`` are kept too, except none at all when ``low`` > 0)."""
    out: set[str] = {""} if low == 0 else set()
    current: _Prefixes = frozenset([""])
    for _ in range(min(high, DEPTH + 1)):
        current = _then(current, body)
        if current <= out:
            break  # nothing new: more repetitions add nothing either
        out |= current
    return frozenset(out)


def _class_source(items: list[tuple[Any, Any]]) -> str:
    """A character class written back from its parsed items."""
    parts: list[str] = []
    for op, arg in items:
        kind = str(op)
        if kind == "NEGATE":
            parts.insert(0, "^")
        elif kind == "LITERAL":
            parts.append(re.escape(chr(arg)))
        elif kind == "RANGE":
            parts.append(re.escape(chr(arg[0])) + "-" + re.escape(chr(arg[1])))
        elif kind == "CATEGORY" and str(arg) in _CATEGORIES:
            parts.append(_CATEGORIES[str(arg)])
        else:
            raise _Unknown(kind)
    return "[" + "".join(parts) + "]"


def _one_character(source: str, flags: int) -> _Prefixes:
    """The ASCII characters the one-character pattern ``source`` matches, as the engine
    matches them under ``flags``."""
    one = re.compile(source, flags & ~re.VERBOSE)
    return frozenset(c for c in _ASCII if one.fullmatch(c) is not None)

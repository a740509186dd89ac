r"""How a pattern's ``match`` can begin: a set look-up that spares the engine most texts.

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

Two readings keep the sets small (and building them cheap, as every process builds
them): a case-insensitive pattern's prefixes are kept lower-cased (each item's ASCII
characters are checked to come in both cases) and the text's start is lower-cased; a
pattern opening with ``\s*`` is read without it and the text's leading ASCII whitespace
is skipped, when nothing after the ``\s*`` can begin with ASCII whitespace itself.
"""

from __future__ import annotations

import importlib
import re
from functools import lru_cache
from typing import Any

from .. import pattern_cache

# The parser ``re`` compiles with (private: any surprise only turns the filter off).
_sre_parse: Any = importlib.import_module("re._parser")

__all__ = ["DEPTH", "Leading", "first_class"]

DEPTH = 3  # characters of a text's start that are looked up
_MAX_PREFIXES = 20_000  # more than this: no filter (a class repeated at the start)
_MAX_KNOWN = 65_536  # text starts whose answer is kept, per pattern
_ASCII = [chr(c) for c in range(128)]
_ASCII_SPACE = "".join(c for c in _ASCII if c.isspace())  # what \s matches of ASCII
# ``^`` and ``\s*`` as the parser gives them (compared item by item).
_AT_BEGINNING, _SPACES = list(_sre_parse.parse(r"^\s*"))
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

    __slots__ = ("fold", "heads", "known", "pattern", "prefixes", "skip")

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.fold = bool(pattern.flags & re.IGNORECASE)  # prefixes kept lower-cased
        # The reading is a function of the pattern alone: kept beside its compiled code
        # (``pattern_cache``), since every process reads the same patterns (~10 ms).
        prefixes, skip = pattern_cache.derived("leading", __file__, pattern, _reading, _is_reading)
        self.prefixes: _Prefixes | None = prefixes
        self.skip = skip  # leading characters skipped in the text (ASCII whitespace)
        # the text's starts to look up
        self.heads: tuple[slice, ...] = (
            () if prefixes is None else tuple(slice(0, n) for n in sorted(set(map(len, prefixes))))
        )
        # may_match's answer by the text's start (DEPTH characters, skipped ones left out):
        # a sentence's start repeats far more than the sentence, and one dict look-up is
        # cheaper than the ASCII test, the folding and the prefix look-ups (bounded).
        self.known: dict[str, bool] = {}

    def may_match(self, text: str) -> bool:
        if self.prefixes is None:
            return True
        head = (text.lstrip(self.skip) if self.skip else text)[:DEPTH]
        found = self.known.get(head)
        return self._may_begin(head) if found is None else found

    def _may_begin(self, head: str) -> bool:
        """``may_match`` of a text that starts with ``head`` (kept in ``known``)."""
        prefixes = self.prefixes
        assert prefixes is not None
        start = head
        if not start.isascii():
            found = True
        else:
            if self.fold:
                start = start.lower()
            found = not prefixes.isdisjoint(map(start.__getitem__, self.heads))
        if len(self.known) < _MAX_KNOWN:
            self.known[head] = found
        return found

    def match(self, text: str) -> re.Match[str] | None:
        """``pattern.match(text)``, the engine asked only when a match can begin there."""
        if self.prefixes is not None:
            head = (text.lstrip(self.skip) if self.skip else text)[:DEPTH]
            found = self.known.get(head)
            if not (self._may_begin(head) if found is None else found):
                return None
        return self.pattern.match(text)


def _reading(pattern: re.Pattern[str]) -> tuple[_Prefixes | None, str]:
    """``pattern``'s prefixes (None: no filter) and the characters skipped before them."""
    fold = bool(pattern.flags & re.IGNORECASE)
    skip = ""
    try:
        items = list(_sre_parse.parse(pattern.pattern, pattern.flags))
        start = 1 if _same(items[:1], [_AT_BEGINNING]) else 0
        prefixes = None
        if _same(items[start : start + 1], [_SPACES]):
            rest = _sequence(items[start + 1 :], pattern.flags, fold)
            if not any(p[:1] in _ASCII_SPACE for p in rest):
                skip = _ASCII_SPACE
                prefixes = rest
        if prefixes is None:
            prefixes = _sequence(items, pattern.flags, fold)
    except (_Unknown, RecursionError, TypeError, ValueError, re.error):
        return None, ""
    # a pattern that can match nothing matches every text
    return (None if "" in prefixes else prefixes), skip


def _is_reading(value: Any) -> bool:
    """The shape of what :func:`_reading` returns (a stored value is checked)."""
    if not (isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], str)):
        return False
    prefixes = value[0]
    return prefixes is None or (
        isinstance(prefixes, frozenset) and all(isinstance(p, str) for p in prefixes)
    )


def _then(first: _Prefixes, after: _Prefixes) -> _Prefixes:
    """Prefixes of a match of one part followed by another."""
    out = {p for p in first if len(p) == DEPTH}
    out.update((p + q)[:DEPTH] for p in first if len(p) < DEPTH for q in after)
    if len(out) > _MAX_PREFIXES:
        raise _Unknown
    return frozenset(out)


def _sequence(items: list[tuple[Any, Any]], flags: int, fold: bool) -> _Prefixes:
    out: _Prefixes = frozenset([""])
    for op, arg in items:
        if all(len(p) == DEPTH for p in out):
            break  # what follows cannot change the first DEPTH characters
        out = _then(out, _item(str(op), arg, flags, fold))
    return out


def _item(op: str, arg: Any, flags: int, fold: bool) -> _Prefixes:
    if op == "LITERAL":
        return _one_character(re.escape(chr(arg)), flags, fold)
    if op == "NOT_LITERAL":
        return _one_character("[^" + re.escape(chr(arg)) + "]", flags, fold)
    if op == "ANY":
        return _one_character(".", flags, fold)
    if op == "IN":
        return _one_character(_class_source(arg), flags, fold)
    if op == "BRANCH":
        out: set[str] = set()
        for branch in arg[1]:
            out |= _sequence(list(branch), flags, fold)
        return frozenset(out)
    if op == "SUBPATTERN":
        _group, add_flags, del_flags, body = arg
        if add_flags or del_flags:  # (?i:…) and the like: not followed
            raise _Unknown
        return _sequence(list(body), flags, fold)
    if op == "ATOMIC_GROUP":
        return _sequence(list(arg), flags, fold)
    if op in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        low, high, body = arg
        return _repeat(low, high, _sequence(list(body), flags, fold))
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


def _same(items: list[tuple[Any, Any]], other: list[tuple[Any, Any]]) -> bool:
    """Parsed items compared as written out (the parser's groups compare by identity)."""
    return repr(items) == repr(other)


@lru_cache(maxsize=1024)
def _one_character(source: str, flags: int, fold: bool) -> _Prefixes:
    """The ASCII characters the one-character pattern ``source`` matches, as the engine
    matches them under ``flags``; lower-cased when ``fold`` (then each must come in both
    cases, or the pattern is not read)."""
    one = re.compile(source, flags & ~re.VERBOSE)
    found = frozenset(c for c in _ASCII if one.fullmatch(c) is not None)
    if not fold:
        return found
    if any(c.swapcase() not in found for c in found):
        raise _Unknown(source)
    return frozenset(c.lower() for c in found)


def first_class(source: str, flags: int = 0) -> str | None:
    """A character class (``[...]``) holding the first character of every match of the
    pattern ``source`` under ``flags``, or None when that cannot be read (a match may
    be empty, or begin with any character, or a form is not followed).

    Put in front of the pattern as a look-ahead, ``(?=[...])``, it changes no match (it
    only refuses a position where no match can begin) and lets the engine drop most
    positions of a searched text after one class test, instead of trying each
    alternative there. The class is the pattern's own items written back (literals,
    ranges, ``\\d``-like categories), so under the pattern's flags (case folding) it
    matches what they match. tests/gates/test_leading.py checks it never refuses a match.
    """
    try:
        parts, empty = _firsts(list(_sre_parse.parse(source, flags)))
    except (_Unknown, RecursionError, TypeError, ValueError, re.error):
        return None
    if empty or not parts:
        return None
    return "[" + "".join(dict.fromkeys(parts)) + "]"


def _firsts(items: list[tuple[Any, Any]]) -> tuple[list[str], bool]:
    """The class parts of a sequence's first characters, and whether it can match empty."""
    parts: list[str] = []
    for op, arg in items:
        found, empty = _first_of(str(op), arg)
        parts.extend(found)
        if not empty:
            return parts, False
    return parts, True


def _first_of(op: str, arg: Any) -> tuple[list[str], bool]:
    if op == "LITERAL":
        return [re.escape(chr(arg))], False
    if op == "IN":
        if any(str(item) == "NEGATE" for item, _ in arg):
            raise _Unknown(op)  # [^…]: nearly any character
        return [_class_source(arg)[1:-1]], False
    if op == "BRANCH":
        parts: list[str] = []
        empty = False
        for branch in arg[1]:
            found, may_be_empty = _firsts(list(branch))
            parts.extend(found)
            empty = empty or may_be_empty
        return parts, empty
    if op == "SUBPATTERN":
        _group, add_flags, del_flags, body = arg
        if add_flags or del_flags:  # (?i:…) and the like: not followed
            raise _Unknown
        return _firsts(list(body))
    if op == "ATOMIC_GROUP":
        return _firsts(list(arg))
    if op in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        low, high, body = arg
        if high == 0:
            return [], True
        found, empty = _firsts(list(body))
        return found, empty or low == 0
    if op in ("AT", "ASSERT", "ASSERT_NOT"):
        return [], True  # zero-width: what follows begins the match
    raise _Unknown(op)  # any character, a negated literal, a back-reference, …

"""The grouped scan of a long case-insensitive alternation finds exactly what the pattern
finds (spans, groups), on any text; where it cannot be sure, the pattern itself runs."""

from __future__ import annotations

import re
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine_action.gates import binding
from ragspine_action.gates.fastalt import FOLDS_TO_ASCII, grouped_scanner, matches

_PARTS = [
    "Hong Kong",
    "HONGKONG",
    "hong  kong",
    "South Korea",
    "korea",
    "sOuth ",
    "Mainland China",
    "china",
    "Macao",
    "agents",
    "Tied agent",
    "bancassurance",
    "FULL-TIME",
    "full time",
    "part-time",
    "Revenue",
    "sales",
    "top-line",
    "APE",
    "shape",
    "net income",
    "ROE",
    "香港",
    "印度尼西亚",
    "印度",
    "利润margin",
    "x",
    " ",
    "-",
    ".",
    "\u017f",  # long s: IGNORECASE matches it with s
    "\u212a",  # Kelvin sign: with k
    "\u0131",  # dotless i: with i
    "\u0130",  # dotted capital I: lower-cases to two characters
    "É",
    "ß",
]


def _found(pattern: re.Pattern[str], text: str) -> list[tuple[int, int, str | None]]:
    return [(m.start(), m.end(), m.lastgroup) for m in pattern.finditer(text)]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_PARTS), max_size=12))
def test_kind_words_grouped_scan_is_the_pattern(parts: list[str]) -> None:
    text = "".join(parts)
    got = [
        (m.start(), m.end(), m.lastgroup)
        for m in matches(binding._KIND_WORDS, binding._KIND_SCAN, text)
    ]
    assert got == _found(binding._KIND_WORDS, text)


def test_the_kind_words_are_scanned_grouped() -> None:
    """The binding rule's words are all regrouped (else the slow scan would be back)."""
    assert binding._KIND_SCAN is not None


def test_optional_lead_and_refusals() -> None:
    scanner = grouped_scanner([r"(?:south )?korea|sales", r"sa(?:les)?"])
    assert scanner is not None
    original = re.compile(r"(?:(?P<a>(?:south )?korea|sales)|(?P<b>sa(?:les)?))", re.I)
    for text in ["South Korea sales SA", "korea", "southkorea", "Sa"]:
        got = [(m.span(), m.lastgroup) for m in matches(original, scanner, text)]
        assert got == [(m.span(), m.lastgroup) for m in original.finditer(text)]
    assert grouped_scanner([r"\S+"]) is None  # an upper-case escape: not for lowered text
    assert grouped_scanner([r"[ab]c"]) is None  # no literal first character
    assert grouped_scanner([r"a*b"]) is None


def test_every_character_folding_to_ascii_is_known() -> None:
    """Any character IGNORECASE matches with an ASCII letter lower-cases to that letter,
    changes length when lower-cased, or is in FOLDS_TO_ASCII."""
    letter = re.compile("[a-z]", re.IGNORECASE)
    odd = []
    for code in range(128, sys.maxunicode + 1):
        ch = chr(code)
        if letter.fullmatch(ch) and not ("a" <= ch.lower() <= "z") and len(ch.lower()) == 1:
            odd.append(ch)
    assert set(odd) <= set(FOLDS_TO_ASCII)

"""gates/leading.py: the prefix filter never says no to a text its pattern matches."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine_action.gate_defaults import DEFAULT_META_PATTERNS, DEFAULT_PERIOD_PATTERNS
from ragspine_action.gates import claims as claims_module
from ragspine_action.gates.fabrication import compile_periods
from ragspine_action.gates.leading import Leading, first_class

_META = claims_module._meta_of(DEFAULT_META_PATTERNS)

# Words and marks the meta patterns are written with, and what sentences begin with.
_PARTS = [
    *"abcdefghijklmnopqrstuvwxyz",
    *"ABHIKST",
    " ",
    "\t",
    "\n",
    ".",
    ",",
    ":",
    "：",
    "!",
    "?",
    "'",
    "’",
    "\u212a",  # the Kelvin sign: K under re.IGNORECASE
    "\u017f",  # the long s: s under re.IGNORECASE
    "基于",
    "以下是",
    "您好",
    "Based on the documents",
    "based on",
    "according to the context",
    "here is what i found",
    "Here's",
    "the answer is",
    "Sure",
    "Thank you",
    "hi",
    "Hello there",
    "yes",
    "No",
    "Correct",
    "you asked about",
    "regarding your question",
    "in summary",
    "the retrieved documents state",
    "this answer",
    "disclaimer",
    "(",
    "[",
    "（",
    "source",
    "Sources",
    "references",
    "see also",
    "cf.",
    "as per",
    "please see",
    "for more details, ",
    "来源",
    "参考资料",
    "overview",
    "key",
]
_texts = st.lists(st.sampled_from(_PARTS), max_size=8).map("".join)


@settings(max_examples=1500, deadline=None)
@given(_texts)
def test_the_meta_filter_passes_every_text_the_meta_patterns_match(text: str) -> None:
    if _META.pattern.match(text) is not None:
        assert _META.may_match(text)
    found = _META.match(text)
    assert (found is None) == (_META.pattern.match(text) is None)


_FILTERED = [v for v in vars(claims_module).values() if isinstance(v, Leading)]


@settings(max_examples=1500, deadline=None)
@given(_texts)
def test_every_filtered_pattern_of_claims_finds_what_its_engine_finds(text: str) -> None:
    for leading in _FILTERED:
        assert (leading.match(text) is None) == (leading.pattern.match(text) is None), leading


def test_the_filters_agree_with_the_engine_on_the_corpus_lines() -> None:
    texts = set()
    for line in (Path(__file__).parents[1] / "data" / "judge_corpus.jsonl").open(encoding="utf-8"):
        case = json.loads(line)
        for text in [case.get("answer", ""), case.get("reference", ""), *case.get("contexts", [])]:
            for piece in text.splitlines():
                texts.update([piece, piece.strip(), *re.split(r"(?<=[.!?。])\s*", piece)])
    assert len(_FILTERED) >= 3
    for leading in [*_FILTERED, _META]:
        for text in texts:
            assert (leading.match(text) is None) == (leading.pattern.match(text) is None)


def test_the_meta_filter_spares_the_engine_ordinary_sentences() -> None:
    assert _META.prefixes is not None
    for sentence in ["Renshidar kaquenrenshi lodarshi.", "Employees accrue 25 days.", "Quen."]:
        assert not _META.may_match(sentence)
    assert _META.may_match("香港收入下降。")  # not ASCII: always asked


# Small patterns with every form the reading follows (and some it gives up on).
_PATTERN_PARTS = [
    "a",
    "b",
    "ab",
    "k",
    "s",
    "[a-c]",
    "[^a]",
    "[\\d]",
    "\\s",
    "\\w",
    ".",
    "(?:a|bc)",
    "(?:|x)",
    "x?",
    "y*",
    "(?:ab)+",
    "z{2,3}",
    "(?=a)",
    "(?!b)",
    "(?<=q)",
    "\\b",
    "^",
    "$",
    "(a)\\1",
    "(?>ab)",
    "a*+",
    "(?i:b)",
]
_SMALL_TEXTS = st.lists(st.sampled_from([*"abcxyzksq \n1", "\u212a", "\u017f", "é"]), max_size=6)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(_PATTERN_PARTS), min_size=1, max_size=4),
    st.sampled_from([0, re.IGNORECASE, re.IGNORECASE | re.MULTILINE, re.ASCII, re.DOTALL]),
    _SMALL_TEXTS.map("".join),
)
def test_the_filter_never_refuses_a_match(parts: list[str], flags: int, text: str) -> None:
    pattern = re.compile("".join(parts), flags)
    leading = Leading(pattern)
    if pattern.match(text) is not None:
        assert leading.may_match(text), (pattern, text, leading.prefixes)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(_PATTERN_PARTS), min_size=1, max_size=4),
    st.sampled_from([0, re.IGNORECASE, re.IGNORECASE | re.MULTILINE, re.ASCII, re.DOTALL]),
    _SMALL_TEXTS.map("".join),
)
def test_the_first_class_look_ahead_changes_no_match(
    parts: list[str], flags: int, text: str
) -> None:
    source = "".join(parts)
    first = first_class(source, flags)
    if first is None:
        return
    plain, ahead = re.compile(source, flags), re.compile(f"(?={first})(?:{source})", flags)
    assert [(m.span(), m.groups()) for m in plain.finditer(text)] == [
        (m.span(), m.groups()) for m in ahead.finditer(text)
    ], (source, first, text)


def test_the_first_class_of_forms_it_cannot_read_is_none() -> None:
    for source in ["x?", "(?:|x)", ".", "[^a]b", "(a)?\\1", "(?i:b)", "\\b", "a|y*"]:
        assert first_class(source) is None, source
    assert first_class("(?<![$])(?:19|20)\\d{2}|FY\\d{2}|[1-4]Q") == "[12F1-4]"


_PERIOD_TEXTS = st.lists(
    st.sampled_from(
        [
            *"0123456789 ,.-–/FYHQfyhqJjsſK",
            "FY",
            "2025",
            "25",
            "Q3",
            "1H",
            "June",
            "jan",
            "Sept",
            "30th",
            "年",
            "月",
            "日",
            "上半年",
            "第3季度",
            "至",
            "USD ",
            "百万",
            "２０２５",
        ]
    ),
    max_size=10,
).map("".join)


@settings(max_examples=1500, deadline=None)
@given(_PERIOD_TEXTS)
def test_the_periods_look_ahead_changes_no_period_found(text: str) -> None:
    periods = compile_periods(DEFAULT_PERIOD_PATTERNS)
    assert periods.pattern.startswith("(?=[")
    plain = re.compile(periods.pattern[periods.pattern.index(")") + 1 :], periods.flags)
    assert [m.span() for m in plain.finditer(text)] == [m.span() for m in periods.finditer(text)]


@settings(max_examples=300, deadline=None)
@given(st.lists(_texts, min_size=1, max_size=8))
def test_the_kept_answers_by_start_are_the_filters_own(texts: list[str]) -> None:
    # one filter asked about many texts (its answers kept by their starts) says what a
    # new filter says about each
    kept, fresh = Leading(_META.pattern), Leading(_META.pattern)
    for text in [*texts, *texts]:
        fresh.known.clear()
        assert kept.may_match(text) == fresh.may_match(text), text
        assert (kept.match(text) is None) == (_META.pattern.match(text) is None), text

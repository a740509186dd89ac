"""Terms found with str.find give the spans their patterns give (issue 25: the reference
system no longer compiles a regex per glossary or lexicon term on every run)."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ragspine_action.systems.reference import intent
from ragspine_action.systems.reference.kb import _GlossaryIndex
from ragspine_action.systems.reference.ranking import _blank, _term_pattern, _term_spans
from ragspine_action.systems.reference.text import (
    PLURAL,
    literal_spans,
    one_word,
    phrase_spans,
    phrase_words,
    word_spans,
)

# Letters that make suffixes and boundaries interesting: plurals, digits, upper case (not a
# boundary for the lower-case class), separators, punctuation, Chinese, NUL (masking).
ALPHABET = [*"aesrsz09AE .-_'&", "营", "收", "\x00", "\t", "\n", "\u00a0", "\u3000"]
WORD = st.text(alphabet=st.sampled_from([*"aesrz09.&'", "营"]), min_size=1, max_size=5)
TEXT = st.text(alphabet=st.sampled_from(ALPHABET), max_size=40)


def _regex_spans(pattern: str, text: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(pattern, text)]


@settings(max_examples=600, deadline=None)
@given(WORD, TEXT, st.sampled_from([("",), PLURAL]))
@example("rate", "rates rate rated ratees xrate rate9", PLURAL)
@example("es", "eses es ses", PLURAL)
@example("a", "aaa a aa", ("",))
@example("s", "ss s", PLURAL)
def test_word_spans_are_the_patterns_spans(word: str, text: str, suffixes: tuple[str, ...]) -> None:
    suffix = "" if suffixes == ("",) else "(?:e?s)?"
    pattern = rf"(?<![a-z0-9]){re.escape(word)}{suffix}(?![a-z0-9])"
    assert word_spans(text, word, suffixes) == _regex_spans(pattern, text)


@settings(max_examples=600, deadline=None)
@given(st.lists(WORD, min_size=1, max_size=3), TEXT, st.sampled_from([("",), PLURAL]))
@example(
    ["climate", "risk"], "climate risks, climate-risk, climate \u00a0- risk, climaterisk", PLURAL
)
@example(["a", "a"], "a a a  a-a", ("",))
@example(["net", "profit"], "net\tprofit net\nprofit net -profit", ("",))
def test_phrase_spans_are_the_patterns_spans(
    words: list[str], text: str, suffixes: tuple[str, ...]
) -> None:
    """Words joined by ``[\\s\\-]+`` (any Unicode space, tabs, line breaks, hyphens)."""
    suffix = "" if suffixes == ("",) else "(?:e?s)?"
    body = r"[\s\-]+".join(re.escape(w) for w in words)
    pattern = rf"(?<![a-z0-9]){body}{suffix}(?![a-z0-9])"
    assert phrase_spans(text, tuple(words), suffixes) == _regex_spans(pattern, text)


def test_phrase_words_are_the_patterns_words() -> None:
    assert phrase_words("net profit") == ("net", "profit")
    assert phrase_words("pre-tax  profit") == ("pre", "tax", "profit")
    assert phrase_words(" net") is None and phrase_words("net-") is None
    assert phrase_words("") is None and phrase_words("roe") == ("roe",)


@settings(max_examples=400, deadline=None)
@given(WORD, TEXT)
@example("aa", "aaaaa")
@example("营收", "营收营收营")
def test_literal_spans_are_finditers(literal: str, text: str) -> None:
    assert literal_spans(text, literal) == _regex_spans(re.escape(literal), text)


def test_an_empty_term_is_refused_not_looped_on() -> None:
    with pytest.raises(ValueError):
        word_spans("abc", "")
    with pytest.raises(ValueError):
        literal_spans("abc", "")
    with pytest.raises(ValueError):
        phrase_spans("a b", ("a", ""))
    assert not one_word("") and not one_word("net profit") and not one_word("pre-tax")
    assert one_word("roe") and one_word("s&p")


TERM = st.text(alphabet=st.sampled_from([*"aesrz09 -.&'", "营"]), min_size=1, max_size=8).filter(
    str.strip
)


@settings(max_examples=400, deadline=None)
@given(TERM, TEXT)
@example("margin", "margins, margines and margin")
@example("net profit", "net-profit and net  profit")
@example("rates", "rates rateses")
def test_ranking_terms_give_their_patterns_spans(term: str, text: str) -> None:
    """One-word terms take the str.find path, others keep the pattern: both as it was."""
    expected = [m.span() for m in _term_pattern(term).finditer(text)]
    assert _term_spans(term, text) == expected
    assert _blank(text, expected) == _term_pattern(term).sub(lambda m: " " * len(m[0]), text)


@settings(max_examples=300, deadline=None)
@given(st.lists(TERM, min_size=1, max_size=6), TEXT)
@example(["rbc", "hk rbc"], "the hk rbc regime, rbcs")
def test_glossary_terms_are_found_as_their_patterns_find_them(terms: list[str], text: str) -> None:
    glossary = sorted({(t.lower(), f"x{i}") for i, t in enumerate(terms)})
    index = _GlossaryIndex(glossary)
    lowered = text.lower()
    for i, (term, _) in enumerate(glossary):
        if term.isascii():
            pattern = rf"(?<![a-z0-9]){re.escape(term)}(?![a-z0-9])"
            assert index._contains(i, lowered) == (re.search(pattern, lowered) is not None)


@settings(max_examples=400, deadline=None)
@given(st.lists(TERM, min_size=1, max_size=6), TEXT)
@example(["Net Profit", "profit", "营收"], "NET-Profit rose, 营收营收")
@example(["rates", "rate"], "rates rate")
def test_intent_term_spans_are_the_patterns_spans(terms: list[str], text: str) -> None:
    """The term index's spans, on the text and on the lower-cased text, are the
    IGNORECASE (or literal) pattern's and the lower-case pattern's."""
    index = intent._TermIndex([(t, t) for t in terms])
    in_place = intent._lowers_in_place(text)
    for i, (term, _) in enumerate(index.pairs):
        assert index.finditer(i, text, None) == [m.span() for m in index.pattern(i).finditer(text)]
        if in_place and term.isascii():
            lower = intent._lower_regex(term)
            assert index.finditer(i, text, text.lower()) == [
                m.span() for m in lower.finditer(text.lower())
            ]

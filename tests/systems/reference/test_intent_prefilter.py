"""The term prefilter may only skip a term that cannot match: never a missed match."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ragspine_action.systems.reference import intent

ALPHABET = [*"abkisKIS09 -", "\u0130", "\u0131", "\u017f", "\u212a", "营", "收"]
TERM = st.text(alphabet=st.sampled_from(ALPHABET), min_size=1, max_size=8).filter(str.strip)
TEXT = st.text(alphabet=st.sampled_from([*ALPHABET, ".", "?"]), max_size=40)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(TERM, TEXT)
@example("kis", "the \u212aIS ratio")  # Kelvin sign folds to k
@example("sk", "a \u017fk b")  # long s folds to s
@example("net profit", "NET-Profit rose")
@example("营收", "今年营收多少")
def test_a_term_the_regex_finds_is_never_filtered_out(term: str, text: str) -> None:
    if intent._term_regex(term).search(text):
        assert intent._may_match(term, text, text.lower())


def test_the_filter_does_skip_absent_ascii_terms() -> None:
    assert not intent._may_match("revenue", "What was the net profit in 2024?", "what was the")
    assert not intent._may_match("营收", "净利润是多少", "净利润是多少")


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(st.lists(TERM, min_size=1, max_size=6), TEXT)
@example(["net profit", "profit"], "NET-Profit rose")
@example(["kis"], "the \u212aIS ratio")
@example(["营收", "top-line"], "今年营收 top-line")
def test_the_term_index_never_drops_a_term_that_matches(terms: list[str], text: str) -> None:
    """The compiled index (first-word lookup) proposes every term whose pattern matches."""
    index = intent._TermIndex([(t, t) for t in terms])
    proposed = {index.pairs[i][0] for i in index.candidates(text)}
    for term in terms:
        if intent._term_regex(term).search(text):
            assert term in proposed, (term, text)


def test_the_term_index_skips_terms_that_cannot_match() -> None:
    index = intent._TermIndex([(t, t) for t in ("revenue", "net profit", "营收", "s&p")])
    assert [index.pairs[i][0] for i in index.candidates("What was the net profit?")] == [
        "net profit"
    ]


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(st.lists(TERM, min_size=1, max_size=6), TEXT)
@example(["Net Profit", "profit"], "NET-Profit rose")
@example(["kis"], "the \u212aIS ratio")
@example(["i"], "\u0130 i I")
def test_lower_case_matching_masks_exactly_what_ignorecase_does(
    terms: list[str], text: str
) -> None:
    """The fast path (lower-case patterns on lower-cased text) finds and masks the same
    spans as the IGNORECASE patterns on the original text."""
    index = intent._TermIndex([(t, t) for t in terms])
    fast = intent._Masked(text)
    got = fast.take_index(index)
    slow = intent._Masked(text)
    expected: list[tuple[int, str]] = []
    for i in index.candidates(text):
        expected.extend((m.start(), index.pairs[i][1]) for m in slow.take(index.pattern(i)))
    assert got == sorted(expected) and fast.text == slow.text

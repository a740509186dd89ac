"""Work kept per distinct text (claim pieces, verdicts) never changes a result: the same
answers give the same claims and verdicts with the caches cold, warm, or warmed by other
cases with other doc names, questions and values."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine_action.gates import claims as claims_module
from ragspine_action.gates import judge as judge_module
from ragspine_action.gates.claims import extract_claims
from ragspine_action.gates.judge import LexicalJudge
from ragspine_action.gates.numerals import has_digit

# Pieces of ugly answers: citations, meta lines, doc names, questions, numbers, CJK.
_PIECES = [
    "Staff get 20 days of leave.",
    "Staff get 25 days of leave.",
    "Based on the retrieved documents, staff get 20 days of leave.",
    "Sure! The policy does not allow carry-over.",
    "See Handbook.pdf p. 3.",
    "Handbook.pdf",
    "(source: Handbook.pdf, p. 3)",
    "[1]",
    "The allowance doubles abroad (this also voids the warranty).",
    "Revenue was 11,576.9 USD_M in FY2025.",
    "What is the leave policy?",
    "Key points:",
    "Sources:",
    "- Employee Handbook (p. 3)",
    "休假为二十天。",
    "根据检索到的资料，员工有20天年假。",
    "It was 12 USD_M, up from 10 USD_M.",
    "Details are in report.pdf for all permanent staff members.",
    "Employee Handbook",
    "e.g. this one.",
    "**Note**: managers may approve more.",
]
_NAMES = ["Handbook.pdf", "report.pdf", "Employee Handbook", "DOC_1.pdf", ""]
_QUESTIONS = ["", "What is the leave policy?", "How many days of leave do staff get?"]


@st.composite
def _cases(draw: st.DrawFn) -> dict[str, Any]:
    lines = draw(st.lists(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=3), max_size=4))
    value = draw(st.sampled_from([None, 11576.9, 12.0, 20.0]))
    return {
        "answer": "\n".join(" ".join(line) for line in lines),
        "sources": draw(st.lists(st.sampled_from(_NAMES), max_size=3)),
        "question": draw(st.sampled_from(_QUESTIONS)),
        "value": value,
        "unit": "USD_M" if value is not None else None,
    }


def _cold(case: dict[str, Any]) -> list[Any]:
    claims_module._PIECES.clear()
    return extract_claims(**case)


@settings(max_examples=300, deadline=None)
@given(st.lists(_cases(), min_size=2, max_size=6))
def test_claims_are_the_same_with_the_piece_cache_warm(cases: list[dict[str, Any]]) -> None:
    cold = [_cold(case) for case in cases]
    claims_module._PIECES.clear()
    for _ in range(2):  # the second round runs on a cache the first (other cases) filled
        warm = [extract_claims(**case) for case in cases]
        assert warm == cold


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(_PIECES), min_size=1, max_size=4),
    st.lists(st.sampled_from(_PIECES), min_size=1, max_size=3),
)
def test_verdicts_are_the_same_with_the_verdict_cache_warm(
    claims: list[str], contexts: list[str]
) -> None:
    judge = LexicalJudge()
    judge_module._VERDICTS.clear()
    cold = judge.judge_claims(claims, contexts)
    again = judge.judge_claims(list(claims), list(contexts))
    assert again == cold
    other = LexicalJudge(threshold=0.9)  # the threshold is part of what a verdict depends on
    judge_module._VERDICTS.clear()
    strict = other.judge_claims(claims, contexts)
    judge.judge_claims(claims, contexts)
    assert other.judge_claims(claims, contexts) == strict


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=40))
def test_echo_key_of_ascii_text_is_the_pattern_s(text: str) -> None:
    assert claims_module._echo_key(text) == claims_module._ECHO_NORMAL.sub("", text.lower())
    assert claims_module._echo_key(text + "é") == claims_module._ECHO_NORMAL.sub(
        "", (text + "é").lower()
    )


def _reference_without_names(text: str, names: list[str], mark: str) -> tuple[str, bool]:
    """The doc-name removal as first written: one pattern compiled per set of names."""
    import re

    found = False
    for name in names:
        # as a whole word: not inside a longer ASCII word (a source "doc" is no "doctor")
        before = r"(?<![A-Za-z0-9_])" if re.match(r"[A-Za-z0-9_]", name[0], re.ASCII) else ""
        after = r"(?![A-Za-z0-9_])" if re.match(r"[A-Za-z0-9_]", name[-1], re.ASCII) else ""
        text, n = re.subn(before + re.escape(name) + after, lambda _: mark, text)
        found = found or n > 0
    stems: set[str] = set()
    for name in names:
        base = name.replace("\\", "/").rsplit("/", 1)[-1]
        hint = claims_module._FILE_HINT.search(base)
        stem = base[: hint.start()] if hint is not None and hint.end() == len(base) else base
        for form in (stem, " ".join(re.split(r"[_\-]+", stem))):
            form = form.strip()
            if len(form) >= 3 and not form.isdigit():
                stems.add(form)
    if names and stems:
        body = "|".join(re.escape(s) for s in sorted(stems, key=len, reverse=True))
        pattern = re.compile(
            rf"(?<![A-Za-z0-9_])(?:{body})(?![A-Za-z0-9_]|\.[A-Za-z0-9])", re.IGNORECASE
        )
        text, n = pattern.subn(mark, text)
        found = found or n > 0
    return text, found


_NAME_PARTS = ["Handbook", "handbook", "DOC_01", "Travel-Policy", "ſs", "K", "İnc", "a.pdf", "x"]


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from([*_NAME_PARTS, "Travel Policy.docx", "dir/DOC_01.pdf"]), max_size=4),
    st.lists(
        st.sampled_from([*_NAME_PARTS, " ", ".", ".pdf", "see ", "HANDBOOK", "travel policy"]),
        max_size=8,
    ),
    st.sampled_from(["\x00", " "]),
)
def test_doc_names_are_removed_as_by_one_pattern_per_set_of_names(
    names: list[str], parts: list[str], mark: str
) -> None:
    """The check that spares compiling a pattern per case never skips a stem that is
    there (any case, non-ASCII look-alikes such as ſ and the Kelvin sign included)."""
    text = "".join(parts)
    ordered = sorted(set(names), key=len, reverse=True)
    assert claims_module._without_names(text, ordered, mark) == _reference_without_names(
        text, ordered, mark
    )


_KEYED_NAMES = [
    "DOC_01.pdf",
    "dir\\DOC_02.PDF",
    "report.v2",
    "DOC_02-final.pptx",
    "2025.pdf",
    "_.pdf",
    ".pdf",
    "Travel Policy",
    "ab",
    "Q3-2025 deck.md",
]
_KEYED_PARTS = [
    "DOC 01",
    "doc_01",
    "doc-02",
    "01",
    "02 FINAL",
    "Travel",
    " policy",
    "report",
    ".v2",
    "2025",
    "q3 2025 deck",
    " ",
    ".",
    "_",
    "-",
    "\x00",
    "x",
]


@settings(max_examples=800, deadline=None)
@given(
    st.lists(st.sampled_from(_KEYED_NAMES), max_size=5),
    st.lists(st.sampled_from(_KEYED_PARTS), max_size=10),
    st.sampled_from(["\x00", " "]),
)
def test_names_skipped_by_their_key_are_never_there(
    names: list[str], parts: list[str], mark: str
) -> None:
    """The key of each name (a letter-and-digit run every stem keeps) only skips names
    that could not be removed: digits, separators, case, paths and extensions mixed."""
    text = "".join(parts)
    ordered = sorted(set(names), key=len, reverse=True)
    assert claims_module._without_names(text, ordered, mark) == _reference_without_names(
        text, ordered, mark
    )


def test_caches_shrink_while_nothing_repeats_and_grow_back(monkeypatch: Any) -> None:
    """A run whose sentences never repeat keeps small caches (their entries cost memory
    and time for nothing); once sentences repeat, the full size comes back. Claims and
    verdicts are the same at every size."""
    monkeypatch.setattr(claims_module, "_PIECES_MAX", 40)
    monkeypatch.setattr(claims_module, "_PIECES_SMALL", 4)
    monkeypatch.setattr(claims_module, "_pieces_limit", 40)
    monkeypatch.setattr(claims_module, "_piece_hits", 0)
    monkeypatch.setattr(claims_module, "_HIT_PIECES", set())
    monkeypatch.setattr(judge_module, "_VERDICTS_MAX", 40)
    monkeypatch.setattr(judge_module, "_VERDICTS_SMALL", 4)
    monkeypatch.setattr(judge_module, "_verdicts_limit", 40)
    monkeypatch.setattr(judge_module, "_verdict_hits", 0)
    claims_module._PIECES.clear()
    judge_module._VERDICTS.clear()
    judge = LexicalJudge()
    contexts = ["Staff get 20 days of leave. The policy does not allow carry-over."]

    for i in range(60):  # every sentence new
        answer = f"Staff number {i} gets leave. Item {i} is new."
        extract_claims(answer)
        judge.judge_claims([answer], contexts)
    assert claims_module._pieces_limit == 4
    assert judge_module._verdicts_limit == 4
    repeated = "Staff get 20 days of leave. The policy does not allow carry-over."
    for _ in range(12):  # the same answer again and again
        claims = extract_claims(repeated)
        verdicts = judge.judge_claims([c.text for c in claims], contexts)
    assert claims_module._pieces_limit == 40
    assert judge_module._verdicts_limit == 40
    claims_module._PIECES.clear()
    judge_module._VERDICTS.clear()
    assert extract_claims(repeated) == claims
    assert judge.judge_claims([c.text for c in claims], contexts) == verdicts


def test_one_piece_found_in_every_case_keeps_the_cache_small(monkeypatch: Any) -> None:
    """A set whose answers all end "Source: <doc>" but never repeat a sentence: the one
    piece found again and again does not make the cache worth its full size."""
    monkeypatch.setattr(claims_module, "_PIECES_MAX", 400)
    monkeypatch.setattr(claims_module, "_PIECES_SMALL", 40)
    monkeypatch.setattr(claims_module, "_pieces_limit", 400)
    monkeypatch.setattr(claims_module, "_piece_hits", 0)
    monkeypatch.setattr(claims_module, "_HIT_PIECES", set())
    claims_module._PIECES.clear()
    for i in range(120):
        doc = f"DOC_{i}.pdf"
        said = [f"Staff number {i} gets {k} days of leave." for k in range(10)]
        claims = extract_claims(" ".join(said) + f"\nSource: {doc}", sources=[doc])
        assert [c.text for c in claims] == said
    assert claims_module._pieces_limit == 40
    claims_module._PIECES.clear()


_MARKED_PARTS = [
    "\x00",
    "Source",
    "sources",
    "REFS",
    "Citation",
    "cf",
    "ſource",
    "资料来源",
    "来源",
    "参见",
    "x",
    "e",
    " ",
    "  ",
    "\t",
    "\n",
    ".",
    ":",
    "：",
    ",",
    "(",
    ")",
    "_",
    "3",
    "p. 3",
    "slide=6",
    "#para1",
    "第3页",
    "\u212a",
]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_MARKED_PARTS), max_size=14))
def test_marked_citations_removed_as_by_one_substitution(parts: list[str]) -> None:
    """Searching from the label run before each mark finds what ``sub`` finds scanning
    every position (labels of any case, before and after other marks)."""
    text = "".join(parts)
    assert claims_module._without_marked_citations(text) == claims_module._MARKED_CITATION.sub(
        " ", text
    )


# Sentences with every kind of whitespace and sentence end the verbatim test reads.
_SPACED_PARTS = [
    "Staff",
    "get",
    "20",
    "days",
    "休假",
    " ",
    "  ",
    "\t",
    "\n",
    "\u3000",
    ".",
    "。",
    "?",
    ";",
    "！",
]


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(_SPACED_PARTS), max_size=12), min_size=1, max_size=3),
    st.data(),
)
def test_verbatim_asks_the_texts_as_given_before_normalising(
    parts: list[list[str]], data: st.DataObject
) -> None:
    """A sentence of a context as given is one of the whitespace-normalised context, so
    asking the texts as given first (and normalising only when that fails) finds what
    asking the normalised texts finds."""
    texts = ["".join(p) for p in parts]
    source = data.draw(st.sampled_from(texts))
    start = data.draw(st.integers(0, len(source)))
    claim = source[start : data.draw(st.integers(start, len(source)))]
    key = judge_module._key(claim)
    for text in texts:
        if judge_module._is_sentence_of(key, text):
            assert judge_module._is_sentence_of(key, judge_module._normalised(text))
    strict = any(judge_module._is_sentence_of(key, judge_module._normalised(t)) for t in texts)
    assert judge_module._Contexts(texts).verbatim(claim) == strict


@settings(max_examples=1000, deadline=None)
@given(
    st.text(alphabet=st.sampled_from([*"ab 7.,", "０", "٣", "²", "①", "一", "\u212a"]), max_size=20)
)
def test_has_digit_is_the_digit_pattern(text: str) -> None:
    """ASCII text is scanned for the ten digits, other text by ``\\d``: the same answer
    (superscripts and circled numbers are no ``\\d``; full-width and Arabic-Indic are)."""
    assert has_digit(text) == (re.search(r"\d", text) is not None)
    assert has_digit(text + "x") == (re.search(r"\d", text + "x") is not None)


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "the",
                "The",
                "of",
                "leave",
                "Staff",
                "20",
                "a1",
                "-",
                ",",
                " ",
                "\t",
                "(",
                "é",
                "休",
                "don't",
            ]
        ),
        max_size=6,
    )
)
def test_has_content_by_its_first_word_is_the_token_scan(words: list[str]) -> None:
    """An ASCII text whose first word is all letters and digits and no stopword has
    content, as the token scan finds; any other text is scanned."""
    text = "".join(words)
    strict = any(
        m.group() not in claims_module.STOPWORDS for m in claims_module.TOKEN.finditer(text.lower())
    )
    assert claims_module.has_content(text) == strict


def test_reasons_list_numbers_the_same_way_in_every_process() -> None:
    """Number words and multipliers are listed in the claim's order, not a set's (which
    changes with the hash seed: worker processes of one run would disagree)."""
    script = (
        "from ragspine_action.gates.judge import LexicalJudge\n"
        "v = LexicalJudge().judge_reference('Performance reviews of all staff take place twice "
        "a year in June and December at the head office.', 'Performance reviews of all staff "
        "take place four times a year at the head office.', 0.6)\n"
        "print([c.reason for c in v.claims])\n"
    )
    seen = {
        subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in range(4)
    }
    assert len(seen) == 1, seen
    assert "numbers not in the answer: twice, june, december" in seen.pop()

"""Speed shortcuts of the judges give what the slow form they replace gives, on any text
(issue 14: no slowdown, and no verdict may move for it)."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from ragspine_action.gates.cause import (
    _CAUSE_LABEL_TEXT,
    has_cause_label,
    may_cause,
    may_cause_text,
)
from ragspine_action.gates.claims import (
    _ASCII_TOKEN,
    _EMPHASIS,
    _LOCATE_WORDS,
    _MARKED_CITATION,
    _ascii_runs,
    _may_locate,
    _without_marked_citations,
    tokenize,
)
from ragspine_action.gates.fabrication import detect_fabricated_numbers

# Words and marks the shortcuts read, mixed with ordinary text.
_BITS = [
    "Revenue fell",
    " because ",
    "Because",
    " due to ",
    "DUE",
    "which means",
    "can't",
    "don't",
    "isn't",
    "'",
    "’",
    "\n",
    "\r\n",
    ":",
    "：",
    "Cause: ",
    "- **Reasons:** ",
    "Main drivers: ",
    "原因：",
    "主要原因：",
    "由于",
    "导致",
    "收入下降",
    " ",
    "  ",
    "\t",
    "results",
    "back",
    "x",
    "12%",
    ".",
    "**",
]
_TEXTS = st.lists(st.sampled_from(_BITS), max_size=12).map("".join) | st.text(max_size=40)
_LABEL_SEARCH = re.compile(rf"(?:^|\n){_CAUSE_LABEL_TEXT}\S", re.IGNORECASE)


@settings(max_examples=400, deadline=None)
@given(_TEXTS)
@example("Profit fell.\nCause: weak demand")
@example("Cause:x")
@example("\nCause: x")
@example("Revenue fell because of costs.")
@example("It didn't result in losses.")
def test_cause_shortcuts_agree_with_the_slow_forms(text: str) -> None:
    assert has_cause_label(text) == (_LABEL_SEARCH.search(text) is not None)
    assert may_cause_text(text) == may_cause(text, tokenize(text))


def test_the_cause_shortcuts_see_what_they_look_for() -> None:
    assert has_cause_label("Profit fell.\n- **Cause:** weak demand")
    assert not has_cause_label("Profit fell. Cause: weak demand")  # not at a line start
    assert may_cause_text("Revenue fell, which means lower margins.")
    assert not may_cause_text("Revenue fell by 3% in 2024.")


def test_fabrication_reads_a_text_again_under_other_period_patterns() -> None:
    from ragspine_action.gates.fabrication import DEFAULT_PERIOD_PATTERNS

    text = "No data for FY2031; roughly 1,200 staff in 2024."
    assert detect_fabricated_numbers(text) == ["1,200"]
    only_fy = (r"FY\d{4}",)  # the year 2024 is no period under these patterns
    assert detect_fabricated_numbers(text, only_fy) == ["1,200", "2024"]
    assert detect_fabricated_numbers(text, only_fy) == ["1,200", "2024"]  # kept
    assert detect_fabricated_numbers(text, DEFAULT_PERIOD_PATTERNS) == ["1,200"]
    found = detect_fabricated_numbers(text)
    found.append("x")  # the caller's own list: what is kept does not change
    assert detect_fabricated_numbers(text) == ["1,200"]


_EMPHASIS_AS_WRITTEN = re.compile(
    r"\*\*|__|(?<!\w)\*(?=\S)|(?<=\S)\*(?!\w)|(?<![\w_])_(?=[^\s_])|(?<=[^\s_])_(?![\w_])"
)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="*_ a1.:-\n香", max_size=30) | _TEXTS)
@example("_Source: Travel_Expense_Policy.pdf, page 3_")
@example("**Revenue** rose *sharply* in DOC_00247.pdf__")
def test_emphasis_marks_are_found_as_the_pattern_as_written_finds_them(text: str) -> None:
    assert _EMPHASIS.sub("", text) == _EMPHASIS_AS_WRITTEN.sub("", text)


def _may_locate_as_written(line: str) -> bool:
    """claims._may_locate before its look at the characters right before each digit."""
    if "§" in line:
        return True
    if not re.search(r"\d", line):
        return False
    if not line.isascii() and re.search(r"\d\s*[节章条款]", line) is not None:
        return True
    for m in re.finditer(r"\d+", line):
        word = re.search(r"([a-z]+)\.?\s?$", line[max(0, m.start() - 12) : m.start()].lower())
        if word is not None and word.group(1) in _LOCATE_WORDS:
            return True
    return False


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="sec.Ss 12,\n\t§第条xA", max_size=24) | _TEXTS)
@example("see sec. 3")
@example("Sec 4.2 applies")
@example("as in s.\n5")
@example("sec \n5")
@example("It was 17,473.5 HKD_M in FY2025")
def test_may_locate_agrees_with_the_scan_of_every_digit(line: str) -> None:
    assert _may_locate(line) == _may_locate_as_written(line)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=40) | _TEXTS)
@example("Revenue rose 8% (to 1,702), isn't it?\tYes_no 3.5x")
def test_ascii_tokens_are_the_letter_and_digit_runs(text: str) -> None:
    lowered = text.lower()
    if lowered.isascii():
        assert _ascii_runs(lowered) == _ASCII_TOKEN.findall(lowered)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["Source: ", "来源：", "refs. ", " ", "p. 3", ", slide=5", "\x00", "x", "."]
        ),
        max_size=8,
    ).map("".join)
)
@example("Source: \x00")
@example("See Source:\x00")
@example("\x00")
@example("A \x00 p. 3 and source: \x00")
def test_marked_citations_go_as_the_whole_pattern_removes_them(text: str) -> None:
    assert _without_marked_citations(text) == _MARKED_CITATION.sub(" ", text)

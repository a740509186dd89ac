"""The terminal's metric table is tabulate's "simple" table, byte for byte (issue 25: the
bundled run no longer imports tabulate for it)."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st
from tabulate import tabulate

from ragspine_action.report.render_terminal import HEADERS, simple_table

# The characters the fast path takes, and some it must hand to tabulate: a colour code,
# line breaks, a tab, Chinese (two columns wide with wcwidth), a lone SEPARATING_LINE mark.
CELL = st.lists(
    st.sampled_from([*"ab 09.%-+[],()", "—", "±", "−", "Δ", "True", "False"]), max_size=8
).map("".join)
ODD_CELL = st.lists(
    st.sampled_from([*"ab ", "\x1b[31m", "\x1b[0m", "\n", "\r", "\t", "营收", "\x01"]),
    max_size=6,
).map("".join)


def _tabulate(rows: list[list[str]], headers: list[str]) -> str:
    return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(CELL, min_size=7, max_size=7), max_size=6))
@example([["faithfulness", "100.0%", "93.8%", "15/16", "-6.2 pp", "[-18.8, 0.0]", "FAIL"]])
@example([["  padded  ", "", "", "", "", "", ""]])
@example([["True", "False", "", "—", "±0", "Δ", "x"]])
def test_the_metric_table_is_tabulates(rows: list[list[str]]) -> None:
    assert simple_table(rows, HEADERS) == _tabulate(rows, HEADERS)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(st.one_of(CELL, ODD_CELL), min_size=3, max_size=3), max_size=4),
    st.lists(st.one_of(CELL, ODD_CELL), min_size=3, max_size=3),
)
@example([["a\nb", "营收", "\x1b[31mFAIL\x1b[0m"]], ["x", "y", "z"])
@example([], ["metric", "now", "Δ"])
def test_any_other_table_is_tabulates_too(rows: list[list[str]], headers: list[str]) -> None:
    assert simple_table(rows, headers) == _tabulate(rows, headers)

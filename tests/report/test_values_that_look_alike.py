"""Values that differ but would read the same are shown as JSON literals in every view.

``5`` against ``"5"`` (a string is not a number) or ``Revenue`` against ``Revenue `` fail
a gate; shown bare, the reader sees ``expected 5, got 5``. Quotes show the difference.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragspine_action.cli import main as cli_main
from ragspine_action.render import render_report
from ragspine_action.report.read import read_report
from ragspine_action.report.view import compact_pair


@pytest.mark.parametrize(
    ("expected", "actual", "shown"),
    [
        (5, "5", ("5", '"5"')),
        ("Revenue", "Revenue ", ('"Revenue"', '"Revenue "')),
        ("a  b", "a b", ('"a  b"', '"a b"')),
        (None, "—", ("null", '"—"')),
        (["x"], "[x]", ('["x"]', '"[x]"')),
        (1702, 1700, ("1702", "1700")),  # different already: shown as they are
        ("ask_first", "none", ("ask_first", "none")),
        (5, 5.0, ("5", "5")),  # equal values: nothing to tell apart
    ],
)
def test_compact_pair(expected: Any, actual: Any, shown: tuple[str, str]) -> None:
    assert compact_pair(expected, actual) == shown


def _cell(ref: str, value: Any) -> dict[str, Any]:
    return {"sheet": "S", "cell_ref": ref, "value": value, "tags": [], "merge_span": None}


def test_every_view_tells_a_string_from_a_number(tmp_path: Path) -> None:
    truth = {"cells": [_cell("A1", 5), _cell("A2", "Revenue"), _cell("A3", 7)]}
    facts = {"cells": [_cell("A1", "5"), _cell("A2", "Revenue "), _cell("A3", 7)]}
    (tmp_path / "gt.json").write_text(json.dumps(truth), encoding="utf-8")
    (tmp_path / "facts.json").write_text(json.dumps(facts), encoding="utf-8")
    report_path = tmp_path / "r.json"
    args = ["--suite", "extraction", "--facts", str(tmp_path / "facts.json")]
    args += ["--ground-truth", str(tmp_path / "gt.json"), "--no-baseline", "--quiet"]
    cli_main([*args, "--report", str(report_path)])
    report = read_report(str(report_path))
    terminal = render_report(report, "terminal")
    assert 'S!A1: expected 5, got "5"' in terminal
    assert 'S!A2: expected "Revenue", got "Revenue "' in terminal
    markdown = render_report(report, "markdown")
    assert '| `A1` | **5** | **"5"** |' in markdown
    assert '| `A2` | **"Revenue"** | **"Revenue "** |' in markdown
    html = render_report(report, "html")
    assert "<td>5</td><td>&quot;5&quot;</td>" in html or '<td>5</td><td>"5"</td>' in html

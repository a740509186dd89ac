"""The comment's tables at GitHub's pull-request width, measured in a real Chromium.

The markdown tables of a failing comment are laid out with GitHub's table rules
(``display: block; width: max-content; max-width: 100%; overflow: auto``, 6 px × 13 px
cell padding, code at 85% in a monospace font) in a 780 px column, and the page measures
itself: no table may need a horizontal scrollbar (which hid the status column) and no
change-interval cell may wrap.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import pytest

from ragspine_action.report.read import read_report
from ragspine_action.report.render_markdown import render_markdown

PR_COLUMN_PX = 780
_CELL = re.compile(r"(?<!\\)\|")
_SPAN = re.compile(r"(`+)(.+?)\1")
_STYLE = """
body { margin: 0; font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial,
  sans-serif; }
.column { width: %dpx; }
table { display: block; width: max-content; max-width: 100%%; overflow: auto;
  border-spacing: 0; border-collapse: collapse; margin-bottom: 16px; }
td, th { padding: 6px 13px; border: 1px solid #d1d9e0; }
code { font: 85%% ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas,
  "Liberation Mono", monospace; padding: .2em .4em; }
"""
_MEASURE = """
const out = [...document.querySelectorAll('table')].map(t => ({
  scroll: t.scrollWidth, client: t.clientWidth,
  rows: [...t.querySelectorAll('tr')].map(r => [...r.children].map(c => {
    const range = document.createRange();
    range.selectNodeContents(c);
    return Math.round(range.getBoundingClientRect().height
                      / parseFloat(getComputedStyle(c).lineHeight));
  })),
}));
document.getElementById('out').textContent = JSON.stringify(out);
"""


@pytest.fixture
def chromium(missing_tool: Callable[[str], NoReturn]) -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        missing_tool("chromium is not installed (apt-get install chromium)")
    return found


def _inline(cell: str) -> str:
    """A cell's markdown as GitHub shows it: code spans, bold, escapes."""
    parts: list[str] = []
    at = 0
    for match in _SPAN.finditer(cell):
        parts.append(_prose(cell[at : match.start()]))
        inner = match.group(2)
        if len(inner) >= 2 and inner[0] == inner[-1] == " " and inner.strip():
            inner = inner[1:-1]
        parts.append(f"<code>{html.escape(inner.replace(chr(92) + '|', '|'))}</code>")
        at = match.end()
    parts.append(_prose(cell[at:]))
    return "".join(parts)


def _prose(text: str) -> str:
    text = re.sub(r"\\(.)", r"\1", html.unescape(text))
    text = html.escape(text)
    return re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)


def tables_as_html(body: str) -> list[str]:
    """Every pipe table of ``body`` as an HTML table."""
    tables: list[str] = []
    lines = body.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("|") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            rows = [lines[i]]
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(lines[i])
                i += 1
            cells = [[c.strip() for c in _CELL.split(r.strip())[1:-1]] for r in rows]
            head = "".join(f"<th>{_inline(c)}</th>" for c in cells[0])
            trs = "".join(
                "<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in row) + "</tr>"
                for row in cells[1:]
            )
            tables.append(f"<table><thead><tr>{head}</tr></thead><tbody>{trs}</tbody></table>")
        else:
            i += 1
    return tables


def fits(table: dict[str, Any]) -> bool:
    """No horizontal scrollbar, and no cell wraps (an interval reads on one line)."""
    return table["scroll"] <= table["client"] and all(
        lines <= 1 for row in table["rows"] for lines in row
    )


def measure(chromium: str, tables: list[str], tmp_path: Path) -> list[dict[str, Any]]:
    page = tmp_path / "comment.html"
    page.write_text(
        "<!doctype html><meta charset=utf-8><style>" + _STYLE % PR_COLUMN_PX + "</style>"
        f"<div class=column>{''.join(tables)}</div><pre id=out></pre>"
        f"<script>{_MEASURE}</script>",
        encoding="utf-8",
    )
    dom = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", f"--user-data-dir={tmp_path / 'profile'}",
         "--window-size=1000,2000", "--dump-dom", page.resolve().as_uri()],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout  # fmt: skip
    found = re.search(r'<pre id="out">(.*?)</pre>', dom, re.S)
    assert found is not None, dom[-500:]
    measured: list[dict[str, Any]] = json.loads(html.unescape(found.group(1)))
    return measured


def test_a_wide_table_is_caught(chromium: str, tmp_path: Path) -> None:
    """The measurement itself: the old eight-column table overflows 780 px."""
    row = "| " + " | ".join(["`clarification_appropriateness`", "100.0%", "75.0%", "6/8",
                            "−25.0 pp", "[−62.5, 0.0]", "[60.2, 88.1]%", "FAIL (baseline)"]) + " |"  # fmt: skip
    body = "\n".join(["| " + " | ".join("abcdefgh") + " |", "|" + "---|" * 8, row])
    (table,) = measure(chromium, tables_as_html(body), tmp_path)
    assert not fits(table), table


def test_the_failing_comment_fits_the_pr_column(
    failing_report: Path, chromium: str, tmp_path: Path
) -> None:
    body = render_markdown(read_report(str(failing_report)), head_sha="0123456789abcdef" * 2)
    tables = tables_as_html(body)
    assert len(tables) >= 2  # what moved, and every metric
    for table in measure(chromium, tables, tmp_path):
        assert fits(table), table


def test_the_extraction_comment_fits_the_pr_column(chromium: str, tmp_path: Path) -> None:
    from ragspine_action.cli import main

    report = tmp_path / "extraction.json"
    # the bundled fixtures' mismatches fail a run with no baseline (every fact must match)
    assert main(["--suite", "extraction", "--no-baseline", "--report", str(report), "--quiet"]) == 1
    tables = tables_as_html(render_markdown(read_report(str(report))))
    assert len(tables) >= 3  # mismatching cells per channel, and every metric
    for table in measure(chromium, tables, tmp_path):
        assert fits(table), table

"""The PR comment a reviewer reads: what changed first, ids verbatim, narrow enough for a PR."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine_action.report.model import CaseChange, Failure, Report
from ragspine_action.report.read import read_report
from ragspine_action.report.render_markdown import code_span, fenced_block, render_markdown

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hardening"))
from report_support import UGLY_IDS
from test_hostile_content import check_inert

PR_COLUMN_PX = 780
CHAR_PX = 7.5  # GitHub's 14 px sans-serif averages ~7 px a character; code is wider
CELL_PADDING_PX = 26


def _unspan(span: str) -> str:
    """What GitHub shows for a code span (CommonMark's rules, plus the table's ``\\|``)."""
    fence = re.match(r"`+", span)
    assert fence is not None
    inner = span[len(fence.group()) : len(span) - len(fence.group())]
    assert span.endswith(fence.group())
    if len(inner) >= 2 and inner[0] == inner[-1] == " " and inner.strip():
        inner = inner[1:-1]
    return inner


@given(st.text(alphabet=st.characters(blacklist_categories=["Cs", "Cc", "Cf", "Cn", "Zl", "Zp"])))
def test_a_code_span_shows_any_printable_id_exactly(text: str) -> None:
    span = code_span(text, limit=10_000)
    if not text:
        assert span == "(empty)"
        return
    assert _unspan(span) == text.replace("<!--", "\\u003c!--")
    runs = [len(r) for r in re.findall(r"`+", text)]
    assert span.startswith("`" * (max(runs, default=0) + 1))


def test_ids_reviewers_saw_mangled_appear_verbatim() -> None:
    assert code_span("my_rag") == "`my_rag`"
    assert code_span("p37_table1!A1") == "`p37_table1!A1`"
    assert code_span("a<b") == "`a<b`"
    assert code_span("x`y``z") == "```x`y``z```"
    assert code_span("`tick") == "`` `tick ``"
    assert code_span("a|b", in_table=True) == "`a\\|b`"
    assert code_span("line\nbreak\u202e") == "`line\\u000abreak\\u202e`"


def test_fenced_block_outlasts_backticks_inside() -> None:
    assert fenced_block(["echo ```x```"]) == ["````sh", "echo ```x```", "````"]


def _report(path: Path) -> Report:
    return read_report(str(path))


def test_failing_comment_leads_with_broken_cases_and_their_questions(failing_report: Path) -> None:
    body = render_markdown(_report(failing_report), head_sha="0123456789abcdef" * 2)
    lines = body.splitlines()
    assert (
        lines[0].startswith("### ❌ ragspine-eval: FAIL · head ") and "`0123456789ab`" in lines[0]
    )
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", lines[0])
    broken_at = body.index("**3 broken cases**")
    assert broken_at < body.index("metrics moved") < body.index("<details>")
    assert body.index("#### QA") < broken_at < body.index("1 of 6 cases ended in an error")
    case = body.index("- `headcount_2024` — What was ACME HK revenue in FY2025?")
    assert body.index("`numeric_accuracy`: expected **1702 USD_M**, got **1700 USD_M**") > case
    assert "_(generation stage)_" in body
    assert "- `a<b` — How much did we make last year?" in body
    assert "expected **ask_first**, got **none**" in body
    # the error case broke: its reason is said once, with the case
    said = [line for line in body.splitlines() if "HTTP 503" in line and "⚠️" not in line]
    assert len(said) == 1  # the run's warnings may quote the first error too
    # fabricated numbers by case, with the question
    assert "- ```x`y``z``` — What is ACME China ROE in FY2025?: `12.5`" in body
    # metrics moved: percentage points with the interval
    assert re.search(
        r"\| `numeric_accuracy` \| 100\.0% → 50\.0% \| −50\.0 pp \[−100\.0, 0\.0\] \| ❌ \|", body
    )
    check_inert(body, markers_allowed=0)


def test_each_fact_is_said_once(failing_report: Path) -> None:
    body = render_markdown(_report(failing_report))
    before_details = body.split("<details>")[0]
    for case_id in ("headcount_2024", "a<b"):
        assert before_details.count(f"`{case_id}`") == 1
    assert before_details.count("`numeric_accuracy` | 100.0% → 50.0%") == 1
    assert "**Regressions**" not in body and "Baseline:** regression" not in body


def _tables(body: str) -> list[list[list[str]]]:
    tables: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in [*body.splitlines(), ""]:
        if line.startswith("|"):
            cells = re.split(r"(?<!\\)\|", line.strip())[1:-1]
            current.append([c.strip() for c in cells])
        elif current:
            tables.append(current)
            current = []
    return tables


def _shown(cell: str) -> str:
    return re.sub(r"`+ ?|\\", "", cell)


def table_min_width_px(table: list[list[str]]) -> float:
    """The narrowest a table can be: each column as wide as its longest unbreakable word."""
    width = 0.0
    for column in zip(*table, strict=True):
        longest = max(len(word) for cell in column for word in _shown(cell).split(" ") or [""])
        width += longest * CHAR_PX + CELL_PADDING_PX
    return width


def table_width_px(table: list[list[str]]) -> float:
    """The width of a table whose cells do not wrap."""
    return sum(
        max(len(_shown(cell)) for cell in column) * CHAR_PX + CELL_PADDING_PX
        for column in zip(*table, strict=True)
    )


def test_every_table_fits_a_pull_request_column(failing_report: Path, tmp_path: Path) -> None:
    bodies = [render_markdown(_report(failing_report))]
    extraction = tmp_path / "ex"
    extraction.mkdir()
    bodies.append(render_markdown(_report(_extraction_report(extraction))))
    for body in bodies:
        tables = _tables(body)
        assert tables
        for table in tables:
            assert len(table[0]) <= 5, table[0]
            assert table_width_px(table) <= PR_COLUMN_PX, table[:3]
            assert table_min_width_px(table) <= PR_COLUMN_PX


def _extraction_report(tmp_path: Path) -> Path:
    from ragspine_action.cli import main

    report = tmp_path / "extraction.json"
    # the bundled fixtures' mismatches fail a run with no baseline (every fact must match)
    assert main(["--suite", "extraction", "--no-baseline", "--report", str(report), "--quiet"]) == 1
    return report


def test_extraction_shows_the_mismatching_cells(tmp_path: Path) -> None:
    body = render_markdown(_report(_extraction_report(tmp_path)))
    assert "#### Extraction · 108 facts" in body
    assert "**Mismatching cells**" in body
    assert "| `pdf` | `p37_table1` | `E4` | **-24** | **24** |" in body
    assert "| `fixtures` | `PL_FY2024` | `C4` | **1835** | **1385** |" in body
    assert "<details><summary>All metrics" in body
    check_inert(body, markers_allowed=0)


def test_a_stale_baseline_says_what_to_run_in_a_code_block(failing_report: Path) -> None:
    report = _report(failing_report)
    assert report.baseline is not None
    command = "ragspine-eval --system outcomes --mode my_rag --golden g.jsonl --update-baseline"
    stale = report.model_copy(
        update={
            "verdict": "error",
            "baseline": report.baseline.model_copy(
                update={
                    "status": "stale",
                    "message": f"b.json: baseline 'my_rag' is stale (…); re-record it with: {command}",
                    "commands": [command],
                    "values": {},
                    "regressions": [],
                    "broken": [],
                }
            ),
        }
    )
    body = render_markdown(stale)
    assert "```sh\n" + command + "\n```" in body
    assert "stale" in body and "🆕" not in body.split("<details>")[1]
    assert body.count(command) == 1
    state = body[: body.index("```sh")]
    assert state.rstrip().endswith("Re-record it on the default branch and commit the baseline:")
    assert "is stale (…)." in state and "re-record it with" not in state  # no dangling intro


def test_a_huge_failure_fits_the_comment_and_says_how_many_were_left(failing_report: Path) -> None:
    report = _report(failing_report)
    assert report.qa is not None and report.baseline is not None
    gate = report.qa.metrics["numeric_accuracy"]
    many = [Failure(id=f"case_{i}", expected=1, actual=2, question="q " * 40) for i in range(5000)]
    gate.failures = many
    report.baseline.broken = [
        CaseChange(
            key="my_rag", id=f"case_{i}", metric="numeric_accuracy", before="pass", after="fail"
        )
        for i in range(5000)
    ]
    body = render_markdown(report, limit=20_000)
    assert len(body) <= 20_000
    assert "**5,000 broken cases**" in body
    assert re.search(r"… and 4,9\d\d more", body)
    assert "<details><summary>All metrics" in body  # the metric table is never cut
    assert body.count("<details>") == body.count("</details>")


@pytest.mark.parametrize("case_id", UGLY_IDS)
def test_ids_in_the_comment_are_the_ids(failing_report: Path, case_id: str) -> None:
    """Every failing case's id is in the body exactly as written (inside a code span)."""
    body = render_markdown(_report(failing_report))
    spans = {_unspan(s) for s in _spans(body)}
    if case_id in ("headcount_2024", "a<b", "x`y``z", "@octocat"):
        assert case_id in spans
    assert "\\_" not in "".join(spans) and "&lt;" not in "".join(spans)


def _spans(body: str) -> list[str]:
    return [m.group(0) for m in re.finditer(r"(?<!`)(`+)(?!`).+?(?<!`)\1(?!`)", body)]


def test_without_a_baseline_the_failing_cases_are_listed_once(failing_report: Path) -> None:
    report = _report(failing_report).model_copy(update={"baseline": None})
    body = render_markdown(report)
    assert "_No baseline" not in body  # no baseline section at all: nothing to say about it
    listed = body.index("**Failing cases** (")
    assert body.index("- `headcount_2024` — What was ACME HK revenue", listed)
    assert "expected **1702 USD_M**, got **1700 USD_M**" in body
    said = [line for line in body.splitlines() if "HTTP 503" in line and "⚠️" not in line]
    assert len(said) == 1  # the error case is in the errors list only
    assert "moved" not in body
    check_inert(body, markers_allowed=0)


def test_a_broken_extraction_cell_shows_its_values(tmp_path: Path) -> None:
    import json
    import shutil

    from ragspine_action.cli import main

    fixtures = tmp_path / "fixtures"
    shutil.copytree(Path(__file__).resolve().parents[2] / "data" / "fixtures", fixtures)
    args = ["--suite", "extraction", "--extraction-manifest", str(fixtures / "manifest.json")]
    args += ["--baseline", str(tmp_path / "b.json"), "--quiet"]
    assert main([*args, "--update-baseline"]) == 0
    facts_path = fixtures / "fixtures_facts.json"
    facts = json.loads(facts_path.read_text(encoding="utf-8"))
    cell = next(c for c in facts["cells"] if c["cell_ref"] == "A2")
    cell["value"] = "Line <item> @team"
    facts_path.write_text(json.dumps(facts), encoding="utf-8")
    report = tmp_path / "r.json"
    assert main([*args, "--report", str(report)]) == 1
    body = render_markdown(_report(report))
    section = body[body.index("#### Extraction") :]
    assert section.index("**1 broken cell**") < section.index("<details>")
    assert "- `fixtures:PL_FY2024!A2`" in section
    assert "`cell_value`: expected **Line item**, got **Line &lt;item&gt; @&#8203;team**" in section
    check_inert(body, markers_allowed=0)


def test_no_baseline_says_how_to_record_one(failing_report: Path) -> None:
    from ragspine_action.report.model import BaselineSection

    report = _report(failing_report)
    none = report.model_copy(
        update={"baseline": BaselineSection(status="none", message="no baseline")}
    )
    body = render_markdown(none)
    block = re.search(r"```sh\n(.*?)\n```", body, re.S)
    assert block is not None
    command = block.group(1)
    assert command.startswith("ragspine-eval --system outcomes --golden ")
    assert "--outcomes " in command and "--mode my_rag" in command
    assert re.search(r"--baseline \S*baseline.json --update-baseline$", command)
    assert body.index("_No baseline") < body.index("```sh") < body.index("#### QA")

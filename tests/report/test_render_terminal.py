"""The terminal names the failing cases with expected and actual, in colour on a TTY."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from ragspine_action.cli import main as cli_main
from ragspine_action.report.model import Failure
from ragspine_action.report.read import read_report
from ragspine_action.report.render_terminal import for_stream, render_terminal, use_color
from ragspine_action.report.view import count_noun

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_failing_run_names_cases_with_expected_and_actual(failing_report: Path) -> None:
    text = render_terminal(read_report(str(failing_report)))
    table_end = text.index("fabrication 1 (target 0)")
    listing = text[table_end:]
    assert "3 failing cases, 3 broken" in listing or "failing cases" in listing
    assert re.search(
        r"headcount_2024.*\n\s+numeric_accuracy: expected 1702 USD_M, got 1700 USD_M", listing
    )
    assert "clarification_appropriateness: expected ask_first, got none" in listing
    assert "What was ACME HK revenue in FY2025?" in listing
    assert "Fabricated numbers by case:\n  x`y``z: 12.5" in listing
    assert "@octocat: HTTP 503: upstream <timeout> @oncall" in listing  # the error reason
    assert not ANSI.search(text)


def test_the_list_stops_at_show_failures(failing_report: Path) -> None:
    report = read_report(str(failing_report))
    assert report.qa is not None
    report.qa.metrics["numeric_accuracy"].failures = [
        Failure(id=f"case_{i}", expected=i, actual=-i) for i in range(2696)
    ]
    text = render_terminal(report)
    # 20 cases: the 2 broken ones that still fail (first), then 18 of the others
    assert len(re.findall(r"^  case_\d+", text, re.M)) == 18
    assert "… and 2,679 more (--show-failures all" in text
    everything = render_terminal(report, show_failures=None)
    assert len(re.findall(r"^  case_\d+", everything, re.M)) == 2696
    assert "case_2695" in everything and "expected 2695, got -2695" in everything
    assert "case_0" not in render_terminal(report, show_failures=0)


def test_the_cli_takes_show_failures(
    failing_report: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli_main(["render", str(failing_report), "--show-failures", "1"])
    out = capsys.readouterr().out
    assert code == 0
    assert "4 failing cases" in out and "… and 3 more" in out
    assert cli_main(["render", str(failing_report), "--show-failures", "some"]) == 2
    assert "--show-failures" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("n", "word", "expected"),
    [(1, "regression", "1 regression"), (2, "gate", "2 gates"), (0, "case", "0 cases"),
     (2696, "broken case", "2,696 broken cases")],
)  # fmt: skip
def test_plurals(n: int, word: str, expected: str) -> None:
    assert count_noun(n, word) == expected


def test_summary_speaks_in_correct_plurals(failing_report: Path) -> None:
    summary = read_report(str(failing_report)).summary
    assert "6 gates below 100%" in summary and "3 broken cases" in summary
    assert not re.search(r"\b1 (regressions|gates|cases)\b", summary)


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("env", "tty", "expected"),
    [
        ({}, True, True),
        ({}, False, False),
        ({"NO_COLOR": "1"}, True, False),
        ({"FORCE_COLOR": "1"}, False, True),
        ({"FORCE_COLOR": "0"}, True, False),
        ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, True, False),
    ],
)
def test_colour_follows_tty_and_the_conventions(
    env: dict[str, str], tty: bool, expected: bool
) -> None:
    stream = _Tty() if tty else io.StringIO()
    assert use_color(stream, env) is expected


def test_colours_mark_failures_red(failing_report: Path) -> None:
    text = render_terminal(read_report(str(failing_report)), color=True)
    assert "\x1b[31mFAIL (baseline)\x1b[0m" in text
    assert "\x1b[31mragspine-eval: FAIL" in text


def test_ascii_terminal_gets_ascii(failing_report: Path) -> None:
    text = render_terminal(read_report(str(failing_report)))
    stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    shown = for_stream(text, stream)
    shown.encode("ascii")
    assert "delta" in shown and "-50.0 pp" in shown and "Baseline: regression - " in shown
    assert for_stream("1 → 0", stream) == "1 -> 0"
    utf8 = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    assert for_stream(text, utf8) == text


def test_the_baseline_line_counts_a_regression_instead_of_listing_it_again(
    failing_report: Path,
) -> None:
    """The table and the broken cases already show every regression: the baseline's
    line says how many, not a run-on list of each metric and case once more."""
    report = read_report(str(failing_report))
    assert report.baseline is not None and report.baseline.status == "regression"
    broken = len({c.id for c in report.baseline.broken})
    (line,) = [x for x in render_terminal(report).splitlines() if x.startswith("Baseline:")]
    assert line == (
        f"Baseline: regression — {count_noun(len(report.baseline.regressions), 'metric')} "
        f"below it, {count_noun(broken, 'broken case')} (shown above)"
    )


def test_the_html_summary_does_not_repeat_the_verdict(failing_report: Path) -> None:
    from ragspine_action.report.render_html import render_html

    page = render_html(read_report(str(failing_report)))
    body = page[page.index("<body") :]
    assert body.count("ragspine-eval: FAIL") == 1  # the heading; the summary follows it
    assert "<p>qa[my_rag] 6 cases" in body


def test_a_stale_baseline_names_its_command_once(failing_report: Path) -> None:
    report = read_report(str(failing_report))
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
                    "regressions": [],
                    "broken": [],
                }
            ),
        }
    )
    lines = render_terminal(stale).splitlines()
    at = lines.index("Baseline: stale — b.json: baseline 'my_rag' is stale (…).")
    assert lines[at + 1 : at + 3] == ["To fix it, run:", f"  {command}"]
    assert sum(command in line for line in lines) == 1


def test_without_broken_cases_the_count_is_said_once(failing_report: Path) -> None:
    """No baseline, so nothing is 'broken': one heading with the count, not two."""
    report = read_report(str(failing_report))
    report.baseline = None
    text = render_terminal(report)
    assert re.search(r"^4 failing cases:\n  \S", text, re.M)
    assert not re.search(r"^(Failing|Broken|Other failing) cases", text, re.M)


def test_summary_counts_the_retrieval_gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A retrieval-only run whose cases miss the protected k is not "all gates 100%" (it
    said so under its own list of 6 failing cases)."""
    study = Path(__file__).resolve().parents[1] / "data" / "retrieval_study"
    report = tmp_path / "report.json"
    args = ["--system", "outcomes", "--mode", "bm25", "--no-baseline", "--quiet"]
    args += ["--golden", str(study / "golden.jsonl"), "--outcomes", str(study / "1-bm25.jsonl")]
    assert cli_main([*args, "--report", str(report)]) == 1  # no baseline: misses fail
    loaded = read_report(str(report))
    assert loaded.qa is not None and loaded.qa.retrieval is not None
    misses = len(loaded.qa.retrieval.misses)
    assert misses > 0
    assert "all gates 100%" not in loaded.summary
    assert "1 gate below 100%" in loaded.summary

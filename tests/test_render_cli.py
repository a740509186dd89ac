"""``ragspine-eval render``: the action's renderers on any report file; bad files exit 2."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from ragspine_action.cli import main
from ragspine_action.report.read import read_report
from ragspine_action.report.render_markdown import render_markdown

sys.path.insert(0, str(Path(__file__).resolve().parent / "report"))
from report_support import failing_run


def test_markdown_is_what_the_action_posts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = failing_run(tmp_path)
    capsys.readouterr()
    out = tmp_path / "comment.md"
    assert main(["render", str(report), "--format", "markdown", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == render_markdown(read_report(str(report)))
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "report.json:1: invalid JSON"),
        ('{"verdict": "pass"}', "not a ragspine-eval report"),
        ("[1, 2]", "not a ragspine-eval report"),
        ("", "report.json"),
    ],
)
def test_a_bad_report_file_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, expected: str
) -> None:
    path = tmp_path / "report.json"
    path.write_text(content, encoding="utf-8")
    for fmt in ("markdown", "junit", "terminal"):
        assert main(["render", str(path), "--format", fmt, "-o", str(tmp_path / "out")]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
        assert expected in err and "report.json" in err
        assert not (tmp_path / "out").exists()


def test_missing_file_and_bad_case_row(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", str(tmp_path / "nope.json")]) == 2
    assert "nope.json" in capsys.readouterr().err
    report = failing_run(tmp_path)
    data = json.loads(report.read_text(encoding="utf-8"))
    data["qa"]["cases"][2]["gates"] = {"numeric_accuracy": "maybe"}
    report.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    assert main(["render", str(report), "--format", "junit"]) == 2
    err = capsys.readouterr().err.strip()
    assert "qa.cases.2.gates.numeric_accuracy" in err and len(err.splitlines()) == 1


def test_a_merged_report_renders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = failing_run(tmp_path)
    common = [
        "--system",
        "outcomes",
        "--mode",
        "my_rag",
        "--golden",
        str(tmp_path / "golden.jsonl"),
    ]
    common += ["--outcomes", str(tmp_path / "bad.jsonl"), "--max-error-rate", "0.5", "--quiet"]
    common += ["--no-baseline"]
    for i in (1, 2):
        main([*common, "--shard", f"{i}/2", "--report", str(tmp_path / f"part{i}.json")])
    merged = tmp_path / "merged.json"
    main(["merge", str(tmp_path / "part1.json"), str(tmp_path / "part2.json"), "--report",
          str(merged), "--baseline", str(tmp_path / "baseline.json"), "--quiet"])  # fmt: skip
    capsys.readouterr()
    for fmt in ("markdown", "junit", "terminal"):
        assert main(["render", str(merged), "--format", fmt, "-o", str(tmp_path / fmt)]) == 0
    text = (tmp_path / "markdown").read_text(encoding="utf-8")
    assert "- `headcount_2024` — What was ACME HK revenue in FY2025?" in text
    del report


def test_markdown_on_stdout_is_the_file_s_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``render --format markdown > comment.md`` gives what ``-o`` writes: no
    ``\\u200b`` escape where a mention is stopped (the failing run has ``@octocat`` and
    an error reason ``@oncall``)."""
    report = failing_run(tmp_path)
    capsys.readouterr()
    out = tmp_path / "comment.md"
    assert main(["render", str(report), "--format", "markdown", "-o", str(out)]) == 0
    assert main(["render", str(report), "--format", "markdown"]) == 0
    printed = capsys.readouterr().out
    assert printed == out.read_text(encoding="utf-8")
    assert "@&#8203;oncall" in printed and "\\u200b" not in printed


def test_output_to_a_directory_names_the_flag_and_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``-o DIR`` is one line naming ``-o`` and DIR (it named a temporary file beside it)."""
    report = failing_run(tmp_path)
    capsys.readouterr()
    target = tmp_path / "out"
    target.mkdir()
    assert main(["render", str(report), "--format", "markdown", "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert f"-o {target}: is a directory" in err and ".tmp" not in err
    assert list(target.iterdir()) == []


def test_output_over_the_report_itself_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``render r.json -o r.json`` would replace the report with its rendering."""
    report = failing_run(tmp_path)
    before = report.read_bytes()
    capsys.readouterr()
    same = tmp_path / "." / report.name
    assert main(["render", str(report), "--format", "markdown", "-o", str(same)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "-o" in err and "the report itself" in err
    assert report.read_bytes() == before

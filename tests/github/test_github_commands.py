"""Workflow commands and file commands: escaping, delimiters and the summary cap."""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import pytest

from ragspine_action.github import (
    CommandFileError,
    add_mask,
    annotation,
    append_step_summary,
    emit,
    escape_data,
    escape_property,
    format_command,
    format_output,
    resume_commands,
    set_output,
    set_outputs,
    stop_commands,
)


def test_data_escaping_follows_toolkit_rules() -> None:
    assert escape_data("100% done\r\nnext") == "100%25 done%0D%0Anext"
    # ':' and ',' stay readable in data: only properties need them escaped
    assert escape_data("a: b, c") == "a: b, c"
    # '%' is escaped first, so an already-escaped-looking text survives a round trip
    assert escape_data("%0A") == "%250A"


def test_property_escaping_also_covers_colon_and_comma() -> None:
    assert escape_property("gate: numeric, drop 5%\n") == "gate%3A numeric%2C drop 5%25%0A"


def test_annotation_with_title_and_location() -> None:
    line = annotation(
        "error",
        "numeric_accuracy fell\nfrom 0.9 to 0.8",
        title="Regression: numeric_accuracy, tool",
        file="data/golden/qa.jsonl",
        line=12,
    )
    assert line == (
        "::error title=Regression%3A numeric_accuracy%2C tool,"
        "file=data/golden/qa.jsonl,line=12::numeric_accuracy fell%0Afrom 0.9 to 0.8"
    )


def test_untrusted_message_cannot_inject_a_command() -> None:
    line = annotation("warning", "x\n::error::forged\r\n::add-mask::y")
    assert line.count("\n") == 0 and line.count("\r") == 0
    assert line == "::warning::x%0A::error::forged%0D%0A::add-mask::y"


def test_notice_without_properties_and_dropped_none_properties() -> None:
    assert annotation("notice", "baseline created") == "::notice::baseline created"
    assert format_command("warning", "m", {"title": None, "line": 3}) == "::warning line=3::m"


def test_bad_levels_and_command_names_are_refused() -> None:
    with pytest.raises(ValueError):
        annotation("debugz", "m")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        format_command("bad name::", "m")


def test_add_mask_masks_whole_value_and_each_line() -> None:
    assert add_mask("s3cr%t") == ["::add-mask::s3cr%25t"]
    assert add_mask("line1\nline2") == [
        "::add-mask::line1%0Aline2",
        "::add-mask::line1",
        "::add-mask::line2",
    ]
    assert add_mask("") == []
    assert add_mask("  ") == []


def test_stop_and_resume_commands() -> None:
    assert stop_commands("tok_123") == "::stop-commands::tok_123"
    assert resume_commands("tok_123") == "::tok_123::"
    with pytest.raises(ValueError):
        stop_commands("")


def test_emit_writes_one_line_each() -> None:
    out = io.StringIO()
    emit(["::notice::a", "::notice::b"], out)
    emit("::notice::c", out)
    assert out.getvalue() == "::notice::a\n::notice::b\n::notice::c\n"


def _parse_output_file(text: str) -> dict[str, str]:
    """The runner's heredoc parsing (name<<DELIM … DELIM)."""
    result: dict[str, str] = {}
    lines = iter(text.split("\n"))
    for line in lines:
        if not line:
            continue
        name, delimiter = line.split("<<", 1)
        value: list[str] = []
        for inner in lines:
            if inner == delimiter:
                break
            value.append(inner)
        else:
            raise AssertionError("unterminated heredoc")
        result[name] = "\n".join(value)
    return result


def test_outputs_use_a_random_delimiter_and_round_trip(tmp_path: Path) -> None:
    out = tmp_path / "output"
    summary = "verdict: fail\nnumeric_accuracy 0.8 < 0.9\nEOF\n"
    set_outputs(out, {"verdict": "fail", "summary": summary})
    set_output(out, "artifact-id", "7001")
    text = out.read_text()
    assert "ghadelimiter_" in text
    assert _parse_output_file(text) == {
        "verdict": "fail",
        "summary": summary,
        "artifact-id": "7001",
    }
    delimiters = [line.split("<<")[1] for line in text.splitlines() if "<<" in line]
    assert len(set(delimiters)) == 3


def test_delimiter_contained_in_value_is_replaced() -> None:
    candidates = itertools.chain(["DELIM"], itertools.repeat("OTHER"))
    text = format_output("summary", "a DELIM b", delimiter_factory=lambda: next(candidates))
    assert text == "summary<<OTHER\na DELIM b\nOTHER\n"


def test_delimiter_that_is_always_in_the_value_fails() -> None:
    with pytest.raises(CommandFileError, match="delimiter"):
        format_output("summary", "XX", delimiter_factory=lambda: "X")


@pytest.mark.parametrize("name", ["", "a=b", "a<<b", "bad\nname", "1st", "with space"])
def test_bad_output_names_are_refused(name: str) -> None:
    with pytest.raises(CommandFileError, match="invalid output name"):
        format_output(name, "v")


def test_outputs_to_unwritable_file_raise_typed_error(tmp_path: Path) -> None:
    with pytest.raises(CommandFileError, match="cannot write step outputs"):
        set_output(tmp_path / "missing-dir" / "out", "verdict", "pass")


def test_step_summary_appends(tmp_path: Path) -> None:
    path = tmp_path / "summary.md"
    first = append_step_summary(path, "# Gate\n")
    second = append_step_summary(path, "| a | b |")
    assert path.read_text() == "# Gate\n| a | b |\n"
    assert (first.truncated, second.truncated) == (False, False)
    assert second.bytes_written == len("| a | b |\n")


def test_step_summary_cap_counts_existing_content_and_cuts_at_lines(tmp_path: Path) -> None:
    path = tmp_path / "summary.md"
    path.write_bytes(b"x" * 600 + b"\n")
    markdown = "".join(f"line {i:04d} é\n" for i in range(200))
    result = append_step_summary(path, markdown, limit_bytes=2000)
    data = path.read_bytes()
    assert result.truncated
    assert len(data) <= 2000
    assert data.decode("utf-8").count("Summary truncated") == 1
    kept = data[601:].decode("utf-8").split("\n\n> **Summary truncated")[0]
    assert kept and all(line.startswith("line ") for line in kept.splitlines())
    assert markdown.startswith(kept)


def test_step_summary_full_file_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "summary.md"
    path.write_bytes(b"x" * 100)
    result = append_step_summary(path, "more", limit_bytes=100)
    assert result.truncated and result.bytes_written == 0
    assert path.read_bytes() == b"x" * 100


def test_step_summary_default_cap_is_one_mib(tmp_path: Path) -> None:
    path = tmp_path / "summary.md"
    result = append_step_summary(path, ("y" * 1023 + "\n") * 1100)
    assert result.truncated
    assert path.stat().st_size <= 1024 * 1024

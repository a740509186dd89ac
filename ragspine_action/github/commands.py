"""The runner's two protocols: workflow commands on stdout and file commands.

Workflow commands (``::error title=…::message``) are formatted here as strings, escaped the
way actions/toolkit's ``command.ts`` does, so that text from golden sets or answers can never
end a command early or inject a new one. ``emit`` prints them. File commands append to the
files whose paths the runner gives in ``GITHUB_OUTPUT`` and ``GITHUB_STEP_SUMMARY``; the
caller passes those paths in, this module never reads the environment.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TextIO

from ragspine_action.github.errors import CommandFileError

__all__ = [
    "STEP_SUMMARY_LIMIT_BYTES",
    "AnnotationLevel",
    "SummaryWrite",
    "add_mask",
    "annotation",
    "append_step_summary",
    "emit",
    "escape_data",
    "escape_property",
    "format_command",
    "format_output",
    "resume_commands",
    "set_output",
    "set_outputs",
    "stop_commands",
]

#: The runner refuses to show a step summary file larger than this (bytes, whole step).
STEP_SUMMARY_LIMIT_BYTES = 1024 * 1024

AnnotationLevel = Literal["error", "warning", "notice"]

_OUTPUT_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")
_TRUNCATION_NOTE = (
    "\n\n> **Summary truncated:** GitHub shows at most 1 MiB of job summary per step; "
    "the full report is in the JSON artifact.\n"
)


def escape_data(value: str) -> str:
    """Escape a command's message: ``%``, CR and LF would otherwise end or corrupt it."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    """Escape a property value: as data, plus ``:`` and ``,`` which delimit properties."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def format_command(
    command: str, message: str = "", properties: Mapping[str, str | int | None] | None = None
) -> str:
    """Return ``::command k=v,…::message`` with every part escaped; ``None`` properties are dropped."""
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", command):
        raise ValueError(f"invalid workflow command name {command!r}")
    props = [
        f"{key}={escape_property(str(value))}"
        for key, value in (properties or {}).items()
        if value is not None
    ]
    head = f"::{command}"
    if props:
        head += " " + ",".join(props)
    return f"{head}::{escape_data(message)}"


def annotation(
    level: AnnotationLevel,
    message: str,
    *,
    title: str | None = None,
    file: str | None = None,
    line: int | None = None,
    end_line: int | None = None,
    col: int | None = None,
    end_column: int | None = None,
) -> str:
    """An ``::error``/``::warning``/``::notice`` line; the runner turns it into an annotation."""
    if level not in ("error", "warning", "notice"):
        raise ValueError(f"invalid annotation level {level!r}")
    return format_command(
        level,
        message,
        {
            "title": title,
            "file": file,
            "line": line,
            "endLine": end_line,
            "col": col,
            "endColumn": end_column,
        },
    )


def add_mask(secret: str) -> list[str]:
    """``::add-mask::`` lines for a secret: the whole value and, if multi-line, each line.

    The runner masks what it is told; a multi-line secret printed line by line would escape a
    single whole-value mask, so each line is masked too. Empty values are never masked (the
    runner rejects them).
    """
    values = [secret]
    if "\n" in secret or "\r" in secret:
        values += [part for part in re.split(r"\r\n|\r|\n", secret)]
    lines: list[str] = []
    for value in values:
        if value.strip() and format_command("add-mask", value) not in lines:
            lines.append(format_command("add-mask", value))
    return lines


def stop_commands(token: str) -> str:
    """Stop the runner from interpreting ``::`` lines until ``resume_commands(token)``.

    Use around untrusted text printed to the log; the token must be unguessable.
    """
    if not token or not re.fullmatch(r"[A-Za-z0-9_-]+", token):
        raise ValueError("stop-commands token must be non-empty [A-Za-z0-9_-]")
    return f"::stop-commands::{token}"


def resume_commands(token: str) -> str:
    """The line that ends a ``stop_commands`` block."""
    return f"::{token}::"


def emit(lines: str | Iterable[str], stream: TextIO) -> None:
    """Print one command line (or several) and flush, so it is not interleaved with others."""
    for line in [lines] if isinstance(lines, str) else lines:
        stream.write(line + "\n")
    stream.flush()


def _new_delimiter() -> str:
    return f"ghadelimiter_{uuid.uuid4()}"


def format_output(
    name: str, value: str, *, delimiter_factory: Callable[[], str] = _new_delimiter
) -> str:
    """``name<<DELIM\\nvalue\\nDELIM\\n`` with a delimiter that occurs in neither name nor value."""
    if not _OUTPUT_NAME.match(name):
        raise CommandFileError(
            f"invalid output name {name!r}: use letters, digits, '_' and '-', not starting with a digit"
        )
    for _ in range(10):
        delimiter = delimiter_factory()
        if delimiter and delimiter not in value and delimiter not in name:
            return f"{name}<<{delimiter}\n{value}\n{delimiter}\n"
    raise CommandFileError(f"could not find a delimiter absent from the value of output {name!r}")


def set_outputs(
    output_file: str | Path,
    outputs: Mapping[str, str],
    *,
    delimiter_factory: Callable[[], str] = _new_delimiter,
) -> None:
    """Append step outputs to the ``GITHUB_OUTPUT`` file, all or nothing."""
    text = "".join(
        format_output(name, value, delimiter_factory=delimiter_factory)
        for name, value in outputs.items()
    )
    try:
        with open(output_file, "a", encoding="utf-8", newline="") as handle:
            handle.write(text)
    except OSError as exc:
        raise CommandFileError(
            f"cannot write step outputs to {output_file}: {exc.strerror}"
        ) from exc


def set_output(
    output_file: str | Path,
    name: str,
    value: str,
    *,
    delimiter_factory: Callable[[], str] = _new_delimiter,
) -> None:
    """Append one step output to the ``GITHUB_OUTPUT`` file."""
    set_outputs(output_file, {name: value}, delimiter_factory=delimiter_factory)


@dataclass(frozen=True)
class SummaryWrite:
    """What ``append_step_summary`` did: bytes appended and whether text was cut."""

    bytes_written: int
    truncated: bool


def append_step_summary(
    summary_file: str | Path, markdown: str, *, limit_bytes: int = STEP_SUMMARY_LIMIT_BYTES
) -> SummaryWrite:
    """Append markdown to the job summary, keeping the whole file within the runner's cap.

    The cap is for the step's file as a whole, so what is already there counts. When the text
    does not fit, whole lines are kept up to the cap and a note says the summary was cut (the
    runner would otherwise drop the entire summary).
    """
    path = Path(summary_file)
    try:
        existing = path.stat().st_size if path.exists() else 0
    except OSError as exc:
        raise CommandFileError(f"cannot read step summary {path}: {exc.strerror}") from exc
    data = markdown.encode("utf-8")
    if data and not data.endswith(b"\n"):
        data += b"\n"
    available = limit_bytes - existing
    truncated = False
    if len(data) > available:
        truncated = True
        note = _TRUNCATION_NOTE.encode("utf-8")
        room = available - len(note)
        if room < 0:
            data = b""
        else:
            cut = data.rfind(b"\n", 0, room + 1)
            data = (data[: cut + 1] if cut >= 0 else b"") + note
    if not data:
        return SummaryWrite(0, truncated)
    try:
        with open(path, "ab") as handle:
            handle.write(data)
    except OSError as exc:
        raise CommandFileError(f"cannot write step summary {path}: {exc.strerror}") from exc
    return SummaryWrite(len(data), truncated)

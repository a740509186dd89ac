"""Errors the gate can raise, each mapped to the exit code a CI job should see.

    RagspineError                 exit 2  anything that stops an evaluation before a verdict
    ├── InputError                exit 2  a bad input file: carries every problem found in it
    ├── ConfigError               exit 2  a bad flag, input or configuration value
    ├── StaleBaselineError        exit 2  the baseline was recorded for another golden set
    └── BaselineUpdateError       exit 1  an update that would lower the baseline silently
                                          (a regression: the run reports it, writes nothing)

A regression is not an error: it is a verdict (exit 1) carried by the report. Anything
else that escapes (a bug) is caught at the top and reported as an internal error, exit 3:
never a traceback, never exit 1.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "EXIT_ERROR",
    "EXIT_INTERNAL",
    "EXIT_PASS",
    "EXIT_REGRESSION",
    "MAX_SHOWN_PROBLEMS",
    "BaselineUpdateError",
    "ConfigError",
    "InputError",
    "Problem",
    "ProblemList",
    "RagspineError",
    "StaleBaselineError",
    "format_error",
    "format_internal_error",
    "one_line",
    "problems_exhausted",
]

EXIT_PASS = 0
EXIT_REGRESSION = 1
EXIT_ERROR = 2
EXIT_INTERNAL = 3

ISSUES_URL = "https://github.com/org/ragspine-eval/issues"


class RagspineError(Exception):
    """Base class: the CLI prints ``str(error)`` and exits with ``exit_code``."""

    exit_code: int = EXIT_ERROR


# Everything str.splitlines() breaks on: a problem must stay one line whatever the input.
_LINE_BREAKS = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def one_line(text: str) -> str:
    """``text`` with every line break escaped: a message that stays one line."""
    return _LINE_BREAKS.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


@dataclass(frozen=True)
class Problem:
    """One thing wrong in an input file, located as precisely as the format allows."""

    path: str
    line: int | None
    field: str | None
    message: str
    case_id: str | None = None

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        parts = [where]
        if self.case_id is not None:
            parts.append(f"id={self.case_id}")
        if self.field:
            parts.append(self.field)
        parts.append(self.message)
        return one_line(": ".join(parts))


#: At most this many problems are printed; the rest are counted on one more line.
MAX_SHOWN_PROBLEMS = 50
#: A reader stops once a file has this many problems: the count after that is a floor.
STOP_AFTER_PROBLEMS = 10_000


class ProblemList(list[Problem]):
    """The problems of one input, bounded: a file of a million bad lines must neither
    fill memory with a million messages nor be read to its end just to list them.

    Keeps the first ``keep`` problems and counts the others; once ``stop_after`` are
    found, ``exhausted`` tells the reader to stop.
    """

    def __init__(self, keep: int = 1000, stop_after: int = STOP_AFTER_PROBLEMS) -> None:
        super().__init__()
        self.keep = keep
        self.stop_after = stop_after
        self.dropped = 0

    def append(self, problem: Problem) -> None:
        if len(self) < self.keep:
            super().append(problem)
        else:
            self.dropped += 1

    def extend(self, problems: Iterable[Problem]) -> None:
        for problem in problems:
            self.append(problem)

    @property
    def total(self) -> int:
        return len(self) + self.dropped

    @property
    def exhausted(self) -> bool:
        return self.total >= self.stop_after


def problems_exhausted(problems: list[Problem]) -> bool:
    """Whether a reader collecting into ``problems`` should stop reading now (a plain
    list counts too: every loader is bounded, whichever list it passes)."""
    if isinstance(problems, ProblemList):
        return problems.exhausted
    return len(problems) >= STOP_AFTER_PROBLEMS


class InputError(RagspineError):
    """A bad input file; every problem is reported at once, one line each (the first
    ``MAX_SHOWN_PROBLEMS`` of them, then how many more there are)."""

    def __init__(self, problems: list[Problem]) -> None:
        if not problems:
            raise ValueError("InputError needs at least one problem")
        self.problems = problems
        total = problems.total if isinstance(problems, ProblemList) else len(problems)
        # A loader that caps its own list adds a "more not shown" line: keep it whole.
        shown = MAX_SHOWN_PROBLEMS + (1 if total == MAX_SHOWN_PROBLEMS + 1 else 0)
        lines = [str(p) for p in problems[:shown]]
        if total > len(lines):
            more = f"{problems[0].path}: … and {total - len(lines)} more problems"
            if problems_exhausted(problems):
                more += " (reading stopped there: fix these first)"
            lines.append(one_line(more))
        super().__init__("\n".join(lines))

    @classmethod
    def single(
        cls,
        path: str,
        message: str,
        *,
        line: int | None = None,
        field: str | None = None,
        case_id: str | None = None,
    ) -> InputError:
        return cls([Problem(path, line, field, message, case_id)])


def format_error(exc: RagspineError) -> str:
    """What the CLI prints: one located line per input problem, otherwise exactly one line.

    Names that came from user files (metric names, keys) may hold line breaks; they are
    escaped so an error never spills onto a second, unlocated line.
    """
    if isinstance(exc, InputError):
        return str(exc)
    text = str(exc)
    for raw, shown in (
        ("\r", "\\r"),
        ("\n", "\\n"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
        ("\x85", "\\x85"),
    ):
        text = text.replace(raw, shown)
    return f"ragspine-eval: error: {text}"


def format_internal_error(exc: BaseException, version: str) -> str:
    """One line for a crash that escaped every handler: what it was and where to report it."""
    detail = one_line(f"{type(exc).__name__}: {exc}")
    if len(detail) > 300:
        detail = detail[:297] + "..."
    return (
        f"ragspine-eval: internal error (a bug in ragspine-eval {version}, exit 3): {detail}; "
        f"please report it with the command you ran at {ISSUES_URL}"
    )


class ConfigError(RagspineError):
    """A bad flag, action input or configuration value."""


class StaleBaselineError(RagspineError):
    """The baseline was recorded for a different golden set than the one evaluated."""


class BaselineUpdateError(RagspineError):
    """An update that would lower a baseline value without the explicit lowering flag.

    Exit 1: refusing to record a run because something got worse is a regression verdict.
    """

    exit_code = EXIT_REGRESSION

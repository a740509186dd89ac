"""``ragspine-eval render REPORT --format …``: the action's renderers on any report file.

The same markdown the action posts as its comment and job summary, JUnit XML for CI test
tabs, a self-contained HTML page, or the terminal view — from a report of a run, a shard
or a merge. A file that is not a report is one line on stderr and exit 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from .errors import EXIT_ERROR, EXIT_PASS, ConfigError, RagspineError, format_error
from .jsonio import atomic_write_chunks
from .outputs import check_output_path, output_errors
from .report.model import Report
from .report.read import read_report
from .report.render_terminal import DEFAULT_SHOWN, for_stream, print_report, render_terminal
from .safe_text import log_safe, print_safe

__all__ = ["FORMATS", "build_render_parser", "main", "parse_show_failures", "render_report"]

FORMATS = ("markdown", "junit", "html", "terminal")


def parse_show_failures(value: str | None) -> int | None:
    """``--show-failures``: a count of cases, or ``all`` (None); not given: the default."""
    if value is None:
        return DEFAULT_SHOWN
    if value.strip().lower() == "all":
        return None
    try:
        count = int(value)
    except ValueError:
        count = -1
    if count < 0:
        raise ConfigError(f"--show-failures: {value!r} is not a number of cases or 'all'")
    return count


def render_report(
    report: Report,
    fmt: str,
    *,
    show_failures: int | None = DEFAULT_SHOWN,
    color: bool = False,
    head_sha: str | None = None,
) -> str:
    """``report`` in format ``fmt`` (one of ``FORMATS``)."""
    renderers: dict[str, Callable[[], str]] = {
        "markdown": lambda: _markdown(report, head_sha),
        "junit": lambda: _junit(report),
        "html": lambda: _html(report, head_sha),
        "terminal": lambda: (
            render_terminal(report, show_failures=show_failures, color=color) + "\n"
        ),
    }
    return renderers[fmt]()


def _markdown(report: Report, head_sha: str | None) -> str:
    from .report.render_markdown import render_markdown

    return render_markdown(report, head_sha=head_sha)


def _junit(report: Report) -> str:
    from .report.render_junit import render_junit

    return render_junit(report)


def _html(report: Report, head_sha: str | None) -> str:
    from .report.render_html import render_html

    return render_html(report, head_sha=head_sha)


def build_render_parser() -> argparse.ArgumentParser:
    from .cli import _Parser

    p = _Parser(
        prog="ragspine-eval render",
        description="Render a JSON report (of a run, a shard or a merge) as the action does.",
    )
    p.add_argument("report", metavar="REPORT", help="the JSON report")
    p.add_argument("--format", choices=FORMATS, default="terminal", help="default terminal")
    p.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
    p.add_argument("--head-sha", help="the commit to name in the verdict line")
    p.add_argument(
        "--show-failures",
        metavar="N|all",
        default=str(DEFAULT_SHOWN),
        help=f"terminal: failing cases to list (default {DEFAULT_SHOWN})",
    )
    return p


def _check_output(output: str, report: str) -> None:
    """``-o`` checked before reading: a directory or unwritable place is one line naming
    it (not the temporary file beside it), and the report itself is never overwritten."""
    check_output_path(output, "-o")
    if os.path.exists(report) and os.path.exists(output) and os.path.samefile(report, output):
        raise ConfigError(f"-o {output}: is the report itself ({report}); write elsewhere")


def main(argv: Sequence[str], stdout: TextIO | None = None) -> int:
    """Exit 0 when rendered, 2 for a bad report file or flag."""
    out = stdout or sys.stdout
    try:
        args = build_render_parser().parse_args(list(argv))
        shown = parse_show_failures(args.show_failures)
        if args.output is not None:
            _check_output(args.output, args.report)
        report = read_report(args.report)
        text = render_report(report, args.format, show_failures=shown, head_sha=args.head_sha)
        if args.output is None and args.format == "terminal":
            print_report(report, out, show_failures=shown)
        elif args.output is None:  # a log may show it: no workflow commands, no hidden text
            out.write(for_stream(log_safe(text), out))
            out.flush()
        else:
            with output_errors(args.output, "-o"):
                atomic_write_chunks(args.output, [text.encode("utf-8")])
    except RagspineError as exc:
        print_safe(format_error(exc), sys.stderr)
        return exc.exit_code
    except OSError as exc:
        print_safe(f"ragspine-eval render: {exc.strerror or exc}: {exc.filename}", sys.stderr)
        return EXIT_ERROR
    return EXIT_PASS

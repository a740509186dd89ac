"""The report in a terminal: the metric table, then the cases that fail and why.

After each suite's table come the failing cases — broken ones first — one line per failed
gate with expected and actual (the first 20 unless ``show_failures`` says otherwise), the
fabricated numbers by case and the error reasons. Colours only when asked (``use_color``
decides from the stream and ``NO_COLOR``/``FORCE_COLOR``); ``for_stream`` makes the text
printable on a stream whose encoding cannot show ``—``, ``→`` or ``Δ``.
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Mapping
from typing import TextIO

from ..console import encodable
from ..errors import one_line
from ..safe_text import log_safe
from .model import BaselineSection, FloorCheck, Report
from .view import (
    CaseFailure,
    FailedCase,
    MetricLine,
    SuiteView,
    compact_pair,
    count_noun,
    fmt_interval,
    fmt_now,
    fmt_pct,
    fmt_pp,
    golden_change_line,
    suite_views,
    without_commands,
)

__all__ = [
    "DEFAULT_SHOWN",
    "HEADERS",
    "for_stream",
    "print_report",
    "render_terminal",
    "repeats_lines",
    "simple_table",
    "use_color",
]

DEFAULT_SHOWN = 20
HEADERS = ["metric", "baseline", "now", "passed", "Δ", "95% CI", "status"]
_STATUS_TEXT = {"fail": "FAIL", "below": "below (not gated)", "—": ""}
_COLORS = {"red": "31", "green": "32", "yellow": "33", "cyan": "36", "bold": "1", "dim": "2"}
_STATUS_COLOR = {
    "fail": "red",
    "pass": "green",
    "improved": "cyan",
    "below": "yellow",
    "not measured": "yellow",
}
_VERDICT_COLOR = {"pass": "green", "fail": "red", "error": "yellow"}


def use_color(stream: TextIO, env: Mapping[str, str] | None = None) -> bool:
    """Colours for a terminal: ``NO_COLOR`` wins, then ``FORCE_COLOR``, else a TTY."""
    env = os.environ if env is None else env
    if env.get("NO_COLOR"):
        return False
    force = env.get("FORCE_COLOR")
    if force is not None and force != "":
        return force not in ("0", "false")
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def for_stream(text: str, stream: TextIO) -> str:
    """``text`` as ``stream`` can print it (``console.encodable``: ASCII symbols for
    ``—``, ``→``, ``Δ`` when the encoding lacks them)."""
    return encodable(text, stream)


class _Paint:
    """Colour codes around text; ``escape`` stands for ESC-[ (a token when the text is
    made log-safe first: see ``print_report``)."""

    def __init__(self, enabled: bool, escape: str = "\x1b[") -> None:
        self.enabled, self.escape = enabled, escape

    def __call__(self, text: str, color: str | None) -> str:
        if not self.enabled or not color or not text:
            return text
        return f"{self.escape}{_COLORS[color]}m{text}{self.escape}0m"


def _status(line: MetricLine) -> str:
    if line.status == "fail":
        return f"FAIL ({', '.join(line.failed_by)})"
    return _STATUS_TEXT.get(line.status, line.status)


def _metric_table(view: SuiteView, paint: _Paint) -> str:
    rows = []
    for m in view.metrics:
        now = fmt_now(m)
        if m.floor is not None:
            now += f" (floor {fmt_pct(m.floor, m.metric)})"
        rows.append(
            [
                one_line(m.metric),
                fmt_pct(m.baseline, m.metric),
                now,
                m.passed,
                fmt_pp(m.delta, m.metric, sign="-"),
                fmt_interval(m.interval, m.metric, sign="-"),
                paint(_status(m), _STATUS_COLOR.get(m.status)),
            ]
        )
    return simple_table(rows, HEADERS)


# One column wide in every configuration of tabulate (with the optional wcwidth or not):
# printable ASCII and the symbols the formatted cells use.
_NARROW = frozenset(map(chr, range(0x20, 0x7F))) | frozenset("—±−Δ")


def simple_table(rows: list[list[str]], headers: list[str]) -> str:
    """``tabulate(rows, headers, tablefmt="simple", disable_numparse=True)``.

    Written out for the table the terminal shows (strings of one-column characters:
    left-aligned and stripped, each column as wide as its widest cell or its header plus
    two, two spaces apart, a dashed rule under the headers, no trailing spaces), since
    importing tabulate reads its distribution's metadata (~5 ms of every run). Anything
    else (no rows, colour codes, line breaks, wide or control characters: a metric named
    unusually, ``render --color``) goes to tabulate itself. Tests check both agree.
    """
    texts = [*headers, *(cell for row in rows for cell in row)]
    if (
        not rows
        or any(len(row) != len(headers) for row in rows)
        or not all(isinstance(text, str) and _NARROW.issuperset(text) for text in texts)
    ):
        from tabulate import tabulate

        return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True)
    cells = [[cell.strip() for cell in row] for row in rows]
    widths = [
        max(len(header) + 2, *(len(row[column]) for row in cells))
        for column, header in enumerate(headers)
    ]
    lines = [
        "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip(),
        "  ".join("-" * w for w in widths),
    ]
    lines += [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells
    ]
    return "\n".join(lines)


def _gate_line(f: CaseFailure) -> str:
    expected, actual = compact_pair(f.shown_expected, f.shown_actual)
    return f"{f.gate}: expected {expected}, got {actual}"


def _case_lines(case: FailedCase, paint: _Paint, listed: frozenset[str]) -> list[str]:
    """``listed``: the error reasons the Errors block prints; a case names its reason
    only when that block does not (an outage's reason is printed once, not per case)."""
    stage = f"  [{case.stage}]" if case.stage else ""
    question = f"  {paint(case.question, 'dim')}" if case.question else ""
    lines = [f"  {paint(case.id, 'bold')}{stage}{question}"]
    if case.error is not None and case.error not in listed:
        lines.append(f"      error: {case.error}")
    for f in case.failures:
        if isinstance(f.actual, dict) and set(f.actual) == {"error"}:
            continue
        lines.append(f"      {_gate_line(f)}")
        if f.evidence:
            lines.append(f"        {paint(f.evidence, 'dim')}")
    if case.fabricated:
        lines.append(f"      fabricated numbers: {', '.join(case.fabricated)}")
    return lines


def _failing_block(
    view: SuiteView, shown: int | None, paint: _Paint, reasons: frozenset[str] = frozenset()
) -> list[str]:
    """Broken cases first, then the other failing ones; ``shown`` cases in all."""
    broken = [c for c in view.broken if c.failures or c.error or c.fabricated]
    others = [c for c in view.failing if c.failures or c.error or c.fabricated]
    total = len(broken) + len(others)
    if not total:
        return []
    left = total if shown is None else max(0, shown)
    lines = [paint(f"{count_noun(total, 'failing ' + view.unit)}:", "red")]
    for title, group in (
        (f"Broken {view.unit}s (passed in the baseline, fail now)", broken),
        (("Other failing " if broken else "Failing ") + f"{view.unit}s", others),
    ):
        if not group or not left:
            continue
        if broken:  # with one group, the count above already says it
            lines.append(paint(f"{title}: {len(group):,}", "red"))
        for case in group[:left]:
            lines += _case_lines(case, paint, reasons)
        left -= min(left, len(group))
    listed = total if shown is None else min(total, max(0, shown))
    if total > listed:
        lines.append(f"  … and {total - listed:,} more (--show-failures all to list every one)")
    return lines


def _suite_block(view: SuiteView, shown: int | None, paint: _Paint) -> list[str]:
    lines = [paint(f"{view.title} · {view.subtitle}", "bold"), _metric_table(view, paint)]
    if view.footer:
        lines.append(view.footer)
    by_reason = _errors_by_reason(view)
    listed = frozenset(list(by_reason)[: _cap(shown)])
    lines += _failing_block(view, shown, paint, listed)
    lines += _golden_changes(view)
    fabricated = [c for c in view.all_failing() if c.fabricated]
    if fabricated:
        lines.append(paint("Fabricated numbers by case:", "red"))
        lines += [f"  {c.id}: {', '.join(c.fabricated)}" for c in fabricated[: _cap(shown)]]
        if len(fabricated) > _cap(shown):
            lines.append(f"  … and {len(fabricated) - _cap(shown):,} more")
    if by_reason:
        n_errors = sum(len(ids) for ids in by_reason.values())
        reasons = f", {count_noun(len(by_reason), 'reason')}" if len(by_reason) > 1 else ""
        lines.append(paint(f"Errors ({count_noun(n_errors, 'case')}{reasons}):", "yellow"))
        lines += [
            _reason_line(reason, ids) for reason, ids in list(by_reason.items())[: _cap(shown)]
        ]
        if len(by_reason) > _cap(shown):
            lines.append(f"  … and {len(by_reason) - _cap(shown):,} more reasons")
    if view.mismatches:
        total = len(view.mismatches) + view.mismatches_omitted
        lines.append(paint(f"Mismatching cells ({total:,}):", "red"))
        for m in view.mismatches[: _cap(shown)]:
            where = f"{m.sheet}!{m.cell}" if m.sheet else m.cell
            expected, actual = compact_pair(m.expected, m.actual)
            lines.append(f"  {m.channel} {m.fixture}:{where}: expected {expected}, got {actual}")
        if total > _cap(shown):
            lines.append(f"  … and {total - _cap(shown):,} more")
    return lines


def _errors_by_reason(view: SuiteView) -> dict[str, list[str]]:
    """The ids of the cases that ended in an error, by reason, in first-seen order."""
    by_reason: dict[str, list[str]] = {}
    for case in view.all_failing():
        if case.error is not None:
            by_reason.setdefault(case.error, []).append(case.id)
    return by_reason


_REASON_IDS = 5


def _reason_line(reason: str, ids: list[str]) -> str:
    """``leave: reason`` for one case; ``4 cases (leave, meals, …): reason`` for several."""
    if len(ids) == 1:
        return f"  {ids[0]}: {reason}"
    shown = ", ".join(ids[:_REASON_IDS]) + (", …" if len(ids) > _REASON_IDS else "")
    return f"  {count_noun(len(ids), 'case')} ({shown}): {reason}"


def _golden_changes(view: SuiteView) -> list[str]:
    line = golden_change_line(view)
    if not line:
        return []
    lines = [line + "."]
    if view.added:
        lines.append("New cases (shown, not gated on their first run):")
        for c in view.added[:20]:
            results = ", ".join(f"{g} {'pass' if ok else 'FAIL'}" for g, ok in c.results.items())
            lines.append(f"  {one_line(c.id)}: {results or '—'}")
    if view.removed:
        lines.append(f"Removed cases: {', '.join(one_line(c.id) for c in view.removed[:20])}")
    if view.changed:
        lines.append("Changed cases:")
        lines += [
            f"  {one_line(c.id)}: {', '.join(c.fields)}"
            + ("" if c.comparable is not False else " (old result not comparable)")
            for c in view.changed[:20]
        ]
    return lines


def repeats_lines(report: Report) -> list[str]:
    """Per metric the mean and spread over the repeats, and the flaky cases."""
    rep = report.repeats
    if rep is None:
        return []
    lines = [f"Repeats: {rep.count} per case · flaky cases: {rep.n_flaky}"]
    noisy = {m: s for m, s in rep.metrics.items() if s.max > s.min}
    lines.extend(
        f"  {m}: mean {s.mean:.4f} ± {s.std:.4f} [{s.min:.4f}, {s.max:.4f}]"
        for m, s in noisy.items()
    )
    for case in rep.flaky[:20]:
        shares = ", ".join(f"{g} {f:.0%}" for g, f in case.passed.items() if 0 < f < 1)
        lines.append(f"  flaky {one_line(case.id)}: passed {shares}")
    if rep.n_flaky > 20:
        lines.append(f"  … and {rep.n_flaky - 20} more flaky cases (see the JSON report)")
    return lines


def _cap(shown: int | None) -> int:
    return 1 << 62 if shown is None else max(0, shown)


def render_terminal(
    report: Report, *, show_failures: int | None = DEFAULT_SHOWN, color: bool = False
) -> str:
    """The report for a terminal; ``show_failures`` caps each case list (None: all)."""
    return _render(report, show_failures, _Paint(color))


def print_report(
    report: Report,
    stream: TextIO,
    *,
    show_failures: int | None = DEFAULT_SHOWN,
    quiet: bool = False,
    env: Mapping[str, str] | None = None,
) -> None:
    """The terminal view (or, ``quiet``, the summary line) on ``stream``: the one way it
    is printed. Untrusted text goes through ``log_safe`` (no workflow command, no hidden
    character); the colours are put in afterwards from a token no input can forge; then
    the text is fitted to what the stream's encoding can show."""
    if quiet:
        text = log_safe(report.summary)
    else:
        token = f"<{secrets.token_hex(8)}>"
        paint = _Paint(use_color(stream, env), escape=token)
        text = log_safe(_render(report, show_failures, paint)).replace(token, "\x1b[")
    try:
        stream.write(for_stream(text, stream) + "\n")
        stream.flush()
    except (OSError, ValueError):
        pass  # a closed pipe (| head) ends the output, not the run


def _baseline_line(base: BaselineSection) -> str:
    """The baseline's status; a regression is counted, not listed again (the tables and
    the broken cases above show each one)."""
    if base.status != "regression":  # the commands follow on lines of their own
        return f"Baseline: {base.status} — {without_commands(base.message, base.commands)}"
    broken = len({(c.key, c.id) for c in base.broken})
    parts = [count_noun(len(base.regressions), "metric") + " below it"] if base.regressions else []
    if broken:
        parts.append(count_noun(broken, "broken case"))
    return f"Baseline: regression — {', '.join(parts) or base.message} (shown above)"


def _floor_line(f: FloorCheck) -> str:
    if f.implicit:
        what = f"{f.current:g} fabricated" if f.ceiling else f"{f.current:.1%} passed"
        return f"Failed (no baseline: every case must pass): {f.key}/{f.metric} {what}"
    if f.ceiling:
        return f"Above ceiling: {f.key}/{f.metric} {f.current:g} > {f.floor:g}"
    return f"Below floor: {f.key}/{f.metric} {f.current:.4f} < {f.floor:.4f}"


# The warnings that repeat the first error reasons (``qa.qa_warnings``, and the error of a
# run over --max-error-rate, whose budget the baseline line states without them): when the
# Errors block lists every reason with its cases, the terminal does not print them again.
_ERRORS_WARNING = re.compile(r"(repeat \d+: )?[\d,]+ of [\d,]+ cases ended in an error \(")


def _render(report: Report, show_failures: int | None, paint: _Paint) -> str:
    lines: list[str] = []
    views = suite_views(report)
    reasons_listed = all(len(_errors_by_reason(v)) <= _cap(show_failures) for v in views)
    for view in views:
        lines += _suite_block(view, show_failures, paint)
        lines.append("")
    lines += repeats_lines(report)
    base = report.baseline
    if base is not None:
        if base.tests:
            lines.append(f"Significance (gate.mode significant, {len(base.tests)} tests, Holm):")
            lines.extend(
                f"  {t.key}/{one_line(t.metric)} {t.kind} p={t.p_value:.4g} "
                f"(threshold {t.threshold or 0:.4g}): "
                + ("SIGNIFICANT DROP" if t.significant else "within noise")
                + (f", Δ {t.delta:+.4f}" if t.delta is not None else "")
                + (f", {t.discordant[0]} broke / {t.discordant[1]} fixed" if t.discordant else "")
                for t in base.tests
            )
        if base.fixed:
            shown = ", ".join(c.id for c in base.fixed[:20])
            more = f" … and {len(base.fixed) - 20:,} more" if len(base.fixed) > 20 else ""
            lines.append(f"Fixed {count_noun(len(base.fixed), 'case')}: {shown}{more}")
        lines += [
            f"Lowered {lo.key}/{lo.metric}: {lo.old:.4f} → {lo.new:.4f} — reason: {lo.reason}"
            for lo in base.lowered
        ]
        if base.update_refused:
            lines.append(paint(f"Update refused: {base.update_refused}", "red"))
        lines.append(_baseline_line(base))
        if base.commands:
            lines.append("To fix it, run:")
            lines += [f"  {command}" for command in base.commands]
    lines += [paint(_floor_line(f), "red") for f in report.floors if not f.passed]
    lines += [
        paint(f"warning: {w}", "yellow")
        for w in report.warnings
        if not (reasons_listed and _ERRORS_WARNING.match(w))
    ]
    lines.append(paint(report.summary, _VERDICT_COLOR.get(report.verdict)))
    return "\n".join(lines)

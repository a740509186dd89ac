"""The report as GitHub-flavoured markdown: the PR comment and the job summary.

Laid out for a reviewer in a ~780 px PR column: one verdict line (head SHA, time), then per
suite what changed — the broken cases with their question, gate, expected and actual, and
the metrics that moved with their intervals — then fabricated numbers and errors by case,
and the full metric table folded in ``<details>`` (few columns, status as an icon).

Ids are shown exactly as written, in code spans whose backtick fence is longer than any
backtick run inside (code spans are literal on GitHub: no HTML, no mentions). Prose from
golden sets and answers — questions, expected and actual values, error reasons — is escaped so it cannot break a table, inject HTML,
ping people or fake our sticky-comment marker. When the body would be too long, the case
lists are cut (saying how many were left out) — never the verdict or the metric tables.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any

from ..safe_text import HIDDEN_CHARACTERS
from .model import CaseDelta, FlakyCase, Report
from .view import (
    FailedCase,
    MetricLine,
    Mismatch,
    SuiteView,
    compact,
    compact_pair,
    count_noun,
    fmt_interval,
    fmt_now,
    fmt_pct,
    fmt_pp,
    fmt_when,
    record_command,
    suite_views,
    without_commands,
)

__all__ = ["COMMENT_LIMIT", "code_span", "escape_md", "fenced_block", "render_markdown"]

COMMENT_LIMIT = 65_536
_VERDICT_ICON = {"pass": "✅", "fail": "❌", "error": "⚠️"}
STATUS_ICON = {
    "pass": "✅",
    "fail": "❌",
    "improved": "⬆️",
    "new": "🆕",
    "below": "⚠️",
    "n/a": "➖",
    "not measured": "⚪",
    "not compared": "⏸️",
    "—": "",
}
_LEGEND = {
    "pass": "✅ pass",
    "fail": "❌ fails the baseline or a floor",
    "improved": "⬆️ improved",
    "new": "🆕 new",
    "below": "⚠️ lower, not gated",
    "n/a": "➖ no case applies",
    "not measured": "⚪ not measured (warning): in the baseline, not computed now",
    "not compared": "⏸️ not compared",
}
# C0/C1 controls, zero-width, bidi and tag characters, lone surrogates (safe_text's set);
# a code span also cannot show a tab or a line break.
_CONTROL = re.compile(f"[{HIDDEN_CHARACTERS}]")
_INVISIBLE = re.compile(f"[{HIDDEN_CHARACTERS}\t\n]")
# What markdown could read as syntax inline: always escaped. An underscore only at a
# word's edge (GitHub never emphasises inside a word, so ``my_rag`` stays as written).
_MD_SPECIAL = re.compile(r"([\\`*\[\]|~])|(?<![^\W_])_|_(?![^\W_])")
# At the start of a line: headings, list items, block quotes, numbered lists.
_LINE_START = re.compile(r"^(?:[#+\-=>]|\d+[.)](?=\s|$))")
_MARKER_START = "<!--"
# How many entries each list shows at most (the budget may cut them shorter).
_MAX_BROKEN = 50
_MAX_LISTED = 30
_MAX_MISMATCHES = 40


def escape_md(text: Any, limit: int = 300) -> str:
    """Inert inline text: no HTML, no table breaks, no @mentions, no control characters."""
    s = text if isinstance(text, str) else json.dumps(text, ensure_ascii=False, default=str)
    s = _CONTROL.sub("", s).replace("\r", " ").replace("\n", " ")
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    s = _MD_SPECIAL.sub(lambda m: "\\" + m.group(0), s)
    # A zero-width space after "@" stops a mention; written as a character reference so
    # the markdown holds no invisible character (a log shows it as it is, and what
    # ``render`` prints to stdout is the same text it writes to a file).
    return s.replace("@", "@&#8203;")


def _escape_char(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _at_line_start(text: str) -> str:
    """Escaped text that starts a line: a leading ``#``, ``-``, ``>``, ``1.`` is not syntax."""
    found = _LINE_START.match(text)
    if found is None:
        return text
    mark = found.group(0)
    return mark[:-1] + "\\" + mark[-1] + text[len(mark) :]


def _visible(text: str) -> str:
    """Characters a code span cannot show (line breaks, controls, invisible and bidi
    characters) as ``\\uXXXX``; the opening of an HTML comment likewise, so an id can
    never pose as our sticky marker."""
    text = _INVISIBLE.sub(_escape_char, text)
    return text.replace(_MARKER_START, "\\u003c!--")


def code_span(text: Any, *, in_table: bool = False, limit: int = 200) -> str:
    """``text`` verbatim in a code span: the fence is one backtick longer than the longest
    run inside, padded when the text starts or ends with a backtick or spaces. In a table
    cell a pipe is ``\\|`` (GitHub splits cells before parsing code spans)."""
    s = text if isinstance(text, str) else compact(text, limit)
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    s = _visible(s)
    if not s:
        return "(empty)"
    runs = [len(r) for r in re.findall(r"`+", s)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if s[0] == "`" or s[-1] == "`" or (s[0] == " " and s[-1] == " " and s.strip()) else ""
    if in_table:
        s = s.replace("|", "\\|")
    return f"{fence}{pad}{s}{pad}{fence}"


def fenced_block(lines: Iterable[str], info: str = "sh") -> list[str]:
    """A copy-paste code block; the fence is longer than any backtick run in the text."""
    body = [_visible(line) for line in lines]
    longest = max((len(r) for line in body for r in re.findall(r"`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}{info}", *body, fence]


def _table(headers: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


class _Budget:
    """Characters left for the case lists once the fixed parts are laid out."""

    def __init__(self, room: int) -> None:
        self.room = room

    def take(self, text: str) -> bool:
        cost = len(text) + 1
        if cost > self.room:
            return False
        self.room -= cost
        return True


def _cut_list(
    items: list[Any],
    render: Callable[[Any], list[str]],
    budget: _Budget,
    cap: int,
    total: int | None = None,
) -> list[str]:
    """Rendered items while they fit (at most ``cap``), then how many were left out."""
    out: list[str] = []
    shown = 0
    for item in items[:cap]:
        lines = render(item)
        if not budget.take("\n".join(lines)):
            break
        out += lines
        shown += 1
    left = (len(items) if total is None else total) - shown
    if left > 0:
        out.append(f"- … and {left:,} more (the JSON report has every one)")
    return out


# --- pieces -----------------------------------------------------------------------


def _verdict_line(report: Report, head_sha: str | None) -> str:
    icon = _VERDICT_ICON.get(report.verdict, "")
    parts = [f"### {icon} ragspine-eval: {report.verdict.upper()}"]
    if head_sha:
        parts.append(f"head {code_span(head_sha[:12])}")
    if report.generated_at:
        parts.append(escape_md(fmt_when(report.generated_at), 40))
    return " · ".join(parts)


def _summary_line(report: Report) -> str:
    summary = report.summary
    prefix = f"ragspine-eval: {report.verdict.upper()} · "
    if summary.startswith(prefix):
        summary = summary[len(prefix) :]
    return _at_line_start(escape_md(summary, 1000))


def _state_block(report: Report) -> list[str]:
    """What to do when the baseline could not gate (stale, none, created)."""
    base = report.baseline
    if base is None:
        return []
    message = without_commands(base.message, base.commands)
    if base.status == "stale":
        lines = ["", f"**⚠️ Baseline not compared — stale.** {escape_md(message, 2000)}"]
    elif base.status == "none":
        if report.verdict == "error" or (not report.qa and not report.extraction):
            return []
        lines = ["", "_No baseline: nothing was compared with an earlier run._"]
        if any(f.implicit for f in report.floors):
            lines = ["", "_No baseline: every case had to pass every gate it was scored on._"]
        record = record_command(report)
        if record:
            lines += [
                "",
                "To gate the next runs, record one on the default branch and commit it:",
                "",
            ]
            lines += fenced_block([record])
        return lines
    elif base.status in ("created", "updated"):
        lines = ["", f"**Baseline {base.status}.** {escape_md(message, 2000)}"]
    elif base.update_refused:
        lines = ["", f"**❌ Baseline update refused:** {escape_md(base.update_refused, 2000)}"]
        record = record_command(report, baseline=base.path)
        if record and not base.commands:
            lines += ["", "If the drop is intended, record it with a reason:", ""]
            lines += fenced_block([f'{record} --lower-baseline "<reason>"'])
    elif base.commands or report.verdict == "error":
        lines = ["", f"**Baseline: {escape_md(base.status)}.** {escape_md(message, 2000)}"]
    else:
        return []
    if base.commands:
        verb = "Re-record it" if base.status == "stale" else "Run this"
        lines += ["", f"{verb} on the default branch and commit the baseline:", ""]
        lines += fenced_block(base.commands)
    if base.lowered:
        lines += ["", "**Lowered on purpose:**"]
        lines += [
            f"- {code_span(lo.key)} {code_span(lo.metric)}: {fmt_pct(lo.old)} → "
            f"{fmt_pct(lo.new)} — {escape_md(lo.reason, 500)}"
            for lo in base.lowered
        ]
    return lines


def _case_lines(case: FailedCase) -> list[str]:
    head = f"- {code_span(case.id)}"
    if case.question:
        head += f" — {escape_md(case.question, 300)}"
    if case.stage:
        head += f" _({escape_md(case.stage)} stage)_"
    lines = [head]
    erred = [f.gate for f in case.failures if _is_error(f.actual)]
    if case.error is not None:
        gates = f" — fails {', '.join(erred)}" if erred else ""
        lines.append(f"  - error: {escape_md(case.error, 300)}{gates}")
    for f in case.failures:
        if _is_error(f.actual):
            continue
        expected, actual = compact_pair(f.shown_expected, f.shown_actual, 200)
        lines.append(f"  - {code_span(f.gate)}: expected {_value(expected)}, got {_value(actual)}")
        if f.evidence:
            lines.append(f"    - {escape_md(f.evidence, 400)}")
    if case.fabricated:
        numbers = ", ".join(code_span(n) for n in case.fabricated[:20])
        lines.append(f"  - fabricated numbers: {numbers}")
    return lines


def _value(value: Any, limit: int = 200) -> str:
    """An expected or actual value: the system's own text, so escaped prose in bold (inert
    and shown as written: markdown escapes outside code spans do not show)."""
    text = escape_md(compact(value, limit), limit + 50)
    return f"**{text}**" if text.strip() else "(empty)"


def _gate_failures(case: FailedCase) -> bool:
    """Whether ``case`` failed a gate on its answer (not only by ending in an error, which
    the errors list says once)."""
    return any(not _is_error(f.actual) for f in case.failures)


def _is_error(actual: Any) -> bool:
    return isinstance(actual, dict) and set(actual) == {"error"}


def _moved_table(lines: list[MetricLine]) -> list[str]:
    rows = []
    for m in lines:
        values = f"{fmt_pct(m.baseline, m.metric)} → {fmt_now(m)}"
        if m.baseline is None:
            values = fmt_pct(m.current, m.metric)
        if m.floor is not None and "floor" in m.failed_by:
            values += f" (floor {fmt_pct(m.floor, m.metric)})"
        change = fmt_pp(m.delta, m.metric)
        interval = fmt_interval(m.interval, m.metric) if m.baseline is not None else ""
        rows.append(
            [
                code_span(m.metric, in_table=True),
                values,
                f"{change} {interval}".strip(),
                STATUS_ICON.get(m.status, ""),
            ]
        )
    return _table(["metric", "baseline → now", "Δ [95% CI]", ""], rows)


def _metric_table(view: SuiteView) -> list[str]:
    rows = []
    for m in view.metrics:
        now = fmt_now(m)
        if m.delta is not None:
            change = f"{fmt_pp(m.delta, m.metric)} {fmt_interval(m.interval, m.metric)}"
        else:
            change = fmt_interval(m.interval, m.metric) if m.status != "n/a" else ""
        rows.append(
            [
                code_span(m.metric, in_table=True),
                now,
                m.passed,
                change.strip(),
                STATUS_ICON.get(m.status, ""),
            ]
        )
    return _table(["metric", "now", "passed", "Δ [95% CI]", ""], rows)


def _legend(view: SuiteView) -> str:
    """The icons the table uses, explained (only those)."""
    used = {m.status for m in view.metrics}
    return " · ".join(text for status, text in _LEGEND.items() if status in used)


def _mismatch_tables(view: SuiteView, budget: _Budget) -> list[str]:
    if not view.mismatches:
        return []
    lines = ["", f"**Mismatching cells** ({len(view.mismatches) + view.mismatches_omitted:,})"]
    by_channel: dict[str, list[Mismatch]] = {}
    for m in view.mismatches:
        by_channel.setdefault(m.channel, []).append(m)
    for channel, items in by_channel.items():
        rows: list[list[str]] = []
        for m in items[:_MAX_MISMATCHES]:
            row = [
                code_span(m.fixture, in_table=True, limit=40),
                code_span(m.sheet, in_table=True, limit=40) if m.sheet else "",
                code_span(m.cell, in_table=True, limit=20),
                *(_value(v, 60) for v in compact_pair(m.expected, m.actual, 60)),
            ]
            if not budget.take(" | ".join(row)):
                break
            rows.append(row)
        if not rows:
            break
        lines += ["", f"{code_span(channel)}:", ""]
        lines += _table(["fixture", "sheet", "cell", "expected", "actual"], rows)
        if len(items) > len(rows):
            lines.append(f"\n… and {len(items) - len(rows):,} more in this channel")
    if view.mismatches_omitted:
        lines.append(f"\n… {view.mismatches_omitted:,} more were not kept in the report")
    return lines


def _suite_section(view: SuiteView, report: Report, budget: _Budget) -> list[str]:
    heading = f"#### {view.title}"
    if view.key != "extraction":
        heading += f" · {code_span(view.key)}"
    subtitle = view.subtitle.split(" · ", 1)[1] if view.key != "extraction" else view.subtitle
    lines = ["", f"{heading} · {escape_md(subtitle)}"]
    base = report.baseline
    compared = base is not None and view.key in base.values
    if view.broken:
        lines += [
            "",
            f"**{count_noun(len(view.broken), 'broken ' + view.unit)}** — passed in the "
            "baseline, fail now:",
            "",
        ]
        lines += _cut_list(view.broken, _case_lines, budget, _MAX_BROKEN)
    moved = view.moved
    if moved:
        lines += ["", f"**{count_noun(len(moved), 'metric')} moved:**", ""]
        lines += _moved_table(moved)
    lines += _golden_change_details(view, budget)
    if compared and not view.broken and not moved:
        lines += ["", "Nothing changed against the baseline."]
    if view.fabricated:
        lines += ["", f"**Fabricated numbers** ({count_noun(len(view.fabricated), 'case')}):", ""]
        lines += _cut_list(view.fabricated, _fabricated_lines, budget, _MAX_LISTED)
    if view.errors:
        lines += ["", f"**Errors** ({count_noun(len(view.errors), 'case')}):", ""]
        lines += _cut_list(view.errors, _error_lines, budget, _MAX_LISTED)
    lines += _mismatch_tables(view, budget)
    if view.key != "extraction":
        lines += _repeats_lines(report, budget)
    if not compared:
        failing = [c for c in view.failing if _gate_failures(c)]
        if failing:
            lines += ["", f"**Failing cases** ({len(failing):,}):", ""]
            lines += _cut_list(failing, _case_lines, budget, _MAX_LISTED)
    lines += [
        "",
        f"<details><summary>All metrics ({len(view.metrics)})</summary>",
        "",
        *_metric_table(view),
        "",
        _legend(view),
    ]
    if view.footer:
        lines += ["", escape_md(view.footer, 500)]
    lines += ["", "</details>"]
    if compared:
        others = [c for c in view.failing if _gate_failures(c)]
        if others:
            lines += [
                "",
                f"<details><summary>Failing before and now ({len(others):,})</summary>",
                "",
            ]
            lines += _cut_list(others, _case_lines, budget, _MAX_LISTED)
            lines += ["", "</details>"]
    return lines


def _golden_change_details(view: SuiteView, budget: _Budget) -> list[str]:
    """How the golden set moved since the baseline: new, removed and changed cases."""
    unit = view.unit

    def added(c: CaseDelta) -> list[str]:
        results = ", ".join(f"{g} {'pass' if ok else '**fail**'}" for g, ok in c.results.items())
        return [f"- {code_span(c.id)} {results or '—'}"]

    def changed(c: CaseDelta) -> list[str]:
        note = " (old result not comparable)" if c.comparable is False else ""
        return [f"- {code_span(c.id)}: {escape_md(', '.join(c.fields))}{note}"]

    lines: list[str] = []
    if view.added:
        title = f"**New {unit}s** ({len(view.added)}: shown, not gated on their first run)"
        lines += ["", title, ""]
        lines += _cut_list(view.added, added, budget, _MAX_LISTED)
    if view.removed:
        shown = ", ".join(code_span(c.id) for c in view.removed[:_MAX_LISTED])
        more = (
            f" … and {len(view.removed) - _MAX_LISTED:,} more"
            if len(view.removed) > _MAX_LISTED
            else ""
        )
        lines += ["", f"**Removed {unit}s** ({len(view.removed)}): {shown}{more}"]
    if view.changed:
        lines += ["", f"**Changed {unit}s** ({len(view.changed)})", ""]
        lines += _cut_list(view.changed, changed, budget, _MAX_LISTED)
    if view.counts is not None:
        lines += ["", f"_Compared on the {view.counts.compared:,} {unit}s both share._"]
    return lines


def _repeats_lines(report: Report, budget: _Budget) -> list[str]:
    """``--repeats`` (the flaky cases) and ``gate.mode: significant`` (the tests)."""
    lines: list[str] = []
    rep = report.repeats
    if rep is not None:
        lines += ["", f"**Repeats:** {rep.count} per case · flaky cases: {rep.n_flaky}"]
        if rep.flaky:
            flaky = ", ".join(code_span(c.id) for c in rep.flaky[:20])
            more = f" … and {rep.n_flaky - 20:,} more" if rep.n_flaky > 20 else ""
            lines[-1] += f" ({flaky}{more})"

            def shares(case: FlakyCase) -> list[str]:
                passed = ", ".join(
                    f"{code_span(g)} {f:.0%}" for g, f in case.passed.items() if 0 < f < 1
                )
                return [f"- {code_span(case.id)} passed {passed}"]

            lines += ["", "<details><summary>Flaky cases: pass rate per gate</summary>", ""]
            lines += _cut_list(rep.flaky, shares, budget, _MAX_LISTED, rep.n_flaky)
            lines += ["", "</details>"]
    base = report.baseline
    if base is not None and base.gate_mode == "significant":
        bad = [t for t in base.tests if t.significant]
        named = ", ".join(f"{escape_md(t.metric)} p={t.p_value:.3g}" for t in bad)
        lines += [
            "",
            f"**gate.mode significant:** {len(base.tests)} tests (Holm), {len(bad)} significant"
            + (f": {named}" if bad else ""),
        ]
    return lines


def _fabricated_lines(case: FailedCase) -> list[str]:
    numbers = ", ".join(code_span(n) for n in case.fabricated[:20])
    question = f" — {escape_md(case.question, 200)}" if case.question else ""
    return [f"- {code_span(case.id)}{question}: {numbers}"]


def _error_lines(case: FailedCase) -> list[str]:
    return [f"- {code_span(case.id)}: {escape_md(case.error or '', 300)}"]


def render_markdown(
    report: Report,
    *,
    run_url: str | None = None,
    artifact_url: str | None = None,
    head_sha: str | None = None,
    limit: int = COMMENT_LIMIT,
    reserve: int = 200,
) -> str:
    """Markdown body within ``limit`` characters (``reserve`` left for the caller's marker)."""
    head = [_verdict_line(report, head_sha), "", _summary_line(report)]
    head += _state_block(report)
    # Warnings follow what changed (the broken cases lead), before the links.
    warnings = [f"- ⚠️ {escape_md(w, 500)}" for w in report.warnings[:20]]
    links = []
    if run_url:
        links.append(f"[workflow run]({run_url})")
    if artifact_url:
        links.append(f"[report files]({artifact_url})")
    tail = ["", "**Warnings:**", "", *warnings] if warnings else []
    tail += ["", " · ".join(links)] if links else []
    views = suite_views(report)
    fixed = "\n".join(head + tail) + "\n"
    # The metric tables and headings take a few kB; the rest of the room is the lists'.
    skeleton = sum(len("\n".join(_suite_section(v, report, _Budget(0)))) for v in views)
    budget = _Budget(max(0, limit - reserve - len(fixed) - skeleton - 200 * len(views)))
    body: list[str] = list(head)
    for view in views:
        body += _suite_section(view, report, budget)
    text = "\n".join(body + tail) + "\n"
    if len(text) > limit - reserve:  # a last resort: cut at a line, close what is open
        text = text[: limit - reserve - 200].rsplit("\n", 1)[0]
        if text.count("<details>") > text.count("</details>"):
            text += "\n\n</details>"
        text += "\n\n_Trimmed to fit a comment; the JSON report has everything._\n"
    return text

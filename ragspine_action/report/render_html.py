"""The report as one self-contained HTML page: opens offline in any browser.

Verdict first, then per suite what changed (broken cases, and the metrics' change
intervals as a forest plot), pass rates by gate and by tag as bar charts, the failing
cases in a table a small inline script filters as you type, and the full metric table.
Everything is inline — CSS, SVG charts, the script — and a Content-Security-Policy
forbids the page any network access. Every piece of report text is HTML-escaped.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any, NamedTuple

from .model import Report
from .view import (
    FailedCase,
    MetricLine,
    SuiteView,
    compact,
    compact_pair,
    count_noun,
    fmt_interval,
    fmt_pct,
    fmt_pp,
    fmt_when,
    suite_views,
)

__all__ = ["MAX_ROWS", "render_html"]

MAX_ROWS = 5_000  # failing-case rows per suite; a browser stays quick at this size
_PASS, _FAIL, _OTHER, _INK, _GRID = "#1a7f37", "#cf222e", "#8c959f", "#1f2328", "#d0d7de"
_PLAIN = "#0969da"  # a value not compared with any baseline: neither good nor bad
_STATUS_CLASS = {"fail": "bad", "pass": "good", "improved": "good", "below": "warn"}

_CSS = """
:root { color-scheme: light; --ink: #1f2328; --muted: #59636e; --line: #d0d7de;
  --bad: #cf222e; --good: #1a7f37; --warn: #9a6700; }
* { box-sizing: border-box; }
body { font: 14px/1.5 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
  color: var(--ink); margin: 0 auto; max-width: 1080px; padding: 16px 24px 48px; }
header.verdict { border-radius: 8px; padding: 12px 18px; margin-bottom: 16px;
  border: 1px solid var(--line); }
header.pass { background: #dafbe1; } header.fail { background: #ffebe9; }
header.error { background: #fff8c5; }
.pill { display: inline-block; border-radius: 12px; padding: 0 10px; color: #fff;
  font-size: 14px; vertical-align: 3px; background: var(--muted); }
.pill.pass { background: var(--good); } .pill.fail { background: var(--bad); }
.pill.error { background: var(--warn); }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px;
  border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
.muted { color: var(--muted); }
code, pre { font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  background: #f6f8fa; border-radius: 4px; padding: 1px 4px; white-space: pre-wrap;
  overflow-wrap: break-word; }
pre { padding: 10px; border: 1px solid var(--line); }
table { border-collapse: collapse; width: 100%; margin: 6px 0 12px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; } td.num { text-align: right; white-space: nowrap; }
.bad { color: var(--bad); font-weight: 600; } .good { color: var(--good); }
.warn { color: var(--warn); }
.charts { display: flex; flex-wrap: wrap; gap: 24px; }
.chart-box { flex: 1 1 480px; min-width: 320px; }
svg.chart { display: block; max-width: 100%; height: auto; }
svg.chart text { font: 12px -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; fill: var(--ink); }
input[type=search] { font: inherit; padding: 4px 8px; width: 320px; max-width: 100%;
  border: 1px solid var(--line); border-radius: 6px; }
.count { margin-left: 8px; }
details { margin: 8px 0; } summary { cursor: pointer; font-weight: 600; }
"""

_SCRIPT = """
(function () {
  function apply(input) {
    var table = document.getElementById(input.getAttribute("data-filter"));
    var count = document.getElementById(input.getAttribute("data-filter") + "-count");
    var q = input.value.toLowerCase(), shown = 0, rows = table.tBodies[0].rows;
    for (var i = 0; i < rows.length; i++) {
      var hit = rows[i].textContent.toLowerCase().indexOf(q) !== -1;
      rows[i].hidden = !hit;
      if (hit) shown++;
    }
    count.textContent = shown + " of " + rows.length + " shown";
  }
  var start = "";
  var m = /[#&]q=([^&]*)/.exec(location.hash);
  if (m) { try { start = decodeURIComponent(m[1]); } catch (e) { start = ""; } }
  var inputs = document.querySelectorAll("input[data-filter]");
  for (var i = 0; i < inputs.length; i++) {
    (function (input) {
      if (start) input.value = start;
      input.addEventListener("input", function () { apply(input); });
      apply(input);
    })(inputs[i]);
  }
  var drawn = 0, charts = document.querySelectorAll("svg.chart");
  for (var j = 0; j < charts.length; j++) {
    var box = charts[j].getBBox();
    if (box.width > 0 && box.height > 0) drawn++;
  }
  document.documentElement.setAttribute("data-charts", String(charts.length));
  document.documentElement.setAttribute("data-charts-drawn", String(drawn));
})();
"""


def _e(text: Any) -> str:
    s = text if isinstance(text, str) else compact(text, 400)
    return html.escape(s, quote=True)


def _code(text: Any) -> str:
    return f"<code>{_e(text)}</code>"


class Bar(NamedTuple):
    label: str
    value: float  # 0..1
    note: str  # shown at the bar's end
    baseline: float | None
    color: str


def bar_chart(bars: Sequence[Bar], title: str, *, width: int = 540) -> str:
    """Horizontal bars (0–100%) with a tick where the baseline stood."""
    row, label_w, right = 24, 220, 70
    plot = width - label_w - right
    height = row * len(bars) + 28
    parts = [
        f'<svg class="chart" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{_e(title)}</title>",
    ]
    for pct in (0, 0.5, 1):
        x = label_w + pct * plot
        parts.append(
            f'<line x1="{x:.1f}" y1="4" x2="{x:.1f}" y2="{height - 20}" stroke="{_GRID}"/>'
            f'<text x="{x:.1f}" y="{height - 6}" text-anchor="middle">{int(pct * 100)}%</text>'
        )
    for i, bar in enumerate(bars):
        y = 6 + i * row
        label = bar.label if len(bar.label) <= 32 else bar.label[:31] + "…"
        w = max(0.0, min(1.0, bar.value)) * plot
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 14}" text-anchor="end">{_e(label)}'
            f"<title>{_e(bar.label)}</title></text>"
            f'<rect x="{label_w}" y="{y + 2}" width="{max(w, 1.5):.1f}" height="{row - 8}" '
            f'fill="{bar.color}" rx="2"/>'
            f'<text x="{label_w + plot + 6}" y="{y + 14}">{_e(bar.note)}</text>'
        )
        if bar.baseline is not None:
            bx = label_w + max(0.0, min(1.0, bar.baseline)) * plot
            parts.append(
                f'<line x1="{bx:.1f}" y1="{y}" x2="{bx:.1f}" y2="{y + row - 4}" '
                f'stroke="{_INK}" stroke-width="2"><title>baseline {bar.baseline:.1%}</title></line>'
            )
    parts.append("</svg>")
    return "".join(parts)


class Span(NamedTuple):
    label: str
    delta: float
    low: float
    high: float
    failed: bool


def forest_plot(spans: Sequence[Span], title: str, *, width: int = 540) -> str:
    """Each metric's change against the baseline: a dot with its 95% interval, zero marked."""
    row, label_w, right = 24, 220, 80
    plot = width - label_w - right
    height = row * len(spans) + 30
    reach = max([0.05] + [max(abs(s.low), abs(s.high), abs(s.delta)) for s in spans])

    def x(value: float) -> float:
        return label_w + (value + reach) / (2 * reach) * plot

    parts = [
        f'<svg class="chart" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{_e(title)}</title>",
        f'<line x1="{x(0):.1f}" y1="4" x2="{x(0):.1f}" y2="{height - 22}" stroke="{_INK}" '
        'stroke-dasharray="3 3"/>',
    ]
    for value in (-reach, 0.0, reach):
        text = fmt_pp(value) if value else "0"
        parts.append(
            f'<text x="{x(value):.1f}" y="{height - 6}" text-anchor="middle">{_e(text)}</text>'
        )
    for i, s in enumerate(spans):
        y = 6 + i * row + row / 2
        color = _FAIL if s.failed else (_PASS if s.delta > 0 else _OTHER)
        label = s.label if len(s.label) <= 32 else s.label[:31] + "…"
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 4}" text-anchor="end">{_e(label)}</text>'
            f'<line x1="{x(s.low):.1f}" y1="{y}" x2="{x(s.high):.1f}" y2="{y}" '
            f'stroke="{color}" stroke-width="3" stroke-linecap="round"/>'
            f'<circle cx="{x(s.delta):.1f}" cy="{y}" r="5" fill="{color}">'
            f"<title>{_e(s.label)}: {_e(fmt_pp(s.delta))} "
            f"[{_e(fmt_pp(s.low))}, {_e(fmt_pp(s.high))}]</title></circle>"
            f'<text x="{label_w + plot + 6}" y="{y + 4}">{_e(fmt_pp(s.delta))}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _metric_color(m: MetricLine) -> str:
    if m.status == "fail":
        return _FAIL
    if m.status in ("pass", "improved"):
        return _PASS
    return _PLAIN if m.status in ("—", "not compared") else _OTHER


def _gate_bars(view: SuiteView) -> list[Bar]:
    bars = []
    for m in view.metrics:
        if m.current is None or m.status == "n/a" or m.metric == "fabrication_count":
            continue
        label = f"{m.metric} ({m.passed})" if m.passed else m.metric
        bars.append(Bar(label, m.current, fmt_pct(m.current), m.baseline, _metric_color(m)))
    return bars


def _tag_bars(view: SuiteView) -> list[Bar]:
    bars = []
    for key, values in view.by_tag.items():
        for value, (total, passed) in values.items():
            rate = passed / total if total else 1.0
            bars.append(Bar(f"{key}={value}", rate, fmt_pct(rate), None, _PLAIN))
    return bars


def _spans(view: SuiteView) -> list[Span]:
    spans = []
    for m in view.metrics:
        interval = m.interval
        if m.delta is None or m.metric == "fabrication_count":
            continue
        if (
            interval is not None
            and interval.delta_low is not None
            and interval.delta_high is not None
        ):
            low, high = interval.delta_low, interval.delta_high
        else:
            low = high = m.delta
        if m.moved or m.status == "fail" or abs(high - low) > 1e-12:
            spans.append(Span(m.metric, m.delta, low, high, m.status == "fail"))
    return spans


def _case_rows(cases: Sequence[FailedCase], limit: int) -> tuple[list[str], int]:
    rows: list[str] = []
    for case in cases:
        stage = _e(case.stage or "")
        question = _e(case.question or "")
        problems = [
            (
                f.gate,
                f.shown_expected,
                f.shown_actual if not f.evidence else f"{compact(f.shown_actual)} — {f.evidence}",
            )
            for f in case.failures
            if not (isinstance(f.actual, dict) and set(f.actual) == {"error"})
        ]
        if case.error is not None:
            problems.insert(0, ("error", "", case.error))
        if case.fabricated:
            problems.append(("fabrication", "no numbers", ", ".join(case.fabricated)))
        for gate, expected, actual in problems or [("", "", "")]:
            if len(rows) >= limit:
                return rows, len(cases)
            broken = ' <span class="bad">broken</span>' if case.broken else ""
            wanted, got = compact_pair(expected, actual, 300)
            rows.append(
                f"<tr><td>{_code(case.id)}{broken}</td><td>{question}</td><td>{_e(gate)}</td>"
                f"<td>{_e(wanted)}</td><td>{_e(got)}</td><td>{stage}</td></tr>"
            )
    return rows, len(cases)


def _search_table(table_id: str, headers: Sequence[str], rows: list[str], what: str) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in headers)
    return (
        f'<p><input type="search" placeholder="Filter {what} (id, question, gate, value…)" '
        f'data-filter="{table_id}" aria-label="filter {what}">'
        f'<span class="count muted" id="{table_id}-count">{len(rows)} shown</span></p>'
        f'<table id="{table_id}"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}'
        "</tbody></table>"
    )


def _metric_table(view: SuiteView) -> str:
    rows = []
    for m in view.metrics:
        css = _STATUS_CLASS.get(m.status, "")
        status = m.status + (f" ({', '.join(m.failed_by)})" if m.failed_by else "")
        rows.append(
            f"<tr><td>{_code(m.metric)}</td><td class=num>{_e(fmt_pct(m.baseline, m.metric))}</td>"
            f"<td class=num>{_e('n/a' if m.status == 'n/a' else fmt_pct(m.current, m.metric))}</td>"
            f"<td class=num>{_e(m.passed)}</td><td class=num>{_e(fmt_pp(m.delta, m.metric))}</td>"
            f"<td class=num>{_e(fmt_interval(m.interval, m.metric))}</td>"
            f'<td class="{css}">{_e(status)}</td></tr>'
        )
    head = "".join(
        f"<th>{h}</th>" for h in ("metric", "baseline", "now", "passed", "Δ", "95% CI", "status")
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _suite(view: SuiteView, index: int, report: Report) -> str:
    key = f" · {_code(view.key)}" if view.key != "extraction" else ""
    subtitle = view.subtitle.split(" · ", 1)[-1] if view.key != "extraction" else view.subtitle
    out = [f'<section class="suite"><h2>{_e(view.title)}{key} · {_e(subtitle)}</h2>']
    out.append("<h3>What changed</h3>")
    if view.broken:
        rows, _ = _case_rows(view.broken, MAX_ROWS)
        out.append(
            f'<p class="bad">{_e(count_noun(len(view.broken), "broken " + view.unit))} — passed in the '
            "baseline, fail now</p>"
        )
        out.append(
            "<table><thead><tr><th>case</th><th>question</th><th>gate</th><th>expected</th>"
            f"<th>actual</th><th>stage</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
        )
    moved = view.moved
    if moved:
        items = "".join(
            f"<li>{_code(m.metric)}: {_e(fmt_pct(m.baseline, m.metric))} → "
            f"{_e(fmt_pct(m.current, m.metric))} "
            f'<span class="{_STATUS_CLASS.get(m.status, "")}">{_e(fmt_pp(m.delta, m.metric))}'
            f"</span> {_e(fmt_interval(m.interval, m.metric))}</li>"
            for m in moved
        )
        out.append(f"<ul>{items}</ul>")
    if not view.broken and not moved:
        base = report.baseline
        compared = base is not None and view.key in base.values
        quiet = "No case broke and no metric moved." if compared else "No baseline was compared."
        out.append(f'<p class="muted">{quiet}</p>')
    charts = []
    spans = _spans(view)
    if spans:
        charts.append(
            '<div class="chart-box"><h3>Change against the baseline (95% intervals)</h3>'
            + forest_plot(spans, f"{view.title}: change against the baseline")
            + "</div>"
        )
    gate_bars = _gate_bars(view)
    if gate_bars:
        what = "channel" if view.key == "extraction" else "gate"
        charts.append(
            f'<div class="chart-box"><h3>Pass rate by {what}</h3>'
            + bar_chart(gate_bars, f"{view.title}: pass rate by {what}")
            + "</div>"
        )
    tag_bars = _tag_bars(view)
    if tag_bars:
        charts.append(
            '<div class="chart-box"><h3>Pass rate by tag (all gate checks)</h3>'
            + bar_chart(tag_bars, f"{view.title}: pass rate by tag")
            + "</div>"
        )
    if charts:
        out.append(f'<div class="charts">{"".join(charts)}</div>')
    failing = list(view.all_failing())
    if failing:
        rows, total = _case_rows(failing, MAX_ROWS)
        out.append(f"<h3>Failing cases ({total:,})</h3>")
        if len(rows) >= MAX_ROWS:
            out.append(f'<p class="muted">The first {MAX_ROWS:,} rows; the JSON has all.</p>')
        out.append(
            _search_table(
                f"failing-{index}",
                ["case", "question", "gate", "expected", "actual", "stage"],
                rows,
                "failing cases",
            )
        )
    if view.mismatches:
        rows = [
            f"<tr><td>{_e(m.channel)}</td><td>{_code(m.fixture)}</td><td>{_code(m.sheet)}</td>"
            f"<td>{_code(m.cell)}</td><td>{_e(wanted)}</td><td>{_e(got)}</td></tr>"
            for m in view.mismatches[:MAX_ROWS]
            for wanted, got in [compact_pair(m.expected, m.actual, 300)]
        ]
        out.append(
            f"<h3>Mismatching cells ({len(view.mismatches) + view.mismatches_omitted:,})</h3>"
        )
        out.append(
            _search_table(
                f"cells-{index}",
                ["channel", "fixture", "sheet", "cell", "expected", "actual"],
                rows,
                "cells",
            )
        )
    out.append(
        f"<details open><summary>All metrics ({len(view.metrics)})</summary>"
        f"{_metric_table(view)}</details>"
    )
    if view.footer:
        out.append(f'<p class="muted">{_e(view.footer)}</p>')
    out.append("</section>")
    return "".join(out)


def _state(report: Report) -> str:
    base = report.baseline
    if base is None or base.status in ("pass", "regression", "none"):
        return ""
    parts = [f"<p><strong>Baseline {_e(base.status)}.</strong> {_e(base.message)}</p>"]
    if base.commands:
        parts.append("<p>Run this on the default branch and commit the baseline:</p>")
        parts.append(f"<pre><code>{_e(chr(10).join(base.commands))}</code></pre>")
    return "".join(parts)


def render_html(report: Report, *, head_sha: str | None = None) -> str:
    """One HTML document (see the module docstring)."""
    verdict = report.verdict
    when = fmt_when(report.generated_at) if report.generated_at else ""
    meta = [f"head {_code(head_sha[:12])}" if head_sha else "", _e(when)]
    views = suite_views(report)
    warnings = "".join(f"<li class=warn>{_e(w)}</li>" for w in report.warnings)
    body = [
        f'<header class="verdict {_e(verdict)}">'
        f'<h1><span class="pill {_e(verdict)}">{_e(verdict.upper())}</span> '
        f"ragspine-eval: {_e(verdict.upper())}</h1>"
        f'<p class="muted">{" · ".join(p for p in meta if p)}</p>'
        f"<p>{_e(report.summary.removeprefix(f'ragspine-eval: {verdict.upper()} · '))}</p>"
        "</header>",
        _state(report),
        f"<ul>{warnings}</ul>" if warnings else "",
        *(_suite(view, i, report) for i, view in enumerate(views)),
        f'<footer class="muted"><p>{_e(report.tool.name)} {_e(report.tool.version)} · '
        f"report schema {_e(report.schema_version)}</p></footer>",
    ]
    csp = (
        "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )
    title = f"ragspine-eval: {verdict.upper()}"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{_CSS}</style></head>\n"
        f'<body data-verdict="{_e(verdict)}">\n'
        + "\n".join(p for p in body if p)
        + f"\n<script>{_SCRIPT}</script>\n</body></html>\n"
    )

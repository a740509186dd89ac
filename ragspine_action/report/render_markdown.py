"""The report as GitHub-flavoured markdown: the PR comment and the job summary.

Verdict first, then one gate table per suite, regressions and broken cases, and the
failure details folded away. Text from golden sets and system answers is escaped so it
cannot break a table, inject HTML, ping people or fake our sticky-comment marker. When
the body would be too long, details are trimmed — never the gate tables.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..safe_text import HIDDEN_CHARACTERS
from .cases import attribution_by_id
from .model import BaselineSection, Report
from .render_terminal import (
    MetricRow,
    extraction_current,
    fmt_delta,
    fmt_value,
    metric_rows,
    not_applicable,
    qa_current_metrics,
)

__all__ = ["COMMENT_LIMIT", "escape_md", "render_markdown"]

COMMENT_LIMIT = 65_536
_ICON = {"pass": "✅", "fail": "❌", "error": "⚠️"}
_STATUS_ICON = {"pass": "✅ pass", "improved": "⬆️ improved", "new": "🆕 new"}
# C0/C1 controls, zero-width, bidi and tag characters, lone surrogates (safe_text's set).
_CONTROL = re.compile(f"[{HIDDEN_CHARACTERS}]")
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|~>])")


def escape_md(text: Any, limit: int = 300) -> str:
    """Inert inline text: no HTML, no table breaks, no @mentions, no control characters."""
    s = text if isinstance(text, str) else json.dumps(text, ensure_ascii=False, default=str)
    s = _CONTROL.sub("", s).replace("\r", " ").replace("\n", " ")
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    s = _MD_SPECIAL.sub(r"\\\1", s)
    return s.replace("@", "@\u200b")


def _table(headers: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


MD_HEADERS = ["metric", "baseline", "floor", "current", "passed", "Δ", "95% interval", "status"]


def _status_cell(status: str) -> str:
    if status.startswith("FAIL"):
        return f"❌ {status}"
    return _STATUS_ICON.get(status, status)


def _md_row(label: str, r: MetricRow, counts: dict[str, str]) -> list[str]:
    cells = r.cells(counts.get(r.metric, ""))
    return [label, *cells[1:-1], _status_cell(r.status)]


def _head(report: Report, run_url: str | None, artifact_url: str | None) -> list[str]:
    icon = _ICON.get(report.verdict, "")
    lines = [
        f"### {icon} ragspine-eval: {report.verdict.upper()}",
        "",
        escape_md(report.summary, 1000),
    ]
    links = []
    if run_url:
        links.append(f"[workflow run]({run_url})")
    if artifact_url:
        links.append(f"[JSON report]({artifact_url})")
    if links:
        lines += ["", " · ".join(links)]
    return lines


def _baseline_block(report: Report) -> list[str]:
    base = report.baseline
    if base is None:
        return []
    lines = ["", f"**Baseline:** {base.status} — {escape_md(base.message, 2000)}"]
    if base.regressions:
        lines += ["", "**Regressions**", ""]
        lines += _table(
            ["key", "metric", "baseline", "current", "delta"],
            [
                [
                    escape_md(r.key),
                    escape_md(r.metric),
                    fmt_value(r.baseline),
                    fmt_value(r.current),
                    fmt_delta(r.delta),
                ]
                for r in base.regressions
            ],
        )
    if base.broken:
        lines += [
            "",
            f"**Broken cases** ({len(base.broken)}: passed in the baseline, fail now)",
            "",
        ]
        lines += [
            f"- `{escape_md(c.id)}` {escape_md(c.metric)}: {escape_md(c.before)} → {escape_md(c.after)}"
            for c in base.broken[:50]
        ]
        if len(base.broken) > 50:
            lines.append(f"- … and {len(base.broken) - 50} more (see the JSON report)")
    lines += _case_set_lines(base) + _noise_lines(report)
    if base.lowered:
        lines += ["", "**Lowered on purpose**", ""]
        lines += [
            f"- {escape_md(lo.key)}/{escape_md(lo.metric)}: {lo.old:.4f} → {lo.new:.4f} — {escape_md(lo.reason, 500)}"
            for lo in base.lowered
        ]
    return lines


def _case_set_lines(base: BaselineSection) -> list[str]:
    """How the golden set moved since the baseline: new, removed and changed cases."""
    lines: list[str] = []
    if base.added:
        lines += ["", f"**New cases** ({len(base.added)}: shown, not gated on their first run)", ""]
        lines += [
            f"- `{escape_md(c.id)}` "
            + (
                ", ".join(f"{g} {'pass' if ok else '**fail**'}" for g, ok in c.results.items())
                or "—"
            )
            for c in base.added[:30]
        ]
    if base.removed:
        shown = ", ".join(f"`{escape_md(c.id)}`" for c in base.removed[:30])
        lines += ["", f"**Removed cases** ({len(base.removed)}): {shown}"]
    if base.changed:
        lines += ["", f"**Changed cases** ({len(base.changed)})", ""]
        lines += [
            f"- `{escape_md(c.id)}`: {escape_md(', '.join(c.fields))}"
            + ("" if c.comparable else " (old result not comparable)")
            for c in base.changed[:30]
        ]
    if base.update_refused:
        lines += ["", f"**Update refused**: {escape_md(base.update_refused, 1000)}"]
    return lines


def _noise_lines(report: Report) -> list[str]:
    """``--repeats`` (flaky cases, spreads) and ``gate.mode: significant`` (the tests)."""
    lines: list[str] = []
    rep = report.repeats
    if rep is not None:
        flaky = ", ".join(f"`{escape_md(c.id)}`" for c in rep.flaky[:20])
        more = f" … and {rep.n_flaky - 20} more" if rep.n_flaky > 20 else ""
        lines += ["", f"**Repeats:** {rep.count} per case · flaky cases: {rep.n_flaky}"]
        if flaky:
            lines[-1] += f" ({flaky}{more})"
    base = report.baseline
    if base is not None and base.gate_mode == "significant":
        bad = [t for t in base.tests if t.significant]
        lines += [
            "",
            f"**gate.mode significant:** {len(base.tests)} tests (Holm), {len(bad)} significant"
            + (
                ": " + ", ".join(f"{escape_md(t.metric)} p={t.p_value:.3g}" for t in bad)
                if bad
                else ""
            ),
        ]
    return lines


def _qa_tables(report: Report) -> list[str]:
    qa = report.qa
    if qa is None:
        return []
    counts = {name: f"{m.passed}/{m.total}" for name, m in qa.metrics.items()}
    rows = [
        _md_row(f"`{r.metric}`", r, counts)
        for r in not_applicable(
            metric_rows(qa.mode, qa_current_metrics(qa), report.baseline, report.floors), qa
        )
    ]
    lines = [
        "",
        f"#### QA suite · `{escape_md(qa.mode)}` · {escape_md(qa.system)} · {qa.n_cases} cases",
        "",
    ]
    lines += _table(MD_HEADERS, rows)
    a = qa.attribution
    lines += [
        "",
        f"Fabrication: **{qa.fabrication_count}** (target 0) · errors: **{qa.errors.count}** · "
        f"failed cases by stage: retrieval {a.retrieval}, generation {a.generation}, error {a.error}",
    ]
    return lines


def _extraction_table(report: Report) -> list[str]:
    if report.extraction is None:
        return []
    values, counts = extraction_current(report.extraction)
    rows = [
        _md_row(escape_md(r.metric), r, counts)
        for r in metric_rows("extraction", values, report.baseline, report.floors)
    ]
    n_facts = report.extraction.get("n_facts", 0)
    lines = ["", f"#### Extraction suite · {n_facts} facts", ""]
    return lines + _table(["fixture/channel", *MD_HEADERS[1:]], rows)


def _details(report: Report, budget: int) -> list[str]:
    """The failure table; rows stop once ``budget`` characters are filled (a million-case
    run can fail a hundred thousand times, and a comment holds a few hundred rows)."""
    qa = report.qa
    if qa is None:
        return []
    total = sum(len(metric.failures) for metric in qa.metrics.values())
    if not total:
        return []
    attribution = attribution_by_id(qa.cases)
    rows: list[list[str]] = []
    used = 0
    for gate, metric in qa.metrics.items():
        for f in metric.failures:
            if used > budget:
                break
            row = [
                f"`{escape_md(f.id)}`",
                gate,
                escape_md(f.expected, 200),
                escape_md(f.actual, 200),
                escape_md(attribution.get(f.id) or ""),
            ]
            used += sum(len(cell) + 3 for cell in row)
            rows.append(row)
    lines = ["", f"<details><summary>Failure details ({total})</summary>", ""]
    lines += _table(["case", "gate", "expected", "actual", "stage"], rows)
    if qa.attribution.advice:
        lines += [""] + [
            f"- **{k}**: {escape_md(v, 500)}" for k, v in qa.attribution.advice.items()
        ]
    lines += ["", "</details>"]
    return lines


def render_markdown(
    report: Report,
    *,
    run_url: str | None = None,
    artifact_url: str | None = None,
    limit: int = COMMENT_LIMIT,
    reserve: int = 200,
) -> str:
    """Markdown body within ``limit`` characters (``reserve`` left for the caller's marker)."""
    core = _head(report, run_url, artifact_url) + _qa_tables(report)
    if report.extraction:
        core += [
            "",
            "#### Extraction suite",
            "",
            escape_md(report.extraction.get("summary", ""), 2000),
        ]
    core += _baseline_block(report)
    core += [f"- ⚠️ {escape_md(w, 500)}" for w in report.warnings]
    body = "\n".join(core) + "\n"
    details = "\n".join(_details(report, limit)) + "\n"
    room = limit - reserve - len(body)
    if len(details) <= room:
        return body + details
    note = "\n_Failure details trimmed to fit; the JSON report has all of them._\n"
    lines = details.split("\n")
    kept: list[str] = []
    used = len(note) + len("\n</details>\n")
    for line in lines:
        if used + len(line) + 1 > room:
            break
        kept.append(line)
        used += len(line) + 1
    trimmed = "\n".join(kept) + ("\n</details>\n" if kept else "") + note
    return (
        (body + trimmed) if len(body) + len(trimmed) <= limit - reserve else body[: limit - reserve]
    )

"""The report as a terminal table (tabulate): one row per gated metric, verdict last."""

from __future__ import annotations

from typing import Any, NamedTuple

from tabulate import tabulate

from ..errors import one_line
from .model import BaselineSection, FloorCheck, Interval, QASection, Report, is_gated

__all__ = [
    "HEADERS",
    "extraction_current",
    "fmt_delta",
    "fmt_interval",
    "fmt_value",
    "metric_rows",
    "not_applicable",
    "render_terminal",
    "repeats_lines",
]

NOT_APPLICABLE = "n/a (0 cases)"


def fmt_value(value: float | None) -> str:
    return "—" if value is None else f"{value:.4f}"


def fmt_delta(delta: float | None) -> str:
    if delta is None:
        return "—"
    return "±0" if abs(delta) < 1e-12 else f"{delta:+.4f}"


def fmt_interval(interval: Interval | None) -> str:
    if interval is None:
        return "—"
    if interval.delta_low is not None and interval.delta_high is not None:
        return f"Δ [{interval.delta_low:+.3f}, {interval.delta_high:+.3f}]"
    if interval.current_low is not None and interval.current_high is not None:
        return f"[{interval.current_low:.3f}, {interval.current_high:.3f}]"
    return "—"


def _current_cell(value: float, on_common: float, common: int | None) -> str:
    """The current value; when the golden set changed, also the value on the common cases
    (the one the delta and the verdict are taken on)."""
    if common is None or abs(on_common - value) < 1e-12:
        return fmt_value(value)
    return f"{value:.4f} ({on_common:.4f} on {common} common)"


class MetricRow(NamedTuple):
    metric: str
    baseline: str
    floor: str
    current: str
    delta: str
    interval: str
    status: str

    def cells(self, count: str) -> list[str]:
        """The table's columns, in ``HEADERS`` order (``count`` is ``passed/total``)."""
        return [
            self.metric,
            self.baseline,
            self.floor,
            self.current,
            count,
            self.delta,
            self.interval,
            self.status,
        ]


def _status(failed_by: list[str], old: float | None, delta: float | None, gated: bool) -> str:
    if failed_by:
        return f"FAIL ({', '.join(failed_by)})"
    if old is None:
        return "new"
    if delta is not None and delta < -1e-12 and not gated:
        return "below (not gated)"
    if delta is not None and delta > 1e-12:
        return "improved"
    return "pass"


def metric_rows(
    key: str,
    current: dict[str, float],
    baseline: BaselineSection | None,
    floors: list[FloorCheck] | None = None,
) -> list[MetricRow]:
    """One row per metric of ``key``: baseline and floor beside the current value, and which
    of the two (if any) failed."""
    base_values = baseline.values.get(key, {}) if baseline else {}
    regressed = {r.metric for r in baseline.regressions if r.key == key} if baseline else set()
    floor_of = {f.metric: f for f in floors or [] if f.key == key}
    gated_list = baseline.gated if baseline else None
    # The golden set changed: the delta is taken on the cases both runs share.
    compared = baseline.current.get(key) if baseline else None
    counts = baseline.cases.get(key) if baseline else None
    common = counts.compared if counts is not None else None
    rows = []
    for metric, value in current.items():
        old = base_values.get(metric)
        now = compared.get(metric, value) if compared is not None else value
        delta = None if old is None else now - old
        floor = floor_of.get(metric)
        failed_by = [
            name
            for name, bad in (
                ("baseline", metric in regressed),
                ("floor", floor is not None and not floor.passed),
            )
            if bad
        ]
        gated = is_gated(gated_list, metric)
        interval = baseline.intervals.get(metric) if baseline else None
        rows.append(
            MetricRow(
                metric,
                fmt_value(old),
                fmt_value(floor.floor if floor else None),
                _current_cell(value, now, common),
                fmt_delta(delta),
                fmt_interval(interval),
                _status(failed_by, old, delta, gated),
            )
        )
    unmeasured = [m for m in baseline.not_measured if m.key == key] if baseline else []
    for missing in unmeasured:
        rows.append(
            MetricRow(
                one_line(missing.metric),
                fmt_value(missing.baseline),
                "—",
                "—",
                "—",
                "—",
                "not measured (warning)",
            )
        )
    return rows


def not_applicable(rows: list[MetricRow], qa: QASection) -> list[MetricRow]:
    """Rows of gates that applied to no case show ``n/a (0 cases)``, not a 1.0 pass rate."""
    empty = {name for name, m in qa.metrics.items() if m.total == 0}
    return [r._replace(current=NOT_APPLICABLE, delta="—") if r.metric in empty else r for r in rows]


def qa_current_metrics(qa: QASection) -> dict[str, float]:
    values = {name: m.pass_rate for name, m in qa.metrics.items()}
    if qa.retrieval is not None:
        values.update(qa.retrieval.overall)
    return values


def extraction_current(extraction: dict[str, Any]) -> tuple[dict[str, float], dict[str, str]]:
    """Flat ``fixture/channel`` accuracies (and coverage) with their ``correct/total``."""
    values: dict[str, float] = {}
    counts: dict[str, str] = {}
    parts = list(extraction.get("fixtures", {}).items())
    parts.append(
        (
            "total",
            {
                "channels": extraction.get("channels", {}),
                "coverage": extraction.get("coverage", {}),
            },
        )
    )
    for name, fixture in parts:
        for channel, result in fixture.get("channels", {}).items():
            values[f"{name}/{channel}"] = result["accuracy"]
            counts[f"{name}/{channel}"] = f"{result['correct']}/{result['total']}"
        coverage = fixture.get("coverage")
        if coverage:
            values[f"{name}/coverage"] = coverage["ratio"]
            counts[f"{name}/coverage"] = f"{coverage['aligned']}/{coverage['n_ground_truth']}"
    return values, counts


HEADERS = ["metric", "baseline", "floor", "current", "passed", "delta", "95% interval", "status"]


def _table_rows(rows: list[MetricRow], counts: dict[str, str]) -> list[list[str]]:
    return [r.cells(counts.get(r.metric, "")) for r in rows]


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


def render_terminal(report: Report) -> str:
    lines: list[str] = []
    qa = report.qa
    if qa is not None:
        lines.append(f"QA suite · system={qa.system} · mode={qa.mode} · {qa.n_cases} cases")
        current = qa_current_metrics(qa)
        counts = {name: f"{m.passed}/{m.total}" for name, m in qa.metrics.items()}
        if report.repeats is not None:  # the mean over the repeats, and how many repeats
            current = {m: s.mean for m, s in report.repeats.metrics.items()}
            counts = {m: f"mean of {report.repeats.count}" for m in current}
        rows = not_applicable(metric_rows(qa.mode, current, report.baseline, report.floors), qa)
        table = _table_rows(rows, counts)
        lines.append(
            tabulate(
                table,
                headers=HEADERS,
                tablefmt="simple",
                disable_numparse=True,
            )
        )
        lines.append(
            f"fabrication: {qa.fabrication_count} (target 0) · errors: {qa.errors.count}"
            f" · attribution: retrieval {qa.attribution.retrieval},"
            f" generation {qa.attribution.generation}, error {qa.attribution.error}"
        )
    if report.extraction is not None:
        values, counts = extraction_current(report.extraction)
        lines.append(f"Extraction suite · {report.extraction.get('n_facts', 0)} facts")
        rows = metric_rows("extraction", values, report.baseline, report.floors)
        table = _table_rows(rows, counts)
        lines.append(tabulate(table, headers=HEADERS, tablefmt="simple", disable_numparse=True))
    if report.repeats is not None:
        lines.extend(repeats_lines(report))
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
        if base.regressions:
            lines.append("Regressions:")
            lines.extend(
                f"  {r.key}/{r.metric}: {r.baseline:.4f} → {r.current:.4f} ({r.delta:+.4f})"
                for r in base.regressions
            )
        if base.broken:
            lines.append("Broken cases (passed in the baseline, fail now):")
            lines.extend(f"  {c.id} [{c.metric}] {c.before} → {c.after}" for c in base.broken)
        if base.fixed:
            lines.append(f"Fixed cases: {', '.join(c.id for c in base.fixed[:20])}")
        if base.added:
            lines.append("New cases (shown, not gated on their first run):")
            lines.extend(
                f"  {one_line(c.id)}: "
                + (
                    ", ".join(f"{g} {'pass' if ok else 'FAIL'}" for g, ok in c.results.items())
                    or "—"
                )
                for c in base.added[:20]
            )
        if base.removed:
            lines.append(f"Removed cases: {', '.join(one_line(c.id) for c in base.removed[:20])}")
        if base.changed:
            lines.append("Changed cases:")
            lines.extend(
                f"  {one_line(c.id)}: {', '.join(c.fields)}"
                + ("" if c.comparable else " (old result not comparable)")
                for c in base.changed[:20]
            )
        if base.update_refused:
            lines.append(f"Update refused: {base.update_refused}")
        if base.lowered:
            lines.extend(
                f"Lowered {lo.key}/{lo.metric}: {lo.old:.4f} → {lo.new:.4f} — reason: {lo.reason}"
                for lo in base.lowered
            )
        lines.append(f"Baseline: {base.status} — {base.message}")
    lines.extend(
        f"Above ceiling: {f.key}/{f.metric} {f.current:g} > {f.floor:g}"
        if f.ceiling
        else f"Below floor: {f.key}/{f.metric} {f.current:.4f} < {f.floor:.4f}"
        for f in report.floors
        if not f.passed
    )
    lines.extend(f"warning: {w}" for w in report.warnings)
    lines.append(report.summary)
    return "\n".join(lines)

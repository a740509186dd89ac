"""The report as JUnit XML, for the test tabs of CI systems (GitHub reporters, GitLab, Jenkins).

One ``<testsuite>`` per suite and key (``qa.<mode>``, ``extraction``), one ``<testcase>``
per golden case (per extracted cell for extraction), and one ``<failure>`` per gate the
case failed, its message saying expected and actual. A case that ended in an error has an
``<error>`` with the reason, and each gate it failed for want of an answer is a failure
saying so. Metrics that fell against the baseline are testcases of their
own in a ``<suite>/metrics`` testsuite, so a regression that breaks no single case still
shows red.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from xml.sax.saxutils import escape as xml_escape
from xml.sax.saxutils import quoteattr

from .cases import CaseTable
from .model import QASection, Report
from .view import (
    CaseFailure,
    FailedCase,
    SuiteView,
    compact,
    compact_pair,
    fmt_pct,
    fmt_pp,
    suite_views,
)

__all__ = ["render_junit"]

# Characters XML 1.0 cannot carry at all (not even as references).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _text(value: str) -> str:
    return xml_escape(_NOT_XML.sub("\ufffd", value))


def _attr(value: str) -> str:
    return quoteattr(_NOT_XML.sub("\ufffd", value), {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


def _failure_elements(case: FailedCase) -> list[str]:
    out: list[str] = []
    if case.error is not None:
        out.append(
            f'<error type="error" message={_attr(case.error[:500])}>{_text(case.error)}</error>'
        )
    for f in case.failures:
        if isinstance(f.actual, dict) and set(f.actual) == {"error"}:
            # The gate failed because there was no answer: a failure of its own (each
            # failed gate is one), the reason said once more in the <error> above.
            reason = str(f.actual["error"])
            message = f"{f.gate}: no answer, the case ended in an error: {reason[:300]}"
            body = [f"error: {reason}"]
        else:
            expected, actual = compact_pair(f.shown_expected, f.shown_actual)
            message = f"{f.gate}: expected {expected}, got {actual}"
            body = [f"expected: {compact(f.expected, 4000)}", f"actual: {compact(f.actual, 4000)}"]
        if f.evidence:
            body.append(f"evidence: {f.evidence}")
        if case.question:
            body.insert(0, f"question: {case.question}")
        if case.stage:
            body.append(f"stage: {case.stage}")
        if case.broken:
            body.append("broken: passed in the baseline")
        out.append(
            f"<failure type={_attr(f.gate)} message={_attr(message)}>"
            f"{_text(chr(10).join(body))}</failure>"
        )
    if case.fabricated:
        numbers = ", ".join(case.fabricated)
        out.append(
            f'<failure type="fabrication" message={_attr("fabricated numbers: " + numbers)}>'
            f"{_text(case.question or '')}</failure>"
        )
    return out


def _testcase(name: str, classname: str, children: Iterable[str]) -> str:
    inner = "".join(children)
    head = f'<testcase name={_attr(name)} classname={_attr(classname)} time="0"'
    return f"    {head}/>" if not inner else f"    {head}>{inner}</testcase>"


def _qa_case_ids(qa: QASection) -> list[str]:
    cases = qa.cases
    return list(cases.ids) if isinstance(cases, CaseTable) else [c.id for c in cases]


def _count(children: list[str], tag: str) -> int:
    return sum(1 for c in children if c.startswith(f"<{tag}"))


def _suite(report: Report, name: str, ids: list[str], view: SuiteView) -> tuple[str, int, int, int]:
    """The ``<testsuite>`` and its (tests, failures, errors)."""
    failed = {c.id: c for c in view.all_failing()}
    lines: list[str] = []
    n_failures = n_errors = 0
    known = set(ids)
    listed = [*ids, *(c.id for c in view.all_failing() if c.id not in known)]
    for case_id in listed:
        case = failed.get(case_id)
        children = _failure_elements(case) if case is not None else []
        n_failures += _count(children, "failure")
        n_errors += _count(children, "error")
        lines.append(_testcase(case_id, name, children))
    head = (
        f'  <testsuite name={_attr(name)} tests="{len(lines)}" failures="{n_failures}" '
        f'errors="{n_errors}" skipped="0" time="0" timestamp={_attr(report.generated_at)}>'
    )
    props = [
        "    <properties>",
        f'      <property name="verdict" value={_attr(report.verdict)}/>',
        f'      <property name="summary" value={_attr(report.summary)}/>',
        "    </properties>",
    ]
    xml = "\n".join([head, *props, *lines, "  </testsuite>"])
    return xml, len(lines), n_failures, n_errors


def _cells_as_cases(view: SuiteView) -> SuiteView:
    """Extraction: each mismatching cell is a case failing one or more channels."""
    cells: dict[str, FailedCase] = {}
    for m in view.mismatches:
        where = f"{m.sheet}!{m.cell}" if m.sheet else m.cell
        cell_id = f"{m.fixture}:{where}" if m.fixture else where
        cells.setdefault(cell_id, FailedCase(cell_id)).failures.append(
            CaseFailure(m.channel, m.expected, m.actual)
        )
    return replace(view, failing=list(cells.values()), broken=[])


def _metrics_suite(report: Report, name: str, view: SuiteView) -> tuple[str, int, int, int]:
    """The metrics that fail the baseline or a floor, each a testcase with one failure, so
    a regression that breaks no single case still shows red."""
    lines = []
    for m in view.failed_metrics:
        message = (
            f"{m.metric}: {fmt_pct(m.baseline, m.metric)} → {fmt_pct(m.current, m.metric)} "
            f"({fmt_pp(m.delta, m.metric)}), fails the {' and the '.join(m.failed_by)}"
        )
        failure = f'<failure type="metric" message={_attr(message)}>{_text(message)}</failure>'
        lines.append(_testcase(m.metric, name, [failure]))
    head = (
        f'  <testsuite name={_attr(name)} tests="{len(lines)}" failures="{len(lines)}" '
        f'errors="0" skipped="0" time="0" timestamp={_attr(report.generated_at)}>'
    )
    return "\n".join([head, *lines, "  </testsuite>"]), len(lines), len(lines), 0


def render_junit(report: Report) -> str:
    """The report as one JUnit XML document (see the module docstring)."""
    suites: list[str] = []
    tests = failures = errors = 0
    for view in suite_views(report):
        if view.key == "extraction":
            name = "extraction"
            xml, t, f, e = _suite(report, name, [], _cells_as_cases(view))
        else:
            name = f"qa.{view.key}"
            ids = _qa_case_ids(report.qa) if report.qa is not None else []
            xml, t, f, e = _suite(report, name, ids, view)
        parts = [(xml, t, f, e)]
        if view.failed_metrics:
            parts.append(_metrics_suite(report, f"{name}/metrics", view))
        for xml, t, f, e in parts:
            suites.append(xml)
            tests, failures, errors = tests + t, failures + f, errors + e
    head = (
        f'<testsuites name="ragspine-eval" tests="{tests}" failures="{failures}" '
        f'errors="{errors}" time="0">'
    )
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', head, *suites, "</testsuites>"]
    return "\n".join(lines) + "\n"

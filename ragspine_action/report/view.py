"""What a reader needs from a report, decided once for every renderer.

The markdown comment, the terminal, JUnit and HTML all show the same facts: the verdict,
the cases that broke against the baseline (with their question, the failed gate, expected
and actual, and the stage to blame), the metrics that moved with their intervals, the
fabricated numbers by case, the error reasons and the extraction cells that mismatch.
This module derives them from a ``Report``; the renderers only lay them out.
"""

from __future__ import annotations

import json
import math
import shlex
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

import orjson

from .cases import CaseTable, attribution_by_id
from .model import (
    BaselineSection,
    CaseCounts,
    CaseDelta,
    CaseResult,
    GateMetric,
    Interval,
    JudgeEvidence,
    QASection,
    Report,
    is_gated,
)

__all__ = [
    "CaseFailure",
    "FailedCase",
    "MetricLine",
    "Mismatch",
    "SuiteView",
    "citation_summary",
    "clip",
    "compact",
    "compact_pair",
    "count_noun",
    "extraction_current",
    "fmt_interval",
    "fmt_now",
    "fmt_pct",
    "fmt_pp",
    "fmt_when",
    "golden_change_line",
    "qa_current_metrics",
    "record_command",
    "refusal_summary",
    "suite_views",
    "without_commands",
]

# A gate no case applied to: its pass rate (1.0 by RAGSpine's rule) is not shown.
NOT_APPLICABLE = "n/a (0 cases)"
# Metrics that count things (target 0) rather than rate them.
_COUNTS = frozenset({"fabrication_count", "errors"})


def count_noun(n: int, singular: str, plural: str | None = None) -> str:
    """``1 regression``, ``2 regressions``, ``1 broken case``."""
    return f"{n:,} {singular if n == 1 else (plural or singular + 's')}"


def compact(value: Any, limit: int = 120) -> str:
    """A value as a reader writes it: ``1702 USD_M``, ``ask_first``, ``[estimate, total]``."""
    if value is None:
        text = "—"
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, float):
        text = _number(value)
    elif isinstance(value, int | str):
        text = str(value)
    elif isinstance(value, dict) and set(value) <= {"value", "unit"} and "value" in value:
        unit = value.get("unit")
        text = compact(value["value"]) + (f" {unit}" if unit else "")
    elif isinstance(value, dict) and set(value) == {"error"}:
        text = f"error: {value['error']}"
    elif isinstance(value, list | tuple):
        text = "[" + ", ".join(compact(v, limit) for v in value) + "]"
    elif isinstance(value, dict) and all(isinstance(k, str) for k in value):
        text = "{" + ", ".join(f"{k}: {compact(v, limit)}" for k, v in value.items()) + "}"
    else:
        text = json.dumps(value, ensure_ascii=False, default=str, separators=(", ", ": "))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def compact_pair(expected: Any, actual: Any, limit: int = 120) -> tuple[str, str]:
    """Expected and actual as ``compact`` shows them, unless they would read the same
    although they differ (``5`` and ``"5"``, ``Revenue`` and ``Revenue ``): then as JSON
    literals, whose quotes show the type and the spaces."""
    shown = compact(expected, limit), compact(actual, limit)
    if " ".join(shown[0].split()) == " ".join(shown[1].split()) and expected != actual:
        return _literal(expected, limit), _literal(actual, limit)
    return shown


def _literal(value: Any, limit: int) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _number(value: float) -> str:
    if math.isfinite(value) and value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.6g}"


def fmt_pct(value: float | None, metric: str = "") -> str:
    """A rate as a percentage with one decimal (a count stays a count)."""
    if value is None:
        return "—"
    if metric in _COUNTS:
        return _number(value)
    return f"{value * 100:.1f}%"


def fmt_pp(delta: float | None, metric: str = "", *, sign: str = "−") -> str:
    """A change in percentage points (``−20.0 pp``); a count's change as a signed count."""
    if delta is None:
        return "—"
    if abs(delta) < 1e-12:
        return "±0"
    text = f"{delta:+g}" if metric in _COUNTS else f"{delta * 100:+.1f} pp"
    return text.replace("-", sign)


def fmt_interval(interval: Interval | None, metric: str = "", *, sign: str = "−") -> str:
    """The 95% interval of the change in pp (``[−50.0, 0.0]``), or of the value when there
    is no baseline (``[50.0, 100.0]%``); empty when none was computed."""
    if interval is None:
        return ""
    if interval.delta_low is not None and interval.delta_high is not None:
        if abs(interval.delta_low) < 1e-12 and abs(interval.delta_high) < 1e-12:
            return ""  # no case changed: nothing to bound
        low, high = interval.delta_low * 100, interval.delta_high * 100
        return f"[{low:+.1f}, {high:+.1f}]".replace("-", sign).replace("+0.0", "0.0")
    if interval.current_low is not None and interval.current_high is not None:
        return f"[{interval.current_low * 100:.1f}, {interval.current_high * 100:.1f}]%"
    return ""


def fmt_when(stamp: str) -> str:
    """``2026-11-30T22:10:05+00:00`` → ``2026-11-30 22:10 UTC`` (unparsable: as given)."""
    try:
        moment = datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        return stamp
    offset = moment.utcoffset()
    zone = "UTC" if offset is not None and not offset else moment.strftime("%z") or ""
    return f"{moment:%Y-%m-%d %H:%M} {zone}".strip()


@dataclass(frozen=True)
class CaseFailure:
    """One gate one case failed: expected and actual as recorded.

    For the groundedness gates ``summary`` says expected and actual in words (their
    records are structures) and ``evidence`` is the judge's reason in one line: the first
    unsupported claim (or reference sentence) and the closest sentence it was matched to.
    """

    gate: str
    expected: Any
    actual: Any
    evidence: str | None = None
    summary: tuple[str, str] | None = None

    @property
    def shown_expected(self) -> Any:
        return self.summary[0] if self.summary is not None else self.expected

    @property
    def shown_actual(self) -> Any:
        return self.summary[1] if self.summary is not None else self.actual


@dataclass
class FailedCase:
    """A case that fails now (``broken``: it passed in the baseline)."""

    id: str
    question: str | None = None
    stage: str | None = None
    failures: list[CaseFailure] = field(default_factory=list)
    broken: bool = False
    error: str | None = None
    fabricated: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class MetricLine:
    """One metric of a suite with everything the tables show about it."""

    metric: str
    current: float | None
    baseline: float | None
    passed: str  # "4/5" or ""
    delta: float | None
    interval: Interval | None
    floor: float | None
    status: str  # pass | fail | improved | new | below | n/a | not measured
    failed_by: tuple[str, ...] = ()
    # The golden set changed since the baseline: the value on the cases both share (the
    # one the change and the verdict are taken on), and how many those are.
    on_common: float | None = None
    common: int | None = None

    @property
    def moved(self) -> bool:
        return self.delta is not None and abs(self.delta) > 1e-12


@dataclass(frozen=True)
class Mismatch:
    """An extraction cell whose channel value differs from the ground truth."""

    channel: str
    fixture: str
    sheet: str
    cell: str
    expected: Any
    actual: Any


@dataclass
class SuiteView:
    """One suite (a QA mode or extraction) as every renderer shows it."""

    key: str
    title: str
    subtitle: str
    metrics: list[MetricLine]
    broken: list[FailedCase] = field(default_factory=list)
    failing: list[FailedCase] = field(default_factory=list)  # fail now, not broken
    n_failing: int = 0
    fabricated: list[FailedCase] = field(default_factory=list)
    errors: list[FailedCase] = field(default_factory=list)
    mismatches: list[Mismatch] = field(default_factory=list)
    mismatches_omitted: int = 0
    by_tag: dict[str, dict[str, tuple[int, int]]] = field(default_factory=dict)
    footer: str = ""
    unit: str = "case"  # what a row of the suite is: a golden case, an extracted cell

    # The golden set changed since the baseline (by case digest).
    added: list[CaseDelta] = field(default_factory=list)
    removed: list[CaseDelta] = field(default_factory=list)
    changed: list[CaseDelta] = field(default_factory=list)
    counts: CaseCounts | None = None

    @property
    def moved(self) -> list[MetricLine]:
        return [m for m in self.metrics if m.moved or m.status == "fail"]

    @property
    def failed_metrics(self) -> list[MetricLine]:
        return [m for m in self.metrics if m.status == "fail"]

    def all_failing(self) -> Iterator[FailedCase]:
        yield from self.broken
        yield from self.failing


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


def fmt_now(line: MetricLine) -> str:
    """The current value; when the golden set changed, also the value on the common cases."""
    text = NOT_APPLICABLE if line.status == "n/a" else fmt_pct(line.current, line.metric)
    on_common, now = line.on_common, line.current
    if on_common is not None and now is not None and abs(on_common - now) > 1e-12:
        text += f" ({fmt_pct(on_common, line.metric)} on {line.common:,} common)"
    return text


def record_command(report: Report, *, baseline: str | None = None) -> str | None:
    """The command that records this run's inputs as a baseline (from ``report.config``);
    None when the config does not say enough (a hand-made report)."""
    config = report.config
    system, mode = config.get("system"), config.get("mode")
    if not isinstance(system, str) or not isinstance(mode, str):
        return None
    parts = ["ragspine-eval"]
    suites = config.get("suites")
    if isinstance(suites, list) and suites != ["qa"]:
        parts.append("--suite " + ("all" if set(suites) == {"qa", "extraction"} else suites[0]))
    if config.get("qrels"):
        parts.append(f"--qrels {_arg(config['qrels'])} --run {_arg(config.get('trec_run'))}")
    elif system != "reference" or config.get("golden"):
        parts.append(f"--system {system}")
        for flag in ("golden", "outcomes", "endpoint"):
            if isinstance(config.get(flag), str):
                parts.append(f"--{flag} {_arg(config[flag])}")
    parts.append(f"--mode {_arg(mode)}")
    path = baseline or config.get("baseline") or "baseline.json"
    parts.append(f"--baseline {_arg(path)} --update-baseline")
    return " ".join(parts)


def without_commands(message: str, commands: list[str]) -> str:
    """The baseline's message without the commands (the code block below shows them) and
    without the clause that introduced them (``…; re-record it with:``)."""
    for command in commands:
        at = message.find(command)
        if at < 0:
            continue
        head = message[:at].rstrip()
        if head.endswith(":"):
            clause = head.rfind("; ")
            head = head[:clause] if clause > 0 else head[:-1]
        message = head.rstrip(" ;,:")
        if message and message[-1] not in ".!?":
            message += "."
    return message


def _arg(value: Any) -> str:
    return shlex.quote(str(value))


def golden_change_line(view: SuiteView) -> str:
    """One sentence on how the golden set changed since the baseline ('' if it did not)."""
    if not (view.added or view.removed or view.changed):
        return ""
    parts = []
    if view.added:
        parts.append(
            f"{count_noun(len(view.added), 'new ' + view.unit)} (not gated on their first run)"
        )
    if view.removed:
        parts.append(f"{len(view.removed):,} removed")
    if view.changed:
        parts.append(f"{len(view.changed):,} changed")
    shared = f"; compared on the {view.counts.compared:,} they share" if view.counts else ""
    return "The golden set changed since the baseline: " + ", ".join(parts) + shared


def _not_applicable(metric: GateMetric) -> bool:
    return not metric.applicable or metric.total == 0


def _metric_lines(
    key: str,
    current: dict[str, float],
    counts: dict[str, str],
    report: Report,
    not_applicable: Iterable[str] = (),
) -> list[MetricLine]:
    base = report.baseline
    compared = base is not None and key in base.values
    base_values = base.values.get(key, {}) if base else {}
    regressed = {r.metric for r in base.regressions if r.key == key} if base else set()
    floors = {f.metric: f for f in report.floors if f.key == key}
    gated = base.gated if base else None
    skipped = set(not_applicable)
    # The golden set changed since the baseline: the change is taken on the cases both
    # runs share (``baseline.current``), the value shown is this run's.
    common = base.current.get(key, {}) if base else {}
    shared = base.cases.get(key) if base else None
    lines: list[MetricLine] = []
    names = list(current) + [m for m in base_values if m not in current]
    for metric in names:
        value = current.get(metric)
        old = base_values.get(metric)
        now = common.get(metric, value)
        delta = None if now is None or old is None else now - old
        floor = floors.get(metric)
        failed_by = tuple(
            name
            for name, bad in (
                ("baseline", metric in regressed),
                ("floor", floor is not None and not floor.passed),
            )
            if bad
        )
        if failed_by:
            status = "fail"
        elif value is None:
            status = "not measured"
        elif metric in skipped:
            status = "n/a"
        elif not compared:
            status = "not compared" if base is not None and base.status == "stale" else "—"
        elif old is None:
            status = "new"
        elif delta is not None and delta < -1e-12 and not is_gated(gated, metric):
            status = "below"
        elif delta is not None and delta > 1e-12:
            status = "improved"
        else:
            status = "pass"
        interval = base.intervals.get(metric) if base else None
        if status == "n/a":  # nothing was measured: no change, no interval
            delta = interval = None
        lines.append(
            MetricLine(
                metric=metric,
                current=value,
                baseline=old,
                passed=counts.get(metric, ""),
                delta=delta,
                interval=interval,
                floor=floor.floor if floor else None,
                status=status,
                failed_by=failed_by,
                on_common=now if shared is not None and now != value else None,
                common=shared.compared if shared is not None else None,
            )
        )
    return lines


def _qa_failed_cases(
    qa: QASection, base: BaselineSection | None
) -> tuple[list[FailedCase], list[FailedCase], int]:
    """(broken, other failing, number of failing cases): every failing case once, its
    failed gates together, in report order."""
    stage_of = attribution_by_id(qa.cases) if _has_failures(qa) else {}
    by_id: dict[str, FailedCase] = {}

    def case(case_id: str) -> FailedCase:
        found = by_id.get(case_id)
        if found is None:
            found = by_id[case_id] = FailedCase(case_id, stage=stage_of.get(case_id))
        return found

    for gate, metric in qa.metrics.items():
        for f in metric.failures:
            entry = case(f.id)
            entry.failures.append(CaseFailure(gate, f.expected, f.actual))
            if f.question and entry.question is None:
                entry.question = f.question
    for e in qa.errors.cases:
        case(e.id).error = e.error
    for fab in qa.fabrication.cases:
        entry = case(fab.id)
        entry.fabricated = list(fab.numbers)
        entry.question = entry.question or fab.question
    retrieval = qa.retrieval
    if retrieval is not None and retrieval.misses:
        retrieval_ids = _retrieval_case_ids(qa)
        gate = f"hit@{retrieval.protected_k}"
        for miss in retrieval.misses:
            if miss.id in retrieval_ids:
                entry = case(miss.id)
                entry.question = entry.question or miss.question
                if not any(f.gate == gate for f in entry.failures):
                    entry.failures.append(
                        CaseFailure(gate, f"rank ≤ {retrieval.protected_k}", _rank(miss.rank))
                    )
    broken_ids: list[str] = []
    if base is not None:
        asked = {m.id: m.question for m in retrieval.misses} if retrieval is not None else {}
        for change in base.broken:
            if change.key != qa.mode:
                continue
            entry = case(change.id)
            entry.question = entry.question or asked.get(change.id)
            if change.metric.startswith("hit@"):  # the rank it had beside the one it has
                k = change.metric[4:]
                failure = CaseFailure(
                    change.metric, f"rank ≤ {k} (was {_rank(change.before)})", _rank(change.after)
                )
                entry.failures = [f for f in entry.failures if f.gate != change.metric]
                entry.failures.append(failure)
            if not entry.broken:
                entry.broken = True
                broken_ids.append(change.id)
    _explain_judged(by_id, qa.cases)
    broken = [by_id[i] for i in broken_ids]
    others = [c for c in by_id.values() if not c.broken]
    return broken, others, len(by_id)


# The gates whose failures a judge explains claim by claim (``CaseResult.judge``).
_JUDGED = ("faithfulness", "answer_accuracy")
# How much of a claim, a matched sentence and a reason one evidence line shows.
_CLAIM_CHARS, _REASON_CHARS = 90, 60


def clip(text: Any, limit: int) -> str:
    """``text`` on one line (whitespace runs as one space), at most ``limit`` characters."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def _judge_summary(gate: str, expected: Any, actual: Any) -> tuple[str, str] | None:
    """Expected and actual of a groundedness failure in words (None: shown as recorded)."""
    if not isinstance(actual, dict):
        return None
    if "judge_error" in actual:
        return compact(
            expected
        ), f"no verdict: the judge failed ({clip(actual['judge_error'], 120)})"
    if gate == "faithfulness":
        unsupported = actual.get("unsupported")
        if not isinstance(unsupported, list):
            return None
        if "reason" in actual:
            return compact(expected), str(actual["reason"])
        claims = actual.get("claims")
        if isinstance(claims, int):
            return compact(
                expected
            ), f"{len(unsupported)} of {count_noun(claims, 'claim')} unsupported"
        return compact(expected), f"{count_noun(len(unsupported), 'claim')} unsupported"
    if gate == "answer_accuracy" and isinstance(expected, dict):
        threshold, recall = expected.get("min_recall"), actual.get("recall")
        if not isinstance(threshold, int | float) or not isinstance(recall, int | float):
            return None
        wanted = f"recall ≥ {threshold:g} of the {expected.get('reference', 'reference')}"
        problems = actual.get("problems")
        got = f"recall {recall:.2f}"
        if isinstance(problems, list) and problems:
            got += f", {count_noun(len(problems), 'sentence')} contradicted"
        return wanted, got
    return None


def citation_summary(expected: Any, actual: Any) -> tuple[str, str] | None:
    """citation_validity's expected and actual in words: which source, among the sources,
    named in the answer — and what of it did not hold (None: shown as recorded)."""
    if not isinstance(expected, dict) or not isinstance(actual, dict):
        return None
    wanted: list[str] = []
    wrong: list[str] = []
    source = expected.get("source")
    if isinstance(source, dict):
        wanted.append(f"source {_place(source)}")
        got = actual.get("source")
        if got != source:
            wrong.append(f"source {_place(got)}" if isinstance(got, dict) else "no source")
    doc = expected.get("narrative_doc")
    if isinstance(doc, str):
        wanted.append(f"{doc} among the sources")
        sources = actual.get("sources")
        if isinstance(sources, list) and doc not in sources:
            wrong.append(f"sources {compact(sources, 200)}" if sources else "no sources")
    named = actual.get("named_in_answer")
    if isinstance(named, list):
        cited = [d for d in ((source or {}).get("doc"), doc) if isinstance(d, str)]
        wanted.append("named in the answer")
        missing = [d for d in dict.fromkeys(cited) if d not in named]
        if missing:
            wrong.append(f"{', '.join(missing)} not named in the answer")
    if not wanted or not wrong:
        return None
    return ", ".join(wanted), "; ".join(wrong)


def refusal_summary(expected: Any, actual: Any) -> tuple[str, str] | None:
    """refusal_appropriateness in words: a refusal (with no value) or an answer."""
    if not isinstance(expected, dict) or not isinstance(actual, dict):
        return None
    refuse, refused, value = expected.get("refuse"), actual.get("refused"), actual.get("value")
    if not isinstance(refuse, bool) or not isinstance(refused, bool):
        return None
    with_value = f" with the value {compact(value)}" if value is not None else ""
    if refuse:
        got = f"a refusal{with_value}" if refused else f"an answer{with_value}"
        return "a refusal, no value", got
    return "an answer, not a refusal", f"a refusal{with_value}" if refused else "an answer"


def _place(source: dict[str, Any]) -> str:
    doc, locator = source.get("doc"), source.get("locator")
    return f"{doc} ({locator})" if locator else str(doc)


# Gates whose records are structures: expected and actual said in words instead.
_IN_WORDS: dict[str, Callable[[Any, Any], tuple[str, str] | None]] = {
    "citation_validity": citation_summary,
    "refusal_appropriateness": refusal_summary,
}


def _evidence_line(gate: str, evidence: JudgeEvidence) -> str | None:
    """The first claim the judge did not support, why, and what it came closest to."""
    bad = [c for c in evidence.claims if c.verdict in ("unsupported", "error")]
    if not bad:
        return None
    first = bad[0]
    what = "reference not matched" if gate == "answer_accuracy" else first.verdict
    line = f"{what}: “{clip(first.claim, _CLAIM_CHARS)}”"
    if first.reason:
        line += f" — {clip(first.reason, _REASON_CHARS)}"
    in_answer = gate == "answer_accuracy"
    if first.matched:
        where = "in the answer" if in_answer else "context"
        line += f"; closest {where}: “{clip(first.matched, _CLAIM_CHARS)}”"
    elif first.verdict == "unsupported":
        where = "sentence in the answer" if in_answer else "context sentence"
        line += f"; no {where} comes close"
    if len(bad) > 1:
        line += f" (+{len(bad) - 1} more)"
    return line


def _judge_evidence(cases: Sequence[CaseResult], wanted: set[str]) -> dict[str, dict[str, Any]]:
    """The judges' evidence of the cases in ``wanted`` (read only for those)."""
    found: dict[str, dict[str, Any]] = {}
    if isinstance(cases, CaseTable):
        ids = cases.ids
        for position, encoded in cases.judge.items():
            if ids[position] in wanted:
                found[ids[position]] = orjson.loads(encoded)
        return found
    for case in cases:
        if case.id in wanted and case.judge:
            found[case.id] = dict(case.judge)
    return found


def _explain_judged(by_id: dict[str, FailedCase], cases: Sequence[CaseResult]) -> None:
    """Groundedness failures say in words what failed, with the judge's evidence."""
    wanted = {
        case_id
        for case_id, entry in by_id.items()
        for f in entry.failures
        if f.gate in _JUDGED and not _is_error_value(f.actual)
    }
    evidence = _judge_evidence(cases, wanted) if wanted else {}
    for entry in by_id.values():
        explained = []
        for f in entry.failures:
            in_words = _IN_WORDS.get(f.gate)
            if in_words is not None and not _is_error_value(f.actual):
                words = in_words(f.expected, f.actual)
                explained.append(replace(f, summary=words) if words is not None else f)
                continue
            if f.gate not in _JUDGED or _is_error_value(f.actual):
                explained.append(f)
                continue
            found = evidence.get(entry.id, {}).get(f.gate)
            line = None
            if found is not None:
                try:
                    judged = (
                        found
                        if isinstance(found, JudgeEvidence)
                        else JudgeEvidence.model_validate(found)
                    )
                except ValueError:  # a hand-made report: show the record as it is
                    judged = None
                line = _evidence_line(f.gate, judged) if judged is not None else None
            explained.append(
                CaseFailure(
                    f.gate,
                    f.expected,
                    f.actual,
                    evidence=line,
                    summary=_judge_summary(f.gate, f.expected, f.actual),
                )
            )
        entry.failures = explained


def _is_error_value(actual: Any) -> bool:
    return isinstance(actual, dict) and set(actual) == {"error"}


def _rank(rank: Any) -> str:
    return "not retrieved" if rank in (None, 0) else f"rank {rank}"


def _has_failures(qa: QASection) -> bool:
    return any(m.failures for m in qa.metrics.values()) or bool(
        qa.errors.cases or qa.fabrication.cases or (qa.retrieval and qa.retrieval.misses)
    )


def _retrieval_case_ids(qa: QASection) -> set[str]:
    cases = qa.cases
    if isinstance(cases, CaseTable):
        return {i for i, t in zip(cases.ids, cases.case_types, strict=True) if t == "retrieval"}
    return {c.id for c in cases if c.case_type == "retrieval"}


def _qa_view(report: Report, qa: QASection) -> SuiteView:
    counts = {name: f"{m.passed}/{m.total}" for name, m in qa.metrics.items()}
    current = qa_current_metrics(qa)
    if report.repeats is not None:  # the mean over the repeats (the baseline records it)
        current = {m: s.mean for m, s in report.repeats.metrics.items()}
        counts = {m: f"mean of {report.repeats.count}" for m in current}
    skipped = [name for name, m in qa.metrics.items() if _not_applicable(m)]
    metrics = _metric_lines(qa.mode, current, counts, report, skipped)
    fab = _count_line(report, qa.mode, "fabrication_count", float(qa.fabrication_count))
    if fab is not None:
        metrics.append(fab)
    broken, failing, n_failing = _qa_failed_cases(qa, report.baseline)
    by_tag: dict[str, dict[str, tuple[int, int]]] = {}
    for metric in qa.metrics.values():
        for key, values in metric.by_tag.items():
            for value, count in values.items():
                total, passed = by_tag.setdefault(key, {}).get(value, (0, 0))
                by_tag[key][value] = (total + count.total, passed + count.passed)
    a = qa.attribution
    return SuiteView(
        key=qa.mode,
        title="QA",
        subtitle=f"{qa.mode} · {qa.system} · {count_noun(qa.n_cases, 'case')}",
        metrics=metrics,
        broken=broken,
        failing=failing,
        n_failing=n_failing,
        # A broken case shows its error and numbers with it: each fact is said once.
        fabricated=[c for c in failing if c.fabricated],
        errors=[c for c in failing if c.error is not None],
        by_tag=by_tag,
        footer=(
            f"fabrication {qa.fabrication_count} (target 0) · errors {qa.errors.count} · "
            f"attribution: retrieval {a.retrieval}, generation {a.generation}, "
            f"error {a.error}"
        ),
    )


def _count_line(report: Report, key: str, metric: str, value: float) -> MetricLine | None:
    """fabrication_count as a row when the baseline compares it (it always gates)."""
    base = report.baseline
    if base is None:
        return None
    regression = next((r for r in base.regressions if r.key == key and r.metric == metric), None)
    if regression is not None:
        return MetricLine(metric, value, regression.baseline, "", regression.delta, None, None,
                          "fail", ("baseline",))  # fmt: skip
    return None


def _extraction_view(report: Report, extraction: dict[str, Any]) -> SuiteView:
    values, counts = extraction_current(extraction)
    metrics = _metric_lines("extraction", values, counts, report)
    mismatches: list[Mismatch] = []
    omitted = 0
    for channel, result in (extraction.get("channels") or {}).items():
        if not isinstance(result, dict):
            continue
        omitted += int(result.get("mismatches_omitted") or 0)
        for m in result.get("mismatches") or []:
            if not isinstance(m, dict):
                continue
            locator = str(m.get("locator", ""))
            sheet, bang, cell = locator.rpartition("!")
            mismatches.append(
                Mismatch(channel, str(m.get("fixture", "")), sheet if bang else "",
                         cell if bang else locator, m.get("expected"), m.get("actual"))
            )  # fmt: skip
    broken: list[FailedCase] = []
    base = report.baseline
    if base is not None:
        # A broken cell is ``<locator>`` on ``<fixture>/<channel>``: its values are those of
        # the mismatch at that place.
        found = {(m.fixture, m.channel, f"{m.sheet}!{m.cell}" if m.sheet else m.cell): m
                 for m in mismatches}  # fmt: skip
        by_id: dict[str, FailedCase] = {}
        for change in base.broken:
            if change.key != "extraction":
                continue
            fixture, _, channel = change.metric.rpartition("/")
            cell_id = f"{fixture}:{change.id}" if fixture else change.id
            entry = by_id.setdefault(cell_id, FailedCase(cell_id, broken=True))
            m = found.get((fixture, channel, change.id))
            if m is not None:
                entry.failures.append(CaseFailure(channel, m.expected, m.actual))
            else:
                entry.failures.append(CaseFailure(channel or change.metric, change.before,
                                                  change.after))  # fmt: skip
        broken = list(by_id.values())
    n_facts = extraction.get("n_facts", 0)
    return SuiteView(
        key="extraction",
        title="Extraction",
        subtitle=count_noun(int(n_facts) if isinstance(n_facts, int) else 0, "fact"),
        metrics=metrics,
        broken=broken,
        mismatches=mismatches,
        mismatches_omitted=omitted,
        unit="cell",
    )


def suite_views(report: Report) -> list[SuiteView]:
    """The report's suites, QA first."""
    views: list[SuiteView] = []
    if report.qa is not None:
        views.append(_qa_view(report, report.qa))
    if report.extraction:
        views.append(_extraction_view(report, report.extraction))
    base = report.baseline
    if base is not None:
        for view in views:
            view.added = [c for c in base.added if c.key == view.key]
            view.removed = [c for c in base.removed if c.key == view.key]
            view.changed = [c for c in base.changed if c.key == view.key]
            view.counts = base.cases.get(view.key)
    return views

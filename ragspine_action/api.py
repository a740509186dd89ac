"""The Python API with RAGSpine's names, signatures and field names, on the CLI's code path.

A RAGSpine user's calls keep working (``docs/ragspine.md``)::

    from ragspine_action import run_qa_eval, evaluate, make_baseline_entry, compare_to_baseline

    report = run_qa_eval("data/golden/qa_golden_set.jsonl", mode="tool")
    print(report.metrics["numeric_accuracy"].pass_rate, report.fabrication_count)

    report = evaluate(cases, outcomes, "agent", reference_texts={"HK_QBR.pptx": "…"})
    comparison = compare_to_baseline(report, baseline["agent"])
    assert comparison.passed, comparison.regressions

Every number comes from the same scoring as ``ragspine-eval`` (``qa.evaluate_qa``); the
report types here only present it in RAGSpine's shapes (``GateMetric`` with ``name``,
``failures`` as dicts, ``fabrication`` as a ``GateMetric``). The CLI's full report section
(retrieval metrics, attribution, per-case results) is ``report.section``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar

from pydantic import ValidationError

from .baseline.model import BaselineEntry
from .baseline.ratchet import Comparison, check_stale, compare, entry_from_values
from .baseline.values import qa_suite_values
from .config import RunConfig
from .errors import InputError, Problem
from .gates import GATE_NAMES, GateSettings, make_judge
from .gates.fabrication import DEFAULT_PERIOD_PATTERNS
from .gates.fabrication import detect_fabricated_numbers as _detect
from .gates.judge import Judge
from .golden.load import golden_set_from_cases
from .golden.load import load_golden_set as _load_golden_set
from .golden.models import GoldenCase
from .outcomes.model import Outcome
from .paths import BUNDLED_GOLDEN
from .qa import QASettings, evaluate_qa
from .reference_texts import as_passages
from .report.model import QASection
from .run import run
from .systems.base import complete_collection
from .validation import problems_from_validation_error

__all__ = [
    "FABRICATION",
    "GATE_METRICS",
    "BaselineComparison",
    "CaseOutcome",
    "EntailmentJudge",
    "GateMetric",
    "GoldenCase",
    "QAEvalReport",
    "compare_to_baseline",
    "detect_fabricated_numbers",
    "evaluate",
    "load_golden_set",
    "make_baseline_entry",
    "make_entailment_judge",
    "run_qa_eval",
]

GATE_METRICS: tuple[str, ...] = GATE_NAMES
FABRICATION = "fabrication"


@dataclass
class CaseOutcome:
    """One case's behaviour, with RAGSpine's field names (``dataclasses.asdict`` of its
    ``CaseOutcome`` builds one: ``CaseOutcome(**record)``).

    ``error`` is ours: a case that failed to run counts as a failure on every gate.
    """

    case_id: str
    clarification_mode: str = "none"
    answer: str = ""
    found_value: float | None = None
    found_unit: str | None = None
    found_source: dict[str, object] | None = None
    refused: bool = False
    sources: list[dict[str, object]] = field(default_factory=list)
    tool_statuses: list[str] = field(default_factory=list)
    route: str = ""
    narrative_answer: str = ""
    retrieved_context: list[str] = field(default_factory=list)
    error: str | None = None

    def to_outcome(self) -> Outcome:
        """The SPEC outcome the gates read (validated: a wrong type is an error)."""
        return Outcome.model_validate(asdict(self))


@dataclass
class GateMetric:
    """One gate's result, as RAGSpine reports it; ``pass_rate`` is 1.0 when ``total`` is 0
    (``applicable`` tells that case apart)."""

    name: str
    total: int = 0
    passed: int = 0
    pass_rate: float = 0.0
    failures: list[dict[str, object]] = field(default_factory=list)
    by_tag: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)

    @property
    def applicable(self) -> bool:
        return self.total > 0

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "total": self.total,
            "passed": self.passed,
            "pass_rate": self.pass_rate,
            "failures": self.failures,
            "by_tag": self.by_tag,
        }


@dataclass
class QAEvalReport:
    """The gates kept apart (never one number), fabrication beside them, as RAGSpine has it.

    ``section`` is the CLI report's ``qa`` section this was built from.
    """

    mode: str
    n_cases: int
    metrics: dict[str, GateMetric] = field(default_factory=dict)
    fabrication: GateMetric = field(default_factory=lambda: GateMetric(name=FABRICATION))
    section: QASection | None = field(default=None, repr=False)

    @property
    def fabrication_count(self) -> int:
        """Refusal cases whose answer holds a number other than a period (target 0)."""
        return self.fabrication.total - self.fabrication.passed

    @property
    def retrieval(self) -> Any:
        return self._section.retrieval

    @property
    def errors(self) -> Any:
        return self._section.errors

    @property
    def cases(self) -> Any:
        return self._section.cases

    @property
    def _section(self) -> QASection:
        if self.section is None:
            raise AttributeError("this report was not built from a run")
        return self.section

    def to_dict(self) -> dict[str, object]:
        return {
            "mode": self.mode,
            "n_cases": self.n_cases,
            "metrics": {name: m.to_dict() for name, m in self.metrics.items()},
            "fabrication": self.fabrication.to_dict(),
            "fabrication_count": self.fabrication_count,
        }


@dataclass
class BaselineComparison:
    """RAGSpine's verdict: ``passed`` and ``regressions`` (``metric``, ``baseline``,
    ``current``, ``delta``). ``comparison`` adds the broken and fixed cases."""

    passed: bool = False
    regressions: list[dict[str, object]] = field(default_factory=list)
    comparison: Comparison | None = field(default=None, repr=False)

    @property
    def failed(self) -> bool:
        return not self.passed


@dataclass
class EntailmentJudge:
    """RAGSpine's judge seam (``entails(claim, context)``) over one of our judges."""

    judge: Judge

    @property
    def name(self) -> str:
        return self.judge.name

    def entails(self, claim: str, context: str) -> bool:
        return self.judge.entailed(claim, [context])


def make_entailment_judge(kind: str = "lexical", **kwargs: Any) -> EntailmentJudge:
    """The judge named ``kind`` (``make_judge``'s kinds; ``lexical``, offline and
    deterministic, by default), with RAGSpine's ``entails(claim, context)``."""
    threshold = kwargs.pop("threshold", 0.6)
    if kwargs:
        raise TypeError(f"make_entailment_judge takes threshold only, not {sorted(kwargs)}")
    try:
        return EntailmentJudge(make_judge(kind, threshold=float(threshold)))
    except ValueError:
        if kind in ("nli", "llm"):
            raise NotImplementedError(
                f"entailment judge {kind!r} is not built into this API; 'lexical' is the default"
            ) from None
        raise ValueError(f"unknown entailment judge {kind!r}: use 'lexical'") from None


def load_golden_set(path: str | os.PathLike[str]) -> list[GoldenCase]:
    """The validated cases of a golden set file (raises InputError listing every problem)."""
    return list(_load_golden_set(path).cases)


def _gate_metric(name: str, section: QASection) -> GateMetric:
    got = section.metrics[name]
    return GateMetric(
        name=name,
        total=got.total,
        passed=got.passed,
        pass_rate=got.pass_rate,
        failures=[{"id": f.id, "expected": f.expected, "actual": f.actual} for f in got.failures],
        by_tag={
            key: {value: {"total": c.total, "passed": c.passed} for value, c in values.items()}
            for key, values in got.by_tag.items()
        },
    )


def _fabrication_metric(section: QASection, cases: Sequence[GoldenCase]) -> GateMetric:
    numbers = {c.id: c.numbers for c in section.fabrication.cases}
    errors = {c.id for c in section.errors.cases}
    metric = GateMetric(name=FABRICATION)
    for case in cases:
        if not case.expected.refuse or case.id in errors:
            continue
        found = numbers.get(case.id)
        metric.total += 1
        metric.passed += found is None
        if found is not None:
            metric.failures.append(
                {"id": case.id, "expected": "no number but period tokens", "actual": found}
            )
        for key, value in case.tags.items():
            bucket = metric.by_tag.setdefault(key, {}).setdefault(value, {"total": 0, "passed": 0})
            bucket["total"] += 1
            bucket["passed"] += found is None
    metric.pass_rate = 1.0 if metric.total == 0 else metric.passed / metric.total
    return metric


def _report(section: QASection, cases: Sequence[GoldenCase]) -> QAEvalReport:
    return QAEvalReport(
        mode=section.mode,
        n_cases=section.n_cases,
        metrics={name: _gate_metric(name, section) for name in section.metrics},
        fabrication=_fabrication_metric(section, cases),
        section=section,
    )


def run_qa_eval(
    golden_path: str | os.PathLike[str] | None = None,
    mode: str = "tool",
    kb_dir: str | os.PathLike[str] | None = None,
) -> QAEvalReport:
    """Run the bundled reference system on a golden set (default: the bundled one), with the
    reference system's own documents as answer_accuracy's reference texts."""
    golden = str(golden_path or BUNDLED_GOLDEN)
    config = RunConfig(
        golden=golden,
        mode=mode,
        kb_dir=None if kb_dir is None else str(kb_dir),
        baseline=None,
        bootstrap_resamples=0,
    )
    qa = run(config).report.qa
    assert qa is not None
    return _report(qa, _load_golden_set(golden).cases)


T = TypeVar("T")
U = TypeVar("U")


def _validated(where: str, items: Iterable[T], convert: Callable[[T], U]) -> list[U]:
    """Each item converted; every invalid one reported at once (InputError, exit 2's
    message), never a bare pydantic error."""
    out: list[U] = []
    problems: list[Problem] = []
    for index, item in enumerate(items, start=1):
        try:
            out.append(convert(item))
        except ValidationError as exc:
            problems += problems_from_validation_error(exc, where, index, None)
    if problems:
        raise InputError(problems)
    return out


def _outcome(value: CaseOutcome | Outcome | Mapping[str, Any]) -> Outcome:
    if isinstance(value, Outcome):
        return value
    if isinstance(value, CaseOutcome):
        return value.to_outcome()
    return Outcome.model_validate(dict(value))


def evaluate(
    cases: Sequence[GoldenCase | Mapping[str, Any]],
    outcomes: Mapping[str, CaseOutcome | Outcome | Mapping[str, Any]]
    | Iterable[CaseOutcome | Outcome | Mapping[str, Any]],
    mode: str = "tool",
    reference_texts: Mapping[str, str | Sequence[str]] | None = None,
    *,
    judge: EntailmentJudge | Judge | None = None,
    ks: tuple[int, ...] = (1, 3, 10),
    protected_k: int = 3,
) -> QAEvalReport:
    """Score outcomes your own code produced, as RAGSpine's ``evaluate`` does.

    ``outcomes``: RAGSpine's ``{case_id: CaseOutcome}``, or any iterable of outcomes
    (``CaseOutcome``, ``Outcome`` or plain dicts in either spelling). A case without an
    outcome is an error, never skipped. ``reference_texts``: ``narrative_doc`` → text, the
    reference of answer_accuracy for narrative cases without a ``reference_answer``.
    """
    golden_cases = _validated(
        "<cases>",
        cases,
        lambda c: c if isinstance(c, GoldenCase) else GoldenCase.model_validate(dict(c)),
    )
    golden = golden_set_from_cases(golden_cases)
    given = outcomes.values() if isinstance(outcomes, Mapping) else outcomes
    converted = _validated("<outcomes>", given, _outcome)
    by_id = {o.id: o for o in converted}
    collection = complete_collection(golden.cases, by_id)
    chosen = judge.judge if isinstance(judge, EntailmentJudge) else judge
    gates = GateSettings(reference_texts=as_passages(reference_texts or {}))
    if chosen is not None:
        gates = GateSettings(judge=chosen, reference_texts=gates.reference_texts)
    settings = QASettings(gates=gates, ks=ks, protected_k=protected_k)
    section = evaluate_qa(golden, collection, mode=mode, system="python", settings=settings)
    return _report(section, golden.cases)


def detect_fabricated_numbers(
    answer: str, period_patterns: Sequence[str] = DEFAULT_PERIOD_PATTERNS
) -> list[str]:
    """Numbers in ``answer`` other than period tokens (FY2024, 2025H1, 2030年 …)."""
    return _detect(answer, period_patterns)


def _section_of(report: QAEvalReport | QASection) -> QASection:
    return report if isinstance(report, QASection) else report._section


def make_baseline_entry(
    report: QAEvalReport | QASection, *, protected_k: int = 3
) -> dict[str, Any]:
    """A baseline entry for ``baseline[report.mode]``: RAGSpine's ``metrics``,
    ``fabrication_count`` and ``n_cases``, plus the golden set's fingerprint and the
    per-case results that protect passing cases."""
    from . import __version__

    values = qa_suite_values(_section_of(report), protected_k)
    entry = entry_from_values(values, recorded_at="", tool_version=__version__)
    return entry.model_dump(exclude_none=True)


def compare_to_baseline(
    report: QAEvalReport | QASection,
    baseline: Mapping[str, Any] | BaselineEntry,
    *,
    protected_k: int = 3,
) -> BaselineComparison:
    """A gate below its baseline, or a higher fabrication count, fails (exactly equal
    passes); only the metrics the baseline lists are checked. An entry with per-case
    results also fails on a protected case that broke.

    Raises StaleBaselineError when the entry was recorded for another golden set.
    """
    entry = (
        baseline
        if isinstance(baseline, BaselineEntry)
        else BaselineEntry.model_validate(dict(baseline))
    )
    values = qa_suite_values(_section_of(report), protected_k)
    check_stale(entry, values, "baseline entry", "make_baseline_entry(report)")
    comparison = compare(entry, values)
    regressions: list[dict[str, object]] = [
        {
            "metric": FABRICATION if r.metric == "fabrication_count" else r.metric,
            "baseline": r.baseline,
            "current": r.current,
            "delta": r.delta,
        }
        for r in comparison.regressions
    ]
    return BaselineComparison(
        passed=not comparison.failed, regressions=regressions, comparison=comparison
    )

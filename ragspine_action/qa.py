"""Score a collection of outcomes against the golden set: gates, fabrication, errors.

Pure: takes cases and outcomes, returns the report's ``qa`` section. Every golden case
ends up in ``cases`` exactly once, as passed, failed or error.

Two steps, so that a sharded run can be merged: ``CaseScorer.score`` decides one case
(its row of the ``CaseTable`` and the failure details per gate); ``assemble_qa`` computes
every aggregate from those per-case records alone. ``ragspine-eval merge`` calls the same
``assemble_qa`` on the shards' cases, which is why a merged report equals an unsharded one.

Per-case results are columns (``report.cases.CaseTable``), and report objects are built
with ``model_construct`` (``perf.built_model`` for the one-per-case ones: failures, misses,
errors): every value here is already typed by the code that made it, and validating a
million of them again costs seconds.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from .gates import GATES, GateSettings, detect_fabricated_numbers, gates_for
from .gates.base import know_docs
from .gates.citation import CitationValidity
from .golden.load import GoldenSet
from .golden.models import GoldenCase
from .metrics.attribution import NEXT_STEPS, attribute, count_attributions
from .metrics.retrieval import (
    case_retrieval,
    dedupe,
    metric_names,
    normalise_ks,
    ranked_case_retrieval,
)
from .outcomes.model import Outcome
from .perf import built_model
from .progress import ProgressBar
from .report.cases import CaseTable, CaseTableBuilder, TagMembers, as_case_table
from .report.model import (
    AttributionSection,
    CaseResult,
    ErrorCase,
    ErrorsSection,
    FabricationCase,
    FabricationSection,
    Failure,
    GateMetric,
    GoldenInfo,
    QASection,
    RetrievalMiss,
    RetrievalSection,
    TagCount,
)
from .systems.base import Collection

__all__ = [
    "FABRICATED",
    "GATE_NAMES",
    "RETRIEVAL_MISSED",
    "CaseScorer",
    "QASettings",
    "assemble_qa",
    "evaluate_qa",
    "failure_models",
    "gate_metric",
    "qa_warnings",
    "unreferenced_narratives",
]

_FAILURE_FIELDS: set[str] = set(Failure.model_fields)
GATE_NAMES: tuple[str, ...] = tuple(g.name for g in GATES)
# The failures' key for fabricated numbers (not a gate): the rows carry the case's question
# to ``fabrication.cases`` as gate failures carry it to ``metrics.<gate>.failures``.
FABRICATED = "fabrication"
# The failures' key for retrieval misses (not a gate): rows carry the question of each case
# not ranked within the protected k to ``retrieval.misses``.
RETRIEVAL_MISSED = "retrieval"
# The sequential path tells its progress bar every this many cases.
_PROGRESS_EVERY = 64


@dataclass(frozen=True)
class QASettings:
    gates: GateSettings = field(default_factory=GateSettings)
    ks: tuple[int, ...] = (1, 3, 10)
    protected_k: int = 3
    relevance_level: int = 1
    # Retrieval measures in report order; empty: hit@k, mrr, ndcg@k, recall@k, precision@k.
    measures: tuple[str, ...] = ()

    @property
    def sorted_ks(self) -> tuple[int, ...]:
        return normalise_ks(self.ks)

    @property
    def metric_names(self) -> tuple[str, ...]:
        return self.measures or tuple(metric_names(self.sorted_ks))


def gate_metric(
    total: int, passed: int, failures: list[Failure], by_tag: dict[str, dict[str, TagCount]]
) -> GateMetric:
    rate = 1.0 if total == 0 else passed / total
    return GateMetric.model_construct(
        total=total,
        passed=passed,
        pass_rate=rate,
        applicable=total > 0,
        failures=failures,
        by_tag=by_tag,
    )


# A failure as (case id, expected, actual, question): plain tuples cross process
# boundaries cheaply.
FailureRow = tuple[str, Any, Any, str]


class CaseScorer:
    """Scores cases one at a time into a ``CaseTable``: the unit a worker or shard runs.

    Pure per case; ``assemble_qa`` computes every aggregate from what it collects.
    """

    def __init__(self, settings: QASettings) -> None:
        self.settings = settings
        self.table = CaseTableBuilder(GATE_NAMES, settings.metric_names)
        self.failures: dict[str, list[FailureRow]] = {
            name: [] for name in (*GATE_NAMES, FABRICATED, RETRIEVAL_MISSED)
        }
        self.refusal_checked = 0
        self._gates = tuple((gate, gate.name) for gate in gates_for(settings.gates))
        # citation_validity is handed the deduplicated ranking retrieval reads too
        self._citation = next((g for g, _ in self._gates if isinstance(g, CitationValidity)), None)
        case_retrieval([], {}, settings.ks, relevance_level=settings.relevance_level)  # checks
        self._ks = settings.sorted_ks

    def score(self, case: GoldenCase, outcome: Outcome, docs: list[str] | None = None) -> None:
        """Every applicable gate, fabrication, retrieval rank and attribution of one case.

        ``docs``: ``[s.doc for s in outcome.sources]`` when the caller has it already.
        """
        settings = self.settings
        if docs is None:
            docs = [source.doc for source in outcome.sources]
        know_docs(outcome, docs)  # the gates' cited docs, without reading the sources again
        ranked = dedupe(docs)  # outcome.ranked_docs(), without reading the sources again
        retrieval = ranked_case_retrieval(
            ranked,
            case.relevance(),
            self._ks,
            settings.relevance_level,
        )
        citation = self._citation
        results: dict[str, bool] = {}
        evidence: dict[str, Any] | None = None
        error = outcome.error
        for gate, name in self._gates:
            if not gate.applies(case):
                continue
            if error is not None:
                ok = False
                self.failures[name].append((case.id, None, {"error": error}, case.question))
            else:
                if gate is citation:
                    check = citation.check(case, outcome, settings.gates, ranked)
                else:
                    check = gate.check(case, outcome, settings.gates)
                ok = check.passed
                if check.evidence is not None:
                    if evidence is None:
                        evidence = {}
                    evidence[name] = check.evidence
                if not ok:
                    self.failures[name].append(
                        (case.id, check.expected, check.actual, case.question)
                    )
            results[name] = ok
        numbers: list[str] = []
        refuse = bool(case.expected.refuse)
        if refuse:
            self.refusal_checked += 1
            if error is None:
                cited = docs  # citation material: no amount
                if outcome.source is not None:
                    cited = [*docs, outcome.source.doc]
                numbers = detect_fabricated_numbers(
                    outcome.answer, settings.gates.period_patterns, cited
                )
                if numbers:
                    self.failures[FABRICATED].append((case.id, None, numbers, case.question))
        passed = error is None and all(results.values()) and not numbers
        hit = retrieval.hit_within(settings.protected_k)
        if case.case_type == "retrieval":
            passed = passed and hit
        if not hit and not retrieval.excluded:  # a miss: ``retrieval.misses`` names it
            self.failures[RETRIEVAL_MISSED].append((case.id, None, retrieval.rank, case.question))
        self.table.add(
            case.id,
            case.case_type,
            case.tags,
            results,
            passed,
            error,
            numbers,
            retrieval.rank,
            None if retrieval.excluded else retrieval.values,
            attribute(
                not passed,
                error is not None,
                retrieval.rank,
                settings.protected_k,
                has_relevant=not retrieval.excluded,
            ),
            evidence,
        )


def failure_models(rows: Mapping[str, Sequence[FailureRow]]) -> dict[str, list[Failure]]:
    fields = _FAILURE_FIELDS  # shared, as model_construct(_FAILURE_FIELDS, …) shares it
    return {
        gate: [
            built_model(Failure, {"id": i, "expected": e, "actual": a, "question": q}, fields)
            for i, e, a, q in got
        ]
        for gate, got in rows.items()
    }


def _gate_metrics(
    table: CaseTable, members: TagMembers, failures: Mapping[str, list[Failure]]
) -> dict[str, GateMetric]:
    metrics: dict[str, GateMetric] = {}
    for name in GATE_NAMES:
        column = table.gate_column(name)
        applies = column >= 0
        ok = column == 1
        by_tag = {
            key: {
                value: TagCount.model_construct(
                    total=int(np.count_nonzero(applies & mask)),
                    passed=int(np.count_nonzero(ok & mask)),
                )
                for value, mask in values.items()
                if np.any(applies & mask)
            }
            for key, values in members.items()
        }
        by_tag = {key: values for key, values in by_tag.items() if values}
        metrics[name] = gate_metric(
            int(np.count_nonzero(applies)),
            int(np.count_nonzero(ok)),
            list(failures.get(name, ())),
            by_tag,
        )
    return metrics


def _mean(values: npt.NDArray[np.float64]) -> float:
    # fsum is exactly rounded, so the mean does not depend on the order of the cases
    # (a merged sharded run gives the same floats as one run).
    return math.fsum(values.tolist()) / len(values)


class _ColumnMeans:
    """Each column's ``_mean`` over the ``selected`` rows (default all), or over a subset
    of those, from the distinct rows and how often each occurs.

    Retrieval values depend only on a case's grade pattern, so 100k cases hold a few
    hundred distinct rows. A column's sum is then a sum of value × count, made exact in
    integers (a finite float is an integer over a power of two) and rounded once, as
    fsum rounds: the same float. fsum over every tag value's rows took ~0.1 s per 100k
    cases; this, ~0.02 s. Rows are grouped a block at a time (no copy of the whole
    table: a million cases' rows are ~100 MB). With a NaN or an infinity, fsum sums.
    """

    def __init__(
        self, rows: npt.NDArray[np.float64], selected: npt.NDArray[np.bool_] | None = None
    ) -> None:
        self._all, self._selected = rows, selected  # for fsum, when a value is not finite
        rows = np.ascontiguousarray(rows)
        width = rows.shape[1]
        keys = rows.view(np.dtype((np.void, rows.itemsize * width))).reshape(-1)
        if selected is None:
            selected = np.ones(len(keys), dtype=bool)
        codes = np.empty(int(np.count_nonzero(selected)), dtype=np.intp)
        distinct: dict[bytes, int] = {}
        done = 0
        for start in range(0, len(keys), _BLOCK_ROWS):
            stop = start + _BLOCK_ROWS
            found, inverse = np.unique(keys[start:stop][selected[start:stop]], return_inverse=True)
            code_of = [distinct.setdefault(key.tobytes(), len(distinct)) for key in found]
            codes[done : done + len(inverse)] = np.array(code_of, dtype=np.intp)[inverse]
            done += len(inverse)
        self._codes = codes
        self._size = len(distinct)
        values = np.frombuffer(b"".join(distinct), dtype=np.float64).reshape(-1, width)
        self._exact = bool(np.isfinite(values).all())
        if self._exact:
            self._columns = [_over_common_denominator(c) for c in values.T.tolist()]

    def means(self, subset: npt.NDArray[np.bool_] | None = None) -> list[float]:
        """The means over the selected rows, or over those of them in ``subset``."""
        if not self._exact:
            rows = self._all if self._selected is None else self._all[self._selected]
            rows = rows if subset is None else rows[subset]
            return [_mean(rows[:, i]) for i in range(rows.shape[1])]
        codes = self._codes if subset is None else self._codes[subset]
        counts = np.bincount(codes, minlength=self._size).tolist()
        n = len(codes)
        return [
            sum(map(operator.mul, numerators, counts)) / denominator / n
            for numerators, denominator in self._columns
        ]


_BLOCK_ROWS = 65_536


def _over_common_denominator(values: list[float]) -> tuple[list[int], int]:
    """Finite floats as integer numerators over one power-of-two denominator."""
    ratios = [value.as_integer_ratio() for value in values]
    denominator = max((d for _, d in ratios), default=1)
    return [n * (denominator // d) for n, d in ratios], denominator


def _retrieval_section(
    table: CaseTable,
    members: TagMembers,
    settings: QASettings,
    questions: Mapping[str, str | None],
) -> RetrievalSection:
    scored = table.scored
    n_scored = int(np.count_nonzero(scored))
    names = table.metric_names
    means = _ColumnMeans(table.retrieval, scored)
    overall = dict(zip(names, means.means(), strict=True)) if n_scored else {}
    by_tag: dict[str, dict[str, dict[str, int | float]]] = {}
    for key, values in members.items():
        for value, mask in values.items():
            subset = mask[scored]
            n = int(np.count_nonzero(subset))
            if not n:
                continue
            entry: dict[str, int | float] = {"n": n}
            entry.update(zip(names, means.means(subset), strict=True))
            by_tag.setdefault(key, {})[value] = entry
    ranks = table.ranks
    protected_k = settings.protected_k
    missed = scored & ((ranks == 0) | (ranks > protected_k))
    ids = table.ids
    misses = [
        built_model(
            RetrievalMiss,
            {"id": ids[i], "rank": int(ranks[i]) or None, "question": questions.get(ids[i])},
            {"id", "rank", "question"},
        )
        for i in np.flatnonzero(missed).tolist()
    ]
    return RetrievalSection(
        k=list(settings.sorted_ks),
        protected_k=protected_k,
        n_scored=n_scored,
        n_excluded=len(table) - n_scored,
        overall=overall,
        by_tag=by_tag,
        misses=misses,
    )


def assemble_qa(
    *,
    mode: str,
    system: str,
    golden: GoldenInfo,
    cases: Sequence[CaseResult],
    failures: Mapping[str, list[Failure]],
    refusal_checked: int,
    settings: QASettings,
    unknown_outcome_ids: list[str] | None = None,
    system_stats: dict[str, Any] | None = None,
) -> QASection:
    """Every aggregate of the ``qa`` section from per-case records in report order.

    ``cases`` is a ``CaseTable`` (or any sequence of ``CaseResult``, turned into one);
    ``failures`` holds, per gate, the failure details in the same order as ``cases``.
    """
    table = as_case_table(cases, GATE_NAMES, settings.metric_names)
    n = len(table)
    questions = {f.id: f.question for f in failures.get(FABRICATED, ())}
    ids = table.ids
    fabricated = [
        built_model(
            FabricationCase,
            {"id": ids[i], "numbers": table.fabricated[i], "question": questions.get(ids[i])},
            {"id", "numbers", "question"},
        )
        for i in sorted(table.fabricated)
    ]
    errors = [
        built_model(ErrorCase, {"id": ids[i], "error": table.errors[i]}, {"id", "error"})
        for i in sorted(table.errors)
    ]
    counts = count_attributions(table.attributions())
    members = table.tag_members()  # one pass for the gates' and retrieval's by_tag
    return QASection.model_construct(
        mode=mode,
        system=system,
        golden=golden,
        n_cases=n,
        metrics=_gate_metrics(table, members, failures),
        fabrication=FabricationSection(
            checked=refusal_checked, count=len(fabricated), cases=fabricated
        ),
        fabrication_count=len(fabricated),
        errors=ErrorsSection(count=len(errors), rate=(len(errors) / n if n else 0.0), cases=errors),
        unknown_outcome_ids=list(unknown_outcome_ids or []),
        retrieval=_retrieval_section(
            table,
            members,
            settings,
            {f.id: f.question for f in failures.get(RETRIEVAL_MISSED, ())},
        ),
        attribution=AttributionSection(
            **counts, advice={name: NEXT_STEPS[name] for name, c in counts.items() if c}
        ),
        cases=table,
        system_stats=dict(system_stats or {}),
        shard=None,
    )


def evaluate_qa(
    golden: GoldenSet,
    collection: Collection,
    *,
    mode: str,
    system: str,
    settings: QASettings | None = None,
    cases: Sequence[GoldenCase] | None = None,
    progress: ProgressBar | None = None,
) -> QASection:
    """Run every applicable gate on every case and tally the results.

    ``cases`` (default: the whole golden set) restricts the run to a shard; the golden
    info still describes the whole set, which is what a baseline and a merge are tied to.
    ``progress`` (a terminal's bar) counts the cases scored.
    """
    settings = settings or QASettings()
    scorer = CaseScorer(settings)
    selected = golden.cases if cases is None else cases
    if progress is None:
        for case in selected:
            scorer.score(case, collection.outcomes[case.id])
    else:
        _score_with_progress(scorer, selected, collection, progress)
    return assemble_qa(
        mode=mode,
        system=system,
        golden=GoldenInfo(path=golden.path, fingerprint=golden.fingerprint, n_cases=len(golden)),
        cases=scorer.table.build(),
        failures=failure_models(scorer.failures),
        refusal_checked=scorer.refusal_checked,
        settings=settings,
        unknown_outcome_ids=collection.unknown_ids,
        system_stats=collection.stats,
    )


def _score_with_progress(
    scorer: CaseScorer,
    cases: Sequence[GoldenCase],
    collection: Collection,
    progress: ProgressBar,
) -> None:
    progress.start(len(cases))
    try:
        for done, case in enumerate(cases, 1):
            scorer.score(case, collection.outcomes[case.id])
            if not done % _PROGRESS_EVERY:
                progress.update(done)
        progress.update(len(cases), final=True)
    finally:
        progress.finish()


def qa_warnings(qa: QASection) -> list[str]:
    """The run's warnings about the QA section (whether the errors are over the budget is
    ``run.error_budget``'s decision, the same for every system)."""
    warnings: list[str] = []
    if qa.unknown_outcome_ids:
        shown = ", ".join(qa.unknown_outcome_ids[:5])
        warnings.append(
            f"{len(qa.unknown_outcome_ids)} "
            + ("outcome has an id" if len(qa.unknown_outcome_ids) == 1 else "outcomes have ids")
            + f" not in the golden set: {shown}"
        )
    if qa.errors.count:
        first: dict[str, str] = {}
        for case in qa.errors.cases:
            first.setdefault(case.error, case.id)
            if len(first) == 3:
                break
        reasons = "; ".join(f"{case_id}: {error}" for error, case_id in first.items())
        warnings.append(
            f"{qa.errors.count} of {qa.n_cases} cases ended in an error (first: {reasons})"
        )
    return warnings


def unreferenced_narratives(qa: QASection, reference_texts: str | None = None) -> list[str]:
    """The warning for narrative cases answer_accuracy could not measure (no
    ``reference_answer``, no reference text for their ``narrative_doc``), or none.

    They are left out of the gate (not passed on an empty reference, as RAGSpine does), so
    a run that measures none of them says so instead of showing a gate that gates nothing.
    """
    names = metric_names(normalise_ks(qa.retrieval.k)) if qa.retrieval is not None else []
    table = as_case_table(qa.cases, list(qa.metrics), names)
    if "answer_accuracy" not in table.gate_names:
        return []
    column = table.gate_column("answer_accuracy")
    ids = [
        table.ids[i]
        for i, kind in enumerate(table.case_types)
        if kind == "narrative" and column[i] < 0
    ]
    if not ids:
        return []
    shown = ", ".join(ids[:5]) + (", …" if len(ids) > 5 else "")
    head = (
        f"answer_accuracy did not measure {len(ids)} narrative "
        f"{'case' if len(ids) == 1 else 'cases'} ({shown}): they have no reference_answer"
    )
    if reference_texts:  # given, but without these docs: telling to give it misleads
        return [
            f"{head} and --reference-texts {reference_texts} holds no text for their "
            "narrative_doc (a file named DOC, DOC.txt or DOC.md, or a key DOC)"
        ]
    return [
        f"{head} and no reference text for their narrative_doc; give --reference-texts "
        "DIR (one text file per narrative_doc) to measure them"
    ]

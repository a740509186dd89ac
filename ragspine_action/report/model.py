"""The JSON report (SPEC §8): one pydantic model per section, the schema generated from them.

Bump ``SCHEMA_VERSION`` on any incompatible change; ``schema/report.schema.json`` is
generated from ``Report`` and a test keeps the committed copy current.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_serializer

__all__ = [
    "SCHEMA_VERSION",
    "AttributionSection",
    "BaselineSection",
    "CaseChange",
    "CaseCounts",
    "CaseDelta",
    "CaseResult",
    "ClaimEvidence",
    "ErrorCase",
    "ErrorsSection",
    "FabricationCase",
    "FabricationSection",
    "Failure",
    "FlakyCase",
    "FloorCheck",
    "GateMetric",
    "GoldenInfo",
    "Interval",
    "JudgeEvidence",
    "Lowering",
    "MetricSpread",
    "NotMeasured",
    "QASection",
    "Regression",
    "RepeatsSection",
    "Report",
    "RetrievalMiss",
    "RetrievalSection",
    "ShardInfo",
    "SignificanceTest",
    "TagCount",
    "ToolInfo",
    "Verdict",
    "is_gated",
    "metric_matches",
]

SCHEMA_VERSION = "1.0"

Verdict = Literal["pass", "fail", "error"]
BaselineStatus = Literal["pass", "regression", "created", "updated", "stale", "none"]
Attribution = Literal["retrieval", "generation", "error"]


def metric_matches(selector: str, metric: str) -> bool:
    """``hit@3`` names one metric; an extraction channel name (``cell_value``) names it in
    every fixture (``pdf/cell_value``, ``total/cell_value``)."""
    return metric == selector or metric.endswith("/" + selector)


def is_gated(gated: Sequence[str] | None, metric: str) -> bool:
    """Whether ``metric`` gates, given the configured list (None: every metric)."""
    if gated is None or metric == "fabrication_count":
        return True  # fabrication (target 0) always gates
    return any(metric_matches(g, metric) for g in gated)


class _Model(BaseModel):
    # Each model's validator and serializer are built when first used, not on import: a
    # run validates about half of these (the bundled run: Report and the sections it
    # fills; the case rows and evidence are constructed, not validated); building all
    # of them cost ~40 ms of every start (issue 25).
    model_config = ConfigDict(extra="forbid", defer_build=True)


class ToolInfo(_Model):
    name: str = "ragspine-eval"
    version: str


class Failure(_Model):
    """One case failing one gate: what was expected, what came back, and the case's
    question (so a reviewer reads what was asked without opening the golden set)."""

    id: str
    expected: Any = None
    actual: Any = None
    question: str | None = None


class TagCount(_Model):
    total: int = 0
    passed: int = 0


class GateMetric(_Model):
    """One gate over the cases it applies to.

    ``pass_rate`` is 1.0 when ``total`` is 0 (RAGSpine's rule), and ``applicable`` is then
    false, so that nobody reads "gated nothing" as "passed everything".
    """

    total: int
    passed: int
    pass_rate: float
    applicable: bool = True
    failures: list[Failure] = []
    by_tag: dict[str, dict[str, TagCount]] = {}


class FabricationCase(_Model):
    """A refusal case whose answer states numbers (with its question, for the reader)."""

    id: str
    numbers: list[str]
    question: str | None = None


class FabricationSection(_Model):
    """Refusal cases whose answer still contains numbers other than period tokens."""

    checked: int
    count: int
    cases: list[FabricationCase] = []


class ErrorCase(_Model):
    id: str
    error: str


class ErrorsSection(_Model):
    count: int
    rate: float
    cases: list[ErrorCase] = []


def _is_none(value: object) -> bool:
    return value is None


def _is_false(value: object) -> bool:
    return value is False


# Evidence repeats for every judged case: an unset field is left out, not written as null.
_Omitted = Field(default=None, exclude_if=_is_none)


class ClaimEvidence(_Model):
    """One claim as a judge saw it: the verdict, the score, and the context sentence it
    matched best (for answer_accuracy: a reference sentence and the answer's sentence)."""

    claim: str
    verdict: Literal["supported", "unsupported", "exempt", "error"]
    score: float | None = _Omitted
    matched: str | None = _Omitted
    reason: str | None = _Omitted


class JudgeEvidence(_Model):
    """A groundedness gate's evidence for one case (``score``: answer_accuracy's recall)."""

    score: float | None = _Omitted
    claims: list[ClaimEvidence] = []


class CaseResult(_Model):
    """Everything decided about one case; enough to recompute every aggregate (sharding)."""

    id: str
    case_type: str
    tags: dict[str, str] = {}
    gates: dict[str, bool] = {}
    passed: bool
    error: str | None = None
    fabricated: list[str] = []
    rank: int | None = None
    retrieval: dict[str, float] | None = None
    attribution: Attribution | None = None
    # Per groundedness gate, what the judge saw (left out when no judged gate applied).
    judge: dict[str, JudgeEvidence] | None = Field(default=None, exclude_if=_is_none)


class RetrievalMiss(_Model):
    """A case whose relevant documents were not ranked within the protected k (with its
    question, so a retrieval-only case that broke shows what was asked)."""

    id: str
    rank: int | None
    question: str | None = _Omitted


class RetrievalSection(_Model):
    k: list[int]
    protected_k: int
    n_scored: int
    n_excluded: int
    overall: dict[str, float] = {}
    by_tag: dict[str, dict[str, dict[str, int | float]]] = {}
    misses: list[RetrievalMiss] = []


class AttributionSection(_Model):
    retrieval: int = 0
    generation: int = 0
    error: int = 0
    advice: dict[str, str] = {}


class GoldenInfo(_Model):
    path: str
    fingerprint: str
    n_cases: int


class ShardInfo(_Model):
    """Set on a partial report of ``--shard index/count`` (None in a whole run).

    ``positions`` gives each entry of ``cases`` its index in the whole golden set, so
    ``ragspine-eval merge`` restores the unsharded order.
    """

    index: int
    count: int
    positions: list[int] = []


class QASection(_Model):
    mode: str
    system: str
    golden: GoldenInfo
    n_cases: int
    metrics: dict[str, GateMetric]
    fabrication: FabricationSection
    fabrication_count: int
    errors: ErrorsSection
    unknown_outcome_ids: list[str] = []
    retrieval: RetrievalSection | None = None
    attribution: AttributionSection = AttributionSection()
    # A run puts a ``report.cases.CaseTable`` here (columns; a Sequence of CaseResult).
    cases: Sequence[CaseResult] = []
    system_stats: dict[str, Any] = {}
    shard: ShardInfo | None = None
    # Which judge produced the groundedness values (kind; an LLM judge's model and prompt
    # version) and, for an LLM judge, what it cost: requests, cache hits, tokens, wall time.
    judge: dict[str, Any] | None = Field(default=None, exclude_if=_is_none)

    @field_serializer("cases")
    def _serialize_cases(self, value: Sequence[CaseResult]) -> list[CaseResult]:
        # Rows of a table are built here; a large report is streamed by report.write.
        return list(value)


class Regression(_Model):
    key: str
    metric: str
    baseline: float
    current: float
    delta: float


class CaseChange(_Model):
    """A case that changed between baseline and now on one gate (or retrieval@protected k)."""

    key: str
    id: str
    metric: str
    before: Any = None
    after: Any = None


class Interval(_Model):
    """Paired-bootstrap 95% intervals: of the change against the baseline, and of now."""

    delta_low: float | None = None
    delta_high: float | None = None
    current_low: float | None = None
    current_high: float | None = None


class Lowering(_Model):
    key: str
    metric: str
    old: float = Field(alias="from")
    new: float = Field(alias="to")
    reason: str

    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)


class CaseDelta(_Model):
    """A case the golden set added, removed or changed since the baseline was recorded.

    ``fields``: what changed (``question``, ``expected.value``, …); ``comparable``: the
    recorded result still holds (only tags changed); ``results``: an added case's results
    on this run (shown, not gated on its first run).
    """

    key: str
    id: str
    fields: list[str] = []
    comparable: bool | None = None
    results: dict[str, bool] = {}


class CaseCounts(_Model):
    """How the golden set compares with the recorded one (by case digest)."""

    compared: int
    added: int = 0
    removed: int = 0
    changed: int = 0
    incomparable: int = 0


class NotMeasured(_Model):
    """A baseline metric this run did not compute (another k): a warning, not a drop."""

    key: str
    metric: str
    baseline: float


class SignificanceTest(_Model):
    """One test of ``gate.mode: significant`` (an aggregate's bootstrap, or the exact
    binomial test on a gate's discordant protected cases)."""

    key: str
    metric: str
    kind: Literal["bootstrap", "binomial"]
    p_value: float
    threshold: float | None = None
    significant: bool
    delta: float | None = None
    interval: list[float | None] | None = None
    discordant: list[int] | None = None


class FloorCheck(_Model):
    """An absolute floor from the configuration: it fails whatever the baseline says.

    For a count (``fabrication_count``, ``errors``) ``floor`` is a ceiling: the check
    fails when ``current`` rises above it (``ceiling`` is true)."""

    key: str
    metric: str
    floor: float
    current: float
    passed: bool
    ceiling: bool = False
    # True when the run had no baseline and no floors: the golden set itself is the floor
    # (every case must pass), not a floor the user configured.
    implicit: bool = Field(default=False, exclude_if=_is_false)


class BaselineSection(_Model):
    status: BaselineStatus
    path: str | None = None
    keys: list[str] = []
    message: str = ""
    regressions: list[Regression] = []
    improvements: list[Regression] = []
    broken: list[CaseChange] = []
    fixed: list[CaseChange] = []
    intervals: dict[str, Interval] = {}
    lowered: list[Lowering] = []
    values: dict[str, dict[str, float]] = {}
    gated: list[str] | None = None
    gate_mode: Literal["exact", "significant"] = "exact"
    # The golden set changed since the baseline: aggregates compared on common cases.
    cases: dict[str, CaseCounts] = {}
    current: dict[str, dict[str, float]] = {}
    added: list[CaseDelta] = []
    removed: list[CaseDelta] = []
    changed: list[CaseDelta] = []
    not_measured: list[NotMeasured] = []
    not_comparable: list[NotMeasured] = []
    update_refused: str | None = None
    tests: list[SignificanceTest] = []
    # Shell commands that get out of this state (a stale baseline: the re-record command),
    # shown as a copy-paste block by the renderers.
    commands: list[str] = []


class MetricSpread(_Model):
    """One metric over ``--repeats``: the mean and how far the repeats spread."""

    mean: float
    std: float
    min: float
    max: float
    values: list[float] = []


class FlakyCase(_Model):
    """A case that passed some repeats and failed others: pass fraction per gate."""

    id: str
    passed: dict[str, float]


class RepeatsSection(_Model):
    """``--repeats N``: every case ran N times (``qa`` shows the first repeat)."""

    count: int
    metrics: dict[str, MetricSpread] = {}
    n_flaky: int = 0
    flaky: list[FlakyCase] = []


class Report(_Model):
    schema_version: str = SCHEMA_VERSION
    tool: ToolInfo
    verdict: Verdict
    exit_code: int
    summary: str
    generated_at: str
    config: dict[str, Any] = {}
    qa: QASection | None = None
    extraction: dict[str, Any] | None = None
    baseline: BaselineSection | None = None
    floors: list[FloorCheck] = []
    warnings: list[str] = []
    repeats: RepeatsSection | None = None

"""Baseline schema 3: per-case facts aligned to sorted ids.

Covers reading schema-2 entries (id lists and id-keyed maps, converted on read), the
equivalence of compare() on a converted schema-2 entry and on a schema-3 entry recorded from
the same facts, ids that only one side knows, validation of the aligned arrays, the writer's
one-line arrays, the bundled baseline, and a real run recorded and compared with itself.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ragspine_action.baseline.model import (
    BASELINE_SCHEMA_VERSION,
    BaselineEntry,
    BaselineFile,
    HistoryRecord,
)
from ragspine_action.baseline.ratchet import (
    Comparison,
    PerCase,
    SuiteValues,
    apply_update,
    compare,
    entry_from_values,
)
from ragspine_action.baseline.store import encode_baseline, load_baseline, parse_baseline
from ragspine_action.baseline.values import qa_suite_values
from ragspine_action.config import RunConfig
from ragspine_action.errors import InputError
from ragspine_action.report.model import CaseChange, Interval, QASection
from ragspine_action.run import run

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"
MINI_GOLDEN = DATA / "mini_golden.jsonl"
MINI_OUTCOMES = DATA / "mini_outcomes.jsonl"
BUNDLED_BASELINE = REPO / "data" / "golden" / "qa_baseline.json"
BUNDLED_GOLDEN = REPO / "data" / "golden" / "qa_golden_set.jsonl"

# --- one set of facts, written both ways ---------------------------------------------------
#
# Seven cases. "x-9" only ever failed citation_validity: a schema-2 entry (id lists of the
# cases that *passed*) never names it, a schema-3 entry records it as "0".

METRICS = {
    "numeric_accuracy": 0.5,
    "citation_validity": 0.75,
    "hit@3": 1 / 3,
    "mrr": (1 / 2 + 1 / 5) / 3,
    "ndcg@3": (0.63 + 0.2 + 0.0) / 3,
}
PASSED = {
    "numeric_accuracy": ["n-1"],
    "citation_validity": ["t-1", "n-2", "n-1"],
    "hit@3": ["q-b"],
}
APPLICABLE = {
    "numeric_accuracy": ["n-2", "n-1"],
    "citation_validity": ["t-1", "n-2", "n-1", "x-9"],
    "hit@3": ["q-b", "q-a", "q-c"],
}
RANKS: dict[str, int | None] = {"q-b": 2, "q-a": 5, "q-c": None}
CASE_VALUES = {"ndcg@3": {"q-b": 0.63, "q-a": 0.2, "q-c": 0.0}}
FINGERPRINT = "sha256:facts"


def _schema2_entry() -> dict[str, Any]:
    """The facts as a schema-2 entry: passed id lists, ranks and case_values keyed by id."""
    return {
        "metrics": dict(METRICS),
        "fabrication_count": 0,
        "n_cases": 7,
        "fingerprint": FINGERPRINT,
        "passed": {m: list(ids) for m, ids in PASSED.items()},
        "ranks": dict(RANKS),
        "case_values": {m: dict(v) for m, v in CASE_VALUES.items()},
        "recorded_at": "2026-01-01T00:00:00+00:00",
        "tool_version": "0.9.0",
    }


def _suite(
    *,
    passed: dict[str, list[str]] | None = None,
    applicable: dict[str, list[str]] | None = None,
    ranks: dict[str, int | None] | None = None,
    case_values: dict[str, dict[str, float]] | None = None,
    metrics: dict[str, float] | None = None,
) -> SuiteValues:
    return SuiteValues.from_lists(
        key="tool",
        fingerprint=FINGERPRINT,
        n_cases=7,
        metrics=dict(METRICS) if metrics is None else metrics,
        passed=PASSED if passed is None else passed,
        applicable=APPLICABLE if applicable is None else applicable,
        ranks=RANKS if ranks is None else ranks,
        case_values=CASE_VALUES if case_values is None else case_values,
    )


def _parsed_schema2() -> BaselineEntry:
    return parse_baseline({"tool": _schema2_entry()}, "b.json").entries["tool"]


def _recorded_schema3() -> BaselineEntry:
    return entry_from_values(_suite(), recorded_at="2026-01-01T00:00:00+00:00", tool_version="1")


def _through_json(entry: BaselineEntry) -> BaselineEntry:
    text = encode_baseline(BaselineFile(entries={"tool": entry}))
    return parse_baseline(json.loads(text), "b.json").entries["tool"]


ENTRIES = {
    "schema2": _parsed_schema2,
    "schema3": _recorded_schema3,
    "schema3-json": lambda: _through_json(_recorded_schema3()),
}


class Recorder:
    """A deterministic interval_fn that keeps what compare() hands it."""

    def __init__(self) -> None:
        self.calls: list[tuple[list[float], list[float]]] = []

    def __call__(self, before: PerCase, now: PerCase) -> Interval:
        b = [float(x) for x in before]
        n = [float(x) for x in now]
        self.calls.append((b, n))
        return Interval(
            delta_low=sum(b), delta_high=sum(n), current_low=float(len(b)), current_high=len(n)
        )

    def by_metric(self, comparison: Comparison) -> dict[str, tuple[list[float], list[float]]]:
        """The arrays of each metric, in compare()'s call order (intervals keep that order)."""
        assert len(self.calls) == len(comparison.intervals)
        return dict(zip(comparison.intervals, self.calls, strict=True))


def _changes(rows: Sequence[CaseChange]) -> list[tuple[str, str, Any, Any]]:
    return sorted((c.id, c.metric, c.before, c.after) for c in rows)


# --- 1. schema-2 entries are converted on read ------------------------------------------------


def test_schema2_entry_is_aligned_to_sorted_ids() -> None:
    entry = _parsed_schema2()
    assert entry.ids == ["n-1", "n-2", "q-a", "q-b", "q-c", "t-1"]
    assert entry.passed == {
        "numeric_accuracy": "100000",
        "citation_validity": "110001",
        "hit@3": "000100",
    }
    assert entry.ranks == [None, None, 5, 2, None, None]
    assert entry.case_values == {"ndcg@3": [None, None, 0.2, 0.63, 0.0, None]}
    for metric, ids in PASSED.items():
        assert entry.passed_ids(metric) == sorted(ids)
    assert entry.passed_ids("no_such_metric") == []
    # everything else is kept as it was
    assert entry.metrics == METRICS
    assert (entry.n_cases, entry.fingerprint, entry.tool_version) == (7, FINGERPRINT, "0.9.0")


def test_schema2_entry_compared_with_the_same_facts_finds_nothing() -> None:
    result = compare(_parsed_schema2(), _suite())
    assert result.regressions == [] and result.improvements == []
    assert result.broken == [] and result.fixed == []
    assert not result.failed


def test_schema2_entry_reports_broken_and_fixed_cases() -> None:
    now = _suite(
        passed={**PASSED, "numeric_accuracy": [], "hit@3": ["q-a"]},
        ranks={"q-b": 4, "q-a": 1, "q-c": None},
        metrics={**METRICS, "numeric_accuracy": 0.0},
    )
    result = compare(_parsed_schema2(), now)
    assert [(r.metric, r.baseline, r.current) for r in result.regressions] == [
        ("numeric_accuracy", 0.5, 0.0)
    ]
    assert CaseChange(
        key="tool", id="n-1", metric="numeric_accuracy", before="pass", after="fail"
    ) in (result.broken)
    assert _changes(result.broken) == [
        ("n-1", "numeric_accuracy", "pass", "fail"),
        ("q-b", "hit@3", 2, 4),  # hit@k changes carry the ranks
    ]
    assert _changes(result.fixed) == [("q-a", "hit@3", 5, 1)]
    assert all(c.key == "tool" for c in [*result.broken, *result.fixed])
    assert result.failed


def test_schema2_hit_lost_entirely_reports_no_rank_after() -> None:
    now = _suite(
        passed={**PASSED, "hit@3": []},
        ranks={"q-b": None, "q-a": 5, "q-c": None},
        metrics={**METRICS, "hit@3": 0.0},
    )
    result = compare(_parsed_schema2(), now)
    assert _changes(result.broken) == [("q-b", "hit@3", 2, None)]
    assert result.fixed == []


# --- 2. schema 2 and schema 3 compare the same ----------------------------------------------

SCENARIOS: dict[str, dict[str, Any]] = {
    "same facts": {},
    "changed": {
        "passed": {**PASSED, "numeric_accuracy": ["n-2"], "hit@3": ["q-a", "q-c"]},
        "ranks": {"q-b": 7, "q-a": 3, "q-c": 1},
        "case_values": {"ndcg@3": {"q-b": 0.1, "q-a": 0.5, "q-c": 1.0}},
        "metrics": {**METRICS, "hit@3": 2 / 3, "mrr": 0.5, "ndcg@3": 0.6},
    },
    "ids added and missing": {
        "passed": {
            "numeric_accuracy": ["n-3"],
            "citation_validity": ["t-1", "n-2", "x-9", "n-3"],
            "hit@3": ["q-b", "q-d"],
        },
        "applicable": {
            "numeric_accuracy": ["n-2", "n-3", "n-4"],
            "citation_validity": ["t-1", "n-2", "x-9", "n-3", "n-4"],
            "hit@3": ["q-b", "q-d", "q-e"],
        },
        "ranks": {"q-b": 1, "q-d": 3, "q-e": None},
        "case_values": {"ndcg@3": {"q-b": 1.0, "q-d": 0.5, "q-e": 0.0}},
    },
    "everything fails": {
        "passed": {m: [] for m in PASSED},
        "ranks": {"q-b": None, "q-a": None, "q-c": None},
        "case_values": {"ndcg@3": {"q-b": 0.0, "q-a": 0.0, "q-c": 0.0}},
        "metrics": dict.fromkeys(METRICS, 0.0),
    },
}


def _outcome(entry: BaselineEntry, now: SuiteValues) -> dict[str, Any]:
    recorder = Recorder()
    result = compare(entry, now, recorder)
    return {
        "regressions": sorted((r.metric, r.baseline, r.current) for r in result.regressions),
        "improvements": sorted((r.metric, r.baseline, r.current) for r in result.improvements),
        "broken": _changes(result.broken),
        "fixed": _changes(result.fixed),
        "intervals": result.intervals,
        "arrays": recorder.by_metric(result),
    }


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_schema2_and_schema3_entries_compare_identically(scenario: str) -> None:
    now = _suite(**SCENARIOS[scenario])
    outcomes = {name: _outcome(make(), now) for name, make in ENTRIES.items()}
    assert outcomes["schema2"] == outcomes["schema3"] == outcomes["schema3-json"]
    # every metric of the run got an interval (all have per-case values here)
    assert set(outcomes["schema2"]["intervals"]) == set(now.metrics)


def test_same_facts_hand_compare_the_recorded_values_back() -> None:
    """Against its own facts, the baseline's per-case values equal the run's, per metric."""
    now = _suite()
    for name, make in ENTRIES.items():
        arrays = _outcome(make(), now)["arrays"]
        assert arrays, name
        for metric, (before, current) in arrays.items():
            assert before == current, (name, metric)
    # and they are the facts themselves (sorted ids: n-1 n-2 q-a q-b q-c t-1 x-9)
    arrays = _outcome(_parsed_schema2(), now)["arrays"]
    assert arrays["numeric_accuracy"] == ([1.0, 0.0], [1.0, 0.0])
    assert arrays["citation_validity"] == ([1.0, 1.0, 1.0, 0.0], [1.0, 1.0, 1.0, 0.0])
    assert arrays["hit@3"] == ([0.0, 1.0, 0.0], [0.0, 1.0, 0.0])
    assert arrays["mrr"] == ([0.2, 0.5, 0.0], [0.2, 0.5, 0.0])
    assert arrays["ndcg@3"] == ([0.2, 0.63, 0.0], [0.2, 0.63, 0.0])


def test_changed_scenario_finds_the_changes() -> None:
    """The equivalence above is not vacuous: the changed facts do change things."""
    out = _outcome(_parsed_schema2(), _suite(**SCENARIOS["changed"]))
    assert out["broken"] == [
        ("n-1", "numeric_accuracy", "pass", "fail"),
        ("q-b", "hit@3", 2, 7),
    ]
    assert out["fixed"] == [
        ("n-2", "numeric_accuracy", "fail", "pass"),
        ("q-a", "hit@3", 5, 3),
        ("q-c", "hit@3", None, 1),
    ]
    assert out["intervals"]["hit@3"] == Interval(
        delta_low=1.0, delta_high=2.0, current_low=3.0, current_high=3.0
    )


# --- 3. ids only one side knows ------------------------------------------------------------


@pytest.mark.parametrize("which", list(ENTRIES))
def test_ids_only_in_the_baseline_are_ignored_new_ids_count_as_not_passed(which: str) -> None:
    # n-1 (passed numeric_accuracy and citation_validity) and q-b (hit@3 at rank 2) are gone
    now = _suite(
        passed={
            "numeric_accuracy": ["n-3"],
            "citation_validity": ["t-1", "n-2", "t-2"],
            "hit@3": ["q-d"],
        },
        applicable={
            "numeric_accuracy": ["n-2", "n-3", "n-4"],
            "citation_validity": ["t-1", "n-2", "t-2", "x-9"],
            "hit@3": ["q-a", "q-c", "q-d"],
        },
        ranks={"q-a": 5, "q-c": None, "q-d": 1},
        case_values={"ndcg@3": {"q-a": 0.2, "q-c": 0.0, "q-d": 0.9}},
    )
    assert now.ids == ["n-2", "n-3", "n-4", "q-a", "q-c", "q-d", "t-1", "t-2", "x-9"]
    recorder = Recorder()
    result = compare(ENTRIES[which](), now, recorder)
    assert result.broken == []
    assert _changes(result.fixed) == [
        ("n-3", "numeric_accuracy", "fail", "pass"),
        ("q-d", "hit@3", None, 1),
        ("t-2", "citation_validity", "fail", "pass"),
    ]
    arrays = recorder.by_metric(result)
    # before: baseline values, a case the baseline does not know counts 0.0
    assert arrays["numeric_accuracy"] == ([0.0, 0.0, 0.0], [0.0, 1.0, 0.0])
    assert arrays["citation_validity"] == ([1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 1.0, 0.0])
    assert arrays["hit@3"] == ([0.0, 0.0, 0.0], [0.0, 0.0, 1.0])
    assert arrays["mrr"] == ([0.2, 0.0, 0.0], [0.2, 0.0, 1.0])
    assert arrays["ndcg@3"] == ([0.2, 0.0, 0.0], [0.2, 0.0, 0.9])


@pytest.mark.parametrize("which", list(ENTRIES))
def test_a_case_whose_gate_no_longer_applies_is_neither_broken_nor_fixed(which: str) -> None:
    """n-1 passed numeric_accuracy and n-2 failed it; now the gate applies to neither."""
    now = _suite(
        passed={**PASSED, "numeric_accuracy": ["n-3"]},
        applicable={**APPLICABLE, "numeric_accuracy": ["n-3"]},
    )
    assert {"n-1", "n-2"} <= set(now.ids)
    recorder = Recorder()
    result = compare(ENTRIES[which](), now, recorder)
    assert result.broken == []
    assert _changes(result.fixed) == [("n-3", "numeric_accuracy", "fail", "pass")]
    assert recorder.by_metric(result)["numeric_accuracy"] == ([0.0], [1.0])


def test_a_run_with_none_of_the_baseline_ids() -> None:
    now = SuiteValues.from_lists(
        key="tool",
        fingerprint=FINGERPRINT,
        n_cases=1,
        metrics={"numeric_accuracy": 1.0},
        passed={"numeric_accuracy": ["zz"]},
    )
    recorder = Recorder()
    result = compare(_parsed_schema2(), now, recorder)
    assert result.broken == []
    assert _changes(result.fixed) == [("zz", "numeric_accuracy", "fail", "pass")]
    assert recorder.by_metric(result) == {"numeric_accuracy": ([0.0], [1.0])}


# --- 4. validation -------------------------------------------------------------------------

VALID = {
    "metrics": {"numeric_accuracy": 0.5},
    "n_cases": 3,
    "ids": ["a", "b", "c"],
    "passed": {"numeric_accuracy": "10-"},
    "ranks": [1, None, 4],
    "case_values": {"ndcg@3": [0.5, None, 0.25]},
}

INVALID: dict[str, tuple[dict[str, Any], str, tuple[str, ...]]] = {
    "pass string too short": (
        {"passed": {"numeric_accuracy": "10"}},
        "tool",
        ("passed.numeric_accuracy", "2 entries for 3 ids"),
    ),
    "pass string too long": (
        {"passed": {"numeric_accuracy": "10-1"}},
        "tool",
        ("passed.numeric_accuracy", "4 entries for 3 ids"),
    ),
    "pass string bad char": (
        {"passed": {"numeric_accuracy": "1x0"}},
        "tool.passed.numeric_accuracy",
        ("pattern", "a string of 3 characters"),  # never the value itself (issue 17)
    ),
    "ranks length": ({"ranks": [1, None]}, "tool", ("ranks", "2 entries for 3 ids")),
    "case_values length": (
        {"case_values": {"ndcg@3": [0.5]}},
        "tool",
        ("case_values.ndcg@3", "1 entries for 3 ids"),
    ),
    "duplicate ids": ({"ids": ["a", "a", "c"]}, "tool", ("ids", "once")),
    "rank 0": ({"ranks": [1, 0, None]}, "tool.ranks[1]", ("greater than or equal to 1",)),
}


def test_the_valid_entry_parses() -> None:
    entry = parse_baseline({"tool": VALID}, "b.json").entries["tool"]
    assert entry.passed_ids("numeric_accuracy") == ["a"]
    assert entry.ranks == [1, None, 4]


@pytest.mark.parametrize("case", list(INVALID))
def test_misaligned_or_bad_per_case_facts_are_input_errors(case: str) -> None:
    change, field, fragments = INVALID[case]
    with pytest.raises(InputError) as info:
        parse_baseline({"tool": {**VALID, **change}}, "b.json")
    problems = info.value.problems
    assert [p.field for p in problems] == [field]
    message = str(problems[0])
    assert message.startswith(f"b.json: {field}: ")
    for fragment in fragments:
        assert fragment in problems[0].message
    assert "\n" not in message


def test_schema2_rank_0_is_rejected_after_conversion() -> None:
    entry = {**_schema2_entry(), "ranks": {"q-b": 0}}
    with pytest.raises(InputError) as info:
        parse_baseline({"tool": entry}, "b.json")
    assert [p.field for p in info.value.problems] == ["tool.ranks[3]"]


# --- 5. the writer -------------------------------------------------------------------------


def _entry_n(n: int, metric_name: str = "ndcg@3", ids: list[str] | None = None) -> BaselineEntry:
    ids = ids if ids is not None else [f"c{i:05d}" for i in range(n)]
    values = SuiteValues(
        key="tool",
        fingerprint="sha256:w",
        n_cases=len(ids),
        metrics={"numeric_accuracy": 0.5, "hit@3": 0.25, metric_name: 0.4},
        ids=ids,
        results={
            "numeric_accuracy": np.array([i % 3 - 1 for i in range(len(ids))], dtype=np.int8),
            "hit@3": np.array([i % 2 for i in range(len(ids))], dtype=np.int8),
        },
        ranks=np.array([(i % 4) - 1 for i in range(len(ids))], dtype=np.int32),
        case_values={
            metric_name: np.array([np.nan if i % 3 == 0 else i / 8 for i in range(len(ids))]),
            "recall@3": np.array([1.0 if i % 2 else 0.0 for i in range(len(ids))]),
        },
    )
    return entry_from_values(values, recorded_at="2026-01-01T00:00:00+00:00", tool_version="1")


def _field_line(lines: list[str], name: str) -> list[str]:
    return [line for line in lines if line.strip().startswith(f'"{name}": ')]


def _value_of(line: str) -> Any:
    return json.loads(line.split(": ", 1)[1].rstrip(","))


def test_per_case_arrays_are_one_line_each_metrics_one_per_line() -> None:
    entry = _entry_n(3)
    baseline = BaselineFile(entries={"tool": entry})
    text = encode_baseline(baseline).decode("utf-8")
    lines = text.splitlines()
    assert text.endswith("}\n")
    (ids_line,) = _field_line(lines, "ids")
    assert _value_of(ids_line) == ["c00000", "c00001", "c00002"]
    (ranks_line,) = _field_line(lines, "ranks")
    assert _value_of(ranks_line) == entry.ranks == [None, None, 1]
    # ndcg@3 is a metric (a number on its own line) and a per-case array (one line)
    ndcg = _field_line(lines, "ndcg@3")
    assert sorted(isinstance(_value_of(line), list) for line in ndcg) == [False, True]
    assert [_value_of(line) for line in ndcg if "[" in line] == [[None, 0.125, 0.25]]
    (recall_line,) = _field_line(lines, "recall@3")
    assert _value_of(recall_line) == [0.0, 1.0, 0.0]
    # metrics stay indented, one per line, deeper than the entry's own fields
    for name, value in entry.metrics.items():
        scalar = [line for line in _field_line(lines, name) if isinstance(_value_of(line), float)]
        assert len(scalar) == 1 and _value_of(scalar[0]) == value
        assert scalar[0].startswith('      "')
    assert ids_line.startswith('    "ids"') and not ids_line.startswith("     ")
    assert "ragspine-splice-" not in text
    assert parse_baseline(json.loads(text), "b.json") == baseline


def test_line_count_does_not_grow_with_cases() -> None:
    small = encode_baseline(BaselineFile(entries={"tool": _entry_n(3)}))
    large = encode_baseline(BaselineFile(entries={"tool": _entry_n(3000)}))
    assert small.count(b"\n") == large.count(b"\n")
    reread = parse_baseline(json.loads(large), "b.json").entries["tool"]
    assert reread == _entry_n(3000)
    assert len(reread.passed["numeric_accuracy"]) == 3000


def test_several_entries_history_and_meta_round_trip(tmp_path: Path) -> None:
    baseline = BaselineFile(
        entries={"tool": _entry_n(3), "agent": _entry_n(5), "extraction": _parsed_schema2()},
        history=[HistoryRecord(at="t", key="tool", reason="why", changes=[{"case": "c00001"}])],
        extra_meta={"_comment": ["kept", "as a list"]},
    )
    text = encode_baseline(baseline)
    assert b"ragspine-splice-" not in text
    assert json.loads(text) == baseline.to_json_obj()
    assert parse_baseline(json.loads(text), "b.json") == baseline
    path = tmp_path / "qa_baseline.json"
    path.write_bytes(text)
    assert load_baseline(path) == baseline


def test_marker_text_in_names_and_ids_does_not_confuse_the_writer() -> None:
    ids = ["ragspine-splice-", "ragspine-splice-" + "0" * 32, '"ragspine-splice-' + "1" * 32 + '"']
    entry = _entry_n(3, metric_name="ragspine-splice-ndcg", ids=ids)
    entry.metrics["ragspine-splice-zz"] = 0.1
    baseline = BaselineFile(entries={"tool": entry})
    text = encode_baseline(baseline)
    doc = json.loads(text)
    assert doc == baseline.to_json_obj()  # nothing replaced by, or left as, a marker
    assert doc["tool"]["ids"] == sorted(ids)
    assert parse_baseline(doc, "b.json") == baseline


MARKER_SHAPED = "ragspine-splice-" + "0123456789abcdef" * 2


@pytest.mark.parametrize("where", ["metric name", "history case id"])
def test_marker_shaped_text_outside_arrays(where: str) -> None:
    entry = _entry_n(3)
    history: list[HistoryRecord] = []
    if where == "metric name":
        entry.metrics[MARKER_SHAPED] = 0.5
    else:
        history = [HistoryRecord(at="t", key="tool", reason="r", changes=[{"case": MARKER_SHAPED}])]
    baseline = BaselineFile(entries={"tool": entry}, history=history)
    text = encode_baseline(baseline)
    assert json.loads(text) == baseline.to_json_obj()


# --- 6. the bundled baseline ----------------------------------------------------------------


def test_bundled_baseline_is_schema3_aligned_to_the_golden_set() -> None:
    raw = json.loads(BUNDLED_BASELINE.read_text(encoding="utf-8"))
    assert raw["_schema_version"] == 3
    assert isinstance(raw["tool"]["ids"], list)
    assert all(isinstance(p, str) for p in raw["tool"]["passed"].values())
    baseline = load_baseline(BUNDLED_BASELINE)
    assert baseline is not None and baseline.schema_version == 3
    entry = baseline.entries["tool"]
    golden_ids = [
        json.loads(line)["id"]
        for line in BUNDLED_GOLDEN.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    assert entry.ids == sorted(golden_ids)
    assert entry.n_cases == len(golden_ids)
    assert entry.passed
    for metric, chars in entry.passed.items():
        assert len(chars) == len(entry.ids), metric
        assert set(chars) <= set("01-"), metric
    assert len(entry.ranks) == len(entry.ids)
    for metric, column in entry.case_values.items():
        assert len(column) == len(entry.ids), metric
    # the bundled reference system still passes against it, case for case
    result = run(RunConfig(bootstrap_resamples=0))
    assert result.report.baseline is not None
    assert result.report.baseline.status == "pass"
    assert result.report.baseline.broken == [] and result.report.baseline.fixed == []


# --- 7. a real run round-trips ------------------------------------------------------------


def _mini_qa(outcomes: Path) -> QASection:
    result = run(
        RunConfig(
            system="outcomes",
            golden=str(MINI_GOLDEN),
            outcomes=str(outcomes),
            baseline=None,
            bootstrap_resamples=0,
        )
    )
    qa = result.report.qa
    assert qa is not None
    return qa


def _changed_outcomes(tmp_path: Path, q1_sources: list[str], *, wrong_n1: bool) -> Path:
    rows = [json.loads(line) for line in MINI_OUTCOMES.read_text().splitlines() if line]
    for row in rows:
        if row["id"] == "n1" and wrong_n1:
            row["value"] += 1
        if row["id"] == "q1":
            row["sources"] = q1_sources
    path = tmp_path / "outcomes.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.mark.parametrize("variant", ["as given", "degraded", "rank at protected k"])
def test_a_real_run_round_trips(variant: str, tmp_path: Path) -> None:
    outcomes = MINI_OUTCOMES
    if variant == "degraded":  # n1 a wrong number, q1's relevant docs below the protected k
        q1 = ["X.pptx", "Y.pptx", "Z.pptx", "HK_QBR_2025Q4.pptx"]
        outcomes = _changed_outcomes(tmp_path, q1, wrong_n1=True)
    elif variant == "rank at protected k":  # q1's first relevant doc exactly at rank 3
        outcomes = _changed_outcomes(
            tmp_path, ["X.pptx", "Y.pptx", "REG_WATCH_HK.pptx"], wrong_n1=False
        )
    qa = _mini_qa(outcomes)
    protected_k = 3
    values = qa_suite_values(qa, protected_k)
    entry = entry_from_values(values, recorded_at="2026-01-01T00:00:00+00:00", tool_version="1")
    assert entry.ids == sorted(c.id for c in qa.cases)
    for candidate in (entry, _through_json(entry)):
        recorder = Recorder()
        result = compare(candidate, values, recorder)
        assert result.regressions == [] and result.improvements == []
        assert result.broken == [] and result.fixed == []
        for metric, (before, now) in recorder.by_metric(result).items():
            assert before == now, metric
    gates = {g for c in qa.cases for g in c.gates}
    assert gates <= set(entry.passed)
    by_id = {c.id: c for c in qa.cases}
    for gate in gates:
        assert entry.passed_ids(gate) == sorted(c.id for c in qa.cases if c.gates.get(gate))
        expected = "".join(
            "-" if gate not in by_id[i].gates else "1" if by_id[i].gates[gate] else "0"
            for i in entry.ids
        )
        assert entry.passed[gate] == expected, gate
    hit = f"hit@{protected_k}"
    assert entry.passed_ids(hit) == sorted(
        c.id for c in qa.cases if c.retrieval is not None and c.rank and c.rank <= protected_k
    )
    assert dict(zip(entry.ids, entry.ranks, strict=True)) == {
        c.id: c.rank if c.retrieval is not None else None for c in qa.cases
    }
    if variant == "rank at protected k":
        assert entry.ranks[entry.ids.index("q1")] == protected_k
        assert "q1" in entry.passed_ids(hit)
    if variant == "degraded":
        assert entry.passed_ids("numeric_accuracy") == ["n2"]
        assert "q1" not in entry.passed_ids(hit)
        # and the degraded run, compared with a baseline of the good one, breaks exactly these
        good = entry_from_values(
            qa_suite_values(_mini_qa(MINI_OUTCOMES), protected_k),
            recorded_at="t",
            tool_version="1",
        )
        result = compare(good, values)
        broken = _changes(result.broken)
        assert ("n1", "numeric_accuracy", "pass", "fail") in broken
        assert [b for b in broken if b[1] == hit] == [("q1", hit, 1, 4)]


# --- bugs found while writing the above ----------------------------------------------------


def test_updating_a_schema2_file_writes_the_current_schema_version() -> None:
    old = parse_baseline({"_schema_version": 2, "tool": _schema2_entry()}, "b.json")
    new, _, status = apply_update(
        old,
        _suite(),
        compare(old.entries["tool"], _suite()),
        lower_reason=None,
        now="t",
        tool_version="1",
    )
    assert status == "updated"
    doc = json.loads(encode_baseline(new))
    assert "ids" in doc["tool"] and isinstance(doc["tool"]["passed"]["hit@3"], str)
    assert doc["_schema_version"] == BASELINE_SCHEMA_VERSION == 4


def test_schema2_entry_with_empty_per_case_maps_loads() -> None:
    entry = {"metrics": {"m": 0.0}, "n_cases": 0, "passed": {}, "ranks": {}, "case_values": {}}
    parsed = parse_baseline({"tool": entry}, "b.json").entries["tool"]
    assert (parsed.ids, parsed.passed, parsed.ranks, parsed.case_values) == ([], {}, [], {})


def test_hit_pass_string_without_ranks_compares() -> None:
    entry = parse_baseline(
        {
            "tool": {
                "metrics": {"hit@3": 2 / 3},
                "n_cases": 3,
                "ids": ["a", "b", "c"],
                "passed": {"hit@3": "110"},
            }
        },
        "b.json",
    ).entries["tool"]
    now = SuiteValues.from_lists(
        key="tool",
        fingerprint="f",
        n_cases=3,
        metrics={"hit@3": 1 / 3},
        passed={"hit@3": ["a"]},
        applicable={"hit@3": ["a", "b", "c"]},
        ranks={"a": 1, "b": None, "c": 7},
    )
    result = compare(entry, now)
    assert _changes(result.broken) == [("b", "hit@3", None, None)]

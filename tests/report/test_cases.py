"""CaseTable keeps per-case results by column and reads back exactly the CaseResults put in."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ragspine_action.metrics.retrieval import metric_names
from ragspine_action.qa import GATE_NAMES, QASettings, assemble_qa
from ragspine_action.report.cases import (
    CaseTable,
    CaseTableBuilder,
    as_case_table,
    attribution_by_id,
)
from ragspine_action.report.model import CaseResult, GoldenInfo

NAMES: list[str] = metric_names([1, 3, 10])
TAGS_A = {"topic": "tax", "lang": "en"}
TAGS_B = {"lang": "de"}


def _retrieval(seed: float) -> dict[str, float]:
    # Distinct, exactly representable values so a column mix-up shows.
    return {name: (seed + i) / 64 for i, name in enumerate(NAMES)}


def _results() -> list[CaseResult]:
    g = GATE_NAMES
    return [
        CaseResult(
            id="c0",
            case_type="numeric",
            tags=dict(TAGS_A),
            gates={g[0]: True, g[1]: True},
            passed=True,
            rank=2,
            retrieval=_retrieval(1.0),
            attribution=None,
        ),
        CaseResult(
            id="c1",
            case_type="refusal",
            tags=dict(TAGS_A),
            gates={g[2]: False},
            passed=False,
            fabricated=["42", "3.5"],
            rank=None,
            retrieval=None,
            attribution="generation",
        ),
        CaseResult(
            id="c2",
            case_type="numeric",
            tags=dict(TAGS_B),
            gates={g[0]: False, g[4]: True, g[5]: False},
            passed=False,
            rank=None,
            retrieval=_retrieval(20.0),
            attribution="retrieval",
        ),
        CaseResult(
            id="c3",
            case_type="retrieval",
            tags={},
            gates={},
            passed=False,
            error="timeout after 30s",
            rank=None,
            retrieval=None,
            attribution="error",
        ),
        CaseResult(
            id="c4",
            case_type="clarification",
            tags={"topic": "audit"},
            gates={g[3]: True},
            passed=True,
            rank=1,
            retrieval=_retrieval(40.0),
            attribution=None,
        ),
        CaseResult(
            id="c5",
            case_type="refusal",
            tags=dict(TAGS_B),
            gates={g[2]: True, g[1]: False},
            passed=False,
            error="HTTP 500",
            fabricated=["7"],
            rank=10,
            retrieval=_retrieval(60.0),
            attribution="error",
        ),
    ]


def _table(results: list[CaseResult]) -> CaseTable:
    return CaseTable.from_results(results, GATE_NAMES, NAMES)


def _dumps(results: list[CaseResult]) -> list[dict[str, Any]]:
    return [r.model_dump() for r in results]


def test_fixture_covers_every_variant() -> None:
    results = _results()
    assert {r.attribution for r in results} == {None, "retrieval", "generation", "error"}
    assert {r.rank for r in results} >= {None, 2}
    assert any(r.retrieval is None for r in results)
    assert any(r.retrieval is not None for r in results)
    assert any(not r.tags for r in results)
    assert any(r.error for r in results) and any(r.fabricated for r in results)


def test_round_trip_rows_equal_the_results() -> None:
    results = _results()
    table = _table(results)
    assert len(table) == len(results)
    assert list(table) == results
    assert table.to_dicts() == _dumps(results)
    assert [table[i] for i in range(len(table))] == results
    for i, result in enumerate(results):
        assert table.row(i) == result.model_dump()


def test_round_trip_preserves_absent_gates_and_none_values() -> None:
    table = _table(_results())
    # c3 has no applicable gate and no retrieval; c1 has exactly one gate.
    assert table[3].gates == {}
    assert table[3].retrieval is None
    assert table[3].rank is None
    assert table[3].error == "timeout after 30s"
    assert table[1].gates == {GATE_NAMES[2]: False}
    assert table[1].fabricated == ["42", "3.5"]
    assert table[0].rank == 2
    assert table[0].error is None and table[0].fabricated == []
    assert table[2].retrieval == _retrieval(20.0)
    # The columns themselves agree with the rows.
    assert table.gate_column(GATE_NAMES[2]).tolist() == [-1, 0, -1, -1, -1, 1]
    assert table.gate_column(GATE_NAMES[0]).tolist() == [1, -1, 0, -1, -1, -1]
    hit3 = table.metric_column("hit@3")
    assert np.isnan(hit3[[1, 3]]).all()
    assert hit3[[0, 2, 4, 5]].tolist() == [2 / 64, 21 / 64, 41 / 64, 61 / 64]
    assert table.attributions() == [r.attribution for r in _results()]


def test_row_keys_follow_case_result_field_order() -> None:
    table = _table(_results())
    # ``judge`` (the judges' evidence) is left out where no judged gate applied.
    fields = [f for f in CaseResult.model_fields if f != "judge"]
    for row in table.to_dicts():
        assert list(row) == fields
    assert list(table.row(2)) == fields
    for case in table:
        assert list(case.model_dump()) == fields
    # Retrieval and gate keys come out in the table's name order.
    assert list(table.row(0)["retrieval"]) == NAMES
    assert list(table.row(2)["gates"]) == [GATE_NAMES[0], GATE_NAMES[4], GATE_NAMES[5]]


def test_rows_are_valid_case_results() -> None:
    # Rows are built with model_construct; they must still pass validation.
    for row in _table(_results()).to_dicts():
        CaseResult.model_validate(row)


def test_indexing_negative_slices_and_range() -> None:
    results = _results()
    table = _table(results)
    assert table[-1] == results[-1]
    assert table[-len(results)] == results[0]
    assert table[1:4] == results[1:4]
    assert table[::2] == results[::2]
    assert table[::-1] == results[::-1]
    assert table[-2:] == results[-2:]
    assert table[10:] == []
    with pytest.raises(IndexError):
        table[len(results)]
    with pytest.raises(IndexError):
        table[-len(results) - 1]


def test_sequence_mixin_methods() -> None:
    results = _results()
    table = _table(results)
    assert results[3] in table
    assert table.index(results[4]) == 4
    assert list(reversed(table)) == results[::-1]


def test_rows_window() -> None:
    results = _results()
    table = _table(results)
    assert list(table.rows(2, 5)) == _dumps(results[2:5])
    assert list(table.rows(4)) == _dumps(results[4:])
    assert list(table.rows(4, 100)) == _dumps(results[4:])


def test_tag_sets_are_shared_per_distinct_set() -> None:
    table = _table(_results())
    assert table.tag_sets == [TAGS_A, TAGS_B, {}, {"topic": "audit"}]
    assert table.tag_codes.tolist() == [0, 0, 1, 2, 3, 1]
    assert table.errors == {3: "timeout after 30s", 5: "HTTP 500"}
    assert table.fabricated == {1: ["42", "3.5"], 5: ["7"]}


def test_empty_table() -> None:
    table = _table([])
    assert len(table) == 0
    assert list(table) == []
    assert table.to_dicts() == []
    assert table.gates.shape == (0, len(GATE_NAMES))
    assert table.retrieval.shape == (0, len(NAMES))
    with pytest.raises(IndexError):
        table[0]


@pytest.mark.parametrize("split", [0, 1, 2, 3, 4, 5, 6])
def test_concat_of_split_equals_whole(split: int) -> None:
    results = _results()
    whole = _table(results)
    merged = CaseTable.concat([_table(results[:split]), _table(results[split:])])
    assert len(merged) == len(whole)
    assert merged.to_dicts() == whole.to_dicts()
    assert list(merged) == results
    assert merged.errors == whole.errors
    assert merged.fabricated == whole.fabricated
    assert merged.tag_sets == whole.tag_sets
    assert merged.tag_codes.tolist() == whole.tag_codes.tolist()


def test_concat_reoffsets_sparse_maps_and_recodes_tags() -> None:
    results = _results()
    # The second part starts with a tag set first seen there ({}), then one also in part one.
    first = _table(results[:3])
    second = _table(results[3:])
    assert second.errors == {0: "timeout after 30s", 2: "HTTP 500"}
    assert second.fabricated == {2: ["7"]}
    assert second.tag_codes.tolist() == [0, 1, 2]  # {}, audit, TAGS_B — local codes
    merged = CaseTable.concat([first, second])
    assert merged.errors == {3: "timeout after 30s", 5: "HTTP 500"}
    assert merged.fabricated == {1: ["42", "3.5"], 5: ["7"]}
    assert [merged.tag_sets[c] for c in merged.tag_codes.tolist()] == [r.tags for r in results]
    # A tag set in both parts gets one code.
    assert len(merged.tag_sets) == 4


def test_concat_many_parts_and_empty_parts() -> None:
    results = _results()
    parts = [_table(results[i : i + 1]) for i in range(len(results))]
    parts.insert(2, _table([]))
    parts.append(_table([]))
    merged = CaseTable.concat(parts)
    assert merged.to_dicts() == _dumps(results)


def test_concat_rejects_different_metric_names() -> None:
    results = _results()
    other = CaseTable.from_results(
        [r for r in results if r.retrieval is None], GATE_NAMES, metric_names([1, 5])
    )
    with pytest.raises(ValueError, match="different"):
        CaseTable.concat([_table(results), other])


def test_concat_rejects_different_gate_names() -> None:
    results = _results()
    other = CaseTable.from_results([results[3]], GATE_NAMES[:-1], NAMES)
    with pytest.raises(ValueError, match="different"):
        CaseTable.concat([_table(results), other])


@pytest.mark.parametrize(
    "order",
    [[5, 4, 3, 2, 1, 0], [3, 0, 5, 1, 4, 2], [1, 5, 0, 3, 2, 4], [0, 1, 2, 3, 4, 5]],
)
def test_take_permutation_reorders_every_column(order: list[int]) -> None:
    results = _results()
    table = _table(results)
    taken = table.take(order)
    expected = [results[i] for i in order]
    assert list(taken) == expected
    assert taken.to_dicts() == _dumps(expected)
    assert taken.ids == [r.id for r in expected]
    assert taken.errors == {new: r.error for new, r in enumerate(expected) if r.error}
    assert taken.fabricated == {new: r.fabricated for new, r in enumerate(expected) if r.fabricated}
    # The original is untouched.
    assert list(table) == results


def test_take_with_numpy_order_restores_original() -> None:
    results = _results()
    table = _table(results)
    order = np.array([3, 0, 5, 1, 4, 2])
    shuffled = table.take(order)
    restored = shuffled.take(np.argsort(order))
    assert restored.to_dicts() == table.to_dicts()


def test_tag_members_masks() -> None:
    table = _table(_results())
    members = table.tag_members()
    assert list(members) == ["lang", "topic"]
    assert list(members["lang"]) == ["de", "en"]
    assert list(members["topic"]) == ["audit", "tax"]
    expected = {
        "lang": {"de": [2, 5], "en": [0, 1]},
        "topic": {"audit": [4], "tax": [0, 1]},
    }
    for key, values in expected.items():
        for value, positions in values.items():
            mask = members[key][value]
            assert mask.dtype == np.bool_
            assert mask.shape == (len(table),)
            assert np.flatnonzero(mask).tolist() == positions


def test_tag_members_after_concat_and_take() -> None:
    results = _results()
    merged = CaseTable.concat([_table(results[:2]), _table(results[2:])]).take([5, 4, 3, 2, 1, 0])
    members = merged.tag_members()
    for key, values in members.items():
        for value, mask in values.items():
            want = [i for i, r in enumerate(results[::-1]) if r.tags.get(key) == value]
            assert np.flatnonzero(mask).tolist() == want


def test_tag_members_same_pairs_in_different_key_order() -> None:
    results = [
        CaseResult(id="a", case_type="t", tags={"x": "1", "y": "2"}, passed=True),
        CaseResult(id="b", case_type="t", tags={"y": "2", "x": "1"}, passed=True),
        CaseResult(id="c", case_type="t", tags={"x": "2"}, passed=True),
    ]
    table = _table(results)
    assert list(table) == results
    members = table.tag_members()
    assert np.flatnonzero(members["x"]["1"]).tolist() == [0, 1]
    assert np.flatnonzero(members["x"]["2"]).tolist() == [2]
    assert np.flatnonzero(members["y"]["2"]).tolist() == [0, 1]


def test_tag_members_empty_when_no_tags() -> None:
    table = _table([CaseResult(id="a", case_type="t", passed=True)])
    assert table.tag_members() == {}


def test_builder_rejects_retrieval_with_missing_metric() -> None:
    builder = CaseTableBuilder(GATE_NAMES, NAMES)
    partial = _retrieval(1.0)
    del partial["mrr"]
    with pytest.raises(ValueError, match="'bad-case'"):
        builder.add("bad-case", "numeric", {}, {}, True, None, [], 1, partial, None)


def test_builder_rejects_retrieval_with_extra_metric() -> None:
    builder = CaseTableBuilder(GATE_NAMES, NAMES)
    extra = _retrieval(1.0) | {"hit@5": 1.0}
    with pytest.raises(ValueError, match="'bad-case'"):
        builder.add("bad-case", "numeric", {}, {}, True, None, [], 1, extra, None)


def test_from_results_rejects_retrieval_of_other_ks() -> None:
    case = CaseResult(
        id="other-ks",
        case_type="numeric",
        passed=True,
        retrieval=dict.fromkeys(metric_names([1, 5]), 1.0),
    )
    with pytest.raises(ValueError, match="other-ks"):
        _table([case])


def test_builder_rejects_retrieval_same_size_other_names() -> None:
    builder = CaseTableBuilder(GATE_NAMES, NAMES)
    renamed = _retrieval(1.0)
    renamed["map"] = renamed.pop("mrr")
    with pytest.raises(ValueError, match="'bad-case'"):
        builder.add("bad-case", "numeric", {}, {}, True, None, [], 1, renamed, None)


def test_builder_accepts_retrieval_in_any_key_order() -> None:
    shuffled = dict(reversed(list(_retrieval(3.0).items())))
    case = CaseResult(id="a", case_type="t", passed=True, retrieval=shuffled)
    table = _table([case])
    assert table[0].retrieval == shuffled
    assert list(table.row(0)["retrieval"]) == NAMES


def test_builder_does_not_alias_caller_lists() -> None:
    builder = CaseTableBuilder(GATE_NAMES, NAMES)
    tags = {"k": "v"}
    numbers = ["1"]
    builder.add("a", "t", tags, {}, False, None, numbers, None, None, "generation")
    tags["k"] = "changed"
    numbers.append("2")
    table = builder.build()
    assert table[0].tags == {"k": "v"}
    assert table[0].fabricated == ["1"]


def test_attribution_by_id_table_equals_list() -> None:
    results = _results()
    table = _table(results)
    want = {r.id: r.attribution for r in results}
    assert attribution_by_id(table) == want
    assert attribution_by_id(results) == want
    assert list(attribution_by_id(table)) == [r.id for r in results]


def test_as_case_table_passes_tables_through() -> None:
    results = _results()
    table = _table(results)
    assert as_case_table(table, GATE_NAMES, NAMES) is table
    built = as_case_table(results, GATE_NAMES, NAMES)
    assert isinstance(built, CaseTable)
    assert built.to_dicts() == table.to_dicts()


def _assemble(cases: list[CaseResult] | CaseTable, n: int) -> Any:
    return assemble_qa(
        mode="offline",
        system="stub",
        golden=GoldenInfo(path="g", fingerprint="f", n_cases=n),
        cases=cases,
        failures={},
        refusal_checked=0,
        settings=QASettings(),
    )


def test_assemble_qa_serializes_table_rows() -> None:
    results = _results()
    table = _table(results)
    qa = _assemble(table, len(results)).model_dump(mode="json")
    assert qa["cases"] == table.to_dicts()
    assert qa["cases"] == [r.model_dump(mode="json") for r in results]
    assert qa["n_cases"] == len(results)
    assert qa["errors"]["cases"] == [
        {"id": "c3", "error": "timeout after 30s"},
        {"id": "c5", "error": "HTTP 500"},
    ]
    assert qa["fabrication"]["cases"] == [
        {"id": "c1", "numbers": ["42", "3.5"], "question": None},
        {"id": "c5", "numbers": ["7"], "question": None},
    ]
    assert qa["attribution"]["retrieval"] == 1
    assert qa["attribution"]["generation"] == 1
    assert qa["attribution"]["error"] == 2


def test_assemble_qa_same_output_for_list_and_table() -> None:
    results = _results()
    from_list = _assemble(results, len(results))
    from_table = _assemble(_table(results), len(results))
    assert from_list.model_dump() == from_table.model_dump()
    assert from_list.model_dump(mode="json") == from_table.model_dump(mode="json")
    assert from_list.model_dump_json() == from_table.model_dump_json()

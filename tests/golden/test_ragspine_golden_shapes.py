"""RAGSpine golden files load unchanged; typos of known fields are still caught."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragspine_action.errors import InputError
from ragspine_action.golden.load import load_golden_set

NUMERIC = {
    "id": "num-001",
    "question": "香港FY2025的REVENUE是多少",
    "case_type": "numeric",
    "expected": {
        "clarification": "none",
        "refuse": False,
        "value": 1702.0,
        "unit": "USD_M",
        "source": {"doc": "R.pptx", "locator": "slide=5,table=1,row=2,col=3"},
    },
    "tags": {"topic": "FIN", "scope": "ACME_HK", "qtype": "must_not_clarify"},
    "reference_date": "2026-06-12",
}


def _load(tmp_path: Path, *records: dict[str, Any]) -> Any:
    path = tmp_path / "golden.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return load_golden_set(path)


def _with(**changes: Any) -> dict[str, Any]:
    record = json.loads(json.dumps(NUMERIC))
    for dotted, value in changes.items():
        target = record
        *parents, last = dotted.split("__")
        for part in parents:
            target = target[part]
        target[last] = value
    return record


def test_extra_keys_everywhere_are_ignored_and_do_not_change_the_fingerprint(
    tmp_path: Path,
) -> None:
    plain = _load(tmp_path, NUMERIC)
    noted = _load(
        tmp_path,
        _with(comment="from the FY2025 deck", expected__note="checked", expected__source__page=5),
    )
    assert noted.cases == plain.cases
    assert noted.fingerprint == plain.fingerprint


def test_tag_values_of_any_json_type_are_bucketed_as_python_str(tmp_path: Path) -> None:
    golden = _load(
        tmp_path, _with(tags={"priority": 1, "reviewed": True, "weight": 0.5, "owner": None})
    )
    assert golden.cases[0].tags == {
        "priority": "1",
        "reviewed": "True",
        "weight": "0.5",
        "owner": "None",
    }


def test_out_of_scope_entity_may_be_expected_of_a_refused_case(tmp_path: Path) -> None:
    refusal = {
        "id": "oos",
        "question": "竞安去年REVENUE多少",
        "case_type": "refusal",
        "expected": {"clarification": "out_of_scope_entity", "refuse": True},
    }
    assert _load(tmp_path, refusal).cases[0].expected.clarification == "out_of_scope_entity"
    refusal["expected"]["refuse"] = False
    refusal["case_type"] = "clarification"
    with pytest.raises(InputError, match="out_of_scope_entity"):
        _load(tmp_path, refusal)


@pytest.mark.parametrize(
    ("record", "field", "says"),
    [
        (_with(expectd={}), "expectd", "did you mean 'expected'"),
        (_with(expected__refused=True), "expected.refused", "did you mean 'refuse'"),
        (_with(expected__source__locatr="x"), "expected.source.locatr", "did you mean 'locator'"),
        (_with(expected__value="1702"), "expected.value", "valid number"),
        (_with(tags=["FIN"]), "tags", "dictionary"),
        (_with(expected__source={"doc": "", "locator": "x"}), "expected.source.doc", "non-empty"),
    ],
)
def test_real_mistakes_are_still_located_errors(
    tmp_path: Path, record: dict[str, Any], field: str, says: str
) -> None:
    with pytest.raises(InputError) as exc:
        _load(tmp_path, record)
    assert [(p.line, p.field) for p in exc.value.problems] == [(1, field)]
    assert says in exc.value.problems[0].message


def test_duplicate_ids_are_still_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="duplicate id"):
        _load(tmp_path, NUMERIC, _with(question="again"))

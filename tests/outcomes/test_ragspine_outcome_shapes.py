"""Every outcome shape RAGSpine produces loads; the checks that catch real mistakes stay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from ragspine_action.errors import InputError
from ragspine_action.golden.load import golden_set_from_cases
from ragspine_action.golden.models import GoldenCase
from ragspine_action.outcomes.load import load_outcomes
from ragspine_action.outcomes.model import Outcome
from ragspine_action.qa import evaluate_qa
from ragspine_action.systems.base import complete_collection


def _write(tmp_path: Path, *records: dict[str, Any]) -> Path:
    path = tmp_path / "outcomes.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return path


def test_a_case_outcome_dump_reads_as_the_spec_fields() -> None:
    dumped = {
        "case_id": "num-001",
        "clarification_mode": "answer_with_assumptions",
        "answer": "ACME_HK FY2025 REVENUE 为 1702 USD_M",
        "found_value": 1702.0,
        "found_unit": "USD_M",
        "found_source": {"doc": "R.pptx", "locator": "slide=5"},
        "refused": False,
        "sources": [{"doc": "R.pptx", "locator": "slide=5"}],
        "tool_statuses": ["found"],
        "route": "structured",
        "narrative_answer": "",
        "retrieved_context": ["passage"],
    }
    outcome = Outcome.model_validate(dumped)
    assert (outcome.id, outcome.clarification, outcome.value, outcome.unit) == (
        "num-001",
        "answer_with_assumptions",
        1702.0,
        "USD_M",
    )
    assert outcome.source is not None and outcome.source.locator == "slide=5"
    assert outcome.contexts == ["passage"]
    assert outcome.narrative_answer is None  # "" means no narrative part


def test_out_of_scope_entity_loads_and_is_a_refusal_unless_said_otherwise(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        {"id": "a", "clarification": "out_of_scope_entity", "answer": "不掌握竞品数据"},
        {"id": "b", "clarification": "out_of_scope_entity", "refused": False},
        {"case_id": "c", "clarification_mode": "out_of_scope_entity"},
    )
    loaded = load_outcomes(path)
    assert [loaded[i].clarification for i in "abc"] == ["out_of_scope_entity"] * 3
    assert [loaded[i].refused for i in "abc"] == [True, False, True]


def test_out_of_scope_entity_is_judged_as_ragspine_judges_it() -> None:
    """Refused (passes refusal), but a clarification mode the golden case did not expect."""
    cases = [
        GoldenCase.model_validate(
            {
                "id": "oos",
                "question": "竞安去年REVENUE多少",
                "case_type": "refusal",
                "expected": {"refuse": True},
            }
        ),
        GoldenCase.model_validate(
            {
                "id": "oos2",
                "question": "竞安去年REVENUE多少",
                "case_type": "refusal",
                "expected": {"refuse": True, "clarification": "out_of_scope_entity"},
            }
        ),
    ]
    answer = "系统不掌握「竞安」2025年的数据，无法回答。"
    outcomes = {
        c.id: Outcome.model_validate(
            {"id": c.id, "clarification": "out_of_scope_entity", "answer": answer}
        )
        for c in cases
    }
    golden = golden_set_from_cases(cases)
    qa = evaluate_qa(golden, complete_collection(golden.cases, outcomes), mode="tool", system="t")
    assert (
        qa.metrics["refusal_appropriateness"].passed,
        qa.metrics["refusal_appropriateness"].total,
    ) == (2, 2)
    clar = qa.metrics["clarification_appropriateness"]
    assert (clar.passed, clar.total, [f.id for f in clar.failures]) == (1, 2, ["oos"])
    assert qa.fabrication_count == 0  # 2025年 is a period


def test_extra_keys_inside_source_and_sources_are_ignored(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        {
            "id": "n1",
            "source": {"doc": "R.pptx", "locator": "slide=5", "score": 0.93, "page": 5},
            "sources": [
                {"doc": "R.pptx", "locator": "slide=5", "score": 0.93},
                {"doc": "", "locator": ""},
            ],
            "latency": 12,
        },
    )
    outcome = load_outcomes(path)["n1"]
    assert outcome.source is not None and (outcome.source.doc, outcome.source.locator) == (
        "R.pptx",
        "slide=5",
    )
    assert outcome.ranked_docs() == ["R.pptx", ""]


@pytest.mark.parametrize(
    ("record", "field"),
    [
        ({"id": "n1", "value": "1702"}, "value"),
        ({"id": "n1", "refused": "yes"}, "refused"),
        ({"id": "n1", "clarification": "ask_later"}, "clarification"),
        ({"id": "n1", "sources": [{"locator": "x"}]}, "sources[0].doc"),
        ({"id": "n1", "contexts": "one string"}, "contexts"),
        ({"answer": "no id at all"}, "id"),
    ],
)
def test_wrong_types_of_known_fields_are_still_errors(
    tmp_path: Path, record: dict[str, Any], field: str
) -> None:
    with pytest.raises(InputError) as exc:
        load_outcomes(_write(tmp_path, record))
    assert [p.field for p in exc.value.problems] == [field]
    assert exc.value.problems[0].line == 1


def test_both_names_for_one_field_must_agree() -> None:
    Outcome.model_validate({"id": "a", "case_id": "a"})  # the same value twice is fine
    with pytest.raises(ValidationError, match="'value' and RAGSpine's 'found_value'"):
        Outcome.model_validate({"id": "a", "value": 1.0, "found_value": 2.0})


def test_duplicate_ids_across_both_spellings_are_errors(tmp_path: Path) -> None:
    path = _write(tmp_path, {"id": "a"}, {"case_id": "a"})
    with pytest.raises(InputError, match="duplicate id"):
        load_outcomes(path)


def test_every_field_of_a_case_outcome_dump_is_a_known_field() -> None:
    """A contract check must not call RAGSpine's own field names unknown."""
    from ragspine_action.outcomes.model import KNOWN_FIELDS

    ragspine = {
        "case_id", "clarification_mode", "answer", "found_value", "found_unit",
        "found_source", "refused", "sources", "tool_statuses", "route",
        "narrative_answer", "retrieved_context",
    }  # fmt: skip
    assert ragspine <= KNOWN_FIELDS
    assert {"id", "answer", "clarification", "contexts", "error", "latency_ms"} <= KNOWN_FIELDS

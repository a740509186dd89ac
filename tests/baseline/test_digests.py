"""Per-case digests: every kind of edit of a golden set is classified (added, removed,
changed and what, comparable or not), whatever the order and size of the set."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from ragspine_action.baseline.digests import DIGEST_FIELDS, digest_cases, row_digests
from ragspine_action.baseline.ratchet import SuiteValues, diff_cases, entry_from_values
from ragspine_action.golden.load import fingerprint_cases
from ragspine_action.golden.models import GoldenCase


def _case(i: int) -> dict[str, Any]:
    return {
        "id": f"c{i:05d}",
        "question": f"What was revenue in region {i}?",
        "case_type": "numeric",
        "expected": {
            "value": float(i),
            "unit": "USD_M",
            "source": {"doc": f"D{i % 7}.pptx", "locator": f"slide={i % 11}"},
        },
        "tags": {"scope": f"S{i % 3}"},
    }


EDITS: dict[str, tuple[str, bool]] = {
    # edit → (field named, comparable)
    "question": ("question", False),
    "value": ("expected.value", False),
    "unit": ("expected.unit", False),
    "locator": ("expected.source", False),
    "reference_date": ("reference_date", False),
    "clarification": ("expected.clarification", False),
    "reference_answer": ("expected.reference_answer", False),
    "tags": ("tags", True),
}


def _edit(case: dict[str, Any], kind: str) -> None:
    exp = case["expected"]
    if kind == "question":
        case["question"] += " (restated)"
    elif kind == "value":
        exp["value"] += 0.5
    elif kind == "unit":
        exp["unit"] = "USD_K"
    elif kind == "locator":
        exp["source"]["locator"] += ",row=2"
    elif kind == "reference_date":
        case["reference_date"] = "2025-12-31"
    elif kind == "clarification":
        exp["clarification"] = "answer_with_assumptions"
    elif kind == "reference_answer":
        exp["reference_answer"] = "about the same as last year"
    elif kind == "tags":
        case["tags"] = {"scope": "MOVED"}


def _values(cases: list[dict[str, Any]]) -> SuiteValues:
    models = [GoldenCase.model_validate(c) for c in cases]
    ids = [c.id for c in models]
    digests = digest_cases(models)
    return SuiteValues(
        key="tool",
        fingerprint=fingerprint_cases(models),
        n_cases=len(ids),
        metrics={"numeric_accuracy": 1.0},
        ids=ids,
        results={"numeric_accuracy": np.ones(len(ids), dtype=np.int8)},
        digests=lambda: digests,
    )


@pytest.mark.parametrize("seed", range(12))
def test_random_edits_are_classified_exactly(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice([1, 5, 40, 300])
    before = [_case(i) for i in range(n)]
    entry = entry_from_values(_values(before), recorded_at="t", tool_version="v")
    after = [
        dict(c, expected=dict(c["expected"], source=dict(c["expected"]["source"]))) for c in before
    ]
    removed = set(rng.sample([c["id"] for c in after], k=rng.randint(0, n // 4)))
    after = [c for c in after if c["id"] not in removed]
    expected_changes: dict[str, tuple[str, bool]] = {}
    for case in rng.sample(after, k=min(len(after), rng.randint(0, 6))):
        kind = rng.choice(sorted(EDITS))
        _edit(case, kind)
        expected_changes[case["id"]] = EDITS[kind]
    added = [_case(n + k) for k in range(rng.randint(0, 4))]
    after += added
    rng.shuffle(after)  # line order never matters
    values = _values(after)
    diff = diff_cases(entry, values)
    if not (removed or expected_changes or added):
        assert diff is None  # the same fingerprint: nothing to look at
        return
    assert diff is not None
    assert sorted(diff.added) == sorted(c["id"] for c in added)
    assert set(diff.removed) == removed
    got = {c.id: (c.fields, c.comparable) for c in diff.changed}
    assert got == {i: ((f,), ok) for i, (f, ok) in expected_changes.items()}
    common = {values.ids[j] for j in np.flatnonzero(diff.common).tolist()}
    untouched = {c["id"] for c in after} - {c["id"] for c in added}
    assert common == {i for i in untouched if expected_changes.get(i, ("", True))[1]}


def test_explicit_defaults_and_key_order_do_not_change_a_digest() -> None:
    plain = GoldenCase.model_validate(_case(1))
    spelled = GoldenCase.model_validate(
        {**_case(1), "expected": {**_case(1)["expected"], "refuse": False, "clarification": "none"}}
    )
    assert row_digests(plain) == row_digests(spelled)
    assert set(row_digests(plain)) == {"case", *DIGEST_FIELDS}


def test_a_malformed_digest_column_is_refused_when_the_baseline_loads() -> None:
    from ragspine_action.baseline.model import BaselineEntry

    with pytest.raises(ValueError, match=r"digests.case: has 15 hex digits, expected 16 per id"):
        BaselineEntry.model_validate(
            {"metrics": {}, "n_cases": 1, "ids": ["a"], "digests": {"case": "0" * 15}}
        )
    with pytest.raises(ValueError, match="digests"):
        BaselineEntry.model_validate(
            {"metrics": {}, "n_cases": 1, "ids": ["a"], "digests": {"case": "Z" * 16}}
        )

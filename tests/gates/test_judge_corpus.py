"""The lexical judge on a hand-labelled corpus of realistic RAG answers (English, Chinese).

tests/data/judge_corpus.jsonl holds 180 answer/context (or reference/answer) pairs, each
labelled supported/unsupported by hand: every citation form, meta and template lines,
echoed questions, composite value lines (with RAGSpine's narrative_answer), and the hard
negatives (bracketed, numeric, negated, opposite-direction and added-sentence
hallucinations), plus refusal answers with the exact amounts fabrication must count.
The figures printed here are the ones docs/judges.md reports.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from ragspine_action.gates import GateSettings, detect_fabricated_numbers
from ragspine_action.gates.answer_accuracy import AnswerAccuracy
from ragspine_action.gates.faithfulness import Faithfulness
from ragspine_action.golden.models import GoldenCase
from ragspine_action.outcomes.model import Outcome

CORPUS = Path(__file__).resolve().parents[1] / "data" / "judge_corpus.jsonl"
ROWS: list[dict[str, Any]] = [json.loads(line) for line in CORPUS.read_text("utf-8").splitlines()]
JUDGED = [r for r in ROWS if r["gate"] != "fabrication"]
MINIMUM = 0.95


def _verdict(row: dict[str, Any]) -> bool:
    """The gate's verdict on one pair, through the same gate code a run uses."""
    settings = GateSettings()
    if row["gate"] == "faithfulness":
        composite = row.get("value") is not None
        expected: dict[str, Any] = {"narrative_doc": row["sources"][-1]}
        if composite:
            expected |= {
                "value": row["value"],
                "unit": row["unit"],
                "source": {"doc": row["sources"][0], "locator": "slide=5"},
            }
        case = GoldenCase.model_validate(
            {
                "id": row["id"],
                "question": row["question"],
                "case_type": "composite" if composite else "narrative",
                "expected": expected,
            }
        )
        outcome = Outcome.model_validate(
            {
                "id": row["id"],
                "answer": row["answer"],
                "narrative_answer": row.get("narrative_answer"),
                "value": row.get("value"),
                "unit": row.get("unit"),
                "sources": row["sources"],
                "contexts": row["contexts"],
            }
        )
        return Faithfulness().check(case, outcome, settings).passed
    case = GoldenCase.model_validate(
        {
            "id": row["id"],
            "question": "q",
            "case_type": "narrative",
            "expected": {"narrative_doc": "doc.pdf", "reference_answer": row["reference"]},
        }
    )
    outcome = Outcome.model_validate({"id": row["id"], "answer": row["answer"]})
    return AnswerAccuracy().check(case, outcome, settings).passed


def _figures(rows: list[dict[str, Any]]) -> dict[str, float]:
    counts: Counter[tuple[str, bool]] = Counter()
    for row in rows:
        counts[(row["label"], _verdict(row))] += 1
    tp, fn = counts[("supported", True)], counts[("supported", False)]
    tn, fp = counts[("unsupported", False)], counts[("unsupported", True)]
    return {
        "supported precision": tp / (tp + fp),
        "supported recall": tp / (tp + fn),
        "unsupported precision": tn / (tn + fn),
        "unsupported recall": tn / (tn + fp),
    }


def test_the_corpus_is_big_bilingual_and_balanced() -> None:
    assert len(JUDGED) >= 150
    langs = Counter(r["lang"] for r in JUDGED)
    labels = Counter(r["label"] for r in JUDGED)
    assert langs["en"] >= 50 and langs["zh"] >= 50
    assert labels["supported"] >= 50 and labels["unsupported"] >= 50
    kinds = {r["kind"] for r in JUDGED}
    assert {"citation", "meta", "echo", "composite", "bracket", "numeric", "negation"} <= kinds


def test_precision_and_recall_on_the_labelled_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    overall = _figures(JUDGED)
    with capsys.disabled():
        print(f"\njudge corpus ({len(JUDGED)} pairs):")
        for name, value in overall.items():
            print(f"  {name}: {value:.3f}")
        for lang in ("en", "zh"):
            by_lang = _figures([r for r in JUDGED if r["lang"] == lang])
            print(f"  {lang}: " + ", ".join(f"{k} {v:.3f}" for k, v in by_lang.items()))
    for name, value in overall.items():
        assert value >= MINIMUM, f"{name} {value:.3f} < {MINIMUM}"


@pytest.mark.parametrize(
    "row", [r for r in JUDGED if r["kind"] in ("citation", "meta", "echo")], ids=lambda r: r["id"]
)
def test_presentation_never_fails_a_faithful_answer(row: dict[str, Any]) -> None:
    assert row["label"] == "supported"
    assert _verdict(row), row["answer"]


@pytest.mark.parametrize(
    "row",
    [r for r in JUDGED if r["kind"] in ("bracket", "negation", "citation_hidden", "meta_hidden")],
    ids=lambda r: r["id"],
)
def test_hidden_and_negated_hallucinations_fail(row: dict[str, Any]) -> None:
    assert row["label"] == "unsupported"
    assert not _verdict(row), row.get("answer")


@pytest.mark.parametrize(
    "row", [r for r in ROWS if r["gate"] == "fabrication"], ids=lambda r: r["id"]
)
def test_fabrication_counts_exactly_the_amounts(row: dict[str, Any]) -> None:
    assert (
        detect_fabricated_numbers(row["answer"], sources=row.get("sources", ())) == row["numbers"]
    )

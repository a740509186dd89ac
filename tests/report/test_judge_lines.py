"""The judge's evidence line and the gate line in words, over the shapes a report holds."""

from __future__ import annotations

from typing import Any

import pytest

from ragspine_action.report.model import ClaimEvidence, JudgeEvidence
from ragspine_action.report.view import (
    _evidence_line,
    _judge_summary,
    citation_summary,
    clip,
    refusal_summary,
)


def _claims(*claims: dict[str, Any]) -> JudgeEvidence:
    return JudgeEvidence(claims=[ClaimEvidence.model_validate(c) for c in claims])


def test_clip_keeps_one_short_line() -> None:
    assert clip("a\n\tb  c", 10) == "a b c"
    assert clip("x" * 50, 10) == "x" * 9 + "…"
    assert len(clip("word " * 100, 40)) <= 40 and clip("word " * 100, 40).endswith("…")
    assert clip("😀" * 20, 5) == "😀" * 4 + "…"  # whole characters only


@pytest.mark.parametrize(
    ("gate", "evidence", "line"),
    [
        (
            "faithfulness",
            _claims(
                {"claim": "A is 5.", "verdict": "supported", "matched": "A is 5."},
                {
                    "claim": "B is 7.",
                    "verdict": "unsupported",
                    "matched": "B is 6.",
                    "reason": "numbers not in the contexts: 7",
                },
            ),
            "unsupported: “B is 7.” — numbers not in the contexts: 7; closest context: “B is 6.”",
        ),
        (
            "faithfulness",
            _claims(
                {"claim": "C.", "verdict": "unsupported"}, {"claim": "D.", "verdict": "unsupported"}
            ),
            "unsupported: “C.”; no context sentence comes close (+1 more)",
        ),
        (
            "faithfulness",
            _claims({"claim": "E.", "verdict": "error", "reason": "judge timed out"}),
            "error: “E.” — judge timed out",
        ),
        (
            "answer_accuracy",
            _claims({"claim": "25 days.", "verdict": "unsupported", "matched": "20 days."}),
            "reference not matched: “25 days.”; closest in the answer: “20 days.”",
        ),
        (
            "answer_accuracy",
            _claims({"claim": "25 days.", "verdict": "unsupported"}),
            "reference not matched: “25 days.”; no sentence in the answer comes close",
        ),
        ("faithfulness", _claims({"claim": "ok", "verdict": "supported"}), None),
        ("faithfulness", _claims({"claim": "x", "verdict": "exempt", "reason": "a period"}), None),
        ("faithfulness", JudgeEvidence(claims=[]), None),
    ],
)
def test_evidence_line(gate: str, evidence: JudgeEvidence, line: str | None) -> None:
    assert _evidence_line(gate, evidence) == line


def test_a_long_claim_is_clipped_on_one_line() -> None:
    claim = "word " * 200 + "\nsecond line"
    line = _evidence_line(
        "faithfulness", _claims({"claim": claim, "verdict": "unsupported", "matched": claim})
    )
    assert line is not None and "\n" not in line and len(line) < 260
    assert line.count("…") == 2


@pytest.mark.parametrize(
    ("gate", "expected", "actual", "words"),
    [
        ("faithfulness", "every claim entailed", {"claims": 2, "unsupported": ["x"]},
         ("every claim entailed", "1 of 2 claims unsupported")),
        ("faithfulness", "every claim entailed", {"claims": 1, "unsupported": ["x"]},
         ("every claim entailed", "1 of 1 claim unsupported")),
        ("faithfulness", "e", {"unsupported": [], "reason": "answer has no claims"},
         ("e", "answer has no claims")),
        ("faithfulness", "e", {"judge_error": "HTTP 429"},
         ("e", "no verdict: the judge failed (HTTP 429)")),
        ("answer_accuracy", {"min_recall": 0.6, "reference": "reference_answer"},
         {"recall": 0.4}, ("recall ≥ 0.6 of the reference_answer", "recall 0.40")),
        ("answer_accuracy", {"min_recall": 0.6, "reference": "reference text of a.md"},
         {"recall": 0.9, "problems": ["a: numbers", "b: polarity"]},
         ("recall ≥ 0.6 of the reference text of a.md", "recall 0.90, 2 sentences contradicted")),
        ("answer_accuracy", "hand-made", "values", None),  # shown as recorded
        ("faithfulness", "e", {"something": "else"}, None),
    ],
)  # fmt: skip
def test_gate_line_in_words(gate: str, expected: Any, actual: Any, words: Any) -> None:
    assert _judge_summary(gate, expected, actual) == words


_SRC = {"doc": "A.pptx", "locator": "slide=3"}


@pytest.mark.parametrize(
    ("expected", "actual", "words"),
    [
        ({"source": _SRC}, {"source": {"doc": "A.pptx", "locator": "slide=4"}, "named_in_answer": ["A.pptx"]},
         ("source A.pptx (slide=3), named in the answer", "source A.pptx (slide=4)")),
        ({"source": _SRC}, {"source": None, "named_in_answer": []},
         ("source A.pptx (slide=3), named in the answer", "no source; A.pptx not named in the answer")),
        ({"source": _SRC}, {"source": _SRC, "named_in_answer": []},
         ("source A.pptx (slide=3), named in the answer", "A.pptx not named in the answer")),
        ({"narrative_doc": "h.md"}, {"sources": ["x.md", "y.md"], "named_in_answer": []},
         ("h.md among the sources, named in the answer", "sources [x.md, y.md]; h.md not named in the answer")),
        ({"narrative_doc": "h.md"}, {"sources": [], "named_in_answer": ["h.md"]},
         ("h.md among the sources, named in the answer", "no sources")),
        ({"source": {"doc": "h.md", "locator": "p=1"}, "narrative_doc": "h.md"},
         {"source": {"doc": "h.md", "locator": "p=1"}, "sources": ["h.md"], "named_in_answer": []},
         ("source h.md (p=1), h.md among the sources, named in the answer", "h.md not named in the answer")),
        ({"source": _SRC}, {"source": _SRC, "named_in_answer": ["A.pptx"]}, None),  # nothing to tell
        ("hand-made", "record", None),
    ],
)  # fmt: skip
def test_citation_failure_in_words(expected: Any, actual: Any, words: Any) -> None:
    assert citation_summary(expected, actual) == words


@pytest.mark.parametrize(
    ("expected", "actual", "words"),
    [
        ({"refuse": True}, {"refused": False, "value": 12.5},
         ("a refusal, no value", "an answer with the value 12.5")),
        ({"refuse": True}, {"refused": False, "value": None}, ("a refusal, no value", "an answer")),
        ({"refuse": True}, {"refused": True, "value": 3},
         ("a refusal, no value", "a refusal with the value 3")),
        ({"refuse": False}, {"refused": True, "value": None},
         ("an answer, not a refusal", "a refusal")),
        ({"refuse": "yes"}, {"refused": True}, None),
        ("hand-made", "record", None),
    ],
)  # fmt: skip
def test_refusal_failure_in_words(expected: Any, actual: Any, words: Any) -> None:
    assert refusal_summary(expected, actual) == words

"""answer_accuracy: the answer recalls enough of the reference's content tokens.

The reference is the case's ``reference_answer`` (narrative and composite cases), else the
text of its ``narrative_doc`` from the run's reference texts (narrative cases only, as
RAGSpine scores them). A narrative case with neither is not applicable: it is left out of
the gate instead of passing against an empty reference.

A reference text may come as several passages (the reference system's documents have
sections): the answer is measured against the passage it recalls best. One passage, the
RAGSpine case, is the whole text.

The judge's ``judge_reference`` measures it: the recall, and the same number and negation
rules as faithfulness for every reference sentence the answer addresses (a wrong number or
a flipped negation fails however many words are shared). Its per-sentence verdicts are the
case's evidence.

The lexical judge's checks are kept per distinct (reference, its origin, judged text)
(``CheckMemo``, owned by the settings: the threshold and the judge): a case that repeats
another's answer to the same reference is measured once.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..golden.models import GoldenCase
from ..outcomes.model import Outcome
from .base import Check, CheckMemo, GateSettings, is_narrative, judged_text
from .judge import LexicalJudge, content_tokens

NAME = "answer_accuracy"


def token_recall(reference: str, answer: str) -> float:
    """Share of the reference's distinct content tokens that the answer contains."""
    wanted = set(content_tokens(reference))
    if not wanted:
        return 1.0
    return len(wanted & set(content_tokens(answer))) / len(wanted)


ReferenceTexts = Mapping[str, tuple[str, ...]]
"""``narrative_doc`` → the document's passages (one passage: its whole text)."""


def reference_for(
    case: GoldenCase, reference_texts: ReferenceTexts
) -> tuple[str, tuple[str, ...]] | None:
    """``(where it came from, passages)`` of the case's reference, or None: not applicable."""
    exp = case.expected
    if is_narrative(case) and exp.reference_answer is not None:
        return "reference_answer", (exp.reference_answer,)
    if case.case_type == "narrative" and exp.narrative_doc is not None:
        doc = exp.narrative_doc
        # ``HK_QBR.pptx`` is found as itself, else by its stem (a file ``HK_QBR.txt``)
        found = reference_texts.get(doc) or reference_texts.get(doc.rsplit(".", 1)[0], ())
        passages = tuple(p for p in found if p.strip())
        if passages:
            return f"reference text of {doc}", passages
    return None


class AnswerAccuracy:
    """The gate, bound to the run's reference texts (none: only ``reference_answer`` counts)."""

    name = NAME

    def __init__(self, reference_texts: ReferenceTexts | None = None) -> None:
        self.reference_texts: ReferenceTexts = reference_texts or {}

    def applies(self, case: GoldenCase) -> bool:
        return reference_for(case, self.reference_texts) is not None

    def check(self, case: GoldenCase, outcome: Outcome, settings: GateSettings) -> Check:
        found = reference_for(case, self.reference_texts)
        assert found is not None
        origin, passages = found
        answer = judged_text(outcome)
        if type(settings.judge) is not LexicalJudge:  # a model's verdicts: asked each time
            return _measure(origin, passages, answer, settings)
        key = (origin, passages, answer)
        check = _MEMO.get(settings, key)
        if check is None:
            check = _measure(origin, passages, answer, settings)
            _MEMO.put(settings, key, check)
        return check


_MEMO = CheckMemo()


def _measure(origin: str, passages: tuple[str, ...], answer: str, settings: GateSettings) -> Check:
    """The check of an answer against a reference's passages (the best recalled)."""
    threshold = settings.answer_accuracy_threshold
    verdict = max(
        (settings.judge.judge_reference(p, answer, threshold) for p in passages),
        key=lambda v: v.score,  # the passage the answer recalls best (first on a tie)
    )
    errors = [f"{v.claim}: {v.reason}" for v in verdict.claims if v.error]
    if errors:  # no verdict on this case: an error of the gate, counted by the judge
        evidence_error = {"claims": [v.to_json() for v in verdict.claims]}
        return Check(False, {"reference": origin}, {"judge_error": errors[0]}, evidence_error)
    actual: dict[str, object] = {"recall": round(verdict.score, 4)}
    problems = [
        f"{v.claim}: {v.reason}" for v in verdict.claims if not v.supported and v.score >= threshold
    ]
    if problems:
        actual["problems"] = problems
    evidence = {
        "score": round(verdict.score, 4),
        "claims": [v.to_json() for v in verdict.claims],
    }
    expected = {"min_recall": threshold, "reference": origin}
    return Check(verdict.passed, expected, actual, evidence)

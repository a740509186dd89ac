"""answer_accuracy: the answer recalls enough of the reference answer's content tokens."""

from __future__ import annotations

from ..golden.models import GoldenCase
from ..outcomes.model import Outcome
from .base import Check, GateSettings, is_narrative
from .judge import content_tokens

NAME = "answer_accuracy"


def token_recall(reference: str, answer: str) -> float:
    """Share of the reference's distinct content tokens that the answer contains."""
    wanted = set(content_tokens(reference))
    if not wanted:
        return 1.0
    return len(wanted & set(content_tokens(answer))) / len(wanted)


class AnswerAccuracy:
    name = NAME

    def applies(self, case: GoldenCase) -> bool:
        return is_narrative(case) and case.expected.reference_answer is not None

    def check(self, case: GoldenCase, outcome: Outcome, settings: GateSettings) -> Check:
        assert case.expected.reference_answer is not None
        recall = token_recall(case.expected.reference_answer, outcome.answer)
        threshold = settings.answer_accuracy_threshold
        return Check(recall >= threshold, {"min_recall": threshold}, {"recall": round(recall, 4)})

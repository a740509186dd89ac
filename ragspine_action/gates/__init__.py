"""The QA gates (SPEC §2), in report order, and the fabrication count beside them."""

from __future__ import annotations

from .answer_accuracy import AnswerAccuracy, reference_for, token_recall
from .base import Check, Gate, GateSettings
from .citation import CitationValidity
from .claims import DEFAULT_META_PATTERNS, Claim, extract_claims
from .clarification import ClarificationAppropriateness
from .fabrication import DEFAULT_PERIOD_PATTERNS, detect_fabricated_numbers
from .faithfulness import Faithfulness
from .judge import (
    JUDGE_KINDS,
    ClaimVerdict,
    Judge,
    LexicalJudge,
    ReferenceVerdict,
    content_tokens,
    make_judge,
    split_claims,
    tokenize,
)
from .numeric import NumericAccuracy
from .refusal import RefusalAppropriateness

__all__ = [
    "DEFAULT_META_PATTERNS",
    "DEFAULT_PERIOD_PATTERNS",
    "GATES",
    "GATE_NAMES",
    "JUDGE_KINDS",
    "Check",
    "Claim",
    "ClaimVerdict",
    "Gate",
    "GateSettings",
    "Judge",
    "LexicalJudge",
    "ReferenceVerdict",
    "content_tokens",
    "detect_fabricated_numbers",
    "extract_claims",
    "gates_for",
    "make_judge",
    "reference_for",
    "split_claims",
    "token_recall",
    "tokenize",
]

GATES: tuple[Gate, ...] = (
    NumericAccuracy(),
    CitationValidity(),
    RefusalAppropriateness(),
    ClarificationAppropriateness(),
    Faithfulness(),
    AnswerAccuracy(),
)
GATE_NAMES: tuple[str, ...] = tuple(g.name for g in GATES)


def gates_for(settings: GateSettings) -> tuple[Gate, ...]:
    """The gates of a run: ``GATES`` with answer_accuracy bound to the run's reference texts."""
    if not settings.reference_texts:
        return GATES
    bound = AnswerAccuracy(settings.reference_texts)
    return tuple(bound if gate.name == bound.name else gate for gate in GATES)

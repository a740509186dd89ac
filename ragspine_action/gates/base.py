"""What every gate shares: a per-case check result and the settings gates read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..golden.models import GoldenCase
from ..outcomes.model import Outcome
from .fabrication import DEFAULT_PERIOD_PATTERNS
from .judge import Judge, LexicalJudge

__all__ = ["Check", "Gate", "GateSettings", "is_narrative"]


@dataclass(frozen=True)
class Check:
    """One gate's verdict on one case, with what was expected and what came back."""

    passed: bool
    expected: Any = None
    actual: Any = None


@dataclass(frozen=True)
class GateSettings:
    """What the gates read besides the case and its outcome.

    ``reference_texts`` maps a ``narrative_doc`` name to the document's passages (one: its
    whole text): the reference answer_accuracy measures a narrative case against when the
    case has no ``reference_answer`` (RAGSpine's ``evaluate(..., reference_texts=...)``).
    """

    judge: Judge = field(default_factory=LexicalJudge)
    answer_accuracy_threshold: float = 0.6
    period_patterns: tuple[str, ...] = DEFAULT_PERIOD_PATTERNS
    reference_texts: Mapping[str, tuple[str, ...]] = field(default_factory=dict, hash=False)


class Gate(Protocol):
    """A gate is a name, an applicability rule and a pure per-case check."""

    name: str

    def applies(self, case: GoldenCase) -> bool: ...

    def check(self, case: GoldenCase, outcome: Outcome, settings: GateSettings) -> Check: ...


def is_narrative(case: GoldenCase) -> bool:
    return case.case_type in ("narrative", "composite")

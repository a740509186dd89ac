"""What every gate shares: a per-case check result and the settings gates read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from ..golden.models import GoldenCase
from ..outcomes.model import Outcome
from .claims import DEFAULT_META_PATTERNS, Claim, extract_claims
from .fabrication import DEFAULT_PERIOD_PATTERNS
from .judge import Judge, LexicalJudge

__all__ = ["Check", "Gate", "GateSettings", "answer_claims", "is_narrative", "judged_text"]


class Check(NamedTuple):
    """One gate's verdict on one case, with what was expected and what came back.

    ``evidence``: what a judge saw (claims, verdicts, matched sentences), for the report.
    A named tuple, not a frozen dataclass: as immutable, and made ~3x faster (a frozen
    dataclass sets each field with ``object.__setattr__``; ~4 checks a case).
    """

    passed: bool
    expected: Any = None
    actual: Any = None
    evidence: Any = None


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
    meta_patterns: tuple[str, ...] = DEFAULT_META_PATTERNS
    reference_texts: Mapping[str, tuple[str, ...]] = field(default_factory=dict, hash=False)


class Gate(Protocol):
    """A gate is a name, an applicability rule and a pure per-case check."""

    name: str

    def applies(self, case: GoldenCase) -> bool: ...

    def check(self, case: GoldenCase, outcome: Outcome, settings: GateSettings) -> Check: ...


def is_narrative(case: GoldenCase) -> bool:
    return case.case_type in ("narrative", "composite")


def judged_text(outcome: Outcome) -> str:
    """The text the groundedness gates judge: RAGSpine's ``narrative_answer`` when the
    outcome has one, else ``answer``."""
    return outcome.narrative_answer if outcome.narrative_answer else outcome.answer


def answer_claims(case: GoldenCase, outcome: Outcome, settings: GateSettings) -> list[Claim]:
    """The claims of the outcome's judged text, as every judge sees them."""
    cited = [s.doc for s in outcome.sources]
    if outcome.source is not None:
        cited.append(outcome.source.doc)
    return extract_claims(
        judged_text(outcome),
        sources=cited,
        question=case.question,
        value=outcome.value,
        unit=outcome.unit,
        meta_patterns=settings.meta_patterns,
        period_patterns=settings.period_patterns,
        contexts=outcome.contexts,
    )

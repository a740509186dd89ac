"""What every gate shares: a per-case check result and the settings gates read."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple, Protocol

from ..golden.models import GoldenCase
from ..outcomes.model import Outcome
from .claims import DEFAULT_META_PATTERNS, Claim, extract_claims
from .fabrication import DEFAULT_PERIOD_PATTERNS
from .judge import Judge, LexicalJudge

__all__ = [
    "Check",
    "CheckMemo",
    "Gate",
    "GateSettings",
    "answer_claims",
    "cited_docs",
    "is_narrative",
    "judged_text",
    "know_docs",
]


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


# The ranked doc ids of the outcome being scored, as its reader read them (``know_docs``):
# the sources are shared instances spread over memory, reading each back costs more.
_LAST_DOCS: tuple[object, Sequence[str]] = (None, ())


def know_docs(outcome: Outcome, docs: Sequence[str]) -> None:
    """``[s.doc for s in outcome.sources]``, known to the caller: ``cited_docs`` uses it for
    this outcome (found by identity; the outcome is held, so its identity stays its own)."""
    global _LAST_DOCS
    _LAST_DOCS = (outcome, docs)


def cited_docs(outcome: Outcome) -> list[str]:
    """The doc names the outcome cites: each source's, then its structured value's."""
    last = _LAST_DOCS  # one read: another thread may replace it (never change it)
    cited = list(last[1]) if last[0] is outcome else [s.doc for s in outcome.sources]
    if outcome.source is not None:
        cited.append(outcome.source.doc)
    return cited


_MEMO_MAX: Final = 10_000
_MEMO_SMALL: Final = 500


class CheckMemo:
    """A gate's checks per distinct input, so a case that repeats another's input (the
    same answer to the same question over the same contexts) is judged once.

    The key is the gate's to make: every input its check reads (the settings are the
    owner: another settings object starts afresh). Bounded, and sized by use as the
    judges' caches: while fewer than one look-up in 20 hits, a full memo holds
    ``_MEMO_SMALL`` entries (a set whose cases never repeat keeps no large table), the full
    size once hits come. A hit returns the same ``Check`` (its parts are never changed).
    """

    def __init__(self) -> None:
        self._state: tuple[object, dict[Hashable, Check]] = (None, {})
        self._limit = _MEMO_MAX
        self._hits = 0

    def get(self, owner: object, key: Hashable) -> Check | None:
        owned, checks = self._state  # one read: another thread may replace it
        if owned is not owner:
            return None
        found = checks.get(key)
        if found is not None:
            self._hits += 1
            if self._limit != _MEMO_MAX and self._hits * 20 >= _MEMO_SMALL:
                self._limit = _MEMO_MAX  # inputs repeat: the full size
        return found

    def put(self, owner: object, key: Hashable, check: Check) -> None:
        owned, checks = self._state
        if owned is not owner or len(checks) >= self._limit:
            if owned is owner:  # full: sized by use
                self._limit = _MEMO_MAX if self._hits * 20 >= len(checks) else _MEMO_SMALL
            self._hits = 0
            checks = {}
            self._state = (owner, checks)
        checks[key] = check


def answer_claims(
    case: GoldenCase, outcome: Outcome, settings: GateSettings, cited: list[str] | None = None
) -> list[Claim]:
    """The claims of the outcome's judged text, as every judge sees them (``cited``: its
    ``cited_docs`` when the caller has them)."""
    if cited is None:
        cited = cited_docs(outcome)
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

"""The system-under-test interface: golden cases in, exactly one outcome per case out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..contract import KeyCensus
from ..golden.models import GoldenCase
from ..outcomes.model import Outcome, error_outcome

__all__ = ["MISSING_OUTCOME", "Collection", "PerCaseSystem", "System", "complete_collection"]

MISSING_OUTCOME = "no outcome for this case"


@dataclass
class Collection:
    """Outcomes keyed by case id, in golden order; never missing a case."""

    outcomes: dict[str, Outcome]
    unknown_ids: list[str] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    # The keys the system's raw records carried (http responses), for the contract check.
    census: KeyCensus | None = None


class System(Protocol):
    """Anything that can answer golden cases. ``name`` goes into the report."""

    name: str

    def collect(self, cases: Sequence[GoldenCase]) -> Collection: ...


def complete_collection(
    cases: Sequence[GoldenCase],
    produced: Mapping[str, Outcome],
    stats: dict[str, Any] | None = None,
) -> Collection:
    """Align produced outcomes to the cases: a missing one becomes an error outcome."""
    outcomes: dict[str, Outcome] = {}
    for case in cases:
        got = produced.get(case.id)
        outcomes[case.id] = got if got is not None else error_outcome(case.id, MISSING_OUTCOME)
    known = set(outcomes)
    unknown = [oid for oid in produced if oid not in known]
    return Collection(outcomes, unknown, stats or {})


class PerCaseSystem:
    """Base for in-process systems: subclasses answer one case at a time.

    An exception while answering one case becomes that case's error outcome, so one bad
    case never hides the others.
    """

    name = "per-case"

    def answer(self, case: GoldenCase) -> Outcome:
        raise NotImplementedError

    def collect(self, cases: Sequence[GoldenCase]) -> Collection:
        produced: dict[str, Outcome] = {}
        for case in cases:
            try:
                produced[case.id] = self.answer(case)
            except Exception as exc:
                produced[case.id] = error_outcome(case.id, f"{type(exc).__name__}: {exc}")
        return complete_collection(cases, produced)

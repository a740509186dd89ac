"""clarification_appropriateness: ask back only when the question really is incomplete."""

from __future__ import annotations

from ..golden.models import GoldenCase
from ..outcomes.model import Outcome
from .base import Check, GateSettings

NAME = "clarification_appropriateness"


class ClarificationAppropriateness:
    name = NAME

    def applies(self, case: GoldenCase) -> bool:
        return True

    def check(self, case: GoldenCase, outcome: Outcome, settings: GateSettings) -> Check:
        ok = outcome.clarification == case.expected.clarification
        return Check(ok, case.expected.clarification, outcome.clarification)

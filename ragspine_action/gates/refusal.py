"""refusal_appropriateness: refuse exactly when the golden set says so, in both directions."""

from __future__ import annotations

from ..golden.models import GoldenCase
from ..outcomes.model import Outcome
from .base import Check, GateSettings

NAME = "refusal_appropriateness"


class RefusalAppropriateness:
    name = NAME

    def applies(self, case: GoldenCase) -> bool:
        return True

    def check(self, case: GoldenCase, outcome: Outcome, settings: GateSettings) -> Check:
        if case.expected.refuse:
            ok = outcome.refused and outcome.value is None
        else:
            ok = not outcome.refused
        actual = {"refused": outcome.refused, "value": outcome.value}
        return Check(ok, {"refuse": case.expected.refuse}, actual)

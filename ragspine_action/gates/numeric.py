"""numeric_accuracy: the right number in the right unit (a magnitude or unit slip fails)."""

from __future__ import annotations

import math

from ..golden.models import GoldenCase
from ..outcomes.model import Outcome
from .base import Check, GateSettings

NAME = "numeric_accuracy"


class NumericAccuracy:
    name = NAME

    def applies(self, case: GoldenCase) -> bool:
        return case.expected.value is not None

    def check(self, case: GoldenCase, outcome: Outcome, settings: GateSettings) -> Check:
        exp = case.expected
        assert exp.value is not None
        expected = {"value": exp.value, "unit": exp.unit}
        actual = {"value": outcome.value, "unit": outcome.unit}
        ok = (
            outcome.value is not None
            and math.isclose(outcome.value, exp.value, rel_tol=1e-9, abs_tol=1e-12)
            and outcome.unit == exp.unit
        )
        return Check(ok, expected, actual)

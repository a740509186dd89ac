"""faithfulness: every claim of a narrative answer is entailed by the retrieved contexts."""

from __future__ import annotations

from ..golden.models import GoldenCase
from ..outcomes.model import Outcome
from .base import Check, GateSettings, is_narrative
from .judge import split_claims

NAME = "faithfulness"


class Faithfulness:
    name = NAME

    def applies(self, case: GoldenCase) -> bool:
        return is_narrative(case)

    def check(self, case: GoldenCase, outcome: Outcome, settings: GateSettings) -> Check:
        cited = [s.doc for s in outcome.sources]
        if outcome.source is not None:
            cited.append(outcome.source.doc)
        claims = split_claims(outcome.answer, cited)
        expected = f"every claim entailed by the contexts ({settings.judge.name} judge)"
        if not claims:
            return Check(False, expected, {"unsupported": [], "reason": "answer has no claims"})
        unsupported = settings.judge.unsupported(claims, outcome.contexts)
        return Check(not unsupported, expected, {"claims": len(claims), "unsupported": unsupported})

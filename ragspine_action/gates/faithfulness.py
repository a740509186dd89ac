"""faithfulness: every claim of a narrative answer is entailed by the retrieved contexts.

Claims come from ``claims.extract_claims`` (citations, doc names, meta lines and echoed
questions are no claims; the clause stating a composite's structured value is exempt);
the configured judge decides each one, and its verdicts are the case's evidence.
"""

from __future__ import annotations

from typing import Any

from ..golden.models import GoldenCase
from ..outcomes.model import Outcome
from .base import Check, GateSettings, answer_claims, is_narrative

NAME = "faithfulness"
EXEMPT_REASON = "states the structured value (numeric_accuracy and citation_validity judge it)"


class Faithfulness:
    name = NAME

    def applies(self, case: GoldenCase) -> bool:
        return is_narrative(case)

    def check(self, case: GoldenCase, outcome: Outcome, settings: GateSettings) -> Check:
        claims = answer_claims(case, outcome, settings)
        expected = f"every claim entailed by the contexts ({settings.judge.name} judge)"
        if not claims:
            return Check(
                False,
                expected,
                {"unsupported": [], "reason": "answer has no claims"},
                {"claims": []},
            )
        judged = [c.text for c in claims if not c.exempt]
        verdicts = iter(settings.judge.judge_claims(judged, outcome.contexts) if judged else [])
        evidence: list[dict[str, Any]] = []
        unsupported: list[str] = []
        errors: list[str] = []
        for claim in claims:
            if claim.exempt:
                evidence.append({"claim": claim.text, "verdict": "exempt", "reason": EXEMPT_REASON})
                continue
            verdict = next(verdicts)
            evidence.append(verdict.to_json())
            if verdict.error:
                errors.append(f"{verdict.claim}: {verdict.reason}")
            elif not verdict.supported:
                unsupported.append(verdict.claim)
        if errors:  # no verdict on this case: an error of the gate, counted by the judge
            return Check(False, expected, {"judge_error": errors[0]}, {"claims": evidence})
        return Check(
            not unsupported,
            expected,
            {"claims": len(judged), "unsupported": unsupported},
            {"claims": evidence},
        )

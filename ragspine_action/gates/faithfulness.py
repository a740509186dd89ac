"""faithfulness: every claim of a narrative answer is entailed by the retrieved contexts.

Claims come from ``claims.extract_claims`` (citations, doc names, meta lines and echoed
questions are no claims; the clause stating a composite's structured value is exempt);
the configured judge decides each one, and its verdicts are the case's evidence.

The lexical judge's checks are kept per distinct input (``CheckMemo``): the key is every
input the check reads (the question, the judged text, the cited docs, the structured
value and unit, the contexts; the settings own the memo). A rule that reads another input
of the case or the outcome adds it to ``_key``.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ..golden.models import GoldenCase
from ..outcomes.model import Outcome
from .base import (
    Check,
    CheckMemo,
    GateSettings,
    answer_claims,
    cited_docs,
    is_narrative,
    judged_text,
)
from .judge import LexicalJudge
from .measures import measure_problem

NAME = "faithfulness"
EXEMPT_REASON = "states the structured value (numeric_accuracy and citation_validity judge it)"


class Faithfulness:
    name = NAME

    def applies(self, case: GoldenCase) -> bool:
        return is_narrative(case)

    def check(self, case: GoldenCase, outcome: Outcome, settings: GateSettings) -> Check:
        cited = cited_docs(outcome)
        if type(settings.judge) is not LexicalJudge:  # a model's verdicts: asked each time
            return self._check(case, outcome, settings, cited)
        key = _key(case, outcome, cited)
        found = _MEMO.get(settings, key)
        if found is None:
            found = self._check(case, outcome, settings, cited)
            _MEMO.put(settings, key, found)
        return found

    def _check(
        self, case: GoldenCase, outcome: Outcome, settings: GateSettings, cited: list[str]
    ) -> Check:
        claims = answer_claims(case, outcome, settings, cited)
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
                # numeric_accuracy judges the value, not the unit written with it: a
                # "5元/MB" where the contexts say "5元/GB" is still the text's claim.
                unit = measure_problem(claim.text, outcome.contexts, "the contexts")
                if unit is not None:
                    evidence.append({"claim": claim.text, "verdict": "unsupported", "reason": unit})
                    unsupported.append(claim.text)
                    continue
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


_MEMO = CheckMemo()


def _key(case: GoldenCase, outcome: Outcome, cited: list[str]) -> Hashable:
    """Every input of a check besides the settings: equal keys, equal checks."""
    value = outcome.value
    return (
        case.question,
        judged_text(outcome),
        tuple(cited),
        None if value is None else repr(value),  # -0.0 is not 0.0 here
        outcome.unit,
        tuple(outcome.contexts),
    )

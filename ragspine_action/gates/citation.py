"""citation_validity: the answer cites the exact source it should, by name, in its text."""

from __future__ import annotations

from ..golden.models import GoldenCase
from ..outcomes.model import Outcome
from .base import Check, GateSettings

NAME = "citation_validity"


class CitationValidity:
    name = NAME

    def applies(self, case: GoldenCase) -> bool:
        return case.expected.source is not None or case.expected.narrative_doc is not None

    def check(
        self,
        case: GoldenCase,
        outcome: Outcome,
        settings: GateSettings,
        ranked: list[str] | None = None,
    ) -> Check:
        """``ranked``: ``outcome.ranked_docs()`` when the caller has it already (the
        scorer reads the doc ids while it walks the outcome line)."""
        exp = case.expected
        expected: dict[str, object] = {}
        actual: dict[str, object] = {}
        ok = True
        if exp.source is not None:
            doc, locator = exp.source.doc, exp.source.locator
            expected["source"] = {"doc": doc, "locator": locator}
            got = outcome.source
            actual["source"] = {"doc": got.doc, "locator": got.locator} if got else None
            # SourceRef equality (two fields), without pydantic's generic __eq__
            same = got is not None and got.doc == doc and got.locator == locator
            ok &= same and doc in outcome.answer
        if exp.narrative_doc is not None:
            docs = outcome.ranked_docs() if ranked is None else ranked
            expected["narrative_doc"] = exp.narrative_doc
            actual["sources"] = docs
            ok &= exp.narrative_doc in docs and exp.narrative_doc in outcome.answer
        if exp.source is not None or exp.narrative_doc is not None:
            cited = [d for d in (exp.source.doc if exp.source else None, exp.narrative_doc) if d]
            actual["named_in_answer"] = [d for d in cited if d in outcome.answer]
        return Check(bool(ok), expected, actual)

"""The golden set's data model (SPEC §4): one frozen, validated case per JSONL line."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints

__all__ = [
    "CASE_TYPES",
    "CLARIFICATION_MODES",
    "CaseType",
    "ClarificationMode",
    "Expected",
    "GoldenCase",
    "SourceRef",
    "case_rule_violations",
    "tag_text",
]

CaseType = Literal["numeric", "clarification", "refusal", "narrative", "composite", "retrieval"]
# RAGSpine's clarification gateway has four modes: ``out_of_scope_entity`` is its refusal of
# a question about another company (a competitor), reported as a clarification mode.
ClarificationMode = Literal["none", "ask_first", "answer_with_assumptions", "out_of_scope_entity"]
CASE_TYPES: tuple[str, ...] = get_args(CaseType)
CLARIFICATION_MODES: tuple[str, ...] = get_args(ClarificationMode)

NonEmptyStr = Annotated[str, StringConstraints(min_length=1, strip_whitespace=False)]


class _Strict(BaseModel):
    """Known fields are type-checked strictly; unknown ones are ignored, as RAGSpine does
    (a note or a score beside the fields we read is not a mistake)."""

    model_config = ConfigDict(
        strict=True, extra="ignore", frozen=True, allow_inf_nan=False, str_min_length=0
    )


class SourceRef(_Strict):
    """A citation target: a document and a locator inside it (slide, table, row, col…).

    ``doc`` may be empty in an outcome (a retriever's passage without a doc id, as RAGSpine
    records it); a golden set's expected source must name its doc (``case_rule_violations``).
    """

    doc: str
    locator: str = ""

    def label(self) -> str:
        return f"{self.doc} · {self.locator}" if self.locator else self.doc


class Expected(_Strict):
    clarification: ClarificationMode = "none"
    refuse: bool = False
    value: float | None = None
    unit: NonEmptyStr | None = None
    source: SourceRef | None = None
    narrative_doc: NonEmptyStr | None = None
    # Grades beyond a C int (trec_eval's own type) are mistakes, and 2**grade would overflow.
    relevant_docs: (
        list[NonEmptyStr] | dict[NonEmptyStr, Annotated[int, Field(ge=1, le=2**31 - 1)]] | None
    ) = None
    reference_answer: NonEmptyStr | None = None


def tag_text(value: Any) -> str:
    """A tag value as a by-tag bucket name: Python's ``str``, exactly as RAGSpine buckets it
    (``2025`` → ``"2025"``, ``true`` → ``"True"``, ``null`` → ``"None"``)."""
    return value if isinstance(value, str) else str(value)


def _tags_as_text(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: tag_text(item) for key, item in value.items()}
    return value


class GoldenCase(_Strict):
    id: NonEmptyStr
    question: NonEmptyStr
    case_type: CaseType
    expected: Expected = Expected()
    tags: Annotated[dict[str, str], BeforeValidator(_tags_as_text)] = {}
    reference_date: Annotated[date | None, Field(strict=False)] = None

    def relevance(self) -> dict[str, int]:
        """Graded relevance of each relevant doc; defaults to the cited docs (SPEC §4)."""
        rel = self.expected.relevant_docs
        if isinstance(rel, dict):
            return dict(rel)
        if isinstance(rel, list):
            return dict.fromkeys(rel, 1)
        derived: dict[str, int] = {}
        if self.expected.source is not None:
            derived[self.expected.source.doc] = 1
        if self.expected.narrative_doc is not None:
            derived.setdefault(self.expected.narrative_doc, 1)
        return derived


def case_rule_violations(case: GoldenCase) -> list[tuple[str, str]]:
    """Cross-field rules of SPEC §4 that a type alone cannot express: (field, message)."""
    exp = case.expected
    found: list[tuple[str, str]] = []
    if not case.question.strip():
        found.append(("question", "must not be blank"))
    if case.case_type == "refusal" and not exp.refuse:
        found.append(("expected.refuse", "must be true for a refusal case"))
    if exp.source is not None and not exp.source.doc:
        found.append(("expected.source.doc", "must name the document (a non-empty string)"))
    if exp.clarification == "out_of_scope_entity" and not exp.refuse:
        found.append(
            (
                "expected.refuse",
                "must be true when expected.clarification is out_of_scope_entity "
                "(an out-of-scope question is refused)",
            )
        )
    if case.case_type in ("numeric", "composite"):
        for name in ("value", "unit", "source"):
            if getattr(exp, name) is None:
                found.append((f"expected.{name}", f"is required for a {case.case_type} case"))
    elif exp.value is not None:
        for name in ("unit", "source"):
            if getattr(exp, name) is None:
                found.append((f"expected.{name}", "is required when expected.value is given"))
    if case.case_type in ("narrative", "composite") and exp.narrative_doc is None:
        found.append(("expected.narrative_doc", f"is required for a {case.case_type} case"))
    if case.case_type == "retrieval" and not exp.relevant_docs:
        found.append(("expected.relevant_docs", "is required (non-empty) for a retrieval case"))
    if exp.refuse and exp.value is not None:
        found.append(("expected.value", "a case expected to be refused cannot expect a value"))
    return found

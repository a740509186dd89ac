"""What a system under test answered for one case (SPEC §5)."""

from __future__ import annotations

from typing import Annotated, Any, Final

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from ..golden.models import ClarificationMode, SourceRef

__all__ = ["KNOWN_FIELDS", "RAGSPINE_FIELD_NAMES", "Outcome", "error_outcome"]

# RAGSpine's ``CaseOutcome`` spells five fields differently; a file of its outcomes (one
# ``dataclasses.asdict`` per line) loads as it is. Its diagnostic fields (``route``,
# ``tool_statuses``) are ignored like any other unknown field.
RAGSPINE_FIELD_NAMES: Final[dict[str, str]] = {
    "case_id": "id",
    "clarification_mode": "clarification",
    "found_value": "value",
    "found_unit": "unit",
    "found_source": "source",
    "retrieved_context": "contexts",
}


# RAGSpine's CaseOutcome fields that carry nothing a gate reads (diagnostics).
_RAGSPINE_DIAGNOSTICS: Final = ("route", "tool_statuses")


def _source_from_str(value: Any) -> Any:
    # A bare retriever often returns doc ids only: accept "doc" as {"doc": "doc"}.
    return {"doc": value} if isinstance(value, str) else value


def _error_to_str(value: Any) -> Any:
    if isinstance(value, dict):
        parts = [f"{k}={v}" for k, v in value.items()]
        return "; ".join(parts) if parts else "error"
    return value


def _empty_as_none(value: Any) -> Any:
    # RAGSpine records "" when a case has no narrative part: nothing was said, not "".
    return None if value == "" else value


LooseSource = Annotated[SourceRef, BeforeValidator(_source_from_str)]


class Outcome(BaseModel):
    """One case's outcome. Unknown extra fields are ignored: pipelines log more than we read.

    RAGSpine's ``CaseOutcome`` names (``case_id``, ``clarification_mode``, ``found_value``,
    ``found_unit``, ``found_source``, ``retrieved_context``) are read as their SPEC names.
    ``refused`` defaults to true when the clarification mode is ``out_of_scope_entity``:
    RAGSpine's runners always refuse an out-of-scope question.
    """

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True, allow_inf_nan=False)

    id: Annotated[str, Field(min_length=1)]
    answer: str = ""
    clarification: ClarificationMode = "none"
    refused: bool = False
    value: float | None = None
    unit: str | None = None
    source: LooseSource | None = None
    sources: list[LooseSource] = []
    contexts: list[str] = []
    narrative_answer: Annotated[str | None, BeforeValidator(_empty_as_none)] = None
    error: Annotated[str | None, BeforeValidator(_error_to_str)] = None
    latency_ms: Annotated[float, Field(ge=0)] | None = None
    # ``--repeats``: which run of the case this outcome is (an outcomes file may hold
    # several outcomes per id, one per repeat index).
    repeat: Annotated[int, Field(ge=0)] | None = None

    @model_validator(mode="before")
    @classmethod
    def _ragspine_names(cls, data: Any) -> Any:
        if not isinstance(data, dict) or not any(k in data for k in RAGSPINE_FIELD_NAMES):
            return _refused_when_out_of_scope(data)
        renamed = dict(data)
        for theirs, ours in RAGSPINE_FIELD_NAMES.items():
            if theirs not in renamed:
                continue
            value = renamed.pop(theirs)
            if ours in renamed and renamed[ours] != value:
                raise ValueError(
                    f"both {ours!r} and RAGSpine's {theirs!r} are given, with different "
                    "values: keep one"
                )
            renamed[ours] = value
        return _refused_when_out_of_scope(renamed)

    def ranked_docs(self) -> list[str]:
        """Retrieved doc ids in rank order, deduplicated (first occurrence keeps its rank)."""
        return list(dict.fromkeys([s.doc for s in self.sources]))


KNOWN_FIELDS: Final[frozenset[str]] = frozenset(
    (*Outcome.model_fields, *RAGSPINE_FIELD_NAMES, *_RAGSPINE_DIAGNOSTICS)
)
"""Every key an outcome may carry that is part of a contract (SPEC §5 or RAGSpine's
``CaseOutcome``): what a check for "this file does not speak the contract" counts as known."""


def _refused_when_out_of_scope(data: Any) -> Any:
    if (
        isinstance(data, dict)
        and "refused" not in data
        and data.get("clarification") == "out_of_scope_entity"
    ):
        return {**data, "refused": True}
    return data


def error_outcome(case_id: str, message: str) -> Outcome:
    """The outcome recorded when a system produced nothing usable for a case."""
    return Outcome(id=case_id, error=message)

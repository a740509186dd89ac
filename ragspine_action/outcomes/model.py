"""What a system under test answered for one case (SPEC §5)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from ..golden.models import ClarificationMode, SourceRef

__all__ = ["Outcome", "error_outcome"]


def _source_from_str(value: Any) -> Any:
    # A bare retriever often returns doc ids only: accept "doc" as {"doc": "doc"}.
    return {"doc": value} if isinstance(value, str) else value


def _error_to_str(value: Any) -> Any:
    if isinstance(value, dict):
        parts = [f"{k}={v}" for k, v in value.items()]
        return "; ".join(parts) if parts else "error"
    return value


LooseSource = Annotated[SourceRef, BeforeValidator(_source_from_str)]


class Outcome(BaseModel):
    """One case's outcome. Unknown extra fields are ignored: pipelines log more than we read."""

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
    error: Annotated[str | None, BeforeValidator(_error_to_str)] = None
    latency_ms: Annotated[float, Field(ge=0)] | None = None

    def ranked_docs(self) -> list[str]:
        """Retrieved doc ids in rank order, deduplicated (first occurrence keeps its rank)."""
        return list(dict.fromkeys(s.doc for s in self.sources))


def error_outcome(case_id: str, message: str) -> Outcome:
    """The outcome recorded when a system produced nothing usable for a case."""
    return Outcome(id=case_id, error=message)

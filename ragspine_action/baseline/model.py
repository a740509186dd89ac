"""The version-controlled baseline file (SPEC §6).

Top-level keys are baseline keys (a QA mode such as ``tool``/``agent``, or ``extraction``);
any other top-level key starts with ``_`` (``_schema_version``, ``_history``). RAGSpine's
``qa_baseline.json`` (key → ``{metrics, fabrication_count, n_cases}``) loads unchanged.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["BASELINE_SCHEMA_VERSION", "BaselineEntry", "BaselineFile", "HistoryRecord"]

BASELINE_SCHEMA_VERSION = 2

Rate = Annotated[float, Field(ge=0)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class BaselineEntry(_Model):
    """What one key's run achieved, plus the per-case facts protected cases are judged by.

    ``passed`` holds, per gate (and ``hit@<protected k>``), the ids that passed; ``ranks``
    the rank of the first relevant doc per retrieval case; ``case_values`` per-case values
    of the other non-binary metrics, so that changes can be tested pairwise.
    """

    metrics: dict[str, Rate]
    fabrication_count: Annotated[int, Field(ge=0)] = 0
    n_cases: Annotated[int, Field(ge=0)]
    fingerprint: str | None = None
    passed: dict[str, list[str]] = {}
    ranks: dict[str, int | None] = {}
    case_values: dict[str, dict[str, float]] = {}
    recorded_at: str | None = None
    tool_version: str | None = None


class HistoryRecord(_Model):
    """A deliberate lowering (or re-recording): who asked, why, and what moved."""

    at: str
    key: str
    reason: str
    changes: list[dict[str, Any]] = []


class BaselineFile(_Model):
    entries: dict[str, BaselineEntry] = {}
    schema_version: int = BASELINE_SCHEMA_VERSION
    history: list[HistoryRecord] = []
    extra_meta: dict[str, Any] = {}

    def to_json_obj(self) -> dict[str, Any]:
        out: dict[str, Any] = {"_schema_version": self.schema_version}
        out.update(self.extra_meta)
        for key, entry in self.entries.items():
            out[key] = entry.model_dump(exclude_unset=True)
        if self.history:
            out["_history"] = [h.model_dump() for h in self.history]
        return out

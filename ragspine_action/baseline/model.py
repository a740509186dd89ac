"""The version-controlled baseline file (SPEC §6).

Top-level keys are baseline keys (a QA mode such as ``tool``/``agent``, or ``extraction``);
any other top-level key starts with ``_`` (``_schema_version``, ``_history``). RAGSpine's
``qa_baseline.json`` (key → ``{metrics, fabrication_count, n_cases}``) loads unchanged.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .digests import column_width

__all__ = ["BASELINE_SCHEMA_VERSION", "BaselineEntry", "BaselineFile", "HistoryRecord"]

BASELINE_SCHEMA_VERSION = 4

Rate = Annotated[float, Field(ge=0)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class BaselineEntry(_Model):
    """What one key's run achieved, plus the per-case facts protected cases are judged by.

    Per-case facts are aligned to ``ids`` (sorted): ``passed`` holds, per gate (and
    ``hit@<protected k>``), one character per id — ``1`` passed, ``0`` failed, ``-`` not
    applicable; ``ranks`` the rank of the first relevant doc (null: none ranked or not a
    retrieval case); ``case_values`` the other non-binary metrics per case (null: not
    scored), so that changes can be tested pairwise. A million cases stay a few compact
    arrays. Entries written before schema 3 (``passed`` as id lists, ``ranks`` and
    ``case_values`` keyed by id) are read and converted.

    Schema 4 adds ``digests`` (per-case digest columns, see ``baseline.digests``: which
    cases were added, removed or changed since the entry was recorded) and ``fabricated``
    (the ids whose refusal answer fabricated numbers, so the count can be compared on the
    cases two golden sets share). Entries without them behave as before: any change of
    the golden set is stale.
    """

    metrics: dict[str, Rate]
    fabrication_count: Annotated[int, Field(ge=0)] = 0
    n_cases: Annotated[int, Field(ge=0)]
    fingerprint: str | None = None
    ids: list[str] = []
    passed: dict[str, Annotated[str, Field(pattern=r"^[01-]*$")]] = {}
    ranks: list[Annotated[int, Field(ge=1)] | None] = []
    case_values: dict[str, list[float | None]] = {}
    digests: dict[str, Annotated[str, Field(pattern=r"^[0-9a-f]*$")]] = {}
    fabricated: list[str] | None = None
    # The judge of the groundedness values: {"kind": "llm", "model": …, "prompt_version": …}
    # (absent: recorded with the lexical judge, the only one before).
    judge: dict[str, str] | None = None
    recorded_at: str | None = None
    tool_version: str | None = None

    def passed_ids(self, metric: str) -> list[str]:
        """The ids that passed ``metric`` when this entry was recorded."""
        return [i for i, c in zip(self.ids, self.passed.get(metric, ""), strict=False) if c == "1"]

    @model_validator(mode="before")
    @classmethod
    def _from_id_keyed(cls, data: Any) -> Any:
        """Schema 2 kept per-case facts keyed by id; align them to sorted ids."""
        if not isinstance(data, dict) or "ids" in data:
            return data
        passed, ranks, values = data.get("passed"), data.get("ranks"), data.get("case_values")
        if not _id_keyed(passed, ranks, values):
            return data
        passed, ranks, values = passed or {}, ranks or {}, values or {}
        names: set[str] = set(ranks)
        for group in passed.values():
            names.update(group)
        for per_case in values.values():
            names.update(per_case)
        ids = sorted(names)
        converted = dict(data)
        converted["ids"] = ids
        converted["passed"] = {
            metric: "".join("1" if i in chosen else "0" for i in ids)
            for metric, chosen in ((m, set(g)) for m, g in passed.items())
        }
        converted["ranks"] = [ranks.get(i) for i in ids] if ranks else []
        converted["case_values"] = {m: [v.get(i) for i in ids] for m, v in values.items()}
        return converted

    @model_validator(mode="after")
    def _aligned(self) -> BaselineEntry:
        n = len(self.ids)
        if len(set(self.ids)) != n:
            raise ValueError("ids: every case id may appear once")
        for name, column in (
            *((f"passed.{m}", v) for m, v in self.passed.items()),
            *((f"case_values.{m}", v) for m, v in self.case_values.items()),
            *((("ranks", self.ranks),) if self.ranks else ()),
        ):
            if len(column) != n:
                raise ValueError(f"{name}: has {len(column)} entries for {n} ids")
        for name, text in self.digests.items():
            width = column_width(name)
            if len(text) != width * n:
                raise ValueError(
                    f"digests.{name}: has {len(text)} hex digits, expected {width} per id ({n} ids)"
                )
        return self


def _id_keyed(passed: Any, ranks: Any, values: Any) -> bool:
    """Whether the per-case fields are schema 2's well-formed id-keyed shapes."""
    if passed is not None and not (
        isinstance(passed, dict)
        and all(isinstance(g, list) and all(isinstance(i, str) for i in g) for g in passed.values())
    ):
        return False
    if ranks is not None and not isinstance(ranks, dict):
        return False
    if values is not None and not (
        isinstance(values, dict) and all(isinstance(v, dict) for v in values.values())
    ):
        return False
    # Schema 3 keeps ranks as a list; a dict (even empty) is schema 2's shape.
    return isinstance(ranks, dict) or any(x for x in (passed, values))


class HistoryRecord(_Model):
    """A deliberate lowering (or re-recording): who asked, why, and what moved."""

    at: str
    key: str
    reason: str
    changes: list[dict[str, Any]] = []
    added: list[str] = []
    removed: list[str] = []
    changed: list[str] = []


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
            out["_history"] = [
                h.model_dump(
                    exclude={n for n in ("added", "removed", "changed") if not getattr(h, n)}
                )
                for h in self.history
            ]
        return out

"""Per-case digests: which golden cases a baseline entry was recorded for, and what changed.

The fingerprint (SPEC §6) stays the identity of the whole set. Per case the entry keeps, in
id order, a few fixed-width hex columns (one long string each, like the pass strings):

* ``case`` — 16 hex digits of SHA-256 over everything that decides the case's result (all
  fields but ``id`` and ``tags``). A case whose ``case`` digest changed is *incomparable*:
  its recorded result answered another question or was scored against another expectation.
* one column per field (``question``, ``expected.value``, ``expected.source``, …), 8 hex
  digits each, only to say *what* changed. ``tags`` only feed the by-tag breakdowns, so a
  case whose tags alone changed is still compared.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import orjson

from ..golden.load import case_digest, fingerprint_digests
from ..golden.models import GoldenCase

__all__ = [
    "CASE_COLUMN",
    "DIGEST_FIELDS",
    "CaseDigests",
    "column_width",
    "digest_cases",
    "digest_column",
    "digest_dumps",
    "dump_digests",
    "row_digests",
]

CASE_COLUMN = "case"
DIGEST_FIELDS: tuple[str, ...] = (
    "question",
    "case_type",
    "reference_date",
    "expected.clarification",
    "expected.refuse",
    "expected.value",
    "expected.unit",
    "expected.source",
    "expected.narrative_doc",
    "expected.relevant_docs",
    "expected.reference_answer",
    "tags",
)
_CASE_WIDTH = 16
_FIELD_WIDTH = 8
# Fields that never make a recorded result incomparable.
METADATA_FIELDS = frozenset({"tags"})


def column_width(name: str) -> int:
    """Hex digits per case of a digest column."""
    return _CASE_WIDTH if name == CASE_COLUMN else _FIELD_WIDTH


def digest_column(text: str, name: str) -> npt.NDArray[np.bytes_]:
    """A digest column as one fixed-width byte string per case (compared as arrays)."""
    return np.frombuffer(text.encode("ascii"), dtype=f"S{column_width(name)}")


def _encode(value: Any) -> bytes:
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # an integer beyond 64 bits: json has no limit
        return json.dumps(value, sort_keys=True, ensure_ascii=False).encode("utf-8")


def _hex(data: bytes, width: int) -> str:
    return hashlib.sha256(data).hexdigest()[:width]


def row_digests(case: GoldenCase) -> dict[str, str]:
    """The digest of each column for one case.

    Fields left at their defaults are left out, so a field that a later version adds
    (with a default) changes no recorded case, and ``"refuse": false`` written out equals
    leaving it out.
    """
    return dump_digests(case.model_dump(mode="json", exclude_defaults=True))


def dump_digests(data: Mapping[str, Any]) -> dict[str, str]:
    """The digest of each column from a case's ``model_dump(mode="json", exclude_defaults=True)``."""
    scored = {k: v for k, v in data.items() if k not in ("id", *METADATA_FIELDS)}
    out = {CASE_COLUMN: _hex(_encode(scored), _CASE_WIDTH)}
    expected = data.get("expected") or {}
    for name in DIGEST_FIELDS:
        value = expected.get(name[9:]) if name.startswith("expected.") else data.get(name)
        out[name] = _hex(_encode(value), _FIELD_WIDTH)
    return out


@dataclass(frozen=True)
class CaseDigests:
    """Digest columns aligned to ``ids``: column name → concatenated fixed-width hex."""

    ids: Sequence[str]
    columns: Mapping[str, str]
    # Each case's full digest (``golden.load.case_digest``, what the fingerprint hashes):
    # never written, only to test a schema-3 entry's fingerprint against a subset.
    full: Mapping[str, bytes] | None = None

    def fingerprint_of(self, ids: Iterable[str]) -> str | None:
        """The fingerprint the golden set would have with only ``ids`` (None: unknown)."""
        if self.full is None:
            return None
        return fingerprint_digests(self.full[i] for i in ids)

    def aligned(self, ids: Sequence[str]) -> CaseDigests:
        """The same digests in the order of ``ids`` (every id must be known)."""
        if list(ids) == list(self.ids):
            return self
        where = {case_id: i for i, case_id in enumerate(self.ids)}
        order = np.asarray([where[i] for i in ids], dtype=np.intp)
        columns = {
            name: digest_column(text, name)[order].tobytes().decode("ascii")
            for name, text in self.columns.items()
        }
        return CaseDigests(list(ids), columns, self.full)


def digest_cases(cases: Iterable[GoldenCase]) -> CaseDigests:
    """Every case's digests, in the given order."""
    return digest_dumps(
        (case.id, case.model_dump(mode="json", exclude_defaults=True), case_digest(case))
        for case in cases
    )


def digest_dumps(rows: Iterable[tuple[str, Mapping[str, Any], bytes]]) -> CaseDigests:
    """Every case's digests from (id, its dump without defaults, its full digest), in the
    given order: TREC queries come this way (``metrics.trec_columns`` never builds golden
    case objects)."""
    ids: list[str] = []
    parts: dict[str, list[str]] = {CASE_COLUMN: [], **{n: [] for n in DIGEST_FIELDS}}
    full: dict[str, bytes] = {}
    for case_id, data, whole in rows:
        ids.append(case_id)
        full[case_id] = whole
        for name, value in dump_digests(data).items():
            parts[name].append(value)
    return CaseDigests(ids, {name: "".join(values) for name, values in parts.items()}, full)

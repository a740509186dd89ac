"""Load a golden set from JSONL: every problem of a bad file is reported at once."""

from __future__ import annotations

import difflib
import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from pydantic import ValidationError

from ..errors import InputError, Problem, ProblemList
from ..jsonio import DEFAULT_MAX_INPUT_BYTES, array_hint, iter_jsonl_lines, starts_with_array
from ..validation import problems_from_validation_error
from .models import Expected, GoldenCase, SourceRef, case_rule_violations

__all__ = [
    "GoldenSet",
    "case_digest",
    "fingerprint_cases",
    "fingerprint_digests",
    "golden_keys_known",
    "golden_set_from_cases",
    "load_golden_set",
    "parse_golden_records",
    "typo_fields",
]


@dataclass(frozen=True)
class GoldenSet:
    """Validated cases in file order, with the fingerprint a baseline is tied to."""

    path: str
    cases: tuple[GoldenCase, ...]
    fingerprint: str
    line_of: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.cases)


def _case_json(case: GoldenCase) -> dict[str, Any]:
    """``case.model_dump(mode="json")``, built from the attributes (~4x faster; the
    digest of every case of a large set is made from it). A test checks it equals
    ``model_dump`` for every field, so a new field cannot be left out silently."""
    exp = case.expected
    source = exp.source
    relevant = exp.relevant_docs
    day = case.reference_date
    return {
        "id": case.id,
        "question": case.question,
        "case_type": case.case_type,
        "expected": {
            "clarification": exp.clarification,
            "refuse": exp.refuse,
            "value": exp.value,
            "unit": exp.unit,
            "source": None if source is None else {"doc": source.doc, "locator": source.locator},
            "narrative_doc": exp.narrative_doc,
            "relevant_docs": (
                list(relevant) if isinstance(relevant, list) else relevant and dict(relevant)
            ),
            "reference_answer": exp.reference_answer,
        },
        "tags": dict(case.tags),
        "reference_date": None if day is None else day.isoformat(),
    }


def case_digest(case: GoldenCase) -> bytes:
    """SHA-256 of one case's normalised content: defaults filled in, keys sorted."""
    data = _case_json(case)
    try:
        encoded = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # an integer beyond 64 bits (a relevance grade, say): json has no limit
        encoded = json.dumps(data, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(encoded).digest()


def fingerprint_digests(digests: Iterable[bytes]) -> str:
    """The set's fingerprint from its cases' digests, in any order (workers, shards)."""
    return "sha256:" + hashlib.sha256(b"".join(sorted(digests))).hexdigest()


def fingerprint_cases(cases: Iterable[GoldenCase]) -> str:
    """Order-insensitive hash of the normalised cases: formatting and line order don't count."""
    return fingerprint_digests(case_digest(c) for c in cases)


_KNOWN: dict[str, frozenset[str]] = {
    "": frozenset(GoldenCase.model_fields),
    "expected.": frozenset(Expected.model_fields),
    "expected.source.": frozenset(SourceRef.model_fields),
}


def _near_misses(obj: Any, prefix: str) -> list[tuple[str, str]]:
    if not isinstance(obj, dict):
        return []
    known = _KNOWN[prefix]
    found: list[tuple[str, str]] = []
    for key in obj:
        if key in known or not isinstance(key, str):
            continue
        if not key.isprintable():
            found.append((prefix + key, "unknown field, with a control character in its name"))
            continue
        close = difflib.get_close_matches(key, known, n=1, cutoff=0.8)
        if close:
            found.append(
                (
                    prefix + key,
                    f"unknown field: did you mean {close[0]!r}? (other unknown fields are "
                    "ignored, as RAGSpine ignores them)",
                )
            )
    return found


def typo_fields(obj: dict[str, Any]) -> list[tuple[str, str]]:
    """Unknown keys that look like a misspelt known field: (field, message).

    Unknown fields are ignored (RAGSpine's files carry notes and scores beside the fields it
    reads), but ``clarifcation`` or ``expectd`` would silently drop an expectation, so a
    key within a typo of a known field's name is an error; so is a name with a control
    character (a line break in a key is damage, not a note).
    """
    found = _near_misses(obj, "")
    expected = obj.get("expected")
    found += _near_misses(expected, "expected.")
    if isinstance(expected, dict):
        found += _near_misses(expected.get("source"), "expected.source.")
    return found


def golden_keys_known(obj: dict[str, Any]) -> bool:
    """Whether every key of a golden record is a known field: then ``typo_fields`` has
    nothing to say (a cheaper check, for the records of a large set)."""
    if not _KNOWN[""].issuperset(obj):
        return False
    expected = obj.get("expected")
    if type(expected) is not dict:
        return True
    if not _KNOWN["expected."].issuperset(expected):
        return False
    source = expected.get("source")
    return type(source) is not dict or _KNOWN["expected.source."].issuperset(source)


def _record_id(obj: Any) -> str | None:
    if isinstance(obj, dict):
        raw = obj.get("id")
        if isinstance(raw, str) and raw:
            return raw
    return None


def parse_golden_records(
    path: str, records: Iterable[tuple[int, Any]], problems: list[Problem]
) -> tuple[list[GoldenCase], dict[str, int]]:
    """Validate ``(line, object)`` pairs; problems are appended, valid cases returned."""
    cases: list[GoldenCase] = []
    line_of: dict[str, int] = {}
    for line, obj in records:
        case_id = _record_id(obj)
        if not isinstance(obj, dict):
            problems.append(
                Problem(path, line, None, f"expected a JSON object, got {type(obj).__name__}")
            )
            continue
        try:
            case = GoldenCase.model_validate(obj)
        except ValidationError as exc:
            problems.extend(problems_from_validation_error(exc, path, line, case_id))
            continue
        typos = [] if golden_keys_known(obj) else typo_fields(obj)
        for fld, message in [*typos, *case_rule_violations(case)]:
            problems.append(Problem(path, line, fld, message, case.id))
        if case.id in line_of:
            problems.append(
                Problem(
                    path, line, "id", f"duplicate id (first on line {line_of[case.id]})", case.id
                )
            )
            continue
        line_of[case.id] = line
        cases.append(case)
    return cases, line_of


def load_golden_set(
    path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_INPUT_BYTES
) -> GoldenSet:
    """Read and validate a golden set; raises InputError listing every problem."""
    name = str(path)
    problems: list[Problem] = ProblemList()
    cases, line_of = parse_golden_records(
        name, iter_jsonl_lines(path, problems, max_bytes=max_bytes), problems
    )
    if problems:
        problems.sort(key=lambda p: p.line or 0)
        if problems[0].line == 1 and starts_with_array(path):  # line 1 is "[": JSON, not JSONL
            raise InputError.single(name, array_hint("a golden set is", "golden.jsonl"))
        raise InputError(problems)
    return GoldenSet(name, tuple(cases), fingerprint_cases(cases), line_of)


def golden_set_from_cases(cases: Sequence[GoldenCase], path: str = "<memory>") -> GoldenSet:
    """Build a GoldenSet from cases made in Python (the API path), checking the same rules."""
    problems: list[Problem] = ProblemList()
    seen: set[str] = set()
    for index, case in enumerate(cases, start=1):
        for fld, message in case_rule_violations(case):
            problems.append(Problem(path, index, fld, message, case.id))
        if case.id in seen:
            problems.append(Problem(path, index, "id", "duplicate id", case.id))
        seen.add(case.id)
    if problems:
        raise InputError(problems)
    return GoldenSet(path, tuple(cases), fingerprint_cases(cases))

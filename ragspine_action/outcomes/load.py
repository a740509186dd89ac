"""Read outcomes JSONL (SPEC §5) with located, all-at-once error reporting."""

from __future__ import annotations

import os
from typing import Any

from pydantic import ValidationError

from ..errors import InputError, Problem, ProblemList
from ..jsonio import DEFAULT_MAX_INPUT_BYTES, iter_jsonl_lines
from ..validation import problems_from_validation_error
from .fast import outcome_from_dict
from .model import Outcome

__all__ = ["load_outcomes", "load_repeated_outcomes", "parse_outcome"]


def parse_outcome(obj: Any) -> Outcome:
    """Validate one decoded outcome object (raises pydantic's ValidationError).

    A record of the plain shape is built without pydantic (``fast_records``: the same
    model, values and fields set); anything else is pydantic's to validate and describe.
    """
    outcome = outcome_from_dict(obj)
    return Outcome.model_validate(obj) if outcome is None else outcome


def load_outcomes(
    path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_INPUT_BYTES
) -> dict[str, Outcome]:
    """Outcomes by id, in file order; duplicate ids and bad records are InputErrors."""
    name = str(path)
    problems: list[Problem] = ProblemList()
    outcomes: dict[str, Outcome] = {}
    line_of: dict[str, int] = {}
    for line, obj in iter_jsonl_lines(path, problems, max_bytes=max_bytes):
        raw_id = obj.get("id") if isinstance(obj, dict) else None
        case_id = raw_id if isinstance(raw_id, str) else None
        if not isinstance(obj, dict):
            problems.append(
                Problem(name, line, None, f"expected a JSON object, got {type(obj).__name__}")
            )
            continue
        try:
            outcome = parse_outcome(obj)
        except ValidationError as exc:
            problems.extend(problems_from_validation_error(exc, name, line, case_id))
            continue
        if outcome.id in line_of:
            problems.append(
                Problem(
                    name,
                    line,
                    "id",
                    f"duplicate id (first on line {line_of[outcome.id]})",
                    outcome.id,
                )
            )
            continue
        line_of[outcome.id] = line
        outcomes[outcome.id] = outcome
    if problems:
        raise InputError(problems)
    return outcomes


def load_repeated_outcomes(
    path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_INPUT_BYTES
) -> list[dict[str, Outcome]]:
    """Outcomes by id, one dict per ``repeat`` index in increasing order (``--repeats``).

    A file without repeat indices is one repeat (``load_outcomes``'s rules). Once one
    outcome has a ``repeat``, every one needs it, and an (id, repeat) pair appears once.
    """
    name = str(path)
    problems: list[Problem] = ProblemList()
    groups: dict[int, dict[str, Outcome]] = {}
    line_of: dict[tuple[str, int], int] = {}
    unindexed: list[int] = []
    for line, obj in iter_jsonl_lines(path, problems, max_bytes=max_bytes):
        raw_id = obj.get("id") if isinstance(obj, dict) else None
        case_id = raw_id if isinstance(raw_id, str) else None
        if not isinstance(obj, dict):
            problems.append(
                Problem(name, line, None, f"expected a JSON object, got {type(obj).__name__}")
            )
            continue
        try:
            outcome = parse_outcome(obj)
        except ValidationError as exc:
            problems.extend(problems_from_validation_error(exc, name, line, case_id))
            continue
        if outcome.repeat is None:
            unindexed.append(line)
        index = outcome.repeat or 0
        pair = (outcome.id, index)
        if pair in line_of:
            problems.append(
                Problem(
                    name,
                    line,
                    "id",
                    (
                        f"duplicate id (first on line {line_of[pair]})"
                        if outcome.repeat is None
                        else f"duplicate id for repeat {index} (first on line {line_of[pair]})"
                    ),
                    outcome.id,
                )
            )
            continue
        line_of[pair] = line
        groups.setdefault(index, {})[outcome.id] = outcome
    if unindexed and len(unindexed) < len(line_of):
        problems.append(
            Problem(
                name,
                unindexed[0],
                "repeat",
                "missing: once an outcome has a repeat index, every outcome needs one",
            )
        )
    if problems:
        problems.sort(key=lambda p: p.line or 0)
        raise InputError(problems)
    return [groups[i] for i in sorted(groups)] or [{}]

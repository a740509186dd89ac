"""Turn pydantic validation errors into located, one-line problems."""

from __future__ import annotations

from pydantic import ValidationError

from .errors import Problem

__all__ = ["describe_value", "problems_from_validation_error"]


def describe_value(value: object) -> str:
    """What a bad value is, without its content: the file may be a symlink to a
    credentials file, and an error message must not become the way to read it."""
    if value is None or isinstance(value, bool):
        return "null" if value is None else str(value).lower()
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return f"a string of {len(value)} characters" if value else "an empty string"
    if isinstance(value, list | tuple):
        return f"a list of {len(value)} items"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _field_path(loc: tuple[int | str, ...]) -> str:
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
            continue
        # Union members and constrained types show up as loc entries like "list[str]".
        if "[" in item or item in ("str", "int", "float", "bool", "constrained-str") or "-" in item:
            continue
        parts.append(f".{item}" if parts else item)
    return "".join(parts) or "(record)"


def problems_from_validation_error(
    exc: ValidationError,
    path: str,
    line: int | None,
    case_id: str | None,
    prefix: str = "",
    *,
    echo: bool = True,
) -> list[Problem]:
    """One problem per failing field (union alternatives collapse to the first message).

    ``echo=False`` describes a bad value instead of quoting it: for files that are never
    test data (baseline, settings), so that one symlinked to a credentials file does not
    print them.
    """
    errors = exc.errors(include_url=False)
    fields = [prefix + _field_path(tuple(err["loc"])) for err in errors]
    seen: dict[str, Problem] = {}
    for err, field in zip(errors, fields, strict=True):
        if field in seen:
            continue
        deeper = any(f != field and f.startswith(field + ".") for f in fields)
        if deeper and err["type"] in ("list_type", "dict_type"):
            continue  # a union's other branch explains the problem more precisely
        message = err["msg"]
        if err["type"] == "missing":
            message = "is required"
        elif err["type"] == "extra_forbidden":
            message = "unknown field"
        elif "input" in err and err["type"] not in ("missing",):
            if echo:
                shown = repr(err["input"])
                if len(shown) > 60:
                    shown = shown[:57] + "..."
            else:
                shown = describe_value(err["input"])
            message = f"{message} (got {shown})"
        seen[field] = Problem(path, line, field, message, case_id)
    return list(seen.values())

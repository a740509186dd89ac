"""Turn pydantic validation errors into located, one-line problems."""

from __future__ import annotations

from pydantic import ValidationError

from .errors import Problem

__all__ = ["problems_from_validation_error"]


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
    exc: ValidationError, path: str, line: int | None, case_id: str | None, prefix: str = ""
) -> list[Problem]:
    """One problem per failing field (union alternatives collapse to the first message)."""
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
            shown = repr(err["input"])
            if len(shown) > 60:
                shown = shown[:57] + "..."
            message = f"{message} (got {shown})"
        seen[field] = Problem(path, line, field, message, case_id)
    return list(seen.values())

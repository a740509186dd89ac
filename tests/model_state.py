"""What tells two pydantic models apart, for the fast paths' comparison tests."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


def model_state(value: Any) -> Any:
    """Everything that tells two models apart: type, each field's value and type, the
    fields set, recursively (``==`` alone says 5 == 5.0)."""
    if isinstance(value, BaseModel):
        return (
            type(value).__name__,
            sorted(value.model_fields_set),
            value.__pydantic_extra__,
            value.__pydantic_private__,
            [(name, model_state(getattr(value, name))) for name in type(value).model_fields],
        )
    if isinstance(value, list):
        return ("list", [model_state(v) for v in value])
    if isinstance(value, dict):
        return ("dict", [(k, model_state(v)) for k, v in value.items()])
    return (type(value).__name__, repr(value))

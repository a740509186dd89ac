"""What tells two pydantic models apart, for the fast paths' comparison tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
from pydantic import BaseModel

from ragspine_action.jsonio import keys_proven_unique, loads_strict


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


def assert_proof_agrees(
    raw: bytes,
    build: Callable[[Any], tuple[BaseModel, Any] | None],
    model: type[BaseModel],
) -> None:
    """When a fast builder's key count proves a line (``build`` gives the record and its
    keys), the strict parser reads the same record: no duplicate key hidden, no number
    beyond 64 bits let through."""
    try:
        obj = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return
    built = build(obj)
    if built is None or not keys_proven_unique(raw, built[1]):
        return
    strict = loads_strict(raw.decode())  # raises on a duplicate key or a huge integer
    assert model_state(built[0]) == model_state(model.model_validate(strict))

"""Pause the cyclic garbage collector while building millions of acyclic objects; build
pydantic models from values that are already exactly what validation would give."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = ["built_model", "gc_paused"]

_M = TypeVar("_M", bound="BaseModel")
_set = object.__setattr__
_new = object.__new__


@contextmanager
def gc_paused() -> Iterator[None]:
    """Cases, outcomes, records and results are built by the hundred thousand and never
    form cycles, yet each allocation burst triggers collections that scan the whole heap:
    pausing the collector halves load and scoring time (100k QA cases, a million cells)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def built_model(cls: type[_M], values: dict[str, Any], fields_set: set[str]) -> _M:
    """The instance ``model_construct`` (or ``model_validate``, extra ignored) leaves, for
    ``values`` holding every field of ``cls``, in field order, as they are to be stored.

    ``model_construct`` walks the fields for defaults, aliases and private attributes
    (~4 µs a model); a report holds one model per failure, miss and error (~50k per
    100k synthetic cases). Only for models without private attributes or extra fields.
    """
    model = _new(cls)
    _set(model, "__dict__", values)
    _set(model, "__pydantic_fields_set__", fields_set)
    _set(model, "__pydantic_extra__", None)
    _set(model, "__pydantic_private__", None)
    return model

"""perf.built_model: the same instance model_construct (and model_validate) makes."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from ragspine_action.golden.models import SourceRef
from ragspine_action.perf import built_model
from ragspine_action.report.model import ErrorCase, FabricationCase, Failure, RetrievalMiss


def _state(model: BaseModel) -> tuple[Any, ...]:
    return (
        type(model),
        list(model.__dict__.items()),  # the order too: field order
        model.__pydantic_fields_set__,
        model.__pydantic_extra__,
        model.__pydantic_private__,
    )


@pytest.mark.parametrize(
    ("cls", "values"),
    [
        (Failure, {"id": "c1", "expected": 3.0, "actual": {"error": "x"}, "question": "Q?"}),
        (Failure, {"id": "c2", "expected": None, "actual": None, "question": None}),
        (RetrievalMiss, {"id": "c3", "rank": None, "question": "Q?"}),
        (RetrievalMiss, {"id": "c4", "rank": 7, "question": None}),
        (FabricationCase, {"id": "c5", "numbers": ["12", "3.4"], "question": "Q?"}),
        (ErrorCase, {"id": "c6", "error": "timeout"}),
        (SourceRef, {"doc": "a.pdf", "locator": "p=3"}),
    ],
)
def test_built_model_is_what_model_construct_builds(
    cls: type[BaseModel], values: dict[str, Any]
) -> None:
    built = built_model(cls, dict(values), set(values))
    assert _state(built) == _state(cls.model_construct(**values))
    assert _state(built) == _state(cls.model_validate(values))
    assert built == cls.model_validate(values)
    assert built.model_dump(mode="json") == cls.model_validate(values).model_dump(mode="json")

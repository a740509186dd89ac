"""The ``outcomes`` system: a JSONL file produced by the user's own pipeline."""

from __future__ import annotations

from collections.abc import Sequence

from ..golden.models import GoldenCase
from ..jsonio import DEFAULT_MAX_INPUT_BYTES
from ..outcomes.load import load_outcomes
from .base import Collection, complete_collection

__all__ = ["OutcomesFileSystem"]


class OutcomesFileSystem:
    name = "outcomes"

    def __init__(self, path: str, max_bytes: int = DEFAULT_MAX_INPUT_BYTES) -> None:
        self.path = path
        self.max_bytes = max_bytes

    def collect(self, cases: Sequence[GoldenCase]) -> Collection:
        return complete_collection(cases, load_outcomes(self.path, max_bytes=self.max_bytes))

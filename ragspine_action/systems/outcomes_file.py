"""The ``outcomes`` system: a JSONL file produced by the user's own pipeline."""

from __future__ import annotations

from collections.abc import Sequence

from ..golden.models import GoldenCase
from ..outcomes.load import load_outcomes
from .base import Collection, complete_collection

__all__ = ["OutcomesFileSystem"]


class OutcomesFileSystem:
    name = "outcomes"

    def __init__(self, path: str) -> None:
        self.path = path

    def collect(self, cases: Sequence[GoldenCase]) -> Collection:
        return complete_collection(cases, load_outcomes(self.path))

"""The ``outcomes`` system: a JSONL file produced by the user's own pipeline."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import ConfigError
from ..golden.models import GoldenCase
from ..jsonio import DEFAULT_MAX_INPUT_BYTES
from ..outcomes.load import load_outcomes, load_repeated_outcomes
from .base import Collection, complete_collection

__all__ = ["OutcomesFileSystem"]


class OutcomesFileSystem:
    name = "outcomes"

    def __init__(self, path: str, max_bytes: int = DEFAULT_MAX_INPUT_BYTES) -> None:
        self.path = path
        self.max_bytes = max_bytes

    def collect(self, cases: Sequence[GoldenCase]) -> Collection:
        return complete_collection(cases, load_outcomes(self.path, max_bytes=self.max_bytes))

    def collect_repeats(self, cases: Sequence[GoldenCase], expected: int = 0) -> list[Collection]:
        """One collection per ``repeat`` index of the file (one when it has none);
        ``expected`` (``--repeats``, 0: not given) must match the file."""
        groups = load_repeated_outcomes(self.path, max_bytes=self.max_bytes)
        if expected and len(groups) != expected:
            held = (
                "one outcome per id (no repeat index)"
                if len(groups) == 1
                else f"{len(groups)} repeats (distinct repeat indices)"
            )
            raise ConfigError(
                f"--repeats {expected}: {self.path} holds {held}; record {expected} outcomes "
                f'per id, each with "repeat": 0 to {expected - 1}'
            )
        return [complete_collection(cases, produced) for produced in groups]

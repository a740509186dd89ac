"""The extraction suite in one call: load every fixture, then score them."""

from __future__ import annotations

import os
from collections.abc import Sequence

from .load import FixturePair, load_fixtures, load_manifest
from .models import ExtractionOptions
from .score import ExtractionResult, score_fixtures

__all__ = ["evaluate_extraction"]


def evaluate_extraction(
    fixtures: Sequence[FixturePair] | str | os.PathLike[str],
    options: ExtractionOptions | None = None,
) -> ExtractionResult:
    """Score named pairs, or the pairs a manifest file lists; raises InputError (exit 2)."""
    if isinstance(fixtures, str | os.PathLike):
        pairs: Sequence[FixturePair] = load_manifest(fixtures)
    else:
        pairs = fixtures
    return score_fixtures(load_fixtures(pairs), options)

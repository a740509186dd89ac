"""Pause the cyclic garbage collector while building millions of acyclic objects."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["gc_paused"]


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

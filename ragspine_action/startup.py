"""What the command-line process sets before numpy loads and any pydantic model is built
(imported first).

pydantic looks for plugins when it builds its first model by reading every installed
distribution's entry points (``importlib.metadata``): ~17 ms of a ~450 ms bundled run,
for plugins the CLI never uses. ``PYDANTIC_DISABLE_PLUGINS`` is pydantic's own switch.

OpenBLAS, which numpy loads on import, starts a worker thread per core that spins while
it waits: ~25-55 ms of CPU on a 2-core machine on every start. The only BLAS calls here are
two small matrix-vector products of the bootstrap (resamples × categories), which one
thread computes with the same bits (a row per output, tests/test_cli_startup.py); the
scoring workers are processes, one per core, so threads would only oversubscribe.
``OPENBLAS_NUM_THREADS`` is OpenBLAS's own switch.

A value the user has set (even an empty one, which keeps plugins on) wins.

The cyclic garbage collector is paused while the CLI's modules load (~400 modules, whose
objects live as long as the process and form no garbage): ~90 collections that scan the
growing heap, ~15 ms of the bundled run. At the end of ``cli``'s imports
:func:`modules_loaded` moves what was allocated to the oldest generation (``freeze`` then
``unfreeze``: no scan, where a first young collection would scan all of it, ~7 ms) and
restores the collector as it was, so importing ``cli`` leaves it as it found it.
``cli`` pauses it again for the run and does the same at the end, and a run's process
skips the full collection of a heap that is about to be freed at exit (~10 ms).

The package's regular expressions are handed to ``re`` compiled, from the file
``pattern_cache`` keeps beside the bytecode, before any module compiles them (~0.3 s).
"""

from __future__ import annotations

import atexit
import gc
import os

from . import pattern_cache

_COLLECTING = gc.isenabled()
gc.disable()


def settle() -> None:
    """Every object allocated so far into the oldest generation, without scanning it."""
    gc.freeze()
    gc.unfreeze()


def modules_loaded() -> None:
    """The collector as it was before the CLI's modules loaded."""
    settle()
    if _COLLECTING:
        gc.enable()


def no_collection_at_exit() -> None:
    """At exit the heap is freed whole: a last full collection of it is waste (once per
    process, however many runs it makes)."""
    atexit.unregister(gc.disable)
    atexit.register(gc.disable)


os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
pattern_cache.preload()

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

With plugins off pydantic still imports its plugin loader, which imports
``importlib.metadata`` (and through it ``email``, ``zipfile`` …: ~9-15 ms) only to call it
when plugins are on. So when plugins are off and nothing has imported it yet,
``importlib.metadata`` is registered as a lazy module (``importlib.util.LazyLoader``, the
standard library's own): it is executed on the first use of one of its attributes, by
whoever uses it, and never when nobody does.

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

import gc

# Off before anything else is imported: compiling this package's modules from source (no
# bytecode written, PYTHONDONTWRITEBYTECODE) allocates enough that a collection ran while
# ``threading`` loaded.
_COLLECTING = gc.isenabled()
gc.disable()

import atexit  # noqa: E402
import importlib.util  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
import types  # noqa: E402
from typing import Any  # noqa: E402

from . import pattern_cache  # noqa: E402

# pydantic's values of PYDANTIC_DISABLE_PLUGINS that turn every plugin off
# (pydantic/plugin/_loader.py).
_PLUGINS_OFF = ("__all__", "1", "true")

_LOADING = threading.RLock()


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


class _OnFirstUse(types.ModuleType):
    """A module whose code runs when one of its own attributes is first read.

    ``importlib.util.LazyLoader`` runs it on any attribute access, ``__spec__`` included,
    which every later ``import`` statement of the module reads: pydantic's own import of
    it would run it. Here the attributes ``module_from_spec`` sets (``__spec__``,
    ``__name__``, ``__file__`` …) are plain attributes, and only a missing one (all of the
    module's own names) runs the code, into this same object, so every holder of it sees
    the real module.
    """

    def __getattr__(self, name: str) -> Any:
        with _LOADING:
            if type(self) is _OnFirstUse:
                spec = self.__spec__
                assert spec is not None and spec.loader is not None
                self.__class__ = types.ModuleType  # type: ignore[assignment]
                try:
                    spec.loader.exec_module(self)
                except BaseException:
                    sys.modules.pop(spec.name, None)
                    raise
        return getattr(self, name)


def lazy_module(name: str) -> bool:
    """``name`` (not imported yet) run when first used; whether it was set up so."""
    if name in sys.modules:
        return False
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):  # pragma: no cover - an unusual installation
        return False
    if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
        return False  # pragma: no cover - a loader that cannot run a module it did not make
    module = importlib.util.module_from_spec(spec)
    module.__class__ = _OnFirstUse
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)
    return True


os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
if os.environ["PYDANTIC_DISABLE_PLUGINS"] in _PLUGINS_OFF:
    lazy_module("importlib.metadata")
pattern_cache.preload()

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
"""

from __future__ import annotations

import os

os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

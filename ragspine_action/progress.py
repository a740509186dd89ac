"""A progress bar for long steps (scoring 100k outcomes), on a terminal only.

Nothing is drawn off a terminal (a CI log keeps every byte) nor for a step that ends within
``delay_s``: a quick run prints exactly what it printed before. The bar is one line on
stderr, redrawn at most ten times a second and erased when the step ends, so the report
that follows starts on a clean line. The stream and the clock are injected for tests.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

__all__ = ["ProgressBar", "progress_bar"]

_REDRAW_S = 0.1


class ProgressBar:
    """``start(total)``, ``update(done)`` from any thread, ``finish()``."""

    def __init__(
        self,
        stream: TextIO,
        label: str,
        *,
        delay_s: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        width: int = 28,
    ) -> None:
        self._stream, self._label, self._delay, self._clock = stream, label, delay_s, clock
        self._width = width
        self._lock = threading.Lock()
        self._total = 0
        self._started = 0.0
        self._drawn_at: float | None = None
        self._drawn_len = 0
        self._drawn_text = ""

    def start(self, total: int) -> None:
        with self._lock:
            self._total, self._started, self._drawn_at = max(0, total), self._clock(), None

    def update(self, done: int, *, final: bool = False) -> None:
        """``done`` of the total; ``final`` draws even right after the last redraw."""
        with self._lock:
            now = self._clock()
            if now - self._started < self._delay:
                return
            if not final and self._drawn_at is not None and now - self._drawn_at < _REDRAW_S:
                return
            self._draw(done, now)

    def finish(self) -> None:
        with self._lock:
            if self._drawn_len:
                self._write("\r" + " " * self._drawn_len + "\r")
                self._drawn_len, self._drawn_text = 0, ""

    def _draw(self, done: int, now: float) -> None:
        share = min(1.0, done / self._total) if self._total else 1.0
        filled = int(share * self._width)
        elapsed = now - self._started
        left = elapsed * (1 - share) / share if share > 0 else None
        eta = f"{left:.0f} s left" if left is not None else "…"
        text = f"{self._label} [{'#' * filled}{'-' * (self._width - filled)}] {share:4.0%} {eta}"
        if text == self._drawn_text:
            return  # nothing new to show
        padding = " " * max(0, self._drawn_len - len(text))
        self._drawn_at, self._drawn_len, self._drawn_text = now, len(text), text
        self._write("\r" + text + padding)

    def _write(self, text: str) -> None:
        try:  # a courtesy: a closed or broken stream never stops a run
            self._stream.write(text)
            self._stream.flush()
        except (OSError, ValueError):
            pass


def progress_bar(label: str, stream: TextIO | None = None) -> ProgressBar | None:
    """A bar on ``stream`` (default stderr) when it is a terminal, else None."""
    stream = sys.stderr if stream is None else stream
    try:
        tty = bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        tty = False
    return ProgressBar(stream, label) if tty else None

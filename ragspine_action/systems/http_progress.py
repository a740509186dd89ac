"""Progress of a long collection run: a live bar on a terminal, nothing anywhere else.

A CI log or a pipe keeps every byte, and what the run collected is in the report (its
``system_stats``): off a terminal the reporter is silent. On a terminal it redraws one
line with ``\\r`` (done/total, errors, rate, ETA) at most ten times a second and ends it
with a newline, so the report that follows starts on a clean line. The stream and the
clock are injected so the output can be tested exactly.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol, TextIO

__all__ = ["Progress", "ProgressReporter", "format_duration"]

_TTY_REDRAW_S = 0.1


class ProgressReporter(Protocol):
    """What a system reports while it collects: the total, then (done, errors) counts."""

    def start(self, total: int) -> None: ...

    def update(self, done: int, errors: int) -> None: ...

    def finish(self) -> None: ...


def format_duration(seconds: float) -> str:
    """``75.2`` → ``1:16``; ``3725`` → ``1:02:05`` (whole seconds, rounded up)."""
    whole = max(0, int(-(-seconds // 1)))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _is_tty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


class Progress:
    """Reports done/total, errors, rate and ETA to ``stream`` (normally stderr) when it
    is a terminal (``tty`` overrides the check); writes nothing otherwise."""

    def __init__(
        self,
        stream: TextIO,
        *,
        label: str = "http",
        tty: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
        bar_width: int = 24,
    ) -> None:
        self._stream = stream
        self._label = label
        self._tty = _is_tty(stream) if tty is None else tty
        self._clock = clock
        self._bar_width = bar_width
        self._lock = threading.Lock()
        self._total = 0
        self._done = 0
        self._errors = 0
        self._started = 0.0
        self._last_shown: float | None = None
        self._drawn_width = 0
        self._finished = False

    def start(self, total: int) -> None:
        if not self._tty:
            return
        with self._lock:
            self._total = total
            self._done = self._errors = 0
            self._started = self._clock()
            self._last_shown = None
            self._finished = False
            self._draw(self._started)

    def update(self, done: int, errors: int) -> None:
        if not self._tty:
            return
        with self._lock:
            self._done, self._errors = done, errors
            now = self._clock()
            if self._last_shown is None or now - self._last_shown >= _TTY_REDRAW_S:
                self._draw(now)

    def finish(self) -> None:
        if not self._tty:
            return
        with self._lock:
            if self._finished:
                return
            self._finished = True
            self._draw(self._clock())
            self._write("\n")

    def _rate(self, now: float) -> float:
        elapsed = now - self._started
        return self._done / elapsed if elapsed > 0 else 0.0

    def _eta(self, now: float) -> str:
        rate = self._rate(now)
        if self._done >= self._total:
            return "0:00"
        if rate <= 0:
            return "?"
        return format_duration((self._total - self._done) / rate)

    def _draw(self, now: float) -> None:
        self._last_shown = now
        share = self._done / self._total if self._total else 1.0
        filled = int(share * self._bar_width)
        bar = "#" * filled + "-" * (self._bar_width - filled)
        errors = f"{self._errors} error" + ("" if self._errors == 1 else "s")
        text = (
            f"{self._label} [{bar}] {self._done}/{self._total} {share:4.0%} | "
            f"{errors} | {self._rate(now):.1f}/s | ETA {self._eta(now)}"
        )
        padding = " " * max(0, self._drawn_width - len(text))
        self._drawn_width = len(text)
        self._write("\r" + text + padding)

    def _write(self, text: str) -> None:
        # Progress is a courtesy: a closed or broken stream must never stop a run.
        try:
            self._stream.write(text)
            self._stream.flush()
        except (OSError, ValueError):
            pass

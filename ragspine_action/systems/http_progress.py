"""Progress of a long collection run: a live bar on a terminal, sparse lines in CI logs.

A CI log keeps every byte, so a bar redrawn with ``\\r`` would flood it: off a terminal
the reporter prints one line at most every ``interval_s`` seconds, plus a final line.
The stream and the clock are injected so the output can be tested exactly.
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
    """``75.2`` → ``1:15``; ``3725`` → ``1:02:05`` (whole seconds, rounded up)."""
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
    """Reports done/total, errors, rate and ETA to ``stream`` (normally stderr)."""

    def __init__(
        self,
        stream: TextIO,
        *,
        label: str = "http",
        interval_s: float = 5.0,
        tty: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
        bar_width: int = 24,
    ) -> None:
        self._stream = stream
        self._label = label
        self._interval = interval_s
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
        with self._lock:
            self._total = total
            self._done = self._errors = 0
            self._started = self._clock()
            self._last_shown = None
            self._finished = False
            if self._tty:
                self._draw(self._started)

    def update(self, done: int, errors: int) -> None:
        with self._lock:
            self._done, self._errors = done, errors
            now = self._clock()
            if self._tty:
                if self._last_shown is None or now - self._last_shown >= _TTY_REDRAW_S:
                    self._draw(now)
            elif self._last_shown is None:
                self._last_shown = now  # the first line waits a full interval
            elif now - self._last_shown >= self._interval:
                self._line(now)

    def finish(self) -> None:
        with self._lock:
            if self._finished:
                return
            self._finished = True
            now = self._clock()
            elapsed = now - self._started
            summary = (
                f"{self._label}: {self._done}/{self._total} done, {self._errors} errors, "
                f"{self._rate(now):.1f} req/s, {elapsed:.1f} s"
            )
            if self._tty:
                self._draw(now)
                self._write("\n")
            else:
                self._write(summary + "\n")

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

    def _line(self, now: float) -> None:
        self._last_shown = now
        self._write(
            f"{self._label}: {self._done}/{self._total} done, {self._errors} errors, "
            f"{self._rate(now):.1f} req/s, ETA {self._eta(now)}\n"
        )

    def _draw(self, now: float) -> None:
        self._last_shown = now
        share = self._done / self._total if self._total else 1.0
        filled = int(share * self._bar_width)
        bar = "#" * filled + "-" * (self._bar_width - filled)
        text = (
            f"{self._label} [{bar}] {self._done}/{self._total} {share:4.0%} | "
            f"{self._errors} errors | {self._rate(now):.1f}/s | ETA {self._eta(now)}"
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

"""Write collected outcomes as JSONL (``--save-outcomes``), so a run can be scored again
offline with ``--system outcomes`` without calling the service.

The write is atomic: a temporary file in the target directory, flushed to disk, then
renamed over the target, so a crash or Ctrl-C never leaves a half-written file.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterable
from pathlib import Path

from ..errors import ConfigError
from .model import Outcome

__all__ = ["dump_outcome_line", "save_outcomes"]


def dump_outcome_line(outcome: Outcome) -> str:
    """One JSONL line (no newline), without None fields; ``load_outcomes`` reads it back."""
    return outcome.model_dump_json(exclude_none=True)


def save_outcomes(path: str | os.PathLike[str], outcomes: Iterable[Outcome]) -> int:
    """Write ``outcomes`` to ``path`` atomically; return how many were written.

    An existing file keeps its permissions; a new one gets the usual ``0o666 & ~umask``.
    """
    target = Path(path)
    name = str(path)
    if target.is_dir():
        raise ConfigError(f"{name}: is a directory, expected a file path for saved outcomes")
    directory = target.parent
    try:
        mode: int | None = target.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise ConfigError(f"{name}: cannot write saved outcomes: {exc.strerror}") from None
    tmp_name = str(directory / f".{target.name}.{secrets.token_hex(6)}.tmp")
    try:
        # O_EXCL: never follow or reuse someone else's file; 0o666 lets the umask decide.
        fd = os.open(tmp_name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as exc:
        raise ConfigError(f"{name}: cannot write saved outcomes: {exc.strerror}") from None
    count = 0
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            for outcome in outcomes:
                handle.write(dump_outcome_line(outcome) + "\n")
                count += 1
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp_name, mode)
        os.replace(tmp_name, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        if isinstance(exc, OSError):
            raise ConfigError(f"{name}: cannot write saved outcomes: {exc.strerror}") from None
        raise
    _fsync_directory(directory)
    return count


def _fsync_directory(directory: Path) -> None:
    # Makes the rename itself durable; not possible on every platform, so best effort.
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)

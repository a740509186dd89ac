"""Output paths (``--report``, ``--save-outcomes``, ``--baseline``): checked before the run,
and any OS error while writing turned into one line naming the path and the flag.

A report pointing at a directory, an unwritable directory or a full disk is a usage
problem (exit 2), never a traceback and never exit 1 (which means a regression).
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import ConfigError

__all__ = ["check_output_path", "describe_os_error", "output_errors"]


def describe_os_error(exc: OSError) -> str:
    """``No space left on device`` rather than ``[Errno 28] No space left on device: '…'``."""
    if exc.errno == errno.ENOSPC:
        return "no space left on the device (disk full)"
    if exc.errno == errno.EDQUOT:
        return "disk quota exceeded"
    return exc.strerror or type(exc).__name__


def _nearest_existing(path: Path) -> Path:
    for candidate in (path, *path.parents):
        if os.path.lexists(candidate):
            return candidate
    return Path(".")


def check_output_path(path: str, option: str) -> None:
    """Raise a one-line ConfigError when ``path`` can obviously not be written as a file.

    Parent directories that do not exist yet are created by the writers, so only the
    nearest existing ancestor has to be a writable directory.
    """
    target = Path(path)
    if not str(path).strip():
        raise ConfigError(f"{option}: the path is empty")
    if target.is_dir():
        raise ConfigError(f"{option} {path}: is a directory, expected a file path")
    if os.path.lexists(target):
        if not target.is_file():
            raise ConfigError(f"{option} {path}: exists and is not a regular file")
        parent = target.parent
    else:
        parent = _nearest_existing(target.parent)
        if not parent.is_dir():
            raise ConfigError(f"{option} {path}: {parent} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ConfigError(f"{option} {path}: cannot write in {parent} (permission denied)")


@contextmanager
def output_errors(path: str | os.PathLike[str], option: str) -> Iterator[None]:
    """Turn an OSError while writing ``path`` into a ConfigError naming it and ``option``."""
    try:
        yield
    except OSError as exc:
        raise ConfigError(f"{option} {path}: cannot write: {describe_os_error(exc)}") from None

"""The one way an input file is opened: regular files only, size-capped, never a hang.

Every file a user names (golden set, outcomes, baseline, config, headers file, event
file, TREC files, facts, merge partials) is untrusted and may be a symlink committed
into the repository. A path to ``/dev/zero`` would read until memory runs out, a FIFO
would block for ever, ``/proc/self/environ`` reports size 0 and then hands out the
environment. So a file is opened here only when it resolves to a regular file; it is
opened without blocking, checked again on the open descriptor (no swap in between),
and read no further than the cap, whatever its reported size. Errors name the path and,
for a symlink, where it leads; never the content.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import BinaryIO

from .errors import ConfigError, InputError

__all__ = [
    "check_input_file",
    "describe_path",
    "is_symlinked",
    "open_input",
    "read_input_bytes",
    "refuse_output_over_input",
]

_KINDS = (
    (stat.S_ISDIR, "is a directory, not a file"),
    (stat.S_ISFIFO, "is a FIFO (named pipe), not a regular file"),
    (stat.S_ISCHR, "is a character device, not a regular file"),
    (stat.S_ISBLK, "is a block device, not a regular file"),
    (stat.S_ISSOCK, "is a socket, not a regular file"),
)


def describe_path(path: str | os.PathLike[str]) -> str:
    """``path``, plus ``(a symlink to TARGET)`` when it is, or runs through, a symlink."""
    name = os.fspath(path)
    try:
        real = os.path.realpath(name)
    except (OSError, ValueError):
        return name
    if real != os.path.abspath(name):
        return f"{name} (a symlink to {real})"
    return name


def is_symlinked(path: str | os.PathLike[str]) -> bool:
    """Whether the path, or a directory on the way to it, is a symlink."""
    name = os.fspath(path)
    return os.path.realpath(name) != os.path.abspath(name)


def _refuse(path: str | os.PathLike[str], message: str) -> InputError:
    return InputError.single(describe_path(path), message)


def _check_stat(path: str | os.PathLike[str], info: os.stat_result, max_bytes: int) -> None:
    for test, message in _KINDS:
        if test(info.st_mode):
            raise _refuse(path, message)
    if not stat.S_ISREG(info.st_mode):
        raise _refuse(path, "is not a regular file")
    if info.st_size > max_bytes:
        raise _refuse(path, f"file is {info.st_size} bytes, over the limit of {max_bytes}")


def _stat(path: str | os.PathLike[str]) -> os.stat_result:
    try:
        return os.stat(path)
    except FileNotFoundError:
        raise _refuse(path, "file not found") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "invalid path"
        raise _refuse(path, f"cannot read: {reason}") from None


def check_input_file(path: str | os.PathLike[str], max_bytes: int) -> None:
    """Refuse anything but an existing regular file within the cap, before any read."""
    _check_stat(path, _stat(path), max_bytes)


@contextmanager
def open_input(path: str | os.PathLike[str], max_bytes: int) -> Iterator[BinaryIO]:
    """A binary handle on a regular file no larger than ``max_bytes``.

    Opened non-blocking (a FIFO swapped in after the check cannot hang the open) and
    re-checked on the descriptor. Callers still stop reading at the cap: a file in
    ``/proc`` reports size 0.
    """
    check_input_file(path, max_bytes)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise _refuse(path, "file not found") from None
    except OSError as exc:
        raise _refuse(path, f"cannot read: {exc.strerror}") from None
    try:
        _check_stat(path, os.fstat(fd), max_bytes)
        handle = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with handle:
        try:
            yield handle
        except OSError as exc:
            raise _refuse(path, f"cannot read: {exc.strerror or exc}") from None


def read_input_bytes(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """The whole file, refusing it as soon as it proves larger than ``max_bytes``."""
    with open_input(path, max_bytes) as handle:
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise _refuse(path, f"file is over the limit of {max_bytes} bytes")
    return data


def _same_file(a: str, b: str) -> bool:
    try:
        if os.path.realpath(a) == os.path.realpath(b):
            return True
        return os.path.exists(a) and os.path.exists(b) and os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def refuse_output_over_input(
    outputs: Mapping[str, str | None], inputs: Mapping[str, Iterable[str | None]]
) -> None:
    """Refuse an output path that is one of the inputs (or the same file by another
    name): ``--report golden.jsonl`` would overwrite the golden set with the report."""
    for out_name, out in outputs.items():
        if not out:
            continue
        for in_name, paths in inputs.items():
            if in_name == out_name:
                continue
            for path in paths:
                if path and _same_file(out, path):
                    raise ConfigError(
                        f"{out_name} {out} is also the {in_name} input: writing it would "
                        f"overwrite that input; choose another path for {out_name}"
                    )

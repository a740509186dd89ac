"""Read and atomically write the baseline file: a crash never leaves half a baseline."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson
from pydantic import ValidationError

from ..errors import ConfigError, InputError, Problem, ProblemList
from ..jsonio import (
    DEFAULT_MAX_INPUT_BYTES,
    atomic_write_chunks,
    dumps_spliced,
    read_json_file,
    splice_marker,
)
from ..validation import problems_from_validation_error
from .model import BASELINE_SCHEMA_VERSION, BaselineEntry, BaselineFile, HistoryRecord

__all__ = ["baseline_lock", "load_baseline", "parse_baseline", "write_baseline"]

#: How long a run waits for another run that is writing the same baseline.
LOCK_TIMEOUT_S = 600.0


def parse_baseline(obj: Any, path: str) -> BaselineFile:
    """Validate a decoded baseline document; every problem is named by its key path."""
    if not isinstance(obj, dict):
        raise InputError.single(path, f"expected a JSON object, got {type(obj).__name__}")
    problems: list[Problem] = ProblemList()
    entries: dict[str, BaselineEntry] = {}
    history: list[HistoryRecord] = []
    meta: dict[str, Any] = {}
    version = 1
    for key, value in obj.items():
        if key == "_schema_version":
            if not isinstance(value, int) or isinstance(value, bool):
                problems.append(Problem(path, None, key, "must be an integer"))
            elif not 1 <= value <= BASELINE_SCHEMA_VERSION:
                # A version this tool does not know may mean fields it would misread.
                problems.append(
                    Problem(
                        path,
                        None,
                        key,
                        f"unknown schema version {value} (this ragspine-eval reads 1 to "
                        f"{BASELINE_SCHEMA_VERSION}; upgrade ragspine-eval or re-record the baseline)",
                    )
                )
            else:
                version = value
        elif key == "_history":
            if not isinstance(value, list):
                problems.append(Problem(path, None, key, "must be a list"))
                continue
            for index, item in enumerate(value):
                try:
                    history.append(HistoryRecord.model_validate(item, strict=True))
                except ValidationError as exc:
                    problems.extend(
                        problems_from_validation_error(
                            exc, path, None, None, f"{key}[{index}].", echo=False
                        )
                    )
        elif key.startswith("_"):
            meta[key] = value
        else:
            try:
                entries[key] = BaselineEntry.model_validate(value, strict=True)
            except ValidationError as exc:
                problems.extend(
                    # An entry that is not an object is named "tool", not "tool.(record)".
                    replace(p, field=p.field.removesuffix(".(record)")) if p.field else p
                    for p in problems_from_validation_error(
                        exc, path, None, None, f"{key}.", echo=False
                    )
                )
    if problems:
        raise InputError(problems)
    return BaselineFile(entries=entries, schema_version=version, history=history, extra_meta=meta)


def load_baseline(
    path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_INPUT_BYTES
) -> BaselineFile | None:
    """The baseline at ``path``, or None when the file does not exist yet (first run)."""
    if not Path(path).exists():
        return None
    return parse_baseline(read_json_file(path, max_bytes=max_bytes), str(path))


def _per_case_arrays(entry: dict[str, Any]) -> Iterator[tuple[dict[str, Any], str]]:
    """(container, key) of every per-case array of an entry: written on one line each."""
    for key in ("ids", "ranks"):
        if key in entry:
            yield entry, key
    for metric in entry.get("case_values", {}):
        yield entry["case_values"], metric


def encode_baseline(baseline: BaselineFile) -> bytes:
    """Indented JSON, except per-case arrays: one line each (a million cases are a few
    long lines, not millions of short ones; the metrics stay readable in a diff)."""
    data = baseline.to_json_obj()
    arrays: dict[str, list[bytes]] = {}
    for key, entry in data.items():
        if key.startswith("_") or not isinstance(entry, dict):
            continue
        for container, name in list(_per_case_arrays(entry)):
            marker = splice_marker()
            arrays[marker] = [orjson.dumps(container[name])]
            container[name] = marker
    return b"".join(dumps_spliced(data, arrays)) + b"\n"


def write_baseline(path: str | os.PathLike[str], baseline: BaselineFile) -> None:
    atomic_write_chunks(path, [encode_baseline(baseline)])


@contextmanager
def baseline_lock(
    path: str | os.PathLike[str], *, timeout_s: float = LOCK_TIMEOUT_S
) -> Iterator[None]:
    """Hold the baseline's lock from reading it to writing it back.

    Concurrent runs (a matrix of modes recording one file) each read the file, add their
    entry and replace it: without a lock the last writer drops the others' entries. The
    lock is an exclusive ``flock`` on the baseline's directory, which exists whether or
    not the file does yet and leaves no lock file behind; a second run waits, and after
    ``timeout_s`` fails with one line instead of waiting for ever.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock, as before
        yield
        return
    directory = Path(path).resolve().parent
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        yield  # an unreadable directory: the read or write will say so
        return
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise ConfigError(
                        f"baseline {path}: another ragspine-eval run has held its lock for "
                        f"{timeout_s:g} s; run the writers one after another"
                    ) from None
                time.sleep(0.05)
            except OSError:
                break  # a file system without flock: proceed unlocked, as before
        yield
    finally:
        os.close(fd)  # closing releases the lock

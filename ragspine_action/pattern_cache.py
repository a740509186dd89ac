"""The compiled form of the regular expressions a run uses, kept beside the bytecode.

Python's ``re`` compiler is Python: the ~500 patterns the gates and the reference system
compile (~420 when their modules are imported, ~80 more during a run: the meta patterns
joined, the period patterns, the knowledge base's names) cost ~0.45 s of CPU on every start
of the CLI, a third of the bundled default run (issue 25: that run within 0.5 s). What the
compiler produces for a pattern string and flags (the ``_sre`` code, the groups and their
names) is fixed for one interpreter build, as bytecode is for a source file; so it is
kept, like bytecode, in the package's ``__pycache__``, written under the same rule (not
when ``PYTHONDONTWRITEBYTECODE`` is set; ``python -m ragspine_action.pattern_cache``
writes it anyway, as ``compileall`` does), and handed back to ``re`` before the modules
compile anything: :func:`preload` puts the patterns into ``re``'s own cache, where
``re.compile`` and ``re.sub`` find them.

A pattern made from the stored code is equal to the one ``re.compile`` makes
(``Pattern.__eq__`` compares the pattern, the flags and the code; ``save`` checks each one
before storing it, tests/test_pattern_cache.py too, with the groups). The file names the
interpreter that made it; another one's file, or any surprise in ``re``'s internals, and
nothing is preloaded: every pattern is compiled as before. What is stored: the patterns
present once the run's modules are imported (:func:`mark`), and a pattern a run compiles
when the run before compiled it too (what recurs: the meta patterns, the bundled set's
document names); one a single run makes from its inputs is never written.

Beside each stored pattern the file keeps what a module derives from it once per process
(:func:`derived`: the prefixes ``gates.leading`` reads from the parsed meta patterns,
~10 ms of every run), stamped with the hash of that module's source: a changed module
derives afresh.
"""

from __future__ import annotations

import array
import importlib
import marshal
import os
import re
import sys
import unicodedata
from collections.abc import Callable
from importlib.util import cache_from_source, source_hash
from pathlib import Path
from typing import Any, TypeVar

try:  # the internals this rests on (private: any surprise and there is no cache)
    _sre: Any = importlib.import_module("_sre")
    _parser: Any = importlib.import_module("re._parser")
    _compiler: Any = importlib.import_module("re._compiler")
    _INTERNALS = (
        isinstance(getattr(re, "_cache", None), dict)
        and _sre.CODESIZE == array.array("I").itemsize == 4
    )
except (ImportError, AttributeError):  # pragma: no cover - another interpreter
    _INTERNALS = False

__all__ = ["cache_path", "derived", "mark", "preload", "save", "stored_patterns", "warm"]

_FORMAT = 2
# ``re`` keeps 512 compiled patterns and drops the oldest beyond that; the gates' own
# module patterns alone are more than that now, so ``re``'s cache is widened (a module
# global ``re._compile`` reads on each call) to hold them with room for what the process
# compiles itself.
_MAX_STORED = 1500
_RE_CACHE = _MAX_STORED + 512
if _INTERNALS and re._MAXCACHE < _RE_CACHE:  # type: ignore[attr-defined]
    re._MAXCACHE = _RE_CACHE  # type: ignore[attr-defined]
_MAX_SEEN = 1024

_Key = tuple[str, int]
_stored: dict[_Key, tuple[Any, ...]] = {}  # read from the file: key -> entry
_seen: set[_Key] = set()  # compiled by the last run, not stored
_marked: list[_Key] = []
# What modules derived from patterns: (kind, source hash, pattern, flags) -> value; read
# from the file, and made or read by this process.
_DerivedKey = tuple[str, bytes, str, int]
_derived_read: dict[_DerivedKey, Any] = {}
_derived_now: dict[_DerivedKey, Any] = {}
_source_hashes: dict[str, bytes] = {}
_T = TypeVar("_T")


def _stamp() -> tuple[Any, ...]:
    """What the stored code depends on: this interpreter and its Unicode tables."""
    return (
        _FORMAT,
        sys.version,
        sys.implementation.cache_tag,
        _sre.MAGIC,
        _sre.CODESIZE,
        sys.maxunicode,
        unicodedata.unidata_version,
    )


def cache_path() -> Path | None:
    """Beside this module's bytecode (``sys.pycache_prefix`` honoured), or None."""
    try:
        return Path(cache_from_source(__file__)).with_suffix(".patterns")
    except (NotImplementedError, ValueError):  # pragma: no cover - no bytecode cache
        return None


def _read(path: Path) -> tuple[list[tuple[Any, ...]], list[_Key], dict[_DerivedKey, Any]]:
    try:
        stamp, entries, seen, derived_values = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return [], [], {}
    if (
        stamp != _stamp()
        or not isinstance(entries, list)
        or not isinstance(seen, list)
        or not isinstance(derived_values, dict)
    ):
        return [], [], {}
    return entries, seen, derived_values


def _code_list(code: bytes) -> list[int]:
    return array.array("I", code).tolist()


def _pattern(entry: tuple[Any, ...]) -> re.Pattern[str]:
    pattern, _flags, state_flags, code, groups, groupindex, indexgroup = entry
    made: re.Pattern[str] = _sre.compile(
        pattern, state_flags, _code_list(code), groups, groupindex, indexgroup
    )
    return made


def preload(path: Path | None = None) -> int:
    """Put the stored patterns into ``re``'s cache; how many (0 without a usable file)."""
    if not _INTERNALS:
        return 0
    path = path or cache_path()
    if path is None:
        return 0
    cache: dict[Any, Any] = re._cache  # type: ignore[attr-defined]
    entries, seen, derived_values = _read(path)
    _seen.update((pattern, flags) for pattern, flags in seen)
    _derived_read.update(derived_values)
    count = 0
    for entry in entries:
        key = (str, entry[0], entry[1])
        try:
            if key not in cache and len(cache) < _MAX_STORED:
                cache[key] = _pattern(entry)
                count += 1
        except (TypeError, ValueError, RuntimeError, OverflowError):
            continue  # a damaged entry: ``re`` compiles that pattern itself
        _stored[entry[0], entry[1]] = entry
    return count


def _compiled() -> list[_Key]:
    """The text patterns in ``re``'s cache, oldest first."""
    cache: dict[Any, Any] = re._cache  # type: ignore[attr-defined]
    return [(k[1], k[2]) for k in list(cache) if k[0] is str and type(k[2]) is int]


def mark() -> None:
    """The patterns of the modules themselves: those compiled once they are imported."""
    if _INTERNALS:
        _marked[:] = _compiled()


def _source_hash(source: str) -> bytes:
    """The hash bytecode's hash-based validation uses, of the file ``source``."""
    found = _source_hashes.get(source)
    if found is None:
        try:
            with open(source, "rb") as file:
                found = source_hash(file.read())
        except OSError:
            found = b""  # no source to vouch for a stored value: always derived afresh
        _source_hashes[source] = found
    return found


def derived(
    kind: str,
    source: str,
    pattern: re.Pattern[str],
    make: Callable[[re.Pattern[str]], _T],
    valid: Callable[[Any], bool],
) -> _T:
    """``make(pattern)``, kept in the file beside the pattern's code.

    ``make`` must depend on nothing but the pattern's text and flags, this interpreter
    and the code of the file ``source`` (the module that defines it): a stored value
    is used only while that file's source hash is the same. ``valid`` checks a stored
    value's shape (anything else is made afresh); values must be ``marshal``-able.
    """
    digest = _source_hash(source)
    key = (kind, digest, pattern.pattern, pattern.flags)
    if digest and key in _derived_read and valid(_derived_read[key]):
        value: _T = _derived_read[key]
    else:
        value = make(pattern)
    if digest:
        _derived_now[key] = value
    return value


def _entry(pattern: str, flags: int) -> tuple[Any, ...]:
    """What ``re._compiler.compile`` passes to ``_sre.compile``, in storable types."""
    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return (
        pattern,
        flags,
        int(flags | parsed.state.flags),
        array.array("I", [int(op) for op in code]).tobytes(),
        parsed.state.groups - 1,
        groupindex,
        tuple(indexgroup),
    )


def save(path: Path | None = None, *, force: bool = False) -> int:
    """Store what a run's successor should find compiled; how many patterns were stored.

    Written only when that changes, never under ``PYTHONDONTWRITEBYTECODE`` unless
    ``force``; a file that cannot be written is left as it is.
    """
    if not _INTERNALS or not _marked or (sys.dont_write_bytecode and not force):
        return 0
    now = _compiled()
    keep = list(dict.fromkeys([*_marked, *(k for k in now if k in _stored or k in _seen)]))
    keep = keep[:_MAX_STORED]
    kept = set(keep)
    seen = [k for k in now if k not in kept][-_MAX_SEEN:]
    # Values derived from a stored pattern, by a module's code as it is now (when this
    # run used the module) or as it was (a value read, of a module this run never used).
    # (A compiled pattern's flags are the given ones with those the parser adds: re.U.)
    cache: dict[Any, Any] = re._cache  # type: ignore[attr-defined]
    kept_compiled: set[tuple[str, int]] = set()
    for pattern, flags in keep:
        stored = _stored.get((pattern, flags))
        compiled = cache.get((str, pattern, flags))
        if stored is not None:
            kept_compiled.add((pattern, stored[2]))
        elif compiled is not None:
            kept_compiled.add((pattern, compiled.flags))
    current = {key[0]: key[1] for key in _derived_now}
    derived_values = {
        key: value
        for key, value in {**_derived_read, **_derived_now}.items()
        if (key[2], key[3]) in kept_compiled and current.get(key[0], key[1]) == key[1]
    }
    if kept == set(_stored) and _seen.issuperset(seen) and derived_values == _derived_read:
        return 0
    path = path or cache_path()
    if path is None:
        return 0
    entries = []
    try:
        for pattern, flags in keep:
            entry = _stored.get((pattern, flags)) or _entry(pattern, flags)
            compiled = cache.get((str, pattern, flags)) or re.compile(pattern, flags)
            made = _pattern(entry)
            if made == compiled and made.groupindex == compiled.groupindex:
                entries.append(entry)
        data = marshal.dumps((_stamp(), entries, seen, derived_values))
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written whole under a name of this process's, then renamed: a reader finds the
        # old file or the new one (its mode as the umask gives, as for bytecode).
        tmp = path.with_name(f".{path.name}.{os.getpid()}")
        try:
            with open(tmp, "wb") as out:
                out.write(data)
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    except (OSError, TypeError, ValueError, RuntimeError, OverflowError, re.error):
        return 0
    _stored.clear()
    _stored.update(((e[0], e[1]), e) for e in entries)
    _seen.clear()
    _seen.update(seen)
    _derived_read.clear()
    _derived_read.update(derived_values)
    return len(entries)


def stored_patterns(path: Path | None = None) -> list[tuple[Any, ...]]:
    """The file's entries (pattern, flags, then ``_sre.compile``'s arguments); for tests."""
    path = path or cache_path()
    return [] if path is None or not _INTERNALS else _read(path)[0]


def warm() -> int:
    """Run the bundled default run and store every pattern it compiled (``-m``); how many."""
    import contextlib
    import io

    from . import cli

    with contextlib.redirect_stdout(io.StringIO()):
        cli.main(["--quiet"])
    _seen.update(_compiled())
    return save(force=True)


if __name__ == "__main__":  # pragma: no cover - exercised by the bench
    from ragspine_action import pattern_cache  # the module the CLI uses, not __main__

    print(f"{pattern_cache.warm()} patterns stored in {pattern_cache.cache_path()}")

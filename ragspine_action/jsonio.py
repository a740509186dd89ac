"""Strict JSON and JSONL reading shared by every input parser.

Strict means: UTF-8 only, no NaN/Infinity, no duplicate keys, and every problem located
by file and line so that the user never sees a traceback.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import uuid
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

import orjson

from .errors import InputError, Problem, problems_exhausted
from .input_files import check_input_file, open_input, read_input_bytes

__all__ = [
    "DEFAULT_MAX_INPUT_BYTES",
    "FileContents",
    "atomic_write_chunks",
    "atomic_write_text",
    "check_size",
    "count_keys",
    "decode_line",
    "dumps_indented",
    "dumps_spliced",
    "iter_jsonl_lines",
    "keys_proven_unique",
    "loads_fast",
    "loads_strict",
    "read_json_file",
    "read_text_file",
    "splice_marker",
]

DEFAULT_MAX_INPUT_BYTES = 2 * 1024**3


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed (use a finite number)")


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # dict() runs in C; only a size mismatch (rare) needs the search for the repeated key.
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"duplicate key {key!r}")
            seen.add(key)
    return result


#: No input of ours holds an integer beyond 64 bits; larger ones only overflow later.
MAX_JSON_INT = 2**63 - 1


def _parse_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:  # over Python's 4300-digit limit
        value = MAX_JSON_INT + 1
    if abs(value) > MAX_JSON_INT:
        raise ValueError(f"integer of {len(text)} digits is out of range (at most 2**63-1)")
    return value


_HOOKS: dict[str, Any] = {
    "parse_constant": _reject_constant,
    "object_pairs_hook": _reject_duplicates,
    "parse_int": _parse_int,
}
# One decoder for every call: json.loads with hooks builds a new JSONDecoder each time.
_STRICT_DECODER = json.JSONDecoder(**_HOOKS)


# A \uD800-\uDFFF escape: only then can a decoded string hold a lone surrogate.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


# A key token: a closing quote, optional JSON whitespace, a colon. Every key of a document
# produces one match; a match inside a string value only adds to the count.
_KEY_TOKEN = re.compile(rb'"[ \t\r\n]*:')
# Beyond 64 bits orjson reads an integer literal as a float where json keeps an int; a
# float this large (from either kind of literal) sends the document to the strict path.
_BIG_FLOAT = 2.0**63


def count_keys(obj: Any) -> int:
    """Keys of every object in the document; -1 when a number is too large to trust."""
    count = 0
    kind = type(obj)
    if kind is dict:
        count = len(obj)
        values = obj.values()
    elif kind is list:
        values = obj
    else:
        if kind is float:
            return -1 if abs(obj) >= _BIG_FLOAT else 0
        return -1 if kind is int and abs(obj) > MAX_JSON_INT else 0
    for value in values:
        kind = type(value)
        if kind is dict or kind is list:
            inner = count_keys(value)
            if inner < 0:
                return -1
            count += inner
        elif (kind is float and abs(value) >= _BIG_FLOAT) or (
            kind is int and abs(value) > MAX_JSON_INT
        ):
            return -1
    return count


# A quote followed by JSON whitespace: only then can a key hide from a `":` count.
_QUOTE_SPACE = re.compile(rb'"[ \t\r\n]')


def _colons_prove_unique(obj: Any, data: bytes) -> bool:
    """True when re-encoding ``obj`` gives back every colon of ``data``: no key was lost.

    Without escaped colons (``\\u003a`` decodes to a colon the input's count misses),
    ``data``'s colons are its key separators plus the colons inside its strings;
    orjson's compact encoding of ``obj`` writes the same strings and one separator per
    kept key. A duplicate key drops its first key and value, so the encoding has fewer
    colons. A float of 2**63 or more (which the strict parser may read as an int) is
    encoded with ``e+``. Every step runs in C: no walk over the objects. Text inside
    strings can trip the two guards too; that only sends the line to the exact count.
    """
    if b"\\" in data and b"\\u003" in data:  # one-byte search first: memchr speed
        return False
    try:
        encoded = orjson.dumps(obj)
    except orjson.JSONEncodeError:  # nesting beyond orjson's encoder limit
        return False
    if b"+" in encoded and b"e+" in encoded:
        return False
    # Maybe an int beyond 2**63 - 1: walk it. Digits mapped to NUL, then a plain substring
    # search (10x faster than the pattern ``\d{19}``, which has no literal to skip by).
    if _LONG_RUN in encoded.translate(_DIGITS_AS_NUL):
        return False
    return encoded.count(b":") == data.count(b":")


# 19 digits in a row: the shortest integer literal that can exceed 2**63 - 1. ASCII
# digits become NUL and every other byte 0x01, so the run is 19 NULs.
_DIGITS_AS_NUL = bytes(0 if 0x30 <= b <= 0x39 else 1 for b in range(256))
_LONG_RUN = b"\x00" * 19


def loads_fast(data: bytes) -> Any:
    """orjson's parse when it is provably what ``loads_strict`` returns, else ``None``.

    orjson already refuses NaN/Infinity, lone surrogates and invalid UTF-8 (the strict
    parser then names the problem), but keeps the last of duplicate keys. A document
    has no duplicate key when its parsed key count (``count_keys``, which also refuses
    numbers beyond 64 bits) equals a count that can only be higher: its colons, or its
    ``":`` pairs (``keys_proven_unique``); or when its re-encoding has all its colons;
    or its key tokens. ``None`` for ``null`` too: the strict path decides that document.
    The walk comes first: re-encoding a string that is not ASCII costs more than walking
    a small record (~1.4 µs against ~4 µs a golden line of the benchmark).
    """
    if data.startswith(b"\xef\xbb\xbf"):
        return None
    try:
        obj = orjson.loads(data)
    except orjson.JSONDecodeError:
        return None
    if obj is None:
        return None
    keys = count_keys(obj)
    if keys < 0:
        return None
    if keys_proven_unique(data, keys) or _colons_prove_unique(obj, data):
        return obj
    if keys == len(_KEY_TOKEN.findall(data)):
        return obj
    return None


def keys_proven_unique(data: bytes, keys: int) -> bool:
    """Whether a line whose parse holds ``keys`` keys (``count_keys``, or a count made
    while walking it) repeats none, by counts in C (no re-encoding, no walk).

    Every key token of the line is followed by its own colon, and strings can only add
    colons: so as many colons as keys proves it. Else (colons in the text) the same with
    ``":`` pairs, when every key token is one such pair: when every colon follows a quote,
    or no quote is followed by whitespace (``"key" :`` would hide a key from the count).
    """
    if keys < 0:
        return False
    colons = data.count(b":")
    if colons == keys:
        return True
    pairs = data.count(b'":')
    return pairs == keys and (colons == pairs or _QUOTE_SPACE.search(data) is None)


def dumps_indented(obj: Any) -> bytes:
    """Two-space indented JSON (orjson; json for what orjson refuses: ints beyond 64 bits)."""
    try:
        return orjson.dumps(obj, option=orjson.OPT_INDENT_2)
    except TypeError:
        return json.dumps(obj, indent=2, ensure_ascii=False).encode("utf-8")


# A placeholder string that dumps_spliced replaces by raw bytes (uuid4: never user text).
_SPLICE = re.compile(rb'"(ragspine-splice-[0-9a-f]{32})"')


def splice_marker() -> str:
    """A fresh placeholder for ``dumps_spliced``."""
    return f"ragspine-splice-{uuid.uuid4().hex}"


_Piece = TypeVar("_Piece")


def dumps_spliced(data: Any, splices: Mapping[str, Iterable[_Piece]]) -> Iterator[bytes | _Piece]:
    """``dumps_indented(data)`` with each placeholder string replaced by its pieces
    (bytes, or ``FileContents`` for ``atomic_write_chunks``).

    Lets a writer indent a document for people while a large part of it (a million
    cases, a per-case array) is encoded compactly or streamed. Text that merely looks
    like a placeholder stays as it was.
    """
    pieces = _SPLICE.split(dumps_indented(data))
    yield pieces[0]
    for found, rest in zip(pieces[1::2], pieces[2::2], strict=True):
        splice = splices.get(found.decode())
        if splice is None:
            yield b'"' + found + b'"'
        else:
            yield from splice
        yield rest


def loads_strict(text: str | bytes) -> Any:
    """``json.loads`` that refuses NaN/Infinity, duplicate keys and lone surrogates.

    Raises ValueError. A lone surrogate (``"\\ud800"``) decodes to a str that cannot be
    written as UTF-8, so it would crash the report writer long after parsing.
    """
    if isinstance(text, bytes):
        fast = loads_fast(text)
        if fast is not None:
            return fast
        # json.loads would decode bytes with "surrogatepass": raw surrogate bytes (ED A0 80)
        # would become lone surrogates that no UTF-8 writer can write. Strict UTF-8 first.
        text = text.decode("utf-8").removeprefix("\ufeff")
    if not text.startswith("\ufeff"):
        obj = _STRICT_DECODER.decode(text)
    else:  # the BOM message: json.loads's own handling
        obj = json.loads(text, **_HOOKS)
    if _SURROGATE_ESCAPE.search(text) is not None:
        try:
            json.dumps(obj, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("a \\u escape is a lone surrogate, not a Unicode character") from None
    return obj


def _describe_json_error(exc: ValueError | RecursionError) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"invalid JSON: {exc.msg} (column {exc.colno})"
    if isinstance(exc, RecursionError):
        return "invalid JSON: nested too deeply"
    return f"invalid JSON: {exc}"


def check_size(path: str | os.PathLike[str], max_bytes: int) -> None:
    """Refuse anything but a regular file within the input limit, before reading it."""
    check_input_file(path, max_bytes)


def starts_with_array(path: str | os.PathLike[str]) -> bool:
    """Whether a file opens with ``[``: a JSON array given where JSONL is read (a hint)."""
    with open_input(path, DEFAULT_MAX_INPUT_BYTES) as handle:  # never a FIFO or a device
        head = handle.read(4096)
    return head.removeprefix(b"\xef\xbb\xbf").lstrip()[:1] == b"["


def array_hint(what: str, name: str) -> str:
    """The one-line message for a JSON array where JSONL is read (``what`` says so)."""
    return (
        f"is a JSON array, but {what} JSONL: one JSON object per line "
        f"(convert it with: jq -c '.[]' FILE > {name})"
    )


def _read_bytes(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    return read_input_bytes(path, max_bytes)


def _decode_file(name: str, data: bytes) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError.single(
            name, f"not valid UTF-8 (byte {exc.start} of the file)", line=line
        ) from None
    return text.removeprefix("\ufeff")


def read_text_file(
    path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_INPUT_BYTES
) -> str:
    """Read a whole UTF-8 file, turning every OS or decoding problem into an InputError."""
    return _decode_file(str(path), _read_bytes(path, max_bytes))


def read_json_file(
    path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_INPUT_BYTES
) -> Any:
    """Read one strict JSON document; errors name the file and line."""
    data = _read_bytes(path, max_bytes)
    fast = loads_fast(data)
    if fast is not None:
        return fast
    text = _decode_file(str(path), data)
    del data
    try:
        return loads_strict(text)
    except json.JSONDecodeError as exc:
        raise InputError.single(str(path), _describe_json_error(exc), line=exc.lineno) from None
    except (ValueError, RecursionError) as exc:
        raise InputError.single(str(path), f"invalid JSON: {exc}") from None


def _iter_byte_lines(
    path: str | os.PathLike[str], max_bytes: int
) -> Iterator[tuple[int, bytes, int]]:
    """Stream a file as ``(line number, raw line, byte offset)``, split on ``\\n`` only.

    Streaming keeps a 1 GB outcomes file from being held twice (text plus split lines).
    """
    offset = 0
    with open_input(path, max_bytes) as handle:
        for number, data in enumerate(handle, start=1):
            offset += len(data)
            if offset > max_bytes:  # a file that grows, or one in /proc that said 0 bytes
                raise InputError.single(str(path), f"file is over the limit of {max_bytes} bytes")
            yield number, data, offset - len(data)


def decode_line(name: str, number: int, data: bytes, offset: int) -> str:
    """One raw line as text (the BOM of line 1 dropped); bad UTF-8 is a located InputError."""
    try:
        line = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError.single(
            name, f"not valid UTF-8 (byte {offset + exc.start} of the file)", line=number
        ) from None
    return line.removeprefix("\ufeff") if number == 1 else line


def iter_jsonl_lines(
    path: str | os.PathLike[str],
    problems: list[Problem],
    *,
    max_bytes: int = DEFAULT_MAX_INPUT_BYTES,
) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_number, parsed_object)`` for each non-blank line.

    Lines that are not JSON are recorded in ``problems`` and skipped, so a caller can
    report every problem of a file at once. An empty file is a problem too. Most lines
    take orjson's fast parse; any line it cannot vouch for takes the strict parser.
    """
    name = str(path)
    seen_any = False
    for number, data, offset in _iter_byte_lines(path, max_bytes):
        if problems_exhausted(problems):  # the caller's problems count too
            return
        obj = loads_fast(data)
        if obj is not None:
            seen_any = True
            yield number, obj
            continue
        raw = decode_line(name, number, data, offset)
        if not raw.strip():
            continue
        seen_any = True
        try:
            obj = loads_strict(raw)
        except (ValueError, RecursionError) as exc:
            problems.append(Problem(name, number, None, _describe_json_error(exc)))
            continue
        yield number, obj
    if not seen_any:
        problems.append(
            Problem(name, None, None, "file is empty: expected one JSON object per line")
        )


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write via a temp file in the same directory, fsync, then rename over the target."""
    atomic_write_chunks(path, [text.encode("utf-8")])


@dataclass(frozen=True)
class FileContents:
    """A file's whole contents as one piece of ``atomic_write_chunks``' output: copied by
    the kernel (``copy_file_range``), not read into Python and written back. The report's
    case lines, which the workers wrote to files, are ~1 KB a case: through Python the
    copy took ~0.3 s per 100 MB here, in the kernel ~0.03 s."""

    path: str


def _copy_file_into(path: str, handle: BinaryIO) -> None:
    """Append ``path``'s bytes to ``handle`` (flushed first), in the kernel when it can."""
    handle.flush()
    with open(path, "rb") as source:
        remaining = os.fstat(source.fileno()).st_size
        try:
            while remaining > 0:
                copied = os.copy_file_range(source.fileno(), handle.fileno(), remaining)
                if copied == 0:
                    break
                remaining -= copied
        except (AttributeError, OSError):  # no such call, another file system, …
            pass
        # What the kernel did not copy (if anything), through Python, from where it stopped.
        shutil.copyfileobj(source, handle, _COPY_BYTES)
    handle.flush()


_COPY_BYTES = 8 * 1024 * 1024


def atomic_write_chunks(
    path: str | os.PathLike[str], chunks: Iterable[bytes | FileContents]
) -> None:
    """``atomic_write_text`` for output made piece by piece (a million-case report); a
    ``FileContents`` piece is that file's bytes."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        # mkstemp makes 0600 files; keep the target's mode, or the usual umask default.
        try:
            mode = target.stat().st_mode & 0o777
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        with os.fdopen(fd, "wb") as handle:
            for chunk in chunks:
                if isinstance(chunk, FileContents):
                    _copy_file_into(chunk.path, handle)
                else:
                    handle.write(chunk)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise

"""The orjson fast path must never accept what the strict parser refuses, nor read a
document differently: each case here is one the fast path must hand to the strict one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine_action.errors import InputError
from ragspine_action.jsonio import (
    FileContents,
    atomic_write_chunks,
    iter_jsonl_lines,
    loads_fast,
    loads_strict,
)


@pytest.mark.parametrize(
    "raw",
    [
        b'{"a": 1, "a": 2}',
        b'{"a" : 1, "a": 2}',  # whitespace before the colon hides a key from a naive count
        b'{"a"\t:1,"b":{"c":1,"c":2}}',
        b'{"s": "x:y", "a": 1, "a": 2}',  # a colon in a string must not balance a duplicate
        b'[{"k": 1}, {"k": 1, "k": 2}]',
        b'{"n": NaN}',
        b'{"n": Infinity}',
        b'"\\ud800"',
        b'{"big": 123456789012345678901234567890}',  # json: int; orjson: float
        b'{"a": [1, {"b": -12345678901234567890}]}',
        b'{"f": 1e19}',  # a float that large is sent to the strict path too
        b'{"q": "say \\"hi\\" now", "a": 1, "a": 2}',  # escaped quote then a space
        b"\xef\xbb\xbf{}",
        b"\xff{}",
        b"",
        b"null",
    ],
)
def test_fast_path_declines_what_only_the_strict_parser_may_decide(raw: bytes) -> None:
    assert loads_fast(raw) is None


@pytest.mark.parametrize(
    "raw",
    [
        b'{"id": "a", "answer": "Source: DOC_1.pdf", "sources": [{"doc": "d", "locator": "p=1"}]}',
        b'{"a": {"b": [1, 2.5, {"c": "\\u00e9:"}]}, "d": true}',
        b'{"x" : 1, "y":2}',
        b"[1, 2, 3]",
        b'{"neg": -0.0, "e": 1e-7, "i": 9223372036854775}',
    ],
)
def test_fast_path_equals_the_standard_parser(raw: bytes) -> None:
    fast = loads_fast(raw)
    assert fast is not None
    assert fast == json.loads(raw)
    assert json.dumps(fast) == json.dumps(json.loads(raw))  # same types (int vs float)
    assert loads_strict(raw) == fast


def test_duplicate_key_in_a_jsonl_line_is_still_a_located_problem(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "o.jsonl"
    path.write_bytes(b'{"id": "a"}\n{"id" : "b", "id": "c"}\n')
    problems: list = []  # type: ignore[type-arg]
    got = list(iter_jsonl_lines(path, problems))
    assert got == [(1, {"id": "a"})]
    assert [(p.line, "duplicate key 'id'" in p.message) for p in problems] == [(2, True)]


def test_bad_utf8_line_is_still_a_located_input_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "o.jsonl"
    path.write_bytes(b'{"id": "a"}\n{"id": "\xff"}\n')
    with pytest.raises(InputError) as info:
        list(iter_jsonl_lines(path, []))
    assert str(info.value).endswith("o.jsonl:2: not valid UTF-8 (byte 20 of the file)")


def test_indented_dump_survives_integers_beyond_64_bits() -> None:
    from ragspine_action.jsonio import dumps_indented

    assert json.loads(dumps_indented({"grade": 2**70, "é": [1.5]})) == {"grade": 2**70, "é": [1.5]}
    assert dumps_indented({"a": [1]}) == b'{\n  "a": [\n    1\n  ]\n}'


@pytest.mark.parametrize(
    "raw",
    [
        b'{"a":1,"a":"\\u003a"}',  # an escaped colon would balance the dropped key
        b'{"a":1,"a":"\\u003A:"}',
        b'{"a":"x:y","a":"x:y"}',
        b'{"k":{"a":1},"k":{"a":1}}',
        b'{"a":[{"b":1,"c":{"d":1,"d":1}}]}',
        b'{"a":1,"b":9223372036854775808}',  # 2**63: a u64 for orjson, an int for json
        b'{"x":1,"x":2}' + b" " * 3,
    ],
)
def test_colon_proof_never_vouches_for_a_duplicate_or_a_big_number(raw: bytes) -> None:
    fast = loads_fast(raw)
    try:
        strict = loads_strict(raw.decode())
    except ValueError:
        assert fast is None
        return
    assert fast is None or json.dumps(fast) == json.dumps(strict)


_json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(alphabet=st.sampled_from('ab:"\\\u00e9 \n{}'), max_size=6),
)
_keys = st.text(alphabet=st.sampled_from('ab:"\\ '), max_size=3)


@st.composite
def _documents(draw: st.DrawFn, depth: int = 0) -> str:
    """A JSON text, written out pair by pair so that objects may repeat a key."""
    kind = draw(st.sampled_from(("scalar", "list", "object")) if depth < 3 else st.just("scalar"))
    if kind == "scalar":
        return json.dumps(draw(_json_scalars), ensure_ascii=draw(st.booleans()))
    items = draw(st.lists(_documents(depth + 1), max_size=4))
    if kind == "list":
        return "[" + ",".join(items) + "]"
    keys = draw(st.lists(_keys, min_size=len(items), max_size=len(items)))
    sep = draw(st.sampled_from((":", ": ", " : ")))
    pairs = [
        json.dumps(k, ensure_ascii=draw(st.booleans())) + sep + v
        for k, v in zip(keys, items, strict=True)
    ]
    return "{" + ",".join(pairs) + "}"


@settings(max_examples=400, deadline=None)
@given(_documents())
def test_fast_path_agrees_with_the_strict_parser_on_any_document(text: str) -> None:
    raw = text.encode()
    fast = loads_fast(raw)
    try:
        strict = loads_strict(text)
    except ValueError:
        assert fast is None
        return
    if fast is not None:
        assert json.dumps(fast) == json.dumps(strict)  # same keys, values and types


def test_orjson_writes_every_float_of_2_63_or_more_with_an_exponent() -> None:
    """The colon proof relies on it to send such numbers to the exact check."""
    import orjson

    for exponent in range(63, 1024):
        for mantissa in (1.0, 1.5, 1.9999999999999998):
            assert b"e+" in orjson.dumps(mantissa * 2.0**exponent)
            assert b"e+" in orjson.dumps(-mantissa * 2.0**exponent)


def _pieces(tmp_path: Path) -> tuple[list[bytes | FileContents], bytes]:
    files = []
    for i, size in enumerate([0, 1, 70_000, 3]):
        part = tmp_path / f"part{i}"
        part.write_bytes(bytes((i + j) % 251 for j in range(size)))
        files.append(part)
    pieces: list[bytes | FileContents] = [b"head[", FileContents(str(files[0]))]
    pieces += [b",", FileContents(str(files[2])), FileContents(str(files[1])), b"]"]
    pieces += [FileContents(str(files[3])), b"tail\n"]
    expected = b"".join(p if isinstance(p, bytes) else Path(p.path).read_bytes() for p in pieces)
    return pieces, expected


def test_file_contents_are_spliced_in_order(tmp_path: Path) -> None:
    pieces, expected = _pieces(tmp_path)
    atomic_write_chunks(tmp_path / "out.json", pieces)
    assert (tmp_path / "out.json").read_bytes() == expected


@pytest.mark.parametrize("failure", ["missing", "refused", "refused later", "short"])
def test_file_contents_are_copied_when_the_kernel_will_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    """No copy_file_range (not Linux), EXDEV (another file system) at once or after a
    first block, a copy that stops early: the rest goes through Python, from where the
    kernel stopped."""
    import errno
    import os

    real = getattr(os, "copy_file_range", None)
    calls = []

    def copy(src: int, dst: int, count: int) -> int:
        calls.append(count)
        if failure == "refused" or (failure == "refused later" and len(calls) > 1):
            raise OSError(errno.EXDEV, "cross-device")
        assert real is not None
        copied: int = real(src, dst, min(count, 1000))
        return 0 if failure == "short" and len(calls) > 1 else copied

    if failure == "missing":
        monkeypatch.delattr(os, "copy_file_range", raising=False)
    else:
        if real is None:
            pytest.skip("no copy_file_range here")
        monkeypatch.setattr(os, "copy_file_range", copy)
    pieces, expected = _pieces(tmp_path)
    atomic_write_chunks(tmp_path / "out.json", pieces)
    assert (tmp_path / "out.json").read_bytes() == expected

"""The orjson fast path must never accept what the strict parser refuses, nor read a
document differently: each case here is one the fast path must hand to the strict one."""

from __future__ import annotations

import json

import pytest

from ragspine_action.errors import InputError
from ragspine_action.jsonio import iter_jsonl_lines, loads_fast, loads_strict


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

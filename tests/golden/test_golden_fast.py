"""The fast golden builder gives exactly what pydantic gives, or steps aside; its key
count proves a line only when the strict parser reads the same record."""

from __future__ import annotations

from datetime import date
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st
from model_state import assert_proof_agrees, model_state
from pydantic import ValidationError

from ragspine_action.golden.fast import golden_case_and_keys
from ragspine_action.golden.load import case_digest, golden_keys_known
from ragspine_action.golden.models import GoldenCase
from ragspine_action.jsonio import keys_proven_unique

_state = model_state


def _pydantic(obj: Any) -> GoldenCase | None:
    try:
        return GoldenCase.model_validate(obj)
    except ValidationError:
        return None


_odd = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**64), max_value=2**64),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=3),
    st.lists(st.text(max_size=2), max_size=2),
    st.dictionaries(st.sampled_from(["doc", "locator", "x"]), st.text(max_size=2), max_size=2),
)
_expected = st.fixed_dictionaries(
    {},
    optional={
        "value": st.one_of(st.floats(), st.integers(), _odd),
        "unit": st.one_of(st.text(max_size=3), _odd),
        "refuse": st.one_of(st.booleans(), _odd),
        "source": st.one_of(
            st.fixed_dictionaries(
                {"doc": st.one_of(st.text(max_size=3), _odd)},
                optional={"locator": st.one_of(st.text(max_size=3), _odd), "locatr": st.none()},
            ),
            _odd,
        ),
        "narrative_doc": st.one_of(st.text(max_size=3), _odd),
        "relevant_docs": st.one_of(
            st.lists(st.text(max_size=3), max_size=3),
            st.dictionaries(st.text(max_size=3), st.integers(1, 3), max_size=3),
            st.lists(st.one_of(st.text(max_size=3), _odd), max_size=3),
            st.dictionaries(
                st.text(max_size=3),
                st.one_of(st.integers(-1, 2**31 + 1), st.booleans(), _odd),
                max_size=3,
            ),
            _odd,
        ),
        "reference_answer": st.one_of(st.text(max_size=5), _odd),
        "clarification": st.one_of(
            st.sampled_from(["none", "ask_first", "out_of_scope_entity", "ask"]), _odd
        ),
        "extra": st.integers(),
    },
)
_fields: dict[str, st.SearchStrategy[Any]] = {
    "id": st.one_of(st.text(max_size=3), _odd),
    "question": st.one_of(st.text(max_size=6), _odd),
    "case_type": st.one_of(
        st.sampled_from(["numeric", "narrative", "retrieval", "refusal", "numerc"]), _odd
    ),
    "expected": st.one_of(_expected, _odd),
    "tags": st.one_of(
        st.dictionaries(
            st.text(max_size=3), st.one_of(st.text(max_size=3), st.integers(), st.none())
        ),
        _odd,
    ),
    "reference_date": st.one_of(
        st.dates().map(date.isoformat),
        st.sampled_from(["2025-13-01", "2025-02-30", "0000-01-01", "2025-1-01", "２０２５-01-01"]),
        _odd,
    ),
    "notes": _odd,
}


@st.composite
def _golden_dicts(draw: st.DrawFn) -> dict[str, Any]:
    names = draw(st.lists(st.sampled_from(sorted(_fields)), unique=True, max_size=7))
    obj = {name: draw(_fields[name]) for name in names}
    if draw(st.booleans()):
        obj["id"] = draw(st.text(min_size=1, max_size=3))
        obj["question"] = draw(st.text(min_size=1, max_size=4))
        obj["case_type"] = draw(st.sampled_from(["numeric", "narrative", "retrieval"]))
    return obj


# Near-valid records: each field valid or just over an edge (empty names, grade bounds,
# integers beyond a float's exact range, impossible dates), so that most records validate.
_near_expected = st.fixed_dictionaries(
    {},
    optional={
        "value": st.one_of(
            st.floats(allow_nan=False, allow_infinity=False),
            st.integers(-(2**54), 2**54),
            st.sampled_from([2**53, 2**53 + 1, 2.0**63, -(2.0**63), 1e300]),
        ),
        "unit": st.text(max_size=2),
        "refuse": st.booleans(),
        "source": st.fixed_dictionaries(
            {"doc": st.text(max_size=2)}, optional={"locator": st.text(max_size=2)}
        ),
        "narrative_doc": st.text(max_size=2),
        "relevant_docs": st.one_of(
            st.lists(st.text(max_size=2), max_size=3),
            st.dictionaries(
                st.text(max_size=2),
                st.sampled_from([1, 1, 2, 2**31 - 1, 0, 2**31]),
                min_size=1,
                max_size=2,
            ),
        ),
        "reference_answer": st.text(max_size=2),
        "clarification": st.sampled_from(
            ["none", "ask_first", "answer_with_assumptions", "out_of_scope_entity"]
        ),
    },
)
_near_golden = st.fixed_dictionaries(
    {
        "id": st.text(max_size=2),
        "question": st.text(max_size=3),
        "case_type": st.sampled_from(
            ["numeric", "clarification", "refusal", "narrative", "composite", "retrieval"]
        ),
    },
    optional={
        "expected": _near_expected,
        "tags": st.dictionaries(st.text(max_size=2), st.text(max_size=2), max_size=3),
        "reference_date": st.one_of(
            st.none(), st.dates().map(date.isoformat), st.sampled_from(["2025-02-29"])
        ),
    },
)


@settings(max_examples=2000, deadline=None)
@given(st.one_of(_golden_dicts(), _near_golden))
def test_fast_golden_case_is_pydantic_s_or_steps_aside(obj: dict[str, Any]) -> None:
    built = golden_case_and_keys(obj)
    strict = _pydantic(obj)
    if built is None:
        return
    fast = built[0]
    assert strict is not None, obj
    assert golden_keys_known(obj)
    assert _state(fast) == _state(strict)
    assert fast == strict
    assert fast.model_dump() == strict.model_dump()
    assert fast.model_dump(exclude_unset=True) == strict.model_dump(exclude_unset=True)
    assert case_digest(fast) == case_digest(strict)
    assert fast.relevance() == strict.relevance()


def test_the_benchmark_s_shapes_are_built_without_pydantic() -> None:
    """Every shape of a real golden file takes the fast builder (and equals pydantic's)."""
    lines = [
        b'{"id": "ref-1", "question": "Q?", "case_type": "refusal", "expected": '
        b'{"refuse": true}, "tags": {"topic": "OPS", "lang": "en"}}',
        b'{"id": "com-1", "question": "Q?", "case_type": "composite", "expected": {"value": '
        b'11576.9, "unit": "USD_M", "source": {"doc": "D.pptx", "locator": "slide=6"}, '
        b'"narrative_doc": "N.pdf", "reference_answer": "R."}, "tags": {"topic": "SALES"}}',
        b'{"id": "ret-1", "question": "Q?", "case_type": "retrieval", "expected": '
        b'{"relevant_docs": ["D.pdf"]}, "tags": {}, "reference_date": "2026-06-12"}',
        b'{"id": "ret-2", "question": "Q?", "case_type": "retrieval", "expected": '
        b'{"relevant_docs": {"D.pdf": 2, "E.pdf": 1}}}',
        b'{"id": "num-1", "question": "Q?", "case_type": "numeric", "expected": {"value": 5, '
        b'"unit": "pct", "source": {"doc": "D.pdf"}}, "reference_date": null}',
        b'{"id": "cla-1", "question": "Q?", "case_type": "clarification"}',
    ]
    for line in lines:
        obj = orjson.loads(line)
        built = golden_case_and_keys(obj)
        assert built is not None, line
        assert keys_proven_unique(line, built[1]), line
        assert _state(built[0]) == _state(GoldenCase.model_validate(obj))


def test_fast_golden_case_steps_aside_for_what_pydantic_must_judge() -> None:
    declined: tuple[Any, ...] = (
        {"id": "x", "question": "q", "case_type": "numeric", "note": 1},  # unknown: typo check
        {"id": "x", "question": "q", "case_type": "numeric", "tags": {"year": 2025}},
        {"id": "x", "question": "q", "case_type": "numeric", "expected": {"value": True}},
        {"id": "x", "question": "q", "case_type": "numeric", "expected": {"value": 2**60}},
        {"id": "x", "question": "q", "case_type": "numeric", "expected": {"value": 1e300}},
        {"id": "x", "question": "q", "case_type": "numeric", "expected": None},
        {"id": "x", "question": "q", "case_type": "numeric", "reference_date": "2025-13-01"},
        {"id": "x", "question": "q", "case_type": "numeric", "reference_date": "20250101"},
        {"id": "x", "question": "q", "case_type": "retrieval", "expected": {"relevant_docs": [""]}},
        {"id": "x", "question": "q", "case_type": "numeric", "expected": {"unit": ""}},
        {"id": "x", "question": "q", "case_type": "numeric", "expected": {"source": {"doc": 1}}},
        {"id": "x", "question": "q", "case_type": "numeric", "expected": {"clarification": None}},
        {"id": "", "question": "q", "case_type": "numeric"},
        {"id": "x", "question": "", "case_type": "numeric"},
        {"id": "x", "question": "q", "case_type": "numerc"},
        ["not", "a", "dict"],
    )
    for obj in declined:
        assert golden_case_and_keys(obj) is None, obj
    for grades in ({"": 1}, {"d": 0}, {"d": 2**31}, {"d": True}, {"d": 1.0}):
        obj = {"id": "x", "question": "q", "case_type": "retrieval"}
        obj["expected"] = {"relevant_docs": grades}
        assert golden_case_and_keys(obj) is None and _pydantic(obj) is None, grades


_pair_values = {
    "id": st.sampled_from(['"a"', '"b"', '""', "1"]),
    "question": st.sampled_from(['"q"', '"say \\"hi\\": yes"', '"a:b"', '"x"']),
    "case_type": st.sampled_from(['"numeric"', '"retrieval"']),
    "expected": st.sampled_from(
        [
            '{"value": 1, "unit": "u", "source": {"doc": "d"}}',
            '{"value": 99999999999999999999, "unit": "u"}',
            '{"value": 9223372036854775808}',
            '{"value": 1e20}',
            '{"unit": "u", "unit": "v"}',
            '{"source": {"doc": "d", "doc": "e"}}',
            '{"relevant_docs": {"d": 1, "d": 2}}',
            '{"relevant_docs": ["d", "e"]}',
            '{"reference_answer": "a\\": b"}',
        ]
    ),
    "tags": st.sampled_from(['{"k": "v"}', '{"k": "v", "k": "w"}', "{}", '{"a:b": "c"}']),
    "reference_date": st.sampled_from(['"2026-01-02"', "null"]),
}


@st.composite
def _golden_lines(draw: st.DrawFn) -> bytes:
    names = draw(st.lists(st.sampled_from(sorted(_pair_values)), min_size=1, max_size=7))
    names[:0] = ["id", "question", "case_type"]
    sep = draw(st.sampled_from([": ", ":", " : ", ":\t"]))
    pairs = [f'"{name}"{sep}{draw(_pair_values[name])}' for name in names]
    return ("{" + ", ".join(pairs) + "}\n").encode()


@settings(max_examples=800, deadline=None)
@given(_golden_lines())
def test_counted_keys_prove_a_golden_line_as_the_strict_parser_reads_it(raw: bytes) -> None:
    """When the builder's key count proves a line, the strict parser reads the same record
    (no duplicate key hidden, no number beyond 64 bits let through)."""
    assert_proof_agrees(raw, golden_case_and_keys, GoldenCase)


def test_counted_keys_catch_duplicates_in_a_golden_line() -> None:
    head = b'{"id": "a", "question": "q", "case_type": "numeric", '
    for tail in (
        b'"id": "a"}',
        b'"expected": {"unit": "u", "unit": "u"}}',
        b'"expected": {"source": {"doc": "d", "doc": "d"}}}',
        b'"expected": {"relevant_docs": {"d": 1, "d": 1}}}',
        b'"tags": {"k": "v", "k": "v"}}',
        b'"tags": {"k": "a:b", "k" : "c"}}',
    ):
        raw = head + tail
        built = golden_case_and_keys(orjson.loads(raw))
        assert built is None or not keys_proven_unique(raw, built[1]), raw

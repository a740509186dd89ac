"""The fast record builders give exactly what pydantic gives, or step aside."""

from __future__ import annotations

from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st
from model_state import assert_proof_agrees, model_state
from pydantic import ValidationError

from ragspine_action.golden.load import _case_json, case_digest, golden_keys_known, typo_fields
from ragspine_action.golden.models import GoldenCase
from ragspine_action.jsonio import keys_proven_unique
from ragspine_action.outcomes.fast import outcome_and_keys, outcome_from_dict
from ragspine_action.outcomes.load import parse_outcome
from ragspine_action.outcomes.model import Outcome

_state = model_state


def _pydantic(obj: Any) -> Outcome | None:
    try:
        return Outcome.model_validate(obj)
    except ValidationError:
        return None


_odd = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**64), max_value=2**64),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=4),
    st.lists(st.text(max_size=3), max_size=2),
    st.dictionaries(st.sampled_from(["doc", "locator", "x"]), st.text(max_size=3), max_size=3),
)
_source = st.one_of(
    st.text(max_size=5),
    st.fixed_dictionaries(
        {"doc": st.text(max_size=5)},
        optional={"locator": st.one_of(st.text(max_size=5), st.none()), "note": st.integers()},
    ),
    _odd,
)
_fields: dict[str, st.SearchStrategy[Any]] = {
    "id": st.one_of(st.text(max_size=4), _odd),
    "answer": st.one_of(st.text(max_size=20), _odd),
    "clarification": st.one_of(
        st.sampled_from(["none", "ask_first", "answer_with_assumptions", "out_of_scope_entity"]),
        _odd,
    ),
    "refused": st.one_of(st.booleans(), _odd),
    "value": st.one_of(st.floats(allow_nan=False), st.integers(), _odd),
    "unit": st.one_of(st.text(max_size=4), _odd),
    "source": _source,
    "sources": st.one_of(st.lists(_source, max_size=4), _odd),
    "contexts": st.one_of(st.lists(st.text(max_size=10), max_size=3), _odd),
    "narrative_answer": st.one_of(st.just(""), st.text(max_size=10), _odd),
    "error": st.one_of(st.text(max_size=6), st.dictionaries(st.text(max_size=2), st.integers())),
    "latency_ms": st.one_of(st.floats(), st.integers(), _odd),
    "repeat": st.one_of(st.integers(min_value=-3), _odd),
    # RAGSpine's names and unknown keys
    "case_id": st.text(max_size=4),
    "found_value": st.floats(allow_nan=False),
    "route": st.text(max_size=4),
    "notes": _odd,
}


@st.composite
def _outcome_dicts(draw: st.DrawFn) -> dict[str, Any]:
    names = draw(st.lists(st.sampled_from(sorted(_fields)), unique=True, max_size=9))
    obj = {name: draw(_fields[name]) for name in names}
    if draw(st.booleans()):
        obj["id"] = draw(st.text(min_size=1, max_size=4))
    return obj


@settings(max_examples=1500, deadline=None)
@given(_outcome_dicts())
def test_fast_outcome_is_pydantic_s_or_steps_aside(obj: dict[str, Any]) -> None:
    fast = outcome_from_dict(obj)
    strict = _pydantic(obj)
    if fast is not None:
        assert strict is not None, obj
        assert _state(fast) == _state(strict)
        assert fast == strict
        assert fast.model_dump() == strict.model_dump()
        assert fast.model_dump(exclude_unset=True) == strict.model_dump(exclude_unset=True)
    assert _state(parse_outcome(obj)) == _state(strict) if strict is not None else True


@settings(max_examples=800, deadline=None)
@given(_outcome_dicts())
def test_the_docs_the_builder_reads_are_the_sources_docs(obj: dict[str, Any]) -> None:
    """``outcome_and_keys(obj, docs)``: the scorer's ranked doc ids, read while walking,
    are ``[s.doc for s in outcome.sources]`` (warm cache: the second walk hits it)."""
    for _ in range(2):
        docs: list[str] = []
        built = outcome_and_keys(obj, docs)
        if built is None:
            return
        assert docs == [source.doc for source in built[0].sources]
        assert outcome_and_keys(obj) == built  # the count and the record do not change


def test_fast_outcome_takes_the_plain_shape() -> None:
    """The shape of a real outcomes file is built without pydantic (and equals it)."""
    plain = orjson.loads(
        b'{"id": "n-1", "latency_ms": 300, "value": 11576.9, "unit": "USD_M", '
        b'"source": {"doc": "D.pptx", "locator": "slide=6"}, "answer": "It was 11,576.9.", '
        b'"sources": [{"doc": "D.pptx", "locator": ""}, "E.pdf", {"doc": "F.pdf"}], '
        b'"contexts": ["A passage."], "narrative_answer": "", "refused": false, '
        b'"clarification": "none", "trace": {"route": "x"}}'
    )
    fast = outcome_from_dict(plain)
    assert fast is not None
    assert _state(fast) == _state(Outcome.model_validate(plain))
    assert fast.latency_ms == 300.0 and isinstance(fast.latency_ms, float)
    out_of_scope = {"id": "x", "clarification": "out_of_scope_entity"}
    fast = outcome_from_dict(out_of_scope)
    assert fast is not None and fast.refused and "refused" in fast.model_fields_set
    assert _state(fast) == _state(Outcome.model_validate(out_of_scope))


def test_fast_outcome_steps_aside_for_what_pydantic_must_judge() -> None:
    declined: tuple[Any, ...] = (
        {"id": "x", "case_id": "x"},  # RAGSpine's names: renamed and compared by the model
        {"id": "x", "error": {"code": 1}},  # an error object is flattened by the model
        {"id": "x", "value": True},
        {"id": "x", "value": 2**60},  # not exactly a float
        {"id": "x", "repeat": -1},
        {"id": "x", "latency_ms": -0.5},
        {"id": "x", "sources": None},
        {"id": "x", "source": {"doc": "a", "locator": None}},
        {"id": ""},
        {"answer": "no id"},
        [],
    )
    for obj in declined:
        assert outcome_from_dict(obj) is None


_golden_dicts = st.fixed_dictionaries(
    {
        "id": st.text(min_size=1, max_size=4),
        "question": st.text(min_size=1, max_size=8),
        "case_type": st.sampled_from(["numeric", "narrative", "retrieval", "refusal"]),
    },
    optional={
        "expected": st.fixed_dictionaries(
            {},
            optional={
                "value": st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.integers()),
                "unit": st.text(min_size=1, max_size=3),
                "refuse": st.booleans(),
                "source": st.fixed_dictionaries(
                    {"doc": st.text(max_size=3)}, optional={"locator": st.text(max_size=3)}
                ),
                "narrative_doc": st.text(min_size=1, max_size=3),
                "relevant_docs": st.one_of(
                    st.lists(st.text(min_size=1, max_size=3), max_size=3),
                    st.dictionaries(
                        st.text(min_size=1, max_size=3), st.integers(1, 2**31 - 1), max_size=3
                    ),
                ),
                "reference_answer": st.text(min_size=1, max_size=5),
                "clarification": st.sampled_from(["none", "ask_first"]),
                "extra": st.integers(),
            },
        ),
        "tags": st.dictionaries(
            st.text(max_size=3), st.one_of(st.text(max_size=3), st.integers(), st.none())
        ),
        "reference_date": st.dates().map(lambda d: d.isoformat()),
        "notes": st.text(max_size=3),
        "case_typ": st.text(max_size=3),
    },
)


@settings(max_examples=600, deadline=None)
@given(_golden_dicts)
def test_case_json_is_model_dump_and_known_keys_have_no_typos(obj: dict[str, Any]) -> None:
    try:
        case = GoldenCase.model_validate(obj)
    except ValidationError:
        return
    assert _case_json(case) == case.model_dump(mode="json")
    assert orjson.dumps(_case_json(case)) == orjson.dumps(case.model_dump(mode="json"))
    assert len(case_digest(case)) == 32
    if golden_keys_known(obj):
        assert typo_fields(obj) == []


def test_case_json_has_every_field() -> None:
    """A field added to the golden models must be added to the digest's dict too."""
    case = GoldenCase.model_validate(
        {
            "id": "a",
            "question": "q?",
            "case_type": "numeric",
            "expected": {"value": 1, "unit": "u", "source": {"doc": "d"}},
            "reference_date": "2026-01-02",
        }
    )
    data = _case_json(case)
    assert list(data) == list(GoldenCase.model_fields)
    assert list(data["expected"]) == list(type(case.expected).model_fields)
    assert data == case.model_dump(mode="json")


_pair_values = {
    "id": st.sampled_from(['"a"', '"b"', '""', "1"]),
    "answer": st.sampled_from(['"x"', '"say \\"hi\\": yes"', '"a:b"', "null"]),
    "value": st.sampled_from(["1", "1.5", "1e20", "99999999999999999999", "9223372036854775808"]),
    "repeat": st.sampled_from(["0", "9223372036854775807", "9223372036854775808", "-1"]),
    "sources": st.sampled_from(
        [
            '[{"doc": "d", "locator": ""}]',
            '[{"doc": "d", "doc": "e"}]',
            '[{"doc": "d", "x": {"y": 1, "y": 2}}]',
            '["d", {"doc": "e"}]',
        ]
    ),
    "source": st.sampled_from(['{"doc": "d"}', '{"doc": "d", "locator": "l", "locator": "m"}']),
    "contexts": st.sampled_from(['["c"]', '["c", "d"]', "[]"]),
    "trace": st.sampled_from(['{"k": 1}', '{"k": 1, "k": 2}', "[1, {}]", "12345678901234567890"]),
}


@st.composite
def _outcome_lines(draw: st.DrawFn) -> bytes:
    names = draw(st.lists(st.sampled_from(sorted(_pair_values)), min_size=1, max_size=7))
    if draw(st.booleans()):
        names.insert(0, "id")
    sep = draw(st.sampled_from([": ", ":", " : ", ":\t"]))
    pairs = [f'"{name}"{sep}{draw(_pair_values[name])}' for name in names]
    return ("{" + ", ".join(pairs) + "}\n").encode()


@settings(max_examples=800, deadline=None)
@given(_outcome_lines())
def test_counted_keys_prove_a_line_as_the_strict_parser_reads_it(raw: bytes) -> None:
    """When the walk's key count proves a line, the strict parser reads the same record
    (no duplicate key hidden, no number beyond 64 bits let through)."""
    assert_proof_agrees(raw, outcome_and_keys, Outcome)


def test_counted_keys_catch_duplicates_the_shape_hides() -> None:
    for raw in (
        b'{"id": "a", "id": "a"}',
        b'{"id": "a", "sources": [{"doc": "d", "doc": "d"}]}',
        b'{"id": "a", "trace": {"k": 1, "k": 1}}',
        b'{"id": "a", "answer": "x", "answer" : "x", "unit": "say \\": yes"}',
        b'{"id": "a", "repeat": 9223372036854775808}',
        b'{"id": "a", "value": 99999999999999999999}',
        b'{"id": "a", "id" : "a"}',  # as many `":` as keys, one more colon
        b'{"id":"a","unit":"b:c","unit" :"d"}',  # a colon in the text balances the count
        b'{"id":"a","unit":"b\\":c","unit"\t:"d"}',  # a `":` in the text adds a pair
    ):
        built = outcome_and_keys(orjson.loads(raw))
        assert built is None or not keys_proven_unique(raw, built[1]), raw
    plain = b'{"id": "a", "sources": [{"doc": "d", "locator": ""}, "e"], "note": {"k": [1]}}'
    built = outcome_and_keys(orjson.loads(plain))
    assert built is not None and keys_proven_unique(plain, built[1])


def test_a_null_locator_is_refused_though_the_doc_is_known_without_one() -> None:
    """The source cache holds ``"d"`` (no locator) once seen; a later ``"locator": null``
    for the same doc must still go to pydantic, which refuses it."""
    first = outcome_from_dict({"id": "a", "sources": ["d-null", {"doc": "d-null"}]})
    assert first is not None and [s.locator for s in first.sources] == ["", ""]
    obj = {"id": "b", "sources": [{"doc": "d-null", "locator": None}]}
    assert outcome_from_dict(obj) is None and _pydantic(obj) is None
    obj = {"id": "c", "sources": [{"doc": ["d-null"], "locator": "x"}]}  # unhashable doc
    assert outcome_from_dict(obj) is None and _pydantic(obj) is None


def test_a_known_doc_with_an_empty_locator_keeps_its_fields_set() -> None:
    """``{"doc": d, "locator": ""}`` is found by its doc alone once seen; it stays apart
    from ``{"doc": d}`` and ``"d"`` (no locator given: another fields set)."""
    given = {"doc": "d-empty", "locator": ""}
    for sources in ([given, given], ["d-empty", given, {"doc": "d-empty"}, given]):
        obj = {"id": "a", "sources": sources}
        for _ in range(2):  # cold, then every source from the cache
            fast = outcome_from_dict(obj)
            assert fast is not None
            assert _state(fast) == _state(Outcome.model_validate(obj))
    obj = {"id": "b", "sources": [{"doc": "d-empty", "locator": 0}]}
    assert outcome_from_dict(obj) is None and _pydantic(obj) is None

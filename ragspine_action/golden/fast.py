"""Golden records built straight from a parsed dict when an exact check vouches for them:
what ``GoldenCase.model_validate`` would build, without pydantic's per-record cost.

pydantic's validation of a golden record was ~7 µs of a 100k-case run's per-case cost
(and ``count_keys`` walked the record again for the duplicate-key proof). Records of
the plain shape (known keys only, exact JSON types, string tags, an ISO date) are built
here with the values, defaults and ``model_fields_set`` pydantic gives; for anything else
``golden_case_and_keys`` returns None and the caller validates with pydantic, so every
message stays pydantic's. ``tests/golden/test_fast.py`` compares both on generated records.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any, Final

from ..perf import built_model
from .models import CASE_TYPES, CLARIFICATION_MODES, Expected, GoldenCase, SourceRef

__all__ = ["golden_case_and_keys"]

_CASE_KEYS: Final = frozenset(GoldenCase.model_fields)
_EXPECTED_KEYS: Final = frozenset(Expected.model_fields)
_SOURCE_KEYS: Final = frozenset(SourceRef.model_fields)
_CASE_TYPES: Final = frozenset(CASE_TYPES)
_CLARIFICATIONS: Final = frozenset(CLARIFICATION_MODES)
_DEFAULT_EXPECTED: Final = GoldenCase.model_fields["expected"].default
_INF: Final = float("inf")
_EXACT_FLOAT: Final = 2**53  # ints up to here are floats exactly (larger: pydantic decides)
_BIG: Final = 2.0**63  # a float this large may have been an integer literal
_MAX_GRADE: Final = 2**31 - 1
_ISO_DAY: Final = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_FAIL: Final = object()


def _source(value: Any) -> SourceRef | None:
    if type(value) is not dict or not _SOURCE_KEYS.issuperset(value):
        return None
    doc = value.get("doc")
    if type(doc) is not str:
        return None
    if "locator" in value:
        locator = value["locator"]
        if type(locator) is not str:
            return None
        return built_model(SourceRef, {"doc": doc, "locator": locator}, {"doc", "locator"})
    return built_model(SourceRef, {"doc": doc, "locator": ""}, {"doc"})


def _relevant(value: Any) -> Any:
    """``relevant_docs`` (not None) as pydantic leaves it, else ``_FAIL``."""
    kind = type(value)
    if kind is list:
        for doc in value:
            if type(doc) is not str or not doc:
                return _FAIL
        return list(value)
    if kind is dict:
        for doc, grade in value.items():
            if not doc or type(grade) is not int or not 1 <= grade <= _MAX_GRADE:
                return _FAIL
        return dict(value)
    return _FAIL


def _expected(obj: dict[str, Any]) -> tuple[Expected, int] | None:
    """The ``Expected`` of ``obj`` and the keys inside it (its own and its objects')."""
    if not _EXPECTED_KEYS.issuperset(obj):
        return None
    get = obj.get
    clarification = get("clarification", "none")
    refuse = get("refuse", False)
    if type(clarification) is not str or clarification not in _CLARIFICATIONS:
        return None
    if type(refuse) is not bool:
        return None
    value: Any = get("value")
    kind = type(value)
    if kind is float:
        if not -_BIG < value < _BIG:  # inf, or maybe an integer literal beyond 64 bits
            return None
    elif kind is int:
        if not -_EXACT_FLOAT <= value <= _EXACT_FLOAT:
            return None
        value = float(value)
    elif value is not None:
        return None
    unit = get("unit")
    narrative_doc = get("narrative_doc")
    reference_answer = get("reference_answer")
    for text in (unit, narrative_doc, reference_answer):  # each a non-empty string, or None
        if text is not None and (type(text) is not str or not text):
            return None
    relevant = get("relevant_docs")
    if relevant is not None:
        relevant = _relevant(relevant)
        if relevant is _FAIL:
            return None
    keys = len(obj)
    if type(relevant) is dict:
        keys += len(relevant)
    raw_source = get("source")
    source = None
    if raw_source is not None:
        source = _source(raw_source)
        if source is None:
            return None
        keys += len(raw_source)
    expected = built_model(
        Expected,
        {
            "clarification": clarification,
            "refuse": refuse,
            "value": value,
            "unit": unit,
            "source": source,
            "narrative_doc": narrative_doc,
            "relevant_docs": relevant,
            "reference_answer": reference_answer,
        },
        set(obj),
    )
    return expected, keys


def golden_case_and_keys(obj: Any) -> tuple[GoldenCase, int] | None:
    """The ``GoldenCase`` pydantic would validate ``obj`` into, with the number of keys in
    the whole record (for ``jsonio.keys_proven_unique``); None: let pydantic decide.

    Only records whose keys are all known fields: then ``typo_fields`` has nothing to say.
    """
    if type(obj) is not dict or not _CASE_KEYS.issuperset(obj):
        return None
    get = obj.get
    case_id = get("id")
    question = get("question")
    case_type = get("case_type")
    if (
        type(case_id) is not str
        or not case_id
        or type(question) is not str
        or not question
        or type(case_type) is not str
        or case_type not in _CASE_TYPES
    ):
        return None
    keys = len(obj)
    raw_expected = get("expected", _FAIL)
    if raw_expected is _FAIL:
        expected = _DEFAULT_EXPECTED
    else:
        if type(raw_expected) is not dict:
            return None
        built = _expected(raw_expected)
        if built is None:
            return None
        expected, inner = built
        keys += inner
    raw_tags = get("tags", _FAIL)
    if raw_tags is _FAIL:
        tags: dict[str, str] = {}
    else:
        if type(raw_tags) is not dict:
            return None
        for item in raw_tags.values():
            if type(item) is not str:  # made text by the model (str of a number…)
                return None
        tags = dict(raw_tags)
        keys += len(tags)
    raw_day = get("reference_date")
    day = None
    if raw_day is not None:
        if type(raw_day) is not str or len(raw_day) != 10 or _ISO_DAY.fullmatch(raw_day) is None:
            return None
        try:
            day = date.fromisoformat(raw_day)
        except ValueError:
            return None
    case = built_model(
        GoldenCase,
        {
            "id": case_id,
            "question": question,
            "case_type": case_type,
            "expected": expected,
            "tags": tags,
            "reference_date": day,
        },
        set(obj),
    )
    return case, keys

"""Outcome records built straight from a parsed dict when an exact check vouches for
them: what pydantic would build, without pydantic's per-record cost.

Validating an outcome with pydantic costs ~8–12 µs here (its before-validators run in
Python for every source); most records of a large file have the plain shape (SPEC
names, exact JSON types). For those the model is built here with what pydantic would
give it — values, defaults, ``model_fields_set`` — and for anything else (a RAGSpine
field name, a type pydantic would coerce or refuse…) ``outcome_from_dict`` returns None
and the caller validates with pydantic, so every message stays pydantic's.
``tests/outcomes/test_fast.py`` compares both on generated records, good and bad.

Golden records are validated by pydantic (as fast there: no Python validators).
"""

from __future__ import annotations

from typing import Any, Final

from ..golden.models import CLARIFICATION_MODES, SourceRef
from ..jsonio import MAX_JSON_INT, count_keys
from ..perf import built_model
from .model import RAGSPINE_FIELD_NAMES, Outcome

__all__ = ["outcome_and_keys", "outcome_from_dict"]

_INF: Final = float("inf")
_BIG: Final = 2.0**63  # a float this large may have been an integer literal
_EXACT_FLOAT: Final = 2**53  # ints up to here are floats exactly (larger: pydantic decides)
_CLARIFICATIONS: Final = frozenset(CLARIFICATION_MODES)
_OUTCOME_KEYS: Final = frozenset(Outcome.model_fields)
_RAGSPINE_KEYS: Final = frozenset(RAGSPINE_FIELD_NAMES)
_FAIL: Final = object()  # a value the fast path does not vouch for


def _float_or_none(value: Any) -> Any:
    kind = type(value)
    if kind is float:
        return value if -_INF < value < _INF else _FAIL
    if kind is int:
        return float(value) if -_EXACT_FLOAT <= value <= _EXACT_FLOAT else _FAIL
    return None if value is None else _FAIL


# Sources repeat across outcomes (the same doc ids): one frozen instance per distinct form.
_SOURCES: dict[tuple[str] | tuple[str, str], SourceRef] = {}
_SOURCES_MAX: Final = 65_536
# Those of ``_SOURCES`` written ``{"doc": d, "locator": ""}`` (a retriever's ranked docs),
# by ``d``: a look-up by the string, without a tuple to build and to compare.
_UNLOCATED: dict[str, SourceRef] = {}


def _source(value: Any, loose: bool) -> SourceRef | None:
    """A SourceRef from ``{"doc": …, "locator": …}`` (or a bare doc string when ``loose``,
    as outcomes allow); None when not vouched for."""
    if type(value) is str:
        if not loose:
            return None
        doc, locator = value, None
    elif type(value) is dict and "doc" in value:
        doc = value["doc"]
        locator = value.get("locator")
        if type(doc) is not str or (locator is not None and type(locator) is not str):
            return None
        if "locator" not in value:
            locator = None
        elif locator is None:
            return None  # null is not a string: pydantic says so
    else:
        return None
    # A doc without a locator is a one-item key: an explicit null never finds it.
    key = (doc,) if locator is None else (doc, locator)
    ref = _SOURCES.get(key)
    if ref is None:
        if locator is None:
            ref = built_model(SourceRef, {"doc": doc, "locator": ""}, {"doc"})
        else:
            ref = built_model(SourceRef, {"doc": doc, "locator": locator}, {"doc", "locator"})
        if len(_SOURCES) < _SOURCES_MAX:
            _SOURCES[key] = ref
            if locator == "":
                _UNLOCATED[doc] = ref
    return ref


def _discard(doc: str) -> None:
    """Where the docs go when the caller does not want them."""


def outcome_from_dict(obj: Any) -> Outcome | None:
    """The ``Outcome`` pydantic would validate ``obj`` into, or None: let pydantic decide."""
    built = outcome_and_keys(obj)
    return None if built is None else built[0]


def _keys_in(value: Any) -> int:
    """Keys of every object in a source (``count_keys`` for one with other keys)."""
    if type(value) is not dict:
        return 0
    if len(value) == 1 + ("locator" in value):
        return len(value)
    return count_keys(value)


def outcome_and_keys(obj: Any, docs: list[str] | None = None) -> tuple[Outcome, int] | None:
    """``outcome_from_dict``, with the number of keys in the whole document (what a
    duplicate-key proof compares with the line's key tokens); the count is -1 when a
    number is beyond what the strict parser reads (it would refuse the line).

    ``docs``: the ranked doc ids (``source.doc`` of each of ``sources``, in order) are
    appended to it, read from ``obj`` while it is walked: the sources are shared
    instances spread over memory, reading them back costs more than keeping these.
    """
    if type(obj) is not dict:
        return None
    plain = _OUTCOME_KEYS.issuperset(obj)  # no other key: each one is a field set
    if not plain and not _RAGSPINE_KEYS.isdisjoint(obj):
        return None  # RAGSpine's names are renamed (and compared) by the model
    get = obj.get
    case_id = get("id")
    answer = get("answer", "")
    clarification = get("clarification", "none")
    refused = get("refused", False)
    unit = get("unit")
    error = get("error")
    if (
        type(case_id) is not str
        or not case_id
        or type(answer) is not str
        or type(clarification) is not str
        or clarification not in _CLARIFICATIONS
        or type(refused) is not bool
        or (unit is not None and type(unit) is not str)
        or (error is not None and type(error) is not str)
    ):
        return None
    value = get("value")
    if type(value) is not float or not -_INF < value < _INF:  # else a finite float as it is
        value = _float_or_none(value)
    latency = get("latency_ms")
    if type(latency) is not float or not -_INF < latency < _INF:
        latency = _float_or_none(latency)
    if value is _FAIL or latency is _FAIL or (latency is not None and latency < 0):
        return None
    repeat = get("repeat")
    if repeat is not None and (type(repeat) is not int or repeat < 0):
        return None
    narrative = get("narrative_answer")
    if narrative is not None:
        if type(narrative) is not str:
            return None
        if not narrative:
            narrative = None
    keys = len(obj)
    if (value is not None and not -_BIG < value < _BIG) or (
        latency is not None and latency >= _BIG
    ):
        keys = -1  # maybe an integer literal beyond 64 bits, which orjson read as a float
    elif repeat is not None and repeat > MAX_JSON_INT:
        keys = -1
    source = get("source")
    if source is not None:
        keys = keys + _keys_in(source) if keys >= 0 else keys
        source = _source(source, True)
        if source is None:
            return None
    raw_sources = get("sources")
    sources: list[SourceRef] = []
    if raw_sources is not None:
        if type(raw_sources) is not list:
            return None
        known = _SOURCES.get
        unlocated = _UNLOCATED.get
        add = sources.append
        add_doc = _discard if docs is None else docs.append
        seen = 0  # sources found in the cache: two keys each
        for item in raw_sources:
            if type(item) is dict and len(item) == 2:
                # {"doc": str, "locator": str} seen before: one look-up (a two-item key of
                # the cache is two strings, so a hit vouches for both values and both keys)
                try:
                    doc = item["doc"]
                    locator = item["locator"]
                    ref = unlocated(doc) if locator == "" else known((doc, locator))
                except (KeyError, TypeError):  # another key; a value that is no string
                    ref = None
                if ref is not None:
                    add(ref)
                    add_doc(doc)  # equal to ref.doc: the key matched
                    seen += 1
                    continue
            ref = _source(item, True)
            if ref is None:
                return None
            add(ref)
            add_doc(ref.doc)
            if type(item) is dict:
                keys = keys + _keys_in(item) if keys >= 0 else keys
        keys = keys + 2 * seen if keys >= 0 else keys
    elif "sources" in obj:
        return None
    contexts = get("contexts")
    if contexts is None:
        if "contexts" in obj:
            return None
        contexts = []
    else:
        if type(contexts) is not list:
            return None
        for text in contexts:
            if type(text) is not str:
                return None
        contexts = list(contexts)
    fields_set = set(obj) if plain else set(_OUTCOME_KEYS.intersection(obj))
    if keys >= 0 and not plain:  # other keys: ignored, but counted
        for name, item in obj.items():
            if name not in _OUTCOME_KEYS:
                inner = count_keys(item)
                keys = keys + inner if inner >= 0 and keys >= 0 else -1
    if "refused" not in obj and clarification == "out_of_scope_entity":
        refused = True  # RAGSpine's runners always refuse an out-of-scope question
        fields_set.add("refused")
    outcome = built_model(
        Outcome,
        {
            "id": case_id,
            "answer": answer,
            "clarification": clarification,
            "refused": refused,
            "value": value,
            "unit": unit,
            "source": source,
            "sources": sources,
            "contexts": contexts,
            "narrative_answer": narrative,
            "error": error,
            "latency_ms": latency,
            "repeat": repeat,
        },
        fields_set,
    )
    return outcome, keys

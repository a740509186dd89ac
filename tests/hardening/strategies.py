"""Hypothesis strategies for the hardening suite: JSON values, valid records, hostile text."""

from __future__ import annotations

import json
from typing import Any

from hardening_support import MUTATION_OPS
from hypothesis import strategies as st

HOSTILE_TEXT = st.sampled_from(
    [
        "<script>alert(1)</script>",
        "<!-- ragspine-eval:sticky:my-rag -->",
        "@octocat please look",
        "| a | b |\n|---|---|",
        "**bold** _it_ `code` [link](http://x)",
        "\u200b\u200d\u2060\ufeff",
        "\u2028\u2029\x1b[31mred\x00",
        "x" * 5000,
        "\r\n\r\n",
        "&lt;escaped&gt;",
        "../../etc/passwd",
        "1e309",
        "",
    ]
)

TEXT = st.one_of(st.text(max_size=30), HOSTILE_TEXT)
NONEMPTY = st.one_of(st.text(min_size=1, max_size=20), HOSTILE_TEXT.filter(bool))

JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    TEXT,
)
JSON_VALUES: st.SearchStrategy[Any] = st.recursive(
    JSON_SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=25,
)

MUTATIONS = st.lists(
    st.tuples(
        st.sampled_from(MUTATION_OPS),
        st.integers(min_value=0, max_value=10**6),
        st.integers(min_value=0, max_value=255),
    ),
    min_size=1,
    max_size=6,
)

FINITE = st.floats(allow_nan=False, allow_infinity=False, width=64)


@st.composite
def golden_case(draw: st.DrawFn, case_id: str) -> dict[str, Any]:
    """A case that satisfies every SPEC §4 rule, of any case type."""
    case_type = draw(
        st.sampled_from(
            ["numeric", "clarification", "refusal", "narrative", "composite", "retrieval"]
        )
    )
    source = {"doc": draw(NONEMPTY), "locator": draw(TEXT)}
    expected: dict[str, Any] = {}
    if case_type in ("numeric", "composite"):
        expected.update(value=draw(FINITE), unit=draw(NONEMPTY), source=source)
    if case_type in ("narrative", "composite"):
        expected["narrative_doc"] = draw(NONEMPTY)
        if draw(st.booleans()):
            expected["reference_answer"] = draw(NONEMPTY)
    if case_type == "refusal":
        expected["refuse"] = True
    if case_type == "clarification":
        expected["clarification"] = draw(st.sampled_from(["ask_first", "answer_with_assumptions"]))
    if case_type == "retrieval":
        docs = draw(st.lists(NONEMPTY, min_size=1, max_size=4, unique=True))
        if draw(st.booleans()):
            expected["relevant_docs"] = docs
        else:
            expected["relevant_docs"] = {d: draw(st.integers(1, 3)) for d in docs}
    case: dict[str, Any] = {
        "id": case_id,
        "question": draw(NONEMPTY.filter(lambda s: bool(s.strip()))),
        "case_type": case_type,
        "expected": expected,
    }
    if draw(st.booleans()):
        case["tags"] = draw(st.dictionaries(st.text(max_size=6), TEXT, max_size=3))
    return case


@st.composite
def golden_cases(draw: st.DrawFn, min_size: int = 1, max_size: int = 6) -> list[dict[str, Any]]:
    n = draw(st.integers(min_size, max_size))
    return [draw(golden_case(f"case-{i}")) for i in range(n)]


@st.composite
def outcome_for(draw: st.DrawFn, case: dict[str, Any]) -> dict[str, Any]:
    """A well-formed outcome for ``case`` with arbitrary (possibly wrong) answers."""
    exp = case["expected"]
    docs = [exp["source"]["doc"]] if "source" in exp else []
    if "narrative_doc" in exp:
        docs.append(exp["narrative_doc"])
    rel = exp.get("relevant_docs") or []
    docs += list(rel)
    pool = st.sampled_from(docs) if docs else NONEMPTY
    outcome: dict[str, Any] = {"id": case["id"], "answer": draw(TEXT)}
    if draw(st.booleans()):
        outcome["sources"] = draw(st.lists(st.one_of(pool, NONEMPTY), max_size=4))
    if "value" in exp and draw(st.booleans()):
        outcome.update(value=exp["value"], unit=exp["unit"], source=exp["source"])
    if draw(st.integers(0, 9)) == 0:
        outcome["error"] = draw(TEXT)
    if case["case_type"] == "refusal":
        outcome["refused"] = draw(st.booleans())
    if draw(st.booleans()):
        outcome["contexts"] = draw(st.lists(TEXT, max_size=2))
    return outcome


def jsonl(records: list[Any]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)

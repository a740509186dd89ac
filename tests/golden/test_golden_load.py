"""Golden set loading: what loads, what a fingerprint depends on, and the API path's rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragspine_action.errors import InputError
from ragspine_action.golden import GoldenCase, golden_set_from_cases, load_golden_set

DATA = Path(__file__).parent.parent / "data"
MINI_GOLDEN = DATA / "mini_golden.jsonl"


def test_ragspine_format_loads_unchanged_with_lines_and_defaults() -> None:
    golden = load_golden_set(MINI_GOLDEN)
    assert [c.id for c in golden.cases] == ["n1", "n2", "c1", "r1", "t1", "q1"]
    assert golden.line_of == {"n1": 1, "n2": 2, "c1": 3, "r1": 4, "t1": 5, "q1": 6}
    n1 = golden.cases[0]
    assert (n1.expected.value, n1.expected.unit) == (1702.0, "USD_M")
    assert n1.expected.source is not None and n1.expected.source.doc == "ACME_FY2025_Results.pptx"
    assert n1.expected.clarification == "none" and n1.expected.refuse is False
    assert golden.cases[3].expected.refuse is True
    assert golden.fingerprint.startswith("sha256:")


def test_relevance_defaults_to_cited_docs_and_keeps_grades() -> None:
    golden = load_golden_set(MINI_GOLDEN)
    by_id = {c.id: c for c in golden.cases}
    assert by_id["n1"].relevance() == {"ACME_FY2025_Results.pptx": 1}
    assert by_id["t1"].relevance() == {"HK_QBR_2025Q4.pptx": 1}
    assert by_id["q1"].relevance() == {"REG_WATCH_HK.pptx": 2, "HK_QBR_2025Q4.pptx": 1}
    assert by_id["c1"].relevance() == {}


def test_bom_crlf_and_blank_lines_are_accepted(tmp_path: Path) -> None:
    lines = MINI_GOLDEN.read_text().splitlines()
    path = tmp_path / "g.jsonl"
    path.write_bytes(("\ufeff" + "\r\n\r\n".join(lines) + "\r\n").encode("utf-8"))
    golden = load_golden_set(path)
    assert len(golden) == 6
    assert golden.line_of["n2"] == 3  # blank lines still count
    assert golden.fingerprint == load_golden_set(MINI_GOLDEN).fingerprint


def test_fingerprint_ignores_order_and_formatting_but_not_content(tmp_path: Path) -> None:
    records = [json.loads(line) for line in MINI_GOLDEN.read_text().splitlines()]
    reordered = tmp_path / "reordered.jsonl"
    reordered.write_text(
        "\n".join(json.dumps(r, indent=None, sort_keys=True) for r in records[::-1])
    )
    original = load_golden_set(MINI_GOLDEN).fingerprint
    assert load_golden_set(reordered).fingerprint == original

    records[1]["expected"]["value"] = 8181.0
    changed = tmp_path / "changed.jsonl"
    changed.write_text("\n".join(json.dumps(r) for r in records))
    assert load_golden_set(changed).fingerprint != original


def test_unicode_questions_and_tags_load(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    case = {
        "id": "cn1",
        "question": "2024 年上半年香港的收入是多少？",
        "case_type": "clarification",
        "expected": {"clarification": "answer_with_assumptions"},
        "tags": {"lang": "zh"},
        "reference_date": "2025-06-30",
    }
    path.write_text(json.dumps(case, ensure_ascii=False) + "\n", encoding="utf-8")
    loaded = load_golden_set(path).cases[0]
    assert loaded.question.startswith("2024 年")
    assert str(loaded.reference_date) == "2025-06-30"


def test_golden_set_from_cases_checks_the_same_rules() -> None:
    ok = GoldenCase(id="a", question="q", case_type="clarification")
    refusal = GoldenCase.model_validate({"id": "r", "question": "q", "case_type": "refusal"})
    with pytest.raises(InputError) as info:
        golden_set_from_cases([ok, refusal, ok])
    got = [str(p) for p in info.value.problems]
    assert got == [
        "<memory>:2: id=r: expected.refuse: must be true for a refusal case",
        "<memory>:3: id=a: id: duplicate id",
    ]
    built = golden_set_from_cases([ok])
    assert built.fingerprint == golden_set_from_cases([ok]).fingerprint


def test_problems_are_sorted_by_line_with_file_level_first(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text('{"id": "a", "question": "q", "case_type": "x"}\n[]\n{"id": "a"\n')
    with pytest.raises(InputError) as info:
        load_golden_set(path)
    assert [p.line for p in info.value.problems] == [1, 2, 3]
    assert info.value.exit_code == 2

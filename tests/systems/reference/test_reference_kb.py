"""The ACME KB: deterministic, idempotent SQLite build; located errors; CJK-aware search."""

from __future__ import annotations

import shutil
import sqlite3
from decimal import Decimal
from pathlib import Path

import pytest

from ragspine_action.errors import ConfigError, InputError
from ragspine_action.systems.reference.kb import (
    DB_FILENAME,
    DEFAULT_DATA_DIR,
    KnowledgeBase,
    build_kb,
    memory_kb,
)
from ragspine_action.systems.reference.system import ReferenceSystem


def _dump(db: Path) -> list[str]:
    conn = sqlite3.connect(db)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def test_bundled_kb_has_the_required_shape(tmp_path: Path) -> None:
    kb = KnowledgeBase(build_kb(DEFAULT_DATA_DIR, tmp_path))
    conn = sqlite3.connect(tmp_path / DB_FILENAME)
    entities = {r[0] for r in conn.execute("SELECT DISTINCT entity FROM facts")}
    metrics = {r[0] for r in conn.execute("SELECT DISTINCT metric FROM facts")}
    decks = {r[0] for r in conn.execute("SELECT DISTINCT doc FROM facts")}
    narrative = {r[0] for r in conn.execute("SELECT DISTINCT doc FROM passages")}
    conn.close()
    assert entities == {"ACME_GROUP", "ACME_HK", "ACME_CN"}
    assert metrics == {"REVENUE", "NEWSALES", "PROFIT", "ROE"}
    assert len(decks) == 3 and len(narrative) >= 5
    assert kb.reported_periods("FY") == ["FY2023", "FY2024", "FY2025"]
    assert kb.reported_periods("HY") == ["2024H1", "2025H1"]
    # the traps are in the data: magnitude, FY vs half-year, channel sub-total, a missing ROE
    group = kb.lookup("REVENUE", "ACME_GROUP", "FY2025")
    assert group is not None and (group.value, group.unit) == (Decimal("8.18"), "USD_BN")
    hk_profit = kb.lookup("PROFIT", "ACME_HK", "FY2025")
    assert hk_profit is not None and hk_profit.value == 818
    hk_fy, hk_h1 = (
        kb.lookup("REVENUE", "ACME_HK", "FY2025"),
        kb.lookup("REVENUE", "ACME_HK", "2025H1"),
    )
    assert hk_fy is not None and hk_h1 is not None and hk_fy.value != hk_h1.value
    parts = [
        kb.lookup("NEWSALES", "ACME_HK", "FY2025", c) for c in ("BANCA", "BROKER", "PARTNERSHIP")
    ]
    assert all(p is not None for p in parts)
    banca, broker, sub = (p.value for p in parts if p is not None)
    assert banca + broker == sub
    assert not kb.has_metric("ROE", "ACME_CN") and kb.has_metric("ROE", "ACME_HK")


def test_build_is_deterministic_and_idempotent(tmp_path: Path) -> None:
    first = build_kb(DEFAULT_DATA_DIR, tmp_path / "a")
    second = build_kb(DEFAULT_DATA_DIR, tmp_path / "b")
    assert _dump(first) == _dump(second)
    mtime = first.stat().st_mtime_ns
    assert build_kb(DEFAULT_DATA_DIR, tmp_path / "a") == first
    assert first.stat().st_mtime_ns == mtime  # reused, not rebuilt
    assert [p.name for p in (tmp_path / "a").iterdir()] == [DB_FILENAME]


def test_the_in_memory_kb_holds_exactly_the_file_kb(tmp_path: Path) -> None:
    """A run without --kb-dir builds in memory: the same rows, so the same answers."""
    conn = memory_kb(DEFAULT_DATA_DIR)
    try:
        assert list(conn.iterdump()) == _dump(build_kb(DEFAULT_DATA_DIR, tmp_path))
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            conn.execute("DELETE FROM facts")  # read-only, as a file KB is opened
    finally:
        conn.close()


def test_a_system_without_kb_dir_writes_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr("tempfile.tempdir", None)
    system = ReferenceSystem("tool")
    assert system.kb.path is None
    fact = system.kb.lookup("REVENUE", "ACME_GROUP", "FY2025")
    assert fact is not None and fact.value == Decimal("8.18")
    assert list(tmp_path.iterdir()) == []


def test_the_in_memory_kb_refuses_bad_data_like_the_file_build(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    (data / "glossary.csv").unlink()
    with pytest.raises(InputError, match=r"glossary\.csv: knowledge-base data file not found"):
        memory_kb(data)
    shutil.copy(DEFAULT_DATA_DIR / "glossary.csv", data / "glossary.csv")
    (data / "docs" / "bad.md").write_text("no front matter\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.md:1: must start with a '---' front-matter"):
        memory_kb(data)


def test_changed_data_rebuilds(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    db = build_kb(data, tmp_path / "kb")
    facts = data / "facts.csv"
    facts.write_text(
        facts.read_text(encoding="utf-8").replace(",8.18,", ",9.99,"), encoding="utf-8"
    )
    build_kb(data, tmp_path / "kb")
    fact = KnowledgeBase(db).lookup("REVENUE", "ACME_GROUP", "FY2025")
    assert fact is not None and fact.value == Decimal("9.99")


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (",8.18,USD_BN,", ",lots,USD_BN,", "facts.csv:2: value: not a number: 'lots'"),
        (
            ",8.18,USD_BN,",
            ",8.18,EUR_M,",
            "facts.csv:2: unit: unknown unit 'EUR_M' (allowed: USD_BN, USD_M, USD_K, PCT)",
        ),
        (",FY,FY2025,8.18,", ",FY,2025FY,8.18,", "facts.csv:2: period: bad period '2025FY'"),
    ],
)
def test_bad_fact_rows_are_located(tmp_path: Path, old: str, new: str, expected: str) -> None:
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    facts = data / "facts.csv"
    facts.write_text(facts.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    with pytest.raises(InputError) as err:
        build_kb(data, tmp_path / "kb")
    assert str(err.value).endswith(expected)
    assert not (tmp_path / "kb" / DB_FILENAME).exists()


def test_duplicate_fact_and_bad_doc_are_located(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    facts = data / "facts.csv"
    lines = facts.read_text(encoding="utf-8").splitlines()
    facts.write_text("\n".join([*lines, lines[1]]) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"duplicate fact \(first on line 2\)"):
        build_kb(data, tmp_path / "kb")
    shutil.copy(DEFAULT_DATA_DIR / "facts.csv", facts)
    (data / "docs" / "bad.md").write_text("no front matter\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.md:1: must start with a '---' front-matter"):
        build_kb(data, tmp_path / "kb")


@pytest.mark.parametrize(
    ("query", "doc"),
    [
        ("监管局的风险为本资本制度", "ACME_HK_RBC_Regulatory_Briefing.pdf"),
        ("报行合一", "ACME_CN_Regulatory_Note.pdf"),
        ("股息", "ACME_Group_Strategy_2026.pdf"),
        ("渗透测试", "ACME_Risk_Factors_2025.pdf"),
        ("contractual service margin", "ACME_IFRS17_Accounting_Note.pdf"),
        # English question, Chinese document: found through the glossary expansion
        ("dividend policy", "ACME_Group_Strategy_2026.pdf"),
        ("cyber attacks", "ACME_Risk_Factors_2025.pdf"),
    ],
)
def test_search_ranks_the_right_document_first(tmp_path: Path, query: str, doc: str) -> None:
    kb = KnowledgeBase(build_kb(DEFAULT_DATA_DIR, tmp_path))
    hits = kb.search(query, 3)
    assert hits and hits[0].doc == doc
    assert hits == kb.search(query, 3)  # deterministic order


def test_search_without_topic_words_returns_nothing(tmp_path: Path) -> None:
    kb = KnowledgeBase(build_kb(DEFAULT_DATA_DIR, tmp_path))
    assert kb.search("what is the", 5) == []
    assert kb.search('"OR" NEAR(', 5) == []  # FTS operators are quoted, never parsed


def test_an_unusable_kb_dir_is_a_config_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"^--kb-dir: cannot write the knowledge base in .*file"):
        build_kb(DEFAULT_DATA_DIR, blocker)
    with pytest.raises(ConfigError, match="--kb-dir"):
        build_kb(DEFAULT_DATA_DIR, blocker / "sub")


@pytest.mark.parametrize(
    "text",
    [
        "What drives risk-based capital and the interest rate?",
        "RISK-BASED CAPITAL under C-ROSS; fx and currency",
        "银保渠道的佣金 commission fees",
        "riskbased capital, interest-rate, feeS",
        "",
    ],
)
def test_glossary_expansion_finds_exactly_the_terms_a_pattern_per_term_finds(
    tmp_path: Path, text: str
) -> None:
    """The indexed expansion (first-word lookup, patterns compiled once) equals trying every
    glossary term's pattern against the text."""
    import re

    kb = KnowledgeBase(build_kb(db_dir=tmp_path))
    try:
        lowered = text.lower()
        naive = [
            e
            for t, e in kb._glossary
            if (
                re.search(rf"(?<![a-z0-9]){re.escape(t)}(?![a-z0-9])", lowered)
                if t.isascii()
                else t in lowered
            )
        ]
        assert kb.expand(text) == " ".join([text, *naive])
        assert kb.expand(text) == kb.expand(text)  # cached, same answer
    finally:
        kb.close()

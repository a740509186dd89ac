"""Tool mode end to end: traps, refusals, clarification, citations — on unseen questions."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from ragspine_action.gates import detect_fabricated_numbers
from ragspine_action.golden import Expected, GoldenCase
from ragspine_action.outcomes import Outcome
from ragspine_action.systems.reference import ReferenceSystem

REF = date(2026, 6, 12)


@pytest.fixture(scope="module")
def system(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReferenceSystem]:
    yield ReferenceSystem("tool", kb_dir=str(tmp_path_factory.mktemp("kb")))


def ask(system: ReferenceSystem, question: str, ref: date | None = REF) -> Outcome:
    case = GoldenCase(
        id="q", question=question, case_type="retrieval",
        expected=Expected(relevant_docs=["x"]), reference_date=ref,
    )  # fmt: skip
    return system.answer(case)


@pytest.mark.parametrize(
    ("question", "value", "unit", "locator"),
    [
        # magnitude trap: the group deck reports USD bn, HK profit is 818 USD m
        ("Group revenue FY2025?", 8180.0, "USD_M", "slide=3,table=1,row=2,col=2"),
        ("集团FY2025新业务销售是多少", 3420.0, "USD_M", "slide=3,table=1,row=3,col=2"),
        ("香港FY2025利润", 818.0, "USD_M", "slide=5,table=1,row=4,col=2"),
        # USD thousands in the interim CN table
        ("mainland profit 1H 2025", 188.6, "USD_M", "slide=5,table=1,row=4,col=2"),
        ("内地2024年上半年新业务销售", 702.1, "USD_M", "slide=5,table=1,row=3,col=3"),
        # FY vs half-year pair
        ("HK revenue H1 2025", 851.0, "USD_M", "slide=4,table=1,row=2,col=2"),
        ("HK revenue 2025", 1702.0, "USD_M", "slide=5,table=1,row=2,col=2"),
        # channel sub-total vs its parts vs the total
        ("内地FY2025合作渠道新单", 931.0, "USD_M", "slide=7,table=1,row=5,col=3"),
        ("内地FY2025银保新单", 731.0, "USD_M", "slide=7,table=1,row=3,col=3"),
        ("内地FY2025新单", 1586.0, "USD_M", "slide=6,table=1,row=3,col=2"),
        ("HK ROE for 2024 H1", 13.0, "PCT", "slide=4,table=1,row=5,col=3"),
    ],
)
def test_values_are_converted_and_cited(
    system: ReferenceSystem, question: str, value: float, unit: str, locator: str
) -> None:
    out = ask(system, question)
    assert (out.value, out.unit, out.refused, out.clarification) == (value, unit, False, "none")
    assert out.source is not None and out.source.locator == locator
    assert f"{out.source.doc} · {out.source.locator}" in out.answer
    assert out.sources[0] == out.source and out.contexts


def test_assumptions_follow_the_reference_date(system: ReferenceSystem) -> None:
    early = ask(system, "营运利润是多少", date(2024, 7, 1))  # only FY2023 was out by then
    late = ask(system, "营运利润是多少", date(2026, 1, 1))
    assert early.value == 1620.0 and late.value == 1960.0
    assert early.clarification == late.clarification == "answer_with_assumptions"
    assert "假设" in late.answer and "ACME集团" in late.answer
    entity_only = ask(system, "What was revenue in 2025?")
    assert entity_only.clarification == "answer_with_assumptions"
    assert "no entity was named" in entity_only.answer and "latest" not in entity_only.answer
    latest = ask(system, "HK revenue in the latest financial year")
    assert (latest.value, latest.clarification) == (1702.0, "none")


@pytest.mark.parametrize(
    ("question", "must_mention"),
    [
        ("内地2025上半年的ROE", "ACME_CN"),
        ("What was group revenue in the second half of 2025?", "period asked about"),
        ("香港2025年第三季度收入", "所问期间"),
        ("group revenue 2031", "period asked about"),
        ("明年香港利润", "所问期间"),
        ("内地FY2025网络销售渠道新业务", "网络销售"),
        ("HK FY2025 agency channel ROE", "agency"),
        ("Zenith FY2025 new sales", "Zenith"),
        ("平安去年的营运利润", "平安"),
        ("What is the combined ratio of ACME HK in FY2025?", "combined ratio"),
        ("集团FY2025的现金流是多少", "现金流"),
        ("集团FY2022收入", "所问期间"),
    ],
)
def test_refusals_say_what_is_missing_without_numbers(
    system: ReferenceSystem, question: str, must_mention: str
) -> None:
    out = ask(system, question)
    assert out.refused and out.value is None and out.unit is None and out.source is None
    assert out.clarification == "none"
    assert must_mention in out.answer
    assert detect_fabricated_numbers(out.answer) == []
    assert not re.search(r"\d", out.answer), out.answer  # not even a period label


@pytest.mark.parametrize(
    "question",
    [
        "How did the mainland business do in FY2025?",
        "香港FY2025的业绩",
        "集团去年的回报是多少",
        "FY2025香港和集团的利润",
        "HK revenue and profit 2025",
        "FY2024和FY2025香港收入",
        "香港FY2025代理和银保渠道新单",
        "香港FY2025",
    ],
)
def test_incomplete_questions_are_asked_back(system: ReferenceSystem, question: str) -> None:
    out = ask(system, question)
    assert out.clarification == "ask_first"
    assert not out.refused and out.value is None and out.source is None
    assert out.answer.endswith(("？", "?"))


def test_complete_questions_are_never_asked_back(system: ReferenceSystem) -> None:
    for question in ("HK agency new sales FY2024", "集团2025H1 ROE", "内地前年收入是多少"):
        assert ask(system, question).clarification == "none"


def test_narrative_answers_are_extractive_and_cited(system: ReferenceSystem) -> None:
    out = ask(system, "Why did banca commissions fall in mainland China?")
    assert not out.refused and out.value is None
    docs = out.ranked_docs()
    assert docs[0] in ("ACME_CN_Regulatory_Note.pdf", "ACME_FY2025_Management_Commentary.pdf")
    assert docs[0] in out.answer
    body = out.answer.split(" (source:")[0]
    joined = " ".join(out.contexts)
    for sentence in body.replace("。", "。\n").splitlines():
        assert sentence.strip() in joined  # every answer sentence is quoted from a context


def test_composite_puts_the_fact_first(system: ReferenceSystem) -> None:
    out = ask(system, "香港FY2025新业务销售是多少？主要由什么带动？")
    assert out.value == 1240.0
    assert out.sources[0].doc == "ACME_FY2025_Results.pptx"
    assert "ACME_FY2025_Management_Commentary.pdf" in out.ranked_docs()[1:]
    assert out.contexts[0].startswith("ACME_FY2025_Results.pptx · slide=5")


def test_composite_without_a_value_falls_back_to_the_documents(system: ReferenceSystem) -> None:
    out = ask(system, "Why is there no ROE disclosed for mainland China?")
    assert out.value is None and not out.refused and out.clarification == "none"
    assert "资本重组" in out.answer


def test_nothing_retrieved_is_a_refusal(system: ReferenceSystem) -> None:
    out = ask(system, "Tell me about quantum chromodynamics")
    assert out.refused and out.sources == [] and detect_fabricated_numbers(out.answer) == []


def test_reference_date_defaults_to_today(system: ReferenceSystem) -> None:
    out = ask(system, "去年集团收入", ref=None)
    year = date.today().year - 1
    assert f"FY{year}" in out.answer or out.refused


def test_the_kb_dir_is_used_and_bad_mode_rejected(tmp_path: Path) -> None:
    ReferenceSystem("agent", kb_dir=str(tmp_path))
    assert (tmp_path / "acme_kb.sqlite3").is_file()
    with pytest.raises(ValueError, match="mode must be one of tool, agent"):
        ReferenceSystem("chat")  # type: ignore[arg-type]

"""Passage choice for English questions over the mostly Chinese documents (ranking.py).

tests/data/reference_dev/english_passage_questions.csv holds English questions written from
each passage of data/kb/docs (at least two per Chinese passage, some with entity words such
as "Hong Kong" / "group" and generic words the English IFRS 17 note also uses); each must
rank its passage first.
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from pathlib import Path

import pytest

from ragspine_action.systems.reference.kb import (
    DEFAULT_DATA_DIR,
    KnowledgeBase,
    build_kb,
    document_texts,
)
from ragspine_action.systems.reference.ranking import ENTITY_WEIGHT
from ragspine_action.systems.reference.text import contains_cjk

QUESTIONS = Path(__file__).parents[2] / "data" / "reference_dev" / "english_passage_questions.csv"
ROWS = list(csv.DictReader(QUESTIONS.open(encoding="utf-8")))
_SECTION = re.compile(r"^## (\S+) \| ", re.MULTILINE)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBase:
    return KnowledgeBase(build_kb(DEFAULT_DATA_DIR, tmp_path_factory.mktemp("kb")))


def _passages() -> list[tuple[str, str, str]]:
    """(doc, locator, text) of every passage in the bundled docs."""
    out = []
    for path in sorted((DEFAULT_DATA_DIR / "docs").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        doc = re.search(r"^doc: (\S+)$", text, re.MULTILINE)
        assert doc is not None
        parts = _SECTION.split(text)[1:]
        for locator, body in zip(parts[::2], parts[1::2], strict=True):
            out.append((doc.group(1), locator, body))
    return out


def test_every_chinese_passage_has_at_least_two_english_questions() -> None:
    counts = Counter((r["doc"], r["locator"]) for r in ROWS)
    chinese = [(d, loc) for d, loc, body in _passages() if contains_cjk(body.split("\n", 1)[1])]
    assert len(chinese) >= 15
    for key in chinese:
        assert counts[key] >= 2, key
    assert all(not contains_cjk(r["question"]) for r in ROWS)
    assert set(document_texts()) >= {r["doc"] for r in ROWS}


@pytest.mark.parametrize("row", ROWS, ids=[r["question"][:60] for r in ROWS])
def test_english_question_ranks_its_passage_first(kb: KnowledgeBase, row: dict[str, str]) -> None:
    hits = kb.search(row["question"], 5)
    assert hits, row["question"]
    assert (hits[0].doc, hits[0].locator) == (row["doc"], row["locator"]), [
        (h.doc, h.locator) for h in hits
    ]


def test_entity_words_weigh_less_than_the_topic(kb: KnowledgeBase) -> None:
    """The question "ACME Hong Kong's prescribed capital": the HK growth passage says 香港 three times,
    the RBC capital passage says 订明资本额; the topic wins."""
    assert ENTITY_WEIGHT < 1
    hits = kb.search("Which risks are the main components of ACME Hong Kong's prescribed capital?")
    assert (hits[0].doc, hits[0].locator) == ("ACME_HK_RBC_Regulatory_Briefing.pdf", "page=3")
    # without the topic, the entity words still choose a Hong Kong passage
    hk = kb.search("Hong Kong")
    assert hk and all("香港" in h.text or "Hong Kong" in h.text for h in hk)


def test_generic_english_words_do_not_pull_the_ifrs_note(kb: KnowledgeBase) -> None:
    """Words the English IFRS 17 note shares with a question ("operating profit", "growth",
    "insurance") count as concepts found in the Chinese passages too (glossary)."""
    for question, locator in (
        ("What explains the group's operating profit growth?", "page=2"),
        ("What does ACME plan for inclusive insurance?", "page=8"),
    ):
        top = kb.search(question)[0]
        assert top.doc != "ACME_IFRS17_Accounting_Note.pdf", question
        assert top.locator == locator
    # ...while a question about the note itself still finds it
    top = kb.search("How does ACME define operating profit?")[0]
    assert (top.doc, top.locator) == ("ACME_IFRS17_Accounting_Note.pdf", "page=3")


def test_document_titles_do_not_count_as_the_passage_topic(kb: KnowledgeBase) -> None:
    """The word "manage" is in the title of every Management Commentary page; the passage that says
    how the group manages interest rate risk (管理利率风险) is the answer."""
    top = kb.search("How does the group manage interest rate risk?")[0]
    assert (top.doc, top.locator) == ("ACME_Risk_Factors_2025.pdf", "page=1")


def test_glossary_parenthetical_glosses_are_in_the_glossary() -> None:
    """Every English gloss the docs write in parentheses after a Chinese term (香港保险业监管局
    （Insurance Authority, IA）) is a glossary term, so an English question finds it."""
    glossary = {
        row["term"].lower()
        for row in csv.DictReader((DEFAULT_DATA_DIR / "glossary.csv").open(encoding="utf-8"))
    }
    glosses: set[str] = set()
    for texts in document_texts().values():
        for text in texts:
            for inner in re.findall(r"（([A-Za-z][^）]*)）", text):
                glosses.update(g.strip().lower() for g in inner.split(","))
    metric_codes = {"roe"}  # the fact table's metric names, read by the parser's lexicon
    assert len(glosses) >= 5
    assert glosses - metric_codes <= glossary, glosses - metric_codes - glossary


def test_a_meaning_written_twice_counts_once(kb: KnowledgeBase) -> None:
    """The tool pipeline appends the metric's and entity's names to a narrative query
    (利润 集团 group; 新业务销售 new sales): they must not outweigh the question's topic."""
    top = kb.search("What explains the growth in the group's operating profit? 利润 集团 group")[0]
    assert (top.doc, top.locator) == ("ACME_FY2025_Management_Commentary.pdf", "page=2")
    top = kb.search("How does new business affect the CSM? 新业务销售 new sales")[0]
    assert (top.doc, top.locator) == ("ACME_IFRS17_Accounting_Note.pdf", "page=2")


def test_a_period_is_not_the_topic(kb: KnowledgeBase) -> None:
    """Only one passage writes "FY2025" in its text; the ROE question is about ROE."""
    top = kb.search("Why did the group's ROE improve in FY2025?")[0]
    assert (top.doc, top.locator) == ("ACME_FY2025_Management_Commentary.pdf", "page=7")


# The other direction: Chinese questions over the one English document (IFRS 17 note).
ZH_OVER_ENGLISH = [
    ("ACME为什么报告保险收入而不是总保费？", "page=1"),
    ("IFRS 17下保险合同的利润如何确认？", "page=1"),
    ("为什么ACME的收入比保费收入更平滑？", "page=1"),
    ("合同服务边际代表什么？", "page=2"),
    ("CSM代表什么？", "page=2"),
    ("新业务对合同服务边际有什么影响？", "page=2"),
    ("营运利润的定义是什么？", "page=3"),
    ("管理层为什么使用营运利润？", "page=3"),
    ("营运利润不包括哪些项目？", "page=3"),
]


@pytest.mark.parametrize(("question", "locator"), ZH_OVER_ENGLISH)
def test_chinese_question_ranks_the_english_passage_first(
    kb: KnowledgeBase, question: str, locator: str
) -> None:
    top = kb.search(question)[0]
    assert (top.doc, top.locator) == ("ACME_IFRS17_Accounting_Note.pdf", locator)

"""The English words the KB knows: what is left of a question outside them names something else.

Scope is decided by what the knowledge base contains, not by a list of names to refuse: the
words of its documents (titles, headings, text), of its glossary and of the parser's
lexicon, plus the ordinary words questions are made of. A word outside all of them that
stands where a company would ("allianz revenue", "MetLife's ROE", "Prudential plc") names an
organisation the KB knows nothing about.
"""

from __future__ import annotations

import csv
import io
import re
from functools import lru_cache
from pathlib import Path

from . import lexicon as lx
from .kb import DEFAULT_DATA_DIR

__all__ = ["QUESTION_WORDS", "known_english_words"]

_WORD = re.compile(r"[A-Za-z]+")


def _split_words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# The words questions about any company's figures are made of (function words, question
# words, verbs of reporting, period and quantity words). Not names: never a reason to refuse.
QUESTION_WORDS = _split_words(
    """a an the of in on at to for and or but not no is are was were be been being am what
    which who whom whose how why when where whether does do did done say says said about
    tell me please show give list state find get got have has had having with from by under
    as its it itself their them they our we us i you your my this that these those there
    here any much many more most less least than then also just only very so such each every
    all both either neither other same own can could should would will shall may might must
    let lets s t d ll re ve m up down out over into onto per via vs versus
    make made makes making book booked books record recorded records report reported reports
    reporting post posted posts deliver delivered delivers achieve achieved achieves earn
    earned earns generate generated generates bring brought brings come came comes total
    totalled totaled totals sum level value values amount amounts figure figures number
    numbers data stand stood stands end ended ending close closed full whole entire overall
    annual annually yearly year years yr fy fiscal financial half halves quarter quarters
    quarterly interim period periods month months date dates day days first second third
    fourth last latest recent recently previous prior current next past ago before after
    during since until between through whole in-force
    company companys business businesses unit units segment segments subsidiary
    subsidiaries parent arm operations operation division region regions market markets
    percent percentage pct usd dollars dollar million millions billion billions thousand
    thousands m bn k mn
    again exactly approximately roughly about around nearly almost over under above below
    compare compared comparison change changed changes increase increased decrease decreased
    rise rose fall fell grow grew growth up down higher lower high low big bigger large
    larger small smaller good better best bad worse worst
    explain describe summarise summarize outline detail details mention mentions mentioned
    according say note notes noted main key important significant major principal primary
    biggest largest across within without among against along behind beyond toward towards
    upon inside outside throughout around near alongside together separately respectively
    board directors director committee committees management managers shareholders
    shareholder investors investor customers customer clients client policyholders
    policy policies product products people team staffed firm firms organisation
    organization entity entities its own overall broken breakdown split by via each
    often frequently regularly rule regime new old"""
)


def _words_of(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


@lru_cache(maxsize=4)
def known_english_words(data_dir: str = str(DEFAULT_DATA_DIR)) -> frozenset[str]:
    """Lower-cased English words of the KB (documents, glossary, fact codes), the lexicon
    and :data:`QUESTION_WORDS`."""
    words: set[str] = set(QUESTION_WORDS)
    root = Path(data_dir)
    for path in sorted((root / "docs").glob("*.md")):
        words |= _words_of(path.read_text(encoding="utf-8"))
    for name in ("glossary.csv", "facts.csv"):
        path = root / name
        if path.is_file():
            for row in csv.reader(io.StringIO(path.read_text(encoding="utf-8"))):
                for cell in row:
                    words |= _words_of(cell.replace("_", " "))
    for table in (lx.METRIC_TERMS, lx.ENTITY_TERMS, lx.CHANNEL_TERMS):
        for terms in table.values():
            for term in terms:
                words |= _words_of(term)
    for group in (
        lx.UNSUPPORTED_METRIC_TERMS,
        lx.NON_METRIC_TERMS,
        lx.AMBIGUOUS_METRIC_TERMS,
        lx.UNKNOWN_CHANNEL_TERMS,
        lx.NARRATIVE_CUES,
        lx.DEFINITION_CUES,
        lx.VALUE_CUES,
        lx.COUNT_CUES,
        lx.OPINION_CUES,
    ):
        for term in group:
            words |= _words_of(term)
    return frozenset(words)

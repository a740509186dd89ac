"""Question → intent: metric, entity, period (incl. relative ones), channel and route.

A rule-based parser over the vocabulary in :mod:`lexicon`. It reads only the question and
the reference date; it never sees what a golden case expects.
"""

from __future__ import annotations

import re
from calendar import monthrange
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Literal

from . import lexicon as lx
from .judgement import asks_judgement
from .known_words import QUESTION_WORDS, known_english_words
from .metric_phrase import unreported_metric_phrase
from .text import (
    contains_cjk,
    literal_spans,
    phrase_spans,
    phrase_words,
    retrieval_tokens,
    to_simplified,
)

__all__ = ["Intent", "Period", "PeriodMention", "Route", "parse_intent"]

Route = Literal["structured", "narrative", "composite", "out_of_scope"]
_KINDS = ("FY", "H1", "H2", "Q1", "Q2", "Q3", "Q4")


@dataclass(frozen=True, order=True)
class Period:
    """A reporting period: a financial year, a half or a quarter of a calendar year."""

    year: int
    kind: str  # one of _KINDS

    @property
    def label(self) -> str:
        return f"FY{self.year}" if self.kind == "FY" else f"{self.year}{self.kind}"

    @property
    def period_type(self) -> str:
        return {"F": "FY", "H": "HY", "Q": "Q"}[self.kind[0]]

    @property
    def end(self) -> date:
        month = {"FY": 12, "H1": 6, "H2": 12, "Q1": 3, "Q2": 6, "Q3": 9, "Q4": 12}[self.kind]
        return date(self.year, month, monthrange(self.year, month)[1])


@dataclass(frozen=True)
class PeriodMention:
    """A period as written: ``year`` is None for a bare "上半年" / "first half"."""

    kind: str
    year: int | None
    text: str
    relative: bool = False
    latest: bool = False

    def resolve(self) -> Period | None:
        return Period(self.year, self.kind) if self.year is not None else None


@dataclass(frozen=True)
class Intent:
    question: str
    reference_date: date
    language: Literal["zh", "en"]
    metrics: tuple[str, ...]
    unsupported_metrics: tuple[str, ...]
    ambiguous_terms: tuple[str, ...]
    entities: tuple[str, ...]
    competitors: tuple[str, ...]
    periods: tuple[PeriodMention, ...]
    channels: tuple[str, ...]
    unknown_channels: tuple[str, ...]
    narrative_cue: bool
    opinion: bool
    definition_cue: bool
    value_cue: bool
    route: Route
    search_text: str  # what narrative retrieval should look for


_CLAUSE_SPLIT = re.compile(r"[？?，,；;。]|(?<![A-Za-z])and(?![A-Za-z])", re.IGNORECASE)


def _search_text(
    question: str, route: Route, entities: tuple[str, ...], metrics: tuple[str, ...]
) -> str:
    """For a composite question, the explanatory clauses plus entity and metric: the value part
    ("FY2025营运利润是多少") is answered by the fact table and only blurs the search."""
    metric_terms = [lx.METRIC_SEARCH_TERMS[m] for m in metrics if m in lx.METRIC_SEARCH_TERMS]
    entity_terms = [lx.ENTITY_SEARCH_TERMS[e] for e in entities if e in lx.ENTITY_SEARCH_TERMS]
    if route == "narrative" and metric_terms:
        # "no ROE disclosed": also 股本回报率; "what drove group profit": the group's passage
        return " ".join([question, *metric_terms, *entity_terms])
    if route != "composite":
        return question
    clauses = [c for c in _CLAUSE_SPLIT.split(question) if _has_any(c, lx.NARRATIVE_CUES)]
    if not clauses or len(clauses) == len(_CLAUSE_SPLIT.split(question)):
        return question
    extra = [lx.ENTITY_SEARCH_TERMS[e] for e in entities if e in lx.ENTITY_SEARCH_TERMS]
    extra += metric_terms
    return " ".join([*clauses, *extra])


def _term_regex_uncached(term: str) -> re.Pattern[str]:
    if term.isascii():
        body = r"[\s\-]+".join(re.escape(w) for w in re.split(r"[\s\-]+", term))
        return re.compile(rf"(?<![A-Za-z0-9]){body}(?![A-Za-z0-9])", re.IGNORECASE)
    return re.compile(re.escape(term))


_term_regex = lru_cache(maxsize=256)(_term_regex_uncached)


def _lower_regex(term: str) -> re.Pattern[str]:
    """An ASCII term's pattern for lower-cased text: the same matches as
    :func:`_term_regex` on the original (when lower-casing keeps every position and the
    text has none of the letters that fold to ASCII), without IGNORECASE, which is slow
    to compile."""
    body = r"[\s\-]+".join(re.escape(w) for w in re.split(r"[\s\-]+", term.lower()))
    return re.compile(rf"(?<![a-z0-9]){body}(?![a-z0-9])")


def _lowers_in_place(text: str) -> bool:
    """Whether ``text.lower()`` keeps every character's position and folds nothing else
    to ASCII, so a lower-case pattern finds exactly what an IGNORECASE one would."""
    return text.isascii() or (len(text.lower()) == len(text) and _ASCII_FOLDS.isdisjoint(text))


_FIRST_WORD = re.compile(r"[^\s\-]+")


@lru_cache(maxsize=2048)
def _needle(term: str) -> str:
    """A substring any match of ``term`` contains (its first word; ASCII: lower case)."""
    if not term.isascii():
        return term
    first = _FIRST_WORD.search(term)
    return first.group().lower() if first else ""


# The only non-ASCII characters re.IGNORECASE matches to ASCII letters or digits.
_ASCII_FOLDS = frozenset("\u0130\u0131\u017f\u212a")  # İ ı ſ K


def _may_match(term: str, text: str, lowered: str) -> bool:
    """False only when ``term`` cannot match: skips compiling hundreds of patterns.

    An ASCII term matches case-insensitively, so its first word, lower-cased, is in the
    lower-cased text — unless the text holds one of the four letters that fold to ASCII.
    """
    if not term.isascii():
        return term in text
    if not text.isascii() and not _ASCII_FOLDS.isdisjoint(text):
        return True
    return _needle(term) in lowered


_ALNUM = re.compile(r"[a-z0-9]+")
_SEPARATORS = re.compile(r"[\s\-]+")


class _TermIndex:
    """One term list, compiled once: which of its terms can occur in a text.

    An ASCII term is filed under its first word (lower case): the pattern needs that word
    as a whole run of letters and digits, so the term is only tried when the text has that
    word (or, for the four letters that fold to ASCII, always). A Chinese term is a
    substring test. ``candidates`` keeps the list's matching order (longest term first),
    so masking reads exactly as a loop over every term would."""

    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        self.pairs = sorted(pairs, key=lambda p: len(p[0]), reverse=True)
        self._patterns: list[re.Pattern[str] | None] = [None] * len(self.pairs)
        self._lower: list[re.Pattern[str] | None] = [None] * len(self.pairs)
        self._by_word: dict[str, list[int]] = {}
        self._cjk: list[int] = []
        self._needles: list[tuple[int, str]] = []  # ASCII terms whose first word is not alnum
        self._ascii: list[int] = []
        for i, (term, _) in enumerate(self.pairs):
            if not term.isascii():
                self._cjk.append(i)
                continue
            self._ascii.append(i)
            first = next((w for w in _SEPARATORS.split(term.lower()) if w), "")
            if first and _ALNUM.fullmatch(first):
                self._by_word.setdefault(first, []).append(i)
            else:
                self._needles.append((i, first))

    def pattern(self, i: int) -> re.Pattern[str]:
        """Term ``i``'s pattern, compiled the first time the term may match."""
        compiled = self._patterns[i]
        if compiled is None:
            compiled = self._patterns[i] = _term_regex_uncached(self.pairs[i][0])
        return compiled

    def finditer(self, i: int, text: str, lowered: str | None) -> list[tuple[int, int]]:
        """The spans of term ``i``'s matches in ``text``; ``lowered``: the text lower-cased,
        when that keeps positions (:func:`_lowers_in_place`), to use the faster lower-case
        pattern. A Chinese term, or an ASCII term on lower-cased text, is found without
        compiling its pattern (``text.literal_spans``, ``text.phrase_spans``: the same
        spans)."""
        term = self.pairs[i][0]
        if not term.isascii():
            return literal_spans(text, term)
        if lowered is None:
            return [m.span() for m in self.pattern(i).finditer(text)]
        words = phrase_words(term.lower())
        if words is not None:
            return phrase_spans(lowered, words)
        compiled = self._lower[i]
        if compiled is None:
            compiled = self._lower[i] = _lower_regex(term)
        return [m.span() for m in compiled.finditer(lowered)]

    def candidates(self, text: str) -> list[int]:
        """Indexes (in matching order) of the terms that may match ``text``; never one
        fewer than the patterns would find."""
        lowered = text.lower()
        found = [i for i in self._cjk if self.pairs[i][0] in text]
        if not text.isascii() and not _ASCII_FOLDS.isdisjoint(text):
            found += self._ascii
        else:
            for word in set(_ALNUM.findall(lowered)):
                found += self._by_word.get(word, ())
            found += [i for i, needle in self._needles if needle in lowered]
        return sorted(set(found))


_INDEXES: dict[int, tuple[object, _TermIndex]] = {}


def _index(source: tuple[str, ...] | dict[str, tuple[str, ...]]) -> _TermIndex:
    """The compiled index of a term list (or a name → terms table), built on first use."""
    entry = _INDEXES.get(id(source))
    if entry is not None and entry[0] is source:
        return entry[1]
    if isinstance(source, dict):
        pairs = [(term, name) for name, terms in source.items() for term in terms]
    else:
        pairs = [(term, term) for term in source]
    index = _TermIndex(pairs)
    _INDEXES[id(source)] = (source, index)
    return index


class _Masked:
    """The question with matched spans blanked out, so no span is read twice."""

    def __init__(self, text: str) -> None:
        self.text = text

    def take(self, pattern: re.Pattern[str]) -> list[re.Match[str]]:
        found = list(pattern.finditer(self.text))
        for m in found:
            self.text = (
                self.text[: m.start()] + "\x00" * (m.end() - m.start()) + self.text[m.end() :]
            )
        return found

    def take_index(self, index: _TermIndex) -> list[tuple[int, str]]:
        """(position, label) of every match, longest terms first, each span masked."""
        hits: list[tuple[int, str]] = []
        in_place = _lowers_in_place(self.text)
        for i in index.candidates(self.text):
            lowered = self.text.lower() if in_place else None
            for start, end in index.finditer(i, self.text, lowered):
                hits.append((start, index.pairs[i][1]))
                self.text = self.text[:start] + "\x00" * (end - start) + self.text[end:]
        return sorted(hits)

    def take_terms(self, terms: tuple[str, ...]) -> list[str]:
        return [t for _, t in self.take_index(_index(terms))]


def _canonical(masked: _Masked, table: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """Canonical names found, in order of first appearance."""
    return tuple(dict.fromkeys(name for _, name in masked.take_index(_index(table))))


# --- periods -------------------------------------------------------------------------

_Y = r"(?P<y>20\d{2}|'?\d{2})"  # 2025, 25, '25
_ZH_NUM = {"一": 1, "二": 2, "三": 3, "四": 4, "1": 1, "2": 2, "3": 3, "4": 4}
_EN_ORD = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_REL_ZH = {
    "大前年": -3,
    "前年": -2,
    "去年": -1,
    "上年": -1,
    "上一年": -1,
    "上一财年": -1,
    "上个财年": -1,
    "上一个财年": -1,
    "上财年": -1,
    "本财年": 0,
    "今年": 0,
    "本年": 0,
    "明年": 1,
}
_REL_EN = {
    "the year before last": -2,
    "two years ago": -2,
    "last year": -1,
    "previous year": -1,
    "prior year": -1,
    "last financial year": -1,
    "last fiscal year": -1,
    "this year": 0,
    "current year": 0,
    "next year": 1,
}
_ZH_HALF = r"(?P<h>上半年|下半年|上半财年|中期|半年度|年中|首六个月|首6个月|前6个月|1\s*[-至到~—]\s*6\s*月|一至六月|7\s*[-至到~—]\s*12\s*月|七至十二月|前六个月|后六个月)"
_ZH_Q = r"(?:第)?(?P<q>[一二三四1-4])季度?"
_EN_HALF = r"(?P<h>(?:first\s+)?six[\s-]months?(?:\s+(?:ended|ending|to|through|until)\s+(?:30(?:th)?\s+June|June\s+30(?:th)?|(?:the\s+)?end[\s-]+(?:of\s+)?June|June))?|(?:half[\s-]year|first\s+half)\s+(?:ended|ending|to|through)\s+(?:30(?:th)?\s+June|June\s+30(?:th)?|(?:the\s+)?end[\s-]+(?:of\s+)?June|June)|first[\s-]half|second[\s-]half|1st[\s-]half|2nd[\s-]half|H1|H2|1H|2H|interim|half[\s-]year)"
_EN_Q = r"(?P<q>(?:first|second|third|fourth|1st|2nd|3rd|4th)[\s-]quarter|Q[1-4]|[1-4]Q)"
_REL_ZH_RE = "|".join(sorted(map(re.escape, _REL_ZH), key=len, reverse=True))
_REL_EN_RE = "|".join(sorted((k.replace(" ", r"\s+") for k in _REL_EN), key=len, reverse=True))


def _year(raw: str) -> int:
    digits = raw.lstrip("'")
    return int(digits) if len(digits) == 4 else 2000 + int(digits)


def _half_kind(raw: str) -> str:
    low = raw.lower().replace(" ", "").replace("-", "")
    second = low in ("下半年", "secondhalf", "2ndhalf", "h2", "2h", "七至十二月", "后六个月")
    second = second or low.startswith("7")
    return "H2" if second else "H1"


def _quarter_kind(raw: str) -> str:
    low = raw.lower()
    for word, n in _EN_ORD.items():
        if low.startswith(word):
            return f"Q{n}"
    digit = re.search(r"[1-4一二三四]", raw)
    return f"Q{_ZH_NUM[digit.group(0)]}" if digit else "Q1"


def _kind_of(m: re.Match[str]) -> str:
    groups = m.groupdict()
    if groups.get("h"):
        return _half_kind(groups["h"])
    if groups.get("q"):
        return _quarter_kind(groups["q"])
    return "FY"


def _rel_offset(m: re.Match[str]) -> int:
    raw = re.sub(r"\s+", " ", m.group("r").lower())
    return _REL_ZH.get(raw, _REL_EN.get(raw, 0))


_B = r"(?<![A-Za-z0-9])"
_E = r"(?![A-Za-z0-9])"
_I = re.IGNORECASE
# (pattern, how the year is found) in priority order; each match is masked.
_ABSOLUTE: tuple[re.Pattern[str], ...] = (
    # quarters
    re.compile(rf"{_B}(?:FY)?(?P<y>20\d{{2}})\s*[-/ ]?(?P<q>Q[1-4]){_E}", _I),
    re.compile(rf"{_B}(?P<q>Q[1-4]|[1-4]Q)\s*[-/ ]?(?:FY)?{_Y}{_E}", _I),
    re.compile(rf"(?P<y>20\d{{2}})\s*年?\s*的?\s*{_ZH_Q}"),
    re.compile(rf"{_B}{_EN_Q}\s+(?:of\s+)?(?:FY)?(?P<y>20\d{{2}}){_E}", _I),
    # halves: "the half year ended 30 June 2024", 截至2024年6月30日止六个月, HY2024
    re.compile(
        rf"{_B}(?P<h>(?:first\s+)?six[\s-]months?|half[\s-]year|first[\s-]half|1st[\s-]half|"
        rf"H1|1H|HY|interim(?:\s+period)?|(?:reporting\s+)?period|half)\s+"
        rf"(?:ended|ending|to|through|until)\s+(?:30(?:th)?\s+June|June\s+30(?:th)?|end[\s-]June|"
        rf"June)\s*,?\s*(?P<y>20\d{{2}}){_E}",
        _I,
    ),
    re.compile(
        r"(?:截至|截止)?\s*(?P<y>20\d{2})\s*年\s*(?:6|六)\s*月\s*(?:30|三十)\s*日\s*(?:止|为止)?"
        r"\s*(?:的)?\s*(?P<h>六个月|6个月|半年度|半年|中期|期间)"
    ),
    re.compile(rf"{_B}(?P<y>20\d{{2}})\s*[-/ ]?(?P<h>H[12]|HY){_E}", _I),
    re.compile(rf"{_B}(?P<h>H[12]|[12]H|HY)\s*[-/ ]?(?:FY)?{_Y}{_E}", _I),
    re.compile(rf"(?P<y>20\d{{2}})\s*(?:财年|财政年度|年度|年)?\s*的?\s*{_ZH_HALF}"),
    re.compile(
        rf"{_B}{_EN_HALF},?\s+(?:(?:results|period|report|accounts)\s+)?(?:of\s+|for\s+|in\s+)?(?:the\s+year\s+)?(?:FY)?(?P<y>20\d{{2}}){_E}",
        _I,
    ),
    re.compile(rf"{_B}(?P<y>20\d{{2}})\s+{_EN_HALF}{_E}", _I),
    # financial years
    re.compile(
        r"(?:截至|截止)?\s*(?P<y>20\d{2})\s*年\s*12\s*月\s*31\s*日\s*(?:止|为止)?\s*(?:的)?\s*"
        r"(?:年度|财年|财政年度|十二个月|12个月|全年|一年)"
    ),
    re.compile(rf"{_B}FY\s*{_Y}{_E}", _I),
    re.compile(r"(?P<y>20\d{2})\s*(?:财年|财政年度|年度|年全年|全年|年)"),
    re.compile(
        rf"{_B}(?:full[\s-]year|financial\s+year|fiscal\s+year|year)\s+(?P<y>20\d{{2}}){_E}", _I
    ),
    re.compile(rf"{_B}(?P<y>20\d{{2}}){_E}"),
)
_RELATIVE: tuple[re.Pattern[str], ...] = (
    re.compile(rf"(?P<r>{_REL_ZH_RE})\s*的?\s*(?:{_ZH_HALF}|{_ZH_Q})"),
    re.compile(rf"{_B}(?:{_EN_HALF}|{_EN_Q})\s+(?:of\s+)?(?P<r>{_REL_EN_RE}){_E}", _I),
    re.compile(rf"{_B}(?P<r>{_REL_EN_RE})(?:'s)?\s+(?:{_EN_HALF}|{_EN_Q}){_E}", _I),
    re.compile(rf"(?P<r>{_REL_ZH_RE})(?:全年|财年|年度)?"),
    re.compile(rf"{_B}(?P<r>{_REL_EN_RE}){_E}", _I),
)
_LATEST = re.compile(
    r"(?:最新|最近)(?:一个|一)?(?:财年|财政年度|年度|全年)|"
    r"(?<![A-Za-z])(?:latest|most\s+recent)\s+(?:full[\s-]year|financial\s+year|fiscal\s+year|year)",
    _I,
)
_BARE: tuple[re.Pattern[str], ...] = (
    re.compile(_ZH_HALF),
    re.compile(rf"{_B}{_EN_HALF}{_E}", _I),
    re.compile(rf"{_B}{_EN_Q}{_E}", _I),
)


def _periods(masked: _Masked, ref: date) -> list[PeriodMention]:
    found: list[tuple[int, PeriodMention]] = []
    for pattern in _RELATIVE:
        for m in masked.take(pattern):
            pm = PeriodMention(_kind_of(m), ref.year + _rel_offset(m), m.group(0), relative=True)
            found.append((m.start(), pm))
    for m in masked.take(_LATEST):
        found.append((m.start(), PeriodMention("FY", None, m.group(0), latest=True)))
    for pattern in _ABSOLUTE:
        for m in masked.take(pattern):
            found.append((m.start(), PeriodMention(_kind_of(m), _year(m.group("y")), m.group(0))))
    for pattern in _BARE:
        for m in masked.take(pattern):
            found.append((m.start(), PeriodMention(_kind_of(m), None, m.group(0))))
    unique: dict[tuple[str, int | None, bool], PeriodMention] = {}
    for _, pm in sorted(found, key=lambda p: p[0]):
        unique.setdefault((pm.kind, pm.year, pm.latest), pm)
    return list(unique.values())


# --- the parser --------------------------------------------------------------------------


def _has_any(text: str, terms: tuple[str, ...]) -> bool:
    """Whether any term occurs (ASCII terms as whole words)."""
    index = _index(terms)
    lowered = text.lower() if _lowers_in_place(text) else None
    return any(index.finditer(i, text, lowered) for i in index.candidates(text))


# A capitalised name that is not the question's first word, left after every known term
# has been masked, in a question asking for a metric of no known entity: "How much
# revenue did Contoso make?" names a company the KB cannot know.
_NAME = re.compile(r"(?<=[\s\x00])[A-Z][a-z]+(?:[A-Z][a-z]+)*(?:\s+[A-Z][a-z]+)*")
_GENERIC_WORDS = frozenset(
    [
        "I",
        "What",
        "How",
        "Why",
        "When",
        "Where",
        "Which",
        "Who",
        "Whose",
        "Is",
        "Are",
        "Was",
        "Were",
        "Do",
        "Does",
        "Did",
        "Can",
        "Could",
        "Should",
        "Would",
        "Will",
        "Please",
        "Tell",
        "Show",
        "Give",
        "Explain",
        "Describe",
        "List",
        "Compare",
        "Summarise",
        "Summarize",
        "And",
        "Or",
        "The",
        "A",
        "An",
        "For",
        "In",
        "Of",
        "On",
        "At",
        "By",
        "To",
        "From",
        "With",
        "About",
        "Also",
        "Total",
        "Overall",
        "Last",
        "Next",
        "This",
        "Year",
        "Years",
        "Half",
        "Quarter",
        "Fiscal",
        "Financial",
        "Company",
        "Business",
        "Unit",
        "Mainland",
        "Group",
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
        "Insurance",
        "Authority",
        "Commission",
        "Regulatory",
        "Regulator",
        "Administration",
        "Bureau",
        "Board",
        "Standard",
        "Standards",
        "Accounting",
        "Contracts",
        "Capital",
        "Risk",
        "Solvency",
        "Agency",
        "Bank",
        "Bancassurance",
        "Broker",
        "Channel",
        "Digital",
    ]
)


def _unknown_organisation(remaining: str, question: str = "") -> tuple[str, ...]:
    """Names left in a question with no known entity: an organisation outside the KB,
    reported whole as the question writes it ("HSBC Life", not "Life")."""
    names = []
    for match in _NAME.finditer(remaining):
        words = [w for w in re.finditer(r"\S+", match.group(0)) if w.group(0) not in _GENERIC_WORDS]
        if words and question:
            first = words[0]
            span = (match.start() + first.start(), match.start() + first.end())
            names.append(_whole_name(question, span))
        elif words:
            names.append(" ".join(w.group(0) for w in words))
    return tuple(dict.fromkeys(names))


_ACME = re.compile(r"(?<![A-Za-z0-9])ACME(?![A-Za-z])", re.IGNORECASE)

# --- names the KB does not know ----------------------------------------------------------

_EN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9&]*(?:[.\-][A-Za-z0-9&]+)*")
_POSSESSIVE = re.compile(r"^(?:'s|’s|s'|’)(?![A-Za-z])", re.IGNORECASE)
_OWNER_WORDS = frozenset(("of", "for", "did", "does", "do", "at", "by", "from"))
_ZH_FUNCTION_CHARS = "的下在对与和及为是了向按其该这那各本子母我你他她它们每此有无"
_ZH_ORG = re.compile(
    r"(?P<name>[\u4e00-\u9fff]{2,5}?)(?P<suffix>"
    + "|".join(sorted(map(re.escape, lx.ORG_SUFFIXES_ZH), key=len, reverse=True))
    + ")"
)


@lru_cache(maxsize=1)
def _kb_text() -> str:
    from .kb import DEFAULT_DATA_DIR, document_texts

    return "".join(t for texts in document_texts(DEFAULT_DATA_DIR).values() for t in texts)


_GENERIC_LOWER = frozenset(w.lower() for w in _GENERIC_WORDS)


def _whole_name(question: str, span: tuple[int, int]) -> str:
    """The name the word at ``span`` belongs to, as the question writes it: a capitalised
    word with the capitalised words right next to it ("HSBC Life", "Berkshire Hathaway",
    "World Cup") and an organisation suffix after it ("Sun Life", "Prudential plc"); never
    a question word, a period (FY2025) or ACME."""
    words = list(_EN_WORD.finditer(question))
    i = next((k for k, w in enumerate(words) if w.span() == span), None)
    if i is None:
        return question[span[0] : span[1]]

    def joined(a: int, b: int) -> bool:
        return question[words[a].end() : words[b].start()].strip() == ""

    def part(j: int) -> bool:
        w = words[j].group(0)
        return (
            w[:1].isupper()
            and w.lower() not in QUESTION_WORDS
            and w.upper() != "ACME"
            and not any(ch.isdigit() for ch in w)
        )

    start = end = i
    if words[i].group(0)[:1].isupper():
        while start > 0 and joined(start - 1, start) and part(start - 1):
            start -= 1
        while end + 1 < len(words) and joined(end, end + 1) and part(end + 1):
            end += 1
    nxt = end + 1
    if nxt < len(words) and joined(end, nxt) and words[nxt].group(0).lower() in lx.ORG_SUFFIXES_EN:
        end += 1
    return question[words[start].start() : words[end].end()]


_ZH_NAME_STOP = _ZH_FUNCTION_CHARS + "年月日季度问请"
_ZH_SUFFIX_RE = re.compile(
    "(?:" + "|".join(sorted(map(re.escape, lx.ORG_SUFFIXES_ZH), key=len, reverse=True)) + ")+"
)


def _as_written(question: str, pos: int, term: str) -> str:
    """A listed term as the question writes it ("Singapore", not the lexicon's "singapore")."""
    written = question[pos : pos + len(term)]
    return written if written.lower() == term.lower() else term


def _whole_competitor(question: str, pos: int, term: str) -> str:
    """A listed name as the question writes it, whole: 中信保诚人寿 (not 保诚), "Prudential
    plc", "HSBC Life"; a Chinese name takes up to four characters before it (no function
    word, period or question word) and the organisation suffixes after it."""
    end = pos + len(term)
    if term.isascii():
        first = _EN_WORD.match(question, pos)
        if first is None:
            return question[pos:end]
        whole = _whole_name(question, first.span())
        start = question.find(whole, max(0, pos - len(whole)))
        if start < 0 or start > pos:
            return question[pos:end]
        return question[start : max(end, start + len(whole))]
    start = pos
    while start > 0 and pos - start < 4:
        ch = question[start - 1]
        if not ("\u4e00" <= ch <= "\u9fff") or ch in _ZH_NAME_STOP:
            break
        start -= 1
    suffix = _ZH_SUFFIX_RE.match(question, end)
    return question[start : suffix.end() if suffix else end]


def _qualified_figure(question: str, residual: str, names: tuple[str, ...]) -> str:
    """When every "name" left is a lower-case word standing before a term in a question
    that already names ACME or a unit ("ACME's annualised premium equivalent sales"), the
    words qualify the figure asked for: the figure as written, from the first such word to
    the end of the term run (up to a question word such as "in"); else ``""``."""
    if not names or any(not n.isascii() or n != n.lower() or " " in n for n in names):
        return ""
    starts = []
    for name in names:
        m = re.search(rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])", residual)
        if m is None or _POSSESSIVE.match(question[m.end() :]):
            return ""
        starts.append(m.start())
    first = min(starts)
    prefix = question[:first].rstrip()
    if not re.search(r"(?:['\u2019]s|s'|(?<![A-Za-z])(?:the|its|their))$", prefix, re.IGNORECASE):
        return ""  # "ACME's annualised ...", not "axa hong kong revenue" (a name first)
    end = first
    for token in re.finditer(r"\S+", residual[first:]):
        core = token.group(0).strip("\x00?？,.!")
        if core and (core.lower() in QUESTION_WORDS or not core.isascii()):
            break
        if any(ch.isdigit() for ch in question[first + token.start() : first + token.end()]):
            break
        end = first + token.end()
    return question[first:end].strip(" ?？,.!")


def _foreign_names(
    residual: str, asks_metric: bool, names_metric: bool = False, question: str = ""
) -> tuple[str, ...]:
    """Names left in the question once every term the KB knows is masked out.

    ``asks_metric``: the question asks for a metric's value (a value cue or a period), where
    a company's name stands right before the metric; elsewhere only clear names count.

    English: a word the KB and ordinary questions never use, standing where a company
    stands (before a metric, entity or period; possessive; capitalised mid-sentence; before
    "plc", "Life", "Bank"...), or after "of" / "for" / "did" in a question asking for a metric. Chinese: a run
    ending in an organisation suffix (保险, 人寿, 银行...) that the KB's documents never write.
    """
    known = known_english_words() | _GENERIC_LOWER
    names: list[str] = []
    words = list(_EN_WORD.finditer(residual))
    for i, m in enumerate(words):
        word = m.group(0)
        low = word.lower()
        after = residual[m.end() :]
        nxt = words[i + 1].group(0).lower() if i + 1 < len(words) else ""
        org_next = (
            nxt in lx.ORG_SUFFIXES_EN and residual[m.end() : words[i + 1].start()].strip() == ""
        )
        parts_known = all(part in known for part in re.split(r"[.\-]", low) if part)
        if parts_known and not (org_next and word[:1].isupper() and low not in QUESTION_WORDS):
            continue
        first = residual[: m.start()].strip(" \x00\t") == ""
        possessive = _POSSESSIVE.match(after) is not None
        before_term = after.lstrip(" '\u2019sS").startswith("\x00") if after else False
        capitalised = word[:1].isupper() and not first
        prev = words[i - 1].group(0).lower() if i else ""
        # "revenue of Contoso", not "did ACME pay": the owner word right before the name
        gap = residual[words[i - 1].end() : m.start()] if i else "\x00"
        owner = asks_metric and prev in _OWNER_WORDS and gap.strip() == ""
        if asks_metric and (possessive or before_term or capitalised or org_next or owner):
            names.append(_whole_name(question or residual, m.span()))
        elif possessive or org_next or (capitalised and not word.isupper()):
            # a narrative question: only a clear name ("AIA's", "Sun Life", "the United
            # States"); an unknown acronym or word is left to the relevance threshold
            names.append(_whole_name(question or residual, m.span()))
    kb_text = _kb_text()
    if asks_metric or names_metric:  # 众安在线的营运利润: a bare metric request is one too
        lead = _ZH_RUN.search(residual)  # the subject position: the question's first run
        if lead is not None:
            run = lead.group(0)
            follows_term = residual[lead.end() : lead.end() + 1] == "\x00"
            modifier = run[:1] in "的之"  # ACME 2025年的综合偿付能力充足率: not a subject
            if follows_term and not modifier and not _known_to_kb(run, kb_text):
                names.append(run)  # 招商信诺去年的利润: a name before the period / metric
    for m in _ZH_ORG.finditer(residual):
        name = m.group("name")
        if any(ch in _ZH_FUNCTION_CHARS for ch in name) or m.group(0) in kb_text:
            continue
        names.append(m.group(0))
    return tuple(dict.fromkeys(names))


_ZH_RUN = re.compile(r"[\u4e00-\u9fff]+")
# Question words a Chinese question wraps around its terms: never a name.
_ZH_QUESTION_WORDS = (
    "请问",
    "告诉我",
    "帮我",
    "查询",
    "查一下",
    "一下",
    "我想知道",
    "想知道",
    "请",
    "麻烦",
)


def _known_to_kb(run: str, kb_text: str) -> bool:
    """Whether any character bigram of the run occurs in the KB's documents (or is a
    question word): a run none of whose bigrams the KB ever writes is a name it lacks."""
    for word in _ZH_QUESTION_WORDS:
        run = run.replace(word, "")
    run = "".join(ch for ch in run if ch not in _ZH_FUNCTION_CHARS)
    if len(run) < 2:
        return True
    return any(run[i : i + 2] in kb_text for i in range(len(run) - 1))


def _unknown_words(residual: str) -> tuple[str, ...]:
    """Words of the residual the KB never uses: English words outside its vocabulary
    (``cash``), Chinese runs most of whose character bigrams its documents never write
    (信用评级, 港币兑美元)."""
    known = known_english_words()
    words = (m.group(0) for m in _EN_WORD.finditer(residual))
    unknown = list(dict.fromkeys(w for w in words if w.lower() not in known))
    kb_text = _kb_text()
    for m in _ZH_RUN.finditer(residual):
        run = m.group(0)
        for word in _ZH_QUESTION_WORDS:
            run = run.replace(word, "")
        run = "".join(ch for ch in run if ch not in _ZH_FUNCTION_CHARS)
        grams = [run[i : i + 2] for i in range(len(run) - 1)]
        if grams and 2 * sum(g not in kb_text for g in grams) >= len(grams):
            unknown.append(run)
    return (" ".join(unknown),) if unknown else ()  # one unreported metric, however many words


_ZH_DIGITS = {"零": "0", "〇": "0", "○": "0", "一": "1", "二": "2", "三": "3", "四": "4",
              "五": "5", "六": "6", "七": "7", "八": "8", "九": "9"}  # fmt: skip
_ZH_YEAR = re.compile(r"二[零〇○][零〇○一二三四五六七八九]{2}(?=\s*(?:年|财年|财政年度|年度))")


def _topical(residual: str) -> bool:
    """Whether the question still has a topic once its known terms and cue words are
    masked ("respond to the pricing rate cuts", "stress test"), beyond question wording."""
    rest = _Masked(residual)
    rest.take_terms(_CUES)
    for token in retrieval_tokens(rest.text, drop_stop=True):
        if token.isascii() and token not in QUESTION_WORDS and not token.isdigit():
            return True
        if (
            not token.isascii()
            and len(token) > 1
            and not set(token) <= set(_ZH_FUNCTION_CHARS + "样么吗呢")
        ):
            return True
    return False


_GLUED = re.compile(r"(?<=\d)(?=[A-Z]{2,}|[A-Z][a-z])")


def normalise_years(question: str) -> str:
    """Traditional characters in simplified form, 二零二四年 → 2024年 (years in Chinese
    numerals), and a space where a Chinese question
    glues a period to the next term ("FY2025ACME集团", "FY2024ROE"); "2025H1" stays whole."""
    question = to_simplified(question)  # 集團 → 集团, 中國人壽 → 中国人寿
    question = _ZH_YEAR.sub(lambda m: "".join(_ZH_DIGITS[c] for c in m.group(0)), question)
    return _GLUED.sub(" ", question)


def _alternation(terms: tuple[str, ...]) -> str:
    """One regex alternation, longest first; an ASCII term's words may be split by spaces or
    hyphens ("pre tax" / "pre-tax")."""
    parts = []
    for term in sorted(terms, key=len, reverse=True):
        if term.isascii():
            parts.append(r"[\s\-]+".join(re.escape(w) for w in re.split(r"[\s\-]+", term)))
        else:
            parts.append(re.escape(term))
    return "|".join(parts)


@lru_cache(maxsize=1)
def _qualifier_patterns() -> tuple[re.Pattern[str], ...]:
    metric_terms = tuple(t for terms in lx.METRIC_TERMS.values() for t in terms)
    metric = re.compile(
        rf"{_B}(?:{_alternation(metric_terms)}){_E}|(?:{_alternation(tuple(t for t in metric_terms if not t.isascii()))})",
        _I,
    )
    en_before = tuple(q for q in lx.DEFINITION_QUALIFIERS_BEFORE if q.isascii())
    zh_before = tuple(q for q in lx.DEFINITION_QUALIFIERS_BEFORE if not q.isascii())
    before = re.compile(
        rf"(?:{_B}(?:{_alternation(en_before)})[\s\-]+|(?:{_alternation(zh_before)})的?)+$", _I
    )
    after = re.compile(rf"^[\s\-,]*(?:{_alternation(lx.DEFINITION_QUALIFIERS_AFTER)}){_E}", _I)
    anywhere = re.compile(
        "|".join(
            rf"{_B}(?:{_alternation((q,))}){_E}" if q.isascii() else re.escape(q)
            for q in lx.DEFINITION_QUALIFIERS_ANYWHERE
        ),
        _I,
    )
    return metric, before, after, anywhere


_AFTER_TAX = re.compile(rf"(?:{_alternation(lx.AFTER_TAX_QUALIFIERS)})", _I)
_OPERATING_PROFIT = ("operating profit", "opat", "营运利润", "经营利润")


def _qualified_metrics(masked: _Masked) -> tuple[str, ...]:
    """Reported metrics written with a qualifier that changes their definition ("profit
    before tax", "adjusted operating profit", 扣非净利润, "revenue per share"): each is an
    unreported metric, its span masked so the plain metric is not read from it. "Operating
    profit after tax" is the KB's own definition and stays the metric."""
    metric, before, after, anywhere = _qualifier_patterns()
    found: list[str] = []
    for m in list(metric.finditer(masked.text)):
        head = before.search(masked.text[: m.start()])
        tail = after.search(masked.text[m.end() :])
        start = head.start() if head else m.start()
        end = m.end() + (tail.end() if tail else 0)
        qualifiers = (head.group(0) if head else "") + (tail.group(0) if tail else "")
        if not qualifiers.strip():
            continue
        only_after_tax = _AFTER_TAX.fullmatch(re.sub(r"[\s\-,的]+", " ", qualifiers).strip())
        if only_after_tax and m.group(0).lower() in _OPERATING_PROFIT:
            # operating profit is after tax by definition: the qualifier is read, the metric kept
            text = masked.text
            masked.text = (
                text[:start] + "\x00" * (m.start() - start) + text[m.start() : m.end()]
                + "\x00" * (end - m.end()) + text[end:]
            )  # fmt: skip
            continue
        found.append(re.sub(r"\s+", " ", masked.text[start:end]).strip(" ,"))
        masked.text = masked.text[:start] + "\x00" * (end - start) + masked.text[end:]
    if not found:
        loose = anywhere.search(masked.text)
        term = metric.search(masked.text)
        if loose is not None and term is not None:
            sep = "" if contains_cjk(loose.group(0)) else " "
            found.append(f"{term.group(0)}{sep}{loose.group(0)}")
            masked.text = (
                masked.text[: term.start()]
                + "\x00" * (term.end() - term.start())
                + masked.text[term.end() :]
            )
    return tuple(found)


_CUES = lx.NARRATIVE_CUES + lx.VALUE_CUES + lx.DEFINITION_CUES
_VALUE_FIRST_CUES = lx.VALUE_CUES + lx.NARRATIVE_CUES + lx.DEFINITION_CUES
_STRONG_CUES = tuple(c for c in lx.NARRATIVE_CUES if c not in lx.WEAK_CUES)


_COUNTRY_CODE = re.compile(
    r"(?<![A-Za-z])(?:US|U\.S\.|UK|U\.K\.|EU)(?![A-Za-z$])(?!\s*[Dd]ollars?)"
)


def _asks_figure_and_why(question: str) -> bool:
    """Two questions in one: a clause naming a reported metric with no explanation asked
    ("What were Hong Kong new business sales in FY2025") and another clause asking why
    ("and what drove them?", "，是什么带动的？"). Both parts are answered: the figure and
    the passage."""
    clauses = [c for c in _CLAUSE_SPLIT.split(question) if c and c.strip()]
    if len(clauses) < 2:
        return False
    figure = why = False
    for clause in clauses:
        explains = _has_any(clause, lx.EXPLANATION_CUES)
        if explains:
            why = True
        elif _has_any(clause, _METRIC_TERM_LIST) and not _has_any(clause, lx.NARRATIVE_CUES):
            figure = True
    return figure and why


_METRIC_TERM_LIST = tuple(t for terms in lx.METRIC_TERMS.values() for t in terms)


def parse_intent(question: str, reference_date: date | None = None) -> Intent:
    """Parse one question. ``reference_date`` anchors 去年 / last year (default: today)."""
    ref = reference_date or date.today()
    question = normalise_years(question)
    masked = _Masked(question)
    competitors = tuple(
        dict.fromkeys(
            _whole_competitor(question, pos, term)
            for pos, term in masked.take_index(_index(lx.COMPETITOR_TERMS))
        )
    )
    unknown_channels = tuple(dict.fromkeys(masked.take_terms(lx.UNKNOWN_CHANNEL_TERMS)))
    masked.take_terms(lx.NON_METRIC_TERMS)
    qualified = _qualified_metrics(masked)  # "profit before tax" is not operating profit
    unsupported = tuple(
        dict.fromkeys(qualified + tuple(masked.take_terms(lx.UNSUPPORTED_METRIC_TERMS)))
    )
    metrics = _canonical(masked, lx.METRIC_TERMS)
    periods = tuple(_periods(masked, ref))
    entities = _canonical(masked, lx.ENTITY_TERMS)
    units = masked.take_terms(lx.SUBSIDIARY_TERMS)
    if units and not set(entities) & {"ACME_HK", "ACME_CN"}:
        entities = ("ACME_HK", "ACME_CN")  # "the subsidiary": which of the two is meant?
    if not entities and masked.take(_ACME):
        entities = ("ACME_GROUP",)  # the company itself, named without a business unit
    channels = _canonical(masked, lx.CHANNEL_TERMS)
    ambiguous = tuple(dict.fromkeys(masked.take_terms(lx.AMBIGUOUS_METRIC_TERMS)))
    if metrics and not entities and not competitors:
        competitors = _unknown_organisation(masked.text, question)
    if not metrics and not unsupported and _has_any(question, lx.COUNT_CUES):
        unsupported = ("count",)  # "how many employees": the KB reports no counts
    elif not metrics and not unsupported and not ambiguous and _has_any(question, lx.VALUE_CUES):
        rest = _Masked(masked.text)
        rest.take_terms(_VALUE_FIRST_CUES)
        unsupported = _unknown_words(rest.text)  # "how much cash": a figure the KB lacks
        # "dividend payout ratio": known words, but a figure the KB does not report
        unsupported = unsupported or unreported_metric_phrase(rest.text)
    elif (
        not metrics
        and not unsupported
        and not ambiguous
        and periods
        and not _has_any(question, lx.NARRATIVE_CUES + lx.DEFINITION_CUES)
    ):
        rest = _Masked(masked.text)
        rest.take_terms(_CUES)
        unsupported = unreported_metric_phrase(rest.text)  # "payout ratio for FY2025"
    opinion = _has_any(question, lx.OPINION_CUES) or _has_any(question, lx.LIVE_OR_MARKET_CUES)
    opinion = opinion or asks_judgement(question)  # "is the dividend policy fair?"
    if not opinion and not entities and not metrics and not channels:
        # a prediction about something other than ACME ("what will the stock market do")
        opinion = _has_any(question, lx.FUTURE_VERBS) and _has_any(question, lx.FUTURE_TIMES)
    if not competitors:
        competitors = tuple(
            dict.fromkeys(
                _as_written(question, pos, term)
                for pos, term in masked.take_index(_index(lx.OTHER_PARTIES))
            )
        )
    if not competitors:  # "the current US interest rate": a country in capitals, not "us"
        competitors = tuple(dict.fromkeys(m.group(0) for m in masked.take(_COUNTRY_CODE)))
    if not competitors:
        residual = _Masked(masked.text)
        residual.take_terms(_CUES)
        wants_value = bool(periods) or _has_any(question, lx.VALUE_CUES)
        named = bool(metrics or unsupported)
        competitors = _foreign_names(residual.text, named and wants_value, named, question)
        phrase = _qualified_figure(question, residual.text, competitors) if entities else ""
        if phrase:  # "ACME's annualised premium equivalent sales": a figure, not a company
            competitors, metrics, unsupported = (), (), (phrase,)
    narrative_cue = _has_any(question, lx.NARRATIVE_CUES)
    strong_cue = _has_any(question, _STRONG_CUES)
    definition_cue = _has_any(question, lx.DEFINITION_CUES)
    value_cue = _has_any(question, lx.VALUE_CUES)

    route: Route
    if competitors or opinion:
        route = "out_of_scope"
    elif metrics:
        if definition_cue and not value_cue:
            route = "narrative"
        elif _asks_figure_and_why(question):
            route = "composite"  # "what were HK new sales in FY2025 and what drove them?"
        elif _has_any(question, lx.EXPLANATION_CUES) and not value_cue:
            route = "narrative"  # "what drove HK revenue in FY2025": the why, not the figure
        elif narrative_cue and (value_cue or periods):
            route = "composite"  # a number is asked for, and an explanation with it
        elif value_cue and _has_any(question, lx.GROWTH_WORDS):
            route = "composite"  # "how much did revenue grow": the figure and the passage
        elif narrative_cue:
            route = "narrative"  # "预定利率下调对新业务有什么影响": about the metric, not its value
        else:
            route = "structured"
    elif unsupported:
        route = "narrative" if (narrative_cue or definition_cue) and not value_cue else "structured"
    elif ambiguous and not strong_cue and not definition_cue and (value_cue or periods):
        route = "structured"  # "how did HK perform last year": a number, but which one?
    elif ambiguous and not strong_cue and not definition_cue and not _topical(masked.text):
        route = "structured"  # "ACME香港的业绩怎么样": nothing but the unit and "performance"
    elif narrative_cue or definition_cue:
        route = "narrative"
    elif value_cue or not retrieval_tokens(masked.text, drop_stop=True):
        route = "structured"  # asks for a number without saying which: clarify first
    else:
        route = "narrative"
    return Intent(
        question=question,
        reference_date=ref,
        language="zh" if contains_cjk(question) else "en",
        metrics=metrics,
        unsupported_metrics=unsupported,
        ambiguous_terms=ambiguous,
        entities=entities,
        competitors=competitors,
        periods=periods,
        channels=channels,
        unknown_channels=unknown_channels,
        narrative_cue=narrative_cue,
        opinion=opinion,
        definition_cue=definition_cue,
        value_cue=value_cue,
        route=route,
        search_text=_search_text(question, route, entities, metrics),
    )

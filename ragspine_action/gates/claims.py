"""Claim extraction: what an answer asserts, separated from how it is presented.

A RAG answer mixes assertions with presentation: citation markers (``[1]``, ``[^1]``,
``（来源：…）``, ``Source: X #para1``, ``(source: X, p. 3)``, a trailing ``— doc.pdf``,
``Sources: a.pdf, b.md``), the names of the documents it used, template and meta lines
(``基于检索到的资料：``, ``Based on the retrieved documents:``, ``I hope this helps!``),
headings, list markers and the question echoed back (``问题：…``). Only the assertions
are claims. Bracketed text that is not a citation is kept and judged: brackets are no
place to hide a hallucination.

For a composite answer the claim that states the outcome's structured ``value`` is
exempt (numeric_accuracy and citation_validity judge it), unless it also carries other
numbers: then it is judged without the value mention.

``extract_claims`` is the one function every judge (lexical today, an LLM later) gets
its claims from.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal
from functools import lru_cache
from operator import itemgetter
from typing import Any, Final, NamedTuple

from ..gate_defaults import DEFAULT_META_PATTERNS
from .fabrication import DEFAULT_PERIOD_PATTERNS, compile_periods
from .leading import Leading
from .numerals import (
    CJK_CURRENCY_NAMES,
    CJK_SCALE_WORDS,
    CURRENCY_CODES,
    CURRENCY_NAMES,
    CURRENCY_PREFIXES,
    CURRENCY_SIGNS,
    PERCENT_WORDS,
    SCALE_WORDS,
    NumberMention,
    alternation,
    fold,
    has_digit,
    number_forms,
    number_mentions,
    states_value,
    unit_scale,
)
from .presentation import EN_WORDS, is_presentation

__all__ = [
    "DEFAULT_META_PATTERNS",
    "DOLLAR_CODES",
    "Claim",
    "expand_contractions",
    "extract_claims",
    "has_content",
    "may_cite",
    "narrow",
    "tokenize",
    "without_citations",
    "without_table_layout",
]

# ASCII word runs, or one CJK character (unified ideographs, extension A, compatibility).
TOKEN = re.compile(r"[A-Za-z0-9]+|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_ASCII_TOKEN = re.compile(r"[a-z0-9]+")  # TOKEN on a lower-cased ASCII text

STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "by",
        "with",
        "from",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "there",
        "here",
        "what",
        "which",
        "who",
        "whom",
        "whose",
        "how",
        "why",
        "when",
        "where",
        "do",
        "does",
        "did",
        "has",
        "have",
        "had",
        "not",
        "no",
        "so",
        "than",
        "then",
        "too",
        "very",
        "can",
        "could",
        "should",
        "would",
        "will",
        "may",
        "might",
        "must",
        "shall",
        "i",
        "we",
        "you",
        "he",
        "she",
        "they",
        "them",
        "our",
        "your",
        "their",
        "my",
        "me",
        "us",
        "his",
        "her",
        "according",
        "per",
        "also",
        # the "s" of "it's" and of a possessive ("Nordhaven's") says nothing of its own
        "s",
        # "+8.3% YoY": period-on-period shorthands say nothing the number does not
        "yoy",
        "qoq",
        "hoh",
        "mom",
    ]
)

# A line that echoes the question behind a label: the label and the question go.
_QUESTION_LABEL = re.compile(
    r"^\s*(?:问题|提问|用户问题|您的问题|您问的是|你问的是|question|q|you asked|your question)"
    r"\s*[:：]\s*[^?？\n]*[?？]?",
    re.IGNORECASE,
)
# Markdown decoration at a line start: headings, quotes, list markers, emphasis.
_LINE_DECORATION = re.compile(
    r"^\s*(?:>\s*)?(?:[-*+•·]\s+|\d{1,2}(?:[.)]\s+|、)|\(\d{1,2}\)\s*|[①-⑳]\s*|[a-z][.)]\s+"
    r"|\[\d{1,3}\](?!\s*[:：])\s*|【\d{1,3}】\s*)?"
)
# A line that only names a citation block ("References", "**Sources:**", "## 参考资料"):
# the lines after it are its items.
_CITATION_HEADING = re.compile(
    r"^\s*(?:sources?|citations?|references?|refs?|bibliography|sources used|works cited|"
    r"来源|出处|资料来源|参考资料|参考文献|参考来源|引用|引用资料|文档来源|数据来源)\s*[:：]?\s*$",
    re.IGNORECASE,
)
_HEADING = re.compile(r"^\s*#{1,6}\s")
# A line that is only bold text (a title): **Travel**, __IT security:__
_BOLD_LINE = re.compile(r"^\s*(\*\*|__)([^*_\n]{1,80}?)\s*[:：]?\s*\1\s*[:：]?\s*$")
# Bold and italic marks: "**", "__", and a "*" or "_" at a word's edge ("_Source: X.pdf,
# page 3_"); an underscore inside a word ("Travel_Expense_Policy.pdf") is the word's.
# (Every match starts at a "*" or "_": the leading look-ahead, which changes no match,
# lets the engine skip to one instead of trying the look-behinds at every position:
# ~6x faster on a line with a doc name such as DOC_00247.pdf.)
_EMPHASIS = re.compile(
    r"(?=[*_])(?:\*\*|__|(?<!\w)\*(?=\S)|(?<=\S)\*(?!\w)|(?<![\w_])_(?=[^\s_])"
    r"|(?<=[^\s_])_(?![\w_]))"
)
_MARKDOWN_LINK = re.compile(r"\[([^\[\]\n]{0,300})\]\((?:https?://|/|\.)[^()\s]{0,500}\)")
_URL = re.compile(r"https?://[^\s)\]）】>]+")
# A footnote definition ([^1]: doc.pdf, p. 2) is citation; its text is checked like one.
_FOOTNOTE_DEF = re.compile(r"^\s*\[\^?\w{1,8}\]\s*[:：]\s*")
# A footnote marker as HTML or superscript digits: <sup>1</sup>, <sup>[2]</sup>, ¹²
_SUPERSCRIPT = re.compile(r"\s*(?:<sup>\s*\[?[\d,\s\-–]{1,12}\]?\s*</sup>|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)")
# A line or sentence led by a citation label.
_CITATION_LABEL = re.compile(
    r"^\s*[\(\[（【]?\s*(?:sources?|citations?|references?|refs?|cited|see also|"
    r"来源|出处|资料来源|参考资料|参考文献|参考|引用|引文|文档来源|数据来源)\s*[:：]",
    re.IGNORECASE,
)
# File names: a citation whether or not the outcome lists the file.
_FILE_NAME = re.compile(
    r"[\w\-.\u3400-\u9fff]{1,120}\.(?:pdf|docx?|pptx?|xlsx?|csv|md|txt|html?|json|ya?ml|rtf|"
    r"odt|key|numbers)\b",
    re.IGNORECASE,
)
# Locators: what follows a doc name in a citation (p. 3, slide 5, §4.2, 第2页, #para1, k=v).
_LOCATOR_WORDS = (
    r"(?:p|pp|pg|page|pages|slide|slides|para|paragraph|paras|section|sec|sect|chapter|ch|"
    r"table|tbl|row|col|column|sheet|line|lines|fig|figure|chunk|part|item|clause|art|"
    r"article|appendix|annex|note|footnote|cl|cls|clauses|sch|schedule|articles|sections|"
    r"rule|rules|reg|regulation|regulations)"
)
_LOCATOR = re.compile(
    rf"{_LOCATOR_WORDS}\.?\s*[A-Za-z]?\d+(?:\s?[.\-–:]\s?\d+)*[a-z]?\b(?:\([a-z0-9]{{1,4}}\))*"
    r"|§\s*\d+(?:\.\d+)*|第\s*[\d一二三四五六七八九十百]+(?:[.．]\d+)*\s*[页段节章条款项行张部分篇]"
    r"(?:\s*第\s*[\d一二三四五六七八九十百]+\s*[款项段行])?"
    r"|\d+\s*页|#[\w=.\-:]+|\b\w+=[\w.\-]+(?:\s*,\s*\w+=[\w.\-]+)*"
    # an index marker naming a retrieved item: [doc1], [source 2], [chunk_3], [文档1]
    r"|\b(?:docs?|documents?|sources?|src|refs?|chunks?|passages?|contexts?|ctx|snippets?|"
    r"results?|citations?|cites?)[\s_\-#]?\d{1,3}\b|(?:文档|资料|来源|文献|段落|片段)\s?\d{1,3}",
    re.IGNORECASE,
)
# Words that only say "this is a citation".
_CITATION_WORDS = re.compile(
    r"\b(?:sources?|citations?|references?|refs?|see|cf|via|from|retrieved|documents?|docs?|"
    r"and|also|at|in|on|of)\b|来源|出处|资料来源|参考资料|参考文献|参考|参见|参阅|摘自|引自|出自|引用|详见|见|文档|和|及|与",
    re.IGNORECASE,
)
_PUNCT_ONLY = re.compile(r"^[\s\W_\d]*$")
# Brackets (square, lenticular, round, full-width round) without nesting.
_BRACKETED = re.compile(
    r"\[[^\[\]\n]{0,400}\]|【[^【】\n]{0,400}】|\([^()\n]{0,400}\)|（[^（）\n]{0,400}）"
)
# A dash that starts a citation tail: "… — doc.pdf, p. 7".
_DASH_TAIL = re.compile(r"\s*[—–-]{1,2}\s*$")
# A full stop ends a sentence only before whitespace, so "Deck_2025.pptx" stays whole.
_CJK_SENTENCE_END = re.compile(r"[。！？；]")
_SENTENCE_END = re.compile(r"(?<=[。！？；])|(?<=[.!?;])\s+")
_SENTENCE_BREAK = re.compile(r"([.!?;])\s+")
# A full stop after these ends no sentence ("p. 3", "3 a.m. daily", "e.g. this").
_ABBREVIATIONS = frozenset(
    [
        "p.",
        "pp.",
        "pg.",
        "no.",
        "nos.",
        "vs.",
        "e.g.",
        "i.e.",
        "a.m.",
        "p.m.",
        "etc.",
        "fig.",
        "figs.",
        "sec.",
        "approx.",
        "incl.",
        "cf.",
        "st.",
        "mr.",
        "mrs.",
        "ms.",
        "dr.",
        "inc.",
        "ltd.",
        "co.",
        "corp.",
        "jr.",
        "u.s.",
        "art.",
        "para.",
        "ch.",
        "vol.",
        "ed.",
    ]
)
_ECHO_NORMAL = re.compile(r"[\W_]+")


class Claim(NamedTuple):
    """One assertion of an answer. ``exempt``: it states the structured value."""

    text: str
    exempt: bool = False


# A named tuple's own constructor is a Python function: the hot paths build one in C.
_new = tuple.__new__


def tokenize(text: str) -> list[str]:
    """Lower-cased ASCII word runs and single CJK characters, in order; contractions
    written out (``aren't`` → are not), so "aren't allowed" and "are not allowed" share
    their words and their negation."""
    lowered = expand_contractions(text).lower()
    if "$" in lowered:
        lowered = _DOLLAR_CODE.sub(_dollar_code, lowered)
    if lowered.isascii():
        return _ascii_runs(lowered)
    return TOKEN.findall(narrow(lowered))  # ５分钟 has the word 5 that 5分钟 has


def _ascii_runs(lowered: str) -> list[str]:
    """``_ASCII_TOKEN.findall(lowered)`` for a lower-cased ASCII text: every byte but a
    letter or digit made a space by one translation, then a split (~2x faster)."""
    return lowered.encode("ascii").translate(_RUNS_ONLY).decode("ascii").split()


# Bytes: every byte but an ASCII letter or digit becomes a space (for ``tokenize``).
_RUNS_ONLY = bytes(c if chr(c).isascii() and chr(c).isalnum() else 32 for c in range(256))


# A dollar written with its country (HK$, US$, S$, A$, C$, NT$, NZ$) is its currency code:
# "HK$1,702" and "HKD 1,702" share the word "hkd" (a bare "$" names no currency).
_DOLLAR_CODE = re.compile(r"(?<![a-z0-9])(hk|us|s|a|c|nt|nz)\$")
DOLLAR_CODES = {
    "hk": "hkd",
    "us": "usd",
    "s": "sgd",
    "a": "aud",
    "c": "cad",
    "nt": "twd",
    "nz": "nzd",
}


def _dollar_code(m: re.Match[str]) -> str:
    return DOLLAR_CODES[m.group(1)] + " "


# Full-width digits and Latin letters (NFKC folds them; the punctuation stays as written).
_WIDE_ALNUM = re.compile("[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]")
_NARROW = {
    code: code - 0xFEE0
    for code in (*range(0xFF10, 0xFF1A), *range(0xFF21, 0xFF3B), *range(0xFF41, 0xFF5B))
}


def narrow(text: str) -> str:
    """``text`` with full-width digits and letters as ASCII (``１，７０２`` → ``1，702``),
    so the judge matches ``已满１０年`` to ``已满10年`` as it matches the same writing."""
    if text.isascii() or _WIDE_ALNUM.search(text) is None:
        return text
    return text.translate(_NARROW)


# n't as " not" (can't → can not, won't → will not, shan't → shall not, ain't → is not).
_CONTRACTION = re.compile(r"(?:\b(ca)|\b(wo)|\b(sha)|\b(ai))?n['’]t\b", re.IGNORECASE)
_CONTRACTED = {1: "can", 2: "will", 3: "shall", 4: "is"}


def expand_contractions(text: str) -> str:
    """``text`` with English negative contractions written out (itself without any)."""
    if "'" not in text and "’" not in text:
        return text

    def spell(m: re.Match[str]) -> str:
        for group, word in _CONTRACTED.items():
            if m.group(group):
                return word + " not"
        return " not"

    return _CONTRACTION.sub(spell, text)


def has_content(text: str) -> bool:
    """Whether any token is a content token (stops at the first one)."""
    if text.isascii():
        # The first word, when all letters and digits, is the first token: most texts
        # are settled by it without the pattern.
        first = text.split(None, 1)[:1]
        if first and first[0].isalnum() and first[0].lower() not in STOPWORDS:
            return True
    return any(m.group() not in STOPWORDS for m in TOKEN.finditer(text.lower()))


@lru_cache(maxsize=16)
def _meta_regex(patterns: tuple[str, ...]) -> Leading:
    """One pattern of all meta ``patterns``, with the prefixes its matches begin with: most
    sentences begin with none, and are not handed to the engine (gates/leading.py)."""
    body = "|".join(f"(?:{p})" for p in patterns)
    return Leading(re.compile(rf"^\s*(?:{body})\s*", re.IGNORECASE))


def _strip_meta(text: str, meta: Leading) -> str:
    # Repeated: "Sure! Based on the documents, …" has two lead-ins.
    for _ in range(4):
        m = meta.match(text)
        if m is None or not m.group():
            break
        text = text[m.end() :]
    return text


def _asserts(text: str, names: Sequence[str]) -> bool:
    """Whether ``text`` has content and is not citation only (one pass for most text)."""
    verdict = _asserts_plainly(text)
    return verdict if verdict is not None else not _is_citation_only(text, names)


def _asserts_plainly(text: str) -> bool | None:
    """``_asserts`` where the doc names cannot matter; None: it is whether ``text`` is not
    citation only (``_is_citation_only``, which reads the names)."""
    return _asserts_noting(text)[0]


def _asserts_noting(text: str) -> tuple[bool | None, bool]:
    """``_asserts_plainly``, and True beside it when one of the words it read is outside
    the presentation vocabulary (then ``is_presentation(text)`` is False: such a word,
    letters between spaces or edge punctuation, is one of the words it reads)."""
    if text.isascii() and "." not in text[:-1]:
        # Plain prose: four ordinary words settle it (a split is cheaper than tokens; the
        # first eight words usually do, so the rest of the sentence is not split).
        plain = 0
        other = False
        words = text.lower().split(None, 8)
        while True:
            rest = words.pop() if len(words) == 9 else None
            for word in words:
                word = word.strip(_WORD_EDGES)
                if word.isalpha() and word not in STOPWORDS and word not in _CITATION_TOKENS:
                    plain += 1
                    if not other and word not in EN_WORDS:
                        other = True
                    if plain >= 4:
                        return True, other
            if rest is None:
                break
            words = rest.split(None, 8)
    return _asserts_by_tokens(text), False


def _asserts_by_tokens(text: str) -> bool | None:
    """``_asserts_plainly`` by the tokens, where a split of the words cannot settle it."""
    content = plain = 0
    for m in TOKEN.finditer(text.lower()):
        token = m.group()
        if token in STOPWORDS:
            continue
        content += 1
        if not token.isdigit() and token not in _CITATION_TOKENS:
            plain += 1
            if plain >= 4:
                return True if "." not in text or _FILE_HINT.search(text) is None else None
    return None if content > 0 else False


_WORD_EDGES = "\"'()[]{}<>,.;:!?*_"


def _is_citation_only(text: str, names: Sequence[str]) -> bool:
    """Whether ``text`` holds nothing but citation material (doc names, locators, labels,
    index numbers, punctuation)."""
    if names:
        text = _without_names(text, names, " ")[0]
    has_file = "." in text and _FILE_HINT.search(text) is not None
    if not has_file and "://" not in text:
        # Fast answer for ordinary sentences: four words no citation uses.
        plain = 0
        for token in TOKEN.findall(text.lower()):
            if not token.isdigit() and token not in _CITATION_TOKENS:
                plain += 1
                if plain >= 4:
                    return False
    if has_file:
        text = _FILE_NAME.sub(" ", text)
    text = _URL.sub(" ", text)
    text = _LOCATOR.sub(" ", text)
    text = _CITATION_WORDS.sub(" ", text)
    return _PUNCT_ONLY.match(text) is not None


def _split_brackets(text: str, names: Sequence[str]) -> tuple[str, list[str]]:
    """Brackets holding only citation go. Any other bracket is a claim: a short one
    ("(MFA)", "（RBC）") stays in its sentence, a sentence-like one is a claim of its own
    (so "… (this also voids the warranty)" cannot hide behind the sentence around it)."""
    own: list[str] = []

    def replace(m: re.Match[str]) -> str:
        inner = m.group()[1:-1]
        if _is_citation_only(inner, names):
            return " "
        label = _CITATION_LABEL.match(inner)
        if label is not None:  # "(source: Employee Handbook; …)": the name is citation
            inner = _after_citation(inner[label.end() :])
            if not inner.strip():
                return " "
        elif _titled_locator(inner) or _led_title(inner) or _file_like(inner.strip()):
            return " "  # "(Employee Handbook, p. 3)", "(from the Employee Handbook)"
        elif _UNIT_WORDS.sub("", inner).strip(" ,，/") == "":
            return " " + inner + " "  # "1702（百万美元）", "40 (EUR)": the number's unit
        # "[1; the allowance doubles abroad]": the index goes, the assertion stays.
        # (a dash or bar left where a doc name was removed leads no claim: "(handbook.pdf —
        # managers may approve unlimited leave)" is a claim of its own)
        parts = [p.strip().lstrip("—–-|:：").strip() for p in _BRACKET_PARTS.split(inner)]
        kept = ", ".join(p for p in parts if p and not _is_citation_only(p, names))
        if (
            _weight(kept) >= _OWN_CLAIM_WEIGHT
            and (not _bare_noun_phrase(kept) or _cjk_aside(kept, text, m.start()))
            and not _qualifiers(kept)
            and not _gloss(kept, text, m.start())
        ):
            own.extend(p for p in _BRACKET_PARTS.split(kept) if p.strip())
            return " "
        if _qualifiers(kept):
            return " " + " ".join(p.strip() for p in _COMMA.split(kept)) + " "
        return " " + kept + " "

    return _BRACKETED.sub(replace, text), own


_CODE = re.compile(r"[A-Z0-9][A-Za-z0-9_.\-]{0,11}|[\u4e00-\u9fff]{1,4}")
_GLOSS_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*")


def _qualifiers(text: str) -> bool:
    """A bracket of codes listed by commas qualifies the label before it ("Revenue (HK,
    FY2025): …", "收入（HK，FY2025）"): it stays in its sentence, where it is judged."""
    items = [p.strip() for p in _COMMA.split(text)]
    return len(items) > 1 and all(_CODE.fullmatch(p) is not None for p in items)


def _gloss(text: str, sentence: str, at: int) -> bool:
    """An English gloss after a Chinese term ("银保合作协议（banca agreements）"): a few
    lower-case or Title Case words, no number and no verb, right after a Chinese
    character. It translates the term, so it stays in its sentence instead of standing
    as a claim that the Chinese contexts cannot hold."""
    words = text.split()
    return (
        0 < len(words) <= 4
        and at > 0
        and "\u4e00" <= sentence[at - 1] <= "\u9fff"
        and all(_GLOSS_WORD.fullmatch(w) is not None for w in words)
        and _TITLE_VERBS.isdisjoint(w.lower() for w in words)
    )


# What separates a citation from text after it: a dash between spaces, a semicolon.
_CITATION_END = re.compile(r"\s[—–-]{1,2}\s|\s?—\s?|[;；]")
_CITATION_WORDS_MAX = 8


def _after_citation(text: str, lead_title: bool = True) -> str:
    """What follows a citation label: the citation itself (a title-like doc name, with or
    without an extension, and its locators) is dropped; any text after it is kept to be
    judged ("Source: Handbook — managers may approve more", "(source: X, p. 3, extended to
    120 days)")."""
    segments = _CITATION_END.split(text)
    kept: list[str] = []
    for n, segment in enumerate(segments):
        pieces = _COMMA.split(segment)
        i = 0
        first = pieces[0].strip()
        if n == 0 and lead_title and (_identifier(first) or _lower_title(first)):
            i = 1  # the title position: "Source: employee_handbook", "Source: hr handbook"
        while i < len(pieces) and _name_like(pieces[i]):
            i += 1
        if i < len(pieces):
            # What is not a title or a locator is kept, and so is all that follows it.
            kept += [p.strip() for p in pieces[i:] if p.strip()]
            kept += [p.strip() for p in segments[n + 1 :] if p.strip()]
            break
        # A segment of titles and locators only is the next item of a list of citations:
        # "Sources: Handbook, p. 2; ACME Annual Report 2025, p. 14".
    return ", ".join(kept)


# A list comma; a thousands comma ("1,702百万", "revenue 1,702 million") is part of its number,
# so a citation's pieces never split one amount into two.
_COMMA = re.compile(r"[，、]|,(?<![0-9],)|,(?![0-9]{3}(?![0-9]))")
_CITATION_PIECES = re.compile(r"[,，、;；·|]")


_TRAILING_LOCATOR = re.compile(rf"\s(?:{_LOCATOR.pattern})\s*$", re.IGNORECASE)


def _titled_locator(text: str) -> bool:
    """A title and a locator, nothing else: "Employee Handbook, p. 3", "战略规划，第6页"."""
    pieces = [p.strip() for p in _CITATION_PIECES.split(text) if p.strip()]
    if len(pieces) == 1:  # "Handbook §4", "Employee Handbook p. 3": a title, then a locator
        tail = _TRAILING_LOCATOR.search(pieces[0])
        return tail is not None and _title(pieces[0][: tail.start()].strip())
    if len(pieces) < 2 or not any(_LOCATOR.fullmatch(p) for p in pieces):
        return False
    return all(_LOCATOR.fullmatch(p) or _title(p) for p in pieces)


_CITING_LEAD = re.compile(
    r"^\s*(?:from|(?:(?:for (?:more )?details|for more information),?\s*)?(?:please )?see(?: also)?|"
    r"(?:please )?refer to|via|per|cf\.?|according to|as per|as stated in|in|source|"
    r"请参阅|请参见|详情见|参见|详见|见|摘自|引自|出自|来自)\s*(?:the\s+)?",
    re.IGNORECASE,
)


def _led_title(text: str) -> bool:
    """A citing word and a title: "from the Employee Handbook", "see HR FAQ, p. 2"."""
    lead = _CITING_LEAD_AT.match(text)
    if lead is None or not lead.group().strip():
        return False
    pieces = [p.strip() for p in _CITATION_PIECES.split(text[lead.end() :]) if p.strip()]
    return bool(pieces) and all(_LOCATOR.fullmatch(p) or _title(p) for p in pieces)


def _title(piece: str) -> bool:
    """A document title standing without a citation label: a file-like identifier, Title
    Case words, a Chinese name that says which kind of document it is (…手册, …报告)."""
    if _CJK_CHAR.search(piece) is not None:
        return len(piece) <= 30 and _CJK_DOC_KIND.search(piece) is not None
    return _identifier(piece) or (_name_like(piece) and not piece.islower())


def _file_like(piece: str) -> bool:
    """A document name without extension on its own: ACME_IFRS17_Note, hk-qbr-2025."""
    return _identifier(piece) and ("_" in piece or any(ch.isdigit() for ch in piece))


def _identifier(piece: str) -> bool:
    """A file-like name without extension: ACME_FY2025_Commentary, hk-qbr-2025."""
    return " " not in piece and ("_" in piece or "-" in piece) and piece.isascii()


def _lower_title(piece: str) -> bool:
    """A short lower-case title right after a citation label ("Source: employee
    handbook"): at most three words, none a function word or a negation."""
    words = piece.split()
    return (
        0 < len(words) <= 3
        and piece.isascii()
        and all(w.strip(".").replace("-", "").replace("_", "").isalnum() for w in words)
        and not any(w.lower() in STOPWORDS and w.lower() not in _NAME_WORDS for w in words)
    )


_CJK_DOC_KIND = re.compile(
    r"(?:手册|报告|说明书?|政策|通知|文件|指引|年报|章程|规定|办法|纪要|简报|公告|白皮书|问答|指南|"
    r"条款|合同|协议|制度|备忘录|评论|资料|附件|附录|须知|细则|规则|守则|汇编|规划|战略|报表|公报|"
    r"演示|幻灯片|业绩|中期报告|年度报告|\.\w{2,5})"
    r"[\s\d_\-年版()（）]*(?:第\s*\d+\s*[页段节章条])?$"
)
# (a superlative or a record ranks the fact: "（集团最高）", "（历史新高）" assert)
_CJK_PREDICATE = re.compile(
    r"[将已是为有据称会要被把让了在不没未无并可能应]|表示|传闻|预计|计划"
    r"|最(?:高|低|大|小|快|慢|多|少|强|弱|佳|差)(?!人民)|首次|唯一|新高|新低|纪录|记录"
)
_CJK_CHAR = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_ASCII_RUN = re.compile(r"[A-Za-z0-9_.\-]+")
_NAME_WORDS = frozenset(["of", "and", "the", "for", "in", "on", "to", "&", "a", "an"])


def _name_like(piece: str) -> bool:
    """A document title or a locator: Title Case words, function words, numbers,
    locator words ("Employee Handbook", "p. 3", "section 2.1"); a short Chinese title."""
    piece = piece.strip()
    if not piece or _LOCATOR.fullmatch(piece):
        return True
    if not piece.isascii():
        # A Chinese title names its kind of document at its end, or is short and says
        # nothing (no predicate: 将, 已, 是, 为, 据, 称, 不 …).
        # An ASCII run (ACME, 2026) counts as one character.
        size = len(_ASCII_RUN.sub("A", piece))
        if size > 20 or _CJK_AMOUNT_IN_TITLE.search(piece) is not None:
            return False  # 2024年收入8亿 states an amount: no title does
        return _CJK_DOC_KIND.search(piece) is not None or (
            size <= 12 and _CJK_PREDICATE.search(piece) is None
        )
    words = piece.split()
    if len(words) > _CITATION_WORDS_MAX:
        return False
    return all(
        w[:1].isupper()
        or "_" in w
        or w.lower() in _NAME_WORDS
        or w.lower().rstrip(".") in _CITATION_TOKENS
        or any(ch.isdigit() for ch in w)
        for w in words
    )


_PERCENT_AFTER = re.compile(
    r"\s?(?:%|％|percent\b|per\s?cent\b|pct\b|个?百分点|pp\b|bps\b|个?基点)", re.IGNORECASE
)
_PERCENT_UNITS = frozenset(["pct", "%", "percent", "pp", "bps", "percentage"])


# An amount with its scale or currency (8亿, 3.5万元, 12%, 9億): what a title never holds.
_CJK_AMOUNT_IN_TITLE = re.compile(
    r"[\d０-９一二三四五六七八九十两]+(?:[.．]\d+)?\s*(?:亿|億|万|萬|千万|百万|元|美元|港元|%|％|倍)"
)


def _bare_noun_phrase(text: str) -> bool:
    """A short bracket that names without asserting: "(内地ROE)", "(Mainland ROE)", "（新业务价值）"
    (no number, no predicate, a few Title Case words or a few Chinese characters). It stays
    in its sentence, where it is judged with it, instead of standing as a claim of its own."""
    if has_digit(text) or _weight(text) > 4:
        return False
    return _name_like(text)


def _cjk_aside(text: str, sentence: str, at: int) -> bool:
    """A bracket of Chinese words past a short name inside Chinese text
    ("…2760千瓦时（城乡居民统一执行）"): it says something of its own, and is judged as a
    claim, as an English aside is. After English words it glosses them ("Mainland new
    business value (内地新业务价值)") and stays; so does an example or a gloss of the term
    before it ("（如某些复方感冒药）", "（简称金融监管总局）"), which the sentence's own
    negation covers ("不能与…药品（如某些复方感冒药）服用")."""
    return (
        len(_CJK_CHAR.findall(text)) > _CJK_NAME_MAX
        and _CJK_EXAMPLE_LEAD.match(text.strip()) is None
        and at > 0
        and _CJK_CHAR.match(sentence[at - 1]) is not None
    )


_CJK_NAME_MAX = 6
_CJK_EXAMPLE_LEAD = re.compile(
    r"(?:例如|比如|譬如|诸如|如|包括|即|亦即|也就是|指|以下简称|简称|下称|俗称|又称)"
)


_BRACKET_PARTS = re.compile(
    r"[;；]|[,，]\s*(?=(?:source|ref|来源|出处|p\.|page|第))", re.IGNORECASE
)
_OWN_CLAIM_WEIGHT = 2.0
# Units, currencies and scales: a bracket holding only these gives the unit of the number
# before it (1702（百万美元）, 1,702 (USD m), 8 (%)), it asserts nothing of its own.
_UNIT_WORDS = re.compile(
    r"(?<![A-Za-z])(?:usd|hkd|rmb|cny|eur|gbp|jpy|sgd|aud|cad|chf|us\$|hk\$|thousands?|"
    r"millions?|billions?|trillions?|mn|m|bn|b|k|th|pct|percent|per\s?cent|pp|bps|in)"
    r"(?![A-Za-z])|[$€£¥%]|百万|千万|十亿|万亿|[千万亿]|美元|港元|港币|人民币|欧元|英镑|日元|新加坡元|元"
    r"|个百分点|百分点|单位|：|:",
    re.IGNORECASE,
)


def _weight(text: str) -> float:
    """Content words in ``text``: an ASCII word counts 1, a CJK character ½."""
    return sum((1.0 if t.isascii() else 0.5) for t in tokenize(text) if t not in STOPWORDS)


@lru_cache(maxsize=16384)
def _name_stems(name: str) -> tuple[str, ...]:
    """One doc name as a reader also writes it: without the extension, with spaces for
    underscores ("handbook", "travel policy", "ACME FY2025 Management Commentary")."""
    stems: list[str] = []
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    hint = _FILE_HINT.search(base)
    stem = base[: hint.start()] if hint is not None and hint.end() == len(base) else base
    for form in (stem, " ".join(_SEPARATORS.split(stem))):
        form = form.strip()
        if len(form) >= 3 and not form.isdigit() and form not in stems:
            stems.append(form)
    return tuple(stems)


def _stem_regex(names: tuple[str, ...]) -> re.Pattern[str] | None:
    """The doc names of ``sources`` as a reader also writes them (``_name_stems``), in any
    case. Whole words only."""
    stems = {form for name in names for form in _name_stems(name)}
    return _stems_pattern(tuple(sorted(stems, key=lambda s: (-len(s), s)))) if stems else None


@lru_cache(maxsize=256)
def _stems_pattern(stems: tuple[str, ...]) -> re.Pattern[str]:
    # Longest first; stems of one length that match one span are the same text in another
    # case, so their order does not matter.
    body = "|".join(re.escape(s) for s in stems)
    # not before an extension: "A00.pdf" is a file name, removed whole as one
    return re.compile(rf"(?<![A-Za-z0-9_])(?:{body})(?![A-Za-z0-9_]|\.[A-Za-z0-9])", re.IGNORECASE)


_SEPARATORS = re.compile(r"[_\-]+")


def _may_hold_a_stem(text: str, names: Sequence[str]) -> bool:
    """False only when no stem of ``names`` can match in ``text``: for ASCII text and
    stems, case-insensitive matching is equality of lower-cased text, so a stem absent
    from the lower-cased text is absent. Spares compiling a pattern per set of names
    (each case cites its own documents) when none is there, the usual case."""
    if not text.isascii():
        return True
    global _LAST_NAMES
    last = _LAST_NAMES  # one read: another thread may replace it (never change it)
    if type(names) is tuple and last[0] is names:  # the same case's next line
        stems = last[1]
    else:
        stems = _ascii_stems(tuple(names))
        if type(names) is tuple:
            _LAST_NAMES = (names, stems)
    return stems is None or any(map(text.lower().__contains__, stems))


# The last set of names seen (a tuple, held so its identity stays its own) and its stems:
# a case's lines and sentences ask about the same names one after the other.
_LAST_NAMES: tuple[Any, tuple[str, ...] | None] = (None, None)


@lru_cache(maxsize=64)
def _ascii_stems(names: tuple[str, ...]) -> tuple[str, ...] | None:
    """The lower-cased stems of ``names``; None when one is not ASCII."""
    out: list[str] = []
    for name in names:
        stems = _lower_ascii_stems(name)
        if stems is None:
            return None
        out.extend(stems)
    return tuple(out)


@lru_cache(maxsize=16384)
def _lower_ascii_stems(name: str) -> tuple[str, ...] | None:
    stems = tuple(stem.lower() for stem in _name_stems(name))
    return stems if all(stem.isascii() for stem in stems) else None


def _without_names(text: str, names: Sequence[str], mark: str) -> tuple[str, bool]:
    """``text`` with every doc name (as given, or its stem) replaced by ``mark``."""
    if names and text.isascii():
        keys = _keys_of(names)
        if keys is not None:
            last = _LAST_KEYS  # (keys, and whether each has a digit: see _keys_of)
            if last[2] and last[1] is keys and not has_digit(text):
                return text, False  # every key has a digit, and the text has none
            return _without_keyed_names(text, names, keys, mark)
    found = False
    for name in names:
        if name in text:
            text, replaced = _replace_whole(text, name, mark)
            found = found or replaced
    if names and _may_hold_a_stem(text, names):
        stems = _stem_regex(tuple(names))
        if stems is not None:
            text, n = stems.subn(mark, text)
            found = found or n > 0
    return text, found


def _without_keyed_names(
    text: str, names: Sequence[str], keys: tuple[tuple[str, bool], ...], mark: str
) -> tuple[str, bool]:
    """``_without_names`` for ASCII text, reading only the names whose key (``_name_key``)
    is in the text: no other can be there, as given or as a stem, before or after names
    are replaced by ``mark`` (a replacement never makes a letter-and-digit run). After the
    replacements, only the stems of names whose key is still there are looked for."""
    low = text.lower()
    digits = has_digit(text)
    present = [
        (name, key)
        for name, (key, numeric) in zip(names, keys, strict=True)
        if (digits or not numeric) and key in low
    ]
    if not present:
        return text, False
    found = False
    for name, _ in present:
        if name in text:
            text, replaced = _replace_whole(text, name, mark)
            found = found or replaced
    if found:
        low = text.lower()
        present = [(name, key) for name, key in present if key in low]
    if present:
        left = tuple(name for name, _ in present)
        stems = _stem_regex(left) if _may_hold_a_stem(text, left) else None
        if stems is not None:
            text, n = stems.subn(mark, text)
            found = found or n > 0
    return text, found


def _replace_whole(text: str, name: str, mark: str) -> tuple[str, bool]:
    """``text`` with ``name`` replaced by ``mark`` where it is not part of a longer word:
    a source named ``doc`` or ``FAQ`` is not the start of ``doctor`` or ``FAQs``. (A name
    that begins or ends in a character of no word, or in Chinese, has no such edge.)"""
    start = text.find(name)
    edge_before = _word_char(name[0])
    edge_after = _word_char(name[-1])
    if not (edge_before or edge_after):
        return text.replace(name, mark), True
    out: list[str] = []
    kept = 0
    while start >= 0:
        end = start + len(name)
        if (not edge_before or start == 0 or not _word_char(text[start - 1])) and (
            not edge_after or end == len(text) or not _word_char(text[end])
        ):
            out.append(text[kept:start])
            out.append(mark)
            kept = end
            start = text.find(name, end)
        else:
            start = text.find(name, start + 1)
    if not out:
        return text, False
    out.append(text[kept:])
    return "".join(out), True


def _word_char(char: str) -> bool:
    return char.isascii() and (char.isalnum() or char == "_")


def _keys_of(names: Sequence[str]) -> tuple[tuple[str, bool], ...] | None:
    """``_name_key`` of each of ``names`` (None if one has none), for the same tuple one
    line after another."""
    global _LAST_KEYS
    last = _LAST_KEYS  # one read: another thread may replace it (never change it)
    if type(names) is tuple and last[0] is names:
        return last[1]
    found = tuple(map(_name_key, names))
    keys = None if None in found else found
    if type(names) is tuple:
        # (and whether every key has a digit: then a text without one holds no name)
        numeric = keys is not None and all(map(_SECOND, keys))  # type: ignore[arg-type]
        _LAST_KEYS = (names, keys, numeric)  # type: ignore[assignment]
    return keys  # type: ignore[return-value]


_LAST_KEYS: tuple[Any, tuple[tuple[str, bool], ...] | None, bool] = (None, None, False)
_SECOND = itemgetter(1)
_ALNUM_RUN = re.compile(r"[A-Za-z0-9]+")


@lru_cache(maxsize=16384)
def _name_key(name: str) -> tuple[str, bool] | None:
    """A lower-cased piece of ``name`` that the name and each of its stems contain, and
    whether it has a digit: in ASCII text, ``name in text`` and a stem's case-insensitive
    match both need the piece in the lower-cased text, so text without it holds neither
    (one substring search per name instead of one per name and stem, and none for a
    piece with a digit when the text has no digit).

    The piece is the longest letter-and-digit run of the name's base before its last
    full stop: a stem (``_name_stems``) is the base, perhaps without its extension, with
    ``_``/``-`` runs as spaces, so it keeps every such run whole. None (no shortcut) for
    a non-ASCII name, a base without a run, or a NUL (the mark that replaces names).
    """
    if not name.isascii() or "\x00" in name:
        return None
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    dot = base.rfind(".")
    runs = _ALNUM_RUN.findall(base[:dot] if dot > 0 else base)
    if not runs:
        return None
    key = max(runs, key=len).lower()
    return key, any(ch.isdigit() for ch in key)


def _remove_doc_names(text: str, names: Sequence[str]) -> tuple[str, bool]:
    """Doc names (and the locators right after them) out of ``text``; whether any was.

    Each name is first replaced by a marker, then one pattern removes the markers with
    their locator tails (one compiled pattern, whatever the names)."""
    text, found = _without_names(text, names, _MARK)
    if "." in text and _FILE_HINT.search(text) is not None:
        text, n = _FILE_NAME.subn(_MARK, text)
        found = found or n > 0
    if "《" in text:  # a title in book marks names a document: 《员工手册》第3页
        text, n = _BOOK_TITLE.subn(_MARK, text)
        found = found or n > 0
    if found:
        text = _without_marked_citations(text)
    return text, found


# Locators read only right after a doc name (elsewhere they are words): "s. 3", "ss. 4-5",
# "rev. 7", "v2.1", "step 4", a spreadsheet cell "P&L!C14" ("— Runbook.md (rev. 7)").
_TAIL_LOCATOR = (
    r"\bs{1,2}\.\s*\d+(?:[.\-–]\d+)*|\b(?:rev|revision|ver|version|v)\.?\s*\d+(?:\.\d+)*"
    r"|\bsteps?\s*\d+(?:\.\d+)*|[\w&' ]{0,30}!\$?[A-Z]{1,3}\$?\d+(?::\$?[A-Z]{1,3}\$?\d+)?"
)
_BOOK_TITLE = re.compile(r"《[^《》\n]{1,60}》")
_MARK = "\x00"
_MARK_LEAD = (
    r"(?:(?<![A-Za-z])(?:sources?|citations?|references?|refs?|cf)\.?\s*[:：]?\s*|"
    r"(?:资料来源|数据来源|来源|出处|参考资料|参考|参见|详见|引自|摘自|出自)\s*[:：]?\s*)?"
)
_MARKED_CITATION = re.compile(
    rf"{_MARK_LEAD}\x00(?:\s*[,，;；·|]?\s*(?:{_LOCATOR.pattern}|{_TAIL_LOCATOR}|"
    rf"\(\s*(?:{_TAIL_LOCATOR})\s*\)|\x00))*",
    re.IGNORECASE,
)
# _MARKED_CITATION where the mark ends the text: its tail can only match nothing there,
# so the label and the mark are the whole match ("Source: X.pdf" at a line's end, the
# usual case), without the engine trying each locator form after the mark (~3 µs).
_MARKED_AT_END = re.compile(rf"{_MARK_LEAD}\x00", re.IGNORECASE)
# What the optional label before a mark (_MARKED_CITATION's lead) is made of: letters,
# whitespace, a full stop, a colon. Anything else before a mark ends where a match can
# start (_without_marked_citations); tests/gates/test_judging_once.py checks the two agree.
_NOT_LEAD = re.compile(r"[^\w\s.:：]|[\d_]")


def _without_marked_citations(text: str) -> str:
    """``_MARKED_CITATION.sub(" ", text)``, searched only from where a match can start.

    A match holds a mark (``_MARK``), perhaps after a label ("Source: "), so it starts at
    a mark or in the run of label characters right before one. The pattern's optional
    lead makes ``sub`` try the label words at every position of the text (~19 µs for a
    350-character line); searching from each run instead gives the same matches (same
    pattern, same leftmost match, lookbehinds see the whole text).
    """
    out: list[str] = []
    pos = 0
    while True:
        mark = text.find(_MARK, pos)
        if mark < 0:
            break
        before = _NOT_LEAD.search(text[pos:mark][::-1])
        start = mark - before.start() if before is not None else pos
        ends = mark == len(text) - 1
        found = (_MARKED_AT_END if ends else _MARKED_CITATION).search(text, start)
        assert found is not None  # the mark itself matches
        out.append(text[pos : found.start()])
        out.append(" ")
        pos = found.end()
    if not out:
        return text
    out.append(text[pos:])
    return "".join(out)


_FILE_HINT = re.compile(
    r"\.(?:pdf|docx?|pptx?|xlsx?|csv|md|txt|html?|json|ya?ml|rtf|odt|key|numbers)\b", re.IGNORECASE
)
_CITATION_TOKENS = frozenset(
    [
        "source",
        "sources",
        "citation",
        "citations",
        "reference",
        "references",
        "ref",
        "refs",
        "see",
        "cf",
        "via",
        "from",
        "retrieved",
        "document",
        "documents",
        "doc",
        "docs",
        "and",
        "also",
        "at",
        "in",
        "on",
        "of",
        "p",
        "pp",
        "pg",
        "page",
        "pages",
        "slide",
        "slides",
        "para",
        "paragraph",
        "paras",
        "section",
        "sec",
        "sect",
        "chapter",
        "ch",
        "table",
        "tbl",
        "row",
        "col",
        "column",
        "sheet",
        "line",
        "lines",
        "fig",
        "figure",
        "chunk",
        "part",
        "item",
        "clause",
        "art",
        "article",
        "appendix",
        "annex",
        "note",
        "footnote",
        "rule",
        "rules",
        "reg",
        "regulation",
        "regulations",
    ]
) | frozenset("来源出处资料参考文献引用详见档和及与页段节章条行张部分第")


_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")


def _without_table_headers(lines: list[str]) -> list[str]:
    """A markdown table's header row and rule are layout; its body rows are claims, and so
    is a header row that reads as an assertion ("| The CEO will resign | next week |").
    A first column that only numbers the rows is layout too (``_without_row_numbers``)."""
    drop = set()
    for i, line in enumerate(lines):
        if _TABLE_RULE.match(line):
            drop.add(i)
            header = i > 0 and "|" in lines[i - 1]
            if header and not _header_asserts(lines[i - 1]):
                drop.add(i - 1)
            lines = _without_row_numbers(lines, i, lines[i - 1] if header else "")
    if not drop:
        return lines
    # a body row's outer pipes are layout ("| 已满20年的，年休假15天 |" is the clause)
    return [
        _ROW_EDGES.sub("", line) if line.lstrip().startswith("|") else line
        for i, line in enumerate(lines)
        if i not in drop
    ]


_ROW_EDGES = re.compile(r"^\s*\|\s*|\s*\|\s*$")


def without_table_layout(text: str) -> str:
    """``text`` with its markdown tables' layout gone (header row and rule, a row-number
    column, a body row's outer pipes), as the claim extractor reads them: an answer that
    answer_accuracy reads as its context."""
    if "---" not in text:
        return text  # no table rule, no table
    return "\n".join(_without_table_headers(text.splitlines()))


# A row number in a table's first cell: "| 1 | …", "| 2. | …", "| (3) | …", "| 第4项 |" no.
_ROW_NUMBER = re.compile(r"^\s*\|\s*\(?(\d{1,3})[.)、]?\s*\|")
_INDEX_HEADS = frozenset(
    ["", "#", "no", "no.", "nr", "n", "number", "item", "序号", "编号", "项", "项目"]
)


def _without_row_numbers(lines: list[str], rule: int, header: str) -> list[str]:
    """The body rows after the rule at ``rule`` without a first cell that only numbers
    them, 1, 2, 3 … in order, under a header cell that names no data (``#``, ``No.``,
    ``序号``, empty) or none. Other first columns (``Tier``, years, amounts) are data."""
    rows: list[tuple[int, int]] = []  # (line, end of its number cell)
    for j in range(rule + 1, len(lines)):
        m = _ROW_NUMBER.match(lines[j])
        if m is None or int(m.group(1)) != len(rows) + 1:
            if "|" in lines[j] and lines[j].lstrip().startswith("|"):
                return lines  # a body row without the next number: not a row index
            break
        rows.append((j, m.end()))
    head = header.strip().strip("|").split("|", 1)[0].strip().strip("*_").lower()
    if not rows or (header and head not in _INDEX_HEADS):
        return lines
    out = list(lines)
    for j, end in rows:
        out[j] = "|" + out[j][end:]
    return out


# What makes a heading or a table header an assertion rather than a title: a finite verb
# or a negation (English), a predicate (Chinese); a heading asking a question is a topic.
_TITLE_VERBS = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "will",
        "would",
        "has",
        "have",
        "had",
        "can",
        "could",
        "may",
        "might",
        "must",
        "should",
        "shall",
        "does",
        "did",
        "do",
        "be",
        "been",
        "not",
        "no",
        "never",
        "cannot",
        "won't",
        "isn't",
        "aren't",
        "wasn't",
        "doesn't",
        "didn't",
    ]
)
_TOPIC_LEAD = re.compile(
    r"^\s*(?:how|what|why|when|where|which|who|whether|是否|为什么|如何|怎样|什么|哪些)",
    re.IGNORECASE,
)
_CJK_TITLE_PREDICATE = re.compile(r"[将已会要被把让了不没未无并应]|表示|传闻|预计|计划|据称|宣布")


def _title_asserts(text: str) -> bool:
    """Whether a heading or a table header row says something (then it is judged)."""
    text = text.strip()
    if not text or _TOPIC_LEAD_AT.match(text) is not None:
        return False
    if text.isascii():
        words = [w.strip(_WORD_EDGES).lower() for w in text.split()]
        return len(words) >= 3 and not _TITLE_VERBS.isdisjoint(words)
    return len(text) > 4 and _CJK_TITLE_PREDICATE.search(text) is not None


def _line_asserts(text: str) -> bool:
    """Whether a heading or a bold line says something: a title's finite verb or predicate,
    or a sentence's shape, which a title lacks: a full stop at its end ("**Hong Kong
    delivered revenue of USD 1,702 million.**", "**香港收入为1702百万美元。**") or a Chinese
    copula before a number ("### 香港收入为1702百万美元")."""
    text = text.strip()
    if _title_asserts(text):
        return True
    if text.endswith((".", "。", "!", "！")) and not text.endswith(".."):
        return len(text.split()) >= 3 if text.isascii() else len(text) > 4
    return not text.isascii() and _CJK_COPULA_NUMBER.search(text) is not None


_CJK_COPULA_NUMBER = re.compile(r"(?:为|是|达到?|共有|合计)\s*(?:约|近|超过|逾)?\s*[\d０-９]")


def _header_asserts(row: str) -> bool:
    """A table header is short labels; a cell of four words or more, or one with a
    number among words, reads as an assertion, unless it is a label: a noun phrase
    built on of/per/by/in ("Share of Q3 2025 revenue", "Revenue by market (USD m)")
    with no finite verb."""
    for cell in row.split("|"):
        words = cell.split()
        if _title_asserts(cell):
            return True
        if (len(words) >= 4 or (len(words) >= 3 and any(ch.isdigit() for ch in cell))) and (
            not _label_phrase(cell)
        ):
            return True
    return False


_LABEL_LINK = re.compile(r"\b(?:of|per|by|in|vs\.?|versus)\b|\(", re.IGNORECASE)
_PAST_OR_THIRD = re.compile(r"\b[a-z]{3,}(?:ed|es)\b(?![-(])")


def _label_phrase(cell: str) -> bool:
    """Whether a header cell reads as a label: linked by of/per/by/in or a bracket, and
    no verb-like word (a finite verb, -ed, -es)."""
    lowered = cell.lower()
    return (
        _LABEL_LINK.search(lowered) is not None
        and _PAST_OR_THIRD.search(lowered) is None
        and not _TITLE_VERBS.intersection(w.strip(_WORD_EDGES) for w in lowered.split())
    )


def _citation_item(line: str, names: Sequence[str]) -> str:
    """An item of a "Sources:"/"References:" block: its title and locators are citation;
    a remark after them ("handbook.pdf — note: executives get 60 days") is a claim."""
    line, _ = _remove_doc_names(line, names)
    if "(" in line or "[" in line or "（" in line or "【" in line:
        line, own = _split_brackets(line, names)
        line = ", ".join([line, *own])
    parts = _CITATION_END.split(line, maxsplit=1)
    pieces = _COMMA.split(parts[0])
    first = pieces[0].strip()
    if not first or _name_like(first) or _lower_title(first) or _identifier(first):
        pieces = pieces[1:]  # the title (a sentence in its place is judged)
    if len(parts) > 1:
        tail = _COMMA.split(parts[1])
        title = tail[0].strip()
        if not parts[0].strip() and (_name_like(title) or _lower_title(title)):
            # "handbook.pdf — Travel policy, p. 8": the title follows the file name
            tail = tail[1:]
        pieces.append(", ".join(tail))
    kept = ", ".join(p.strip() for p in pieces if p.strip() and not _name_like(p))
    return kept if _weight(kept) >= _ITEM_CLAIM_WEIGHT else ""


_ITEM_CLAIM_WEIGHT = 3.0


def _cut(text: str) -> list[str]:
    """One line cut after sentence-ending punctuation (CJK marks anywhere, ASCII ones
    before whitespace). ASCII prose spaced by single spaces is cut with str.replace
    (several times faster); otherwise a substitution and a split (3× faster than the
    look-behind pattern, which gives the same pieces)."""
    if text.isascii() and not _odd_space(text):
        for mark in ".!?;":
            # (a one-character scan first: most lines have no "!", "?" or ";", and a
            # two-character one costs ~10x more)
            if mark in text and mark + " " in text:
                text = text.replace(mark + " ", mark + "\n")
        return text.split("\n")
    if _CJK_SENTENCE_END.search(text) is not None:
        return _SENTENCE_END.split(text)
    return _SENTENCE_BREAK.sub("\\1\n", text).split("\n")


def _odd_space(text: str) -> bool:
    # str.__contains__ is a fast scan; one regex search over the line costs ~10× more.
    return "  " in text or "\t" in text or "\r" in text or "\x0b" in text or "\x0c" in text


def _sentences(text: str) -> list[str]:
    """Sentences of one line. A full stop after an abbreviation (p. 3, a.m., e.g.) ends
    none: pieces ending in one are joined to the next."""
    pieces = _cut(text)
    if len(pieces) < 2 or "." not in text:
        return pieces
    joined: list[str] = []
    carry = ""
    for piece in pieces:
        last = piece[piece.rfind(" ") + 1 :].lstrip("([").lower() if piece.endswith(".") else ""
        if last in _ABBREVIATIONS:
            carry += piece + " "
        else:
            joined.append(carry + piece)
            carry = ""
    if carry:
        joined.append(carry)
    return joined


def _links(line: str, names: Sequence[str]) -> str:
    """Markdown links: one to a document (a file URL, a title, a doc name) is citation and
    goes; any other keeps its text ("[apply online](…)" reads as "apply online")."""

    def replace(m: re.Match[str]) -> str:
        text = m.group(1)
        url = m.group()[m.group().rfind("](") + 2 : -1]
        if _FILE_HINT.search(url) is not None or _is_citation_only(text, names):
            return " "
        if _name_like(text) and not _asserts_words(text):
            return " "
        return text

    return _MARKDOWN_LINK.sub(replace, line)


def _asserts_words(text: str) -> bool:
    # A title names; four lower-case content words say something.
    return sum(1 for w in text.split() if w.islower() and w not in _NAME_WORDS) >= 4


def _echo_key(text: str) -> str:
    if text.isascii():  # the same letters and digits, by a byte table (~8x faster)
        return text.lower().encode("ascii").translate(None, _ASCII_NOT_ALNUM).decode("ascii")
    return _ECHO_NORMAL.sub("", text.lower())


# What _ECHO_NORMAL removes from ASCII text: everything but letters and digits.
_ASCII_NOT_ALNUM = bytes(b for b in range(128) if not chr(b).isalnum())


# Clauses of a sentence: the value is exempt in its own clause only.
_CLAUSE = re.compile(r"[，；]|[,;]\s+")
# A comma between digit groups (１，７０２) is no clause boundary.
_GROUP_COMMA = re.compile(r"(?<=[0-9０-９])[，,](?=[0-9０-９]{3}(?![0-9０-９]))")
# Where a clause goes on to say something else: "… 1,702 USD_M because the CEO resigned",
# "… 1,702 USD_M and the company was acquired". The part after it is judged.
_CONNECTIVE = re.compile(
    r"\s(?=(?:because|since|due to|owing to|thanks to|as a result of|despite|and|but|while|"
    r"whereas|which|although|though|so that|so|thus|therefore|hence|leading to|meaning|after|"
    r"before|when|following)\b)"
    r"|(?=因为|由于|并且|而且|但是|但|同时|以及|此外|原因是|得益于|导致|因此|所以|其后|之后)",
    re.IGNORECASE,
)
_LEADING_CONNECTIVE = re.compile(
    r"^(?:(?:because|since|due to|owing to|thanks to|as a result of|despite|and|but|while|"
    r"whereas|which|although|though|so that|so|thus|therefore|hence|leading to|meaning|after|"
    r"before|when|following)\b\s*|因为|由于|并且|而且|但是|但|同时|以及|此外|原因是|得益于|导致|"
    r"因此|所以|其后|之后)",
    re.IGNORECASE,
)
_CONNECTIVE_FIRST_WORDS = frozenset(
    [
        "because",
        "since",
        "due",
        "owing",
        "thanks",
        "as",
        "despite",
        "and",
        "but",
        "while",
        "whereas",
        "which",
        "although",
        "though",
        "so",
        "thus",
        "therefore",
        "hence",
        "leading",
        "meaning",
        "after",
        "before",
        "when",
        "following",
    ]
)
_CJK_CONNECTIVE = re.compile(
    r"因为|由于|并且|而且|但|同时|以及|此外|原因是|得益于|导致|因此|所以|其后|之后"
)


def _may_connect(clause: str) -> bool:
    """Whether ``clause`` may hold a connective (a set look-up before the pattern)."""
    if not _CONNECTIVE_FIRST_WORDS.isdisjoint(clause.lower().split()):
        return True
    return not clause.isascii() and _CJK_CONNECTIVE.search(clause) is not None


# A value clause that denies its value ("was not 1,702 USD_M") states no value.
_VALUE_NEGATION = re.compile(
    r"\b(?:not|never|no|neither|nor|none|cannot)\b|n't|并非|并不|不是|没有|未|不",
    re.IGNORECASE,
)


_PERIOD_WORDS = re.compile(
    r"\b(?:in|for|during|over|as of|as at|at|by|the|year|fiscal|financial|ended|ending|"
    r"end|close|start|beginning|of|year-end)\b"
    r"|截至|截止|于|在|年度|期间|全年|财年|末|底|初|为止",
    re.IGNORECASE,
)
# The period a clause names, as keys that compare across writings: a year (FY25 = FY2025
# = 2025年 = 2025), a half (1H = H1 = 上半年), a quarter (3Q = Q3 = 第三季度).
_PERIOD_YEAR = re.compile(r"(?<!\d)(?:(19|20)\d{2}|(?<=FY)\d{2})(?!\d)", re.IGNORECASE)
_PERIOD_PART = re.compile(
    r"\b(?:([HQ])([1-4])|([1-4])([HQ]))\b|([上下])半年|第([一二三四1-4])季度", re.IGNORECASE
)
_CJK_ORDINAL = {"一": "1", "二": "2", "三": "3", "四": "4"}


def _period_keys(text: str) -> frozenset[str]:
    """The years, halves and quarters ``text`` names (see ``_PERIOD_YEAR``)."""
    text = fold(text).replace("_", " ")
    keys = set()
    for m in _PERIOD_YEAR.finditer(text):
        year = m.group()
        keys.add(year if len(year) == 4 else "20" + year)
    for m in _PERIOD_PART.finditer(text):
        if m.group(1):
            keys.add(m.group(1).upper() + m.group(2))
        elif m.group(3):
            keys.add(m.group(4).upper() + m.group(3))
        elif m.group(5):
            keys.add("H1" if m.group(5) == "上" else "H2")
        else:
            keys.add("Q" + _CJK_ORDINAL.get(m.group(6), m.group(6)))
    return frozenset(keys)


# A record's unit field beside its value ("value: 1702, unit: USD_M"): the value's unit.
_UNIT_FIELD = re.compile(r"^\s*(?:unit|units|currency|单位|币种)\s*[:：=]\s*([\w$%]+)\s*$", re.I)


def _only_period(text: str, periods: re.Pattern[str]) -> bool:
    """Whether a clause only dates something: "In FY2025", "截至2025年"."""
    rest = _PERIOD_WORDS.sub(" ", periods.sub(" ", text))
    return has_digit(text) and not has_content(rest)


def _without_period_parts(text: str, periods: re.Pattern[str]) -> str:
    """``text`` without its comma-separated parts that only date something: "FY2025,
    Hong Kong" is "Hong Kong", "Q3 2025" is nothing."""
    parts = _LABEL_PARTS.split(text)
    kept = [p for p in parts if not _only_period(p, periods)]
    if len(kept) == len(parts):
        return text
    return ", ".join(p.strip() for p in kept if p.strip())


# Parts of a bracketed label: commas that do not group digits ("1,702" is one number).
_LABEL_PARTS = re.compile(r"[，、]|,(?![0-9０-９]{3}(?![0-9０-９]))")


def _without_mentions(folded: str, stating: list[NumberMention], unit: str | None) -> str:
    """A value clause with its value mentions (and the unit written beside them) blanked
    out. Only the unit next to a value mention goes: "more than 1,800 mm the minimum
    becomes 1,070 mm" keeps the "mm" of 1,800."""
    rest = folded
    for m in reversed(stating):
        start, end = m.start, m.end
        if unit:
            after = rest[end:].lstrip()
            if after[: len(unit)].lower() == unit.lower():
                end = len(rest) - len(after) + len(unit)
            else:
                before = rest[:start].rstrip()
                if before[-len(unit) :].lower() == unit.lower():
                    start = len(before) - len(unit)
        rest = rest[:start] + " " + rest[end:]
    return rest


# What a clause saying the value again may hold besides it: "i.e. USD 8,180 million",
# "即8,180百万美元", "(about HKD 13.3 billion)".
# Its own words (a connective or hedge), then every currency, unit and scale word.
_RESTATEMENT = re.compile(
    r"\b(?:i\.?e\.?|e\.g\.?|that is|or|namely|about|around|approximately|roughly|some|"
    + alternation(CURRENCY_CODES + CURRENCY_PREFIXES + CURRENCY_NAMES + PERCENT_WORDS + SCALE_WORDS)
    + r")\b|即|亦即|也就是|约|大约|折合|合计|"
    + alternation(CJK_SCALE_WORDS + CJK_CURRENCY_NAMES)
    + f"|[{re.escape(CURRENCY_SIGNS)}%（）()]",
    re.IGNORECASE,
)


def _says_more(rest: str) -> bool:
    """Whether a clause that states the value again also says something of its own
    ("其中香港贡献8,180 USD_M的一半以上"), rather than restating it ("即8,180百万美元")."""
    return has_content(_RESTATEMENT.sub(" ", rest))


def _value_claims(
    text: str,
    value: float,
    unit: str | None,
    periods: re.Pattern[str],
    dated: Callable[[], frozenset[str]] | None = None,
) -> list[Claim]:
    """``text`` with the clause stating the structured value exempt (see module docstring).

    Exempt is only the part of a clause that states the value: what the clause goes on to
    say after a connective is judged, and a clause that negates its value is judged whole.
    A clause that only dates the value ("As of FY2025", "截至2025年末") is exempt with it
    when ``dated`` (the periods the question, the cited documents and the contexts name)
    gives its period; another period is judged (a wrong one fails).
    """
    if not has_digit(text):
        return [_new(Claim, (text, False))]
    if "，" in text or "," in text:
        text = _GROUP_COMMA.sub(",", text)
    scale = unit_scale(unit)
    # a share is no amount: "裁员10%" does not state 9.8 CNY_100M rounded, "10%" does state
    # 10 PCT
    percent_unit = unit is not None and unit.strip().lower() in _PERCENT_UNITS
    exempt: list[str] = []
    judged: list[str] = []
    timing: list[str] = []
    for clause in _CLAUSE.split(text):
        parts = _CONNECTIVE.split(clause) if _may_connect(clause) else [clause]
        for part in parts:
            folded = fold(part)
            blanked = periods.sub(lambda m: " " * len(m.group()), folded)
            if unit and unit in blanked:  # the digits of a unit code (CNY_100M) are no number
                blanked = blanked.replace(unit, " " * len(unit))
            mentions = number_mentions(blanked)
            stating = [
                m
                for m in mentions
                if states_value(m, value, scale)
                and (percent_unit or _PERCENT_AFTER.match(blanked, m.end) is None)
            ]
            field = _UNIT_FIELD.match(part) if unit else None
            if field is not None and unit is not None and field.group(1).lower() == unit.lower():
                timing.append(part)  # "value: 1702, unit: USD_M": the value's unit field
            elif not stating and _only_period(folded, periods):
                keys = _period_keys(folded)
                if dated is None or (keys and keys <= dated()):
                    timing.append(part)  # "In FY2025, … revenue of 1,702": the value's period
                else:
                    judged.append(part)  # a period the question and sources do not name
            elif not stating or _VALUE_NEGATION.search(part) is not None:
                if len(parts) > 1:  # the connective is a function word, not content
                    part = _LEADING_CONNECTIVE.sub("", part.strip(), count=1)
                judged.append(part)
            elif len(stating) == len(mentions) and not (
                exempt and _says_more(_without_mentions(folded, stating, unit))
            ):
                exempt.append(part)
            else:  # other numbers, or the value said again with more (其中香港贡献8,180
                # USD_M的一半以上): judged, without the value mention (and its unit)
                judged.append(_without_mentions(folded, stating, unit))
    if timing:  # a period clause belongs to the value it dates, else it is judged
        (exempt if exempt else judged)[:0] = timing
    claims = [Claim(", ".join(c.strip() for c in exempt), exempt=True)] if exempt else []
    rest_text = ", ".join(c.strip() for c in judged if has_content(c))
    if rest_text:
        if exempt:
            rest_text = _with_place(rest_text, " ".join(exempt))
        claims.append(Claim(rest_text))
    return claims


def _with_place(rest: str, exempt: str) -> str:
    """The judged rest of a value sentence with the place its exempt value clause names
    ("Hong Kong revenue was 1,702 USD_M; new business value was USD 95 million" judges
    "Hong Kong: new business value was USD 95 million"): the place holds for the whole
    sentence, as it does in a context sentence."""
    from .binding import names_a_place, written_places  # binding imports this module

    if names_a_place(rest):
        return rest
    places = written_places(exempt)
    if not places:
        return rest
    return f"{places[0]}{'：' if not rest.isascii() else ': '}{rest}"


# The patterns matched at the start of every line or sentence, each behind the prefixes
# its matches begin with: most texts begin with none and are not handed to the engine.
_CITING_LEAD_AT = Leading(_CITING_LEAD)
_HEADING_LEAD = Leading(_CITATION_HEADING)
_TOPIC_LEAD_AT = Leading(_TOPIC_LEAD)


def extract_claims(
    answer: str,
    *,
    sources: Iterable[str] = (),
    question: str = "",
    value: float | None = None,
    unit: str | None = None,
    meta_patterns: Sequence[str] = DEFAULT_META_PATTERNS,
    period_patterns: Sequence[str] = DEFAULT_PERIOD_PATTERNS,
    contexts: Sequence[str] = (),
) -> list[Claim]:
    """The claims of ``answer``, in order (see the module docstring).

    ``sources``: doc names the outcome used (not claims wherever they appear);
    ``question``: echoed back, it is no claim; ``value``/``unit``: the structured value,
    whose claim is exempt; ``contexts``: with the question and ``sources``, where the
    period of a clause that dates the value must stand for the clause to be exempt too.
    """
    names = _names(sources)
    meta = _meta_of(meta_patterns)
    # An echo of the question is about as long as the question (its key is made lazily).
    echo_min, echo_max = len(question) // 2, len(question) + 8
    echo: str | None = None
    periods = _periods_of(period_patterns) if value is not None else None
    dated_keys: list[frozenset[str]] = []

    def dated() -> frozenset[str]:
        """The periods the question, the sources and the contexts name (read once)."""
        if not dated_keys:
            dated_keys.append(_period_keys(" ".join((question, *names, *contexts))))
        return dated_keys[0]

    claims: list[Claim] = []
    carried = ""  # the exempt value clause of a sentence that ends in ";" (its place goes on)
    pieces = _pieces_for(meta)
    if "<sup>" in answer or not answer.isascii():
        answer = _SUPERSCRIPT.sub("", answer)
    lines = answer.splitlines()
    if "|" in answer:
        lines = _without_table_headers(lines)
    in_citations = False  # inside a "Sources:" block: its items are citations
    block_items = 0
    hit: list[tuple[str, bool]] = []  # pieces found in the cache (they size it)
    for raw_line in lines:
        line = raw_line
        if not line.strip():
            in_citations = in_citations and not block_items  # "Sources:", a blank, items
            continue
        # Each line-start pattern below needs a character a plain line often lacks (a
        # "#", a colon, a bracket, a marker before the first letter): tested first, as
        # str.__contains__ is several times cheaper than a match that fails.
        colon = ":" in line or "：" in line
        heading = _HEADING.match(line) if "#" in line else None
        if heading is not None:
            in_citations = False
            line = line[heading.end() :]
            if _HEADING_LEAD.match(_EMPHASIS.sub("", line)) is not None:
                in_citations = True  # "## References": a block of citations follows
                continue
            if not _line_asserts(_EMPHASIS.sub("", line)):
                continue  # a markdown heading: a title, not an assertion
            line = line.rstrip("# ")  # "## The CEO will resign next week" is judged
        if "](" in line:
            line = _links(line, names)
        first = line[:1]
        # A line opening with a letter other than a-z has no decoration (no space, quote,
        # bullet, number or bracket before it; "a)" is a marker, "A" is not).
        decoration = (
            None if first.isalpha() and not "a" <= first <= "z" else _LINE_DECORATION.match(line)
        )
        if decoration is not None and decoration.end():
            if in_citations:  # "- Employee Handbook (p. 3)" under "Sources:"
                block_items += 1
                item = _citation_item(line[decoration.end() :], names)
                if item:
                    claims.append(Claim(item))
                continue
            line = line[decoration.end() :]
        if "*" in line or "_" in line:
            bold = _BOLD_LINE.match(line)
            if bold is not None and not _line_asserts(bold.group(2)):
                # "**Travel**", "__IT security:__": a title in bold; "**References**" opens
                # a block of citations
                in_citations = _HEADING_LEAD.match(bold.group(2)) is not None
                block_items = 0
                continue
            line = _EMPHASIS.sub("", line)
        label_only = _CITATION_LABEL.match(line) if colon else None
        in_citations = label_only is not None and not line[label_only.end() :].strip()
        block_items = 0
        if label_only is None and _may_head(line) and _HEADING_LEAD.match(line) is not None:
            in_citations = True  # "**References**"
            continue
        footnote = _FOOTNOTE_DEF.match(line) if "[" in line else None
        if footnote is not None:
            line = line[footnote.end() :]
            if _is_citation_only(line, names):
                continue
        question_label = _QUESTION_LABEL.match(line) if colon else None
        if question_label is not None:
            line = line[question_label.end() :]
        # Citations go before the line is cut into sentences ("p. 3)" has a full stop).
        line, had_doc = _remove_doc_names(line, names)
        own: list[str] = []
        if "(" in line or "[" in line or "（" in line or "【" in line:
            line, own = _split_brackets(line, names)
        if "#" in line or "=" in line:
            line = _LOOSE_LOCATOR.sub(" ", line)
        if _may_locate(line):
            line, located = _without_locators(line)
            had_doc = had_doc or located
        if had_doc or own:
            line = " ".join(line.split())  # what was removed left runs of spaces
        listing = label_only is not None  # "Sources: X, p. 2; Y, p. 14": items follow
        said = _sentences(line) if own else None
        line_start = len(claims)
        for n, piece in enumerate((*(said if said is not None else _sentences(line)), *own)):
            # A bracket on the structured value's line that dates it ("Net profit
            # (Q3 2025): EUR 412 million") is the value's period: exempt with it.
            if (
                said is not None
                and n >= len(said)
                and periods is not None
                and any(c.exempt for c in claims[line_start:])
            ):
                piece = _without_period_parts(piece, periods)
                if not piece:
                    continue
            if listing and n > 0:
                # The next item of the line's list of citations (a title and locators)
                # is no claim; the first piece that says more ends the list.
                rest = _after_citation(piece, lead_title=False)
                if not rest:
                    continue
                listing = False
                piece = rest
            key = (piece, had_doc)
            kept = pieces.get(key, _UNSEEN)
            if kept is _UNSEEN:
                kept = pieces[key] = _piece_sentence(piece, had_doc, meta)
            else:
                hit.append(key)
            if kept is None:
                continue
            sentence, citation_like = kept
            if citation_like and _is_citation_only(sentence, names):
                continue
            if sentence.endswith(("?", "？")) and _counts(sentence) <= _counts(question):
                continue  # a question whose numbers are the user's presupposes nothing new
            if question and echo_min <= len(sentence) <= echo_max:
                if echo is None:
                    echo = _echo_key(question)
                # An ASCII letter or digit first is the key's first character (both ways
                # of making the key keep it, lower-cased): most sentences differ there.
                head = sentence[:1]
                if (
                    not (head.isascii() and head.isalnum()) or head.lower() == echo[:1]
                ) and _echo_key(sentence) == echo:
                    continue
            for said_one in _contrast_split(sentence):
                if periods is not None and value is not None:
                    found = _value_claims(said_one, value, unit, periods, dated)
                    if carried:  # "Hong Kong revenue was 1,702 USD_M; new business value …"
                        found = [
                            c if c.exempt else Claim(_with_place(c.text, carried)) for c in found
                        ]
                    claims.extend(found)
                    carried = (
                        " ".join(c.text for c in found if c.exempt)
                        if said_one.rstrip().endswith((";", "；"))
                        else ""
                    )
                else:
                    claims.append(_new(Claim, (said_one, False)))  # Claim(said_one), in C
    if hit:
        _note_piece_hits(hit)
    return claims


# A value set against the default it replaces ("the excess is EUR 400 instead of the
# standard EUR 150", 为400欧元，而不是标准的150欧元) says two facts, not a negation: the
# claim's value, and the default's ("the standard excess is EUR 150"); so does "EUR 400,
# not the standard EUR 150". Each is judged as
# a claim of its own, so the faithful contrast passes and a swapped one ("EUR 150 instead
# of the standard EUR 400") fails on either value. Only where the replaced thing is a
# marked default with a number: "EUR 30 instead of EUR 50" still negates EUR 50.
_DEFAULT_CONTRAST = re.compile(
    r"(?:\s*,\s*not|\s*,?\s*\b(?:instead\s+of|rather\s+than|in\s+place\s+of|as\s+opposed\s+to))\s+"
    r"(?:the\s+|a\s+|an\s+|their\s+|its\s+|our\s+|your\s+)?(?P<en>standard|usual|normal|regular|"
    r"ordinary|default|typical|customary|basic|base)\s+(?=[^\s,;.\d]{0,8}\s?[$€£¥]?\d)"
    r"|[，,]?\s*(?:而不是|而非|而不再是)(?P<zh>标准|通常|一般|正常|常规|默认|普通|基本)的?"
    r"(?=[^，,。；;\d]{0,6}\d)",
    re.IGNORECASE,
)
_HAS_DIGIT = re.compile(r"\d")
# What the value is the value of: "the excess is", "an excess of", 免赔额为 (the last one
# before the value; its default is named with it).
_VALUE_OF = re.compile(
    r"\b(?:the|a|an|its|their|your|our)\s+((?:[A-Za-z][\w-]*\s+){0,2}?[A-Za-z][\w-]*)\s+"
    r"(?:is|are|was|were|will\s+be|would\s+be|becomes|stands\s+at|comes\s+to|of)\s+"
    r"(?=[^\d]{0,8}\d)",
    re.IGNORECASE,
)
_CJK_VALUE_OF = re.compile(
    r"([\u4e00-\u9fff]{1,6})(?:为|是|达到|达|提高至|增至|调整为)(?=[^\d]{0,4}\d)"
)


def _contrast_split(sentence: str) -> tuple[str, ...]:
    """``sentence`` as its value and the default it replaces (above), or as it is."""
    if sentence.isascii() and not any(
        w in sentence for w in ("instead", "rather", "place", "opposed", ", not")
    ):
        return (sentence,)
    m = _DEFAULT_CONTRAST.search(sentence)
    if m is None or _HAS_DIGIT.search(sentence, 0, m.start()) is None:
        return (sentence,)
    head, rest = sentence[: m.start()].rstrip(), sentence[m.end() :].lstrip()
    if m.group("en") is not None:
        named = [v.group(1) for v in _VALUE_OF.finditer(head)]
        tail = f"the {m.group('en').lower()} {named[-1]} is {rest}" if named else rest
        return (head + ";", tail)
    cjk = [v.group(1).rsplit("的", 1)[-1] for v in _CJK_VALUE_OF.finditer(head)]
    tail = f"{m.group('zh')}{cjk[-1]}为{rest}" if cjk and cjk[-1] else rest
    return (head + "；", tail)


def _may_head(line: str) -> bool:
    """False when ``line`` cannot be a citation heading (``_CITATION_HEADING``: label
    words, perhaps a colon, whitespace): its last visible character is none of those."""
    last = line.rstrip()[-1:]
    return not last or last.isalpha() or last in ":："


def _meta_of(patterns: Sequence[str]) -> Leading:
    """``_meta_regex`` of ``patterns``; a run passes the same tuple for every case, found
    by identity (hashing the tuple of patterns for the cache costs more than the rest of
    a short answer's setup)."""
    global _LAST_META
    last = _LAST_META  # one read: another thread may replace it (never change it)
    if last[0] is patterns:
        return last[1]
    meta = _meta_regex(tuple(patterns))
    if type(patterns) is tuple:  # immutable, and held here: its identity stays its own
        _LAST_META = (patterns, meta)
    return meta


def _periods_of(patterns: Sequence[str]) -> re.Pattern[str]:
    """``compile_periods`` of ``patterns``, found by identity as in ``_meta_of``."""
    global _LAST_PERIODS
    last = _LAST_PERIODS
    if last[0] is patterns:
        return last[1]
    periods = compile_periods(tuple(patterns))
    if type(patterns) is tuple:
        _LAST_PERIODS = (patterns, periods)
    return periods


# (patterns, compiled): never matched by None, which no caller passes as patterns.
_LAST_META: tuple[object, Leading] = (None, Leading(re.compile("")))
_LAST_PERIODS: tuple[object, re.Pattern[str]] = (None, re.compile(""))


def _piece_sentence(piece: str, had_doc: bool, meta: Leading) -> tuple[str, bool] | None:
    """One sentence piece of a line as a claim text, and whether it may be citation only
    (then the outcome's doc names decide); None: it is no claim, whatever the case.

    What depends on the case (doc names, the question, the structured value) is left to
    the caller, so the result is kept per distinct piece: a sentence that many answers
    share (an extractive answer quotes its passages) is analysed once.
    """
    sentence = _strip_meta(piece, meta) if meta.match(piece) else piece
    # (the label pattern ends in a colon: a sentence without one is not asked)
    label = _CITATION_LABEL.match(sentence) if ":" in sentence or "：" in sentence else None
    if label is not None:
        sentence = _strip_meta(_after_citation(sentence[label.end() :]), meta)
    # (a lead-in that names its document keeps its colon: "The three priorities (X.pdf):")
    lead_in = sentence.rstrip().endswith((":", "："))
    if had_doc:
        sentence = sentence.rstrip(" .。,，;；:：·|")
        if sentence.endswith(("—", "–", "-")):
            sentence = _DASH_TAIL.sub("", sentence)
    sentence = " ".join(sentence.split()) if _odd_space(sentence) else sentence.strip()
    if not sentence:
        return None
    verdict, presents_not = _asserts_noting(sentence)
    if verdict is False:
        return None
    if sentence.endswith(("?", "？")):
        presents_not = False  # (the sentence may be rewritten below)
        # A question (often the user's, echoed) asserts nothing, unless it is rhetorical
        # ("Did you know the CEO will resign?", "难道集团不会暂停派息吗？") or presupposes a
        # number ("What drove the 12% growth?": judged, unless the user's question has it).
        asserted = _rhetorical(sentence)
        if asserted is None:
            return (sentence, verdict is None) if _counts(sentence) else None
        sentence = asserted
    if (lead_in or sentence.endswith((":", "："))) and _lead_in_weight(sentence) <= 8:
        return None  # "Key points:", "以下是相关信息：", "主要变化有两项：" introduce, not assert
    if not presents_not and is_presentation(sentence):
        return None  # "Let me check the documents.", "很高兴为您解答。": nothing asserted
    if _led_title(sentence.rstrip(" .。")):
        return None  # "See page 3 of the Employee Handbook.", "详见《员工手册》。"
    return sentence, verdict is None


def _lead_in_weight(sentence: str) -> float:
    """Words of a line that may introduce a list: a Chinese character counts ½ (a
    two-character word is one word), so "内地监管有两项主要变化：" is as short as
    "There were two main regulatory changes:"."""
    tokens = tokenize(sentence)
    if sentence.isascii():
        return len(tokens)
    return sum(1.0 if t.isascii() else 0.5 for t in tokens)


_RHETORICAL_LEAD = re.compile(
    r"^(?:did you know|do you know|did you hear|guess what|isn't it true|is it not true|"
    r"wouldn't you agree|don't you think|who knew|who (?:could|would|can) (?:deny|doubt)(?: that)?|"
    r"is it any wonder|how could (?:anyone|we|you) (?:doubt|deny)(?: that)?|岂不是|谁能否认|谁不知道|"
    r"你知道吗|您知道吗|你知道|您知道)"
    r"(?:\s*(?:that|[,，]))?\s*",
    re.IGNORECASE,
)
_RHETORICAL_TAG = re.compile(
    r"\s*[,，]?\s*(?:(?:isn't|aren't|wasn't|weren't|doesn't|don't|didn't|won't|can't|right|"
    r"no)(?:\s+(?:it|they|he|she|there|that|we|you))?|不是吗|对吧|是吧|对不对|是不是)\s*[?？]$"
    r"|\s*吗?\s*[?？]$",
    re.IGNORECASE,
)


def _counts(text: str) -> frozenset[Decimal]:
    """The numbers ``text`` states (digits, Chinese numerals, number words)."""
    return frozenset(number_forms(text, tokenize(text)))


# A negative question asserts what it asks: "Didn't the board cut the dividend?" says it
# did; "难道董事会不打算削减股息吗？" says it does plan to (难道 turns the polarity round).
_NEGATIVE_QUESTION = re.compile(
    r"^(?:isn't|aren't|wasn't|weren't|doesn't|don't|didn't|won't|wouldn't|can't|couldn't|"
    r"shouldn't|hasn't|haven't|hadn't)\s+",
    re.IGNORECASE,
)
_CJK_TURN = re.compile(r"^(?:难道|莫非)")
_CJK_VERB = re.compile(r"已经|打算|计划|准备|可以|需要|应该|包括|涵盖|覆盖|提供|支付|得到")
_CJK_SHORT_VERB = re.compile(
    r"(?<![事员协社机学工商议年例总大])会|将|是|有|能|要|须|应|已|曾|被|获"
)
_CJK_BODY_NEGATION = re.compile(r"并非|并不|不是|没有|不|没|未")


_RHETORICAL_END = re.compile(
    r"[,，]\s*(?:isn't|aren't|wasn't|weren't|doesn't|don't|didn't|won't|can't)\s+\w+\s*\?$"
    r"|[,，]?\s*(?:不是吗|对吧|是吧|对不对)\s*？$",
    re.IGNORECASE,
)


def _rhetorical(sentence: str) -> str | None:
    """The assertion of a rhetorical question, or None for a real question."""
    turn = _CJK_TURN.match(sentence)
    if turn is not None:
        body = _RHETORICAL_TAG.sub("", sentence[turn.end() :]).strip()
        if not has_content(body):
            return None
        negation = _CJK_BODY_NEGATION.search(body)
        if negation is not None:  # 难道…不…吗: it does
            return body[: negation.start()] + body[negation.end() :]
        # 难道…吗: it does not (不 before its verb)
        verb = _CJK_VERB.search(body) or _CJK_SHORT_VERB.search(body)
        if verb is None:
            return "并非" + body
        negated = {"有": "没有", "已": "未", "已经": "未"}.get(verb.group(), "不" + verb.group())
        return body[: verb.start()] + negated + body[verb.end() :]
    lead = _RHETORICAL_LEAD.match(sentence)
    negative = _NEGATIVE_QUESTION.match(sentence) if lead is None else None
    if negative is not None:
        body = _RHETORICAL_TAG.sub("", sentence[negative.end() :]).strip()
        return body if has_content(body) else None
    tag = _RHETORICAL_END.search(sentence)
    if lead is None and tag is None:
        return None
    body = sentence[lead.end() :] if lead is not None else sentence
    body = _RHETORICAL_TAG.sub("", body).strip()
    return body if has_content(body) else None


# Claim texts per meta pattern by (piece, after a doc name): see _piece_sentence. The
# pattern is found by identity (hashing a compiled pattern hashes its whole source).
_PieceCache = dict[tuple[str, bool], tuple[str, bool] | None]
_PIECES: list[tuple[Leading, _PieceCache]] = []
_PIECES_MAX = 50_000
_PIECES_SMALL = 1_000
_pieces_limit = _PIECES_MAX
# Distinct pieces hit since the cache was last emptied (approximate under threads): one
# piece found in every case ("Source:" before a doc name) does not make a set whose other
# sentences never repeat worth the full size.
_piece_hits = 0
_HIT_PIECES: set[tuple[str, bool]] = set()


def _note_piece_hits(keys: list[tuple[str, bool]]) -> None:
    global _piece_hits
    for key in keys:
        if key not in _HIT_PIECES:
            _HIT_PIECES.add(key)
            _piece_hits += 1


_UNSEEN: Final[tuple[str, bool]] = ("", False)  # compared by identity: not in the cache


def _pieces_for(meta: Leading) -> _PieceCache:
    global _pieces_limit, _piece_hits
    for i, (pattern, cache) in enumerate(_PIECES):
        if pattern is meta:
            if len(cache) > _pieces_limit:  # bounded: a million distinct sentences are not kept
                # Sized by use: a set whose sentences never repeat (each held one ~0.2 KB
                # entry, 5% of a run's CPU in allocation and memory) keeps a small cache
                # until sentences repeat again (one piece in 20 found again).
                full = _piece_hits * 20 >= len(cache)
                _pieces_limit = _PIECES_MAX if full else _PIECES_SMALL
                _piece_hits = 0
                _HIT_PIECES.clear()
                cache = {}
                _PIECES[i] = (meta, cache)
            elif _pieces_limit != _PIECES_MAX and _piece_hits * 20 >= max(
                len(cache), _PIECES_SMALL
            ):
                _pieces_limit = _PIECES_MAX  # sentences repeat again (1 in 20 of a small cache)
            return cache
    cache = {}
    _PIECES.insert(0, (meta, cache))
    del _PIECES[4:]
    return cache


def _names(sources: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted({d for d in sources if d}, key=len, reverse=True))


# Accounting and other standards are names, not amounts: IFRS 17, IAS 19, ISO 27001.
_STANDARD = re.compile(r"\b(?:IFRS|IAS|HKFRS|HKAS|ASC|FRS|SFAS|ISO|IEC|SOC)\s?-?\d+[A-Za-z]?\b")
# Locators that never are amounts, wherever they stand: p. 3, pages 4-5, slide 5, 第3页, §4.2.
_PAGE = re.compile(
    r"\b(?:pp?|pg|pages?|slides?|paras?|paragraphs?|sections?|sect|sec|chapters?|ch|clauses?|"
    r"appendix|annex|articles?|art|notes?)\.?\s?\d+(?:\.\d+)*(?:\s?[-–]\s?\d+(?:\.\d+)*)?\b"
    r"|第\s*\d+\s*[页段节章条张]|§\s*\d+(?:\.\d+)*",
    re.IGNORECASE,
)


# What citation material always shows: a bracket, a locator sign, a label's colon, a file
# extension, a locator or standard word. Text without any (and without a doc name) has none.
_CITATION_CUE = re.compile(
    r"[\[(（【#=:：§第]|\.[A-Za-z]|\b(?:pp?|pg|pages?|slides?|paras?|paragraphs?|sections?|"
    r"sect|sec|chapters?|ch|clauses?|appendix|annex|articles?|art|notes?)\b"
    r"|\b(?:IFRS|IAS|HKFRS|HKAS|ASC|FRS|SFAS|ISO|IEC|SOC)",
    re.IGNORECASE,
)


def may_cite(text: str, sources: Iterable[str] = ()) -> bool:
    """False only when ``text`` holds no citation material: no cue of one and no doc name
    of ``sources`` (as given or as a stem). Spares ``without_citations`` for plain prose."""
    if _CITATION_CUE.search(text) is not None:
        return True
    names = _names(sources)
    return bool(names) and (any(name in text for name in names) or _may_hold_a_stem(text, names))


def without_citations(text: str, sources: Iterable[str] = ()) -> str:
    """``text`` without its citation material: doc names (``sources`` and file names, with
    or without extension) with their locators, citation brackets and footnote markers,
    text after a citation label that is the citation itself, loose locators (``#para1``,
    ``page=3``, ``p. 3``, ``第3页``) and standard names (``IFRS 17``). What fabrication
    counts numbers in: a refusal that says where it looked invented no number."""
    names = _names(sources)
    out: list[str] = []
    for line in text.splitlines():
        if "](" in line:
            line = _links(line, names)
        footnote = _FOOTNOTE_DEF.match(line)
        if footnote is not None:
            line = line[footnote.end() :]
        line = _remove_doc_names(line, names)[0]
        if "(" in line or "[" in line or "（" in line or "【" in line:
            line, own = _split_brackets(line, names)
            line = " ".join([line, *own])
        if "#" in line or "=" in line:
            line = _LOOSE_LOCATOR.sub(" ", line)
        if "://" in line:
            line = _URL.sub(" ", line)
        pieces = []
        for sentence in _sentences(line):
            label = _CITATION_LABEL.match(sentence)
            pieces.append(_after_citation(sentence[label.end() :]) if label else sentence)
        line = _PAGE.sub(" ", " ".join(pieces))
        out.append(_STANDARD.sub(" ", line))
    return "\n".join(out)


# A locator inside a sentence (FA7): "Under Section 3(b), …", "… (cl. 7.2)", "As set out
# in clause 7.2, …", 根据5.2节，…, 依据第4.1条，…: where the fact stands in a document,
# not a fact; its number is no claim. A fronted or bracketed locator goes with its lead
# words; one inside a clause ("Clause 7.2 gives …") goes alone.
_IN_TEXT_LOC = (
    r"(?:§{1,2}\s*\d+(?:\.\d+)*|(?:sections?|sect?\.|ss?\.|clauses?|cl\.|cls\.|articles?|art\.|"
    r"paragraphs?|paras?\.?|schedules?|sch\.|appendix|annex|chapters?|ch\.)\s*"
    r"\d+(?:\.\d+)*[a-z]?)(?:\s?\([a-z0-9]{1,4}\))*"
    r"|第\s*(?:\d+(?:\.\d+)*|[一二三四五六七八九十百]+)\s*[节章条款项](?!件|例|规|次)"
    r"|\d+(?:\.\d+)+\s*[节章条款](?!件|例)"
)
_MAY_LOCATE = re.compile(
    r"§|\b(?:sections?|sect?|ss?|clauses?|cl|cls|articles?|art|paragraphs?|paras?|schedules?|"
    r"sch|appendix|annex|chapters?|ch)\.?\s*\d|\d\s*[节章条款]",
    re.IGNORECASE,
)
_LOCATE_TEXT = """section sections sect sec s ss clause clauses cl cls article articles art
    paragraph paragraphs para paras schedule schedules sch appendix annex chapter chapters ch"""
_LOCATE_WORDS = frozenset(_LOCATE_TEXT.split())
_DIGIT_RUN = re.compile(r"\d+")
_LAST_WORD = re.compile(r"([a-z]+)\.?\s?$")
_CJK_LOCATOR_DIGIT = re.compile(r"\d\s*[节章条款]")


def _may_locate(line: str) -> bool:
    """A cheap look before the locator patterns: a section mark, a digit before a Chinese
    locator character, or a locator word right before a digit (one simple scan each)."""
    if "§" in line:
        return True
    if not has_digit(line):
        return False
    plain = line.isascii()
    if not plain and _CJK_LOCATOR_DIGIT.search(line) is not None:
        return True
    plain = plain and "\n" not in line  # ($ in _LAST_WORD also matches before a last \n)
    for m in _DIGIT_RUN.finditer(line):
        if plain:
            # _LAST_WORD needs a letter right before the digit, or before a "." or one
            # whitespace character there, or both: most digits (in 17,473.5) have none
            at = m.start() - 1
            if at >= 0 and line[at].isspace():
                at -= 1
            if at >= 0 and line[at] == ".":
                at -= 1
            if at < 0 or not line[at].isalpha():
                continue
        word = _LAST_WORD.search(line[max(0, m.start() - 12) : m.start()].lower())
        if word is not None and word.group(1) in _LOCATE_WORDS:
            return True
    return False


_LOCATOR_LEAD = (
    r"(?:as\s+(?:set\s+out|stated|described|provided|specified|defined|required)\s+(?:in|by|under)|"
    r"under|per|pursuant\s+to|in\s+accordance\s+with|according\s+to|in\s+line\s+with|see|"
    r"as\s+per|in|from|cf\.?)\s+(?:the\s+)?"
)
_FRONTED_LOCATOR = re.compile(
    rf"(?:(?<=^)|(?<=[.!?;:]\s)|(?<=[。！？；：]))\s*(?:{_LOCATOR_LEAD}|(?:根据|依据|依照|按照|参见|"
    rf"详见|见|据|如)\s*)(?:{_IN_TEXT_LOC})(?:\s*(?:的)?(?:规定|所述|所示))?\s*[,，]\s*",
    re.IGNORECASE,
)
_BRACKETED_LOCATOR = re.compile(
    rf"\s*[(（]\s*(?:{_LOCATOR_LEAD}|(?:见|参见|详见|据)\s*)?(?:{_IN_TEXT_LOC})"
    rf"(?:\s*[,;，；、]\s*(?:{_IN_TEXT_LOC}))*\s*[)）]",
    re.IGNORECASE,
)
_TRAILING_IN_TEXT_LOCATOR = re.compile(
    rf"\s*[,，]?\s*(?:{_LOCATOR_LEAD}|(?:见|参见|详见)\s*)(?:{_IN_TEXT_LOC})\s*(?=[.。]?\s*$)",
    re.IGNORECASE,
)
_IN_TEXT_LOCATOR = re.compile(_IN_TEXT_LOC, re.IGNORECASE)


def _without_locators(line: str) -> tuple[str, bool]:
    """``line`` without the document locators inside its sentences (above), and whether
    it had any."""
    out = _FRONTED_LOCATOR.sub("", line)
    out = _BRACKETED_LOCATOR.sub("", out)
    out = _TRAILING_IN_TEXT_LOCATOR.sub("", out)
    out = _IN_TEXT_LOCATOR.sub(" ", out)
    return out, out != line


_LOOSE_LOCATOR = re.compile(
    r"#(?:para|paragraph|p|page|pg|slide|s|sec|section|chunk|c|l|line|row|r|cell|sheet|tbl|"
    r"table)?[-_=]?\d+[\w=.\-]*|\b\w+=[\w.\-]+(?:\s*,\s*\w+=[\w.\-]+)*",
    re.IGNORECASE,
)

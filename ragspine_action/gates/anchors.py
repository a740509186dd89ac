"""A number stays with the period or person the contexts give it to, across sentences.

"Net profit was EUR 380 million in FY2024. In FY2025 net profit reached EUR 412 million."
A claim "Net profit was EUR 412 million in FY2024 and EUR 380 million in FY2025" keeps
every word and number, and the two facts stand in separate sentences, so neither the word
rule nor the near-copy alignment (one sentence) sees that the figures were exchanged.
The same for people: "Alice manages 12 engineers" where "Bob manages 12 engineers" and
"Alice manages a team of 7" (张经理/李经理 in Chinese).

So each number of a claim clause is bound to its anchor — the period (a year: 2024,
FY2024, FY24, 2024年; a half: H1, 上半年) or the person (a capitalised name, or a Chinese
surname with a title, 张经理) its clause names, else the one its sentence names — and the
contexts' mentions of that number are bound the same way. The claim is unsupported when
every context mention of the number is bound to another anchor of the same kind, and a
context mention binds the claim's anchor to another number: the figure was given to the
wrong period or person. A mention whose anchor cannot be told (none, or two in its
clause) never contradicts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from decimal import Decimal
from functools import lru_cache

__all__ = ["anchor_problem", "may_anchor"]

Numbers = Callable[[str], list[tuple[str, frozenset[Decimal]]]]

_YEAR = re.compile(
    r"(?<![\d.,])(?:FY\s?|fy\s?)?((?:19|20)\d{2})(?![\d.,]\d)(?:\s*年(?:度)?)?|\bFY\s?'?(\d{2})\b"
)
# A period after these is the baseline of a change, not the period the figure is of
# ("up 5% from Q2 2025", 较2024年增长5%).
_BASELINE = re.compile(
    r"(?:\b(?:from|on|over|than|versus|vs\.?|against|with|to|since|of)\s+(?:the\s+)?"
    r"(?:(?:Q[1-4]|H[12]|[1-4]Q|FY)\s?)?|(?:较|比|相比|同比|相较|对比|自|从)(?:于)?)$",
    re.IGNORECASE,
)
_HALF = re.compile(r"\b(H[12]|[12]H)\b|(上半年|下半年)")
_TITLES = "经理|总监|先生|女士|主管|总裁|主任|律师|医生|教授"
_CJK_PERSON = re.compile(
    rf"(?<![\u4e00-\u9fff])[\u4e00-\u9fff](?:{_TITLES})|(?<=[的由和与及、])[\u4e00-\u9fff](?:{_TITLES})"
)
# A person: an honorific and a name, or a first name and a surname (single capitalised
# words are too often a sentence's first word to be read as names).
_NAME = re.compile(
    r"\b(?:(?:Mr|Ms|Mrs|Dr|Prof)\.?\s+[A-Z][a-z]+|[A-Z][a-z]+\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\b"
)
_MONTH_DAY = re.compile(
    r"\d{1,2}\s+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*"
    r"|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\s+\d{1,2}\b|\d{1,2}\s*[月日号]"
)
_NOT_NAMES = frozenset(
    [
        "The",
        "A",
        "An",
        "In",
        "On",
        "At",
        "For",
        "By",
        "Of",
        "To",
        "From",
        "With",
        "As",
        "If",
        "When",
        "While",
        "And",
        "But",
        "Or",
        "Its",
        "Their",
        "His",
        "Her",
        "This",
        "That",
        "These",
        "Those",
        "Net",
        "Total",
        "Group",
        "Revenue",
        "Profit",
        "January",
        "February",
        "March",
        "April",
        "May",
        "Company",
        "Limited",
        "Life",
        "Insurance",
        "Bank",
        "Authority",
        "Holdings",
        "Assurance",
        "General",
        "Fund",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
        "Mr",
        "Ms",
        "Mrs",
        "Dr",
        "Q",
        "FY",
    ]
)
_SEGMENT = re.compile(
    r"[,;，；、]|\b(?:and|while|whereas|but|compared\s+with|against)\b|而|但|与此同时|相比之下"
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？；;])|\n+")


def _years(text: str) -> set[str]:
    out = set()
    for m in _YEAR.finditer(text):
        before = text[max(0, m.start() - 24) : m.start()]
        if _BASELINE.search(before) is None:
            out.add(m.group(1) or "20" + m.group(2))
    return out


def _halves(text: str) -> set[str]:
    out = set()
    for m in _HALF.finditer(text):
        word = m.group(1) or m.group(2)
        out.add("H1" if word in ("H1", "1H", "上半年") else "H2")
    return out


def _people(text: str, common: frozenset[str]) -> set[str]:
    out = {m.group() for m in _CJK_PERSON.finditer(text)} if not text.isascii() else set()
    for m in _NAME.finditer(text):
        words = m.group().split()
        if any(w in _NOT_NAMES or w.lower() in common for w in words[-2:]):
            continue
        out.add(m.group())
    return out


def may_anchor(claim: str) -> bool:
    """A cheap test: whether ``claim`` may name a period or a person a number can belong to
    (a year's first digits, FY, a half, a capital after the first letter, a Chinese title)."""
    return (
        "20" in claim
        or "19" in claim
        or "FY" in claim
        or "H1" in claim
        or "H2" in claim
        or "半年" in claim
        or not claim[1:].islower()
    )


def _anchors(text: str, kind: str, common: frozenset[str]) -> set[str]:
    if kind == "year":
        return _years(text)
    if kind == "half":
        return _halves(text)
    return _people(text, common)


def _values(text: str, numbers: Numbers) -> list[frozenset[Decimal]]:
    """The forms of each number of ``text`` that is not a year."""
    out = []
    if any(ch.isdigit() for ch in text) and _MONTH_DAY.search(text) is not None:
        text = _MONTH_DAY.sub(" ", text)  # a day of a month is a date, not a figure
    for written, forms in numbers(text):
        digits = written.replace(",", "").strip()
        if re.fullmatch(r"(?:19|20)\d{2}", digits) or written.upper().startswith("FY"):
            continue
        out.append(forms)
    return out


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE.split(text) if s and not s.isspace()]


def _bound(
    sentence: str, kind: str, common: frozenset[str], numbers: Numbers
) -> list[tuple[frozenset[Decimal], str | None]]:
    """Each number of ``sentence`` with the anchor of ``kind`` it is bound to (None when
    the sentence cannot tell: no anchor, or two in its clause and not one in the sentence)."""
    whole = _anchors(sentence, kind, common)
    out: list[tuple[frozenset[Decimal], str | None]] = []
    carried: str | None = None  # a clause's anchor holds for the clauses after it
    named: set[str] = set()  # the anchors earlier clauses named
    for segment in _SEGMENT.split(sentence):
        own = _anchors(segment, kind, common)
        if own:
            carried = next(iter(own)) if len(own) == 1 else None
            named |= own
        values = _values(segment, numbers)
        if not values:
            continue
        anchor = carried
        if not own and len(named) > 1:
            # two periods named before it ("In 2023 the firm, founded in 1998, employed
            # 4,200"): which one its number has, the clauses do not tell
            anchor = None
        elif not own and carried is None and len(whole) == 1:
            anchor = next(iter(whole))
        out.extend((forms, anchor) for forms in values)
    return out


_LOWER_WORD = re.compile(r"\b[a-z]+\b")
_Mention = tuple[frozenset[Decimal], str | None]


@lru_cache(maxsize=2048)
def _text_anchors(text: str, kind: str) -> tuple[frozenset[str], frozenset[str]]:
    """A context text's anchors of ``kind`` and its lower-case words (for names), once per
    distinct text: a passage many claims are judged on is read once."""
    common = frozenset(_LOWER_WORD.findall(text)) if kind == "person" else frozenset()
    return frozenset(_anchors(text, kind, common)), common


@lru_cache(maxsize=2048)
def _text_mentions(text: str, kind: str, numbers: Numbers) -> tuple[_Mention, ...]:
    """A context text's numbers with the anchor of ``kind`` each is bound to."""
    common = _text_anchors(text, kind)[1]
    return tuple(b for s in _sentences(text) for b in _bound(s, kind, common, numbers))


def anchor_problem(claim: str, contexts: Sequence[str], numbers: Numbers, label: str) -> str | None:
    """Why a number of ``claim`` belongs to another period or person in ``contexts``
    (module docstring); None if none does."""
    for kind in ("year", "half", "person"):
        if kind == "person" and not (
            (not claim.isascii() and _CJK_PERSON.search(claim) is not None)
            or _NAME.search(claim) is not None
        ):
            continue
        if kind == "year" and _YEAR.search(claim) is None:
            continue
        if kind == "half" and _HALF.search(claim) is None:
            continue
        named = [_text_anchors(text, kind) for text in contexts]
        anchors = frozenset().union(*(n for n, _ in named))
        if len(anchors) < 2 or (
            kind != "person" and anchors.isdisjoint(_anchors(claim, kind, frozenset()))
        ):
            continue  # one period or person named, or not the claim's: nothing exchanged
        said = [m for text in contexts for m in _text_mentions(text, kind, numbers)]
        common = frozenset(_LOWER_WORD.findall(claim)).union(*(c for _, c in named))
        for sentence in _sentences(claim):
            for forms, anchor in _bound(sentence, kind, common, numbers):
                if anchor is None:
                    continue
                mentions = [a for f, a in said if not f.isdisjoint(forms)]
                if not mentions or any(a is None or a == anchor for a in mentions):
                    continue
                others = [f for f, a in said if a == anchor and f.isdisjoint(forms)]
                if others:
                    given = sorted(set(a for a in mentions if a is not None))
                    return (
                        f"gives a number to {anchor!r} that {label} give to "
                        f"{', '.join(repr(g) for g in given)}"
                    )
    return None

"""A universal put where the copied sentence names which ones (rule 3, quantifiers).

The polarity rule compares "all" with a context clause that restricts in words (``only``,
``some``, ``Tier 1``, 部分, a counted or qualified noun). A sentence qualifies just as often
by an attribute written before or inside its noun phrase: "Full-time employees accrue 25
days" (``All employees accrue 25 days``), "customers from high-risk third countries" (``all
customers from third countries``), "delivery to major cities" (``delivery to all
destinations``), "一线城市的住宿费" (``所有城市的住宿费``), "正式员工" (``所有员工``). Here the
claim's ``all``/``every``/所有/全部/全体/任何 phrase is read against the sentence it copies:

- its noun stands there right after an attribute the claim does not say (``full-time``,
  ``high-risk``, 一线, 正式), or the sentence puts such words inside the phrase; or
- its noun is not there, but the words before ``all`` are, followed by a phrase of the
  sentence's own that the claim leaves out (``delivery to`` | ``major cities``).

A context sentence that says the universal of that noun itself (``All express parcels
are tracked``, ``员工…均享有``) passes it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["may_widen", "widened_problem"]

_EN_ALL = re.compile(
    r"\b(?:all|every)\s+(?!(?:of\s+)?(?:the\s+)?(?:time|times|year|years|day|days|month|months|"
    r"week|weeks|quarter|quarters|other|second|third|fourth|fifth|tenth|few|couple|\d)\b)"
    r"(?:(?:of\s+)?(?:the|our|its|their)\s+)?"
    r"((?:[a-z][a-z-]*)(?:\s+(?!and\b|or\b|are\b|is\b|must\b|may\b|can\b|will\b|have\b|has\b)"
    r"[a-z][a-z-]*){0,3})",
    re.IGNORECASE,
)
_ZH_ALL = re.compile(r"(?:所有|全部|全体|任何(?!一方))的?([\u4e00-\u9fff]{2})")
_WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_LIGHT = frozenset(
    [
        # quantifiers and negations say how many, not which ("no component below 6.0")
        "no",
        "not",
        "any",
        "each",
        "every",
        "all",
        "some",
        "none",
        "per",
        "other",
        "same",
        "such",
        "both",
        "either",
        "neither",
        "a",
        "an",
        "the",
        "of",
        "to",
        "from",
        "for",
        "in",
        "on",
        "at",
        "by",
        "with",
        "and",
        "or",
        "its",
        "their",
        "our",
        "your",
        "his",
        "her",
        "this",
        "that",
        "these",
        "those",
        "who",
        "which",
        "whose",
        "is",
        "are",
        "be",
        "been",
        "was",
        "were",
        "may",
        "must",
        "can",
        "will",
        "shall",
        "should",
    ]
)
# Characters that end or link a Chinese phrase: not an attribute of the noun after them.
_CJK_LINK = frozenset("的和及与、或对向在于为是可能须应将已被由把按给从至到均都各每其该本此之")


def may_widen(claim: str) -> bool:
    """A cheap look before ``widened_problem``."""
    if claim.isascii():
        return _EN_ALL.search(claim) is not None
    return _ZH_ALL.search(claim) is not None


def _stem(word: str) -> str:
    for end in ("ies", "es", "s"):
        if word.endswith(end) and len(word) - len(end) >= 3:
            return word[: -len(end)] + ("y" if end == "ies" else "")
    return word


def widened_problem(claim: str, sentence: str, sentences: Iterable[str], label: str) -> str | None:
    """Why ``claim`` says all of what ``sentence`` (the context sentence it copies)
    qualifies, or None (module docstring)."""
    if claim.isascii():
        return _english(claim, sentence, sentences, label)
    return _chinese(claim, sentence, sentences, label)


def _english(claim: str, sentence: str, sentences: Iterable[str], label: str) -> str | None:
    said = {_stem(w) for w in _WORD.findall(claim.lower())}
    theirs_raw = _WORD.findall(sentence.lower())
    theirs = [_stem(w) for w in theirs_raw]
    for m in _EN_ALL.finditer(claim):
        phrase = [_stem(w) for w in _WORD.findall(m.group(1).lower())]
        phrase = (
            phrase[: next((i for i, w in enumerate(phrase) if w in _LIGHT), len(phrase))] or phrase
        )
        noun = phrase[0]
        said_all = re.compile(
            r"\b(?:all|every|each|any)\s+(?:(?:of\s+)?(?:the|our|its|their)\s+)?"
            rf"(?:[a-z-]+\s+)?{re.escape(noun[:4])}",
            re.IGNORECASE,
        )
        if any(said_all.search(s) is not None for s in sentences):
            return None  # the contexts say it of all of them somewhere
        whole = [_stem(w) for w in _WORD.findall(m.group(1).lower())]
        if noun in theirs:
            at = theirs.index(noun)
            attached = re.search(
                rf"([a-z][a-z-]*)[ -]+{re.escape(theirs_raw[at])}\b", sentence.lower()
            )
            if attached is not None:
                before = [_stem(w) for w in attached.group(1).split("-")]
                if all(b not in said for b in before) and not any(b in _LIGHT for b in before):
                    return (
                        f"says all {m.group(1).split()[0]} where {label} say {attached.group(0)!r}"
                    )
            # words the sentence puts inside the phrase ("from high-risk third countries")
            last = whole[-1]
            if len(whole) > 1 and last in theirs[at : at + len(whole) + 3]:
                end = theirs.index(last, at)
                inside = [w for w in theirs[at:end] if w not in said and w not in _LIGHT]
                if inside:
                    return f"says all {m.group(1)!r} where {label} qualify it ({' '.join(inside)})"
            continue
        lead = [_stem(w) for w in _WORD.findall(claim[: m.start()].lower())][-2:]
        if len(lead) == 2 and any(w not in _LIGHT for w in lead):
            for i in range(len(theirs) - 2):
                if theirs[i : i + 2] == lead:
                    follow = [w for w in theirs[i + 2 : i + 4] if w not in _LIGHT]
                    if (
                        follow
                        and not any(w in said for w in follow)
                        and all(w.isalpha() for w in follow)
                    ):
                        return (
                            f"says all {m.group(1)!r} where {label} say "
                            f"{' '.join(theirs_raw[i + 2 : i + 4])!r}"
                        )
    return None


def _chinese(claim: str, sentence: str, sentences: Iterable[str], label: str) -> str | None:
    for m in _ZH_ALL.finditer(claim):
        noun = m.group(1)
        rest = claim[: m.start()] + claim[m.end() :]
        said_all = re.compile(
            rf"(?:所有|全部|全体|任何|一切|各)的?.{{0,2}}{noun}|{noun}.{{0,8}}(?:均|都|一律|全部)"
        )
        if any(said_all.search(s) is not None for s in sentences):
            return None  # the contexts say it of all of them somewhere
        at = sentence.find(noun)
        while at >= 0:
            before = sentence[max(0, at - 2) : at]
            if (
                len(before) == 2
                and all("\u4e00" <= ch <= "\u9fff" and ch not in _CJK_LINK for ch in before)
                and before not in rest
            ):
                return f"says {m.group(0)!r} where {label} say {before + noun!r}"
            at = sentence.find(noun, at + 1)
    return None

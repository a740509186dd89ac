"""An order of steps told the other way round (rule 3 of docs/judges.md).

``First restart the service, then check the error logs`` against ``First check the error
logs, then restart the service`` keeps every word, number and direction; only the order
changed. A sequence is read from its markers (``first … then``, ``…, then``, ``before``,
``after``, ``prior to``, ``followed by``, ``先…再``, ``先…后``, ``…之后再…``, ``…，然后…``,
``…之前``, ``…之后``) as (earlier step, later step); a claim whose steps match a context
sequence's steps crosswise (its earlier step is the context's later one and the other way
round) tells the order reversed. The same order in other markers agrees (``Check the logs
before you restart the service`` for ``First check the logs, then restart the service``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from .claims import STOPWORDS, tokenize

__all__ = ["may_order", "order_problem"]

_MARKER = re.compile(
    r"\b(?:then|before|after|prior\s+to|followed\s+by|afterwards|once|as\s+soon\s+as|upon)\b|先|再|然后|随后|之前|以前|之后|以后|其次"
    r"|[前后][，,]",
    re.IGNORECASE,
)
# (pattern, group of the earlier step, group of the later step)
_SEQUENCES: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (re.compile(p, re.IGNORECASE), a, b)
    for p, a, b in (
        (r"^\s*before\b(?P<b>[^,，]+)[,，](?P<a>.+)$", "a", "b"),
        (r"^\s*after\b(?P<a>[^,，]+)[,，](?P<b>.+)$", "a", "b"),
        (r"^(?P<a>.+?)[,;]?\s+(?:and\s+)?(?:only\s+)?then\b(?P<b>.+)$", "a", "b"),
        (r"^(?P<a>.+?)[,;]?\s+(?:and\s+)?afterwards\b(?P<b>.+)$", "a", "b"),
        (r"^(?P<a>.+?)\b(?:before|prior\s+to)\b(?P<b>.+)$", "a", "b"),
        # "…, after which it must be discarded" goes on to the later step, as "then" does
        (r"^(?P<a>.+?)[,;]?\s+after\s+(?:which|that|this)\b(?P<b>.+)$", "a", "b"),
        (r"^(?P<b>.+?)\b(?:only\s+)?after\b(?!\s+(?:which|that|this)\b)(?P<a>.+)$", "a", "b"),
        (r"^(?P<a>.+?)[,;]?\s+followed\s+by\b(?P<b>.+)$", "a", "b"),
        # a ranking told as a sequence: "主要来自X，其次是Y" (first X, then Y)
        (r"^(?P<a>.+?)[，,；;]\s*其次(?:是|为)?(?P<b>.+)$", "a", "b"),
        (r"^\s*(?:once|as\s+soon\s+as)\b(?P<a>[^,，]+)[,，](?P<b>.+)$", "a", "b"),
        (r"^(?P<b>.+?)\b(?:once|as\s+soon\s+as|upon)\b(?P<a>.+)$", "a", "b"),
        (r"先(?P<a>[^，,。；]+?)[，,]?(?:再|后|然后|随后|之后)(?P<b>.+)$", "a", "b"),
        (r"^(?P<a>.+?)(?:之后|以后|后)[，,]?(?:再|才|方可|然后)(?P<b>.+)$", "a", "b"),
        (r"^(?P<a>.+?)[，,](?:然后|随后|再)(?P<b>.+)$", "a", "b"),
        (r"^(?P<b>.+?)(?:之前|以前|前(?=[，,]))[，,]?(?P<a>.+)$", "a", "b"),
        (r"^(?P<a>.+?)(?:之后|以后|后(?=[，,]))[，,]?(?P<b>.+)$", "a", "b"),
    )
)
# A step of nothing but a time ("discard it after 14 days", "3天后") is when, not what
# is done: no step of a sequence.
_TIME_WORDS = frozenset(
    [
        "days",
        "day",
        "hours",
        "hour",
        "weeks",
        "week",
        "month",
        "years",
        "year",
        "minut",
        "secon",
        "withi",
        "worki",
        "calen",
        "busin",
        "furth",
        "anoth",
        "least",
        "more",
        "天内",
        "小时",
        "个月",
        "工作",
        "作日",
    ]
)
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")
# Words that frame a step rather than name it.
_FRAME = frozenset(["first", "then", "only", "must", "should", "can", "may", "you", "need"])
_CJK_FRAME = frozenset(["应先", "须先", "必须", "应在", "需要", "然后", "之后", "之前"])


def may_order(text: str) -> bool:
    """A cheap look: a sequence marker in ``text``."""
    return _MARKER.search(text) is not None


def _terms(text: str) -> frozenset[str]:
    words = {
        t[:5]
        for t in tokenize(text)
        if t.isascii() and t not in STOPWORDS and t not in _FRAME and not t.isdigit()
    }
    for run in _CJK.findall(text):
        words.update(run[i : i + 2] for i in range(len(run) - 1))
    return frozenset(words - _CJK_FRAME)


@lru_cache(maxsize=4096)
def _steps(sentence: str) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """The (earlier, later) steps ``sentence`` orders, by each marker that reads one."""
    if _MARKER.search(sentence) is None:
        return ()
    body = sentence.strip().rstrip(".。!！")
    out = []
    for pattern, a, b in _SEQUENCES:
        m = pattern.search(body)
        if m is None:
            continue
        earlier, later = _terms(m.group(a)), _terms(m.group(b))
        # words both steps hold (the frame "Most attempts arrived through … phishing")
        # name neither of them
        earlier, later = earlier - later, later - earlier
        if earlier and later and not (earlier <= _TIME_WORDS or later <= _TIME_WORDS):
            out.append((earlier, later))
    return tuple(out)


def order_problem(claim: str, sentences: Sequence[str], label: str) -> str | None:
    """Why ``claim`` tells an order of ``sentences`` (the contexts') reversed, or None."""
    claimed = _steps(claim)
    if not claimed:
        return None
    best, reversed_ = 0, False
    for sentence in sentences:
        for earlier, later in _steps(sentence):
            for first, then in claimed:
                same = len(first & earlier) + len(then & later)
                cross = len(first & later) + len(then & earlier)
                # a tie is crosswise when each claim step's own words (beyond the frame
                # it shares with the context's step in its place) are the other step's
                moved = bool((first - earlier) & later) and bool((then - later) & earlier)
                crosswise = (cross > same or (cross == same and moved)) and bool(
                    first & later and then & earlier
                )
                score = cross if crosswise else same
                if score > best or (score == best and not crosswise):
                    best, reversed_ = score, crosswise
    if not reversed_ or best < 2:
        return None
    return f"tells the order of steps the other way round from {label}"

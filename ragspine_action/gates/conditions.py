"""Conditions a claim drops or turns round: a rule that holds "only if Y" or "unless Y" said
"without Y".

The polarity rule compares a claim's "without" phrase with a context's "with"/"without"
phrase; a context that sets its condition with "only if", "unless", 须…方可 or …的除外 has
none, and the claim's "without Y" met nothing it could contradict:

- ``X only if Y`` (``provided``, ``as long as``, 须…方可, 只有…才): a claim that says X
  happens *without Y* drops the condition (`may accept gifts … without recording them`
  against `… only if … the gift is recorded in the gifts register`);
- ``X unless Y`` (…的除外, 除非): without Y, X holds; a claim that says something else
  holds without Y, namely what the exception grants (`kept … even without the customer's
  consent` against `deleted … unless the customer has given consent to keep it`;
  `未经客户同意也继续保留` against `…后删除，客户同意保留的除外`), turns the rule round.

A claim that negates before its "without" (`may not accept gifts without recording
them`, 未经同意不得保留) restates the rule and is not read here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .claims import STOPWORDS
from .paraphrase import stems

__all__ = ["any_problem", "condition_problem", "may_drop_a_condition"]

_CJK = r"\u3400-\u4dbf\u4e00-\u9fff"
_EN_WITHOUT = re.compile(r"\b(?:even\s+)?without\s+([^,;.()]+)", re.IGNORECASE)
_ZH_WITHOUT = re.compile(
    rf"(?:未经过?|没有经过|未获得?|未取得|没有获得|无需|无须)([{_CJK}A-Za-z0-9]{{2,12}}?)"
    rf"(?=也|仍|亦|还|照样|即可|便|就|[，,。；;]|$)"
)
# A negation before the "without": the claim restates the rule ("may not X without Y").
_EN_NEGATED = re.compile(r"\b(?:not|never|cannot|no)\b|n't\b", re.IGNORECASE)
_ZH_NEGATED = re.compile(r"不得|不能|不可|不允许|禁止|不予|不会|不")

# Context conditions: (kind, condition text, the rest of the sentence).
_EN_ONLY_IF = re.compile(
    r"\b(?:only\s+if|only\s+when|provided\s+(?:that\s+)?|as\s+long\s+as)\s+([^;.]+)",
    re.IGNORECASE,
)
_EN_UNLESS = re.compile(r"\bunless\s+([^,;.]+)", re.IGNORECASE)
_ZH_ONLY_IF = re.compile(
    rf"(?:须|必须|应)(?:经|经过|获得|取得)?([{_CJK}A-Za-z0-9]{{2,14}}?)(?:后)?(?:方可|才可|才能)"
    rf"|只有([{_CJK}A-Za-z0-9]{{2,14}}?)(?:时|后)?才"
)
_ZH_UNLESS = re.compile(rf"([{_CJK}A-Za-z0-9]{{2,14}})的除外|除非([{_CJK}A-Za-z0-9]{{2,14}})")
_CJK_RUN = re.compile(rf"[{_CJK}]{{2,}}")


def may_drop_a_condition(claim: str) -> bool:
    """Whether ``claim`` says "without …" (a cheap test before the rule)."""
    return ("without" in claim.lower()) or any(
        cue in claim for cue in ("未经", "没有经过", "未获", "未取得", "没有获得", "无需", "无须")
    )


def _terms(text: str) -> frozenset[str]:
    """English word stems (no stop words) and Chinese character pairs."""
    out: set[str] = set()
    for word in re.findall(r"[a-z]+", text.lower()):
        if word not in STOPWORDS and len(word) > 2:
            out.update(stems(word))
    for run in _CJK_RUN.findall(text):
        out.update(run[i : i + 2] for i in range(len(run) - 1))
    return frozenset(out)


def _without(claim: str) -> tuple[str, str] | None:
    """(what the claim does without, the rest of the claim), or None."""
    for pattern, negated in ((_EN_WITHOUT, _EN_NEGATED), (_ZH_WITHOUT, _ZH_NEGATED)):
        m = pattern.search(claim)
        if m is None:
            continue
        before, after = claim[: m.start()], claim[m.end() :]
        if pattern is _EN_WITHOUT:
            if negated.search(before) is not None:
                return None  # "may not enter without an escort"
        elif negated.search(after) is not None:
            return None  # 未经审批不得访问
        return m.group(1), before + " " + after
    return None


def _conditions(sentence: str) -> Iterable[tuple[str, str, str]]:
    """(kind, condition, the rest) for each condition the sentence sets."""
    for kind, pattern in (
        ("only", _EN_ONLY_IF),
        ("unless", _EN_UNLESS),
        ("only", _ZH_ONLY_IF),
        ("unless", _ZH_UNLESS),
    ):
        for m in pattern.finditer(sentence):
            condition = next(g for g in m.groups() if g)
            yield kind, condition, sentence[: m.start()] + " " + sentence[m.end() :]


def condition_problem(claim: str, sentences: Iterable[str], label: str) -> str | None:
    """Why ``claim`` drops or turns round a condition of ``sentences``, or None."""
    found = _without(claim)
    if found is None:
        return None
    phrase, rest = found
    wanted, said = _terms(phrase), _terms(rest)
    if not wanted:
        return None
    for sentence in sentences:
        for kind, condition, main in _conditions(sentence):
            cond, main_terms = _terms(condition), _terms(main)
            if len(wanted & cond) < (1 if phrase.isascii() else 2):
                continue  # the claim's "without" is about something else
            if len(said & main_terms) < 2:
                continue  # another rule
            if kind == "only":
                return f"says it holds without {phrase.strip()!r}, which {label} require"
            granted = (said & cond) - main_terms - wanted
            if granted:
                return f"says without {phrase.strip()!r} what {label} grant only with it"
    return None


_ANY = re.compile(r"\bany\s+([a-z]{3,})\b", re.IGNORECASE)


def any_problem(piece: str, sentences: Iterable[str]) -> str | None:
    """A claim clause that says ``any <noun>`` where the context sentence it matches says
    ``a/an/the <modifier> <noun>``: the modifier restricts which (`repaired at any garage`
    against `repaired at an approved garage`)."""
    m = _ANY.search(piece)
    if m is None:
        return None if piece.isascii() else _cjk_any_problem(piece, sentences)
    noun = m.group(1).lower()
    said = {w.lower() for w in re.findall(r"[A-Za-z]+", piece)}
    restricted = re.compile(rf"\b(?:an?|the)\s+([a-z]+)\s+{re.escape(noun)}(?:e?s)?\b", re.I)
    for sentence in sentences:
        for r in restricted.finditer(sentence):
            modifier = r.group(1).lower()
            if modifier not in STOPWORDS and modifier not in said:
                return f"says any {noun} where the context says {modifier} {noun}"
    return None


_CJK_ANY = re.compile(rf"(?:任何|任一|所有|全部|一切)(?:一[家个所处])?的?([{_CJK}]{{2}})")
# Modifiers that say which ones a rule holds for (an approval or a contract), as `approved`
# and `authorised` do in English.
_CJK_APPROVED = re.compile(r"指定|授权|认可|合作|定点|特约|签约|核准|经批准的?|批准的")


def _cjk_any_problem(piece: str, sentences: Iterable[str]) -> str | None:
    """任何服务网点 where the context says 授权服务网点: the modifier restricts which."""
    m = _CJK_ANY.search(piece)
    if m is None:
        return None
    noun = m.group(1)
    for sentence in sentences:
        for r in re.finditer(rf"({_CJK_APPROVED.pattern})的?{noun}", sentence):
            if r.group(1) not in piece:
                return f"says {m.group(0)} where the context says {r.group(0)}"
    return None

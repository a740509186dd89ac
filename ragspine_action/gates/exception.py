"""An exception dropped: the claim puts under a rule what its sentence excepts from it.

"等待期内发生的疾病不予赔付，意外伤害除外" excepts accidents; "等待期内发生的疾病和意外伤害均
不予赔付" keeps every word of the sentence and puts them under the denial. "All employees must
complete the training by 31 March, except contractors" against "All employees and
contractors must complete the training by 31 March" is the same. Here the exception a
sentence makes (``except (for)``, ``excluding``, ``other than``, ``with the exception of``,
``apart from``, ``…除外``, ``除…以外/之外``, ``不包括``, ``不含``) is read against a claim that
copies the sentence: when the claim names what is excepted, says no exception itself, keeps
most of the rest of the sentence and its polarity, it says the rule holds for it.
"""

from __future__ import annotations

import re

from .claims import STOPWORDS, tokenize

__all__ = ["exception_problem", "may_except"]

_EN = re.compile(
    r"\b(?:except(?:\s+for)?|excluding|other\s+than|with\s+the\s+exception\s+of|apart\s+from)"
    r"\s+([^,;.()]+)",
    re.IGNORECASE,
)
_ZH = re.compile(
    r"([^，。；、：:,;（）()]{2,12}?)除外|除(?:了)?([^，。；,;（）()]{2,12}?)(?:以外|之外)"
    r"|不包括([^，。；,;（）()]{2,12})|不含([^，。；,;（）()]{2,12})"
)
# The claim makes an exception, a condition or a contrast of its own.
_OWN = re.compile(
    r"\b(?:except|excluding|other\s+than|exception|apart\s+from|but|unless|aside|however|"
    r"only|whereas|while|although)\b|除|不包括|不含|但|不适用|不受|另有|例外|只有|仅|而",
    re.IGNORECASE,
)
_NEGATION = re.compile(
    r"\b(?:not|no|never|neither|nor|cannot|none)\b|n't|[不无未没非]", re.IGNORECASE
)
_CJK = re.compile(r"[\u4e00-\u9fff]{2,}")
_CLAUSE = re.compile(r"[，；,;:：]")


def may_except(sentence: str) -> bool:
    """A cheap look before ``exception_problem``: the sentence makes an exception."""
    if sentence.isascii():
        return _EN.search(sentence) is not None
    return _ZH.search(sentence) is not None


def _terms(text: str) -> set[str]:
    words = {t for t in tokenize(text) if t.isascii() and t.isalpha() and t not in STOPWORDS}
    for run in _CJK.findall(text):
        words.update(run[i : i + 2] for i in range(len(run) - 1))
    return words


def exception_problem(claim: str, sentence: str, label: str) -> str | None:
    """Why ``claim`` puts under ``sentence``'s rule what the sentence excepts, or None."""
    if _OWN.search(claim) is not None:
        return None
    found = (_EN if sentence.isascii() else _ZH).search(sentence)
    if found is None:
        return None
    excepted = next(g for g in found.groups() if g)
    theirs = _terms(excepted)
    ours = _terms(claim)
    if not theirs or not theirs <= ours:
        return None  # the claim does not name what is excepted
    before = sentence[: found.start()]
    # the rule excepted from: the clause right before the exception
    clause = next((p for p in reversed(_CLAUSE.split(before)) if len(_terms(p)) >= 2), "")
    rule = _terms(clause) - theirs
    if not rule or len(rule & ours) * 3 < len(rule) * 2:
        return None  # not a copy of the sentence's rule
    said = _NEGATION.search(clause) is not None
    if (_NEGATION.search(claim) is not None) != said:
        return None  # the claim says the opposite for it: what the exception means
    return f"puts {excepted.strip()!r} under the rule {label} except it from"

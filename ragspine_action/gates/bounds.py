"""A bound turned round: a ceiling told as a floor, or a floor as a ceiling (rule 3).

``Gifts worth more than 50 USD may be accepted`` against ``Employees may accept gifts only
if the value does not exceed 50 USD`` keeps the number and every other word; only the side
of the bound changed. ``员工也可以接受价值超过300元的礼品`` against ``…价值不超过300元的…``
is the same in Chinese. Each number of the claim is read with the bound written at it
(``up to``, ``at most``, ``no more than``, ``does not exceed``, ``within``, ``below``,
``不超过``, ``最多``, ``以内`` … a ceiling; ``more than``, ``over``, ``at least``,
``exceeding``, ``超过``, ``至少``, ``不少于``, ``以上``, ``满`` (满3年后: once 3 years are
completed) … a floor); the same value in the
sentence the claim matched, bound the other way (and nowhere there the claim's way), is a
contradiction. A negation outside the bounds turns the reading round (``may not accept
gifts over 50 USD`` says what ``only if the value does not exceed 50 USD`` says), so a
claim and a sentence that differ in it are not compared.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from functools import lru_cache

__all__ = ["bound_problem", "bounded", "may_bound", "same_bound"]

# A bound written before its number (the longest forms first: "not exceed" before
# "exceed", 不超过 before 超过). "as many as 5" (多达5) states the most there are (a ceiling); the
# "over" of "carry over", "roll over" is no floor ("roll over as many as 5 days").
_BEFORE = re.compile(
    r"(?P<ceiling>\b(?:up\s+to|at\s+most|at\s+the\s+most|no\s+more\s+than|not\s+more\s+than|"
    r"(?:does|do|did|must|may|shall|should|will|can)\s+not\s+exceed|not\s+exceeding|"
    r"not\s+to\s+exceed|never\s+exceeds?|maximum(?:\s+of)?|max\.?|capped\s+at|limited\s+to|"
    r"within|below|under|less\s+than|fewer\s+than|no\s+later\s+than|as\s+(?:many|much|high)\s+as|"
    r"(?:shorter|lower|smaller|younger|lighter)\s+than)"
    r"|不(?:得|能|可|应|会)?超过|不(?:得|能|可|应)?(?:高于|多于|大于)|最多|最高|至多|多达|上限为?|封顶"
    r"|不足|不满|未满|未达到?|未超过|低于|少于|小于)"
    r"|(?P<floor>\b(?:more\s+than|(?<!carry\s)(?<!carried\s)(?<!carries\s)(?<!roll\s)"
    r"(?<!rolled\s)(?<!rolls\s)(?<!hand\s)(?<!handed\s)(?<!turn\s)(?<!turned\s)over|above|exceeding|exceeds?|greater\s+than|at\s+least|"
    r"(?:longer|higher|larger|bigger|older|heavier)\s+than|"
    r"minimum(?:\s+of)?|min\.?|no\s+less\s+than|not\s+less\s+than|no\s+fewer\s+than)"
    r"|不(?:得|能|可|应)?(?:少于|低于|小于)|超过|高于|多于|大于|至少|最少|最低|满)",
    re.IGNORECASE,
)
# A bound written after its number: 300元以内, 5天以上, 100元起, "HKD 500 or less".
_AFTER = re.compile(
    r"(?P<ceiling>以内|以下|之内|\s*(?:[a-zA-Z$]{1,12}\s+)?or\s+(?:less|fewer|below|under|lower)\b)"
    r"|(?P<floor>以上|起|\s*(?:[a-zA-Z$]{1,12}\s+)?or\s+(?:more|above|over|higher|greater)\b)",
    re.IGNORECASE,
)
# A bound after a Chinese unit of up to three characters (400千瓦时以上, 18周岁以下).
_CJK_AFTER = re.compile(
    r"\s?[\u4e00-\u9fff%％]{1,3}?(?:(?P<ceiling>以内|以下|之内)|(?P<floor>以上))"
)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_GAP = 14  # characters between a bound and its number (a currency, a unit word, "USD ")
_NEGATION = re.compile(
    r"\b(?:not|no|never|cannot|nor|without)\b|n't|[不未无非没勿]|禁止|严禁", re.IGNORECASE
)
# A negation that forbids or rules out ("may not accept gifts over 500 USD"): it turns the
# side of the bound it governs, and nothing else.
_FORBIDS = re.compile(
    r"\b(?:may|must|shall|can|could|should|will)\s+not\b|\bcannot\b|\b(?:can|must|shan|won)'t\b|"
    r"\bnot\s+(?:be\s+)?(?:allowed|permitted|eligible)\b|\bnever\b|\bprohibited\b|\bforbidden\b|"
    r"不得|不可|不能|不允许|不准|不应|禁止|严禁",
    re.IGNORECASE,
)
# An exception beside the bound ("up to 500 USD; more with the manager's approval"): what
# lies past the bound is not simply forbidden.
_EXCEPTION = re.compile(
    r"\b(?:unless|except|otherwise|approv\w*|consent|permission|authori[sz]\w*|waive\w*|"
    r"subject\s+to|provided\s+that)\b|除非|除外|批准|同意|许可|授权|另有|例外|经.{0,8}审批",
    re.IGNORECASE,
)
_CUES = re.compile(
    r"up\s+to|most|more|less|fewer|exceed|within|below|under|over|above|least|maximum|"
    r"\w+er\s+than|"
    r"minimum|capped|limited|超过|高于|多于|大于|少于|低于|小于|最多|最高|至多|至少|最少|最低|上限|"
    r"封顶|以内|以下|之内|以上|起",
    re.IGNORECASE,
)


def may_bound(claim: str) -> bool:
    """A cheap look: a bound word in ``claim``."""
    return _CUES.search(claim) is not None


def _value(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None


@lru_cache(maxsize=2048)
def _bounds(text: str) -> tuple[dict[Decimal, set[str]], str]:
    """Each number's bound sides in ``text``, and the text with the bound words blanked
    (so what is left shows whether it negates anything else); once per distinct text (a
    context sentence is matched by many claims), never changed by a caller."""
    sides: dict[Decimal, set[str]] = {}
    marks = [(m.start(), m.end(), m.lastgroup or "") for m in _BEFORE.finditer(text)]
    for number in _NUMBER.finditer(text):
        value = _value(number.group())
        if value is None:
            continue
        before = [
            side
            for start, end, side in marks
            if end <= number.start()
            and number.start() - end <= _GAP
            and not _NUMBER.search(text, end, number.start())
        ]
        after = _AFTER.match(text, number.end() + _unit_length(text, number.end()))
        if after is None:  # "500 or less": "or" is no unit; 400千瓦时以上: a longer one
            after = _AFTER.match(text, number.end()) or _CJK_AFTER.match(text, number.end())
        side = before[-1] if before else (after.lastgroup if after is not None else None)
        if side:
            sides.setdefault(value, set()).add(side)
    blanked = _BEFORE.sub(" ", text)
    return sides, _AFTER.sub(" ", blanked)


_UNIT = re.compile(r"\s?(?:%|％|[a-zA-Z]{1,5}\b|[元天日周月年岁个次人家份件小时分钟万亿千百]{1,3})")


def _unit_length(text: str, end: int) -> int:
    m = _UNIT.match(text, end)
    return len(m.group()) if m is not None else 0


def bound_problem(claim: str, sentence: str, label: str) -> str | None:
    """Why ``claim`` puts a number on the other side of the bound ``sentence`` (the
    context sentence it matched) puts it on, or None."""
    ours, our_rest = _bounds(claim)
    if not ours:
        return None
    theirs, their_rest = _bounds(sentence)
    if not theirs:
        return None
    if bool(_NEGATION.search(our_rest)) != bool(_NEGATION.search(their_rest)):
        return None  # a negation turns one reading round: not compared
    for value, sides in ours.items():
        other = theirs.get(value)
        if not other or len(sides) != 1 or sides <= other:
            continue
        said = "a floor" if "floor" in sides else "a ceiling"
        written = "a ceiling" if "floor" in sides else "a floor"
        return f"makes {value} {said} where {label} make it {written}"
    return None


_OTHER_SIDE = {"ceiling": "floor", "floor": "ceiling"}


def _turned(rest: str) -> bool | None:
    """Whether the words outside the bounds forbid (True), affirm (False), or negate in
    some other way (None: not read)."""
    if _NEGATION.search(rest) is None:
        return False
    left = _FORBIDS.sub(" ", rest)
    return None if _NEGATION.search(left) is not None else True


def same_bound(claim: str, sentence: str, around: str = "") -> bool:
    """Whether ``claim`` and ``sentence`` set one bound on one number, one forbidding what
    lies past it and the other allowing what lies within (``may not accept gifts over 500
    USD`` and ``may accept gifts only if they are worth 500 USD or less``; ``不得报销超过3次``
    and ``最多可报销3次``): they differ in a negation, not in what they say. Not when the
    claim, the sentence or the passage ``around`` it makes an exception (approval, unless):
    then what lies past the bound is not simply forbidden."""
    ours, our_rest = _bounds(claim)
    if not ours:
        return False
    theirs, their_rest = _bounds(sentence)
    if not theirs or any(_EXCEPTION.search(t) for t in (claim, sentence, around)):
        return False
    our_turn, their_turn = _turned(our_rest), _turned(their_rest)
    if our_turn is None or their_turn is None or our_turn == their_turn:
        return False
    for value, sides in ours.items():
        other = theirs.get(value)
        if other is None or len(sides) != 1 or len(other) != 1:
            continue
        (ours_side,) = sides
        (their_side,) = other
        if our_turn:
            ours_side = _OTHER_SIDE[ours_side]
        if their_turn:
            their_side = _OTHER_SIDE[their_side]
        if ours_side == their_side:
            return True
    return False


def bounded(text: str) -> frozenset[tuple[Decimal, str]]:
    """Each number of ``text`` with the side of the bound written at it (a tier of a
    schedule: "48小时以上" is (48, floor), "不足48小时" (48, ceiling))."""
    return frozenset((value, side) for value, sides in _bounds(text)[0].items() for side in sides)

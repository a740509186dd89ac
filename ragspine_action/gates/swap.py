"""Swaps: a claim that copies its context sentence with one term exchanged.

A bag-of-words judge passes "The Singapore data centre went live in March 2024" against
"The Frankfurt data centre went live in March 2024" (Singapore is in the next sentence),
"汇率风险是最主要的市场风险" against "利率风险是…" (率, 风险 are shared), "of the same year"
against "of the following year", and "香港银保…内地代理" against "香港代理…内地银保": every
word is somewhere in the contexts. Here the claim is aligned with the context sentence it
matched (word by word; Chinese by character pairs, so 汇率 against 利率 is one character
exchanged inside a shared word) and each place where the two differ is read:

1. **Opposites.** The claim's words there and the sentence's say opposite things: a
   direction or its antonym (``rose`` against ``stable``, 上升 against 稳定, 有利于 against
   抑制, 有效 against 失效, ``upfront`` against ``over the coverage period``), one of two
   single-character antonyms inside a shared word (轻资本 against 重资本, 上调/下调), or two
   members of a small closed kind (a time unit: days/weeks, 天/周; a quantifier:
   only/all/some; sameness: same against following/second/other; a travel class).
2. **A term the contexts use for something else.** The claim's words there are all in the
   contexts, somewhere other than this place (another sentence, or elsewhere in this one),
   and are no inflection or direction-synonym of the sentence's: ``Singapore`` for
   ``Frankfurt``, ``editors and read-only members`` for ``owners and administrators``, 汇率
   for 利率, 只读成员 for 只有所有者和管理员. Two terms exchanged between two slots
   (香港代理…内地银保 written 香港银保…内地代理) are two such places, unless nothing but a
   conjunction stands between them (``administrators and owners`` lists the same two).
3. **Only one of the alternatives.** The claim adds ``only``/只能/仅 where the sentence
   offers alternatives it drops (``only by email`` against ``by phone or email``).
4. **Order swapped around a comparison.** The same comparison word (``faster than``,
   快于, 高于 …) with the terms on its two sides exchanged (股东权益增长快于利润增长
   against 利润增长快于股东权益增长).

A paraphrase that writes the place in new words (``grew`` for ``rose``, 增长 for 上升, a word
the contexts never use) is not read as a swap, nor is a place that only leaves words out or
adds words (other rules judge added words). Only near-copies are read: the aligned equal
parts must hold most of the claim's content, and a differing place must be short.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher
from functools import lru_cache
from typing import NamedTuple, Protocol

from .claims import DOLLAR_CODES, STOPWORDS, expand_contractions
from .compare import compare, may_compare
from .kinds import names_a_member, two_members
from .numerals import same_unit

__all__ = ["ContextWords", "swap_problem"]


class ContextWords(Protocol):
    """What the rule asks of the contexts (the judge's prepared contexts answer it)."""

    def has(self, unit: str) -> bool:
        """Whether a word (lower case, or an inflection of it) or a pair of Chinese
        characters occurs in the contexts."""
        ...

    def together(self, words: Sequence[str], others: Sequence[str]) -> bool:
        """Whether one context sentence holds all of ``words`` and one of ``others``."""
        ...

    def scopes(self, words: Sequence[str]) -> bool:
        """Whether a context sentence or clause opens on a scope ("For theft, …") that
        names all of ``words``."""
        ...

    def binds(self, name: str, description: str, sentence: str) -> bool:
        """Whether the contexts name ``name`` as what ``description`` ("bank" of "the
        bank") refers to in ``sentence``."""
        ...


_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_PIECE = re.compile(rf"\d+(?:[.,]\d+)+|[A-Za-z0-9]+|[{_CJK}]+")  # 1,702 and 6.5 whole
_IS_CJK = re.compile(rf"[{_CJK}]")
_TOKENS = re.compile(rf"[a-z0-9]+|[{_CJK}]")


class _Unit(NamedTuple):
    """One alignment unit: a word (stemmed) or a pair of Chinese characters, with the
    atoms (word or character positions) it covers."""

    key: str
    atoms: tuple[int, ...]


class _Side(NamedTuple):
    units: list[_Unit]
    atoms: list[str]  # atom id → its text: a word (lower case) or one Chinese character
    cjk: list[bool]
    shown: list[str]  # the atom as written (case kept)
    run: list[int]  # the run of letters or characters the atom stands in
    clause: list[int]  # the clause it stands in (punctuation and table cells cut clauses)
    opens: list[bool]  # the first word of its clause (capitalised whatever it is)


@lru_cache(maxsize=8192)
def _stem(word: str) -> str:
    """A word without its inflection (editors ~ editor, recognised ~ recognise)."""
    for suffix in ("ing", "ies", "es", "ed", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


_BREAKS = frozenset("，,；;：:。!?！？|()（）[]【】\n")


@lru_cache(maxsize=2048)
def _side(text: str) -> _Side:
    """``text`` as alignment units and atoms (kept per distinct text: a context sentence
    is matched by many claims; never changed once built)."""
    side = _Side([], [], [], [], [], [], [])
    units, atoms, shown = side.units, side.atoms, side.shown
    cjk, run, clauses, opens = side.cjk, side.run, side.clause, side.opens
    text = expand_contractions(text)
    clause, last = 0, 0
    for n, m in enumerate(_PIECE.finditer(text)):
        piece, start = m.group(), m.start()
        if start > last:
            gap = text[last:start]
            if not _BREAKS.isdisjoint(gap) or (
                "." in gap and not (gap == "." and piece[0].isdigit())
            ):
                clause += 1  # punctuation between them (not the point of 1.2)
        first = len(atoms)
        is_cjk = piece[0] >= "\u3400"
        if not is_cjk:
            word = piece.lower()
            if word in DOLLAR_CODES and text[m.end() : m.end() + 1] == "$":
                word = DOLLAR_CODES[word]  # HK$ is HKD (claims.tokenize reads it so too)
            atoms.append(word)
            shown.append(piece)
            units.append(_Unit(_stem(word), (first,)))
        else:
            atoms.extend(piece)
            shown.extend(piece)
            if len(piece) == 1:
                units.append(_Unit(piece, (first,)))
            else:
                units.extend(
                    _Unit(piece[i : i + 2], (first + i, first + i + 1))
                    for i in range(len(piece) - 1)
                )
        size = len(atoms) - first
        cjk.extend([is_cjk] * size)
        run.extend([n] * size)
        opens.extend([not clauses or clauses[-1] != clause] + [False] * (size - 1))
        clauses.extend([clause] * size)
        last = m.end()
    return side


class _Place(NamedTuple):
    """Where the claim and its sentence differ: the claim's atoms and the sentence's."""

    claim: tuple[int, ...]
    sentence: tuple[int, ...]
    interior: bool  # equal parts on both sides (not the start or end of either)
    leading: bool  # at the start of both
    start: int  # first claim unit of the place
    end: int


# Closed kinds: two different members at one aligned place are a contradiction.
_KINDS: tuple[dict[str, frozenset[str]], ...] = (
    {  # time units
        "minute": frozenset(["minute", "minutes", "分钟"]),
        "hour": frozenset(["hour", "hours", "小时"]),
        "day": frozenset(["day", "days", "天", "日"]),
        "week": frozenset(["week", "weeks", "周", "星期"]),
        "month": frozenset(["month", "months", "月"]),
        "quarter": frozenset(["quarter", "quarters", "季度"]),
        "year": frozenset(["year", "years", "年"]),
    },
    {  # quantifiers
        "only": frozenset(["only", "solely", "exclusively", "只有", "只能", "仅", "仅限", "唯一"]),
        "all": frozenset(
            ["all", "every", "each", "any", "everyone", "anyone", "所有", "全部", "任何"]
        ),
        "some": frozenset(["some", "certain", "部分", "一些"]),
        "none": frozenset(["none", "nobody", "nothing"]),
    },
    {  # the same one or another
        "same": frozenset(["same", "identical", "同一", "相同", "同年", "当年"]),
        "other": frozenset(
            [
                "following",
                "next",
                "previous",
                "prior",
                "preceding",
                "second",
                "other",
                "another",
                "different",
                "separate",
                "次年",
                "翌年",
                "下一",
                "上一",
                "另一",
                "不同",
            ]
        ),
    },
    {  # travel classes
        "economy": frozenset(["economy", "经济舱"]),
        "premium": frozenset(["premium"]),
        "business": frozenset(["business", "商务舱"]),
        "first": frozenset(["first", "头等舱"]),
    },
    {  # when a result is recognised: at once, or spread over a period
        "at once": frozenset(
            ["upfront", "immediately", "inception", "instantly", "一次性", "立即", "立刻", "即时"]
        ),
        "over time": frozenset(["over", "gradually", "progressively", "逐步", "逐渐", "分期"]),
    },
    {  # validity
        "valid": frozenset(["valid", "有效", "仍然有效", "生效"]),
        "void": frozenset(["void", "invalid", "expired", "lapsed", "失效", "无效", "作废", "过期"]),
    },
    {  # an amount before or after what is taken off it
        "net": frozenset(["net", "净额", "净值"]),
        "gross": frozenset(["gross", "总额", "毛额"]),
    },
    {  # a figure as reported or restated on an underlying basis
        "reported": frozenset(["reported", "statutory"]),
        "underlying": frozenset(["underlying", "adjusted", "organic", "core"]),
    },
    {  # per share, before or after dilution
        "basic": frozenset(["basic", "基本"]),
        "diluted": frozenset(["diluted", "稀释"]),
    },
    {  # a level that holds against one that moves
        "stable": frozenset(
            ["stable", "steady", "flat", "unchanged", "稳定", "平稳", "持平", "不变"]
        ),
        "moving": frozenset(
            [
                "rose",
                "rise",
                "risen",
                "increased",
                "fell",
                "fall",
                "fallen",
                "decreased",
                "declined",
                "上升",
                "下降",
                "增长",
                "减少",
                "上涨",
                "下跌",
            ]
        ),
    },
    {  # helps against holds back
        "help": frozenset(
            ["有利于", "利于", "有助于", "促进", "带动", "推动", "benefits", "helps"]
        ),
        "hinder": frozenset(["抑制", "阻碍", "拖累", "不利于", "hinders", "hampers", "curbs"]),
    },
)
_KIND_OF: dict[str, list[tuple[int, str]]] = {}
for _number, _kind in enumerate(_KINDS):
    for _member, _words in _kind.items():
        for _word in _words:
            _KIND_OF.setdefault(_word, []).append((_number, _member))
# Longest first; equal lengths in a fixed order (the frozensets' order is the hash seed's),
# so the pattern is the same text in every process (pattern_cache keeps it compiled).
_CJK_KIND_WORDS = sorted((w for w in _KIND_OF if _IS_CJK.match(w)), key=lambda w: (-len(w), w))
# 所有者 is an owner, not "all"; 月 in 月份 is still a month.
_CJK_GUARDS = {"所有": "(?!者|权|人)", "日": "(?!期|常)", "年": "(?!度|龄|轻)"}
_CJK_KIND = re.compile(
    "|".join(
        f"(?P<k{i}>{re.escape(w)}{_CJK_GUARDS.get(w, '')})" for i, w in enumerate(_CJK_KIND_WORDS)
    )
)

# Single characters that are each other's opposite inside a shared word (轻资本/重资本,
# 上调/下调, 长期/短期, 税前/税后).
_CHAR_OPPOSITES = {
    pair[i] + pair[1 - i]
    for pair in [
        "轻重",
        "高低",
        "长短",
        "多少",
        "大小",
        "增减",
        "升降",
        "涨跌",
        "上下",
        "前后",
        "买卖",
        "快慢",
        "强弱",
        "新旧",
        "有无",
        "内外",
        "早晚",
        "盈亏",
        "净毛",
        "进出",
        "开关",
        "宽窄",
        "松紧",
        "正负",
        "优劣",
        "好坏",
        "先后",
        "顺逆",
        "主次",
        "难易",
        "远近",
        "冷热",
        "收支",
        "借贷",
        "赢输",
    ]
    for i in (0, 1)
}

# Words that ask for one of the alternatives only, and the words that join alternatives.
_ONLY = frozenset(["only", "solely", "exclusively"])
_CJK_ONLY = re.compile("只能|只有|只可|仅能|仅限|仅可|仅|只(?!读)")
_ALTERNATIVE = frozenset(["or", "and"])
_ONLY_CONDITION = re.compile(
    r"\b(?:only|solely)\s+(?:after|if|when|once|before|until|with|where|provided)\b|只有|才"
)
# Words that make a left-out end a clause of its own, not more items of a list.
_ONLY_ITEMS = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "can",
        "cannot",
        "may",
        "must",
        "will",
        "shall",
        "should",
        "not",
        "no",
        "never",
        "do",
        "does",
        "did",
        "has",
        "have",
        "had",
        "which",
        "who",
        "that",
    ]
)
_CJK_ALTERNATIVE = frozenset("或和及与、")

# Comparisons whose two sides cannot be exchanged.
_COMPARED = re.compile(
    r"\b(?:more|less|fewer|faster|slower|higher|lower|greater|larger|smaller|better|worse|"
    r"quicker|stronger|weaker)\s+than\b|\b(?:outpaced|outgrew|outperformed|exceeded|"
    r"overtook|surpassed|trailed|lagged)\b|快于|慢于|高于|低于|多于|少于|大于|小于|优于|劣于|"
    r"好于|差于|强于|弱于|超过|超出|领先于|落后于|跑赢|跑输",
    re.IGNORECASE,
)

_NEAR_COPY = 0.6  # share of the claim's words (characters) the alignment must find equal
_SHORT = 3  # content words (a Chinese character counts ½) a swapped term may have
_CLAUSE_BREAK = re.compile(r"[，,；;：:。.!?！？]")


def _content(atoms: Sequence[int], side: _Side) -> list[str]:
    """The content atoms of a place: words that are not stop words, no digits, and the
    Chinese characters."""
    return [
        side.atoms[a]
        for a in atoms
        if side.cjk[a] or (side.atoms[a] not in STOPWORDS and not side.atoms[a][:1].isdigit())
    ]


def _weight(atoms: Sequence[int], side: _Side) -> float:
    return sum(0.5 if side.cjk[a] else 1.0 for a in atoms)


def _terms(atoms: Sequence[int], side: _Side) -> list[str]:
    """The place's text as terms: each word, and each run of adjacent Chinese characters."""
    out: list[str] = []
    previous = -2
    for a in atoms:
        if side.cjk[a] and previous == a - 1 and side.run[previous] == side.run[a] and out:
            out[-1] += side.atoms[a]
        else:
            out.append(side.atoms[a])
        previous = a
    return out


def _widened(atoms: Sequence[int], side: _Side) -> str:
    """The place's Chinese characters with one neighbour each side (有 → 有效 → 仍然有效):
    a kind word is read whole."""
    if not atoms:
        return ""
    lo, hi = min(atoms), max(atoms)
    while lo > 0 and side.cjk[lo - 1] and lo > min(atoms) - 2:
        lo -= 1
    while hi + 1 < len(side.atoms) and side.cjk[hi + 1] and hi < max(atoms) + 2:
        hi += 1
    return "".join(side.atoms[lo : hi + 1])


def _kinds_of(atoms: Sequence[int], side: _Side) -> set[tuple[int, str]]:
    found: set[tuple[int, str]] = set()
    for a in atoms:
        if not side.cjk[a]:
            found.update(_KIND_OF.get(side.atoms[a], ()))
    if any(side.cjk[a] for a in atoms):
        text = _widened(atoms, side)
        for m in _CJK_KIND.finditer(text):
            found.update(_KIND_OF[_CJK_KIND_WORDS[int((m.lastgroup or "k0")[1:])]])
    return found


def _clauses(side: _Side) -> list[tuple[int, int]]:
    """The unit ranges of ``side``'s clauses, in order."""
    out: list[tuple[int, int]] = []
    start = 0
    for n in range(1, len(side.units) + 1):
        if n == len(side.units) or (
            side.clause[side.units[n].atoms[0]] != side.clause[side.units[start].atoms[0]]
        ):
            out.append((start, n))
            start = n
    return out


def _paired(mine: _Side, theirs: _Side) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Each claim clause with the sentence clause it copies: the pairs sharing most units
    first, each clause used once (财务部负责招聘，人事部负责预算编制 pairs its clauses
    with 人事部负责招聘 and 财务部负责预算编制: two names exchanged)."""
    ours, others = _clauses(mine), _clauses(theirs)
    if len(ours) == 1 and len(others) == 1:
        return [(ours[0], others[0])]
    keys = [{u.key for u in theirs.units[j1:j2]} for j1, j2 in others]
    scored = []
    for n, (i1, i2) in enumerate(ours):
        mine_keys = {u.key for u in mine.units[i1:i2]}
        for m, theirs_keys in enumerate(keys):
            shared = len(mine_keys & theirs_keys)
            if shared >= 2:
                scored.append((-shared, n, m))
    used_ours: set[int] = set()
    used_others: set[int] = set()
    pairs = []
    for _, n, m in sorted(scored):
        if n in used_ours or m in used_others:
            continue
        used_ours.add(n)
        used_others.add(m)
        pairs.append((ours[n], others[m]))
    return sorted(pairs)


def _opcodes(a: list[str], b: list[str]) -> list[tuple[str, int, int, int, int]]:
    """difflib's opcodes, the shared start and end taken off first (a near-copy shares
    most of both: the matcher then aligns only the middle)."""
    limit = min(len(a), len(b))
    n = 0
    while n < limit and a[n] == b[n]:
        n += 1
    m = 0
    while m < limit - n and a[-1 - m] == b[-1 - m]:
        m += 1
    out: list[tuple[str, int, int, int, int]] = [("equal", 0, n, 0, n)] if n else []
    a_end, b_end = len(a) - m, len(b) - m
    if n < a_end and n < b_end:
        matcher = SequenceMatcher(None, a[n:a_end], b[n:b_end], autojunk=False)
        out += [(t, i1 + n, i2 + n, j1 + n, j2 + n) for t, i1, i2, j1, j2 in matcher.get_opcodes()]
    elif n < a_end or n < b_end:
        out.append(("replace", n, a_end, n, b_end))
    if m:
        out.append(("equal", a_end, len(a), b_end, len(b)))
    return out


def _one_clause(atoms: tuple[int, ...], side: _Side) -> bool:
    """Whether ``atoms`` stand in one clause (分享链接默认七天有效，可设置… does not exchange
    有效 for the 以 of 可以: the comma between them parts two places)."""
    return len({side.clause[a] for a in atoms}) <= 1


def _places(
    claim: _Side, sentence: _Side, ours: tuple[int, int], others: tuple[int, int]
) -> list[_Place]:
    """Where a claim clause (units ``ours``) and its sentence clause (``others``) differ."""
    a = [u.key for u in claim.units[ours[0] : ours[1]]]
    b = [u.key for u in sentence.units[others[0] : others[1]]]
    mine_units = claim.units[ours[0] : ours[1]]
    theirs_units = sentence.units[others[0] : others[1]]
    blocks = _opcodes(a, b)
    equal_claim = {
        x
        for tag, i1, i2, _, _ in blocks
        if tag == "equal"
        for u in mine_units[i1:i2]
        for x in u.atoms
    }
    equal_sentence = {
        x
        for tag, _, _, j1, j2 in blocks
        if tag == "equal"
        for u in theirs_units[j1:j2]
        for x in u.atoms
    }
    places: list[_Place] = []
    for tag, i1, i2, j1, j2 in blocks:
        if tag == "equal":
            continue
        mine = tuple(sorted({x for u in mine_units[i1:i2] for x in u.atoms} - equal_claim))
        theirs = tuple(sorted({x for u in theirs_units[j1:j2] for x in u.atoms} - equal_sentence))
        interior = i1 > 0 and j1 > 0 and i2 < len(a) and j2 < len(b)
        if places:
            last = places[-1]
            # Words put in on one side and others left out on the other, one unit apart,
            # are one exchange (有利于 | 短期 | 内可能抑制: 有利于 for 可能抑制).
            if (
                i1 - last.end <= 1
                and ((not last.sentence and not mine) or (not last.claim and not theirs))
                and _one_clause(last.claim + mine, claim)
                and _one_clause(last.sentence + theirs, sentence)
            ):
                places[-1] = _Place(
                    last.claim + mine,
                    last.sentence + theirs,
                    last.interior and interior,
                    last.leading,
                    last.start,
                    i2,
                )
                continue
        places.append(_Place(mine, theirs, interior, i1 == 0 and j1 == 0, i1, i2))
    return places


def _written_in(term: str, sentence: str) -> bool:
    """Whether every word of ``term`` is in ``sentence`` itself, as written or as an
    inflection (a shared first five letters: reused/reuse, accepted/accept; one stem:
    sales/sale); a Chinese
    term as a substring."""
    if not term.isascii():
        return term in sentence
    words = [w for w in _TOKENS.findall(term.lower()) if w.isalpha()]
    if not words:
        return False
    written = _TOKENS.findall(sentence.lower())
    return all(
        any(
            w == v or (len(w) >= 5 and len(v) >= 5 and w[:5] == v[:5]) or _stem(w) == _stem(v)
            for v in written
        )
        for w in words
    )


def swap_problem(
    claim: str,
    sentence: str,
    contexts: ContextWords,
    same_thing: Callable[[str, str], bool],
    label: str,
) -> str | None:
    """Why ``claim`` contradicts ``sentence``, the context sentence it matched, at a place
    where it copies the sentence with a term exchanged (module docstring); None if not.

    ``same_thing``: whether two writings name one thing or say one direction (HK and
    Hong Kong, 收入 and revenue, rose and increased, 上升 and 增长).
    """
    if may_compare(claim):
        compared = compare(claim, sentence)
        if compared is not None:
            if not compared.agrees:
                return f"turns the comparison in {label} round"
            if compared.turned:
                return None  # told from the other side: its sides are exchanged, not swapped
    # A near-copy shares most of its words (characters) with the sentence: a set look-up
    # before the alignment (its equal parts hold 60% of them; half here, for inflections).
    words = _TOKENS.findall(claim.lower())
    written = _TOKENS.findall(sentence.lower())
    known = frozenset(written)
    if len(words) < 3 or sum(w in known for w in words) * 2 < len(words):
        return None
    if _subsequence(words, written):
        return None  # the sentence with words left out: nothing exchanged, nothing moved
    mine, theirs = _side(claim), _side(sentence)
    if len(mine.units) < 3 or not theirs.units:
        return None
    whole = ((0, len(mine.units)), (0, len(theirs.units)))
    aligned: list[_Place] = []
    places = _near_copy(mine, theirs, [whole], aligned)
    swapped = [p for p in places if p.claim and p.sentence]
    exchanged = [_exchanged(p, mine, theirs) for p in swapped]
    for n, place in enumerate(swapped):
        said, written = exchanged[n]
        if _opposed(place, mine, theirs):
            return (
                f"says {_shown(place.claim, mine)!r} where {label} say "
                f"{_shown(place.sentence, theirs)!r}"
            )
        if not said or not written:
            continue  # one side only leaves words out (取消分享后 for 取消后)
        if same_unit(_shown(said, mine), _shown(written, theirs)):
            continue  # km for kilometres: one unit, abbreviated
        if _answer_refers(said, written, mine, theirs, label):
            continue  # 本产品 for 重疾险, "this policy" for the plan's name
        if _shown(written, theirs).lower() in _CONNECTIVES:
            continue  # a clause reordered around its connective (只要订单… for 会员订单…)
        if _elsewhere(place, said, written, places, mine, theirs, contexts, same_thing, sentence):
            if _moved(n, swapped, exchanged, mine, theirs):
                continue
            if _written_in(_shown(said, mine), sentence) and not _written_in(
                _shown(written, theirs), claim
            ):
                # "90-day waiting period" against "A waiting period of 90 days applies":
                # the term is the matched sentence's own, reworded around; two terms of
                # the sentence given each other's places (both in the claim) still swap
                continue
            if contexts.binds(_shown(said, mine), _shown(written, theirs), sentence):
                continue  # "Nordhaven's" for "The bank's": the name the bank was given
            return (
                f"says {_shown(said, mine)!r} where {label} say {_shown(written, theirs)!r} "
                "(a term they use for something else)"
            )
    for n, place in enumerate(swapped):
        said, written = exchanged[n]
        if (
            said
            and written
            and not _answer_refers(said, written, mine, theirs, label)
            and not _initials(_shown(said, mine), _shown(written, theirs))  # FIU, its name
            and not same_thing(_shown(said, mine), _shown(written, theirs))  # later owners
            and _unmentioned(place, said, written, places, mine, theirs, contexts)
        ):
            return (
                f"says {_shown(said, mine)!r} where {label} say {_shown(written, theirs)!r} "
                "(a name or role they never mention)"
            )
    problem = _numbers_exchanged(places, mine, theirs, label)
    if problem is None:
        problem = _only_problem(places, mine, theirs, label)
    moved = any(not p.sentence for p in aligned) and any(not p.claim for p in aligned)
    if problem is None and moved and len(_clauses(mine)) > 1 and len(_clauses(theirs)) > 1:
        # Words put in at one place and left out at another: maybe a clause moved, maybe
        # two terms exchanged across clauses that the whole alignment cannot pair.
        problem = _clause_swap(mine, theirs, contexts, same_thing, label)
    return problem


def _near_copy(
    mine: _Side,
    theirs: _Side,
    pairs: list[tuple[tuple[int, int], tuple[int, int]]],
    every: list[_Place] | None = None,
) -> list[_Place]:
    """The places of each (claim range, sentence range) pair whose claim side is a near
    copy of its sentence side (``every``, if given, collects the places of all pairs)."""
    places: list[_Place] = []
    for ours, others in pairs:
        found = _places(mine, theirs, ours, others)
        if every is not None:
            every += found
        atoms = {a for u in mine.units[ours[0] : ours[1]] for a in u.atoms}
        equal = len(atoms) - len({a for p in found for a in p.claim})
        if equal >= _NEAR_COPY * len(atoms) and equal >= 2:
            places += found
    return places


def _clause_swap(
    mine: _Side,
    theirs: _Side,
    contexts: ContextWords,
    same_thing: Callable[[str, str], bool],
    label: str,
) -> str | None:
    """Two terms exchanged between two clauses (财务部负责招聘，人事部负责预算编制 against
    财务部负责预算编制，人事部负责招聘), which an alignment of the whole sentences may read
    as a clause moved: each claim clause aligned with the sentence clause it copies, and
    two places that exchange the same two terms crosswise."""
    places = _near_copy(mine, theirs, _paired(mine, theirs))
    swapped = [p for p in places if p.claim and p.sentence]
    exchanged = [_exchanged(p, mine, theirs) for p in swapped]
    for n, place in enumerate(swapped):
        said, written = exchanged[n]
        if not said or not written:
            continue
        if not _elsewhere(place, said, written, places, mine, theirs, contexts, same_thing):
            continue
        keys = ({_key_of(a, mine) for a in said}, {_key_of(a, theirs) for a in written})
        for m, (other_said, other_written) in enumerate(exchanged):
            if (
                m != n
                and not _numbers_moved(mine, theirs)
                and keys
                == (
                    {_key_of(a, theirs) for a in other_written},
                    {_key_of(a, mine) for a in other_said},
                )
            ):
                return (
                    f"says {_shown(said, mine)!r} where {label} say "
                    f"{_shown(written, theirs)!r}, and the reverse (two terms exchanged)"
                )
    return None


def _subsequence(words: list[str], written: list[str]) -> bool:
    """Whether ``words`` stand in ``written`` in their order (others between them)."""
    remaining = iter(written)
    return all(w in remaining for w in words)


def _opposed(place: _Place, mine: _Side, theirs: _Side) -> bool:
    """Whether the two sides of a place are opposites or two members of a closed kind."""
    ours = _kinds_of(place.claim, mine)
    if ours:
        other = _kinds_of(place.sentence, theirs)
        for kind in {k for k, _ in ours} & {k for k, _ in other}:
            a = {m for k, m in ours if k == kind}
            b = {m for k, m in other if k == kind}
            if a.isdisjoint(b):
                return True
    if len(place.claim) == 1 and len(place.sentence) == 1:
        x, y = mine.atoms[place.claim[0]], theirs.atoms[place.sentence[0]]
        if mine.cjk[place.claim[0]] and x + y in _CHAR_OPPOSITES:
            return True
    # A period for another (FY2024 where the sentence says FY2025), unless each side has
    # the other's period elsewhere: then the periods moved with their clauses.
    said, written = _periods(place.claim, mine), _periods(place.sentence, theirs)
    if not said or not written or not said.isdisjoint(written):
        return False
    every = range(len(mine.atoms)), range(len(theirs.atoms))
    if said <= _periods(every[1], theirs) and place.leading:
        # "2025: USD 13.1 million" against "… 12.3 million in 2024 and 13.1 million in
        # 2025": the sentence's own period put first as a label; which figure is whose is
        # the anchors rule's (a figure given to the other period still fails there)
        return False
    return not (said <= _periods(every[1], theirs) and written <= _periods(every[0], mine))


# A period: a year (2025, FY2025, FY25), a quarter or a half (Q3, H1, 3Q25, 1H).
_PERIOD = re.compile(r"(?:fy)?((?:19|20)?\d\d)|([qh][1-4])|([1-4][qh])(\d\d(?:\d\d)?)?")


def _periods(atoms: Sequence[int], side: _Side) -> set[str]:
    """The periods a place names, in one writing (FY25 = FY2025 = 2025, 3Q = Q3)."""
    out: set[str] = set()
    for a in atoms:
        word = side.atoms[a]
        if side.cjk[a] or not (word[:1].isdigit() or word[:1] in "fqh"):
            continue
        m = _PERIOD.fullmatch(word)
        if m is None or (m.group(1) and len(m.group(1)) == 2 and not word.startswith("fy")):
            continue  # a bare two-digit number is no year
        if m.group(1):
            out.add(m.group(1)[-2:])
        else:
            out.add(m.group(2) or m.group(3)[::-1])
            if m.group(4):
                out.add(m.group(4)[-2:])  # 3Q25: the third quarter of 2025
    return out


def _shown(atoms: Sequence[int], side: _Side) -> str:
    out = ""
    for n, a in enumerate(atoms):
        joined = n and side.cjk[a] and side.cjk[atoms[n - 1]] and atoms[n - 1] == a - 1
        out += side.shown[a] if joined or not out else " " + side.shown[a]
    return out


def _key_of(atom: int, side: _Side) -> str:
    return side.atoms[atom] if side.cjk[atom] else _stem(side.atoms[atom])


def _exchanged(place: _Place, mine: _Side, theirs: _Side) -> tuple[list[int], list[int]]:
    """The content atoms each side has at ``place`` that the other side has not there
    (what was exchanged for what: 重 for 轻, ``hong kong`` for ``hk``)."""
    ours = {_key_of(a, mine) for a in place.claim}
    others = {_key_of(a, theirs) for a in place.sentence}
    said = [a for a in place.claim if _key_of(a, mine) not in others and _is_content(a, mine)]
    written = [
        a for a in place.sentence if _key_of(a, theirs) not in ours and _is_content(a, theirs)
    ]
    return said, written


def _is_content(atom: int, side: _Side) -> bool:
    """A Chinese character, or a word that is no stop word, joining word or number (a
    number or a period such as FY2025 is the number rules' to judge)."""
    word = side.atoms[atom]
    return side.cjk[atom] or (
        word not in STOPWORDS and word not in _GLUE and _NUMBER_LIKE.fullmatch(word) is None
    )


# Words that join clauses: they say nothing of what the clauses hold.
# Words that join a condition to its clause: a place where the sentence has one of these
# and the claim a word of the clause is a reordering, not a term exchanged.
_CONNECTIVES = frozenset(
    ["只要", "如果", "若", "假如", "倘若", "当", "凡", "if", "when", "once", "unless", "provided"]
)
_GLUE = frozenset(["while", "whereas", "although", "though", "however", "respectively", "both"])
_NUMBER_LIKE = re.compile(r"\d+(?:[.,]\d+)*|(?:fy|q|h)\d{1,4}|\d[hq]\d{0,4}")


_NEGATION = frozenset(["not", "no", "never", "without", "none", "cannot", "nor", "neither"])
_CJK_NEGATION = frozenset("不没未无非勿毋")


def _elsewhere(
    place: _Place,
    said: list[int],
    written: list[int],
    places: list[_Place],
    mine: _Side,
    theirs: _Side,
    contexts: ContextWords,
    same_thing: Callable[[str, str], bool],
    sentence: str = "",
) -> bool:
    """Whether the claim's words at ``place`` are a short term the contexts use for
    something else (rule 2 of the module docstring); ``sentence``: the matched sentence."""
    if _weight(said, mine) > _SHORT or _weight(written, theirs) > 2 * _SHORT:
        return False
    if not _one_clause(place.claim, mine) or not _one_clause(place.sentence, theirs):
        return False  # across a comma: words moved between clauses, not one term exchanged
    terms = _terms(said, mine)
    if not place.interior and len(terms) > 1:
        return False  # the end of a longer claim: another sentence's words, not a swap
    if not place.interior and not place.leading and _weight(written, theirs) > _SHORT:
        return False  # the end of a longer sentence: it goes on to say more
    for side, atoms in ((mine, place.claim), (theirs, place.sentence)):
        if any(side.atoms[a] in _NEGATION or side.atoms[a] in _CJK_NEGATION for a in atoms):
            return False  # a negation: the polarity rule reads it
    if not _anchored(said, places, mine):
        return False
    named = _named(said, mine)
    if named != _named(written, theirs):
        return False  # "The X200" for "The device": a name for what the sentence describes
    said_text, written_text = _shown(said, mine), _shown(written, theirs)
    if same_thing(said_text, written_text) or _initials(said_text, written_text):
        return False
    stems = {_key_of(a, theirs) for a in written}
    for term in terms:
        if _IS_CJK.match(term):
            pairs = [term[i : i + 2] for i in range(len(term) - 1)]
            if not pairs:  # one character: a pair with a neighbour it has in the claim
                at = next(a for a in said if mine.atoms[a] == term)
                pairs = _pairs_around(at, mine)
                if not any(contexts.has(p) for p in pairs):
                    return False
            elif not all(contexts.has(p) for p in pairs):
                return False
        elif _stem(term) in stems or not contexts.has(term):
            return False
    if named:
        return True
    if any(mine.cjk[a] for a in said):
        after = "".join(
            mine.atoms[a] for a in range(max(said) + 1, min(max(said) + 3, len(mine.atoms)))
        )
        if _cjk_kind(said_text, written_text, after):
            return True
        # The same two scopes in Chinese: 涉及入室盗窃的索赔 against 涉及地基沉降的索赔，…
        # when another sentence opens on 入室盗窃 (入室盗窃须在48小时内报警).
        cjk_opening = _CJK_SCOPE_START.match(sentence) if sentence else None
        return (
            cjk_opening is not None
            and written_text in cjk_opening.group(1)
            and contexts.scopes([said_text])
        )
    # Common English words are read as another thing's only where one context sentence
    # names both (a list of roles, a contrast): "staff" in another sentence than
    # "employees" may be the same people.
    said_words, written_words = [mine.atoms[a] for a in said], [theirs.atoms[a] for a in written]
    if contexts.together(said_words, written_words):
        return True
    # Or where the sentence's term is the scope its rule opens on and the claim's term is
    # the scope another context sentence opens on: "For theft claims the excess is EUR 400"
    # against "For claims involving escape of water, the excess increases to EUR 400" when
    # another sentence says "For theft, you must also report …" (two cases, two rules).
    opening = _SCOPE_START.match(sentence) if sentence else None
    return (
        opening is not None
        and any(w in opening.group(1).lower().split() for w in written_words)
        and contexts.scopes(said_words)
    )


# The scope a sentence opens on ("For claims involving escape of water, …", 涉及地基沉降的
# 索赔，…).
_CJK_SCOPE_START = re.compile(r"\s*(?:对于|涉及|如发生|发生|如遇)(.{1,16}?)(?:的|时)")
_SCOPE_START = re.compile(
    r"\s*(?:for|in\s+the\s+event\s+of|in\s+case\s+of)\s+([A-Za-z][A-Za-z\s-]{0,60}?)\s*,",
    re.IGNORECASE,
)


def _cjk_kind(said: str, written: str, after: str) -> bool:
    """Whether two Chinese terms read as two things rather than two wordings of one
    predicate (享有 for 计算, which the English rule would read only where one sentence
    names both): they share a character (汇率/利率, 产险/寿险), or a term, or the word right
    after it in the claim, ends in a character that names a thing (率, 险, 部, 人, 员, 方,
    司 …: 流动性风险 for 信用风险)."""
    if not set(said).isdisjoint(written):
        return True
    if said[-1:] in _CJK_THING_ENDS or written[-1:] in _CJK_THING_ENDS:
        return True
    return not _CJK_THING_ENDS.isdisjoint(after)


_CJK_THING_ENDS = frozenset(
    "率险部人员者方司行局会所署厅处室组队团户商家店市省区国港州城岛款费金额价税息股债"
    "卡证单表书章版级类型品货车机房楼库网站号码名职位长师生工"
)


# Nouns that name a role, a body or an organisation ("the data owner", "the security
# team", "the retailer"): a near-copy that puts another one the contexts never mention in
# its place names someone else.
_ROLE_NOUNS = frozenset(
    [
        "team",
        "department",
        "committee",
        "board",
        "manager",
        "managers",
        "officer",
        "owner",
        "owners",
        "director",
        "directors",
        "head",
        "lead",
        "leader",
        "administrator",
        "administrators",
        "supervisor",
        "supervisors",
        "bank",
        "insurer",
        "reinsurer",
        "agency",
        "authority",
        "regulator",
        "partner",
        "vendor",
        "supplier",
        "retailer",
        "manufacturer",
        "provider",
        "auditor",
        "auditors",
        "council",
        "office",
        "unit",
        "desk",
        "group",
        "division",
        "ministry",
        "court",
        "panel",
        "trustee",
        "trustees",
        "custodian",
        "broker",
        "brokers",
        "agent",
        "agents",
        "engineer",
        "engineers",
        "analyst",
        "analysts",
        "counsel",
        "controller",
        "treasurer",
        "secretary",
        "president",
        "chair",
        "chairman",
        "ceo",
        "cfo",
        "coo",
        "cto",
        "cio",
        "distributor",
        "dealer",
        "reseller",
        "carrier",
        "courier",
        "operator",
        "contractor",
        "landlord",
        "tenant",
        "lender",
        "borrower",
        "employer",
        "holder",
        "holders",
        "approver",
        "reviewer",
        "sponsor",
        "management",
    ]
)
_CJK_ROLE_END = re.compile(
    r"(?:部|委员会|会|经理|主管|总监|官|长|人|员|方|行|公司|集团|局|署|厅|团队|组|中心|银行|保险|处|科|室)$"
)
_CJK_AGENT = frozenset("由与和被向跟同及经让是")
# Prepositions of place and manner: 保存在…, 存放于…, 提交至…, 以…方式
_CJK_SLOT = frozenset("在于至以")
# What follows a name at the head of its clause: 友邦在香港…, 保诚的…, 平安与…
_CJK_NAME_NEXT = frozenset("在的于与和向对已将旗")
_CJK_FUNCTION = re.compile(r"因为|由于|原因|是|但|而且|其|该|此|全部|所有|每|各|任何|某些|部分")


def _unmentioned(
    place: _Place,
    said: list[int],
    written: list[int],
    places: list[_Place],
    mine: _Side,
    theirs: _Side,
    contexts: ContextWords,
) -> bool:
    """Whether the claim puts a name or role the contexts never mention (no word, no
    character pair of it) in the place of the sentence's name or role: ``the security
    team`` for ``the data owner``, ``Fabrikam`` for ``Northwind``, 友邦 for 保诚 (a
    Chinese term at the head of its clause, after 由/与/被 …, or before a role word such as
    部, 委员会, 经理), sharing no character with it."""
    if not place.interior and len(written) > len(said) and not mine.cjk[said[0]]:
        # "… by the security team." against "… by the data owner within two days.": the
        # claim ends where the sentence goes on; its term stands for the sentence's first
        # words there
        written = written[: len(said)]
    if _weight(said, mine) > _SHORT or _weight(written, theirs) > _SHORT:
        return False
    if not _one_clause(place.claim, mine) or not _one_clause(tuple(written), theirs):
        return False
    for side, atoms in ((mine, place.claim), (theirs, place.sentence)):
        if any(side.atoms[a] in _NEGATION or side.atoms[a] in _CJK_NEGATION for a in atoms):
            return False
    if not _anchored(said, places, mine):
        return False
    said_text, written_text = _shown(said, mine), _shown(written, theirs)
    if _initials(said_text, written_text) or (
        names_a_member(said_text)
        and (names_a_member(written_text) or names_a_member(_shown(place.sentence, theirs)))
        and not two_members(said_text, written_text)
    ):
        # HK for Hong Kong; 房东 for 出租人 is the closed kinds' (kinds.py), but two
        # members of one kind are read here too (a clause split from its sentence may
        # hide the member from kinds.py: "…, and only with a line manager's approval"),
        # and so is a member put for a term no kind lists ("compliance officer" for
        # "senior management"), which kinds.py cannot compare
        return False
    cjk = [mine.cjk[a] for a in said] + [theirs.cjk[a] for a in written]
    if all(cjk):
        if len(said) < 2 or len(written) < 2 or set(said_text) & set(written_text) - {" "}:
            return False
        for term in _terms(said, mine):
            pairs = [term[i : i + 2] for i in range(len(term) - 1)]
            if not pairs:
                # one character of a term whose other is the sentence's (本地 for 异地):
                # the pairs it makes with its neighbours in the claim
                at = next(a for a in said if mine.atoms[a] == term)
                pairs = _pairs_around(at, mine)
            if not pairs or any(contexts.has(p) for p in pairs):
                return False
        first, last = min(said), max(said)
        before = (
            mine.atoms[first - 1]
            if first > 0 and mine.clause[first - 1] == mine.clause[first]
            else ""
        )
        after = "".join(mine.atoms[last + 1 : last + 4]) if last + 1 < len(mine.atoms) else ""
        if _CJK_FUNCTION.search(said_text) is not None:
            return False  # 原因是 for 主要得益于, 全部 for 所有: a connective or quantifier
        if _CJK_ROLE_END.match(after) is not None:
            return True  # 审计委员会 for 薪酬委员会: the role word kept, its head exchanged
        if before in _CJK_SLOT and len(written) >= 2:
            # 保存在本地机房 for 保存在异地灾备中心, 以纸质方式 for 以电子方式: where or how,
            # after its preposition, in words the contexts never write
            return True
        return before in _CJK_AGENT or (not before and after[:1] in _CJK_NAME_NEXT)
    if any(cjk):
        return False
    if any(contexts.has(mine.atoms[a]) for a in said):
        return False
    named = _named(said, mine)
    if named != _named(written, theirs):
        return False  # "The X200" for "The device": a name for what the sentence describes
    if named:
        return True
    return (_role(said, mine) or _agent(said, mine)) and _role(written, theirs)


def _agent(atoms: list[int], side: _Side) -> bool:
    """Whether a place ends in a noun that names a person by what they do (the
    ``ombudsman``, an ``actuary``, a ``pharmacist``) put for a role the sentence names."""
    word = side.atoms[max(atoms)]
    return len(word) > 5 and word.endswith(("man", "men", "person", "ist", "ary", "ee"))


def _role(atoms: list[int], side: _Side) -> bool:
    """Whether a place names a role or body: a word of it is a role noun (``the head of
    finance``), or the word right after it is (``audit`` of ``the audit committee``)."""
    last = max(atoms)
    if any(side.atoms[a] in _ROLE_NOUNS for a in atoms):
        return True  # "the head of finance", "the budget holder"
    return (
        _weight(atoms, side) <= 1
        and last + 1 < len(side.atoms)
        and side.atoms[last + 1] in _ROLE_NOUNS
    )


def _anchored(said: list[int], places: list[_Place], mine: _Side) -> bool:
    """Whether the claim's clause around the exchanged words also holds words the sentence
    has (a table cell of its own, ``| 利率风险 |``, is a label, not an exchanged word)."""
    clauses = {mine.clause[a] for a in said}
    differing = {a for p in places for a in p.claim}
    kept = [
        a
        for a in range(len(mine.atoms))
        if mine.clause[a] in clauses and a not in differing and _is_content(a, mine)
    ]
    return _weight(kept, mine) >= 1


# A generic referring phrase: a determiner and a head noun naming the kind of thing the
# question is about ("this policy", "the product", 本产品, 该保单, 本计划). It stands for the
# thing's name, so it is no term exchanged for that name; two names still are.
_REFERRING_EN = re.compile(
    r"(?:this|that|the|said|our|your|its)\s+(?:products?|polic(?:y|ies)|plans?|funds?|cards?|"
    r"schemes?|contracts?|accounts?|loans?|cover|coverage|insurance|programm?e?s?|services?|"
    r"packages?|offerings?|devices?|company|group|bank|firm|tool|app|model)"
)
_REFERRING_ZH = re.compile(
    r"[本该此这][款项份张只个类]?(?:产品|保单|保险|险种|计划|基金|卡|账户|合同|贷款|方案|服务|"
    r"套餐|项目|设备|型号|公司|集团|银行)"
)
_DETERMINERS = frozenset(["this", "that", "the", "said", "our", "your", "its"])


def _answer_refers(
    said: list[int], written: list[int], mine: _Side, theirs: _Side, label: str
) -> bool:
    """Whether the answer's side of an exchange is a generic referring phrase and the
    other side's is not: the answer says "this policy" (本产品) where the contexts or the
    reference name it. Only the answer's: a name the answer puts for the contexts' "this
    product" is still compared (answer_accuracy: the sentence is the answer's)."""
    if label == "the answer":
        return _refers(written, theirs) and not _refers(said, mine)
    return _refers(said, mine) and not _refers(written, theirs)


def _refers(atoms: list[int], side: _Side) -> bool:
    """Whether the words at ``atoms`` are a generic referring phrase (``_REFERRING_*``),
    read on to the head noun after a bare determiner ("this" of "this plan", 本 of 本产品)."""
    if not atoms:
        return False
    first, last = min(atoms), max(atoms)
    if side.cjk[first]:
        text = "".join(side.atoms[first : min(last + 4, len(side.atoms))])
        found = _REFERRING_ZH.match(text)
        return found is not None and found.end() >= last - first + 1
    words = side.atoms[first : last + 1]
    if words[-1] in _DETERMINERS and last + 1 < len(side.atoms):
        words = [*words, side.atoms[last + 1]]
    return _REFERRING_EN.fullmatch(" ".join(words)) is not None


def _named(atoms: list[int], side: _Side) -> bool:
    """Whether a place names something: an acronym or a word with digits, or a
    capitalised word that does not open its clause."""
    for a in atoms:
        word = side.shown[a]
        if side.cjk[a]:
            continue
        if sum(ch.isupper() or ch.isdigit() for ch in word) > 1:
            return True  # ACME, FY2025, X200 wherever they stand
        if not side.opens[a] and any(ch.isupper() for ch in word):
            return True
    return False


def _initials(a: str, b: str) -> bool:
    """Whether one writing is the initials of the other (HK, Hong Kong)."""
    for short, long in ((a, b), (b, a)):
        words = long.split()
        if (
            len(words) > 1
            and short.replace(".", "").lower() == "".join(w[0] for w in words).lower()
        ):
            return True
    return False


def _pairs_around(at: int, side: _Side) -> list[str]:
    out = []
    char = side.atoms[at]
    if at > 0 and side.run[at - 1] == side.run[at]:
        out.append(side.atoms[at - 1] + char)
    if at + 1 < len(side.atoms) and side.run[at + 1] == side.run[at]:
        out.append(char + side.atoms[at + 1])
    return out


def _moved(
    n: int,
    swapped: list[_Place],
    exchanged: list[tuple[list[int], list[int]]],
    mine: _Side,
    theirs: _Side,
) -> bool:
    """Whether the sentence's words at this place are still in the claim, somewhere else:
    the claim says the same in another order ("in capital cities … elsewhere" for "…
    in capital cities and … elsewhere"), unless two terms changed places between two
    slots (香港银保…内地代理 for 香港代理…内地银保) with more than a conjunction between them
    ("administrators and owners" lists the same two)."""
    said, written = exchanged[n]
    wanted = {_key_of(a, theirs) for a in written}
    inside = set(swapped[n].claim)
    elsewhere = {_key_of(a, mine) for a in range(len(mine.atoms)) if a not in inside}
    if len(wanted - elsewhere) > (len(wanted) - 1) // 2:
        return False  # (one stray character of three may stay behind: 2025年香港 → 香港)
    mine_keys = {_key_of(a, mine) for a in said}
    for m, (other_said, other_written) in enumerate(exchanged):
        if m == n:
            continue
        if {_key_of(a, mine) for a in other_said} != wanted:
            continue
        if {_key_of(a, theirs) for a in other_written} != mine_keys:
            continue
        lo, hi = sorted((swapped[n].claim, swapped[m].claim))
        between = range(max(lo) + 1, min(hi))
        # More than a conjunction between them: a two-slot swap; else a list reordered.
        # Numbers that changed places with the terms went with them: the same facts in
        # another order ("Orion 260 …, Zenith 410" for "Zenith 410 …, Orion 260").
        return _numbers_moved(mine, theirs) or not any(
            _is_content(a, mine) and mine.atoms[a] not in _CJK_ALTERNATIVE for a in between
        )
    return True


def _is_number(word: str) -> bool:
    return word[:1].isdigit() and _DIGITS.fullmatch(word) is not None


_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")


def _numbers_exchanged(places: list[_Place], mine: _Side, theirs: _Side, label: str) -> str | None:
    """Two numbers exchanged between two slots, every other word in its place ("Europe
    contributed 27% and Asia 38%" against "Europe contributed 38% and Asia 27%", 2025年…6.5亿
    元，2026年…5亿元 against 2025年…5亿元，2026年…6.5亿元): each number is in the contexts, but
    given to the other slot. When other words were exchanged too, the numbers may have moved
    with them (the same facts in another order), and this is not read."""
    singles: list[tuple[str, str]] = []
    for place in places:
        if not place.claim or not place.sentence:
            continue
        said = [mine.atoms[a] for a in place.claim if not mine.cjk[a] and _is_number(mine.atoms[a])]
        written = [
            theirs.atoms[a]
            for a in place.sentence
            if not theirs.cjk[a] and _is_number(theirs.atoms[a])
        ]
        words = {_key_of(a, theirs) for a in place.sentence}
        if any(_key_of(a, mine) not in words for a in place.claim if mine.atoms[a] not in said):
            return None  # words exchanged too: the numbers may have moved with them
        if len(said) == 1 and len(written) == 1:
            singles.append((said[0], written[0]))
    for n, (x, y) in enumerate(singles):
        if x != y and (y, x) in singles[n + 1 :]:
            return f"gives {x} and {y} the other way round from {label}"
    return None


def _numbers_moved(mine: _Side, theirs: _Side) -> bool:
    """Whether the claim has the numbers it shares with the sentence in another order."""
    ours = [w for w, cjk in zip(mine.atoms, mine.cjk, strict=True) if not cjk and _is_number(w)]
    others = [
        w for w, cjk in zip(theirs.atoms, theirs.cjk, strict=True) if not cjk and _is_number(w)
    ]
    ours = [w for w in ours if w in others]
    others = [w for w in others if w in ours]
    return ours != others and sorted(ours) == sorted(others)


def _only_problem(places: list[_Place], mine: _Side, theirs: _Side, label: str) -> str | None:
    """``only`` (只能, 仅) where the sentence offers alternatives the claim leaves out."""
    said = {mine.atoms[a] for p in places for a in p.claim}
    claim_text = "".join(mine.atoms[a] for p in places for a in p.claim if mine.cjk[a])
    if said.isdisjoint(_ONLY) and _CJK_ONLY.search(claim_text) is None:
        return None
    if not {theirs.atoms[a] for p in places for a in p.sentence}.isdisjoint(_ONLY):
        return None  # the sentence's own "only"
    # "only after the spill has been cleaned": a condition, whose clauses are read elsewhere
    conditional = _ONLY_CONDITION.search(" ".join(mine.atoms)) is not None
    for place in places:
        kept = {mine.atoms[a] for a in place.claim}
        dropped = [theirs.atoms[a] for a in place.sentence if theirs.atoms[a] not in kept]
        said_only = all(
            mine.atoms[a] in _ONLY or _CJK_ONLY.fullmatch(mine.atoms[a]) for a in place.claim
        )
        if not place.interior and (
            conditional
            or ((place.claim or place.leading) and not (place.claim and said_only))
            or not _ONLY_ITEMS.isdisjoint(dropped)
        ):
            # only a list's last items left out at the end ("MFA is mandatory only for
            # administrator accounts" where the list goes on "and finance and HR
            # systems"), or where the claim put its "only" (仅会员 for 会员及其家属均); not a
            # clause of its own ("and cannot be paid in cash")
            continue
        if any(w in _ALTERNATIVE or w in _CJK_ALTERNATIVE for w in dropped):
            return f"says only one of the alternatives {label} give ({' '.join(_terms(place.sentence, theirs))!r} left out)"
    return None


def _compared_problem(claim: str, sentence: str, label: str) -> str | None:
    """The same comparison in both, with the terms on its two sides exchanged."""
    if _COMPARED.search(claim) is None:
        return None
    for m in _COMPARED.finditer(claim):
        word = m.group().lower()
        found = [s for s in _COMPARED.finditer(sentence) if s.group().lower() == word]
        if len(found) != 1:
            continue
        s = found[0]
        left_c, right_c = _around(claim, m.start(), m.end())
        left_s, right_s = _around(sentence, s.start(), s.end())
        moved_right = (left_c & right_s) - left_s - right_c
        moved_left = (right_c & left_s) - right_s - left_c
        if moved_right and moved_left:
            return f"exchanges the two sides of {m.group()!r} in {label}"
    return None


def _around(text: str, start: int, end: int) -> tuple[set[str], set[str]]:
    """The content units (words, Chinese character pairs) of the clause before a
    comparison word and of the clause after it."""
    before = _CLAUSE_BREAK.split(text[:start])[-1]
    after = _CLAUSE_BREAK.split(text[end:])[0]
    return _keys(before), _keys(after)


def _keys(text: str) -> set[str]:
    side = _side(text)
    out: set[str] = set()
    for unit in side.units:
        atom = unit.atoms[0]
        if (side.cjk[atom] and len(unit.atoms) == 2) or (
            not side.cjk[atom] and unit.key not in STOPWORDS and not unit.key[:1].isdigit()
        ):
            out.add(unit.key)
    return out

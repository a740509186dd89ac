"""Binding: a claim's facts must hold together in one place of the contexts.

Words and numbers pooled over all contexts let a claim borrow its number from one
sentence and its subject from another: with "Hong Kong revenue grew 8%" in one passage and
"Singapore operating profit fell 3%" in another, "Hong Kong operating profit fell 3%" has
every word and number somewhere. Two rules judge each clause of a claim against one
context clause or sentence instead of the pool (a multi-passage summary passes: each of its
clauses is found in its own passage):

1. **A number stays with its words.** Each number of a claim clause must stand in a context
   sentence that shares at least half as many of the clause's words as the sentence the
   clause matches best: "新增3家分行" is not supported by a "3" in "等待期为三个月".
2. **No swapped kind.** The context clause a claim clause matches (the one holding its
   numbers, else the one sharing most words) must not name another thing of the same kind
   where the claim names one: a place (Hong Kong, 香港 against Singapore, 新加坡), a sales
   channel (agency, 代理人 against bancassurance, 银保), a reported figure (revenue, 收入
   against profit, 利润), or, in English, a proper name the claim's passage does not have
   (the Monetary Authority where it says the Insurance Authority). A place named once in
   a sentence holds for all its clauses ("In Hong Kong, profit fell 3%").

Everything about a context text is prepared once per distinct text (cached).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from .bounds import bounded
from .claims import STOPWORDS
from .fastalt import grouped_scanner, matches
from .numerals import number_forms, numbers_with_units

__all__ = ["KIND_CUES", "binding_problem", "may_name_a_kind", "same_thing"]

# Clauses, as the polarity rule cuts them (judge._CLAUSE).
_CLAUSE = re.compile(
    r"[，；：]|[,;:]\s+|\s+(?:and|but|while|whereas|however|although|though)\s+|但是|然而|但",
    re.IGNORECASE,
)
_STOP = STOPWORDS | frozenset(
    ["not", "no", "never", "without", "nor", "neither", "none", "nobody", "nothing", "cannot", "t"]
)

# Kinds of things a claim names, each a set of groups written several ways. Words of one
# group are the same thing (revenue = sales = 收入); two groups of one kind are not.
_KIND_GROUPS: dict[str, dict[str, str]] = {
    "place": {
        "Hong Kong": r"hong\s?kong|香港",
        "Singapore": r"singapore|新加坡",
        "Greater China": r"greater china|大中华",
        "Mainland China": r"mainland(?: china)?|chinese mainland|china|中国内地|内地|中国大陆|大陆",
        "Macau": r"maca[uo]|澳门",
        "Taiwan": r"taiwan|台湾",
        "Malaysia": r"malaysia|马来西亚",
        "Thailand": r"thailand|泰国",
        "Indonesia": r"indonesia|印度尼西亚|印尼",
        "Vietnam": r"viet\s?nam|越南",
        "Philippines": r"philippines|菲律宾",
        "Japan": r"japan|日本",
        "Korea": r"(?:south )?korea|韩国",
        "India": r"india|印度(?!尼)",
        "United States": r"united states|america|美国",
        "United Kingdom": r"united kingdom|britain|英国",
        "Europe": r"europe|european union|欧洲|欧盟",
        "Asia": r"asia(?:n)?(?![- ]pacific)|亚洲",
        "Africa": r"africa|非洲",
        "Latin America": r"latin america|拉丁美洲|拉美",
        "Middle East": r"middle east|中东",
        "Australia": r"australia|澳大利亚|澳洲",
        "Beijing": r"beijing|北京",
        "Shanghai": r"shanghai|上海",
        "Shenzhen": r"shenzhen|深圳",
        "Guangzhou": r"guangzhou|广州",
        "London": r"london|伦敦",
        "New York": r"new york|纽约",
        "Tokyo": r"tokyo|东京",
        # The whole group is a scope of its own: "ACME Group revenue" is not "ACME HK
        # revenue" (in English only capitalised, below: "a group of staff" names none).
        "Group": r"集团",
    },
    "channel": {
        "agency": r"agency|agents?|tied agents?|代理人|个人代理|代理渠道",
        "bancassurance": r"bancassurance|banca|bank channel|银保|银行保险",
        "broker": r"brokers?|brokerage|ifas?|independent financial advis[eo]rs?|经纪人?",
        "direct": r"direct (?:channel|marketing|sales)|direct-to-consumer|直销|直接销售",
        "digital": r"digital(?: channel)?|online channel|线上渠道|数字渠道|网上渠道|线上|数字化渠道",
    },
    "employment": {
        "full-time": r"full[- ]?time|全职",
        "part-time": r"part[- ]?time|兼职",
        "contract": r"contract (?:staff|workers?|employees?)|contractors?|合同工|合同制员工",
        "temporary": r"temporary (?:staff|workers?|employees?)|临时工|临时员工",
        "intern": r"interns?|实习生",
    },
    "figure": {
        "revenue": r"revenues?|sales|turnover|top[ -]line|营业收入|收入|营收|营业额|销售额",
        "profit": r"profits?|earnings|net income|operating income|利润|盈利|溢利|净利|纯利",
        "premium": r"premiums?|gross written premiums?|gwp|保费",
        "new business value": r"new business value|value of new business|vonb|nbv|新业务价值",
        "APE": r"ape|annuali[sz]ed premium equivalent|年化新保费|年化保费",
        "margin": r"margins?|利润率|利润margin",
        "dividend": r"dividends?|股息|派息",
        "cost": r"costs?|expenses?|成本|开支|费用",
        "solvency": r"solvency(?: ratio)?|偿付能力",
        "return on equity": r"return on equity|股本回报率|净资产收益率|权益回报率",
        "return on assets": r"return on assets|资产回报率|总资产收益率",
        "embedded value": r"embedded value|内含价值",
        "combined ratio": r"combined ratio|综合成本率",
    },
}
# Acronyms are read case-sensitively ("US", never "us").
_ACRONYMS: dict[str, dict[str, str]] = {
    "place": {
        "Hong Kong": r"HK(?!\$)|HKSAR",
        "Group": r"Group",
        "Mainland China": r"PRC",
        "United States": r"US(?!\$)|USA|U\.S\.",
        "United Kingdom": r"UK",
        "Europe": r"EU",
    },
    "figure": {
        "return on equity": r"ROE",
        "return on assets": r"ROA",
        "embedded value": r"EV",
    },
}


def _alternation(groups: dict[str, dict[str, str]]) -> tuple[str, dict[str, tuple[str, str]]]:
    parts: list[str] = []
    names: dict[str, tuple[str, str]] = {}
    for kind, members in groups.items():
        for i, (group, pattern) in enumerate(members.items()):
            key = f"{kind[0]}{i}"
            names[key] = (kind, group)
            parts.append(f"(?P<{key}>{pattern})")
    return "|".join(parts), names


_WORDS_BODY, _WORD_GROUPS = _alternation(_KIND_GROUPS)
# No word boundary in the pattern: "新加坡ROE" is Singapore before ROE. An English word is
# checked for its boundaries where it is found ("ape" in "shape" is no APE).
_KIND_WORDS = re.compile(rf"(?:{_WORDS_BODY})", re.IGNORECASE)
# The same words grouped by first letter, for lower-cased text (fastalt: ~12x faster).
_KIND_SCAN = grouped_scanner([p for members in _KIND_GROUPS.values() for p in members.values()])
_ACRONYM_BODY, _ACRONYM_GROUPS = _alternation(_ACRONYMS)
_KIND_ACRONYMS = re.compile(rf"(?<![A-Za-z])(?:{_ACRONYM_BODY})(?![A-Za-z])")
_GROUP_OF = {f"w{k}": v for k, v in _WORD_GROUPS.items()} | {
    f"a{k}": v for k, v in _ACRONYM_GROUPS.items()
}

Kinds = dict[str, frozenset[str]]
_NO_KINDS: Kinds = {}


@lru_cache(maxsize=8192)
def _kinds(text: str) -> Kinds:
    """The groups of each kind that ``text`` names (kept per distinct text)."""
    if text.isascii() and not may_name_a_kind(_LETTERS.findall(text.lower())):
        return _NO_KINDS  # no word starts as a writing of a kind does
    found: dict[str, set[str]] = {}
    for pattern, prefix in ((_KIND_WORDS, "w"), (_KIND_ACRONYMS, "a")):
        found_here = (
            matches(_KIND_WORDS, _KIND_SCAN, text)
            if pattern is _KIND_WORDS
            else pattern.finditer(text)
        )
        for m in found_here:
            start, end = m.span()
            if m.group()[0].isascii() and (
                (start and text[start - 1].isascii() and text[start - 1].isalpha())
                or (end < len(text) and text[end].isascii() and text[end].isalpha())
            ):
                continue
            if m.lastgroup:
                kind, group = _GROUP_OF[prefix + m.lastgroup]
                found.setdefault(kind, set()).add(group)
    return {k: frozenset(v) for k, v in found.items()} if found else _NO_KINDS


def written_places(text: str) -> list[str]:
    """The places ``text`` names, as written there, in order (no group scope)."""
    kinds = _kinds(text)
    if not kinds.get("place", frozenset()) - _GROUP_SCOPE_NAMES:
        return []
    out: list[str] = []
    for pattern, prefix in ((_KIND_WORDS, "w"), (_KIND_ACRONYMS, "a")):
        for m in pattern.finditer(text):
            kind, group = _GROUP_OF[prefix + m.lastgroup] if m.lastgroup else ("", "")
            start, end = m.span()
            if m.group()[0].isascii() and (
                (start and text[start - 1].isascii() and text[start - 1].isalpha())
                or (end < len(text) and text[end].isascii() and text[end].isalpha())
            ):
                continue  # inside a word ("HKD", "Chinatown")
            if kind == "place" and group not in _GROUP_SCOPE_NAMES:
                out.append(m.group())
    return out


def names_a_place(text: str) -> bool:
    """Whether ``text`` names a place or the group (a scope of its own)."""
    return "place" in _kinds(text)


_GROUP_SCOPE_NAMES = frozenset(["Group"])


# English proper names: a capitalised word (or an acronym) that is not the first word of
# its sentence, a month, a day, a function word or a job title.
_CAPITALISED = re.compile(r"(?<![A-Za-z0-9_])([A-Z][A-Za-z]+|[A-Z]{2,})(?![A-Za-z0-9_])")
_SENTENCE_START = frozenset(".!?:;-*•>#|")  # a table cell starts as a sentence does
_NOT_NAMES_TEXT = """
    january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday i the a an and or of in on at
    for to by with from as is are was were ceo cfo coo cto cio chief executive officer
    chairman chair president director directors board manager managers head group company
    fy ytd yoy hoh qoq usd hkd rmb cny eur gbp sgd jpy aud cad chf bn mn
"""
_NOT_NAMES = frozenset(_NOT_NAMES_TEXT.split())


def _names(
    text: str, lowered: frozenset[str], known: frozenset[str] = frozenset()
) -> frozenset[str]:
    """Proper names of ``text``: capitalised words whose lower-case form the text never
    writes in lower case ("Agency" in a text that also says "agency" is a word). The first
    word of a sentence is a name only when it is one of ``known`` (the contexts' names)."""
    out = set(_org_cores(text)) if not text.isascii() else set()
    if not any("A" <= ch <= "Z" for ch in text):
        return frozenset(out)
    for m in _CAPITALISED.finditer(text):
        before = text[: m.start()].rstrip()
        word = m.group(1).lower()
        if (
            (not before or before[-1] in _SENTENCE_START)
            and word not in known
            and not _names_at_start(m, text, word)
        ):
            continue  # the first word of a sentence is capitalised whatever it is
        if word not in _NOT_NAMES and word not in lowered and not word.isdigit():
            out.add(word)
    return frozenset(out - _kind_words())


# Words that open a sentence before a capitalised word without being a name ("Under IFRS
# 17, …", "Since RBC took effect, …").
_OPENERS_TEXT = """
    under during since after before while although though because if unless following
    despite including excluding between among across within overall total both each all
    some most many new only as at
"""
_OPENERS = STOPWORDS | frozenset(_OPENERS_TEXT.split())
_NEXT_CAPITALISED = re.compile(r"\s[A-Z]")


def _names_at_start(m: re.Match[str], text: str, word: str) -> bool:
    """Whether the first word of a sentence is a name all the same: an acronym ("ACME HK
    revenue …") or the first of several capitalised words ("Zenith Life HK reported …",
    "Prudential Assurance Company …")."""
    if word in _NOT_NAMES:
        return False
    if m.group(1).isupper():
        return True
    return word not in _OPENERS and _NEXT_CAPITALISED.match(text, m.end()) is not None


# Chinese organisations by what they are (…监管局, …银行, …人寿): a name is its last two
# characters and that word (金融管理局 → 管理局), so 保险业监管局 and 监管局 are one name.
_CJK_ORG = re.compile(
    r"([\u4e00-\u9fff]{2})(监管局|管理局|委员会|交易所|银行|公司|集团|人寿|控股"
    r"|(?<![格布结当大出开])局|(?<![签部])署)"
)


def _org_cores(text: str) -> list[str]:
    return [m.group(1) + m.group(2) for m in _CJK_ORG.finditer(text)]


def _org_pairs(text: str) -> frozenset[str]:
    """The character pairs inside the organisation names of ``text``."""
    return frozenset(core[i : i + 2] for core in _org_cores(text) for i in range(len(core) - 1))


def _kind_words() -> frozenset[str]:
    return _KIND_NAME_WORDS


def _words_of_kinds() -> frozenset[str]:
    """Every letter run of the kinds' English writings, lower case (revenues? → revenues,
    revenue)."""
    words: set[str] = set()
    for groups in (_KIND_GROUPS, _ACRONYMS):
        for members in groups.values():
            for pattern in members.values():
                for w in re.findall(r"[A-Za-z]+", pattern):
                    words.update((w.lower(), w.lower().rstrip("s")))
    return frozenset(w for w in words if len(w) > 1)


_TOKEN = re.compile(r"[A-Za-z0-9]+|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LETTERS = re.compile(r"[a-z]+")
_KIND_NAME_WORDS = _words_of_kinds()
# The first four letters of every English writing of a kind: a text none of whose words
# starts so names no kind (a set look-up before the scan).
KIND_CUES = frozenset(w[:4] for w in _KIND_NAME_WORDS)


def may_name_a_kind(words: Iterable[str]) -> bool:
    """Whether lower-case ``words`` may hold an English writing of a kind."""
    return not KIND_CUES.isdisjoint(w[:4] for w in words)


_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")


def units(text: str, stop: frozenset[str]) -> frozenset[str]:
    """What a clause is compared by: its ASCII content words and its CJK character pairs."""
    out = {t for t in _TOKEN.findall(text.lower()) if t.isascii() and not t.isdigit()} - stop
    if not text.isascii():
        out.update(run[i : i + 2] for run in _CJK_RUN.findall(text) for i in range(len(run) - 1))
    return frozenset(out)


@dataclass(frozen=True, slots=True)
class _Fact:
    """One clause of a context text: its units, numbers, kinds, names, and its sentence."""

    units: frozenset[str]
    numbers: frozenset[Decimal]
    kinds: Kinds
    names: frozenset[str]
    sentence: int


@dataclass(frozen=True, slots=True)
class _Text:
    facts: tuple[_Fact, ...]
    sentence_units: tuple[frozenset[str], ...]
    sentence_numbers: tuple[frozenset[Decimal], ...]
    # A list's lead-in with its items ("三大重点是：1. … 2. … 3. …"): the lead-in's
    # number counts the items, so it is placed among the words of the whole list.
    block_units: tuple[frozenset[str], ...]
    names: frozenset[str]  # every proper name of the text (a claim's name must be here)
    # What each number counts (the words after it), and which numbers count each word.
    counts: dict[Decimal, frozenset[str]]
    counted: dict[str, frozenset[Decimal]]


def _numbers(text: str) -> frozenset[Decimal]:
    return frozenset(number_forms(text, _TOKEN.findall(text.lower())))


@lru_cache(maxsize=1024)
def _prepared(text: str, sentences: tuple[str, ...]) -> _Text:
    clause, stop, numbers = _CLAUSE, _STOP, _numbers
    facts: list[_Fact] = []
    s_units: list[frozenset[str]] = []
    s_numbers: list[frozenset[Decimal]] = []
    lowered = frozenset(w for w in _TOKEN.findall(text) if w.islower())
    all_names: set[str] = set()
    scene: frozenset[str] = frozenset()  # the place of a sentence that goes on after ";"
    section: frozenset[str] = frozenset()  # the place a heading names ("## 香港业务")
    for i, sentence in enumerate(sentences):
        s_units.append(units(sentence, stop))
        # A list marker ("3. 加快数字化") numbers the list: no number bound to words.
        s_numbers.append(numbers(_LIST_MARKER.sub("", sentence, count=1)))
        sentence_kinds = _kinds(sentence)
        sentence_names = _names(sentence, lowered)
        all_names |= sentence_names
        heading = _HEADING.match(sentence)
        if heading is not None:  # "## 香港业务", "Hong Kong and Macau: NBV rose 15%."
            section = _kinds(heading.group()).get("place", frozenset())
        places = sentence_kinds.get("place", scene or section)
        # "Singapore: revenue of USD 410 million; new business value of USD 95 million."
        scene = places if sentence.rstrip().endswith((";", "；")) else frozenset()
        for piece in clause.split(sentence):
            if not piece or piece.isspace():
                continue
            kinds = _kinds(piece) if sentence_kinds else _NO_KINDS
            if "place" not in kinds and places:
                # "In Hong Kong, profit fell 3%.", "Hong Kong and Macau: NBV rose 15%."
                kinds = {**kinds, "place": places}
            channels = sentence_kinds.get("channel", frozenset())
            if "channel" not in kinds and len(channels) == 1:
                # "… driven by the agency channel, which contributed 62% of NBV."
                kinds = {**kinds, "channel": channels}
            facts.append(
                _Fact(
                    units(piece, stop),
                    numbers(piece) if s_numbers[-1] else frozenset(),
                    kinds,
                    _names(piece, lowered) if sentence_names else frozenset(),
                    i,
                )
            )
    counts: dict[Decimal, set[str]] = {}
    counted: dict[str, set[Decimal]] = {}
    if any(s_numbers):
        for forms, words in numbers_with_units(text):
            for form in forms:
                counts.setdefault(form, set()).update(w for w in words if w)
            if words[0]:
                counted.setdefault(words[0], set()).update(forms)
    return _Text(
        tuple(facts),
        tuple(s_units),
        tuple(s_numbers),
        _list_blocks(sentences, s_units),
        frozenset(all_names),
        {k: frozenset(v) for k, v in counts.items()},
        {k: frozenset(v) for k, v in counted.items()},
    )


_BARE_MARKER = re.compile(r"^\s*(?:[-*•]|\(?\d{1,2}[.)、）]|[①-⑳])\s*$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*•]\s|\(?\d{1,2}[.)、）](?!\d)|[①-⑳])")


def _list_blocks(
    sentences: tuple[str, ...], s_units: list[frozenset[str]]
) -> tuple[frozenset[str], ...]:
    """Each sentence's words; a lead-in ending in a colon takes its list items' words too
    (items start with a marker, or follow a marker the sentence cutter split off)."""
    blocks = list(s_units)
    for i, sentence in enumerate(sentences):
        if not sentence.rstrip().endswith((":", "：")):
            continue
        words, j, after_marker = set(s_units[i]), i + 1, False
        while j < len(sentences):
            item = sentences[j]
            bare = _BARE_MARKER.match(item) is not None
            if not (bare or after_marker or _LIST_ITEM.match(item)):
                break
            words |= s_units[j]
            after_marker, j = bare, j + 1
        if j > i + 1:
            blocks[i] = frozenset(words)
    return tuple(blocks)


_SAME_FACT = 0.8  # share of a clause's words its context clause has when only a name differs


def binding_problem(
    claim: str,
    claim_numbers: Callable[[str], list[tuple[str, frozenset[Decimal]]]],
    passages: Sequence[tuple[str, tuple[str, ...]]],
    match: Callable[[str], str | None],
    label: str,
) -> str | None:
    """Why ``claim`` is not supported by one place of the contexts (module docstring).

    ``passages``: (text, its sentences) per context; ``claim_numbers``: a clause's numbers
    as (written, forms); ``match``: a claim word as the contexts write it (an
    inflection), or None.
    """
    clause, stop = _CLAUSE, _STOP
    texts = [_prepared(text, sentences) for text, sentences in passages]
    claim_kinds = _kinds(claim)
    before: frozenset[str] = frozenset()  # the place an earlier clause of the claim named
    known = frozenset().union(*(t.names for t in texts)) if texts else frozenset()
    lowered = frozenset(w for w in _TOKEN.findall(claim) if w.islower())
    earlier: frozenset[str] = frozenset()  # the units of the claim's clauses so far
    # (faithfulness only: an answer read as answer_accuracy's context is one text whose
    # clauses a terse reference sentence may join in any order)
    contexts_side = label == "the contexts"
    for piece in clause.split(claim):
        if not piece or piece.isspace():
            continue
        piece_units = frozenset(match(u) or u for u in units(piece, stop))
        if len(piece_units) < 2:
            if claim_kinds and "place" in (said := _kinds(piece)):
                before = said["place"]  # "香港：新业务价值为…": the place for what follows
            continue
        found = _bound(piece, claim_numbers(piece))
        problem = _number_elsewhere(piece_units, found, texts, label)
        if problem is None and found and earlier and not piece.isascii() and contexts_side:
            problem = _subject_elsewhere(piece_units, earlier, found, texts, label)
        if problem is not None and _said_together(claim, claim_numbers, passages):
            problem = None
        earlier = earlier | piece_units
        if problem is None and found:
            problem = _counts_another_thing(piece, texts, label)
        if problem is not None:
            return problem
        kinds = _kinds(piece) if claim_kinds else _NO_KINDS
        if "place" in kinds:
            before = kinds["place"]
        elif before:  # "In Hong Kong, operating profit fell 3%": the place said before
            kinds = {**kinds, "place": before}
        names = _names(piece, lowered, known)
        if kinds or names:
            rest = piece_units - names
            if not piece.isascii() and names:
                rest = rest - _org_pairs(piece)
            problem = _swapped(piece_units, rest, found, kinds, names, texts, label)
            if problem is not None:
                return problem
    if len(claim_kinds.get("place", ())) > 1 or len(_NAME_RUN.findall(claim)) > 1:
        return _slots_swapped(claim, passages, known, label)
    return None


# Slots: in a sentence that names two things of one kind (two places, two companies), what
# each one is said to have (a channel, a figure, a number) is bound to it. "内地代理渠道…及
# 香港银保渠道" against "香港代理渠道…及内地银保渠道", or two companies' revenues swapped,
# keeps every word and number of the context sentence and must fail all the same.
_SEGMENT = re.compile(
    r"[，；：、。!?！？]|[,;:.]\s+|\s+(?:and|but|while|whereas|however|although|though|as well"
    r" as|compared with|versus|vs\.?)\s+|以及|及|和|与|而|但是|但|然而|相比|对比",
    re.IGNORECASE,
)
_NAME_RUN = re.compile(r"(?<![A-Za-z0-9_])[A-Z][A-Za-z]+(?:\s+[A-Z][A-Za-z]+)*")
_PERIOD_LIKE = re.compile(r"(?:19|20)\d\d|[A-Za-z_]+\d+|\d+[A-Za-z_]+(?![a-z])")
_OBJECT_KINDS = ("channel",)  # a figure is often said once for both ("revenue of …, while …")

Slot = tuple[str, str]  # (kind, what): ("place", "Hong Kong"), ("number", "2050")


def _slot_pairs(
    text: str, lowered: frozenset[str], known: frozenset[str]
) -> tuple[set[tuple[Slot, Slot]], set[Slot]]:
    """(subject, object) pairs of ``text``'s segments that name exactly one subject of a
    kind (one place; one run of capitalised names), and every subject named."""
    pairs: set[tuple[Slot, Slot]] = set()
    subjects: set[Slot] = set()
    for segment in _SEGMENT.split(text):
        if not segment or segment.isspace():
            continue
        kinds = _kinds(segment)
        subject: list[Slot] = []
        places = kinds.get("place", frozenset())
        if len(places) > 1:  # "集团收入增长主要受内地代理渠道…": the place is the subject
            places -= _GROUP_SCOPE
        if len(places) == 1:
            subject.append(("place", next(iter(places))))
        if any("A" <= ch <= "Z" for ch in segment):
            names = _names(segment, lowered, known)
            runs = [
                frozenset(w.lower() for w in run.split()) & names
                for run in _NAME_RUN.findall(segment)
            ]
            runs = [r for r in runs if r]
            if len(runs) == 1:
                subject.extend(("name", n) for n in runs[0])
        if not subject:
            continue
        subjects.update(subject)
        objects: list[Slot] = [
            (kind, group) for kind in _OBJECT_KINDS for group in kinds.get(kind, ())
        ]
        objects.extend(
            ("number", format(n.normalize(), "f")) for n in _numbers(_PERIOD_LIKE.sub(" ", segment))
        )
        pairs.update((s, o) for s in subject for o in objects)
    return pairs, subjects


def _slots_swapped(
    claim: str, passages: Sequence[tuple[str, tuple[str, ...]]], known: frozenset[str], label: str
) -> str | None:
    """A thing the claim gives to one subject where the context sentence naming both
    subjects gives it to the other ("Slots" above)."""
    lowered = frozenset(w for w in _TOKEN.findall(claim) if w.islower())
    ours, our_subjects = _slot_pairs(claim, lowered, known)
    if len(our_subjects) < 2 or not ours:
        return None
    theirs: set[tuple[Slot, Slot]] = set()
    their_subjects: set[Slot] = set()
    for text, sentences in passages:
        text_lowered = frozenset(w for w in _TOKEN.findall(text) if w.islower())
        for sentence in sentences:
            pairs, subjects = _slot_pairs(sentence, text_lowered, known)
            if len(subjects & our_subjects) >= 2:
                theirs |= pairs
                their_subjects |= subjects
    if not theirs:
        return None
    for subject, thing in sorted(ours):
        if (subject, thing) in theirs or subject not in their_subjects:
            continue
        if not any(s == subject and o[0] == thing[0] for s, o in theirs):
            continue  # the context gives the subject nothing of that kind (said once for both)
        others = {s for s, o in theirs if o == thing and s[0] == subject[0] and s != subject}
        if others & our_subjects:
            other = sorted(others & our_subjects)[0]
            return f"gives {thing[1]} to {subject[1]} where {label} give it to {other[1]}"
    return None


# A heading: a markdown one, or a short line that ends in a colon ("Hong Kong results:").
_HEADING = re.compile(r"^\s*(?:#{1,6}\s.*|[^.!?。！？:：,，\n]{1,40}[:：])")
_LIST_MARKER = re.compile(r"^\s*(?:[-*•]\s*)?(?:\(?\d{1,2}[.)、）](?!\d)|[①-⑳])\s*")
_YEAR = re.compile(r"(?:19|20)\d\d")
_GLUED = re.compile(r"[A-Za-z_]\d+|\d+[A-Za-z_]")
_DIGITS = re.compile(r"\d+")


def _bound(
    piece: str, found: list[tuple[str, frozenset[Decimal]]]
) -> list[tuple[str, frozenset[Decimal]]]:
    """The numbers of a clause that are bound to its words: not a year (a period sets the
    scene for a whole passage) and not digits of a name (X200, FY2025, Wi-Fi 6E)."""
    glued = {d for g in _GLUED.findall(piece) for d in _DIGITS.findall(g)} if found else set()
    return [
        (written, forms)
        for written, forms in found
        if _YEAR.fullmatch(written) is None and written not in glued
    ]


def _counts_another_thing(piece: str, texts: list[_Text], label: str) -> str | None:
    """A number that counts another thing in the contexts: the claim's ``五大支柱`` where
    the contexts have 五 only in ``五名`` (and count 大 with 三), ``five pillars`` where
    five counts directors and three counts pillars."""
    for forms, (word, _) in numbers_with_units(piece):
        if not word or any(_YEAR.fullmatch(str(f)) for f in forms):
            continue
        seen = {w for t in texts for f in forms for w in t.counts.get(f, ())}
        if not seen or word in seen:
            continue
        others = {f for t in texts for f in t.counted.get(word, ())}
        if others and forms.isdisjoint(others):
            value = min(forms)
            return f"{label} count {word} with {', '.join(sorted(map(str, others)))}, not {value}"
    return None


def _subject_elsewhere(
    piece_units: frozenset[str],
    earlier: frozenset[str],
    found: list[tuple[str, frozenset[Decimal]]],
    texts: list[_Text],
    label: str,
) -> str | None:
    """A Chinese clause without a subject of its own (``按90%比例报销``) matches the
    sentence that holds its number and another that does not equally well; the claim's
    earlier clauses (``门诊费用在扣除年度免赔额500元后，``) say which one it continues. When
    that is a sentence without the number, far ahead of any with it, the number is
    another fact's (``住院费用按90%比例报销``)."""
    blocks = [(u, n) for t in texts for u, n in zip(t.block_units, t.sentence_numbers, strict=True)]
    whole = piece_units | earlier
    for written, forms in found:
        holding = [len(piece_units & u) for u, n in blocks if not forms.isdisjoint(n)]
        lacking = [len(piece_units & u) for u, n in blocks if forms.isdisjoint(n)]
        if not holding or not lacking or max(lacking) < max(holding):
            continue  # the clause alone picks a sentence holding its number
        best = max(len(whole & u) for u, _ in blocks)
        near = max(len(whole & u) for u, n in blocks if not forms.isdisjoint(n))
        if near * 3 < best * 2:
            return f"{written} is in {label}, but not where they say the rest of it"
    return None


def _said_together(
    claim: str,
    claim_numbers: Callable[[str], list[tuple[str, frozenset[Decimal]]]],
    passages: Sequence[tuple[str, tuple[str, ...]]],
) -> bool:
    """Whether one context sentence gives every number of ``claim`` (two or more), with
    the bounds the claim writes at them: a clause of a schedule ("…; from 8 to 24 hours
    before departure it is 10%") carries its tier in its numbers, not in the words of the
    claim's clause ("the fee is 10% of the fare", after "If you cancel 8 to 24 hours
    before departure,"). "400千瓦时以上…0.05元" is not said where "201至400千瓦时…0.05元"
    is: 400 is a floor in the claim, not there."""
    every = _bound(claim, claim_numbers(claim))
    if len(every) < 2:
        return False
    tier = bounded(claim)
    for _, sentences in passages:
        for sentence in sentences:
            for part in _SCHEDULE_ITEM.split(sentence):  # a schedule's items, one by one
                said = _numbers(_LIST_MARKER.sub("", part, count=1))
                if all(not forms.isdisjoint(said) for _, forms in every) and tier <= bounded(part):
                    return True
    return False


_SCHEDULE_ITEM = re.compile(r"[;；]")


def _number_elsewhere(
    piece_units: frozenset[str],
    found: list[tuple[str, frozenset[Decimal]]],
    texts: list[_Text],
    label: str,
) -> str | None:
    if not found:
        return None
    best = max(
        (len(piece_units & u) for t in texts for u in t.block_units),
        default=0,
    )
    if best < 2:
        return None
    for written, forms in found:
        near = [
            len(piece_units & u)
            for t in texts
            for u, n in zip(t.block_units, t.sentence_numbers, strict=True)
            if not forms.isdisjoint(n)
        ]
        if near and 2 * max(near) < best:
            return f"{written} is in {label}, but not where they say the rest of it"
        if near and _copied_with_another(piece_units, forms, best, max(near), texts):
            return f"{written} is in {label}, but the sentence the claim copies gives another"
    return None


def _copied_with_another(
    piece_units: frozenset[str],
    forms: frozenset[Decimal],
    best: int,
    near: int,
    texts: list[_Text],
) -> bool:
    """Whether the clause copies one sentence (80% of its words, two more than the
    sentence with its number shares) that gives other numbers and not this one: "New
    employees serve a probation period of 3 months" against "… a probation period of 6
    months", where 3 months is the notice period of another sentence."""
    if near > best - 2 or 5 * best < 4 * len(piece_units):
        return False
    copied = [
        n
        for t in texts
        for u, n in zip(t.block_units, t.sentence_numbers, strict=True)
        if len(piece_units & u) == best
    ]
    return all(
        n and forms.isdisjoint(n) and not all(_YEAR.fullmatch(str(x)) for x in n) for n in copied
    )


def _swapped(
    piece_units: frozenset[str],
    rest: frozenset[str],
    found: list[tuple[str, frozenset[Decimal]]],
    kinds: Kinds,
    names: frozenset[str],
    texts: list[_Text],
    label: str,
) -> str | None:
    everything = [(t, f) for t in texts for f in t.facts]
    if not found:
        return _swapped_in(piece_units, rest, kinds, names, everything, label)
    holding = [
        (t, f) for t, f in everything if all(not forms.isdisjoint(f.numbers) for _, forms in found)
    ]
    if holding:  # the context clause that holds all its numbers
        return _swapped_in(piece_units, rest, kinds, names, holding, label)
    for _, forms in found:  # else each number where it stands ("| HK | 1,702 | up 12.4% |")
        problem = _swapped_in(
            piece_units,
            rest,
            kinds,
            names,
            [(t, f) for t, f in everything if not forms.isdisjoint(f.numbers)],
            label,
        )
        if problem is not None:
            return problem
    return None


def _swapped_name(
    names: frozenset[str], rest: frozenset[str], text: _Text, fact: _Fact, label: str
) -> str | None:
    """A proper name swapped: the claim names what its matched sentence does not, the
    matched clause names what the claim does not, and the rest of the claim is there (in
    the sentence or its neighbours): "the Monetary Authority" where it says "the Insurance
    Authority", "Health Plus" where it says "Wealth Builder", "金融管理局" for "保险业监管局"."""
    sentence = text.sentence_units[fact.sentence]
    missing = {n for n in names if not _named_in(n, sentence)}
    other = {n for n in fact.names - names if not any(_same_org(n, m) for m in names)}
    for name in sorted(missing):
        spelled = _spelled(name, other, sentence)
        if spelled:  # "the SOC" where it says "the Security Operations Centre"
            missing.discard(name)
            other -= spelled
    if not missing or not other:
        return None
    window = frozenset().union(*text.sentence_units[max(0, fact.sentence - 1) : fact.sentence + 2])
    if len(rest & window) < _SAME_FACT * len(rest):
        return None
    return f"names {', '.join(sorted(missing))} where {label} name {', '.join(sorted(other))}"


def _spelled(name: str, names: set[str], units: frozenset[str]) -> frozenset[str]:
    """The names of ``names`` whose initials, with those of other words of the sentence
    (``units``) for fewer than half, spell ``name`` (an abbreviation: soc of security,
    operations, centre; fiu of financial, intelligence, unit), or none."""
    if not name.isascii() or not 2 <= len(name) <= 6 or not name.isalpha():
        return frozenset()
    left = list(name.lower())
    used: set[str] = set()
    for word in sorted(names):
        if word.isascii() and word[:1] in left:
            left.remove(word[:1])
            used.add(word)
    if 2 * len(used) < len(name):
        return frozenset()
    for word in sorted(units - names):
        if word.isascii() and word.isalpha() and len(word) > 3 and word[:1] in left:
            left.remove(word[:1])
    return frozenset(used) if not left else frozenset()


def _named_in(name: str, units: frozenset[str]) -> bool:
    if name.isascii():
        return name in units
    return all(name[i : i + 2] in units for i in range(len(name) - 1))


def _same_org(theirs: str, ours: str) -> bool:
    """Two Chinese organisation names that share half the characters before their last
    (保监局 and 险业监管局: an abbreviation), or two English names that are one word."""
    if theirs.isascii() or ours.isascii():
        return theirs == ours
    mine = set(ours[:-1])
    return len(mine & set(theirs[:-1])) * 2 >= len(mine)


_GROUP_SCOPE = frozenset(["Group"])


def _disjoint(ours: frozenset[str], theirs: frozenset[str]) -> bool:
    """Whether two sets of one kind name different things. The group is a scope beside
    places: when both sides name a place, the places decide ("集团…由新加坡带动" against
    "集团…由中国内地带动"); "ACME Group" against "ACME HK" alone differ."""
    ours_places, theirs_places = ours - _GROUP_SCOPE, theirs - _GROUP_SCOPE
    if ours_places and theirs_places:
        return ours_places.isdisjoint(theirs_places)
    return ours.isdisjoint(theirs)


def _swapped_in(
    piece_units: frozenset[str],
    rest: frozenset[str],
    kinds: Kinds,
    names: frozenset[str],
    candidates: Iterable[tuple[_Text, _Fact]],
    label: str,
) -> str | None:
    """A reason when every best match among ``candidates`` names another thing."""
    scored = [(len(piece_units & f.units), t, f) for t, f in candidates]
    best = max((s for s, _, _ in scored), default=0)
    if best == 0:
        return None
    reasons: list[str] = []
    for score, text, fact in scored:
        if score != best:
            continue
        reason = None
        for kind, groups in kinds.items():
            theirs = fact.kinds.get(kind)
            if theirs and _disjoint(groups, theirs):
                said = "/".join(sorted(groups))
                reason = f"says {said} where {label} say {'/'.join(sorted(theirs))}"
                break
        if reason is None and names and fact.names:
            reason = _swapped_name(names, rest, text, fact, label)
        if reason is None:
            return None  # one best match agrees
        reasons.append(reason)
    return reasons[0] if reasons else None


def same_thing(a: str, b: str) -> bool:
    """Whether two writings name one group of a kind (HK and Hong Kong, 收入 and revenue)."""
    ours, theirs = _kinds(a), _kinds(b)
    return any(not ours[k].isdisjoint(theirs[k]) for k in ours.keys() & theirs.keys())

"""Numbers as values, not strings: what the judges compare when they compare numbers.

``1,702`` = ``1702`` = ``1702.0`` = ``１７０２`` = ``１，７０２`` = ``1 702``; ``40%`` = ``40 %``;
``5亿`` is 5 and also 500,000,000, so it equals ``500,000,000`` and ``0.5 billion``; a scale
word may follow the currency (``1,702 USD million`` = ``USD 1.702 billion``); ``三年`` is 3
years, ``三十`` 30, ``一百二十`` 120, ``百分之十`` 10 (%), and ``twice`` is 2. A number is a set of canonical forms (its value as written and, with a
scale word, its scaled value); two numbers agree when their sets meet.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from functools import lru_cache

_ANY_DIGIT = re.compile(r"\d")


def has_digit(text: str) -> bool:
    """Whether ``text`` holds a decimal digit (what ``\\d`` matches, full-width digits too).

    ASCII text is asked with ten substring scans: the pattern reads every character's
    Unicode category, ~15x slower on a line with no digit (most prose)."""
    if text.isascii():
        return any(map(text.__contains__, "0123456789"))
    return _ANY_DIGIT.search(text) is not None


__all__ = [
    "CJK_CURRENCY_NAMES",
    "CJK_SCALE_WORDS",
    "CURRENCY_CODES",
    "CURRENCY_NAMES",
    "CURRENCY_PREFIXES",
    "CURRENCY_SIGNS",
    "PERCENT_WORDS",
    "SCALE_WORDS",
    "NumberMention",
    "alternation",
    "cjk_numerals",
    "cjk_value",
    "conditional_numbers",
    "english_compounds",
    "fold",
    "has_digit",
    "has_number_words",
    "number_forms",
    "number_mentions",
    "numbers_with_units",
    "states_value",
    "unit_scale",
]

# The words that say which currency, unit or scale a number is written in: the one list
# the judges' patterns that set such words aside are built from (claims._RESTATEMENT,
# judge._FRAME_WORDS, judge._HEDGE_BEFORE), each adding its own words and leaving out
# what does not fit it. Lower case.
CURRENCY_CODES = ("usd", "hkd", "cny", "rmb", "eur", "gbp", "jpy", "sgd")
# A code joined to its sign, written before the number (US$5); not a word of its own.
CURRENCY_PREFIXES = ("us$", "hk$")
CURRENCY_SIGNS = "$€£¥"
CURRENCY_NAMES = ("dollar", "dollars", "euro", "euros", "yuan")
CJK_CURRENCY_NAMES = ("人民币", "美元", "港元", "港币", "欧元", "元")
PERCENT_WORDS = ("percent", "per cent", "pct")
SCALE_WORDS = ("thousand", "million", "billion", "mn", "bn", "m", "b", "k")
CJK_SCALE_WORDS = ("千万", "百万", "亿", "万", "千")


def alternation(words: Iterable[str]) -> str:
    """A regex alternation of literal ``words``, the longest first (so 千万 is not read as
    千 then 万)."""
    return "|".join(re.escape(w) for w in sorted(set(words), key=lambda w: (-len(w), w)))


# Full-width digits and separators (NFKC folds them); checked before normalising at all.
_WIDE = re.compile(r"[０-９．，％]")
# 1,702 | 1702 | 1702.5 | .5 — never the tail of a longer number; thousands groups of 3.
# Thousands may also be grouped by a space (1 702); a currency may stand between the number
# and its scale word (1,702 USD million).
# The leading (?=\d) changes no match (every branch starts with a digit) but lets the
# engine skip to the next digit instead of trying the lookbehind at every position: 3-4x
# faster over a passage (~250 -> ~60 ns a character).
_NUMBER = re.compile(
    r"(?=\d)(?<![\d.])(\d{1,3}(?:,\d{3})+(?!\d)|\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d,])|\d+)"
    r"(?:\.(\d+))?"
    r"(?:\s?(?:(?:USD|HKD|RMB|CNY|EUR|GBP|JPY|SGD|AUD|CAD|CHF|US\$|HK\$)\s?)?"
    r"(thousand|million|billion|trillion|bn|mn|千万|百万|万亿|万|亿|千|k)(?![A-Za-z]))?",
    re.IGNORECASE,
)
_GROUPING = str.maketrans("", "", ", \u00a0\u202f")
# The scale letters of an amount after a currency sign or code ($1.702B, €40K, USD 3.5M).
_CURRENCY_SIGNS = frozenset(CURRENCY_SIGNS)
_CURRENCY_CODE = re.compile(
    rf"(?<![A-Za-z])(?:{alternation(c.upper() for c in CURRENCY_CODES)})\s?$"
)
_LETTER_SCALE = re.compile(r"\s?(bn|mn|b|m|k)(?![A-Za-z0-9])", re.IGNORECASE)
_SCALES: dict[str, int] = {
    "thousand": 10**3,
    "k": 10**3,
    "千": 10**3,
    "万": 10**4,
    "million": 10**6,
    "mn": 10**6,
    "百万": 10**6,
    "千万": 10**7,
    "亿": 10**8,
    "billion": 10**9,
    "bn": 10**9,
    "b": 10**9,
    "m": 10**6,
    "trillion": 10**12,
    "万亿": 10**12,
}
# A single Chinese numeral before a measure word: 三年 → 3, 两个 → 2, 第三季度 → 3.
# (两次之间, 两次服药之间: "between doses", two in a row, not a count)
_CJK_NUMERAL = re.compile(
    r"(?<![一二两三四五六七八九十百千万零〇])(?!两次(?:服药|用药|服用|给药|注射)?之间)"
    r"([一二两三四五六七八九十])"
    r"(?=[年个天月日倍项家次名位周季层期大款条种类只间座所张份批轮级岁人台件套支笔场届宗处]"
    r"|小时|分钟|方面)"
)
# A tenth: 六成 = 60%, 三成 = 30% (not 成功, 成为, 成本, 成员 …: 成 starting a word).
_CJK_TENTH = re.compile(
    r"(?<![零〇一二两三四五六七八九十百千万亿])([一二两三四五六七八九十])成"
    r"(?![功为立本员果绩交长熟就都人型不])"
)
# Counters after which 一 is mostly the article "a" (一项新计划 "a new plan"), not a count.
ARTICLE_COUNTERS = frozenset("个项家名位大款条种类只间座所张份批台件套支笔场宗处方")
_CJK_DIGITS = {
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "十": 10,
}
# English number words that are almost always numbers ("one" and "once" are not).
NUMBER_WORDS: dict[str, int] = {
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "hundred": 100,
    "twice": 2,
    "thrice": 3,
    "doubled": 2,
    "doubles": 2,
    "doubling": 2,
    "twofold": 2,
    "triple": 3,
    "tripled": 3,
    "triples": 3,
    "tripling": 3,
    "threefold": 3,
    "quadruple": 4,
    "quadrupled": 4,
    "fourfold": 4,
    "dozen": 12,
    "january": 1,
    "february": 2,
    "march": 3,
    "april": 4,
    "june": 6,
    "july": 7,
    "august": 8,
    "september": 9,
    "october": 10,
    "november": 11,
    "december": 12,
}
_NUMBER_WORD_SET = frozenset(NUMBER_WORDS)
_MONTHS = frozenset(list(NUMBER_WORDS)[list(NUMBER_WORDS).index("january") :])


@dataclass(frozen=True, slots=True)
class NumberMention:
    """One number as written in a text, with its canonical forms."""

    text: str
    start: int
    end: int
    value: Decimal  # as written, without the scale word
    decimals: int  # digits written after the point (its precision)
    scale: int  # the scale word's multiplier (1 without one)
    forms: frozenset[Decimal]


def _canonical(value: Decimal) -> Decimal:
    # normalize() makes 1702.0 and 1702 (and 1.702E+3) the same key.
    return value.normalize()


@lru_cache(maxsize=4096)
def _forms(whole: str, fraction: str | None, scale: str | None) -> frozenset[Decimal]:
    try:
        value = Decimal(whole.translate(_GROUPING) + ("." + fraction if fraction else ""))
    except InvalidOperation:  # pragma: no cover - the pattern only matches digits
        return frozenset()
    forms = {_canonical(value)}
    if scale:
        forms.add(_canonical(value * _SCALES[scale.lower()]))
    return frozenset(forms)


def fold(text: str) -> str:
    """Full-width digits and signs as ASCII (only when there are any: NFKC is not free)."""
    if text.isascii():  # no full-width character: a flag test instead of a scan
        return text
    return unicodedata.normalize("NFKC", text) if _WIDE.search(text) else text


def number_mentions(text: str) -> list[NumberMention]:
    """Every digit number in ``text`` (already ``fold``-ed), with its forms and span."""
    out: list[NumberMention] = []
    for m in _NUMBER.finditer(text):
        start, end = m.span()
        whole, fraction, scale = m.groups()
        if (
            scale is None
            and start
            and (
                text[start - 1] in _CURRENCY_SIGNS
                or _CURRENCY_CODE.search(text, max(0, start - 4), start) is not None
            )
        ):
            # $1.702B, €40K, £3.5M: a letter scale right after an amount in a currency
            letter = _LETTER_SCALE.match(text, end)
            if letter is not None:
                scale, end = letter.group(1), letter.end()
        mention = NumberMention(text[start:end], start, end, *_reading(whole, fraction, scale))
        if (
            end - start == 2
            and start >= 2
            and text[start - 2 : start] in ("FY", "fy", "Fy")
            and (start == 2 or not text[start - 3].isalnum())
        ):
            # FY25 is FY2025: its year is read with the century (both forms kept)
            mention = replace(mention, forms=mention.forms | {Decimal(2000 + int(whole))})
        out.append(mention)
    return out


@lru_cache(maxsize=4096)
def _reading(
    whole: str, fraction: str | None, scale: str | None
) -> tuple[Decimal, int, int, frozenset[Decimal]]:
    """A number's value, decimals, scale and forms (the same number is read once)."""
    return (
        Decimal(whole.translate(_GROUPING) + ("." + fraction if fraction else "")),
        len(fraction or ""),
        _SCALES[scale.lower()] if scale else 1,
        _forms(whole, fraction, scale),
    )


# Chinese numbers of several characters: 三十, 一百二十, 两千五百, 三万, 七点五, and anything
# after 百分之 (百分之十 = 10, 百分之百 = 100). A run needs a digit character and a unit (十百千
# 万亿) or a decimal point, and does not start with a bare 百/千/万/亿 (千万 "by all means",
# 万一 "in case" are words); a lone 十 is left to the measure-word rule.
_CJK_NUMBER = re.compile(
    r"百分之([零〇一二两三四五六七八九十百千万亿]+(?:点[零〇一二三四五六七八九]+)?)"
    r"|(?<![零〇一二两三四五六七八九十百千万亿])"
    r"((?:[一二两三四五六七八九]|十(?=[一二三四五六七八九]))[零〇一二两三四五六七八九十百千万亿]*"
    r"(?:点[零〇一二三四五六七八九]+)?)"
)
_CJK_VALUES = {"零": 0, "〇": 0, **{k: v for k, v in _CJK_DIGITS.items() if k != "十"}}
_CJK_UNITS = {"十": 10, "百": 100, "千": 1000}
_CJK_SCALES = {"万": 10**4, "亿": 10**8}


def cjk_value(run: str) -> Decimal:
    """The value of a Chinese number: 一百二十 → 120, 两千五百 → 2500, 七点五 → 7.5,
    一亿二千万 → 120,000,000 (a 万 group after 亿 is added, not multiplied), 一万亿 → 10¹²."""
    whole, _, fraction = run.partition("点")
    total = wan = section = number = 0
    for ch in whole:
        if ch in _CJK_VALUES:
            number = _CJK_VALUES[ch]
        elif ch in _CJK_UNITS:
            section += (number or 1) * _CJK_UNITS[ch]
            number = 0
        elif ch == "万":
            wan = (wan + section + number) * _CJK_SCALES[ch]
            section = number = 0
        else:  # 亿
            total = (total + wan + section + number) * _CJK_SCALES[ch]
            wan = section = number = 0
    value = Decimal(total + wan + section + number)
    if fraction:
        value += Decimal("0." + "".join(str(_CJK_VALUES[ch]) for ch in fraction))
    return value


def cjk_numerals(text: str) -> list[tuple[str, Decimal]]:
    """Chinese numbers as (written, value): a single numeral before a measure word (三年 →
    3), a number of several characters (三十 → 30, 一百二十 → 120) and a percentage (百分之十
    → 10)."""
    out: list[tuple[str, Decimal]] = []
    taken: list[tuple[int, int]] = []
    for m in _CJK_NUMBER.finditer(text):
        run = m.group(1) or m.group(2)
        if m.group(2) is not None and not any(ch in "十百千万亿点" for ch in run):
            continue  # 一一, 三四: no unit, no number
        out.append((m.group(), cjk_value(run)))
        taken.append(m.span())
    if "成" in text:  # 六成 is 60 (%), 八成 80: tenths
        for m in _CJK_TENTH.finditer(text):
            out.append((m.group(), Decimal(_CJK_DIGITS[m.group(1)] * 10)))
            taken.append(m.span())
    for m in _CJK_NUMERAL.finditer(text):
        if not any(start <= m.start() < end for start, end in taken):
            out.append((m.group() + text[m.end()], Decimal(_CJK_DIGITS[m.group()])))
    if "翻" in text or "半" in text:
        for m in _CJK_WORDS.finditer(text):
            out.append((m.group(), _CJK_WORD_VALUES.get(m.group(), Decimal(2))))
    return out


# Words that are numbers only in some uses: "once a year" (not "once approved"), "one
# year" (not "one of"), "half of" (not "the first half", "half-year"), "double the"
# (not "double-digit"). Read by a pattern, and only when the text has one of them.
CONDITIONAL_NUMBER_WORDS = frozenset(["once", "one", "half", "double"])
_CONDITIONAL = re.compile(
    # ("once a year" counts; "once a stair has 4 risers" is when)
    r"(?P<once>\bonce\b(?=\s+(?:(?:a|an)\s+(?:year|month|week|day|quarter|fortnight|decade|"
    r"lifetime|night|shift|season|term|semester|cycle|while|calendar|financial|fiscal|working|"
    r"business)|per|every|each|daily|weekly|monthly|quarterly|yearly|"
    r"annually|more|again|or\s+twice|only|in\s+(?:a|an|each|every))\b)"
    r"|(?<=\bonly )once\b|(?<=\bjust )once\b|(?<=\bexactly )once\b|(?<=\bleast )once\b"
    r"|(?<=\bmost )once\b|(?<=\bthan )once\b)"
    r"|(?P<one>\bone(?=(?:[\s-]+(?:full|calendar|working|business|financial|fiscal|additional|"
    r"extra|more|single|whole))?[\s-]+(?:days?|weeks?|months?|years?|hours?|minutes?|quarters?|"
    r"times?|percent|per\s+cent|million|billion|thousand|hundred|dozen|nights?)\b))"
    r"|(?P<half>(?<!\bfirst )(?<!\bsecond )(?<!\b1st )(?<!\b2nd )(?<!\blatter )(?<!\bformer )"
    r"\bhalf\b(?![\s-]*(?:years?|yearly|time|way|term|life|hours?|days?|months?)\b))"
    r"|(?P<double>\bdouble\b(?![\s-]*(?:digits?|check|checked|checking|count|counting|counted|"
    r"click|edged|standard|entry|taxation|dip)\b))",
    re.IGNORECASE,
)
_CONDITIONAL_FORMS = {
    "once": frozenset({Decimal(1)}),
    "one": frozenset({Decimal(1)}),
    "half": frozenset({Decimal("0.5"), Decimal(50)}),  # half = 0.5 = 50 %
    "double": frozenset({Decimal(2)}),
}
# Chinese multiples and halves: 翻倍 = 翻番 = 翻一番 = 2, 翻两番 = 4, 一半 = 半数 = 50 %.
_CJK_WORDS = re.compile(r"翻一?[倍番]|翻两番|一半|半数")
_CJK_WORD_VALUES = {"翻两番": Decimal(4), "一半": Decimal(50), "半数": Decimal(50)}


def conditional_numbers(text: str) -> list[tuple[str, frozenset[Decimal]]]:
    """Numbers said by words that are numbers only in some uses (see _CONDITIONAL)."""
    return [
        (m.group(), _CONDITIONAL_FORMS[m.lastgroup])
        for m in _CONDITIONAL.finditer(text)
        if m.lastgroup
    ]


_TENS = r"twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
_ONES = r"one|two|three|four|five|six|seven|eight|nine"
# twenty-five, thirty one: one number, not 20 and 5.
_COMPOUND = re.compile(rf"\b({_TENS})[-\s]({_ONES})\b", re.IGNORECASE)
_ONE_VALUE = {"one": 1, **{k: v for k, v in NUMBER_WORDS.items() if v < 10 and len(k) > 3}}
_ONE_VALUE.update(two=2, six=6)


def english_compounds(text: str) -> list[tuple[str, int, tuple[str, str]]]:
    """English compound numbers as (written, value, (tens word, ones word))."""
    out = []
    for m in _COMPOUND.finditer(text):
        tens, ones = m.group(1).lower(), m.group(2).lower()
        out.append((m.group(), NUMBER_WORDS[tens] + _ONE_VALUE[ones], (tens, ones)))
    return out


def has_number_words(tokens: Iterable[str]) -> bool:
    return not _NUMBER_WORD_SET.isdisjoint(tokens)


def number_forms(text: str, tokens: Iterable[str] = ()) -> set[Decimal]:
    """All canonical forms of the numbers in ``text``: digits, Chinese numerals before a
    measure word, and English number and month words among ``tokens``."""
    text = fold(text)
    forms: set[Decimal] = set()
    if has_digit(text):
        for mention in number_mentions(text):
            forms |= mention.forms
    if not text.isascii():
        forms.update(value for _, value in cjk_numerals(text))
    tokens = frozenset(tokens)
    words = _NUMBER_WORD_SET.intersection(tokens)
    forms.update(Decimal(NUMBER_WORDS[t]) for t in words)
    if words:
        forms.update(Decimal(value) for _, value, _ in english_compounds(text))
    if not CONDITIONAL_NUMBER_WORDS.isdisjoint(tokens):
        for _, found in conditional_numbers(text):
            forms |= found
    return forms


@lru_cache(maxsize=256)
def unit_scale(unit: str | None) -> int:
    """The multiplier a unit name carries: USD_M → 10**6, CNY_100M (亿元) → 10**8, pct → 1."""
    if not unit:
        return 1
    tail = re.split(r"[_\s]", unit.strip().lower())[-1]
    return {
        "k": 10**3,
        "th": 10**3,
        "thousand": 10**3,
        "m": 10**6,
        "mn": 10**6,
        "mm": 10**6,
        "million": 10**6,
        "b": 10**9,
        "bn": 10**9,
        "billion": 10**9,
        "10k": 10**4,
        "万": 10**4,
        "100m": 10**8,
        "亿": 10**8,
    }.get(tail, 1)


def states_value(mention: NumberMention, value: float, unit_multiplier: int) -> bool:
    """Whether ``mention`` writes ``value`` (a number in a unit of ``unit_multiplier``).

    Either as the unit's number ("1,702", "1702.0" for 1702 USD_M) or in base units with a
    scale word ("USD 1.702 billion", "17.02亿", "1,702 million"). A rounded writing counts
    at the precision it shows: "1.7 billion" states 1,702 USD_M, "1,700" does not.
    """
    try:
        target = abs(Decimal(repr(float(value))))  # a sign is written as words too
    except (InvalidOperation, ValueError):
        return False
    written = mention.value * mention.scale
    if written == 0 and target != 0:
        return False  # the "00" of "22:00" rounds 0.2 at its precision; it writes no amount
    half_step = Decimal(5).scaleb(-mention.decimals - 1) * mention.scale
    return any(abs(written - wanted) <= half_step for wanted in (target, target * unit_multiplier))


# What a number counts: the word (or Chinese counter) written right after it.
_UNIT_AFTER = re.compile(
    r"\s?(%|[A-Za-z]+|[\u3400-\u4dbf\u4e00-\u9fff])"
    r"(?:[\s\-]?(%|[A-Za-z]+|[\u3400-\u4dbf\u4e00-\u9fff]))?"
)
# Counting words (not months, not multiples such as twice or doubled), and compounds.
_COUNTING_WORDS = [w for w in NUMBER_WORDS if w not in _MONTHS and NUMBER_WORDS[w] != 0]
_WORD_NUMBER = re.compile(
    rf"\b(?:({_TENS})[-\s]({_ONES})|("
    + "|".join(
        sorted(
            (
                w
                for w in _COUNTING_WORDS
                if not w.endswith(("ce", "fold", "ed", "es", "ing", "ple"))
            ),
            key=len,
            reverse=True,
        )
    )
    + r"))\b",
    re.IGNORECASE,
)


_NOT_UNITS = frozenset(
    [
        "the",
        "a",
        "an",
        "and",
        "or",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "by",
        "from",
        "with",
        "is",
        "was",
        "are",
        "were",
        "than",
        "as",
        "up",
        "over",
        "under",
        "per",
    ]
) | frozenset(["", *"的和与及至到或"])


_LETTERS = re.compile(r"[a-z]+")


def _unit(word: str | None) -> str:
    if not word:
        return ""
    word = word.lower()
    word = word[:-1] if len(word) > 3 and word.endswith("s") and word.isascii() else word
    return _UNIT_SPELLINGS.get(word, word)


def same_unit(a: str, b: str) -> bool:
    """Whether two writings are one unit, abbreviated or written out (km, kilometres)."""
    x = _unit(a.strip())
    return x in _UNIT_CODES and x == _unit(b.strip())


# A unit written out and abbreviated counts the same thing: "7 kg" is "7 kilograms", so a
# claim's kg is not "another thing" than the context's kilogram (singular forms: _unit
# drops a plural s first).
_UNIT_SPELLINGS = {
    **dict.fromkeys(["kilogram", "kilo", "kgs"], "kg"),
    **dict.fromkeys(["kilometre", "kilometer", "kms"], "km"),
    **dict.fromkeys(["centimetre", "centimeter"], "cm"),
    **dict.fromkeys(["millimetre", "millimeter"], "mm"),
    **dict.fromkeys(["millilitre", "milliliter"], "ml"),
    **dict.fromkeys(["liter", "litre", "ltr"], "l"),
    **dict.fromkeys(["pound", "lbs"], "lb"),
    **dict.fromkeys(["gigabyte"], "gb"),
    **dict.fromkeys(["megabyte"], "mb"),
    **dict.fromkeys(["terabyte"], "tb"),
}
_UNIT_CODES = frozenset(_UNIT_SPELLINGS.values())


def numbers_with_units(text: str) -> list[tuple[frozenset[Decimal], tuple[str, str]]]:
    """Each number of ``text`` with the (up to) two words after it, singular: ``3家分行``
    → (3, (家, 分)), ``five regional directors`` → (5, (regional, director)), ``40%`` →
    (40, (%, ...)). What a number counts, so a claim's ``五大支柱`` can be told from a
    context's ``五名``."""
    text = fold(text)
    spans: list[tuple[frozenset[Decimal], int]] = []
    if has_digit(text):
        spans += [(m.forms, m.end) for m in number_mentions(text)]
    if not text.isascii():
        taken: list[tuple[int, int]] = []
        for m in _CJK_NUMBER.finditer(text):
            run = m.group(1) or m.group(2)
            if m.group(2) is not None and not any(ch in "十百千万亿点" for ch in run):
                continue
            spans.append((frozenset({cjk_value(run)}), m.end()))
            taken.append(m.span())
        for m in _CJK_NUMERAL.finditer(text):
            if not any(start <= m.start() < end for start, end in taken):
                spans.append((frozenset({Decimal(_CJK_DIGITS[m.group()])}), m.end()))
    if not _NUMBER_WORD_SET.isdisjoint(_LETTERS.findall(text.lower())):
        for m in _WORD_NUMBER.finditer(text):
            if m.group(3):
                value = NUMBER_WORDS[m.group(3).lower()]
            else:
                value = NUMBER_WORDS[m.group(1).lower()] + _ONE_VALUE[m.group(2).lower()]
            spans.append((frozenset({Decimal(value)}), m.end()))
    out = []
    for forms, end in spans:
        after = _UNIT_AFTER.match(text, end)
        words = (_unit(after.group(1)), _unit(after.group(2))) if after else ("", "")
        if words[0] in _NOT_UNITS:
            words = ("", "")
        out.append((forms, words))
    return out

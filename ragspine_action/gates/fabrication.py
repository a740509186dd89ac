"""Fabrication: numbers left in a refusal answer once period tokens are removed (SPEC §2).

A system that refuses but still prints "about 1,200" has invented a number. Period tokens
(FY2024, FY24, 2025H1, 1H25, 2H24, H1 2025, 2025 H2, 2025Q1, Q3 2025, 2025年Q1, 2030年,
2024 年上半年, 2025年5月, plain years 19xx/20xx) name the period that was asked about and are
allowed, and so are lists and ranges of them (``2024,2025``, ``2024-2025``, ``2024–25``,
``FY2024/25``, ``FY24-25``, ``Q1-Q3 2025``, ``2023年、2024年``). An amount written right
after a period is still an amount: ``2025年5亿`` and ``2025年5月5亿`` leave ``5亿`` (a month
needs its 月, so ``2025年12亿`` is not December). Chinese amounts keep their scale (``5亿``,
``3.5万``) because the scale is what makes them amounts. Full-width letters and digits are
read as ASCII first (``２０２５年５亿`` → ``5亿``; ``ＦＹ２０２５``, ``Ｑ１ ２０２５`` are periods).

Amounts written in Chinese numerals count as amounts too, given in digits as the
faithfulness number rule reads them (``大约八亿美元`` → ``8亿``, ``两千万`` → ``2000万``,
``百分之九`` → ``9%``, ``三成`` → ``30%``): a run with a unit or scale (十百千万亿), a percentage, a
tenth (成). A lone numeral before a measure word (``三年``, ``一个``), an ordinal (``第三``)
and a date (``十二月``, ``三十一日``, ``二〇二五年``) are not amounts, nor is an ordinal written
in digits (``第3季度``, ``3rd-quarter``) or a period counted from now (``近3年``, ``the last 3
years``): they name the period asked about.

Citation material is no amount either: a refusal that says where it looked (``(source:
ACME_IFRS17_Note.pdf, page=3)``, ``[1]``, ``[^2]``, ``#para1``, ``第3页``, ``IFRS 17``,
lists of pages or slides: ``slides 3, 5, 6``, ``pages 2-4``, ``第3、5、6张幻灯片``, ``<sup>1</sup>``)
has invented nothing. ``claims.without_citations`` removes it (the same recognition the
claim extractor uses) before numbers are counted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from decimal import Decimal
from functools import lru_cache

from ..gate_defaults import DEFAULT_PERIOD_PATTERNS
from .leading import first_class
from .numerals import cjk_value, has_digit

__all__ = ["DEFAULT_PERIOD_PATTERNS", "compile_periods", "detect_fabricated_numbers"]


# A number, with the Chinese scale that makes it an amount (5亿, 3.5万, 7,800万); thousands
# may be grouped by spaces (1 702).
# Digits joined to a name by an underscore (DOC_04286, ACME_IFRS17_Note) are part of it.
# (?=\d) first: the engine skips to a digit instead of trying the lookbehind everywhere.
_NUMBER = re.compile(
    r"(?=\d)(?<![\d_])(?:\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d.,])|\d+(?:[.,]\d+)*)(?![\d_])"
    r"(?:\s?(?:千万|百万|万亿|[万亿]))?"
)
# Between two periods of a list or range: a comma, an enumeration comma, a dash or a
# slash (or 至/到/~ for ranges).
_JOIN = r"\s?(?:[,，、/~～至到]|[-–—])\s?"
# A two-digit year that ends a range: the 25 of 2024–25 and FY2024/25 (never after a comma:
# in "in 2024, 25 staff left" the 25 is a count).
_SHORT_YEAR_END = r"\s?[-–—/]\s?\d{2}(?![\d.,]*\d)"


# Lists of locators (a citation or a search note, not amounts): slides 3, 5, 6; pp. 2-4
# and 7; Part 7; 第3、5、6张幻灯片; 3、5页; <sup>1</sup>; superscript digits.
_LIST_JOIN = r"\s?(?:[-–—,，、/&~～]|and|or|to|至|到|和|及|与)\s?"
_LOCATOR_LIST = re.compile(
    r"\b(?:pp?|pgs?|pages?|slides?|paras?|paragraphs?|sections?|sect|sec|chapters?|ch|"
    r"clauses?|notes?|tables?|figures?|figs?|exhibits?|articles?|art|parts?|§)\.?\s?"
    rf"\d{{1,4}}(?:\.\d+)*(?:{_LIST_JOIN}\d{{1,4}}(?:\.\d+)*)*\b"
    rf"|第?\s?\d{{1,4}}(?:\.\d{{1,3}})*(?:{_LIST_JOIN}第?\s?\d{{1,4}}(?:\.\d{{1,3}})*)*\s?"
    r"(?:[页段节章条款项张](?:幻灯片)?|幻灯片)"
    r"|<sup>[^<>]{0,20}</sup>|[¹²³⁴⁵⁶⁷⁸⁹⁰]+",
    re.IGNORECASE,
)
# Currency codes written against an amount (USD500, EUR40): an amount, not an identifier.
_CURRENCY_CODES = (
    r"(?:USD|EUR|GBP|HKD|CNY|RMB|JPY|SGD|AUD|CAD|CHF|NZD|TWD|NTD|KRW|INR|MYR|THB|IDR|PHP|"
    r"VND|ZAR|SEK|NOK|DKK|BRL|MXN|AED|SAR|US|HK|NT|R|RS|Rp)"
)
# Numbers that count no amount: an ordinal (第3季度, 第2名, 3rd-quarter, the 2nd half) and a
# period counted back or ahead from now (近3年, 过去6个月, the last 3 years, the next 2
# quarters) — the period asked about, said again. An amount beside one is still an amount
# (第3季度收入5亿 → 5亿).
_NOT_AMOUNT = re.compile(
    r"第\s?\d{1,4}(?:\.\d{1,3})*(?![\d.,])"
    # A digit inside an identifier names a metric, a class or an index, not an amount:
    # CET1, A380, ISO27001, COVID-19, Tier 1, Level 3, Scope 2, S&P 500, FTSE 100 (a
    # currency code glued to its amount, USD500, RMB5亿, stays an amount).
    rf"|(?<![A-Za-z\d_$€£¥&.])(?!{_CURRENCY_CODES}\d)[A-Za-z][A-Za-z&]*\d+(?:\.\d+)*(?![\d.,]*\d)"
    r"(?![万亿])[A-Za-z\d]*"
    r"|(?<![A-Za-z\d_-])(?-i:[A-Z]{2,})-\d{1,3}(?!\.?\d|[\d,%])"
    r"|(?<![A-Za-z])(?:tier|level|stage|phase|pillar|class|type|grade|category|scope|gen|generation|"
    r"series|model|version|wave|round|schedule|appendix|annex|form|rule|step|item|option)[\s-]\d{1,2}"
    r"(?!\.?\d|[\d,%])(?!\s?(?:[万亿%]|per\b))"
    r"|(?<![\d.,])\d(?-i:[GD])(?![A-Za-z\d])"  # 5G, 3D: a generation, a dimension
    # standards and frameworks by number: IFRS 9, ISO 27001, SOC 2, Basel 3.1, Solvency 2
    r"|(?<![A-Za-z])(?:IFRS|IAS|ISO|SOC|Basel|Solvency|PCI\s?DSS|GDPR|SFDR|MiFID|UCITS|"
    r"GPT|G|Windows|iOS|Android)[\s-]?\d{1,5}(?:\.\d)?(?!\.?\d|[\d,%])(?!\s?(?:[万亿%]|per\b))"
    r"|(?<![A-Za-z])(?:S&P|FTSE|Nasdaq|Russell|Nikkei|Stoxx|CAC|DAX|ASX|TSX|Fortune|Global)"
    r"\s?\d{2,4}(?!\.?\d|[\d,%])"
    r"|(?<![\d.,])\d{1,4}(?:st|nd|rd|th)\b"
    # A time of day says when, like a date, not how much: 23:00, 7:30 pm, 9am, 下午3点,
    # 14点30分 (a range of times, 23:00–07:00, is two of them).
    r"|(?<![\d.,:：])(?:[01]?\d|2[0-4])[:：][0-5]\d(?:[:：][0-5]\d)?(?![\d.,:：]*\d)"
    r"(?:\s?(?:am|pm|a\.m\.|p\.m\.)(?![a-z]))?"
    r"|(?<![\d.,])(?:1[0-2]|0?\d)\s?(?:am|pm|a\.m\.|p\.m\.)(?![a-z])"
    r"|(?:凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜间|夜里)\s?(?:[01]?\d|2[0-4])\s?[点点时時](?:半|\s?[0-5]?\d\s?分)?"
    r"|(?<![\d.,])(?:[01]?\d|2[0-4])\s?[点时時]\s?[0-5]?\d\s?分"
    r"|(?:近|过去|最近|前|未来|今后)\s?\d{1,2}\s?(?:个)?(?:年|月|季度|周|天|日)(?![\d万亿])"
    r"|\b(?:last|past|previous|prior|next|coming|recent|preceding|following)\s+\d{1,2}\s+"
    r"(?:years?|months?|quarters?|weeks?|days?|fiscal\s+years?|financial\s+years?)(?![A-Za-z])",
    re.IGNORECASE,
)


def _no_ordinals(text: str) -> str:
    """``text`` (periods already removed) without ordinals and periods counted from now."""
    return _NOT_AMOUNT.sub(" ", text) if _NOT_AMOUNT.search(text) is not None else text


_CJK_DIGIT_CHARS = "零〇一二两三四五六七八九十百千万亿"
# Chinese numbers: a percentage, a tenth (三成), a run of numerals (kept only with a unit).
_CJK_AMOUNT = re.compile(
    r"百分之[零〇一二两三四五六七八九十百千]+(?:点[零〇一二三四五六七八九]+)?"
    r"|(?<![零〇一二两三四五六七八九十百千万亿])[一二两三四五六七八九十]成(?![功为立本员果绩交长熟就都人型不])"
    r"|(?<![零〇一二两三四五六七八九十百千万亿第])(?:[一二两三四五六七八九]|十(?=[一二三四五六七八九]))"
    r"[零〇一二两三四五六七八九十百千万亿]*(?:点[零〇一二三四五六七八九]+)?"
)


# Full-width letters, digits and number signs (０-９, Ａ-Ｚ, ａ-ｚ, －．％／＋) as ASCII: what NFKC
# does to them, without touching the Chinese punctuation a period list is told apart by.
_WIDE_ALNUM = {
    code: code - 0xFEE0
    for code in [
        *range(0xFF10, 0xFF1A),
        *range(0xFF21, 0xFF3B),
        *range(0xFF41, 0xFF5B),
        0xFF0B,
        0xFF0D,
        0xFF0E,
        0xFF0F,
        0xFF05,
    ]
}

_WIDE_GROUP = re.compile(r"(?<=[０-９])，(?=[０-９]{3}(?![０-９]))")


def _plain(value: Decimal) -> str:
    return f"{value.normalize():f}"


def _cjk_amount(written: str) -> str:
    """A Chinese-numeral amount in digits, with the scale that makes it an amount (the
    value the faithfulness number rule reads): 八亿 → 8亿, 两千万 → 2000万, 一百二十 → 120,
    百分之九 → 9%, 三成 → 30%."""
    if written.startswith("百分之"):
        return _plain(cjk_value(written[3:])) + "%"
    if written.endswith("成"):
        return _plain(cjk_value(written[:-1]) * 10) + "%"
    value = cjk_value(written)
    for scale, size in (("亿", 10**8), ("万", 10**4)):
        if written.endswith(scale):
            return _plain(value / size) + scale
    return _plain(value)


def _cjk_amounts(text: str) -> list[tuple[int, str]]:
    """(position, in digits) of the amounts written in Chinese numerals."""
    out = []
    for m in _CJK_AMOUNT.finditer(text):
        written = m.group()
        if not (written.startswith("百分之") or written.endswith("成")):
            if not any(ch in "十百千万亿点" for ch in written):
                continue  # 三年, 一个, 二〇二五: a measure word or a year, not an amount
            if text[m.end() : m.end() + 1] in ("月", "日", "号", "周", "季"):
                continue  # 十二月, 三十一日: a date
        out.append((m.start(), _cjk_amount(written)))
    return out


def _amounts(text: str) -> list[str]:
    """Amounts in ``text`` (periods already removed), in order of appearance."""
    found = [(m.start(), m.group()) for m in _NUMBER.finditer(text)]
    if not text.isascii():
        found += _cjk_amounts(text)
        found.sort()
    return [written for _, written in found]


def _has_number(text: str) -> bool:
    if text.isascii():  # (str.isdigit of an ASCII character: 0-9, as has_digit reads them)
        return has_digit(text)
    return any(ch.isdigit() for ch in text) or any(ch in _CJK_DIGIT_CHARS for ch in text)


def _read(text: str, periods: re.Pattern[str]) -> tuple[str, tuple[str, ...]]:
    """``text`` as read (full-width letters and digits folded) and its amounts outside
    periods and ordinals, kept per distinct text: the period and ordinal patterns cost
    ~25 µs on a one-line refusal, and refusals are often the same words case after case."""
    kept = _READS.get(text)
    if kept is not None and kept[0] is periods:
        return kept[1]
    read = text
    # Full-width digits and letters (２０２５年, ＦＹ２０２５, Ｑ１) are read as ASCII first, so a
    # period written in them is a period; amounts are reported in that folded form (５亿 → 5亿).
    # Only letters, digits and number signs: a Chinese comma stays one (数据，2024年).
    if not read.isascii():
        read = _WIDE_GROUP.sub(",", read).translate(_WIDE_ALNUM)  # １，２００亿 → 1,200亿
    found = (read, tuple(_amounts(_no_ordinals(periods.sub(" ", read)))))
    if len(_READS) >= _READS_MAX:
        _READS.clear()  # bounded: distinct refusals are not all kept
    _READS[text] = (periods, found)
    return found


_READS: dict[str, tuple[re.Pattern[str], tuple[str, tuple[str, ...]]]] = {}
_READS_MAX = 4096


@lru_cache(maxsize=16)
def compile_periods(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """Periods, and lists and ranges of them, as one pattern.

    Anchored so a period token is never the middle of a longer number.
    """
    body = "|".join(f"(?:{p})" for p in patterns)
    single = rf"(?:{body})"
    # The characters a period can begin with, looked ahead for first: the engine then
    # drops most positions of a text after one class test instead of trying every
    # pattern there (~2x faster over a value clause; the same matches).
    first = first_class(single, re.IGNORECASE)
    ahead = "" if first is None else f"(?={first})"
    # A period that ends in a digit must not be the head of a longer number; one that ends
    # in 年 or 月 may be followed by an amount (2025年5月5亿).
    return re.compile(
        rf"{ahead}(?<![\d.,]){single}(?:{_JOIN}{single})*(?:{_SHORT_YEAR_END})?"
        r"(?:(?<=[^\d.,\s])|(?![\d.,]*\d))",
        re.IGNORECASE,
    )


def detect_fabricated_numbers(
    text: str,
    period_patterns: Sequence[str] = DEFAULT_PERIOD_PATTERNS,
    sources: Iterable[str] = (),
) -> list[str]:
    """Numbers in ``text`` that are neither period tokens nor citation material (doc names,
    ``sources`` among them, locators, index markers), in order of appearance."""
    if not _has_number(text):
        return []
    periods = compile_periods(tuple(period_patterns))
    text, found = _read(text, periods)
    if not found:
        return []  # only periods: no citation can add a number
    numbers = list(found)
    from .claims import may_cite, without_citations  # claims imports this module's periods

    if _LOCATOR_LIST.search(text) is not None:  # slides 3, 5, 6: where it looked
        text = _LOCATOR_LIST.sub(" ", text)
        numbers = _amounts(_no_ordinals(periods.sub(" ", text)))
    if not may_cite(text, sources):
        return numbers
    text = without_citations(text, sources)
    if not _has_number(text):
        return []
    return _amounts(_no_ordinals(periods.sub(" ", text)))

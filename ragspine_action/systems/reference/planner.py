"""Agent mode's planner: a scripted "model" that plans from the tools' results.

It is a second reading of the question, written apart from the tool pipeline's intent
parser (:mod:`intent`) so that a bug in either shows up as a difference between the modes:

1. ``search_docs`` with the question first (the evidence a model would read);
2. ``check_scope``: the orchestrator's shared hard rules (another entity, an unreported
   metric, an opinion, a future period are refused; an incomplete question is asked back).
   This is the only verdict it takes from the shared analysis, and it carries no query;
3. its own reading of the question's tokens — metric, entity, channel and period matched as
   token sequences against the KB's vocabulary, its own period reader (years, Chinese
   numerals, halves, quarters, relative years), its own choice between a number and an
   explanation — then ``reported_periods`` when no period is named, and ``query_metric``
   with the arguments it derived;
4. the answer, written with the shared templates from the tools' results; the passage it
   cites is the top passage of its own search.

The orchestrator checks the final answer against the hard rules whatever the planner did.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Literal

from . import lexicon as lx
from .agent import FinalAnswer, ScopeVerdict, ToolCall, ToolResult
from .answers import (
    Answer,
    ask_first_answer,
    fact_answer,
    narrative_answer,
    not_found_answer,
    refusal_answer,
    unreported_metric_answer,
)
from .intent import Period
from .scope import MetricQuery, ScopeDecision
from .text import to_simplified
from .tools import MetricResult, SearchResult

__all__ = ["Reading", "ScriptedProvider", "read_question"]

RETRIEVAL_K = 5

# --- tokens ------------------------------------------------------------------------------

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_ASCII_TOKEN = re.compile(r"[a-z]+|[0-9]+")
_ZH_DIGIT = dict(zip("零〇○一二三四五六七八九", "00012345678" + "9", strict=True))
_ZH_NUMERAL_YEAR = re.compile(r"二[零〇○][零〇○一二三四五六七八九]{2}")


def _normalise(question: str) -> str:
    """Full-width forms folded (NFKC), traditional characters simplified, years in Chinese
    numerals as digits, lower case."""
    text = to_simplified(unicodedata.normalize("NFKC", question))
    text = _ZH_NUMERAL_YEAR.sub(lambda m: "".join(_ZH_DIGIT[c] for c in m.group(0)), text)
    return text.lower().replace("’", "'")


@dataclass
class _Text:
    """The normalised question as ASCII word tokens (letters and digits apart: "fy2025acme"
    is fy · 2025 · acme) and its Chinese characters; a matched term is consumed."""

    words: list[str]
    chinese: str

    @classmethod
    def of(cls, question: str) -> _Text:
        text = _normalise(question)
        chinese = "".join(ch if _CJK.match(ch) else " " for ch in text)
        return cls(_ASCII_TOKEN.findall(text), chinese)

    def consume(self, term: str) -> bool:
        """Whether the term occurs (a whole word sequence, or Chinese characters); its first
        occurrence is consumed so a shorter term cannot read it again."""
        term = term.lower()
        if _CJK.search(term):
            at = self.chinese.find(term)
            if at < 0:
                return False
            self.chinese = self.chinese[:at] + " " * len(term) + self.chinese[at + len(term) :]
            return True
        seq = _ASCII_TOKEN.findall(term)
        if not seq:
            return False
        n = len(seq)
        for i in range(len(self.words) - n + 1):
            if self.words[i : i + n] == seq:
                self.words[i : i + n] = [""] * n
                return True
        return False

    def has(self, term: str) -> bool:
        probe = _Text(list(self.words), self.chinese)
        return probe.consume(term)


def _first_match(text: _Text, table: dict[str, tuple[str, ...]]) -> list[str]:
    """Canonical names whose terms occur, longest terms first (each consumed)."""
    pairs = sorted(
        ((term, name) for name, terms in table.items() for term in terms),
        key=lambda p: len(p[0]),
        reverse=True,
    )
    found: list[str] = []
    for term, name in pairs:
        while text.consume(term):
            if name not in found:
                found.append(name)
    return found


# --- the planner's own cues --------------------------------------------------------------

# A number is asked for.
_NUMBER_CUES = (
    "多少", "几何", "数值", "金额", "多高", "是几", "为多少",
    "how much", "how many", "how high", "what was", "what is the value", "what were",
    "value", "amount", "figure", "level of",
)  # fmt: skip
# An explanation is asked for.
_EXPLAIN_CUES = (
    "为什么", "为何", "原因", "驱动", "带动", "因素", "解释", "影响", "如何", "怎样", "怎么",
    "why", "what drove", "drove", "drive", "driven", "drivers", "driver", "explain",
    "explains", "reason", "reasons", "behind", "affect", "affected", "impact", "how did",
    "how does", "how do", "how has", "how is", "how are", "how will", "how can",
    "how should", "recognised", "recognized", "calculated", "measured", "导致", "得益于",
    "due to", "led to", "contributed", "attribute", "attributes", "attributed", "effect",
    "effects", "来源", "来自", "归因", "归功于", "source of", "sources of", "哪些", "what kind",
    "what type", "什么样", "helped", "lifted", "boosted", "supported", "thanks to",
    "benefited", "keeps", "kept", "reflect", "reflects", "反映", "好处", "坏处", "作用", "意义",
    "靠什么", "靠的是", "benefit", "benefits", "达标", "符合", "什么收入", "什么利润", "哪种收入",
    "报告什么", "drives", "cause", "causes", "caused", "come from", "came from", "comes from",
)  # fmt: skip
# Growth is told by the documents: with a number cue, the figure and the passage.
_GROWTH_WORDS = (
    "grow", "grew", "growth", "grown", "increase", "increased", "rise", "rose", "增长", "增幅",
    "增加", "上升",
)  # fmt: skip
# A definition is asked for.
_DEFINE_CUES = (
    "定义", "是指", "什么是", "含义", "口径是", "definition", "define", "defined",
    "what does", "meaning", "mean", "means", "exclude", "excludes", "excluded", "excluding",
    "include", "includes", "included", "不包括", "包括", "包含", "关系", "relationship",
)  # fmt: skip
# Topics that contain a metric word but are not the metric ("profit margin", 利率).
_NOT_A_METRIC = ("利润率", "利率", "费用率", "收入增长率", "profit margin", "margin", "margins")
# Words after which "how did X perform" is about the figures, still without naming one.

# --- periods -----------------------------------------------------------------------------

_RELATIVE_YEARS = (
    ("大前年", -3), ("the year before last", -2), ("two years ago", -2), ("前年", -2),
    ("上一个财年", -1), ("上个财年", -1), ("上一财年", -1), ("上财年", -1), ("上一年", -1),
    ("去年", -1), ("上年", -1), ("last financial year", -1), ("last fiscal year", -1),
    ("last year", -1), ("previous year", -1), ("prior year", -1), ("本财年", 0), ("今年", 0),
    ("本年", 0), ("this year", 0), ("current year", 0), ("明年", 1), ("next year", 1),
)  # fmt: skip
_HALF_MARKS = (
    ("上半年", "H1"), ("下半年", "H2"), ("前六个月", "H1"), ("后六个月", "H2"),
    ("一至六月", "H1"), ("七至十二月", "H2"), ("中期", "H1"), ("半年度", "H1"), ("年中", "H1"),
    ("first half", "H1"), ("1st half", "H1"), ("second half", "H2"), ("2nd half", "H2"),
    ("six months", "H1"), ("six month", "H1"), ("half year", "H1"), ("interim", "H1"),
    ("h1", "H1"), ("1h", "H1"), ("h2", "H2"), ("2h", "H2"), ("hy", "H1"),
    ("首六个月", "H1"), ("六个月", "H1"),
)  # fmt: skip
# A period ending 30 June is the first half ("the period ended 30 June 2024", 截至2024年6月30日止).
_JUNE_END = re.compile(r"6\s*月\s*30\s*日|30(?:th)?\s+june|june\s+30")
_QUARTER_MARKS = (
    ("第一季度", "Q1"), ("第二季度", "Q2"), ("第三季度", "Q3"), ("第四季度", "Q4"),
    ("一季度", "Q1"), ("二季度", "Q2"), ("三季度", "Q3"), ("四季度", "Q4"),
    ("first quarter", "Q1"), ("second quarter", "Q2"), ("third quarter", "Q3"),
    ("fourth quarter", "Q4"), ("1st quarter", "Q1"), ("2nd quarter", "Q2"),
    ("3rd quarter", "Q3"), ("4th quarter", "Q4"),
    ("q1", "Q1"), ("q2", "Q2"), ("q3", "Q3"), ("q4", "Q4"),
    ("1q", "Q1"), ("2q", "Q2"), ("3q", "Q3"), ("4q", "Q4"),
)  # fmt: skip
_LATEST = re.compile(
    r"(?:最新|最近)(?:一个|一)?(?:财年|财政年度|年度|全年)|"
    r"(?:latest|most\s+recent)\s+(?:full\s+year|financial\s+year|fiscal\s+year|year)"
)
_MONTH_RANGE = re.compile(r"(?<!\d)([17])\s*[-至到~—]\s*(6|12)\s*月")
_YEAR = re.compile(r"(?<!\d)(20\d{2})(?!\d)")
_SHORT_YEAR = re.compile(r"(?:fy\s*'?|'|(?<=[hq][1-4])\s*|(?<=[1-4][hq])\s*)(\d{2})(?!\d)")


@dataclass(frozen=True)
class PeriodReading:
    """The period the question names: ``year`` None when only a half/quarter or nothing."""

    kind: str  # FY, H1, H2, Q1..Q4
    year: int | None
    latest: bool = False
    named: bool = True  # False: the question names no period at all


def read_period(question: str, reference_date: date) -> PeriodReading:
    """Years, relative years, halves, quarters and "latest", from the normalised text."""
    text = _normalise(question)
    words = _Text.of(question)
    kind = "FY"
    month = _MONTH_RANGE.search(text)
    if month is not None:
        kind = "H1" if month.group(1) == "1" else "H2"
        text = text[: month.start()] + " " + text[month.end() :]
    else:
        for mark, k in (*_QUARTER_MARKS, *_HALF_MARKS):
            if words.has(mark):
                kind = k
                break
        if kind == "FY" and _JUNE_END.search(text) is not None:
            kind = "H1"
    text = text.replace("-", " ")
    year: int | None = None
    for mark, offset in _RELATIVE_YEARS:
        if words.has(mark):
            year = reference_date.year + offset
            break
    if year is None:
        full = _YEAR.search(text)
        short = _SHORT_YEAR.search(text)
        if full is not None:
            year = int(full.group(1))
        elif short is not None:
            year = 2000 + int(short.group(1))
    latest = year is None and _LATEST.search(text) is not None
    named = year is not None or kind != "FY" or latest
    return PeriodReading(kind, year, latest, named)


# --- the reading -------------------------------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """What the planner makes of a question, by its own rules."""

    language: Literal["zh", "en"]
    metric: str | None
    entity: str | None  # None: not named (the group is assumed)
    channel: str
    period: PeriodReading
    wants_number: bool
    wants_explanation: bool


@lru_cache(maxsize=1024)
def read_question(question: str, reference_date: date) -> Reading:
    text = _Text.of(question)
    for term in _NOT_A_METRIC:
        while text.consume(term):
            pass
    metrics = _first_match(text, lx.METRIC_TERMS)
    entities = _first_match(text, lx.ENTITY_TERMS)
    if not entities and text.has("acme"):
        entities = ["ACME_GROUP"]
    unknown = [t for t in lx.UNKNOWN_CHANNEL_TERMS if text.has(t)]
    channels = _first_match(text, lx.CHANNEL_TERMS)
    channel = unknown[0] if unknown else channels[0] if channels else "TOTAL"
    full = _Text.of(question)
    explain = any(full.has(c) for c in _EXPLAIN_CUES)
    growth = any(full.has(c) for c in _GROWTH_WORDS)
    define = any(full.has(c) for c in _DEFINE_CUES)
    number = any(full.has(c) for c in _NUMBER_CUES)
    period = read_period(question, reference_date)
    metric = metrics[0] if metrics else None
    if metric is None:
        wants_number = False
    elif number:
        wants_number = not (define and not explain)  # "what does ROE mean" has no number
    else:
        wants_number = not explain and not define  # "HK ROE FY2024": the figure itself
    return Reading(
        language="zh" if _CJK.search(question) else "en",
        metric=metric,
        entity=entities[0] if entities else None,
        channel=channel,
        period=period,
        wants_number=wants_number,
        wants_explanation=explain or define or metric is None or (growth and number),
    )


_CLAUSES = re.compile(r"[？?，,；;。]|(?<![a-z])and(?![a-z])")


def explanation_query(question: str, reading: Reading) -> str:
    """What to search for the explanation of a figure: the clauses that ask why, with the
    entity's and the metric's names (the figure itself comes from the fact table)."""
    clauses = [c for c in _CLAUSES.split(_normalise(question)) if c.strip()]
    asking = [c for c in clauses if any(_Text.of(c).has(cue) for cue in _EXPLAIN_CUES)]
    words = asking or clauses
    if reading.entity is not None:
        words.append(lx.ENTITY_SEARCH_TERMS.get(reading.entity, ""))
    if reading.metric is not None:
        words.append(lx.METRIC_SEARCH_TERMS.get(reading.metric, ""))
    return " ".join(w for w in words if w)


# --- the provider ------------------------------------------------------------------------


def _latest(labels: Sequence[str], kind: str, reference_date: date) -> Period | None:
    periods = []
    for label in labels:
        period = (
            Period(int(label[2:]), "FY")
            if label.startswith("FY")
            else Period(int(label[:4]), label[4:])
        )
        if period.kind == kind and period.end <= reference_date:
            periods.append(period)
    return max(periods) if periods else None


def _final(answer: Answer) -> FinalAnswer:
    return FinalAnswer(answer.text, answer.clarification, answer.refused, answer.value, answer.unit)


def _type_of(kind: str) -> str:
    return {"F": "FY", "H": "HY", "Q": "Q"}[kind[0]]


class ScriptedProvider:
    """Search, check the hard rules, read the question, look the figure up, answer."""

    def next_step(
        self, question: str, reference_date: date | None, transcript: Sequence[ToolResult]
    ) -> ToolCall | FinalAnswer:
        ref = reference_date or date.today()
        outputs = {r.call.name: r.output for r in transcript if r.error is None}
        search = outputs.get("search_docs")
        if not isinstance(search, SearchResult):
            return ToolCall("search_docs", {"query": question, "k": RETRIEVAL_K})
        verdict = outputs.get("check_scope")
        if not isinstance(verdict, ScopeVerdict):
            return ToolCall("check_scope", {"question": question})
        reading = read_question(question, ref)
        lang = reading.language
        if verdict.decision is not None and verdict.decision.action == "refuse":
            return _final(refusal_answer(verdict.decision, lang))
        if verdict.decision is not None:
            return _final(ask_first_answer(verdict.decision, lang))
        if verdict.unreported_metric is not None:
            return _final(unreported_metric_answer(verdict.unreported_metric, lang))
        needs_text = not reading.wants_number or reading.wants_explanation
        if needs_text and (reading.metric is not None or reading.entity is not None):
            searches = [r.output for r in transcript if isinstance(r.output, SearchResult)]
            if len(searches) < 2:  # a second search, focused on what the question is about
                focused = explanation_query(question, reading)
                return ToolCall("search_docs", {"query": focused, "k": RETRIEVAL_K})
            search = searches[-1]
        narrative = narrative_answer(search, lang)
        if not reading.wants_number or reading.metric is None:
            return _final(narrative)
        period: Period | None = None
        if reading.period.year is not None:
            period = Period(reading.period.year, reading.period.kind)
        else:
            labels = outputs.get("reported_periods")
            if not isinstance(labels, list):
                kind = _type_of(reading.period.kind)
                return ToolCall("reported_periods", {"period_type": kind})
            period = _latest(labels, reading.period.kind, ref)
            if period is None:
                return FinalAnswer(
                    "在参考日期之前没有已披露的期间，因此不作回答。"
                    if lang == "zh"
                    else "No period had been reported by the reference date, so this is not answered.",
                    refused=True,
                )
        query = MetricQuery(reading.metric, reading.entity or "ACME_GROUP", period, reading.channel)
        result = outputs.get("query_metric")
        if not isinstance(result, MetricResult):
            args = {
                "metric": query.metric,
                "entity": query.entity,
                "period": query.period,
                "channel": query.channel,
            }
            return ToolCall("query_metric", args)
        explanation = narrative if reading.wants_explanation and not narrative.refused else None
        if result.status != "found":
            return _final(explanation or not_found_answer(result, lang))
        assumed = tuple(
            name
            for name, flag in (
                ("entity", reading.entity is None),
                ("period", reading.period.year is None and not reading.period.latest),
            )
            if flag
        )
        decision = ScopeDecision(
            "query", "answer_with_assumptions" if assumed else "none", query, assumed
        )
        return _final(fact_answer(result, decision, lang, explanation))

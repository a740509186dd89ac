"""Answer texts and outcome fields for every path, in the question's language.

Rules kept here so both modes share them: a found value cites ``doc · locator``; a refusal
says what was not found and carries no digits except period labels (FY2030, 2025Q1); a
narrative answer is extractive (sentences of the retrieved passage), so every claim is in
the contexts it returns.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...golden.models import ClarificationMode, SourceRef
from ...outcomes.model import Outcome
from .kb import Passage
from .lexicon import CHANNEL_NAMES, ENTITY_NAMES, METRIC_NAMES
from .ranking import WeightedConcept, sentence_has
from .scope import MetricQuery, ScopeDecision
from .text import format_number, retrieval_tokens, split_sentences
from .tools import MetricResult, SearchResult

__all__ = [
    "Answer",
    "ask_first_answer",
    "fact_answer",
    "narrative_answer",
    "not_found_answer",
    "passage_evidence",
    "refusal_answer",
    "unreported_metric_answer",
]

MAX_ANSWER_SENTENCES = 3
MAX_CONTEXTS = 3
# A sentence is part of the answer when it carries at least this share of the best
# sentence's concept weight.
SENTENCE_SHARE = 0.3
_BACK_REFERENCE = re.compile(
    r"因此|因而|由此|相应|该|这|为应对|上述|(?<![A-Za-z])(?:therefore|thus|hence|as a result|"
    r"this|these|such)(?![A-Za-z])",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Answer:
    """Everything an outcome carries except the case id (and latency, left out for determinism)."""

    text: str
    clarification: ClarificationMode = "none"
    refused: bool = False
    value: float | None = None
    unit: str | None = None
    source: SourceRef | None = None
    sources: tuple[SourceRef, ...] = ()
    contexts: tuple[str, ...] = field(default=())

    def to_outcome(self, case_id: str) -> Outcome:
        return Outcome(
            id=case_id,
            answer=self.text,
            clarification=self.clarification,
            refused=self.refused,
            value=self.value,
            unit=self.unit,
            source=self.source,
            sources=list(self.sources),
            contexts=list(self.contexts),
        )


def _zh(lang: str) -> bool:
    return lang == "zh"


def _cite(label: str, lang: str) -> str:
    return f"（来源：{label}）" if _zh(lang) else f" (source: {label})"


def _metric_name(metric: str, lang: str) -> str:
    names = METRIC_NAMES.get(metric)
    return (names[0] if _zh(lang) else names[1]) if names else metric


def _entity_name(entity: str, lang: str) -> str:
    names = ENTITY_NAMES.get(entity, (entity, entity))
    return names[0] if _zh(lang) else names[1]


def _channel_name(channel: str, lang: str) -> str:
    names = CHANNEL_NAMES.get(channel)
    return (names[0] if _zh(lang) else names[1]) if names else channel


def _subject(query: MetricQuery, lang: str, *, period: str | None = None) -> str:
    """ "ACME香港（ACME_HK）FY2025代理渠道收入" / "ACME Hong Kong (ACME_HK) revenue, agency channel, FY2025"."""
    entity, metric = _entity_name(query.entity, lang), _metric_name(query.metric, lang)
    channel = _channel_name(query.channel, lang)
    period = query.period.label if period is None else period
    if _zh(lang):
        return f"{entity}{period}{channel}{metric}"
    channel_part = f", {channel}," if channel else ""
    return f"{entity} {metric}{channel_part} for {period}"


def fact_sentence(result: MetricResult, lang: str) -> str:
    """The value statement, also used as the fact's context (so it is grounded verbatim)."""
    assert result.fact is not None and result.value is not None
    value = f"{format_number(result.value)} {result.unit}"
    raw = f"{format_number(result.fact.value)} {result.fact.unit}"
    if _zh(lang):
        note = f"（原表数值为{raw}）" if result.unit != result.fact.unit else ""
        return f"{_subject(result.query, lang)}为{value}{note}"
    note = f" (reported as {raw})" if result.unit != result.fact.unit else ""
    return f"{_subject(result.query, lang)} was {value}{note}"


def _assumption_text(decision: ScopeDecision, lang: str) -> str:
    if not decision.assumptions or decision.query is None:
        return ""
    q = decision.query
    if _zh(lang):
        parts = {
            "entity": f"未指明主体，按{_entity_name(q.entity, lang)}口径",
            "period": f"未指明期间，按最新已披露期间{q.period.label}",
        }
        return "假设：" + "；".join(parts[a] for a in decision.assumptions) + "。"
    parts = {
        "entity": f"no entity was named, so {_entity_name(q.entity, lang)} is assumed",
        "period": f"no period was named, so the latest reported period {q.period.label} is assumed",
    }
    return "Assumptions: " + "; ".join(parts[a] for a in decision.assumptions) + ". "


def fact_answer(
    result: MetricResult, decision: ScopeDecision, lang: str, narrative: Answer | None = None
) -> Answer:
    """A found value, cited; a composite question appends its narrative answer."""
    assert result.fact is not None
    label = SourceRef(doc=result.fact.doc, locator=result.fact.locator)
    sentence = fact_sentence(result, lang)
    end = "。" if _zh(lang) else "."
    text = _assumption_text(decision, lang) + sentence + _cite(label.label(), lang) + end
    context = f"{label.label()}: {sentence}{end}"
    sources: tuple[SourceRef, ...] = (label,)
    contexts: tuple[str, ...] = (context,)
    if narrative is not None:
        text = f"{text}{'' if _zh(lang) else ' '}{narrative.text}"
        sources += narrative.sources
        contexts += narrative.contexts
    return Answer(
        text,
        decision.clarification,
        value=result.value,
        unit=result.unit,
        source=label,
        sources=sources,
        contexts=contexts,
    )


def _passage_context(p: Passage) -> str:
    return f"来源 source: {p.label()} | {p.heading} | {p.text}"


def _best_sentences(
    passage: Passage, query_tokens: set[str], concepts: Sequence[WeightedConcept] = ()
) -> list[str]:
    """The sentences that carry the question's concepts: each sentence scores the weights
    of the concepts it holds, and those within :data:`SENTENCE_SHARE` of the best are kept
    (at most three, in passage order), so "what is the intervention level" is answered with
    the sentence on 监管干预水平, not the whole page. Without concepts (or when no sentence
    holds one), the token rule: a term found in fewer of the passage's sentences weighs
    more (an idf within the passage)."""
    sentences = split_sentences(passage.text)
    if concepts:
        scores = [
            sum(weight for surfaces, weight in concepts if sentence_has(s, surfaces))
            for s in sentences
        ]
        best = max(scores, default=0.0)
        if best > 0:
            keep = {i for i, score in enumerate(scores) if score >= SENTENCE_SHARE * best}
            # a kept sentence that refers back ("因此下降", "is therefore smoother", 该规定)
            # needs the sentence it refers to: that one says why
            for i in sorted(keep, reverse=True):
                while i > 0 and i - 1 not in keep and _BACK_REFERENCE.search(sentences[i]):
                    keep.add(i - 1)
                    i -= 1
            order = sorted(keep, key=lambda i: (-scores[i], i))[:MAX_ANSWER_SENTENCES]
            return [sentences[i] for i in sorted(order)]
    token_sets = [set(retrieval_tokens(s)) & query_tokens for s in sentences]
    df = {t: sum(1 for ts in token_sets if t in ts) for t in query_tokens}
    weights = [sum(1.0 / df[t] for t in ts) for ts in token_sets]
    scored = [(-round(w, 9), i) for i, w in enumerate(weights)]
    chosen = sorted(i for _, i in sorted(scored)[:MAX_ANSWER_SENTENCES])
    return [sentences[i] for i in chosen]


def passage_evidence(passages: Sequence[Passage]) -> tuple[tuple[SourceRef, ...], tuple[str, ...]]:
    """Ranked sources (every hit) and contexts (the top passages' texts) of a search."""
    refs = tuple(SourceRef(doc=p.doc, locator=p.locator) for p in passages)
    return refs, tuple(_passage_context(p) for p in passages[:MAX_CONTEXTS])


def _join_sentences(sentences: list[str]) -> str:
    """Chinese sentences run on; a sentence ending in ASCII punctuation is followed by a space."""
    out = ""
    for sentence in sentences:
        out += (" " if out and out[-1].isascii() else "") + sentence
    return out


def narrative_answer(search: SearchResult, lang: str) -> Answer:
    """Extractive: the passage sentences that best match the question, with the citation."""
    passages = search.passages
    if not passages:
        text = (
            "知识库的文件中没有找到与该问题相关的内容，因此不作回答。"
            if _zh(lang)
            else "No document in the knowledge base covers this question, so it is not answered."
        )
        return Answer(text, refused=True)
    top = passages[0]
    query_tokens = set(retrieval_tokens(search.expanded, drop_stop=True))
    chosen = _best_sentences(top, query_tokens, search.concepts)
    body = _join_sentences(chosen)
    text = f"{body}{_cite(top.label(), lang)}"
    refs, contexts = passage_evidence(passages)
    return Answer(text, sources=refs, contexts=contexts)


# Refusals carry no digit, not even a period label: "no number in a refusal" is then
# checkable by anyone with a regular expression, and the question already names the period.
_ASKED_PERIOD = {"zh": "所问期间", "en": "the period asked about"}
_NOT_FOUND_ZH = {
    "metric_missing": "知识库没有{entity}的{metric}数据（该主体未披露此指标）",
    "period_missing": "知识库没有所问期间的数据（该期间未单独披露），因此找不到{subject}",
    "channel_missing": "知识库没有{metric}按“{channel}”划分的数据，因此找不到{subject}",
    "combination": "知识库中找不到{subject}",
}
_NOT_FOUND_EN = {
    "metric_missing": "The knowledge base has no {metric} for {entity} (the entity does not disclose it)",
    "period_missing": "The knowledge base has no figures for the period asked about (it is not reported separately), so {subject} was not found",
    "channel_missing": "The knowledge base has no {metric} broken down by the '{channel}' channel, so {subject} was not found",
    "combination": "The knowledge base does not contain {subject}",
}


def unreported_metric_answer(metric: str, lang: str) -> Answer:
    """A metric the KB does not report: refused, naming the metrics it does report (no
    substitution, no estimate)."""
    reported = ("、" if _zh(lang) else ", ").join(_metric_name(m, lang) for m in METRIC_NAMES)
    asked = ("人数" if _zh(lang) else "a count") if metric == "count" else metric
    text = (
        f"知识库中没有“{asked}”这一指标（知识库只报告：{reported}），无法回答，也不会估算或替换为其他指标。"
        if _zh(lang)
        else f"'{asked}' is not a metric in the knowledge base (it reports only: {reported}), so it cannot be answered, estimated or replaced by another metric."
    )
    return Answer(text, "none", refused=True)


def not_found_answer(result: MetricResult, lang: str) -> Answer:
    """A refusal stating exactly what was not found, with no number but period labels."""
    q = result.query
    if result.status == "unrecognised":
        return unreported_metric_answer(q.metric, lang)
    asked = _ASKED_PERIOD["zh" if _zh(lang) else "en"]
    fields = {
        "entity": _entity_name(q.entity, lang),
        "metric": _metric_name(q.metric, lang),
        "channel": _channel_name(q.channel, lang),
        "subject": _subject(q, lang, period=asked),
    }
    if _zh(lang):
        text = _NOT_FOUND_ZH[result.reason].format(**fields) + "，不作回答，也不会估算。"
    else:
        text = _NOT_FOUND_EN[result.reason].format(**fields) + "; no figure is given or estimated."
    return Answer(text, "none", refused=True)


def refusal_answer(decision: ScopeDecision, lang: str) -> Answer:
    """Refusals decided before any lookup: competitor, future period, nothing reported yet."""
    detail = "、".join(decision.detail) if _zh(lang) else ", ".join(decision.detail)
    if decision.reason == "competitor":
        text = (
            f"{detail}不在ACME知识库的范围内（仅涵盖ACME集团、香港及内地业务），因此不作回答。"
            if _zh(lang)
            else f"{detail} is outside the ACME knowledge base (it covers only ACME Group, Hong Kong and Mainland China), so this is not answered."
        )
    elif decision.reason == "opinion":
        text = (
            "知识库只收录ACME已披露的事实，不提供观点、预测或投资建议，因此不作回答。"
            if _zh(lang)
            else "The knowledge base holds ACME's reported facts only; it gives no opinions, forecasts or investment advice, so this is not answered."
        )
    elif decision.reason == "future_period":
        text = (
            "所问期间尚未结束或尚未披露，知识库中没有该期间的数据，不作预测。"
            if _zh(lang)
            else "The period asked about has not been reported yet, so there is no figure for it and none is forecast."
        )
    else:
        text = (
            "在参考日期之前没有已披露的期间，因此不作回答。"
            if _zh(lang)
            else "No period had been reported by the reference date, so this is not answered."
        )
    return Answer(text, "none", refused=True)


def ask_first_answer(decision: ScopeDecision, lang: str) -> Answer:
    """A clarifying question: which metric, entity, period or channel is meant."""
    zh = _zh(lang)
    sep = "、" if zh else ", "
    if decision.reason == "many_entities":
        names = sep.join(_entity_name(e, lang) for e in decision.detail)
        text = (
            f"您的问题涉及多个主体（{names}），请问要查询哪一个？"
            if zh
            else f"The question names several entities ({names}); which one should be answered?"
        )
    elif decision.reason in ("many_metrics", "many_periods", "many_channels"):
        names = sep.join(_metric_name(d, lang) for d in decision.detail)
        text = (
            f"您的问题包含多个可选项（{names}），请问要查询哪一个？"
            if zh
            else f"The question names several options ({names}); which one should be answered?"
        )
    else:
        options = sep.join(_metric_name(m, lang) for m in METRIC_NAMES)
        text = (
            f"请问您想查询哪个指标：{options}？" if zh else f"Which metric do you mean: {options}?"
        )
    return Answer(text, "ask_first")

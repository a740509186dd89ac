"""Bilingual aliases: a claim that writes a term in the other language of its contexts.

RAG answers over bilingual material mix the languages: ``ACME 香港 FY2025 revenue 为 USD
1,702 million，同比 up 12.4%`` over an English passage that says "ACME HK revenue … year on
year", or ``Management did not separately disclose Mainland ROE because …`` over a Chinese
one. A word judge sees half the words missing. Before judging, each term of a small built-in
finance glossary that the claim writes in one language and the contexts only in the other
is written as the contexts write it (香港 → HK where the contexts say HK and never 香港;
mainland → 内地 where they say 内地). Nothing else changes: numbers, negation and direction
are judged on the rewritten claim as on any other (a translated "down" is still 下降 where
the contexts say 增长). A term the contexts write in the claim's own language is left alone,
and a claim in one language over contexts in the same language is never touched.

The table is precomputed into two patterns (Chinese terms, English phrases, longest first);
a claim costs one search per direction that can apply.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["align"]

# Chinese term → its English writings (the first the contexts use is taken).
_GLOSSARY: dict[str, tuple[str, ...]] = {
    "中国香港": ("hong kong", "hk"),
    "香港": ("hong kong", "hk"),
    "中国内地": ("mainland china", "mainland"),
    "内地": ("mainland",),
    "新加坡": ("singapore",),
    "澳门": ("macau", "macao"),
    "集团": ("group",),
    "同比": ("year on year", "year-on-year", "yoy"),
    "环比": ("quarter on quarter", "qoq"),
    "营业收入": ("revenue",),
    "收入": ("revenue", "revenues"),
    "营运利润": ("operating profit",),
    "税后营运利润": ("operating profit after tax",),
    "利润": ("profit", "profits"),
    "新业务价值": ("new business value", "value of new business", "nbv", "vonb"),
    "新业务": ("new business",),
    "银保渠道": ("bancassurance channel", "bancassurance"),
    "银保": ("bancassurance",),
    "代理渠道": ("agency channel", "agency"),
    "代理人": ("agents", "agent", "agency"),
    "渠道": ("channel", "channels"),
    "保费": ("premiums", "premium"),
    "股息": ("dividend", "dividends"),
    "派息": ("dividend", "dividends"),
    "偿付能力": ("solvency",),
    "资本": ("capital",),
    "监管": ("regulatory", "regulation", "regulator"),
    "制度": ("regime",),
    "子公司": ("subsidiary",),
    "管理层": ("management",),
    "披露": ("disclose", "disclosed", "disclosure"),
    "单独": ("separately",),
    "业务": ("business",),
    "增长": ("up", "growth", "grew", "rose", "increased"),
    "上升": ("up", "rose", "increased"),
    "下降": ("down", "fell", "declined", "decreased"),
    "人民币": ("rmb", "cny"),
    "美元": ("usd",),
    "港元": ("hkd",),
    "百万": ("million",),
    "股本回报率": ("return on equity", "roe"),
    "内含价值": ("embedded value",),
    "合同服务边际": ("contractual service margin", "csm"),
    "风险": ("risk",),
    "利率": ("interest rate", "interest rates"),
    "投资": ("investment", "investments"),
    "客户": ("customers", "customer"),
    "产品": ("products", "product"),
    "销售": ("sales",),
    "贡献": ("contributed", "contribution"),
    "带动": ("driven by",),
    "推动": ("driven by",),
    "年度": ("annual",),
    "为": ("was", "were", "is"),
}
_DIRECTION_TERMS = frozenset(["增长", "上升", "下降"])
# English phrase → the Chinese terms that list it (the first the contexts use is taken).
_REVERSE: dict[str, list[str]] = {}
for _zh, _ens in _GLOSSARY.items():
    for _en in _ens:
        if _en not in ("was", "were", "is"):  # function words: never written into Chinese
            _REVERSE.setdefault(_en, []).append(_zh)

_ZH_TERMS = re.compile("|".join(sorted(map(re.escape, _GLOSSARY), key=len, reverse=True)))
_EN_TERMS = re.compile(
    r"(?<![A-Za-z0-9])(?:"
    + "|".join(sorted(map(re.escape, _REVERSE), key=len, reverse=True))
    + r")(?![A-Za-z0-9])",
    re.IGNORECASE,
)
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LETTERS = re.compile(r"[A-Za-z]{2,}")


def _has_word(text: str, phrase: str) -> bool:
    """Whether lower-case ``text`` writes ``phrase`` as a whole word or phrase."""
    start = text.find(phrase)
    while start >= 0:
        end = start + len(phrase)
        if (start == 0 or not text[start - 1].isalnum()) and (
            end == len(text) or not text[end].isalnum()
        ):
            return True
        start = text.find(phrase, start + 1)
    return False


def align(claim: str, contexts: Sequence[str]) -> str:
    """``claim`` with each glossary term written in the contexts' language where the
    contexts write it only in the other one (module docstring); else ``claim`` itself."""
    claim_cjk = not claim.isascii() and _CJK.search(claim) is not None
    claim_en = _LETTERS.search(claim) is not None
    if not claim_cjk and not claim_en:
        return claim
    joined = "\n".join(contexts)
    context_cjk = not joined.isascii() and _CJK.search(joined) is not None
    out = claim
    if claim_cjk and _LETTERS.search(joined) is not None:
        lowered = joined.lower()

        def to_english(m: re.Match[str]) -> str:
            term = m.group()
            if term in joined:
                return term
            for en in _GLOSSARY[term]:
                if _has_word(lowered, en):
                    return f" {en} "
            # A direction is written out even where the contexts use another word for it
            # (增长 over "rose"): direction is compared as direction, not as a word.
            return f" {_GLOSSARY[term][-1]} " if term in _DIRECTION_TERMS else term

        out = _ZH_TERMS.sub(to_english, out)
    if claim_en and context_cjk:
        lowered = joined.lower()

        def to_chinese(m: re.Match[str]) -> str:
            word = m.group()
            if _has_word(lowered, word.lower()):
                return word
            terms = _REVERSE[word.lower()]
            for zh in terms:
                if zh in joined:
                    return f" {zh} "
            return f" {terms[0]} " if terms[0] in _DIRECTION_TERMS else word

        out = _EN_TERMS.sub(to_chinese, out)
    return out

"""Text helpers shared by indexing and querying: one tokenisation, so both sides agree.

Chinese has no spaces, so CJK runs are indexed as overlapping character bigrams (single
characters for one-character runs); ASCII is indexed as lower-cased word runs. SQLite's
FTS5 then ranks the space-joined tokens with bm25.
"""

from __future__ import annotations

import re
from decimal import Decimal

__all__ = [
    "PLURAL",
    "contains_cjk",
    "format_number",
    "fts_query",
    "is_stop_token",
    "literal_spans",
    "one_word",
    "phrase_spans",
    "phrase_words",
    "retrieval_tokens",
    "split_sentences",
    "stem",
    "stem_text",
    "to_simplified",
    "word_spans",
]

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN_RE = re.compile(rf"[{_CJK}]+|[A-Za-z0-9]+")
_CJK_RE = re.compile(rf"[{_CJK}]")
_SENTENCE_RE = re.compile(r"(?<=[。！？!?；])|(?<=\.)\s+(?=\S)")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Question fluff that carries no topic: dropped from retrieval queries only.
_STOP_WORDS = _words(
    """a an the of in on at to for and or is are was were be been what which who whom how
    does do did say says said about tell me please document documents doc file files there
    that this these those with from by under as its it their our we i you any much many
    acme s"""
)
_STOP_BIGRAMS = _words(
    """什么 哪些 是否 如何 怎么 怎样 请问 多少 哪个 哪份 文件 文档 提到 关于 一下 告诉 我们 的是
    是什 么是 了什 有哪 些文 份文 件提 到了 么样 样的 为什 么的"""
)


# --- terms found without a regex ---------------------------------------------------------
# The reference system looks for a few hundred glossary and lexicon terms in each run.
# Compiling a pattern per term was ~10 ms of every bundled run (the re module's compiler is
# Python); a term that is literal words (joined by spaces or hyphens) is found with
# str.find, to the same spans.

_LOWER_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_SEPARATOR = re.compile(r"[\s\-]")
_SEPARATORS = re.compile(r"[\s\-]+")
PLURAL = ("es", "s", "")
"""``(?:e?s)?``'s suffixes in the order the regex tries them (greedy: ``es``, ``s``, none)."""


def one_word(term: str) -> bool:
    """Whether ``term`` has no space or hyphen, which a term's pattern would read as
    ``[\\s\\-]+`` (so only such a term is a literal for :func:`word_spans`)."""
    return bool(term) and _SEPARATOR.search(term) is None


def phrase_words(term: str) -> tuple[str, ...] | None:
    """The words a term's pattern joins with ``[\\s\\-]+`` (``re.split``), or None when
    the term starts or ends with a space or hyphen (or is empty): not words joined."""
    words = _SEPARATORS.split(term)
    return tuple(words) if all(words) else None


def word_spans(text: str, word: str, suffixes: tuple[str, ...] = ("",)) -> list[tuple[int, int]]:
    """The spans ``re.finditer`` gives for ``(?<![a-z0-9])WORD(?:SUFFIX|…)(?![a-z0-9])``
    with ``word`` a literal (escaped) and the suffixes tried in order: a match starts where
    ``word`` occurs after no lower-case letter or digit, takes the first suffix followed by
    none, and the search goes on after it (non-overlapping), else one character further."""
    return phrase_spans(text, (word,), suffixes)


def phrase_spans(
    text: str, words: tuple[str, ...], suffixes: tuple[str, ...] = ("",)
) -> list[tuple[int, int]]:
    """:func:`word_spans` for literal words joined by ``[\\s\\-]+``: between two words, one
    or more whitespace characters (``str.isspace``, which is ``\\s``) or hyphens. Greedy
    and without a choice: the next word starts with neither, so the run is taken whole."""
    if not words or not all(words):
        raise ValueError("an empty word matches everywhere")
    first, rest = words[0], words[1:]
    spans: list[tuple[int, int]] = []
    size, start = len(text), 0
    while (at := text.find(first, start)) >= 0:
        start = at + 1
        if at and text[at - 1] in _LOWER_ALNUM:
            continue
        pos = at + len(first)
        for word in rest:
            gap = pos
            while gap < size and (text[gap] == "-" or text[gap].isspace()):
                gap += 1
            if gap == pos or not text.startswith(word, gap):
                break
            pos = gap + len(word)
        else:
            for suffix in suffixes:
                end = pos + len(suffix)
                if text.startswith(suffix, pos) and (end == size or text[end] not in _LOWER_ALNUM):
                    spans.append((at, end))
                    start = end
                    break
    return spans


def literal_spans(text: str, literal: str) -> list[tuple[int, int]]:
    """The spans ``re.finditer(re.escape(literal), text)`` gives (non-overlapping)."""
    if not literal:
        raise ValueError("an empty literal matches everywhere")
    spans: list[tuple[int, int]] = []
    start = 0
    while (at := text.find(literal, start)) >= 0:
        start = at + len(literal)
        spans.append((at, start))
    return spans


def contains_cjk(text: str) -> bool:
    """Whether a text is (at least partly) Chinese: picks the answer language."""
    return _CJK_RE.search(text) is not None


def is_stop_token(token: str) -> bool:
    """Whether a retrieval token is question fluff (an English stop word or Chinese bigram)."""
    return token in _STOP_WORDS or token in _STOP_BIGRAMS


def retrieval_tokens(text: str, *, drop_stop: bool = False) -> list[str]:
    """ASCII words (lower-cased) and CJK bigrams, in text order."""
    out: list[str] = []
    for run in _TOKEN_RE.findall(text):
        if _CJK_RE.match(run):
            grams = [run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)]
            out.extend(g for g in grams if not (drop_stop and g in _STOP_BIGRAMS))
        else:
            word = run.lower()
            if not (drop_stop and word in _STOP_WORDS):
                out.append(word)
    return out


def fts_query(tokens: list[str]) -> str:
    """An FTS5 MATCH expression: any of the tokens, each quoted (no operator injection)."""
    unique = list(dict.fromkeys(t for t in tokens if t))
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in unique)


def split_sentences(text: str) -> list[str]:
    """Sentences of a passage; decimal points (8.18) do not end a sentence."""
    return [s.strip() for s in _SENTENCE_RE.split(text) if s.strip()]


def format_number(value: Decimal | float) -> str:
    """Thousands separators, no trailing zeros: 8180 → '8,180', 1412.3 → '1,412.3'."""
    dec = value if isinstance(value, Decimal) else Decimal(repr(value))
    if dec == dec.to_integral_value():
        return f"{int(dec):,}"
    text = f"{dec.normalize():,f}"
    return text


_WORD_RE = re.compile(r"[A-Za-z]+")


def stem(token: str) -> str:
    """A crude, symmetric English stem (rates → rate, reported → report); CJK unchanged."""
    if not token.isascii() or len(token) <= 3:
        return token
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if token.endswith(suffix) and len(token) - len(suffix) >= 3 and not token.endswith("ss"):
            return token[: -len(suffix)] + keep
    return token


def stem_text(text: str) -> str:
    """The text with every English word stemmed (glossary phrases then match plurals)."""
    return _WORD_RE.sub(lambda m: stem(m.group(0).lower()), text)


# Traditional characters (Hong Kong, Taiwan) → the simplified ones the KB is written in:
# 集團 is 集团, 中國人壽 is 中国人寿. Only characters that are never simplified forms
# themselves, so a simplified question is unchanged.
_TRADITIONAL = "團國內潤務銷營運險資產報東權額們麼為長與發當經濟這個說幾時會來對業銀紀戶數據規則監構價負債匯幣風網絡戰點劃計總體聯準環響預訂調費壽誠衛門區華陸單獨沒樣後裡讓還實際續穩縮擴張證認標況兌掛鉤擊壓減輕積極場顧問題員廣創設線視議評論請謝嗎歷審閱應變動態勢優協買賣條紅種類項細節屬頭嚴範圍蓋氣災護隱級財狀餘淨稅億萬圓訊頁簡損達適歸憑臺灣滬雜傳遞僅將專導峽廠絕紹給統維綜緣編練織結纜職聲處號質購貸貿賬贊軟較輔輸轉辦選遺邊釋鎖開閒間關陳隨雙離難電順領頻顯驅驗鬆魯鮮麥齊龍龜啟倉偉備儲兒黨興湯滿漢潛無煙燈爭獎現瑪畢異療盡盤確碼礎禮稱窮競筆築簽約純紙紛組終綠緊縣績繼罰義習聖聞肅脅脫腦臨舉舊藝藥蘇蘭蟲術補裝製複覺覽觀觸討訓記許訴診詞試詢該詳誤誕談諸謀講識讀貝責貨賺賠賽趨跡踐車軍載輪農連週進過違遠遲郵鄉醫錄錢錯鍵鐘鐵閉閣闆陣陰隊階隸雖雞雲靈靜韓頂頓頸飛飯館馬駛騰驚髮鬥鬧魚鳥麗黃齡"
_SIMPLIFIED = "团国内润务销营运险资产报东权额们么为长与发当经济这个说几时会来对业银纪户数据规则监构价负债汇币风网络战点划计总体联准环响预订调费寿诚卫门区华陆单独没样后里让还实际续稳缩扩张证认标况兑挂钩击压减轻积极场顾问题员广创设线视议评论请谢吗历审阅应变动态势优协买卖条红种类项细节属头严范围盖气灾护隐级财状余净税亿万圆讯页简损达适归凭台湾沪杂传递仅将专导峡厂绝绍给统维综缘编练织结缆职声处号质购贷贸账赞软较辅输转办选遗边释锁开闲间关陈随双离难电顺领频显驱验松鲁鲜麦齐龙龟启仓伟备储儿党兴汤满汉潜无烟灯争奖现玛毕异疗尽盘确码础礼称穷竞笔筑签约纯纸纷组终绿紧县绩继罚义习圣闻肃胁脱脑临举旧艺药苏兰虫术补装制复觉览观触讨训记许诉诊词试询该详误诞谈诸谋讲识读贝责货赚赔赛趋迹践车军载轮农连周进过违远迟邮乡医录钱错键钟铁闭阁板阵阴队阶隶虽鸡云灵静韩顶顿颈飞饭馆马驶腾惊发斗闹鱼鸟丽黄龄"
_T2S = str.maketrans(_TRADITIONAL, _SIMPLIFIED)
# Words, after the characters: 甚麼 → 什么, and the Cantonese question words.
_T2S_WORDS = (("甚么", "什么"), ("几多", "多少"), ("嘅", "的"), ("点样", "怎样"), ("边个", "哪个"))


def to_simplified(text: str) -> str:
    """The text with traditional Chinese characters (and 甚麼, 幾多, 嘅) in simplified form."""
    if not _CJK_RE.search(text):
        return text
    text = text.translate(_T2S)
    for old, new in _T2S_WORDS:
        text = text.replace(old, new)
    return text

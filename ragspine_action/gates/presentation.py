"""Presentation sentences: courtesy, preamble and meta lines that assert nothing.

"Let me check the documents.", "I found the following in X:", "Hope this helps!",
"好的，以下是回答。", "注：以上信息摘自检索到的文档。", "Note: this answer is based only on the
provided documents.", "注：以上回答仅基于检索到的资料。" talk about the answer, the question or
the documents, never about the subject. A "Note:"/"注：" label decides nothing: "Note: the
cap was raised to 400 EUR." says something about the subject and is judged. The rule is general rather than a list of
sentences: a sentence whose content words are ALL presentation vocabulary (documents,
sources, found, following, answer, help, hope, 文档, 检索, 知识库, 以下, 回答 …) and that
carries no number is presentation, not a claim. One domain word or one number and the
sentence is judged ("I found that profits will triple." is a claim).
"""

from __future__ import annotations

import re

from .numerals import cjk_numerals, has_digit

__all__ = ["EN_WORDS", "is_presentation"]

# English words that only talk about the answer, the question, the sources or courtesy.
_EN_TEXT = """
    i me my we us our you your it its this that these those the a an and or of in on to
    for from with at by as is are was were be been being am do does did have has had will
    would shall should can could may might must let lets d ll m re s ve
    all some any here there below above following follows next further more detail details
    document documents doc docs source sources file files context contexts passage passages
    material materials record records knowledge base database data result results search
    searched searching retrieved retrieve retrieval provided available relevant given
    information info answer answers answered answering question questions query queries
    response responses reply summary summarise summarize summarised summarized note notes
    found find finding findings look looked looking check checked checking see seen review
    reviewed reviewing read reading consult consulted search went go going through
    help helps helped helping helpful happy glad pleased hope hoped hopes hopefully assist
    assistance sure certainly course absolutely okay ok alright great thanks thank welcome
    please kindly feel free ask asking asked need needed want know let me
    what which who how where when why if whether
    anything something else other others additional
    based only solely exclusively entirely purely strictly generated verify verified original
    rely relies relied drawn derived limited taken reflect reflects reflected supplied
    disclaimer important n b nb not complete incomplete accurate inaccurate exhaustive
    independently policy handbook manual guide deck
    system automatically automated produced contact refer speak individual personal
    own particular specific circumstances situation questions queries
"""
_EN_WORDS = frozenset(_EN_TEXT.split())
# A lower-case ASCII word of a sentence outside these makes it no presentation (claims.py).
EN_WORDS = _EN_WORDS
# Chinese presentation words (longest first when removed) and the function characters
# that may stand between them (的, 了, 是 …): what is left must be nothing.
_ZH_TEXT = """
    文档 文件 资料 材料 检索 搜索 查询 查阅 查找 查看 知识库 数据库 上下文 来源 出处 原文 内容
    信息 资讯 结果 回答 答案 解答 回复 答复 问题 提问 以下 如下 下面 以上 上述 上面 下列 相关
    好的 当然 可以 很高兴 高兴 乐意 荣幸 希望 帮助 帮到 帮忙 有帮助 谢谢 感谢 您好 你好
    摘自 引自 出自 来自 来源于 基于 根据 依据 参考 提供 找到 发现 整理 总结 如 下 为您 为你
    请 注 备注 说明 让我 我来 我们 您 你 我 为 于 是 的 了 到 在 中 这 些 此 及 和 与 如何
    一下 看看 看 查 核实 确认 仅仅 仅 只 均 完全 生成 本 所
    提示 可能 完整 准确 所给 给 不 全部 免责 声明 仅供
    由 系统 自动 以 为准 参阅 咨询 联系 详情 个人 具体 情况 疑问 如有 制度 手册
"""
_ZH_WORDS = sorted(
    _ZH_TEXT.split(),
    key=len,
    reverse=True,
)
_ZH_PATTERN = re.compile("|".join(re.escape(w) for w in _ZH_WORDS))
_ASCII_WORD = re.compile(r"[A-Za-z]+|\d")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def is_presentation(sentence: str) -> bool:
    """Whether ``sentence`` only presents (all words presentation vocabulary, no number)."""
    # Word by word, stopping at the first that is not presentation vocabulary (most
    # sentences: their first content word), before the scan for a digit: either says no.
    words = False
    for m in _ASCII_WORD.finditer(sentence.lower()):
        if m.group() not in _EN_WORDS:
            return False
        words = True
    if has_digit(sentence):
        return False
    if not sentence.isascii():
        if cjk_numerals(sentence):
            return False
        rest = _ZH_PATTERN.sub("", sentence)
        if _CJK.search(rest) is not None:
            return False
    return words or _CJK.search(sentence) is not None

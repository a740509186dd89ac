"""Paraphrase the lexical judge should see as the same words (issue 14, cry wolf FA1).

A faithful answer rewords its context: another inflection or derivation of the same word
(``approval`` for ``approved``, ``submission`` for ``submit``, ``cancellation`` for
``cancelled``), a common synonym of policy and report text (``file`` for ``submit``,
``postpone`` for ``delay``), a light verb that only states a figure (``reached``,
``totalled``). Each word is reduced to a small set of candidate stems, once per distinct
word (cached); two words match when their sets meet, directly or through a synonym group.
Only the word score uses this: numbers, negation, places, names and swaps are judged by
their own rules, so a claim that keeps the words and changes a fact still fails.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["CJK_SYNONYM_GROUPS", "LIGHT_WORDS", "stems", "synonym_stems"]

# Irregular forms written as their base (the base is then stemmed as any word).
_IRREGULAR = {
    "got": "get", "gotten": "get", "gave": "give", "given": "give", "took": "take",
    "taken": "take", "made": "make", "sold": "sell", "bought": "buy", "paid": "pay",
    "kept": "keep", "began": "begin", "begun": "begin", "chose": "choose",
    "chosen": "choose", "held": "hold", "sent": "send", "spent": "spend", "brought": "bring",
    "grew": "grow", "grown": "grow", "growth": "grow", "fell": "fall", "fallen": "fall",
    "rose": "rise", "risen": "rise", "led": "lead", "told": "tell", "found": "find",
    "went": "go", "gone": "go", "came": "come", "wrote": "write", "written": "write",
    "drew": "draw", "drawn": "draw", "withdrew": "withdraw", "withdrawn": "withdraw",
    "lost": "lose", "loss": "lose", "losses": "lose", "sale": "sell", "sales": "sell",
    "understood": "understand", "undertook": "undertake", "ran": "run", "won": "win",
    "met": "meet", "lent": "lend", "dealt": "deal", "meant": "mean", "stood": "stand",
    "thought": "think", "sought": "seek", "taught": "teach", "caught": "catch",
    "usage": "use", "expiry": "expire", "delivery": "deliver", "entry": "enter",
    "analysis": "analyse", "analyses": "analyse",
}  # fmt: skip

_MIN_STEM = 4


def _trim(stem: str) -> str:
    """A stem with a final ``e`` or a doubled consonant dropped (``submitt`` → ``submit``)."""
    if stem.endswith("e") and len(stem) > _MIN_STEM:
        stem = stem[:-1]
    if len(stem) > _MIN_STEM and stem[-1] == stem[-2] and stem[-1] not in "aeiouls":
        stem = stem[:-1]
    if stem.endswith("ll") and len(stem) > _MIN_STEM + 1:
        stem = stem[:-1]  # cancell → cancel (British doubling)
    if stem.endswith("y") and len(stem) > _MIN_STEM:
        stem = stem[:-1] + "i"  # apply, applied → appli
    return stem


def _inflection(word: str) -> str:
    """``word`` without its inflection (-s, -es, -ies, -ed, -ied, -ing)."""
    for end, put in (("ies", "y"), ("ied", "y"), ("ying", "y"), ("ing", ""), ("ed", ""),
                     ("es", ""), ("s", "")):  # fmt: skip
        if word.endswith(end) and len(word) - len(end) + len(put) >= _MIN_STEM:
            if end == "s" and word.endswith(("ss", "us", "is")):
                return word
            return word[: -len(end)] + put
        if end in ("ing", "ed") and word.endswith(end) and len(word) - len(end) == _MIN_STEM - 1:
            root = word[: -len(end)]
            if root[-1] not in "aeiouy":
                return root  # a root of three letters: mixed, mixing → mix; owned → own
    return word


# Derivational endings and what the base may end in instead (nominalisations, adverbs,
# adjectives of the same word). Agent nouns (-er, -or, -ee) are left alone: an employer
# is not an employee, a lessor not a lessee.
_DERIVATIONS = (
    ("ification", ("ify",)),
    ("ication", ("y", "icate")),
    ("isation", ("ise", "ize")),
    ("ization", ("ize", "ise")),
    ("ation", ("ate", "e", "")),
    ("ition", ("", "e", "ite")),
    ("ction", ("ct", "ce")),
    ("ssion", ("t", "ss", "d")),
    ("nsion", ("nd", "nse")),
    ("usion", ("ude",)),
    ("sion", ("de", "d", "se", "s")),
    ("tion", ("te", "t")),
    ("ments", ("",)),
    ("ment", ("",)),
    ("ance", ("", "e")),
    ("ence", ("", "e")),
    ("ancy", ("", "e")),
    ("ency", ("", "e")),
    ("ility", ("le",)),
    ("ity", ("", "e")),
    ("ness", ("",)),
    ("ure", ("", "e")),
    ("ably", ("able",)),
    ("ibly", ("ible",)),
    ("ily", ("y",)),
    ("ly", ("",)),
    ("val", ("ve",)),
    ("wal", ("w",)),
    ("sal", ("se",)),
    ("ntal", ("nt",)),
    ("able", ("", "e")),
    ("ible", ("", "e")),
)


@lru_cache(maxsize=16384)
def base(word: str) -> str:
    """``word`` without its inflection (``directed`` → ``direct``, ``paid`` → ``pay``): the
    first of its ``stems``."""
    if len(word) < _MIN_STEM or not word.isascii() or not word.isalpha():
        return word
    return _inflection(_IRREGULAR.get(word, word))


def stems(word: str) -> frozenset[str]:
    """The candidate stems of an English word (lower case): itself without inflection,
    and without one derivational ending. ``approval`` and ``approved`` share ``approv``;
    ``submission`` and ``submitted`` share ``submit``. Words of fewer than four letters,
    numbers and Chinese are themselves."""
    if len(word) < _MIN_STEM or not word.isascii() or not word.isalpha():
        return frozenset((word,))
    word = _IRREGULAR.get(word, word)
    base = _inflection(word)
    out = {base, _trim(base)}
    if word.endswith(("ed", "es")):
        out.add(word[:-1])  # filed, files: file (a short base keeps its e)
    for end, puts in _DERIVATIONS:
        if base.endswith(end) and len(base) - len(end) >= _MIN_STEM - 1:
            root = base[: -len(end)]
            for put in puts:
                if len(root) + len(put) >= _MIN_STEM - 1:  # payment: pay
                    out.add(_trim(root + put))
            break
    return frozenset(out)


# Common words of policies and reports that say the same thing. Each group is looked up
# by stems, so any inflection or derivation of a member matches (``filed``, ``filing``).
# No antonyms and no members of a closed kind (roles, places, periods): those rules read
# them.
_SYNONYM_GROUPS = (
    ("staff", "employee", "personnel", "worker", "workforce"),
    ("reimburse", "refund", "repay"),
    ("need", "require", "necessary"),
    ("get", "receive", "obtain", "gain", "earn"),
    ("begin", "start", "commence", "launch"),
    ("finish", "complete", "end", "conclude"),
    ("book", "reserve", "reservation"),
    ("limit", "cap", "ceiling", "maximum"),
    ("cost", "price", "fee", "charge", "expense", "expenditure", "spend"),
    ("help", "assist", "support"),
    ("buy", "purchase", "acquire"),
    ("show", "indicate", "reveal", "demonstrate"),
    ("total", "overall", "combined", "aggregate"),
    ("dose", "dosage"),
    ("firm", "company", "business", "organisation", "organization", "enterprise"),
    ("client", "customer"),
    ("talk", "speak", "contact", "reach"),
    ("submit", "file", "lodge", "send", "hand"),
    ("report", "notify", "inform", "tell", "alert"),
    ("approve", "authorise", "authorize", "sanction", "permission", "consent", "sign"),
    ("delay", "postpone", "defer", "push", "reschedule"),
    ("cancel", "terminate", "revoke", "withdraw", "rescind"),
    ("change", "modify", "amend", "alter", "update", "revise"),
    ("lose", "missing", "misplace"),
    ("immediate", "prompt", "straight", "instant"),
    ("quick", "fast", "rapid", "swift"),
    ("main", "primary", "principal", "chief", "major", "mostly", "largely", "mainly"),
    ("big", "large", "significant", "substantial", "considerable"),
    ("small", "minor", "slight", "modest"),
    ("drive", "come", "stem", "result", "attribute", "contribute"),
    ("keep", "retain", "maintain", "preserve", "hold"),
    ("use", "utilise", "utilize", "employ"),
    ("give", "provide", "offer", "grant", "supply"),
    ("allow", "permit", "entitle", "eligible", "enable"),
    ("forbid", "prohibit", "ban", "bar"),
    ("contain", "include", "comprise", "cover"),
    ("check", "verify", "review", "inspect", "examine", "confirm"),
    ("trip", "travel", "journey"),
    ("job", "role", "position", "post"),
    ("pay", "salary", "wage", "remuneration", "compensation"),
    ("holiday", "vacation", "leave"),
    ("rule", "policy", "regulation", "guideline"),
    ("document", "paperwork", "record", "file"),
    ("claim", "request", "application", "apply"),
    ("goal", "target", "objective", "aim"),
    ("plan", "intend", "expect"),
    ("period", "term", "duration", "window"),
    ("yearly", "annual", "annually"),
    ("monthly", "month"),
    ("daily", "day"),
    ("weekly", "week"),
    ("place", "site", "location", "premises"),
    ("everywhere", "anywhere", "throughout"),
    ("asia", "asian"),
    ("europe", "european"),
    ("america", "american"),
    ("africa", "african"),
    ("china", "chinese"),
    ("data", "information", "details"),
    ("hire", "recruit", "appoint", "onboard"),
    ("leave", "exit", "depart", "discharge"),
    ("fix", "repair", "resolve", "remedy"),
    ("mistake", "error", "fault", "defect"),
    ("damage", "harm", "injury"),
    ("stop", "halt", "cease", "suspend", "pause"),
    ("ask", "request", "enquire", "inquire"),
    ("choose", "select", "pick", "opt"),
    ("try", "attempt"),
    ("make", "create", "produce", "generate"),
    ("improve", "enhance", "boost", "strengthen"),
    ("explain", "describe", "outline", "detail"),
    ("remove", "delete", "erase"),
    ("fridge", "refrigerator", "refrigerate"),
    ("discard", "throw", "dispose"),
    ("unused", "leftover", "remaining"),
    ("worse", "worsen", "deteriorate"),
    ("subsequent", "later", "future"),
    ("access", "enter", "entry", "log"),
)


@lru_cache(maxsize=1)
def _group_index() -> dict[str, tuple[frozenset[str], ...]]:
    """Each stem of a group member → the groups (as stem sets) it belongs to."""
    index: dict[str, list[frozenset[str]]] = {}
    for group in _SYNONYM_GROUPS:
        members = frozenset().union(*(stems(w) for w in group))
        for stem in members:
            index.setdefault(stem, []).append(members)
    return {k: tuple(v) for k, v in index.items()}


@lru_cache(maxsize=16384)
def synonym_stems(word: str) -> frozenset[str]:
    """The stems of ``word``'s synonyms (empty when it is in no group)."""
    index = _group_index()
    out: set[str] = set()
    for stem in stems(word):
        for members in index.get(stem, ()):
            out |= members
    return frozenset(out)


# Words that only state or frame a figure, or only tie clauses: they are neither found
# nor missing ("Revenue reached USD 500 million" for "rose … to USD 500 million";
# "within 30 days" for "no later than 30 days after"). What they carry — numbers, bounds,
# order, quantity — the number, polarity and quantifier rules read.
_LIGHT_TEXT = """
    reached reach reaches totalled totaled totalling totaling amounted amounts amounting
    stood stands within during after before until into onto upon across through throughout
    via any each every all whatever whichever only just if unless while both either such same
    well further
    however therefore thus additionally moreover respectively currently also already
"""
LIGHT_WORDS = frozenset(_LIGHT_TEXT.split())


# Chinese words of one meaning (the claim's word is written as the contexts' before it is
# scored): 递交 for 提交, 延后 for 推迟. No antonyms, no members of a closed kind.
CJK_SYNONYM_GROUPS = (
    ("员工", "职工", "雇员"),
    ("报销", "报账"),
    ("享有", "享受", "可获", "获得"),
    ("客户", "顾客"),
    ("企业", "公司"),
    ("预订", "预定"),
    ("提交", "递交", "呈交", "上交", "交回"),
    ("每次", "一次"),
    ("费用", "开支", "支出", "成本"),
    ("上限为", "最高为", "最多为"),
    ("批准", "审批", "核准", "同意", "许可"),
    ("推迟", "延后", "延期", "延迟", "推延"),
    ("取消", "撤销", "撤回"),
    ("通知", "告知", "知会", "联系", "联络"),
    ("遗失", "丢失", "丢"),
    ("立即", "立刻", "马上", "即刻", "尽快"),
    ("来自", "源于", "来源于", "得益于", "受益于"),
    ("开始", "启动"),
    ("完成", "结束"),
    ("推出", "发布"),
    ("修改", "更改", "变更"),
    ("删除", "移除"),
    ("账户", "账号", "帐户", "帐号"),
    ("资料", "材料", "文件"),
    ("提供", "出具"),
    ("使用", "运用"),
    ("每天", "每日", "一日"),
    ("每月", "每个月"),
    ("每周", "每星期"),
    ("收入", "营收"),
    ("期限", "时限"),
    ("规定", "要求"),
    ("处理", "办理"),
    ("查看", "查询"),
    ("首周", "第一周"),
    ("仓库", "仓储"),
    ("退款", "退费", "退还"),
    ("主要", "大部分"),
    ("销售额", "销售"),
    ("公民", "国民"),
    ("禁止", "严禁", "不得", "不准", "不允许"),
    ("丢弃", "扔掉", "丢掉", "弃去"),
    ("剩余", "剩下"),
    ("冰箱", "冰柜"),
    ("解热", "退烧", "退热"),
    ("仅对", "只对"),
    ("仅需", "只需"),
    ("仅限", "只限"),
)

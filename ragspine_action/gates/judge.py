"""Entailment judges for groundedness: is a claim supported by the retrieved contexts?

A judge sits behind the ``Judge`` protocol (the entailment-judge seam): per claim a
verdict, a score and the context sentence it matched (the evidence a reader needs to see
why). Claims come from ``claims.extract_claims``, so every judge sees the same claims.

The default judge is lexical (SPEC §2, §10): offline, deterministic, no model. A claim is
supported when

1. the share of its content words found in the contexts reaches the threshold (default
   0.6; a word also matches its plural/tense variants: supports ~ support ~ supported),
2. every number in it occurs in the contexts, compared as values (1,702 = 1702 = 1702.0,
   40% = 40 %, full-width digits, 5亿 = 500,000,000, 三年 = 3年, twice = 2), and
3. its polarity agrees with the context clause it matches best: a negation (not, no,
   never, without, 不, 没有, 未, 并非, 无 …) or a direction word (rose/fell, 增长/下降,
   allowed/blocked) on one side and not the other is a contradiction.

answer_accuracy (``judge_reference``) applies the same rules with the roles turned round:
the reference answer's sentences are the claims and the answer is the context, so a
wrong number or a flipped negation fails even when most words are shared.

Context texts are prepared once per distinct text (cached), so a passage that many cases
retrieve is tokenised once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import cache, lru_cache
from typing import Any, NamedTuple, Protocol

from ..gate_defaults import JUDGE_KINDS
from .anchors import anchor_problem, may_anchor
from .bilingual import align
from .binding import binding_problem, may_name_a_kind, same_thing
from .bounds import bound_problem, bounded, may_bound, same_bound
from .cause import (
    another_cause,
    cause_problem,
    cause_swap_problem,
    has_cause_label,
    labelled_cause,
    may_cause,
    may_cause_text,
    may_own_cause,
)
from .claims import (
    STOPWORDS,
    TOKEN,
    expand_contractions,
    extract_claims,
    has_content,
    may_cite,
    narrow,
    tokenize,
    without_citations,
    without_table_layout,
)
from .clock import clock_problem, may_tell_time
from .compare import compare, may_compare
from .conditions import any_problem, condition_problem, may_drop_a_condition
from .dates import DateMention, date_mentions, dates_agree
from .exception import exception_problem, may_except
from .kinds import kind_problem, matched_kind_problem, may_name_a_member
from .kinds import order_problem as kind_order_problem
from .measures import counted_elsewhere, measure_problem
from .numerals import (
    ARTICLE_COUNTERS,
    CJK_CURRENCY_NAMES,
    CONDITIONAL_NUMBER_WORDS,
    CURRENCY_CODES,
    CURRENCY_NAMES,
    CURRENCY_PREFIXES,
    CURRENCY_SIGNS,
    NUMBER_WORDS,
    PERCENT_WORDS,
    alternation,
    cjk_numerals,
    conditional_numbers,
    english_compounds,
    fold,
    has_digit,
    number_forms,
    number_mentions,
)
from .order import may_order, order_problem
from .paraphrase import CJK_SYNONYM_GROUPS, LIGHT_WORDS, base, stems, synonym_stems
from .startpoint import start_problem
from .swap import swap_problem
from .timing import may_say_at_once, timing_problem
from .widened import may_widen, widened_problem

__all__ = [
    "JUDGE_KINDS",
    "ClaimVerdict",
    "Judge",
    "LexicalJudge",
    "ReferenceVerdict",
    "content_tokens",
    "judge_identity",
    "make_judge",
    "split_claims",
    "tokenize",
]

# English negation cues (as tokens: "don't" is "don" + "t").
# "failed to recover" and "unable to" deny what follows as "did not" does.
_NEGATION_WORDS = frozenset(
    [
        "not",
        "no",
        "never",
        "without",
        "nor",
        "neither",
        "none",
        "nobody",
        "nothing",
        "cannot",
        "t",
        "fail",
        "fails",
        "failed",
        "unable",
        "lack",
        "lacks",
        "lacked",
        "lacking",
        "unless",  # "unless receipts are attached" is "if receipts are not attached"
    ]
)
# Chinese negation, minus the words that only look like one (不同, 未来, 非常, 无论 …).
_CJK_NEGATION = re.compile(
    r"并非|并不|从未|从不|毫无|绝不|没有(?!休)|没(?!休)|毋|"
    r"不(?!仅|断|同|少|过|久|良|错|论|管|但|如|然|止|足以)|未(?!来|必|知|用|使用|休)|无(?!论|疑|限)"
    r"|非(?!常|寿)|勿"
)
_CJK_NEGATION_CHARS = frozenset("不没未无非勿毫毋")
# Direction words: a claim that says the opposite direction of its context contradicts it.
_DIRECTIONS: dict[str, frozenset[str]] = {
    "up": frozenset(
        [
            "upper",  # the upper limit against the lower one
            "increase",
            "increased",
            "increases",
            "increasing",
            "rise",
            "rises",
            "rose",
            "risen",
            "rising",
            "grew",
            "grow",
            "grows",
            "growing",
            "growth",
            "higher",
            "improve",
            "improved",
            "improves",
            "improving",
            "gain",
            "gained",
            "gains",
            "expand",
            "expanded",
            "expands",
            "widened",
            "widen",
            "widens",
            "widening",
            "raise",
            "raised",
            "raises",
            "raising",
            "boost",
            "boosted",
            "boosts",
        ]
    ),
    "down": frozenset(
        [
            "decrease",
            "decreased",
            "decreases",
            "decreasing",
            "decline",
            "declined",
            "declines",
            "declining",
            "fall",
            "falls",
            "fell",
            "fallen",
            "falling",
            "drop",
            "dropped",
            "drops",
            "dropping",
            "lower",
            "lowered",
            "reduce",
            "reduced",
            "reduces",
            "reduction",
            "reducing",
            "lowering",
            "lowers",
            "cut",
            "cuts",
            "cutting",
            "shrinking",
            "narrowing",
            "shrink",
            "shrank",
            "shrunk",
            "contracted",
            "narrowed",
            "deteriorated",
            "worsened",
            "weaker",
            "lost",
            "lose",
            "loses",
        ]
    ),
    "allow": frozenset(["allowed", "allow", "allows", "permitted", "permit", "permits"]),
    "forbid": frozenset(
        [
            "blocked",
            "block",
            "blocks",
            "prohibited",
            "prohibit",
            "prohibits",
            "forbidden",
            "forbid",
            "banned",
            "ban",
            "disallowed",
        ]
    ),
    "longer": frozenset(
        ["extend", "extended", "extends", "extending", "lengthen", "lengthened", "longer", "long"]
    ),
    "shorter": frozenset(["shorten", "shortened", "shortens", "shortening", "shorter", "short"]),
    "upgrade": frozenset(["upgrade", "upgraded", "upgrades"]),
    "downgrade": frozenset(["downgrade", "downgraded", "downgrades"]),
    "open": frozenset(["opened", "opens", "reopened"]),
    "close": frozenset(["closed", "closes", "shut", "shutdown"]),
    "better": frozenset(
        ["better", "outperformed", "outperform", "outperforms", "outpaced", "outpace", "outpaces"]
    ),
    "worse": frozenset(
        ["worse", "underperformed", "underperform", "underperforms", "lagged", "lags", "trailed"]
    ),
    # A level (the English of 高/低): a high-rate environment against a low-rate one.
    "high": frozenset(["high"]),
    "low": frozenset(["low"]),
    "required": frozenset(
        [
            "mandatory",
            "compulsory",
            "obligatory",
            "required",
            "require",
            "requires",
            "requiring",
            "must",
            "need",
            "needs",
            "needed",
        ]
    ),
    "optional": frozenset(["optional", "voluntary", "discretionary"]),
    # Levels, order in time, strictness, strength, extremes: antonym pairs a one-word swap
    # turns into a hallucination that keeps every other word.
    "above": frozenset(["above"]),
    "below": frozenset(["below", "beneath"]),
    "before": frozenset(["before", "pre", "prior"]),
    "after": frozenset(["after", "post"]),
    "early": frozenset(["early", "earlier", "earliest", "ahead", "soonest"]),
    "late": frozenset(["late", "later", "latest", "delayed", "postponed", "deferred"]),
    # A period told from the report's year: the current year against the prior one.
    "current": frozenset(["current"]),
    "import": frozenset(["import", "imports", "imported"]),
    "export": frozenset(["export", "exports", "exported"]),
    "ascending": frozenset(["ascending"]),
    "descending": frozenset(["descending"]),
    "advance": frozenset(["advance"]),
    "arrears": frozenset(["arrears"]),
    "previous": frozenset(["previous", "preceding", "prior"]),
    "opening": frozenset(["opening", "beginning"]),
    "closing": frozenset(["closing", "end"]),
    "older": frozenset(["older", "oldest"]),
    "newer": frozenset(["newer", "newest"]),
    "tight": frozenset(
        ["tighten", "tightened", "tightens", "tightening", "tighter", "stricter", "strict"]
    ),
    "loose": frozenset(
        [
            "loosen",
            "loosened",
            "loosens",
            "loosening",
            "looser",
            "relax",
            "relaxed",
            "relaxes",
            "relaxing",
            "eased",
            "easing",
            "lenient",
        ]
    ),
    "strong": frozenset(
        [
            "strengthen",
            "strengthened",
            "strengthens",
            "strengthening",
            "stronger",
            "strong",
            "robust",
        ]
    ),
    "weak": frozenset(
        [
            "weaken",
            "weakened",
            "weakens",
            "weakening",
            "weaker",
            "weak",
            "modest",
            "moderate",
            "mild",
            "subdued",
            "sluggish",
        ]
    ),
    "leading": frozenset(["leading"]),
    "lagging": frozenset(["lagging"]),
    "light": frozenset(["light", "lighter"]),
    "heavy": frozenset(["heavy", "heavier", "intensive"]),
    "most": frozenset(["most", "highest", "largest", "biggest", "greatest", "maximum"]),
    "least": frozenset(["least", "lowest", "smallest", "fewest", "minimum"]),
    # Common finance and policy antonyms (SPEC §10): what a rule covers, what an effect
    # does, what a firm did with a product, a holding, a request, a currency, a result.
    "include": frozenset(["include", "includes", "included", "including"]),
    "exclude": frozenset(["exclude", "excludes", "excluded", "excluding"]),
    "add": frozenset(["add", "adds", "added", "adding"]),
    "remove": frozenset(
        [
            "remove",
            "removes",
            "removed",
            "removing",
            "delete",
            "deleted",
            "deletes",
            "eliminate",
            "eliminated",
            "eliminates",
        ]
    ),
    "promote": frozenset(
        [
            "promote",
            "promotes",
            "promoted",
            "promoting",
            "stimulate",
            "stimulates",
            "stimulated",
            "spur",
            "spurs",
            "spurred",
            "encourage",
            "encourages",
            "encouraged",
            "supported",
        ]
    ),
    "suppress": frozenset(
        [
            "suppress",
            "suppresses",
            "suppressed",
            "curb",
            "curbs",
            "curbed",
            "hinder",
            "hinders",
            "hindered",
            "hamper",
            "hampers",
            "hampered",
            "dampen",
            "dampens",
            "dampened",
            "discourage",
            "discourages",
            "discouraged",
            "restrain",
            "restrained",
            "weighed",
        ]
    ),
    "launch": frozenset(
        [
            "launch",
            "launches",
            "launched",
            "introduce",
            "introduces",
            "introduced",
            "resumed",
            "resume",
            "resumes",
            "began",
            "started",
            "start",
            "starts",
            # going on with it is the opposite of stopping it, as launching is
            "continue",
            "continues",
            "continued",
            "continuing",
            "ongoing",
        ]
    ),
    "stop": frozenset(
        [
            "stop",
            "stops",
            "stopped",
            "discontinue",
            "discontinued",
            "suspend",
            "suspended",
            "suspends",
            "terminate",
            "terminated",
            "halt",
            "halted",
            "cease",
            "ceased",
            "withdraw",
            "withdrawn",
            "withdrew",
            "abolish",
            "abolished",
            "scrapped",
            "ended",
        ]
    ),
    "fast": frozenset(
        ["accelerate", "accelerates", "accelerated", "accelerating", "faster", "quicker", "sped"]
    ),
    "slow": frozenset(
        [
            "slow",
            "slows",
            "slowed",
            "slowing",
            "slower",
            "decelerate",
            "decelerated",
            "decelerating",
        ]
    ),
    "appreciate": frozenset(["appreciate", "appreciates", "appreciated", "appreciation"]),
    "depreciate": frozenset(
        ["depreciate", "depreciates", "depreciated", "depreciation", "devalued"]
    ),
    "surplus": frozenset(["surplus", "surpluses"]),
    "deficit": frozenset(["deficit", "deficits"]),
    "inflow": frozenset(["inflow", "inflows"]),
    "outflow": frozenset(["outflow", "outflows"]),
    "buy": frozenset(["buy", "buys", "bought", "purchase", "purchased", "purchases"]),
    "sell": frozenset(["sell", "sells", "sold", "divest", "divested", "disposed"]),
    "approve": frozenset(["approve", "approves", "approved", "accepted", "accept", "accepts"]),
    "reject": frozenset(["reject", "rejects", "rejected", "refused", "refuses", "denied"]),
    "positive": frozenset(["positive", "positively", "favourable", "favorable"]),
    "negative": frozenset(["negative", "negatively", "adverse", "adversely"]),
    "profit": frozenset(["profit", "profits", "profitable"]),
    "free": frozenset(["free", "waived", "waive", "waives"]),
    "charged": frozenset(["charged", "chargeable", "billed"]),
    "loss": frozenset(["loss", "losses", "lossmaking"]),
    # States a phrase says (``_STATE``): a device left powered on against one powered off,
    # a service online or offline, a medicine taken with food or on an empty stomach.
    "on": frozenset(["poweredon", "online"]),
    "off": frozenset(["poweredoff", "offline"]),
    "fed": frozenset(["withfood"]),
    "fasting": frozenset(["emptystomach"]),
}
# A span of time in Chinese (6小时, 三个月, 十天).
_CJK_SPAN = (
    r"(?:\d+(?:\.\d+)?|[一二三四五六七八九十两半]+)\s*个?(?:小时|钟头|分钟|天|日|周|星期|月|年)"
)
_CJK_DIRECTIONS: dict[str, re.Pattern[str]] = {
    "up": re.compile(
        r"增长|上升|提高|增加|上涨|扩大|扩张|改善|提升|增至|升至|走高|翻倍|翻番|上调|调高|调升|上浮|增(?!值)"
    ),
    "down": re.compile(
        r"下降|减少|降低|下跌|收缩|收窄|缩小|降至|下滑|减至|恶化|走低|下调|调低|调降|下浮|减(?!值|免)"
    ),
    # A level: 高利率 against 低利率 (提高/降低 are directions above; 不低于 is a bound).
    "high": re.compile(r"(?<![提最降不])高(?!管|级|层|端|效|兴|校|峰|速|铁|中|手|新|龄|危)"),
    "low": re.compile(r"(?<![降最减不])低(?!调|碳|龄|端|级|保)"),
    "better": re.compile(r"优于|好于|胜于|强于|优异"),
    "worse": re.compile(r"劣于|差于|逊于|弱于|不及(?!格|时)|不如"),
    "required": re.compile(r"必须|(?<!非)强制"),
    "optional": re.compile(r"可选|自愿|非强制"),
    "allow": re.compile(r"(?<!不)允许|准许|(?<!不)可以"),
    "forbid": re.compile(r"禁止|禁用|不得|不允许|不准|不可以"),
    # (a bound on a span of time is a length: 不足6小时的航班 are the shorter ones)
    "longer": re.compile(
        rf"延长|拉长|长期|较长|更长|长途|(?:超过|多于|高于|至少|不少于|不低于|满){_CJK_SPAN}|{_CJK_SPAN}(?:及|或)?以上"
    ),
    "shorter": re.compile(
        rf"缩短|短期|较短|更短|短途|(?:不足|少于|低于|最多|至多|未满|不满){_CJK_SPAN}|{_CJK_SPAN}以下"
    ),
    "upgrade": re.compile(r"升级"),
    "downgrade": re.compile(r"降级"),
    "open": re.compile(r"开设|新开|开业"),
    "close": re.compile(r"关闭|关停|停业"),
    "above": re.compile(r"(?<!不)高于"),
    "below": re.compile(r"(?<!不)低于|未达"),
    "early": re.compile(r"提前|提早|最早|最先"),
    "late": re.compile(r"推迟|延迟|延后|推后|延期|滞后|最晚|最迟"),
    "current": re.compile(r"本年度|本财年|本年|今年|本期|当期|本季度"),
    "previous": re.compile(r"上一?年度|上一?财年|上一年|上年|去年|上期|上季度|前一年"),
    "opening": re.compile(r"年初|期初|月初|季初"),
    "import": re.compile(r"进口"),
    "export": re.compile(r"出口"),
    "ascending": re.compile(r"升序"),
    "descending": re.compile(r"降序"),
    "closing": re.compile(r"年末|年底|期末|月末|月底|季末"),
    "tight": re.compile(r"收紧|收严|从严|趋严|严格|紧缩"),
    "loose": re.compile(r"放宽|放松|宽松|松绑"),
    "strong": re.compile(r"加强|增强|强化|强劲|强势|强健"),
    "weak": re.compile(r"削弱|减弱|弱化|温和|疲弱|疲软|乏力"),
    # How much of it: 部分 (some) against 全部/所有 (all); 组成部分 is a component.
    "some": re.compile(r"(?<!组成)(?<!全)部分|一些|少数|某些"),
    "all": re.compile(r"全部|所有|一律|全数|任何(?!一方)"),
    "leading": re.compile(r"领先指标|先行指标"),
    "lagging": re.compile(r"滞后指标|落后指标"),
    # (持续推进/继续开展 … go on with it: the opposite of stopping it, as launching is;
    # not 继续使用, which a cancelled subscription may still do)
    "launch": re.compile(
        r"推出|开售|发售|上线|引入|启动|实施|恢复|(?<!不)生效"
        r"|(?:持续|继续|坚持)(?:推进|开展|实施|执行|推行|投入|加大|运营|经营|推动)"
    ),
    "stop": re.compile(r"停售|停止|暂停|终止|叫停|撤回|废除|废止|取消|撤销|失效"),
    "include": re.compile(r"(?<!不)包括|(?<!不)包含|(?<!不)计入|纳入"),
    "exclude": re.compile(r"不包括|不包含|不计入|剔除|扣除|排除|除外"),
    "add": re.compile(r"新增|增设|添加|加入"),
    "remove": re.compile(r"删除|移除|删去"),
    "promote": re.compile(r"促进|推动|带动|刺激|提振|助推|拉动|支持"),
    "suppress": re.compile(r"抑制|阻碍|拖累|打压|遏制|压制|拖慢|制约"),
    "fast": re.compile(r"加快|加速|提速"),
    "slow": re.compile(r"放缓|减速|放慢|趋缓"),
    "appreciate": re.compile(r"升值"),
    "depreciate": re.compile(r"贬值"),
    "surplus": re.compile(r"盈余|顺差"),
    "deficit": re.compile(r"赤字|逆差"),
    "inflow": re.compile(r"流入"),
    "outflow": re.compile(r"流出"),
    "buy": re.compile(r"买入|购入|收购|增持"),
    "sell": re.compile(r"卖出|出售|减持|抛售"),
    "approve": re.compile(r"批准|核准|(?<!不)同意"),
    "reject": re.compile(r"拒绝|驳回|否决|不同意"),
    "positive": re.compile(r"正面|利好"),
    "negative": re.compile(r"负面|利空|不利"),
    "profit": re.compile(r"盈利|获利|扭亏"),
    "free": re.compile(r"免费"),
    "charged": re.compile(r"(?<![免不])收费|(?<!免)付费|计费"),
    "loss": re.compile(r"亏损|亏蚀"),
    "most": re.compile(r"最(?:主要|大|高|多|重要|强|核心)"),
    "least": re.compile(r"最(?:次要|小|低|少|不重要|弱)"),
    "on": re.compile(r"开机|通电|上电|保持开启"),
    "off": re.compile(r"关机|断电|断开电源|切断电源|关掉电源"),
    "fed": re.compile(r"随餐|餐后|饭后|餐中|进餐时|与食物同服|随食物"),
    "fasting": re.compile(r"空腹"),
}
_OPPOSITE = {
    "up": "down",
    "down": "up",
    "allow": "forbid",
    "forbid": "allow",
    "longer": "shorter",
    "shorter": "longer",
    "high": "low",
    "low": "high",
    "better": "worse",
    "worse": "better",
    "required": "optional",
    "optional": "required",
    "above": "below",
    "below": "above",
    "before": "after",
    "after": "before",
    "early": "late",
    "late": "early",
    "current": "previous",
    "previous": "current",
    "import": "export",
    "export": "import",
    "ascending": "descending",
    "descending": "ascending",
    "advance": "arrears",
    "arrears": "advance",
    "opening": "closing",
    "closing": "opening",
    "older": "newer",
    "newer": "older",
    "tight": "loose",
    "loose": "tight",
    "strong": "weak",
    "weak": "strong",
    "launch": "stop",
    "stop": "launch",
    "most": "least",
    "least": "most",
    "light": "heavy",
    "heavy": "light",
    "leading": "lagging",
    "lagging": "leading",
    "some": "all",
    "all": "some",
}
for _a, _b in (
    ("include", "exclude"),
    ("add", "remove"),
    ("promote", "suppress"),
    ("fast", "slow"),
    ("appreciate", "depreciate"),
    ("surplus", "deficit"),
    ("inflow", "outflow"),
    ("buy", "sell"),
    ("approve", "reject"),
    ("positive", "negative"),
    ("profit", "loss"),
    ("free", "charged"),
    ("upgrade", "downgrade"),
    ("open", "close"),
    ("on", "off"),
    ("fed", "fasting"),
):
    _OPPOSITE[_a], _OPPOSITE[_b] = _b, _a
# "worsens" is "gets worse", "improves" "gets better": each verb is read on both axes, so
# "pain worsens" agrees with "pain gets worse" and "the rash improves" contradicts it.
_DIRECTIONS["worse"] |= frozenset(
    ["worsen", "worsens", "worsening", "worsened", "deteriorate", "deteriorates",
     "deteriorating", "deteriorated"]
)  # fmt: skip
_DIRECTIONS["better"] |= frozenset(["improve", "improves", "improving", "improved"])
_DIRECTION_WORDS = frozenset().union(*_DIRECTIONS.values())
_DIRECTIONS_OF: dict[str, tuple[str, ...]] = {
    word: tuple(name for name, words in _DIRECTIONS.items() if word in words)
    for word in _DIRECTION_WORDS
}
_CJK_CUE_CHARS = (
    frozenset("增降升减提跌缩扩涨滑禁允准恶改走翻延拉高低优劣好差逊弱胜必强选愿")
    | frozenset("推滞紧严宽松售线引启停终撤最")
    | frozenset("调浮实恢效废取销包含计纳剔扣排除新添加删移促带刺振助拉支抑阻拖打遏压制")
    | frozenset("快速缓放慢值盈余顺赤逆流买购收持卖出抛批核同拒驳否正负利空亏获扭")
    | frozenset("长短期级开关业温疲乏领部全所免付早晚迟今去本上初末底任某缺豁欠")
    | frozenset("断空随餐饭")
    | _CJK_NEGATION_CHARS
)
_CUE_TOKENS = (
    _NEGATION_WORDS
    | _DIRECTION_WORDS
    | _CJK_CUE_CHARS
    | frozenset(["instead", "rather", "up", "down", "except"])
    | frozenset(["excluded", "ineligible", "missing", "absent", "rejected", "invalid", "void"])
    | frozenset(["exempt", "exempted", "refrain", "refrains", "refrained", "declined"])
)
# A claim with one of these is compared clause by clause even when the contexts say no
# negation or direction: it may say "all" where they restrict, or drop their condition.
_CLAIM_CUES = _CUE_TOKENS | frozenset(
    [
        *("all", "every", "everyone", "everybody", "whatever", "whichever", "regardless"),
        *("irrespective", "only", "solely", "exclusively", "只", "仅", "唯"),
    ]
)
_NOT_OVERLAP = _NEGATION_WORDS | _CJK_NEGATION_CHARS  # cues say nothing about the topic
_NUMBER_WORDS = frozenset(NUMBER_WORDS)
_ANY_NUMBER_WORDS = _NUMBER_WORDS | CONDITIONAL_NUMBER_WORDS

# Clauses: the unit negation and direction are compared on.
# (或者又, 或又: "仍未排除或者又出现新的故障" is two clauses; the second has its own verb and
# no part of the first's negation)
_CLAUSE = re.compile(
    r"[，；：]|[,;:]\s+|\s+(?:and|but|while|whereas|however|although|though|because)\s+|但是|然而|但"
    r"|或者又|或又",
    re.IGNORECASE,
)
_CJK_SENTENCE_END = re.compile(r"[。！？；]")
_SENTENCE_END = re.compile(r"(?<=[。！？；])|(?<=[.!?;])\s+|\n+")
_SENTENCE_BREAK = re.compile(r"([.!?;])\s+")


def content_tokens(text: str) -> list[str]:
    """Tokens that carry content: English stop words dropped, CJK characters kept."""
    return [t for t in tokenize(text) if t not in STOPWORDS]


def split_claims(answer: str, cited_docs: Iterable[str] = ()) -> list[str]:
    """The claim texts of ``answer`` (``extract_claims`` without question or value)."""
    return [c.text for c in extract_claims(answer, sources=cited_docs)]


def _split_sentences(text: str) -> list[str]:
    """Sentences of a context (or an answer). Plain ASCII prose is cut with str.replace,
    several times faster than a pattern; anything else by the pattern."""
    if text.isascii() and "\t" not in text and "  " not in text:
        for mark in ".!?;":
            if mark in text:  # (a one-character scan first: most texts lack "!?;")
                text = text.replace(mark + " ", mark + "\n")
        pieces = text.split("\n")
    elif _CJK_SENTENCE_END.search(text) is not None:
        pieces = _SENTENCE_END.split(text)
    else:
        pieces = _SENTENCE_BREAK.sub("\\1\n", text).split("\n")
    return [p.strip() for p in pieces if p and not p.isspace()]


class ClaimVerdict(NamedTuple):
    """A judge's verdict on one claim: why it is (un)supported, in a reader's terms."""

    claim: str
    supported: bool
    score: float
    matched: str | None = None  # the context sentence the claim matched best
    reason: str | None = None  # why it is unsupported
    error: bool = False  # no verdict: the judge failed (an LLM judge's request, its answer)

    def to_json(self) -> dict[str, Any]:
        claim, supported, score, matched, reason, error = self  # one unpacking, no getters
        verdict = "error" if error else "supported" if supported else "unsupported"
        out: dict[str, Any] = {"claim": claim, "verdict": verdict, "score": round(score, 4)}
        if matched is not None:
            out["matched"] = matched
        if reason is not None:
            out["reason"] = reason
        return out


# ``ClaimVerdict(claim, True, 1.0)`` in C (a named tuple's constructor is Python): the
# verbatim verdict of every extractive claim.
_new = tuple.__new__


@dataclass(frozen=True, slots=True)
class ReferenceVerdict:
    """answer_accuracy: the answer's recall of the reference, and each reference sentence's
    verdict against the answer (its numbers and polarity)."""

    passed: bool
    score: float
    claims: list[ClaimVerdict]


class Judge(Protocol):
    """The entailment-judge seam: what a stronger judge (NLI, LLM) implements.

    ``judge_claims`` gets all claims of one answer at once (from ``extract_claims``), so a
    judge can prepare the contexts once or batch its requests; per claim it returns a
    verdict, a score and the evidence it matched. ``judge_reference`` is answer_accuracy:
    the reference's sentences judged against the answer.
    """

    @property
    def name(self) -> str: ...

    def judge_claims(
        self, claims: Sequence[str], contexts: Sequence[str]
    ) -> list[ClaimVerdict]: ...

    def judge_reference(
        self, reference: str, answer: str, threshold: float
    ) -> ReferenceVerdict: ...

    def entailed(self, claim: str, contexts: Sequence[str]) -> bool:
        """One claim, yes or no (RAGSpine's ``entails`` seam)."""
        ...


@dataclass(frozen=True, slots=True)
class _Clause:
    tokens: frozenset[str]
    negated: bool
    directions: frozenset[str]
    sentence: int
    # Chinese: the characters right after a negation cue (无须 → 须), and the characters
    # no cue stands close before (what the clause affirms); empty for ASCII text.
    negates: frozenset[str] = frozenset()
    affirms: frozenset[str] = frozenset()
    # Terms (English word stems, Chinese character pairs) of the whole clause, and of
    # what its negation negates: from the cue to the clause's end ("Customer data is
    # never sold to third parties" negates sold, third, parties, not customer data).
    terms: frozenset[str] = frozenset()
    scope: frozenset[str] = frozenset()
    part: bool = False  # a condition or "without" phrase split off its clause
    quantifier: str = ""  # "all", "some" (see _quantifier) or ""
    condition: bool = False  # a condition: "if …", "unless …", 如果…
    # The terms of the condition a prohibition sets ("never restart X until Y" requires
    # Y): a claim that says X must say Y too (``_rule_form``).
    requires: frozenset[str] = frozenset()
    # Whether the clause may restrict the clauses beside it (``_restricted``): any English
    # clause; a Chinese one only as a condition (车辆全损的，…; 如…; …时).
    restricts: bool = True


@dataclass(frozen=True, slots=True)
class _Passage:
    """One context text, prepared once: sentences with their token sets, the vocabulary,
    and whether any negation or direction word occurs (if none, no clause work)."""

    text: str
    sentences: tuple[str, ...]
    sentence_tokens: tuple[frozenset[str], ...]
    vocab: frozenset[str]
    cued: bool
    directions: frozenset[str]  # the directions its words say (rose, fell, up 8% …)


# Sized for a knowledge base's passages, which a set's cases share: at 1,024 a set over
# 8,000 passages found one in eight here (each ~7 KB; 8,192 hold ~60 MB per process).
@lru_cache(maxsize=8192)
def _passage(text: str) -> _Passage:
    sentences = tuple(_split_sentences(text))
    tokens = tuple(frozenset(tokenize(s)) for s in sentences)
    vocab = frozenset().union(*tokens) if tokens else frozenset()
    if not text.isascii():  # Chinese words are pairs of characters: keep the pairs too
        vocab = vocab | frozenset(_cjk_pairs(text))
    cued = not _CUE_TOKENS.isdisjoint(vocab)
    directions: set[str] = set()
    if cued:
        directions.update(name for t in vocab if t in _DIRECTIONS_OF for name in _DIRECTIONS_OF[t])
        if "up" in vocab or "down" in vocab:
            directions.update(
                "up" if m.group(1).lower() == "up" else "down" for m in _UP_DOWN.finditer(text)
            )
    return _Passage(text, sentences, tokens, vocab, cued, frozenset(directions))


_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")
_CJK_ISOLATED = re.compile(
    r"(?<![\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff])[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
    r"(?![\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff])"
)


def _cjk_pairs(text: str) -> list[str]:
    return [run[i : i + 2] for run in _CJK_RUN.findall(text) for i in range(len(run) - 1)]


def _cjk_found(text: str, vocab: frozenset[str]) -> tuple[int, int]:
    """(found, total) over the claim's CJK characters that stand in a run of two or more.

    A character counts as found only next to a neighbour it also has in the contexts
    (its pair with the character before or after it): single characters are too common
    to show that a Chinese claim was taken from its contexts (集团还将每年派发特别股息 has
    most of its characters in a dividend passage, few of its words)."""
    found = total = 0
    for run in _CJK_RUN.findall(text):
        pairs = [run[i : i + 2] in vocab for i in range(len(run) - 1)]
        total += len(run)
        found += sum(
            1 for i in range(len(run)) if (i > 0 and pairs[i - 1]) or (i < len(pairs) and pairs[i])
        )
    return found, total


# A list marker at the start of a line ("3. 推进数字化", "2) …", "1、…") numbers the list:
# it states no number, so a "三大" of the claim is not found in a list of three items.
_LINE_MARKER = re.compile(r"^[ \t]*(?:[-*•][ \t]*)?\(?\d{1,2}[.)、）](?![\d.])", re.MULTILINE)


_LEAD_PERIOD = re.compile(r"[A-Za-z]*(?:19|20)\d\d\b|(?:19|20)\d\d(?=年)")


def _list_counts(text: str) -> set[Decimal]:
    """How many items each numbered list of ``text`` has, when its lead-in line states no
    number itself ("The priorities are:" over three items says three; "四大重点是：" over
    three items says four, and three is not found)."""
    counts: set[Decimal] = set()
    lead, items = "", 0
    for line in (*text.splitlines(), ""):
        if _LINE_MARKER.match(line):
            items += 1
            continue
        lead = _LEAD_PERIOD.sub(" ", lead)  # "集团2026年的重点如下：" states no count
        if items and not number_forms(lead, tokenize(lead)):
            counts.add(Decimal(items))
        lead, items = line, 0
    return counts


@lru_cache(maxsize=1024)
def _passage_numbers(text: str, vocab: frozenset[str]) -> frozenset[Decimal]:
    counts: set[Decimal] = set()
    if "\n" in text and _LINE_MARKER.search(text) is not None:
        counts = _list_counts(text)
        text = _LINE_MARKER.sub(" ", text)
    forms = number_forms(text, _ANY_NUMBER_WORDS.intersection(vocab)) | counts
    forms.update(_MULTIPLIERS[t] for t in _EXTRA_MULTIPLIERS.intersection(vocab))
    return frozenset(forms)


# Multiplier words are numbers (doubled is 2 times, halved 0.5 times): "revenue tripled"
# is not supported by a context that says revenue fell 3%.
_MULTIPLIERS: dict[str, Decimal] = {
    **dict.fromkeys(["doubled", "doubles", "doubling", "twofold"], Decimal(2)),
    **dict.fromkeys(
        ["triple", "tripled", "triples", "tripling", "threefold", "trebled"], Decimal(3)
    ),
    **dict.fromkeys(["quadruple", "quadrupled", "quadruples", "fourfold"], Decimal(4)),
    **dict.fromkeys(["halved", "halves", "halving"], Decimal("0.5")),
}
_MULTIPLIER_WORDS = frozenset(_MULTIPLIERS)
_EXTRA_MULTIPLIERS = _MULTIPLIER_WORDS - _NUMBER_WORDS  # halved: not a number word (yet)


class _Amount(NamedTuple):
    """A number with the unit written next to it (None: none known) and its scale."""

    written: str
    forms: frozenset[Decimal]
    unit: str | None
    scaled: Decimal | None  # its value with the scale word (None: no scale word)


# Units written right after a number (40 EUR, 30 days, 8%, 2 percentage points, 3倍, 6个月).
_UNIT_AFTER = re.compile(
    r"[\s\-]?(?:(?P<basis>calendar|working|business|trading)\s)?"
    r"(?P<unit>percentage\s+points?|per\s?cent|percent|per\s?mille|basis\s+points?|bps|pp|%|‰|‱|"
    r"(?:(?:us|hk|u\.s\.)\s)?cents?|(?:us|hk|u\.s\.)\sdollars?|usd|hkd|rmb|cny|eur|"
    r"gbp|jpy|sgd|euros?|days?|weeks?|months?|years?|yrs?|hours?|hrs?|minutes?|mins?|times|x|"
    r"fold|€|£|\$|个百分点|百分点|个基点|基点|美元|港元|港币|人民币|欧元|英镑|日元|新加坡元|个月|个星期|"
    r"星期|个小时|小时|分钟|个?工作日|个?营业日|个?自然日|个?日历日|天|日|周|月|年|倍|元)(?![A-Za-z])",
    re.IGNORECASE,
)
# A currency written before the number (USD 40, $40, HK$1,702, €40), or inside a scaled
# amount (1,702 USD million).
_UNIT_BEFORE = re.compile(
    r"(usd|hkd|rmb|cny|eur|gbp|jpy|sgd|us\$|hk\$|s\$|\$|€|£|人民币|港币|美元|港元)\s?$",
    re.IGNORECASE,
)
_UNIT_INSIDE = re.compile(r"usd|hkd|rmb|cny|eur|gbp|jpy|sgd|us\$|hk\$", re.IGNORECASE)
_UNIT_NAMES: dict[str, str] = {
    **dict.fromkeys(["%", "percent", "per cent", "percent", "百分之"], "%"),
    **dict.fromkeys(["percentage point", "pp", "个百分点", "百分点"], "percentage points"),
    # per mille and per ten thousand: 1‰ of the principal is a tenth of 1%
    **dict.fromkeys(["‰", "per mille", "permille"], "‰"),
    "‱": "‱",
    **dict.fromkeys(["basis point", "bps", "个基点", "基点"], "basis points"),
    # A bare "$" names no currency: HK$ and S$ amounts are written "$1,702" too.
    **dict.fromkeys(["usd", "us$", "美元", "us dollar", "u.s. dollar"], "USD"),
    **dict.fromkeys(["hkd", "hk$", "港元", "港币", "hk dollar"], "HKD"),
    # A cent is a hundredth of a dollar: 1.65 US cents is not 1.65 US dollars.
    **dict.fromkeys(["cent", "us cent", "u.s. cent", "hk cent"], "cents"),
    **dict.fromkeys(["eur", "euro", "€", "欧元"], "EUR"),
    **dict.fromkeys(["gbp", "£", "英镑"], "GBP"),
    **dict.fromkeys(["rmb", "cny", "人民币"], "CNY"),
    **dict.fromkeys(["jpy", "日元"], "JPY"),
    **dict.fromkeys(["sgd", "s$", "新加坡元"], "SGD"),
    **dict.fromkeys(["day", "天", "日"], "days"),
    **dict.fromkeys(["week", "周", "星期", "个星期"], "weeks"),
    **dict.fromkeys(["month", "月", "个月"], "months"),
    **dict.fromkeys(["year", "yr", "年"], "years"),
    **dict.fromkeys(["hour", "hr", "小时", "个小时"], "hours"),
    **dict.fromkeys(["minute", "min", "分钟"], "minutes"),
    **dict.fromkeys(["times", "x", "fold", "倍"], "times"),
    # Days counted one way: working (business, trading) days against calendar days.
    **dict.fromkeys(
        ["working day", "business day", "trading day", "工作日", "个工作日", "营业日", "个营业日"],
        "working days",
    ),
    **dict.fromkeys(["calendar day", "自然日", "个自然日", "日历日", "个日历日"], "calendar days"),
    # 元 alone names no currency (a bare $ neither), but an amount in 元 has its scale:
    # 5000元 is not 5000万元.
    "元": "元",
}
_DAY_UNITS = frozenset(["days", "working days", "calendar days"])
_UNIT_CUES = frozenset("%‰‱$€£倍天日周月年点元币")


def _unit_name(written: str) -> str | None:
    key = " ".join(written.lower().split())
    if key not in _UNIT_NAMES and key.endswith("s") and key not in ("bps", "times"):
        key = key[:-1]
    return _UNIT_NAMES.get(key)


def _amounts(text: str) -> list[_Amount]:
    """The numbers of ``text`` (``fold``-ed) with the unit written next to each."""
    out: list[_Amount] = []
    if has_digit(text):
        for m in number_mentions(text):
            after = _UNIT_AFTER.match(text, m.end)
            inside = _UNIT_INSIDE.search(m.text) if m.scale != 1 else None
            before = _UNIT_BEFORE.search(text, max(0, m.start - 6), m.start) if m.start else None
            written = (
                (
                    f"{after.group('basis')} {after.group('unit')}"
                    if after.group("basis")
                    else after.group("unit")
                )
                if after is not None
                else inside.group()
                if inside is not None
                else before.group(1)
                if before is not None
                else None
            )
            scaled = m.value * m.scale if m.scale != 1 else None
            out.append(_Amount(m.text, m.forms, _unit_name(written) if written else None, scaled))
    lowered = text.lower()
    for word in _MULTIPLIER_WORDS.intersection(TOKEN.findall(lowered)):
        out.append(_Amount(word, frozenset({_MULTIPLIERS[word]}), "times", None))
    if "翻" in text:
        for written, value in cjk_numerals(text):
            if written.startswith("翻"):
                out.append(_Amount(written, frozenset({value}), "times", None))
    return out


@lru_cache(maxsize=1024)
def _passage_amounts(
    text: str, vocab: frozenset[str]
) -> tuple[tuple[_Amount, ...], frozenset[Decimal]]:
    """The numbers of a passage written with a unit or scale, and the forms of those
    written with neither (numerals, number words and bare digits)."""
    amounts = _amounts(fold(text))
    marked = tuple(a for a in amounts if a.unit is not None or a.scaled is not None)
    digits: set[Decimal] = set().union(*(a.forms for a in amounts)) if amounts else set()
    bare: set[Decimal] = (
        set().union(*(a.forms for a in amounts if a not in marked)) if amounts else set()
    )
    plain = (set(_passage_numbers(text, vocab)) - digits) | bare
    return marked, frozenset(plain)


def _agree(claimed: _Amount, said: _Amount) -> bool:
    """Whether two mentions of one value may be the same amount: no two different units,
    no two different scaled values (5万 is not 5亿, 1,702 million is 1.702 billion)."""
    if claimed.unit is not None and said.unit is not None and claimed.unit != said.unit:
        if not ({claimed.unit, said.unit} <= _DAY_UNITS and "days" in (claimed.unit, said.unit)):
            return False  # "14 days" is either way of counting them; working is not calendar
        if claimed.unit == "元" or said.unit == "元":
            return True
    if claimed.scaled is None and said.scaled is not None and claimed.unit is not None:
        # an amount with its unit and no scale word (5000元, 40 EUR) against the same
        # digits with one (5000万元, 40 million EUR): another amount
        return said.scaled in claimed.forms
    if said.scaled is None and claimed.scaled is not None and said.unit is not None:
        return claimed.scaled in said.forms
    return claimed.scaled is None or said.scaled is None or claimed.scaled == said.scaled


def _shown(amount: _Amount) -> str:
    unit = amount.unit
    if unit is None or unit == "times" or amount.written.endswith("%"):
        return amount.written
    return f"{amount.written}{unit}" if unit in ("%", "‰", "‱") else f"{amount.written} {unit}"


def _unit_problem(claim: str, contexts: _Contexts) -> str | None:
    """A reason when a number of ``claim`` is in the contexts only with another unit or
    scale: 40 USD where they say 40 EUR, 30 weeks where they say 30 days, 3 times where
    they say 3%, 5万 where they say 5亿. A context mention without a unit agrees with any."""
    claimed = [a for a in _amounts(fold(claim)) if a.unit is not None or a.scaled is not None]
    if not claimed:
        return None
    prepared = [_passage_amounts(p.text, p.vocab) for p in contexts.passages]
    said_all = [a for marked, _ in prepared for a in marked]
    plain = frozenset().union(*(bare for _, bare in prepared))
    for amount in claimed:
        if not plain.isdisjoint(amount.forms):
            continue  # also written without a unit: nothing to compare
        said = [a for a in said_all if not a.forms.isdisjoint(amount.forms)]
        if said and not any(_agree(amount, a) for a in said):
            return f"{_shown(amount)} where {contexts.label} say {_shown(said[0])}"
    return None


def _negated(text: str, tokens: Iterable[str]) -> bool:
    """Whether a clause says the negative. A negative predicate ("are excluded", "is
    missing", "was rejected") is a negation of its own, so "not"/"no longer" before it
    turns it round: "aren't excluded" says they are eligible."""
    cues = _NEGATION_WORDS.intersection(tokens)
    if cues and cues <= _FAIL and _FAILED_TO.search(text) is None:
        cues = frozenset()  # "a failed module exam": an adjective, no "failed to"
    if cues:
        # "cannot be carried over without approval" says "only with approval": a
        # negation of "without" is no negation.
        negated = not ("without" in cues and len(cues) == 2 and _DOUBLE_NEGATION.search(text))
    else:
        negated = not text.isascii() and _CJK_NEGATION.search(text) is not None
    if not _NEGATIVE_PREDICATE_WORDS.isdisjoint(tokens) and _NEGATIVE_PREDICATE.search(text):
        return not negated
    return negated


_FAIL = frozenset(["fail", "fails", "failed"])
_FAILED_TO = re.compile(r"\bfail(?:s|ed)?\s+to\b", re.IGNORECASE)


# Predicates that say "not": excluded = not eligible, missing = without, rejected = not
# accepted. Read after a form of "be" (a predicate, not an adjective in the subject:
# "missing receipts must be reported" negates nothing).
_NEGATIVE_PREDICATE_WORDS = frozenset(
    ["excluded", "ineligible", "missing", "absent", "rejected", "invalid", "void"]
)
_NEGATIVE_PREDICATE = re.compile(
    r"\b(?:is|are|was|were|be|been|being|remains?|remained|stays?|stayed|gets?|got|becomes?|"
    r"became)\s+(?:(?:not|no\s+longer|never|also|still|now|then|thus|therefore|automatically|"
    r"always|usually|generally|fully|entirely)\s+)*(?:excluded|ineligible|missing|absent|"
    r"rejected|invalid|void)\b",
    re.IGNORECASE,
)
# "without original receipts" negates the receipts, not the clause it stands in: "Claims
# submitted without original receipts are rejected" says the claims are rejected. The
# phrase (up to four words, to the verb) is a clause of its own, and so is a "with …"
# phrase (the one "with manager approval" is compared with "without manager approval").
_WITHOUT = re.compile(
    r"\b(?:without|with)\s+((?:(?!(?:is|are|was|were|be|been|being|can|cannot|may|must|will|shall|"
    r"should|would|could|do|does|did|has|have|had|and|or|but|for|on|in|at|by|from|within|"
    r"to)\b)[A-Za-z][\w'-]*\s*){1,4})",
    re.IGNORECASE,
)


# A condition after its clause ("… if storage use does not exceed 5 GB", "… unless a
# compromise is suspected") has a polarity of its own: its "not" is not the clause's.
_CONDITION = re.compile(
    r"\s+(?:if|when|whenever|once|until|as\s+long\s+as|so\s+long\s+as|provided(?:\s+that)?)\s+"
    r"|\s+(?=unless\s)",
    re.IGNORECASE,
)


class _Piece(NamedTuple):
    """A clause as polarity reads it: ``polar`` says its negation and direction (the
    clause without its conditions and "without" phrases), ``whole`` its words (all of
    them, so it is matched as written); ``part`` marks a condition or "without" phrase
    split off a clause."""

    polar: str
    whole: str
    part: bool
    condition: bool = False  # a condition ("if …", "unless …", 如果…, 只要…)
    requires: str = ""  # the condition a prohibition sets (``_RULE_CONDITION``)


_NOT_BEFORE_WITHOUT = re.compile(r"\b(?:not|never)\s+|(?<=\bcan)not\b", re.IGNORECASE)


# A bracketed aside that negates something of its own ("(authenticator app or hardware
# key, not SMS)"): read as a clause after its sentence, not as the negation of it.
_NEGATED_ASIDE = re.compile(r"\s*\(([^()]{0,80}?\b(?:not|no|never)\b[^()]{0,80}?)\)")


def _polar_pieces(text: str) -> list[_Piece]:
    """The clauses of ``text`` that negation and direction are compared on: ``_CLAUSE``
    pieces of ``_polar_text``, each with its conditions and a "without …" phrase apart
    (unless a negation before it turns it round: "may not enter without an escort")."""
    polar = _polar_text(text)
    if "(" in polar and _NEGATED_ASIDE.search(polar) is not None:
        # "MFA (an app or a key, not SMS) is required": the aside's negation is its own
        polar = (
            _NEGATED_ASIDE.sub("", polar).rstrip(" .")
            + "; "
            + "; ".join(m.group(1) for m in _NEGATED_ASIDE.finditer(polar))
        )
    if _RULE_CONDITION in polar and " and " in polar:
        # the condition a prohibition sets is one clause ("only § in youth divisions of U12
        # and below"): its "and" joins its words, not two clauses
        polar = _CONDITION_AND.sub(lambda m: m.group().replace(" and ", " & "), polar)
    pieces = _CLAUSE.split(polar)
    if len(pieces) > 1 and " or " in polar:
        pieces = _elliptical(pieces)
    if any(_RULE_CONDITION in p for p in pieces):
        return [q for p in pieces for q in _required_pieces(p)]
    lower = text.lower()
    if " with" not in lower and _CONDITION.search(lower) is None:
        return [_Piece(p, p, False, _FRONTED_CONDITION.match(p) is not None) for p in pieces]
    out: list[_Piece] = []
    for piece in pieces:
        # ("regardless of when the order is placed" is no condition: it drops one)
        head, *conditions = [piece] if _REGARDLESS.search(piece) else _CONDITION.split(piece)
        parts = [_Piece(c, c, True, True) for c in conditions if c.strip()]
        m = _WITHOUT.search(head) if "with" in head.lower() else None
        if m is not None and has_content(head[: m.start()]):  # (a clause that opens with
            # "without" is governed by it whole: "without any approval needed for …";
            # "with manager approval" is split off too, to meet "without manager approval")
            phrase = m.group()
            if phrase[:7].lower() == "without" and _DOUBLE_NEGATION.search(head) is not None:
                # "may not enter without an escort": may enter, with an escort
                phrase = "with " + m.group(1)
                head = _NOT_BEFORE_WITHOUT.sub("", head[: m.start()], count=1) + head[m.start() :]
                m = _WITHOUT.search(head)
                assert m is not None
            parts.append(_Piece(phrase, phrase, True))
            head = (head[: m.start()] + " " + head[m.end() :]).strip()
        fronted = _FRONTED_CONDITION.match(piece) is not None
        if parts and head.strip():
            out.append(_Piece(head, piece, False, fronted))
            out.extend(parts)
        else:
            out.append(_Piece(piece, piece, False, fronted))
    return out


# "No exit fee applies in the last 49 days, or if you switch tariffs": a clause that is only
# another condition ("or if …") goes with the clause before it, negation and all.
_OR_CONDITION = re.compile(r"\s*(?:or|and)\s+(?=(?:if|when|where|whenever|unless|once)\b)", re.I)


def _elliptical(pieces: list[str]) -> list[str]:
    out = [pieces[0]]
    for piece in pieces[1:]:
        m = _OR_CONDITION.match(piece)
        if m is not None and has_content(out[-1]):
            head = _CONDITION.split(out[-1])[0]
            piece = f"{head} {piece[m.end() :]}"
        out.append(piece)
    return out


_CONDITION_AND = re.compile(r" § [^,;.]*")  # (_RULE_CONDITION and what follows it)


def _required_pieces(piece: str) -> list[_Piece]:
    """A clause a prohibition wrote as a permission ("X only after § Y"): the clause, which
    requires Y, and Y as its condition."""
    head, mark, condition = piece.partition(_RULE_CONDITION)
    if not mark:
        return _polar_pieces(piece)
    return [
        _Piece(head, head + condition, False, False, condition),
        _Piece(condition, condition, True, True),
    ]


# A clause that is a condition by its first word: "If the receipts are missing, …", "只要
# 存储不超过5GB，…", or that names its condition (前提是, 条件是).
_FRONTED_CONDITION = re.compile(
    r"\s*(?:(?:if|unless|provided|as\s+long\s+as|only\s+if)\b|如果|若|只要|倘若|假如|凡)"
    r"|.*(?:前提是|条件是|的前提下|的情况下)",
    re.IGNORECASE,
)
# What says "regardless of it": a claim clause dropping the context's condition
# ("…, whatever the storage use", "无论存储用量多少").
# A bound that restricts a rule to some cases (flights of 6 hours or longer, 超过5000元).
_BOUND_WORDS = re.compile(
    r"\b(?:or\s+(?:longer|more|less|shorter|above|below|over|under|fewer|higher|lower)|"
    r"at\s+(?:least|most)|(?:shorter|longer|more|less|fewer|higher|lower)\s+than|over|under|"
    r"above|below|up\s+to|exceeding|between|within|only)\b|以上|以下|超过|不足|至少|最多|不超过|"
    r"低于|高于|之内|以内|仅|年满|满\d|未满",
    re.IGNORECASE,
)


def _drops_a_bound(sentence: str, claim: str) -> bool:
    """Whether ``sentence`` bounds what it says with a word ``claim`` does not have."""
    said = claim.lower()
    return any(m.group().lower() not in said for m in _BOUND_WORDS.finditer(sentence))


_REGARDLESS = re.compile(
    r"\b(?:regardless\s+of|irrespective\s+of|whatever|whichever|no\s+matter|in\s+any\s+case|"
    r"unconditionally)\b|无论|不论|不管|不受.{0,6}限制",
    re.IGNORECASE,
)
# Quantifiers: "all cities" against "Tier 1 cities", "All directors voted" against "Two
# directors abstained", "All team members can invite" against "Only owners … can invite",
# 所有城市 against 更多城市.
_UNIVERSAL = re.compile(
    r"\b(?:all|every|everyone|everybody)\b(?!\s+(?:of\s+)?(?:the\s+)?(?:time|times|year|years|"
    r"day|days|month|months|week|weeks|quarter|quarters|other|second|third|fourth|fifth|tenth|"
    r"few|couple|\d+(?:st|nd|rd|th)?)\b)|所有(?!者|权|制|人员?之)|全部|全体|一律|任何(?!一方)",
    re.IGNORECASE,
)
_RESTRICTED = re.compile(
    r"\b(?:only|some|certain|selected|several|few|tier\s*\d)\b"
    r"|\bevery\s+(?:other|second|third|fourth|fifth|tenth|\d+(?:st|nd|rd|th)?)\b"
    r"|部分|一些|少数|个别|更多|只有|仅|指定|若干|某些|某一?类|其中",
    re.IGNORECASE,
)
_COUNTED = re.compile(
    r"\b(?:\d+(?:st|nd|rd|th)?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|first|"
    r"second|third|last)\s+([a-z][a-z-]+)",
    re.IGNORECASE,
)
_UNIVERSAL_NOUN = re.compile(
    r"\b(?:all|every)\s+(?:(?:of\s+)?(?:the|our|its|their)\s+)?([a-z][a-z-]+)(?:\s+([a-z][a-z-]+))?",
    re.IGNORECASE,
)


def _quantifier(text: str) -> str:
    """ "all" when a clause quantifies over everything, "some" when it restricts, else ""."""
    if _UNIVERSAL.search(text) is not None:
        return "all"
    if _RESTRICTED.search(text) is not None or (
        not text.isascii() and re.search(r"[一二两三四五六七八九十\d]+(?:个|家|名|位|座|类)", text)
    ):
        return "some"
    return ""


def _quantifier_problem(piece: str, top: list[tuple[_Clause, str]]) -> tuple[str, str] | None:
    """A claim clause that says "all" where its best context clauses restrict the same
    thing (only, some, Tier 1, two of them, 部分, 更多) and none of them says "all"."""
    if _quantifier(piece) != "all" or any(c.quantifier == "all" for c, _ in top):
        return None
    nouns: set[str] = set()
    m = _UNIVERSAL_NOUN.search(piece)
    if m is not None:
        nouns.update(_stem(w.lower()) for w in m.groups() if w)
    for c, sentence in top:
        # (a subject "Only owners and administrators" is cut at "and": the sentence says it)
        if c.quantifier == "some" or (not c.quantifier and _quantifier(sentence) == "some"):
            return "says all where the context restricts it", sentence
        counted = {_stem(w.lower()) for w in _COUNTED.findall(sentence)}
        if nouns & counted:
            return "says all where the context counts them", sentence
        if not piece.isascii():
            m = _CJK_UNIVERSAL_NOUN.search(piece)
            if m is not None and f"的{m.group(1)}" in sentence:
                # 所有股东 against 持股1%以上的股东: the context names which ones
                return "says all where the context qualifies them", sentence
        qualified = {_stem(w.lower()) for w in _QUALIFIED.findall(sentence)}
        if nouns & qualified:
            # "Shareholders holding at least 1% may attend": the context names which ones
            return "says all where the context qualifies them", sentence
    return None


_CJK_UNIVERSAL_NOUN = re.compile(r"(?:所有|全部|全体|任何|一切)的?([\u4e00-\u9fff]{2})")
# A noun the sentence qualifies by a participle or relative clause right after it:
# "shareholders holding at least 1%", "employees who joined before 2020".
_QUALIFIED = re.compile(
    r"\b([a-z][a-z-]+)\s+(?:who|that|whose|holding|having|owning|earning|aged|with\s+at\s+least|"
    r"with\s+more\s+than|employed|hired|based|located|enrolled|registered)\b",
    re.IGNORECASE,
)


def _narrowed_problem(piece: str, top: list[tuple[_Clause, str]]) -> tuple[str, str] | None:
    """A claim clause that says only one may (``Only the Customer may terminate``, 只有甲方)
    where its best context clause gives it to either or both (``Either party may
    terminate``, 双方, 任何一方) and says no "only" itself."""
    if _ONLY_ONE.search(piece) is None:
        return None
    for _, sentence in top:
        if _EITHER.search(sentence) is not None and _ONLY_ONE.search(sentence) is None:
            return "says only one where the context says either or both", sentence
    return None


# A claim that a rule holds "only where" a condition with a number ("Guards are required
# only where the drop exceeds 1,800 mm", 仅当落差超过1800毫米时才需设置护栏) names the condition
# that rule has; the context clause that states the rule with a number of its own (more
# than 760 mm) sets another one.
_ONLY_WHERE = re.compile(
    r"^(?P<head>.+?)\s+only\s+(?:where|if|when|once)\s+(?P<cond>.+)$", re.IGNORECASE
)
_CJK_ONLY_WHERE = re.compile(
    r"(?:只有|仅当|仅在|只在)(?P<cond>[^，,。；;]+?)(?:时|的)[，,]?(?:才|方)?(?:会|能|可|需|应)?"
    r"(?P<head>[^，,。；;]+)"
)
_RULE_CLAUSE = re.compile(r"[;；。]|[,，]\s*(?:except|but|while|whereas|但|除)")


def _numbers_in(text: str) -> frozenset[Decimal]:
    return frozenset(m.value * m.scale for m in number_mentions(fold(text)))


_CJK_PERMIT = re.compile(
    r"(?<![不没未无非仅只才方])(?:仍然可以|仍可以|仍可|仍能|也可以|也可|可以|能够|准予|予以|可|能)"
    r"([\u4e00-\u9fff]{2})"
)


_CJK_ONLY_PERMIT = re.compile(r"只有|唯有|仅|只能|只可|才|方可|方能|须经|经过?.{0,12}(?:后|方|才)")


def _cjk_permit_denied(claim: str, texts: Sequence[str], label: str) -> str | None:
    """Why ``claim`` permits what the contexts deny and never permit (仍可录取 against
    不予录取), or None."""
    if _CJK_ONLY_PERMIT.search(claim):
        return None  # 只有经过审批才能访问: a permission with its condition (rule forms)
    for m in _CJK_PERMIT.finditer(claim):
        verb = m.group(1)
        # (a denial under a condition, 未经批准不得使用 or …除外, permits it with the
        # condition: 经批准可使用 is faithful)
        denied = re.compile(
            r"(?:^|[，。；,;：:])(?:(?!未经|除非|未|没有|无|除)[^，。；,;])*"
            f"(?:不予|不得|不可|不能|不准|禁止|不再|不会){verb}(?![^。；;]*除外)"
        )
        if any(denied.search(t) for t in texts) and not any(
            _CJK_PERMIT.search(t) and any(p.group(1) == verb for p in _CJK_PERMIT.finditer(t))
            for t in texts
        ):
            return f"says 可{verb} where {label} say it is denied"
    return None


def _only_condition_problem(claim: str, sentences: Sequence[str], label: str) -> str | None:
    """Why ``claim`` says a rule holds only under a condition whose number the contexts
    give another clause, while the clause stating that rule sets another number; or None."""
    text = claim.strip().rstrip(".。")
    m = _ONLY_WHERE.match(text) if text.isascii() else _CJK_ONLY_WHERE.search(text)
    if m is None:
        return None
    head, cond = _terms(m.group("head")), _numbers_in(m.group("cond"))
    if _weight(head) < 1.5 or not cond:
        return None
    for sentence in sentences:
        for clause in _RULE_CLAUSE.split(sentence):
            if clause and head <= _terms(clause):
                given = _numbers_in(clause)
                if given and cond.isdisjoint(given):
                    return f"says the rule holds only under a condition {label} set otherwise"
    return None


_ONLY_ONE = re.compile(r"\b(?:only|solely|exclusively)\b|只有|只能|仅(?!供)|唯有", re.IGNORECASE)
_EITHER = re.compile(
    r"\b(?:either|both)\b|\b(?:each|any|all|every)\s+(?:of\s+the\s+)?(?:part(?:y|ies)|sides?|"
    r"signator(?:y|ies)|spouses?|partners?|members?)\b|双方|任何一方|任一方|各方|每一方|任意一方",
    re.IGNORECASE,
)


_DOUBLE_NEGATION = re.compile(r"\b(?:not|no|never|cannot|nor)\b[^,;.]*\bwithout\b", re.IGNORECASE)


# A bound on a span of time is a length: "under 6 hours" says shorter, "over 6 hours"
# longer (so "for shorter flights" agrees with "flights under 6 hours", and "for longer
# flights" is its opposite).
_SPAN_BOUND = re.compile(
    r"\b(below|beneath|under|above|over)\s+(?:\d+(?:\.\d+)?|one|two|three|four|five|six|"
    r"seven|eight|nine|ten|twelve)\s*(?:-\s*)?(?:hours?|hrs?|minutes?|mins?|days?|weeks?|"
    r"months?|years?)\b",
    re.IGNORECASE,
)
_BELOW_WORDS = frozenset(["below", "beneath", "under"])
# "following" as a preposition of time ("following the birth of a child"), not "the
# following documents".
_FOLLOWING = re.compile(
    r"\bfollowing\s+(?:the|a|an|its|their|his|her|your|our|each|any|every|completion|"
    r"approval|receipt|termination|notification)\b",
    re.IGNORECASE,
)


def _directions(text: str, tokens: frozenset[str]) -> frozenset[str]:
    # Each token's directions by one look-up (the same set as testing every direction's
    # words against the tokens, without ~50 set intersections per clause).
    found = {name for t in tokens if t in _DIRECTIONS_OF for name in _DIRECTIONS_OF[t]}
    if ("below" in found or "above" in found) and _SPAN_BOUND.search(text) is not None:
        # "flights under 6 hours" are the shorter flights, "over 6 hours" the longer ones
        found.update(
            ("shorter" if m.group(1).lower() in _BELOW_WORDS else "longer")
            for m in _SPAN_BOUND.finditer(text)
        )
    if "following" in tokens and _FOLLOWING.search(text) is not None:
        found.add("after")  # "following the birth" is after it
    if not text.isascii():
        found.update(name for name, pattern in _CJK_DIRECTIONS.items() if pattern.search(text))
    return frozenset(found)


# What a sentence sets as a condition: "with the prior approval of", "subject to written
# consent", "only with authorisation".
_WITH_CONDITION = re.compile(
    r"\b(?:with|subject\s+to|upon|requires?|requiring)\s+(?:the\s+|a\s+|an\s+|their\s+|your\s+|"
    r"his\s+|her\s+)?(?:prior\s+|written\s+|express\s+|formal\s+|explicit\s+)*"
    r"(approval|consent|authori[sz]ation|permission|sign-off|agreement|notice)\b",
    re.IGNORECASE,
)


# A figure told of a subject: "Agency headcount grew 18%", "premium income rose 5%".
_SUBJECT_FIGURE = re.compile(
    r"\b(?:([a-z][a-z-]+)\s+)?([a-z][a-z-]{3,})\s+(?:grew|rose|fell|increased|decreased|"
    r"declined|dropped|climbed|jumped|reached|totall?ed)\s+(?:by\s+)?(?:about\s+|around\s+|"
    r"some\s+|nearly\s+)?[$€£¥]?\d[\d,.]*\s*%?",
    re.IGNORECASE,
)
# Words that say what is measured, not of what: "premium income" is the premiums'.
_MEASURE_WORDS = frozenset(
    [
        "income",
        "revenue",
        "revenues",
        "volume",
        "volumes",
        "amount",
        "amounts",
        "total",
        "totals",
        "figure",
        "figures",
        "level",
        "levels",
        "number",
        "numbers",
        "value",
        "values",
        "rate",
        "rates",
        "growth",
        "sales",
        "earnings",
        "count",
    ]
)


_CONNECTIVE_WORDS = frozenset(
    [
        "while",
        "whereas",
        "and",
        "but",
        "as",
        "when",
        "because",
        "although",
        "though",
        "since",
        "so",
        "yet",
        "also",
        "then",
    ]
)


def _unnamed_subject(claim: str, contexts: _Contexts) -> str | None:
    """A figure given for a subject the contexts never name in any form ("Agency
    headcount grew 18%" where 18% is new business value's growth): the figure is theirs,
    the subject is not. A word that only says what is measured ("premium income") is
    read through to the word before it."""
    for m in _SUBJECT_FIGURE.finditer(claim):
        word = m.group(2).lower()
        if word in _MEASURE_WORDS and m.group(1) is not None:
            word = m.group(1).lower()
        if (
            word in STOPWORDS
            or word in _DIRECTIONS_OF
            or word in _MEASURE_WORDS
            or word in _CONNECTIVE_WORDS
        ):
            continue
        if contexts.match(word) is None:
            figure = m.group().split()[-1]
            return f"gives {figure} for {word!r}, which {contexts.label} never name"
    return None


def _instructs(sentence: str, topic: set[str]) -> bool:
    """Whether ``sentence`` instructs what ``topic`` is about: a clause of it opens on a
    verb of procedure ("Before any maintenance, isolate the power supply"; "Always wear
    safety glasses") and shares two of its words."""
    for clause in _INSTRUCTION_SPLIT.split(sentence):
        m = _IMPERATIVE.match(clause)
        if m is not None and m.group(1).lower() in _IMPERATIVE_VERBS:
            words = _clause_tokens(clause) - STOPWORDS
            if len(words & topic) >= 2:
                return True
    return False


# An instruction is a requirement: a clause that opens on a verb of procedure
# ("isolate the power supply", "Always wear gloves", "Please submit the form") requires
# it, so "You do not need to isolate the power supply" (optional) contradicts it.
_IMPERATIVE = re.compile(
    r"\s*(?:(?:always|please|first|then|also|and)\s+)?([A-Za-z]+)\s+\w", re.IGNORECASE
)
_INSTRUCTION_SPLIT = re.compile(r"[,;:]\s*|\s+and\s+|\s+then\s+")
_IMPERATIVE_VERBS_TEXT = """
    isolate disconnect switch turn shut unplug lock tag wear use apply attach install remove
    replace inspect check verify test clean drain flush purge ventilate secure ground earth
    record log report notify inform contact call email submit file send return complete fill
    obtain get request book register pay keep store retain back encrypt enable disable update
    patch change reset rotate review sign approve confirm ensure follow read label mark seal
    wash rinse dispose discard destroy shred escalate document photograph measure calibrate
    tighten torque lubricate grease charge upload present show carry bring
"""
_IMPERATIVE_VERBS = frozenset(_IMPERATIVE_VERBS_TEXT.split())


_CJK_PERMISSIVE = frozenset("可也")
_CJK_MODALS = frozenset("得须需必能会可应要用该")  # 不得, 无须, 不必, 不能, 不应, 不用 …


def _negation_scope(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(negated, affirmed) characters of a Chinese clause: each cue's next character
    (无须维持 negates 须), and the characters before the first cue (a negation reaches to
    the clause's end: 公司从不向第三方出售客户数据 affirms 公, 司 only, so 客户数据不会出售
    does not negate a word it affirms)."""
    if text.isascii():
        return frozenset(), frozenset()
    negates: set[str] = set()
    shadow: set[int] = set()
    for m in _CJK_NEGATION.finditer(text):
        end = m.end()
        # A modal after the cue is not what it negates alone: 不得维持 and 毋须披露 negate
        # the verb too (维, 披), so 不得维持 contradicts 须维持 whatever else both negate.
        while end < len(text) and text[end] in _CJK_MODALS:
            negates.add(text[end])
            end += 1
        if end < len(text) and not text[end].isascii():
            negates.add(text[end])
        stop = _CJK_SCOPE_END.search(text, end)  # to the clause end, or 即可 …
        until = stop.start() if stop is not None else len(text)
        if m.group() == "无":
            # 无 before a noun phrase closed by 后/时/期间 negates the phrase only: 2年无活动
            # 后删除 deletes (and 2年无活动后永不删除 negates 删)
            phrase = _NOUN_NEGATION.match(text, end)
            if phrase is not None:
                until = min(until, phrase.end())
        shadow.update(range(m.start(), until))
    affirms = {ch for i, ch in enumerate(text) if i not in shadow and not ch.isascii()}
    return frozenset(negates), frozenset(affirms)


_DECIMAL = re.compile(r"(?<=\d)\.(?=\d)")
# The noun phrase a 无 negates when a time word closes it (无活动后, 无理赔时); not 无须, 无法 …
_NOUN_NEGATION = re.compile(r"(?![须需法权])[\u4e00-\u9fff]{1,4}?(?:之后|后|时|期间)")


def _clause_tokens(piece: str) -> frozenset[str]:
    """A clause's tokens, a decimal as one token: the 3 of 8.3% is not the 3 of 3%."""
    if "." in piece:
        piece = _DECIMAL.sub("d", piece)
    return frozenset(TOKEN.findall(piece.lower()))


def _clauses_of(text: str, sentence: int) -> list[_Clause]:
    out: list[_Clause] = []
    for piece, whole, part, condition, requires in _polar_pieces(text):
        raw = _clause_tokens(whole)
        if not raw:
            continue
        polar = raw if piece is whole else _clause_tokens(piece)
        negated = _negated(piece, polar)
        negates, affirms = _negation_scope(piece) if negated else (frozenset(), frozenset())
        out.append(
            _Clause(
                raw - STOPWORDS - _NOT_OVERLAP,
                negated,
                _directions(piece, polar),
                sentence,
                negates,
                affirms if negated else _affirmed_all(piece),
                _terms(whole),
                _terms(_scope_text(piece)) if negated else frozenset(),
                part,
                _quantifier(piece),
                condition,
                _terms(requires) if requires else frozenset(),
                restricts=piece.isascii() or condition or _reads_as_condition(piece),
            )
        )
    return out


# A Chinese clause that sets the case the next one holds in: a 的-phrase (车辆全损的), a
# time or circumstance (…时, …后, …期间, …的情况下), or one opened by a condition word.
_CJK_CONDITION_END = re.compile(r"(?:的|时|者|后|之前|以前|期间|以内|情况下|前提下)\s*[。；;]?\s*$")


def _reads_as_condition(piece: str) -> bool:
    """Whether a Chinese clause reads as the condition of the clause beside it, not as a
    statement of its own ("法定节假日加班按日工资的300%支付加班费，不安排调休": the pay rule
    does not restrict 不安排调休)."""
    return (
        _CJK_CONDITION_END.search(piece) is not None or _FRONTED_CONDITION.match(piece) is not None
    )


_CUE = re.compile(
    r"\b(?:not|no|never|without|nor|neither|none|nobody|nothing|cannot|unable|fail(?:s|ed)?|"
    r"lack(?:s|ed|ing)?|unless|excluded|ineligible|missing|absent|rejected|invalid|void)\b",
    re.IGNORECASE,
)
_STEM_ENDS = ("ing", "ed", "es", "s", "d", "e")


def _stem(word: str) -> str:
    """A crude stem, so that the inflections ``_variants`` relates compare equal."""
    if len(word) > 4:
        for end in _STEM_ENDS:
            if word.endswith(end) and len(word) - len(end) >= 4:
                return word[: -len(end)]
    return word


def _terms(text: str) -> frozenset[str]:
    """What a clause speaks of: English content words (stemmed, no numbers, no cues) and
    Chinese character pairs."""
    words = {
        _stem(t)
        for t in TOKEN.findall(text.lower())
        if t.isascii() and t.isalpha() and t not in STOPWORDS and t not in _NOT_OVERLAP
    }
    if not text.isascii():
        words.update(_cjk_pairs(text))
    return frozenset(words)


# Terms of time that a condition and its clause both may hold ("within 2 hours").
_WHEN_TERMS = _terms("within hours hour days day weeks week months month years year minutes") | {
    "小时",
    "天内",
    "日内",
    "个月",
    "分钟",
}


# Where a Chinese negation's reach ends: 无需经理批准即可申请 negates the approval, not
# the application after 即可.
_CJK_SCOPE_END = re.compile(r"即可|便可|就可|就能|亦可|也可|方可|才能|才可|而是|却")


def _scope_text(piece: str) -> str:
    """What a negated clause negates: from its cue to the clause's end (in Chinese, to a
    word that starts an affirmed verb: 即可, 便可, 才能 …)."""
    at = _cue_at(piece)
    if piece.isascii():
        return piece[at:]
    end = _CJK_SCOPE_END.search(piece, at)
    return piece[at : end.start()] if end is not None else piece[at:]


def _cue_at(piece: str) -> int:
    """Where what a negated clause negates starts: at an English cue (a cue word is no
    term), after a Chinese one (未加密 negates 加密); 0 when no cue is found."""
    m = _CUE.search(piece)
    at = m.start() if m is not None else len(piece)
    if not piece.isascii():
        cjk = _CJK_NEGATION.search(piece)
        if cjk is not None and cjk.start() < at:
            at = cjk.end()
    return at if at < len(piece) else 0


def _term_weight(terms: Iterable[str]) -> float:
    return sum(1.0 if t.isascii() else 0.5 for t in terms)


def _scope_problem(
    piece: str,
    negated: bool,
    top: list[tuple[_Clause, str]],
    clauses: list[tuple[_Clause, str]],
    answered: set[int] | frozenset[int] = frozenset(),
) -> tuple[str, str] | None:
    """Negation compared by what it negates, not by where a cue stands.

    A negated claim clause whose best matches are negated about something else ("Customer
    data is not encrypted at rest" against "Customer data is never sold …") is
    contradicted by a plain context clause holding what it negates ("… encrypted at rest
    with AES-256") when no negated clause speaks of it. A plain claim clause whose words
    beyond its best match stand only under a negation ("…的核心驱动因素是单纯扩大人力规模"
    against "…是代理人队伍质量的提升，而不是单纯扩大人力规模") affirms what the context
    denies."""
    if negated:
        scope = _terms(_scope_text(piece))
        if _term_weight(scope) < 1 or not any(c.negated for c, _ in top):
            return None
        if any(c.negated and not scope.isdisjoint(c.terms) for c, _ in clauses):
            return None
        need = max(1.0, _term_weight(scope) * 2 / 3)
        for c, sentence in clauses:
            if not c.negated and _term_weight(scope & c.terms) >= need:
                return "negated, but the context is not", sentence
        return None
    terms = _terms(piece)
    new = terms.difference(*(c.terms for c, _ in top))
    if _term_weight(new) < 2:
        return None
    denied: set[str] = set()
    affirmed: set[str] = set()
    where = ""
    for c, sentence in clauses:
        if c.negated:
            if id(c) in answered:
                continue  # the counterpart of the claim's own negated clause (reordered)
            if not where and not new.isdisjoint(c.scope):
                where = sentence
            denied.update(c.scope)
            affirmed.update(c.terms - c.scope)
        else:
            affirmed.update(c.terms)
    hit = (new & denied) - affirmed
    if _term_weight(hit) >= 1.5 and _term_weight(hit) * 2 >= _term_weight(new - affirmed):
        return "affirms what the context denies", where
    return None


# A requirement carried over a coordinated clause: "必须通过公司VPN连接，并启用多因素认证",
# "must connect through the company VPN and enable multi-factor authentication".
_CARRIED = re.compile(
    r"(?:必须|须|应当|务必|\bmust\b|\bshall\b|\b(?:is|are)\s+required\s+to\b)[^。；;.!?]*?"
    r"(?:[，,]\s*(?:并且?|且|同时)|\s+and\s+(?:also\s+)?)([^，,。；;.!?]+)",
    re.IGNORECASE,
)


def _carried_requirement(topic: set[str], top: list[tuple[_Clause, str]]) -> str | None:
    """The sentence of a best clause that joins it to a requirement (``must …, and enable
    X``, ``必须…，并启用X``), when a claim clause calls X optional: the clause itself says no
    direction, its sentence's ``must``/必须 does. None if no best clause is so joined."""
    for sentence in dict.fromkeys(s for _, s in top):
        for m in _CARRIED.finditer(sentence):
            if len(_clause_tokens(m.group(1)) & topic) >= 2:
                return sentence
    return None


def _denied_for_scope(
    piece: str,
    top: list[tuple[_Clause, str]],
    clauses: list[tuple[_Clause, str]],
    answered: set[int] | frozenset[int] = frozenset(),
    claim: str = "",
) -> tuple[str, str] | None:
    """A plain claim clause that gives one scope's rule to another: its predicate is a
    best clause's ("工作日加班可申请调休", "Standard items may be returned …"), but the words
    it says beyond that clause name another scope, whose own sentence denies that predicate
    ("法定节假日加班…，不安排调休", "Personalised items … cannot be returned"), so
    "法定节假日加班可以申请调休" and "Personalised items may be returned …" fail: the
    contexts' rule for the claim's scope is the denial, the permission is the other's."""
    if any(c.negated for c, _ in top):
        return None
    terms = _terms(piece)
    denials = [
        (c, s)
        for c, s in clauses
        if c.negated and not terms.isdisjoint(c.scope) and id(c) not in answered
    ]  # (not the counterpart of the claim's own negated clause: a reordered pair)
    if not denials:
        return None  # (cheap: nothing the claim says is denied anywhere)
    known = set().union(*(c.terms for c, _ in clauses))
    for t, own in top:
        extra = (terms - t.terms) & known  # the claim's other scope, as the contexts write it
        if _term_weight(extra) < 1:
            continue
        dropped = t.terms - terms  # the best clause's own scope, which the claim leaves out
        for c, sentence in denials:
            denied = c.scope & terms
            if sentence == own or not denied <= t.terms or not extra.isdisjoint(c.scope):
                continue
            there = set().union(*(d.terms for d, s in clauses if s == sentence))
            if extra <= there and dropped.isdisjoint(there):
                if claim and not _own_denials(claim).isdisjoint(c.scope - t.terms):
                    continue  # the claim denies it too ("…, but not in cash"): reordered
                return "the context denies it for what it names", sentence
    return None


def _own_denials(claim: str) -> frozenset[str]:
    """The terms a claim's own negated clauses negate, short ones too ("but not in
    cash", 不可选一等座), so a context denial of them is the claim's, said elsewhere."""
    out: set[str] = set()
    for p in _polar_pieces(claim):
        if _negated(p.polar, _clause_tokens(p.polar)):
            out |= _terms(_scope_text(p.polar))
    return frozenset(out)


def _affirmed_all(piece: str) -> frozenset[str]:
    return frozenset() if piece.isascii() else frozenset(ch for ch in piece if not ch.isascii())


@lru_cache(maxsize=1024)
def _passage_clauses(text: str) -> tuple[_Clause, ...]:
    passage = _passage(text)
    return tuple(c for i, s in enumerate(passage.sentences) for c in _clauses_of(s, i))


@lru_cache(maxsize=16384)
def _variants(token: str) -> tuple[str, ...]:
    """Inflections a word may take in the other text (support ~ supports ~ supported);
    kept per word (each claim word not in the contexts asks, ~1.5 µs to build)."""
    if len(token) < 4 or not token.isalpha() or not token.isascii():
        return ()
    out = [token + "s", token + "es", token + "d", token + "ed"]
    if token.endswith("s"):
        out.append(token[:-1])
    if token.endswith(("es", "ed")):
        out.append(token[:-2])
    if token.endswith("d"):
        out.append(token[:-1])
    if token.endswith("ing"):
        out += [token[:-3], token[:-3] + "e"]
    if token.endswith("e"):
        out.append(token[:-1] + "ing")
    # derivations that name the same thing: night ~ nightly, book ~ bookings
    out += [token + "ly", token + "ings"]
    if token.endswith("ly") and len(token) >= 6:
        out.append(token[:-2])
    if token.endswith("ings") and len(token) >= 8:
        out.append(token[:-4])
    return tuple(out)


# Words that permit or prohibit, and the modal forms that do (rule 1: found where the
# contexts permit or prohibit anything; rule 3 compares which).
_DEONTIC_TEXT = """allowed allow allows permitted permit permits permissible prohibited prohibit
    prohibits forbidden forbid forbids banned ban bans disallowed barred"""
_DEONTIC = frozenset(_DEONTIC_TEXT.split())
_MODAL_RULE = re.compile(
    r"\b(?:cannot|can\s*not|may\s+not|must\s+not|shall\s+not|can't|mustn't)\b|"
    r"[不禁]得|禁止|严禁|允许|不准|不能|不可",
    re.IGNORECASE,
)


# A capitalised word after the first of its sentence (a name: Europe, Frankfurt, ACME).
_NAME = re.compile(r"(?<=[\w,;:)] )[A-Z][A-Za-z]+\b")


@lru_cache(maxsize=1024)
def _stem_index(vocab: frozenset[str]) -> dict[str, str]:
    """Each stem of a passage's English words → one word that has it (paraphrase.stems).

    When several words share a stem, the same one wins whatever the set's order (which
    moves with the hash seed): the word whose own inflected form is the stem (``directed``
    for ``direct``, not ``directions``), then the shorter, then the first alphabetically —
    so a verdict never depends on the process it was judged in."""
    index: dict[str, str] = {}
    for word in sorted(w for w in vocab if len(w) >= 3 and w.isascii() and w.isalpha()):
        for stem in stems(word):
            held = index.get(stem)
            if held is None or _stem_rank(word, stem) < _stem_rank(held, stem):
                index[stem] = word
    return index


def _stem_rank(word: str, stem: str) -> tuple[bool, int]:
    return (stem not in (word, base(word)), len(word))


def _specific_first(found: frozenset[str]) -> list[str]:
    """Stems most specific first (longest, then alphabetical): a fixed order, not the
    frozenset's, which moves with the hash seed."""
    return sorted(found, key=lambda stem: (-len(stem), stem))


def _key(sentence: str) -> str:
    """A sentence compared verbatim: whitespace runs as one space, no end punctuation."""
    if "  " in sentence or not sentence.isprintable():  # tabs, newlines, odd spaces
        sentence = " ".join(sentence.split())
    return sentence.strip().rstrip(" .。!?！？;；")


def _normalised(text: str) -> str:
    """``text`` with whitespace runs as one space (itself when it has none: a scan is
    cheaper than a split and a join)."""
    # A newline or a tab is not printable: isprintable() finds them in the same scan.
    if "  " in text or not text.isprintable():
        return " ".join(text.split())
    return text


_ENDS = frozenset(".!?;")
_CJK_ENDS = frozenset("。！？；")
_ALL_ENDS = _ENDS | _CJK_ENDS


def _is_sentence_of(key: str, text: str) -> bool:
    """Whether ``key`` (a ``_key``) is a whole sentence of ``text`` (whitespace-normalised):
    found where a sentence starts and ending where one ends (a substring search, no
    splitting; "narrowed to 1" is not a sentence of "narrowed to 1.2 years.")."""
    if not key:
        return False
    size = len(text)
    start = text.find(key)
    while start >= 0:
        end = start + len(key)
        before = (
            start == 0
            or text[start - 1] in _CJK_ENDS
            or (text[start - 1] == " " and start >= 2 and text[start - 2] in _ALL_ENDS)
        )
        after = (
            end == size
            or text[end] in _CJK_ENDS
            or (text[end] in _ENDS and (end + 1 == size or text[end + 1] == " "))
        )
        if before and after:
            return True
        start = text.find(key, start + 1)
    return False


def _in(word: str, tokens: frozenset[str]) -> bool:
    return word in tokens or any(v in tokens for v in _variants(word))


class _Contexts:
    """The contexts of one judgement. Only the sentences are cut up front: a claim that
    is a context sentence verbatim (extractive answers) is supported without more. The
    vocabulary, numbers and clauses are built when a claim needs them."""

    def __init__(self, contexts: Sequence[str], label: str = "the contexts") -> None:
        self.label = label  # how a reason names them
        self.texts = contexts
        self.texts_key = tuple(contexts)
        self._reflowed: list[str] | None = None  # see verbatim
        self.passages: list[_Passage] = []
        self.vocab: frozenset[str] = frozenset()
        self.cued = self.paired = False
        self._numbers: frozenset[Decimal] | None = None
        self._clauses: list[tuple[_Clause, str]] | None = None
        self._verbatim: dict[str, bool] = {}
        self._lettered: bool | None = None
        self._non: frozenset[str] | None = None
        self._stemmed: list[dict[str, str]] | None = None
        self._rules: bool | None = None
        self._free: bool | None = None

    def verbatim(self, claim: str) -> bool:
        """Whether ``claim`` is a sentence of the contexts word for word (answer_accuracy
        asks twice per reference sentence: once judging it, once for the recall)."""
        found = self._verbatim.get(claim)
        if found is None:
            key = _key(claim)
            # Whitespace-normalising a text only joins whitespace runs, and ``key`` has
            # none: a whole sentence of the text as given is one of the normalised text,
            # so that is asked first, and normalised texts are built only when it is not
            # (tests/gates/test_judging_once.py checks the two ways agree).
            found = False
            for text in self.texts:
                if _is_sentence_of(key, text):
                    found = True
                    break
            else:
                for text in self.reflowed:
                    if _is_sentence_of(key, text):
                        found = True
                        break
            self._verbatim[claim] = found
        return found

    @property
    def reflowed(self) -> list[str]:
        """The texts that whitespace normalisation changes, normalised (once)."""
        if self._reflowed is None:
            self._reflowed = [n for c in self.texts if (n := _normalised(c)) != c]
        return self._reflowed

    def analyse(self) -> _Contexts:
        """Tokenise the contexts (once): vocabulary, sentence token sets, cue flags."""
        if not self.passages and self.texts:
            self.passages = [_passage(c) for c in self.texts]
            if len(self.passages) == 1:
                self.vocab = self.passages[0].vocab
            else:
                self.vocab = frozenset().union(*(p.vocab for p in self.passages))
            self.cued = any(p.cued for p in self.passages)
            self.paired = any(not p.text.isascii() for p in self.passages)
        return self

    def mixed(self, claim: str) -> bool:
        """Whether ``claim`` and the contexts may write a term in different languages:
        Chinese contexts (``paired``) under a claim with English words, or a Chinese claim
        over contexts with English words (a set look-up of the passages' tokens)."""
        if claim.isascii():
            return self.paired
        return self.lettered

    @property
    def lettered(self) -> bool:
        if self._lettered is None:
            self._lettered = any(
                len(t) > 1 and t.isascii() and t[:1].isalpha()
                for p in self.passages
                for t in p.vocab
            )
        return self._lettered

    def says_direction(self, names: tuple[str, ...]) -> bool:
        """Whether a passage says one of these directions (in any of its words)."""
        return any(not p.directions.isdisjoint(names) for p in self.passages)

    def match(self, token: str) -> str | None:
        """``token`` as it occurs in the contexts (itself, an inflection, a derivation or
        a synonym), or None."""
        found = self.literal(token)
        return found if found is not None else self.paraphrased(token)

    def literal(self, token: str) -> str | None:
        """``token`` as written, inflected, or as a synonym of the small table."""
        if token in self.vocab:
            return token
        for variant in _variants(token):
            if variant in self.vocab:
                return variant
        for synonym in _SYNONYMS.get(token, ()):
            if synonym in self.vocab:
                return synonym
        return None

    def paraphrased(self, token: str) -> str | None:
        """A context word that is a derivation or a wider-table synonym of ``token``. Not
        for a direction word: it is found only where the contexts say its direction, which
        the polarity rule then compares (``lower`` is no synonym of ``fell`` there)."""
        if token.isascii() and len(token) >= 3 and token.isalpha() and token not in _DIRECTIONS_OF:
            # a derivation or a synonym of a wider table (approval for approved, file
            # for submit): stems compared, each passage's stems indexed once per text
            if self._stemmed is None:
                self._stemmed = [_stem_index(p.vocab) for p in self.passages]
            for stem in _specific_first(stems(token)):
                for index in self._stemmed:
                    if stem in index:
                        return index[stem]
            for stem in _specific_first(synonym_stems(token)):
                for index in self._stemmed:
                    if stem in index:
                        return index[stem]
        return None

    def has(self, unit: str) -> bool:
        """Whether a word (or an inflection of it) or a pair of Chinese characters occurs
        in the contexts."""
        return unit in self.vocab or self.match(unit) is not None

    def together(self, words: Sequence[str], others: Sequence[str]) -> bool:
        """Whether one context sentence holds all of ``words`` and one of ``others``
        (each as written or inflected)."""
        for p in self.passages:
            for tokens in p.sentence_tokens:
                if all(_in(w, tokens) for w in words) and any(_in(w, tokens) for w in others):
                    return True
        return False

    def scopes(self, words: Sequence[str]) -> bool:
        """Whether a context sentence or clause opens on a scope that names all of
        ``words`` ("For theft, you must also report …")."""
        if words and not words[0].isascii():
            return any(
                m.group(1).startswith(words[0])
                for text in self.texts
                for m in _CJK_SCOPE_OPENING.finditer(text)
            )
        for text in self.texts:
            lower = text.lower()
            for m in _SCOPE_OPENING.finditer(lower):
                scope = _ASCII_WORDS.findall(m.group(1))
                if all(any(w == v or v.startswith(w) for v in scope) for w in words):
                    return True
        return False

    def binds(self, name: str, description: str, sentence: str) -> bool:
        """Whether ``description`` ("bank" of "The bank's CET1 ratio") refers to ``name``
        in ``sentence``: the nearest name before it in its passage that ends in that noun
        ("Nordhaven Bank") or introduces it in brackets ("Orbis Logistics (the Company)")
        holds ``name``."""
        noun = description.lower()
        if noun not in _DESCRIPTIONS or not name[:1].isupper():
            return False
        for text in self.texts:
            at = text.find(sentence)
            if at <= 0:
                continue
            named = None
            for m in _NAMED_AS.finditer(text, 0, at):
                if m.group(2).lower() == noun:
                    named = m.group(1)
            return named is not None and name.lower() in named.lower().split()
        return False

    @property
    def free(self) -> bool:
        """Whether the contexts say something costs nothing (in any words)."""
        if self._free is None:
            self._free = any(
                "free" in p.vocab or "免费" in p.text or _NO_COST.search(p.text) is not None
                for p in self.passages
            )
        return self._free

    @property
    def rules(self) -> bool:
        """Whether the contexts permit or prohibit anything (allowed, may not, 禁止 …)."""
        if self._rules is None:
            self._rules = any(
                not _DEONTIC.isdisjoint(p.vocab) or _MODAL_RULE.search(p.text) is not None
                for p in self.passages
            )
        return self._rules

    @property
    def numbers(self) -> frozenset[Decimal]:
        if self._numbers is None:
            forms: set[Decimal] = set()
            for p in self.passages:
                forms |= _passage_numbers(p.text, p.vocab)
            self._numbers = frozenset(forms)
        return self._numbers

    @property
    def non_words(self) -> frozenset[str]:
        """The words the contexts write after "non-" (non-refundable: refundable)."""
        if self._non is None:
            self._non = frozenset(
                w.lower() for p in self.passages if "non" in p.vocab for w in _NON.findall(p.text)
            )
        return self._non

    def bare(self, word: str) -> bool:
        """Whether the contexts write ``word`` once without "non-" before it."""
        pattern = re.compile(rf"(?<![-‑\w])(?<!\bnon\s){re.escape(word)}\b", re.IGNORECASE)
        return any(pattern.search(p.text) for p in self.passages if word in p.vocab)

    def sentences_with(self, word: str) -> list[str]:
        """The context sentences that hold ``word`` (a token)."""
        return [
            sentence
            for p in self.passages
            for sentence, words in zip(p.sentences, p.sentence_tokens, strict=True)
            if word in words
        ]

    @property
    def sentences_with_numbers(self) -> list[str]:
        """The context sentences that give two numbers or more (digits)."""
        return [
            sentence
            for p in self.passages
            for sentence in p.sentences
            if len(_DIGIT_RUN.findall(sentence)) >= 2
        ]

    @property
    def dates(self) -> list[DateMention]:
        return [d for p in self.passages for d in date_mentions(p.text)]

    @property
    def clauses(self) -> list[tuple[_Clause, str]]:
        if self._clauses is None:
            self._clauses = [
                (clause, p.sentences[clause.sentence])
                for p in self.passages
                for clause in _passage_clauses(p.text)
            ]
        return self._clauses

    def best_sentence(self, tokens: frozenset[str]) -> str | None:
        best, best_overlap = None, 0
        for p in self.passages:
            for sentence, words in zip(p.sentences, p.sentence_tokens, strict=True):
                overlap = len(tokens & words)
                if overlap > best_overlap:
                    best, best_overlap = sentence, overlap
        return best


# A scope a sentence or clause opens on: "For theft, …", "In the event of fire, …",
# "For claims involving escape of water, …" (what the rule after it applies to).
_SCOPE_OPENING = re.compile(
    r"(?:^|[.;:!?]\s+)(?:for|in\s+the\s+event\s+of|in\s+case\s+of)\s+([a-z][a-z\s-]{0,60}?)\s*,"
)
_ASCII_WORDS = re.compile(r"[a-z]+")
# 入室盗窃须在48小时内报警, 对于入室盗窃，…: what a Chinese sentence or clause opens on.
_CJK_SCOPE_OPENING = re.compile(
    r"(?:^|[。；！？])\s*(?:对于|涉及|如发生|发生|如遇)?([\u4e00-\u9fff]{2,12})"
)


# Common words of policies and reports that name the same thing (each with its
# inflections): a claim word matches a context word of its group. Numbers, negation,
# places and names are still judged by their own rules.
_SYNONYM_GROUPS = (
    ("staff", "employee", "employees", "personnel", "workers", "worker"),
    ("reimburse", "reimbursed", "reimburses", "refund", "refunded", "refunds", "repaid"),
    ("reimbursement", "reimbursements", "refund", "refunds"),
    ("need", "needs", "needed", "require", "requires", "required"),
    ("get", "gets", "receive", "receives", "received", "got"),
    ("begin", "begins", "start", "starts", "started", "commence", "commences", "began"),
    ("finish", "finished", "complete", "completed", "end", "ended"),
    ("book", "booked", "reserve", "reserved", "booking", "bookings"),
    ("limit", "limits", "limited", "cap", "capped", "caps", "ceiling"),
    ("cost", "costs", "price", "priced", "fee", "fees", "charge", "charged"),
    ("help", "helps", "assist", "assists"),
    ("buy", "bought", "purchase", "purchased"),
    ("show", "shows", "showed", "indicate", "indicates", "indicated"),
    ("total", "overall"),
    ("dose", "doses", "dosage"),
    ("firm", "company"),
    ("client", "clients", "customer", "customers"),
    ("talk", "speak", "contact"),
    ("standard", "usual", "normal", "default"),  # the default case ("the usual excess")
    # a unit abbreviated or written out (the number rule compares the numbers)
    ("kg", "kgs", "kilogram", "kilograms", "kilo", "kilos"),
    ("km", "kms", "kilometre", "kilometres", "kilometer", "kilometers"),
    ("cm", "centimetre", "centimetres", "centimeter", "centimeters"),
    ("mm", "millimetre", "millimetres", "millimeter", "millimeters"),
    ("ml", "millilitre", "millilitres", "milliliter", "milliliters"),
    ("lb", "lbs", "pound", "pounds"),
    ("gb", "gigabyte", "gigabytes"),
    ("mb", "megabyte", "megabytes"),
)
_SYNONYMS: dict[str, tuple[str, ...]] = {}
for _group in _SYNONYM_GROUPS:
    for _word in _group:
        _SYNONYMS[_word] = tuple(
            dict.fromkeys(_SYNONYMS.get(_word, ()) + tuple(w for w in _group if w != _word))
        )


# The same for Chinese words (scored by character pairs, so written as the contexts'
# word before scoring): 员工 where the contexts say 职工 (gates/paraphrase.py).
_CJK_SYNONYM_GROUPS = CJK_SYNONYM_GROUPS


_CJK_SYNONYM_WORD = re.compile("|".join(w for g in _CJK_SYNONYM_GROUPS for w in g))


# Directions scored as the contexts word them (增长 where they say 增加): only for the word
# score; the polarity rule still reads the claim's own word. And a day unit after a
# number as the contexts write it (30天 for 30日): the number rule judges the unit.
_CJK_NUMERAL_CHARS = "〇零一二两三四五六七八九十百千万亿点之分"
_CJK_SCORED_DIRECTIONS = ("up", "down", "late", "early", "strong", "weak", "longer", "shorter")
_CJK_DAY = re.compile(r"(?<=\d)(天|日)")


# A duration in a larger unit than the contexts': "two weeks" for "14 days", "three years"
# for "36 months", 两周 for 14天. Converted only where the contexts have the converted
# value and not the claim's own (rule 2 then reads it with its unit as usual).
_SMALL_NUMBERS = {
    w: i
    for i, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
        ]
    )
}
_CJK_SMALL_NUMBERS = {c: i for i, c in enumerate("〇一二三四五六七八九十") if i} | {"两": 2}
_MAY_CONVERT = re.compile(r"weeks?\b|years?\b|[周年]", re.IGNORECASE)
_DURATION = re.compile(
    r"\b(\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)[\s-]+"
    r"(weeks?|years?)\b(?![\s-]+(?:old|ago)\b)",
    re.IGNORECASE,
)
_CJK_DURATION = re.compile(
    r"(?<![\d.])(\d{1,2}|[一两二三四五六七八九十])\s*(?:个)?(周|星期|年)(?![\d度底初末前级])"
)


# A multiple said as a percentage of its base, or the reverse: 3倍 = 300%, "3 times the
# daily wage" = "300% of the daily wage". Converted, as durations are, only where the
# contexts say the converted value in the other way and not the claim's own.
_MAY_MULTIPLY = re.compile(
    r"\d\s*(?:倍|x\b|times\b|fold\b|%|percent\b|per\s?cent\b)", re.IGNORECASE
)
_MULTIPLE = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:(倍|times\b|x\b|fold\b)|(%|percent\b|per\s?cent\b))",
    re.IGNORECASE,
)


def _multiples_as_said(claim: str, contexts: _Contexts) -> str:
    """``claim`` with each multiple written the way the contexts write it (above)."""
    said = [a for p in contexts.passages for a in _passage_amounts(p.text, p.vocab)[0]]

    def has(unit: str, value: Decimal) -> bool:
        return any(a.unit == unit and value in a.forms for a in said)

    def convert(m: re.Match[str]) -> str:
        value = Decimal(m.group(1))
        if m.group(2) is not None:  # a multiple: N倍, N times
            other = value * 100
            if has("%", other) and not has("times", value):
                return f"{other.normalize():f}%"
            return m.group()
        other = value / 100
        if has("times", other) and not has("%", value):
            written = f"{other.normalize():f}"
            return f"{written}倍" if not claim.isascii() else f"{written} times"
        return m.group()

    return _MULTIPLE.sub(convert, claim)


def _own_duration(
    value: Decimal,
    unit: str,
    prepared: list[tuple[tuple[_Amount, ...], frozenset[Decimal]]],
) -> bool:
    """Whether the contexts give the claim's own value as it could be its duration: bare
    or in its unit. 1% or 1元 is another amount (满一年 is read as 满12个月 beside a 1% fee)."""
    return any(value in bare for _, bare in prepared) or any(
        a.unit == unit and value in a.forms for marked, _ in prepared for a in marked
    )


def _converted(claim: str, contexts: _Contexts) -> str:
    """``claim`` with each duration the contexts give in a smaller unit written in it."""

    def convert(m: re.Match[str]) -> str:
        written, unit = m.group(1), m.group(2).lower()
        value = (
            int(written)
            if written.isdigit()
            else _SMALL_NUMBERS.get(written.lower(), _CJK_SMALL_NUMBERS.get(written, 0))
        )
        if not value:
            return m.group()
        weeks = unit.startswith("week") or unit in ("周", "星期")
        other = value * (7 if weeks else 12)
        if Decimal(other) not in known:
            return m.group()
        if _own_duration(Decimal(value), "weeks" if weeks else "years", prepared):
            return m.group()
        if m.group().isascii():
            return f"{other} {'days' if weeks else 'months'}"
        return f"{other}{'天' if weeks else '个月'}"

    known = contexts.numbers
    prepared = [_passage_amounts(p.text, p.vocab) for p in contexts.passages]
    out = _DURATION.sub(convert, claim) if claim.isascii() else claim
    if not claim.isascii():
        out = _CJK_DURATION.sub(convert, _DURATION.sub(convert, out))
    return out


# A label line ("Notice period: 30 days", "- **用法用量：** 每日两次", "| Fee | 2% |"): the
# label names what the value is about, often in the question's words, not the contexts'.
_LABEL_LINE = re.compile(r"\s*\|?\s*([^:：|\n\d]{1,40}?)\s*(?:[:：]|\|)\s*(?=\S)")


def _label_overlap(
    claim: str,
    match: dict[str, str],
    contexts: _Contexts,
    threshold: float,
    whole: tuple[int, int],
) -> tuple[int, int]:
    """(found, total) of a label line: a label the contexts do not write (fewer than the
    threshold of its words) is neither found nor missing, and the value is scored alone;
    otherwise the whole line (``whole``)."""
    m = _LABEL_LINE.match(claim)
    if m is None:
        return whole
    head, value = m.group(1), claim[m.end() :]
    if _weight(tokenize(head)) > 4 or not has_content(value):
        return whole  # a sentence with a colon, not a label
    head_tokens = [t for t in tokenize(head) if t not in STOPWORDS]
    value_tokens = [t for t in tokenize(value) if t not in STOPWORDS]
    if not head_tokens or not value_tokens:
        return whole
    texts = (
        (head, value)
        if claim.isascii()
        else tuple(_cjk_as_said(x, contexts) for x in (head, value))
    )
    found, total = _overlap(texts[0], head_tokens, match, contexts)
    if total == 0 or found / total >= threshold:
        return whole
    return _overlap(texts[1], value_tokens, match, contexts)


def _written_as(said: str) -> Callable[[re.Match[str]], str]:
    """A replacement that writes a direction word of two characters or more as ``said``."""

    def put(m: re.Match[str]) -> str:
        return said if len(m.group()) > 1 else m.group()

    return put


def _cjk_as_said(claim: str, contexts: _Contexts) -> str:
    """``claim`` for the word score: its direction words and day units written as the
    contexts write the same direction or unit, where they write it otherwise."""
    for name in _CJK_SCORED_DIRECTIONS:
        pattern = _CJK_DIRECTIONS[name]
        found = pattern.search(claim)
        if found is None or len(found.group()) < 2:
            continue
        if any(found.group() in t for t in contexts.texts):
            continue
        theirs = next(
            (m.group() for t in contexts.texts for m in pattern.finditer(t) if len(m.group()) > 1),
            None,
        )
        if theirs is not None:
            claim = pattern.sub(_written_as(theirs), claim)
    if "免费" in claim and not any("免费" in t for t in contexts.texts):
        said = next((m.group() for t in contexts.texts for m in _NO_COST.finditer(t)), None)
        if said is not None:
            claim = claim.replace("免费", said)  # 免费 where they say 不收取费用
    for written, value in cjk_numerals(claim):
        numeral = written[: len(written) - len(written.lstrip(_CJK_NUMERAL_CHARS))]
        if numeral and not any(written in t for t in contexts.texts):
            # a Chinese numeral is rule 2's number, not a word: 两次 is scored as 2次
            claim = claim.replace(numeral, f"{value.normalize():f}", 1)
    day = _CJK_DAY.search(claim)
    if day is not None:
        other = "日" if day.group() == "天" else "天"
        if any(other in t and _CJK_DAY.search(t) for t in contexts.texts) and not any(
            re.search(rf"\d{day.group()}", t) for t in contexts.texts
        ):
            claim = _CJK_DAY.sub(other, claim)
    return claim


def _cjk_synonyms(claim: str, contexts: _Contexts) -> str:
    """``claim`` with a Chinese word the contexts do not write put as the synonym they
    write (each group at most once)."""
    if _CJK_SYNONYM_WORD.search(claim) is None:
        return claim  # one scan of the claim before any group is looked at
    for group in _CJK_SYNONYM_GROUPS:
        for word in group:
            if word in claim and not any(word in t for t in contexts.texts):
                theirs = next((w for w in group if any(w in t for t in contexts.texts)), None)
                if theirs is not None:
                    claim = claim.replace(word, theirs)
                break
    return claim


# Definite descriptions a passage binds to a name: "Nordhaven Bank … The bank's",
# "Orbis Logistics (the "Company") … the Company".
_DESCRIPTIONS = frozenset(
    ["bank", "company", "group", "firm", "insurer", "fund", "issuer", "trust", "lender"]
)
_NAMED_AS = re.compile(
    r"\b((?:[A-Z][\w&.-]*\s+){0,3}[A-Z][\w&.-]*)\s+(?:\(\s*(?:the\s+)?[\"“']?(?:the\s+)?)?"
    r"([Bb]ank|[Cc]ompany|[Gg]roup|[Ff]irm|[Ii]nsurer|[Ff]und|[Ii]ssuer|[Tt]rust|[Ll]ender)\b"
)


def _overlap(
    text: str, tokens: list[str], match: dict[str, str], contexts: _Contexts
) -> tuple[int, int]:
    """(found, total) of ``text``'s words in the contexts; ``match`` holds the tokens found.

    Words are scored by overlap, numbers by value (rule 2): "5,800,000,000" is one number,
    not the words 5, 800, 000, 000; the words that frame a number (``_FRAME_WORDS``, the
    "2bn" of "$4.2bn", "year on year") are neither found nor missing."""
    light = LIGHT_WORDS if contexts.label != "the answer" else frozenset()
    # (answer_accuracy keeps them: a reference clause the answer leaves unsaid must not
    # reach the share that makes it addressed on its generic words alone)
    words = [
        t
        for t in tokens
        if not t[0].isdigit() and t not in _FRAME_WORDS and t not in light and t not in _NOT_OVERLAP
    ]
    if "up" in words and _UP_TO.search(text) is not None:
        words.remove("up")  # "up to 180 GBP" bounds the number (rule 2 reads it)
    if not _SCALED.isdisjoint(words) and _POINTS.search(text) is not None:
        # "2 percentage points", "3.5 billion" frame their number like "2%" (rule 2
        # compares units and scales)
        for m in _POINTS.finditer(text):
            for word in m.group(1).lower().split():
                if word in words and word not in match:
                    words.remove(word)  # (said in the contexts too, it is found as a word)
    if "year" in words and _YEAR_ON_YEAR.search(text) is not None:
        for _ in range(2 * len(_YEAR_ON_YEAR.findall(text))):
            if "year" in words:
                words.remove("year")
    if contexts.paired and not text.isascii():
        if "日" in text:
            text = _CJK_DAY_UNIT.sub("", text)  # 5个工作日 frames its number like 5天
        # Characters in a Chinese run are scored by pairs (see _cjk_found).
        run_hits, run_total = _cjk_found(text, contexts.vocab)
        ascii_words = [t for t in words if t.isascii()]
        isolated = _CJK_ISOLATED.findall(text)
        hits = sum(1 for t in ascii_words if t in match) + run_hits
        hits += sum(1 for ch in isolated if ch in contexts.vocab)
        return hits, len(ascii_words) + run_total + len(isolated)
    return sum(1 for t in words if t in match), len(words)


# Words that only frame a number: its unit, a hedge, a bound. Rule 2 judges them with the
# number (units, hedged rounding, bounds), so as words they are neither found nor missing:
# "4.2 billion dollars" for "$4.2 billion", "8 percent" for "8%", "roughly 8%", "no more
# than 5 GB" for "does not exceed 5 GB".
# Not the scale words: alone, "m", "b", "k" are words ("Plan B"). Not a joined currency
# (US$ tokenizes to "us", a word). Not "per cent": "per" and "cent" are words of their own.
_FRAME_WORDS = frozenset(
    CURRENCY_CODES
    + CURRENCY_NAMES
    + tuple(w for w in PERCENT_WORDS if " " not in w)
    + (
        # hedges
        "approximately",
        "approx",
        "about",
        "around",
        "roughly",
        "nearly",
        "almost",
        "circa",
        # bounds
        "more",
        "less",
        "fewer",
        "most",
        "least",
        "than",
        "exceed",
        "exceeds",
        "exceeded",
        "exceeding",
        "maximum",
        "minimum",
    )
)
_UP_TO = re.compile(r"\bup\s+to\b", re.IGNORECASE)
_CJK_DAY_UNIT = re.compile(r"(?<=[\d０-９])\s*个?(?:工作日|营业日|自然日|日历日)")
_POINTS = re.compile(
    r"\d\s*((?:percentage|basis)\s+points?|thousand|million|billion|trillion)\b", re.IGNORECASE
)
_SCALED = frozenset(["points", "point", "thousand", "million", "billion", "trillion"])
_YEAR_ON_YEAR = re.compile(r"\byear[\s-]+(?:on|over)[\s-]+year\b", re.IGNORECASE)

# Where a sentence joins two clauses that each say something: ", and", ", but", ", although",
# "because" (not "because of"), "，并", "，原因是", "，但", "，导致" …
_JOINED_CLAUSE = re.compile(
    r",\s+(?:and|but|although|though|while|whereas|yet|so|which)\s+"
    r"|,\s+(?:mainly\s+|largely\s+|partly\s+|primarily\s+)?(?:due\s+to|owing\s+to|thanks\s+to|"
    r"because\s+of|driven\s+by|as\s+a\s+result\s+of|resulting\s+in|leading\s+to)\s+"
    r"|\s(?:because|although|though|whereas)\s+(?!of\b)"
    # "… reaffirmed its policy and announced a special dividend": a second predicate
    r"|(?<=[a-z])\s+and\s+(?:also\s+)?(?=[a-z]{3,}ed\s+(?:a|an|the|its|their|new|plans?)\b)"
    r"|[，,；;]\s*(?:并且|并(?![非不未无])|而且|而(?![是非])|但是|但|然而|同时|原因是|因为|由于|所以|因此|"
    r"导致|此外|从而|进而|主要(?:得益于|由于|因为|源于)|得益于|受益于|源于)",
    re.IGNORECASE,
)
# answer_accuracy: the clauses of a reference sentence, each judged on its own when the
# answer addresses only some of them (joined clauses, and clauses after ; or a comma).
_REFERENCE_CLAUSE = re.compile(f"{_JOINED_CLAUSE.pattern}|[;；]\\s*|,\\s+|，\\s*", re.IGNORECASE)
_CLAUSE_WEIGHT = 3.0  # content words (a CJK character counts ½) that make a clause
# A joined clause fails with fewer than half its words in the contexts: it may paraphrase
# ("because partner banks sold less" for "due to lower sales through partner banks"), an
# added clause shares next to nothing ("and alcohol is always reimbursed in full").
_CLAUSE_SHARE = 0.5


# "between two doses" (两次之间) is "between doses": two in a row, not a count; "between two
# and five days" is a range.
_BETWEEN_TWO = re.compile(
    r"\bbetween\s+(?:any\s+)?two\s+(?:consecutive\s+|successive\s+)?(?!and\b)[a-z]+s\b",
    re.IGNORECASE,
)
_TWO = re.compile(r"\btwo\b", re.IGNORECASE)


def _claim_numbers(text: str, tokens: Iterable[str]) -> list[tuple[str, frozenset[Decimal]]]:
    """Each number of a claim as (as written, its forms): every one must be found."""
    folded = fold(text)
    out = [(m.text, m.forms) for m in number_mentions(folded)] if has_digit(text) else []
    multipliers = _EXTRA_MULTIPLIERS.intersection(tokens)
    if multipliers:  # in the claim's order: a set's order changes with the hash seed
        out += [(t, frozenset({_MULTIPLIERS[t]})) for t in _in_order(tokens, multipliers)]
    if not folded.isascii():
        out += [
            (written, frozenset({Decimal(n)}))
            for written, n in cjk_numerals(folded)
            # 一项新计划: 一 is the article "a" here, not a count the contexts must hold
            if not (written[0] == "一" and written[-1] in ARTICLE_COUNTERS)
        ]
    words = _NUMBER_WORDS.intersection(tokens)
    rest = text
    if "two" in words and len(_BETWEEN_TWO.findall(text)) == len(_TWO.findall(text)):
        words = words - {"two"}  # "4 to 6 hours between two doses": in a row, no count
    if words:
        compounds = english_compounds(text)
        out += [(written, frozenset({Decimal(value)})) for written, value, _ in compounds]
        words = words - {part for _, _, parts in compounds for part in parts}
        out += [(t, frozenset({Decimal(NUMBER_WORDS[t])})) for t in _in_order(tokens, words)]
        for written, _, _ in compounds:
            rest = rest.replace(written, " ")  # the "one" of "twenty-one days" is no 1
    if not CONDITIONAL_NUMBER_WORDS.isdisjoint(tokens):
        out += conditional_numbers(rest)
    return out


# "Once" after an interval with its own number ("once every 6 to 8 months", 每6至8个月更换一次)
# restates the interval: the contexts that give the interval ("a 6 to 8 month interval",
# 更换周期为6至8个月) and count no times at all hold it.
_ONCE = frozenset(["一次", "一遍", "一回", "一趟", "once"])
_NUMBERED_INTERVAL = re.compile(
    r"每(?:隔)?\s*\d+(?:\.\d+)?(?:\s*[至到~～-]\s*\d+(?:\.\d+)?)?\s*个?"
    r"(?:小时|分钟|天|日|周|星期|月|季度|年|公里|千米)"
    r"|\bevery\s+\d+(?:\.\d+)?(?:\s*(?:to|-|–)\s*\d+(?:\.\d+)?)?\s+"
    r"(?:hours?|minutes?|days?|weeks?|months?|quarters?|years?|km|kilometres?|miles?)\b",
    re.IGNORECASE,
)
_TIMES = re.compile(
    r"[\d一二两三四五六七八九十]\s*[次遍回趟]|\b(?:once|twice|thrice|times)\b", re.IGNORECASE
)


def _once_per_interval(written: str, claim: str, contexts: _Contexts) -> bool:
    """Whether ``written`` is a "once" that restates a numbered interval of the claim
    the contexts count no times against (see _ONCE)."""
    return (
        written.lower() in _ONCE
        and _NUMBERED_INTERVAL.search(claim) is not None
        and not any(_TIMES.search(t) for t in contexts.texts)
    )


def _in_order(tokens: Iterable[str], wanted: set[str] | frozenset[str]) -> list[str]:
    """The tokens of ``wanted`` in the order ``tokens`` first has them (so a reason lists
    them the same way in every process)."""
    return [t for t in dict.fromkeys(tokens) if t in wanted]


# A stage the answer numbers itself ("Stage 1: 60°C → 21°C within 2 hours", 第1步) where the
# contexts number no stage, step or phase: the answer's own list, no figure.
_STAGED = re.compile(
    r"\b(?:stage|step|phase)\s+(\d{1,2}|one|two|three|four|five)\b|第\s*([\d一二三四五])\s*(?:阶段|步)"
    r"|(?:阶段|步骤)\s*([\d一二三四五])",
    re.IGNORECASE,
)


def _stage_label(text: str, claim: str, texts: Sequence[str]) -> bool:
    """Whether the missing number ``text`` only numbers a stage of the claim's own list."""
    if not any(m.group(m.lastindex or 0) == text for m in _STAGED.finditer(claim)):
        return False
    return not any(_STAGED.search(t) for t in texts)


# A list marker at the start of a line or sentence ("1.", "2)", "(3)", "4、", "①") numbers
# the list; it states nothing.
_LIST_MARKER = re.compile(r"^\s*(?:[-*•]\s*)?(?:\(?\d{1,2}[.)、）](?!\d)|[①-⑳])\s*")


def _unlisted(sentence: str) -> str:
    """A reference sentence without its list marker ("1. 提升代理人产能")."""
    if sentence[:1].isdigit() or sentence[:1] in "(-*•①②③④⑤⑥⑦⑧⑨⑩":
        return _LIST_MARKER.sub("", sentence, count=1)
    return sentence


def _clause_numbers(text: str) -> list[tuple[str, frozenset[Decimal]]]:
    return _claim_numbers(text, tokenize(text))


# A hedge before (or 左右 after) a number: "approximately USD 1.7 billion", "约10%", "逾3成".
# The currency between them is one written before a number (a code, a sign, 人民币), not a
# name written after it ("dollars") nor a scale word.
_HEDGE_BEFORE = re.compile(
    r"(?:approximately|approx\.?|about|around|roughly|nearly|almost|close to|some|circa|~|"
    r"约|大约|大概|近|将近|接近|逾|超过|约为)\s*(?:(?:"
    + alternation(CURRENCY_CODES + CURRENCY_PREFIXES + tuple(CURRENCY_SIGNS) + CJK_CURRENCY_NAMES)
    + r")\s?)?$",
    re.IGNORECASE,
)
_HEDGE_AFTER = re.compile(r"^\s*[^\s\d]{0,4}\s*(?:左右|上下)")
_WRITTEN_DIGITS = re.compile(r"\d[\d,]*(?:\.\d+)?")
# A bound word before a number that is a condition's threshold (超过80%时, 当…超过80%,
# 逾30天则…) states the threshold exactly: 超过80%时 is not 超过85%时 rounded.
_BOUND_WORD = re.compile(r"超过|逾|将近|接近|近")
_THRESHOLD_AFTER = re.compile(r"^[^\s\d，。；,;、]{0,4}?(?:时|的时候|则|就|后|以上)")
_THRESHOLD_BEFORE = re.compile(r"(?:当|如果|若|一旦|只要|如)[^，。；,;]*$")


# A sentence that gives two facts of one kind side by side ("Regular items can be returned
# within 28 days, and sale items within 14 days"; 末期股息每股1.20港元，全年股息合计每股1.75
# 港元) binds each number to its segment: cut at commas, semicolons and "and"/"while"
# (not inside "between 2 and 8"), a segment without a number of its own joined to the next.
_SEGMENT_CUT = re.compile(
    r"\s*(?:[;；，]|,\s*(?:and|while|whereas|but)\s+|,\s+|\s+(?:and|while|whereas)\s+)\s*",
    re.IGNORECASE,
)
_BETWEEN_AND = re.compile(r"\b(between\s+\S+(?:\s+\S+)?)\s+and\s+", re.IGNORECASE)
_YEAR = re.compile(r"^(?:FY)?(?:19|20)\d\d$", re.IGNORECASE)


def _figures(text: str) -> frozenset[Decimal]:
    """The values a text states, years aside."""
    out: set[Decimal] = set()
    for written, forms in _clause_numbers(text):
        if _YEAR.match(written.strip()) is None:
            out |= forms
    return frozenset(out)


def _segment_words(text: str) -> frozenset[str]:
    """A segment's words: content tokens, Chinese as character pairs."""
    words = {t for t in tokenize(text) if t not in STOPWORDS and t.isascii() and t.isalpha()}
    return frozenset(words.union(_cjk_pairs(text)))


@lru_cache(maxsize=2048)
def _segments(
    sentence: str,
) -> tuple[tuple[frozenset[Decimal], frozenset[str], frozenset[str], frozenset[str] | None], ...]:
    """The segments of a context sentence that give numbers: (values, distinct words) for
    each, its distinct words being those no other segment has. Empty when the sentence
    gives its numbers in fewer than two segments."""
    text = _BETWEEN_AND.sub(r"\1 & ", sentence) if "between" in sentence.lower() else sentence
    parts: list[tuple[frozenset[Decimal], str]] = []
    pending = ""
    for piece in _SEGMENT_CUT.split(text):
        pending = f"{pending} {piece}" if pending else piece
        values = _figures(pending)
        if values:
            parts.append((values, pending))
            pending = ""
    if pending and parts:
        parts[-1] = (parts[-1][0], f"{parts[-1][1]} {pending}")
    if len(parts) < 2:
        return ()
    words = [_segment_words(t) for _, t in parts]
    out = []
    for i, (values, part) in enumerate(parts):
        others = frozenset().union(*(w for j, w in enumerate(words) if j != i))
        out.append((values, words[i] - others, _frames(part), _units(part)))
    return tuple(out)


# What a number is counted per: "40 EUR per item", "twice a year", "每人".
_FRAME = re.compile(
    r"\d[\d.,]*\s*(?:[A-Za-z%]+\s+)?(?:per|each|every|a|an)\s+([a-z]{3,})\b|/\s*([a-z]{3,})\b",
    re.IGNORECASE,
)


def _frames(text: str) -> frozenset[str]:
    """The words a text counts its numbers per ("per item": item)."""
    if "per" not in text and "a" not in text and "/" not in text:
        return frozenset()
    return frozenset((a or b).lower() for a, b in _FRAME.findall(text))


# A product or model code that opens a claim as its subject ("X200不可浸水", "The X200
# battery …", "A380s are …"): capital letters, then digits, perhaps more letters.
_SUBJECT_CODE = re.compile(
    r"\s*(?:(?:the|this|our|该|本)\s*)?([A-Z]{1,3}-?\d+[A-Za-z]*)(?![\d.,])", re.I
)


def _named_code(claim: str, contexts: Sequence[str]) -> frozenset[Decimal]:
    """The values of the code that opens ``claim`` when the contexts write it as it is
    (``X200`` names the product, its 200 is no figure); none for a code they do not write
    (``X300`` for ``X200`` is a number the number rule reads)."""
    found = _SUBJECT_CODE.match(claim)
    if found is None or not found.group(1)[:1].isupper():
        return frozenset()
    code = found.group(1)
    if not any(code in text for text in contexts):
        return frozenset()
    return _figures(code)


def _segment_problem(
    claim: str, raw: list[str], match: dict[str, str], contexts: _Contexts
) -> tuple[str | None, bool]:
    """(reason, bound): a claim with one number (years aside) is read against each context
    sentence that gives it in one segment beside another segment's number of the same
    unit. Its words are compared with each segment's distinct words (the share of them it
    says): when another segment's share is higher — at least half, or two of its words
    where the claim says none of its own segment's — or the claim counts the number per
    what another segment counts per ("400 EUR per item" where 400 is per trip and 40 per
    item), the number belongs to a neighbouring fact ("Sale items … within 28 days" where
    28 is the regular items'). ``bound``: a one-clause claim reads as its own segment, so
    an elliptical segment's subject ("and sale items within 14 days") is no swapped term."""
    sentences = [
        sentence
        for p in contexts.passages
        for sentence in p.sentences
        if len(_DIGIT_RUN.findall(sentence)) >= 2
    ]
    if not sentences:
        return None, False  # no sentence gives two numbers: the cheap way out
    values = _figures(claim)
    named = frozenset[Decimal]()
    if values and _SUBJECT_CODE.match(claim) is not None:
        named = _named_code(claim, contexts.texts)
        values -= named
    if not values or len(_clause_numbers(claim)) > 2:
        return None, False
    units = _units(claim)
    # words after "outside", "other than", 除…以外 name what the number is not for
    kept, excluded = claim, frozenset[str]()
    if _may_outside(claim):
        kept = _OUTSIDE.sub(" ", claim)
        excluded = _segment_words(" ".join(m.group(0) for m in _OUTSIDE.finditer(claim)))
    said = frozenset(match.get(t, t) for t in tokenize(kept) if t not in STOPWORDS).union(
        _cjk_pairs(kept)
    )
    framed = _frames(claim)
    wrong: str | None = None
    bound = False
    if len(values) > 1:
        # a sentence that gives all the claim's figures is where they are said: a tier's
        # boundary ("第三档为400千瓦时以上…0.3元") is also the end of the tier before it
        # ("第二档为201至400千瓦时…"), which is no neighbouring fact's number then
        tier = bounded(claim)  # the claim's numbers with their bounds ("不足24小时")
        holding = [s for s in sentences if values <= _figures(s) and tier <= bounded(s)]
        if holding:
            sentences = holding
    for sentence in sentences:
        segments = tuple(
            seg
            for seg in _segments(sentence)
            if (units is None or seg[3] is None or not units.isdisjoint(seg[3]))
            and not (named and seg[0] <= named)  # "X200不防水": the code names, no figure
        )
        if len(segments) < 2:
            continue
        own = [seg for seg in segments if not seg[0].isdisjoint(values)]
        if len(own) != 1:
            continue
        mine = own[0]
        # a segment the claim excludes ("outside capital cities") is not its subject
        rivals = [seg for seg in segments if seg is not mine and excluded.isdisjoint(seg[1])]
        share = len(mine[1] & said) / len(mine[1]) if mine[1] else 0.0
        rival = max((len(seg[1] & said) / len(seg[1]) for seg in rivals if seg[1]), default=0)
        hits = max((len(seg[1] & said) for seg in rivals), default=0)
        if (
            framed
            and mine[2]
            and framed.isdisjoint(mine[2])
            and any(not framed.isdisjoint(seg[2]) for seg in rivals)
        ) or (rival > share and (rival >= 0.5 or (hits >= 2 and not mine[1] & said))):
            wrong = wrong or (
                f"the number is the neighbouring fact's in {contexts.label}: {sentence.strip()!r}"
            )
        elif share > rival and _JOINED_CLAUSE.search(claim) is None:
            bound = True
    if bound:
        return None, True
    return wrong, False


def _segments_problem(claim: str, match: dict[str, str], contexts: _Contexts) -> str | None:
    """Two facts of one context sentence given each other's numbers (``Team A closed 45
    tickets and Team B closed 30`` against ``Team A closed 30 tickets …, while Team B
    closed 45``; ``住院的免赔额是500元，而门诊是1000元`` against ``门诊500元，住院1000元``):
    the claim is cut into segments of one number each, and two of them that each say
    more of the words of the context segment holding the other's number than of their
    own (as a share of its distinct words) have exchanged them, though every number
    occurs."""
    sentences = contexts.sentences_with_numbers
    if not sentences:
        return None  # no context sentence gives two numbers: the cheap way out
    pieces = _claim_segments(claim)
    if len(pieces) < 2:
        return None
    parts = [
        (values, frozenset(match.get(t, t) for t in words).union(pairs))
        for values, words, pairs in pieces
    ]
    for sentence in sentences:
        segments = _segments(sentence)
        if len(segments) < 2:
            continue

        leaning = [(_leans(segments, values, said), values) for values, said in parts]
        for to, values in leaning:
            if to is None:
                continue
            for back, other in leaning:
                if (
                    back is not None
                    and other is not values
                    and not segments[to][0].isdisjoint(other)
                    and not segments[back][0].isdisjoint(values)
                ):
                    return (
                        "two numbers exchanged between the facts of one sentence of "
                        f"{contexts.label}: {sentence.strip()!r}"
                    )
    return None


@lru_cache(maxsize=2048)
def _claim_segments(
    claim: str,
) -> tuple[tuple[frozenset[Decimal], tuple[str, ...], frozenset[str]], ...]:
    """A claim's segments of one number each: (values, content tokens, Chinese pairs);
    kept per distinct claim text."""
    parts = []
    pending = ""
    for piece in _SEGMENT_CUT.split(claim):
        pending = f"{pending} {piece}" if pending else piece
        values = _figures(pending)
        if values:
            if len(values) == 1:
                words = tuple(t for t in tokenize(pending) if t not in STOPWORDS)
                parts.append((values, words, frozenset(_cjk_pairs(pending))))
            pending = ""
    return tuple(parts)


def _leans(
    segments: tuple[
        tuple[frozenset[Decimal], frozenset[str], frozenset[str], frozenset[str] | None], ...
    ],
    values: frozenset[Decimal],
    said: frozenset[str],
) -> int | None:
    """The context segment a claim segment's words lean to (the larger share of its
    distinct words) when it is not the one holding the claim segment's number."""
    own = [n for n, seg in enumerate(segments) if not seg[0].isdisjoint(values)]
    if len(own) != 1:
        return None
    shares = [len(seg[1] & said) / len(seg[1]) if seg[1] else 0.0 for seg in segments]
    best = max(range(len(segments)), key=lambda n: shares[n])
    return best if best != own[0] and shares[best] > shares[own[0]] else None


_OUTSIDE = re.compile(
    r"\b(?:outside(?:\s+of)?|except(?:\s+for|\s+in)?|other\s+than|apart\s+from|excluding|"
    r"beyond|not\s+in)\s+(?:[\w-]+\s*){1,3}|除[^，,。；]{1,10}?(?:以外|之外|外)|"
    r"[^，,。；\s]{1,6}(?:以外|之外)",
    re.IGNORECASE,
)


def _may_outside(text: str) -> bool:
    lower = text.lower()
    return "外" in text or any(cue in lower for cue in _OUTSIDE_CUES)


_DIGIT_RUN = re.compile(r"\d+(?:[.,]\d+)*")
_OUTSIDE_CUES = ("outside", "except", "other than", "apart", "excluding", "beyond", "not in")


def _units(text: str) -> frozenset[str] | None:
    """The units a text writes its numbers with, years aside (None: none written)."""
    units = frozenset(
        a.unit for a in _amounts(text) if a.unit is not None and _YEAR.match(a.written) is None
    )
    return units or None


def _hedged_rounding(
    claim: str, written: str, forms: frozenset[Decimal], known: frozenset[Decimal]
) -> bool:
    """Whether a hedged number rounds a context number to the precision it shows:
    "approximately USD 1.7 billion" for 1,702 million, "约10%" for 9.6% (not 1.8 billion,
    and never without a hedge word)."""
    at = claim.find(written)
    if at < 0:
        return False
    before = _HEDGE_BEFORE.search(claim[max(0, at - 24) : at])
    if before is None and _HEDGE_AFTER.match(claim[at + len(written) :]) is None:
        return False
    if (
        before is not None
        and _BOUND_WORD.match(before.group()) is not None
        and (
            _THRESHOLD_AFTER.match(claim[at + len(written) :]) is not None
            or _THRESHOLD_BEFORE.search(claim[: at - len(before.group())]) is not None
        )
    ):
        return False  # 超过80%时告警: a threshold the claim sets, not a rounded figure
    digits = _WRITTEN_DIGITS.search(written)
    if digits is None:
        return False
    shown = digits.group().replace(",", "")
    if "." not in shown:
        shown = shown.rstrip("0")  # "about 1,700": rounded to the hundred
    significant = len(shown.replace(".", "").lstrip("0")) or 1
    for form in forms:
        if form <= 0:
            continue
        half = Decimal(5).scaleb(form.adjusted() - significant)  # half a unit of the last digit
        if any(abs(n - form) <= half for n in known):
            return True
    return False


def _may_name(claim: str, tokens: list[str]) -> bool:
    """Whether a claim may name a place, a channel, a figure or a proper name (then the
    binding rule compares it with the context clause it matches)."""
    if not claim.isascii() or may_name_a_kind(tokens):
        return True
    return any("A" <= ch <= "Z" for ch in claim[1:])


def _date_problem(claim: str, contexts: _Contexts) -> str | None:
    """A date is compared whole (day, month and year against one context date), not as
    loose numbers: 2024年1月1日 is not supported by 2024年7月1日."""
    dates = date_mentions(claim)
    if not dates:
        return None
    known = contexts.dates
    missing = [d.written for d in dates if not any(dates_agree(d, k) for k in known)]
    return f"dates not in {contexts.label}: " + ", ".join(missing) if missing else None


_NEGATING_PREFIXES = ("un", "non", "dis", "in")
# The assimilated forms of "in-": ir + r…, il + l…, im + m/p/b…, read only on adjectives
# (irreversible, illegal, impossible), so import/port and improve/prove are no antonyms.
_ASSIMILATED = re.compile(r"(?:ir(?=r)|il(?=l)|im(?=[mpb]))([a-z]{5,})$")
_ADJECTIVE_END = (
    "able",
    "ible",
    "al",
    "ar",
    "er",
    "ect",
    "ent",
    "ant",
    "ure",
    "ive",
    "ile",
    "ious",
    "ite",
)


def _prefix_antonym(words: Iterable[str], contexts: _Contexts) -> tuple[str, str] | None:
    """(claim word, context word) when a word the contexts lack is the negation of one
    they have: "used" against "unused", "allowed" against "disallowed", "reversible"
    against "irreversible", or the reverse (a negation written out, "not possible" for
    "impossible", is read as the prefix by ``_prefixed_as_said`` first)."""
    for word in words:
        if not word.isalpha() or len(word) < 4:
            continue
        for prefix in _NEGATING_PREFIXES:
            if prefix + word in contexts.vocab:
                return word, prefix + word
            if word.startswith(prefix) and len(word) - len(prefix) >= 4:
                bare = word[len(prefix) :]
                if bare in contexts.vocab:
                    return word, bare
        if word[:1] in "rlmpb" and word.endswith(_ADJECTIVE_END):
            for prefix in ("ir", "il", "im"):
                if prefix + word in contexts.vocab and _ASSIMILATED.match(prefix + word):
                    return word, prefix + word
        m = _ASSIMILATED.match(word)
        if m is not None and word.endswith(_ADJECTIVE_END) and m.group(1) in contexts.vocab:
            return word, m.group(1)
    return None


def _prefixed(word: str, vocab: frozenset[str]) -> str | None:
    """The contexts' word that negates ``word`` by a prefix (possible: impossible)."""
    for prefix in ("un", "in", "dis", "non"):
        if prefix + word in vocab:
            return prefix + word
    if word[:1] in "rlmpb" and word.endswith(_ADJECTIVE_END):
        for prefix in ("ir", "il", "im"):
            if prefix + word in vocab and _ASSIMILATED.match(prefix + word):
                return prefix + word
    return None


def _bare(word: str) -> str | None:
    """``word`` without a negating prefix (impossible: possible), or None."""
    m = _ASSIMILATED.match(word)
    if m is not None and word.endswith(_ADJECTIVE_END):
        return m.group(1)
    for prefix in _NEGATING_PREFIXES:
        if word.startswith(prefix) and len(word) - len(prefix) >= 4:
            return word[len(prefix) :]
    return None


def _may_prefix(raw: list[str], vocab: frozenset[str]) -> bool:
    """Cheap trigger of ``_prefixed_as_said``: a written-out negation or "non", or a
    prefixed word the contexts do not have where they write a negation out."""
    return (
        "not" in raw
        or "never" in raw
        or "non" in raw
        or (
            ("not" in vocab or "never" in vocab)
            and any(t[:2] in _PREFIX_HEADS and t not in vocab for t in raw)
        )
    )


_PREFIX_HEADS = frozenset(["un", "in", "im", "ir", "il", "di"])
_NOT_WORD = re.compile(r"\b(?:not|never)\s+(be\s+|been\s+)?([a-z]{4,})\b", re.IGNORECASE)


def _prefixed_as_said(claim: str, contexts: _Contexts) -> str:
    """``claim`` with a negating prefix written as the contexts write it: "is not possible"
    as "is impossible" where they say "impossible", "not refundable" as "non-refundable",
    and "impossible" as "not possible" where they say "not possible". One fact in two
    writings, so the word rule finds it and the polarity rule reads one polarity."""
    vocab = contexts.vocab

    def prefix(m: re.Match[str]) -> str:
        word = m.group(2).lower()
        be = m.group(1) or ""
        if word in contexts.non_words and not contexts.bare(word):
            return f"{be}non-{m.group(2)}"
        written = _prefixed(word, vocab)
        return m.group(0) if written is None else be + written

    text = _NOT_WORD.sub(prefix, claim) if ("not" in claim or "never" in claim) else claim
    for m in reversed(list(_NON.finditer(text))):
        word = m.group(1).lower()
        if word not in contexts.non_words and _written_not(word, contexts):
            text = text[: m.start()] + "not " + m.group(1) + text[m.end() :]
    for token in set(tokenize(text)):
        if token[:2] in _PREFIX_HEADS and token not in vocab:
            bare = _bare(token)
            if bare is not None and _written_not(bare, contexts):
                text = re.sub(rf"\b{token}\b", "not " + bare, text, flags=re.IGNORECASE)
    return text


def _written_not(word: str, contexts: _Contexts) -> bool:
    """Whether the contexts write "not ``word``" ("is not possible")."""
    if word not in contexts.vocab:
        return False
    pattern = re.compile(rf"\b(?:not|never)\s+(?:be\s+|been\s+)?{word}\b", re.IGNORECASE)
    return any(pattern.search(p.text) for p in contexts.passages if word in p.vocab)


_NON = re.compile(r"\bnon[-‑\s]+([a-z]{4,})", re.IGNORECASE)


def _non_antonym(claim: str, raw: list[str], contexts: _Contexts) -> tuple[str, str] | None:
    """(claim word, context word) when one side writes a word with "non-" and the other
    without it: "refundable" where the contexts only say "non-refundable", or
    "non-transferable" where they say "transferable" unnegated. "non" is a token of its
    own, so the word itself is found in the contexts and the prefix rule cannot see it;
    a negated claim ("is not refundable") says what "non-" says."""
    said = contexts.non_words
    ours = {w.lower() for w in _NON.findall(claim)} if "non" in raw else set()
    if said:
        for word in raw:
            if (
                word in said
                and word not in ours
                and not contexts.bare(word)
                and not _negated(claim, raw)
            ):
                return word, "non-" + word
    for word in ours - said:
        found = contexts.match(word)
        if found is not None and not any(
            _negated(s, tokenize(s)) for s in contexts.sentences_with(found)
        ):
            return "non-" + word, found
    return None


def _same_thing(a: str, b: str) -> bool:
    """Whether two writings name one thing or say one direction (HK and Hong Kong, rose
    and increased, 上升 and 增长): a paraphrase, not a swap (gates/swap.py)."""
    if same_thing(a, b):
        return True
    if (
        a.isascii()
        and b.isascii()
        and a.isalpha()
        and b.isalpha()
        # a synonym of the paraphrase table ("later owners" for "subsequent owners")
        and not synonym_stems(a.lower()).isdisjoint(stems(b.lower()))
    ):
        return True
    ours = _directions(a, frozenset(tokenize(a)))
    return bool(ours) and not ours.isdisjoint(_directions(b, frozenset(tokenize(b))))


def _weight(tokens: Iterable[str]) -> float:
    return sum(1.0 if t.isascii() else 0.5 for t in tokens)


_RANGE_WORDS = frozenset(["至", "到", "to", "from", "between", "and"])
_LABEL = re.compile(r"\s*((?:[\w&/-]+\s?){1,4}?)\s*[:：]\s*\S")


def _same_cue(piece: str, top: list[tuple[_Clause, str]]) -> bool:
    """Whether a Chinese claim clause read as plain writes a negation character right
    before what its negated context clause negates (未休完 against 未能休完: 未休 is no
    negation cue, as 未休年假 names the leave left, yet it is the context's negation)."""
    if piece.isascii():
        return False
    negated = {ch for c, _ in top for ch in c.negates}
    return any(
        piece[i] in _CJK_NEGATION_CHARS and piece[i + 1] in negated for i in range(len(piece) - 1)
    )


def _beside_the_negation(raw: frozenset[str]) -> bool:
    """Whether a plain claim clause whose best context clauses are all negated carries no
    predicate a negation could deny: numbers and at most one word ("每天9:00至18:00", a
    time range lifted out of "禁止在业务高峰期（每天9:00至18:00）…", or "1 July 2024")."""
    numbers = {t for t in raw if _NUMBER_TOKEN.fullmatch(t)}
    return bool(numbers) and _weight(raw - numbers - STOPWORDS - _NOT_OVERLAP - _RANGE_WORDS) <= 1.5


_NUMBER_TOKEN = re.compile(r"\d[\d.,:%]*")


_NO_ONE_THING = re.compile(r"(?:and\s+|but\s+)?(?:no|nor|not|without)\s+(?:any\s+)?[\w-]+", re.I)


def _one_thing_denied(
    claim: str, plain: frozenset[str], contexts: _Contexts, match: dict[str, str]
) -> tuple[str, str] | None:
    """A denied word ("no VAT") whose every clause in the sentence the whole claim matches
    best affirms it ("…, while VAT remains due at the standard rate")."""
    wanted = {match.get(t, t) for t in plain} | set(plain)
    having = [(c, s) for c, s in contexts.clauses if not wanted.isdisjoint(c.tokens)]
    if not having:
        return None
    kept = _by_whole_claim(claim, having, contexts, match)
    sentences = {s for _, s in kept}
    if len(sentences) != 1 or any(c.part or c.condition for c, _ in kept):
        return None
    # (a sentence that denies or exempts anything may deny this too: "relieved from duty
    # and VAT" is split at its "and")
    there = [c for c, s in contexts.clauses if s in sentences]
    if any(c.negated or c.directions & _FREE_OR_OPTIONAL for c in there):
        return None
    return "negated, but the context is not", kept[0][1]


def _by_whole_claim(
    claim: str, top: list[tuple[_Clause, str]], contexts: _Contexts, match: dict[str, str]
) -> list[tuple[_Clause, str]]:
    """The tied clauses of ``top`` whose sentence shares most words with the whole claim
    (its other clauses too), when that leaves one polarity; else ``top``."""
    words = _claim_words(claim, match)
    said: dict[str, set[str]] = {}
    for c, sentence in contexts.clauses:
        said.setdefault(sentence, set()).update(c.tokens)
    shared = {sentence: len(words & said.get(sentence, set())) for _, sentence in top}
    most = max(shared.values())
    kept = [(c, sentence) for c, sentence in top if shared[sentence] == most]
    return kept if len({c.negated for c, _ in kept}) == 1 else top


def _claim_words(claim: str, match: dict[str, str]) -> set[str]:
    words = set(_clause_tokens(claim)) - STOPWORDS - _NOT_OVERLAP
    return words | {match.get(t, t) for t in words}


# Chinese particles a paraphrase drops or adds (未保价的快件丢失时 = 未保价快件丢失).
_CJK_PARTICLES = frozenset("的时之地了")


def _holds_negated(clause: _Clause, topic: set[str], piece: str) -> bool:
    """Whether a negated context clause is said inside a negated claim clause: all its
    words are the claim's; in Chinese, particles aside (未保价的快件丢失时 in
    未保价快件丢失按实际损失赔偿), and one character more may stand in what it negates
    when the claim's negation negates nothing but its words (不收违约金 for 不收取违约金:
    a verb said shorter; not 不退还定金 for 不退还押金, which negates another word)."""
    if clause.tokens <= topic:
        return True
    if piece.isascii():
        return False
    missing = clause.tokens - _CJK_PARTICLES - topic
    negates, _ = _negation_scope(piece)
    if not negates - _CJK_MODALS <= clause.negates:
        return False  # the claim negates more than the clause does (未登记…无须陪同)
    if not missing:
        return True
    if len(missing) > 1 or len(clause.tokens) < 4 or any(ch.isdigit() for ch in missing):
        return False
    said = {ch for ch in _scope_text(piece) if "\u4e00" <= ch <= "\u9fff"} - _CJK_PARTICLES
    return said <= clause.tokens


def _bound_differs(claim: str, sentence: str) -> bool:
    """Whether ``sentence`` bounds a number of ``claim`` the other way only: its denial is
    for another tier (满2年后…不退还 says nothing of 未满2年)."""
    theirs = bounded(sentence)
    if not theirs:
        return False
    ours = bounded(claim)
    return any(
        value == v and side != s and (v, s) not in ours for value, side in ours for v, s in theirs
    )


def _negates_beside(
    piece: str, top: list[tuple[_Clause, str]], clauses: list[tuple[_Clause, str]]
) -> str | None:
    """The matched sentence when a negated Chinese claim clause negates a word (the two
    characters after its cue) that no best clause negates and a plain clause of the same
    sentence says, with no negated clause anywhere saying it: the context splits at a
    comma what the claim runs together ("未登记的访客进入园区时，须由接待人全程陪同" for
    "未登记访客进入园区无须接待人陪同")."""
    sentences = {s for _, s in top}
    negated_there = set().union(*(c.negates for c, _ in top))
    words = []
    for m in _CJK_NEGATION.finditer(piece):
        end = m.end()
        while end < len(piece) and piece[end] in _CJK_MODALS:
            end += 1
        word = piece[end : end + 2]
        if (
            len(word) == 2
            and word[0] not in negated_there
            and all("\u4e00" <= ch <= "\u9fff" for ch in word)
        ):
            words.append(word)
    for word in words:
        if any(c.negated and word in c.scope for c, _ in clauses):
            continue
        for c, s in clauses:
            if s in sentences and not c.negated and set(word) <= c.tokens:
                return s
    return None


def _restricted(clause: _Clause, sentence: str, words: set[str], contexts: _Contexts) -> bool:
    """Whether a negated context clause holds only under a clause of its sentence that
    the claim (``words``: all of it) does not say, a condition in Chinese ("车辆全损的，不
    提供代步车"; not the rule beside it in "法定节假日加班按…支付加班费，不安排调休"): then a
    claim clause that contains its words but matches another clause better is no
    instance of it."""
    return any(
        c is not clause and c.restricts and c.tokens and len(c.tokens & words) * 2 < len(c.tokens)
        for c, s in contexts.clauses
        if s == sentence
    )


def _bound_told_round(
    piece: str, claim: str, sentences: Iterable[str], contexts: _Contexts
) -> bool:
    """A bound forbidden past where the context allows within it, or the reverse ("may
    not accept gifts over 500 USD" for "only if they are worth 500 USD or less"): the
    negations differ, the bound is the same (gates/bounds.py). A clause cut from the
    condition that holds its bound ("may accept gifts | only if … 500 USD or less") is
    read with the whole claim; the passage around the sentence is read for an exception
    ("… more with the manager's approval")."""
    text = piece if may_bound(piece) and any(ch.isdigit() for ch in piece) else claim
    if not may_bound(text):
        return False
    for sentence in sentences:
        around = next((t for t in contexts.texts if sentence in t), "")
        if same_bound(text, sentence, around):
            return True
    return False


def _polarity_problem(
    claim: str, contexts: _Contexts, match: dict[str, str]
) -> tuple[str, str] | None:
    """(reason, context sentence) when a clause of ``claim`` contradicts the contexts.

    Negation: a negated clause needs a negated context clause among its best matches, or
    one that it contains ("not during probation" in "leave does not accrue during
    probation"); a plain clause whose best matches are all negated is contradicted, unless
    another clause of the claim negates that same context clause (the order of a sentence
    is free: "For trips under 6 hours, business class isn't allowed"). A clause of one word
    ("不报销", "No,") is an answer particle, not compared. Direction: among the context
    clauses that say a direction on the same axis, the best match must not say only the
    opposite. Bounds are no negation ("no more than 40" is "at most 40", "not only").
    """
    analysed: list[_Analysed] = []
    overlaps: list[int] = []  # each analysed clause's best overlap
    for piece, whole, part, condition, _ in _polar_pieces(claim):
        raw = _clause_tokens(whole)
        plain = raw - STOPWORDS - _NOT_OVERLAP
        if _weight(plain) < (1 if part else 1.5):
            if (
                not part
                and piece.isascii()
                and _weight(plain) >= 1
                and _NO_ONE_THING.fullmatch(piece.strip(" .;")) is not None
                # (as written: "rather than premiums" read as "not premiums" is no denial)
                and piece.strip(" .;").lower() in claim.lower()
            ):
                # "… pay a flat 2.5% duty and no VAT": one thing denied, compared in the
                # sentence the whole claim matches ("…, while VAT remains due")
                one = _one_thing_denied(claim, plain, contexts, match)
                if one is not None:
                    return one
            continue
        topic = set(plain)
        for t in plain:
            topic.add(match.get(t, t))
            topic.update(_variants(t))
        if not piece.isascii():
            # 可 and 也 say whether, not what: 也可提供代步车 is about 不提供代步车 as much
            # as about 可提供代步车 (the polarity is what is compared)
            topic -= _CJK_PERMISSIVE
        scored = [(len(topic.intersection(c.tokens)), c, s) for c, s in contexts.clauses]
        best = max((o for o, _, _ in scored), default=0)
        if best == 0:
            continue
        top = [(c, s) for o, c, s in scored if o == best]
        if any(c.part != part for c, _ in top) and any(c.part == part for c, _ in top):
            top = [(c, s) for c, s in top if c.part == part]  # like matches like
        elif not part and not condition and any(c.part or c.condition for c, _ in top):
            # a clause matched best by a context condition ("Not charged if you switch
            # tariffs" by "… if you switch to another of our tariffs", "Food that misses the
            # 2-hour mark must be reheated" by "If food has not reached 21°C within 2 hours")
            # is compared with the clause that condition belongs to
            # (not when the claim says what the condition negates: "Food that reaches 21°C
            # … must be reheated" is compared with "If food has not reached 21°C …")
            said = _terms(piece)
            sentences = {
                s
                for c, s in top
                if (c.part or c.condition)
                and not (
                    c.negated
                    and any(
                        (len(t) > 2 or not t.isascii()) and t.isalpha() and t not in _WHEN_TERMS
                        for t in c.scope & said
                    )
                )
            }
            heads = [
                (o, c, s)
                for o, c, s in scored
                if not c.part and not c.condition and s in sentences and o
            ]
            if heads:
                most = max(o for o, _, _ in heads)
                kept = [(c, s) for c, s in top if not (c.part or c.condition)]
                top = kept + [(c, s) for o, c, s in heads if o == most and (c, s) not in kept]
        if not part and piece is not whole and not all(c.negated for c, _ in top):
            # The claim's clause cut from its condition ("X may be used if screen lock is
            # enabled"): the condition's words may pull the match to the sentence that
            # sets the condition ("Devices must have screen lock enabled"); when the
            # clause's own words match only a negated context clause ("X are blocked"),
            # that clause is the one it is compared with.
            own = set(_clause_tokens(piece)) - STOPWORDS - _NOT_OVERLAP
            own |= {match.get(t, t) for t in own}
            by_own = [(len(own.intersection(c.tokens)), c, s) for _, c, s in scored]
            most = max((o for o, _, _ in by_own), default=0)
            own_top = [(c, s) for o, c, s in by_own if o == most]
            if most >= 2 and all(c.negated for c, _ in own_top):
                top = own_top
        if len(top) > 1 and len({c.negated for c, _ in top}) > 1:
            # Tied clauses of both polarities: the one whose sentence the whole claim
            # matches best ("No courtesy car is provided while your car is repaired at an
            # approved garage" is about the sentence on repairs, not the one that denies
            # the car if it is written off) …
            top = _by_whole_claim(claim, top, contexts, match)
        if len(top) > 1 and len({c.negated for c, _ in top}) > 1:
            # … else the one the claim covers most of (a clause with its condition has
            # words the claim need not have).
            tightest = min(len(c.tokens) for c, _ in top)
            top = [(c, s) for c, s in top if len(c.tokens) == tightest]
        polar = raw if piece is whole else _clause_tokens(piece)
        analysed.append((piece, polar, topic, _negated(piece, polar), scored, top, part, condition))
        overlaps.append(best)
    # (a "without" phrase or a condition negates its own words, not the clause it matches)
    negated_tops = [
        {id(c) for c, _ in top}
        for _, _, _, negated, _, top, part, _ in analysed
        if negated and not part
    ]
    negated_ids: set[int] = set().union(*negated_tops)
    # A label before a colon ("Effective date: 1 July 2024") names what its value is
    # about; alone it asserts nothing a negated context clause could deny.
    found = _LABEL.match(claim) if ":" in claim or "：" in claim else None
    label = found.group(1).strip() if found is not None else None
    if found is not None and _weight(_clause_tokens(claim[found.end() - 1 :]) - STOPWORDS) < 1:
        label = None  # "特别分红：有": the label carries the claim, its value is one word
    claim_terms: frozenset[str] | None = None
    regardless = _REGARDLESS.search(claim) is not None  # "regardless of", 无论 …
    for (piece, raw, topic, negated, scored, top, part, condition), top_overlap in zip(
        analysed, overlaps, strict=True
    ):
        if not part and not negated and any(c.requires for c, _ in top):
            # "Restart the old primary after failover" against "Never restart the old
            # primary until it has been rebuilt": the permission holds only with its
            # condition, which the claim must state (anywhere in it).
            if claim_terms is None:
                claim_terms = _terms(claim)
            for c, sentence in top:
                if _term_weight(c.requires & claim_terms) * 2 < _term_weight(c.requires):
                    return "leaves out the condition the context sets", sentence
        problem = _scope_problem(piece, negated, top, contexts.clauses, negated_ids)
        if problem is None and not negated:
            problem = _quantifier_problem(piece, top)
            if problem is None and ("any " in piece.lower() or not piece.isascii()):
                widened = any_problem(piece, [s for _, s in top])
                problem = None if widened is None else (widened, top[0][1])
        if problem is None and not negated and not part:
            problem = _narrowed_problem(piece, top)
            if problem is None and not condition:
                problem = _denied_for_scope(piece, top, contexts.clauses, negated_ids, claim)
        if (
            problem is None
            and not part
            and piece.isascii()
            and "optional" in _directions(piece, raw)
            and not any(o and "optional" in c.directions for o, c, _ in scored)
        ):
            # "You do not need to isolate the power supply" (read as optional) where the
            # contexts instruct it and never call it optional
            problem = next(
                (
                    ("says it is optional where the context instructs it", s)
                    for s in dict.fromkeys(s for o, _, s in scored if o)
                    if _instructs(s, topic)
                ),
                None,
            )
            if problem is None:
                # "no approval is needed" where it is given "with the prior approval of a
                # director": the context makes it a condition
                problem = next(
                    (
                        ("says it is optional where the context makes it a condition", s)
                        for s in dict.fromkeys(s for o, _, s in scored if o)
                        if any(m.group(1).lower() in topic for m in _WITH_CONDITION.finditer(s))
                    ),
                    None,
                )
        if (
            problem is None
            and regardless
            # unless the contexts say "regardless of …" themselves
            and not any(_REGARDLESS.search(s) for o, _, s in scored if o)
        ):
            if _REGARDLESS.search(piece) is not None:
                terms = _terms(piece)
                problem = next(
                    (
                        ("says it holds regardless of a condition the context sets", s)
                        for o, c, s in scored
                        if o and c.condition and not terms.isdisjoint(c.terms)
                    ),
                    None,
                )
            if problem is None and not part:
                # "permitted on all flights, regardless of duration" against "permitted
                # for flights of 6 hours or longer": a bound on the clause it matches best
                best = max((o for o, _, _ in scored), default=0)
                problem = next(
                    (
                        ("says it holds regardless of a bound the context sets", s)
                        for o, _, s in scored
                        if o >= 2 and o == best and _drops_a_bound(s, claim)
                    ),
                    None,
                )
        if problem is not None:
            return problem
        told_round = None  # the clause without a comparison that agrees with the context's
        if may_compare(piece):
            compared = _comparison_verdict(piece, scored)
            if compared is not None:
                agrees, turned, sentence, rest = compared
                if not agrees:
                    if turned:  # the sides exchanged around the same direction
                        return "exchanges the two sides of the context's comparison", sentence
                    return "says the opposite direction of the context", sentence
                if not _negated(rest, _clause_tokens(rest)):
                    # the same comparison, maybe told from the other side ("B is smaller
                    # than A" for "A is larger than B", 乙不及甲 for 甲超过乙): its word may be
                    # the context's opposite or a negation (不及); the rest is still read
                    told_round = rest
                    if not turned and not part and not condition:
                        # … and told the same way round, what the context's clause
                        # forbids the claim cannot affirm ("may accept gifts worth more
                        # than 500 USD" for "must not accept gifts worth more than …")
                        at = max(o for o, _, s in scored if s == sentence)
                        said_there = [c for o, c, s in scored if s == sentence and o == at]
                        if all(c.negated for c in said_there) and not _bound_told_round(
                            piece, claim, (sentence,), contexts
                        ):
                            return "the context negates it", sentence
        if told_round is None:
            if negated:
                inside = any(
                    c.negated
                    and c.tokens
                    and _holds_negated(c, topic, piece)
                    and not (
                        o < top_overlap
                        and _restricted(c, sentence, _claim_words(claim, match), contexts)
                    )
                    and _another_tier(claim, sentence, scored) is None
                    and not _bound_differs(claim, sentence)
                    for o, c, sentence in scored
                )
                if not inside and not piece.isascii():
                    beside = _negates_beside(piece, top, contexts.clauses)
                    if beside is not None and not _bound_told_round(
                        piece, claim, (beside,), contexts
                    ):
                        return "negated, but the context is not", beside
                if (
                    not inside
                    and not any(c.negated for c, _ in top)
                    and not _bound_told_round(piece, claim, (s for _, s in top), contexts)
                    and not _elliptic_denial(topic, top, contexts.clauses)
                    and not _sibling_answered(topic, top, piece, analysed)
                    and not _negates_the_same(piece, top)
                    and not _default_of_permission(claim, top)
                    and not (
                        # "don't pay for one extra bag", "pays neither duty nor VAT" where
                        # the context gives it "free of charge": the same
                        _NOT_PAYING.search(piece) is not None
                        and any(c.directions & _FREE_OR_OPTIONAL for c, _ in top)
                    )
                ):
                    return "negated, but the context is not", top[0][1]
                if not part and not condition and all(c.negated for c, _ in top):
                    # a schedule's denial for another tier than the one the claim names
                    affirmed = _another_tier(claim, top[0][1], scored)
                    if affirmed is not None:
                        return "negated, but the context is not for the figures it names", affirmed
            elif (
                not condition  # "If a device is rooted, …" supposes; it asserts nothing
                and all(c.negated for c, _ in top)
                and not any(id(c) in ids for ids in negated_tops for c, _ in top)
                and not _beside_the_negation(raw)
                and not _same_cue(piece, top)
                and (label is None or piece.strip() != label)
                and not _bound_told_round(piece, claim, (s for _, s in top), contexts)
            ):
                return "the context negates it", top[0][1]
            elif not condition and not part and not _beside_the_negation(raw):
                # "Cash gifts are permitted up to 500 HKD": its number pulls the match to
                # the sentence on gifts up to 500 HKD, but every word of "Cash gifts are
                # never permitted" is in the clause, which affirms it.
                denied = _denied_inside(raw, match, scored, negated_tops, claim)
                if denied is not None and not _bound_told_round(piece, claim, (denied,), contexts):
                    return "the context negates it", denied
            if (
                not piece.isascii()
                and any(c.negated for c, _ in top)
                # an English negation in a mixed clause has no Chinese scope to compare
                and (not negated or _CJK_NEGATION.search(piece) is not None)
                and (negated or not _same_cue(piece, top))
                and (negated or not _told_apart(topic, top, scored, negated_ids))
            ):
                # Both sides negate something; a Chinese clause may negate a different word
                # (保险公司无须维持不低于… against 保险公司须维持不低于…).
                problem = _negates_other_word(piece, negated, top)
                if problem is not None and not _bound_told_round(
                    piece, claim, (problem[1],), contexts
                ):
                    return problem
        said = (
            _directions(piece, raw)
            if told_round is None
            else _directions(told_round, _clause_tokens(told_round))
        )
        for direction in said:
            opposite = _OPPOSITE[direction]
            axis = [(o, c, s) for o, c, s in scored if o and c.directions & {direction, opposite}]
            if not axis:
                if direction == "optional" and not part:
                    carried = _carried_requirement(topic, top)
                    if carried is not None:
                        return "says it is optional where the context requires it", carried
                continue
            axis_best = max(o for o, _, _ in axis)
            nearest = [(c, s) for o, c, s in axis if o == axis_best]
            if all(direction not in c.directions for c, _ in nearest) and (
                axis_best >= top_overlap
                or any(c.directions & {direction, opposite} for c, _ in top)
            ):
                # (a clause that matches another sentence better, one that says nothing on
                # this axis, is not contradicted by a weaker match that does: "is charged an
                # overweight fee" for "incur a fee", not for "free of charge")
                sentence = nearest[0][1]
                if (
                    opposite in said
                    and not _governs(piece, direction, opposite)
                    and any(direction in c.directions for _, c, s in scored if s == sentence)
                ):
                    # "The decline reflects higher provisions" says both directions, as
                    # its sentence does ("profit declined because provisions increased"):
                    # each word has its match in another clause of that sentence.
                    continue
                if direction in _ORDER and _converse(piece, sentence, direction):
                    continue
                return "says the opposite direction of the context", sentence
        if told_round is None and not part:
            problem = _stability_problem(piece, said, scored)
            if problem is not None:
                return problem
    return None


# A claim clause as _polarity_problem reads it: (piece, polar tokens, topic, negated,
# scored context clauses, best context clauses, part, condition).
_Analysed = tuple[
    str,
    frozenset[str],
    set[str],
    bool,
    list[tuple[int, _Clause, str]],
    list[tuple[_Clause, str]],
    bool,
    bool,
]


# Words that belong to a negation cue, not to what it negates ("no longer", 不再).
_CUE_PARTS = frozenset(["longer", "再"])


def _told_apart(
    topic: set[str],
    top: list[tuple[_Clause, str]],
    scored: list[tuple[int, _Clause, str]],
    negated_ids: set[int],
) -> bool:
    """Whether a plain claim clause matched best to negated context clauses is a clause
    of a reordered pair: those clauses are the counterparts of the claim's own negated
    clause, and a plain context clause says the word that sets this one apart
    (出差乘坐高铁可选二等座，不可选一等座 against 不能选一等座，可以选二等座: 二 is said
    affirmed, and 不能选一等座 answers 不可选一等座)."""
    if not all(id(c) in negated_ids for c, _ in top):
        return False
    apart = topic.difference(*(c.tokens for c, _ in top)) - STOPWORDS - _NOT_OVERLAP
    return any(o and not c.negated and not apart.isdisjoint(c.tokens) for o, c, _ in scored)


def _elliptic_denial(
    topic: set[str], top: list[tuple[_Clause, str]], clauses: list[tuple[_Clause, str]]
) -> bool:
    """Whether a negated claim clause whose best matches are plain is said by a negated
    clause of the same sentence that leaves its predicate to the plain one ("Multi-AZ
    deployments provide failover, while single-AZ deployments don't", 多可用区部署支持…，
    单可用区部署则不支持): the short clause names what sets the claim's apart (single, 单),
    which the plain clause does not, and every other word of it is the claim's or the
    plain clause's."""
    for t, sentence in top:
        for c, s in clauses:
            if s != sentence or not c.negated or c is t or c.part:
                continue
            own = c.tokens - STOPWORDS - _NOT_OVERLAP - _CJK_PARTICLES
            apart = (own & topic) - t.tokens
            extra = own - topic - t.tokens
            if _weight(apart) >= 0.5 and _weight(extra) <= 1:
                return True
    return False


def _sibling_answered(
    topic: set[str],
    top: list[tuple[_Clause, str]],
    piece: str,
    analysed: list[_Analysed],
) -> bool:
    """Whether the plain context clause a negated claim clause matches best is the
    counterpart of a plain clause beside it in the claim, and the negated clause is left
    unsaid (实例停止后仍会收取存储费用 for 实例停止后不再收取计算费用，但仍收取存储费用: the
    answer says what 但仍收取存储费用 says, with 存储, and never says 计算, what the
    negated clause is about). An omission, not a contradiction."""
    ids = {id(c) for c, _ in top}
    said = frozenset().union(*(c.tokens for c, _ in top))
    own = topic - STOPWORDS - _NOT_OVERLAP - _CJK_PARTICLES
    negates = (
        _clause_tokens(_scope_text(piece)) - STOPWORDS - _NOT_OVERLAP - _CJK_PARTICLES - _CUE_PARTS
    )
    for other, _, other_topic, negated, _, other_top, part, _ in analysed:
        if other is piece or negated or part or not ids & {id(c) for c, _ in other_top}:
            continue
        theirs = other_topic - STOPWORDS - _NOT_OVERLAP - _CJK_PARTICLES
        denied = negates - theirs
        if not (theirs - own).isdisjoint(said) and denied and denied.isdisjoint(said):
            # the context clause says what sets the plain clause apart (存储), and none of
            # what the negated one negates of its own (计算: then it says it otherwise)
            return True
    return False


def _denied_inside(
    raw: frozenset[str],
    match: dict[str, str],
    scored: list[tuple[int, _Clause, str]],
    negated_tops: list[set[int]],
    claim: str,
) -> str | None:
    """The sentence of a negated context clause (three words or more) whose words all
    stand in the affirmed clause ``raw``, when no affirmed context clause holds them too.
    Not a denial the context ties to other figures ("48小时以上退票的，不收退票费" against
    "24小时以上不足48小时的，收取票价5%的退票费", whose figures another sentence gives):
    a schedule denies the fee for one tier, not for the tier the claim names."""
    own = {t for t in raw - STOPWORDS - _NOT_OVERLAP if not t[0].isdigit()}
    own |= {match.get(t, t) for t in own}
    for _, c, sentence in scored:
        if not c.negated or c.part or c.condition:
            continue
        if any(id(c) in ids for ids in negated_tops):
            continue  # another clause of the claim negates it
        words = {t for t in c.tokens if not t[0].isdigit()}
        if len(words) < 2 or not _held(words, own):
            continue
        if len(words) == 2 and not all(t.isascii() for t in words):
            continue  # two Chinese characters are one word
        if any(not d.negated and words <= d.tokens for _, d, _ in scored):
            continue
        if _another_tier(claim, sentence, scored) is not None:
            continue
        return sentence
    return None


def _another_tier(claim: str, sentence: str, scored: list[tuple[int, _Clause, str]]) -> str | None:
    """The affirmed context sentence that gives every figure of ``claim`` when
    ``sentence`` (a negated one it matched) gives figures of its own for another tier: a
    schedule's "48小时以上…不收退票费" says nothing of the tier "24小时以上不足48小时" whose
    fee another sentence gives. The claim that names the sentence's own tier (its
    numbers with their bounds: "48小时以上") is about that sentence."""
    theirs = _figures(sentence)
    if not theirs:
        return None
    figures = _figures(claim)
    if not figures or figures <= theirs or figures.isdisjoint(theirs):
        return None  # (a claim that names none of its figures speaks of something else)
    tier = bounded(sentence)
    if (tier or theirs) <= (bounded(claim) if tier else figures):
        return None
    return next(
        (s for _, d, s in scored if not d.negated and s != sentence and figures <= _figures(s)),
        None,
    )


def _held(words: set[str], own: set[str]) -> bool:
    """Whether each of ``words`` is one of ``own`` or shares a stem with one (a two-word
    clause such as "Alcohol is not reimbursable" is held by "Alcohol can be reimbursed")."""
    if words <= own:
        return True
    if len(words) > 2:
        return False
    own_stems = {st for t in own if t.isascii() for st in stems(t)}
    return all(t in own or not own_stems.isdisjoint(stems(t)) for t in words)


# Held steady: a change (grew, shrank, 增长, 收缩) where the context says a figure stayed
# where it was (remained stable, unchanged, 保持稳定, 持平), and the reverse. "Steady
# growth" and 稳定增长 say a direction and are not "stable".
_STABLE = re.compile(
    r"\b(?:stable|steady|unchanged|flat|constant|stabili[sz]ed|held\s+steady|"
    r"remained\s+(?:the\s+)?same|stayed\s+(?:the\s+)?same|no\s+change)\b"
    r"|保持稳定|维持稳定|基本稳定|总体稳定|稳定|持平|不变|平稳",
    re.IGNORECASE,
)
_MOVES = frozenset(["up", "down"])


# The same for a context clause, read from its tokens (stopwords gone, in no order).
_STABLE_WORDS = frozenset(
    ["stable", "steady", "unchanged", "flat", "constant", "stabilised", "stabilized"]
)
_STAYED = frozenset(["remained", "stayed"])


def _says_stable(sentence: str, clause: _Clause) -> bool:
    """Whether the context clause says its figure held steady (and no direction)."""
    if not clause.directions.isdisjoint(_MOVES):
        return False
    if not sentence.isascii():
        return _STABLE.search(sentence) is not None
    tokens = clause.tokens
    return not _STABLE_WORDS.isdisjoint(tokens) or (
        "same" in tokens and not _STAYED.isdisjoint(tokens)
    )


def _stability_problem(
    piece: str, said: frozenset[str], scored: list[tuple[int, _Clause, str]]
) -> tuple[str, str] | None:
    """A change said of what the best-matching context clause says held steady, or
    steadiness said of what it says changed."""
    claim_moves = not said.isdisjoint(_MOVES)
    claim_stable = not claim_moves and _STABLE.search(piece) is not None
    if not claim_moves and not claim_stable:
        return None
    best = max((o for o, _, _ in scored), default=0)
    if best < 2:
        return None
    nearest = [(c, s) for o, c, s in scored if o == best]
    for c, sentence in nearest:
        if claim_moves and _says_stable(sentence, c):
            return "says it changed where the context says it held steady", sentence
        if claim_stable and not c.directions.isdisjoint(_MOVES):
            return "says it held steady where the context says it changed", sentence
    return None


# "No limit": a claim that lifts a bound its context sets ("managers may approve unlimited
# leave" against "… up to 5 days of unpaid leave", 不限次数 against 每月最多3次).
_UNBOUNDED = re.compile(
    r"\b(?:unlimited|limitless|uncapped|without\s+(?:any\s+)?(?:limit|cap|ceiling)s?|"
    r"no\s+(?:upper\s+)?(?:limit|cap|ceiling)s?|any\s+number\s+of|as\s+(?:many|much)\s+as\s+"
    r"(?:they|you|he|she|it|needed|required|wanted|desired))\b|无限|不限|无上限|不设上限|没有上限|不封顶",
    re.IGNORECASE,
)
_BOUNDED = re.compile(
    r"\b(?:up\s+to|at\s+most|a\s+maximum\s+of|maximum\s+of|max\.?|capped\s+at|limited\s+to|"
    r"cap\s+of|limit\s+of|not\s+(?:to\s+)?exceed(?:ing)?|no\s+more\s+than)\s+[^\d\s]{0,4}\s?\d"
    r"|(?:最多|至多|不超过|不得超过|上限为?|封顶)[^\s，。；,;\d]{0,4}?[\d一二两三四五六七八九十百千万]"
    r"|[\d一二两三四五六七八九十]+\S{0,4}以内",
    re.IGNORECASE,
)


def _may_unbound(claim: str) -> bool:
    """A cheap test for ``_UNBOUNDED``: substrings every one of its forms holds."""
    if claim.isascii():
        lower = claim.lower()
        return (
            "limit" in lower
            or "capped" in lower
            or "ceiling" in lower
            or "any number" in lower
            or " cap" in lower
            or "as many as" in lower
            or "as much as" in lower
        )
    return "无限" in claim or "不限" in claim or "上限" in claim or "不封顶" in claim


def _unbound_problem(claim: str, sentence: str, label: str) -> str | None:
    """A claim that says there is no limit where its matched sentence sets a bound with
    a number (up to 5 days, 最多3次): the bound is dropped, the claim widened."""
    said = _UNBOUNDED.search(claim)
    if said is None or _BOUNDED.search(claim) is not None:
        return None
    bound = _BOUNDED.search(sentence)
    if bound is None or _UNBOUNDED.search(sentence) is not None:
        return None
    return f"says {said.group()!r} where {label} set a bound ({bound.group()!r})"


def _comparison_verdict(
    piece: str, scored: list[tuple[int, _Clause, str]]
) -> tuple[bool, bool, str, str] | None:
    """(agrees, sides exchanged, context sentence, the piece without its comparison word) for the claim
    clause's comparison against the comparisons of the best-matching context sentences
    that make one (gates/compare.py); an agreeing one wins a tie. None if none pairs."""
    best, found = 0, None
    for overlap, _, sentence in scored:
        if overlap < best or overlap == 0:
            continue
        verdict = compare(piece, sentence)
        if verdict is None:
            continue
        agrees, turned, said = verdict
        if overlap > best or (found is not None and agrees and not found[0]):
            best = overlap
            found = (agrees, turned, sentence, piece[: said.start] + " " + piece[said.end :])
    return found


# A direction word right before its opposite acts on it: "halted the launch of", 停止推出
# (stop launching) say one direction, not both.
_GOVERNED_GAP = frozenset(["the", "a", "an", "its", "their", "to", "any"])
_WORD = re.compile(r"[A-Za-z]+")


def _governs(piece: str, direction: str, opposite: str) -> bool:
    """Whether a ``direction`` word in ``piece`` acts on an ``opposite`` word right after
    it ("stopped the launch", 停止推出): the clause then says one thing (the opposite of
    the context's "launched"), not both directions in two clauses of its own."""
    if not piece.isascii():
        ours, theirs = _CJK_DIRECTIONS.get(direction), _CJK_DIRECTIONS.get(opposite)
        if ours is None or theirs is None:
            return False
        starts = {m.start() for m in theirs.finditer(piece)}
        return any(
            m.end() in starts or (m.end() + 1 in starts and piece[m.end()] in "了再")
            for m in ours.finditer(piece)
        )
    words = [w.lower() for w in _WORD.findall(piece)]
    for i, word in enumerate(words):
        if direction not in _DIRECTIONS_OF.get(word, ()):
            continue
        after = words[i + 1 : i + 3]
        if after and opposite in _DIRECTIONS_OF.get(after[0], ()):
            return True
        if (
            len(after) == 2
            and after[0] in _GOVERNED_GAP
            and opposite in _DIRECTIONS_OF.get(after[1], ())
        ):
            return True
    return False


_ORDER = frozenset(["before", "after"])
_ORDER_CUE = {
    "before": re.compile(r"\b(?:before|prior\s+to)\b", re.IGNORECASE),
    "after": re.compile(r"\b(?:after|once)\b", re.IGNORECASE),
}


def _converse(piece: str, sentence: str, direction: str) -> bool:
    """Whether ``piece`` says its order the other way round from ``sentence``: "switch
    back only after the lag is below 16 MB" is "the lag must be below 16 MB before
    traffic is switched back" (each side's words on the other side of the cue), not
    its opposite ("the alarm is disarmed after the doors open" keeps its sides)."""
    if not piece.isascii():
        return False
    ours = _ORDER_CUE[direction].search(piece)
    theirs = _ORDER_CUE[_OPPOSITE[direction]].search(sentence)
    if ours is None or theirs is None:
        return False
    left, right = _terms(piece[: ours.start()]), _terms(piece[ours.end() :])
    c_left, c_right = _terms(sentence[: theirs.start()]), _terms(sentence[theirs.end() :])
    crossed = len(left & c_right) + len(right & c_left)
    kept = len(left & c_left) + len(right & c_right)
    return crossed >= 2 and crossed > kept


# Bounds that read like negations: "no more than 40" is "at most 40", "not less than" is
# "at least", "no later than" is "by", "not only … but" asserts both; 不超过 is 最多, 不低于
# 最少. Written as the bound before negation and direction are read, so a cap still differs
# from a floor (at most / at least are the most / least directions).
_BOUND = re.compile(
    r"\bnot\s+(?:only|just|merely|simply)\b|\b(?:no|not)\s+"
    r"(?:(?:take|use|go|be|spend|give|pay|charge|claim|carry|hold|keep|wait)\s+)?(more|greater|higher|longer|larger|less|fewer|lower|"
    r"smaller|later|earlier|sooner|taller|wider|deeper|heavier|bigger|thicker|older|"
    r"shorter|shallower|narrower|lighter|thinner|younger)\s+than\b"
    r"|不(?:得|能|可|应|会|宜)?(?:超过|高于|多于|大于)|不(?:得|能|可|应)?(?:少于|低于|小于)"
    r"|不(?:迟于|晚于)|不早于"
    r"|(?:不足|不满|未满|未达到?|未超过)(?=\s*[\d零一二两三四五六七八九十百千])",
    re.IGNORECASE,
)
# 不足48小时, 未满18周岁: under the number, a bound (as 不超过 is), no negation.
_CJK_UNDER = ("不足", "不满", "未满", "未达", "未超")
# (any measure: "no higher than 196 mm" is at most, "no shallower than 254 mm" at least)
_UPPER_BOUND = frozenset(
    ["more", "greater", "higher", "longer", "larger", "taller", "wider", "deeper", "heavier",
     "bigger", "thicker", "older"]
)  # fmt: skip
_LOWER_BOUND = frozenset(
    ["less", "fewer", "lower", "smaller", "shorter", "shallower", "narrower", "lighter",
     "thinner", "younger"]
)  # fmt: skip
# "no component below 6.0" is "every component at least 6.0", a floor; "no bag over 23 kg"
# a ceiling: bounds, no negation.
_NO_ONE_BELOW = re.compile(
    r"\bno\s+((?:[a-z-]+\s+){0,2}?[a-z-]+)\s+(below|under|above|over|beneath)\s+(?=[$€£¥]?\d)",
    re.IGNORECASE,
)


def _no_one_below(m: re.Match[str]) -> str:
    floor = m.group(2).lower() in ("below", "under", "beneath")
    return f"every {m.group(1)} {'at least' if floor else 'at most'} "


def _bound(m: re.Match[str]) -> str:
    written = m.group()
    word = (m.group(1) or "").lower()
    if word in _UPPER_BOUND:
        return "at most"
    if word in _LOWER_BOUND:
        return "at least"
    if word in ("later", "sooner", "earlier"):
        # the latest and the earliest day are opposite bounds (early/late directions)
        return "at the latest" if word == "later" else "at the earliest"
    if written.startswith(_CJK_UNDER):
        return "最多"
    if written.startswith("不"):
        mark = written[-2]  # 不超过, 不得超过: the comparison after any modal
        if mark in "超高多大":
            return "最多"
        if mark in "少低小":
            return "最少"
        return "最迟" if mark != "早" else "最早"
    return " "  # not only


# "does not exceed 5 GB" is "at most 5 GB", as "no more than" is; so is "no single issuer
# may exceed 2%" ("a single issuer may not exceed 2%" agrees with it).
_NOT_EXCEED = re.compile(
    r"\b(?:not|never)\s+(?:to\s+)?exceed(?:s|ed|ing)?\b"
    r"|\bno\s+((?:[\w-]+\s+){1,3}?)(may|can|shall|will|should|must|does|do|did)\s+exceed\b",
    re.IGNORECASE,
)


def _at_most(m: re.Match[str]) -> str:
    if m.group(2):
        return f"{m.group(1)}{m.group(2)} at most"
    return "at most"


# "should not go above 1,200 mg" is "at most 1,200 mg", "must not fall below 100%" "at
# least 100%"; "at or above 100%" is "at least 100%" (bounds, not a negation or a level).
_NOT_PAST = re.compile(
    r"\b(?:not|never)\s+(?:(?:go|rise|be|get|fall|drop|dip|sink|run)\s+(above|over|below|under)\b"
    r"(?=\s*[\d(（$€£¥]|\s+(?:the|a|an|its|their|this|that)\b)"
    # without a verb only before an amount: "not over the coverage period" negates a
    # time ("over" is "during"), it sets no bound
    r"|(above|over|below|under)\b(?=\s*[\d(（$€£¥]))",
    re.IGNORECASE,
)
_AT_OR = re.compile(
    r"\bat\s+or\s+(?:(above|over|higher|more)|below|under|lower|less)\b", re.IGNORECASE
)
# "No food or drink is allowed" is "food and drink are forbidden" (the context's word).
_NONE_ALLOWED = re.compile(
    r"\bno\s+((?:[\w-]+\s+){1,4}?)((?:is|are|was|were|will\s+be|may\s+be|can\s+be))\s+(?:allowed|permitted)\b",
    re.IGNORECASE,
)


# "over 6 hours", "under 6 hours": a level against a number, as above/below say it.
_OVER_UNDER = re.compile(r"\b(over|under)(?=\s+[$€£¥]?\d)", re.IGNORECASE)


def _over_under(m: re.Match[str]) -> str:
    return "above" if m.group(1).lower() == "over" else "below"


def _not_past(m: re.Match[str]) -> str:
    return "at most" if (m.group(1) or m.group(2)).lower() in ("above", "over") else "at least"


def _at_or(m: re.Match[str]) -> str:
    return "at least" if m.group(1) else "at most"


# A label whose value is "none" negates the label: "股份回购：无" is "无股份回购",
# "Share buyback: none" is "no share buyback".
_LABEL_NONE = re.compile(r"^(\s*[^:：\n]{1,40}?)\s*[:：]\s*(无|没有|none|no)\s*[。.;；]?\s*$", re.I)
_NONE_ENDINGS = ("无", "没有", "none", "None", "no", "No", "无。", "none.", "None.", "no.", "No.")


def _label_none(m: re.Match[str]) -> str:
    return f"无{m.group(1).strip()}" if not m.group(2).isascii() else f"no {m.group(1).strip()}"


# "Under no circumstances", "at no time", 任何情况下都不得: "never" (the 不 stays).
_NEVER_IDIOM = re.compile(
    r"\b(?:under\s+no\s+circumstances?|at\s+no\s+(?:point|time)|in\s+no\s+(?:case|event)|"
    r"on\s+no\s+account|by\s+no\s+means)\b"
    r"|(?:在|于)?任何(?:情况|情形|条件)(?:下|之下)(?:都|均|也|一律)?(?=不|禁|严禁|绝不|决不)"
    r"|无论(?:如何|何时|任何情况)(?:都|均|也)?(?=不|禁|严禁|绝不|决不)",
    re.IGNORECASE,
)


def _never_idiom(text: str) -> str:
    if "no" not in text and "任何" not in text and "无论" not in text:
        return text
    return _NEVER_IDIOM.sub(lambda m: "never" if m.group().isascii() else "", text)


# A label that says its value is excluded: "Exclusions: cosmetic treatment" is "cosmetic
# treatment is excluded", "不包括：美容治疗" / "除外责任：美容治疗" is 不包括美容治疗.
_EXCLUDED_LABEL = re.compile(
    r"^\s*\|?\s*(?:(exclusions?|excluded|not\s+covered|not\s+included|not\s+eligible|"
    r"ineligible)|(除外责任|除外项目|除外|不包括|不保障|不予赔付|不予报销|不在保障范围内?))"
    r"\s*(?:[:：]|\|)\s*(.+?)\s*\|?\s*$",
    re.IGNORECASE,
)


def _excluded(m: re.Match[str]) -> str:
    value = m.group(3).rstrip(".。")
    return f"{value} is excluded." if m.group(1) else f"不包括{value}。"


_FOR_A_FEE = re.compile(
    r"\s(?:for|at|against)\s+an?\s+(?:small\s+|fixed\s+|separate\s+|additional\s+|extra\s+)?"
    r"(?:fee|charge)\b",
    re.IGNORECASE,
)
# "not counting half-time" is "excluding half-time" (no negation of the clause)
_NOT_COUNTING = re.compile(r"\bnot\s+counting\b|(?<!\bis )(?<!\bare )\bnot\s+counted\b", re.I)


# What a negation negates, as written: 未排除, 不能正常使用, "not reached".
_CJK_NEGATED_WORD = re.compile(
    r"(?:仍未|尚未|并非|不是|并不|没有|不能|不再|不得|不可|不予|不会|无法|未|没|不|非|无)"
    r"([^\s，。；：,;:、（）()]{2})"
)
_NEGATED_WORD = re.compile(r"\b(?:not|never|no\s+longer)\s+(?:been\s+|be\s+)?([a-z]{3,})", re.I)


def _default_of_permission(claim: str, top: list[tuple[_Clause, str]]) -> bool:
    """Whether a negated claim clause ("substituted players may not return") denies what
    its best context clause permits only under a condition ("may return … only in youth
    divisions", a prohibition with an exception) without naming that condition: the
    prohibition is the rule outside it. Naming the condition and denying it still fails."""
    said = _terms(claim)  # (the whole claim: "In youth divisions, … may not return" names it)
    return any(
        c.requires and _term_weight(c.requires & said) * 2 < _term_weight(c.requires)
        for c, _ in top
    )


def _negates_the_same(piece: str, top: list[tuple[_Clause, str]]) -> bool:
    """Whether a negated claim clause, matched best by plain context clauses, negates the
    very word a clause of the same context sentence negates ("累计维修2次后仍未排除的" against
    "因…累计进行了2次维修，…仍未排除或者又出现…的": the claim joins two clauses of it)."""
    if any(c.requires for c, _ in top):
        return False  # a prohibition with its exception: the rule forms compare it
    pattern = _NEGATED_WORD if piece.isascii() else _CJK_NEGATED_WORD
    said = {m.group(1).lower() for m in pattern.finditer(piece)}
    if not said:
        return False
    # (every word the clause negates: 未用年假并非于3月31日作废 negates 于3 as well as 用年;
    # and of something the claim names: 标准版不提供 is not 企业版则不提供)
    terms = _terms(piece)
    for sentence in dict.fromkeys(s for _, s in top):
        negated: set[str] = set()
        for clause in _CLAUSE.split(sentence):
            found = {m.group(1).lower() for m in pattern.finditer(clause)}
            if found & said:
                named = (terms & _terms(clause)) - _terms(" ".join(found))
                if _term_weight(frozenset(t for t in named if not set(t) & set("不未没无非"))) >= 1:
                    negated |= found
        if said <= negated:
            return True
    return False


# (free of charge; exempt from or relieved from a duty, read "optional for" it)
_FREE_OR_OPTIONAL = frozenset(["free", "optional"])
_NOT_PAYING = re.compile(
    r"\b(?:not|never|no\s+one|nobody)\s+(?:\w+\s+)?(?:pay|pays|paid|charged|billed)\b"
    r"|\bpays?\s+(?:neither|nothing|no)\b|不(?:用|需|须|必)?(?:付费|支付|缴费|交费)|不(?:收|收取|另收)",
    re.IGNORECASE,
)


def _polar_text(text: str) -> str:
    """``text`` as negation and direction are read: contractions written out, bounds as
    bounds (see ``_BOUND``), a negated permission or requirement as its opposite
    (``_NEGATED_MODAL``)."""
    text = _never_idiom(expand_contractions(text))
    if " fee" in text or " charge" in text:
        text = _FOR_A_FEE.sub(" charged", text)  # "for a fee" is charged ("at no cost" free)
    if "not count" in text:
        text = _NOT_COUNTING.sub(
            lambda m: "excluding" if m.group().endswith("ing") else "excluded", text
        )
    if ":" in text or "：" in text or "|" in text:
        text = _EXCLUDED_LABEL.sub(_excluded, text)  # "Exclusions: cosmetic treatment"
    if _MAY_NEGATE.search(text) is not None:
        text = _NEGATIVE_VERB.sub(_negative_verb, text)  # "is exempt from", 免于, 不得不
    if text.endswith(_NONE_ENDINGS):
        text = _LABEL_NONE.sub(_label_none, text)
    lower = text.lower()
    if "last " in lower or "this " in lower:
        text = _THIS_LAST.sub(_this_last, text)  # "last year" is the previous year
        lower = text.lower()
    if "no" in lower and ("except" in lower or "other" in lower or "but" in lower):
        text = _NO_ONE_EXCEPT.sub(r"only \1 \2", text)  # "no one except X may": only X may
    elif not text.isascii() and "除" in text:
        text = _CJK_NO_ONE_EXCEPT.sub(r"只有\1才能", text)  # 除X外任何人不得: 只有X才能
    if "no" in lower or "never" in lower or (not text.isascii() and ("不" in text or "禁" in text)):
        if "exceed" in lower:
            text = _NOT_EXCEED.sub(_at_most, text)
        text = _BOUND.sub(_bound, text)
        if text.isascii():
            text = _NO_ONE_BELOW.sub(_no_one_below, text)
        text = _NOT_PAST.sub(_not_past, text)
        if "allowed" in lower or "permitted" in lower:
            text = _NONE_ALLOWED.sub(r"\1\2 forbidden", text)
        text = _NEGATED_MODAL.sub(_unnegated, text)
        if "need" in lower:
            text = _NOT_NEED.sub("optional", text)  # "you do not need a receipt"
        if "cost" in lower or "charge" in lower or "fee" in lower or "费" in text:
            text = _NO_COST.sub(_free, text)
    if ("without" in lower or "no" in lower) and (
        "need" in lower or "require" in lower or "necessary" in lower
    ):
        # "without any approval needed", "no receipt required": it is optional
        text = _NONE_NEEDED.sub(r"\1 optional", text)
    if text.isascii() and _PROHIBITION.search(text) is not None:
        # every prohibition in one form, a negation ("prohibited" = "not allowed", as
        # 禁止 is read 不允许), so "cannot", "may not", "must not", "is not permitted"
        # and "is forbidden" agree, and "can"/"is allowed" contradicts each
        text = _PROHIBITION.sub(_not_allowed, text)
    if "-" in text and "non" in lower:
        text = _NON_ABLE.sub(r"not \1", text)  # non-refundable: not refundable
    if "at or " in lower:
        text = _AT_OR.sub(_at_or, text)
    if "over " in lower or "under " in lower:
        text = _OVER_UNDER.sub(_over_under, text)  # "flights over 6 hours": above 6
    if "not" in lower and (" that " in lower or " which " in lower or " who " in lower):
        # "conditions that you have not declared are not covered": only if declared
        text = _NEGATED_CONDITION.sub(_conditioned, text)
    if ("until" in lower or "unless" in lower or "except" in lower) or (
        not text.isascii()
        and ("才" in text or "方可" in text or "方能" in text or "除外" in text or "只有" in text)
    ):
        text = _rule_form(text)
    if not text.isascii() and "失效" in text:
        text = text.replace("失效", "无效")  # lapses: is no longer valid
    if "instead" in lower or "rather" in lower or (not text.isascii() and _MAY_REPLACE(text)):
        text = _REPLACED.sub(_replaced, text)
    if "up " in lower or "down " in lower:
        text = _UP_DOWN.sub(_up_down, text)
    if _MAY_STATE.search(lower) is not None:
        text = _STATE.sub(_state, text)
    return text


# A state a phrase says, read as a direction word put after it (the phrase stays, so its
# words are still matched): "power it off", "shut the laptop down" (poweredoff) against
# "leave it powered on" (poweredon); "with or after food" (withfood) against "on an empty
# stomach" (emptystomach). Not after a negation in its clause: "do not switch it off"
# says it stays on, which the negation rule reads.
_STATE = re.compile(
    r"\b(?:power(?:ed|s|ing)?|switch(?:ed|es|ing)?|turn(?:ed|s|ing)?)\s+"
    r"(?:(?:it|them|(?:the|your|this|that|its)\s+[a-z-]+)\s+)?(?P<state>on|off)\b"
    r"|\b(?:shut|shuts|shutting|power|powers|powered|powering)\s+"
    r"(?:(?:it|them|(?:the|your|this|that|its)\s+[a-z-]+)\s+)?(?P<down>down)\b"
    r"|\b(?P<fasting>on\s+an\s+empty\s+stomach)\b"
    r"|\b(?P<fed>(?:with|after)\s+(?:or\s+(?:with|after)\s+)?(?:food|meals?|a\s+meal|eating))\b",
    re.IGNORECASE,
)
_MAY_STATE = re.compile(r" on\b| off\b|down|stomach|food|meal|eating")
_STATE_NEGATED = re.compile(r"\b(?:not|never|no|cannot|without)\b", re.IGNORECASE)


def _state(m: re.Match[str]) -> str:
    clause = re.split(r"[,;.:!?]", m.string[: m.start()])[-1]
    if _STATE_NEGATED.search(clause) is not None:
        return m.group()
    if m.group("fasting"):
        word = "emptystomach"
    elif m.group("fed"):
        word = "withfood"
    elif (m.group("state") or "").lower() == "on":
        word = "poweredon"
    else:
        word = "poweredoff"
    return f"{m.group()} {word}"


_THIS_LAST = re.compile(
    r"\b(this|last)\s+(year|quarter|month|period|financial\s+year|fiscal\s+year)\b", re.IGNORECASE
)


def _this_last(m: re.Match[str]) -> str:
    return f"{'current' if m.group(1).lower() == 'this' else 'previous'} {m.group(2)}"


# Verbs that say "not" without a negation word, and a double negation that says "must":
# "is exempt from X" = "is not required to X", "declined to X" = "did not X", 免于/豁免 =
# 无须, 缺乏/缺少 = 没有, 不得不/不能不 = 必须.
_MAY_NEGATE = re.compile(
    r"exempt|relieved|declin|refrain|免于|豁免|免除|免征|免缴|免交|缺乏|缺少|欠缺|不得不|不能不|不可不",
    re.IGNORECASE,
)
_NEGATIVE_VERB = re.compile(
    r"\b(exempt(?:ed)?\s+from|relieved\s+(?:from|of)|refrain(?:s|ed|ing)?\s+from|"
    r"declin(?:e|es|ed|ing)\s+to"
    r"(?=\s+(?!(?:a|an|the|its|their|his|her|our|record|levels?|below|around|about|"
    r"approximately|roughly|just|only|under|over|near|some|nearly|almost|zero|nil)\b)"
    r"[a-z]+\b))\b"
    r"|(免于|豁免|免除|免征|免缴|免交)|(缺乏|缺少|欠缺)|(不得不|不能不|不可不)",
    re.IGNORECASE,
)


def _negative_verb(m: re.Match[str]) -> str:
    if m.group(1) is not None:
        verb = m.group(1).lower()
        return (
            "not required for"
            if verb.startswith(("exempt", "relieved"))
            else "not"
            if verb.startswith("refrain")
            else "did not"
        )
    if m.group(2) is not None:
        return "无须"
    return "没有" if m.group(3) is not None else "必须"


# Rule forms that say the same thing (a paraphrase table of conditions): a prohibition
# with an exception is a permission with a condition. "must not X unless Y" = "X only if
# Y"; "do not X until Y" = "keep X down until Y" = "X only after Y" (= "Y before X", read
# by ``_converse``); 未经Y不得X = 只有Y才能X = Y前不得X; "all B except C" = "not C" (C除外).
# English is written in the permission form (the negation dropped, "unless"/"until" as
# "only if"/"only after"), Chinese in the prohibition form (只有Y才能X as 未Y不得X), so
# the two sides' polarity is compared form for form, and what each negates is still read.
_NOT_UNTIL = re.compile(
    r"\b(?:(must|should|shall|may|can|will|would|could|do|does|did)\s+(?:not|never)|"
    r"(can)not|never|not|no)\s+([^,;.]{1,80}?)\s(until|till|unless)\s",
    re.IGNORECASE,
)
_KEEP_UNTIL = re.compile(
    r"\b(?:keep|leave)s?\s+((?:[\w-]+\s+){1,5}?)(?:down|off|offline|closed|shut|locked|"
    r"disabled|stopped|suspended|powered\s+off|switched\s+off)\s+(until|till)\s",
    re.IGNORECASE,
)
# (an exception that gives another value, "at least 900 mm, except 1,070 mm where …",
# substitutes a number; it denies nothing)
# "may not return to the field, except in youth divisions" is "may return … only in youth
# divisions", the permission form of "cannot return … unless the match is in a youth
# division" (a prohibition with an exception where it holds).
_NOT_EXCEPT = re.compile(
    r"\b(?:(must|should|shall|may|can|will|would|could|do|does|did)\s+(?:not|never)|"
    r"(can)not|never)\s+([^,;.]{1,80}?),?\s+except\s+(?=(?:in|for|when|where|if|during|on|at)\b)",
    re.IGNORECASE,
)


def _permitted_except(m: re.Match[str]) -> str:
    modal = (m.group(1) or m.group(2) or "").lower()
    modal = _PERMITTING.get(modal, modal)
    return f"{modal} {m.group(3)} only{_RULE_CONDITION}".lstrip()


_EXCEPT = re.compile(r"\s*,?\s*\bexcept(?:\s+for)?\s+(?![\d$€£¥])", re.IGNORECASE)
_CJK_ONLY_IF = re.compile(
    r"(?:只有|唯有|只在|仅在|仅当|只当|须经过?|需经过?|必须经过?|经过?)(.{1,30}?)"
    r"(?:才能够|才能|才可以|才可|才会|才|方可|方能)"
)
# 只有管理员可以删除 (no 才) says 只有管理员才能删除
_CJK_ONLY_CAN = re.compile(r"(?:只有|唯有)(.{1,20}?)(?:可以|能够|能|可)")
# (a connective before the exception is no part of it: 但意外伤害除外 is 意外伤害除外)
_CJK_EXCEPT = re.compile(r"[，,]?(?:但是|但|不过|只是|惟|唯)?([^，,。；;：:]{1,20}?)除外")
_PERMITTING = {"must": "may", "should": "may", "shall": "may", "do": "", "does": "", "did": ""}


# Stands between a permission and the condition a prohibition set ("only after § Y"): no
# token, no clause break; ``_polar_pieces`` splits the condition off there.
_RULE_CONDITION = " § "


# A negated relative clause with a negated predicate is the rule form with its condition:
# "conditions that you have not declared to us are not covered" says "are covered only §
# you have declared to us", as "are not covered unless you have declared them" does.
_NEGATED_CONDITION = re.compile(
    r"\s(?:that|which|who)\s+((?:[\w'-]+\s+){0,2}?)(have|has|had|do|does|did|are|is|were|was)"
    r"\s+(?:not|never)\s+([^,;.]{1,60}?)\s+(are|is|were|was|will\s+be)\s+(?:not|never)\s+(\w+)",
    re.IGNORECASE,
)


def _conditioned(m: re.Match[str]) -> str:
    return f" {m.group(4)} {m.group(5)} only{_RULE_CONDITION}{m.group(1)}{m.group(2)} {m.group(3)}"


def _permitted(m: re.Match[str]) -> str:
    modal = (m.group(1) or m.group(2) or "").lower()
    modal = _PERMITTING.get(modal, modal)
    condition = "only" if m.group(4).lower() == "unless" else "only after"
    return f"{modal} {m.group(3)} {condition}{_RULE_CONDITION}".lstrip()


def _rule_form(text: str) -> str:
    """``text`` with its rule forms written in one form each (above)."""
    if text.isascii():
        lower = text.lower()
        if "keep" in lower or "leave" in lower:
            text = _KEEP_UNTIL.sub(r"\1 only after" + _RULE_CONDITION, text)
        if "until" in lower or "unless" in lower:
            text = _NOT_UNTIL.sub(_permitted, text)
        if "except" in lower:
            text = _NOT_EXCEPT.sub(_permitted_except, text)
            text = _EXCEPT.sub(", not ", text)
        return text
    if "除外" in text:
        text = _CJK_EXCEPT.sub(r"，非\1", text)
    text = _CJK_ONLY_IF.sub(r"未\1不得", text)
    return _CJK_ONLY_CAN.sub(r"未\1不得", text) if "只有" in text or "唯有" in text else text


# At no cost is free (no negation): "included at no extra cost", "with no additional
# charge", 不收取任何费用, 无需付费; against "charged", 收费, 另行付费.
_NO_COST = re.compile(
    r"\b(?:at|for|with)\s+no\s+(?:extra\s+|additional\s+)?(?:cost|charge|fee)s?\b"
    r"|\b(?:no|without)\s+(?:extra\s+|additional\s+)?(?:cost|charge|fee)s?\b"
    r"|(?:不|无需|无须|毋须|不需|不用)(?:另行|额外)?(?:收取|收|支付|付|缴纳|交)?(?:任何)?(?:额外)?(?:费用|费)",
    re.IGNORECASE,
)


def _free(m: re.Match[str]) -> str:
    return "free" if m.group().isascii() else "免费"


# "up 12.4%", "down by 3%": a direction where a change follows (not "up to 10 days").
_UP_DOWN = re.compile(
    r"\b(up|down)(?=\s+(?:by\s+)?[\d(（$€£¥]|\s+(?:year|yoy|from)\b)", re.IGNORECASE
)


def _up_down(m: re.Match[str]) -> str:
    return "rose" if m.group(1).lower() == "up" else "fell"


# What is chosen over something else: "reports insurance revenue instead of gross written
# premiums" says it does not report them, so the other thing is read as a negated clause
# ("…revenue, not gross written premiums"), as 而不是, 而非 and 取代 (…取代了旧规则: 不再旧规则)
# say in Chinese: the faithful "no longer reports premiums" agrees, the reversed
# "reports premiums instead of revenue" contradicts.
_REPLACED = re.compile(
    r"\s*,?\s*\b(?:instead of|rather than|in place of)\s+|\s*[，,]?\s*(?:而不是|而非|而不再是)"
    r"|(取代|代替|替代)(?:了)?"
)
_MAY_REPLACE = re.compile(r"而不是|而非|而不再是|取代|代替|替代").search


def _replaced(m: re.Match[str]) -> str:
    return ", not " if m.group().isascii() else ("，不再" if m.group(1) else "，不")


# "not allowed" is "forbidden", "not required" is "optional" (and the reverse), so
# "Business class isn't allowed" agrees with "Business class is prohibited" and still
# contradicts "is allowed" (as a direction). In Chinese every prohibition but 禁止 is
# written with 不 (不得, 不允许, 不准, 不能), so 禁止 is read as 不允许: all of them agree
# as negations, and each contradicts 允许.
_NEGATED_MODAL = re.compile(
    r"\b(?:not|no\s+longer)\s+(?:be\s+|been\s+)?(?:(allowed|permitted)|(required|"
    r"mandatory|compulsory|obligatory|needed|necessary)|(prohibited|forbidden|banned)|(optional|voluntary))\b"
    r"|((?:不再|并不|并未|从未|没有|不|未)禁止)|(禁止|严禁|禁用)|\b(not\s+(?:have|need)\s+to|need\s+not)\b",
    re.IGNORECASE,
)
# (the last: "do not have to", "need not" is "optional" too)
_UNNEGATED = ("not allowed", "optional", "allowed", "required", "允许", "不允许", "optional")
_NOT_NEED = re.compile(r"\b(?:do|does|did|will)\s+not\s+need\b|\bno\s+need\s+(?:for|of)\b", re.I)
_NONE_NEEDED = re.compile(
    r"\b(?:without|no)\s+(?:any\s+|prior\s+|further\s+)?((?:[\w-]+\s+){0,2}?[\w-]+)\s+"
    r"(?:(?:is|are|was|were|being|will\s+be)\s+)?(?:needed|required|necessary)\b",
    re.IGNORECASE,
)
# A prohibition as a negation (above); the verb forms keep their object after them.
_PROHIBITION = re.compile(
    r"\b(?:(?:is|are|was|were|be|been|being|remains?|stays?)\s+)?(?:strictly\s+)?"
    r"(prohibited|forbidden|banned|disallowed|barred|blocked)(?:\s+(?:from|to)\b)?"
    r"|\b(prohibits|forbids|bans|disallows)\b",
    re.IGNORECASE,
)


def _not_allowed(m: re.Match[str]) -> str:
    if m.group(2):
        return "does not allow"
    return (
        "is not allowed to" if m.group().lower().endswith((" from", " to")) else ("is not allowed")
    )


# "No one except administrators may delete" is "only administrators may delete";
# 除管理员外，任何人不得删除 is 只有管理员才能删除 (read by the rule forms as 未…不得).
_NO_ONE_EXCEPT = re.compile(
    r"\b(?:no\s+one|no-one|nobody|no\s+person|no\s+other\s+(?:person|user|employee|staff)s?)"
    r"\s+(?:except(?:\s+for)?|but|other\s+than|apart\s+from|besides)\s+([^,;.]{1,60}?)\s+"
    r"(may|can|could|is|are|shall|will|has|have)\b",
    re.IGNORECASE,
)
_CJK_NO_ONE_EXCEPT = re.compile(
    r"除(?:了)?([^，,。；;]{1,20}?)(?:以外|之外|外)[，,]?\s*(?:任何人|其他人|其他任何人|其余人员|其他人员)"
    r"(?:均|都|一律)?(?:不得|不能|不可以|不可|不允许|无权)"
)
# "non-refundable" in a clause is "not refundable" (an adjective of what may be done)
_NON_ABLE = re.compile(r"\bnon-(\w+(?:able|ible))\b", re.IGNORECASE)


def _unnegated(m: re.Match[str]) -> str:
    return _UNNEGATED[(m.lastindex or 1) - 1]


def _negates_other_word(
    piece: str, negated: bool, top: list[tuple[_Clause, str]]
) -> tuple[str, str] | None:
    """A contradiction when the claim negates a word every best context clause affirms
    (or the reverse): the negation is the same in presence, not in what it negates."""
    negates, affirms = _negation_scope(piece) if negated else (frozenset(), frozenset())
    if not negated:
        affirms = _affirmed_all(piece)
    claim_side = [(negates - c.negates) & c.affirms for c, _ in top]
    if all(claim_side):
        return "negated, but the context is not", top[0][1]
    context_side = [(c.negates - negates) & affirms for c, _ in top]
    if all(context_side):
        return "the context negates it", top[0][1]
    return None


# How often: a claim that says "per week" where the sentence it was taken from says "per
# day" (每季度 where it says 每年) changes the fact, however many words it shares.
_FREQUENCIES: dict[str, str] = {
    "daily": r"\b(?:per|a|each|every)\s+(?:working\s+|calendar\s+)?day\b|\bdaily\b|每日|每天"
    r"|\b(?:per|a|each|every)\s+night\b|\bnightly\b|每晚|每夜",
    "weekly": r"\b(?:per|a|each|every)\s+week\b|\bweekly\b|每周|每星期|每个星期",
    "monthly": r"\b(?:per|a|each|every)\s+(?:calendar\s+)?month\b|\bmonthly\b|每月|每个月"
    r"|按月|月度|月用[\u4e00-\u9fff]{0,2}量|\bmonthly\s+(?:use|usage|consumption)\b",
    "quarterly": r"\b(?:per|a|each|every)\s+quarter\b|\bquarterly\b|每季度?|每个季度",
    "yearly": r"\b(?:per|a|each|every)\s+(?:calendar\s+|financial\s+|fiscal\s+)?(?:year|annum)\b"
    r"|\b(?:yearly|annually)\b|每年|每一年"
    # 年用电量 (the electricity used in a year), "annual use": counted per year
    r"|按年|(?<![\d〇零一二三四五六七八九十])年度|年用[\u4e00-\u9fff]{0,2}量|\bannual\s+(?:use|usage|consumption)\b",
    # what else an amount is counted per: a transaction, a person
    "per_transaction": r"\b(?:per|a|each|every)\s+(?:single\s+)?(?:transaction|transfer|payment)\b"
    r"|每笔|单笔",
    "per_person": r"\b(?:per|each|every)\s+(?:person|head|employee|member|participant)\b|每人|人均",
}
_FREQUENCY = re.compile("|".join(f"(?P<{k}>{v})" for k, v in _FREQUENCIES.items()), re.IGNORECASE)
# A claim without one of these words says no frequency (a set look-up before the pattern).
_FREQUENCY_CUES = frozenset(
    [
        "transaction",
        "transfer",
        "payment",
        "person",
        "head",
        "employee",
        "member",
        "participant",
        "day",
        "night",
        "nightly",
        "week",
        "month",
        "quarter",
        "year",
        "annum",
        "daily",
        "weekly",
        "monthly",
        "quarterly",
        "yearly",
        "annually",
        "annual",
    ]
) | frozenset("每单均按度量")
# The words of a frequency phrase (left out of the topic a frequency is compared on).
_FREQUENCY_WORDS = (
    _FREQUENCY_CUES
    | frozenset(["days", "nights", "weeks", "months", "quarters", "years", "every", "each"])
    | frozenset(["calendar", "financial", "fiscal", "working"])
    | frozenset("每日天晚夜周星期月季度年")
)
_SAME_FACT = 0.8  # share of the claim's words the sentence must have to be its source


def _frequencies(text: str) -> frozenset[str]:
    return frozenset(m.lastgroup for m in _FREQUENCY.finditer(text) if m.lastgroup)


_TIME_RATES = frozenset(["daily", "weekly", "monthly", "quarterly", "yearly"])


def _rates_disagree(said: frozenset[str], claimed: frozenset[str]) -> bool:
    """Whether ``claimed`` counts per something else than ``said``: none in common, or
    another period beside a shared unit (每人每月 against 每人每晚)."""
    if not said:
        return False
    if said.isdisjoint(claimed):
        return True
    said_time, claimed_time = said & _TIME_RATES, claimed & _TIME_RATES
    return bool(said_time and claimed_time and said_time.isdisjoint(claimed_time))


def _frequency_problem(claim: str, sentence: str, topic: frozenset[str], label: str) -> str | None:
    """A reason when ``claim`` says another frequency than the context sentence it was
    taken from (a sentence holding most of its words)."""
    said = _frequencies(sentence)
    claimed = _frequencies(claim)
    if not _rates_disagree(said, claimed):
        return None
    words = [t for t in topic if not t.isdigit() and t not in _FREQUENCY_WORDS]
    shared = frozenset(TOKEN.findall(sentence.lower()))
    if not words or _weight(t for t in words if t in shared) < _SAME_FACT * _weight(words):
        return None
    return f"says {'/'.join(sorted(claimed))} where {label} say {'/'.join(sorted(said))}"


# A Chinese term with its first character changed (汇率风险 where the contexts say 利率风险):
# a character the contexts never write, between the same left neighbour and the same three
# characters the contexts write around another character the claim never writes. Character
# pairs score it 0.95; it is another thing. Function characters are no term, a character
# after a digit is a unit or a date (2024-07-01起 for 2024年7月1日), and words that share
# their second character and mean the same are one word (带动/推动, 上升/提升, 主要/重要),
# as are comparatives of one direction (优于/好于/胜于预期: better than) and the words that
# open a condition (如因/若因/确因会议安排需…的: where it is for a conference).
_FUNCTION_CHARS = frozenset(
    "的了是在和与及或也都将已为对于其之而并向由从被把这那个此该但过仍有没未不无非因所以自至到就还又再很更最较"
    "得能可会应须需必准许"
)
_SYNONYM_HEADS = [
    "推带拉驱促", "上提攀回", "主重首", "增成", "改完", "减缩", "下回", "提调", "增添追",
    "稳确", "显明", "收营", "营经", "保维", "主首", "指预", "预估",
    "优好胜佳", "差逊劣", "如若倘确",
]  # fmt: skip
_SAME_HEAD = frozenset((a, b) for group in _SYNONYM_HEADS for a in group for b in group)


def _left_of(text: str, at: int) -> str:
    """The character before ``at``, any punctuation, space or the start read as one mark."""
    if at <= 0:
        return "|"
    ch = text[at - 1]
    return ch if ch.isalnum() else "|"


def _cjk_term_problem(claim: str, contexts: _Contexts) -> str | None:
    vocab = contexts.vocab
    claimed = frozenset(claim)
    for m in _CJK_RUN.finditer(claim):
        run = m.group()
        for i in range(len(run) - 3):
            head = run[i]
            if head in vocab or head in _FUNCTION_CHARS or (i and run[i - 1 : i + 1] in vocab):
                continue
            left = _left_of(claim, m.start() + i)
            if left.isdigit():
                continue
            tail = run[i + 1 : i + 4]
            for text in contexts.texts:
                at = text.find(tail, 1)
                while at > 0:
                    other = text[at - 1]
                    if (
                        "\u4e00" <= other <= "\u9fff"
                        and other not in claimed
                        and other not in _FUNCTION_CHARS
                        and (head, other) not in _SAME_HEAD
                        and _left_of(text, at - 1) == left
                    ):
                        return f"says {head}{tail} where {contexts.label} say {other}{tail}"
                    at = text.find(tail, at + 1)
    return None


# A new predicate: a sentence whose verb the contexts never use (in any inflection) says
# something they do not ("The partner terminated its contract with ACME permanently" where
# the renewal was delayed: its subject and object words are there, the act is not). The
# words rule asks 60%; a claim with no number whose past-tense verb is new must have 75%
# of its words there, so a reworded faithful sentence (one new verb among many found
# words) passes, and a claim with numbers is left to the number rules.
_NEW_VERB_SHARE = 0.75
_PARAPHRASE_FLOOR = 0.2  # below it a claim is no rewording (_judge): no stems, no table
_NOT_VERBS_ED_TEXT = """
    based related limited detailed listed unlisted need needed indeed hundred bed red
    shed seed speed feed weed breed proceed exceed succeed united advanced
"""
_NOT_VERBS_ED = frozenset(_NOT_VERBS_ED_TEXT.split())


def _new_verb(tokens: list[str], match: dict[str, str], vocab: frozenset[str]) -> str | None:
    """A past-tense verb (…ed) of the claim that the contexts have in no inflection and
    no derivation (``approved`` is in ``approval``: a word sharing its first five letters)."""
    for t in tokens:
        if (
            t not in match
            and len(t) > 4
            and t.endswith("ed")
            and t.isalpha()
            and t not in _NOT_VERBS_ED
        ):
            stem = t[: min(5, len(t) - 2)]
            if not any(w.startswith(stem) for w in vocab):
                return t
    return None


# Ordinals are facts: "ranked first" against "ranked second", "第一大" against "第二大".
_ORDINAL_WORDS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
    "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10,
    "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5, "6th": 6, "7th": 7, "8th": 8,
    "9th": 9, "10th": 10,
}  # fmt: skip
_ORDINAL_SET = frozenset(_ORDINAL_WORDS)
_CJK_ORDINAL = re.compile(
    r"第\s*([一二三四五六七八九十]|\d{1,2})(?![\d〇零一二三四五六七八九十百千万亿])"
)
_CJK_DIGIT = {c: i for i, c in enumerate("〇一二三四五六七八九十")}
_ORDINAL_CLAUSE = re.compile(
    r"[，；：]|[,;:]\s+|\s+(?:and|but|while|whereas|however|although|though)\s+|但是|然而|但"
)
_ORDINAL_NOISE = frozenset("第一二三四五六七八九十") | _ORDINAL_SET


def _ordinals(text: str, tokens: Iterable[str]) -> frozenset[int]:
    found = {_ORDINAL_WORDS[t] for t in tokens if t in _ORDINAL_SET}
    if "第" in text:
        for m in _CJK_ORDINAL.finditer(text):
            n = m.group(1)
            found.add(int(n) if n.isdigit() else _CJK_DIGIT[n])
    return frozenset(found)


def _ordinal_problem(claim: str, contexts: _Contexts, match: dict[str, str]) -> str | None:
    """A reason when a clause of ``claim`` gives another ordinal than the context sentence
    it matches (one that shares at least half of its other words and has an ordinal)."""
    for clause in _ORDINAL_CLAUSE.split(claim):
        tokens = tokenize(clause)
        claimed = _ordinals(clause, tokens)
        if not claimed:
            continue
        topic = frozenset(
            match.get(t, t) for t in tokens if t not in STOPWORDS and t not in _ORDINAL_NOISE
        )
        best, said = 0, set()  # the ordinals of the context clauses it matches best
        for p in contexts.passages:
            for sentence in p.sentences:
                for piece in _ORDINAL_CLAUSE.split(sentence):
                    words = tokenize(piece)
                    shared = len(topic.intersection(words))
                    if shared > best:
                        best, said = shared, set(_ordinals(piece, words))
                    elif shared == best:
                        said |= _ordinals(piece, words)
        if 2 * best < len(topic) or best < 2:
            continue
        if said and said.isdisjoint(claimed):
            shown = ", ".join(map(str, sorted(claimed)))
            theirs = ", ".join(map(str, sorted(said)))
            return f"ordinal {shown} where {contexts.label} say {theirs}"
    return None


def _never() -> bool:
    """No number of the answer is known to be the reference's (judging claims)."""
    return False


# A number grouped in thousands ("4,350,000"): the words answer_accuracy's recall counts
# are read with its digits ungrouped, so 4350000 recalls it (tokens would split the groups).
_DIGIT_GROUPS = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d]|,\d)")


def _ungroup(m: re.Match[str]) -> str:
    return m.group().replace(",", "")


# A question in an answer (an echo of the user's, a heading) asserts nothing.
_QUESTION = re.compile(r"[^.!?。！？\n]*[?？]")
_MARKER = re.compile(r"\[\^?\d{1,3}(?:\s*[,，\-–]\s*\d{1,3})*\]|【\d{1,3}】")


def _asserted(answer: str) -> str:
    """An answer as answer_accuracy reads it: without its citation markers (``[1]``,
    ``[^2]``, ``【3】``: a marker's digit is no number of the answer) and without its
    questions (``Question: Is flood damage covered?`` matches a reference sentence
    better than the answer to it, and says no polarity)."""
    if "[" in answer or "【" in answer:
        answer = _MARKER.sub("", answer)
    if "?" in answer or "？" in answer:
        answer = _QUESTION.sub(" ", answer)
    if "|" in answer:
        # a table's header, rule and row-number cells are layout: the 1 of "| 1 | 上海…600元"
        # is no figure a reference's number could be the neighbouring fact of
        answer = without_table_layout(answer)
    return answer


@dataclass(frozen=True)
class LexicalJudge:
    """Word overlap ≥ ``threshold``, numbers found, polarity agreeing (module docstring)."""

    threshold: float = 0.6
    name: str = "lexical"

    def support(self, claim: str, context_vocabulary: Iterable[str]) -> float:
        """Share of ``claim``'s content tokens found in a vocabulary (exact tokens)."""
        tokens = content_tokens(claim)
        if not tokens:
            return 1.0
        vocab = (
            context_vocabulary if isinstance(context_vocabulary, set) else set(context_vocabulary)
        )
        return sum(1 for t in tokens if t in vocab) / len(tokens)

    def judge_claims(self, claims: Sequence[str], contexts: Sequence[str]) -> list[ClaimVerdict]:
        # A verdict depends on the judge, the claim and the contexts only: kept per
        # distinct (claim, contexts), so a claim judged again on the same contexts (a
        # repeated case, the same answer over the same retrieval) costs a look-up.
        global _verdicts_limit, _verdict_hits
        together = tuple(contexts)
        known = _VERDICTS.get(self)
        if known is None or len(known) > _verdicts_limit:
            if known is not None:
                # Sized by use, as claims' piece cache: verdicts that are never asked
                # again (no case repeats) keep a small cache until one in 20 is.
                full = _verdict_hits * 20 >= len(known)
                _verdicts_limit = _VERDICTS_MAX if full else _VERDICTS_SMALL
                _verdict_hits = 0
            known = _VERDICTS[self] = {}  # bounded: distinct cases are not all kept
        elif _verdicts_limit != _VERDICTS_MAX and _verdict_hits * 20 >= max(len(known), 1):
            _verdicts_limit = _VERDICTS_MAX  # verdicts are asked again: the full size
        prepared: _Contexts | None = None
        verdicts: list[ClaimVerdict] = []
        for claim in claims:
            key = (claim, together)
            verdict = known.get(key)
            if verdict is None:
                if prepared is None:
                    prepared = _Contexts([narrow(c) for c in contexts])
                verdict = known[key] = self._judge(narrow(claim), prepared, self.threshold)
            else:
                _verdict_hits += 1
            verdicts.append(verdict)
        return verdicts

    def _judge(
        self,
        claim: str,
        contexts: _Contexts,
        threshold: float,
        *,
        omission_ok: Callable[[], bool] = _never,
    ) -> ClaimVerdict:
        if contexts.verbatim(claim):
            # A context sentence word for word: its words, numbers and polarity are the
            # context's own (the evidence is the claim itself, so matched is left out).
            return _new(ClaimVerdict, (claim, True, 1.0, None, None, False))
        contexts.analyse()
        shown = claim
        claim = _never_idiom(claim)  # "under no circumstances may …": "never may …"
        if contexts.mixed(claim):  # 香港 where the contexts say HK (gates/bilingual.py)
            claim = align(claim, contexts.texts)
        if not claim.isascii():
            claim = _cjk_synonyms(claim, contexts)
        if _MAY_CONVERT.search(claim) is not None:
            claim = _converted(claim, contexts)  # "two weeks" where they say "14 days"
        if _MAY_MULTIPLY.search(claim) is not None:
            claim = _multiples_as_said(claim, contexts)  # 3倍 where they say 300%
        raw = tokenize(claim)
        if claim.isascii() and _may_prefix(raw, contexts.vocab):
            written = _prefixed_as_said(claim, contexts)
            if written != claim:
                claim, raw = written, tokenize(written)
        tokens = [t for t in raw if t not in STOPWORDS]
        if not tokens:
            return ClaimVerdict(shown, True, 1.0)
        match: dict[str, str] = {}
        unfound: list[str] = []
        for t in tokens:
            found = t if t in contexts.vocab else contexts.literal(t)
            if found is not None:
                match[t] = found
            elif t in _DIRECTIONS_OF and contexts.says_direction(_DIRECTIONS_OF[t]):
                match[t] = t  # "rose" where they say "up 8%", "increase" for "grew"
            elif t == "free" and contexts.free:
                match[t] = t  # "free" where they say "at no charge"
            elif t in _DEONTIC and contexts.rules:
                # "banned" where they say "not permitted", "allowed" for "may": what is
                # allowed or not is the polarity rule's to compare
                match[t] = t
            else:
                unfound.append(t)
        scored_text = claim if claim.isascii() else _cjk_as_said(claim, contexts)
        hits, total = _overlap(scored_text, tokens, match, contexts)
        if (
            unfound
            and hits >= _PARAPHRASE_FLOOR * total
            and (hits < _NEW_VERB_SHARE * total or _JOINED_CLAUSE.search(claim) is not None)
        ):
            # Derivations and the wider synonym table, asked only where the words as
            # written leave the claim short of a clear pass but share enough of them to
            # be a rewording at all (their index costs a pass over each passage's words)
            for t in unfound:
                found = contexts.paraphrased(t)
                if found is not None:
                    match[t] = found
            hits, total = _overlap(scored_text, tokens, match, contexts)
        if hits < total and ("|" in claim or ":" in claim or "：" in claim):
            hits, total = _label_overlap(claim, match, contexts, threshold, (hits, total))
        if hits < total and claim.isascii() and _NAME.search(claim) is not None:
            # A name the contexts do not write (Europe where they say Asian markets):
            # paraphrase does not carry such a claim, only the words as written do.
            names = {m.group().lower() for m in _NAME.finditer(claim)}
            if any(n not in match for n in names):
                for t in list(match):
                    if t not in contexts.vocab and contexts.literal(t) is None:
                        del match[t]
                hits, total = _overlap(claim, tokens, match, contexts)
        score = hits / total if total else 1.0
        topic = frozenset(match.get(t, t) for t in tokens)
        matched = contexts.best_sentence(topic)
        reason = None
        if score < threshold:
            reason = f"{hits} of {total} words in {contexts.label} (need {threshold:.0%})"
        elif _JOINED_CLAUSE.search(claim) is not None:
            # Two clauses joined ("…, and alcohol is always reimbursed", "…，原因是代理人流失
            # 严重"): each is a claim of its own, so an added clause cannot ride on the
            # words of the supported one.
            for part in _JOINED_CLAUSE.split(claim):
                part_tokens = [t for t in tokenize(part) if t not in STOPWORDS]
                weight = _weight(t for t in part_tokens if not t.isdigit())
                if weight < 2:
                    continue  # numbers are judged by rule 2, not as a clause's words
                part_hits, part_total = _overlap(part, part_tokens, match, contexts)
                if part_total and (
                    part_hits / part_total < min(threshold, _CLAUSE_SHARE)
                    if weight >= _CLAUSE_WEIGHT
                    else part_hits == 0  # ", but it is shared with advertisers"
                ):
                    score = part_hits / part_total
                    reason = (
                        f"{part.strip()!r}: {part_hits} of {part_total} words in "
                        f"{contexts.label} (a joined clause needs half)"
                    )
                    break
        if (
            reason is None
            and score < _NEW_VERB_SHARE
            and claim.isascii()
            and not any(ch.isdigit() for ch in claim)
        ):
            verb = _new_verb(tokens, match, contexts.vocab)
            if verb is not None and not _claim_numbers(claim, raw):
                reason = (
                    f"{verb!r} is in none of {contexts.label}, and {hits} of {total} words "
                    f"are (a new predicate needs {_NEW_VERB_SHARE:.0%})"
                )
        if reason is None and score >= threshold:
            numbers = _claim_numbers(claim, raw)
            if numbers:
                known = contexts.numbers
                missing = [
                    text
                    for text, forms in numbers
                    if known.isdisjoint(forms)
                    and not _hedged_rounding(claim, text, forms, known)
                    and not _once_per_interval(text, claim, contexts)
                    and not _stage_label(text, claim, contexts.texts)
                ]
                if missing and not (omission_ok() and _only_omitted(numbers, matched)):
                    reason = f"numbers not in {contexts.label}: " + ", ".join(missing)
                if reason is None and claim.isascii():
                    reason = _unnamed_subject(claim, contexts)
                if reason is None:
                    reason = _date_problem(claim, contexts)
                if reason is None:
                    reason = _unit_problem(claim, contexts)
                if reason is None:
                    reason = measure_problem(claim, contexts.texts, contexts.label)
            if reason is None and len(match) < len(tokens):
                opposite = _prefix_antonym([t for t in tokens if t not in match], contexts)
                if opposite is not None:
                    reason = f"says {opposite[0]!r} where {contexts.label} say {opposite[1]!r}"
            if reason is None and ("non" in raw or "non" in contexts.vocab):
                opposite = _non_antonym(claim, raw, contexts)
                if opposite is not None:
                    reason = f"says {opposite[0]!r} where {contexts.label} say {opposite[1]!r}"
            if reason is None and (
                contexts.cued or not _CLAIM_CUES.isdisjoint(raw) or may_compare(claim)
            ):
                problem = _polarity_problem(claim, contexts, match)
                if problem is not None:
                    reason, matched = problem
            if reason is None and may_say_at_once(claim):
                # "vest immediately" where the sentence it copies says "after 2 years"
                reason = timing_problem(
                    claim,
                    lambda text: contexts.best_sentence(
                        frozenset(match.get(t, t) for t in tokenize(text) if t not in STOPWORDS)
                    ),
                    contexts.label,
                )
            if reason is None and may_drop_a_condition(claim):
                # "… without recording them" where the contexts allow it only if recorded
                reason = condition_problem(
                    claim, [t for p in contexts.passages for t in p.sentences], contexts.label
                )
            if (
                reason is None
                and matched is not None
                and not _FREQUENCY_CUES.isdisjoint(raw)
                and _FREQUENCY.search(claim) is not None
            ):
                reason = _frequency_problem(claim, matched, topic, contexts.label)
            if reason is None and score < 1.0 and not claim.isascii():
                reason = _cjk_term_problem(claim, contexts)
            if reason is None and ("第" in claim or not _ORDINAL_SET.isdisjoint(raw)):
                reason = _ordinal_problem(claim, contexts, match)
            bound = False
            if reason is None and numbers:
                reason, bound = _segment_problem(claim, raw, match, contexts)
                if reason is None and len(numbers) > 1:
                    reason = _segments_problem(claim, match, contexts)
            if reason is None and (numbers or _may_name(claim, raw)):
                reason = binding_problem(
                    claim,
                    _clause_numbers,
                    [(p.text, p.sentences) for p in contexts.passages],
                    contexts.match,
                    contexts.label,
                )
            if reason is None and matched is not None and numbers and may_tell_time(claim):
                # "before 2 pm" where the sentence it copies says "before 12 noon"
                reason = clock_problem(
                    claim,
                    matched,
                    [match.get(t, t) for t in tokens],
                    frozenset(tokenize(matched)),
                    contexts.label,
                )
            if reason is None and matched is not None and _may_unbound(claim):
                reason = _unbound_problem(claim, matched, contexts.label)
            if reason is None and numbers and may_anchor(claim):
                # a figure given to another period or person in another sentence
                reason = anchor_problem(claim, contexts.texts, _clause_numbers, contexts.label)
            if reason is None and may_name_a_member(claim):
                # a role, party or term of a closed kind put for another (CFO for CEO)
                reason = kind_problem(claim, contexts.texts_key, contexts.label)
                if reason is None:
                    # two of them the other way round (the insurer notifies the insured)
                    reason = kind_order_problem(claim, contexts.texts_key, contexts.label)
                if reason is None and matched is not None:
                    # the member in a clause of its own ("…, which are payable by the
                    # recipient"), read in the sentence the claim copies (most of its words)
                    there = frozenset(tokenize(matched))
                    if sum(match.get(t, t) in there for t in tokens) * 2 >= len(tokens):
                        reason = matched_kind_problem(claim, matched, contexts.label)
            if reason is None and may_order(claim):
                # "First restart the service, then check the logs": steps reversed
                reason = order_problem(
                    claim, [t for p in contexts.passages for t in p.sentences], contexts.label
                )
            if reason is None and not claim.isascii() and ("可" in claim or "能" in claim):
                # 仍可录取 where the contexts say 不予录取 (a clause too short to be compared
                # on its own words)
                reason = _cjk_permit_denied(claim, contexts.texts, contexts.label)
            if reason is None and numbers and ("only" in raw or "只" in claim or "仅" in claim):
                # "required only where the drop exceeds 1,800 mm" for a rule set at 760 mm
                reason = _only_condition_problem(
                    claim, [t for p in contexts.passages for t in p.sentences], contexts.label
                )
            if reason is None and matched is not None and numbers:
                # "经济舱…2件" where its sentence says 经济舱…1件 (2件 is another cabin's)
                reason = counted_elsewhere(claim, matched, contexts.texts, contexts.label)
            if reason is None and matched is not None and numbers and may_bound(claim):
                # "more than 50 USD" where the sentence it copies says "does not exceed 50"
                reason = bound_problem(claim, matched, contexts.label)
            if reason is None and may_cause(claim, raw):
                # "… because of higher motor claims": the link must be the contexts' own
                reason = cause_problem(
                    claim, [p.sentences for p in contexts.passages], contexts.match, contexts.label
                )
            if reason is None and matched is not None and may_own_cause(claim, raw):
                # "…得益于投资回报上升" where its sentence says "…得益于理赔经验优于预期"
                reason = cause_swap_problem(claim, matched, contexts.match, contexts.label)
            if reason is None and matched is not None and may_except(matched):
                # "疾病和意外伤害均不予赔付" where it says "疾病不予赔付，意外伤害除外"
                reason = exception_problem(claim, matched, contexts.label)
            if reason is None and matched is not None and may_widen(claim):
                # "All employees accrue 25 days" where it says "Full-time employees …"
                reason = widened_problem(
                    claim,
                    matched,
                    [t for p in contexts.passages for t in p.sentences],
                    contexts.label,
                )
            if reason is None and matched is not None and not bound:
                # A near-copy of the matched sentence with one term exchanged
                # (Singapore for Frankfurt, 汇率 for 利率, same for following); not a
                # claim read as its own segment of a two-fact sentence.
                reason = swap_problem(claim, matched, contexts, _same_thing, contexts.label)
            if reason is None and matched is not None:
                # "…, counted from the date the vehicle is first registered"
                reason = start_problem(claim, contexts.texts, contexts.label)
        return ClaimVerdict(shown, reason is None, score, matched, reason)

    def _reference_sentence(
        self,
        sentence: str,
        answer_ctx: _Contexts,
        threshold: float,
        omission_ok: Callable[[], bool],
    ) -> ClaimVerdict:
        """One reference sentence against the answer. A sentence the answer leaves partly
        unsaid (its clause "which expire on 31 March" missing) is an omission, which only
        lowers the recall; but a clause of it the answer does address must still agree in
        numbers and polarity ("accrue 25 days" against "accrue 30 days"), so a long
        sentence's omitted clause cannot hide a contradiction in another."""
        verdict = self._judge(sentence, answer_ctx, threshold, omission_ok=omission_ok)
        if verdict.supported:
            return verdict
        if verdict.score < threshold and verdict.matched is not None:
            rate = _rate_problem(sentence, verdict.matched)
            if rate is not None:  # "85 GBP per month." for "85 GBP per year."
                return ClaimVerdict(sentence, False, threshold, verdict.matched, rate)
        omitted: ClaimVerdict | None = None
        addressed: list[str] = []
        for part in _REFERENCE_CLAUSE.split(sentence):
            if part is None or part == sentence:
                continue
            part_tokens = [t for t in tokenize(part) if t not in STOPWORDS]
            if _weight(t for t in part_tokens if not t.isdigit()) < 2:
                continue  # too short to address on its own
            found = self._judge(part.strip(), answer_ctx, threshold, omission_ok=omission_ok)
            if found.score < threshold:
                omitted = omitted or found
            elif not found.supported:
                reason = f"{part.strip()!r}: {found.reason}"
                return ClaimVerdict(sentence, False, found.score, found.matched, reason)
            else:
                addressed.append(part)
        if (
            verdict.score >= threshold
            and addressed
            and omitted is not None
            and not _touches(omitted.claim, addressed, answer_ctx)
        ):
            # Every clause the answer addresses agrees; what failed the whole sentence is
            # a clause it leaves unsaid ("late claims are rejected"): an omission.
            reason = f"{omitted.claim!r} is not in the answer (omitted)"
            return ClaimVerdict(sentence, False, omitted.score, verdict.matched, reason)
        return verdict

    def contradicts_reference(
        self, sentence: str, reference: str, answer: str, threshold: float
    ) -> ClaimVerdict | None:
        """How the answer contradicts one sentence of the reference it addresses, or None.

        An omission is no contradiction: a clause of the sentence the answer leaves unsaid
        (with its numbers) does not count, only one it states with another number or the
        other polarity (the LLM judge's veto on answer_accuracy)."""
        sentence, reference, answer = narrow(sentence), narrow(reference), _asserted(narrow(answer))
        answer_ctx = _Contexts([answer], "the answer")
        verdict = self._reference_sentence(
            sentence, answer_ctx, threshold, cache(lambda: _numbers_within(answer, reference))
        )
        return None if verdict.supported or verdict.score < threshold else verdict

    def judge_reference(self, reference: str, answer: str, threshold: float) -> ReferenceVerdict:
        reference, answer = narrow(reference), _asserted(narrow(answer))
        answer_ctx = _Contexts([answer], "the answer")
        sentences = [
            s for s in (_unlisted(s) for s in _split_sentences(reference)) if has_content(s)
        ]
        # Each reference sentence is judged against the answer. One the answer does not
        # address (recalls less than the threshold of) only lowers the overall recall; one
        # it addresses must agree with it in numbers and polarity.
        # Asked only when a sentence lacks a number: reading every number of the answer
        # and the reference is most of answer_accuracy's cost otherwise.
        once: list[bool] = []  # (a closure, not functools.cache: ~1.5 µs less a case)

        def omission_ok() -> bool:
            if not once:
                once.append(_numbers_within(answer, reference))
            return once[0]

        verdicts = [
            self._reference_sentence(s, answer_ctx, threshold, omission_ok) for s in sentences
        ]
        contradicted = any(not v.supported and v.score >= threshold for v in verdicts)
        if not contradicted:
            contradicted = self._contradicted_below(sentences, answer_ctx, verdicts, omission_ok)
        if not contradicted and (may_cause_text(answer) or has_cause_label(answer)):
            contradicted = self._another_cause(sentences, answer, verdicts, threshold)
        if all(answer_ctx.verbatim(s) for s in sentences):
            recall = 1.0  # every reference sentence is in the answer word for word
        else:
            recalled = answer_ctx
            if "," in reference or "," in answer:
                # 4,350,000 = 4350000: the words are counted with digits ungrouped
                ungrouped = _DIGIT_GROUPS.sub(_ungroup, answer)
                if ungrouped != answer or _DIGIT_GROUPS.search(reference) is not None:
                    reference = _DIGIT_GROUPS.sub(_ungroup, reference)
                    if ungrouped != answer:
                        recalled = _Contexts([ungrouped], "the answer")
            recalled.analyse()
            wanted = list(dict.fromkeys(content_tokens(reference)))
            # a direction word is recalled where the answer says that direction ("growth"
            # for "increase"), as a claim's is found (the polarity rule compares them)
            found = sum(
                1
                for t in wanted
                if recalled.match(t) is not None
                or (t in _DIRECTIONS_OF and recalled.says_direction(_DIRECTIONS_OF[t]))
            )
            recall = found / len(wanted) if wanted else 1.0
        passed = recall >= threshold and not contradicted
        if not passed and not contradicted and _TERSE_CUE.search(answer) is not None:
            passed = self._terse_agrees(sentences, answer, threshold)
        return ReferenceVerdict(passed, recall, verdicts)

    def _contradicted_below(
        self,
        sentences: list[str],
        answer_ctx: _Contexts,
        verdicts: list[ClaimVerdict],
        omission_ok: Callable[[], bool],
    ) -> bool:
        """Whether the answer contradicts a reference sentence it addresses with fewer
        words than the threshold: a terse wrong answer (`公司不为员工缴纳企业年金` against
        `公司按基本工资的6%缴纳企业年金`, `it is rated IP67` against `it is rated IP52`)
        shares too few words to be "addressed", and its contradiction only lowered the
        recall, which the other sentences could carry over the threshold. A number said
        otherwise or the other polarity is decisive; missing words stay an omission."""
        for i, verdict in enumerate(verdicts):
            if verdict.supported or verdict.score < _CONTRADICTION_FLOOR:
                continue
            low = self._judge(
                sentences[i], answer_ctx, _CONTRADICTION_FLOOR, omission_ok=omission_ok
            )
            if low.reason is None or not low.reason.startswith(_CONTRADICTIONS):
                continue
            if low.reason.startswith("numbers not in") and omission_ok():
                continue  # the answer's numbers are all the reference's: left unsaid
            if low.matched is None:
                continue
            # and the other way round: the answer's sentence, judged against this one, is
            # contradicted too (not a clause the answer leaves unsaid matched to another:
            # "late claims … are rejected" against "Claims must be filed within 30 days")
            back = self._judge(
                low.matched, _Contexts([sentences[i]], "the reference"), _CONTRADICTION_FLOOR
            )
            if back.reason is None or not back.reason.startswith(_CONTRADICTIONS):
                continue
            reason = f"{low.reason} (a contradiction, whatever the recall)"
            verdicts[i] = ClaimVerdict(sentences[i], False, verdict.score, low.matched, reason)
            return True
        return False

    def _another_cause(
        self, sentences: list[str], answer: str, verdicts: list[ClaimVerdict], threshold: float
    ) -> bool:
        """Whether an answer sentence gives another cause than the reference gives for the
        same effect: recall cannot see it (the effect's words carry it over the threshold
        while the reference's cause, left unsaid, only lowers it). The reference sentence's
        verdict then says so."""
        reference = _Contexts(sentences, "the reference").analyse()
        said_before = ""
        for said in _split_sentences(answer):
            if may_cite(said):  # "… performance.（来源：X.pdf · page=3）": no cause's words
                said = without_citations(said)
            before, said_before = said_before, said
            claim = labelled_cause(before, said)
            if claim is None:
                if not may_cause(said, tokenize(said)):
                    continue
                claim = said
            found = another_cause(claim, sentences, reference.match)
            if found is not None:
                own, cause = found
                i = sentences.index(own)
                reason = f"the answer gives another cause ({cause!r}) than the reference"
                verdicts[i] = ClaimVerdict(
                    own, False, max(verdicts[i].score, threshold), said, reason
                )
                return True
        return False

    def _terse_agrees(self, sentences: list[str], answer: str, threshold: float) -> bool:
        """Whether a terse answer ("Yes, 25 days.", "可以，25天。") states the reference's
        key fact: word recall cannot reach the threshold on a long reference, so the
        answer is judged as a claim against it instead (its words, numbers, negation,
        places and names, every rule), its numbers must be those of the reference's
        first sentence that gives numbers (the fact the reference answers with), and a
        yes/no particle must agree with that sentence's polarity."""
        m = _ANSWER_PARTICLE.match(answer)
        rest = answer[m.end() :] if m is not None else answer
        raw = tokenize(rest)
        words = [t for t in raw if t not in STOPWORDS and not t.isdigit()]
        numbers = _claim_numbers(rest, raw)
        if not numbers or _weight(words) > _TERSE_WEIGHT:
            return False
        stating = next((s for s in sentences if _claim_numbers(s, tokenize(s))), None)
        if stating is None or not _numbers_among(
            numbers, _claim_numbers(stating, tokenize(stating))
        ):
            return False
        if m is not None:
            said_no = m.group(1) is not None
            clauses = _clauses_of(stating, 0)
            if said_no != any(c.negated for c in clauses if not c.part):
                return False
        return self._judge(
            rest.strip(), _Contexts([" ".join(sentences)], "the reference"), threshold
        ).supported

    # The protocol before round 2, kept for library callers.
    def entailed(self, claim: str, contexts: Sequence[str]) -> bool:
        return not self.unsupported([claim], contexts)

    def unsupported(self, claims: Sequence[str], contexts: Sequence[str]) -> list[str]:
        return [v.claim for v in self.judge_claims(claims, contexts) if not v.supported]


# A reference sentence the answer addresses with this share of its words or more is
# compared for contradictions (a number said otherwise, the other polarity) even below
# the recall threshold; the reasons of _judge that are such contradictions.
_CONTRADICTION_FLOOR = 0.4
_CONTRADICTIONS = (
    "numbers not in",
    "negated, but",
    "the context negates it",
    "says the opposite direction",
    "says it changed where",
    "says it held steady where",
)

# A terse answer: a number (a digit, or a Chinese numeral before a counter) and at most
# this many content words beside it (a Chinese character counts half).
_TERSE_CUE = re.compile(r"[\d０-９]|[一二两三四五六七八九十百千万]")
_TERSE_WEIGHT = 6.0
# A yes/no particle opening an answer; group 1 when it says no.
_ANSWER_PARTICLE = re.compile(
    r"\s*(?:(no|nope|not\s+really|不是|不可以|不能|不行|不会|不需要|不用|没有|否|不)|"
    r"yes|yep|correct|right|是的|是|可以|能|对|会|需要|有)\s*[,，.。!！:：;；]\s*",
    re.IGNORECASE,
)


def _touches(clause: str, addressed: list[str], answer: _Contexts) -> bool:
    """Whether the answer says any word of ``clause`` that its sentence's addressed
    clauses do not: then the clause is not left out but said otherwise (且可以折现 for
    且不能折现 shares 折现), and the sentence's own verdict stands."""
    said = frozenset().union(*(_terms_of(p) for p in addressed))
    said_as = {_found_as(t, answer) for t in said}
    for term in _terms_of(clause) - said:
        found = _found_as(term, answer)
        if found is not None and found not in said_as:
            return True
    return False


def _found_as(term: str, answer: _Contexts) -> str | None:
    return term if term in answer.vocab else answer.match(term)


def _terms_of(text: str) -> frozenset[str]:
    words = frozenset(t for t in tokenize(text) if t not in STOPWORDS and t not in _CUE_TOKENS)
    return words if text.isascii() else words | frozenset(_cjk_pairs(text))


def _rate_problem(sentence: str, answer_sentence: str) -> str | None:
    """A terse answer sentence with all of a reference sentence's numbers addresses it,
    however few other words they share; it contradicts it when it puts them per another
    period ("85 GBP per month." for "85 GBP per year.", 每月 for 每年)."""
    if _FREQUENCY.search(sentence) is None:
        return None
    numbers = _claim_numbers(sentence, tokenize(sentence))
    if not numbers or not _numbers_among(numbers, _claim_numbers(answer_sentence, ())):
        return None
    said, claimed = _frequencies(sentence), _frequencies(answer_sentence)
    if not claimed or not _rates_disagree(said, claimed):
        return None
    return (
        f"says {'/'.join(sorted(said))} where the answer says {'/'.join(sorted(claimed))} "
        "(the same numbers)"
    )


def _numbers_within(answer: str, reference: str) -> bool:
    """Whether every number the answer states is one of the reference's: only then can a
    reference number the answer lacks be an omission rather than a number said otherwise."""
    numbers = _claim_numbers(answer, tokenize(answer))
    return not numbers or _numbers_among(numbers, _claim_numbers(reference, tokenize(reference)))


def _numbers_among(
    numbers: list[tuple[str, frozenset[Decimal]]], known: list[tuple[str, frozenset[Decimal]]]
) -> bool:
    """Whether each of ``numbers`` is a distinct one of ``known``: counted, not looked up,
    so 成人每次1克，每6到8小时一次 does not find its 1 in the 一次 of …0.5克…一次."""
    free = [forms for _, forms in known]
    for _, forms in numbers:
        found = next((i for i, f in enumerate(free) if not f.isdisjoint(forms)), None)
        if found is None:
            return False
        del free[found]
    return True


def _only_omitted(numbers: list[tuple[str, frozenset[Decimal]]], matched: str | None) -> bool:
    """A reference sentence's numbers the answer leaves out are an omission, not a
    contradiction, when the answer's matching sentence states no number the sentence
    lacks ("accrue 25 days" for "accrue 25 days, up from 20 in 2023"); "accrue 30 days"
    states another number and contradicts it."""
    if matched is None:
        return True
    return _numbers_among(_claim_numbers(matched, tokenize(matched)), numbers)


# Verdicts per judge by (claim, contexts): see LexicalJudge.judge_claims.
_VERDICTS: dict[LexicalJudge, dict[tuple[str, tuple[str, ...]], ClaimVerdict]] = {}
_VERDICTS_MAX = 20_000
_VERDICTS_SMALL = 1_000
_verdicts_limit = _VERDICTS_MAX
_verdict_hits = 0  # hits since the cache was last emptied (approximate under threads)


def make_judge(kind: str = "lexical", *, threshold: float = 0.6, llm: Any = None) -> Judge:
    """The judge named ``kind`` (config ``judge: {kind: …}``, CLI ``--judge``); ``llm`` is
    the ``llm_judge.LlmJudgeSettings`` of ``kind="llm"``."""
    if kind == "lexical":
        return LexicalJudge(threshold)
    if kind == "llm":
        from .llm_judge import LlmJudge, LlmJudgeSettings

        if not isinstance(llm, LlmJudgeSettings):
            raise ValueError("the llm judge needs its settings (base_url, model)")
        return LlmJudge(llm)
    raise ValueError(f"unknown judge {kind!r}; one of: {', '.join(JUDGE_KINDS)}")


def judge_identity(judge: Judge) -> dict[str, str]:
    """Which judge produced groundedness values: kind (and model, prompt version)."""
    identity = getattr(judge, "identity", None)
    if isinstance(identity, dict):
        return {str(k): str(v) for k, v in identity.items()}
    return {"kind": judge.name}

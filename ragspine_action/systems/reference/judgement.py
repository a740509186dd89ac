"""Evaluative questions: the question asks for a judgement, not for a reported fact.

"Is ACME's dividend policy good for investors?", "ACME的股息政策合理吗？", "Should investors
hold ACME?" ask the system to judge (good, fair, reasonable, friendly, attractive, worth,
合理, 友好, 值得, 划算 ...). The KB holds reported facts; a passage that *describes* the
dividend policy does not say whether it is good, so answering with it passes an opinion off
as a disclosure. Such questions are refused as opinion or advice.

The rule reads the question's *form*, not just its words, so that factual questions that
contain such a word still reach retrieval: an English evaluative word counts only in a
yes/no question ("Is ... good", "Does ... look reasonable"), after "how" ("how fair is"),
in "good for" / "bad for" / "worth" / "worthwhile", or with "should" addressed to someone
("should investors ...", a question opening with "should"); "What does the board consider
when reviewing the dividend policy?" and "what is good business?" are not judgements asked
of the system. A Chinese evaluative word counts when it is asked about (合理吗, 是否合理,
合不合理, 好不好, 值得, 划算).
"""

from __future__ import annotations

import re

__all__ = ["asks_judgement"]

# Adjectives that grade rather than describe.
_EN_EVALUATIVE = (
    "good|bad|great|poor|fair|unfair|reasonable|unreasonable|sensible|wise|unwise|smart|"
    "friendly|unfriendly|attractive|unattractive|appealing|generous|stingy|worthwhile|"
    "appropriate|inappropriate|justified|unjustified|acceptable|unacceptable|excessive|"
    "impressive|disappointing|prudent|imprudent|favourable|favorable|unfavourable|"
    "unfavorable|cheap|expensive|too\\s+high|too\\s+low"
)
_YES_NO_START = re.compile(
    r"^\s*(?:is|are|was|were|isn'?t|aren'?t|wasn'?t|weren'?t|does|do|did|doesn'?t|don'?t|"
    r"would|will|could|can|has|have)\b",
    re.IGNORECASE,
)
_EN_EVALUATIVE_WORD = re.compile(rf"(?<![A-Za-z])(?:{_EN_EVALUATIVE})(?![A-Za-z])", re.IGNORECASE)
_EN_ALWAYS = re.compile(
    r"(?<![A-Za-z])(?:"
    rf"how\s+(?:{_EN_EVALUATIVE})\b|"  # how fair is / how good was
    r"(?:good|bad|better|worse|great|fair|unfair|friendly)\s+(?:for|to)\s+(?:investors?|"
    r"shareholders?|policyholders?|customers?|clients?|holders?|me|us|you|people)|"
    r"[a-z]+-friendly|"  # shareholder-friendly, investor-friendly
    r"worth(?:while)?(?!\s+(?:noting|mentioning))|value\s+for\s+money|"
    r"^\s*should|ought\s+to|"
    r"should\s+(?:i|we|you|one|investors?|shareholders?|policyholders?|customers?|people|acme|"
    r"the\s+(?:company|group|board|management))\b"
    r")",
    re.IGNORECASE,
)
_ZH_EVALUATIVE = (
    "合理|友好|公平|公道|划算|值得|明智|靠谱|可取|恰当|妥当|合适|慷慨|优秀|出色|理想|吸引人|"
    "有吸引力|高明|厚道|过高|过低|太高|太低|好"
)
_ZH_ASKED = re.compile(
    rf"(?:{_ZH_EVALUATIVE})(?:吗|么|嘛|不|与否|否)|"  # 合理吗, 好不好, 合理与否
    rf"(?:是否|是不是|算不算|算是)(?:很|非常|比较|足够|真的|真正)?(?:{_ZH_EVALUATIVE})|"
    r"合不合理|值不值|划不划算|好不好|公不公平|友不友好|有没有吸引力|"
    r"值得(?!注意|关注|一提|留意)|划算"
)


def asks_judgement(question: str) -> bool:
    """Whether the question asks the system to judge or advise (see the module docstring)."""
    if _EN_ALWAYS.search(question) or _ZH_ASKED.search(question):
        return True
    return bool(_YES_NO_START.match(question) and _EN_EVALUATIVE_WORD.search(question))

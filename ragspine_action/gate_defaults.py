"""The gates' built-in settings, apart from the gates.

The parser and ``RunConfig`` need them on every start (``--help``, ``render`` and
``merge`` too); the gates' modules, their patterns and the pydantic models they use
only when cases are scored. The gates import these very objects (so identity checks
against the defaults hold).
"""

from __future__ import annotations

__all__ = ["DEFAULT_META_PATTERNS", "DEFAULT_PERIOD_PATTERNS", "GATE_NAMES", "JUDGE_KINDS"]

JUDGE_KINDS: tuple[str, ...] = ("lexical", "llm")

# The gates in report order: ``gates.GATE_NAMES`` (the gates' own names), written out for
# what reads a report without scoring one (``render``, ``merge``); a test keeps them equal.
GATE_NAMES: tuple[str, ...] = (
    "numeric_accuracy",
    "citation_validity",
    "refusal_appropriateness",
    "clarification_appropriateness",
    "faithfulness",
    "answer_accuracy",
)

# One character of a disclaimer's tail, which stops where a joined clause begins: "This
# answer is based on the leaflet, which also says children may take 800 mg." keeps its claim.
_NO_JOINED_CLAUSE = (
    r"(?:(?![,;]\s*(?:which|and|but|while|whereas|although|though|so|because|as|where)\b)"
    r"[^.!\n])"
)

# Meta and template text (regular expressions, case-insensitive), removed where a line or
# sentence starts with it; a line that is nothing else is no claim. Configurable
# (``judge.meta_patterns``); these defaults cover the usual English and Chinese forms.
DEFAULT_META_PATTERNS: tuple[str, ...] = (
    # English lead-ins
    r"(?:based on|according to|from|per) (?:the |my )?(?:retrieved|provided|available|given|"
    r"above|search(?:ed)?|relevant)?\s?(?:documents?|context|contexts|sources?|information|"
    r"passages?|results?|materials?|knowledge base|data)(?: (?:provided|available|retrieved|"
    r"i found|above))?\s*[,:：]?",
    r"here(?: is|'s|’s| are) (?:what i found|the answer|a summary|the relevant information|"
    r"the details|what the documents say)[^.:!\n]*[.:!]?",
    r"here(?: is|'s|’s| are)\b[^.:!?\n]{0,80}[:：]",
    r"the (?:short |final )?answer is\s*[:：]",
    r"(?:the )?(?:retrieved |provided )?(?:documents?|context|sources?|passages?) "
    r"(?:states?|says?|shows?|indicates?|mentions?)(?: that)?\s*[:：,]?",
    r"(?:please note|note|nb|n\.b\.)\s*[:：]",
    r"(?:answer|summary|response|final answer|short answer|in summary|to summarize|"
    r"in short|overall|key points|tl;?dr)\s*[:：,]",
    r"(?:in summary|to summarize|in short|in conclusion)\b,?",
    r"(?:sure|certainly|of course|great question|good question|absolutely)\b[!.,]?",
    r"(?:i hope (?:this|that) helps|hope this helps)[^.\n]*[.!]?",
    r"(?:let me know|feel free to ask|please let me know|don't hesitate)[^.\n]*[.!]?",
    # "Here's a quick overview of the leave rules.": names what follows, asserts nothing
    r"here(?: is|'s|’s| are) (?:a |an |the |some )?(?:quick |brief |short |concise |"
    r"high-level |general )?(?:overview|summary|rundown|recap|breakdown|outline|explanation|"
    r"look)(?: (?:of|on|at|about|for) [^.:!?,;\n\d]{0,60})?\s*[.:!：]?",
    r"(?:feel free|do not hesitate|don't hesitate|don’t hesitate) to (?:reach out|contact|"
    r"get in touch|ask|write)[^.!\n]*[.!]?",
    r"if you (?:need|want|would like|require|have) (?:(?:more|further|any|additional|other) ){1,2}"
    r"(?:details?|information|help|assistance|questions?|clarification)\b[^.!?\n]*[.!]?",
    r"(?:is there anything else)[^.\n]*[.?!]?",
    # Chinese lead-ins and template lines
    r"(?:基于|根据|依据|按照|结合)(?:检索到的|检索|您?提供的|你提供的|现有的|以上|上述|相关|已有的)?"
    r"(?:资料|文档|文件|内容|信息|上下文|材料|知识库|搜索结果|检索结果|结果)(?:显示|所示|来看)?"
    r"\s*[，,：:]?",
    r"(?:参考资料|资料|文档|检索结果|文件)(?:显示|表明|指出|提到)\s*[，,：:]?",
    # "从提供的资料来看，", "就现有资料而言，", "从检索结果中可以看到："
    r"(?:从|就|据|由)(?:您?提供的|所提供的|现有的?|检索到的|已有的|上述|以上|相关)?"
    r"(?:资料|文档|文件|内容|信息|材料|上下文|检索结果|搜索结果)(?:中)?"
    r"(?:来看|看来|而言|来说|可知|可以看到|可以看出|可见)\s*[，,：:]?",
    r"经(?:查询|检索|查阅|查证)\s*[，,：:]?",
    r"(?:以下是|下面是)[^：:\n。]*[：:]",
    r"(?:回答|答案|答|总结|摘要|结论|要点)\s*[：:]",
    r"(?:综上所述|总之|总的来说|简而言之)\s*[，,：:]?",
    r"(?:希望(?:以上|这些)?(?:内容|信息|回答)?对您有(?:所)?帮助)[^。\n]*[。！!]?",
    r"(?:如需|如果您?需要|如有|若需|若有)(?:了解|咨询|查询|知道)?(?:进一步|更多|其他|任何)"
    r"[^。\n]*[。！!]?",
    r"(?:下面|以下)(?:为您|为你|给您|给你)?(?:整理|总结|列出|汇总|归纳)(?:了|出)?[^：:\n。\d]{0,20}[：:]",
    r"(?:好的|当然)\s*[，,！!。]",
    # Greetings and thanks
    r"(?:thanks|thank you)(?: for (?:asking|your question|reaching out|the question))?\s*[.!,]",
    r"(?:hi|hello|hey|dear (?:user|customer|colleague))(?: there)?\s*[.!,]",
    r"(?:您好|你好|感谢(?:您的)?(?:提问|咨询|来信)|谢谢(?:您的)?(?:提问|咨询)?)\s*[！!。，,]",
    # Where the answer came from, said about the answer
    r"(?:the |this )?(?:above |following )?(?:information|answer|summary|response)(?: above)? "
    r"(?:comes|came|is taken|was taken|is drawn|was drawn|is sourced|was sourced|is quoted) "
    rf"from\b{_NO_JOINED_CLAUSE}*[.!]?",
    r"(?:以上|上述|本)(?:信息|内容|回答|答案)(?:来自|摘自|引自|出自|基于|根据|参考)[^。！\n]*[。！]?",
    # Answer particles as a sentence or a lead-in: "Yes.", "Correct,", "No.", "是的。"
    r"(?:yes|yep|no|nope|correct|right|indeed|true|false|exactly|that(?:'s| is) (?:right|"
    r"correct))\s*(?:[!,]|\.(?!\s*\d))",
    r"(?:是的|是|对的|对|没错|正确|不是的|不是|不对|否)\s*[。！!，,]",
    # a yes/no question answered by its modal alone: "不能。", "可以，…", "不需要。"
    r"(?:可以|不可以|能|不能|会|不会|不行|需要|不需要|不用|必须|有|没有)\s*[。！!，,]",
    # The question echoed as a preamble: "You asked about paid leave.", "您询问的是…。"
    r"(?:you (?:asked|are asking|were asking|want(?:ed)? to know)|your question (?:is|was))"
    r"(?: about| whether| if| how| what| when| why| which| who| for)?\b[^.!?\n]*[.!?]?",
    r"regarding your question(?: about [^,:\n]*)?\s*[,:]",
    r"(?:您|你)(?:询问|问|想了解|想知道|的问题)(?:的是|了|的)?(?:关于)?[^。？！\n]*[。？！]?",
    r"关于(?:您|你)的问题[^，,：:\n]*[，,：:]",
    # Disclaimers about the answer itself (not about the subject)
    r"(?:disclaimer\s*[:：]\s*)?(?:this|the) (?:answer|response|summary|information|content|"
    r"output)s? (?:was|were|is|are|has been|have been|may be|might be|could be)? ?"
    r"(?:generated|produced|written|created|compiled|automatically generated|ai-generated|"
    r"based (?:only |solely |entirely |exclusively )?on|for (?:general )?(?:information(?:al)?|reference) (?:purposes )?only|"
    r"not (?:financial|legal|investment|professional) advice|incomplete|inaccurate)"
    rf"{_NO_JOINED_CLAUSE}*[.!]?",
    r"(?:please )?(?:verify|consult|check|refer to) (?:the )?(?:original|source|official|full|"
    r"underlying) (?:documents?|sources?|materials?|texts?)[^.!\n]*[.!]?",
    r"(?:(?:免责)?声明\s*[:：]\s*)?(?:本|以上|该|此)(?:回答|答案|内容|信息|回复)"
    r"(?:由[^。！\n]*生成|(?:基于|根据)[^。！\n]*生成|仅供参考|可能(?:不完整|不准确|有误|存在错误)"
    r"|不构成[^。！\n]*建议)[^。！\n]*[。！]?",
    r"仅供参考\s*[。！]?",
    # Advice to the reader, with nothing about the subject: "Please consult HR for your
    # individual entitlement.", "具体情况请咨询人力资源部。" (a reason or a number is judged)
    r"(?:for (?:more|further|full|specific|exact) (?:details|information)[,，]?\s*)?please "
    r"(?:consult|contact|refer to|check with|speak (?:to|with)|talk to|reach out to|"
    r"confirm with|verify with|double-check with|ask)\b(?:(?!\b(?:because|since|as|which|who|that|but|and|although|while|"
    r"whereas)\b)[^.!?\n\d:;,])*[.!]?",
    r"(?:注\s*[:：]\s*)?(?:详情|具体(?:情况)?|如有(?:疑问|问题)\s*[，,]?)?请(?:以(?:原文|官方|正式|最新)"
    r"[^。！\n\d]{0,12}为准|(?:咨询|联系|参阅|查阅|向)[^。！\n\d，,因由]{0,20})\s*[。！!]?",
    # What is left of "According to handbook.pdf, …" once the doc name went
    r"(?:according to|as stated in|as per|per|as noted in|as described in|see|根据|据|参见|详见)"
    r"\s*[,，:：]",
)

_MONTH = r"(?:1[0-2]|0?[1-9])"
_DAY = r"(?:3[01]|[12]\d|0?[1-9])"
_MONTH_NAME = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
DEFAULT_PERIOD_PATTERNS: tuple[str, ...] = (
    r"FY\s?(?:19|20)\d{2}(?:\s?[HQ][1-4])?",
    r"FY\s?\d{2}(?:\s?[HQ][1-4])?",  # FY24, FY25H1
    r"[1-4]Q\s?(?:FY\s?)?(?:19|20)?\d{2}|[12]H\s?(?:FY\s?)?(?:19|20)?\d{2}",  # 1H25, 2H2024, 1H FY25
    # Dates: 30 June 2025, June 30, 2025, 31 Dec, 2025-06-30, 30/06/2025
    rf"{_DAY}(?:st|nd|rd|th)?\s{_MONTH_NAME}(?:,?\s(?:19|20)\d{{2}})?(?![A-Za-z])",
    rf"{_MONTH_NAME}\s{_DAY}(?:st|nd|rd|th)?(?:,?\s(?:19|20)\d{{2}})?(?![A-Za-z\d])",
    rf"(?:19|20)\d{{2}}-{_MONTH}-{_DAY}|{_DAY}/{_MONTH}/(?:19|20)\d{{2}}",
    r"(?:19|20)\d{2}\s?年?\s?(?:H[12]|Q[1-4])",  # 2025H1, 2025 Q3, 2025年Q1
    # 2030年, 2024年上半年, 2025年第1季度, 2025年5月, 2025年1至3月 (a month only with 月)
    r"(?:19|20)\d{2}\s?年(?:\s?(?:上半年|下半年|第?[一二三四1-4]\s?季度?"
    rf"|{_MONTH}(?:\s?[-–~～至到]\s?{_MONTH})?\s?月(?:\s?{_DAY}\s?[日号])?))?",
    # A plain year; not a number with a scale word or a currency (2000百万美元, 2000 million,
    # USD 2000, $2000): an amount (2000年 is a year by the pattern above).
    r"(?<![$€£¥])(?<!(?:USD|EUR|HKD|CNY|RMB|GBP|JPY|SGD) )(?:19|20)\d{2}"
    r"(?!\s?(?:百万|千万|万|亿|元|美元|港元|欧元|英镑|日元|million|billion|bn|mn|thousand|"
    r"USD|EUR|HKD|CNY|RMB|GBP|JPY|SGD)(?![A-Za-z]))",
    # A month or a day of a month without its year (11月, 11月30日, 11月30号): a period
    # token like 30 Nov; an amount after it is still one (11月11亿 → 11亿).
    rf"(?<![\d.,]){_MONTH}\s?月(?:\s?{_DAY}\s?[日号])?",
    r"(?:H[12]|Q[1-4])\s?(?:19|20)\d{2}",
    # A half or quarter on its own (Q1, H2): ranges such as Q1-Q3 2025 are lists of them.
    r"(?<![A-Za-z])(?:H[12]|Q[1-4])(?![A-Za-z])",
    r"(?<![A-Za-z\d])[1-4][QH](?![A-Za-z\d])",  # 3Q, 1H: a quarter or half without its year
)

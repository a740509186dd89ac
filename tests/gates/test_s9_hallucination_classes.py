"""Session 9's hallucination classes (issue 14, the blind red team's HA/AA/FB classes),
each tested as a class with cases of both polarities, English and Chinese.

The corpus rows ``s9h-*`` (tests/data/judge_corpus.jsonl) carry the labelled twins; these
tests vary the class beyond them.
"""

from __future__ import annotations

import pytest

from ragspine_action.gates import LexicalJudge, detect_fabricated_numbers
from ragspine_action.gates.claims import extract_claims

# FB1: a digit inside an identifier (a metric, a class, an index) is no amount.
_IDENTIFIERS = [
    "CET1",
    "Tier 1",
    "tier 2",
    "Level 3",
    "Stage 2",
    "Scope 3",
    "Pillar 2",
    "COVID-19",
    "S&P 500",
    "FTSE 100",
    "A380",
    "ISO27001",
    "ISO 27001",
    "IFRS 9",
    "Basel 3.1",
    "SOC 2",
    "Tier-1",
    "Level-3",
    "5G",
]


def test_an_identifier_at_the_end_of_a_sentence_is_no_amount() -> None:
    assert detect_fabricated_numbers("No figures for Section 8 or Tier 2. Sorry.") == []
    assert detect_fabricated_numbers("没有3Q的数据。") == []


_AMOUNTS = [("640 million", "640"), ("13.8%", "13.8"), ("85亿港元", "85亿"), ("1,150", "1,150")]


@pytest.mark.parametrize("identifier", _IDENTIFIERS)
def test_a_digit_inside_an_identifier_is_no_amount(identifier: str) -> None:
    assert detect_fabricated_numbers(f"The documents do not give the {identifier} figure.") == []
    assert detect_fabricated_numbers(f"资料中没有{identifier}的数据。") == []


@pytest.mark.parametrize("identifier", _IDENTIFIERS)
@pytest.mark.parametrize(("amount", "counted"), _AMOUNTS)
def test_an_amount_beside_an_identifier_still_counts(
    identifier: str, amount: str, counted: str
) -> None:
    text = f"The {identifier} figure is not disclosed; it may be {amount}."
    assert detect_fabricated_numbers(text) == [counted]


@pytest.mark.parametrize("amount", ["USD500", "EUR40", "RMB5亿", "HKD12", "R500"])
def test_a_currency_code_glued_to_its_amount_is_an_amount(amount: str) -> None:
    assert detect_fabricated_numbers(f"It may cost {amount}.") != []


# FB2: a month or a day of a month is a period token; an amount beside it still counts.
@pytest.mark.parametrize(
    "period", ["11月", "3月", "11月30日", "12月1号", "30 Nov", "Nov 30", "1 March", "3月至6月"]
)
def test_a_month_or_a_day_is_a_period(period: str) -> None:
    assert detect_fabricated_numbers(f"资料中没有{period}的数据。") == []
    assert detect_fabricated_numbers(f"No data for {period} was found.") == []


@pytest.mark.parametrize("period", ["11月", "11月30日", "12月"])
@pytest.mark.parametrize(("amount", "counted"), [("11亿", "11亿"), ("11万", "11万"), ("7", "7")])
def test_an_amount_beside_a_month_still_counts(period: str, amount: str, counted: str) -> None:
    assert detect_fabricated_numbers(f"没有{period}的数据，估计为{amount}。") == [counted]
    assert detect_fabricated_numbers(f"没有数据，{period}{amount}。") == [counted]


def _supported(claim: str, contexts: list[str]) -> bool:
    return LexicalJudge().judge_claims([claim], contexts)[0].supported


# HA5: a cause or consequence the contexts do not give (gates/cause.py).
_CAUSES = [
    # (claim, contexts that state the link, contexts that hold both facts unlinked)
    (
        "Operating costs rose 6% because of higher energy prices.",
        ["Operating costs rose 6%, mainly reflecting higher energy prices."],
        ["Operating costs rose 6%. Energy prices were higher in the second half."],
    ),
    (
        "Churn fell to 3%, which means the retention bonus worked.",
        ["Churn fell to 3%. This means the retention bonus worked."],
        ["Churn fell to 3% in 2025.", "The retention bonus worked well for sales staff."],
    ),
    (
        "Due to the supplier delay, the migration moved to Q3.",
        ["The migration moved to Q3 due to a supplier delay."],
        ["The migration moved to Q3. A supplier delay hit the Berlin office."],
    ),
    (
        "新加坡营业利润下降3%，原因是投资收益减少。",
        ["新加坡营业利润下降3%，主要由于投资收益减少。"],
        ["新加坡营业利润下降3%。", "投资收益减少。"],
    ),
    (
        "由于原材料涨价，毛利率下降2个百分点。",
        ["受原材料涨价影响，毛利率下降2个百分点。"],
        ["毛利率下降2个百分点。原材料涨价。"],
    ),
]


@pytest.mark.parametrize(("claim", "linked", "unlinked"), _CAUSES)
def test_a_cause_must_be_the_contexts_own(
    claim: str, linked: list[str], unlinked: list[str]
) -> None:
    assert _supported(claim, linked)
    assert not _supported(claim, unlinked)


@pytest.mark.parametrize(
    ("claim", "contexts"),
    [
        # "due to expire" is a date, not a cause
        ("The licence is due to expire in May.", ["The licence is due to expire in May."]),
        # one subject over two sentences: the second explains the first
        (
            "Leave is not paid out because unused days are forfeited.",
            ["Unused leave is not paid out. Unused days are forfeited on 31 March."],
        ),
        # a cause reworded
        (
            "Bancassurance sales declined 4% because partner banks sold less.",
            ["The bancassurance channel declined 4% due to lower sales through partner banks."],
        ),
    ],
)
def test_a_cause_the_contexts_give_passes(claim: str, contexts: list[str]) -> None:
    assert _supported(claim, contexts)


# HA3: an order, period or extreme told the other way round.
_ORDERS = [
    # (context, the same order in other words, the order reversed)
    (
        "Before the cover is refitted, the seal must be replaced.",
        "Replace the seal first, then refit the cover.",
        "Refit the cover first, then replace the seal.",
    ),
    (
        "Approve the purchase order, then issue the payment.",
        "The payment is issued only after the purchase order is approved.",
        "The payment is issued before the purchase order is approved.",
    ),
    (
        "数据库升级前，须先完成全量备份。",
        "先完成全量备份，再升级数据库。",
        "先升级数据库，再完成全量备份。",
    ),
    (
        "客户签收之后，财务部再开具发票。",
        "财务部在客户签收后才开具发票。",
        "财务部先开具发票，然后客户签收。",
    ),
]


@pytest.mark.parametrize(("context", "same", "reversed_"), _ORDERS)
def test_an_order_reversed_fails(context: str, same: str, reversed_: str) -> None:
    assert _supported(same, [context])
    assert not _supported(reversed_, [context])


_PAIRS = [
    # (context, its antonym put in the claim, a faithful rewording)
    (
        "Restated figures apply to the prior year only.",
        "Restated figures apply to the current year only.",
        "Restated figures apply to the previous year only.",
    ),
    (
        "The newest models are excluded from the trade-in offer.",
        "The oldest models are excluded from the trade-in offer.",
        "The newest models are not part of the trade-in offer.",
    ),
    (
        "Payments are due at the latest on the 5th working day.",
        "Payments are due at the earliest on the 5th working day.",
        "Payments are due on the 5th working day at the latest.",
    ),
    (
        "本年度研发投入增长15%。",
        "上年度研发投入增长15%。",
        "今年研发投入增长15%。",
    ),
    (
        "库存于月末盘点一次。",
        "库存于月初盘点一次。",
        "库存于每月月末盘点一次。",
    ),
    (
        "合同最迟于6月30日续签。",
        "合同最早于6月30日续签。",
        "合同最晚在6月30日续签。",
    ),
]


@pytest.mark.parametrize(("context", "flipped", "reworded"), _PAIRS)
def test_a_period_or_extreme_flipped_fails(context: str, flipped: str, reworded: str) -> None:
    assert not _supported(flipped, [context])
    assert _supported(reworded, [context])


# HA2: a name or role the contexts never mention put for theirs (gates/swap.py).
_ROLES = [
    # (context, another name or role put in, a faithful rewording)
    (
        "Incidents are escalated to the duty manager within 15 minutes.",
        "Incidents are escalated to the account director within 15 minutes.",
        "Within 15 minutes, incidents are escalated to the duty manager.",
    ),
    (
        "The licence was granted by the Harbour Authority in 2024.",
        "The licence was granted by the Maritime Council in 2024.",
        "In 2024 the Harbour Authority granted the licence.",
    ),
    (
        "Refund disputes are settled by the payments team.",
        "Refund disputes are settled by the fraud desk.",
        "The payments team settles refund disputes.",
    ),
    (
        "Expense claims must be signed off by the budget holder.",
        "Expense claims must be signed off by the head of finance.",
        "The budget holder must sign off expense claims.",
    ),
    (
        "新业务价值增长最快的是保诚香港。",
        "新业务价值增长最快的是友邦香港。",
        "保诚香港的新业务价值增长最快。",
    ),
    (
        "恒生在本地按揭市场的份额为18%。",
        "汇丰在本地按揭市场的份额为18%。",
        "恒生在本地按揭市场的份额达到18%。",
    ),
    (
        "重大合同须经风险委员会审议。",
        "重大合同须经提名委员会审议。",
        "重大合同须提交风险委员会审议。",
    ),
    (
        "系统变更由运维中心负责实施。",
        "系统变更由采购中心负责实施。",
        "系统变更的实施由运维中心负责。",
    ),
]


@pytest.mark.parametrize(("context", "swapped", "reworded"), _ROLES)
def test_a_name_or_role_never_mentioned_fails(context: str, swapped: str, reworded: str) -> None:
    assert not _supported(swapped, [context])
    assert _supported(reworded, [context])


@pytest.mark.parametrize(
    ("claim", "context"),
    [
        # a writing of the same member of a closed kind: the kinds rule reads it
        ("房屋主体结构的维修由房东负责。", "房屋主体结构的维修由出租人负责。"),
        # a connective or a quantifier is no name
        ("新规适用于全部境内分支机构。", "新规适用于所有境内分支机构。"),
    ],
)
def test_no_name_or_role_swap_is_read_in_a_rewording(claim: str, context: str) -> None:
    assert _supported(claim, [context])


# HA1: two facts of one sentence given each other's numbers (judge._segments_problem).
_FACTS = [
    # (context, the facts with their numbers, the numbers exchanged)
    (
        "Lisbon handled 1,200 calls and Porto handled 800.",
        "Porto handled 800 calls, and Lisbon handled 1,200.",
        "Lisbon handled 800 calls, and Porto handled 1,200.",
    ),
    (
        "The basic plan costs 9 EUR a month, while the family plan costs 15 EUR.",
        "The family plan costs 15 EUR a month; the basic plan costs 9 EUR.",
        "The family plan costs 9 EUR a month; the basic plan costs 15 EUR.",
    ),
    (
        "北京分公司新增客户320户，上海分公司新增客户410户。",
        "上海分公司新增客户410户，北京分公司新增客户320户。",
        "上海分公司新增客户320户，北京分公司新增客户410户。",
    ),
    (
        "研发费用率为8%，销售费用率为12%。",
        "销售费用率为12%，研发费用率为8%。",
        "销售费用率为8%，研发费用率为12%。",
    ),
]


@pytest.mark.parametrize(("context", "kept", "exchanged"), _FACTS)
def test_two_numbers_exchanged_between_facts_fail(context: str, kept: str, exchanged: str) -> None:
    assert _supported(kept, [context])
    assert not _supported(exchanged, [context])


# HA4: a negation said by a verb or a double negation.
_NEGATIONS = [
    # (context, a claim that negates it, a claim that agrees)
    (
        "Visitors must sign the confidentiality agreement.",
        "Visitors are exempt from the confidentiality agreement.",
        "Visitors are required to sign the confidentiality agreement.",
    ),
    (
        "The committee renewed the licence in March.",
        "The committee declined to renew the licence in March.",
        "In March the committee renewed the licence.",
    ),
    (
        "Field staff have company phones.",
        "Field staff lack company phones.",
        "Field staff are given company phones.",
    ),
    (
        "新员工须参加消防演练。",
        "新员工豁免参加消防演练。",
        "新员工必须参加消防演练。",
    ),
    (
        "该型号配备指纹识别。",
        "该型号缺少指纹识别。",
        "该型号配有指纹识别。",
    ),
    (
        "团体客户无需缴纳开户费。",
        "团体客户不得不缴纳开户费。",
        "团体客户不需要缴纳开户费。",
    ),
]


@pytest.mark.parametrize(("context", "negated", "agreeing"), _NEGATIONS)
def test_a_negation_said_by_a_verb_fails(context: str, negated: str, agreeing: str) -> None:
    assert not _supported(negated, [context])
    assert _supported(agreeing, [context])


def test_declined_to_a_level_is_a_direction_not_a_negation() -> None:
    context = ["Revenue declined to 5 million EUR in 2025."]
    assert _supported("Revenue declined to 5 million EUR in 2025.", context)
    assert _supported("In 2025 revenue declined to 5 million EUR.", context)


# HA6: a quantifier widened or narrowed.
_QUANTIFIERS = [
    # (context, widened or narrowed, faithful)
    (
        "Auditors sample every 20th invoice.",
        "Auditors sample every invoice.",
        "Every 20th invoice is sampled by auditors.",
    ),
    (
        "Either spouse may claim the allowance.",
        "Only the husband may claim the allowance.",
        "The allowance may be claimed by either spouse.",
    ),
    (
        "Members receive their first guest pass free of charge.",
        "Members receive all their guest passes free of charge.",
        "Members receive their first guest pass free.",
    ),
    (
        "某些型号支持无线充电。",
        "任何型号都支持无线充电。",
        "部分型号支持无线充电。",
    ),
    (
        "双方均可申请仲裁。",
        "只有卖方可以申请仲裁。",
        "任何一方均可申请仲裁。",
    ),
]


@pytest.mark.parametrize(("context", "changed", "faithful"), _QUANTIFIERS)
def test_a_quantifier_widened_or_narrowed_fails(context: str, changed: str, faithful: str) -> None:
    assert not _supported(changed, [context])
    assert _supported(faithful, [context])


# AA1: answer_accuracy with a wrong qualifier or unit.
_QUALIFIERS = [
    # (reference, an answer with another qualifier or unit, a faithful answer)
    (
        "Claims are settled within 10 working days.",
        "Claims are settled within 10 calendar days.",
        "Claims are settled within 10 business days.",
    ),
    (
        "The bonus pool is 2 million EUR.",
        "The bonus pool is 2 EUR.",
        "The bonus pool amounts to 2 million EUR.",
    ),
    (
        "Churn fell by 3 percentage points in 2025.",
        "Churn fell by 3% in 2025.",
        "In 2025 churn fell by 3 percentage points.",
    ),
    (
        "Net interest income was 850 million USD.",
        "Gross interest income was 850 million USD.",
        "Net interest income came to 850 million USD.",
    ),
    ("保证金为300万元。", "保证金为300元。", "保证金是300万元。"),
    (
        "Goodwill was written down by 1.2 billion USD.",
        "Goodwill was written down by 1.2 million USD.",
        "Goodwill was written down by USD 1.2 billion.",
    ),
    (
        "The withdrawal limit is 1,000 EUR per day.",
        "The withdrawal limit is 1,000 EUR per transaction.",
        "The withdrawal limit is 1,000 EUR a day.",
    ),
    (
        "Revenue grew 7% on an organic basis.",
        "Revenue grew 7% on a reported basis.",
        "On an organic basis, revenue grew 7%.",
    ),
    ("餐费补贴人均80元。", "餐费补贴每笔80元。", "餐费补贴每人80元。"),
    ("审批时限为5个工作日。", "审批时限为5个自然日。", "审批时限是5个工作日。"),
]


@pytest.mark.parametrize(("reference", "wrong", "right"), _QUALIFIERS)
def test_answer_accuracy_reads_qualifiers_and_units(reference: str, wrong: str, right: str) -> None:
    judge = LexicalJudge()
    assert not judge.judge_reference(reference, wrong, 0.6).passed
    assert judge.judge_reference(reference, right, 0.6).passed
    # the same rules in faithfulness
    assert not _supported(wrong, [reference])


# HA5 (brackets): a short full-width bracket that ranks the fact is a claim of its own.
@pytest.mark.parametrize(
    ("answer", "said", "unsaid"),
    [
        ("利润增长5%（行业最高）。", "利润增长5%，为行业最高。", "利润增长5%。"),
        ("销量增长9%【首次超过竞争对手】。", "销量增长9%，首次超过竞争对手。", "销量增长9%。"),
        ("保费增长3%（历史新高）。", "保费增长3%，创历史新高。", "保费增长3%，低于预期。"),
    ],
)
def test_a_ranking_bracket_is_judged(answer: str, said: str, unsaid: str) -> None:
    claims = [c.text for c in extract_claims(answer, sources=["report.pdf"])]
    judge = LexicalJudge()
    assert all(v.supported for v in judge.judge_claims(claims, [said]))
    assert not all(v.supported for v in judge.judge_claims(claims, [unsaid]))


def test_a_naming_bracket_stays_in_its_sentence() -> None:
    claims = [c.text for c in extract_claims("内地新业务价值（内地NBV）增长12%。")]
    assert len(claims) == 1


@pytest.mark.parametrize(
    ("context", "widened", "faithful"),
    [
        (
            "Employees who joined before 2020 keep the old pension plan.",
            "All employees keep the old pension plan.",
            "Employees who joined before 2020 keep the old pension plan unchanged.",
        ),
        (
            "符合条件的员工可申请住房补贴。",
            "所有员工都可申请住房补贴。",
            "符合条件的员工可以申请住房补贴。",
        ),
    ],
)
def test_all_where_the_context_qualifies_the_noun_fails(
    context: str, widened: str, faithful: str
) -> None:
    assert not _supported(widened, [context])
    assert _supported(faithful, [context])


def test_an_agent_noun_never_mentioned_is_a_swapped_role() -> None:
    context = ["Disputes are referred to the compliance officer within 5 days."]
    assert not _supported("Disputes are referred to the ombudsman within 5 days.", context)
    assert not _supported("Disputes are referred to the actuary within 5 days.", context)
    assert _supported("Within 5 days, disputes are referred to the compliance officer.", context)

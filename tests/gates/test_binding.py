"""Issue 14, the blind red team's classes: counters written in digits, reference blocks,
number words, questions, facts swapped between passages and swapped names.

Each rule is tested in both directions: the hallucination fails and its faithful twin
passes (a multi-passage summary whose clauses each stand in their own passage passes).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from ragspine_action.gates.claims import extract_claims
from ragspine_action.gates.judge import LexicalJudge
from ragspine_action.gates.numerals import conditional_numbers, numbers_with_units

JUDGE = LexicalJudge()


def _supported(answer: str, contexts: list[str], sources: tuple[str, ...] = ()) -> bool:
    claims = [c.text for c in extract_claims(answer, sources=sources)]
    return all(v.supported for v in JUDGE.judge_claims(claims, contexts))


def _accurate(reference: str, answer: str) -> bool:
    return JUDGE.judge_reference(reference, answer, 0.6).passed


STRATEGY = [
    "集团的增长战略围绕三大支柱展开。2025年5月，集团在香港新增两家分行，并招募了五名区域总监。"
]


@pytest.mark.parametrize(
    ("answer", "supported"),
    [
        ("集团的增长战略围绕3大支柱展开。", True),
        ("集团的增长战略围绕五大支柱展开。", False),  # 五 counts 名 (and 5 is 5月)
        ("集团的增长战略围绕5大支柱展开。", False),
        ("集团在香港新增2家分行，并招募了5名区域总监。", True),
        ("集团在香港新增3家分行。", False),
    ],
)
def test_a_numeral_before_a_counter_is_its_digit(answer: str, supported: bool) -> None:
    assert _supported(answer, STRATEGY) is supported


def test_digits_in_the_context_and_numerals_in_the_answer() -> None:
    contexts = ["集团推出了3项新产品，覆盖2个市场，为期5年的计划已获批准。"]
    assert _supported("集团推出了三项新产品，覆盖两个市场。", contexts)
    assert not _supported("集团推出了四项新产品。", contexts)
    assert not _supported("为期三年的计划已获批准。", contexts)  # 3 counts 项, not 年


def test_what_a_number_counts() -> None:
    found = numbers_with_units("集团新增3家分行，增长8.3%; we hired five regional directors")
    assert (frozenset({Decimal(3)}), ("家", "分")) in found
    assert (frozenset({Decimal(5)}), ("regional", "director")) in found
    assert (frozenset({Decimal("8.3")}), ("%", "")) in found


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Reviews are held once a year.", [{1}]),
        ("Once approved, the claim is paid.", []),
        ("The waiting period is one year.", [{1}]),
        ("One of the pillars is digital.", []),
        ("Half of new business came from banks.", [{Decimal("0.5"), 50}]),
        ("Profit rose in the first half of 2025.", []),
        ("The plan will double the payout.", [{2}]),
        ("The group reported double-digit growth.", []),
    ],
)
def test_words_that_are_numbers_only_where_they_count(text: str, values: list[set[object]]) -> None:
    assert [set(forms) for _, forms in conditional_numbers(text)] == values


def test_number_words_against_digits_and_each_other() -> None:
    contexts = ["Premiums are paid twice a year. The insurer doubled the agency headcount."]
    assert _supported("Premiums are paid two times a year.", contexts)
    assert _supported("Premiums are paid 2 times a year.", contexts)
    assert not _supported("Premiums are paid once a year.", contexts)
    assert not _supported("The insurer tripled the agency headcount.", contexts)
    assert not _supported("保费每年缴纳一次。", ["保费每年缴纳两次。公司每年进行一次绩效评估。"])
    assert _supported("代理人数量增至2倍。", ["代理人数量增至两倍。"])


def test_number_words_in_answer_accuracy() -> None:
    reference = "Performance reviews are held once a year."
    assert not _accurate(reference, "Performance reviews are held twice a year.")
    assert _accurate(reference, "Reviews are held once a year, in December.")
    assert _accurate("Premiums are paid twice a year.", "Premiums are paid two times a year.")
    assert not _accurate("The insurer doubled its headcount.", "The insurer tripled its headcount.")
    assert not _accurate("公司每年进行一次绩效评估。", "公司每年进行两次绩效评估。")


BOARD = ["The board meets four times a year. The strategy rests on three pillars."]


@pytest.mark.parametrize(
    "answer",
    [
        "The board meets four times a year.\n\nReferences: [1] Group Strategy (Group_Strategy.pdf), p. 2",
        "The board meets four times a year.\n\nSources:\n[1] Group Strategy, p. 2\n[2] ACME Annual Report 2025, p. 14",
        "The board meets four times a year.\nSources: [1] Group Strategy, p. 2; [2] ACME Annual Report 2025, p. 14",
        "The board meets four times a year.\n\n**References**\n1. Group Strategy — page 2\n2. Annual Report 2025 — p. 14",
        "The board meets four times a year.\n\n## Sources\n\n- Group Strategy, p. 2",
        "董事会每年召开四次会议。\n\n参考资料：[1] 集团战略简报（Group_Strategy.pdf），第2页",
        "董事会每年召开四次会议。\n参考资料：\n[1] 集团战略简报（Group_Strategy.pdf），第2页\n[2] 2025年年报，第14页",
    ],
)
def test_a_reference_block_is_presentation(answer: str) -> None:
    contexts = [*BOARD, "董事会每年召开四次会议。"]
    assert _supported(answer, contexts, ("Group_Strategy.pdf",))


@pytest.mark.parametrize(
    "answer",
    [
        "The board meets four times a year.\n\nReferences: [1] Group Strategy, p. 2. The group will close all Singapore branches in 2026.",
        "The board meets four times a year.\nSources: [1] Group_Strategy.pdf, p. 2 [the board has approved a special dividend of 50 cents]",
        "The board meets four times a year.\nSources:\n[1] The CEO will resign next week and profits will triple.",
        "董事会每年召开四次会议。\n\n参考资料：[1] 集团战略简报（Group_Strategy.pdf），第2页；另据传闻集团明年将出售新加坡业务。",
    ],
)
def test_a_claim_hidden_in_a_reference_block_is_judged(answer: str) -> None:
    contexts = [*BOARD, "董事会每年召开四次会议。"]
    assert not _supported(answer, contexts, ("Group_Strategy.pdf",))


DIVIDEND = ["Hong Kong revenue grew 8% in FY2025. The board does not plan to cut the dividend."]
DIVIDEND_ZH = ["2025年香港收入增长8%。董事会不打算削减股息。"]


def test_questions_in_answers() -> None:
    # A question asks; it asserts nothing unless it is rhetorical or presupposes a number.
    assert _supported("Hong Kong revenue grew 8% in FY2025. Want to know why?", DIVIDEND)
    assert not _supported("Didn't the board decide to cut the dividend?", DIVIDEND)
    assert not _supported("What drove the 12% growth in Hong Kong revenue?", DIVIDEND)
    assert _supported("What drove the 8% growth in Hong Kong revenue in FY2025?", DIVIDEND)
    # 难道 turns the polarity round: 难道…不…吗 says it does, 难道…吗 says it does not.
    assert not _supported("难道董事会不打算削减股息吗？", DIVIDEND_ZH)
    assert _supported("难道董事会打算削减股息吗？", DIVIDEND_ZH)
    assert not _supported("是什么推动了香港收入增长12%？", DIVIDEND_ZH)


def test_a_question_with_the_users_numbers_is_an_echo() -> None:
    claims = extract_claims(
        "What was revenue in FY2025 up 12%? It grew 8%.",
        question="Was FY2025 revenue up 12%?",
    )
    assert [c.text for c in claims] == ["It grew 8%."]


TWO_PASSAGES = [
    "Hong Kong revenue grew 8% in FY2025, driven by the agency channel.",
    "Singapore operating profit fell 3% in FY2025 because of lower investment income.",
]
TWO_PASSAGES_ZH = [
    "2025年，香港新业务价值增长8%，主要得益于代理人渠道。",
    "2025年，新加坡营业利润下降3%。",
]


@pytest.mark.parametrize(
    ("answer", "supported"),
    [
        ("Hong Kong operating profit fell 3% in FY2025.", False),
        ("In Hong Kong, operating profit fell 3% in FY2025.", False),
        ("Singapore revenue grew 8% in FY2025, driven by the agency channel.", False),
        ("Singapore operating profit fell 8% in FY2025.", False),
        ("Hong Kong revenue grew 8% in FY2025, while Singapore operating profit fell 3%.", True),
        ("In FY2025 Hong Kong revenue grew 8% and Singapore operating profit fell 3%.", True),
        ("2025年，香港营业利润下降3%。", False),
        ("2025年，新加坡新业务价值增长8%，主要得益于代理人渠道。", False),
        ("2025年，香港新业务价值增长8%，新加坡营业利润下降3%。", True),
    ],
)
def test_a_fact_is_supported_by_one_passage_not_the_pool(answer: str, supported: bool) -> None:
    assert _supported(answer, [*TWO_PASSAGES, *TWO_PASSAGES_ZH]) is supported


def test_a_channel_swapped_between_sentences() -> None:
    contexts = [
        "In FY2025 the agency channel grew new business value by 12%. The bancassurance "
        "channel declined 4% due to lower sales through partner banks."
    ]
    assert not _supported("The agency channel declined 4% due to lower sales.", contexts)
    assert not _supported("Bancassurance grew new business value by 12%.", contexts)
    assert _supported(
        "Agency grew new business value by 12%, while bancassurance fell 4%.", contexts
    )


@pytest.mark.parametrize(
    ("answer", "supported"),
    [
        ("ACME Life Singapore reported a solvency ratio of 245% at the end of 2025.", False),
        ("ACME General Hong Kong reported a solvency ratio of 245% at the end of 2025.", False),
        (
            "ACME Life's Hong Kong business reported a solvency ratio of 245% at the end of 2025.",
            True,
        ),
        ("The Monetary Authority approved the new product in March.", False),
        ("In March, the Insurance Authority approved the new product.", True),
        ("2025年末，ACME人寿新加坡的偿付能力充足率为245%。", False),
        ("ACME人寿香港2025年末的偿付能力充足率为245%。", True),
        ("金融管理局于三月批准了新产品。", False),
        ("保险业监管局于三月批准了新产品。", True),
    ],
)
def test_a_swapped_name_fails_its_twin_passes(answer: str, supported: bool) -> None:
    contexts = [
        "ACME Life Hong Kong reported a solvency ratio of 245% at the end of 2025. The "
        "Insurance Authority approved the new product in March.",
        "2025年末，ACME人寿香港的偿付能力充足率为245%。保险业监管局于三月批准了新产品。",
    ]
    assert _supported(answer, contexts) is supported


def test_paraphrased_figures_are_one_thing() -> None:
    contexts = [
        "Gross written premiums rose 5% to HKD 40 billion. New business value grew 12%. "
        "Operating expenses fell 2%."
    ]
    assert _supported("Premium income grew 5% to HKD 40 billion.", contexts)
    assert _supported("New business value rose 12%; operating expenses were down 2%.", contexts)
    assert not _supported("Operating expenses grew 12%.", contexts)
    assert not _supported("New business value rose 5% to HKD 40 billion.", contexts)


RESULTS = [
    "Hong Kong: revenue of USD 1,702 million, up 8.3%; new business value of USD 640 million. "
    "Singapore: revenue of USD 410 million, down 2.1%; new business value of USD 95 million. "
    "Mainland China: revenue of USD 1,150 million, up 12.4%."
]


def test_a_place_holds_after_a_semicolon_and_each_number_where_it_stands() -> None:
    assert not _supported("Hong Kong new business value was USD 95 million.", RESULTS)
    assert _supported("Singapore new business value was USD 95 million.", RESULTS)
    table = "| Market | Revenue | Change |\n|---|---|---|\n| {} | USD 1,702 million | up {}% |"
    assert _supported(table.format("Hong Kong", "8.3"), RESULTS)
    assert not _supported(table.format("Hong Kong", "12.4"), RESULTS)


def test_full_time_is_not_part_time() -> None:
    contexts = ["Full-time employees accrue 25 days. Part-time employees accrue leave pro rata."]
    assert _supported("Full-time staff accrue 25 days.", contexts)
    assert not _supported("Part-time employees accrue 25 days.", contexts)
    assert not _supported(
        "兼职员工每年享有25天带薪年假。", ["全职员工每年享有25天带薪年假。兼职员工按比例享有年假。"]
    )


def test_a_chinese_place_next_to_latin_letters() -> None:
    # "新加坡ROE": no word boundary between 坡 and R, still a place
    assert not _supported("新加坡ROE维持在较高水平。", ["香港业务表现稳健，ROE维持在较高水平。"])
    assert _supported("香港ROE维持在较高水平。", ["香港业务表现稳健，ROE维持在较高水平。"])
    assert not _supported("Hong Kong ROA stayed high.", ["Hong Kong ROE stayed high."])


def test_a_reference_item_with_the_title_after_the_file_name() -> None:
    answer = (
        "Meals are capped at 40 EUR per day.\n\nReferences:\n1. travel.pdf — Travel policy, p. 8"
    )
    assert [c.text for c in extract_claims(answer)] == ["Meals are capped at 40 EUR per day."]
    added = answer + "\n2. policy.pdf — note: executives get 60 days"
    assert extract_claims(added)[-1].text == "note: executives get 60 days"


def test_a_numbered_list_is_no_number() -> None:
    reference = "集团2026年的三大重点是：\n1. 提升代理人产能\n2. 扩大银保合作\n3. 加快数字化转型"
    listed = "集团2026年的重点如下：\n1. 提升代理人产能\n2. 扩大银保合作\n3. 加快数字化转型"
    assert _accurate(reference, listed)
    assert _accurate(
        reference,
        "2026年集团有三大重点：一是提升代理人产能；二是扩大银保合作；三是加快数字化转型。",
    )
    assert not _accurate(
        reference, "集团2026年的两大重点如下：\n1. 提升代理人产能\n2. 扩大银保合作"
    )


PLANS = [
    "The ACME Wealth Builder plan offers a guaranteed return of 2% per year. The ACME Health "
    "Plus plan covers hospitalisation up to HKD 1 million per year."
]


def test_a_name_swapped_inside_one_passage() -> None:
    assert not _supported(
        "The ACME Health Plus plan offers a guaranteed return of 2% per year.", PLANS
    )
    assert _supported("Wealth Builder guarantees 2% a year.", PLANS)
    regulators = [
        "The Hong Kong Insurance Authority (IA) introduced the RBC regime on 1 July 2024. "
        "Under RBC, insurers must hold capital against insurance risks.",
        "Prudential reported a capital adequacy ratio of 210% in 2025. The Monetary "
        "Authority of Singapore (MAS) requires at least 120%.",
    ]
    assert _supported(
        "The Insurance Authority introduced the RBC regime on 1 July 2024.", regulators
    )
    assert not _supported(
        "The Insurance Authority requires a capital adequacy ratio of at least 120%.", regulators
    )
    # an abbreviation of the same organisation is no swap
    zh = ["香港保险业监管局于2024年7月1日实施风险为本资本制度。"]
    assert _supported("保监局（香港）于2024年7月1日实施风险为本资本制度。", zh)
    assert not _supported("金融管理局于2024年7月1日实施风险为本资本制度。", zh)


def test_a_channel_named_once_holds_for_its_sentence() -> None:
    contexts = [
        "Growth was driven by the agency channel, which contributed 62% of new business value."
    ]
    assert not _supported("Bancassurance contributed 62% of new business value.", contexts)
    assert _supported("Agency contributed 62% of new business value.", contexts)


def test_bold_titles_and_period_shorthands_are_presentation() -> None:
    answer = "**Travel**\n- Meals are capped at 40 EUR per day (+8.3% YoY).\n\n**References**\n1. Travel policy, p. 2"
    assert [c.text for c in extract_claims(answer)] == [
        "Meals are capped at 40 EUR per day .",
        "+8.3% YoY",
    ]
    assert _supported(answer, ["Meals are capped at 40 EUR per day, up 8.3% year on year."])


def test_a_heading_names_the_place_of_its_section() -> None:
    sections = [
        "## 香港业务\n2025年，香港业务新业务价值增长15%。代理人数量增至2.5万名。",
        "Singapore and Malaysia: NBV fell 5%, mainly on slower bancassurance sales.",
    ]
    assert not _supported("新加坡代理人数量增至2.5万名。", sections)
    assert _supported("香港代理人数量增至2.5万名。", sections)
    assert not _supported("Hong Kong NBV fell 5% on slower bancassurance sales.", sections)
    assert _supported("In Malaysia, NBV fell 5% on slower bancassurance sales.", sections)
    # a place in a later clause of the claim is not carried back to an earlier one
    two = [
        "ACME Hong Kong: FY2025 results. Bancassurance declined 4%.",
        "Singapore profit fell 3%.",
    ]
    assert _supported("Bancassurance declined 4%, while Singapore profit fell 3%.", two)


# A list's lead-in counts its items: the reference's number stands in the lead-in line,
# its words in the items below it (one line each; a numbered marker is cut off as a piece).
@pytest.mark.parametrize(
    ("reference", "answer"),
    [
        (
            "三项措施是加快推出分红型产品、扩大银保合作网点的覆盖范围以及提升代理人培训质量。",
            "措施有三项：\n1. 加快推出分红型产品\n2. 扩大银保合作网点的覆盖范围\n3. 提升代理人培训质量",
        ),
        (
            "两项改革是精简理赔审批流程以及统一全集团的客户服务系统。",
            "改革共两项：\n- 精简理赔审批流程\n- 统一全集团的客户服务系统",
        ),
    ],
)
def test_a_list_lead_in_places_its_number_among_its_items(reference: str, answer: str) -> None:
    assert _accurate(reference, answer)
    # the same line closed as a sentence leads no list: its number is out of place again
    verdict = JUDGE.judge_reference(reference, answer.replace("：", "。"), 0.6)
    assert not verdict.passed
    assert (verdict.claims[0].reason or "").endswith("not where they say the rest of it")

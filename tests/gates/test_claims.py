"""Claim extraction: presentation is never a claim; anything asserted always is."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ragspine_action.gates import claims as claims_module
from ragspine_action.gates.claims import extract_claims, without_citations

SENTENCE = "Full-time employees accrue 25 days of paid annual leave per calendar year."
DOC = "Employee_Handbook_2025.pdf"


def texts(answer: str, **kwargs: object) -> list[str]:
    return [c.text for c in extract_claims(answer, **kwargs)]  # type: ignore[arg-type]


CITED = [
    f"{SENTENCE} [1]",
    f"{SENTENCE}[^1]\n\n[^1]: {DOC}, p. 4",
    f"{SENTENCE} (source: {DOC}, p. 3)",
    f"{SENTENCE} (Source: {DOC}, page 3, section 2.1)",
    f"{SENTENCE}\nSource: {DOC}",
    f"{SENTENCE} Source: HK_QBR.pptx #para1",
    f"{SENTENCE} — {DOC}",
    f"{SENTENCE}\n\n— {DOC}, p. 7",
    f"{SENTENCE}\nSources: {DOC}, finance_faq.md",
    f"{SENTENCE} [{DOC}]",
    f"{SENTENCE} [1, 3]",
    f"{SENTENCE} [2-3]",
    f"{SENTENCE}【1】",
    f"{SENTENCE} (see {DOC}, p. 12)",
    f"{SENTENCE} (HK_QBR.pptx · slide=5,table=1,row=2,col=3)",
    f"{SENTENCE} ([{DOC}](https://intranet.example.com/{DOC}))",
    f"{SENTENCE}\n\nReferences:\n[1] {DOC}, p. 14\n[2] ALM_Framework.docx",
    f"{SENTENCE} Citation: {DOC}#page=3",
    f"{SENTENCE} [hr-handbook, §4]",
    f"**Answer:** {SENTENCE}\n\n*Source: {DOC} (page 2)*",
]


@pytest.mark.parametrize("answer", CITED)
def test_every_citation_form_leaves_only_the_assertion(answer: str) -> None:
    sources = [DOC, "HK_QBR.pptx", "finance_faq.md", "ALM_Framework.docx", "hr-handbook"]
    got = texts(answer, sources=sources)
    assert len(got) == 1, got
    assert got[0].rstrip(" .") == SENTENCE.rstrip(".")


ZH = "香港风险为本资本制度于2024年7月1日正式生效。"


@pytest.mark.parametrize(
    "answer",
    [
        f"基于检索到的资料：\n问题：香港RBC制度什么时候生效？\n{ZH}\n来源：Briefing.pdf #para1",
        f"{ZH[:-1]}（来源：Briefing.pdf）。",
        f"{ZH[:-1]}【来源：Briefing.pdf 第2页】。",
        f"根据检索到的文档，{ZH}[1]",
        f"回答：{ZH}希望对您有帮助！",
        f"以下是相关信息：\n1. {ZH}",
        f"您问的是：香港RBC制度什么时候生效？\n{ZH}",
        f"{ZH}（出处：Briefing.pdf，第3段）",
        f"**总结**：{ZH}",
        f"综上所述，{ZH}",
        f"根据您提供的资料，{ZH}",
        f"经查询，{ZH}",
        f"参考资料显示，{ZH}",
    ],
)
def test_chinese_templates_and_citations_are_not_claims(answer: str) -> None:
    got = texts(answer, sources=["Briefing.pdf"], question="香港RBC制度什么时候生效？")
    assert [g.rstrip("。") for g in got] == [ZH.rstrip("。")]


@pytest.mark.parametrize(
    "answer",
    [
        f"Based on the retrieved documents:\n- {SENTENCE}",
        f"Here is what I found in the knowledge base. {SENTENCE} I hope this helps!",
        f"Sure! {SENTENCE}",
        f"Great question. Here's a summary:\n\n* {SENTENCE}\n\nFeel free to ask if you need more.",
        f"## Leave entitlement\n{SENTENCE}",
        f"Key points:\n1. {SENTENCE}",
        f"Question: How much leave do I get?\nAnswer: {SENTENCE}",
        f"How much leave do I get?\n{SENTENCE}",
        f"In summary, {SENTENCE}",
        f"{SENTENCE} Let me know if you have any other questions.",
        f"Here are the key points:\n- {SENTENCE}",
        f"The documents state that {SENTENCE}",
    ],
)
def test_meta_lines_headings_and_echoed_questions_are_not_claims(answer: str) -> None:
    got = texts(answer, question="How much leave do I get?")
    assert len(got) == 1, got
    assert got[0].lower().rstrip(".") == SENTENCE.lower().rstrip(".")


def test_meta_patterns_are_configurable() -> None:
    answer = "ACME-Bot says: leave accrues monthly."
    assert texts(answer) == [answer]
    assert texts(answer, meta_patterns=[r"acme-bot says:"]) == ["leave accrues monthly."]


@pytest.mark.parametrize(
    ("answer", "hidden"),
    [
        (f"{SENTENCE} [The CEO will resign next week and profits will triple.]", "CEO"),
        (f"{SENTENCE} [1; the allowance doubles for trips abroad]", "allowance doubles"),
        (f"{SENTENCE} (this also voids the warranty)", "voids the warranty"),
        (f"{SENTENCE}【集团计划明年出售全部煤炭资产。】", "出售全部煤炭资产"),
        (f"{SENTENCE} Source: {DOC} — managers can approve unlimited extra leave.", "unlimited"),
        (f"{SENTENCE} (source: {DOC}, p. 3, extended to 120 days for members)", "120 days"),
        (f"{SENTENCE}（来源：{DOC}；另据传闻将于明年上市）", "明年上市"),
    ],
)
def test_text_hidden_in_brackets_or_citations_is_a_claim(answer: str, hidden: str) -> None:
    got = texts(answer, sources=[DOC])
    assert any(hidden in claim for claim in got), got
    assert any(SENTENCE.rstrip(".") in claim for claim in got)


@pytest.mark.parametrize(
    "written",
    [
        "1,702 USD_M",
        "1702 USD_M",
        "1702.0 USD_M",
        "USD 1,702 million",
        "USD 1.702 billion",
        "USD 1.7 billion",
        "17.02亿美元",
        "１,７０２ USD_M",
        "1,702.0 million US dollars",
    ],
)
def test_the_clause_stating_the_structured_value_is_exempt(written: str) -> None:
    answer = f"ACME Hong Kong revenue for FY2025 was {written}. Growth came from agency."
    got = extract_claims(answer, value=1702.0, unit="USD_M")
    assert [c.exempt for c in got] == [True, False]
    assert got[1].text == "Growth came from agency."


@pytest.mark.parametrize(
    ("answer", "judged"),
    [
        # a different number is not the value: judged like any claim
        ("Revenue for FY2025 was 1,720 USD_M.", "Revenue for FY2025 was 1,720 USD_M."),
        ("Revenue for FY2025 was 1,700 USD_M.", "Revenue for FY2025 was 1,700 USD_M."),
        # other numbers beside the value are judged, without the value
        ("Revenue was 1,702 USD_M, an increase of 15% on FY2024.", "an increase of 15% on FY2024."),
        ("收入为17.02亿美元，银保渠道并非因销售下降而减少。", "银保渠道并非因销售下降而减少。"),
    ],
)
def test_only_the_value_itself_is_exempt(answer: str, judged: str) -> None:
    got = extract_claims(answer, value=1702.0, unit="USD_M")
    assert judged in [c.text for c in got if not c.exempt]


def test_a_negative_value_written_as_a_decline_is_the_value() -> None:
    got = extract_claims("The margin declined 5.2% in FY2025. Costs rose.", value=-5.2, unit="pct")
    assert [c.exempt for c in got] == [True, False]


def test_without_a_structured_value_nothing_is_exempt() -> None:
    got = extract_claims("Revenue for FY2025 was 1,702 USD_M.")
    assert [c.exempt for c in got] == [False]


_REFERENCE_CUT = re.compile(r"(?<=[。！？；])|(?<=[.!?;])\s+")


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab Zk9.!?;:\t\u3000\xa0。[]()_")), max_size=80))
@example("It was 5. Source: Deck_2025.pptx  More text here!  And more; end")
@example("第一句。第二句！ Third one. Fourth")
def test_fast_sentence_cut_equals_the_look_behind_pattern(line: str) -> None:
    assert claims_module._cut(line) == _REFERENCE_CUT.split(line)


def test_a_full_stop_inside_a_file_name_or_after_an_abbreviation_does_not_cut() -> None:
    got = texts("Revenue rose in Deck_2025.pptx slides. Updates run at 3 a.m. every day.")
    # (a file name is citation wherever it stands, so it is not part of the claim)
    assert [" ".join(g.split()) for g in got] == [
        "Revenue rose in slides",
        "Updates run at 3 a.m. every day",
    ]


CITATION_TAILS = st.sampled_from(
    [
        " [1]",
        " [^2]",
        " (source: {d}, p. 3)",
        "\nSource: {d}",
        " — {d}",
        " [{d}]",
        "【3】",
        "（来源：{d}）",
        " ({d} · slide=4)",
        "\nSources: {d}, other.md",
        " Source: {d} #para2",
    ]
)
DOC_NAMES = st.from_regex(r"[A-Z][A-Za-z0-9_]{2,20}\.(pdf|docx|pptx|md)", fullmatch=True)


@settings(max_examples=300, deadline=None)
@given(st.lists(CITATION_TAILS, min_size=1, max_size=3), DOC_NAMES)
def test_any_citation_tail_leaves_the_claims_unchanged(tails: list[str], doc: str) -> None:
    answer = SENTENCE + "".join(t.format(d=doc) for t in tails)
    got = texts(answer, sources=[doc, "other.md"])
    assert [g.rstrip(" .") for g in got] == [SENTENCE.rstrip(".")]


def test_a_sources_block_and_a_table_header_are_layout() -> None:
    answer = (
        "Leave accrues monthly.\n\n**Sources:**\n- Employee Handbook (p. 3)\n"
        "- [HR FAQ](https://intranet.example.com/faq)\n\n"
        "| Item | Days |\n|---|---:|\n| Annual leave | 25 |\n"
    )
    assert [c.text.strip("| .") for c in extract_claims(answer)] == [
        "Leave accrues monthly",
        "Annual leave | 25",
    ]


@pytest.mark.parametrize(
    ("answer", "claims"),
    [
        # a document named without an extension, and not among the outcome's sources
        (f"{SENTENCE}\nSource: Employee Handbook", [SENTENCE]),
        (f"{SENTENCE[:-1]} (source: Employee Handbook, section 4).", [SENTENCE[:-1]]),
        (f"{SENTENCE}\n来源：员工手册 第3页", [SENTENCE]),
        (f"{SENTENCE}（出处：管理层讨论与分析）", [SENTENCE]),
        # what follows the name is judged
        (f"{SENTENCE}\nSource: Employee Handbook — managers may approve more.", [SENTENCE, "x"]),
        (f"{SENTENCE}\n来源：员工手册，另据传闻将于明年上市", [SENTENCE, "x"]),
    ],
)
def test_a_citation_label_covers_the_title_not_what_follows_it(
    answer: str, claims: list[str]
) -> None:
    got = [c.rstrip(" .") for c in texts(answer)]
    assert got[0] == claims[0].rstrip(" .")
    assert len(got) == len(claims)


@pytest.mark.parametrize(
    ("text", "sources", "kept", "gone"),
    [
        ("Unless a doctor directs otherwise, see doc.", ["doc"], "doctor", " doc."),
        ("The FAQs say so (FAQ).", ["FAQ"], "FAQs", "(FAQ)"),
        (
            "Policy_2025.pdfx is not Policy_2025.pdf",
            ["Policy_2025.pdf"],
            ".pdfx",
            " Policy_2025.pdf",
        ),
        ("医生说明：见员工手册。", ["员工手册"], "医生说明", "员工手册"),
    ],
)
def test_a_doc_name_is_removed_only_as_a_whole_word(
    text: str, sources: list[str], kept: str, gone: str
) -> None:
    out = without_citations(text, sources)
    assert kept in out
    assert gone not in out

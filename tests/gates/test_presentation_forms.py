"""How an answer is presented is no claim (issue 14, item 1), and hides none.

A table header that labels (Share of Q3 2025 revenue), an English gloss after a Chinese
term, codes qualifying a value line's label (Revenue (HK, FY2025): …), a record's unit
field (value: 1702, unit: USD_M), a lead-in that names its document, a yes/no answered by
its modal (不能。): each is presentation, and its assertive twin is still judged.
"""

from __future__ import annotations

from ragspine_action.gates.claims import extract_claims


def _texts(answer: str, **kw: object) -> list[str]:
    return [c.text for c in extract_claims(answer, **kw) if not c.exempt]  # type: ignore[arg-type]


def test_a_label_header_is_layout_and_an_assertive_one_is_judged() -> None:
    table = "| Region | {} |\n|---|---|\n| Europe | 38% |"
    # a row's outer pipes are layout too
    assert _texts(table.format("Share of Q3 2025 revenue")) == ["Europe | 38%"]
    assert "Region | Revenue of Europe tripled in 2025" in _texts(
        table.format("Revenue of Europe tripled in 2025")
    )


def test_an_english_gloss_stays_in_its_chinese_sentence() -> None:
    assert _texts("公司已调整银保合作协议（banca agreements），费用率下降。") == [
        "公司已调整银保合作协议 banca agreements ，费用率下降。"
    ]
    # a clause in the bracket is a claim of its own
    assert "profits will triple" in _texts(
        "公司已调整银保合作协议（profits will triple），费用率下降。"
    )


def test_codes_qualifying_a_value_line_and_its_unit_field_are_exempt() -> None:
    sources = ["HK_Results.pptx"]
    line = "Revenue (HK, FY2025): US$1.702bn"
    assert _texts(line, sources=sources, value=1702.0, unit="USD_M") == []
    record = "value: 1702, unit: USD_M, source: HK_Results.pptx (slide=5)"
    assert _texts(record, sources=sources, value=1702.0, unit="USD_M") == []
    wrong_unit = "value: 1702, unit: HKD_M, source: HK_Results.pptx (slide=5)"
    assert _texts(wrong_unit, sources=sources, value=1702.0, unit="USD_M") == ["unit: HKD_M"]


def test_a_lead_in_naming_its_document_and_a_bare_modal_answer_frame() -> None:
    listed = "The two priorities for 2027 (Strategy_2027.pdf):\n1. 扩大银保合作\n2. 推进数字化理赔"
    assert _texts(listed, sources=["Strategy_2027.pdf"]) == ["扩大银保合作", "推进数字化理赔"]
    assert _texts("不能。试用期员工的年假只能在转正后使用。") == [
        "试用期员工的年假只能在转正后使用。"
    ]
    assert _texts("不能超过五天。") == ["不能超过五天。"]  # a modal with its verb is judged

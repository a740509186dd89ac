"""The bilingual alias rewrite: a term written in the contexts' other language."""

from __future__ import annotations

from ragspine_action.gates.bilingual import align
from ragspine_action.gates.judge import LexicalJudge

EN = ["ACME HK revenue was USD 1,702 million in FY2025, up 12.4% year on year."]
ZH = ["内地子公司正在进行系统升级，因此管理层未单独披露内地新业务价值。"]


def test_a_chinese_term_is_written_as_english_contexts_write_it() -> None:
    out = align("ACME 香港 revenue 为 USD 1,702 million，同比 up 12.4%", EN)
    assert "hk" in out and "year on year" in out and "香港" not in out


def test_an_english_term_is_written_as_chinese_contexts_write_it() -> None:
    out = align("Management did not disclose Mainland new business value.", ZH)
    assert "管理层" in out and "内地" in out and "新业务价值" in out


def test_one_language_on_both_sides_is_left_alone() -> None:
    claim = "ACME HK revenue was USD 1,702 million."
    assert align(claim, EN) == claim
    assert align("内地管理层未披露。", ["内地管理层未披露新业务价值。"]) == "内地管理层未披露。"


def test_a_term_the_contexts_write_in_both_languages_is_left_alone() -> None:
    assert "香港" in align("香港 revenue rose", ["香港 (Hong Kong) revenue rose 3%."])


def test_a_translated_direction_is_still_compared() -> None:
    judge = LexicalJudge()
    up, down = judge.judge_claims(
        [
            "ACME 香港 FY2025 revenue 为 USD 1,702 million，同比 up 12.4%",
            "ACME 香港 FY2025 收入为 USD 1,702 million，同比下降12.4%",
        ],
        EN,
    )
    assert up.supported and not down.supported
    assert up.claim.startswith("ACME 香港")  # the evidence shows the claim as written

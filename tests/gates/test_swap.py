"""The swap rule (gates/swap.py): a near-copy of the matched context sentence with one term
exchanged is a contradiction; a paraphrase, a reordering or a left-out word is not."""

from __future__ import annotations

import pytest

from ragspine_action.gates.judge import LexicalJudge

JUDGE = LexicalJudge()

CLAIMS = (
    "Claims are settled within fifteen working days of receipt. Appeals go to the review "
    "panel, which meets in the first week of each month."
)
BANK = (
    "The Lisbon branch handles mortgage lending. The Porto branch runs the private "
    "banking desk. Card disputes are resolved by phone or by email."
)
ACCESS = (
    "Access levels are viewer, analyst, approver and auditor. Only approvers and auditors "
    "can export the ledger. Viewers can only read the dashboards."
)
FX = "外汇风险通过远期合约对冲。信用风险是该行最主要的风险。集团在年底前保持资本充足率稳定。"
TEAMS = "法务部负责合同审核，采购部负责供应商管理。两个部门每月汇报一次。"
GROWTH = "2025年运营成本增速快于营业收入增速。"
SPLIT = "Retail made up 65% of deposits and corporate 35%. Deposits grew 4% in 2025."
STORES = "2024年门店数量为80家，2025年增至120家。"
RULES = "新条例适用于全部境内机构。过渡期内，旧系统仍然有效，新系统上线后旧系统立即停用。"


def _supported(claim: str, context: str) -> bool:
    return JUDGE.judge_claims([claim], [context])[0].supported


@pytest.mark.parametrize(
    ("claim", "context", "why"),
    [
        # opposites and closed kinds
        ("Claims are settled within fifteen working weeks of receipt.", CLAIMS, "unit"),
        ("集团在年底前保持资本充足率大幅上升。", FX, "stable/moving"),
        ("新条例适用于全部境外机构。", RULES, "single-character antonym"),
        ("All analysts can export the ledger.", ACCESS, "quantifier"),
        # a term the contexts use for something else
        ("The Porto branch handles mortgage lending.", BANK, "a name from the next sentence"),
        ("Only viewers and analysts can export the ledger.", ACCESS, "co-listed roles"),
        ("外汇风险是该行最主要的风险。", FX, "a compound from another sentence"),
        ("法务部负责供应商管理，采购部负责合同审核。", TEAMS, "two terms exchanged"),
        # only one of the alternatives
        ("Card disputes are only resolved by email.", BANK, "only"),
        # the two sides of a comparison
        ("2025年营业收入增速快于运营成本增速。", GROWTH, "comparison"),
        # a period the contexts give to another sentence
        ("2025年门店数量为80家。", STORES, "period"),
        # two numbers given to each other's slot
        ("Retail made up 35% of deposits and corporate 65%.", SPLIT, "numbers exchanged"),
        ("2024年门店数量为120家，2025年增至80家。", STORES, "numbers exchanged"),
    ],
)
def test_a_swapped_term_fails(claim: str, context: str, why: str) -> None:
    assert not _supported(claim, context), why


@pytest.mark.parametrize(
    ("claim", "context"),
    [
        ("Claims are settled within fifteen working days after receipt.", CLAIMS),
        ("Mortgage lending is handled by the Lisbon branch.", BANK),
        ("Card disputes are resolved by email or by phone.", BANK),
        ("Only auditors and approvers can export the ledger.", ACCESS),  # a list reordered
        ("Viewers can read the dashboards only.", ACCESS),
        ("该行最主要的风险是信用风险。", FX),  # reordered
        ("采购部负责供应商管理，法务部负责合同审核。", TEAMS),  # clauses reordered
        ("2025年，运营成本的增速快于营业收入的增速。", GROWTH),
        ("新条例适用于所有境内机构。", RULES),  # 所有 = 全部
        ("过渡期内旧系统仍然有效。", RULES),
        ("Corporate made up 35% of deposits and retail 65%.", SPLIT),  # numbers moved along
        ("2025年门店数量增至120家，2024年为80家。", STORES),
        # a word moved across a comma is no term exchanged
        (
            "会员卡默认一年有效，可续期为两年或三年。",
            "会员卡默认有效期为一年，可以续期为两年或三年。",
        ),
    ],
)
def test_a_paraphrase_or_reordering_passes(claim: str, context: str) -> None:
    assert _supported(claim, context)


def test_a_synonym_the_contexts_also_use_is_no_swap() -> None:
    context = "Hong Kong premiums increased 7% in 2025, while new business value rose 11%."
    assert _supported("Hong Kong premiums rose 7% in 2025.", context)
    zh = "内地新业务价值按年上升15%，银保渠道保障型产品销量增长。"
    assert _supported("内地新业务价值按年增长15%。", zh)


def test_one_thing_written_two_ways_is_no_swap() -> None:
    context = "ACME HK revenue was USD 1,702 million in FY2025. Hong Kong margins improved."
    assert _supported("ACME Hong Kong revenue was USD 1,702 million in FY2025.", context)


def test_a_name_for_what_the_sentence_describes_is_no_swap() -> None:
    # "The device" is the Q7: a name for a description, not another thing.
    context = "The Q7 camera records in 4K. The device does not support night mode."
    assert _supported("The Q7 does not support night mode.", context)


def test_a_common_word_counts_as_another_thing_only_where_a_sentence_names_both() -> None:
    context = (
        "Employees and contractors must complete security training every year. "
        "Employees may work from home two days a week. Staff in the call centre work shifts."
    )
    assert not _supported("Contractors may work from home two days a week.", context)
    # "staff" is in another sentence only: it may be the same people.
    assert _supported("Staff may work from home two days a week.", context)


def test_a_table_label_is_no_exchanged_word() -> None:
    context = "集团通过资产负债匹配和延长资产久期来管理利率风险。"
    assert _supported("| 利率风险 | 资产负债匹配、延长资产久期 |", context)


def test_the_evidence_names_both_terms() -> None:
    claim = "Only viewers and analysts can export the ledger."
    verdict = JUDGE.judge_claims([claim], [ACCESS])[0]
    assert verdict.reason is not None
    assert "viewers" in verdict.reason and "approvers" in verdict.reason
    assert verdict.matched == "Only approvers and auditors can export the ledger."

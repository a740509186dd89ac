"""The lexical judge sees numbers, negation and direction, and says why."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine_action.gates import LexicalJudge, make_judge
from ragspine_action.gates.judge import JUDGE_KINDS

EXPENSE = (
    "Hotel costs are reimbursed up to 180 EUR per night in capital cities and 140 EUR "
    "elsewhere. Meal allowances are capped at 40 EUR per day. Expenses must be submitted "
    "within 30 days with manager approval. Claims submitted after 90 days are not reimbursed."
)
LEAVE = (
    "Full-time employees accrue 25 days of paid annual leave per calendar year. During the "
    "six-month probation period, employees may take at most 5 days of leave."
)
ZH = "2025年集团新业务价值为58亿美元，同比增长12%。香港REVENUE下降主要因MCV客群收缩，代理人渠道保持稳定。"
JUDGE = LexicalJudge()


def verdict(claim: str, *contexts: str) -> tuple[bool, str | None]:
    (v,) = JUDGE.judge_claims([claim], list(contexts))
    return v.supported, v.reason


@pytest.mark.parametrize(
    "claim",
    [
        "Meal allowances are capped at 40 EUR per day.",
        "Meal allowances are capped at 40 EUR per day",
        "Meal allowances are capped at ４０ EUR per day.",  # full-width digits
        "Claims submitted after 90 days are not reimbursed.",  # negation on both sides
        "Expenses must be submitted within 30 days with manager approval.",
    ],
)
def test_faithful_claims_are_supported(claim: str) -> None:
    assert verdict(claim, EXPENSE) == (True, None)


@pytest.mark.parametrize(
    ("claim", "reason"),
    [
        ("Meal allowances are capped at 400 EUR per day.", "numbers not in the contexts: 400"),
        ("Meal allowances are capped at 4.0 EUR per day.", "numbers not in the contexts: 4.0"),
        ("Expenses may be submitted within 90 days without approval.", "negated"),
        ("Claims submitted after 90 days are reimbursed.", "the context negates it"),
        ("Meal allowances are never capped.", "negated"),
    ],
)
def test_numbers_and_negation_are_not_invisible(claim: str, reason: str) -> None:
    supported, why = verdict(claim, EXPENSE)
    assert not supported
    assert why is not None and why.startswith(reason)


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("2025年集团新业务价值为58亿美元。", True),
        ("集团2025年新业务价值约为5,800,000,000美元。", True),  # 58亿 = 5.8 billion
        ("2025年集团新业务价值为85亿美元。", False),
        ("2025年集团新业务价值同比下降12%。", False),  # opposite direction
        ("香港 REVENUE 并非因 MCV 客群收缩而下降。", False),  # 并非
        ("代理人渠道没有保持稳定。", False),  # 没有
        ("代理人渠道保持稳定。", True),
    ],
)
def test_chinese_numbers_negation_and_direction(claim: str, supported: bool) -> None:
    assert verdict(claim, ZH)[0] is supported


def test_the_matched_context_sentence_and_score_are_reported() -> None:
    (v,) = JUDGE.judge_claims(["Meal allowances are capped at 400 EUR per day."], [EXPENSE])
    assert v.matched == "Meal allowances are capped at 40 EUR per day."
    assert v.score == 1.0
    assert v.to_json()["verdict"] == "unsupported"


def test_inflections_match_and_decide_the_best_clause() -> None:
    router = (
        "The X200 router supports Wi-Fi 6 and up to 64 connected devices. "
        "The device does not support mesh networking."
    )
    assert verdict("The X200 supports mesh networking.", router)[0] is False
    assert verdict("The X200 does not support mesh networking.", router)[0] is True


def test_a_negated_clause_inside_the_claim_agrees() -> None:
    context = "Leave accrues monthly, but not during probation."
    assert verdict("Leave does not accrue during probation.", context)[0] is True
    assert verdict("Leave accrues monthly.", context)[0] is True


def test_the_threshold_is_configurable() -> None:
    claim = "Meal allowances are capped at 40 EUR per day for interns."
    assert LexicalJudge(0.6).judge_claims([claim], [EXPENSE])[0].supported
    assert not LexicalJudge(0.95).judge_claims([claim], [EXPENSE])[0].supported


@pytest.mark.parametrize(
    ("answer", "passed"),
    [
        ("Full-time staff get 25 days of paid annual leave each calendar year.", True),
        ("Full-time employees accrue 20 days of paid annual leave per calendar year.", False),
        ("Full-time employees do not accrue 25 days of paid annual leave per year.", False),
    ],
)
def test_answer_accuracy_checks_numbers_and_negation_against_the_reference(
    answer: str, passed: bool
) -> None:
    reference = "Full-time employees accrue 25 days of paid annual leave per calendar year."
    got = JUDGE.judge_reference(reference, answer, 0.6)
    assert got.passed is passed
    assert len(got.claims) == 1


def test_make_judge_knows_its_kinds() -> None:
    assert JUDGE_KINDS == ("lexical", "llm")
    judge = make_judge("lexical", threshold=0.7)
    assert judge.name == "lexical" and isinstance(judge, LexicalJudge) and judge.threshold == 0.7
    with pytest.raises(ValueError, match="unknown judge"):
        make_judge("oracle")
    with pytest.raises(ValueError, match="needs its settings"):
        make_judge("llm")


WORDS = st.sampled_from(
    ["budget", "rises", "staff", "travel", "office", "quarterly", "review", "region"]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(WORDS, min_size=3, max_size=8), st.integers(1, 10**6), st.integers(1, 10**6))
def test_a_number_the_contexts_do_not_have_is_never_supported(
    words: list[str], have: int, claim_number: int
) -> None:
    context = " ".join(words) + f" {have:,}."
    claim = " ".join(words) + f" {claim_number}."
    supported, _ = verdict(claim, context)
    assert supported is (have == claim_number)


@settings(max_examples=200, deadline=None)
@given(st.lists(WORDS, min_size=3, max_size=8), st.sampled_from(["not", "never", "without"]))
def test_adding_a_negation_to_a_supported_claim_makes_it_unsupported(
    words: list[str], negation: str
) -> None:
    context = "The " + " ".join(words) + " applies."
    assert verdict(context, context)[0] is True
    assert verdict("The " + " ".join(words) + f" {negation} applies.", context)[0] is False


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("Returns are accepted within 30 days even if the item is used.", False),
        ("Access is allowed for contractors.", False),
        ("Returns are accepted within 30 days if the item is unused.", True),
    ],
)
def test_a_word_the_context_negates_with_a_prefix_is_a_contradiction(
    claim: str, supported: bool
) -> None:
    context = (
        "Returns are accepted within 30 days if the item is unused and in its original "
        "packaging. Access is disallowed for contractors."
    )
    assert verdict(claim, context)[0] is supported


@pytest.mark.parametrize(
    ("reference", "answer", "passes"),
    [
        # Another cause for the same effect fails; the reference's cause reworded passes.
        (
            "Premium income fell 6% in 2025 because of weaker agency recruitment in Malaysia.",
            "Premium income fell 6% in 2025 because of new pricing rules in Malaysia.",
            False,
        ),
        (
            "Premium income fell 6% in 2025 because of weaker agency recruitment in Malaysia.",
            "Premium income fell 6% in 2025, owing to weaker recruitment of agents in Malaysia.",
            True,
        ),
        ("门店客流下降10%，原因是周边道路施工。", "门店客流下降10%，原因是会员折扣取消。", False),
        ("门店客流下降10%，原因是周边道路施工。", "由于周边道路施工，门店客流下降了10%。", True),
        # The reference's own cause with a citation after it: the citation is no cause.
        (
            "Management uses operating profit because it removes market volatility.",
            "Management uses operating profit because it removes market volatility."
            "（来源：ACME_Accounting_Note.pdf · page=3）",
            True,
        ),
        # A cause the reference gives for no effect of the answer is not judged here.
        (
            "Premium income fell 6% in 2025.",
            "Premium income fell 6% in 2025 because of new pricing rules.",
            True,
        ),
    ],
)
def test_answer_accuracy_fails_another_cause(reference: str, answer: str, passes: bool) -> None:
    verdict = LexicalJudge().judge_reference(reference, answer, 0.6)
    assert verdict.passed is passes, [v.reason for v in verdict.claims]
    if not passes:
        assert any("cause" in (v.reason or "") for v in verdict.claims)

"""Faithful answers the lexical judge failed (session 7): negation idioms, derivations and
synonyms, a name for a description the passage binds, terse answer_accuracy answers.
Each rule is tested both ways: the faithful form passes, its twin still fails."""

from __future__ import annotations

import pytest

from ragspine_action.gates import LexicalJudge

ROAMING = "On the Basic plan, EU roaming is included at no extra cost up to 10 GB per month."
RESIT = "Students may resit a failed module exam at most twice."
HOTEL = (
    "The nightly hotel cap is 180 GBP in London and 120 GBP elsewhere in the UK. "
    "Bookings above the cap require prior approval from the budget holder."
)
LEAVE = "Employees receive 25 days of paid leave per year."
CN_LEAVE = "员工每年享有25天带薪年假。"
BANK = (
    "Nordhaven Bank reported net income of EUR 1.2 billion for 2025. The bank's CET1 "
    "ratio was 14.2% at year end. Eastmoor Bank reported a loss."
)
REFERENCE = (
    "Full-time employees accrue 25 days of paid annual leave per calendar year. Up to 10 "
    "unused days may be carried over to the next year."
)
CN_REFERENCE = "全职员工每个日历年享有25天带薪年假。未休年假最多可结转10天至下一年度。"


def _supported(claim: str, context: str) -> bool:
    return LexicalJudge().judge_claims([claim], [context])[0].supported


@pytest.mark.parametrize(
    ("claim", "context", "supported"),
    [
        ("EU roaming is included up to 10 GB a month.", ROAMING, True),
        ("EU roaming is not included on the Basic plan.", ROAMING, False),
        ("You can resit it at most twice.", RESIT, True),
        ("You can book up to 180 GBP per night in London.", HOTEL, True),
        ("You can book up to 210 GBP per night in London.", HOTEL, False),
        ("Staff get 25 days of paid leave a year.", LEAVE, True),
        ("Staff get 30 days of paid leave a year.", LEAVE, False),
        ("职工每年享受25天带薪年假。", CN_LEAVE, True),
        ("职工每年享受30天带薪年假。", CN_LEAVE, False),
        ("Nordhaven's CET1 ratio was 14.2% at year end.", BANK, True),
        ("Eastmoor's CET1 ratio was 14.2% at year end.", BANK, False),
    ],
)
def test_faithful_forms_pass_and_their_twins_fail(
    claim: str, context: str, supported: bool
) -> None:
    assert _supported(claim, context) is supported


@pytest.mark.parametrize(
    ("answer", "reference", "passed"),
    [
        ("Yes, 25 days.", REFERENCE, True),
        ("Yes, 30 days.", REFERENCE, False),
        ("No, 25 days.", REFERENCE, False),
        ("10 days.", REFERENCE, False),
        ("可以，25天。", CN_REFERENCE, True),
        ("可以，30天。", CN_REFERENCE, False),
    ],
)
def test_a_terse_answer_states_the_key_fact(answer: str, reference: str, passed: bool) -> None:
    assert LexicalJudge().judge_reference(reference, answer, 0.6).passed is passed

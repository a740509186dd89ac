"""Guards for rewordings read as faithful: an instruction called optional, and a clause
cut from its condition compared with the prohibition its own words match."""

from __future__ import annotations

import pytest

from ragspine_action.gates import LexicalJudge

MAINTENANCE = (
    "Replace the chiller air filters every 3 months. Inspect the condenser coils every 6 "
    "months. Before any maintenance, isolate the power supply and apply a lock-out tag."
)
DEVICES = (
    "Personal devices may access company email only through the approved mobile management "
    "app. Devices must have screen lock enabled and an operating system that is still "
    "supported by the vendor. Jailbroken or rooted devices are blocked."
)
RECEIPTS = (
    "For expenses under 25 EUR, no receipt is required. Submit the receipt for all other expenses."
)


@pytest.mark.parametrize(
    ("context", "claim", "supported"),
    [
        (MAINTENANCE, "You do not need to isolate the power supply before maintenance.", False),
        (MAINTENANCE, "Isolating the power supply is not required for filter replacement.", False),
        (MAINTENANCE, "A lock-out tag is not required.", False),
        (MAINTENANCE, "The power supply must be isolated before any maintenance.", True),
        (
            "Wear safety glasses in the workshop at all times.",
            "Safety glasses are optional in the workshop.",
            False,
        ),
        (
            "Wear safety glasses in the workshop at all times.",
            "Safety glasses must be worn in the workshop at all times.",
            True,
        ),
        # Called optional by the contexts themselves: no contradiction.
        (RECEIPTS, "You do not need to submit a receipt for expenses under 25 EUR.", True),
        (
            "Submitting a receipt is optional for expenses under 25 EUR.",
            "You don't need to submit a receipt for expenses under 25 EUR.",
            True,
        ),
        # A permission with a condition against a prohibition.
        (DEVICES, "Jailbroken or rooted devices are allowed if screen lock is enabled.", False),
        (DEVICES, "Rooted devices may be used if screen lock is enabled.", False),
        (DEVICES, "Jailbroken devices are blocked even if screen lock is enabled.", True),
        (
            DEVICES,
            "Personal devices may access company email if the approved mobile management app is used.",
            True,
        ),
        # A condition supposes; it asserts nothing.
        (DEVICES, "If a device is rooted, it is blocked.", True),
    ],
)
def test_guard(context: str, claim: str, supported: bool) -> None:
    verdict = LexicalJudge().judge_claims([claim], [context])[0]
    assert verdict.supported is supported, verdict.reason


FLIGHTS = (
    "Economy class must be booked for flights shorter than 6 hours. Business class is "
    "permitted for flights of 6 hours or longer."
)


@pytest.mark.parametrize(
    ("context", "claim", "supported"),
    [
        # "regardless of …" where the contexts bound the rule: the bound is dropped.
        (FLIGHTS, "Business class is permitted on all flights, regardless of duration.", False),
        (
            FLIGHTS,
            "Regardless of the airline, business class is permitted for flights of 6 hours or longer.",
            True,
        ),
        (
            "Refunds are issued within 14 days for orders over 50 EUR.",
            "Refunds are issued within 14 days, whatever the order value.",
            False,
        ),
        (
            "报销上限为每晚800元。超过5000元的差旅须经总监审批。",
            "差旅无论金额多少均须经总监审批。",
            False,
        ),
        (
            "报销上限为每晚800元。超过5000元的差旅须经总监审批。",
            "超过5000元的差旅须经总监审批，无论目的地。",
            True,
        ),
        ("年满55岁的员工每年可享受一次免费体检。", "不论年龄，员工每年可享受一次免费体检。", False),
        # The contexts say "regardless" themselves.
        (
            "All staff receive the annual bonus regardless of their start date, provided they are employed on 31 December.",
            "Staff receive the annual bonus regardless of start date if employed on 31 December.",
            True,
        ),
    ],
)
def test_regardless_of_a_bound(context: str, claim: str, supported: bool) -> None:
    verdict = LexicalJudge().judge_claims([claim], [context])[0]
    assert verdict.supported is supported, verdict.reason


QBR = (
    "Hong Kong revenue rose 6% in Q2 2025. The customer base remained stable. Net interest "
    "margin narrowed to 1.62%."
)
QBR_ZH = (
    "香港区2025年第二季度收入为17.02亿港元，环比增长6%。净息差收窄至1.62%。MCV客群规模保持稳定。"
)


@pytest.mark.parametrize(
    ("context", "claim", "supported"),
    [
        # A change said of what held steady, and steadiness said of what changed.
        (QBR, "The customer base grew.", False),
        (QBR, "Net interest margin was stable at 1.62%.", False),
        (QBR, "Net interest margin fell to 1.62%.", True),
        (QBR, "The customer base remained stable while revenue rose 6%.", True),
        (QBR_ZH, "MCV客群规模明显收缩。", False),
        (QBR_ZH, "MCV客群规模大幅增长。", False),
        (QBR_ZH, "MCV客群规模保持稳定。", True),
        # "remained the same", read from the clause's tokens (in no order): every run alike
        (
            "Revenue rose 6% in Q2. The customer base remained the same.",
            "The customer base grew.",
            False,
        ),
        # "Steady growth" says a direction, not steadiness.
        (
            "Premiums showed steady growth of 4% a year.",
            "Premiums grew steadily by 4% a year.",
            True,
        ),
    ],
)
def test_held_steady(context: str, claim: str, supported: bool) -> None:
    verdict = LexicalJudge().judge_claims([claim], [context])[0]
    assert verdict.supported is supported, verdict.reason


@pytest.mark.parametrize(
    ("reference", "answer", "passes"),
    [
        # A rate put per another period: per night is a daily rate, per week is not.
        (
            "The hotel cap is 180 EUR per night in Europe.",
            "The hotel cap is 180 EUR per week in Europe.",
            False,
        ),
        (
            "The hotel cap is 180 EUR per night in Europe.",
            "In Europe hotels are capped at 180 EUR a night.",
            True,
        ),
        # Another period beside a shared unit (每人): still another rate.
        ("一线城市住宿费标准为每人每晚600元。", "一线城市住宿费标准为每人每月600元。", False),
        ("一线城市住宿费标准为每人每晚600元。", "一线城市住宿费标准为每人每天600元。", True),
    ],
)
def test_a_rate_per_another_period(reference: str, answer: str, passes: bool) -> None:
    judge = LexicalJudge()
    assert judge.judge_reference(reference, answer, 0.6).passed is passes
    assert judge.judge_claims([answer], [reference])[0].supported is passes


GIFTS = (
    "Employees may accept gifts worth up to 500 HKD from business partners. Gifts above that "
    "value must be declared to Compliance within 5 working days. Cash gifts are never permitted."
)


@pytest.mark.parametrize(
    ("context", "claim", "supported"),
    [
        # Every word of a negated context clause in an affirmed claim whose number pulls the
        # match to another sentence: still a contradiction.
        (GIFTS, "Cash gifts are permitted up to 500 HKD.", False),
        (GIFTS, "Gifts up to 500 HKD are permitted, but cash gifts are never permitted.", True),
        (
            "Interns are not eligible for the annual bonus. Full-time staff receive a bonus of up to 10% of salary.",
            "Interns are eligible for an annual bonus of up to 10% of salary.",
            False,
        ),
        (
            "Interns are not eligible for the annual bonus. Full-time staff receive a bonus of up to 10% of salary.",
            "Full-time staff are eligible for a bonus of up to 10% of salary; interns are not eligible.",
            True,
        ),
    ],
)
def test_a_denied_clause_inside_an_affirmed_claim(
    context: str, claim: str, supported: bool
) -> None:
    verdict = LexicalJudge().judge_claims([claim], [context])[0]
    assert verdict.supported is supported, verdict.reason


@pytest.mark.parametrize(
    ("context", "claim", "supported"),
    [
        # The matched sentence's own term, reworded around: no swap.
        (
            "A waiting period of 30 days applies from the cover start date for dental claims.",
            "30-day waiting period from the cover start date for dental claims.",
            True,
        ),
        (
            "Reuse of the last 8 passwords is not allowed.",
            "The last 8 passwords may not be reused.",
            True,
        ),
        (
            "Any boiler that fails the pressure test must be shut down immediately.",
            "Failed test: the boiler must be shut down immediately.",
            True,
        ),
        # Two terms of one sentence given each other's places still swap.
        (
            "The audit committee reviews the financial statements, and the risk committee reviews the risk appetite.",
            "The audit committee reviews the risk appetite, and the risk committee reviews the financial statements.",
            False,
        ),
    ],
)
def test_the_sentences_own_term_is_no_swap(context: str, claim: str, supported: bool) -> None:
    verdict = LexicalJudge().judge_claims([claim], [context])[0]
    assert verdict.supported is supported, verdict.reason

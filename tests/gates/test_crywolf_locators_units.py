"""Faithful answers the faithfulness gate failed (session 9, blind red team classes FA5-FA8):
durations in another unit and a period named beside a year of another fact, meta lines,
document locators inside a sentence, a question echoed on the answer's line. Each form is
tested both ways: the faithful answer passes, a twin that changes a fact still fails."""

from __future__ import annotations

import pytest

from ragspine_action.gates import GateSettings
from ragspine_action.gates.faithfulness import Faithfulness
from ragspine_action.golden.models import GoldenCase
from ragspine_action.outcomes.model import Outcome

LEAVE = "Staff are entitled to 20 days of paid leave each year."
CN_LEAVE = "员工每年可享受20天带薪假。"
DEPOSIT = "The security deposit is returned within 21 days after move-out."
CN_DEPOSIT = "押金在退租后21天内退还。"


def _passes(answer: str, context: str, question: str = "What does the policy say?") -> bool:
    case = GoldenCase.model_validate(
        {
            "id": "c",
            "question": question,
            "case_type": "narrative",
            "expected": {"narrative_doc": "rules.pdf"},
        }
    )
    outcome = Outcome.model_validate(
        {"id": "c", "answer": answer, "sources": ["rules.pdf"], "contexts": [context]}
    )
    return Faithfulness().check(case, outcome, GateSettings()).passed


@pytest.mark.parametrize(
    ("answer", "context", "passes"),
    [
        ("The deposit is returned within three weeks after move-out.", DEPOSIT, True),
        ("The deposit is returned within four weeks after move-out.", DEPOSIT, False),
        ("The deposit is returned within 21 weeks after move-out.", DEPOSIT, False),
        ("押金在退租后三周内退还。", CN_DEPOSIT, True),
        ("押金在退租后两周内退还。", CN_DEPOSIT, False),
        ("The licence runs for two years.", "The licence runs for 24 months.", True),
        ("The licence runs for three years.", "The licence runs for 24 months.", False),
        ("Refunds take twenty-one days.", "Refunds take 21 days.", True),
        (
            "In 2024 the insurer, established in 1987, paid 3,100 claims.",
            "Established in 1987, the insurer paid 3,100 claims in 2024.",
            True,
        ),
        (
            "In 2024 the insurer, established in 1987, paid 3,400 claims.",
            "Established in 1987, the insurer paid 3,100 claims in 2024.",
            False,
        ),
    ],
)
def test_durations_and_years(answer: str, context: str, passes: bool) -> None:
    assert _passes(answer, context) is passes


@pytest.mark.parametrize(
    ("answer", "context", "passes"),
    [
        (f"Here's a brief rundown of the leave policy. {LEAVE}", LEAVE, True),
        (f"{LEAVE} Don't hesitate to reach out with any other questions.", LEAVE, True),
        (f"{LEAVE} If you need any further clarification, I can look into it.", LEAVE, True),
        (f"以下为您归纳了相关内容：{CN_LEAVE}", CN_LEAVE, True),
        (f"{CN_LEAVE}若需了解更多细节，欢迎继续提问。", CN_LEAVE, True),
        (
            "Here's a brief rundown: staff are entitled to 25 days of paid leave each year.",
            LEAVE,
            False,
        ),
        ("以下为您归纳了相关内容：员工每年可享受25天带薪假。", CN_LEAVE, False),
    ],
)
def test_meta_lines(answer: str, context: str, passes: bool) -> None:
    assert _passes(answer, context) is passes


@pytest.mark.parametrize(
    ("answer", "context", "passes"),
    [
        (f"Under Section 2(c), {LEAVE[0].lower()}{LEAVE[1:]}", LEAVE, True),
        (f"{LEAVE[:-1]} (cl. 4.3).", LEAVE, True),
        (f"As set out in clause 4.3, {LEAVE[0].lower()}{LEAVE[1:]}", LEAVE, True),
        (f"{LEAVE[:-1]}, per §3.1.", LEAVE, True),
        (f"根据第2.3节，{CN_LEAVE}", CN_LEAVE, True),
        (f"依据4.1条的规定，{CN_LEAVE}", CN_LEAVE, True),
        (f"{CN_LEAVE[:-1]}（见第3.1条）。", CN_LEAVE, True),
        (
            "Under Section 2(c), staff are entitled to 25 days of paid leave each year.",
            LEAVE,
            False,
        ),
        ("根据第2.3节，员工每年可享受25天带薪假。", CN_LEAVE, False),
        ("Staff are not entitled to paid leave (cl. 4.3).", LEAVE, False),
    ],
)
def test_locators_inside_a_sentence(answer: str, context: str, passes: bool) -> None:
    assert _passes(answer, context) is passes


@pytest.mark.parametrize(
    ("answer", "passes"),
    [
        ("Q: How many days of paid leave? A: 20 days each year.", True),
        ("Q: How many days of paid leave? A: 25 days each year.", False),
    ],
)
def test_question_echoed_on_the_answer_line(answer: str, passes: bool) -> None:
    assert _passes(answer, LEAVE, "How many days of paid leave do staff get?") is passes


PLAN = "The Plus plan costs 12 EUR a month and includes 50 GB of storage."
CN_PLAN = "Plus套餐每月收费12欧元，包含50GB存储空间。"


@pytest.mark.parametrize(
    ("answer", "context", "passes"),
    [
        ("- **Monthly price:** 12 EUR\n- **Storage quota:** 50 GB", PLAN, True),
        ("- **Monthly price:** 15 EUR\n- **Storage quota:** 50 GB", PLAN, False),
        (
            "| Item | Value |\n|---|---|\n| Monthly price | 12 EUR |\n| Storage | 50 GB |",
            PLAN,
            True,
        ),
        (
            "| Item | Value |\n|---|---|\n| Monthly price | 12 EUR |\n| Storage | 500 GB |",
            PLAN,
            False,
        ),
        ("- **月费：** 12欧元\n- **存储额度：** 50GB", CN_PLAN, True),
        ("- **月费：** 20欧元\n- **存储额度：** 50GB", CN_PLAN, False),
        ("Setup: free of charge", "Setup is provided at no charge.", True),
        ("开通费用：免费", "开通不收取任何费用。", True),
        ("开通费用：30欧元", "开通不收取任何费用。", False),
        ("Exclusions: water damage", "Water damage is excluded from the policy.", True),
        ("Covered: water damage", "Water damage is excluded from the policy.", False),
        ("除外责任：水渍损失", "水渍损失不在保障范围内。", True),
    ],
)
def test_label_lines(answer: str, context: str, passes: bool) -> None:
    assert _passes(answer, context, "What does the plan include?") is passes

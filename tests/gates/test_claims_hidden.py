"""Claims hidden in presentation are judged (References items, headings, table headers,
rhetorical questions); Chinese negation is compared by what it negates; level and
requirement words are directions."""

from __future__ import annotations

import pytest

from ragspine_action.gates.claims import extract_claims
from ragspine_action.gates.judge import LexicalJudge


def texts(answer: str, sources: tuple[str, ...] = ("policy.pdf",)) -> list[str]:
    return [c.text for c in extract_claims(answer, sources=sources)]


@pytest.mark.parametrize(
    ("answer", "hidden"),
    [
        ("Leave is 20 days.\n\nReferences:\n1. policy.pdf — but interns get 40 days", "interns"),
        (
            "Leave is 20 days.\n\nSources:\n- policy — note: managers may approve unlimited leave",
            "unlimited",
        ),
        ("## Interns will get double leave next year\nLeave is 20 days.", "Interns will"),
        ("### 公司将于明年取消年假\n年假为20天。", "取消年假"),
        ("| Interns get 40 days | always |\n|---|---|\n| Leave | 20 days |", "Interns get 40"),
        ("Leave is 20 days. Did you know that interns get 40 days?", "interns get 40 days"),
        ("年假为20天。难道实习生不是有40天吗？", "实习生"),
        ("Leave is 20 days, isn't it?", "Leave is 20 days"),
    ],
)
def test_a_claim_in_presentation_is_judged(answer: str, hidden: str) -> None:
    assert any(hidden in t for t in texts(answer)), texts(answer)


@pytest.mark.parametrize(
    "answer",
    [
        "## Annual leave\nLeave is 20 days.",
        "## How leave accrues\nLeave is 20 days.",
        "### 年假规定\n年假为20天。",
        "| Item | Days |\n|---|---:|\nLeave is 20 days.",
        "Leave is 20 days.\n\nReferences:\n1. policy.pdf, p. 3\n2. [HR FAQ](https://hr.example.com/faq)",
        "Which year do you mean? Leave is 20 days.",
    ],
)
def test_titles_and_real_questions_are_not_claims(answer: str) -> None:
    assert texts(answer) == [t for t in texts(answer) if "20" in t] and texts(answer)


ZH = "保险公司须按季度提交报告，但无须披露模型参数。低利率环境使收益承压。"


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("保险公司无须按季度提交报告。", False),  # the other negation of the clause is not this one
        ("保险公司须披露模型参数。", False),
        ("保险公司无须披露模型参数。", True),
        ("保险公司须按季度提交报告。", True),
        ("高利率环境使收益承压。", False),
        ("低利率环境使收益承压。", True),
    ],
)
def test_chinese_negation_scope_and_levels(claim: str, supported: bool) -> None:
    [verdict] = LexicalJudge().judge_claims([claim], [ZH])
    assert verdict.supported is supported, verdict


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("Security keys are optional for administrators.", False),
        ("Security keys are mandatory for administrators.", True),
        ("Claims experience was worse than expected.", False),
    ],
)
def test_requirement_and_comparison_words_are_directions(claim: str, supported: bool) -> None:
    context = "Security keys are mandatory for administrators. Claims experience was better than expected."
    [verdict] = LexicalJudge().judge_claims([claim], [context])
    assert verdict.supported is supported, verdict


FREQ = "Contractors are paid 350 EUR per day. Timesheets are submitted weekly. 客户资料每季度复核一次。"


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("Contractors are paid 350 EUR per week.", False),
        ("Contractors are paid 350 EUR a day.", True),
        ("Contractors are paid 350 EUR daily.", True),
        ("Timesheets are submitted every month.", False),
        ("Timesheets are submitted weekly by contractors.", True),
        ("客户资料每年复核一次。", False),
        ("客户资料每季复核一次。", True),
    ],
)
def test_a_claim_saying_another_frequency_is_unsupported(claim: str, supported: bool) -> None:
    [verdict] = LexicalJudge().judge_claims([claim], [FREQ])
    assert verdict.supported is supported, verdict

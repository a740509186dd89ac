"""A claim that lifts a bound its context sets, and a remark after a doc name in a bracket."""

from __future__ import annotations

from ragspine_action.gates.claims import extract_claims
from ragspine_action.gates.judge import LexicalJudge

CONTEXT = "Managers may approve up to 5 days of unpaid leave per year."


def test_no_limit_against_a_bound_fails_and_the_bound_passes() -> None:
    judge = LexicalJudge()
    lifted = judge.judge_claims(["Managers may approve unlimited unpaid leave."], [CONTEXT])[0]
    assert not lifted.supported and "bound" in (lifted.reason or "")
    kept = judge.judge_claims(["Managers may approve up to 5 days of unpaid leave."], [CONTEXT])
    assert kept[0].supported
    zh = judge.judge_claims(["经理可批准不限天数的无薪假。"], ["经理每年最多可批准5天无薪假。"])[0]
    assert not zh.supported


def test_a_remark_after_a_doc_name_and_a_dash_is_a_claim_of_its_own() -> None:
    answer = "Leave is 25 days (handbook.pdf — the board will double it next year)."
    texts = [c.text for c in extract_claims(answer, sources=["handbook.pdf"])]
    assert texts == ["Leave is 25 days", "the board will double it next year"]
    only = [
        c.text
        for c in extract_claims("Leave is 25 days (handbook.pdf — p. 3).", sources=["handbook.pdf"])
    ]
    assert only == ["Leave is 25 days"]

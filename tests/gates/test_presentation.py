"""Presentation sentences (courtesy, preamble, meta) are no claims; a claim dressed as one is."""

from __future__ import annotations

import pytest

from ragspine_action.gates.claims import extract_claims
from ragspine_action.gates.judge import LexicalJudge
from ragspine_action.gates.presentation import is_presentation

PRESENTATION = [
    "Let me check the documents.",
    "I found the following in the retrieved sources:",
    "I'd be happy to help.",
    "Here is what I found:",
    "Hope this helps!",
    "Glad I could help.",
    "Let me look through the knowledge base for you.",
    "Please feel free to ask if you need further details.",
    "I'd be happy to help with anything else.",
    "好的，以下是回答。",
    "当然可以。",
    "很高兴为您解答。",
    "注：以上信息摘自检索到的文档。",
    "以上信息来源于知识库。",
    "让我查阅一下相关资料。",
]

CLAIMS = [
    "I found that profits will triple.",
    "Let me check: leave is 25 days.",
    "I found 3 documents.",
    "The documents do not mention a bonus.",
    "以上信息来源于知识库，利润将翻三倍。",
    "很高兴告诉您，公司将派发特别股息。",
    "以下是三个要点。",
    "注：以上信息摘自第3页。",
]


@pytest.mark.parametrize("sentence", PRESENTATION)
def test_presentation_is_no_claim(sentence: str) -> None:
    assert is_presentation(sentence)
    assert extract_claims(sentence) == []


@pytest.mark.parametrize("sentence", CLAIMS)
def test_a_domain_word_or_number_makes_a_claim(sentence: str) -> None:
    assert not is_presentation(sentence)


CONTEXT = ["Full-time employees accrue 25 days of paid annual leave per calendar year."]


@pytest.mark.parametrize(
    ("answer", "faithful"),
    [
        (
            "Let me check the documents. Full-time employees accrue 25 days of paid annual leave "
            "per calendar year. Hope this helps!",
            True,
        ),
        ("I found that profits will triple. Let me check the documents.", False),
        ("Here is what I found: the company will double every bonus.", False),
    ],
)
def test_faithfulness_over_presentation(answer: str, faithful: bool) -> None:
    judge = LexicalJudge()
    claims = [c.text for c in extract_claims(answer)]
    verdicts = judge.judge_claims(claims, CONTEXT)
    assert all(v.supported for v in verdicts) is faithful


@pytest.mark.parametrize(
    ("answer", "claim"),
    [
        (
            "Interest rate risk is the main market risk <sup>1</sup>.",
            "Interest rate risk is the main market risk.",
        ),
        (
            "Interest rate risk is the main market risk.<sup>[2]</sup>",
            "Interest rate risk is the main market risk.",
        ),
        ("利率风险是最主要的市场风险¹。", "利率风险是最主要的市场风险。"),
        (
            "Risk is up <sup>see note: profits triple</sup>.",
            "Risk is up <sup>see note: profits triple</sup>.",
        ),
    ],
)
def test_superscript_footnote_markers_are_no_claim(answer: str, claim: str) -> None:
    assert [c.text for c in extract_claims(answer)] == [claim]


@pytest.mark.parametrize(
    ("answer", "faithful"),
    [
        (
            "Full-time employees accrue 25 days of paid annual leave per calendar year. "
            "This answer is based only on the provided handbook.",
            True,
        ),
        (
            "Full-time employees accrue 25 days of paid annual leave per calendar year. "
            "The information above comes from the HR handbook.",
            True,
        ),
        (
            "Full-time employees accrue 25 days of paid annual leave per calendar year. "
            "This answer is based only on the handbook, which also says part-time staff "
            "accrue 40 days.",
            False,
        ),
        (
            "Full-time employees accrue 25 days of paid annual leave per calendar year. "
            "This answer was generated from the handbook, and unused leave is paid out in cash.",
            False,
        ),
        (
            "Full-time employees accrue 25 days of paid annual leave per calendar year. "
            "The information above comes from the handbook; managers get 40 days.",
            False,
        ),
    ],
)
def test_a_disclaimer_does_not_carry_a_joined_claim(answer: str, faithful: bool) -> None:
    """A disclaimer line is framing only up to a joined clause; what it joins is judged."""
    judge = LexicalJudge()
    claims = [c.text for c in extract_claims(answer)]
    verdicts = judge.judge_claims(claims, CONTEXT)
    assert all(v.supported for v in verdicts) is faithful

"""Sentence choice: a narrative answer carries the sentence(s) holding the question's terms
(not the whole page), brings the sentence a kept one refers back to ("因此下降" needs the
rule that caused it), and cites the passage its sentences come from — in both modes."""

from __future__ import annotations

import csv
from datetime import date
from pathlib import Path

import pytest

from ragspine_action.golden import Expected, GoldenCase
from ragspine_action.systems.reference import ReferenceSystem
from ragspine_action.systems.reference.kb import DEFAULT_DATA_DIR, KnowledgeBase, build_kb
from ragspine_action.systems.reference.text import split_sentences

MODES = ("tool", "agent")
QUESTIONS = Path(__file__).parents[2] / "data" / "reference_dev" / "english_passage_questions.csv"

# (question, a sentence fragment the answer must carry, one it must leave out or None)
CASES = [
    (
        "What is the regulatory intervention level under the RBC regime?",
        "监管干预水平设定为订明资本额的百分之一百",
        "利率风险和股票风险",
    ),
    (
        "Which risks are the main components of ACME Hong Kong's prescribed capital?",
        "利率风险和股票风险是ACME香港订明资本额的主要组成部分",
        "压力测试",
    ),
    ("How often does the board review the dividend policy?", "董事会每年审视股息政策一次", None),
    ("董事会多久审视一次股息政策？", "董事会每年审视股息政策一次", None),
    ("How does the group hedge its currency risk?", "集团对部分外币资产进行对冲", None),
    (
        "What does management see as the core driver of revenue growth?",
        "收入增长的核心驱动因素是代理人队伍质量的提升",
        "营运利润增长主要来自",
    ),
    (
        "Why does management use operating profit?",
        "removes market volatility",
        None,
    ),
    (
        "How often does the board risk committee review cyber security reports?",
        "董事会风险委员会每季度审阅网络安全风险报告",
        "渗透测试",
    ),
    (
        "What does ACME plan for inclusive insurance?",
        "扩大普惠保险产品的覆盖范围",
        "高碳排放资产",
    ),
    # a cause asked about a figure is answered from the passage, not with the figure
    ("What caused mainland profit growth to be so moderate?", "低利率环境压缩了投资利差", None),
    (
        "Where did the Hong Kong business's revenue growth come from?",
        "收入增长主要来自代理渠道",
        None,
    ),
    ("What drives the mainland's new business sales?", "新业务销售由银保渠道带动", None),
    ("营运利润与PROFIT指标有什么关系？", "Operating profit is the PROFIT metric", None),
    # "what happened to" an unreported figure is a narrative question, not a value refused
    (
        "What happened to the mainland unit's core solvency ratio after the new rules?",
        "核心偿付能力充足率因此下降",
        None,
    ),
    # a kept sentence that refers back brings the sentence that says why
    (
        "Why did the mainland subsidiary's core solvency ratio fall?",
        "收紧了实际资本的认定标准",
        None,
    ),
    (
        "Why is ACME's reported revenue smoother than premium income?",
        "recognised over the coverage period",
        None,
    ),
]


def _case(question: str) -> GoldenCase:
    return GoldenCase(
        id="q", question=question, case_type="retrieval",
        expected=Expected(relevant_docs=["x"]), reference_date=date(2026, 6, 12),
    )  # fmt: skip


@pytest.fixture(scope="module")
def systems(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ReferenceSystem]:
    kb_dir: Path = tmp_path_factory.mktemp("kb")
    return {mode: ReferenceSystem(mode, kb_dir=str(kb_dir)) for mode in MODES}  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def passages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    kb = KnowledgeBase(build_kb(DEFAULT_DATA_DIR, tmp_path_factory.mktemp("kb2")))
    rows = kb._conn.execute("SELECT doc, locator, text FROM passages").fetchall()
    return {f"{doc} · {locator}": text for doc, locator, text in rows}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("question", "must", "must_not"), CASES)
def test_the_answer_carries_the_sentence_with_the_question_terms(
    systems: dict[str, ReferenceSystem], mode: str, question: str, must: str, must_not: str | None
) -> None:
    out = systems[mode].answer(_case(question))
    assert not out.refused and out.value is None, out.answer
    assert must in out.answer, out.answer
    if must_not is not None:
        assert must_not not in out.answer, out.answer


def _body_and_label(answer: str) -> tuple[str, str]:
    for opener, closer in ((" (source: ", ")"), ("（来源：", "）")):
        if opener in answer:
            body, _, rest = answer.rpartition(opener)
            return body, rest.rsplit(closer, 1)[0]
    raise AssertionError(f"no citation in {answer!r}")


@pytest.mark.parametrize("mode", MODES)
def test_every_answer_sentence_is_in_the_passage_it_cites(
    systems: dict[str, ReferenceSystem], passages: dict[str, str], mode: str
) -> None:
    """Over the English questions on every passage: the cited passage is the one used."""
    questions = [q for q, _, _ in CASES]
    questions += [r["question"] for r in csv.DictReader(QUESTIONS.open(encoding="utf-8"))]
    answered = 0
    for question in questions:
        out = systems[mode].answer(_case(question))
        if out.refused or out.value is not None or out.clarification != "none":
            continue
        body, label = _body_and_label(out.answer)
        assert label in passages, (question, label)
        sentences = split_sentences(body)
        assert 1 <= len(sentences) <= 3, (question, body)
        for sentence in sentences:
            assert sentence in passages[label], (question, sentence, label)
        answered += 1
    assert answered >= 50

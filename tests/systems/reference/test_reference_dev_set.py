"""The development golden set (tests/data/reference_dev): questions written from the KB's data,
not from the bundled questions — other insurers in both scripts and any case, off-topic
questions, opinions, metrics the KB does not report, new numeric phrasings and
passage-level narrative questions with reference answers. Both modes must pass it, and
every refusal probe must be refused with no number in the answer."""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from ragspine_action.cli import main
from ragspine_action.golden import Expected, GoldenCase, load_golden_set
from ragspine_action.outcomes.model import Outcome
from ragspine_action.systems.reference import ReferenceSystem
from ragspine_action.systems.reference.relevance import MIN_COVERAGE

DEV = Path(__file__).parents[2] / "data" / "reference_dev" / "dev_golden_set.jsonl"
CASES = load_golden_set(str(DEV)).cases
PROBES = [c for c in CASES if c.tags.get("probe") == "yes"]


def test_dev_set_is_large_and_covers_every_probe_class() -> None:
    assert len(CASES) >= 60
    qtypes = Counter(c.tags["qtype"] for c in CASES)
    for qtype in ("other_company", "off_topic", "opinion", "unreported_metric", "paraphrase"):
        assert qtypes[qtype] >= 5, qtype
    assert {c.tags["lang"] for c in PROBES} >= {"zh", "en"}
    narrative = [c for c in CASES if c.case_type == "narrative"]
    assert len(narrative) >= 15 and all(c.expected.reference_answer for c in narrative)
    # probes are not copies of the bundled questions
    bundled = {c.question for c in load_golden_set("data/golden/qa_golden_set.jsonl").cases}
    assert not bundled & {c.question for c in CASES}


@pytest.mark.parametrize("mode", ["tool", "agent"])
def test_every_gate_passes_the_dev_set(mode: str, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    args = ["--mode", mode, "--golden", str(DEV), "--no-baseline", "--quiet"]
    assert main([*args, "--report", str(report), "--kb-dir", str(tmp_path / "kb")]) == 0
    qa = json.loads(report.read_text(encoding="utf-8"))["qa"]
    for gate, metric in qa["metrics"].items():
        assert metric["pass_rate"] >= 0.95, (gate, metric["failures"])
    assert qa["fabrication_count"] == 0


@pytest.mark.parametrize("mode", ["tool", "agent"])
def test_every_probe_is_refused_without_a_number(mode: str, tmp_path: Path) -> None:
    system = ReferenceSystem(mode, kb_dir=str(tmp_path))  # type: ignore[arg-type]
    for case in PROBES:
        out = system.answer(case)
        assert out.refused and out.value is None, (case.id, out.answer)
        assert not re.search(r"\d", out.answer), (case.id, out.answer)
        assert not out.sources, (case.id, out.sources)  # nothing cited for a refusal


def test_net_profit_is_not_silently_operating_profit(tmp_path: Path) -> None:
    system = ReferenceSystem("tool", kb_dir=str(tmp_path))
    case = next(c for c in CASES if c.question == "What was ACME Group's net profit in FY2025?")
    out = system.answer(case)
    assert out.refused and "operating profit" in out.answer  # names what it does report
    assert "1,960" not in out.answer


def test_the_relevance_threshold_separates_the_dev_set() -> None:
    """The calibration in relevance.py: answerable narrative questions clear the threshold,
    off-topic ones do not (checked through the tool, so a threshold change is caught)."""
    import tempfile

    from ragspine_action.systems.reference.intent import parse_intent
    from ragspine_action.systems.reference.kb import DEFAULT_DATA_DIR, KnowledgeBase, build_kb
    from ragspine_action.systems.reference.relevance import coverage, covers, topic_terms

    with tempfile.TemporaryDirectory() as tmp:
        kb = KnowledgeBase(build_kb(DEFAULT_DATA_DIR, tmp))
        try:
            checked = 0
            extra = [
                (q, "off_topic")
                for q in (
                    "What are interest rates in the US?",
                    "How do I open a bank account in Hong Kong?",
                    "What's the population of mainland China?",
                    "香港有什么好吃的餐厅？",
                    "Who is the chief executive of Hong Kong?",
                )
            ]
            asked = [(c.question, c.case_type, c.tags["qtype"]) for c in CASES]
            asked += [(q, "refusal", kind) for q, kind in extra]
            asked += [(q, "narrative", "doc") for q, _ in MORE_NARRATIVE]
            for question, case_type, qtype in asked:
                intent = parse_intent(question, date(2026, 6, 12))
                if intent.route == "out_of_scope":
                    continue  # refused for naming something else ("the capital of France")
                text = intent.search_text
                hits = kb.search(text, 5)
                terms = topic_terms(text)
                best = coverage(kb, terms, hits[0], text) if hits else 0.0
                relevant = bool(hits) and covers(kb, terms, hits[0], text)
                if case_type == "narrative":
                    assert best >= MIN_COVERAGE and relevant, question
                elif qtype == "off_topic":
                    assert not relevant, question
                    checked += 1
            assert checked >= 5
        finally:
            kb.close()


# Written after the dev set was green, to check the rules generalise (names with no
# organisation suffix, shouting case, opinions phrased otherwise, figures the KB lacks).
MORE_REFUSALS = [
    "What was Zurich's new business in FY2025?",
    "zurich insurance revenue 2024",
    "CHINA PACIFIC INSURANCE revenue FY2025",
    "China Taiping's operating profit in FY2025",
    "Tell me AXA's ROE",
    "平安人寿2025年上半年的收入",
    "阳光保险的新业务销售是多少",
    "招商信诺去年的利润是多少",
    "富德生命FY2025的收入",
    "Hang Seng Bank's new business sales in FY2025",
    "恒生银行去年的收入",
    "What was the revenue of metlife in FY2025?",
    "Tell me a joke",
    "What is the GDP of China?",
    "怎么煮咖啡",
    "NBA总决赛谁赢了",
    "Is ACME stock a buy?",
    "你怎么看ACME的战略？",
    "What do you think of ACME's digital strategy?",
    "Should I invest in ACME Hong Kong?",
    "买ACME的股票合适吗",
    "Will ACME's share price go up?",
    "What was ACME's dividend per share in FY2025?",
    "ACME集团FY2025的总保费是多少",
    "How much cash does ACME hold?",
    "How many customers does ACME have?",
    "ACME有多少代理人？",
    "what is acme's net income for fy2024",
    "ACME集团2025年的员工人数",
    "ALLIANZ'S REVENUE FY2025",
    "allianz's ROE",
    "中国太保FY2025收入",
    "中国太平的收入是多少",
    "Generali's new business sales FY2025",
    "Tell me about AIA's dividend policy",
    "ACME的股票会涨吗",
    "香港明天的天气",
    "How do I cook rice?",
    "What is your opinion on ACME's dividend policy?",
    "ACME的信用评级是多少",
    "今天港币兑美元汇率是多少",
    "How many branches does ACME have in China?",
    "Who is ACME's CEO?",
    "ACME的总部在哪里？",
    "What's the interest rate on my mortgage?",
    "我的保单现金价值是多少？",
    # off-topic questions sharing a KB word (market, Hong Kong, capital, ACME, rate, agents)
    "what will the stock market do next year?",
    "how is the weather in Hong Kong?",
    "is ACME Hong Kong a good investment?",
    "你认为ACME的股票值得买吗？",
    "who won the football match in Hong Kong?",
    "recommend a restaurant near ACME's office",
    "How is the stock market doing today?",
    "What is the exchange rate of the US dollar today?",
    "What are interest rates in the US?",
    "Which insurer has the best agents in Hong Kong?",
    "明年股市会怎么走？",
    "今天恒生指数是多少？",
    "How do I open a bank account in Hong Kong?",
    "Who is the chief executive of Hong Kong?",
    "香港有什么好吃的餐厅？",
    "What is ACME's market share in Hong Kong?",
    "What was ACME's headcount in FY2025?",
    "ACME的市场份额是多少？",
    "中国人寿FY2025的收入是多少",
    "PING AN revenue FY2025",
    "What was Manulife's ROE in 2024?",
    "大都会人寿去年的新业务销售",
    # written after the above were green: names with no suffix, valuation figures, advice
    "众安在线的营运利润",
    "ZhongAn's revenue FY2025",
    "慕尼黑再保险的收入",
    "PRUDENTIAL'S ROE FY2025",
    "ping an's operating profit last year",
    "How does ACME compare with AIA on ROE?",
    "What is ACME's book value?",
    "What's ACME's investment return rate?",
    "ACME集团的内含价值是多少？",
    "What was the CSM balance at the end of FY2025?",
    "ACME值得长期持有吗？",
    "How would you rate ACME's management?",
    "What is the capital of France?",
    "香港到深圳怎么走？",
    "Tell me about the Hong Kong stock exchange",
    "What is the Hang Seng Index at today?",
    "What is the capital of China?",
    "内地有多少人口？",
    "Is ACME's strategy any good?",
    "What is ACME's dividend yield?",
]
MORE_VALUES = [
    ("ACME HK FY2025 revenue?", 1702.0),
    ("What revenue did the Hong Kong unit generate in fiscal year 2024?", 1588.0),
    ("Give me mainland China's agency new sales for the 2025 financial year", 655.0),
    ("What did ACME Group report as operating profit for FY 2023?", 1620.0),
    ("香港业务在2024财年的营运利润为多少？", 752.0),
    ("集团二〇二三年的股本回报率", 11.1),
    ("ACME's Hong Kong arm: new business sales through banks, FY2024?", 290.0),
    ("ACME GROUP REVENUE FY2025", 8180.0),
    ("二零二四年内地银保渠道的新业务销售是多少", 668.0),
    ("ACME香港2024年上半年营运利润", 371.0),
    ("上一财年香港的新业务销售", 1240.0),
    ("集团2025年1-6月的收入", 3960.0),
    ("What was group revenue for the six months ended 30 June 2025?", 3960.0),
    ("Group revenue in the first six months of 2025", 3960.0),
    ("2025财年上半年集团的收入", 3960.0),
    ("What was the mainland's revenue in the six months to June 2024?", 1301.8),
    ("Group revenue six months ended June 30, 2025", 3960.0),
    ("HK operating profit for the half year ended 30 June 2024", 371.0),
    ("How much did ACME's mainland bancassurance channel sell in new business in FY2025?", 731.0),
]


@pytest.fixture(scope="module")
def tool_system(tmp_path_factory: pytest.TempPathFactory) -> ReferenceSystem:
    return ReferenceSystem("tool", kb_dir=str(tmp_path_factory.mktemp("kb")))


def _ask(system: ReferenceSystem, question: str) -> Outcome:
    case = GoldenCase(
        id="q", question=question, case_type="retrieval",
        expected=Expected(relevant_docs=["x"]), reference_date=date(2026, 6, 12),
    )  # fmt: skip
    return system.answer(case)


@pytest.fixture(scope="module")
def agent_system(tmp_path_factory: pytest.TempPathFactory) -> ReferenceSystem:
    return ReferenceSystem("agent", kb_dir=str(tmp_path_factory.mktemp("kb")))


@pytest.mark.parametrize("question", MORE_REFUSALS)
def test_more_probes_are_refused(
    tool_system: ReferenceSystem, agent_system: ReferenceSystem, question: str
) -> None:
    for system in (tool_system, agent_system):
        out = _ask(system, question)
        assert out.refused and out.value is None, (system.mode, out.answer)
        assert not re.search(r"\d", out.answer), (system.mode, out.answer)


@pytest.mark.parametrize(("question", "value"), MORE_VALUES)
def test_more_phrasings_are_answered(
    tool_system: ReferenceSystem, agent_system: ReferenceSystem, question: str, value: float
) -> None:
    for system in (tool_system, agent_system):
        out = _ask(system, question)
        assert (out.value, out.refused) == (value, False), (system.mode, out.answer)


def test_system_stats_report_each_modes_tool_calls(tmp_path: Path) -> None:
    tool = ReferenceSystem("tool", kb_dir=str(tmp_path / "t")).collect(CASES).stats
    agent = ReferenceSystem("agent", kb_dir=str(tmp_path / "a")).collect(CASES).stats
    assert tool["mode"] == "tool" and agent["mode"] == "agent"
    assert set(tool["tool_calls"]) == {"query_metric", "search_docs"}
    numeric = sum(1 for c in CASES if c.expected.value is not None)
    narrative = sum(1 for c in CASES if c.case_type == "narrative")
    assert tool["tool_calls"]["query_metric"] >= numeric
    assert tool["tool_calls"]["search_docs"] >= narrative
    # agent mode plans for itself: it searches first and checks the hard rules on every
    # question, and never calls the tool pipeline's intent parser
    assert agent["tool_calls"]["search_docs"] >= len(CASES)
    assert agent["tool_calls"]["check_scope"] == len(CASES)
    assert agent["tool_calls"]["query_metric"] >= numeric
    assert "analyse_question" not in agent["tool_calls"]
    assert agent["rule_violations"] == 0
    again = ReferenceSystem("tool", kb_dir=str(tmp_path / "t")).collect(CASES).stats
    assert again == tool  # counted per run, not accumulated


CN, MC = "ACME_CN_Regulatory_Note.pdf", "ACME_FY2025_Management_Commentary.pdf"
ST, RBC = "ACME_Group_Strategy_2026.pdf", "ACME_HK_RBC_Regulatory_Briefing.pdf"
IF, RI = "ACME_IFRS17_Accounting_Note.pdf", "ACME_Risk_Factors_2025.pdf"
MORE_NARRATIVE = [
    ("What did C-ROSS Phase II change for core capital?", CN),
    ("Why did the mainland subsidiary start a capital restructuring?", CN),
    ("How did ACME mainland respond to the pricing rate cuts?", CN),
    ("预定利率下调对新业务有什么影响？", CN),
    ("管理层认为收入增长的核心驱动因素是什么？", MC),
    ("Why did demand from Mainland Chinese visitors matter for Hong Kong?", MC),
    ("What drove new business sales in the mainland?", MC),
    ("Why is Hong Kong ROE high?", MC),
    ("What will digital tools help agents do?", ST),
    ("How will ACME ensure customer data is used properly?", ST),
    ("What are ACME's ESG commitments?", ST),
    ("Where is progress on sustainability goals disclosed?", ST),
    ("When did the Hong Kong RBC regime take effect?", RBC),
    ("Who introduced the risk-based capital regime in Hong Kong?", RBC),
    ("What are the results of ACME Hong Kong's stress test?", RBC),
    ("What must insurers disclose every year under RBC?", RBC),
    ("监管干预水平是多少？", RBC),
    ("How is profit recognised under IFRS 17?", IF),
    ("Why does management use operating profit?", IF),
    ("How does the release of the CSM affect the insurance service result?", IF),
    ("What is the most important market risk for the group?", RI),
    ("How does the RMB exchange rate affect reported results?", RI),
    ("What could a cyber incident cause?", RI),
    ("How often are penetration tests run?", RI),
    ("网络安全风险由谁审阅？", RI),
    # the top-ranked passage misses the question, a lower one covers it; two-word topics
    ("What must banca commissions match under the new rule?", CN),
    ("What helped the Hong Kong margin?", MC),
    ("What cyber defences does the group have?", RI),
    ("What two things lifted group operating profit?", MC),
    ("What keeps Hong Kong ROE high?", MC),
]


@pytest.mark.parametrize(("question", "doc"), MORE_NARRATIVE)
def test_more_narrative_questions_are_answered_from_their_document(
    tool_system: ReferenceSystem, agent_system: ReferenceSystem, question: str, doc: str
) -> None:
    """Scope rules must not refuse ACME's own documents: capitalised terms (C-ROSS, IFRS,
    RBC), acronyms and verbs before a metric ("use operating profit") are not names."""
    for system in (tool_system, agent_system):
        out = _ask(system, question)
        assert not out.refused and out.sources and out.sources[0].doc == doc, (
            system.mode,
            out.answer,
        )


@pytest.mark.parametrize(
    ("question", "doc"),
    [
        ("What drove Hong Kong's revenue growth in FY2025?", MC),
        ("为什么香港FY2025收入增长？", MC),
        ("What explains the mainland's moderate profit growth in FY2025?", MC),
        ("Why did group ROE improve in FY2025?", MC),
        ("What drove group operating profit growth?", MC),
        ("内地2025年新业务销售增长的原因是什么？", MC),
        ("集团股本回报率改善反映了什么？", MC),
        ("预定利率下调对长期利润有什么好处？", CN),
        ("新业务对合同服务边际有什么作用？", IF),
    ],
)
@pytest.mark.parametrize("mode", ["tool", "agent"])
def test_why_questions_about_a_figure_take_the_narrative_path(
    tmp_path: Path, mode: str, question: str, doc: str
) -> None:
    """A metric and a period do not make a question numeric: "what drove / why" without a
    number cue is answered from the passage, with its citation, and no value."""
    system = ReferenceSystem(mode, kb_dir=str(tmp_path))  # type: ignore[arg-type]
    out = _ask(system, question)
    assert not out.refused and out.value is None, out.answer
    assert out.sources and out.sources[0].doc == doc, out.answer
    assert doc in out.answer


@pytest.mark.parametrize(
    "question",
    [
        "ACME香港的业绩怎么样？",
        "How did Hong Kong perform?",
        "集团的表现如何",
        "How was the group's performance?",
    ],
)
def test_performance_without_a_metric_asks_which(
    tool_system: ReferenceSystem, question: str
) -> None:
    """ "Performance" names no metric: asked back, even with no period; but the same word
    beside a topic ("the results of the stress test") is a narrative question (above)."""
    out = _ask(tool_system, question)
    assert out.clarification == "ask_first" and not out.refused and out.value is None


@pytest.mark.parametrize(
    "question",
    ["How much did group revenue grow in FY2025?", "集团收入增长了多少？"],
)
@pytest.mark.parametrize("mode", ["tool", "agent"])
def test_how_much_a_figure_grew_gives_the_figure_and_the_passage(
    tmp_path: Path, mode: str, question: str
) -> None:
    """The fact table has no growth rates: the figure is given with the passage that says
    how much it grew (约百分之十), both cited."""
    system = ReferenceSystem(mode, kb_dir=str(tmp_path))  # type: ignore[arg-type]
    out = _ask(system, question)
    assert out.value == 8180.0 and not out.refused, out.answer
    assert "百分之十" in out.answer and MC in out.answer


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("集團FY2025的收入是多少？", 8180.0),
        ("香港業務去年的營運利潤", 818.0),
        ("內地2025年上半年的新業務銷售是多少", 768.4),
        ("香港嘅收入係幾多？FY2024", 1588.0),
    ],
)
def test_traditional_characters_read_as_simplified(
    tool_system: ReferenceSystem, agent_system: ReferenceSystem, question: str, value: float
) -> None:
    """Hong Kong questions in traditional characters: 集團 is ACME's group, not a name the
    KB lacks; both modes answer the figure."""
    for system in (tool_system, agent_system):
        out = _ask(system, question)
        assert (out.value, out.refused) == (value, False), (system.mode, out.answer)


@pytest.mark.parametrize(
    "question",
    [
        "中國人壽FY2025的收入是多少",
        "友邦保險去年的利潤",
        "保誠集團的股本回報率",
        "你認為ACME的股票值得買嗎？",
    ],
)
def test_traditional_other_insurers_and_opinions_are_refused(
    tool_system: ReferenceSystem, agent_system: ReferenceSystem, question: str
) -> None:
    for system in (tool_system, agent_system):
        out = _ask(system, question)
        assert out.refused and out.value is None, (system.mode, out.answer)
        assert not re.search(r"\d", out.answer), (system.mode, out.answer)


@pytest.mark.parametrize(
    ("question", "doc"),
    [
        ("為甚麼內地沒有單獨披露ROE？", MC),
        ("利率風險如何管理？", RI),
        ("集團的股息政策是甚麼？", ST),
    ],
)
def test_traditional_narrative_questions_find_their_passage(
    tool_system: ReferenceSystem, agent_system: ReferenceSystem, question: str, doc: str
) -> None:
    for system in (tool_system, agent_system):
        out = _ask(system, question)
        assert not out.refused and out.sources[0].doc == doc, (system.mode, out.answer)

"""Per-case judge evidence in the report, narrative_answer, and the judge chosen by name."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from ragspine_action.cli import main
from ragspine_action.schema import SCHEMA_DIR

CONTEXT = (
    "Meal allowances are capped at 40 EUR per day. Expenses must be submitted within 30 days "
    "with manager approval."
)
COMMENTARY = "Revenue growth in Hong Kong was driven by the agency channel."
GOLDEN: list[dict[str, Any]] = [
    {
        "id": "t1",
        "question": "What is the meal cap?",
        "case_type": "narrative",
        "expected": {
            "narrative_doc": "Travel_Policy.pdf",
            "reference_answer": "Meal allowances are capped at 40 EUR per day.",
        },
    },
    {
        "id": "t2",
        "question": "What is the meal cap?",
        "case_type": "narrative",
        "expected": {
            "narrative_doc": "Travel_Policy.pdf",
            "reference_answer": "Meal allowances are capped at 40 EUR per day.",
        },
    },
    {
        "id": "c1",
        "question": "Hong Kong revenue FY2025 and its driver?",
        "case_type": "composite",
        "expected": {
            "value": 1702.0,
            "unit": "USD_M",
            "source": {"doc": "Results.pptx", "locator": "slide=5"},
            "narrative_doc": "Commentary.pdf",
        },
    },
    {
        "id": "r1",
        "question": "Revenue FY2031?",
        "case_type": "refusal",
        "expected": {"refuse": True},
    },
]
SOURCES = [{"doc": "Travel_Policy.pdf", "locator": "p. 2"}]
OUTCOMES: list[dict[str, Any]] = [
    {
        "id": "t1",
        "answer": "Based on the retrieved documents:\nMeal allowances are capped at 40 EUR per day "
        "(source: Travel_Policy.pdf, p. 2).",
        "sources": SOURCES,
        "contexts": [CONTEXT],
    },
    {
        "id": "t2",
        "answer": "Meal allowances are capped at 400 EUR per day [1]. [Expenses never need "
        "approval from anyone.]\nSource: Travel_Policy.pdf #para1",
        "sources": SOURCES,
        "contexts": [CONTEXT],
    },
    {
        "id": "c1",
        "answer": "Hong Kong revenue for FY2025 was 1,702 USD_M (Results.pptx · slide=5). "
        "Growth came from a new channel in Singapore.",
        "narrative_answer": "Revenue growth in Hong Kong was driven by the agency channel.",
        "value": 1702.0,
        "unit": "USD_M",
        "source": {"doc": "Results.pptx", "locator": "slide=5"},
        "sources": [{"doc": "Results.pptx", "locator": "slide=5"}, {"doc": "Commentary.pdf"}],
        "contexts": [COMMENTARY],
    },
    {"id": "r1", "answer": "No data for FY2031; FY2025年5亿 is all I know.", "refused": True},
]


def _run(tmp_path: Path, *extra: str, config: str | None = None) -> tuple[int, dict[str, Any]]:
    golden, outcomes = tmp_path / "g.jsonl", tmp_path / "o.jsonl"
    golden.write_text("".join(json.dumps(c) + "\n" for c in GOLDEN))
    outcomes.write_text("".join(json.dumps(o) + "\n" for o in OUTCOMES))
    args = ["--system", "outcomes", "--golden", str(golden), "--outcomes", str(outcomes)]
    if config is not None:
        (tmp_path / "cfg.yml").write_text(config)
        args += ["--config", str(tmp_path / "cfg.yml")]
    report = tmp_path / "r.json"
    code = main([*args, "--no-baseline", "--report", str(report), "--quiet", *extra])
    return code, json.loads(report.read_text()) if report.exists() else {}


def test_each_judged_case_carries_its_claims_verdicts_and_matched_sentences(
    tmp_path: Path,
) -> None:
    code, report = _run(tmp_path)
    assert code == 1  # it holds a hallucination, and with no baseline every case must pass
    cases = {c["id"]: c for c in report["qa"]["cases"]}
    assert cases["t1"]["gates"]["faithfulness"] is True
    (claim,) = cases["t1"]["judge"]["faithfulness"]["claims"]
    assert claim["verdict"] == "supported" and claim["score"] == 1.0
    assert claim["claim"] == "Meal allowances are capped at 40 EUR per day"
    assert "matched" not in claim  # the claim is a context sentence word for word

    assert cases["t2"]["gates"]["faithfulness"] is False
    claims = cases["t2"]["judge"]["faithfulness"]["claims"]
    assert [c["verdict"] for c in claims] == ["unsupported", "unsupported"]
    assert claims[0]["reason"] == "numbers not in the contexts: 400"
    assert claims[0]["matched"] == "Meal allowances are capped at 40 EUR per day."
    assert claims[1]["claim"] == "Expenses never need approval from anyone."
    accuracy = cases["t2"]["judge"]["answer_accuracy"]
    assert cases["t2"]["gates"]["answer_accuracy"] is False
    assert accuracy["claims"][0]["reason"] == "numbers not in the answer: 40"

    # composite: narrative_answer is judged, the value line is not even read
    assert cases["c1"]["gates"]["faithfulness"] is True
    assert [c["claim"] for c in cases["c1"]["judge"]["faithfulness"]["claims"]] == [
        "Revenue growth in Hong Kong was driven by the agency channel."
    ]
    # refusal: the numbers fabrication found, and no judge evidence
    assert cases["r1"]["fabricated"] == ["5亿"]
    assert "judge" not in cases["r1"]

    schema = json.loads((SCHEMA_DIR / "report.schema.json").read_text(encoding="utf-8"))
    assert list(Draft202012Validator(schema).iter_errors(report)) == []


def test_the_value_line_is_exempt_and_the_rest_judged_without_narrative_answer(
    tmp_path: Path,
) -> None:
    del OUTCOMES[2]["narrative_answer"]
    try:
        _, report = _run(tmp_path)
    finally:
        OUTCOMES[2]["narrative_answer"] = COMMENTARY
    case = next(c for c in report["qa"]["cases"] if c["id"] == "c1")
    claims = case["judge"]["faithfulness"]["claims"]
    assert [c["verdict"] for c in claims] == ["exempt", "unsupported"]
    assert case["gates"]["faithfulness"] is False


def test_the_judge_is_chosen_by_name_on_the_cli_and_in_the_config(tmp_path: Path) -> None:
    code, report = _run(tmp_path, "--judge", "lexical")
    assert code == 1 and report["config"]["judge"] == "lexical"
    code, report = _run(tmp_path, config="judge:\n  kind: lexical\n  faithfulness_threshold: 0.9\n")
    assert code == 1 and report["config"]["faithfulness_threshold"] == 0.9


@pytest.mark.parametrize(
    ("extra", "config", "message"),
    [
        (("--judge", "oracle"), None, "--judge"),
        ((), "judge:\n  kind: oracle\n", "--judge: 'oracle' is not one of lexical"),
        ((), "judge:\n  meta_patterns: ['(unclosed']\n", "judge.meta_patterns"),
    ],
)
def test_an_unknown_judge_or_bad_meta_pattern_is_exit_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: tuple[str, ...],
    config: str | None,
    message: str,
) -> None:
    code, report = _run(tmp_path, *extra, config=config)
    assert code == 2 and report == {}
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_meta_patterns_from_the_config_replace_the_defaults(tmp_path: Path) -> None:
    original = OUTCOMES[0]["answer"]
    OUTCOMES[0]["answer"] = "ACME-Bot says: Meal allowances are capped at 40 EUR per day."
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    try:
        _, plain = _run(tmp_path / "a")
        _, custom = _run(tmp_path / "b", config="judge:\n  meta_patterns: ['acme-bot says:']\n")
    finally:
        OUTCOMES[0]["answer"] = original
    claim = {c["id"]: c for c in plain["qa"]["cases"]}["t1"]["judge"]["faithfulness"]["claims"][0]
    assert claim["claim"].startswith("ACME-Bot says")
    claim = {c["id"]: c for c in custom["qa"]["cases"]}["t1"]["judge"]["faithfulness"]["claims"][0]
    assert claim["claim"] == "Meal allowances are capped at 40 EUR per day."

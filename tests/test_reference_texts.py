"""--reference-texts: narrative_doc → text for answer_accuracy (RAGSpine's reference_texts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragspine_action.cli import main
from ragspine_action.errors import ConfigError, InputError
from ragspine_action.gates.answer_accuracy import AnswerAccuracy, reference_for
from ragspine_action.gates.base import GateSettings
from ragspine_action.golden.models import GoldenCase
from ragspine_action.outcomes.model import Outcome
from ragspine_action.reference_texts import doc_name, load_reference_texts, reference_kb_texts

ROOT = Path(__file__).resolve().parent.parent


def _narrative(doc: str = "HK.pptx", **expected: str) -> GoldenCase:
    return GoldenCase.model_validate(
        {
            "id": "n",
            "question": "q",
            "case_type": "narrative",
            "expected": {"narrative_doc": doc, **expected},
        }
    )


@pytest.mark.parametrize(
    ("file", "doc"),
    [("HK.pptx", "HK.pptx"), ("HK.pptx.txt", "HK.pptx"), ("notes.md", "notes"), (".txt", ".txt")],
)
def test_a_file_names_its_document(file: str, doc: str) -> None:
    assert doc_name(file) == doc


def test_a_directory_maps_each_file_to_its_text(tmp_path: Path) -> None:
    (tmp_path / "HK_QBR.pptx.txt").write_text("香港收入下降。", encoding="utf-8")
    (tmp_path / "REG.pptx").write_text("监管动态。", encoding="utf-8")
    (tmp_path / ".hidden").write_text("ignored", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    assert load_reference_texts(tmp_path) == {
        "HK_QBR.pptx": ("香港收入下降。",),
        "REG.pptx": ("监管动态。",),
    }


def test_two_files_for_one_document_are_an_error(tmp_path: Path) -> None:
    (tmp_path / "HK.pptx").write_text("a", encoding="utf-8")
    (tmp_path / "HK.pptx.txt").write_text("b", encoding="utf-8")
    with pytest.raises(InputError, match=r"names the same document .HK\.pptx."):
        load_reference_texts(tmp_path)


def test_a_binary_document_is_an_error_saying_what_to_give(tmp_path: Path) -> None:
    (tmp_path / "deck.pptx").write_bytes(b"PK\x03\x04\xff\xfe\x00binary")
    with pytest.raises(InputError, match=r"plain text.*deck\.pptx\.txt"):
        load_reference_texts(tmp_path)


def test_a_json_object_maps_docs_to_texts_or_passages(tmp_path: Path) -> None:
    path = tmp_path / "texts.json"
    path.write_text(json.dumps({"A.pptx": "text", "B.pdf": ["one", "two"]}), encoding="utf-8")
    assert load_reference_texts(path) == {"A.pptx": ("text",), "B.pdf": ("one", "two")}
    path.write_text(json.dumps({"A.pptx": 3}), encoding="utf-8")
    with pytest.raises(InputError, match=r"A\.pptx: must be the document.s text"):
        load_reference_texts(path)


@pytest.mark.parametrize("make", ["missing", "empty"])
def test_nothing_to_read_is_a_configuration_error(tmp_path: Path, make: str) -> None:
    target = tmp_path / "texts"
    if make == "empty":
        target.mkdir()
    with pytest.raises(ConfigError, match="--reference-texts"):
        load_reference_texts(target)


def test_reference_answer_wins_and_composites_need_one() -> None:
    texts = {"HK.pptx": ("香港收入下降主因是渠道调整。",)}
    assert reference_for(_narrative(), texts) == ("reference text of HK.pptx", texts["HK.pptx"])
    assert reference_for(_narrative(reference_answer="渠道调整"), texts) == (
        "reference_answer",
        ("渠道调整",),
    )
    assert reference_for(_narrative("OTHER.pptx"), texts) is None
    by_stem = {"HK": ("香港收入下降。",)}  # a file HK.txt serves the doc HK.pptx
    assert reference_for(_narrative("HK.pptx"), by_stem) == (
        "reference text of HK.pptx",
        by_stem["HK"],
    )
    assert reference_for(_narrative(), {"HK.pptx": ("  ",)}) is None
    composite = GoldenCase.model_validate(
        {
            "id": "c",
            "question": "q",
            "case_type": "composite",
            "expected": {
                "value": 1.0,
                "unit": "U",
                "source": {"doc": "R"},
                "narrative_doc": "HK.pptx",
            },
        }
    )
    assert reference_for(composite, texts) is None  # as RAGSpine: narrative cases only


def test_recall_is_measured_on_the_narrative_answer_against_the_best_passage() -> None:
    gate = AnswerAccuracy({"HK.pptx": ("保险 监管 新规 披露", "香港 收入 下降 渠道 调整")})
    case = _narrative()
    assert gate.applies(case)
    # Tokens are single CJK characters: the second passage's 10 distinct ones
    # (香港收入下降渠道调整) are all in the narrative answer, so its recall is 1.0.
    good = Outcome(id="n", answer="其他内容", narrative_answer="香港收入下降是因为渠道调整")
    bad = Outcome(id="n", answer="香港收入下降是因为渠道调整", narrative_answer="无关内容")
    settings = GateSettings()
    assert gate.check(case, good, settings).passed
    assert gate.check(case, good, settings).actual == {"recall": 1.0}
    assert not gate.check(case, bad, settings).passed  # the narrative part is what is judged


def test_the_reference_system_supplies_its_own_documents(tmp_path: Path) -> None:
    texts = reference_kb_texts()
    assert "ACME_Risk_Factors_2025.pdf" in texts and len(texts["ACME_Risk_Factors_2025.pdf"]) >= 2
    report = tmp_path / "r.json"
    assert (
        main(["--report", str(report), "--quiet", "--no-baseline", "--bootstrap-resamples", "0"])
        == 0
    )
    qa = json.loads(report.read_text(encoding="utf-8"))["qa"]
    nar_011 = next(c for c in qa["cases"] if c["id"] == "nar-011")  # no reference_answer
    assert nar_011["gates"]["answer_accuracy"] is True
    assert qa["metrics"]["answer_accuracy"]["total"] == 14


def test_config_file_reference_texts_is_relative_to_the_file(tmp_path: Path) -> None:
    data = ROOT / "tests" / "data" / "ragspine"
    (tmp_path / "texts").mkdir()
    for src in (data / "reference_texts").iterdir():
        (tmp_path / "texts" / src.name).write_text(
            src.read_text(encoding="utf-8"), encoding="utf-8"
        )
    config = tmp_path / "ragspine-eval.yml"
    config.write_text("reference_texts: texts\n", encoding="utf-8")
    report = tmp_path / "r.json"
    argv = ["--config", str(config), "--system", "outcomes", "--mode", "tool", "--no-baseline"]
    argv += [
        "--golden",
        str(data / "qa_golden_set.jsonl"),
        "--outcomes",
        str(data / "outcomes_tool.jsonl"),
    ]
    argv += ["--report", str(report), "--quiet", "--bootstrap-resamples", "0"]
    main(argv)
    qa = json.loads(report.read_text(encoding="utf-8"))["qa"]
    assert qa["metrics"]["answer_accuracy"]["total"] == 2

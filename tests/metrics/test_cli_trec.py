"""--qrels/--run through the whole pipeline equal trec_eval's own outputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragspine_action.cli import main

ORACLE = (
    Path(__file__).resolve().parents[1] / "data" / "trec_eval"
)  # NIST's files, see its LICENSE.md

# our metric name → trec_eval's measure name in out.test.aq / out.test.meas_params
MEASURES = {
    "hit@5": None,
    "mrr": "recip_rank",
    "ndcg@10": None,
    "precision@5": "P_5",
    "precision@10": "P_10",
    "recall@5": "recall_5",
    "recall@10": "recall_10",
}


def _oracle(name: str) -> dict[str, float]:
    values: dict[str, float] = {}
    for line in (ORACLE / name).read_text().splitlines():
        measure, qid, value = (p.strip() for p in line.split("\t"))
        if qid == "all" and measure != "runid":
            values[measure] = float(value)
    return values


def test_trec_files_through_the_cli_match_trec_eval(tmp_path: Path) -> None:
    assert ORACLE.is_dir(), f"trec_eval oracle data missing at {ORACLE}"
    report = tmp_path / "report.json"
    code = main(
        [
            "--qrels",
            str(ORACLE / "qrels.test"),
            "--run",
            str(ORACLE / "results.test"),
            "--k",
            "5,10,20",
            "--report",
            str(report),
            "--quiet",
        ]
    )
    assert code == 1  # no baseline: every query must hit@3, and not all do
    overall = json.loads(report.read_text())["qa"]["retrieval"]["overall"]
    expected = _oracle("out.test.aq")
    for ours, theirs in MEASURES.items():
        if theirs is not None:
            assert overall[ours] == pytest.approx(expected[theirs], abs=5e-5), ours
    params = _oracle("out.test.meas_params")
    assert overall["ndcg@10"] == pytest.approx(params["ndcg_cut_10"], abs=5e-5)
    assert overall["ndcg@20"] == pytest.approx(params["ndcg_cut_20"], abs=5e-5)
    assert overall["hit@5"] == pytest.approx(params["success_5"], abs=5e-5)
    assert overall["hit@20"] == pytest.approx(params["success_20"], abs=5e-5)


def test_qrels_without_run_is_a_configuration_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--qrels", str(ORACLE / "qrels.test")]) == 2
    assert "--qrels and --run" in capsys.readouterr().err

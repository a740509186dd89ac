"""Our metrics agree with trec_eval (through pytrec_eval) on seeded random qrels and runs."""

from __future__ import annotations

import random

import pytest
import pytrec_eval

from ragspine_action.metrics.retrieval import CaseRetrieval, aggregate_retrieval, case_retrieval
from ragspine_action.metrics.trec import rank_by_score

KS = (1, 2, 3, 5, 10, 20)
OURS_TO_TREC = {"hit": "success", "ndcg": "ndcg_cut", "recall": "recall", "precision": "P"}
# Docnos whose byte order differs from naive expectations: case, digits, non-ASCII.
DOC_POOL = [f"d{i}" for i in range(30)] + ["D7", "doc-é", "doc-z", "doc-Ω", "a", "B", "10", "9"]


def _trec_name(ours: str) -> str:
    if ours == "mrr":
        return "recip_rank"
    family, k = ours.split("@")
    return f"{OURS_TO_TREC[family]}_{k}"


def _random_data(
    rng: random.Random,
) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(40):
        qid = f"q{q}"
        judged = rng.sample(DOC_POOL, rng.randint(1, 15))
        qrels[qid] = {doc: rng.choice([-1, 0, 0, 1, 1, 2, 3, 4]) for doc in judged}
        retrieved = rng.sample(DOC_POOL, rng.randint(1, 25))
        # Few distinct scores, so ties are frequent and trec_eval's tie-breaking matters.
        run[qid] = {doc: float(rng.choice([0.1, 0.5, 0.5, 1.0, 2.25, 3.0])) for doc in retrieved}
    return qrels, run


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("relevance_level", [1, 2, 3])
def test_matches_trec_eval(seed: int, relevance_level: int) -> None:
    rng = random.Random(seed)
    qrels, run = _random_data(rng)
    ks_spec = ",".join(str(k) for k in KS)
    measures = {
        f"success.{ks_spec}",
        "recip_rank",
        f"ndcg_cut.{ks_spec}",
        f"recall.{ks_spec}",
        f"P.{ks_spec}",
    }
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=relevance_level)
    expected = evaluator.evaluate(run)
    assert expected, "pytrec_eval evaluated nothing"

    rows: list[tuple[str, dict[str, str], CaseRetrieval]] = []
    compared = 0
    included_expected: list[dict[str, float]] = []
    for qid, trec_values in expected.items():
        ours = case_retrieval(
            rank_by_score(run[qid]), qrels[qid], KS, relevance_level=relevance_level
        )
        rows.append((qid, {}, ours))
        if ours.excluded:
            # Excluded on purpose; trec_eval scores the binary measures 0 there.
            assert trec_values["recip_rank"] == 0.0
            continue
        included_expected.append(trec_values)
        for name, value in ours.values.items():
            assert value == pytest.approx(trec_values[_trec_name(name)], abs=1e-9), (qid, name)
            compared += 1
    assert compared > 100

    summary = aggregate_retrieval(rows, KS)
    assert summary.n == len(included_expected)
    for name, mean in summary.overall.items():
        trec_mean = sum(v[_trec_name(name)] for v in included_expected) / len(included_expected)
        assert mean == pytest.approx(trec_mean, abs=1e-9), name


def test_ties_are_broken_by_docno_descending_bytes() -> None:
    scores = {"b": 1.0, "a": 1.0, "c": 2.0, "doc-é": 1.0, "doc-z": 1.0, "B": 1.0}
    assert rank_by_score(scores) == ["c", "doc-é", "doc-z", "b", "a", "B"]
    qrels = {"q": {"a": 1}}
    got = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate({"q": scores})
    assert got["q"]["recip_rank"] == pytest.approx(1 / 5)

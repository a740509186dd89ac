"""trec_eval's own test suite: its qrels, runs and expected outputs, through our pipeline path.

Each qrels/run pair is read with our TREC readers, converted to golden cases and outcomes,
scored, and compared with trec_eval's per-query and ``all`` values to its 4 decimals.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine_action.metrics.retrieval import score_retrieval
from ragspine_action.metrics.trec import load_qrels, load_run, trec_to_golden
from ragspine_action.outcomes import Outcome

REPO_ROOT = Path(__file__).resolve().parents[2]
ORACLE = REPO_ROOT / "tests" / "data" / "trec_eval"  # NIST's files, see its LICENSE.md

# (expected output, qrels, run, relevance level, -M max docs per query)
SUITES = [
    ("out.test", "qrels.test", "results.test", 1, None),
    ("out.test.a", "qrels.test", "results.test", 1, None),
    ("out.test.aq", "qrels.test", "results.test", 1, None),
    ("out.test.meas_params", "qrels.test", "results.test", 1, None),
    ("out.test.aqc", "qrels.test", "results.trunc", 1, None),
    ("out.test.aqcM", "qrels.test", "results.trunc", 1, 100),
    ("out.test.aql", "qrels.rel_level", "results.test", 2, None),
]


@pytest.fixture(scope="module")
def oracle() -> Path:
    if not ORACLE.is_dir():
        pytest.fail(f"trec_eval oracle data missing at {ORACLE.resolve()}")
    return ORACLE


def _our_name(trec: str) -> str | None:
    if trec == "recip_rank":
        return "mrr"
    for prefix, ours in (
        ("success_", "hit@"),
        ("ndcg_cut_", "ndcg@"),
        ("recall_", "recall@"),
        ("P_", "precision@"),
    ):
        if trec.startswith(prefix) and trec[len(prefix) :].isdigit():
            return ours + trec[len(prefix) :]
    return None


def _expected(path: Path) -> dict[tuple[str, str], float]:
    values: dict[tuple[str, str], float] = {}
    for line in path.read_text().splitlines():
        measure, qid, value = (part.strip() for part in line.split("\t"))
        name = _our_name(measure)
        if name is not None:
            values[(name, qid)] = float(value)
    return values


@pytest.mark.parametrize(("out", "qrels_name", "run_name", "level", "max_docs"), SUITES)
def test_trec_eval_expected_outputs(
    oracle: Path, out: str, qrels_name: str, run_name: str, level: int, max_docs: int | None
) -> None:
    expected = _expected(oracle / out)
    assert expected, f"no measures of ours in {out}"
    ks = sorted({int(name.split("@")[1]) for name, _ in expected if "@" in name})
    conversion = trec_to_golden(
        load_qrels(oracle / qrels_name), load_run(oracle / run_name), relevance_level=level
    )
    outcomes = conversion.outcomes
    if max_docs is not None:
        outcomes = {
            qid: Outcome(id=qid, sources=list(o.sources[:max_docs])) for qid, o in outcomes.items()
        }
    per_case, summary = score_retrieval(
        conversion.cases, outcomes, ks, relevance_level=conversion.relevance_level
    )
    assert summary.excluded == 0
    mismatches = []
    for (name, qid), value in sorted(expected.items()):
        ours = summary.overall[name] if qid == "all" else per_case[qid].values[name]
        if f"{ours:.4f}" != f"{value:.4f}":  # trec_eval prints %.4f
            mismatches.append(f"{name} {qid}: trec_eval {value:.4f}, ours {ours:.6f}")
    assert not mismatches, "\n".join(mismatches)
    assert len(expected) >= 10


def test_oracle_covers_every_measure_family(oracle: Path) -> None:
    names = {name.split("@")[0] for name, _ in _expected(oracle / "out.test.aq")}
    assert names == {"hit", "mrr", "ndcg", "recall", "precision"}


def test_unanswered_query_scores_zero_like_trec_eval_dash_c(oracle: Path) -> None:
    # results.trunc has no line for query 302: with -c trec_eval scores it 0, as we do.
    conversion = trec_to_golden(
        load_qrels(oracle / "qrels.test"), load_run(oracle / "results.trunc")
    )
    assert conversion.outcomes["302"].sources == []
    per_case, _ = score_retrieval(conversion.cases, conversion.outcomes, [10])
    assert per_case["302"].values["ndcg@10"] == 0.0

"""A 20-question retrieval study through the CLI: metrics by hand, verdicts by the ratchet.

The study (data in ``tests/data/retrieval_study/``): a support knowledge base of 15 docs
(``kb/reset-password.md`` … ``kb/contact-support.md``), 20 ``case_type: retrieval``
questions — 10 ``direct`` (the doc's own words) and 10 ``paraphrase`` (the user's words) —
and four retriever configurations, each an outcomes file holding only ranked ``sources``
(no answers: a search system with no generator).

Rank of the first relevant doc after deduplication by doc (``-`` = not among the five
returned). Duplicated chunks sit in front of the relevant doc in 1/p04 (one extra
chunk), 3/d07 (two) and 4/d10 (one), so the raw list position differs from the rank.
p08 has two relevant docs (``delete-account`` grade 2, ``export-data`` grade 1)::

    question  1-bm25  2-bm25-rewrite  3-dense  4-hybrid-rerank
    d01         1          1             1          1
    d02         1          1             1          1
    d03         1          1             1          1
    d04         2          1             2          1
    d05         1          1             1          1
    d06         1          1             1          1
    d07         3          3             5          1
    d08         1          1             1          1
    d09         2          1             4          1
    d10         1          1             1          4
    p01         4          2             1          1
    p02         -          3             -          2
    p03         2          1             2          1
    p04         5          3             5          2
    p05         1          1             1          1
    p06         -          -             2          3
    p07         3          2             3          1
    p08         4          4             4          2
    p09         -          4             -          3
    p10         2          2             2          1

Hand computation (hit@k = share of questions with rank <= k; MRR = mean of 1/rank, 0
for ``-``):

1-bm25
  direct:     hit@1 7/10 = .700   hit@3 10/10 = 1.000  MRR (7 + 1/2 + 1/3 + 1/2)/10 = .833
  paraphrase: hit@1 1/10 = .100   hit@3 4/10 = .400
              MRR (1/4 + 1/2 + 1/5 + 1 + 1/3 + 1/4 + 1/2)/10 = 3.0333/10 = .303
  overall:    hit@1 8/20 = .400   hit@3 14/20 = .700   MRR 11.3667/20 = .568
2-bm25-rewrite
  direct:     hit@1 9/10 = .900   hit@3 10/10 = 1.000  MRR (9 + 1/3)/10 = .933
  paraphrase: hit@1 2/10 = .200   hit@3 7/10 = .700
              MRR (1/2 + 1/3 + 1 + 1/3 + 1 + 1/2 + 1/4 + 1/4 + 1/2)/10 = 4.6667/10 = .467
  overall:    hit@1 11/20 = .550  hit@3 17/20 = .850   MRR 14/20 = .700
3-dense
  direct:     hit@1 7/10 = .700   hit@3 8/10 = .800    MRR (7 + 1/2 + 1/5 + 1/4)/10 = .795
  paraphrase: hit@1 2/10 = .200   hit@3 6/10 = .600
              MRR (1 + 1/2 + 1/5 + 1 + 1/2 + 1/3 + 1/4 + 1/2)/10 = 4.2833/10 = .428
  overall:    hit@1 9/20 = .450   hit@3 14/20 = .700   MRR 12.2333/20 = .612
4-hybrid-rerank
  direct:     hit@1 9/10 = .900   hit@3 9/10 = .900    MRR (9 + 1/4)/10 = .925
  paraphrase: hit@1 5/10 = .500   hit@3 10/10 = 1.000
              MRR (5 + 3 * 1/2 + 2 * 1/3)/10 = 7.1667/10 = .717
  overall:    hit@1 14/20 = .700  hit@3 19/20 = .950   MRR 16.4167/20 = .821

Verdicts against config 1's baseline (protected k = 3):

* 2-bm25-rewrite: no question ranks worse, several better → PASS (exit 0).
* 3-dense: hit@3 held at .700 and every aggregate held or rose, but d07 (3 → 5) and d09
  (2 → 4) left the top 3 → FAIL (exit 1), broken only.
* 4-hybrid-rerank: hit@3 rose to .950 and every aggregate rose, but d10 (1 → 4) left
  the top 3 → FAIL (exit 1), broken only.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from ragspine_action import cli

STUDY = Path(__file__).resolve().parents[1] / "data" / "retrieval_study"
GOLDEN = STUDY / "golden.jsonl"
CONFIGS = ("1-bm25", "2-bm25-rewrite", "3-dense", "4-hybrid-rerank")

# The published table: config → group → (hit@1, hit@3, MRR), three decimals.
PUBLISHED: dict[str, dict[str, tuple[float, float, float]]] = {
    "1-bm25": {
        "overall": (0.400, 0.700, 0.568),
        "direct": (0.700, 1.000, 0.833),
        "paraphrase": (0.100, 0.400, 0.303),
    },
    "2-bm25-rewrite": {
        "overall": (0.550, 0.850, 0.700),
        "direct": (0.900, 1.000, 0.933),
        "paraphrase": (0.200, 0.700, 0.467),
    },
    "3-dense": {
        "overall": (0.450, 0.700, 0.612),
        "direct": (0.700, 0.800, 0.795),
        "paraphrase": (0.200, 0.600, 0.428),
    },
    "4-hybrid-rerank": {
        "overall": (0.700, 0.950, 0.821),
        "direct": (0.900, 0.900, 0.925),
        "paraphrase": (0.500, 1.000, 0.717),
    },
}

# Exact MRR sums from the module docstring, to check more than three decimals.
EXACT_MRR = {
    "1-bm25": (7 + 1 / 2 + 1 / 3 + 1 / 2 + 1 / 4 + 1 / 2 + 1 / 5 + 1 + 1 / 3 + 1 / 4 + 1 / 2) / 20,
    "2-bm25-rewrite": (9 + 1 / 3 + 1 / 2 + 1 / 3 + 1 + 1 / 3 + 1 + 1 / 2 + 1 / 4 + 1 / 4 + 1 / 2)
    / 20,
    "3-dense": (7 + 1 / 2 + 1 / 5 + 1 / 4 + 1 + 1 / 2 + 1 / 5 + 1 + 1 / 2 + 1 / 3 + 1 / 4 + 1 / 2)
    / 20,
    "4-hybrid-rerank": (9 + 1 / 4 + 5 + 3 / 2 + 2 / 3) / 20,
}

# Questions with no relevant doc within k=3 (each a failed case attributed to retrieval).
MISSES = {
    "1-bm25": ["p01", "p02", "p04", "p06", "p08", "p09"],
    "2-bm25-rewrite": ["p06", "p08", "p09"],
    "3-dense": ["d07", "d09", "p02", "p04", "p08", "p09"],
    "4-hybrid-rerank": ["d10"],
}


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


def _evaluate(
    config: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    *baseline_args: str,
) -> tuple[int, dict[str, Any], str]:
    report = tmp_path / f"report-{config}.json"
    args = [
        "--system",
        "outcomes",
        "--golden",
        str(GOLDEN),
        "--outcomes",
        str(STUDY / f"{config}.jsonl"),
        "--report",
        str(report),
        *(baseline_args or ("--no-baseline",)),
    ]
    code, out, err = _run(args, capsys)
    assert "Traceback" not in err
    return code, json.loads(report.read_text(encoding="utf-8")), out


def _record_baseline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], config: str = "1-bm25"
) -> Path:
    baseline = tmp_path / "retrieval_baseline.json"
    code, report, _ = _evaluate(
        config, tmp_path, capsys, "--baseline", str(baseline), "--mode", "support-search"
    )
    assert code == 0
    assert report["baseline"]["status"] == "created"
    return baseline


@pytest.mark.parametrize("config", CONFIGS)
def test_the_report_reproduces_the_published_table(
    config: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report, _ = _evaluate(config, tmp_path, capsys)
    # no baseline: every question must hit@3, and no configuration's retriever does that
    assert code == 1 and report["verdict"] == "fail"
    assert report["baseline"]["status"] == "none"
    retrieval = report["qa"]["retrieval"]
    assert retrieval["k"] == [1, 3, 10]
    assert retrieval["protected_k"] == 3
    assert (retrieval["n_scored"], retrieval["n_excluded"]) == (20, 0)
    groups = {
        "overall": retrieval["overall"],
        "direct": retrieval["by_tag"]["kind"]["direct"],
        "paraphrase": retrieval["by_tag"]["kind"]["paraphrase"],
    }
    assert set(retrieval["by_tag"]["kind"]) == {"direct", "paraphrase"}
    for group, (hit1, hit3, mrr) in PUBLISHED[config].items():
        got = groups[group]
        assert (round(got["hit@1"], 3), round(got["hit@3"], 3), round(got["mrr"], 3)) == (
            hit1,
            hit3,
            mrr,
        ), f"{config} {group}"
    assert groups["direct"]["n"] == groups["paraphrase"]["n"] == 10
    assert retrieval["overall"]["mrr"] == pytest.approx(EXACT_MRR[config], abs=1e-12)


@pytest.mark.parametrize("config", CONFIGS)
def test_misses_and_attribution_name_the_retrieval_stage(
    config: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, report, out = _evaluate(config, tmp_path, capsys)
    qa = report["qa"]
    assert sorted(m["id"] for m in qa["retrieval"]["misses"]) == MISSES[config]
    attribution = qa["attribution"]
    assert (attribution["retrieval"], attribution["generation"], attribution["error"]) == (
        len(MISSES[config]),
        0,
        0,
    )
    assert "chunking" in attribution["advice"]["retrieval"]
    assert set(attribution["advice"]) == {"retrieval"}
    failed = sorted(c["id"] for c in qa["cases"] if not c["passed"])
    assert failed == MISSES[config]
    assert all(c["attribution"] == "retrieval" for c in qa["cases"] if not c["passed"])
    assert f"attribution: retrieval {len(MISSES[config])}, generation 0, error 0" in out
    header = out.splitlines()[1].split()
    assert header[:4] == ["metric", "baseline", "now", "passed"]
    hit3 = next(line.split() for line in out.splitlines() if line.startswith("hit@3 "))
    assert hit3[:3] == ["hit@3", "—", f"{PUBLISHED[config]['overall'][1] * 100:.1f}%"]


def test_a_retriever_that_only_improves_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline = _record_baseline(tmp_path, capsys)
    before = baseline.read_bytes()
    code, report, _ = _evaluate(
        "2-bm25-rewrite", tmp_path, capsys, "--baseline", str(baseline), "--mode", "support-search"
    )
    assert (code, report["verdict"], report["exit_code"]) == (0, "pass", 0)
    section = report["baseline"]
    assert section["status"] == "pass"
    assert section["regressions"] == [] and section["broken"] == []
    fixed = {(c["id"], c["before"], c["after"]) for c in section["fixed"]}
    assert fixed == {("p01", 4, 2), ("p02", None, 3), ("p04", 5, 3)}
    improved = {r["metric"]: (r["baseline"], r["current"]) for r in section["improvements"]}
    assert improved["hit@3"] == pytest.approx((0.70, 0.85))
    assert improved["mrr"] == pytest.approx((EXACT_MRR["1-bm25"], 0.70))
    assert baseline.read_bytes() == before  # gating never rewrites the baseline


@pytest.mark.parametrize(
    ("config", "hit3_now", "broken"),
    [
        ("3-dense", 0.70, {("d07", 3, 5), ("d09", 2, 4)}),
        ("4-hybrid-rerank", 0.95, {("d10", 1, 4)}),
    ],
)
def test_a_protected_question_leaving_the_top_3_fails_although_hit3_held_or_rose(
    config: str,
    hit3_now: float,
    broken: set[tuple[str, int, int]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    baseline = _record_baseline(tmp_path, capsys)
    code, report, out = _evaluate(
        config, tmp_path, capsys, "--baseline", str(baseline), "--mode", "support-search"
    )
    assert (code, report["verdict"], report["exit_code"]) == (1, "fail", 1)
    section = report["baseline"]
    assert section["status"] == "regression"
    # No aggregate fell: the protected-question rule alone decides the FAIL.
    assert section["regressions"] == []
    assert report["qa"]["retrieval"]["overall"]["hit@3"] == pytest.approx(hit3_now)
    assert hit3_now >= 0.70
    assert {(b["id"], b["before"], b["after"]) for b in section["broken"]} == broken
    assert {b["metric"] for b in section["broken"]} == {"hit@3"}
    for case_id, before, after in broken:  # the case, then what its rank was and is
        assert re.search(
            rf"^  {case_id}\b.*\n\s+hit@3: expected rank ≤ 3 \(was rank {before}\), "
            rf"got rank {after}$",
            out,
            re.M,
        ), out


@pytest.mark.parametrize("config", ["2-bm25-rewrite", "3-dense", "4-hybrid-rerank"])
def test_paired_bootstrap_interval_brackets_the_hit3_change(
    config: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline = _record_baseline(tmp_path, capsys)
    _, report, out = _evaluate(
        config, tmp_path, capsys, "--baseline", str(baseline), "--mode", "support-search"
    )
    interval = report["baseline"]["intervals"]["hit@3"]
    now = PUBLISHED[config]["overall"][1]
    delta = now - PUBLISHED["1-bm25"]["overall"][1]
    assert interval["delta_low"] - 1e-9 <= delta <= interval["delta_high"] + 1e-9
    assert interval["current_low"] <= now <= interval["current_high"]
    # Same seed, same interval: a second run reproduces it exactly.
    _, again, _ = _evaluate(
        config, tmp_path, capsys, "--baseline", str(baseline), "--mode", "support-search"
    )
    assert again["baseline"]["intervals"]["hit@3"] == interval
    hit3 = next(line for line in out.splitlines() if line.startswith("hit@3 "))
    assert re.search(r"(pp|±0) +\[[-+]?\d+\.\d, [-+]?\d+\.\d\]", hit3), hit3  # Δ, interval


def test_the_interval_of_an_unchanged_metric_is_a_point_and_a_changed_one_is_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline = _record_baseline(tmp_path, capsys)
    _, report, _ = _evaluate(
        "3-dense", tmp_path, capsys, "--baseline", str(baseline), "--mode", "support-search"
    )
    intervals = report["baseline"]["intervals"]
    # hit@10 rose by one case (p06), nothing fell: the paired change never goes negative.
    assert intervals["hit@10"]["delta_low"] == pytest.approx(0.0)
    assert intervals["hit@10"]["delta_high"] > 0
    # hit@3: two cases lost, two gained: the change straddles zero.
    assert intervals["hit@3"]["delta_low"] < 0 < intervals["hit@3"]["delta_high"]


def test_going_back_to_the_weaker_retriever_is_an_aggregate_regression(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline = _record_baseline(tmp_path, capsys, config="2-bm25-rewrite")
    code, report, _ = _evaluate(
        "1-bm25", tmp_path, capsys, "--baseline", str(baseline), "--mode", "support-search"
    )
    assert (code, report["verdict"]) == (1, "fail")
    regressions = {r["metric"]: r for r in report["baseline"]["regressions"]}
    assert regressions["hit@3"]["baseline"] == pytest.approx(0.85)
    assert regressions["hit@3"]["current"] == pytest.approx(0.70)
    assert regressions["hit@3"]["delta"] == pytest.approx(-0.15)
    assert {(b["id"], b["before"], b["after"]) for b in report["baseline"]["broken"]} == {
        ("p01", 2, 4),
        ("p02", 3, None),
        ("p04", 3, 5),
    }


def test_protected_k_is_configurable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """At --protected-k 5 d07 (3 → 5) and d09 (2 → 4) stay protected-found: dense passes."""
    baseline = tmp_path / "k5.json"
    common = ["--baseline", str(baseline), "--mode", "k5", "--protected-k", "5"]
    assert _evaluate("1-bm25", tmp_path, capsys, *common)[0] == 0
    code, report, _ = _evaluate("3-dense", tmp_path, capsys, *common)
    assert (code, report["verdict"]) == (0, "pass")
    assert report["baseline"]["broken"] == []
    assert report["qa"]["retrieval"]["protected_k"] == 5
    # Within 5, only the questions whose relevant doc was not returned at all are misses.
    assert sorted(m["id"] for m in report["qa"]["retrieval"]["misses"]) == ["p02", "p09"]


def test_relevance_level_reaches_the_metrics_as_trec_eval_l(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--relevance-level 2`` makes grade-1 docs non-relevant for the binary measures."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = {"q1": {"a": 1, "b": 2}, "q2": {"c": 2, "d": 1}, "q3": {"e": 2}}
    run = {"q1": {"a": 3.0, "b": 2.0}, "q2": {"d": 3.0, "x": 2.5, "c": 2.0}, "q3": {"y": 1.0}}
    (tmp_path / "graded.qrels").write_text(
        "".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items())
    )
    (tmp_path / "graded.run").write_text(
        "".join(f"{q} Q0 {d} 0 {s} r\n" for q, docs in run.items() for d, s in docs.items())
    )
    report = tmp_path / "trec.json"
    args = ["--qrels", str(tmp_path / "graded.qrels"), "--run", str(tmp_path / "graded.run")]
    args += ["--relevance-level", "2", "--no-baseline", "--report", str(report)]
    assert _run(args, capsys)[0] == 1  # q3 misses: with no baseline, every query must hit
    overall = json.loads(report.read_text())["qa"]["retrieval"]["overall"]
    measures = {"success_1", "success_3", "recip_rank", "recall_3", "P_3", "ndcg_cut_3"}
    oracle = pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=2).evaluate(run)
    ours = {
        "success_1": "hit@1",
        "success_3": "hit@3",
        "recip_rank": "mrr",
        "recall_3": "recall@3",
        "P_3": "precision@3",
        "ndcg_cut_3": "ndcg@3",
    }
    for measure, name in ours.items():
        expected = sum(oracle[q][measure] for q in qrels) / len(qrels)
        assert overall[name] == pytest.approx(expected, abs=1e-6), name
    # Hand check: at level 2 no query has its relevant doc first (a, d and y lead).
    assert overall["hit@1"] == 0.0
    assert overall["mrr"] == pytest.approx((1 / 2 + 1 / 3 + 0) / 3)

"""The column TREC evaluator against trec_eval's own outputs, pytrec_eval and the case path.

* every measure family (map, map_cut, Rprec, bpref included) equals trec_eval's expected
  outputs (per query and ``all``, to its 4 decimals) on trec_eval's test data;
* on seeded random runs (ties, prefixes, long docnos, negative grades, queries with nothing
  relevant, queries missing on either side, levels 1-3) every per-query value equals
  pytrec_eval's (trec_eval's C code) to 1e-9;
* the fast reader and the line reader give the same columns; every bad input is a located
  one-line error; the report's numbers and fingerprint equal the golden-case path's.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
import pytrec_eval

from ragspine_action.cli import main
from ragspine_action.errors import ConfigError, InputError
from ragspine_action.golden.load import golden_set_from_cases
from ragspine_action.metrics.trec import load_qrels, load_run, trec_to_golden
from ragspine_action.metrics.trec_columns import (
    TrecEvaluation,
    evaluate_columns,
    parse_measures,
    per_query_tsv,
    read_qrels_columns,
    read_run_columns,
    trec_eval_name,
)
from ragspine_action.qa import QASettings, evaluate_qa
from ragspine_action.systems.base import complete_collection

REPO_ROOT = Path(__file__).resolve().parents[2]
ORACLE = REPO_ROOT / "tests" / "data" / "trec_eval"  # trec_eval's own test data, with NIST's notice

ALL = parse_measures(
    "hit@1,3,5,10 mrr ndcg@1,3,5,10,20 recall@1,3,5,10 precision@1,3,5,10,20 "
    "map map@5,10,20 Rprec bpref"
)


def _evaluate(qrels: Path, run: Path, measures=ALL, level: int = 1) -> TrecEvaluation:
    return evaluate_columns(
        read_qrels_columns(qrels), read_run_columns(run), measures, relevance_level=level
    )


# --------------------------------------------------------------------------- trec_eval's outputs


def _oracle_values(path: Path) -> dict[tuple[str, str], float]:
    out: dict[tuple[str, str], float] = {}
    for line in path.read_text().splitlines():
        name, qid, value = (part.strip() for part in line.split("\t"))
        out[(name, qid)] = float(value) if value.replace(".", "", 1).isdigit() else float("nan")
    return out


@pytest.mark.parametrize(
    ("out", "qrels", "run", "level"),
    [
        ("out.test.aq", "qrels.test", "results.test", 1),
        ("out.test.aqc", "qrels.test", "results.trunc", 1),
        ("out.test.aql", "qrels.rel_level", "results.test", 2),
        ("out.test", "qrels.test", "results.test", 1),
        ("out.test.meas_params", "qrels.test", "results.test", 1),
    ],
)
def test_every_measure_equals_trec_eval_expected_output(
    out: str, qrels: str, run: str, level: int
) -> None:
    expected = _oracle_values(ORACLE / out)
    evaluation = _evaluate(ORACLE / qrels, ORACLE / run, level=level)
    means = evaluation.means
    checked: set[str] = set()
    mismatches = []
    for i, name in enumerate(evaluation.measures):
        trec = trec_eval_name(name)
        for qid_index, qid in enumerate(evaluation.qids):
            if (trec, qid) in expected:
                ours = evaluation.values[qid_index, i]
                if f"{ours:.4f}" != f"{expected[(trec, qid)]:.4f}":
                    mismatches.append(f"{trec} {qid}: {expected[(trec, qid)]} vs {ours}")
                checked.add(trec)
        if (trec, "all") in expected:
            checked.add(trec)
            if f"{means[name]:.4f}" != f"{expected[(trec, 'all')]:.4f}":
                mismatches.append(f"{trec} all: {expected[(trec, 'all')]} vs {means[name]}")
    assert not mismatches, "\n".join(mismatches)
    in_output = {name for name, _ in expected}
    assert {"map", "Rprec", "bpref"} & in_output <= checked
    assert len(checked) >= 3


def test_new_measures_are_in_trec_eval_all_trec_output() -> None:
    expected = _oracle_values(ORACLE / "out.test.aq")
    evaluation = _evaluate(ORACLE / "qrels.test", ORACLE / "results.test")
    for name in ("map", "Rprec", "bpref", "map@10"):
        i = evaluation.measures.index(name)
        for q, qid in enumerate(evaluation.qids):
            assert round(evaluation.values[q, i], 4) == pytest.approx(
                expected[(trec_eval_name(name), qid)], abs=5e-5
            )


# --------------------------------------------------------------------------- pytrec_eval, random


def _random_pair(rng: random.Random, tmp: Path) -> tuple[Path, Path]:
    """Seeded qrels/run with every trec_eval corner: ties, prefixes, long ids, -1 grades…"""
    prefixes = ["D", "doc-", "clueweb12-0000tw-00-", "X"]
    qrels_lines, run_lines = [], []
    n_queries = rng.randint(3, 25)
    for q in range(n_queries):
        qid = f"{rng.choice(['q', 'Q', '1'])}{q}"
        pool = [f"{rng.choice(prefixes)}{rng.randint(0, 60)}" for _ in range(rng.randint(5, 60))]
        pool = list(dict.fromkeys(pool))
        if rng.random() < 0.1:
            pool.append(pool[0] + "0")  # a docno that has another as its prefix
        judged = rng.sample(pool, rng.randint(0, len(pool)))
        in_qrels = rng.random() > 0.08 and judged
        if in_qrels:
            for doc in judged:
                grade = rng.choice([-1, 0, 0, 1, 1, 2, 3]) if rng.random() > 0.15 else 0
                qrels_lines.append(f"{qid} 0 {doc} {grade}")
        if rng.random() > 0.1 or not in_qrels:
            retrieved = rng.sample(pool, rng.randint(1, len(pool)))
            scores = [rng.choice([1.0, 2.0, 2.5, 0.5, -1.0]) for _ in retrieved]
            for rank, (doc, score) in enumerate(zip(retrieved, scores, strict=True), start=1):
                run_lines.append(f"{qid} Q0 {doc} {rank} {score} r")
    if not qrels_lines:
        qrels_lines.append("zz 0 D1 1")
    if not run_lines:
        run_lines.append("zz Q0 D1 1 1.0 r")
    rng.shuffle(run_lines)  # file order never matters
    qrels_path, run_path = tmp / "q.txt", tmp / "r.txt"
    qrels_path.write_text("\n".join(qrels_lines) + "\n")
    run_path.write_text("\n".join(run_lines) + "\n")
    return qrels_path, run_path


def _pytrec_param_name(name: str) -> str:
    trec = trec_eval_name(name)
    for family in ("success", "ndcg_cut", "recall", "P", "map_cut"):
        if trec.startswith(family + "_") and trec[len(family) + 1 :].isdigit():
            return f"{family}.{trec[len(family) + 1 :]}"
    return trec


@pytest.mark.parametrize("seed", range(40))
def test_per_query_values_equal_pytrec_eval(seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    qrels_path, run_path = _random_pair(rng, tmp_path)
    level = rng.choice([1, 1, 2, 3])
    evaluation = _evaluate(qrels_path, run_path, level=level)
    with open(qrels_path) as handle:
        qrels = pytrec_eval.parse_qrel(handle)
    with open(run_path) as handle:
        run = pytrec_eval.parse_run(handle)
    evaluator = pytrec_eval.RelevanceEvaluator(
        qrels, {_pytrec_param_name(m) for m in ALL}, relevance_level=level
    )
    theirs = evaluator.evaluate(run)
    assert evaluation.qids == sorted(qrels, key=lambda q: q.encode())
    for q, qid in enumerate(evaluation.qids):
        for i, name in enumerate(evaluation.measures):
            ours = evaluation.values[q, i]
            if qid in theirs:
                assert ours == pytest.approx(theirs[qid][trec_eval_name(name)], abs=1e-9), (
                    seed,
                    qid,
                    name,
                )
            elif name.startswith(("hit", "mrr", "recall", "precision", "map", "Rprec", "bpref")):
                # -c: a qrels query the run does not answer scores 0
                assert ours == 0.0


def test_a_query_with_nothing_relevant_is_averaged_in_as_trec_eval_does(tmp_path: Path) -> None:
    qrels = tmp_path / "q"
    qrels.write_text("a 0 d1 0\na 0 d2 0\nb 0 d1 1\n")
    run = tmp_path / "r"
    run.write_text("a Q0 d1 1 2.0 r\nb Q0 d1 1 1.0 r\n")
    evaluation = _evaluate(qrels, run, parse_measures("hit@1 map"))
    assert evaluation.qids == ["a", "b"]
    assert evaluation.values.tolist() == [[0.0, 0.0], [1.0, 1.0]]
    assert evaluation.means == {"hit@1": 0.5, "map": 0.5}


def test_ties_are_broken_by_docno_descending_in_byte_order(tmp_path: Path) -> None:
    qrels = tmp_path / "q"
    qrels.write_text("q 0 D1 1\n")
    run = tmp_path / "r"
    # Equal scores: trec_eval ranks D2 > D10 > D1 (bytes, descending), whatever the file says.
    run.write_text("q Q0 D1 1 5 r\nq Q0 D10 2 5 r\nq Q0 D2 3 5 r\n")
    evaluation = _evaluate(qrels, run, parse_measures("mrr"))
    assert evaluation.values[0, 0] == pytest.approx(1 / 3)
    assert evaluation.first_relevant_rank.tolist() == [3]


# --------------------------------------------------------------------------- both readers agree


def _reformat(path: Path, target: Path, rng: random.Random) -> None:
    """The same judgments with tabs, runs of spaces, comments, blank lines and CRLF."""
    lines = ["# written by hand"]
    for line in path.read_text().splitlines():
        sep = rng.choice(["\t", "  ", " \t "])
        lines.append(sep.join(line.split()))
        if rng.random() < 0.05:
            lines.append("")
    target.write_bytes(("\r\n".join(lines) + "\r\n").encode())


@pytest.mark.parametrize("seed", range(6))
def test_fast_and_line_readers_give_identical_evaluations(seed: int, tmp_path: Path) -> None:
    rng = random.Random(100 + seed)
    qrels_path, run_path = _random_pair(rng, tmp_path)
    odd_qrels, odd_run = tmp_path / "q2", tmp_path / "r2"
    _reformat(qrels_path, odd_qrels, rng)
    _reformat(run_path, odd_run, rng)
    fast = _evaluate(qrels_path, run_path)
    slow = _evaluate(odd_qrels, odd_run)
    assert fast.qids == slow.qids
    assert np.array_equal(fast.values, slow.values)
    assert fast.digests == slow.digests


def test_columns_read_the_same_from_either_reader(tmp_path: Path) -> None:
    run = tmp_path / "r"
    run.write_text("q1 Q0 a 1 1.5 tagA\nq1 Q0 b 2 0.5 tagA\nq2 Q0 a 1 3 tagB\n")
    odd = tmp_path / "r2"
    odd.write_text(
        "# comment\nq1\tQ0\ta\t1\t1.5\ttagA\nq1 Q0 b 2 0.5 tagA extra\n\nq2 Q0 a 1 3 tagB\n"
    )
    for path in (run, odd):
        columns = read_run_columns(path)
        assert columns.qids == ["q1", "q2"]
        assert columns.docs.tolist() == [b"a", b"b", b"a"]
        assert columns.scores.tolist() == [1.5, 0.5, 3.0]
        assert columns.run_id == "tagB"


# --------------------------------------------------------------------------- bad inputs


@pytest.mark.parametrize(
    ("which", "text", "message"),
    [
        ("run", "q Q0 d 1 1.0 r\nq Q0 d 2 0.5 r\n", "bad:2: id=q: doc 'd' listed twice"),
        ("run", "q Q0 d 1 abc r\n", "score 'abc' is not a number"),
        ("run", "q Q0 d 1 nan r\n", "not a finite number"),
        ("run", "q Q0 d 1 1.0\n", "bad:1: expected 6 fields"),
        ("run", b"q Q0 \xff 1 1.0 r\n", "not valid UTF-8"),
        ("qrels", "q 0 d 1\nq 0 d 2\n", "judged twice"),
        ("qrels", "q 0 d 1.5\n", "relevance '1.5' is not an integer"),
        ("qrels", "q 0 d 99999999999999999999\n", "out of range"),
        ("qrels", "q 0 d\n", "expected 4 fields"),
        ("qrels", "", "no judgments found"),
    ],
)
def test_bad_files_are_located_errors(
    which: str, text: str | bytes, message: str, tmp_path: Path
) -> None:
    good_qrels, good_run = tmp_path / "gq", tmp_path / "gr"
    good_qrels.write_text("q 0 d 1\n")
    good_run.write_text("q Q0 d 1 1.0 r\n")
    bad = tmp_path / "bad"
    bad.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(InputError) as caught:
        if which == "run":
            evaluate_columns(read_qrels_columns(good_qrels), read_run_columns(bad), ("mrr",))
        else:
            evaluate_columns(read_qrels_columns(bad), read_run_columns(good_run), ("mrr",))
    assert message in str(caught.value)
    assert str(bad) in str(caught.value)


def test_cli_bad_run_is_exit_2_with_one_located_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    qrels, run = tmp_path / "q", tmp_path / "r"
    qrels.write_text("q 0 d 1\n")
    run.write_text("q Q0 d 1 1.0 r\nq Q0 d 2 0.5 r\n")
    code = main(["--qrels", str(qrels), "--run", str(run), "--no-baseline", "--no-config"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{run}:2" in err and "listed twice" in err
    assert "Traceback" not in err


# --------------------------------------------------------------------------- measures


def test_measure_names_ours_and_trec_evals() -> None:
    assert parse_measures(
        "map, P.10 success.1,3,10 recip_rank ndcg_cut_10 Rprec bpref map_cut.5"
    ) == (
        "hit@1",
        "hit@3",
        "hit@10",
        "mrr",
        "ndcg@10",
        "precision@10",
        "map",
        "map@5",
        "Rprec",
        "bpref",
    )
    assert [trec_eval_name(m) for m in ("hit@3", "mrr", "map@5", "precision@10", "Rprec")] == [
        "success_3",
        "recip_rank",
        "map_cut_5",
        "P_10",
        "Rprec",
    ]


@pytest.mark.parametrize("spec", ["", "hit", "P.x", "ndcg@0", "foo,map", "map;bpref"])
def test_unknown_measures_are_config_errors(spec: str) -> None:
    with pytest.raises(ConfigError, match="--measures"):
        parse_measures(spec)


# --------------------------------------------------------------------------- the pipeline


def test_report_equals_the_golden_case_path_and_keeps_its_fingerprint(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    code = main(
        [
            "--qrels",
            str(ORACLE / "qrels.test"),
            "--run",
            str(ORACLE / "results.test"),
            "--no-baseline",
            "--no-config",
            "--quiet",
            "--report",
            str(report),
        ]
    )
    assert code == 1  # no baseline: every query must hit@3
    qa = json.loads(report.read_text())["qa"]
    conversion = trec_to_golden(
        load_qrels(ORACLE / "qrels.test"), load_run(ORACLE / "results.test")
    )
    golden = golden_set_from_cases(conversion.cases, path="qrels")
    old = evaluate_qa(
        golden,
        complete_collection(golden.cases, conversion.outcomes),
        mode="tool",
        system="trec",
        settings=QASettings(),
    )
    assert qa["golden"]["fingerprint"] == golden.fingerprint
    assert old.retrieval is not None
    for name, value in old.retrieval.overall.items():
        assert qa["retrieval"]["overall"][name] == pytest.approx(value, abs=1e-12)
    for mine, theirs in zip(qa["cases"], old.cases, strict=True):
        assert mine["id"] == theirs.id and mine["rank"] == theirs.rank
        assert mine["gates"] == theirs.gates and mine["passed"] == theirs.passed
        assert mine["attribution"] == theirs.attribution
        assert theirs.retrieval is not None
        for name, value in theirs.retrieval.items():
            assert mine["retrieval"][name] == pytest.approx(value, abs=1e-12)
    assert {"map", "Rprec", "bpref"} <= set(qa["retrieval"]["overall"])


def test_per_query_file_is_trec_eval_q_format(tmp_path: Path) -> None:
    per_query = tmp_path / "per_query.tsv"
    code = main(
        [
            "--qrels",
            str(ORACLE / "qrels.test"),
            "--run",
            str(ORACLE / "results.test"),
            "--measures",
            "map,P.10",
            "--per-query",
            str(per_query),
            "--no-baseline",
            "--no-config",
            "--quiet",
        ]
    )
    assert code == 1  # no baseline: every query must hit@3
    lines = per_query.read_text().splitlines()
    expected = _oracle_values(ORACLE / "out.test.aq")
    assert len(lines) == 2 * 3 + 2
    for line in lines:
        name, qid, value = line.split("\t")
        assert float(value) == pytest.approx(expected[(name.strip(), qid)], abs=5e-5)
    assert per_query_tsv(
        _evaluate(ORACLE / "qrels.test", ORACLE / "results.test", ("map",))
    ).endswith("\tall\t" + f"{expected[('map', 'all')]:.4f}\n")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--shard", "1/2", "--mode", "bm25"], "--shard"),
        (["--measures", "nope"], "--measures"),
    ],
)
def test_trec_flag_errors_are_exit_2(
    extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--qrels", str(ORACLE / "qrels.test"), "--run", str(ORACLE / "results.test")]
    code = main([*args, "--no-baseline", "--no-config", *extra])
    assert code == 2
    assert message in capsys.readouterr().err


def test_measures_without_trec_files_is_a_configuration_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--measures", "map", "--no-baseline", "--no-config"]) == 2
    assert "--qrels" in capsys.readouterr().err


def test_case_digests_equal_the_golden_case_paths() -> None:
    from ragspine_action.baseline.digests import digest_cases, digest_dumps
    from ragspine_action.metrics.trec_columns import case_digest_rows

    qrels = read_qrels_columns(ORACLE / "qrels.rel_level")
    conversion = trec_to_golden(load_qrels(ORACLE / "qrels.rel_level"), {})
    mine = digest_dumps(case_digest_rows(qrels))
    theirs = digest_cases(conversion.cases)
    assert list(mine.ids) == list(theirs.ids)
    assert mine.columns == theirs.columns
    assert mine.full == theirs.full


def test_a_trec_baseline_gates_the_next_run(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    qrels = ORACLE / "qrels.test"
    args = ["--qrels", str(qrels), "--no-config", "--quiet", "--mode", "bm25"]
    args += ["--baseline", str(baseline)]
    assert main([*args, "--run", str(ORACLE / "results.test")]) == 0  # creates
    assert "bm25" in json.loads(baseline.read_text())
    assert main([*args, "--run", str(ORACLE / "results.test")]) == 0  # unchanged: pass
    worse = tmp_path / "worse.run"
    # Reverse every query's ranking: the relevant docs fall down the list.
    lines = (ORACLE / "results.test").read_text().split("\n")
    rows = [line.split() for line in lines if line.strip()]
    worse.write_text("".join(f"{r[0]} Q0 {r[2]} {r[3]} {-float(r[4])} x\n" for r in rows))
    assert main([*args, "--run", str(worse)]) == 1

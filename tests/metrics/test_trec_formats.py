"""TREC qrels/run readers and their conversion to golden cases and outcomes."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine_action.errors import ConfigError, InputError
from ragspine_action.golden import golden_set_from_cases
from ragspine_action.metrics.retrieval import score_retrieval
from ragspine_action.metrics.trec import (
    MAX_PROBLEMS,
    TrecRun,
    load_qrels,
    load_run,
    trec_to_golden,
)


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_load_qrels_graded_negative_comments_blank(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "q.txt",
        "# judged by hand\n1 0 d1 2\n\n1 0 d2 -1\n  2\t0\td3\t0\n1 Q0 d4 +1\n",
    )
    assert load_qrels(path) == {"1": {"d1": 2, "d2": -1, "d4": 1}, "2": {"d3": 0}}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 0 d1\n", "q.txt:1: expected 4 fields 'qid iter docno rel', found 3"),
        ("1 0 d1 1 extra\n", "q.txt:1: expected 4 fields"),
        ("1 0 d1 1\n1 0 d2 high\n", "q.txt:2: id=1: relevance 'high' is not an integer"),
        ("1 0 d1 1\n1 0 d1 2\n", "q.txt:2: id=1: doc 'd1' judged twice (first on line 1)"),
        ("# only a comment\n", "q.txt: no judgments found"),
    ],
)
def test_load_qrels_errors_are_located(tmp_path: Path, text: str, message: str) -> None:
    path = _write(tmp_path, "q.txt", text)
    with pytest.raises(InputError) as info:
        load_qrels(path)
    assert message in str(info.value).replace(str(tmp_path) + "/", "")


def test_load_qrels_reports_every_bad_line_at_once(tmp_path: Path) -> None:
    path = _write(tmp_path, "q.txt", "1 0 d1 x\n1 0 d2 1\n1 0 d3\n")
    with pytest.raises(InputError) as info:
        load_qrels(path)
    assert [p.line for p in info.value.problems] == [1, 3]


def test_too_many_problems_are_capped(tmp_path: Path) -> None:
    path = _write(tmp_path, "q.txt", "bad\n" * (MAX_PROBLEMS + 7))
    with pytest.raises(InputError) as info:
        load_qrels(path)
    assert len(info.value.problems) == MAX_PROBLEMS + 1
    assert "7 more problems not shown" in str(info.value)


def test_missing_and_non_utf8_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"absent\.run: file not found"):
        load_run(tmp_path / "absent.run")
    path = tmp_path / "bin.run"
    path.write_bytes(b"1 Q0 d1 1 1.0 t\n1 Q0 \xff 2 0.5 t\n")
    with pytest.raises(InputError, match=r"bin.run:2: not valid UTF-8"):
        load_run(path)


def test_load_run_ranks_by_score_then_docno_descending(tmp_path: Path) -> None:
    # Rank column and file order are deliberately misleading; extra fields are ignored.
    path = _write(
        tmp_path,
        "r.run",
        "q1 Q0 a 1 1.5 runA\n"
        "q1 Q0 c 2 1.5 runA\n"
        "q1 Q0 b 3 2.0 runA junk after tag\n"
        "q1 Q0 B 4 1.5 runA\n"
        "# comment\n"
        "q2 Q0 x 9 -3e-1 runB\n"
        "q2 Q0 y 1 1e2 runB\n",
    )
    run = load_run(path)
    assert run.rankings == {"q1": ["b", "c", "a", "B"], "q2": ["y", "x"]}
    assert run.run_id == "runB"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("q1 Q0 a 1 1.0\n", "r.run:1: expected 6 fields 'qid Q0 docno rank score tag', found 5"),
        ("q1 Q0 a 1 high t\n", "r.run:1: id=q1: score 'high' is not a number"),
        ("q1 Q0 a 1 nan t\n", "r.run:1: id=q1: score 'nan' is not a finite number"),
        ("q1 Q0 a 1 1e999 t\n", "not a finite number"),
        (
            "q1 Q0 a 1 1.0 t\nq2 Q0 a 1 1.0 t\nq1 Q0 a 2 0.5 t\n",
            "r.run:3: id=q1: doc 'a' listed twice for one query (first on line 1)",
        ),
        ("\n\n", "r.run: no results found"),
    ],
)
def test_load_run_errors_are_located(tmp_path: Path, text: str, message: str) -> None:
    path = _write(tmp_path, "r.run", text)
    with pytest.raises(InputError) as info:
        load_run(path)
    assert message in str(info.value).replace(str(tmp_path) + "/", "")


def test_same_doc_in_two_queries_is_fine(tmp_path: Path) -> None:
    path = _write(tmp_path, "r.run", "q1 Q0 a 1 1.0 t\nq2 Q0 a 1 1.0 t\n")
    assert load_run(path).rankings == {"q1": ["a"], "q2": ["a"]}


def test_trec_to_golden_builds_valid_cases_and_outcomes() -> None:
    qrels = {
        "2": {"d1": 1, "d2": 3, "d0": 0, "dn": -1},
        "1": {"d1": 1},
        "3": {"dz": 0},
    }
    run = TrecRun("mem", {"2": ["d2", "x", "d1"], "9": ["d1"]}, "sys")
    conv = trec_to_golden(qrels, run)
    assert [c.id for c in conv.cases] == ["1", "2"]
    case2 = conv.cases[1]
    assert case2.case_type == "retrieval"
    assert case2.expected.relevant_docs == {"d1": 1, "d2": 3}
    assert [s.doc for s in conv.outcomes["2"].sources] == ["d2", "x", "d1"]
    assert conv.outcomes["1"].sources == []  # judged but not answered: scored as 0
    assert conv.excluded_queries == ("3",)
    assert conv.unjudged_queries == ("9",)
    # The cases pass the golden set's own rules, so the normal pipeline accepts them.
    assert len(golden_set_from_cases(conv.cases)) == 2


def test_relevance_level_is_honoured_through_the_pipeline() -> None:
    qrels = {"q": {"low": 1, "high": 2}, "only_low": {"low": 1}}
    run = {"q": ["low", "high"], "only_low": ["low"]}
    conv = trec_to_golden(qrels, run, relevance_level=2)
    assert conv.relevance_level == 2
    assert conv.excluded_queries == ("only_low",)
    per_case, summary = score_retrieval(
        conv.cases, conv.outcomes, [1], relevance_level=conv.relevance_level
    )
    # 'low' is below the level: not a hit at 1, but it still gains in nDCG (as trec_eval).
    assert per_case["q"].values["hit@1"] == 0.0
    assert per_case["q"].values["mrr"] == 0.5
    assert per_case["q"].values["ndcg@1"] == pytest.approx(0.5)
    assert summary.n == 1


@pytest.mark.parametrize("level", [0, -1, True])
def test_bad_relevance_level_is_a_config_error(level: int) -> None:
    with pytest.raises(ConfigError, match="relevance level"):
        trec_to_golden({"q": {"d": 1}}, {"q": ["d"]}, relevance_level=level)

"""TREC qrels and run files, read as trec_eval reads them, and turned into golden cases.

* qrels: ``qid iter docno rel`` per line, exactly four fields; ``rel`` is an integer
  grade, negative allowed (trec_eval's "in the pool but unjudged"). A doc judged twice
  for one query is an error, as in trec_eval.
* run: ``qid Q0 docno rank score tag`` per line; fields after the tag are ignored.
  Docs are ranked by score descending, ties broken by docno descending in byte order;
  the rank column and the file order are ignored. A doc listed twice for one query is
  an error.

In both, blank lines and lines starting with ``#`` are skipped. Stricter than trec_eval
on purpose: a grade or score that is not a number (trec_eval's ``atol``/``atof`` would
read it as 0) or a non-finite score is a located error, not a silent zero.

``trec_to_golden`` builds ``retrieval`` golden cases and outcomes so the normal pipeline
scores a TREC pair. Every query of the qrels becomes a case (trec_eval ``-c``: a query
the run does not answer scores 0); run queries absent from the qrels are ignored, as
trec_eval does. The cases keep every positive grade, because nDCG gains from grades below
the relevance level too; the *binary* measures honour the level only when the same
``relevance_level`` is passed on to ``metrics.retrieval`` — the pipeline's
``--relevance-level``. A query with no grade at or above the level has no relevant doc:
it is left out and listed in ``excluded_queries``, as the metrics would exclude it.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ..errors import ConfigError, InputError, Problem
from ..golden.models import GoldenCase
from ..input_files import read_input_bytes
from ..jsonio import DEFAULT_MAX_INPUT_BYTES
from ..outcomes.model import Outcome

__all__ = [
    "MAX_PROBLEMS",
    "Qrels",
    "TrecConversion",
    "TrecRun",
    "check_relevance_level",
    "load_qrels",
    "load_run",
    "load_run_scores",
    "rank_by_score",
    "trec_to_golden",
]

Qrels = dict[str, dict[str, int]]
"""Query id → doc id → grade, as judged (zero and negative grades kept)."""

MAX_PROBLEMS = 50
"""Stop listing problems after this many: a wrong file should not print a million lines."""

MAX_GRADE = 2**31 - 1
"""trec_eval reads grades as C ints; larger ones are not relevance grades."""
"""Stop listing problems after this many: a wrong file should not print a million lines."""


@dataclass(frozen=True)
class TrecRun:
    """A run: each query's docs in trec_eval's rank order; ``run_id`` of the last line."""

    path: str
    rankings: dict[str, list[str]]
    run_id: str | None


def _lines(path: str | os.PathLike[str]) -> Iterator[tuple[int, str | None, list[str]]]:
    """(line number, decode error or None, fields) of each content line."""
    data = read_input_bytes(path, DEFAULT_MAX_INPUT_BYTES).removeprefix(b"\xef\xbb\xbf")
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield number, f"not valid UTF-8 (byte {exc.start + 1})", []
            continue
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        yield number, None, stripped.split()


class _Problems:
    def __init__(self, path: str) -> None:
        self.path = path
        self.items: list[Problem] = []
        self.dropped = 0

    def add(self, line: int, message: str, case_id: str | None = None) -> None:
        if len(self.items) < MAX_PROBLEMS:
            self.items.append(Problem(self.path, line, None, message, case_id))
        else:
            self.dropped += 1

    def raise_if_any(self) -> None:
        if not self.items:
            return
        problems = list(self.items)
        if self.dropped:
            problems.append(
                Problem(self.path, None, None, f"{self.dropped} more problems not shown")
            )
        raise InputError(problems)


def load_qrels(path: str | os.PathLike[str]) -> Qrels:
    """Read TREC qrels; every bad line is reported at once as ``file:line: message``."""
    problems = _Problems(str(path))
    qrels: Qrels = {}
    first_line: dict[tuple[str, str], int] = {}
    for number, decode_error, fields in _lines(path):
        if decode_error is not None:
            problems.add(number, decode_error)
            continue
        if len(fields) != 4:
            problems.add(number, f"expected 4 fields 'qid iter docno rel', found {len(fields)}")
            continue
        qid, _iter, docno, raw_rel = fields
        try:
            grade = int(raw_rel)
        except ValueError:
            problems.add(number, f"relevance {raw_rel[:20]!r} is not an integer", qid)
            continue
        if abs(grade) > MAX_GRADE:
            problems.add(number, f"relevance is out of range (at most {MAX_GRADE})", qid)
            continue
        key = (qid, docno)
        if key in first_line:
            problems.add(
                number, f"doc {docno!r} judged twice (first on line {first_line[key]})", qid
            )
            continue
        first_line[key] = number
        qrels.setdefault(qid, {})[docno] = grade
    problems.raise_if_any()
    if not qrels:
        raise InputError.single(str(path), "no judgments found")
    return qrels


def rank_by_score(scores: Mapping[str, float]) -> list[str]:
    """trec_eval's order: score descending, ties by docno descending in byte order."""
    # UTF-8 byte order equals code point order, so comparing str is comparing bytes.
    return [
        doc for doc, _ in sorted(scores.items(), key=lambda item: (item[1], item[0]), reverse=True)
    ]


def load_run(path: str | os.PathLike[str]) -> TrecRun:
    """Read a TREC run and rank each query's docs as trec_eval does."""
    scores, run_id = load_run_scores(path)
    rankings = {qid: rank_by_score(doc_scores) for qid, doc_scores in scores.items()}
    return TrecRun(str(path), rankings, run_id)


def load_run_scores(
    path: str | os.PathLike[str],
) -> tuple[dict[str, dict[str, float]], str | None]:
    """Each query's doc → score, and the run id (the tag of the last line)."""
    name = str(path)
    problems = _Problems(name)
    scores: dict[str, dict[str, float]] = {}
    first_line: dict[tuple[str, str], int] = {}
    run_id: str | None = None
    for number, decode_error, fields in _lines(path):
        if decode_error is not None:
            problems.add(number, decode_error)
            continue
        if len(fields) < 6:
            problems.add(
                number,
                f"expected 6 fields 'qid Q0 docno rank score tag', found {len(fields)}",
            )
            continue
        qid, _q0, docno, _rank, raw_score, tag = fields[:6]
        try:
            score = float(raw_score)
        except ValueError:
            problems.add(number, f"score {raw_score[:20]!r} is not a number", qid)
            continue
        if not math.isfinite(score):
            problems.add(number, f"score {raw_score[:20]!r} is not a finite number", qid)
            continue
        key = (qid, docno)
        if key in first_line:
            problems.add(
                number,
                f"doc {docno!r} listed twice for one query (first on line {first_line[key]})",
                qid,
            )
            continue
        first_line[key] = number
        scores.setdefault(qid, {})[docno] = score
        run_id = tag
    problems.raise_if_any()
    if not scores:
        raise InputError.single(name, "no results found")
    return scores, run_id


@dataclass(frozen=True)
class TrecConversion:
    """Golden cases and outcomes made from a qrels/run pair.

    ``relevance_level`` must be passed on to the retrieval metrics. ``excluded_queries``
    are qrels queries without a relevant doc at that level; ``unjudged_queries`` are run
    queries the qrels do not judge (ignored, as trec_eval ignores them).
    """

    cases: tuple[GoldenCase, ...]
    outcomes: dict[str, Outcome]
    relevance_level: int
    excluded_queries: tuple[str, ...]
    unjudged_queries: tuple[str, ...]


def check_relevance_level(relevance_level: int) -> None:
    """trec_eval's ``-l``, but at least 1 (a level of 0 makes non-relevant docs relevant)."""
    if isinstance(relevance_level, bool) or not isinstance(relevance_level, int):
        raise ConfigError(f"relevance level must be an integer, got {relevance_level!r}")
    if relevance_level < 1:
        raise ConfigError(
            f"relevance level must be >= 1, got {relevance_level} "
            "(a level of 0 would make non-relevant judgments relevant)"
        )


def trec_to_golden(
    qrels: Mapping[str, Mapping[str, int]],
    run: TrecRun | Mapping[str, list[str]],
    *,
    relevance_level: int = 1,
) -> TrecConversion:
    """One ``retrieval`` case (id = qid) and one outcome (ranked ``sources``) per query."""
    check_relevance_level(relevance_level)
    rankings = run.rankings if isinstance(run, TrecRun) else run
    cases: list[GoldenCase] = []
    outcomes: dict[str, Outcome] = {}
    excluded: list[str] = []
    for qid in sorted(qrels):
        judged = qrels[qid]
        if not any(grade >= relevance_level for grade in judged.values()):
            excluded.append(qid)
            continue
        positive = {doc: grade for doc, grade in sorted(judged.items()) if grade > 0}
        cases.append(
            GoldenCase.model_validate(
                {
                    "id": qid,
                    "question": f"TREC query {qid}",
                    "case_type": "retrieval",
                    "expected": {"relevant_docs": positive},
                }
            )
        )
        ranked = rankings.get(qid, [])
        outcomes[qid] = Outcome.model_validate(
            {"id": qid, "sources": [{"doc": doc} for doc in ranked]}
        )
    unjudged = tuple(sorted(qid for qid in rankings if qid not in qrels))
    return TrecConversion(tuple(cases), outcomes, relevance_level, tuple(excluded), unjudged)

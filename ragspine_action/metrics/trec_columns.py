"""TREC qrels and runs evaluated by column: trec_eval's measures at trec_eval's speed.

A qrels/run pair of millions of lines is never turned into golden cases and outcomes.
Each file is read once into numpy columns (query code, docno, grade or score), the run is
put in trec_eval's order with one sort (query, score descending, docno descending in byte
order), and every measure is computed for all queries at once from the sorted columns.

Reading takes a fast path for regular files (single-byte ASCII whitespace between fields,
every line with exactly the expected number of fields, no comments or blank lines inside).
Anything else — comments, blank lines, extra run fields, bad numbers, duplicates, non-UTF-8
bytes — is read by ``metrics.trec``'s line readers, which either give the same columns or
report every bad line with its number. Both paths give the same columns.

Semantics are trec_eval's (``-c``: every qrels query is evaluated, a query the run does
not answer scores 0; run queries absent from the qrels are ignored). A query with no
relevant doc at the relevance level is evaluated too and scores 0 on the binary measures,
exactly as trec_eval averages it in. Measures (``relevant``: grade >= level):

=================  =============  ==================================================
ours               trec_eval      per query
=================  =============  ==================================================
``hit@k``          ``success_k``  1 if a relevant doc is within the top k
``mrr``            ``recip_rank`` 1 / rank of the first relevant doc (0: none)
``ndcg@k``         ``ndcg_cut_k`` DCG@k / ideal DCG@k; gain = grade (> 0 only, any level)
``recall@k``       ``recall_k``   relevant in the top k / relevant docs (R)
``precision@k``    ``P_k``        relevant in the top k / k
``map``            ``map``        sum of precision at each relevant doc retrieved / R
``map@k``          ``map_cut_k``  the same over the top k
``Rprec``          ``Rprec``      relevant in the top R / R
``bpref``          ``bpref``      per relevant doc retrieved, 1 - min(judged non-relevant
                                  above it, R) / min(judged non-relevant, R); / R
=================  =============  ==================================================

Judged non-relevant means graded 0 <= grade < level; a negative grade is "in the pool but
unjudged" and, like a doc absent from the qrels, is skipped by bpref.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import orjson

from ..errors import ConfigError, InputError
from ..input_files import read_input_bytes
from ..jsonio import DEFAULT_MAX_INPUT_BYTES

if TYPE_CHECKING:
    from ..report.cases import CaseTable

__all__ = [
    "TREC_DEFAULT_EXTRA",
    "QrelsColumns",
    "RunColumns",
    "TrecEvaluation",
    "case_digest_rows",
    "case_dumps",
    "evaluate_columns",
    "parse_measures",
    "per_query_tsv",
    "read_qrels_columns",
    "read_run_columns",
    "trec_case_table",
    "trec_eval_name",
]

TREC_DEFAULT_EXTRA: tuple[str, ...] = ("map", "Rprec", "bpref")
"""Measures the TREC path reports besides the QA path's (hit@k, mrr, ndcg@k, recall@k, P@k)."""

MAX_GRADE = 2**31 - 1
"""trec_eval keeps one counter per grade level: a grade beyond this is an error, not a level."""

_NOT_IN_QRELS = np.int64(-(2**62))  # a retrieved doc the qrels do not judge (trec_eval NONPOOL)
_BLOCK_BYTES = 4 << 20


# ---------------------------------------------------------------------------------------
# measures


_FAMILIES_WITH_K = {
    "hit": "hit",
    "success": "hit",
    "ndcg": "ndcg",
    "ndcg_cut": "ndcg",
    "recall": "recall",
    "precision": "precision",
    "p": "precision",
    "map": "map",
    "map_cut": "map",
}
_PLAIN = {
    "mrr": "mrr",
    "recip_rank": "mrr",
    "map": "map",
    "rprec": "Rprec",
    "r-prec": "Rprec",
    "bpref": "bpref",
}
_ORDER = ("hit", "mrr", "ndcg", "recall", "precision", "map", "Rprec", "bpref")
_TREC_NAMES = {"hit": "success", "ndcg": "ndcg_cut", "recall": "recall", "precision": "P"}


def parse_measures(spec: str | Iterable[str]) -> tuple[str, ...]:
    """Measure names, ours or trec_eval's, as our names in report order.

    Accepts ``hit@3``, ``success_3``, ``success.1,3,10``, ``P.10``, ``ndcg_cut.10``,
    ``map_cut.100``, ``recip_rank``, ``map``, ``Rprec``, ``bpref``; comma or space
    separated. An unknown name is a ConfigError listing what is accepted.
    """
    text = spec if isinstance(spec, str) else ",".join(spec)
    # "success.1,3,10": numbers after a comma still belong to the measure before them.
    items = [item for item in re.split(r"\s+|,(?=\s*[A-Za-z])", text.strip()) if item]
    if not items:
        raise ConfigError(f"--measures: no measure given {_ACCEPTED}")
    names: list[str] = []
    for item in items:
        for name in _one_measure(item):
            if name not in names:
                names.append(name)
    return tuple(sorted(names, key=_measure_sort_key))


_ACCEPTED = (
    "(accepted: hit@k, mrr, ndcg@k, recall@k, precision@k, map, map@k, Rprec, bpref, "
    "or trec_eval's success.k, recip_rank, ndcg_cut.k, recall.k, P.k, map_cut.k)"
)


def _one_measure(item: str) -> list[str]:
    match = re.fullmatch(r"([A-Za-z][A-Za-z_\-]*?)(?:[@._](\d+(?:,\d+)*))?,?", item)
    if match is None:
        raise ConfigError(f"--measures: unknown measure {item!r} {_ACCEPTED}")
    family, ks = match.group(1).lower(), match.group(2)
    if ks is None:
        if family in _PLAIN:
            return [_PLAIN[family]]
        raise ConfigError(f"--measures: unknown measure {item!r} {_ACCEPTED}")
    ours = _FAMILIES_WITH_K.get(family)
    if ours is None:
        raise ConfigError(f"--measures: unknown measure {item!r} {_ACCEPTED}")
    out = []
    for raw in ks.split(","):
        k = int(raw)
        if not 1 <= k <= 1_000_000:
            raise ConfigError(f"--measures: {item!r}: k must be between 1 and 1000000")
        out.append(f"{ours}@{k}")
    return out


def _measure_sort_key(name: str) -> tuple[int, int]:
    family, _, k = name.partition("@")
    return _ORDER.index(family), int(k) if k else 0


def trec_eval_name(name: str) -> str:
    """trec_eval's name of one of our measures (``hit@3`` → ``success_3``)."""
    family, _, k = name.partition("@")
    if not k:
        return "recip_rank" if family == "mrr" else family
    if family == "map":
        return f"map_cut_{k}"
    return f"{_TREC_NAMES[family]}_{k}"


# ---------------------------------------------------------------------------------------
# reading


class _Declined(Exception):
    """The fast reader cannot vouch for this file: the line reader takes it."""


@dataclass(frozen=True)
class QrelsColumns:
    """Judgments by column; ``qids`` in byte order, ``qcode`` indexes it."""

    path: str
    qids: list[str]
    qcode: npt.NDArray[np.int64]
    docs: npt.NDArray[np.bytes_]
    grades: npt.NDArray[np.int64]


@dataclass(frozen=True)
class RunColumns:
    """Results by column, in file order; ``qids`` by first appearance."""

    path: str
    qids: list[str]
    qcode: npt.NDArray[np.int32]
    docs: npt.NDArray[np.bytes_]
    scores: npt.NDArray[np.float64]
    run_id: str | None


def _read_bytes(path: str) -> bytes:
    """Through the one input reader (no FIFO or device), a UTF-8 BOM dropped."""
    return read_input_bytes(path, DEFAULT_MAX_INPUT_BYTES).removeprefix(b"\xef\xbb\xbf")


def _blocks(data: bytes) -> list[tuple[int, int]]:
    """Newline-aligned byte ranges of about ``_BLOCK_BYTES`` each."""
    out: list[tuple[int, int]] = []
    start, n = 0, len(data)
    while start < n:
        end = min(n, start + _BLOCK_BYTES)
        if end < n:
            cut = data.rfind(b"\n", start, end)
            end = cut + 1 if cut >= start else n
        out.append((start, end))
        start = end
    return out


def _fields_of_block(
    buf: npt.NDArray[np.uint8], start: int, end: int, n_fields: int, wanted: Sequence[int]
) -> list[npt.NDArray[np.bytes_]]:
    """The wanted fields of every line of one block, as fixed-width byte strings.

    The fast path's shape: fields split by exactly one space or tab, every line ends in
    a newline (the last one may not) and holds exactly ``n_fields`` fields. Then every
    byte <= 32 is a separator, and the separators alone give each field's bounds.
    """
    block = buf[start:end]
    seps = np.flatnonzero(block <= 32)
    if not len(block) or block[-1] != 10:
        seps = np.append(seps, len(block))  # a last line without its newline
    if len(seps) % n_fields or not len(seps) or seps[0] == 0:
        raise _Declined
    if np.any(np.diff(seps) < 2):  # an empty field: runs of whitespace, blank lines
        raise _Declined
    grid = seps.reshape(-1, n_fields)
    padded = np.append(block, np.uint8(10))  # the virtual newline after a last line
    inner = padded[grid[:, :-1]]
    if np.any(padded[grid[:, -1]] != 10) or np.any((inner != 32) & (inner != 9)):
        raise _Declined
    line_starts = np.concatenate((np.zeros(1, dtype=grid.dtype), grid[:-1, -1] + 1))
    columns = []
    for f in wanted:
        starts = line_starts if f == 0 else grid[:, f - 1] + 1
        columns.append(_strings(block, starts, grid[:, f]))
    return columns


def _strings(
    block: npt.NDArray[np.uint8], starts: npt.NDArray[np.intp], ends: npt.NDArray[np.intp]
) -> npt.NDArray[np.bytes_]:
    """Fields as one fixed-width byte-string array, filled one byte position at a time."""
    lengths = ends - starts
    width = int(lengths.max()) if len(lengths) else 1
    if width > 4096:
        raise _Declined
    chars = np.zeros((len(starts), width), dtype=np.uint8)
    last = len(block) - 1
    for offset in range(width):
        chars[:, offset] = block[np.minimum(starts + offset, last)]
        if offset:
            chars[lengths <= offset, offset] = 0
    return chars.view(f"S{width}").ravel()


def _fast_fields(data: bytes, n_fields: int, wanted: Sequence[int]) -> list[npt.NDArray[np.bytes_]]:
    if b"\x00" in data or (not data.isascii() and not _is_utf8(data)):
        raise _Declined
    buf = np.frombuffer(data, dtype=np.uint8)
    blocks = _blocks(data)
    if not blocks:
        raise _Declined

    def one(bounds: tuple[int, int]) -> list[npt.NDArray[np.bytes_]]:
        return _fields_of_block(buf, bounds[0], bounds[1], n_fields, wanted)

    if len(blocks) > 1:
        with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
            parts = list(pool.map(one, blocks))
    else:
        parts = [one(b) for b in blocks]
    columns = [np.concatenate([p[i] for p in parts]) for i in range(len(wanted))]
    if not len(columns[0]):
        raise _Declined
    # A '#' opening a later line is a comment: the line reader skips it.
    if np.any(columns[0].view(np.uint8).reshape(len(columns[0]), -1)[:, 0] == 35):
        raise _Declined
    return columns


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _group_codes(
    column: npt.NDArray[np.bytes_],
) -> tuple[list[bytes], npt.NDArray[np.int32]]:
    """Distinct values by first appearance and each row's index into them.

    Files list a query's lines together, so only the rows where the value changes are
    looked up (in Python); the rest repeat their group's code.
    """
    n = len(column)
    changes = np.flatnonzero(column[1:] != column[:-1]) + 1
    starts = np.concatenate((np.zeros(1, dtype=np.intp), changes))
    lengths = np.diff(np.append(starts, n))
    index: dict[bytes, int] = {}
    codes = [index.setdefault(value, len(index)) for value in column[starts].tolist()]
    return list(index), np.repeat(np.array(codes, dtype=np.int32), lengths)


def read_qrels_columns(path: str | os.PathLike[str]) -> QrelsColumns:
    """TREC qrels as columns; a bad file is reported line by line (``metrics.trec``)."""
    name = str(path)
    data = _read_bytes(name)
    try:
        qid_col, doc_col, grade_col = _fast_fields(data, 4, (0, 2, 3))
        grades = _integers(grade_col)
        values, codes = _group_codes(qid_col)
        qids = [v.decode("utf-8") for v in values]
    except _Declined:
        qids, codes, doc_col, grades = _qrels_by_line(name)
    del data
    qrels = _sorted_qrels(name, qids, codes, doc_col, grades)
    return qrels


def _integers(column: npt.NDArray[np.bytes_]) -> npt.NDArray[np.int64]:
    if column.dtype.itemsize > 11:
        raise _Declined
    try:
        grades = column.astype(np.int64)
    except (ValueError, OverflowError):
        raise _Declined from None
    if len(grades) and (grades.max() > MAX_GRADE or grades.min() < -MAX_GRADE):
        raise _Declined
    return grades


def _qrels_by_line(
    path: str,
) -> tuple[list[str], npt.NDArray[np.int32], npt.NDArray[np.bytes_], npt.NDArray[np.int64]]:
    from .trec import load_qrels

    judged = load_qrels(path)
    qids = list(judged)
    codes: list[int] = []
    docs: list[bytes] = []
    grades: list[int] = []
    for code, qid in enumerate(qids):
        for doc, grade in judged[qid].items():
            if not -MAX_GRADE <= grade <= MAX_GRADE:
                raise InputError.single(
                    path, f"query {qid!r} doc {doc!r}: relevance {grade} is out of range"
                )
            codes.append(code)
            docs.append(doc.encode("utf-8"))
            grades.append(grade)
    return (
        qids,
        np.array(codes, dtype=np.int32),
        np.array(docs, dtype=np.bytes_),
        np.array(grades, dtype=np.int64),
    )


def _sorted_qrels(
    path: str,
    qids: list[str],
    codes: npt.NDArray[np.int32],
    docs: npt.NDArray[np.bytes_],
    grades: npt.NDArray[np.int64],
) -> QrelsColumns:
    """Queries renumbered in byte order and the judgments grouped by query."""
    order_of_qids = sorted(range(len(qids)), key=lambda i: qids[i].encode("utf-8"))
    renumber = np.empty(len(qids), dtype=np.int64)
    renumber[np.array(order_of_qids, dtype=np.int64)] = np.arange(len(qids))
    renumbered = renumber[codes]
    order = np.argsort(renumbered, kind="stable")
    return QrelsColumns(
        path, [qids[i] for i in order_of_qids], renumbered[order], docs[order], grades[order]
    )


def read_run_columns(path: str | os.PathLike[str]) -> RunColumns:
    """A TREC run as columns in file order; bad lines are reported by ``metrics.trec``."""
    name = str(path)
    data = _read_bytes(name)
    try:
        qid_col, doc_col, score_col = _fast_fields(data, 6, (0, 2, 4))
        scores = _floats(score_col)
        values, codes = _group_codes(qid_col)
        qids = [v.decode("utf-8") for v in values]
        end = len(data)
        while end and data[end - 1 : end].isspace():
            end -= 1
        tail = data[data.rfind(b"\n", 0, end) + 1 : end].split()
        run_id: str | None = tail[5].decode("utf-8") if len(tail) >= 6 else None
    except _Declined:
        return _run_by_line(name)
    del data
    return RunColumns(name, qids, codes, doc_col, scores, run_id)


def _floats(column: npt.NDArray[np.bytes_]) -> npt.NDArray[np.float64]:
    try:
        scores = column.astype(np.float64)
    except (ValueError, OverflowError):
        raise _Declined from None
    if not np.all(np.isfinite(scores)):
        raise _Declined
    return scores


def _run_by_line(path: str) -> RunColumns:
    from .trec import load_run_scores

    scores, run_id = load_run_scores(path)
    qids = list(scores)
    codes: list[int] = []
    docs: list[bytes] = []
    values: list[float] = []
    for code, qid in enumerate(qids):
        for doc, score in scores[qid].items():
            codes.append(code)
            docs.append(doc.encode("utf-8"))
            values.append(score)
    return RunColumns(
        path,
        qids,
        np.array(codes, dtype=np.int32),
        np.array(docs, dtype=np.bytes_),
        np.array(values, dtype=np.float64),
        run_id,
    )


def _doc_words(docs: npt.NDArray[np.bytes_], width: int) -> npt.NDArray[np.uint64]:
    """Docnos as big-endian 64-bit words of their zero-padded bytes, bits flipped.

    Ascending order of the words is descending byte order of the docnos (a shorter docno
    that is a prefix of a longer one sorts after it, as strcmp has it), so a plain
    ascending sort gives trec_eval's tie-break.
    """
    n_words = max(1, (width + 7) // 8)
    chars = np.zeros((len(docs), n_words * 8), dtype=np.uint8)
    own = docs.dtype.itemsize
    chars[:, :own] = np.ascontiguousarray(docs).view(np.uint8).reshape(len(docs), own)
    np.invert(chars, out=chars)
    return chars.view(">u8").astype(np.uint64)


# ---------------------------------------------------------------------------------------
# evaluating


@dataclass(frozen=True)
class TrecEvaluation:
    """Per-query values of every measure, for every qrels query (byte order of qid)."""

    qids: list[str]
    measures: tuple[str, ...]
    values: npt.NDArray[np.float64]  # (n queries, n measures)
    first_relevant_rank: npt.NDArray[np.int32]  # 0: nothing relevant retrieved
    num_relevant: npt.NDArray[np.int64]
    unjudged_queries: list[str]
    digests: list[bytes]

    @property
    def means(self) -> dict[str, float]:
        import math

        n = len(self.qids)
        return {
            name: (math.fsum(self.values[:, i].tolist()) / n if n else 0.0)
            for i, name in enumerate(self.measures)
        }


def evaluate_columns(
    qrels: QrelsColumns,
    run: RunColumns,
    measures: Sequence[str],
    *,
    relevance_level: int = 1,
    case_digests: bool = True,
) -> TrecEvaluation:
    """trec_eval's per-query values of ``measures`` (our names) for every qrels query."""
    from .trec import check_relevance_level

    check_relevance_level(relevance_level)
    level = relevance_level
    nq = len(qrels.qids)

    # Run queries → qrels query codes; queries the qrels do not judge are ignored.
    position = {qid: i for i, qid in enumerate(qrels.qids)}
    run_to_qrels = np.array([position.get(q, -1) for q in run.qids], dtype=np.int64)
    unjudged = [q for q, code in zip(run.qids, run_to_qrels.tolist(), strict=True) if code < 0]
    rq = run_to_qrels[run.qcode]
    r_docs, r_scores = run.docs, run.scores
    if unjudged:
        keep = rq >= 0
        rq, r_docs, r_scores = rq[keep], r_docs[keep], r_scores[keep]

    # Docnos as dense ranks in descending byte order, over the qrels and the run together:
    # exact integer keys for the join, the duplicate check and trec_eval's tie-break.
    doc_rank, n_docs = _dense_doc_ranks(np.concatenate((qrels.docs, r_docs)))
    q_doc, r_doc = doc_rank[: len(qrels.docs)], doc_rank[len(qrels.docs) :]
    r_pair = rq * n_docs + r_doc
    _check_run_duplicates(run, r_pair, rq, r_docs, qrels.qids)
    grades = _grades_of(qrels, qrels.qcode.astype(np.int64) * n_docs + q_doc, r_pair)
    del r_pair, q_doc

    # trec_eval's order: query, score descending, docno descending.
    order = _ranking_order(rq, r_scores, r_doc, n_docs, nq)
    rq, grades = rq[order], grades[order]

    first = np.searchsorted(rq, np.arange(nq))
    rank = np.arange(len(rq), dtype=np.int64) - first[rq] + 1 if len(rq) else rq
    relevant = grades >= level
    num_rel = np.bincount(qrels.qcode[qrels.grades >= level], minlength=nq).astype(np.int64)
    judged_nonrel = np.bincount(
        qrels.qcode[(qrels.grades >= 0) & (qrels.grades < level)], minlength=nq
    ).astype(np.int64)

    rel_q = rq[relevant]
    rel_rank = rank[relevant]
    first_rel = np.zeros(nq, dtype=np.int64)
    if len(rel_q):
        starts = np.flatnonzero(np.concatenate(([True], rel_q[1:] != rel_q[:-1])))
        first_rel[rel_q[starts]] = rel_rank[starts]
    safe_r = np.maximum(num_rel, 1).astype(np.float64)
    has_rel = num_rel > 0

    def count_top(k: int) -> npt.NDArray[np.float64]:
        return np.bincount(rel_q[rel_rank <= k], minlength=nq).astype(np.float64)

    cache: dict[str, npt.NDArray[np.float64]] = {}
    columns: list[npt.NDArray[np.float64]] = []
    for name in measures:
        family, _, raw_k = name.partition("@")
        k = int(raw_k) if raw_k else 0
        if family == "hit":
            col = ((first_rel > 0) & (first_rel <= k)).astype(np.float64)
        elif family == "mrr":
            col = np.where(first_rel > 0, 1.0 / np.maximum(first_rel, 1), 0.0)
        elif family == "precision":
            col = count_top(k) / k
        elif family == "recall":
            col = np.where(has_rel, count_top(k) / safe_r, 0.0)
        elif family == "ndcg":
            col = _ndcg(qrels, rq, rank, grades, k, nq, cache)
        elif family == "map":
            col = _average_precision(rq, rank, relevant, num_rel, k or None, nq, cache)
        elif family == "Rprec":
            hits = np.bincount(rel_q[rel_rank <= num_rel[rel_q]], minlength=nq)
            col = np.where(has_rel, hits / safe_r, 0.0)
        elif family == "bpref":
            col = _bpref(rq, grades, relevant, num_rel, judged_nonrel, level, nq)
        else:  # parse_measures never produces another name
            raise ConfigError(f"unknown measure {name!r}")
        columns.append(col.astype(np.float64))
    values = np.column_stack(columns) if columns else np.zeros((nq, 0))
    digests = _case_digests(qrels) if case_digests else []
    return TrecEvaluation(
        qids=qrels.qids,
        measures=tuple(measures),
        values=values,
        first_relevant_rank=first_rel.astype(np.int32),
        num_relevant=num_rel,
        unjudged_queries=unjudged,
        digests=digests,
    )


def _grades_of(
    qrels: QrelsColumns, q_pair: npt.NDArray[np.int64], r_pair: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """Each run row's grade (``_NOT_IN_QRELS`` when the qrels do not judge it)."""
    grades = np.full(len(r_pair), _NOT_IN_QRELS, dtype=np.int64)
    if not len(q_pair) or not len(r_pair):
        return grades
    order = np.argsort(q_pair)
    sorted_pairs = q_pair[order]
    repeated = sorted_pairs[1:] == sorted_pairs[:-1]
    if np.any(repeated):
        row = int(order[1:][repeated][0])
        qid, doc = qrels.qids[int(qrels.qcode[row])], bytes(qrels.docs[row])
        from .trec import load_qrels

        load_qrels(qrels.path)  # names the line when the file has one
        raise InputError.single(
            qrels.path, f"query {qid!r}: doc {doc.decode('utf-8', 'replace')!r} judged twice"
        )
    at = np.minimum(np.searchsorted(sorted_pairs, r_pair), len(sorted_pairs) - 1)
    found = sorted_pairs[at] == r_pair
    grades[found] = qrels.grades[order[at[found]]]
    return grades


def _dense_doc_ranks(docs: npt.NDArray[np.bytes_]) -> tuple[npt.NDArray[np.int64], int]:
    """Each docno's rank among the distinct docnos, 0 for the greatest in byte order.

    Docnos are compared as ``_doc_words`` (ascending words: descending docnos). Rows are
    grouped by one integer per docno (the word itself, or a hash of the words checked
    word by word afterwards), and only the distinct docnos are sorted by their words.
    """
    words = _doc_words(docs, docs.dtype.itemsize)
    n = len(words)
    if n == 0:
        return np.zeros(0, dtype=np.int64), 0
    exact = words.shape[1] == 1
    key = words[:, 0] if exact else _hash_words(words)
    order = np.argsort(key)
    sorted_key = key[order]
    starts = np.empty(n, dtype=bool)
    starts[0] = True
    np.not_equal(sorted_key[1:], sorted_key[:-1], out=starts[1:])
    group = np.empty(n, dtype=np.int64)
    group[order] = np.cumsum(starts, dtype=np.int64) - 1
    representatives = words[order[starts]]
    if exact:  # groups are already in word order
        return group, len(representatives)
    for j in range(words.shape[1]):  # column by column: 1-D gathers are the fast ones
        if not np.array_equal(representatives[:, j][group], words[:, j]):
            return _dense_doc_ranks_by_words(words)  # a hash collision: group by the words
    by_words = np.lexsort(representatives.T[::-1])
    rank_of_group = np.empty(len(representatives), dtype=np.int64)
    rank_of_group[by_words] = np.arange(len(representatives))
    return rank_of_group[group], len(representatives)


def _hash_words(words: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    with np.errstate(over="ignore"):
        h = np.full(len(words), 0x9E3779B97F4A7C15, dtype=np.uint64)
        for j in range(words.shape[1]):
            h = (h ^ words[:, j]) * np.uint64(0xBF58476D1CE4E5B9)
            h ^= h >> np.uint64(29)
    return h


def _dense_doc_ranks_by_words(words: npt.NDArray[np.uint64]) -> tuple[npt.NDArray[np.int64], int]:
    """Exact dense ranks, one word at a time (the ranks so far and the next word's rank
    combine into one integer, so every step is one sort of integers)."""
    rank = np.zeros(len(words), dtype=np.int64)
    count = 1
    for j in range(words.shape[1]):
        values, inverse = np.unique(words[:, j], return_inverse=True)
        combined = rank * len(values) + inverse.reshape(-1)
        distinct, dense = np.unique(combined, return_inverse=True)
        rank, count = dense.reshape(-1).astype(np.int64), len(distinct)
    return rank, count


def _ranking_order(
    rq: npt.NDArray[np.int64],
    scores: npt.NDArray[np.float64],
    doc_rank: npt.NDArray[np.int64],
    n_docs: int,
    nq: int,
) -> npt.NDArray[np.intp]:
    """Row order by query, score descending, docno descending: one integer sort."""
    distinct, score_rank = np.unique(scores, return_inverse=True)
    score_desc = len(distinct) - 1 - score_rank.reshape(-1).astype(np.int64)
    if max(nq, 1) * max(len(distinct), 1) * max(n_docs, 1) < 2**63:
        return np.argsort((rq * len(distinct) + score_desc) * n_docs + doc_rank)
    return np.lexsort((doc_rank, score_desc, rq))


def _ndcg(
    qrels: QrelsColumns,
    rq: npt.NDArray[np.int64],
    rank: npt.NDArray[np.int64],
    grades: npt.NDArray[np.int64],
    k: int,
    nq: int,
    cache: dict[str, npt.NDArray[np.float64]],
) -> npt.NDArray[np.float64]:
    if "gain" not in cache:
        cache["gain"] = np.where(grades > 0, grades, 0).astype(np.float64) / np.log2(rank + 1.0)
        positive = qrels.grades > 0
        pq, pg = qrels.qcode[positive], qrels.grades[positive]
        by_grade = np.lexsort((-pg, pq))
        pq, pg = pq[by_grade], pg[by_grade]
        ideal_first = np.searchsorted(pq, np.arange(nq))
        ideal_rank = np.arange(len(pq)) - ideal_first[pq] + 1
        cache["ideal_q"] = pq.astype(np.float64)
        cache["ideal_rank"] = ideal_rank.astype(np.float64)
        cache["ideal_gain"] = pg.astype(np.float64) / np.log2(ideal_rank + 1.0)
    gain = cache["gain"]
    dcg = np.bincount(rq[rank <= k], weights=gain[rank <= k], minlength=nq)
    within = cache["ideal_rank"] <= k
    ideal = np.bincount(
        cache["ideal_q"][within].astype(np.int64), weights=cache["ideal_gain"][within], minlength=nq
    )
    return np.where(ideal > 0, dcg / np.where(ideal > 0, ideal, 1.0), 0.0)


def _average_precision(
    rq: npt.NDArray[np.int64],
    rank: npt.NDArray[np.int64],
    relevant: npt.NDArray[np.bool_],
    num_rel: npt.NDArray[np.int64],
    k: int | None,
    nq: int,
    cache: dict[str, npt.NDArray[np.float64]],
) -> npt.NDArray[np.float64]:
    if "precision_at_rel" not in cache:
        running = np.cumsum(relevant, dtype=np.int64)
        before_query = np.concatenate(([0], running))[np.searchsorted(rq, np.arange(nq))]
        rel_so_far = running - before_query[rq]
        cache["precision_at_rel"] = (rel_so_far / rank)[relevant]
    precision = cache["precision_at_rel"]
    rel_q, rel_rank = rq[relevant], rank[relevant]
    mask = rel_rank <= k if k is not None else np.ones(len(rel_q), dtype=bool)
    total = np.bincount(rel_q[mask], weights=precision[mask], minlength=nq)
    return np.where(num_rel > 0, total / np.maximum(num_rel, 1), 0.0)


def _bpref(
    rq: npt.NDArray[np.int64],
    grades: npt.NDArray[np.int64],
    relevant: npt.NDArray[np.bool_],
    num_rel: npt.NDArray[np.int64],
    judged_nonrel: npt.NDArray[np.int64],
    level: int,
    nq: int,
) -> npt.NDArray[np.float64]:
    nonrel = (grades >= 0) & (grades < level)
    running = np.cumsum(nonrel, dtype=np.int64)
    before_query = np.concatenate(([0], running))[np.searchsorted(rq, np.arange(nq))]
    above = (running - nonrel - before_query[rq])[relevant]
    rel_q = rq[relevant]
    r = num_rel[rel_q]
    denominator = np.minimum(judged_nonrel[rel_q], r)
    with np.errstate(divide="ignore", invalid="ignore"):
        part = np.where(
            above > 0, 1.0 - np.minimum(above, r) / np.where(denominator > 0, denominator, 1), 1.0
        )
    total = np.bincount(rel_q, weights=part, minlength=nq)
    return np.where(num_rel > 0, total / np.maximum(num_rel, 1), 0.0)


def _check_run_duplicates(
    run: RunColumns,
    pairs: npt.NDArray[np.int64],
    rq: npt.NDArray[np.int64],
    docs: npt.NDArray[np.bytes_],
    qids: list[str],
) -> None:
    """A doc listed twice for one query is an error, as in trec_eval."""
    ordered = np.sort(pairs)
    if not np.any(ordered[1:] == ordered[:-1]):
        return
    repeated = ordered[1:][ordered[1:] == ordered[:-1]][0]
    at = int(np.flatnonzero(pairs == repeated)[0])
    from .trec import load_run_scores

    load_run_scores(run.path)  # names the line when the file has one
    doc = bytes(docs[at]).decode("utf-8", "replace")
    raise InputError.single(run.path, f"query {qids[int(rq[at])]!r}: doc {doc!r} listed twice")


# ---------------------------------------------------------------------------------------
# identity and output


_TEMPLATES: dict[bool, dict[str, Any]] = {}


def _case_template(exclude_defaults: bool) -> dict[str, Any]:
    """The JSON dump of a TREC retrieval case, as the golden-case path makes it."""
    if exclude_defaults not in _TEMPLATES:
        from ..golden.models import GoldenCase

        case = GoldenCase.model_validate(
            {
                "id": "q",
                "question": "TREC query q",
                "case_type": "retrieval",
                "expected": {"relevant_docs": {"d": 1}},
            }
        )
        _TEMPLATES[exclude_defaults] = case.model_dump(
            mode="json", exclude_defaults=exclude_defaults
        )
    return _TEMPLATES[exclude_defaults]


def case_dumps(qrels: QrelsColumns, *, exclude_defaults: bool = False) -> Iterator[dict[str, Any]]:
    """Each query's golden case as ``model_dump(mode="json")`` would give it.

    A query's case keeps its positive grades (``metrics.trec.trec_to_golden``), so the
    fingerprint and the per-case digests of a TREC pair are the same on either path.
    """
    template = _case_template(exclude_defaults)
    expected = template["expected"]
    positive = qrels.grades > 0
    pq = qrels.qcode[positive]
    docs = [doc.decode("utf-8") for doc in qrels.docs[positive].tolist()]
    grades = qrels.grades[positive].tolist()
    bounds = np.searchsorted(pq, np.arange(len(qrels.qids) + 1)).tolist()
    for i, qid in enumerate(qrels.qids):
        a, b = bounds[i], bounds[i + 1]
        case = dict(template)
        case["id"] = qid
        case["question"] = f"TREC query {qid}"
        relevant = dict(zip(docs[a:b], grades[a:b], strict=True))
        case["expected"] = {**expected, "relevant_docs": relevant}
        yield case


def _full_digest(case: dict[str, Any]) -> bytes:
    """``golden.load.case_digest`` of a dumped case: the fingerprint's parts."""
    return hashlib.sha256(orjson.dumps(case, option=orjson.OPT_SORT_KEYS)).digest()


def _case_digests(qrels: QrelsColumns) -> list[bytes]:
    return [_full_digest(case) for case in case_dumps(qrels)]


def case_digest_rows(qrels: QrelsColumns) -> Iterator[tuple[str, dict[str, Any], bytes]]:
    """(id, dump without defaults, full digest) per query: ``baseline.digests.digest_dumps``."""
    for whole, sparse in zip(
        case_dumps(qrels), case_dumps(qrels, exclude_defaults=True), strict=True
    ):
        yield whole["id"], sparse, _full_digest(whole)


def per_query_tsv(evaluation: TrecEvaluation) -> str:
    """trec_eval ``-q`` output: ``measure<TAB>qid<TAB>value`` per query, then ``all``."""
    names = [trec_eval_name(m) for m in evaluation.measures]
    lines: list[str] = []
    rows = evaluation.values.tolist()
    for qid, row in zip(evaluation.qids, rows, strict=True):
        lines.extend(
            f"{name:<22}\t{qid}\t{value:.4f}" for name, value in zip(names, row, strict=True)
        )
    means = evaluation.means
    lines.extend(
        f"{name:<22}\tall\t{means[m]:.4f}"
        for name, m in zip(names, evaluation.measures, strict=True)
    )
    return "\n".join(lines) + "\n"


def trec_case_table(
    evaluation: TrecEvaluation, gate_names: Sequence[str], protected_k: int
) -> CaseTable:
    """The report's per-case columns for a TREC evaluation: one ``retrieval`` case a query.

    As a golden retrieval case would: the refusal and clarification gates pass (a TREC
    query asks for neither), the case passes when a relevant doc is within the protected
    k, and a failure is a retrieval-stage one (generation-stage when nothing is relevant).
    """
    from ..report.cases import CaseTable
    from .attribution import ATTRIBUTIONS

    n = len(evaluation.qids)
    gates = np.full((n, len(gate_names)), -1, dtype=np.int8)
    for name in ("refusal_appropriateness", "clarification_appropriateness"):
        if name in gate_names:
            gates[:, list(gate_names).index(name)] = 1
    ranks = evaluation.first_relevant_rank
    passed = (ranks > 0) & (ranks <= protected_k)
    attribution = np.where(
        passed,
        -1,
        np.where(
            evaluation.num_relevant > 0,
            ATTRIBUTIONS.index("retrieval"),
            ATTRIBUTIONS.index("generation"),
        ),
    ).astype(np.int8)
    return CaseTable(
        gate_names=tuple(gate_names),
        metric_names=evaluation.measures,
        ids=list(evaluation.qids),
        case_types=["retrieval"] * n,
        tag_sets=[{}],
        tag_codes=np.zeros(n, dtype=np.int32),
        gates=gates,
        passed=passed,
        ranks=ranks.astype(np.int32),
        scored=np.ones(n, dtype=bool),
        retrieval=np.ascontiguousarray(evaluation.values, dtype=np.float64),
        attribution=attribution,
        errors={},
        fabricated={},
    )

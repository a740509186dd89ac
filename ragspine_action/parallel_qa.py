"""Score an outcomes file against a golden file on every core: the path for large sets.

The run is split by the golden file's byte ranges, a few per worker process (forked, so
the outcome index is shared, not copied; a free worker takes the next range). Each worker streams its golden lines, reads
each case's outcome line by offset, scores it into a ``CaseTable`` and returns columns
— never one object per case. Nothing is held per case but the ids and the columns, so
memory stays near 1 KB a case.

The fast path only handles input it can vouch for. At the first problem of any kind (a
line it cannot parse, a record that does not validate, a duplicate id) it gives up and
the caller runs the sequential path, which reports every problem with its file, line
and field exactly as before. The result never depends on the number of workers: the
ranges are concatenated in file order and the fingerprint hashes sorted case digests.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import pickle
import re
import shutil
import tempfile
import threading
import weakref
from array import array
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np
import orjson
from pydantic import ValidationError

from .errors import RagspineError
from .golden.fast import golden_case_and_keys
from .golden.load import case_digest, fingerprint_digests, golden_keys_known, typo_fields
from .golden.models import GoldenCase, case_rule_violations
from .jsonio import check_size, decode_line, keys_proven_unique, loads_fast, loads_strict
from .outcomes.fast import outcome_and_keys, outcome_from_dict
from .outcomes.model import Outcome, error_outcome
from .progress import ProgressBar
from .qa import CaseScorer, FailureRow, QASettings
from .report.cases import CaseTable
from .report.write import write_case_lines
from .shard import Shard, shard_of
from .systems.base import MISSING_OUTCOME

__all__ = ["FastPathDeclined", "ParallelResult", "default_workers", "score_outcomes_file"]

# Below this golden-file size a worker process costs more than it saves.
MIN_BYTES_PER_WORKER = 1024 * 1024
MAX_WORKERS = 8
# The golden file is cut into up to this many parts per worker (none under
# MIN_BYTES_PER_WORKER): the pool hands the next part to whichever worker is free, so a
# worker slowed by another process on its core does not hold the run up by half the set.
PARTS_PER_WORKER = 4
_PROGRESS_LINES = 2048  # a worker adds to the progress counter every this many lines

# `{"id": "<plain id>"` at the start of a line: the id without parsing the whole line.
# Only a hint: the worker checks it against the parsed outcome.
_LEADING_ID = re.compile(rb'\s*\{\s*"id"\s*:\s*"([^"\\\x80-\xff]+)"')  # an ASCII id


class FastPathDeclined(Exception):
    """Input the fast path cannot vouch for: the sequential path decides (and reports)."""


@dataclass
class _OutcomeIndex:
    path: str
    ids: list[str]
    position: dict[str, int]
    starts: array[int]
    lengths: array[int]


@dataclass
class _Range:
    start: int
    end: int


@dataclass
class _Part:
    table: CaseTable
    failures: dict[str, list[FailureRow]]
    refusal_checked: int
    digests: list[bytes]
    golden_ids: list[str]
    selected: list[int]
    used: bytes
    encoded: str | None


@dataclass
class ParallelResult:
    """What the sequential path would produce, for the caller to assemble the report."""

    table: CaseTable
    failures: dict[str, list[FailureRow]]
    refusal_checked: int
    fingerprint: str
    n_golden: int
    positions: list[int]
    unknown_ids: list[str]


def default_workers(golden_path: str) -> int:
    """One worker per core, but none for a golden set too small to gain from it."""
    try:
        size = os.path.getsize(golden_path)
    except OSError:
        return 1
    by_size = max(1, size // MIN_BYTES_PER_WORKER)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return int(max(1, min(by_size, cores or 1, MAX_WORKERS)))


_BLANK: dict[str, Any] = {}  # what _parse returns for a blank line (identity-compared)


def _parse(data: bytes, line: int = 0) -> dict[str, Any]:
    """One line's object, ``_BLANK`` for a blank line; anything else is declined.

    ``line`` 1 drops a leading BOM, as the sequential loaders do (orjson declines it).
    """
    obj = loads_fast(data)
    if obj is None:
        try:
            text = decode_line("", line, data, 0)
            if not text.strip():
                return _BLANK
            obj = loads_strict(text)
        except (ValueError, RecursionError, RagspineError):
            raise FastPathDeclined from None
    if not isinstance(obj, dict):
        raise FastPathDeclined
    return obj


# The file is indexed in blocks of about this size (each cut after its last newline).
_INDEX_BLOCK = 8 * 1024 * 1024


def _index_outcomes(path: str, max_bytes: int) -> _OutcomeIndex:
    """Each outcome line's id, offset and length; declined on a duplicate id.

    Serial, before the workers fork: so it runs per block, not per line where it can.
    numpy finds the block's line ends; each line's id is read from its start by one
    match bounded to the line (what matching the line alone gives: the pattern has no
    anchor or look-around); only a line without a plain leading id is parsed. The
    position table is built in one step, a duplicate id shown by its size.
    """
    check_size(path, max_bytes)
    ids: list[str] = []
    starts = array("q")
    lengths = array("q")
    leading_id = _LEADING_ID.match
    base = 0  # file offset of the block
    with open(path, "rb") as handle:
        carry = b""
        while True:
            chunk = handle.read(_INDEX_BLOCK)
            block = carry + chunk if carry else chunk
            if not chunk:
                if not block:
                    break
                cut = len(block)  # the last line, without a newline
            else:
                cut = block.rfind(b"\n") + 1
                if not cut:  # one line longer than the block: read on
                    carry = block
                    continue
            ends = np.flatnonzero(np.frombuffer(block, dtype=np.uint8, count=cut) == 10) + 1
            if not chunk and (not len(ends) or ends[-1] != cut):
                ends = np.append(ends, cut)
            line_starts = np.empty_like(ends)
            line_starts[0] = 0
            line_starts[1:] = ends[:-1]
            kept_starts: list[int] = []
            for start, end in zip(line_starts.tolist(), ends.tolist(), strict=True):
                match = leading_id(block, start, end)
                if match is not None:
                    ids.append(match[1].decode("ascii"))
                    kept_starts.append(start)
                    continue
                obj = _parse(block[start:end])
                if obj is _BLANK:
                    continue
                raw = obj.get("id")
                if not isinstance(raw, str):
                    raise FastPathDeclined
                ids.append(raw)
                kept_starts.append(start)
            if len(kept_starts) == len(ends):  # no blank line: the block's lines as they are
                starts.frombytes((line_starts + base).tobytes())
                lengths.frombytes((ends - line_starts).tobytes())
            else:
                kept = np.asarray(kept_starts, dtype=np.int64)
                stops = ends[np.searchsorted(line_starts, kept)]
                starts.frombytes((kept + base).tobytes())
                lengths.frombytes((stops - kept).tobytes())
            base += cut
            carry = block[cut:]
            if not chunk:
                break
    position = dict(zip(ids, range(len(ids)), strict=True))
    if not position or len(position) != len(ids):  # none, or a duplicate id
        raise FastPathDeclined
    return _OutcomeIndex(path, ids, position, starts, lengths)


def _part_count(path: str, workers: int) -> int:
    """Parts to cut the golden file into: ``workers`` at least, more for a large file."""
    if workers <= 1:
        return 1
    by_size = os.path.getsize(path) // MIN_BYTES_PER_WORKER
    return int(max(workers, min(workers * PARTS_PER_WORKER, by_size)))


def _ranges(path: str, count: int) -> list[_Range]:
    """``count`` byte ranges of the file, each ending at a line end."""
    size = os.path.getsize(path)
    cuts = [0]
    with open(path, "rb") as handle:
        for i in range(1, count):
            handle.seek(max(size * i // count, cuts[-1]))
            if cuts[-1] < handle.tell():
                handle.readline()
            cuts.append(min(handle.tell(), size))
    cuts.append(size)
    return [_Range(a, b) for a, b in pairwise(cuts) if b > a] or [_Range(0, 0)]


# Set by the parent before the workers fork; the children read it, never write it.
# One run at a time per process (a library caller may run several in threads).
_STATE: dict[str, Any] = {}
_ONE_RUN = threading.Lock()


def _read_outcome(
    handle: int, index: _OutcomeIndex, i: int, case_id: str
) -> tuple[Outcome, list[str] | None]:
    """The outcome of line ``i``, and its ranked doc ids when the fast builder read them
    (else None: ``CaseScorer.score`` reads them from the sources)."""
    data = os.pread(handle, index.lengths[i], index.starts[i])
    outcome: Outcome | None = None
    try:
        obj = orjson.loads(data)
    except orjson.JSONDecodeError:
        obj = None
    # The plain shape, whose walk counts the keys: then no re-encoding proves them unique.
    docs: list[str] | None = []
    built = outcome_and_keys(obj, docs)
    if built is not None and keys_proven_unique(data, built[1]):
        outcome = built[0]
    else:
        docs = None
        obj = _parse(data)
        outcome = outcome_from_dict(obj)
    if outcome is None:  # not the plain shape: pydantic decides
        try:
            outcome = Outcome.model_validate(obj)
        except ValidationError:
            raise FastPathDeclined from None
    if outcome.id != case_id:
        raise FastPathDeclined
    return outcome, docs


def _read_case(data: bytes, first: bool) -> GoldenCase | None:
    """The golden case of one line, None for a blank line; anything else is declined.

    The plain shape is built without pydantic, its key count proving the line has no
    duplicate key (``golden.fast``); any other line takes the strict parse and pydantic.
    """
    try:
        obj = orjson.loads(data)
    except orjson.JSONDecodeError:
        obj = None
    built = golden_case_and_keys(obj)
    if built is not None and keys_proven_unique(data, built[1]):
        case = built[0]
    else:
        obj = _parse(data, 1 if first else 0)
        if obj is _BLANK:
            return None
        try:
            case = GoldenCase.model_validate(obj)
        except ValidationError:
            raise FastPathDeclined from None
        if not golden_keys_known(obj) and typo_fields(obj):
            raise FastPathDeclined
    if case_rule_violations(case):
        raise FastPathDeclined
    return case


def _score_range(part: int) -> _Part:
    golden_path: str = _STATE["golden"]
    index: _OutcomeIndex = _STATE["index"]
    settings: QASettings = _STATE["settings"]
    shard: Shard | None = _STATE["shard"]
    span: _Range = _STATE["ranges"][part]
    scorer = CaseScorer(settings)
    digests: list[bytes] = []
    golden_ids: list[str] = []
    selected: list[int] = []
    used = bytearray(len(index.ids))
    counter = _STATE.get("counter")  # bytes of the golden set scored, for a progress bar
    lines = 0
    reported = span.start
    outcomes = os.open(index.path, os.O_RDONLY)
    try:
        with open(golden_path, "rb") as handle:
            handle.seek(span.start)
            offset = span.start
            while offset < span.end:
                data = handle.readline()
                if not data:
                    break
                case = _read_case(data, offset == 0)
                offset += len(data)
                lines += 1
                if counter is not None and not lines % _PROGRESS_LINES:
                    with counter.get_lock():
                        counter.value += offset - reported
                    reported = offset
                if case is None:  # a blank line
                    continue
                digests.append(case_digest(case))
                local = len(golden_ids)
                golden_ids.append(case.id)
                if shard is not None and shard_of(case.id, shard.count) != shard.index:
                    continue
                selected.append(local)
                i = index.position.get(case.id)
                docs: list[str] | None = None
                if i is None:
                    outcome = error_outcome(case.id, MISSING_OUTCOME)
                else:
                    used[i] = 1
                    outcome, docs = _read_outcome(outcomes, index, i, case.id)
                scorer.score(case, outcome, docs)
    finally:
        os.close(outcomes)
    if counter is not None:
        with counter.get_lock():
            counter.value += span.end - reported
    table = scorer.table.build()
    digests.sort()  # in parallel: the parent's sort of all parts then merges sorted runs
    encoded = None
    if _STATE["encode_dir"] is not None:
        encoded = os.path.join(_STATE["encode_dir"], f"part-{part:04d}.jsonl")
        write_case_lines(table, encoded)
    return _Part(
        table,
        scorer.failures,
        scorer.refusal_checked,
        digests,
        golden_ids,
        selected,
        bytes(used),
        encoded,
    )


def _work(part: int) -> str:
    """Score one range; its part goes back through a file, pickled as a stream.

    The pool would pickle the whole part into one buffer in the worker and read it into
    another in the parent, while every worker is still alive: at a million cases that
    was most of the run's peak memory. The parent reads the files once the workers exit.
    Looked up when called (in the worker): the pool pickles this name, not the scorer.
    """
    result = _score_range(part)
    handle, path = tempfile.mkstemp(prefix=f"part-{part:04d}-", dir=_STATE["part_dir"])
    with os.fdopen(handle, "wb") as out:
        pickle.dump(result, out, protocol=pickle.HIGHEST_PROTOCOL)
    return path


def _run_parts(count: int) -> list[_Part]:
    if count == 1:
        return [_score_range(0)]
    part_dir = _STATE["part_dir"] = tempfile.mkdtemp(prefix="ragspine-parts-")
    gc.freeze()  # keep the parent's objects out of the children's collector and pages
    try:
        context = multiprocessing.get_context("fork")
        workers = min(count, _STATE.get("workers", count))
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            paths = list(pool.map(_work, range(count)))
        parts: list[_Part] = []
        for path in paths:  # the workers have exited: their memory is back
            with open(path, "rb") as handle:
                parts.append(pickle.load(handle))
            os.unlink(path)
        return parts
    except BrokenProcessPool:  # a worker was killed (out of memory, a signal)
        raise FastPathDeclined from None
    finally:
        gc.unfreeze()
        shutil.rmtree(part_dir, ignore_errors=True)


def score_outcomes_file(
    golden_path: str,
    outcomes_path: str,
    settings: QASettings,
    *,
    workers: int,
    shard: Shard | None = None,
    max_bytes: int,
    encode_rows: bool = False,
    progress: ProgressBar | None = None,
) -> ParallelResult:
    """Score every golden case (of ``shard``) against its outcome line, in ``workers``.

    ``encode_rows``: the workers also encode their cases' report lines (the report is to
    be written), into a temporary directory removed with the table. ``progress`` shows the
    share of the golden set scored (the workers count bytes in shared memory).
    Raises FastPathDeclined for anything the sequential path must judge.
    """
    if not hasattr(os, "pread"):  # not on Windows: the sequential path serves it there
        raise FastPathDeclined
    check_size(golden_path, max_bytes)
    index = _index_outcomes(outcomes_path, max_bytes)
    if workers > 1 and "fork" not in multiprocessing.get_all_start_methods():
        workers = 1
    workers = max(1, workers)
    ranges = _ranges(golden_path, _part_count(golden_path, workers))
    with _ONE_RUN:
        if progress is None:
            return _score_all(golden_path, settings, index, ranges, shard, encode_rows, workers)
        with _watching(progress, ranges):
            return _score_all(golden_path, settings, index, ranges, shard, encode_rows, workers)


@contextlib.contextmanager
def _watching(progress: ProgressBar, ranges: list[_Range]) -> Iterator[None]:
    """A shared byte counter the workers add to, and a thread drawing it until the end."""
    counter = multiprocessing.get_context("fork").Value("q", 0)
    _STATE["counter"] = counter
    done = threading.Event()

    def draw() -> None:
        while not done.wait(0.1):
            progress.update(counter.value)

    progress.start(sum(r.end - r.start for r in ranges))
    thread = threading.Thread(target=draw, name="ragspine-progress", daemon=True)
    thread.start()
    try:
        yield
        progress.update(counter.value, final=True)  # the last state, when the bar shows
    finally:
        done.set()
        thread.join()
        progress.finish()
        _STATE.pop("counter", None)


def _score_all(
    golden_path: str,
    settings: QASettings,
    index: _OutcomeIndex,
    ranges: list[_Range],
    shard: Shard | None,
    encode_rows: bool,
    workers: int,
) -> ParallelResult:
    """Fork, score, join; the workers' files are removed on failure or with the table."""
    encode_dir = tempfile.mkdtemp(prefix="ragspine-rows-") if encode_rows else None
    _STATE.update(
        workers=workers,
        golden=golden_path,
        index=index,
        settings=settings,
        shard=shard,
        ranges=ranges,
        encode_dir=encode_dir,
    )
    try:
        parts = _run_parts(len(ranges))
        result = _combine(parts, index, shard)
    except BaseException:
        if encode_dir is not None:
            shutil.rmtree(encode_dir, ignore_errors=True)
        raise
    finally:
        _STATE.clear()
    if encode_dir is not None:
        result.table.encoded_parts = [p.encoded for p in parts if p.encoded is not None]
        weakref.finalize(result.table, shutil.rmtree, encode_dir, True)
    return result


def _combine(parts: list[_Part], index: _OutcomeIndex, shard: Shard | None) -> ParallelResult:
    """The workers' parts as one result; the checks that span parts happen here."""
    golden_ids = [i for p in parts for i in p.golden_ids]
    known = set(golden_ids)
    if not golden_ids or len(known) != len(golden_ids):
        raise FastPathDeclined
    positions: list[int] = []
    base = 0
    for p in parts:
        positions += [base + local for local in p.selected]
        base += len(p.golden_ids)
    used = np.zeros(len(index.ids), dtype=bool)
    for p in parts:
        used |= np.frombuffer(p.used, dtype=np.uint8).astype(bool)
    unknown: list[str] = []
    with open(index.path, "rb") as handle:
        for i in np.flatnonzero(~used).tolist():
            case_id = index.ids[i]
            _read_outcome(handle.fileno(), index, i, case_id)  # every line is validated
            if case_id not in known:  # another shard's case is not unknown
                unknown.append(case_id)
    failures: dict[str, list[FailureRow]] = {}
    for p in parts:
        for gate, rows in p.failures.items():
            failures.setdefault(gate, []).extend(rows)
    return ParallelResult(
        table=CaseTable.concat([p.table for p in parts]),
        failures=failures,
        refusal_checked=sum(p.refusal_checked for p in parts),
        fingerprint=fingerprint_digests(d for p in parts for d in p.digests),
        n_golden=len(golden_ids),
        positions=positions,
        unknown_ids=unknown,
    )

"""parallel_qa: the forked fast path for ``--system outcomes`` gives exactly the sequential
path's report, whatever the number of workers or the shard, and hands every input it
cannot vouch for to the sequential path, whose located one-line messages stay the same.
"""

from __future__ import annotations

import json
import os
import pickle
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import pytest

from ragspine_action import parallel_qa
from ragspine_action.cli import main
from ragspine_action.config import RunConfig
from ragspine_action.parallel_qa import MAX_WORKERS, FastPathDeclined, default_workers
from ragspine_action.run import RunResult, run
from ragspine_action.shard import Shard, shard_of
from ragspine_action.systems.base import MISSING_OUTCOME

ROOT = Path(__file__).resolve().parents[1]
N_CASES = 3000
BOM = "\ufeff"


@dataclass(frozen=True)
class Synth:
    golden: Path
    outcomes: Path

    def golden_lines(self) -> list[str]:
        return _read_lines(self.golden)

    def outcome_lines(self) -> list[str]:
        return _read_lines(self.outcomes)


def _read_lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n")
    return text[:-1].split("\n")


@pytest.fixture(scope="module")
def synth(tmp_path_factory: pytest.TempPathFactory, bench_synth: ModuleType) -> Synth:
    golden, outcomes = bench_synth.write_qa(tmp_path_factory.mktemp("synth"), N_CASES)
    made = Synth(golden, outcomes)
    assert len(made.golden_lines()) == N_CASES
    # Some cases have no outcome line: the missing-outcome path is exercised too.
    assert N_CASES - 100 < len(made.outcome_lines()) < N_CASES
    return made


# --- running both paths -------------------------------------------------------------------


def _config(
    golden: Path, outcomes: Path, *, workers: int = 2, shard: Shard | None = None
) -> RunConfig:
    return RunConfig(
        system="outcomes",
        golden=str(golden),
        outcomes=str(outcomes),
        baseline=None,
        bootstrap_resamples=0,
        workers=workers,
        extra={"shard": shard} if shard is not None else {},
    )


@dataclass
class Spy:
    returned: int = 0
    declined: int = 0


@contextmanager
def _spy_fast_path() -> Iterator[Spy]:
    """Count how ``score_outcomes_file`` ended (returned, or declined the input)."""
    real = parallel_qa.score_outcomes_file
    spy = Spy()

    def wrapper(*args: Any, **kwargs: Any) -> parallel_qa.ParallelResult:
        try:
            got = real(*args, **kwargs)
        except FastPathDeclined:
            spy.declined += 1
            raise
        spy.returned += 1
        return got

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(parallel_qa, "score_outcomes_file", wrapper)
        yield spy


@contextmanager
def _sequential_only() -> Iterator[None]:
    """The fast path declines everything: ``run`` takes the sequential path."""

    def declined(*args: Any, **kwargs: Any) -> parallel_qa.ParallelResult:
        raise FastPathDeclined

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(parallel_qa, "score_outcomes_file", declined)
        yield


def _dump(result: RunResult) -> dict[str, Any]:
    dumped = result.report.model_dump(mode="json")
    dumped.pop("generated_at")
    return dumped


def _fast(config: RunConfig, *, must_run: bool = True) -> dict[str, Any]:
    with _spy_fast_path() as spy:
        result = run(config)
    if must_run:
        assert (spy.returned, spy.declined) == (1, 0), "the fast path did not score this input"
    return _dump(result)


def _sequential(config: RunConfig) -> dict[str, Any]:
    with _sequential_only():
        return _dump(run(config))


def _qa(report: dict[str, Any]) -> dict[str, Any]:
    qa = report["qa"]
    assert isinstance(qa, dict)
    return qa


# --- 1, 2: determinism and the fast path really running -------------------------------


@pytest.mark.slow
def test_report_is_the_same_for_1_2_3_workers_and_the_sequential_path(synth: Synth) -> None:
    sequential = _sequential(_config(synth.golden, synth.outcomes, workers=1))
    qa = _qa(sequential)
    assert qa["n_cases"] == N_CASES and len(qa["cases"]) == N_CASES
    assert qa["errors"]["count"] > 0  # missing and error outcomes are part of the comparison
    reports = {w: _fast(_config(synth.golden, synth.outcomes, workers=w)) for w in (1, 2, 3)}
    assert reports[1] == reports[2] == reports[3]
    for report in reports.values():
        assert _qa(report) == qa
        assert report == sequential


@pytest.mark.slow
def test_a_killed_worker_falls_back_to_the_sequential_path(
    synth: Synth, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = parallel_qa._score_range

    def dying(part: int) -> Any:
        if part == 1:
            os._exit(9)  # as the kernel's OOM killer would end it: no exception, no result
        return real(part)

    monkeypatch.setattr(parallel_qa, "_score_range", dying)
    config = _config(synth.golden, synth.outcomes, workers=2)
    with _spy_fast_path() as spy:
        survived = _dump(run(config))
    assert (spy.returned, spy.declined) == (0, 1)
    monkeypatch.setattr(parallel_qa, "_score_range", real)
    assert survived == _sequential(config)


class _RecordingPool(ProcessPoolExecutor):
    sizes: ClassVar[list[int | None]] = []

    def __init__(self, max_workers: int | None = None, **kwargs: Any) -> None:
        _RecordingPool.sizes.append(max_workers)
        super().__init__(max_workers=max_workers, **kwargs)


def test_two_workers_score_two_ranges_in_a_process_pool(
    synth: Synth, monkeypatch: pytest.MonkeyPatch
) -> None:
    ranges = parallel_qa._ranges(str(synth.golden), 2)
    assert len(ranges) == 2
    assert ranges[0].start == 0 and ranges[0].end == ranges[1].start
    assert ranges[1].end == synth.golden.stat().st_size
    parts_seen: list[list[int]] = []
    real_run_parts = parallel_qa._run_parts

    def run_parts(count: int) -> list[Any]:
        parts = real_run_parts(count)
        parts_seen.append([len(p.golden_ids) for p in parts])
        return parts

    monkeypatch.setattr(parallel_qa, "_run_parts", run_parts)
    monkeypatch.setattr(_RecordingPool, "sizes", [])
    monkeypatch.setattr(parallel_qa, "ProcessPoolExecutor", _RecordingPool)
    with _spy_fast_path() as spy:
        result = run(_config(synth.golden, synth.outcomes, workers=2))
    assert (spy.returned, spy.declined) == (1, 0)
    assert _RecordingPool.sizes == [2]
    assert len(parts_seen) == 1
    (sizes,) = parts_seen
    assert len(sizes) == 2 and all(n > 0 for n in sizes) and sum(sizes) == N_CASES
    assert result.report.qa is not None and result.report.qa.n_cases == N_CASES


@pytest.mark.slow
def test_more_parts_than_workers_give_the_sequential_report(
    synth: Synth, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large file is cut into several parts per worker (a free worker takes the next):
    the pool keeps its size, every part is scored once, in file order."""
    size = synth.golden.stat().st_size
    monkeypatch.setattr(parallel_qa, "MIN_BYTES_PER_WORKER", max(1, size // 20))
    assert parallel_qa._part_count(str(synth.golden), 2) == 2 * parallel_qa.PARTS_PER_WORKER
    assert parallel_qa._part_count(str(synth.golden), 1) == 1
    parts_seen: list[list[int]] = []
    real_run_parts = parallel_qa._run_parts

    def run_parts(count: int) -> list[Any]:
        parts = real_run_parts(count)
        parts_seen.append([len(p.golden_ids) for p in parts])
        return parts

    monkeypatch.setattr(parallel_qa, "_run_parts", run_parts)
    monkeypatch.setattr(_RecordingPool, "sizes", [])
    monkeypatch.setattr(parallel_qa, "ProcessPoolExecutor", _RecordingPool)
    fast = _fast(_config(synth.golden, synth.outcomes, workers=2))
    assert _RecordingPool.sizes == [2]
    (sizes,) = parts_seen
    assert len(sizes) == 2 * parallel_qa.PARTS_PER_WORKER and sum(sizes) == N_CASES
    assert fast == _sequential(_config(synth.golden, synth.outcomes, workers=1))


def test_parts_come_back_through_files_removed_after_reading(
    synth: Synth, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each worker streams its part to a file (no whole-part buffer in worker and parent
    while both live); the parent reads them after the workers exit and leaves nothing."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    written: list[str] = []
    real_load = pickle.load

    def load(handle: Any) -> Any:
        written.append(handle.name)
        return real_load(handle)

    monkeypatch.setattr(pickle, "load", load)
    fast = _fast(_config(synth.golden, synth.outcomes, workers=2))
    assert len(written) == 2 and all("ragspine-parts-" in name for name in written)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("ragspine-parts-")] == []
    assert fast == _sequential(_config(synth.golden, synth.outcomes))


# --- 3: shards --------------------------------------------------------------------------


@pytest.mark.slow
def test_each_shard_equals_the_sequential_shard(synth: Synth, tmp_path: Path) -> None:
    # Outcomes of no golden case, before and after the others: each shard lists them
    # (in file order), never another shard's outcomes.
    outcomes = tmp_path / "outcomes.jsonl"
    lines = synth.outcome_lines()
    unknown = ['{"id": "zz-unknown-1", "answer": "x"}', '{"id": "aa-unknown-2", "answer": "y"}']
    outcomes.write_text("\n".join([unknown[0], *lines, unknown[1]]) + "\n", encoding="utf-8")
    positions: list[int] = []
    for index in (1, 2, 3):
        shard = Shard(index, 3)
        config = _config(synth.golden, outcomes, workers=2, shard=shard)
        fast, sequential = _qa(_fast(config)), _qa(_sequential(config))
        for key in ("shard", "cases", "metrics", "unknown_outcome_ids", "golden"):
            assert fast[key] == sequential[key], key
        assert fast == sequential
        assert fast["unknown_outcome_ids"] == ["zz-unknown-1", "aa-unknown-2"]
        ids = [c["id"] for c in fast["cases"]]
        assert ids and all(shard_of(i, 3) == index for i in ids)
        assert fast["golden"]["n_cases"] == N_CASES
        positions += fast["shard"]["positions"]
    assert sorted(positions) == list(range(N_CASES))


# --- 4: inputs the fast path must hand to the sequential path ----------------------------

Lines = list[str]
Mutation = Callable[[Lines, Lines], tuple[str, int]]  # edits in place; → (file, line)


def _set(lines: Lines, index: int, **changes: Any) -> None:
    obj = json.loads(lines[index])
    obj.update(changes)
    lines[index] = json.dumps(obj, ensure_ascii=False)


def _golden_invalid_json_line_2500(golden: Lines, outcomes: Lines) -> tuple[str, int]:
    golden[2499] = golden[2499][:-25]
    return "golden", 2500


def _golden_case_invalid_late(golden: Lines, outcomes: Lines) -> tuple[str, int]:
    obj = json.loads(golden[2899])
    del obj["question"]
    golden[2899] = json.dumps(obj, ensure_ascii=False)
    return "golden", 2900


def _golden_rule_violation_late(golden: Lines, outcomes: Lines) -> tuple[str, int]:
    _set(golden, 2950, question="   ")
    return "golden", 2951


def _golden_duplicate_id_across_halves(golden: Lines, outcomes: Lines) -> tuple[str, int]:
    _set(golden, 2799, id=json.loads(golden[99])["id"])
    return "golden", 2800


def _outcome_duplicate_id(golden: Lines, outcomes: Lines) -> tuple[str, int]:
    _set(outcomes, 2000, id=json.loads(outcomes[10])["id"])
    return "outcomes", 2001


def _outcome_duplicate_key_behind_an_escaped_colon(
    golden: Lines, outcomes: Lines
) -> tuple[str, int]:
    # The escaped colon decodes to one more colon than the line shows: a colon count
    # alone would balance the dropped key (issue 25's proof must not vouch for it).
    outcomes[2200] = outcomes[2200][:-1] + ', "answer": "x", "answer": "\\u003a"}'
    return "outcomes", 2201


def _golden_duplicate_nested_key(golden: Lines, outcomes: Lines) -> tuple[str, int]:
    line = golden[2600]
    assert '"expected": {' in line
    golden[2600] = line.replace('"expected": {', '"expected": {"unit": "x", "unit": "y", ', 1)
    return "golden", 2601


def _outcome_unknown_invalid_json(golden: Lines, outcomes: Lines) -> tuple[str, int]:
    outcomes.append('{"id": "zz-never-used", "answer": "unterminated')
    return "outcomes", len(outcomes)


def _outcome_unknown_invalid_record(golden: Lines, outcomes: Lines) -> tuple[str, int]:
    outcomes.append('{"id": "zz-never-used", "latency_ms": -5}')
    return "outcomes", len(outcomes)


def _outcome_refused_wrong_type(golden: Lines, outcomes: Lines) -> tuple[str, int]:
    _set(outcomes, 2500, refused="yes")
    return "outcomes", 2501


def _outcome_not_an_object(golden: Lines, outcomes: Lines) -> tuple[str, int]:
    outcomes.insert(1500, '["not", "an", "object"]')
    return "outcomes", 1501


def _golden_bom_mid_file(golden: Lines, outcomes: Lines) -> tuple[str, int]:
    golden[1999] = BOM + golden[1999]  # only line 1 may start with a BOM
    return "golden", 2000


def _outcome_bom_mid_file(golden: Lines, outcomes: Lines) -> tuple[str, int]:
    outcomes[1999] = BOM + outcomes[1999]
    return "outcomes", 2000


def _golden_null_line(golden: Lines, outcomes: Lines) -> tuple[str, int]:
    golden.insert(2500, "null")
    return "golden", 2501


def _outcome_null_line(golden: Lines, outcomes: Lines) -> tuple[str, int]:
    outcomes.insert(1500, "null")
    return "outcomes", 1501


def _write(directory: Path, golden: Lines, outcomes: Lines) -> dict[str, Path]:
    paths = {"golden": directory / "golden.jsonl", "outcomes": directory / "outcomes.jsonl"}
    paths["golden"].write_text("\n".join(golden) + "\n", encoding="utf-8")
    paths["outcomes"].write_text("\n".join(outcomes) + "\n", encoding="utf-8")
    return paths


def _cli_error(
    paths: dict[str, Path],
    report: Path,
    capsys: pytest.CaptureFixture[str],
    more: tuple[str, ...] = (),
) -> tuple[int, str]:
    argv = ["--no-config", "--system", "outcomes", "--golden", str(paths["golden"])]
    argv += ["--outcomes", str(paths["outcomes"]), "--no-baseline", "--bootstrap-resamples", "0"]
    argv += ["--workers", "2", "--report", str(report), "--quiet", *more]
    capsys.readouterr()
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.err


def _check_handed_over(
    mutation: Mutation, synth: Synth, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden, outcomes = synth.golden_lines(), synth.outcome_lines()
    which, line = mutation(golden, outcomes)
    paths = _write(tmp_path, golden, outcomes)
    report = tmp_path / "report.json"
    with _spy_fast_path() as spy:
        code, err = _cli_error(paths, report, capsys)
    assert (code, spy.returned, spy.declined) == (2, 0, 1), err
    assert not report.exists()
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"{paths[which]}:{line}: "), err
    with _sequential_only():
        sequential_code, sequential_err = _cli_error(paths, report, capsys)
    assert sequential_code == 2 and not report.exists()
    assert err == sequential_err


@pytest.mark.slow
@pytest.mark.parametrize(
    "mutation",
    [
        _golden_invalid_json_line_2500,
        _golden_case_invalid_late,
        _golden_rule_violation_late,
        _golden_duplicate_id_across_halves,
        _outcome_duplicate_id,
        _outcome_duplicate_key_behind_an_escaped_colon,
        _golden_duplicate_nested_key,
        _outcome_unknown_invalid_json,
        _outcome_unknown_invalid_record,
        _outcome_refused_wrong_type,
        _outcome_not_an_object,
        _golden_bom_mid_file,
        _outcome_bom_mid_file,
    ],
    ids=lambda m: m.__name__.strip("_"),
)
def test_input_problems_get_the_sequential_paths_message(
    mutation: Mutation, synth: Synth, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _check_handed_over(mutation, synth, tmp_path, capsys)


@pytest.mark.slow
@pytest.mark.parametrize(
    "mutation", [_golden_null_line, _outcome_null_line], ids=lambda m: m.__name__.strip("_")
)
def test_a_null_line_gets_the_sequential_paths_message(
    mutation: Mutation, synth: Synth, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _check_handed_over(mutation, synth, tmp_path, capsys)


def test_an_oversized_outcomes_file_does_not_hide_a_golden_problem(
    synth: Synth, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden, outcomes = synth.golden_lines(), synth.outcome_lines()
    _golden_invalid_json_line_2500(golden, outcomes)
    paths = _write(tmp_path, golden, outcomes)
    small, large = paths["golden"].stat().st_size, paths["outcomes"].stat().st_size
    assert small < large
    report = tmp_path / "report.json"
    limit = ("--max-input-bytes", str((small + large) // 2))
    code, err = _cli_error(paths, report, capsys, limit)
    with _sequential_only():
        sequential_code, sequential_err = _cli_error(paths, report, capsys, limit)
    assert sequential_code == 2 and sequential_err.startswith(f"{paths['golden']}:2500: ")
    assert (code, err) == (sequential_code, sequential_err)
    assert not report.exists()


def test_duplicate_golden_ids_sit_in_different_ranges(synth: Synth, tmp_path: Path) -> None:
    """The duplicate-id case above really spans the two workers' ranges."""
    golden, outcomes = synth.golden_lines(), synth.outcome_lines()
    _golden_duplicate_id_across_halves(golden, outcomes)
    paths = _write(tmp_path, golden, outcomes)
    first, second = parallel_qa._ranges(str(paths["golden"]), 2)
    data = paths["golden"].read_bytes()
    starts = [0]
    for _ in range(2799):
        starts.append(data.index(b"\n", starts[-1]) + 1)
    assert starts[99] < first.end <= second.start <= starts[2799]


def test_a_missing_outcomes_file_gets_the_sequential_paths_message(
    synth: Synth, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = {"golden": synth.golden, "outcomes": tmp_path / "absent.jsonl"}
    report = tmp_path / "report.json"
    code, err = _cli_error(paths, report, capsys)
    assert code == 2 and not report.exists()
    assert err == f"{paths['outcomes']}: file not found\n"


# --- 5: inputs the fast path must get right ------------------------------------------------


def _ids(lines: Lines) -> list[str]:
    return [json.loads(line)["id"] for line in lines]


def _text(lines: Lines, *, crlf: bool = False, bom: bool = False) -> str:
    sep = "\r\n" if crlf else "\n"
    return (BOM if bom else "") + sep.join(lines) + sep


@dataclass(frozen=True)
class Variant:
    golden: str
    outcomes: str
    fast: bool = True  # the fast path must score it (not decline)
    workers: int = 2


def _golden_bom(golden: Lines, outcomes: Lines) -> Variant:
    return Variant(_text(golden, bom=True), _text(outcomes))


def _outcomes_bom(golden: Lines, outcomes: Lines) -> Variant:
    # The fast path may leave this to the sequential path: only the result matters.
    return Variant(_text(golden), _text(outcomes, bom=True), fast=False)


def _with_blanks(lines: Lines, every: int) -> Lines:
    out = ["", "  \t "]
    for i, line in enumerate(lines):
        out.append(line)
        if i % every == 0:
            out += ["", "   "] if i % 2 else [""]
    return [*out, "", " "]


def _blank_lines(golden: Lines, outcomes: Lines) -> Variant:
    return Variant(_text(_with_blanks(golden, 97)), _text(_with_blanks(outcomes, 89)))


def _outcomes_reversed(golden: Lines, outcomes: Lines) -> Variant:
    return Variant(_text(golden), _text(outcomes[::-1]))


def _crlf(golden: Lines, outcomes: Lines) -> Variant:
    return Variant(_text(golden, crlf=True), _text(outcomes, crlf=True))


def _all_at_once(golden: Lines, outcomes: Lines) -> Variant:
    return Variant(
        _text(_with_blanks(golden, 101), crlf=True, bom=True),
        _text(_with_blanks(outcomes[::-1], 83), crlf=True),
        workers=3,
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "variant",
    [_golden_bom, _outcomes_bom, _blank_lines, _outcomes_reversed, _crlf, _all_at_once],
    ids=lambda v: v.__name__.strip("_"),
)
def test_fast_path_matches_the_sequential_path(
    variant: Callable[[Lines, Lines], Variant], synth: Synth, tmp_path: Path
) -> None:
    got = variant(synth.golden_lines(), synth.outcome_lines())
    golden, outcomes = tmp_path / "golden.jsonl", tmp_path / "outcomes.jsonl"
    golden.write_bytes(got.golden.encode("utf-8"))
    outcomes.write_bytes(got.outcomes.encode("utf-8"))
    config = _config(golden, outcomes, workers=got.workers)
    fast = _fast(config, must_run=got.fast)
    sequential = _sequential(config)
    assert _qa(fast)["n_cases"] == N_CASES
    assert fast == sequential
    # Formatting never changes the fingerprint: the plain synth set has the same one.
    plain = _fast(_config(synth.golden, synth.outcomes))
    assert _qa(fast)["golden"]["fingerprint"] == _qa(plain)["golden"]["fingerprint"]
    assert _qa(fast)["cases"] == _qa(plain)["cases"]


def _escape_first_char(line: str, case_id: str) -> str:
    """The id's first (ASCII) character as a \\u escape: same id, no plain-id match."""
    plain = json.dumps(case_id)
    escaped = '"' + f"\\u{ord(case_id[0]):04x}" + plain[2:]
    assert plain in line
    return line.replace(plain, escaped, 1)


@pytest.mark.slow
def test_ids_with_json_escapes_are_matched(synth: Synth, tmp_path: Path) -> None:
    golden, outcomes = synth.golden_lines(), synth.outcome_lines()
    with_outcome = set(_ids(outcomes))
    line_of = {case_id: i for i, case_id in enumerate(_ids(outcomes))}
    renamed: dict[str, str] = {}
    for n, case_id in enumerate(_ids(golden)[::37]):
        if case_id in with_outcome:
            renamed[case_id] = [f"aé-{case_id}", f'q"{case_id}', f"back\\{case_id}"][n % 3]
    escaped_ascii: list[str] = []
    for i, case_id in enumerate(_ids(golden)):
        new_id = renamed.get(case_id)
        if new_id is not None:
            _set(golden, i, id=new_id)  # raw UTF-8, \" and \\ in the golden file
        if case_id not in with_outcome:
            continue
        j = line_of[case_id]
        obj = json.loads(outcomes[j])
        if new_id is not None:
            obj["id"] = new_id
            if i % 2:  # the id as the last key: no leading-id match
                obj = {k: v for k, v in obj.items() if k != "id"} | {"id": new_id}
            outcomes[j] = json.dumps(obj, ensure_ascii=True)  # \u00e9, \", \\
        elif i % 41 == 0:
            outcomes[j] = _escape_first_char(outcomes[j], case_id)
            escaped_ascii.append(case_id)
    assert len(renamed) > 50 and len(escaped_ascii) > 50
    assert any("\\u00e9" in line for line in outcomes) and any('q\\"' in line for line in outcomes)
    paths = _write(tmp_path, golden, outcomes)
    config = _config(paths["golden"], paths["outcomes"])
    fast = _fast(config)
    assert fast == _sequential(config)
    by_id = {c["id"]: c for c in _qa(fast)["cases"]}
    for case_id in [*renamed.values(), *escaped_ascii]:
        assert by_id[case_id]["error"] != MISSING_OUTCOME, case_id
    assert _qa(fast)["unknown_outcome_ids"] == []


@pytest.mark.slow
def test_missing_outcomes_are_errors(synth: Synth, tmp_path: Path) -> None:
    golden, outcomes = synth.golden_lines(), synth.outcome_lines()
    dropped = set(_ids(outcomes[::5]))
    kept = [line for line in outcomes if json.loads(line)["id"] not in dropped]
    never = set(_ids(golden)) - set(_ids(outcomes))
    paths = _write(tmp_path, golden, kept)
    config = _config(paths["golden"], paths["outcomes"])
    fast = _fast(config)
    assert fast == _sequential(config)
    missing = {c["id"] for c in _qa(fast)["cases"] if c["error"] == MISSING_OUTCOME}
    assert missing == dropped | never
    assert len(missing) > 500


@pytest.mark.slow
def test_unknown_outcome_ids_are_listed_in_file_order(synth: Synth, tmp_path: Path) -> None:
    golden, outcomes = synth.golden_lines(), synth.outcome_lines()
    extra = [
        (0, '{"id": "zz-unknown", "answer": "a"}'),
        (700, '{"answer": "b", "id": "mm-unknown"}'),
        (1400, '{"id": "\\u00fcnknown-\\"q\\"", "answer": "c"}'),
        (2100, '  {"id" : "aa-unknown"}'),
        (len(outcomes), '{"id": "00-unknown", "refused": true}'),
    ]
    for position, line in sorted(extra, reverse=True):
        outcomes.insert(position, line)
    expected = ["zz-unknown", "mm-unknown", 'ünknown-"q"', "aa-unknown", "00-unknown"]
    paths = _write(tmp_path, golden, outcomes)
    for workers in (1, 2):
        config = _config(paths["golden"], paths["outcomes"], workers=workers)
        fast = _fast(config)
        assert _qa(fast)["unknown_outcome_ids"] == expected
        assert fast == _sequential(config)


def test_the_mini_fixtures_match_the_sequential_path(tmp_path: Path) -> None:
    data = ROOT / "tests" / "data"
    for workers in (1, 2, 3):
        config = _config(data / "mini_golden.jsonl", data / "mini_outcomes.jsonl", workers=workers)
        assert _fast(config) == _sequential(config)


# --- 6: default_workers ---------------------------------------------------------------------


def test_default_workers_is_one_for_a_tiny_file() -> None:
    assert default_workers(str(ROOT / "tests" / "data" / "mini_golden.jsonl")) == 1


def test_default_workers_is_one_for_a_missing_file(tmp_path: Path) -> None:
    assert default_workers(str(tmp_path / "absent.jsonl")) == 1


def test_default_workers_never_exceeds_max_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    big = tmp_path / "big.jsonl"
    with big.open("wb") as handle:  # sparse: large by size, nothing written
        handle.truncate(100 * parallel_qa.MIN_BYTES_PER_WORKER)
    got = default_workers(str(big))
    assert 1 <= got <= MAX_WORKERS
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(64)), raising=False)
    assert default_workers(str(big)) == MAX_WORKERS
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    assert default_workers(str(big)) == 3
    # By size: one worker per MIN_BYTES_PER_WORKER, even with many cores.
    with big.open("r+b") as handle:
        handle.truncate(2 * parallel_qa.MIN_BYTES_PER_WORKER + 1)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(64)), raising=False)
    assert default_workers(str(big)) == 2


def _index_line_by_line(path: Path) -> tuple[list[str], list[int], list[int]] | None:
    """What the outcome index holds, read the plain way: one line at a time."""
    ids: list[str] = []
    starts: list[int] = []
    lengths: list[int] = []
    offset = 0
    with open(path, "rb") as handle:
        for data in handle:
            try:
                obj = parallel_qa._parse(data)
            except FastPathDeclined:
                return None
            if obj is not parallel_qa._BLANK:
                if not isinstance(obj.get("id"), str) or obj["id"] in ids:
                    return None
                ids.append(obj["id"])
                starts.append(offset)
                lengths.append(len(data))
            offset += len(data)
    return (ids, starts, lengths) if ids else None


@pytest.mark.parametrize(
    "data",
    [
        b'{"id": "a"}\n\n{"id":"b"}',
        b'{"id": "a"}\n  \n{"x": 1, "id": "b"}\n',
        b'\n\n{"id": "a"}\n',
        b'{"id": "a"}',
        b'{"id": "a"}\r\n{"id": "b"}\r\n',
        b'{"id": "a\\u00e9"}\n{"id": "b"}\n',
        b' {"id" :  "a"}\n\t{"id": "c"}\n',
        b'\n{\n"id": "q"}\n{"id": "r"}\n',
        b'{"id": "abcdefghijklmnop"}\n{"id": "b"}',
        b'{"id": "a"}\n{"id": "a"}\n',
        b'{"id": 3}\n',
        b"\n",
        b"",
    ],
)
@pytest.mark.parametrize("block", [1, 3, 8, 1 << 20])
def test_the_outcome_index_reads_blocks_as_lines(
    data: bytes, block: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index is read per block (numpy finds the line ends): whatever the block size,
    it holds what reading the file line by line gives, and declines what that declines."""
    path = tmp_path / "outcomes.jsonl"
    path.write_bytes(data)
    monkeypatch.setattr(parallel_qa, "_INDEX_BLOCK", block)
    expected = _index_line_by_line(path)
    if expected is None:
        with pytest.raises(FastPathDeclined):
            parallel_qa._index_outcomes(str(path), 1 << 20)
        return
    index = parallel_qa._index_outcomes(str(path), 1 << 20)
    assert (index.ids, list(index.starts), list(index.lengths)) == expected
    assert index.position == {case_id: i for i, case_id in enumerate(expected[0])}

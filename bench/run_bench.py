"""Benchmark: wall time, cases per second and peak memory per stage, at 10k–1M cases.

    python bench/run_bench.py                                   # 10k and 100k cases, 1M cells
    python bench/run_bench.py --sizes 10000,100000,1000000      # adds the million-case run

Options: ``--workers N`` (default 0: as the CLI, one per core when the golden set is big
enough) is passed to the staged run and to every end-to-end run; ``--cells`` sets the
extraction size (0 skips it); ``--trec N`` times N TREC queries x 100 docs beside
pytrec_eval (``bench/trec_bench.py``; default 20,000, 0 skips it); ``--out`` the JSON file
(default ``bench/results.json``).

Synthetic inputs come from ``bench/synth.py`` (deterministic, cached in ``--data-dir``).
Each size runs in its own process, so one size's memory never inflates another's.

``--system outcomes`` scores in worker processes (``ragspine_action.parallel_qa``): the
main process indexes the outcomes file, then forks the workers, which share its pages
copy-on-write, score one byte range of the golden file each and send back columns.
So memory is reported per process and for the whole tree:

* ``components`` (sizes up to ``--components-max``, default 100k): what the workers do
  interleaved, timed step by step in one process on the sequential path — load +
  validate, retrieval metrics, all gates — to show where a case's time goes.
* ``stages`` (the pipeline step by step in one process, as ``ragspine_action.run`` calls
  it): score (parallel workers: load + validate + all gates + retrieval), baseline
  values, baseline compare without and with bootstrap intervals, report JSON (streamed,
  ``write_report``) + markdown.

  - ``peak_rss_mb``: the bench process's peak resident size once the stage is done
    (``getrusage(RUSAGE_SELF)``; it only grows, so it is the peak up to and including
    that stage). Workers are separate processes and are not in it.
  - ``largest_worker_rss_mb``: the peak RSS of the largest single worker
    (``getrusage(RUSAGE_CHILDREN)``); None when the set was scored in-process (1 worker).
    RSS counts the pages a worker shares with the main process in full, so main + worker
    RSS overstates the total; the end-to-end tree figure below does not.

* ``end_to_end``: ``python -m ragspine_action.cli --system outcomes --mode bench …
  --report … --quiet --no-config`` as a user runs it, three times: with
  ``--no-baseline``, a first run that creates the baseline, a second that compares.

  - ``peak_rss_mb``: ``ru_maxrss`` from ``os.wait4``. Linux reports the larger of the CLI
    process's own peak and that of its largest reaped child, i.e. the largest single
    process of the run (normally the main one).
  - ``main_hwm_mb``: the CLI process's own peak RSS (``VmHWM`` in /proc/<pid>/status),
    last sampled up to 0.25 s before it exits.
  - ``peak_tree_pss_mb``: the peak memory of the whole process tree: every 0.25 s the sum
    of ``Pss`` (/proc/<pid>/smaps_rollup) over the CLI process and all its descendants.
    PSS divides each shared page among the processes mapping it, so pages the workers
    share copy-on-write with the main process count once: this is what the run costs
    the machine. ``peak_tree_procs`` is the most processes seen at once.

The printed table shows ``peak MB`` (the peak RSS figures above) and ``tree MB``
(``peak_tree_pss_mb``, end-to-end rows only); the JSON keeps every field.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import select
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import synth  # noqa: E402

SAMPLE_S = 0.25  # reading smaps_rollup of a GB-sized process costs CPU: sample sparingly


def _mb(kib: float) -> float:
    return round(kib / 1024, 1)


def _rss_mb() -> float:
    return _mb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


# ---------------------------------------------------------------------------- stages


def _stage_recorder(n: int, rows: list[dict[str, Any]]) -> Callable[[str, float], None]:
    """``stage(name, started)`` appends the stage's row: wall time, rate, peak RSS so far."""

    def stage(name: str, started: float) -> None:
        wall = time.perf_counter() - started
        rows.append(
            {
                "stage": name,
                "wall_s": round(wall, 3),
                "cases_per_s": round(n / wall) if wall else None,
                "peak_rss_mb": _rss_mb(),
            }
        )

    return stage


def _components(n: int, data_dir: Path, workers: int) -> dict[str, Any]:
    """What the workers do interleaved, step by step in one process (sequential path).

    Holds every case in memory (~17 KB a case), so only run for sizes up to
    ``--components-max``.
    """
    from ragspine_action.golden.load import load_golden_set
    from ragspine_action.metrics.retrieval import aggregate_retrieval, case_retrieval
    from ragspine_action.perf import gc_paused
    from ragspine_action.qa import CaseScorer, QASettings
    from ragspine_action.systems.outcomes_file import OutcomesFileSystem

    golden_path, outcomes_path = synth.write_qa(data_dir, n, kb=_KB)
    rows: list[dict[str, Any]] = []
    stage = _stage_recorder(n, rows)

    settings = QASettings()
    with gc_paused():
        t = time.perf_counter()
        golden = load_golden_set(golden_path)
        collection = OutcomesFileSystem(str(outcomes_path)).collect(golden.cases)
        stage("1 process: load + validate (golden, outcomes)", t)
        t = time.perf_counter()
        per_case = [
            (c.id, c.tags, case_retrieval(collection.outcomes[c.id].ranked_docs(), c.relevance()))
            for c in golden.cases
        ]
        aggregate_retrieval(per_case)
        stage("1 process: retrieval metrics (per case + means)", t)
        del per_case
        t = time.perf_counter()
        scorer = CaseScorer(settings)
        for case in golden.cases:
            scorer.score(case, collection.outcomes[case.id])
        scorer.table.build()
        stage("1 process: score all gates (incl. retrieval, attribution)", t)
    return {"n_cases": n, "stages": rows}


def _stages(n: int, data_dir: Path, workers: int) -> dict[str, Any]:
    """The QA pipeline stage by stage in this process (the scoring stage forks workers)."""
    from ragspine_action.baseline.ratchet import compare, entry_from_values
    from ragspine_action.baseline.values import qa_suite_values
    from ragspine_action.config import RunConfig, validate_config
    from ragspine_action.parallel_qa import default_workers
    from ragspine_action.perf import gc_paused
    from ragspine_action.report.model import Report, ToolInfo
    from ragspine_action.report.render_markdown import render_markdown
    from ragspine_action.report.write import write_report
    from ragspine_action.run import _interval_fn, _outcomes_file_qa, qa_settings

    golden_path, outcomes_path = synth.write_qa(data_dir, n, kb=_KB)
    config = validate_config(
        RunConfig(
            system="outcomes",
            mode="bench",
            golden=str(golden_path),
            outcomes=str(outcomes_path),
            baseline=None,
            workers=workers,
        )
    )
    settings = qa_settings(config)  # what run._run builds from the config
    used_workers = config.workers or default_workers(config.golden)
    rows: list[dict[str, Any]] = []
    stage = _stage_recorder(n, rows)

    with gc_paused():  # as run.run: the collector is paused for the whole evaluation
        t = time.perf_counter()
        qa = _outcomes_file_qa(config, settings, None)
        if qa is None:
            raise SystemExit(
                f"bench: the parallel path declined {golden_path} / {outcomes_path} "
                "(the CLI would fall back to the sequential path): check the inputs"
            )
        stage("score (parallel workers: load + validate + all gates + retrieval)", t)
        children_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss

        t = time.perf_counter()
        values = qa_suite_values(qa, config.protected_k)
        stage("baseline values", t)

        entry = entry_from_values(values, recorded_at="", tool_version="")
        t = time.perf_counter()
        compare(entry, values, None)
        stage("baseline compare (no intervals)", t)

        t = time.perf_counter()
        compare(entry, values, _interval_fn(config))  # the CLI's: 5000 resamples
        stage("+ bootstrap intervals", t)

    with tempfile.TemporaryDirectory(prefix="ragspine-bench-") as tmp:
        report_path = Path(tmp) / "report.json"
        t = time.perf_counter()
        report = Report(
            tool=ToolInfo(version="bench"),
            verdict="pass",
            exit_code=0,
            summary="",
            generated_at="",
            qa=qa,
        )
        write_report(report, report_path)
        markdown = render_markdown(report)
        stage("report JSON (streamed) + markdown", t)
        report_bytes = report_path.stat().st_size
    return {
        "n_cases": n,
        "workers": used_workers,
        "largest_worker_rss_mb": _mb(children_kib) if children_kib else None,
        "stages": rows,
        "report_mb": round(report_bytes / 2**20, 1),
        "markdown_chars": len(markdown),
    }


# ------------------------------------------------------------------------ extraction


def _extraction(n_cells: int, data_dir: Path, workers: int) -> dict[str, Any]:
    from ragspine_action.extraction import load_fixtures, pairs_from_paths, score_fixtures

    del workers  # the extraction suite runs in one process
    facts, truth = synth.write_extraction(data_dir, n_cells)
    t = time.perf_counter()
    fixtures = load_fixtures(pairs_from_paths([str(facts)], [str(truth)]))
    load_s = time.perf_counter() - t
    t = time.perf_counter()
    result = score_fixtures(fixtures)
    score_s = time.perf_counter() - t
    channels = result.to_dict().get("channels", {})
    return {
        "n_cells": n_cells,
        "load_s": round(load_s, 3),
        "score_s": round(score_s, 3),
        "cells_per_s": round(n_cells / (load_s + score_s)),
        "peak_rss_mb": _rss_mb(),
        "accuracy": {k: v.get("accuracy") for k, v in channels.items()},
    }


# ------------------------------------------------------------------------ end to end


def _tree_pids(root: int) -> list[int]:
    """``root`` and all its live descendants (children of every thread, recursively)."""
    found: list[int] = []
    todo = [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                text = Path(f"/proc/{pid}/task/{tid}/children").read_text()
            except OSError:
                continue
            todo += [int(child) for child in text.split()]
    return found


def _proc_kib(path: str, field: str) -> int:
    """A ``Field:   123 kB`` value of a /proc file; 0 when the process is gone."""
    try:
        with open(path, encoding="ascii") as handle:
            for line in handle:
                if line.startswith(field):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


class _TreeSampler:
    """Peak PSS of a process tree and the root's own VmHWM, sampled on demand."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.peak_pss_kib = 0
        self.peak_procs = 0
        self.root_hwm_kib = 0

    def sample(self) -> None:
        pids = _tree_pids(self.root)
        total = sum(_proc_kib(f"/proc/{pid}/smaps_rollup", "Pss:") for pid in pids)
        self.peak_pss_kib = max(self.peak_pss_kib, total)
        self.peak_procs = max(self.peak_procs, len(pids))
        self.root_hwm_kib = max(self.root_hwm_kib, _proc_kib(f"/proc/{self.root}/status", "VmHWM:"))


def _pidfd(pid: int) -> int | None:
    """A descriptor that becomes readable when ``pid`` exits (None: sleep instead)."""
    try:
        return os.pidfd_open(pid) if hasattr(os, "pidfd_open") else None
    except OSError:  # a kernel without pidfd (< 5.3)
        return None


def _measure(cmd: list[str], report: Path) -> dict[str, Any]:
    """Run ``cmd``; wall time, exit code and memory of the process and its tree."""
    with tempfile.TemporaryFile() as stderr:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=stderr)
        sampler = _TreeSampler(proc.pid)
        exited = _pidfd(proc.pid)
        try:
            while True:
                sampler.sample()
                # Poll without reaping, so wait4 below still gets the process's rusage.
                if os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT):
                    break
                if exited is None:
                    time.sleep(SAMPLE_S)
                else:  # wakes at once when the process exits: the wall time stays exact
                    select.select([exited], [], [], SAMPLE_S)
        finally:
            if exited is not None:
                os.close(exited)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        stderr.seek(0)
        errors = stderr.read().decode("utf-8", "replace").strip()
    row: dict[str, Any] = {
        "wall_s": round(wall, 2),
        "exit_code": proc.returncode,
        "peak_rss_mb": _mb(usage.ru_maxrss),
        "main_hwm_mb": _mb(sampler.root_hwm_kib),
        "peak_tree_pss_mb": _mb(sampler.peak_pss_kib),
        "peak_tree_procs": sampler.peak_procs,
        "report_mb": round(report.stat().st_size / 2**20, 1) if report.exists() else None,
    }
    if proc.returncode not in (0, 1):
        row["stderr_tail"] = errors[-2000:]
    return row


def _end_to_end(n: int, data_dir: Path, workers: int) -> dict[str, Any]:
    golden, outcomes = synth.write_qa(data_dir, n, kb=_KB)
    with tempfile.TemporaryDirectory(prefix="ragspine-bench-") as tmp:
        baseline, report = Path(tmp) / "baseline.json", Path(tmp) / "report.json"
        base_cmd = [
            *_CLI,
            "--system",
            "outcomes",
            "--mode",
            "bench",
            "--golden",
            str(golden),
            "--outcomes",
            str(outcomes),
            "--report",
            str(report),
            "--quiet",
            "--no-config",
            # the synthetic sets hold 1% error and 0.5% missing outcomes on purpose: within
            # this budget a run passes (exit 0), as a team with that budget would configure
            "--max-error-rate",
            "0.05",
            "--workers",
            str(workers),
        ]
        runs = []
        for label, extra in (
            ("no baseline", ["--no-baseline"]),
            ("first run (creates the baseline)", ["--baseline", str(baseline)]),
            ("second run (compares)", ["--baseline", str(baseline)]),
        ):
            report.unlink(missing_ok=True)
            runs.append({"run": label, **_measure(base_cmd + extra, report)})
    return {"n_cases": n, "workers": workers, "runs": runs}


# ------------------------------------------------------------------------------ floors

# The floor of a QA run: a process that reads and parses both files with orjson, nothing
# else. Our figure divided by it transfers between machines; absolute seconds do not.
_PARSE_ONLY = (
    "import sys, orjson\n"
    "for path in sys.argv[1:]:\n"
    "    with open(path, 'rb') as handle:\n"
    "        for line in handle:\n"
    "            orjson.loads(line)\n"
)


def _timed(cmd: list[str], cwd: Path = ROOT) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + sys of the process and its children), exit code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.returncode


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def _pairs(ours: list[str], floor: list[str], pairs: int, cwd: Path = ROOT) -> dict[str, Any]:
    """``pairs`` runs of the floor then ours, in turn; medians of the per-pair ratios."""
    rows = []
    for _ in range(pairs):
        f_wall, f_cpu, _ = _timed(floor, cwd)
        o_wall, o_cpu, code = _timed(ours, cwd)
        rows.append(
            {
                "floor_wall_s": round(f_wall, 3),
                "floor_cpu_s": round(f_cpu, 3),
                "wall_s": round(o_wall, 3),
                "cpu_s": round(o_cpu, 3),
                "exit_code": code,
            }
        )
    return {
        "pairs": rows,
        "wall_ratio": round(_median([r["wall_s"] / r["floor_wall_s"] for r in rows]), 2),
        "cpu_ratio": round(_median([r["cpu_s"] / r["floor_cpu_s"] for r in rows]), 2),
        "wall_s": _median([r["wall_s"] for r in rows]),
        "floor_wall_s": _median([r["floor_wall_s"] for r in rows]),
    }


# The CLI as the ``ragspine-eval`` script starts it: ``python -m ragspine_action.cli``
# would compile cli.py from source on every start (``__main__`` is never cached).
_CLI = (
    sys.executable,
    "-c",
    "import sys; from ragspine_action.cli import main; sys.exit(main())",
)


def _compile_package() -> None:
    """Bytecode for the package, as ``pip install .`` writes it, and its compiled patterns,
    as its first run writes them: an editable checkout run with PYTHONDONTWRITEBYTECODE=1
    (this machine's default) would otherwise compile every module (~90 ms of the default
    run) and every pattern (~0.45 s) on every start."""
    import compileall

    import ragspine_action

    compileall.compile_dir(Path(ragspine_action.__file__).parent, quiet=1)
    # The compiled patterns too (``ragspine_action.pattern_cache``, kept beside the
    # bytecode and under its rule; a first run writes them unless PYTHONDONTWRITEBYTECODE).
    subprocess.run(
        [sys.executable, "-m", "ragspine_action.pattern_cache"],
        check=True,
        stdout=subprocess.DEVNULL,
        cwd=tempfile.gettempdir(),
    )


def _floors(n: int, data_dir: Path, workers: int, pairs: int = 3) -> dict[str, Any]:
    """Each figure beside its floor: the QA run beside parse-only, the default run beside
    ``python -c pass``."""
    golden, outcomes = synth.write_qa(data_dir, n, kb=_KB)
    _compile_package()
    with tempfile.TemporaryDirectory(prefix="ragspine-bench-") as tmp:
        ours = [
            *_CLI,
            "--system",
            "outcomes",
            "--mode",
            "bench",
            "--golden",
            str(golden),
            "--outcomes",
            str(outcomes),
            "--report",
            str(Path(tmp) / "report.json"),
            "--quiet",
            "--no-config",
            "--no-baseline",
            "--max-error-rate",
            "1",
            "--workers",
            str(workers),
        ]
        qa = _pairs(ours, [sys.executable, "-c", _PARSE_ONLY, str(golden), str(outcomes)], pairs)
        # The bundled default run as a user types it, in a directory without a config file.
        default = list(_CLI)
        start = _pairs(default, [sys.executable, "-c", "pass"], pairs, cwd=Path(tmp))
    return {"n_cases": n, "workers": workers, "qa": qa, "default_run": start}


def _startup(pairs: int, data_dir: Path, workers: int) -> dict[str, Any]:
    """The bundled default run beside ``python -c pass`` alone (``--startup``)."""
    del data_dir, workers
    _compile_package()
    with tempfile.TemporaryDirectory(prefix="ragspine-bench-") as tmp:
        return _pairs(list(_CLI), [sys.executable, "-c", "pass"], pairs, cwd=Path(tmp))


# ------------------------------------------------------------------------------ main


def _machine() -> dict[str, Any]:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    return {
        "nproc": os.cpu_count(),
        "usable_cpus": usable,
        "cpu": model or platform.processor(),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


_CHILDREN: dict[str, Callable[[int, Path, int], dict[str, Any]]] = {
    "components": _components,
    "stages": _stages,
    "extraction": _extraction,
    "e2e": _end_to_end,
    "floors": _floors,
    "startup": _startup,
}


# ``--kb``: the synthetic sets draw their passages from a shared knowledge base
# (``synth.write_qa(kb=True)``: passages and answer sentences repeat across cases).
_KB = False


def _child(kind: str, n: int, data_dir: Path, workers: int) -> dict[str, Any]:
    cmd = [
        sys.executable,
        __file__,
        "--child",
        kind,
        "--n",
        str(n),
        "--data-dir",
        str(data_dir),
        "--workers",
        str(workers),
        *(("--kb",) if _KB else ()),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"bench child {kind} {n} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--sizes", default="10000,100000", help="QA case counts (comma-separated)")
    p.add_argument("--cells", type=int, default=1_000_000, help="extraction cells (0: skip)")
    p.add_argument(
        "--workers", type=int, default=0, help="scoring processes, as the CLI's (0: auto)"
    )
    p.add_argument(
        "--components-max",
        type=int,
        default=100_000,
        help="largest size whose steps are also timed one by one in one process",
    )
    p.add_argument(
        "--trec",
        type=int,
        default=20_000,
        help="TREC queries (x 100 docs) timed beside pytrec_eval (0: skip)",
    )
    p.add_argument(
        "--http",
        type=int,
        default=1000,
        help="HTTP cases (20 ms each, concurrency 32) beside the ideal and a plain client (0: skip)",
    )
    p.add_argument(
        "--startup",
        type=int,
        default=0,
        help="pairs of the default run beside python -c pass, alone (0: only with each size)",
    )
    p.add_argument("--data-dir", default=str(HERE / ".data"), help="cache of generated inputs")
    p.add_argument(
        "--kb",
        action="store_true",
        help="QA sets whose passages come from a shared knowledge base (they repeat across "
        "cases, as a real set's do); default: every passage distinct, the worst case",
    )
    p.add_argument("--out", default=str(HERE / "results.json"), help="JSON results file")
    p.add_argument("--child", choices=sorted(_CHILDREN), help=argparse.SUPPRESS)
    p.add_argument("--n", type=int, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.workers < 0:
        p.error("--workers must be ≥ 0 (0: one per core when it pays)")
    data_dir = Path(args.data_dir)
    global _KB
    _KB = args.kb
    if args.child:
        print(json.dumps(_CHILDREN[args.child](args.n, data_dir, args.workers)))
        return 0
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    results: dict[str, Any] = {
        "machine": _machine(),
        "workers_flag": args.workers,
        "kb": args.kb,
        "components": [],
        "qa": [],
        "end_to_end": [],
        "floors": [],
    }
    for n in sizes:
        synth.write_qa(data_dir, n, kb=_KB)  # generate outside the timed processes
        if n <= args.components_max:
            results["components"].append(_child("components", n, data_dir, args.workers))
        results["qa"].append(_child("stages", n, data_dir, args.workers))
        results["end_to_end"].append(_child("e2e", n, data_dir, args.workers))
        results["floors"].append(_child("floors", n, data_dir, args.workers))
    if args.startup:
        results["startup"] = _child("startup", args.startup, data_dir, args.workers)
    if args.cells:
        synth.write_extraction(data_dir, args.cells)
        results["extraction"] = _child("extraction", args.cells, data_dir, args.workers)
    if args.http:
        http = [sys.executable, str(HERE / "http_throughput.py"), "--cases", str(args.http)]
        done = subprocess.run([*http, "--json"], capture_output=True, text=True, cwd=ROOT)
        if done.returncode not in (0, 1):
            raise SystemExit(f"bench http failed:\n{done.stderr}")
        results["http"] = json.loads(done.stdout.strip().splitlines()[-1])
    if args.trec:
        from trec_bench import compare_with_pytrec_eval

        results["trec"] = compare_with_pytrec_eval(args.trec, 100, 3, data_dir)
    Path(args.out).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    _print(results)
    if "trec" in results:
        from trec_bench import print_comparison

        print()
        print_comparison(results["trec"])
    print(f"\nwritten: {args.out}")
    return 0


_LABEL = 66


def _line(n: int, label: str, wall: float, rate: int | None, peak: float, tree: str = "") -> str:
    return f"{n:>9}  {label:<{_LABEL}} {wall:>8.2f} {rate or 0:>9} {peak:>8.0f} {tree:>8}"


def _print(results: dict[str, Any]) -> None:
    m = results["machine"]
    print(f"machine: {m['nproc']} × {m['cpu']}, Python {m['python']}")
    head = f"{'cases':>9}  {'stage':<{_LABEL}} {'wall s':>8} {'cases/s':>9} {'peak MB':>8}"
    print(f"{head} {'tree MB':>8}  exit")
    for size in [*results.get("components", []), *results["qa"]]:
        for row in size["stages"]:
            print(
                _line(
                    size["n_cases"],
                    row["stage"],
                    row["wall_s"],
                    row["cases_per_s"],
                    row["peak_rss_mb"],
                )
            )
        if "workers" not in size:  # a components row: one process, no workers
            continue
        worker_mb = size["largest_worker_rss_mb"]
        note = f"{worker_mb:.0f} MB" if worker_mb is not None else "none forked"
        print(
            f"{'':>9}    ↳ workers: {size['workers']}, largest worker peak RSS: {note}; "
            f"report {size['report_mb']} MB"
        )
    for size in results["end_to_end"]:
        n = size["n_cases"]
        for row in size["runs"]:
            rate = round(n / row["wall_s"]) if row["wall_s"] else None
            line = _line(
                n,
                "end to end: " + row["run"],
                row["wall_s"],
                rate,
                row["peak_rss_mb"],
                f"{row['peak_tree_pss_mb']:.0f}",
            )
            print(f"{line}  {row['exit_code']:>4}")
            # Exit 1 is a verdict: the synthetic set's ~10% wrong answers fail a run that
            # has no baseline (every case must pass), which is the point of that run.
            if row["exit_code"] not in (0, 1):
                last = (row.get("stderr_tail") or "(no stderr)").splitlines()[-1]
                print(f"{'':>9}    ↳ failed: {last}")
    _print_floors(results.get("floors", []), results.get("startup"))
    http = results.get("http")
    if http:
        print(
            f"{http['cases']:>9}  {'HTTP, ' + str(http['concurrency']) + ' at a time':<44} "
            f"{http['ours_s']:>8.2f} {http['ideal_s']:>8.2f} {http['ours_over_ideal']:>7.2f}"
            f"   (plain thread-pool client {http['plain_over_ideal']:.2f}x the ideal;"
            f" ours / plain {http['ours_over_plain']:.2f})"
        )
    ext = results.get("extraction")
    if ext:
        print(
            _line(
                ext["n_cells"],
                "extraction suite (load + score), cells",
                ext["load_s"] + ext["score_s"],
                ext["cells_per_s"],
                ext["peak_rss_mb"],
            )
        )


def _print_floors(floors: list[dict[str, Any]], startup: dict[str, Any] | None = None) -> None:
    """Each figure beside its floor (medians of pairs run in turn): the ratios transfer."""
    if not floors and not startup:
        return
    print("\nbeside the floor (floor, then ours, in turn; medians of the per-pair ratios)")
    print(f"{'cases':>9}  {'figure':<44} {'ours s':>8} {'floor s':>8} {'wall x':>7} {'CPU x':>7}")
    for size in floors:
        for label, row in (
            ("QA run / parse both files with orjson", size["qa"]),
            ("default run (74 cases) / python -c pass", size["default_run"]),
        ):
            print(
                f"{size['n_cases']:>9}  {label:<44} {row['wall_s']:>8.2f} "
                f"{row['floor_wall_s']:>8.2f} {row['wall_ratio']:>7.2f} {row['cpu_ratio']:>7.2f}"
            )
    if startup:
        label = f"default run / python -c pass ({len(startup['pairs'])} pairs)"
        print(
            f"{74:>9}  {label:<44} {startup['wall_s']:>8.2f} "
            f"{startup['floor_wall_s']:>8.2f} {startup['wall_ratio']:>7.2f} "
            f"{startup['cpu_ratio']:>7.2f}"
        )


if __name__ == "__main__":
    raise SystemExit(main())

"""Benchmark: wall time, cases per second and peak memory per stage, at 10k–1M cases.

    python bench/run_bench.py                      # 10k and 100k cases, 1M extraction cells
    python bench/run_bench.py --sizes 10000,100000,1000000 --out bench/results.json

Synthetic inputs come from ``bench/synth.py`` (deterministic, cached in ``--data-dir``).
Each size runs in its own process, so one size's memory never inflates another's:

* ``stages``: the pipeline step by step in one process (load + validate, retrieval
  metrics, all gates, baseline compare, bootstrap intervals, report JSON + markdown);
  ``peak_rss_mb`` is the process's peak resident size once the stage is done
  (``getrusage``; it only grows, so it is the peak up to and including that stage);
* ``end_to_end``: ``ragspine-eval --system outcomes … --baseline … --report …`` as a
  user runs it, wall time and the peak RSS of that process (``os.wait4``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import synth  # noqa: E402


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _stages(n: int, data_dir: Path) -> dict[str, Any]:
    """Run every QA stage in this process; returns per-stage timings."""
    from ragspine_action.baseline.ratchet import compare, entry_from_values
    from ragspine_action.baseline.stats import paired_bootstrap
    from ragspine_action.baseline.values import qa_suite_values
    from ragspine_action.golden.load import load_golden_set
    from ragspine_action.metrics.retrieval import aggregate_retrieval, case_retrieval
    from ragspine_action.qa import QASettings, evaluate_qa
    from ragspine_action.report.model import Interval, Report, ToolInfo
    from ragspine_action.report.render_markdown import render_markdown
    from ragspine_action.systems.outcomes_file import OutcomesFileSystem

    golden_path, outcomes_path = synth.write_qa(data_dir, n)
    rows: list[dict[str, Any]] = []

    def stage(name: str, started: float) -> None:
        wall = time.perf_counter() - started
        rows.append(
            {
                "stage": name,
                "wall_s": round(wall, 3),
                "cases_per_s": round(n / wall) if wall else None,
                "peak_rss_mb": round(_rss_mb(), 1),
            }
        )

    t = time.perf_counter()
    golden = load_golden_set(golden_path)
    collection = OutcomesFileSystem(str(outcomes_path)).collect(golden.cases)
    stage("load + validate (golden, outcomes)", t)

    t = time.perf_counter()
    settings = QASettings()
    per_case = [
        (c.id, c.tags, case_retrieval(collection.outcomes[c.id].ranked_docs(), c.relevance()))
        for c in golden.cases
    ]
    aggregate_retrieval(per_case)
    del per_case
    stage("retrieval metrics (per case + means)", t)

    t = time.perf_counter()
    qa = evaluate_qa(golden, collection, mode="bench", system="outcomes", settings=settings)
    stage("score all gates (incl. retrieval, attribution)", t)
    del collection

    values = qa_suite_values(qa, settings.protected_k)
    entry = entry_from_values(values, recorded_at="", tool_version="")
    t = time.perf_counter()
    compare(entry, values, None)
    stage("baseline compare (no intervals)", t)

    def interval(before: Any, now: Any) -> Interval:
        got = paired_bootstrap(before or now, now, resamples=5000, seed=2026)
        return Interval(delta_low=got.delta_low, delta_high=got.delta_high)

    t = time.perf_counter()
    compare(entry, values, interval)
    stage("baseline compare + bootstrap intervals", t)

    t = time.perf_counter()
    report = Report(
        tool=ToolInfo(version="bench"),
        verdict="pass",
        exit_code=0,
        summary="",
        generated_at="",
        qa=qa,
    )
    text = report.model_dump_json(indent=2, by_alias=True)
    markdown = render_markdown(report)
    stage("report JSON + markdown", t)
    return {
        "n_cases": n,
        "stages": rows,
        "report_mb": round(len(text) / 2**20, 1),
        "markdown_chars": len(markdown),
    }


def _extraction(n_cells: int, data_dir: Path) -> dict[str, Any]:
    from ragspine_action.extraction import load_fixtures, pairs_from_paths, score_fixtures

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
        "peak_rss_mb": round(_rss_mb(), 1),
        "accuracy": {k: v.get("accuracy") for k, v in channels.items()},
    }


def _end_to_end(n: int, data_dir: Path) -> dict[str, Any]:
    golden, outcomes = synth.write_qa(data_dir, n)
    with tempfile.TemporaryDirectory() as tmp:
        baseline, report = Path(tmp) / "baseline.json", Path(tmp) / "report.json"
        cmd = [
            sys.executable,
            "-m",
            "ragspine_action.cli",
            "--system",
            "outcomes",
            "--mode",
            "bench",
            "--golden",
            str(golden),
            "--outcomes",
            str(outcomes),
            "--baseline",
            str(baseline),
            "--report",
            str(report),
            "--quiet",
            "--no-config",
        ]
        runs = []
        for label in ("first run (creates the baseline)", "second run (compares)"):
            started = time.perf_counter()
            proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL)
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            runs.append(
                {
                    "run": label,
                    "wall_s": round(time.perf_counter() - started, 2),
                    "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),
                    "exit_code": proc.returncode,
                }
            )
    return {"n_cases": n, "runs": runs}


def _machine() -> dict[str, Any]:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(),
        "cpu": model or platform.processor(),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def _child(kind: str, n: int, data_dir: Path) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--child", kind, "--n", str(n), "--data-dir", str(data_dir)]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"bench child {kind} {n} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--sizes", default="10000,100000", help="QA case counts (comma-separated)")
    p.add_argument("--cells", type=int, default=1_000_000, help="extraction cells (0: skip)")
    p.add_argument("--data-dir", default=str(HERE / ".data"), help="cache of generated inputs")
    p.add_argument("--out", default=str(HERE / "results.json"), help="JSON results file")
    p.add_argument("--child", help=argparse.SUPPRESS)
    p.add_argument("--n", type=int, help=argparse.SUPPRESS)
    args = p.parse_args()
    data_dir = Path(args.data_dir)
    if args.child:
        fn = {"stages": _stages, "extraction": _extraction, "e2e": _end_to_end}[args.child]
        print(json.dumps(fn(args.n, data_dir)))
        return 0
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    results: dict[str, Any] = {"machine": _machine(), "qa": [], "end_to_end": []}
    for n in sizes:
        synth.write_qa(data_dir, n)  # generate outside the timed processes
        results["qa"].append(_child("stages", n, data_dir))
        results["end_to_end"].append(_child("e2e", n, data_dir))
    if args.cells:
        synth.write_extraction(data_dir, args.cells)
        results["extraction"] = _child("extraction", args.cells, data_dir)
    Path(args.out).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    _print(results)
    print(f"\nwritten: {args.out}")
    return 0


def _print(results: dict[str, Any]) -> None:
    m = results["machine"]
    print(f"machine: {m['nproc']} × {m['cpu']}, Python {m['python']}")
    print(f"{'cases':>9}  {'stage':<48} {'wall s':>8} {'cases/s':>9} {'peak MB':>8}")
    for size in results["qa"]:
        for row in size["stages"]:
            print(
                f"{size['n_cases']:>9}  {row['stage']:<48} {row['wall_s']:>8.2f} "
                f"{row['cases_per_s'] or 0:>9} {row['peak_rss_mb']:>8.0f}"
            )
    for size in results["end_to_end"]:
        for row in size["runs"]:
            rate = round(size["n_cases"] / row["wall_s"]) if row["wall_s"] else 0
            print(
                f"{size['n_cases']:>9}  {'end to end: ' + row['run']:<48} {row['wall_s']:>8.2f} "
                f"{rate:>9} {row['peak_rss_mb']:>8.0f}"
            )
    ext = results.get("extraction")
    if ext:
        print(
            f"{ext['n_cells']:>9}  {'extraction suite (load + score), cells':<48} "
            f"{ext['load_s'] + ext['score_s']:>8.2f} {ext['cells_per_s']:>9} "
            f"{ext['peak_rss_mb']:>8.0f}"
        )


if __name__ == "__main__":
    raise SystemExit(main())

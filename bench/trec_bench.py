"""TREC bench: ``ragspine-eval --qrels --run`` and pytrec_eval doing the same job, in turn.

    python bench/trec_bench.py                       # 20,000 queries x 100 docs, 3 pairs
    python bench/trec_bench.py --queries 2000 --pairs 5

The job: parse the qrels and the run, evaluate hit@1,3,10, mrr, ndcg@1,3,10, recall@1,3,10,
P@1,3,10, map, Rprec, bpref for every query, write the results (ours: the JSON report with
every query; pytrec_eval: the means, ``bench/pytrec_eval_job.py``). Each pair runs ours then
pytrec_eval back to back, so a busy machine slows both alike; the printed figures are the
medians over the pairs: wall time, CPU time (user + system) and peak RSS of each process, and
the ratios ours / pytrec_eval. Also run by ``bench/run_bench.py --trec N``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from trec_synth import write_trec  # noqa: E402

__all__ = ["compare_with_pytrec_eval"]


def _run(cmd: list[str]) -> dict[str, float]:
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    assert proc.stderr is not None
    err = proc.stderr.read().decode("utf-8", "replace")
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{err[-2000:]}")
    return {
        "wall_s": wall,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "peak_rss_mb": usage.ru_maxrss / 1024,
    }


def compare_with_pytrec_eval(
    queries: int, depth: int, pairs: int, data_dir: Path
) -> dict[str, Any]:
    """Both tools on the same synthetic pair, alternating; medians and ratios."""
    qrels, run = write_trec(data_dir, queries, depth)
    with tempfile.TemporaryDirectory(prefix="ragspine-trec-bench-") as tmp:
        ours_cmd = [
            sys.executable,
            "-m",
            "ragspine_action.cli",
            "--qrels",
            str(qrels),
            "--run",
            str(run),
            "--no-baseline",
            "--no-config",
            "--quiet",
            "--report",
            str(Path(tmp) / "report.json"),
        ]
        theirs_cmd = [
            sys.executable,
            str(HERE / "pytrec_eval_job.py"),
            str(qrels),
            str(run),
            str(Path(tmp) / "means.json"),
        ]
        rows: list[dict[str, dict[str, float]]] = []
        for _ in range(pairs):
            rows.append({"ours": _run(ours_cmd), "pytrec_eval": _run(theirs_cmd)})
        report = json.loads((Path(tmp) / "report.json").read_text())
        means = json.loads((Path(tmp) / "means.json").read_text())["means"]
    ours_overall = report["qa"]["retrieval"]["overall"]
    names = {
        "hit@1": "success_1",
        "hit@10": "success_10",
        "mrr": "recip_rank",
        "ndcg@10": "ndcg_cut_10",
        "recall@10": "recall_10",
        "precision@10": "P_10",
        "map": "map",
        "Rprec": "Rprec",
        "bpref": "bpref",
    }
    worst = max(abs(ours_overall[o] - means[t]) for o, t in names.items())
    summary: dict[str, Any] = {
        "queries": queries,
        "depth": depth,
        "pairs": rows,
        "max_abs_difference_of_means": worst,
    }
    for tool in ("ours", "pytrec_eval"):
        summary[tool] = {
            key: statistics.median(row[tool][key] for row in rows)
            for key in ("wall_s", "cpu_s", "peak_rss_mb")
        }
    summary["ratio"] = {
        key: statistics.median(row["ours"][key] / row["pytrec_eval"][key] for row in rows)
        for key in ("wall_s", "cpu_s", "peak_rss_mb")
    }
    return summary


def print_comparison(result: dict[str, Any]) -> None:
    ours, theirs, ratio = result["ours"], result["pytrec_eval"], result["ratio"]
    print(
        f"TREC {result['queries']:,} queries x {result['depth']} docs, "
        f"{len(result['pairs'])} pairs (medians)"
    )
    print(f"{'':<14}{'wall s':>9}{'CPU s':>9}{'peak MB':>9}")
    for label, row in (("ragspine-eval", ours), ("pytrec_eval", theirs)):
        print(f"{label:<14}{row['wall_s']:>9.2f}{row['cpu_s']:>9.2f}{row['peak_rss_mb']:>9.0f}")
    print(
        f"{'ratio':<14}{ratio['wall_s']:>9.2f}{ratio['cpu_s']:>9.2f}{ratio['peak_rss_mb']:>9.2f}"
        f"   (ours / pytrec_eval; means differ by at most "
        f"{result['max_abs_difference_of_means']:.1e})"
    )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--queries", type=int, default=20_000)
    p.add_argument("--depth", type=int, default=100, help="docs per query in the run")
    p.add_argument("--pairs", type=int, default=3)
    p.add_argument("--data-dir", default=str(HERE / ".data"))
    p.add_argument("--out", help="write the JSON result here too")
    args = p.parse_args()
    result = compare_with_pytrec_eval(args.queries, args.depth, args.pairs, Path(args.data_dir))
    print_comparison(result)
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

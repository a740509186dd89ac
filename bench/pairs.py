"""Two trees in turn: ``python bench/pairs.py N SIZE OLD_TREE NEW_TREE``.

Issue 14's speed criterion compares this tree with an older one (``b5a38d2``) on the same
machine, runs alternating, so that whatever else the machine does weighs on both alike.
SIZE is a case count (``bench/synth.py``'s set, made once in ``--data-dir``, default
``bench/.data``) or ``default`` (``ragspine-eval`` with no arguments, in a temp dir).
A QA run is ``--system outcomes --mode bench --no-baseline --report R --quiet
--no-config --workers 0``. Each tree runs on its own ``.venv/bin/python`` (or, without
one, on this interpreter with ``PYTHONPATH`` set to the tree), bytecode compiled first,
and the compiled-pattern file written first where the tree has one (``pattern_cache``:
kept beside the bytecode, not written under ``PYTHONDONTWRITEBYTECODE``; without it each
process compiles its ~500 patterns, ~0.1 s; ``--no-pattern-file`` leaves it out).
CPU = user + sys of the whole process tree (``os.wait4``). Prints each run's CPU and wall
time with the 1-minute load average, then the medians of the per-pair ratios new / old.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import synth  # noqa: E402

CLI = "import sys; from ragspine_action.cli import main; sys.exit(main())"


def _python(tree: Path) -> str:
    own = tree / ".venv/bin/python"
    return str(own) if own.exists() else sys.executable


def _env(tree: Path) -> dict[str, str]:
    env = dict(os.environ)
    if not (tree / ".venv/bin/python").exists():
        env["PYTHONPATH"] = str(tree)
    return env


def _command(tree: Path, size: str, data_dir: Path, tmp: Path, kb: bool = False) -> list[str]:
    if size == "default":
        return [_python(tree), "-c", CLI]
    golden, outcomes = synth.write_qa(data_dir, int(size), kb=kb)
    return [
        *(_python(tree), "-c", CLI),
        *("--system", "outcomes", "--mode", "bench", "--no-baseline", "--quiet", "--no-config"),
        *("--golden", str(golden), "--outcomes", str(outcomes), "--report", str(tmp / "r.json")),
        *("--max-error-rate", "0.05", "--workers", "0"),
    ]


def _run(cmd: list[str], tree: Path, cwd: Path) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds of the process and the children it reaped, exit code."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        cmd, cwd=cwd, env=_env(tree), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    return wall, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pairs", type=int)
    parser.add_argument("size")
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--data-dir", type=Path, default=HERE / ".data")
    parser.add_argument(
        "--kb",
        action="store_true",
        help="the synthetic set whose passages come from a shared knowledge base (synth.py)",
    )
    parser.add_argument(
        "--no-pattern-file",
        action="store_true",
        help="do not write a tree's compiled-pattern file first (ragspine_action/pattern_cache.py)",
    )
    args = parser.parse_args()
    trees = {"old": args.old.resolve(), "new": args.new.resolve()}
    for tree in trees.values():
        subprocess.run(
            [_python(tree), "-m", "compileall", "-q", str(tree / "ragspine_action")],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        if (tree / "ragspine_action/pattern_cache.py").exists() and not args.no_pattern_file:
            # The compiled patterns are kept beside the bytecode, written as bytecode is
            # (not under PYTHONDONTWRITEBYTECODE): made here too, as an installed tree has them.
            with tempfile.TemporaryDirectory(prefix="pairs-") as tmp:
                subprocess.run(
                    [_python(tree), "-m", "ragspine_action.pattern_cache"],
                    check=True,
                    cwd=tmp,
                    env=_env(tree),
                    stdout=subprocess.DEVNULL,
                )
    runs: dict[str, list[tuple[float, float]]] = {"old": [], "new": []}
    for i in range(args.pairs):
        for label, tree in trees.items():
            with tempfile.TemporaryDirectory(prefix="pairs-") as tmp:
                load = os.getloadavg()[0]
                wall, cpu, code = _run(
                    _command(tree, args.size, args.data_dir, Path(tmp), args.kb), tree, Path(tmp)
                )
            runs[label].append((wall, cpu))
            print(
                f"{i + 1} {label}: cpu {cpu:7.3f} s  wall {wall:7.3f} s  exit {code}  load {load:.2f}"
            )
        (o_wall, o_cpu), (n_wall, n_cpu) = runs["old"][-1], runs["new"][-1]
        print(f"  pair {i + 1}: cpu ratio {n_cpu / o_cpu:.3f}  wall ratio {n_wall / o_wall:.3f}")
    for label, rows in runs.items():
        print(
            f"{label}: cpu min/median {min(c for _, c in rows):.3f} / "
            f"{statistics.median(c for _, c in rows):.3f} s, wall min/median "
            f"{min(w for w, _ in rows):.3f} / {statistics.median(w for w, _ in rows):.3f} s"
        )
    cpu = [n[1] / o[1] for o, n in zip(runs["old"], runs["new"], strict=True)]
    wall = [n[0] / o[0] for o, n in zip(runs["old"], runs["new"], strict=True)]
    print(
        f"new / old: cpu {min(cpu):.3f}-{max(cpu):.3f} (median {statistics.median(cpu):.3f}), "
        f"wall {min(wall):.3f}-{max(wall):.3f} (median {statistics.median(wall):.3f}); "
        f"load now {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()

"""Deterministic synthetic TREC qrels and run files for the retrieval benchmark.

``write_trec(directory, n_queries, depth)`` writes ``qrels.txt`` and ``run.txt``:
every query has ``depth`` retrieved docs whose scores take only a few distinct values
(tie-heavy, so trec_eval's docno tie-break decides most of the order), and 5-40 graded
judgments (grades -1..3), about half of them retrieved. Same arguments → identical bytes.
"""

from __future__ import annotations

import random
from pathlib import Path

__all__ = ["write_trec"]


def write_trec(
    directory: Path, n_queries: int, depth: int = 100, seed: int = 2026
) -> tuple[Path, Path]:
    """Write (qrels, run) under ``directory`` unless they exist already."""
    directory.mkdir(parents=True, exist_ok=True)
    qrels_path = directory / f"trec_{n_queries}x{depth}.qrels"
    run_path = directory / f"trec_{n_queries}x{depth}.run"
    if qrels_path.exists() and run_path.exists():
        return qrels_path, run_path
    rng = random.Random(seed)
    n_docs = max(1000, n_queries * 20)
    qrels_lines: list[str] = []
    run_lines: list[str] = []
    for q in range(n_queries):
        qid = f"q{q + 1:06d}"
        docs = rng.sample(range(n_docs), depth + 40)
        retrieved = docs[:depth]
        judged = (
            rng.sample(retrieved, rng.randint(2, 20)) + docs[depth : depth + rng.randint(3, 20)]
        )
        for d in judged:
            grade = rng.choices((-1, 0, 1, 2, 3), weights=(1, 6, 4, 2, 1))[0]
            qrels_lines.append(f"{qid} 0 D{d:08d} {grade}\n")
        for rank, d in enumerate(retrieved, start=1):
            score = round(rng.choice((1.0, 2.0, 2.5, 3.0, 4.0)) + rng.randint(0, 3) * 0.25, 2)
            run_lines.append(f"{qid} Q0 D{d:08d} {rank} {score} bench\n")
    qrels_path.write_text("".join(qrels_lines), encoding="utf-8")
    run_path.write_text("".join(run_lines), encoding="utf-8")
    return qrels_path, run_path

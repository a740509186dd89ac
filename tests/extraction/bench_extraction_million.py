"""Benchmark, not a test: load and score one million aligned cells per side.

    python tests/extraction/bench_extraction_million.py [n_cells]

Writes two JSON files into a temp directory, then times reading + validation and
scoring separately, and reports peak traced memory of scoring.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from ragspine_action.extraction import ExtractionOptions, load_cell_table, score_fixture


def _column(n: int) -> str:
    letters = ""
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def _write(path: Path, n: int, rng: random.Random, noise: float) -> None:
    with path.open("w", encoding="utf-8") as out:
        out.write('{"cells": [\n')
        for i in range(n):
            sheet, row = divmod(i, 10_000)
            value: object = (i % 997) * 1.25
            if rng.random() < noise:
                value = str(value)
            record = {
                "sheet": f"S{sheet}",
                "cell_ref": f"{_column(row % 50 + 1)}{row // 50 + 1}",
                "value": value,
                "tags": ["actual"] if i % 3 else ["estimate", "subtotal"],
                "merge_span": "B2:E2" if i % 5 else None,
            }
            out.write(("," if i else "") + json.dumps(record) + "\n")
        out.write("]}\n")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    with tempfile.TemporaryDirectory() as tmp:
        truth_path, facts_path = Path(tmp, "gt.json"), Path(tmp, "facts.json")
        _write(truth_path, n, random.Random(1), 0.0)
        _write(facts_path, n, random.Random(2), 0.01)
        start = time.perf_counter()
        truth = load_cell_table(truth_path)
        facts = load_cell_table(facts_path)
        loaded = time.perf_counter()
        tracemalloc.start()
        scored_at = time.perf_counter()
        result = score_fixture("bench", facts, truth, ExtractionOptions(max_mismatches=100))
        scored = time.perf_counter()
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    value = result.channels["cell_value"]
    print(f"cells per side      {n:,}  (aligned {result.coverage.aligned:,})")
    print(f"load both files     {loaded - start:.2f} s")
    print(f"score               {scored - scored_at:.2f} s (traced, slower than untraced)")
    print(f"scoring peak memory {peak / 1e6:.0f} MB")
    print(f"cell_value          {value.correct:,}/{value.total:,} = {value.accuracy:.4f}")


if __name__ == "__main__":
    main()

"""The reference job for the TREC bench: pytrec_eval parses both files, evaluates, writes the means.

python bench/pytrec_eval_job.py QRELS RUN OUT.json [--measures m1,m2,...]
"""

from __future__ import annotations

import json
import sys

import pytrec_eval

DEFAULT_MEASURES = (
    "success.1,3,10",
    "recip_rank",
    "ndcg_cut.1,3,10",
    "recall.1,3,10",
    "P.1,3,10",
    "map",
    "map_cut.10",
    "Rprec",
    "bpref",
)


def main(argv: list[str]) -> int:
    qrels_path, run_path, out_path = argv[:3]
    measures = set(DEFAULT_MEASURES)
    with open(qrels_path) as handle:
        qrels = pytrec_eval.parse_qrel(handle)
    with open(run_path) as handle:
        run = pytrec_eval.parse_run(handle)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, measures)
    per_query = evaluator.evaluate(run)
    names = sorted({m for values in per_query.values() for m in values})
    means = {
        name: pytrec_eval.compute_aggregated_measure(
            name, [values[name] for values in per_query.values()]
        )
        for name in names
    }
    with open(out_path, "w") as handle:
        json.dump({"n_queries": len(per_query), "means": means}, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

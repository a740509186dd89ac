"""``ragspine-eval`` / ``python entrypoint.py``: flags → RunConfig → run → table + exit code.

Any RagspineError becomes its one-line message(s) on stderr and exit 2 — never a
traceback. The report is written atomically, and only once the verdict is known.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import __version__
from .config import SYSTEMS, RunConfig, parse_k_list, parse_suites
from .errors import EXIT_ERROR, ConfigError, RagspineError
from .jsonio import atomic_write_text
from .paths import BUNDLED_BASELINE, BUNDLED_GOLDEN
from .report.model import Report
from .report.render_terminal import render_terminal
from .run import run

__all__ = ["build_parser", "config_from_args", "main"]


class _Parser(argparse.ArgumentParser):
    """argparse that raises ConfigError instead of printing usage and exiting."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise ConfigError(f"ragspine-eval: {message}")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="ragspine-eval",
        description="Gate a RAG system's quality against a version-controlled golden set.",
        epilog="Exit codes: 0 pass (or baseline created), 1 regression, 2 invalid input, "
        "stale baseline or configuration error.",
    )
    p.add_argument("--version", action="version", version=f"ragspine-eval {__version__}")
    p.add_argument("--suite", default="qa", help="qa, extraction or all (default qa)")
    p.add_argument("--system", default="reference", choices=SYSTEMS, help="system under test")
    p.add_argument(
        "--mode",
        default="tool",
        help="reference-system mode (tool, agent); for other systems, the baseline key",
    )
    p.add_argument("--golden", help=f"golden set JSONL (default: bundled {BUNDLED_GOLDEN.name})")
    p.add_argument("--outcomes", help="outcomes JSONL for --system outcomes")
    p.add_argument(
        "--baseline",
        help="baseline JSON (default: the bundled baseline when the golden set is the bundled one)",
    )
    p.add_argument("--no-baseline", action="store_true", help="do not compare with any baseline")
    p.add_argument(
        "--update-baseline", action="store_true", help="record this run (ratchets up only)"
    )
    p.add_argument(
        "--lower-baseline",
        metavar="REASON",
        dest="lower_reason",
        help="with --update-baseline: allow lowering, recording REASON in the file's _history",
    )
    p.add_argument("--report", help="write the JSON report here")
    p.add_argument("--k", default="1,3,10", help="retrieval cut-offs (default 1,3,10)")
    p.add_argument("--protected-k", type=int, default=3, help="k for protected retrieval cases")
    p.add_argument("--faithfulness-threshold", type=float, default=0.6)
    p.add_argument("--answer-accuracy-threshold", type=float, default=0.6)
    p.add_argument(
        "--period-pattern",
        action="append",
        metavar="REGEX",
        help="period token allowed in refusal answers (repeatable; replaces the defaults)",
    )
    p.add_argument("--bootstrap-resamples", type=int, default=5000)
    p.add_argument("--seed", type=int, default=2026, help="bootstrap seed (default 2026)")
    p.add_argument("--kb-dir", help="where the reference system builds its knowledge base")
    http = p.add_argument_group("http system")
    http.add_argument("--endpoint", help="URL the http system POSTs each case to")
    http.add_argument("--headers-file", help="extra request headers (Name: value lines or JSON)")
    http.add_argument("--concurrency", type=int, default=8)
    http.add_argument("--timeout", type=float, default=30.0, help="seconds per request")
    http.add_argument("--retries", type=int, default=3)
    http.add_argument("--rate-limit", type=float, help="requests per second, all workers")
    http.add_argument("--max-response-bytes", type=int, default=1024 * 1024)
    http.add_argument("--max-error-rate", type=float, default=0.0)
    http.add_argument("--save-outcomes", help="write the collected outcomes JSONL here")
    trec = p.add_argument_group("TREC formats (instead of --golden/--outcomes)")
    trec.add_argument("--qrels", help="TREC qrels file (graded relevance)")
    trec.add_argument("--run", dest="trec_run", help="TREC run file (ranked by score)")
    trec.add_argument("--relevance-level", type=int, default=1, help="as trec_eval's -l")
    ext = p.add_argument_group("extraction suite")
    ext.add_argument(
        "--facts", action="append", default=[], help="extracted facts JSON (repeatable)"
    )
    ext.add_argument(
        "--ground-truth", action="append", default=[], help="ground truth JSON, paired with --facts"
    )
    ext.add_argument(
        "--extraction-manifest",
        help="JSON listing {name, facts, ground_truth} fixtures (default: the bundled fixtures)",
    )
    ext.add_argument("--extraction-abs-tol", type=float, default=0.0, help="numeric tolerance")
    ext.add_argument("--extraction-rel-tol", type=float, default=0.0, help="relative tolerance")
    ext.add_argument(
        "--extraction-tags-as-set", action="store_true", help="tags compared unordered"
    )
    ext.add_argument(
        "--extraction-spans-as-ranges", action="store_true", help="merge spans compared as ranges"
    )
    p.add_argument("--quiet", action="store_true", help="print only the one-line summary")
    return p


def config_from_args(args: argparse.Namespace) -> RunConfig:
    golden = args.golden or (args.qrels if args.qrels else str(BUNDLED_GOLDEN))
    if args.no_baseline:
        baseline = None
    elif args.baseline:
        baseline = args.baseline
    else:
        own_inputs = args.golden is not None or args.qrels is not None
        baseline = None if own_inputs else str(BUNDLED_BASELINE)
    defaults = RunConfig()
    return RunConfig(
        suites=parse_suites(args.suite),
        system="outcomes" if args.qrels else args.system,
        mode=args.mode,
        golden=golden,
        outcomes=args.outcomes,
        baseline=baseline,
        update_baseline=args.update_baseline,
        lower_reason=args.lower_reason,
        report=args.report,
        ks=parse_k_list(args.k),
        protected_k=args.protected_k,
        faithfulness_threshold=args.faithfulness_threshold,
        answer_accuracy_threshold=args.answer_accuracy_threshold,
        period_patterns=tuple(args.period_pattern)
        if args.period_pattern
        else defaults.period_patterns,
        bootstrap_resamples=args.bootstrap_resamples,
        bootstrap_seed=args.seed,
        kb_dir=args.kb_dir,
        max_error_rate=args.max_error_rate,
        endpoint=args.endpoint,
        headers_file=args.headers_file,
        concurrency=args.concurrency,
        timeout_s=args.timeout,
        retries=args.retries,
        rate_limit=args.rate_limit,
        max_response_bytes=args.max_response_bytes,
        save_outcomes=args.save_outcomes,
        qrels=args.qrels,
        trec_run=args.trec_run,
        relevance_level=args.relevance_level,
        facts=tuple(args.facts),
        ground_truth=tuple(args.ground_truth),
        extraction_manifest=(
            args.extraction_manifest
            if args.extraction_manifest or args.facts or args.ground_truth
            else defaults.extraction_manifest
        ),
        extraction_abs_tol=args.extraction_abs_tol,
        extraction_rel_tol=args.extraction_rel_tol,
        extraction_tags_as_set=args.extraction_tags_as_set,
        extraction_spans_as_ranges=args.extraction_spans_as_ranges,
    )


def write_report(report: Report, path: str) -> None:
    """Atomic: a reader (or a killed run) never sees half a report."""
    atomic_write_text(path, report.model_dump_json(indent=2, by_alias=True) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        config = config_from_args(args)
        result = run(config)
        if config.report:
            write_report(result.report, config.report)
    except RagspineError as exc:
        print(f"ragspine-eval: error: {exc}" if "\n" not in str(exc) else str(exc), file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("ragspine-eval: interrupted", file=sys.stderr)
        return EXIT_ERROR
    print(result.report.summary if args.quiet else render_terminal(result.report))
    return result.exit_code


if __name__ == "__main__":
    sys.exit(main())

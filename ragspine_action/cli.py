"""``ragspine-eval`` / ``python entrypoint.py``: flags → RunConfig → run → table + exit code.

Any RagspineError becomes its one-line message(s) on stderr and exit 2 — never a
traceback. The report is written atomically, and only once the verdict is known.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

# ``startup`` first: it sets what must be set before any model is built.
from . import __version__, pattern_cache, startup
from .config import SYSTEMS, RunConfig, parse_k_list, parse_suites, resolve_system
from .config_names import DEFAULT_CONFIG_NAME, FILE_KEYS
from .console import encodable
from .errors import (
    EXIT_ERROR,
    EXIT_INTERNAL,
    ConfigError,
    RagspineError,
    format_error,
    format_internal_error,
)
from .gate_defaults import JUDGE_KINDS
from .outputs import output_errors
from .paths import BUNDLED_GOLDEN
from .perf import gc_paused
from .safe_text import print_safe
from .shard import parse_shard

if TYPE_CHECKING:
    from .run import RunResult

__all__ = ["build_parser", "config_from_args", "main"]

# Imported on first use (PEP 562): --help, --version and merge never load the run, the
# scorers or the report writers. ``cli.run`` and friends still work as attributes.
_LAZY = {
    "run": ".run",
    "render_terminal": ".report.render_terminal",
    "print_report": ".report.render_terminal",
    "parse_show_failures": ".render",
    "write_report": ".report.write",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __package__), name)
    globals()[name] = value
    return value


def _lazy(name: str) -> Any:
    """The module attribute ``name``: a replacement set on the module wins (tests)."""
    return globals()[name] if name in globals() else __getattr__(name)


class _Parser(argparse.ArgumentParser):
    """argparse that raises ConfigError instead of printing usage and exiting."""

    def error(self, message: str) -> None:  # type: ignore[override]
        # format_error already starts the line with "ragspine-eval: error: "; a
        # subcommand's parser adds its name ("merge: the following arguments …").
        command = self.prog.removeprefix("ragspine-eval").strip()
        raise ConfigError(f"{command}: {message}" if command else message)

    def _print_message(self, message: str, file: Any = None) -> None:
        """--help and --version in what the stream can encode (never a crash)."""
        if message:
            stream: TextIO = file if file is not None else sys.stderr
            stream.write(encodable(message, stream))


def build_parser() -> argparse.ArgumentParser:
    """Flags default to 'not given' so that a config file can fill what the flags leave."""
    p = _Parser(
        prog="ragspine-eval",
        description="Gate a RAG system's quality against a version-controlled golden set.",
        epilog="Subcommands: merge REPORT… (sharded runs), judge-eval CASES.jsonl (a judge's "
        "agreement with hand labels). "
        "Exit codes: 0 pass (or baseline created), 1 regression, 2 invalid input, "
        "stale baseline, configuration error or errors above --max-error-rate, "
        "3 internal error (a bug).",
        argument_default=argparse.SUPPRESS,
    )
    p.add_argument("--version", action="version", version=f"ragspine-eval {__version__}")
    p.add_argument(
        "--config",
        help=f"settings file (default: ./{DEFAULT_CONFIG_NAME} when it exists); flags override it",
    )
    p.add_argument("--no-config", action="store_true", help=f"ignore ./{DEFAULT_CONFIG_NAME}")
    p.add_argument("--suite", help="qa, extraction or all (default qa)")
    p.add_argument("--system", choices=SYSTEMS, help="system under test (default reference)")
    p.add_argument(
        "--mode",
        help="reference-system mode (tool, agent; default tool); for other systems, the baseline key",
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
    p.add_argument("--k", help="retrieval cut-offs (default 1,3,10)")
    p.add_argument("--protected-k", type=int, help="k for protected retrieval cases (default 3)")
    p.add_argument(
        "--judge",
        choices=JUDGE_KINDS,
        help="entailment judge of the groundedness gates: lexical (default, offline) or llm",
    )
    p.add_argument(
        "--judge-url",
        metavar="URL",
        help="--judge llm: OpenAI-compatible base URL (POST URL/chat/completions); the key "
        "comes from $OPENAI_API_KEY (judge.api_key_env)",
    )
    p.add_argument("--judge-model", metavar="NAME", help="--judge llm: the model name")
    p.add_argument(
        "--judge-cache",
        metavar="PATH",
        help="--judge llm: SQLite verdict cache (default ./.ragspine-judge-cache.sqlite)",
    )
    p.add_argument(
        "--judge-cache-only",
        action="store_true",
        help="--judge llm: replay the cache without a network (a miss is a judge error)",
    )
    p.add_argument("--faithfulness-threshold", type=float, help="lexical judge threshold (0.6)")
    p.add_argument("--answer-accuracy-threshold", type=float, help="token recall needed (0.6)")
    p.add_argument(
        "--reference-texts",
        metavar="DIR",
        help="reference texts for answer_accuracy: a directory with one file per "
        "narrative_doc (named DOC or DOC.txt/.md), or a JSON object {doc: text}",
    )
    p.add_argument(
        "--period-pattern",
        action="append",
        metavar="REGEX",
        help="period token allowed in refusal answers (repeatable; replaces the defaults)",
    )
    p.add_argument(
        "--max-error-rate",
        type=float,
        help="share of cases that may end in an error (a missing outcome is one) before the "
        "run is verdict error, exit 2, with no baseline compared or written (default 0)",
    )
    p.add_argument(
        "--floor",
        action="append",
        metavar="METRIC=VALUE",
        help="absolute floor (0..1); for fabrication_count and errors a ceiling "
        "(e.g. fabrication_count=0)",
    )
    p.add_argument("--bootstrap-resamples", type=int, help="default 5000 (0 turns it off)")
    p.add_argument(
        "--repeats",
        type=int,
        help="run every case N times (reference, http); an outcomes file gives its own "
        "repeats with a repeat index per outcome",
    )
    p.add_argument(
        "--gate-mode",
        choices=("exact", "significant"),
        help="exact (default): any drop fails; significant: only a statistically "
        "significant drop fails (noisy systems, see docs/evolving.md)",
    )
    p.add_argument("--gate-alpha", type=float, help="significant mode: false-alarm rate (0.05)")
    p.add_argument(
        "--gate-tolerance", type=float, help="significant mode: drop forgiven (default 0)"
    )
    p.add_argument("--seed", type=int, help="bootstrap seed (default 2026)")
    p.add_argument("--kb-dir", help="where the reference system builds its knowledge base")
    http = p.add_argument_group("http system")
    http.add_argument("--endpoint", help="URL the http system POSTs each case to")
    http.add_argument("--headers-file", help="extra request headers (Name: value lines or JSON)")
    http.add_argument("--concurrency", type=int, help="parallel requests (default 8)")
    http.add_argument("--timeout", type=float, help="seconds per request (default 30)")
    http.add_argument("--retries", type=int, help="retries per case (default 3)")
    http.add_argument("--rate-limit", type=float, help="requests per second, all workers")
    http.add_argument("--max-response-bytes", type=int, help="default 1 MiB")
    http.add_argument("--save-outcomes", help="write the collected outcomes JSONL here")
    trec = p.add_argument_group("TREC formats (instead of --golden/--outcomes)")
    trec.add_argument("--qrels", help="TREC qrels file (graded relevance)")
    trec.add_argument("--run", dest="trec_run", help="TREC run file (ranked by score)")
    trec.add_argument("--relevance-level", type=int, help="as trec_eval's -l (default 1)")
    trec.add_argument(
        "--measures",
        help="measures to report, ours or trec_eval's names (default: hit@k, mrr, ndcg@k, "
        "recall@k, precision@k for --k, map, Rprec, bpref); e.g. map,P.10,ndcg_cut.10",
    )
    trec.add_argument(
        "--per-query", metavar="FILE", help="write per-query values here (trec_eval -q format)"
    )
    ext = p.add_argument_group("extraction suite")
    ext.add_argument("--facts", action="append", help="extracted facts JSON (repeatable)")
    ext.add_argument(
        "--ground-truth", action="append", help="ground truth JSON, paired with --facts"
    )
    ext.add_argument(
        "--extraction-manifest",
        help='JSON object {"fixtures": [{"name", "facts", "ground_truth"}, …]}, paths '
        "relative to it (default: the bundled fixtures)",
    )
    ext.add_argument("--extraction-abs-tol", type=float, help="numeric tolerance")
    ext.add_argument("--extraction-rel-tol", type=float, help="relative tolerance")
    ext.add_argument("--extraction-tags-as-set", action="store_true", help="tags unordered")
    ext.add_argument("--extraction-spans-as-ranges", action="store_true", help="spans as ranges")
    p.add_argument(
        "--shard",
        metavar="I/N",
        help="score only shard I of N (stable hash of the case id); "
        "combine the partial reports with: ragspine-eval merge REPORT… --report OUT",
    )
    p.add_argument(
        "--max-input-bytes", type=int, help="refuse any input file larger than this (default 2 GiB)"
    )
    p.add_argument(
        "--workers",
        type=int,
        help="processes scoring an outcomes file (default 0: one per core when it pays)",
    )
    p.add_argument("--quiet", action="store_true", help="print only the one-line summary")
    p.add_argument(
        "--show-failures",
        metavar="N|all",
        help="failing cases listed after the table (default 20; 'all' for every one)",
    )
    return p


# argparse dest → RunConfig field, for flags that map one to one.
_SAME = {
    "system": "system",
    "mode": "mode",
    "golden": "golden",
    "outcomes": "outcomes",
    "baseline": "baseline",
    "update_baseline": "update_baseline",
    "lower_reason": "lower_reason",
    "report": "report",
    "protected_k": "protected_k",
    "judge": "judge",
    "judge_url": "judge_url",
    "judge_model": "judge_model",
    "judge_cache": "judge_cache",
    "judge_cache_only": "judge_cache_only",
    "faithfulness_threshold": "faithfulness_threshold",
    "answer_accuracy_threshold": "answer_accuracy_threshold",
    "reference_texts": "reference_texts",
    "bootstrap_resamples": "bootstrap_resamples",
    "seed": "bootstrap_seed",
    "kb_dir": "kb_dir",
    "endpoint": "endpoint",
    "headers_file": "headers_file",
    "concurrency": "concurrency",
    "timeout": "timeout_s",
    "retries": "retries",
    "rate_limit": "rate_limit",
    "max_response_bytes": "max_response_bytes",
    "max_error_rate": "max_error_rate",
    "save_outcomes": "save_outcomes",
    "qrels": "qrels",
    "trec_run": "trec_run",
    "relevance_level": "relevance_level",
    "per_query": "per_query",
    "extraction_manifest": "extraction_manifest",
    "extraction_abs_tol": "extraction_abs_tol",
    "extraction_rel_tol": "extraction_rel_tol",
    "extraction_tags_as_set": "extraction_tags_as_set",
    "extraction_spans_as_ranges": "extraction_spans_as_ranges",
    "max_input_bytes": "max_input_bytes",
    "workers": "workers",
    "repeats": "repeats",
    "gate_mode": "gate_mode",
    "gate_alpha": "gate_alpha",
    "gate_tolerance": "gate_tolerance",
}


def parse_floors(raw: Sequence[str]) -> dict[str, float]:
    """``METRIC=VALUE`` items; the value's range is checked with the rest (``validate_config``)."""
    floors: dict[str, float] = {}
    for item in raw:
        metric, sep, value = item.partition("=")
        try:
            number = float(value)
            if not sep or not metric.strip() or number != number:  # NaN
                raise ValueError
        except ValueError:
            raise ConfigError(
                f"--floor: {item!r} is not METRIC=VALUE (e.g. faithfulness=0.85 or "
                "fabrication_count=0)"
            ) from None
        floors[metric.strip()] = number
    return floors


def _flag_overrides(args: argparse.Namespace) -> dict[str, Any]:
    given = vars(args)
    out: dict[str, Any] = {field: given[dest] for dest, field in _SAME.items() if dest in given}
    for dest, field in _SAME.items():
        value = given.get(dest)
        if isinstance(value, str) and not value.strip() and field != "lower_reason":
            # An empty path would silently mean "none" (no baseline: nothing gated).
            flag = _own_flag_names().get(field, dest)
            hint = " (use --no-baseline to run without one)" if field == "baseline" else ""
            raise ConfigError(f"{flag}: the value is empty{hint}")
    if given.get("no_baseline") and "baseline" in given:
        raise ConfigError("--no-baseline and --baseline: give one of them")
    if "suite" in given:
        out["suites"] = parse_suites(given["suite"])
    if "k" in given:
        out["ks"] = parse_k_list(given["k"])
    if "period_pattern" in given:
        out["period_patterns"] = tuple(given["period_pattern"])
    if "floor" in given:
        out["floors"] = parse_floors(given["floor"])
    if "measures" in given:
        from .metrics.trec_columns import parse_measures

        out["measures"] = parse_measures(given["measures"])
    if "facts" in given:
        out["facts"] = tuple(given["facts"])
    if "ground_truth" in given:
        out["ground_truth"] = tuple(given["ground_truth"])
    return out


@functools.cache
def _own_flag_names() -> dict[str, str]:
    """``_flag_names`` of the CLI's own parser, built once (each build is ~2 ms of the
    bundled run, which parses its flags with one parser already); never mutated."""
    return _flag_names(build_parser())


def _flag_names(parser: argparse.ArgumentParser) -> dict[str, str]:
    """RunConfig field → the flag that sets it (``bootstrap_seed`` → ``--seed``)."""
    by_dest = {a.dest: a.option_strings[-1] for a in parser._actions if a.option_strings}
    names = {field: by_dest[dest] for dest, field in _SAME.items() if dest in by_dest}
    names.update(
        suites="--suite",
        ks="--k",
        period_patterns="--period-pattern",
        floors="--floor",
        facts="--facts",
        ground_truth="--ground-truth",
    )
    return names


# Flags that only one system or suite reads: given for another, they would be ignored.
_HTTP_ONLY = (
    "headers_file",
    "concurrency",
    "timeout_s",
    "retries",
    "rate_limit",
    "max_response_bytes",
)
_EXTRACTION_ONLY = (
    "facts",
    "ground_truth",
    "extraction_manifest",
    "extraction_abs_tol",
    "extraction_rel_tol",
    "extraction_tags_as_set",
    "extraction_spans_as_ranges",
)
_QA_ONLY = ("outcomes", "endpoint", "qrels", "trec_run", "golden", "save_outcomes", "mode")


def _check_flags_apply(
    flags: Mapping[str, Any], settings: Mapping[str, Any], name: Mapping[str, str]
) -> None:
    """No flag is silently ignored: one the run would not read is a one-line error."""
    system = settings.get("system", "reference")
    suites = settings.get("suites", ("qa",))
    for field in _HTTP_ONLY:
        if field in flags and system != "http":
            raise ConfigError(
                f"{name[field]}: only used by the http system, and this run uses "
                f"--system {system} (give --endpoint URL to call a service)"
            )
    if "kb_dir" in flags and system != "reference":
        raise ConfigError(f"--kb-dir: only used by the reference system, not --system {system}")
    if "extraction" not in suites:
        for field in _EXTRACTION_ONLY:
            if field in flags:
                raise ConfigError(
                    f"{name[field]}: only used by the extraction suite; add --suite extraction "
                    "(or --suite all)"
                )
    if "qa" not in suites:
        for field in _QA_ONLY:
            if field in flags:
                raise ConfigError(
                    f"{name[field]}: only used by the qa suite, and this run is --suite "
                    f"{','.join(suites)}; add --suite all to run both"
                )


def config_from_args(args: argparse.Namespace, cwd: str | None = None) -> RunConfig:
    """Defaults ← the config file ← the flags; then the defaults that depend on the rest.

    The system is settled by ``config.resolve_system`` (the one rule for flags, the
    action's inputs and the config file); every setting remembers where it came from.
    """
    given = vars(args)
    config_path = given.get("config")
    if config_path is None and not given.get("no_config"):
        candidate = os.path.join(cwd or os.getcwd(), DEFAULT_CONFIG_NAME)
        # lexists: a committed link or FIFO named like the file is refused, never skipped
        config_path = candidate if os.path.lexists(candidate) else None
    file_settings: dict[str, Any] = {}
    origins: dict[str, str] = {}
    if config_path is not None:
        from .config_file import file_origin, load_config_file, overrides_from_file

        loaded = load_config_file(config_path)
        file_settings = overrides_from_file(loaded, config_path)
        for field, value in file_settings.items():
            key = FILE_KEYS.get(field, field)
            origins[field] = file_origin(loaded, config_path, key)
            if field == "floors":
                origins.update(
                    {f"floors.{m}": file_origin(loaded, config_path, f"{key}.{m}") for m in value}
                )
            if field == "gated_metrics":
                for index, m in enumerate(value):
                    where = file_origin(loaded, config_path, f"{key}[{index}]")
                    origins[f"gated_metrics.{m}"] = where.removesuffix(f"[{index}]") + f".{m}"
    flag_name = _own_flag_names()
    flags = _flag_overrides(args)
    for field in flags:
        origins[field] = flag_name.get(field, field)
    if "gated_metrics" in flags:  # the flags' list replaces the file's
        origins = {k: v for k, v in origins.items() if not k.startswith("gated_metrics.")}
    if "floors" in flags:
        origins.update({f"floors.{m}": "--floor" for m in flags["floors"]})
        flags["floors"] = {**file_settings.get("floors", {}), **flags["floors"]}
    file_label = f"{config_path}: " if config_path else ""
    settings = resolve_system(
        file_settings,
        flags,
        file_name=lambda field: file_label + FILE_KEYS.get(field, field),
        flag_name=lambda field: flag_name.get(field, f"--{field}"),
    )
    _check_flags_apply(flags, settings, flag_name)
    if config_path is not None:
        settings["config_file"] = config_path
    settings["mode_from_default"] = "mode" not in settings
    settings["origins"] = origins
    # The bundled baseline only gates the bundled inputs run through the bundled system:
    # another system or another golden set must never write into the package's data.
    own_inputs = (
        any(name in settings for name in ("golden", "facts", "ground_truth", "extraction_manifest"))
        or settings.get("system", "reference") != "reference"
    )
    if given.get("no_baseline") or ("baseline" not in settings and own_inputs):
        settings["baseline"] = None
    if (
        "facts" in settings or "ground_truth" in settings
    ) and "extraction_manifest" not in settings:
        settings["extraction_manifest"] = None
    if "shard" in given:
        settings["extra"] = {"shard": parse_shard(given["shard"])}
    return RunConfig(**settings)


def _run_cli(arguments: list[str]) -> int:
    # No collections while the run's modules load and its report is written and shown:
    # all of it lives until the process ends (``startup``).
    startup.no_collection_at_exit()
    with gc_paused():
        try:
            return _run_cli_paused(arguments)
        finally:
            startup.settle()


def _run_cli_paused(arguments: list[str]) -> int:
    try:
        args = build_parser().parse_args(arguments)
        shown = _lazy("parse_show_failures")(getattr(args, "show_failures", None))
        config = config_from_args(args)
        run = _lazy("run")
        if config.system == "reference":
            importlib.import_module(".systems.reference", __package__)
        # The modules' own patterns are compiled now; the run's data makes the rest.
        pattern_cache.mark()
        result: RunResult = run(config)
    except RagspineError as exc:
        print_safe(format_error(exc), sys.stderr)
        return exc.exit_code
    finally:
        pattern_cache.save()
    quiet = getattr(args, "quiet", False)
    report = result.report
    # A verdict exists: the report is written (verdict error included) and the table shown.
    code = result.exit_code
    if config.report:
        try:
            with output_errors(config.report, config.origin("report", "--report")):
                _lazy("write_report")(report, config.report)
        except RagspineError as exc:
            _lazy("print_report")(report, sys.stdout, show_failures=shown, quiet=quiet)
            print_safe(format_error(exc), sys.stderr)
            return EXIT_ERROR
    _lazy("print_report")(report, sys.stdout, show_failures=shown, quiet=quiet)
    judge_line = judge_accounts_line(report)
    if judge_line is not None:
        print_safe(judge_line, sys.stdout)
    base = report.baseline
    if result.error is not None:
        print_safe(f"ragspine-eval: error: {result.error}", sys.stderr)
    elif quiet and base is not None and base.status == "regression":
        print_safe(f"ragspine-eval: {base.message}", sys.stderr)
    return code


def judge_accounts_line(report: Any) -> str | None:
    """One line of what an LLM judge cost (requests, cache hits, tokens, wall time)."""
    judge = report.qa.judge if report.qa is not None else None
    if not judge or "requests" not in judge:
        return None
    errors = f", {judge['errors']} judge errors" if judge.get("errors") else ""
    return (
        f"judge {judge.get('kind')} {judge.get('model')} (prompt v{judge.get('prompt_version')}): "
        f"{judge['requests']} requests, {judge['cache_hits']} cache hits, "
        f"{judge['total_tokens']} tokens, {judge['wall_s']:.1f} s{errors}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """The CLI (and ``merge``): exit 0 pass, 1 regression, 2 invalid input, 3 a bug.

    Whatever escapes the known error paths is caught here: one line saying it is an
    internal error and where to report it, exit 3 — never a traceback, never exit 1.
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        if arguments[:1] == ["merge"]:
            from .merge import main as merge_main

            return merge_main(arguments[1:])
        if arguments[:1] == ["judge-eval"]:
            from .judge_eval import main as judge_eval_main

            return judge_eval_main(arguments[1:])
        if arguments[:1] == ["render"]:
            from .render import main as render_main

            return render_main(arguments[1:])
        return _run_cli(arguments)
    except KeyboardInterrupt:
        print_safe("ragspine-eval: interrupted", sys.stderr)
        return EXIT_ERROR
    except SystemExit:
        raise  # --help and --version
    except Exception as exc:  # the last line of defence: see errors.format_internal_error
        print_safe(format_internal_error(exc, __version__), sys.stderr)
        return EXIT_INTERNAL


startup.modules_loaded()  # the last line of the module's body

if __name__ == "__main__":
    sys.exit(main())

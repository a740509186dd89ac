"""``ragspine-eval merge``: one verdict from the partial reports of a sharded run.

Every aggregate — gate metrics, by-tag counts, retrieval means, fabrication, errors,
attribution, bootstrap intervals and the baseline verdict — is recomputed from the
shards' per-case results with the same functions an unsharded run uses (``qa.assemble_qa``
and ``run.conclude_run``), so the merged report equals an unsharded one apart from timing.

Refused (exit 2): shards of different golden sets (fingerprint), different shard counts,
modes, systems, tool versions or settings, and missing or duplicate shards.
"""

from __future__ import annotations

import argparse
import glob
import sys
from collections.abc import Sequence
from dataclasses import fields
from datetime import UTC, datetime
from typing import Any

import numpy as np

from .baseline.values import qa_suite_values
from .config import RunConfig, validate_config
from .errors import ConfigError, InputError, RagspineError, format_error
from .golden.load import load_golden_set
from .input_files import refuse_output_over_input
from .outputs import check_output_path, output_errors
from .qa import FABRICATED, GATE_NAMES, RETRIEVAL_MISSED, QASettings, assemble_qa, qa_warnings
from .report.cases import CaseTable, as_case_table
from .report.model import Failure, QASection, Report
from .report.read import read_report
from .run import RunResult, check_baseline_key, conclude_run, error_budget, golden_digests
from .safe_text import print_safe
from .shard import shard_of

__all__ = ["build_merge_parser", "load_partial_report", "main", "merge_reports"]

# Settings a merge supplies itself; every other config value must agree across shards.
_MERGE_OWNED = frozenset({"report", "baseline", "update_baseline", "lower_reason", "save_outcomes"})


def load_partial_report(path: str) -> Report:
    """A shard's report file; anything else is a one-line InputError naming the file."""
    report = read_report(path)
    if report.qa is None or report.qa.shard is None:
        raise InputError.single(path, "not a partial report of a --shard run (no qa.shard)")
    if len(report.qa.shard.positions) != len(report.qa.cases):
        raise InputError.single(path, "qa.shard.positions does not match qa.cases")
    return report


def _check_consistent(reports: Sequence[tuple[str, Report]]) -> None:
    first_path, first = reports[0]
    assert first.qa is not None and first.qa.shard is not None
    base_config = {k: v for k, v in first.config.items() if k not in _MERGE_OWNED}
    for path, report in reports[1:]:
        qa = report.qa
        assert qa is not None and qa.shard is not None
        if qa.golden.fingerprint != first.qa.golden.fingerprint:
            raise InputError.single(
                path,
                f"shard of another golden set ({qa.golden.fingerprint[:19]}…, "
                f"{first_path} has {first.qa.golden.fingerprint[:19]}…)",
            )
        checks = (
            ("shard count", qa.shard.count, first.qa.shard.count),
            ("mode", qa.mode, first.qa.mode),
            ("system", qa.system, first.qa.system),
            ("tool version", report.tool.version, first.tool.version),
        )
        for what, got, want in checks:
            if got != want:
                raise ConfigError(f"{path}: {what} {got!r} differs from {first_path} ({want!r})")
        config = {k: v for k, v in report.config.items() if k not in _MERGE_OWNED}
        if config != base_config:
            keys = sorted(
                k for k in set(config) | set(base_config) if config.get(k) != base_config.get(k)
            )
            raise ConfigError(
                f"{path}: settings differ from {first_path} ({', '.join(keys)}): "
                "every shard must run with the same configuration"
            )
    count = first.qa.shard.count
    seen: dict[int, str] = {}
    for path, report in reports:
        assert report.qa is not None and report.qa.shard is not None
        index = report.qa.shard.index
        if index in seen:
            raise InputError.single(path, f"duplicate shard {index}/{count} (also {seen[index]})")
        seen[index] = path
    missing = [str(i) for i in range(1, count + 1) if i not in seen]
    if missing:
        raise InputError.single(
            first_path,
            f"missing shard(s) {', '.join(missing)} of {count}: give every partial report",
        )
    total = sum(r.qa.n_cases for _, r in reports if r.qa is not None)
    if total != first.qa.golden.n_cases:
        raise InputError.single(
            first_path,
            f"the shards hold {total} cases, the golden set has {first.qa.golden.n_cases}",
        )
    for path, report in reports:
        assert report.qa is not None and report.qa.shard is not None
        index = report.qa.shard.index
        for case_id in _case_ids(report.qa):
            if shard_of(case_id, count) != index:
                raise InputError.single(
                    path,
                    f"case {case_id!r} does not belong to shard {index}/{count}: "
                    "a partial report was edited or comes from another run",
                )
        positions = report.qa.shard.positions
        if any(not 0 <= p < first.qa.golden.n_cases for p in positions):
            raise InputError.single(
                path, "qa.shard.positions: a position is outside the golden set"
            )


def _case_ids(qa: QASection) -> list[str]:
    cases = qa.cases
    return list(cases.ids) if isinstance(cases, CaseTable) else [c.id for c in cases]


def _check_against_golden(reports: Sequence[tuple[str, Report]], config: RunConfig) -> None:
    """Every case of the golden set in exactly one partial, and nothing else.

    Counts and shard membership do not catch a partial whose case id was swapped for
    another of the same shard; the golden set itself does.
    """
    first_path, first = reports[0]
    assert first.qa is not None
    if config.qrels and config.trec_run:
        return  # the TREC files are the golden set: their fingerprint is checked below
    golden = load_golden_set(config.golden, max_bytes=config.max_input_bytes)
    if golden.fingerprint != first.qa.golden.fingerprint:
        raise InputError.single(
            config.golden,
            "is not the golden set the shards were run on (its fingerprint differs): "
            "merge with the same golden file",
        )
    expected = {case.id for case in golden.cases}
    seen: dict[str, str] = {}
    for path, report in reports:
        assert report.qa is not None
        for case_id in _case_ids(report.qa):
            if case_id not in expected:
                raise InputError.single(path, f"case {case_id!r} is not in the golden set")
            if case_id in seen:
                raise InputError.single(path, f"case {case_id!r} also appears in {seen[case_id]}")
            seen[case_id] = path
    missing = sorted(expected - set(seen))
    if missing:
        shown = ", ".join(repr(m) for m in missing[:10])
        more = f" and {len(missing) - 10} more" if len(missing) > 10 else ""
        raise InputError.single(
            first_path, f"golden case(s) {shown}{more} are in no partial report"
        )


def _run_config(config: dict[str, Any], overrides: dict[str, Any]) -> RunConfig:
    """The shards' RunConfig back from its JSON form (lists → tuples), with the merge's own."""
    known = {f.name for f in fields(RunConfig)} - {"extra"}
    values: dict[str, Any] = {
        k: (tuple(v) if isinstance(v, list) else v) for k, v in config.items() if k in known
    }
    values.update(overrides)
    return validate_config(RunConfig(**values))


def _merged_qa(reports: Sequence[Report], settings: QASettings) -> QASection:
    sections = [r.qa for r in reports if r.qa is not None]
    tables: list[CaseTable] = []
    positions: list[int] = []
    for qa in sections:
        assert qa.shard is not None
        tables.append(as_case_table(qa.cases, GATE_NAMES, settings.metric_names))
        positions += qa.shard.positions
    joined = CaseTable.concat(tables) if tables else as_case_table([], GATE_NAMES, [])
    position_of: dict[str, int] = {}
    for case_id, position in zip(joined.ids, positions, strict=True):
        if case_id in position_of:
            raise InputError.single("<merge>", f"case {case_id!r} appears in two shards")
        position_of[case_id] = position
    ordered = joined.take(np.argsort(np.asarray(positions, dtype=np.int64), kind="stable"))
    failures: dict[str, list[Failure]] = {}
    for qa in sections:
        for gate, metric in qa.metrics.items():
            failures.setdefault(gate, []).extend(metric.failures)
        failures.setdefault(FABRICATED, []).extend(
            Failure(id=c.id, actual=c.numbers, question=c.question) for c in qa.fabrication.cases
        )
        if qa.retrieval is not None:
            failures.setdefault(RETRIEVAL_MISSED, []).extend(
                Failure(id=m.id, actual=m.rank, question=m.question) for m in qa.retrieval.misses
            )
    for gate_failures in failures.values():
        gate_failures.sort(key=lambda f: position_of.get(f.id, -1))
    stats = [qa.system_stats for qa in sections]
    first = sections[0]
    judges = {
        tuple(
            sorted(
                (k, str(v))
                for k, v in (qa.judge or {"kind": "lexical"}).items()
                if k in ("kind", "model", "prompt_version")
            )
        )
        for qa in sections
    }
    if len(judges) > 1:
        raise InputError.single(
            "<merge>", "the shards were judged by different judges: rerun them with one judge"
        )
    merged = assemble_qa(
        mode=first.mode,
        system=first.system,
        golden=first.golden,
        cases=ordered,
        failures=failures,
        refusal_checked=sum(qa.fabrication.checked for qa in sections),
        settings=settings,
        unknown_outcome_ids=first.unknown_outcome_ids,
        system_stats=_combine_stats(stats),
    )
    if first.judge is not None:
        merged.judge = {
            k: v for k, v in first.judge.items() if k in ("kind", "model", "prompt_version")
        }
    return merged


def merge_reports(
    reports: Sequence[tuple[str, Report]],
    *,
    overrides: dict[str, Any],
    now: datetime | None = None,
) -> RunResult:
    """Check the shards belong together, recompute the QA section, gate the baseline."""
    if not reports:
        raise ConfigError("merge: give the partial reports of every shard")
    _check_consistent(reports)
    shards = sorted(
        (r for _, r in reports), key=lambda r: r.qa.shard.index if r.qa and r.qa.shard else 0
    )
    config = _run_config(shards[0].config, overrides)
    _check_against_golden(reports, config)
    settings = QASettings(
        ks=config.ks, protected_k=config.protected_k, relevance_level=config.relevance_level
    )
    qa = _merged_qa(shards, settings)
    check_baseline_key(config)
    warnings = qa_warnings(qa)
    stamp = (now or datetime.now(UTC)).replace(microsecond=0).isoformat()
    suites = [qa_suite_values(qa, config.protected_k, golden_digests(config))]
    return conclude_run(config, stamp, qa, None, suites, warnings, error_budget(qa, config))


def merge_paths(patterns: Sequence[str], overrides: dict[str, Any]) -> tuple[RunConfig, RunResult]:
    """Merge the partial reports matching ``patterns`` (the action's ``merge-reports``)."""
    paths = _expand(patterns)
    _outputs_apart(paths, overrides)
    reports = [(path, load_partial_report(path)) for path in paths]
    if not reports:
        raise ConfigError("merge: give the partial reports of every shard")
    result = merge_reports(reports, overrides=overrides)
    return _run_config(reports[0][1].config, overrides), result


def build_merge_parser() -> argparse.ArgumentParser:
    from .cli import _Parser

    p = _Parser(
        prog="ragspine-eval merge",
        description="Merge the partial reports of a --shard run into one report and verdict.",
    )
    p.add_argument("reports", nargs="+", metavar="REPORT", help="partial reports (globs allowed)")
    p.add_argument("--report", help="write the merged JSON report here")
    p.add_argument("--baseline", help="baseline JSON to compare with (default: none)")
    p.add_argument("--update-baseline", action="store_true", help="record the merged run")
    p.add_argument("--lower-baseline", metavar="REASON", dest="lower_reason")
    p.add_argument("--quiet", action="store_true", help="print only the one-line summary")
    return p


def _outputs_apart(paths: Sequence[str], overrides: dict[str, Any]) -> None:
    """The merged report (or baseline) must not overwrite a partial report."""
    refuse_output_over_input(
        {"--report": overrides.get("report"), "--baseline": overrides.get("baseline")},
        {"partial report": paths},
    )


def _expand(patterns: Sequence[str]) -> list[str]:
    paths: list[str] = []
    for pattern in patterns:
        if any(ch in pattern for ch in "*?["):
            found = sorted(glob.glob(pattern, recursive=True))
            if not found:
                raise InputError.single(pattern, "no partial report matches this pattern")
            paths += found
        else:
            paths.append(pattern)
    return paths


def main(argv: Sequence[str]) -> int:
    """``ragspine-eval merge …``: exit 0 pass, 1 regression, 2 refused input."""
    from .report.render_terminal import print_report
    from .report.write import write_report

    try:
        args = build_merge_parser().parse_args(list(argv))
        paths = _expand(args.reports)
        overrides = {
            "report": args.report,
            "baseline": args.baseline,
            "update_baseline": args.update_baseline,
            "lower_reason": args.lower_reason,
        }
        _outputs_apart(paths, overrides)
        reports = [(path, load_partial_report(path)) for path in paths]
        if args.report:
            check_output_path(args.report, "--report")
        result = merge_reports(reports, overrides=overrides)
        if args.report:
            with output_errors(args.report, "--report"):
                write_report(result.report, args.report)
    except RagspineError as exc:
        print_safe(format_error(exc), sys.stderr)
        return exc.exit_code
    print_report(result.report, sys.stdout, quiet=args.quiet)
    if result.error is not None:
        print_safe(f"ragspine-eval: error: {result.error}", sys.stderr)
    return result.exit_code


def _combine_stats(stats: list[dict[str, Any]]) -> dict[str, Any]:
    """The shards' system stats as one run's: counts summed (also inside a dict of counts,
    such as the reference system's ``tool_calls``), labels kept when every shard agrees;
    anything else is listed per shard."""
    if not any(stats):
        return {}
    keys = set(stats[0])
    if any(set(s) != keys for s in stats):
        return {"shards": stats}
    combined: dict[str, Any] = {}
    for key in stats[0]:
        values = [s[key] for s in stats]
        if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            combined[key] = sum(values)
        elif all(isinstance(v, dict) for v in values) and all(
            isinstance(n, int) and not isinstance(n, bool) for v in values for n in v.values()
        ):
            totals: dict[str, int] = {}
            for v in values:
                for name, n in v.items():
                    totals[name] = totals.get(name, 0) + n
            combined[key] = dict(sorted(totals.items()))
        elif all(v == values[0] for v in values):
            combined[key] = values[0]
        else:
            return {"shards": stats}
    return combined

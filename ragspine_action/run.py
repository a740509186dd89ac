"""One evaluation, start to verdict: collect → score → baseline → report.

Pure of GitHub: ``action.py`` adds comments, summaries and artifacts around ``run``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from . import __version__
from .baseline.digests import CaseDigests, digest_cases, digest_dumps
from .baseline.model import BaselineFile
from .baseline.ratchet import (
    EPSILON,
    Comparison,
    IntervalFn,
    PerCase,
    SuiteValues,
    apply_update,
    check_judge,
    check_stale,
    compare,
    diff_cases,
    stale_changes_message,
)
from .baseline.report import baseline_warnings, record_case_diff, record_comparison
from .baseline.significance import SignificanceSettings, apply_significance
from .baseline.stats import DEFAULT_RESAMPLES, paired_bootstrap
from .baseline.store import baseline_lock, load_baseline, write_baseline
from .baseline.values import extraction_suite_values, qa_suite_values
from .config import CEILING_METRICS, REFERENCE_MODES, RunConfig, validate_config
from .errors import (
    EXIT_ERROR,
    EXIT_PASS,
    EXIT_REGRESSION,
    BaselineUpdateError,
    ConfigError,
    RagspineError,
    StaleBaselineError,
    one_line,
)
from .gates import GateSettings, make_judge
from .gates.judge import judge_identity
from .golden.load import GoldenSet, fingerprint_digests, load_golden_set
from .golden.models import GoldenCase
from .jsonio import atomic_write_text, check_size
from .outputs import check_output_path, output_errors
from .perf import gc_paused
from .progress import progress_bar
from .qa import (
    GATE_NAMES,
    QASettings,
    assemble_qa,
    evaluate_qa,
    failure_models,
    qa_warnings,
    unreferenced_narratives,
)
from .repeats import collect_repeats, repeated_suite_values, repeats_section, saved_outcomes
from .report.model import (
    BaselineSection,
    FloorCheck,
    GoldenInfo,
    Interval,
    Lowering,
    QASection,
    RepeatsSection,
    Report,
    ShardInfo,
    ToolInfo,
    is_gated,
    metric_matches,
)
from .report.view import count_noun
from .shard import Shard, select_shard
from .systems.base import MISSING_OUTCOME, Collection, System

if TYPE_CHECKING:
    from .extraction import FixturePair

__all__ = [
    "RunResult",
    "build_system",
    "check_baseline_key",
    "conclude_run",
    "error_budget",
    "golden_digests",
    "qa_settings",
    "qa_suite_values",
    "run",
    "run_shard",
]


@dataclass
class RunResult:
    report: Report
    exit_code: int
    baseline_written: bool = False
    messages: list[str] = field(default_factory=list)
    # Why the verdict is "error" (one line), for the terminal; None otherwise.
    error: str | None = None


def build_system(config: RunConfig) -> System:
    """The system under test named by the config (imports only the one that is used)."""
    if config.system == "outcomes":
        from .systems.outcomes_file import OutcomesFileSystem

        assert config.outcomes is not None
        return OutcomesFileSystem(config.outcomes, config.max_input_bytes)
    if config.system == "http":
        from .systems.http import HttpSettings, HttpSystem, load_headers
        from .systems.http_progress import Progress

        assert config.endpoint is not None
        settings = HttpSettings(
            endpoint=config.endpoint,
            headers=load_headers(path=config.headers_file),
            concurrency=config.concurrency,
            timeout_s=config.timeout_s,
            retries=config.retries,
            rate_limit=config.rate_limit,
            max_response_bytes=config.max_response_bytes,
        )
        return HttpSystem(settings, progress=Progress(sys.stderr))
    from .systems.reference import ReferenceSystem

    mode: Literal["tool", "agent"] = "agent" if config.mode == "agent" else "tool"
    return ReferenceSystem(mode=mode, kb_dir=config.kb_dir)


T = TypeVar("T")


def _sized(loader: Callable[[str], T], path: str, config: RunConfig) -> T:
    check_size(path, config.max_input_bytes)
    return loader(path)


def _trec_qa(config: RunConfig, settings: QASettings, shard: Shard | None) -> QASection:
    """A TREC qrels/run pair, evaluated by column (``metrics.trec_columns``)."""
    from .metrics.trec_columns import (
        TREC_DEFAULT_EXTRA,
        evaluate_columns,
        per_query_tsv,
        read_qrels_columns,
        read_run_columns,
        trec_case_table,
    )

    assert config.qrels is not None and config.trec_run is not None
    if shard is not None:
        raise ConfigError(
            "--shard: TREC files are evaluated whole; drop --shard with --qrels/--run"
        )
    measures = config.measures or (*settings.metric_names, *TREC_DEFAULT_EXTRA)
    ks = sorted({int(m.partition("@")[2]) for m in measures if "@" in m}) or settings.ks
    settings = replace(settings, ks=tuple(ks), measures=tuple(measures))
    qrels = _sized(read_qrels_columns, config.qrels, config)
    trec_run = _sized(read_run_columns, config.trec_run, config)
    evaluation = evaluate_columns(
        qrels, trec_run, settings.metric_names, relevance_level=config.relevance_level
    )
    if config.per_query:
        with output_errors(config.per_query, "--per-query"):
            atomic_write_text(config.per_query, per_query_tsv(evaluation))
    return assemble_qa(
        mode=config.mode,
        system="trec",
        golden=GoldenInfo(
            path=config.qrels,
            fingerprint=fingerprint_digests(evaluation.digests),
            n_cases=len(evaluation.qids),
        ),
        cases=trec_case_table(evaluation, GATE_NAMES, settings.protected_k),
        failures={},
        refusal_checked=0,
        settings=settings,
        system_stats={"unjudged_run_queries": len(evaluation.unjudged_queries)}
        if evaluation.unjudged_queries
        else None,
    )


def golden_digests(config: RunConfig) -> Callable[[], CaseDigests]:
    """The golden cases' digests, read again only when a baseline needs them."""

    def digests() -> CaseDigests:
        if config.qrels:
            from .metrics.trec_columns import case_digest_rows, read_qrels_columns

            qrels = _sized(read_qrels_columns, config.qrels, config)
            return digest_dumps(case_digest_rows(qrels))
        golden = load_golden_set(config.golden, max_bytes=config.max_input_bytes)
        return digest_cases(golden.cases)

    return digests


def _extraction_pairs(config: RunConfig) -> list[FixturePair]:
    from .extraction import load_manifest, pairs_from_paths

    if config.facts or config.ground_truth:
        return pairs_from_paths(config.facts, config.ground_truth)
    if not config.extraction_manifest:
        raise ConfigError(
            "--suite extraction: give --facts/--ground-truth or --extraction-manifest"
        )
    return load_manifest(config.extraction_manifest)


def _interval_fn(config: RunConfig) -> IntervalFn:
    def interval(before: PerCase, now: PerCase) -> Interval:
        if config.bootstrap_resamples == 0:
            return Interval()
        opts = {"resamples": config.bootstrap_resamples, "seed": config.bootstrap_seed}
        if len(before) == 0:
            only = paired_bootstrap(now, now, **opts)
            return Interval(current_low=only.current_low, current_high=only.current_high)
        got = paired_bootstrap(before, now, **opts)
        return Interval(
            delta_low=got.delta_low,
            delta_high=got.delta_high,
            current_low=got.current_low,
            current_high=got.current_high,
        )

    return interval


def _rerecord_command(config: RunConfig, key: str) -> str:
    """The command that re-records ``key`` from the same inputs as this run."""
    parts = ["ragspine-eval"]
    if key == "extraction":
        parts.append("--suite extraction")
        if config.facts:
            parts += [
                f"--facts {f} --ground-truth {g}"
                for f, g in zip(config.facts, config.ground_truth, strict=False)
            ]
        elif config.extraction_manifest:
            parts.append(f"--extraction-manifest {config.extraction_manifest}")
    elif config.qrels:
        parts += [f"--qrels {config.qrels} --run {config.trec_run}", f"--mode {config.mode}"]
    else:
        parts += [f"--system {config.system}", f"--mode {config.mode}", f"--golden {config.golden}"]
        if config.outcomes:
            parts.append(f"--outcomes {config.outcomes}")
        if config.judge == "llm":
            parts.append(f"--judge llm --judge-model {config.judge_model}")
            if config.judge_url:
                from .systems.http import _display_url

                parts.append(f"--judge-url {_display_url(config.judge_url)}")
    parts.append(f"--baseline {config.baseline} --update-baseline")
    return " ".join(parts)


_LOWER_HINT = ' (add --lower-baseline "<reason>" if any value drops)'


@dataclass
class _BaselineOutcome:
    section: BaselineSection
    exit_code: int
    written: bool


def _gated(config: RunConfig, metric: str) -> bool:
    return is_gated(config.gated_metrics, metric)


def _check_names(config: RunConfig, suites: list[SuiteValues]) -> None:
    """Floors and gated metrics must name metrics this run produces (a typo is an error)."""
    known = {m for v in suites for m in v.metrics} | set(CEILING_METRICS)
    for name in config.floors:
        if not any(metric_matches(name, m) for m in known):
            where = config.origin(f"floors.{name}", "--floor")
            raise ConfigError(
                f"{where}: no metric of that name in this run "
                f"(known: {', '.join(sorted(known)[:40])})"
            )
    if config.gated_metrics is not None and not config.gated_metrics:
        where = config.origin("gated_metrics", "gate.metrics")
        raise ConfigError(
            f"{where}: an empty list gates nothing against the baseline (every drop would "
            "pass); name the metrics to gate, or 'all'"
        )
    for name in config.gated_metrics or []:
        if not any(metric_matches(name, m) for m in known):
            where = config.origin("gated_metrics", "gate.metrics") + f".{name}"
            raise ConfigError(
                f"{config.origin(f'gated_metrics.{name}', where)}: no metric of that name in this run "
                f"(known: {', '.join(sorted(known)[:40])})"
            )


def check_floors(
    config: RunConfig, suites: list[SuiteValues], qa: QASection | None = None
) -> list[FloorCheck]:
    """Absolute floors: below one fails even with no baseline or a lower baseline.

    ``fabrication_count`` and ``errors`` are counts with a target of 0: their "floor" is a
    ceiling (``--floor fabrication_count=0`` fails the run at one fabricated answer).
    """
    checks: list[FloorCheck] = []
    for selector, floor in config.floors.items():
        if selector in CEILING_METRICS:
            if qa is not None:
                current = float(
                    qa.fabrication_count if selector == "fabrication_count" else qa.errors.count
                )
                checks.append(
                    FloorCheck(
                        key=qa.mode,
                        metric=selector,
                        floor=floor,
                        current=current,
                        passed=current <= floor + EPSILON,
                        ceiling=True,
                    )
                )
            continue
        for values in suites:
            for metric, current in values.metrics.items():
                if metric_matches(selector, metric):
                    passed = current >= floor - EPSILON
                    checks.append(
                        FloorCheck(
                            key=values.key,
                            metric=metric,
                            floor=floor,
                            current=current,
                            passed=passed,
                        )
                    )
    return checks


def unbaselined_floors(
    config: RunConfig, suites: list[SuiteValues], qa: QASection | None
) -> list[FloorCheck]:
    """With no baseline and no floors, the golden set itself is the floor.

    Nothing else would gate such a run: every case must pass every gate it is scored on
    (hit@k at the protected k, extraction channels too) and fabrication stays at 0, so a
    first run with failing cases is a failure, never a PASS that compared nothing.
    """
    import numpy as np

    checks: list[FloorCheck] = []
    # Errors have their own budget (--max-error-rate): an errored case is not also a
    # failed case here.
    errored = {c.id for c in qa.errors.cases} if qa is not None else set()
    for values in suites:
        answered = None
        if errored and qa is not None and values.key == qa.mode:
            answered = np.fromiter((i not in errored for i in values.ids), bool, len(values.ids))
        for metric, column in values.results.items():
            if answered is not None:
                column = column[answered]
            scored = column[column >= 0]
            if not scored.size or not _gated(config, metric):
                continue
            passed = int((scored == 1).sum())
            current = values.metrics.get(metric, passed / scored.size)
            if answered is not None:
                current = passed / scored.size
            checks.append(
                FloorCheck(
                    key=values.key,
                    metric=metric,
                    floor=1.0,
                    current=current,
                    passed=passed == scored.size,
                    implicit=True,
                )
            )
    if qa is not None and _gated(config, "fabrication_count"):
        checks.append(
            FloorCheck(
                key=qa.mode,
                metric="fabrication_count",
                floor=0.0,
                current=float(qa.fabrication_count),
                passed=qa.fabrication_count == 0,
                ceiling=True,
                implicit=True,
            )
        )
    return checks


def _significance(config: RunConfig) -> SignificanceSettings:
    return SignificanceSettings(
        alpha=config.gate_alpha,
        tolerance=config.gate_tolerance,
        resamples=config.bootstrap_resamples or DEFAULT_RESAMPLES,
        seed=config.bootstrap_seed,
    )


def _qa_keys(baseline: BaselineFile | None) -> list[str]:
    return sorted(k for k in (baseline.entries if baseline else {}) if k != "extraction")


def _check_new_key(config: RunConfig, baseline: BaselineFile | None, key: str) -> None:
    """A baseline that already gates other QA keys gains a new one only on request: a
    mistyped ``--mode`` must not create a fresh entry that passes and gates nothing, and
    the bundled reference system must not add ``tool`` to a team's baseline (a forgotten
    ``--outcomes``). The reference system's second mode joins its first freely."""
    held = _qa_keys(baseline)
    if config.system == "reference" and all(k in REFERENCE_MODES for k in held):
        return
    if held:
        raise ConfigError(
            f"--mode {key}: {config.baseline} has no entry {key!r} (it holds: "
            f"{', '.join(held)}); use --mode {held[0]} to gate against it, or add "
            "--update-baseline to record a new entry"
        )


def check_baseline_key(config: RunConfig) -> None:
    """A non-reference system names its baseline key (``--mode``) whenever a baseline is
    read or written (a shard's baseline is read by the merge): "tool" is the reference
    system's mode, never a silent default."""
    sharded = config.extra.get("shard") is not None
    if (
        "qa" not in config.suites
        or not (config.baseline or sharded)
        or config.system == "reference"
        or not config.mode_from_default
    ):
        return
    if sharded and not config.baseline:
        raise ConfigError(
            f"--mode: a shard of --system {config.system} needs an explicit --mode: the merge "
            "compares the shards with the baseline under that key (e.g. --mode my-rag)"
        )
    assert config.baseline is not None
    held = _qa_keys(load_baseline(config.baseline, max_bytes=config.max_input_bytes))
    holds = (
        f"{config.baseline} holds: {', '.join(held)}"
        if held
        else f"{config.baseline} holds no QA entry yet"
    )
    example = held[0] if held else "my-rag"
    raise ConfigError(
        f"--mode: --system {config.system} needs an explicit --mode naming its baseline key "
        f"({holds}); e.g. --mode {example}"
    )


def _input_paths(config: RunConfig) -> dict[str, str]:
    """Flag → path of every file this run reads (besides the baseline)."""
    named = {
        config.origin("golden", "--golden"): config.golden,
        config.origin("outcomes", "--outcomes"): config.outcomes,
        "--qrels": config.qrels,
        "--run": config.trec_run,
        "--config": config.config_file,
        config.origin("headers_file", "--headers-file"): config.headers_file,
        config.origin("extraction_manifest", "--extraction-manifest"): config.extraction_manifest,
    }
    named.update({f"--facts {p}": p for p in config.facts})
    named.update({f"--ground-truth {p}": p for p in config.ground_truth})
    return {flag: path for flag, path in named.items() if path}


def _check_distinct(config: RunConfig) -> None:
    """An output path that is also another input or output would overwrite it (a report
    written over the baseline leaves a baseline that gates nothing)."""
    outputs = {
        config.origin("report", "--report"): config.report,
        "--save-outcomes": config.save_outcomes,
    }
    others = {**_input_paths(config), config.origin("baseline", "--baseline"): config.baseline}
    seen: dict[str, str] = {}
    for flag, path in [*outputs.items(), *others.items()]:
        if not path:
            continue
        key = os.path.realpath(path)
        if key in seen and (flag in outputs or seen[key] in outputs):
            raise ConfigError(
                f"{seen[key]} and {flag} name the same file ({path}): writing one would "
                "overwrite the other; give the output another path"
            )
        seen.setdefault(key, flag)


def check_output_paths(config: RunConfig) -> None:
    """Every file this run will write, checked before any work is done."""
    _check_distinct(config)
    if config.report:
        check_output_path(config.report, config.origin("report", "--report"))
    if config.save_outcomes:
        check_output_path(config.save_outcomes, "--save-outcomes")
    if config.per_query:
        check_output_path(config.per_query, "--per-query")
    if config.baseline and (config.update_baseline or not os.path.lexists(config.baseline)):
        check_output_path(config.baseline, config.origin("baseline", "--baseline"))


def judge_section(judge: Any) -> dict[str, Any]:
    """The report's ``qa.judge``: which judge, and what an LLM judge cost this run."""
    section: dict[str, Any] = dict(judge_identity(judge))
    stats = getattr(judge, "stats", None)
    if stats is not None:
        section.update(
            requests=stats.requests,
            cache_hits=stats.cache_hits,
            claims=stats.claims,
            prompt_tokens=stats.prompt_tokens,
            completion_tokens=stats.completion_tokens,
            total_tokens=stats.total_tokens,
            wall_s=round(stats.wall_s, 3),
            checks=stats.checks,
            errors=stats.failed_checks,
            error_rate=round(stats.error_rate, 4),
        )
        if stats.first_errors:
            section["first_errors"] = list(stats.first_errors)
    return section


def judge_budget(judge: Any, config: RunConfig) -> str | None:
    """Why the run is no quality verdict because the judge failed (its error rate above
    judge.max_error_rate), or None. A judge outage is never a regression."""
    stats = getattr(judge, "stats", None)
    if stats is None or stats.failed_checks == 0:
        return None
    if stats.error_rate <= config.judge_max_error_rate:
        return None
    first = stats.first_errors[0] if stats.first_errors else "unknown"
    return (
        f"judge errors on {stats.failed_checks} of {stats.checks} judged answers "
        f"({stats.error_rate:.1%} > judge.max_error_rate {config.judge_max_error_rate:.1%}; "
        f"first: {first}): not a quality verdict, the baseline was neither compared nor written"
    )


def error_budget(qa: QASection, config: RunConfig) -> str | None:
    """Why this run is no quality verdict (errors above ``--max-error-rate``), or None.

    One rule for every system: a golden case without an outcome is an error too, and when
    no outcome id matches the golden set the line says so.
    """
    if qa.errors.rate <= config.max_error_rate or qa.errors.count == 0:
        return None
    missing = [c.id for c in qa.errors.cases if c.error == MISSING_OUTCOME]
    budget = (
        f"error rate {qa.errors.rate:.1%} > --max-error-rate {config.max_error_rate:.1%}: "
        "not a quality verdict, the baseline was neither compared nor written"
    )
    if config.system == "outcomes" and config.outcomes and missing:
        matched = qa.n_cases - len(missing)
        n_ids = matched + len(qa.unknown_outcome_ids)
        if matched == 0:
            return (
                f"0 of {n_ids} outcome ids match the golden set: is this the right outcomes "
                f"file? ({config.outcomes} against {config.golden})"
            )
        shown = ", ".join(missing[:5]) + (", …" if len(missing) > 5 else "")
        return (
            f"{len(missing)} of {qa.n_cases} golden cases have no outcome in {config.outcomes} "
            f"({shown}); {budget}"
        )
    return (
        f"{qa.errors.count} of {qa.n_cases} cases ended in an error {_first_reasons(qa)}; {budget}"
    )


def _first_reasons(qa: QASection) -> str:
    """``(id: reason; …)``: the first three distinct error reasons, each with a case."""
    reasons: dict[str, str] = {}
    for case in qa.errors.cases:
        reasons.setdefault(case.error, case.id)
        if len(reasons) == 3:
            break
    return "(" + "; ".join(f"{case_id}: {reason}" for reason, case_id in reasons.items()) + ")"


def _without_reasons(error: str | None, qa: QASection | None) -> str | None:
    """``error_budget``'s message without its reasons (the report lists every case's):
    the baseline line says why it was not compared, the reasons are printed once."""
    if error is None or qa is None or not qa.errors.count:
        return error
    return error.replace(f" {_first_reasons(qa)};", ";", 1)


def _gate_baseline(config: RunConfig, suites: list[SuiteValues], now: str) -> _BaselineOutcome:
    if not config.baseline:
        message = "no baseline"
        if not config.floors:
            message = (
                "no baseline, so every case must pass every gate (fabrication 0); to gate on "
                "a recorded level instead, record one with --baseline FILE --update-baseline"
            )
        return _BaselineOutcome(BaselineSection(status="none", message=message), EXIT_PASS, False)
    path = config.baseline
    baseline = load_baseline(path, max_bytes=config.max_input_bytes)
    section = BaselineSection(
        status="pass",
        path=path,
        keys=[v.key for v in suites],
        gated=list(config.gated_metrics) if config.gated_metrics is not None else None,
        gate_mode="significant" if config.gate_mode == "significant" else "exact",
    )
    new_file: BaselineFile | None = baseline
    statuses: list[str] = []
    lowered: list[Lowering] = []
    interval_fn = _interval_fn(config)
    messages: list[str] = []
    for values in suites:
        entry = new_file.entries.get(values.key) if new_file else None
        if entry is None and values.key != "extraction" and not config.update_baseline:
            _check_new_key(config, baseline, values.key)
        if entry is None:
            new_file, _, status = apply_update(
                new_file, values, None, lower_reason=None, now=now, tool_version=__version__
            )
            statuses.append("created")
            messages.append(f"baseline '{values.key}' created in {path}")
            continue
        stale = False
        rerecord = _rerecord_command(config, values.key)
        try:
            check_judge(entry, values, path, rerecord)
        except StaleBaselineError as exc:
            if not config.update_baseline:
                section.status = "stale"
                section.message = str(exc)
                return _BaselineOutcome(section, EXIT_ERROR, False)
            stale = True
        diff = diff_cases(entry, values)
        if diff is None:
            try:
                check_stale(entry, values, path, rerecord + _LOWER_HINT)
            except StaleBaselineError as exc:
                if not config.update_baseline:
                    section.status = "stale"
                    section.message = str(exc)
                    section.commands = [rerecord]
                    return _BaselineOutcome(section, EXIT_ERROR, False)
                stale = True
        else:
            record_case_diff(section, values, diff)
            if diff.incomparable and not config.update_baseline:
                section.status = "stale"
                section.message = one_line(
                    stale_changes_message(diff, values.key, path, rerecord + _LOWER_HINT)
                )
                section.commands = [rerecord]
                return _BaselineOutcome(section, EXIT_ERROR, False)
        comparison: Comparison = compare(entry, values, interval_fn, diff)
        comparison.regressions = [r for r in comparison.regressions if _gated(config, r.metric)]
        comparison.broken = [c for c in comparison.broken if _gated(config, c.metric)]
        if config.gate_mode == "significant":
            section.tests += apply_significance(
                entry, values, comparison, _significance(config), lambda m: _gated(config, m)
            )
        record_comparison(section, entry, comparison)
        if config.update_baseline:
            try:
                new_file, lows, status = apply_update(
                    new_file,
                    values,
                    comparison,
                    lower_reason=config.lower_reason,
                    now=now,
                    tool_version=__version__,
                    stale=stale,
                    significant=config.gate_mode == "significant",
                    tested=lambda metric: _gated(config, metric),
                )
            except BaselineUpdateError as exc:
                # A refused update is a regression: the table and the report still tell why.
                section.update_refused = one_line(str(exc))
                statuses.append("regression")
                continue
            lowered += lows
            statuses.append(status)
            messages.append(f"baseline '{values.key}' updated in {path}")
        else:
            statuses.append("regression" if comparison.failed else "pass")
    section.lowered = lowered
    written = False
    if section.update_refused is None and new_file is not None and new_file != baseline:
        with output_errors(path, "--baseline"):
            write_baseline(path, new_file)
        written = True
    for status in ("regression", "updated", "created"):
        if status in statuses:
            section.status = status  # type: ignore[assignment]
            break
    if section.update_refused is not None:
        section.message = section.update_refused + " (nothing was written)"
    elif section.status == "regression":
        parts = [f"{r.metric} {r.baseline:.4g} → {r.current:.4g}" for r in section.regressions]
        parts += [f"case {b.id} broke {b.metric}" for b in section.broken[:10]]
        section.message = "regression: " + "; ".join(parts)
    else:
        section.message = "; ".join(messages) or "no regression against the baseline"
    code = EXIT_REGRESSION if section.status == "regression" else EXIT_PASS
    return _BaselineOutcome(section, code, written)


def _summary(
    verdict: str,
    qa: QASection | None,
    extraction: dict[str, Any] | None,
    section: BaselineSection,
    failed_floors: list[FloorCheck],
) -> str:
    parts = [f"ragspine-eval: {verdict.upper()}"]
    if qa is not None:
        failing = [n for n, m in qa.metrics.items() if m.total and m.passed < m.total]
        if qa.retrieval is not None and qa.retrieval.misses:
            # hit@k at the protected k is a per-case gate too (the failing cases list it)
            failing.append(f"hit@{qa.retrieval.protected_k}")
        parts.append(f"qa[{qa.mode}] {count_noun(qa.n_cases, 'case')}")
        parts.append(
            f"{count_noun(len(failing), 'gate')} below 100%" if failing else "all gates 100%"
        )
        parts.append(f"fabrication {qa.fabrication_count}, errors {qa.errors.count}")
    if extraction is not None:
        channels = extraction.get("channels", {})
        accuracy = ", ".join(f"{name} {c['accuracy']:.3f}" for name, c in channels.items())
        parts.append(f"extraction {count_noun(extraction.get('n_facts', 0), 'fact')}: {accuracy}")
    parts.append(f"baseline {section.status}")
    if section.regressions or section.broken:
        broken = len({(c.key, c.id) for c in section.broken})
        parts.append(
            f"{count_noun(len(section.regressions), 'regression')}, "
            f"{count_noun(broken, 'broken case')}"
        )
    if failed_floors and all(f.implicit for f in failed_floors):
        names = ", ".join(
            f"{f.metric} {f.current:g}" if f.ceiling else f"{f.metric} {f.current:.1%}"
            for f in failed_floors[:5]
        )
        parts.append(f"no baseline, so every case must pass: {names}")
    elif failed_floors:
        names = ", ".join(
            f"{f.metric} {f.current:g} > {f.floor:g}"
            if f.ceiling
            else f"{f.metric} {f.current:.4g} < {f.floor:.4g}"
            for f in failed_floors[:5]
        )
        parts.append(f"below floor: {names}")
    return " · ".join(parts)


def _report_config(config: RunConfig) -> dict[str, Any]:
    """The config as the report shows it: the endpoint without user info or query (secrets)."""
    shown = {k: v for k, v in asdict(config).items() if k not in ("extra", "workers")}
    if config.endpoint:
        from .systems.http import _display_url

        shown["endpoint"] = _display_url(config.endpoint)
    if config.judge_url:
        from .systems.http import _display_url

        shown["judge_url"] = _display_url(config.judge_url)
    return shown


def run_shard(config: RunConfig) -> Shard | None:
    """The ``--shard i/n`` of this run (kept in ``config.extra``), checked against the rest."""
    shard = config.extra.get("shard")
    if shard is None:
        return None
    if not isinstance(shard, Shard):
        raise ConfigError(f"--shard: {shard!r} is not of the form i/n (e.g. 1/4)")
    if config.suites != ("qa",):
        raise ConfigError("--shard: only the qa suite is sharded; run --suite extraction once")
    if config.update_baseline:
        raise ConfigError(
            "--shard: a shard never records the baseline; pass --update-baseline to "
            "ragspine-eval merge"
        )
    return shard


def _select(golden: GoldenSet, shard: Shard | None) -> tuple[Sequence[GoldenCase], list[int]]:
    """The cases this run scores and their golden positions (all of them when unsharded)."""
    if shard is None:
        return golden.cases, []
    return select_shard(golden.cases, [c.id for c in golden.cases], shard)


def _reference_texts(config: RunConfig) -> dict[str, tuple[str, ...]]:
    """The reference system's own documents, then ``--reference-texts`` (which wins)."""
    from .reference_texts import load_reference_texts, reference_kb_texts

    texts: dict[str, tuple[str, ...]] = {}
    if config.system == "reference" and not config.qrels:
        texts.update(reference_kb_texts())
    if config.reference_texts:
        texts.update(load_reference_texts(config.reference_texts, max_bytes=config.max_input_bytes))
    return texts


def llm_judge_settings(config: RunConfig) -> Any:
    """The ``LlmJudgeSettings`` of ``--judge llm`` (None for another judge)."""
    if config.judge != "llm":
        return None
    from .gates.llm_judge import LlmJudgeSettings

    return LlmJudgeSettings(
        base_url=config.judge_url or "",
        model=config.judge_model or "",
        api_key_env=config.judge_api_key_env,
        cache=config.judge_cache,
        cache_only=config.judge_cache_only,
        concurrency=config.judge_concurrency,
        timeout_s=config.judge_timeout_s,
        retries=config.judge_retries,
        max_error_rate=config.judge_max_error_rate,
        veto=config.judge_veto,
    )


def qa_settings(config: RunConfig) -> QASettings:
    """The scoring settings the config asks for (thresholds, periods, ks, reference texts)."""
    return QASettings(
        gates=GateSettings(
            judge=make_judge(
                config.judge,
                threshold=config.faithfulness_threshold,
                llm=llm_judge_settings(config),
            ),
            answer_accuracy_threshold=config.answer_accuracy_threshold,
            period_patterns=config.period_patterns,
            meta_patterns=config.meta_patterns,
            reference_texts=_reference_texts(config),
        ),
        ks=config.ks,
        protected_k=config.protected_k,
        relevance_level=config.relevance_level,
    )


def _outcomes_file_qa(
    config: RunConfig, settings: QASettings, shard: Shard | None
) -> QASection | None:
    """An outcomes file scored on every core (``parallel_qa``); None: take the sequential
    path, which also reports any problem of the input with its line and field."""
    if config.system != "outcomes" or config.qrels or config.save_outcomes:
        return None
    if config.judge == "llm":  # one judge, its cache and its accounts, in this process
        return None
    from .parallel_qa import FastPathDeclined, default_workers, score_outcomes_file

    assert config.outcomes is not None
    workers = config.workers or default_workers(config.golden)
    try:
        got = score_outcomes_file(
            config.golden,
            config.outcomes,
            settings,
            workers=workers,
            shard=shard,
            max_bytes=config.max_input_bytes,
            encode_rows=bool(config.report),
            progress=progress_bar("scoring"),
        )
    except (FastPathDeclined, OSError, RagspineError):
        return None  # the sequential path reports it, in its own order
    qa = assemble_qa(
        mode=config.mode,
        system="outcomes",
        golden=GoldenInfo(path=config.golden, fingerprint=got.fingerprint, n_cases=got.n_golden),
        cases=got.table,
        failures=failure_models(got.failures),
        refusal_checked=got.refusal_checked,
        settings=settings,
        unknown_outcome_ids=got.unknown_ids,
    )
    if shard is not None:
        qa.shard = ShardInfo(index=shard.index, count=shard.count, positions=got.positions)
    return qa


def _qa_sections(config: RunConfig, settings: QASettings, shard: Shard | None) -> list[QASection]:
    """The QA section of each repeat (one without ``--repeats``)."""
    if config.qrels:
        return [_trec_qa(config, settings, shard)]
    if config.repeats <= 1:
        qa = _outcomes_file_qa(config, settings, shard)
        if qa is not None:
            return [qa]
    return _sequential_qa(config, settings, shard)


def _check_contract(collection: Collection, config: RunConfig) -> None:
    """An http service whose responses do not speak the contract is refused (exit 2)."""
    census = collection.census
    if census is None:
        return
    from .contract import HTTP_CONTRACT
    from .systems.http import _display_url

    problem = census.problem(f"responses of {_display_url(config.endpoint or '')}", HTTP_CONTRACT)
    if problem is not None:
        raise ConfigError(problem)


def _sequential_qa(config: RunConfig, settings: QASettings, shard: Shard | None) -> list[QASection]:
    """Golden set and outcomes in memory, case by case: every system, every input."""
    golden = load_golden_set(config.golden, max_bytes=config.max_input_bytes)
    system = build_system(config)
    selected, positions = _select(golden, shard)
    collections = collect_repeats(system, selected, config.repeats)
    for collection in collections:
        _check_contract(collection, config)
    if shard is not None:  # other shards' outcomes are not unknown
        if len(collections) > 1:
            raise ConfigError("--shard: not with repeated outcomes (run the repeats unsharded)")
        known = {c.id for c in golden.cases}
        for collection in collections:
            collection.unknown_ids = [i for i in collection.unknown_ids if i not in known]
    system_name = system.name
    if config.save_outcomes:
        from .outcomes.save import save_outcomes

        with output_errors(config.save_outcomes, "--save-outcomes"):
            save_outcomes(config.save_outcomes, saved_outcomes(collections))
    sections = []
    for collection in collections:
        qa = evaluate_qa(
            golden,
            collection,
            mode=config.mode,
            system=system_name,
            settings=settings,
            cases=selected,
            progress=progress_bar("scoring"),
        )
        if shard is not None:
            qa.shard = ShardInfo(index=shard.index, count=shard.count, positions=positions)
        sections.append(qa)
    return sections


def run(config: RunConfig, *, now: datetime | None = None) -> RunResult:
    """Evaluate, compare with the baseline (writing it when asked) and decide the verdict.

    Raises RagspineError for bad input or configuration; the caller maps it to exit 2.
    """
    config = validate_config(config)
    with gc_paused():
        return _run(config, now)


def _run(config: RunConfig, now: datetime | None) -> RunResult:
    shard = run_shard(config)
    check_baseline_key(config)
    check_output_paths(config)
    warnings: list[str] = []
    if "qa" in config.suites and config.system == "outcomes" and config.outcomes:
        from .contract import check_outcomes_file

        census = check_outcomes_file(config.outcomes, max_bytes=config.max_input_bytes)
        ignored = census.ignored(config.outcomes) if census is not None else None
        if ignored:
            warnings.append(ignored)
    stamp = (now or datetime.now(UTC)).replace(microsecond=0).isoformat()
    suites: list[SuiteValues] = []
    qa: QASection | None = None
    error: str | None = None
    repeats: RepeatsSection | None = None
    if "qa" in config.suites:
        settings = qa_settings(config)
        judge = settings.gates.judge
        try:
            sections = _qa_sections(config, settings, shard)
        finally:
            close = getattr(judge, "close", None)
            if close is not None:
                close()
        qa = sections[0]
        if not config.qrels:
            judged = judge_section(judge)
            for section in sections:
                section.judge = judged
            judge_error = judge_budget(judge, config)
            if judge_error is not None:
                error = judge_error
        for index, section in enumerate(sections):
            prefix = f"repeat {index + 1}: " if len(sections) > 1 else ""
            warnings += [prefix + w for w in qa_warnings(section)]
            budget = error_budget(section, config)
            if budget is not None and error is None:
                error = prefix + budget
        warnings += unreferenced_narratives(qa, config.reference_texts)
        if len(sections) > 1:
            values = repeated_suite_values(sections, config.protected_k, golden_digests(config))
            repeats = repeats_section(sections, values)
        else:
            values = qa_suite_values(qa, config.protected_k, golden_digests(config))
        suites.append(values)
    extraction: dict[str, Any] | None = None
    if "extraction" in config.suites:
        from .extraction import ExtractionOptions, load_fixtures, score_fixtures

        pairs = _extraction_pairs(config)
        options = ExtractionOptions(
            abs_tol=config.extraction_abs_tol,
            rel_tol=config.extraction_rel_tol,
            tags_as_set=config.extraction_tags_as_set,
            spans_as_ranges=config.extraction_spans_as_ranges,
        )
        fixtures = load_fixtures(
            pairs, max_bytes=config.max_input_bytes, progress=progress_bar("loading")
        )
        result = score_fixtures(fixtures, options, progress=progress_bar("extraction"))
        extraction = result.to_dict()
        suites.append(extraction_suite_values(result))
    return conclude_run(config, stamp, qa, extraction, suites, warnings, error, repeats=repeats)


def conclude_run(
    config: RunConfig,
    stamp: str,
    qa: QASection | None,
    extraction: dict[str, Any] | None,
    suites: list[SuiteValues],
    warnings: list[str],
    error: str | None,
    *,
    repeats: RepeatsSection | None = None,
) -> RunResult:
    """Floors, baseline and verdict for scored suites (``merge`` ends a sharded run here too).

    ``error`` (from ``error_budget``) makes the verdict "error" (exit 2): such a run is
    neither compared with the baseline nor recorded in it.
    """
    _check_names(config, suites)
    exit_code = EXIT_PASS
    if error is not None:
        exit_code = EXIT_ERROR
        warnings = [*warnings, error]
    shard = qa.shard if qa is not None else None
    floors = [] if shard is not None else check_floors(config, suites, qa)
    unbaselined = shard is None and error is None and not config.baseline and not config.floors
    if unbaselined:
        floors = unbaselined_floors(config, suites, qa)
    if shard is not None:
        # A shard's numbers are partial: floors and baseline are judged after the merge.
        gate = _BaselineOutcome(
            BaselineSection(
                status="none",
                path=config.baseline,
                message=f"shard {shard.index}/{shard.count}: "
                "compared with the baseline by ragspine-eval merge",
            ),
            exit_code,
            False,
        )
    elif exit_code == EXIT_ERROR:
        # An outage (error rate above --max-error-rate) is no quality verdict: it is neither
        # compared nor recorded, or a first run would lock the service's errors in.
        gate = _BaselineOutcome(
            BaselineSection(
                status="none",
                path=config.baseline,
                message=f"not compared: {_without_reasons(error, qa)}",
            ),
            EXIT_ERROR,
            False,
        )
    else:
        with baseline_lock(config.baseline) if config.baseline else nullcontext():
            gate = _gate_baseline(config, suites, stamp)
    exit_code = max(exit_code, gate.exit_code)
    warnings += baseline_warnings(gate.section)
    failed_floors = [f for f in floors if not f.passed]
    if failed_floors and exit_code == EXIT_PASS:
        exit_code = EXIT_REGRESSION
    verdict = {EXIT_PASS: "pass", EXIT_REGRESSION: "fail"}.get(exit_code, "error")
    report = Report(
        tool=ToolInfo(version=__version__),
        verdict=verdict,
        exit_code=exit_code,
        summary=_summary(verdict, qa, extraction, gate.section, failed_floors),
        generated_at=stamp,
        config=_report_config(config),
        qa=qa,
        extraction=extraction,
        baseline=gate.section,
        floors=floors,
        warnings=warnings,
        repeats=repeats,
    )
    if error is None and gate.section.status == "stale":
        error = gate.section.message
    return RunResult(
        report, exit_code, gate.written, error=error if exit_code == EXIT_ERROR else None
    )

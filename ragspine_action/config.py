"""Run configuration: every knob of one evaluation, validated in one place.

The CLI (``cli.py``) and the action (``action.py``) both build a ``RunConfig``; later code
never reads flags or the environment. Each error names the option, the bad value and
what is allowed.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from .errors import ConfigError
from .gate_defaults import DEFAULT_META_PATTERNS, DEFAULT_PERIOD_PATTERNS, JUDGE_KINDS
from .input_files import refuse_output_over_input
from .jsonio import DEFAULT_MAX_INPUT_BYTES
from .paths import BUNDLED_BASELINE, BUNDLED_GOLDEN, BUNDLED_MANIFEST

__all__ = [
    "BASELINE_MISSING_POLICIES",
    "COMMENT_POLICIES",
    "FAIL_POLICIES",
    "SUITES",
    "SYSTEMS",
    "ActionInputs",
    "RunConfig",
    "action_inputs_from_env",
    "parse_k_list",
    "parse_suites",
    "resolve_system",
    "validate_config",
]

SystemName = Literal["reference", "outcomes", "http"]
SYSTEMS: tuple[str, ...] = get_args(SystemName)
SUITES: tuple[str, ...] = ("qa", "extraction")
REFERENCE_MODES = ("tool", "agent")

# The input that names each non-reference system: giving it selects that system.
SYSTEM_INPUTS: dict[str, str] = {"outcomes": "outcomes", "endpoint": "http", "qrels": "outcomes"}
# Counts that take a ceiling rather than a floor (``--floor fabrication_count=0``).
CEILING_METRICS: tuple[str, ...] = ("fabrication_count", "errors")
# Bounds on flag values that would otherwise exhaust the machine or never finish.
MAX_BOOTSTRAP_RESAMPLES = 100_000
MAX_K = 10_000
MAX_CONCURRENCY = 512
MAX_WORKERS = 256
MAX_RETRIES = 20
MAX_SEED = 2**63 - 1
MAX_REPEATS = 1000


@dataclass(frozen=True)
class RunConfig:
    suites: tuple[str, ...] = ("qa",)
    system: str = "reference"
    mode: str = "tool"
    golden: str = str(BUNDLED_GOLDEN)
    outcomes: str | None = None
    baseline: str | None = str(BUNDLED_BASELINE)
    update_baseline: bool = False
    lower_reason: str | None = None
    report: str | None = None
    ks: tuple[int, ...] = (1, 3, 10)
    protected_k: int = 3
    faithfulness_threshold: float = 0.6
    answer_accuracy_threshold: float = 0.6
    period_patterns: tuple[str, ...] = DEFAULT_PERIOD_PATTERNS
    # The entailment judge of the groundedness gates, and the meta/template lines its
    # claim extraction leaves out.
    judge: str = "lexical"
    meta_patterns: tuple[str, ...] = DEFAULT_META_PATTERNS
    # judge kind llm: an OpenAI-compatible endpoint (docs/judges.md). The API key is read
    # from the environment variable named here, never from a flag or a file.
    judge_url: str | None = None
    judge_model: str | None = None
    judge_api_key_env: str = "OPENAI_API_KEY"
    judge_cache: str | None = ".ragspine-judge-cache.sqlite"
    judge_cache_only: bool = False
    judge_concurrency: int = 4
    judge_timeout_s: float = 60.0
    judge_retries: int = 3
    judge_max_error_rate: float = 0.0
    judge_veto: bool = True
    bootstrap_resamples: int = 5000
    bootstrap_seed: int = 2026
    kb_dir: str | None = None
    # A directory (one file per narrative_doc) or a JSON object doc → text: the references
    # answer_accuracy measures narrative cases against (RAGSpine's ``reference_texts``).
    reference_texts: str | None = None
    max_error_rate: float = 0.0
    endpoint: str | None = None
    headers_file: str | None = None
    concurrency: int = 8
    timeout_s: float = 30.0
    retries: int = 3
    rate_limit: float | None = None
    max_response_bytes: int = 1024 * 1024
    save_outcomes: str | None = None
    qrels: str | None = None
    trec_run: str | None = None
    relevance_level: int = 1
    # TREC measures (our names, report order); None: the default set (metrics.trec_columns).
    measures: tuple[str, ...] | None = None
    per_query: str | None = None
    facts: tuple[str, ...] = ()
    ground_truth: tuple[str, ...] = ()
    extraction_manifest: str | None = str(BUNDLED_MANIFEST)
    extraction_abs_tol: float = 0.0
    extraction_rel_tol: float = 0.0
    extraction_tags_as_set: bool = False
    extraction_spans_as_ranges: bool = False
    max_input_bytes: int = DEFAULT_MAX_INPUT_BYTES
    # Worker processes for an outcomes file (0: one per core, none for small sets). An
    # execution detail like timing: results never depend on it, the report omits it.
    workers: int = 0
    gated_metrics: tuple[str, ...] | None = None
    floors: dict[str, float] = field(default_factory=dict)
    # gate.mode: exact (RAGSpine's rule, the default) or significant (noisy systems).
    gate_mode: str = "exact"
    gate_alpha: float = 0.05
    gate_tolerance: float = 0.0
    # --repeats N: every case runs N times (0: as many as the outcomes file holds).
    repeats: int = 0
    config_file: str | None = None
    # True when no flag, input or config file named the mode: "tool" is then only the
    # reference system's default, never a baseline key another system may use.
    mode_from_default: bool = False
    # Where a setting came from ("--seed", "ragspine-eval.yml: bootstrap.seed"), by field
    # name (floors by "floors.<metric>"), so an error blames the flag or the file key.
    origins: dict[str, str] = field(default_factory=dict)
    extra: dict[str, object] = field(default_factory=dict)

    def origin(self, name: str, flag: str) -> str:
        """The flag or file key that set ``name`` (``flag`` when it was not recorded)."""
        return self.origins.get(name, flag)


def parse_k_list(raw: str, option: str = "--k") -> tuple[int, ...]:
    """'1,3,10' → (1, 3, 10); each k a positive integer."""
    ks: list[int] = []
    for part in raw.split(","):
        text = part.strip()
        if not (text.isascii() and text.isdigit()) or int(text) < 1:
            raise ConfigError(
                f"{option}: {raw!r} is not a comma-separated list of positive integers (e.g. 1,3,10)"
            )
        ks.append(int(text))
    return tuple(sorted(set(ks)))


def parse_suites(raw: str, option: str = "--suite") -> tuple[str, ...]:
    value = raw.strip().lower()
    if value == "all":
        return SUITES
    parts = tuple(p.strip() for p in value.split(",") if p.strip())
    bad = [p for p in parts if p not in SUITES]
    if bad or not parts:
        raise ConfigError(f"{option}: {raw!r} is not one of qa, extraction, all")
    return parts


def layer_system(given: Mapping[str, Any], name: Callable[[str], str]) -> str | None:
    """The system one layer of settings selects (the flags, the action's inputs or the
    config file): its ``system``, or the one its inputs imply (``outcomes`` → outcomes,
    ``endpoint`` → http, ``qrels`` → outcomes). Contradictions are ConfigErrors naming both.
    """
    inputs = [f for f in SYSTEM_INPUTS if given.get(f)]
    if len(inputs) > 1:
        first, second = inputs[:2]
        raise ConfigError(
            f"{name(first)} and {name(second)}: each selects its own system under test "
            f"({SYSTEM_INPUTS[first]} and {SYSTEM_INPUTS[second]} inputs); give one of them"
        )
    if "qrels" in inputs and given.get("golden"):
        raise ConfigError(
            f"{name('golden')} and {name('qrels')}: the qrels file is the golden set; give one"
        )
    implied = SYSTEM_INPUTS[inputs[0]] if inputs else None
    explicit = given.get("system")
    if explicit is not None and implied is not None and explicit != implied:
        raise ConfigError(
            f"{name('system')} {explicit} contradicts {name(inputs[0])}, which selects the "
            f"{implied} system: drop one of them"
        )
    return explicit if explicit is not None else implied


def resolve_system(
    file_settings: Mapping[str, Any],
    flag_settings: Mapping[str, Any],
    *,
    file_name: Callable[[str], str],
    flag_name: Callable[[str], str],
) -> dict[str, Any]:
    """Settings of the config file overridden by the flags, with the system settled.

    The one rule for every entry point (CLI flags, the action's inputs, which become
    flags, and the config file): an input implies its system, a contradiction inside one
    layer is an error, and a system chosen by the flags replaces the file's choice together
    with the file's inputs for another system, so nothing is silently half-applied.
    """
    file_system = layer_system(file_settings, file_name)
    flag_system = layer_system(flag_settings, flag_name)
    merged = {**file_settings, **flag_settings}
    flag_inputs = [f for f in SYSTEM_INPUTS if flag_settings.get(f)]
    for input_name, system in SYSTEM_INPUTS.items():
        if input_name in file_settings and input_name not in flag_settings:
            # A flag's --golden replaces the file's qrels (the TREC golden set) only.
            replaced_by = [*flag_inputs, *(["golden"] if flag_settings.get("golden") else [])]
            if input_name != "qrels":
                replaced_by = flag_inputs
            other_input = any(f != input_name for f in replaced_by)
            if other_input or (flag_system is not None and flag_system != system):
                merged.pop(input_name, None)
                if input_name == "qrels":
                    merged.pop("trec_run", None)
    chosen = flag_system if flag_system is not None else file_system
    if chosen is not None:
        merged["system"] = chosen
    if merged.get("qrels"):
        merged["golden"] = merged["qrels"]
    return merged


def _check_rate(name: str, value: float) -> None:
    if not 0.0 <= value <= 1.0:
        raise ConfigError(f"{name}: {value} is outside 0..1")


def _check_int(config: RunConfig, name: str, flag: str, low: int, high: int, why: str) -> None:
    value = getattr(config, name)
    if not low <= value <= high:
        where = config.origin(name, flag)
        raise ConfigError(f"{where}: {value} is outside {low}..{high} ({why})")


def _check_floors(config: RunConfig) -> None:
    """Floors on shares lie in 0..1; ceilings on counts are ≥ 0 (a typo is never ignored)."""
    for metric, value in config.floors.items():
        where = config.origin(f"floors.{metric}", "--floor")
        if metric in CEILING_METRICS:
            if not 0 <= value < float("inf"):
                raise ConfigError(
                    f"{where}: {metric}={value}: a ceiling on a count must be a number ≥ 0 "
                    f"(e.g. {metric}=0)"
                )
        elif not 0.0 <= value <= 1.0:
            raise ConfigError(
                f"{where}: {metric}={value} is outside 0..1 (every metric but "
                f"{' and '.join(CEILING_METRICS)} is a share between 0 and 1)"
            )


def _not_built_in(patterns: tuple[str, ...], defaults: tuple[str, ...]) -> list[str]:
    """The patterns a user wrote: each default compiles (tests/test_config.py), and
    compiling 47 of them one by one only to check them was ~6 ms of every default run (the
    gates compile them joined)."""
    return [p for p in patterns if p not in defaults]


def _check_period_patterns(config: RunConfig) -> None:
    where = config.origin("period_patterns", "--period-pattern")
    for pattern in _not_built_in(config.period_patterns, DEFAULT_PERIOD_PATTERNS):
        try:
            re.compile(pattern)
        except (re.error, RecursionError, OverflowError, ValueError) as exc:
            raise ConfigError(
                f"{where}: {pattern!r} is not a valid regular expression ({exc})"
            ) from None


def validate_config(config: RunConfig) -> RunConfig:
    """Cross-option rules; returns the config unchanged when it is consistent."""
    if config.system not in SYSTEMS:
        raise ConfigError(f"--system: {config.system!r} is not one of {', '.join(SYSTEMS)}")
    if config.system == "reference" and config.mode not in REFERENCE_MODES:
        raise ConfigError(
            f"--mode: {config.mode!r} is not a mode of the reference system (tool, agent)"
        )
    if config.mode == "extraction" and "qa" in config.suites:
        raise ConfigError(
            "--mode: 'extraction' is the extraction suite's baseline key; name the QA key "
            "otherwise (e.g. --mode my-rag)"
        )
    if not config.mode or config.mode.startswith("_"):
        raise ConfigError(
            f"--mode: {config.mode!r} cannot be a baseline key (empty or starts with _)"
        )
    if bool(config.qrels) != bool(config.trec_run):
        raise ConfigError("--qrels and --run: give both (TREC qrels and the TREC run to score)")
    if (config.measures or config.per_query) and not config.qrels:
        raise ConfigError(
            "--measures and --per-query apply to TREC files: give --qrels and --run "
            "(a golden set reports hit@k, mrr, ndcg@k, recall@k, precision@k for --k)"
        )
    if config.relevance_level < 1:
        raise ConfigError(f"--relevance-level: {config.relevance_level} must be ≥ 1")
    if config.system == "outcomes" and not config.outcomes and not config.qrels:
        raise ConfigError("--outcomes: required with --system outcomes")
    if config.system == "http" and not config.endpoint:
        raise ConfigError("--endpoint: required with --system http")
    if config.lower_reason is not None and not config.lower_reason.strip():
        raise ConfigError("--lower-baseline: the reason must not be empty")
    if config.lower_reason is not None and not config.update_baseline:
        raise ConfigError("--lower-baseline: only makes sense together with --update-baseline")
    if config.update_baseline and not config.baseline:
        raise ConfigError("--update-baseline: needs --baseline PATH to write to")
    if config.max_input_bytes < 1:
        raise ConfigError(f"--max-input-bytes: {config.max_input_bytes} must be a positive integer")
    if config.workers < 0:
        raise ConfigError(f"--workers: {config.workers} must be ≥ 0 (0: one per core)")
    if config.protected_k < 1:
        raise ConfigError(f"--protected-k: {config.protected_k} must be a positive integer")
    if config.bootstrap_resamples < 0:
        where = config.origin("bootstrap_resamples", "--bootstrap-resamples")
        raise ConfigError(f"{where}: {config.bootstrap_resamples} must be ≥ 0")
    _check_int(
        config,
        "bootstrap_resamples",
        "--bootstrap-resamples",
        0,
        MAX_BOOTSTRAP_RESAMPLES,
        "more resamples do not sharpen a 95% interval; 0 turns it off",
    )
    _check_int(config, "bootstrap_seed", "--seed", 0, MAX_SEED, "a seed is a non-negative integer")
    _check_int(config, "protected_k", "--protected-k", 1, MAX_K, "a rank cut-off")
    if config.ks and not 1 <= max(config.ks) <= MAX_K:
        where = config.origin("ks", "--k")
        raise ConfigError(f"{where}: {max(config.ks)} is outside 1..{MAX_K} (a rank cut-off)")
    _check_int(config, "workers", "--workers", 0, MAX_WORKERS, "0: one per core")
    # Below-range values of the http settings are the http system's own one-line errors.
    if config.concurrency > MAX_CONCURRENCY:
        where = config.origin("concurrency", "--concurrency")
        raise ConfigError(
            f"{where}: {config.concurrency} is above {MAX_CONCURRENCY} requests in flight"
        )
    if config.retries > MAX_RETRIES:
        where = config.origin("retries", "--retries")
        raise ConfigError(f"{where}: {config.retries} is above {MAX_RETRIES} retries per case")
    _check_floors(config)
    _check_period_patterns(config)
    _check_rate("--faithfulness-threshold", config.faithfulness_threshold)
    _check_rate("--answer-accuracy-threshold", config.answer_accuracy_threshold)
    _check_rate("--max-error-rate", config.max_error_rate)
    _check_gate(config)
    if config.judge not in JUDGE_KINDS:
        raise ConfigError(f"--judge: {config.judge!r} is not one of {', '.join(JUDGE_KINDS)}")
    _check_llm_judge(config)
    for pattern in _not_built_in(config.meta_patterns, DEFAULT_META_PATTERNS):
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ConfigError(f"judge.meta_patterns: {pattern!r} is not a regex ({exc})") from None
    _check_outputs_apart(config)
    return config


GATE_MODES = ("exact", "significant")
_LLM_JUDGE_FIELDS = {
    "judge_url": "--judge-url",
    "judge_model": "--judge-model",
    "judge_cache_only": "--judge-cache-only",
    "judge_cache": "--judge-cache",
    "judge_api_key_env": "judge.api_key_env",
    "judge_concurrency": "judge.concurrency",
    "judge_timeout_s": "judge.timeout",
    "judge_retries": "judge.retries",
    "judge_max_error_rate": "judge.max_error_rate",
    "judge_veto": "judge.veto",
}


def _check_llm_judge(config: RunConfig) -> None:
    """The LLM judge's settings: complete for ``--judge llm``, absent otherwise."""
    if config.judge != "llm":
        for name, flag in _LLM_JUDGE_FIELDS.items():
            if name in config.origins:
                where = config.origin(name, flag)
                raise ConfigError(
                    f"{where}: only used by the LLM judge, and this run uses --judge "
                    f"{config.judge} (add --judge llm)"
                )
        return
    if not config.judge_model:
        where = config.origin("judge", "--judge")
        raise ConfigError(f"{where} llm: needs --judge-model NAME (judge.model)")
    if not config.judge_url and not config.judge_cache_only:
        where = config.origin("judge", "--judge")
        raise ConfigError(
            f"{where} llm: needs --judge-url URL (judge.base_url, e.g. "
            "https://api.openai.com/v1), or --judge-cache-only to replay the cache"
        )
    if config.judge_cache_only and not config.judge_cache:
        raise ConfigError("--judge-cache-only: needs a judge cache (--judge-cache PATH)")
    if not 1 <= config.judge_concurrency <= MAX_CONCURRENCY:
        where = config.origin("judge_concurrency", "judge.concurrency")
        raise ConfigError(f"{where}: {config.judge_concurrency} is outside 1..{MAX_CONCURRENCY}")
    if not 0 <= config.judge_retries <= MAX_RETRIES:
        where = config.origin("judge_retries", "judge.retries")
        raise ConfigError(f"{where}: {config.judge_retries} is outside 0..{MAX_RETRIES}")
    if not config.judge_timeout_s > 0:
        where = config.origin("judge_timeout_s", "judge.timeout")
        raise ConfigError(f"{where}: {config.judge_timeout_s} must be > 0 seconds")
    _check_rate(
        config.origin("judge_max_error_rate", "judge.max_error_rate"), config.judge_max_error_rate
    )
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", config.judge_api_key_env):
        where = config.origin("judge_api_key_env", "judge.api_key_env")
        raise ConfigError(
            f"{where}: {config.judge_api_key_env!r} is not an environment variable name "
            "(the key itself never goes in the config)"
        )


def _check_gate(config: RunConfig) -> None:
    """gate.mode, gate.alpha, gate.tolerance and --repeats."""
    if config.gate_mode not in GATE_MODES:
        where = config.origin("gate_mode", "gate.mode")
        raise ConfigError(f"{where}: {config.gate_mode!r} is not one of {', '.join(GATE_MODES)}")
    if not 0.0 < config.gate_alpha < 1.0:
        where = config.origin("gate_alpha", "gate.alpha")
        raise ConfigError(f"{where}: {config.gate_alpha} must be between 0 and 1 (e.g. 0.05)")
    _check_rate(config.origin("gate_tolerance", "gate.tolerance"), config.gate_tolerance)
    if config.repeats < 0:
        raise ConfigError(f"--repeats: {config.repeats} must be a positive integer")
    _check_int(config, "repeats", "--repeats", 0, MAX_REPEATS, "runs of every case")
    if config.repeats > 1 and config.qrels:
        raise ConfigError("--repeats: a TREC run is one run; repeats need a system to call")
    if config.repeats > 1 and config.extra.get("shard") is not None:
        raise ConfigError("--repeats: not with --shard (run the repeats unsharded)")


def _check_outputs_apart(config: RunConfig) -> None:
    """The baseline (written by a creating or updating run) may not be one of the inputs
    (issue 17). The report and saved outcomes are checked by ``run.check_output_paths``."""
    baseline = config.baseline
    if baseline is None or os.path.realpath(baseline) == os.path.realpath(str(BUNDLED_BASELINE)):
        return
    refuse_output_over_input(
        {"--baseline": baseline},
        {
            "--golden": [config.golden],
            "--outcomes": [config.outcomes],
            "--config": [config.config_file],
            "--headers-file": [config.headers_file],
            "--qrels": [config.qrels],
            "--run": [config.trec_run],
            "--facts": config.facts,
            "--ground-truth": config.ground_truth,
            "--extraction-manifest": [config.extraction_manifest],
            "--reference-texts": [config.reference_texts],
        },
    )


COMMENT_POLICIES = ("auto", "always", "never", "on-failure")
REPORT_FORMATS = ("html", "junit")
FAIL_POLICIES = ("regression", "never")
BASELINE_MISSING_POLICIES = ("error", "create")


@dataclass(frozen=True)
class ActionInputs:
    """The action's own inputs; everything else becomes CLI flags (``argv``)."""

    argv: tuple[str, ...]
    comment: str = "auto"
    github_token: str = field(default="", repr=False)
    artifact_name: str = "ragspine-report"
    artifact_retention_days: int | None = None
    report: str = "ragspine-report.json"
    fail_on: str = "regression"
    baseline: str | None = None
    golden: str | None = None
    merge_reports: tuple[str, ...] = ()
    # On a pull request: a baseline path missing at the base commit is an error, or
    # ("create") the run records one in CI and uploads it with the report.
    baseline_missing: str = "error"
    # Comment-only use (workflow_run for fork PRs): publish this report, score nothing.
    publish_report: str | None = None
    # Report files to write beside the JSON report and attach to the artifact.
    formats: tuple[str, ...] = ()


def _input(env: Mapping[str, str], name: str) -> str:
    """``INPUT_<NAME>``: upper-cased, spaces to ``_``, hyphens kept (the runner's rule)."""
    return env.get("INPUT_" + name.replace(" ", "_").upper(), "").strip()


def _bool_input(env: Mapping[str, str], name: str) -> bool:
    raw = _input(env, name)
    if raw in ("", "false", "False", "FALSE"):
        return False
    if raw in ("true", "True", "TRUE"):
        return True
    raise ConfigError(f"input {name}: {raw!r} is not a boolean (true or false)")


def _choice_input(env: Mapping[str, str], name: str, allowed: tuple[str, ...], default: str) -> str:
    raw = _input(env, name) or default
    if raw not in allowed:
        raise ConfigError(f"input {name}: {raw!r} is not one of {', '.join(allowed)}")
    return raw


def action_inputs_from_env(env: Mapping[str, str]) -> ActionInputs:
    """Translate ``INPUT_*`` variables into CLI flags plus the action-only settings."""
    argv: list[str] = []
    flag_inputs = {
        "suites": "--suite",
        "system": "--system",
        "mode": "--mode",
        "golden": "--golden",
        "outcomes": "--outcomes",
        "endpoint": "--endpoint",
        "baseline": "--baseline",
        "lower-baseline-reason": "--lower-baseline",
        "shard": "--shard",
        "config": "--config",
        "judge": "--judge",
        "judge-url": "--judge-url",
        "judge-model": "--judge-model",
        "judge-cache": "--judge-cache",
    }
    for name, flag in flag_inputs.items():
        value = _input(env, name)
        if value:
            argv += [flag, value]
    if _bool_input(env, "update-baseline"):
        argv.append("--update-baseline")
    if _bool_input(env, "judge-cache-only"):
        argv.append("--judge-cache-only")
    report = _input(env, "report") or "ragspine-report.json"
    argv += ["--report", report]
    extra = _input(env, "args")
    if extra:
        try:
            argv += shlex.split(extra)
        except ValueError as exc:
            raise ConfigError(f"input args: cannot split {extra!r}: {exc}") from None
    retention_raw = _input(env, "artifact-retention-days")
    retention: int | None = None
    if retention_raw:
        if (
            not (retention_raw.isascii() and retention_raw.isdigit())
            or not 1 <= int(retention_raw) <= 90
        ):
            raise ConfigError(f"input artifact-retention-days: {retention_raw!r} is not 1..90")
        retention = int(retention_raw)
    return ActionInputs(
        argv=tuple(argv),
        comment=_choice_input(env, "comment", COMMENT_POLICIES, "auto"),
        github_token=_input(env, "github-token"),
        artifact_name=_input(env, "artifact-name"),
        artifact_retention_days=retention,
        report=report,
        fail_on=_choice_input(env, "fail-on", FAIL_POLICIES, "regression"),
        baseline=_input(env, "baseline") or None,
        golden=_input(env, "golden") or None,
        merge_reports=tuple(_input(env, "merge-reports").split()),
        baseline_missing=_choice_input(env, "baseline-missing", BASELINE_MISSING_POLICIES, "error"),
        publish_report=_input(env, "publish-report") or None,
        formats=_formats_input(env),
    )


def _formats_input(env: Mapping[str, str]) -> tuple[str, ...]:
    """``formats``: html and/or junit, separated by spaces or commas (each once)."""
    chosen: list[str] = []
    for name in _input(env, "formats").replace(",", " ").split():
        if name not in REPORT_FORMATS:
            raise ConfigError(f"input formats: {name!r} is not one of {', '.join(REPORT_FORMATS)}")
        if name not in chosen:
            chosen.append(name)
    return tuple(chosen)

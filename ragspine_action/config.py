"""Run configuration: every knob of one evaluation, validated in one place.

The CLI (``cli.py``) and the action (``action.py``) both build a ``RunConfig``; later code
never reads flags or the environment. Each error names the option, the bad value and
what is allowed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

from .errors import ConfigError
from .gates.fabrication import DEFAULT_PERIOD_PATTERNS
from .paths import BUNDLED_BASELINE, BUNDLED_GOLDEN, BUNDLED_MANIFEST

__all__ = [
    "SUITES",
    "SYSTEMS",
    "RunConfig",
    "parse_k_list",
    "parse_suites",
    "validate_config",
]

SystemName = Literal["reference", "outcomes", "http"]
SYSTEMS: tuple[str, ...] = get_args(SystemName)
SUITES: tuple[str, ...] = ("qa", "extraction")
REFERENCE_MODES = ("tool", "agent")


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
    bootstrap_resamples: int = 5000
    bootstrap_seed: int = 2026
    kb_dir: str | None = None
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
    facts: tuple[str, ...] = ()
    ground_truth: tuple[str, ...] = ()
    extraction_manifest: str | None = str(BUNDLED_MANIFEST)
    extraction_abs_tol: float = 0.0
    extraction_rel_tol: float = 0.0
    extraction_tags_as_set: bool = False
    extraction_spans_as_ranges: bool = False
    extra: dict[str, object] = field(default_factory=dict)


def parse_k_list(raw: str, option: str = "--k") -> tuple[int, ...]:
    """'1,3,10' → (1, 3, 10); each k a positive integer."""
    ks: list[int] = []
    for part in raw.split(","):
        text = part.strip()
        if not text.isdigit() or int(text) < 1:
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


def _check_rate(name: str, value: float) -> None:
    if not 0.0 <= value <= 1.0:
        raise ConfigError(f"{name}: {value} is outside 0..1")


def validate_config(config: RunConfig) -> RunConfig:
    """Cross-option rules; returns the config unchanged when it is consistent."""
    if config.system not in SYSTEMS:
        raise ConfigError(f"--system: {config.system!r} is not one of {', '.join(SYSTEMS)}")
    if config.system == "reference" and config.mode not in REFERENCE_MODES:
        raise ConfigError(
            f"--mode: {config.mode!r} is not a mode of the reference system (tool, agent)"
        )
    if not config.mode or config.mode.startswith("_"):
        raise ConfigError(
            f"--mode: {config.mode!r} cannot be a baseline key (empty or starts with _)"
        )
    if bool(config.qrels) != bool(config.trec_run):
        raise ConfigError("--qrels and --run: give both (TREC qrels and the TREC run to score)")
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
    if config.protected_k < 1:
        raise ConfigError(f"--protected-k: {config.protected_k} must be a positive integer")
    if config.bootstrap_resamples < 0:
        raise ConfigError(f"--bootstrap-resamples: {config.bootstrap_resamples} must be ≥ 0")
    _check_rate("--faithfulness-threshold", config.faithfulness_threshold)
    _check_rate("--answer-accuracy-threshold", config.answer_accuracy_threshold)
    _check_rate("--max-error-rate", config.max_error_rate)
    return config

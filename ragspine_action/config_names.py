"""What a settings file is called and the key it gives each RunConfig field.

Apart from the file's models (``config_file``) so that a run without a settings file,
the bundled default among them, never builds them: the CLI needs these names on every
start, the models only when there is a file to read.
"""

from __future__ import annotations

__all__ = ["DEFAULT_CONFIG_NAME", "FILE_KEYS"]

DEFAULT_CONFIG_NAME = "ragspine-eval.yml"

# RunConfig field → the file's key for it, so an error names the key the user wrote.
FILE_KEYS: dict[str, str] = {
    "ks": "retrieval.k",
    "protected_k": "retrieval.protected_k",
    "relevance_level": "retrieval.relevance_level",
    "faithfulness_threshold": "judge.faithfulness_threshold",
    "judge_url": "judge.base_url",
    "judge_model": "judge.model",
    "judge_api_key_env": "judge.api_key_env",
    "judge_cache": "judge.cache",
    "judge_cache_only": "judge.cache_only",
    "judge_concurrency": "judge.concurrency",
    "judge_timeout_s": "judge.timeout",
    "judge_retries": "judge.retries",
    "judge_max_error_rate": "judge.max_error_rate",
    "judge_veto": "judge.veto",
    "answer_accuracy_threshold": "judge.answer_accuracy_threshold",
    "period_patterns": "fabrication.period_patterns",
    "endpoint": "http.endpoint",
    "headers_file": "http.headers_file",
    "concurrency": "http.concurrency",
    "timeout_s": "http.timeout_s",
    "retries": "http.retries",
    "rate_limit": "http.rate_limit",
    "max_response_bytes": "http.max_response_bytes",
    "max_error_rate": "http.max_error_rate",
    "extraction_manifest": "extraction.manifest",
    "extraction_abs_tol": "extraction.abs_tol",
    "extraction_rel_tol": "extraction.rel_tol",
    "extraction_tags_as_set": "extraction.tags_as_set",
    "extraction_spans_as_ranges": "extraction.spans_as_ranges",
    "gated_metrics": "gate.metrics",
    "gate_mode": "gate.mode",
    "gate_alpha": "gate.alpha",
    "gate_tolerance": "gate.tolerance",
    "floors": "gate.floors",
    "bootstrap_resamples": "bootstrap.resamples",
    "bootstrap_seed": "bootstrap.seed",
}

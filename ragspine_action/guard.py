"""Baseline guard for pull requests: a PR may not weaken its own gate unnoticed.

Compares what the PR head gates with what the base commit gated: the whole baseline
entry (metrics, counts, every per-case pass, rank and value, the schema version, the
``_history``), the golden set (cases removed or changed) and the gating settings of
``ragspine-eval.yml`` (``gate.metrics``, floors, thresholds, the baseline path, the mode).
Both sides are parsed exactly as a run parses them (BOM included); a side that cannot be
parsed, or a baseline that is a symlink, is a guard *problem*: the check fails, it is
never skipped with a warning. Pure: the caller fetches the base versions.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .baseline.model import BaselineEntry, BaselineFile
from .baseline.ratchet import entry_lowerings
from .baseline.store import parse_baseline
from .config_file import ConfigFile, parse_config_text
from .errors import InputError, RagspineError
from .gates.fabrication import DEFAULT_PERIOD_PATTERNS
from .jsonio import loads_strict

__all__ = [
    "GuardReport",
    "compare_baseline_files",
    "compare_baselines",
    "compare_golden_sets",
    "compare_settings",
    "golden_case_ids",
    "is_commit_id",
    "parse_baseline_bytes",
    "parse_settings_bytes",
    "render_guard",
]

_COMMIT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def is_commit_id(value: str) -> bool:
    """A full SHA-1 or SHA-256 commit id: never an option (``--output=…``) or a ref."""
    return _COMMIT_ID.fullmatch(value) is not None


@dataclass
class GuardReport:
    lowered: list[str] = field(default_factory=list)
    removed_cases: list[str] = field(default_factory=list)
    changed_cases: list[str] = field(default_factory=list)
    settings_weakened: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # changes that weaken nothing by themselves
    problems: list[str] = field(default_factory=list)  # what the guard could not trust
    new_history_records: int = 0
    baseline_changed: bool = False
    golden_changed: bool = False
    settings_changed: bool = False

    @property
    def weakened(self) -> bool:
        return bool(
            self.lowered or self.removed_cases or self.changed_cases or self.settings_weakened
        )

    @property
    def unrecorded_lowering(self) -> bool:
        """A lowered baseline value or a weakened setting without a new ``_history`` record."""
        return bool(self.lowered or self.settings_weakened) and self.new_history_records == 0

    @property
    def failed(self) -> bool:
        return bool(self.problems) or self.unrecorded_lowering


def _first_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def parse_baseline_bytes(data: bytes, name: str) -> BaselineFile:
    """A baseline exactly as a run reads it (UTF-8, optional BOM, strict JSON, the model)."""
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
        return parse_baseline(loads_strict(text), name)
    except (ValueError, RecursionError) as exc:
        raise InputError.single(name, f"invalid JSON: {_first_line(exc)}") from None


def parse_settings_bytes(data: bytes, name: str) -> ConfigFile:
    """``ragspine-eval.yml`` exactly as a run reads it."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError.single(name, f"not valid UTF-8 (byte {exc.start})") from None
    return parse_config_text(text, name)


def compare_baseline_files(
    base: bytes | None,
    head: bytes | None,
    report: GuardReport,
    *,
    base_name: str,
    head_name: str,
    pairs: list[tuple[str, str]] | None = None,
    head_case_ids: set[str] | None = None,
) -> None:
    """Parse both sides like a run and compare them; unparsable sides are problems."""
    if base is None:
        return  # a new baseline lowers nothing (the missing-baseline check judges it)
    if head is None:
        report.baseline_changed = True
        report.lowered.append(f"baseline {head_name} removed")
        return
    report.baseline_changed = base != head
    try:
        old = parse_baseline_bytes(base, f"{base_name} (base commit)")
    except RagspineError as exc:
        report.problems.append(f"cannot read the base version: {_first_line(exc)}")
        return
    try:
        new = parse_baseline_bytes(head, head_name)
    except RagspineError as exc:
        report.problems.append(_first_line(exc))
        return
    compare_baselines(old, new, report, pairs=pairs, head_case_ids=head_case_ids)


def compare_baselines(
    base: BaselineFile | Any,
    head: BaselineFile | Any,
    report: GuardReport,
    *,
    pairs: list[tuple[str, str]] | None = None,
    head_case_ids: set[str] | None = None,
) -> None:
    """Everything the head records lower than the base, entry by entry and case by case.

    Either side may be a parsed ``BaselineFile`` or the decoded JSON document (validated
    here like a run validates it). ``pairs`` adds (base key, head key) comparisons, for a
    mode renamed in the settings. ``head_case_ids``: the head golden set's ids; a case
    still in it but gone from the baseline entry has lost its protection.
    """
    if not isinstance(base, BaselineFile) or not isinstance(head, BaselineFile):
        report.baseline_changed = base != head
        try:
            base = base if isinstance(base, BaselineFile) else parse_baseline(base, "base")
        except RagspineError as exc:
            report.problems.append(f"cannot read the base version: {_first_line(exc)}")
            return
        try:
            head = head if isinstance(head, BaselineFile) else parse_baseline(head, "head")
        except RagspineError as exc:
            report.problems.append(_first_line(exc))
            return
    if head.schema_version < base.schema_version:
        report.lowered.append(
            f"_schema_version lowered {base.schema_version} → {head.schema_version}"
        )
    compared = [(key, key) for key in base.entries]
    compared += [p for p in pairs or [] if p not in compared and p[0] in base.entries]
    for old_key, new_key in compared:
        old = base.entries[old_key]
        new = head.entries.get(new_key)
        label = old_key if old_key == new_key else f"{old_key} → {new_key}"
        if new is None:
            report.lowered.append(f"baseline key '{new_key}' removed")
            continue
        report.lowered += _entry_lowerings(label, old, new, head_case_ids)
    old_history = [h.model_dump() for h in base.history]
    new_history = [h.model_dump() for h in head.history]
    if new_history[: len(old_history)] != old_history:
        report.lowered.append("_history rewritten (records removed or changed)")
        report.new_history_records = 0
    else:
        report.new_history_records = len(new_history) - len(old_history)


def _entry_lowerings(
    key: str, old: BaselineEntry, new: BaselineEntry, head_case_ids: set[str] | None
) -> list[str]:
    out: list[str] = []
    try:
        items = entry_lowerings(old, new)
    except Exception as exc:
        return [f"{key}: entries cannot be compared ({type(exc).__name__})"]
    for item in items:
        if item.kind == "metric":
            out.append(
                f"{key}/{item.metric} removed (was {item.before:.4g})"
                if item.after is None
                else f"{key}/{item.metric} lowered {item.before:.4g} → {item.after:.4g}"
            )
        elif item.kind == "count":
            out.append(f"{key}/{item.metric} allowed to rise {item.before} → {item.after}")
        else:
            out.append(f"{key}: {item.describe()}")
    # entry_lowerings treats a case absent from the new entry as removed from the golden
    # set; when the golden set still holds it, dropping it from the entry drops its
    # protection (an edited ``ids``/``passed``/``ranks``).
    kept = set(new.ids)
    for index, case_id in enumerate(old.ids):
        if case_id in kept:
            continue
        if head_case_ids is not None and case_id not in head_case_ids:
            continue  # the case left the golden set: reported as a removed case
        protected = [
            m for m, text in old.passed.items() if index < len(text) and text[index] == "1"
        ]
        if protected or (old.ranks and index < len(old.ranks) and old.ranks[index]):
            out.append(f"{key}: case {case_id} dropped from the baseline (was protected)")
    return out


def _case_records(text: str) -> dict[str, Any]:
    cases: dict[str, Any] = {}
    for number, line in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        if not line.strip():
            continue
        try:
            obj = loads_strict(line)
        except (ValueError, RecursionError):
            cases[f"(line {number})"] = line
            continue
        if isinstance(obj, dict) and isinstance(obj.get("id"), str):
            cases[obj["id"]] = obj
    return cases


def golden_case_ids(text: str) -> set[str]:
    """The ids of a golden set's text (lines that do not parse are ignored)."""
    return {k for k in _case_records(text) if not k.startswith("(line ")}


def compare_golden_sets(base_text: str, head_text: str, report: GuardReport) -> None:
    """Cases removed, and cases whose question, type or expectations changed."""
    report.golden_changed = base_text != head_text
    base, head = _case_records(base_text), _case_records(head_text)
    for case_id, old in base.items():
        new = head.get(case_id)
        if new is None:
            report.removed_cases.append(case_id)
            continue
        if not isinstance(old, dict) or not isinstance(new, dict):
            continue
        for fld in ("question", "case_type", "expected"):
            if old.get(fld) != new.get(fld):
                report.changed_cases.append(f"{case_id} ({fld})")
                break


# -- gating settings ---------------------------------------------------------------------

_DEFAULT_THRESHOLD = 0.6
_DEFAULT_PROTECTED_K = 3


def _gated(settings: ConfigFile) -> set[str] | None:
    """The gated metric names; None: every metric."""
    metrics = settings.gate.metrics
    return None if metrics == "all" else set(metrics)


def _suites(settings: ConfigFile) -> set[str]:
    suites = settings.suites
    if suites is None:
        return {"qa"}
    if suites == "all":
        return {"qa", "extraction"}
    return set(suites) if isinstance(suites, list) else {suites}


def compare_settings(base: ConfigFile, head: ConfigFile, report: GuardReport) -> None:
    """Gating settings the head loosens: metrics ungated, floors and thresholds lowered,
    protection loosened, tolerances widened, suites dropped, error budget raised."""
    weak = report.settings_weakened
    report.settings_changed = base != head
    old_gated, new_gated = _gated(base), _gated(head)
    if new_gated is not None:
        if old_gated is None:
            weak.append(f"gate.metrics: every metric → only {', '.join(sorted(new_gated))}")
        elif old_gated - new_gated:
            weak.append(f"gate.metrics: no longer gates {', '.join(sorted(old_gated - new_gated))}")
    for metric, floor in base.gate.floors.items():
        now = head.gate.floors.get(metric)
        if now is None:
            weak.append(f"gate.floors.{metric} removed (was {floor:g})")
        elif now < floor:
            weak.append(f"gate.floors.{metric} lowered {floor:g} → {now:g}")
    for name in ("faithfulness_threshold", "answer_accuracy_threshold"):
        old = getattr(base.judge, name)
        new = getattr(head.judge, name)
        old_v = _DEFAULT_THRESHOLD if old is None else old
        new_v = _DEFAULT_THRESHOLD if new is None else new
        if new_v < old_v:
            weak.append(f"judge.{name} lowered {old_v:g} → {new_v:g}")
    for name, value in base.judge.model_dump().items():
        if name not in ("faithfulness_threshold", "answer_accuracy_threshold") and value != getattr(
            head.judge, name
        ):
            weak.append(f"judge.{name} changed {value} → {getattr(head.judge, name)}")
    old_pk = base.retrieval.protected_k or _DEFAULT_PROTECTED_K
    new_pk = head.retrieval.protected_k or _DEFAULT_PROTECTED_K
    if new_pk > old_pk:
        weak.append(f"retrieval.protected_k loosened {old_pk} → {new_pk}")
    if base.retrieval.k is not None and head.retrieval.k is not None:
        dropped = set(base.retrieval.k) - set(head.retrieval.k)
        if dropped:
            weak.append(f"retrieval.k: no longer measures k={', '.join(map(str, sorted(dropped)))}")
    if base.retrieval.relevance_level != head.retrieval.relevance_level:
        weak.append(
            f"retrieval.relevance_level changed {base.retrieval.relevance_level} → "
            f"{head.retrieval.relevance_level}"
        )
    old_patterns = set(base.fabrication.period_patterns or DEFAULT_PERIOD_PATTERNS)
    new_patterns = set(head.fabrication.period_patterns or DEFAULT_PERIOD_PATTERNS)
    if new_patterns - old_patterns:
        weak.append("fabrication.period_patterns: new patterns let more numbers through")
    old_rate, new_rate = base.http.max_error_rate or 0.0, head.http.max_error_rate or 0.0
    if new_rate > old_rate:
        weak.append(f"http.max_error_rate raised {old_rate:g} → {new_rate:g}")
    for name in ("abs_tol", "rel_tol"):
        old_tol = getattr(base.extraction, name) or 0.0
        new_tol = getattr(head.extraction, name) or 0.0
        if new_tol > old_tol:
            weak.append(f"extraction.{name} widened {old_tol:g} → {new_tol:g}")
    for name in ("tags_as_set", "spans_as_ranges"):
        if getattr(head.extraction, name) and not getattr(base.extraction, name):
            weak.append(f"extraction.{name} turned on (laxer matching)")
    dropped_suites = _suites(base) - _suites(head)
    if dropped_suites:
        weak.append(f"suites: no longer runs {', '.join(sorted(dropped_suites))}")
    for name in ("system", "outcomes"):
        if getattr(base, name) != getattr(head, name):
            weak.append(f"{name} changed {getattr(base, name)} → {getattr(head, name)}")
    for name in ("baseline", "mode", "golden"):
        if getattr(base, name) != getattr(head, name):
            report.notes.append(
                f"{name} changed {getattr(base, name)} → {getattr(head, name)} "
                "(compared across the change)"
            )
    for name, value in base.gate.model_dump().items():
        if name not in ("metrics", "floors") and value != getattr(head.gate, name):
            weak.append(f"gate.{name} changed {value} → {getattr(head.gate, name)}")
    extra_base = {k: v for k, v in base.model_dump().items() if k not in _KNOWN}
    extra_head = {k: v for k, v in head.model_dump().items() if k not in _KNOWN}
    for key in sorted(set(extra_base) | set(extra_head)):
        if extra_base.get(key) != extra_head.get(key):
            weak.append(f"{key} changed (a gating setting this guard cannot rank)")


# Top-level settings judged above, or that do not change what is gated.
_KNOWN = frozenset(
    {
        "suites", "system", "mode", "golden", "outcomes", "baseline", "report", "kb_dir",
        "retrieval", "judge", "fabrication", "http", "extraction", "gate", "bootstrap",
    }
)  # fmt: skip


def render_guard(report: GuardReport, escape: Callable[[str], str]) -> list[str]:
    """Markdown lines for the top of the PR comment (``escape`` defuses untrusted text)."""
    changed = [
        n
        for n, c in (
            ("baseline", report.baseline_changed),
            ("golden set", report.golden_changed),
            ("gate settings", report.settings_changed),
        )
        if c
    ]
    if not changed and not report.problems:
        return []
    lines = (
        [f"> [!WARNING]\n> **This pull request changes the {' and the '.join(changed)}.**"]
        if changed
        else ["> [!WARNING]\n> **The baseline guard could not check this pull request.**"]
    )
    for title, items in (
        ("Guard problems", report.problems),
        ("Values lowered or dropped", report.lowered),
        ("Gate settings weakened", report.settings_weakened),
        ("Cases removed", report.removed_cases),
        ("Expectations changed", report.changed_cases),
        ("Also changed", report.notes),
    ):
        if items:
            shown = ", ".join(escape(i) for i in items[:30])
            more = f" … and {len(items) - 30} more" if len(items) > 30 else ""
            lines.append(f"> - {title} ({len(items)}): {shown}{more}")
    if report.problems:
        lines.append("> - ❌ the guard cannot vouch for this pull request: the job fails")
    elif report.unrecorded_lowering:
        lines.append(
            "> - ❌ the gate is weakened without a `_history` record "
            '(use `--update-baseline --lower-baseline "<reason>"`): the job fails'
        )
    return [*lines, ""]

"""Baseline guard for pull requests: say loudly when a PR weakens its own gate.

Compares the baseline and golden set of the PR head with the base branch's versions:
values lowered or dropped, cases removed, expectations changed. Pure: the caller fetches
the base versions (``git show`` or the contents API).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["GuardReport", "compare_baselines", "compare_golden_sets", "render_guard"]


@dataclass
class GuardReport:
    lowered: list[str] = field(default_factory=list)
    removed_cases: list[str] = field(default_factory=list)
    changed_cases: list[str] = field(default_factory=list)
    new_history_records: int = 0
    baseline_changed: bool = False
    golden_changed: bool = False

    @property
    def weakened(self) -> bool:
        return bool(self.lowered or self.removed_cases or self.changed_cases)

    @property
    def unrecorded_lowering(self) -> bool:
        """A lowered baseline value without a new ``_history`` record explaining it."""
        return bool(self.lowered) and self.new_history_records == 0


def _entries(obj: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(obj, dict):
        return {}
    return {k: v for k, v in obj.items() if not k.startswith("_") and isinstance(v, dict)}


def _metrics(entry: dict[str, Any]) -> dict[str, Any]:
    metrics = entry.get("metrics")
    return metrics if isinstance(metrics, dict) else {}


def compare_baselines(base: Any, head: Any, report: GuardReport) -> None:
    """Record every metric value that the head lowers or drops relative to the base."""
    report.baseline_changed = base != head
    head_entries = _entries(head)
    for key, entry in _entries(base).items():
        new = head_entries.get(key)
        old_metrics = _metrics(entry)
        if new is None:
            report.lowered.append(f"baseline key '{key}' removed")
            continue
        per_case = _per_case_lowerings(key, entry, new)
        if per_case is not None:
            report.lowered += per_case
            continue
        new_metrics = _metrics(new)
        for metric, value in old_metrics.items():
            now = new_metrics.get(metric)
            if not isinstance(value, int | float):
                continue
            if not isinstance(now, int | float):
                report.lowered.append(f"{key}/{metric} removed (was {value:.4g})")
            elif now < value:
                report.lowered.append(f"{key}/{metric} lowered {value:.4g} → {now:.4g}")
        old_fab, new_fab = entry.get("fabrication_count"), new.get("fabrication_count")
        if isinstance(old_fab, int) and isinstance(new_fab, int) and new_fab > old_fab:
            report.lowered.append(f"{key}/fabrication_count allowed to rise {old_fab} → {new_fab}")
    base_history = base.get("_history", []) if isinstance(base, dict) else []
    head_history = head.get("_history", []) if isinstance(head, dict) else []
    if isinstance(base_history, list) and isinstance(head_history, list):
        report.new_history_records = max(0, len(head_history) - len(base_history))


def _per_case_lowerings(key: str, old: Any, new: Any) -> list[str] | None:
    """What the head lowers, judged per case (``baseline.ratchet.entry_lowerings``) when
    both entries carry per-case digests: cases added or removed lower nothing, so a PR that
    only records new golden cases is not a weakening. None: judge the aggregates as before."""
    from .baseline.digests import CASE_COLUMN
    from .baseline.model import BaselineEntry
    from .baseline.ratchet import entry_lowerings

    try:
        before = BaselineEntry.model_validate(old, strict=True)
        after = BaselineEntry.model_validate(new, strict=True)
    except ValueError:
        return None
    if CASE_COLUMN not in before.digests or CASE_COLUMN not in after.digests:
        return None
    out: list[str] = []
    for item in entry_lowerings(before, after):
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
    return out


def _cases(text: str) -> dict[str, Any]:
    cases: dict[str, Any] = {}
    for line in text.splitlines():
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict) and isinstance(obj.get("id"), str):
            cases[obj["id"]] = obj
    return cases


def compare_golden_sets(base_text: str, head_text: str, report: GuardReport) -> None:
    """Cases removed, and cases whose question, type or expectations changed."""
    report.golden_changed = base_text != head_text
    base, head = _cases(base_text), _cases(head_text)
    for case_id, old in base.items():
        new = head.get(case_id)
        if new is None:
            report.removed_cases.append(case_id)
            continue
        for fld in ("question", "case_type", "expected"):
            if old.get(fld) != new.get(fld):
                report.changed_cases.append(f"{case_id} ({fld})")
                break


def render_guard(report: GuardReport, escape: Callable[[str], str]) -> list[str]:
    """Markdown lines for the top of the PR comment (``escape`` defuses untrusted text)."""
    if not (report.baseline_changed or report.golden_changed):
        return []
    changed = [
        n
        for n, c in (("baseline", report.baseline_changed), ("golden set", report.golden_changed))
        if c
    ]
    lines = [f"> [!WARNING]\n> **This pull request changes the {' and the '.join(changed)}.**"]
    for title, items in (
        ("Values lowered or dropped", report.lowered),
        ("Cases removed", report.removed_cases),
        ("Expectations changed", report.changed_cases),
    ):
        if items:
            shown = ", ".join(escape(i) for i in items[:30])
            more = f" … and {len(items) - 30} more" if len(items) > 30 else ""
            lines.append(f"> - {title} ({len(items)}): {shown}{more}")
    if report.unrecorded_lowering:
        lines.append(
            "> - ❌ the baseline is lowered without a `_history` record "
            '(use `--update-baseline --lower-baseline "<reason>"`): the job fails'
        )
    return [*lines, ""]

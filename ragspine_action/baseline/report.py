"""A baseline comparison in the report's terms (``BaselineSection``): shared by the run
pipeline and the merge of a sharded run."""

from __future__ import annotations

from ..errors import one_line
from ..report.model import BaselineSection, CaseCounts, CaseDelta, NotMeasured
from .model import BaselineEntry
from .ratchet import PASS, CaseDiff, Comparison, SuiteValues

__all__ = ["MAX_LISTED_CASES", "baseline_warnings", "record_case_diff", "record_comparison"]

MAX_LISTED_CASES = 1000
"""Added/removed/changed cases listed one by one per key (the counts are always whole)."""


def record_case_diff(section: BaselineSection, values: SuiteValues, diff: CaseDiff) -> None:
    """The cases added, removed and changed since the baseline, by id (added: with results)."""
    key = values.key
    section.cases[key] = CaseCounts(
        compared=diff.n_common,
        added=len(diff.added),
        removed=len(diff.removed),
        changed=len(diff.changed),
        incomparable=len(diff.incomparable),
    )
    position = {case_id: i for i, case_id in enumerate(values.ids)}
    for case_id in diff.added[:MAX_LISTED_CASES]:
        i = position[case_id]
        results = {
            metric: bool(column[i] == PASS)
            for metric, column in values.results.items()
            if column[i] >= 0
        }
        section.added.append(CaseDelta(key=key, id=case_id, results=results))
    section.removed += [CaseDelta(key=key, id=i) for i in diff.removed[:MAX_LISTED_CASES]]
    section.changed += [
        CaseDelta(key=key, id=c.id, fields=list(c.fields), comparable=c.comparable)
        for c in diff.changed[:MAX_LISTED_CASES]
    ]


def record_comparison(
    section: BaselineSection, entry: BaselineEntry, comparison: Comparison
) -> None:
    """Regressions, case changes, intervals, and the metrics not measured or not comparable."""
    key = comparison.key
    section.regressions += comparison.regressions
    section.improvements += comparison.improvements
    section.broken += comparison.broken
    section.fixed += comparison.fixed
    section.intervals.update(comparison.intervals)
    shown = dict(comparison.baseline_values)
    for metric in comparison.not_measured:
        shown[metric] = entry.metrics[metric]
        section.not_measured.append(
            NotMeasured(key=key, metric=metric, baseline=entry.metrics[metric])
        )
    for metric in comparison.not_comparable:
        shown[metric] = entry.metrics[metric]
        section.not_comparable.append(
            NotMeasured(key=key, metric=metric, baseline=entry.metrics[metric])
        )
    section.values[key] = shown
    if comparison.diff is not None:
        section.current[key] = dict(comparison.current_values)


def baseline_warnings(section: BaselineSection) -> list[str]:
    """One line each: metrics not measured or not comparable, and how the golden set moved."""
    out = [
        one_line(
            f"baseline '{m.key}': {m.metric} not measured in this run (recorded {m.baseline:.4f}): "
            "not compared; an update keeps it (pass --lower-baseline to drop it)"
        )
        for m in section.not_measured
    ]
    out += [
        one_line(
            f"baseline '{m.key}': {m.metric} has no per-case values to compare on the "
            "common cases of the changed golden set: not compared"
        )
        for m in section.not_comparable
    ]
    for key, counts in section.cases.items():
        parts = [f"{counts.compared} cases compared"]
        for label, n in (
            ("added (new: shown, not gated this run)", counts.added),
            ("removed", counts.removed),
            ("changed", counts.changed),
        ):
            if n:
                parts.append(f"{n} {label}")
        out.append(one_line(f"baseline '{key}': the golden set changed: {', '.join(parts)}"))
    return out

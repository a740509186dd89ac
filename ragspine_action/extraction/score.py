"""Align facts with ground truth by ``sheet!cell_ref`` and score each channel; pure.

Only cells present on both sides are scored. Cells on one side only are counted in
``Coverage`` (with a few example locators), so a facts file that lost half its cells shows
up there instead of silently scoring 1.0 on what is left.

The loop touches plain dicts only: a million aligned cells take about a second per
channel set on a laptop. Mismatch details are built after the loop, for failures only.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Final

from ..perf import gc_paused
from ..progress import ProgressBar
from .load import CellTable, LoadedFixture
from .models import (
    CHANNEL_FIELDS,
    CHANNELS,
    CellFormat,
    CellRecordDict,
    Channel,
    ExtractionOptions,
    span_rectangle,
)

__all__ = [
    "TOTAL",
    "ChannelResult",
    "Coverage",
    "ExtractionResult",
    "FixtureResult",
    "FormatInfo",
    "Mismatch",
    "score_fixture",
    "score_fixtures",
]

TOTAL: Final = "total"
EXAMPLES: Final = 5
_NO_TAGS: Final[list[str]] = []
# Ground-truth cells compared between two progress reports (a batch is a list of pairs).
_PROGRESS_BATCH: Final = 16_384


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One aligned cell whose field differs: what the ground truth has, what was extracted."""

    fixture: str
    locator: str
    expected: Any
    actual: Any

    def to_dict(self) -> dict[str, Any]:
        return {
            "fixture": self.fixture,
            "locator": self.locator,
            "expected": self.expected,
            "actual": self.actual,
        }


@dataclass(frozen=True)
class ChannelResult:
    """One channel's score; ``mismatches_omitted`` counts details cut by ``max_mismatches``."""

    channel: Channel
    total: int
    correct: int
    mismatches: tuple[Mismatch, ...] = ()
    mismatches_omitted: int = 0

    @property
    def accuracy(self) -> float:
        """Share of aligned cells that match; 1.0 when nothing is aligned (see Coverage)."""
        return self.correct / self.total if self.total else 1.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "correct": self.correct,
            "accuracy": self.accuracy,
            "mismatches": [m.to_dict() for m in self.mismatches],
            "mismatches_omitted": self.mismatches_omitted,
        }


@dataclass(frozen=True)
class Coverage:
    """How the two sides lined up: cells on one side only are counted, never dropped."""

    n_facts: int
    n_ground_truth: int
    aligned: int
    only_in_facts: int
    only_in_ground_truth: int
    examples_only_in_facts: tuple[str, ...] = ()
    examples_only_in_ground_truth: tuple[str, ...] = ()

    @property
    def ratio(self) -> float:
        """Share of ground-truth cells that have a fact; 1.0 for empty ground truth."""
        return self.aligned / self.n_ground_truth if self.n_ground_truth else 1.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_facts": self.n_facts,
            "n_ground_truth": self.n_ground_truth,
            "aligned": self.aligned,
            "only_in_facts": self.only_in_facts,
            "only_in_ground_truth": self.only_in_ground_truth,
            "ratio": self.ratio,
            "examples_only_in_facts": list(self.examples_only_in_facts),
            "examples_only_in_ground_truth": list(self.examples_only_in_ground_truth),
        }

    @classmethod
    def combine(cls, parts: Iterable[tuple[str, Coverage]]) -> Coverage:
        """Sum over fixtures; examples are prefixed with their fixture (``pdf:p3_t1!B4``)."""
        items = list(parts)
        return cls(
            n_facts=sum(c.n_facts for _, c in items),
            n_ground_truth=sum(c.n_ground_truth for _, c in items),
            aligned=sum(c.aligned for _, c in items),
            only_in_facts=sum(c.only_in_facts for _, c in items),
            only_in_ground_truth=sum(c.only_in_ground_truth for _, c in items),
            examples_only_in_facts=tuple(
                f"{n}:{e}" for n, c in items for e in c.examples_only_in_facts
            )[:EXAMPLES],
            examples_only_in_ground_truth=tuple(
                f"{n}:{e}" for n, c in items for e in c.examples_only_in_ground_truth
            )[:EXAMPLES],
        )


@dataclass(frozen=True)
class FormatInfo:
    """Which cell format each side used, and so which comparison semantics scored them."""

    facts: CellFormat = "rich"
    ground_truth: CellFormat = "rich"

    @property
    def comparison(self) -> CellFormat:
        """RAGSpine's exact equality as soon as either side is in its format."""
        return "ragspine" if "ragspine" in (self.facts, self.ground_truth) else "rich"

    def to_dict(self) -> dict[str, str]:
        return {
            "facts": self.facts,
            "ground_truth": self.ground_truth,
            "comparison": self.comparison,
        }


@dataclass(frozen=True)
class FixtureResult:
    """One fixture's channels and coverage, with the per-cell verdicts kept cheaply:
    the aligned locators once, and each channel's failing locators."""

    name: str
    channels: dict[Channel, ChannelResult]
    coverage: Coverage
    aligned: tuple[str, ...] = field(repr=False, default=())
    failed: dict[Channel, frozenset[str]] = field(repr=False, default_factory=dict)
    format: FormatInfo = field(default_factory=FormatInfo)

    def passed(self, channel: Channel) -> frozenset[str]:
        """Locators correct on this channel (for protected-cell checks)."""
        failed = self.failed.get(channel, frozenset())
        return frozenset(key for key in self.aligned if key not in failed)


@dataclass(frozen=True)
class ExtractionResult:
    """Per-fixture results and their sum; the suite's numbers are never merged with QA's."""

    fixtures: tuple[FixtureResult, ...]
    total: dict[Channel, ChannelResult]
    coverage: Coverage
    options: ExtractionOptions
    fingerprint: str = ""
    """Hash of the normalised ground truth: a baseline recorded for other expectations is stale."""

    @property
    def n_facts(self) -> int:
        return self.coverage.n_facts

    @property
    def format(self) -> str:
        """The comparison every fixture used: ``ragspine``, ``rich``, or ``mixed``."""
        used = {fx.format.comparison for fx in self.fixtures}
        return used.pop() if len(used) == 1 else ("mixed" if used else "rich")

    def fixture(self, name: str) -> FixtureResult:
        for result in self.fixtures:
            if result.name == name:
                return result
        raise KeyError(name)

    def flat_metrics(self) -> dict[str, float]:
        """``"<fixture>/<channel>"`` and ``"total/<channel>"`` → accuracy, for the ratchet."""
        metrics = {
            f"{fx.name}/{channel}": result.accuracy
            for fx in self.fixtures
            for channel, result in fx.channels.items()
        }
        metrics.update({f"{TOTAL}/{ch}": result.accuracy for ch, result in self.total.items()})
        return metrics

    def coverage_metrics(self) -> dict[str, float]:
        """``"<fixture>/coverage"`` and ``"total/coverage"`` → aligned share of ground truth.

        Worth ratcheting beside the channels: a facts file that stops aligning (renamed
        sheets, shifted refs) keeps perfect channel accuracies on what little is left."""
        metrics = {f"{fx.name}/coverage": fx.coverage.ratio for fx in self.fixtures}
        metrics[f"{TOTAL}/coverage"] = self.coverage.ratio
        return metrics

    def passed_cells(self) -> dict[str, frozenset[str]]:
        """``"<fixture>/<channel>"`` → locators correct now (protected cells)."""
        return {
            f"{fx.name}/{channel}": fx.passed(channel)
            for fx in self.fixtures
            for channel in fx.channels
        }

    def failed_cells(self) -> dict[str, frozenset[str]]:
        """``"<fixture>/<channel>"`` → aligned locators wrong now."""
        return {
            f"{fx.name}/{channel}": fx.failed.get(channel, frozenset())
            for fx in self.fixtures
            for channel in fx.channels
        }

    def to_dict(self) -> dict[str, Any]:
        """The report's ``extraction`` section (SPEC §8) plus per-fixture detail."""
        return {
            "n_facts": self.n_facts,
            "channels": {ch: result.to_dict() for ch, result in self.total.items()},
            "coverage": self.coverage.to_dict(),
            "format": self.format,
            "fixtures": {
                fx.name: {
                    "channels": {ch: r.to_dict() for ch, r in fx.channels.items()},
                    "coverage": fx.coverage.to_dict(),
                    "format": fx.format.to_dict(),
                }
                for fx in self.fixtures
            },
            "options": self.options.model_dump(),
        }


# ---------------------------------------------------------------------------- comparisons


def _values_match(expected: Any, actual: Any, options: ExtractionOptions) -> bool:
    """The slow path, reached only when the values are not identical and of one type."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return False  # True is not 1, and two booleans of one type were already compared
    if not isinstance(expected, int | float) or not isinstance(actual, int | float):
        return False
    if expected == actual:
        return True
    if not options.numeric_tolerance:
        return False
    try:
        return math.isclose(expected, actual, rel_tol=options.rel_tol, abs_tol=options.abs_tol)
    except OverflowError:
        return False


def _tags_match(expected: list[str], actual: list[str], options: ExtractionOptions) -> bool:
    return options.tags_as_set and set(expected) == set(actual)


def _spans_match(expected: str | None, actual: str | None, options: ExtractionOptions) -> bool:
    if not options.spans_as_ranges or expected is None or actual is None:
        return False
    return span_rectangle(expected) == span_rectangle(actual)


def _details(
    name: str,
    channel: Channel,
    failed: list[str],
    facts: CellTable,
    truth: CellTable,
    limit: int | None,
) -> tuple[tuple[Mismatch, ...], int]:
    key_field = CHANNEL_FIELDS[channel]
    kept = failed if limit is None else failed[:limit]
    details = tuple(
        Mismatch(
            name,
            key,
            truth.cells[key].get(key_field),
            facts.cells[key].get(key_field),
        )
        for key in kept
    )
    return details, len(failed) - len(kept)


# ---------------------------------------------------------------------------- scoring


def _ragspine_compare(
    facts: CellTable,
    truth: Iterable[tuple[str, CellRecordDict]],
    opts: ExtractionOptions,
    aligned: list[str],
    missing: list[str],
    bad: tuple[list[str], list[str], list[str]],
) -> None:
    """RAGSpine's comparison: each field by exact equality, a missing field is ``null``.

    So ``5 == 5.0``, a fact without ``tags`` never matches ground truth ``{}``, a missing
    ``merge_span`` matches ``null``. The options only widen it (numeric tolerance, list
    tags as a set).
    """
    get_fact = facts.cells.get
    bad_value, bad_tags, bad_span = bad
    for key, exp in truth:
        act = get_fact(key)
        if act is None:
            missing.append(key)
            continue
        aligned.append(key)
        ev = exp.get("value")
        av = act.get("value")
        if ev != av and not _values_match(ev, av, opts):
            bad_value.append(key)
        et: Any = exp.get("tags")
        at: Any = act.get("tags")
        if et != at and not (
            opts.tags_as_set
            and isinstance(et, list)
            and isinstance(at, list)
            and set(et) == set(at)
        ):
            bad_tags.append(key)
        if exp.get("merge_span") != act.get("merge_span"):
            bad_span.append(key)


def _rich_compare(
    facts: CellTable,
    truth: Iterable[tuple[str, CellRecordDict]],
    opts: ExtractionOptions,
    aligned: list[str],
    missing: list[str],
    bad: tuple[list[str], list[str], list[str]],
) -> None:
    """The rich format's comparison: missing tags are ``[]``, a boolean is never a number,
    and the options' normalisations (tolerance, tags as a set, spans as ranges)."""
    get_fact = facts.cells.get
    bad_value, bad_tags, bad_span = bad
    for key, exp in truth:
        act = get_fact(key)
        if act is None:
            missing.append(key)
            continue
        aligned.append(key)
        ev = exp["value"]
        av = act["value"]
        if not (ev is av or (type(ev) is type(av) and ev == av)) and not _values_match(
            ev, av, opts
        ):
            bad_value.append(key)
        et = exp.get("tags", _NO_TAGS)
        at = act.get("tags", _NO_TAGS)
        if et != at and not _tags_match(et, at, opts):
            bad_tags.append(key)
        es = exp.get("merge_span")
        as_ = act.get("merge_span")
        if es != as_ and not _spans_match(es, as_, opts):
            bad_span.append(key)


def score_fixture(
    name: str,
    facts: CellTable,
    truth: CellTable,
    options: ExtractionOptions | None = None,
    *,
    on_cells: Callable[[int], None] | None = None,
) -> FixtureResult:
    """Score one facts table against its ground truth on every channel.

    ``on_cells(n)`` is told after every batch of ``n`` ground-truth cells compared (a
    progress bar moves within a large fixture, not only between fixtures).
    """
    opts = options or ExtractionOptions()
    fmt = FormatInfo(facts.format, truth.format)
    aligned: list[str] = []
    bad_value: list[str] = []
    bad_tags: list[str] = []
    bad_span: list[str] = []
    missing: list[str] = []
    compare = _ragspine_compare if fmt.comparison == "ragspine" else _rich_compare
    bad_lists = (bad_value, bad_tags, bad_span)
    with gc_paused():
        if on_cells is None:
            compare(facts, truth.cells.items(), opts, aligned, missing, bad_lists)
        else:  # the same comparison, batch after batch in the same order
            cells = iter(truth.cells.items())
            while batch := list(islice(cells, _PROGRESS_BATCH)):
                compare(facts, batch, opts, aligned, missing, bad_lists)
                on_cells(len(batch))
    only_in_truth = len(missing)
    examples_truth = missing[:EXAMPLES]
    only_in_facts = len(facts.cells) - len(aligned)
    examples_facts: list[str] = []
    if only_in_facts:
        for key in facts.cells:
            if key not in truth.cells:
                examples_facts.append(key)
                if len(examples_facts) == EXAMPLES:
                    break
    coverage = Coverage(
        n_facts=len(facts.cells),
        n_ground_truth=len(truth.cells),
        aligned=len(aligned),
        only_in_facts=only_in_facts,
        only_in_ground_truth=only_in_truth,
        examples_only_in_facts=tuple(examples_facts),
        examples_only_in_ground_truth=tuple(examples_truth),
    )
    channels: dict[Channel, ChannelResult] = {}
    failed: dict[Channel, frozenset[str]] = {}
    for channel, bad in zip(CHANNELS, (bad_value, bad_tags, bad_span), strict=True):
        details, omitted = _details(name, channel, bad, facts, truth, opts.max_mismatches)
        channels[channel] = ChannelResult(
            channel, len(aligned), len(aligned) - len(bad), details, omitted
        )
        failed[channel] = frozenset(bad)
    return FixtureResult(name, channels, coverage, tuple(aligned), failed, fmt)


def _sum_channel(
    channel: Channel, parts: Sequence[ChannelResult], limit: int | None
) -> ChannelResult:
    mismatches = tuple(m for part in parts for m in part.mismatches)
    omitted = sum(part.mismatches_omitted for part in parts)
    if limit is not None and len(mismatches) > limit:
        omitted += len(mismatches) - limit
        mismatches = mismatches[:limit]
    return ChannelResult(
        channel,
        sum(part.total for part in parts),
        sum(part.correct for part in parts),
        mismatches,
        omitted,
    )


def score_fixtures(
    fixtures: Sequence[LoadedFixture],
    options: ExtractionOptions | None = None,
    *,
    progress: ProgressBar | None = None,
) -> ExtractionResult:
    """Score several fixtures; ``total`` sums totals and corrects (not an average of rates).

    ``progress`` (a terminal's bar) counts ground-truth cells, batch by batch.
    """
    opts = options or ExtractionOptions()
    scored: list[FixtureResult] = []
    if progress is None:
        scored = [score_fixture(fx.name, fx.facts, fx.ground_truth, opts) for fx in fixtures]
    else:
        progress.start(sum(len(fx.ground_truth) for fx in fixtures))
        done = 0

        def advance(n: int) -> None:
            nonlocal done
            done += n
            progress.update(done)

        try:
            for fx in fixtures:
                scored.append(
                    score_fixture(fx.name, fx.facts, fx.ground_truth, opts, on_cells=advance)
                )
            progress.update(done, final=True)
        finally:
            progress.finish()
    results = tuple(scored)
    total = {
        channel: _sum_channel(channel, [r.channels[channel] for r in results], opts.max_mismatches)
        for channel in CHANNELS
    }
    coverage = Coverage.combine((r.name, r.coverage) for r in results)
    return ExtractionResult(results, total, coverage, opts, ground_truth_fingerprint(fixtures))


# One encoder, and records encoded in batches: per-record json.dumps built a new C encoder
# each call and cost more than scoring a million cells.
_CANONICAL = json.JSONEncoder(sort_keys=True, ensure_ascii=False, default=str)
_FINGERPRINT_BATCH = 10_000


def ground_truth_fingerprint(fixtures: Sequence[LoadedFixture]) -> str:
    """Hash of the normalised ground truth: formatting and record order don't count."""
    digest = hashlib.sha256()
    for fixture in sorted(fixtures, key=lambda f: f.name):
        digest.update(fixture.name.encode("utf-8") + b"\0")
        if fixture.ground_truth.format != "rich":  # the rich format's digests stay as they were
            digest.update(b"cell_format=" + fixture.ground_truth.format.encode() + b"\0")
        cells = fixture.ground_truth.cells
        locators = sorted(cells)
        for start in range(0, len(locators), _FINGERPRINT_BATCH):
            batch = locators[start : start + _FINGERPRINT_BATCH]
            digest.update(_CANONICAL.encode([[loc, cells[loc]] for loc in batch]).encode())
            digest.update(b"\n")
    return "sha256:" + digest.hexdigest()

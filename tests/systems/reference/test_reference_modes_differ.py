"""Agent mode is a second measurement: a bug put into one path shows up as a difference
between the modes (and as failed cases in the broken mode only)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from ragspine_action.golden import load_golden_set
from ragspine_action.paths import BUNDLED_GOLDEN
from ragspine_action.systems.reference import ReferenceSystem, intent, planner

GOLDEN = load_golden_set(str(BUNDLED_GOLDEN))
NUMERIC = [c for c in GOLDEN.cases if c.expected.value is not None]


def _values(mode: str, tmp: Path) -> dict[str, float | None]:
    system = ReferenceSystem(mode, kb_dir=str(tmp))  # type: ignore[arg-type]
    return {cid: o.value for cid, o in system.collect(NUMERIC).outcomes.items()}


def _wrong(values: dict[str, float | None]) -> set[str]:
    return {c.id for c in NUMERIC if values[c.id] != c.expected.value}


def test_without_a_bug_both_modes_get_every_bundled_figure(tmp_path: Path) -> None:
    assert _wrong(_values("tool", tmp_path / "t")) == set()
    assert _wrong(_values("agent", tmp_path / "a")) == set()


def test_a_bug_in_the_intent_parser_shows_as_a_difference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tool pipeline reads Hong Kong as the mainland: agent mode, which reads the
    question itself, keeps the right figures, so the modes disagree."""
    canonical: Callable[..., tuple[str, ...]] = intent._canonical

    def swapped(masked: object, table: object) -> tuple[str, ...]:
        names = canonical(masked, table)
        return tuple("ACME_CN" if n == "ACME_HK" else n for n in names)

    monkeypatch.setattr(intent, "_canonical", swapped)
    tool, agent = _values("tool", tmp_path / "t"), _values("agent", tmp_path / "a")
    assert _wrong(tool) and not _wrong(agent)
    assert {cid for cid in tool if tool[cid] != agent[cid]} == _wrong(tool)


def test_a_bug_in_the_planner_shows_as_a_difference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The planner reads every year one too early: tool mode is untouched."""
    read_period = planner.read_period

    def off_by_one(question: str, reference_date: date) -> planner.PeriodReading:
        reading = read_period(question, reference_date)
        return replace(reading, year=reading.year - 1) if reading.year else reading

    monkeypatch.setattr(planner, "read_period", off_by_one)
    planner.read_question.cache_clear()
    try:
        tool, agent = _values("tool", tmp_path / "t"), _values("agent", tmp_path / "a")
    finally:
        planner.read_question.cache_clear()
    assert not _wrong(tool) and _wrong(agent)
    assert {cid for cid in tool if tool[cid] != agent[cid]} == _wrong(agent)


def test_the_planner_does_not_use_the_intent_parser() -> None:
    """Only the orchestrator's hard-rule check (``check_scope``) parses the question with
    the tool pipeline's parser; the planner has no access to it or to its decisions."""
    assert not {"parse_intent", "decide_scope", "Intent", "intent"} & set(vars(planner))

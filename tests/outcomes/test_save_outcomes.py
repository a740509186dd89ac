"""``save_outcomes``: JSONL that ``load_outcomes`` reads back, written atomically."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from ragspine_action.errors import ConfigError
from ragspine_action.golden.models import SourceRef
from ragspine_action.outcomes import Outcome, error_outcome, load_outcomes
from ragspine_action.outcomes.save import dump_outcome_line, save_outcomes

OUTCOMES = [
    Outcome(
        id="q1",
        answer="Revenue was 12.5 bn JPY [deck.pdf]",
        value=12.5,
        unit="bn JPY",
        source=SourceRef(doc="deck.pdf", locator="slide 3"),
        sources=[SourceRef(doc="deck.pdf", locator="slide 3"), SourceRef(doc="notes.md")],
        contexts=["Revenue: 12.5 bn JPY"],
        latency_ms=41.5,
    ),
    Outcome(id="q2", answer="営業利益は増加した。", clarification="answer_with_assumptions"),
    Outcome(id="q3", refused=True, answer="I cannot answer that."),
    error_outcome("q4", "HTTP 503: Service Unavailable; 4 attempts"),
]


def test_round_trip_through_load_outcomes(tmp_path: Path) -> None:
    path = tmp_path / "out.jsonl"
    assert save_outcomes(path, OUTCOMES) == 4
    assert load_outcomes(path) == {o.id: o for o in OUTCOMES}


def test_none_fields_are_left_out_and_text_stays_readable(tmp_path: Path) -> None:
    path = tmp_path / "out.jsonl"
    save_outcomes(path, OUTCOMES)
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) == 4 and text.endswith("\n")
    error_line = json.loads(lines[3])
    assert error_line == {
        "id": "q4",
        "answer": "",
        "clarification": "none",
        "refused": False,
        "sources": [],
        "contexts": [],
        "error": "HTTP 503: Service Unavailable; 4 attempts",
    }
    assert "営業利益" in lines[1]  # not \u-escaped
    assert dump_outcome_line(OUTCOMES[2]) == lines[2]


def test_replaces_an_existing_file_and_keeps_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "out.jsonl"
    path.write_text("old content\n", encoding="utf-8")
    path.chmod(0o640)
    save_outcomes(path, OUTCOMES[:1])
    assert load_outcomes(path) == {"q1": OUTCOMES[0]}
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl"]


def test_a_new_file_follows_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        save_outcomes(tmp_path / "new.jsonl", OUTCOMES)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.jsonl").stat().st_mode) == 0o644


def test_a_failure_midway_leaves_the_old_file_and_no_temp_file(tmp_path: Path) -> None:
    path = tmp_path / "out.jsonl"
    save_outcomes(path, OUTCOMES)
    before = path.read_bytes()

    def exploding() -> Iterator[Outcome]:
        yield OUTCOMES[0]
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        save_outcomes(path, exploding())
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl"]


def test_unwritable_targets_are_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is a directory"):
        save_outcomes(tmp_path, OUTCOMES)
    missing_dir = tmp_path / "nope" / "out.jsonl"
    with pytest.raises(ConfigError) as info:
        save_outcomes(missing_dir, OUTCOMES)
    assert (
        str(info.value) == f"{missing_dir}: cannot write saved outcomes: No such file or directory"
    )

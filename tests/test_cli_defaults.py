"""Defaults that protect the bundled data: only the bundled run is gated by the bundled baseline."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from ragspine_action.cli import build_parser, config_from_args, main
from ragspine_action.paths import BUNDLED_BASELINE

DATA = Path(__file__).resolve().parent / "data"


def _digest() -> str:
    return hashlib.sha256(BUNDLED_BASELINE.read_bytes()).hexdigest()


@pytest.mark.parametrize(
    ("argv", "bundled"),
    [
        ([], True),
        (["--mode", "agent"], True),
        (["--suite", "extraction"], True),
        (["--system", "outcomes", "--outcomes", "o.jsonl"], False),
        (["--golden", "g.jsonl"], False),
        (["--facts", "f.json", "--ground-truth", "g.json", "--suite", "extraction"], False),
        (["--baseline", "mine.json", "--golden", "g.jsonl"], False),
        (["--no-baseline"], False),
    ],
)
def test_default_baseline(argv: list[str], bundled: bool, tmp_path: Path) -> None:
    config = config_from_args(build_parser().parse_args(argv), cwd=str(tmp_path))
    assert (config.baseline == str(BUNDLED_BASELINE)) is bundled


def test_other_systems_never_write_into_the_bundled_baseline(tmp_path: Path) -> None:
    before = _digest()
    report = tmp_path / "r.json"
    args = ["--system", "outcomes", "--outcomes", str(DATA / "mini_outcomes.jsonl")]
    golden = ["--golden", str(DATA / "mini_golden.jsonl")]
    assert main([*args, *golden, "--mode", "someone-else", "--report", str(report)]) == 0
    assert json.loads(report.read_text())["baseline"]["status"] == "none"
    # Against the bundled golden set no outcome id matches: an error, and still no write.
    assert main([*args, "--mode", "someone-else", "--report", str(report), "--quiet"]) == 2
    assert json.loads(report.read_text())["verdict"] == "error"
    assert _digest() == before

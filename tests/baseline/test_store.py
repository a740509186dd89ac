"""Baseline file reading/writing, and atomicity under SIGKILL.

The kill tests run a child process that rewrites a large file in a loop and SIGKILL it at
seeded random moments: the target must always hold one complete version. A control run
with a naive ``open(path, "w")`` writer shows the harness does catch truncated files.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ragspine_action.baseline.model import BaselineEntry, BaselineFile, HistoryRecord
from ragspine_action.baseline.store import load_baseline, parse_baseline, write_baseline
from ragspine_action.errors import InputError

DATA = Path(__file__).parent.parent / "data"
REPO = Path(__file__).resolve().parents[2]
N_IDS = 150_000  # a few MB of JSON: a write takes long enough to be interrupted

CHILD = r"""
import json, os, sys, time
from pathlib import Path

kind, target, n = sys.argv[1], sys.argv[2], int(sys.argv[3])

def entry(tag):
    return {"metrics": {"numeric_accuracy": float(tag)}, "fabrication_count": 0, "n_cases": n,
            "passed": {"numeric_accuracy": [f"{tag}-{i}" for i in range(n)]}}

real_fsync = os.fsync
def slow_fsync(fd):
    real_fsync(fd)
    time.sleep(0.003)  # widen the window between the temp file and the rename
os.fsync = slow_fsync

if kind == "baseline":
    from ragspine_action.baseline.store import parse_baseline, write_baseline
    versions = [parse_baseline({"tool": entry(t)}, "x") for t in (0, 1)]
    write = lambda i: write_baseline(target, versions[i % 2])
elif kind == "report":
    from ragspine_action import cli
    from ragspine_action.config import RunConfig
    from ragspine_action.run import run
    data = sys.argv[4]
    result = run(RunConfig(system="outcomes", golden=f"{data}/mini_golden.jsonl",
                           outcomes=f"{data}/mini_outcomes.jsonl", baseline=None,
                           bootstrap_resamples=0))
    reports = [result.report.model_copy(update={"warnings": [f"{t}-{i}" for i in range(n)]})
               for t in (0, 1)]
    import inspect
    takes_report = "report" in inspect.signature(cli.write_report).parameters
    def write(i):  # the CLI's own report writer, whichever argument it takes
        result.report = reports[i % 2]
        cli.write_report(result.report if takes_report else result, target)
else:  # naive: what a non-atomic writer does
    texts = [json.dumps({"tool": entry(t)}, indent=2) + "\n" for t in (0, 1)]
    def write(i):
        with open(target, "w", encoding="utf-8") as handle:
            text = texts[i % 2]
            for start in range(0, len(text), 65536):
                handle.write(text[start:start + 65536])
                handle.flush()

write(0)
print("ready", flush=True)
i = 1
while True:
    write(i)
    i += 1
"""


def _complete_version(kind: str, path: Path) -> int | None:
    """Which version (0 or 1) the file holds completely, or None if it is damaged."""
    try:
        doc: Any = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    if kind == "report":
        warnings = doc["warnings"]
        tag = warnings[0].split("-")[0]
        ok = len(warnings) == N_IDS and warnings[-1] == f"{tag}-{N_IDS - 1}"
        return int(tag) if ok and doc["verdict"] == "pass" else None
    tool = doc["tool"]
    tag = int(tool["metrics"]["numeric_accuracy"])
    if "ids" in tool:  # written by write_baseline (schema 3): ids sorted, a pass string
        ids = tool["ids"]
        if tool["passed"]["numeric_accuracy"] != "1" * N_IDS:
            return None
    else:  # the naive writer's id lists
        ids = tool["passed"]["numeric_accuracy"]
    if len(ids) != N_IDS or f"{tag}-{N_IDS - 1}" not in ids or f"{tag}-0" not in ids:
        return None
    if kind == "baseline":
        parse_baseline(doc, str(path))
    return tag


def _kill_repeatedly(kind: str, tmp_path: Path, kills: int, seed: int) -> list[int | None]:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    target = tmp_path / ("report.json" if kind == "report" else "qa_baseline.json")
    rng = random.Random(seed)
    seen: list[int | None] = []
    for _ in range(kills):
        child = subprocess.Popen(
            [sys.executable, str(script), kind, str(target), str(N_IDS), str(DATA)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        try:
            assert child.stdout is not None
            assert child.stdout.readline().strip() == "ready"
            time.sleep(rng.uniform(0.0, 0.25))
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
        assert child.returncode == -signal.SIGKILL
        seen.append(_complete_version(kind, target))
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["baseline", "report"])
def test_sigkill_never_leaves_a_truncated_file(kind: str, tmp_path: Path) -> None:
    seen = _kill_repeatedly(kind, tmp_path, kills=10, seed=20260101)
    assert None not in seen, f"damaged file after a kill: {seen}"
    assert set(seen) <= {0, 1}


@pytest.mark.slow
def test_control_a_naive_writer_is_caught_truncated(tmp_path: Path) -> None:
    """Proves the harness above can see a half-written file."""
    seen = _kill_repeatedly("naive", tmp_path, kills=6, seed=7)
    assert None in seen


# --- reading and writing ------------------------------------------------------------------


def test_missing_baseline_is_first_run(tmp_path: Path) -> None:
    assert load_baseline(tmp_path / "nope.json") is None


def test_round_trip_keeps_entries_history_and_meta(tmp_path: Path) -> None:
    original = BaselineFile(
        entries={
            "tool": BaselineEntry(
                metrics={"numeric_accuracy": 0.5, "hit@3": 1.0},
                fabrication_count=1,
                n_cases=2,
                fingerprint="sha256:ab",
                passed={"numeric_accuracy": ["a"], "hit@3": ["a", "b"]},
                ranks={"a": 1, "b": None},
                case_values={"ndcg@3": {"a": 0.63}},
                recorded_at="2026-01-01T00:00:00+00:00",
                tool_version="1.0.0",
            )
        },
        history=[HistoryRecord(at="t", key="tool", reason="why", changes=[{"metric": "m"}])],
        extra_meta={"_comment": "kept verbatim, ünïcode too"},
    )
    path = tmp_path / "sub" / "qa_baseline.json"
    write_baseline(path, original)
    assert load_baseline(path) == original
    text = path.read_text(encoding="utf-8")
    assert text.endswith("}\n") and "ünïcode" in text
    assert next(iter(json.loads(text))) == "_schema_version"


def test_ragspine_legacy_file_loads_unchanged(tmp_path: Path) -> None:
    legacy = {
        "tool": {"metrics": {"numeric_accuracy": 1, "citation_validity": 0.95}, "n_cases": 40},
        "agent": {"metrics": {"numeric_accuracy": 0.9}, "fabrication_count": 0, "n_cases": 40},
    }
    path = tmp_path / "qa_baseline.json"
    path.write_text(json.dumps(legacy))
    loaded = load_baseline(path)
    assert loaded is not None
    assert loaded.entries["tool"].metrics == {"numeric_accuracy": 1.0, "citation_validity": 0.95}
    assert loaded.entries["tool"].fingerprint is None
    assert loaded.entries["agent"].n_cases == 40


def test_all_problems_of_a_baseline_are_reported() -> None:
    bad = {
        "tool": {"metrics": {"a": "0.5", "b": True}, "n_cases": -1},
        "agent": [],
        "_schema_version": "2",
    }
    with pytest.raises(InputError) as info:
        parse_baseline(bad, "b.json")
    fields = {p.field for p in info.value.problems}
    assert fields == {
        "tool.metrics.a",
        "tool.metrics.b",
        "tool.n_cases",
        "agent",
        "_schema_version",
    }
    assert all(str(p).startswith("b.json: ") for p in info.value.problems)


def test_failed_write_leaves_the_old_file_and_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "qa_baseline.json"
    old = BaselineFile(entries={"tool": BaselineEntry(metrics={"m": 0.5}, n_cases=1)})
    write_baseline(path, old)
    before = path.read_bytes()

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    new = BaselineFile(entries={"tool": BaselineEntry(metrics={"m": 0.9}, n_cases=1)})
    with pytest.raises(OSError):
        write_baseline(path, new)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["qa_baseline.json"]

"""--shard i/n: a stable split (pinned, independent of PYTHONHASHSEED), strict parsing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ragspine_action.cli import main
from ragspine_action.errors import ConfigError
from ragspine_action.paths import BUNDLED_GOLDEN
from ragspine_action.shard import Shard, parse_shard, select_shard, shard_of

# sha256 of the UTF-8 id, first 8 bytes big-endian, mod n, plus 1. Pinned so that no
# Python version, platform or refactoring can move a case to another shard.
PINNED = [
    ("num-001", 4, 1),
    ("nar-0000001", 4, 2),
    ("ret-0000042", 4, 1),
    ("香港-1", 4, 2),
    ("a", 4, 3),
    ("num-001", 7, 5),
    ("ret-0000042", 7, 4),
    ("香港-1", 7, 1),
]


@pytest.mark.parametrize(("case_id", "count", "expected"), PINNED)
def test_assignment_is_pinned(case_id: str, count: int, expected: int) -> None:
    assert shard_of(case_id, count) == expected


@pytest.mark.slow
def test_assignment_does_not_depend_on_the_hash_seed() -> None:
    code = (
        "import json,sys;from ragspine_action.shard import shard_of;"
        "print(json.dumps([shard_of(f'case-{i}', 5) for i in range(200)]))"
    )
    outputs = set()
    for seed in ("1", "2", "random"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1
    assert json.loads(outputs.pop()) == [shard_of(f"case-{i}", 5) for i in range(200)]


def test_shards_partition_the_cases_in_golden_order() -> None:
    ids = [f"id-{i}" for i in range(500)]
    seen: list[int] = []
    for index in range(1, 5):
        chosen, positions = select_shard(ids, ids, Shard(index, 4))
        assert positions == sorted(positions)
        assert chosen == [ids[p] for p in positions]
        assert chosen, "500 ids leave no shard of 4 empty"
        seen += positions
    assert sorted(seen) == list(range(500))


@pytest.mark.parametrize(
    ("raw", "expected"), [("1/4", Shard(1, 4)), (" 4/4 ", Shard(4, 4)), ("1/1", Shard(1, 1))]
)
def test_parse_shard(raw: str, expected: Shard) -> None:
    assert parse_shard(raw) == expected


@pytest.mark.parametrize("raw", ["0/4", "5/4", "1/0", "x", "1/4/2", "-1/4", "²/4", "1/", ""])
def test_bad_shard_is_a_config_error_naming_the_flag(raw: str) -> None:
    with pytest.raises(ConfigError, match=r"^--shard: "):
        parse_shard(raw)


def test_cli_bad_shard_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--shard", "5/4", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "--shard" in err and "Traceback" not in err


def test_a_shard_never_records_the_baseline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline = tmp_path / "b.json"
    code = main(["--shard", "1/2", "--baseline", str(baseline), "--update-baseline", "--quiet"])
    assert code == 2
    assert "--shard" in capsys.readouterr().err
    assert not baseline.exists()


def test_shard_report_holds_its_cases_and_skips_the_baseline(tmp_path: Path) -> None:
    report = tmp_path / "part.json"
    assert main(["--shard", "2/3", "--report", str(report), "--quiet"]) == 0
    data = json.loads(report.read_text(encoding="utf-8"))
    qa = data["qa"]
    all_ids = [json.loads(line)["id"] for line in BUNDLED_GOLDEN.read_text("utf-8").splitlines()]
    assert [c["id"] for c in qa["cases"]] == [i for i in all_ids if shard_of(i, 3) == 2]
    assert qa["shard"]["positions"] == [all_ids.index(c["id"]) for c in qa["cases"]]
    assert qa["golden"]["n_cases"] == len(all_ids)
    assert data["baseline"]["status"] == "none"
    assert "merge" in data["baseline"]["message"]

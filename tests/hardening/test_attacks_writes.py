"""Round-2 attacks on what the tool writes and merges (findings 12, 14, 16 and 17 of issue 17).

Concurrent runs recording one baseline must all survive; a tampered or corrupt partial
report must never merge into a green gate; no output may overwrite an input.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hardening_support import (
    MINI_GOLDEN,
    MINI_OUTCOMES,
    MUTATION_OPS,
    assert_clean_error,
    fuzz_settings,
    mutate,
    run_cli,
)
from hypothesis import given
from hypothesis import strategies as st

from ragspine_action.merge import main as merge_main

ROOT = Path(__file__).resolve().parents[2]
RUN = ["--system", "outcomes", "--golden", str(MINI_GOLDEN), "--outcomes", str(MINI_OUTCOMES)]


def test_ten_concurrent_creating_runs_keep_every_entry(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ragspine_action.cli",
                *RUN,
                "--mode",
                f"m{i}",
                "--baseline",
                str(baseline),
                "--update-baseline",  # a new key in an existing file is recorded on request
                "--quiet",
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for i in range(10)
    ]
    outputs = [p.communicate(timeout=600) for p in procs]
    codes = [p.returncode for p in procs]
    assert codes == [0] * 10, (codes, [o[1][-300:] for o in outputs])
    entries = {k for k in json.loads(baseline.read_text()) if not k.startswith("_")}
    assert entries == {f"m{i}" for i in range(10)}
    assert not any(name.endswith(".lock") for name in os.listdir(tmp_path))


@pytest.mark.parametrize("role", ["--golden", "--outcomes", "--baseline", "--config"])
@pytest.mark.parametrize("output", ["--report", "--save-outcomes"])
def test_an_output_never_overwrites_an_input(tmp_path: Path, role: str, output: str) -> None:
    golden, outcomes = tmp_path / "golden.jsonl", tmp_path / "outcomes.jsonl"
    golden.write_bytes(MINI_GOLDEN.read_bytes())
    outcomes.write_bytes(MINI_OUTCOMES.read_bytes())
    baseline, config = tmp_path / "baseline.json", tmp_path / "ragspine-eval.yml"
    args = ["--system", "outcomes", "--mode", "m", "--golden", str(golden),
            "--outcomes", str(outcomes), "--baseline", str(baseline)]  # fmt: skip
    assert run_cli(args).code == 0
    config.write_text("mode: m\n")
    args += ["--config", str(config)]
    target = {"--golden": golden, "--outcomes": outcomes, "--baseline": baseline,
              "--config": config}[role]  # fmt: skip
    before = {p: p.read_bytes() for p in (golden, outcomes, baseline, config)}
    link = tmp_path / "alias.json"
    link.symlink_to(target)
    for path in (target, link):
        result = run_cli([*args, output, str(path)])
        assert_clean_error(result)
        assert "overwrite" in result.stderr
    assert {p: p.read_bytes() for p in before} == before


def test_baseline_path_equal_to_the_golden_set_is_refused(tmp_path: Path) -> None:
    golden = tmp_path / "golden.jsonl"
    golden.write_bytes(MINI_GOLDEN.read_bytes())
    result = run_cli(["--system", "outcomes", "--mode", "m", "--golden", str(golden),
                      "--outcomes", str(MINI_OUTCOMES), "--baseline", str(golden),
                      "--update-baseline"])  # fmt: skip
    assert_clean_error(result)
    assert golden.read_bytes() == MINI_GOLDEN.read_bytes()


def _partials(tmp_path: Path, n: int = 2) -> list[Path]:
    golden = tmp_path / "golden.jsonl"
    golden.write_bytes(MINI_GOLDEN.read_bytes())
    parts = []
    for i in range(1, n + 1):
        part = tmp_path / f"p{i}.json"
        result = run_cli(["--system", "outcomes", "--golden", str(golden), "--outcomes",
                          str(MINI_OUTCOMES), "--mode", "m", "--shard", f"{i}/{n}",
                          "--report", str(part), "--quiet"])  # fmt: skip
        assert result.code == 0, result.stderr
        parts.append(part)
    return parts


def _merge(parts: list[Path]) -> tuple[int, str]:
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = merge_main([str(p) for p in parts])
    return code, err.getvalue()


def _cases(part: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    data = json.loads(part.read_text())
    return data, data["qa"]["cases"]


def test_untampered_partials_merge(tmp_path: Path) -> None:
    assert _merge(_partials(tmp_path))[0] == 0


def test_a_partial_that_swaps_a_case_id_is_refused(tmp_path: Path) -> None:
    parts = _partials(tmp_path)
    all_ids = [c["id"] for p in parts for c in _cases(p)[1]]
    for part in parts:
        data, cases = _cases(part)
        if len(cases) < 2:
            continue
        # Swap one case for another id of the same golden set: counts still add up.
        other = next(i for i in all_ids if i not in {c["id"] for c in cases})
        original = part.read_text()
        cases[0]["id"] = other
        part.write_text(json.dumps(data))
        code, err = _merge(parts)
        assert code == 2, err
        assert "Traceback" not in err
        part.write_text(original)
        # Or for the id of a case that exists nowhere.
        cases[0]["id"] = "invented"
        part.write_text(json.dumps(data))
        code, err = _merge(parts)
        assert code == 2, err
        part.write_text(original)
        return
    pytest.skip("no shard with two cases")


def test_a_partial_against_an_edited_golden_set_is_refused(tmp_path: Path) -> None:
    parts = _partials(tmp_path)
    golden = tmp_path / "golden.jsonl"
    lines = golden.read_text().splitlines()
    golden.write_text("\n".join(lines[:-1]) + "\n")
    code, err = _merge(parts)
    assert code == 2, err


@fuzz_settings(60)
@given(
    st.lists(
        st.tuples(st.sampled_from(MUTATION_OPS), st.integers(0, 10**6), st.integers(0, 10**6)),
        min_size=1,
        max_size=4,
    )
)
def test_corrupt_partials_end_in_one_clean_line(
    tmp_path_factory: pytest.TempPathFactory, ops: list[tuple[str, int, int]]
) -> None:
    root = tmp_path_factory.mktemp("merge")
    parts = _partials(root)
    parts[0].write_bytes(mutate(parts[0].read_bytes(), ops))
    code, err = _merge(parts)
    assert code in (0, 1, 2), err
    assert "Traceback" not in err
    if code == 2:
        assert err.strip()


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d["qa"]["shard"].update(positions=[10**30] * len(d["qa"]["shard"]["positions"])),
        lambda d: d["qa"]["shard"].update(positions=[-1] * len(d["qa"]["shard"]["positions"])),
        lambda d: d["qa"]["shard"].update(index=10**20),
        lambda d: d["qa"].update(n_cases=-5),
        lambda d: d.update(config=[]),
        lambda d: d["qa"].update(cases=[{"id": 5}]),
    ],
)
def test_hand_made_bad_partials_are_one_line(tmp_path: Path, edit: Any) -> None:
    parts = _partials(tmp_path)
    data = json.loads(parts[0].read_text())
    edit(data)
    parts[0].write_text(json.dumps(data))
    code, err = _merge(parts)
    assert code == 2, err
    assert "Traceback" not in err


@pytest.mark.parametrize("flag", ["--report", "--baseline"])
def test_merge_never_overwrites_a_partial(tmp_path: Path, flag: str) -> None:
    parts = _partials(tmp_path)
    before = parts[0].read_bytes()
    code, err = _merge([*parts, flag, str(parts[0])])  # type: ignore[list-item]
    assert code == 2, err
    assert "overwrite" in err
    assert parts[0].read_bytes() == before

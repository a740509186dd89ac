"""No traceback, ever (issue 15, point 7): bad flag values, output paths, encodings, bugs.

Exit 1 means a regression and nothing else: a bad value or an unwritable path is exit 2
with one line naming the flag (or the path), and a crash that escapes every handler is
an internal error, exit 3, in one line that says where to report it.
"""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ragspine_action import cli
from ragspine_action import run as run_module
from ragspine_action.action import main as action_main
from ragspine_action.console import encodable

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
MINI = [
    "--golden",
    str(DATA / "mini_golden.jsonl"),
    "--outcomes",
    str(DATA / "mini_outcomes.jsonl"),
]


def _main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = cli.main(["--no-config", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    return lines[0]


# --------------------------------------------------------------------------- flag values


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--period-pattern", "("], "--period-pattern: '(' is not a valid regular expression"),
        (["--period-pattern", "FY\\d{4", "--period-pattern", "[z-a]"], "not a valid regular"),
        (["--seed", "-5"], "--seed: -5 is outside 0.."),
        (["--bootstrap-resamples", "100000000"], "--bootstrap-resamples: 100000000 is outside"),
        (["--bootstrap-resamples", "-1"], "--bootstrap-resamples: -1 must be ≥ 0"),
        (["--k", "0"], "--k: '0' is not a comma-separated list of positive integers"),
        (["--k", "1,1000000000"], "--k: 1000000000 is outside 1..10000"),
        (["--protected-k", "1000000000"], "--protected-k: 1000000000 is outside"),
        (["--workers", "100000"], "--workers: 100000 is outside 0..256"),
        (["--workers", "-1"], "--workers: -1 must be ≥ 0"),
        (["--max-error-rate", "1.5"], "--max-error-rate: 1.5 is outside 0..1"),
        (["--max-error-rate", "nan"], "--max-error-rate: nan is outside 0..1"),
        (["--faithfulness-threshold", "-0.1"], "--faithfulness-threshold: -0.1 is outside"),
        (["--seed", "abc"], "--seed: invalid int value: 'abc'"),
        (["--max-input-bytes", "0"], "--max-input-bytes: 0 must be a positive integer"),
        (["--shard", "5/4"], "--shard: '5/4': i must be between 1 and n"),
        (["--suite", "qa,nope"], "--suite: 'qa,nope' is not one of"),
        (["--mode", "_secret"], "cannot be a baseline key"),
        (["--lower-baseline", "because"], "--lower-baseline: only makes sense together with"),
    ],
)
def test_a_bad_flag_value_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], flags: list[str], says: str
) -> None:
    code, _, err = _main(capsys, *MINI, "--no-baseline", *flags)
    assert code == 2
    assert says in _one_line(err)


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--concurrency", "1000000"], "--concurrency: 1000000 is above 512"),
        (["--concurrency", "0"], "concurrency"),
        (["--retries", "1000"], "--retries: 1000 is above 20"),
        (["--timeout", "-1"], "timeout"),
        (["--rate-limit", "0"], "rate limit"),
        (["--endpoint", "ftp://host/x"], "expected an http:// or https:// URL"),
    ],
)
def test_a_bad_http_value_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], flags: list[str], says: str
) -> None:
    args = ["--golden", str(DATA / "mini_golden.jsonl"), "--no-baseline"]
    if "--endpoint" not in flags:
        args += ["--endpoint", "http://127.0.0.1:9/x"]
    code, _, err = _main(capsys, *args, *flags)
    assert code == 2
    assert says in _one_line(err)


def test_a_bad_period_pattern_in_the_config_file_names_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "ragspine-eval.yml"
    config.write_text("fabrication:\n  period_patterns: ['FY(']\n", encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["--config", str(config), *MINI, "--no-baseline"]) == 2
    err = capsys.readouterr().err
    assert f"{config}:2: fabrication.period_patterns: 'FY(' is not a valid" in _one_line(err)


# --------------------------------------------------------------------------- output paths


@pytest.mark.parametrize("flag", ["--report", "--save-outcomes"])
def test_an_output_path_that_is_a_directory_is_exit_2_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str
) -> None:
    baseline = tmp_path / "baseline.json"
    code, _, err = _main(
        capsys, *MINI, "--mode", "m", "--baseline", str(baseline), flag, str(tmp_path)
    )
    assert code == 2
    assert f"{flag} {tmp_path}: is a directory" in _one_line(err)
    assert not baseline.exists(), "nothing is done before the outputs are known to be writable"


def test_an_output_under_a_file_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    code, _, err = _main(capsys, *MINI, "--no-baseline", "--report", str(blocker / "r.json"))
    assert code == 2
    assert "is not a directory" in _one_line(err) and "--report" in err


def test_a_baseline_that_is_a_directory_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _main(capsys, *MINI, "--mode", "m", "--baseline", str(tmp_path))
    assert code == 2
    assert str(tmp_path) in _one_line(err) and "directory" in err


def test_a_device_as_output_is_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this platform")
    code, _, err = _main(capsys, *MINI, "--no-baseline", "--save-outcomes", "/dev/full")
    assert code == 2
    assert "--save-outcomes /dev/full: exists and is not a regular file" in _one_line(err)


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_an_unwritable_directory_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        code, _, err = _main(capsys, *MINI, "--no-baseline", "--report", str(locked / "r.json"))
    finally:
        locked.chmod(0o700)
    assert code == 2 and "permission denied" in _one_line(err)


def _disk_full(monkeypatch: pytest.MonkeyPatch) -> None:
    def fsync(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", fsync)


def test_a_full_disk_while_writing_the_report_is_exit_2_after_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _disk_full(monkeypatch)
    report = tmp_path / "r.json"
    code, out, err = _main(capsys, *MINI, "--no-baseline", "--report", str(report))
    assert code == 2
    line = _one_line(err)
    assert f"--report {report}: cannot write: no space left on the device" in line
    assert "ragspine-eval: PASS" in out, "the verdict is still shown"
    assert not report.exists() and not list(tmp_path.glob(".r.json.*")), "no half-written file"


def test_a_full_disk_while_writing_the_baseline_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _disk_full(monkeypatch)
    baseline = tmp_path / "b.json"
    code, _, err = _main(capsys, *MINI, "--mode", "m", "--baseline", str(baseline))
    assert code == 2
    assert f"--baseline {baseline}: cannot write: no space left" in _one_line(err)
    assert not baseline.exists()


def test_a_full_disk_while_saving_outcomes_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _disk_full(monkeypatch)
    saved = tmp_path / "saved.jsonl"
    code, _, err = _main(capsys, *MINI, "--no-baseline", "--save-outcomes", str(saved))
    assert code == 2
    assert str(saved) in _one_line(err) and "no space left" in err.lower()


def test_merge_with_a_report_directory_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parts = []
    for i in (1, 2):
        part = tmp_path / f"part{i}.json"
        args = [*MINI, "--mode", "m", "--no-baseline", "--shard", f"{i}/2"]
        assert _main(capsys, *args, "--report", str(part))[0] in (0, 1)
        parts.append(str(part))
    capsys.readouterr()
    code = cli.main(["merge", *parts, "--report", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert f"--report {tmp_path}: is a directory" in _one_line(err)


# --------------------------------------------------------------------------- internal errors


def test_a_crash_is_an_internal_error_exit_3(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(cli, "run", broken)
    code, _out, err = _main(capsys, *MINI, "--no-baseline")
    assert code == 3
    line = _one_line(err)
    assert line.startswith("ragspine-eval: internal error")
    assert "ZeroDivisionError: division by zero" in line and "please report it" in line


def test_a_crash_in_merge_is_exit_3(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from ragspine_action import merge

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise KeyError("oops")

    monkeypatch.setattr(merge, "load_partial_report", broken)
    capsys.readouterr()
    assert cli.main(["merge", "a.json"]) == 3
    assert "internal error" in _one_line(capsys.readouterr().err)


def test_a_crash_in_the_action_is_exit_3(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ragspine_action import action

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("unexpected")

    monkeypatch.setattr(action, "run", broken)
    out = io.StringIO()
    env = {"GITHUB_WORKSPACE": str(tmp_path), "INPUT_REPORT": str(tmp_path / "r.json")}
    assert action_main(env, out) == 3
    assert "internal error" in out.getvalue() and "RuntimeError: unexpected" in out.getvalue()
    assert "Traceback" not in out.getvalue()


def test_a_crash_in_scoring_is_exit_3_not_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise IndexError("list index out of range")

    monkeypatch.setattr(run_module, "check_floors", broken)
    code, _, err = _main(capsys, *MINI, "--no-baseline")
    assert code == 3 and "IndexError" in _one_line(err)


# --------------------------------------------------------------------------- encodings


def _cli_process(env_extra: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **env_extra}
    return subprocess.run(
        [sys.executable, "-m", "ragspine_action.cli", "--no-config", *argv],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        env=env,
        cwd=ROOT,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize("encoding", ["ascii", "cp1252", "latin-1"])
def test_the_bundled_run_prints_on_a_narrow_console(encoding: str) -> None:
    got = _cli_process({"PYTHONIOENCODING": encoding}, "--bootstrap-resamples", "200")
    assert got.returncode == 0, got.stderr
    assert "Traceback" not in got.stdout + got.stderr
    assert "PASS" in got.stdout and "delta" in got.stdout  # Δ fell back to ASCII
    assert "Δ" not in got.stdout


def test_errors_print_on_an_ascii_console(tmp_path: Path) -> None:
    got = _cli_process({"PYTHONIOENCODING": "ascii"}, "--floor", "fabrication_count=-1")
    assert got.returncode == 2 and "Traceback" not in got.stderr
    assert ">= 0" in got.stderr  # ≥ fell back to ASCII


def test_help_prints_on_an_ascii_console() -> None:
    got = _cli_process({"PYTHONIOENCODING": "ascii"}, "--help")
    assert got.returncode == 0 and "Traceback" not in got.stderr
    assert "3 internal" in got.stdout


def test_ascii_fallback_keeps_what_the_console_can_show() -> None:
    class Narrow(io.StringIO):
        encoding = "ascii"

    text = "recall@3 Δ +0.10 · 案例 → ≥ 0.6 …"
    assert encodable(text, Narrow()) == "recall@3 delta +0.10 - ?? -> >= 0.6 ..."

    class Wide(io.StringIO):
        encoding = "utf-8"

    assert encodable(text, Wide()) == text


def test_a_report_of_an_error_run_is_valid_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outcomes = tmp_path / "o.jsonl"
    outcomes.write_text('{"id": "zzz", "answer": "x"}\n', encoding="utf-8")
    report = tmp_path / "r.json"
    args = ["--golden", str(DATA / "mini_golden.jsonl"), "--outcomes", str(outcomes)]
    code, out, _err = _main(capsys, *args, "--no-baseline", "--report", str(report))
    assert code == 2
    data = json.loads(report.read_text())
    assert data["verdict"] == "error" and data["exit_code"] == 2
    assert any("0 of 1 outcome ids match" in w for w in data["warnings"])
    assert "ragspine-eval: ERROR" in out


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--baseline", "{tmp}/b.json", "--report", "{tmp}/b.json"], "--report and --baseline"),
        (["--no-baseline", "--report", "{outcomes}"], "--report and --outcomes name the same"),
        (["--no-baseline", "--report", "{golden}"], "--report and --golden name the same"),
        (["--no-baseline", "--save-outcomes", "{golden}"], "--save-outcomes and --golden"),
        (
            ["--no-baseline", "--save-outcomes", "{tmp}/s", "--report", "{tmp}/./s"],
            "--report and --save-outcomes",
        ),
    ],
)
def test_an_output_over_another_file_is_exit_2_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], says: str
) -> None:
    golden, outcomes = DATA / "mini_golden.jsonl", DATA / "mini_outcomes.jsonl"
    before = {p: p.read_bytes() for p in (golden, outcomes)}
    args = [
        f.format(tmp=tmp_path, golden=golden, outcomes=outcomes) for f in flags
    ]  # the user's paths
    code, _, err = _main(capsys, *MINI, "--mode", "m", *args)
    assert code == 2 and says in _one_line(err)
    assert {p: p.read_bytes() for p in before} == before
    assert not list(tmp_path.iterdir()), "nothing written"


def test_a_bad_gate_value_names_the_flag_or_the_file_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _main(capsys, *MINI, "--mode", "m", "--no-baseline", "--gate-alpha", "2")
    assert code == 2 and "--gate-alpha: 2.0 must be between 0 and 1" in _one_line(err)
    code, _, err = _main(capsys, *MINI, "--mode", "m", "--no-baseline", "--repeats", "5000")
    assert code == 2 and "--repeats: 5000 is outside 0..1000" in _one_line(err)

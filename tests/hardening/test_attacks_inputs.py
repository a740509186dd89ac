"""Round-2 attacks on the inputs (findings 8, 9, 10, 13, 14 and 20 of issue 17).

Every input file goes through one reader (``ragspine_action.input_files``): devices,
FIFOs and symlinks to them are refused before a byte is read, sizes are capped whatever
the file claims, problems are capped, and no error echoes the file's content beyond the
offending key and line. YAML settings refuse alias bombs, deep nesting and duplicate keys.
"""

from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path

import pytest
from hardening_support import MINI_GOLDEN, MINI_OUTCOMES, assert_clean_error, run_cli
from hypothesis import given
from hypothesis import strategies as st

from ragspine_action.action import main as action_main
from ragspine_action.errors import MAX_SHOWN_PROBLEMS, InputError
from ragspine_action.input_files import open_input, read_input_bytes

SECRET = "AKIAZZSECRETVALUE0042"
CREDENTIALS = {"aws_access_key_id": SECRET, "password": "hunter2-secret", "port": 5432}

OUTCOMES_RUN = ["--system", "outcomes", "--mode", "m"]


def _run(golden: Path | str = MINI_GOLDEN, outcomes: Path | str = MINI_OUTCOMES, *extra: str):  # type: ignore[no-untyped-def]
    own = [] if "--baseline" in extra else ["--no-baseline"]
    args = [*OUTCOMES_RUN, *own, "--golden", str(golden), "--outcomes", str(outcomes), *extra]
    return run_cli(args)


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.jsonl"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/urandom", "/dev/null", "fifo"])
@pytest.mark.parametrize("role", ["golden", "outcomes", "baseline", "config", "headers"])
def test_devices_fifos_and_symlinks_to_them_are_refused(
    tmp_path: Path, fifo: Path, target: str, role: str
) -> None:
    source = fifo if target == "fifo" else Path(target)
    link = tmp_path / f"{role}.link"
    link.symlink_to(source)
    args = {
        "golden": ["--golden", str(link), "--outcomes", str(MINI_OUTCOMES)],
        "outcomes": ["--golden", str(MINI_GOLDEN), "--outcomes", str(link)],
        "baseline": ["--golden", str(MINI_GOLDEN), "--outcomes", str(MINI_OUTCOMES),
                     "--baseline", str(link)],
        "config": ["--config", str(link), "--golden", str(MINI_GOLDEN), "--outcomes",
                   str(MINI_OUTCOMES)],
        "headers": ["--system", "http", "--endpoint", "http://127.0.0.1:9/", "--headers-file",
                    str(link), "--golden", str(MINI_GOLDEN)],
    }[role]  # fmt: skip
    mode = ["--mode", "m"] if role == "headers" else ["--system", "outcomes", "--mode", "m"]
    result = run_cli([*mode, *args])
    assert result.code == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert "symlink to" in result.stderr or "not a regular file" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_a_direct_fifo_does_not_hang(fifo: Path) -> None:
    result = _run(fifo)
    assert_clean_error(result, fifo)
    assert "FIFO" in result.stderr


def test_proc_file_reporting_size_zero_is_still_capped(tmp_path: Path) -> None:
    # /proc/self/environ says 0 bytes and then hands out the environment.
    with pytest.raises(InputError, match="over the limit of 16 bytes"):
        read_input_bytes("/proc/self/environ", 16)
    with open_input("/proc/self/status", 1 << 20) as handle:
        assert handle.read(4)


def test_headers_file_pointing_at_the_environment_echoes_no_value(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("RAGSPINE_TEST_SECRET", SECRET)
    link = tmp_path / "headers.txt"
    link.symlink_to("/proc/self/environ")
    result = run_cli(["--system", "http", "--endpoint", "http://127.0.0.1:9/", "--mode", "m",
                      "--headers-file", str(link), "--golden", str(MINI_GOLDEN)])  # fmt: skip
    assert result.code == 2 and "Traceback" not in result.stderr
    assert SECRET not in result.stderr + result.stdout
    assert "RAGSPINE_TEST_SECRET" not in result.stderr


@pytest.mark.parametrize("role", ["baseline", "golden", "outcomes", "config", "facts", "event"])
def test_a_file_symlinked_to_credentials_does_not_print_them(
    tmp_path: Path, role: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    creds = tmp_path / "credentials.json"
    creds.write_text(json.dumps(CREDENTIALS))
    link = tmp_path / f"{role}.json"
    link.symlink_to(creds)
    if role == "event":
        log = io.StringIO()
        code = action_main({"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(link),
                            "GITHUB_REPOSITORY": "a/b", "INPUT_MODE": "m"}, log)  # fmt: skip
        text = log.getvalue()
        assert code == 2
    else:
        args = {
            "baseline": ["--golden", str(MINI_GOLDEN), "--outcomes", str(MINI_OUTCOMES),
                         "--baseline", str(link)],
            "golden": ["--golden", str(link), "--outcomes", str(MINI_OUTCOMES)],
            "outcomes": ["--golden", str(MINI_GOLDEN), "--outcomes", str(link)],
            "config": ["--config", str(link), "--golden", str(MINI_GOLDEN), "--outcomes",
                       str(MINI_OUTCOMES)],
            "facts": ["--suite", "extraction", "--facts", str(link), "--ground-truth", str(link)],
        }[role]  # fmt: skip
        system = [] if role == "facts" else ["--system", "outcomes"]
        result = run_cli([*system, "--mode", "m", *args])
        assert result.code == 2, result.stderr
        assert "Traceback" not in result.stderr
        text = result.stderr + result.stdout
    for value in (SECRET, "hunter2-secret", "5432"):
        assert value not in text, text


@pytest.mark.parametrize("role", ["golden", "outcomes"])
@pytest.mark.parametrize(
    "line", [b"{not json at all, " + b"x" * 40 + b"\n", b'{"id": "x", "question": ""}\n']
)
def test_twenty_megabytes_of_bad_lines_end_quickly_with_bounded_output(
    tmp_path: Path, role: str, line: bytes
) -> None:
    bad = tmp_path / "bad.jsonl"
    with bad.open("wb") as handle:
        handle.write(line * (20 * 1024 * 1024 // len(line)))
    result = _run(bad) if role == "golden" else _run(MINI_GOLDEN, bad)
    assert_clean_error(result, bad)
    lines = result.stderr.strip().splitlines()
    assert 1 <= len(lines) <= MAX_SHOWN_PROBLEMS + 1, len(lines)
    if len(lines) > 1:  # a file that is not JSONL at all may be refused in one line
        assert "more problems" in lines[-1]
    assert len(result.stderr) < 20_000


def test_problem_count_is_exact_below_the_stop(tmp_path: Path) -> None:
    golden = tmp_path / "golden.jsonl"
    golden.write_text("nope\n" * 120)
    result = _run(golden)
    assert_clean_error(result, golden)
    assert result.stderr.strip().splitlines()[-1].endswith("… and 70 more problems")


@pytest.mark.parametrize(
    "doc",
    [
        {"tool": {"metrics": {"x": 1e400}, "n_cases": 1}},
        {"tool": {"metrics": {"x": 0.5}, "n_cases": 10**30}},
        {"tool": {"metrics": {}, "n_cases": 1, "ids": ["a"], "ranks": [10**25]}},
        {"tool": {"metrics": {}, "n_cases": 1, "ids": ["a"], "case_values": {"m": [-1e999]}}},
    ],
)
def test_overflowing_baseline_numbers_are_one_line_errors(tmp_path: Path, doc: object) -> None:
    baseline = tmp_path / "baseline.json"
    text = json.dumps(doc).replace("Infinity", "1e400").replace("-1e400", "-1e999")
    baseline.write_text(text)
    result = _run(MINI_GOLDEN, MINI_OUTCOMES, "--baseline", str(baseline))
    assert_clean_error(result, baseline)


@pytest.mark.parametrize("version", [0, 99, -1, 10**6])
def test_unknown_schema_version_is_refused(tmp_path: Path, version: int) -> None:
    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps({"_schema_version": version}))
    result = _run(MINI_GOLDEN, MINI_OUTCOMES, "--baseline", str(baseline))
    assert_clean_error(result, baseline)
    assert "schema version" in result.stderr


def test_baseline_with_a_bom_is_read_like_without(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    assert _run(MINI_GOLDEN, MINI_OUTCOMES, "--baseline", str(baseline)).code == 0
    baseline.write_bytes(b"\xef\xbb\xbf" + baseline.read_bytes())
    assert _run(MINI_GOLDEN, MINI_OUTCOMES, "--baseline", str(baseline)).code == 0


@pytest.mark.parametrize("grade", ["99999999999999999999999", "9" * 5000, "2147483648"])
def test_oversized_relevance_grades_are_one_line_errors(tmp_path: Path, grade: str) -> None:
    golden = tmp_path / "golden.jsonl"
    golden.write_text(
        '{"id": "r1", "question": "q", "case_type": "retrieval", '
        f'"expected": {{"relevant_docs": {{"a": {grade}}}}}}}\n'
    )
    outcomes = tmp_path / "outcomes.jsonl"
    outcomes.write_text('{"id": "r1", "sources": [{"doc": "a"}]}\n')
    assert_clean_error(_run(golden, outcomes), golden)
    qrels, trec_run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.write_text(f"q1 0 a {grade}\n")
    trec_run.write_text("q1 Q0 a 1 1.0 r\n")
    result = run_cli(["--qrels", str(qrels), "--run", str(trec_run), "--mode", "m",
                      "--no-baseline"])  # fmt: skip
    assert_clean_error(result, qrels)


BOMB = "\n".join(
    ["a: &a [" + ",".join(['"lol"'] * 9) + "]"]
    + [
        f"{c}: &{c} [" + ",".join([f"*{p}"] * 9) + "]"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    ]
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (BOMB, "alias"),
        ("mode: " + "[" * 3000 + "]" * 3000, "nested"),
        ("gate:\n  metrics: " + "[" * 40 + "]" * 40, "nested"),
        ("mode: tool\nmode: agent\n", "duplicate key 'mode'"),
        ("gate:\n  floors:\n    faithfulness: 0.9\n    faithfulness: 0.1\n", "duplicate key"),
        ("a: !!python/object/apply:os.system ['true']\n", "invalid YAML"),
    ],
)
def test_hostile_yaml_is_one_line(tmp_path: Path, text: str, expected: str) -> None:
    config = tmp_path / "ragspine-eval.yml"
    config.write_text(text)
    result = run_cli(["--config", str(config), "--golden", str(MINI_GOLDEN)])
    assert_clean_error(result, config)
    assert len(result.stderr.strip().splitlines()) == 1
    assert expected in result.stderr


def test_config_with_a_bom_loads(tmp_path: Path) -> None:
    config = tmp_path / "ragspine-eval.yml"
    config.write_bytes(b"\xef\xbb\xbfsystem: outcomes\nmode: m\n")
    assert _run(MINI_GOLDEN, MINI_OUTCOMES, "--config", str(config)).code == 0


def test_event_file_at_dev_zero_is_one_line(tmp_path: Path) -> None:
    log = io.StringIO()
    env = {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": "/dev/zero",
           "GITHUB_REPOSITORY": "a/b", "INPUT_MODE": "m"}  # fmt: skip
    assert action_main(env, log) == 2
    assert "character device" in log.getvalue()
    assert "Traceback" not in log.getvalue()


@given(st.lists(st.sampled_from(["dir", "fifo", "missing", "dev", "ok"]), min_size=1, max_size=3))
def test_reader_refuses_every_non_regular_target(kinds: list[str]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as raw:
        root = Path(raw)
        for index, kind in enumerate(kinds):
            path = root / f"f{index}"
            if kind == "dir":
                path.mkdir()
            elif kind == "fifo":
                os.mkfifo(path)
            elif kind == "dev":
                path.symlink_to("/dev/zero")
            elif kind == "ok":
                path.write_bytes(b"{}")
            if kind == "ok":
                assert read_input_bytes(path, 10) == b"{}"
            else:
                with pytest.raises(InputError):
                    read_input_bytes(path, 10)
        shutil.rmtree(root)
        root.mkdir()


@pytest.mark.parametrize(
    "content",
    [
        f"TOKEN={SECRET}\x00PATH=/usr/bin:/bin\x00",
        f"TOKEN={SECRET} x: y\n",
        f'{{"{SECRET} bad": "v"}}',
        f"X-Key {SECRET}\n",
    ],
)
def test_headers_file_errors_never_quote_the_file(tmp_path: Path, content: str) -> None:
    headers = tmp_path / "headers"
    headers.write_text(content)
    result = run_cli(["--system", "http", "--endpoint", "http://127.0.0.1:9/", "--mode", "m",
                      "--headers-file", str(headers), "--golden", str(MINI_GOLDEN)])  # fmt: skip
    assert result.code == 2 and "Traceback" not in result.stderr
    assert SECRET not in result.stderr + result.stdout


def test_trec_files_with_a_bom_score_like_without(tmp_path: Path) -> None:
    qrels, trec_run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    plain = []
    for bom in (b"", b"\xef\xbb\xbf"):
        qrels.write_bytes(bom + b"q1 0 a 1\nq2 0 b 1\n")
        trec_run.write_bytes(b"q1 Q0 a 1 1.0 r\nq2 Q0 c 1 1.0 r\n")  # no BOM: ids must match
        report = tmp_path / f"r{len(bom)}.json"
        result = run_cli(["--qrels", str(qrels), "--run", str(trec_run), "--mode", "m",
                          "--no-baseline", "--report", str(report)])  # fmt: skip
        assert result.code == 1, result.stderr  # q2 misses: with no baseline every query must hit
        plain.append(json.loads(report.read_text())["qa"]["retrieval"]["overall"])
    assert plain[0] == plain[1]

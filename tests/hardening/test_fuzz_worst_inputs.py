"""The worst inputs the fuzzers found, kept as regression tests.

Files under ``corpus/<kind>/`` must each end in exit 2 with located one-line errors and no
traceback; the inline cases are non-file inputs (flags, headers, env) that once crashed.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hardening_support import CORPUS, MINI_GOLDEN, MINI_OUTCOMES, assert_clean_error, run_cli

from ragspine_action.config import action_inputs_from_env
from ragspine_action.errors import ConfigError

TRUTH = CORPUS.parents[2] / "data" / "fixtures" / "fixtures_ground_truth.json"
QRELS_OK = b"q1 0 d1 1\n"
RUN_OK = b"q1 Q0 d1 1 1.0 sys\n"


def _argv(kind: str, path: Path, work: Path) -> list[str]:
    qa = ["--system", "outcomes", "--mode", "corpus", "--no-baseline"]
    if kind == "golden":
        return [*qa, "--golden", str(path), "--outcomes", str(MINI_OUTCOMES)]
    if kind == "outcomes":
        return [*qa, "--golden", str(MINI_GOLDEN), "--outcomes", str(path)]
    if kind == "baseline":
        copy = work / "baseline.json"
        shutil.copy(path, copy)
        return ["--system", "outcomes", "--mode", "corpus", "--golden", str(MINI_GOLDEN),
                "--outcomes", str(MINI_OUTCOMES), "--baseline", str(copy)]  # fmt: skip
    if kind in ("qrels", "run"):
        other = work / "other.txt"
        other.write_bytes(RUN_OK if kind == "qrels" else QRELS_OK)
        qrels, run = (path, other) if kind == "qrels" else (other, path)
        return ["--qrels", str(qrels), "--run", str(run), "--no-baseline"]
    if kind == "facts":
        return ["--suite", "extraction", "--facts", str(path), "--ground-truth", str(TRUTH),
                "--no-baseline"]  # fmt: skip
    raise AssertionError(kind)


CLI_KINDS = ("golden", "outcomes", "baseline", "qrels", "run", "facts")
CASES = sorted(p for kind in CLI_KINDS for p in (CORPUS / kind).glob("*") if p.is_file())


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.name}" for p in CASES])
def test_corpus_file_is_a_located_error(path: Path, tmp_path: Path) -> None:
    argv = _argv(path.parent.name, path, tmp_path)
    result = run_cli([*argv, "--report", str(tmp_path / "report.json")])
    located = [a for a in argv if a.startswith(str(tmp_path)) or a == str(path)]
    assert_clean_error(result, *located)
    assert not (tmp_path / "report.json").exists()


@pytest.mark.parametrize(
    "argv",
    [["--k", "²"], ["--k", "1,²"], ["--k", "١"], ["--protected-k", "0"], ["--k", ""]],
)
def test_bad_numbers_in_flags_are_config_errors(argv: list[str]) -> None:
    result = run_cli(["--system", "outcomes", "--golden", str(MINI_GOLDEN),
                      "--outcomes", str(MINI_OUTCOMES), "--no-baseline", *argv])  # fmt: skip
    assert_clean_error(result)


@pytest.mark.parametrize("raw", ["²", "١٢", "0", "91", "1e1", " 5x"])
def test_bad_retention_days_is_a_config_error(raw: str) -> None:
    with pytest.raises(ConfigError, match="artifact-retention-days"):
        action_inputs_from_env({"INPUT_ARTIFACT-RETENTION-DAYS": raw})

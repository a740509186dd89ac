"""report.write: one format for every report, whoever encodes the case lines.

The report is indented JSON with one compact line per case; the lines come from the
table itself or from files the workers wrote. Both must give the same bytes, and the
workers' files must not outlive the table they belong to.
"""

from __future__ import annotations

import gc
import json
import os
from pathlib import Path
from types import ModuleType

import pytest

from ragspine_action.config import RunConfig
from ragspine_action.report.cases import CaseTable
from ragspine_action.report.write import encode_report, write_report
from ragspine_action.run import run

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory, bench_synth: ModuleType) -> tuple[Path, Path]:
    golden, outcomes = bench_synth.write_qa(tmp_path_factory.mktemp("synth"), 2500)
    return Path(golden), Path(outcomes)


def _config(inputs: tuple[Path, Path], report: Path | None, workers: int) -> RunConfig:
    golden, outcomes = inputs
    return RunConfig(
        system="outcomes",
        golden=str(golden),
        outcomes=str(outcomes),
        baseline=None,
        bootstrap_resamples=0,
        report=None if report is None else str(report),
        workers=workers,
    )


def test_worker_encoded_lines_equal_the_tables_own(
    inputs: tuple[Path, Path], tmp_path: Path
) -> None:
    result = run(_config(inputs, tmp_path / "r.json", workers=2))
    assert result.report.qa is not None
    table = result.report.qa.cases
    assert isinstance(table, CaseTable) and table.encoded_parts is not None
    assert len(table.encoded_parts) == 2 and all(os.path.getsize(p) for p in table.encoded_parts)
    from_workers = b"".join(encode_report(result.report))
    write_report(result.report, tmp_path / "copied.json")  # the files copied by the kernel
    assert (tmp_path / "copied.json").read_bytes() == from_workers
    table.encoded_parts = None
    from_table = b"".join(encode_report(result.report))
    assert from_workers == from_table
    # one line per case inside qa.cases, and the whole is the model's JSON
    lines = from_table.decode().splitlines()
    case_lines = [line for line in lines if line.startswith('      {"id":')]
    assert len(case_lines) == 2500
    assert json.loads(from_table) == json.loads(result.report.model_dump_json(by_alias=True))


def test_without_a_report_nothing_is_encoded(inputs: tuple[Path, Path]) -> None:
    result = run(_config(inputs, None, workers=2))
    assert result.report.qa is not None
    table = result.report.qa.cases
    assert isinstance(table, CaseTable) and table.encoded_parts is None


def test_the_workers_files_go_with_the_table(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    result = run(_config(inputs, tmp_path / "r.json", workers=2))
    assert result.report.qa is not None
    table = result.report.qa.cases
    assert isinstance(table, CaseTable) and table.encoded_parts
    folder = Path(table.encoded_parts[0]).parent
    assert folder.is_dir()
    write_report(result.report, tmp_path / "r.json")
    del table, result
    gc.collect()
    assert not folder.exists()


def test_an_empty_case_list_is_an_empty_array(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    result = run(_config(inputs, tmp_path / "r.json", workers=1))
    assert result.report.qa is not None
    report = result.report.model_copy(
        update={"qa": result.report.qa.model_copy(update={"cases": []})}
    )
    data = json.loads(b"".join(encode_report(report)))
    assert data["qa"]["cases"] == []


def test_a_declined_input_leaves_no_files_behind(
    inputs: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    from ragspine_action.errors import InputError

    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    golden, outcomes = inputs
    broken = tmp_path / "golden.jsonl"
    lines = golden.read_text(encoding="utf-8").splitlines()
    lines[2000] = lines[2000].replace('"question"', '"questions"')  # found by the 2nd worker
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    config = _config((broken, outcomes), tmp_path / "r.json", workers=2)
    with pytest.raises(InputError, match=r"golden\.jsonl:2001"):
        run(config)
    assert list(scratch.iterdir()) == []

"""Where the bundled data is found: the package's copy, else the checkout, or RAGSPINE_DATA_DIR;
and ``python -m ragspine_action.schema`` never writes into an installed package."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ragspine_action import paths, schema
from ragspine_action.paths import bundled_dir

ROOT = Path(__file__).resolve().parents[1]


def _package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> Path:
    """An importable package NAME under tmp_path/site (stands in for site-packages)."""
    site = tmp_path / "site"
    (site / name).mkdir(parents=True)
    (site / name / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(site))
    return site / name


def test_the_packaged_copy_comes_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = _package(tmp_path, monkeypatch, "pkg_with_data")
    (package / "_data" / "golden").mkdir(parents=True)
    checkout = tmp_path / "repo"
    (checkout / "data").mkdir(parents=True)
    found = bundled_dir("_data", "data", package="pkg_with_data", checkout_root=checkout)
    assert found == package / "_data"


def test_a_checkout_without_a_packaged_copy_reads_its_own_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _package(tmp_path, monkeypatch, "pkg_in_checkout")
    checkout = tmp_path / "repo"
    (checkout / "data").mkdir(parents=True)
    found = bundled_dir("_data", "data", package="pkg_in_checkout", checkout_root=checkout)
    assert found == checkout / "data"


def test_with_neither_the_path_names_the_packaged_location(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = _package(tmp_path, monkeypatch, "pkg_without_data")
    found = bundled_dir("_data", "data", package="pkg_without_data", checkout_root=None)
    assert found == package / "_data"
    assert not found.exists()


def test_this_checkout_uses_the_repository_folders() -> None:
    assert paths.CHECKOUT_ROOT == ROOT
    assert bundled_dir("_data", "data") == ROOT / "data"
    assert paths.SCHEMA_DIR == ROOT / "schema"
    assert (paths.SCHEMA_DIR / "report.schema.json").is_file()


def _cli(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    code = "import sys; from ragspine_action.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow
def test_ragspine_data_dir_replaces_the_bundled_data(tmp_path: Path) -> None:
    copy = tmp_path / "my data"
    shutil.copytree(ROOT / "data", copy)
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, paths.DATA_DIR_ENV: str(copy)}
    done = _cli(work, env, "--report", str(tmp_path / "report.json"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "report.json").is_file()
    # It is really that copy that was read: without its golden set the run says so.
    (copy / "golden" / "qa_golden_set.jsonl").unlink()
    done = _cli(work, env)
    assert done.returncode == 2
    assert str(copy / "golden" / "qa_golden_set.jsonl") in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert list(work.iterdir()) == []


def test_schema_command_writes_into_the_given_directory(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert schema.main([str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(schema.SCHEMAS)
    for name, (model, title) in schema.SCHEMAS.items():
        assert (out / name).read_text(encoding="utf-8") == schema.render_schema(model, title)


def test_schema_command_rewrites_a_checkouts_schema_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(schema, "CHECKOUT_ROOT", tmp_path)
    assert schema.main([]) == 0
    assert sorted(p.name for p in (tmp_path / "schema").iterdir()) == sorted(schema.SCHEMAS)


def test_schema_command_outside_a_checkout_needs_a_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(schema, "CHECKOUT_ROOT", None)
    monkeypatch.chdir(tmp_path)
    assert schema.main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "give an output directory" in err
    assert list(tmp_path.iterdir()) == []


def test_schema_command_reports_an_unwritable_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("")
    assert schema.main([str(blocker / "sub")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ragspine-eval: {blocker / 'sub'}: ") and err.count("\n") == 1

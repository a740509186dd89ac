"""The wheel carries its data: build it, install it (not editable) into a fresh venv and run the
bundled default, the extraction suite and ``--help`` from an unrelated directory.

The dependencies are not downloaded again: the fresh venv sees this environment's
site-packages through a ``.pth`` line (their own ``.pth`` files, such as the editable install
of this checkout, are not processed there), while ragspine-eval itself comes only from the
built wheel — the test checks that the code and the data it runs are the installed ones.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import venv
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.requirements import Requirement

pytestmark = pytest.mark.slow  # builds a wheel and a venv: about half a minute

ROOT = Path(__file__).resolve().parents[1]
# What `pip install <clone>` builds from: the build configuration, the package and its data.
SOURCES = ("pyproject.toml", "setup.py", "README.md", "ragspine_action", "data", "schema")


@dataclass(frozen=True)
class Installed:
    venv: Path
    python: Path
    script: Path
    package: Path  # the installed ragspine_action directory
    elsewhere: Path  # an empty working directory outside the checkout

    def run(self, *cmd: str | Path) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "RAGSPINE_"))}
        return subprocess.run(
            [str(c) for c in cmd],
            cwd=self.elsewhere,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )


def _bin(venv_dir: Path, name: str) -> Path:
    return venv_dir / ("Scripts" if os.name == "nt" else "bin") / name


def _tree(directory: Path) -> dict[str, str]:
    return {
        path.relative_to(directory).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(directory.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def _build_backend_installed() -> bool:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for text in pyproject["build-system"]["requires"]:
        requirement = Requirement(text)
        try:
            version = importlib.metadata.version(requirement.name)
        except importlib.metadata.PackageNotFoundError:
            return False
        if not requirement.specifier.contains(version, prereleases=True):
            return False
    return True


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    work = tmp_path_factory.mktemp("packaging")
    source = work / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy2(ROOT / name, source / name)
    dist = work / "dist"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    # The build backend already installed when it is the one pyproject.toml asks for
    # (requirements-dev.lock has it): no download. Else pip fetches it.
    offline = ["--no-build-isolation"] if _build_backend_installed() else []
    built = subprocess.run(
        [*pip, "wheel", "--no-deps", *offline, "-q", "-w", str(dist), str(source)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = dist.glob("ragspine_eval-*.whl")

    fresh = work / "fresh venv"
    venv.create(fresh, with_pip=False)
    python = _bin(fresh, "python")
    paths = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    )
    site = Path(paths.stdout.strip())
    here = sysconfig.get_paths()
    (site / "_dependencies_from_the_test_env.pth").write_text(
        "\n".join(dict.fromkeys([here["purelib"], here["platlib"]])) + "\n"
    )
    done = subprocess.run(
        [*pip, "--python", str(python), "install", "--no-deps", "--no-index", "-q", str(wheel)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    elsewhere = work / "elsewhere"
    elsewhere.mkdir()
    return Installed(
        fresh, python, _bin(fresh, "ragspine-eval"), site / "ragspine_action", elsewhere
    )


def test_the_code_and_the_data_come_from_the_wheel(installed: Installed) -> None:
    where = installed.run(
        installed.python,
        "-c",
        "import ragspine_action, ragspine_action.paths as p; "
        "print(ragspine_action.__file__); print(p.DATA_DIR); print(p.SCHEMA_DIR)",
    )
    assert where.returncode == 0, where.stderr
    module, data, schemas = where.stdout.splitlines()
    assert Path(module) == installed.package / "__init__.py"
    assert Path(data) == installed.package / "_data"
    assert Path(schemas) == installed.package / "_schema"
    assert _tree(installed.package / "_data") == _tree(ROOT / "data")
    assert _tree(installed.package / "_schema") == _tree(ROOT / "schema")
    assert (installed.package / "py.typed").is_file()


def test_the_installed_requirements_are_satisfied(installed: Installed) -> None:
    check = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(installed.python), "check"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert check.returncode == 0, check.stdout + check.stderr


def _runs(installed: Installed, args: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    before = _tree(installed.package)
    done = installed.run(installed.script, *args)
    assert _tree(installed.package) == before, "the run wrote into the installed package"
    return done


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ((), ("ragspine-eval: PASS", "QA · tool · reference", "Baseline: pass")),
        (("--suite", "extraction"), ("ragspine-eval: PASS", "cell_value")),
        (("--help",), ("usage: ragspine-eval", "--suite")),
    ],
    ids=["bundled-default", "extraction-suite", "help"],
)
def test_the_console_script_runs_from_another_directory(
    installed: Installed, args: tuple[str, ...], expected: tuple[str, ...]
) -> None:
    done = _runs(installed, args)
    assert done.returncode == 0, done.stdout + done.stderr
    for text in expected:
        assert text in done.stdout, (text, done.stdout[-2000:])
    assert list(installed.elsewhere.iterdir()) == []


def test_schema_command_never_writes_into_site_packages(installed: Installed) -> None:
    done = installed.run(installed.python, "-m", "ragspine_action.schema")
    assert done.returncode == 2
    assert "give an output directory" in done.stderr
    assert not (installed.package.parent / "schema").exists()
    out = installed.elsewhere / "schemas"
    try:
        done = installed.run(installed.python, "-m", "ragspine_action.schema", out)
        assert done.returncode == 0, done.stderr
        assert set(_tree(out)) == set(_tree(ROOT / "schema"))
    finally:
        shutil.rmtree(out, ignore_errors=True)

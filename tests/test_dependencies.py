"""Dependencies: ranges in pyproject.toml, hash-pinned lock files inside those ranges, and the
lowest versions CI tests; the image and the tests install only from the locks."""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
RUNTIME = [Requirement(r) for r in PYPROJECT["project"]["dependencies"]]
DEV = [Requirement(r) for r in PYPROJECT["project"]["optional-dependencies"]["dev"]]
BUILD = [Requirement(r) for r in PYPROJECT["build-system"]["requires"]]
LOCKS = ("requirements.lock", "requirements-dev.lock")


def _lowest_requirements() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "lowest_requirements", ROOT / "scripts" / "lowest_requirements.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pins(lock: str) -> dict[str, tuple[Version, int]]:
    """name → (pinned version, number of hashes) for every package in a lock file."""
    pins: dict[str, tuple[Version, int]] = {}
    text = (ROOT / lock).read_text(encoding="utf-8")
    for block in re.split(r"\n(?=[A-Za-z0-9])", text):
        match = re.match(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)", block)
        if match:
            name = canonicalize_name(match.group(1))
            assert name not in pins or pins[name][0] == Version(match.group(2)), (lock, name)
            pins[name] = (Version(match.group(2)), block.count("--hash=sha256:"))
    return pins


def test_runtime_dependencies_are_ranges_with_both_ends() -> None:
    for requirement in RUNTIME:
        operators = {spec.operator for spec in requirement.specifier}
        assert operators == {">=", "<"}, f"{requirement}: declare '>=lowest,<next major'"


def test_the_pins_library_users_need_resolve_against_the_ranges() -> None:
    # `pip install ragspine-eval "numpy==1.26.4" "pydantic==2.9.2"` must not be impossible.
    wanted = {"numpy": "1.26.4", "pydantic": "2.9.2", "requests": "2.32.3", "PyYAML": "6.0.1"}
    declared = {r.name: r for r in RUNTIME}
    for name, version in wanted.items():
        assert declared[name].specifier.contains(version), (name, version)


@pytest.mark.parametrize("lock", LOCKS)
def test_locks_pin_every_declared_dependency_inside_its_range_with_hashes(lock: str) -> None:
    pins = _pins(lock)
    assert pins, f"{lock} pins nothing"
    for name, (version, hashes) in pins.items():
        assert hashes >= 1, f"{lock}: {name}=={version} has no --hash"
    needed = RUNTIME + BUILD + (DEV if lock == "requirements-dev.lock" else [])
    for requirement in needed:
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{lock} lacks {requirement.name}: run scripts/lock.sh"
        assert requirement.specifier.contains(pins[name][0], prereleases=True), (
            f"{lock}: {name}=={pins[name][0]} is outside {requirement}: run scripts/lock.sh"
        )


def test_both_locks_agree_on_the_runtime_versions() -> None:
    runtime, dev = _pins("requirements.lock"), _pins("requirements-dev.lock")
    assert {n: v for n, (v, _) in runtime.items()} == {n: dev[n][0] for n in runtime}


def test_lowest_requirements_pins_each_lower_bound() -> None:
    pins = _lowest_requirements().lowest_pins(ROOT / "pyproject.toml")
    assert len(pins) == len(RUNTIME)
    for pin, requirement in zip(pins, RUNTIME, strict=True):
        name, version = pin.split("==")
        assert name == requirement.name
        lower = next(s.version for s in requirement.specifier if s.operator == ">=")
        assert version == lower


@pytest.mark.parametrize(
    ("dependency", "problem"),
    [("numpy", "exactly one '>=' lower bound"), ("numpy<3", "exactly one '>=' lower bound")],
)
def test_lowest_requirements_refuses_a_range_without_a_start(
    tmp_path: Path, dependency: str, problem: str
) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(f'[project]\ndependencies = ["pydantic>=2.7", "{dependency}"]\n')
    with pytest.raises(ValueError, match=problem):
        _lowest_requirements().lowest_pins(pyproject)


def test_the_image_and_the_tests_install_from_the_locks() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(
        r"pip install [^\n]*--require-hashes[^\n]*\\\n\s*-r /tmp/requirements.lock", dockerfile
    )
    assert "COPY requirements.lock" in dockerfile
    assert "tomllib" not in dockerfile  # no second way of reading the dependencies
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert run.startswith("pip install -q --require-hashes -r requirements-dev.lock && ")
    workflow = (ROOT / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8")
    assert "--require-hashes -r requirements-dev.lock" in workflow
    assert "scripts/lowest_requirements.py" in workflow
    for python in ("3.11", "3.12", "3.13"):
        assert f'"{python}"' in workflow

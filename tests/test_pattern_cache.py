"""The compiled patterns kept beside the bytecode (``pattern_cache``, issue 25).

A pattern made from the stored code must be the pattern ``re.compile`` makes; the file is
written under bytecode's rule, only with what recurs, and any other file is ignored.
Runs that write go to a fresh ``PYTHONPYCACHEPREFIX``, never to the package's own cache.
"""

from __future__ import annotations

import marshal
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ragspine_action import pattern_cache

_STORE_PROBE = """
import importlib, sys
from pathlib import Path
from ragspine_action import pattern_cache
for name in sys.argv[2:]:
    importlib.import_module(name)
pattern_cache.mark()
pattern_cache._seen.update(pattern_cache._compiled())
print(pattern_cache.save(Path(sys.argv[1]), force=True))
"""


def _store(path: Path, *modules: str) -> list[tuple[object, ...]]:
    """The entries a fresh process stores once ``modules`` are imported."""
    done = subprocess.run(
        [sys.executable, "-c", _STORE_PROBE, str(path), *modules],
        capture_output=True,
        text=True,
        check=True,
    )
    assert int(done.stdout) > 0, done.stderr
    return pattern_cache.stored_patterns(path)


def test_every_stored_pattern_is_the_one_re_compiles(tmp_path: Path) -> None:
    """All the patterns of the gates and the reference system (and the standard library's
    that come with them): equal code and flags, the same groups and names."""
    entries = _store(
        tmp_path / "p.patterns", "ragspine_action.run", "ragspine_action.systems.reference"
    )
    assert len(entries) > 300
    for entry in entries:
        pattern, flags = entry[0], entry[1]
        assert isinstance(pattern, str) and isinstance(flags, int)
        made = pattern_cache._pattern(entry)
        fresh = re._compiler.compile(pattern, flags)  # type: ignore[attr-defined]
        assert made == fresh, pattern
        assert (made.flags, made.groups, made.groupindex) == (
            fresh.flags,
            fresh.groups,
            fresh.groupindex,
        ), pattern


def test_preloaded_patterns_are_what_re_compile_returns(tmp_path: Path) -> None:
    path = tmp_path / "p.patterns"
    _store(path, "ragspine_action.gates.claims")
    probe = """
import re, sys
from pathlib import Path
from ragspine_action import pattern_cache
count = pattern_cache.preload(Path(sys.argv[1]))
entry = pattern_cache.stored_patterns(Path(sys.argv[1]))[-1]
key = (str, entry[0], entry[1])
hit = re.compile(entry[0], entry[1]) is re._cache[key]
m = re.compile(r"(?P<year>20\\d\\d)-(?P<q>Q[1-4])", re.I).search("x 2025-q3")
print(count, hit, m.group("year", "q"), m.span())
"""
    done = subprocess.run(
        [sys.executable, "-c", probe, str(path)], capture_output=True, text=True, check=True
    )
    count, hit, *rest = done.stdout.split(" ", 2)
    assert int(count) > 50 and hit == "True"
    assert rest == ["('2025', 'q3') (2, 9)\n"]


def test_a_file_of_another_interpreter_or_damaged_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "p.patterns"
    entries = _store(path, "ragspine_action.gates.numerals")
    stamp, _entries, seen = marshal.loads(path.read_bytes())
    other = (*stamp[:1], "3.11.0 (another build)", *stamp[2:])
    path.write_bytes(marshal.dumps((other, entries, seen)))
    assert pattern_cache.stored_patterns(path) == []
    path.write_bytes(b"\x00garbage")
    assert pattern_cache.stored_patterns(path) == []
    # An entry whose code the engine rejects is skipped, not a crash.
    bad = (*entries[0][:3], b"\x01\x00\x00\x00", *entries[0][4:])
    path.write_bytes(marshal.dumps((stamp, [bad], [])))
    probe = (
        "import sys; from pathlib import Path; from ragspine_action import pattern_cache;"
        "print(pattern_cache.preload(Path(sys.argv[1])))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(path)], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "0"


META = r"^\s*(?:(?:"  # the meta patterns joined (gates/claims.py), compiled per run


def _run(tmp_path: Path, cache: Path, *, write: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if not write:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from ragspine_action.cli import main; sys.exit(main())",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        check=False,
    )


@pytest.mark.slow
def test_the_cli_stores_its_modules_patterns_then_what_recurs(tmp_path: Path) -> None:
    """First run: the modules' patterns; second: the run's recurring ones too (the meta
    patterns joined); third: nothing new, nothing written. Never under
    PYTHONDONTWRITEBYTECODE. Every run prints the same table."""
    cache = tmp_path / "pycache"

    def stored() -> tuple[set[str], float]:
        files = list(cache.rglob("pattern_cache.*.patterns"))
        if not files:
            return set(), 0.0
        (file,) = files
        return {e[0] for e in pattern_cache.stored_patterns(file)}, file.stat().st_mtime_ns

    first = _run(tmp_path, cache, write=False)
    assert first.returncode == 0 and stored() == (set(), 0.0)
    runs = [_run(tmp_path, cache, write=True)]
    after_one, _ = stored()
    assert len(after_one) > 300
    assert not any(p.startswith(META) for p in after_one)  # made by the run: not yet
    runs.append(_run(tmp_path, cache, write=True))
    after_two, mtime = stored()
    assert after_one < after_two
    assert any(p.startswith(META) for p in after_two)
    runs.append(_run(tmp_path, cache, write=True))
    assert stored() == (after_two, mtime)
    assert all(r.returncode == 0 for r in runs)
    assert {r.stdout for r in runs} == {first.stdout}

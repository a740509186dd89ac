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
    stamp, _entries, seen, derived = marshal.loads(path.read_bytes())
    other = (*stamp[:1], "3.11.0 (another build)", *stamp[2:])
    path.write_bytes(marshal.dumps((other, entries, seen, derived)))
    assert pattern_cache.stored_patterns(path) == []
    path.write_bytes(b"\x00garbage")
    assert pattern_cache.stored_patterns(path) == []
    # An entry whose code the engine rejects is skipped, not a crash.
    bad = (*entries[0][:3], b"\x01\x00\x00\x00", *entries[0][4:])
    path.write_bytes(marshal.dumps((stamp, [bad], [], {})))
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


def test_a_derived_value_is_read_back_while_its_module_is_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``derived``: stored with the patterns, used while the deriving module's source hash
    is the same; made afresh when the module changed or the stored value is malformed."""
    monkeypatch.setattr(pattern_cache, "_derived_read", {})
    monkeypatch.setattr(pattern_cache, "_derived_now", {})
    monkeypatch.setattr(pattern_cache, "_source_hashes", {})
    source = tmp_path / "deriver.py"
    source.write_text("VERSION = 1\n", encoding="utf-8")
    pattern = re.compile(r"^\s*(?:alpha|beta)\b", re.IGNORECASE)
    made: list[str] = []

    def make(p: re.Pattern[str]) -> tuple[str, ...]:
        made.append(p.pattern)
        return ("made", p.pattern)

    def valid(value: object) -> bool:
        return isinstance(value, tuple) and len(value) == 2

    first = pattern_cache.derived("kind", str(source), pattern, make, valid)
    assert first == ("made", pattern.pattern) and len(made) == 1
    # What a later process reads from the file: the value is used, not made again.
    stored = dict(pattern_cache._derived_now)
    (key,) = stored
    assert key[2:] == (pattern.pattern, pattern.flags)
    pattern_cache._derived_read.update({key: ("stored", "value")})
    assert pattern_cache.derived("kind", str(source), pattern, make, valid) == ("stored", "value")
    assert len(made) == 1
    # A malformed stored value is made afresh.
    pattern_cache._derived_read[key] = ("one",)
    assert pattern_cache.derived("kind", str(source), pattern, make, valid) == first
    assert len(made) == 2
    # The module changed (another process: its hash is read afresh): made afresh.
    pattern_cache._derived_read[key] = ("stored", "value")
    source.write_text("VERSION = 2\n", encoding="utf-8")
    pattern_cache._source_hashes.clear()
    assert pattern_cache.derived("kind", str(source), pattern, make, valid) == first
    assert len(made) == 3
    # No source to vouch for a value: always made, never kept.
    pattern_cache._derived_now.clear()
    missing = str(tmp_path / "gone.py")
    assert pattern_cache.derived("kind", missing, pattern, make, valid) == first
    assert pattern_cache._derived_now == {}


_LEADING_PROBE = """
import sys
from pathlib import Path
from ragspine_action import pattern_cache
pattern_cache.preload(Path(sys.argv[1]))
from ragspine_action.gates import claims, leading
from ragspine_action.gate_defaults import DEFAULT_META_PATTERNS
made = []
reading = leading._reading
leading._reading = lambda p: made.append(p.pattern) or reading(p)
meta = claims._meta_regex(DEFAULT_META_PATTERNS)
fresh = reading(meta.pattern)
print(len(made), (meta.prefixes, meta.skip) == fresh, meta.prefixes is not None)
"""


def test_the_meta_filter_is_read_from_the_file_and_equals_a_fresh_reading(
    tmp_path: Path,
) -> None:
    """The meta patterns' prefixes (``gates.leading``) stored by one process are what a
    fresh reading gives, and the next process reads them instead of parsing."""
    path = tmp_path / "p.patterns"
    store = """
import sys
from pathlib import Path
from ragspine_action import pattern_cache
from ragspine_action.gates import claims
from ragspine_action.gate_defaults import DEFAULT_META_PATTERNS
pattern_cache.mark()
claims._meta_regex(DEFAULT_META_PATTERNS)
pattern_cache._seen.update(pattern_cache._compiled())
print(pattern_cache.save(Path(sys.argv[1]), force=True))
"""
    subprocess.run([sys.executable, "-c", store, str(path)], check=True, capture_output=True)
    done = subprocess.run(
        [sys.executable, "-c", _LEADING_PROBE, str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.split() == ["0", "True", "True"], done.stderr
    # Without the file every reading is made (and gives the same filter).
    done = subprocess.run(
        [sys.executable, "-c", _LEADING_PROBE, str(tmp_path / "none.patterns")],
        capture_output=True,
        text=True,
        check=True,
    )
    made, same, has = done.stdout.split()
    assert int(made) >= 1 and same == "True" and has == "True"

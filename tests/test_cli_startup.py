"""Start-up: --help and --version load neither the run nor the report writers (issue 25).

Checked in a fresh interpreter, since this test process has imported everything.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

_PROBE = """
import json, sys
from ragspine_action import cli
try:
    cli.main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""

# What a full run needs and --help does not: the run and its scorers, numpy, the table
# renderer, the report writer, the HTTP client.
_HEAVY = (
    "ragspine_action.run",
    "ragspine_action.qa",
    "ragspine_action.report.write",
    "ragspine_action.report.render_terminal",
    "numpy",
    "tabulate",
    "requests",
)


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_import_only_the_parser(flag: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, flag], capture_output=True, text=True, check=True
    )
    loaded = set(json.loads(done.stderr.strip().splitlines()[-1]))
    assert "ragspine_action.cli" in loaded
    assert [name for name in _HEAVY if name in loaded] == []
    assert "usage: ragspine-eval" in done.stdout or done.stdout.startswith("ragspine-eval")


def test_lazy_attributes_are_the_real_functions() -> None:
    from ragspine_action import cli
    from ragspine_action.report.render_terminal import render_terminal
    from ragspine_action.report.write import write_report
    from ragspine_action.run import run

    assert (cli.run, cli.write_report, cli.render_terminal) == (run, write_report, render_terminal)
    with pytest.raises(AttributeError):
        _ = cli.no_such_name  # type: ignore[attr-defined]


_PLUGINS_PROBE = """
import sys
from pydantic.plugin import _loader
from ragspine_action import cli
try:
    cli.main(sys.argv[1:])
except SystemExit:
    pass
print("scanned" if _loader._plugins is not None else "not scanned", file=sys.stderr)
"""


def _plugins_scanned(cwd: str, env: dict[str, str]) -> bool:
    done = subprocess.run(
        [sys.executable, "-c", _PLUGINS_PROBE, "--no-baseline"],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        check=False,
    )
    return done.stderr.strip().splitlines()[-1] == "scanned"


def _modules_after(args: list[str], cwd: str, env: dict[str, str] | None = None) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        check=False,
    )
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def test_bundled_qa_run_loads_neither_extraction_nor_yaml(tmp_path: Path) -> None:
    """The default run is QA with no settings file: the extraction suite and the YAML
    parser are cost without use (issue 25: the default run within 0.5 s)."""
    loaded = _modules_after(["--no-baseline"], str(tmp_path))
    assert "ragspine_action.run" in loaded  # the run did happen
    assert [name for name in ("ragspine_action.extraction", "yaml") if name in loaded] == []


def test_a_settings_file_still_loads_yaml(tmp_path: Path) -> None:
    (tmp_path / "ragspine-eval.yml").write_text("suite: qa\n", encoding="utf-8")
    assert "yaml" in _modules_after(["--no-baseline"], str(tmp_path))


def test_the_cli_skips_pydantic_plugin_discovery_unless_the_user_wants_it(
    tmp_path: Path,
) -> None:
    """Discovery reads every installed distribution's entry points (~17 ms)."""
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    assert not _plugins_scanned(str(tmp_path), env)
    assert _plugins_scanned(str(tmp_path), {**env, "PYDANTIC_DISABLE_PLUGINS": ""})

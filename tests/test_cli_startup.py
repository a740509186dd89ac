"""Start-up: --help and --version load neither the run nor the report writers (issue 25).

Checked in a fresh interpreter, since this test process has imported everything.
"""

from __future__ import annotations

import json
import subprocess
import sys

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

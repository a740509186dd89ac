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

# What a full run needs and --help does not: the run and its scorers (and the pydantic
# models they read), numpy, the table renderer, the report writer, the HTTP client.
_HEAVY = (
    "ragspine_action.run",
    "ragspine_action.qa",
    "ragspine_action.gates",
    "ragspine_action.golden",
    "pydantic",
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


def test_render_loads_the_report_modules_only(tmp_path: Path) -> None:
    """``render`` reads a report and writes it out: no scoring, no system, no baseline."""
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, "--no-baseline", "--quiet", "--report", str(report)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert report.is_file(), done.stderr
    for fmt in ("markdown", "terminal"):
        loaded = _modules_after(["render", str(report), "--format", fmt], str(tmp_path))
        assert "ragspine_action.report.read" in loaded
        unused = (
            "ragspine_action.gates",
            "ragspine_action.qa",
            "ragspine_action.run",
            "ragspine_action.systems",
            "ragspine_action.golden",
            "ragspine_action.baseline",
            "ragspine_action.metrics.trec",
        )
        assert [name for name in unused if name in loaded] == []


def test_the_written_out_gate_settings_are_the_gates_own() -> None:
    """``gate_defaults`` lets the parser and ``render`` start without the gates: its
    names must stay the gates' names, its defaults the very objects the gates use."""
    from ragspine_action import gate_defaults, gates
    from ragspine_action.gates import claims, fabrication, judge

    assert gate_defaults.GATE_NAMES == gates.GATE_NAMES
    assert claims.DEFAULT_META_PATTERNS is gate_defaults.DEFAULT_META_PATTERNS
    assert fabrication.DEFAULT_PERIOD_PATTERNS is gate_defaults.DEFAULT_PERIOD_PATTERNS
    assert judge.JUDGE_KINDS is gate_defaults.JUDGE_KINDS


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


# What the bundled default run (QA, reference system in tool mode, no settings file, no
# --report) has no use for: each one loaded is start-up time (issue 25: the default run
# within 0.5 s). A name here that a change makes the default run load fails this test.
_NOT_IN_THE_DEFAULT_RUN = (
    "ragspine_action.extraction",  # the extraction suite
    "yaml",  # a settings file
    "ragspine_action.config_file",  # the settings file's models
    "ragspine_action.systems.reference.agent",  # agent mode
    "ragspine_action.systems.reference.planner",
    "ragspine_action.systems.http",  # the http system and its client
    "requests",
    "urllib3",
    "http.client",
    "ragspine_action.gates.llm_judge",  # --judge llm
    "ragspine_action.parallel_qa",  # an outcomes file scored on every core
    "multiprocessing",
    "ragspine_action.report.write",  # --report
    "ragspine_action.report.render_markdown",  # the action's comment, render
    "ragspine_action.report.render_html",
    "ragspine_action.report.render_junit",
    "ragspine_action.action",
    "ragspine_action.github",
    "ragspine_action.merge",
    "ragspine_action.judge_eval",
    "ragspine_action.guard",
    "ragspine_action.schema",
    "ragspine_action.api",
    "ragspine_action.metrics.trec_columns",  # TREC files
    "numpy.ma",  # np.quantile's way to the bootstrap bounds
    "tabulate",  # the metric table is written out (tabulate for unusual cells only)
)


def test_the_bundled_run_loads_only_what_it_uses(tmp_path: Path) -> None:
    loaded = _modules_after([], str(tmp_path))
    assert "ragspine_action.run" in loaded  # the run did happen
    assert "ragspine_action.systems.reference.system" in loaded
    assert [name for name in _NOT_IN_THE_DEFAULT_RUN if name in loaded] == []


def test_agent_mode_loads_the_agent(tmp_path: Path) -> None:
    loaded = _modules_after(["--mode", "agent"], str(tmp_path))
    assert {
        "ragspine_action.systems.reference.agent",
        "ragspine_action.systems.reference.planner",
    } <= loaded


def test_a_settings_file_still_loads_yaml(tmp_path: Path) -> None:
    (tmp_path / "ragspine-eval.yml").write_text("suite: qa\n", encoding="utf-8")
    assert {"yaml", "ragspine_action.config_file"} <= _modules_after(
        ["--no-baseline"], str(tmp_path)
    )


def test_the_cli_skips_pydantic_plugin_discovery_unless_the_user_wants_it(
    tmp_path: Path,
) -> None:
    """Discovery reads every installed distribution's entry points (~17 ms)."""
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    assert not _plugins_scanned(str(tmp_path), env)
    assert _plugins_scanned(str(tmp_path), {**env, "PYDANTIC_DISABLE_PLUGINS": ""})


_BLAS_PROBE = """
import os, sys
seen = {}
class Watch:
    def find_spec(self, name, path=None, target=None):
        if name == "numpy" and "numpy" not in seen:
            seen["numpy"] = os.environ.get("OPENBLAS_NUM_THREADS")
        return None
sys.meta_path.insert(0, Watch())
from ragspine_action import cli
try:
    cli.main(sys.argv[1:])
except SystemExit:
    pass
print(repr(seen.get("numpy", "not imported")), file=sys.stderr)
"""


def _blas_threads_at_numpy_import(cwd: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", _BLAS_PROBE, "--no-baseline"],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        check=False,
    )
    return str(done.stderr.strip().splitlines()[-1])


def test_the_cli_runs_openblas_on_one_thread_unless_the_user_says(tmp_path: Path) -> None:
    """OpenBLAS's spinning worker threads cost more CPU at start than its two small
    products ever gain; the setting must be in place before numpy is imported."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    assert _blas_threads_at_numpy_import(str(tmp_path), env) == "'1'"
    assert _blas_threads_at_numpy_import(str(tmp_path), {**env, "OPENBLAS_NUM_THREADS": "2"}) == (
        "'2'"
    )


_BOOTSTRAP_PROBE = """
import numpy as np
from ragspine_action.baseline.stats import bootstrap_p_value, paired_bootstrap
rng = np.random.default_rng(7)
for n in (74, 1000, 20000):
    for base, cur in (
        (rng.integers(0, 2, n).astype(float), rng.integers(0, 2, n).astype(float)),
        (np.round(rng.random(n), 1), np.round(rng.random(n), 1)),
        (rng.random(n), rng.random(n)),
    ):
        print(repr(paired_bootstrap(base, cur)), repr(bootstrap_p_value(cur - base, -0.01)))
"""


def test_bootstrap_intervals_do_not_depend_on_blas_threads() -> None:
    """The same bits with one OpenBLAS thread as with several (the CLI runs one)."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    outputs = {
        threads: subprocess.run(
            [sys.executable, "-c", _BOOTSTRAP_PROBE],
            capture_output=True,
            text=True,
            env={**env, "OPENBLAS_NUM_THREADS": threads},
            check=True,
        ).stdout
        for threads in ("1", "4")
    }
    assert outputs["1"] == outputs["4"] != ""


_GC_PROBE = """
import gc, sys
collections = []
gc.callbacks.append(
    lambda phase, info: collections.append(info["generation"])
    if phase == "start" and "ragspine_action.startup" in sys.modules
    else None
)
from ragspine_action import cli
after_import = (len(collections), gc.isenabled())
at_the_table = []

def spy(*args, **kwargs):
    at_the_table.append((len(collections), gc.isenabled()))
    from ragspine_action.report.render_terminal import print_report
    return print_report(*args, **kwargs)

cli.print_report = spy
try:
    cli.main(sys.argv[1:])
except SystemExit:
    pass
print(after_import, at_the_table, gc.isenabled(), file=sys.stderr)
"""


def test_no_collection_runs_while_the_cli_loads_and_runs(tmp_path: Path) -> None:
    """Some 90 collections scanned the growing heap while ~400 modules loaded (~15 ms of
    the bundled run): none from ``startup`` until the table is shown, and the collector
    is back on (as it was) once ``cli`` is imported and once ``main`` returns."""
    done = subprocess.run(
        [sys.executable, "-c", _GC_PROBE, "--no-baseline"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert done.stderr.strip().splitlines()[-1] == "(0, True) [(0, False)] True"


_BUILT_PROBE = """
import json, sys
from pydantic import BaseModel
from ragspine_action import cli
try:
    cli.main(sys.argv[1:])
except SystemExit:
    pass
from ragspine_action.report import model
built = sorted(
    name for name, value in vars(model).items()
    if isinstance(value, type) and issubclass(value, BaseModel) and value.__pydantic_complete__
)
print(json.dumps(built), file=sys.stderr)
"""


def _report_models_built(args: list[str], cwd: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", _BUILT_PROBE, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
    )
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def test_the_report_models_are_built_when_first_used(tmp_path: Path) -> None:
    """``defer_build``: the bundled run builds the report models it validates, not the
    ones it only constructs (the case rows, their evidence, the QA section) nor those of
    sections it has no use for (repeats, shards, significance tests)."""
    built = _report_models_built(["--no-baseline"], str(tmp_path))
    assert "Report" in built
    unused = {"CaseResult", "JudgeEvidence", "ClaimEvidence", "QASection", "RepeatsSection"}
    assert built.isdisjoint(unused | {"ShardInfo", "SignificanceTest", "FlakyCase"})
    # Reading a report back validates all of it, and its case rows one by one.
    report = tmp_path / "report.json"
    _report_models_built(["--no-baseline", "--quiet", "--report", str(report)], str(tmp_path))
    assert {"Report", "CaseResult"} <= _report_models_built(["render", str(report)], str(tmp_path))


_METADATA_PROBE = """
import sys
from ragspine_action import cli
try:
    cli.main(sys.argv[1:])
except SystemExit:
    pass
module = sys.modules.get("importlib.metadata")
deferred = module is not None and type(module) is not type(sys)
import importlib.metadata
from importlib.metadata import version
works = version("pydantic") == __import__("pydantic").VERSION
print(deferred, works, type(sys.modules["importlib.metadata"]) is type(sys), file=sys.stderr)
"""


def test_importlib_metadata_runs_only_when_used(tmp_path: Path) -> None:
    """With pydantic's plugins off, its plugin loader's import of ``importlib.metadata``
    (~10 ms) runs nothing; the module works as ever the first time it is used, and is
    then a plain module. With plugins on it is imported as usual."""
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}

    def probe(extra: dict[str, str]) -> list[str]:
        done = subprocess.run(
            [sys.executable, "-c", _METADATA_PROBE, "--no-baseline", "--quiet"],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env={**env, **extra},
            check=False,
        )
        return done.stderr.strip().splitlines()[-1].split()

    loaded = _modules_after(["--no-baseline", "--quiet"], str(tmp_path), env)
    assert "importlib.metadata" in loaded and "email.message" not in loaded
    assert probe({}) == ["True", "True", "True"]
    assert probe({"PYDANTIC_DISABLE_PLUGINS": ""}) == ["False", "True", "True"]

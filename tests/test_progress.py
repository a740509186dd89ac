"""The progress bar: on a terminal only, after a delay, erased at the end; scoring feeds it."""

from __future__ import annotations

import io
import json
from pathlib import Path
from types import ModuleType

import pytest

from ragspine_action.extraction import CellTable, cell_table_from_records
from ragspine_action.parallel_qa import score_outcomes_file
from ragspine_action.progress import ProgressBar, progress_bar
from ragspine_action.qa import QASettings


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_no_bar_off_a_terminal() -> None:
    assert progress_bar("scoring", io.StringIO()) is None
    assert isinstance(progress_bar("scoring", _Tty()), ProgressBar)


def test_a_quick_step_draws_nothing_and_a_long_one_is_erased() -> None:
    now = [0.0]
    out = io.StringIO()
    bar = ProgressBar(out, "scoring", delay_s=1.0, clock=lambda: now[0], width=10)
    bar.start(200)
    now[0] = 0.5
    bar.update(100)
    bar.finish()
    assert out.getvalue() == ""  # under the delay: silent
    now[0] = 0.0
    bar.start(200)
    now[0] = 2.0
    bar.update(50)
    now[0] = 2.05
    bar.update(60)  # within a tenth of a second: not redrawn
    now[0] = 3.0
    bar.update(100)
    text = out.getvalue()
    assert text == "\rscoring [##--------]  25% 6 s left\rscoring [#####-----]  50% 3 s left"
    bar.finish()
    assert out.getvalue().endswith("\r" + " " * len("scoring [#####-----]  50% 3 s left") + "\r")


def test_parallel_scoring_counts_the_whole_golden_set(
    tmp_path: Path, bench_synth: ModuleType
) -> None:
    golden, outcomes = bench_synth.write_qa(tmp_path, 5000)
    out = io.StringIO()
    bar = ProgressBar(out, "scoring", delay_s=0.0)
    result = score_outcomes_file(
        str(golden), str(outcomes), QASettings(), workers=2, max_bytes=1 << 30, progress=bar
    )
    assert len(result.table) == 5000
    last = out.getvalue().rstrip().split("\r")[-1]  # the last drawing, before the erase
    assert last.startswith("scoring [") and "100%" in last, out.getvalue()[-200:]


def test_extraction_scoring_counts_ground_truth_cells_and_erases_its_bar() -> None:
    from ragspine_action.extraction import load_fixtures, load_manifest, score_fixtures
    from ragspine_action.paths import BUNDLED_MANIFEST

    fixtures = load_fixtures(load_manifest(str(BUNDLED_MANIFEST)))
    cells = sum(len(fx.ground_truth) for fx in fixtures)
    assert len(fixtures) > 1 and cells > 0
    out = io.StringIO()
    bar = ProgressBar(out, "extraction", delay_s=0.0)
    with_bar = score_fixtures(fixtures, progress=bar)
    drawings = [d for d in out.getvalue().split("\r") if d.strip()]
    assert drawings and drawings[-1].startswith("extraction [") and "100%" in drawings[-1]
    assert out.getvalue().endswith("\r")  # erased: the report starts on a clean line
    assert with_bar.to_dict() == score_fixtures(fixtures).to_dict()  # the bar changes nothing


def _bars_drawn(monkeypatch: pytest.MonkeyPatch) -> dict[str, io.StringIO]:
    """Every bar the run asks for, drawn at once into a buffer per label (a terminal
    without the one-second wait), so the tests see which steps draw one."""
    import ragspine_action.run as run_module

    drawn: dict[str, io.StringIO] = {}

    def bar(label: str, stream: object = None) -> ProgressBar:
        out = drawn.setdefault(label, io.StringIO())
        return ProgressBar(out, label, delay_s=0.0)

    monkeypatch.setattr(run_module, "progress_bar", bar)
    return drawn


def _last_drawing(out: io.StringIO) -> str:
    drawings = [d for d in out.getvalue().split("\r") if d.strip()]
    return drawings[-1] if drawings else ""


@pytest.mark.parametrize("path", ["parallel", "sequential"])
def test_scoring_an_outcomes_file_draws_a_bar_on_either_path(
    tmp_path: Path, bench_synth: ModuleType, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    """The fast path (workers, shared byte counter) and the sequential one (taken for
    --save-outcomes, --repeats, the LLM judge, or input it must explain) both draw the
    scoring bar to 100%, erase it, and leave the report as it is without a bar."""
    from ragspine_action.cli import main as cli_main

    golden, outcomes = bench_synth.write_qa(tmp_path, 600)
    args = ["--system", "outcomes", "--golden", str(golden), "--outcomes", str(outcomes)]
    args += ["--mode", "m", "--workers", "2", "--quiet", "--max-error-rate", "1"]
    if path == "sequential":
        args += ["--save-outcomes", str(tmp_path / "saved.jsonl")]
    drawn = _bars_drawn(monkeypatch)
    cli_main([*args, "--report", str(tmp_path / "with_bar.json")])
    assert set(drawn) == {"scoring"}
    last = _last_drawing(drawn["scoring"])
    assert last.startswith("scoring [") and "100%" in last, drawn["scoring"].getvalue()[-200:]
    assert drawn["scoring"].getvalue().endswith("\r")  # erased before the report
    monkeypatch.undo()
    cli_main([*args, "--report", str(tmp_path / "plain.json")])
    with_bar = json.loads((tmp_path / "with_bar.json").read_text())
    plain = json.loads((tmp_path / "plain.json").read_text())
    for report in (with_bar, plain):
        report.pop("generated_at", None)
        report.pop("duration_s", None)
    assert with_bar["qa"] == plain["qa"]


def test_sequential_scoring_counts_cases_and_changes_nothing(
    tmp_path: Path, bench_synth: ModuleType
) -> None:
    from ragspine_action.golden.load import load_golden_set
    from ragspine_action.qa import evaluate_qa
    from ragspine_action.systems.outcomes_file import OutcomesFileSystem

    golden_path, outcomes_path = bench_synth.write_qa(tmp_path, 300)
    golden = load_golden_set(str(golden_path))
    collection = OutcomesFileSystem(str(outcomes_path)).collect(golden.cases)
    out = io.StringIO()
    bar = ProgressBar(out, "scoring", delay_s=0.0)
    with_bar = evaluate_qa(golden, collection, mode="m", system="s", progress=bar)
    plain = evaluate_qa(golden, collection, mode="m", system="s")
    assert _last_drawing(out).startswith("scoring [" + "#" * 28 + "] 100%")
    assert with_bar.model_dump(mode="json") == plain.model_dump(mode="json")


def _big_fixture(n: int) -> tuple[CellTable, CellTable]:

    def rec(i: int, value: float) -> dict[str, object]:
        return {
            "sheet": "S",
            "cell_ref": f"A{i + 1}",
            "value": value,
            "tags": [],
            "merge_span": None,
        }

    truth = cell_table_from_records([rec(i, float(i)) for i in range(n)])
    # Every 7th value wrong, every 11th cell missing: the batches must keep their order.
    facts = cell_table_from_records([rec(i, float(i) + (i % 7 == 0)) for i in range(n) if i % 11])
    return facts, truth


def test_one_large_fixture_moves_the_bar_batch_by_batch() -> None:
    """A single million-cell fixture must not sit at 0% until it is done: the cells are
    compared in batches, each reported, with the same result as one pass."""
    from ragspine_action.extraction import LoadedFixture, score_fixture, score_fixtures
    from ragspine_action.extraction.score import _PROGRESS_BATCH

    n = 2 * _PROGRESS_BATCH + 1000
    facts, truth = _big_fixture(n)
    batches: list[int] = []
    batched = score_fixture("big", facts, truth, on_cells=batches.append)
    assert batches == [_PROGRESS_BATCH, _PROGRESS_BATCH, 1000]
    whole = score_fixture("big", facts, truth)
    assert batched == whole

    ticks = iter(range(10_000))  # every clock read is a second later: each update may draw
    out = io.StringIO()
    bar = ProgressBar(out, "extraction", delay_s=0.0, clock=lambda: float(next(ticks)))
    score_fixtures([LoadedFixture("big", facts, truth)], progress=bar)
    shares = [d.split("]")[1].split("%")[0].strip() for d in out.getvalue().split("\r") if "[" in d]
    assert shares == ["49", "97", "100"], shares


def test_an_extraction_run_draws_loading_then_scoring(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading the fixtures (file by file: one JSON document is one parse) and scoring
    their cells (batch by batch) each draw a bar to 100% and erase it."""
    from ragspine_action.cli import main as cli_main

    drawn = _bars_drawn(monkeypatch)
    report = tmp_path / "r.json"
    assert (
        cli_main(["--suite", "extraction", "--no-baseline", "--report", str(report)]) == 1
    )  # the fixtures mismatch: with no baseline every fact must match
    assert set(drawn) == {"loading", "extraction"}
    for label, out in drawn.items():
        assert _last_drawing(out).startswith(f"{label} [{'#' * 28}] 100%"), out.getvalue()
        assert out.getvalue().endswith("\r")

"""The progress bar: on a terminal only, after a delay, erased at the end; scoring feeds it."""

from __future__ import annotations

import io
from pathlib import Path
from types import ModuleType

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

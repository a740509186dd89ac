"""RAGSpine's extraction cell format is read natively and scored with its semantics.

Fixtures (``tests/data/ragspine/extraction/``) were written here from the format's
description: ground truth as the fixture object with ``cells`` (``tags`` an object, ``{}``
for none; ``merge_span`` ``[n_rows, n_cols]`` on merge anchors, null elsewhere; extra keys
such as ``resolved_rgb``) and as a bare list with ``R{r}C{c}`` refs (a PPTX table).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragspine_action.cli import main
from ragspine_action.errors import InputError
from ragspine_action.extraction import compare_to_baseline, load_cell_table, run_eval

DATA = Path(__file__).resolve().parents[1] / "data" / "ragspine" / "extraction"


def _json(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


# xlsx, 12 ground-truth cells, 12 facts; C3 is only in the ground truth, Z9 only in the
# facts: 11 aligned.
#   cell_value 10/11: A3 "Profit" ≠ "PROFIT" (B2 2100 == 2100.0, A3' 120.0 == 120 match)
#   color_mapping 8/11: C1 has no tags key (≠ {}), C2 mature ≠ new, MergedHeader!A3 [] ≠ {}
#   header_attribution 9/11: A1 [1, 3] ≠ [1, 4], C2 null ≠ [1, 2] (B3 without the key == null)
# pptx, 8 cells, all aligned:
#   cell_value 6/8: R2C2 120 (a number) ≠ "120", R3C3 "110" ≠ "101"
#   color_mapping 7/8: R2C3 mature ≠ new
#   header_attribution 7/8: R3C1 [1, 3] where the truth has no merge_span (null)
XLSX = {"cell_value": (10, 11), "color_mapping": (8, 11), "header_attribution": (9, 11)}
PPTX = {"cell_value": (6, 8), "color_mapping": (7, 8), "header_attribution": (7, 8)}


def _counts(channels: dict[str, Any]) -> dict[str, tuple[int, int]]:
    return {name: (ch["correct"], ch["total"]) for name, ch in channels.items()}


def test_the_cli_scores_both_fixtures_to_the_hand_count(tmp_path: Path) -> None:
    report_path = tmp_path / "r.json"
    argv = ["--suite", "extraction", "--extraction-manifest", str(DATA / "manifest.json")]
    argv += ["--no-baseline", "--report", str(report_path), "--quiet"]
    assert main(argv) == 1  # it has mismatches, and with no baseline every fact must match
    ext = json.loads(report_path.read_text(encoding="utf-8"))["extraction"]
    assert _counts(ext["fixtures"]["xlsx"]["channels"]) == XLSX
    assert _counts(ext["fixtures"]["pptx"]["channels"]) == PPTX
    assert _counts(ext["channels"]) == {
        name: (XLSX[name][0] + PPTX[name][0], XLSX[name][1] + PPTX[name][1]) for name in XLSX
    }
    assert ext["channels"]["color_mapping"]["accuracy"] == pytest.approx(15 / 19, abs=1e-12)
    assert ext["n_facts"] == 20
    # the report says which format each file used, and so which comparison scored it
    for name in ("xlsx", "pptx"):
        assert ext["fixtures"][name]["format"] == {
            "facts": "ragspine",
            "ground_truth": "ragspine",
            "comparison": "ragspine",
        }
    assert ext["format"] == "ragspine"


def test_run_eval_takes_ragspines_arguments_and_gives_its_shapes() -> None:
    facts = _json("xlsx_facts.json")
    truth = _json("xlsx_ground_truth.json")  # the fixture object, with "cells"
    report = run_eval(facts, truth)
    assert {n: (c.correct, c.total) for n, c in report.channels.items()} == XLSX
    assert report.n_facts == 12
    color = report.channels["color_mapping"]
    assert color.name == "color_mapping"
    assert color.accuracy == 8 / 11
    assert {"locator": "HK_Performance!C1", "expected": {}, "actual": None} in color.mismatches
    spans = report.channels["header_attribution"].mismatches
    assert {"locator": "MergedHeader!A1", "expected": [1, 4], "actual": [1, 3]} in spans
    same = run_eval(facts, truth["cells"])  # or the bare list of cells
    assert {n: c.accuracy for n, c in same.channels.items()} == {
        n: c.accuracy for n, c in report.channels.items()
    }


def test_run_eval_reads_files_too() -> None:
    report = run_eval(DATA / "pptx_facts.json", DATA / "pptx_ground_truth.json")
    assert {n: (c.correct, c.total) for n, c in report.channels.items()} == PPTX
    assert report.format == "ragspine"


def test_empty_inputs_score_one_as_ragspine_does() -> None:
    report = run_eval([], {"cells": []})
    assert {n: (c.total, c.accuracy) for n, c in report.channels.items()} == {
        n: (0, 1.0) for n in XLSX
    }
    assert report.n_facts == 0


def test_a_flat_channel_baseline_gates_only_the_channels_it_lists() -> None:
    report = run_eval(_json("xlsx_facts.json"), _json("xlsx_ground_truth.json"))
    assert compare_to_baseline(report, {"cell_value": 10 / 11}).passed  # exactly equal passes
    assert compare_to_baseline(report, {"cell_value": 0.9, "unknown_channel": 1.0}).passed
    comparison = compare_to_baseline(report, {"cell_value": 0.9, "color_mapping": 0.8})
    assert not comparison.passed
    [regression] = comparison.regressions
    assert regression["channel"] == "color_mapping"
    assert regression["baseline"] == 0.8
    assert regression["current"] == pytest.approx(8 / 11)
    assert regression["delta"] == pytest.approx(8 / 11 - 0.8)


def test_missing_is_not_empty_in_the_ragspine_format() -> None:
    truth = [{"sheet": "S", "cell_ref": "A1", "value": 1, "tags": {}, "merge_span": None}]
    bare = [{"sheet": "S", "cell_ref": "A1", "value": 1}]
    report = run_eval(bare, truth)
    assert report.channels["color_mapping"].accuracy == 0.0  # no tags key ≠ {}
    assert report.channels["header_attribution"].accuracy == 1.0  # no key == null
    assert report.channels["cell_value"].accuracy == 1.0


def test_the_rich_format_keeps_its_own_semantics() -> None:
    truth = [{"sheet": "S", "cell_ref": "A1", "value": 1, "tags": [], "merge_span": "A1:B1"}]
    bare = [{"sheet": "S", "cell_ref": "A1", "value": 1, "merge_span": "A1:B1"}]
    report = run_eval(bare, truth)
    assert report.format == "rich"
    assert report.channels["color_mapping"].accuracy == 1.0  # missing tags are []


def test_a_declared_cell_format_decides_for_an_ambiguous_file() -> None:
    truth = {"cell_format": "ragspine", "cells": [{"sheet": "S", "cell_ref": "A1", "value": True}]}
    facts = [{"sheet": "S", "cell_ref": "A1", "value": 1, "tags": []}]
    report = run_eval(facts, truth)
    assert report.format == "ragspine"
    assert report.channels["cell_value"].accuracy == 1.0  # Python equality: True == 1
    assert report.channels["color_mapping"].accuracy == 0.0  # [] ≠ missing


@pytest.mark.parametrize(
    ("cell", "field", "says"),
    [
        ({"merge_span": [1]}, "merge_span", "[n_rows, n_cols]"),
        ({"merge_span": [0, 3]}, "merge_span", "[n_rows, n_cols]"),
        ({"cell_ref": "R0C1"}, "cell_ref", "R{row}C{col}"),
        ({"tags": "new"}, "tags", "an object {tag_key: tag_value}"),
        ({"value": {"v": 1}}, "value", "string, number, boolean or null"),
        ({"sheet": ""}, "sheet", "at least 1 character"),
    ],
)
def test_wrong_types_in_the_ragspine_format_are_located_errors(
    tmp_path: Path, cell: dict[str, Any], field: str, says: str
) -> None:
    good = {"sheet": "S", "cell_ref": "A1", "value": 1, "tags": {}, "merge_span": None}
    path = tmp_path / "truth.json"
    path.write_text(json.dumps({"cells": [good, {**good, "cell_ref": "A2", **cell}]}))
    with pytest.raises(InputError) as exc:
        load_cell_table(path)
    [problem] = exc.value.problems
    assert (problem.field or "").startswith(f"cells[1].{field}")
    assert says in problem.message
    assert "RAGSpine's cell format" in problem.message


def test_a_pair_mixing_the_two_meanings_of_merge_span_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    facts = tmp_path / "facts.json"
    facts.write_text(
        json.dumps([{"sheet": "S", "cell_ref": "A1", "value": 1, "merge_span": "A1:C1"}])
    )
    truth = tmp_path / "truth.json"
    truth.write_text(
        json.dumps([{"sheet": "S", "cell_ref": "A1", "value": 1, "merge_span": [1, 3]}])
    )
    code = main(["--suite", "extraction", "--facts", str(facts), "--ground-truth", str(truth)])
    assert code == 2
    err = capsys.readouterr().err
    assert "merge_span" in err and "rich cell format" in err and "RAGSpine's" in err
    with pytest.raises(InputError, match="write both files in one format"):
        run_eval(facts, truth)


def test_ground_truth_without_cells_is_an_error_not_a_silent_pass(tmp_path: Path) -> None:
    path = tmp_path / "pptx_ground_truth.json"
    path.write_text(json.dumps({"file": "deck.pptx", "slides": {}}))
    argv = ["--suite", "extraction", "--facts", str(DATA / "pptx_facts.json")]
    code = main([*argv, "--ground-truth", str(path), "--no-baseline"])
    assert code == 2


def test_duplicate_cells_are_still_errors() -> None:
    cell = {"sheet": "S", "cell_ref": "R1C1", "value": 1, "tags": {}}
    with pytest.raises(InputError, match="duplicate sheet!cell_ref"):
        run_eval([cell, cell], [cell])


def test_the_published_schemas_describe_both_formats() -> None:
    from jsonschema import Draft202012Validator

    schema_dir = Path(__file__).resolve().parents[2] / "schema"
    ragspine = Draft202012Validator(
        json.loads((schema_dir / "extraction_cells_ragspine.schema.json").read_text())
    )
    rich = Draft202012Validator(
        json.loads((schema_dir / "extraction_cells_rich.schema.json").read_text())
    )
    for name in ("xlsx_ground_truth.json", "xlsx_facts.json", "pptx_ground_truth.json"):
        assert not list(ragspine.iter_errors(_json(name))), name
        assert list(rich.iter_errors(_json(name))), f"{name} is not in the rich format"
    bundled = (
        Path(__file__).resolve().parents[2] / "data" / "fixtures" / "fixtures_ground_truth.json"
    )
    assert not list(rich.iter_errors(json.loads(bundled.read_text(encoding="utf-8"))))


@pytest.mark.parametrize(
    "ground_truth",
    [{"foo": 1}, {"cells": "x"}, {"cells": [{"sheet": "S"}]}, [1, 2], [{"cell_ref": "A1"}]],
)
def test_bad_ground_truth_in_python_is_an_input_error_naming_the_field(ground_truth: Any) -> None:
    with pytest.raises(InputError) as exc:
        run_eval([], ground_truth)
    assert all(p.path == "<ground truth>" for p in exc.value.problems)

"""Bad facts, ground truth and manifests: one located line per problem, all at once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragspine_action.errors import EXIT_ERROR, ConfigError, InputError
from ragspine_action.extraction import (
    FixturePair,
    default_fixture_name,
    evaluate_extraction,
    load_cell_table,
    load_fixtures,
    load_manifest,
    pairs_from_paths,
)


def write_cells(path: Path, cells: list[Any], wrapped: bool = True) -> Path:
    """One record per line, like the bundled files, so line numbers are predictable."""
    body = ",\n".join("    " + json.dumps(c) for c in cells)
    if wrapped:
        text = '{\n  "source": "x.xlsx",\n  "cells": [\n' + body + "\n  ]\n}\n"
    else:
        text = "[\n" + body + "\n]\n"
    path.write_text(text, encoding="utf-8")
    return path


def ok(ref: str, sheet: str = "S", value: Any = 1) -> dict[str, Any]:
    return {"sheet": sheet, "cell_ref": ref, "value": value, "tags": [], "merge_span": None}


def lines_of(exc: pytest.ExceptionInfo[InputError]) -> list[str]:
    return str(exc.value).splitlines()


def test_every_bad_record_is_reported_with_its_line_and_field(tmp_path: Path) -> None:
    path = write_cells(
        tmp_path / "facts.json",
        [
            ok("A1"),
            {"sheet": "S", "cell_ref": "a2", "value": 1},
            {"sheet": "S", "cell_ref": "A3", "value": {"x": 1}},
            {"sheet": "", "cell_ref": "A4", "value": 1},
            {"sheet": "S", "cell_ref": "A5", "value": 1, "tags": "red"},
            {"sheet": "S", "cell_ref": "A6", "value": 1, "merge_span": "A1-C1"},
            {"sheet": "S", "cell_ref": "A7"},
            "not a record",
        ],
    )
    with pytest.raises(InputError) as exc:
        load_cell_table(path)
    assert exc.value.exit_code == EXIT_ERROR
    got = lines_of(exc)
    assert got[0] == (
        f"{path}:5: id=S!a2: cells[1].cell_ref: must be an A1-style reference like 'B7' "
        "(upper-case letters, row from 1) (got 'a2')"
    )
    assert got[1].startswith(f"{path}:6: id=S!A3: cells[2].value: must be a string, number")
    assert got[2].startswith(f"{path}:7: id=!A4: cells[3].sheet:")
    assert got[3].startswith(f"{path}:8: id=S!A5: cells[4].tags:")
    assert got[4] == (
        f"{path}:9: id=S!A6: cells[5].merge_span: must be an A1 range like 'B2:E2' "
        "(or one cell), or null (got 'A1-C1')"
    )
    assert got[5] == f"{path}:10: id=S!A7: cells[6].value: is required"
    assert got[6] == f"{path}:11: cells[7]: must be a cell record (a JSON object)"
    assert len(got) == 7


def test_duplicate_locators_name_both_lines(tmp_path: Path) -> None:
    path = write_cells(
        tmp_path / "gt.json", [ok("A1"), ok("B2"), ok("A1", sheet="T"), ok("B2")], wrapped=False
    )
    with pytest.raises(InputError) as exc:
        load_cell_table(path)
    assert lines_of(exc) == [
        f"{path}:5: id=S!B2: [3].cell_ref: duplicate sheet!cell_ref (first at line 3)"
    ]


def test_duplicates_are_reported_together_with_type_problems(tmp_path: Path) -> None:
    path = write_cells(tmp_path / "gt.json", [ok("A1"), ok("A1"), {**ok("A2"), "value": [1]}])
    with pytest.raises(InputError) as exc:
        load_cell_table(path)
    got = lines_of(exc)
    assert len(got) == 2
    assert "duplicate sheet!cell_ref (first at line 4)" in got[0]
    assert got[1].startswith(f"{path}:6:")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"cells": [\n  {"sheet": "S",}\n]}', ":2: invalid JSON"),
        ("", ":1: invalid JSON"),
        ('{"cells": [], "cells": []}', "invalid JSON: duplicate key 'cells'"),
        ('[{"sheet": "S", "cell_ref": "A1", "value": NaN}]', "NaN is not allowed"),
        ("42", "expected a list of cell records or an object with a 'cells' list, got int"),
        ('{"rows": []}', "cells: is required: the list of cell records"),
        ('{"cells": {"A1": 1}}', "cells: must be a list of records, got dict"),
    ],
)
def test_malformed_documents_give_one_located_line(
    tmp_path: Path, text: str, expected: str
) -> None:
    path = tmp_path / "f.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_cell_table(path)
    assert len(lines_of(exc)) == 1
    assert expected in str(exc.value)
    assert str(exc.value).startswith(str(path))


def test_missing_file_and_empty_ground_truth(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="file not found"):
        load_cell_table(tmp_path / "nope.json")
    empty = write_cells(tmp_path / "empty.json", [])
    assert len(load_cell_table(empty)) == 0  # empty facts are a (bad) result, not an error
    with pytest.raises(InputError, match="has no cell records to score against"):
        load_cell_table(empty, require_cells=True)


def test_problems_of_every_file_are_gathered_into_one_error(tmp_path: Path) -> None:
    good = write_cells(tmp_path / "good.json", [ok("A1")])
    bad = write_cells(tmp_path / "bad.json", [ok("1A")])
    pairs = [
        FixturePair("one", bad, good),
        FixturePair("two", tmp_path / "missing.json", good),
        FixturePair("three", good, write_cells(tmp_path / "gt_empty.json", [])),
    ]
    with pytest.raises(InputError) as exc:
        load_fixtures(pairs)
    got = lines_of(exc)
    assert len(got) == 3
    assert got[0].startswith(f"{bad}:4:")
    assert got[1] == f"{tmp_path / 'missing.json'}: file not found"
    assert "has no cell records" in got[2]


def test_problem_list_is_capped_for_huge_bad_files(tmp_path: Path) -> None:
    path = write_cells(tmp_path / "f.json", [ok(f"a{i}") for i in range(1, 200)])
    with pytest.raises(InputError) as exc:
        load_cell_table(path)
    got = lines_of(exc)
    assert len(got) <= 52
    assert got[-1].endswith("more problems not shown")


def test_extra_fields_are_kept_and_ignored(tmp_path: Path) -> None:
    path = write_cells(tmp_path / "f.json", [{**ok("A1"), "confidence": 0.7, "bbox": [1, 2]}])
    table = load_cell_table(path)
    assert table.cells["S!A1"]["confidence"] == 0.7  # type: ignore[typeddict-item]


def write_manifest(path: Path, doc: Any) -> Path:
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return path


def test_manifest_paths_are_relative_to_the_manifest(tmp_path: Path) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    write_cells(sub / "f.json", [ok("A1", value=2)])
    write_cells(sub / "g.json", [ok("A1", value=1)])
    manifest = write_manifest(
        tmp_path / "m.json",
        {"fixtures": [{"name": "x", "facts": "sub/f.json", "ground_truth": "sub/g.json"}]},
    )
    pairs = load_manifest(manifest)
    assert pairs == [FixturePair("x", tmp_path / "sub/f.json", tmp_path / "sub/g.json")]
    assert evaluate_extraction(manifest).flat_metrics()["x/cell_value"] == 0.0


def test_manifest_problems_are_located(tmp_path: Path) -> None:
    doc = {
        "fixtures": [
            {"name": "a", "facts": "f.json", "ground_truth": "g.json"},
            {"name": "a", "facts": "f.json", "ground_truth": "g.json"},
            {"name": "total", "facts": "f.json", "ground_truth": "g.json"},
            {"name": "has/slash", "facts": "f.json"},
        ]
    }
    manifest = write_manifest(tmp_path / "m.json", doc)
    with pytest.raises(InputError) as exc:
        load_manifest(manifest)
    got = lines_of(exc)
    assert got[0] == f"{manifest}:18: id=has/slash: fixtures[3].ground_truth: is required"
    assert (
        got[1] == f"{manifest}:8: fixtures[1].name: duplicate fixture name (first at fixtures[0])"
    )
    assert got[2].startswith(f"{manifest}:13: fixtures[2].name: 'total' is reserved")
    with pytest.raises(InputError, match="fixtures: List should have at least 1 item"):
        load_manifest(write_manifest(tmp_path / "e.json", {"fixtures": []}))


def test_repeated_flags_pair_up_and_take_names_from_ground_truth(tmp_path: Path) -> None:
    pairs = pairs_from_paths(["a.json", "b.json"], ["x/pdf_ground_truth.json", "pptx-gt.json"])
    assert [p.name for p in pairs] == ["pdf", "pptx-gt"]
    assert default_fixture_name("data/fixtures/fixtures_ground_truth.json") == "fixtures"
    assert default_fixture_name("total.json") == "fixture-total"
    with pytest.raises(ConfigError, match="must come in pairs"):
        pairs_from_paths(["a.json"], [])
    with pytest.raises(ConfigError, match="name them in a manifest"):
        pairs_from_paths(["a", "b"], ["x/pdf_ground_truth.json", "y/pdf_ground_truth.json"])


@pytest.mark.parametrize(("doc", "kind"), [([{"name": "x"}], "a list"), ("m", "a string")])
def test_a_manifest_that_is_no_object_says_what_a_manifest_is(
    tmp_path: Path, doc: Any, kind: str
) -> None:
    """A bare list of fixtures (what the --help line suggested) is one line showing the
    shape, not pydantic's "instance of _Manifest"."""
    manifest = write_manifest(tmp_path / "m.json", doc)
    with pytest.raises(InputError) as exc:
        load_manifest(manifest)
    [line] = lines_of(exc)
    assert line.startswith(f"{manifest}: a manifest is a JSON object") and kind in line
    assert '{"fixtures": [' in line and "_Manifest" not in line

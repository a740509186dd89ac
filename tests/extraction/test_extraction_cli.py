"""The extraction suite through the CLI: exact numbers, its own ratchet, one-cell changes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragspine_action.cli import main

FIXTURES = Path(__file__).resolve().parents[2] / "data" / "fixtures"


def _cells(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _write(path: Path, doc: Any) -> Path:
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _run(args: list[str], report: Path) -> tuple[int, dict[str, Any]]:
    code = main([*args, "--report", str(report), "--quiet"])
    return code, json.loads(report.read_text(encoding="utf-8"))


def test_hand_counted_pair_gives_exact_channel_numbers(tmp_path: Path) -> None:
    truth = [
        {
            "sheet": "S",
            "cell_ref": "A1",
            "value": "Revenue",
            "tags": ["header"],
            "merge_span": "A1:B1",
        },
        {"sheet": "S", "cell_ref": "A2", "value": 10, "tags": ["blue"], "merge_span": None},
        {"sheet": "S", "cell_ref": "A3", "value": 20, "tags": ["red"], "merge_span": None},
        {"sheet": "S", "cell_ref": "A4", "value": 30, "tags": [], "merge_span": None},
    ]
    facts = [
        {
            "sheet": "S",
            "cell_ref": "A1",
            "value": "Revenue",
            "tags": ["header"],
            "merge_span": "A1:C1",
        },
        {"sheet": "S", "cell_ref": "A2", "value": 11, "tags": ["blue"], "merge_span": None},
        {"sheet": "S", "cell_ref": "A3", "value": 20, "tags": ["green"], "merge_span": None},
        {"sheet": "S", "cell_ref": "Z9", "value": 1, "tags": [], "merge_span": None},
    ]
    args = [
        "--suite",
        "extraction",
        "--facts",
        str(_write(tmp_path / "facts.json", facts)),
        "--ground-truth",
        str(_write(tmp_path / "mine_ground_truth.json", {"cells": truth})),
        "--baseline",
        str(tmp_path / "baseline.json"),
    ]
    code, report = _run(args, tmp_path / "r.json")
    assert code == 0 and report["baseline"]["status"] == "created"
    channels = report["extraction"]["channels"]
    # aligned: A1, A2, A3 (A4 only in truth, Z9 only in facts)
    assert {k: (v["correct"], v["total"]) for k, v in channels.items()} == {
        "cell_value": (2, 3),
        "color_mapping": (2, 3),
        "header_attribution": (2, 3),
    }
    assert channels["cell_value"]["mismatches"][0]["locator"] == "S!A2"
    coverage = report["extraction"]["coverage"]
    assert (coverage["only_in_facts"], coverage["only_in_ground_truth"]) == (1, 1)
    assert report["qa"] is None


@pytest.mark.parametrize(
    ("field", "new_value", "channel"),
    [
        ("value", "CHANGED", "cell_value"),
        ("tags", ["totally-new-tag"], "color_mapping"),
        ("merge_span", "A1:Z99", "header_attribution"),
    ],
)
def test_one_cell_change_turns_exactly_one_channel_red(
    tmp_path: Path, field: str, new_value: Any, channel: str
) -> None:
    baseline = tmp_path / "baseline.json"
    base_args = ["--suite", "extraction", "--baseline", str(baseline)]
    code, _ = _run(base_args, tmp_path / "r0.json")
    assert code == 0

    facts = _cells(FIXTURES / "pptx" / "pptx_facts.json")
    truth = _cells(FIXTURES / "pptx" / "pptx_ground_truth.json")
    truth_by_loc = {(c["sheet"], c["cell_ref"]): c for c in truth["cells"]}
    scored = ("value", "tags", "merge_span")

    def fully_correct(cell: dict[str, Any]) -> bool:
        truth_cell = truth_by_loc.get((cell["sheet"], cell["cell_ref"]))
        return truth_cell is not None and all(cell.get(k) == truth_cell.get(k) for k in scored)

    target = next(c for c in facts["cells"] if fully_correct(c))
    target[field] = new_value
    manifest = json.loads((FIXTURES / "manifest.json").read_text())
    for entry in manifest["fixtures"]:
        entry["ground_truth"] = str(FIXTURES / entry["ground_truth"])
        entry["facts"] = str(FIXTURES / entry["facts"])
        if entry["name"] == "pptx":
            entry["facts"] = str(_write(tmp_path / "pptx_facts.json", facts))
    changed = _write(tmp_path / "manifest.json", manifest)

    code, report = _run([*base_args, "--extraction-manifest", str(changed)], tmp_path / "r1.json")
    assert code == 1
    regressed = {r["metric"] for r in report["baseline"]["regressions"]}
    assert regressed == {f"pptx/{channel}", f"total/{channel}"}
    locator = f"{target['sheet']}!{target['cell_ref']}"
    assert [b["id"] for b in report["baseline"]["broken"]] == [locator]
    assert report["baseline"]["broken"][0]["metric"] == f"pptx/{channel}"


def test_changed_ground_truth_is_stale_with_the_extraction_rerecord_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    truth = tmp_path / "mine_ground_truth.json"
    cells = [{"sheet": "S", "cell_ref": "A1", "value": 1, "tags": [], "merge_span": None}]
    _write(truth, cells)
    facts = _write(tmp_path / "facts.json", cells)
    baseline = tmp_path / "baseline.json"
    args = ["--suite", "extraction", "--facts", str(facts), "--ground-truth", str(truth)]
    args += ["--baseline", str(baseline)]
    assert _run(args, tmp_path / "r0.json")[0] == 0
    _write(truth, [{**cells[0], "value": 2}])
    capsys.readouterr()
    code, report = _run(args, tmp_path / "r1.json")
    assert code == 2 and report["baseline"]["status"] == "stale"
    message = report["baseline"]["message"]
    assert f"--suite extraction --facts {facts} --ground-truth {truth}" in message
    assert "--golden" not in message


def test_a_manifest_entry_whose_file_is_missing_names_the_entry_and_the_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A typo in a manifest's file name: the user must learn which entry to fix
    (``fixtures[1].facts`` on its line), not only the resolved path that was tried."""
    for name in ("fixtures_facts.json", "fixtures_ground_truth.json"):
        (tmp_path / name).write_bytes((FIXTURES / name).read_bytes())
    doc = {
        "fixtures": [
            {
                "name": "a",
                "facts": "fixtures_facts.json",
                "ground_truth": "fixtures_ground_truth.json",
            },
            {"name": "b", "facts": "fixtures_fact.json", "ground_truth": "gt/missing.json"},
        ]
    }
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    report = tmp_path / "report.json"
    argv = ["--no-config", "--suite", "extraction", "--extraction-manifest", str(manifest)]
    code = main([*argv, "--report", str(report)])
    err = capsys.readouterr().err
    assert code == 2 and not report.exists()
    assert err.strip().splitlines() == [
        f"{manifest}:8: fixtures[1].facts: file not found: {tmp_path / 'fixtures_fact.json'}",
        f"{manifest}:8: fixtures[1].ground_truth: file not found: {tmp_path / 'gt/missing.json'}",
    ]

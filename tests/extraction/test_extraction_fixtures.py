"""The bundled fixtures, scored against numbers counted by hand.

Deliberate extraction errors in the bundled facts (everything else is identical):

fixtures (spreadsheet, 50 ground-truth cells; facts lack PL_FY2024!F8, add PL_FY2024!G4
→ 49 aligned)
  cell_value          C4 1835→1385 · F6 2870→"2,870" · A7 "Operating expenses"→"…expense"
                      · Segments!C3 -1.8→-1.79 (within rel_tol 0.01)           4 wrong
  color_mapping       E5 ["estimate"]→[] · E6 order swapped (same set)
                      · Segments!C2 []→["decline"]                              3 wrong
  header_attribution  B2 "B2:E2"→"b2:e2" (same range) · D3 "B2:E2"→null
                      · F5 "F2:F3"→"F2:F2"                                       3 wrong
pdf (35 cells, all aligned)
  cell_value          p37 C5 3170→"317O" · E4 -24→24 (B4 18240→18240.0 is no error)   2 wrong
  color_mapping       B6 ["total"]→[] · A6 ["total"]→["total","total"] (same set)      2 wrong
  header_attribution  D1 "D1:E1"→"E1:D1" (same range) · C2 "B1:C1"→"C1:D1"          2 wrong
pptx (25 cells; facts lack A7 and B7 → 23 aligned)
  cell_value          B5 15.8→"15.8%"                                           1 wrong
  color_mapping       none                                                       0 wrong
  header_attribution  D1 null→"D1:D2"                                            1 wrong
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragspine_action.extraction import (
    CHANNELS,
    Channel,
    ExtractionOptions,
    ExtractionResult,
    FixturePair,
    evaluate_extraction,
    load_manifest,
)

FIXTURES = Path(__file__).resolve().parents[2] / "data" / "fixtures"
MANIFEST = FIXTURES / "manifest.json"

# (total, correct) per fixture and channel, counted by hand from the list above.
EXACT = {
    "fixtures": {"cell_value": (49, 45), "color_mapping": (49, 46), "header_attribution": (49, 46)},
    "pdf": {"cell_value": (35, 33), "color_mapping": (35, 33), "header_attribution": (35, 33)},
    "pptx": {"cell_value": (23, 22), "color_mapping": (23, 23), "header_attribution": (23, 22)},
}


def _counts(result: ExtractionResult) -> dict[str, dict[str, tuple[int, int]]]:
    return {
        fx.name: {ch: (r.total, r.correct) for ch, r in fx.channels.items()}
        for fx in result.fixtures
    }


def test_bundled_fixtures_score_the_hand_counted_numbers() -> None:
    result = evaluate_extraction(MANIFEST)
    assert _counts(result) == EXACT
    assert {ch: (r.total, r.correct) for ch, r in result.total.items()} == {
        "cell_value": (107, 100),
        "color_mapping": (107, 102),
        "header_attribution": (107, 101),
    }
    metrics = result.flat_metrics()
    assert metrics["fixtures/cell_value"] == 45 / 49
    assert metrics["pptx/color_mapping"] == 1.0
    assert metrics["total/header_attribution"] == 101 / 107
    assert len(metrics) == 12
    assert result.n_facts == 50 + 35 + 23


def test_bundled_mismatches_name_each_hand_placed_cell() -> None:
    result = evaluate_extraction(MANIFEST)
    named = {
        (fx.name, ch): sorted(m.locator for m in r.mismatches)
        for fx in result.fixtures
        for ch, r in fx.channels.items()
    }
    assert named[("fixtures", "cell_value")] == sorted(
        ["PL_FY2024!C4", "PL_FY2024!F6", "PL_FY2024!A7", "Segments!C3"]
    )
    assert named[("fixtures", "color_mapping")] == sorted(
        ["PL_FY2024!E5", "PL_FY2024!E6", "Segments!C2"]
    )
    assert named[("fixtures", "header_attribution")] == sorted(
        ["PL_FY2024!B2", "PL_FY2024!D3", "PL_FY2024!F5"]
    )
    assert named[("pdf", "cell_value")] == ["p37_table1!C5", "p37_table1!E4"]
    assert named[("pptx", "color_mapping")] == []
    value_f6 = result.fixture("fixtures").channels["cell_value"].mismatches[1]
    assert (value_f6.locator, value_f6.expected, value_f6.actual) == ("PL_FY2024!F6", 2870, "2,870")


def test_bundled_coverage_counts_cells_on_one_side_only() -> None:
    result = evaluate_extraction(MANIFEST)
    sheet = result.fixture("fixtures").coverage
    assert (sheet.n_facts, sheet.n_ground_truth, sheet.aligned) == (50, 50, 49)
    assert sheet.examples_only_in_facts == ("PL_FY2024!G4",)
    assert sheet.examples_only_in_ground_truth == ("PL_FY2024!F8",)
    pptx = result.fixture("pptx").coverage
    assert pptx.only_in_ground_truth == 2
    assert pptx.examples_only_in_ground_truth == ("slide12_table1!A7", "slide12_table1!B7")
    assert result.coverage.only_in_facts == 1
    assert result.coverage.only_in_ground_truth == 3
    assert result.coverage.examples_only_in_ground_truth[0] == "fixtures:PL_FY2024!F8"
    assert result.coverage_metrics()["pptx/coverage"] == 23 / 25


@pytest.mark.parametrize(
    ("options", "changed"),
    [
        (ExtractionOptions(rel_tol=0.01), {("fixtures", "cell_value"): 46}),
        (ExtractionOptions(abs_tol=0.5), {("fixtures", "cell_value"): 46}),
        (
            ExtractionOptions(tags_as_set=True),
            {("fixtures", "color_mapping"): 47, ("pdf", "color_mapping"): 34},
        ),
        (
            ExtractionOptions(spans_as_ranges=True),
            {("fixtures", "header_attribution"): 47, ("pdf", "header_attribution"): 34},
        ),
    ],
)
def test_each_option_recovers_exactly_the_cells_it_normalises(
    options: ExtractionOptions, changed: dict[tuple[str, str], int]
) -> None:
    counts = _counts(evaluate_extraction(MANIFEST, options))
    for fixture, channels in EXACT.items():
        for channel, (total, correct) in channels.items():
            assert counts[fixture][channel] == (total, changed.get((fixture, channel), correct))


def _copy_fixtures(tmp_path: Path) -> list[FixturePair]:
    pairs = []
    for pair in load_manifest(MANIFEST):
        facts = tmp_path / f"{pair.name}_facts.json"
        facts.write_text(pair.facts.read_text(encoding="utf-8"), encoding="utf-8")
        pairs.append(FixturePair(pair.name, facts, pair.ground_truth))
    return pairs


@pytest.mark.parametrize(
    ("field", "new_value", "channel"),
    [
        ("value", 1166, "cell_value"),
        ("tags", ["total", "negative"], "color_mapping"),
        ("merge_span", "D1:D1", "header_attribution"),
    ],
)
def test_one_changed_cell_lowers_exactly_one_channel_and_names_the_cell(
    tmp_path: Path, field: str, new_value: object, channel: Channel
) -> None:
    pairs = _copy_fixtures(tmp_path)
    before = evaluate_extraction(pairs)
    pdf_facts = next(p.facts for p in pairs if p.name == "pdf")
    doc = json.loads(pdf_facts.read_text(encoding="utf-8"))
    target = next(c for c in doc["cells"] if c["cell_ref"] == "E6" and c["sheet"] == "p37_table1")
    target[field] = new_value
    pdf_facts.write_text(json.dumps(doc), encoding="utf-8")
    after = evaluate_extraction(pairs)

    old, new = before.flat_metrics(), after.flat_metrics()
    lowered = {key for key in old if new[key] < old[key]}
    assert lowered == {f"pdf/{channel}", f"total/{channel}"}
    assert all(new[key] == old[key] for key in old if key not in lowered)
    assert after.fixture("pdf").channels[channel].correct == 32
    newly_failed = after.failed_cells()[f"pdf/{channel}"] - before.failed_cells()[f"pdf/{channel}"]
    assert newly_failed == {"p37_table1!E6"}
    named = [m for m in after.total[channel].mismatches if m.locator == "p37_table1!E6"]
    assert len(named) == 1
    assert named[0].fixture == "pdf"
    assert named[0].actual == new_value
    assert "p37_table1!E6" in before.passed_cells()[f"pdf/{channel}"]
    assert "p37_table1!E6" not in after.passed_cells()[f"pdf/{channel}"]


def test_channels_are_reported_in_fixed_order() -> None:
    result = evaluate_extraction(MANIFEST)
    assert [fx.name for fx in result.fixtures] == ["fixtures", "pdf", "pptx"]
    assert all(tuple(fx.channels) == CHANNELS for fx in result.fixtures)

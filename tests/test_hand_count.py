"""A golden set and outcomes written from the SPEC alone, scored by hand.

Hand count (see tests/data/hand_count/):
- numeric_accuracy applies to n1 n2 n3 n4 c2 m1 (6): passes n1 (n2 wrong unit, n3 passes —
  right value, wrong locator —, n4 error, c2 asked back, m1 no outcome) → n1, n3 = 2/6
- citation_validity applies to n1 n2 n3 n4 c2 t1 t2 m1 (8): n1, n2, t1, t2 pass → 4/8
- refusal_appropriateness, every case (12): fails n4 (error), r3 (answered), m1 (missing) → 9/12
- clarification_appropriateness (12): fails n4, c2 (complete question asked back), m1 → 9/12
- faithfulness t1 t2: both claims are in the contexts → 2/2
- answer_accuracy t1 (3 of 4 reference tokens) passes, t2 (0 of 2) fails → 1/2
- fabrication: r2 ("42"; 2025 is a period) and r3 ("9") → 2 of 3 refusal cases
- errors: n4 (error) and m1 (no outcome) → 2
"""

from __future__ import annotations

import json
from pathlib import Path

from ragspine_action.cli import main

DATA = Path(__file__).resolve().parent / "data" / "hand_count"

EXPECTED = {
    "numeric_accuracy": (2, 6),
    "citation_validity": (4, 8),
    "refusal_appropriateness": (9, 12),
    "clarification_appropriateness": (9, 12),
    "faithfulness": (2, 2),
    "answer_accuracy": (1, 2),
}


def test_report_matches_the_hand_count(tmp_path: Path) -> None:
    report_path = tmp_path / "report.json"
    args = ["--system", "outcomes", "--mode", "tool", "--golden", str(DATA / "golden.jsonl")]
    args += ["--outcomes", str(DATA / "outcomes.jsonl"), "--report", str(report_path)]
    args += ["--max-error-rate", "0.5"]  # the hand count includes a missing outcome
    assert main([*args, "--baseline", str(tmp_path / "b.json"), "--quiet"]) == 0
    qa = json.loads(report_path.read_text())["qa"]
    assert {k: (m["passed"], m["total"]) for k, m in qa["metrics"].items()} == EXPECTED
    assert qa["metrics"]["numeric_accuracy"]["pass_rate"] == 2 / 6
    assert qa["fabrication_count"] == 2
    assert {c["id"]: c["numbers"] for c in qa["fabrication"]["cases"]} == {
        "r2": ["42"],
        "r3": ["9"],
    }
    assert qa["errors"]["count"] == 2
    assert {e["id"] for e in qa["errors"]["cases"]} == {"n4", "m1"}
    assert {f["id"] for f in qa["metrics"]["citation_validity"]["failures"]} == {
        "n3",
        "n4",
        "c2",
        "m1",
    }
    by_kind = qa["metrics"]["numeric_accuracy"]["by_tag"]["kind"]
    assert by_kind == {"direct": {"total": 3, "passed": 1}, "paraphrase": {"total": 3, "passed": 1}}
    assert [c["id"] for c in qa["cases"] if c["passed"]] == ["n1", "r1", "c1", "t1"]
    assert len(qa["cases"]) == 12

"""Outcomes: the loader's located errors, and how missing/errored/unknown outcomes are scored.

A case without an outcome, or with ``error``, must fail every gate that applies to it and
be counted in ``qa.errors`` — never silently skipped (SPEC §5).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragspine_action import cli
from ragspine_action.errors import InputError
from ragspine_action.outcomes import load_outcomes

DATA = Path(__file__).parent.parent / "data"
MINI_GOLDEN = DATA / "mini_golden.jsonl"
MINI_OUTCOMES = DATA / "mini_outcomes.jsonl"


def _outcomes() -> list[dict[str, Any]]:
    return [json.loads(line) for line in MINI_OUTCOMES.read_text().splitlines() if line]


def _write(path: Path, outcomes: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(o) + "\n" for o in outcomes))
    return path


def _run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], outcomes: list[dict[str, Any]]
) -> tuple[int, dict[str, Any], str]:
    path = _write(tmp_path / "outcomes.jsonl", outcomes)
    report = tmp_path / "report.json"
    argv = ["--system", "outcomes", "--golden", str(MINI_GOLDEN), "--outcomes", str(path)]
    argv += ["--no-baseline", "--report", str(report), "--bootstrap-resamples", "0"]
    code = cli.main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    return code, json.loads(report.read_text()), captured.out + captured.err


def _case(report: dict[str, Any], case_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(c for c in report["qa"]["cases"] if c["id"] == case_id)
    return found


def test_loader_keeps_file_order_and_accepts_bare_doc_ids(tmp_path: Path) -> None:
    loaded = load_outcomes(MINI_OUTCOMES)
    assert list(loaded) == ["n1", "n2", "c1", "r1", "t1", "q1"]
    assert loaded["q1"].ranked_docs() == ["HK_QBR_2025Q4.pptx", "REG_WATCH_HK.pptx", "X.pptx"]
    assert loaded["n2"].sources[0].doc == "ACME_FY2025_Results.pptx"


def test_loader_ignores_extra_fields_and_flattens_error_objects(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "o.jsonl",
        [{"id": "a", "trace_id": "xyz", "error": {"type": "Timeout", "after_s": 30}}],
    )
    loaded = load_outcomes(path)
    assert loaded["a"].error == "type=Timeout; after_s=30"


def test_loader_reports_every_bad_line_at_once(tmp_path: Path) -> None:
    path = tmp_path / "o.jsonl"
    path.write_text(
        '{"id": "a"}\n'
        '{"id": "b", "value": "12"}\n'
        "not json\n"
        '{"id": "a", "answer": "again"}\n'
        '{"id": "c", "refused": "no", "sources": {"doc": "x"}}\n'
    )
    with pytest.raises(InputError) as info:
        load_outcomes(path)
    got = [str(p) for p in info.value.problems]
    assert got[0].startswith(f"{path}:2: id=b: value: ")
    assert got[1].startswith(f"{path}:3: invalid JSON")
    assert got[2] == f"{path}:4: id=a: id: duplicate id (first on line 1)"
    assert {g.split(": ")[2] for g in got[3:]} == {"refused", "sources"}
    assert all(g.startswith(f"{path}:5: id=c: ") for g in got[3:])


def test_case_without_outcome_fails_every_applicable_gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outcomes = [o for o in _outcomes() if o["id"] not in ("n1", "r1")]
    code, report, _ = _run(tmp_path, capsys, outcomes)
    qa = report["qa"]
    assert qa["n_cases"] == 6
    assert qa["errors"]["count"] == 2
    assert {e["id"] for e in qa["errors"]["cases"]} == {"n1", "r1"}
    for case_id in ("n1", "r1"):
        gates = _case(report, case_id)["gates"]
        assert gates, f"{case_id} was skipped"
        assert not any(gates.values()), f"{case_id}: {gates}"
    assert set(_case(report, "n1")["gates"]) == {
        "numeric_accuracy",
        "citation_validity",
        "refusal_appropriateness",
        "clarification_appropriateness",
    }
    metrics = qa["metrics"]
    assert (metrics["numeric_accuracy"]["passed"], metrics["numeric_accuracy"]["total"]) == (1, 2)
    # A missing refusal case does not count as a correct refusal.
    assert metrics["refusal_appropriateness"]["passed"] == 4
    # A missing outcome is an error, and any error is over the default budget (0): the
    # verdict is "error" (exit 2), with every case still scored in the report.
    assert code == 2 and report["verdict"] == "error"


def test_outcome_with_error_fails_every_applicable_gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Errored outcomes that otherwise look right: the error must still fail them.
    outcomes = [
        dict(o, error="upstream 503") if o["id"] in ("c1", "t1") else o for o in _outcomes()
    ]
    _, report, out = _run(tmp_path, capsys, outcomes)
    qa = report["qa"]
    assert qa["errors"]["count"] == 2
    assert {(e["id"], e["error"]) for e in qa["errors"]["cases"]} == {
        ("c1", "upstream 503"),
        ("t1", "upstream 503"),
    }
    for case_id in ("c1", "t1"):
        gates = _case(report, case_id)["gates"]
        assert gates and not any(gates.values()), f"{case_id}: {gates}"
    assert set(_case(report, "t1")["gates"]) >= {"citation_validity", "faithfulness"}
    assert qa["metrics"]["faithfulness"]["passed"] == 0
    assert "2 of 6 cases ended in an error" in out


def test_outcome_for_an_unknown_id_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outcomes = [*_outcomes(), {"id": "zz-not-in-golden", "answer": "?"}]
    code, report, out = _run(tmp_path, capsys, outcomes)
    assert report["qa"]["unknown_outcome_ids"] == ["zz-not-in-golden"]
    assert any("zz-not-in-golden" in w for w in report["warnings"])
    assert "zz-not-in-golden" in out
    assert report["qa"]["n_cases"] == 6
    assert report["qa"]["errors"]["count"] == 0
    assert code == 0

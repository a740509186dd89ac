"""The committed schemas match the models, and real reports validate against them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from ragspine_action.cli import main
from ragspine_action.schema import SCHEMA_DIR, SCHEMAS, render_schema

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_committed_schema_is_current(name: str) -> None:
    model, title = SCHEMAS[name]
    committed = (SCHEMA_DIR / name).read_text(encoding="utf-8")
    assert committed == render_schema(model, title), (
        f"schema/{name} is out of date: run `python -m ragspine_action.schema`"
    )


def test_report_validates_against_committed_schema(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    code = main(
        [
            "--system",
            "outcomes",
            "--golden",
            str(DATA / "mini_golden.jsonl"),
            "--outcomes",
            str(DATA / "mini_outcomes.jsonl"),
            "--baseline",
            str(tmp_path / "baseline.json"),
            "--report",
            str(report),
            "--quiet",
        ]
    )
    assert code == 0
    schema = json.loads((SCHEMA_DIR / "report.schema.json").read_text(encoding="utf-8"))
    errors = list(Draft202012Validator(schema).iter_errors(json.loads(report.read_text())))
    assert errors == []
    broken = json.loads(report.read_text())
    broken["verdict"] = "maybe"
    assert list(Draft202012Validator(schema).iter_errors(broken)), (
        "schema must reject a bad verdict"
    )

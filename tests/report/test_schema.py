"""The committed schemas match the models, and real reports validate against them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pydantic
import pytest
from jsonschema import Draft202012Validator

from ragspine_action.cli import main
from ragspine_action.schema import SCHEMA_DIR, SCHEMAS, render_schema

DATA = Path(__file__).resolve().parents[1] / "data"


ROOT = Path(__file__).resolve().parents[2]


def _locked_pydantic() -> str | None:
    """The pydantic version in requirements-dev.lock: the one schema/ is generated with."""
    lock = ROOT / "requirements-dev.lock"
    found = re.search(r"^pydantic==(\S+)", lock.read_text(encoding="utf-8"), re.M)
    return found.group(1) if found else None


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_committed_schema_is_current(name: str) -> None:
    locked = _locked_pydantic()
    assert locked, "requirements-dev.lock pins no pydantic"
    if locked != pydantic.VERSION:
        # Other pydantic versions spell the same schema differently (0 vs 0.0, enum vs const).
        pytest.skip(
            f"schema/ is generated with the locked pydantic {locked}, not {pydantic.VERSION}"
        )
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
            "--mode",
            "mine",
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

"""JSON Schemas generated from the models, committed under ``schema/``.

``python -m ragspine_action.schema`` rewrites them; a test fails when a committed copy is
out of date, so the published schema never drifts from what the code writes and reads.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, TypeAdapter

from .baseline.model import BaselineEntry
from .config_file import ConfigFile
from .extraction.models import RAGSPINE_FILE_ADAPTER, RICH_FILE_ADAPTER
from .golden.models import GoldenCase
from .outcomes.model import Outcome
from .report.model import Report

__all__ = ["SCHEMAS", "render_schema", "write_schemas"]

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schema"

SCHEMAS: dict[str, tuple[type[BaseModel] | TypeAdapter[Any], str]] = {
    "report.schema.json": (Report, "ragspine-eval report"),
    "golden_case.schema.json": (GoldenCase, "ragspine-eval golden case (one JSONL line)"),
    "outcome.schema.json": (Outcome, "ragspine-eval outcome (one JSONL line)"),
    "baseline_entry.schema.json": (BaselineEntry, "ragspine-eval baseline entry (one key)"),
    "config.schema.json": (ConfigFile, "ragspine-eval.yml"),
    "extraction_cells_ragspine.schema.json": (
        RAGSPINE_FILE_ADAPTER,
        "ragspine-eval extraction facts or ground truth, RAGSpine's cell format",
    ),
    "extraction_cells_rich.schema.json": (
        RICH_FILE_ADAPTER,
        "ragspine-eval extraction facts or ground truth, the rich cell format",
    ),
}


def render_schema(model: type[BaseModel] | TypeAdapter[Any], title: str) -> str:
    # The report is something we write; everything else is something users write to us.
    mode: Literal["validation", "serialization"] = (
        "serialization" if model is Report else "validation"
    )
    if isinstance(model, TypeAdapter):
        schema: dict[str, Any] = model.json_schema(by_alias=True, mode=mode)
    else:
        schema = model.model_json_schema(by_alias=True, mode=mode)
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title, **schema}
    return json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def write_schemas(directory: Path = SCHEMA_DIR) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (model, title) in SCHEMAS.items():
        path = directory / name
        path.write_text(render_schema(model, title), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for written_path in write_schemas(Path(sys.argv[1]) if len(sys.argv) > 1 else SCHEMA_DIR):
        print(written_path)

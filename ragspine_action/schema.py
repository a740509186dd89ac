"""JSON Schemas generated from the models, committed under ``schema/``.

``python -m ragspine_action.schema`` rewrites them in a source checkout's ``schema/``
(``python -m ragspine_action.schema DIR`` writes them into DIR; an installed package needs
DIR, it never writes into site-packages); a test fails when a committed copy is out of
date, so the published schema never drifts from what the code writes and reads.
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
from .paths import CHECKOUT_ROOT, SCHEMA_DIR
from .report.model import Report

__all__ = ["SCHEMAS", "SCHEMA_DIR", "main", "render_schema", "write_schemas"]

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


def write_schemas(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (model, title) in SCHEMAS.items():
        path = directory / name
        path.write_text(render_schema(model, title), encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """``python -m ragspine_action.schema [DIR]``: DIR, else the checkout's ``schema/``."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) > 1:
        print("usage: python -m ragspine_action.schema [DIR]", file=sys.stderr)
        return 2
    if args:
        directory = Path(args[0])
    elif CHECKOUT_ROOT is not None:
        directory = CHECKOUT_ROOT / "schema"
    else:
        print(
            "ragspine-eval: not a source checkout, so there is no schema/ to rewrite: "
            "give an output directory (python -m ragspine_action.schema DIR)",
            file=sys.stderr,
        )
        return 2
    try:
        written = write_schemas(directory)
    except OSError as exc:
        print(f"ragspine-eval: {directory}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())

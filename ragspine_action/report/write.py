"""Write the JSON report: indented for people, one line per case, streamed to disk.

A million-case report is ~600 MB of JSON; built as one string it would need that much
memory again on top of the run. So the report is indented except ``qa.cases``, whose
rows are encoded one compact line each, straight from the columns, in chunks. Small and
large reports share this one format, so a merged sharded report equals an unsharded one.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any

import orjson

from ..jsonio import atomic_write_chunks
from .cases import CaseTable
from .model import QASection, Report

__all__ = ["encode_report", "write_report"]

_CHUNK_ROWS = 20_000
_CASE_INDENT = b"      "  # qa (2) → its keys (4) → items of qa.cases (6)


def _skeleton(report: Report, placeholder: str) -> dict[str, Any]:
    """The report as JSON data with ``qa.cases`` replaced by ``placeholder``."""
    data: dict[str, Any] = report.model_dump(mode="json", by_alias=True, exclude={"qa"})
    qa = report.qa
    if qa is None:
        data["qa"] = None
    else:
        fields = qa.model_dump(mode="json", by_alias=True, exclude={"cases"})
        data["qa"] = {
            name: placeholder if name == "cases" else fields[name]
            for name in QASection.model_fields
            if name == "cases" or name in fields
        }
    return {name: data[name] for name in Report.model_fields if name in data}


def _case_rows(qa: QASection) -> Iterator[bytes]:
    cases = qa.cases
    if isinstance(cases, CaseTable):
        for start in range(0, len(cases), _CHUNK_ROWS):
            yield from map(orjson.dumps, cases.rows(start, start + _CHUNK_ROWS))
    else:
        for case in cases:
            yield orjson.dumps(case.model_dump(mode="json"))


def encode_report(report: Report) -> Iterator[bytes]:
    """The report's bytes, in pieces (see the module docstring for the format)."""
    placeholder = f"ragspine-cases-{uuid.uuid4().hex}"
    text = orjson.dumps(_skeleton(report, placeholder), option=orjson.OPT_INDENT_2)
    if report.qa is None:
        yield text + b"\n"
        return
    head, found, tail = text.partition(orjson.dumps(placeholder))
    assert found and placeholder.encode() not in tail
    yield head + b"["
    chunk: list[bytes] = []
    first = True
    for row in _case_rows(report.qa):
        chunk.append(row)
        if len(chunk) == _CHUNK_ROWS:
            yield (b"\n" if first else b",\n") + b",\n".join(_CASE_INDENT + r for r in chunk)
            chunk, first = [], False
    if chunk:
        yield (b"\n" if first else b",\n") + b",\n".join(_CASE_INDENT + r for r in chunk)
        first = False
    yield (b"]" if first else b"\n    ]") + tail + b"\n"


def write_report(report: Report, path: str | os.PathLike[str]) -> None:
    """Atomic: a reader (or a killed run) never sees half a report."""
    atomic_write_chunks(path, encode_report(report))

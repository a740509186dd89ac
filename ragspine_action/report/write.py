"""Write the JSON report: indented for people, one line per case, streamed to disk.

A million-case report is ~600 MB of JSON; built as one string it would need that much
memory again on top of the run. So the report is indented except ``qa.cases``, whose
rows are encoded one compact line each, straight from the columns, in chunks. Small and
large reports share this one format, so a merged sharded report equals an unsharded one.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Any

import orjson

from ..jsonio import FileContents, atomic_write_chunks, dumps_spliced, splice_marker
from .cases import CaseTable
from .model import QASection, Report

__all__ = ["encode_case_lines", "encode_report", "write_case_lines", "write_report"]

_CHUNK_ROWS = 20_000
_READ_BYTES = 8 * 1024 * 1024
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


def encode_case_lines(table: CaseTable, start: int, stop: int) -> bytes:
    """Cases ``start:stop`` as the report's lines (indented, joined by ``,\\n``)."""
    rows = table.rows(start, stop, encoded_evidence=True)
    return b",\n".join(_CASE_INDENT + orjson.dumps(row) for row in rows)


def write_case_lines(table: CaseTable, path: str) -> None:
    """All of ``table``'s case lines to ``path``: a worker encodes its share in parallel."""
    with open(path, "wb") as handle:
        for start in range(0, len(table), _CHUNK_ROWS):
            if start:
                handle.write(b",\n")
            handle.write(encode_case_lines(table, start, start + _CHUNK_ROWS))


def _file_chunks(path: str) -> Iterator[bytes]:
    with open(path, "rb") as handle:
        while chunk := handle.read(_READ_BYTES):
            yield chunk


def _case_blocks(qa: QASection, copy_files: bool) -> Iterator[Iterable[bytes | FileContents]]:
    """Runs of case lines; a run is never empty, runs are joined by ``,\\n``. The lines the
    workers wrote are read here, or left for the file writer to copy (``copy_files``)."""
    cases = qa.cases
    if isinstance(cases, CaseTable) and cases.encoded_parts is not None:
        for path in cases.encoded_parts:
            if os.path.getsize(path):
                yield (FileContents(path),) if copy_files else _file_chunks(path)
    elif isinstance(cases, CaseTable):
        for start in range(0, len(cases), _CHUNK_ROWS):
            yield (encode_case_lines(cases, start, start + _CHUNK_ROWS),)
    elif cases:
        lines = (_CASE_INDENT + orjson.dumps(c.model_dump(mode="json")) for c in cases)
        yield (b",\n".join(lines),)


def _cases_array(qa: QASection, copy_files: bool) -> Iterator[bytes | FileContents]:
    yield b"["
    first = True
    for block in _case_blocks(qa, copy_files):
        yield b"\n" if first else b",\n"
        yield from block
        first = False
    yield b"]" if first else b"\n    ]"


def encode_report(report: Report) -> Iterator[bytes]:
    """The report's bytes, in pieces (see the module docstring for the format)."""
    for piece in _report_pieces(report, copy_files=False):
        assert isinstance(piece, bytes)
        yield piece


def _report_pieces(report: Report, *, copy_files: bool) -> Iterator[bytes | FileContents]:
    placeholder = splice_marker()
    splices = {} if report.qa is None else {placeholder: _cases_array(report.qa, copy_files)}
    yield from dumps_spliced(_skeleton(report, placeholder), splices)
    yield b"\n"


def write_report(report: Report, path: str | os.PathLike[str]) -> None:
    """Atomic: a reader (or a killed run) never sees half a report. The workers' case
    lines are copied file to file by the kernel."""
    atomic_write_chunks(path, _report_pieces(report, copy_files=True))

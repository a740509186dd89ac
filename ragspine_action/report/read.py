"""Read a report file back: any report this tool wrote (a run, a shard, a merge).

The per-case rows are validated one at a time into a ``CaseTable`` (columns), never held
as a million report models. Anything that is not a report is a one-line ``InputError``
naming the file and the first bad field.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from ..errors import InputError
from ..gate_defaults import GATE_NAMES
from ..jsonio import read_json_file
from ..metrics.retrieval import metric_names
from .cases import CaseTable, CaseTableBuilder
from .model import CaseResult, Report

__all__ = ["case_table", "not_a_report", "read_report", "read_report_data"]


def not_a_report(path: str, exc: ValidationError, prefix: str = "") -> InputError:
    first = exc.errors()[0]
    where = prefix + ".".join(str(p) for p in first["loc"])
    return InputError.single(path, f"not a ragspine-eval report: {where}: {first['msg']}")


def _metric_names(path: str, ks: Any, rows: list[Any]) -> list[str]:
    """The retrieval metrics of the rows: from the run's ``ks``, else from the first row."""
    if ks:
        try:
            return metric_names(sorted({int(k) for k in ks}))
        except (TypeError, ValueError):
            raise InputError.single(
                path, f"not a ragspine-eval report: config.ks: {ks!r}"
            ) from None
    for row in rows:
        if isinstance(row, dict) and isinstance(row.get("retrieval"), dict):
            return list(row["retrieval"])
    return []


def case_table(path: str, rows: list[Any], ks: Any) -> CaseTable:
    """Validate and add each row, dropping it once added (the file's rows are not kept)."""
    builder = CaseTableBuilder(GATE_NAMES, _metric_names(path, ks, rows))
    for i, row in enumerate(rows):
        try:
            builder.add_result(CaseResult.model_validate(row))
        except ValidationError as exc:
            raise not_a_report(path, exc, f"qa.cases.{i}.") from None
        except KeyError as exc:  # a gate this version does not know
            raise InputError.single(
                path, f"not a ragspine-eval report: qa.cases.{i}.gates: unknown gate {exc}"
            ) from None
        except ValueError as exc:  # retrieval metrics other than the run's ks
            raise InputError.single(path, f"qa.cases.{i}.retrieval: {exc}") from None
        rows[i] = None
    return builder.build()


def read_report_data(path: str, data: Any) -> Report:
    """``data`` (the parsed JSON of ``path``) as a report with its cases as columns."""
    if not isinstance(data, dict):
        raise InputError.single(path, "not a ragspine-eval report: not a JSON object")
    rows: list[Any] | None = None
    qa_data = data.get("qa")
    if isinstance(qa_data, dict) and isinstance(qa_data.get("cases"), list):
        rows = qa_data.pop("cases")
    try:
        report = Report.model_validate(data)
    except ValidationError as exc:
        raise not_a_report(path, exc) from None
    if rows is not None and report.qa is not None:
        config = data.get("config")
        ks = config.get("ks") if isinstance(config, dict) else None
        report.qa.cases = case_table(path, rows, ks)
    return report


def read_report(path: str) -> Report:
    """The report in ``path`` (see the module docstring)."""
    return read_report_data(path, read_json_file(path))

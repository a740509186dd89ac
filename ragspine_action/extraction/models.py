"""The extraction suite's data model: one cell record, the comparison options, the channels.

A cell record is what an extractor (spreadsheet, PDF or PPTX table reader) says about one
cell, and what the ground truth says it should have said. Records align by
``sheet!cell_ref``; each channel compares one field of aligned records.

Two cell formats are read (``docs/extraction.md``, ``schema/extraction_*.schema.json``):

- ``ragspine``, RAGSpine's own: ``tags`` an object ``{tag_key: tag_value}`` (``{}`` for
  none) or a list, ``merge_span`` ``[n_rows, n_cols]`` on a merge anchor and ``null``
  elsewhere, ``cell_ref`` A1 (``B7``) or ``R{row}C{col}`` (PDF/PPTX/DOCX tables). Fields
  compare by exact equality, and a missing field is ``null``: a fact without ``tags``
  does not match ground truth ``{}`` (RAGSpine's semantics).
- ``rich``, the alternative: ``tags`` a list of strings (missing = ``[]``), ``merge_span``
  the A1 range of the merged header (``B2:E2``), A1 refs, a boolean never equal to a
  number, and the normalisations of ``ExtractionOptions``.

A file says which it is by its shape (a ``tags`` object, a ``merge_span`` list or an
``R{r}C{c}`` ref make it ``ragspine``) or by a top-level ``"cell_format"`` key.

``CellRecord`` is the public, validated model for building rich records in Python. Files
are validated through TypedDict adapters, which check a million records in about a
second, without an object per cell.
"""

from __future__ import annotations

import re
from typing import Annotated, Final, Literal, NotRequired, get_args

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter
from typing_extensions import TypedDict

__all__ = [
    "CELL_FORMATS",
    "CELL_RECORD_ADAPTER",
    "CELL_REF_PATTERN",
    "CHANNELS",
    "CHANNEL_FIELDS",
    "MERGE_SPAN_PATTERN",
    "RAGSPINE_CELL_ADAPTER",
    "RAGSPINE_CELL_REF_PATTERN",
    "RAGSPINE_FILE_ADAPTER",
    "RICH_FILE_ADAPTER",
    "CellFormat",
    "CellRecord",
    "CellRecordDict",
    "CellValue",
    "Channel",
    "ExtractionOptions",
    "RagspineCellDict",
    "locator",
    "span_rectangle",
]

CellFormat = Literal["ragspine", "rich"]
CELL_FORMATS: Final[tuple[CellFormat, ...]] = get_args(CellFormat)

Channel = Literal["cell_value", "color_mapping", "header_attribution"]
CHANNELS: Final[tuple[Channel, ...]] = get_args(Channel)
CHANNEL_FIELDS: Final[dict[Channel, str]] = {
    "cell_value": "value",
    "color_mapping": "tags",
    "header_attribution": "merge_span",
}

# A1 style: 1-3 upper-case column letters, a row number from 1. No "$", no sheet prefix:
# the sheet has its own field, and one spelling per cell keeps alignment unambiguous.
CELL_REF_PATTERN: Final = r"^[A-Z]{1,3}[1-9][0-9]{0,6}$"
# A merged range "B2:E2" (or one cell); letters in either case, corners in any order,
# so that the ``spans_as_ranges`` option has something to normalise.
_CORNER = r"[A-Za-z]{1,3}[1-9][0-9]{0,6}"
MERGE_SPAN_PATTERN: Final = rf"^{_CORNER}(?::{_CORNER})?$"
_CORNER_RE: Final = re.compile(r"([A-Za-z]{1,3})([0-9]+)")
# RAGSpine's PDF/PPTX/DOCX extractors name a table cell by row and column, 1-based.
R1C1_PATTERN: Final = r"^R[1-9][0-9]{0,6}C[1-9][0-9]{0,6}$"
R1C1_RE: Final = re.compile(R1C1_PATTERN)
RAGSPINE_CELL_REF_PATTERN: Final = rf"{CELL_REF_PATTERN}|{R1C1_PATTERN}"

CellValue = str | int | float | bool | None
"""A JSON scalar: what a cell shows. Numbers compare as numbers (``5 == 5.0``), a boolean
only equals a boolean, strings compare exactly."""

Sheet = Annotated[str, StringConstraints(min_length=1)]
CellRef = Annotated[str, StringConstraints(pattern=CELL_REF_PATTERN)]
MergeSpan = Annotated[str, StringConstraints(pattern=MERGE_SPAN_PATTERN)]


def locator(sheet: str, cell_ref: str) -> str:
    """The alignment key ``sheet!cell_ref`` (unambiguous: a cell_ref never holds ``!``)."""
    return f"{sheet}!{cell_ref}"


class CellRecordDict(TypedDict):
    """The file form of a record; extra fields (confidence, bbox, page…) are kept, unused."""

    __pydantic_config__ = ConfigDict(strict=True, extra="allow", allow_inf_nan=False)  # type: ignore[misc]

    sheet: Sheet
    cell_ref: CellRef
    value: CellValue
    tags: NotRequired[list[str]]
    merge_span: NotRequired[MergeSpan | None]


CELL_RECORD_ADAPTER: Final[TypeAdapter[list[CellRecordDict]]] = TypeAdapter(list[CellRecordDict])

RagspineCellRef = Annotated[str, StringConstraints(pattern=RAGSPINE_CELL_REF_PATTERN)]
TagsObject = dict[str, CellValue]
"""``{tag_key: tag_value}``, RAGSpine's tags (``{}``: the cell has none)."""
SpanShape = Annotated[list[Annotated[int, Field(ge=1)]], Field(min_length=2, max_length=2)]
"""``[n_rows, n_cols]`` of a merged range, on its anchor cell."""


class RagspineCellDict(TypedDict):
    """A cell in RAGSpine's format; its other fields (resolved_rgb, number_format,
    is_merged_origin…) are kept, unused. A missing field compares as ``null``."""

    __pydantic_config__ = ConfigDict(strict=True, extra="allow", allow_inf_nan=False)  # type: ignore[misc]

    sheet: Sheet
    cell_ref: RagspineCellRef
    value: NotRequired[CellValue]
    tags: NotRequired[TagsObject | list[str] | None]
    merge_span: NotRequired[SpanShape | None]


RAGSPINE_CELL_ADAPTER: Final[TypeAdapter[list[RagspineCellDict]]] = TypeAdapter(
    list[RagspineCellDict]
)


class RagspineFixture(TypedDict):
    """A ground-truth fixture object: ``cells`` plus whatever describes the file (``file``,
    ``sheets``, ``theme_palette``…, ignored)."""

    __pydantic_config__ = ConfigDict(extra="allow")  # type: ignore[misc]

    cells: list[RagspineCellDict]
    cell_format: NotRequired[Literal["ragspine"]]


class RichFixture(TypedDict):
    """The rich format's fixture object: ``cells`` plus any description (ignored)."""

    __pydantic_config__ = ConfigDict(extra="allow")  # type: ignore[misc]

    cells: list[CellRecordDict]
    cell_format: NotRequired[Literal["rich"]]


RAGSPINE_FILE_ADAPTER: Final[TypeAdapter[list[RagspineCellDict] | RagspineFixture]] = TypeAdapter(
    list[RagspineCellDict] | RagspineFixture
)
"""A RAGSpine-format facts or ground-truth file, for its JSON Schema."""
RICH_FILE_ADAPTER: Final[TypeAdapter[list[CellRecordDict] | RichFixture]] = TypeAdapter(
    list[CellRecordDict] | RichFixture
)
"""A rich-format facts or ground-truth file, for its JSON Schema."""


class CellRecord(BaseModel):
    """One cell as extracted or as it should be: the API form of ``CellRecordDict``.

    ``tags`` are the meanings read from colours (e.g. ``estimate`` for a yellow fill);
    ``merge_span`` is the merged header range the cell is attributed to (``null``: none).
    """

    model_config = ConfigDict(strict=True, extra="allow", frozen=True, allow_inf_nan=False)

    sheet: Sheet
    cell_ref: CellRef
    value: CellValue
    tags: list[str] = []
    merge_span: MergeSpan | None = None

    @property
    def locator(self) -> str:
        return locator(self.sheet, self.cell_ref)


class ExtractionOptions(BaseModel):
    """How aligned fields are compared. Every normalisation is off unless chosen.

    - ``abs_tol`` / ``rel_tol``: two numbers match when ``math.isclose`` says so with these
      tolerances (both 0: exact). Strings and booleans are never compared numerically.
    - ``tags_as_set``: tags match when they hold the same distinct tags, in any order.
    - ``spans_as_ranges``: merge spans match when they cover the same rectangle
      (``A1:C1`` == ``a1:c1`` == ``C1:A1``; ``B2`` == ``B2:B2``).
    - ``max_mismatches``: keep at most this many mismatch details per channel and fixture
      (counts stay exact); ``None`` keeps them all.
    """

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, allow_inf_nan=False)

    abs_tol: Annotated[float, Field(ge=0.0, strict=False)] = 0.0
    rel_tol: Annotated[float, Field(ge=0.0, strict=False)] = 0.0
    tags_as_set: bool = False
    spans_as_ranges: bool = False
    max_mismatches: Annotated[int, Field(ge=0)] | None = None

    @property
    def numeric_tolerance(self) -> bool:
        return self.abs_tol > 0.0 or self.rel_tol > 0.0


def _column_number(letters: str) -> int:
    number = 0
    for char in letters.upper():
        number = number * 26 + (ord(char) - 64)
    return number


def span_rectangle(span: str) -> tuple[int, int, int, int]:
    """``(first_col, first_row, last_col, last_row)`` of a validated merge span."""
    corners = [_CORNER_RE.fullmatch(part) for part in span.split(":")]
    cols: list[int] = []
    rows: list[int] = []
    for match in corners:
        if match is None:
            raise ValueError(f"not an A1 range: {span!r}")
        cols.append(_column_number(match.group(1)))
        rows.append(int(match.group(2)))
    return min(cols), min(rows), max(cols), max(rows)

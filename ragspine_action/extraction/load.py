"""Read facts, ground truth and fixture manifests; every problem is located and reported at once.

A cells file is a JSON list of cell records, or an object whose ``cells`` key holds that
list (other keys, such as a description, are ignored; ``cell_format`` names the format).
Problems name the file, the line of the offending record (found by re-scanning the text,
only when something is wrong), the field as ``cells[i].field`` and the cell's locator when
it has one.

The format (``models.CellFormat``) is read from the records' shape: a ``tags`` object, a
``merge_span`` list or an ``R{r}C{c}`` reference is RAGSpine's format; otherwise the rich
format. Each file is then validated against its format's rules.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Final

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

from ..errors import ConfigError, InputError, Problem, ProblemList
from ..jsonio import DEFAULT_MAX_INPUT_BYTES, read_json_file, read_text_file
from ..perf import gc_paused
from ..progress import ProgressBar
from ..validation import problems_from_validation_error
from .models import (
    CELL_FORMATS,
    CELL_RECORD_ADAPTER,
    R1C1_RE,
    RAGSPINE_CELL_ADAPTER,
    CellFormat,
    CellRecord,
    CellRecordDict,
    RagspineCellDict,
    locator,
)

__all__ = [
    "FIXTURE_NAME_PATTERN",
    "MAX_PROBLEMS_PER_FILE",
    "CellTable",
    "FixturePair",
    "LoadedFixture",
    "cell_table_from_records",
    "default_fixture_name",
    "format_conflict",
    "load_cell_table",
    "load_fixtures",
    "load_manifest",
    "pairs_from_paths",
]

MAX_PROBLEMS_PER_FILE: Final = 50
_CHUNK: Final = 20_000
FIXTURE_NAME_PATTERN: Final = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"
_RESERVED_NAMES: Final = frozenset({"total"})
_ITEM_ADAPTERS: Final[dict[CellFormat, TypeAdapter[Any]]] = {
    "rich": TypeAdapter(CellRecordDict),
    "ragspine": TypeAdapter(RagspineCellDict),
}
_LIST_ADAPTERS: Final[dict[CellFormat, TypeAdapter[Any]]] = {
    "rich": CELL_RECORD_ADAPTER,
    "ragspine": RAGSPINE_CELL_ADAPTER,
}
_WHITESPACE: Final = re.compile(r"[ \t\n\r]*")


@dataclass(frozen=True)
class CellTable:
    """Validated records of one file by ``sheet!cell_ref``, in file order.

    ``format`` is the cell format the file used; ``evidence`` says why (for the report and
    for errors), e.g. ``cells[0].tags is an object``.
    """

    path: str
    cells: dict[str, CellRecordDict]
    format: CellFormat = "rich"
    evidence: str = ""

    def __len__(self) -> int:
        return len(self.cells)


@dataclass(frozen=True)
class FixturePair:
    """A named facts file and the ground truth it is scored against."""

    name: str
    facts: Path
    ground_truth: Path
    # Where a manifest named the pair (manifest path, line, index): a missing file is
    # reported at its entry, ``fixtures[i].facts``, not only by its resolved path.
    entry: tuple[str, int | None, int] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class LoadedFixture:
    name: str
    facts: CellTable
    ground_truth: CellTable


# ---------------------------------------------------------------------------- line lookup


def _skip_ws(text: str, pos: int) -> int:
    match = _WHITESPACE.match(text, pos)
    return match.end() if match else pos


def _element_offsets(text: str, key: str | None) -> list[int]:
    """Start offsets of the elements of the top-level list (or of ``doc[key]``)."""
    decoder = json.JSONDecoder()
    pos = _skip_ws(text, 0)
    if key is not None:
        if text[pos] != "{":
            return []
        pos = _skip_ws(text, pos + 1)
        while text[pos] != "}":
            name, pos = decoder.raw_decode(text, pos)
            pos = _skip_ws(text, pos)
            pos = _skip_ws(text, pos + 1)  # the colon
            if name == key:
                break
            _, pos = decoder.raw_decode(text, pos)
            pos = _skip_ws(text, pos)
            if text[pos] == ",":
                pos = _skip_ws(text, pos + 1)
        else:
            return []
    if text[pos] != "[":
        return []
    offsets: list[int] = []
    pos = _skip_ws(text, pos + 1)
    while text[pos] != "]":
        offsets.append(pos)
        _, pos = decoder.raw_decode(text, pos)
        pos = _skip_ws(text, pos)
        if text[pos] == ",":
            pos = _skip_ws(text, pos + 1)
    return offsets


class _LineFinder:
    """Maps a record index to its line; reads and scans the file only if asked."""

    def __init__(self, path: str, key: str | None) -> None:
        self._path = path
        self._key = key
        self._lines: list[int] | None = None

    def __call__(self, index: int) -> int | None:
        if self._lines is None:
            try:
                text = read_text_file(self._path)
                lines: list[int] = []
                line, previous = 1, 0
                for offset in _element_offsets(text, self._key):  # ascending
                    line += text.count("\n", previous, offset)
                    previous = offset
                    lines.append(line)
                self._lines = lines
            except (InputError, ValueError, IndexError):
                self._lines = []
        return self._lines[index] if 0 <= index < len(self._lines) else None


# ---------------------------------------------------------------------------- cells files


def _declared_format(doc: Any, path: str, problems: list[Problem]) -> CellFormat | None:
    """The ``cell_format`` a fixture object names, if any."""
    if not isinstance(doc, dict) or "cell_format" not in doc:
        return None
    declared = doc["cell_format"]
    if declared in CELL_FORMATS:
        return declared  # type: ignore[no-any-return]
    problems.append(
        Problem(
            path,
            None,
            "cell_format",
            f"must be one of {', '.join(CELL_FORMATS)} (got {declared!r})",
        )
    )
    return None


def _ragspine_evidence(cells: list[Any], prefix: str) -> str | None:
    """Where the records first show RAGSpine's format, or None (no sign of it).

    Reads every record of a rich file, so it only compares classes and looks at a ref's
    first letter before trying the pattern (a million cells in well under a second).
    """
    r1c1 = R1C1_RE.match
    for index, cell in enumerate(cells):
        if cell.__class__ is not dict:
            continue
        get = cell.get
        if get("tags").__class__ is dict:
            return f"{prefix}[{index}].tags is an object"
        if get("merge_span").__class__ is list:
            return f"{prefix}[{index}].merge_span is [n_rows, n_cols]"
        ref = get("cell_ref")
        if ref.__class__ is str and ref[:1] == "R" and r1c1(ref):
            return f"{prefix}[{index}].cell_ref is R{{row}}C{{col}}"
    return None


def _rich_evidence(cells: dict[str, Any]) -> str | None:
    """A record whose merge_span is an A1 range: only the rich format has those."""
    for key, cell in cells.items():
        if isinstance(cell.get("merge_span"), str):
            return f"{key} has merge_span {cell['merge_span']!r} (an A1 range)"
    return None


def _cells_list(doc: Any, path: str, problems: list[Problem]) -> tuple[list[Any], str | None]:
    """The record list and the key it sits under (``None``: the document is the list)."""
    if isinstance(doc, list):
        return doc, None
    if isinstance(doc, dict):
        if "cells" not in doc:
            problems.append(Problem(path, None, "cells", "is required: the list of cell records"))
            return [], "cells"
        cells = doc["cells"]
        if not isinstance(cells, list):
            kind = type(cells).__name__
            problems.append(Problem(path, None, "cells", f"must be a list of records, got {kind}"))
            return [], "cells"
        return cells, "cells"
    problems.append(
        Problem(
            path,
            None,
            None,
            "expected a list of cell records or an object with a 'cells' list, "
            f"got {type(doc).__name__}",
        )
    )
    return [], None


_FRIENDLY: Final[dict[CellFormat, dict[str, str]]] = {
    "rich": {
        "cell_ref": "must be an A1-style reference like 'B7' (upper-case letters, row from 1)",
        "merge_span": "must be an A1 range like 'B2:E2' (or one cell), or null",
        "value": "must be a string, number, boolean or null",
    },
    "ragspine": {
        "cell_ref": "must be an A1 reference like 'B7' or R{row}C{col} like 'R2C3'",
        "merge_span": "must be [n_rows, n_cols] (two integers from 1) on a merge anchor, or null",
        "tags": "must be an object {tag_key: tag_value}, a list of tags, or null",
        "value": "must be a string, number, boolean or null",
    },
}


def _friendly(problem: Problem, fmt: CellFormat, evidence: str) -> Problem:
    """Say what a cell field allows instead of echoing a regex or a union's first branch."""
    problem = _friendly_field(problem, fmt)
    if fmt == "ragspine" and evidence and problem.field and "(record)" not in problem.field:
        message = f"{problem.message} (this file uses RAGSpine's cell format: {evidence})"
        return Problem(problem.path, problem.line, problem.field, message, problem.case_id)
    return problem


def _friendly_field(problem: Problem, fmt: CellFormat) -> Problem:
    fld = problem.field or ""
    if fld.endswith("(record)"):
        return Problem(
            problem.path,
            problem.line,
            fld.removesuffix("(record)").removesuffix("."),
            "must be a cell record (a JSON object)",
            problem.case_id,
        )
    last = fld.rsplit(".", 1)[-1].split("[", 1)[0]
    wanted = _FRIENDLY[fmt].get(last)
    if wanted is None or problem.message == "is required":
        return problem
    if (
        fmt == "rich"
        and last == "merge_span"
        and not problem.message.startswith("String should match")
    ):
        wanted = "must be a string A1 range like 'B2:E2', or null"
    got = problem.message.rsplit(" (got ", 1)
    shown = f" (got {got[1]}" if len(got) == 2 else ""
    return Problem(problem.path, problem.line, problem.field, wanted + shown, problem.case_id)


def _raw_locator(item: Any) -> str | None:
    if isinstance(item, dict):
        sheet, ref = item.get("sheet"), item.get("cell_ref")
        if isinstance(sheet, str) and isinstance(ref, str):
            return locator(sheet, ref)
    return None


def _duplicate_problems(
    keyed: Iterable[tuple[int, str]], path: str, prefix: str, line_of: _LineFinder
) -> list[Problem]:
    first: dict[str, int] = {}
    problems: list[Problem] = ProblemList()
    for index, key in keyed:
        seen = first.setdefault(key, index)
        if seen != index:
            first_line = line_of(seen)
            where = f"line {first_line}" if first_line is not None else f"{prefix}[{seen}]"
            problems.append(
                Problem(
                    path,
                    line_of(index),
                    f"{prefix}[{index}].cell_ref",
                    f"duplicate sheet!cell_ref (first at {where})",
                    key,
                )
            )
    return problems


def _cap(problems: list[Problem], path: str) -> list[Problem]:
    if len(problems) <= MAX_PROBLEMS_PER_FILE:
        return problems
    hidden = len(problems) - MAX_PROBLEMS_PER_FILE
    return [
        *problems[:MAX_PROBLEMS_PER_FILE],
        Problem(path, None, None, f"... and {hidden} more problems not shown"),
    ]


def _parse_cells(
    doc: Any, path: str, problems: list[Problem], *, require_cells: bool
) -> CellTable | None:
    found: list[Problem] = []
    declared = _declared_format(doc, path, found)
    cells, key = _cells_list(doc, path, found)
    if found:
        problems.extend(found)
        return None
    prefix = key or ""
    if declared is not None:
        fmt: CellFormat = declared
        evidence = "cell_format is " + declared
    else:
        shown = _ragspine_evidence(cells, prefix or "cells")
        fmt = "ragspine" if shown is not None else "rich"
        evidence = shown or "no RAGSpine-shaped field (tags object, merge_span list, R{r}C{c})"
    list_adapter = _LIST_ADAPTERS[fmt]
    line_of = _LineFinder(path, key)
    with gc_paused():
        bad: list[int] = []
        for start in range(0, len(cells), _CHUNK):
            try:
                # Validate in chunks and keep the caller's dicts: strict validation changes
                # no value, so the validated copy is dropped at once (memory stays ~1x).
                list_adapter.validate_python(cells[start : start + _CHUNK])
            except ValidationError as exc:
                indices = {err["loc"][0] for err in exc.errors() if err["loc"]}
                bad.extend(sorted(start + i for i in indices if isinstance(i, int)))
        if bad:
            for index in bad[: MAX_PROBLEMS_PER_FILE + 1]:
                try:
                    _ITEM_ADAPTERS[fmt].validate_python(cells[index])
                except ValidationError as item_exc:
                    found.extend(
                        _friendly(problem, fmt, evidence)
                        for problem in problems_from_validation_error(
                            item_exc,
                            path,
                            line_of(index),
                            _raw_locator(cells[index]),
                            prefix=f"{prefix}[{index}].",
                        )
                    )
            keyed: Iterator[tuple[int, str]] = (
                (i, k) for i, k in enumerate(map(_raw_locator, cells)) if k is not None
            )
            found.extend(_duplicate_problems(keyed, path, prefix, line_of))
            found.sort(key=lambda p: p.line or 0)
            problems.extend(_cap(found, path))
            return None
        table: dict[str, CellRecordDict] = {}
        duplicated = False
        for record in cells:
            if table.setdefault(record["sheet"] + "!" + record["cell_ref"], record) is not record:
                duplicated = True
    if duplicated:
        keyed = ((i, locator(r["sheet"], r["cell_ref"])) for i, r in enumerate(cells))
        problems.extend(_cap(_duplicate_problems(keyed, path, prefix, line_of), path))
        return None
    if require_cells and not table:
        problems.append(Problem(path, None, prefix or None, "has no cell records to score against"))
        return None
    return CellTable(path, table, fmt, evidence)


def _load_cells_into(
    path: str | os.PathLike[str], problems: list[Problem], *, require_cells: bool, max_bytes: int
) -> CellTable | None:
    try:
        with gc_paused():
            doc = read_json_file(path, max_bytes=max_bytes)
    except InputError as exc:
        problems.extend(exc.problems)
        return None
    return _parse_cells(doc, str(path), problems, require_cells=require_cells)


def load_cell_table(
    path: str | os.PathLike[str],
    *,
    require_cells: bool = False,
    max_bytes: int = DEFAULT_MAX_INPUT_BYTES,
) -> CellTable:
    """Read one facts or ground-truth file; raises InputError listing every problem.

    ``require_cells``: an empty file is an error (set for ground truth, where an empty
    file would make every channel a silent 1.0).
    """
    problems: list[Problem] = ProblemList()
    table = _load_cells_into(path, problems, require_cells=require_cells, max_bytes=max_bytes)
    if problems or table is None:
        raise InputError(problems or [Problem(str(path), None, None, "no cell records")])
    return table


def cell_table_from_records(
    records: Iterable[CellRecord | Mapping[str, Any]] | Mapping[str, Any], path: str = "<memory>"
) -> CellTable:
    """Build a table from records made in Python (the API path), with the file rules.

    ``records`` is a list of cells, or a fixture object holding them under ``cells`` (what
    RAGSpine's ``run_eval`` takes as ground truth)."""
    doc: Any
    if isinstance(records, Mapping):
        doc = dict(records)
    else:
        doc = [
            r.model_dump()
            if isinstance(r, CellRecord)
            else dict(r)
            if isinstance(r, Mapping)
            else r  # not a record: the parser says so, located
            for r in records
        ]
    problems: list[Problem] = ProblemList()
    table = _parse_cells(doc, path, problems, require_cells=False)
    if problems or table is None:
        raise InputError(problems)
    return table


# ---------------------------------------------------------------------------- fixtures

_PathText = Annotated[str, StringConstraints(min_length=1)]


class _ManifestEntry(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    name: _PathText
    facts: _PathText
    ground_truth: _PathText


class _Manifest(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow", frozen=True)

    fixtures: Annotated[list[Any], Field(min_length=1)]


def _name_problem(name: str) -> str | None:
    if re.fullmatch(FIXTURE_NAME_PATTERN, name) is None:
        return "must be letters, digits, '_', '.' or '-', starting with a letter or digit"
    if name in _RESERVED_NAMES:
        return f"{name!r} is reserved for the sum over fixtures"
    return None


_MANIFEST_SHAPE = '{"fixtures": [{"name": …, "facts": …, "ground_truth": …}, …]}'


def _json_kind(doc: object) -> str:
    if isinstance(doc, list):
        return "a list"
    if isinstance(doc, str):
        return "a string"
    if doc is None:
        return "null"
    return "a number" if isinstance(doc, int | float) and not isinstance(doc, bool) else "a boolean"


def load_manifest(path: str | os.PathLike[str]) -> list[FixturePair]:
    """``{"fixtures": [{"name", "facts", "ground_truth"}]}``, paths relative to the manifest."""
    name = str(path)
    doc = read_json_file(path)
    line_of = _LineFinder(name, "fixtures")
    if not isinstance(doc, dict):
        # A bare list is the natural guess; pydantic would name the class _Manifest.
        raise InputError.single(
            name,
            f"a manifest is a JSON object {_MANIFEST_SHAPE}, not {_json_kind(doc)}",
        )
    try:
        manifest = _Manifest.model_validate(doc)
    except ValidationError as exc:
        raise InputError(problems_from_validation_error(exc, name, None, None)) from None
    problems: list[Problem] = ProblemList()
    entries: list[_ManifestEntry | None] = []
    for index, raw in enumerate(manifest.fixtures):
        try:
            entries.append(_ManifestEntry.model_validate(raw))
        except ValidationError as exc:
            raw_name = raw.get("name") if isinstance(raw, dict) else None
            problems.extend(
                problems_from_validation_error(
                    exc,
                    name,
                    line_of(index),
                    raw_name if isinstance(raw_name, str) else None,
                    prefix=f"fixtures[{index}].",
                )
            )
            entries.append(None)
    base = Path(path).parent
    pairs: list[FixturePair] = []
    seen: dict[str, int] = {}
    for index, entry in enumerate(entries):
        if entry is None:
            continue
        reason = _name_problem(entry.name)
        if reason is None and entry.name in seen:
            reason = f"duplicate fixture name (first at fixtures[{seen[entry.name]}])"
        if reason is not None:
            problems.append(Problem(name, line_of(index), f"fixtures[{index}].name", reason))
            continue
        seen[entry.name] = index
        pairs.append(
            FixturePair(
                entry.name,
                base / entry.facts,
                base / entry.ground_truth,
                entry=(name, line_of(index), index),
            )
        )
    if problems:
        raise InputError(problems)
    return pairs


def default_fixture_name(ground_truth: str | os.PathLike[str]) -> str:
    """``data/fixtures/pdf/pdf_ground_truth.json`` → ``pdf``: the stem without its suffix."""
    stem = Path(ground_truth).name.split(".", 1)[0]
    for suffix in ("_ground_truth", "-ground-truth", "_groundtruth", "_gt", "ground_truth"):
        if stem.endswith(suffix) and len(stem) > len(suffix):
            stem = stem[: -len(suffix)]
            break
    cleaned = re.sub(r"[^A-Za-z0-9_.-]+", "-", stem).strip("-._")
    if not cleaned or cleaned in _RESERVED_NAMES:
        cleaned = f"fixture-{cleaned}" if cleaned else "fixture"
    return cleaned


def pairs_from_paths(
    facts: Sequence[str | os.PathLike[str]], ground_truth: Sequence[str | os.PathLike[str]]
) -> list[FixturePair]:
    """Pair repeated ``--facts``/``--ground-truth`` flags in order, named from the ground truth."""
    if len(facts) != len(ground_truth):
        raise ConfigError(
            f"--facts and --ground-truth must come in pairs: got {len(facts)} facts "
            f"and {len(ground_truth)} ground-truth paths"
        )
    if not facts:
        raise ConfigError("the extraction suite needs --facts and --ground-truth (or a manifest)")
    pairs: list[FixturePair] = []
    for facts_path, truth_path in zip(facts, ground_truth, strict=True):
        fixture = default_fixture_name(truth_path)
        if any(pair.name == fixture for pair in pairs):
            raise ConfigError(
                f"two ground-truth files are both named {fixture!r} as fixtures; "
                "name them in a manifest instead"
            )
        pairs.append(FixturePair(fixture, Path(facts_path), Path(truth_path)))
    return pairs


def format_conflict(facts: CellTable, truth: CellTable) -> Problem | None:
    """A pair whose sides give ``merge_span`` different meanings cannot be scored.

    ``[1, 3]`` (RAGSpine: rows × columns of the merge) and ``"B2:D2"`` (rich: the range) never
    compare equal, so every merged header would count as wrong: that is a format mix-up,
    not an extraction error.
    """
    if facts.format == truth.format:
        return None
    rich, other = (facts, truth) if facts.format == "rich" else (truth, facts)
    shown = _rich_evidence(rich.cells)
    if shown is None:
        return None
    side = "facts" if rich is facts else "ground truth"
    return Problem(
        rich.path,
        None,
        "merge_span",
        f"the {side} use the rich cell format ({shown}) but {other.path} uses RAGSpine's "
        f"({other.evidence}): merge_span means a range on one side and [n_rows, n_cols] on "
        "the other; write both files in one format",
    )


def load_fixtures(
    pairs: Sequence[FixturePair],
    *,
    max_bytes: int = DEFAULT_MAX_INPUT_BYTES,
    progress: ProgressBar | None = None,
) -> list[LoadedFixture]:
    """Load every pair; problems of all files are gathered into one InputError.

    ``progress`` (a terminal's bar) counts the bytes of the files read, file by file: one
    JSON document is parsed in one call, so the bar cannot move inside a file.
    """
    if progress is None:
        return _load_fixtures(pairs, max_bytes, lambda size: None)
    progress.start(sum(_size(p.facts) + _size(p.ground_truth) for p in pairs))
    done = 0

    def advance(size: int) -> None:
        nonlocal done
        done += size
        progress.update(done, final=True)

    try:
        return _load_fixtures(pairs, max_bytes, advance)
    finally:
        progress.finish()


def _size(path: str | os.PathLike[str]) -> int:
    try:
        return os.path.getsize(path)
    except OSError:  # reported when it is read
        return 0


def _entry_file_found(pair: FixturePair, side: str, problems: list[Problem]) -> bool:
    """False (and a problem at the manifest entry) when a manifest's file does not exist:
    the user must learn which entry to fix, not only which path was tried."""
    path: Path = getattr(pair, side)
    if pair.entry is None or os.path.lexists(path):
        return True
    manifest, line, index = pair.entry
    problems.append(Problem(manifest, line, f"fixtures[{index}].{side}", f"file not found: {path}"))
    return False


def _load_fixtures(
    pairs: Sequence[FixturePair], max_bytes: int, advance: Callable[[int], None]
) -> list[LoadedFixture]:
    problems: list[Problem] = ProblemList()
    loaded: list[LoadedFixture] = []
    seen: set[str] = set()
    for pair in pairs:
        reason = _name_problem(pair.name)
        if reason is None and pair.name in seen:
            reason = "duplicate fixture name"
        if reason is not None:
            problems.append(Problem(str(pair.ground_truth), None, "fixture name", reason))
            continue
        seen.add(pair.name)
        facts = truth = None
        if _entry_file_found(pair, "facts", problems):
            facts = _load_cells_into(pair.facts, problems, require_cells=False, max_bytes=max_bytes)
            advance(_size(pair.facts))
        if _entry_file_found(pair, "ground_truth", problems):
            truth = _load_cells_into(
                pair.ground_truth, problems, require_cells=True, max_bytes=max_bytes
            )
            advance(_size(pair.ground_truth))
        if facts is not None and truth is not None:
            mixed = format_conflict(facts, truth)
            if mixed is not None:
                problems.append(mixed)
                continue
            loaded.append(LoadedFixture(pair.name, facts, truth))
    if problems:
        raise InputError(problems)
    return loaded

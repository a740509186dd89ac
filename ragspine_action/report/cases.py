"""The report's per-case results held by column: a million cases in ~100 MB, not ~15 GB.

A ``CaseResult`` model per case costs ~1.5 KB and seconds to build and to serialise. The
run only ever needs per-case results in bulk — gate tallies, retrieval means, baseline
facts, the report's ``cases`` array — so they are kept as columns: numpy arrays for the
numbers, lists for ids, one shared dict per distinct tag set, sparse maps for errors and
fabricated numbers and the judges' evidence (kept encoded: JSON bytes, ~1 KB a judged case,
written out as they are). ``CaseTable`` still reads as a ``Sequence[CaseResult]`` (rows are
built on access) so small consumers and tests see the report model unchanged.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

import numpy as np
import numpy.typing as npt
import orjson

from ..metrics.attribution import ATTRIBUTIONS, Attribution
from .model import CaseResult, JudgeEvidence

__all__ = ["CaseTable", "CaseTableBuilder", "TagMembers", "as_case_table", "attribution_by_id"]

# Tag key → tag value → mask of the cases carrying it.
TagMembers = dict[str, dict[str, npt.NDArray[np.bool_]]]

_NO_RANK = 0  # ranks are 1-based; 0 stands for None
_ATTRIBUTION_CODE: dict[Attribution | None, int] = {None: -1} | {
    name: i for i, name in enumerate(ATTRIBUTIONS)
}
_CASE_FIELDS: set[str] = set(CaseResult.model_fields)
_ATTRIBUTION_OF: tuple[Attribution | None, ...] = (*ATTRIBUTIONS, None)  # by code; -1: None


class CaseTableBuilder:
    """Collects cases one at a time (cheap appends); ``build`` makes the columns."""

    def __init__(self, gate_names: Sequence[str], metric_names: Sequence[str]) -> None:
        self.gate_names = tuple(gate_names)
        self.metric_names = tuple(metric_names)
        self._gate_index = {name: i for i, name in enumerate(self.gate_names)}
        self.ids: list[str] = []
        self.case_types: list[str] = []
        self.tag_sets: list[dict[str, str]] = []
        self._tag_index: dict[tuple[tuple[str, str], ...], int] = {}
        self.tag_codes = array("i")
        self.gates = array("b")
        self.passed = array("b")
        self.ranks = array("i")
        self.scored = array("b")
        self.retrieval = array("d")
        self.attribution = array("b")
        self.errors: dict[int, str] = {}
        self.fabricated: dict[int, list[str]] = {}
        self.judge: dict[int, bytes] = {}
        self._types: dict[str, str] = {}
        self._nan_row = [float("nan")] * len(self.metric_names)
        self._metric_set = frozenset(self.metric_names)
        self._rows_of: dict[int, tuple[dict[str, float], list[float]]] = {}

    def add(
        self,
        case_id: str,
        case_type: str,
        tags: dict[str, str],
        gates: dict[str, bool],
        passed: bool,
        error: str | None,
        fabricated: list[str],
        rank: int | None,
        retrieval: dict[str, float] | None,
        attribution: Attribution | None,
        judge: dict[str, Any] | None = None,
    ) -> None:
        position = len(self.ids)
        self.ids.append(case_id)
        self.case_types.append(self._types.setdefault(case_type, case_type))
        self.tag_codes.append(self.tag_code(tags))
        row = [-1] * len(self.gate_names)
        for name, ok in gates.items():
            row[self._gate_index[name]] = 1 if ok else 0
        self.gates.extend(row)
        self.passed.append(passed)
        self.ranks.append(_NO_RANK if rank is None else rank)
        if retrieval is None:
            self.scored.append(False)
            self.retrieval.extend(self._nan_row)
        else:
            # Retrieval results are shared per grade pattern (metrics.retrieval, never
            # mutated): the row of a dict seen before is reused (held, so its id is not).
            seen = self._rows_of.get(id(retrieval))
            if seen is not None and seen[0] is retrieval:
                row_values = seen[1]
            else:
                if retrieval.keys() != self._metric_set:
                    raise ValueError(
                        f"case {case_id!r}: retrieval metrics {sorted(retrieval)} differ "
                        f"from {list(self.metric_names)}"
                    )
                row_values = [retrieval[name] for name in self.metric_names]
                if len(self._rows_of) >= 4096:
                    self._rows_of.clear()
                self._rows_of[id(retrieval)] = (retrieval, row_values)
            self.scored.append(True)
            self.retrieval.extend(row_values)
        self.attribution.append(_ATTRIBUTION_CODE[attribution])
        if error is not None:
            self.errors[position] = error
        if fabricated:
            self.fabricated[position] = list(fabricated)
        if judge:
            # A copy of the exact size: orjson's result keeps its whole growth buffer
            # allocated (a 0.9 KB evidence held ~4 KB: 1.4 GB of a million-case run).
            self.judge[position] = bytes(memoryview(orjson.dumps(judge)))

    def tag_code(self, tags: dict[str, str]) -> int:
        """The index of ``tags`` in ``tag_sets``: one shared dict per distinct tag set."""
        key = tuple(tags.items())
        code = self._tag_index.get(key)
        if code is None:
            code = self._tag_index[key] = len(self.tag_sets)
            self.tag_sets.append(dict(tags))
        return code

    def add_result(self, case: CaseResult) -> None:
        self.add(
            case.id,
            case.case_type,
            case.tags,
            case.gates,
            case.passed,
            case.error,
            case.fabricated,
            case.rank,
            case.retrieval,
            case.attribution,
            None if case.judge is None else _evidence_json(case.judge),
        )

    def build(self) -> CaseTable:
        n = len(self.ids)
        return CaseTable(
            gate_names=self.gate_names,
            metric_names=self.metric_names,
            ids=self.ids,
            case_types=self.case_types,
            tag_sets=self.tag_sets,
            tag_codes=np.frombuffer(self.tag_codes, dtype=np.int32).copy(),
            gates=np.frombuffer(self.gates, dtype=np.int8).reshape(n, len(self.gate_names)),
            passed=np.frombuffer(self.passed, dtype=np.int8).astype(bool),
            ranks=np.frombuffer(self.ranks, dtype=np.int32).copy(),
            scored=np.frombuffer(self.scored, dtype=np.int8).astype(bool),
            retrieval=np.frombuffer(self.retrieval, dtype=np.float64).reshape(
                n, len(self.metric_names)
            ),
            attribution=np.frombuffer(self.attribution, dtype=np.int8).copy(),
            errors=self.errors,
            fabricated=self.fabricated,
            judge=self.judge,
        )


class CaseTable(Sequence[CaseResult]):
    """Every case's result, by column, in report order (see the module docstring)."""

    def __init__(
        self,
        *,
        gate_names: tuple[str, ...],
        metric_names: tuple[str, ...],
        ids: list[str],
        case_types: list[str],
        tag_sets: list[dict[str, str]],
        tag_codes: npt.NDArray[np.int32],
        gates: npt.NDArray[np.int8],
        passed: npt.NDArray[np.bool_],
        ranks: npt.NDArray[np.int32],
        scored: npt.NDArray[np.bool_],
        retrieval: npt.NDArray[np.float64],
        attribution: npt.NDArray[np.int8],
        errors: dict[int, str],
        fabricated: dict[int, list[str]],
        judge: dict[int, bytes] | None = None,
    ) -> None:
        self.gate_names = gate_names
        self.metric_names = metric_names
        self.ids = ids
        self.case_types = case_types
        self.tag_sets = tag_sets
        self.tag_codes = tag_codes
        self.gates = gates
        self.passed = passed
        self.ranks = ranks
        self.scored = scored
        self.retrieval = retrieval
        self.attribution = attribution
        self.errors = errors
        self.fabricated = fabricated
        self.judge = judge if judge is not None else {}
        # The report's case lines, already encoded by the workers that scored these rows
        # (files, in row order); None: the writer encodes the rows itself.
        self.encoded_parts: list[str] | None = None

    @classmethod
    def from_results(
        cls, results: Iterable[CaseResult], gate_names: Sequence[str], metric_names: Sequence[str]
    ) -> CaseTable:
        builder = CaseTableBuilder(gate_names, metric_names)
        for case in results:
            builder.add_result(case)
        return builder.build()

    @classmethod
    def concat(cls, tables: Sequence[CaseTable]) -> CaseTable:
        """Tables of consecutive slices (workers, shards) as one, in the given order."""
        first = tables[0]
        builder = CaseTableBuilder(first.gate_names, first.metric_names)
        ids: list[str] = []
        case_types: list[str] = []
        codes: list[npt.NDArray[np.int32]] = []
        errors: dict[int, str] = {}
        fabricated: dict[int, list[str]] = {}
        judge: dict[int, bytes] = {}
        for table in tables:
            if (table.gate_names, table.metric_names) != (first.gate_names, first.metric_names):
                raise ValueError("case tables of different gates or retrieval metrics")
            offset = len(ids)
            ids += table.ids
            case_types += table.case_types
            remap = np.array([builder.tag_code(t) for t in table.tag_sets], dtype=np.int32)
            codes.append(remap[table.tag_codes] if len(table) else table.tag_codes)
            errors.update((offset + i, e) for i, e in table.errors.items())
            fabricated.update((offset + i, f) for i, f in table.fabricated.items())
            judge.update((offset + i, e) for i, e in table.judge.items())
        return cls(
            gate_names=first.gate_names,
            metric_names=first.metric_names,
            ids=ids,
            case_types=case_types,
            tag_sets=builder.tag_sets,
            tag_codes=np.concatenate(codes),
            gates=np.concatenate([t.gates for t in tables]),
            passed=np.concatenate([t.passed for t in tables]),
            ranks=np.concatenate([t.ranks for t in tables]),
            scored=np.concatenate([t.scored for t in tables]),
            retrieval=np.concatenate([t.retrieval for t in tables]),
            attribution=np.concatenate([t.attribution for t in tables]),
            errors=errors,
            fabricated=fabricated,
            judge=judge,
        )

    def take(self, order: Sequence[int] | npt.NDArray[np.intp]) -> CaseTable:
        """The rows at ``order`` (a permutation restores golden order after a merge)."""
        index = np.asarray(order, dtype=np.intp)
        olds = index.tolist()
        back = {old: new for new, old in enumerate(olds)}
        return CaseTable(
            gate_names=self.gate_names,
            metric_names=self.metric_names,
            ids=[self.ids[i] for i in olds],
            case_types=[self.case_types[i] for i in olds],
            tag_sets=self.tag_sets,
            tag_codes=self.tag_codes[index],
            gates=self.gates[index],
            passed=self.passed[index],
            ranks=self.ranks[index],
            scored=self.scored[index],
            retrieval=self.retrieval[index],
            attribution=self.attribution[index],
            errors={back[i]: e for i, e in self.errors.items() if i in back},
            fabricated={back[i]: f for i, f in self.fabricated.items() if i in back},
            judge={back[i]: e for i, e in self.judge.items() if i in back},
        )

    def __len__(self) -> int:
        return len(self.ids)

    @overload
    def __getitem__(self, index: int) -> CaseResult: ...

    @overload
    def __getitem__(self, index: slice) -> list[CaseResult]: ...

    def __getitem__(self, index: int | slice) -> CaseResult | list[CaseResult]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("case index out of range")
        return _result(self.row(index))

    def __iter__(self) -> Iterator[CaseResult]:
        for row in self.rows():
            yield _result(row)

    def row(self, index: int) -> dict[str, Any]:
        """One case as the report's JSON object (``CaseResult`` field order)."""
        return next(self.rows(index, index + 1))

    def rows(
        self, start: int = 0, stop: int | None = None, *, encoded_evidence: bool = False
    ) -> Iterator[dict[str, Any]]:
        """Cases ``start:stop`` as report JSON objects; columns are read in bulk.

        ``encoded_evidence``: the judges' evidence as ``orjson.Fragment`` (for the writer,
        which copies the bytes), not parsed back into objects.
        """
        stop = len(self) if stop is None else min(stop, len(self))
        names = self.gate_names
        metrics = self.metric_names
        gate_rows = self.gates[start:stop].tolist()
        retrieval_rows = self.retrieval[start:stop].tolist()
        scored = self.scored[start:stop].tolist()
        passed = self.passed[start:stop].tolist()
        ranks = self.ranks[start:stop].tolist()
        attribution = self.attribution[start:stop].tolist()
        tag_codes = self.tag_codes[start:stop].tolist()
        judge = self.judge
        # The writer only encodes the rows: cases with the same gate results (or the same
        # retrieval values) share one dict there. Other callers get dicts of their own.
        shared_gates: dict[tuple[int, ...], dict[str, bool]] = {}
        shared_values: dict[tuple[float, ...], dict[str, float]] = {}
        for offset in range(stop - start):
            i = start + offset
            codes = gate_rows[offset]
            gates = shared_gates.get(key := tuple(codes)) if encoded_evidence else None
            if gates is None:
                gates = {
                    name: code == 1 for name, code in zip(names, codes, strict=True) if code >= 0
                }
                if encoded_evidence:
                    shared_gates[key] = gates
            values: dict[str, float] | None = None
            if scored[offset]:
                numbers = retrieval_rows[offset]
                if encoded_evidence:
                    values = shared_values.get(numbers_key := tuple(numbers))
                if values is None:
                    values = dict(zip(metrics, numbers, strict=True))
                    if encoded_evidence:
                        shared_values[numbers_key] = values
            row: dict[str, Any] = {
                "id": self.ids[i],
                "case_type": self.case_types[i],
                "tags": self.tag_sets[tag_codes[offset]],
                "gates": gates,
                "passed": passed[offset],
                "error": self.errors.get(i),
                "fabricated": self.fabricated.get(i, []),
                "rank": ranks[offset] or None,
                "retrieval": values,
                "attribution": _ATTRIBUTION_OF[attribution[offset]],
            }
            evidence = judge.get(i)
            if evidence is not None:  # left out, not null, where no judged gate applied
                row["judge"] = (
                    orjson.Fragment(evidence) if encoded_evidence else orjson.loads(evidence)
                )
            yield row

    def to_dicts(self) -> list[dict[str, Any]]:
        return list(self.rows())

    def gate_column(self, name: str) -> npt.NDArray[np.int8]:
        """-1 not applicable, 0 failed, 1 passed, per case."""
        return self.gates[:, self.gate_names.index(name)]

    def metric_column(self, name: str) -> npt.NDArray[np.float64]:
        """One retrieval metric per case (NaN where the case is not scored)."""
        return self.retrieval[:, self.metric_names.index(name)]

    def attributions(self) -> list[Attribution | None]:
        return [_ATTRIBUTION_OF[a] for a in self.attribution.tolist()]

    def tag_members(self) -> TagMembers:
        """Tag key → value → mask of the cases that carry it (keys and values sorted)."""
        by_key: dict[str, dict[str, list[int]]] = {}
        for code, tags in enumerate(self.tag_sets):
            for key, value in tags.items():
                by_key.setdefault(key, {}).setdefault(value, []).append(code)
        out: TagMembers = {}
        for key in sorted(by_key):
            out[key] = {}
            for value in sorted(by_key[key]):
                out[key][value] = np.isin(self.tag_codes, by_key[key][value])
        return out


def _result(row: dict[str, Any]) -> CaseResult:
    """A row as a report model (evidence as models too, so it serialises cleanly)."""
    if "judge" in row:
        row["judge"] = {g: JudgeEvidence.model_validate(e) for g, e in row["judge"].items()}
    return CaseResult.model_construct(_CASE_FIELDS, **row)


def _evidence_json(judge: dict[str, Any]) -> dict[str, Any]:
    return {
        gate: e if isinstance(e, dict) else e.model_dump(exclude_none=True)
        for gate, e in judge.items()
    }


def as_case_table(
    cases: Sequence[CaseResult], gate_names: Sequence[str], metric_names: Sequence[str]
) -> CaseTable:
    """``cases`` as a table (itself when it already is one)."""
    if isinstance(cases, CaseTable):
        return cases
    return CaseTable.from_results(cases, gate_names, metric_names)


def attribution_by_id(cases: Sequence[CaseResult]) -> dict[str, Attribution | None]:
    """Each case's failure attribution, read from the columns when ``cases`` is a table."""
    if isinstance(cases, CaseTable):
        return dict(zip(cases.ids, cases.attributions(), strict=True))
    return {c.id: c.attribution for c in cases}

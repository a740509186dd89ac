"""Does the data speak the outcome contract? (SPEC §5; docs/http.md for the http system)

Unknown keys in an outcome are ignored: pipelines log more than we read (RAGSpine's
outcomes carry a route and a tool status, services add trace ids). But when *no* record
carries a field we read, or most records carry a key that is evidently one of ours under
another name (``response``, ``citations``, ``context``), every answer would be scored as
empty: a near-zero baseline recorded with exit 0. That is refused here, with the keys
named, before anything is scored.
"""

from __future__ import annotations

import difflib
import functools
import os
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import AliasChoices, AliasPath

from .errors import ConfigError, InputError, Problem, RagspineError
from .input_files import open_input
from .jsonio import DEFAULT_MAX_INPUT_BYTES, array_hint, iter_jsonl_lines, starts_with_array
from .outcomes.model import KNOWN_FIELDS, RAGSPINE_FIELD_NAMES, Outcome

__all__ = [
    "HTTP_CONTRACT",
    "OUTCOMES_CONTRACT",
    "KeyCensus",
    "check_outcomes_file",
    "known_outcome_keys",
    "likely_field",
]

HTTP_CONTRACT = "docs/http.md"
OUTCOMES_CONTRACT = "schema/outcome.schema.json"
SAMPLE_RECORDS = 2000  # enough to judge "most" of a file; a million-line file is not re-read

# Names other RAG stacks use for our fields (LangChain, LlamaIndex, OpenAI-style, Ragas).
_ALIASES: dict[str, str] = {
    "response": "answer",
    "output": "answer",
    "output_text": "answer",
    "text": "answer",
    "result": "answer",
    "generation": "answer",
    "generated_answer": "answer",
    "completion": "answer",
    "reply": "answer",
    "content": "answer",
    "message": "answer",
    "prediction": "answer",
    "citations": "sources",
    "references": "sources",
    "documents": "sources",
    "docs": "sources",
    "source_documents": "sources",
    "source_nodes": "sources",
    "retrieved": "sources",
    "retrieved_docs": "sources",
    "retrieved_documents": "sources",
    "retrieved_sources": "sources",
    "ranked_sources": "sources",
    "context": "contexts",
    "passages": "contexts",
    "chunks": "contexts",
    "retrieved_contexts": "contexts",
    "retrieved_passages": "contexts",
    "snippets": "contexts",
    "refusal": "refused",
    "is_refusal": "refused",
    "is_refused": "refused",
    "refuse": "refused",
    "declined": "refused",
    "abstained": "refused",
    "clarify": "clarification",
    "clarification_mode": "clarification",
    "needs_clarification": "clarification",
    "latency": "latency_ms",
    "duration_ms": "latency_ms",
    "elapsed_ms": "latency_ms",
    "numeric_value": "value",
    "amount": "value",
    "units": "unit",
    "citation": "source",
}


def _names(alias: object) -> set[str]:
    if isinstance(alias, str):
        return {alias}
    if isinstance(alias, AliasChoices):
        return {c for c in alias.choices if isinstance(c, str)}
    if isinstance(alias, AliasPath) and alias.path and isinstance(alias.path[0], str):
        return {alias.path[0]}
    return set()


ID_KEYS = frozenset({"id", *(k for k, v in RAGSPINE_FIELD_NAMES.items() if v == "id")})


def known_outcome_keys() -> frozenset[str]:
    """Every top-level key of the contract (``outcomes.model.KNOWN_FIELDS``: SPEC §5 and
    RAGSpine's ``CaseOutcome``, with any model aliases), but the id."""
    keys: set[str] = set(KNOWN_FIELDS)
    for info in Outcome.model_fields.values():
        keys |= _names(info.alias) | _names(info.validation_alias)
    return frozenset(keys - ID_KEYS)


def _guess_targets() -> frozenset[str]:
    """The fields a misnamed key may stand for: SPEC §5's and RAGSpine's names for them
    (not RAGSpine's diagnostics such as ``tool_statuses``, which score nothing)."""
    return frozenset({*Outcome.model_fields, *RAGSPINE_FIELD_NAMES} - ID_KEYS)


def likely_field(key: str, known: Iterable[str] | None = None) -> str | None:
    """The contract field ``key`` most likely stands for, or None when it looks like
    an unrelated extra (``trace_id``, ``route``)."""
    known_keys = sorted(known if known is not None else _guess_targets())
    lowered = key.strip().lower().replace("-", "_").replace(" ", "_")
    if lowered in known_keys and lowered != key:
        return lowered
    if lowered in _ALIASES and _ALIASES[lowered] in known_keys:
        return _ALIASES[lowered]
    close = difflib.get_close_matches(lowered, known_keys, n=1, cutoff=0.8)
    return close[0] if close else None


@functools.lru_cache(maxsize=1024)
def _cached_guess(key: str) -> str | None:
    return likely_field(key)


def _carries(record: Mapping[str, Any], name: str) -> bool:
    """Whether ``record`` has the field ``name`` under any of its names (SPEC or RAGSpine)."""
    canonical = RAGSPINE_FIELD_NAMES.get(name, name)
    return any(
        k in record
        for k in (
            canonical,
            *(theirs for theirs, ours in RAGSPINE_FIELD_NAMES.items() if ours == canonical),
        )
    )


def _shown(keys: Iterable[str], limit: int = 8) -> str:
    items = list(keys)
    text = ", ".join(repr(k) if len(k) <= 40 else repr(k[:37] + "...") for k in items[:limit])
    return text + (f" and {len(items) - limit} more" if len(items) > limit else "")


@dataclass
class KeyCensus:
    """Which keys the records (responses or outcome lines) carried, counted per record."""

    records: int = 0
    with_known: int = 0
    unknown: Counter[str] = field(default_factory=Counter)
    # Unknown keys standing for a field the same record does not carry (``citations``
    # without ``sources``): the field would be read as empty.
    misnamed: Counter[str] = field(default_factory=Counter)
    known: frozenset[str] = field(default_factory=known_outcome_keys)

    def add(self, record: Mapping[str, Any]) -> None:
        self.records += 1
        keys = [k for k in record if isinstance(k, str) and k not in ID_KEYS]
        if any(k in self.known for k in keys):
            self.with_known += 1
        unknown = {k for k in keys if k not in self.known}
        self.unknown.update(unknown)
        for key in unknown:
            guess = _cached_guess(key)
            if guess is not None and not _carries(record, guess):
                self.misnamed[key] += 1

    def problem(self, what: str, contract: str) -> str | None:
        """Why the records do not speak the contract (one line), or None when they do.

        ``what`` names the records ("responses", "outcomes in out.jsonl").
        """
        if self.records == 0:
            return None
        fields = ", ".join(sorted(set(Outcome.model_fields) - {"id", "latency_ms"}))
        if self.with_known == 0:
            carried = (
                f"they carry {_shown(k for k, _ in self.unknown.most_common())}"
                if self.unknown
                else "they carry nothing but an id"
            )
            guesses = self._guesses(everywhere=True)
            hint = f" ({'; '.join(guesses)}?)" if guesses else ""
            return (
                f"none of the {self.records} {what} carries a field of the outcome contract "
                f"({fields}); {carried}{hint}: see {contract}"
            )
        guesses = self._guesses(everywhere=False)
        if guesses:
            return (
                f"most {what} carry keys outside the outcome contract, which would be ignored "
                f"({'; '.join(guesses)}): rename them, see {contract}"
            )
        return None

    def _guesses(self, *, everywhere: bool) -> list[str]:
        """``'citations' → 'sources'`` for unknown keys that stand for a contract field
        (only keys most records carry, unless ``everywhere``)."""
        found: list[str] = []
        counts = self.unknown if everywhere else self.misnamed
        for key, count in counts.most_common():
            if not everywhere and count * 2 <= self.records:
                continue
            guess = likely_field(key)
            if guess is not None:
                found.append(f"{key!r} in {count} of {self.records}: did you mean {guess!r}")
        return found[:5]

    def ignored(self, what: str) -> str | None:
        """A warning naming the extra keys that were ignored, or None."""
        if not self.unknown:
            return None
        counted = [f"{k!r} ({n})" for k, n in self.unknown.most_common(8)]
        more = len(self.unknown) - len(counted)
        extra = f" and {more} more" if more > 0 else ""
        return (
            f"{what}: keys outside the outcome contract were ignored: {', '.join(counted)}{extra}"
        )


def check_outcomes_file(path: str, *, max_bytes: int) -> KeyCensus | None:
    """Refuse an outcomes file that is not JSONL outcomes, before anything is scored.

    Reads at most ``SAMPLE_RECORDS`` lines. Problems the loader reports better (a bad
    line among good ones, bad UTF-8, a missing file) are left to it.
    """
    name = str(path)
    problems: list[Problem] = []
    census = KeyCensus()
    non_objects = 0
    first_kind = ""
    try:
        is_array = starts_with_array(path)
        if not is_array:
            for _, obj in iter_jsonl_lines(path, problems, max_bytes=max_bytes):
                if isinstance(obj, dict):
                    census.add(obj)
                else:
                    non_objects += 1
                    first_kind = first_kind or type(obj).__name__
                if census.records + non_objects + len(problems) >= SAMPLE_RECORDS:
                    break
    except (RagspineError, OSError):
        return None  # the loader reports it, in its own order (golden set first)
    if is_array:
        raise InputError.single(name, array_hint("outcomes are", "outcomes.jsonl"))
    decoded = census.records + non_objects
    bad_lines = [p for p in problems if p.line is not None]
    if bad_lines and bad_lines[0].line == 1 and len(bad_lines) > decoded:
        raise InputError.single(
            name,
            f"{_guess_format(path)}, not JSONL outcomes: {len(bad_lines)} of the first "
            f"{len(bad_lines) + decoded} lines are not JSON (line 1: {bad_lines[0].message}); "
            f"outcomes are one JSON object per line, see {OUTCOMES_CONTRACT}",
        )
    if census.records == 0 and non_objects and not bad_lines:
        raise InputError.single(
            name,
            f"no line is a JSON object (line 1 is a {first_kind}): outcomes are one JSON "
            f"object per line, see {OUTCOMES_CONTRACT}",
        )
    if bad_lines:
        return None  # a few broken lines among good ones: the loader names each of them
    problem = census.problem(f"outcomes in {name}", OUTCOMES_CONTRACT)
    if problem is not None:
        raise ConfigError(problem)
    return census


def _guess_format(path: str | os.PathLike[str]) -> str:
    """What a file that is not JSONL most likely is, for the message."""
    with open_input(path, DEFAULT_MAX_INPUT_BYTES) as handle:  # never a FIFO or a device
        first = handle.readline(4096).removeprefix(b"\xef\xbb\xbf").decode("utf-8", "replace")
    stripped = first.strip()
    if stripped.startswith("{"):
        return "looks like one multi-line JSON document (use jq -c to put one object per line)"
    if stripped.lower().startswith(("<!doctype", "<html", "<?xml", "<")):
        return "looks like HTML or XML"
    if any(sep in first for sep in (",", "\t", ";")):
        return "looks like CSV or TSV"
    return "is not JSON"

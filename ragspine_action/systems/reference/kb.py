"""The ACME knowledge base: a fact table and FTS5-indexed narrative passages in SQLite.

Built from the data files in ``data/kb/`` (``facts.csv``, ``docs/*.md``, ``glossary.csv``).
The build is deterministic (rows inserted in sorted order) and idempotent (a database whose
recorded data fingerprint matches is reused; otherwise it is rebuilt in a temporary file
and moved into place atomically).
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import re
import sqlite3
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

from ...errors import ConfigError, InputError, Problem
from ...paths import DATA_DIR
from .ranking import ConceptRanker, WeightedConcept
from .text import retrieval_tokens, stem_text, word_spans

__all__ = [
    "DB_FILENAME",
    "DEFAULT_DATA_DIR",
    "Fact",
    "KnowledgeBase",
    "Passage",
    "build_kb",
    "document_texts",
    "memory_kb",
]

DEFAULT_DATA_DIR = DATA_DIR / "kb"  # data/kb beside the package (or $RAGSPINE_DATA_DIR/kb)
DB_FILENAME = "acme_kb.sqlite3"
KNOWN_UNITS = ("USD_BN", "USD_M", "USD_K", "PCT")
FACT_COLUMNS = (
    "metric",
    "entity",
    "geography",
    "channel",
    "period_type",
    "period",
    "value",
    "unit",
    "doc",
    "locator",
)
_PERIOD_RE = re.compile(r"^(FY\d{4}|\d{4}H[12]|\d{4}Q[1-4])$")
_SECTION_RE = re.compile(r"^## (?P<locator>\S+) \| (?P<heading>.+)$")

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE facts (
    metric TEXT NOT NULL, entity TEXT NOT NULL, geography TEXT NOT NULL,
    channel TEXT NOT NULL, period_type TEXT NOT NULL, period TEXT NOT NULL,
    value TEXT NOT NULL, unit TEXT NOT NULL, doc TEXT NOT NULL, locator TEXT NOT NULL,
    PRIMARY KEY (metric, entity, channel, period)
);
CREATE TABLE passages (
    id INTEGER PRIMARY KEY, doc TEXT NOT NULL, title TEXT NOT NULL, topic TEXT NOT NULL,
    locator TEXT NOT NULL, heading TEXT NOT NULL, text TEXT NOT NULL
);
CREATE VIRTUAL TABLE passages_fts USING fts5(meta, tokens, tokenize = 'porter unicode61');
CREATE TABLE glossary (term TEXT NOT NULL, expansion TEXT NOT NULL);
"""


@dataclass(frozen=True)
class Fact:
    """One reported number, exactly as the deck shows it (value and unit unconverted)."""

    metric: str
    entity: str
    channel: str
    period_type: str
    period: str
    value: Decimal
    unit: str
    doc: str
    locator: str


@dataclass(frozen=True)
class Passage:
    """One retrievable section of a narrative document."""

    doc: str
    title: str
    locator: str
    heading: str
    text: str
    score: float

    def label(self) -> str:
        return f"{self.doc} · {self.locator}"


def _data_files(data_dir: Path) -> list[Path]:
    files = [data_dir / "facts.csv", data_dir / "glossary.csv"]
    files += sorted((data_dir / "docs").glob("*.md"))
    return files


# Bumped whenever the database layout changes, so a KB built by an older version (same
# data files) is rebuilt rather than reused: 2 = passages_fts split into meta / tokens.
SCHEMA_VERSION = 2


def _fingerprint(files: Iterable[Path]) -> str:
    digest = hashlib.sha256(f"schema {SCHEMA_VERSION}\0".encode())
    for path in files:
        digest.update(path.name.encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _read_facts(path: Path) -> list[tuple[str, ...]]:
    problems: list[Problem] = []
    rows: list[tuple[str, ...]] = []
    keys: dict[tuple[str, ...], int] = {}
    reader = csv.DictReader(io.StringIO(path.read_text(encoding="utf-8")))
    if tuple(reader.fieldnames or ()) != FACT_COLUMNS:
        raise InputError.single(str(path), f"header must be {','.join(FACT_COLUMNS)}", line=1)
    for line, row in enumerate(reader, start=2):
        values = tuple((row.get(c) or "").strip() for c in FACT_COLUMNS)
        rec = dict(zip(FACT_COLUMNS, values, strict=True))
        for col in FACT_COLUMNS:
            if not rec[col]:
                problems.append(Problem(str(path), line, col, "must not be empty"))
        try:
            Decimal(rec["value"])
        except InvalidOperation:
            problems.append(Problem(str(path), line, "value", f"not a number: {rec['value']!r}"))
        if rec["unit"] not in KNOWN_UNITS:
            problems.append(
                Problem(
                    str(path),
                    line,
                    "unit",
                    f"unknown unit {rec['unit']!r} (allowed: {', '.join(KNOWN_UNITS)})",
                )
            )
        if rec["period"] and not _PERIOD_RE.match(rec["period"]):
            problems.append(Problem(str(path), line, "period", f"bad period {rec['period']!r}"))
        key = (rec["metric"], rec["entity"], rec["channel"], rec["period"])
        if key in keys:
            problems.append(
                Problem(str(path), line, None, f"duplicate fact (first on line {keys[key]})")
            )
        keys.setdefault(key, line)
        rows.append(values)
    if problems:
        raise InputError(problems)
    return sorted(rows)


def _read_doc(path: Path) -> list[tuple[str, str, str, str, str, str]]:
    """(doc, title, topic, locator, heading, text) per ``## locator | heading`` section."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or lines[0] != "---" or "---" not in lines[1:]:
        raise InputError.single(str(path), "must start with a '---' front-matter block", line=1)
    end = lines.index("---", 1)
    meta: dict[str, str] = {}
    for raw in lines[1:end]:
        key, sep, value = raw.partition(":")
        if sep:
            meta[key.strip()] = value.strip()
    for key in ("doc", "title", "topic"):
        if not meta.get(key):
            raise InputError.single(str(path), f"front matter lacks '{key}'", field=key)
    sections: list[tuple[str, str, str, str, str, str]] = []
    current: tuple[str, str] | None = None
    body: list[str] = []

    def flush() -> None:
        if current is not None:
            text = " ".join(b for b in body if b)
            sections.append((meta["doc"], meta["title"], meta["topic"], *current, text))

    for number, raw in enumerate(lines[end + 1 :], start=end + 2):
        if raw.startswith("## "):
            match = _SECTION_RE.match(raw)
            if match is None:
                raise InputError.single(
                    str(path), "section heading must be '## <locator> | <heading>'", line=number
                )
            flush()
            current = (match["locator"], match["heading"].strip())
            body = []
        elif raw.strip():
            if current is None:
                raise InputError.single(str(path), "text before the first section", line=number)
            body.append(raw.strip())
    flush()
    if not sections:
        raise InputError.single(str(path), "document has no sections")
    return sections


def document_texts(data_dir: Path | str = DEFAULT_DATA_DIR) -> dict[str, tuple[str, ...]]:
    """Each narrative document's section texts, by doc name: the reference texts
    answer_accuracy uses when this system is under test."""
    texts: dict[str, list[str]] = {}
    for path in sorted((Path(data_dir) / "docs").glob("*.md")):
        for doc, *_, text in _read_doc(path):
            texts.setdefault(doc, []).append(text)
    return {doc: tuple(parts) for doc, parts in texts.items()}


def _read_glossary(path: Path) -> list[tuple[str, str]]:
    reader = csv.DictReader(io.StringIO(path.read_text(encoding="utf-8")))
    pairs: list[tuple[str, str]] = []
    for line, row in enumerate(reader, start=2):
        term, expansion = (row.get("term") or "").strip(), (row.get("expansion") or "").strip()
        if not term or not expansion:
            raise InputError.single(str(path), "term and expansion are required", line=line)
        pairs.append((term.lower(), expansion))
    return sorted(pairs)


def build_kb(data_dir: Path | str = DEFAULT_DATA_DIR, db_dir: Path | str | None = None) -> Path:
    """Build (or reuse) the SQLite KB for ``data_dir`` inside ``db_dir``; returns its path."""
    data = Path(data_dir)
    files = _data_files(data)
    missing = [str(f) for f in files[:2] if not f.is_file()]
    if missing:
        raise InputError.single(missing[0], "knowledge-base data file not found")
    target_dir = Path(db_dir) if db_dir is not None else Path(tempfile.mkdtemp(prefix="acme-kb-"))
    try:
        target_dir.mkdir(parents=True, exist_ok=True)
        _check_writable(target_dir)
    except OSError as exc:
        raise ConfigError(
            f"--kb-dir: cannot write the knowledge base in {target_dir}: {exc.strerror or exc}"
        ) from exc
    target = target_dir / DB_FILENAME
    fingerprint = _fingerprint(files)
    if target.is_file() and _stored_fingerprint(target) == fingerprint:
        return target
    rows = _read_rows(files)
    fd, tmp_name = tempfile.mkstemp(prefix=".kb-", suffix=".tmp", dir=target_dir)
    os.close(fd)
    try:
        conn = sqlite3.connect(tmp_name)
        try:
            _fill(conn, rows, fingerprint)
        finally:
            conn.close()
        os.replace(tmp_name, target)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    return target


def memory_kb(data_dir: Path | str = DEFAULT_DATA_DIR) -> sqlite3.Connection:
    """The KB of ``data_dir`` built in memory: what a run without ``--kb-dir`` uses.

    The same rows in the same order as :func:`build_kb`, so every query answers the same;
    but no file, so no fsync per statement and nothing to delete at exit (on a disk-backed
    temporary directory those cost ~0.1 s of wall time for ~10 ms of CPU).
    """
    files = _data_files(Path(data_dir))
    missing = [str(f) for f in files[:2] if not f.is_file()]
    if missing:
        raise InputError.single(missing[0], "knowledge-base data file not found")
    conn = sqlite3.connect(":memory:", check_same_thread=False)
    try:
        _fill(conn, _read_rows(files), _fingerprint(files))
        conn.execute("PRAGMA query_only = ON")  # read-only, as a file KB is opened
    except BaseException:
        conn.close()
        raise
    return conn


_Rows = tuple[
    list[tuple[str, ...]], list[tuple[str, str]], list[tuple[str, str, str, str, str, str]]
]


def _read_rows(files: list[Path]) -> _Rows:
    """Facts, glossary and passages of the data files, each in its stored order."""
    facts = _read_facts(files[0])
    glossary = _read_glossary(files[1])
    passages = [s for doc in files[2:] for s in _read_doc(doc)]
    passages.sort(key=lambda s: (s[0], s[3]))
    return facts, glossary, passages


def _fill(conn: sqlite3.Connection, rows: _Rows, fingerprint: str) -> None:
    facts, glossary, passages = rows
    conn.executescript(_SCHEMA)
    conn.executemany(f"INSERT INTO facts VALUES ({','.join('?' * 10)})", facts)
    conn.executemany("INSERT INTO glossary VALUES (?, ?)", glossary)
    for rowid, (doc, title, topic, locator, heading, text) in enumerate(passages, 1):
        conn.execute(
            "INSERT INTO passages VALUES (?, ?, ?, ?, ?, ?, ?)",
            (rowid, doc, title, topic, locator, heading, text),
        )
        meta_tokens = retrieval_tokens(f"{doc} {title}")
        tokens = retrieval_tokens(f"{heading} {text}")
        conn.execute(
            "INSERT INTO passages_fts (rowid, meta, tokens) VALUES (?, ?, ?)",
            (rowid, " ".join(meta_tokens), " ".join(tokens)),
        )
    conn.execute("INSERT INTO meta VALUES ('fingerprint', ?)", (fingerprint,))
    conn.commit()


def _check_writable(directory: Path) -> None:
    if not directory.is_dir():
        raise NotADirectoryError(20, "not a directory", str(directory))
    fd, probe = tempfile.mkstemp(prefix=".probe-", dir=directory)
    os.close(fd)
    os.unlink(probe)


def _stored_fingerprint(path: Path) -> str | None:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    return str(row[0]) if row else None


class KnowledgeBase:
    """Read-only queries over a built KB: fact lookups and bm25 passage search."""

    def __init__(self, db: Path | str | sqlite3.Connection) -> None:
        """``db``: a built KB file (opened read-only) or a :func:`memory_kb` connection."""
        if isinstance(db, sqlite3.Connection):
            self.path: Path | None = None
            self._conn = db
        else:
            self.path = Path(db)
            self._conn = sqlite3.connect(
                f"file:{self.path}?mode=ro", uri=True, check_same_thread=False
            )
        self._glossary: list[tuple[str, str]] = [
            (str(t), str(e))
            for t, e in self._conn.execute("SELECT term, expansion FROM glossary ORDER BY term")
        ]
        self._glossary_index = _GlossaryIndex(self._glossary)
        self._expanded: dict[str, str] = {}
        self._ranker: ConceptRanker | None = None

    def close(self) -> None:
        self._conn.close()

    def lookup(self, metric: str, entity: str, period: str, channel: str = "TOTAL") -> Fact | None:
        """The fact for exactly this metric, entity, period and channel, if reported."""
        row = self._conn.execute(
            "SELECT metric, entity, channel, period_type, period, value, unit, doc, locator "
            "FROM facts WHERE metric = ? AND entity = ? AND period = ? AND channel = ?",
            (metric, entity, period, channel),
        ).fetchone()
        if row is None:
            return None
        return Fact(row[0], row[1], row[2], row[3], row[4], Decimal(row[5]), *row[6:])

    def reported_periods(self, period_type: str) -> list[str]:
        """Periods of one type that any fact is reported for, oldest first."""
        rows = self._conn.execute(
            "SELECT DISTINCT period FROM facts WHERE period_type = ? ORDER BY period",
            (period_type,),
        )
        return [str(r[0]) for r in rows]

    def has_metric(self, metric: str, entity: str) -> bool:
        """Whether the entity reports the metric for any period at all."""
        row = self._conn.execute(
            "SELECT 1 FROM facts WHERE metric = ? AND entity = ? LIMIT 1", (metric, entity)
        ).fetchone()
        return row is not None

    def channels(self, metric: str) -> list[str]:
        """Channels the metric is broken down by somewhere in the KB."""
        rows = self._conn.execute(
            "SELECT DISTINCT channel FROM facts WHERE metric = ? ORDER BY channel", (metric,)
        )
        return [str(r[0]) for r in rows]

    def expand(self, text: str) -> str:
        """The text plus glossary expansions of the terms it contains (cross-lingual search)."""
        cached = self._expanded.get(text)
        if cached is None:
            lowered = text.lower()
            extra = self._glossary_index.expansions(lowered)
            stemmed = stem_text(lowered)  # "interest rates" also finds "interest rate"
            if stemmed != lowered:
                extra += [e for e in self._glossary_index.expansions(stemmed) if e not in extra]
            cached = " ".join([text, *extra])
            if len(self._expanded) < _EXPAND_CACHE_SIZE:
                self._expanded[text] = cached
        return cached

    def glossary_matches(self, text: str) -> list[tuple[str, str]]:
        """(term, expansion) of every glossary term the text contains."""
        lowered = text.lower()
        found = self._glossary_index.matches(lowered)
        stemmed = stem_text(lowered)
        if stemmed != lowered:
            found += [m for m in self._glossary_index.matches(stemmed) if m not in found]
        return found

    def glossary(self) -> list[tuple[str, str]]:
        """Every (term, expansion) row of the glossary."""
        return list(self._glossary)

    def _concept_ranker(self) -> ConceptRanker:
        if self._ranker is None:
            self._ranker = ConceptRanker(self._conn, self._glossary)
        return self._ranker

    def concept_weights(self, query: str) -> tuple[WeightedConcept, ...]:
        """The query's concepts with their weights: what an answer sentence should carry."""
        return self._concept_ranker().weighted(query)

    def search(self, query: str, k: int = 5) -> list[Passage]:
        """Top-k passages for the query: its concepts (glossary terms in either language,
        topic above entity names) first, bm25 over the expanded tokens second
        (:mod:`ranking`). Stop words and fluff are dropped."""
        ranked = self._concept_ranker().rank(query, self.expand(query), k)
        out = []
        for rowid, score in ranked:
            r = self._conn.execute(
                "SELECT doc, title, locator, heading, text FROM passages WHERE id = ?", (rowid,)
            ).fetchone()
            out.append(Passage(r[0], r[1], r[2], r[3], r[4], round(score, 9)))
        return out


_EXPAND_CACHE_SIZE = 4096
_ALNUM = re.compile(r"[a-z0-9]+")


class _GlossaryIndex:
    """Which glossary terms a lower-cased text contains, without one regex per term per
    text: an ASCII term is only looked for when its first word is one of the text's words;
    a Chinese term is a substring test."""

    def __init__(self, glossary: list[tuple[str, str]]) -> None:
        self._order = glossary
        self._by_first: dict[str, list[int]] = {}
        self._always: list[int] = []
        self._chinese: list[int] = []
        for i, (term, _) in enumerate(glossary):
            if not term.isascii():
                self._chinese.append(i)
                continue
            first = _ALNUM.search(term)
            if first is None or first.start() != 0:
                self._always.append(i)
            else:
                self._by_first.setdefault(first.group(0), []).append(i)

    def _contains(self, i: int, lowered: str) -> bool:
        """Whether term ``i`` occurs as a whole word: ``(?<![a-z0-9])TERM(?![a-z0-9])``, the
        term a literal (its spaces too), found without compiling it (``word_spans``)."""
        return bool(word_spans(lowered, self._order[i][0]))

    def expansions(self, lowered: str) -> list[str]:
        """The expansions of every term the text contains, in glossary order."""
        return [expansion for _, expansion in self.matches(lowered)]

    def matches(self, lowered: str) -> list[tuple[str, str]]:
        """(term, expansion) of every term the text contains, in glossary order."""
        found = [i for i in self._chinese if self._order[i][0] in lowered]
        candidates = set(self._always)
        for word in set(_ALNUM.findall(lowered)):
            candidates.update(self._by_first.get(word, ()))
        found += [i for i in candidates if self._contains(i, lowered)]
        return [self._order[i] for i in sorted(found)]

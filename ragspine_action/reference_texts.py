"""Reference texts for answer_accuracy: a ``narrative_doc`` name → the document's text.

RAGSpine scores a narrative answer against the text of the document the case expects
(``evaluate(cases, outcomes, mode, reference_texts={doc_id: text})``). Here the texts come
from ``--reference-texts`` (config ``reference_texts:``), either

- a directory with one UTF-8 file per document, named as the document (``REG_WATCH_HK.pptx``)
  or with ``.txt``/``.md`` appended (``REG_WATCH_HK.pptx.txt``); a doc without a text of
  its own name is looked up by its stem (``REG_WATCH_HK.txt``); or
- a JSON file holding one object ``{doc: text}`` (what ``json.dump(reference_texts)``
  writes in RAGSpine); a value may also be a list of passages, and the answer is then
  measured against the passage it recalls best.

The reference system supplies its knowledge base's texts itself (``reference_kb_texts``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from .errors import ConfigError, InputError, Problem
from .jsonio import DEFAULT_MAX_INPUT_BYTES, read_json_file, read_text_file

__all__ = [
    "TEXT_SUFFIXES",
    "ReferenceTexts",
    "as_passages",
    "doc_name",
    "load_reference_texts",
    "reference_kb_texts",
]

TEXT_SUFFIXES: Final = (".txt", ".md")


def doc_name(file_name: str) -> str:
    """``HK.pptx.txt`` → ``HK.pptx``; ``notes.md`` → ``notes``; ``HK.pptx`` stays."""
    for suffix in TEXT_SUFFIXES:
        if file_name.endswith(suffix) and len(file_name) > len(suffix):
            return file_name[: -len(suffix)]
    return file_name


ReferenceTexts = dict[str, tuple[str, ...]]


def _from_json(path: str, max_bytes: int) -> ReferenceTexts:
    doc = read_json_file(path, max_bytes=max_bytes)
    if not isinstance(doc, dict):
        raise InputError.single(
            path, f"expected a JSON object {{doc: text}}, got {type(doc).__name__}"
        )
    texts: ReferenceTexts = {}
    problems: list[Problem] = []
    for key, value in doc.items():
        if isinstance(value, str):
            texts[key] = (value,)
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            texts[key] = tuple(value)
        else:
            problems.append(
                Problem(
                    path,
                    None,
                    key,
                    "must be the document's text (a string, or a list of passage strings), "
                    f"got {type(value).__name__}",
                )
            )
    if problems:
        raise InputError(problems)
    return texts


def _from_directory(path: str, max_bytes: int) -> ReferenceTexts:
    texts: ReferenceTexts = {}
    first: dict[str, str] = {}
    problems: list[Problem] = []
    for entry in sorted(os.scandir(path), key=lambda e: e.name):
        if entry.name.startswith(".") or not entry.is_file():
            continue
        name = doc_name(entry.name)
        if name in first:
            problems.append(
                Problem(
                    entry.path,
                    None,
                    None,
                    f"names the same document {name!r} as {first[name]}: keep one of them",
                )
            )
            continue
        try:
            text = read_text_file(entry.path, max_bytes=max_bytes)
        except InputError as exc:
            problems += [
                Problem(
                    p.path,
                    p.line,
                    p.field,
                    f"{p.message} (a reference text is the document's plain text, e.g. {name}.txt)",
                )
                for p in exc.problems
            ]
            continue
        first[name] = entry.name
        texts[name] = (text,)
    if problems:
        raise InputError(problems)
    return texts


def load_reference_texts(
    path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_INPUT_BYTES
) -> ReferenceTexts:
    """Read a reference-texts directory or JSON file; every problem is an InputError."""
    name = str(path)
    if os.path.isdir(name):
        texts = _from_directory(name, max_bytes)
    elif os.path.isfile(name):
        texts = _from_json(name, max_bytes)
    else:
        raise ConfigError(
            f"--reference-texts: {name} is neither a directory of texts nor a JSON file"
        )
    if not texts:
        raise ConfigError(
            f"--reference-texts: {name} holds no texts (one file per narrative_doc, "
            "e.g. HK_QBR_2025Q4.pptx.txt)"
        )
    return texts


def as_passages(texts: Mapping[str, str | Sequence[str]]) -> ReferenceTexts:
    """RAGSpine's ``{doc: text}`` (or doc → passages) in the gate's form."""
    return {doc: (text,) if isinstance(text, str) else tuple(text) for doc, text in texts.items()}


def reference_kb_texts(data_dir: str | Path | None = None) -> ReferenceTexts:
    """The reference system's narrative documents as reference texts (doc → its sections)."""
    from .systems.reference.kb import DEFAULT_DATA_DIR, document_texts

    return document_texts(data_dir or DEFAULT_DATA_DIR)

"""Deterministic synthetic golden sets and outcomes for the benchmark (all case types).

Same ``n`` and ``seed`` → byte-identical files on every machine and Python version
(only ``random.Random`` with an explicit seed, no hashing of str, no dict-order tricks).
Answers have realistic lengths: narrative answers of 3–5 sentences drawn from 2–3
retrieved passages of ~60 words, numeric answers of one sentence with a citation.

Two modes. The default makes every passage and answer sentence distinct: nothing repeats,
the worst case for the judges' caches per distinct text. ``kb=True`` draws the passages
from a shared knowledge base (``KB_DOCS`` documents of ``KB_PASSAGES`` passages each), as
a real set's retrieval does: cases about one document see its passages again, and the
answers quote them, so passages and answer sentences repeat across cases (answers as a
whole, questions and numbers do not).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

__all__ = ["CASE_MIX", "write_extraction", "write_qa"]

# Share of each case type, roughly the bundled golden set's mix.
CASE_MIX: tuple[tuple[str, float], ...] = (
    ("numeric", 0.30),
    ("clarification", 0.10),
    ("refusal", 0.15),
    ("narrative", 0.25),
    ("composite", 0.10),
    ("retrieval", 0.10),
)
N_DOCS = 5000
TOPICS = ("FIN", "OPS", "HR", "ESG", "RISK", "SALES", "LEGAL", "IT")
LANGS = ("en", "zh", "mixed")
QTYPES = ("plain", "magnitude_trap", "must_not_clarify", "relative_period", "multi_hop")
UNITS = ("USD_M", "HKD_M", "pct", "headcount")
KB_DOCS = 2000  # documents the narrative cases of ``kb=True`` are about
KB_PASSAGES = 4  # passages per document


def _vocabulary(rng: random.Random, size: int = 3000) -> list[str]:
    syllables = ["ka", "lo", "mi", "ren", "tor", "va", "shi", "quen", "dar", "pel", "nu", "ox"]
    words: list[str] = []
    seen: set[str] = set()
    while len(words) < size:
        word = "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


def _sentence(rng: random.Random, vocab: list[str], n: int) -> str:
    return " ".join(rng.choice(vocab) for _ in range(n)).capitalize() + "."


def _doc(index: int, ext: str = "pdf") -> str:
    return f"DOC_{index:05d}.{ext}"


def _pick_type(rng: random.Random) -> str:
    x = rng.random()
    for name, share in CASE_MIX:
        if x < share:
            return name
        x -= share
    return CASE_MIX[-1][0]


def _ranked(rng: random.Random, relevant: list[str], hit_rate: float) -> list[str]:
    """8–10 ranked docs; the relevant ones placed near the top most of the time."""
    depth = rng.randint(8, 10)
    docs = [_doc(rng.randrange(N_DOCS)) for _ in range(depth)]
    for doc in relevant:
        if rng.random() < hit_rate:
            pos = min(int(rng.expovariate(1.0)), depth - 1)
            docs.insert(pos, doc)
    return docs[:depth]


class _Knowledge:
    """The shared knowledge base of ``kb=True``: each document's passages, made on first
    use from their own seeded generator (the same text whatever the order of use)."""

    def __init__(self, seed: int, vocab: list[str]) -> None:
        self.seed = seed
        self.vocab = vocab
        self.docs: dict[int, list[str]] = {}

    def passages(self, index: int) -> list[str]:
        found = self.docs.get(index)
        if found is None:
            rng = random.Random(self.seed * 1_000_003 + index)
            found = self.docs[index] = [
                " ".join(_sentence(rng, self.vocab, rng.randint(10, 16)) for _ in range(4))
                for _ in range(KB_PASSAGES)
            ]
        return found


def _case_and_outcome(
    rng: random.Random, vocab: list[str], i: int, kb: _Knowledge | None = None
) -> tuple[dict[str, object], dict[str, object] | None]:
    case_type = _pick_type(rng)
    cid = f"{case_type[:3]}-{i:07d}"
    tags = {
        "topic": rng.choice(TOPICS),
        "lang": rng.choice(LANGS),
        "qtype": rng.choice(QTYPES),
    }
    question = _sentence(rng, vocab, rng.randint(8, 16))[:-1] + "?"
    expected: dict[str, object] = {}
    outcome: dict[str, object] = {"id": cid, "latency_ms": round(rng.uniform(50, 900), 1)}
    good = rng.random() < 0.9
    relevant: list[str] = []
    passages: list[str] = []
    if case_type in ("numeric", "composite"):
        doc = _doc(rng.randrange(N_DOCS), "pptx")
        locator = f"slide={rng.randint(1, 40)},table=1,row={rng.randint(1, 12)},col=2"
        value = round(rng.uniform(1, 20000), 1)
        unit = rng.choice(UNITS)
        expected.update(value=value, unit=unit, source={"doc": doc, "locator": locator})
        relevant.append(doc)
        got = value if good else round(value * 1000, 1)
        outcome.update(value=got, unit=unit, source={"doc": doc, "locator": locator})
        outcome["answer"] = f"It was {got:,} {unit} in FY2025 ({doc}, {locator})."
    if case_type in ("narrative", "composite"):
        if kb is None:
            doc = _doc(rng.randrange(N_DOCS))
            passages = [
                " ".join(_sentence(rng, vocab, rng.randint(10, 16)) for _ in range(4))
                for _ in range(rng.randint(2, 3))
            ]
        else:  # the document's passages, in the retriever's order for this question
            index = rng.randrange(KB_DOCS)
            doc = _doc(index)
            passages = rng.sample(kb.passages(index), rng.randint(2, 3))
        expected["narrative_doc"] = doc
        relevant.append(doc)
        claims = [s + "." for p in passages for s in p.split(". ") if s and rng.random() < 0.4] or [
            passages[0]
        ]
        if not good:
            claims.append(_sentence(rng, vocab, 12))
        expected["reference_answer"] = " ".join(claims[:2])
        body = " ".join(c if c.endswith(".") else c + "." for c in claims).replace("..", ".")
        outcome["answer"] = (str(outcome.get("answer", "")) + " " + body).strip()
        outcome["answer"] = f"{outcome['answer']}\nSource: {doc}"
        outcome["contexts"] = passages
    if case_type == "clarification":
        mode = rng.choice(("ask_first", "answer_with_assumptions"))
        expected["clarification"] = mode
        outcome["clarification"] = mode if good else "none"
        outcome["answer"] = "Which business unit and which fiscal period do you mean?"
    if case_type == "refusal":
        expected["refuse"] = True
        outcome["refused"] = good or rng.random() < 0.5
        extra = "" if good else f" It was about {rng.randint(100, 9999):,} last quarter."
        outcome["answer"] = f"The knowledge base has no figures for FY2031.{extra}"
    if case_type == "retrieval":
        picks = rng.sample(range(N_DOCS), rng.randint(1, 3))
        if rng.random() < 0.5:
            expected["relevant_docs"] = [_doc(p) for p in picks]
        else:
            expected["relevant_docs"] = {_doc(p): rng.randint(1, 3) for p in picks}
        relevant = [_doc(p) for p in picks]
        outcome["answer"] = _sentence(rng, vocab, 20)
    outcome["sources"] = [{"doc": d, "locator": ""} for d in _ranked(rng, relevant, 0.85)]
    case = {"id": cid, "question": question, "case_type": case_type, "expected": expected}
    case["tags"] = tags
    if rng.random() < 0.3:
        case["reference_date"] = "2026-06-12"
    x = rng.random()
    if x < 0.01:
        return case, {"id": cid, "error": "upstream timeout"}
    if x < 0.015:
        return case, None
    return case, outcome


def write_qa(directory: Path, n: int, seed: int = 2026, kb: bool = False) -> tuple[Path, Path]:
    """golden.jsonl and outcomes.jsonl with ``n`` cases (cached: same n, seed → same files).

    ``kb``: passages drawn from a shared knowledge base (see the module docstring).
    """
    directory.mkdir(parents=True, exist_ok=True)
    tail = "_kb" if kb else ""
    golden = directory / f"golden_{n}_{seed}{tail}.jsonl"
    outcomes = directory / f"outcomes_{n}_{seed}{tail}.jsonl"
    if golden.exists() and outcomes.exists():
        return golden, outcomes
    rng = random.Random(seed)
    vocab = _vocabulary(rng)
    knowledge = _Knowledge(seed, vocab) if kb else None
    tmp_g, tmp_o = golden.with_suffix(".tmp"), outcomes.with_suffix(".tmp")
    with tmp_g.open("w", encoding="utf-8") as gf, tmp_o.open("w", encoding="utf-8") as of:
        for i in range(n):
            case, outcome = _case_and_outcome(rng, vocab, i, knowledge)
            gf.write(json.dumps(case, ensure_ascii=False) + "\n")
            if outcome is not None:
                of.write(json.dumps(outcome, ensure_ascii=False) + "\n")
    tmp_g.replace(golden)
    tmp_o.replace(outcomes)
    return golden, outcomes


def write_extraction(directory: Path, n_cells: int, seed: int = 2026) -> tuple[Path, Path]:
    """facts.json and ground_truth.json with ``n_cells`` cells (about 2% mismatching)."""
    directory.mkdir(parents=True, exist_ok=True)
    facts = directory / f"facts_{n_cells}_{seed}.json"
    truth = directory / f"truth_{n_cells}_{seed}.json"
    if facts.exists() and truth.exists():
        return facts, truth
    rng = random.Random(seed)
    truth_rows: list[dict[str, object]] = []
    fact_rows: list[dict[str, object]] = []
    cols = 50
    for i in range(n_cells):
        sheet = f"S{i // (cols * 1000)}"
        row, col = divmod(i % (cols * 1000), cols)
        ref = f"{_col_name(col)}{row + 1}"
        value = round(rng.uniform(-1e6, 1e6), 2)
        tags = sorted(rng.sample(("red", "green", "amber", "bold", "total"), rng.randint(0, 2)))
        span = rng.choice((None, None, None, f"A{row + 1}:C{row + 1}"))
        cell = {"sheet": sheet, "cell_ref": ref, "value": value, "tags": tags, "merge_span": span}
        truth_rows.append(cell)
        got = dict(cell)
        if rng.random() < 0.02:
            got["value"] = round(value * 1.01, 2)
        if rng.random() < 0.01:
            got["tags"] = []
        fact_rows.append(got)
    facts.write_text(json.dumps({"cells": fact_rows}), encoding="utf-8")
    truth.write_text(json.dumps({"cells": truth_rows}), encoding="utf-8")
    return facts, truth


def _col_name(index: int) -> str:
    name = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        name = chr(65 + rem) + name
    return name

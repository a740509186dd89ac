"""The lexical judge's verdicts do not depend on the process: Python salts ``str`` hashes
per process, so a set's iteration order (and any choice made by iterating one) moves with
``PYTHONHASHSEED``. A gate that passes a case in one CI run and fails it in the next is a
gate nobody can trust, so the labelled corpus is judged under several seeds and every
claim's verdict, score, reason and matched sentence must be the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "data" / "judge_corpus.jsonl"

# Judges every labelled row and prints each claim's evidence, one JSON line per row.
_SCRIPT = """
import json, sys
from ragspine_action.gates import GateSettings, LexicalJudge
from ragspine_action.gates.answer_accuracy import AnswerAccuracy
from ragspine_action.gates.faithfulness import Faithfulness
from ragspine_action.judge_eval import load_labelled

rows, _ = load_labelled(sys.argv[1])
gates = {"faithfulness": Faithfulness(), "answer_accuracy": AnswerAccuracy()}
settings = GateSettings(judge=LexicalJudge())
for row in rows:
    check = gates[row.gate].check(row.case, row.outcome, settings)
    print(json.dumps([row.id, check.passed, check.actual], sort_keys=True, default=str))
"""

# A claim whose word ("directs") stems to a word two context words share ("directed",
# "directions"): which one it was read as used to follow the set's order.
_SHARED_STEM = {
    "id": "det-1",
    "gate": "faithfulness",
    "label": "supported",
    "question": "What is the maximum daily dose?",
    "answer": "Maximum per 24 hours | 6 tablets, unless a doctor directs otherwise.",
    "contexts": [
        "Directions (adults and children 12 years and over). Take 1 tablet (200 mg) every "
        "4 to 6 hours while symptoms persist. If pain or fever does not respond to 1 "
        "tablet, 2 tablets may be used. Do not exceed 6 tablets (1,200 mg) in 24 hours "
        "unless directed by a doctor. Children under 12 years: ask a doctor."
    ],
}


def _judged(path: Path, seed: int) -> list[str]:
    env = {**os.environ, "PYTHONHASHSEED": str(seed)}
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(path)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return done.stdout.splitlines()


def test_the_corpus_is_judged_alike_under_any_hash_seed() -> None:
    first, second = _judged(CORPUS, 1), _judged(CORPUS, 2)
    assert len(first) > 1500
    differing = [a for a, b in zip(first, second, strict=True) if a != b]
    assert differing == []


def test_a_stem_shared_by_two_context_words_is_read_alike(tmp_path: Path) -> None:
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(_SHARED_STEM) + "\n", "utf-8")
    verdicts = {_judged(path, seed)[0] for seed in range(6)}
    assert len(verdicts) == 1
    assert json.loads(verdicts.pop())[1] is True  # "unless directed by a doctor" says it

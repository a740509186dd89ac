#!/usr/bin/env python
"""Score the aa14 blind set with this tree's lexical answer_accuracy judge.
Usage: PY score_aa14.py [pairs.jsonl] [-v]  (prints per-language right-passed / wrong-failed and the misses)."""

import json
import sys
from pathlib import Path

from ragspine_action.gates import GateSettings, LexicalJudge
from ragspine_action.gates.answer_accuracy import AnswerAccuracy
from ragspine_action.judge_eval import _row

args = [a for a in sys.argv[1:] if not a.startswith("-")]
verbose = "-v" in sys.argv
path = Path(args[0]) if args else Path(__file__).with_name("pairs.jsonl")
settings = GateSettings(judge=LexicalJudge())
gate = AnswerAccuracy()
tot: dict[str, list[int]] = {}
for line in path.read_text("utf-8").splitlines():
    if not line.strip():
        continue
    p = json.loads(line)
    obj = {
        "id": p["id"],
        "gate": "answer_accuracy",
        "label": "supported",
        "question": "Q?",
        "reference": p["reference"],
        "answer": p["answer"],
    }
    row = _row(obj, p["id"])
    check = gate.check(row.case, row.outcome, settings)
    t = tot.setdefault(p["lang"], [0, 0, 0, 0])  # right passed, right, wrong failed, wrong
    right = p["label"] == "pass"
    ok = check.passed == right
    if right:
        t[0] += ok
        t[1] += 1
    else:
        t[2] += ok
        t[3] += 1
    if not ok:
        print(
            f"MISS {p['id']} label={p['label']} ({p['why']})\n   ref: {p['reference']}\n   ans: {p['answer']}"
        )
        if verbose:
            print("   ", json.dumps(check.actual, ensure_ascii=False)[:500])
for lang, t in tot.items():
    print(f"{lang}: right passed {t[0]}/{t[1]}, wrong failed {t[2]}/{t[3]}")

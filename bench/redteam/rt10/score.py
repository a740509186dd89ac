"""Scores a ragspine-eval JSON report against the hand labels of the red-team set.

Usage: python score.py REPORT.json LABELS.jsonl
Per class and in total: faithful answers that pass, hallucinations caught, answer_accuracy
right passed / wrong failed, fabrication counted exactly; then every miss with its id.
"""

import json
import sys
from collections import defaultdict
from pathlib import Path


def main() -> None:
    report = json.loads(Path(sys.argv[1]).read_text("utf-8"))
    labels = [json.loads(x) for x in Path(sys.argv[2]).read_text("utf-8").splitlines() if x.strip()]
    qa = report["qa"]
    cases = {c["id"]: c for c in qa["cases"]}
    # cols: faithful pass, halluc caught, aa right passed, aa wrong failed, fab exact
    cols = ["faith_ok", "halluc_caught", "aa_right_pass", "aa_wrong_fail", "fab_exact"]
    tab: dict[str, dict[str, list[int]]] = defaultdict(lambda: {c: [0, 0] for c in cols})
    misses: list[tuple[str, str, str, str]] = []

    def judged(case: dict, gate: str) -> str:
        j = (case.get("judge") or {}).get(gate) or {}
        bad = [c for c in j.get("claims", []) if c.get("verdict") not in ("supported", "exempt")]
        show = bad or j.get("claims", [])
        return "; ".join(f"{c.get('verdict')}:{c.get('claim', '')[:70]}" for c in show[:3])

    for lab in labels:
        cid, cls = lab["id"], lab["cls"]
        case = cases.get(cid)
        if case is None:
            misses.append((cls, cid, "missing", "case absent from the report"))
            continue
        gates = case.get("gates", {})
        f = lab["faithfulness"]
        if f is not None:
            got = gates.get("faithfulness")
            key = "faith_ok" if f else "halluc_caught"
            tab[cls][key][1] += 1
            if got is None:
                misses.append((cls, cid, key, "faithfulness not applied"))
            elif got == f:
                tab[cls][key][0] += 1
            else:
                what = "faithful answer FAILED" if f else "hallucination PASSED"
                misses.append((cls, cid, key, f"{what} | {judged(case, 'faithfulness')}"))
        a = lab["answer_accuracy"]
        if a is not None:
            got = gates.get("answer_accuracy")
            key = "aa_right_pass" if a else "aa_wrong_fail"
            tab[cls][key][1] += 1
            if got is None:
                misses.append((cls, cid, key, "answer_accuracy not applied"))
            elif got == a:
                tab[cls][key][0] += 1
            else:
                what = "right answer FAILED" if a else "wrong answer PASSED"
                misses.append((cls, cid, key, f"{what} | {judged(case, 'answer_accuracy')}"))
        n = lab["fabrication"]
        if n is not None:
            got_n = len(case.get("fabricated") or [])
            tab[cls]["fab_exact"][1] += 1
            if got_n == n:
                tab[cls]["fab_exact"][0] += 1
            else:
                misses.append(
                    (
                        cls,
                        cid,
                        "fab_exact",
                        f"expected {n}, counted {got_n}: {case.get('fabricated')}",
                    )
                )

    def cell(p: list[int]) -> str:
        return f"{p[0]}/{p[1]}" if p[1] else "-"

    hdr = ["class", "faithful pass", "halluc caught", "AA right pass", "AA wrong fail", "fab exact"]
    rows = []
    tot = {c: [0, 0] for c in cols}
    for cls in sorted(tab):
        rows.append([cls] + [cell(tab[cls][c]) for c in cols])
        for c in cols:
            tot[c][0] += tab[cls][c][0]
            tot[c][1] += tab[cls][c][1]
    rows.append(["TOTAL"] + [cell(tot[c]) for c in cols])
    print("| " + " | ".join(hdr) + " |")
    print("|" + "---|" * len(hdr))
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print()
    for c in cols:
        p = tot[c]
        if p[1]:
            print(f"{c}: {p[0]}/{p[1]} = {p[0] / p[1]:.3f}")
    print(f"\nmisses: {len(misses)}")
    for cls, cid, key, why in sorted(misses):
        print(f"MISS {cls} {cid} [{key}] {why}")


if __name__ == "__main__":
    main()

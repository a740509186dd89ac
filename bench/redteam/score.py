"""Score a ragspine-eval report against a red-team set's frozen labels (rt11, rt12, rt13).

usage: python3 score.py REPORT.json LABELS.jsonl [--all-evidence]
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

# gate, the metric counted for a case labelled "pass", the one for a case labelled "fail"
_JUDGED_GATES = (
    ("faithfulness", "faithful answers pass", "hallucinations caught"),
    ("answer_accuracy", "answer_accuracy right passed", "answer_accuracy wrong failed"),
)


def load_labels(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def evidence(case: dict | None, gate: str) -> str:
    if case is None:
        return "    (case missing from report)"
    j = (case.get("judge") or {}).get(gate)
    if not j:
        return f"    (no judge evidence for {gate}; error={case.get('error')!r})"
    lines = []
    if "score" in j:
        lines.append(f"    score={j['score']}")
    for c in j.get("claims", []):
        bits = [c.get("verdict", "?")]
        if "score" in c:
            bits.append(f"score={c['score']}")
        if c.get("reason"):
            bits.append(c["reason"])
        lines.append(f"    - [{' | '.join(str(b) for b in bits)}] {c.get('claim')!r}")
        if c.get("matched"):
            lines.append(f"        matched: {c['matched']!r}")
    extra = {k: v for k, v in j.items() if k not in ("claims", "score")}
    if extra:
        lines.append(f"    other: {json.dumps(extra, ensure_ascii=False)[:300]}")
    return "\n".join(lines)


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__.strip())
        return 2
    report = json.loads(Path(sys.argv[1]).read_text("utf-8"))
    labels = load_labels(sys.argv[2])
    cases = {c["id"]: c for c in report["qa"]["cases"]}

    # per class: counters
    stats: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    misses: list[tuple[str, str, str, str]] = []

    def tally(keys: list[str], metric: str, ok: bool) -> None:
        for k in [*keys, "TOTAL"]:
            s = stats[k][metric]
            s[0] += ok
            s[1] += 1

    for lab in labels:
        cid, cls = lab["id"], lab["cls"]
        case = cases.get(cid)
        gates = (case or {}).get("gates", {})
        groups = [cls, f"lang={lab['lang']}"]
        for gate, if_pass, if_fail in _JUDGED_GATES:
            if lab.get(gate) is None:
                continue
            got = gates.get(gate)
            want = lab[gate] == "pass"
            ok = got is want
            tally(groups, if_pass if want else if_fail, ok)
            if not ok:
                expected = "pass" if want else "fail"
                misses.append(
                    (cid, cls, f"{gate} expected {expected}, got {got}", evidence(case, gate))
                )
        if lab.get("fabrication") is not None:
            fab = (case or {}).get("fabricated")
            n = len(fab) if isinstance(fab, list) else None
            ok = n == lab["fabrication"]
            tally(groups, "fabrication counted exactly", ok)
            if not ok:
                misses.append(
                    (
                        cid,
                        cls,
                        f"fabrication expected {lab['fabrication']}, got {n}",
                        f"    fabricated={fab!r}",
                    )
                )

    order = [
        "faithful answers pass",
        "hallucinations caught",
        "answer_accuracy right passed",
        "answer_accuracy wrong failed",
        "fabrication counted exactly",
    ]
    keys = (
        sorted(k for k in stats if k != "TOTAL" and not k.startswith("lang="))
        + sorted(k for k in stats if k.startswith("lang="))
        + ["TOTAL"]
    )
    width = max(len(k) for k in keys)
    name = Path(sys.argv[2]).resolve().parent.name
    print(f"{name} blind set: {len(labels)} labelled cases, {len(cases)} cases in report")
    missing = [lab["id"] for lab in labels if lab["id"] not in cases]
    if missing:
        print(f"MISSING from report: {len(missing)} ({', '.join(missing[:10])}...)")
    for k in keys:
        parts = []
        for m in order:
            if m in stats[k]:
                a, b = stats[k][m]
                parts.append(f"{m} {a}/{b}")
        if k == "TOTAL":
            print("-" * (width + 2))
        print(f"{k:<{width}}  " + "; ".join(parts))
    print()
    print(f"{len(misses)} misses:")
    for cid, cls, what, ev in misses:
        print(f"* {cid} [{cls}] {what}")
        print(ev)
    return 0


if __name__ == "__main__":
    sys.exit(main())

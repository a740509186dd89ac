"""Build rt14's golden/outcomes/labels from the hand-written scenarios in src/d_*.py."""

import importlib.util
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent
SCEN = []


def load():
    for p in sorted(HERE.glob("d_*.py")):
        spec = importlib.util.spec_from_file_location(p.stem, p)
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        SCEN.extend(m.SCENARIOS)


def main():
    load()
    g, o, l = [], [], []  # noqa: E741
    seen = set()
    for s in SCEN:
        for i, v in enumerate(s["variants"], 1):
            cid = f"{s['id']}-{i:02d}"
            assert cid not in seen, cid
            seen.add(cid)
            cls, acc, ans = v[0], v[1], v[2]
            extra = v[3] if len(v) > 3 else {}
            refusal = cls.startswith("refusal")
            if refusal:
                exp = {"clarification": "none", "refuse": True}
                ct = "refusal"
            else:
                exp = {"clarification": "none", "refuse": False, "narrative_doc": s["doc"]}
                ct = s.get("ct", "narrative")
                if ct == "composite":
                    exp.update(
                        value=s["value"],
                        unit=s["unit"],
                        source={"doc": s["doc"], "locator": s["loc"]},
                    )
                exp["reference_answer"] = s["ref"]
            g.append(
                {
                    "id": cid,
                    "question": s["q"],
                    "case_type": ct,
                    "expected": exp,
                    "tags": {"domain": s["domain"], "lang": s["lang"], "set": "rt14"},
                }
            )
            out = {
                "id": cid,
                "clarification": "none",
                "refused": refusal,
                "contexts": s["ctx"],
                "latency_ms": 900,
                "sources": [{"doc": s["doc"], "locator": s["loc"]}],
                "answer": ans,
            }
            if ct == "composite" and not refusal:
                out.update(
                    value=extra.get("value", s["value"]),
                    unit=s["unit"],
                    source={"doc": s["doc"], "locator": s["loc"]},
                )
            if "narrative_answer" in extra:
                out["narrative_answer"] = extra["narrative_answer"]
            o.append(out)
            if refusal:
                lab = {"faithfulness": None, "answer_accuracy": None, "fabrication": v[1]}
            else:
                assert cls.startswith(("faithful", "halluc")), cls
                assert acc in ("pass", "fail", None), (cid, acc)
                lab = {
                    "faithfulness": "pass" if cls.startswith("faithful") else "fail",
                    "answer_accuracy": acc,
                    "fabrication": None,
                }
            l.append({"id": cid, "cls": cls, "lang": s["lang"], "domain": s["domain"], **lab})
    for name, rows in (("golden", g), ("outcomes", o), ("labels", l)):
        with open(OUT / f"{name}.jsonl", "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    from collections import Counter

    c = Counter((r["cls"].split("_")[0], r["lang"]) for r in l)
    print(len(l), sorted(c.items()))
    print(Counter(r["domain"] for r in l))


if __name__ == "__main__":
    main()

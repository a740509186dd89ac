"""``ragspine-eval judge-eval``: a judge's agreement with hand labels.

On issue 14's labelled corpus (tests/data/judge_corpus.jsonl): the lexical judge's figures,
a scripted "ideal" LLM judge (a loopback server answering from the labels) through the
whole LLM path, and the agreement between the two, as docs/judges.md reports them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI, Reply, claim_of, verdict

from ragspine_action.cli import main
from ragspine_action.gates import GateSettings, LexicalJudge
from ragspine_action.gates.llm_judge import LlmJudge, LlmJudgeSettings
from ragspine_action.judge_eval import evaluate_judge, load_labelled

CORPUS = Path(__file__).resolve().parents[1] / "data" / "judge_corpus.jsonl"
RAW = [json.loads(line) for line in CORPUS.read_text("utf-8").splitlines()]
# The hallucinations the lexical judge lets pass (docs/judges.md), in id order: one list
# for every test that pins them, so a corpus change updates one place.
KNOWN_MISSES = ["s5d-13"]


def _squash(text: str) -> str:
    return " ".join(text.split())


_POLARITY = re.compile(r"并非|不是|没有|[不没未]|\bnot\b|n't", re.IGNORECASE)


def _source_key(text: str) -> str:
    """A claim or answer without negations: the extractor states a rhetorical question's
    assertion with its polarity turned ("难道集团不是…吗？" asserts "集团…"), and the script
    must still find the answer the claim came from."""
    return _squash(_POLARITY.sub("", text))


def ideal_script(body: dict[str, Any], n: int) -> Reply:
    """A judge that knows the labels: a claim is unsupported when it comes only from
    answers labelled unsupported (for answer_accuracy: when its pair is labelled so)."""
    prompt = body["messages"][-1]["content"]
    claim = _source_key(claim_of(body))
    if "Reference answer:" in prompt:
        for row in RAW:
            if (
                row["gate"] == "answer_accuracy"
                and row["reference"] in prompt
                and f"Answer under test:\n{row['answer']}\n" in prompt
            ):
                return Reply(body=verdict(row["label"] == "supported"))
        raise AssertionError("unknown answer_accuracy pair")
    squashed = _squash(prompt)
    labels = set()
    for row in RAW:
        if row["gate"] != "faithfulness" or not all(
            _squash(c) in squashed for c in row["contexts"]
        ):
            continue
        text = _source_key(row.get("narrative_answer") or row["answer"])
        if claim in text:
            labels.add(row["label"])
    return Reply(body=verdict("supported" in labels or not labels))


def _verdicts(settings: GateSettings) -> dict[str, bool | None]:
    rows, _ = load_labelled(str(CORPUS))
    figures = evaluate_judge(rows, settings)
    wrong = {d["id"]: d["verdict"] for d in figures["all"].disagreements}
    out: dict[str, bool | None] = {}
    for row in rows:
        ok = row.label == "supported"
        got = wrong.get(row.id)
        out[row.id] = None if got == "error" else (not ok if got else ok)
    return out


# Every judged row of the corpus (fabrication rows are counted, not judged).
JUDGED = sum(1 for r in RAW if r["gate"] != "fabrication")
DOCS = Path(__file__).resolve().parents[2] / "docs" / "judges.md"


def _pair(figures: dict[str, float]) -> str:
    return f"{figures['precision']:.3f} / {figures['recall']:.3f}"


def test_lexical_figures_on_the_corpus() -> None:
    rows, skipped = load_labelled(str(CORPUS))
    assert len(rows) == JUDGED and skipped == len(RAW) - JUDGED
    figures = evaluate_judge(rows, GateSettings(judge=LexicalJudge()))["all"].to_json()
    # No faithful pair fails; the hallucinations it lets pass are KNOWN_MISSES.
    assert figures["unsupported"]["precision"] == 1.0
    assert figures["confusion"]["fn"] == len(KNOWN_MISSES)
    # docs/judges.md states these very figures.
    row = (
        f"| lexical judge | {JUDGED} | {figures['accuracy']:.3f} | "
        f"{_pair(figures['unsupported'])} | {_pair(figures['supported'])} |"
    )
    docs = DOCS.read_text("utf-8")
    assert row in docs
    assert f"on {JUDGED - len(KNOWN_MISSES)} of {JUDGED} answers" in docs


def test_ideal_llm_judge_and_its_agreement_with_the_lexical_judge(tmp_path: Path) -> None:
    with FakeOpenAI(script=ideal_script) as server:
        judge = LlmJudge(
            LlmJudgeSettings(base_url=server.url, model="ideal", cache=str(tmp_path / "c.db")),
            env={},
        )
        try:
            ideal = _verdicts(GateSettings(judge=judge))
        finally:
            judge.close()
        assert judge.stats.failed_checks == 0 and judge.stats.requests > 622
    labels = {r["id"]: r["label"] == "supported" for r in RAW if r["gate"] != "fabrication"}
    assert ideal == labels  # the scripted judge is ideal through the whole LLM path
    lexical = _verdicts(GateSettings(judge=LexicalJudge()))
    agree = sum(lexical[i] == ideal[i] for i in labels)
    differ = sorted(i for i in labels if lexical[i] != ideal[i])
    print(f"\nlexical vs ideal judge: agree on {agree} of {len(labels)}; differ: {differ}")
    assert agree == JUDGED - len(KNOWN_MISSES) and differ == KNOWN_MISSES
    # every disagreement is a hallucination the lexical judge let pass
    assert all(ideal[i] is False and lexical[i] is True for i in differ)


def test_judge_eval_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    report = tmp_path / "agreement.json"
    assert main(["judge-eval", str(CORPUS), "--report", str(report)]) == 0
    out = capsys.readouterr().out
    assert f"lexical judge on {JUDGED} labelled cases" in out
    # (one known miss in ~2000 cases rounds the accuracy to 1.000)
    high = r"(?:0\.99\d|1\.000)"
    assert re.search(rf"^all +{JUDGED} +{high} +1\.000 +{high} ", out, re.MULTILINE)
    data = json.loads(report.read_text())
    assert data["judge"] == {"kind": "lexical"}
    assert {d["id"] for d in data["disagreements"]} == set(KNOWN_MISSES)

    with FakeOpenAI(script=ideal_script) as server:
        argv = ["judge-eval", str(CORPUS), "--judge", "llm", "--judge-url", server.url]
        argv += ["--judge-model", "ideal", "--report", str(report)]
        assert main(argv) == 0
        sent = server.count
    data = json.loads(report.read_text())
    assert data["figures"]["all"]["accuracy"] == 1.0
    judged = data["judge"]
    # Claims repeated across rows (same contexts) are asked once: the rest are cache hits.
    assert judged["requests"] == sent and sent + judged["cache_hits"] == judged["claims"]

    # Broken input: one line naming file, line and field; exit 2.
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x", "label": "maybe", "answer": "a", "contexts": []}\n')
    assert main(["judge-eval", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.jsonl:1" in err and "label" in err

    # A judge that only fails: exit 2, never figures passed off as the judge's.
    with FakeOpenAI(script=lambda b, n: Reply(500, {"error": "down"})) as server:
        argv = ["judge-eval", str(CORPUS), "--judge", "llm", "--judge-url", server.url]
        argv += ["--judge-model", "m", "--judge-cache", str(tmp_path / "x.db")]
        small = tmp_path / "small.jsonl"
        small.write_text("\n".join(CORPUS.read_text("utf-8").splitlines()[:2]) + "\n")
        argv[1] = str(small)
        assert main(argv) == 2
    assert "judge errors on 2 of 2" in capsys.readouterr().err


def _fenced_after(text: str, marker: str) -> str:
    """The body of the first fenced block after ``marker``."""
    start = text.index("```", text.index(marker))
    body_start = text.index("\n", start) + 1
    return text[body_start : text.index("```", body_start)]


def test_the_docs_judge_eval_example_pastes_and_prints_what_the_docs_show(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A user pastes docs/judges.md's labelled.jsonl and runs its command: every pasted
    row is one case (no object wrapped over lines), the output is the block the docs show,
    and no line of either is wider than 80 columns, so nothing wraps on a terminal."""
    docs = DOCS.read_text("utf-8")
    section = docs[docs.index("### Measuring a judge on your own labels") :]
    rows = _fenced_after(section, "complete `labelled.jsonl`")
    commands = _fenced_after(section, "rows of other gates are skipped.) Then")
    shown = _fenced_after(section, "The first prints")
    assert all(json.loads(line) for line in rows.splitlines())  # JSONL as pasted
    assert all(len(line) <= 80 for line in commands.splitlines() + shown.splitlines())
    monkeypatch.chdir(tmp_path)
    (tmp_path / "labelled.jsonl").write_text(rows, encoding="utf-8")
    first = commands.splitlines()[0].split("#")[0].split()
    assert first[:2] == ["ragspine-eval", "judge-eval"]
    capsys.readouterr()
    assert main(first[1:]) == 0
    out = capsys.readouterr().out
    assert out == shown


def test_judge_eval_lines_fit_80_columns_with_many_disagreements(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every labelled row a disagreement (labels flipped), long ids, a long path: the ids
    wrap at 80 columns and the count of the ones not listed is given."""
    deep = tmp_path / ("a-rather-long-directory-name-for-labelled-cases" * 2)
    deep.mkdir()
    cases = deep / "labelled.jsonl"
    rows = [
        {
            "id": f"customer-support-faithfulness-{i:02d}",
            "label": "unsupported",
            "answer": "Unused leave expires on 31 March.",
            "contexts": ["Unused leave expires on 31 March."],
        }
        for i in range(12)
    ]
    cases.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert main(["judge-eval", str(cases)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "judge-eval: lexical judge on 12 labelled cases"
    assert lines[1] == f"cases: {cases}"
    wrapped = lines[lines.index(next(x for x in lines if x.startswith("disagreements"))) :]
    assert all(len(line) <= 80 for line in [*lines[2:], *wrapped])
    text = " ".join(wrapped)
    assert text.startswith("disagreements (12): customer-support-faithfulness-00,")
    assert all(f"customer-support-faithfulness-{i:02d}" in text for i in range(10))
    assert "faithfulness-10" not in text and text.endswith("… (2 more)")


def test_judge_eval_without_its_cases_file_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``ragspine-eval judge-eval`` alone: one line naming the missing argument (as merge
    and render do), not a usage block."""
    assert main(["judge-eval"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip().splitlines() == [
        "ragspine-eval: error: judge-eval: the following arguments are required: CASES.jsonl"
    ]

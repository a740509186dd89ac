"""Broken inputs through the real CLI: exit 2, one located line per problem, nothing written.

Every case goes through ``cli.main`` exactly as a CI job would run it, so these tests
break if any layer (reader, model, cross-field rules, CLI error printing) regresses.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from ragspine_action import cli

DATA = Path(__file__).parent / "data"
MINI_GOLDEN = DATA / "mini_golden.jsonl"
MINI_OUTCOMES = DATA / "mini_outcomes.jsonl"

# A valid first line, then a blank line: the broken record is always on line 3, which
# also checks that blank lines still count when numbering lines.
GOOD = json.dumps({"id": "ok1", "question": "Fine?", "case_type": "clarification"})
SRC = {"doc": "D.pptx", "locator": "slide=1"}


def rec(case_id: str | None = "bad", **fields: object) -> str:
    obj: dict[str, object] = {} if case_id is None else {"id": case_id}
    obj.update(fields)
    return json.dumps(obj)


def numeric(value: object = 1.0, **extra: object) -> dict[str, object]:
    exp: dict[str, object] = {"value": value, "unit": "USD_M", "source": SRC}
    exp.update(extra)
    return exp


@dataclass(frozen=True)
class Broken:
    record: str
    field: str | None  # None: the problem is about the line, not a field
    says: str  # a fragment of the "what is wrong" part
    case_id: str | None = "bad"
    line: int | None = 3


BROKEN_GOLDEN: dict[str, Broken] = {
    "invalid JSON": Broken('{"id": "bad", "question": ', None, "invalid JSON", case_id=None),
    "missing id": Broken(
        rec(None, question="q", case_type="clarification"), "id", "required", None
    ),
    "id not a string": Broken(
        rec(None, id=7, question="q", case_type="clarification"), "id", "string", None
    ),
    "empty question": Broken(rec(question="", case_type="clarification"), "question", "1 char"),
    "blank question": Broken(rec(question="  ", case_type="clarification"), "question", "blank"),
    "missing question": Broken(rec(case_type="clarification"), "question", "required"),
    "unknown case_type": Broken(rec(question="q", case_type="numerc"), "case_type", "'numerc'"),
    "unknown clarification mode": Broken(
        rec(question="q", case_type="clarification", expected={"clarification": "ask"}),
        "expected.clarification",
        "'ask'",
    ),
    "value without unit": Broken(
        rec(question="q", case_type="clarification", expected={"value": 1, "source": SRC}),
        "expected.unit",
        "required when expected.value",
    ),
    "value without source": Broken(
        rec(question="q", case_type="clarification", expected={"value": 1, "unit": "U"}),
        "expected.source",
        "required when expected.value",
    ),
    "numeric case missing value": Broken(
        rec(question="q", case_type="numeric", expected={"unit": "U", "source": SRC}),
        "expected.value",
        "required for a numeric case",
    ),
    "composite missing narrative_doc": Broken(
        rec(question="q", case_type="composite", expected=numeric()),
        "expected.narrative_doc",
        "required for a composite case",
    ),
    "narrative without narrative_doc": Broken(
        rec(question="q", case_type="narrative"),
        "expected.narrative_doc",
        "required for a narrative case",
    ),
    "retrieval without relevant_docs": Broken(
        rec(question="q", case_type="retrieval"), "expected.relevant_docs", "required"
    ),
    "retrieval with empty relevant_docs": Broken(
        rec(question="q", case_type="retrieval", expected={"relevant_docs": []}),
        "expected.relevant_docs",
        "non-empty",
    ),
    "relevant_docs grade 0": Broken(
        rec(question="q", case_type="retrieval", expected={"relevant_docs": {"D.pptx": 0}}),
        "expected.relevant_docs.D.pptx",
        "greater than or equal to 1",
    ),
    "refusal case with refuse false": Broken(
        rec(question="q", case_type="refusal", expected={"refuse": False}),
        "expected.refuse",
        "must be true",
    ),
    "refusal case expecting a value": Broken(
        rec(question="q", case_type="refusal", expected={"refuse": True, **numeric()}),
        "expected.value",
        "refused",
    ),
    "bad reference_date (month 13)": Broken(
        rec(question="q", case_type="clarification", reference_date="2025-13-01"),
        "reference_date",
        "2025-13-01",
    ),
    "bad reference_date (words)": Broken(
        rec(question="q", case_type="clarification", reference_date="yesterday"),
        "reference_date",
        "yesterday",
    ),
    "value as string": Broken(
        rec(question="q", case_type="numeric", expected=numeric("1702")),
        "expected.value",
        "valid number",
    ),
    "value as boolean": Broken(
        rec(question="q", case_type="numeric", expected=numeric(True)),
        "expected.value",
        "valid number",
    ),
    "tags not an object": Broken(
        rec(question="q", case_type="clarification", tags=["scope"]),
        "tags",
        "valid dictionary",
    ),
    "refuse as 'yes'": Broken(
        rec(question="q", case_type="refusal", expected={"refuse": "yes"}),
        "expected.refuse",
        "boolean",
    ),
    "source without doc": Broken(
        rec(question="q", case_type="numeric", expected=numeric(source={"locator": "x"})),
        "expected.source.doc",
        "required",
    ),
    "NaN value": Broken(
        '{"id": "bad", "question": "q", "case_type": "numeric", "expected": '
        '{"value": NaN, "unit": "U", "source": {"doc": "D"}}}',
        None,
        "NaN",
        case_id=None,
    ),
    "Infinity value": Broken(
        '{"id": "bad", "question": "q", "case_type": "numeric", "expected": '
        '{"value": -Infinity, "unit": "U", "source": {"doc": "D"}}}',
        None,
        "Infinity",
        case_id=None,
    ),
    "overflowing number (1e999)": Broken(
        '{"id": "bad", "question": "q", "case_type": "numeric", "expected": '
        '{"value": 1e999, "unit": "U", "source": {"doc": "D"}}}',
        "expected.value",
        "finite",
    ),
    "duplicate key in one object": Broken(
        '{"id": "bad", "id": "b2", "question": "q", "case_type": "clarification"}',
        None,
        "duplicate key 'id'",
        case_id=None,
    ),
    "a JSON array line": Broken("[1, 2]", None, "expected a JSON object, got list", None),
    "a JSON string line": Broken('"just text"', None, "expected a JSON object, got str", None),
    "unknown field in expected (typo)": Broken(
        rec(question="q", case_type="clarification", expected={"clarifcation": "none"}),
        "expected.clarifcation",
        "unknown field",
    ),
    "misspelt top-level field": Broken(
        rec(question="q", case_type="clarification", expectd={}), "expectd", "did you mean"
    ),
    "misspelt field in expected.source": Broken(
        rec(question="q", case_type="numeric", expected=numeric(source={**SRC, "locatr": "x"})),
        "expected.source.locatr",
        "did you mean 'locator'",
    ),
}


def _run(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    golden: Path,
    outcomes: Path = MINI_OUTCOMES,
    baseline: Path | None = None,
) -> tuple[int, str]:
    base = baseline or tmp_path / "baseline.json"
    report = tmp_path / "report.json"
    argv = ["--system", "outcomes", "--mode", "mine", "--golden", str(golden)]
    argv += ["--outcomes", str(outcomes)]
    argv += ["--baseline", str(base), "--report", str(report), "--bootstrap-resamples", "0"]
    code = cli.main(argv)
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert "Traceback" not in text
    assert not report.exists(), "a report must not be written for invalid input"
    if baseline is None:
        assert not base.exists(), "a baseline must not be created from invalid input"
    return code, captured.err


def _expected_line(path: Path, b: Broken) -> str:
    parts = [f"{path}:{b.line}" if b.line is not None else str(path)]
    if b.case_id is not None:
        parts.append(f"id={b.case_id}")
    if b.field is not None:
        parts.append(b.field)
    return ": ".join(parts) + ": "


@pytest.mark.parametrize("kind", list(BROKEN_GOLDEN))
def test_broken_golden_record_is_one_located_line_and_exit_2(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = BROKEN_GOLDEN[kind]
    golden = tmp_path / "golden.jsonl"
    golden.write_text(f"{GOOD}\n\n{broken.record}\n", encoding="utf-8")
    code, err = _run(tmp_path, capsys, golden)
    assert code == 2
    lines = [ln for ln in err.splitlines() if str(golden) in ln]
    assert len(lines) == 1, err
    prefix = _expected_line(golden, broken)
    # The whole line, anchored: file:line: [id=…: ][field: ]what is wrong
    msg = lines[0].removeprefix("ragspine-eval: error: ")
    assert msg.startswith(prefix), f"{msg!r} does not start with {prefix!r}"
    assert broken.says in msg[len(prefix) :]
    if broken.case_id is None and broken.field is not None:
        assert "id=" not in msg


def test_duplicate_ids_name_both_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    golden = tmp_path / "golden.jsonl"
    dup = rec("ok1", question="Again?", case_type="clarification")
    golden.write_text(f"{GOOD}\n{rec('x', question='q', case_type='clarification')}\n{dup}\n")
    code, err = _run(tmp_path, capsys, golden)
    assert code == 2
    assert f"{golden}:3: id=ok1: id: duplicate id (first on line 1)" in err


def test_non_utf8_file_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    golden = tmp_path / "golden.jsonl"
    latin1 = rec("b", question="café", case_type="clarification").replace("\\u00e9", "é")
    golden.write_bytes(f"{GOOD}\n".encode() + latin1.encode("latin-1") + b"\n")
    code, err = _run(tmp_path, capsys, golden)
    assert code == 2
    assert f"{golden}:2: not valid UTF-8" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("content", ["", "\n  \n\t\n\n"], ids=["empty", "blank lines"])
def test_empty_golden_file(
    content: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden = tmp_path / "golden.jsonl"
    golden.write_text(content)
    code, err = _run(tmp_path, capsys, golden)
    assert code == 2
    assert f"{golden}: file is empty" in err


def test_directory_instead_of_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "golden_dir"
    folder.mkdir()
    code, err = _run(tmp_path, capsys, folder)
    assert code == 2
    assert f"{folder}: is a directory" in err


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.jsonl"
    code, err = _run(tmp_path, capsys, missing)
    assert code == 2
    assert f"{missing}: file not found" in err


def _as_json_array(path: Path, source: Path, pretty: bool) -> Path:
    rows = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines()]
    path.write_text(json.dumps(rows, indent=2 if pretty else None), encoding="utf-8")
    return path


@pytest.mark.parametrize("pretty", [False, True], ids=["one line", "indented"])
@pytest.mark.parametrize("which", ["golden", "outcomes"])
def test_a_json_array_instead_of_jsonl_says_how_to_convert_it(
    which: str, pretty: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The user exported the set as one JSON array (``json.dump(rows)``): one line that
    says so and gives the jq command, not 'expected a JSON object' or a line per bracket."""
    source = MINI_GOLDEN if which == "golden" else MINI_OUTCOMES
    array = _as_json_array(tmp_path / f"{which}.json", source, pretty)
    if which == "golden":
        code, err = _run(tmp_path, capsys, array)
    else:
        code, err = _run(tmp_path, capsys, MINI_GOLDEN, array)
    assert code == 2
    [line] = err.strip().splitlines()
    noun = "a golden set is" if which == "golden" else "outcomes are"
    assert line == (
        f"{array}: is a JSON array, but {noun} JSONL: one JSON object per line "
        f"(convert it with: jq -c '.[]' FILE > {which}.jsonl)"
    )


def test_every_problem_of_a_file_is_reported_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kinds = [
        "invalid JSON",
        "missing question",
        "unknown case_type",
        "value without unit",
        "NaN value",
        "relevant_docs grade 0",
    ]
    lines = [GOOD]
    for index, kind in enumerate(kinds):
        lines.append(BROKEN_GOLDEN[kind].record.replace('"bad"', f'"bad{index}"'))
    golden = tmp_path / "golden.jsonl"
    golden.write_text("\n".join(lines) + "\n")
    code, err = _run(tmp_path, capsys, golden)
    assert code == 2
    reported = [ln for ln in err.splitlines() if ln.startswith(f"{golden}:")]
    assert len(reported) == len(kinds), err
    # One line per broken record, in file order, each naming its own line number.
    assert [int(ln.split(":")[1]) for ln in reported] == list(range(2, 2 + len(kinds)))
    assert "id=bad1: question: is required" in reported[1]
    assert "id=bad3: expected.unit" in reported[3]


def test_one_record_with_several_problems_reports_each_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden = tmp_path / "golden.jsonl"
    bad = rec(question="", case_type="nope", tags={"a": [1]}, expected={"refuse": "yes"}, ta={})
    golden.write_text(bad + "\n")
    code, err = _run(tmp_path, capsys, golden)
    assert code == 2
    fields = {ln.split(": ")[2] for ln in err.splitlines() if ln.startswith(f"{golden}:1: id=bad")}
    # A tag value may be any JSON value (stringified); ``ta`` is ignored (no known field
    # is that close), but a record with other problems still names every one of them.
    assert fields == {"question", "case_type", "expected.refuse"}


# --- outcomes file -----------------------------------------------------------------------

BROKEN_OUTCOMES: dict[str, Broken] = {
    "bad JSON": Broken('{"id": "n1", "answer": ', None, "invalid JSON", case_id=None),
    "value as string": Broken(rec("n1", value="1702"), "value", "valid number", "n1"),
    "sources as a string": Broken(rec("n1", sources="ACME.pptx"), "sources", "valid list", "n1"),
    "sources item a number": Broken(rec("n1", sources=[1]), "sources[0]", "got 1", "n1"),
    "refused as 'yes'": Broken(rec("n1", refused="yes"), "refused", "boolean", "n1"),
    "unknown clarification": Broken(rec("n1", clarification="maybe"), "clarification", "", "n1"),
    "missing id": Broken(rec(None, answer="x"), "id", "required", None),
    "negative latency": Broken(rec("n1", latency_ms=-1), "latency_ms", "greater", "n1"),
    "NaN value": Broken('{"id": "n1", "value": NaN}', None, "NaN", case_id=None),
    "array line": Broken("[]", None, "expected a JSON object", None),
}


@pytest.mark.parametrize("kind", list(BROKEN_OUTCOMES))
def test_broken_outcomes_record(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = BROKEN_OUTCOMES[kind]
    outcomes = tmp_path / "outcomes.jsonl"
    good = MINI_OUTCOMES.read_text().splitlines()
    outcomes.write_text(f"{good[1]}\n\n{broken.record}\n")
    code, err = _run(tmp_path, capsys, MINI_GOLDEN, outcomes)
    assert code == 2
    lines = [ln for ln in err.splitlines() if str(outcomes) in ln]
    assert len(lines) == 1, err
    msg = lines[0].removeprefix("ragspine-eval: error: ")
    prefix = _expected_line(outcomes, broken)
    assert msg.startswith(prefix), f"{msg!r} does not start with {prefix!r}"
    assert broken.says in msg[len(prefix) :]


def test_duplicate_outcome_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outcomes = tmp_path / "outcomes.jsonl"
    good = MINI_OUTCOMES.read_text()
    outcomes.write_text(good + rec("c1", answer="again") + "\n")
    code, err = _run(tmp_path, capsys, MINI_GOLDEN, outcomes)
    assert code == 2
    assert f"{outcomes}:7: id=c1: id: duplicate id (first on line 3)" in err


def test_empty_outcomes_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outcomes = tmp_path / "outcomes.jsonl"
    outcomes.write_text("")
    code, err = _run(tmp_path, capsys, MINI_GOLDEN, outcomes)
    assert code == 2
    assert f"{outcomes}: file is empty" in err


# --- baseline file -----------------------------------------------------------------------

BROKEN_BASELINES: dict[str, tuple[str, str]] = {
    "not JSON": ("{nope", ":1: invalid JSON"),
    "empty file": ("", ":1: invalid JSON"),
    "a list": ("[1, 2]", ": expected a JSON object, got list"),
    "metric a word": (
        '{"tool": {"metrics": {"numeric_accuracy": "high"}, "n_cases": 6}}',
        ": tool.metrics.numeric_accuracy: ",
    ),
    "metric a numeric string": (
        '{"tool": {"metrics": {"numeric_accuracy": "0.5"}, "n_cases": 6}}',
        ": tool.metrics.numeric_accuracy: ",
    ),
    "metric a boolean": (
        '{"tool": {"metrics": {"numeric_accuracy": true}, "n_cases": 6}}',
        ": tool.metrics.numeric_accuracy: ",
    ),
    "metric negative": (
        '{"tool": {"metrics": {"numeric_accuracy": -0.1}, "n_cases": 6}}',
        ": tool.metrics.numeric_accuracy: ",
    ),
    "metric NaN": (
        '{"tool": {"metrics": {"numeric_accuracy": NaN}, "n_cases": 6}}',
        ": invalid JSON: NaN",
    ),
    "entry not an object": ('{"tool": 5}', ": tool: Input should be"),
    "n_cases missing": ('{"tool": {"metrics": {}}}', ": tool.n_cases: is required"),
    "fabrication_count a string": (
        '{"tool": {"metrics": {}, "n_cases": 6, "fabrication_count": "0"}}',
        ": tool.fabrication_count: ",
    ),
    "_history not a list": ('{"_history": {}}', ": _history: must be a list"),
}


@pytest.mark.parametrize("kind", list(BROKEN_BASELINES))
def test_broken_baseline_file(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content, says = BROKEN_BASELINES[kind]
    baseline = tmp_path / "baseline.json"
    baseline.write_text(content)
    code, err = _run(tmp_path, capsys, MINI_GOLDEN, baseline=baseline)
    assert code == 2
    assert f"{baseline}{says}" in err, err
    assert len(err.strip().splitlines()) == 1, err
    assert baseline.read_text() == content


def test_valid_inputs_control(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The harness itself: the same call with good files passes and writes both files."""
    golden = tmp_path / "golden.jsonl"
    shutil.copy(MINI_GOLDEN, golden)
    report, base = tmp_path / "report.json", tmp_path / "baseline.json"
    argv = ["--system", "outcomes", "--mode", "mine", "--golden", str(golden)]
    argv += ["--outcomes", str(MINI_OUTCOMES)]
    argv += ["--baseline", str(base), "--report", str(report), "--bootstrap-resamples", "0"]
    assert cli.main(argv) == 0
    capsys.readouterr()
    assert report.exists() and base.exists()


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--judge", "foo"], "ragspine-eval: error: argument --judge: invalid choice: 'foo'"),
        (["render"], "ragspine-eval: error: render: the following arguments are required"),
        (["merge"], "ragspine-eval: error: merge: the following arguments are required"),
        (["render", "r.json", "--format", "pdf"], "ragspine-eval: error: render: argument"),
    ],
)
def test_a_flag_error_names_the_program_once(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """argparse's errors read "ragspine-eval: error: ragspine-eval: argument --judge …"."""
    assert cli.main(argv) == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(expected), line
    assert line.count("ragspine-eval") == 1

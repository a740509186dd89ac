"""No silent green (issue 15): a new team's first-run mistakes, each through the real CLI.

Every test is a user's mistake and the message the user must see. The rule under test:
each mistake ends in one clear line with exit 2, or in a real verdict — never a PASS that
gates nothing, never a traceback, never a baseline rewritten behind the user's back.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from ragspine_action import cli
from ragspine_action.action import main as action_main
from ragspine_action.cli import build_parser, config_from_args

DATA = Path(__file__).parent / "data"
MINI_GOLDEN = DATA / "mini_golden.jsonl"
MINI_OUTCOMES = DATA / "mini_outcomes.jsonl"
N_GOLDEN = 6


def _outcome_lines() -> list[dict[str, Any]]:
    return [json.loads(line) for line in MINI_OUTCOMES.read_text(encoding="utf-8").splitlines()]


def _write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _digest(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None


class Cli:
    """Runs ``cli.main`` and keeps what a CI log would show."""

    def __init__(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.tmp = tmp_path
        self.capsys = capsys
        self.baseline = tmp_path / "baseline.json"
        self.report = tmp_path / "report.json"
        self.out = ""
        self.err = ""

    def __call__(self, *argv: str) -> int:
        self.capsys.readouterr()
        code = cli.main(["--no-config", "--bootstrap-resamples", "0", *argv])
        captured = self.capsys.readouterr()
        self.out, self.err = captured.out, captured.err
        assert "Traceback" not in self.out + self.err
        return code

    def outcomes(self, *argv: str, outcomes: Path = MINI_OUTCOMES, mode: str = "mine") -> int:
        args = ["--golden", str(MINI_GOLDEN), "--outcomes", str(outcomes)]
        if mode:
            args += ["--mode", mode]
        if "--no-baseline" not in argv:
            args += ["--baseline", str(self.baseline)]
        return self(*args, "--report", str(self.report), *argv)

    def one_error_line(self) -> str:
        # The http system's progress line ("http: 6/6 done, …") is not an error line.
        lines = [ln for ln in self.err.splitlines() if ln.strip() and not ln.startswith("http: ")]
        assert len(lines) == 1, self.err
        return lines[0]

    def report_json(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.report.read_text(encoding="utf-8"))
        return data


@pytest.fixture()
def run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path, capsys)


# --------------------------------------------------------------------------- 1. errors


def test_outcomes_of_another_golden_set_are_an_error_not_a_zero_baseline(run: Cli) -> None:
    rows = [{**r, "id": f"other-{r['id']}"} for r in _outcome_lines()]
    other = _write_jsonl(run.tmp / "other.jsonl", rows)
    assert run.outcomes(outcomes=other) == 2
    line = run.one_error_line()
    assert "0 of 6 outcome ids match the golden set: is this the right outcomes file?" in line
    assert not run.baseline.exists(), "no baseline may be created from a run of errors"
    report = run.report_json()
    assert report["verdict"] == "error" and report["exit_code"] == 2
    assert report["baseline"]["status"] == "none"


def test_the_zero_match_count_is_the_number_of_outcome_ids(run: Cli) -> None:
    rows = [{"id": f"x{i}", "answer": "a"} for i in range(13)]
    assert run.outcomes(outcomes=_write_jsonl(run.tmp / "o.jsonl", rows)) == 2
    assert "0 of 13 outcome ids match the golden set" in run.one_error_line()


def test_half_the_ids_matching_is_an_error_naming_the_missing_cases(run: Cli) -> None:
    rows = [*_outcome_lines()[:3], {"id": "stranger", "answer": "x"}]
    assert run.outcomes(outcomes=_write_jsonl(run.tmp / "half.jsonl", rows)) == 2
    line = run.one_error_line()
    assert "3 of 6 golden cases have no outcome" in line
    assert "r1" in line and "--max-error-rate" in line
    assert not run.baseline.exists()


def test_an_error_budget_makes_the_same_run_a_real_verdict(run: Cli) -> None:
    rows = _outcome_lines()[:3]
    half = _write_jsonl(run.tmp / "half.jsonl", rows)
    assert run.outcomes("--max-error-rate", "0.5", outcomes=half) == 0
    assert run.report_json()["baseline"]["status"] == "created"
    assert run.outcomes("--max-error-rate", "0.49", outcomes=half) == 2


def test_outcomes_with_error_fields_show_the_first_reasons(run: Cli) -> None:
    rows = _outcome_lines()
    rows[0] = {"id": rows[0]["id"], "error": "upstream timeout after 30 s"}
    assert run.outcomes(outcomes=_write_jsonl(run.tmp / "e.jsonl", rows)) == 2
    line = run.one_error_line()
    assert "1 of 6 cases ended in an error" in line and "upstream timeout after 30 s" in line


def test_an_error_run_never_updates_an_existing_baseline(run: Cli) -> None:
    assert run.outcomes() == 0
    before = _digest(run.baseline)
    rows = _outcome_lines()[:2]
    partial = _write_jsonl(run.tmp / "partial.jsonl", rows)
    assert run.outcomes("--update-baseline", outcomes=partial) == 2
    assert _digest(run.baseline) == before
    assert run.report_json()["verdict"] == "error"


# --------------------------------------------------------------------------- other formats


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("", "file is empty"),
        ("\n\n  \n", "file is empty"),
        ("id,answer\nn1,foo\nn2,bar\n", "looks like CSV"),
        ("id\tanswer\nn1\tfoo\n", "looks like CSV or TSV"),
        ('[{"id": "n1", "answer": "x"}]\n', "is a JSON array"),
        ('[\n  {"id": "n1", "answer": "x"},\n  {"id": "n2"}\n]\n', "is a JSON array"),
        ('{\n  "outcomes": [\n    {"id": "n1"}\n  ]\n}\n', "multi-line JSON document"),
        ("<html><body>Not found</body></html>\n", "HTML"),
        ('"n1"\n"n2"\n', "no line is a JSON object"),
        ("hello world\n", "is not JSON"),
    ],
    ids=[
        "empty",
        "blank lines",
        "csv",
        "tsv",
        "json array",
        "pretty json array",
        "pretty json object",
        "html",
        "json strings",
        "plain text",
    ],
)
def test_an_outcomes_file_of_another_format_is_one_line(run: Cli, content: str, says: str) -> None:
    path = run.tmp / "outcomes.jsonl"
    path.write_text(content, encoding="utf-8")
    assert run.outcomes(outcomes=path) == 2
    line = run.one_error_line()
    assert says in line and str(path) in line
    assert not run.baseline.exists() and not run.report.exists()


# --------------------------------------------------------------------------- 2. systems


def test_outcomes_alone_selects_the_outcomes_system(run: Cli) -> None:
    assert run.outcomes() == 0
    report = run.report_json()
    assert report["qa"]["system"] == "outcomes" and report["qa"]["n_cases"] == N_GOLDEN
    assert list(json.loads(run.baseline.read_text())) == ["_schema_version", "mine"]


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--system", "reference", "--outcomes", "o.jsonl"], "--system reference contradicts"),
        (["--system", "http", "--outcomes", "o.jsonl"], "--system http contradicts --outcomes"),
        (["--system", "reference", "--endpoint", "http://x/"], "contradicts --endpoint"),
        (["--system", "outcomes", "--endpoint", "http://x/"], "--system outcomes contradicts"),
        (["--outcomes", "o.jsonl", "--endpoint", "http://x/"], "--outcomes and --endpoint"),
        (["--qrels", "q", "--run", "r", "--outcomes", "o.jsonl"], "--outcomes and --qrels"),
        (["--qrels", "q", "--run", "r", "--golden", "g.jsonl"], "--golden and --qrels"),
        (["--system", "reference", "--qrels", "q", "--run", "r"], "contradicts --qrels"),
    ],
)
def test_contradicting_system_flags_are_exit_2(run: Cli, flags: list[str], says: str) -> None:
    assert run(*flags) == 2
    assert says in run.one_error_line()


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--outcomes", str(MINI_OUTCOMES), "--concurrency", "4"], "--concurrency: only used"),
        (["--outcomes", str(MINI_OUTCOMES), "--headers-file", "h"], "--headers-file: only used"),
        (["--timeout", "5"], "--timeout: only used by the http system"),
        (["--outcomes", str(MINI_OUTCOMES), "--kb-dir", "kb"], "--kb-dir: only used"),
        (["--facts", "f.json", "--ground-truth", "g.json"], "--facts: only used by the extr"),
        (["--extraction-abs-tol", "0.1"], "--extraction-abs-tol: only used"),
        (["--suite", "extraction", "--outcomes", "o.jsonl"], "--outcomes: only used by the qa"),
        (["--suite", "extraction", "--golden", "g.jsonl"], "--golden: only used by the qa"),
    ],
)
def test_a_flag_the_run_would_ignore_is_exit_2(run: Cli, flags: list[str], says: str) -> None:
    assert run(*flags) == 2
    assert says in run.one_error_line()


def _config(tmp_path: Path, text: str, *flags: str) -> Any:
    path = tmp_path / "ragspine-eval.yml"
    path.write_text(text, encoding="utf-8")
    return config_from_args(build_parser().parse_args(["--config", str(path), *flags]))


def test_config_file_outcomes_implies_the_outcomes_system(tmp_path: Path) -> None:
    config = _config(tmp_path, "outcomes: o.jsonl\nmode: mine\n")
    assert config.system == "outcomes" and config.outcomes == str(tmp_path / "o.jsonl")
    config = _config(tmp_path, "http:\n  endpoint: http://127.0.0.1:1/a\n")
    assert config.system == "http" and config.mode_from_default


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("system: reference\noutcomes: o.jsonl\n", "system reference contradicts"),
        ("system: outcomes\nhttp:\n  endpoint: http://x/\n", "contradicts"),
        ("outcomes: o.jsonl\nhttp:\n  endpoint: http://x/\n", "outcomes and"),
        ("system: http\noutcomes: o.jsonl\n", "system http contradicts"),
    ],
)
def test_a_contradiction_inside_the_config_file_names_the_file(
    run: Cli, text: str, says: str
) -> None:
    config = run.tmp / "ragspine-eval.yml"
    config.write_text(text, encoding="utf-8")
    run.capsys.readouterr()
    assert cli.main(["--config", str(config)]) == 2
    line = run.capsys.readouterr().err.strip()
    assert says in line and str(config) in line and len(line.splitlines()) == 1


def test_flags_choose_the_system_over_the_config_file(tmp_path: Path) -> None:
    config = _config(tmp_path, "outcomes: o.jsonl\n", "--endpoint", "http://127.0.0.1:1/a")
    assert config.system == "http" and config.outcomes is None
    config = _config(tmp_path, "system: reference\n", "--outcomes", "mine.jsonl")
    assert config.system == "outcomes" and config.outcomes == "mine.jsonl"
    config = _config(tmp_path, "outcomes: o.jsonl\n", "--system", "outcomes")
    assert config.outcomes == str(tmp_path / "o.jsonl")


def _action_env(tmp_path: Path, **inputs: str) -> dict[str, str]:
    env = {"INPUT_" + k.upper(): v for k, v in inputs.items()}
    env["GITHUB_WORKSPACE"] = str(tmp_path)
    env["INPUT_REPORT"] = str(tmp_path / "action-report.json")
    return env


def test_the_action_infers_the_system_from_its_outcomes_input(tmp_path: Path) -> None:
    import io

    out = io.StringIO()
    env = _action_env(
        tmp_path,
        outcomes=str(MINI_OUTCOMES),
        golden=str(MINI_GOLDEN),
        mode="mine",
        baseline=str(tmp_path / "b.json"),
    )
    assert action_main(env, out) == 0, out.getvalue()
    report = json.loads((tmp_path / "action-report.json").read_text())
    assert report["qa"]["system"] == "outcomes" and report["baseline"]["status"] == "created"


@pytest.mark.parametrize(
    ("inputs", "says"),
    [
        ({"system": "reference", "outcomes": "o.jsonl"}, "--system reference contradicts"),
        ({"outcomes": "o.jsonl", "endpoint": "http://x/"}, "--outcomes and --endpoint"),
        ({"outcomes": str(MINI_OUTCOMES), "baseline": "b.json"}, "needs an explicit --mode"),
    ],
)
def test_the_action_refuses_contradicting_inputs(
    tmp_path: Path, inputs: dict[str, str], says: str
) -> None:
    import io

    out = io.StringIO()
    assert action_main(_action_env(tmp_path, **inputs), out) == 2
    assert says in out.getvalue() and "Traceback" not in out.getvalue()


# --------------------------------------------------------------------------- 3. keys


def test_outcomes_without_mode_name_the_keys_the_baseline_holds(run: Cli) -> None:
    assert run.outcomes(mode="my-rag") == 0
    before = _digest(run.baseline)
    assert run.outcomes(mode="") == 2
    line = run.one_error_line()
    assert "needs an explicit --mode" in line and "holds: my-rag" in line
    assert _digest(run.baseline) == before
    assert json.loads(run.baseline.read_text()).keys() == {"_schema_version", "my-rag"}


def test_outcomes_without_mode_and_a_new_baseline_say_so(run: Cli) -> None:
    assert run.outcomes(mode="") == 2
    assert "holds no QA entry yet" in run.one_error_line()
    assert not run.baseline.exists()


def test_without_a_baseline_no_mode_is_needed(run: Cli) -> None:
    args = ["--golden", str(MINI_GOLDEN), "--outcomes", str(MINI_OUTCOMES), "--no-baseline"]
    assert run(*args) == 0


def test_a_mistyped_mode_never_adds_a_key_next_to_the_team_s(run: Cli) -> None:
    assert run.outcomes(mode="my-rag") == 0
    before = _digest(run.baseline)
    assert run.outcomes(mode="my_rag") == 2
    line = run.one_error_line()
    assert "has no entry 'my_rag'" in line and "it holds: my-rag" in line
    assert "--update-baseline" in line
    assert _digest(run.baseline) == before
    # Asked for explicitly, the new key is recorded.
    assert run.outcomes("--update-baseline", mode="second") == 0
    assert {"my-rag", "second"} <= set(json.loads(run.baseline.read_text()))


def test_the_extraction_key_is_not_a_qa_mode(run: Cli) -> None:
    assert run.outcomes(mode="extraction") == 2
    assert "extraction suite's baseline key" in run.one_error_line()


# --------------------------------------------------------------------------- 4. contract


@pytest.mark.parametrize(
    ("rows", "says"),
    [
        (
            [{"id": "n1", "response": "x", "citations": ["d"]}, {"id": "n2", "response": "y"}],
            "'response' in 2 of 2: did you mean 'answer'",
        ),
        ([{"id": "n1"}, {"id": "n2"}], "they carry nothing but an id"),
        (
            [{"id": "n1", "output": "x", "trace": 1}, {"id": "n2", "output": "y", "trace": 2}],
            "did you mean 'answer'",
        ),
        (
            [{"id": f"n{i}", "answer": "a", "citations": ["d"]} for i in (1, 2, 3)],
            "'citations' in 3 of 3: did you mean 'sources'",
        ),
        (
            [{"id": f"n{i}", "answer": "a", "context": ["c"]} for i in (1, 2)],
            "did you mean 'contexts'",
        ),
        (
            [{"id": f"n{i}", "answer": "a", "Refused": True} for i in (1, 2)],
            "did you mean 'refused'",
        ),
    ],
    ids=["response+citations", "ids only", "output", "citations", "context", "case"],
)
def test_outcomes_off_the_contract_are_refused_naming_the_keys(
    run: Cli, rows: list[dict[str, Any]], says: str
) -> None:
    assert run.outcomes(outcomes=_write_jsonl(run.tmp / "o.jsonl", rows)) == 2
    line = run.one_error_line()
    assert says in line and "outcome.schema.json" in line
    assert not run.baseline.exists()


def test_outcomes_with_known_fields_and_extra_keys_still_load(run: Cli) -> None:
    """RAGSpine's outcomes carry a route, a tool status and more: ignored, with a warning."""
    rows = [
        {**r, "route": "metric", "tool_status": "ok", "question": "q", "trace_id": str(i)}
        for i, r in enumerate(_outcome_lines())
    ]
    assert run.outcomes(outcomes=_write_jsonl(run.tmp / "ragspine.jsonl", rows)) == 0
    warnings = run.report_json()["warnings"]
    assert any("'trace_id' (6)" in w and "ignored" in w for w in warnings)


def test_a_minority_of_misnamed_keys_is_a_warning_not_an_error(run: Cli) -> None:
    rows = _outcome_lines()
    rows[0] = {**rows[0], "citations": ["x"]}
    assert run.outcomes(outcomes=_write_jsonl(run.tmp / "o.jsonl", rows)) == 0
    assert any("'citations' (1)" in w for w in run.report_json()["warnings"])


# --------------------------------------------------------------------------- http


class _Service:
    """A service on 127.0.0.1 answering every POST with ``respond(body)``."""

    def __init__(self, respond: Callable[[dict[str, Any]], tuple[int, str, bytes]]) -> None:
        self.requests = 0
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length))
                service.requests += 1
                status, media, data = respond(body)
                self.send_response(status)
                self.send_header("Content-Type", media)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/answer"


@pytest.fixture()
def serve() -> Iterator[Callable[[Callable[[dict[str, Any]], tuple[int, str, bytes]]], _Service]]:
    started: list[tuple[_Service, threading.Thread]] = []

    def start(respond: Callable[[dict[str, Any]], tuple[int, str, bytes]]) -> _Service:
        service = _Service(respond)
        thread = threading.Thread(target=service.server.serve_forever, daemon=True)
        thread.start()
        started.append((service, thread))
        return service

    yield start
    for service, thread in started:
        service.server.shutdown()
        service.server.server_close()
        thread.join(timeout=5)


def _json(status: int, obj: Any) -> tuple[int, str, bytes]:
    return status, "application/json", json.dumps(obj).encode()


def _http(run: Cli, url: str, *more: str) -> int:
    args = ["--golden", str(MINI_GOLDEN), "--endpoint", url, "--retries", "0"]
    return run(*args, "--baseline", str(run.baseline), "--report", str(run.report), *more)


GOOD_BY_ID = {r["id"]: r for r in _outcome_lines()}


@pytest.mark.parametrize(
    ("respond", "says"),
    [
        (lambda b: _json(404, {"detail": "no such route"}), "HTTP 404: Not Found: no such route"),
        (lambda b: _json(401, {"error": "bad token"}), "HTTP 401: Unauthorized: bad token"),
        (lambda b: (200, "text/html", b"<html>login</html>"), "response is not JSON (text/html)"),
        (lambda b: (500, "text/plain", b"boom"), "HTTP 500: Internal Server Error: boom"),
        (lambda b: _json(200, ["a", "list"]), "response is an array, not a JSON object"),
    ],
    ids=["404", "401", "html", "500", "array"],
)
def test_a_failing_service_is_an_error_with_its_reason_on_the_terminal(
    run: Cli, serve: Any, respond: Any, says: str
) -> None:
    service = serve(respond)
    assert _http(run, service.url, "--mode", "svc") == 2
    line = run.one_error_line()
    assert f"{N_GOLDEN} of {N_GOLDEN} cases ended in an error" in line and says in line
    assert says in run.out, "the reason is on the terminal, not only in the JSON report"
    assert not run.baseline.exists()
    assert run.report_json()["verdict"] == "error"


def test_connection_refused_is_an_error_naming_it(run: Cli, serve: Any) -> None:
    service = serve(lambda b: _json(200, {}))
    url = service.url
    service.server.shutdown()
    service.server.server_close()
    assert _http(run, url, "--mode", "svc") == 2
    assert "connection refused" in run.one_error_line()
    assert not run.baseline.exists()


@pytest.mark.parametrize(
    ("shape", "says"),
    [
        (lambda o: {"response": o.get("answer", ""), "citations": o.get("sources", [])}, "answer"),
        (lambda o: {"answer": o.get("answer", ""), "context": ["x"]}, "'contexts'"),
        (lambda o: {"result": {"text": "x"}}, "did you mean 'answer'"),
        (lambda o: {}, "nothing but an id"),
    ],
    ids=["response+citations", "context", "nested result", "empty object"],
)
def test_a_service_off_the_contract_is_refused_pointing_at_the_docs(
    run: Cli, serve: Any, shape: Any, says: str
) -> None:
    service = serve(lambda b: _json(200, shape(GOOD_BY_ID[b["id"]])))
    assert _http(run, service.url, "--mode", "svc") == 2
    line = run.one_error_line()
    assert says in line and "docs/http.md" in line
    assert not run.baseline.exists()


def test_a_service_speaking_the_contract_with_extras_passes(run: Cli, serve: Any) -> None:
    service = serve(lambda b: _json(200, {**GOOD_BY_ID[b["id"]], "trace_id": "t", "model": "m"}))
    assert _http(run, service.url, "--mode", "svc") == 0
    assert run.report_json()["baseline"]["status"] == "created"


def test_http_without_mode_stops_before_any_request(run: Cli, serve: Any) -> None:
    service = serve(lambda b: _json(200, GOOD_BY_ID[b["id"]]))
    assert _http(run, service.url) == 2
    assert "--system http needs an explicit --mode" in run.one_error_line()
    assert service.requests == 0


# --------------------------------------------------------------------------- 5. floors


def _fabricating(run: Cli) -> Path:
    rows = _outcome_lines()
    rows[3] = {**rows[3], "answer": "Not in the knowledge base, but ROE was 12.5% last year."}
    return _write_jsonl(run.tmp / "fab.jsonl", rows)


def test_fabrication_count_ceiling_fails_the_run_at_one(run: Cli) -> None:
    assert run.outcomes("--floor", "fabrication_count=0", outcomes=_fabricating(run)) == 1
    assert "Above ceiling: mine/fabrication_count 1 > 0" in run.out
    report = run.report_json()
    (check,) = report["floors"]
    assert check["ceiling"] and not check["passed"] and check["current"] == 1
    assert report["verdict"] == "fail"


def test_fabrication_count_ceiling_passes_at_zero(run: Cli) -> None:
    assert run.outcomes("--floor", "fabrication_count=0") == 0
    assert run.report_json()["floors"][0]["passed"]
    fab = _fabricating(run)
    assert run.outcomes("--no-baseline", "--floor", "fabrication_count=1", outcomes=fab) == 0
    assert run.report_json()["floors"][0] == {
        "key": "mine",
        "metric": "fabrication_count",
        "floor": 1.0,
        "current": 1.0,
        "passed": True,
        "ceiling": True,
    }


def test_errors_take_a_ceiling_inside_the_error_budget(run: Cli) -> None:
    rows = _outcome_lines()
    rows[0] = {"id": rows[0]["id"], "error": "boom"}
    bad = _write_jsonl(run.tmp / "e.jsonl", rows)
    assert run.outcomes("--max-error-rate", "0.5", "--floor", "errors=0", outcomes=bad) == 1
    assert "Above ceiling: mine/errors 1 > 0" in run.out
    assert run.outcomes("--max-error-rate", "0.5", "--floor", "errors=1", outcomes=bad) in (0, 1)
    assert run.report_json()["floors"][0]["passed"]


@pytest.mark.parametrize(
    ("floor", "says"),
    [
        ("hit@3=1.01", "--floor: hit@3=1.01 is outside 0..1"),
        ("faithfulness=-0.1", "--floor: faithfulness=-0.1 is outside 0..1"),
        ("mrr=2", "outside 0..1"),
        ("fabrication_count=-1", "a ceiling on a count must be a number ≥ 0"),
        ("errors=inf", "a ceiling on a count"),
        ("hit@3", "--floor: 'hit@3' is not METRIC=VALUE"),
        ("hit@3=high", "is not METRIC=VALUE"),
        ("=0.5", "is not METRIC=VALUE"),
        ("hit@3=nan", "is not METRIC=VALUE"),
        ("faithfulnes=0.8", "--floor: no metric of that name"),
    ],
)
def test_a_bad_floor_flag_is_a_flag_error(run: Cli, floor: str, says: str) -> None:
    # A config file is present: the flag's mistake must never be blamed on it.
    config = run.tmp / "ragspine-eval.yml"
    config.write_text("gate:\n  floors:\n    faithfulness: 0.5\n", encoding="utf-8")
    run.capsys.readouterr()
    args = ["--config", str(config), "--golden", str(MINI_GOLDEN)]
    code = cli.main([*args, "--outcomes", str(MINI_OUTCOMES), "--no-baseline", "--floor", floor])
    err = run.capsys.readouterr().err
    assert code == 2 and says in err and "ragspine-eval.yml" not in err, err
    assert len(err.strip().splitlines()) == 1


def test_a_bad_floor_in_the_config_file_names_the_file_key(run: Cli) -> None:
    config = run.tmp / "ragspine-eval.yml"
    config.write_text("gate:\n  floors:\n    hit@3: 0.5\n    ndcg@3: 1.5\n", encoding="utf-8")
    run.capsys.readouterr()
    args = ["--config", str(config), "--golden", str(MINI_GOLDEN), "--no-baseline"]
    assert cli.main([*args, "--outcomes", str(MINI_OUTCOMES)]) == 2
    err = run.capsys.readouterr().err
    assert f"{config}:4: gate.floors.ndcg@3: ndcg@3=1.5 is outside 0..1" in err


def test_a_shard_of_another_system_names_its_key_before_any_work(run: Cli) -> None:
    args = ["--golden", str(MINI_GOLDEN), "--outcomes", str(MINI_OUTCOMES), "--shard", "1/2"]
    assert run(*args, "--no-baseline", "--report", str(run.report)) == 2
    assert "a shard of --system outcomes needs an explicit --mode" in run.one_error_line()
    assert not run.report.exists()
    assert run(*args, "--no-baseline", "--mode", "mine", "--report", str(run.report)) == 0


def test_merged_shards_of_errors_are_an_error_not_a_baseline(run: Cli) -> None:
    rows = _outcome_lines()[:4]
    partial = _write_jsonl(run.tmp / "partial.jsonl", rows)
    parts = []
    for i in (1, 2):
        part = run.tmp / f"part{i}.json"
        args = ["--golden", str(MINI_GOLDEN), "--outcomes", str(partial), "--mode", "mine"]
        assert run(*args, "--no-baseline", "--shard", f"{i}/2", "--report", str(part)) in (0, 2)
        parts.append(str(part))
    run.capsys.readouterr()
    code = cli.main(["merge", *parts, "--baseline", str(run.baseline), "--report", str(run.report)])
    err = run.capsys.readouterr().err
    assert code == 2 and "2 of 6 golden cases have no outcome" in err
    assert not run.baseline.exists()
    assert run.report_json()["verdict"] == "error"


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--baseline", ""], "--baseline: the value is empty (use --no-baseline"),
        (["--outcomes", " "], "--outcomes: the value is empty"),
        (["--report", ""], "--report: the value is empty"),
        (["--golden", ""], "--golden: the value is empty"),
        (["--qrels", "q", "--run", ""], "--run: the value is empty"),
        (["--no-baseline", "--baseline", "b.json"], "--no-baseline and --baseline"),
        (["--suite", "extraction", "--mode", "my-rag"], "--mode: only used by the qa suite"),
    ],
)
def test_an_empty_or_contradicting_value_is_never_read_as_none(
    run: Cli, flags: list[str], says: str
) -> None:
    assert run(*flags) == 2
    assert says in run.one_error_line()


def test_an_alias_next_to_the_field_it_stands_for_is_only_a_warning(run: Cli) -> None:
    """``citations`` beside ``sources`` loses nothing: the contract's field is read."""
    rows = [{**r, "citations": ["x"], "context": "c"} for r in _outcome_lines()]
    rows = [{**r, "contexts": r.get("contexts", [])} for r in rows]
    rows = [{**r, "sources": r.get("sources", [])} for r in rows]
    assert run.outcomes(outcomes=_write_jsonl(run.tmp / "both.jsonl", rows)) == 0
    assert any("'citations' (6)" in w for w in run.report_json()["warnings"])


def test_ragspine_names_count_as_the_fields_they_stand_for(run: Cli) -> None:
    rows = [
        {
            "case_id": r["id"],
            "found_value": r.get("value"),
            "retrieved_context": ["x"],
            "context": "y",
        }
        for r in _outcome_lines()
    ]
    assert run.outcomes(outcomes=_write_jsonl(run.tmp / "rs.jsonl", rows)) in (0, 1)


def test_the_error_budget_is_a_top_level_config_key(run: Cli) -> None:
    config = run.tmp / "ragspine-eval.yml"
    half = _write_jsonl(run.tmp / "half.jsonl", _outcome_lines()[:3])
    config.write_text(f"max_error_rate: 0.5\noutcomes: {half}\nmode: mine\n", encoding="utf-8")
    run.capsys.readouterr()
    args = ["--config", str(config), "--golden", str(MINI_GOLDEN), "--no-baseline"]
    assert cli.main(args) == 0  # the 3 missing outcomes are errors within the budget, not failures
    config.write_text("max_error_rate: 0.5\nhttp:\n  max_error_rate: 0.2\n", encoding="utf-8")
    assert cli.main(["--config", str(config)]) == 2
    assert "the same setting twice" in run.capsys.readouterr().err


def test_a_golden_flag_keeps_the_config_file_s_outcomes(tmp_path: Path) -> None:
    config = _config(tmp_path, "outcomes: o.jsonl\nmode: m\n", "--golden", "g.jsonl")
    assert config.system == "outcomes" and config.outcomes == str(tmp_path / "o.jsonl")
    assert config.golden == "g.jsonl"


def test_a_forgotten_outcomes_flag_never_adds_tool_to_the_team_s_baseline(run: Cli) -> None:
    """The team's baseline holds my-rag; a run without --outcomes is the reference system."""
    assert run.outcomes(mode="my-rag") == 0
    before = _digest(run.baseline)
    code = run("--golden", str(MINI_GOLDEN), "--baseline", str(run.baseline))
    assert code == 2
    line = run.one_error_line()
    assert "has no entry 'tool'" in line and "it holds: my-rag" in line
    assert _digest(run.baseline) == before


def test_the_reference_system_adds_its_second_mode_freely(run: Cli) -> None:
    assert run("--baseline", str(run.baseline), "--mode", "tool") == 0
    assert run("--baseline", str(run.baseline), "--mode", "agent") == 0
    assert {"tool", "agent"} <= set(json.loads(run.baseline.read_text()))


# ------------------------------------------------- no baseline: the golden set is the floor


def _wrong_value(run: Cli) -> Path:
    rows = _outcome_lines()
    rows[0] = {**rows[0], "value": 1700.0, "answer": rows[0]["answer"].replace("1,702", "1,700")}
    return _write_jsonl(run.tmp / "wrong.jsonl", rows)


@pytest.mark.parametrize("how", [["--no-baseline"], []], ids=["--no-baseline", "no flag"])
def test_a_failing_case_with_no_baseline_fails_the_run(run: Cli, how: list[str]) -> None:
    """A team's own golden set run with no baseline used to print "PASS · baseline none"
    beside its failing cases: nothing gated it. With nothing to compare, every case must pass."""
    args = ["--golden", str(MINI_GOLDEN), "--outcomes", str(_wrong_value(run)), "--mode", "mine"]
    assert run(*args, "--report", str(run.report), *how) == 1
    assert "Failed (no baseline: every case must pass): mine/numeric_accuracy 50.0% passed" in (
        run.out
    )
    assert "--baseline FILE --update-baseline" in run.out  # what to do instead
    summary = run.out.strip().splitlines()[-1]
    assert summary.startswith("ragspine-eval: FAIL")
    assert "no baseline, so every case must pass: numeric_accuracy 50.0%" in summary
    report = run.report_json()
    assert report["verdict"] == "fail" and report["baseline"]["status"] == "none"
    failed = [f for f in report["floors"] if not f["passed"]]
    assert failed == [
        {
            "key": "mine",
            "metric": "numeric_accuracy",
            "floor": 1.0,
            "current": 0.5,
            "passed": False,
            "ceiling": False,
            "implicit": True,
        }
    ]
    assert not run.baseline.exists()


def test_every_case_passing_with_no_baseline_is_a_pass_that_gated_every_gate(run: Cli) -> None:
    assert run.outcomes("--no-baseline") == 0
    report = run.report_json()
    gated = {f["metric"] for f in report["floors"] if f["implicit"] and f["passed"]}
    assert {"numeric_accuracy", "citation_validity", "fabrication_count", "hit@3"} <= gated
    assert "every case must pass" in report["baseline"]["message"]


def test_a_fabricated_amount_with_no_baseline_fails_the_run(run: Cli) -> None:
    assert run.outcomes("--no-baseline", outcomes=_fabricating(run)) == 1
    assert "Failed (no baseline: every case must pass): mine/fabrication_count 1 fabricated" in (
        run.out
    )


def test_configured_floors_replace_the_golden_set_as_the_floor(run: Cli) -> None:
    """A team that sets floors says what level is enough: one wrong case of two is
    above a 0.5 floor, so the run passes on that floor alone."""
    wrong = _wrong_value(run)
    assert run.outcomes("--no-baseline", "--floor", "numeric_accuracy=0.5", outcomes=wrong) == 0
    assert not any(f.get("implicit") for f in run.report_json()["floors"])
    assert run.outcomes("--no-baseline", "--floor", "numeric_accuracy=0.6", outcomes=wrong) == 1


def test_gate_metrics_limit_what_must_pass_with_no_baseline(run: Cli) -> None:
    config = run.tmp / "ragspine-eval.yml"
    config.write_text("gate:\n  metrics: [citation_validity]\n", encoding="utf-8")
    wrong = _wrong_value(run)
    args = ["--golden", str(MINI_GOLDEN), "--outcomes", str(wrong), "--mode", "mine"]
    code = cli.main(["--config", str(config), *args, "--no-baseline", "--report", str(run.report)])
    assert code == 0
    metrics = {f["metric"] for f in run.report_json()["floors"]}
    assert metrics == {"citation_validity", "fabrication_count"}  # fabrication always gates


def test_a_recorded_baseline_then_gates_on_the_recorded_level(run: Cli) -> None:
    """The way out the message names: record the imperfect level once, then ratchet."""
    wrong = _wrong_value(run)
    assert run.outcomes("--update-baseline", outcomes=wrong) == 0
    assert run.outcomes(outcomes=wrong) == 0
    assert run.report_json()["floors"] == []
    assert run.outcomes() == 0  # fixed: an improvement

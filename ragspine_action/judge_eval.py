"""``ragspine-eval judge-eval CASES.jsonl``: how well a judge agrees with a team's labels.

Each line of the labelled file is one answer a person has judged (the format of
``tests/data/judge_corpus.jsonl``)::

    {"id": "en-01", "gate": "faithfulness", "label": "supported" | "unsupported",
     "answer": "…", "contexts": ["…"], "question": "…", "sources": ["doc.pdf"]}
    {"id": "aa-01", "gate": "answer_accuracy", "label": "…", "answer": "…", "reference": "…"}

(``gate`` defaults to faithfulness; ``value``/``unit`` make a composite answer, whose value
clause is exempt; ``narrative_answer`` is judged instead of ``answer``; rows of any other
gate, e.g. fabrication, are skipped). Every row runs through the same gate code a run
uses, with the chosen judge (``--judge lexical`` or ``--judge llm …``), and the verdicts are
compared with the labels: accuracy, and precision/recall for both sides — "unsupported"
(the judge catches a hallucination) and "supported" (it passes a faithful answer).

Exit 0 with the figures; 2 for bad input or configuration, or when judge errors exceed
judge.max_error_rate (the figures would not be the judge's).
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .config import RunConfig, validate_config
from .config_file import FILE_KEYS, file_origin, load_config_file, overrides_from_file
from .errors import EXIT_ERROR, InputError, RagspineError, format_error
from .gates import Gate, GateSettings, make_judge
from .gates.answer_accuracy import AnswerAccuracy
from .gates.faithfulness import Faithfulness
from .gates.judge import JUDGE_KINDS, Judge
from .golden.models import GoldenCase
from .jsonio import atomic_write_text, read_text_file
from .outcomes.model import Outcome
from .safe_text import print_safe

__all__ = ["Agreement", "LabelledRow", "evaluate_judge", "load_labelled", "main"]

GATES = ("faithfulness", "answer_accuracy")
LABELS = ("supported", "unsupported")


@dataclass(frozen=True)
class LabelledRow:
    id: str
    gate: str
    label: str
    case: GoldenCase
    outcome: Outcome


@dataclass
class Agreement:
    """Counts of (label, verdict); 'positive' is a hallucination (label unsupported)."""

    tp: int = 0  # unsupported, judge says unsupported
    fp: int = 0  # supported, judge says unsupported
    fn: int = 0  # unsupported, judge says supported
    tn: int = 0  # supported, judge says supported
    errors: int = 0  # no verdict (judge error)
    disagreements: list[dict[str, str]] = field(default_factory=list)

    def add(self, row: LabelledRow, passed: bool | None) -> None:
        if passed is None:
            self.errors += 1
            self.disagreements.append({"id": row.id, "label": row.label, "verdict": "error"})
            return
        unsupported = row.label == "unsupported"
        if unsupported and not passed:
            self.tp += 1
        elif unsupported:
            self.fn += 1
        elif not passed:
            self.fp += 1
        else:
            self.tn += 1
        if unsupported == passed:
            verdict = "supported" if passed else "unsupported"
            self.disagreements.append({"id": row.id, "label": row.label, "verdict": verdict})

    @property
    def n(self) -> int:
        return self.tp + self.fp + self.fn + self.tn

    def to_json(self) -> dict[str, Any]:
        def share(a: int, b: int) -> float | None:
            return round(a / b, 4) if b else None

        return {
            "n": self.n,
            "errors": self.errors,
            "accuracy": share(self.tp + self.tn, self.n),
            "unsupported": {
                "precision": share(self.tp, self.tp + self.fp),
                "recall": share(self.tp, self.tp + self.fn),
            },
            "supported": {
                "precision": share(self.tn, self.tn + self.fn),
                "recall": share(self.tn, self.tn + self.fp),
            },
            "confusion": {"tp": self.tp, "fp": self.fp, "fn": self.fn, "tn": self.tn},
        }


def _row(obj: Any, where: str) -> LabelledRow | None:
    if not isinstance(obj, dict):
        raise InputError.single(where, "expected a JSON object")
    gate = obj.get("gate", "faithfulness")
    if gate not in GATES:
        return None  # fabrication rows and the like: not a judge's verdict
    row_id = obj.get("id")
    if not isinstance(row_id, str) or not row_id:
        raise InputError.single(where, "id: a non-empty string is required", field="id")
    label = obj.get("label")
    if label not in LABELS:
        raise InputError.single(
            where, f"label: {label!r} is not supported or unsupported", field="label"
        )
    answer = obj.get("answer")
    if not isinstance(answer, str):
        raise InputError.single(where, "answer: a string is required", field="answer")
    try:
        if gate == "faithfulness":
            contexts = obj.get("contexts")
            if not isinstance(contexts, list) or not all(isinstance(c, str) for c in contexts):
                raise InputError.single(
                    where, "contexts: a list of strings is required", field="contexts"
                )
            sources = obj.get("sources") or ["doc"]
            composite = obj.get("value") is not None
            expected: dict[str, Any] = {"narrative_doc": sources[-1]}
            if composite:
                expected |= {
                    "value": obj["value"],
                    "unit": obj.get("unit"),
                    "source": {"doc": sources[0], "locator": "-"},
                }
            case = GoldenCase.model_validate(
                {
                    "id": row_id,
                    "question": obj.get("question") or "?",
                    "case_type": "composite" if composite else "narrative",
                    "expected": expected,
                }
            )
            outcome = Outcome.model_validate(
                {
                    "id": row_id,
                    "answer": answer,
                    "narrative_answer": obj.get("narrative_answer"),
                    "value": obj.get("value"),
                    "unit": obj.get("unit"),
                    "sources": sources,
                    "contexts": contexts,
                }
            )
        else:
            reference = obj.get("reference")
            if not isinstance(reference, str) or not reference.strip():
                raise InputError.single(
                    where, "reference: a non-empty string is required", field="reference"
                )
            case = GoldenCase.model_validate(
                {
                    "id": row_id,
                    "question": obj.get("question") or "?",
                    "case_type": "narrative",
                    "expected": {"narrative_doc": "doc", "reference_answer": reference},
                }
            )
            outcome = Outcome.model_validate({"id": row_id, "answer": answer})
    except InputError:
        raise
    except Exception as exc:  # pydantic's ValidationError: one line, no traceback
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise InputError.single(where, f"not a valid labelled case: {message}") from None
    return LabelledRow(row_id, gate, label, case, outcome)


def load_labelled(path: str) -> tuple[list[LabelledRow], int]:
    """The labelled rows of ``path`` and how many lines were skipped (other gates)."""
    text = read_text_file(path, max_bytes=256 * 1024 * 1024)
    rows: list[LabelledRow] = []
    skipped = 0
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            obj = json.loads(line)
        except ValueError as exc:
            raise InputError.single(f"{path}", f"invalid JSON: {exc}", line=number) from None
        row = _row(obj, where)
        if row is None:
            skipped += 1
            continue
        if row.id in seen:
            raise InputError.single(where, f"id {row.id!r} appears twice", field="id")
        seen.add(row.id)
        rows.append(row)
    if not rows:
        raise InputError.single(path, "no labelled faithfulness or answer_accuracy case")
    return rows, skipped


def evaluate_judge(rows: Sequence[LabelledRow], settings: GateSettings) -> dict[str, Agreement]:
    """Agreement per gate and overall (``all``) of ``settings.judge`` with the labels."""
    gates: dict[str, Gate] = {"faithfulness": Faithfulness(), "answer_accuracy": AnswerAccuracy()}
    out = {"all": Agreement(), **{g: Agreement() for g in GATES}}
    for row in rows:
        check = gates[row.gate].check(row.case, row.outcome, settings)
        error = isinstance(check.actual, dict) and "judge_error" in check.actual
        passed = None if error else check.passed
        out[row.gate].add(row, passed)
        out["all"].add(row, passed)
    return out


def _parser() -> argparse.ArgumentParser:
    from .cli import _Parser  # a usage error is one line and exit 2, like merge and render

    p = _Parser(
        prog="ragspine-eval judge-eval",
        description="Agreement of a judge with hand labels (precision, recall, accuracy).",
    )
    p.add_argument(
        "cases",
        metavar="CASES.jsonl",
        help="labelled cases JSONL (id, gate, label, answer, contexts|reference)",
    )
    p.add_argument("--config", help="settings file: its judge section is used")
    p.add_argument("--judge", choices=JUDGE_KINDS, help="lexical (default) or llm")
    p.add_argument("--judge-url", help="--judge llm: OpenAI-compatible base URL")
    p.add_argument("--judge-model", help="--judge llm: model name")
    p.add_argument("--judge-cache", help="--judge llm: SQLite verdict cache")
    p.add_argument("--judge-cache-only", action="store_true", default=None)
    p.add_argument("--faithfulness-threshold", type=float)
    p.add_argument("--answer-accuracy-threshold", type=float)
    p.add_argument("--report", help="write the figures and disagreements as JSON here")
    return p


_JUDGE_FIELDS = (
    "judge",
    "judge_url",
    "judge_model",
    "judge_cache",
    "judge_cache_only",
    "judge_api_key_env",
    "judge_concurrency",
    "judge_timeout_s",
    "judge_retries",
    "judge_max_error_rate",
    "judge_veto",
    "faithfulness_threshold",
    "answer_accuracy_threshold",
    "meta_patterns",
)


def _config(args: argparse.Namespace) -> RunConfig:
    settings: dict[str, Any] = {}
    origins: dict[str, str] = {}
    if args.config:
        loaded = load_config_file(args.config)
        found = overrides_from_file(loaded, args.config)
        for name in _JUDGE_FIELDS:
            if name in found:
                settings[name] = found[name]
                origins[name] = file_origin(loaded, args.config, FILE_KEYS.get(name, name))
    for name in _JUDGE_FIELDS:
        value = getattr(args, name, None)
        if value is not None:
            settings[name] = value
            origins[name] = "--" + name.replace("_", "-")
    return validate_config(replace(RunConfig(), **settings, origins=origins))


def _table(figures: dict[str, Agreement]) -> str:
    lines = [
        f"{'gate':<16} {'n':>4} {'acc':>6} {'unsup P':>8} {'unsup R':>8} {'sup P':>6} "
        f"{'sup R':>6} {'errors':>6}"
    ]

    def fmt(value: float | None) -> str:
        return "-" if value is None else f"{value:.3f}"

    for name, agreement in figures.items():
        j = agreement.to_json()
        lines.append(
            f"{name:<16} {j['n']:>4} {fmt(j['accuracy']):>6} "
            f"{fmt(j['unsupported']['precision']):>8} {fmt(j['unsupported']['recall']):>8} "
            f"{fmt(j['supported']['precision']):>6} {fmt(j['supported']['recall']):>6} "
            f"{j['errors']:>6}"
        )
    return "\n".join(lines)


def _disagreements(rows: list[dict[str, str]], shown: int = 10) -> str:
    """``disagreements (n): a, b, …`` wrapped at 80 columns (ids are never broken)."""
    ids = ", ".join(d["id"] for d in rows[:shown])
    more = f", … ({len(rows) - shown} more)" if len(rows) > shown else ""
    return textwrap.fill(
        f"disagreements ({len(rows)}): {ids}{more}",
        width=80,
        subsequent_indent="  ",
        break_long_words=False,
        break_on_hyphens=False,
    )


def run_judge_eval(argv: Sequence[str]) -> int:
    args = _parser().parse_args(list(argv))
    config = _config(args)
    rows, skipped = load_labelled(args.cases)
    from .run import judge_section, llm_judge_settings

    judge: Judge = make_judge(
        config.judge, threshold=config.faithfulness_threshold, llm=llm_judge_settings(config)
    )
    settings = GateSettings(
        judge=judge,
        answer_accuracy_threshold=config.answer_accuracy_threshold,
        meta_patterns=config.meta_patterns,
    )
    try:
        figures = evaluate_judge(rows, settings)
    finally:
        close = getattr(judge, "close", None)
        if close is not None:
            close()
    overall = figures["all"]
    report = {
        "cases": args.cases,
        "judge": judge_section(judge),
        "skipped": skipped,
        "figures": {name: a.to_json() for name, a in figures.items()},
        "disagreements": overall.disagreements,
    }
    if args.report:
        atomic_write_text(args.report, json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    identity = report["judge"]
    shown = " ".join(str(identity[k]) for k in ("kind", "model") if k in identity)
    # Every line fits 80 columns (the path on its own line): a terminal or a doc never
    # wraps a row of the table, so the output can be pasted as it is.
    print_safe(f"judge-eval: {shown} judge on {len(rows)} labelled cases", sys.stdout)
    print_safe(f"cases: {args.cases}", sys.stdout)
    print_safe(_table(figures), sys.stdout)
    if overall.disagreements:
        print_safe(_disagreements(overall.disagreements), sys.stdout)
    total = overall.n + overall.errors
    if overall.errors and overall.errors / total > config.judge_max_error_rate:
        print_safe(
            f"ragspine-eval judge-eval: error: judge errors on {overall.errors} of {total} cases "
            f"(> judge.max_error_rate {config.judge_max_error_rate:.1%}): the figures are not "
            "the judge's",
            sys.stderr,
        )
        return EXIT_ERROR
    return 0


def main(argv: Sequence[str]) -> int:
    try:
        return run_judge_eval(argv)
    except RagspineError as exc:
        print_safe(format_error(exc), sys.stderr)
        return exc.exit_code
    except SystemExit as exc:  # argparse: usage error (2) or --help (0)
        return int(exc.code or 0)

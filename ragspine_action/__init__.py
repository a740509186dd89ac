"""ragspine-eval: a CI quality gate for RAG systems against a version-controlled golden set.

The Python API uses RAGSpine's names and the CLI's own code path (see ``api.py``)::

    from ragspine_action import run_qa_eval
    report = run_qa_eval(mode="tool")
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("ragspine-eval")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+source"

from . import extraction
from .api import (
    BaselineComparison,
    CaseOutcome,
    EntailmentJudge,
    GateMetric,
    GoldenCase,
    QAEvalReport,
    compare_to_baseline,
    detect_fabricated_numbers,
    evaluate,
    load_golden_set,
    make_baseline_entry,
    make_entailment_judge,
    run_qa_eval,
)
from .extraction import ChannelMetric, EvalReport, run_eval

__all__ = [
    "BaselineComparison",
    "CaseOutcome",
    "ChannelMetric",
    "EntailmentJudge",
    "EvalReport",
    "GateMetric",
    "GoldenCase",
    "QAEvalReport",
    "__version__",
    "compare_to_baseline",
    "detect_fabricated_numbers",
    "evaluate",
    "extraction",
    "load_golden_set",
    "make_baseline_entry",
    "make_entailment_judge",
    "run_eval",
    "run_qa_eval",
]

"""ragspine-eval: a CI quality gate for RAG systems against a version-controlled golden set.

The Python API uses RAGSpine's names and the CLI's own code path (see ``api.py``)::

    from ragspine_action import run_qa_eval
    report = run_qa_eval(mode="tool")
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .version import VERSION as __version__

if TYPE_CHECKING:
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

# Imported on first use (PEP 562): the CLI and the action start without the Python API
# (``--help`` and the bundled run would otherwise load every module of the package).
_LAZY: dict[str, str] = {
    "extraction": ".extraction",
    "ChannelMetric": ".extraction",
    "EvalReport": ".extraction",
    "run_eval": ".extraction",
    **dict.fromkeys(
        (
            "BaselineComparison",
            "CaseOutcome",
            "EntailmentJudge",
            "GateMetric",
            "GoldenCase",
            "QAEvalReport",
            "compare_to_baseline",
            "detect_fabricated_numbers",
            "evaluate",
            "load_golden_set",
            "make_baseline_entry",
            "make_entailment_judge",
            "run_qa_eval",
        ),
        ".api",
    ),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module = import_module(_LAZY[name], __name__)
        value: Any = module if name == "extraction" else getattr(module, name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


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

"""The bundled reference RAG system over the fictional ACME knowledge base (SPEC §3)."""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .intent import Intent, Period, PeriodMention, parse_intent
from .kb import DEFAULT_DATA_DIR, KnowledgeBase, build_kb
from .system import MODES, ReferenceSystem
from .tool_mode import answer_question

if TYPE_CHECKING:
    from .agent import AgentRun, FinalAnswer, Orchestrator, Provider, ToolCall, ToolResult
    from .planner import ScriptedProvider

# Agent mode's modules, imported on first use (PEP 562): tool mode, the default, never
# loads the orchestrator and the planner.
_LAZY = {
    **dict.fromkeys(
        ("AgentRun", "FinalAnswer", "Orchestrator", "Provider", "ToolCall", "ToolResult"), ".agent"
    ),
    "ScriptedProvider": ".planner",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "DEFAULT_DATA_DIR",
    "MODES",
    "AgentRun",
    "FinalAnswer",
    "Intent",
    "KnowledgeBase",
    "Orchestrator",
    "Period",
    "PeriodMention",
    "Provider",
    "ReferenceSystem",
    "ScriptedProvider",
    "ToolCall",
    "ToolResult",
    "answer_question",
    "build_kb",
    "parse_intent",
]

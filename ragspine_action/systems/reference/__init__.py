"""The bundled reference RAG system over the fictional ACME knowledge base (SPEC §3)."""

from .agent import (
    AgentRun,
    FinalAnswer,
    Orchestrator,
    Provider,
    ToolCall,
    ToolResult,
)
from .intent import Intent, Period, PeriodMention, parse_intent
from .kb import DEFAULT_DATA_DIR, KnowledgeBase, build_kb
from .planner import ScriptedProvider
from .system import MODES, ReferenceSystem
from .tool_mode import answer_question

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

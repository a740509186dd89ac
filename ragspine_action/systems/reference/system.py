"""``ReferenceSystem``: the bundled ACME RAG system as a system under test."""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from ...golden.models import GoldenCase
from ...outcomes.model import Outcome
from ..base import Collection, PerCaseSystem
from .kb import DEFAULT_DATA_DIR, KnowledgeBase, build_kb, memory_kb
from .tool_mode import answer_question

if TYPE_CHECKING:
    from .agent import Orchestrator

__all__ = ["MODES", "ReferenceSystem"]

Mode = Literal["tool", "agent"]
MODES: tuple[Mode, ...] = ("tool", "agent")


class ReferenceSystem(PerCaseSystem):
    """Answers a case from its question and reference date only, never from ``expected``.

    The KB is built once per instance: in ``kb_dir`` when given (reused when its data is
    unchanged), else in memory (no file to write, sync and delete on every run).
    """

    name = "reference"

    def __init__(
        self,
        mode: Mode = "tool",
        kb_dir: str | None = None,
        data_dir: str | Path | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        self.mode: Mode = mode
        data = data_dir or DEFAULT_DATA_DIR
        if kb_dir is None:
            self.kb = KnowledgeBase(memory_kb(data))
        else:
            self.kb = KnowledgeBase(build_kb(data, kb_dir))
        weakref.finalize(self, self.kb.close)
        self._orchestrator: Orchestrator | None = None

        self.tool_calls: Counter[str] = Counter()
        self.rule_violations = 0

    @property
    def orchestrator(self) -> Orchestrator:
        """Agent mode's orchestrator, built (and its modules imported) on first use."""
        if self._orchestrator is None:
            from .agent import Orchestrator
            from .planner import ScriptedProvider

            self._orchestrator = Orchestrator(self.kb, ScriptedProvider())
        return self._orchestrator

    def answer(self, case: GoldenCase) -> Outcome:
        if self.mode == "agent":
            run = self.orchestrator.run_traced(case.question, case.reference_date)
            self.tool_calls.update(r.call.name for r in run.transcript)
            self.rule_violations += bool(run.violations)
            result = run.answer
        else:
            result = answer_question(self.kb, case.question, case.reference_date, self.tool_calls)
        return result.to_outcome(case.id)

    def collect(self, cases: Sequence[GoldenCase]) -> Collection:
        """The outcomes, and in the report's ``system_stats`` the tool calls this mode made
        (agent mode: also how many answers broke a hard rule and fell back to the tools)."""
        self.tool_calls = Counter()
        self.rule_violations = 0
        collection = super().collect(cases)
        stats: dict[str, object] = {
            "mode": self.mode,
            "tool_calls": dict(sorted(self.tool_calls.items())),
        }
        if self.mode == "agent":
            stats["rule_violations"] = self.rule_violations
        collection.stats = {**collection.stats, **stats}
        return collection

"""CPU per applicable case of each gate's check, in one process: ``python bench/gate_cost.py [N]``.

Runs with whichever ``ragspine_action`` is importable (``PYTHONPATH=<tree>`` to measure
another tree). Loads ``bench/synth.py``'s N-case set (default 10,000), then times each
gate's ``check`` over the cases it applies to: best of 3 passes, each with the judges'
caches emptied (every text new, as in the synthetic set), cyclic GC off as in a run.
"""

from __future__ import annotations

import gc
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import synth  # noqa: E402

from ragspine_action.gates import gates_for  # noqa: E402
from ragspine_action.golden.load import load_golden_set  # noqa: E402
from ragspine_action.qa import QASettings  # noqa: E402
from ragspine_action.systems.outcomes_file import OutcomesFileSystem  # noqa: E402


def _empty_caches() -> None:
    modules = [m for name, m in sys.modules.items() if name.startswith("ragspine_action.gates")]
    for module in modules:
        for value in list(vars(module).values()):
            if hasattr(value, "cache_clear"):
                value.cache_clear()
        for name in ("_VERDICTS", "_PIECES", "_HIT_PIECES"):
            cache = getattr(module, name, None)
            if isinstance(cache, (dict, list, set)):
                cache.clear()


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    golden_path, outcomes_path = synth.write_qa(HERE / ".data", n)
    golden = load_golden_set(golden_path)
    outcomes = OutcomesFileSystem(str(outcomes_path)).collect(golden.cases).outcomes
    pairs = [
        (case, outcomes[case.id])
        for case in golden.cases
        if case.id in outcomes and outcomes[case.id].error is None
    ]
    settings = QASettings().gates
    gc.disable()
    for gate in gates_for(settings):
        todo = [(case, outcome) for case, outcome in pairs if gate.applies(case)]
        best = float("inf")
        for _ in range(3):
            _empty_caches()
            started = time.process_time()
            for case, outcome in todo:
                gate.check(case, outcome, settings)
            best = min(best, time.process_time() - started)
        print(
            f"{gate.name:30s} {len(todo):7d} cases {best / max(1, len(todo)) * 1e6:7.1f} µs a case"
            f"  ({best * 1e6 / len(pairs):5.1f} µs per case of the set)"
        )


if __name__ == "__main__":
    main()

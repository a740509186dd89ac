"""The judges' evidence held per case costs what its bytes say (issue 25: 1M cases < 2 GB).

orjson's ``dumps`` result keeps its growth buffer allocated: a 0.9 KB evidence held ~4 KB,
which made a million-case run's workers grow by 1.4 GB. tracemalloc counts allocated sizes.
"""

from __future__ import annotations

import tracemalloc

import orjson

from ragspine_action.report.cases import CaseTableBuilder


def _evidence(i: int) -> dict[str, object]:
    claim = {"text": f"claim {i} " + "word " * 20, "verdict": "supported", "score": 0.93}
    return {"faithfulness": {"claims": [claim, claim, claim], "score": 1.0}}


def test_held_evidence_is_not_over_allocated() -> None:
    builder = CaseTableBuilder(("faithfulness",), ["hit@1"])
    n = 2000
    encoded = sum(len(orjson.dumps(_evidence(i))) for i in range(n))
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(n):
            builder.add(
                f"c{i}",
                "narrative",
                {},
                {"faithfulness": True},
                True,
                None,
                [],
                None,
                None,
                None,
                _evidence(i),
            )
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert 0 < encoded < 2 * 1024 * n
    assert held < 1.6 * encoded, (held, encoded)  # was ~4x: each kept orjson's buffer
    table = builder.build()
    assert table.row(7)["judge"] == orjson.loads(orjson.dumps(_evidence(7)))

"""Comparisons read by their sides: inverted ones fail, ones told from the other side pass."""

from __future__ import annotations

import pytest

from ragspine_action.gates.compare import compare, comparisons
from ragspine_action.gates.judge import LexicalJudge

CASES = [
    # (context, claim, supported)
    (
        "Product A sold fewer units than Product B.",
        "Product A sold more units than Product B.",
        False,
    ),
    (
        "Product A sold fewer units than Product B.",
        "Product B sold more units than Product A.",
        True,
    ),
    (
        "Product A sold fewer units than Product B.",
        "Product B sold fewer units than Product A.",
        False,
    ),
    (
        "Malaysia's claims ratio was higher than Singapore's.",
        "Singapore's claims ratio was lower than Malaysia's.",
        True,
    ),
    (
        "Malaysia's claims ratio was higher than Singapore's.",
        "Malaysia's claims ratio was lower than Singapore's.",
        False,
    ),
    (
        "Hong Kong revenue grew faster than Singapore revenue.",
        "Singapore revenue grew more slowly than Hong Kong revenue.",
        True,
    ),
    ("Zenith's revenue exceeded Orion's.", "Orion's revenue exceeded Zenith's.", False),
    ("Zenith's revenue exceeded Orion's.", "Orion's revenue trailed Zenith's.", True),
    ("The project is ahead of schedule.", "The project is behind schedule.", False),
    ("新加坡的赔付率低于马来西亚。", "马来西亚的赔付率高于新加坡。", True),
    ("新加坡的赔付率低于马来西亚。", "新加坡的赔付率高于马来西亚。", False),
    ("甲公司的营收超过乙公司。", "乙公司的营收不及甲公司。", True),
    ("甲公司的营收超过乙公司。", "甲公司的营收不及乙公司。", False),
]


@pytest.mark.parametrize(("context", "claim", "supported"), CASES)
def test_a_comparison_is_read_by_its_sides(context: str, claim: str, supported: bool) -> None:
    verdict = compare(claim, context)
    assert verdict is not None and verdict.agrees is supported
    judged = LexicalJudge().judge_claims([claim], [context])[0]
    assert judged.supported is supported, judged


def test_a_negated_or_bounded_comparison_is_not_read() -> None:
    assert comparisons("Revenue was not higher than last year's.") == ()
    assert comparisons("不高于上年水平。") == ()


def test_sides_that_cannot_be_paired_give_no_verdict() -> None:
    assert compare("Costs were higher than planned.", "Sales were lower than in Europe.") is None

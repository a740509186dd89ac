"""gates/timing.py: "at once" said of what the contexts make wait."""

from __future__ import annotations

import pytest

from ragspine_action.gates.timing import timing_problem

EN = "Matching contributions vest after 2 years of service."
ZH = "公司缴费部分在员工服务满2年后归属。"


@pytest.mark.parametrize(
    ("claim", "sentence", "caught"),
    [
        ("Matching contributions vest immediately.", EN, True),
        ("Matching contributions vest immediately after two years of service.", EN, False),
        ("Matching contributions vest after 2 years.", EN, False),
        (
            "Permits can be requested on the same day.",
            "Permits must be requested 3 days ahead.",
            True,
        ),
        ("Permits are issued immediately.", "Permits are issued immediately once approved.", False),
        ("公司缴费部分入职即归属。", ZH, True),
        ("公司缴费部分服务满两年，立即归属。", ZH, False),
        ("停车证可当天申请。", "停车证须提前3天申请。", True),
    ],
)
def test_at_once_against_a_waiting_time(claim: str, sentence: str, caught: bool) -> None:
    assert (timing_problem(claim, lambda _: sentence, "the contexts") is not None) is caught

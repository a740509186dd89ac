"""Every fact in the KB, asked in several English and Chinese phrasings (entity, metric and
period aliases, glued "FY2025ACME集团" forms, half years), is answered with its value: the
scope rules that refuse other companies must never refuse ACME's own figures."""

from __future__ import annotations

import csv
import random
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from ragspine_action.golden import Expected, GoldenCase
from ragspine_action.systems.reference import ReferenceSystem
from ragspine_action.systems.reference.kb import DEFAULT_DATA_DIR

EN_M = {
    "REVENUE": ["revenue", "total revenue", "insurance revenue"],
    "NEWSALES": ["new business sales", "new sales"],
    "PROFIT": ["operating profit"],
    "ROE": ["ROE", "return on equity"],
}
ZH_M = {
    "REVENUE": ["收入", "营业收入"],
    "NEWSALES": ["新业务销售", "新单销售"],
    "PROFIT": ["营运利润", "经营利润"],
    "ROE": ["股本回报率", "ROE"],
}
EN_E = {
    "ACME_GROUP": ["ACME Group", "the group", "ACME"],
    "ACME_HK": ["ACME Hong Kong", "Hong Kong", "ACME HK"],
    "ACME_CN": ["ACME Mainland China", "the mainland business", "ACME China"],
}
ZH_E = {
    "ACME_GROUP": ["ACME集团", "集团"],
    "ACME_HK": ["ACME香港", "香港业务"],
    "ACME_CN": ["ACME内地", "内地业务"],
}
EN_C = {
    "AGENCY": "agency",
    "BANCA": "bancassurance",
    "BROKER": "broker",
    "PARTNERSHIP": "partnership",
}
ZH_C = {"AGENCY": "代理渠道", "BANCA": "银保渠道", "BROKER": "经纪渠道", "PARTNERSHIP": "合作渠道"}
EN_T = [
    "What was {e}'s {m} in {p}?",
    "What was the {m} of {e} for {p}?",
    "How much {m} did {e} report in {p}?",
    "{e} {m} {p}",
    "Tell me {e}'s {m} for {p}",
]
ZH_T = ["{e}{p}的{m}是多少？", "{p}{e}的{m}", "请问{e}{p}{m}是多少"]
ENC_T = ["What were {e}'s {c} {m} in {p}?", "{e} {m} through the {c} channel in {p}"]
ZHC_T = ["{e}{p}{c}的{m}是多少", "{p}{e}{c}{m}"]
SCALE = {"USD_BN": Decimal(1000), "USD_M": Decimal(1), "USD_K": Decimal("0.001"), "PCT": Decimal(1)}


def _en_periods(p: str) -> list[str]:
    if p.startswith("FY"):
        return [p, f"fiscal {p[2:]}"]
    return [f"the first half of {p[:4]}", f"{p[:4]} H1"]


def _zh_periods(p: str) -> list[str]:
    return [p, f"{p[2:]}年"] if p.startswith("FY") else [f"{p[:4]}年上半年", f"{p[:4]}年中期"]


def _phrasings() -> list[tuple[str, float]]:
    rng = random.Random(1)
    out: list[tuple[str, float]] = []
    path = Path(DEFAULT_DATA_DIR) / "facts.csv"
    for row in csv.DictReader(path.read_text(encoding="utf-8").splitlines()):
        value = float(Decimal(row["value"]) * SCALE[row["unit"]])
        m, e, c, p = row["metric"], row["entity"], row["channel"], row["period"]
        if c == "TOTAL":
            qs = [
                t.format(e=rng.choice(EN_E[e]), m=rng.choice(EN_M[m]), p=pp)
                for t in EN_T
                for pp in _en_periods(p)
            ]
            qs += [
                t.format(e=rng.choice(ZH_E[e]), m=rng.choice(ZH_M[m]), p=pp)
                for t in ZH_T
                for pp in _zh_periods(p)
            ]
        else:
            qs = [
                t.format(e=rng.choice(EN_E[e]), m=rng.choice(EN_M[m]), p=pp, c=EN_C[c])
                for t in ENC_T
                for pp in _en_periods(p)
            ]
            qs += [
                t.format(e=rng.choice(ZH_E[e]), m=rng.choice(ZH_M[m]), p=pp, c=ZH_C[c])
                for t in ZHC_T
                for pp in _zh_periods(p)
            ]
        out.extend((q, value) for q in qs)
    return out


PHRASINGS = _phrasings()


@pytest.fixture(scope="module", params=["tool", "agent"])
def system(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> ReferenceSystem:
    """Both modes: agent mode reads every phrasing with its own planner."""
    return ReferenceSystem(request.param, kb_dir=str(tmp_path_factory.mktemp("kb")))


def test_every_fact_is_answered_in_every_phrasing(system: ReferenceSystem) -> None:
    assert len(PHRASINGS) > 1000
    wrong = []
    for question, value in PHRASINGS:
        case = GoldenCase(
            id="q", question=question, case_type="retrieval",
            expected=Expected(relevant_docs=["x"]), reference_date=date(2026, 6, 12),
        )  # fmt: skip
        out = system.answer(case)
        if out.refused or out.value is None or abs(out.value - value) > 1e-9:
            wrong.append((question, out.answer))
    assert not wrong, (len(wrong), wrong[:8])

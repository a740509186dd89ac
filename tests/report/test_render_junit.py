"""JUnit XML: valid against the common schema, one failure per failed gate of each case."""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from ragspine_action.cli import main as cli_main
from ragspine_action.report.read import read_report
from ragspine_action.report.render_junit import render_junit

XSD = Path(__file__).resolve().parents[1] / "data" / "junit.xsd"


def _valid(xml: str) -> etree._Element:
    schema = etree.XMLSchema(etree.parse(str(XSD)))
    root = etree.fromstring(xml.encode("utf-8"))
    schema.assertValid(root)
    return root


def test_junit_has_one_failure_per_failed_gate(failing_report: Path) -> None:
    report = read_report(str(failing_report))
    root = _valid(render_junit(report))
    assert report.qa is not None
    suite = root.find("testsuite[@name='qa.my_rag']")
    assert suite is not None
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert set(cases) == {c.id for c in report.qa.cases}  # one testcase per case, verbatim
    failed = 0
    for gate, metric in report.qa.metrics.items():
        for failure in metric.failures:  # an errored case's gates too: each failed gate
            found = cases[failure.id].findall(f"failure[@type='{gate}']")
            assert len(found) == 1, (failure.id, gate)
            failed += 1
    assert failed >= 6
    numeric = cases["headcount_2024"].find("failure")
    assert numeric is not None
    assert numeric.get("message") == "numeric_accuracy: expected 1702 USD_M, got 1700 USD_M"
    assert "question: What was ACME HK revenue in FY2025?" in (numeric.text or "")
    assert len(cases["p37_table1!A1"]) == 0  # passed
    error = cases["@octocat"].find("error")
    assert error is not None and "HTTP 503" in (error.get("message") or "")
    assert len(cases["@octocat"].findall("error")) == 1
    for gate_failure in cases["@octocat"].findall("failure"):
        message = gate_failure.get("message") or ""
        assert message.startswith(f"{gate_failure.get('type')}: no answer, the case ended in an")
        assert "HTTP 503: upstream <timeout> @oncall" in message
    assert cases["x`y``z"].find("failure[@type='fabrication']") is not None
    counted = sum(len(c.findall("failure")) for c in cases.values())
    assert suite.get("failures") == str(counted)
    assert suite.get("tests") == str(len(cases))
    metrics = root.find("testsuite[@name='qa.my_rag/metrics']")
    assert metrics is not None
    assert {c.get("name") for c in metrics} >= {"numeric_accuracy", "fabrication_count"}


def test_junit_of_extraction_lists_mismatching_cells(tmp_path: Path) -> None:
    report_path = tmp_path / "r.json"
    assert (
        cli_main(["--suite", "all", "--no-baseline", "--report", str(report_path), "--quiet"]) == 1
    )
    root = _valid(render_junit(read_report(str(report_path))))
    suite = root.find("testsuite[@name='extraction']")
    assert suite is not None
    cell = suite.find("testcase[@name='pdf:p37_table1!E4']")
    assert cell is not None
    failure = cell.find("failure[@type='cell_value']")
    assert failure is not None and failure.get("message") == "cell_value: expected -24, got 24"


def test_junit_survives_characters_xml_cannot_hold(failing_report: Path) -> None:
    report = read_report(str(failing_report))
    assert report.qa is not None
    failure = report.qa.metrics["numeric_accuracy"].failures[0]
    failure.actual = "bell\x07 nul\x00 ]]> <tag> & \ud800"
    xml = render_junit(report)
    _valid(xml)
    assert "]]&gt; &lt;tag&gt; &amp;" in xml

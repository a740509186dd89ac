"""The HTML report: self-contained, escaped, and drawn — checked in a real headless Chromium."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import pytest
from png_support import Image, read_png

from ragspine_action.cli import main as cli_main
from ragspine_action.report.model import Failure
from ragspine_action.report.read import read_report
from ragspine_action.report.render_html import render_html

_RED, _GREEN = (0xCF, 0x22, 0x2E), (0x1A, 0x7F, 0x37)


@pytest.fixture
def chromium(missing_tool: Callable[[str], NoReturn]) -> str:
    """Debian's chromium (.ci/run installs it)."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        missing_tool("chromium is not installed (apt-get install chromium)")
    return found


def _browse(
    chromium: str, page: Path, tmp_path: Path, *args: str, fragment: str = ""
) -> subprocess.CompletedProcess[str]:
    profile = tmp_path / "chromium-profile"
    return subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-background-networking", "--no-first-run", f"--user-data-dir={profile}",
         *args, page.resolve().as_uri() + fragment],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip


def _failing_html(failing_report: Path, tmp_path: Path) -> Path:
    page = tmp_path / "report.html"
    assert cli_main(["render", str(failing_report), "--format", "html", "-o", str(page)]) == 0
    return page


def test_the_page_is_self_contained_and_escaped(failing_report: Path) -> None:
    page = render_html(read_report(str(failing_report)), head_sha="0123456789abcdef")
    without_ns = page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert not re.search(r"(?i)\b(src|href)\s*=|https?://|<link|@import|url\(", without_ns)
    assert "default-src 'none'" in page  # the browser refuses any request the page makes
    assert "<code>a&lt;b</code>" in page and "<code>x`y``z</code>" in page
    assert "upstream &lt;timeout&gt;" in page and "<timeout>" not in page
    assert "<code>0123456789ab</code>" in page
    assert page.count("<svg") >= 3


def test_hostile_text_stays_text(failing_report: Path) -> None:
    report = read_report(str(failing_report))
    assert report.qa is not None
    hostile = "</script><script>alert(1)</script><img src=x onerror=alert(1)> \"' &amp;"
    report.qa.metrics["numeric_accuracy"].failures = [
        Failure(id=hostile, expected=hostile, actual=hostile, question=hostile)
    ]
    page = render_html(report)
    assert page.count("<script>") == 1 and "<img" not in page
    assert "&lt;/script&gt;&lt;script&gt;alert(1)" in page


def test_chromium_draws_the_charts_and_the_filter_works(
    failing_report: Path, tmp_path: Path, chromium: str
) -> None:
    page = _failing_html(failing_report, tmp_path)
    dom = _browse(chromium, page, tmp_path, "--dump-dom").stdout
    charts = re.search(r'data-charts="(\d+)"', dom)
    drawn = re.search(r'data-charts-drawn="(\d+)"', dom)
    assert charts and drawn, "the page's script did not run"
    assert int(charts.group(1)) >= 3 and drawn.group(1) == charts.group(1)
    assert "4 of 4 shown" in dom or re.search(r"(\d+) of \1 shown", dom)

    filtered = _browse(chromium, page, tmp_path, "--dump-dom", fragment="#q=headcount").stdout
    table = filtered[filtered.index('id="failing-0"') :]
    table = table[table.index("<tbody>") : table.index("</table>")]
    rows = re.findall(r"<tr( hidden=\"\")?>(.*?)</tr>", table, re.S)
    shown = [body for hidden, body in rows if not hidden]
    assert len(shown) == 1 and "headcount_2024" in shown[0]
    assert len(rows) > 1 and re.search(r'failing-0-count">1 of \d+ shown', filtered)


def test_chromium_screenshot_shows_the_bars(
    failing_report: Path, tmp_path: Path, chromium: str
) -> None:
    page = _failing_html(failing_report, tmp_path)
    shot = tmp_path / "shot.png"
    _browse(
        chromium,
        page,
        tmp_path,
        "--window-size=1200,2400",
        "--hide-scrollbars",
        f"--screenshot={shot}",
    )
    image = read_png(shot)
    assert (image.width, image.height) == (1200, 2400)
    # A bar is a solid block of its colour: runs of 60+ identical pixels (text never is).
    assert _solid_rows(image, _RED) >= 20, "no red (failing) bar was painted"
    assert _solid_rows(image, _GREEN) >= 20, "no green (passing) bar was painted"
    background = image.pixel(5, image.height - 5)
    painted = sum(
        1 for y in range(0, image.height, 8) for x in range(0, image.width, 8)
        if image.pixel(x, y) != background
    )  # fmt: skip
    assert painted > 2_000, "the page is blank"


def _solid_rows(image: Image, color: tuple[int, int, int], run: int = 60) -> int:
    """How many pixel rows hold ``run`` or more consecutive pixels of exactly ``color``."""
    target = bytes(color)
    rows = 0
    for y in range(image.height):
        line = image.rows[y]
        pixels = [line[x : x + 3] for x in range(0, len(line), image.channels)]
        longest = current = 0
        for pixel in pixels:
            current = current + 1 if pixel == target else 0
            longest = max(longest, current)
        rows += longest >= run
    return rows


def test_extraction_page_draws_channel_bars(tmp_path: Path, chromium: str) -> None:
    report = tmp_path / "r.json"
    assert cli_main(["--suite", "all", "--no-baseline", "--report", str(report), "--quiet"]) == 1
    page = tmp_path / "r.html"
    assert cli_main(["render", str(report), "--format", "html", "-o", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert "Mismatching cells (" in text and "<code>p37_table1</code>" in text
    dom = _browse(chromium, page, tmp_path, "--dump-dom").stdout
    drawn = re.search(r'data-charts-drawn="(\d+)"', dom)
    assert drawn and int(drawn.group(1)) >= 3


@pytest.mark.parametrize("n", [0])
def test_a_passing_report_without_baseline_still_renders(tmp_path: Path, n: int) -> None:
    report = tmp_path / "r.json"
    assert cli_main(["--no-baseline", "--report", str(report), "--quiet"]) == n
    page = render_html(read_report(str(report)))
    assert "ragspine-eval: PASS" in page and "No baseline was compared" in page

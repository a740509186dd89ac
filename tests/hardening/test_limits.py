"""Limits: oversized inputs are refused with a clear error, and a slow or hanging endpoint
cannot hold the job past its timeout."""

from __future__ import annotations

import concurrent.futures
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hardening_support import MINI_GOLDEN, MINI_OUTCOMES, run_cli

from ragspine_action.errors import InputError
from ragspine_action.extraction.load import load_cell_table
from ragspine_action.golden.load import load_golden_set
from ragspine_action.jsonio import DEFAULT_MAX_INPUT_BYTES, read_json_file
from ragspine_action.outcomes.load import load_outcomes

FACTS = Path(__file__).resolve().parents[2] / "data" / "fixtures" / "fixtures_facts.json"


@pytest.mark.parametrize(
    ("loader", "source"),
    [
        (load_golden_set, MINI_GOLDEN),
        (load_outcomes, MINI_OUTCOMES),
        (load_cell_table, FACTS),
        (read_json_file, FACTS),
    ],
    ids=["golden", "outcomes", "facts", "json"],
)
def test_input_over_the_size_limit_is_refused_before_reading(
    loader: object, source: Path, tmp_path: Path
) -> None:
    path = tmp_path / source.name
    path.write_bytes(source.read_bytes())
    limit = path.stat().st_size - 1
    with pytest.raises(InputError) as caught:
        loader(path, max_bytes=limit)  # type: ignore[operator]
    message = str(caught.value)
    assert message == f"{path}: file is {limit + 1} bytes, over the limit of {limit}"
    loader(path, max_bytes=limit + 1)  # type: ignore[operator]  # exactly at the limit loads


def test_default_limit_is_finite() -> None:
    assert 0 < DEFAULT_MAX_INPUT_BYTES <= 4 * 1024**3


def test_cli_flag_sets_the_input_size_limit(tmp_path: Path) -> None:
    result = run_cli(
        ["--system", "outcomes", "--golden", str(MINI_GOLDEN), "--outcomes", str(MINI_OUTCOMES),
         "--no-baseline", "--max-input-bytes", "100"]
    )  # fmt: skip
    assert result.code == 2 and "over the limit of 100" in result.stderr


@pytest.mark.parametrize("which", ["outcomes", "baseline", "qrels"])
def test_the_limit_reaches_every_loader(tmp_path: Path, which: str) -> None:
    big = tmp_path / "big"
    if which == "outcomes":
        big.write_text(MINI_OUTCOMES.read_text() * 3)
        args = ["--system", "outcomes", "--golden", str(MINI_GOLDEN), "--outcomes", str(big)]
        args += ["--no-baseline"]
    elif which == "baseline":
        big.write_text(json.dumps({"_note": "x" * 5000}))
        args = ["--system", "outcomes", "--golden", str(MINI_GOLDEN)]
        args += ["--outcomes", str(MINI_OUTCOMES), "--baseline", str(big)]
    else:
        big.write_text("q1 0 d1 1\n" * 1000)
        args = ["--qrels", str(big), "--run", str(big)]
    limit = MINI_GOLDEN.stat().st_size + 10
    result = run_cli([*args, "--max-input-bytes", str(limit)])
    assert result.code == 2, result.stderr
    assert f"{big}: file is" in result.stderr and f"over the limit of {limit}" in result.stderr


class StallingServer:
    """Accepts connections and then either says nothing or drips a body forever."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.stop = threading.Event()
        self.clients: list[socket.socket] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}/rag"

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            self.clients.append(conn)
            threading.Thread(target=self._talk, args=(conn,), daemon=True).start()

    def _talk(self, conn: socket.socket) -> None:
        try:
            conn.recv(65536)
            if self.mode == "drip":
                conn.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    b"Content-Length: 100000000\r\n\r\n{"
                )
            while not self.stop.is_set():
                if self.mode == "drip":
                    conn.sendall(b" ")
                time.sleep(0.05)
        except OSError:
            pass


@pytest.fixture(params=["silent", "drip"])
def stalling(request: pytest.FixtureRequest) -> Iterator[StallingServer]:
    server = StallingServer(request.param)
    server.thread.start()
    yield server
    server.stop.set()
    server.thread.join()
    for conn in server.clients:
        conn.close()
    server.sock.close()


def test_hanging_endpoint_ends_in_error_outcomes_not_a_hung_job(
    stalling: StallingServer, tmp_path: Path
) -> None:
    """Every case gets a timeout error and the run ends; the watchdog only guards a hang."""
    report = tmp_path / "report.json"
    argv = ["--system", "http", "--endpoint", stalling.url, "--golden", str(MINI_GOLDEN),
            "--mode", "hang", "--no-baseline", "--timeout", "0.5", "--retries", "0",
            "--report", str(report)]  # fmt: skip
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        future = pool.submit(run_cli, argv)
        try:
            result = future.result(timeout=120)
        except concurrent.futures.TimeoutError:
            stalling.stop.set()  # let the worker finish so the pool can shut down
            pytest.fail("the job hung on a stalling endpoint")
    assert result.code == 2, result.stderr  # every case errored: above --max-error-rate
    assert "Traceback" not in result.stderr
    cases = json.loads(report.read_text(encoding="utf-8"))["qa"]["cases"]
    assert len(cases) == 6 and all(c["error"] for c in cases)

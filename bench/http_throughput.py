"""Throughput of the ``http`` system against a loopback service with a fixed delay.

Issue 6's figure: 1,000 cases answered after 20 ms each, concurrency 32, must finish
within 1.5x the ideal (1000 / 32 x 20 ms = 0.63 s) plus start-up. Issue 25's: within
1.1x of a plain client (a thread pool of the same size, one ``requests.Session`` per
thread, ``json.loads`` of each answer) against the same server; the two take turns,
``--pairs`` times, and the medians are printed. The service runs in its own process so
that it does not share the client's interpreter lock.

    python bench/http_throughput.py [--cases 1000] [--delay-ms 20] [--concurrency 32] [--pairs 3]
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from multiprocessing.queues import Queue
from typing import Any

import requests

from ragspine_action.golden.models import GoldenCase
from ragspine_action.systems.http import HttpSettings, HttpSystem
from ragspine_action.systems.http_progress import Progress


def _serve(delay_s: float, ports: Queue[Any]) -> None:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True

        def do_POST(self) -> None:
            request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            time.sleep(delay_s)
            body = json.dumps({"id": request["id"], "answer": "ok"}).encode()
            head = (
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n"
            ).encode()
            self.wfile.write(head + body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    class Server(ThreadingHTTPServer):
        daemon_threads = True
        request_queue_size = 256

    server = Server(("127.0.0.1", 0), Handler)
    ports.put(server.server_address[1])
    server.serve_forever()


def _plain_client(url: str, cases: int, concurrency: int) -> float:
    """The floor a client library reaches: a thread pool, a session per thread."""
    local = threading.local()

    def ask(i: int) -> None:
        session = getattr(local, "session", None)
        if session is None:
            session = local.session = requests.Session()
        body = {"id": f"c{i:05d}", "question": f"question {i}?"}
        response = session.post(url, json=body, timeout=30)
        response.raise_for_status()
        json.loads(response.content)

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        list(pool.map(ask, range(cases)))
    return time.perf_counter() - started


def _ours(url: str, cases: int, concurrency: int) -> tuple[float, dict[str, Any]]:
    golden = [
        GoldenCase(id=f"c{i:05d}", question=f"question {i}?", case_type="refusal")
        for i in range(cases)
    ]
    settings = HttpSettings(endpoint=url, concurrency=concurrency)
    system = HttpSystem(settings, progress=Progress(sys.stderr))
    started = time.perf_counter()
    collection = system.collect(golden)
    return time.perf_counter() - started, collection.stats


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--delay-ms", type=float, default=20.0)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="one JSON line instead of text")
    args = parser.parse_args()

    ports: Queue[Any] = multiprocessing.Queue()
    server = multiprocessing.Process(target=_serve, args=(args.delay_ms / 1000, ports), daemon=True)
    server.start()
    ours: list[float] = []
    plain: list[float] = []
    try:
        url = f"http://127.0.0.1:{ports.get(timeout=10)}/answer"
        for _ in range(max(1, args.pairs)):
            plain.append(_plain_client(url, args.cases, args.concurrency))
            total_s, stats = _ours(url, args.cases, args.concurrency)
            ours.append(total_s)
    finally:
        server.terminate()
        server.join()

    ideal_s = math.ceil(args.cases / args.concurrency) * args.delay_ms / 1000
    total_s = statistics.median(ours)
    plain_s = statistics.median(plain)
    vs_plain = statistics.median(o / p for o, p in zip(ours, plain, strict=True))
    result = {
        "cases": args.cases,
        "delay_ms": args.delay_ms,
        "concurrency": args.concurrency,
        "ideal_s": ideal_s,
        "ours_s": round(total_s, 3),
        "plain_s": round(plain_s, 3),
        "ours_over_ideal": round(total_s / ideal_s, 2),
        "plain_over_ideal": round(plain_s / ideal_s, 2),
        "ours_over_plain": round(vs_plain, 2),
        "errors": stats["errors"],
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"cases           {args.cases} at {args.delay_ms:g} ms, concurrency {args.concurrency}"
        )
        print(f"ideal           {ideal_s:.3f} s")
        print(f"measured        {total_s:.3f} s ({total_s / ideal_s:.2f}x ideal; limit 1.5x)")
        print(f"plain client    {plain_s:.3f} s ({plain_s / ideal_s:.2f}x ideal)")
        print(f"ours / plain    {vs_plain:.2f}x (median of {len(ours)} pairs in turn; target 1.1x)")
        print(f"rate            {stats['rate_per_s']} req/s")
        print(f"errors          {stats['errors']}, retries {stats['retries']}")
        print(f"latency ms      {json.dumps(stats['latency_ms'])}")
    return 0 if stats["errors"] == 0 and total_s <= 1.5 * ideal_s else 1


if __name__ == "__main__":
    sys.exit(main())

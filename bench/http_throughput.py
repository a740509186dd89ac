"""Throughput of the ``http`` system against a loopback service with a fixed delay.

Issue 6's figure: 1,000 cases answered after 20 ms each, concurrency 32, must finish
within 1.5x the ideal (1000 / 32 x 20 ms = 0.63 s) plus start-up. The service runs in
its own process so that it does not share the client's interpreter lock.

    python bench/http_throughput.py [--cases 1000] [--delay-ms 20] [--concurrency 32]
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from multiprocessing.queues import Queue
from typing import Any

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--delay-ms", type=float, default=20.0)
    parser.add_argument("--concurrency", type=int, default=32)
    args = parser.parse_args()

    ports: Queue[Any] = multiprocessing.Queue()
    server = multiprocessing.Process(target=_serve, args=(args.delay_ms / 1000, ports), daemon=True)
    server.start()
    try:
        port = ports.get(timeout=10)
        cases = [
            GoldenCase(id=f"c{i:05d}", question=f"question {i}?", case_type="refusal")
            for i in range(args.cases)
        ]
        settings = HttpSettings(
            endpoint=f"http://127.0.0.1:{port}/answer", concurrency=args.concurrency
        )
        system = HttpSystem(settings, progress=Progress(sys.stderr, interval_s=1.0))
        started = time.perf_counter()
        collection = system.collect(cases)
        total_s = time.perf_counter() - started
    finally:
        server.terminate()
        server.join()

    ideal_s = math.ceil(args.cases / args.concurrency) * args.delay_ms / 1000
    stats = collection.stats
    print(f"cases           {args.cases} at {args.delay_ms:g} ms, concurrency {args.concurrency}")
    print(f"ideal           {ideal_s:.3f} s")
    print(f"measured        {total_s:.3f} s ({total_s / ideal_s:.2f}x ideal; limit 1.5x)")
    print(f"rate            {stats['rate_per_s']} req/s")
    print(f"errors          {stats['errors']}, retries {stats['retries']}")
    print(f"latency ms      {json.dumps(stats['latency_ms'])}")
    return 0 if stats["errors"] == 0 and total_s <= 1.5 * ideal_s else 1


if __name__ == "__main__":
    sys.exit(main())

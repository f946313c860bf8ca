"""Benchmark of the web app served by gunicorn: the table page, a hand POST, throughput.

Run: `make bench` or `.venv/bin/python bench/web.py [--hands 300] [--requests 200] [--workers 4]`.
Creates a table of 300 generated hands in a temporary instance (SQLite), serves the
app with gunicorn on 127.0.0.1 (a free port), and prints the median and 95th
percentile of `GET /t/<token>` (the table page), `GET /api/tables/<token>/ledger`
and `POST /api/tables/<token>/hands`, then requests per second of the table page
with 20 concurrent clients. Target: median under 30 ms for the page and the POST.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import pathlib
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer.engine.tresillo import active_seats  # noqa: E402
from tests.engine.strategies import random_session  # noqa: E402

GUNICORN = pathlib.Path(sys.executable).with_name("gunicorn")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def request(port: int, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def timed(runs: int, call: Callable[[int], None]) -> list[float]:
    times = []
    for i in range(runs):
        start = time.perf_counter()
        call(i)
        times.append(time.perf_counter() - start)
    return times


def summary(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * len(ordered)) - 1)]
    return (
        f"{name:<38} median {statistics.median(ordered) * 1000:7.2f} ms   p95 {p95 * 1000:7.2f} ms   (n={len(times)})"
    )


def throughput(port: int, path: str, clients: int, seconds: float) -> tuple[float, int]:
    """Requests per second of GET ``path`` with ``clients`` threads for ``seconds``; and failures."""
    stop = time.perf_counter() + seconds
    counts = [0] * clients
    failures = [0] * clients

    def client(i: int) -> None:
        while time.perf_counter() < stop:
            status, _ = request(port, "GET", path)
            counts[i] += 1
            if status != 200:
                failures[i] += 1

    start = time.perf_counter()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts) / (time.perf_counter() - start), sum(failures)


def make_table(instance: pathlib.Path, hands: int) -> tuple[str, int, int]:
    """Create the table in the instance's database; its edit token, next dealer and number of players."""
    from scorer import store
    from scorer.web import create_app

    app = create_app({"INSTANCE_PATH": str(instance)})
    session = random_session(random.Random(20261129), hands, closing=False)
    session["name"] = "Benchmark"
    with app.app_context():
        table = store.create_table(session)
        ledger = store.read(table).ledger_copy()
        from scorer.store.db import db

        token = table.edit_token
        db.session.remove()
        db.engine.dispose()
    return token, int(ledger["next_dealer"]), len(session["players"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        instance = pathlib.Path(tmp) / "instance"
        token, dealer, seats = make_table(instance, args.hands)
        port = free_port()
        env = dict(os.environ, FLASK_INSTANCE_PATH=str(instance))
        command = [str(GUNICORN), "--workers", str(args.workers), "--bind", f"127.0.0.1:{port}"]
        command += ["--log-level", "warning", "scorer:create_app()"]
        server = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)
        try:
            for _ in range(200):
                try:
                    if request(port, "GET", f"/api/tables/{token}")[0] == 200:
                        break
                except OSError:
                    time.sleep(0.05)
            else:
                raise SystemExit("gunicorn did not start")
            page = f"/t/{token}"
            if request(port, "GET", page)[0] != 200:
                page = f"/api/tables/{token}/ledger"  # no table page yet
            print(f"web benchmark: gunicorn, {args.workers} workers, SQLite, {seats} players, {args.hands} hands")
            for path in (page, f"/api/tables/{token}/ledger"):
                for _ in range(5):  # warm every worker's settlement cache
                    request(port, "GET", path)

            def get(path: str) -> Callable[[int], None]:
                def call(_i: int) -> None:
                    status, _ = request(port, "GET", path)
                    assert status == 200, status

                return call

            print(summary(f"GET {page.replace(token, '<token>')}", timed(args.requests, get(page))))
            ledger_path = f"/api/tables/{token}/ledger"
            print(summary("GET /api/tables/<token>/ledger", timed(args.requests, get(ledger_path))))

            state = {"dealer": dealer}

            def post(_i: int) -> None:
                active = active_seats(seats, state["dealer"])
                hand = {"jugador": active[0], "lance": "entrada", "trump": "oros",
                        "tricks": {str(active[0]): 5, str(active[1]): 2, str(active[2]): 2}}  # fmt: skip
                status, body = request(port, "POST", f"/api/tables/{token}/hands", hand)
                assert status == 201, body
                state["dealer"] = state["dealer"] % seats + 1

            print(summary("POST /api/tables/<token>/hands", timed(args.requests, post)))
            for path in (page, ledger_path):
                rate, failures = throughput(port, path, args.clients, args.seconds)
                label = path.replace(token, "<token>")
                print(f"GET {label} with {args.clients} concurrent clients: {rate:.0f} requests/s", end="")
                print(f" ({failures} failed)" if failures else "")
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)


if __name__ == "__main__":
    main()

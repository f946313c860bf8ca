"""Load test: many tables, keepers adding hands and watchers polling the view page, for a bounded time.

Run: `make bench` or `.venv/bin/python bench/load.py [--seconds 60] [--database URL]`.
Creates ``--tables`` tables (200) of ``--hands`` generated hands each in a temporary
database (SQLite in a temporary instance, or a fresh schema of the PostgreSQL database
``--database`` names, dropped afterwards), serves the app with gunicorn on 127.0.0.1
(a free port), then for ``--seconds`` (60): ``--keepers`` keepers (50) each add a hand
to their own table every ``--keeper-every`` seconds (POST /api/tables/<token>/hands) and
``--watchers`` watchers (200) each load their table's view page every
``--watcher-every`` seconds (GET /t/<view token>), as the phones at the tables do. Prints
the throughput, the median, p95 and p99 of each kind of request, and the errors.
Goal: no errors, p95 under 100 ms. Loopback only; it stops by itself.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import pathlib
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scale import won_entrada  # noqa: E402  # the same hand as the other benches
from tests.engine.strategies import random_session  # noqa: E402

GUNICORN = pathlib.Path(sys.executable).with_name("gunicorn")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def percentile(ordered: list[float], p: float) -> float:
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


class Recorder:
    """Latencies and errors per kind of request, shared by the client threads."""

    def __init__(self) -> None:
        self.times: dict[str, list[float]] = {}
        self.errors: dict[str, list[str]] = {}
        self.lock = threading.Lock()

    def add(self, kind: str, seconds: float, error: str | None) -> None:
        with self.lock:
            self.times.setdefault(kind, []).append(seconds)
            if error is not None:
                self.errors.setdefault(kind, []).append(error)


class Client:
    """One phone: a persistent HTTP connection to the server."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connection: http.client.HTTPConnection | None = None

    def call(self, method: str, path: str, body: Any = None, key: str | None = None) -> tuple[int, bytes]:
        """One request; sent again on a new connection if the kept-alive one was closed by the server.

        A POST is sent again only with an idempotency ``key`` (as the phones do: no hand twice).
        """
        for attempt in range(2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                headers = {"Content-Type": "application/json"} if body is not None else {}
                if key is not None:
                    headers["Idempotency-Key"] = key
                data = None if body is None else json.dumps(body)
                self.connection.request(method, path, body=data, headers=headers)
                response = self.connection.getresponse()
                payload = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.close()
                return response.status, payload
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if attempt == 1 or (method != "GET" and key is None):
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def paced(stop: float, every: float, rng: random.Random, step: Any) -> None:
    """Call ``step()`` every ``every`` seconds (first at a random offset) until ``stop``."""
    due = time.perf_counter() + rng.uniform(0, every)
    while True:
        now = time.perf_counter()
        if due > now:
            time.sleep(due - now)
        if time.perf_counter() >= stop:
            return
        step()
        due += every


def keeper(port: int, table: dict[str, Any], stop: float, every: float, record: Recorder, seed: int) -> None:
    client = Client(port)
    state = {"dealer": table["dealer"]}

    def step() -> None:
        start = time.perf_counter()
        error = None
        try:
            path = f"/api/tables/{table['edit']}/hands"
            status, body = client.call("POST", path, won_entrada(4, state["dealer"]), key=secrets.token_hex(8))
            if status == 201:
                state["dealer"] = state["dealer"] % 4 + 1
            else:
                error = f"{status} {body[:120]!r}"
        except OSError as exc:
            error = repr(exc)
        record.add("hand POST", time.perf_counter() - start, error)

    try:
        paced(stop, every, random.Random(seed), step)
    finally:
        client.close()


def watcher(port: int, table: dict[str, Any], stop: float, every: float, record: Recorder, seed: int) -> None:
    client = Client(port)

    def step() -> None:
        start = time.perf_counter()
        error = None
        try:
            status, body = client.call("GET", f"/t/{table['view']}")
            if status != 200:
                error = f"{status} {body[:120]!r}"
        except OSError as exc:
            error = repr(exc)
        record.add("view page GET", time.perf_counter() - start, error)

    try:
        paced(stop, every, random.Random(seed), step)
    finally:
        client.close()


def database_settings(url: str | None, instance: pathlib.Path) -> tuple[dict[str, Any], str | None]:
    """App settings for the database, and the PostgreSQL schema made for this run (None on SQLite)."""
    if not url:
        return {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{instance / 'cartulina.db'}"}, None
    import sqlalchemy as sa

    from scorer.web import database_url

    schema = "bench_" + secrets.token_hex(6)
    engine = sa.create_engine(database_url(url))
    with engine.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    engine.dispose()
    options = {"connect_args": {"options": f"-csearch_path={schema}"}}
    return {"SQLALCHEMY_DATABASE_URI": url, "SQLALCHEMY_ENGINE_OPTIONS": options}, schema


def drop_schema(url: str, schema: str) -> None:
    import sqlalchemy as sa

    from scorer.web import database_url

    engine = sa.create_engine(database_url(url))
    with engine.begin() as connection:
        connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
    engine.dispose()


def make_tables(settings: dict[str, Any], instance: pathlib.Path, count: int, hands: int) -> list[dict[str, Any]]:
    from scorer import store
    from scorer.store.db import db
    from scorer.web import create_app

    app = create_app({"INSTANCE_PATH": str(instance), "SECRET_KEY": "bench", **settings})
    tables = []
    with app.app_context():
        for i in range(count):
            session = random_session(random.Random(1000 + i), hands, closing=False, players=4)
            session["name"] = f"Mesa {i + 1}"
            table = store.create_table(session)
            dealer = int(store.read(table).ledger.get("next_dealer") or 1)
            tables.append({"edit": table.edit_token, "view": table.view_token, "dealer": dealer})
        db.session.remove()
        db.engine.dispose()
    store.forget()
    return tables


def serve(
    instance: pathlib.Path, settings: dict[str, Any], workers: int, threads: int
) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = dict(os.environ, FLASK_INSTANCE_PATH=str(instance), FLASK_SECRET_KEY="bench")
    env["FLASK_SQLALCHEMY_DATABASE_URI"] = settings["SQLALCHEMY_DATABASE_URI"]
    if "SQLALCHEMY_ENGINE_OPTIONS" in settings:
        env["FLASK_SQLALCHEMY_ENGINE_OPTIONS"] = json.dumps(settings["SQLALCHEMY_ENGINE_OPTIONS"])
    command = [str(GUNICORN), "--workers", str(workers), "--worker-class", "gthread", "--threads", str(threads)]
    command += ["--bind", f"127.0.0.1:{port}", "--log-level", "warning", "--backlog", "512", "--keep-alive", "1"]
    command += ["scorer:create_app()"]
    server = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)
    probe = Client(port)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if probe.call("GET", "/api/tables/unknown")[0] == 404:
                probe.close()
                return server, port
        except OSError:
            probe.close()
            time.sleep(0.1)
    stop_server(server)
    raise SystemExit("gunicorn did not start")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
    server.wait(timeout=30)


def report(record: Recorder, seconds: float, label: str) -> None:
    total = sum(len(t) for t in record.times.values())
    errors = sum(len(e) for e in record.errors.values())
    print(
        f"load test on {label}: {total} requests in {seconds:.0f} s = {total / seconds:.0f} requests/s, {errors} errors"
    )
    for kind, times in sorted(record.times.items()):
        ordered = sorted(times)
        p50, p95, p99 = (percentile(ordered, p) * 1000 for p in (50, 95, 99))
        failed = len(record.errors.get(kind, []))
        verdict = "meets" if p95 < 100 and failed == 0 else "MISSES"
        print(
            f"  {kind:<14} {len(times) / seconds:6.1f}/s   p50 {p50:6.1f} ms   p95 {p95:6.1f} ms   p99 {p99:6.1f} ms"
            f"   errors {failed}   (goal: 0 errors, p95 < 100 ms) — {verdict}"
        )
        for error in record.errors.get(kind, [])[:3]:
            print(f"    e.g. {error}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the load lasts (default 60)")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--hands", type=int, default=30, help="hands of each table before the load")
    parser.add_argument("--keepers", type=int, default=50)
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--keeper-every", type=float, default=2.0, help="seconds between a keeper's hands")
    parser.add_argument("--watcher-every", type=float, default=2.0, help="seconds between a watcher's page loads")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--database", help="a PostgreSQL URL (a fresh schema is made and dropped); default SQLite")
    args = parser.parse_args()
    if args.keepers > args.tables:
        raise SystemExit("more keepers than tables")

    with tempfile.TemporaryDirectory() as tmp:
        instance = pathlib.Path(tmp) / "instance"
        settings, schema = database_settings(args.database, instance)
        label = "PostgreSQL" if schema else "SQLite"
        try:
            tables = make_tables(settings, instance, args.tables, args.hands)
            server, port = serve(instance, settings, args.workers, args.threads)
            try:
                record = Recorder()
                start = time.perf_counter()
                stop = start + args.seconds
                threads = [
                    threading.Thread(target=keeper, args=(port, tables[i], stop, args.keeper_every, record, i))
                    for i in range(args.keepers)
                ]
                threads += [
                    threading.Thread(
                        target=watcher,
                        args=(port, tables[i % args.tables], stop, args.watcher_every, record, 10_000 + i),
                    )
                    for i in range(args.watchers)
                ]
                for thread in threads:
                    thread.daemon = True
                    thread.start()
                for thread in threads:
                    thread.join(timeout=args.seconds + 60)
                elapsed = time.perf_counter() - start
            finally:
                stop_server(server)
            print(
                f"({args.tables} tables of {args.hands} hands; {args.keepers} keepers, a hand every "
                f"{args.keeper_every:g} s each; {args.watchers} watchers, the view page every {args.watcher_every:g} s "
                f"each; gunicorn {args.workers} workers × {args.threads} threads; load average "
                f"{', '.join(f'{x:.1f}' for x in os.getloadavg())})"
            )
            report(record, elapsed, label)
        finally:
            if schema and args.database:
                drop_schema(args.database, schema)


if __name__ == "__main__":
    main()

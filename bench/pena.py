"""Benchmark of a peña's pages: a season of many evenings, settled and counted on every request.

Run: `.venv/bin/python bench/pena.py [--evenings 40] [--hands 80] [--repeat 15]`.
Creates a peña of eight people in a temporary instance (SQLite) with ``--evenings`` random
Tresillo evenings of ``--hands`` hands (four of the eight at each table), then prints the
median and best time of the peña page, the ledger and statistics API, a person's page
(Flask test client, warm caches: each table is settled once and cached per revision), and the
season PDF. The figures depend on the machine's load: run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer import engine  # noqa: E402
from scorer.engine import SessionError  # noqa: E402
from scorer.web import create_app  # noqa: E402

PEOPLE = ["Ana", "Benito", "Carmen", "Diego", "Elena", "Fermín", "Gloria", "Hugo"]


SPLITS = [(5, 3, 1), (4, 4, 1), (3, 5, 1), (6, 2, 1), (4, 3, 2), (2, 5, 2), (3, 3, 3), (5, 2, 2), (7, 1, 1)]


def evening(rng: random.Random, hands: int, players: list[str]) -> dict[str, object]:
    """A valid Tresillo evening of ``hands`` hands, closed (R30 devolver)."""
    session: dict[str, object] = {"format": "tresillo-session/1", "players": players, "rules": {}, "hands": []}
    settled = engine.start(session)
    while settled.count < hands:
        dealer = settled.ledger()["next_dealer"]
        active = [s for s in range(1, 5) if s != dealer]
        jugador = rng.choice(active)
        split = rng.choice(SPLITS)
        others = [s for s in active if s != jugador]
        rng.shuffle(others)
        tricks = {str(jugador): split[0], str(others[0]): split[1], str(others[1]): split[2]}
        hand = {
            "jugador": jugador,
            "lance": rng.choice(["entrada", "entrada", "vuelta", "solo"]),
            "trump": rng.choice(["oros", "copas", "espadas", "bastos"]),
            "tricks": tricks,
        }
        if rng.random() < 0.1:
            hand = {"pass": True}
        try:
            settled = settled.add(hand)
        except SessionError:
            continue
        session["hands"].append(hand)  # type: ignore[union-attr]
    session["hands"].append({"close": "devolver"})  # type: ignore[union-attr]
    return session


def timed(call: Callable[[], object], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, min(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evenings", type=int, default=40)
    parser.add_argument("--hands", type=int, default=80)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    rng = random.Random(16)
    folder = pathlib.Path(tempfile.mkdtemp(prefix="cartulina-bench-pena-"))
    app = create_app(
        {"SECRET_KEY": "bench", "INSTANCE_PATH": str(folder), "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/b.db"}
    )
    client = app.test_client()
    token = client.post("/api/penas", json={"name": "Bench", "people": PEOPLE}).get_json()["edit_token"]
    for day in range(args.evenings):
        session = evening(rng, args.hands, rng.sample(PEOPLE, 4))
        session["date"] = f"2026-{1 + day // 28:02d}-{1 + day % 28:02d}"
        session["tanto_value"] = "0.05"
        answer = client.post(f"/api/penas/{token}/tables", json={"session": session})
        assert answer.status_code == 201, answer.get_json()
    person = client.get(f"/api/penas/{token}").get_json()["people"][0]["id"]
    print(f"peña of {len(PEOPLE)} people, {args.evenings} evenings × {args.hands} hands (SQLite, test client, warm)")
    for label, path, repeat in (
        ("peña page      GET /p/<token>", f"/p/{token}", args.repeat),
        ("ledger API     GET /api/penas/<token>/ledger", f"/api/penas/{token}/ledger", args.repeat),
        ("statistics API GET /api/penas/<token>/stats", f"/api/penas/{token}/stats", args.repeat),
        ("person page    GET /p/<token>/personas/<id>", f"/p/{token}/personas/{person}", args.repeat),
        ("season PDF     GET /p/<token>/temporada.pdf", f"/p/{token}/temporada.pdf", 3),
    ):
        assert client.get(path).status_code == 200
        median, best = timed(lambda path=path: client.get(path), repeat)
        print(f"{label:48s} median {median:8.1f} ms   best {best:8.1f} ms")


if __name__ == "__main__":
    main()

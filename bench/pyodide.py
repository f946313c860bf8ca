"""Payments offline on a phone: what the engine in the browser costs, through the app itself.

Run: `.venv/bin/python bench/pyodide.py [--hands 60] [--throttle 4]` (Pyodide from node_modules/pyodide,
installed by scripts/bootstrap.sh). Serves the app on 127.0.0.1 with a table of ``--hands`` generated
hands, opens it in Debian's Chromium (Playwright, headless, a fresh profile: nothing cached) with the
CPU throttled (x4 ≈ a mid-range phone; the page and its workers), and measures:

- the download of *Preparar para jugar sin conexión*: the bytes sent (gzip) for /offline/…;
- the network dropped (the engine's worker starts, on the table page), the hand form opened from the
  table page ``--delays`` seconds later (default: 5 s, and at once; offline the form is put in place
  of the table page, so the worker warming up goes on), a hand tapped in: the time from opening the
  form to the first payments shown ("calculado sin conexión");
- every later preview: the time from a change on the form to the payments shown again;
- the online pages: the bytes of the table page and the hand form with and without this work
  (a phone that never asked downloads nothing of the engine).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import random
import statistics
import sys
import tempfile
import threading
import time
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer.engine import settle  # noqa: E402
from scorer.engine.tresillo import active_seats  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ENGINE_URL = "/offline/"


def session_of(count: int, seed: int = 15) -> dict[str, Any]:
    """A Tresillo session of ``count`` generated won or lost entradas and passes."""
    rng = random.Random(seed)
    session: dict[str, Any] = {
        "format": "tresillo-session/1",
        "name": "Banco de pruebas",
        "players": ["Ana", "Benito", "Carmen", "Diego"],
        "rules": {},
        "first_dealer": 1,
        "hands": [],
    }
    for _ in range(count):
        dealer = settle(session)["next_dealer"]
        a, b, c = active_seats(4, dealer)
        if rng.random() < 0.15:
            hand: dict[str, Any] = {"pass": True}
        else:
            split = rng.choice([(5, 3, 1), (6, 2, 1), (5, 2, 2), (4, 3, 2), (3, 5, 1)])
            hand = {"jugador": a, "lance": "entrada", "trump": rng.choice(["oros", "copas", "espadas", "bastos"]),
                    "tricks": {str(a): split[0], str(b): split[1], str(c): split[2]}}  # fmt: skip
        session["hands"].append(hand)
    return session


def serve(folder: pathlib.Path) -> tuple[Any, str, Any]:
    from werkzeug.serving import make_server

    from scorer.web import create_app

    app = create_app(
        {
            "SECRET_KEY": "bench",
            "INSTANCE_PATH": str(folder / "instance"),
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.db'}",
            "RATELIMIT_ENABLED": False,
        }
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}", app


def throttle(context: Any, page: Any, rate: float) -> None:
    """CPU throttling of the page and of every worker it starts (each is a target of its own)."""
    if rate <= 1:
        return
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    cdp.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": False})

    def attached(event: dict[str, Any]) -> None:
        message = {"id": 1, "method": "Emulation.setCPUThrottlingRate", "params": {"rate": rate}}
        cdp.send("Target.sendMessageToTarget", {"sessionId": event["sessionId"], "message": json.dumps(message)})

    cdp.on("Target.attachedToTarget", attached)


def wait(page: Any, script: str, timeout: float = 120.0) -> Any:
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        value = page.evaluate(script)
        if value:
            return value
        page.wait_for_timeout(20)
    raise TimeoutError(script)


def shown(page: Any) -> str:
    return str(page.evaluate("(document.getElementById('live') || {}).textContent || ''"))


def tap(page: Any, name: str, value: str) -> None:
    page.evaluate(
        "([n, v]) => { const el = document.querySelector(`input[name='${n}'][value='${v}']`);"
        " el.checked = true; el.dispatchEvent(new Event('change', {bubbles: true})); }",
        [name, value],
    )


def measure(base: str, token: str, rate: float, later: int, delay: float) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    sizes: dict[str, int] = {}
    result: dict[str, Any] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-ES")
            page = context.new_page()
            context.on("requestfinished", lambda r: sizes.__setitem__(r.url, r.sizes()["responseBodySize"]))
            throttle(context, page, rate)
            page.goto(f"{base}/t/{token}")
            wait(page, "navigator.serviceWorker.controller !== null")
            wait(page, "document.body.getAttribute('data-offline-ready') === 'true'")
            result["online"] = sum(v for u, v in sizes.items() if ENGINE_URL not in u)
            start = time.perf_counter()
            page.click("[data-engine-prepare]")
            wait(page, "document.getElementById('motor').getAttribute('data-engine') === 'ready'", 600)
            result["prepare_s"] = time.perf_counter() - start
            wait(page, f"localStorage.getItem('cartulina-session-{token}') !== null")
            # the worker fetches what the service worker sent: the download is the service worker's
            listing = json.loads(page.evaluate("fetch('/offline/motor.json').then(r => r.text())"))
            result["download"] = listing["bytes"]

            context.set_offline(True)  # the network goes: the table page starts the engine
            if delay:
                page.wait_for_timeout(delay * 1000)  # the keeper opens the form this long after the drop
            page.click("a.button.primary[href$='/mano']")
            opened = time.perf_counter()
            wait(page, "!!document.querySelector('form[data-offline=hand]')")
            seats = page.evaluate("Array.from(document.querySelectorAll('input[name=jugador]')).map(e => e.value)")
            a, b = seats[0], seats[1]
            tap(page, "jugador", a)
            tap(page, "trump", "oros")
            tap(page, f"tricks_{a}", "5")
            tap(page, f"tricks_{b}", "3")
            wait(page, "(document.getElementById('live') || {}).textContent.includes('sin conexión')", 600)
            result["first_s"] = time.perf_counter() - opened
            times = []
            for i in range(later):
                before = shown(page)
                mine, theirs = [("4", "4"), ("3", "5"), ("5", "3")][i % 3]  # puesta, codillo, ganada
                t0 = time.perf_counter()
                tap(page, f"tricks_{a}", mine)
                tap(page, f"tricks_{b}", theirs)
                wait(page, f"(document.getElementById('live') || {{}}).textContent !== {json.dumps(before)}", 60)
                times.append(time.perf_counter() - t0)
            result["later_s"] = times
            result["phases"] = page.evaluate("window.cartulinaEngine.start().then(a => a.phases)")
            result["workers"] = page.evaluate("document.documentElement.getAttribute('data-engine-workers')")
            result["in_place"] = page.evaluate("document.documentElement.getAttribute('data-pages-in-place')")
        finally:
            browser.close()
    return result


def page_bytes(base: str, token: str) -> dict[str, int]:
    """The online table page and hand form as sent (what every phone downloads, opted in or not)."""
    import urllib.request

    out = {}
    for name, path in (("table page", f"/t/{token}"), ("hand form", f"/t/{token}/mano")):
        with urllib.request.urlopen(base + path) as answer:
            out[name] = len(answer.read())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--throttle", type=float, default=4.0)
    parser.add_argument("--later", type=int, default=6, help="later previews measured")
    parser.add_argument("--rates", default="", help="CPU throttles to run, e.g. 4 (default: 1 and --throttle)")
    parser.add_argument("--delays", default="5,0", help="seconds between the drop and opening the form")
    args = parser.parse_args()
    package = json.loads((ROOT / "node_modules" / "pyodide" / "package.json").read_text())
    with tempfile.TemporaryDirectory(prefix="cartulina-pyodide-") as tmp:
        server, base, app = serve(pathlib.Path(tmp))
        try:
            from scorer import store

            with app.app_context():
                token = store.create_table(session_of(args.hands)).edit_token
            sizes = page_bytes(base, token)
            rates = [float(r) for r in args.rates.split(",") if r] or [1.0, args.throttle]
            delays = [float(d) for d in args.delays.split(",") if d]
            runs = [((r, d), measure(base, token, r, args.later, d)) for r in rates for d in delays]
        finally:
            server.shutdown()
    print(f"pyodide {package['version']}, a table of {args.hands} hands, load average {os.getloadavg()[0]:.1f}")
    print(f"downloaded once, on asking: {runs[0][1]['download'] / 1e6:.1f} MB (gzip, as sent)")
    print("online pages as sent: " + ", ".join(f"{k} {v / 1e3:.0f} kB" for k, v in sizes.items()))
    for (rate, delay), run in runs:
        later = run["later_s"]
        print(
            f"CPU x{rate:g}, form opened {delay:g} s after the drop: download and keep {run['prepare_s']:.1f} s;"
            f" hand form opened offline → first payments {run['first_s']:.1f} s; later previews median"
            f" {statistics.median(later) * 1e3:.0f} ms, worst {max(later) * 1e3:.0f} ms"
            f" (engine workers started: {run['workers']}, pages put in place: {run['in_place']})"
        )
        took = {k: v / 1e3 for k, v in (run["phases"] or {}).items()}
        print(
            f"    warm-up from the drop: {took.get('total', 0):.1f} s (Pyodide loaded {took.get('pyodide', 0):.1f} s,"
            f" the engine written and imported {took.get('engine', 0):.1f} s)"
        )


if __name__ == "__main__":
    main()

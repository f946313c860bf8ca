"""What offline payments through Pyodide would cost a phone (issue 15): bytes and time to a result.

Run: `.venv/bin/python bench/pyodide.py PATH/node_modules/pyodide [--hands 60] [--throttle 4]`
after `npm install pyodide` in a scratch folder (the package is not vendored: ~14 MB). Serves that
folder, the engine's own files (`scorer/engine/*.py`) and a test page on 127.0.0.1, opens the page in
Debian's Chromium (Playwright, headless, a fresh profile: nothing cached), loads Pyodide, writes the
engine into its file system, settles a session of generated hands with `scorer.engine.settle`, and
checks the ledger equals the one computed here by the same engine in CPython. Prints the bytes
downloaded (as sent, and gzip -6 as a server would compress them), the time to Pyodide ready and to
the first ledger, with no CPU throttling and with Chromium's CPU throttling (x4 ≈ a mid-range phone).
The page needs `'wasm-unsafe-eval'` in script-src: the app's CSP today forbids WebAssembly.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import pathlib
import random
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
PAGE_JS = """
window.run = async function (session, files) {
  const t0 = performance.now();
  const pyodide = await loadPyodide({ indexURL: "/pyodide/" });
  const ready = performance.now();
  pyodide.FS.mkdirTree("/home/pyodide/scorer/engine");
  pyodide.FS.writeFile("/home/pyodide/scorer/__init__.py", "");
  for (const name of files) {
    const text = await (await fetch("/engine/" + name)).text();
    pyodide.FS.writeFile("/home/pyodide/scorer/engine/" + name, text);
  }
  pyodide.globals.set("session_json", JSON.stringify(session));
  const code = "import json, sys\\nsys.path.insert(0, '/home/pyodide')\\n" +
    "from scorer.engine import settle\\nledger_json = json.dumps(settle(json.loads(session_json)))";
  await pyodide.runPythonAsync(code);
  const first = performance.now();
  await pyodide.runPythonAsync(code);
  const second = performance.now();
  return { ready: ready - t0, first: first - t0, again: second - first,
           ledger: pyodide.globals.get("ledger_json") };
};
"""
PAGE_HTML = """<!doctype html><html><head><meta charset="utf-8">
<script src="/pyodide/pyodide.js"></script><script src="/page.js"></script></head><body>bench</body></html>"""
CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'"


def session_of(count: int, seed: int = 15) -> dict[str, Any]:
    """A Tresillo session of ``count`` generated won or lost entradas and passes."""
    rng = random.Random(seed)
    session: dict[str, Any] = {
        "format": "tresillo-session/1",
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


class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def serve(folder: pathlib.Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def measure(base: str, session: dict[str, Any], files: list[str], throttle: float) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    sizes: dict[str, int] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
        try:
            page = browser.new_context().new_page()
            page.on("requestfinished", lambda r: sizes.__setitem__(r.url, r.sizes()["responseBodySize"]))
            if throttle > 1:
                page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
            start = time.perf_counter()
            page.goto(base + "/index.html")
            result = page.evaluate("([s, f]) => window.run(s, f)", [session, files])
            wall = time.perf_counter() - start
        finally:
            browser.close()
    result["wall"] = wall
    result["bytes"] = sum(sizes.values())
    result["sizes"] = sizes
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pyodide", type=pathlib.Path, help="the pyodide folder of an npm install")
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--throttle", type=float, default=4.0)
    args = parser.parse_args()
    package = json.loads((args.pyodide / "package.json").read_text())
    session = session_of(args.hands)
    expected = settle(session)
    with tempfile.TemporaryDirectory(prefix="cartulina-pyodide-") as tmp:
        folder = pathlib.Path(tmp)
        (folder / "pyodide").symlink_to(args.pyodide.resolve())
        (folder / "engine").symlink_to(ROOT / "scorer" / "engine")
        (folder / "index.html").write_text(PAGE_HTML)
        (folder / "page.js").write_text(PAGE_JS)
        files = sorted(p.name for p in (ROOT / "scorer" / "engine").glob("*.py"))
        server, base = serve(folder)
        try:
            runs = [(rate, measure(base, session, files, rate)) for rate in (1.0, args.throttle)]
        finally:
            server.shutdown()
    fetched = runs[0][1]["sizes"]
    compressed = 0
    for name in ("pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"):
        file = args.pyodide / name
        if file.exists() and any(u.endswith("/" + name) for u in fetched):
            compressed += len(gzip.compress(file.read_bytes(), 6))
    engine = sum((ROOT / "scorer" / "engine" / n).stat().st_size for n in files)
    compressed += len(gzip.compress(b"".join((ROOT / "scorer" / "engine" / n).read_bytes() for n in files), 6))
    print(f"pyodide {package['version']}, session of {args.hands} hands")
    for url, size in sorted(fetched.items(), key=lambda item: -item[1])[:5]:
        print(f"  {size / 1e6:6.2f} MB  {url.rsplit('/', 1)[-1]}")
    sent = runs[0][1]["bytes"]
    print(f"downloaded once: {sent / 1e6:.1f} MB as sent ({len(fetched)} files, engine {engine / 1e3:.0f} kB),")
    print(f"  about {compressed / 1e6:.1f} MB gzip-compressed")
    print(f"load average while measuring: {os.getloadavg()[0]:.1f}")
    for rate, run in runs:
        same = json.loads(run["ledger"]) == expected
        print(
            f"CPU x{rate:g}: Pyodide ready {run['ready'] / 1e3:.1f} s, first ledger {run['first'] / 1e3:.1f} s,"
            f" again {run['again']:.0f} ms; same ledger as CPython: {same}"
        )


if __name__ == "__main__":
    main()

"""The app served to the browser journeys by gunicorn, as in production, in a child process.

Why not werkzeug's development server in a thread: when a client drops a connection
while werkzeug is sending a file, its request handler can fail in its clean-up before it closes the
response, leaving the file (``static/favicon.svg``) open; the ResourceWarning then surfaces in
whichever test is running and fails it under ``filterwarnings = error``. gunicorn is the server the
app runs under anyway (``make serve``, ``bench/load.py``), and in its own process its warnings are
not the tests'.

The listening socket is made here, on 127.0.0.1 and a free port, and handed to gunicorn
(``--bind fd://N``): no other process can take the port between choosing and binding it, and a
connection made before gunicorn is ready waits in the socket's queue. The child shares the SQLite
file and instance folder with the in-process ``app`` the tests use to seed and read the database
(the app is built for several processes: a file lock for writers, settled states keyed by the
table's revision). ``stop()`` ends the child (SIGTERM, then SIGKILL after 20 s) and waits for it.
"""

from __future__ import annotations

import json
import os
import pathlib
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[2]
GUNICORN = pathlib.Path(sys.executable).with_name("gunicorn")
START_SECONDS = 60


class LiveServer:
    """The app under gunicorn on 127.0.0.1; ``url("/t/…")`` gives an absolute URL, ``app`` the same app in-process."""

    def __init__(self, app: Any, config: dict[str, Any], log: pathlib.Path) -> None:
        self.app = app
        self.config = config
        self.log = log
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(128)
        self.base = f"http://127.0.0.1:{self.socket.getsockname()[1]}"
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, path: str = "/") -> str:
        return self.base + path

    def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        for key, value in self.config.items():  # create_app reads FLASK_<KEY> (JSON where it parses)
            env[f"FLASK_{key}"] = value if isinstance(value, str) else json.dumps(value)
        fd = self.socket.fileno()
        command = [
            str(GUNICORN),
            *("--bind", f"fd://{fd}", "--workers", "1", "--worker-class", "gthread", "--threads", "8"),
            *("--graceful-timeout", "5", "--log-level", "warning", "--error-logfile", str(self.log)),
            "scorer:create_app()",
        ]
        with open(os.devnull, "wb") as quiet:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=env, pass_fds=(fd,), stdout=quiet, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + START_SECONDS
        while self.process.poll() is None and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url("/static/favicon.svg"), timeout=5) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                time.sleep(0.2)  # the child is still starting: the connection was refused or reset
        self.stop()
        raise RuntimeError(f"gunicorn did not serve the app within {START_SECONDS} s:\n{self._log_text()}")

    def stop(self) -> None:
        try:
            if self.process is not None and self.process.poll() is None:
                self.process.send_signal(signal.SIGTERM)
                try:
                    self.process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait(timeout=10)
        finally:
            self.socket.close()

    def _log_text(self) -> str:
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")[-4000:]
        except OSError:
            return "(no log)"

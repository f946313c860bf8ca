"""A wheel built from the repository serves the app from a fresh virtual environment outside the checkout.

The build runs on a copy of the project's files without compiled catalogs (as a clean clone has
them), through pip with the locked build requirements (PIP_BUILD_CONSTRAINT, as scripts/bootstrap.sh
builds). The fresh environment gets the wheel alone (``--no-deps``); the wheel's dependencies come
from this test environment's site-packages, named by a ``.pth`` file, so the test needs no network
and no index: ``import scorer`` still finds only the wheel's copy (a ``.pth`` path line adds a
folder to sys.path without running the editable install's own hooks kept there). The app then runs
with ``flask run`` from a temporary folder, and answers pages, the style sheet, the service worker,
the PDF sheet and English.
"""

from __future__ import annotations

import http.client
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import time
import zipfile
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import sample_session

ROOT = pathlib.Path(__file__).resolve().parents[1]
# what a build does not need (and a clean clone may not have)
LEFT_OUT = shutil.ignore_patterns(
    ".git", ".venv", "node_modules", "instance", "build", "dist", "tests", "bench", "artifacts", "*.egg-info",
    "__pycache__", "*.pyc", ".*_cache", ".hypothesis", "*.mo",
)  # fmt: skip


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False, **kwargs)
    assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    source = tmp_path_factory.mktemp("source") / "cartulina"
    shutil.copytree(ROOT, source, ignore=LEFT_OUT)
    out = tmp_path_factory.mktemp("wheel")
    env = dict(os.environ, PIP_BUILD_CONSTRAINT=str(ROOT / "constraints.txt"))
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out), str(source)], env=env)
    (built,) = out.glob("cartulina-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel: pathlib.Path, tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    place = tmp_path_factory.mktemp("installed") / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(place)])
    python = place / "bin" / "python"
    run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", str(wheel)])
    # the dependencies: this environment's packages, after the fresh one's own (where the wheel went)
    ours = run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).stdout.strip()
    lines = sorted({sysconfig.get_path("purelib"), sysconfig.get_path("platlib")})
    (pathlib.Path(ours) / "cartulina_test_dependencies.pth").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return place


def test_the_wheel_carries_the_templates_the_static_files_and_the_compiled_catalogs(wheel: pathlib.Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("templates/base.html", "templates/sheet/sheet.css", "static/app.css", "static/sw.js"):
        assert f"scorer/_files/{name}" in names
    for language in ("es", "en"):
        assert f"scorer/_files/translations/{language}/LC_MESSAGES/messages.mo" in names
    assert "scorer/migrations/alembic.ini" in names
    assert not any("__pycache__" in name or name.startswith(("templates/", "static/")) for name in names)


class Server:
    """``flask run`` of the installed package, from a folder outside the checkout."""

    def __init__(self, venv: pathlib.Path, where: pathlib.Path) -> None:
        self.port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "FLASK_", "VIRTUAL_ENV"))}
        env.update(FLASK_INSTANCE_PATH=str(where / "instance"), FLASK_SECRET_KEY="wheel", FLASK_SHEET_PDF_TIMEOUT="0")
        command = [str(venv / "bin" / "python"), "-m", "flask", "--app", "scorer", "run", "--port", str(self.port)]
        self.log = where / "server.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(command, cwd=where, env=env, start_new_session=True, stdout=log, stderr=log)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                self.get("/favicon.ico")
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the installed app did not start:\n{self.log.read_text(errors='replace')}")

    def get(self, path: str, **headers: str) -> http.client.HTTPResponse:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.body = response.read()  # type: ignore[attr-defined]
        connection.close()
        return response

    def post_json(self, path: str, body: Any) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        response = connection.getresponse()
        answer = response.status, json.loads(response.read())
        connection.close()
        return answer

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=30)


@pytest.fixture(scope="module")
def server(venv: pathlib.Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    started = Server(venv, tmp_path_factory.mktemp("elsewhere"))
    try:
        yield started
    finally:
        started.stop()


def test_the_installed_package_is_the_wheel_not_the_checkout(venv: pathlib.Path, tmp_path: pathlib.Path) -> None:
    code = "import scorer, scorer.resources as r; print(scorer.__file__); print(r.is_installed())"
    shown = run([str(venv / "bin" / "python"), "-c", code], cwd=tmp_path).stdout.split()
    assert pathlib.Path(shown[0]).is_relative_to(venv)
    assert shown[1] == "True"


def test_the_installed_app_serves_its_pages_files_and_sheet(server: Server) -> None:
    home = server.get("/")
    assert home.status == 200
    assert "Nueva partida" in home.body.decode()  # type: ignore[attr-defined]

    status, made = server.post_json("/api/tables", sample_session())
    assert status == 201, made
    page = server.get(f"/t/{made['edit_token']}")
    assert page.status == 200
    text = page.body.decode()  # type: ignore[attr-defined]
    assert "Partida de prueba" in text

    sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', text)
    assert sheets
    for href in sheets:
        css = server.get(href)
        assert css.status == 200
        assert css.getheader("Content-Type", "").startswith("text/css")
        assert len(css.body) > 100  # type: ignore[attr-defined]

    worker = server.get("/sw.js")
    assert worker.status == 200
    assert "javascript" in worker.getheader("Content-Type", "")
    assert b"addEventListener" in worker.body  # type: ignore[attr-defined]

    pdf = server.get(f"/tables/{made['view_token']}/sheet.pdf")
    assert pdf.status == 200
    assert pdf.body.startswith(b"%PDF")  # type: ignore[attr-defined]


def test_the_installed_app_speaks_english_from_its_compiled_catalog(server: Server) -> None:
    home = server.get("/", **{"Accept-Language": "en"})
    assert home.status == 200
    text = home.body.decode()  # type: ignore[attr-defined]
    assert "New game" in text
    assert "Nueva partida" not in text

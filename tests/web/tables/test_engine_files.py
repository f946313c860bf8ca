"""The engine for payments offline: what the phone may download, and the one answer of the
app allowed to compile WebAssembly (the worker's)."""

from __future__ import annotations

import gzip
import pathlib
import re
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorer.store.models import Table
from scorer.web.tables.engine_files import PYODIDE_FILES, ROOT

HAVE_PYODIDE = all((ROOT / "node_modules" / "pyodide" / name).is_file() for name in PYODIDE_FILES)
needs_pyodide = pytest.mark.skipif(not HAVE_PYODIDE, reason="node_modules/pyodide missing (scripts/bootstrap.sh)")


@needs_pyodide
def test_the_listing_names_every_file_with_its_compressed_size(client: FlaskClient) -> None:
    listing = client.get("/offline/motor.json").get_json()
    urls = [f["url"] for f in listing["files"]]
    assert {f"/offline/pyodide/{name}" for name in PYODIDE_FILES} <= set(urls)
    engine = sorted(p.name for p in (ROOT / "scorer" / "engine").glob("*.py"))
    python = [u for u in urls if u.startswith("/offline/engine/")]
    assert python == ["/offline/engine/__init__.py", "/offline/engine/hand_fields.py"] + [
        f"/offline/engine/engine/{name}" for name in engine
    ]
    assert listing["bytes"] == sum(f["bytes"] for f in listing["files"]) < 8_000_000  # the target
    for file in listing["files"]:
        sent = client.get(file["url"], headers={"Accept-Encoding": "gzip"})
        assert sent.status_code == 200 and sent.headers["Content-Encoding"] == "gzip"
        assert len(sent.data) == file["bytes"] and len(gzip.decompress(sent.data)) == file["size"]


@needs_pyodide
def test_the_engine_files_are_the_servers_own(client: FlaskClient) -> None:
    served = client.get("/offline/engine/engine/tresillo.py").get_data(as_text=True)
    assert served == (ROOT / "scorer" / "engine" / "tresillo.py").read_text(encoding="utf-8")
    assert client.get("/offline/pyodide/pyodide.asm.wasm").headers["Content-Type"] == "application/wasm"


@pytest.mark.parametrize(
    "url",
    [
        "/offline/pyodide/package.json",
        "/offline/pyodide/../../pyproject.toml",
        "/offline/engine/web/views.py",
        "/offline/engine/../pyproject.toml",
        "/offline/engine/engine/nothing.py",
    ],
)
def test_nothing_else_is_served(client: FlaskClient, url: str) -> None:
    assert client.get(url).status_code == 404


def test_only_the_worker_may_compile_webassembly(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    worker = client.get("/offline/motor.js")
    assert worker.status_code == 200 and worker.mimetype == "text/javascript"
    assert "'wasm-unsafe-eval'" in worker.headers["Content-Security-Policy"]
    table = make_table()
    for url in ("/", f"/t/{table.edit_token}", f"/t/{table.edit_token}/mano", "/static/offline.js", "/sw.js"):
        with client.get(url) as answer:
            policy = answer.headers["Content-Security-Policy"]
        assert "wasm" not in policy and "unsafe-eval" not in policy, url


@needs_pyodide
def test_the_keeper_is_offered_the_download_and_its_size(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    table = make_table()
    size = client.get("/offline/motor.json").get_json()["bytes"]
    page = client.get(f"/t/{table.edit_token}").get_data(as_text=True)
    shown = re.search(r"Preparar para jugar sin conexión \((\d+(?:,\d)?) MB\)", page)
    assert shown is not None and float(shown.group(1).replace(",", ".")) == round(size / 1e6, 1)
    assert "Preparar para jugar" not in client.get(f"/t/{table.view_token}").get_data(as_text=True)


def test_without_the_pyodide_files_nothing_is_offered(make_app: Callable[..., Flask], tmp_path: pathlib.Path) -> None:
    app = make_app(WTF_CSRF_ENABLED=False, PYODIDE_DIR=str(tmp_path / "none"))
    client = app.test_client()
    from tests.web.conftest import sample_session

    token = client.post("/api/tables", json=sample_session()).get_json()["edit_token"]
    assert client.get("/offline/motor.json").status_code == 404
    assert client.get("/offline/pyodide/pyodide.mjs").status_code == 404
    assert 'id="motor"' not in client.get(f"/t/{token}").get_data(as_text=True)

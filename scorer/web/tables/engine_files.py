"""The engine for the phone with no network: ``scorer.engine`` itself, run by Pyodide in a
Web Worker, downloaded only when the keeper asks (or the app is installed).

- ``/offline/motor.json``: what the phone downloads, file by file, with the bytes sent (compressed):
  the table page shows the total before the keeper taps *Preparar para jugar sin conexión*.
- ``/offline/pyodide/<file>``: Pyodide's own files, from the npm package ``pyodide`` that
  ``scripts/bootstrap.sh`` installs into node_modules/ (not committed: ~14 MB); gzip-compressed
  when the phone accepts it (bootstrap leaves a ``.gz`` beside each; otherwise once per process).
- ``/offline/engine/<file>.py``: the engine's Python files, the very ones the server runs.
- ``/offline/motor.js``: the worker (static/engine-worker.js). Its answer alone carries
  ``'wasm-unsafe-eval'`` in its Content-Security-Policy: a worker runs under its own script's
  policy, and no page of the app may compile WebAssembly.

Without the Pyodide files (bootstrap without npm) these answer 404 and the pages offer nothing.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import os
import pathlib
from decimal import Decimal
from typing import Any

from flask import Blueprint, Response, abort, current_app, request

from scorer import words

bp = Blueprint("engine", __name__, url_prefix="/offline")

ROOT = pathlib.Path(__file__).resolve().parents[3]  # the clone (this file is scorer/web/tables/)
ENGINE = ROOT / "scorer" / "engine"
# Pyodide's files a worker needs to run the standard library's Python (no package is loaded)
PYODIDE_FILES = {
    "pyodide.mjs": "text/javascript",
    "pyodide.asm.mjs": "text/javascript",
    "pyodide.asm.wasm": "application/wasm",
    "python_stdlib.zip": "application/zip",
    "pyodide-lock.json": "application/json",
}
WORKER_CSP = (
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; base-uri 'none'; "
    "object-src 'none'; frame-ancestors 'none'"
)


def pyodide_dir() -> pathlib.Path:
    return pathlib.Path(current_app.config.get("PYODIDE_DIR") or ROOT / "node_modules" / "pyodide")


def engine_files() -> list[str]:
    """The Python files the worker writes into Pyodide's file system, as ``scorer/…`` paths."""
    return list(_engine_files())


@functools.lru_cache(maxsize=1)
def _engine_files() -> tuple[str, ...]:
    # the modules of the engine are those the process started with (a new module needs a restart anyway)
    engine = [f"scorer/engine/{p.name}" for p in sorted(ENGINE.glob("*.py"))]
    return ("scorer/__init__.py", "scorer/hand_fields.py", *engine)


@functools.lru_cache(maxsize=16)
def _compressed(path: str, mtime: float) -> bytes:
    """The file gzip-compressed: ``<file>.gz`` beside it when it is there and not older (scripts/bootstrap.sh
    makes those of Pyodide's large files, so no page waits for them), else compressed here once."""
    ready = pathlib.Path(path + ".gz")
    if ready.is_file() and ready.stat().st_mtime >= mtime:
        return ready.read_bytes()
    return gzip.compress(pathlib.Path(path).read_bytes(), 6, mtime=0)


def _send(path: pathlib.Path, mimetype: str) -> Response:
    if not path.is_file():
        abort(404)
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        body = _compressed(str(path), path.stat().st_mtime)
        response = Response(body, mimetype=mimetype)
        response.headers["Content-Encoding"] = "gzip"
    else:
        response = Response(path.read_bytes(), mimetype=mimetype)
    response.headers["Vary"] = "Accept-Encoding"
    return response


def available() -> bool:
    """Whether this server has the Pyodide files (the pages offer offline payments only then)."""
    folder = pyodide_dir()
    return all((folder / name).is_file() for name in PYODIDE_FILES)


@functools.lru_cache(maxsize=4)
def _manifest(folder: str, stamp: str) -> dict[str, Any]:
    files = [(f"pyodide/{name}", pathlib.Path(folder) / name) for name in sorted(PYODIDE_FILES)]
    files += [(f"engine/{name.removeprefix('scorer/')}", ROOT / name) for name in engine_files()]
    listed = []
    for url, path in files:
        sent = len(_compressed(str(path), path.stat().st_mtime))
        listed.append({"url": f"/offline/{url}", "bytes": sent, "size": path.stat().st_size})
    version = json.loads((pathlib.Path(folder) / "package.json").read_text()).get("version", "")
    return {"version": f"{version}-{stamp}", "bytes": sum(f["bytes"] for f in listed), "files": listed}


def manifest() -> dict[str, Any] | None:
    """What the phone downloads: every file with the bytes sent (gzip), their total and a version.

    Every table page of the keeper asks for it: the files are read and hashed again only when one
    of them changed (size or time of change), not for each page (0.3 ms of CPU a page before)."""
    folder = str(pyodide_dir())
    stamps = []
    for path in _watched(folder):
        try:
            found = os.stat(path)
        except OSError:
            return None  # no Pyodide files here (or a file went): no offline payments
        stamps.append((path, found.st_size, found.st_mtime_ns))
    return _stamped_manifest(folder, tuple(stamps))


@functools.lru_cache(maxsize=4)
def _watched(folder: str) -> tuple[str, ...]:
    return (*(os.path.join(folder, name) for name in PYODIDE_FILES), *(str(ROOT / name) for name in _engine_files()))


@functools.lru_cache(maxsize=4)
def _stamped_manifest(folder: str, stamps: tuple[tuple[str, int, int], ...]) -> dict[str, Any] | None:
    if not all(pathlib.Path(path).is_file() for path, _, _ in stamps):
        return None
    digest = hashlib.sha256()
    for name in engine_files():
        digest.update((ROOT / name).read_bytes())
    return _manifest(folder, digest.hexdigest()[:12])


@bp.get("/motor.json")
def motor() -> Response:
    found = manifest()
    if found is None:
        abort(404, "this server has no Pyodide files (scripts/bootstrap.sh installs them with npm)")
    response = current_app.json.response(found)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/pyodide/<name>")
def pyodide_file(name: str) -> Response:
    if name not in PYODIDE_FILES:
        abort(404)
    return _send(pyodide_dir() / name, PYODIDE_FILES[name])


@bp.get("/engine/<path:name>")
def engine_file(name: str) -> Response:
    if f"scorer/{name}" not in engine_files():
        abort(404)
    return _send(ROOT / "scorer" / name, "text/x-python")


@bp.get("/motor.js")
def worker() -> Response:
    response = _send(pathlib.Path(current_app.static_folder or "static") / "engine-worker.js", "text/javascript")
    response.headers["Content-Security-Policy"] = WORKER_CSP  # the only answer that may compile WebAssembly
    return response


@bp.app_context_processor
def offline_engine_context() -> dict[str, Any]:
    """For the table page: ``offline_engine()``, what *Preparar para jugar sin conexión* downloads (or None)."""
    return {"offline_engine": manifest, "megabytes": megabytes}


def megabytes(count: int) -> str:
    """Bytes as megabytes with one decimal, in the page's language ("6,4")."""
    return words.decimal_text(Decimal(count).scaleb(-6).quantize(Decimal("0.1")))

"""The app's files are found from the checkout however it is installed, and the favicon answers."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import ROOT

FAVICON = ROOT / "static" / "favicon.svg"


def test_templates_and_static_files_come_from_the_checkout(app: Flask) -> None:
    """scorer/web finds templates/ and static/ beside the package (an editable install keeps them there)."""
    assert app.template_folder == str(ROOT / "templates")
    assert app.static_folder == str(ROOT / "static")


def test_favicon_is_an_svg_image() -> None:
    root = ET.fromstring(FAVICON.read_text(encoding="utf-8"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("viewBox") == "0 0 32 32"


def test_favicon_ico_answers_with_the_svg(client: FlaskClient) -> None:
    """Browsers ask for /favicon.ico whatever the page says: no 404 in the console."""
    with client.get("/favicon.ico") as response:  # a file response: closed after reading
        assert response.status_code == 200
        assert response.mimetype == "image/svg+xml"
        assert response.get_data() == FAVICON.read_bytes()


def test_every_page_links_the_favicon(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    (href,) = re.findall(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', html)
    with client.get(href) as response:
        assert response.status_code == 200
        assert response.get_data() == FAVICON.read_bytes()


# `import … from "./offline-queue.js";`, on one line or more: the modules a script imports beside it
IMPORT = re.compile(r"""^import\s[^"';]*["']\./([\w.-]+\.js)["']""", re.M)


def module_graph(entry: str) -> set[str]:
    """The script and every module it imports, directly or not (static/ only)."""
    seen: set[str] = set()
    todo = [entry]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += IMPORT.findall((ROOT / "static" / name).read_text(encoding="utf-8"))
    return seen


def shell_files() -> set[str]:
    """The files static/sw.js keeps at install (SHELL_FILES)."""
    worker = (ROOT / "static" / "sw.js").read_text(encoding="utf-8")
    block = re.search(r"var SHELL_FILES = \[(.*?)\];", worker, re.S)
    assert block is not None
    return set(re.findall(r'"/static/([^"]+)"', block[1]))


def test_the_service_worker_keeps_every_script_the_pages_load() -> None:
    """Offline on a first visit after the install: every script base.html loads, and every module the
    offline script imports (directly or not), is in the worker's shell; one missing and the module
    graph fails to load offline, with all of it."""
    base = (ROOT / "templates" / "base.html").read_text(encoding="utf-8")
    loaded = re.findall(r"<script [^>]*filename='([\w.-]+\.js)'", base)
    assert {"i18n.js", "app.js", "offline.js", "reach.js"} <= set(loaded)
    assert re.search(r"""<script type="module" src="[^"]*filename='offline\.js'""", base)
    needed = set().union(*(module_graph(name) for name in loaded))
    assert {"offline-queue.js", "offline-refusals.js", "offline-status.js"} <= needed  # the imports were followed
    assert not needed - shell_files(), f"not kept for offline: {sorted(needed - shell_files())}"


def test_every_offline_module_is_imported() -> None:
    """No offline-*.js file lies beside the others unused (kept in the shell, never loaded)."""
    modules = {path.name for path in (ROOT / "static").glob("offline*.js")}
    assert modules == module_graph("offline.js")

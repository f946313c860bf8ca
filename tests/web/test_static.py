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

"""``/certificado``: the local authority's root certificate for the phones (``scripts/run --https`` with a local name).

A local name (``cartulina.lan``, ``192.168.1.20``…) gets its certificate from Caddy's own authority,
which phones do not trust until its root is installed on them. ``CARTULINA_LOCAL_ROOT`` names that
root's file (Caddy's ``pki/authorities/local/root.crt``; set by scripts/run --https); the page offers
it with its QR code and the steps for Android and iOS. Without it (a public name, no https, the app
alone) the page does not exist (404) and the keeper's table page does not link to it.

The QR code and the link lead to the plain-http address (``CARTULINA_HTTP_PORT``), which Caddy
serves for this page and the file only: a phone that does not trust the root yet reaches them
without a warning.
"""

from __future__ import annotations

import pathlib
from typing import Any

import segno
from flask import Blueprint, Flask, abort, current_app, render_template, request, send_file
from markupsafe import Markup

bp = Blueprint("certificate", __name__)
FILE_NAME = "cartulina-raiz.crt"


def _qr(url: str) -> Markup:
    """The link as an inline SVG QR code (as the table page draws its share links)."""
    return Markup(segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#000", light="#fff"))


def local_root() -> pathlib.Path | None:
    """The root certificate's file when this server offers one (it exists and is configured)."""
    name = current_app.config.get("CARTULINA_LOCAL_ROOT")
    path = pathlib.Path(name) if name else None
    return path if path is not None and path.is_file() else None


def plain_url(path: str) -> str:
    """``path`` at this host over plain http (the port Caddy serves http on)."""
    host = request.host.rsplit(":", 1)[0] if not request.host.endswith("]") else request.host
    port = int(current_app.config.get("CARTULINA_HTTP_PORT") or 80)
    return f"http://{host}{'' if port == 80 else f':{port}'}{path}"


@bp.get("/certificado")
def page() -> Any:
    if local_root() is None:
        abort(404)
    file_url = plain_url(f"/certificado/{FILE_NAME}")
    return render_template("certificate.html", file_url=file_url, file_qr=_qr(file_url), file_name=FILE_NAME)


@bp.get(f"/certificado/{FILE_NAME}")
def root_file() -> Any:
    root = local_root()
    if root is None:
        abort(404)
    # application/x-x509-ca-cert: Android offers to install it, iOS to install it as a profile
    return send_file(root, mimetype="application/x-x509-ca-cert", as_attachment=True, download_name=FILE_NAME)


def init_app(app: Flask) -> None:
    app.config.setdefault("CARTULINA_LOCAL_ROOT", None)
    app.config.setdefault("CARTULINA_HTTP_PORT", 80)
    app.register_blueprint(bp)
    app.context_processor(lambda: {"offers_local_root": local_root})

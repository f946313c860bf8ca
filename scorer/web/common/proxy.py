"""Behind a proxy (Caddy, nginx) and over https: the addresses the browser used, and what https asks.

``CARTULINA_PROXIES`` (default 0) is how many proxies stand in front of the app, each adding its
``X-Forwarded-For``/``-Proto``/``-Host``/``-Port``: Werkzeug's ``ProxyFix`` then takes the client's
address (the creation limit counts each phone, not the proxy), the scheme and the host the browser
asked for from them, so that every absolute link, share link and QR code says ``https://NAME``.
Set it only when such a proxy is really in front: anyone could send those headers straight to the
app otherwise. ``scripts/run --https`` and the files of ``flask generate-config`` set it to 1.

An answer to a request over https (seen through the proxy or not) carries ``Strict-Transport-Security``
(``CARTULINA_HSTS_SECONDS``, one year by default; 0 sends none) and its cookies are ``Secure``: the
session's and every other the app sets. Over plain http (``scripts/run`` at http://127.0.0.1) nothing changes.
"""

from __future__ import annotations

from flask import Flask, Response, request
from werkzeug.middleware.proxy_fix import ProxyFix

HSTS_SECONDS = 365 * 24 * 3600


def proxies(app: Flask) -> int:
    """CARTULINA_PROXIES, checked: create_app asks before it touches the database, so that a wrong
    setting stops the app without a connection left open."""
    app.config.setdefault("CARTULINA_PROXIES", 0)
    count = int(app.config["CARTULINA_PROXIES"] or 0)
    if count < 0:
        raise ValueError(f"CARTULINA_PROXIES must be 0 or more, not {count}")
    return count


def init_app(app: Flask) -> None:
    app.config.setdefault("CARTULINA_HSTS_SECONDS", HSTS_SECONDS)
    if count := proxies(app):
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=count, x_proto=count, x_host=count, x_port=count
        )
    app.after_request(_over_https)


def _over_https(response: Response) -> Response:
    if not request.is_secure:
        return response
    from flask import current_app

    seconds = int(current_app.config["CARTULINA_HSTS_SECONDS"] or 0)
    if seconds > 0:
        response.headers.setdefault("Strict-Transport-Security", f"max-age={seconds}")
    cookies = response.headers.getlist("Set-Cookie")
    if cookies:
        response.headers.setlist("Set-Cookie", [secure_cookie(cookie) for cookie in cookies])
    return response


def secure_cookie(header: str) -> str:
    """A Set-Cookie header with the ``Secure`` attribute (once)."""
    attributes = [part.strip().lower() for part in header.split(";")[1:]]
    return header if "secure" in attributes else f"{header}; Secure"

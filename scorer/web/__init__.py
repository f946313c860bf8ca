"""The Cartulina web app: ``create_app`` binds the extensions, the database and the blueprints."""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import os
import pathlib
import secrets
from collections.abc import Iterator
from typing import Any

import flask_migrate
from flask import Flask, Response, jsonify, render_template, request
from flask_babel import gettext as _
from jinja2 import FileSystemBytecodeCache
from sqlalchemy import event
from werkzeug.exceptions import HTTPException

from scorer import resources
from scorer.store.db import MIGRATIONS, db
from scorer.web import answers
from scorer.web.common import i18n, proxy
from scorer.web.common.extensions import csrf, limiter, migrate

# No inline scripts or styles: JS and CSS live in static files (QR codes are SVG images).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",  # the tokens are in the URLs
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
}


class SafeResponse(Response):
    """A response whose text body can always be encoded (D2).

    Data stored before the input limits may hold a lone surrogate; it is sent as U+FFFD's
    bytes instead of failing the whole page with a 500.
    """

    def set_data(self, value: bytes | str) -> None:
        if isinstance(value, str):
            value = value.encode("utf-8", "replace")
        super().set_data(value)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Create the app: defaults, then instance/config.py, then FLASK_* variables, then ``test_config``."""
    instance = (test_config or {}).get("INSTANCE_PATH") or os.environ.get("FLASK_INSTANCE_PATH")
    instance = instance or resources.default_instance()
    app = Flask(
        "scorer",
        template_folder=str(resources.TEMPLATES),
        static_folder=str(resources.STATIC),
        instance_path=str(pathlib.Path(instance).resolve()),
        instance_relative_config=True,
    )
    app.response_class = SafeResponse
    os.makedirs(app.instance_path, exist_ok=True)
    _configure(app, test_config)
    _bind_extensions(app)
    _register_blueprints(app)
    _finish(app)
    return app


def _configure(app: Flask, test_config: dict[str, Any] | None) -> None:
    """The settings: defaults, instance/config.py, FLASK_* variables, ``test_config``; what follows from them."""
    app.config.from_mapping(
        SECRET_KEY=None,
        SQLALCHEMY_DATABASE_URI="sqlite:///" + os.path.join(app.instance_path, "cartulina.db"),
        SQLITE_BUSY_TIMEOUT=15,  # seconds a writer waits for another one
        MIGRATE_ON_START=True,
        MAX_CONTENT_LENGTH=4 * 1024 * 1024,
        WTF_CSRF_TIME_LIMIT=None,  # a form may stay open for a whole night of Tresillo
        # Over https Flask-WTF would also demand a Referer naming this host; our pages send none
        # (Referrer-Policy: no-referrer, the tokens are in the URLs), so every form would be refused.
        # The CSRF token and the SameSite session cookie are the protection.
        WTF_CSRF_SSL_STRICT=False,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        CONTENT_SECURITY_POLICY=CONTENT_SECURITY_POLICY,
        # The home page lists only the tables this browser created, imported or opened with the edit
        # link (kept in the signed session cookie); True lists every table (a private, single-user instance).
        CARTULINA_HOME_LISTS_ALL=False,
        PERMANENT_SESSION_LIFETIME=dt.timedelta(days=365),  # the remembered tables outlive the browser session
        # The cookie is written only when the session changes. Refreshed on every answer (Flask's default,
        # for a permanent session), any request that left before a save and came back after it (a style
        # sheet, a page the service worker keeps) put back the cookie without the save's message.
        SESSION_REFRESH_EACH_REQUEST=False,
        # Rate limit of table creation and import (new table form, import, POST /api/tables) per client
        # address, Flask-Limiter syntax; counted in memory per process unless RATELIMIT_STORAGE_URI names a
        # shared storage (e.g. "redis://host:6379" for several servers).
        CARTULINA_CREATE_LIMIT="20 per minute;200 per day",
        RATELIMIT_ENABLED=True,
        RATELIMIT_STORAGE_URI="memory://",
        RATELIMIT_HEADERS_ENABLED=True,  # 429 answers carry Retry-After
        # The PDF sheet renders in a child process killed after this many seconds (503); 0 renders in-process.
        SHEET_PDF_TIMEOUT=20.0,
    )
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_prefixed_env()
    if test_config is not None:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret(pathlib.Path(app.instance_path) / "secret_key")
    app.config["SQLALCHEMY_DATABASE_URI"] = database_url(str(app.config["SQLALCHEMY_DATABASE_URI"]))
    _sqlite_options(app)

    # compiled templates kept in the instance folder: a freshly started worker loads them
    # instead of compiling (~100 ms for the table page); keyed by each template's source
    app.jinja_env.bytecode_cache = FileSystemBytecodeCache(_cache_dir(app.instance_path, "jinja"))

    app.json.sort_keys = False  # type: ignore[attr-defined]  # session files keep their key order
    app.json.ensure_ascii = False  # type: ignore[attr-defined]


def _sqlite_options(app: Flask) -> None:
    """SQLite waits SQLITE_BUSY_TIMEOUT seconds for another writer, and is shared by the threads of a worker."""
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        return
    options = dict(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
    connect_args = dict(options.get("connect_args") or {})
    connect_args.setdefault("timeout", float(app.config["SQLITE_BUSY_TIMEOUT"]))
    connect_args.setdefault("check_same_thread", False)
    options["connect_args"] = connect_args
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options


def _bind_extensions(app: Flask) -> None:
    """The extensions bound to the app, the schema brought up to date (once, whatever the workers)."""
    proxy.proxies(app)  # a wrong setting stops the app before the database is touched
    db.init_app(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS))
    csrf.init_app(app)
    limiter.init_app(app)
    i18n.init_app(app)  # Flask-Babel: es (default) and en, the language switch and the glossary

    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            event.listen(db.engine, "connect", _sqlite_pragmas)
        if app.config["MIGRATE_ON_START"]:
            with _file_lock(pathlib.Path(app.instance_path) / "migrate.lock"):
                flask_migrate.upgrade(directory=str(MIGRATIONS))


def _register_blueprints(app: Flask) -> None:
    """The blueprints, one package per concern (README "Architecture"); imported here, when the app is made."""
    from scorer.web.api import entries  # noqa: F401  (the offline queue's route, on the api blueprint)
    from scorer.web.api.penas import bp as pena_api_bp
    from scorer.web.api.routes import bp as api_bp
    from scorer.web.common import pages
    from scorer.web.evening.routes import bp as evening_bp
    from scorer.web.pena.routes import bp as pena_bp
    from scorer.web.tables import hands  # noqa: F401  (the hands' pages, on the tables blueprint)
    from scorer.web.tables.engine_files import bp as engine_bp
    from scorer.web.tables.offline import bp as offline_bp
    from scorer.web.tables.routes import bp as tables_bp
    from scorer.web.tables.sheet import bp as sheet_bp

    pages.init_app(app)  # what every page shares: the 404 page, the fecha filter, quiet background requests
    csrf.exempt(api_bp)  # JSON only: a cross-site form cannot send Content-Type application/json
    csrf.exempt(pena_api_bp)
    app.register_blueprint(api_bp)
    app.register_blueprint(tables_bp)
    app.register_blueprint(evening_bp)
    app.register_blueprint(sheet_bp)
    app.register_blueprint(pena_bp)
    app.register_blueprint(pena_api_bp)
    app.register_blueprint(offline_bp)  # the service worker and the forms it keeps
    answers.init_app(app)  # each player answers each hand (scorer/web/answers/)
    app.register_blueprint(engine_bp)  # the engine in the phone's browser, for payments offline


def _finish(app: Flask) -> None:
    """What comes after the blueprints: the favicon, the headers, the proxy, the certificate, the commands."""
    # browsers ask for /favicon.ico whatever the page links: the same SVG as static/favicon.svg
    app.add_url_rule("/favicon.ico", "favicon", lambda: app.send_static_file("favicon.svg"))
    app.after_request(_security_headers)
    proxy.init_app(app)  # CARTULINA_PROXIES: ProxyFix; over https, HSTS and Secure cookies
    from scorer.web import certificate

    certificate.init_app(app)  # /certificado: the local authority's root for the phones (scripts/run --https)
    from scorer.web.backup import register_commands

    register_commands(app)  # flask --app scorer backup FILE / restore FILE [--merge]
    from scorer.web import server_files

    server_files.register_commands(app)  # flask --app scorer generate-config caddy|gunicorn|systemd|backup-timer
    app.register_error_handler(HTTPException, _http_error)


def _cache_dir(instance: str, name: str) -> str:
    path = pathlib.Path(instance) / "cache" / name
    path.mkdir(parents=True, exist_ok=True)
    return str(path)


def _http_error(exc: HTTPException) -> Any:
    """The API answers every HTTP error as JSON (405 and 413 included); pages get a page in their language for 429."""
    if request.path.startswith("/api/"):
        response = jsonify(error=exc.description or exc.name)
        response.status_code = exc.code or 500
        for name in ("Retry-After", "Allow"):
            value = exc.get_response().headers.get(name)
            if value:
                response.headers[name] = value
        return response
    if exc.code == 429:
        message = _("Demasiadas partidas nuevas desde esta dirección en poco tiempo: espera un poco y vuelve a probar.")
        return render_template("error.html", message=message, status=429), 429
    if exc.code == 413:
        return render_template("error.html", message=_("Lo enviado es demasiado grande."), status=413), 413
    return exc


def database_url(url: str) -> str:
    """Use psycopg (3) for PostgreSQL URLs that name no driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def instance_secret(path: pathlib.Path) -> str:
    """The secret key kept in the instance folder, generated on first run."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_text(encoding="ascii").strip()
        if key:
            return key
        raise RuntimeError(f"{path} is empty: delete it to generate a new secret key") from None
    key = secrets.token_hex(32)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(key + "\n")
    return key


@contextlib.contextmanager
def _file_lock(path: pathlib.Path) -> Iterator[None]:
    """Only one process at a time upgrades the schema (several gunicorn workers start together)."""
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")  # readers do not block the writer
        cursor.execute("PRAGMA synchronous=FULL")  # an acknowledged hand survives a power cut too
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()


def _security_headers(response: Response) -> Response:
    from flask import current_app

    response.headers.setdefault("Content-Security-Policy", current_app.config["CONTENT_SECURITY_POLICY"])
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if request.endpoint not in ("static", "sheet.css"):
        # every page and answer may carry a token (in its links, its body or its own address)
        response.headers["Cache-Control"] = "no-store"
    return response

"""What every HTML page shares, whatever its blueprint: the ``Page`` type of a view's answer, the
refusals of the services as a page in the reader's language, the app-wide 404 page, the ``fecha``
filter, the suit symbols of the macros and the quiet session of background requests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Flask, g, has_request_context, jsonify, render_template, request
from flask.sessions import SecureCookieSessionInterface
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from scorer import store, words
from scorer.web.common import messages

Page = str | tuple[str, int] | BaseResponse


def refusal(exc: store.ServiceError) -> str:
    """A refusal of the services as the pages say it (an unknown link is "this table does not exist")."""
    if isinstance(exc, store.NotFound):
        return messages.render("not_found")
    return messages.message(exc)


def refusals_as_pages(bp: Blueprint, words_of: Callable[[store.ServiceError], str] = refusal) -> None:
    """The blueprint answers the services' refusals (unknown link, view link that writes, conflict) with a page."""

    def service_error(exc: store.ServiceError) -> tuple[str, int]:
        return render_template("error.html", message=words_of(exc), status=exc.status), exc.status

    bp.register_error_handler(store.ServiceError, service_error)


class QuietSessions(SecureCookieSessionInterface):
    """The usual signed-cookie sessions, except that a background request (the live preview of the
    hand form, the view page's poll) never rewrites the cookie: its answer could arrive after
    Guardar's and put back the cookie without the message Guardar left ("Mano 9 anotada")."""

    def should_set_cookie(self, app: Any, session: Any) -> bool:
        return not g.get("quiet_session") and super().should_set_cookie(app, session)

    def get_cookie_secure(self, app: Any) -> bool:
        """``Secure`` when the page came over https (common/proxy.py), whatever SESSION_COOKIE_SECURE says."""
        return bool(super().get_cookie_secure(app)) or (has_request_context() and request.is_secure)


def not_found(_exc: Exception) -> tuple[str, int] | Any:
    if request.path.startswith("/api/"):
        return jsonify(error="not found"), 404
    return render_template("error.html", message=_("Esta página no existe."), status=404), 404


def fecha(value: Any) -> str:
    """Dates as dd/mm/aaaa on every page."""
    return words.date_text(value)


def per_revision(table: Any, name: str, caller: Callable[[], str]) -> Markup:
    """``{% call per_revision(table, name) %}…{% endcall %}``: the block's HTML, made once per revision
    of the table and language of the page, then shared by every page that shows it (the table page's
    turns, plato, balances and cartulina: half its rendering). Only for blocks that depend
    on nothing but the table's state and ``name``: no form token, no answers, nothing of the request;
    put what else they show (the link's token, edit or view) in ``name``."""
    return store.read(table).kept(f"html:{name}", lambda: Markup(caller()))


_by_language = store.page_cache(64)  # (name, language) → Markup


def per_language(name: str, caller: Callable[[], str]) -> Markup:
    """``{% call per_language(name) %}…{% endcall %}``: the block's HTML, made once per language of the
    page in this process (the words of the scripts every page carries). Only for blocks whose HTML is
    the same for every page of that language and ``name``."""
    made: Markup = _by_language.made((name, words.language()), lambda: Markup(caller()))
    return made


# (key, language) → Markup: blocks drawn from an immutable view-model, whatever table or revision shows them
_by_content = store.page_cache(4096)


def per_content(key: Any, caller: Callable[[], str]) -> Markup:
    """``{% call per_content(key) %}…{% endcall %}``: the block's HTML, made once per value of ``key`` and
    language of the page, then shared by every page and revision that shows the same. ``key`` is the
    frozen view-model the block is drawn from and nothing else (a cartulina box: after a hand is saved
    only the boxes it changed are drawn again; a box of someone who left years of hands ago never is)."""
    made: Markup = _by_content.made((key, words.language()), lambda: Markup(caller()))
    return made


def init_app(app: Flask) -> None:
    if type(app.session_interface) is SecureCookieSessionInterface:
        app.session_interface = QuietSessions()
    # the suit chips' symbols, the same as everywhere (a Jinja global: the macros see it without context)
    app.jinja_env.globals.update(
        SUIT_SYMBOLS=words.SUIT_SYMBOLS, per_revision=per_revision, per_language=per_language, per_content=per_content
    )
    app.add_template_filter(fecha, "fecha")
    app.register_error_handler(404, not_found)

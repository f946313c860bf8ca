"""Languages of the web app: Flask-Babel set-up, the language switch and the glossary.

The page language is, in order: the choice remembered in the ``lang`` cookie (set by the
"Español · English" switch of every page, ``GET /idioma/<lang>``), else the best match of the
browser's ``Accept-Language``, else Spanish. Spanish is the source language (the msgids are the
Spanish text); English is the translation in ``translations/``. The game's own words stay
Spanish in English pages; ``/glosario`` explains them.
"""

from __future__ import annotations

import contextlib
from typing import Any
from urllib.parse import urlsplit

import flask_babel
from flask import (
    Blueprint,
    Flask,
    Response,
    appcontext_pushed,
    g,
    has_app_context,
    has_request_context,
    redirect,
    render_template,
    request,
)
from flask_babel import Babel, get_locale
from flask_babel import lazy_gettext as _l
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from scorer import words
from scorer.catalogs import DEFAULT_LANGUAGE, LANGUAGES, TRANSLATIONS, ensure_compiled

COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600  # remembered for a year, like the tables of this browser
LANGUAGE_NAMES = {"es": "Español", "en": "English"}  # each in its own language: never translated
# the languages named inside a sentence, in the sentence's language ("The sheet prints in Spanish")
LANGUAGE_WORDS = {"es": _l("español"), "en": _l("inglés")}

bp = Blueprint("i18n", __name__)


def select_locale() -> str:
    """The remembered choice, else the browser's best match, else Spanish."""
    if not has_request_context():
        return DEFAULT_LANGUAGE
    g.language_negotiated = True
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return str(chosen)
    return request.accept_languages.best_match(LANGUAGES) or DEFAULT_LANGUAGE


def translations() -> Any:
    """Flask-Babel's translations for the locale in force (it follows ``force_locale``), looked up once.

    ``flask_babel.get_translations()`` resolves the context, the domain and the locale's name on
    every call: about 15 µs, paid by each of the 100–200 words of a page. The translations are kept
    beside Flask-Babel's own per-request locale and looked up again only when that locale object
    changes (``force_locale`` sets a new one and puts the old one back; ``refresh`` drops it).
    """
    ns = g.get("_flask_babel")
    if ns is not None:
        kept = getattr(ns, "cartulina_translations", None)
        if kept is not None and kept[0] is getattr(ns, "babel_locale", None):
            return kept[1]
    found = flask_babel.get_translations()
    ns = g.get("_flask_babel")
    if ns is not None:  # get_translations has made it and set the locale
        ns.cartulina_translations = (getattr(ns, "babel_locale", None), found)
    return found


def _said(context: Context, text: str, variables: dict[str, Any]) -> str:
    """As Jinja's newstyle gettext: escaped in an autoescaped template, always a format string."""
    return (Markup(text) if context.eval_ctx.autoescape else text) % variables


@pass_context
def _gettext(context: Context, string: str, **variables: Any) -> str:
    return _said(context, translations().ugettext(string), variables)


@pass_context
def _ngettext(context: Context, singular: str, plural: str, num: int, **variables: Any) -> str:
    return _said(context, translations().ungettext(singular, plural, num), {"num": num, **variables})


@pass_context
def _pgettext(context: Context, string_ctx: str, string: str, **variables: Any) -> str:
    return _said(context, translations().upgettext(string_ctx, string), {"context": string_ctx, **variables})


@pass_context
def _npgettext(context: Context, string_ctx: str, singular: str, plural: str, num: int, **variables: Any) -> str:
    text = translations().unpgettext(string_ctx, singular, plural, num)
    return _said(context, text, {"context": string_ctx, "num": num, **variables})


def _install_fast_gettext(app: Flask) -> None:
    """The templates' ``_``, ``gettext``, ``ngettext``, ``pgettext`` and ``npgettext``: Jinja's newstyle
    gettext (the same escaping and formatting), without its two extra calls through the template
    context per word and with :func:`translations` instead of Flask-Babel's lookup per word.
    Measured: 17 µs a word before, a few µs after (the table page says about 150 words)."""
    app.jinja_env.globals.update(
        _=_gettext, gettext=_gettext, ngettext=_ngettext, pgettext=_pgettext, npgettext=_npgettext
    )


class PageTongue:
    """The page's language for :mod:`scorer.words`, read from Flask-Babel's context (it follows
    ``force_locale``); Spanish outside an app context."""

    @property
    def language(self) -> str:
        locale = get_locale() if has_app_context() else None
        return locale.language if locale is not None else DEFAULT_LANGUAGE

    def gettext(self, message: str) -> str:
        return translations().gettext(message) if has_app_context() else message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        if has_app_context():
            return translations().ngettext(singular, plural, n)
        return singular if n == 1 else plural


PAGE_TONGUE = PageTongue()


def _speak_the_page(app: Flask, **_extra: Any) -> None:
    """While an app context of ``app`` is pushed, :mod:`scorer.words` speaks the page's language."""
    if "speaking" not in g:
        g.speaking = contextlib.ExitStack()
        g.speaking.enter_context(words.speaking(PAGE_TONGUE))


def _stop_speaking(_exc: BaseException | None) -> None:
    stack = g.pop("speaking", None)
    if stack is not None:
        with contextlib.suppress(ValueError):  # popped in another context than it was pushed in: nothing to undo
            stack.close()


def current_language() -> str:
    """The language of the page being rendered (``es`` outside a request)."""
    locale = get_locale()
    return locale.language if locale is not None else DEFAULT_LANGUAGE


def init_app(app: Flask) -> None:
    ensure_compiled()
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    # one Babel per app: Flask-Babel caches the loaded catalogs on its Babel object, by locale only
    Babel(app, locale_selector=select_locale)
    _install_fast_gettext(app)
    # numbers, money, dates and the interface words of scorer.words follow the page (or force_locale)
    appcontext_pushed.connect(_speak_the_page, app)
    app.teardown_appcontext(_stop_speaking)
    app.register_blueprint(bp)
    app.context_processor(_template_values)
    app.after_request(_vary)


def _template_values() -> dict[str, Any]:
    return {
        "current_lang": current_language(),
        "language_names": LANGUAGE_NAMES,
        "language_words": LANGUAGE_WORDS,
        "languages": LANGUAGES,
    }


def _vary(response: Response) -> Response:
    """Pages whose language was negotiated vary by the header and the cookie that chose it."""
    if g.get("language_negotiated"):
        for header in ("Accept-Language", "Cookie"):
            response.vary.add(header)
    return response


def safe_next(target: str | None) -> str:
    """A same-site path to go back to after switching language; anything else goes home."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target


@bp.get("/idioma/<lang>")
def switch(lang: str) -> Any:
    """Remember the chosen language in a cookie and go back to the page (works without JS)."""
    response = redirect(safe_next(request.args.get("next")), 303)
    if lang in LANGUAGES:
        response.set_cookie(COOKIE, lang, max_age=COOKIE_AGE, samesite="Lax", httponly=True, path="/")
    return response


@bp.get("/glosario")
def glossary() -> str:
    """The Spanish game words that English pages keep, explained in the page's language."""
    return render_template("glossary.html", glossary=GLOSSARY)


# The glossary: each game word (never translated) and its meaning (translated).
GLOSSARY = (
    ("jugador", _l("Quien juega el lance contra los otros dos y ha de ganar más bazas que cada uno de ellos.")),
    ("lance", _l("Cada mano jugada: quién juega, de qué manera y cómo acaba.")),
    ("entrada", _l("El jugador cambia cartas con el monte antes de elegir triunfo.")),
    ("vuelta", _l("El jugador vuelve la primera carta del monte: su palo es el triunfo.")),
    ("solo", _l("El jugador juega con las cartas que le dieron, sin cambiar ninguna.")),
    ("triunfo", _l("El palo que gana a los demás en esa mano.")),
    ("palo de favor", _l("Un palo fijado para la partida: el lance jugado en ese palo cobra más.")),
    ("plato", _l("El fondo común de la mesa: se llena con las puestas y se lo lleva quien gana un lance.")),
    ("cartulina", _l("La hoja de anotar la partida: lances, puestas y el saldo de cada cual.")),
    (
        "puesta",
        _l(
            "Lo que paga el jugador que pierde el lance (por puesta o por codillo) o se rinde: va al plato "
            "si está sin puesta; si no, se apunta en la cartulina como puesta reservada y entra en el plato "
            "cuando se gane. En una rendida defendida la puede hacer el defensor."
        ),
    ),
    (
        "codillo",
        _l(
            "Uno de la contra gana más bazas que el jugador y que el otro: el jugador pierde, hace la puesta "
            "(salvo en un solo) y además se la paga a él."
        ),
    ),
    ("primeras", _l("Ganar las cinco primeras bazas seguidas: se cobra aparte.")),
    ("bola", _l("Ganar las nueve bazas: se cobra aparte.")),
    (
        "estuches",
        _l("Espada, mala y basto en la mano del jugador, más los triunfos que les siguen sin hueco: se cobran aparte."),
    ),
    ("rendida", _l("El jugador se rinde antes de jugar la cuarta baza: paga sin jugar la mano.")),
    ("contra", _l("Los dos que juegan contra el jugador en una mano.")),
    ("defensor", _l("En una entrada rendida, el de la contra que sigue jugando la mano contra quien se rindió (R28).")),
    (
        "alcalde",
        _l("En una mesa de cuatro, quien da las cartas y no juega esa mano, aunque paga y cobra como los demás."),
    ),
    (
        "mano, medio, postre",
        _l(
            "El orden de los tres jugadores de la mano: el primero, el segundo y el último en hablar. Se dicen "
            "en español los tres en todas las páginas (una «mano» es también cada reparto: en inglés, «hand»)."
        ),
    ),
    ("ajuste", _l("Una corrección de dinero entre personas fuera de las manos (renuncio, mal reparto…).")),
    ("peña", _l("Un grupo fijo de amigos que juega a menudo: guarda sus veladas y la cuenta de cada uno.")),
    ("tanto", _l("La unidad de la cuenta: cada tanto vale lo que la mesa acuerde en dinero.")),
    ("renuncio", _l("No seguir el palo pudiendo hacerlo: quien lo hace paga.")),
    # the other games' words, kept in Spanish like Tresillo's
    (
        "pozo, viuda",
        _l(
            "Los dos botes del pozo y viuda: el pozo se lo lleva quien gana el lance; la viuda, las grandes "
            "jugadas (bola, contrabola, roben a favor), y todos la vuelven a llenar."
        ),
    ),
    (
        "juego, volteo, roben, contrabola",
        _l(
            "Los lances del pozo y viuda: juego cambiando cartas, volteo con el triunfo de la carta vuelta, "
            "roben sin cambiar ninguna, contrabola sin hacer ni una baza."
        ),
    ),
    (
        "premio",
        _l(
            "En el pozo y viuda, lo que vale el lance (volteo 5, roben 10…): el jugador lo cobra de cada uno si "
            "gana y lo paga a cada uno si pierde."
        ),
    ),
    ("bote", _l("En el Ombre, el fondo común: lo llenan las puestas y se lo lleva quien hace sacada.")),
    (
        "sacada, codille",
        _l("En el Ombre, ganar el lance (sacada) o perderlo ante un defensor que hace más bazas (codille)."),
    ),
    ("juego de bandos", _l("Seis jugadores en dos equipos, A y B: cada mano gana tantos el equipo de las primeras.")),
    ("capote", _l("En el juego de bandos, un equipo hace las seis bazas: cada uno de sus jugadores gana 2 tantos.")),
    ("falta, fuera de turno", _l("En el juego de bandos, jugar fuera de turno o hacer renuncio: cuesta tantos.")),
)

"""The session sheet as a page: HTML (the web app's page) and an A4 PDF (WeasyPrint), and the PDF
within a time budget in a child process (D1), for the web app.

The sheet takes what it draws as arguments: the session, its ledger, the game's words
(:class:`scorer.games.GameWords`, by default the session's rule set's) and the tongue to print in
(:class:`scorer.words.Tongue`, by default the one being spoken): the web app and the command line
(``scorer sheet``) call the same functions. Nothing here imports the web app. What the sheet shows
is :func:`scorer.sheet.context.sheet_context`; the PDF's hand lines, :mod:`scorer.sheet.lines`.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import threading
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import jinja2
from markupsafe import Markup

from scorer.games import GameWords
from scorer.words import Tongue, speaking
from scorer.words import tongue as spoken

from .context import sheet_context
from .lines import banded, hand_lines, pdf_cartulina
from .printed import TEMPLATES, printed_environment
from .text import red_suits

CSS_PATH = TEMPLATES / "sheet" / "sheet.css"


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    environment = printed_environment()
    environment.filters["red_suits"] = red_suits
    return environment


def sheet_css() -> str:
    return CSS_PATH.read_text(encoding="utf-8")


@lru_cache(maxsize=2)
def _parsed_sheet_css(_changed: int) -> Any:
    """sheet.css parsed by WeasyPrint once per process (and per change of the file): parsing it took
    about a sixth of a 200-hand sheet's CPU. Given to ``write_pdf`` as a user stylesheet, so the
    ``@page`` words of :func:`scorer.sheet.printed.margins_css`, in the page itself, still come after
    it. Read-only once made: every render (and every forked renderer, :func:`_warm_up`) shares it."""
    import weasyprint  # type: ignore[import-untyped]

    return weasyprint.CSS(string=sheet_css(), base_url=str(TEMPLATES / "sheet"))


def render_html(
    session: dict[str, Any],
    ledger: dict[str, Any],
    *,
    game: GameWords | None = None,
    tongue: Tongue | None = None,
    css_href: str | None = None,
    links: Mapping[str, str | None] | None = None,
    addenda: Sequence[Markup] = (),
) -> str:
    """The sheet as a complete HTML page, in ``tongue`` (by default the language being spoken).

    The CSS is inlined unless ``css_href`` links it (for a strict Content-Security-Policy);
    ``links`` (``pdf``, ``back``) add a screen-only navigation line, hidden when printed;
    ``addenda`` are sections made elsewhere, printed after the final accounts (the players' answers).
    """
    with speaking(tongue or spoken()):
        context = sheet_context(session, ledger, game=game)
        template = _environment().get_template("sheet/sheet.html")
        return template.render(
            sheet=context,
            css_href=css_href,
            css=None if css_href else Markup(sheet_css()),
            links=dict(links or {}),
            pdf_lines=None,
            addenda=addenda,
        )


def render_pdf(
    session: dict[str, Any],
    ledger: dict[str, Any],
    *,
    game: GameWords | None = None,
    tongue: Tongue | None = None,
    addenda: Sequence[Markup] = (),
) -> bytes:
    """The sheet as an A4 PDF (WeasyPrint lays out every page), in ``tongue`` (by default the one being spoken);
    ``addenda`` as in :func:`render_html`."""
    import weasyprint  # imported lazily: heavy, and only the sheet needs it

    with speaking(tongue or spoken()):
        context = sheet_context(session, ledger, game=game)
        if "cartulina" in context:
            context["cartulina"] = pdf_cartulina(context["cartulina"])
        template = _environment().get_template("sheet/sheet.html")
        html = template.render(
            sheet=context,
            css_href=None,
            css=Markup(""),  # sheet.css comes parsed (below); the page keeps only its @page words (margins_css)
            links={},
            pdf_lines=banded(hand_lines(context)),
            addenda=addenda,
        )
    with _collector_paused():
        document = weasyprint.HTML(string=html, base_url=str(TEMPLATES / "sheet"))
        pdf = document.write_pdf(stylesheets=[_parsed_sheet_css(CSS_PATH.stat().st_mtime_ns)])
    assert pdf is not None
    return bytes(pdf)


@contextlib.contextmanager
def _collector_paused() -> Any:
    """Python's cycle collector off while WeasyPrint lays out and writes the PDF.

    WeasyPrint makes hundreds of thousands of small objects (boxes, styles, text runs): each
    allocation burst starts a collection that walks them, and every third one walks the whole
    process too (a web worker's caches included). Paused, a 200-hand sheet takes 10–20 % less CPU
    (bench/sheet.py). What it leaves for the collector is freed once it is back on; the web app
    renders in a child process that ends after the sheet anyway (:func:`render_pdf_within`)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


# ---------------------------------------------------------------- a budget for the PDF (D1)


class RenderTimeout(Exception):
    """The PDF took longer than its budget; its renderer was killed."""


_warm_lock = threading.Lock()
_warm = False


def _warm_up() -> None:
    """Import WeasyPrint and load its fonts once in this process, so that every forked renderer starts warm."""
    global _warm
    with _warm_lock:
        if not _warm:
            render_pdf({"format": "tresillo-session/1", "players": ["Ana", "Benito", "Carmen"], "hands": []}, {})
            _warm = True


def _render_child(connection: Any, session: dict[str, Any], ledger: dict[str, Any], options: dict[str, Any]) -> None:
    try:
        connection.send((True, render_pdf(session, ledger, **options)))
    except Exception as exc:  # the parent raises it again
        connection.send((False, f"{type(exc).__name__}: {exc}"))
    finally:
        connection.close()


def render_pdf_within(
    session: dict[str, Any],
    ledger: dict[str, Any],
    timeout: float,
    *,
    game: GameWords | None = None,
    tongue: Tongue | None = None,
    addenda: Sequence[Markup] = (),
) -> bytes:
    """:func:`render_pdf` in a child process killed after ``timeout`` seconds (RenderTimeout).

    A sheet that cannot be drawn in time never holds a web worker for longer than that;
    ``timeout`` 0 (or less) renders in this process without a limit.
    """
    options = {"game": game, "tongue": tongue or spoken(), "addenda": tuple(addenda)}
    if timeout <= 0:
        return render_pdf(session, ledger, game=game, tongue=tongue or spoken(), addenda=tuple(addenda))
    ok, payload = _in_child(session, ledger, timeout, options)
    if not ok:
        raise RuntimeError(payload)
    return bytes(payload)


def _in_child(
    session: dict[str, Any], ledger: dict[str, Any], timeout: float, options: dict[str, Any]
) -> tuple[bool, Any]:
    """(True, the PDF) or (False, why it failed) from a forked renderer, killed after ``timeout`` seconds."""
    _warm_up()
    context = multiprocessing.get_context("fork")  # a copy of this warm process; nothing to import again
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_render_child, args=(send, session, ledger, options), daemon=True)
    process.start()
    send.close()
    try:
        if not receive.poll(timeout):
            raise RenderTimeout(f"the sheet took more than {timeout:g} s")
        answer: tuple[bool, Any] = receive.recv()
        return answer
    except EOFError:
        raise RuntimeError("the sheet's renderer died") from None
    finally:
        receive.close()
        if process.is_alive():
            process.kill()
        process.join(5)

"""The Jinja environment of the printed sheets' templates (the session sheet, the peña's season):
they speak the language being spoken (:func:`scorer.words.speaking`), with the page's ``lang`` and,
in another language than Spanish, the running header and page numbers in it."""

from __future__ import annotations

import jinja2
from markupsafe import Markup

from scorer import resources
from scorer.words import tongue as spoken
from scorer.words import translate as _

TEMPLATES = resources.TEMPLATES


def install_i18n(environment: jinja2.Environment) -> jinja2.Environment:
    """``_()`` and ``ngettext()`` in a printed sheet's templates, in the language being spoken
    (:func:`scorer.words.speaking`: the sheet's tongue; Spanish, the msgids, by default)."""
    environment.add_extension("jinja2.ext.i18n")
    environment.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: spoken().gettext(s),
        ngettext=lambda s, p, n: spoken().ngettext(s, p, n),
        newstyle=True,
    )
    environment.globals["page_lang"] = page_lang
    environment.globals["margins_css"] = margins_css
    return environment


def page_lang() -> str:
    """The language the sheet is printed in, for ``<html lang>``: the one being spoken, else Spanish."""
    return spoken().language or "es"


def _css_text(text: str) -> str:
    """``text`` as the inside of a CSS string."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ").replace("\n", " ")


def margins_css(header: bool = True) -> Markup:
    """The PDF's running header and page numbers in the printed language (the stylesheets say them in
    Spanish): an ``@page`` rule after them, nothing when the sheet prints in Spanish."""
    if page_lang() == "es":
        return Markup("")
    page, pages = "\ue000", "\ue001"  # where the counters go, whatever the words' order
    numbers = _css_text(_("Página %(page)s de %(pages)s", page=page, pages=pages))
    numbers = numbers.replace(page, '" counter(page) "').replace(pages, '" counter(pages) "')
    rules = f'@bottom-center {{ content: "{numbers}"; }}'
    if header:
        title = _css_text(_("Cartulina · hoja de la sesión"))
        rules = f'@top-right {{ content: "{title}"; }} ' + rules
    return Markup(f"\n@page {{ {rules} }}")


def printed_environment() -> jinja2.Environment:
    """A Jinja environment of the printed sheets' templates (the session sheet, the peña's season), speaking
    the language being spoken (:func:`install_i18n`)."""
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    return install_i18n(environment)

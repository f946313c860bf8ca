"""The compiled catalogs of Cartulina's languages, for whoever prints outside a page.

Spanish is the source (the msgids are the Spanish text), English the translation in
``translations/``. The web app reads the same catalogs through Flask-Babel; the sheet printed by
the command line (``scorer sheet --language en``) loads them here. Babel only, no Flask.
"""

from __future__ import annotations

import gettext
import os
import pathlib
from functools import lru_cache

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from scorer import resources
from scorer.words import SPANISH, Catalog

LANGUAGES = ("es", "en")
DEFAULT_LANGUAGE = "es"


def language_or_default(value: object) -> str:
    """``value`` if it names a supported language, else Spanish (stored tables, imported files)."""
    return value if isinstance(value, str) and value in LANGUAGES else DEFAULT_LANGUAGE


TRANSLATIONS = resources.TRANSLATIONS


def ensure_compiled(directory: pathlib.Path = TRANSLATIONS) -> None:
    """Compile a catalog whose .mo is missing or older than its .po (a checkout run without bootstrap).

    ``scripts/bootstrap.sh`` compiles them at install (``scripts/i18n compile``); this is the safety net
    for tests and development, written atomically so that several workers may start together.
    """
    if resources.is_installed():
        return  # a wheel carries its catalogs compiled at build time (and site-packages may be read-only)
    for po in directory.glob("*/LC_MESSAGES/messages.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as handle:
            catalog = read_po(handle, locale=po.parent.parent.name)
        partial = mo.with_name(f".{mo.name}.{os.getpid()}")
        try:
            with partial.open("wb") as handle:
                write_mo(handle, catalog, use_fuzzy=False)
            os.replace(partial, mo)
        except OSError:  # a read-only checkout: the pages stay Spanish until bootstrap compiles them
            partial.unlink(missing_ok=True)


@lru_cache(maxsize=len(LANGUAGES))
def catalog(language: str) -> Catalog:
    """The tongue of ``language`` ("es" or "en") with its compiled catalog (ValueError for another)."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language: {language!r} (one of {', '.join(LANGUAGES)})")
    if language == DEFAULT_LANGUAGE:
        return SPANISH
    ensure_compiled()
    translations = gettext.translation("messages", str(TRANSLATIONS), languages=[language], fallback=True)
    return Catalog(language, translations)

"""Where the app's files are: in a checkout, or in an installed wheel.

``templates/``, ``static/`` and ``translations/`` live at the top of the repository (the design
card's layout). A wheel cannot install folders beside the package, so the build (``setup.py``)
copies them into the package as ``scorer/_files/`` with the compiled catalogs. Whoever needs one of
these folders asks here: the installed copy when there is one, the checkout's otherwise (an
editable install, the tests, ``scripts/run``).
"""

from __future__ import annotations

import pathlib
import sys

PACKAGE = pathlib.Path(__file__).resolve().parent
INSTALLED = PACKAGE / "_files"
CHECKOUT = PACKAGE.parent


def is_installed() -> bool:
    """True when the package runs from a wheel (its own copy of the folders), not from a checkout."""
    return INSTALLED.is_dir()


def folder(name: str) -> pathlib.Path:
    """The folder ``name`` (templates, static or translations) wherever this copy of the package finds it."""
    return INSTALLED / name if is_installed() else CHECKOUT / name


def default_instance() -> pathlib.Path:
    """The instance folder when none is set: ``instance/`` in a checkout, ``<prefix>/var/cartulina-instance``
    once installed (Flask's place for an installed package; never inside site-packages)."""
    if is_installed():
        return pathlib.Path(sys.prefix) / "var" / "cartulina-instance"
    return CHECKOUT / "instance"


TEMPLATES = folder("templates")
STATIC = folder("static")
TRANSLATIONS = folder("translations")

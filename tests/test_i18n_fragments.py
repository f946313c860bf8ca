"""Issue 13: every string wrapped for translation in a helper's files has a real English entry in that
helper's fragment (translations/fragments/<branch>.po), with the same ``%(name)s`` holes.

The lead assembles ``translations/en/LC_MESSAGES/messages.po`` from the fragments; this catches a wrapped
string with no English (it would show Spanish on an English page) and an English entry whose holes do
not match (a KeyError or a lost value at render time).
"""

from __future__ import annotations

import pathlib
import re

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

ROOT = pathlib.Path(__file__).resolve().parent.parent
FRAGMENTS = ROOT / "translations" / "fragments"
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "_l": None, "lazy_gettext": None}

# the files each fragment covers (I18N.md)
FILES = {
    "i18n-pages.po": [
        *(
            f"templates/{name}.html"
            for name in ("home", "new_table", "table", "hand_form", "hand_game", "hands", "hand", "confirm")
        ),
        *(f"templates/{name}.html" for name in ("error", "import", "_macros", "_i18n_js")),
        "scorer/web/views.py",
        "scorer/web/offline.py",
    ],
}

HOLE = re.compile(r"%\((\w+)\)s")


def extracted(files: list[str]) -> set[str | tuple[str, str]]:
    found: set[str | tuple[str, str]] = set()
    for name in files:
        method = "python" if name.endswith(".py") else "jinja2"
        for _line, message, _comments, _context in extract_from_file(method, ROOT / name, keywords=KEYWORDS):
            found.add(message if isinstance(message, str) else (message[0], message[1]))
    return found


def fragment(name: str) -> dict[str | tuple[str, str], str | tuple[str, ...]]:
    with open(FRAGMENTS / name, "rb") as f:
        catalog = read_po(f, locale="en")
    entries: dict[str | tuple[str, str], str | tuple[str, ...]] = {}
    for m in catalog:
        if m.id:
            key = m.id if isinstance(m.id, str) else (m.id[0], m.id[1])
            entries[key] = m.string if isinstance(m.string, str) else tuple(m.string)
    return entries


@pytest.mark.parametrize("name", sorted(FILES))
def test_every_wrapped_string_has_english(name: str) -> None:
    wanted = extracted(FILES[name])
    entries = fragment(name)
    assert wanted, "nothing extracted: the files are not wrapped"
    assert sorted(map(str, wanted - entries.keys())) == []  # wrapped, no English
    assert sorted(map(str, entries.keys() - wanted)) == []  # English for a string no longer there
    empty = [key for key, value in entries.items() if not value or (isinstance(value, tuple) and not all(value))]
    assert empty == []


@pytest.mark.parametrize("name", sorted(FILES))
def test_english_has_the_same_holes(name: str) -> None:
    for key, value in fragment(name).items():
        ids = [key] if isinstance(key, str) else list(key)
        forms = [value] if isinstance(value, str) else list(value)
        holes = {h for i in ids for h in HOLE.findall(i)}
        for form in forms:
            # ngettext's num may be left out of a singular ("1 entry"), never invented
            assert set(HOLE.findall(form)) <= holes, (key, form)
            assert holes - {"num"} <= set(HOLE.findall(form)), (key, form)

"""The catalogs of the two languages: complete, not fuzzy, fresh with the sources.

``scripts/i18n check`` is the check the Makefile (``make i18n-check``) and CI run; these tests run it
and read the .po files themselves, so that a failure names what is wrong.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys

from babel.messages.pofile import read_po

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "i18n"


def catalog(language: str):  # type: ignore[no-untyped-def]
    with (ROOT / "translations" / language / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle, locale=language)


def test_the_check_passes() -> None:
    """No untranslated or fuzzy entry in es and en; the .pot and the .po hold every msgid of the sources."""
    done = subprocess.run([sys.executable, str(SCRIPT), "check"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr


def test_english_is_complete_and_not_fuzzy() -> None:
    entries = [m for m in catalog("en") if m.id]
    assert len(entries) > 200  # the catalog of refusals alone has ~200 strings
    for message in entries:
        assert not message.fuzzy, message.id
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(s.strip() for s in strings), message.id


def test_spanish_is_the_source_text() -> None:
    spanish = [m for m in catalog("es") if m.id]
    assert {m.id for m in spanish} == {m.id for m in catalog("en") if m.id}
    for message in spanish:
        assert not message.fuzzy
        if isinstance(message.id, str):
            assert message.string == message.id


def test_every_string_of_the_sources_is_in_the_catalogs() -> None:
    """Extract the sources again (babel.cfg): each msgid has an entry in both catalogs."""
    import importlib.machinery
    import importlib.util

    loader = importlib.machinery.SourceFileLoader("i18n_script", str(SCRIPT))
    spec = importlib.util.spec_from_loader("i18n_script", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    wanted = {m.id if isinstance(m.id, str) else m.id[0] for m in module.sources_catalog() if m.id}
    assert "Con {split} la mano no está decidida: anota las bazas que faltan." in wanted  # messages.py
    assert "Glosario" in wanted  # base.html
    for language in ("es", "en"):
        have = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog(language) if m.id}
        assert not wanted - have, (language, sorted(wanted - have)[:10])


def test_compiled_catalogs_are_not_committed() -> None:
    """The .mo are built at install (scripts/bootstrap.sh → scripts/i18n compile) and ignored by git."""
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8")
    assert "translations/*/LC_MESSAGES/*.mo" in ignored
    assert "scripts/i18n compile" in (ROOT / "scripts" / "bootstrap.sh").read_text(encoding="utf-8")

"""The build hook: the app's folders travel in the wheel (everything else is in pyproject.toml).

``templates/``, ``static/`` and ``translations/`` stay at the top of the repository; a wheel gets a
copy of them inside the package, as ``scorer/_files/``, with the catalogs compiled (``.mo``), and
``scorer/resources.py`` finds them there once installed. An editable install copies nothing: it
reads the checkout's own folders.
"""

from __future__ import annotations

import pathlib
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = pathlib.Path(__file__).resolve().parent
UNWANTED = shutil.ignore_patterns("__pycache__", "*.pyc", ".*")


class BuildWithAppFiles(build_py):
    """build_py, then the templates, the static files and the compiled catalogs into scorer/_files/."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = pathlib.Path(self.build_lib) / "scorer" / "_files"
        shutil.rmtree(target, ignore_errors=True)
        for name in ("templates", "static"):
            shutil.copytree(ROOT / name, target / name, ignore=UNWANTED)
        compile_catalogs(ROOT / "translations", target / "translations")


def compile_catalogs(source: pathlib.Path, target: pathlib.Path) -> None:
    """Each language's messages.po with its messages.mo compiled by Babel (a build requirement)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    found = sorted(source.glob("*/LC_MESSAGES/messages.po"))
    if not found:
        raise SystemExit(f"no catalogs in {source}: the wheel would serve no language")
    for po in found:
        dest = target / po.relative_to(source)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(po, dest)
        with po.open("rb") as handle:
            catalog = read_po(handle, locale=po.parent.parent.name)
        with dest.with_suffix(".mo").open("wb") as handle:
            write_mo(handle, catalog, use_fuzzy=False)


setup(cmdclass={"build_py": BuildWithAppFiles})

"""`scorer sheet session.json > sheet.pdf` prints the same sheet as the web route.

The proof that the sheet stands below the web app: a table made through the API, its PDF from
``/tables/<token>/sheet.pdf``, and the command line's PDF of the table's exported session file,
read back with pypdf, say the same thing page by page, in either language. The web app adds one
section the session file does not hold, the players' answers (``addenda`` of the sheet):
left out of the route for the comparison, and checked to be the only difference.
"""

from __future__ import annotations

import io
import pathlib
import subprocess
import sys
from typing import Any

import pytest
from flask.testing import FlaskClient
from markupsafe import Markup
from pypdf import PdfReader

from scorer.web.common import answers_sheet
from tests.conftest import EXAMPLES, load_json


def pages_text(pdf: bytes) -> list[str]:
    return [page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages]


def scorer_sheet(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-m", "scorer", "sheet", *args]
    return subprocess.run(command, input=stdin, capture_output=True, timeout=120, check=False)


@pytest.mark.parametrize("language", ["es", "en"])
def test_scorer_sheet_prints_the_same_pdf_text_as_the_web_route(
    client: FlaskClient, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    session: dict[str, Any] = load_json(EXAMPLES / "walkthrough.json")
    session.update(language=language, name="Casino de Oviedo", place="Oviedo")
    created = client.post("/api/tables", json=session)
    assert created.status_code == 201, created.get_data(as_text=True)
    token = created.get_json()["view_token"]
    with_answers = client.get(f"/tables/{token}/sheet.pdf")
    assert with_answers.status_code == 200
    monkeypatch.setattr(answers_sheet, "section", lambda *_args: Markup(""))
    web = client.get(f"/tables/{token}/sheet.pdf")
    assert web.status_code == 200 and web.mimetype == "application/pdf"
    exported = client.get(f"/t/{token}/exportar.json")
    assert exported.status_code == 200
    path = tmp_path / "session.json"
    path.write_bytes(exported.data)

    printed = scorer_sheet(str(path), "--language", language)
    assert printed.returncode == 0, printed.stderr.decode()
    assert printed.stdout.startswith(b"%PDF") and printed.stderr == b""
    web_pages, cli_pages = pages_text(web.data), pages_text(printed.stdout)
    assert cli_pages == web_pages
    heading = {"es": "Comprobación de la mesa", "en": "The table's check"}[language]
    answered = " ".join(pages_text(with_answers.data))
    assert heading in answered and heading not in " ".join(cli_pages)
    assert ("Casino de Oviedo" in cli_pages[0]) and (("Página 1 de" in cli_pages[0]) == (language == "es"))

    into = tmp_path / "sheet.pdf"  # -o FILE, and the session from standard input
    written = scorer_sheet("-", "-o", str(into), "--language", language, stdin=exported.data)
    assert written.returncode == 0 and written.stdout == b"", written.stderr.decode()
    assert pages_text(into.read_bytes()) == web_pages


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["missing.json"], None, b"session: cannot read missing.json"),
        (["-"], b"{not json", b"session: not valid JSON"),
        (["-", "--language", "fr"], b"{}", b"invalid choice: 'fr'"),
        (["-"], b'{"format": "tresillo-session/1", "players": ["Ana"], "hands": []}', b"players"),
    ],
)
def test_scorer_sheet_refuses_bad_input_with_one_line_and_no_pdf(
    args: list[str], stdin: bytes | None, message: bytes
) -> None:
    refused = scorer_sheet(*args, stdin=stdin)
    assert refused.returncode == 2 and refused.stdout == b""
    assert message in refused.stderr


@pytest.mark.parametrize("language", ["es", "en"])
def test_scorer_sheet_says_the_favour_changes_in_its_language(language: str) -> None:
    """The rules box's stretches and each change's line, in English with --language en (R34)."""
    printed = scorer_sheet(str(EXAMPLES / "favor_change.json"), "--language", language)
    assert printed.returncode == 0, printed.stderr.decode()
    said = " ".join(" ".join(pages_text(printed.stdout)).split())
    english = (
        "Changes of favour suit: At the start: bastos ♣. From hand 4: oros ♦.",
        "From hand 8: espadas ♠.",
        "Change of favour suit: from the next hand, oros ♦",
    )
    spanish = (
        "Cambios de palo de favor: Al empezar: bastos ♣. Desde la mano 4: oros ♦.",
        "Desde la mano 8: espadas ♠.",
        "Cambio de palo de favor: desde la mano siguiente, oros ♦",
    )
    for line in english if language == "en" else spanish:
        assert line in said, said
    for line in spanish if language == "en" else english:
        assert line not in said

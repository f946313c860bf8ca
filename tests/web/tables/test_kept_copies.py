"""A page the service worker fetches to keep for offline leaves the flashed messages alone.

Right after a POST the server flashes its message ("Última vuelta…", "Mano 3 anotada…") for the
page the redirect opens. The table page, when it loads, has the service worker fetch the next deals'
forms, the events' forms and the home page to keep them (static/sw.js, message "keep"). Those fetches
carry the same cookie; one of them answered between the POST and the redirected page used to take the
message, and the keeper saw none (the browser journey test_play_until_the_plato_is_won failed under
load). static/sw.js marks its fetches with ``X-Cartulina-Keep: 1``.
"""

from __future__ import annotations

from collections.abc import Callable

from flask.testing import FlaskClient

from scorer.store.models import Table

KEEP = {"X-Cartulina-Keep": "1"}


def test_a_kept_copy_leaves_the_message_to_the_page_being_opened(
    client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    t = make_table(hands=[{"pass": True}])
    assert client.post(f"/t/{t.edit_token}/fin", data={"ending": "1"}).status_code == 302
    for path in ("/", f"/t/{t.edit_token}/mano/tras/0", f"/t/{t.edit_token}"):
        kept = client.get(path, headers=KEEP)
        assert kept.status_code == 200
        assert 'class="flash"' not in kept.get_data(as_text=True), path  # no message taken
    opened = client.get(f"/t/{t.edit_token}").get_data(as_text=True)
    assert 'class="flash"' in opened and "Última vuelta" in opened
    again = client.get(f"/t/{t.edit_token}").get_data(as_text=True)
    assert 'class="flash"' not in again  # shown once, as before


def test_without_the_mark_a_page_takes_the_message(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    """The other side: an ordinary page shows (and so takes) the message, so the mark is what protects it."""
    t = make_table(hands=[{"pass": True}])
    assert client.post(f"/t/{t.edit_token}/fin", data={"ending": "1"}).status_code == 302
    assert 'class="flash"' in client.get("/").get_data(as_text=True)
    assert 'class="flash"' not in client.get(f"/t/{t.edit_token}").get_data(as_text=True)


def test_the_service_worker_marks_every_page_it_keeps() -> None:
    """Every page static/sw.js fetches to keep goes through keptRequest, which sends the mark."""
    from pathlib import Path

    sw = (Path(__file__).resolve().parents[3] / "static" / "sw.js").read_text(encoding="utf-8")
    assert '"X-Cartulina-Keep": "1"' in sw
    assert "new Request(" not in sw.replace('return new Request(href, { credentials: "same-origin", headers', "")


def test_only_a_change_of_the_session_writes_the_cookie(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    """The session is permanent once the browser remembers a table; answers that change nothing in it
    (a style sheet, the table page again, a kept copy) never write the cookie, so none can put back an
    older cookie over the one a save wrote (the save's message lost under load)."""
    t = make_table()
    opened = client.get(f"/t/{t.edit_token}")  # remembered: the session becomes permanent
    assert "Set-Cookie" in opened.headers
    for path in ("/static/app.css", f"/t/{t.edit_token}", "/", f"/t/{t.edit_token}/estado"):
        answer = client.get(path)
        answer.close()  # a static file is streamed
        assert "Set-Cookie" not in answer.headers, path
    assert "Set-Cookie" not in client.get(f"/t/{t.edit_token}/mano/tras/0", headers=KEEP).headers
    saved = client.post(f"/t/{t.edit_token}/fin", data={"ending": "1"})
    assert "Set-Cookie" in saved.headers  # the message is in it

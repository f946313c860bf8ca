"""Behind a proxy that serves https (scorer/web/common/proxy.py): links, QR codes, cookies and HSTS say https.

The proxy is played by the headers Caddy and nginx add (X-Forwarded-For/-Proto/-Host). The app
believes them only when CARTULINA_PROXIES says a proxy is there; at plain http nothing changes.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from flask import Flask
from werkzeug.test import TestResponse

from scorer.web.common.proxy import secure_cookie
from scorer.web.tables.routes import _qr
from tests.web.conftest import sample_session
from tests.web.tables.test_pages import new_table_form

THROUGH_CADDY = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "cartulina.test", "X-Forwarded-For": "192.0.2.7"}


def session_cookies(response: TestResponse) -> list[str]:
    return [c for c in response.headers.getlist("Set-Cookie") if c.startswith("session=")]


def test_behind_the_proxy_the_share_links_and_their_qr_codes_say_https_and_the_name(
    make_app: Callable[..., Flask],
) -> None:
    client = make_app(CARTULINA_PROXIES=1).test_client()
    response = client.post("/api/tables", json=sample_session(), headers=THROUGH_CADDY)
    status, made = response.status_code, response.get_json()
    assert status == 201, made
    edit = f"https://cartulina.test/t/{made['edit_token']}"
    view = f"https://cartulina.test/t/{made['view_token']}"
    assert made["edit_url"] == edit

    page = client.get(f"/t/{made['edit_token']}", headers=THROUGH_CADDY)
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert edit in text
    assert view in text
    assert str(_qr(edit)) in text  # the QR codes carry the https links
    assert str(_qr(view)) in text
    assert "http://" not in text.replace("http://www.w3.org", "")


def test_over_https_the_answers_carry_hsts_and_secure_cookies(make_app: Callable[..., Flask]) -> None:
    client = make_app(CARTULINA_PROXIES=1).test_client()
    response = client.post("/api/tables", json=sample_session(), headers=THROUGH_CADDY)
    token = response.get_json()["edit_token"]
    page = client.get(f"/t/{token}", headers=THROUGH_CADDY)  # the edit link: the table is remembered
    assert page.headers["Strict-Transport-Security"] == "max-age=31536000"
    cookies = session_cookies(page)
    assert cookies
    assert all("; Secure" in c for c in cookies)
    language = client.get("/idioma/en?next=/", headers=THROUGH_CADDY)
    assert language.headers.getlist("Set-Cookie")
    assert all("; Secure" in c for c in language.headers.getlist("Set-Cookie"))
    assert language.headers["Location"] in ("/", "https://cartulina.test/")


def test_at_plain_http_nothing_changes(make_app: Callable[..., Flask]) -> None:
    for config in ({}, {"CARTULINA_PROXIES": 1}):
        client = make_app(**config).test_client()
        response = client.post("/api/tables", json=sample_session())
        made = response.get_json()
        assert made["edit_url"] == f"http://localhost/t/{made['edit_token']}"
        page = client.get(f"/t/{made['edit_token']}")
        assert "Strict-Transport-Security" not in page.headers
        cookies = session_cookies(page)
        assert cookies
        assert not any("secure" in c.lower() for c in cookies)


def test_without_the_setting_the_forwarded_headers_are_not_believed(make_app: Callable[..., Flask]) -> None:
    client = make_app().test_client()  # nothing in front: anyone could send these headers
    response = client.post("/api/tables", json=sample_session(), headers=THROUGH_CADDY)
    made = response.get_json()
    assert made["edit_url"] == f"http://localhost/t/{made['edit_token']}"
    page = client.get(f"/t/{made['edit_token']}", headers=THROUGH_CADDY)
    assert "Strict-Transport-Security" not in page.headers
    assert "cartulina.test" not in page.get_data(as_text=True)


def test_behind_the_proxy_the_creation_limit_counts_each_client_not_the_proxy(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(CARTULINA_PROXIES=1, RATELIMIT_ENABLED=True, CARTULINA_CREATE_LIMIT="2 per minute")
    client = app.test_client()

    def create(address: str) -> int:
        headers = {**THROUGH_CADDY, "X-Forwarded-For": address}
        return client.post("/api/tables", json=sample_session(), headers=headers).status_code

    assert [create("192.0.2.7") for _ in range(3)] == [201, 201, 429]
    assert create("192.0.2.8") == 201  # another phone behind the same proxy


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("session=abc; HttpOnly; Path=/", "session=abc; HttpOnly; Path=/; Secure"),
        ("lang=en; Secure; Path=/", "lang=en; Secure; Path=/"),
        ("a=secure; Path=/", "a=secure; Path=/; Secure"),
    ],
)
def test_a_cookie_is_made_secure_once(header: str, expected: str) -> None:
    assert secure_cookie(header) == expected


def test_a_negative_number_of_proxies_is_refused(make_app: Callable[..., Flask]) -> None:
    with pytest.raises(ValueError, match="CARTULINA_PROXIES"):
        make_app(CARTULINA_PROXIES=-1)


def test_over_https_a_form_with_its_token_is_saved_though_the_page_sends_no_referer(
    make_app: Callable[..., Flask],
) -> None:
    """The pages send no Referer (Referrer-Policy: no-referrer); Flask-WTF's https check must not refuse them."""
    client = make_app(WTF_CSRF_ENABLED=True, CARTULINA_PROXIES=1).test_client()
    page = client.get("/nueva", headers=THROUGH_CADDY)
    assert page.headers["Referrer-Policy"] == "no-referrer"
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page.get_data(as_text=True))
    assert token
    form = {**new_table_form(), "csrf_token": token.group(1)}
    saved = client.post("/nueva", data=form, headers=THROUGH_CADDY)
    assert saved.status_code == 302, saved.get_data(as_text=True)[:500]
    assert "/t/" in saved.headers["Location"]

"""/certificado: the local authority's root certificate for the phones (scripts/run --https, a local name)."""

from __future__ import annotations

import pathlib
from collections.abc import Callable

from flask import Flask

from tests.web.conftest import sample_session

ROOT_PEM = "-----BEGIN CERTIFICATE-----\nMIIBpDCCAUqgAwIBAgIR\n-----END CERTIFICATE-----\n"
THROUGH_CADDY = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "cartulina.lan:8443"}


def local_root(tmp_path: pathlib.Path) -> str:
    path = tmp_path / "root.crt"
    path.write_text(ROOT_PEM, encoding="ascii")
    return str(path)


def test_the_page_offers_the_root_its_qr_code_and_the_steps(
    make_app: Callable[..., Flask], tmp_path: pathlib.Path
) -> None:
    app = make_app(CARTULINA_LOCAL_ROOT=local_root(tmp_path), CARTULINA_HTTP_PORT=8080, CARTULINA_PROXIES=1)
    page = app.test_client().get("/certificado", headers=THROUGH_CADDY)
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    # over plain http, where a phone that does not trust the root yet gets no warning
    assert 'href="http://cartulina.lan:8080/certificado/cartulina-raiz.crt"' in text
    assert "<svg" in text
    assert "Android" in text
    assert "iPhone" in text
    assert "Ajustes de confianza de certificados" in text


def test_the_file_is_the_root_as_a_ca_certificate(make_app: Callable[..., Flask], tmp_path: pathlib.Path) -> None:
    app = make_app(CARTULINA_LOCAL_ROOT=local_root(tmp_path))
    answer = app.test_client().get("/certificado/cartulina-raiz.crt")
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "application/x-x509-ca-cert"
    assert "cartulina-raiz.crt" in answer.headers["Content-Disposition"]
    assert answer.get_data(as_text=True) == ROOT_PEM
    answer.close()  # send_file's open file


def test_the_keepers_table_page_links_to_it_the_view_page_does_not(
    make_app: Callable[..., Flask], tmp_path: pathlib.Path
) -> None:
    client = make_app(CARTULINA_LOCAL_ROOT=local_root(tmp_path)).test_client()
    made = client.post("/api/tables", json=sample_session()).get_json()
    assert 'href="/certificado"' in client.get(f"/t/{made['edit_token']}").get_data(as_text=True)
    assert 'href="/certificado"' not in client.get(f"/t/{made['view_token']}").get_data(as_text=True)


def test_without_a_local_root_there_is_no_page_and_no_link(
    make_app: Callable[..., Flask], tmp_path: pathlib.Path
) -> None:
    for config in ({}, {"CARTULINA_LOCAL_ROOT": str(tmp_path / "not-made-yet.crt")}):
        client = make_app(**config).test_client()
        assert client.get("/certificado").status_code == 404
        assert client.get("/certificado/cartulina-raiz.crt").status_code == 404
        made = client.post("/api/tables", json=sample_session()).get_json()
        assert "/certificado" not in client.get(f"/t/{made['edit_token']}").get_data(as_text=True)

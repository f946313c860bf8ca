"""Fixtures of the web tests: ``app``, ``client``, ``runner``, ``make_table``.

The app uses a fresh SQLite file per test, or, when ``TEST_DATABASE_URL`` is
set, a fresh schema of that database (dropped afterwards), so tests can run in
parallel. Override the ``app_config`` fixture in a test module to change the
configuration (e.g. ``{"WTF_CSRF_ENABLED": True}``).
"""

from __future__ import annotations

import copy
import os
import pathlib
import secrets
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorer.store.db import db
from scorer.store.models import Table
from scorer.web import create_app, database_url

PLAYERS = ["Ana", "Benito", "Carmen", "Diego"]

# A small valid night (4 players, first dealer seat 1): entrada won by seat 2, a pass, a puesta.
SAMPLE_HANDS: list[dict[str, Any]] = [
    {"jugador": 2, "lance": "entrada", "trump": "oros", "tricks": {"2": 5, "3": 3, "4": 1}},
    {"pass": True},
    {"jugador": 4, "lance": "entrada", "trump": "copas", "tricks": {"4": 4, "1": 4, "2": 1}},
]


def sample_session(hands: list[dict[str, Any]] | None = None, **keys: Any) -> dict[str, Any]:
    """A session file of four players, with app keys, and the given hands."""
    session: dict[str, Any] = {
        "format": "tresillo-session/1",
        "name": "Partida de prueba",
        "place": "Casino de Oviedo",
        "tanto_value": 5,
        "currency": "EUR",
        "players": list(PLAYERS),
        "rules": {"favor_suit": "bastos"},
        "first_dealer": 1,
        "hands": copy.deepcopy(SAMPLE_HANDS if hands is None else hands),
    }
    session.update(keys)
    return session


def api_session(client: FlaskClient, token: str) -> dict[str, Any]:
    """The stored session through the API (``GET /api/tables/<token>``)."""
    response = client.get(f"/api/tables/{token}")
    assert response.status_code == 200
    return dict(response.get_json())


def api_ledger(client: FlaskClient, token: str) -> dict[str, Any]:
    """The ledger through the API (``GET /api/tables/<token>/ledger``)."""
    response = client.get(f"/api/tables/{token}/ledger")
    assert response.status_code == 200
    return dict(response.get_json())


# Bandos (B3, B4): a fault takes back the points that keep the game going, target 2.
BANDOS_FAULT: dict[str, Any] = {
    "format": "tresillo-session/1",
    "players": ["A1", "B1", "A2", "B2", "A3", "B3"],
    "rules": {"ruleset": "bandos", "target": 2},
    "hands": [
        {"primeras": "A"},
        {"faltas": [{"seat": 1, "falta": "renuncio"}]},
        {"primeras": "A"},
        {"primeras": "A"},
    ],
}


@pytest.fixture
def app_config() -> dict[str, Any]:
    """Extra configuration of the ``app`` fixture; override it in a module."""
    return {"WTF_CSRF_ENABLED": False}


def _postgres_schema(url: str) -> tuple[str, sa.Engine]:
    schema = "test_" + secrets.token_hex(6)
    engine = sa.create_engine(database_url(url))
    with engine.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    return schema, engine


@pytest.fixture
def make_app(tmp_path: pathlib.Path) -> Iterator[Callable[..., Flask]]:
    """A factory of apps on a fresh database; each one is disposed of after the test."""
    made: list[Flask] = []
    schemas: list[tuple[str, sa.Engine]] = []

    def factory(**config: Any) -> Flask:
        instance = tmp_path / f"instance{len(made)}"
        settings: dict[str, Any] = {
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "INSTANCE_PATH": str(instance),
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / f'cartulina{len(made)}.db'}",
            "RATELIMIT_ENABLED": False,  # tests/web/test_limits.py turns it on
        }
        url = os.environ.get("TEST_DATABASE_URL")
        if url and "SQLALCHEMY_DATABASE_URI" not in config:
            schema, engine = _postgres_schema(url)
            schemas.append((schema, engine))
            settings["SQLALCHEMY_DATABASE_URI"] = url
            settings["SQLALCHEMY_ENGINE_OPTIONS"] = {"connect_args": {"options": f"-csearch_path={schema}"}}
        settings.update(config)
        app = create_app(settings)
        made.append(app)
        return app

    yield factory
    for app in made:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
    for schema, engine in schemas:
        with engine.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


@pytest.fixture
def app(make_app: Callable[..., Flask], app_config: dict[str, Any]) -> Flask:
    return make_app(**app_config)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@pytest.fixture
def make_table(app: Flask) -> Callable[..., Table]:
    """Create a table through the services: ``make_table()``, ``make_table(hands=[…])``, ``make_table(session)``.

    Keyword arguments replace keys of the sample session (players, rules, name …).
    The returned Table is detached, with its columns loaded (tokens, name, header).
    """
    from scorer import store

    def factory(session: dict[str, Any] | None = None, **keys: Any) -> Table:
        data = copy.deepcopy(session) if session is not None else sample_session(**keys)
        if session is not None:
            data.update(keys)
        with app.app_context():
            table = store.create_table(data)
            db.session.refresh(table)
            db.session.expunge(table)
        return table

    return factory

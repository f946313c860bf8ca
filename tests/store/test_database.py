"""The database: migrations, SQLite settings, configuration, concurrency, PostgreSQL."""

from __future__ import annotations

import os
import pathlib
import threading
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask

from scorer import engine, store
from scorer.store import Conflict
from scorer.store.db import db
from scorer.web import create_app
from tests.web.conftest import sample_session

POSTGRES = (os.environ.get("TEST_DATABASE_URL") or "").startswith("postgres")
on_sqlite = pytest.mark.skipif(POSTGRES, reason="SQLite only")


def tables_of(app: Flask) -> set[str]:
    with app.app_context():
        return set(sa.inspect(db.engine).get_table_names())


def _head() -> str:
    """The newest revision of the migrations folder (every branch adds its own)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from scorer.store.db import MIGRATIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return str(ScriptDirectory.from_config(config).get_current_head())


class TestMigrations:
    def test_empty_database_gets_the_schema(self, app: Flask) -> None:
        assert {"tables", "hands", "hand_events", "alembic_version"} <= tables_of(app)
        with app.app_context():
            version = db.session.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one()
        from alembic.script import ScriptDirectory

        from scorer.store.db import MIGRATIONS

        assert version == ScriptDirectory(str(MIGRATIONS)).get_current_head()  # the latest migration

    def test_models_match_the_migrations(self, app: Flask) -> None:
        with app.app_context(), db.engine.connect() as connection:
            diff = compare_metadata(MigrationContext.configure(connection), db.metadata)
        assert diff == []

    def test_old_database_is_upgraded_on_start(self, make_app: Callable[..., Flask], tmp_path: pathlib.Path) -> None:
        url = f"sqlite:///{tmp_path / 'old.db'}"
        app = make_app(SQLALCHEMY_DATABASE_URI=url)
        import flask_migrate

        with app.app_context():
            flask_migrate.downgrade(revision="base")
        assert tables_of(app) == {"alembic_version"}
        again = make_app(SQLALCHEMY_DATABASE_URI=url)
        assert {"tables", "hands", "hand_events"} <= tables_of(again)

    def test_data_survives_a_restart(self, make_app: Callable[..., Flask], tmp_path: pathlib.Path) -> None:
        url = f"sqlite:///{tmp_path / 'keep.db'}"
        app = make_app(SQLALCHEMY_DATABASE_URI=url)
        with app.app_context():
            token = store.create_table(sample_session()).edit_token
        again = make_app(SQLALCHEMY_DATABASE_URI=url)
        with again.app_context():
            table, can_edit = store.open_table(token)
            assert can_edit and len(store.read(table).session_copy()["hands"]) == 3


@on_sqlite
class TestSqlite:
    def test_wal_and_busy_timeout(self, app: Flask) -> None:
        with app.app_context(), db.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 15_000
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1

    def test_default_database_is_in_the_instance_folder(self, tmp_path: pathlib.Path) -> None:
        instance = tmp_path / "inst"
        app = create_app({"INSTANCE_PATH": str(instance), "SECRET_KEY": "x"})
        try:
            assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{instance / 'cartulina.db'}"
            assert (instance / "cartulina.db").exists()
        finally:
            with app.app_context():
                db.engine.dispose()


class TestConfig:
    def test_secret_key_generated_once_and_kept(self, tmp_path: pathlib.Path) -> None:
        settings = {"INSTANCE_PATH": str(tmp_path), "SQLALCHEMY_DATABASE_URI": "sqlite://", "MIGRATE_ON_START": False}
        first = create_app(dict(settings))
        key = first.config["SECRET_KEY"]
        assert len(key) >= 32
        assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600
        assert create_app(dict(settings)).config["SECRET_KEY"] == key

    def test_instance_config_then_environment(self, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
        (tmp_path / "config.py").write_text('SECRET_KEY = "from-file"\nTANTO = 1\nPLACE = "file"\n')
        monkeypatch.setenv("FLASK_PLACE", '"env"')
        app = create_app(
            {"INSTANCE_PATH": str(tmp_path), "SQLALCHEMY_DATABASE_URI": "sqlite://", "MIGRATE_ON_START": False}
        )
        assert app.config["SECRET_KEY"] == "from-file"
        assert app.config["PLACE"] == "env"
        assert not (tmp_path / "secret_key").exists()

    def test_postgres_urls_use_psycopg3(self) -> None:
        from scorer.web import database_url

        assert database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
        assert database_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
        assert database_url("sqlite:///x.db") == "sqlite:///x.db"


@pytest.mark.postgres
@pytest.mark.skipif(not POSTGRES, reason="TEST_DATABASE_URL does not name PostgreSQL")
def test_postgres_backend(app: Flask) -> None:
    with app.app_context():
        assert db.engine.dialect.name == "postgresql"
        assert db.engine.dialect.driver == "psycopg"
        table = store.create_table(sample_session())
        store.add_hand(table, {"pass": True})
        assert store.read(table).ledger_copy() == engine.settle(store.read(table).session_copy())


# ------------------------------------------------------------- concurrency


def run_threads(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(i)`` in ``count`` threads started together; their results or exceptions."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def target(i: int) -> None:
        barrier.wait()
        try:
            results[i] = work(i)
        except Exception as exc:  # the test inspects it
            results[i] = exc

    threads = [threading.Thread(target=target, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


class TestConcurrency:
    def test_concurrent_hands_all_saved_in_order(self, app: Flask) -> None:
        with app.app_context():
            token = store.create_table(sample_session(hands=[])).edit_token

        def add(i: int) -> list[int]:
            numbers = []
            for _ in range(4):
                with app.app_context():
                    numbers.append(store.add_hand(store.require_edit(token), {"pass": True})[0])
            return numbers

        results = run_threads(6, add)
        assert not [r for r in results if isinstance(r, Exception)], results
        numbers = sorted(n for r in results for n in r)
        assert numbers == list(range(1, 25))
        with app.app_context():
            table = store.open_table(token)[0]
            session = store.read(table).session_copy()
            assert [h["dealer"] for h in session["hands"]] == [(i % 4) + 1 for i in range(24)]
            assert store.read(table).ledger_copy() == engine.settle(session)

    def test_concurrent_double_submit_saves_once(self, app: Flask) -> None:
        with app.app_context():
            token = store.create_table(sample_session(hands=[])).edit_token

        def add(i: int) -> tuple[int, dict[str, Any]]:
            with app.app_context():
                return store.add_hand(store.require_edit(token), {"pass": True}, request_id="same")

        results = run_threads(5, add)
        assert all(r == results[0] for r in results), results
        with app.app_context():
            assert len(store.read(store.open_table(token)[0]).session_copy()["hands"]) == 1

    def test_a_double_submit_that_read_the_table_before_the_first_saved_replays(self, app: Flask) -> None:
        # The race behind the test above, made certain: this request read the table (its settled state
        # cached) before the other request committed the hand with the same request id, and that
        # request has not put its new state in the cache yet. It must replay, not answer 409.
        with app.app_context():
            token = store.create_table(sample_session(hands=[])).edit_token
        with app.app_context():
            table = store.require_edit(token)
            before = store.read(table).settled
            with app.app_context():  # the other request, in its own database session
                first = store.add_hand(store.require_edit(token), {"pass": True}, request_id="same")
            store.cache.states.put(token, before)  # its state not cached yet
            again = store.add_hand(table, {"pass": True}, request_id="same")
        assert again == first

    def test_concurrent_edits_of_one_revision_conflict(self, app: Flask) -> None:
        with app.app_context():
            table = store.create_table(sample_session())
            token, revision = table.edit_token, store.hand_revision(table, 1)
        trumps = ["copas", "espadas", "bastos", "oros"]

        def edit(i: int) -> dict[str, Any]:
            hand = {"jugador": 2, "lance": "entrada", "trump": trumps[i], "tricks": {"2": 5, "3": 3, "4": 1}}
            with app.app_context():
                return store.replace_hand(store.require_edit(token), 1, hand, revision=revision)

        results = run_threads(4, edit)
        won = [r for r in results if isinstance(r, dict)]
        assert len(won) == 1
        assert all(isinstance(r, Conflict) for r in results if not isinstance(r, dict)), results
        with app.app_context():
            table = store.open_table(token)[0]
            assert store.read(table).session_copy()["hands"][0]["trump"] == trumps[results.index(won[0])]


class TestSafety:
    def test_html_forms_need_the_csrf_token(self, make_app: Callable[..., Flask]) -> None:
        client = make_app(WTF_CSRF_ENABLED=True).test_client()
        response = client.post("/nueva", data={"name": "x"})
        assert response.status_code == 400
        with client.application.app_context():
            assert store.list_tables() == []

    def test_pages_carry_a_restrictive_policy(self, client: Any) -> None:
        response = client.get("/")
        policy = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
        assert response.headers["Referrer-Policy"] == "no-referrer"  # the tokens are in the URLs
        assert response.headers["X-Frame-Options"] == "DENY"
        assert response.headers["X-Content-Type-Options"] == "nosniff"

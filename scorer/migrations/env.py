"""Alembic environment: the app's engine and metadata, through Flask-Migrate."""

from __future__ import annotations

import logging

from alembic import context
from flask import current_app

# No fileConfig(): configuring logging here would disable the app's own loggers.
config = context.config
logger = logging.getLogger("alembic.env")

target_db = current_app.extensions["migrate"].db


def get_engine():  # type: ignore[no-untyped-def]
    return target_db.engine


config.set_main_option("sqlalchemy.url", get_engine().url.render_as_string(hide_password=False).replace("%", "%%"))


def run_migrations_offline() -> None:
    """Emit the SQL to standard output (``flask db upgrade --sql``)."""
    context.configure(
        url=config.get_main_option("sqlalchemy.url"), target_metadata=target_db.metadata, literal_binds=True
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run the migrations on the app's database."""

    def process_revision_directives(context, revision, directives):  # type: ignore[no-untyped-def]
        # no empty revision when autogenerate finds no change
        if getattr(config.cmd_opts, "autogenerate", False) and directives[0].upgrade_ops.is_empty():
            directives[:] = []
            logger.info("No changes in schema detected.")

    conf_args = dict(current_app.extensions["migrate"].configure_args)
    conf_args.setdefault("process_revision_directives", process_revision_directives)
    conf_args.setdefault("render_as_batch", True)  # SQLite cannot ALTER most things in place
    with get_engine().connect() as connection:
        context.configure(connection=connection, target_metadata=target_db.metadata, **conf_args)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()

"""The ``flask --app scorer backup FILE`` and ``flask --app scorer restore FILE [--merge]`` commands
(the backup and restore themselves are :mod:`scorer.store.backup`, docs/backup.md)."""

from __future__ import annotations

import time
from typing import Any

import sqlalchemy as sa

from scorer.store.backup import BackupError, backup, restore
from scorer.store.db import db


def register_commands(app: Any) -> None:
    """``flask --app scorer backup FILE`` and ``flask --app scorer restore FILE [--merge]``."""
    import click

    def say(text: str) -> None:
        click.echo(text, err=True)

    @app.cli.command("backup")
    @click.argument("file", type=click.Path(dir_okay=False, writable=True))
    def backup_command(file: str) -> None:
        """Write a backup of every table and peña to FILE (gzip'd JSON lines, docs/backup.md)."""
        started = time.monotonic()
        try:
            header = backup(db.engine, file, progress=say)
        except BackupError as exc:
            raise click.ClickException(str(exc)) from None
        rows = ", ".join(f"{t.rows:,} {t.name}" for t in header.tables)
        say(f"backup: {file} ({header.schema_revision}): {rows} in {time.monotonic() - started:.1f} s")

    @app.cli.command("restore")
    @click.argument("file", type=click.Path(exists=True, dir_okay=False))
    @click.option("--merge", is_flag=True, help="Add the tables and peñas whose tokens are not in the database yet.")
    def restore_command(file: str, merge: bool) -> None:
        """Load a backup FILE into an empty database (or, with --merge, add what is not there yet)."""
        started = time.monotonic()
        try:
            report = restore(app, file, merge=merge, progress=say)
        except BackupError as exc:
            raise click.ClickException(f"{exc}. Nothing was written.") from None
        except sa.exc.SQLAlchemyError as exc:  # e.g. a constraint the rows break, a lost connection
            reason = str(exc.orig if getattr(exc, "orig", None) is not None else exc).splitlines()[0]
            raise click.ClickException(
                f"the restore failed and was rolled back: nothing was written ({reason})"
            ) from None
        for line in report.skipped:
            say(f"restore: {line}")
        if report.migrated_from:
            say(f"restore: migrated forward from schema revision {report.migrated_from}")
        rows = ", ".join(f"{n:,} {name}" for name, n in report.added.items()) or "nothing"
        say(f"restore: {file}: added {rows} in {time.monotonic() - started:.1f} s")

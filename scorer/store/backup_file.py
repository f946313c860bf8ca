"""The backup file (docs/backup.md): gzip'd JSON lines, a header, each table's rows, a closing record.

What a value of each column kind is written as and read back from, and the reading and checking of
a file (:func:`verify`, :func:`read_rows`); the writing and the restore are :mod:`scorer.store.backup`.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime as dt
import decimal
import gzip
import hashlib
import json
import os
import pathlib
import zlib
from collections.abc import Callable, Iterator
from typing import Any

import sqlalchemy as sa

FORMAT = "cartulina-backup"
VERSION = 1  # of the file format; a reader refuses a greater one
GZIP_MAGIC = b"\x1f\x8b"

Progress = Callable[[str], None]


class BackupError(ValueError):
    """A backup that cannot be written or restored; nothing was written to the database."""


@dataclasses.dataclass(frozen=True)
class TableInfo:
    """One table of a backup: its columns as (name, kind) and its row count."""

    name: str
    columns: tuple[tuple[str, str], ...]
    rows: int

    @property
    def column_names(self) -> list[str]:
        return [name for name, _ in self.columns]


@dataclasses.dataclass(frozen=True)
class Header:
    """The first record of a backup."""

    version: int
    schema_revision: str
    created_at: str
    source: str
    tables: tuple[TableInfo, ...]

    def rows(self) -> dict[str, int]:
        return {t.name: t.rows for t in self.tables}


@dataclasses.dataclass
class Report:
    """What a restore did: rows added per table, and what --merge left out (and why)."""

    added: dict[str, int] = dataclasses.field(default_factory=dict)
    skipped: list[str] = dataclasses.field(default_factory=list)
    migrated_from: str | None = None


# ------------------------------------------------------------------ values


# The kind a column type's values are written as, first match wins (Float before Numeric: a subclass).
_KINDS: tuple[tuple[type[sa.types.TypeEngine[Any]], str], ...] = (
    (sa.JSON, "json"),
    (sa.DateTime, "datetime"),
    (sa.Date, "date"),
    (sa.Boolean, "bool"),
    (sa.Integer, "int"),
    (sa.Float, "float"),
    (sa.Numeric, "decimal"),
    (sa.LargeBinary, "bytes"),
)


def kind_of(type_: sa.types.TypeEngine[Any]) -> str:
    """The kind a column's values are written as (docs/backup.md, "Values")."""
    return next((kind for cls, kind in _KINDS if isinstance(type_, cls)), "str")


def _json_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True, allow_nan=False)


def _raw_json(text: Any) -> str:
    """A JSON column read as its stored text: written into the line as is (no parse and dump again)."""
    if not isinstance(text, str) or "\n" in text or "\r" in text:
        return _json_text(json.loads(text) if isinstance(text, str) else text)
    return text


def _text_of(kind: type, encode: Callable[[Any], str]) -> Callable[[Any], str]:
    """``encode`` for values of the expected type, JSON's own encoding for anything else (SQLite is lax)."""
    return lambda v: encode(v) if type(v) is kind else _json_text(v)


_string = json.encoder.encode_basestring_ascii  # C; lone surrogates escaped too

# a value (never None) → its JSON text in a row line
ENCODERS: dict[str, Callable[[Any], str]] = {
    "json": _raw_json,
    "int": _text_of(int, str),
    "str": _text_of(str, _string),
    "bool": _json_text,
    "float": _json_text,
    "datetime": _text_of(dt.datetime, lambda v: '"' + v.isoformat() + '"'),
    "date": _text_of(dt.date, lambda v: '"' + v.isoformat() + '"'),
    "decimal": lambda v: '"' + str(v) + '"',
    "bytes": lambda v: '"' + base64.b64encode(bytes(v)).decode("ascii") + '"',
}
DECODERS: dict[str, Callable[[Any], Any] | None] = {
    "json": None,
    "int": None,
    "str": None,
    "bool": None,
    "float": None,
    "datetime": lambda v: None if v is None else dt.datetime.fromisoformat(v),
    "date": lambda v: None if v is None else dt.date.fromisoformat(v),
    "decimal": lambda v: None if v is None else decimal.Decimal(v),
    "bytes": lambda v: None if v is None else base64.b64decode(v),
}


def as_line(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=True, separators=(",", ":")).encode("ascii") + b"\n"


# ------------------------------------------------------------------ reading


def raw_lines(path: pathlib.Path) -> Iterator[bytes]:
    """The decompressed lines; gzip's own errors become BackupError naming what is wrong."""
    try:
        with open(path, "rb") as handle:
            magic = handle.read(2)
    except OSError as exc:
        raise BackupError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if magic != GZIP_MAGIC:
        raise BackupError(f"{path} is not a Cartulina backup (not a gzip file)")
    try:
        with gzip.open(path, "rb") as handle:
            yield from handle
    except EOFError:
        raise BackupError(f"{path} is truncated (the compressed data ends too early)") from None
    except (gzip.BadGzipFile, zlib.error) as exc:
        raise BackupError(f"{path} is corrupted ({exc})") from None


def _version(raw: bytes, path: pathlib.Path) -> tuple[dict[str, Any], int]:
    """The header record and its format version, when this code reads that version."""
    try:
        data = json.loads(raw)
    except ValueError:
        data = None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(f"{path} is not a Cartulina backup (its first record is not a {FORMAT} header)")
    version = data.get("version")
    if not isinstance(version, int) or version < 1:
        raise BackupError(f"{path}: the header's format version {version!r} is not valid")
    if version > VERSION:
        raise BackupError(
            f"{path} was written by a newer Cartulina (backup format {version}; this one reads up to {VERSION}):"
            " upgrade Cartulina to restore it"
        )
    return data, version


def _header(raw: bytes, path: pathlib.Path) -> Header:
    data, version = _version(raw, path)
    try:
        tables = tuple(
            TableInfo(
                str(t["name"]),
                tuple((str(name), str(kind)) for name, kind in t["columns"]),
                int(t["rows"]),
            )
            for t in data["tables"]
        )
        header = Header(version, str(data["schema_revision"]), str(data["created_at"]), str(data["source"]), tables)
    except (KeyError, TypeError, ValueError):
        raise BackupError(f"{path}: the header is corrupted") from None
    unknown = [(t.name, name, kind) for t in tables for name, kind in t.columns if kind not in DECODERS]
    if unknown:
        table, name, kind = unknown[0]
        raise BackupError(f"{path}: table {table}, column {name}: unknown kind of value {kind!r}")
    return header


class _Walk:
    """:func:`verify`'s walk through the records after the header: their order, counts and checksum."""

    def __init__(self, where: pathlib.Path, header: Header, first: bytes) -> None:
        self.where = where
        self.header = header
        self.digest = hashlib.sha256(first)
        self.expected = iter(header.tables)
        self.current: TableInfo | None = None
        self.counted: dict[str, int] = {}
        self.count = 1
        self.end: Any = None

    def corrupted(self, why: str) -> BackupError:
        return BackupError(f"{self.where} is corrupted ({why})")

    def line(self, raw: bytes) -> None:
        if self.end is not None:
            raise self.corrupted("records after the closing record")
        if raw.startswith(b"["):
            self._row()
        elif self._record(raw):
            return  # the closing record: not counted, not in the checksum
        self.digest.update(raw)
        self.count += 1

    def _row(self) -> None:
        if self.current is None:
            raise self.corrupted(f"line {self.count + 1}: a row before any table")
        self.counted[self.current.name] += 1

    def _record(self, raw: bytes) -> bool:
        """A table's record (False) or the closing one (True)."""
        try:
            record = json.loads(raw)
        except ValueError:
            raise self.corrupted(f"line {self.count + 1} is not JSON") from None
        if isinstance(record, dict) and "end" in record:
            self.end = record["end"]
            return True
        table = next(self.expected, None)
        if not isinstance(record, dict) or table is None or record.get("table") != table.name:
            raise self.corrupted(f"line {self.count + 1}: unexpected record")
        self.current = table
        self.counted[table.name] = 0
        return False

    def finish(self) -> Header:
        end = self.end
        if end is None:
            raise BackupError(f"{self.where} is truncated (its closing record is missing)")
        if not isinstance(end, dict) or end.get("sha256") != self.digest.hexdigest() or end.get("lines") != self.count:
            raise self.corrupted("its checksum does not match its contents")
        if end.get("rows") != self.header.rows() or self.counted != self.header.rows():
            raise self.corrupted("its row counts do not match")
        return self.header


def verify(path: str | os.PathLike[str]) -> Header:
    """Read the whole file: its header, its order of records, its counts and its checksum; else BackupError."""
    where = pathlib.Path(path)
    lines = raw_lines(where)
    first = next(lines, None)
    if first is None:
        raise BackupError(f"{where} is not a Cartulina backup (it is empty)")
    walk = _Walk(where, _header(first, where), first)
    for raw in lines:
        walk.line(raw)
    return walk.finish()

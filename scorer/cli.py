"""The ``scorer`` command line: ``scorer settle FILE`` prints the ledger, ``scorer sheet FILE`` the PDF sheet.

It sits above the engine and the sheet (and never imports the web app). The sheet's modules
(WeasyPrint, Babel) are imported only by ``scorer sheet``, so that ``scorer settle`` starts fast.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
from collections.abc import Sequence
from typing import Any

import orjson

from scorer.engine import SessionError, settle
from scorer.engine.details import written

LANGUAGES = ("es", "en")  # those of scorer.catalogs, which imports Babel: not needed to settle


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"scorer: {message}", file=sys.stderr)
        raise SystemExit(2)


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


def _session(path: str) -> dict[str, Any] | None:
    """The session file's JSON, or None after one line on standard error."""
    try:
        text = _read(path)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"session: cannot read {path}: {getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
        return None
    try:
        session = json.loads(text, parse_constant=_reject_constant)
    except (json.JSONDecodeError, ValueError, RecursionError) as exc:
        print(f"session: not valid JSON: {exc}", file=sys.stderr)
        return None
    return session  # type: ignore[no-any-return]  # not a mapping: the engine says so


def _settled(session: dict[str, Any]) -> dict[str, Any] | None:
    """The ledger, or None after one line on standard error naming the hand."""
    try:
        return settle(session)
    except SessionError as exc:
        print(str(exc).replace("\n", " "), file=sys.stderr)
    except RecursionError:
        print("session: too deeply nested", file=sys.stderr)
    return None


def ledger_json(ledger: dict[str, Any], indent: int | None = None) -> bytes:
    """The ledger as JSON text (UTF-8), one line unless indented.

    orjson writes it in a fraction of the standard library's time (a third of ``scorer settle``'s
    time was ``json.dumps``: bench/engine.py); what it cannot write the same way (an indent other
    than 2, an integer beyond 64 bits) goes through ``json.dumps``. Either is the same JSON value.
    orjson reads each dict's storage directly, so the transfers' explanations are written first.
    """
    if indent in (None, 2):
        options = orjson.OPT_NON_STR_KEYS | (orjson.OPT_INDENT_2 if indent == 2 else 0)
        try:
            return orjson.dumps(written(ledger), option=options)
        except (orjson.JSONEncodeError, TypeError):
            pass
    separators = (",", ":") if indent is None else None
    return json.dumps(ledger, indent=indent, separators=separators, ensure_ascii=False).encode("utf-8")


def cmd_settle(path: str, indent: int | None) -> int:
    """Settle a session file and print its ledger; exit 2 with one line on bad input."""
    session = _session(path)
    if session is None:
        return 2
    gc.disable()  # a short-lived process building acyclic data: collection is pure cost here
    ledger = _settled(session)
    if ledger is None:
        return 2
    sys.stdout.flush()
    sys.stdout.buffer.write(ledger_json(ledger, indent) + b"\n")
    sys.stdout.buffer.flush()
    return 0


def cmd_sheet(path: str, language: str, output: str | None) -> int:
    """Print a session file's sheet as a PDF (to standard output, or ``output``); exit 2 on bad input."""
    session = _session(path)
    if session is None:
        return 2
    ledger = _settled(session)
    if ledger is None:
        return 2
    from scorer.catalogs import catalog  # Babel and WeasyPrint: only the sheet needs them
    from scorer.sheet.build import render_pdf

    pdf = render_pdf(session, ledger, tongue=catalog(language))
    if output is None or output == "-":
        if sys.stdout.isatty():
            print("scorer: not writing a PDF to a terminal (use -o FILE or redirect it)", file=sys.stderr)
            return 2
        sys.stdout.flush()
        sys.stdout.buffer.write(pdf)
        sys.stdout.buffer.flush()
        return 0
    try:
        with open(output, "wb") as handle:
            handle.write(pdf)
    except OSError as exc:
        print(f"sheet: cannot write {output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = _Parser(prog="scorer", description="Cartulina: settle Tresillo sessions and print their sheets.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_settle = sub.add_parser("settle", help="print the ledger of a session file (- for standard input)")
    p_settle.add_argument("file", help="session JSON file, or - for standard input")
    p_settle.add_argument("--indent", type=int, default=None, help="indent the JSON output")
    p_sheet = sub.add_parser("sheet", help="print the sheet of a session file as a PDF (- for standard input)")
    p_sheet.add_argument("file", help="session JSON file, or - for standard input")
    p_sheet.add_argument("--language", choices=LANGUAGES, default="es", help="the sheet's language (default es)")
    p_sheet.add_argument("-o", "--output", metavar="FILE", help="write the PDF to FILE instead of standard output")
    args = parser.parse_args(argv)
    if args.command == "settle":
        return cmd_settle(args.file, args.indent)
    if args.command == "sheet":
        return cmd_sheet(args.file, args.language, args.output)
    return 2  # pragma: no cover


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

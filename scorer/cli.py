"""The ``scorer`` command line: ``scorer settle FILE`` prints the ledger."""

from __future__ import annotations

import argparse
import gc
import json
import sys
from collections.abc import Sequence

from scorer.engine import SessionError, settle


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


def cmd_settle(path: str, indent: int | None) -> int:
    """Settle a session file and print its ledger; exit 2 with one line on bad input."""
    try:
        text = _read(path)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"session: cannot read {path}: {getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
        return 2
    try:
        session = json.loads(text, parse_constant=_reject_constant)
    except (json.JSONDecodeError, ValueError, RecursionError) as exc:
        print(f"session: not valid JSON: {exc}", file=sys.stderr)
        return 2
    gc.disable()  # a short-lived process building acyclic data: collection is pure cost here
    try:
        ledger = settle(session)
    except SessionError as exc:
        print(str(exc).replace("\n", " "), file=sys.stderr)
        return 2
    except RecursionError:
        print("session: too deeply nested", file=sys.stderr)
        return 2
    # ASCII with compact separators is the C encoder's fastest path (bench/engine.py)
    separators = (",", ":") if indent is None else None
    out = json.dumps(ledger, indent=indent, separators=separators)
    sys.stdout.write(out + "\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = _Parser(prog="scorer", description="Cartulina: settle Tresillo sessions.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_settle = sub.add_parser("settle", help="print the ledger of a session file (- for standard input)")
    p_settle.add_argument("file", help="session JSON file, or - for standard input")
    p_settle.add_argument("--indent", type=int, default=None, help="indent the JSON output")
    args = parser.parse_args(argv)
    if args.command == "settle":
        return cmd_settle(args.file, args.indent)
    return 2  # pragma: no cover


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

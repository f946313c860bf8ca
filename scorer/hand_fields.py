"""A Tresillo hand read from the fields of its form (issue 24): standard library only.

The server's hand form (``scorer/web/games/tresillo.py``) reads its fields with :func:`read_tresillo`;
a phone with no network runs these very lines in Pyodide (``static/engine-worker.js``), with the
engine, to show what a hand pays before the server has it (:func:`offline_preview`). So what the
phone shows offline is what the server records: nothing of the reading is written twice.

Messages go through the ``_`` given (Flask-Babel's on the server; on the phone the Spanish text).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorer.engine import SessionError, settle
from scorer.engine.tresillo import LONG_SUITS, SUITS, active_seats

Gettext = Callable[..., str]


@dataclass
class Reading:
    """What a hand form's fields say: the hand (None when something is wrong or missing), the
    messages per field in order, which only say a field is not filled in yet, and the tricks count
    the reading filled in (two counts are enough: the third is what is left of the nine)."""

    hand: dict[str, Any] | None = None
    problems: list[tuple[str, str, bool]] = field(default_factory=list)  # (field, message, missing)
    third: tuple[int, int] | None = None

    def problem(self, name: str, message: str, *, missing: bool = False) -> None:
        self.problems.append((name, message, missing))


def seat_choice(value: Any, seats: Sequence[int]) -> int | None:
    try:
        seat = int(value)
    except (TypeError, ValueError):
        return None
    return seat if seat in seats else None


def _whole(value: Any) -> int | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    text = str(value).strip()
    return int(text) if text.isascii() and text.isdigit() else None


def read_tricks(get: Callable[[str], Any], seats: Sequence[int], reading: Reading, _: Gettext) -> dict[str, int] | None:
    """The tricks of the seats that play (``tricks_<seat>``): two counts are enough."""
    given: dict[int, int] = {}
    for seat in seats:
        raw = get(f"tricks_{seat}")
        if raw in (None, ""):
            continue
        try:
            count = int(raw)
        except (TypeError, ValueError):
            reading.problem("tricks", _("«%(value)s» no es un número de bazas.", value=raw))
            return None
        if not 0 <= count <= 9:
            reading.problem("tricks", _("Cada jugador hace de 0 a 9 bazas."))
            return None
        given[seat] = count
    if len(given) < 2:
        reading.problem("tricks", _("Faltan las bazas: marca las del jugador y las de uno de la contra."), missing=True)
        return None
    if len(given) == 2:
        (missing,) = [s for s in seats if s not in given]
        rest = 9 - sum(given.values())
        if rest < 0:
            reading.problem("tricks", _("Las bazas suman %(count)s: son 9 en total.", count=sum(given.values())))
            return None
        given[missing] = rest  # the third is what is left of the nine
        reading.third = (missing, rest)
    elif sum(given.values()) > 9:
        reading.problem("tricks", _("Las bazas suman %(count)s: son 9 en total.", count=sum(given.values())))
        return None
    return {str(s): given[s] for s in seats}


def _estuches(get: Callable[[str], Any], key: str, trump: str | None, reading: Reading, _: Gettext) -> int:
    choice = get(key) or ""
    if choice == "":
        return 0
    if choice == "mas":
        count = _whole(get(f"{key}_mas"))
        top = 12 if trump in LONG_SUITS else 11
        if count is None or not 6 <= count <= top:
            reading.problem(key, _("¿Cuántos %(what)s? Escribe un número de 6 a %(top)s.", what=key, top=top))
            return 0
        return count
    if choice in ("3", "4", "5"):
        return int(choice)
    reading.problem(key, _("Elige cuántos %(what)s.", what=key))
    return 0


def read_tresillo(get: Callable[[str], Any], seats: Sequence[int], lances: Collection[str], _: Gettext) -> Reading:
    """The hand dict of format.md from the form's fields (``get(name)``: the field's value, None when
    absent), for the seats that play and the lances the table offers."""
    reading = Reading()
    hand: dict[str, Any] = {}
    jugador = seat_choice(get("jugador"), seats)
    if jugador is None:
        reading.problem("jugador", _("Elige quién es el jugador."), missing=not get("jugador"))
    else:
        hand["jugador"] = jugador
    lance = get("lance") or "entrada"
    if lance not in lances:
        reading.problem("lance", _("Elige el lance."))
    hand["lance"] = lance
    trump = get("trump") or None
    if trump not in SUITS:
        reading.problem("trump", _("Elige el triunfo."), missing=trump is None)
        trump = None
    else:
        hand["trump"] = trump
    estuches = _estuches(get, "estuches", trump, reading, _)
    contra = _estuches(get, "contraestuches", trump, reading, _)
    if estuches and contra:
        reading.problem("estuches", _("No puede haber estuches y contraestuches a la vez."))
    if estuches:
        hand["estuches"] = estuches
    if contra:
        hand["contraestuches"] = contra
    rendida = bool(get("rendida"))
    defensor = None
    if get("defensor"):
        defensor = seat_choice(get("defensor"), seats)
        if defensor is None:
            reading.problem("defensor", _("Elige el defensor entre los que juegan."))
    if rendida:
        hand["rendida"] = True
    if defensor is not None:
        hand["defensor"] = defensor
    if get("primeras") in ("jugador", "contra"):
        hand["primeras"] = get("primeras")
    if get("bola") in ("hecha", "cortada"):
        hand["bola"] = get("bola")
    if not rendida or defensor is not None:  # an undefended rendida has no tricks (format.md)
        tricks = read_tricks(get, seats, reading, _)
        if tricks is not None:
            hand["tricks"] = tricks
    reading.hand = None if reading.problems else hand
    return reading


def spanish(message: str, **params: Any) -> str:
    """The ``_`` of a phone with no network: the Spanish text itself."""
    return message % params if params else message


def offline_preview(
    session: dict[str, Any], queued: Sequence[Mapping[str, Any]], fields: Mapping[str, Any], lances: Collection[str]
) -> dict[str, Any]:
    """What the hand on the form does, after the entries waiting on the phone: the ledger entry the
    engine makes of it (``{"ok": True, "n", "entry", "hands": [the waiting entries' ledger entries]}``),
    or what keeps it from being worked out (``{"ok": False, "problems": {field: [messages]},
    "missing": [...]}``, or ``"unknown"``: a waiting entry this phone cannot read offline).

    ``queued``: the waiting entries, ``{"form": "hand" | "pass" | …, "fields": [[name, value], …]}``;
    ``fields``: the form's, ``{name: value}``."""
    work = {**session, "hands": list(session.get("hands", []))}
    start = len(work["hands"])
    players = len(work.get("players", []))
    for entry in queued:
        if entry.get("form") == "pass":
            work["hands"].append({"pass": True})
        elif entry.get("form") == "hand":
            values = {str(k): v for k, v in entry.get("fields", [])}
            dealer = int(settle(work).get("next_dealer") or 1)
            reading = read_tresillo(values.get, active_seats(players, dealer), lances, spanish)
            if reading.hand is None:
                return {"ok": False, "unknown": True, "problems": {}, "missing": []}
            work["hands"].append(reading.hand)
        else:  # an ajuste, a cambio de jugador: read by their own forms, on the server
            return {"ok": False, "unknown": True, "problems": {}, "missing": []}
    try:
        ledger = settle(work)
    except SessionError:
        return {"ok": False, "unknown": True, "problems": {}, "missing": []}
    dealer = int(ledger.get("next_dealer") or 1)
    reading = read_tresillo(lambda name: fields.get(name), active_seats(players, dealer), lances, spanish)
    problems: dict[str, list[str]] = {}
    missing = [message for _name, message, gap in reading.problems if gap]
    for name, message, gap in reading.problems:
        if not gap:
            problems.setdefault(name, []).append(message)
    if reading.hand is None:
        return {"ok": False, "problems": problems, "missing": missing}
    work["hands"].append(reading.hand)
    try:
        after = settle(work)
    except SessionError as exc:
        return {"ok": False, "problems": {exc.field or "general": [exc.reason]}, "missing": []}
    names = {str(seat): str(name) for seat, name in (after.get("players") or {}).items()}
    for made in after["hands"]:  # R33: who sits where after each change of player
        if isinstance(made.get("seating"), dict):
            names = {str(seat): str(name) for seat, name in made["seating"].items()}
    return {
        "ok": True,
        "n": len(work["hands"]),
        "entry": after["hands"][-1],
        "hands": after["hands"][start:-1],
        "names": names,
    }

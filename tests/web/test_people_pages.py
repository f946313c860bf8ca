"""People, not seats (R33): every name–number pair on the pages is that person's money.

An evening with two changes of player (one leaver's puesta goes into the plato and is collected
after he left) is entered entry by entry; after each, the table page is read, and at the end every
hand's detail and the sheet. Each balance beside a name is compared with the engine's ``people``
for the evening up to that entry, and each puesta must sit in the box of whoever made it (the person
seated in its owner seat when its hand was played, read from the session, not from the pages' code).
"""

from __future__ import annotations

import copy
import html
import re
from typing import Any

from flask.testing import FlaskClient

from scorer import engine
from tests.conftest import EXAMPLES, load_json

REAL = load_json(EXAMPLES / "real_evening.json")


def evening() -> dict[str, Any]:
    """The real evening (Diego leaves with his puesta in the plato), then Benito leaves too, and a closing."""
    session = copy.deepcopy(REAL)
    hands = session["hands"][:9]
    hands += [
        {"sienta": {"seat": 2, "player": "Fermín"}},
        {"jugador": 2, "lance": "entrada", "trump": "copas", "tricks": {"2": 3, "3": 3, "4": 3}},
        {"close": "devolver"},
    ]
    session["hands"] = hands
    return session


def number(text: str) -> int:
    return int(html.unescape(text).strip().replace("\u2212", "-").replace("+", "").replace("\u00a0", ""))


def person(name: str) -> str:
    name = re.sub(r'<span class="tag">se fue</span>', "", html.unescape(name))
    name = re.sub(r"<[^>]+>", "", name)
    return re.sub(r"\s*\(se fue\)\s*$", "", name).strip()


def balance_pairs(page: str) -> dict[str, int]:
    """Name → tantos of every balances table of a page part (the hand state's, the table's)."""
    pairs: dict[str, int] = {}
    for table in re.findall(r'<table class="balances[^"]*">(.*?)</table>', page, re.S):
        for name, tantos in re.findall(
            r'<tr[^>]*><td>(.*?)</td>\s*<td class="(?:tantos|num)[^"]*">(.*?)</td>', table, re.S
        ):
            assert person(name) not in pairs, f"{person(name)} twice in one balances table"
            pairs[person(name)] = number(re.sub(r"<[^>]+>.*", "", tantos, flags=re.S))
    return pairs


def page_marks(page: str) -> list[tuple[str, int, int]]:
    """(box name, amount, hand) of every puesta drawn in the page's cartulina boxes."""
    marks = []
    for box in re.findall(r'<div class="box" role="listitem">(.*?)</div>', page, re.S):
        name = person(re.search(r"<h3><bdi>(.*?)</bdi>", box, re.S).group(1))  # type: ignore[union-attr]
        for n, amount in re.findall(r'<li class="mark [^"]*" title="mano (\d+):[^"]*">\s*<span>(\d+)</span>', box):
            marks.append((name, int(amount), int(n)))
    return marks


def sheet_marks(page: str) -> list[tuple[str, int, int]]:
    marks = []
    for box in re.split(r'<div class="box">', page)[1:]:
        name = person(re.search(r'<div class="box-name"><bdi>(.*?)</bdi>', box, re.S).group(1))  # type: ignore[union-attr]
        body = box.split('<div class="box-name">', 1)[1].split("</section>", 1)[0]
        body = re.split(r'<div class="box">', body)[0]
        for amount, n in re.findall(r'<span class="amount">(\d+)</span>.*?m\.&nbsp;(\d+)', body, re.S):
            marks.append((name, int(amount), int(n)))
    return marks


def makers(session: dict[str, Any], ledger: dict[str, Any]) -> dict[tuple[int, int], str]:
    """(amount, hand) → the person who made that puesta, from the session's seating alone."""
    seated = {seat: name for seat, name in enumerate(session["players"], 1)}
    during = []
    for hand in session["hands"]:
        during.append(dict(seated))
        if "sienta" in hand:
            seated[int(hand["sienta"]["seat"])] = hand["sienta"]["player"]
    return {
        (int(p["amount"]), int(p["hand"])): during[int(p["hand"]) - 1][int(p["owner"])] for p in ledger["cartulina"]
    }


def people_upto(session: dict[str, Any], count: int) -> dict[str, int]:
    part = copy.deepcopy(session)
    part["hands"] = part["hands"][:count]
    return {str(k): int(v) for k, v in engine.settle(part)["people"].items()}


def test_every_name_number_pair_is_that_persons_money(client: FlaskClient) -> None:
    session = evening()
    ledger = engine.settle(session)
    owner = makers(session, ledger)
    assert set(owner.values()) >= {"Diego"}  # a leaver's puesta is in the walk
    start = copy.deepcopy(session)
    start["hands"] = []
    token = client.post("/api/tables", json=start).get_json()["edit_token"]
    for n, hand in enumerate(session["hands"], 1):
        assert client.post(f"/api/tables/{token}/hands", json=hand).status_code == 201
        table = client.get(f"/t/{token}").get_data(as_text=True)
        people = people_upto(session, n)
        shown = balance_pairs(table)
        assert shown == people, n
        for name, amount, hand_n in page_marks(table):
            assert owner[(amount, hand_n)] == name, (n, name, amount, hand_n)

    checked = 0
    for n in range(1, len(session["hands"]) + 1):
        page = client.get(f"/t/{token}/mano/{n}").get_data(as_text=True)
        before, after = page.split(">Después</h2>", 1)
        before = before.split(">Antes</h2>", 1)[1]
        assert balance_pairs(before) == people_upto(session, n - 1) if n > 1 else True, n
        assert balance_pairs(after) == people_upto(session, n), n
        for name, amount, hand_n in page_marks(before) + page_marks(after):
            assert owner[(amount, hand_n)] == name, (n, name, amount, hand_n)
            checked += 1
    assert checked  # puestas were drawn and compared

    sheet = client.get(f"/tables/{token}/sheet").get_data(as_text=True)
    final = sheet.split('<section class="final">', 1)[1].split("</table>", 1)[0] + "</table>"
    assert balance_pairs(final) == {str(k): int(v) for k, v in ledger["people"].items()}
    marks = sheet_marks(sheet)
    assert sorted((a, h) for _n, a, h in marks) == sorted(owner)  # every puesta drawn once
    for name, amount, hand_n in marks:
        assert owner[(amount, hand_n)] == name
    players = sheet.split('<ol class="players">', 1)[1].split("</ol>", 1)[0]
    for name in ledger["people"]:
        assert f'<bdi class="name">{name}</bdi>' in players  # Elena and Fermín are listed

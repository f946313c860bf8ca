"""docs/api.md works as written: every `curl` of it, replayed in order through the test client.

Each ```sh block that is a curl command is followed by an ```http block whose first line is the
status it answers (and a Content-Type line where it names one). The tokens of the first table
created stand for $EDIT and $VIEW, the first hand_id a deletion offers for $HAND_ID.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shlex
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import ROOT

DOC = ROOT / "docs" / "api.md"
BASE = "http://127.0.0.1:5000"
API = ("api.", "api_answers.")  # the blueprints of docs/api.md (the players' answers)
BLOCK = re.compile(r"```sh\n(curl .*?)```\n```http\n(.*?)```", re.S)


@dataclasses.dataclass
class Call:
    command: str
    status: int
    content_type: str | None
    method: str = "GET"
    path: str = ""
    headers: dict[str, str] = dataclasses.field(default_factory=dict)
    body: bytes | None = None


def documented_calls() -> list[Call]:
    calls = []
    for command, answer in BLOCK.findall(DOC.read_text(encoding="utf-8")):
        status = re.match(r"HTTP/1\.1 (\d{3}) ", answer)
        assert status, f"no status line after {command!r}"
        content_type = re.search(r"^Content-Type: ([^;\s]+)", answer, re.M)
        calls.append(Call(command.replace("\\\n", " ").strip(), int(status[1]), content_type and content_type[1]))
    assert len(calls) >= 15, "docs/api.md lost its examples"
    return calls


def parse(call: Call, variables: dict[str, str]) -> Call:
    """The method, path, headers and body of a curl command line (the options the page uses)."""
    command = call.command
    for name, value in variables.items():
        command = command.replace(f"${name}", value)
    assert "$" not in command, f"a variable the test does not know in {call.command!r}"
    words = shlex.split(command)
    assert words[0] == "curl"
    i = 1
    while i < len(words):
        word = words[i]
        if word in ("-s", "-i"):
            pass
        elif word == "-X":
            call.method, i = words[i + 1], i + 1
        elif word == "-H":
            name, value = words[i + 1].split(":", 1)
            call.headers[name.strip()] = value.strip()
            i += 1
        elif word in ("-d", "--data-binary"):
            data = words[i + 1]
            call.body = (ROOT / data[1:]).read_bytes() if data.startswith("@") else data.encode()
            if call.method == "GET":
                call.method = "POST"  # as curl does
            i += 1
        elif word == "-o":
            i += 1  # the file curl would write
        elif word.startswith(BASE):
            call.path = word.removeprefix(BASE)
        else:
            raise AssertionError(f"curl option the test does not know: {word}")
        i += 1
    assert call.path, f"no URL of the app in {call.command!r}"
    return call


def test_every_curl_of_the_page_answers_as_shown(app: Flask, client: FlaskClient) -> None:
    variables: dict[str, str] = {}
    endpoints = set()
    adapter = app.url_map.bind("127.0.0.1:5000")
    for documented in documented_calls():
        call = parse(documented, variables)
        with client.open(call.path, method=call.method, headers=call.headers, data=call.body) as response:
            body = response.get_data()
            assert response.status_code == call.status, f"{call.command}\n→ {response.status_code} {body[:300]!r}"
            if call.content_type:
                assert response.mimetype == call.content_type, call.command
            answer: Any = json.loads(body) if response.mimetype == "application/json" else None
        endpoint, _ = adapter.match(call.path.split("?")[0], method=call.method)
        endpoints.add(endpoint)
        if isinstance(answer, dict) and "edit_token" in answer and "EDIT" not in variables:
            variables |= {"EDIT": answer["edit_token"], "VIEW": answer["view_token"]}
        if isinstance(answer, dict) and answer.get("restorable") and "HAND_ID" not in variables:
            variables["HAND_ID"] = str(answer["restorable"][0]["hand_id"])
    api = {rule.endpoint for rule in app.url_map.iter_rules() if rule.endpoint.startswith((*API, "sheet.sheet"))}
    assert api <= endpoints, f"calls of the API with no curl in docs/api.md: {sorted(api - endpoints)}"


def test_the_page_lists_every_call_of_the_api(app: Flask) -> None:
    """The table at the top of docs/api.md names every route of the API, in Flask's <…> spelling."""
    text = DOC.read_text(encoding="utf-8")
    for rule in app.url_map.iter_rules():
        if not rule.endpoint.startswith(API):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"<\1>", rule.rule).replace("<int:", "<")
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            assert f"`{method} {path}`" in text, f"{method} {path} is missing from docs/api.md"

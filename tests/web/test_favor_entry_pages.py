"""A session with a change of favour suit (R34, result ``favor``) keeps every
page that lists entries working; the UI for the event itself is a later task."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.conftest import EXAMPLES, load_json


@pytest.mark.parametrize(
    "path",
    ["", "/manos", "/mano/3", "/mano/4", "/estado", "/exportar.json", "/exportar.csv"],
)
def test_pages_that_list_entries_take_a_favour_change(
    client: FlaskClient, make_table: Callable[..., Any], path: str
) -> None:
    t = make_table(load_json(EXAMPLES / "favor_change.json"))
    for token in (t.edit_token, t.view_token):
        response = client.get(f"/t/{token}{path}")
        assert response.status_code == 200, (path, response.status_code)


def test_the_sheet_takes_a_favour_change(client: FlaskClient, make_table: Callable[..., Any]) -> None:
    t = make_table(load_json(EXAMPLES / "favor_change.json"))
    response = client.get(f"/tables/{t.view_token}/sheet")
    assert response.status_code == 200
    assert b"Benito" in response.data

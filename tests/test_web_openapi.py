"""The API's description (``/api/openapi.json``, :mod:`tilelay.web.openapi`) against the app
itself, by schemathesis: requests made from the description, valid and not, each answered as
the description says (its statuses, its schemas, its error shape), none a server error; a
request the description refuses (a field the server does not know, a value out of range, a
field missing) refused by the server too; a method a path does not answer is a 405 naming
the methods it does (``Allow``).

What the description cannot say (that a game, hex, tile or saved board exists; that a move
is legal) the server checks beyond it, with a 4xx naming what was wrong: schemathesis's
"schema-valid request rejected" check is left out for that reason, and the tests below
check the description's own limits one by one where the server states them.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema_rs  # (schemathesis's)
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings, strategies
from schemathesis.specs.openapi.checks import positive_data_acceptance
from starlette.testclient import TestClient

from tilelay.web import create_app
from tilelay.web.compute import TIMED_OUT
from tilelay.web.openapi import description

#: the app under test, its saved boards and games in a folder of their own (made as the
#: module is collected, as the operations are read from the app's description then)
_APP = create_app(db=Path(tempfile.mkdtemp(prefix="tilelay-openapi-")) / "boards.sqlite3")
_SCHEMA = schemathesis.openapi.from_asgi("/api/openapi.json", _APP)
_OPERATIONS = [found.ok() for found in _SCHEMA.get_all_operations()]
#: each operation with requests the description allows (positive), and those with some
#: input, with requests it refuses (negative)
_CASES = [
    (mode, op)
    for op in _OPERATIONS
    for mode in schemathesis.GenerationMode
    if mode is schemathesis.GenerationMode.POSITIVE
    or len(op.path_parameters) + len(op.query) + len(op.body)
]


@pytest.fixture(autouse=True)
def no_timed_out_searches() -> Iterator[None]:
    TIMED_OUT.clear()
    yield
    TIMED_OUT.clear()


@pytest.mark.parametrize(
    ("mode", "operation"), _CASES, ids=[f"{m.value} {op.label}" for m, op in _CASES]
)
@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
    database=None,
)
@given(data=strategies.data())
def test_the_app_answers_as_its_description_says(
    mode: Any, operation: Any, data: strategies.DataObject
) -> None:
    """Requests the description allows (positive) and refuses (negative) for each
    operation."""
    case = data.draw(operation.as_strategy(generation_mode=mode))
    case.call_and_validate(excluded_checks=[positive_data_acceptance])


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db=tmp_path / "boards.sqlite3")) as c:
        yield c


def test_a_method_not_answered_names_those_that_are(client: TestClient) -> None:
    """Several routes serve one path (GET and POST ``/api/boards``): the 405 and its
    ``Allow`` name them all, on the API and on pages."""
    answer = client.request("TRACE", "/api/boards")
    assert answer.status_code == 405
    assert answer.headers["allow"] == "GET, HEAD, POST"
    assert answer.json() == {
        "error": "TRACE is not answered here: expected GET, HEAD, POST",
        "status": 405,
        "suggestions": [],
    }
    page = client.post("/boards")
    assert page.status_code == 405 and page.headers["allow"] == "GET, HEAD"
    assert "POST is not answered here" in page.text


def _body_schema(path: str, method: str = "post") -> dict[str, Any]:
    op = description()["paths"][path][method]
    found: dict[str, Any] = op["requestBody"]["content"]["application/json"]["schema"]
    return found


@pytest.mark.parametrize(
    ("path", "good", "bad", "message"),
    [
        ("/api/boards/lay", {"rotation": 5}, {"rotation": 6}, "'rotation' must be"),
        ("/api/boards/lay", {"hex": "K4"}, {"hex": " "}, "'hex' must be a non-empty string"),
        ("/api/boards/lay", {"hex": "K" * 80}, {"hex": "K" * 81}, "at most 80 characters"),
        ("/api/boards/token", {"city": 20}, {"city": 21}, "'city' must be"),
        ("/api/boards/rotate", {"step": -1}, {"step": 2}, "'step' must be 1"),
        ("/api/boards/options", {"options": ["x"] * 50}, {"options": ["x"] * 51}, "at most 50"),
        ("/api/boards/view", {"reach": True}, {"colour": "red"}, "unknown field 'colour'"),
    ],
)
def test_the_description_s_limits_are_the_server_s(
    client: TestClient, path: str, good: dict[str, Any], bad: dict[str, Any], message: str
) -> None:
    """A value past one of the description's limits is one the server refuses with a 400
    saying so; the value within it is one the description allows."""
    base = {
        "/api/boards/lay": {"hex": "K4", "tile": "57"},
        "/api/boards/token": {"hex": "K4", "corporation": "AR"},
        "/api/boards/rotate": {"hex": "K4"},
    }.get(path, {})
    body = {"state": {"game": "1889"}, **base}
    answer = client.post(path, json={**body, **bad})
    assert answer.status_code == 400 and message in answer.json()["error"], answer.text
    # (the body's schema with the description's components: its $refs resolve there)
    schema = {**_body_schema(path), "components": description()["components"]}
    assert not jsonschema_rs.is_valid(schema, {**body, **bad})
    assert jsonschema_rs.is_valid(schema, {**body, **good})


def test_a_board_state_s_fields_are_closed(client: TestClient) -> None:
    """A board state with a field it does not have is refused, as its schema says."""
    state = description()["components"]["schemas"]["BoardState"]
    assert state["additionalProperties"] is False
    answer = client.post("/api/boards/view", json={"state": {"game": "1889", "colour": 1}})
    assert answer.status_code == 400
    assert "unknown field(s) in a board state: colour" in answer.json()["error"]

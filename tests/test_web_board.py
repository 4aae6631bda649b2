"""The board page's JSON API, saved boards, records and the OpenAPI description (TestClient)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.routing import Route
from starlette.testclient import TestClient

from tests.conftest import engine_games_known, reference, slowed_searches
from tilelay.routes import RoutePlanner
from tilelay.sandbox import BoardState
from tilelay.web import create_app
from tilelay.web.compute import TIMED_OUT, TimedOutSearches
from tilelay.web.openapi import description


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db=tmp_path / "boards.sqlite3")) as c:
        yield c


@pytest.fixture(autouse=True)
def no_timed_out_searches() -> Iterator[None]:
    """Each test starts with no search remembered as too long (by the tests before it)."""
    TIMED_OUT.clear()
    yield
    TIMED_OUT.clear()


def counted_searches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The corporations of the route searches begun (``RoutePlanner.best``) while the test
    runs, in order (over whatever searches there are: :func:`slowed_searches` first)."""
    plain, searched = RoutePlanner.best, []

    def best(self: RoutePlanner, trains: Any) -> Any:
        searched.append(self.corporation)
        return plain(self, trains)

    monkeypatch.setattr(RoutePlanner, "best", best)
    return searched


def post(client: TestClient, path: str, body: Any, status: int = 200) -> dict[str, Any]:
    response = client.post(path, content=json.dumps(body))
    assert response.status_code == status, response.text
    data: dict[str, Any] = response.json()
    if status >= 400:
        assert set(data) == {"error", "status", "suggestions"} and data["status"] == status
    return data


def test_lays_lay_rotate_token_undo(client: TestClient) -> None:
    state = {"game": "1889"}
    lays = post(client, "/api/boards/lays", {"state": state, "hex": "k8"})
    assert lays["hex"] == "K8" and lays["tile"]["preprinted"]
    legal = {c["tile"]: c["all"] for c in lays["legal"]}
    assert legal == {
        k: list(v)
        for k, v in BoardState("1889").board().legal_lays("K8", phase=None).items()
        if k in legal
    }
    assert set(legal) == {"5", "6", "57"}  # yellow, from the manifest, in legal rotations
    assert all(r["svg"].startswith("<svg") for c in lays["legal"] for r in c["rotations"])
    assert lays["cities"] == [{"city": 0, "slots": 1, "tokens": [], "revenue": 0}]
    assert lays["reach_note"] is None
    # only where a corporation without a token reaches: nothing, and the answer says why
    alone = {"game": "1889", "corporation": "AR"}
    lays = post(client, "/api/boards/lays", {"state": alone, "hex": "K8", "reach": True})
    assert lays["legal"] == [] and lays["reach_note"] == (
        "AR has no station token on the map: it reaches nowhere yet"
    )
    view = post(
        client, "/api/boards/lay", {"state": state, "hex": "K8", "tile": "57", "rotation": 1}
    )
    assert view["state"]["actions"] == ["K8=57-1"] and view["history"]["undo"] == 1
    assert 'data-coord="K8"' in view["svg"] and 'data-tile="57"' in view["svg"]
    view = post(client, "/api/boards/rotate", {"state": view["state"], "hex": "K8"})
    assert view["state"]["actions"] == ["K8=57-4"]
    view = post(
        client, "/api/boards/token", {"state": view["state"], "hex": "K8", "corporation": "AR"}
    )
    assert view["tokens"] == [{"hex": "K8", "city": 0, "corporations": ["AR"]}]
    assert 'class="token"' in view["svg"]
    after = post(client, "/api/boards/lays", {"state": view["state"], "hex": "K8"})
    assert not after["tile"]["preprinted"] and after["replace"]  # 57 may be swapped for 5/6
    undone = post(client, "/api/boards/undo", {"state": view["state"]})
    assert undone["tokens"] == [] and undone["history"]["redo"] == 1
    redone = post(client, "/api/boards/redo", {"state": undone["state"]})
    assert redone["state"] == view["state"]
    removed = post(
        client,
        "/api/boards/token",
        {"state": redone["state"], "hex": "K8", "corporation": "AR", "remove": True},
    )
    assert removed["tokens"] == []


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        ("lay", {"hex": "F3", "tile": "57", "rotation": 0, "replace": "yes"}, "'replace' must be"),
        ("lay", {"hex": "F3", "tile": "57", "rotation": 0, "replace": 1}, "'replace' must be"),
        ("lay", {"hex": "F3", "tile": "57"}, "no 'rotation'"),
        ("token", {"hex": "K4", "corporation": "KO", "remove": "no"}, "'remove' must be"),
        ("rotate", {"hex": "F3", "step": 0}, "'step' must be 1"),
        ("lay", {"hex": "F3", "tile": "57", "rotation": 0, "zzz": 1}, "unknown field 'zzz'"),
        ("view", {"corporation": "KO"}, "unknown field 'corporation'"),
        ("lays", {"hex": "F3", "tile": "57"}, "unknown field 'tile'"),
    ],
)
def test_board_edits_refuse_fields_of_the_wrong_kind(
    client: TestClient, path: str, body: dict[str, object], message: str
) -> None:
    err = post(client, f"/api/boards/{path}", {"state": {"game": "1889"}, **body}, 400)
    assert message in err["error"]


def test_refusals_name_the_rule(client: TestClient) -> None:
    state = {"game": "1889"}
    err = post(
        client,
        "/api/boards/lay",
        {"state": state, "hex": "K4", "tile": "440", "rotation": 0},
        422,
    )
    assert "phase 2 allows yellow" in err["error"]
    err = post(
        client, "/api/boards/lay", {"state": state, "hex": "A10", "tile": "57", "rotation": 0}, 422
    )
    assert "off the map" in err["error"]
    err = post(client, "/api/boards/token", {"state": state, "hex": "K4", "corporation": "XX"}, 400)
    assert "no corporation 'XX'" in err["error"]
    full = post(client, "/api/boards/token", {"state": state, "hex": "K4", "corporation": "KO"})
    err = post(
        client,
        "/api/boards/token",
        {"state": full["state"], "hex": "K4", "corporation": "AR"},
        422,
    )
    assert "is full" in err["error"]
    err = post(client, "/api/boards/lays", {"state": {"game": "1999"}, "hex": "K4"}, 400)
    assert "1889" in err["suggestions"]
    err = post(client, "/api/boards/lays", {"state": state, "hex": "Z99"}, 400)
    post(client, "/api/boards/lay", {"state": state, "hex": "K8", "tile": "57", "rotation": 9}, 400)
    err = post(client, "/api/boards/view", {"state": {"game": "1889", "actions": ["K8=99"]}}, 400)
    assert "action 1" in err["error"]
    err = post(client, "/api/boards/view", {"nostate": 1}, 400)
    assert "state" in err["error"]
    response = client.post("/api/boards/view", content=b"{not json")
    assert response.status_code == 400 and "JSON" in response.json()["error"]
    response = client.post("/api/boards/view", content=b"x" * (2 * 1024 * 1024))
    assert response.status_code == 413


#: A board state with KO's token on K4 (1889), to edit.
_KO = {"game": "1889", "actions": ["K4=KO@0"]}


@pytest.mark.parametrize(
    ("path", "body", "said", "suggested"),
    [
        # names in the state (top-level fields of the body's state)
        ("view", {"state": {"game": "1999"}}, "no game named '1999'", "1889"),
        ("view", {"state": {**_KO, "options": ["nope"]}}, "no option 'nope'", None),
        ("view", {"state": {**_KO, "phase": "99"}}, "no phase '99'", "2"),
        ("view", {"state": {**_KO, "corporation": "XX"}}, "no corporation 'XX'", None),
        ("view", {"state": {**_KO, "corporation": "KO", "trains": ["99"]}}, "'99'", "2"),
        # names in the state's actions
        ("view", {"state": {"game": "1889", "actions": ["K8=9999-0"]}}, "no tile '9999'", None),
        ("view", {"state": {"game": "1889", "actions": ["K4=XX@0"]}}, "'XX'", None),
        ("view", {"state": {"game": "1889", "actions": ["Z9=57-0"]}}, "no hex 'Z9'", None),
        # names in the edit
        ("lay", {"state": _KO, "hex": "K8", "tile": "9999", "rotation": 0}, "'9999'", None),
        ("lay", {"state": _KO, "hex": "Z9", "tile": "57", "rotation": 0}, "no hex 'Z9'", None),
        ("token", {"state": _KO, "hex": "K4", "corporation": "XX"}, "'XX'", None),
        ("token", {"state": _KO, "hex": "Z9", "corporation": "AR"}, "no hex 'Z9'", "J9"),
        ("phase", {"state": _KO, "phase": "99"}, "no phase '99'", "2"),
        ("options", {"state": _KO, "options": ["nope"]}, "no option 'nope'", None),
        ("routes", {"state": _KO, "corporation": "XX", "trains": []}, "'XX'", None),
        ("routes", {"state": _KO, "corporation": "KO", "trains": ["99"]}, "'99'", "2"),
        ("lays", {"state": _KO, "hex": "Z9"}, "no hex 'Z9'", "J9"),
        ("lays", {"state": {"game": "1999"}, "hex": "K4"}, "no game named '1999'", "1889"),
    ],
)
def test_a_name_in_the_body_that_the_server_does_not_know_is_400(
    client: TestClient, path: str, body: dict[str, Any], said: str, suggested: str | None
) -> None:
    """Wherever the body names what the game does not have (the state's fields, its
    actions, the edit's fields), the answer is the same: 400 saying what, with close names
    where there are some (404 is for what the URL's path names)."""
    err = post(client, f"/api/boards/{path}", body, 400)
    assert said in err["error"]
    assert suggested is None or suggested in err["suggestions"]


def test_404_is_only_for_what_the_path_names(client: TestClient) -> None:
    """A saved board's save with an unknown game in its state is 400 (the board is there:
    the page must not take it for deleted); a save, a new board or an import naming an
    unknown game is 400; a board id or game in the path that does not exist is 404."""
    state = BoardState("1889").lay("K8", "57", 1).to_json()
    created = post(client, "/api/boards", {"name": "b", "state": state}, 201)["board"]
    unknown = {"game": "1999", "actions": ["K8=57-1"]}
    response = client.put(f"/api/boards/{created['id']}", json={"version": 1, "state": unknown})
    assert response.status_code == 400 and "1889" in response.json()["suggestions"]
    assert client.get(f"/api/boards/{created['id']}").json()["board"]["version"] == 1
    err = post(client, "/api/boards", {"name": "c", "state": unknown}, 400)
    assert err["suggestions"] == ["1889"]
    exported = {"format": "tilelay-board", "version": 1, "name": "d", "state": unknown}
    post(client, "/api/boards/import", exported, 400)
    # what the path names
    gone = client.put(f"/api/boards/{created['id'] + 1}", json={"version": 1, "state": state})
    assert gone.status_code == 404 and gone.json()["status"] == 404
    assert client.get("/board/1999").status_code == 404
    # a saved board or record the page's query names that is not there: 404, both
    assert client.get("/board/1889?board=99999").status_code == 404
    assert client.get("/board/1889?record=99999").status_code == 404
    assert client.post("/api/routes/1999", content=b"{}").json()["status"] == 404
    # a path the API does not have says where the API is described
    for path in ("/api", "/api/", "/api/bords"):
        missing = client.get(path)
        assert missing.status_code == 404
        assert "/api/openapi.json" in missing.json()["error"], path


def test_a_deleted_board_s_id_is_not_given_again(client: TestClient) -> None:
    """An old link to a deleted board (the one with the highest id) finds nothing, not the
    next board saved."""
    state = BoardState("1889").to_json()
    first = post(client, "/api/boards", {"name": "first", "state": state}, 201)["board"]
    last = post(client, "/api/boards", {"name": "last", "state": state}, 201)["board"]
    assert client.delete(f"/api/boards/{last['id']}").status_code == 200
    new = post(client, "/api/boards", {"name": "new", "state": state}, 201)["board"]
    assert new["id"] not in (first["id"], last["id"])
    assert client.get(f"/api/boards/{last['id']}").status_code == 404
    assert client.get(f"/board/1889?board={last['id']}").status_code == 404


def test_routes_live_equal_the_optimiser(client: TestClient) -> None:
    state = BoardState("1889").lay("K8", "57", 1).place_token("K8", "AR")
    view = post(
        client,
        "/api/boards/routes",
        {"state": state.to_json(), "corporation": "AR", "trains": ["2", "2"]},
    )
    best = RoutePlanner(state.board(), "AR", state.current_phase()).best(["2", "2"])
    assert view["routes"]["revenue"] == best.revenue == 40
    assert [r["revenue"] for r in view["routes"]["per_train"]] == [40, 0]
    assert view["svg"].count('class="route"') == len(best.routes)
    # every later change recomputes them
    view = post(client, "/api/boards/phase", {"state": view["state"], "phase": "5"})
    assert view["routes"]["revenue"] == 60  # L7 is worth 40 in brown
    view = post(client, "/api/boards/view", {"state": view["state"], "reach": True})
    assert "K8" in view["reach"] and 'class="highlight"' in view["svg"]


def test_options_change_the_lays(client: TestClient) -> None:
    plain = post(client, "/api/boards/lays", {"state": {"game": "1889"}, "hex": "J3"})
    assert not any(c["tile"].startswith("Beg") for c in plain["legal"])
    view = post(
        client, "/api/boards/options", {"state": {"game": "1889"}, "options": ["beginner_game"]}
    )
    assert view["game"]["options"][0]["chosen"]
    lays = post(client, "/api/boards/lays", {"state": view["state"], "hex": "J3"})
    assert any(c["tile"] == "Beg7" for c in lays["legal"])
    post(client, "/api/boards/options", {"state": {"game": "1889"}, "options": ["nope"]}, 400)


def test_saved_boards(client: TestClient) -> None:
    state = BoardState("1889").lay("K8", "57", 1).to_json()
    created = post(client, "/api/boards", {"name": "try", "state": state}, 201)
    board_id, version = created["board"]["id"], created["board"]["version"]
    listing = client.get("/api/boards").json()
    assert listing["boards"][0]["game"] == "1889" and listing["database"].endswith(".sqlite3")
    got = client.get(f"/api/boards/{board_id}").json()
    assert got["state"] == state
    more = BoardState.from_json(state).lay("J3", "8", 3).to_json()
    saved = client.put(f"/api/boards/{board_id}", json={"version": version, "state": more})
    assert saved.status_code == 200 and saved.json()["board"]["version"] == version + 1
    # the second tab, still at the old version: refused, and its state kept
    stale = BoardState.from_json(state).lay("G4", "57", 1).to_json()
    conflict = client.put(f"/api/boards/{board_id}", json={"version": version, "state": stale})
    assert conflict.status_code == 409 and "saved elsewhere" in conflict.json()["error"]
    assert client.get(f"/api/boards/{board_id}").json()["state"] == more
    revisions = client.get(f"/api/boards/{board_id}/revisions").json()["revisions"]
    assert {"conflict", "replaced"} == {r["reason"] for r in revisions}
    assert [r["state"] for r in revisions if r["reason"] == "conflict"] == [stale]
    # a bad save changes nothing
    bad = client.put(
        f"/api/boards/{board_id}",
        json={"version": version + 1, "state": {"game": "1889", "actions": ["K8=nosuch-0"]}},
    )
    assert bad.status_code == 400
    assert client.get(f"/api/boards/{board_id}").json()["board"]["version"] == version + 1
    renamed = client.patch(f"/api/boards/{board_id}", json={"name": "renamed"})
    assert renamed.json()["board"]["name"] == "renamed"
    exported = client.get(f"/api/boards/{board_id}/export")
    assert "attachment" in exported.headers["content-disposition"]
    data = exported.json()
    assert data["format"] == "tilelay-board" and data["state"] == more
    imported = post(client, "/api/boards/import", data, 201)
    assert imported["board"]["id"] != board_id and imported["state"] == more
    post(client, "/api/boards/import", {"format": "other"}, 400)
    assert client.delete(f"/api/boards/{board_id}").status_code == 200
    assert client.get(f"/api/boards/{board_id}").status_code == 404
    assert client.delete(f"/api/boards/{board_id}").status_code == 404
    assert client.get("/api/boards/12345").json()["status"] == 404
    page = client.get("/boards")
    assert page.status_code == 200 and f"?board={imported['board']['id']}" in page.text
    assert f'?board={board_id}"' not in page.text
    assert page.text.index("/static/api.js") < page.text.index("/static/boards.js")
    board_page = client.get(f"/board/1889?board={imported['board']['id']}")
    assert board_page.status_code == 200 and "K8=57-1" in board_page.text
    assert board_page.text.index("/static/api.js") < board_page.text.index("/static/board.js")
    assert client.get("/board/1830?board=" + str(imported["board"]["id"])).status_code == 404


def test_a_step_answered_by_another_process_searches_only_its_own_run(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server's processes keep their own analyses: a step or a branch asked of one that
    did not import the record replays it without searching its runs (the step's own search
    then has the request's time)."""
    from tilelay.web import records

    record = reference("18xxgames", "fixtures", "1889_314.json").read_bytes()
    data = client.post("/api/records", content=record).json()
    record_id, last = data["record"]["id"], data["runs"][-1]
    records._CACHE.clear()  # (another process)
    plain, searched = RoutePlanner.best, []

    def best(self: RoutePlanner, trains: Any) -> Any:
        searched.append(self.corporation)
        return plain(self, trains)

    monkeypatch.setattr(RoutePlanner, "best", best)
    step = client.get(f"/api/records/{record_id}/steps/{last['n']}").json()
    assert step["run"]["best"] == last["best"] and searched == [last["corporation"]]
    assert post(client, f"/api/records/{record_id}/branch", {"step": 3})["state"]
    assert len(searched) == 1
    # the record itself (its runs' bests) is searched again where no process keeps it
    assert client.get(f"/api/records/{record_id}").json()["runs"][-1]["best"] == last["best"]
    assert len(searched) == len(data["runs"]) + 1


def test_a_board_whose_routes_take_too_long_shows_without_them(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TILELAY_REQUEST_SECONDS", "1")

    actions = ["J3=8-3", "K6=8-3", "J5=58-2", "K4=KO@0"]
    state = {"game": "1889", "actions": actions, "corporation": "KO", "trains": ["2"]}
    assert (
        post(client, "/api/boards/view", {"state": state})["routes"]["revenue"] == 30 + 20
    )  # L7-K6-K4
    slowed_searches(monkeypatch, 60)
    t0 = time.perf_counter()
    view = post(client, "/api/boards/view", {"state": state})
    assert time.perf_counter() - t0 < 1  # (answered in its 0.75 s, not 503)
    routes = view["routes"]
    assert routes["revenue"] is None and routes["routes"] == []
    assert "longer than 0.75 s" in routes["note"] and view["svg"].startswith("<svg")
    assert [t["revenue"] for t in routes["per_train"]] == [None]


def test_a_search_that_took_too_long_is_not_searched_again(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same position (board, phase, corporation, trains) asked for again after its
    search ran out of time answers at once, with the same answer, however the state came
    back (another view, the reach shown, the same routes chosen, an undo); a changed
    position, or a longer time limit, is searched again."""
    monkeypatch.setenv("TILELAY_REQUEST_SECONDS", "1")  # a search may take 0.75 s
    slowed_searches(monkeypatch, 60)
    searched = counted_searches(monkeypatch)
    actions = ["J3=8-3", "K6=8-3", "J5=58-2", "K4=KO@0"]
    state = {"game": "1889", "actions": actions, "corporation": "KO", "trains": ["2", "3"]}
    t0 = time.perf_counter()
    first = post(client, "/api/boards/view", {"state": state})
    assert time.perf_counter() - t0 >= 0.75 and len(searched) == 1
    assert first["routes"]["revenue"] is None and "longer than 0.75 s" in first["routes"]["note"]
    t0 = time.perf_counter()
    again = post(client, "/api/boards/view", {"state": state})
    assert time.perf_counter() - t0 < 0.75 and len(searched) == 1
    assert again["routes"] == first["routes"] and again["svg"] == first["svg"]
    post(client, "/api/boards/view", {"state": state, "reach": True})
    chosen = post(
        client, "/api/boards/routes", {"state": state, "corporation": "KO", "trains": ["2", "3"]}
    )
    assert chosen["routes"] == first["routes"] and len(searched) == 1
    # an edit changes the position: searched again; its undo brings the first one back
    laid = post(
        client, "/api/boards/lay", {"state": state, "hex": "C8", "tile": "9", "rotation": 0}
    )
    assert laid["routes"]["revenue"] is None and len(searched) == 2
    undone = post(client, "/api/boards/undo", {"state": laid["state"]})
    assert undone["routes"] == first["routes"] and len(searched) == 2
    post(client, "/api/boards/undo", {"state": laid["state"], "reach": True})
    assert len(searched) == 2
    # other trains, another phase: other positions
    post(client, "/api/boards/routes", {"state": state, "corporation": "KO", "trains": ["2"]})
    post(client, "/api/boards/phase", {"state": state, "phase": "3"})
    assert len(searched) == 4
    # a longer limit may be enough: the position is searched again (and remembered with it)
    monkeypatch.setenv("TILELAY_REQUEST_SECONDS", "1.2")
    longer = post(client, "/api/boards/view", {"state": state})
    assert "longer than 0.9 s" in longer["routes"]["note"] and len(searched) == 5
    post(client, "/api/boards/view", {"state": state})
    assert len(searched) == 5


def test_searches_that_took_too_long_are_bounded_and_forgotten_in_time() -> None:
    now = [1000.0]
    memo = TimedOutSearches(kept=3, seconds=60, clock=lambda: now[0])
    boards = [["board", "1889", [f"K{n}=57-0"] * 1000] for n in range(5)]
    for board in boards:
        memo.remember(board, 0.75)
    assert len(memo) == 3  # the oldest forgotten first
    assert not memo.timed_out(boards[0], 0.75) and not memo.timed_out(boards[1], 0.75)
    assert memo.timed_out(boards[4], 0.75) and memo.timed_out(boards[4], 0.5)
    assert not memo.timed_out(boards[4], 1.5)  # a longer limit may be enough
    now[0] += 59
    assert memo.timed_out(boards[2], 0.75)
    now[0] += 2  # past a minute: the machine may have been busy then
    assert not memo.timed_out(boards[2], 0.75) and len(memo) == 2


def test_records_step_and_branch(client: TestClient) -> None:
    record = reference("18xxgames", "fixtures", "1889_314.json").read_bytes()
    response = client.post("/api/records", content=record)
    assert response.status_code == 201, response.text
    data = response.json()
    record_id = data["record"]["id"]
    assert data["game"]["name"] == "1889" and len(data["steps"]) > 400
    runs = data["runs"]
    # our best is never below what was run, but at action 367, where IR ran through a city
    # full of others' tokens (an illegal route the old engine let by: see test_routes.py)
    assert runs and all(r["best"] >= r["run"] for r in runs if r["id"] != 367)
    first = runs[0]
    assert (first["corporation"], first["run"], first["best"]) == ("KO", 100, 100)
    assert data["chart"].startswith("<svg") and 'data-corporation="KO"' in data["chart"]
    step = client.get(f"/api/records/{record_id}/steps/{first['n']}").json()
    assert step["run"]["run"] == 100 and step["svg_run"].count('class="route"') == 2
    last = client.get(f"/api/records/{record_id}/steps/{len(data['steps']) - 1}").json()
    assert 'class="token"' in last["svg"]
    assert client.get(f"/api/records/{record_id}/steps/99999").status_code == 404
    # a step past the record's, named in the body, is a 400 (the record is there)
    err = post(client, f"/api/records/{record_id}/branch", {"step": 99999}, 400)
    assert "no step 99999" in err["error"]
    post(client, f"/api/records/{record_id + 1}/branch", {"step": 0}, 404)
    branched = post(client, f"/api/records/{record_id}/branch", {"step": first["n"]})
    state = BoardState.from_json(branched["state"])
    assert state.corporation == "KO" and state.trains == ("2", "2")
    view = post(client, "/api/boards/view", {"state": branched["state"]})
    assert view["routes"]["revenue"] == 100
    assert client.get("/api/records").json()["records"][0]["id"] == record_id
    # the players by their names, as the record names them
    assert any(s["text"].startswith("Player 1 bid") for s in data["steps"][:4])
    assert not any(s["text"].startswith("639 ") for s in data["steps"])
    # a route run that is not legal says why (action 367: IR through a full city)
    n = next(r["n"] for r in runs if r["id"] == 367)
    step = client.get(f"/api/records/{record_id}/steps/{n}").json()
    ran = step["run"]["ran"]
    wrong = [r for r in ran if r["problem"]]
    assert len(wrong) == 1 and not wrong[0]["drawn"] and "no legal route" in wrong[0]["problem"]
    # the legal route beside it is drawn
    assert all(r["drawn"] for r in ran if not r["problem"])
    assert step["svg_run"].count('class="route"') == len(ran) - 1
    assert {r["type"] for r in ran} <= {"2", "3", "4", "5", "6", "D"}


def test_a_record_of_long_searches_is_imported_with_its_later_runs_unsearched(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The import's route searches take half the request's time limit in all: a record
    whose searches take longer is imported with the runs the time left unsearched (best
    None), and stepping to one searches it (for three quarters of the limit); a step whose
    search takes longer still shows the map and the routes run, and is not searched again."""
    from tilelay.web import records

    monkeypatch.setenv("TILELAY_REQUEST_SECONDS", "2")
    record = reference("18xxgames", "fixtures", "1889_314.json").read_bytes()
    slow = slowed_searches(monkeypatch, 0.3)
    t0 = time.perf_counter()
    data = client.post("/api/records", content=record).json()
    assert time.perf_counter() - t0 < 2  # (answered, not 503)
    runs = data["runs"]
    searched = [r for r in runs if r["best"] is not None]
    assert 1 <= len(searched) <= 4 and runs[: len(searched)] == searched
    later = runs[-1]
    assert later["best"] is None and later["missed"] is None
    assert 'data-best=""' in data["chart"] and "best not searched for" in data["chart"]
    record_id = data["record"]["id"]
    step = client.get(f"/api/records/{record_id}/steps/{later['n']}").json()
    assert step["run"]["best"] is not None and step["run"]["best_routes"]
    # the run searched is kept: the record lists it searched, and showing it again is at once
    listed = client.get(f"/api/records/{record_id}").json()["runs"]
    assert [r["best"] for r in listed if r["n"] == later["n"]] == [step["run"]["best"]]
    slow["seconds"] = 60  # past the step's 1.5 s
    again = client.get(f"/api/records/{record_id}/steps/{later['n']}").json()
    assert again["run"] == step["run"]
    # another run the import left: its search is cut short, and the step still shows
    other = next(r for r in reversed(runs) if r["best"] is None and r["n"] != later["n"])
    searched = counted_searches(monkeypatch)
    t0 = time.perf_counter()
    step = client.get(f"/api/records/{record_id}/steps/{other['n']}").json()
    assert time.perf_counter() - t0 < 2
    assert step["run"]["best"] is None and step["run"]["best_routes"] == []
    assert step["run"]["run"] == other["run"] and 'class="route"' in step["svg_run"]
    # shown again (as another process keeping the record would): answered at once, the same
    assert searched == [other["corporation"]]
    records._CACHE.clear()
    t0 = time.perf_counter()
    again = client.get(f"/api/records/{record_id}/steps/{other['n']}").json()
    assert time.perf_counter() - t0 < 1.5 and again == step and len(searched) == 1


def test_bad_records_say_which_action(client: TestClient) -> None:
    record = json.loads(reference("18xxgames", "fixtures", "1889_314.json").read_text())
    for action in record["actions"]:
        if action.get("id") == 43:
            action["hex"] = "Q99"
    response = client.post("/api/records", content=json.dumps(record))
    assert response.status_code == 400
    assert "action 43" in response.json()["error"]
    record = json.loads(reference("18xxgames", "fixtures", "1889_314.json").read_text())
    for action in record["actions"]:
        if action.get("type") == "run_routes":
            action["routes"] = True
            break
    response = client.post("/api/records", content=json.dumps(record))
    assert response.status_code == 400
    assert f"action {action['id']}: its 'routes' must be" in response.json()["error"]
    # a run's revenue past the limits of amounts, and more routes than trains a corporation
    # may hold
    record = json.loads(reference("18xxgames", "fixtures", "1889_314.json").read_text())
    run = next(a for a in record["actions"] if a.get("type") == "run_routes" and a["routes"])
    run["routes"][0]["revenue"] = -1_000_000_000
    response = client.post("/api/records", content=json.dumps(record))
    assert response.status_code == 400
    assert (
        f"action {run['id']}: route 1's revenue must be a whole number"
        in (response.json()["error"])
    )
    run["routes"] = [dict(run["routes"][0], revenue=10)] * 30
    response = client.post("/api/records", content=json.dumps(record))
    assert response.status_code == 400
    assert f"action {run['id']}: runs 30 routes: at most 24" in response.json()["error"]
    good = reference("18xxgames", "fixtures", "1889_314.json").read_bytes()
    response = client.post("/api/records?name=" + "x" * 300, content=good)
    assert response.status_code == 400 and "at most 200 characters" in response.json()["error"]
    response = client.post("/api/records", content=b"[1, 2")
    assert response.status_code == 400 and "malformed JSON" in response.json()["error"]
    response = client.post("/api/records", content=b"x" * (6 * 1024 * 1024))
    assert response.status_code == 413
    assert client.get("/api/records").json()["records"] == []  # nothing was kept


def test_pages_link_to_the_board(client: TestClient) -> None:
    assert '/board/1889"' in client.get("/").text
    assert '/board/1889"' in client.get("/map/1889").text
    page = client.get("/board/1889")
    assert page.status_code == 200 and 'id="board-app"' in page.text
    assert "Saved in" in page.text and "boards.sqlite3" in page.text
    assert client.get("/board/1999").status_code == 404
    # a saved board or record the page's query names that is not there: 404, both
    assert client.get("/board/1889?board=99999").status_code == 404
    assert client.get("/board/1889?record=99999").status_code == 404
    assert client.get("/board/1889?board=abc").status_code == 400
    assert client.get("/board/1889?options=nope").status_code == 400


def test_openapi_describes_every_api_route(client: TestClient) -> None:
    doc = client.get("/api/openapi.json").json()
    assert doc["openapi"].startswith("3.1")
    described = {
        (path, method.upper())
        for path, item in doc["paths"].items()
        for method in item
        if method != "parameters"
    }
    actual = set()
    for route in client.app.routes:  # type: ignore[attr-defined]
        if isinstance(route, Route) and route.path.startswith("/api/"):
            path = re.sub(r":\w+}", "}", route.path)
            for method in route.methods or ():
                if method != "HEAD":
                    actual.add((path, method))
    assert described == actual
    assert description()["components"]["schemas"]["Error"]["required"] == [
        "error",
        "status",
        "suggestions",
    ]


def test_openapi_gives_404_only_where_the_path_names_a_resource(client: TestClient) -> None:
    """An operation may answer 404 when its path has a parameter (the resource it names may
    not exist), and only then: a name in a body that does not exist is a 400."""
    doc = client.get("/api/openapi.json").json()
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            if method != "parameters":
                assert ("404" in operation["responses"]) == ("{" in path), (path, method)


def test_a_game_of_a_second_source_keeps_its_name(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tilelay.games import registry
    from tilelay.sources.games import add_paths

    engine = reference("18xxgames", "engine", "lib", "engine", "game", "g_1889")
    add_paths([engine])
    try:
        page = client.get("/board/1889@18xx.games")
        assert page.status_code == 200
        view = post(client, "/api/boards/view", {"state": {"game": "1889@18xx.games"}})
        assert view["game"]["name"] == "1889@18xx.games"  # not the built-in 1889
        assert BoardState.from_json(view["state"]).resolve().format == "18xx.games"
        assert post(client, "/api/boards/view", {"state": {"game": "1889"}})["game"]["name"] == (
            "1889"
        )
    finally:
        registry.reset()


def _boot(page: str) -> dict[str, Any]:
    """The data a board page starts from (its ``boot`` script)."""
    found = re.search(r'<script id="boot" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def test_a_game_that_draws_its_setup_is_drawn_for_a_seed_and_players(client: TestClient) -> None:
    """18USA's board: the page draws its setup for ``?seed=&players=`` (or a seed at random
    and the most players), ``/api/boards/setup`` draws it again, and what cannot start so is
    refused naming why."""
    with engine_games_known():
        page = client.get("/board/18USA?seed=109372&players=4")
        assert page.status_code == 200, page.text
        view = _boot(page.text)["view"]
        assert view["game"]["seeded"] and view["game"]["players"] == [2, 7]
        assert (view["state"]["seed"], view["state"]["players"]) == (109372, 4)
        assert 'data-coord="A27"' in view["svg"]  # a red hex the seed's draw adds
        drawn = _boot(client.get("/board/18USA").text)["view"]["state"]
        assert isinstance(drawn["seed"], int) and drawn["players"] == 7
        again = post(client, "/api/boards/setup", {"state": view["state"], "seed": 5, "players": 3})
        assert (again["state"]["seed"], again["state"]["players"]) == (5, 3)
        assert BoardState.from_json(again["state"]).board().tile_at("G3").name == "X05"
        err = post(client, "/api/boards/setup", {"state": view["state"], "seed": 5}, 422)
        assert "give one" in err["error"]
        post(client, "/api/boards/setup", {"state": view["state"], "seed": "5"}, 400)
        assert client.get("/board/18USA?seed=x").status_code == 400
    assert not _boot(client.get("/board/1889").text)["view"]["game"]["seeded"]
    body = {"state": {"game": "1889"}, "seed": 1, "players": 3}
    err = post(client, "/api/boards/setup", body, 422)
    assert "draws nothing from a seed" in err["error"]
    assert client.get("/board/1889?seed=3&players=4").status_code == 400


def test_a_corporation_with_several_home_stations_is_home_in_each(client: TestClient) -> None:
    """1894's Ouest starts at Le Havre (B3) and Paris (E6): the board's game lists both homes,
    and the lays on either hex offer Ouest first as at home there."""
    with engine_games_known():
        view = _boot(client.get("/board/1894").text)["view"]
        ouest = next(c for c in view["game"]["corporations"] if c["sym"] == "Ouest")
        assert (ouest["home"], ouest["homes"]) == ("B3", ["B3", "E6"])
        for coord in ("B3", "E6"):
            lays = post(client, "/api/boards/lays", {"state": view["state"], "hex": coord})
            assert "Ouest" in lays["homes"], coord

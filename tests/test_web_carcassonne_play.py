"""Carcassonne played in the browser: the JSON API and pages (tilelay.web.carcassonne_play)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tilelay.carcassonne.game import MAX_SEED, Game, Move
from tilelay.carcassonne.record import GameRecord, load_game, restore
from tilelay.store import Store
from tilelay.web import create_app

API = "/api/carcassonne/games"


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(db=tmp_path / "games.sqlite3"))


def _create(client: TestClient, players: list[str], seed: int = 7, **options: bool) -> Any:
    r = client.post(API, json={"players": players, "seed": seed, **options})
    assert r.status_code == 201, r.text
    return r.json()


def _library(client: TestClient, game_id: int) -> Game:
    game = restore(GameRecord.from_dict(client.get(f"{API}/{game_id}/export").json()))
    game.draw()
    return game


def _offered(view: Any) -> set[Move]:
    out = set()
    for spot in view["legal"]:
        for rot in spot["rotations"]:
            for a in rot["actions"]:
                out.add(
                    Move(
                        spot["x"],
                        spot["y"],
                        rot["rotation"],
                        a["follower"],
                        a["abbot"],
                        a["return_abbot"],
                    )
                )
    return out


def _move(view: Any, move: Move) -> dict[str, Any]:
    return {
        "version": view["game"]["version"],
        "x": move.x,
        "y": move.y,
        "rotation": move.rotation,
        "follower": move.follower,
        "abbot": move.abbot,
        "return_abbot": move.return_abbot,
    }


@pytest.mark.parametrize(("river", "abbot"), [(False, False), (True, True)])
def test_a_whole_game_through_the_api(client: TestClient, river: bool, abbot: bool) -> None:
    view = _create(client, ["human", "greedy", "random"], seed=11, river=river, abbot=abbot)
    game_id = view["game"]["id"]
    rng = random.Random(4)
    people = 0
    while not view["game"]["finished"]:
        game = _library(client, game_id)
        assert view["game"]["moves"] == len(game.turns)
        assert view["game"]["pile"] == len(game.pile)
        assert view["hand"]["name"] == game.tile_name
        assert view["players"][game.current]["kind"] == game.players[game.current].name
        if view["game"]["person_to_move"]:
            legal = game.legal_moves()
            assert _offered(view) == set(legal)  # every legal spot, rotation and action
            move = rng.choice(legal)
            r = client.post(f"{API}/{game_id}/move", json=_move(view, move))
            people += 1
        else:
            assert view["legal"] is None
            r = client.post(f"{API}/{game_id}/step", json={"version": view["game"]["version"]})
        assert r.status_code == 200, r.text
        view = r.json()
    game = _library(client, game_id)
    assert game.finished and people == sum(1 for t in game.turns if t.player == 0)
    assert [p["score"] for p in view["players"]] == game.board.scores
    sheet = view["sheet"]
    assert [row["total"] for row in sheet["rows"]] == game.board.scores
    for row in sheet["rows"]:
        assert sum(c["during"] + c["end"] for c in row["cells"]) == row["total"]
    for farm in sheet["farms"]:
        assert farm["points"] == 3 * len(farm["cities"])
    assert view["hand"] is None and view["legal"] is None
    assert view["log"][-1].startswith("  P3")
    r = client.post(f"{API}/{game_id}/step", json={"version": view["game"]["version"]})
    assert r.status_code == 400 and r.json()["error"] == "the game is over"


def test_errors_have_one_shape(client: TestClient) -> None:
    view = _create(client, ["human", "mcts:easy"])
    game_id, version = view["game"]["id"], view["game"]["version"]

    def error(method: str, path: str, body: Any, status: int) -> str:
        r = client.request(method, path, json=body)
        assert r.status_code == status, r.text
        data = r.json()
        assert set(data) == {"error", "status", "suggestions"} and data["status"] == status
        return str(data["error"])

    assert "cannot go at (40, 0)" in error(
        "POST", f"{API}/{game_id}/move", {"version": version, "x": 40, "y": 0, "rotation": 0}, 400
    )
    spot = view["legal"][0]
    rot = spot["rotations"][0]["rotation"]
    bad = {"version": version, "x": spot["x"], "y": spot["y"], "rotation": rot, "follower": 15}
    assert "not allowed" in error("POST", f"{API}/{game_id}/move", bad, 400)
    assert "is a person" in error("POST", f"{API}/{game_id}/step", {"version": version}, 400)
    assert "moved on elsewhere" in error(
        "POST", f"{API}/{game_id}/step", {"version": version + 5}, 409
    )
    assert "'version'" in error("POST", f"{API}/{game_id}/undo", {}, 400)
    assert "no move of a person" in error(
        "POST", f"{API}/{game_id}/undo", {"version": version}, 400
    )
    assert "no Carcassonne game 999" in error("GET", f"{API}/999", None, 404)
    assert "unknown player 'wizard'" in error("POST", API, {"players": ["human", "wizard"]}, 400)
    assert "2 to 5 seats" in error("POST", API, {"players": ["human"]}, 400)
    assert "'seed'" in error("POST", API, {"players": ["human", "random"], "seed": -1}, 400)
    assert "'river'" in error("POST", API, {"players": ["human", "random"], "river": 1}, 400)
    assert "not a saved game" in error("POST", f"{API}/import", {"format": "x"}, 400)
    # nothing was changed by the refused requests
    assert client.get(f"{API}/{game_id}").json()["game"]["version"] == version


def test_undo_takes_back_the_persons_move_and_the_computers_after_it(client: TestClient) -> None:
    view = _create(client, ["human", "greedy", "random"], seed=2)
    game_id = view["game"]["id"]
    first = sorted(_offered(view), key=lambda m: (m.x, m.y, m.rotation))[0]
    view = client.post(f"{API}/{game_id}/move", json=_move(view, first)).json()
    for _ in range(2):
        view = client.post(f"{API}/{game_id}/step", json={"version": view["game"]["version"]})
        view = view.json()
    assert view["game"]["moves"] == 3 and view["game"]["can_undo"]
    r = client.post(f"{API}/{game_id}/undo", json={"version": view["game"]["version"]})
    view = r.json()
    assert view["game"]["moves"] == 0 and view["game"]["person_to_move"]
    assert not view["game"]["can_undo"] and first in _offered(view)
    assert view["game"]["version"] == 5  # every change is a version of the document


def test_saved_games_are_documents_of_the_store(client: TestClient, tmp_path: Path) -> None:
    view = _create(client, ["human", "greedy"], seed=5, abbot=True)
    game_id = view["game"]["id"]
    move = sorted(_offered(view), key=lambda m: (m.x, m.y, m.rotation))[0]
    view = client.post(f"{API}/{game_id}/move", json=_move(view, move)).json()
    view = client.post(f"{API}/{game_id}/step", json={"version": view["game"]["version"]}).json()
    store = Store(tmp_path / "games.sqlite3")
    doc = store.get(game_id, "carcassonne")
    assert doc.body["summary"] == {
        "moves": 2,
        "finished": False,
        "scores": [p["score"] for p in view["players"]],
        "current": 0,
    }
    assert doc.body["rules"]["abbot"] is True and doc.body["players"] == ["human", "greedy"]
    listed = client.get(API).json()["games"]
    assert [(g["id"], g["moves"], g["seats"]) for g in listed] == [
        (game_id, 2, ["person", "computer, greedy"])
    ]
    # the export is a saved game file the library (and the command line) loads
    exported = client.get(f"{API}/{game_id}/export")
    assert "attachment" in exported.headers["content-disposition"]
    game = load_game(exported.text)
    assert [t.move for t in game.turns] == [t.move for t in _library(client, game_id).turns]
    imported = client.post(f"{API}/import?name=again", json=exported.json())
    assert imported.status_code == 201
    again = imported.json()
    assert again["game"]["name"] == "again" and again["game"]["moves"] == 2
    assert again["board"]["svg"] == client.get(f"{API}/{game_id}").json()["board"]["svg"]
    # the export names the game, and an import without ?name= keeps the name it gives
    assert exported.json()["name"] == client.get(f"{API}/{game_id}").json()["game"]["name"]
    named = client.post(f"{API}/import", json={**exported.json(), "name": "Test ☃ game"})
    assert named.json()["game"]["name"] == "Test ☃ game"
    assert client.delete(f"{API}/{game_id}").json() == {"deleted": game_id}
    assert client.get(f"{API}/{game_id}").status_code == 404
    assert client.get(f"/carcassonne/play/{game_id}").status_code == 404


def test_the_view_of_the_board(client: TestClient) -> None:
    view = _create(client, ["human", "random"], seed=9)
    layout = view["board"]["layout"]
    assert (layout["x0"], layout["y0"], layout["columns"], layout["rows"]) == (-1, -1, 3, 3)
    svg = view["board"]["svg"]
    assert 'class="coordinates"' in svg and ">-1</text>" in svg
    hand = view["hand"]
    assert len(hand["rotations"]) == 4
    assert all(len(r["anchors"]) == len(hand["rotations"][0]["anchors"]) for r in hand["rotations"])
    labels = {a["label"] for s in view["legal"] for r in s["rotations"] for a in r["actions"]}
    assert "no follower" in labels
    assert all(not label.endswith("farm") for label in labels)  # a farm says where it lies
    assert 'class="last"' not in svg  # the start tile is no one's move
    game = _library(client, view["game"]["id"])
    move = game.legal_moves()[0]
    view = client.post(f"{API}/{view['game']['id']}/move", json=_move(view, move)).json()
    svg = view["board"]["svg"]
    assert svg.count('class="last"') == 1
    x, y = layout_cell(view["board"]["layout"], move.x, move.y)
    assert f'<rect class="last" x="{x + 1}" y="{y + 1}"' in svg


def layout_cell(layout: dict[str, Any], x: int, y: int) -> tuple[int, int]:
    """Where square ``(x, y)`` starts in a board drawing of ``layout``."""
    size = layout["size"]
    margin = layout["margin"]
    return margin + (x - layout["x0"]) * size, margin + (y - layout["y0"]) * size


def test_every_seat_kind_is_a_player_kind() -> None:
    from tilelay.carcassonne.players import ALL_KINDS, make_player
    from tilelay.web.carcassonne_play import SEAT_KINDS

    assert set(SEAT_KINDS) <= set(ALL_KINDS)
    assert {make_player(k).name for k in SEAT_KINDS} == set(SEAT_KINDS)


def test_the_pages(client: TestClient) -> None:
    page = client.get("/carcassonne/play")
    assert page.status_code == 200
    assert 'action="/carcassonne/play"' in page.text and 'name="seat4"' in page.text
    assert 'value="mcts:hard"' in page.text and 'name="river"' in page.text
    r = client.post(
        "/carcassonne/play",
        data={"seat0": "human", "seat1": "mcts:hard", "seat2": "", "abbot": "on", "seed": "3"},
        follow_redirects=False,
    )
    assert r.status_code == 303
    table = client.get(r.headers["location"])
    assert table.status_code == 200
    assert 'id="carc-app"' in table.text and "/static/carcassonne.js" in table.text
    assert table.text.index("/static/api.js") < table.text.index("/static/carcassonne.js")
    assert "person vs computer, hard (seed 3)" in table.text
    assert "the Abbot" in table.text and "the River" not in table.text
    assert "</script><" not in table.text.split('id="boot">')[1].split("</script>")[0]
    bad = client.post("/carcassonne/play", data={"seat0": "human"}, follow_redirects=False)
    assert bad.status_code == 400 and "2 to 5 seats" in bad.text
    assert 'href="/carcassonne/play"' in client.get("/carcassonne").text


@pytest.mark.parametrize("seed", ["7", "", " 7", 7.0, 7.5, True, [7], {"n": 7}])
def test_a_seed_that_is_not_a_json_whole_number_is_refused(client: TestClient, seed: Any) -> None:
    """``{"players": ["human", "greedy"], "seed": "7"}`` made a game of seed 7, where every
    other number of the API (a board's, a move's) must be a JSON number: a seed of another
    type is refused (400, naming the field), in the app's one error shape."""
    r = client.post(API, json={"players": ["human", "greedy"], "seed": seed})
    assert r.status_code == 400, r.text
    data = r.json()
    assert set(data) == {"error", "status", "suggestions"} and data["status"] == 400
    assert data["error"].startswith(f"'seed' must be a whole number from 0 to {MAX_SEED}")
    assert client.get(API).json()["games"] == []  # no game was made
    # a number, or none (a random seed), makes a game
    assert _create(client, ["human", "greedy"], seed=7)["game"]["seed"] == 7
    r = client.post(API, json={"players": ["human", "greedy"], "seed": None})
    assert r.status_code == 201 and 0 <= r.json()["game"]["seed"] <= MAX_SEED


def test_one_seed_range_on_every_page_and_the_api(client: TestClient) -> None:
    """The seed was 0 to 2**31 - 1 in the API and the setup form, but 0 to 2**63 - 1 on the
    page that watches computer players: one range everywhere (the library's, as on the
    command line), said in the forms too."""
    top = MAX_SEED
    assert _create(client, ["human", "greedy"], seed=top)["game"]["seed"] == top
    assert _create(client, ["human", "greedy"], seed=2**31)["game"]["seed"] == 2**31
    r = client.post(API, json={"players": ["human", "greedy"], "seed": -1})
    assert r.status_code == 400, r.text
    assert r.json()["error"].startswith(f"'seed' must be a whole number from 0 to {top}")
    for seed in (top + 1, 10**30):
        r = client.post(API, json={"players": ["human", "greedy"], "seed": seed})
        assert r.status_code == 400, r.text
        assert r.json()["error"].startswith(f"'seed' must be a whole number from 0 to {top}")
    # (a seed may be past the JSON reader's limit on numbers, no other number may)
    r = client.post(API, json={"players": ["human", "greedy"], "seed": 1, "name": 10**16})
    assert r.status_code == 400 and "too large" in r.json()["error"]
    r = client.post(API, json={"players": ["human", "greedy"], "seed": [10**16]})
    assert r.status_code == 400 and "too large" in r.json()["error"]
    # the page watching computer players
    assert client.get(f"/carcassonne/game?seed={top}&players=2&move=1").status_code == 200
    r = client.get(f"/carcassonne/game?seed={top + 1}&players=2&move=1")
    assert r.status_code == 400 and f"from 0 to {top}" in r.text
    # the setup form (its fields are text: the form's handler reads the digits)
    form = {"seat0": "human", "seat1": "greedy"}
    r = client.post("/carcassonne/play", data={**form, "seed": str(top)}, follow_redirects=False)
    assert r.status_code == 303
    assert f"(seed {top})" in client.get(r.headers["location"]).text
    r = client.post(
        "/carcassonne/play", data={**form, "seed": str(top + 1)}, follow_redirects=False
    )
    assert r.status_code == 400 and f"from 0 to {top}" in r.text
    r = client.post("/carcassonne/play", data={**form, "seed": "x7"}, follow_redirects=False)
    assert r.status_code == 400 and "&#39;seed&#39; must be a whole number" in r.text
    r = client.post("/carcassonne/play", data={**form, "seed": ""}, follow_redirects=False)
    assert r.status_code == 303  # empty: a random seed
    # and the forms say the range
    assert f'max="{top}"' in client.get("/carcassonne").text
    setup = client.get("/carcassonne/play").text
    assert f'maxlength="{len(str(top))}"' in setup and f"from 0 to {top}" in setup

"""The Carcassonne web pages (tilelay.web.carcassonne)."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from tilelay.carcassonne.game import MAX_PLAYERS, MIN_PLAYERS
from tilelay.carcassonne.players import new_game
from tilelay.web import create_app


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def test_index_has_form_and_tiles(client: TestClient) -> None:
    r = client.get("/carcassonne")
    assert r.status_code == 200
    assert '<form action="/carcassonne/game"' in r.text
    assert r.text.count("<figure") == 24


def test_game_page_after_move(client: TestClient) -> None:
    r = client.get("/carcassonne/game?seed=1&players=2&move=17")
    assert r.status_code == 200
    game = new_game(2, seed=1)
    game.play_to(17)
    assert "move 17 of " in r.text
    assert f"<td>{game.board.scores[0]}</td>" in r.text
    assert "Next: P2 (random) to move." in r.text
    assert 'href="/carcassonne/game?seed=1&amp;players=2&amp;move=16" rel="prev"' in r.text
    assert 'href="/carcassonne/game?seed=1&amp;players=2&amp;move=18" rel="next"' in r.text
    assert r.text.count('<g class="tile"') == 18  # start tile and 17 moves
    assert 'id="play"' in r.text and "<script>" in r.text


def test_game_page_last_move_is_game_over(client: TestClient) -> None:
    game = new_game(3, seed=4)
    game.play()
    total = len(game.turns)
    r = client.get(f"/carcassonne/game?seed=4&players=3&move={total}")
    assert r.status_code == 200
    assert "Game over" in r.text
    scores = re.findall(r"</span> P\d \(random\)</td><td>(\d+)</td>", r.text)
    assert [int(s) for s in scores] == game.board.scores
    assert "disabled>Play</button>" in r.text


def test_autoplay_steps_on(client: TestClient) -> None:
    r = client.get("/carcassonne/game?seed=2&players=2&move=3&autoplay=1")
    assert r.status_code == 200
    timer = r.text[r.text.index("setTimeout") :].split(";")[0]
    assert "move=4\\u0026autoplay=1" in timer  # the next move, as a JSON string
    assert ">Pause</button>" in r.text


def test_greedy_players(client: TestClient) -> None:
    r = client.get("/carcassonne/game?seed=2&players=2&kinds=greedy,random&move=5")
    assert r.status_code == 200
    assert "P1 (greedy)" in r.text and "P2 (random)" in r.text


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("seed=x", "query parameter &#39;seed&#39; must be a whole number from 0 to"),
        (
            "players=9",
            "query parameter &#39;players&#39; must be a whole number from "
            f"{MIN_PLAYERS} to {MAX_PLAYERS}",
        ),
        ("move=-1", "query parameter &#39;move&#39; must be a whole number from 0 to 72"),
        ("kinds=smart", "query parameter &#39;kinds&#39;: unknown player &#39;smart&#39;"),
        ("players=3&kinds=random,greedy", "2 kinds given for 3 players"),
    ],
)
def test_bad_queries_answer_400(client: TestClient, query: str, message: str) -> None:
    r = client.get(f"/carcassonne/game?{query}")
    assert r.status_code == 400
    assert message in r.text
    assert "Traceback" not in r.text
    assert client.get(f"/carcassonne/board.svg?{query}").status_code == 400


def test_svg_endpoints(client: TestClient) -> None:
    r = client.get("/carcassonne/board.svg?seed=1&players=2&move=5")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.startswith("<svg ")
    r = client.get("/carcassonne/tile/D.svg?rotation=1")
    assert r.status_code == 200 and "rotate(90 50 50)" in r.text
    assert client.get("/carcassonne/tile/Z.svg").status_code == 404  # no such tile
    assert client.get("/carcassonne/tile/D.svg?rotation=7").status_code == 400

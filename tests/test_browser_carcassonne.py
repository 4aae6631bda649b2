"""Carcassonne in a real browser (Debian's Chromium driven by Playwright).

A whole two-player game against a computer player is played by clicking: at every turn the
squares offered, their rotations and, on the chosen square, the follower spots of every
rotation are checked against the library's legal moves for the game as the store keeps it;
the final score page is reached and checked against the library. A saved game reloads; the
last move is taken back; a move is made with the keyboard only; the River and the Abbot are
played; the page is used on a tablet. Screenshots go to ``TILELAY_SCREENSHOTS`` (a folder)
when it is set, else to the test's temporary folder, and are checked to be real pictures.
"""

from __future__ import annotations

import json
import os
import random
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.test_browser import _check_png, _import_status, chromium, serving
from tilelay.carcassonne.game import Game, Move
from tilelay.carcassonne.record import GameRecord, restore
from tilelay.web import create_app

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(create_app(db=tmp_path_factory.mktemp("db") / "games.sqlite3")) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = os.environ.get("TILELAY_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path
    path.mkdir(parents=True, exist_ok=True)
    return path


def _page(browser: Any, width: int = 1280, height: int = 800, touch: bool = False) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.console_errors = errors
    return pg


def _shot(pg: Any, folder: Path, name: str) -> None:
    path = folder / f"carcassonne_{name}.png"
    pg.screenshot(path=str(path))
    _check_png(path, 600, 500)


def _start(pg: Any, server: str, seats: list[str], seed: int, **options: bool) -> int:
    """Start a game with the setup form; returns its id (the page is at the table)."""
    response = pg.goto(server + "/carcassonne/play", wait_until="load")
    assert response is not None and response.status == 200
    for i, kind in enumerate(seats):
        pg.select_option(f"#seat{i}", kind)
    for name, on in options.items():
        if on:
            pg.check(f"#{name}")
    pg.fill("#seed", str(seed))
    pg.click("#start")
    pg.wait_for_selector("#carc-app[data-ready='1']")
    game_id = int(pg.get_attribute("#carc-app", "data-id"))
    pg.goto(f"{server}/carcassonne/play/{game_id}?delay=0", wait_until="load")
    pg.wait_for_selector("#carc-app[data-ready='1']")
    return game_id


def _library_game(server: str, game_id: int) -> Game:
    """The game as the store keeps it, restored by the library."""
    url = f"{server}/api/carcassonne/games/{game_id}/export"
    with urllib.request.urlopen(url, timeout=30) as response:
        game = restore(GameRecord.from_dict(json.load(response)))
    game.draw()
    return game


def _state(pg: Any) -> str:
    pg.wait_for_selector(
        "#carc-app[data-state='place'], #carc-app[data-state='finished']", timeout=60_000
    )
    return str(pg.get_attribute("#carc-app", "data-state"))


def _offered_spots(pg: Any) -> dict[tuple[int, int], set[int]]:
    spots = pg.evaluate(
        """() => Array.from(document.querySelectorAll('#board rect.spot')).map(r =>
               [Number(r.dataset.x), Number(r.dataset.y), r.dataset.rotations])"""
    )
    return {(x, y): {int(r) for r in rots.split()} for x, y, rots in spots}


def _offered_figures(pg: Any) -> set[tuple[int, bool]]:
    marks = pg.evaluate(
        """() => Array.from(document.querySelectorAll('#board g.follower-spot')).map(g =>
               [Number(g.dataset.follower), g.dataset.abbot === '1'])"""
    )
    return {(f, a) for f, a in marks}


def _board_marks(pg: Any) -> list[str]:
    return [
        str(k)
        for k in pg.locator("#board g.follower-spot").evaluate_all(
            "gs => gs.map(g => g.dataset.key + ' ' + g.textContent)"
        )
    ]


def _hand_marks(pg: Any) -> list[str]:
    return [
        str(k)
        for k in pg.locator("#hand-tile g.hand-mark").evaluate_all(
            "gs => gs.map(g => g.dataset.key + ' ' + g.textContent)"
        )
    ]


def _tentative(pg: Any) -> tuple[int, int, int]:
    g = pg.locator("#board g.tentative")
    return (
        int(g.get_attribute("data-x")),
        int(g.get_attribute("data-y")),
        int(g.get_attribute("data-rotation")),
    )


def _check_turn(pg: Any, game: Game, rng: random.Random) -> Move:
    """Check what the page offers against ``game``'s legal moves, choose a square by clicking
    and check each rotation's follower spots; returns the move to make."""
    legal = game.legal_moves()
    expected: dict[tuple[int, int], set[int]] = {}
    for m in legal:
        expected.setdefault((m.x, m.y), set()).add(m.rotation)
    assert _offered_spots(pg) == expected
    assert pg.inner_text("#hand-name") == game.tile_name
    assert pg.locator("#legend").is_visible()  # what the squares' looks mean
    turned = int(pg.get_attribute("#hand-tile svg", "data-rotation"))
    solid = pg.evaluate(
        """() => Array.from(document.querySelectorAll('#board rect.spot.fits')).map(r =>
               [Number(r.dataset.x), Number(r.dataset.y)])"""
    )
    # solid squares take the tile as it is turned in hand, dashed ones only turned otherwise
    assert {(x, y) for x, y in solid} == {xy for xy, rots in expected.items() if turned in rots}
    assert int(pg.get_attribute("#pile", "data-count")) == len(game.pile)
    x, y = rng.choice(sorted(expected))
    pg.click(f"#board rect.spot[data-x='{x}'][data-y='{y}']")
    pg.wait_for_selector("#carc-app[data-state='follower']")
    rotations = sorted(expected[(x, y)])
    seen = set()
    for _ in rotations:
        tx, ty, rotation = _tentative(pg)
        assert (tx, ty) == (x, y) and rotation in rotations
        seen.add(rotation)
        figures = {
            (m.follower, m.abbot)
            for m in legal
            if (m.x, m.y, m.rotation) == (x, y, rotation) and m.follower is not None
        }
        assert _offered_figures(pg) == figures, (x, y, rotation)
        # the tile in hand shows the same numbered spots, where the tile is large
        assert _hand_marks(pg) == _board_marks(pg)
        pg.keyboard.press("r")
    assert seen == set(rotations)  # R goes through every legal rotation
    rotation = rng.choice(rotations)
    while _tentative(pg)[2] != rotation:
        pg.click("#rot-right")
    options = [m for m in legal if (m.x, m.y, m.rotation) == (x, y, rotation)]
    return rng.choice(options)


def _make(pg: Any, move: Move) -> None:
    """Click the follower spot of ``move`` (or the button for no follower or the abbot)."""
    if move.return_abbot:
        pg.click("#return-abbot")
    elif move.follower is None:
        pg.click("#no-follower")
    else:
        abbot = "1" if move.abbot else "0"
        pg.click(f"#board g.follower-spot[data-follower='{move.follower}'][data-abbot='{abbot}']")


def _moves(pg: Any) -> int:
    return int(pg.get_attribute("#carc-app", "data-moves"))


def test_a_whole_game_against_the_computer_by_clicking(
    server: str, browser: Any, shots: Path
) -> None:
    pg = _page(browser)
    game_id = _start(pg, server, ["human", "mcts:easy"], seed=21)
    rng = random.Random(5)
    turns = 0
    while _state(pg) == "place":
        game = _library_game(server, game_id)
        assert game.players[game.current].name == "human"
        before = _moves(pg)
        move = _check_turn(pg, game, rng)
        if turns == 6:
            _shot(pg, shots, "follower")
        _make(pg, move)
        pg.wait_for_function(
            "n => Number(document.getElementById('carc-app').dataset.moves) > n", arg=before
        )
        after = _library_game(server, game_id)
        assert after.turns[before].move == move  # the move made is the one chosen
        turns += 1
        if turns == 12:
            _state(pg)
            _shot(pg, shots, "in_progress")
    assert turns >= 30
    game = _library_game(server, game_id)
    assert game.finished
    pg.wait_for_selector("#sheet:not([hidden])")
    _shot(pg, shots, "final")
    scores = [int(s) for s in pg.locator("#scores td.score").all_inner_texts()]
    assert scores == game.board.scores
    totals = [int(t) for t in pg.locator("#sheet tfoot td.total").all_inner_texts()]
    assert totals == game.board.scores
    assert "Farms, city by city" in pg.inner_text("#sheet")
    farms = pg.locator("#sheet li[data-farm]")
    if farms.count():
        farms.first.click()
        assert pg.locator("#board rect.farm-lit").count() > 0
        _shot(pg, shots, "final_farm")
    assert pg.locator("#undo").is_enabled()
    assert pg.console_errors == []


def test_a_saved_game_reloads(server: str, browser: Any, shots: Path) -> None:
    pg = _page(browser)
    game_id = _start(pg, server, ["human", "greedy", "random"], seed=8)
    rng = random.Random(1)
    for _ in range(3):
        assert _state(pg) == "place"
        before = _moves(pg)
        _make(pg, _check_turn(pg, _library_game(server, game_id), rng))
        pg.wait_for_function(
            "n => Number(document.getElementById('carc-app').dataset.moves) >= n + 3", arg=before
        )
    _state(pg)
    board = pg.inner_html("#board svg")
    scores = pg.locator("#scores td.score").all_inner_texts()
    pg.goto(server + "/carcassonne/play", wait_until="load")
    link = pg.locator(f"#games tr[data-id='{game_id}'] a.open")
    assert "9" in pg.inner_text(f"#games tr[data-id='{game_id}']")  # its moves
    link.click()
    pg.wait_for_selector("#carc-app[data-state='place']")
    assert pg.locator("#scores td.score").all_inner_texts() == scores
    assert (
        pg.inner_html("#board svg").split('<g id="overlay">')[0]
        == board.split('<g id="overlay">')[0]
    )
    assert pg.locator("#board g.tile").count() == 10  # the start tile and nine moves
    assert pg.console_errors == []


def test_undo_takes_back_my_move_and_the_computers(server: str, browser: Any) -> None:
    pg = _page(browser)
    game_id = _start(pg, server, ["human", "greedy"], seed=3)
    assert pg.locator("#undo").is_disabled()
    _make(pg, _check_turn(pg, _library_game(server, game_id), random.Random(2)))
    pg.wait_for_function("() => document.getElementById('carc-app').dataset.moves === '2'")
    _state(pg)
    pg.click("#undo")
    pg.wait_for_function("() => document.getElementById('carc-app').dataset.moves === '0'")
    assert _state(pg) == "place"
    assert _library_game(server, game_id).turns == []
    assert pg.locator("#board g.tile").count() == 1
    assert pg.console_errors == []


def test_a_move_with_the_keyboard_only(server: str, browser: Any) -> None:
    pg = _page(browser)
    game_id = _start(pg, server, ["human", "random"], seed=12)
    game = _library_game(server, game_id)
    pg.focus("#board")
    pg.keyboard.press("ArrowRight")
    pg.keyboard.press("Enter")
    pg.wait_for_selector("#carc-app[data-state='follower']")
    x, y, rotation = _tentative(pg)
    assert any((m.x, m.y, m.rotation) == (x, y, rotation) for m in game.legal_moves())
    pg.keyboard.press("Escape")
    pg.wait_for_selector("#carc-app[data-state='place']")
    pg.keyboard.press("Enter")
    pg.wait_for_selector("#carc-app[data-state='follower']")
    pg.keyboard.press("n")
    pg.wait_for_function("() => document.getElementById('carc-app').dataset.moves === '2'")
    assert _library_game(server, game_id).turns[0].move == Move(x, y, rotation)
    assert pg.console_errors == []


def test_the_river_and_the_abbot(server: str, browser: Any, shots: Path) -> None:
    pg = _page(browser)
    game_id = _start(pg, server, ["human", "greedy"], seed=4, river=True, abbot=True)
    assert "the River" in pg.inner_text("#options") and "the Abbot" in pg.inner_text("#options")
    rng = random.Random(3)
    abbot_played = False
    for turn in range(16):
        assert _state(pg) == "place"
        game = _library_game(server, game_id)
        if turn == 0:
            assert game.tile_name is not None and game.tileset.type(game.tile_name).river_sides
        move = _check_turn(pg, game, rng)
        abbots = [m for m in game.legal_moves() if m.abbot]
        if abbots and not abbot_played:  # the abbot goes on the first monastery or garden
            move = abbots[0]
            abbot_played = True
            pg.click("#cancel")
            pg.click(f"#board rect.spot[data-x='{move.x}'][data-y='{move.y}']")
            while _tentative(pg)[2] != move.rotation:
                pg.keyboard.press("r")
        before = _moves(pg)
        _make(pg, move)
        pg.wait_for_function(
            "n => Number(document.getElementById('carc-app').dataset.moves) >= n + 2", arg=before
        )
    _state(pg)
    _shot(pg, shots, "river_abbot")
    game = _library_game(server, game_id)
    # the river's 11 tiles after the spring come first, then the others
    assert all(game.tileset.type(t.tile).river_sides for t in game.turns[:11])
    assert not any(game.tileset.type(t.tile).river_sides for t in game.turns[11:])
    assert abbot_played and any(t.abbot for t in game.turns)
    assert "abbot" in pg.inner_text("#scores")
    assert pg.console_errors == []


@pytest.mark.parametrize(("width", "height"), [(1024, 768), (768, 1024)])
def test_a_tablet(server: str, browser: Any, shots: Path, width: int, height: int) -> None:
    pg = _page(browser, width, height, touch=True)
    game_id = _start(pg, server, ["human", "greedy"], seed=30)
    game = _library_game(server, game_id)
    box = pg.locator("#board").bounding_box()
    side = pg.locator("#turn").bounding_box()
    assert box["width"] > 300 and box["height"] > 250
    assert side["width"] > 250
    spot = pg.locator("#board rect.spot").first
    rect = spot.bounding_box()
    assert rect["width"] >= 40 and rect["height"] >= 40  # big enough for a finger
    spot.tap()
    pg.wait_for_selector("#carc-app[data-state='follower']")
    pg.tap("#rot-right")
    _shot(pg, shots, f"tablet_{width}x{height}")
    x, y, rotation = _tentative(pg)
    assert any((m.x, m.y, m.rotation) == (x, y, rotation) for m in game.legal_moves())
    pg.tap("#no-follower")
    pg.wait_for_function("() => document.getElementById('carc-app').dataset.moves === '2'")
    assert pg.console_errors == []


def test_two_windows_on_one_game(server: str, browser: Any) -> None:
    first = _page(browser)
    game_id = _start(first, server, ["human", "human"], seed=17)
    second = _page(browser)
    second.goto(f"{server}/carcassonne/play/{game_id}?delay=0", wait_until="load")
    second.wait_for_selector("#carc-app[data-state='place']")
    assert second.locator("#undo").inner_text() == "↶ Undo the last person's move"
    game = _library_game(server, game_id)
    _make(first, _check_turn(first, game, random.Random(1)))
    first.wait_for_function("() => document.getElementById('carc-app').dataset.moves === '1'")
    # the second window still offers the first move: making it is refused, and the window
    # shows the game as it is now
    _make(second, _check_turn(second, game, random.Random(2)))
    second.wait_for_function("() => document.getElementById('carc-app').dataset.moves === '1'")
    assert "moved on" in second.inner_text("#message")
    assert len(_library_game(server, game_id).turns) == 1
    assert second.locator("#scores tr.to-move").get_attribute("data-seat") == "1"
    assert first.console_errors == []
    # the browser itself notes the refused request; the page has no error of its own
    assert [e for e in second.console_errors if "409 (Conflict)" not in e] == []


def test_saved_games_refuse_a_bad_import_and_delete(
    server: str, browser: Any, tmp_path: Path
) -> None:
    pg = _page(browser)
    game_id = _start(pg, server, ["greedy", "random"], seed=5)
    pg.goto(server + "/carcassonne/play", wait_until="load")
    status = _import_status(pg, tmp_path / "bad.json", '{"moves": "none"}')
    assert status.startswith("Not imported: ") and len(status) > len("Not imported: "), status
    asked: list[str] = []
    pg.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    row = pg.locator(f"#games tr[data-id='{game_id}']")
    row.locator("button.delete").click()
    row.wait_for(state="detached")
    assert asked and asked[0].startswith("Delete ")
    with pytest.raises(urllib.error.HTTPError) as gone:
        urllib.request.urlopen(f"{server}/api/carcassonne/games/{game_id}", timeout=30)
    assert gone.value.code == 404


def _one_spot_game() -> tuple[dict[str, Any], tuple[int, int, int]]:
    """A saved two-person game whose tile in hand (the base game's C, a whole city) has a
    square and rotation with exactly one follower spot: the file, and that placement."""
    from tilelay.carcassonne.board import Rules
    from tilelay.carcassonne.record import record

    game = restore(GameRecord(16, Rules(), ("human", "human")))
    for _ in range(40):
        game.draw()
        legal = game.legal_moves()
        spots: dict[tuple[int, int, int], int] = {}
        for m in legal:
            if m.follower is not None:
                key = (m.x, m.y, m.rotation)
                spots[key] = spots.get(key, 0) + 1
        ones = sorted(k for k, n in spots.items() if n == 1)
        if ones:
            return record(game).to_dict(), ones[0]
        game.make_move(next(m for m in legal if m.follower is None))
    raise AssertionError("no position with one follower spot")


def test_one_follower_spot_is_said_as_one(server: str, browser: Any, shots: Path) -> None:
    """The prompt said "keys 1–1" where a tile has a single follower spot: it says the only
    spot and its key; two spots or more are still "keys 1–n"."""
    saved, (x, y, rotation) = _one_spot_game()
    request = urllib.request.Request(
        f"{server}/api/carcassonne/games/import",
        data=json.dumps(saved).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        game_id = json.load(response)["game"]["id"]
    pg = _page(browser)
    pg.goto(f"{server}/carcassonne/play/{game_id}?delay=0", wait_until="load")
    assert _state(pg) == "place"
    pg.click(f"#board rect.spot[data-x='{x}'][data-y='{y}']")
    pg.wait_for_selector("#carc-app[data-state='follower']")
    while _tentative(pg)[2] != rotation:
        pg.click("#rot-right")
    assert pg.locator("#board g.follower-spot").count() == 1
    prompt = pg.inner_text("#prompt")
    assert "1–1" not in prompt and "keys" not in prompt, prompt
    assert "click the only spot for a follower (key 1) or choose no follower (N)." in prompt
    _shot(pg, shots, "one_follower_spot")
    # the next player's tile: a square with more spots says their keys
    before = _moves(pg)
    pg.keyboard.press("n")
    pg.wait_for_function(
        "n => Number(document.getElementById('carc-app').dataset.moves) > n", arg=before
    )
    assert _state(pg) == "place"
    game = _library_game(server, game_id)
    counts: dict[tuple[int, int, int], int] = {}
    for m in game.legal_moves():
        if m.follower is not None:
            key = (m.x, m.y, m.rotation)
            counts[key] = counts.get(key, 0) + 1
    (mx, my, mr), n = max(counts.items(), key=lambda kv: kv[1])
    assert n > 1
    pg.click(f"#board rect.spot[data-x='{mx}'][data-y='{my}']")
    pg.wait_for_selector("#carc-app[data-state='follower']")
    while _tentative(pg)[2] != mr:
        pg.click("#rot-right")
    assert f"click a spot for a follower (keys 1–{min(n, 9)})" in pg.inner_text("#prompt")
    assert pg.console_errors == []


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_a_long_game_name_keeps_the_pages_in_the_window(
    server: str, browser: Any, width: int, height: int
) -> None:
    """A game named with 200 characters (one long word) widened the saved games' table and
    the table page's heading past the window: the name wraps in the table and is cut short
    in the heading, its whole in a title."""
    name = "W" * 200
    request = urllib.request.Request(
        f"{server}/api/carcassonne/games",
        data=json.dumps({"players": ["human", "greedy"], "seed": 3, "name": name}).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        game_id = json.load(response)["game"]["id"]
    pg = _page(browser, width, height)
    for path in ("/carcassonne/play", f"/carcassonne/play/{game_id}?delay=0"):
        pg.goto(server + path, wait_until="load")
        assert pg.evaluate("() => document.documentElement.scrollWidth") <= width + 1, path
    heading = pg.locator("#game-name")
    assert heading.get_attribute("title") == name
    box = heading.bounding_box()
    assert box is not None and box["x"] + box["width"] <= width
    pg.goto(server + "/carcassonne/play", wait_until="load")
    link = pg.locator(f"#games tr[data-id='{game_id}'] a.open")
    assert link.get_attribute("title") == name
    assert pg.console_errors == []

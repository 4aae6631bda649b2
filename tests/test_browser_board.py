"""The board page in a real browser (Debian's Chromium driven by Playwright).

Tiles are laid by clicking on 1889 and on 1846 (read from the 18xx.games engine's Ruby
sources), turned, undone; a token is placed; trains are picked and the routes and revenue
shown are checked against the library's optimiser; a shared record is imported and stepped
through; a board is saved, the page reloaded, and the board is intact. Screenshots of every
step are written to ``TILELAY_SCREENSHOTS`` (a folder) when it is set, else to the test's
temporary folder, and checked to be real pictures.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.conftest import REFERENCE, reference, slowed_searches
from tests.test_browser import _check_png, _import_status, chromium, serving
from tilelay.games import registry
from tilelay.routes import RoutePlanner
from tilelay.sandbox import BoardState
from tilelay.upgrades import distinct_rotations
from tilelay.web import create_app

pytestmark = pytest.mark.browser

ENGINE = REFERENCE / "18xxgames" / "engine"
FIXTURE = REFERENCE / "18xxgames" / "fixtures" / "1889_314.json"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from tilelay.sources.games import add_paths

    if ENGINE.is_dir():
        add_paths([ENGINE])
    try:
        with serving(create_app(db=tmp_path_factory.mktemp("db") / "boards.sqlite3")) as url:
            yield url
    finally:
        registry.reset()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


def _page(browser: Any, width: int = 1280, height: int = 800, touch: bool = False) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.console_errors = errors
    return pg


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = os.environ.get("TILELAY_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path
    path.mkdir(parents=True, exist_ok=True)
    return path


def _shot(pg: Any, folder: Path, name: str) -> None:
    path = folder / f"{name}.png"
    pg.screenshot(path=str(path))
    _check_png(path, min(600, pg.viewport_size["width"]), 500)


def _open(pg: Any, url: str) -> None:
    response = pg.goto(url, wait_until="load")
    assert response is not None and response.status == 200
    pg.wait_for_selector("#board-app[data-ready='1']")


def _import_record(pg: Any, server: str, record: Path) -> None:
    """Open 1889's board page and import ``record`` in its Record panel."""
    _open(pg, server + "/board/1889")
    pg.click('.tabs [data-tab="record"]')
    pg.set_input_files("#record-file", str(record))
    pg.click("#record-import-button")
    pg.wait_for_selector("#record-view:not([hidden])")


def _actions(pg: Any, count: int) -> None:
    pg.wait_for_function(
        "n => document.getElementById('board-app').dataset.actions === String(n)", arg=count
    )


def _record_at_its_last_step(pg: Any) -> None:
    """Import the fixture record in the Record tab and step to its last step."""
    pg.click('.tabs [data-tab="record"]')
    pg.set_input_files("#record-file", str(FIXTURE))
    pg.click("#record-import-button")
    pg.wait_for_selector("#record-view:not([hidden])")
    pg.click("#step-last")
    pg.wait_for_function("() => Number(document.getElementById('board-app').dataset.step) > 0")


def _tile_at(pg: Any, coord: str) -> tuple[str | None, str | None]:
    tile = pg.locator(f'#map g.hex[data-coord="{coord}"] g.tile').first
    return tile.get_attribute("data-tile"), tile.get_attribute("data-rotation")


def _no_overflow(pg: Any) -> None:
    width = pg.evaluate("() => document.documentElement.scrollWidth")
    assert width <= pg.viewport_size["width"] + 1  # nothing off the side of the screen


def test_lay_rotate_undo_token_routes_save_reload_1889(
    server: str, browser: Any, shots: Path
) -> None:
    pg = _page(browser)
    pg.goto(server + "/", wait_until="load")
    pg.click('a.board-link[href="/board/1889"]')
    pg.wait_for_selector("#board-app[data-ready='1']")
    _shot(pg, shots, "1889_01_empty")
    _no_overflow(pg)
    # click a hex: its legal lays, each in its legal rotations
    pg.click('#map g.hex[data-coord="K8"]')
    pg.wait_for_selector("#hex-title")
    assert pg.inner_text("#hex-title").startswith("K8")
    offered = {
        t: sorted(
            int(r)
            for r in pg.eval_on_selector_all(
                f'.choice[data-tile="{t}"] button.rotation', "bs => bs.map(b => b.dataset.rotation)"
            )
        )
        for t in pg.eval_on_selector_all(
            ".choices:not(.replacing) .choice", "cs => cs.map(c => c.dataset.tile)"
        )
    }
    expected = BoardState("1889").legal_lays("K8")  # the same placement drawn once
    game = BoardState("1889").resolve()
    assert offered == {k: list(distinct_rotations(game.tile(k), v)) for k, v in expected.items()}
    _shot(pg, shots, "1889_02_hex_K8")
    # lay 57 in rotation 1 by clicking
    pg.click('.choice[data-tile="57"] button.rotation[data-rotation="1"]')
    _actions(pg, 1)
    assert _tile_at(pg, "K8") == ("57", "1")
    _shot(pg, shots, "1889_03_laid")
    # rotate with the keyboard, then undo with the button
    pg.keyboard.press("r")
    pg.wait_for_function(
        """() => document.querySelector('#map g.hex[data-coord="K8"] g.tile')
                 .dataset.rotation === '4'"""
    )
    pg.click("#undo")
    pg.wait_for_function(
        """() => document.querySelector('#map g.hex[data-coord="K8"] g.tile')
                 .dataset.rotation === '1'"""
    )
    # a token: AR at K8
    pg.select_option("#hex-detail select.token-corp", "AR")
    pg.click("#hex-detail button.place-token")
    pg.wait_for_selector('#map g.token[data-coord="K8"][data-corporation="AR"]')
    _shot(pg, shots, "1889_04_token")
    # routes: AR with two 2-trains, compared with the optimiser
    pg.click('.tabs [data-tab="routes"]')
    pg.select_option("#corporation", "AR")
    pg.wait_for_selector('#train-add [data-train="2"]')
    pg.click('#train-add [data-train="2"]')
    pg.wait_for_selector("#routes-total")
    pg.click('#train-add [data-train="2"]')
    pg.wait_for_function("() => document.querySelectorAll('.route-row').length === 2")
    state = BoardState("1889").lay("K8", "57", 1).place_token("K8", "AR")
    best = RoutePlanner(state.board(), "AR", state.current_phase()).best(["2", "2"])
    assert int(pg.inner_text("#routes-total")) == best.revenue == 40
    shown = sorted(
        int(r)
        for r in pg.eval_on_selector_all(".route-row", "rs => rs.map(r => r.dataset.revenue)")
    )
    assert shown == sorted([r.revenue for r in best.routes] + [0] * (2 - len(best.routes)))
    assert pg.locator("#map g.route").count() == len(best.routes)
    # lay more and the routes update: the phase to 3, K4 upgraded... here J9's port town
    pg.select_option("#phase", "5")
    pg.wait_for_function("() => document.getElementById('board-app').dataset.phase === '5'")
    pg.wait_for_function("() => document.getElementById('routes-total').textContent === '60'")
    _shot(pg, shots, "1889_05_routes")
    # save, reload: the board is intact
    pg.fill("#board-name", "browser test board")
    pg.click("#save")
    pg.wait_for_function("() => document.getElementById('board-app').dataset.saved === '1'")
    assert "?board=" in pg.url
    pg.reload(wait_until="load")
    pg.wait_for_selector("#board-app[data-ready='1']")
    assert _tile_at(pg, "K8") == ("57", "1")
    assert pg.locator('#map g.token[data-corporation="AR"]').count() == 1
    assert pg.input_value("#board-name") == "browser test board"
    assert pg.get_attribute("#board-app", "data-phase") == "5"
    pg.click('.tabs [data-tab="routes"]')
    assert pg.inner_text("#routes-total") == "60"
    _shot(pg, shots, "1889_06_reloaded")
    # an illegal lay is refused by name (a green tile is legal in phase 5; a second K8 57 is not)
    pg.click('#map g.hex[data-coord="G4"]')
    pg.wait_for_selector("#hex-title >> text=G4")
    assert pg.locator('.choices:not(.replacing) .choice[data-tile="57"]').count() == 1
    assert pg.console_errors == []


def test_keyboard_and_autosave_conflict(server: str, browser: Any, shots: Path) -> None:
    pg = _page(browser)
    _open(pg, server + "/board/1889")
    pg.focus("#map")
    pg.keyboard.press("ArrowRight")  # the cursor appears on a hex
    cursor = pg.get_attribute("#map", "data-cursor")
    assert cursor
    for key in ("ArrowDown", "ArrowRight", "ArrowUp"):
        pg.keyboard.press(key)
    pg.keyboard.press("Enter")
    pg.wait_for_selector("#hex-title")
    coord = pg.get_attribute("#map", "data-cursor")
    assert pg.inner_text("#hex-title").startswith(str(coord))
    _shot(pg, shots, "1889_07_keyboard")
    # lay the first tile offered with "1", if any, then undo with Ctrl+Z
    if pg.locator(".choices:not(.replacing) .choice").count():
        pg.keyboard.press("1")
        _actions(pg, 1)
        pg.keyboard.press("Control+z")
        _actions(pg, 0)
    # two tabs on one saved board: the second save is a conflict, shown, nothing lost
    pg.click('#map g.hex[data-coord="K8"]')
    pg.wait_for_selector('.choice[data-tile="57"]')
    pg.click('.choice[data-tile="57"] button.rotation[data-rotation="1"]')
    _actions(pg, 1)
    pg.fill("#board-name", "two tabs")
    pg.click("#save")
    pg.wait_for_function("() => document.getElementById('board-app').dataset.saved === '1'")
    other = pg.context.new_page()
    other.goto(pg.url, wait_until="load")
    other.wait_for_selector("#board-app[data-ready='1']")
    other.click('#map g.hex[data-coord="G4"]')
    other.wait_for_selector("#hex-title >> text=G4")
    other.click('.choice[data-tile="57"] button.rotation >> nth=0')
    other.wait_for_function("() => document.getElementById('board-app').dataset.saved === '2'")
    pg.click('#map g.hex[data-coord="F3"]')
    pg.wait_for_selector("#hex-title >> text=F3")
    pg.click('.choice[data-tile="57"] button.rotation >> nth=0')
    pg.wait_for_selector("#conflict:not([hidden])")
    assert "version 2" in pg.inner_text("#conflict-text")
    _shot(pg, shots, "1889_08_conflict")
    pg.click("#conflict-copy")  # keep mine as a new board: both kept
    pg.wait_for_function("() => document.getElementById('board-app').dataset.saved === '1'")
    assert pg.input_value("#board-name").endswith("(copy)")
    other.close()
    # the 409 answer is expected here: only script errors count
    assert [e for e in pg.console_errors if "status of 409" not in e] == []


def test_a_board_deleted_elsewhere_is_kept_as_a_new_one(server: str, browser: Any) -> None:
    pg = _page(browser)
    _open(pg, server + "/board/1889")
    pg.click('#map g.hex[data-coord="K8"]')
    pg.wait_for_selector('.choice[data-tile="57"]')
    pg.click('.choice[data-tile="57"] button.rotation[data-rotation="1"]')
    _actions(pg, 1)
    pg.fill("#board-name", "to be deleted")
    pg.click("#save")
    pg.wait_for_function("() => document.getElementById('board-app').dataset.saved === '1'")
    first = pg.url.rsplit("board=", 1)[1]
    assert pg.request.delete(f"{server}/api/boards/{first}").ok  # from another tab
    # an edit's autosave finds the board gone: the page says so, and leaving it would warn
    pg.click('#map g.hex[data-coord="F3"]')
    pg.wait_for_selector("#hex-title >> text=F3")
    pg.click('.choice[data-tile="57"] button.rotation >> nth=0')
    pg.wait_for_selector("#save-status >> text=the saved board is gone")
    assert pg.evaluate("() => document.getElementById('board-app').dataset.dirty") == "1"
    # Save keeps the edits as a new board
    pg.click("#save")
    pg.wait_for_function("() => document.getElementById('board-app').dataset.saved === '1'")
    second = pg.url.rsplit("board=", 1)[1]
    kept = pg.request.get(f"{server}/api/boards/{second}").json()
    assert len(kept["state"]["actions"]) == 2 and kept["board"]["version"] == 1
    # the 404 answer is expected here: only script errors count
    assert [e for e in pg.console_errors if "status of 404" not in e] == []


def test_a_record_of_another_game_is_headed_by_its_game(server: str, browser: Any) -> None:
    pg = _page(browser)
    _import_record(pg, server, reference("18xxgames", "fixtures", "1830_26855.json"))
    assert pg.inner_text("#game-title") == "1830"  # not 1889, the page's own game
    assert pg.get_attribute("#game-title", "href") == "/map/1830"


def test_1846_from_the_engine_sources(server: str, browser: Any, shots: Path) -> None:
    reference("18xxgames", "engine")
    pg = _page(browser)
    _open(pg, server + "/board/1846")
    assert pg.locator("#map g.hex").count() > 70
    # PRR's home token, then a tile next to it, by clicking
    pg.click('#map g.hex[data-coord="F20"]')
    pg.wait_for_selector("#hex-detail select.token-corp")
    pg.select_option("#hex-detail select.token-corp", "PRR")
    pg.click("#hex-detail button.place-token")
    pg.wait_for_selector('#map g.token[data-corporation="PRR"]')
    state = BoardState("1846").place_token("F20", "PRR")
    # PRR with a 2-train; then only what PRR may lay where it reaches
    pg.click('.tabs [data-tab="routes"]')
    pg.select_option("#corporation", "PRR")
    pg.wait_for_selector('#train-add [data-train="2"]')
    pg.click('#train-add [data-train="2"]')
    pg.wait_for_selector("#routes-total")
    pg.click('.tabs [data-tab="hex"]')
    pg.check("#reach")
    pg.wait_for_selector("#map polygon.highlight")
    state = state.with_routes("PRR", ["2"])
    reached = sorted(c for c in state.board().reach("PRR") if state.legal_lays(c, reach=True))
    assert {
        str(c)
        for c in pg.eval_on_selector_all(
            "#map polygon.highlight", "ps => ps.map(p => p.dataset.coord)"
        )
    } == set(state.board().reach("PRR"))
    target = reached[0]
    pg.click(f'#map g.hex[data-coord="{target}"]')
    pg.wait_for_selector(f"#hex-title >> text={target}")
    offered = pg.eval_on_selector_all(
        ".choices:not(.replacing) .choice", "cs => cs.map(c => c.dataset.tile)"
    )
    assert offered == list(state.legal_lays(target, reach=True))
    first = pg.locator(".choices:not(.replacing) .choice").first
    tile = first.get_attribute("data-tile")
    rotation = first.locator("button.rotation").first.get_attribute("data-rotation")
    first.locator("button.rotation").first.click()
    _actions(pg, 2)
    assert _tile_at(pg, target) == (tile, rotation)
    state = state.lay(target, str(tile), int(str(rotation)))
    pg.click('.tabs [data-tab="routes"]')
    best = RoutePlanner(state.board(), "PRR", state.current_phase()).best(["2"])
    pg.wait_for_function(
        "n => document.getElementById('routes-total').textContent === String(n)",
        arg=best.revenue,
    )
    _shot(pg, shots, "1846_01_routes")
    pg.click("#undo")
    _actions(pg, 1)
    assert pg.console_errors == []


def test_18usa_is_drawn_for_the_seed_and_players_chosen(
    server: str, browser: Any, shots: Path
) -> None:
    """18USA draws its red hexes and metropolises when it starts: the board page draws them
    for the seed and players of its address, and again for those chosen in the Board tab."""
    reference("18xxgames", "engine")
    pg = _page(browser)
    _open(pg, server + "/board/18USA?seed=109372&players=4")
    assert pg.locator('#map g.hex[data-coord="A27"]').count() == 1  # a red hex drawn
    assert _tile_at(pg, "H22")[0] == "X01" and _tile_at(pg, "G3")[0] == "G3"
    pg.click('.tabs [data-tab="board"]')
    assert pg.input_value("#setup-seed") == "109372"
    assert pg.input_value("#setup-players") == "4"
    pg.fill("#setup-seed", "5")
    pg.select_option("#setup-players", "3")
    pg.click("#setup-form button[type=submit]")
    pg.wait_for_function(
        "() => document.querySelector('#map g.hex[data-coord=\"G3\"] g.tile')"
        ".dataset.tile === 'X05'"
    )
    want = BoardState("18USA").with_setup(5, 3).board()
    for coord in ("G3", "H22", "D20", "I19", "E11", "H14"):
        assert _tile_at(pg, coord)[0] == want.tile_at(coord).name, coord
    assert pg.input_value("#setup-seed") == "5"
    _shot(pg, shots, "18usa_01_seed_5")
    # a seed the game cannot take says why, and the board stays as it was
    pg.fill("#setup-seed", "99999999999999999999")
    pg.click("#setup-form button[type=submit]")
    pg.wait_for_selector(".toast")
    assert pg.input_value("#setup-seed") == "5"
    assert [e for e in pg.console_errors if "422" not in e and "400" not in e] == []


def test_a_game_of_a_map_by_the_players_is_played_for_the_players_chosen(
    server: str, browser: Any, shots: Path
) -> None:
    """18GB's map for two players is smaller: the Board tab chooses the players (no seed:
    the game draws nothing), and the map drawn is theirs; 1889, whose map and trains do not
    depend on them, shows no such choice."""
    reference("18xxgames", "engine")
    pg = _page(browser)
    _open(pg, server + "/board/18GB")
    hexes = BoardState("18GB").board().game.hexes
    assert pg.locator("#map g.hex").count() == len(hexes)
    pg.click('.tabs [data-tab="board"]')
    assert pg.is_visible("#setup") and not pg.is_visible("#setup-seed")
    assert pg.input_value("#setup-players") == "6"
    pg.select_option("#setup-players", "2")
    pg.click("#setup-form button[type=submit]")
    two = BoardState("18GB", players=2).board().game.hexes
    pg.wait_for_function(f"() => document.querySelectorAll('#map g.hex').length === {len(two)}")
    assert len(two) < len(hexes)
    _shot(pg, shots, "18gb_01_two_players")
    _open(pg, server + "/board/1889")
    pg.click('.tabs [data-tab="board"]')
    assert not pg.is_visible("#setup")
    assert pg.console_errors == []


def test_import_a_record_and_step_through_it(server: str, browser: Any, shots: Path) -> None:
    pg = _page(browser)
    _import_record(pg, server, reference("18xxgames", "fixtures", "1889_314.json"))
    pg.wait_for_function("() => document.getElementById('board-app').dataset.step === '0'")
    assert pg.locator("#chart svg.chart g.series").count() >= 5
    _shot(pg, shots, "1889_09_record_start")
    # the arrow keys step
    pg.keyboard.press("ArrowRight")
    pg.wait_for_function("() => document.getElementById('board-app').dataset.step === '1'")
    pg.keyboard.press("End")
    pg.wait_for_function("() => document.getElementById('board-app').dataset.step !== '1'")
    assert pg.locator("#map g.tile").count() > 20 and pg.locator("#map g.token").count() > 5
    _shot(pg, shots, "1889_10_record_end")
    # the first run: KO's two 2-trains, run 100, best 100, side by side
    pg.click("details:has(#runs) summary")
    pg.click("#runs tbody tr >> nth=0")
    pg.wait_for_selector("#step-run .run-summary")
    summary = pg.locator("#step-run .run-summary")
    assert (summary.get_attribute("data-run"), summary.get_attribute("data-best")) == ("100", "100")
    assert pg.locator("#map g.route").count() == 2
    assert pg.locator("#map-run g.route").count() == 2
    _shot(pg, shots, "1889_11_record_run")
    # a run where the players missed revenue
    pg.wait_for_selector("#runs tbody tr")
    missed = pg.eval_on_selector_all(
        "#runs tbody tr", "rs => rs.map(r => Number(r.cells[4].textContent))"
    )
    index = next((i for i, m in enumerate(missed) if m > 0), None)
    if index is not None:
        pg.click(f"#runs tbody tr >> nth={index}")
        pg.wait_for_function(
            "() => Number(document.querySelector('#step-run .run-summary')?.dataset.missed) > 0"
        )
        _shot(pg, shots, "1889_12_record_missed")
    # branch a board off this step: an editable board with its tiles, tokens and trains
    pg.click("#branch")
    pg.wait_for_selector("#record-banner", state="hidden")
    # the view of the branched board follows the banner's hiding
    pg.wait_for_function("() => Number(document.querySelector('#board-app').dataset.actions) > 5")
    pg.click('.tabs [data-tab="routes"]')
    pg.wait_for_selector("#routes-total")
    _shot(pg, shots, "1889_13_branched")
    # the record is kept: the saved boards page opens it again
    pg.goto(server + "/boards", wait_until="load")
    pg.click("#records a.open >> nth=0")
    pg.wait_for_selector("#record-view:not([hidden])")
    pg.wait_for_function("() => document.getElementById('board-app').dataset.step === '0'")
    assert pg.console_errors == []


def test_a_record_of_long_searches_steps_through_its_unsearched_runs(
    server: str, browser: Any, shots: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Route searches slowed to 0.3 s each and a request time limit of 2 s: the import
    searches the first runs and lists the others unsearched; a step to one searches it;
    where a step's search takes longer than its time, the page says so beside the run."""
    monkeypatch.setenv("TILELAY_REQUEST_SECONDS", "2")
    slow = slowed_searches(monkeypatch, 0.3)
    pg = _page(browser)
    _import_record(pg, server, reference("18xxgames", "fixtures", "1889_314.json"))
    pg.click("details:has(#runs) summary")
    unsearched = pg.locator("#runs tbody tr.unsearched")
    assert unsearched.count() > 10 and pg.locator("#runs tbody tr").count() > unsearched.count()
    assert unsearched.first.locator("td").nth(3).inner_text() == "…"
    assert "were not searched" in pg.inner_text("#runs-note")
    _shot(pg, shots, "1889_14_record_unsearched")
    waiting = unsearched.count()
    unsearched.last.click()  # the step searches: found within its time, and listed
    pg.wait_for_function(
        "() => Number(document.querySelector('#step-run .run-summary')?.dataset.best) > 0"
    )
    assert unsearched.count() == waiting - 1
    slow["seconds"] = 60
    unsearched.last.click()
    pg.wait_for_function(
        "() => document.querySelector('#step-run .run-summary')?.dataset.best === ''"
    )
    assert "longer than the server's time limit" in pg.inner_text("#step-run .run-summary")
    assert pg.locator("#map-run g.route").count() > 0  # the routes run, still drawn
    assert "not found" in pg.inner_text("#map-caption")
    _shot(pg, shots, "1889_15_record_search_too_long")
    assert pg.console_errors == []


def test_a_board_whose_routes_take_too_long_shows_without_them(
    server: str, browser: Any, shots: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = {
        "game": "1889",
        "actions": ["J3=8-3", "K6=8-3", "J5=58-2", "K4=KO@0"],
        "corporation": "KO",
        "trains": ["2", "3"],
    }
    created = httpx2.post(server + "/api/boards", json={"name": "slow", "state": state})
    assert created.status_code == 201, created.text
    monkeypatch.setenv("TILELAY_REQUEST_SECONDS", "1")

    slowed_searches(monkeypatch, 60)
    pg = _page(browser)
    _open(pg, server + f"/board/1889?board={created.json()['board']['id']}")
    pg.click('.tabs [data-tab="routes"]')
    pg.wait_for_selector("#routes-result .note")
    assert "take longer than 0.75 s" in pg.inner_text("#routes-result .note")
    assert pg.inner_text("#routes-total") == "…"
    assert pg.locator("#map g.tile").count() >= 3  # the board itself is shown
    _shot(pg, shots, "1889_16_routes_too_long")
    assert pg.console_errors == []


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (1024, 768), (768, 1024)])
def test_usable_on_laptops_and_tablets(
    server: str, browser: Any, shots: Path, width: int, height: int
) -> None:
    pg = _page(browser, width, height, touch=True)
    _open(pg, server + "/board/1889")
    _no_overflow(pg)
    box = pg.locator("#map svg").bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 250
    pg.tap('#map g.hex[data-coord="J3"]')
    pg.wait_for_selector(".choice button.rotation")
    button = pg.locator(".choice button.rotation").first
    bb = button.bounding_box()
    assert bb is not None and bb["width"] >= 40 and bb["height"] >= 34  # big enough to touch
    button.scroll_into_view_if_needed()
    button.tap()
    _actions(pg, 1)
    _no_overflow(pg)
    _shot(pg, shots, f"1889_14_{width}x{height}")
    assert pg.console_errors == []


def test_a_phone_s_width_has_nothing_off_the_side(server: str, browser: Any) -> None:
    pg = _page(browser, 390, 844, touch=True)
    pg.goto(server + "/", wait_until="load")
    _no_overflow(pg)
    made = httpx2.post(
        f"{server}/api/boards", json={"name": "phone", "state": BoardState("1889").to_json()}
    ).json()
    _open(pg, f"{server}/board/1889?board={made['board']['id']}")
    pg.wait_for_function("() => document.getElementById('board-app').dataset.saved === '1'")
    _no_overflow(pg)
    assert pg.console_errors == []


def test_saved_boards_page_renames_deletes_and_refuses_a_bad_import(
    server: str, browser: Any, tmp_path: Path
) -> None:
    state = BoardState("1889").to_json()
    made = httpx2.post(f"{server}/api/boards", json={"name": "to rename", "state": state})
    assert made.status_code == 201
    board_id = made.json()["board"]["id"]
    pg = _page(browser)
    pg.goto(server + "/boards", wait_until="load")
    row = pg.locator(f'#boards tr[data-id="{board_id}"]')
    pg.once("dialog", lambda d: d.accept("renamed in the browser"))
    row.locator("button.rename").click()
    pg.wait_for_function(
        "id => document.querySelector(`#boards tr[data-id='${id}'] a.open`).textContent"
        " === 'renamed in the browser'",
        arg=str(board_id),
    )
    assert httpx2.get(f"{server}/api/boards/{board_id}").json()["board"]["name"] == (
        "renamed in the browser"
    )
    # an import the server refuses: its message
    status = _import_status(pg, tmp_path / "bad.json", "{not json")
    assert status.startswith("Not imported: ") and "JSON" in status, status
    asked: list[str] = []
    pg.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    row.locator("button.delete").click()
    row.wait_for(state="detached")
    assert asked == ["Delete it? This cannot be undone."]
    assert httpx2.get(f"{server}/api/boards/{board_id}").status_code == 404


def test_saved_boards_page_lists_a_board_s_versions_and_restores_one(
    server: str, browser: Any
) -> None:
    """Each save keeps the version it replaces, and a refused save is kept too, but only
    the API could list them: the saved boards page now lists a board's versions and
    restores one (the version it replaces kept in its turn)."""
    first = BoardState("1889").lay("K8", "57", 1)
    second = first.lay("J3", "8", 0)
    made = httpx2.post(f"{server}/api/boards", json={"name": "versions", "state": first.to_json()})
    board_id = made.json()["board"]["id"]
    saved = httpx2.put(
        f"{server}/api/boards/{board_id}", json={"version": 1, "state": second.to_json()}
    )
    assert saved.status_code == 200 and saved.json()["board"]["version"] == 2
    pg = _page(browser)
    pg.goto(server + "/boards", wait_until="load")
    row = pg.locator(f'#boards tr[data-id="{board_id}"]:not(.revision)')
    row.locator("button.versions").click()
    listed = pg.locator(f'#boards tr.revision[data-of="{board_id}"]')
    listed.first.wait_for()
    assert listed.count() == 1 and "version 1 · replaced" in listed.first.inner_text()
    assert "1 action" in listed.first.inner_text()
    pg.once("dialog", lambda d: d.accept())
    listed.first.locator("button.restore").click()
    pg.wait_for_function(
        "id => document.querySelector(`#boards tr[data-id='${id}']:not(.revision)`)"
        ".dataset.version === '3'",
        arg=str(board_id),
    )
    kept = httpx2.get(f"{server}/api/boards/{board_id}").json()
    assert kept["state"]["actions"] == first.to_json()["actions"]
    # the version it replaced is among the versions now, and listed again
    pg.wait_for_function(
        f"() => document.querySelectorAll('#boards tr.revision[data-of=\"{board_id}\"]')"
        ".length === 2"
    )
    assert pg.console_errors == []


def _lay_57_at_k8(pg: Any, actions: int) -> None:
    pg.click('#map g.hex[data-coord="K8"]')
    pg.wait_for_selector('.choice[data-tile="57"]')
    pg.click('.choice[data-tile="57"] button.rotation[data-rotation="1"]')
    _actions(pg, actions)


def test_a_new_board_or_a_branch_asks_before_dropping_unsaved_changes(
    server: str, browser: Any, shots: Path
) -> None:
    """ "New empty board" and "Branch a board from this step" threw unsaved edits away
    without a word, while leaving the page warned: both ask when there are unsaved changes
    (the status says so); cancelling keeps everything, and with nothing unsaved they ask
    nothing."""
    pg = _page(browser)
    asked: list[str] = []
    answer = {"accept": False}

    def dialog(d: Any) -> None:
        asked.append(d.message)
        if answer["accept"]:
            d.accept()
        else:
            d.dismiss()

    pg.on("dialog", dialog)
    _open(pg, server + "/board/1889")
    # nothing unsaved: a new board asks nothing
    pg.click('.tabs [data-tab="board"]')
    pg.click("#new-board")
    _actions(pg, 0)
    assert asked == []
    # an edit, unsaved: cancelling keeps the board, the name and the status
    _lay_57_at_k8(pg, 1)
    pg.fill("#board-name", "kept")
    assert pg.inner_text("#save-status") == "unsaved changes"
    pg.click('.tabs [data-tab="board"]')
    pg.click("#new-board")
    pg.wait_for_timeout(300)
    assert len(asked) == 1 and "unsaved changes" in asked[0] and "new empty board" in asked[0]
    assert pg.get_attribute("#board-app", "data-actions") == "1"
    assert _tile_at(pg, "K8") == ("57", "1")
    assert pg.input_value("#board-name") == "kept"
    assert pg.inner_text("#save-status") == "unsaved changes"
    assert pg.get_attribute("#board-app", "data-dirty") == "1"
    # a branch from a record asks too, and cancelling stays on the record
    _record_at_its_last_step(pg)
    pg.click("#branch")
    pg.wait_for_timeout(300)
    assert len(asked) == 2 and "unsaved changes" in asked[1] and "Branch" in asked[1]
    assert pg.locator("#record-banner").is_visible()
    _shot(pg, shots, "1889_17_branch_asked")
    pg.click("#leave-record")  # the board behind the record is as it was
    _actions(pg, 1)
    assert _tile_at(pg, "K8") == ("57", "1")
    assert pg.input_value("#board-name") == "kept"
    # saying yes: the new board
    answer["accept"] = True
    pg.click('.tabs [data-tab="board"]')
    pg.click("#new-board")
    _actions(pg, 0)
    assert len(asked) == 3
    assert (
        pg.input_value("#board-name") == "" and pg.get_attribute("#board-app", "data-dirty") == ""
    )
    # saved with autosave, nothing unsaved: a branch asks nothing
    _lay_57_at_k8(pg, 1)
    pg.fill("#board-name", "saved first")
    pg.click("#save")
    pg.wait_for_function("() => document.getElementById('board-app').dataset.saved === '1'")
    _record_at_its_last_step(pg)
    pg.click("#branch")
    pg.wait_for_selector("#record-banner", state="hidden")
    pg.wait_for_function("() => Number(document.querySelector('#board-app').dataset.actions) > 5")
    assert len(asked) == 3
    assert pg.console_errors == []


#: Board names of the most characters the page allows (200): words, and one long word.
_LONG_NAMES = [("A very long board name that goes on " * 8)[:200], "W" * 200]


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_long_names_wrap_or_are_cut_short(
    server: str, browser: Any, shots: Path, width: int, height: int
) -> None:
    """A 200-character board name made the saved boards' table 3,200 px wide and ran the
    board page's heading past the window: in the table a name wraps (three lines at most,
    the whole name in its title), in the heading it is cut short with an ellipsis (the
    whole name in its title); nothing is off the side of the screen, on a laptop or a
    phone."""
    state = BoardState("1889").to_json()
    ids = []
    for name in _LONG_NAMES:
        made = httpx2.post(f"{server}/api/boards", json={"name": name, "state": state})
        assert made.status_code == 201, made.text
        ids.append(made.json()["board"]["id"])
    pg = _page(browser, width, height)
    pg.goto(server + "/boards", wait_until="load")
    _no_overflow(pg)
    for board_id, name in zip(ids, _LONG_NAMES, strict=True):
        link = pg.locator(f'#boards tr[data-id="{board_id}"] a.open')
        assert link.get_attribute("title") == name and link.inner_text().startswith(name[:10])
        box = link.bounding_box()
        assert box is not None and box["x"] + box["width"] <= width
        # three lines at most
        line = float(link.evaluate("a => parseFloat(getComputedStyle(a).lineHeight)"))
        assert box["height"] <= 3 * line + 2, (box, line)
    _shot(pg, shots, f"boards_long_names_{width}")
    for board_id, name in zip(ids, _LONG_NAMES, strict=True):
        _open(pg, f"{server}/board/1889?board={board_id}")
        _no_overflow(pg)
        label = pg.locator("#board-name-label")
        assert label.inner_text() == name and label.get_attribute("title") == name
        for part in ("#board-name-label", ".board-bar h1", "#save", ".saved-link"):
            box = pg.locator(part).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, part
        # cut short: the label shows less than it holds
        assert label.evaluate("e => e.scrollWidth > e.clientWidth")
        _shot(pg, shots, f"board_long_name_{width}_{len(name.split())}")
    assert pg.console_errors == []

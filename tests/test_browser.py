"""The web app in a real browser: Debian's Chromium driven by Playwright.

A uvicorn server runs the app in a thread on 127.0.0.1 with a free port; the tests load pages
and check what a person would see: every tile present and visible, every map hex there, no
console errors, and a screenshot that is a real picture.
"""

from __future__ import annotations

import shutil
import socket
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tilelay import catalogue
from tilelay.games import load_game
from tilelay.web import create_app

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

pytestmark = pytest.mark.browser

try:
    from playwright.sync_api import sync_playwright

    HAVE_PLAYWRIGHT = True
except ImportError:  # pragma: no cover - depends on the machine
    HAVE_PLAYWRIGHT = False


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn in a thread on a free loopback port, while inside: its base
    URL (the browser tests' server)."""
    import uvicorn

    port = _free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the uvicorn server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(timeout=10)


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, while inside; skips (saying why) when either
    is absent."""
    if not HAVE_PLAYWRIGHT:
        print("skipping browser tests: playwright is not importable")
        pytest.skip("playwright is not importable")
    if not Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is None:
        print(f"skipping browser tests: {CHROMIUM} is absent")
        pytest.skip(f"{CHROMIUM} is absent")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serving(create_app()) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.console_errors = errors
    try:
        yield pg
    finally:
        context.close()


def _import_status(pg: Any, path: Path, text: str) -> str:
    """Choose a file holding ``text`` in the page's ``#import-file``, press ``#import`` and
    return what ``#import-status`` then says."""
    path.write_text(text, encoding="utf-8")
    pg.set_input_files("#import-file", str(path))
    pg.click("#import")
    pg.wait_for_function("() => document.getElementById('import-status').textContent !== ''")
    return str(pg.inner_text("#import-status"))


def _check_png(path: Path, min_w: int, min_h: int) -> None:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = struct.unpack(">II", data[16:24])
    assert w >= min_w and h >= min_h
    assert len(data) > 10_000  # a real picture, not an empty page
    from PIL import Image

    with Image.open(path) as img:
        colours = img.convert("RGB").getcolors(maxcolors=1_000_000)
        assert colours is None or len(colours) > 50


def test_tiles_all_in_the_browser(server: str, page: Any, tmp_path: Path) -> None:
    response = page.goto(server + "/tiles/all", wait_until="load")
    assert response is not None and response.status == 200
    names = catalogue.tile_names()
    tiles = page.locator("g.tile")
    assert tiles.count() == len(names)
    # every tile has a name, a non-zero box, and is visible
    info = page.evaluate(
        """() => Array.from(document.querySelectorAll('g.tile')).map(g => {
               const r = g.getBoundingClientRect();
               const s = getComputedStyle(g);
               return [g.dataset.tile, r.width, r.height, s.visibility, s.display];
           })"""
    )
    assert sorted(i[0] for i in info) == sorted(names)
    for name, width, height, visibility, display in info:
        assert width > 10 and height > 10, name
        assert visibility == "visible" and display != "none", name
    assert page.locator("figcaption").count() == len(names)
    shot = tmp_path / "tiles_all.png"
    page.screenshot(path=str(shot), full_page=True)
    _check_png(shot, 1280, 900)
    assert page.console_errors == []


@pytest.fixture
def other_formats(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """One game of each other format made known to the running server: 1846 from the
    18xx.games engine's sources, 1830 from Rails, 1835 from GE18XX."""
    from tests.conftest import reference
    from tilelay.games import registry
    from tilelay.sources.games import add_paths

    add_paths(
        [
            reference("18xxgames", "engine", "lib", "engine", "game", "g_1846"),
            reference("rails", "1830"),
            reference("ge18xx", "1835"),
        ]
    )
    try:
        yield {"18xx.games": "1846", "rails": "1830@rails", "ge18xx": "1835@ge18xx"}
    finally:
        registry.reset()


def test_maps_of_every_format(
    server: str, page: Any, tmp_path: Path, other_formats: dict[str, str]
) -> None:
    response = page.goto(server + "/", wait_until="load")
    assert response is not None and response.status == 200
    index = page.inner_text("table.games")
    for fmt, name in other_formats.items():
        assert fmt in index and name.split("@")[0] in index
    for fmt, name in other_formats.items():
        game = load_game(name)
        assert game.format == fmt
        response = page.goto(f"{server}/map/{name}", wait_until="load")
        assert response is not None and response.status == 200, name
        coords = page.evaluate(
            "() => Array.from(document.querySelectorAll('g.hex')).map(g => g.dataset.coord)"
        )
        assert sorted(coords) == sorted(game.hexes), name
        named = [c for c, t in game.hexes.items() if t.location_name and t.stops]
        assert named and game.hexes[named[0]].location_name in page.inner_text(".map")
        shot = tmp_path / f"map_{fmt}.png"
        page.screenshot(path=str(shot), full_page=True)
        _check_png(shot, 1280, 600)
    assert page.console_errors == []


def test_map_1889_in_the_browser(server: str, page: Any, tmp_path: Path) -> None:
    game = load_game("1889")
    response = page.goto(server + "/map/1889", wait_until="load")
    assert response is not None and response.status == 200
    hexes = page.locator("g.hex")
    assert hexes.count() == len(game.hexes)
    coords = page.evaluate(
        "() => Array.from(document.querySelectorAll('g.hex')).map(g => g.dataset.coord)"
    )
    assert sorted(coords) == sorted(game.hexes)
    box = page.locator(".map svg").bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 200
    for coord in ("K8", "F3"):
        hx = page.locator(f'g.hex[data-coord="{coord}"]')
        assert hx.is_visible()
        b = hx.bounding_box()
        assert b is not None and b["width"] > 5 and b["height"] > 5
    assert "Tokushima" in page.inner_text(".map")
    shot = tmp_path / "map_1889.png"
    page.screenshot(path=str(shot), full_page=True)
    _check_png(shot, 1280, 600)
    assert page.console_errors == []


def test_index_and_tile_page_in_the_browser(server: str, page: Any, tmp_path: Path) -> None:
    page.goto(server + "/", wait_until="load")
    assert page.locator("table.games tbody tr").count() >= 3
    page.click("text=All catalogue tiles")
    page.wait_for_url("**/tiles/all")
    page.goto(server + "/tiles/57?r=0+3", wait_until="load")
    tiles = page.locator("g.tile")
    assert tiles.count() == 2
    assert [tiles.nth(i).get_attribute("data-rotation") for i in range(2)] == ["0", "3"]
    box = tiles.first.bounding_box()
    assert box is not None and box["width"] > 200  # a large single-tile view
    page.screenshot(path=str(tmp_path / "tile_57.png"), full_page=True)
    _check_png(tmp_path / "tile_57.png", 1280, 600)
    # a typed tile string draws a tile; a bad one shows the column of the error
    page.goto(server + "/", wait_until="load")
    page.fill("#code", "city=revenue:30;path=a:0,b:_0;path=a:_0,b:2")
    page.click("form.codeform button")
    page.wait_for_selector("g.tile")
    assert page.locator("g.tile").count() == 1
    page.fill("form.codeform input[name=code]", "city=revenue:30;path=a:9,b:_0")
    page.click("form.codeform button")
    page.wait_for_selector(".error")
    assert "column" in page.inner_text(".error")
    # 400 and 404 answers are expected here: only script errors count
    assert [e for e in page.console_errors if "status of 40" not in e] == []


def test_not_found_page_in_the_browser(server: str, page: Any) -> None:
    response = page.goto(server + "/tiles/57x", wait_until="load")
    assert response is not None and response.status == 404
    assert "57x" in page.inner_text(".error")
    page.click('ul.suggestions a >> text="57"')
    page.wait_for_url("**/tiles/57")
    assert page.locator("g.tile").count() == 1


def test_routes_page_in_the_browser(server: str, page: Any, tmp_path: Path) -> None:
    fixture = (
        Path(__file__).resolve().parents[1].parent
        / "shared"
        / "reference"
        / "18xxgames"
        / "fixtures"
        / "1889_314.json"
    )
    if not fixture.exists():
        print(f"skipping the routes page test: reference fixture absent: {fixture}")
        pytest.skip(f"reference fixture absent: {fixture}")
    page.goto(server + "/", wait_until="load")
    page.click('a[href="/routes/1889"]')
    page.wait_for_url("**/routes/1889")
    page.fill("#record", fixture.read_text(encoding="utf-8"))
    page.click("#record-show")
    page.wait_for_selector("g.route")
    last = page.get_attribute(".summary", "data-action")
    # choose the first run: KO's two 2-trains for 100
    page.click("nav.actions button:has-text('first')")
    page.wait_for_function(
        "last => document.querySelector('.summary').dataset.action !== last", arg=last
    )
    routes = page.locator("g.route")
    assert routes.count() == 2
    assert sorted(int(routes.nth(i).get_attribute("data-revenue")) for i in range(2)) == [50, 50]
    assert page.inner_text("#total-ours") == "100"
    for i in range(2):
        box = routes.nth(i).bounding_box()
        assert box is not None and box["width"] > 10 and box["height"] > 10
    # the select picks another action
    page.select_option("#action-pick", index=3)
    page.wait_for_function("() => document.querySelector('#action-pick').selectedIndex === 3")
    assert page.locator("g.route").count() >= 1
    shot = tmp_path / "routes_1889.png"
    page.screenshot(path=str(shot), full_page=True)
    _check_png(shot, 1280, 900)
    assert page.console_errors == []
    # a record the server refuses: its error, in its words (the browser logs the 400)
    page.fill("#record", "{not json")
    page.click("#record-show")
    page.wait_for_selector("#routes-result .error p.message")
    assert "JSON" in page.inner_text("#routes-result .error p.message")
    assert page.console_errors == [
        "Failed to load resource: the server responded with a status of 400 (Bad Request)"
    ]

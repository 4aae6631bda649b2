"""The web app through Starlette's TestClient: every route and parameter, errors, safety."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tests.conftest import engine_games_known
from tilelay import catalogue
from tilelay.games import load_game
from tilelay.web import create_app
from tilelay.web.errors import WebError
from tilelay.web.params import parse_int, parse_layout, parse_rotations

TILE_RE = re.compile(r'<g\b[^>]*\bclass="tile"[^>]*>')


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


def tiles_on(page: str) -> list[tuple[str, int]]:
    """(data-tile, data-rotation) of every drawn tile, in page order."""
    out: list[tuple[str, int]] = []
    for tag in TILE_RE.findall(page):
        name = re.search(r'data-tile="([^"]*)"', tag)
        rot = re.search(r'data-rotation="(\d)"', tag)
        assert name is not None and rot is not None, tag
        out.append((name.group(1), int(rot.group(1))))
    return out


def svgs(page: str) -> str:
    """Only the inline SVG drawings of a page (not the forms around them)."""
    return "".join(re.findall(r"<svg\b.*?</svg>", page, re.S))


# ------------------------------------------------------------------ parameters


def test_parse_rotations() -> None:
    assert parse_rotations(None) == (0,)
    assert parse_rotations("") == (0,)
    assert parse_rotations("2") == (2,)
    assert parse_rotations("0+3") == (0, 3)
    assert parse_rotations("0 3") == (0, 3)  # '+' decoded as a space in a query string
    assert parse_rotations("all") == (0, 1, 2, 3, 4, 5)
    assert parse_rotations("ALL") == (0, 1, 2, 3, 4, 5)
    assert parse_rotations("1+1") == (1,)
    for bad in ("7", "x", "-1", "1.5", "2+x", "6"):
        with pytest.raises(WebError):
            parse_rotations(bad)


def test_parse_int_takes_ascii_digits_in_range() -> None:
    assert parse_int(" 42 ", "action", 0, 100) == 42
    for bad in ("²", "٣", "1e3", "-1", "101", "9" * 5000, ""):
        with pytest.raises(WebError, match="action must be a whole number from 0 to 100"):
            parse_int(bad, "action", 0, 100)


def test_parse_layout() -> None:
    assert parse_layout(None).value == "flat"
    assert parse_layout("pointy").value == "pointy"
    with pytest.raises(WebError):
        parse_layout("diagonal")


# ------------------------------------------------------------------ pages


def test_index_lists_games_and_links(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    for name in ("1889", "1830"):
        game = load_game(name)
        assert game.title in r.text
        assert f'href="/map/{name}"' in r.text
        assert f'href="/tiles/{name}/all"' in r.text
    assert 'href="/tiles/all"' in r.text
    assert 'href="/carcassonne"' in r.text
    assert 'action="/tile"' in r.text


def test_index_counts_a_games_tiles_and_its_unlimited_kinds(client: TestClient) -> None:
    """A game with tiles it has as many of as it needs says so beside its counted tiles
    (1817's track tiles were counted as none: the index said 1817 had 1 tile)."""
    from tests.conftest import engine_games_known

    with engine_games_known():
        text = client.get("/").text
        game = load_game("1817")
        unlimited = sum(1 for _, count in game.manifest_tiles() if count < 0)
        counted = sum(count for _, count in game.manifest_tiles() if count >= 0)
        assert unlimited > 20
        row = text[text.index(">1817<") :]
        row = row[: row.index("</tr>")]
        assert f"<td>{counted} <span" in row and f"+ {unlimited} unlimited</span>" in row
    one = client.get("/").text
    row = one[one.index(f">{load_game('1889').title}<") :]
    assert "unlimited" not in row[: row.index("</tr>")]


def test_tiles_all_draws_every_catalogue_tile(client: TestClient) -> None:
    r = client.get("/tiles/all")
    assert r.status_code == 200
    drawn = tiles_on(r.text)
    assert sorted(n for n, _ in drawn) == sorted(catalogue.tile_names())
    assert {rot for _, rot in drawn} == {0}
    for generic in ("blank", "city", "town"):
        assert (generic, 0) in drawn


def test_tiles_all_ignores_r_and_n(client: TestClient) -> None:
    r = client.get("/tiles/all", params={"r": "2", "n": "Zzyzx"})
    assert r.status_code == 200
    drawn = tiles_on(r.text)
    assert len(drawn) == len(catalogue.tile_names())
    assert {rot for _, rot in drawn} == {0}
    assert "Zzyzx" not in svgs(r.text)
    assert "ignored" in r.text


def test_single_tile(client: TestClient) -> None:
    r = client.get("/tiles/57")
    assert r.status_code == 200
    assert tiles_on(r.text) == [("57", 0)]
    assert "rotation 0" in r.text


@pytest.mark.parametrize(
    ("query", "rotations"),
    [("r=2", [2]), ("r=0+3", [0, 3]), ("r=0%2B3", [0, 3]), ("r=all", [0, 1, 2, 3, 4, 5])],
)
def test_rotation_parameter(client: TestClient, query: str, rotations: list[int]) -> None:
    r = client.get(f"/tiles/57?{query}")
    assert r.status_code == 200
    assert tiles_on(r.text) == [("57", x) for x in rotations]


def test_rotation_in_name_ignores_r(client: TestClient) -> None:
    assert tiles_on(client.get("/tiles/9-1").text) == [("9", 1)]
    assert tiles_on(client.get("/tiles/9-1?r=3").text) == [("9", 1)]
    assert tiles_on(client.get("/tiles/7-2+8-2").text) == [("7", 2), ("8", 2)]
    # mixed: in-name rotation for one, r= for the other
    assert tiles_on(client.get("/tiles/7-2+8?r=0+4").text) == [("7", 2), ("8", 0), ("8", 4)]


def test_rotation_really_turns_the_tile(client: TestClient) -> None:
    a = svgs(client.get("/tiles/9").text)
    b = svgs(client.get("/tiles/9-1").text)
    assert a != b


@pytest.mark.parametrize(
    ("url", "needle"),
    [
        ("/tiles/57?r=7", "out of range"),
        ("/tiles/57?r=x", "bad rotation"),
        ("/tiles/57?r=1+x", "bad rotation"),
        ("/tiles/9-9", "out of range"),
        ("/tiles/57?layout=diagonal", "bad layout"),
        ("/tiles/1889/439?r=6", "out of range"),
        ("/tiles/57?n=" + "x" * 61, "too long"),
    ],
)
def test_bad_parameters_answer_400(client: TestClient, url: str, needle: str) -> None:
    r = client.get(url)
    assert r.status_code == 400
    assert r.headers["content-type"].startswith("text/html")
    assert needle in r.text
    assert "Traceback" not in r.text


def test_unknown_tile_404_with_suggestions(client: TestClient) -> None:
    r = client.get("/tiles/57x")
    assert r.status_code == 404
    assert "57x" in r.text
    assert 'href="/tiles/57"' in r.text


def test_empty_lists_are_404(client: TestClient) -> None:
    assert client.get("/tiles/+").status_code == 404
    assert client.get("/tiles/1889/+").status_code == 404


def test_unknown_tile_in_a_list(client: TestClient) -> None:
    r = client.get("/tiles/7+nonesuch")
    assert r.status_code == 404
    assert "nonesuch" in r.text


def test_location_name_on_tiles_with_stops(client: TestClient) -> None:
    with_stop = svgs(client.get("/tiles/57", params={"n": "Zzyzx"}).text)
    assert "Zzyzx" in with_stop
    without_stop = svgs(client.get("/tiles/9", params={"n": "Zzyzx"}).text)
    assert "Zzyzx" not in without_stop


def test_location_name_never_overrides_preprinted(client: TestClient) -> None:
    game = load_game("1889")
    k8 = game.hex_tile("K8")
    assert k8.location_name == "Tokushima"
    page = svgs(client.get("/tiles/1889/K8", params={"n": "Zzyzx"}).text)
    assert "Tokushima" in page
    assert "Zzyzx" not in page


def test_layout_parameter_changes_generic_tiles(client: TestClient) -> None:
    flat = svgs(client.get("/tiles/57").text)
    pointy = svgs(client.get("/tiles/57?layout=pointy").text)
    assert flat != pointy


def test_grid_parameter(client: TestClient) -> None:
    plain = svgs(client.get("/tiles/57").text)
    grid = svgs(client.get("/tiles/57?grid").text)
    assert plain != grid
    assert len(grid) > len(plain)


def test_game_hex_and_tile(client: TestClient) -> None:
    r = client.get("/tiles/1889/K8+439?r=2")
    assert r.status_code == 200
    drawn = tiles_on(r.text)
    # the preprinted hex is not rotated; the manifest tile takes r=
    assert drawn[0] == ("K8", 0)
    assert drawn[1] == ("439", 2)
    assert len(drawn) == 2


def test_game_tile_rotation_in_name(client: TestClient) -> None:
    drawn = tiles_on(client.get("/tiles/1889/439-3+K8?r=1").text)
    assert drawn == [("439", 3), ("K8", 0)]


def test_game_unknown_hex_404(client: TestClient) -> None:
    r = client.get("/tiles/1889/K88")
    assert r.status_code == 404
    assert "K88" in r.text
    assert 'href="/tiles/1889/K8"' in r.text


def test_unknown_game_404_suggests_games(client: TestClient) -> None:
    r = client.get("/tiles/1888/K8")
    assert r.status_code == 404
    assert 'href="/tiles/1889/K8"' in r.text
    r = client.get("/map/1888")
    assert r.status_code == 404
    assert 'href="/map/1889"' in r.text


def test_games_all(client: TestClient) -> None:
    game = load_game("1889")
    r = client.get("/tiles/1889/all")
    assert r.status_code == 200
    drawn = tiles_on(r.text)
    assert len(drawn) == len(game.manifest) + len(game.hexes)
    assert {n for n, _ in drawn} >= set(game.hexes)


def test_games_all_fuzzy_and_several(client: TestClient) -> None:
    g1889, g1830 = load_game("1889"), load_game("1830")
    r = client.get("/tiles/shikoku+1830/all")
    assert r.status_code == 200
    expected = sum(len(g.manifest) + len(g.hexes) for g in (g1889, g1830))
    assert len(tiles_on(r.text)) == expected
    assert r.text.index(g1889.title) < r.text.index(g1830.title)
    assert client.get("/tiles/nosuchgame/all").status_code == 404


def test_games_all_rotations(client: TestClient) -> None:
    game = load_game("1889")
    drawn = tiles_on(client.get("/tiles/1889/all?r=0+1").text)
    assert len(drawn) == 2 * len(game.manifest) + len(game.hexes)


def test_map(client: TestClient) -> None:
    game = load_game("1889")
    r = client.get("/map/1889")
    assert r.status_code == 200
    coords = re.findall(r'<g\b[^>]*class="hex"[^>]*data-coord="([^"]+)"', r.text)
    coords += re.findall(r'<g\b[^>]*data-coord="([^"]+)"[^>]*class="hex"', r.text)
    assert sorted(coords) == sorted(game.hexes)
    assert game.title in r.text


def test_the_map_of_a_game_that_draws_part_of_it_says_so(client: TestClient) -> None:
    """18USA's red hexes and metropolises are drawn as a game starts: its map page says the
    map is its data's and sends to the board, which draws them for a seed."""
    with engine_games_known():
        page = client.get("/map/18USA").text
        assert "draws part of its map when a game starts" in page
        assert 'href="/board/18USA">The board</a>' in page
    assert "draws part of its map" not in client.get("/map/1889").text


def test_map_fuzzy_title(client: TestClient) -> None:
    assert client.get("/map/shikoku-1889").status_code == 200


def test_tile_string(client: TestClient) -> None:
    r = client.get("/tile", params={"code": "city=revenue:20;path=a:0,b:_0;path=a:_0,b:3"})
    assert r.status_code == 200
    assert len(tiles_on(r.text)) == 1
    assert "city=revenue:20" in r.text
    r = client.get("/tile", params={"code": "city=revenue:20;path=a:0,b:_0", "r": "all"})
    assert len(tiles_on(r.text)) == 6


def test_tile_string_error_shows_column(client: TestClient) -> None:
    r = client.get("/tile", params={"code": "city=revenue:20;path=a:9,b:_0"})
    assert r.status_code == 400
    assert "column" in r.text
    assert "^" in r.text
    assert not tiles_on(r.text)


def test_tile_form_redirects_names(client: TestClient) -> None:
    r = client.get("/tile", params={"code": "9-1"}, follow_redirects=False)
    assert r.status_code == 303
    assert r.headers["location"] == "/tiles/9-1"
    r = client.get("/tile", params={"code": "1889:439"}, follow_redirects=False)
    assert r.headers["location"] == "/tiles/1889/439"
    r = client.get("/tile", params={"code": "57", "r": "0+3", "grid": "1"}, follow_redirects=False)
    assert r.headers["location"] == "/tiles/57?r=0%2B3&grid=1"
    assert tiles_on(client.get(r.headers["location"]).text) == [("57", 0), ("57", 3)]


def test_api(client: TestClient) -> None:
    games = client.get("/api/games").json()
    assert "1889" in [g["name"] for g in games]
    tile = client.get("/api/tiles/57-1").json()
    assert tile == {
        "name": "57",
        "color": "yellow",
        "rotation": 1,
        "code": "city=revenue:20;path=a:1,b:_0;path=a:_0,b:4",
    }


def test_static_css(client: TestClient) -> None:
    r = client.get("/static/style.css")
    assert r.status_code == 200
    assert "figure.tilebox" in r.text


@pytest.mark.parametrize(
    "url",
    [
        "/tiles/..%2F..%2Fetc%2Fpasswd",
        "/tiles/..%2F..%2Fpyproject.toml",
        "/tiles/%2E%2E/pyproject.toml",
        "/static/../pyproject.toml",
        "/static/%2E%2E/%2E%2E/pyproject.toml",
        "/static/..%2F..%2F..%2Fpyproject.toml",
        "/static/%2Fetc%2Fpasswd",
        "/map/..%2F..%2Fetc%2Fpasswd",
        "/map/%2E%2E",
        "/tiles/..%5C..%5Cpyproject.toml/all",
        "/tiles/1889/..%2F..%2Fpyproject.toml",
    ],
)
def test_path_traversal_is_refused(client: TestClient, url: str) -> None:
    r = client.get(url)
    assert r.status_code == 404
    assert "root:" not in r.text
    assert "[project]" not in r.text
    assert "build-backend" not in r.text


def test_unknown_route_is_an_html_404(client: TestClient) -> None:
    r = client.get("/no/such/page")
    assert r.status_code == 404
    assert "<html" in r.text


def test_internal_error_page_has_no_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    import tilelay.svg

    def boom(*args: object, **kwargs: object) -> str:
        raise RuntimeError("secret detail")

    monkeypatch.setattr(tilelay.svg, "tile_svg", boom)
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        r = c.get("/tiles/57")
    assert r.status_code == 500
    assert "internal error" in r.text
    assert "secret detail" not in r.text
    assert "Traceback" not in r.text


def test_carcassonne_is_mounted(client: TestClient) -> None:
    r = client.get("/carcassonne")
    assert r.status_code == 200
    assert "<html" in r.text.lower()


def test_every_link_of_the_index_opens_with_the_games_of_every_source(tmp_path: Path) -> None:
    """With the games of the engine, of Rails and of GE18XX known, every page the index
    links to opens: names with spaces ("18ZOO - Map A", "Steam Over Holland"), with an
    apostrophe, and with a '+' ("1830+") too (their tile pages answered 404 or 400, and
    1830+'s every page 404)."""
    from html import unescape

    from tests.conftest import reference
    from tilelay.games import registry
    from tilelay.sources.games import add_paths

    root = reference()
    add_paths([root / "18xxgames" / "engine", root / "rails", root / "ge18xx"])
    try:
        with TestClient(create_app(db=tmp_path / "boards.sqlite3")) as client:
            index = client.get("/").text
            links = sorted({unescape(h) for h in re.findall(r'href="(/[^"]*)"', index)})
            assert any("1830%2B" in link for link in links) and len(links) > 400
            failed = [
                (link, status)
                for link in links
                if not link.startswith("/static/")
                and (status := client.get(link).status_code) != 200
            ]
            assert failed == []
    finally:
        registry.reset()


def test_a_url_parameter_a_page_does_not_take_is_refused(client: TestClient) -> None:
    """``/api/tiles/57?rotation=3`` answered rotation 0 without a word: a URL parameter the
    page or endpoint does not take is a 400 naming those it takes, and the close ones."""
    response = client.get("/api/tiles/57?rotation=3")
    assert response.status_code == 400
    assert "'rotation'" in response.json()["error"] and "takes none" in response.json()["error"]
    assert client.get("/api/tiles/57-3").json()["rotation"] == 3  # (the way to say it)
    response = client.get("/tiles/57?layot=pointy")
    assert response.status_code == 400 and "layout" in response.text
    assert client.get("/map/1889?layout=pointy").status_code == 400  # a map keeps its own
    assert client.get("/map/1889?grid=1").status_code == 200
    assert client.get("/tiles/57?r=1&n=Kobe&layout=pointy&grid=1").status_code == 200
    assert client.get("/tile?code=path%3Da%3A0%2Cb%3A3&color=green&r=1").status_code == 200
    response = client.get("/board/1889?bord=1")
    assert response.status_code == 400 and "board" in response.text

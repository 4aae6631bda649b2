"""Tests of the built-in game definitions and their loader (tilelay.games)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REFERENCE
from tilelay import dsl
from tilelay.board import Board
from tilelay.errors import GameDataError, NotFoundError
from tilelay.games import (
    UNLIMITED,
    Game,
    find_games,
    game_from_data,
    game_names,
    game_to_data,
    get_tile,
    load_game,
    load_game_file,
    parse_coord,
)
from tilelay.games.toml import game_to_toml
from tilelay.hexgeo import Layout
from tilelay.tile import Color, NodeKind

GAMES = REFERENCE / "18xxgames" / "games"
REF_FILES = {"1889": "1889", "1830": "1830", "18Chesapeake": "18_chesapeake"}
DATA = Path(__file__).resolve().parents[1] / "tilelay" / "games" / "data"


def reference(name: str) -> dict[str, Any]:
    path = GAMES / f"{REF_FILES[name]}.json"
    if not path.exists():
        pytest.skip(f"reference data absent: {path}")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


# ------------------------------------------------------------------- registry


def test_game_names() -> None:
    assert game_names() == ["1830", "1889", "18Chesapeake"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("1889", "1889"),
        ("shikoku 1889", "1889"),
        ("Shikoku_1889", "1889"),
        ("history of shikoku railways", "1889"),
        ("18_chesapeake", "18Chesapeake"),
        ("18chesapeake", "18Chesapeake"),
        ("18-Chesapeake", "18Chesapeake"),
        ("chesapeake", "18Chesapeake"),
        ("1830", "1830"),
    ],
)
def test_load_game_fuzzy(query: str, expected: str) -> None:
    assert load_game(query).name == expected


def test_load_game_is_cached() -> None:
    assert load_game("1889") is load_game("Shikoku 1889")


def test_unknown_game_suggests_close_names() -> None:
    with pytest.raises(NotFoundError) as info:
        load_game("1888")
    assert "1889" in info.value.suggestions
    assert "1888" in str(info.value)


def test_an_unknown_game_among_many_counts_them(monkeypatch: pytest.MonkeyPatch) -> None:
    from tilelay.games import registry

    with pytest.raises(NotFoundError, match=r"\(1830, 1889, 18Chesapeake\)$"):
        load_game("nope")
    many = [f"18{i:02d}" for i in range(40)]
    monkeypatch.setattr(registry, "game_names", lambda: many)
    with pytest.raises(NotFoundError, match=r"\(40 games are known\)$"):
        load_game("nope")


def test_find_games() -> None:
    assert [g.name for g in find_games("shikoku-1889")] == ["1889"]
    assert [g.name for g in find_games("18")] == ["1830", "1889", "18Chesapeake"]
    assert [g.name for g in find_games("chesa")] == ["18Chesapeake"]
    close = [g.name for g in find_games("1839")]
    assert close and set(close) <= {"1830", "1889"}
    assert find_games("carcassonne") == []


# ---------------------------------------------------------------- game facts


def test_1889_facts() -> None:
    game = load_game("1889")
    assert game.title == "Shikoku 1889"
    assert game.layout is Layout.FLAT
    assert len(game.location_names) == 25
    assert len(game.hexes) == 52
    k8 = game.hex_tile("K8")
    assert k8.location_name == "Tokushima"
    assert k8.name == "K8"
    assert [n.kind for n in k8.nodes] == [NodeKind.CITY]
    assert game.hex_tile("B7").color is Color.GRAY
    assert game.hex_tile("F1").offboards[0].revenue is not None
    assert game.manifest["57"] == 2
    assert "Beg6" not in game.manifest  # the beginner game's tiles: an option
    assert sum(game.manifest.values()) == 63
    beginner = game.with_options(["beginner_game"])
    assert beginner.manifest["Beg6"] == 2
    assert sum(beginner.manifest.values()) == 70
    assert beginner.chosen_options == ("beginner_game",)
    assert beginner.with_options([]) is game
    beg6 = game.tile("Beg6")
    assert beg6.color is Color.YELLOW and sorted(beg6.exits()) == [0, 2]
    assert [c.sym for c in game.corporations] == ["AR", "IR", "SR", "KO", "TR", "KU", "UR"]
    assert game.corporation("TR").tokens == (0, 40, 40)
    assert [c.value for c in game.companies] == [20, 30, 40, 50, 60, 80, 150]
    assert game.companies[0].blocks == ("K4",)
    assert [c.name for c in game.trains.card_types] == ["2", "3", "4", "5", "6", "D"]
    assert game.trains.card_type("D").unlimited
    assert [p.name for p in game.phases] == ["2", "3", "4", "5", "6", "D"]
    assert game.phases[2].train_limit == 3
    assert game.market[0][3] == "100p"


def test_1830_and_18chesapeake_facts() -> None:
    g1830 = load_game("1830")
    assert g1830.layout is Layout.POINTY
    assert len(g1830.hexes) == 93
    assert g1830.hex_tile("G19").label == "NY"
    assert len(g1830.hex_tile("G19").cities) == 2
    assert g1830.corporation("NYNH").city == 0
    assert g1830.home_city("NYNH") == 0
    assert g1830.home_city("ERIE") is None  # E11 has two cities and no index
    assert g1830.home_city("PRR") == 0
    assert g1830.trains.card_type("6").quantity == 2
    ches = load_game("18Chesapeake")
    assert ches.layout is Layout.FLAT
    assert ches.manifest["7"] == UNLIMITED
    assert ches.tile("X1").label == "DC"
    assert ches.tile("X8").color is Color.GRAY
    assert ches.tile("X8").cities[0].slots == 4
    assert ches.hex_tile("A3").color is Color.RED  # PLE's home: a red hex with a city


@pytest.mark.parametrize("name", ["1889", "1830", "18Chesapeake"])
def test_matches_reference(name: str) -> None:
    ref = reference(name)
    # the engine's TILES hold every option's tiles; its code takes them out when not chosen
    game = load_game(name)
    game = game.with_options(o.name for o in game.options if o.add_tiles)
    assert game.layout.value == ref["LAYOUT"]
    assert game.location_names == ref["LOCATION_NAMES"]
    ref_hexes = {c: h for h in ref["HEXES"] for c in h["coords"]}
    assert set(game.hexes) == set(ref_hexes)
    for coord, h in ref_hexes.items():
        expected = dsl.parse(h["code"], name=coord, color=h["color"])
        tile = game.hexes[coord]
        assert tile.with_location_name(None) == expected, coord
        assert tile.location_name == ref["LOCATION_NAMES"].get(coord)
    counts = {n: (v["count"] if isinstance(v, dict) else v) for n, v in ref["TILES"].items()}
    assert game.manifest == {n: UNLIMITED if c == "unlimited" else c for n, c in counts.items()}
    for n, v in ref["TILES"].items():
        if isinstance(v, dict):
            assert game.tile(n) == dsl.parse(v["code"], name=n, color=v["color"])
    assert [(c.sym, c.home, c.city, list(c.tokens)) for c in game.corporations] == [
        (c["sym"], c["coordinates"], c.get("city"), c["tokens"]) for c in ref["CORPORATIONS"]
    ]
    assert [(c.sym, c.value, c.revenue, c.description) for c in game.companies] == [
        (c["sym"], c["value"], c["revenue"], c.get("desc")) for c in ref["COMPANIES"]
    ]
    ref_trains = [dict(t) for t in ref["TRAINS"]]
    for t in ref_trains:
        t.setdefault("num", 2)  # 1830's 6-trains: computed in code by 18xx.games
    assert list(game.train_data) == ref_trains
    assert list(game.phase_data) == ref["PHASES"]
    assert [list(r) for r in game.market] == ref["MARKET"]


@pytest.mark.parametrize("name", ["1889", "1830", "18Chesapeake"])
def test_homes_exist_and_have_cities(name: str) -> None:
    game = load_game(name)
    homes = game.home_hexes()
    assert sum(len(v) for v in homes.values()) == len(game.corporations)
    for corp in game.corporations:
        assert corp.home in game.hexes
        tile = game.hex_tile(corp.home)
        assert tile.cities, corp.sym
        if corp.city is not None:
            assert corp.city < len(tile.cities)


@pytest.mark.parametrize("name", ["1889", "1830", "18Chesapeake"])
def test_preprinted_hexes_round_trip(name: str) -> None:
    game = load_game(name)
    for coord, tile in game.hexes.items():
        code = dsl.write(tile, strict=True)
        back = dsl.parse(code, name=coord, color=tile.color)
        assert back.with_location_name(tile.location_name) == tile, coord
        assert dsl.write(back) == code


@pytest.mark.parametrize("name", ["1889", "1830", "18Chesapeake"])
def test_manifest_tiles(name: str) -> None:
    game = load_game(name)
    pairs = game.manifest_tiles()
    assert len(pairs) == len(game.manifest)
    assert {t.name: c for t, c in pairs} == game.manifest
    for tile, _ in pairs:
        assert tile.color in (Color.YELLOW, Color.GREEN, Color.BROWN, Color.GRAY)
    names = [t.name for t, _ in pairs]
    numbers = [int(n) for n in names if n.isdigit()]
    assert numbers == sorted(numbers)
    assert names[: len(numbers)] == [str(n) for n in numbers]  # numbered tiles first
    if name == "1889":
        assert names[len(numbers) :] == []
        beginner = [t.name for t, _ in game.with_options(["beginner_game"]).manifest_tiles()]
        assert beginner[len(numbers) :] == ["Beg6", "Beg7", "Beg8", "Beg9", "Beg23", "Beg24"]


def test_tile_lookup_errors() -> None:
    game = load_game("1889")
    with pytest.raises(NotFoundError) as info:
        game.tile("Beg66")
    assert "Beg6" in info.value.suggestions
    with pytest.raises(NotFoundError):
        game.tile("1")  # a catalogue tile not in 1889's manifest
    with pytest.raises(NotFoundError) as hex_info:
        game.hex_tile("K88")
    assert "K8" in hex_info.value.suggestions
    assert game.hex_tile("k8").name == "K8"


def test_game_qualified_catalogue_names() -> None:
    x1 = get_tile("18Chesapeake:X1")
    assert x1.name == "X1" and sorted(x1.exits()) == [0, 4]
    assert sorted(get_tile("18chesapeake:X1", rotation=1).exits()) == [1, 5]
    assert get_tile("1889:57").cities[0].revenue is not None
    with pytest.raises(NotFoundError):
        get_tile("1889:X1")
    with pytest.raises(NotFoundError):
        get_tile("1999:57")


# --------------------------------------------------------------- coordinates


def test_parse_coord() -> None:
    assert parse_coord("A1") == (0, 1)
    assert parse_coord("K8") == (10, 8)
    assert parse_coord("AA3") == (26, 3)
    assert parse_coord("a12") == (-1, 12)  # 18xx.games: hexes left of column A (1849)
    assert parse_coord("b3") == (-2, 3)
    for bad in ("8K", "aa8", "kK8", "K", "", "K8a"):
        with pytest.raises(ValueError):
            parse_coord(bad)


def test_coord_xy_flat_and_pointy() -> None:
    assert load_game("1889").coord_xy("K8") == (10, 8)  # letter = column
    assert load_game("1830").coord_xy("E19") == (19, 4)  # letter = row


def test_neighbours_flat() -> None:
    game = load_game("1889")
    assert game.neighbour("I4", 0) == "I6"  # two rows below: same letter, number + 2
    assert game.neighbour("I4", 3) == "I2"
    assert game.neighbour("I4", 1) == "H5"
    assert game.neighbour("I4", 2) == "H3"
    assert game.neighbour("I4", 4) == "J3"
    assert game.neighbour("I4", 5) == "J5"
    assert game.neighbour("A10", 1) is None  # off the map
    assert game.neighbours("F1") == {0: "F3", 1: "E2"}  # its offboard exits: 0 and 1


def test_neighbours_pointy() -> None:
    game = load_game("1830")
    assert game.neighbour("E19", 4) == "E21"  # right
    assert game.neighbour("E19", 1) == "E17"  # left
    assert game.neighbour("E19", 0) == "F18"  # lower left
    assert game.neighbour("E19", 5) == "F20"  # lower right
    assert game.neighbour("E19", 2) == "D18"
    assert game.neighbour("E19", 3) == "D20"


@pytest.mark.parametrize("name", ["1889", "1830", "18Chesapeake"])
def test_neighbours_are_symmetric(name: str) -> None:
    game = load_game(name)
    for coord in game.hexes:
        found = game.neighbours(coord)
        assert 1 <= len(found) <= 6
        for edge, other in found.items():
            assert game.neighbour(other, (edge + 3) % 6) == coord


def test_rows_and_columns() -> None:
    g1889 = load_game("1889")
    assert g1889.columns()[0] == ("A", 0) and g1889.columns()[-1] == ("L", 11)
    assert g1889.rows()[0] == ("1", 1) and g1889.rows()[-1] == ("14", 14)
    g1830 = load_game("1830")
    assert [label for label, _ in g1830.rows()] == list("ABCDEFGHIJK")
    assert g1830.columns()[0] == ("1", 1) and g1830.columns()[-1] == ("24", 24)


# -------------------------------------------------------------- user files


def _copy_1889(tmp_path: Path, old: str, new: str) -> Path:
    text = (DATA / "1889.toml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "mygame.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_load_game_file(tmp_path: Path) -> None:
    path = _copy_1889(tmp_path, 'title = "1889"', 'title = "My 1889"')
    game = load_game_file(path)
    assert isinstance(game, Game)
    assert game.name == "My 1889"
    assert game.source == str(path)
    assert len(game.hexes) == 52


def test_bad_toml_names_file_and_line(tmp_path: Path) -> None:
    path = _copy_1889(tmp_path, 'layout = "flat"', "layout = flat")
    with pytest.raises(GameDataError) as info:
        load_game_file(path)
    assert info.value.source == str(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert info.value.line == lines.index("layout = flat") + 1
    assert "malformed TOML" in str(info.value)


def test_bad_tile_string_names_hex(tmp_path: Path) -> None:
    path = _copy_1889(tmp_path, 'code = "path=a:1,b:5"', 'code = "path=a:1,b:9"')
    with pytest.raises(GameDataError) as info:
        load_game_file(path)
    message = str(info.value)
    assert str(path) in message and "J7" in message and "bad tile string" in message
    assert info.value.line is not None


def test_bad_coordinate(tmp_path: Path) -> None:
    path = _copy_1889(tmp_path, 'coords = ["J7"]', 'coords = ["7J"]')
    with pytest.raises(GameDataError, match="bad coordinate '7J'"):
        load_game_file(path)


def test_unknown_manifest_tile(tmp_path: Path) -> None:
    path = _copy_1889(tmp_path, '"611" = 2', '"6111" = 2')
    with pytest.raises(GameDataError) as info:
        load_game_file(path)
    assert "6111" in str(info.value) and "611" in str(info.value).replace("6111", "")
    path = _copy_1889(tmp_path, "Beg9 = 1,", "Beg99 = 1,")
    with pytest.raises(GameDataError, match="option beginner_game: no such tile Beg99"):
        load_game_file(path)


def test_home_off_the_map(tmp_path: Path) -> None:
    path = _copy_1889(tmp_path, 'home = "K8"', 'home = "Z9"')
    with pytest.raises(GameDataError, match="Z9 is not a hex of the map"):
        load_game_file(path)
    path = _copy_1889(tmp_path, 'home = "K8"', 'home = "K6"')
    with pytest.raises(GameDataError, match="K6 has no city"):
        load_game_file(path)


def test_more_home_stations_read_written_and_refused(tmp_path: Path) -> None:
    """A corporation's ``more_homes`` (hexes, or hexes with a city) are read, placed as home
    tokens, written back by game_to_toml; one off the map, without a city or without that
    city is named and left out (strictly: refused)."""
    path = _copy_1889(
        tmp_path, 'home = "K8"', 'home = "K8"\nmore_homes = ["E2", { hex = "I2", city = 0 }]'
    )
    game = load_game_file(path)
    sym = next(c.sym for c in game.corporations if c.home == "K8")
    assert game.corporation(sym).more_homes == (("E2", None), ("I2", 0))
    assert game.home_cities(sym) == (("K8", 0), ("E2", 0), ("I2", 0))
    tokens = Board(game).with_home_tokens([sym]).tokens
    assert {key for key, syms in tokens.items() if sym in syms} == {
        ("K8", 0),
        ("E2", 0),
        ("I2", 0),
    }
    again = tmp_path / "again.toml"
    again.write_text(game_to_toml(game), encoding="utf-8")
    assert load_game_file(again).corporation(sym).more_homes == (("E2", None), ("I2", 0))
    for more, expected in (
        ('["Z9"]', "home Z9 is not a hex of the map"),
        ('["K6"]', "home K6 has no city"),
        ('[{ hex = "E2", city = 2 }]', "home E2 has no city 2"),
        ('[{ hex = "E2", town = 0 }]', "unknown key 'town'"),
        ('"E2"', "more_homes must be a list"),
    ):
        path = _copy_1889(tmp_path, 'home = "K8"', f'home = "K8"\nmore_homes = {more}')
        with pytest.raises(GameDataError, match=expected) as info:
            load_game_file(path)
        assert str(path) in str(info.value)


_TWO_PLAYERS = """
[hexes_by_players.2]
removed = ["B5", "C8"]

[[hexes_by_players.2.hexes]]
color = "red"
coords = ["D3", "Z9"]
code = "offboard=revenue:20;path=a:0,b:_0"
"""


def test_a_map_by_the_number_of_players(tmp_path: Path) -> None:
    """``[hexes_by_players.N]``: the hexes of the map for N players that differ (given as
    ``[[hexes]]`` are, or ``removed``): read, played by ``Game.for_players`` (the same game
    object for the same number, the game itself for others, a variant's own variants those
    of the game), written back; a hex both given and removed, or a count that is not one of
    players, is refused by name."""
    path = tmp_path / "two.toml"
    path.write_text((DATA / "1889.toml").read_text(encoding="utf-8") + _TWO_PLAYERS, "utf-8")
    game = load_game_file(path)
    changed = game.hexes_by_players[2]
    assert changed["B5"] is None and changed["C8"] is None
    d3 = changed["D3"]
    assert d3 is not None and d3.color is Color.RED and d3.name == "D3"
    two = game.for_players(2)
    assert two is game.for_players(2) and game.for_players(3) is game
    assert "B5" not in two.hexes and "Z9" in two.hexes and two.hexes["D3"].color is Color.RED
    assert len(two.hexes) == len(game.hexes) - 2 + 1
    assert two.for_players(3) is game and two.for_players(2) is two
    again = tmp_path / "again.toml"
    again.write_text(game_to_toml(game), encoding="utf-8")
    assert load_game_file(again).hexes_by_players == game.hexes_by_players
    for text, error in (
        (_TWO_PLAYERS.replace('removed = ["B5", "C8"]', 'removed = ["D3"]'), "both given"),
        (_TWO_PLAYERS.replace("by_players.2", "by_players.x"), "a number of players"),
        (_TWO_PLAYERS.replace('removed = ["B5", "C8"]', "removed = 3"), "removed"),
    ):
        path.write_text((DATA / "1889.toml").read_text(encoding="utf-8") + text, "utf-8")
        with pytest.raises(GameDataError, match=error) as info:
            load_game_file(path)
        assert str(path) in str(info.value)


def test_unknown_key_and_missing_file(tmp_path: Path) -> None:
    path = _copy_1889(tmp_path, 'layout = "flat"', 'layout = "flat"\nlayuot = 1')
    with pytest.raises(GameDataError, match="unknown key 'layuot'"):
        load_game_file(path)
    with pytest.raises(GameDataError, match="cannot read"):
        load_game_file(tmp_path / "nope.toml")


def test_a_games_own_title_wins_over_another_games_alias() -> None:
    """18xx.games' "18 Los Angeles 2" also answers to its folder's name, 18LosAngeles; the
    game titled "18 Los Angeles" keeps that name."""
    from tilelay.games import registry

    first = load_game("1889")
    second = load_game("1830")
    try:
        registry.add_entries(
            [
                registry.GameEntry("LA 2", "LA 2", ("LA 2", "LA"), "s2", "x", lambda: first),
                registry.GameEntry("LA", "LA", ("LA",), "s1", "x", lambda: second),
            ]
        )
        assert registry.load_game("LA") is second
        assert registry.load_game("LA 2") is first
        assert any("no longer answers" in str(w) for w in registry.registry_warnings())
    finally:
        registry.reset()


def test_a_game_made_from_another_with_more_hexes_leaves_the_other_as_it_was() -> None:
    """A game made with ``dataclasses.replace`` and other hexes (18USA's setup drawn from a
    record's seed adds red hexes) has coordinates of its own: the first game gains no
    neighbour off its map (it gained them, and a board of it then raised KeyError), and the
    new game's variants with options are its own."""
    from dataclasses import replace

    game = load_game("1889")
    edges = game.neighbours("A10")
    assert "A12" not in game.hexes and 0 not in edges  # (edge 0 of A10 leads off the map)
    more = replace(game, hexes={**game.hexes, "A12": game.hexes["A10"]})
    assert more.neighbours("A10")[0] == "A12"
    assert game.neighbours("A10") == edges and game.neighbour("A10", 0) is None
    if game.options:
        name = game.options[0].name
        assert more.with_options([name]) is not game.with_options([name])
        assert more.with_options([name]).hexes.keys() == more.hexes.keys()


def test_a_train_that_cannot_be_read_is_left_out_alone() -> None:
    """Read leniently (an engine's game), a train tilelay cannot read is left out and named
    (1822 CA's grain train runs to grain elevators, a kind of stop tilelay does not know):
    the game keeps its other trains, and writes and reads back as tilelay's format. Read
    strictly, the game is refused, naming the train."""
    from tilelay.errors import GameDataError
    from tilelay.games.data import game_from_data
    from tilelay.games.toml import game_to_toml, read_game_toml

    data = {
        "title": "Grain",
        "layout": "flat",
        "hexes": [{"color": "white", "coords": ["A1"], "code": "city=revenue:20"}],
        "trains": [
            {"name": "2", "distance": 2, "price": 80, "num": 4},
            {"name": "G", "distance": [{"nodes": ["grain_elevator"], "pay": 9}], "price": 0},
            {"name": "3", "distance": 3, "price": 180, "num": 3, "rusts_on": "G"},
        ],
        "phases": [{"name": "2", "tiles": ["yellow"], "on": "2"}, {"name": "3", "on": "3"}],
    }
    game = game_from_data(data, source="grain.json", strict=False)
    assert [c.name for c in game.trains.card_types] == ["2", "3"]
    (problem,) = [p.message for p in game.problems if "left out" in p.message]
    assert problem == (
        "trains[1] (G): unknown distance node kind 'grain_elevator'; the train is left out"
    )
    again = read_game_toml(game_to_toml(game), "grain.toml")
    assert [c.name for c in again.trains.card_types] == ["2", "3"]
    with pytest.raises(GameDataError, match=r"trains\[1\]: unknown distance node kind"):
        game_from_data(data, source="grain.json")


def test_names_of_hexes_off_the_map_are_one_problem() -> None:
    """A scenario's map (1822 CA's ERS) names every hex of the whole map: the names of
    hexes it has not are left out in one problem, not one each (43 for ERS)."""
    data = game_to_data(load_game("1889"))
    extra = {f"Z{n}": f"Nowhere {n}" for n in range(1, 11)}
    data["location_names"] = {**data.get("location_names", {}), **extra}
    game = game_from_data(data, source="scenario.toml", strict=False)
    problems = [p for p in game.problems if "location_names" in p.message]
    assert [p.message for p in problems] == [
        "location_names: 10 hexes are not of the map, their names left out: "
        "Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8 and 2 more"
    ]
    assert not set(extra) & set(game.location_names)
    # one is named alone; a game file of one's own is refused at it
    data["location_names"] = {"Z1": "Nowhere"}
    (one,) = game_from_data(data, source="one.toml", strict=False).problems
    assert one.message == "location_names: Z1 is not a hex of the map"
    with pytest.raises(GameDataError, match="Z1 is not a hex of the map"):
        game_from_data(data, source="one.toml")


def test_a_sub_part_given_twice_in_a_sources_hex_is_read_as_the_engine_reads_it() -> None:
    """1868 Wyoming's Billings offboards give ``groups`` twice: the engine takes the last, and
    a lenient reading of its games does too, saying so (they were drawn as plain hexes, and
    its Billings and Ogden tiles left out); a game file of one's own is still refused."""
    data = game_to_data(load_game("1889"))
    data["hexes"].append(
        {
            "coords": ["Z1"],
            "color": "red",
            "code": "offboard=groups:Billings,revenue:20,groups:W;path=a:_0,b:0",
        }
    )
    game = game_from_data(data, source="wyoming.rb", strict=False)
    (node,) = game.hexes["Z1"].nodes
    assert node.kind is NodeKind.OFFBOARD and node.groups == ("W",)
    (problem,) = [p.message for p in game.problems if "Z1" in p.message]
    assert problem.endswith(
        "tile string (column 37): offboard: sub part 'groups' given twice; read as 18xx.games "
        "reads it: offboard: sub part 'groups' given twice (columns 10 and 37): the last taken"
    )
    with pytest.raises(GameDataError, match=r"bad tile string \(column 37\): offboard: sub part"):
        game_from_data(data, source="wyoming.toml")


def _optioned_1889() -> dict[str, Any]:
    """1889's data with an option that changes the map (a hex changed, one removed, the map
    for two players), the trains and phases, the corporations, the companies and the
    market, for two and three players only."""
    data = game_to_data(load_game("1889"))
    corporations = [c for c in data["corporations"] if c["sym"] != "TR"]
    data["options"].append(
        {
            "name": "variant",
            "title": "A variant",
            "hexes": [
                {"color": "gray", "coords": ["A10"], "code": "city=revenue:40;path=a:0,b:_0"}
            ],
            "removed": ["L7"],
            "hexes_by_players": {"2": {"removed": ["B11"]}},
            "trains": [{"name": "2", "distance": 2, "price": 80, "num": 9}],
            "phases": [{"name": "2", "train_limit": 4, "tiles": ["yellow"], "operating_rounds": 1}],
            "corporations": corporations,
            "companies": data["companies"][:2],
            "market": {"rows": [["100", "110"]]},
            "players": [2, 3],
        }
    )
    return data


def test_an_option_changes_the_map_trains_corporations_and_market() -> None:
    """What an option gives (:class:`GameOption`) is what the game plays with it: its hexes
    on the map, the map for the players it gives, its trains and phases, corporations,
    companies and market; for a number of players it is not for, the game plays without
    it; without it, the game's own."""
    game = game_from_data(_optioned_1889(), source="test")
    option = game.option("variant")
    assert option.changes == ("map", "trains", "corporations", "companies", "market")
    plain, chosen = game, game.with_options(["variant"])
    assert chosen.hexes["A10"].color is Color.GRAY and plain.hexes["A10"].color is not Color.GRAY
    assert "L7" in plain.hexes and "L7" not in chosen.hexes
    assert chosen.hexes["A10"].location_name == plain.hexes["A10"].location_name
    assert [c.name for c in chosen.trains.card_types] == ["2"]
    assert chosen.trains.card_types[0].quantity == 9
    assert "TR" in {c.sym for c in plain.corporations} - {c.sym for c in chosen.corporations}
    assert len(chosen.companies) == 2 and chosen.market == (("100", "110"),)
    two = chosen.for_players(2)
    assert "B11" not in two.hexes and "B11" in chosen.for_players(3).hexes
    assert two.chosen_options == ("variant",)
    # for four players the option is not in force: the game's own
    four = chosen.for_players(4)
    assert four is game.for_players(4) and "L7" in four.hexes
    assert chosen.with_options([]) is game


def test_an_option_s_changes_round_trip() -> None:
    """An option's changes are written as they are read (tilelay's TOML included)."""
    data = _optioned_1889()
    game = game_from_data(data, source="test")
    again = game_to_data(game)
    assert (
        again["options"][-1] == game_to_data(game_from_data(again, source="again"))["options"][-1]
    )
    written = next(o for o in again["options"] if o["name"] == "variant")
    assert written["removed"] == ["L7"] and written["players"] == [2, 3]
    assert written["hexes_by_players"] == {"2": {"removed": ["B11"]}}
    assert [t["name"] for t in written["trains"]] == ["2"]
    from tilelay.games.toml import read_game_toml

    read = read_game_toml(game_to_toml(game), "written").option("variant")
    option = game.option("variant")
    assert read == option  # (name, tiles, hexes, corporations, companies, market, players)
    assert read.hexes_by_players == option.hexes_by_players
    assert read.train_data == option.train_data and read.phase_data == option.phase_data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"removed": ["A10"]}, "option variant: hex A10 is both given and removed"),
        ({"players": "two"}, "option variant: players must be a list"),
        ({"trains": [{"name": "2", "distance": 2, "price": "x"}]}, "option variant"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_a_bad_option_is_refused_naming_it(change: dict[str, Any], message: str) -> None:
    data = _optioned_1889()
    data["options"][-1].update(change)
    with pytest.raises(GameDataError, match=message):
        game_from_data(data, source="test")

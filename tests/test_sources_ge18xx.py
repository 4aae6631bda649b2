"""GE18XX game directories as games: every shared game loads, draws and lists its upgrades;
known facts; GE18XX's 1830 against the built-in 1830."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import offboard_revenues, reference
from tilelay.compare import compare_games
from tilelay.errors import GameSourceError, IncompleteGameError, XMLFormatError
from tilelay.games import load_game
from tilelay.hexgeo import Layout
from tilelay.sources.ge18xx import find_ge18xx_games, load_ge18xx_game
from tilelay.svg import map_svg
from tilelay.tile import BorderType, Color
from tilelay.upgrades import upgrade_table

#: The shared GE18XX games: hexes, manifest tiles (0: no tile set).
GAMES = {
    "1830": (93, 0),
    "1830+": (114, 0),
    "1835": (127, 63),
    "1853": (171, 59),
    "1856": (99, 53),
    "1870": (154, 49),
}


def _game(name: str) -> Path:
    return reference("ge18xx", name)


def test_finds_every_shared_game() -> None:
    assert [d.name for d in find_ge18xx_games(reference("ge18xx"))] == sorted(GAMES)
    assert find_ge18xx_games(_game("1856")) == [_game("1856")]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_game_loads_draws_and_lists_upgrades(name: str) -> None:
    game = load_ge18xx_game(_game(name))
    hexes, manifest = GAMES[name]
    assert game.format == "ge18xx" and game.source == str(_game(name))
    assert len(game.hexes) == hexes and len(game.manifest) == manifest
    svg = map_svg(game)
    assert svg.count('<g class="hex" data-coord=') == len(game.hexes)
    tiles = [t for t, _ in game.manifest_tiles()]
    table = upgrade_table(tiles, game.upgrade_rules, from_tiles=[*game.hexes.values(), *tiles])
    if manifest:
        assert table
    else:  # no tile set: nothing to upgrade to, and a problem says why
        assert table == []
        assert any("TileSet.xml not found" in p.message for p in game.problems)
    assert game.trains.card_types and game.phases
    print(
        f"\n{name}: {len(game.hexes)} hexes, {len(game.manifest)} manifest tiles, "
        f"{len(table)} upgrades, {len(game.problems)} problems"
    )


def test_1830_known_facts() -> None:
    game = load_ge18xx_game(_game("1830"))
    assert game.layout is Layout.POINTY and not game.letter_is_x
    ny = game.hexes["G19"]
    assert len(ny.cities) == 2 and ny.label == "NY" and ny.location_name == "New York"
    assert game.corporation("PRR").home == "H12" and game.corporation("NYC").home == "E19"
    assert game.corporation("PRR").tokens == (0, 40, 100, 100)
    assert offboard_revenues(game, "F2") == {"yellow": 40, "brown": 70}
    assert offboard_revenues(game, "K13") == {"yellow": 30, "brown": 40}
    assert [(b.edge, b.type) for b in game.hexes["E7"].borders] == [(5, BorderType.IMPASSABLE)]
    assert [u.cost for u in game.hexes["C17"].upgrades] == [120]
    assert game.hexes["A19"].color is Color.GRAY
    assert [p.name for p in game.phases] == ["1.1", "2.1", "2.2", "3.1", "3.2", "3.3"]
    assert game.trains.card_type("Diesel").quantity == 6
    # the map's own tiles are the game's tiles even without a manifest
    assert "9940" in game.game_tiles and game.manifest == {}


def test_1856_known_facts() -> None:
    game = load_ge18xx_game(_game("1856"))
    assert game.layout is Layout.FLAT and game.letter_is_x
    assert game.manifest["57"] == 4 and game.manifest["8"] == 13
    assert "9993" not in game.manifest  # the tile set's preprinted tiles are not laid
    assert game.hexes["N11"].location_name == "Toronto"
    assert len(game.hexes["N11"].cities) == 2  # its destination marker is not a stop
    # a value from phase 6 (not 5, the first gray phase): listed per phase
    assert offboard_revenues(game, "A20") == {
        "1.1": 30,
        "2.1": 30,
        "3.1": 30,
        "4.1": 50,
        "5.1": 50,
        "6.1": 60,
    }
    assert offboard_revenues(game, "B13") == {"yellow": 30, "brown": 50}
    assert game.players == (3, 6) and game.subtitle


def test_1853_names_its_columns_with_letters() -> None:
    game = load_ge18xx_game(_game("1853"))
    assert game.corporation("EIR").home == "J28"  # the engine's cell "Jab"
    assert any("numbers them by place" in p.message for p in game.problems)


def test_a_path_without_a_game(tmp_path: Path) -> None:
    with pytest.raises(GameSourceError, match="no GE18XX game here") as info:
        load_ge18xx_game(tmp_path)
    assert info.value.source == str(tmp_path)
    with pytest.raises(GameSourceError, match="not a directory"):
        load_ge18xx_game(tmp_path / "nothing")
    assert find_ge18xx_games(tmp_path) == []


def test_a_game_without_tile_definitions(tmp_path: Path) -> None:
    d = tmp_path / "1856"
    shutil.copytree(_game("1856"), d)
    with pytest.raises(IncompleteGameError, match="no Tile Definitions") as info:
        load_ge18xx_game(d)
    assert info.value.missing == ("Tiles",) and info.value.source == str(d)
    game = load_ge18xx_game(d, tiles=reference("ge18xx", "Tiles"))
    assert any("no 18xx-Games.xml" in p.message for p in game.problems)
    assert game.trains.card_types == ()


def test_xml_stays_hardened(tmp_path: Path) -> None:
    d = tmp_path / "X"
    d.mkdir()
    (d / "X-Map.xml").write_text('<!DOCTYPE m [<!ENTITY e "x">]>\n<Map/>\n', encoding="utf-8")
    with pytest.raises(XMLFormatError, match="entity"):
        load_ge18xx_game(d, tiles=reference("ge18xx", "Tiles"))


def test_ge18xx_1830_against_builtin() -> None:
    """Every difference of GE18XX's 1830 from the built-in one has a known cause in
    tilelay/data/known_differences.toml; the manifest is all of them missing (GE18XX has no
    1830-TileSet.xml, a problem says so)."""
    ge = load_ge18xx_game(_game("1830"))
    builtin = load_game("1830")
    result = compare_games([builtin, ge])
    assert [str(f.difference) for f in result.unexplained] == []
    missing = {f.difference.where for f in result.findings if f.difference.what == "manifest"}
    assert missing == set(builtin.manifest)

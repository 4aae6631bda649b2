"""Rails game directories as games: every shared game loads, draws and lists its upgrades;
known facts of 1830; Rails' 1830, 1889 and 18Chesapeake against the built-in games."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import REFERENCE, offboard_revenues, reference
from tilelay.compare import compare_games
from tilelay.errors import GameSourceError, IncompleteGameError, XMLFormatError
from tilelay.games import load_game
from tilelay.hexgeo import Layout
from tilelay.sources.rails import RAILS_FILES, find_rails_games, load_rails_game
from tilelay.svg import map_svg
from tilelay.tile import BorderType, Color, NodeKind
from tilelay.upgrades import upgrade_table

RAILS = REFERENCE / "rails"

#: The shared Rails games with all five files, and the hexes each map has.
COMPLETE = {
    "1825": 107,
    "1830": 93,
    "1835": 126,
    "1851": 90,
    "1856": 98,
    "1862": 98,
    "1870": 154,
    "1880": 121,
    "1889": 52,
    "18AL": 60,
    "18C2C": 801,
    "18Chesapeake": 64,
    "18EU": 118,
    "18GA": 51,
    "18Kaas": 84,
    "18Lummer": 10,
    "18NL": 78,
    "18Scan": 59,
    "18TN": 71,
    "SOH": 74,
}
#: The shared Rails games that lack files, with the files they lack.
INCOMPLETE = {
    "1817": ("Map.xml", "TileSet.xml", "Tiles.xml", "CompanyManager.xml"),
    "1846": ("Game.xml", "TileSet.xml", "Tiles.xml", "CompanyManager.xml"),
}


def _game(name: str) -> Path:
    return reference("rails", name)


def test_finds_every_shared_game() -> None:
    found = [d.name for d in find_rails_games(reference("rails"))]
    assert found == sorted({*COMPLETE, *INCOMPLETE})
    assert find_rails_games(_game("1830")) == [_game("1830")]


@pytest.mark.parametrize("name", sorted(COMPLETE))
def test_game_loads_draws_and_lists_upgrades(name: str) -> None:
    game = load_rails_game(_game(name))
    assert game.format == "rails"
    assert game.source == str(_game(name))
    assert len(game.hexes) == COMPLETE[name]
    svg = map_svg(game)
    assert svg.count('<g class="hex" data-coord=') == len(game.hexes)
    tiles = [t for t, _ in game.manifest_tiles()]
    assert tiles, "the manifest has tiles"
    table = upgrade_table(tiles, game.upgrade_rules, from_tiles=[*game.hexes.values(), *tiles])
    assert table, "some upgrades"
    assert game.trains.card_types and game.phases
    for problem in game.problems:
        assert problem.source, str(problem)
    print(
        f"\n{name}: {len(game.hexes)} hexes, {len(game.manifest)} manifest tiles, "
        f"{len(table)} upgrades, {len(game.problems)} problems"
    )


@pytest.mark.parametrize("name", sorted(INCOMPLETE))
def test_incomplete_games_are_reported(name: str) -> None:
    with pytest.raises(IncompleteGameError) as info:
        load_rails_game(_game(name))
    assert info.value.missing == INCOMPLETE[name]
    assert info.value.source == str(_game(name))
    for missing in INCOMPLETE[name]:
        assert missing in str(info.value)


def test_a_path_without_a_game(tmp_path: Path) -> None:
    with pytest.raises(GameSourceError, match="no Rails game here") as info:
        load_rails_game(tmp_path)
    assert info.value.source == str(tmp_path)
    with pytest.raises(GameSourceError, match="not a directory"):
        load_rails_game(tmp_path / "nothing")
    with pytest.raises(GameSourceError, match="not a directory"):
        find_rails_games(tmp_path / "nothing")
    assert find_rails_games(tmp_path) == []


def test_xml_stays_hardened(tmp_path: Path) -> None:
    """A game directory whose Map.xml declares an entity is refused (file and line)."""
    for f in RAILS_FILES:
        (tmp_path / f).write_bytes((_game("18Lummer") / f).read_bytes())
    (tmp_path / "Map.xml").write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE m [<!ENTITY x "y">]>\n<Map/>\n', encoding="utf-8"
    )
    with pytest.raises(XMLFormatError, match="entity") as info:
        load_rails_game(tmp_path)
    assert info.value.source == str(tmp_path / "Map.xml")


def test_1830_known_facts() -> None:
    game = load_rails_game(_game("1830"))
    assert game.name == "1830"
    assert game.layout is Layout.POINTY and not game.letter_is_x
    ny = game.hexes["G19"]
    assert len(ny.cities) == 2 and ny.label == "NY"
    assert ny.color is Color.YELLOW and ny.location_name == "New York"
    assert [c.revenue.value for c in ny.cities if c.revenue] == [40, 40]
    assert game.corporation("PRR").home == "H12"
    assert game.corporation("NYC").home == "E19"
    assert game.corporation("PRR").tokens == (0, 40, 100, 100)
    # NYNH: Rails' station 2 of G19 (the city with track to edge 3)
    assert game.home_city("NYNH") == 1
    assert game.hexes["G19"].node_exits(game.hexes["G19"].nodes.index(ny.cities[1])) == {3}
    assert game.home_city("Erie") is None  # city="0": the owner chooses
    # off-board values per phase: Rails' step 2 starts in phase 5 (brown)
    assert offboard_revenues(game, "F2") == {"yellow": 40, "brown": 70}
    assert offboard_revenues(game, "A9") == {"yellow": 30, "brown": 50}
    assert offboard_revenues(game, "B24") == {"yellow": 20, "brown": 30}
    assert game.manifest["57"] == 4 and game.manifest["8"] == 8
    assert len(game.manifest) == 46
    # labels: OO and B from Map.xml, NY from tile -21's name; manifest tiles derive theirs
    assert {c for c, t in game.hexes.items() if t.label == "OO"} == {"D10", "E5", "E11", "H18"}
    assert {c for c, t in game.hexes.items() if t.label == "B"} == {"E23", "I15"}
    assert game.tile("59").label == "OO" and game.tile("54").label == "NY"
    assert game.tile("57").label is None
    # impassable sides on both hexes
    assert [(b.edge, b.type) for b in game.hexes["E7"].borders] == [(5, BorderType.IMPASSABLE)]
    assert [(b.edge, b.type) for b in game.hexes["F8"].borders] == [(2, BorderType.IMPASSABLE)]
    assert [u.cost for u in game.hexes["C17"].upgrades] == [120]
    # fixed (gray) preprinted track, red offboards
    assert game.hexes["A19"].color is Color.GRAY
    assert game.hexes["F2"].color is Color.RED
    assert game.hexes["F2"].offboards[0].kind is NodeKind.OFFBOARD
    privates = {c.sym: c for c in game.companies}
    assert privates["B&O"].value == 220 and privates["B&O"].blocks == ("I13", "I15")
    assert [p.name for p in game.phases] == ["2", "3", "4", "5", "6", "D"]
    assert game.trains.card_type("2").quantity == 6


def test_options_choose_a_variant() -> None:
    base = load_rails_game(_game("1830"))
    wabash = load_rails_game(_game("1830"), options={"Variant": "Wabash"})
    assert "G-1" not in base.hexes and "G-1" in wabash.hexes
    assert wabash.hexes["F2"].offboards == ()
    assert "WAB" in {c.sym for c in wabash.corporations}


def test_coordinates_rails_writes_its_own_way() -> None:
    c2c = load_rails_game(_game("18C2C"))
    assert "AA66" in c2c.hexes  # Rails' row "[" (after Z)
    c1851 = load_rails_game(_game("1851"))
    assert any("row @" in p.message for p in c1851.problems)


def test_flat_maps() -> None:
    game = load_rails_game(_game("1889"))
    assert game.layout is Layout.FLAT and game.letter_is_x
    al = load_rails_game(_game("18AL"))  # NS hexes with letters as rows
    assert al.layout is Layout.FLAT and not al.letter_is_x


# ------------------------------------------------------------------ against the built-in games

#: The built-in games Rails also has; every difference of Rails' from the built-in one has a
#: known cause in tilelay/data/known_differences.toml (tests/test_compare.py compares every
#: shared title; bugs found this way were fixed in the reader, e.g. Rails numbers a tile's
#: stations by id, not by place in the file, and river="…" sides are water borders).
BUILTIN_AND_RAILS = ("1830", "1889", "18Chesapeake")


@pytest.mark.parametrize("name", BUILTIN_AND_RAILS)
def test_rails_against_builtin_game(name: str) -> None:
    rails = load_rails_game(_game(name))
    builtin = load_game(name)
    result = compare_games([builtin, rails])
    assert result.findings, "the sources differ a little"
    assert [str(f.difference) for f in result.unexplained] == []


def test_rails_and_builtin_agree_on_the_essentials() -> None:
    """What the comparison does not list agrees: for 1830 every hex's colour, stops, revenues,
    track, label and cost, the whole manifest, homes and companies."""
    rails = load_rails_game(_game("1830"))
    builtin = load_game("1830")
    assert set(rails.hexes) == set(builtin.hexes)
    assert rails.manifest == builtin.manifest
    for coord, tile in builtin.hexes.items():
        assert rails.hexes[coord].topology() == tile.topology(), coord


def test_labels_as_tilelay_matches_them() -> None:
    """Labels Rails' upgrade lists keep become tile labels; others are left out, with a
    problem; tiles made for one place take its name."""
    game = load_rails_game(_game("1856"))
    # B (Barrie, London): from tile -11's name; 121 is let only onto them
    assert game.hexes["F15"].label == "B" and game.tile("121").label == "B"
    # L: Rails lets plain tiles (57, 14, …) onto these hexes too, so tilelay cannot keep it
    assert game.hexes["B19"].label is None
    assert any(p.message.startswith("hex B19: label 'L' not kept") for p in game.problems)
    # Toronto's own tiles
    assert game.tile("122").location_name == "Toronto"
    assert game.hexes["N11"].location_name == "Toronto"
    # the Rails tile each hex is printed with
    assert dict(game.hexes["N11"].extra)["tile"] == "-56001"


def test_river_sides() -> None:
    """Steam Over Holland's river="…" sides are water borders on both hexes (found by
    comparing it with 18xx.games': the reader had skipped them)."""
    game = load_rails_game(_game("SOH"))
    assert [(b.edge, b.type, b.cost) for b in game.hexes["J13"].borders] == [
        (3, BorderType.WATER, None),
        (4, BorderType.WATER, None),
    ]
    assert (1, BorderType.WATER) in [(b.edge, b.type) for b in game.hexes["J15"].borders]


def test_unlimited_tiles() -> None:
    """Rails' quantity -1 (or 99) is unlimited: UNLIMITED (-1) in the manifest."""
    from tilelay.games import UNLIMITED

    game = load_rails_game(_game("18Chesapeake"))
    assert game.manifest["8"] == UNLIMITED and game.manifest["57"] > 0

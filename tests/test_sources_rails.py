"""Rails game directories as games: every shared game loads, draws and lists its upgrades;
known facts of 1830; Rails' 1830, 1889 and 18Chesapeake against the built-in games."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import REFERENCE, reference
from tests.game_compare import differences, offboard_revenues
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

_SAME_OFFBOARD = (
    "representation: 18xx.games draws a plain border joining the two hexes of one off-board "
    "area; Rails has no such element"
)
#: Every difference between a built-in game (first) and Rails' (second), with its cause.
#: Causes: an edition difference, a data error (or gap) in one source, a representation
#: difference (same game, written another way). Bugs found this way were fixed in the reader
#: (e.g. Rails numbers a tile's stations by id, not by place in the file).
BUILTIN_VS_RAILS: dict[str, dict[str, str]] = {
    "1830": {
        "corporation ERIE: only in tilelay": "representation: Rails spells the symbol Erie",
        "corporation Erie: only in rails": "representation: as ERIE",
        "hex A11: borders ['1:plain']/[]": _SAME_OFFBOARD,
        "hex A9: borders ['4:plain']/[]": _SAME_OFFBOARD,
        "hex I1: borders ['5:plain']/[]": _SAME_OFFBOARD,
        "hex J2: borders ['2:plain']/[]": _SAME_OFFBOARD,
    },
    "1889": {
        **{
            f"hex {h}: revenue ['yellow_{a}|brown_{b}|diesel_{c}']/['yellow_{a}|brown_{b}']": (
                "representation: Rails gives D trains +40 by a <RevenueBonus> (not read, listed "
                "in problems); 18xx.games writes it as a diesel value"
            )
            for h, a, b, c in (("F1", 30, 60, 100), ("J1", 20, 40, 80), ("L7", 20, 40, 80))
        },
        **{
            f"hex {h}: label {label}/None": (
                "data gap in Rails: Map.xml has no label for Kouchi (K), Kotohira (H) and "
                "Takamatsu (T); Rails ties their tiles to the hex by name, so the reader gives "
                "those tiles the place name instead (see the tile entries)"
            )
            for h, label in (("F9", "K"), ("I4", "H"), ("K4", "T"))
        },
        **{
            f"tile {t}: label {label}/None": (
                "data gap in Rails (as the hexes): the tile carries the place name instead"
            )
            for t, label in (
                ("438", "H"),
                ("439", "H"),
                ("440", "T"),
                ("465", "K"),
                ("466", "T"),
                ("492", "H"),
            )
        },
        **{
            f"manifest {t}: {n}/None": (
                "edition/variant: the beginner game's tiles; Rails has them only with its "
                "BeginnerGame option, off by default"
            )
            for t, n in (
                ("Beg6", 2),
                ("Beg7", 1),
                ("Beg8", 1),
                ("Beg9", 1),
                ("Beg23", 1),
                ("Beg24", 1),
            )
        },
    },
    "18Chesapeake": {
        **{
            f"corporation {sym}: tokens {a}/{b}": (
                "edition: token costs 40/60/80 (18xx.games) against 40/100 (Rails, as 1830)"
            )
            for sym, a, b in (
                ("B&O", [0, 40, 60], [0, 40, 100]),
                ("C&O", [0, 40, 60, 80], [0, 40, 100, 100]),
                ("N&W", [0, 40, 60], [0, 40, 100]),
                ("PLE", [0, 40, 60], [0, 40, 100]),
                ("PRR", [0, 40, 60, 80], [0, 40, 100, 100]),
            )
        },
        **{
            f"hex {h}: borders ['{e}:plain']/[]": _SAME_OFFBOARD
            for h, e in (("A13", 5), ("A3", 4), ("B14", 2), ("B2", 1))
        },
        **{
            f"hex {h}: revenue ['yellow_{a}|green_{b}|brown_{c}|gray_{d}']"
            f"/['yellow_{a}|brown_{b}']": (
                "data error in Rails: Map.xml gives four values per off-board hex but Game.xml "
                "only one off-board step (phase 5), so Rails uses the first two (yellow, then "
                "brown); 18xx.games changes the value in green, brown and gray"
            )
            for h, a, b, c, d in (
                ("A13", 40, 50, 60, 80),
                ("A3", 40, 50, 60, 80),
                ("A7", 40, 60, 80, 100),
                ("B14", 40, 50, 60, 80),
                ("B2", 40, 50, 60, 80),
                ("H14", 30, 40, 50, 60),
                ("L2", 40, 60, 80, 100),
            )
        },
        "hex B2: track turned [0]/[5]": (
            "data difference: Pittsburgh's second hex runs to B4 in 18xx.games, to C3 in Rails "
            "(orientation 0); both lead onto the map, the data here does not say which is right"
        ),
        "hex E1: track turned [1, 5]/[2, 4]": (
            "data error in Rails: orientation 2 turns E1's track to edges 2 and 4, off the top of "
            "the map (18xx.games: to D2 and F2)"
        ),
        "hex I9: track [3, 5]/[2, 5]": (
            "data error in Rails: tile -7712 runs the Delmarva town's track into H8, a water hex "
            "with no track (18xx.games: to I7 and J10)"
        ),
        "hex H8: only in rails": (
            "representation: Rails draws the Chesapeake Bay hex H8 as plain water (fixed tile "
            "-4000); 18xx.games leaves it off the map"
        ),
        "hex F4: stops []/['town']": (
            "data error in Rails (or edition): a town with cost 40 on F4; the B&S private of both "
            "sources lets only plain track (#8, #9) onto F4, which fits 18xx.games' empty hex"
        ),
        "hex F4: track []/[]": "as F4's stops (the town makes the topology differ)",
        "hex F4: cost []/[40]": "as F4's stops",
        "hex F8: label DC/None": (
            "data difference: Rails' upgrade lists let plain tiles (57, 14, 15, 611) onto "
            "Washington (F8) as well as its DC tiles, so the reader cannot keep the DC label "
            "(tilelay lays only DC tiles on a DC hex); the hex keeps its place name"
        ),
        "hex H4: cost [40]/[]": "data gap in Rails: no water cost on Strasburg (H4)",
        "hex H6: cost [40]/[]": "data gap in Rails: no water cost on Baltimore (H6)",
        **{
            f"manifest {t}: {a}/{b}": "edition: 18xx.games' manifest has more of these tiles"
            for t, a, b in (("15", 6, 5), ("25", 2, 1), ("47", 2, 1))
        },
        **{
            f"manifest X{i}: {n}/None": (
                "representation: 18xx.games names 18Chesapeake's own tiles X1-X9, Rails 7701-7709"
            )
            for i, n in ((1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 2), (8, 1), (9, 1))
        },
        **{
            f"manifest 770{i}: None/{n}": "representation: as X1-X9"
            for i, n in ((1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 2), (8, 1), (9, 1))
        },
    },
}


_CAUSES = ("edition", "representation", "data ", "as ")


@pytest.mark.parametrize("name", sorted(BUILTIN_VS_RAILS))
def test_rails_against_builtin_game(name: str) -> None:
    rails = load_rails_game(_game(name))
    builtin = load_game(name)
    found = differences(builtin, rails)
    expected = BUILTIN_VS_RAILS[name]
    for item in sorted(found):
        print(f"  {item}: {expected.get(item, 'UNEXPLAINED')}")
    assert found == set(expected), found ^ set(expected)
    for cause in expected.values():
        assert cause.startswith(_CAUSES), cause


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

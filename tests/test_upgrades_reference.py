"""Computed upgrades against hand-written ones: ge18xx tile sets (seed 000) and Rails.

Run with ``-s`` to see the agreement per game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REFERENCE
from tilelay.tile import Tile
from tilelay.upgrades import rules_for, upgrade_table
from tilelay.xml.tileset import (
    TileManifest,
    manifest_layout,
    place_labels,
    read_tileset,
)
from tilelay.xml.tileset_check import CheckReport, check_tileset

GE = REFERENCE / "ge18xx"
RAILS = REFERENCE / "rails"

# ----------------------------------------------------------------------------- ge18xx

ISSUE_TARGET = 0.95

#: Every hand-written upgrade whose rotations disagree with the computed ones, per game, with
#: its reason. Sides are seed 000's (the file's own). All are mistakes in the hand-written
#: lists: each names a rotation that drops old track, or omits a legal one, given the same
#: tile definitions (Yellow/Green/Brown/Grey/Other-Tile-Definitions.xml) for every game.
#: No disagreement comes from a game rule tilelay lacks: the ones a game needs (towns merging,
#: 1856's town replacement, labelled/named hexes) are in GAME_RULES and agree. Where a hand list
#: leaves out a rotation because its ``<RevenueCenter from to>`` city map cannot hold there
#: (1835 9972 -> 221, 1856 9995 -> 120) the check counts it as agreeing and says so
#: (category "city-map").
GE_MISTAKES: dict[str, dict[tuple[str, str], str]] = {
    "1835": {
        ("18", "43"): "'4' drops 18's track to sides 0 and 5; 1856 and 1870 write '0' (right)",
        ("28", "43"): "'3' breaks 28's track 2-3 (43 then joins 2 only to 1); the legal one is 4",
        ("210", "217"): "'5' drops the track to side 3; the legal one is 0",
    },
    "1853": {
        ("5", "94"): "94's broad gauge runs to sides 3 and 5 only: no rotation keeps 5's "
        "sharp broad curve; '0,1' drop sides 2 / 2,3",
        ("5", "95"): "95 (Green-Tile-Definitions.xml) has broad gauge to sides 0 and 4 only; "
        "'1,2' are right for the other 95 in Tile-Definitions.xml (broad to 0,1,2,4): the list "
        "was written for that definition",
        ("6", "14"): "'1,4' drops the track to side 3; 1835 and 1856 write '0,3' (right) for the "
        "same tiles (1870 copies the mistake)",
        ("6", "15"): "'1,2,3': 1 and 2 drop side 3, 4 is omitted; 1835 and 1856 write '3,4' "
        "(right)",
        ("6", "94"): "'2,5' drop sides 3 / 1; the only rotation keeping broad track is 4",
        ("6", "95"): "'2,5' drop sides 3 / 1; the only rotation keeping broad track is 3",
        ("105", "111"): "111 has 105's exits (3,4,5): only rotation 0 keeps them; '2,5' drop "
        "sides 3,4 / 5",
        ("106", "112"): "'1' drops side 1 (112 lacks side 0 before turning); '2' is omitted",
    },
    "1856": {
        ("14", "125"): "all six rotations listed; 0, 2, 3, 5 drop sides 4, 0, 1, 3",
        ("15", "125"): "all six rotations listed; 0, 1, 2, 5 drop sides 4, 5, 0, 3",
        ("20", "47"): "'0,3' drop sides 1 and 4; 1835 and 1870 write '1,4' (right)",
        ("121", "127"): "'0' only: 121 (three-fold symmetric) also takes 127 in 2 and 4; its "
        "single city maps 50 -> 50 in every rotation",
        ("64", "123"): "all six rotations listed; 0, 2, 4, 5 drop sides 1, 3, 5, 0",
        ("65", "123"): "all six rotations listed; 0, 1, 2, 4 drop sides 1, 2, 3, 5",
        ("66", "123"): "all six rotations listed; 2, 3, 4, 5 drop sides 3, 4, 5, 0",
        ("67", "123"): "all six rotations listed; 1, 2, 3, 5 drop sides 2, 3, 4, 0",
        ("68", "123"): "all six rotations listed; 1, 2, 4, 5 drop sides 2, 3, 5, 0",
    },
    "1870": {
        ("4", "142"): "'1,4' drop sides 3 / 0; the legal ones are 0 and 3",
        ("6", "14"): "'1,4' as in 1853 (drops side 3); 1835 and 1856 write '0,3' (right)",
        ("6", "15"): "'1,2,3' as in 1853; 1835 and 1856 write '3,4' (right)",
        ("58", "141"): "'0' drops side 4; the legal one is 3",
        ("58", "143"): "'4,5' drop side 4; the legal one is 3",
        ("14", "170"): "all six rotations listed; 1, 2, 4, 5 drop sides 3, 4, 0, 1",
        ("15", "170"): "all six rotations listed; 1, 2, 3, 4 drop sides 3, 4, 5, 0",
    },
}

#: Games whose hand lists hold too many mistakes for the issue's 95 %: the target stays, as an
#: expected failure naming the mistakes (see GE_MISTAKES).
GE_BELOW_TARGET = {
    "1853": "8 of 131 hand-written upgrades are mistakes (93.9 %): 5/6 -> 14, 15, 94, 95, "
    "105 -> 111, 106 -> 112",
    "1856": "9 of 87 are mistakes (89.7 %): 14/15 -> 125 and 64-68 -> 123 list all six "
    "rotations, 20 -> 47, 121 -> 127",
    "1870": "7 of 80 are mistakes (91.2 %): 4 -> 142, 6 -> 14/15, 58 -> 141/143, 14/15 -> 170",
}


def _ge_tiles(layout_manifest: Path) -> tuple[TileManifest, dict[str, Tile]]:
    from tilelay.xml.tiledefs import read_tiledefs

    manifest = read_tileset(layout_manifest)
    layout = manifest_layout(manifest)
    tiles: dict[str, Tile] = {}
    for colour in ("Yellow", "Green", "Brown", "Grey", "Other"):
        for t in read_tiledefs(GE / "Tiles" / f"{colour}-Tile-Definitions.xml", layout=layout):
            tiles[t.name] = place_labels(t)
    return manifest, tiles


def _ge_report(game: str) -> CheckReport:
    path = GE / game / f"{game}-TileSet.xml"
    if not path.exists():
        pytest.skip(f"reference data absent: {path}")
    manifest, tiles = _ge_tiles(path)
    return check_tileset(manifest, tiles, rules_for(game))


@pytest.mark.parametrize("game", sorted(GE_MISTAKES))
def test_ge18xx_every_disagreement_explained(game: str) -> None:
    report = _ge_report(game)
    print(
        f"\n{game}: {report.agreeing}/{report.listed} hand-written upgrades agree "
        f"({100 * report.agreement:.1f} %)"
    )
    for f in report.findings:
        if f.kind in ("rotations", "only-hand", "city-map"):
            print("   ", f)
    assert report.listed > 50
    got = {(f.old, f.new) for f in report.disagreements}
    assert got == set(GE_MISTAKES[game]), got ^ set(GE_MISTAKES[game])
    for f in report.disagreements:
        assert f.category == "hand-mistake", str(f)
        assert "mistake in the hand-written list" in f.reason, str(f)
    for f in report.findings:
        assert f.reason
    assert report.agreeing == report.listed - len(GE_MISTAKES[game])


@pytest.mark.parametrize(
    "game",
    [
        pytest.param(g, marks=pytest.mark.xfail(strict=True, reason=GE_BELOW_TARGET[g]))
        if g in GE_BELOW_TARGET
        else g
        for g in sorted(GE_MISTAKES)
    ],
)
def test_ge18xx_agreement_reaches_issue_target(game: str) -> None:
    report = _ge_report(game)
    assert report.agreement >= ISSUE_TARGET, f"{game}: {100 * report.agreement:.1f} %"


def test_ge18xx_city_map_explains_left_out_rotations() -> None:
    """1835 9972 -> 221 and 1856 9995 -> 120: one rotation left out, its city map differs."""
    for game, pair, left_out in (("1835", ("9972", "221"), 3), ("1856", ("9995", "120"), 3)):
        report = _ge_report(game)
        found = [f for f in report.findings if (f.old, f.new) == pair]
        assert len(found) == 1 and found[0].kind == "city-map", found
        assert found[0].category == "city-map"
        assert left_out in found[0].computed and left_out not in found[0].hand


def test_ge18xx_towns_merge_needed_by_1835_and_1853() -> None:
    """The double-town tiles 1, 2, 55, 56 -> 87/88 agree only with towns merging on.

    1853's tile set writes these four upgrades exactly as 1835's (same rotations, same
    ``<RevenueCenter>`` maps 29/26 -> 50 etc.): the rule is switched on for 1853 because its
    hand list needs it; 1853's own rule book was not available to confirm it.
    """
    from dataclasses import replace

    for game in ("1835", "1853"):
        with_rule = _ge_report(game)
        path = GE / game / f"{game}-TileSet.xml"
        manifest, tiles = _ge_tiles(path)
        without = check_tileset(manifest, tiles, replace(rules_for(game), towns_merge=False))
        lost = {(f.old, f.new) for f in without.disagreements} - {
            (f.old, f.new) for f in with_rule.disagreements
        }
        double_towns = {("1", "88"), ("2", "87"), ("55", "88"), ("56", "87")}
        # 1835 also lists 69 (two towns) -> 204 (one town)
        assert lost == double_towns | ({("69", "204")} if game == "1835" else set())


def test_ge18xx_seed_example_tile_8() -> None:
    path = GE / "1856" / "1856-TileSet.xml"
    if not path.exists():
        pytest.skip(f"reference data absent: {path}")
    _, tiles = _ge_tiles(path)
    table = upgrade_table([tiles[n] for n in ("8", "16", "19", "23", "24", "25", "28", "29")])
    got = {u.new: u.rotations for u in table if u.old == "8"}
    assert got["16"] == (0, 5)
    assert {k: len(v) for k, v in got.items()} == {
        "16": 2,
        "19": 1,
        "23": 1,
        "24": 1,
        "25": 2,
        "28": 1,
        "29": 1,
    }


# ------------------------------------------------------------------------------ Rails

#: Hand-written Rails upgrades (unconditional, not limited to hexes or phases) that the
#: computed rules refuse, by game, each group with its reason. Upgrades inside ``<IfOption>``
#: (variants), limited to named hexes (``hex=``) or to phases (``phase=``, e.g. 1856's town
#: rule) are game-specific by the tile set's own statement and are not compared. Edges in
#: reasons are tile-language edges of the Rails tiles as read by tilelay.
#:
#: The tiles compared are those of the game as :func:`tilelay.sources.rails.load_rails_game`
#: reads it: a preprinted tile as it lies on each map hex holding it (with the hex's label and
#: place name from Map.xml), the manifest tiles with the labels and place names derived from
#: them. That makes the special hexes visible (Hamburg, Berlin, Louisville, Toronto, Shanghai,
#: Chicago, Amsterdam, …), so their city merges agree; what is left is listed below.
_SPECIAL = (
    "the old tile is laid on hexes that are neither labelled nor named as well (Rails' upgrade "
    "lists let it onto both), so it carries no label or place of the special hex; tilelay "
    "merges or adds cities only on labelled or named hexes (UpgradeRules.labelled_cities_merge)"
)
RAILS_EXCEPTIONS: dict[str, list[tuple[str, list[str]]]] = {
    "1825": [
        (
            "game rule written in 1825's TileSet.xml: yellow town tiles (1, 2, 3, 4, 55, 56) "
            "upgrade to green city tiles 12/14/15 (towns become one city); tilelay's "
            "town_replacement rule is 1856's (phases 5-6) and is not switched on for 1825",
            ["1>14", "2>15", "3>12", "3>14", "3>15", "4>14", "4>15", "55>14", "56>15"],
        ),
        ("preprinted two-city hex -25009 -> 33 (three cities): " + _SPECIAL, ["-25009>33"]),
    ],
    "1835": [
        (
            "the XX hexes' green tiles 210-215 -> 217/218/219: two cities join into one; the "
            "XX label of G3, J6, L6 is not kept (Rails also lets 218 onto Leipzig, unlabelled), "
            "so 210-215 carry no label: " + _SPECIAL,
            [
                "210>217",
                "211>217",
                "212>218",
                "213>219",
                "214>219",
                "215>218",
            ],
        ),
    ],
    "1880": [
        (
            "1880's preprinted empty city hexes -80001 (one city, no track) and -80002 (two) "
            "take yellow town tiles 8850-8858: the cities become towns, a hex rule of 1880's "
            "map that tilelay does not model",
            [
                "-80001>8850",
                "-80001>8851",
                "-80001>8852",
                "-80002>8854",
                "-80002>8855",
                "-80002>8856",
                "-80002>8857",
                "-80002>8858",
            ],
        ),
        (
            "1880's two-city green tiles 8860-8865 all upgrade to each of 8872-8874 (one "
            "two-slot city): the cities join (" + _SPECIAL + "); besides, in most pairs no "
            "rotation keeps every old exit in 12 of the 18 pairs (e.g. 8860 -> 8872 drops edge 2): "
            "Rails lists the whole family without checking track",
            [f"886{i}>887{j}" for i in range(6) for j in (2, 3, 4)],
        ),
    ],
    "18AL": [
        (
            "mistake in 18AL's TileSet.xml: 17 (edges 0,2,3,5) -> 43 (edges 0,1,2,3) drops "
            "edge 5 in every rotation (43's exits are four adjacent edges, 17's are not)",
            ["17>43"],
        ),
    ],
    "18C2C": [
        (
            "mistake in the hand list: 448 has one straight (edges 0-3) and exits 0,3,4,5; 14 "
            "(two straights, 0,1,3,4) and 619 (1,2,3,5) lose an exit in every rotation",
            ["14>448", "619>448"],
        ),
        (
            "mistake in 18C2C's Tiles.xml: tile 54 runs all four tracks to city1 (city2 has "
            "none), so 62's two cities cannot take its track",
            ["54>62"],
        ),
        (
            "mistake in 18C2C's Tiles.xml: tile 590 declares two stations with the same id "
            "city1, so its track cannot be split between two cities as 591's is",
            ["590>591"],
        ),
    ],
    "18Chesapeake": [
        (
            "7702 is labelled DC and 7706 carries no label in Rails' Tiles.xml: tilelay "
            "requires labels to match (the DC label of 7706 is missing from the Rails data)",
            ["7702>7706"],
        ),
    ],
    "18EU": [
        (
            "581 (three cities) -> 584 (one city): 581 is laid on Berlin (B) and Vienna (V), so "
            "neither label is kept nor a place derived: " + _SPECIAL,
            ["581>584"],
        ),
    ],
    "18NL": [
        (
            "preprinted two-city hexes -1059/-2059/-3059 -> one-city tiles 1012, 1013, 1205, "
            "2206: " + _SPECIAL,
            [
                "-1059>1012",
                "-1059>1013",
                "-1059>1205",
                "-1059>2206",
                "-2059>1012",
                "-2059>1013",
                "-2059>1205",
                "-2059>2206",
                "-3059>1012",
                "-3059>1205",
                "-3059>2206",
            ],
        ),
    ],
    "18Scan": [
        (
            "403 (a city and a town) -> 1121 (one city): the town joins the city, a rule of "
            "that hex in 18Scan that tilelay does not model",
            ["403>1121"],
        ),
    ],
    "18TN": [
        (
            "mistake in 18TN's TileSet.xml: 45 holds only the mirror image of 28's pair of "
            "curves (28's sharp curve turns the other way), so every rotation breaks track 1-2",
            ["28>45"],
        ),
    ],
    "SOH": [
        (
            "SOH's green double-town tiles 3903-3908 replace a one-town yellow tile (3, 4, 58): "
            "the new tile adds a town, a rule written in SOH's TileSet.xml that tilelay does "
            "not model",
            [
                "3>3905",
                "3>3906",
                "3>3907",
                "3>3908",
                "4>3903",
                "4>3904",
                "4>3905",
                "4>3906",
                "58>3903",
                "58>3904",
                "58>3907",
                "58>3908",
            ],
        ),
        (
            "mistake in the hand list (as in 18C2C): 14 -> 448 drops an exit in every rotation",
            ["14>448"],
        ),
        (
            "mistakes in the hand list: 30 (edges 0,3,5) -> 41 (0,1,3) and 31 (1,4,5) -> 42 "
            "(0,2,3): the new tiles hold only the mirror images of the old tiles' track",
            ["30>41", "31>42"],
        ),
    ],
}


def _rails_games() -> list[str]:
    if not RAILS.exists():
        return []
    return sorted(
        p.name
        for p in RAILS.iterdir()
        if (p / "Tiles.xml").exists() and (p / "TileSet.xml").exists()
    )


def _rails_upgrade_tiles(game: str) -> tuple[list[Tile], list[Tile], dict[str, Any]]:
    """The tiles to compare, as the Rails game reads them: new tiles (every tile of the tile
    set, the manifest ones with derived labels), old tiles (a preprinted tile as it lies on
    each map hex holding it, named by its tile id, and every other tile), the tile set."""
    from tilelay.sources.rails import load_rails_game
    from tilelay.xml.rails import read_rails_tiles, read_rails_tileset
    from tilelay.xml.rails_options import game_options

    loaded = load_rails_game(RAILS / game)
    raw = {t.name: t for t in read_rails_tiles(RAILS / game / "Tiles.xml")}
    tileset = read_rails_tileset(RAILS / game / "TileSet.xml")
    active = read_rails_tileset(RAILS / game / "TileSet.xml", options=game_options(RAILS / game))
    own = {n: loaded.game_tiles.get(n, raw[n]) for n in tileset if n in raw}
    on_map: dict[str, list[Tile]] = {}
    for tile in loaded.hexes.values():
        tid = dict(tile.extra).get("tile")
        if tid is not None:
            on_map.setdefault(tid, []).append(tile.with_name(tid))
    olds: list[Tile] = []
    for name, tile in own.items():
        olds.extend(on_map.get(name, []))
        if name not in on_map or name in loaded.manifest or name not in active:
            olds.append(tile)
    return list(own.values()), olds, tileset


@pytest.mark.parametrize("game", _rails_games() or ["(absent)"])
def test_rails_upgrade_lists(game: str) -> None:
    if game == "(absent)":
        pytest.skip(f"reference data absent: {RAILS}")
    news, olds, tileset = _rails_upgrade_tiles(game)
    table = upgrade_table(news, rules_for(game), from_tiles=olds)
    computed = {(u.old, u.new) for u in table}
    hand: set[tuple[str, str]] = set()
    special: set[tuple[str, str]] = set()
    for old, entry in tileset.items():
        for up in entry.upgrades:
            conditional = bool(up.condition or up.hexes or up.except_hexes or up.phases)
            for new in up.ids:
                (special if conditional else hand).add((old, new))
    agree = len(hand & computed)
    print(
        f"\n{game}: {agree}/{len(hand)} unconditional hand-written upgrades computed "
        f"({100 * agree / max(1, len(hand)):.0f} %), {len(special)} conditional not compared"
    )
    allowed: set[tuple[str, ...]] = set()
    for reason, pairs in RAILS_EXCEPTIONS.get(game, []):
        assert reason and pairs
        for p in pairs:
            allowed.add(tuple(p.split(">")))
            print(f"    {p}: {reason}")
    unexplained = sorted(p for p in hand - computed if p not in allowed)
    assert not unexplained, f"{game}: unexplained disagreements {unexplained}"
    # every named exception is still a disagreement (the list cannot go stale)
    stale = sorted(p for p in allowed if p not in hand or p in computed)
    assert not stale, f"{game}: exceptions no longer needed {stale}"
    assert hand, "the tile set lists upgrades"

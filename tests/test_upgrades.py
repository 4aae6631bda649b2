"""Tests of tilelay.upgrades: the tile-level rules, game rules, properties, the commands."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilelay import dsl
from tilelay.catalogue import get_tile
from tilelay.cli import main
from tilelay.errors import GameDataError
from tilelay.tile import Color, Edge, NodeKind, NodeRef, Tile
from tilelay.trains import Phase
from tilelay.upgrades import (
    DEFAULT_RULES,
    UpgradeRules,
    distinct_rotations,
    explain,
    legal_rotations,
    placements,
    rules_for,
    rules_from_data,
    upgrade_table,
)
from tilelay.xml.tiledefs import read_tiledefs

SEED_8 = '<Tile number="8" type="Yellow"><Track enter="1" exit="3" gauge="NORMAL"/></Tile>'
SEED_16 = """<Tile number="16" type="Green">
    <Track enter="1" exit="3" gauge="NORMAL"/>
    <Track enter="2" exit="4" gauge="OVERPASS"/>
    <Track enter="2" exit="4" gauge="NORMAL"/>
</Tile>"""


def t(name: str) -> Tile:
    return get_tile(name)


# ------------------------------------------------------------------------- seed 000 example


def test_seed_000_tile_8_to_16_rotations_0_and_5() -> None:
    old = read_tiledefs(SEED_8)[0]
    new = read_tiledefs(SEED_16)[0]
    assert legal_rotations(old, new) == (0, 5)
    for r in (1, 2, 3, 4):
        assert explain(old, new, r) is not None


@pytest.mark.parametrize(
    ("new", "count"),
    [("16", 2), ("19", 1), ("23", 1), ("24", 1), ("25", 2), ("28", 1), ("29", 1)],
)
def test_seed_000_counts_for_tile_8(new: str, count: int) -> None:
    # the catalogue draws these tiles differently from seed 000; the count does not depend on it
    assert len(legal_rotations(t("8"), t(new))) == count


def test_each_legal_rotation_keeps_the_old_track() -> None:
    old = t("8")
    for r in legal_rotations(old, t("16")):
        placed = t("16").rotated(r)
        pairs = {frozenset(p.edges()) for p in placed.paths}
        assert frozenset(old.paths[0].edges()) in pairs


# ------------------------------------------------------------------------------ tile rules


def test_colour_must_step() -> None:
    assert legal_rotations(t("8"), t("9")) == ()
    assert explain(t("8"), t("9"), 0) == "colour yellow cannot become yellow"
    assert legal_rotations(t("57"), t("63")) == ()  # yellow -> brown skips green
    assert legal_rotations(t("14"), t("63")) == (0, 1, 2, 3, 4, 5)


def test_custom_colour_steps() -> None:
    steps = DEFAULT_RULES.steps | {(Color.YELLOW, Color.BROWN)}
    rules = UpgradeRules(name="skip", steps=steps)
    assert len(legal_rotations(t("57"), t("63"), rules)) == 6


def test_city_tile_cannot_lose_or_add_cities() -> None:
    assert legal_rotations(t("8"), t("14")) == ()
    assert "old track 0-2 (tile-language edges) is not kept" in {
        explain(t("8"), t("14"), r) for r in range(6)
    }
    blank = Tile(name="plain", color=Color.WHITE)
    assert legal_rotations(blank, t("57")) == ()
    assert explain(blank, t("57"), 0) == "the new tile adds a city"
    assert legal_rotations(blank, t("9")) == (0, 1, 2, 3, 4, 5)
    assert legal_rotations(t("57"), t("16")) == ()
    assert "no city of the new tile has the exits [0, 3] of old city 0" in {
        explain(t("57"), t("16"), r) for r in range(6)
    }


def test_city_exits_are_kept_and_mapped() -> None:
    found = placements(t("57"), t("15"))
    assert [p.rotation for p in found] == [0, 3]
    for p in found:
        assert p.node_map == ((0, 0),)
        exits = t("15").rotated(p.rotation).node_exits(0)
        assert t("57").node_exits(0) <= exits


def test_oo_cities_each_keep_their_exits() -> None:
    old, new = t("59"), t("64")
    found = placements(old, new)
    assert found
    for p in found:
        placed = new.rotated(p.rotation)
        assert {i for i, _ in p.node_map} == {0, 1}
        images = [j for _, j in p.node_map]
        assert len(set(images)) == 2  # the two cities stay two
        for i, j in p.node_map:
            assert j is not None
            assert old.node_exits(i) <= placed.node_exits(j)


def test_labels_must_match() -> None:
    assert legal_rotations(t("6"), t("53")) == ()
    assert "labels differ" in (explain(t("6"), t("53"), 0) or "")
    # an unlabelled tile may become a labelled one on a hex with that label
    assert legal_rotations(t("6"), t("53"), hex_label="B") == (0, 2, 4)
    # a labelled tile does not take an unlabelled one
    assert legal_rotations(t("59"), t("63")) == ()


def test_token_slots_must_fit() -> None:
    # a 2-slot green city cannot become a 1-slot brown city with the same exits
    two = dsl.parse("city=revenue:30,slots:2;path=a:0,b:_0;path=a:3,b:_0", color=Color.GREEN)
    one = dsl.parse("city=revenue:40;path=a:0,b:_0;path=a:3,b:_0", color=Color.BROWN)
    assert legal_rotations(two, one) == ()
    assert "slot" in (explain(two, one, 0) or "")


def test_gauges_must_be_compatible() -> None:
    narrow = dsl.parse("path=a:0,b:3,track:narrow", color=Color.YELLOW)
    broad = dsl.parse("path=a:0,b:3;path=a:1,b:4", color=Color.GREEN)
    dual = dsl.parse("path=a:0,b:3,track:dual;path=a:1,b:4", color=Color.GREEN)
    assert legal_rotations(narrow, broad) == ()
    assert legal_rotations(narrow, dual) == (0, 3)


def test_1856_town_replacement_is_a_named_rule() -> None:
    rules = rules_for("1856")
    assert legal_rotations(t("3"), t("7")) == ()  # not in standard rules
    found = placements(t("3"), t("7"), rules)
    assert [p.rotation for p in found] == [0]
    assert found[0].rule == "1856 town replacement"
    assert found[0].node_map == ((0, None),)
    # two towns may become one city (yellow 1 -> green 14)
    two = placements(t("1"), t("14"), rules)
    assert two and all({j for _, j in p.node_map} == {0} for p in two)
    table = upgrade_table([t("3"), t("5"), t("7")], rules)
    pairs = {(u.old, u.new): u for u in table}
    assert pairs[("3", "7")].phases == ("6", "D")
    assert pairs[("3", "5")].rule == "1856 town replacement"
    # in those phases only, and of a laid tile: a preprinted hex's town takes town tiles
    early, gray = Phase("5", tiles=("yellow", "green", "brown")), Phase("6", tiles=("gray",))
    assert legal_rotations(t("3"), t("7"), rules.in_phase(early)) == ()
    assert legal_rotations(t("3"), t("7"), rules.in_phase(gray)) == (0,)
    white = dsl.parse("town=revenue:0", name="N9", color="white")
    assert legal_rotations(white, t("5"), rules.in_phase(gray)) == ()
    assert legal_rotations(white, t("3"), rules.in_phase(gray))


def test_1835_towns_merge() -> None:
    two_towns = t("1")
    green_town = dsl.parse(
        "town=revenue:10;path=a:0,b:_0;path=a:1,b:_0;path=a:3,b:_0;path=a:4,b:_0",
        color=Color.GREEN,
    )
    assert legal_rotations(two_towns, green_town) == ()
    assert legal_rotations(two_towns, green_town, rules_for("1835")) != ()


def test_distinct_rotations_folds_symmetry() -> None:
    assert distinct_rotations(t("9"), [0, 3]) == (0,)
    assert distinct_rotations(t("63"), range(6)) == (0,)
    assert distinct_rotations(t("8"), [0, 1]) == (0, 1)


# --------------------------------------------------------------------------- built-in games


def _game_tiles(name: str) -> list[Tile]:
    from tilelay.games import load_game

    return [tile for tile, _ in load_game(name).manifest_tiles()]


@pytest.mark.parametrize("game", ["1889", "1830"])
def test_game_table_offers_no_tile_without_a_legal_rotation(game: str) -> None:
    tiles = _game_tiles(game)
    table = upgrade_table(tiles, rules_for(game))
    assert table
    by_name = {x.name: x for x in tiles}
    for u in table:
        assert u.rotations
        assert u.rotations == tuple(p.rotation for p in u.placements)
        hl = u.hex_label
        assert legal_rotations(by_name[u.old], by_name[u.new], hex_label=hl) == u.rotations


def test_1830_known_upgrades() -> None:
    table = {(u.old, u.new): u.rotations for u in upgrade_table(_game_tiles("1830"))}
    assert len(table[("8", "16")]) == 2
    assert ("57", "14") in table and ("57", "15") in table
    assert ("59", "64") in table  # OO green -> OO brown
    assert ("8", "57") not in table


def _old_paths_kept(old: Tile, new: Tile, node_map: tuple[tuple[int, int | None], ...]) -> bool:
    mapping = dict(node_map)

    def image(end: Edge | NodeRef) -> tuple[str, int]:
        if isinstance(end, Edge):
            return ("e", end.num)
        j = mapping[end.index]
        assert j is not None
        return ("n", j)

    new_pairs = {frozenset((image_new(p.a), image_new(p.b))) for p in new.paths}
    return all(frozenset((image(p.a), image(p.b))) in new_pairs for p in old.paths)


def image_new(end: Edge | NodeRef) -> tuple[str, int]:
    return ("e", end.num) if isinstance(end, Edge) else ("n", end.index)


@pytest.fixture(scope="module")
def game_pairs() -> list[tuple[Tile, Tile]]:
    tiles = [
        x for x in _game_tiles("1830") if all(n.kind is not NodeKind.JUNCTION for n in x.nodes)
    ]
    table = upgrade_table(tiles)
    by_name = {x.name: x for x in tiles}
    return [(by_name[u.old], by_name[u.new]) for u in table if u.hex_label is None]


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_property_upgrade_keeps_every_old_path(
    data: st.DataObject, game_pairs: list[tuple[Tile, Tile]]
) -> None:
    old, new = data.draw(st.sampled_from(game_pairs))
    k = data.draw(st.integers(0, 5))
    old_k = old.rotated(k)
    for p in placements(old_k, new):
        assert _old_paths_kept(old_k, new.rotated(p.rotation), p.node_map)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_property_rotating_both_keeps_legality(
    data: st.DataObject, game_pairs: list[tuple[Tile, Tile]]
) -> None:
    old, new = data.draw(st.sampled_from(game_pairs))
    k = data.draw(st.integers(0, 5))
    base = set(legal_rotations(old, new))
    turned = set(legal_rotations(old.rotated(k), new))
    assert turned == {(r + k) % 6 for r in base}


# ----------------------------------------------------------------------------------- CLI


def test_cli_upgrades_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["upgrades", "1830", "--tile", "8", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert all({"from", "to", "rotations"} <= set(d) for d in data)
    pairs = {(d["from"], d["to"]): d["rotations"] for d in data}
    assert len(pairs[("8", "16")]) == 2
    assert all("8" in (d["from"], d["to"]) for d in data)


def test_cli_upgrades_text_and_unknown_tile(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["upgrades", "1830", "--tile", "57"]) == 0
    out = capsys.readouterr().out
    assert "57 -> 14" in out
    assert main(["upgrades", "1830", "--tile", "nope"]) == 2
    assert "no tile" in capsys.readouterr().err


def test_cli_tileset_game(tmp_path: Path) -> None:
    out = tmp_path / "1830.xml"
    assert main(["tileset", "1830", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert '<Upgrade toNumber="16" rotations="' in text
    assert main(["tileset", "1830", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == text  # stable bytes


def test_cli_tileset_needs_inputs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tileset"]) == 2
    assert "needs GAME" in capsys.readouterr().err


def test_cli_tileset_check_needs_a_hand_written_tile_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game's tile set is computed: --check with GAME has nothing to check (it used to
    print the computed XML and exit 0); --check does not write or print JSON either."""
    assert main(["tileset", "1830", "--check"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "tilelay: error: --check needs a hand-written tile set to check: --manifest "
        "TILESET.xml and --tiles FILE... (a game's tile set is computed; it has no "
        "hand-written upgrades)\n"
    )
    out = tmp_path / "out.xml"
    for extra in (["-o", str(out)], ["--json"]):
        args = ["tileset", "--tiles", "t.xml", "--manifest", "m.xml", "--check", *extra]
        assert main(args) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.count("\n") == 1
        assert "--check prints a report" in captured.err
    assert not out.exists()


@pytest.mark.parametrize(
    "command", [["upgrades"], ["tileset"], ["render", "map"], ["render", "sheet"], ["trains"]]
)
def test_game_arguments_take_any_game_known(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Any game known works, a built-in one or one of --games: the help says so."""
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "a built-in game" not in text
    assert "--games" in text


def test_city_map_pins_where_tokens_go() -> None:
    """A required city map (a tile set's <RevenueCenter from to>) leaves out the rotation
    that would send each old city's tokens to the other new city."""
    from tilelay.upgrades import explain, placements

    parse = dsl.parse
    old = parse(
        "city=revenue:20,loc:0;city=revenue:20,loc:3;path=a:0,b:_0;path=a:3,b:_1", color="yellow"
    )
    new = parse(
        "city=revenue:30;city=revenue:30;path=a:0,b:_0;path=a:1,b:_0;path=a:3,b:_1;path=a:4,b:_1",
        color="green",
    )
    free = {p.rotation: p.node_map for p in placements(old, new)}
    assert free == {
        0: ((0, 0), (1, 1)),
        2: ((0, 1), (1, 0)),
        3: ((0, 1), (1, 0)),
        5: ((0, 0), (1, 1)),
    }
    pinned = placements(old, new, city_map={0: 0, 1: 1})
    assert [p.rotation for p in pinned] == [0, 5]
    assert explain(old, new, 3, city_map={0: 0, 1: 1}) is not None
    assert explain(old, new, 0, city_map={0: 0, 1: 1}) is None


def test_a_place_name_makes_a_hex_special_only_where_names_count() -> None:
    # Rails and GE18XX tie tiles to named places; 18xx.games' location names are only shown
    # (18 Los Angeles' blank Alta Vista, E14, takes plain track only)
    from dataclasses import replace

    named = replace(dsl.parse("", name="E14", color="white"), location_name="Alta Vista")
    city = get_tile("57")
    assert legal_rotations(named, city, DEFAULT_RULES)
    assert legal_rotations(named, city, replace(DEFAULT_RULES, names_special=False)) == ()
    assert legal_rotations(named, get_tile("9"), replace(DEFAULT_RULES, names_special=False))


# ---------------------------------------------------------------- rules that change in play


def test_late_steps_city_steps_and_label_exceptions_from_data() -> None:
    """18USA's rules (game.rb upgrades_to_correct_color?, upgrades_to_correct_label?): from
    the phases of brown tiles on, a hex without a city skips colours and a white hex with one
    takes green only; its yellow metropolises take the green 592 whatever their labels."""
    rules = rules_from_data(
        "late",
        {
            "late_colour": "brown",
            "late_steps": [["white", "brown"], ["yellow", "brown"]],
            "late_city_steps": [["white", "green"]],
            "label_exceptions": {"592": ["X01"]},
        },
        source="test",
    )
    early = Phase("3", tiles=("yellow", "green"))
    late = Phase("5", tiles=("yellow", "green", "brown"))
    assert rules.in_phase(early) is rules and rules.in_phase(None) is rules
    assert rules.in_phase(late) is rules.in_phase(late)  # made once
    blank = Tile(name="plain", color=Color.WHITE)
    city = dsl.parse("city=revenue:0", name="town hex", color="white")
    assert legal_rotations(blank, t("544"), rules) == ()
    assert legal_rotations(blank, t("544"), rules.in_phase(late))  # white to brown track
    assert legal_rotations(city, t("57"), rules.in_phase(early))
    assert legal_rotations(city, t("57"), rules.in_phase(late)) == ()  # no yellow city late
    assert legal_rotations(city, t("14"), rules.in_phase(late))  # green at once
    assert explain(city, t("57"), 0, rules.in_phase(late)) == "colour white cannot become yellow"
    # a label exception is of the two tiles named only
    metro = dsl.parse(
        "city=revenue:30;path=a:0,b:_0;path=a:2,b:_0;path=a:4,b:_0;label=ATL",
        name="X01",
        color="yellow",
    )
    green = dsl.parse(
        "city=revenue:50,slots:2;path=a:0,b:_0;path=a:2,b:_0;path=a:4,b:_0;label=B",
        name="592",
        color="green",
    )
    assert legal_rotations(metro, green) == ()
    assert legal_rotations(metro, green, rules) == (0, 2, 4)
    other = dsl.parse(
        "city=revenue:30;path=a:0,b:_0;path=a:2,b:_0;path=a:4,b:_0;label=ATL",
        name="X99",
        color="yellow",
    )
    assert "labels differ" in str(explain(other, green, 0, rules))


def test_18_indias_towns_become_cities_that_its_yellow_cities_may_not_take() -> None:
    """18 India (game.rb yellow_town_to_city_upgrade?, yellow_city_upgrade_is_single_slot_green?):
    its yellow towns 3, 4 and 58 become the green cities 12, 13, 205 and 206, which its yellow
    cities 5, 6 and 57 may not take; other upgrades are the usual ones."""
    rules = rules_for("18 India")
    assert legal_rotations(t("3"), t("12")) == ()  # a town does not become a city elsewhere
    assert legal_rotations(t("3"), t("12"), rules) == (0, 5)
    assert legal_rotations(t("58"), t("13"), rules) == (0, 2, 4)
    assert legal_rotations(t("3"), t("13"), rules) == ()  # not a pair of the game's
    assert legal_rotations(t("6"), t("13")) == (0, 2, 4)
    assert legal_rotations(t("6"), t("13"), rules) == ()
    assert explain(t("57"), t("12"), 0, rules) == "18 India's rules forbid tile 12 on tile 57"
    assert legal_rotations(t("57"), t("15"), rules) == (0, 3)
    assert legal_rotations(t("3"), t("141"), rules) == (0,)


def test_a_colour_exception_from_a_phase_on() -> None:
    """18USA's ore mines (game.rb ore_upgrade?): once green tiles come, the yellow tile of 10
    ore becomes the yellow tile of 20 ore on the same track, and only those tiles: as the
    game's rules give it (tilelay/data/upgrade_rules.toml), and from data of one's own."""
    ten = dsl.parse(
        "offboard=revenue:10,hide:1;path=a:0,b:1;label=⛏️", name="7ore10", color="yellow"
    )
    twenty = dsl.parse(
        "offboard=revenue:20,hide:1;path=a:0,b:1;label=⛏️", name="7ore20", color="yellow"
    )
    other = dsl.parse(
        "offboard=revenue:20,hide:1;path=a:0,b:2;label=⛏️", name="8ore20", color="yellow"
    )
    early = Phase("2", tiles=("yellow",))
    green = Phase("3", tiles=("yellow", "green"))
    for rules in (
        rules_for("18USA"),
        rules_from_data(
            "mines",
            {"colour_exceptions": {"7ore20": ["7ore10"]}, "colour_exceptions_from": "green"},
            source="test",
        ),
    ):
        assert legal_rotations(ten, twenty, rules.in_phase(green)) == (0,)
        assert legal_rotations(ten, twenty, rules.in_phase(early)) == ()
        assert explain(ten, twenty, 0, rules.in_phase(early)) == (
            "colour yellow cannot become yellow"
        )
        assert legal_rotations(ten, other, rules.in_phase(green)) == ()  # the track changes
        assert legal_rotations(ten, twenty) == ()  # the usual rules: no such step
        assert rules.in_phase(green).in_phase(green) is rules.in_phase(green)
    always = rules_from_data("always", {"colour_exceptions": {"7ore20": ["7ore10"]}}, source="t")
    assert always.in_phase(early) is always
    assert legal_rotations(ten, twenty, always) == (0,)


def test_a_tile_laid_in_one_rotation_only() -> None:
    """1860's NO_ROTATION_TILES (game.rb legal_tile_rotation?), here tile 9 of a test's."""
    rules = rules_from_data("one way", {"unrotated": ["9"]}, source="test")
    blank = Tile(name="plain", color=Color.WHITE)
    assert legal_rotations(blank, t("9")) == (0, 1, 2, 3, 4, 5)
    assert legal_rotations(blank, t("9"), rules) == (0,)
    assert legal_rotations(blank, t("8"), rules) == (0, 1, 2, 3, 4, 5)
    assert explain(blank, t("9"), 2, rules) == "one way's tile 9 is laid in rotation 0 only"
    assert explain(blank, t("9"), 0, rules) is None


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"late_colour": "mauve"}, "late_colour: 'mauve' is not a colour"),
        ({"town_cities": ["12"]}, "town_cities must be a table of new tile = [old tiles]"),
        ({"forbidden": {"12": [5]}}, "forbidden must be a table of new tile = [old tiles]"),
        ({"unrotated": "758"}, "unrotated must be a list of tile names"),
        ({"hex_labels": {"D10": "Aug"}}, "hex_labels must be a table of hex = [colour, label]"),
        ({"hex_labels": {"D10": ["teal", "Aug"]}}, "hex_labels: 'teal' is not a colour"),
        ({"late_steps": [["white"]]}, "late_steps must be a list of [old colour, new colour]"),
        ({"city_steps": "all"}, "city_steps must be a list of [old colour, new colour]"),
        ({"label_exceptions": {"592": "X01"}}, "label_exceptions must be a table of new tile"),
        ({"colour_exceptions": ["7ore20"]}, "colour_exceptions must be a table of new tile"),
        ({"colour_exceptions_from": "ochre"}, "colour_exceptions_from: 'ochre' is not a colour"),
    ],
)
def test_bad_rules_that_change_in_play_are_named(data: dict[str, object], error: str) -> None:
    with pytest.raises(GameDataError, match=re.escape(error)):
        rules_from_data("bad", data, source="test")

"""The Carcassonne tile model, the seed's form, the TOML format and the base tile set."""

from __future__ import annotations

from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilelay.carcassonne.errors import CarcassonneError
from tilelay.carcassonne.tile import (
    Edge,
    Feature,
    Kind,
    TileType,
    from_seed,
    parse_feature,
    parse_seed,
    rotate_mask,
    same_tile,
    to_seed,
)
from tilelay.carcassonne.tileset import base_tileset, dump_tileset, parse_tileset
from tilelay.errors import TilelayError

C, R, F = Edge.CITY, Edge.ROAD, Edge.FIELD

#: name: (count, edges N E S W, seed form rows joined with " / ")
BASE = {
    "A": (2, (F, F, R, F), "0 N 0 / N M N / 0 R 0 / walls: none"),
    "B": (4, (F, F, F, F), "0 N 0 / N M N / 0 N 0 / walls: none"),
    "C": (1, (C, C, C, C), "0 Fi 0 / Fi N Fi / 0 Fi 0 / walls: N E S W"),
    "D": (4, (C, R, F, R), "0 Fc 0 / R R R / 1 N 1 / walls: N"),
    "E": (5, (C, F, F, F), "0 Fc 0 / N N N / 0 N 0 / walls: N"),
    "F": (2, (F, C, F, C), "0 N 0 / Fi N Fi / 1 N 1 / walls: E W"),
    "G": (1, (F, C, F, C), "0 N 0 / Fi N Fi / 1 N 1 / walls: E W"),
    "H": (3, (C, F, C, F), "0 Fc 0 / N N N / 0 Fc 0 / walls: N S"),
    "I": (2, (C, F, F, C), "0 Fc 0 / Fc N N / 0 N 0 / walls: N W"),
    "J": (3, (C, R, R, F), "0 Fc 0 / N R R / 0 R 1 / walls: N"),
    "K": (3, (C, F, R, R), "0 Fc 0 / R R N / 1 R 0 / walls: N"),
    "L": (3, (C, R, R, R), "0 Fc 0 / R N R / 1 R 2 / walls: N"),
    "M": (2, (C, F, F, C), "0 Fi 0 / Fi N N / 0 N 0 / walls: N W"),
    "N": (3, (C, F, F, C), "0 Fi 0 / Fi N N / 0 N 0 / walls: N W"),
    "O": (2, (C, R, R, C), "0 Fi 0 / Fi R R / 0 R 1 / walls: N W"),
    "P": (3, (C, R, R, C), "0 Fi 0 / Fi R R / 0 R 1 / walls: N W"),
    "Q": (1, (C, C, F, C), "0 Fi 0 / Fi N Fi / 0 N 0 / walls: N E W"),
    "R": (3, (C, C, F, C), "0 Fi 0 / Fi N Fi / 0 N 0 / walls: N E W"),
    "S": (2, (C, C, R, C), "0 Fi 1 / Fi N Fi / 0 R 1 / walls: N E W"),
    "T": (1, (C, C, R, C), "0 Fi 1 / Fi N Fi / 0 R 1 / walls: N E W"),
    "U": (8, (R, F, R, F), "0 R 1 / N R N / 0 R 1 / walls: none"),
    "V": (9, (F, F, R, R), "0 N 0 / R R N / 1 R 0 / walls: none"),
    "W": (4, (F, R, R, R), "0 N 0 / R N R / 1 R 2 / walls: none"),
    "X": (1, (R, R, R, R), "0 R 1 / R N R / 2 R 3 / walls: none"),
}

#: name: (cities as (sides mask, pennants), roads as sides masks, monastery, farms as
#: (half-edge mask, number of cities touched))
FEATURES = {
    "A": ([], [0b0100], True, [(0xFF, 0)]),
    "B": ([], [], True, [(0xFF, 0)]),
    "C": ([(0b1111, 1)], [], False, []),
    "D": ([(0b0001, 0)], [0b1010], False, [(0b10000100, 1), (0b01111000, 0)]),
    "E": ([(0b0001, 0)], [], False, [(0b11111100, 1)]),
    "F": ([(0b1010, 1)], [], False, [(0b00000011, 1), (0b00110000, 1)]),
    "G": ([(0b1010, 0)], [], False, [(0b00000011, 1), (0b00110000, 1)]),
    "H": ([(0b0001, 0), (0b0100, 0)], [], False, [(0b11001100, 2)]),
    "I": ([(0b0001, 0), (0b1000, 0)], [], False, [(0b00111100, 2)]),
    "J": ([(0b0001, 0)], [0b0110], False, [(0b11100100, 1), (0b00011000, 0)]),
    "K": ([(0b0001, 0)], [0b1100], False, [(0b10011100, 1), (0b01100000, 0)]),
    "L": (
        [(0b0001, 0)],
        [0b0010, 0b0100, 0b1000],
        False,
        [(0b10000100, 1), (0b00011000, 0), (0b01100000, 0)],
    ),
    "M": ([(0b1001, 1)], [], False, [(0b00111100, 1)]),
    "N": ([(0b1001, 0)], [], False, [(0b00111100, 1)]),
    "O": ([(0b1001, 1)], [0b0110], False, [(0b00100100, 1), (0b00011000, 0)]),
    "P": ([(0b1001, 0)], [0b0110], False, [(0b00100100, 1), (0b00011000, 0)]),
    "Q": ([(0b1011, 1)], [], False, [(0b00110000, 1)]),
    "R": ([(0b1011, 0)], [], False, [(0b00110000, 1)]),
    "S": ([(0b1011, 1)], [0b0100], False, [(0b00010000, 1), (0b00100000, 1)]),
    "T": ([(0b1011, 0)], [0b0100], False, [(0b00010000, 1), (0b00100000, 1)]),
    "U": ([], [0b0101], False, [(0b00011110, 0), (0b11100001, 0)]),
    "V": ([], [0b1100], False, [(0b10011111, 0), (0b01100000, 0)]),
    "W": ([], [0b0010, 0b0100, 0b1000], False, [(0b10000111, 0), (0b00011000, 0), (0b01100000, 0)]),
    "X": (
        [],
        [0b0001, 0b0010, 0b0100, 0b1000],
        False,
        [(0b00000110, 0), (0b00011000, 0), (0b01100000, 0), (0b10000001, 0)],
    ),
}


def test_base_set_totals() -> None:
    ts = base_tileset()
    assert [t.name for t in ts.types] == list(BASE)
    assert ts.total == 72
    assert len(ts.pile()) == 71
    assert sum(t.count * t.pennants for t in ts.types) == 10
    assert sum(t.count for t in ts.types if t.has_monastery) == 6
    assert ts.start == "D"
    assert ts.type("D").edges() == (C, R, F, R)  # city cap with a straight road


@pytest.mark.parametrize("name", list(BASE))
def test_base_type_counts_edges_and_seed_form(name: str) -> None:
    tile = base_tileset().type(name)
    count, edges, seed = BASE[name]
    assert tile.count == count
    assert tile.edges() == edges
    assert " / ".join(to_seed(tile).text().splitlines()) == seed


@pytest.mark.parametrize("name", list(FEATURES))
def test_base_type_features(name: str) -> None:
    tile = base_tileset().type(name)
    cities, roads, monastery, farms = FEATURES[name]
    assert [(f.sides, f.pennants) for f in tile.kinds(Kind.CITY)] == cities
    assert [f.sides for f in tile.kinds(Kind.ROAD)] == roads
    assert tile.has_monastery is monastery
    assert [(f.halves, len(f.touches)) for f in tile.kinds(Kind.FARM)] == farms


def test_same_edges_differ_inside() -> None:
    ts = base_tileset()
    # two caps on adjacent sides vs a diagonal city: same edges, different features
    assert ts.type("I").edges() == ts.type("N").edges()
    assert len(ts.type("I").kinds(Kind.CITY)) == 2
    assert len(ts.type("N").kinds(Kind.CITY)) == 1
    # city through the middle vs two caps on opposite sides (up to rotation)
    assert ts.type("H").edges(1) == ts.type("G").edges()
    assert not same_tile(ts.type("H"), ts.type("G"))


@pytest.mark.parametrize("name", list(BASE))
def test_seed_form_round_trip(name: str) -> None:
    tile = base_tileset().type(name)
    form = to_seed(tile)
    text = form.text()
    assert parse_seed(text) == form
    assert parse_seed(text).text() == text
    back = from_seed(form, name)
    plain = TileType(
        name, tuple(Feature(f.kind, f.sides, f.halves, 0, f.touches) for f in tile.features)
    )
    assert same_tile(back, plain)


def test_seed_examples() -> None:
    # the seed's 2nd and 3rd examples, read as they are
    mono = from_seed(parse_seed("0 N 0\nN M N\n0 R 0\nwalls: none\n"))
    assert same_tile(mono, base_tileset().type("A"))
    cross = from_seed(parse_seed("0 R 1\nR N R\n2 R 3\nwalls: none\n"))
    assert same_tile(cross, base_tileset().type("X"))
    # the 1st example numbers two quadrants joined by open field differently
    with pytest.raises(CarcassonneError, match="side W is open field"):
        from_seed(parse_seed("0 Fc 1\nN R R\n1 R 1\nwalls: N\n"))
    fixed = from_seed(parse_seed("0 Fc 0\nN R R\n0 R 1\nwalls: N\n"))
    assert same_tile(fixed, base_tileset().type("J"))


def test_seed_form_errors() -> None:
    with pytest.raises(CarcassonneError, match="needs a wall"):
        from_seed(parse_seed("0 Fc 0\nN N N\n0 N 0\nwalls: none"))
    with pytest.raises(CarcassonneError, match=r"x.txt:2: side 'Q'"):
        parse_seed("0 N 0\nQ N N\n0 N 0\nwalls: none", source="x.txt")
    with pytest.raises(CarcassonneError, match="expected 3 cells"):
        parse_seed("0 N\nN N N\n0 N 0\nwalls: none")
    with pytest.raises(CarcassonneError, match="walls"):
        parse_seed("0 N 0\nN N N\n0 N 0\nfences: N")
    # a tile that has no seed form: two through roads
    two = TileType(
        "Z",
        (
            parse_feature("road N S"),
            parse_feature("road E W"),
            parse_feature("farm Ne En"),
            parse_feature("farm Es Se"),
            parse_feature("farm Sw Ws"),
            parse_feature("farm Wn Nw"),
        ),
    )
    with pytest.raises(CarcassonneError, match="no seed form"):
        to_seed(two)


def test_feature_text_round_trip() -> None:
    for text in (
        "city N E pennant",
        "road E W",
        "monastery",
        "farm Nw Ne touches=0",
        "city S pennants=2",
    ):
        assert parse_feature(text).text() == text


def test_feature_errors() -> None:
    with pytest.raises(CarcassonneError, match="unknown kind 'castle'"):
        parse_feature("castle N")
    with pytest.raises(CarcassonneError, match="unexpected 'Q'"):
        parse_feature("road N Q")
    with pytest.raises(CarcassonneError, match="side N given twice"):
        parse_feature("city N N")
    with pytest.raises(CarcassonneError, match="needs at least one side"):
        parse_feature("road")
    with pytest.raises(CarcassonneError, match="reuses a side"):
        TileType("Z", (parse_feature("city N"), parse_feature("road N S")))
    with pytest.raises(CarcassonneError, match="both its half-edges"):
        TileType("Z", (parse_feature("city N"),))
    with pytest.raises(CarcassonneError, match="not a city"):
        TileType("Z", (parse_feature("farm Nw Ne En Es Se Sw Ws Wn touches=0"),))


def test_tileset_file_writes_back_unchanged() -> None:
    text = resources.files("tilelay.carcassonne").joinpath("data/base.toml").read_text("utf-8")
    assert dump_tileset(parse_tileset(text)) == text


def test_tileset_errors_name_file_and_line() -> None:
    text = 'name = "x"\nstart = "A"\n\n[tiles.A]\ncount = 1\nfeatures = ["road N Q"]\n'
    with pytest.raises(CarcassonneError) as info:
        parse_tileset(text, source="x.toml")
    assert (
        str(info.value)
        == "x.toml:6: feature 'road N Q': unexpected 'Q' (expected a side N, E, S or W)"
    )
    assert isinstance(info.value, TilelayError)
    bad = 'name = "x"\nstart = "A"\n\n[tiles.A]\ncount = 1\nfeatures = ["road N"]\n'
    with pytest.raises(CarcassonneError, match=r"x.toml:4: tile A: side N is not a city"):
        parse_tileset(bad, source="x.toml")
    with pytest.raises(CarcassonneError, match=r"x\.toml: malformed TOML"):
        parse_tileset("name = ", source="x.toml")
    with pytest.raises(CarcassonneError, match="start tile 'Z'"):
        parse_tileset(
            'name = "x"\nstart = "Z"\n[tiles.A]\nfeatures = ["monastery", '
            '"farm Nw Ne En Es Se Sw Ws Wn"]\n'
        )


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(list(BASE)), st.integers(0, 3), st.integers(0, 3))
def test_rotation_composes(name: str, a: int, b: int) -> None:
    tile = base_tileset().type(name)
    once = tuple(f.rotated(a).rotated(b) for f in tile.features)
    assert once == tile.rotated_features((a + b) % 4)
    edges = tile.edges()
    assert tile.edges(a) == tuple(edges[(s - a) % 4] for s in range(4))


def test_rotate_mask() -> None:
    assert rotate_mask(0b0001, 1, 4) == 0b0010
    assert rotate_mask(0b1000, 1, 4) == 0b0001
    assert rotate_mask(0b11000000, 2, 8) == 0b00000011

"""The tile language: the seeds' worked examples, the reference catalogue, bad input."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import reference
from tilelay import dsl
from tilelay.errors import TilelayError, TileSyntaxError
from tilelay.hexgeo import Loc
from tilelay.tile import (
    BorderType,
    Color,
    Edge,
    NodeKind,
    NodeRef,
    Revenue,
    Track,
)


def ends(tile: dsl.Tile) -> list[tuple[str, str]]:
    return [(str(p.a), str(p.b)) for p in tile.paths]


# ------------------------------------------------------- the seeds' worked examples


def test_tile_1_two_towns_with_through_track() -> None:
    t = dsl.parse(
        "town=revenue:10;town=revenue:10;path=a:1,b:_0;path=a:_0,b:3;path=a:0,b:_1;path=a:_1,b:4"
    )
    assert [n.kind for n in t.nodes] == [NodeKind.TOWN, NodeKind.TOWN]
    assert [n.revenue for n in t.nodes] == [Revenue(10), Revenue(10)]
    assert ends(t) == [("1", "_0"), ("_0", "3"), ("0", "_1"), ("_1", "4")]
    assert t.node_exits(0) == {1, 3} and t.node_exits(1) == {0, 4}
    assert t.town_style(0).value == "rect"  # two paths: a bar


def test_tile_23_plain_track() -> None:
    t = dsl.parse("path=a:0,b:3;path=a:0,b:4")
    assert t.nodes == ()
    assert [p.ends for p in t.paths] == [(Edge(0), Edge(3)), (Edge(0), Edge(4))]
    assert t.exits() == {0, 3, 4}


def test_lawson_tile_81_junction() -> None:
    t = dsl.parse("junction;path=a:0,b:_0;path=a:2,b:_0;path=a:4,b:_0")
    assert [n.kind for n in t.nodes] == [NodeKind.JUNCTION]
    assert t.nodes[0].revenue is None
    assert t.node_exits(0) == {0, 2, 4}
    assert not t.nodes[0].is_stop


def test_1889_tile_439() -> None:
    t = dsl.parse(
        "city=revenue:60,slots:2;path=a:0,b:_0;path=a:2,b:_0;path=a:4,b:_0;label=H;upgrade=cost:80"
    )
    (city,) = t.nodes
    assert city.kind is NodeKind.CITY and city.slots == 2 and city.revenue == Revenue(60)
    assert t.node_exits(0) == {0, 2, 4}
    assert t.label == "H"
    assert [(u.cost, u.terrains) for u in t.upgrades] == [(80, ())]


def test_1889_h5_terrain_only() -> None:
    t = dsl.parse("upgrade=cost:80,terrain:water|mountain")
    assert t.nodes == () and t.paths == ()
    assert [(u.cost, u.terrains) for u in t.upgrades] == [(80, ("water", "mountain"))]


def test_18chesapeake_a3_b2_split_offboard() -> None:
    a3 = dsl.parse(
        "city=revenue:yellow_40|green_50|brown_60|gray_80,hide:1,groups:Pittsburgh;"
        "path=a:5,b:_0;border=edge:4"
    )
    (city,) = a3.nodes
    assert city.kind is NodeKind.CITY and city.hide and city.groups == ("Pittsburgh",)
    assert city.revenue is not None
    assert city.revenue.phases == (("yellow", 40), ("green", 50), ("brown", 60), ("gray", 80))
    assert city.revenue.at("brown") == 60
    assert [(b.edge, b.type) for b in a3.borders] == [(4, None)]
    b2 = dsl.parse(
        "offboard=revenue:yellow_40|green_50|brown_60|gray_80,groups:Pittsburgh;"
        "path=a:0,b:_0;border=edge:1"
    )
    (off,) = b2.nodes
    assert off.kind is NodeKind.OFFBOARD and not off.hide
    assert off.revenue is not None and off.revenue.values() == (40, 50, 60, 80)
    assert ends(b2) == [("0", "_0")]
    assert [b.edge for b in b2.borders] == [1]


def test_18chesapeake_h6_oo() -> None:
    t = dsl.parse(
        "city=revenue:30;city=revenue:30;path=a:1,b:_0;path=a:4,b:_1;label=OO;"
        "upgrade=cost:40,terrain:water"
    )
    assert [n.kind for n in t.nodes] == [NodeKind.CITY, NodeKind.CITY]
    assert all(n.slots == 1 and n.revenue == Revenue(30) for n in t.nodes)
    assert t.node_exits(0) == {1} and t.node_exits(1) == {4}
    assert t.label == "OO"
    assert [(u.cost, u.terrains) for u in t.upgrades] == [(40, ("water",))]


def test_18chesapeake_k3_unconnected_towns() -> None:
    t = dsl.parse("town=revenue:0;town=revenue:0")
    assert [n.kind for n in t.nodes] == [NodeKind.TOWN, NodeKind.TOWN]
    assert t.paths == ()
    assert t.town_style(0).value == "dot"  # no paths: a dot


def test_18mex_485mc_lanes_and_locs() -> None:
    t = dsl.parse(
        "city=revenue:60,slots:3,loc:center;town=revenue:10,loc:2;path=a:0,b:_0;"
        "path=a:1,b:_0;path=a:3,b:_0;path=a:2,b:_1;path=a:5,b:_0,lanes:2;"
        "path=a:_1,b:_0;label=MC"
    )
    city, town = t.nodes
    assert city.kind is NodeKind.CITY and city.slots == 3 and city.loc == Loc("center")
    assert town.kind is NodeKind.TOWN and town.loc == Loc("edge", 2)
    assert len(t.paths) == 7  # lanes:2 expands into two paths
    lane_paths = [p for p in t.paths if p.a == Edge(5)]
    assert [(p.a_lane, p.b_lane) for p in lane_paths] == [((2, 0), (2, 0)), ((2, 1), (2, 1))]
    assert all(p.b == NodeRef(0) for p in lane_paths)
    assert t.paths[-1].ends == (NodeRef(1), NodeRef(0))  # town to city
    assert t.label == "MC"
    assert dsl.write(t).count("lanes:2") == 1


def test_18mex_485p_mixed_lanes() -> None:
    t = dsl.parse(
        "town=revenue:10;path=a:2,b:_0,a_lane:2.1;path=a:5,b:_0;path=a:2,b:4,a_lane:2.0;label=P"
    )
    assert [(p.a, p.b, p.a_lane, p.b_lane) for p in t.paths] == [
        (Edge(2), NodeRef(0), (2, 1), (1, 0)),
        (Edge(5), NodeRef(0), (1, 0), (1, 0)),
        (Edge(2), Edge(4), (2, 0), (1, 0)),
    ]
    assert dsl.write(t) == (
        "town=revenue:10;path=a:2,b:_0,a_lane:2.1;path=a:5,b:_0;path=a:2,b:4,a_lane:2.0;label=P"
    )


def test_1831_301c_triple_track() -> None:
    t = dsl.parse("path=a:0,b:3,lanes:3")
    assert len(t.paths) == 3
    # edge to edge: the clockwise-most lane at one end is the counter-clockwise-most at the other
    assert [(p.a_lane, p.b_lane) for p in t.paths] == [
        ((3, 0), (3, 2)),
        ((3, 1), (3, 1)),
        ((3, 2), (3, 0)),
    ]
    assert dsl.write(t) == "path=a:0,b:3,lanes:3"


def test_all_parts_and_sub_parts_round_trip() -> None:
    code = (
        "city=revenue:yellow_20|brown_40,slots:2,groups:East|West,hide:1,loc:1.5;"
        "town=revenue:10,style:dot,groups:G,loc:center;offboard=revenue:30,hide:1;junction;"
        "path=a:0,b:_0,track:narrow;path=a:_0,b:_1,track:dual;path=a:1,b:_2,terminal:2;"
        "path=a:2,b:_3,ignore:1;label=Chi;upgrade=cost:40,terrain:mountain|water,loc:5.5;"
        "border=edge:3,type:impassable;border=edge:4,type:water,cost:20;"
        "icon=image:port,name:p1,sticky:1,blocks_lay:1,loc:2;frame=color:#800080,color2:red;"
        "stripes=color:brown"
    )
    t = dsl.parse(code, color="green")
    assert dsl.write(t) == code
    assert t.stripe is Color.BROWN
    assert [p.track for p in t.paths] == [Track.NARROW, Track.DUAL, Track.BROAD, Track.BROAD]
    assert t.paths[2].terminal == 2 and t.paths[3].ignore
    assert t.borders[0].type is BorderType.IMPASSABLE and t.borders[1].cost == 20
    icon = t.icons[0]
    assert (icon.image, icon.name, icon.sticky, icon.blocks_lay) == ("port", "p1", True, True)
    assert t.frame is not None and (t.frame.color, t.frame.color2) == ("#800080", "red")


def test_writer_canonicalises() -> None:
    # defaults left out, nodes before paths, flag written as :1
    t = dsl.parse(
        "path=a:0,b:_0;city=revenue:20,slots:1".replace(
            "path=a:0,b:_0;city=revenue:20,slots:1", "city=revenue:20,slots:1;path=a:0,b:_0"
        )
    )
    assert dsl.write(t) == "city=revenue:20;path=a:0,b:_0"
    t2 = dsl.parse("city=revenue:20;path=a:0,b:_0;label=Z;path=a:3,b:_0")
    assert dsl.write(t2) == "city=revenue:20;path=a:0,b:_0;path=a:3,b:_0;label=Z"
    assert dsl.canonical(" path = a:0 , b:3 ;; ") == "path=a:0,b:3"
    assert dsl.write(dsl.parse("icon=image:port,blocks_lay")) == "icon=image:port,blocks_lay:1"


def test_two_colour_tiles() -> None:
    t = dsl.parse("path=a:0,b:3", color="greenbrown")
    assert t.color is Color.GREEN and t.stripe is Color.BROWN


# ------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("code", "column", "words"),
    [
        ("cty=revenue:20", 1, ["unknown part 'cty'", "expected one of city"]),
        ("city=revenu:20", 6, ["unknown sub part 'revenu'", "revenue, slots"]),
        ("city=revenue:20;path=a:0,b:_1", 26, ["bad node reference '_1'", "1 node(s)"]),
        ("path=a:0,b:_0", 10, ["bad node reference", "0 node(s)"]),
        ("path=a:0,b:6", 10, ["edge 6 out of range", "0-5"]),
        ("path=a:0,b:3,a_lane:2.0", 1, ["lane mismatch at edge 0"]),
        ("path=a:0,b:3,lanes:2,a_lane:2.0", 14, ["lane mismatch", "not both"]),
        ("path=a:0,b:3,a_lane:2.2", 14, ["lane mismatch", "index must be below width"]),
        (
            "path=a:0,b:3;path=a:0,b:4,a_lane:2.0;path=a:0,b:2,a_lane:2.1",
            14,
            ["lane mismatch at edge 0", "1, 2"],
        ),
        ("city=revenue:x", 6, ["revenue must be a whole number"]),
        ("town=revenue:yellow_", 14, ["bad phase revenue"]),
        ("city=revenue:20,slots:0", 17, ["slots must be"]),
        ("town=revenue:10,style:square", 17, ["style must be rect, dot or hidden"]),
        ("path=a:0", 1, ["'b' is required"]),
        ("path=a:0,b:0", 1, ["both ends"]),
        ("path=a:0,b:3,track:wide", 14, ["track must be broad, narrow or dual"]),
        ("border=type:water", 1, ["'edge' is required"]),
        ("border=edge:6", 8, ["edge 0-5"]),
        ("upgrade=terrain:water", 1, ["'cost' is required"]),
        ("icon=name:x", 1, ["'image' is required"]),
        ("city=revenue:20,loc:7", 17, ["bad loc"]),
        ("label=", 1, ["label: needs text"]),
        ("city=revenue:20,,slots:2", 17, ["empty sub part"]),
        ("junction=foo:1", 10, ["unknown sub part 'foo'"]),
    ],
)
def test_bad_input_names_column_and_expectation(code: str, column: int, words: list[str]) -> None:
    with pytest.raises(TileSyntaxError) as info:
        dsl.parse(code)
    err = info.value
    assert err.column == column, str(err)
    for w in words:
        assert w in str(err)
    assert str(err).startswith(f"column {column}: ")


def test_source_is_named_in_errors() -> None:
    with pytest.raises(TileSyntaxError, match=r"^tiles\.txt:1:6: town: revenue must be"):
        dsl.parse("town=revenue:z", source="tiles.txt:1")  # source may carry a line already


_ALPHABET = st.sampled_from([*"cityownpahjulbegrsfmkdv=;,:|_.-0123456789 ", "é", "\n"])


@settings(max_examples=400, deadline=None)
@given(st.text(_ALPHABET, max_size=60))
def test_no_input_raises_anything_but_a_tile_syntax_error(code: str) -> None:
    try:
        tile = dsl.parse(code)
    except TileSyntaxError:
        return
    assert dsl.parse(dsl.write(tile)) == tile


_PART = st.sampled_from(
    [
        "city=revenue:20",
        "town=revenue:10",
        "offboard=revenue:yellow_30|brown_60",
        "junction",
        "path=a:0,b:_0",
        "path=a:_0,b:3",
        "path=a:1,b:4",
        "path=a:2,b:_1,track:narrow",
        "path=a:0,b:3,lanes:2",
        "label=OO",
        "upgrade=cost:40,terrain:water",
        "border=edge:2",
        "city=revenue:40,slots:2,loc:1.5",
        "path=a:_0,b:_1",
        "frame=color:red",
        "blank",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PART, max_size=8))
def test_well_formed_strings_round_trip(parts: list[str]) -> None:
    code = ";".join(parts)
    try:
        tile = dsl.parse(code)
    except TileSyntaxError:
        return  # e.g. a node reference before any node, two frames
    assert dsl.parse(dsl.write(tile)) == tile
    assert dsl.write(dsl.parse(dsl.write(tile))) == dsl.write(tile)


def test_errors_are_tilelay_errors() -> None:
    assert issubclass(TileSyntaxError, TilelayError)
    assert issubclass(TileSyntaxError, ValueError)


# ------------------------------------------------------------- reference data


def test_every_generic_tile_reads_writes_and_reads_back() -> None:
    data = json.loads(reference("18xxgames", "generic_tiles.json").read_text())
    assert len(data) == 476
    for name, entry in data.items():
        tile = dsl.parse(entry["code"], name=name, color=entry["color"], source=name)
        written = dsl.write(tile)
        again = dsl.parse(written, name=name, color=entry["color"])
        assert again == tile, name
        # the canonical form is a fixed point
        assert dsl.write(again) == written, name


@pytest.mark.parametrize("game", ["1889", "1830", "18_chesapeake"])
def test_preprinted_maps_read_hex_by_hex(game: str) -> None:
    data = json.loads(reference("18xxgames", "games", f"{game}.json").read_text())
    count = 0
    for group in data["HEXES"]:
        for coord in group["coords"]:
            tile = dsl.parse(group["code"], name=coord, color=group["color"], source=coord)
            assert dsl.parse(dsl.write(tile), name=coord, color=group["color"]) == tile
            count += 1
    assert count == sum(len(g["coords"]) for g in data["HEXES"]) > 50
    for name, spec in data["TILES"].items():
        if isinstance(spec, dict):
            tile = dsl.parse(spec["code"], name=name, color=spec["color"])
            assert tile.paths or tile.nodes

"""The tile model: rotation, topology, connections, queries, phased revenues."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tilelay
from tilelay import dsl
from tilelay.catalogue import get_tile, tile_names
from tilelay.convert import read as convert_read
from tilelay.errors import TilelayError, TileModelError
from tilelay.hexgeo import Loc
from tilelay.tile import (
    Color,
    Edge,
    Node,
    NodeKind,
    NodeRef,
    Partition,
    PartitionSide,
    Path,
    Revenue,
    StopRoute,
    Stub,
    Tile,
    Track,
)


def test_rotation_moves_edges_locs_and_borders_clockwise() -> None:
    t = dsl.parse(
        "city=revenue:40,loc:5;city=revenue:40,loc:1.5;path=a:0,b:_0;path=a:2,b:_1;"
        "border=edge:4,type:water;upgrade=cost:20,loc:5.5;label=OO"
    )
    r = t.rotated(2)
    assert r.rotation == 2
    assert [p.edges() for p in r.paths] == [(2,), (4,)]
    assert [n.loc for n in r.nodes] == [Loc("edge", 1), Loc("corner", 3.5)]
    assert [b.edge for b in r.borders] == [0]
    assert r.upgrades[0].loc == Loc("corner", 1.5)
    assert t.rotated(6) == t and t.rotated(0) is t
    assert t.rotated(2).rotated(4).paths == t.paths


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(tile_names()), st.integers(0, 5), st.integers(0, 5))
def test_rotations_compose(name: str, r1: int, r2: int) -> None:
    t = get_tile(name)
    a = t.rotated(r1).rotated(r2)
    b = t.rotated(r1 + r2)
    assert a.paths == b.paths and a.rotation == b.rotation == (r1 + r2) % 6
    assert a.topology() == b.topology()


def test_topology_ignores_order_and_revenue_but_not_track() -> None:
    a = dsl.parse("city=revenue:20;path=a:0,b:_0;path=a:_0,b:3")
    b = dsl.parse("city=revenue:50,slots:2;path=a:3,b:_0;path=a:_0,b:0;label=X")
    c = dsl.parse("town=revenue:20;path=a:0,b:_0;path=a:_0,b:3")
    d = dsl.parse("city=revenue:20;path=a:0,b:_0;path=a:_0,b:3,track:narrow")
    assert a.same_topology(b)
    assert not a.same_topology(c)  # a town is not a city
    assert not a.same_topology(d)  # gauge matters
    # node order does not matter
    e = dsl.parse("city=revenue:30;city=revenue:30;path=a:1,b:_0;path=a:4,b:_1")
    f = dsl.parse("city=revenue:30;city=revenue:30;path=a:4,b:_0;path=a:1,b:_1")
    assert e.same_topology(f)
    # but which edges meet at one node does
    g = dsl.parse("city=revenue:30;city=revenue:30;path=a:1,b:_0;path=a:4,b:_0")
    assert not e.same_topology(g)


def test_symmetries_of_known_tiles() -> None:
    assert get_tile("9").symmetries() == (0, 3)  # straight
    assert get_tile("7").symmetries() == (0,)  # sharp curve
    assert get_tile("57").symmetries() == (0, 3)
    assert get_tile("63").symmetries() == (0, 1, 2, 3, 4, 5)  # six-way city
    assert get_tile("15").symmetries() == (0,)


def test_rotations_matching() -> None:
    eight = get_tile("8")
    assert eight.rotations_matching(eight.rotated(4)) == (4,)
    assert get_tile("9").rotations_matching(get_tile("9").rotated(1)) == (1, 4)
    assert not get_tile("8").same_topology_up_to_rotation(get_tile("9"))
    assert get_tile("8").same_topology_up_to_rotation(get_tile("8").rotated(5))


def test_queries() -> None:
    t = get_tile("59")  # OO
    assert len(t.cities) == 2 and t.towns == () and t.label == "OO"
    assert t.exits() == t.node_exits(0) | t.node_exits(1)
    assert get_tile("57").revenue_values() == (20,)


def test_revenue_by_phase() -> None:
    r = Revenue(0, (("yellow", 30), ("brown", 50)))
    assert r.at("yellow") == 30 and r.at("brown") == 50
    order = ["yellow", "green", "brown", "gray"]
    assert r.at("green", order=order) == 30  # latest listed phase before it
    assert r.at("gray", order=order) == 50
    assert str(r) == "yellow_30|brown_50"
    assert Revenue(20).at("gray") == 20
    assert r.at() == 30  # no phase: the first value


def test_revenue_takes_the_last_phase_colour_listed() -> None:
    # 18xx.games: the last of the phase's tile colours the revenue lists; 0 when none
    rev = Revenue(0, (("yellow", 30), ("brown", 50)))
    assert rev.at("2", colors=("yellow",)) == 30
    assert rev.at("3", colors=("yellow", "green")) == 30
    assert rev.at("5", colors=("yellow", "green", "brown")) == 50
    assert Revenue(0, (("green", 30), ("brown", 50))).at("2", colors=("yellow",)) == 0
    diesel = Revenue(0, (("yellow", 20), ("brown", 40), ("diesel", 80)))
    assert diesel.at("D", colors=("yellow", "green", "brown"), diesel=True) == 80
    assert diesel.at("6", colors=("yellow", "green", "brown")) == 40
    # seed 000's numbered phases: the latest listed at or before the phase
    xml = Revenue(0, (("1", 30), ("4", 40), ("6", 50)))
    order = ["1", "2", "3", "4", "5", "6", "7"]
    assert [xml.at(p, order=order) for p in order] == [30, 30, 30, 40, 40, 50, 50]


def test_colour_names() -> None:
    assert Color.parse("grey") == (Color.GRAY, None)
    assert Color.parse("browngray") == (Color.BROWN, Color.GRAY)
    with pytest.raises(ValueError, match="unknown colour"):
        Color.parse("magenta")


def test_model_rejects_impossible_tiles() -> None:
    with pytest.raises(TileModelError, match="node _1"):
        Tile(nodes=(Node(NodeKind.CITY, Revenue(10), 1),), paths=(Path(Edge(0), NodeRef(1)),))
    with pytest.raises(TileModelError, match="edge 7"):
        Tile(paths=(Path(Edge(0), Edge(7)),))


def test_connections_look_through_junctions() -> None:
    lawson = dsl.parse("junction;path=a:0,b:_0;path=a:2,b:_0;path=a:4,b:_0")
    conn = lawson.connections()
    assert {(a, b) for a, b, _ in conn.links} == {(0, 2), (0, 4), (2, 4)}
    assert conn.exits == 0b010101 and conn.node_exits == (0,)
    # a city reached through a junction is linked to the junction's other arms
    city = dsl.parse("city=revenue:20;junction;path=a:_0,b:_1;path=a:1,b:_1;path=a:3,b:_1")
    assert city.connections().node_exits[0] == 0b001010
    assert city.node_exits(0) == frozenset()  # directly, no edge
    # ignored paths count only when asked for
    special = dsl.parse("offboard=revenue:20;path=a:0,b:_0;path=a:1,b:_0,ignore:1")
    assert special.connections().exits == 0b000001
    assert special.connections(with_ignored=True).exits == 0b000011


# ------------------------------------------------ the rest of the engine's tile language


def test_rotation_turns_stubs_partitions_and_keeps_their_sides() -> None:
    t = dsl.parse(
        "stub=edge:4;partition=a:0+,b:2,type:water,restrict:inner;future_label=label:P,color:gray"
    )
    r = t.rotated(5)
    assert r.stubs == (Stub(3),)
    (p,) = r.partitions
    assert (p.a, p.b, p.a_sign, p.restrict) == (5, 1, 1, PartitionSide.INNER)
    assert p.inner_edges == (5, 0) and p.outer_edges == (1, 2, 3, 4)
    assert t.partitions[0].inner_edges == (0, 1)
    assert r.future_label == t.future_label and r.rotated(1) == t.rotated(6)


def test_future_track_is_not_track_yet() -> None:
    built = dsl.parse("city=revenue:0;path=a:3,b:_0")
    planned = dsl.parse("city=revenue:0;path=a:3,b:_0;path=a:5,b:_0,track:future")
    assert planned.exits() == {3} and planned.connections() == built.connections()
    assert planned.same_topology(built)
    assert planned.node_exits(0) == {3, 5}  # the drawing still places the city between them


def test_thin_track_joins_its_tile_but_no_neighbour() -> None:
    t = dsl.parse("junction;path=a:3,b:_0,terminal:1;path=a:3,b:5,track:thin")
    assert {(a, b, tr) for a, b, tr in t.connections().links} == {(3, 5, Track.THIN)}
    assert not Track.THIN.connects(Track.THIN) and not Track.THIN.connects(Track.DUAL)
    assert Track.BROAD.connects(Track.DUAL)  # unchanged
    assert not dsl.parse("path=a:0,b:3").same_topology(dsl.parse("path=a:0,b:3,track:thin"))


def test_halts_and_passes_are_towns_and_cities_with_their_own_route_rules() -> None:
    t = dsl.parse(
        "halt=symbol:£;town=revenue:10;pass=revenue:0;offboard=revenue:20,route:optional;"
        "path=a:0,b:_0;path=a:1,b:_1;path=a:2,b:_2;path=a:3,b:_3"
    )
    halt, town, mountain, _ = t.nodes
    assert t.towns == (halt, town) and t.halts == (halt,) and t.cities == (mountain,)
    assert [n.route_rule for n in t.nodes] == [
        StopRoute.OPTIONAL,
        StopRoute.MANDATORY,
        StopRoute.NEVER,
        StopRoute.OPTIONAL,
    ]
    assert [n.visit_cost for n in t.nodes] == [1, 1, 1, 1]
    assert all(n.is_stop for n in t.nodes)
    # a halt and a town of the same track have the same topology (the engine's Halt is a Town)
    assert dsl.parse("halt;path=a:0,b:_0").same_topology(dsl.parse("town=revenue:10;path=a:0,b:_0"))


def test_model_rejects_stubs_and_partitions_off_the_hex() -> None:
    with pytest.raises(TileModelError, match="stub at 6"):
        Tile(stubs=(Stub(6),))
    with pytest.raises(TileModelError, match="partition at 9"):
        Tile(partitions=(Partition(0, 9),))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: tilelay.parse_tile(None), "a tile string must be text, not NoneType"),  # type: ignore[arg-type]
        (lambda: tilelay.parse_tile(b"city=revenue:20"), "a tile string must be text, not bytes"),  # type: ignore[arg-type]
        (lambda: tilelay.parse_tile("city=revenue:20", name=5), "a tile's name must be text"),  # type: ignore[arg-type]
        (lambda: tilelay.parse_tile("city=revenue:20", color=None), "a tile's colour must be"),  # type: ignore[arg-type]
        (lambda: tilelay.get_tile(57), "a tile's name is text"),  # type: ignore[arg-type]
        (lambda: tilelay.write_tile(None), "only a Tile is written"),  # type: ignore[arg-type]
        (lambda: tilelay.get_tile("57").rotated("1"), "a rotation is a whole number of steps"),  # type: ignore[arg-type]
        (lambda: tilelay.get_tile("57").rotated(1.5), "a rotation is a whole number of steps"),  # type: ignore[arg-type]
        (lambda: convert_read(None, "xml"), "tiles are read from text or bytes"),  # type: ignore[arg-type]
        (lambda: Tile(paths=(Path(Edge(1.5), Edge(4)),)), r"edge 1\.5, expected 0-5"),  # type: ignore[arg-type]
    ],
)
def test_the_public_api_refuses_arguments_of_the_wrong_type(
    call: Callable[[], object], message: str
) -> None:
    with pytest.raises(TilelayError, match=message):
        call()


@pytest.mark.parametrize(
    ("call", "words", "kind"),
    [
        (lambda: Edge("a"), "edge 'a', expected 0-5 (a whole number)", TypeError),  # type: ignore[arg-type]
        (lambda: Edge(True), "edge True, expected 0-5", TypeError),
        (lambda: Edge(7), "edge 7, expected 0-5", ValueError),
        (lambda: NodeRef(-1), "node reference _-1", ValueError),
        (lambda: Revenue("x"), "a revenue must be a whole number, not str 'x'", TypeError),  # type: ignore[arg-type]
        (
            lambda: Revenue(10, (("yellow", 20),)),
            "a revenue by phase has no value of its own",
            ValueError,
        ),
        (
            lambda: Revenue(0, (("yellow", "20"),)),  # type: ignore[arg-type]
            "a phase revenue must be a (phase name",
            TypeError,
        ),
        (
            lambda: Node("city"),  # type: ignore[arg-type]
            "a node's kind must be a NodeKind (NodeKind.CITY, …), not str 'city'",
            TypeError,
        ),
        (lambda: Node(NodeKind.CITY, 20), "a node's revenue must be a Revenue or None", TypeError),  # type: ignore[arg-type]
        (
            lambda: Node(NodeKind.CITY, slots=-1),
            "a node's slots must be at least 0, not -1",
            ValueError,
        ),
        (
            lambda: Node(NodeKind.CITY, visit_cost=-3),
            "a node's visit_cost must be at least 0",
            ValueError,
        ),
        (
            lambda: Node(NodeKind.CITY, slots="2"),  # type: ignore[arg-type]
            "a node's slots must be a whole number",
            TypeError,
        ),
        (lambda: Node(NodeKind.CITY, loc="3"), "a node's loc must be a Loc or None", TypeError),  # type: ignore[arg-type]
        (lambda: Node(NodeKind.CITY, groups=["a"]), "a node's groups must be a tuple", TypeError),  # type: ignore[arg-type]
        (lambda: Path(Edge(0), 3), "a path's end b must be an Edge or a NodeRef", TypeError),  # type: ignore[arg-type]
        (
            lambda: Path(Edge(0), Edge(1), track="narrow"),  # type: ignore[arg-type]
            "a path's track must be a Track",
            TypeError,
        ),
        (lambda: tilelay.Label(None), "a label's text must be text", TypeError),  # type: ignore[arg-type]
        (lambda: Stub(6), "stub at 6, expected 0-5", ValueError),
        (lambda: tilelay.Border(9), "border at 9, expected 0-5", ValueError),
        (lambda: Tile(color="yellow"), "the colour must be a Color", TypeError),  # type: ignore[arg-type]
        (lambda: Tile(nodes=[Node(NodeKind.CITY)]), "nodes must be a tuple of Nodes", TypeError),  # type: ignore[arg-type]
        (lambda: Tile(paths=(Edge(0),)), "paths must be a tuple of Paths", TypeError),  # type: ignore[arg-type]
    ],
)
def test_the_model_refuses_what_no_format_can_hold(
    call: Callable[[], object], words: str, kind: type[Exception]
) -> None:
    """The constructors check types and the values any format can mean: a TilelayError
    naming the field, a TypeError for a wrong type and a ValueError for a wrong value."""
    with pytest.raises(TileModelError) as info:
        call()
    assert words in str(info.value)
    assert isinstance(info.value, kind)


@pytest.mark.parametrize(
    ("call", "words", "kind"),
    [
        (lambda: Color.parse("nope"), "unknown colour 'nope': expected one of white", ValueError),
        (
            lambda: tilelay.Color("nope"),
            "'nope' is not a colour: expected one of white",
            ValueError,
        ),
        (
            lambda: tilelay.Layout("hex"),
            "'hex' is not a hex layout: expected flat or pointy",
            ValueError,
        ),
        (lambda: NodeKind("castle"), "'castle' is not a node kind", ValueError),
        (lambda: Track("rail"), "'rail' is not a track gauge", ValueError),
        (lambda: StopRoute("maybe"), "'maybe' is not a route rule", ValueError),
        (
            lambda: tilelay.get_tile("57").same_topology_up_to_rotation("59"),  # type: ignore[arg-type]
            "compares with a Tile, not str '59' (tilelay.get_tile('59') gives the tile",
            TypeError,
        ),
        (
            lambda: tilelay.get_tile("57").same_topology_up_to_rotation(None),  # type: ignore[arg-type]
            "compares with a Tile, not NoneType None",
            TypeError,
        ),
        (lambda: tilelay.get_tile("57").same_topology(3), "compares with a Tile", TypeError),  # type: ignore[arg-type]
        (lambda: tilelay.get_tile("57").rotations_matching(3), "compares with a Tile", TypeError),  # type: ignore[arg-type]
    ],
)
def test_the_public_api_raises_tilelay_errors(
    call: Callable[[], object], words: str, kind: type[Exception]
) -> None:
    """Enums and the README's topology methods raise TilelayError in words (they raised a
    bare ValueError, or an AttributeError for a tile name); still a ValueError or TypeError,
    so ``except ValueError`` keeps working."""
    with pytest.raises(TilelayError) as info:
        call()
    assert words in str(info.value)
    assert isinstance(info.value, kind)
    assert Color("yellow") is Color.YELLOW and Color.parse("greenbrown") == (
        Color.GREEN,
        Color.BROWN,
    )

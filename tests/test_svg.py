"""Tests of tilelay.svg: the geometry of what is drawn, not only that it parses."""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilelay import dsl
from tilelay.catalogue import get_tile, tile_names
from tilelay.hexgeo import (
    APOTHEM,
    Layout,
    Loc,
    corner,
    edge_angle,
    edge_midpoint,
    loc_point,
    location_point,
)
from tilelay.svg import UNIT, map_svg, tile_svg, tiles_svg
from tilelay.svg.geometry import SLOT_R
from tilelay.tile import Color, Edge, Node, NodeKind, NodeRef, Path, Revenue, Tile, Track

NS = "{http://www.w3.org/2000/svg}"
NUM = re.compile(r"-?\d+(?:\.\d+)?")


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def find(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(NS + tag) if cls in (e.get("class") or "").split()]


def nums(text: str) -> list[float]:
    return [float(x) for x in NUM.findall(text)]


def translate(el: ET.Element) -> tuple[float, float]:
    m = re.search(r"translate\(([-\d.]+),([-\d.]+)\)", el.get("transform") or "")
    assert m, el.attrib
    return float(m.group(1)), float(m.group(2))


def scaled_mid(edge: int, layout: Layout = Layout.FLAT) -> tuple[float, float]:
    x, y = edge_midpoint(edge, layout)
    return x * UNIT, y * UNIT


def close(p: tuple[float, float], q: tuple[float, float], tol: float = 0.02) -> bool:
    return math.hypot(p[0] - q[0], p[1] - q[1]) <= tol


def tracks(svg: str) -> list[ET.Element]:
    return [e for e in parse(svg).iter() if "track" in (e.get("class") or "").split()]


def code_tile(code: str, color: str = "yellow", name: str = "t") -> Tile:
    return dsl.parse(code, name=name, color=color)


# ------------------------------------------------------------------- track geometry


def test_straight_track_runs_through_centre() -> None:
    (path,) = tracks(tile_svg(get_tile("9")))
    assert (path.get("data-a"), path.get("data-b")) == ("0", "3")
    d = path.get("d") or ""
    assert "L" in d and "A" not in d
    x0, y0, x1, y1 = nums(d)
    assert close((x0, y0), scaled_mid(0)) and close((x1, y1), scaled_mid(3))
    # the centre lies on the segment
    assert abs(x0 * y1 - x1 * y0) < 0.5 and min(y0, y1) < 0 < max(y0, y1)


@pytest.mark.parametrize(("name", "radius"), [("7", 50.0), ("8", 150.0)])
def test_curves_are_arcs_of_the_standard_radius(name: str, radius: float) -> None:
    (path,) = tracks(tile_svg(get_tile(name)))
    d = path.get("d") or ""
    m = re.fullmatch(r"M([-\d.]+),([-\d.]+)A([-\d.]+),([-\d.]+) 0 0 ([01]) ([-\d.]+),([-\d.]+)", d)
    assert m, d
    x0, y0, r1, r2, _, x1, y1 = (float(g) for g in m.groups())
    assert r1 == r2 == pytest.approx(radius, abs=0.02)
    a, b = int(path.get("data-a") or 0), int(path.get("data-b") or 0)
    assert close((x0, y0), scaled_mid(a)) and close((x1, y1), scaled_mid(b))


def test_sharp_curve_bends_around_its_corner() -> None:
    # tile 7 joins edges 0 and 1: the arc's centre is their shared corner, so the arc stays
    # on the corner's side (its middle is nearer the corner than the chord's middle is)
    (path,) = tracks(tile_svg(get_tile("7")))
    x0, y0, _, _, _, _, _, x1, y1 = nums(path.get("d") or "")
    cx, cy = (math.cos(math.radians(120)) * UNIT, math.sin(math.radians(120)) * UNIT)
    assert math.hypot(x0 - cx, y0 - cy) == pytest.approx(50, abs=0.1)
    assert math.hypot(x1 - cx, y1 - cy) == pytest.approx(50, abs=0.1)


@pytest.mark.parametrize("rotation", range(6))
def test_rotation_moves_edges_as_the_layout_says(rotation: int) -> None:
    for layout in Layout:
        svg = tile_svg(get_tile("9", rotation=rotation), layout=layout)
        root = parse(svg)
        (tile_g,) = find(root, "g", "tile")
        assert tile_g.get("data-rotation") == str(rotation)
        (path,) = tracks(svg)
        a, b = int(path.get("data-a") or 0), int(path.get("data-b") or 0)
        assert {a, b} == {rotation % 6, (3 + rotation) % 6}
        x0, y0, x1, y1 = nums(path.get("d") or "")
        assert close((x0, y0), scaled_mid(a, layout)) and close((x1, y1), scaled_mid(b, layout))


def test_pointy_edge_zero_is_lower_left() -> None:
    (path,) = tracks(tile_svg(code_tile("path=a:0,b:3"), layout=Layout.POINTY))
    x0, y0, _, _ = nums(path.get("d") or "")
    assert x0 < 0 and y0 > 0  # lower left on screen (y down)


def test_edge_to_city_paths_end_at_the_city() -> None:
    svg = tile_svg(get_tile("57"))
    paths = tracks(svg)
    assert [(p.get("data-a"), p.get("data-b")) for p in paths] == [("0", "_0"), ("_0", "3")]
    for p in paths:
        pts = nums(p.get("d") or "")
        ends = [(pts[0], pts[1]), (pts[-2], pts[-1])]
        assert any(close(e, (0.0, 0.0)) for e in ends)


def test_lanes_are_parallel_and_evenly_spaced() -> None:
    paths = tracks(tile_svg(code_tile("path=a:0,b:3,lanes:3", color="gray")))
    assert len(paths) == 3
    xs = []
    for p in paths:
        x0, _, x1, _ = nums(p.get("d") or "")
        assert x0 == pytest.approx(x1)  # vertical: parallel lanes
        xs.append(x0)
    xs.sort()
    assert xs[1] - xs[0] == pytest.approx(xs[2] - xs[1]) and xs[1] - xs[0] > 10
    assert xs[1] == pytest.approx(0.0, abs=0.01)


def test_lane_index_zero_is_most_clockwise() -> None:
    # on a flat hex edge 0 is the bottom; clockwise along it runs right to left
    t = Tile(name="l", paths=(Path(Edge(0), Edge(3), a_lane=(2, 0), b_lane=(2, 1)),))
    x0 = nums(tracks(tile_svg(t))[0].get("d") or "")[0]
    assert x0 < 0


def test_crossing_track_is_drawn_with_a_gap() -> None:
    root = parse(tile_svg(get_tile("16")))
    gaps = find(root, "path", "gap")
    paths = find(root, "path", "track")
    assert len(gaps) == 1 and len(paths) == 2
    # the gap lies under the second track (same geometry, tile colour, wider)
    assert gaps[0].get("d") == paths[1].get("d")
    assert gaps[0].get("stroke") == "#71bf44"
    assert float(gaps[0].get("stroke-width") or 0) > float(paths[1].get("stroke-width") or 0)
    # non-crossing track gets no gap
    assert not find(parse(tile_svg(get_tile("23"))), "path", "gap")


def test_over_path_gets_a_gap_even_without_crossing() -> None:
    t = Tile(name="o", paths=(Path(Edge(0), Edge(3)), Path(Edge(1), Edge(2), over=True)))
    assert len(find(parse(tile_svg(t)), "path", "gap")) == 1


def test_track_kinds_are_drawn_distinctly() -> None:
    def kinds(track: Track) -> tuple[list[str], ET.Element]:
        t = Tile(name="k", paths=(Path(Edge(0), Edge(3), track=track),))
        root = parse(tile_svg(t))
        cls = [e.get("class") or "" for e in root.iter(NS + "path")]
        return cls, find(root, "path", "track")[0]

    cls, broad = kinds(Track.BROAD)
    assert cls == ["track"] and broad.get("stroke-dasharray") is None
    cls, narrow = kinds(Track.NARROW)
    assert cls == ["track-base", "track"] and narrow.get("stroke-dasharray")
    assert narrow.get("data-track") == "narrow"
    cls, ferry = kinds(Track.FERRY)
    assert cls == ["track-base", "track"] and ferry.get("stroke") != "#000"
    cls, _ = kinds(Track.TUNNEL)
    assert cls == ["ties", "track"]
    cls, _ = kinds(Track.DUAL)
    assert cls == ["track", "track-inner"]


def test_offboard_track_is_tapered_towards_the_centre() -> None:
    t = code_tile(
        "offboard=revenue:yellow_40|green_50|brown_60|gray_80,groups:Pittsburgh;"
        "path=a:0,b:_0;border=edge:1",
        color="red",
    )
    root = parse(tile_svg(t))
    (poly,) = find(root, "polygon", "terminal")
    pts = nums(poly.get("points") or "")
    xy = list(zip(pts[::2], pts[1::2], strict=True))
    assert len(xy) == 5
    tip = min(xy, key=lambda p: math.hypot(*p))
    assert tip[0] == pytest.approx(0, abs=0.01) and 0 < tip[1] < APOTHEM * UNIT - 20
    # base on the bottom edge
    assert sum(1 for p in xy if p[1] == pytest.approx(APOTHEM * UNIT, abs=0.02)) == 2


# ---------------------------------------------------------------------- nodes


@pytest.mark.parametrize(("name", "slots"), [("57", 1), ("14", 2), ("105", 3), ("130", 4)])
def test_city_slot_count(name: str, slots: int) -> None:
    root = parse(tile_svg(get_tile(name)))
    (city,) = find(root, "g", "city")
    assert city.get("data-slots") == str(slots)
    assert len(find(city, "circle", "slot")) == slots


def test_three_slot_city_is_a_triangle_and_four_a_square() -> None:
    def centres(name: str) -> list[tuple[float, float]]:
        (city,) = find(parse(tile_svg(get_tile(name))), "g", "city")
        return [
            (float(c.get("cx") or 0), float(c.get("cy") or 0)) for c in city.iter(NS + "circle")
        ]

    tri = centres("105")
    sides = sorted(math.dist(tri[i], tri[(i + 1) % 3]) for i in range(3))
    assert sides[0] == pytest.approx(sides[2], abs=0.05) and sides[0] == pytest.approx(50, abs=0.1)
    sq = centres("130")
    assert sorted({round(x) for x, _ in sq}) == [-25, 25] and sorted({round(y) for _, y in sq}) == [
        -25,
        25,
    ]


def test_two_city_tile_spreads_cities_towards_their_exits() -> None:
    root = parse(tile_svg(get_tile("59")))  # OO: _0 to edge 0, _1 to edge 2
    cities = find(root, "g", "city")
    assert len(cities) == 2
    p0, p1 = (translate(c) for c in cities)
    assert math.dist(p0, p1) >= 2 * 27
    assert p0[1] > 20  # towards edge 0, the bottom
    mid2 = scaled_mid(2)
    assert math.dist(p1, mid2) < math.dist((0, 0), mid2)


@pytest.mark.parametrize(
    "name", ["67", "68", "35", "36", "37", "18Chesapeake:X3", "18Chesapeake:X5"]
)
def test_cities_on_crossing_or_meeting_track_stay_apart(name: str) -> None:
    # two cities on straight track through the hex, or on curves that cross: each sits along
    # its own track, clear of the other (they were drawn on top of each other)
    from tilelay.games import get_tile as any_tile

    root = parse(tile_svg(any_tile(name)))
    cities = find(root, "g", "city")
    assert len(cities) == 2
    p0, p1 = (translate(c) for c in cities)
    assert math.dist(p0, p1) >= 2 * SLOT_R  # the circles do not overlap


def test_city_locs_are_honoured() -> None:
    root = parse(tile_svg(get_tile("54")))  # NY: cities at loc 0.5 and 2.5
    for city, loc in zip(find(root, "g", "city"), ("0.5", "2.5"), strict=True):
        x, y = loc_point(Loc("corner", float(loc)))
        assert close(translate(city), (x * UNIT, y * UNIT))


def test_seed_000_location_places_a_node() -> None:
    t = Tile(
        name="x",
        color=Color.YELLOW,
        nodes=(Node(NodeKind.CITY, Revenue(20), slots=1, loc=Loc("location", 12)),),
        paths=(Path(Edge(0), NodeRef(0)),),
    )
    (city,) = find(parse(tile_svg(t)), "g", "city")
    x, y = location_point(12)
    assert close(translate(city), (x * UNIT, y * UNIT))


def test_towns_bars_and_dots() -> None:
    root = parse(tile_svg(get_tile("1")))
    towns = find(root, "g", "town")
    assert [t.get("data-style") for t in towns] == ["rect", "rect"]
    # the two towns sit on their two curves, apart from each other and off the centre
    a, b = (translate(t) for t in towns)
    assert math.dist(a, b) > 30 and math.hypot(*a) > 10 and math.hypot(*b) > 10
    dots = find(parse(tile_svg(code_tile("town=revenue:0;town=revenue:0", "white"))), "g", "town")
    assert [t.get("data-style") for t in dots] == ["dot", "dot"]


def test_junction_paths_meet_in_the_centre() -> None:
    for p in tracks(tile_svg(get_tile("81"))):
        pts = nums(p.get("d") or "")
        assert close((pts[-2], pts[-1]), (0.0, 0.0))


# ------------------------------------------------------------------ revenue/marks


def test_revenue_is_placed_off_the_track_and_city() -> None:
    root = parse(tile_svg(get_tile("57")))
    (rev,) = find(root, "g", "revenue")
    assert rev.get("data-values") == "20"
    x, y = translate(rev)
    assert math.hypot(x, y) >= 25 + 15  # outside the city circle
    assert abs(x) > 15 + 4  # clear of the vertical track x = 0
    assert [t.text for t in rev.iter(NS + "text")] == ["20"]


def test_same_revenue_on_several_cities_is_shown_once() -> None:
    assert len(find(parse(tile_svg(get_tile("59"))), "g", "revenue")) == 1
    t = code_tile("city=revenue:20;city=revenue:30;path=a:0,b:_0;path=a:3,b:_1", "green")
    assert len(find(parse(tile_svg(t)), "g", "revenue")) == 2


@pytest.mark.parametrize(
    ("layout", "shape", "count"),
    [
        ("circle", "circle", 3),
        ("vertical", "rect", 3),
        ("horizontal", "rect", 3),
        ("split", "rect", 4),
    ],
)
def test_phase_revenue_layouts(layout: str, shape: str, count: int) -> None:
    rev = Revenue(phases=(("1", 30), ("4", 40), ("6", 50)))
    t = Tile(
        name="off",
        nodes=(Node(NodeKind.OFFBOARD, rev, revenue_layout=layout),),
        paths=(Path(Edge(0), NodeRef(0), terminal=1),),
    )
    (g,) = find(parse(tile_svg(t)), "g", "revenue")
    assert g.get("data-values") == "30|40|50" and g.get("data-layout") == layout
    assert len(list(g.iter(NS + shape))) == count
    assert [e.text for e in g.iter(NS + "text")] == ["30", "40", "50"]
    if layout == "vertical":
        ys = [float(r.get("y") or 0) for r in g.iter(NS + "rect")]
        assert ys == sorted(ys) and len(set(ys)) == 3
    if layout == "horizontal":
        xs = [float(r.get("x") or 0) for r in g.iter(NS + "rect")]
        assert xs == sorted(xs) and len(set(xs)) == 3


def test_revenue_loc_is_honoured() -> None:
    t = Tile(
        name="r",
        nodes=(Node(NodeKind.CITY, Revenue(30), slots=1, revenue_loc=Loc("location", 17)),),
        paths=(Path(Edge(0), NodeRef(0)),),
    )
    (g,) = find(parse(tile_svg(t)), "g", "revenue")
    x, y = location_point(17)
    assert close(translate(g), (x * UNIT, y * UNIT))


def test_hidden_and_zero_revenues_are_not_drawn() -> None:
    t = code_tile("city=revenue:20,hide:1;town=revenue:0;path=a:0,b:_0", "yellow")
    assert not find(parse(tile_svg(t)), "g", "revenue")


def test_label_terrain_borders_and_number() -> None:
    t = code_tile(
        "city=revenue:30;city=revenue:30;path=a:1,b:_0;path=a:4,b:_1;label=OO;"
        "upgrade=cost:40,terrain:water;border=edge:2,type:mountain,cost:20",
        "white",
        name="H6",
    )
    root = parse(tile_svg(t))
    (label,) = find(root, "text", "label")
    assert label.text == "OO"
    (up,) = find(root, "g", "upgrade")
    assert up.get("data-cost") == "40" and up.get("data-terrain") == "water"
    assert find(up, "path", "water")
    (border,) = find(root, "line", "border")
    assert border.get("data-edge") == "2" and border.get("data-type") == "mountain"
    (number,) = find(root, "text", "tile-number")
    assert number.text == "H6"
    assert not find(parse(tile_svg(t, show_number=False)), "text", "tile-number")


def test_label_avoids_track() -> None:
    root = parse(tile_svg(get_tile("53")))
    (label,) = find(root, "text", "label")
    x, y = float(label.get("x") or 0), float(label.get("y") or 0)
    for e in (0, 2, 4):  # the straight tracks from the centre to edges 0, 2, 4
        mx, my = scaled_mid(e)
        t = max(0.0, min(1.0, (x * mx + y * my) / (mx * mx + my * my)))
        assert math.hypot(x - mx * t, y - my * t) > 12


def test_location_names() -> None:
    t57 = get_tile("57")
    names = find(parse(tile_svg(t57, name="Tokushima")), "text", "location-name")
    assert [n.text for n in names] == ["Tokushima"]
    # not on tiles without stops, and never over a preprinted name
    assert not find(parse(tile_svg(get_tile("9"), name="X")), "text", "location-name")
    own = t57.with_location_name("Kouchi")
    assert [n.text for n in find(parse(tile_svg(own, name="X")), "text", "location-name")] == [
        "Kouchi"
    ]


def test_text_is_escaped() -> None:
    t = code_tile("city=revenue:20;path=a:0,b:_0", name='A<&>"').with_location_name("Q&A <x>")
    svg = tile_svg(t)
    root = parse(svg)  # would fail on bad escaping
    assert find(root, "g", "tile")[0].get("data-tile") == 'A<&>"'
    assert find(root, "text", "location-name")[0].text == "Q&A <x>"


def test_stripes_frames_icons_and_grid() -> None:
    t = code_tile("frame=color:red,color2:blue;icon=image:port", "greenbrown")
    root = parse(tile_svg(t, grid=True))
    assert find(root, "polygon", "stripe")
    assert find(root, "polygon", "frame") and find(root, "polygon", "frame2")
    (icon,) = find(root, "g", "icon")
    assert icon.get("data-image") == "port"
    assert len(find(root, "text", "region-number")) == 24


# ------------------------------------------------------------------- documents


def test_size_and_fragment() -> None:
    t = get_tile("57")
    root = parse(tile_svg(t, size=50))
    assert float(root.get("width") or 0) == pytest.approx(100)
    assert float(root.get("height") or 0) == pytest.approx(100 * APOTHEM, abs=0.01)
    proot = parse(tile_svg(t, layout=Layout.POINTY, size=50))
    assert float(proot.get("height") or 0) == pytest.approx(100)
    frag = tile_svg(t, size=50, standalone=False)
    assert frag.startswith('<g transform="scale(0.5)">')
    assert tile_svg(t, size=100, standalone=False).startswith('<g class="tile"')


def test_output_is_byte_stable() -> None:
    t = get_tile("54")
    a = tile_svg(t, size=77.7)
    from tilelay import svg as mod

    mod.clear_caches()
    assert tile_svg(t, size=77.7) == a
    assert not re.search(r"\d\.\d{3}", a)


def test_sheet_has_one_cell_and_caption_per_tile() -> None:
    tiles = [get_tile("57"), get_tile("9", rotation=2), get_tile("59")]
    root = parse(tiles_svg(tiles, columns=2, size=60))
    assert len(find(root, "g", "tile")) == 3
    assert [c.text for c in find(root, "text", "caption")] == ["57", "9 r2", "59"]
    cells = [translate(c) for c in find(root, "g", "sheet-cell")]
    assert cells[0][1] == cells[1][1] < cells[2][1]


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(tile_names()), st.integers(0, 5), st.sampled_from(list(Layout)))
def test_every_track_leaves_by_its_edges(name: str, rotation: int, layout: Layout) -> None:
    tile = get_tile(name, rotation=rotation)
    svg = tile_svg(tile, layout=layout)
    root = parse(svg)
    for el in root.iter():
        if "track" not in (el.get("class") or "").split() or el.tag != NS + "path":
            continue
        pts = nums(el.get("d") or "")
        start, end = (pts[0], pts[1]), (pts[-2], pts[-1])
        for attr, pt in (("data-a", start), ("data-b", end)):
            v = el.get(attr) or ""
            if v.isdigit():  # an edge: the point lies on that edge's line
                mx, my = scaled_mid(int(v), layout)
                dist = (pt[0] * mx + pt[1] * my) / math.hypot(mx, my)
                assert dist == pytest.approx(APOTHEM * UNIT, abs=0.05)


# ------------------------------------------------------------------------- maps


def test_map_places_every_hex_with_coordinates() -> None:
    games = pytest.importorskip("tilelay.games")
    game = games.load_game("1889")
    root = parse(map_svg(game, size=40))
    hexes = find(root, "g", "hex")
    assert len(hexes) == len(game.hexes)
    from tilelay.hexgeo import hex_center

    for h in hexes[:20]:
        coord = h.get("data-coord") or ""
        col, row = game.coord_xy(coord)
        assert close(translate(h), hex_center(col, row, game.layout, 40))
    coords = {c.text for c in find(root, "text", "coord")}
    assert {"A", "L", "1", "14"} <= coords
    names = {n.text for n in find(root, "text", "location-name")}
    assert "Tokushima" in names


def test_map_with_board_draws_laid_tiles() -> None:
    games = pytest.importorskip("tilelay.games")
    board_mod = pytest.importorskip("tilelay.board")
    game = games.load_game("1889")
    board = board_mod.Board(game).lay("K8", get_tile("57"), rotation=1)
    root = parse(map_svg(game, board=board, size=30))
    (k8,) = [h for h in find(root, "g", "hex") if h.get("data-coord") == "K8"]
    (tile_g,) = find(k8, "g", "tile")
    assert tile_g.get("data-tile") == "57" and tile_g.get("data-rotation") == "1"
    assert [n.text for n in find(k8, "text", "location-name")] == ["Tokushima"]


# ------------------------------------------- the rest of the engine's tile language


def corner_pt(vertex: int, layout: Layout = Layout.FLAT) -> tuple[float, float]:
    """The engine's corner ``vertex`` (0: where edge 5 meets edge 0) in tile units."""
    x, y = corner((vertex - 1) % 6, layout)
    return x * UNIT, y * UNIT


def test_thin_and_future_track_are_thin_and_dashed() -> None:
    t = code_tile("path=a:0,b:3,track:thin;path=a:1,b:4,track:future", "blue")
    thin, future = tracks(tile_svg(t))
    assert (thin.get("data-track"), thin.get("stroke-width")) == ("thin", "2")
    assert thin.get("stroke-dasharray") == "12" and thin.get("stroke") == "#000"
    assert (future.get("data-track"), future.get("stroke-width")) == ("future", "6")
    assert future.get("stroke-dasharray") == "9 3" and future.get("stroke") == "#888"
    x0, y0, x1, y1 = nums(thin.get("d") or "")
    assert close((x0, y0), scaled_mid(0)) and close((x1, y1), scaled_mid(3))


@pytest.mark.parametrize("layout", [Layout.FLAT, Layout.POINTY])
def test_stub_runs_from_its_edge_into_the_hex(layout: Layout) -> None:
    t = code_tile("city=revenue:0;stub=edge:1", "white").rotated(2)
    (stub,) = find(parse(tile_svg(t, layout=layout)), "path", "stub")
    assert stub.get("data-edge") == "3"
    x0, y0, x1, y1 = nums(stub.get("d") or "")
    assert close((x0, y0), scaled_mid(3, layout))
    assert math.hypot(x1 - x0, y1 - y0) == pytest.approx(22, abs=0.02)
    assert math.hypot(x1, y1) == pytest.approx(APOTHEM * UNIT - 22, abs=0.02)  # inwards
    assert not tracks(tile_svg(t, layout=layout))  # a stub is not track


def test_halt_is_grey_with_its_symbol_instead_of_a_revenue() -> None:
    t = code_tile("halt=symbol:£,revenue:20;path=a:0,b:_0;path=a:3,b:_0", "yellow")
    root = parse(tile_svg(t))
    (halt,) = find(root, "g", "halt")
    assert "town" in (halt.get("class") or "").split() and halt.get("data-symbol") == "£"
    (bar,) = halt.iter(NS + "rect")
    assert bar.get("fill") == "#808080" and bar.get("stroke") == "#000"
    (symbol,) = find(root, "g", "halt-symbol")
    assert symbol.get("data-node") == "_0" and "".join(symbol.itertext()) == "£"
    assert math.dist(translate(symbol), translate(halt)) < 45
    assert not find(root, "g", "revenue")


def test_boomtown_has_a_dashed_ring() -> None:
    t = code_tile("town=revenue:10,boom:1,style:dot;path=a:_0,b:0;path=a:_0,b:1", "yellow")
    (town,) = find(parse(tile_svg(t)), "g", "town")
    (ring,) = find(town, "circle", "boom")
    assert ring.get("r") == "25" and ring.get("stroke-dasharray") == "6"
    city = code_tile("city=revenue:20,slots:2,boom:1;path=a:0,b:_0", "green")
    assert len(find(parse(tile_svg(city)), "circle", "boom")) == 2  # one in each slot


def test_city_without_slots_and_outlined_city() -> None:
    port = code_tile("city=revenue:yellow_30|green_40,slots:0;path=a:0,b:_0,terminal:1", "blue")
    root = parse(tile_svg(port))
    (city,) = find(root, "g", "city")
    assert city.get("data-slots") == "0" and not list(city)
    assert find(root, "g", "revenue")[0].get("data-values") == "30|40"
    outline = code_tile("city=revenue:0,outline:1", "white")
    (slot,) = find(parse(tile_svg(outline)), "circle", "slot")
    assert slot.get("fill") == "none" and slot.get("stroke") == "#000"


def test_mountain_pass_is_a_triangle_round_its_city() -> None:
    t = code_tile("pass=revenue:0,size:2,color:brown;path=a:0,b:_0;path=a:3,b:_0", "white")
    (city,) = find(parse(tile_svg(t)), "g", "city")
    (tri,) = find(city, "polygon", "pass")
    pts = nums(tri.get("points") or "")
    corners_ = list(zip(pts[::2], pts[1::2], strict=True))
    assert [math.hypot(*p) for p in corners_] == pytest.approx([48.0] * 3, abs=0.02)
    assert min(y for _, y in corners_) == pytest.approx(-48.0, abs=0.02)  # pointing up
    assert tri.get("fill") == "#cb7745"


@pytest.mark.parametrize("layout", [Layout.FLAT, Layout.POINTY])
def test_partition_runs_between_its_corners(layout: Layout) -> None:
    t = code_tile("partition=a:2,b:5,type:divider", "blue")
    (line,) = find(parse(tile_svg(t, layout=layout)), "path", "partition")
    assert (line.get("data-a"), line.get("data-b"), line.get("data-type")) == ("2", "5", "divider")
    assert line.get("stroke") == "#000" and line.get("stroke-dasharray") is None
    p = nums(line.get("d") or "")
    a, b = corner_pt(2, layout), corner_pt(5, layout)
    assert close((p[0], p[1]), a) and close((p[-2], p[-1]), b)  # corner to corner
    # a sign pulls an end a fifth of the way to the next corner; a length stops the line
    # part of the way
    half = code_tile("partition=a:0+,b:3,type:province,length:0.5", "white")
    (line,) = find(parse(tile_svg(half)), "path", "partition")
    assert line.get("stroke-dasharray") == "20 20"
    p = nums(line.get("d") or "")
    c0, c1, end = corner_pt(0), corner_pt(1), corner_pt(3)
    start = (0.8 * c0[0] + 0.2 * c1[0], 0.8 * c0[1] + 0.2 * c1[1])
    assert close((p[0], p[1]), start)
    assert close((p[-2], p[-1]), ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2))
    turned = find(parse(tile_svg(half.rotated(3))), "path", "partition")[0]
    assert nums(turned.get("d") or "")[:2] == pytest.approx([-start[0], -start[1]], abs=0.02)


def test_future_label_is_a_small_hex_of_its_colour() -> None:
    t = code_tile("city=revenue:20;path=a:0,b:_0;future_label=label:S,color:green", "white")
    root = parse(tile_svg(t))
    (fl,) = find(root, "g", "future-label")
    assert (fl.get("data-label"), fl.get("data-color")) == ("S", "green")
    (hexagon,) = fl.iter(NS + "polygon")
    assert hexagon.get("fill") == "#71bf44"
    pts = nums(hexagon.get("points") or "")
    assert [math.hypot(x, y) for x, y in zip(pts[::2], pts[1::2], strict=True)] == pytest.approx(
        [18.0] * 6, abs=0.02
    )
    assert "".join(fl.itertext()) == "S"
    assert math.hypot(*translate(fl)) > 27 + 18  # clear of the city


def test_large_icons_are_big_and_apart() -> None:
    t = code_tile("icon=image:india/cotton,large:1;icon=image:india/ore,large:1;icon=image:port")
    root = parse(tile_svg(t))
    large = find(root, "g", "large")
    assert [i.get("data-image") for i in large] == ["india/cotton", "india/ore"]
    assert all(next(i.iter(NS + "circle")).get("r") == "25" for i in large)
    assert math.dist(translate(large[0]), translate(large[1])) >= 50
    small = [i for i in find(root, "g", "icon") if i not in large]
    assert next(small[0].iter(NS + "circle")).get("r") == "12"


def test_borders_of_the_new_types_and_colours() -> None:
    t = code_tile(
        "border=edge:1,type:divider;border=edge:0,type:province,color:red;"
        "border=edge:3,type:offboard;border=edge:2,type:gauge_change",
        "blue",
    )
    root = parse(tile_svg(t))
    lines = {e.get("data-type"): e for e in find(root, "line", "border")}
    a, b = (corner_pt(1), corner_pt(2))  # edge 1 runs between the engine's corners 1 and 2
    div = lines["divider"]
    got = nums(" ".join(div.get(k) or "" for k in ("x1", "y1", "x2", "y2")))
    assert close((got[0], got[1]), a) and close((got[2], got[3]), b)  # on the edge itself
    assert lines["province"].get("stroke") == "#ec232a"
    assert lines["province"].get("data-color") == "red"
    assert lines["offboard"].get("stroke-dasharray") == "6 4"
    (disc,) = find(root, "circle", "border")
    assert disc.get("data-type") == "gauge_change"
    assert close((float(disc.get("cx") or 0), float(disc.get("cy") or 0)), scaled_mid(2))


def test_revenue_format_and_rows() -> None:
    t = code_tile(
        "offboard=revenue:yellow_30|green_30|brown_40|gray_60,format:+%d,rows:2;path=a:4,b:_0",
        "blue",
    )
    (rev,) = find(parse(tile_svg(t)), "g", "revenue")
    assert (rev.get("data-format"), rev.get("data-rows")) == ("+%d", "2")
    texts = [e.text for e in rev.iter(NS + "text")]
    assert texts == ["+30", "+30", "+40", "+60"]
    boxes = [r for r in rev.iter(NS + "rect") if r.get("fill") != "none"]
    assert len({r.get("y") for r in boxes}) == 2 and len({r.get("x") for r in boxes}) == 2
    single = code_tile("offboard=revenue:20,format:+%s;path=a:0,b:_0", "blue")
    assert [e.text for e in find(parse(tile_svg(single)), "text", "revenue-value")] == ["+20"]


def test_upgrade_size_scales_its_symbols() -> None:
    t = code_tile("upgrade=cost:10,terrain:cow_skull,size:40", "white")
    (up,) = find(parse(tile_svg(t)), "g", "upgrade")
    assert up.get("data-size") == "40"
    assert "scale(2)" in "".join(g.get("transform") or "" for g in up.iter(NS + "g"))


def test_new_colours_and_the_empty_hex() -> None:
    fill = find(parse(tile_svg(code_tile("", "gray40"))), "polygon", "hex-fill")[0]
    assert fill.get("fill") == "#626569"
    root = parse(tile_svg(code_tile("", "empty")))
    (g,) = find(root, "g", "tile")
    assert g.get("data-color") == "empty" and not list(g)


def test_pictograph_labels_name_a_font_that_draws_them() -> None:
    """18USA's coal and oil labels are emoji: the text names Symbola first (cairosvg takes
    the first family only) and loses the variation selectors, which draw as boxes."""
    tile = dsl.parse("city=revenue:20;path=a:0,b:_0;label=⛏️🛢️", name="x", color="yellow")
    svg = tile_svg(tile)
    label = re.search(r'<text class="label"[^>]*font-family="([^"]*)"[^>]*>([^<]*)</text>', svg)
    assert label is not None and label.group(1).startswith("Symbola, ")
    assert label.group(2) == "⛏🛢"
    plain = tile_svg(dsl.parse("city=revenue:20;path=a:0,b:_0;label=OO", name="y"))
    assert "Symbola" not in plain


@pytest.mark.parametrize("slots", [1, 2, 3, 4])
@pytest.mark.parametrize("loc", ["0", "1", "2.5"])
def test_a_city_placed_by_the_edge_stays_inside_the_hex(slots: int, loc: str) -> None:
    """1822's Glasgow: a city of three slots at an edge's loc was drawn across the edge."""
    from tilelay.hexgeo import APOTHEM, Layout
    from tilelay.svg.geometry import layout_nodes, norm

    tile = dsl.parse(f"city=revenue:40,slots:{slots},loc:{loc};path=a:0,b:_0", color="gray")
    (node,) = layout_nodes(tile, Layout.FLAT)
    assert norm(node.pos) + node.extent <= APOTHEM * UNIT
    assert norm(node.pos) > 0  # still towards its edge


def test_a_label_keeps_clear_of_its_city() -> None:
    """1889's K at Kouchi (F9) touched the city beside it: a label keeps 3 px clear."""
    from tilelay.games import load_game
    from tilelay.svg.text import text_width

    svg = tile_svg(load_game("1889").hex_tile("F9"))
    label = re.search(r'<text class="label" x="([-\d.]+)" y="([-\d.]+)" font-size="([\d.]+)"', svg)
    box = re.search(
        r'<rect class="city-box" x="([-\d.]+)" y="([-\d.]+)" width="([\d.]+)" '
        r'height="([\d.]+)"',
        svg,
    )
    assert label is not None and box is not None
    x, y, size = (float(v) for v in label.groups())
    cy = y - size * 0.35  # text_element lowers the baseline to centre the text
    hw, hh = text_width("K", size, True) / 2 + 3.0, size * 0.42
    bx, by, bw, bh = (float(v) for v in box.groups())
    apart = x + hw <= bx or x - hw >= bx + bw or cy + hh <= by or cy - hh >= by + bh
    assert apart, (x, cy, hw, hh, bx, by, bw, bh)


def test_a_dark_phase_s_revenue_is_written_in_white() -> None:
    tile = dsl.parse("offboard=revenue:yellow_30|black_60;path=a:0,b:_0", color="red")
    values = {t.text: t.get("fill") for t in parse(tile_svg(tile)).iter(f"{NS}text") if t.text}
    assert values["30"] == "#000" and values["60"] == "#fff"


def test_icons_show_their_image_s_own_name_and_a_commodity_s_value() -> None:
    code = (
        "city=revenue:20;path=a:0,b:_0;icon=image:1846/meat;icon=image:18_india/opium-100,large:1"
    )
    texts = [t.text for t in parse(tile_svg(dsl.parse(code))).iter(f"{NS}text")]
    assert "me" in texts and "18" not in texts  # not the folder's name
    assert "opi" in texts and "100" in texts


@pytest.mark.parametrize("name", ["55", "56", "69"])
def test_towns_sit_clear_of_the_track_they_are_not_on(name: str) -> None:
    # tile 56's two curves cross at their middles, 69's curve crosses its straight track: a
    # town's bar there would lie on the crossing
    from tilelay.svg.geometry import _through_tracks, layout_nodes

    tile = get_tile(name)
    nodes = layout_nodes(tile, Layout.FLAT)
    for i, node in enumerate(tile.nodes):
        if node.kind is NodeKind.TOWN:
            others = [
                q for owner, pts in _through_tracks(tile, Layout.FLAT) if owner != i for q in pts
            ]
            assert min(math.dist(nodes[i].pos, q) for q in others) >= 20, (name, i)


def test_a_long_label_is_set_smaller_to_stay_inside_the_hex() -> None:
    from tilelay.svg.text import text_width
    from tilelay.svg.tiles import LABEL_WIDTH

    code = "offboard=revenue:yellow_20;path=a:0,b:_0;label=Far West Territory"
    (label,) = find(parse(tile_svg(dsl.parse(code, color="red"))), "text", "label")
    size = float(label.get("font-size", "0"))
    assert size < 24 and text_width("Far West Territory", size, True) <= LABEL_WIDTH + 0.01
    # a short one keeps its size
    (short,) = find(
        parse(tile_svg(dsl.parse(code.replace("Far West Territory", "NY")))), "text", "label"
    )
    assert float(short.get("font-size", "0")) == 30


def _boxes_of(root: ET.Element, cls: str) -> list[tuple[float, float, float, float]]:
    """The pale boxes behind the names of class ``cls`` (x0, y0, x1, y1)."""
    out = []
    for r in find(root, "rect", f"{cls}-bg"):
        x, y = float(r.get("x", "0")), float(r.get("y", "0"))
        out.append((x, y, x + float(r.get("width", "0")), y + float(r.get("height", "0"))))
    return out


def _box_hits_city(box: tuple[float, float, float, float], root: ET.Element) -> bool:
    """Whether a box meets any slot of a city (each slot's circle with its outline)."""
    x0, y0, x1, y1 = box
    for city in find(root, "g", "city"):
        cx, cy = translate(city)
        for slot in find(city, "circle", "slot"):
            px, py = cx + float(slot.get("cx", "0")), cy + float(slot.get("cy", "0"))
            dx = max(x0 - px, 0.0, px - x1)
            dy = max(y0 - py, 0.0, py - y1)
            if math.hypot(dx, dy) < SLOT_R + 1.0:
                return True
    return False


@pytest.mark.usefixtures("engine_games")
def test_a_revenue_sits_beside_a_long_city_not_on_it() -> None:
    """18AL's Meridian (L1): a city of two slots is its box to placement, not a circle round
    it, so the phases' revenue box finds room above it (before, it lay across its end)."""
    from tilelay.games import load_game

    game = load_game("18AL")
    root = parse(tile_svg(game.hex_tile("L1"), layout=Layout(game.layout)))
    (rev,) = find(root, "g", "revenue")
    x, y = translate(rev)
    (city,) = find(root, "g", "city")
    cx, cy = translate(city)
    # the box (two cells of 24 by 20 round its centre) is above or below the city's box
    assert abs(y - cy) >= 27 + 10, (x, y, cx, cy)


def test_placement_sees_a_city_of_two_slots_as_its_box() -> None:
    from tilelay.svg.placement import Placer

    city = (((-25.0, 0.0), (25.0, 0.0)), 27.0)
    placer = Placer(Layout.FLAT, [], [city])
    assert placer.cost((0.0, 45.0), 20.0, 10.0) == 0  # under the box's middle: clear
    assert placer.cost((0.0, 30.0), 20.0, 10.0) > 0  # on its lower side
    assert placer.cost((60.0, 0.0), 10.0, 10.0) > 0  # on its right end
    assert placer.cost((0.0, 0.0), 60.0, 5.0) > 0  # across it, no corner inside
    # a city of four slots is the square round them, inside included
    square = (((-25.0, -25.0), (25.0, -25.0), (25.0, 25.0), (-25.0, 25.0)), 27.0)
    placer = Placer(Layout.FLAT, [], [square])
    assert placer.cost((0.0, 0.0), 5.0, 5.0) > 0
    assert placer.cost((0.0, 70.0), 10.0, 10.0) == 0


@pytest.mark.usefixtures("engine_games")
@pytest.mark.parametrize(
    ("game", "coord"), [("1830", "G19"), ("18Chesapeake", "J4"), ("1867", "D2")]
)
def test_a_name_with_no_room_on_one_line_takes_two_or_a_smaller_size(game: str, coord: str) -> None:
    """New York & Newark (1830 G19) and Philadelphia (18Chesapeake J4) lay over a city, and
    1867's "Timmins ($80 if includes T/M/Q)" ran past the hex: a name that overlaps on one
    line is tried on two and smaller, and the form overlapping least is drawn."""
    from tilelay.games import load_game

    g = load_game(game)
    root = parse(tile_svg(g.hex_tile(coord), layout=Layout(g.layout)))
    (box,) = _boxes_of(root, "location-name")
    assert not _box_hits_city(box, root), box
    lim = APOTHEM * UNIT
    for angle in range(30 if g.layout == "flat" else 0, 360, 60):
        nx, ny = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        far = max(px * nx + py * ny for px in box[::2] for py in box[1::2])
        assert far <= lim, (angle, box)


def test_a_name_that_fits_keeps_one_line_at_its_size() -> None:
    (name,) = find(parse(tile_svg(get_tile("57"), name="Kobe")), "text", "location-name")
    assert name.text == "Kobe" and name.get("font-size") == "13"
    # Tokushima, as wide, would lie on the city or the track: it is set smaller, beside them
    (name,) = find(parse(tile_svg(get_tile("57"), name="Tokushima")), "text", "location-name")
    assert float(name.get("font-size", "0")) < 13


@pytest.mark.usefixtures("engine_games")
def test_names_keep_clear_of_a_border_s_cost() -> None:
    """18 Los Angeles' Cypress (E10): the name lay over the river's cost, which is drawn
    where it is; placement now keeps that spot for it."""
    from tilelay.games import load_game

    game = load_game("18 Los Angeles")
    root = parse(tile_svg(game.hex_tile("E10"), layout=Layout(game.layout)))
    (box,) = _boxes_of(root, "location-name")
    discs = [c for g in find(root, "g", "border-cost") for c in g.iter(NS + "circle")]
    assert discs
    for disc in discs:
        px, py = float(disc.get("cx", "0")), float(disc.get("cy", "0"))
        dx = max(box[0] - px, 0.0, px - box[2])
        dy = max(box[1] - py, 0.0, py - box[3])
        assert math.hypot(dx, dy) >= float(disc.get("r", "0")), (box, px, py)


@pytest.mark.parametrize("layout", [Layout.FLAT, Layout.POINTY])
@pytest.mark.parametrize("name", ["62", "122", "583"])
def test_a_two_slot_city_by_a_corner_stays_inside_the_hex(name: str, layout: Layout) -> None:
    """Tile 62's two cities of two slots each lie by a corner, on a sharp curve: their
    boxes ran out over the hex's edge. Each box now lies along the hex's side, inside it."""
    root = parse(tile_svg(get_tile(name), layout=layout))
    boxes = find(root, "rect", "city-box")
    assert len(boxes) == 2
    for city in find(root, "g", "city"):
        cx, cy = translate(city)
        (box,) = find(city, "rect", "city-box")
        m = re.search(r"rotate\(([-\d.]+)\)", box.get("transform") or "")
        turned = math.radians(float(m.group(1))) if m else 0.0
        x, y = float(box.get("x", "0")), float(box.get("y", "0"))
        w, h, r = (float(box.get(k, "0")) for k in ("width", "height", "rx"))
        for px, py in (
            (x + r, y + r),
            (x + w - r, y + r),
            (x + r, y + h - r),
            (x + w - r, y + h - r),
        ):
            qx = cx + px * math.cos(turned) - py * math.sin(turned)
            qy = cy + px * math.sin(turned) + py * math.cos(turned)
            for e in range(6):
                a = math.radians(edge_angle(e, layout))
                assert qx * math.cos(a) + qy * math.sin(a) + r + 1 <= APOTHEM * UNIT, (e, qx, qy)


@pytest.mark.parametrize("layout", [Layout.FLAT, Layout.POINTY])
@pytest.mark.parametrize("name", ["48", "104", "110", "514", "515", "516"])
def test_many_cities_without_track_go_round_the_centre_apart(name: str, layout: Layout) -> None:
    """GE18XX's six cities with no track of their own (48, 104, 110, 514-516) were drawn in
    a row across the middle, on top of each other: more than three go round the centre."""
    root = parse(tile_svg(get_tile(name), layout=layout))
    centres = [translate(c) for c in find(root, "g", "city")]
    assert len(centres) == 6
    for k, p in enumerate(centres):
        assert all(math.dist(p, q) >= 2 * SLOT_R for q in centres[k + 1 :]), (k, centres)
        for e in range(6):
            a = math.radians(edge_angle(e, layout))
            assert p[0] * math.cos(a) + p[1] * math.sin(a) + SLOT_R <= APOTHEM * UNIT


@pytest.mark.usefixtures("engine_games")
@pytest.mark.parametrize(("game", "tile"), [("18USA", "X10"), ("1846", "298")])
def test_a_label_with_no_room_at_its_size_is_set_smaller_off_the_cities(
    game: str, tile: str
) -> None:
    """18USA's DFW (X10) lay on its city, 1846's Chi (298) on one of its four: a label
    that fits nowhere at its size is tried smaller, and drawn where it overlaps nothing."""
    from tilelay.games import load_game
    from tilelay.svg.text import text_width

    g = load_game(game)
    root = parse(tile_svg(g.tile(tile), layout=Layout(g.layout)))
    (label,) = find(root, "text", "label")
    size = float(label.get("font-size", "0"))
    assert size < 24
    x, y = float(label.get("x", "0")), float(label.get("y", "0")) - size * 0.35
    hw, hh = text_width(label.text or "", size, True) / 2, size * 0.42
    assert not _box_hits_city((x - hw, y - hh, x + hw, y + hh), root)


# ------------------------------------------------------------------ the revenue chart


def _chart(names: list[str], colors: dict[str, str], width: float = 640) -> ET.Element:
    from tilelay.svg.charts import revenue_chart

    series = {
        n: [(10 + i, 100 + 10 * i, 120 + 10 * i), (40 + i, 150, 160)] for i, n in enumerate(names)
    }
    return parse(revenue_chart(series, colors, width=width, last_step=321))


def _dark(color: str) -> bool:
    """Whether ``#rrggbb`` is dark (a casing, an outline): each channel under 0x80."""
    return bool(re.fullmatch(r"#[0-7][0-9a-f][0-7][0-9a-f][0-7][0-9a-f]", color.lower()))


def _series(root: ET.Element, name: str) -> ET.Element:
    (g,) = [g for g in find(root, "g", "series") if g.get("data-corporation") == name]
    return g


@pytest.mark.parametrize("light", ["#ffffff", "#fff", "#FFFFFF", "antiqueWhite", "#fde900", "gold"])
def test_a_light_corporation_is_drawn_over_a_dark_casing_with_an_outlined_swatch(
    light: str,
) -> None:
    """1822's minors are white: their lines and legend swatches were white on white. A light
    colour (by its luminance, whatever its name) has a dark casing under each line, and its
    points and swatch are outlined; a dark or middling colour is drawn as it is."""
    root = _chart(["12", "LNWR", "LBSCR"], {"12": light, "LNWR": "#000", "LBSCR": "#cccc00"})
    g = _series(root, "12")
    assert g.get("data-light") == "1"
    kinds = [e.get("class") for e in g.iter(NS + "polyline")]
    # each line over its casing: the casing first, wider, in a dark colour
    assert kinds == ["casing", "best", "casing", "run"], kinds
    casings = find(g, "polyline", "casing")
    (run,) = find(g, "polyline", "run")
    (best,) = find(g, "polyline", "best")
    assert casings[1].get("points") == run.get("points")
    assert casings[0].get("points") == best.get("points")
    for casing, line in zip(casings, (best, run), strict=True):
        assert float(casing.get("stroke-width", "0")) > float(line.get("stroke-width", "0"))
        assert _dark(casing.get("stroke", ""))
    for point in find(g, "circle", "point"):
        assert _dark(point.get("stroke", ""))
    (entry,) = [e for e in find(root, "g", "legend-entry") if e.get("data-corporation") == "12"]
    (swatch,) = entry.iter(NS + "rect")
    assert swatch.get("fill") == light and _dark(swatch.get("stroke", ""))
    for dark in ("LNWR", "LBSCR"):
        g = _series(root, dark)
        assert g.get("data-light") is None and not find(g, "polyline", "casing")
        assert all(p.get("stroke") is None for p in find(g, "circle", "point"))


def test_a_colour_no_browser_draws_is_drawn_grey() -> None:
    """A corporation's colour that is not a CSS colour (the engine has ``sand`` and
    ``#FFFFFFF``) would be drawn as nothing: it is drawn a dark grey."""
    root = _chart(["A", "B"], {"A": "sand", "B": "#FFFFFFF"})
    for name in ("A", "B"):
        (run,) = find(_series(root, name), "polyline", "run")
        assert run.get("stroke") == "#444444"


#: The names of 18USA's and 1822's corporations and minors, as the chart's legend lists them
_MANY = [
    *["SP", "PRR", "SR", "NYC", "MKT", "UP", "MILW", "MP", "B&O", "C&O", "TP", "N&W"],
    *["KCS", "ATSF", "IC", "GN", "15", "24", "12", "6", "21", "23", "7", "19", "LNWR"],
    *["LBSCR", "CR", "MR", "NBR", "GWR", "LYR", "NER", "28"],
]


def _box(text: ET.Element) -> tuple[float, float]:
    """The left and right of a legend text: at least 0.68 em a character (capitals in Arial
    and DejaVu Sans are 0.56–0.78 em, most about 0.68)."""
    x = float(text.get("x", "0"))
    return x, x + 0.68 * float(text.get("font-size", "0")) * len(text.text or "")


@pytest.mark.parametrize(("count", "width"), [(3, 640), (16, 640), (33, 640), (33, 400)])
def test_the_legend_wraps_onto_rows_the_chart_growing_and_the_key_after_it(
    count: int, width: float
) -> None:
    """18USA's and 1822's legends ran off the chart in one row, the key to the line styles
    printed over their last entries: the legend wraps onto as many rows as it needs, each
    adding to the chart's height, and the key comes after the last entry, overlapping none."""
    root = _chart(_MANY[:count], {}, width)
    # every text of the legend and the key inside the chart, none over another
    texts: dict[float, list[tuple[float, float]]] = {}
    for t in find(root, "text", "legend"):
        left, right = _box(t)
        if t.get("text-anchor") == "end":
            left, right = 2 * left - right, left
        texts.setdefault(float(t.get("y", "0")), []).append((left, right))
    for y, boxes in texts.items():
        boxes.sort()
        assert boxes[0][0] >= 0 and boxes[-1][1] <= width, (y, boxes)
        assert all(a[1] < b[0] for a, b in itertools.pairwise(boxes)), (y, boxes)
        assert y <= float(root.get("height", "0"))
    entries = find(root, "g", "legend-entry")
    assert [e.get("data-corporation") for e in entries] == _MANY[:count]
    rows: dict[int, list[tuple[float, float]]] = {}
    for e in entries:
        (swatch,) = e.iter(NS + "rect")
        (text,) = e.iter(NS + "text")
        left, right = _box(text)
        rows.setdefault(int(e.get("data-row", "-1")), []).append(
            (float(swatch.get("x", "0")), right)
        )
    assert sorted(rows) == list(range(len(rows)))
    if count > 10:
        assert len(rows) > 1
    (key,) = find(root, "g", "key")
    key_texts = list(key.iter(NS + "text"))
    assert [t.text for t in key_texts] == ["run", "best"]
    key_left = min(float(x.get("x1", "0")) for x in key.iter(NS + "line"))
    key_right = _box(key_texts[-1])[1]
    key_y = float(key_texts[0].get("y", "0"))
    last_y = float(next(entries[-1].iter(NS + "text")).get("y", "0"))
    assert key_y >= last_y
    if key_y == last_y:  # on the last row: after its last entry
        rows[len(rows) - 1].append((key_left, key_right))
    for boxes in rows.values():
        for (_, right), (left, _) in itertools.pairwise(boxes):
            assert right < left  # entries (and the key) one after the other, apart
        assert boxes[0][0] >= 0 and boxes[-1][1] <= width
    assert key_right <= width
    # the chart grows a row a further legend row, and everything is inside it
    height = float(root.get("height", "0"))
    assert height == 260 + 16 * (len(rows) - 1 + (key_y > last_y))
    assert root.get("viewBox") == f"0 0 {width:g} {height:g}"
    assert key_y + 5 <= height
    bottom = max(float(t.get("y", "0")) for t in root.iter(NS + "text"))
    assert bottom <= height
    # the plot itself keeps its size
    axis = find(root, "text", "axis-label")[0]
    assert float(axis.get("y", "0")) < float(next(entries[0].iter(NS + "text")).get("y", "0"))


def test_both_axes_have_tick_values() -> None:
    """The x axis ("action") had no values: a few ticks on both, in the plot's range."""
    from tilelay.svg.charts import revenue_chart

    root = parse(revenue_chart({"KO": [(48, 100, 100), (200, 250, 270)]}, {}, last_step=443))
    xs = [int(t.text or "") for t in find(root, "text", "x")]
    ys = [int(t.text or "") for t in find(root, "text", "y")]
    assert xs == [0, 100, 200, 300, 400]
    assert ys[0] == 0 and ys[-1] >= 270 and 3 <= len(ys) <= 7
    # the x values under the plot, in order, under the marks they name
    positions = [float(t.get("x", "0")) for t in find(root, "text", "x")]
    assert positions == sorted(positions) and positions[0] == 44
    axis_y = float(find(root, "text", "axis-label")[0].get("y", "0"))
    assert all(float(t.get("y", "0")) < axis_y for t in find(root, "text", "x"))


def test_light_is_decided_by_luminance() -> None:
    from tilelay.svg.charts import is_light, luminance, rgb

    assert rgb("#abc") == (0xAA, 0xBB, 0xCC) and rgb("#11223380") == (0x11, 0x22, 0x33)
    assert rgb("AntiqueWhite") == (250, 235, 215) and rgb("sand") is None
    assert luminance("white") == 1 and luminance("#000000") == 0
    assert [is_light(c) for c in ("#ffffff", "#f5f5f5", "cyan", "lime", "#fde900")] == [True] * 5
    assert [is_light(c) for c in ("#000", "#cccc00", "#35a7ff", "red", "sand")] == [False] * 5

"""Hex geometry: edge numbering of both layouts, locs, seed-000 locations, regions."""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tilelay.errors import TilelayError
from tilelay.hexgeo import (
    APOTHEM,
    NEIGHBOUR_OFFSETS,
    REGION_COUNT,
    Layout,
    Loc,
    corner,
    edge_midpoint,
    edge_to_xml_side,
    hex_center,
    is_location,
    loc_point,
    location_point,
    parse_loc,
    region_at,
    region_centroid,
    region_polygons,
    rotate_edge,
    rotate_location,
    xml_side_to_edge,
)


def close(p: tuple[float, float], q: tuple[float, float]) -> bool:
    return math.isclose(p[0], q[0], abs_tol=1e-9) and math.isclose(p[1], q[1], abs_tol=1e-9)


def test_flat_edges_start_at_the_bottom_and_go_clockwise() -> None:
    assert close(edge_midpoint(0, Layout.FLAT), (0.0, APOTHEM))  # bottom (y grows down)
    assert close(edge_midpoint(3, Layout.FLAT), (0.0, -APOTHEM))  # top
    x1, y1 = edge_midpoint(1, Layout.FLAT)
    assert x1 < 0 and y1 > 0  # lower left
    x2, y2 = edge_midpoint(2, Layout.FLAT)
    assert x2 < 0 and y2 < 0  # upper left
    x4, y4 = edge_midpoint(4, Layout.FLAT)
    assert x4 > 0 and y4 < 0  # upper right


def test_pointy_edges_start_lower_left() -> None:
    x0, y0 = edge_midpoint(0, Layout.POINTY)
    assert x0 < 0 and y0 > 0
    assert close(edge_midpoint(1, Layout.POINTY), (-APOTHEM, 0.0))  # left
    assert close(edge_midpoint(4, Layout.POINTY), (APOTHEM, 0.0))  # right
    # a pointy hex has a corner at the top
    assert any(close(corner(i, Layout.POINTY), (0.0, -1.0)) for i in range(6))
    # a flat hex has corners left and right
    assert any(close(corner(i, Layout.FLAT), (-1.0, 0.0)) for i in range(6))


def test_corner_lies_between_its_edges() -> None:
    for layout in Layout:
        for i in range(6):
            a, b = edge_midpoint(i, layout), edge_midpoint((i + 1) % 6, layout)
            c = corner(i, layout)
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            # the corner is on the ray from the centre through the midpoint of the two edges
            cross = c[0] * mid[1] - c[1] * mid[0]
            assert math.isclose(cross, 0.0, abs_tol=1e-9) and c[0] * mid[0] + c[1] * mid[1] > 0
            assert math.isclose(math.hypot(*c), 1.0)


@given(st.integers(0, 5), st.integers(-12, 12))
def test_rotation_is_clockwise_modulo_six(edge: int, r: int) -> None:
    assert rotate_edge(edge, r) == (edge + r) % 6
    assert rotate_edge(rotate_edge(edge, r), -r) == edge


def test_parse_loc_forms() -> None:
    assert parse_loc("center") == Loc("center")
    assert parse_loc("2") == Loc("edge", 2)
    assert parse_loc("5.5") == Loc("corner", 5.5)
    assert parse_loc("L12") == Loc("location", 12)
    assert str(parse_loc("1.5")) == "1.5"
    for bad in ("6", "2.25", "x", "L47", "-1", "L"):
        with pytest.raises(ValueError):
            parse_loc(bad)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: parse_loc("9"), "bad loc '9': expected center, an edge 0-5 or a corner"),
        (lambda: parse_loc("L47"), "location 47 out of range"),
        (lambda: parse_loc(9), "a loc is read from text, not int"),  # type: ignore[arg-type]
        (lambda: Layout("hex"), "'hex' is not a hex layout: expected flat or pointy"),
        (lambda: Loc("foo", 3), "a loc's kind is center, edge, corner or location, not 'foo'"),
        (lambda: Loc("edge", 9), "loc: edge 9 is out of range: expected 0-5"),
        (lambda: Loc("edge", 1.5), "loc: edge 1.5 is out of range"),
        (lambda: Loc("corner", 1.25), "loc: corner 1.25 is not a corner"),
        (lambda: Loc("location", 47), "loc: location 47 is out of range"),
        (lambda: Loc("center", 2), "loc: center takes no value"),
        (lambda: Loc("edge", "3"), "a loc's value is a number, not '3'"),  # type: ignore[arg-type]
        (lambda: Loc("edge", True), "a loc's value is a number, not True"),
        (lambda: location_point(47), "location 47 out of range"),
    ],
)
def test_geometry_refuses_bad_values_with_tilelay_errors(
    call: Callable[[], object], words: str
) -> None:
    """A loc no format can mean (Loc('edge', 9) was written loc:9 and read back as 3), a
    layout that is none: a TilelayError that is a ValueError too (``except ValueError``
    keeps working), in words."""
    with pytest.raises(TilelayError, match=re.escape(words)) as info:
        call()
    assert isinstance(info.value, ValueError)


def test_loc_rotation() -> None:
    assert parse_loc("5").rotated(2) == Loc("edge", 1)
    assert parse_loc("5.5").rotated(1) == Loc("corner", 0.5)
    assert parse_loc("center").rotated(3) == Loc("center")
    assert parse_loc("L12").rotated(5) == Loc("location", 17)
    assert parse_loc("L37").rotated(1) == Loc("location", 37)  # near-centre spots stay


def test_loc_points_point_towards_their_edge_or_corner() -> None:
    for layout in Layout:
        for e in range(6):
            p = loc_point(Loc("edge", e), layout)
            m = edge_midpoint(e, layout)
            assert math.isclose(math.atan2(p[1], p[0]), math.atan2(m[1], m[0]), abs_tol=1e-9)
            assert 0 < math.hypot(*p) < APOTHEM
        assert loc_point(Loc("center"), layout) == (0.0, 0.0)


def test_seed_000_locations() -> None:
    # side 0 is the top of a flat hex, and the sides go clockwise
    assert close(location_point(0, Layout.FLAT), (0.0, -APOTHEM))
    assert close(location_point(3, Layout.FLAT), (0.0, APOTHEM))
    # pointy: side 0 on the left, side 3 on the right
    assert close(location_point(0, Layout.POINTY), (-APOTHEM, 0.0))
    assert close(location_point(3, Layout.POINTY), (APOTHEM, 0.0))
    # near corner 12 lies on the line from the top-left corner to the centre (about 11 o'clock)
    x, y = location_point(12, Layout.FLAT)
    assert math.isclose(math.degrees(math.atan2(y, x)) % 360, 240.0)
    # near side / adjacent to side are on the side's axis, inside the hex, in order
    for k in range(6):
        side = location_point(k, Layout.FLAT)
        near = location_point(6 + k, Layout.FLAT)
        adj = location_point(40 + k, Layout.FLAT)
        far = location_point(18 + k, Layout.FLAT)
        angle = math.atan2(side[1], side[0])
        for p in (near, adj, far):
            assert math.isclose(math.atan2(p[1], p[0]), angle, abs_tol=1e-9)
        assert math.hypot(*far) < math.hypot(*near) < math.hypot(*adj) < APOTHEM
    assert location_point(50) == (0.0, 0.0)
    assert location_point(99) == (0.0, 0.0)
    assert not is_location(47) and is_location(45) and is_location(99)
    with pytest.raises(ValueError):
        location_point(46)


@given(st.sampled_from([n for n in range(100) if is_location(n)]), st.integers(0, 5))
def test_rotating_a_location_rotates_its_point(n: int, r: int) -> None:
    moved = rotate_location(n, r)
    if 36 <= n <= 39 or n in (50, 99):
        assert moved == n
        return
    p, q = location_point(n), location_point(moved)
    angle = math.radians(60 * r)
    turned = (
        p[0] * math.cos(angle) - p[1] * math.sin(angle),
        p[0] * math.sin(angle) + p[1] * math.cos(angle),
    )
    assert close(turned, q)


def test_xml_sides_map_to_edges() -> None:
    assert xml_side_to_edge(0, Layout.FLAT) == 3  # top
    assert xml_side_to_edge(3, Layout.FLAT) == 0  # bottom
    assert xml_side_to_edge(0, Layout.POINTY) == 1  # left
    for layout in Layout:
        for k in range(6):
            assert edge_to_xml_side(xml_side_to_edge(k, layout), layout) == k
            side = location_point(k, layout)
            edge = edge_midpoint(xml_side_to_edge(k, layout), layout)
            assert close(side, edge)


def test_regions_tile_the_hex() -> None:
    for layout in Layout:
        tris = region_polygons(layout)
        assert len(tris) == REGION_COUNT
        area = 0.0
        for a, b, c in tris:
            area += abs((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) / 2
        assert math.isclose(area, 3 * math.sqrt(3) / 2, rel_tol=1e-9)  # hexagon of radius 1
        for i in range(REGION_COUNT):
            assert region_at(region_centroid(i, layout), layout) == i
    assert region_at((0.0, 0.0)) is not None
    assert region_at((2.0, 0.0)) is None
    # row by row from the top on a flat hex
    assert region_centroid(0)[1] < region_centroid(5)[1] < region_centroid(12)[1]
    assert region_centroid(12)[1] < region_centroid(19)[1]


def test_neighbour_offsets_point_across_their_edge() -> None:
    for layout in Layout:
        for edge, (dc, dr) in enumerate(NEIGHBOUR_OFFSETS[layout]):
            x, y = hex_center(dc, dr, layout)
            m = edge_midpoint(edge, layout)
            assert math.isclose(x, 2 * m[0], abs_tol=1e-9)
            assert math.isclose(y, 2 * m[1], abs_tol=1e-9)

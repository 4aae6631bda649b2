"""Hex geometry: flat and pointy hexes, edges, corners, named locations and regions.

Everything is computed from geometry on a hex of circumradius 1 centred on the origin, in screen
coordinates (x to the right, y *down*), so any size and rotation places things consistently:
scale the points by the size you draw at.

Edges follow the 18xx.games tile language (seeds 001/002): on a **flat** hex edge 0 is the bottom
edge and the numbers go clockwise (1 lower left, 2 upper left, 3 top, 4 upper right, 5 lower
right); on a **pointy** hex edge 0 is the lower-left edge, then clockwise (1 left, 2 upper left,
3 upper right, 4 right, 5 lower right). Rotating a tile by ``r`` turns it ``60 * r`` degrees
clockwise, so edge ``e`` goes to ``(e + r) % 6``.

A *loc* (the tile language's ``loc`` sub part, see :func:`parse_loc`) is ``center``, an edge
number ``0``–``5`` (a spot towards that edge) or a half number ``0.5``–``5.5`` (towards the corner
where edges ``n`` and ``n + 1`` meet). The numbered locations of seed 000 (``0``–``50`` and
``99``, see :class:`Location`) are written as locs ``L0`` … ``L50``, ``L99``.

Seed 000 numbers the sides of a flat hex from the *top* (side 0) clockwise, and those of a
pointy hex from the left (side 0) clockwise; :func:`xml_side_to_edge` converts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import NoReturn

from tilelay.errors import TileModelError, TileSyntaxError
from tilelay.limits import shown

Point = tuple[float, float]

#: The distance from the centre to the middle of an edge on a hex of circumradius 1.
APOTHEM = math.sqrt(3) / 2


class Layout(StrEnum):
    """Hex orientation: ``flat`` (flat top and bottom) or ``pointy`` (corner at the top)."""

    FLAT = "flat"
    POINTY = "pointy"

    @classmethod
    def _missing_(cls, value: object) -> NoReturn:
        raise TileModelError(
            f"{shown(value)} is not a hex layout: expected {' or '.join(m.value for m in cls)}"
        )


def _offset(layout: Layout) -> float:
    """Degrees added to every angle for the layout (pointy = flat turned 30° clockwise)."""
    return 0.0 if layout is Layout.FLAT else 30.0


def rotate_edge(edge: int, rotation: int) -> int:
    """The edge that ``edge`` moves to when the tile turns ``rotation`` steps clockwise."""
    return (edge + rotation) % 6


def edge_angle(edge: float, layout: Layout = Layout.FLAT) -> float:
    """Screen angle in degrees (0 = right, 90 = down) of the middle of ``edge``.

    Half edges (``0.5`` … ``5.5``) give the angle of the corner between two edges.
    """
    return (90.0 + 60.0 * edge + _offset(layout)) % 360.0


def polar(angle_deg: float, radius: float) -> Point:
    """The point at ``radius`` from the centre in screen direction ``angle_deg``."""
    rad = math.radians(angle_deg)
    return (radius * math.cos(rad), radius * math.sin(rad))


def edge_midpoint(edge: int, layout: Layout = Layout.FLAT) -> Point:
    """The middle of ``edge`` (where track leaves the hex)."""
    return polar(edge_angle(edge, layout), APOTHEM)


def corner(index: int, layout: Layout = Layout.FLAT) -> Point:
    """Corner ``index``: where edge ``index`` meets edge ``index + 1`` (loc ``index.5``)."""
    return polar(edge_angle(index + 0.5, layout), 1.0)


def corners(layout: Layout = Layout.FLAT) -> tuple[Point, ...]:
    """The six corners in clockwise order starting with the corner after edge 0."""
    return tuple(corner(i, layout) for i in range(6))


def edge_endpoints(edge: int, layout: Layout = Layout.FLAT) -> tuple[Point, Point]:
    """The two corners bounding ``edge``, clockwise order."""
    return corner((edge - 1) % 6, layout), corner(edge, layout)


def neighbour_edge(edge: int) -> int:
    """The edge of the neighbouring hex that touches ``edge``."""
    return (edge + 3) % 6


# --------------------------------------------------------------------------- locs


@dataclass(frozen=True, slots=True)
class Loc:
    """A place on a tile: ``center``, an edge spot, a corner spot, or a seed-000 location.

    ``kind`` is ``"center"`` (``value`` 0), ``"edge"`` (``value`` 0–5), ``"corner"``
    (``value`` 0.5–5.5) or ``"location"`` (``value`` one of seed 000's numbers); anything else
    raises :class:`~tilelay.errors.TileModelError` saying what was expected.
    """

    kind: str
    value: float = 0.0

    def __post_init__(self) -> None:
        kind, value = self.kind, self.value
        if type(value) is not float and type(value) is not int:  # a bool is no number here
            raise TileModelError(f"a loc's value is a number, not {shown(value)}")
        if kind == "edge":
            if value not in _EDGE_VALUES:
                raise TileModelError(f"loc: edge {shown(value)} is out of range: expected 0-5")
        elif kind == "corner":
            if value not in _CORNER_VALUES:
                raise TileModelError(
                    f"loc: corner {shown(value)} is not a corner: expected 0.5, 1.5, … 5.5 "
                    "(where edge n meets edge n + 1)"
                )
        elif kind == "location":
            if value not in _LOCATION_VALUES:
                raise TileModelError(
                    f"loc: location {shown(value)} is out of range: expected 0-45, 50 or 99"
                )
        elif kind == "center":
            if value != 0:
                raise TileModelError(f"loc: center takes no value, got {shown(value)}")
        else:
            raise TileModelError(
                f"a loc's kind is center, edge, corner or location, not {shown(kind)}"
            )

    def __str__(self) -> str:
        if self.kind == "center":
            return "center"
        if self.kind == "edge":
            return str(int(self.value))
        if self.kind == "corner":
            return f"{self.value:.1f}"
        return f"L{int(self.value)}"

    def rotated(self, rotation: int) -> Loc:
        """This loc after turning the tile ``rotation`` steps clockwise."""
        r = rotation % 6
        if r == 0 or self.kind == "center":
            return self
        if self.kind in ("edge", "corner"):
            return Loc(self.kind, (self.value + r) % 6)
        return Loc("location", rotate_location(int(self.value), r))


_EDGE_VALUES = frozenset(range(6))
_CORNER_VALUES = frozenset(n + 0.5 for n in range(6))
_LOCATION_VALUES = frozenset((*range(46), 50, 99))

CENTER = Loc("center")


def parse_loc(text: str) -> Loc:
    """Parse a loc: ``center``, ``0``–``5``, ``0.5``–``5.5`` or ``L0``–``L50``/``L99``.

    Raises :class:`~tilelay.errors.TileSyntaxError` (a :class:`ValueError`) with what was
    expected.
    """
    if not isinstance(text, str):
        raise TileSyntaxError(f"a loc is read from text, not {type(text).__name__}")
    t = text.strip()
    if t == "center":
        return CENTER
    if t[:1] == "L":
        if not t[1:].isascii() or not t[1:].isdigit() or len(t) > 4:
            raise TileSyntaxError(
                f"bad location {text[:12]!r}: expected L followed by 0-45, 50 or 99"
            )
        n = int(t[1:])
        if not is_location(n):
            raise TileSyntaxError(f"location {n} out of range: expected 0-45, 50 or 99")
        return Loc("location", n)
    if len(t) == 1 and t in "012345":
        return Loc("edge", float(t))
    if len(t) == 3 and t[0] in "012345" and t[1:] == ".5":
        return Loc("corner", float(t))
    raise TileSyntaxError(
        f"bad loc {text[:12]!r}: expected center, an edge 0-5 or a corner 0.5-5.5"
    )


def loc_point(loc: Loc, layout: Layout = Layout.FLAT, *, radius: float | None = None) -> Point:
    """Where ``loc`` is on a hex of circumradius 1.

    Edge locs sit half-way to the edge, corner locs a little further towards the corner (where
    18xx tiles draw the cities of OO and multi-city hexes); ``radius`` overrides that distance.
    """
    if loc.kind == "center":
        return (0.0, 0.0)
    if loc.kind == "edge":
        return polar(edge_angle(loc.value, layout), APOTHEM * 0.58 if radius is None else radius)
    if loc.kind == "corner":
        return polar(edge_angle(loc.value, layout), 0.55 if radius is None else radius)
    return location_point(int(loc.value), layout)


# ---------------------------------------------------------------- seed 000 locations


class Location:
    """The numbered locations of seed 000 (first number of each ring of six)."""

    SIDE = 0  #: 0-5 the middle of a side
    NEAR_SIDE = 6  #: 6-11 inside the hex, near a side
    NEAR_CORNER = 12  #: 12-17 on the line from a corner to the centre
    FAR_SIDE = 18  #: 18-23 towards a side, near the centre
    FAR_CORNER_LEFT = 24  #: 24-29 near a corner, to its left
    FAR_CORNER_RIGHT = 30  #: 30-35 near a corner, to its right
    NEAR_CENTER = 36  #: 36-39 four spots around the centre
    ADJACENT_SIDE = 40  #: 40-45 a city placed here overlaps the side a little
    CENTER = 50  #: the centre city location
    DEAD_END = 99  #: the end of track into an off-board area


def is_location(n: int) -> bool:
    """Whether ``n`` is one of seed 000's location numbers (0–45, 50, 99)."""
    return 0 <= n <= 45 or n in (50, 99)


def rotate_location(n: int, rotation: int) -> int:
    """Location ``n`` after turning the tile ``rotation`` steps clockwise.

    Rings of six turn with the tile; the four near-centre spots (36–39), the centre and the
    dead end stay where they are (seed 000: they "do not properly rotate").
    """
    if n < 36 or 40 <= n <= 45:
        base = n - n % 6 if n < 36 else 40
        return base + (n - base + rotation) % 6
    return n


def _xml_side_angle(side: float, layout: Layout) -> float:
    # seed 000: flat hex side 0 at the top, pointy hex side 0 on the left; clockwise
    start = 270.0 if layout is Layout.FLAT else 180.0
    return (start + 60.0 * side) % 360.0


def xml_side_to_edge(side: int, layout: Layout = Layout.FLAT) -> int:
    """The tile-language edge of seed 000's side ``side`` (0–5)."""
    return (side + 3) % 6 if layout is Layout.FLAT else (side + 1) % 6


def edge_to_xml_side(edge: int, layout: Layout = Layout.FLAT) -> int:
    """Seed 000's side number of tile-language edge ``edge``."""
    return (edge - 3) % 6 if layout is Layout.FLAT else (edge - 1) % 6


@cache
def location_point(n: int, layout: Layout = Layout.FLAT) -> Point:
    """The position of seed 000's location ``n`` on a hex of circumradius 1."""
    if not is_location(n):
        raise TileModelError(f"location {n} out of range: expected 0-45, 50 or 99")
    if n in (50, 99):
        return (0.0, 0.0)
    ring, k = divmod(n, 6) if n < 36 else (-1, n - 36)
    side = _xml_side_angle(k, layout)
    corner_left = side - 30.0  # the corner before side k (clockwise order)
    if n < 6:
        return polar(side, APOTHEM)
    if n < 12:
        return polar(side, APOTHEM * 0.62)
    if n < 18:
        return polar(corner_left, 0.55)
    if n < 24:
        return polar(side, APOTHEM * 0.3)
    if n < 30:
        return polar(corner_left - 12.0, 0.74)
    if n < 36:
        return polar(corner_left + 12.0, 0.74)
    if n < 40:
        return polar(_xml_side_angle(0, layout) - 45.0 + 90.0 * k, 0.28)
    del ring
    return polar(_xml_side_angle(n - 40, layout), APOTHEM * 0.82)


# ----------------------------------------------------------------------- regions

#: Number of regions (small triangles) a hex is divided into.
REGION_COUNT = 24


@cache
def region_polygons(layout: Layout = Layout.FLAT) -> tuple[tuple[Point, Point, Point], ...]:
    """The 24 small triangles of the triangular grid over a hex, as corner triples.

    On a flat hex the triangles are numbered row by row from the top, left to right: 0–4,
    5–11, 12–18, 19–23. A pointy hex uses the same numbering on the grid turned 30° clockwise.
    """
    h = APOTHEM / 2.0  # row height
    tris: list[tuple[Point, Point, Point]] = []
    # rows: y from -2h to 2h; half-width of the hex at height y is 1 - |y| / (2 * APOTHEM)
    for row in range(4):
        y0 = -2 * h + row * h
        y1 = y0 + h
        w0 = 1.0 - abs(y0) / (2 * APOTHEM)
        w1 = 1.0 - abs(y1) / (2 * APOTHEM)
        top = [-w0 + 0.5 * i for i in range(round(2 * w0 / 0.5) + 1)]
        bot = [-w1 + 0.5 * i for i in range(round(2 * w1 / 0.5) + 1)]
        # walk the strip from left to right alternating triangles
        ti = bi = 0
        while ti < len(top) - 1 or bi < len(bot) - 1:
            if len(bot) > len(top):  # widening row: start with an upward triangle
                if bi <= ti:
                    tris.append(((bot[bi], y1), (top[ti], y0), (bot[bi + 1], y1)))
                    bi += 1
                else:
                    tris.append(((top[ti], y0), (top[ti + 1], y0), (bot[bi], y1)))
                    ti += 1
            else:
                if ti <= bi:
                    tris.append(((top[ti], y0), (top[ti + 1], y0), (bot[bi], y1)))
                    ti += 1
                else:
                    tris.append(((bot[bi], y1), (top[ti], y0), (bot[bi + 1], y1)))
                    bi += 1
    assert len(tris) == REGION_COUNT
    if layout is Layout.POINTY:
        return tuple(tuple(_turn(p, 30.0) for p in t) for t in tris)  # type: ignore[misc]
    return tuple(tris)


def _turn(p: Point, deg: float) -> Point:
    rad = math.radians(deg)
    c, s = math.cos(rad), math.sin(rad)
    return (p[0] * c - p[1] * s, p[0] * s + p[1] * c)


def region_at(point: Point, layout: Layout = Layout.FLAT) -> int | None:
    """The region (0–23) containing ``point``, or ``None`` outside the hex."""
    for i, (a, b, c) in enumerate(region_polygons(layout)):
        if _in_triangle(point, a, b, c):
            return i
    return None


def region_centroid(region: int, layout: Layout = Layout.FLAT) -> Point:
    """The centre of region ``region``."""
    a, b, c = region_polygons(layout)[region]
    return ((a[0] + b[0] + c[0]) / 3.0, (a[1] + b[1] + c[1]) / 3.0)


def _in_triangle(p: Point, a: Point, b: Point, c: Point) -> bool:
    def cross(o: Point, u: Point, v: Point) -> float:
        return (u[0] - o[0]) * (v[1] - o[1]) - (u[1] - o[1]) * (v[0] - o[0])

    d1, d2, d3 = cross(p, a, b), cross(p, b, c), cross(p, c, a)
    eps = 1e-9
    neg = d1 < -eps or d2 < -eps or d3 < -eps
    pos = d1 > eps or d2 > eps or d3 > eps
    return not (neg and pos)


def regions_along(p0: Point, p1: Point, layout: Layout = Layout.FLAT, steps: int = 24) -> set[int]:
    """The regions a straight segment from ``p0`` to ``p1`` passes through (sampled)."""
    out: set[int] = set()
    for i in range(steps + 1):
        t = i / steps
        r = region_at((p0[0] + (p1[0] - p0[0]) * t, p0[1] + (p1[1] - p0[1]) * t), layout)
        if r is not None:
            out.add(r)
    return out


# ------------------------------------------------------------------ map coordinates


def hex_center(col: int, row: int, layout: Layout, size: float = 1.0) -> Point:
    """Centre of a hex on a map in 18xx.games "doubled" coordinates.

    Flat maps: ``col`` counts columns (letters) and ``row`` counts half-rows (numbers); pointy
    maps: ``col`` counts half-columns (numbers) and ``row`` rows (letters). Neighbours differ by
    the offsets in :data:`NEIGHBOUR_OFFSETS`.
    """
    if layout is Layout.FLAT:
        return (col * 1.5 * size, row * APOTHEM * size)
    return (col * APOTHEM * size, row * 1.5 * size)


#: For each layout, edge -> (d_col, d_row) of the neighbour across that edge, in the doubled
#: coordinates of :func:`hex_center`.
NEIGHBOUR_OFFSETS: dict[Layout, tuple[tuple[int, int], ...]] = {
    Layout.FLAT: ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1)),
    Layout.POINTY: ((-1, 1), (-2, 0), (-1, -1), (1, -1), (2, 0), (1, 1)),
}

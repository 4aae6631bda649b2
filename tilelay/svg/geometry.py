"""Tile geometry for drawing, in tile units (a hex of circumradius :data:`UNIT` centred on the
origin, y down): the centre lines of paths (:class:`Geom`, :func:`path_geometry`), where nodes
sit (:class:`NodeGeo`, :func:`layout_nodes`), edge points with lanes, and small vector helpers.
The tile drawing, the route overlay and the label placement all share it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from tilelay.hexgeo import (
    APOTHEM,
    Layout,
    corner,
    edge_angle,
    edge_endpoints,
    edge_midpoint,
    loc_point,
    polar,
)
from tilelay.svg.text import fmt, fmt_point
from tilelay.tile import Edge, End, Node, NodeKind, NodeRef, Path, Tile, TownStyle

__all__ = [
    "GAP",
    "LANE_SPACING",
    "REV_R",
    "SLOT_R",
    "TRACK_W",
    "UNIT",
    "Geom",
    "NodeGeo",
    "Point",
    "add",
    "boxed",
    "city_outline",
    "clear_caches",
    "clip",
    "cross",
    "dot",
    "edge_point",
    "hex_dims",
    "hex_points",
    "interleaved",
    "inward",
    "is_terminal",
    "layout_nodes",
    "mul",
    "node_extent",
    "norm",
    "pass_triangle",
    "path_geometry",
    "reversed_geometry",
    "scaled",
    "slot_offsets",
    "slot_points",
    "slots_turn",
    "sub",
    "swapped",
    "terminal_line",
    "terminal_polygon",
    "turn",
    "unit",
]

#: A point in tile units.
Point = tuple[float, float]

#: Tile units per circumradius: every tile fragment is drawn on a hex of this circumradius.
UNIT = 100.0

#: Stroke width of broad track; the gap beside an over-track; lane spacing; slot and
#: revenue circle radii (tile units).
TRACK_W = 8.0
GAP = 6.0  # gap each side of an over-track
LANE_SPACING = 15.0
SLOT_R = 25.0
REV_R = 15.0

# ------------------------------------------------------------------------ vectors


def add(a: Point, b: Point) -> Point:
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Point, b: Point) -> Point:
    return (a[0] - b[0], a[1] - b[1])


def mul(a: Point, k: float) -> Point:
    return (a[0] * k, a[1] * k)


def norm(a: Point) -> float:
    return math.hypot(a[0], a[1])


def unit(a: Point) -> Point:
    n = math.hypot(a[0], a[1])
    return (0.0, 0.0) if n < 1e-12 else (a[0] / n, a[1] / n)


def cross(a: Point, b: Point) -> float:
    return a[0] * b[1] - a[1] * b[0]


def dot(a: Point, b: Point) -> float:
    return a[0] * b[0] + a[1] * b[1]


def scaled(p: Point) -> Point:
    return (p[0] * UNIT, p[1] * UNIT)


@lru_cache(maxsize=8)
def hex_points(layout: Layout, scale: float = 1.0) -> str:
    return " ".join(fmt_point(mul(scaled(corner(i, layout)), scale)) for i in range(6))


# ---------------------------------------------------------------------- geometry


@dataclass(frozen=True, slots=True)
class Geom:
    """One path's centre line: a line, an arc or a cubic Bézier (tile units)."""

    kind: str  # "line", "arc" or "cubic"
    p0: Point
    p1: Point
    c: Point = (0.0, 0.0)  # arc centre, or first control point
    c2: Point = (0.0, 0.0)  # second control point
    r: float = 0.0
    sweep: int = 0

    def d(self) -> str:
        """The SVG path data (memoised per curve)."""
        d = _PATH_D.get(self)
        if d is None:
            if len(_PATH_D) > 8192:
                _PATH_D.clear()
            d = _PATH_D[self] = self._d()
        return d

    def _d(self) -> str:
        if self.kind == "line":
            return f"M{fmt_point(self.p0)}L{fmt_point(self.p1)}"
        if self.kind == "arc":
            r = fmt(self.r)
            return f"M{fmt_point(self.p0)}A{r},{r} 0 0 {self.sweep} {fmt_point(self.p1)}"
        return (
            f"M{fmt_point(self.p0)}C{fmt_point(self.c)} {fmt_point(self.c2)} {fmt_point(self.p1)}"
        )

    def point(self, t: float) -> Point:
        """The point at parameter ``t`` (0–1) along the path."""
        if self.kind == "line":
            return add(self.p0, mul(sub(self.p1, self.p0), t))
        if self.kind == "arc":
            a0 = math.atan2(self.p0[1] - self.c[1], self.p0[0] - self.c[0])
            a1 = math.atan2(self.p1[1] - self.c[1], self.p1[0] - self.c[0])
            da = a1 - a0
            if self.sweep and da < 0:
                da += 2 * math.pi
            elif not self.sweep and da > 0:
                da -= 2 * math.pi
            a = a0 + da * t
            return (self.c[0] + self.r * math.cos(a), self.c[1] + self.r * math.sin(a))
        u = 1.0 - t
        b0, b1, b2, b3 = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
        return (
            b0 * self.p0[0] + b1 * self.c[0] + b2 * self.c2[0] + b3 * self.p1[0],
            b0 * self.p0[1] + b1 * self.c[1] + b2 * self.c2[1] + b3 * self.p1[1],
        )

    def samples(self, n: int = 10) -> tuple[Point, ...]:
        """``n + 1`` points along the path, ends included (memoised per curve)."""
        key = (self, n)
        pts = _SAMPLES.get(key)
        if pts is None:
            if len(_SAMPLES) > 8192:
                _SAMPLES.clear()
            pts = _SAMPLES[key] = tuple(self.point(i / n) for i in range(n + 1))
        return pts


_SAMPLES: dict[tuple[Geom, int], tuple[Point, ...]] = {}
_PATH_D: dict[Geom, str] = {}


def arc(p0: Point, p1: Point, c: Point) -> Geom:
    sweep = 1 if cross(sub(p0, c), sub(p1, c)) > 0 else 0
    return Geom("arc", p0, p1, c, r=norm(sub(p0, c)), sweep=sweep)


def line_intersection(p: Point, d: Point, q: Point, e: Point) -> Point | None:
    den = cross(d, e)
    if abs(den) < 1e-9:
        return None
    t = cross(sub(q, p), e) / den
    return add(p, mul(d, t))


@lru_cache(maxsize=4096)
def edge_tangent(edge: int, layout: Layout) -> Point:
    """Unit vector along ``edge`` in the clockwise direction."""
    a, b = edge_endpoints(edge, layout)
    return unit(sub(b, a))


@lru_cache(maxsize=4096)
def edge_point(edge: int, lane: tuple[int, int], layout: Layout) -> Point:
    """Where a track leaves ``edge`` in lane (width, index); index 0 is the most clockwise."""
    m = scaled(edge_midpoint(edge, layout))
    width, index = lane
    if width <= 1:
        return m
    off = ((width - 1) / 2.0 - index) * LANE_SPACING
    return add(m, mul(edge_tangent(edge, layout), off))


@lru_cache(maxsize=4096)
def inward(edge: int, layout: Layout) -> Point:
    return unit(mul(edge_midpoint(edge, layout), -1.0))


@lru_cache(maxsize=4096)
def edge_edge(a: int, b: int, pa: Point, pb: Point, layout: Layout) -> Geom:
    na, nb = inward(a, layout), inward(b, layout)
    if (a - b) % 3 == 0:  # opposite edges: parallel normals
        if abs(cross(na, sub(pb, pa))) < 0.5:
            return Geom("line", pa, pb)
        k = norm(sub(pb, pa)) * 0.4
        return Geom("cubic", pa, pb, add(pa, mul(na, k)), add(pb, mul(nb, k)))
    ta, tb = edge_tangent(a, layout), edge_tangent(b, layout)
    c = line_intersection(pa, ta, pb, tb)
    if c is not None and abs(norm(sub(pa, c)) - norm(sub(pb, c))) < 0.5:
        return arc(pa, pb, c)
    k = norm(sub(pb, pa)) * 0.45
    return Geom("cubic", pa, pb, add(pa, mul(na, k)), add(pb, mul(nb, k)))


# ------------------------------------------------------------------------ nodes


@dataclass(slots=True)
class NodeGeo:
    pos: Point
    extent: float  # radius of a circle covering the drawn node
    curve: Geom | None = None  # the edge-to-edge curve a node sits on (midpoint)
    curve_edges: tuple[int, int] = (-1, -1)
    bar_angle: float = 0.0  # town bar direction (degrees)
    #: how far a city's slots (and their box) are turned, in degrees (None: as the tile is)
    slots_angle: float | None = None


def slot_offsets(slots: int) -> list[Point]:
    r = SLOT_R
    if slots <= 1:
        return [(0.0, 0.0)]
    if slots == 2:
        return [(-r, 0.0), (r, 0.0)]
    if slots == 4:
        return [(-r, -r), (r, -r), (-r, r), (r, r)]
    ring = r / math.sin(math.pi / slots)
    start = -90.0
    return [polar(start + 360.0 * i / slots, ring) for i in range(slots)]


#: The radius of a mountain pass's triangle by its size (the engine's).
PASS_RADIUS = {1: 40.0, 2: 48.0, 3: 60.0}


def pass_triangle(node: Node, outline: float = 0.0) -> list[Point]:
    """The corners of a mountain pass's triangle around its city, pointing up (grown by
    ``outline``; lower and larger round a city of several slots, as the engine draws it)."""
    radius = PASS_RADIUS.get(node.pass_size, 40.0)
    dy = 0.0
    if node.slots > 1:
        radius, dy = radius * 1.2, 8.0
    radius += outline
    return [
        polar(a, radius) if not dy else add(polar(a, radius), (0.0, dy))
        for a in (30.0, 150.0, 270.0)
    ]


def node_extent(tile: Tile, i: int) -> float:
    node = tile.nodes[i]
    if node.kind is NodeKind.CITY:
        slots = 0.0
        if node.slots >= 1:
            slots = max(norm(o) for o in slot_offsets(node.slots)) + SLOT_R + 2.0
        if node.mountain_pass:  # the triangle around it
            return max(slots, max(norm(p) for p in pass_triangle(node, 4.0)))
        return slots if node.slots >= 1 else 10.0  # no token spaces: only the track's end
    if node.kind is NodeKind.TOWN:
        return 0.0 if tile.town_style(i) is TownStyle.HIDDEN else 18.0
    return 0.0


def _inside(pos: Point, extent: float) -> Point:
    """``pos`` moved towards the centre as far as a node of ``extent`` needs to stay inside
    the hex (a city of three slots placed by the edge, as 1822's Glasgow, would cross it)."""
    far = norm(pos)
    room = APOTHEM * UNIT - 2.0 - extent
    if far <= room or far == 0:
        return pos
    return mul(pos, max(room, 0.0) / far)


def slots_turn(tile: Tile, g: NodeGeo) -> float:
    """How far a city's slots (and their box) are turned, in degrees: as the city's place
    turns them (:attr:`NodeGeo.slots_angle`), else as the tile is."""
    return g.slots_angle if g.slots_angle is not None else tile.rotation * 60.0


def boxed(node: Node) -> bool:
    """Whether ``node`` is drawn as a box round several slots (a city of two or more, not a
    mountain pass's, whose triangle is drawn round it): what placement and the hex's edge
    see of it is that box (:func:`city_outline`)."""
    return node.kind is NodeKind.CITY and node.slots >= 2 and not node.mountain_pass


def slot_points(tile: Tile, i: int, g: NodeGeo) -> list[Point]:
    """The centres of city ``i``'s slots, from the city's centre: turned as
    :func:`slots_turn` says."""
    angle = slots_turn(tile, g)
    offs = slot_offsets(max(tile.nodes[i].slots, 1))
    return [turn(o, angle) for o in offs] if angle else offs


#: A city of two slots is drawn as a box of this half-width and half-height with corners
#: of this radius round them (``draw_nodes``), its outline this wide.
BOX_HALF = (52.0, 27.0)
BOX_CORNER = 14.0
BOX_STROKE = 2.0


def city_outline(tile: Tile, i: int, g: NodeGeo) -> tuple[list[Point], float]:
    """City ``i`` of several slots as what it covers: every point within the returned
    distance of the polygon of the returned points (from the city's centre): a city of two
    slots its rounded box, a larger one the slots round their ring."""
    if tile.nodes[i].slots == 2:
        angle = slots_turn(tile, g)
        hx, hy = BOX_HALF[0] - BOX_CORNER, BOX_HALF[1] - BOX_CORNER
        corners = [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)]
        return [turn(c, angle) if angle else c for c in corners], BOX_CORNER + BOX_STROKE / 2
    return slot_points(tile, i, g), SLOT_R + BOX_STROKE


def _facing(tile: Tile, i: int, pos: Point) -> float | None:
    """How far the slots of city ``i`` of several slots are turned at ``pos`` away from the
    centre: their row across the line from the centre, as the engine turns a city by the
    edge it is drawn at (so that a city of two slots by a corner lies along the hex's
    side, not across it); None at the centre and for other nodes."""
    if not boxed(tile.nodes[i]) or norm(pos) < 1.0:
        return None
    return math.degrees(math.atan2(pos[1], pos[0])) - 90.0


def _shape_scale(tile: Tile, i: int, g: NodeGeo, layout: Layout) -> float:
    """The most ``g``'s place may be scaled by (towards the centre: at most 1) for node
    ``i`` drawn there to stay inside the hex: a city of several slots as its box round them
    (:func:`city_outline`), any other node as the circle round it."""
    if boxed(tile.nodes[i]):
        offs, reach = city_outline(tile, i, g)
    else:
        offs, reach = [(0.0, 0.0)], node_extent(tile, i)
    lim = APOTHEM * UNIT - 2.0
    scale = 1.0
    for e in range(6):
        n = polar(edge_angle(e, layout), 1.0)
        toward = dot(g.pos, n)
        if toward <= 0:
            continue
        room = lim - reach - max(dot(o, n) for o in offs)
        scale = min(scale, max(room, 0.0) / toward)
    return scale


#: The most cities and towns without track drawn in a row across the middle; more go round
#: the centre.
_ROW_MOST = 3


def layout_nodes(tile: Tile, layout: Layout) -> list[NodeGeo]:
    n = len(tile.nodes)
    out: list[NodeGeo | None] = [None] * n
    placed: list[tuple[Point, float]] = []
    drawn = [i for i in range(n) if tile.nodes[i].kind in (NodeKind.CITY, NodeKind.TOWN)]
    multi = len(drawn) > 1
    for i, node in enumerate(tile.nodes):
        if node.loc is not None:
            extent = node_extent(tile, i)
            at = _inside(scaled(loc_point(node.loc, layout)), extent)
            g = NodeGeo(at, extent, slots_angle=_facing(tile, i, at))
            out[i] = g
            if g.extent:
                placed.append((g.pos, g.extent))
    unconnected = [
        i for i in range(n) if multi and tile.nodes[i].loc is None and not tile.node_exits(i)
    ]
    tracks = _through_tracks(tile, layout) if multi else []
    for i, node in enumerate(tile.nodes):
        if out[i] is not None:
            continue
        ext = node_extent(tile, i)
        exits = sorted(tile.node_exits(i))
        cands: list[NodeGeo] = []
        if i in unconnected:
            k, m = unconnected.index(i), len(unconnected)
            if m <= _ROW_MOST:  # in a row across the middle
                x = (k - (m - 1) / 2.0) * min(70.0, 120.0 / max(m - 1, 1))
                cands.append(NodeGeo((x, 0.0), ext))
            else:
                # round the centre as far out as they stay inside (apart, and clear of a
                # city at the centre: GE18XX's 48, 104), towards the corners first
                ring = APOTHEM * UNIT - 2.0 - ext
                angle = edge_angle(0.5, layout) + 360.0 * k / m
                cands.append(NodeGeo(polar(angle, ring), ext))
        elif (
            len(exits) == 2
            and (exits[0] - exits[1]) % 3 != 0
            and (multi or node.kind is NodeKind.TOWN)
        ):
            a, b = exits
            curve = edge_edge(
                a, b, edge_point(a, (1, 0), layout), edge_point(b, (1, 0), layout), layout
            )
            # at the middle of the curve, else further along it (two cities on crossing
            # curves, 18Chesapeake's X3), else at the centre
            # (on the curve only where it stays inside the hex: a city of two slots on a
            # sharp curve, as on tile 62, would cross its edge; then moved in, off it)
            for t in (0.5, 0.4, 0.6, 0.3, 0.7, 0.22, 0.78):
                at = curve.point(t)
                ang = math.degrees(math.atan2(at[1] - curve.c[1], at[0] - curve.c[0]))
                on = NodeGeo(at, ext, curve, (a, b), ang, _facing(tile, i, at))
                if _shape_scale(tile, i, on, layout) >= 1.0:
                    cands.append(on)
            if not cands:
                at = curve.point(0.5)
                off = NodeGeo(at, ext, slots_angle=_facing(tile, i, at))
                off.pos = mul(at, _shape_scale(tile, i, off, layout))
                cands.append(off)
            cands.append(NodeGeo((0.0, 0.0), ext))
        elif len(exits) == 2 and (exits[0] - exits[1]) % 3 == 0:
            # on straight track through the hex: at the centre when alone; beside other
            # cities and towns, along the track first (the first placed at the centre would
            # leave the next too little room: tile 67's two cities, tile 56's two towns)
            ang = edge_angle(exits[0], layout) + 90.0
            along = [
                NodeGeo(_inside(polar(edge_angle(e, layout), t), ext), ext, bar_angle=ang)
                for t in (30.0, 38.0, 46.0, 54.0)
                for e in exits
            ]
            centre = NodeGeo((0.0, 0.0), ext, bar_angle=ang)
            cands.extend([*along, centre] if multi else [centre, *along])
        elif exits and multi:
            s = (0.0, 0.0)
            for e in exits:
                s = add(s, unit(edge_midpoint(e, layout)))
            d = unit(s)
            ang = math.degrees(math.atan2(d[1], d[0])) + 90.0
            for dist in (50.0, 56.0, 62.0) if len(exits) == 1 else (30.0, 40.0):
                cands.append(NodeGeo(mul(d, dist), ext, bar_angle=ang))
            cands.append(NodeGeo((0.0, 0.0), ext, bar_angle=ang))
        else:
            ang = 0.0
            if len(exits) == 1:
                ang = edge_angle(exits[0], layout) + 90.0
            cands.append(NodeGeo((0.0, 0.0), ext, bar_angle=ang))

        def clearance(g: NodeGeo, i: int = i, town: bool = node.kind is NodeKind.TOWN) -> float:
            if not g.extent:
                return 1e9
            room = min((norm(sub(g.pos, p)) - e - g.extent for p, e in placed if e), default=1e9)
            if town:
                # a town's bar clear of the other track through the hex (tile 56's two
                # curves cross at their middles, 69's curve crosses the straight track)
                for owner, points in tracks:
                    if owner != i:
                        near = min(norm(sub(g.pos, q)) for q in points)
                        room = min(room, near - _BAR_CLEAR)
            return room

        best = next((c for c in cands if clearance(c) >= 0.0), None)
        if best is None:
            best = max(cands, key=clearance)
        if best.slots_angle is None:
            best.slots_angle = _facing(tile, i, best.pos)
        out[i] = best
        if best.extent:
            placed.append((best.pos, best.extent))
    geos = [g if g is not None else NodeGeo((0.0, 0.0), 0.0) for g in out]
    for i, node in enumerate(tile.nodes):  # town bars lie across the track through them
        g = geos[i]
        if node.kind is not NodeKind.TOWN or g.curve is not None:
            continue
        dirs: list[Point] = []
        for pth in tile.paths_at_node(i):
            other = pth.b if pth.a == NodeRef(i) else pth.a
            q = (
                edge_point(other.num, (1, 0), layout)
                if isinstance(other, Edge)
                else (geos[other.index].pos)
            )
            u = unit(sub(q, g.pos))
            if u != (0.0, 0.0):
                dirs.append(u)
        if len(dirs) == 1:
            g.bar_angle = math.degrees(math.atan2(dirs[0][1], dirs[0][0])) + 90.0
        elif len(dirs) == 2:
            tv = sub(dirs[0], dirs[1])
            g.bar_angle = math.degrees(math.atan2(tv[1], tv[0])) + 90.0
    return geos


#: How far a town keeps from other track (half its bar's length and half the track's width).
_BAR_CLEAR = 22.0


def _through_tracks(tile: Tile, layout: Layout) -> list[tuple[int, list[Point]]]:
    """The track through the hex from edge to edge, sampled, each with the node on it (-1:
    plain track): a node of two exits lies on the curve between them."""
    out: list[tuple[int, list[Point]]] = []
    ends: list[tuple[int, int, int]] = []
    for i in range(len(tile.nodes)):
        exits = sorted(tile.node_exits(i))
        if len(exits) == 2:
            ends.append((i, exits[0], exits[1]))
    ends += [
        (-1, p.a.num, p.b.num)
        for p in tile.paths
        if isinstance(p.a, Edge) and isinstance(p.b, Edge)
    ]
    for owner, a, b in ends:
        curve = edge_edge(
            a, b, edge_point(a, (1, 0), layout), edge_point(b, (1, 0), layout), layout
        )
        out.append((owner, [curve.point(k / 20.0) for k in range(21)]))
    return out


# ------------------------------------------------------------------------ paths


def end_point(end: End, lane: tuple[int, int], layout: Layout, nodes: list[NodeGeo]) -> Point:
    if isinstance(end, Edge):
        return edge_point(end.num, lane, layout)
    return nodes[end.index].pos


def path_geometry(path: Path, layout: Layout, nodes: list[NodeGeo]) -> Geom:
    a, b = path.a, path.b
    if isinstance(a, NodeRef) and isinstance(b, Edge):
        return reversed_geometry(path_geometry(swapped(path), layout, nodes))
    pa = end_point(a, path.a_lane, layout, nodes)
    pb = end_point(b, path.b_lane, layout, nodes)
    if isinstance(a, Edge) and isinstance(b, Edge):
        return edge_edge(a.num, b.num, pa, pb, layout)
    if isinstance(a, Edge) and isinstance(b, NodeRef):
        g = nodes[b.index]
        width, index = path.a_lane
        if width > 1:  # parallel lanes into a node: shift the node end by the same offset
            off = ((width - 1) / 2.0 - index) * LANE_SPACING
            pb = add(pb, mul(edge_tangent(a.num, layout), off))
        if g.curve is not None and a.num in g.curve_edges and width <= 1:
            c = g.curve
            return arc(pa, pb, c.c) if c.kind == "arc" else Geom("line", pa, pb)
        n = inward(a.num, layout)
        v = sub(pb, pa)
        if abs(cross(n, v)) < 0.5:
            return Geom("line", pa, pb)
        k = max(dot(v, n), 0.25 * norm(v))
        c1 = add(pa, mul(n, k * 0.9))
        return Geom("cubic", pa, pb, c1, add(pb, mul(sub(c1, pb), 0.3)))
    return Geom("line", pa, pb)


def swapped(p: Path) -> Path:
    return Path(p.b, p.a, p.terminal, p.ignore, p.b_lane, p.a_lane, p.track, p.over)


def reversed_geometry(g: Geom) -> Geom:
    if g.kind == "line":
        return Geom("line", g.p1, g.p0)
    if g.kind == "arc":
        return Geom("arc", g.p1, g.p0, g.c, r=g.r, sweep=1 - g.sweep)
    return Geom("cubic", g.p1, g.p0, g.c2, g.c)


def interleaved(p: tuple[int, int], q: tuple[int, int]) -> bool:
    """Whether chords p and q between edges cross (their ends alternate around the hex)."""
    a, b = sorted(p)
    c, d = q
    if len({a, b, c, d}) < 4:
        return False
    return (a < c < b) != (a < d < b)


def _terminal_frame(
    path: Path, layout: Layout, nodes: list[NodeGeo]
) -> tuple[Path, Point, Point] | None:
    """A terminal path's edge end first, the point it leaves its edge at and the way it
    points (None: the path has no edge)."""
    p = path if isinstance(path.a, Edge) else swapped(path)
    if not isinstance(p.a, Edge):
        return None
    pa = edge_point(p.a.num, p.a_lane, layout)
    target = nodes[p.b.index].pos if isinstance(p.b, NodeRef) else scaled(edge_midpoint(p.b.num))
    d = unit(sub(target, pa))
    if d == (0.0, 0.0):
        d = inward(p.a.num, layout)
    return p, pa, d


def _terminal_lengths(path: Path) -> tuple[float, float]:
    """How far a terminal path's arrow runs straight, and to its tip."""
    return (16.0, 50.0) if path.terminal != 2 else (10.0, 30.0)


def terminal_polygon(path: Path, layout: Layout, nodes: list[NodeGeo]) -> str | None:
    frame = _terminal_frame(path, layout, nodes)
    if frame is None:
        return None
    p, pa, d = frame
    t = (-d[1], d[0])
    hw = 13.0 if p.a_lane[0] <= 1 else 6.0
    straight, tip = _terminal_lengths(path)
    pts = [
        add(pa, mul(t, hw)),
        add(add(pa, mul(t, hw)), mul(d, straight)),
        add(pa, mul(d, tip)),
        add(add(pa, mul(t, -hw)), mul(d, straight)),
        add(pa, mul(t, -hw)),
    ]
    return " ".join(fmt_point(q) for q in pts)


def terminal_line(path: Path, layout: Layout, nodes: list[NodeGeo]) -> tuple[Point, Point] | None:
    """Where a terminal path is drawn (:func:`terminal_polygon`): from its edge to its
    arrow's tip (None: the path has no edge). A route ends there, off the revenue the
    off-board shows at its centre."""
    frame = _terminal_frame(path, layout, nodes)
    if frame is None:
        return None
    _, pa, d = frame
    return pa, add(pa, mul(d, _terminal_lengths(path)[1]))


def is_terminal(tile: Tile, path: Path) -> bool:
    if path.terminal:
        return True
    return any(
        isinstance(e, NodeRef) and tile.nodes[e.index].kind is NodeKind.OFFBOARD for e in path.ends
    ) and any(isinstance(e, Edge) for e in path.ends)


def turn(p: Point, deg: float) -> Point:
    r = math.radians(deg)
    c, s = math.cos(r), math.sin(r)
    return (p[0] * c - p[1] * s, p[0] * s + p[1] * c)


def clip(poly: list[Point], n: Point, lo: float, hi: float) -> list[Point]:
    """The part of convex ``poly`` where lo <= p·n <= hi."""

    def half(pts: list[Point], keep: Callable[[Point], float]) -> list[Point]:
        res: list[Point] = []
        for i, p in enumerate(pts):
            q = pts[(i + 1) % len(pts)]
            fp, fq = keep(p), keep(q)
            if fp >= 0:
                res.append(p)
            if (fp >= 0) != (fq >= 0):
                t = fp / (fp - fq)
                res.append(add(p, mul(sub(q, p), t)))
        return res

    out = half(poly, lambda p: dot(p, n) - lo)
    return half(out, lambda p: hi - dot(p, n)) if out else out


def hex_dims(layout: Layout, size: float) -> tuple[float, float]:
    """Width and height in px of a hex of circumradius ``size``."""
    if layout is Layout.FLAT:
        return 2 * size, 2 * APOTHEM * size
    return 2 * APOTHEM * size, 2 * size


def clear_caches() -> None:
    """Forget the memoised curves and edge points (for cold-start measurements)."""
    _SAMPLES.clear()
    _PATH_D.clear()
    for fn in (edge_tangent, edge_point, inward, edge_edge, hex_points):
        fn.cache_clear()

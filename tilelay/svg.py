"""SVG drawing of tiles, tile sheets and whole maps.

The drawing is built as text (f-strings with escaped text and numbers written with at most two
decimals), so it is fast and byte-stable. Every tile is drawn in *tile units*: the hex has a
circumradius of 100 units and is centred on the origin (screen coordinates, y down; geometry
from :mod:`tilelay.hexgeo`). ``size`` is the hex's **circumradius in pixels**: a flat tile of
``size=100`` is 200 px wide and 173 px high, a pointy one 173 px wide and 200 px high. The tile
fragment is scaled by ``size / 100``, so the same tile always gives the same fragment.

Drawn elements carry classes and data attributes for tests and browsers:

* ``<g class="tile" data-tile="57" data-rotation="1" data-color="yellow">`` – one tile;
* ``<path class="track" data-a="0" data-b="_0" data-track="broad">`` – one path (the visible
  stroke; ``class="gap"`` under it is the tile-coloured gap of a crossing or ``over`` path,
  ``class="track-base"`` the white base of narrow track or ferries, ``class="ties"`` tunnel
  ties); terminal track is ``<polygon class="track terminal">``;
* ``<g class="city" data-node="0" data-slots="2">`` with one ``<circle class="slot">`` per slot,
  ``<g class="town" data-style="rect">``, ``<g class="revenue" data-values="20">``,
  ``<text class="label">``, ``<g class="upgrade" data-cost="80">``, ``<line class="border">``,
  ``<g class="icon">``, ``<text class="location-name">``, ``<text class="tile-number">``;
* on maps ``<g class="hex" data-coord="K8">`` and ``<text class="coord">``.

Paths are drawn in the order listed, nodes on top of them, then revenues, labels and the other
marks, which are placed in the regions (:func:`tilelay.hexgeo.region_polygons`) that no track
passes through.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from typing import Any, Protocol

from tilelay.hexgeo import (
    APOTHEM,
    Layout,
    corner,
    edge_angle,
    edge_endpoints,
    edge_midpoint,
    hex_center,
    loc_point,
    polar,
    region_centroid,
    region_polygons,
)
from tilelay.tile import (
    BorderType,
    Edge,
    End,
    NodeKind,
    NodeRef,
    Path,
    Revenue,
    Tile,
    TownStyle,
    Track,
)

__all__ = ["COLORS", "UNIT", "map_svg", "routes_svg", "tile_svg", "tiles_svg"]

Point = tuple[float, float]

#: Tile units per circumradius: every tile fragment is drawn on a hex of this circumradius.
UNIT = 100.0

#: Fill colours of tiles and hexes (those of the 18xx.games engine).
COLORS: dict[str, str] = {
    "white": "#eaf0f4",
    "yellow": "#fde900",
    "green": "#71bf44",
    "brown": "#cb7745",
    "gray": "#bcbdc0",
    "grey": "#bcbdc0",
    "sepia": "#d5b58f",
    "red": "#ec232a",
    "blue": "#35a7ff",
    "purple": "#9e6ab0",
    "orange": "#f48221",
    "black": "#000000",
    "lightblue": "#b0e0e6",
    "salmon": "#f9a98c",
}

_PHASE_ORDER = ("yellow", "green", "brown", "gray")
_FONT = "Arial, Helvetica, 'DejaVu Sans', sans-serif"
_TRACK_W = 8.0  # broad track stroke width
_GAP = 6.0  # gap each side of an over-track
_LANE_SPACING = 15.0
_SLOT_R = 25.0
_REV_R = 15.0
_WHITE = "#ffffff"


# ------------------------------------------------------------------------- numbers


def _f(x: float) -> str:
    """A number with at most two decimals, no trailing zeros, never ``-0`` (memoised)."""
    s = _F_MEMO.get(x)
    if s is None:
        s = f"{x:.2f}"
        if s[-1] == "0":
            s = s.rstrip("0").rstrip(".")
        if s == "-0":
            s = "0"
        if len(_F_MEMO) > 65536:
            _F_MEMO.clear()
        _F_MEMO[x] = s
    return s


_F_MEMO: dict[float, str] = {}


def _pt(p: Point) -> str:
    return f"{_f(p[0])},{_f(p[1])}"


def _esc(text: str) -> str:
    return escape(text, quote=True)


def _color(name: str) -> str:
    """A fill for a colour name (tile colours and common names) or a literal CSS colour."""
    c = COLORS.get(name.lower())
    if c is not None:
        return c
    if re.fullmatch(r"#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,30}", name):
        return name
    return "#888888"


def _phase_color(phase: str, index: int) -> str:
    c = COLORS.get(phase.lower())
    if c is not None:
        return c
    return COLORS[_PHASE_ORDER[min(index, len(_PHASE_ORDER) - 1)]]


# ------------------------------------------------------------------------ vectors


def _add(a: Point, b: Point) -> Point:
    return (a[0] + b[0], a[1] + b[1])


def _sub(a: Point, b: Point) -> Point:
    return (a[0] - b[0], a[1] - b[1])


def _mul(a: Point, k: float) -> Point:
    return (a[0] * k, a[1] * k)


def _len(a: Point) -> float:
    return math.hypot(a[0], a[1])


def _unit(a: Point) -> Point:
    n = math.hypot(a[0], a[1])
    return (0.0, 0.0) if n < 1e-12 else (a[0] / n, a[1] / n)


def _cross(a: Point, b: Point) -> float:
    return a[0] * b[1] - a[1] * b[0]


def _dot(a: Point, b: Point) -> float:
    return a[0] * b[0] + a[1] * b[1]


def _scaled(p: Point) -> Point:
    return (p[0] * UNIT, p[1] * UNIT)


@lru_cache(maxsize=8)
def _hex_points(layout: Layout, scale: float = 1.0) -> str:
    return " ".join(_pt(_mul(_scaled(corner(i, layout)), scale)) for i in range(6))


# ---------------------------------------------------------------------- geometry


@dataclass(frozen=True, slots=True)
class _Geom:
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
            return f"M{_pt(self.p0)}L{_pt(self.p1)}"
        if self.kind == "arc":
            return f"M{_pt(self.p0)}A{_f(self.r)},{_f(self.r)} 0 0 {self.sweep} {_pt(self.p1)}"
        return f"M{_pt(self.p0)}C{_pt(self.c)} {_pt(self.c2)} {_pt(self.p1)}"

    def point(self, t: float) -> Point:
        """The point at parameter ``t`` (0–1) along the path."""
        if self.kind == "line":
            return _add(self.p0, _mul(_sub(self.p1, self.p0), t))
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


_SAMPLES: dict[tuple[_Geom, int], tuple[Point, ...]] = {}
_PATH_D: dict[_Geom, str] = {}


def _arc(p0: Point, p1: Point, c: Point) -> _Geom:
    sweep = 1 if _cross(_sub(p0, c), _sub(p1, c)) > 0 else 0
    return _Geom("arc", p0, p1, c, r=_len(_sub(p0, c)), sweep=sweep)


def _line_intersection(p: Point, d: Point, q: Point, e: Point) -> Point | None:
    den = _cross(d, e)
    if abs(den) < 1e-9:
        return None
    t = _cross(_sub(q, p), e) / den
    return _add(p, _mul(d, t))


@lru_cache(maxsize=4096)
def _edge_tangent(edge: int, layout: Layout) -> Point:
    """Unit vector along ``edge`` in the clockwise direction."""
    a, b = edge_endpoints(edge, layout)
    return _unit(_sub(b, a))


@lru_cache(maxsize=4096)
def _edge_point(edge: int, lane: tuple[int, int], layout: Layout) -> Point:
    """Where a track leaves ``edge`` in lane (width, index); index 0 is the most clockwise."""
    m = _scaled(edge_midpoint(edge, layout))
    width, index = lane
    if width <= 1:
        return m
    off = ((width - 1) / 2.0 - index) * _LANE_SPACING
    return _add(m, _mul(_edge_tangent(edge, layout), off))


@lru_cache(maxsize=4096)
def _inward(edge: int, layout: Layout) -> Point:
    return _unit(_mul(edge_midpoint(edge, layout), -1.0))


@lru_cache(maxsize=4096)
def _edge_edge(a: int, b: int, pa: Point, pb: Point, layout: Layout) -> _Geom:
    na, nb = _inward(a, layout), _inward(b, layout)
    if (a - b) % 3 == 0:  # opposite edges: parallel normals
        if abs(_cross(na, _sub(pb, pa))) < 0.5:
            return _Geom("line", pa, pb)
        k = _len(_sub(pb, pa)) * 0.4
        return _Geom("cubic", pa, pb, _add(pa, _mul(na, k)), _add(pb, _mul(nb, k)))
    ta, tb = _edge_tangent(a, layout), _edge_tangent(b, layout)
    c = _line_intersection(pa, ta, pb, tb)
    if c is not None and abs(_len(_sub(pa, c)) - _len(_sub(pb, c))) < 0.5:
        return _arc(pa, pb, c)
    k = _len(_sub(pb, pa)) * 0.45
    return _Geom("cubic", pa, pb, _add(pa, _mul(na, k)), _add(pb, _mul(nb, k)))


# ------------------------------------------------------------------------ nodes


@dataclass(slots=True)
class _NodeGeo:
    pos: Point
    extent: float  # radius of a circle covering the drawn node
    curve: _Geom | None = None  # the edge-to-edge curve a node sits on (midpoint)
    curve_edges: tuple[int, int] = (-1, -1)
    bar_angle: float = 0.0  # town bar direction (degrees)


def _slot_offsets(slots: int) -> list[Point]:
    r = _SLOT_R
    if slots <= 1:
        return [(0.0, 0.0)]
    if slots == 2:
        return [(-r, 0.0), (r, 0.0)]
    if slots == 4:
        return [(-r, -r), (r, -r), (-r, r), (r, r)]
    ring = r / math.sin(math.pi / slots)
    start = -90.0
    return [polar(start + 360.0 * i / slots, ring) for i in range(slots)]


def _node_extent(tile: Tile, i: int) -> float:
    node = tile.nodes[i]
    if node.kind is NodeKind.CITY:
        offs = _slot_offsets(max(node.slots, 1))
        return max(_len(o) for o in offs) + _SLOT_R + 2.0
    if node.kind is NodeKind.TOWN:
        return 0.0 if tile.town_style(i) is TownStyle.HIDDEN else 18.0
    return 0.0


def _layout_nodes(tile: Tile, layout: Layout) -> list[_NodeGeo]:
    n = len(tile.nodes)
    out: list[_NodeGeo | None] = [None] * n
    placed: list[tuple[Point, float]] = []
    drawn = [i for i in range(n) if tile.nodes[i].kind in (NodeKind.CITY, NodeKind.TOWN)]
    multi = len(drawn) > 1
    for i, node in enumerate(tile.nodes):
        if node.loc is not None:
            g = _NodeGeo(_scaled(loc_point(node.loc, layout)), _node_extent(tile, i))
            out[i] = g
            if g.extent:
                placed.append((g.pos, g.extent))
    unconnected = [
        i for i in range(n) if multi and tile.nodes[i].loc is None and not tile.node_exits(i)
    ]
    for i, node in enumerate(tile.nodes):
        if out[i] is not None:
            continue
        ext = _node_extent(tile, i)
        exits = sorted(tile.node_exits(i))
        cands: list[_NodeGeo] = []
        if i in unconnected:
            k, m = unconnected.index(i), len(unconnected)
            x = (k - (m - 1) / 2.0) * min(70.0, 120.0 / max(m - 1, 1))
            cands.append(_NodeGeo((x, 0.0), ext))
        elif (
            len(exits) == 2
            and (exits[0] - exits[1]) % 3 != 0
            and (multi or node.kind is NodeKind.TOWN)
        ):
            a, b = exits
            curve = _edge_edge(
                a, b, _edge_point(a, (1, 0), layout), _edge_point(b, (1, 0), layout), layout
            )
            mid = curve.point(0.5)
            ang = math.degrees(math.atan2(mid[1] - curve.c[1], mid[0] - curve.c[0]))
            cands.append(_NodeGeo(mid, ext, curve, (a, b), ang))
            cands.append(_NodeGeo((0.0, 0.0), ext))
        elif len(exits) == 2 and (exits[0] - exits[1]) % 3 == 0:
            ang = edge_angle(exits[0], layout) + 90.0
            cands.append(_NodeGeo((0.0, 0.0), ext, bar_angle=ang))
            for t in (30.0, 38.0, 46.0):
                for e in exits:
                    p = polar(edge_angle(e, layout), t)
                    cands.append(_NodeGeo(p, ext, bar_angle=ang))
        elif exits and multi:
            s = (0.0, 0.0)
            for e in exits:
                s = _add(s, _unit(edge_midpoint(e, layout)))
            d = _unit(s)
            ang = math.degrees(math.atan2(d[1], d[0])) + 90.0
            for dist in (50.0, 56.0, 62.0) if len(exits) == 1 else (30.0, 40.0):
                cands.append(_NodeGeo(_mul(d, dist), ext, bar_angle=ang))
            cands.append(_NodeGeo((0.0, 0.0), ext, bar_angle=ang))
        else:
            ang = 0.0
            if len(exits) == 1:
                ang = edge_angle(exits[0], layout) + 90.0
            cands.append(_NodeGeo((0.0, 0.0), ext, bar_angle=ang))

        def clearance(g: _NodeGeo) -> float:
            if not g.extent:
                return 1e9
            return min((_len(_sub(g.pos, p)) - e - g.extent for p, e in placed if e), default=1e9)

        best = next((c for c in cands if clearance(c) >= 0.0), None)
        if best is None:
            best = max(cands, key=clearance)
        out[i] = best
        if best.extent:
            placed.append((best.pos, best.extent))
    geos = [g if g is not None else _NodeGeo((0.0, 0.0), 0.0) for g in out]
    for i, node in enumerate(tile.nodes):  # town bars lie across the track through them
        g = geos[i]
        if node.kind is not NodeKind.TOWN or g.curve is not None:
            continue
        dirs: list[Point] = []
        for pth in tile.paths_at_node(i):
            other = pth.b if pth.a == NodeRef(i) else pth.a
            q = (
                _edge_point(other.num, (1, 0), layout)
                if isinstance(other, Edge)
                else (geos[other.index].pos)
            )
            u = _unit(_sub(q, g.pos))
            if u != (0.0, 0.0):
                dirs.append(u)
        if len(dirs) == 1:
            g.bar_angle = math.degrees(math.atan2(dirs[0][1], dirs[0][0])) + 90.0
        elif len(dirs) == 2:
            tv = _sub(dirs[0], dirs[1])
            g.bar_angle = math.degrees(math.atan2(tv[1], tv[0])) + 90.0
    return geos


# ------------------------------------------------------------------------ paths


def _end_point(end: End, lane: tuple[int, int], layout: Layout, nodes: list[_NodeGeo]) -> Point:
    if isinstance(end, Edge):
        return _edge_point(end.num, lane, layout)
    return nodes[end.index].pos


def _path_geom(path: Path, layout: Layout, nodes: list[_NodeGeo]) -> _Geom:
    a, b = path.a, path.b
    if isinstance(a, NodeRef) and isinstance(b, Edge):
        return _reverse(_path_geom(_swap(path), layout, nodes))
    pa = _end_point(a, path.a_lane, layout, nodes)
    pb = _end_point(b, path.b_lane, layout, nodes)
    if isinstance(a, Edge) and isinstance(b, Edge):
        return _edge_edge(a.num, b.num, pa, pb, layout)
    if isinstance(a, Edge) and isinstance(b, NodeRef):
        g = nodes[b.index]
        width, index = path.a_lane
        if width > 1:  # parallel lanes into a node: shift the node end by the same offset
            off = ((width - 1) / 2.0 - index) * _LANE_SPACING
            pb = _add(pb, _mul(_edge_tangent(a.num, layout), off))
        if g.curve is not None and a.num in g.curve_edges and width <= 1:
            c = g.curve
            return _arc(pa, pb, c.c) if c.kind == "arc" else _Geom("line", pa, pb)
        n = _inward(a.num, layout)
        v = _sub(pb, pa)
        if abs(_cross(n, v)) < 0.5:
            return _Geom("line", pa, pb)
        k = max(_dot(v, n), 0.25 * _len(v))
        c1 = _add(pa, _mul(n, k * 0.9))
        return _Geom("cubic", pa, pb, c1, _add(pb, _mul(_sub(c1, pb), 0.3)))
    return _Geom("line", pa, pb)


def _swap(p: Path) -> Path:
    return Path(p.b, p.a, p.terminal, p.ignore, p.b_lane, p.a_lane, p.track, p.over)


def _reverse(g: _Geom) -> _Geom:
    if g.kind == "line":
        return _Geom("line", g.p1, g.p0)
    if g.kind == "arc":
        return _Geom("arc", g.p1, g.p0, g.c, r=g.r, sweep=1 - g.sweep)
    return _Geom("cubic", g.p1, g.p0, g.c2, g.c)


def _interleave(p: tuple[int, int], q: tuple[int, int]) -> bool:
    """Whether chords p and q between edges cross (their ends alternate around the hex)."""
    a, b = sorted(p)
    c, d = q
    if len({a, b, c, d}) < 4:
        return False
    return (a < c < b) != (a < d < b)


def _terminal_polygon(path: Path, layout: Layout, nodes: list[_NodeGeo]) -> str | None:
    p = path if isinstance(path.a, Edge) else _swap(path)
    if not isinstance(p.a, Edge):
        return None
    pa = _edge_point(p.a.num, p.a_lane, layout)
    target = nodes[p.b.index].pos if isinstance(p.b, NodeRef) else _scaled(edge_midpoint(p.b.num))
    d = _unit(_sub(target, pa))
    if d == (0.0, 0.0):
        d = _inward(p.a.num, layout)
    t = (-d[1], d[0])
    hw = 13.0 if p.a_lane[0] <= 1 else 6.0
    straight, tip = (16.0, 50.0) if path.terminal != 2 else (10.0, 30.0)
    pts = [
        _add(pa, _mul(t, hw)),
        _add(_add(pa, _mul(t, hw)), _mul(d, straight)),
        _add(pa, _mul(d, tip)),
        _add(_add(pa, _mul(t, -hw)), _mul(d, straight)),
        _add(pa, _mul(t, -hw)),
    ]
    return " ".join(_pt(q) for q in pts)


def _is_terminal(tile: Tile, path: Path) -> bool:
    if path.terminal:
        return True
    return any(
        isinstance(e, NodeRef) and tile.nodes[e.index].kind is NodeKind.OFFBOARD for e in path.ends
    ) and any(isinstance(e, Edge) for e in path.ends)


def _draw_paths(
    tile: Tile, layout: Layout, nodes: list[_NodeGeo], bg: str, out: list[str]
) -> list[tuple[Point, ...]]:
    samples: list[tuple[Point, ...]] = []
    chords: list[tuple[int, int]] = []
    for path in tile.paths:
        a, b = str(path.a), str(path.b)
        attrs = f'data-a="{a}" data-b="{b}" data-track="{path.track.value}"'
        if _is_terminal(tile, path):
            poly = _terminal_polygon(path, layout, nodes)
            if poly is not None:
                out.append(f'<polygon class="track terminal" {attrs} points="{poly}" fill="#000"/>')
                geom = _path_geom(path, layout, nodes)
                samples.append(geom.samples(4)[:3])
                continue
        geom = _path_geom(path, layout, nodes)
        d = geom.d()
        samples.append(geom.samples(20))
        chord = (
            (path.a.num, path.b.num)
            if isinstance(path.a, Edge) and isinstance(path.b, Edge)
            else None
        )
        cross = chord is not None and any(_interleave(chord, c) for c in chords)
        if path.over or cross:
            w = _TRACK_W + 2 * _GAP + (4.0 if path.track is Track.DUAL else 0.0)
            out.append(f'<path class="gap" d="{d}" stroke="{bg}" stroke-width="{_f(w)}"/>')
        if chord is not None:
            chords.append(chord)
        tr = path.track
        if tr is Track.NARROW:
            out.append(f'<path class="track-base" d="{d}" stroke="{_WHITE}" stroke-width="8"/>')
            out.append(
                f'<path class="track" {attrs} d="{d}" stroke="#000" stroke-width="8"'
                ' stroke-dasharray="9 6"/>'
            )
        elif tr is Track.FERRY:
            out.append(f'<path class="track-base" d="{d}" stroke="{_WHITE}" stroke-width="8"/>')
            out.append(
                f'<path class="track" {attrs} d="{d}" stroke="#1f6fc5" stroke-width="8"'
                ' stroke-dasharray="12 6"/>'
            )
        elif tr is Track.DUAL:
            out.append(f'<path class="track" {attrs} d="{d}" stroke="#000" stroke-width="10"/>')
            out.append(
                f'<path class="track-inner" d="{d}" stroke="{_WHITE}" stroke-width="3"'
                ' stroke-dasharray="9 6"/>'
            )
        elif tr is Track.TUNNEL:
            out.append(
                f'<path class="ties" d="{d}" stroke="#555" stroke-width="20"'
                ' stroke-dasharray="3 7"/>'
            )
            out.append(f'<path class="track" {attrs} d="{d}" stroke="#000" stroke-width="8"/>')
        else:
            out.append(f'<path class="track" {attrs} d="{d}" stroke="#000" stroke-width="8"/>')
    return samples


def _draw_nodes(tile: Tile, nodes: list[_NodeGeo], out: list[str]) -> None:
    rot = tile.rotation * 60.0
    order = sorted(range(len(tile.nodes)), key=lambda k: tile.nodes[k].kind is NodeKind.TOWN)
    for i in order:
        node = tile.nodes[i]
        g = nodes[i]
        x, y = _pt(g.pos).split(",")
        tr = f'transform="translate({x},{y})"'
        if node.kind is NodeKind.CITY:
            slots = max(node.slots, 1)
            offs = _slot_offsets(slots)
            if rot:
                offs = [_turn(o, rot) for o in offs]
            parts = [f'<g class="city" data-node="{i}" data-slots="{node.slots}" {tr}>']
            if slots == 2:
                parts.append(
                    f'<rect class="city-box" x="-52" y="-27" width="104" height="54" rx="14"'
                    f' fill="{_WHITE}" stroke="#000" stroke-width="2"'
                    + (f' transform="rotate({_f(rot)})"' if rot else "")
                    + "/>"
                )
            elif slots > 2:
                pts = " ".join(_pt(o) for o in offs)
                hull = f'points="{pts}" stroke-linejoin="round"'
                parts.append(
                    f'<polygon class="city-box" {hull} fill="{_WHITE}" stroke="#000"'
                    f' stroke-width="{_f(2 * _SLOT_R + 4)}"/>'
                )
                parts.append(
                    f'<polygon {hull} fill="{_WHITE}" stroke="{_WHITE}"'
                    f' stroke-width="{_f(2 * _SLOT_R)}"/>'
                )
            for o in offs:
                parts.append(
                    f'<circle class="slot" cx="{_f(o[0])}" cy="{_f(o[1])}" r="{_f(_SLOT_R)}"'
                    f' fill="{_WHITE}" stroke="#000" stroke-width="2"/>'
                )
            parts.append("</g>")
            out.append("".join(parts))
        elif node.kind is NodeKind.TOWN:
            style = tile.town_style(i)
            if style is TownStyle.HIDDEN:
                continue
            if style is TownStyle.DOT:
                out.append(
                    f'<g class="town" data-node="{i}" data-style="dot" {tr}><circle r="10"'
                    ' fill="#000" stroke="#fff" stroke-width="3"/></g>'
                )
            else:
                out.append(
                    f'<g class="town" data-node="{i}" data-style="rect" {tr}>'
                    f'<rect x="-18" y="-5.5" width="36" height="11" fill="#000"'
                    f' transform="rotate({_f(g.bar_angle % 180.0)})"/></g>'
                )
        elif node.kind is NodeKind.JUNCTION:
            out.append(f'<g class="junction" data-node="{i}" {tr}/>')


def _turn(p: Point, deg: float) -> Point:
    r = math.radians(deg)
    c, s = math.cos(r), math.sin(r)
    return (p[0] * c - p[1] * s, p[0] * s + p[1] * c)


# -------------------------------------------------------------------- placement


class _Track:
    """The track samples of one drawing, with what placement derives from them.

    Shared by every tile drawn with the same track (see :func:`_track`): the regions no track
    crosses, the samples sorted by x (with their drawing order) and the spots already chosen
    by :meth:`_Placer.place`, by everything else they depend on.
    """

    __slots__ = ("places", "region_cands", "sorted_samples", "sorted_xs")

    def __init__(self, layout: Layout, samples: tuple[tuple[Point, ...], ...]) -> None:
        used: set[int] = set()
        for s in samples:
            used |= _regions_hit(s, layout)
        centres = _region_centres(layout)
        self.region_cands = [centres[r] for r in range(24) if r not in used]
        flat = [p for s in samples for p in s]
        self.sorted_samples = sorted((p[0], p[1], k) for k, p in enumerate(flat))
        self.sorted_xs = [p[0] for p in self.sorted_samples]
        # place() results by everything else they depend on
        self.places: dict[tuple[Any, ...], Point] = {}


_TRACKS: dict[tuple[Layout, tuple[tuple[Point, ...], ...]], _Track] = {}


def _track(layout: Layout, samples: list[tuple[Point, ...]]) -> _Track:
    """The shared :class:`_Track` of these samples."""
    key = (layout, tuple(samples))
    t = _TRACKS.get(key)
    if t is None:
        if len(_TRACKS) > 2048:
            _TRACKS.clear()
        t = _TRACKS[key] = _Track(layout, key[1])
    return t


class _Placer:
    """Finds free spots for revenues, labels and marks, avoiding track, nodes and each other."""

    __slots__ = ("boxes", "circles", "layout", "track")

    def __init__(
        self,
        layout: Layout,
        samples: list[tuple[Point, ...]],
        circles: list[tuple[Point, float]],
    ) -> None:
        self.layout = layout
        self.track = _track(layout, samples)
        self.circles = [c for c in circles if c[1] > 0]
        self.boxes: list[tuple[float, float, float, float]] = []

    def take(self, cx: float, cy: float, hw: float, hh: float) -> None:
        """Mark a box as used."""
        self.boxes.append((cx - hw, cy - hh, cx + hw, cy + hh))

    def cost(self, c: Point, hw: float, hh: float, limit: float = math.inf) -> float:
        """How badly a box of half-size (hw, hh) centred at ``c`` overlaps things.

        The sum, in this order, of: how far the box's corners stick out of the hex (less a
        margin), the track samples within a margin of the box (in drawing order), the nodes it
        touches and the boxes already placed it overlaps. Once the hex part, or the hex and
        track parts, exceed ``limit`` the counting stops and a sum above ``limit`` is returned.
        """
        table = _hex_cost_table(self.layout, hw, hh)
        bad = table.get(c)
        if bad is None:
            bad = table[c] = _hex_cost(self.layout, c, hw, hh)
        if bad > limit:
            return bad
        return self._cost_rest(c, hw, hh, limit, bad)

    def _cost_rest(self, c: Point, hw: float, hh: float, limit: float, bad: float) -> float:
        """:meth:`cost` given its hex part ``bad`` (not above ``limit``)."""
        x0, y0, x1, y1 = c[0] - hw, c[1] - hh, c[0] + hw, c[1] + hh
        # Each part is a sum of positive terms. Any of them taking the total clearly over the
        # limit means the exact sum is over it too, so the cheap parts (nodes, placed boxes) are
        # counted first and the counting stops there. Otherwise the exact sum is formed in the
        # order above, so the result does not depend on the order things were looked at.
        stop = limit + 1e-7 * (1.0 + abs(limit))
        rough = bad
        late: list[float] = []
        for (px, py), r in self.circles:
            dx = x0 - px if px < x0 else (px - x1 if px > x1 else 0.0)
            dy = y0 - py if py < y0 else (py - y1 if py > y1 else 0.0)
            dist = math.hypot(dx, dy)
            if dist < r + 2.0:
                t = (r + 2.0 - dist) * 2.0 + 10.0
                rough += t
                if rough > stop:
                    return rough
                late.append(t)
        for bx0, by0, bx1, by1 in self.boxes:
            ox = min(x1, bx1) - max(x0, bx0) + 2.0
            oy = min(y1, by1) - max(y0, by0) + 2.0
            if ox > 0 and oy > 0:
                t = min(ox, oy) * 3.0 + 30.0
                rough += t
                if rough > stop:
                    return rough
                late.append(t)
        # track: only the samples whose x is within the margin of the box can count
        m = _TRACK_W / 2 + 3.0
        ay0, ay1 = y0 - m, y1 + m
        track = self.track
        xs = track.sorted_xs
        i, j = bisect_left(xs, x0 - m), bisect_right(xs, x1 + m)
        if i < j:
            terms: list[tuple[int, float]] = []
            for px, py, k in track.sorted_samples[i:j]:
                if py < ay0 or py > ay1:
                    continue
                dx = x0 - px if px < x0 else (px - x1 if px > x1 else 0.0)
                dy = y0 - py if py < y0 else (py - y1 if py > y1 else 0.0)
                dist = math.hypot(dx, dy)
                if dist < m:
                    t = m - dist + 4.0
                    rough += t
                    if rough > stop:
                        return rough
                    terms.append((k, t))
            if terms:
                terms.sort()
                for _, t in terms:
                    bad += t
                if bad > limit:
                    return bad
        for t in late:
            bad += t
        return bad

    def place(
        self,
        anchor: Point,
        hw: float,
        hh: float,
        extra: Sequence[Point] = (),
        weight: float = 0.05,
    ) -> Point:
        """The best centre for a box of half-size (hw, hh) near ``anchor``; marks it used.

        Candidates are the given ``extra`` spots, the centres of the regions no track passes
        through, then a coarse grid; the cost is overlap first, then distance to ``anchor``.
        The first candidate with the lowest score wins.
        """
        memo = self.track.places
        key = (tuple(self.circles), tuple(self.boxes), anchor, hw, hh, tuple(extra), weight)
        found = memo.get(key)
        if found is not None:
            self.take(found[0], found[1], hw, hh)
            return found
        cands: list[Point] = list(extra)
        cands += self.track.region_cands
        cands += _GRID_POINTS
        best: Point = anchor
        best_score = math.inf
        ax, ay = anchor
        rest = self._cost_rest
        table = _hex_cost_table(self.layout, hw, hh)
        for c in cands:
            if best_score <= 0.0:  # nothing scores below 0
                break
            near = math.hypot(c[0] - ax, c[1] - ay) * weight
            if near >= best_score:
                continue
            # score = cost(c, hw, hh, limit) * 10 + near, with cost() inlined
            limit = (best_score - near) / 10.0
            bad = table.get(c)
            if bad is None:
                bad = table[c] = _hex_cost(self.layout, c, hw, hh)
            if bad <= limit:
                bad = rest(c, hw, hh, limit, bad)
            score = bad * 10.0 + near
            if score < best_score:
                best, best_score = c, score
        memo[key] = best
        self.take(best[0], best[1], hw, hh)
        return best


_HEX_COST_TABLES: dict[tuple[Layout, float, float], dict[Point, float]] = {}


def _hex_cost_table(layout: Layout, hw: float, hh: float) -> dict[Point, float]:
    """The memo of :func:`_hex_cost` for boxes of one size (filled as candidates are met)."""
    key = (layout, hw, hh)
    table = _HEX_COST_TABLES.get(key)
    if table is None:
        if len(_HEX_COST_TABLES) > 512:
            _HEX_COST_TABLES.clear()
        table = _HEX_COST_TABLES[key] = {}
    return table


def _hex_cost(layout: Layout, c: Point, hw: float, hh: float) -> float:
    """The hex-edge part of :meth:`_Placer.cost`: how far the box's corners stick out."""
    x0, y0, x1, y1 = c[0] - hw, c[1] - hh, c[0] + hw, c[1] + hh
    bad = 0.0
    lim = APOTHEM * UNIT - 3.0
    for nx, ny in _normals(layout):
        for qx, qy in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
            e = qx * nx + qy * ny - lim
            if e > 0:
                bad += e * 3.0
    return bad


@lru_cache(maxsize=2)
def _region_centres(layout: Layout) -> tuple[Point, ...]:
    return tuple(_scaled(region_centroid(r, layout)) for r in range(24))


@lru_cache(maxsize=4096)
def _regions_hit(points: tuple[Point, ...], layout: Layout) -> frozenset[int]:
    """The regions (see :func:`tilelay.hexgeo.region_at`) that track through ``points`` crosses."""
    out: set[int] = set()
    tris = _region_boxes(layout)
    for px, py in points[::2]:
        x, y = px / UNIT, py / UNIT
        # region_at: the first triangle containing the point (edges included, within 1e-9);
        # a triangle whose box is more than 1e-6 away cannot contain it
        for i, bx0, by0, bx1, by1, (ax, ay), (bx, by), (cx, cy) in tris:
            if x < bx0 or x > bx1 or y < by0 or y > by1:
                continue
            d1 = (ax - x) * (by - y) - (ay - y) * (bx - x)
            d2 = (bx - x) * (cy - y) - (by - y) * (cx - x)
            d3 = (cx - x) * (ay - y) - (cy - y) * (ax - x)
            neg = d1 < -1e-9 or d2 < -1e-9 or d3 < -1e-9
            pos = d1 > 1e-9 or d2 > 1e-9 or d3 > 1e-9
            if not (neg and pos):
                out.add(i)
                break
    return frozenset(out)


_RegionBox = tuple[int, float, float, float, float, Point, Point, Point]


@lru_cache(maxsize=2)
def _region_boxes(layout: Layout) -> tuple[_RegionBox, ...]:
    """Each region's number, bounding box (widened by 1e-6) and corners."""
    out: list[_RegionBox] = []
    for i, (a, b, c) in enumerate(region_polygons(layout)):
        xs, ys = (a[0], b[0], c[0]), (a[1], b[1], c[1])
        e = 1e-6
        out.append((i, min(xs) - e, min(ys) - e, max(xs) + e, max(ys) + e, a, b, c))
    return tuple(out)


@lru_cache(maxsize=2)
def _normals(layout: Layout) -> tuple[Point, ...]:
    return tuple(polar(edge_angle(e, layout), 1.0) for e in range(6))


_GRID_POINTS: tuple[Point, ...] = tuple(
    (float(x), float(y)) for y in range(-64, 65, 16) for x in range(-64, 65, 16)
)


# ---------------------------------------------------------------------- widgets


def _text(
    x: float,
    y: float,
    text: str,
    size: float,
    *,
    cls: str,
    bold: bool = False,
    anchor: str = "middle",
    fill: str = "#000",
    extra: str = "",
) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text class="{cls}" x="{_f(x)}" y="{_f(y + size * 0.35)}" font-size="{_f(size)}"'
        f' text-anchor="{anchor}"{weight} fill="{fill}"{extra}>{_esc(text)}</text>'
    )


def _text_width(text: str, size: float, bold: bool = False) -> float:
    return len(text) * size * (0.62 if bold else 0.55)


def _revenue_size(rev: Revenue, layout_name: str | None) -> tuple[str, float, float]:
    """The revenue layout to use and the half-size of its widget."""
    vals = rev.values()
    if not rev.is_phased and len(vals) == 1:
        return "single", _REV_R, _REV_R
    lay = layout_name or "split"
    n = len(vals)
    w = max(max(len(str(v)) for v in vals) * 9.0 + 8.0, 24.0)
    if lay == "circle":
        return lay, n * (_REV_R + 1.0), _REV_R
    if lay == "oval":
        return lay, n * w / 2.0 + 8.0, 14.0
    if lay == "vertical":
        return lay, w / 2.0, n * 11.0
    if lay == "horizontal":
        return lay, n * (w + 3.0) / 2.0, 11.0
    return "split", n * w / 2.0, 11.0


def _revenue_widget(rev: Revenue, layout_name: str | None, c: Point, node: str) -> str:
    lay, hw, hh = _revenue_size(rev, layout_name)
    vals = rev.values()
    data = "|".join(str(v) for v in vals)
    head = (
        f'<g class="revenue" data-node="{node}" data-layout="{lay}" data-values="{data}"'
        f' transform="translate({_pt(c)})">'
    )
    parts = [head]
    if lay == "single":
        txt = str(vals[0])
        fs = 17.0 if len(txt) < 3 else 14.0
        parts.append(f'<circle r="{_f(_REV_R)}" fill="{_WHITE}" stroke="#000" stroke-width="1.5"/>')
        parts.append(_text(0.0, 0.0, txt, fs, cls="revenue-value", bold=True))
        parts.append("</g>")
        return "".join(parts)
    phases = rev.phases or tuple(("", v) for v in vals)
    n = len(phases)
    fs = 15.0
    if lay == "circle":
        step = 2 * hw / n
        for k, (ph, v) in enumerate(phases):
            x = -hw + step * (k + 0.5)
            col = _phase_color(ph, k) if ph else "#000"
            parts.append(
                f'<circle cx="{_f(x)}" r="{_f(_REV_R)}" fill="{_WHITE}" stroke="{col}"'
                ' stroke-width="3"/>'
            )
            parts.append(_text(x, 0.0, str(v), fs, cls="revenue-value", bold=True))
    elif lay == "oval":
        parts.append(
            f'<ellipse rx="{_f(hw)}" ry="{_f(hh)}" fill="{_WHITE}" stroke="#000"'
            ' stroke-width="1.5"/>'
        )
        step = (2 * hw - 16.0) / n
        for k, (_, v) in enumerate(phases):
            x = -hw + 8.0 + step * (k + 0.5)
            parts.append(_text(x, 0.0, str(v), fs, cls="revenue-value", bold=True))
            if k:
                xs = _f(-hw + 8.0 + step * k)
                parts.append(
                    f'<line x1="{xs}" y1="-9" x2="{xs}" y2="9" stroke="#000" stroke-width="1"/>'
                )
    elif lay == "vertical":
        bh = 2 * hh / n
        for k, (ph, v) in enumerate(phases):
            y = -hh + bh * k
            parts.append(
                f'<rect x="{_f(-hw)}" y="{_f(y)}" width="{_f(2 * hw)}" height="{_f(bh)}"'
                f' fill="{_phase_color(ph, k)}" stroke="#000" stroke-width="1.5"/>'
            )
            parts.append(_text(0.0, y + bh / 2, str(v), fs, cls="revenue-value", bold=True))
    else:
        gap = 3.0 if lay == "horizontal" else 0.0
        bw = (2 * hw - gap * (n - 1)) / n
        for k, (ph, v) in enumerate(phases):
            x = -hw + (bw + gap) * k
            parts.append(
                f'<rect x="{_f(x)}" y="{_f(-hh)}" width="{_f(bw)}" height="{_f(2 * hh)}"'
                f' fill="{_phase_color(ph, k)}" stroke="#000" stroke-width="'
                + ("1.5" if gap else "0.75")
                + '"/>'
            )
            parts.append(_text(x + bw / 2, 0.0, str(v), fs, cls="revenue-value", bold=True))
        if not gap:
            parts.append(
                f'<rect x="{_f(-hw)}" y="{_f(-hh)}" width="{_f(2 * hw)}" height="{_f(2 * hh)}"'
                ' fill="none" stroke="#000" stroke-width="1.5"/>'
            )
    parts.append("</g>")
    return "".join(parts)


def _terrain_symbol(terrain: str, x: float) -> str:
    t = terrain.lower()
    if t == "mountain":
        return (
            f'<polygon class="terrain mountain" points="{_f(x - 11)},8 {_f(x)},-11 {_f(x + 11)},8"'
            ' fill="#cb7745" stroke="#000" stroke-width="1.2"/>'
            f'<polygon points="{_f(x - 4.4)},-3.4 {_f(x)},-11 {_f(x + 4.4)},-3.4" fill="#fff"/>'
        )
    if t == "water":
        d = " ".join(f"M{_f(x - 11)},{_f(y)} q5.5,-5 11,0 t11,0" for y in (-3.0, 4.0))
        return (
            f'<path class="terrain water" d="{d}" fill="none" stroke="#147ebe" stroke-width="2.6"/>'
        )
    return (
        f'<g class="terrain {_esc(t)}"><circle cx="{_f(x)}" r="10" fill="#fff" stroke="#000"/>'
        + _text(x, 0.0, t[:1].upper(), 12.0, cls="terrain-letter", bold=True)
        + "</g>"
    )


# ------------------------------------------------------------------------ tiles


def _stripes(base: str, stripe: str, layout: Layout) -> str:
    """Diagonal stripes of ``stripe`` over the hex, clipped to it without ids."""
    hexpoly = [_scaled(corner(i, layout)) for i in range(6)]
    d = _unit((1.0, -1.0))
    n = (-d[1], d[0])
    parts = []
    w = 14.0
    for k in range(-8, 8, 2):
        lo, hi = k * w, (k + 1) * w
        poly = _clip(hexpoly, n, lo, hi)
        if len(poly) >= 3:
            parts.append(" ".join(_pt(p) for p in poly))
    del base
    return "".join(f'<polygon class="stripe" points="{p}" fill="{stripe}"/>' for p in parts)


def _clip(poly: list[Point], n: Point, lo: float, hi: float) -> list[Point]:
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
                res.append(_add(p, _mul(_sub(q, p), t)))
        return res

    out = half(poly, lambda p: _dot(p, n) - lo)
    return half(out, lambda p: hi - _dot(p, n)) if out else out


def _grid(layout: Layout) -> str:
    parts = ['<g class="region-grid" fill="none" stroke="#666" stroke-width="0.6">']
    for i, tri in enumerate(region_polygons(layout)):
        parts.append(f'<polygon points="{" ".join(_pt(_scaled(p)) for p in tri)}"/>')
        c = _scaled(region_centroid(i, layout))
        parts.append(_text(c[0], c[1], str(i), 8.0, cls="region-number", fill="#666"))
    parts.append("</g>")
    return "".join(parts)


def _body(tile: Tile, layout: Layout, grid: bool, name: str | None, show_number: bool) -> str:
    """The inside of a tile's ``<g>``, in tile units."""
    fill = COLORS.get(tile.color.value, "#eaf0f4")
    out: list[str] = [f'<polygon class="hex-fill" points="{_hex_points(layout)}" fill="{fill}"/>']
    if tile.stripe is not None:
        out.append(_stripes(fill, COLORS.get(tile.stripe.value, "#888"), layout))
    if grid:
        out.append(_grid(layout))
    if tile.frame is not None:
        pts = _hex_points(layout, 0.93)
        out.append(
            f'<polygon class="frame" points="{pts}" fill="none"'
            f' stroke="{_esc(_color(tile.frame.color))}" stroke-width="9"/>'
        )
        if tile.frame.color2:
            out.append(
                f'<polygon class="frame2" points="{pts}" fill="none"'
                f' stroke="{_esc(_color(tile.frame.color2))}" stroke-width="9"'
                ' stroke-dasharray="15 15"/>'
            )
    nodes = _layout_nodes(tile, layout)
    out.append('<g class="paths" fill="none" stroke-linecap="butt">')
    samples = _draw_paths(tile, layout, nodes, fill, out)
    out.append("</g>")
    _draw_nodes(tile, nodes, out)
    placer = _Placer(
        layout, samples, [(nodes[i].pos, nodes[i].extent) for i in range(len(tile.nodes))]
    )
    number = tile.name if show_number and tile.name else None
    spot = (36.0, 66.0)
    if number:  # the lower right, unless track runs there
        hw = _text_width(number, 12.0) / 2
        spot = placer.place(spot, hw, 7.0, [spot, (-36.0, 66.0), (0.0, 70.0)], weight=1.0)
    _draw_marks(tile, layout, nodes, placer, name, out)
    if number:
        out.append(_text(spot[0], spot[1], number, 12.0, cls="tile-number"))
    for b in tile.borders:
        out.append(_border(b.edge, b.type, b.cost, fill, layout))
    out.append(
        f'<polygon class="hex-outline" points="{_hex_points(layout)}" fill="none"'
        ' stroke="#000" stroke-width="1.2"/>'
    )
    return "".join(out)


def _draw_marks(
    tile: Tile,
    layout: Layout,
    nodes: list[_NodeGeo],
    placer: _Placer,
    name: str | None,
    out: list[str],
) -> None:
    # revenues
    shown = [
        i
        for i, n in enumerate(tile.nodes)
        if n.revenue is not None
        and not n.hide
        and n.kind is not NodeKind.JUNCTION
        and (n.revenue.is_phased or n.revenue.value)
    ]
    same = (
        len(shown) > 1
        and len({tile.nodes[i].revenue for i in shown}) == 1
        and all(tile.nodes[i].revenue_loc is None for i in shown)
    )
    groups = [shown] if same else [[i] for i in shown]
    for group in groups:
        node = tile.nodes[group[0]]
        rev = node.revenue
        assert rev is not None
        _, hw, hh = _revenue_size(rev, node.revenue_layout)
        if node.revenue_loc is not None:
            c = _scaled(loc_point(node.revenue_loc, layout))
            placer.take(c[0], c[1], hw, hh)
        else:
            anchor = (0.0, 0.0) if same else nodes[group[0]].pos
            extra: list[Point] = []
            if hw > 20:
                extra = [(0.0, -45.0), (0.0, 45.0), (0.0, 0.0), (0.0, -60.0), (0.0, 60.0)]
            c = placer.place(anchor, hw, hh, extra)
        ref = "|".join(f"_{i}" for i in group)
        out.append(_revenue_widget(rev, node.revenue_layout, c, ref))
    # labels
    for lab in tile.labels:
        fs = 30.0 if len(lab.text) <= 2 else 24.0
        hw, hh = _text_width(lab.text, fs, True) / 2, fs * 0.42
        if lab.loc is not None:
            c = _scaled(loc_point(lab.loc, layout))
            placer.take(c[0], c[1], hw, hh)
        else:
            c = placer.place((-55.0, -10.0), hw, hh, weight=0.2)
        out.append(_text(c[0], c[1], lab.text, fs, cls="label", bold=True))
    # terrain upgrades
    for up in tile.upgrades:
        cost = str(up.cost) if up.cost else ""
        n = len(up.terrains)
        tw = _text_width(cost, 15.0, True)
        hw = (n * 24.0 + tw + (4.0 if n and cost else 0.0)) / 2 + 2.0
        hh = 12.0
        if up.loc is not None:
            c = _scaled(loc_point(up.loc, layout))
            placer.take(c[0], c[1], hw, hh)
        else:
            c = placer.place((30.0, -45.0), hw, hh, weight=0.1)
        parts = [
            f'<g class="upgrade" data-cost="{up.cost}" data-terrain="{_esc("|".join(up.terrains))}"'
            f' transform="translate({_pt(c)})">'
        ]
        x = -hw + 2.0
        for t in up.terrains:
            parts.append(_terrain_symbol(t, x + 12.0))
            x += 24.0
        if cost:
            parts.append(
                _text(
                    x + (2.0 if n else 0.0), 0.0, cost, 15.0, cls="cost", bold=True, anchor="start"
                )
            )
        parts.append("</g>")
        out.append("".join(parts))
    # icons
    for icon in tile.icons:
        if icon.loc is not None:
            c = _scaled(loc_point(icon.loc, layout))
            placer.take(c[0], c[1], 13.0, 13.0)
        else:
            c = placer.place((40.0, 30.0), 13.0, 13.0)
        letter = (icon.name or icon.image)[:2]
        out.append(
            f'<g class="icon" data-image="{_esc(icon.image)}" transform="translate({_pt(c)})">'
            '<circle r="12" fill="#fff" stroke="#000" stroke-width="1.5"/>'
            + _text(0.0, 0.0, letter, 10.0, cls="icon-text", bold=True)
            + "</g>"
        )
    # node names, then the location name
    for i, node in enumerate(tile.nodes):
        if node.name:
            g = nodes[i]
            hw, hh = _text_width(node.name, 12.0) / 2 + 2.0, 8.0
            c = placer.place((g.pos[0], g.pos[1] + g.extent + 10.0), hw, hh, weight=0.3)
            out.append(_name_text(c, node.name, 12.0, "node-name"))
    loc_name = tile.location_name
    if loc_name is None and name and tile.stops:
        loc_name = name
    if loc_name:
        fs = 13.0 if len(loc_name) <= 14 else 11.0
        hw, hh = _text_width(loc_name, fs) / 2 + 3.0, fs * 0.6
        stops = [nodes[i] for i, n in enumerate(tile.nodes) if n.is_stop]
        anchor = (0.0, 55.0)
        if len(stops) == 1:
            anchor = (stops[0].pos[0], stops[0].pos[1] + stops[0].extent + 12.0)
        extra = [(0.0, 58.0), (0.0, -58.0), (0.0, 70.0), (0.0, -70.0)]
        c = placer.place(anchor, hw, hh, extra, weight=0.15)
        out.append(_name_text(c, loc_name, fs, "location-name"))


def _name_text(c: Point, text: str, fs: float, cls: str) -> str:
    hw = _text_width(text, fs) / 2 + 2.0
    return (
        f'<rect class="{cls}-bg" x="{_f(c[0] - hw)}" y="{_f(c[1] - fs * 0.6)}"'
        f' width="{_f(2 * hw)}" height="{_f(fs * 1.2)}" rx="3" fill="#fff" fill-opacity="0.6"/>'
        + _text(c[0], c[1], text, fs, cls=cls)
    )


_BORDER_COLORS = {
    BorderType.MOUNTAIN: "#8b5a2b",
    BorderType.WATER: "#1f6fc5",
    BorderType.IMPASSABLE: "#d01010",
    BorderType.PROVINCE: "#000",
}


def _border(
    edge: int, btype: BorderType | None, cost: int | None, fill: str, layout: Layout
) -> str:
    a, b = edge_endpoints(edge, layout)
    inset = _mul(_inward(edge, layout), 4.0)
    pa, pb = _add(_scaled(a), inset), _add(_scaled(b), inset)
    typ = btype.value if btype is not None else "join"
    if btype is None:
        return (
            f'<line class="border" data-edge="{edge}" data-type="join" x1="{_f(_scaled(a)[0])}"'
            f' y1="{_f(_scaled(a)[1])}" x2="{_f(_scaled(b)[0])}" y2="{_f(_scaled(b)[1])}"'
            f' stroke="{fill}" stroke-width="4"/>'
        )
    dash = ' stroke-dasharray="8 5"' if btype is BorderType.PROVINCE else ""
    out = (
        f'<line class="border" data-edge="{edge}" data-type="{typ}" x1="{_f(pa[0])}"'
        f' y1="{_f(pa[1])}" x2="{_f(pb[0])}" y2="{_f(pb[1])}"'
        f' stroke="{_BORDER_COLORS[btype]}" stroke-width="8"{dash}/>'
    )
    if cost:
        c = _mul(_scaled(edge_midpoint(edge, layout)), 0.78)
        out += (
            f'<g class="border-cost"><circle cx="{_f(c[0])}" cy="{_f(c[1])}" r="10" fill="#fff"'
            f' stroke="{_BORDER_COLORS[btype]}" stroke-width="2"/>'
            + _text(c[0], c[1], str(cost), 10.0, cls="cost", bold=True)
            + "</g>"
        )
    return out


@lru_cache(maxsize=4096)
def _fragment(tile: Tile, layout: Layout, grid: bool, name: str | None, show_number: bool) -> str:
    head = (
        f'<g class="tile" data-tile="{_esc(tile.name)}" data-rotation="{tile.rotation}"'
        f' data-color="{tile.color.value}" data-layout="{layout.value}">'
    )
    return head + _body(tile, layout, grid, name, show_number) + "</g>"


def _clear_caches() -> None:
    """Empty every cache of this module (for cold-start measurements)."""
    _fragment.cache_clear()
    _regions_hit.cache_clear()
    _HEX_COST_TABLES.clear()
    _TRACKS.clear()
    _SAMPLES.clear()
    _PATH_D.clear()
    _F_MEMO.clear()
    for fn in (_edge_tangent, _edge_point, _inward, _edge_edge):
        fn.cache_clear()
    _PATH_D.clear()
    _F_MEMO.clear()
    for fn in (_edge_tangent, _edge_point, _inward, _edge_edge):
        fn.cache_clear()


def _dims(layout: Layout, size: float) -> tuple[float, float]:
    """Width and height in px of a hex of circumradius ``size``."""
    if layout is Layout.FLAT:
        return 2 * size, 2 * APOTHEM * size
    return 2 * APOTHEM * size, 2 * size


def tile_svg(
    tile: Tile,
    *,
    layout: Layout = Layout.FLAT,
    size: float = 100.0,
    grid: bool = False,
    name: str | None = None,
    show_number: bool = True,
    standalone: bool = True,
) -> str:
    """Draw ``tile`` as it lies (already turned by :meth:`Tile.rotated`).

    ``size`` is the hex's circumradius in px (a flat tile is ``2 * size`` wide). ``grid`` overlays
    the 24 regions; ``name`` is a location name printed on tiles with at least one stop that
    have no ``location_name`` of their own. With ``standalone=False`` the result is a ``<g>``
    fragment centred on the origin, scaled to ``size``.
    """
    frag = _fragment(tile, Layout(layout), grid, name, show_number)
    k = size / UNIT
    if not standalone:
        if abs(k - 1.0) < 1e-9:
            return frag
        return f'<g transform="scale({_f4(k)})">{frag}</g>'
    w, h = _dims(Layout(layout), size)
    vw, vh = _dims(Layout(layout), UNIT + 2.0)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(w)}" height="{_f(h)}"'
        f' viewBox="{_f(-vw / 2)} {_f(-vh / 2)} {_f(vw)} {_f(vh)}"'
        f' font-family="{_FONT}">{frag}</svg>\n'
    )


def _f4(x: float) -> str:
    s = f"{x:.4f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def tiles_svg(
    tiles: Sequence[Tile],
    *,
    layout: Layout = Layout.FLAT,
    size: float = 100.0,
    columns: int | None = None,
    captions: bool = True,
    grid: bool = False,
    name: str | None = None,
) -> str:
    """A sheet of tiles in a grid, each with a caption (its name and rotation)."""
    lay = Layout(layout)
    n = len(tiles)
    cols = max(1, min(n, columns if columns and columns > 0 else 8))
    rows = max(1, math.ceil(n / cols))
    w, h = _dims(lay, size)
    pad = size * 0.12
    cap = size * 0.28 if captions else 0.0
    cw, ch = w + 2 * pad, h + 2 * pad + cap
    fs = max(9.0, size * 0.16)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(cw * cols)}" height="{_f(ch * rows)}"'
        f' viewBox="0 0 {_f(cw * cols)} {_f(ch * rows)}" font-family="{_FONT}">'
    ]
    for i, t in enumerate(tiles):
        r, c = divmod(i, cols)
        x, y = c * cw + cw / 2, r * ch + pad + h / 2
        parts.append(f'<g class="sheet-cell" transform="translate({_f(x)},{_f(y)})">')
        parts.append(tile_svg(t, layout=lay, size=size, grid=grid, name=name, standalone=False))
        parts.append("</g>")
        if captions:
            text = f"{t.name} r{t.rotation}" if t.rotation else t.name
            parts.append(_text(x, y + h / 2 + cap * 0.55, text, fs, cls="caption"))
    parts.append("</svg>\n")
    return "".join(parts)


# -------------------------------------------------------------------------- maps


class _GameLike(Protocol):
    name: str
    layout: Layout
    hexes: dict[str, Tile]

    def coord_xy(self, coord: str) -> tuple[int, int]: ...


class _BoardLike(Protocol):
    def tile_at(self, coord: str) -> Tile | None: ...


_COORD_RE = re.compile(r"([A-Za-z]+)(-?\d+)$")


def map_svg(game: Any, *, board: Any = None, size: float = 50.0, grid: bool = False) -> str:
    """Draw a game's whole map, with the tiles of ``board`` laid on it when given.

    ``game`` is a :class:`tilelay.games.Game` (``layout``, ``hexes``, ``coord_xy``) and ``board``
    a :class:`tilelay.board.Board` (``tile_at``). ``size`` is each hex's circumradius in px.
    Coordinates are written along the four sides: the letters and the numbers at the ends of
    the columns and rows of hexes they name.
    """
    g: _GameLike = game
    lay = Layout(g.layout)
    centres: dict[str, Point] = {}
    for coord in g.hexes:
        col, row = g.coord_xy(coord)
        centres[coord] = hex_center(col, row, lay, size)
    if not centres:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"></svg>\n'
    hw, hh = (size, APOTHEM * size) if lay is Layout.FLAT else (APOTHEM * size, size)
    xs = [p[0] for p in centres.values()]
    ys = [p[1] for p in centres.values()]
    margin = size * 0.75
    x0, x1 = min(xs) - hw - margin, max(xs) + hw + margin
    y0, y1 = min(ys) - hh - margin, max(ys) + hh + margin
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(x1 - x0)}" height="{_f(y1 - y0)}"'
        f' viewBox="{_f(x0)} {_f(y0)} {_f(x1 - x0)} {_f(y1 - y0)}" font-family="{_FONT}"'
        f' class="map" data-game="{_esc(str(getattr(g, "name", "")))}">'
    ]
    parts.append(
        f'<rect x="{_f(x0)}" y="{_f(y0)}" width="{_f(x1 - x0)}" height="{_f(y1 - y0)}"'
        ' fill="#fff"/>'
    )
    for coord, base in g.hexes.items():
        laid: Tile | None = board.tile_at(coord) if board is not None else None
        x, y = centres[coord]
        parts.append(
            f'<g class="hex" data-coord="{_esc(coord)}" transform="translate({_f(x)},{_f(y)})">'
        )
        if laid is not None and laid is not base:
            t = laid
            if t.location_name is None and base.location_name:
                t = t.with_location_name(base.location_name)
            parts.append(tile_svg(t, layout=lay, size=size, grid=grid, standalone=False))
        else:
            parts.append(
                tile_svg(
                    base, layout=lay, size=size, grid=grid, show_number=False, standalone=False
                )
            )
        parts.append("</g>")
    cols_fn = getattr(g, "columns", None)
    rows_fn = getattr(g, "rows", None)
    if callable(cols_fn) and callable(rows_fn):
        parts.append(_axis_labels(cols_fn(), rows_fn(), lay, size, (x0, y0, x1, y1)))
    else:
        parts.append(_coord_labels(centres, lay, size, (x0, y0, x1, y1)))
    parts.append("</svg>\n")
    return "".join(parts)


def _axis_labels(
    columns: Sequence[tuple[str, int]],
    rows: Sequence[tuple[str, int]],
    layout: Layout,
    size: float,
    box: tuple[float, float, float, float],
) -> str:
    """Column labels along the top and bottom, row labels along both sides."""
    x0, y0, x1, y1 = box
    fs = max(8.0, size * 0.32)
    out = ['<g class="coords" fill="#000">']
    for text, col in columns:
        x = hex_center(col, 0, layout, size)[0]
        for yy in (y0 + size * 0.38, y1 - size * 0.38):
            out.append(_text(x, yy, text, fs, cls="coord", bold=True, extra=' data-axis="x"'))
    for text, row in rows:
        y = hex_center(0, row, layout, size)[1]
        for xx in (x0 + size * 0.38, x1 - size * 0.38):
            out.append(_text(xx, y, text, fs, cls="coord", bold=True, extra=' data-axis="y"'))
    out.append("</g>")
    return "".join(out)


def _coord_labels(
    centres: dict[str, Point], layout: Layout, size: float, box: tuple[float, float, float, float]
) -> str:
    letters: dict[str, list[Point]] = {}
    numbers: dict[str, list[Point]] = {}
    for coord, p in centres.items():
        m = _COORD_RE.match(coord)
        if not m:
            continue
        letters.setdefault(m.group(1), []).append(p)
        numbers.setdefault(m.group(2), []).append(p)

    def is_column(groups: dict[str, list[Point]]) -> bool:
        spread_x = sum(max(q[0] for q in v) - min(q[0] for q in v) for v in groups.values())
        spread_y = sum(max(q[1] for q in v) - min(q[1] for q in v) for v in groups.values())
        return spread_x <= spread_y

    x0, y0, x1, y1 = box
    fs = max(8.0, size * 0.32)
    out = ['<g class="coords" fill="#000">']
    for groups in (letters, numbers):
        col = is_column(groups)
        for text, pts in sorted(groups.items()):
            if col:
                x = sum(q[0] for q in pts) / len(pts)
                for yy in (y0 + size * 0.38, y1 - size * 0.38):
                    out.append(_text(x, yy, text, fs, cls="coord", bold=True))
            else:
                y = sum(q[1] for q in pts) / len(pts)
                for xx in (x0 + size * 0.38, x1 - size * 0.38):
                    out.append(_text(xx, y, text, fs, cls="coord", bold=True))
    out.append("</g>")
    return "".join(out)


def routes_svg(game: Any, board: Any, routes: Sequence[Any], *, size: float = 50.0) -> str:
    """The map of ``game`` with ``board``'s tiles and ``routes`` (:class:`tilelay.routes.Route`)
    drawn over it: one semi-transparent colour per train following its track, and a legend
    (train, revenue, hexes) with the total under the map. See :mod:`tilelay.svg_routes`."""
    from tilelay.svg_routes import routes_svg as draw

    return draw(game, board, routes, size=size)

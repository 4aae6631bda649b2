"""Placing labels on a tile: revenues, labels, terrain, names and the tile number go where
no track runs and no node sits (:class:`Placer`), in the 24 regions of
:func:`tilelay.hexgeo.region_polygons`.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from tilelay.hexgeo import APOTHEM, Layout, edge_angle, polar, region_centroid, region_polygons
from tilelay.svg.geometry import TRACK_W, UNIT, Point, scaled

__all__ = ["NodeShape", "Placer", "TrackSamples", "clear_caches", "regions_hit", "track_samples"]

# -------------------------------------------------------------------- placement


class TrackSamples:
    """The track samples of one drawing, with what placement derives from them.

    Shared by every tile drawn with the same track (see :func:`track_samples`): the regions no track
    crosses, the samples sorted by x (with their drawing order) and the spots already chosen
    by :meth:`Placer.place`, by everything else they depend on.
    """

    __slots__ = ("places", "region_cands", "sorted_samples", "sorted_xs")

    def __init__(self, layout: Layout, samples: tuple[tuple[Point, ...], ...]) -> None:
        used: set[int] = set()
        for s in samples:
            used |= regions_hit(s, layout)
        centres = _region_centres(layout)
        self.region_cands = [centres[r] for r in range(24) if r not in used]
        flat = [p for s in samples for p in s]
        self.sorted_samples = sorted((p[0], p[1], k) for k, p in enumerate(flat))
        self.sorted_xs = [p[0] for p in self.sorted_samples]
        # spot() results by everything else they depend on
        self.places: dict[tuple[Any, ...], tuple[Point, float]] = {}


_TRACKS: dict[tuple[Layout, tuple[tuple[Point, ...], ...]], TrackSamples] = {}


def track_samples(layout: Layout, samples: list[tuple[Point, ...]]) -> TrackSamples:
    """The shared :class:`TrackSamples` of these samples."""
    key = (layout, tuple(samples))
    t = _TRACKS.get(key)
    if t is None:
        if len(_TRACKS) > 2048:
            _TRACKS.clear()
        t = _TRACKS[key] = TrackSamples(layout, key[1])
    return t


#: A node as placement sees it: its core (a point; the two slot centres of a city of two
#: slots; the slot centres of a larger city, a convex polygon) and how far round the core
#: it is drawn.
NodeShape = tuple[tuple[Point, ...], float]


class Placer:
    """Finds free spots for revenues, labels and marks, avoiding track, nodes and each other.

    ``nodes`` are the drawn nodes (:data:`NodeShape`): a city of several slots is the shape
    round its slots, not a circle round it all, so a label may sit beside a long city."""

    __slots__ = ("_bounds", "boxes", "layout", "nodes", "track")

    def __init__(
        self,
        layout: Layout,
        samples: list[tuple[Point, ...]],
        nodes: list[NodeShape],
    ) -> None:
        self.layout = layout
        self.track = track_samples(layout, samples)
        self.nodes = [n for n in nodes if n[1] > 0]
        #: each node's core's bounding box (a box further than the reach from it is clear)
        self._bounds = [
            (
                min(p[0] for p in core),
                min(p[1] for p in core),
                max(p[0] for p in core),
                max(p[1] for p in core),
            )
            for core, _ in self.nodes
        ]
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

    def clash(self, c: Point, hw: float, hh: float) -> float:
        """How far a box at ``c`` reaches into what it must not cover: past the hex's edge,
        into the nodes, into the boxes placed (the sum of how deep; 0: it covers none of
        them). Unlike :meth:`cost` no margin counts, nor track (which a name's pale box
        may lie over)."""
        x0, y0, x1, y1 = c[0] - hw, c[1] - hh, c[0] + hw, c[1] + hh
        deep = 0.0
        lim = APOTHEM * UNIT
        for nx, ny in _normals(self.layout):
            deep += max(0.0, max(qx * nx + qy * ny for qx in (x0, x1) for qy in (y0, y1)) - lim)
        for core, r in self.nodes:
            if len(core) == 1:
                dist = _point_box(core[0][0], core[0][1], x0, y0, x1, y1)
            else:
                dist = _core_distance_kept(core, x0, y0, x1, y1)
            deep += max(0.0, r - dist)
        for bx0, by0, bx1, by1 in self.boxes:
            ox = min(x1, bx1) - max(x0, bx0)
            oy = min(y1, by1) - max(y0, by0)
            if ox > 0 and oy > 0:
                deep += min(ox, oy)
        return deep

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
        for (core, r), (cx0, cy0, cx1, cy1) in zip(self.nodes, self._bounds, strict=True):
            # the distance to the core's bounding box, and (where that is within reach and
            # the core more than a point) to the core itself
            dx = x0 - cx1 if cx1 < x0 else (cx0 - x1 if cx0 > x1 else 0.0)
            dy = y0 - cy1 if cy1 < y0 else (cy0 - y1 if cy0 > y1 else 0.0)
            dist = math.hypot(dx, dy)
            if dist < r + 2.0 and len(core) > 1:
                dist = _core_distance_kept(core, x0, y0, x1, y1)
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
        m = TRACK_W / 2 + 3.0
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
        """The best centre for a box of half-size (hw, hh) near ``anchor`` (:meth:`spot`);
        marks it used."""
        best = self.spot(anchor, (hw, hh), extra, weight)[0]
        self.take(best[0], best[1], hw, hh)
        return best

    def place_first(
        self,
        forms: Sequence[tuple[float, float]],
        anchor: Point,
        extra: Sequence[Point] = (),
        weight: float = 0.05,
    ) -> tuple[int, Point]:
        """Where the first of ``forms`` (half-sizes of one mark's boxes, in the order they
        are preferred: its larger sizes first) goes whose best spot (:meth:`spot`) overlaps
        no node, mark or the hex's edge (:meth:`clash`), else the form whose best spot costs
        least: its index and centre; marks it used."""
        best: tuple[float, int, Point] | None = None
        for k, (hw, hh) in enumerate(forms):
            c, cost = self.spot(anchor, (hw, hh), extra, weight)
            if self.clash(c, hw, hh) <= 0.0:
                best = (cost, k, c)
                break
            if best is None or cost < best[0]:
                best = (cost, k, c)
        if best is None:
            raise ValueError("place_first needs a form")
        _, k, c = best
        self.take(c[0], c[1], *forms[k])
        return k, c

    def spot(
        self,
        anchor: Point,
        size: tuple[float, float],
        extra: Sequence[Point] = (),
        weight: float = 0.05,
    ) -> tuple[Point, float]:
        """The best centre for a box of half-size ``size`` (hw, hh) near ``anchor``, and how
        badly a box there overlaps things (:meth:`cost`; 0: not at all). Nothing is marked
        used.

        Candidates are the given ``extra`` spots, the centres of the regions no track passes
        through, then a coarse grid; the cost is overlap first, then distance to ``anchor``.
        The first candidate with the lowest score wins.
        """
        hw, hh = size
        memo = self.track.places
        key = (tuple(self.nodes), tuple(self.boxes), anchor, hw, hh, tuple(extra), weight)
        found = memo.get(key)
        if found is not None:
            return found
        cands: list[Point] = list(extra)
        cands += self.track.region_cands
        cands += _GRID_POINTS
        best: Point = anchor
        best_score = math.inf
        best_bad = math.inf
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
                best, best_score, best_bad = c, score, bad
        if best_bad == math.inf:  # no candidate: the anchor, however it fares
            best_bad = self.cost(best, hw, hh)
        memo[key] = (best, best_bad)
        return best, best_bad


def _point_box(px: float, py: float, x0: float, y0: float, x1: float, y1: float) -> float:
    """How far a point is from a box (0 inside)."""
    dx = x0 - px if px < x0 else (px - x1 if px > x1 else 0.0)
    dy = y0 - py if py < y0 else (py - y1 if py > y1 else 0.0)
    return math.hypot(dx, dy)


def _crosses(a: Point, b: Point, x0: float, y0: float, x1: float, y1: float) -> bool:
    """Whether the segment ``a``-``b`` meets the box (clipped to it, Liang-Barsky)."""
    lo, hi = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0:
            if q < 0:
                return False
        elif p < 0:
            lo = max(lo, q / p)
        else:
            hi = min(hi, q / p)
        if lo > hi:
            return False
    return True


#: :func:`_core_distance` by its arguments (the same cities and candidate boxes recur
#: from tile to tile)
_CORE_DISTANCES: dict[tuple[tuple[Point, ...], float, float, float, float], float] = {}


def _core_distance_kept(
    core: tuple[Point, ...], x0: float, y0: float, x1: float, y1: float
) -> float:
    """:func:`_core_distance`, kept by its arguments (:data:`_CORE_DISTANCES`)."""
    key = (core, x0, y0, x1, y1)
    found = _CORE_DISTANCES.get(key)
    if found is None:
        if len(_CORE_DISTANCES) > 65536:
            _CORE_DISTANCES.clear()
        found = _CORE_DISTANCES[key] = _core_distance(core, x0, y0, x1, y1)
    return found


def _core_distance(core: tuple[Point, ...], x0: float, y0: float, x1: float, y1: float) -> float:
    """How far a box is from a node's core of two or more points (a segment, or a convex
    polygon with its corners in order): 0 where they meet; else, as the two are convex, the
    least distance from a corner of one to an edge of the other."""
    if len(core) > 2:
        edges = list(zip(core, core[1:] + core[:1], strict=True))
        if _inside_convex(core, (x0 + x1) / 2, (y0 + y1) / 2):
            return 0.0
    else:
        edges = [(core[0], core[1])]
    best = math.inf
    corners = ((x0, y0), (x1, y0), (x0, y1), (x1, y1))
    for a, b in edges:
        if _crosses(a, b, x0, y0, x1, y1):
            return 0.0
        ax, ay = a
        dx = x0 - ax if ax < x0 else (ax - x1 if ax > x1 else 0.0)
        dy = y0 - ay if ay < y0 else (ay - y1 if ay > y1 else 0.0)
        best = min(best, dx * dx + dy * dy)
        # each corner of the box to the edge (squared)
        vx, vy = b[0] - ax, b[1] - ay
        length = vx * vx + vy * vy or 1.0
        for cx, cy in corners:
            t = ((cx - ax) * vx + (cy - ay) * vy) / length
            t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
            ex, ey = cx - ax - t * vx, cy - ay - t * vy
            d = ex * ex + ey * ey
            if d < best:
                best = d
    return math.sqrt(best)


def _inside_convex(core: tuple[Point, ...], px: float, py: float) -> bool:
    """Whether a point is inside a convex polygon (corners in either order)."""
    sign = 0.0
    for a, b in zip(core, core[1:] + core[:1], strict=True):
        cross = (b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0])
        if cross * sign < 0:
            return False
        if cross:
            sign = cross
    return True


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
    """The hex-edge part of :meth:`Placer.cost`: how far the box's corners stick out."""
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
    return tuple(scaled(region_centroid(r, layout)) for r in range(24))


@lru_cache(maxsize=4096)
def regions_hit(points: tuple[Point, ...], layout: Layout) -> frozenset[int]:
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


def clear_caches() -> None:
    """Forget the memoised tracks, costs and regions (for cold-start measurements)."""
    _TRACKS.clear()
    _HEX_COST_TABLES.clear()
    _CORE_DISTANCES.clear()
    regions_hit.cache_clear()

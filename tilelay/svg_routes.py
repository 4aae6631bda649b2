"""Routes drawn on a game's map: the drawing behind :func:`tilelay.svg.routes_svg`.

Each route is a thick, semi-transparent polyline that follows its track exactly: for every
path of the route (``Route.paths``, in order) the centre line the map draws for that path
(the same geometry as :func:`tilelay.svg.map_svg`, nodes where the tile drawing puts them) is
sampled and placed at its hex's centre, so the line runs from stop to stop through the hexes
the route names, crossing between hexes at the side midpoints (or the lane's point on it).

Drawn elements, for tests and browsers:

* ``<g class="routes" data-total="…">`` – every route;
* ``<g class="route" data-train="3-0" data-revenue="120" data-hexes="J1 J3 K4"
  data-stops="J1.0 J3.0 K4.0" data-color="#…">`` – one route, with its
  ``<polyline class="route-line">`` and a ``<circle class="route-stop">`` per stop;
* ``<g class="route-legend">`` – below the map: one row per route (colour, train, revenue,
  hexes) and the total.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from tilelay.hexgeo import Layout, hex_center
from tilelay.routes import Route
from tilelay.svg import UNIT, _esc, _f, _layout_nodes, _NodeGeo, _path_geom, _text, map_svg
from tilelay.tile import Tile

__all__ = ["ROUTE_COLORS", "route_polyline", "routes_svg"]

Point = tuple[float, float]

#: One colour per train, in route order (strong colours that stand out on every tile colour).
ROUTE_COLORS: tuple[str, ...] = (
    "#d7191c",
    "#2b59c3",
    "#7b2d9b",
    "#e66100",
    "#008080",
    "#c2185b",
    "#3a3a3a",
    "#1b7837",
)

_SAMPLES = 8  # points per curved path
_HEAD_RE = re.compile(
    r'^<svg xmlns="http://www.w3.org/2000/svg" width="([-\d.]+)" height="([-\d.]+)"'
    r' viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"'
)


def _tile_nodes(tile: Tile, layout: Layout, cache: dict[int, list[_NodeGeo]]) -> list[_NodeGeo]:
    key = id(tile)
    nodes = cache.get(key)
    if nodes is None:
        nodes = cache[key] = _layout_nodes(tile, layout)
    return nodes


def _dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def route_polyline(game: Any, board: Any, route: Route, *, size: float = 50.0) -> list[Point]:
    """The points (map px, as :func:`tilelay.svg.map_svg` places hexes) of ``route``'s line.

    The line follows every path of the route in order; it starts at the first stop and ends
    at the last one. ``game`` is a :class:`tilelay.games.Game`, ``board`` the
    :class:`tilelay.board.Board` the route was found on.
    """
    layout = Layout(game.layout)
    k = size / UNIT
    cache: dict[int, list[_NodeGeo]] = {}
    pieces: list[list[Point]] = []
    for coord, index in route.paths:
        tile = board.tile_at(coord)
        nodes = _tile_nodes(tile, layout, cache)
        geom = _path_geom(tile.paths[index], layout, nodes)
        n = 1 if geom.kind == "line" else _SAMPLES
        col, row = game.coord_xy(coord)
        cx, cy = hex_center(col, row, layout, size)
        pieces.append([(cx + x * k, cy + y * k) for x, y in geom.samples(n)])
    if not pieces:
        return []
    start = _stop_point(game, board, route.stops[0], size, cache) if route.stops else None
    first = pieces[0]
    if len(pieces) > 1:  # the end of the first piece that does not meet the second comes first
        nxt = pieces[1]
        if min(_dist(first[0], nxt[0]), _dist(first[0], nxt[-1])) < min(
            _dist(first[-1], nxt[0]), _dist(first[-1], nxt[-1])
        ):
            first = first[::-1]
    elif start is not None and _dist(first[-1], start) < _dist(first[0], start):
        first = first[::-1]
    points = list(first)
    for piece in pieces[1:]:
        if _dist(piece[-1], points[-1]) < _dist(piece[0], points[-1]):
            piece = piece[::-1]
        points.extend(piece[1:] if _dist(piece[0], points[-1]) < 1e-6 else piece)
    return points


def _stop_point(
    game: Any, board: Any, stop: tuple[str, int], size: float, cache: dict[int, list[_NodeGeo]]
) -> Point:
    coord, index = stop
    layout = Layout(game.layout)
    tile = board.tile_at(coord)
    x, y = _tile_nodes(tile, layout, cache)[index].pos
    col, row = game.coord_xy(coord)
    cx, cy = hex_center(col, row, layout, size)
    return (cx + x * size / UNIT, cy + y * size / UNIT)


def _points_attr(points: Sequence[Point]) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in points)


def routes_svg(game: Any, board: Any, routes: Sequence[Route], *, size: float = 50.0) -> str:
    """The map of ``game`` with ``board``'s tiles and each of ``routes`` drawn over it.

    One colour per route (:data:`ROUTE_COLORS`, in order); a legend under the map lists each
    route's train (``Route.train``, e.g. a train id ``"3-0"``), revenue and hexes, and the
    total. ``size`` is each hex's circumradius in px, as for :func:`tilelay.svg.map_svg`.
    """
    base = map_svg(game, board=board, size=size)
    head = _HEAD_RE.match(base)
    if head is None:  # an empty map: nothing to draw routes on
        return base
    width, height = float(head.group(1)), float(head.group(2))
    x0, y0, vw, vh = (float(head.group(i)) for i in range(3, 7))
    cache: dict[int, list[_NodeGeo]] = {}
    stroke = size * 0.2
    out: list[str] = []
    total = sum(r.revenue for r in routes)
    out.append(f'<g class="routes" data-total="{total}" fill="none">')
    for i, route in enumerate(routes):
        color = ROUTE_COLORS[i % len(ROUTE_COLORS)]
        points = route_polyline(game, board, route, size=size)
        stops = " ".join(f"{c}.{n}" for c, n in route.stops)
        out.append(
            f'<g class="route" data-train="{_esc(route.train)}" data-revenue="{route.revenue}"'
            f' data-hexes="{_esc(" ".join(route.hexes))}" data-stops="{_esc(stops)}"'
            f' data-color="{color}">'
        )
        out.append(
            f'<polyline class="route-line" points="{_points_attr(points)}" stroke="{color}"'
            f' stroke-width="{_f(stroke)}" stroke-opacity="0.62" stroke-linecap="round"'
            ' stroke-linejoin="round"/>'
        )
        for stop in route.stops:
            sx, sy = _stop_point(game, board, stop, size, cache)
            out.append(
                f'<circle class="route-stop" cx="{_f(sx)}" cy="{_f(sy)}" r="{_f(size * 0.14)}"'
                f' fill="{color}" fill-opacity="0.85" stroke="#fff"'
                f' stroke-width="{_f(size * 0.04)}"/>'
            )
        out.append("</g>")
    out.append("</g>")
    # the legend, in a band under the map
    fs = max(10.0, size * 0.3)
    line = fs * 1.6
    band = line * (len(routes) + 1) + fs
    lx = x0 + size * 0.75
    ly = y0 + vh + fs * 0.3
    out.append(f'<g class="route-legend" font-size="{_f(fs)}">')
    out.append(
        f'<rect x="{_f(x0)}" y="{_f(y0 + vh)}" width="{_f(vw)}" height="{_f(band)}" fill="#fff"/>'
    )
    for i, route in enumerate(routes):
        color = ROUTE_COLORS[i % len(ROUTE_COLORS)]
        y = ly + line * i
        out.append(
            f'<rect class="legend-swatch" x="{_f(lx)}" y="{_f(y + line * 0.2)}"'
            f' width="{_f(fs * 2)}" height="{_f(line * 0.6)}" rx="{_f(fs * 0.2)}"'
            f' fill="{color}" fill-opacity="0.75"/>'
        )
        text = f"{route.train}  {route.revenue}  ·  {'-'.join(route.hexes)}"
        out.append(
            _text(
                lx + fs * 2.6,
                y + line * 0.5 - fs * 0.35,
                text,
                fs,
                cls="legend-text",
                anchor="start",
            )
        )
    yt = ly + line * len(routes)
    label = f"Total {total}" if routes else "No route: the corporation cannot run"
    out.append(
        _text(
            lx,
            yt + line * 0.5 - fs * 0.35,
            label,
            fs,
            cls="legend-total",
            anchor="start",
            bold=True,
        )
    )
    out.append("</g>")
    k = band * (width / vw if vw else 1.0)
    new_head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width)}" height="{_f(height + k)}"'
        f' viewBox="{_f(x0)} {_f(y0)} {_f(vw)} {_f(vh + band)}"'
    )
    body = base[head.end() :].rstrip()
    if not body.endswith("</svg>"):  # pragma: no cover - map_svg always closes its drawing
        return base
    return new_head + body[: -len("</svg>")] + "".join(out) + "</svg>\n"

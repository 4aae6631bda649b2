"""What a map drawing can show over the hexes, given to :func:`tilelay.svg.map_svg` as
arguments (as ``chess.svg.board(arrows=...)`` takes its arrows): routes with their legend, and
highlighted hexes.

Each route is a thick, semi-transparent polyline that follows its track exactly: for every
path of the route (``paths``, in order) the centre line the tile drawing uses for that path
(:func:`tilelay.svg.geometry.path_geometry`, nodes where the tile drawing puts them) is
sampled and placed at its hex's centre, so the line runs from stop to stop through the hexes
the route names, crossing between hexes at the side midpoints (or the lane's point on it).

Drawn elements, for tests and browsers:

* ``<g class="routes" data-total="…">`` – every route;
* ``<g class="route" data-train="3-0" data-revenue="120" data-hexes="J1 J3 K4"
  data-stops="J1.0 J3.0 K4.0" data-color="#…">`` – one route, with its
  ``<polyline class="route-line">`` and a ``<circle class="route-stop">`` per stop;
* ``<g class="route-legend">`` – below the map: one row per route (colour, train, revenue,
  hexes) and the total;
* ``<polygon class="highlight" data-coord="K4">`` – a highlighted hex;
* ``<g class="tokens">`` – the station tokens on a board: ``<g class="token" data-coord="K4"
  data-city="0" data-slot="0" data-corporation="KO">`` each, a disc in the corporation's
  colour with its symbol, in the city's slot (slots filled in the order the tokens came).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Protocol

from tilelay.hexgeo import Layout, hex_center
from tilelay.svg.geometry import (
    SLOT_R,
    UNIT,
    NodeGeo,
    Point,
    hex_points,
    is_terminal,
    layout_nodes,
    path_geometry,
    slot_points,
    terminal_line,
)
from tilelay.svg.text import css_color, esc, fmt, fmt4, text_element
from tilelay.tile import NodeKind, NodeRef, Tile

__all__ = [
    "ROUTE_COLORS",
    "BoardLike",
    "GameLike",
    "RouteLike",
    "TokenBoardLike",
    "highlights_group",
    "legend_height",
    "route_polyline",
    "routes_group",
    "routes_legend",
    "tokens_group",
]

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


class GameLike(Protocol):
    """What a map drawing needs of a game (:class:`tilelay.games.Game` has it)."""

    @property
    def name(self) -> str: ...
    @property
    def layout(self) -> Layout: ...
    @property
    def hexes(self) -> Mapping[str, Tile]: ...

    def coord_xy(self, coord: str) -> tuple[int, int]: ...


class BoardLike(Protocol):
    """What a map drawing needs of a board (:class:`tilelay.board.Board` has it)."""

    def tile_at(self, coord: str) -> Tile: ...


class TokenBoardLike(BoardLike, Protocol):
    """A board with station tokens (:class:`tilelay.board.Board` is one): ``(coord, city
    index)`` -> the corporations' symbols in the order placed."""

    @property
    def tokens(self) -> Mapping[tuple[str, int], tuple[str, ...]]: ...


class RouteLike(Protocol):
    """A route to draw (:class:`tilelay.routes.Route` is one): the train's name or id, the
    revenue, the hexes and stops ``(coord, node index)`` in order, and the paths ``(coord,
    path index)`` it runs along."""

    @property
    def train(self) -> str: ...
    @property
    def revenue(self) -> int: ...
    @property
    def hexes(self) -> tuple[str, ...]: ...
    @property
    def stops(self) -> tuple[tuple[str, int], ...]: ...
    @property
    def paths(self) -> tuple[tuple[str, int], ...]: ...


class _Nodes:
    """Node positions of the tiles on a board, per tile drawn (memoised for one drawing)."""

    def __init__(self, game: GameLike, board: BoardLike, size: float) -> None:
        self.game = game
        self.board = board
        self.size = size
        self.layout = Layout(game.layout)
        self.cache: dict[int, list[NodeGeo]] = {}

    def of(self, tile: Tile) -> list[NodeGeo]:
        nodes = self.cache.get(id(tile))
        if nodes is None:
            nodes = self.cache[id(tile)] = layout_nodes(tile, self.layout)
        return nodes

    def centre(self, coord: str) -> Point:
        col, row = self.game.coord_xy(coord)
        return hex_center(col, row, self.layout, self.size)

    def stop_point(self, stop: tuple[str, int]) -> Point:
        coord, index = stop
        x, y = self.of(self.board.tile_at(coord))[index].pos
        cx, cy = self.centre(coord)
        k = self.size / UNIT
        return (cx + x * k, cy + y * k)


def _dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _piece(nodes: _Nodes, coord: str, index: int) -> list[Point]:
    """The points (map px) of path ``index`` of ``coord``'s tile as a route runs it: a
    terminal path (into an off-board) as far as its arrow's tip, where it is drawn."""
    k = nodes.size / UNIT
    tile = nodes.board.tile_at(coord)
    path = tile.paths[index]
    geo = nodes.of(tile)
    line = terminal_line(path, nodes.layout, geo) if is_terminal(tile, path) else None
    if line is not None:
        points: list[Point] = list(line)
        if isinstance(path.a, NodeRef):  # (the path runs from the node: so does the line)
            points.reverse()
    else:
        geom = path_geometry(path, nodes.layout, geo)
        points = list(geom.samples(1 if geom.kind == "line" else _SAMPLES))
    cx, cy = nodes.centre(coord)
    return [(cx + x * k, cy + y * k) for x, y in points]


def _stop_points(nodes: _Nodes, route: RouteLike, line: list[Point]) -> list[Point]:
    """Where a route's stops are marked: at each node, but an off-board's (not drawn, its
    revenue at the hex's centre) at the end of the route's line in its hex."""
    out: list[Point] = []
    for stop in route.stops:
        coord, index = stop
        tile = nodes.board.tile_at(coord)
        at = nodes.stop_point(stop)
        if tile.nodes[index].kind is NodeKind.OFFBOARD and line:
            at = min((line[0], line[-1]), key=lambda p: _dist(p, at))
        out.append(at)
    return out


def _polyline(nodes: _Nodes, route: RouteLike) -> list[Point]:
    pieces: list[list[Point]] = [_piece(nodes, coord, index) for coord, index in route.paths]
    if not pieces:
        return []
    start = nodes.stop_point(route.stops[0]) if route.stops else None
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


def route_polyline(
    game: GameLike, board: BoardLike, route: RouteLike, *, size: float = 50.0
) -> list[Point]:
    """The points (map px, as :func:`tilelay.svg.map_svg` places hexes) of ``route``'s line.

    The line follows every path of the route in order; it starts at the first stop and ends
    at the last one. ``board`` is the board the route was found on.
    """
    return _polyline(_Nodes(game, board, size), route)


def routes_group(game: GameLike, board: BoardLike, routes: Sequence[RouteLike], size: float) -> str:
    """The ``<g class="routes">`` of ``routes`` (one colour each, :data:`ROUTE_COLORS`)."""
    nodes = _Nodes(game, board, size)
    stroke = size * 0.2
    total = sum(r.revenue for r in routes)
    out = [f'<g class="routes" data-total="{total}" fill="none">']
    for i, route in enumerate(routes):
        color = ROUTE_COLORS[i % len(ROUTE_COLORS)]
        line = _polyline(nodes, route)
        points = " ".join(f"{fmt(x)},{fmt(y)}" for x, y in line)
        stops = " ".join(f"{c}.{n}" for c, n in route.stops)
        out.append(
            f'<g class="route" data-train="{esc(route.train)}" data-revenue="{route.revenue}"'
            f' data-hexes="{esc(" ".join(route.hexes))}" data-stops="{esc(stops)}"'
            f' data-color="{color}">'
        )
        out.append(
            f'<polyline class="route-line" points="{points}" stroke="{color}"'
            f' stroke-width="{fmt(stroke)}" stroke-opacity="0.62" stroke-linecap="round"'
            ' stroke-linejoin="round"/>'
        )
        for sx, sy in _stop_points(nodes, route, line):
            out.append(
                f'<circle class="route-stop" cx="{fmt(sx)}" cy="{fmt(sy)}" r="{fmt(size * 0.14)}"'
                f' fill="{color}" fill-opacity="0.85" stroke="#fff"'
                f' stroke-width="{fmt(size * 0.04)}"/>'
            )
        out.append("</g>")
    out.append("</g>")
    return "".join(out)


def _legend_metrics(count: int, size: float) -> tuple[float, float]:
    fs = max(10.0, size * 0.3)
    line = fs * 1.6
    return fs, line * (count + 1) + fs


def legend_height(routes: Sequence[RouteLike], size: float) -> float:
    """The height (px) of the band :func:`routes_legend` draws under the map."""
    return _legend_metrics(len(routes), size)[1]


def routes_legend(
    routes: Sequence[RouteLike], size: float, box: tuple[float, float, float, float]
) -> str:
    """The legend band under the map box ``(x0, y0, width, height)``: one row per route
    (colour, train, revenue, hexes) and the total."""
    x0, y0, vw, vh = box
    fs, band = _legend_metrics(len(routes), size)
    line = fs * 1.6
    lx = x0 + size * 0.75
    ly = y0 + vh + fs * 0.3
    out = [f'<g class="route-legend" font-size="{fmt(fs)}">']
    out.append(
        f'<rect x="{fmt(x0)}" y="{fmt(y0 + vh)}" width="{fmt(vw)}" height="{fmt(band)}"'
        ' fill="#fff"/>'
    )
    for i, route in enumerate(routes):
        color = ROUTE_COLORS[i % len(ROUTE_COLORS)]
        y = ly + line * i
        out.append(
            f'<rect class="legend-swatch" x="{fmt(lx)}" y="{fmt(y + line * 0.2)}"'
            f' width="{fmt(fs * 2)}" height="{fmt(line * 0.6)}" rx="{fmt(fs * 0.2)}"'
            f' fill="{color}" fill-opacity="0.75"/>'
        )
        text = f"{route.train}  {route.revenue}  ·  {'-'.join(route.hexes)}"
        out.append(
            text_element(
                lx + fs * 2.6,
                y + line * 0.5 - fs * 0.35,
                text,
                fs,
                cls="legend-text",
                anchor="start",
            )
        )
    yt = ly + line * len(routes)
    total = sum(r.revenue for r in routes)
    label = f"Total {total}" if routes else "No route: the corporation cannot run"
    out.append(
        text_element(
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
    return "".join(out)


def highlights_group(game: GameLike, highlights: Mapping[str, str], size: float) -> str:
    """An outline in the given colour around each hex of ``highlights`` (coord -> colour)."""
    if not highlights:
        return ""
    layout = Layout(game.layout)
    points = hex_points(layout, 0.92)
    k = fmt4(size / UNIT)
    out = ['<g class="highlights" fill="none">']
    for coord, color in highlights.items():
        if coord not in game.hexes:
            continue
        col, row = game.coord_xy(coord)
        x, y = hex_center(col, row, layout, size)
        out.append(
            f'<polygon class="highlight" data-coord="{esc(coord)}" points="{points}"'
            f' transform="translate({fmt(x)},{fmt(y)}) scale({k})"'
            f' stroke="{esc(css_color(color))}" stroke-width="9" stroke-opacity="0.85"/>'
        )
    out.append("</g>")
    return "".join(out)


def _token_colors(game: GameLike) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for corp in getattr(game, "corporations", ()):
        fill = css_color(str(getattr(corp, "color", "") or "#444"))
        text = getattr(corp, "text_color", None)
        out[str(corp.sym)] = (fill, css_color(text) if text else _contrast(fill))
    return out


def _contrast(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (a ``#rgb``/``#rrggbb`` colour)."""
    hexes = fill.lstrip("#")
    if len(hexes) == 3:
        hexes = "".join(c * 2 for c in hexes)
    if len(hexes) < 6 or not all(c in "0123456789abcdefABCDEF" for c in hexes[:6]):
        return "#fff"
    r, g, b = (int(hexes[i : i + 2], 16) for i in (0, 2, 4))
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#fff"


def tokens_group(game: GameLike, board: TokenBoardLike, size: float) -> str:
    """The ``<g class="tokens">`` of ``board``'s station tokens: each a disc in its
    corporation's colour (``color`` and ``text_color`` of the game's corporations) with the
    corporation's symbol, in its city's slot."""
    tokens = board.tokens
    if not tokens:
        return ""
    nodes = _Nodes(game, board, size)
    colors = _token_colors(game)
    k = size / UNIT
    radius = (SLOT_R - 2.0) * k
    out = ['<g class="tokens">']
    for (coord, city), corps in sorted(tokens.items()):
        if coord not in game.hexes:
            continue
        tile = board.tile_at(coord)
        cities = [i for i, n in enumerate(tile.nodes) if n.kind is NodeKind.CITY]
        if not 0 <= city < len(cities):
            continue
        node = cities[city]
        geo = nodes.of(tile)[node]
        x, y = geo.pos
        offsets = slot_points(tile, node, geo)
        cx, cy = nodes.centre(coord)
        for slot, corp in enumerate(corps):
            ox, oy = offsets[slot % len(offsets)]
            px, py = cx + (x + ox) * k, cy + (y + oy) * k
            fill, ink = colors.get(corp, ("#444", "#fff"))
            fs = min(radius * 0.9, 1.7 * radius / (max(len(corp), 1) * 0.62))
            out.append(
                f'<g class="token" data-coord="{esc(coord)}" data-city="{city}"'
                f' data-slot="{slot}" data-corporation="{esc(corp)}">'
                f'<circle cx="{fmt(px)}" cy="{fmt(py)}" r="{fmt(radius)}" fill="{esc(fill)}"'
                f' stroke="#000" stroke-width="{fmt(max(radius * 0.08, 0.5))}"/>'
            )
            out.append(text_element(px, py, corp, fs, cls="token-text", bold=True, fill=esc(ink)))
            out.append("</g>")
    out.append("</g>")
    return "".join(out)

"""SVG drawings of Carcassonne tiles and boards, as strings (deterministic, byte-stable).

A tile is drawn in a 100 x 100 box from its unrotated features and turned with a transform;
what must stay upright (pennants, the monastery, figures) is drawn after the turn, at the
turned place. Figures are drawn in the player's colour at an anchor point of their feature:
a follower stands (a meeple), a farmer lies on its side, an abbot wears a long robe.

:func:`board_svg` draws a board, optionally with a frame of empty squares around it
(``pad``), the squares' coordinates on its four edges (``coordinates``: the ``(x, y)`` of the
game's log, ``y`` growing southwards) and features highlighted (``highlight``, e.g. what the
last tile completed); :func:`board_layout` says where each square is drawn.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from html import escape

from tilelay.carcassonne.board import Board, xy_of
from tilelay.carcassonne.tile import Feature, Kind, TileType

FIELD = "#9cc46a"
CITY_FILL = "#d2a96a"
CITY_EDGE = "#7a5526"
ROAD_EDGE = "#5a5a5a"
ROAD_FILL = "#f3efe3"
MONASTERY = "#b5523b"
PENNANT = "#2f56c0"
RIVER = "#3b82c4"
GARDEN = "#3f7d2a"
HIGHLIGHT = "#ff9f1c"
PLAYER_COLOURS: tuple[str, ...] = ("#d62828", "#1d4ed8", "#f2c500", "#2a9d3a", "#222222", "#c026d3")

_CORNERS = ((0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0))
_MIDS = ((50.0, 0.0), (100.0, 50.0), (50.0, 100.0), (0.0, 50.0))
_HALF_POINTS = (
    (25.0, 15.0),
    (75.0, 15.0),
    (85.0, 25.0),
    (85.0, 75.0),
    (75.0, 85.0),
    (25.0, 85.0),
    (15.0, 75.0),
    (15.0, 25.0),
)
_CENTRE = (50.0, 50.0)


def _n(v: float) -> str:
    text = f"{v:.1f}"
    if text == "-0.0":
        return "0"
    return text[:-2] if text.endswith(".0") else text


def _pt(p: tuple[float, float]) -> str:
    return f"{_n(p[0])} {_n(p[1])}"


def _sides(mask: int) -> list[int]:
    return [s for s in range(4) if mask >> s & 1]


def turn_point(point: tuple[float, float], rotation: int) -> tuple[float, float]:
    """Where a point of the 100 x 100 tile box goes when the tile is turned ``rotation``
    quarter turns clockwise."""
    x, y = point
    for _ in range(rotation % 4):
        x, y = 100.0 - y, x
    return (x, y)


_Point = tuple[float, float]


def _city_outline(mask: int) -> tuple[_Point, list[tuple[_Point | None, _Point]]]:
    """A city's outline (not the whole tile): where it starts, and each step to the next
    corner, along the tile's side (no control point) or along a curve bulging inward over
    the open sides between (its control point)."""
    start = next(s for s in range(4) if mask >> s & 1 and not mask >> ((s - 1) % 4) & 1)
    out: list[tuple[_Point | None, _Point]] = []
    s = start
    steps = 0
    while steps < 4:
        if mask >> s & 1:
            s = (s + 1) % 4
            steps += 1
            out.append((None, _CORNERS[s]))
            continue
        run = []
        while not mask >> s & 1 and steps < 4:
            run.append(s)
            s = (s + 1) % 4
            steps += 1
        mx = sum(_MIDS[r][0] for r in run) / len(run)
        my = sum(_MIDS[r][1] for r in run) / len(run)
        out.append(((50 + (mx - 50) * 0.4, 50 + (my - 50) * 0.4), _CORNERS[s]))
    return _CORNERS[start], out


def _city_path(mask: int) -> str:
    if mask == 0b1111:
        return "M0 0 L100 0 L100 100 L0 100 Z"
    start, steps = _city_outline(mask)
    parts = [f"M{_pt(start)}"]
    for control, corner in steps:
        parts.append(f"L{_pt(corner)}" if control is None else f"Q{_pt(control)} {_pt(corner)}")
    return " ".join(parts) + " Z"


def anchor(feature: Feature) -> tuple[float, float]:
    """Where a follower on this (unrotated) feature is drawn, in the 100 x 100 tile box."""
    if feature.kind is Kind.CITY:
        sides = _sides(feature.sides)
        mx = sum(_MIDS[s][0] for s in sides) / len(sides)
        my = sum(_MIDS[s][1] for s in sides) / len(sides)
        return (50 + (mx - 50) * 0.6, 50 + (my - 50) * 0.6)
    if feature.kind is Kind.ROAD:
        sides = _sides(feature.sides)
        if len(sides) == 2:
            a, b = _MIDS[sides[0]], _MIDS[sides[1]]
            return (0.25 * a[0] + 25 + 0.25 * b[0], 0.25 * a[1] + 25 + 0.25 * b[1])
        m = _MIDS[sides[0]]
        return (m[0] + (50 - m[0]) * 0.45, m[1] + (50 - m[1]) * 0.45)
    if feature.kind in (Kind.MONASTERY, Kind.GARDEN):
        return _CENTRE
    if feature.kind is Kind.RIVER:
        return _CENTRE
    first = next(h for h in range(8) if feature.halves >> h & 1)
    return _HALF_POINTS[first]


def _quad(
    a: tuple[float, float], c: tuple[float, float], b: tuple[float, float], t: float
) -> tuple[float, float]:
    u = 1 - t
    return (
        u * u * a[0] + 2 * u * t * c[0] + t * t * b[0],
        u * u * a[1] + 2 * u * t * c[1] + t * t * b[1],
    )


def _line_points(f: Feature) -> list[tuple[float, float]]:
    """Points along a road or river as drawn."""
    sides = _sides(f.sides)
    if len(sides) == 2:
        a, b = _MIDS[sides[0]], _MIDS[sides[1]]
        return [_quad(a, _CENTRE, b, i / 10) for i in range(11)]
    out = []
    for s in sides:
        m = _MIDS[s]
        out += [(m[0] + (50 - m[0]) * i / 5, m[1] + (50 - m[1]) * i / 5) for i in range(6)]
    return out


def _city_polygon(mask: int) -> list[tuple[float, float]]:
    """The city's drawn shape as a polygon (its curves sampled)."""
    if mask == 0b1111:
        return list(_CORNERS)
    start, steps = _city_outline(mask)
    points = [start]
    for control, corner in steps:
        if control is None:
            points.append(corner)
        else:
            a = points[-1]
            points += [_quad(a, control, corner, i / 8) for i in range(1, 9)]
    return points


def _inside(point: tuple[float, float], polygon: list[tuple[float, float]]) -> bool:
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _clearance(point: tuple[float, float], blocked: list[tuple[float, float]]) -> float:
    return min((math.dist(point, b) for b in blocked), default=100.0)


@cache
def garden_point(tile: TileType) -> tuple[float, float]:
    """Where a tile's garden is drawn (unrotated box): the middle when it is clear of the
    tile's roads, rivers and cities, else the first clear point around it, else the field
    point farthest from them."""
    lines = [p for f in tile.features if f.kind in (Kind.ROAD, Kind.RIVER) for p in _line_points(f)]
    cities = [_city_polygon(f.sides) for f in tile.features if f.kind is Kind.CITY]
    edges = [p for poly in cities for p in poly]
    near = ((24, 0), (-24, 0), (0, 24), (0, -24), (22, 22), (22, -22), (-22, 22), (-22, -22))
    far = ((38, 0), (-38, 0), (0, 38), (0, -38), (35, 35), (35, -35), (-35, 35), (-35, -35))
    candidates = [_CENTRE] + [(50.0 + dx, 50.0 + dy) for dx, dy in near + far]
    best, best_room = _CENTRE, -1.0
    for point in candidates:
        if any(_inside(point, poly) for poly in cities):
            continue
        room = min(_clearance(point, lines), _clearance(point, edges))
        if room >= 20:
            return point
        if room > best_room + 0.5:
            best, best_room = point, room
    return best


@cache
def anchors(tile: TileType) -> tuple[tuple[float, float], ...]:
    """Where a figure on each feature of a tile is drawn (unrotated box), apart from each
    other: monasteries in the middle, gardens at :func:`garden_point`, cities at
    :func:`anchor`, roads at the point of their line farthest from those, farms at the
    half-edge point of theirs farthest from all the others."""
    out: list[tuple[float, float] | None] = [None] * len(tile.features)
    taken: list[tuple[float, float]] = []
    for i, f in enumerate(tile.features):
        if f.kind in (Kind.MONASTERY, Kind.CITY, Kind.RIVER):
            out[i] = anchor(f)
        elif f.kind is Kind.GARDEN:
            out[i] = garden_point(tile)
        else:
            continue
        if f.kind is not Kind.RIVER:
            taken.append(out[i])  # type: ignore[arg-type]
    for i, f in enumerate(tile.features):
        if f.kind is Kind.ROAD:
            first = anchor(f)
            points = [first] + [p for p in _line_points(f) if 12 <= p[0] <= 88 and 12 <= p[1] <= 88]
            point = max(
                points, key=lambda p: (min(_clearance(p, taken), 32.0), -math.dist(p, first))
            )
            out[i] = point
            taken.append(point)
    for i, f in enumerate(tile.features):
        if f.kind is Kind.FARM:
            points = [_HALF_POINTS[h] for h in range(8) if f.halves >> h & 1]
            point = max(points, key=lambda p: _clearance(p, taken))
            out[i] = point
            taken.append(point)
    return tuple(p if p is not None else _CENTRE for p in out)


def feature_anchor(tile: TileType, rotation: int, index: int) -> tuple[float, float]:
    """Where a figure on feature ``index`` of ``tile`` turned ``rotation`` times is drawn, in
    the turned tile's 100 x 100 box (feature indices are the same in every rotation; see
    :func:`anchors`)."""
    return turn_point(anchors(tile)[index], rotation)


def _pennant_point(feature: Feature, k: int) -> tuple[float, float]:
    """Where the ``k``-th pennant of a city is drawn (unrotated box): beside the follower's
    anchor, along the city's wall, inside the city."""
    x, y = anchor(feature)
    sides = _sides(feature.sides)
    vx = sum(_MIDS[s][0] - 50 for s in sides) / len(sides)
    vy = sum(_MIDS[s][1] - 50 for s in sides) / len(sides)
    length = (vx * vx + vy * vy) ** 0.5
    if length < 1:
        return (70.0 + 0 * k, 30.0 + 22 * k)
    ux, uy = vx / length, vy / length
    # across the city (perpendicular to its direction), a little towards its wall
    return (x - uy * (24 + 22 * k) + ux * 8, y + ux * (24 + 22 * k) + uy * 8)


def _pennant(x: float, y: float) -> str:
    """An upright pennant (a blue shield with a white cross) centred at ``(x, y)``."""
    return (
        f'<path class="pennant" d="M{_n(x - 10)} {_n(y - 11)} H{_n(x + 10)} V{_n(y + 3)} '
        f'L{_n(x)} {_n(y + 12)} L{_n(x - 10)} {_n(y + 3)} Z" fill="{PENNANT}" stroke="#fff" '
        'stroke-width="2.5" stroke-linejoin="round"/>'
        f'<path d="M{_n(x - 5.5)} {_n(y - 3)} H{_n(x + 5.5)} M{_n(x)} {_n(y - 8)} V{_n(y + 5)}" '
        'stroke="#fff" stroke-width="2.6"/>'
    )


def _river_end(mask: int) -> str:
    """A river from one side to a pool in the middle (the spring or the lake)."""
    m = _MIDS[_sides(mask)[0]]
    return f"M{_pt(m)} L50 50 M44 50 A6 6 0 1 0 56 50 A6 6 0 1 0 44 50"


def _road_path(mask: int) -> str:
    sides = _sides(mask)
    if len(sides) == 2:
        a, b = _MIDS[sides[0]], _MIDS[sides[1]]
        return f"M{_pt(a)} Q50 50 {_pt(b)}"
    return " ".join(f"M{_pt(_MIDS[s])} L50 50" for s in sides)


@cache
def _tile_body(tile: TileType) -> str:
    """What turns with the tile: the field, roads, rivers, cities, gardens."""
    out = [f'<rect width="100" height="100" fill="{FIELD}"/>']
    road_ends = sum(1 for f in tile.features if f.kind is Kind.ROAD and f.sides.bit_count() == 1)
    for f in tile.features:
        if f.kind is Kind.ROAD:
            d = _road_path(f.sides)
            out.append(f'<path d="{d}" fill="none" stroke="{ROAD_EDGE}" stroke-width="12"/>')
            out.append(f'<path d="{d}" fill="none" stroke="{ROAD_FILL}" stroke-width="8"/>')
    for f in tile.features:
        if f.kind is Kind.RIVER:
            d = _road_path(f.sides) if f.sides.bit_count() > 1 else _river_end(f.sides)
            out.append(f'<path d="{d}" fill="none" stroke="{RIVER}" stroke-width="14"/>')
    if road_ends >= 3:
        out.append(f'<rect x="40" y="40" width="20" height="20" fill="{ROAD_EDGE}"/>')
    for f in tile.features:
        if f.kind is Kind.CITY:
            out.append(
                f'<path d="{_city_path(f.sides)}" fill="{CITY_FILL}" stroke="{CITY_EDGE}" '
                'stroke-width="2"/>'
            )
    if tile.has_garden:
        gx, gy = (_n(v) for v in garden_point(tile))
        out.append(
            f'<circle cx="{gx}" cy="{gy}" r="12" fill="{GARDEN}" stroke="#1f4d14" '
            f'stroke-width="2"/><circle cx="{gx}" cy="{gy}" r="4" fill="#e8d44d"/>'
        )
    return "".join(out)


@cache
def _upright(tile: TileType, rotation: int) -> str:
    """What stays upright on the turned tile: monasteries and pennants."""
    out = []
    for f in tile.features:
        if f.kind is Kind.MONASTERY:
            out.append(
                f'<path d="M34 66 L34 42 L50 30 L66 42 L66 66 Z" fill="{MONASTERY}" '
                'stroke="#5b2418" stroke-width="2"/>'
                '<path d="M46 66 V56 A4 4 0 0 1 54 56 V66 Z" fill="#5b2418"/>'
            )
    for f in tile.features:
        for k in range(f.pennants if f.kind is Kind.CITY else 0):
            out.append(_pennant(*turn_point(_pennant_point(f, k), rotation)))
    return "".join(out)


def tile_group(tile: TileType, rotation: int = 0) -> str:
    """The drawing of a tile turned ``rotation`` quarter turns clockwise, as SVG elements in
    a 100 x 100 box (no ``<svg>`` around them), without figures."""
    return (
        f'<g transform="rotate({90 * (rotation % 4)} 50 50)">{_tile_body(tile)}</g>'
        f"{_upright(tile, rotation % 4)}"
    )


# A standing meeple 24 high, centred on (0, 0): head, then arms, body and legs.
_MEEPLE = (
    "M0 -12.5 A4 4 0 1 1 -0.01 -12.5 Z "
    "M-3.5 -4.5 L-10 -2.2 Q-12 1.3 -8.5 1.8 L-4.6 1.2 L-7.5 10 Q-7.6 11.5 -6 11.5 "
    "L-2 11.5 L0 6.5 L2 11.5 L6 11.5 Q7.6 11.5 7.5 10 L4.6 1.2 L8.5 1.8 Q12 1.3 10 -2.2 "
    "L3.5 -4.5 Z"
)
# An abbot: a hooded head and a long robe.
_ABBOT = (
    "M0 -12.5 A4 4 0 1 1 -0.01 -12.5 Z M-4 -5 Q0 -7.5 4 -5 L6.5 0 L9.5 11.5 L-9.5 11.5 L-6.5 0 Z"
)


def figure_svg(kind: str, x: float, y: float, player: int, *, label: str = "") -> str:
    """A figure of ``player`` at ``(x, y)`` (tile box units): ``kind`` is ``follower`` (a
    standing meeple), ``farmer`` (lying on its side) or ``abbot``. ``label`` is its tooltip."""
    colour = PLAYER_COLOURS[player % len(PLAYER_COLOURS)]
    shape = _ABBOT if kind == "abbot" else _MEEPLE
    turn = " rotate(-90)" if kind == "farmer" else ""
    title = label or f"{kind} of player {player + 1}"
    return (
        f'<g class="figure {kind}" data-player="{player}" '
        f'transform="translate({_n(x)} {_n(y)}) scale(1.35){turn}">'
        f'<path d="{shape}" fill="{colour}" stroke="#111" stroke-width="1.8" '
        f'stroke-linejoin="round" fill-rule="nonzero"/><title>{escape(title)}</title></g>'
    )


def _figure(tile: TileType, rotation: int, feature: int, player: int, abbot: bool) -> str:
    f = tile.features[feature]
    x, y = feature_anchor(tile, rotation, feature)
    if abbot:
        kind = "abbot"
    elif f.kind is Kind.FARM:
        kind = "farmer"
    else:
        kind = "follower"
    what = {Kind.CITY: "knight", Kind.ROAD: "thief", Kind.MONASTERY: "monk"}.get(f.kind, kind)
    return figure_svg(kind, x, y, player, label=f"{what} of player {player + 1}")


def highlight_svg(tile: TileType, feature: int, rotation: int = 0, colour: str = HIGHLIGHT) -> str:
    """An outline of one feature of a tile turned ``rotation`` times (tile box units): a
    completed city, road or monastery, or a farm's side of the tile."""
    f = tile.features[feature]
    if f.kind is Kind.CITY:
        shape = (
            f'<path d="{_city_path(f.sides)}" fill="{colour}" fill-opacity="0.35" '
            f'stroke="{colour}" stroke-width="7" stroke-linejoin="round"/>'
        )
    elif f.kind in (Kind.ROAD, Kind.RIVER):
        shape = (
            f'<path d="{_road_path(f.sides)}" fill="none" stroke="{colour}" '
            'stroke-width="16" stroke-opacity="0.75" stroke-linecap="round"/>'
        )
    elif f.kind in (Kind.MONASTERY, Kind.GARDEN):
        cx, cy = (_n(v) for v in (garden_point(tile) if f.kind is Kind.GARDEN else _CENTRE))
        r = 30 if f.kind is Kind.MONASTERY else 20
        shape = (
            f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="none" stroke="{colour}" stroke-width="7"/>'
        )
    else:
        points = " ".join(_pt(_HALF_POINTS[h]) for h in range(8) if f.halves >> h & 1)
        shape = (
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="6" '
            'stroke-dasharray="6 4"/>'
        )
    return f'<g class="highlight" transform="rotate({90 * (rotation % 4)} 50 50)">{shape}</g>'


def tile_svg(tile: TileType, rotation: int = 0, size: int = 100) -> str:
    """A standalone SVG document of one tile, turned ``rotation`` quarter turns clockwise."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 100 100"><title>{escape(tile.name)}</title>'
        f"{tile_group(tile, rotation)}"
        '<rect width="100" height="100" fill="none" stroke="#333" stroke-width="1"/></svg>'
    )


@dataclass(frozen=True, slots=True)
class BoardLayout:
    """Where :func:`board_svg` draws the squares: square ``(x0, y0)`` is the top-left one of
    ``columns`` x ``rows``, each ``size`` pixels, after a ``margin`` (for the coordinates)."""

    x0: int
    y0: int
    columns: int
    rows: int
    size: int
    margin: int

    @property
    def width(self) -> int:
        """The drawing's width in pixels."""
        return self.columns * self.size + 2 * self.margin

    @property
    def height(self) -> int:
        """The drawing's height in pixels."""
        return self.rows * self.size + 2 * self.margin

    def cell(self, x: int, y: int) -> tuple[int, int]:
        """The top-left pixel of square ``(x, y)``."""
        return (self.margin + (x - self.x0) * self.size, self.margin + (y - self.y0) * self.size)

    def to_dict(self) -> dict[str, int]:
        """The layout as JSON values."""
        return {
            "x0": self.x0,
            "y0": self.y0,
            "columns": self.columns,
            "rows": self.rows,
            "size": self.size,
            "margin": self.margin,
            "width": self.width,
            "height": self.height,
        }


def board_layout(
    board: Board, size: int = 60, *, pad: int = 0, coordinates: bool = False
) -> BoardLayout:
    """The layout of :func:`board_svg` with the same arguments."""
    keys = [k for _t, _r, k, _b in board.placed]
    xs = [xy_of(k)[0] for k in keys]
    ys = [xy_of(k)[1] for k in keys]
    x0, y0 = min(xs) - pad, min(ys) - pad
    margin = max(14, size * 2 // 5) if coordinates else 0
    return BoardLayout(x0, y0, max(xs) + pad - x0 + 1, max(ys) + pad - y0 + 1, size, margin)


def _coordinates(layout: BoardLayout) -> str:
    size, margin = layout.size, layout.margin
    font = max(10, min(16, size * 3 // 10))
    out = [
        f'<g class="coordinates" font-family="DejaVu Sans, sans-serif" font-size="{font}" '
        'fill="#444" text-anchor="middle" dominant-baseline="central">'
    ]
    w, h = layout.width, layout.height
    half = margin / 2
    for i in range(layout.columns):
        cx = _n(margin + (i + 0.5) * size)
        x = layout.x0 + i
        out.append(f'<text x="{cx}" y="{_n(half)}">{x}</text>')
        out.append(f'<text x="{cx}" y="{_n(h - half)}">{x}</text>')
    for j in range(layout.rows):
        cy = _n(margin + (j + 0.5) * size)
        y = layout.y0 + j
        out.append(f'<text x="{_n(half)}" y="{cy}">{y}</text>')
        out.append(f'<text x="{_n(w - half)}" y="{cy}">{y}</text>')
    out.append(
        f'<text x="{_n(half)}" y="{_n(half)}" font-size="{font - 2}" fill="#888">y\\x</text></g>'
    )
    return "".join(out)


def board_svg(
    board: Board,
    size: int = 60,
    *,
    title: str = "",
    pad: int = 0,
    coordinates: bool = False,
    highlight: Iterable[tuple[int, int]] = (),
    last: bool = True,
) -> str:
    """A standalone SVG document of a board with its figures.

    ``pad`` adds that many rows and columns of empty squares around the tiles;
    ``coordinates`` writes each column's ``x`` and each row's ``y`` on the four edges;
    ``highlight`` lists features to outline as ``(tile number, feature index)``; ``last``
    outlines the last placed tile. Each tile is a ``<g class="tile">`` with its ``data-x``,
    ``data-y``, ``data-tile`` and ``data-rotation``.
    """
    layout = board_layout(board, size, pad=pad, coordinates=coordinates)
    width, height = layout.width, layout.height
    on_tile: dict[int, list[tuple[int, int, bool]]] = {}
    abbots = set(board.abbots_on_board())
    for player, number, feature in board.followers_on_board():
        abbot = (player, number, feature) in abbots
        on_tile.setdefault(number, []).append((player, feature, abbot))
    lit: dict[int, list[int]] = {}
    for number, feature in highlight:
        lit.setdefault(number, []).append(feature)
    scale = f"{size / 100:.4f}".rstrip("0").rstrip(".")  # exact: tiles must fill their cells
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">'
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append(f'<rect width="{width}" height="{height}" fill="#f7f5ef"/>')
    if coordinates:
        out.append(_coordinates(layout))
    types = board.tileset.types
    for number, (t, r, k, _b) in enumerate(board.placed):
        x, y = xy_of(k)
        tile = types[t]
        px, py = layout.cell(x, y)
        marks = "".join(highlight_svg(tile, f, r) for f in lit.get(number, ()))
        figures = "".join(_figure(tile, r, f, p, a) for p, f, a in on_tile.get(number, []))
        out.append(
            f'<g class="tile" data-x="{x}" data-y="{y}" data-tile="{escape(tile.name)}" '
            f'data-rotation="{r}" transform="translate({px} {py}) scale({scale})">'
            f"{tile_group(tile, r)}{marks}"
            '<rect width="100" height="100" fill="none" stroke="#555" stroke-width="0.8"/>'
            f"{figures}<title>{escape(tile.name)} at ({x}, {y})</title></g>"
        )
    if board.placed and last:
        px, py = layout.cell(*xy_of(board.placed[board.last_tile][2]))
        out.append(
            f'<rect class="last" x="{px + 1}" y="{py + 1}" width="{size - 2}" '
            f'height="{size - 2}" fill="none" stroke="#ffd400" stroke-width="3"/>'
        )
    out.append("</svg>")
    return "".join(out)


__all__ = [
    "PLAYER_COLOURS",
    "BoardLayout",
    "anchor",
    "anchors",
    "board_layout",
    "board_svg",
    "feature_anchor",
    "figure_svg",
    "garden_point",
    "highlight_svg",
    "tile_group",
    "tile_svg",
    "turn_point",
]

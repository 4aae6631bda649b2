"""SVG drawings of Carcassonne tiles and boards, as strings (deterministic, byte-stable).

A tile is drawn in a 100 x 100 box from its unrotated features and turned with a transform;
followers are drawn at an anchor point of their feature, in the player's colour.
"""

from __future__ import annotations

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
    return text[:-2] if text.endswith(".0") else text


def _pt(p: tuple[float, float]) -> str:
    return f"{_n(p[0])} {_n(p[1])}"


def _sides(mask: int) -> list[int]:
    return [s for s in range(4) if mask >> s & 1]


def _city_path(mask: int) -> str:
    if mask == 0b1111:
        return "M0 0 L100 0 L100 100 L0 100 Z"
    start = next(s for s in range(4) if mask >> s & 1 and not mask >> ((s - 1) % 4) & 1)
    parts = [f"M{_pt(_CORNERS[start])}"]
    s = start
    steps = 0
    while steps < 4:
        if mask >> s & 1:
            parts.append(f"L{_pt(_CORNERS[(s + 1) % 4])}")
            s = (s + 1) % 4
            steps += 1
            continue
        run = []
        while not mask >> s & 1 and steps < 4:
            run.append(s)
            s = (s + 1) % 4
            steps += 1
        mx = sum(_MIDS[r][0] for r in run) / len(run)
        my = sum(_MIDS[r][1] for r in run) / len(run)
        control = (50 + (mx - 50) * 0.4, 50 + (my - 50) * 0.4)
        parts.append(f"Q{_pt(control)} {_pt(_CORNERS[s])}")
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
        if f.kind is Kind.GARDEN:
            out.append(
                f'<circle cx="50" cy="50" r="12" fill="{GARDEN}" stroke="#1f4d14" '
                'stroke-width="2"/><circle cx="50" cy="50" r="4" fill="#e8d44d"/>'
            )
    if road_ends >= 3:
        out.append(f'<rect x="40" y="40" width="20" height="20" fill="{ROAD_EDGE}"/>')
    for f in tile.features:
        if f.kind is Kind.CITY:
            out.append(
                f'<path d="{_city_path(f.sides)}" fill="{CITY_FILL}" stroke="{CITY_EDGE}" '
                'stroke-width="2"/>'
            )
            for k in range(f.pennants):
                x, y = anchor(f)
                x += 12 + 10 * k
                y -= 14
                out.append(
                    f'<path d="M{_n(x - 6)} {_n(y - 6)} L{_n(x + 6)} {_n(y - 6)} '
                    f'L{_n(x + 6)} {_n(y + 2)} L{_n(x)} {_n(y + 8)} L{_n(x - 6)} {_n(y + 2)} Z" '
                    f'fill="{PENNANT}" stroke="#fff" stroke-width="1.5"/>'
                )
        if f.kind is Kind.MONASTERY:
            out.append(
                f'<path d="M34 66 L34 42 L50 30 L66 42 L66 66 Z" fill="{MONASTERY}" '
                'stroke="#5b2418" stroke-width="2"/>'
            )
    return "".join(out)


def _follower(feature: Feature, player: int, abbot: bool = False) -> str:
    x, y = anchor(feature)
    colour = PLAYER_COLOURS[player % len(PLAYER_COLOURS)]
    if abbot:
        return (
            f'<rect x="{_n(x - 9)}" y="{_n(y - 9)}" width="18" height="18" fill="{colour}" '
            f'stroke="#000" stroke-width="2"><title>abbot of player {player + 1}</title></rect>'
        )
    return (
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="9" fill="{colour}" stroke="#000" '
        f'stroke-width="2"><title>player {player + 1}</title></circle>'
    )


def tile_svg(tile: TileType, rotation: int = 0, size: int = 100) -> str:
    """A standalone SVG document of one tile, turned ``rotation`` quarter turns clockwise."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 100 100"><title>{escape(tile.name)}</title>'
        f'<g transform="rotate({90 * rotation} 50 50)">{_tile_body(tile)}</g>'
        '<rect width="100" height="100" fill="none" stroke="#333" stroke-width="1"/></svg>'
    )


def board_svg(board: Board, size: int = 60, *, title: str = "") -> str:
    """A standalone SVG document of a board with its followers; the last tile is outlined."""
    keys = [k for _t, _r, k, _b in board.placed]
    xs = [xy_of(k)[0] for k in keys]
    ys = [xy_of(k)[1] for k in keys]
    x0, y0 = min(xs), min(ys)
    width = (max(xs) - x0 + 1) * size
    height = (max(ys) - y0 + 1) * size
    on_tile: dict[int, list[tuple[int, int, bool]]] = {}
    abbots = set(board.abbots_on_board())
    for player, number, feature in board.followers_on_board():
        abbot = (player, number, feature) in abbots
        on_tile.setdefault(number, []).append((player, feature, abbot))
    scale = f"{size / 100:.4f}".rstrip("0").rstrip(".")  # exact: tiles must fill their cells
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">'
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append(f'<rect width="{width}" height="{height}" fill="#f7f5ef"/>')
    types = board.tileset.types
    for number, (t, r, k, _b) in enumerate(board.placed):
        x, y = xy_of(k)
        tile = types[t]
        followers = "".join(
            _follower(tile.features[f], p, a) for p, f, a in on_tile.get(number, [])
        )
        out.append(
            f'<g transform="translate({(x - x0) * size} {(y - y0) * size}) scale({scale})">'
            f'<g transform="rotate({90 * r} 50 50)">{_tile_body(tile)}{followers}</g>'
            '<rect width="100" height="100" fill="none" stroke="#555" stroke-width="0.8"/>'
            f"<title>{escape(tile.name)} at ({x}, {y})</title></g>"
        )
    if board.placed:
        x, y = xy_of(board.placed[board.last_tile][2])
        out.append(
            f'<rect x="{(x - x0) * size + 1}" y="{(y - y0) * size + 1}" width="{size - 2}" '
            f'height="{size - 2}" fill="none" stroke="#ffd400" stroke-width="3"/>'
        )
    out.append("</svg>")
    return "".join(out)

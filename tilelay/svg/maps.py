"""Drawing whole maps: every hex of a game, with a board's tiles, and overlays."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from tilelay.hexgeo import APOTHEM, Layout, hex_center
from tilelay.svg.geometry import Point
from tilelay.svg.overlays import (
    BoardLike,
    GameLike,
    RouteLike,
    highlights_group,
    legend_height,
    routes_group,
    routes_legend,
    tokens_group,
)
from tilelay.svg.text import FONT, esc, fmt, text_element
from tilelay.svg.tiles import tile_svg

__all__ = ["map_svg"]

_COORD_RE = re.compile(r"([A-Za-z]+)(-?\d+)$")


def map_svg(
    game: GameLike,
    *,
    board: BoardLike | None = None,
    size: float = 50.0,
    grid: bool = False,
    routes: Sequence[RouteLike] | None = None,
    highlights: Mapping[str, str] | None = None,
    tokens: bool = True,
) -> str:
    """Draw a game's whole map, with the tiles of ``board`` laid on it when given.

    ``game`` is a :class:`tilelay.games.Game` and ``board`` a :class:`tilelay.board.Board`.
    ``size`` is each hex's circumradius in px; ``grid`` draws the regions on every hex.
    Coordinates are written along the four sides: the letters and the numbers at the ends of
    the columns and rows of hexes they name.

    Overlays (:mod:`tilelay.svg.overlays`): ``routes`` (found on ``board``) are drawn over the
    map in one colour each, with a legend under it (given but empty: a legend saying no route
    runs); ``highlights`` outlines hexes (coordinate -> colour); the station tokens of a
    ``board`` that has them are drawn in their corporations' colours unless ``tokens`` is
    false.
    """
    lay = Layout(game.layout)
    centres: dict[str, Point] = {}
    for coord in game.hexes:
        col, row = game.coord_xy(coord)
        centres[coord] = hex_center(col, row, lay, size)
    if not centres:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"></svg>\n'
    hw, hh = (size, APOTHEM * size) if lay is Layout.FLAT else (APOTHEM * size, size)
    xs = [p[0] for p in centres.values()]
    ys = [p[1] for p in centres.values()]
    margin = size * 0.75
    x0, x1 = min(xs) - hw - margin, max(xs) + hw + margin
    y0, y1 = min(ys) - hh - margin, max(ys) + hh + margin
    width, height = x1 - x0, y1 - y0
    parts = [
        f'<rect x="{fmt(x0)}" y="{fmt(y0)}" width="{fmt(width)}" height="{fmt(height)}"'
        ' fill="#fff"/>'
    ]
    for coord, base in game.hexes.items():
        laid = board.tile_at(coord) if board is not None else None
        x, y = centres[coord]
        parts.append(
            f'<g class="hex" data-coord="{esc(coord)}" transform="translate({fmt(x)},{fmt(y)})">'
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
    cols_fn = getattr(game, "columns", None)
    rows_fn = getattr(game, "rows", None)
    if callable(cols_fn) and callable(rows_fn):
        parts.append(_axis_labels(cols_fn(), rows_fn(), lay, size, (x0, y0, x1, y1)))
    else:
        parts.append(_coord_labels(centres, lay, size, (x0, y0, x1, y1)))
    if highlights:
        parts.append(highlights_group(game, highlights, size))
    band = 0.0
    if routes is not None:
        if routes and board is None:
            raise ValueError("routes are drawn on the board they were found on: give board")
        if routes and board is not None:
            parts.append(routes_group(game, board, routes, size))
        else:
            parts.append('<g class="routes" data-total="0" fill="none"></g>')
        parts.append(routes_legend(routes, size, (x0, y0, width, height)))
        band = legend_height(routes, size)
    if tokens and board is not None and getattr(board, "tokens", None):
        parts.append(tokens_group(game, board, size))  # type: ignore[arg-type]
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{fmt(width)}"'
        f' height="{fmt(height + band)}"'
        f' viewBox="{fmt(x0)} {fmt(y0)} {fmt(width)} {fmt(height + band)}" font-family="{FONT}"'
        f' class="map" data-game="{esc(str(getattr(game, "name", "")))}">'
    )
    return head + "".join(parts) + "</svg>\n"


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
            out.append(
                text_element(x, yy, text, fs, cls="coord", bold=True, extra=' data-axis="x"')
            )
    for text, row in rows:
        y = hex_center(0, row, layout, size)[1]
        for xx in (x0 + size * 0.38, x1 - size * 0.38):
            out.append(
                text_element(xx, y, text, fs, cls="coord", bold=True, extra=' data-axis="y"')
            )
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
                    out.append(text_element(x, yy, text, fs, cls="coord", bold=True))
            else:
                y = sum(q[1] for q in pts) / len(pts)
                for xx in (x0 + size * 0.38, x1 - size * 0.38):
                    out.append(text_element(xx, y, text, fs, cls="coord", bold=True))
    out.append("</g>")
    return "".join(out)

"""Drawing tiles: one tile (:func:`tile_svg`), or a sheet of them (:func:`tiles_svg`).

A tile is drawn in tile units (:data:`~tilelay.svg.geometry.UNIT`) as a fragment memoised per
tile, layout and options: paths in the order listed, nodes on top, then revenues, labels and
the other marks placed where no track runs (:mod:`tilelay.svg.placement`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from tilelay.dsl import format_revenue
from tilelay.hexgeo import (
    Layout,
    corner,
    edge_endpoints,
    edge_midpoint,
    loc_point,
    region_centroid,
    region_polygons,
)
from tilelay.svg.geometry import (
    BOX_CORNER,
    BOX_HALF,
    BOX_STROKE,
    GAP,
    REV_R,
    SLOT_R,
    TRACK_W,
    UNIT,
    NodeGeo,
    Point,
    add,
    boxed,
    city_outline,
    clip,
    hex_dims,
    hex_points,
    interleaved,
    inward,
    is_terminal,
    layout_nodes,
    mul,
    pass_triangle,
    path_geometry,
    scaled,
    slot_points,
    slots_turn,
    sub,
    terminal_polygon,
    unit,
)
from tilelay.svg.placement import NodeShape, Placer
from tilelay.svg.text import (
    COLORS,
    FONT,
    WHITE,
    css_color,
    esc,
    fmt,
    fmt4,
    fmt_point,
    ink_on,
    phase_color,
    text_element,
    text_width,
)
from tilelay.tile import (
    Border,
    BorderType,
    Color,
    Edge,
    Icon,
    Node,
    NodeKind,
    Partition,
    Revenue,
    Tile,
    TownStyle,
    Track,
)

__all__ = ["clear_caches", "tile_fragment", "tile_svg", "tiles_svg"]

#: The widest a label is drawn (tile units: a hex is about 173 across its middle); a longer
#: one is set smaller ("Far West Territory").
LABEL_WIDTH = 120.0


def draw_paths(
    tile: Tile, layout: Layout, nodes: list[NodeGeo], bg: str, out: list[str]
) -> list[tuple[Point, ...]]:
    samples: list[tuple[Point, ...]] = []
    chords: list[tuple[int, int]] = []
    for path in tile.paths:
        a, b = str(path.a), str(path.b)
        attrs = f'data-a="{a}" data-b="{b}" data-track="{path.track.value}"'
        if is_terminal(tile, path):
            poly = terminal_polygon(path, layout, nodes)
            if poly is not None:
                out.append(f'<polygon class="track terminal" {attrs} points="{poly}" fill="#000"/>')
                geom = path_geometry(path, layout, nodes)
                samples.append(geom.samples(4)[:3])
                continue
        geom = path_geometry(path, layout, nodes)
        d = geom.d()
        samples.append(geom.samples(20))
        chord = (
            (path.a.num, path.b.num)
            if isinstance(path.a, Edge) and isinstance(path.b, Edge)
            else None
        )
        cross = chord is not None and any(interleaved(chord, c) for c in chords)
        if path.over or cross:
            w = TRACK_W + 2 * GAP + (4.0 if path.track is Track.DUAL else 0.0)
            out.append(f'<path class="gap" d="{d}" stroke="{bg}" stroke-width="{fmt(w)}"/>')
        if chord is not None:
            chords.append(chord)
        tr = path.track
        if tr is Track.NARROW:
            out.append(f'<path class="track-base" d="{d}" stroke="{WHITE}" stroke-width="8"/>')
            out.append(
                f'<path class="track" {attrs} d="{d}" stroke="#000" stroke-width="8"'
                ' stroke-dasharray="9 6"/>'
            )
        elif tr is Track.FERRY:
            out.append(f'<path class="track-base" d="{d}" stroke="{WHITE}" stroke-width="8"/>')
            out.append(
                f'<path class="track" {attrs} d="{d}" stroke="#1f6fc5" stroke-width="8"'
                ' stroke-dasharray="12 6"/>'
            )
        elif tr is Track.DUAL:
            out.append(f'<path class="track" {attrs} d="{d}" stroke="#000" stroke-width="10"/>')
            out.append(
                f'<path class="track-inner" d="{d}" stroke="{WHITE}" stroke-width="3"'
                ' stroke-dasharray="9 6"/>'
            )
        elif tr is Track.THIN:
            out.append(
                f'<path class="track" {attrs} d="{d}" stroke="#000" stroke-width="2"'
                ' stroke-dasharray="12"/>'
            )
        elif tr is Track.FUTURE:
            out.append(
                f'<path class="track future" {attrs} d="{d}" stroke="#888" stroke-width="6"'
                ' stroke-dasharray="9 3"/>'
            )
        elif tr is Track.TUNNEL:
            out.append(
                f'<path class="ties" d="{d}" stroke="#555" stroke-width="20"'
                ' stroke-dasharray="3 7"/>'
            )
            out.append(f'<path class="track" {attrs} d="{d}" stroke="#000" stroke-width="8"/>')
        else:
            out.append(f'<path class="track" {attrs} d="{d}" stroke="#000" stroke-width="8"/>')
    for stub in tile.stubs:
        m = scaled(edge_midpoint(stub.edge, layout))
        end = add(m, mul(inward(stub.edge, layout), STUB_LENGTH))
        out.append(
            f'<path class="stub" data-edge="{stub.edge}" d="M{fmt_point(m)}L{fmt_point(end)}"'
            ' stroke="#000" stroke-width="8"/>'
        )
        samples.append((m, add(m, mul(sub(end, m), 0.5)), end))
    return samples


#: How far a stub runs into the hex from its edge (tile units; the engine's 22 of 87).
STUB_LENGTH = 22.0
#: The fill and outline of a halt (the engine's grey town with a black rim).
HALT_FILL, HALT_STROKE = "#808080", "#000"


def draw_nodes(tile: Tile, nodes: list[NodeGeo], out: list[str]) -> None:
    order = sorted(range(len(tile.nodes)), key=lambda k: tile.nodes[k].kind is NodeKind.TOWN)
    for i in order:
        node = tile.nodes[i]
        g = nodes[i]
        x, y = fmt_point(g.pos).split(",")
        tr = f'transform="translate({x},{y})"'
        if node.kind is NodeKind.CITY:
            slots = max(node.slots, 1)
            offs = slot_points(tile, i, g)
            turned = slots_turn(tile, g)
            parts = [f'<g class="city" data-node="{i}" data-slots="{node.slots}" {tr}>']
            if node.mountain_pass:
                parts.append(_pass_triangles(node))
            if node.slots < 1:  # no token spaces: the engine draws only the revenue
                parts.append("</g>")
                out.append("".join(parts))
                continue
            if slots == 2:
                parts.append(
                    f'<rect class="city-box" x="{fmt(-BOX_HALF[0])}" y="{fmt(-BOX_HALF[1])}"'
                    f' width="{fmt(2 * BOX_HALF[0])}" height="{fmt(2 * BOX_HALF[1])}"'
                    f' rx="{fmt(BOX_CORNER)}" fill="{WHITE}" stroke="#000"'
                    f' stroke-width="{fmt(BOX_STROKE)}"'
                    + (f' transform="rotate({fmt(turned)})"' if turned else "")
                    + "/>"
                )
            elif slots > 2:
                pts = " ".join(fmt_point(o) for o in offs)
                hull = f'points="{pts}" stroke-linejoin="round"'
                parts.append(
                    f'<polygon class="city-box" {hull} fill="{WHITE}" stroke="#000"'
                    f' stroke-width="{fmt(2 * SLOT_R + 4)}"/>'
                )
                parts.append(
                    f'<polygon {hull} fill="{WHITE}" stroke="{WHITE}"'
                    f' stroke-width="{fmt(2 * SLOT_R)}"/>'
                )
            slot_fill = "none" if node.outline else WHITE
            for o in offs:
                parts.append(
                    f'<circle class="slot" cx="{fmt(o[0])}" cy="{fmt(o[1])}" r="{fmt(SLOT_R)}"'
                    f' fill="{slot_fill}" stroke="#000" stroke-width="2"/>'
                )
                if node.boom:
                    parts.append(
                        f'<circle class="boom" cx="{fmt(o[0])}" cy="{fmt(o[1])}" r="10"'
                        ' fill="none" stroke="#000" stroke-width="2" stroke-dasharray="6"/>'
                    )
            parts.append("</g>")
            out.append("".join(parts))
        elif node.kind is NodeKind.TOWN:
            style = tile.town_style(i)
            if style is TownStyle.HIDDEN:
                continue
            if node.halt or node.boom:
                out.append(_special_town(node, i, style, g.bar_angle, tr))
            elif style is TownStyle.DOT:
                out.append(
                    f'<g class="town" data-node="{i}" data-style="dot" {tr}><circle r="10"'
                    ' fill="#000" stroke="#fff" stroke-width="3"/></g>'
                )
            else:
                out.append(
                    f'<g class="town" data-node="{i}" data-style="rect" {tr}>'
                    f'<rect x="-18" y="-5.5" width="36" height="11" fill="#000"'
                    f' transform="rotate({fmt(g.bar_angle % 180.0)})"/></g>'
                )
        elif node.kind is NodeKind.JUNCTION:
            out.append(f'<g class="junction" data-node="{i}" {tr}/>')


def _special_town(node: Node, i: int, style: TownStyle, bar_angle: float, tr: str) -> str:
    """A halt (grey with a black rim, as the engine draws it) or a boomtown (a dashed ring)."""
    fill, stroke = (HALT_FILL, HALT_STROKE) if node.halt else ("#000", "#fff")
    cls = "town halt" if node.halt else "town"
    attrs = f'class="{cls}" data-node="{i}" data-style="{style.value}"'
    if node.halt:
        attrs += f' data-symbol="{esc(node.symbol or "")}"'
    if node.boom:
        attrs += ' data-boom="1"'
    parts = [f"<g {attrs} {tr}>"]
    if style is TownStyle.DOT:
        parts.append(f'<circle r="10" fill="{fill}" stroke="{stroke}" stroke-width="3"/>')
    else:
        rim = f' stroke="{stroke}" stroke-width="2"' if node.halt else ""
        parts.append(
            f'<rect x="-18" y="-5.5" width="36" height="11" fill="{fill}"{rim}'
            f' transform="rotate({fmt(bar_angle % 180.0)})"/>'
        )
    if node.boom:
        parts.append(
            f'<circle class="boom" r="{fmt(SLOT_R)}" fill="none" stroke="#000" stroke-width="2"'
            ' stroke-dasharray="6"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def _pass_triangles(node: Node) -> str:
    color = css_color(node.pass_color or "gray")
    outer = " ".join(fmt_point(p) for p in pass_triangle(node, 4.0))
    inner = " ".join(fmt_point(p) for p in pass_triangle(node))
    return (
        f'<polygon class="pass-outline" points="{outer}" fill="{WHITE}"/>'
        f'<polygon class="pass" data-size="{node.pass_size}" points="{inner}" fill="{color}"/>'
    )


def _revenue_size(
    rev: Revenue, layout_name: str | None, fmt_text: str | None = None, rows: int = 1
) -> tuple[str, float, float]:
    """The revenue layout to use and the half-size of its widget."""
    vals = rev.values()
    if not rev.is_phased and len(vals) == 1:
        return "single", REV_R, REV_R
    lay = layout_name or "split"
    n = len(vals)
    w = max(max(len(format_revenue(fmt_text, v)) for v in vals) * 9.0 + 8.0, 24.0)
    if lay == "circle":
        return lay, n * (REV_R + 1.0), REV_R
    if lay == "oval":
        return lay, n * w / 2.0 + 8.0, 14.0
    if lay == "vertical":
        return lay, w / 2.0, n * 11.0
    if lay == "horizontal":
        return lay, n * (w + 3.0) / 2.0, 11.0
    if rows > 1:
        per_row = math.ceil(n / rows)
        return "split", per_row * w / 2.0, 11.0 * math.ceil(n / per_row)
    return "split", n * w / 2.0, 11.0


def _revenue_widget(
    rev: Revenue,
    layout_name: str | None,
    c: Point,
    node: str,
    fmt_text: str | None = None,
    rows: int = 1,
) -> str:
    lay, hw, hh = _revenue_size(rev, layout_name, fmt_text, rows)
    vals = rev.values()
    data = "|".join(str(v) for v in vals)
    head = (
        f'<g class="revenue" data-node="{node}" data-layout="{lay}" data-values="{data}"'
        + (f' data-format="{esc(fmt_text)}"' if fmt_text is not None else "")
        + (f' data-rows="{rows}"' if rows > 1 else "")
        + f' transform="translate({fmt_point(c)})">'
    )
    parts = [head]
    if lay == "single":
        txt = format_revenue(fmt_text, vals[0])
        fs = 17.0 if len(txt) < 3 else 14.0
        parts.append(f'<circle r="{fmt(REV_R)}" fill="{WHITE}" stroke="#000" stroke-width="1.5"/>')
        parts.append(text_element(0.0, 0.0, txt, fs, cls="revenue-value", bold=True))
        parts.append("</g>")
        return "".join(parts)
    phases = rev.phases or tuple(("", v) for v in vals)
    n = len(phases)
    fs = 15.0
    if lay == "circle":
        step = 2 * hw / n
        for k, (ph, v) in enumerate(phases):
            x = -hw + step * (k + 0.5)
            col = phase_color(ph, k) if ph else "#000"
            parts.append(
                f'<circle cx="{fmt(x)}" r="{fmt(REV_R)}" fill="{WHITE}" stroke="{col}"'
                ' stroke-width="3"/>'
            )
            parts.append(
                text_element(
                    x, 0.0, format_revenue(fmt_text, v), fs, cls="revenue-value", bold=True
                )
            )
    elif lay == "oval":
        parts.append(
            f'<ellipse rx="{fmt(hw)}" ry="{fmt(hh)}" fill="{WHITE}" stroke="#000"'
            ' stroke-width="1.5"/>'
        )
        step = (2 * hw - 16.0) / n
        for k, (_, v) in enumerate(phases):
            x = -hw + 8.0 + step * (k + 0.5)
            parts.append(
                text_element(
                    x, 0.0, format_revenue(fmt_text, v), fs, cls="revenue-value", bold=True
                )
            )
            if k:
                xs = fmt(-hw + 8.0 + step * k)
                parts.append(
                    f'<line x1="{xs}" y1="-9" x2="{xs}" y2="9" stroke="#000" stroke-width="1"/>'
                )
    elif lay == "vertical":
        bh = 2 * hh / n
        for k, (ph, v) in enumerate(phases):
            y = -hh + bh * k
            box = phase_color(ph, k)
            parts.append(
                f'<rect x="{fmt(-hw)}" y="{fmt(y)}" width="{fmt(2 * hw)}" height="{fmt(bh)}"'
                f' fill="{box}" stroke="#000" stroke-width="1.5"/>'
            )
            text = format_revenue(fmt_text, v)
            parts.append(
                text_element(
                    0.0, y + bh / 2, text, fs, cls="revenue-value", bold=True, fill=ink_on(box)
                )
            )
    elif rows > 1 and lay == "split":
        parts.append(_revenue_rows(phases, hw, hh, fmt_text, rows))
    else:
        gap = 3.0 if lay == "horizontal" else 0.0
        bw = (2 * hw - gap * (n - 1)) / n
        for k, (ph, v) in enumerate(phases):
            x = -hw + (bw + gap) * k
            box = phase_color(ph, k)
            parts.append(
                f'<rect x="{fmt(x)}" y="{fmt(-hh)}" width="{fmt(bw)}" height="{fmt(2 * hh)}"'
                f' fill="{box}" stroke="#000" stroke-width="' + ("1.5" if gap else "0.75") + '"/>'
            )
            text = format_revenue(fmt_text, v)
            parts.append(
                text_element(
                    x + bw / 2, 0.0, text, fs, cls="revenue-value", bold=True, fill=ink_on(box)
                )
            )
        if not gap:
            parts.append(
                f'<rect x="{fmt(-hw)}" y="{fmt(-hh)}" width="{fmt(2 * hw)}" height="{fmt(2 * hh)}"'
                ' fill="none" stroke="#000" stroke-width="1.5"/>'
            )
    parts.append("</g>")
    return "".join(parts)


def _revenue_rows(
    phases: tuple[tuple[str, int], ...], hw: float, hh: float, fmt_text: str | None, rows: int
) -> str:
    """A phased revenue split into ``rows`` rows of boxes (an offboard's ``rows``)."""
    per_row = math.ceil(len(phases) / rows)
    bw, bh = 2 * hw / per_row, 22.0
    parts = []
    for k, (ph, v) in enumerate(phases):
        r, col = divmod(k, per_row)
        x, y = -hw + bw * col, -hh + bh * r
        box = phase_color(ph, k)
        parts.append(
            f'<rect x="{fmt(x)}" y="{fmt(y)}" width="{fmt(bw)}" height="{fmt(bh)}"'
            f' fill="{box}" stroke="#000" stroke-width="0.75"/>'
        )
        text = format_revenue(fmt_text, v)
        parts.append(
            text_element(
                x + bw / 2, y + bh / 2, text, 15.0, cls="revenue-value", bold=True, fill=ink_on(box)
            )
        )
    parts.append(
        f'<rect x="{fmt(-hw)}" y="{fmt(-hh)}" width="{fmt(2 * hw)}" height="{fmt(2 * hh)}"'
        ' fill="none" stroke="#000" stroke-width="1.5"/>'
    )
    return "".join(parts)


def _icon_text(icon: Icon) -> str:
    """What an icon shows: its name, else its image's own name (without the folder a game's
    images are in: 1846's ``1846/meat`` shows ``me``, not ``18``)."""
    return icon.name or icon.image.rsplit("/", 1)[-1]


def _terrain_symbol(terrain: str, x: float) -> str:
    t = terrain.lower()
    if t == "mountain":
        return (
            f'<polygon class="terrain mountain"'
            f' points="{fmt(x - 11)},8 {fmt(x)},-11 {fmt(x + 11)},8"'
            ' fill="#cb7745" stroke="#000" stroke-width="1.2"/>'
            f'<polygon points="{fmt(x - 4.4)},-3.4 {fmt(x)},-11 {fmt(x + 4.4)},-3.4" fill="#fff"/>'
        )
    if t == "water":
        d = " ".join(f"M{fmt(x - 11)},{fmt(y)} q5.5,-5 11,0 t11,0" for y in (-3.0, 4.0))
        return (
            f'<path class="terrain water" d="{d}" fill="none" stroke="#147ebe" stroke-width="2.6"/>'
        )
    return (
        f'<g class="terrain {esc(t)}"><circle cx="{fmt(x)}" r="10" fill="#fff" stroke="#000"/>'
        + text_element(x, 0.0, t[:1].upper(), 12.0, cls="terrain-letter", bold=True)
        + "</g>"
    )


# ------------------------------------------------------------------------ tiles


def _stripes(base: str, stripe: str, layout: Layout) -> str:
    """Diagonal stripes of ``stripe`` over the hex, clipped to it without ids."""
    hexpoly = [scaled(corner(i, layout)) for i in range(6)]
    d = unit((1.0, -1.0))
    n = (-d[1], d[0])
    parts = []
    w = 14.0
    for k in range(-8, 8, 2):
        lo, hi = k * w, (k + 1) * w
        poly = clip(hexpoly, n, lo, hi)
        if len(poly) >= 3:
            parts.append(" ".join(fmt_point(p) for p in poly))
    del base
    return "".join(f'<polygon class="stripe" points="{p}" fill="{stripe}"/>' for p in parts)


def grid_overlay(layout: Layout) -> str:
    parts = ['<g class="region-grid" fill="none" stroke="#666" stroke-width="0.6">']
    for i, tri in enumerate(region_polygons(layout)):
        parts.append(f'<polygon points="{" ".join(fmt_point(scaled(p)) for p in tri)}"/>')
        c = scaled(region_centroid(i, layout))
        parts.append(text_element(c[0], c[1], str(i), 8.0, cls="region-number", fill="#666"))
    parts.append("</g>")
    return "".join(parts)


def tile_body(tile: Tile, layout: Layout, grid: bool, name: str | None, show_number: bool) -> str:
    """The inside of a tile's ``<g>``, in tile units."""
    if tile.color is Color.EMPTY:  # no hex here: the engine draws nothing
        return ""
    fill = COLORS.get(tile.color.value, "#eaf0f4")
    out: list[str] = [f'<polygon class="hex-fill" points="{hex_points(layout)}" fill="{fill}"/>']
    if tile.stripe is not None:
        out.append(_stripes(fill, COLORS.get(tile.stripe.value, "#888"), layout))
    if grid:
        out.append(grid_overlay(layout))
    if tile.frame is not None:
        pts = hex_points(layout, 0.93)
        out.append(
            f'<polygon class="frame" points="{pts}" fill="none"'
            f' stroke="{esc(css_color(tile.frame.color))}" stroke-width="9"/>'
        )
        if tile.frame.color2:
            out.append(
                f'<polygon class="frame2" points="{pts}" fill="none"'
                f' stroke="{esc(css_color(tile.frame.color2))}" stroke-width="9"'
                ' stroke-dasharray="15 15"/>'
            )
    nodes = layout_nodes(tile, layout)
    out.append('<g class="paths" fill="none" stroke-linecap="butt">')
    samples = draw_paths(tile, layout, nodes, fill, out)
    out.append("</g>")
    draw_nodes(tile, nodes, out)
    placer = Placer(
        layout, samples, [_node_shape(tile, i, nodes[i]) for i in range(len(tile.nodes))]
    )
    for b in tile.borders:  # a border's cost is drawn where it is: nothing else goes there
        if b.cost and b.type is not None:
            c = _border_cost_spot(b.edge, layout)
            placer.take(c[0], c[1], BORDER_COST_R, BORDER_COST_R)
    number = tile.name if show_number and tile.name else None
    spot = (36.0, 66.0)
    if number:  # the lower right, unless track runs there
        hw = text_width(number, 12.0) / 2
        spot = placer.place(spot, hw, 7.0, [spot, (-36.0, 66.0), (0.0, 70.0)], weight=1.0)
    _draw_marks(tile, layout, nodes, placer, name, out)
    if number:
        out.append(text_element(spot[0], spot[1], number, 12.0, cls="tile-number"))
    for b in tile.borders:
        out.append(_border(b, fill, layout))
    for pt in tile.partitions:
        out.append(_partition(pt, fill, layout))
    out.append(
        f'<polygon class="hex-outline" points="{hex_points(layout)}" fill="none"'
        ' stroke="#000" stroke-width="1.2"/>'
    )
    return "".join(out)


def _node_shape(tile: Tile, i: int, g: NodeGeo) -> NodeShape:
    """Node ``i`` as placement sees it: a city of several slots is the shape round its
    slots (as :func:`draw_nodes` draws its box), any other node the circle round it."""
    if not boxed(tile.nodes[i]):
        return ((g.pos,), g.extent)
    points, reach = city_outline(tile, i, g)
    return (tuple(add(g.pos, o) for o in points), reach)


def _draw_marks(
    tile: Tile,
    layout: Layout,
    nodes: list[NodeGeo],
    placer: Placer,
    name: str | None,
    out: list[str],
) -> None:
    # revenues
    shown = [
        i
        for i, n in enumerate(tile.nodes)
        if n.revenue is not None
        and not n.hide
        and not n.halt
        and n.kind is not NodeKind.JUNCTION
        and (n.revenue.is_phased or n.revenue.value)
    ]
    same = (
        len(shown) > 1
        and len(
            {
                (tile.nodes[i].revenue, tile.nodes[i].revenue_format, tile.nodes[i].revenue_rows)
                for i in shown
            }
        )
        == 1
        and all(tile.nodes[i].revenue_loc is None for i in shown)
    )
    groups = [shown] if same else [[i] for i in shown]
    for group in groups:
        node = tile.nodes[group[0]]
        rev = node.revenue
        assert rev is not None
        fmt_text, rows = node.revenue_format, node.revenue_rows
        _, hw, hh = _revenue_size(rev, node.revenue_layout, fmt_text, rows)
        if node.revenue_loc is not None:
            c = scaled(loc_point(node.revenue_loc, layout))
            placer.take(c[0], c[1], hw, hh)
        else:
            anchor = (0.0, 0.0) if same else nodes[group[0]].pos
            extra: list[Point] = []
            if hw > 20:
                extra = [(0.0, -45.0), (0.0, 45.0), (0.0, 0.0), (0.0, -60.0), (0.0, 60.0)]
            c = placer.place(anchor, hw, hh, extra)
        ref = "|".join(f"_{i}" for i in group)
        out.append(_revenue_widget(rev, node.revenue_layout, c, ref, fmt_text, rows))
    # halts show their symbol where other stops show a revenue
    for i, node in enumerate(tile.nodes):
        if node.halt and node.symbol and not node.hide:
            fs = 18.0
            hw, hh = text_width(node.symbol, fs) / 2 + 2.0, fs * 0.5
            g = nodes[i]
            c = placer.place(g.pos, hw, hh, [add(g.pos, (0.0, -28.0)), add(g.pos, (28.0, 0.0))])
            out.append(
                f'<g class="halt-symbol" data-node="_{i}" transform="translate({fmt_point(c)})">'
                + text_element(0.0, 0.0, node.symbol, fs, cls="symbol")
                + "</g>"
            )
    # labels
    for lab in tile.labels:
        fs = 30.0 if len(lab.text) <= 2 else 24.0
        width = text_width(lab.text, fs, True)
        if width > LABEL_WIDTH:  # a long label made smaller to stay inside the hex
            fs *= LABEL_WIDTH / width
        # smaller where it fits nowhere at its size (18USA's DFW lay on its city)
        sizes = [fs, *(f for f in _LABEL_SMALLER if f < fs)]
        forms = [(text_width(lab.text, f, True) / 2 + 3.0, f * 0.42 + 1.0) for f in sizes]
        if lab.loc is not None:
            c = scaled(loc_point(lab.loc, layout))
            placer.take(c[0], c[1], *forms[0])
        else:
            chosen, c = placer.place_first(forms, (-55.0, -10.0), weight=0.2)
            fs = sizes[chosen]
        out.append(text_element(c[0], c[1], lab.text, fs, cls="label", bold=True))
    # terrain upgrades
    for up in tile.upgrades:
        cost = str(up.cost) if up.cost else ""
        n = len(up.terrains)
        tw = text_width(cost, 15.0, True)
        k = 1.0 if up.size is None else up.size / 20.0  # the engine draws symbols 20 wide
        step = 24.0 * k
        hw = (n * step + tw + (4.0 if n and cost else 0.0)) / 2 + 2.0
        hh = 12.0 * max(k, 1.0)
        if up.loc is not None:
            c = scaled(loc_point(up.loc, layout))
            placer.take(c[0], c[1], hw, hh)
        else:
            c = placer.place((30.0, -45.0), hw, hh, weight=0.1)
        parts = [
            f'<g class="upgrade" data-cost="{up.cost}" data-terrain="{esc("|".join(up.terrains))}"'
            + (f' data-size="{up.size}"' if up.size is not None else "")
            + f' transform="translate({fmt_point(c)})">'
        ]
        x = -hw + 2.0
        for t in up.terrains:
            if up.size is None:
                parts.append(_terrain_symbol(t, x + 12.0))
            else:
                parts.append(
                    f'<g transform="translate({fmt(x + step / 2)},0) scale({fmt4(k)})">'
                    + _terrain_symbol(t, 0.0)
                    + "</g>"
                )
            x += step
        if cost:
            parts.append(
                text_element(
                    x + (2.0 if n else 0.0), 0.0, cost, 15.0, cls="cost", bold=True, anchor="start"
                )
            )
        parts.append("</g>")
        out.append("".join(parts))
    # icons
    for icon in tile.icons:
        if icon.large:
            continue
        if icon.loc is not None:
            c = scaled(loc_point(icon.loc, layout))
            placer.take(c[0], c[1], 13.0, 13.0)
        else:
            c = placer.place((40.0, 30.0), 13.0, 13.0)
        letter = _icon_text(icon)[:2]
        out.append(
            f'<g class="icon" data-image="{esc(icon.image)}" transform="translate({fmt_point(c)})">'
            '<circle r="12" fill="#fff" stroke="#000" stroke-width="1.5"/>'
            + text_element(0.0, 0.0, letter, 10.0, cls="icon-text", bold=True)
            + "</g>"
        )
    # large icons, then the future label (big items, where there is room)
    big_spots = [(-40.0, 40.0), (40.0, -40.0), (-40.0, -40.0), (40.0, 40.0), (0.0, 0.0)]
    for icon in tile.icons:
        if not icon.large:
            continue
        r = LARGE_ICON_R
        if icon.loc is not None:
            c = scaled(loc_point(icon.loc, layout))
            placer.take(c[0], c[1], r, r)
        else:
            c = placer.place((-40.0, 40.0), r, r, big_spots, weight=0.1)
        word, _, value = _icon_text(icon).rpartition("-")
        if not (word and value.isdigit()):
            word, value = _icon_text(icon), ""
        # a commodity's value under its name (18India's opium-100: "opi", "100")
        text = (
            text_element(0.0, 0.0, word[:3], 15.0, cls="icon-text", bold=True)
            if not value
            else text_element(0.0, -7.0, word[:3], 13.0, cls="icon-text", bold=True)
            + text_element(0.0, 8.0, value[:4], 13.0, cls="icon-text", bold=True)
        )
        out.append(
            f'<g class="icon large" data-image="{esc(icon.image)}"'
            f' transform="translate({fmt_point(c)})">'
            f'<circle r="{fmt(r)}" fill="#fff" stroke="#000" stroke-width="2"/>' + text + "</g>"
        )
    if tile.future_label is not None:
        fl = tile.future_label
        r = FUTURE_LABEL_R
        c = placer.place((40.0, -40.0), r, r, big_spots[1:] + big_spots[:1], weight=0.1)
        color = COLORS.get(fl.color.value if fl.color is not None else "white", "#eaf0f4")
        pts = " ".join(fmt_point(mul(corner(k, layout), r)) for k in range(6))
        out.append(
            f'<g class="future-label" data-label="{esc(fl.text or "")}"'
            f' data-color="{fl.color.value if fl.color is not None else ""}"'
            f' transform="translate({fmt_point(c)})">'
            f'<polygon points="{pts}" fill="{color}" stroke="#000" stroke-width="1"/>'
            + text_element(0.0, 0.0, fl.text or "", 18.0, cls="label", bold=True)
            + "</g>"
        )
    # node names, then the location name
    for i, node in enumerate(tile.nodes):
        if node.name:
            g = nodes[i]
            hw, hh = text_width(node.name, 12.0) / 2 + 2.0, 8.0
            c = placer.place((g.pos[0], g.pos[1] + g.extent + 10.0), hw, hh, weight=0.3)
            out.append(_name_text(c, (node.name,), 12.0, "node-name"))
    loc_name = tile.location_name
    if loc_name is None and name and tile.stops:
        loc_name = name
    if loc_name:
        stops = [nodes[i] for i, n in enumerate(tile.nodes) if n.is_stop]
        anchor = (0.0, 55.0)
        if len(stops) == 1:
            anchor = (stops[0].pos[0], stops[0].pos[1] + stops[0].extent + 12.0)
        extra = [(0.0, 58.0), (0.0, -58.0), (0.0, 70.0), (0.0, -70.0)]
        c, lines, fs = _place_name(placer, loc_name, anchor, extra)
        out.append(_name_text(c, lines, fs, "location-name"))


#: The smaller sizes a label is tried at, where it fits nowhere at its own.
_LABEL_SMALLER = (20.0, 16.0)

#: The sizes a location name is tried at, largest first (a name of more than 14 letters
#: starts at the second), and the least: a name set smaller, or on two lines, only where
#: it then overlaps less.
_NAME_SIZES = (13.0, 11.0, 9.0)


def _place_name(
    placer: Placer, name: str, anchor: Point, extra: Sequence[Point]
) -> tuple[Point, tuple[str, ...], float]:
    """Where a location name goes, on which lines and at what size: its forms are one
    line, then two, at each size in turn (:data:`_NAME_SIZES`), placed by
    :meth:`Placer.place_first` (its pale box may lie over track). The spot is marked
    used."""
    sizes = _NAME_SIZES if len(name) <= 14 else _NAME_SIZES[1:]
    forms = [(fs, lines) for fs in sizes for lines in _name_lines(name)]
    k, c = placer.place_first(
        [
            (max(text_width(line, fs) for line in lines) / 2 + 3.0, fs * 0.6 * len(lines))
            for fs, lines in forms
        ],
        anchor,
        extra,
        weight=0.15,
    )
    fs, lines = forms[k]
    return c, lines, fs


def _name_lines(name: str) -> list[tuple[str, ...]]:
    """A name on one line, then (where it has a space) on two, broken at the space nearest
    its middle."""
    forms: list[tuple[str, ...]] = [(name,)]
    spaces = [i for i, ch in enumerate(name) if ch == " "]
    if spaces:
        cut = min(spaces, key=lambda i: abs(2 * i - len(name)))
        forms.append((name[:cut], name[cut + 1 :]))
    return forms


def _name_text(c: Point, lines: Sequence[str], fs: float, cls: str) -> str:
    """A name's lines centred on ``c``, over a pale box."""
    hw = max(text_width(line, fs) for line in lines) / 2 + 2.0
    height = fs * 1.2 * len(lines)
    top = c[1] - height / 2
    return (
        f'<rect class="{cls}-bg" x="{fmt(c[0] - hw)}" y="{fmt(top)}" width="{fmt(2 * hw)}"'
        f' height="{fmt(height)}" rx="3" fill="#fff" fill-opacity="0.6"/>'
        + "".join(
            text_element(c[0], top + fs * 1.2 * (k + 0.5), line, fs, cls=cls)
            for k, line in enumerate(lines)
        )
    )


_BORDER_COLORS = {
    BorderType.MOUNTAIN: "#8b5a2b",
    BorderType.WATER: "#1f6fc5",
    BorderType.IMPASSABLE: "#d01010",
    BorderType.PROVINCE: "#000",
    BorderType.DIVIDER: "#000",
    BorderType.OFFBOARD: "#555",
    BorderType.GAUGE_CHANGE: "#d01010",
}
#: The radius of a large icon and the circumradius of a future label's hex (tile units).
LARGE_ICON_R = 25.0
FUTURE_LABEL_R = 18.0


#: The radius of a border's cost disc (tile units).
BORDER_COST_R = 10.0


def _border_cost_spot(edge: int, layout: Layout) -> Point:
    """Where a border's cost is drawn: inside the hex, off the middle of its edge."""
    return mul(scaled(edge_midpoint(edge, layout)), 0.78)


def _border(border: Border, fill: str, layout: Layout) -> str:
    edge, btype, cost = border.edge, border.type, border.cost
    a, b = edge_endpoints(edge, layout)
    inset = mul(inward(edge, layout), 4.0)
    pa, pb = add(scaled(a), inset), add(scaled(b), inset)
    typ = btype.value if btype is not None else "join"
    if btype is None:
        return (
            f'<line class="border" data-edge="{edge}" data-type="join" x1="{fmt(scaled(a)[0])}"'
            f' y1="{fmt(scaled(a)[1])}" x2="{fmt(scaled(b)[0])}" y2="{fmt(scaled(b)[1])}"'
            f' stroke="{fill}" stroke-width="4"/>'
        )
    color = _BORDER_COLORS[btype] if border.color is None else css_color(border.color)
    data = f'class="border" data-edge="{edge}" data-type="{typ}"'
    if border.color is not None:
        data += f' data-color="{esc(border.color)}"'
    if btype is BorderType.GAUGE_CHANGE:  # a red disc on the edge, as the engine draws it
        m = scaled(edge_midpoint(edge, layout))
        out = (
            f'<circle {data} cx="{fmt(m[0])}" cy="{fmt(m[1])}" r="12" fill="{color}"'
            ' stroke="#fff" stroke-width="3"/>'
        )
    elif btype in (BorderType.DIVIDER, BorderType.OFFBOARD):  # on the edge line, thin
        sa, sb = scaled(a), scaled(b)
        dash = ' stroke-dasharray="6 4"' if btype is BorderType.OFFBOARD else ""
        out = (
            f'<line {data} x1="{fmt(sa[0])}" y1="{fmt(sa[1])}" x2="{fmt(sb[0])}"'
            f' y2="{fmt(sb[1])}" stroke="{color}" stroke-width="4"{dash}/>'
        )
    else:
        dash = ' stroke-dasharray="8 5"' if btype is BorderType.PROVINCE else ""
        out = (
            f'<line {data} x1="{fmt(pa[0])}" y1="{fmt(pa[1])}" x2="{fmt(pb[0])}"'
            f' y2="{fmt(pb[1])}" stroke="{color}" stroke-width="8"{dash}/>'
        )
    if cost:
        c = _border_cost_spot(edge, layout)
        out += (
            f'<g class="border-cost"><circle cx="{fmt(c[0])}" cy="{fmt(c[1])}"'
            f' r="{fmt(BORDER_COST_R)}" fill="#fff"'
            f' stroke="{color}" stroke-width="2"/>'
            + text_element(c[0], c[1], str(cost), 10.0, cls="cost", bold=True)
            + "</g>"
        )
    return out


_PARTITION_COLORS = {
    BorderType.MOUNTAIN: COLORS["brown"],
    BorderType.PROVINCE: COLORS["orange"],
    BorderType.WATER: "#1f6fc5",
    BorderType.IMPASSABLE: "#d01010",
    BorderType.DIVIDER: "#000",
    BorderType.OFFBOARD: "#555",
    BorderType.GAUGE_CHANGE: "#d01010",
}


def partition_vertex(vertex: int, layout: Layout) -> Point:
    """Corner ``vertex`` of a partition in tile units (the engine numbers corners from the
    one where edge 5 meets edge 0)."""
    return scaled(corner((vertex - 1) % 6, layout))


def partition_geometry(pt: Partition, layout: Layout) -> tuple[Point, Point, Point, Point]:
    """The partition's line as a cubic Bézier (start, control, control, end), as the engine
    draws it: each end a little inside its corner, pulled towards the neighbouring corner its
    sign names, and only ``length`` of the way from ``a`` when that is given."""

    def end(v: int, sign: int) -> Point:
        p, q = partition_vertex(v, layout), partition_vertex(v + sign, layout)
        return add(mul(p, 0.8), mul(q, 0.2))

    va, vb = end(pt.a, pt.a_sign), end(pt.b, pt.b_sign)
    if pt.length is not None:
        vb = add(va, mul(sub(vb, va), pt.length))
    ca = mul(partition_vertex(pt.a, layout), 0.6) if pt.a_sign else add(mul(va, 0.8), mul(vb, 0.2))
    cb = mul(partition_vertex(pt.b, layout), 0.6) if pt.b_sign else add(mul(vb, 0.8), mul(va, 0.2))
    return va, ca, cb, vb


def _partition(pt: Partition, fill: str, layout: Layout) -> str:
    va, ca, cb, vb = partition_geometry(pt, layout)
    color = fill if pt.type is None else _PARTITION_COLORS[pt.type]
    dash = ' stroke-dasharray="20 20"' if pt.type is BorderType.PROVINCE else ""
    typ = "" if pt.type is None else f' data-type="{pt.type.value}"'
    side = "" if pt.restrict is None else f' data-restrict="{pt.restrict.value}"'
    return (
        f'<path class="partition" data-a="{pt.a}" data-b="{pt.b}"{typ}{side}'
        f' d="M{fmt_point(va)}C{fmt_point(ca)} {fmt_point(cb)} {fmt_point(vb)}" fill="none"'
        f' stroke="{color}" stroke-width="8"{dash}/>'
    )


@lru_cache(maxsize=4096)
def tile_fragment(
    tile: Tile, layout: Layout, grid: bool, name: str | None, show_number: bool
) -> str:
    head = (
        f'<g class="tile" data-tile="{esc(tile.name)}" data-rotation="{tile.rotation}"'
        f' data-color="{tile.color.value}" data-layout="{layout.value}">'
    )
    return head + tile_body(tile, layout, grid, name, show_number) + "</g>"


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
    frag = tile_fragment(tile, Layout(layout), grid, name, show_number)
    k = size / UNIT
    if not standalone:
        if abs(k - 1.0) < 1e-9:
            return frag
        return f'<g transform="scale({fmt4(k)})">{frag}</g>'
    w, h = hex_dims(Layout(layout), size)
    vw, vh = hex_dims(Layout(layout), UNIT + 2.0)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{fmt(w)}" height="{fmt(h)}"'
        f' viewBox="{fmt(-vw / 2)} {fmt(-vh / 2)} {fmt(vw)} {fmt(vh)}"'
        f' font-family="{FONT}">{frag}</svg>\n'
    )


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
    w, h = hex_dims(lay, size)
    pad = size * 0.12
    cap = size * 0.28 if captions else 0.0
    cw, ch = w + 2 * pad, h + 2 * pad + cap
    fs = max(9.0, size * 0.16)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg"'
        f' width="{fmt(cw * cols)}" height="{fmt(ch * rows)}"'
        f' viewBox="0 0 {fmt(cw * cols)} {fmt(ch * rows)}" font-family="{FONT}">'
    ]
    for i, t in enumerate(tiles):
        r, c = divmod(i, cols)
        x, y = c * cw + cw / 2, r * ch + pad + h / 2
        parts.append(f'<g class="sheet-cell" transform="translate({fmt(x)},{fmt(y)})">')
        parts.append(tile_svg(t, layout=lay, size=size, grid=grid, name=name, standalone=False))
        parts.append("</g>")
        if captions:
            text = f"{t.name} r{t.rotation}" if t.rotation else t.name
            parts.append(text_element(x, y + h / 2 + cap * 0.55, text, fs, cls="caption"))
    parts.append("</svg>\n")
    return "".join(parts)


def clear_caches() -> None:
    """Forget the memoised tile fragments (for cold-start measurements)."""
    tile_fragment.cache_clear()

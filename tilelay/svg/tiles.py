"""Drawing tiles: one tile (:func:`tile_svg`), or a sheet of them (:func:`tiles_svg`).

A tile is drawn in tile units (:data:`~tilelay.svg.geometry.UNIT`) as a fragment memoised per
tile, layout and options: paths in the order listed, nodes on top, then revenues, labels and
the other marks placed where no track runs (:mod:`tilelay.svg.placement`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

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
    GAP,
    REV_R,
    SLOT_R,
    TRACK_W,
    UNIT,
    NodeGeo,
    Point,
    add,
    clip,
    hex_dims,
    hex_points,
    interleaved,
    inward,
    is_terminal,
    layout_nodes,
    mul,
    path_geometry,
    scaled,
    slot_offsets,
    terminal_polygon,
    turn,
    unit,
)
from tilelay.svg.placement import Placer
from tilelay.svg.text import (
    COLORS,
    FONT,
    WHITE,
    css_color,
    esc,
    fmt,
    fmt4,
    fmt_point,
    phase_color,
    text_element,
    text_width,
)
from tilelay.tile import BorderType, Edge, NodeKind, Revenue, Tile, TownStyle, Track

__all__ = ["clear_caches", "tile_fragment", "tile_svg", "tiles_svg"]


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
        elif tr is Track.TUNNEL:
            out.append(
                f'<path class="ties" d="{d}" stroke="#555" stroke-width="20"'
                ' stroke-dasharray="3 7"/>'
            )
            out.append(f'<path class="track" {attrs} d="{d}" stroke="#000" stroke-width="8"/>')
        else:
            out.append(f'<path class="track" {attrs} d="{d}" stroke="#000" stroke-width="8"/>')
    return samples


def draw_nodes(tile: Tile, nodes: list[NodeGeo], out: list[str]) -> None:
    rot = tile.rotation * 60.0
    order = sorted(range(len(tile.nodes)), key=lambda k: tile.nodes[k].kind is NodeKind.TOWN)
    for i in order:
        node = tile.nodes[i]
        g = nodes[i]
        x, y = fmt_point(g.pos).split(",")
        tr = f'transform="translate({x},{y})"'
        if node.kind is NodeKind.CITY:
            slots = max(node.slots, 1)
            offs = slot_offsets(slots)
            if rot:
                offs = [turn(o, rot) for o in offs]
            parts = [f'<g class="city" data-node="{i}" data-slots="{node.slots}" {tr}>']
            if slots == 2:
                parts.append(
                    f'<rect class="city-box" x="-52" y="-27" width="104" height="54" rx="14"'
                    f' fill="{WHITE}" stroke="#000" stroke-width="2"'
                    + (f' transform="rotate({fmt(rot)})"' if rot else "")
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
            for o in offs:
                parts.append(
                    f'<circle class="slot" cx="{fmt(o[0])}" cy="{fmt(o[1])}" r="{fmt(SLOT_R)}"'
                    f' fill="{WHITE}" stroke="#000" stroke-width="2"/>'
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
                    f' transform="rotate({fmt(g.bar_angle % 180.0)})"/></g>'
                )
        elif node.kind is NodeKind.JUNCTION:
            out.append(f'<g class="junction" data-node="{i}" {tr}/>')


def _revenue_size(rev: Revenue, layout_name: str | None) -> tuple[str, float, float]:
    """The revenue layout to use and the half-size of its widget."""
    vals = rev.values()
    if not rev.is_phased and len(vals) == 1:
        return "single", REV_R, REV_R
    lay = layout_name or "split"
    n = len(vals)
    w = max(max(len(str(v)) for v in vals) * 9.0 + 8.0, 24.0)
    if lay == "circle":
        return lay, n * (REV_R + 1.0), REV_R
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
        f' transform="translate({fmt_point(c)})">'
    )
    parts = [head]
    if lay == "single":
        txt = str(vals[0])
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
            parts.append(text_element(x, 0.0, str(v), fs, cls="revenue-value", bold=True))
    elif lay == "oval":
        parts.append(
            f'<ellipse rx="{fmt(hw)}" ry="{fmt(hh)}" fill="{WHITE}" stroke="#000"'
            ' stroke-width="1.5"/>'
        )
        step = (2 * hw - 16.0) / n
        for k, (_, v) in enumerate(phases):
            x = -hw + 8.0 + step * (k + 0.5)
            parts.append(text_element(x, 0.0, str(v), fs, cls="revenue-value", bold=True))
            if k:
                xs = fmt(-hw + 8.0 + step * k)
                parts.append(
                    f'<line x1="{xs}" y1="-9" x2="{xs}" y2="9" stroke="#000" stroke-width="1"/>'
                )
    elif lay == "vertical":
        bh = 2 * hh / n
        for k, (ph, v) in enumerate(phases):
            y = -hh + bh * k
            parts.append(
                f'<rect x="{fmt(-hw)}" y="{fmt(y)}" width="{fmt(2 * hw)}" height="{fmt(bh)}"'
                f' fill="{phase_color(ph, k)}" stroke="#000" stroke-width="1.5"/>'
            )
            parts.append(text_element(0.0, y + bh / 2, str(v), fs, cls="revenue-value", bold=True))
    else:
        gap = 3.0 if lay == "horizontal" else 0.0
        bw = (2 * hw - gap * (n - 1)) / n
        for k, (ph, v) in enumerate(phases):
            x = -hw + (bw + gap) * k
            parts.append(
                f'<rect x="{fmt(x)}" y="{fmt(-hh)}" width="{fmt(bw)}" height="{fmt(2 * hh)}"'
                f' fill="{phase_color(ph, k)}" stroke="#000" stroke-width="'
                + ("1.5" if gap else "0.75")
                + '"/>'
            )
            parts.append(text_element(x + bw / 2, 0.0, str(v), fs, cls="revenue-value", bold=True))
        if not gap:
            parts.append(
                f'<rect x="{fmt(-hw)}" y="{fmt(-hh)}" width="{fmt(2 * hw)}" height="{fmt(2 * hh)}"'
                ' fill="none" stroke="#000" stroke-width="1.5"/>'
            )
    parts.append("</g>")
    return "".join(parts)


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
    for edge in tile.stubs:  # a stub: a short track from the edge towards the centre
        start = scaled(edge_midpoint(edge, layout))
        stop = mul(start, 0.55)
        out.append(
            f'<path class="track stub" data-edge="{edge}"'
            f' d="M {fmt_point(start)} L {fmt_point(stop)}" stroke="#000" stroke-width="8"/>'
        )
    out.append("</g>")
    draw_nodes(tile, nodes, out)
    placer = Placer(
        layout, samples, [(nodes[i].pos, nodes[i].extent) for i in range(len(tile.nodes))]
    )
    number = tile.name if show_number and tile.name else None
    spot = (36.0, 66.0)
    if number:  # the lower right, unless track runs there
        hw = text_width(number, 12.0) / 2
        spot = placer.place(spot, hw, 7.0, [spot, (-36.0, 66.0), (0.0, 70.0)], weight=1.0)
    _draw_marks(tile, layout, nodes, placer, name, out)
    if number:
        out.append(text_element(spot[0], spot[1], number, 12.0, cls="tile-number"))
    for b in tile.borders:
        out.append(_border(b.edge, b.type, b.cost, fill, layout))
    out.append(
        f'<polygon class="hex-outline" points="{hex_points(layout)}" fill="none"'
        ' stroke="#000" stroke-width="1.2"/>'
    )
    return "".join(out)


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
            c = scaled(loc_point(node.revenue_loc, layout))
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
        hw, hh = text_width(lab.text, fs, True) / 2, fs * 0.42
        if lab.loc is not None:
            c = scaled(loc_point(lab.loc, layout))
            placer.take(c[0], c[1], hw, hh)
        else:
            c = placer.place((-55.0, -10.0), hw, hh, weight=0.2)
        out.append(text_element(c[0], c[1], lab.text, fs, cls="label", bold=True))
    # terrain upgrades
    for up in tile.upgrades:
        cost = str(up.cost) if up.cost else ""
        n = len(up.terrains)
        tw = text_width(cost, 15.0, True)
        hw = (n * 24.0 + tw + (4.0 if n and cost else 0.0)) / 2 + 2.0
        hh = 12.0
        if up.loc is not None:
            c = scaled(loc_point(up.loc, layout))
            placer.take(c[0], c[1], hw, hh)
        else:
            c = placer.place((30.0, -45.0), hw, hh, weight=0.1)
        parts = [
            f'<g class="upgrade" data-cost="{up.cost}" data-terrain="{esc("|".join(up.terrains))}"'
            f' transform="translate({fmt_point(c)})">'
        ]
        x = -hw + 2.0
        for t in up.terrains:
            parts.append(_terrain_symbol(t, x + 12.0))
            x += 24.0
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
        if icon.loc is not None:
            c = scaled(loc_point(icon.loc, layout))
            placer.take(c[0], c[1], 13.0, 13.0)
        else:
            c = placer.place((40.0, 30.0), 13.0, 13.0)
        letter = (icon.name or icon.image)[:2]
        out.append(
            f'<g class="icon" data-image="{esc(icon.image)}" transform="translate({fmt_point(c)})">'
            '<circle r="12" fill="#fff" stroke="#000" stroke-width="1.5"/>'
            + text_element(0.0, 0.0, letter, 10.0, cls="icon-text", bold=True)
            + "</g>"
        )
    # node names, then the location name
    for i, node in enumerate(tile.nodes):
        if node.name:
            g = nodes[i]
            hw, hh = text_width(node.name, 12.0) / 2 + 2.0, 8.0
            c = placer.place((g.pos[0], g.pos[1] + g.extent + 10.0), hw, hh, weight=0.3)
            out.append(_name_text(c, node.name, 12.0, "node-name"))
    loc_name = tile.location_name
    if loc_name is None and name and tile.stops:
        loc_name = name
    if loc_name:
        fs = 13.0 if len(loc_name) <= 14 else 11.0
        hw, hh = text_width(loc_name, fs) / 2 + 3.0, fs * 0.6
        stops = [nodes[i] for i, n in enumerate(tile.nodes) if n.is_stop]
        anchor = (0.0, 55.0)
        if len(stops) == 1:
            anchor = (stops[0].pos[0], stops[0].pos[1] + stops[0].extent + 12.0)
        extra = [(0.0, 58.0), (0.0, -58.0), (0.0, 70.0), (0.0, -70.0)]
        c = placer.place(anchor, hw, hh, extra, weight=0.15)
        out.append(_name_text(c, loc_name, fs, "location-name"))


def _name_text(c: Point, text: str, fs: float, cls: str) -> str:
    hw = text_width(text, fs) / 2 + 2.0
    return (
        f'<rect class="{cls}-bg" x="{fmt(c[0] - hw)}" y="{fmt(c[1] - fs * 0.6)}"'
        f' width="{fmt(2 * hw)}" height="{fmt(fs * 1.2)}" rx="3" fill="#fff" fill-opacity="0.6"/>'
        + text_element(c[0], c[1], text, fs, cls=cls)
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
    inset = mul(inward(edge, layout), 4.0)
    pa, pb = add(scaled(a), inset), add(scaled(b), inset)
    typ = btype.value if btype is not None else "join"
    if btype is None:
        return (
            f'<line class="border" data-edge="{edge}" data-type="join" x1="{fmt(scaled(a)[0])}"'
            f' y1="{fmt(scaled(a)[1])}" x2="{fmt(scaled(b)[0])}" y2="{fmt(scaled(b)[1])}"'
            f' stroke="{fill}" stroke-width="4"/>'
        )
    dash = ' stroke-dasharray="8 5"' if btype is BorderType.PROVINCE else ""
    out = (
        f'<line class="border" data-edge="{edge}" data-type="{typ}" x1="{fmt(pa[0])}"'
        f' y1="{fmt(pa[1])}" x2="{fmt(pb[0])}" y2="{fmt(pb[1])}"'
        f' stroke="{_BORDER_COLORS[btype]}" stroke-width="8"{dash}/>'
    )
    if cost:
        c = mul(scaled(edge_midpoint(edge, layout)), 0.78)
        out += (
            f'<g class="border-cost"><circle cx="{fmt(c[0])}" cy="{fmt(c[1])}" r="10" fill="#fff"'
            f' stroke="{_BORDER_COLORS[btype]}" stroke-width="2"/>'
            + text_element(c[0], c[1], str(cost), 10.0, cls="cost", bold=True)
            + "</g>"
        )
    return out


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

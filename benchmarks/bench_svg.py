"""Benchmark: drawing tiles and maps as SVG (tilelay.svg).

Measures, best of a few runs on this machine:

* ``tilelay.svg`` drawing all generic tiles (cold: every cache and memo of the module cleared
  before every run — fragments, curve samples and path data, shared track geometry and
  placements, number formatting — so each run computes everything once; and warm: the fragment
  cache filled). Drawings sharing track within one run still share its geometry;
* the peer, measured in the same run: **a minimal ElementTree renderer** written here that draws
  the same shapes the usual way — hex polygon, track (lines and arcs from ``tilelay.hexgeo``),
  city slot circles, town bars, revenue and label text — by building an
  ``xml.etree.ElementTree`` tree and serialising it. It does less than tilelay (no placement
  search, no lanes, gaps, terminals or terrain), so the ratio flatters the peer;
* **ElementTree serialisation only**: the exact elements tilelay draws (parsed once, untimed)
  rebuilt as an ElementTree tree and serialised — the cost of the tree approach alone;
* each built-in map drawn whole (ms per map, cold).

Run: ``.venv/bin/python benchmarks/bench_svg.py``
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _table import best_of, print_table

from tilelay import svg
from tilelay.catalogue import tiles
from tilelay.hexgeo import Layout, corner, edge_midpoint
from tilelay.tile import Edge, NodeKind, Tile

NS = "http://www.w3.org/2000/svg"


def clear_caches() -> None:
    svg.clear_caches()


def draw_tilelay(all_tiles: list[Tile]) -> int:
    clear_caches()
    return sum(len(svg.tile_svg(t)) for t in all_tiles)


def draw_tilelay_warm(all_tiles: list[Tile]) -> int:
    return sum(len(svg.tile_svg(t)) for t in all_tiles)


def _p(x: float) -> str:
    return f"{x * 100:.2f}"


def peer_tile(tile: Tile, layout: Layout = Layout.FLAT) -> str:
    """A minimal ElementTree renderer of the same main shapes."""
    root = ET.Element("svg", {"xmlns": NS, "width": "200", "height": "174"})
    g = ET.SubElement(root, "g", {"class": "tile", "data-tile": tile.name})
    pts = " ".join(f"{_p(x)},{_p(y)}" for x, y in (corner(i, layout) for i in range(6)))
    fill = svg.COLORS.get(tile.color.value, "#eaf0f4")
    ET.SubElement(g, "polygon", {"points": pts, "fill": fill, "stroke": "#000"})
    for path in tile.paths:
        ends = []
        for e in path.ends:
            ends.append(edge_midpoint(e.num, layout) if isinstance(e, Edge) else (0.0, 0.0))
        (x0, y0), (x1, y1) = ends
        d = f"M{_p(x0)},{_p(y0)}L{_p(x1)},{_p(y1)}"
        if isinstance(path.a, Edge) and isinstance(path.b, Edge):
            diff = (path.a.num - path.b.num) % 6
            if diff in (1, 5, 2, 4):
                r = 0.5 if diff in (1, 5) else 1.5
                sweep = 1 if diff in (1, 2) else 0
                d = f"M{_p(x0)},{_p(y0)}A{_p(r)},{_p(r)} 0 0 {sweep} {_p(x1)},{_p(y1)}"
        ET.SubElement(
            g,
            "path",
            {"class": "track", "d": d, "stroke": "#000", "stroke-width": "8", "fill": "none"},
        )
    for i, node in enumerate(tile.nodes):
        if node.kind is NodeKind.CITY:
            cg = ET.SubElement(g, "g", {"class": "city", "data-slots": str(node.slots)})
            n = max(node.slots, 1)
            for k in range(n):
                cx = (k - (n - 1) / 2) * 50
                ET.SubElement(
                    cg,
                    "circle",
                    {
                        "class": "slot",
                        "cx": f"{cx:.2f}",
                        "r": "25",
                        "fill": "#fff",
                        "stroke": "#000",
                    },
                )
        elif node.kind is NodeKind.TOWN:
            ET.SubElement(
                g, "rect", {"class": "town", "x": "-18", "y": "-5.5", "width": "36", "height": "11"}
            )
        if node.revenue is not None and node.revenue.value:
            rg = ET.SubElement(g, "g", {"class": "revenue", "transform": "translate(-50,-30)"})
            ET.SubElement(rg, "circle", {"r": "15", "fill": "#fff", "stroke": "#000"})
            t = ET.SubElement(rg, "text", {"font-size": "17", "text-anchor": "middle"})
            t.text = str(node.revenue.value)
        del i
    for lab in tile.labels:
        t = ET.SubElement(g, "text", {"class": "label", "x": "-55", "y": "-10", "font-size": "30"})
        t.text = lab.text
    return ET.tostring(root, encoding="unicode")


def draw_peer(all_tiles: list[Tile]) -> int:
    return sum(len(peer_tile(t)) for t in all_tiles)


Spec = tuple[str, dict[str, str], str | None, list["Spec"]]


def to_spec(el: ET.Element) -> Spec:
    tag = el.tag.split("}", 1)[-1]
    return (tag, dict(el.attrib), el.text, [to_spec(c) for c in el])


def build(spec: Spec, parent: ET.Element | None = None) -> ET.Element:
    tag, attrib, text, children = spec
    el = ET.Element(tag, attrib) if parent is None else ET.SubElement(parent, tag, attrib)
    el.text = text
    for c in children:
        build(c, el)
    return el


def serialise_peer(specs: list[Spec]) -> int:
    return sum(len(ET.tostring(build(s), encoding="unicode")) for s in specs)


def main() -> None:
    all_tiles = list(tiles())
    n = len(all_tiles)
    specs = [to_spec(ET.fromstring(svg.tile_svg(t))) for t in all_tiles]
    t_cold = best_of(lambda: draw_tilelay(all_tiles), 3)
    t_warm = best_of(lambda: draw_tilelay_warm(all_tiles), 3)
    t_peer = best_of(lambda: draw_peer(all_tiles), 3)
    t_ser = best_of(lambda: serialise_peer(specs), 3)
    rows = [
        ("peer: minimal ElementTree renderer", t_peer, f"{n / t_peer:,.0f} tiles/s (fewer shapes)"),
        ("tilelay.svg tile_svg, cold", t_cold, f"{n / t_cold:,.0f} tiles/s"),
        ("tilelay.svg tile_svg, warm cache", t_warm, f"{n / t_warm:,.0f} tiles/s"),
        ("ElementTree: serialise tilelay's elements", t_ser, f"{n / t_ser:,.0f} tiles/s"),
    ]
    print_table(
        f"Drawing all {n} generic tiles (flat, size 100)",
        rows,
        peer="peer: minimal ElementTree renderer",
    )
    print()
    try:
        from tilelay.games import game_names, load_game
    except ImportError:  # pragma: no cover - games not installed
        return
    map_rows = []
    for name in game_names():
        game = load_game(name)

        def draw(game: object = game) -> None:
            clear_caches()
            svg.map_svg(game, size=50)

        t = best_of(draw, 3)
        map_rows.append((f"map_svg {name} ({len(game.hexes)} hexes)", t, "cold caches"))
    print_table("Drawing each built-in map (size 50)", map_rows)
    print()
    print("(vs peer = peer time / row time: above 1 means faster than the peer)")


if __name__ == "__main__":
    main()

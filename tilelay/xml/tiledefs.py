"""Seed 000's Tile Definitions XML: read and write.

A file holds ``<Tile number type>`` elements under one root element of any name (written as
``<Tiles>``), or a single ``<Tile>`` as its root. Each tile has ``<TileName location name>``,
``<Track enter exit gauge>`` in drawing order and ``<RevenueCenter id location name number
type>`` elements with their ``<Revenue location phase value layout>`` lists.

How the file maps to the tile model (:mod:`tilelay.tile`):

* Sides ``0``-``5`` become edges through :func:`tilelay.hexgeo.xml_side_to_edge` (flat: side 0
  at the top is edge 3).
* A RevenueCenter becomes a node: ``Single/Double/Triple/Quad City``, ``Four Cities``,
  ``Destination City`` and ``Private Railway`` are cities (``number`` = slots), ``Small Town``
  and ``Dot Town`` towns (the latter drawn as a dot), ``Dead-End Only City`` an offboard.
  Attributes the model does not interpret (a RevenueCenter ``id`` other than ``-1``, a type
  name that differs from the one the node's kind and slots give, a missing ``number`` or
  ``name``, a tile's ``fixed``) are kept in ``extra`` so that files round-trip.
* Locations: near-corner locations 12-17 are the tile language's corner locs (the same point),
  50 is ``center``, the others stay seed-000 locations (``Loc("location", n)``). A node or
  revenue placed where :func:`default_location` / :func:`default_revenue_location` would put it
  reads as ``None`` (the default), so tiles written from the tile language read back equal.
* Track to a location holding a RevenueCenter ends at that node. Track to the dead end (``99``,
  or ``90``-``95`` = the dead end beyond side 0-5, as the engine's own files write it) ends at
  the ``Dead-End Only City``, or, when the tile has none, at a junction at location 99. Track
  to the centre (50) with no RevenueCenter there ends at a junction (tiles 544-546, 106-108).
  Track to any other location without a RevenueCenter is an error.
* Gauges: ``NORMAL`` broad, ``METER`` narrow, ``DUAL``, ``TUNNEL``, ``FERRY``. ``OVERPASS`` is a
  drawing directive: the next track with the same ends is drawn over the ones before it
  (``Path.over``). ``METER_BASE``/``FERRY_BASE`` (also spelt with a space) draw the white under
  a dashed METER/FERRY track; they are implied by the track and written before each one.
* Revenues: one revenue in phase 0 is a plain value; otherwise each ``phase`` (a number) is a
  key of :attr:`Revenue.phases`. A revenue at location ``-1`` is not drawn (``Node.hide``).
* TileName becomes a label at its location.

What the writer normalises (the data read back is equal, the bytes may differ): gauges are
spelt with ``_``; dead-end track is written ``90 + side``; OVERPASS directives are written
immediately before the track they cover; RevenueCenters come after all tracks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path as FilePath
from xml.sax.saxutils import quoteattr

from lxml import etree

from tilelay import limits
from tilelay.errors import TileModelError, XMLFormatError
from tilelay.hexgeo import Layout, Loc, edge_to_xml_side, is_location, xml_side_to_edge
from tilelay.tile import (
    Color,
    Edge,
    End,
    Label,
    Node,
    NodeKind,
    NodeRef,
    Path,
    Revenue,
    Tile,
    TownStyle,
    Track,
    check_limits,
)
from tilelay.xml.safe import element_line, parse_xml, whole_attribute

__all__ = [
    "GAUGES",
    "LAYOUTS",
    "default_location",
    "default_revenue_location",
    "loc_to_location",
    "node_location",
    "read_tiledefs",
    "tile_from_element",
    "unexpressible",
    "write_tiledefs",
]

#: Gauge names of seed 000 that are track, and the model's gauge for each.
GAUGES: dict[str, Track] = {
    "NORMAL": Track.BROAD,
    "METER": Track.NARROW,
    "DUAL": Track.DUAL,
    "TUNNEL": Track.TUNNEL,
    "FERRY": Track.FERRY,
}
_GAUGE_NAMES: dict[Track, str] = {v: k for k, v in GAUGES.items()}
_BASES = {"METER_BASE": "METER", "FERRY_BASE": "FERRY"}
_ALL_GAUGES = (*GAUGES, "OVERPASS", *_BASES)

#: Revenue layouts of seed 000.
LAYOUTS: tuple[str, ...] = ("circle", "oval", "horizontal", "vertical", "split")

_CITY_TYPES: dict[str, int] = {
    "Single City": 1,
    "Double City": 2,
    "Triple City": 3,
    "Quad City": 4,
    "Four Cities": 4,
    "Destination City": 0,
    "Private Railway": 0,
}
_TOWN_TYPES = ("Small Town", "Dot Town")
_OFFBOARD_TYPE = "Dead-End Only City"
_RC_TYPES = (*_CITY_TYPES, *_TOWN_TYPES, _OFFBOARD_TYPE)

_TILE_TYPES: dict[str, tuple[Color, Color | None]] = {
    "Yellow": (Color.YELLOW, None),
    "Green": (Color.GREEN, None),
    "Brown": (Color.BROWN, None),
    "Grey": (Color.GRAY, None),
    "Red Off Board": (Color.RED, None),
    "Ocean Ferry": (Color.BLUE, None),
}
_COLOR_TYPES: dict[Color, str] = {c: t for t, (c, _) in _TILE_TYPES.items()}

CENTER_LOCATION = 50
DEAD_END = 99
_DEAD_END_SIDES = range(90, 96)


# ------------------------------------------------------------------ locations


def _location_to_loc(n: int, layout: Layout) -> Loc:
    """The model loc of seed-000 location ``n`` (exact: corners for 12-17, centre for 50)."""
    if n == CENTER_LOCATION:
        return Loc("center")
    if 12 <= n <= 17:
        e1 = xml_side_to_edge((n - 13) % 6, layout)
        return Loc("corner", e1 + 0.5)
    return Loc("location", n)


def loc_to_location(loc: Loc, layout: Layout) -> int:
    """The seed-000 location of a model loc (edge locs go to the near-side ring 6-11)."""
    if loc.kind == "center":
        return CENTER_LOCATION
    if loc.kind == "edge":
        return 6 + edge_to_xml_side(int(loc.value), layout)
    if loc.kind == "corner":
        return 12 + (edge_to_xml_side(int(loc.value), layout) + 1) % 6
    return int(loc.value)


def _sides_of(tile: Tile, index: int, layout: Layout) -> list[int]:
    return sorted(edge_to_xml_side(e, layout) for e in tile.node_exits(index))


def default_location(tile: Tile, index: int, layout: Layout = Layout.FLAT) -> int:
    """Where a node with no loc is written: the place a reader then reads back as "no loc".

    An offboard is at the dead end (99) and a junction at the centre (50). A lone node is at
    the centre. Among several nodes, one with a single exit sits near that side (6-11), one
    between two neighbouring sides near their corner (12-17), one between sides two apart near
    the side between them (6-11), one on a straight on the far-side ring (18-23), any other at
    the centre. The writer moves a node whose default place is taken to the first free
    location (it then reads back with that location).
    """
    node = tile.nodes[index]
    if node.kind is NodeKind.OFFBOARD:
        return DEAD_END
    if node.kind is NodeKind.JUNCTION:
        return CENTER_LOCATION
    stops = sum(1 for n in tile.nodes if n.kind is not NodeKind.JUNCTION)
    if stops <= 1:
        return CENTER_LOCATION
    sides = _sides_of(tile, index, layout)
    if len(sides) == 1:
        return 6 + sides[0]
    if len(sides) == 2:
        a, b = sides
        if (b - a) % 6 == 1:
            return 12 + b
        if (a - b) % 6 == 1:
            return 12 + a
        if (b - a) % 6 == 2:
            return 6 + (a + 1) % 6
        if (a - b) % 6 == 2:
            return 6 + (b + 1) % 6
        return 18 + a
    return CENTER_LOCATION


def node_location(tile: Tile, index: int | None, layout: Layout = Layout.FLAT) -> int | None:
    """The seed-000 location of node ``index``: its loc's, else where seed 000 would put it
    (``None`` for no node)."""
    if index is None or not 0 <= index < len(tile.nodes):
        return None
    loc = tile.nodes[index].loc
    if loc is None:
        return default_location(tile, index, layout)
    return loc_to_location(loc, layout)


def default_revenue_location(tile: Tile, index: int, node_location: int, layout: Layout) -> int:
    """Where a node's revenue is written when the node gives no revenue loc.

    An offboard's or an off-centre node's revenue goes to the centre (50); a centre node's to
    the first near-corner location (12-17) whose two sides carry no track, else 12.
    """
    node = tile.nodes[index]
    if node.kind is NodeKind.OFFBOARD or node_location != CENTER_LOCATION:
        return CENTER_LOCATION
    used = {edge_to_xml_side(e, layout) for e in tile.exits()}
    for k in range(6):
        if k not in used and (k - 1) % 6 not in used:
            return 12 + k
    return 12


# -------------------------------------------------------------------- reading


def _err(message: str, source: str | None, el: etree._Element | None) -> XMLFormatError:
    return XMLFormatError(message, source=source, line=None if el is None else element_line(el))


#: The highest phase number of a revenue.
MAX_PHASE = 999


def _int(
    el: etree._Element,
    attr: str,
    source: str | None,
    what: str,
    tile: str,
    low: int = -limits.MAX_AMOUNT,
    high: int = limits.MAX_AMOUNT,
) -> int:
    return whole_attribute(el, attr, low, high, source=source, about=f"tile {tile}: ", what=what)


def _phase_number(phase: str) -> int | None:
    """The number of a phase named in seed 000's way (``"0"``, ``"3"``), else ``None``."""
    number = limits.whole(phase, 0, MAX_PHASE)
    return number if number is not None and str(number) == phase else None


def _check_location(n: int, el: etree._Element, source: str | None, tile: str) -> None:
    if not is_location(n):
        raise _err(
            f"tile {tile}: <{el.tag}> location {n} out of range: expected 0-45, 50 or 99",
            source,
            el,
        )


def _canonical_rc_type(node: Node) -> str:
    if node.kind is NodeKind.CITY:
        return {1: "Single City", 2: "Double City", 3: "Triple City", 4: "Quad City"}.get(
            node.slots, "Single City"
        )
    if node.kind is NodeKind.TOWN:
        return "Dot Town" if node.style is TownStyle.DOT else "Small Town"
    return _OFFBOARD_TYPE


def _canonical_number(node: Node) -> str | None:
    if node.kind is NodeKind.CITY:
        return str(node.slots)
    if node.kind is NodeKind.OFFBOARD:
        return "0"
    return None


@dataclass(slots=True)
class _RC:
    el: etree._Element
    location: int
    node: Node
    rev_location: int | None  # None: no revenues; -1: hidden


def _read_rc(el: etree._Element, source: str | None, tile: str, layout: Layout) -> _RC:
    location = _int(el, "location", source, "where the revenue centre is", tile)
    _check_location(location, el, source, tile)
    rtype = (el.get("type") or "").strip()
    if rtype not in _RC_TYPES:
        raise _err(
            f"tile {tile}: unknown RevenueCenter type {rtype!r}: expected one of "
            + ", ".join(_RC_TYPES),
            source,
            el,
        )
    number_raw = el.get("number")
    number: int | None = None
    if number_raw is not None:
        number = limits.whole(number_raw, 0, limits.MAX_SLOTS)
        if number is None:
            raise _err(
                f"tile {tile}: RevenueCenter number={limits.shown(number_raw)} must be a whole "
                f"number from 0 to {limits.MAX_SLOTS} (token slots)",
                source,
                el,
            )
    style: TownStyle | None = None
    slots = 0
    if rtype in _CITY_TYPES:
        kind = NodeKind.CITY
        slots = number if number is not None else _CITY_TYPES[rtype]
    elif rtype in _TOWN_TYPES:
        kind = NodeKind.TOWN
        style = TownStyle.DOT if rtype == "Dot Town" else None
    else:
        kind = NodeKind.OFFBOARD
    name_raw = el.get("name")
    # revenues
    phases: list[tuple[str, int]] = []
    locations: set[int] = set()
    layouts: set[str | None] = set()
    for rev in el:
        if not isinstance(rev.tag, str):
            continue
        if rev.tag != "Revenue":
            raise _err(
                f"tile {tile}: unknown element <{rev.tag}> in a RevenueCenter: expected <Revenue>",
                source,
                rev,
            )
        phase = _int(rev, "phase", source, "the phase it starts in", tile, 0, MAX_PHASE)
        value = _int(rev, "value", source, "the revenue", tile)
        rloc = _int(rev, "location", source, "where the value is drawn", tile)
        if rloc != -1:
            _check_location(rloc, rev, source, tile)
        layout_attr = rev.get("layout")
        if layout_attr is not None and layout_attr not in LAYOUTS:
            raise _err(
                f"tile {tile}: unknown revenue layout {layout_attr!r}: expected one of "
                + ", ".join(LAYOUTS),
                source,
                rev,
            )
        phases.append((str(phase), value))
        locations.add(rloc)
        layouts.add(layout_attr)
    if len(locations) > 1 or len(layouts) > 1:
        raise _err(
            f"tile {tile}: the revenues of one RevenueCenter are drawn at different locations "
            "or with different layouts, which tilelay cannot hold",
            source,
            el,
        )
    revenue: Revenue | None
    if not phases:
        revenue = None
    elif len(phases) == 1 and phases[0][0] == "0":
        revenue = Revenue(phases[0][1])
    else:
        revenue = Revenue(0, tuple(phases))
    rev_location = next(iter(locations)) if locations else None
    extra: list[tuple[str, str]] = []
    rc_id = el.get("id")
    if rc_id is not None and rc_id != "-1":
        extra.append(("id", rc_id))
    node = Node(
        kind,
        revenue,
        slots,
        style,
        hide=rev_location == -1,
        name=name_raw or None,
        revenue_layout=next(iter(layouts)) if layouts else None,
    )
    if rtype != _canonical_rc_type(node):
        extra.append(("type", rtype))
    omit = [a for a in ("id", "name") if el.get(a) is None]
    canonical_number = _canonical_number(node)
    if number_raw is None and canonical_number is not None:
        omit.append("number")
    elif number_raw is not None and number_raw != canonical_number:
        extra.append(("number", number_raw))
    if omit:
        extra.append(("omit", ",".join(omit)))
    if extra:
        node = Node(
            node.kind,
            node.revenue,
            node.slots,
            node.style,
            hide=node.hide,
            name=node.name,
            revenue_layout=node.revenue_layout,
            extra=tuple(extra),
        )
    return _RC(el, location, node, rev_location)


def _tile_type(el: etree._Element, source: str | None, tile: str) -> tuple[Color, Color | None]:
    raw = (el.get("type") or "").strip()
    if raw in _TILE_TYPES:
        return _TILE_TYPES[raw]
    if raw == "Gray":
        return Color.GRAY, None
    try:
        if "-" in raw:
            first, _, second = raw.partition("-")
            c1, _ = Color.parse(first)
            c2, _ = Color.parse(second)
            return c1, c2
        return Color.parse(raw)
    except ValueError:
        raise _err(
            f"tile {tile}: unknown tile type {raw!r}: expected one of "
            + ", ".join(_TILE_TYPES)
            + " or a colour",
            source,
            el,
        ) from None


def _type_name(color: Color, stripe: Color | None) -> str:
    if stripe is not None:
        return f"{color.value.title().replace('Gray', 'Grey')}-{stripe.value.title()}".replace(
            "Gray", "Grey"
        )
    return _COLOR_TYPES.get(color, color.value.title())


def tile_from_element(
    el: etree._Element, *, source: str | None = None, layout: Layout = Layout.FLAT
) -> Tile:
    """One ``<Tile>`` element as a tile. Raises :class:`XMLFormatError` naming file and line."""
    number = el.get("number")
    if number is None or not number.strip():
        raise _err("<Tile> has no 'number' attribute (the tile number)", source, el)
    name = number.strip()
    color, stripe = _tile_type(el, source, name)
    labels: list[Label] = []
    tracks: list[etree._Element] = []
    rcs: list[_RC] = []
    for child in el:
        if not isinstance(child.tag, str):
            continue
        if child.tag == "TileName":
            text = child.get("name")
            if text is None:
                raise _err(f"tile {name}: <TileName> has no 'name' attribute", source, child)
            loc: Loc | None = None
            if child.get("location") is not None:
                n = _int(child, "location", source, "where the name is drawn", name)
                _check_location(n, child, source, name)
                loc = _location_to_loc(n, layout)
            labels.append(Label(text, loc))
        elif child.tag == "Track":
            if len(tracks) >= 3 * limits.MAX_PATHS:
                raise _err(f"tile {name}: more than {3 * limits.MAX_PATHS} Tracks", source, child)
            tracks.append(child)
        elif child.tag == "RevenueCenter":
            if len(rcs) >= limits.MAX_NODES:
                raise _err(
                    f"tile {name}: more than {limits.MAX_NODES} RevenueCenters", source, child
                )
            rcs.append(_read_rc(child, source, name, layout))
        else:
            raise _err(
                f"tile {name}: unknown element <{child.tag}>: expected TileName, Track or "
                "RevenueCenter",
                source,
                child,
            )
    by_location: dict[int, int] = {}
    for i, rc in enumerate(rcs):
        if rc.location in by_location:
            raise _err(f"tile {name}: two RevenueCenters at location {rc.location}", source, rc.el)
        by_location[rc.location] = i
    nodes: list[Node] = [rc.node for rc in rcs]
    junctions: dict[int, int] = {}

    def end(n: int, tr: etree._Element) -> End:
        if 0 <= n <= 5:
            return Edge(xml_side_to_edge(n, layout))
        if n in by_location:
            return NodeRef(by_location[n])
        if n == DEAD_END or n in _DEAD_END_SIDES:
            if DEAD_END in by_location:
                return NodeRef(by_location[DEAD_END])
            key = DEAD_END
        elif n == CENTER_LOCATION:
            key = CENTER_LOCATION
        elif is_location(n):
            raise _err(
                f"tile {name}: track to location {n}, where there is no RevenueCenter (a track "
                "to a missing revenue centre)",
                source,
                tr,
            )
        else:
            raise _err(
                f"tile {name}: track location {n} out of range: expected 0-45, 50, 90-95 or 99",
                source,
                tr,
            )
        if key not in junctions:
            junctions[key] = len(nodes)
            nodes.append(
                Node(
                    NodeKind.JUNCTION,
                    loc=Loc("location", DEAD_END) if key == DEAD_END else None,
                )
            )
        return NodeRef(junctions[key])

    # tracks in order; OVERPASS marks the next track with the same ends
    paths: list[Path] = []
    overs: list[tuple[int, int, etree._Element]] = []
    pending_base: tuple[str, int, int, etree._Element] | None = None
    for tr in tracks:
        enter = _int(tr, "enter", source, "where the track starts", name)
        exit_ = _int(tr, "exit", source, "where the track ends", name)
        raw_gauge = (tr.get("gauge") or "NORMAL").strip().upper().replace(" ", "_")
        if raw_gauge not in _ALL_GAUGES:
            raise _err(
                f"tile {name}: unknown gauge {tr.get('gauge')!r}: expected one of "
                + ", ".join(_ALL_GAUGES),
                source,
                tr,
            )
        if enter == exit_:
            raise _err(f"tile {name}: track from {enter} to itself", source, tr)
        a, b = end(enter, tr), end(exit_, tr)
        if raw_gauge == "OVERPASS":
            overs.append((enter, exit_, tr))
            continue
        if raw_gauge in _BASES:
            if pending_base is not None:
                raise _err(
                    f"tile {name}: {pending_base[0]} is not followed by its "
                    f"{_BASES[pending_base[0]]} track",
                    source,
                    pending_base[3],
                )
            pending_base = (raw_gauge, enter, exit_, tr)
            continue
        if pending_base is not None:
            kind, be, bx, bel = pending_base
            if _BASES[kind] != raw_gauge or {be, bx} != {enter, exit_}:
                raise _err(
                    f"tile {name}: {kind} from {be} to {bx} is not followed by a "
                    f"{_BASES[kind]} track with the same ends",
                    source,
                    bel,
                )
            pending_base = None
        over = False
        for j, (oe, ox, _) in enumerate(overs):
            if {oe, ox} == {enter, exit_}:
                over = True
                del overs[j]
                break
        paths.append(Path(a, b, track=GAUGES[raw_gauge], over=over))
    if pending_base is not None:
        raise _err(
            f"tile {name}: {pending_base[0]} is not followed by its track", source, pending_base[3]
        )
    if overs:
        oe, ox, oel = overs[0]
        raise _err(
            f"tile {name}: OVERPASS from {oe} to {ox} is not followed by a track with the same "
            "ends",
            source,
            oel,
        )
    extra: list[tuple[str, str]] = []
    if el.get("fixed") is not None:
        extra.append(("fixed", el.get("fixed") or ""))
    raw_type = (el.get("type") or "").strip()
    if raw_type != _type_name(color, stripe):
        extra.append(("type", raw_type))
    tile = Tile(
        name=name,
        color=color,
        nodes=tuple(nodes),
        paths=tuple(paths),
        labels=tuple(labels),
        stripe=stripe,
        extra=tuple(extra),
    )
    # locations: elide the defaults so that they read as "no loc"
    final: list[Node] = []
    changed = False
    for i, rc in enumerate(rcs):
        node = rc.node
        at = None if rc.location == default_location(tile, i, layout) else rc.location
        rloc: int | None = None
        if rc.rev_location is not None and rc.rev_location != -1:
            dflt = default_revenue_location(tile, i, rc.location, layout)
            rloc = None if rc.rev_location == dflt else rc.rev_location
        if at is not None or rloc is not None:
            changed = True
            node = Node(
                node.kind,
                node.revenue,
                node.slots,
                node.style,
                node.groups,
                node.hide,
                None if at is None else _location_to_loc(at, layout),
                node.name,
                None if rloc is None else _location_to_loc(rloc, layout),
                node.revenue_layout,
                node.extra,
            )
        final.append(node)
    if changed:
        tile = Tile(
            name=name,
            color=color,
            nodes=(*final, *nodes[len(rcs) :]),
            paths=tuple(paths),
            labels=tuple(labels),
            stripe=stripe,
            extra=tuple(extra),
        )
    try:
        return check_limits(tile)
    except TileModelError as err:
        raise _err(err.message, source, el) from None


def read_tiledefs(
    data: bytes | str | FilePath,
    *,
    source: str | None = None,
    layout: Layout = Layout.FLAT,
) -> list[Tile]:
    """Read a Tile Definitions file (or bytes/text): every ``<Tile>`` under its root element,
    or the root itself when it is a ``<Tile>``."""
    if isinstance(data, FilePath):
        source = source or str(data)
    root = parse_xml(data, source=source)
    return tiles_from_root(root, source=source, layout=layout)


def tiles_from_root(
    root: etree._Element, *, source: str | None = None, layout: Layout = Layout.FLAT
) -> list[Tile]:
    """The tiles of a parsed Tile Definitions document."""
    if root.tag == "Tile":
        return [tile_from_element(root, source=source, layout=layout)]
    out: list[Tile] = []
    for child in root:
        if not isinstance(child.tag, str):
            continue
        if child.tag != "Tile":
            raise _err(
                f"unknown element <{child.tag}> in <{root.tag}>: expected <Tile>", source, child
            )
        out.append(tile_from_element(child, source=source, layout=layout))
    return out


# -------------------------------------------------------------------- writing


def _extra(pairs: Sequence[tuple[str, str]], key: str) -> str | None:
    for k, v in pairs:
        if k == key:
            return v
    return None


#: The node fields seed 000's format has no place for, and their defaults.
_NODE_FACTS = (
    "visit_cost",
    "route",
    "revenue_format",
    "revenue_rows",
    "boom",
    "to_city",
    "outline",
    "halt",
    "symbol",
    "mountain_pass",
    "pass_color",
    "pass_size",
)
_NODE_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Node) if f.name in _NODE_FACTS}


def unexpressible(tile: Tile, layout: Layout = Layout.FLAT) -> list[str]:
    """What seed 000's format cannot express about ``tile``, by name (left out when writing)."""
    out: list[str] = []
    if tile.rotation:
        out.append(f"rotation {tile.rotation} (the tile is written as it lies)")
    if tile.location_name:
        out.append(f"location name {tile.location_name!r}")
    if tile.color not in _COLOR_TYPES and tile.stripe is None:
        out.append(
            f"colour {tile.color.value!r} (written as type {_type_name(tile.color, None)!r})"
        )
    locations: dict[int, int] = {}
    for i, n in enumerate(tile.nodes):
        # the stop facts of the tile language that seed 000 has no place for
        for name in _NODE_FACTS:
            value = getattr(n, name)
            if value != _NODE_DEFAULTS[name]:
                out.append(f"node _{i}: {name} {value}")
        if n.groups:
            out.append(f"node _{i}: groups {'|'.join(n.groups)}")
        if n.style in (TownStyle.RECT, TownStyle.HIDDEN):
            out.append(f"node _{i}: town style {n.style.value!r}")
        if n.kind is not NodeKind.CITY and n.slots and _extra(n.extra, "number") is None:
            out.append(f"node _{i}: token slots on a {n.kind.value}")
        if n.kind is NodeKind.JUNCTION and n.revenue is not None and n.revenue.values() != (0,):
            out.append(f"node _{i}: revenue on a junction")
        if n.revenue is not None and n.revenue.phases:
            bad = [p for p, _ in n.revenue.phases if _phase_number(p) is None]
            if bad:
                out.append(
                    f"node _{i}: revenue phases named {', '.join(bad)} (seed 000 numbers phases; "
                    "written as 1, 2, 3, …)"
                )
        if (
            n.kind is NodeKind.JUNCTION
            and n.loc is not None
            and _location_of(tile, i, layout)
            not in (
                CENTER_LOCATION,
                DEAD_END,
            )
        ):
            out.append(f"node _{i}: a junction away from the centre")
        loc = _location_of(tile, i, layout)
        if n.loc is not None and loc == default_location(tile, i, layout):
            out.append(f"node _{i}: loc {n.loc} is the default place (reads back as no loc)")
        if n.loc is None and loc != default_location(tile, i, layout):
            out.append(f"node _{i}: placed by the renderer; written at location {loc}")
        if loc in locations:
            out.append(f"node _{i}: at location {loc} like node _{locations[loc]}")
        locations.setdefault(loc, i)
    for i, p in enumerate(tile.paths):
        if p.terminal:
            out.append(f"path {i}: terminal {p.terminal}")
        if p.ignore:
            out.append(f"path {i}: ignored by routes")
        if p.a_lane != (1, 0) or p.b_lane != (1, 0):
            out.append(f"path {i}: lanes")
        if _track_location(tile, p.a, p.b, layout) == _track_location(tile, p.b, p.a, layout):
            out.append(f"path {i}: both ends at the same place")
        if p.track not in _GAUGE_NAMES:
            out.append(f"path {i}: {p.track.value} track (written as NORMAL)")
    for what, items in (
        ("terrain upgrade", tile.upgrades),
        ("border", tile.borders),
        ("stub", tile.stubs),
        ("partition", tile.partitions),
    ):
        for item in items:
            out.append(f"{what} {item}")
    if tile.future_label is not None:
        out.append(f"future label {tile.future_label}")
    for icon in tile.icons:
        out.append(f"icon {icon.image!r}")
    if tile.frame is not None:
        out.append(f"frame {tile.frame.color}")
    return out


def _placements(tile: Tile, layout: Layout) -> tuple[int, ...]:
    out: list[int] = []
    explicit = {
        loc_to_location(n.loc, layout)
        for n in tile.nodes
        if n.loc is not None and n.kind is not NodeKind.JUNCTION
    }
    for i, n in enumerate(tile.nodes):
        if n.loc is not None:
            out.append(loc_to_location(n.loc, layout))
            continue
        at = default_location(tile, i, layout)
        if n.kind is not NodeKind.JUNCTION and (at in out or at in explicit):
            at = next((k for k in (*range(6, 46), 50) if k not in out and k not in explicit), at)
        out.append(at)
    return tuple(out)


def _location_of(tile: Tile, index: int, layout: Layout) -> int:
    return _placements(tile, layout)[index]


def _track_location(tile: Tile, end: End, other: End, layout: Layout) -> int:
    if isinstance(end, Edge):
        return edge_to_xml_side(end.num, layout)
    loc = _location_of(tile, end.index, layout)
    node = tile.nodes[end.index]
    dead = loc == DEAD_END and node.kind in (NodeKind.OFFBOARD, NodeKind.JUNCTION)
    if dead and isinstance(other, Edge):
        return 90 + edge_to_xml_side(other.num, layout)
    return loc


def _or(value: str | None, default: str) -> str:
    """``value`` when given (even empty: ``id=""`` reads back as itself), else ``default``."""
    return default if value is None else value


def _attrs(pairs: Iterable[tuple[str, str | None]]) -> str:
    return "".join(f" {k}={quoteattr(v)}" for k, v in pairs if v is not None)


def _write_tile(tile: Tile, layout: Layout, out: list[str]) -> None:
    ttype = _extra(tile.extra, "type") or _type_name(tile.color, tile.stripe)
    head = [("number", tile.name), ("type", ttype), ("fixed", _extra(tile.extra, "fixed"))]
    out.append(f"\t<Tile{_attrs(head)}")
    body: list[str] = []
    for lab in tile.labels:
        loc = None if lab.loc is None else str(loc_to_location(lab.loc, layout))
        body.append(f"\t\t<TileName{_attrs([('location', loc), ('name', lab.text)])}/>")
    for p in tile.paths:
        enter = str(_track_location(tile, p.a, p.b, layout))
        exit_ = str(_track_location(tile, p.b, p.a, layout))
        gauge = _GAUGE_NAMES.get(p.track, "NORMAL")  # (thin and future track: see unexpressible)
        if p.over:
            body.append(
                f"\t\t<Track{_attrs([('enter', enter), ('exit', exit_), ('gauge', 'OVERPASS')])}/>"
            )
        if gauge in ("METER", "FERRY"):
            base = [("enter", enter), ("exit", exit_), ("gauge", gauge + "_BASE")]
            body.append(f"\t\t<Track{_attrs(base)}/>")
        body.append(f"\t\t<Track{_attrs([('enter', enter), ('exit', exit_), ('gauge', gauge)])}/>")
    for i, n in enumerate(tile.nodes):
        if n.kind is NodeKind.JUNCTION:
            continue
        location = _location_of(tile, i, layout)
        omit = set((_extra(n.extra, "omit") or "").split(","))
        number = _extra(n.extra, "number") or _canonical_number(n)
        rc = [
            ("id", None if "id" in omit else _or(_extra(n.extra, "id"), "-1")),
            ("location", str(location)),
            ("name", None if "name" in omit else (n.name or "")),
            ("number", None if "number" in omit else number),
            ("type", _extra(n.extra, "type") or _canonical_rc_type(n)),
        ]
        revs: list[tuple[str, int]] = []
        if n.revenue is not None:
            if n.revenue.phases:
                numeric = all(_phase_number(p) is not None for p, _ in n.revenue.phases)
                revs = [
                    (p if numeric else str(k + 1), v) for k, (p, v) in enumerate(n.revenue.phases)
                ]
            else:
                revs = [("0", n.revenue.value)]
        if not revs:
            body.append(f"\t\t<RevenueCenter{_attrs(rc)}/>")
            continue
        body.append(f"\t\t<RevenueCenter{_attrs(rc)}>")
        if n.hide:
            rloc = -1
        elif n.revenue_loc is not None:
            rloc = loc_to_location(n.revenue_loc, layout)
        else:
            rloc = default_revenue_location(tile, i, location, layout)
        for phase, value in revs:
            body.append(
                "\t\t\t<Revenue"
                + _attrs(
                    [
                        ("location", str(rloc)),
                        ("phase", phase),
                        ("value", str(value)),
                        ("layout", n.revenue_layout),
                    ]
                )
                + "/>"
            )
        body.append("\t\t</RevenueCenter>")
    if body:
        out.append(out.pop() + ">")
        out.extend(body)
        out.append("\t</Tile>")
    else:
        out.append(out.pop() + "/>")


def write_tiledefs(tiles: Iterable[Tile], *, layout: Layout = Layout.FLAT) -> str:
    """A Tile Definitions document holding ``tiles`` under a ``<Tiles>`` root.

    The text is tidy (one element a line, tab indents) and stable: the same tiles give the
    same bytes. What the format cannot express (see :func:`unexpressible`) is left out.
    """
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<Tiles>"]
    for tile in tiles:
        _write_tile(tile, layout, out)
    out.append("</Tiles>")
    return "\n".join(out) + "\n"

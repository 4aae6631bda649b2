"""Rails' own XML dialect (read only): ``Tiles.xml`` tile drawings and ``TileSet.xml`` manifests.

``<Tile id name colour [label]>`` holds ``<Station id type position [slots] [value] [city]>``
and ``<Track from to gauge>``. How it maps to the tile model:

* Sides: Rails' ``sideN`` is tile-language edge ``(N + 3) % 6``. Found from tiles whose shape
  is known: Rails draws 7, 8, 9 and 57 from ``side3`` (the generic tiles from edge 0), and the
  mirror pair 26/27 fixes the direction (both count clockwise).
* Stations: ``City`` is a city (``slots``), ``Town`` a town, ``OffMapCity`` an offboard, or a
  city when it has token slots (an off-map city that takes tokens, 18Chesapeake's Pittsburgh);
  ``value`` is the revenue (``-1``, used on off-map cities whose value comes from the map,
  reads as no revenue), ``city`` the place name; the station's ``id`` is kept in the node's
  ``extra`` (Rails numbers a tile's stations by it: ``city2`` is station 2, whatever its
  place in the file).
* Positions are numbers ``DHR``: ``D`` a side (0-5), ``H`` 0 for the direction of that side or
  5 for half a step further (towards the corner after it), ``R`` the distance from the centre;
  ``0`` is the centre. Found from 54 (cities at ``352`` and ``552`` between the sides their
  track leaves by) and 59. They become edge locs (``H`` = 0) or corner locs (``H`` = 5); the
  distance is not kept. A lone station at the centre has no loc.
* ``colour`` ``white``/``yellow``/``green``/``brown``/``gray``/``red`` are the model's colours;
  ``fixed`` (a preprinted tile) reads as white with ``extra`` ``("colour", "fixed")``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path as FilePath

from lxml import etree

from tilelay import limits
from tilelay import tile as model
from tilelay.errors import TileModelError, XMLFormatError
from tilelay.hexgeo import Loc
from tilelay.xml.rails_options import OptionResolver
from tilelay.xml.safe import element_line, parse_xml

__all__ = [
    "RailsTileSetEntry",
    "RailsUpgrade",
    "rails_position_loc",
    "rails_side_to_edge",
    "read_rails_tiles",
    "read_rails_tileset",
    "tiles_from_root",
]

_STATION_KINDS = {
    "City": model.NodeKind.CITY,
    "Town": model.NodeKind.TOWN,
    "OffMapCity": model.NodeKind.OFFBOARD,
}
_GAUGES = {"normal": model.Track.BROAD, "narrow": model.Track.NARROW, "dual": model.Track.DUAL}


def rails_side_to_edge(side: int) -> int:
    """The tile-language edge of Rails' ``side<side>``."""
    return (side + 3) % 6


def rails_position_loc(position: int) -> Loc:
    """The model loc of a Rails station ``position`` (``0`` centre, ``DHR`` otherwise)."""
    if position == 0:
        return Loc("center")
    side, half = position // 100, (position // 10) % 10
    edge = rails_side_to_edge(side % 6)
    if half == 5:
        return Loc("corner", edge + 0.5)
    return Loc("edge", edge)


def _err(message: str, source: str | None, el: etree._Element) -> XMLFormatError:
    return XMLFormatError(message, source=source, line=element_line(el))


def _tile(el: etree._Element, source: str | None) -> model.Tile:
    tid = el.get("id")
    if tid is None:
        raise _err("<Tile> has no 'id' attribute", source, el)
    colour = (el.get("colour") or "white").strip().lower()
    extra: list[tuple[str, str]] = []
    if colour == "fixed":
        color = model.Color.WHITE
        extra.append(("colour", "fixed"))
    else:
        try:
            color, _ = model.Color.parse(colour)
        except ValueError as err:
            raise _err(f"tile {tid}: {err}", source, el) from None
    name = el.get("name")
    if name is not None:
        extra.append(("name", name))
    nodes: list[model.Node] = []
    station_ids: dict[str, int] = {}
    tracks: list[etree._Element] = []
    positions: list[int] = []
    for child in el:
        if not isinstance(child.tag, str):
            continue
        if child.tag == "Station":
            sid = child.get("id") or ""
            stype = child.get("type") or ""
            if stype not in _STATION_KINDS:
                raise _err(
                    f"tile {tid}: unknown station type {stype!r}: expected City, Town or "
                    "OffMapCity",
                    source,
                    child,
                )
            position = _number(child, "position", 0, 599, tid, sid, source)
            slots = _number(child, "slots", 0, limits.MAX_SLOTS, tid, sid, source)
            value = (
                None
                if child.get("value") is None
                else _number(child, "value", -1, limits.MAX_AMOUNT, tid, sid, source)
            )
            kind = _STATION_KINDS[stype]
            if kind is model.NodeKind.OFFBOARD and slots > 0:
                kind = model.NodeKind.CITY  # an off-map city that takes tokens
            revenue = None if value is None or value < 0 else model.Revenue(value)
            if revenue is None and kind is not model.NodeKind.OFFBOARD and value is None:
                revenue = model.Revenue(0)
            if sid in station_ids:
                # 18C2C's tile 590 names its second station city1 again while its track
                # uses city2: read the station under its ordinal id when that is free.
                ordinal = f"city{len(nodes) + 1}"
                if ordinal in station_ids:
                    raise _err(f"tile {tid}: station {sid!r} defined twice", source, child)
                extra.append(("repaired", f"station {len(nodes) + 1} {sid!r} read as {ordinal!r}"))
                sid = ordinal
            station_ids[sid] = len(nodes)
            positions.append(position)
            nodes.append(
                model.Node(
                    kind,
                    revenue,
                    slots if kind is model.NodeKind.CITY else 0,
                    name=child.get("city"),
                    extra=(("id", sid),),
                )
            )
        elif child.tag == "Track":
            tracks.append(child)
        else:
            raise _err(
                f"tile {tid}: unknown element <{child.tag}>: expected Station or Track",
                source,
                child,
            )
    if len(nodes) > 1 or any(positions):
        nodes = [
            n if p == 0 and len(nodes) == 1 else replace(n, loc=rails_position_loc(p))
            for n, p in zip(nodes, positions, strict=True)
        ]

    def end(text: str | None, tr: etree._Element) -> model.End:
        t = (text or "").strip()
        side = limits.whole(t[4:], 0, 5) if t.startswith("side") and t[4:].isdigit() else None
        if side is not None:
            return model.Edge(rails_side_to_edge(side))
        if t in station_ids:
            return model.NodeRef(station_ids[t])
        raise _err(
            f"tile {tid}: track to {t!r}, which is neither side0-side5 nor a station of the "
            "tile (a track to a missing station)",
            source,
            tr,
        )

    paths: list[model.Path] = []
    for tr in tracks:
        gauge = (tr.get("gauge") or "normal").strip().lower()
        if gauge not in _GAUGES:
            raise _err(
                f"tile {tid}: unknown gauge {gauge!r}: expected normal, narrow or dual", source, tr
            )
        a, b = end(tr.get("from"), tr), end(tr.get("to"), tr)
        if a == b:
            raise _err(f"tile {tid}: track from {tr.get('from')} to itself", source, tr)
        paths.append(model.Path(a, b, track=_GAUGES[gauge]))
    labels = (model.Label(el.get("label") or ""),) if el.get("label") else ()
    try:
        return model.check_limits(
            model.Tile(
                name=tid.strip(),
                color=color,
                nodes=tuple(nodes),
                paths=tuple(paths),
                labels=labels,
                extra=tuple(extra),
            )
        )
    except TileModelError as err:
        raise _err(err.message, source, el) from None


def _number(
    el: etree._Element, attr: str, low: int, high: int, tid: str, sid: str, source: str | None
) -> int:
    raw = el.get(attr)
    if raw is None or not raw.strip():
        return 0
    value = limits.whole(raw, low, high)
    if value is None:
        raise _err(
            f"tile {tid}: station {limits.shown(sid)}: {attr} must be a whole number from "
            f"{low} to {high:,}, not {limits.shown(raw)}",
            source,
            el,
        )
    return value


def tiles_from_root(root: etree._Element, *, source: str | None = None) -> list[model.Tile]:
    """The tiles of a parsed Rails ``Tiles.xml`` document (``<Tiles>`` or a lone ``<Tile>``).

    Any other root element, or an element other than ``<Tile>`` in ``<Tiles>``, is an
    :class:`~tilelay.errors.XMLFormatError`.
    """
    if root.tag == "Tile":
        return [_tile(root, source)]
    if root.tag != "Tiles":
        raise _err(
            f"the root element is <{limits.shown(str(root.tag))[1:-1]}>: a Rails tile file has "
            "<Tiles> (or a lone <Tile>)",
            source,
            root,
        )
    out: list[model.Tile] = []
    for t in root:
        if not isinstance(t.tag, str):
            continue
        if t.tag != "Tile":
            raise _err(f"unknown element <{t.tag}> in <Tiles>: expected <Tile>", source, t)
        out.append(_tile(t, source))
    return out


def read_rails_tiles(
    data: bytes | str | FilePath, *, source: str | None = None
) -> list[model.Tile]:
    """Read a Rails ``Tiles.xml`` (path, bytes or text) into tiles named by their ``id``."""
    if isinstance(data, FilePath):
        source = source or str(data)
    return tiles_from_root(parse_xml(data, source=source), source=source)


# -------------------------------------------------------------------- TileSet


@dataclass(frozen=True, slots=True)
class RailsUpgrade:
    """One ``<Upgrade>``: the tile ids it allows, and where/when it applies.

    ``hexes`` lists hex names the upgrade is limited to, ``except_hexes`` those it is not
    allowed on (Rails writes them with a leading ``-``), ``phases`` the phases it needs;
    ``condition`` the enclosing ``<IfOption name value>`` as ``(name, values)``, if any.
    """

    ids: tuple[str, ...]
    hexes: tuple[str, ...] = ()
    except_hexes: tuple[str, ...] = ()
    phases: tuple[str, ...] = ()
    condition: tuple[str, tuple[str, ...]] | None = None


@dataclass(frozen=True, slots=True)
class RailsTileSetEntry:
    """A tile of a Rails ``TileSet.xml``: how many there are and what it upgrades to.

    ``quantity`` is ``None`` when not given (preprinted tiles) and ``-1`` for unlimited.
    """

    id: str
    quantity: int | None
    upgrades: tuple[RailsUpgrade, ...] = ()


def _split(text: str | None) -> tuple[str, ...]:
    return tuple(x.strip() for x in (text or "").split(",") if x.strip())


def _upgrade(el: etree._Element, condition: tuple[str, tuple[str, ...]] | None) -> RailsUpgrade:
    hexes = _split(el.get("hex"))
    if hexes and hexes[0].startswith("-"):
        excluded = (hexes[0][1:], *hexes[1:])
        return RailsUpgrade(_split(el.get("id")), (), excluded, _split(el.get("phase")), condition)
    return RailsUpgrade(_split(el.get("id")), hexes, (), _split(el.get("phase")), condition)


def read_rails_tileset(
    data: bytes | str | FilePath,
    *,
    source: str | None = None,
    options: Mapping[str, str] | None = None,
) -> dict[str, RailsTileSetEntry]:
    """Read a Rails ``TileSet.xml``: tile id -> quantity and upgrade id lists.

    Without ``options``, every variant is read: tiles and upgrades inside ``<IfOption>`` carry
    the option as their ``condition``; a tile listed more than once (under different options)
    gathers every upgrade, and keeps the first quantity given; a quantity given only per option
    (``<IfOption><Attributes quantity>``) is the first option's. With ``options`` (the game's
    option settings, see :func:`tilelay.xml.rails_options.game_options`) only what applies to
    them is read, and no entry has a condition.
    """
    if isinstance(data, FilePath):
        source = source or str(data)
    root = parse_xml(data, source=source)
    if root.tag != "TileManager":
        raise _err(
            f"the root element is <{limits.shown(str(root.tag))[1:-1]}>: a Rails tile set has "
            "<TileManager>",
            source,
            root,
        )
    if options is not None:
        return _resolved_tileset(root, source, options)
    out: dict[str, RailsTileSetEntry] = {}

    def cond(el: etree._Element) -> tuple[str, tuple[str, ...]]:
        return (el.get("name") or "", _split(el.get("value")))

    def add_tile(el: etree._Element, outer: tuple[str, tuple[str, ...]] | None) -> None:
        tid = el.get("id")
        if tid is None:
            raise _err("<Tile> has no 'id' attribute", source, el)
        quantity = _quantity(tid, el.get("quantity"), source, el)
        ups: list[RailsUpgrade] = []
        for child in el:
            if not isinstance(child.tag, str):
                continue
            if child.tag == "Upgrade":
                ups.append(_upgrade(child, outer))
            elif child.tag == "IfOption":
                for g in child:
                    if isinstance(g.tag, str) and g.tag == "Upgrade":
                        ups.append(_upgrade(g, cond(child)))
                    elif isinstance(g.tag, str) and g.tag == "Attributes" and quantity is None:
                        quantity = _quantity(tid, g.get("quantity"), source, g)
        old = out.get(tid)
        if old is not None:
            out[tid] = RailsTileSetEntry(
                tid, old.quantity if old.quantity is not None else quantity, (*old.upgrades, *ups)
            )
        else:
            out[tid] = RailsTileSetEntry(tid, quantity, tuple(ups))

    for el in root:
        if not isinstance(el.tag, str):
            continue
        if el.tag == "Tile":
            add_tile(el, None)
        elif el.tag == "IfOption":
            for t in el:
                if isinstance(t.tag, str) and t.tag == "Tile":
                    add_tile(t, cond(el))
    return out


def _quantity(tid: str, text: str | None, source: str | None, el: etree._Element) -> int | None:
    """``quantity``: -1 (unlimited) or 0 to :data:`~tilelay.limits.MAX_COUNT`; ``None``
    when not given."""
    if text is None:
        return None
    value = limits.whole(text, -1, limits.MAX_COUNT)
    if value is None:
        raise _err(
            f"tile {limits.shown(tid)}: quantity {limits.shown(text)} must be -1 (unlimited) or "
            f"a whole number from 0 to {limits.MAX_COUNT:,}",
            source,
            el,
        )
    return value


def _resolved_tileset(
    root: etree._Element, source: str | None, options: Mapping[str, str]
) -> dict[str, RailsTileSetEntry]:
    resolver = OptionResolver(options, source)
    out: dict[str, RailsTileSetEntry] = {}
    for el in resolver.children(root):
        if el.tag != "Tile":
            continue
        attrs = resolver.attributes(el)
        tid = attrs.get("id")
        if tid is None:
            raise _err("<Tile> has no 'id' attribute", source, el)
        quantity = _quantity(tid, attrs.get("quantity"), source, el)
        ups = tuple(_upgrade(u, None) for u in resolver.children(el) if u.tag == "Upgrade")
        old = out.get(tid)
        if old is not None:
            out[tid] = RailsTileSetEntry(
                tid, old.quantity if old.quantity is not None else quantity, (*old.upgrades, *ups)
            )
        else:
            out[tid] = RailsTileSetEntry(tid, quantity, ups)
    return out

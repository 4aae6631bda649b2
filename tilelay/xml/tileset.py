"""Seed 000's per-game tile set (``<game>-TileSet.xml``): read and write.

The file lists the tiles a game uses, with quantities, grouped by colour, and for each tile the
tiles it upgrades to with the allowed rotations (the new tile's, with the old tile in
rotation 0)::

    <TileManifest game="1856" variant="Normal" direction="NS">
      <TileSet color="Yellow">
        <Tile number="8" quantity="13">
          <Upgrade toNumber="16" rotations="0,5" />
          <Upgrade toNumber="14" rotations="0" phases="5,6">
            <RevenueCenter from="50" to="50" />
          </Upgrade>

``<RevenueCenter from to [rotation]>`` maps an old city (by seed 000 location) onto the new
city its tokens move to; ``rotation`` limits the mapping to one rotation. ``<BaseTileName
value>`` and ``<BaseCityName value>`` restrict an upgrade to hexes with that label or name.
The root may also be a single ``<TileSet>`` (or any element) holding ``<Tile>`` elements.

:func:`read_tileset` and :func:`write_tileset` round-trip: writing is tidy (tabs, fixed
attribute order) and byte-stable; attributes tilelay does not know are kept. Checking a tile set
against the computed upgrades is :mod:`tilelay.xml.tileset_check`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from xml.sax.saxutils import quoteattr

from lxml import etree

from tilelay import limits
from tilelay.errors import XMLFormatError
from tilelay.files import write_text
from tilelay.hexgeo import Layout
from tilelay.tile import NodeKind, Tile
from tilelay.upgrades import (
    Upgrade,
)
from tilelay.xml.safe import element_line, parse_xml
from tilelay.xml.tiledefs import node_location

__all__ = [
    "CityMap",
    "TileManifest",
    "TileSetEntry",
    "TileSetGroup",
    "TileSetUpgrade",
    "apply_upgrades",
    "city_maps",
    "manifest_layout",
    "place_labels",
    "read_tileset",
    "tileset_to_xml",
    "write_tileset",
]

Extra = tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class CityMap:
    """``<RevenueCenter from to [rotation]>``: old city location → new city location."""

    from_loc: int
    to_loc: int
    rotation: int | None = None


@dataclass(frozen=True, slots=True)
class TileSetUpgrade:
    """``<Upgrade toNumber rotations …>``: one upgrade of a tile."""

    to: str
    rotations: tuple[int, ...]
    cities: tuple[CityMap, ...] = ()
    phases: tuple[str, ...] = ()
    base_tile_name: str | None = None
    base_city_name: str | None = None
    extra: Extra = ()
    line: int | None = None


@dataclass(frozen=True, slots=True)
class TileSetEntry:
    """``<Tile number quantity>``: a tile of the manifest and its upgrades."""

    number: str
    quantity: int
    upgrades: tuple[TileSetUpgrade, ...] = ()
    extra: Extra = ()
    line: int | None = None

    def upgrade(self, to: str) -> TileSetUpgrade | None:
        """The upgrade to tile ``to``, if listed."""
        return next((u for u in self.upgrades if u.to == to), None)


@dataclass(frozen=True, slots=True)
class TileSetGroup:
    """``<TileSet color>``: the tiles of one colour (``color`` ``None`` for a bare list)."""

    color: str | None
    tiles: tuple[TileSetEntry, ...]
    extra: Extra = ()


@dataclass(frozen=True, slots=True)
class TileManifest:
    """A whole tile set file."""

    groups: tuple[TileSetGroup, ...]
    root: str = "TileManifest"
    attributes: Extra = ()
    grouped: bool = True
    source: str | None = None

    @property
    def game(self) -> str | None:
        """The ``game`` attribute of the root, if any."""
        return dict(self.attributes).get("game")

    def entries(self) -> tuple[TileSetEntry, ...]:
        """Every tile entry, in file order."""
        return tuple(t for g in self.groups for t in g.tiles)

    def entry(self, number: str) -> TileSetEntry | None:
        """The entry of tile ``number``, if listed."""
        return next((t for t in self.entries() if t.number == number), None)

    def quantities(self) -> dict[str, int]:
        """Tile number → quantity."""
        return {t.number: t.quantity for t in self.entries()}


# ------------------------------------------------------------------------------- reading


def _err(msg: str, source: str | None, el: etree._Element) -> XMLFormatError:
    return XMLFormatError(msg, source=source, line=element_line(el))


def _int(el: etree._Element, name: str, source: str | None, low: int, high: int) -> int:
    text = el.get(name)
    if text is None:
        raise _err(f"<{el.tag}> needs attribute {name}", source, el)
    value = limits.whole(text, low, high)
    if value is None:
        raise _err(
            f"<{el.tag}> {name}={limits.shown(text)}: expected a whole number from {low} to "
            f"{high:,}",
            source,
            el,
        )
    return value


def _rotations(el: etree._Element, source: str | None) -> tuple[int, ...]:
    text = (el.get("rotations") or "").strip()
    if not text:
        return ()
    out: list[int] = []
    pieces = text.split(",")
    if len(pieces) > 6:
        raise _err(
            f"<Upgrade> rotations={limits.shown(text)}: {len(pieces)} rotations, at most 6",
            source,
            el,
        )
    for piece in pieces:
        r = limits.whole(piece, -99, 99)
        if r is None:
            raise _err(
                f"<Upgrade> rotations={limits.shown(text)}: expected numbers 0-5 separated by "
                "commas",
                source,
                el,
            )
        if not 0 <= r <= 5:
            raise _err(f"<Upgrade> rotation {r} out of range: expected 0-5", source, el)
        out.append(r)
    return tuple(out)


def _extra(el: etree._Element, known: Iterable[str]) -> Extra:
    skip = set(known)
    return tuple((str(k), str(v)) for k, v in el.attrib.items() if k not in skip)


def _tag(el: etree._Element) -> str:
    tag = el.tag
    return tag if isinstance(tag, str) else ""


def _read_upgrade(el: etree._Element, source: str | None) -> TileSetUpgrade:
    to = el.get("toNumber")
    if to is None or not to.strip():
        raise _err("<Upgrade> needs attribute toNumber", source, el)
    cities: list[CityMap] = []
    base_tile: str | None = None
    base_city: str | None = None
    for child in el:
        tag = _tag(child)
        if tag == "RevenueCenter":
            rot = child.get("rotation")
            cities.append(
                CityMap(
                    _int(child, "from", source, -1, 99),
                    _int(child, "to", source, -1, 99),
                    None if rot is None else _int(child, "rotation", source, 0, 5),
                )
            )
        elif tag == "BaseTileName":
            base_tile = child.get("value")
        elif tag == "BaseCityName":
            base_city = child.get("value")
        elif tag:
            raise _err(
                f"unexpected <{tag}> in <Upgrade>: expected RevenueCenter, BaseTileName or "
                "BaseCityName",
                source,
                child,
            )
    phases = tuple(p.strip() for p in (el.get("phases") or "").split(",") if p.strip())
    return TileSetUpgrade(
        to=to.strip(),
        rotations=_rotations(el, source),
        cities=tuple(cities),
        phases=phases,
        base_tile_name=base_tile,
        base_city_name=base_city,
        extra=_extra(el, ("toNumber", "rotations", "phases")),
        line=element_line(el),
    )


def _read_tile(el: etree._Element, source: str | None) -> TileSetEntry:
    number = el.get("number")
    if number is None or not number.strip():
        raise _err("<Tile> needs attribute number", source, el)
    quantity = (
        _int(el, "quantity", source, 0, limits.MAX_COUNT) if el.get("quantity") is not None else 1
    )
    ups: list[TileSetUpgrade] = []
    for child in el:
        tag = _tag(child)
        if tag == "Upgrade":
            ups.append(_read_upgrade(child, source))
        elif tag:
            raise _err(f"unexpected <{tag}> in <Tile>: expected Upgrade", source, child)
    return TileSetEntry(
        number=number.strip(),
        quantity=quantity,
        upgrades=tuple(ups),
        extra=_extra(el, ("number", "quantity")),
        line=element_line(el),
    )


def _read_tiles(el: etree._Element, source: str | None) -> tuple[TileSetEntry, ...]:
    out: list[TileSetEntry] = []
    for child in el:
        tag = _tag(child)
        if tag == "Tile":
            out.append(_read_tile(child, source))
        elif tag:
            raise _err(f"unexpected <{tag}> in <{_tag(el)}>: expected Tile", source, child)
    return tuple(out)


def read_tileset(data: Path | str | bytes, *, source: str | None = None) -> TileManifest:
    """Read a seed-000 tile set from a file path, or XML text/bytes."""
    if isinstance(data, Path):
        source = source or str(data)
    root = parse_xml(data, source=source)
    children = [c for c in root if _tag(c)]
    grouped = any(_tag(c) == "TileSet" for c in children)
    if grouped:
        groups: list[TileSetGroup] = []
        for child in children:
            if _tag(child) != "TileSet":
                raise _err(
                    f"unexpected <{_tag(child)}> in <{_tag(root)}>: expected TileSet",
                    source,
                    child,
                )
            groups.append(
                TileSetGroup(
                    color=child.get("color"),
                    tiles=_read_tiles(child, source),
                    extra=_extra(child, ("color",)),
                )
            )
        group_tuple = tuple(groups)
    else:
        group_tuple = (TileSetGroup(color=root.get("color"), tiles=_read_tiles(root, source)),)
    numbers: dict[str, int | None] = {}
    for g in group_tuple:
        for t in g.tiles:
            if t.number in numbers:
                raise XMLFormatError(
                    f"tile {t.number} is listed twice (first on line {numbers[t.number]})",
                    source=source,
                    line=t.line,
                )
            numbers[t.number] = t.line
    attrs = _extra(root, () if grouped else ("color",))
    return TileManifest(
        groups=group_tuple,
        root=_tag(root),
        attributes=attrs,
        grouped=grouped,
        source=source,
    )


# ------------------------------------------------------------------------------- writing


def _attrs(pairs: Iterable[tuple[str, str]]) -> str:
    return "".join(f" {k}={quoteattr(v)}" for k, v in pairs)


def _write_upgrade(u: TileSetUpgrade, indent: str) -> list[str]:
    pairs: list[tuple[str, str]] = [
        ("toNumber", u.to),
        ("rotations", ",".join(str(r) for r in u.rotations)),
    ]
    if u.phases:
        pairs.append(("phases", ",".join(u.phases)))
    pairs.extend(u.extra)
    inner: list[str] = []
    if u.base_tile_name is not None:
        inner.append(f"{indent}\t<BaseTileName{_attrs([('value', u.base_tile_name)])} />")
    if u.base_city_name is not None:
        inner.append(f"{indent}\t<BaseCityName{_attrs([('value', u.base_city_name)])} />")
    for c in u.cities:
        cp = [("from", str(c.from_loc)), ("to", str(c.to_loc))]
        if c.rotation is not None:
            cp.append(("rotation", str(c.rotation)))
        inner.append(f"{indent}\t<RevenueCenter{_attrs(cp)} />")
    if not inner:
        return [f"{indent}<Upgrade{_attrs(pairs)} />"]
    return [f"{indent}<Upgrade{_attrs(pairs)}>", *inner, f"{indent}</Upgrade>"]


def _write_tiles(tiles: Iterable[TileSetEntry], indent: str) -> list[str]:
    lines: list[str] = []
    for t in tiles:
        pairs = [("number", t.number), ("quantity", str(t.quantity)), *t.extra]
        if not t.upgrades:
            lines.append(f"{indent}<Tile{_attrs(pairs)} />")
            continue
        lines.append(f"{indent}<Tile{_attrs(pairs)}>")
        for u in t.upgrades:
            lines.extend(_write_upgrade(u, indent + "\t"))
        lines.append(f"{indent}</Tile>")
    return lines


def tileset_to_xml(manifest: TileManifest) -> str:
    """The tile set as XML text (tidy, tab-indented, stable)."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>']
    if manifest.grouped:
        lines.append(f"<{manifest.root}{_attrs(manifest.attributes)}>")
        for g in manifest.groups:
            gp = ([("color", g.color)] if g.color is not None else []) + list(g.extra)
            lines.append(f"\t<TileSet{_attrs(gp)}>")
            lines.extend(_write_tiles(g.tiles, "\t\t"))
            lines.append("\t</TileSet>")
    else:
        color = manifest.groups[0].color if manifest.groups else None
        rp = ([("color", color)] if color is not None else []) + list(manifest.attributes)
        lines.append(f"<{manifest.root}{_attrs(rp)}>")
        for g in manifest.groups:
            lines.extend(_write_tiles(g.tiles, "\t"))
    lines.append(f"</{manifest.root}>")
    return "\n".join(lines) + "\n"


def write_tileset(manifest: TileManifest, path: Path) -> None:
    """Write the tile set to ``path`` (UTF-8)."""
    write_text(path, tileset_to_xml(manifest))


# --------------------------------------------------------------------- computed upgrades


def manifest_layout(manifest: TileManifest) -> Layout:
    """The hex layout a tile set is drawn in: ``direction="EW"`` is pointy, else flat."""
    direction = dict(manifest.attributes).get("direction", "NS").strip().upper()
    return Layout.POINTY if direction == "EW" else Layout.FLAT


def place_labels(tile: Tile) -> Tile:
    """The tile with a TileName that names a place (``Hamilton``, ``Barrie-London``) moved from
    its labels to its ``location_name``.

    Seed 000 writes labels (``OO``, ``B-V``, ``NY``) and place names in the same element; a
    name of more than three letters is taken as a place. A tile made for a named place goes
    only on the hex of that name (see :mod:`tilelay.upgrades`).
    """
    places = [lab for lab in tile.labels if len(lab.text.replace("-", "").strip()) > 3]
    if not places or tile.location_name is not None:
        return tile
    rest = tuple(lab for lab in tile.labels if lab not in places)
    return replace(tile, labels=rest, location_name=places[0].text)


def city_maps(
    old: Tile, new: Tile, upgrade: Upgrade, layout: Layout = Layout.FLAT
) -> tuple[CityMap, ...]:
    """The ``<RevenueCenter from to>`` records of a computed upgrade.

    One record per old city or town; when the mapping differs between rotations, one record
    per rotation with ``rotation`` set. Nodes without a seed-000 location are left out.
    """
    per_rot: list[tuple[int, tuple[CityMap, ...]]] = []
    for p in upgrade.placements:
        maps: list[CityMap] = []
        for i, j in p.node_map:
            if old.nodes[i].kind not in (NodeKind.CITY, NodeKind.TOWN) or j is None:
                continue
            a, b = node_location(old, i, layout), node_location(new, j, layout)
            if a is not None and b is not None:
                maps.append(CityMap(a, b))
        per_rot.append((p.rotation, tuple(maps)))
    if not per_rot:
        return ()
    if all(m == per_rot[0][1] for _, m in per_rot):
        return per_rot[0][1]
    return tuple(replace(c, rotation=r) for r, maps in per_rot for c in maps)


def apply_upgrades(
    manifest: TileManifest,
    upgrades: Iterable[Upgrade],
    tiles: Mapping[str, Tile],
) -> TileManifest:
    """The manifest with every tile's upgrades replaced by the computed ``upgrades``.

    Upgrades are listed in the manifest's tile order; each records its rotations, the city
    mapping (``<RevenueCenter>``), the phases of a game rule and the hex label it needs
    (``<BaseTileName>``). Upgrades to tiles not in the manifest are left out.
    """
    listed = {t.number for t in manifest.entries()}
    layout = manifest_layout(manifest)
    order = {t.number: k for k, t in enumerate(manifest.entries())}
    by_old: dict[str, list[Upgrade]] = {}
    for u in upgrades:
        if u.new in listed:
            by_old.setdefault(u.old, []).append(u)
    groups: list[TileSetGroup] = []
    for g in manifest.groups:
        entries: list[TileSetEntry] = []
        for t in g.tiles:
            ups = sorted(by_old.get(t.number, []), key=lambda u: order.get(u.new, 0))
            written = tuple(
                TileSetUpgrade(
                    to=u.new,
                    rotations=u.rotations,
                    cities=city_maps(tiles[u.old], tiles[u.new], u, layout)
                    if u.old in tiles and u.new in tiles
                    else (),
                    phases=u.phases,
                    base_tile_name=u.hex_label,
                    base_city_name=u.hex_name,
                )
                for u in ups
            )
            entries.append(replace(t, upgrades=written, line=None))
        groups.append(replace(g, tiles=tuple(entries)))
    return replace(manifest, groups=tuple(groups))

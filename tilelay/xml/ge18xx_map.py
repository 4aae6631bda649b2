"""GE18XX's ``<game>-Map.xml``: the map cells of a game and what is printed on them (read only).

The file (schema ``18XX-Map.xsd`` of the 18XX Game Engine) is ``<Map rows cols direction
rowStart colStart>`` holding ``<TerrainCosts>`` and ``<Row index startCol>`` elements of
``<MapCell>``\\ s. What the engine's code makes of them (repository Krazick/18XX-Game-Engine,
``GameMap.loadXMLRow``, ``HexMap.getIDs``, ``GameMap.CalcGridCenters``, ``Terrain.isSelectable``):

* ``direction="EW"`` is a map of hexes with flat east and west sides (tilelay's ``pointy``):
  a row is a row of hexes, drawn bottom (row 0) to top; ``"NS"`` (``flat``): a "row" is a
  column of hexes, drawn left to right.
* A cell's name is ``rowIDs[row] + colIDs[2 * col + row % 2]``, counting ``col`` from the
  row's ``startCol``. ``rowStart`` ``A`` gives rows A, B, C …; another capital letter gives the
  letters from it back down to A (``K``: K, J, …, A). ``colStart`` ``0``/``1`` gives numbers
  from 0/1, ``a``/``zz`` lower-case letters (1853: zz, a, b, …, z, aa, …). A name whose column
  is a number is a tilelay coordinate as it is (the letter is the row of an EW map and the
  column of an NS map); lower-case columns are numbered by their place in that list, with a
  warning.
* The cell's first ``<Terrain category="base">`` says what it is; cells of type ``Ocean``,
  ``Off Board Green``, ``Off Board Gray`` and ``Off Board Black`` (the engine's unselectable
  terrains), and cells the file does not list, are not hexes of the map.
* ``<Tile number orientation>`` is the preprinted tile (a number of the Tile Definitions),
  turned ``orientation`` sides clockwise; ``<RevenueCenter>`` elements are the cell's cities
  and towns (the tile's own when it has one; their ``id`` is the ``<CityInfo>`` of
  ``<game>-Cities.xml`` that names them); ``<TileName>`` is the label; ``<Blocked side>`` an
  impassable side (seed 000's side numbering); ``<Terrain category="optional" type>`` a
  terrain whose cost is the ``<TerrainCosts>`` entry of its type (or its own ``cost``).
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from tilelay.errors import ReadWarning, XMLFormatError
from tilelay.hexgeo import Layout
from tilelay.limits import MAX_AMOUNT, shown, whole
from tilelay.xml.safe import element_line, parse_xml

__all__ = ["GeCell", "GeCenter", "GeMap", "GeTerrain", "ge_ids", "read_ge_map"]

#: Base terrains of cells that are not hexes of the map (``Terrain.isSelectable``).
NOT_ON_MAP = frozenset({"Ocean", "Off Board Green", "Off Board Gray", "Off Board Black"})

_UPPER = list(string.ascii_uppercase)
_LOWER = list(string.ascii_lowercase) + [f"a{c}" for c in string.ascii_lowercase]


def ge_ids(start: str | None) -> list[str]:
    """The row or column names of a GE18XX map from its ``rowStart`` / ``colStart``."""
    if start == "A":
        return list(_UPPER)
    if start in (None, "a"):
        return list(_LOWER)
    if start in ("0", "1"):
        return [str(i) for i in range(int(start), 31)]
    if start == "zz":
        return ["zz", *_LOWER]
    if start in _UPPER:
        return _UPPER[: _UPPER.index(start) + 1][::-1]
    raise ValueError(f"unknown start {start!r}: expected A, a, 0, 1, zz or a capital letter")


def _local(el: etree._Element) -> str:
    return etree.QName(el).localname


@dataclass(frozen=True, slots=True)
class GeCenter:
    """A ``<RevenueCenter>`` of a map cell: city/town ``type``, seed-000 ``location``,
    ``number`` of token slots (``None`` when not given), the ``id`` of its ``<CityInfo>``."""

    type: str
    location: int
    number: int | None = None
    id: int | None = None
    name: str | None = None


@dataclass(frozen=True, slots=True)
class GeTerrain:
    """An optional terrain of a cell: its type and the cost of building there."""

    type: str
    cost: int


@dataclass(frozen=True, slots=True)
class GeCell:
    """A hex of a GE18XX map.

    ``coord`` is the tilelay coordinate, ``id`` the engine's name of the cell; ``tile`` and
    ``orientation`` the preprinted tile, if any; ``label`` and ``label_location`` its
    ``<TileName>``; ``blocked`` seed-000 sides that cannot be crossed.
    """

    coord: str
    id: str
    base: str
    tile: str | None = None
    orientation: int = 0
    centers: tuple[GeCenter, ...] = ()
    label: str | None = None
    label_location: int | None = None
    blocked: tuple[int, ...] = ()
    terrains: tuple[GeTerrain, ...] = ()
    line: int | None = None


@dataclass(frozen=True, slots=True)
class GeMap:
    """A GE18XX map: its layout and its hexes (``letter_is_x``: the letter is the column)."""

    layout: Layout
    letter_is_x: bool
    cells: tuple[GeCell, ...]
    ids: dict[str, str]
    source: str | None = None
    warnings: tuple[ReadWarning, ...] = ()


def _int(el: etree._Element, attr: str, source: str | None, default: int | None = None) -> int:
    text = el.get(attr)
    if text is None:
        if default is not None:
            return default
        raise XMLFormatError(f"<{_local(el)}> has no {attr}", source=source, line=element_line(el))
    value = whole(text, -MAX_AMOUNT, MAX_AMOUNT)
    if value is not None:
        return value
    raise XMLFormatError(
        f"<{_local(el)}> {attr}={shown(text)} is not a whole number from {-MAX_AMOUNT:,} "
        f"to {MAX_AMOUNT:,}",
        source=source,
        line=element_line(el),
    )


def read_ge_map(data: bytes | str | Path, *, source: str | None = None) -> GeMap:
    """Read a GE18XX ``<game>-Map.xml`` (path, bytes or text).

    ``ids`` of the result maps the engine's cell names to tilelay coordinates (for the other
    files, which name cells the engine's way). Raises :class:`~tilelay.errors.XMLFormatError`
    (file and line) for an unknown direction or row/column start and malformed numbers.
    """
    if isinstance(data, Path):
        source = source or str(data)
    root = parse_xml(data, source=source)
    if _local(root) != "Map":
        raise XMLFormatError(
            f"the root element is <{_local(root)}>, expected <Map>",
            source=source,
            line=element_line(root),
        )
    direction = (root.get("direction") or "").strip()
    if direction not in ("EW", "NS"):
        raise XMLFormatError(
            f"direction must be EW or NS, not {direction!r}", source=source, line=element_line(root)
        )
    try:
        row_ids = ge_ids(root.get("rowStart"))
        col_ids = ge_ids(root.get("colStart"))
    except ValueError as err:
        raise XMLFormatError(str(err), source=source, line=element_line(root)) from None
    numeric = col_ids[0].isdigit()
    warnings: list[ReadWarning] = []
    if not numeric:
        warnings.append(
            ReadWarning(
                f"columns are named {col_ids[0]}, {col_ids[1]}, …: tilelay numbers them by "
                f"place (0 for {col_ids[0]}); cell Xab becomes X28",
                source,
                element_line(root),
            )
        )
    costs: dict[str, int] = {}
    cells: list[GeCell] = []
    ids: dict[str, str] = {}
    for child in root:
        if not isinstance(child.tag, str):
            continue
        tag = _local(child)
        if tag == "TerrainCosts":
            for t in child:
                if isinstance(t.tag, str) and _local(t) == "Terrain":
                    costs[(t.get("type") or "").strip()] = _int(t, "cost", source)
        elif tag == "Row":
            row = _int(child, "index", source, 0)
            col = _int(child, "startCol", source, 0)
            for cell in child:
                if not isinstance(cell.tag, str):
                    continue
                if _local(cell) != "MapCell":
                    warnings.append(
                        ReadWarning(
                            f"<{_local(cell)}> in <Row> not read", source, element_line(cell)
                        )
                    )
                    continue
                index = 2 * col + row % 2
                if not (0 <= row < len(row_ids) and 0 <= index < len(col_ids)):
                    raise XMLFormatError(
                        f"cell {col} of row {row} lies outside the rows and columns named",
                        source=source,
                        line=element_line(cell),
                    )
                cid = row_ids[row] + col_ids[index]
                coord = cid if numeric else f"{row_ids[row]}{index}"
                col += 1
                found = _cell(cell, cid, coord, costs, source, warnings)
                if found is not None:
                    cells.append(found)
                    ids[cid] = coord
        else:
            warnings.append(ReadWarning(f"<{tag}> in <Map> not read", source, element_line(child)))
    return GeMap(
        layout=Layout.POINTY if direction == "EW" else Layout.FLAT,
        letter_is_x=direction == "NS",
        cells=tuple(cells),
        ids=ids,
        source=source,
        warnings=tuple(warnings),
    )


def _cell(
    el: etree._Element,
    cid: str,
    coord: str,
    costs: dict[str, int],
    source: str | None,
    warnings: list[ReadWarning],
) -> GeCell | None:
    base: str | None = None
    tile: str | None = None
    orientation = 0
    centers: list[GeCenter] = []
    label: str | None = None
    label_location: int | None = None
    blocked: list[int] = []
    terrains: list[GeTerrain] = []
    line = element_line(el)
    for child in el:
        if not isinstance(child.tag, str):
            continue
        tag = _local(child)
        if tag == "Terrain":
            kind = (child.get("type") or "").strip()
            if child.get("category") == "base" and base is None:
                base = kind
            elif child.get("category") == "optional":
                cost = _int(child, "cost", source, costs.get(kind, 0))
                terrains.append(GeTerrain(kind, cost))
        elif tag == "Tile":
            tile = (child.get("number") or "").strip() or None
            orientation = _int(child, "orientation", source, 0) % 6
        elif tag == "RevenueCenter":
            number = child.get("number")
            rc_id = child.get("id")
            centers.append(
                GeCenter(
                    type=(child.get("type") or "").strip(),
                    location=_int(child, "location", source),
                    number=None if number is None else _int(child, "number", source),
                    id=None if rc_id is None else _int(child, "id", source),
                    name=(child.get("name") or "").strip() or None,
                )
            )
        elif tag == "TileName":
            label = (child.get("name") or "").strip() or None
            loc = child.get("location")
            label_location = None if loc is None else _int(child, "location", source)
        elif tag == "Blocked":
            blocked.append(_int(child, "side", source) % 6)
        else:
            warnings.append(
                ReadWarning(f"cell {cid}: <{tag}> not read", source, element_line(child))
            )
    if base is None or base in NOT_ON_MAP:
        if tile is not None or centers:
            warnings.append(
                ReadWarning(
                    f"cell {cid} ({base or 'no terrain'}) has a tile or revenue centre but is "
                    "not a hex of the map; left out",
                    source,
                    line,
                )
            )
        return None
    return GeCell(
        coord=coord,
        id=cid,
        base=base,
        tile=tile,
        orientation=orientation,
        centers=tuple(centers),
        label=label,
        label_location=label_location,
        blocked=tuple(blocked),
        terrains=tuple(terrains),
        line=line,
    )

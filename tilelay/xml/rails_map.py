"""Rails' ``Map.xml``: the hexes of a game's map with their preprinted tiles (read only).

``<Map tileOrientation letterOrientation even>`` holds ``<Hex name tile [orientation] [cost]
[value] [city] [label] [impassable] …>`` elements, some inside ``<IfOption>`` blocks (resolved
with :class:`~tilelay.xml.rails_options.OptionResolver`). What Rails' own code makes of them
(repository Rails-18xx/Rails, ``MapOrientation.java``, ``MapHex.java``, ``MapManager.java``):

* ``tileOrientation="NS"`` hexes have flat north and south sides (tilelay's ``flat``),
  ``"EW"`` flat east and west sides (``pointy``). Rails numbers the sides of an NS hex S, SW,
  NW, N, NE, SE and those of an EW hex SW, W, NW, NE, E, SE: exactly tilelay's edges 0-5 of
  each layout. A hex's ``orientation`` turns its tile that many sides clockwise.
* A name is letters and a number. With ``letterOrientation="horizontal"`` the letter is the
  column, else the row. Rails' (row, column) are tilelay's doubled coordinates (its neighbour
  offsets are :data:`tilelay.hexgeo.NEIGHBOUR_OFFSETS`), so a name is a tilelay coordinate as
  it is, except that Rails reads numbers above 90 as negative (1825's column 99 is -1):
  :func:`rails_coord` gives the tilelay coordinate.
* ``cost`` lists tile-laying costs, the first for the preprinted tile; ``value`` lists a stop
  value per off-board revenue step (``<OffBoardRevenue step>`` of the phases); ``city`` is the
  place name; ``impassable`` names neighbouring hexes whose common side cannot be crossed (only
  one of the two hexes names the other); ``river`` names, the same way, neighbouring hexes
  across a river side (Steam Over Holland; the cost of crossing is in Rails' code);
  ``label`` is the label printed on the hex.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from tilelay.errors import ReadWarning, XMLFormatError
from tilelay.hexgeo import Layout
from tilelay.limits import MAX_AMOUNT, MAX_ITEMS, shown, whole
from tilelay.xml.rails_options import OptionResolver
from tilelay.xml.safe import element_line, parse_xml

__all__ = ["RailsHex", "RailsMap", "rails_coord", "read_rails_map"]

_NAME = re.compile(r"([A-Z]{1,3})(-?[0-9]{1,4})")
_KNOWN = frozenset(
    {
        "name",
        "tile",
        "orientation",
        "cost",
        "value",
        "city",
        "label",
        "impassable",
        "pic",
        "reserved",
        "open",
        "port",
        "river",
        "town",
        "runThrough",
        "unlaidHomeBlocksToken",
        "unlaidHomeBlocksTokens",
    }
)
#: Misspelt attributes of the shared data, read as the attribute meant (each is reported).
_MISSPELT = {"ciry": "city", "City": "city", "lablel": "label"}


def rails_coord(name: str) -> str:
    """The tilelay coordinate of a Rails hex name (``U99`` → ``U-1``; ``K8`` stays ``K8``).

    Rails takes a one-character row from its character code, so ``[`` (the one after ``Z``) is
    row ``AA`` (18C2C's ``[66`` is ``AA66``). Raises :class:`ValueError` for a name that is not
    letters and a number, and for Rails' row ``@`` (the one before ``A``, 1851's ``@18``),
    which tilelay's coordinates cannot name.
    """
    text = name.strip()
    if text[:1] == "[":
        text = "AA" + text[1:]
    if text[:1] == "@":
        raise ValueError(
            f"hex name {name!r}: row @ (before A) cannot be named by a tilelay coordinate"
        )
    m = _NAME.fullmatch(text)
    if m is None:
        raise ValueError(f"bad hex name {name!r}: expected letters and a number, e.g. K8")
    number = int(m.group(2))
    if number > 90:
        number -= 100
    return f"{m.group(1)}{number}"


@dataclass(frozen=True, slots=True)
class RailsHex:
    """One ``<Hex>`` of a Rails map, with its options resolved.

    ``coord`` is the tilelay coordinate (:func:`rails_coord` of ``name``); ``tile`` the
    preprinted tile's id; ``orientation`` 0-5; ``costs`` and ``values`` the integer lists of
    ``cost`` and ``value``; ``impassable`` and ``rivers`` the tilelay coordinates of the
    hexes across an impassable side and across a river side.
    """

    name: str
    coord: str
    tile: str
    orientation: int = 0
    costs: tuple[int, ...] = ()
    values: tuple[int, ...] = ()
    city: str | None = None
    label: str | None = None
    impassable: tuple[str, ...] = ()
    reserved: str | None = None
    rivers: tuple[str, ...] = ()
    line: int | None = None


@dataclass(frozen=True, slots=True)
class RailsMap:
    """A Rails map: its layout, the axes of its names, and its hexes in file order.

    ``letter_is_x`` is Rails' ``letterOrientation="horizontal"``; ``warnings`` lists what was
    read with a guess or left out (each with file and line).
    """

    layout: Layout
    letter_is_x: bool
    hexes: tuple[RailsHex, ...]
    source: str | None = None
    warnings: tuple[ReadWarning, ...] = ()


def _ints(
    text: str | None, what: str, name: str, el: etree._Element, source: str | None
) -> tuple[int, ...]:
    if text is None or not text.strip():
        return ()
    values = [whole(v, -MAX_AMOUNT, MAX_AMOUNT) for v in text.split(",") if v.strip()]
    if all(v is not None for v in values) and len(values) <= MAX_ITEMS:
        return tuple(v for v in values if v is not None)
    raise XMLFormatError(
        f"hex {name}: {what} {shown(text)} must be at most {MAX_ITEMS} whole numbers "
        f"from {-MAX_AMOUNT:,} to {MAX_AMOUNT:,} separated by commas",
        source=source,
        line=element_line(el),
    )


def read_rails_map(
    data: bytes | str | Path,
    *,
    source: str | None = None,
    options: Mapping[str, str] | None = None,
) -> RailsMap:
    """Read a Rails ``Map.xml`` (path, bytes or text) with its options resolved.

    ``options`` are the game's option settings (see
    :func:`~tilelay.xml.rails_options.game_options`); without, every undeclared option is
    unset. Raises :class:`~tilelay.errors.XMLFormatError` (file and line) for a missing or
    malformed orientation, a bad hex name or number, or a hex defined twice.
    """
    if isinstance(data, Path):
        source = source or str(data)
    root = parse_xml(data, source=source)
    if root.tag != "Map":
        raise XMLFormatError(
            f"the root element is <{root.tag}>, expected <Map>",
            source=source,
            line=element_line(root),
        )
    resolver = OptionResolver(options or {}, source)
    warnings: list[ReadWarning] = []
    orientation = (root.get("tileOrientation") or "").strip()
    if orientation not in ("NS", "EW"):
        raise XMLFormatError(
            f"tileOrientation must be NS or EW, not {orientation!r}",
            source=source,
            line=element_line(root),
        )
    letters = (root.get("letterOrientation") or "").strip()
    if letters not in ("horizontal", "vertical"):
        raise XMLFormatError(
            f"letterOrientation must be horizontal or vertical, not {letters!r}",
            source=source,
            line=element_line(root),
        )
    hexes: list[RailsHex] = []
    seen: dict[str, int | None] = {}
    for el in resolver.children(root):
        if el.tag != "Hex":
            if el.tag not in ("Defaults", "Image"):
                warnings.append(
                    ReadWarning(f"<{el.tag}> in <Map> not read", source, element_line(el))
                )
            continue
        found = _hex(el, resolver, source, warnings, seen)
        if found is not None:
            hexes.append(found)
    return RailsMap(
        layout=Layout.FLAT if orientation == "NS" else Layout.POINTY,
        letter_is_x=letters == "horizontal",
        hexes=tuple(hexes),
        source=source,
        warnings=(*resolver.warnings, *warnings),
    )


def _hex(
    el: etree._Element,
    resolver: OptionResolver,
    source: str | None,
    warnings: list[ReadWarning],
    seen: dict[str, int | None],
) -> RailsHex | None:
    line = element_line(el)
    attrs = resolver.attributes(el)
    for wrong, right in _MISSPELT.items():
        if wrong in attrs:
            warnings.append(
                ReadWarning(
                    f"hex {attrs.get('name')}: attribute {wrong!r} read as {right!r}", source, line
                )
            )
            attrs.setdefault(right, attrs.pop(wrong))
    for key in sorted(set(attrs) - _KNOWN):
        warnings.append(
            ReadWarning(f"hex {attrs.get('name')}: unknown attribute {key!r}", source, line)
        )
    name = (attrs.get("name") or "").strip()
    try:
        coord = rails_coord(name)
    except ValueError as err:
        if name[:1] != "@":
            raise XMLFormatError(str(err), source=source, line=line) from None
        warnings.append(ReadWarning(f"{err}; the hex is left out", source, line))
        return None
    if coord in seen:
        raise XMLFormatError(
            f"hex {name} is defined twice (first on line {seen[coord]})", source=source, line=line
        )
    seen[coord] = line
    if coord != name:
        warnings.append(
            ReadWarning(
                f"hex {name}: coordinate {coord} (Rails reads numbers above 90 as negative and "
                "row [ as AA)",
                source,
                line,
            )
        )
    tile = (attrs.get("tile") or "").strip()
    if not tile:
        raise XMLFormatError(f"hex {name} has no tile", source=source, line=line)
    rotation = _ints(attrs.get("orientation"), "orientation", name, el, source)
    turn = rotation[0] if rotation else 0
    if not 0 <= turn <= 5:
        warnings.append(
            ReadWarning(f"hex {name}: orientation {turn} read as {turn % 6}", source, line)
        )
    sides: dict[str, list[str]] = {"impassable": [], "river": []}
    for key, found in sides.items():
        for other in re.split(r"[,\s]+", attrs.get(key) or ""):
            if not other:
                continue
            try:
                found.append(rails_coord(other))
            except ValueError as err:
                if other[:1] != "@":
                    raise XMLFormatError(
                        f"hex {name}: {key}: {err}", source=source, line=line
                    ) from None
                warnings.append(ReadWarning(f"hex {name}: {key}: {err}", source, line))
    for child in resolver.children(el):
        # <Access> (run-through rules), <RevenueBonus> and the like: not in tilelay's model
        warnings.append(
            ReadWarning(f"hex {name}: <{child.tag}> not read", source, element_line(child))
        )
    city = (attrs.get("city") or "").strip() or None
    label = (attrs.get("label") or "").strip() or None
    return RailsHex(
        name=name,
        coord=coord,
        tile=tile,
        orientation=turn % 6,
        costs=_ints(attrs.get("cost"), "cost", name, el, source),
        values=_ints(attrs.get("value"), "value", name, el, source),
        city=city,
        label=label,
        impassable=tuple(sides["impassable"]),
        reserved=(attrs.get("reserved") or "").strip() or None,
        rivers=tuple(sides["river"]),
        line=line,
    )

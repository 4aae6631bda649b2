"""GE18XX's ``<game>-Companies.xml`` and ``<game>-Cities.xml`` (read only).

Companies (schema ``18XX-Corporations.xsd`` of the 18XX Game Engine): ``<Private>`` (``abbrev``,
``name``, ``cost``, ``revenue``, ``homeCell1``/``homeCell2``: the hexes it blocks),
``<Share>`` and ``<Minor>`` (``abbrev``, ``name``, ``homeCell1`` with ``homeLocation1``: the
seed-000 location of the home city on that hex, ``tokens``: how many, ``bgColor`` /
``fgColor``: an engine colour name or ``R,G,B``). Certificates, benefits and start packets
are not read. Cities (``18XX-Cities.xsd``): ``<CityInfo id name>``, the names of the
revenue centres of the map whose ``id`` they share.

Both files may carry the engine's XML namespace; elements are matched by local name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from tilelay.errors import ReadWarning, XMLFormatError
from tilelay.limits import MAX_AMOUNT, shown, whole
from tilelay.xml.safe import element_line, parse_xml

__all__ = [
    "GE_COLOURS",
    "GeCompanies",
    "GePrivate",
    "GeShare",
    "ge_colour",
    "read_ge_cities",
    "read_ge_companies",
]

#: The engine's colour names, as ``TrainCompany.translateColor`` of Krazick/18XX-Game-Engine
#: gives them (R, G, B).
GE_COLOURS: Mapping[str, tuple[int, int, int]] = {
    "Dark Green": (34, 139, 34),
    "White": (255, 255, 255),
    "Black": (0, 0, 0),
    "Red": (255, 0, 0),
    "Light Blue": (173, 216, 230),
    "Yellow": (255, 255, 0),
    "Deep Blue": (0, 0, 255),
    "Light Green": (124, 252, 0),
    "Orange": (255, 165, 0),
    "Gold": (255, 215, 0),
    "turquoise": (64, 224, 208),
    "Maroon": (110, 39, 23),
    "Green": (0, 255, 0),
    "Blue": (0, 0, 255),
}


def ge_colour(text: str | None) -> str | None:
    """An engine colour (a name of :data:`GE_COLOURS` or ``R,G,B``) as ``#rrggbb``.

    Raises :class:`ValueError` for anything else.
    """
    if text is None or not text.strip():
        return None
    t = text.strip()
    rgb = GE_COLOURS.get(t)
    if rgb is None:
        values = [whole(p, 0, 255) for p in t.split(",")]
        if len(values) == 1 and values[0] is None:
            raise ValueError(f"unknown colour {shown(text)}")
        parts = tuple(v for v in values if v is not None)
        if len(parts) != 3 or len(values) != 3:
            raise ValueError(f"bad colour {shown(text)}: expected R,G,B with values 0-255")
        rgb = (parts[0], parts[1], parts[2])
    return "#" + "".join(f"{p:02x}" for p in rgb)


@dataclass(frozen=True, slots=True)
class GePrivate:
    """A private company: price, revenue and the cells (engine names) it blocks."""

    sym: str
    name: str
    value: int
    revenue: int
    blocks: tuple[str, ...] = ()
    line: int | None = None


@dataclass(frozen=True, slots=True)
class GeShare:
    """A share company or minor: home cells (engine names) and the seed-000 location of the
    home city on each, the number of tokens, colours as ``#rrggbb``."""

    sym: str
    name: str
    kind: str
    homes: tuple[str, ...] = ()
    home_locations: tuple[int | None, ...] = ()
    tokens: int | None = None
    color: str | None = None
    text_color: str | None = None
    float_percent: int | None = None
    line: int | None = None


@dataclass(frozen=True, slots=True)
class GeCompanies:
    """The companies of a ``<game>-Companies.xml`` in file order."""

    privates: tuple[GePrivate, ...]
    shares: tuple[GeShare, ...]
    source: str | None = None
    warnings: tuple[ReadWarning, ...] = ()


def _local(el: etree._Element) -> str:
    return etree.QName(el).localname


def _int(el: etree._Element, attr: str, source: str | None) -> int | None:
    text = el.get(attr)
    if text is None or not text.strip():
        return None
    value = whole(text.strip().removesuffix("%"), -MAX_AMOUNT, MAX_AMOUNT)
    if value is None:
        raise XMLFormatError(
            f"<{_local(el)}> {attr}={shown(text)} is not a whole number from {-MAX_AMOUNT:,} "
            f"to {MAX_AMOUNT:,}",
            source=source,
            line=element_line(el),
        )
    return value


def read_ge_cities(data: bytes | str | Path, *, source: str | None = None) -> dict[int, str]:
    """The ``<CityInfo id name>`` of a ``<game>-Cities.xml``: id -> name."""
    if isinstance(data, Path):
        source = source or str(data)
    root = parse_xml(data, source=source)
    out: dict[int, str] = {}
    for el in root:
        if isinstance(el.tag, str) and _local(el) == "CityInfo":
            cid = _int(el, "id", source)
            name = (el.get("name") or "").strip()
            if cid is not None and name:
                out[cid] = name
    return out


def read_ge_companies(data: bytes | str | Path, *, source: str | None = None) -> GeCompanies:
    """Read a ``<game>-Companies.xml`` (path, bytes or text).

    Raises :class:`~tilelay.errors.XMLFormatError` (file and line) for a company without an
    ``abbrev`` and for numbers that do not read.
    """
    if isinstance(data, Path):
        source = source or str(data)
    root = parse_xml(data, source=source)
    privates: list[GePrivate] = []
    shares: list[GeShare] = []
    warnings: list[ReadWarning] = []
    for el in root:
        if not isinstance(el.tag, str):
            continue
        tag = _local(el)
        if tag not in ("Private", "Share", "Minor"):
            continue
        sym = (el.get("abbrev") or "").strip()
        if not sym:
            raise XMLFormatError(f"<{tag}> has no abbrev", source=source, line=element_line(el))
        name = (el.get("name") or sym).strip()
        cells = tuple(
            c.strip() for c in (el.get("homeCell1"), el.get("homeCell2")) if c and c.strip()
        )
        line = element_line(el)
        if tag == "Private":
            privates.append(
                GePrivate(
                    sym,
                    name,
                    _int(el, "cost", source) or 0,
                    _int(el, "revenue", source) or 0,
                    cells,
                    line,
                )
            )
            continue
        locations = (_int(el, "homeLocation1", source), _int(el, "homeLocation2", source))
        colours: list[str | None] = []
        for attr in ("bgColor", "fgColor"):
            try:
                colours.append(ge_colour(el.get(attr)))
            except ValueError as err:
                warnings.append(
                    ReadWarning(f"company {sym}: {attr}: {err}; not kept", source, line)
                )
                colours.append(None)
        shares.append(
            GeShare(
                sym,
                name,
                tag,
                cells,
                locations[: len(cells)],
                _int(el, "tokens", source),
                colours[0],
                colours[1],
                _int(el, "floatPercentage", source),
                line,
            )
        )
    return GeCompanies(tuple(privates), tuple(shares), source, tuple(warnings))

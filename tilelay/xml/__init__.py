"""XML formats: seed 000's Tile Definitions and TileSet files, and the Rails dialect.

All reading goes through :func:`tilelay.xml.safe.parse_xml`, a hardened parser.
:func:`load_tiles` reads a tile file of either dialect, telling them apart by content.
"""

from __future__ import annotations

from pathlib import Path

from tilelay.errors import XMLFormatError
from tilelay.hexgeo import Layout
from tilelay.tile import Tile
from tilelay.xml import rails, tiledefs
from tilelay.xml.safe import element_line, parse_xml

__all__ = ["load_tiles", "sniff_dialect"]


def sniff_dialect(data: bytes | str | Path, *, source: str | None = None) -> str:
    """``"xml"`` for seed 000's Tile Definitions, ``"rails"`` for Rails' ``Tiles.xml``."""
    root = parse_xml(data, source=source or (str(data) if isinstance(data, Path) else None))
    return _dialect(root, source)


def _dialect(root: object, source: str | None) -> str:
    from lxml import etree

    assert isinstance(root, etree._Element)
    first = (
        root
        if root.tag == "Tile"
        else next((t for t in root if isinstance(t.tag, str) and t.tag == "Tile"), None)
    )
    if first is None:
        if len([t for t in root if isinstance(t.tag, str)]) == 0:
            return "xml"
        raise XMLFormatError(f"<{root.tag}> holds no <Tile> elements", source=source)
    if first.get("number") is not None:
        return "xml"
    if first.get("id") is not None:
        return "rails"
    raise XMLFormatError(
        "cannot tell the dialect: a <Tile> has neither 'number' (seed 000) nor 'id' (Rails)",
        source=source,
        line=element_line(first),
    )


def load_tiles(path: str | Path, *, layout: Layout = Layout.FLAT) -> list[Tile]:
    """Every tile of an XML tile file: seed 000's Tile Definitions or Rails' ``Tiles.xml``."""
    p = Path(path)
    source = str(p)
    root = parse_xml(p, source=source)
    if _dialect(root, source) == "rails":
        return rails.tiles_from_root(root, source=source)
    return tiledefs.tiles_from_root(root, source=source, layout=layout)

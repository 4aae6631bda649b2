"""tilelay: tiles, maps, upgrades and routes for tile-laying board games.

The core is the immutable tile model (:mod:`tilelay.tile`) on hex geometry
(:mod:`tilelay.hexgeo`), read and written in the 18xx.games tile language (:mod:`tilelay.dsl`).

>>> import tilelay
>>> tile = tilelay.parse_tile("city=revenue:20;path=a:0,b:_0;path=a:_0,b:3", name="57")
>>> tilelay.write_tile(tile.rotated(1))
'city=revenue:20;path=a:1,b:_0;path=a:_0,b:4'
"""

from tilelay.catalogue import tile_names
from tilelay.dsl import parse as parse_tile
from tilelay.dsl import write as write_tile
from tilelay.errors import (
    GameDataError,
    NotFoundError,
    TilelayError,
    TileModelError,
    TileSyntaxError,
    XMLFormatError,
)
from tilelay.games import get_tile
from tilelay.hexgeo import Layout, Loc
from tilelay.tile import (
    Border,
    BorderType,
    Color,
    Edge,
    Frame,
    FutureLabel,
    Icon,
    Label,
    Node,
    NodeKind,
    NodeRef,
    Partition,
    PartitionSide,
    Path,
    Revenue,
    StopRoute,
    Stub,
    TerrainUpgrade,
    Tile,
    TownStyle,
    Track,
)

__version__ = "0.1.0"

__all__ = [
    "Border",
    "BorderType",
    "Color",
    "Edge",
    "Frame",
    "FutureLabel",
    "GameDataError",
    "Icon",
    "Label",
    "Layout",
    "Loc",
    "Node",
    "NodeKind",
    "NodeRef",
    "NotFoundError",
    "Partition",
    "PartitionSide",
    "Path",
    "Revenue",
    "StopRoute",
    "Stub",
    "TerrainUpgrade",
    "Tile",
    "TileModelError",
    "TileSyntaxError",
    "TilelayError",
    "TownStyle",
    "Track",
    "XMLFormatError",
    "get_tile",
    "parse_tile",
    "tile_names",
    "write_tile",
]

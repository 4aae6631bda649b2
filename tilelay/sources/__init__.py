"""Games of other engines read into tilelay's :class:`~tilelay.games.Game`.

* :mod:`tilelay.sources.rails`: a Rails game directory (``Game.xml``, ``Map.xml``,
  ``TileSet.xml``, ``Tiles.xml``, ``CompanyManager.xml``);
* :mod:`tilelay.sources.ge18xx`: a GE18XX game directory (``<game>-Map.xml``,
  ``<game>-TileSet.xml``, ``<game>-Companies.xml``, ``<game>-Cities.xml``, with the Tile
  Definitions and ``18xx-Games.xml`` beside it).

Each reader takes one game's directory and returns the game (read leniently: what it cannot
use is listed in :attr:`Game.problems`), and finds the game directories under a folder. A path
that holds no game raises :class:`~tilelay.errors.GameSourceError` naming it.
"""

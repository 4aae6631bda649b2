"""Games of other engines read into tilelay's :class:`~tilelay.games.Game`.

* :mod:`tilelay.sources.ruby` — literal data in Ruby source, read with a real Ruby parser;
* :mod:`tilelay.sources.engine` — whole games from a checkout of the 18xx.games engine;
* :mod:`tilelay.sources.rails` — a Rails game directory (``Game.xml``, ``Map.xml``,
  ``TileSet.xml``, ``Tiles.xml``, ``CompanyManager.xml``);
* :mod:`tilelay.sources.ge18xx` — a GE18XX game directory (``<game>-Map.xml``,
  ``<game>-TileSet.xml``, ``<game>-Companies.xml``, ``<game>-Cities.xml``, with the Tile
  Definitions and ``18xx-Games.xml`` beside it);
* :mod:`tilelay.sources.games` — the games under the paths a user gives, in any of these
  formats, with :mod:`tilelay.sources.cache` keeping what was read.

Each reader reads leniently: what it cannot use is listed in :attr:`Game.problems`. A path
that holds no game raises an error naming it.
"""

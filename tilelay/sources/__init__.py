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

from tilelay.sources.ge18xx import find_ge18xx_games, load_ge18xx_game
from tilelay.sources.rails import find_rails_games, load_rails_game

__all__ = ["find_ge18xx_games", "find_rails_games", "load_ge18xx_game", "load_rails_game"]

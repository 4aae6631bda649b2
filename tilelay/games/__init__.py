"""Games: the model (:mod:`~tilelay.games.model`), game data and tilelay's TOML format
(:mod:`~tilelay.games.data`, :mod:`~tilelay.games.toml`), the games known
(:mod:`~tilelay.games.registry`) and (recorded games are replayed by :mod:`tilelay.replay`).

>>> game = load_game("shikoku 1889")
>>> game.name, game.layout.value, game.hex_tile("K8").location_name
('1889', 'flat', 'Tokushima')
"""

from tilelay.games.data import game_from_data, game_to_data
from tilelay.games.model import (
    UNLIMITED,
    Company,
    Corporation,
    Game,
    normalise_name,
    parse_coord,
)
from tilelay.games.registry import find_games, game_names, get_tile, load_game
from tilelay.games.toml import game_to_toml, load_game_file, read_game_toml

__all__ = [
    "UNLIMITED",
    "Company",
    "Corporation",
    "Game",
    "find_games",
    "game_from_data",
    "game_names",
    "game_to_data",
    "game_to_toml",
    "get_tile",
    "load_game",
    "load_game_file",
    "normalise_name",
    "parse_coord",
    "read_game_toml",
]

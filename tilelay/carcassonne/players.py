"""Players by name: the kinds of player a game can seat (``random``, ``greedy``, ``human``,
``mcts[:LEVEL]``) and games seated with them.

This module sits above both the game engine (:mod:`.game`, which defines the simple players)
and the search player (:mod:`.mcts`, which plays on the engine), so that neither imports the
other to name a player.
"""

from __future__ import annotations

from tilelay.carcassonne.board import Rules
from tilelay.carcassonne.errors import CarcassonneError
from tilelay.carcassonne.game import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PLAYER_KINDS,
    Game,
    HumanPlayer,
    Player,
)
from tilelay.carcassonne.mcts import MctsPlayer, parse_level
from tilelay.carcassonne.tileset import TileSet

#: Every player kind :func:`make_player` knows (``mcts`` takes a level: ``mcts:hard``).
ALL_KINDS: tuple[str, ...] = ("random", "greedy", "human", "mcts:easy", "mcts:medium", "mcts:hard")


def make_player(kind: str, seed: int | str | None = None) -> Player:
    """A player by kind: ``random``, ``greedy``, ``human`` (moves come from
    :meth:`Game.make_move`) or ``mcts[:LEVEL]`` (levels ``easy``, ``medium``, ``hard``; see
    :mod:`tilelay.carcassonne.mcts`).

    >>> make_player("mcts").name
    'mcts:medium'
    """
    if kind in PLAYER_KINDS:
        return PLAYER_KINDS[kind](seed)
    if kind == "human":
        return HumanPlayer(seed)
    if kind == "mcts" or kind.startswith("mcts:"):
        return MctsPlayer(seed, level=parse_level(kind))
    raise CarcassonneError(f"unknown player {kind!r} (expected {', '.join(ALL_KINDS)})")


def new_game(
    players: int | list[str],
    seed: int = 0,
    *,
    rules: Rules | None = None,
    tileset: TileSet | None = None,
    river: bool | None = None,
    abbot: bool | None = None,
) -> Game:
    """A game with computer players: a number (all random) or a list of kinds (see
    :func:`make_player`, e.g. ``["greedy", "mcts:easy"]``)."""
    kinds = ["random"] * players if isinstance(players, int) else list(players)
    if not MIN_PLAYERS <= len(kinds) <= MAX_PLAYERS:
        raise CarcassonneError(f"{len(kinds)} players: expected {MIN_PLAYERS} to {MAX_PLAYERS}")
    agents = [make_player(kind, f"{seed}:{i}") for i, kind in enumerate(kinds)]
    return Game(agents, seed, rules=rules, tileset=tileset, river=river, abbot=abbot)


__all__ = ["ALL_KINDS", "make_player", "new_game"]

"""Saved games: a game as JSON (seed, rule options, the players' kinds and the moves) and back.

The pile is dealt from the seed, so the moves replay the game exactly; each recorded move names
its tile, which is checked when the game is restored. Example::

    {"format": "tilelay-carcassonne-game", "version": 1, "seed": 7,
     "rules": {"followers": 7, "first_edition_small_city": false, "farm_scoring": "third",
               "river": true, "abbot": true},
     "players": ["human", "mcts:medium"],
     "moves": [{"tile": "river-straight", "x": 1, "y": 0, "rotation": 0},
               {"tile": "river-garden", "x": 2, "y": 0, "rotation": 1, "follower": 0,
                "abbot": true}]}

Computer players are made anew from their kind and the seed when a game is restored; a player
with a time budget may choose differently from then on than it would have.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tilelay.carcassonne.board import ABBOT, Rules
from tilelay.carcassonne.errors import CarcassonneError
from tilelay.carcassonne.game import MAX_PLAYERS, MIN_PLAYERS, Game, Move, check_seed
from tilelay.carcassonne.players import make_player, new_game
from tilelay.carcassonne.tileset import game_tileset
from tilelay.errors import TilelayError
from tilelay.limits import read_json, shown

FORMAT = "tilelay-carcassonne-game"
VERSION = 1


@dataclass(frozen=True, slots=True)
class GameRecord:
    """What it takes to restore a game: the seed, the rule options, each player's kind (see
    :func:`~tilelay.carcassonne.players.make_player`) and the moves with their tiles' names."""

    seed: int
    rules: Rules
    players: tuple[str, ...]
    moves: tuple[tuple[str, Move], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON values."""
        moves = []
        for tile, m in self.moves:
            item: dict[str, Any] = {"tile": tile, "x": m.x, "y": m.y, "rotation": m.rotation}
            if m.follower is not None:
                item["follower"] = m.follower
            if m.abbot:
                item["abbot"] = True
            if m.return_abbot:
                item["return_abbot"] = True
            moves.append(item)
        return {
            "format": FORMAT,
            "version": VERSION,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "players": list(self.players),
            "moves": moves,
        }

    def to_json(self) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_dict(), indent=1)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """A record from :meth:`to_dict`'s form; raises :class:`CarcassonneError` naming what
        is wrong."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CarcassonneError(f"not a saved game (expected format {FORMAT!r})")
        version = data.get("version")
        if isinstance(version, bool) or not isinstance(version, int) or version != VERSION:
            raise CarcassonneError(
                f"saved game: 'version' {shown(version)}: expected {VERSION} (a whole number)"
            )
        seed = check_seed(data.get("seed"), "saved game: 'seed'")
        rules = data.get("rules", {})
        if not isinstance(rules, dict):
            raise CarcassonneError("saved game: 'rules' must be an object")
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise CarcassonneError("saved game: 'players' must be a list of player kinds")
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise CarcassonneError(
                f"saved game: 'players' lists {len(players)} players: a game has {MIN_PLAYERS} "
                f"to {MAX_PLAYERS}"
            )
        for kind in players:
            try:
                make_player(kind)
            except CarcassonneError as err:
                raise CarcassonneError(f"saved game: 'players': {err.message}") from None
        raw = data.get("moves", [])
        if not isinstance(raw, list):
            raise CarcassonneError("saved game: 'moves' must be a list")
        moves = []
        for n, item in enumerate(raw, 1):
            moves.append(_move(item, n))
        return cls(seed, Rules.from_dict(rules), tuple(players), tuple(moves))

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """A record from JSON text (see :func:`read_saved_json`)."""
        return cls.from_dict(read_saved_json(text))


def read_saved_json(data: str | bytes) -> Any:
    """The JSON value of a saved game's text (or UTF-8 bytes), read as
    :func:`~tilelay.limits.read_json` reads (numbers, nesting, constants, keys given twice
    checked), the top-level ``seed`` allowed past the limit on other numbers (10**15): it
    may be up to :data:`~tilelay.carcassonne.game.MAX_SEED` (2**63 - 1), its range checked
    with the record. Raises :class:`CarcassonneError` saying why the text is not a saved
    game's JSON."""
    try:
        return read_json(data, wide=("seed",))
    except TilelayError as err:  # not JSON, or numbers or nesting past the limits
        at = f" (line {err.line}, column {err.column})" if err.line and err.column else ""
        raise CarcassonneError(f"saved game: not JSON: {err.message}{at}") from None


def _move(item: Any, n: int) -> tuple[str, Move]:
    if not isinstance(item, dict):
        raise CarcassonneError(f"saved game: move {n} must be an object")
    unknown = set(item) - {"tile", "x", "y", "rotation", "follower", "abbot", "return_abbot"}
    if unknown:
        raise CarcassonneError(f"saved game: move {n}: unknown key(s) {', '.join(sorted(unknown))}")
    tile = item.get("tile")
    numbers = [item.get(k) for k in ("x", "y", "rotation")]
    follower = item.get("follower")
    if (
        not isinstance(tile, str)
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in numbers)
        or not (follower is None or (isinstance(follower, int) and not isinstance(follower, bool)))
    ):
        raise CarcassonneError(
            f"saved game: move {n} needs 'tile' (a name), whole numbers 'x', 'y', 'rotation' "
            "and maybe 'follower'"
        )
    abbot = item.get("abbot", False)
    back = item.get("return_abbot", False)
    if not isinstance(abbot, bool) or not isinstance(back, bool):
        raise CarcassonneError(f"saved game: move {n}: 'abbot', 'return_abbot' must be true/false")
    if follower is not None and not 0 <= follower < ABBOT:
        raise CarcassonneError(
            f"saved game: move {n}: 'follower' {follower}: expected the number of a feature of "
            f"the tile, 0 to {ABBOT - 1} (with 'abbot': true for the abbot), or no 'follower' "
            "for none"
        )
    x, y, rotation = (int(v) for v in numbers)  # type: ignore[arg-type]
    return tile, Move(x, y, rotation, follower, abbot, back)


def record(game: Game) -> GameRecord:
    """The record of a game (its players must be of kinds :func:`make_player` knows, and its
    tile set the one of its rules)."""
    if game.tileset is not game_tileset(river=game.rules.river, abbot=game.rules.abbot):
        raise CarcassonneError("only games with the standard tile sets can be saved")
    kinds = tuple(p.name for p in game.players)
    moves = tuple((t.tile, t.move) for t in game.turns)
    return GameRecord(game.seed, game.rules, kinds, moves)


def restore(saved: GameRecord) -> Game:
    """The game of a record, with every move made again (each checked against the rules and
    the tile the pile deals)."""
    game = new_game(list(saved.players), saved.seed, rules=saved.rules)
    for n, (tile, move) in enumerate(saved.moves, 1):
        drawn = game.tile_name
        if drawn is None:
            raise CarcassonneError(
                f"saved game: move {n} places tile {tile!r} but the game ended after move "
                f"{n - 1} (its pile is empty): the record has {len(saved.moves)} moves"
            )
        if drawn != tile:
            raise CarcassonneError(
                f"saved game: move {n} places tile {tile!r} but the pile deals {drawn!r} "
                "(another seed or version?)"
            )
        try:
            game.make_move(move)
        except CarcassonneError as err:
            raise CarcassonneError(f"saved game: move {n}: {err.message}") from None
    return game


def save_game(game: Game) -> str:
    """The game as JSON text (see :class:`GameRecord`)."""
    return record(game).to_json()


def load_game(text: str) -> Game:
    """A game from :func:`save_game`'s JSON text, ready to go on."""
    return restore(GameRecord.from_json(text))


__all__ = [
    "FORMAT",
    "VERSION",
    "GameRecord",
    "load_game",
    "read_saved_json",
    "record",
    "restore",
    "save_game",
]

"""The Carcassonne game engine and computer players.

A :class:`Game` shuffles the draw pile with a seed, places the start tile, and then each turn
draws a tile (tiles that fit nowhere are put aside and another is drawn), lets the player to move
choose a placement and maybe a follower, and scores what the tile completed. When the pile is
empty the remaining features and the farms are scored.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass

from tilelay.carcassonne.board import (
    CITY,
    FARM,
    MONASTERY,
    Board,
    Placement,
    Rules,
    ScoreEvent,
    xy_of,
)
from tilelay.carcassonne.errors import CarcassonneError
from tilelay.carcassonne.tile import SIDE_NAMES, Feature, Kind
from tilelay.carcassonne.tileset import TileSet, base_tileset

#: The number of players the engine accepts.
MIN_PLAYERS, MAX_PLAYERS = 1, 6


class Player(ABC):
    """A player: chooses where the drawn tile goes, then whether and where to put a follower."""

    name: str = "player"

    @abstractmethod
    def choose_placement(
        self, game: Game, player: int, tile: int, options: list[tuple[int, int]]
    ) -> int:
        """Index into ``options`` (``(position, rotation)`` pairs) of the chosen placement."""

    @abstractmethod
    def choose_follower(self, game: Game, player: int, options: list[int]) -> int | None:
        """One of ``options`` (features of the placed tile), or ``None`` for no follower."""


class RandomPlayer(Player):
    """Chooses uniformly among legal placements, then among follower spots and "none"."""

    name = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def choose_placement(
        self, game: Game, player: int, tile: int, options: list[tuple[int, int]]
    ) -> int:
        """A random placement."""
        return self.rng.randrange(len(options))

    def choose_follower(self, game: Game, player: int, options: list[int]) -> int | None:
        """A random follower spot, or none (each with the same chance)."""
        pick = self.rng.randrange(len(options) + 1)
        return options[pick] if pick < len(options) else None


def region_value(board: Board, node: int) -> float:
    """What a region would score at the end of the game if it stayed as it is."""
    root = board.find(node)
    kind = board.kind[root]
    if kind == FARM:
        return 3.0 * sum(1 for c in board.farm_cities(root) if board.opens[c] == 0)
    if kind == MONASTERY:
        return float(board.monastery_count(root))
    tiles = board.tilemask[root].bit_count()
    if kind == CITY:
        return float(tiles + board.pennants[root])
    return float(tiles)


class GreedyPlayer(Player):
    """Tries every placement and follower spot and takes the one that gains the most points
    this turn over the best other player, counting half the open value of a new follower's
    feature, less a follower's worth. Ties are broken at random."""

    name = "greedy"
    #: What keeping a follower in the supply is worth, in points.
    follower_cost = 1.5

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)
        self._follower: int | None = None

    def choose_placement(
        self, game: Game, player: int, tile: int, options: list[tuple[int, int]]
    ) -> int:
        """The best placement, remembering the follower choice that goes with it."""
        board = game.board
        before = list(board.scores)
        best = (float("-inf"), 0.0)
        choice: tuple[int, int | None] = (0, None)
        for i, (key, rot) in enumerate(options):
            trial = board.clone()
            trial.place(tile, key, rot)
            spots: list[int | None] = [*trial.follower_options(player), None]
            for spot in spots:
                after = trial.clone() if spot is not None else trial
                value = 0.0
                if spot is not None:
                    after.place_follower(player, spot)
                    node = after.placed[after.last_tile][3] + spot
                    value += 0.5 * region_value(after, node) - self.follower_cost
                after.score_turn()
                gains = [a - b for a, b in zip(after.scores, before, strict=True)]
                others = max((g for p, g in enumerate(gains) if p != player), default=0)
                value += gains[player] - others
                if spot is not None and after.meeples[player] > board.meeples[player] - 1:
                    value += self.follower_cost  # the follower came straight back
                score = (value, self.rng.random())
                if score > best:
                    best = score
                    choice = (i, spot)
        self._follower = choice[1]
        return choice[0]

    def choose_follower(self, game: Game, player: int, options: list[int]) -> int | None:
        """The follower spot chosen with the placement."""
        spot = self._follower
        return spot if spot in options else None


PLAYER_KINDS: dict[str, type[RandomPlayer] | type[GreedyPlayer]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
}


def make_player(kind: str, seed: int | str | None = None) -> Player:
    """A computer player by name (``random`` or ``greedy``)."""
    if kind not in PLAYER_KINDS:
        raise CarcassonneError(
            f"unknown player {kind!r} (expected {', '.join(sorted(PLAYER_KINDS))})"
        )
    return PLAYER_KINDS[kind](seed)


@dataclass(frozen=True, slots=True)
class Turn:
    """One move: who, which tile, where, which follower (feature index), what was scored and
    the scores after it. ``discarded`` lists tiles drawn before it that fit nowhere."""

    number: int
    player: int
    tile: str
    placement: Placement
    follower: int | None
    events: tuple[ScoreEvent, ...]
    scores: tuple[int, ...]
    discarded: tuple[str, ...] = ()


class Game:
    """A game of Carcassonne between computer players."""

    __slots__ = (
        "board",
        "current",
        "discarded",
        "enumerated",
        "final_events",
        "finished",
        "follower_spots",
        "pile",
        "players",
        "seed",
        "tileset",
        "turns",
    )

    def __init__(
        self,
        players: list[Player],
        seed: int = 0,
        *,
        tileset: TileSet | None = None,
        rules: Rules | None = None,
    ) -> None:
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise CarcassonneError(
                f"{len(players)} players: expected {MIN_PLAYERS} to {MAX_PLAYERS}"
            )
        self.tileset = tileset or base_tileset()
        self.players = players
        self.seed = seed
        self.board = Board(self.tileset, players=len(players), rules=rules)
        self.pile = self.tileset.pile()
        random.Random(seed).shuffle(self.pile)
        self.pile.reverse()  # drawn from the end
        self.current = 0
        self.turns: list[Turn] = []
        self.discarded: list[str] = []
        self.final_events: list[ScoreEvent] = []
        self.finished = False
        #: Legal placements enumerated and follower spots offered so far (for benchmarks).
        self.enumerated = 0
        self.follower_spots = 0

    def step(self) -> Turn | None:
        """Play one move; at the end of the pile score the game and return ``None``."""
        board = self.board
        names = self.tileset.types
        skipped: list[str] = []
        while self.pile:
            tile = self.pile.pop()
            options = board.legal_keys(tile)
            self.enumerated += len(options)
            if not options:
                skipped.append(names[tile].name)
                continue
            player = self.current
            agent = self.players[player]
            key, rot = options[agent.choose_placement(self, player, tile, options)]
            board.place(tile, key, rot)
            spots = board.follower_options(player)
            self.follower_spots += len(spots)
            follower = agent.choose_follower(self, player, spots) if spots else None
            if follower is not None:
                board.place_follower(player, follower)
            events = board.score_turn()
            x, y = xy_of(key)
            turn = Turn(
                len(self.turns) + 1,
                player,
                names[tile].name,
                Placement(x, y, rot),
                follower,
                tuple(events),
                tuple(board.scores),
                tuple(skipped),
            )
            self.discarded.extend(skipped)
            self.turns.append(turn)
            self.current = (player + 1) % len(self.players)
            return turn
        self.discarded.extend(skipped)
        if not self.finished:
            self.final_events = board.final_scoring()
            self.finished = True
        return None

    def play(self) -> list[int]:
        """Play to the end; returns the final scores."""
        while self.step() is not None:
            pass
        return list(self.board.scores)

    def play_to(self, moves: int) -> None:
        """Play until ``moves`` tiles have been placed (or the game ends)."""
        while len(self.turns) < moves and self.step() is not None:
            pass


def new_game(
    players: int | list[str],
    seed: int = 0,
    *,
    rules: Rules | None = None,
    tileset: TileSet | None = None,
) -> Game:
    """A game with computer players: a number (all random) or a list of kinds."""
    kinds = ["random"] * players if isinstance(players, int) else list(players)
    if not MIN_PLAYERS <= len(kinds) <= MAX_PLAYERS:
        raise CarcassonneError(f"{len(kinds)} players: expected {MIN_PLAYERS} to {MAX_PLAYERS}")
    agents = [make_player(kind, f"{seed}:{i}") for i, kind in enumerate(kinds)]
    return Game(agents, seed, rules=rules, tileset=tileset)


def describe_feature(feature: Feature) -> str:
    """A short description of a (rotated) feature, e.g. ``city N E`` or ``farm``."""
    kind = feature.kind
    if kind in (Kind.CITY, Kind.ROAD):
        sides = " ".join(SIDE_NAMES[s] for s in range(4) if feature.sides >> s & 1)
        return f"{kind.name.lower()} {sides}"
    return kind.name.lower()


def describe_event(event: ScoreEvent, names: list[str]) -> str:
    """One scoring event in words."""
    what = event.kind.name.lower()
    if event.kind is not Kind.FARM:
        what = ("completed " if event.complete else "unfinished ") + what
    who = ", ".join(names[p] for p in event.players) if event.players else "nobody"
    return f"{what} ({event.tiles} tiles): {event.points} to {who}"


def transcript(game: Game) -> list[str]:
    """The game so far as lines of text."""
    names = [f"P{i + 1} ({p.name})" for i, p in enumerate(game.players)]
    types = {t.name: t for t in game.tileset.types}
    lines = []
    for turn in game.turns:
        for name in turn.discarded:
            lines.append(f"      tile {name} fits nowhere: put aside")
        p = turn.placement
        text = (
            f"{turn.number:3d}. {names[turn.player]}: {turn.tile} at ({p.x}, {p.y}) "
            f"turned {p.rotation * 90}"
        )
        if turn.follower is not None:
            feature = types[turn.tile].rotated_features(p.rotation)[turn.follower]
            text += f", follower on {describe_feature(feature)}"
        lines.append(text)
        for event in turn.events:
            if event.players:
                lines.append("       " + describe_event(event, names))
    if game.finished:
        lines.append("End of game:")
        for event in game.final_events:
            if event.players and event.points:
                lines.append("       " + describe_event(event, names))
        for i, name in enumerate(names):
            lines.append(f"  {name}: {game.board.scores[i]}")
    return lines


__all__ = [
    "Game",
    "GreedyPlayer",
    "Player",
    "RandomPlayer",
    "Turn",
    "describe_event",
    "describe_feature",
    "make_player",
    "new_game",
    "region_value",
    "transcript",
]

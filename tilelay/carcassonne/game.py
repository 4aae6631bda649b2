"""The Carcassonne game engine and computer players.

A :class:`Game` shuffles the draw pile with a seed, places the start tile, and then each turn
draws a tile (tiles that fit nowhere are put aside and another is drawn), lets the player to move
choose a placement and maybe a follower, and scores what the tile completed. When the pile is
empty the remaining features and the farms are scored.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, replace

from tilelay.carcassonne.board import (
    ABBOT,
    CITY,
    FARM,
    GARDEN,
    MONASTERY,
    NO_FOLLOWER,
    RETURN_ABBOT,
    Board,
    Placement,
    Rules,
    ScoreEvent,
    key_of,
    xy_of,
)
from tilelay.carcassonne.errors import CarcassonneError, IllegalMoveError, TurnOrderError
from tilelay.carcassonne.tile import SIDE_NAMES, Feature, Kind
from tilelay.carcassonne.tileset import TileSet, game_tileset
from tilelay.limits import shown

#: The number of players a game seats: the base game's 2 to 5 (the command line, the engine,
#: saved games and the web app all use this range).
MIN_PLAYERS, MAX_PLAYERS = 2, 5
#: The largest seed of a game: seeds are 0 to ``MAX_SEED`` (2**63 - 1) for the command line's
#: ``--seed``, the engine, saved games (:mod:`.record` reads a seed past the JSON reader's limit
#: on other numbers) and the web app.
MAX_SEED = 2**63 - 1


def check_seed(seed: object, what: str = "seed") -> int:
    """``seed`` when it is a whole number from 0 to :data:`MAX_SEED`; else a
    :class:`CarcassonneError` naming ``what`` and the range."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise CarcassonneError(
            f"{what} {shown(seed)}: expected a whole number from 0 to {MAX_SEED} (2**63 - 1)"
        )
    return seed


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
        """One of ``options``, or ``None`` for no follower. An option is a feature index of
        the placed tile (a follower there), or with the Abbot ``ABBOT + feature`` (the abbot
        there) or ``RETURN_ABBOT`` (see :meth:`Board.actions`)."""


class HumanPlayer(Player):
    """A person: their moves come from :meth:`Game.make_move`, never from :meth:`Game.step`."""

    name = "human"

    def __init__(self, seed: int | str | None = None) -> None:
        del seed

    def choose_placement(
        self, game: Game, player: int, tile: int, options: list[tuple[int, int]]
    ) -> int:
        """Refuses: a person's move is given with :meth:`Game.make_move`."""
        raise TurnOrderError(f"player {player + 1} is a person: give the move with make_move()")

    def choose_follower(self, game: Game, player: int, options: list[int]) -> int | None:
        """Refuses, as :meth:`choose_placement`."""
        raise TurnOrderError(f"player {player + 1} is a person: give the move with make_move()")


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
    if kind in (MONASTERY, GARDEN):
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
        figures = board.meeples[player] + board.abbots[player]
        for i, (key, rot) in enumerate(options):
            trial = board.clone()
            trial.place(tile, key, rot)
            spots: list[int | None] = [*trial.actions(player)[1:], None]
            for spot in spots:
                after = trial.clone() if spot is not None else trial
                value = 0.0
                if spot is not None:
                    after.act(player, spot)
                    if spot >= 0:
                        feature = spot - ABBOT if spot >= ABBOT else spot
                        node = after.placed[after.last_tile][3] + feature
                        value += 0.5 * region_value(after, node) - self.follower_cost
                after.score_turn()
                gains = [a - b for a, b in zip(after.scores, before, strict=True)]
                others = max((g for p, g in enumerate(gains) if p != player), default=0)
                value += gains[player] - others
                back = after.meeples[player] + after.abbots[player]
                if spot is not None and spot >= 0 and back > figures - 1:
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


@dataclass(frozen=True, slots=True)
class Move:
    """A player's choice for the drawn tile: where it goes, turned ``rotation`` quarter turns
    clockwise, and the figure action: a follower on feature ``follower`` of the tile (or the
    abbot there, with ``abbot``), or taking the abbot back (``return_abbot``), or nothing."""

    x: int
    y: int
    rotation: int
    follower: int | None = None
    abbot: bool = False
    return_abbot: bool = False

    def __post_init__(self) -> None:
        if self.follower is not None and not 0 <= self.follower < ABBOT:
            raise CarcassonneError(
                f"move: follower {shown(self.follower)}: expected a feature index of the tile "
                f"(0 to {ABBOT - 1}), or none"
            )
        if self.abbot and self.follower is None:
            raise CarcassonneError("move: the abbot needs a feature (follower=...)")
        if self.return_abbot and (self.follower is not None or self.abbot):
            raise CarcassonneError("move: taking the abbot back replaces placing a figure")

    @property
    def action(self) -> int:
        """The board's action int (see :meth:`Board.actions`)."""
        if self.return_abbot:
            return RETURN_ABBOT
        if self.follower is None:
            return NO_FOLLOWER
        return ABBOT + self.follower if self.abbot else self.follower

    @classmethod
    def of(cls, key: int, rotation: int, action: int) -> Move:
        """The move of a board position, rotation and action int."""
        x, y = xy_of(key)
        if action == RETURN_ABBOT:
            return cls(x, y, rotation, return_abbot=True)
        if action == NO_FOLLOWER:
            return cls(x, y, rotation)
        if action >= ABBOT:
            return cls(x, y, rotation, action - ABBOT, abbot=True)
        return cls(x, y, rotation, action)


@dataclass(frozen=True, slots=True)
class Turn:
    """One move: who, which tile, where, which follower (feature index), what was scored and
    the scores after it. ``discarded`` lists tiles drawn before it that fit nowhere. With the
    Abbot, ``abbot`` says the figure on ``follower`` is the abbot and ``return_abbot`` that the
    abbot was taken back (its points are in ``events``)."""

    number: int
    player: int
    tile: str
    placement: Placement
    follower: int | None
    events: tuple[ScoreEvent, ...]
    scores: tuple[int, ...]
    discarded: tuple[str, ...] = ()
    abbot: bool = False
    return_abbot: bool = False

    @property
    def move(self) -> Move:
        """The move made."""
        p = self.placement
        return Move(p.x, p.y, p.rotation, self.follower, self.abbot, self.return_abbot)


def deal_pile(tileset: TileSet, seed: int) -> list[int]:
    """The draw pile of a game (type indices, drawn from the end of the list).

    Without river tiles: the tiles but the start tile, shuffled with ``seed``. With them (the
    River): first the river tiles shuffled, then the lake (river tiles with one river side), then
    the other tiles shuffled, the base start tile among them."""
    pile = tileset.pile()
    rng = random.Random(seed)
    types = tileset.types
    if not any(types[t].river_sides for t in pile):
        rng.shuffle(pile)
        pile.reverse()
        return pile
    rest = [t for t in pile if not types[t].river_sides]
    lakes = [t for t in pile if types[t].river_sides.bit_count() == 1]
    river = [t for t in pile if types[t].river_sides.bit_count() > 1]
    rng.shuffle(rest)
    rng.shuffle(river)
    order = river + lakes + rest
    order.reverse()
    return order


class Game:
    """A game of Carcassonne: a seeded draw pile, a board and players.

    Computer players move with :meth:`step` (or :meth:`play`, :meth:`play_to`); a person's move
    is given with :meth:`make_move` for the tile :attr:`tile` (see :meth:`legal_moves`).
    :meth:`undo` takes the last move back. ``river`` and ``abbot`` switch on those options (the
    same as ``rules=Rules(river=True, abbot=True)``).
    """

    __slots__ = (
        "_keys",
        "_skipped",
        "board",
        "current",
        "discarded",
        "enumerated",
        "final_events",
        "finished",
        "follower_spots",
        "pile",
        "players",
        "rules",
        "seed",
        "tile",
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
        river: bool | None = None,
        abbot: bool | None = None,
    ) -> None:
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise CarcassonneError(
                f"{len(players)} players: expected {MIN_PLAYERS} to {MAX_PLAYERS}"
            )
        check_seed(seed)
        rules = rules or Rules()
        if river is not None:
            rules = replace(rules, river=river)
        if abbot is not None:
            rules = replace(rules, abbot=abbot)
        self.rules = rules
        self.tileset = tileset or game_tileset(river=rules.river, abbot=rules.abbot)
        self.players = players
        self.seed = seed
        self.board = Board(self.tileset, players=len(players), rules=rules)
        self.pile = deal_pile(self.tileset, seed)
        self.current = 0
        self.turns: list[Turn] = []
        self.discarded: list[str] = []
        self.final_events: list[ScoreEvent] = []
        self.finished = False
        #: The drawn tile (type index) waiting to be placed, or ``None``.
        self.tile: int | None = None
        self._skipped: list[str] = []
        self._keys: list[tuple[int, int]] = []
        #: Legal placements enumerated and follower spots offered so far (for benchmarks).
        self.enumerated = 0
        self.follower_spots = 0

    # --- drawing and moving ------------------------------------------------------------------

    def draw(self) -> int | None:
        """The tile to place now (drawing it if needed; tiles that fit nowhere are put aside).
        At the end of the pile the end is scored and ``None`` returned."""
        if self.tile is not None:
            return self.tile
        board = self.board
        while self.pile:
            tile = self.pile.pop()
            keys = board.legal_keys(tile)
            if keys:
                self.tile = tile
                self._keys = keys
                return tile
            self._skipped.append(self.tileset.types[tile].name)
        self.discarded.extend(self._skipped)
        self._skipped = []
        if not self.finished:
            self.final_events = board.final_scoring()
            self.finished = True
        return None

    @property
    def tile_name(self) -> str | None:
        """The name of the tile to place now, or ``None`` at the end."""
        tile = self.draw()
        return None if tile is None else self.tileset.types[tile].name

    def legal_moves(self) -> list[Move]:
        """Every legal move for the drawn tile: each placement with each figure action."""
        tile = self.draw()
        if tile is None:
            return []
        return [Move.of(k, r, a) for k, r, a in legal_actions(self.board, tile, self.current)]

    def make_move(self, move: Move) -> Turn:
        """Play ``move`` for the player to move with the drawn tile; raises
        :class:`~tilelay.carcassonne.errors.IllegalMoveError` if the rules do not allow it."""
        tile = self.draw()
        if tile is None:
            raise TurnOrderError("the game is over")
        key = key_of(move.x, move.y)
        board = self.board
        if not 0 <= move.rotation < 4 or not board.is_legal(tile, key, move.rotation):
            name = self.tileset.types[tile].name
            raise IllegalMoveError(
                f"tile {name} cannot go at ({move.x}, {move.y}) turned {move.rotation}"
            )
        trial = board.clone()
        trial.place(tile, key, move.rotation)
        if move.action not in trial.actions(self.current):
            raise IllegalMoveError(f"{_describe_action(move)} is not allowed there")
        self.board.place(tile, key, move.rotation)
        return self._finish(tile, key, move.rotation, move.action)

    def _finish(self, tile: int, key: int, rotation: int, action: int) -> Turn:
        """Act and score the turn of the tile just placed."""
        board = self.board
        player = self.current
        events = board.act(player, action) if action != NO_FOLLOWER else []
        events += board.score_turn()
        move = Move.of(key, rotation, action)
        turn = Turn(
            len(self.turns) + 1,
            player,
            self.tileset.types[tile].name,
            Placement(move.x, move.y, rotation),
            move.follower,
            tuple(events),
            tuple(board.scores),
            tuple(self._skipped),
            move.abbot,
            move.return_abbot,
        )
        self.discarded.extend(self._skipped)
        self._skipped = []
        self.tile = None
        self.turns.append(turn)
        self.current = (player + 1) % len(self.players)
        return turn

    def step(self) -> Turn | None:
        """Let the computer player to move play one move; at the end of the pile score the
        game and return ``None``."""
        tile = self.draw()
        if tile is None:
            return None
        board = self.board
        player = self.current
        agent = self.players[player]
        options = self._keys
        self.enumerated += len(options)
        key, rot = options[agent.choose_placement(self, player, tile, options)]
        board.place(tile, key, rot)
        spots = board.actions(player)[1:]
        self.follower_spots += len(spots)
        choice = agent.choose_follower(self, player, spots) if spots else None
        action = NO_FOLLOWER if choice is None else choice
        if action != NO_FOLLOWER and action not in spots:
            raise IllegalMoveError(f"{agent.name} chose action {action}, not one of {spots}")
        return self._finish(tile, key, rot, action)

    def play(self) -> list[int]:
        """Play to the end; returns the final scores."""
        while self.step() is not None:
            pass
        return list(self.board.scores)

    def play_to(self, moves: int) -> None:
        """Play until ``moves`` tiles have been placed (or the game ends)."""
        while len(self.turns) < moves and self.step() is not None:
            pass

    def replay(self, moves: list[Move]) -> None:
        """Make ``moves`` in order (e.g. to restore a saved game)."""
        for move in moves:
            self.make_move(move)

    def undo(self) -> Move:
        """Take the last move back (the game is replayed from its seed without it); returns
        the move taken back."""
        if not self.turns:
            raise TurnOrderError("no move to take back")
        moves = [t.move for t in self.turns]
        fresh = Game(self.players, self.seed, tileset=self.tileset, rules=self.rules)
        fresh.replay(moves[:-1])
        for name in self.__slots__:
            setattr(self, name, getattr(fresh, name))
        return moves[-1]

    def remaining(self) -> list[int]:
        """The tiles not drawn yet (type indices, in no particular order: what a player may
        know of the pile)."""
        return sorted(self.pile)


def _describe_action(move: Move) -> str:
    if move.return_abbot:
        return "taking the abbot back"
    if move.follower is None:
        return "no follower"
    figure = "the abbot" if move.abbot else "a follower"
    return f"{figure} on feature {move.follower}"


def legal_actions(board: Board, tile: int, player: int) -> list[tuple[int, int, int]]:
    """Every legal ``(position, rotation, action)`` of a tile for ``player``, worked out
    without placing it (see :meth:`Board.actions`)."""
    out: list[tuple[int, int, int]] = []
    rots = board.compiled.rot[tile]
    meeples = board.meeples[player] > 0
    abbot_free = board.abbots[player] > 0
    abbot_out = board.abbot_at[player] >= 0
    for key, rot in board.legal_keys(tile):
        out.append((key, rot, NO_FOLLOWER))
        rt = rots[rot]
        if meeples:
            for f in board.free_features_if(tile, key, rot):
                if rt.kinds[f] != GARDEN:
                    out.append((key, rot, f))
        if abbot_free and rt.monastery >= 0:
            out.append((key, rot, ABBOT + rt.monastery))
        if abbot_out:
            out.append((key, rot, RETURN_ABBOT))
    return out


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
    tiles = f"{event.tiles} tile" + ("" if event.tiles == 1 else "s")
    return f"{what} ({tiles}): {event.points} to {who}"


def transcript(game: Game, names: list[str] | None = None) -> list[str]:
    """The game so far as lines of text (players called ``names``, by default ``P1 (kind)``
    and so on)."""
    if names is None:
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
            figure = "abbot" if turn.abbot else "follower"
            text += f", {figure} on {describe_feature(feature)}"
        if turn.return_abbot:
            text += ", takes the abbot back"
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
    "MAX_PLAYERS",
    "MAX_SEED",
    "MIN_PLAYERS",
    "Game",
    "GreedyPlayer",
    "HumanPlayer",
    "Move",
    "Player",
    "RandomPlayer",
    "Turn",
    "check_seed",
    "deal_pile",
    "describe_event",
    "describe_feature",
    "legal_actions",
    "region_value",
    "transcript",
]

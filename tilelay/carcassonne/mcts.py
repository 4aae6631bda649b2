"""A Monte-Carlo search player for Carcassonne.

For the drawn tile the player lists every move (placement and figure action, see
:func:`~tilelay.carcassonne.game.legal_actions`), orders them with the greedy player's one-turn
value, and spends its budget (playouts and/or seconds) on a bandit over them: UCB1 with
*progressive widening* (the best-ordered moves first, more of them as playouts accumulate). Each
playout makes the move on a copy of the board, *determinizes* the hidden pile (the tiles not
drawn yet, which every player may count, in a random order; river tiles first when the River is
still open), plays the game out with a fast, greedy-biased policy for every player, scores the
end and rewards the searching player by winning and by score margin. The move with the most
playouts is played.

It is a search of depth one with a stochastic model of the rest of the game: with tiles drawn at
random, deeper trees pay little for their cost in Python (measured: ``benchmarks/
bench_carcassonne_bot.py``).

Levels (``mcts:easy``, ``mcts:medium``, ``mcts:hard``) set the budget; :class:`MctsPlayer` also
takes ``playouts`` and ``seconds`` directly. With a playout budget and no time limit the player is
deterministic for a given seed.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from tilelay.carcassonne.board import (
    ABBOT,
    CITY,
    FARM,
    MONASTERY,
    NO_FOLLOWER,
    RETURN_ABBOT,
    ROAD,
    Board,
)
from tilelay.carcassonne.errors import CarcassonneError
from tilelay.carcassonne.game import Game, Player, legal_actions

Action = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a move may cost: at most ``playouts`` playouts and at most ``seconds``
    seconds (``None``: no limit of that kind)."""

    playouts: int | None
    seconds: float | None


#: The levels for people.
LEVELS: dict[str, Budget] = {
    "easy": Budget(40, 1.0),
    "medium": Budget(250, 1.0),
    "hard": Budget(800, 1.0),
}


def _policy_action(board: Board, player: int, rng: random.Random) -> int:
    """The playout policy's figure action for the tile just placed."""
    options = board.follower_options(player)
    if not options or board.meeples[player] <= 0:
        return NO_FOLLOWER
    _t, _r, _k, base = board.placed[board.last_tile]
    kind = board.kind
    best = NO_FOLLOWER
    best_value = 1.0 + (board.meeples[player] < 3)
    for f in options:
        k = kind[base + f]
        root = board.find(base + f)
        if k == MONASTERY:
            value = 3.0 + board.monastery_count(root) * 0.4
        elif k == CITY:
            value = 1.5 + board.tilemask[root].bit_count() * 0.6 - board.opens[root] * 0.3
        elif k == ROAD:
            value = 0.8 + board.tilemask[root].bit_count() * 0.3 - board.opens[root] * 0.2
        elif k == FARM:
            value = 3.0 * len(board.farm_cities(root)) - 1.0
        else:
            continue
        value += rng.random() * 2.0
        if value > best_value:
            best, best_value = f, value
    return best


def playout(board: Board, pile: list[int], player: int, rng: random.Random) -> None:
    """Play ``pile`` (drawn from the end) out on ``board`` from ``player`` on, then score the
    end. Each turn looks at three random placements and keeps the one with the most neighbours
    (compact boards complete features), then maybe places a follower (:func:`_policy_action`)."""
    players = len(board.scores)
    legal_keys = board.legal_keys
    frontier = board.frontier
    randrange = rng.randrange
    while pile:
        tile = pile.pop()
        options = legal_keys(tile)
        if not options:
            continue
        count = len(options)
        key, rot = options[randrange(count)]
        if count > 1:
            best = _NEIGHBOURS[frontier[key]]
            for _ in range(2):
                k2, r2 = options[randrange(count)]
                n2 = _NEIGHBOURS[frontier[k2]]
                if n2 > best:
                    key, rot, best = k2, r2, n2
        board.place(tile, key, rot)
        action = _policy_action(board, player, rng)
        if action != NO_FOLLOWER:
            board.place_follower(player, action)
        board.score_turn()
        player = (player + 1) % players
    board.final_scoring()


#: How many sides of a spot with a frontier code have a neighbour.
_NEIGHBOURS: tuple[int, ...] = tuple(
    sum(1 for s in range(4) if code >> (3 * s) & 7) for code in range(4096)
)


def determinize(board: Board, remaining: list[int], rng: random.Random) -> list[int]:
    """A random order of the tiles not drawn yet (drawn from the end of the list), river tiles
    first (the lake last of them) while the river is open."""
    pile = list(remaining)
    river = board.compiled.river_types
    if board.river_end >= 0 and any(river[t] for t in pile):
        types = board.tileset.types
        rest = [t for t in pile if not river[t]]
        lakes = [t for t in pile if river[t] and types[t].river_sides.bit_count() == 1]
        flow = [t for t in pile if river[t] and types[t].river_sides.bit_count() > 1]
        rng.shuffle(rest)
        rng.shuffle(flow)
        pile = flow + lakes + rest
        pile.reverse()
        return pile
    rng.shuffle(pile)
    return pile


def _open_value(board: Board, node: int) -> float:
    """What a region may be worth at the end: a farm counts its open cities as half."""
    root = board.find(node)
    if board.kind[root] == FARM:
        cities = board.farm_cities(root)
        complete = sum(1 for c in cities if board.opens[c] == 0)
        return 3.0 * complete + 1.5 * (len(cities) - complete)
    from tilelay.carcassonne.game import region_value

    return region_value(board, root)


def prior_values(board: Board, tile: int, player: int, moves: list[Action]) -> list[float]:
    """The greedy one-turn value of each move: points gained over the best other player, half
    the open value of a new figure's feature, less 1.5 for a figure that stays out."""
    before = board.scores
    figures = board.meeples[player] + board.abbots[player]
    out: list[float] = []
    trials: dict[tuple[int, int], Board] = {}
    for key, rot, action in moves:
        trial = trials.get((key, rot))
        if trial is None:
            trial = board.clone()
            trial.place(tile, key, rot)
            trials[(key, rot)] = trial
        after = trial.clone()
        value = 0.0
        if action != NO_FOLLOWER:
            after.act(player, action)
            if action >= 0:
                feature = action - ABBOT if action >= ABBOT else action
                node = after.placed[after.last_tile][3] + feature
                value += 0.5 * _open_value(after, node) - 1.5
        after.score_turn()
        gains = [a - b for a, b in zip(after.scores, before, strict=True)]
        others = max((g for p, g in enumerate(gains) if p != player), default=0)
        value += gains[player] - others
        back = after.meeples[player] + after.abbots[player]
        if action >= 0 and back > figures - 1:
            value += 1.5
        if action == RETURN_ABBOT:
            value -= 1.0
        out.append(value)
    return out


class MctsPlayer(Player):
    """Monte-Carlo search with determinized, greedy-biased playouts (see the module
    docstring)."""

    name = "mcts"

    def __init__(
        self,
        seed: int | str | None = None,
        *,
        level: str = "medium",
        playouts: int | None = None,
        seconds: float | None = None,
    ) -> None:
        if level not in LEVELS:
            raise CarcassonneError(f"unknown level {level!r} (expected {', '.join(LEVELS)})")
        budget = LEVELS[level]
        if playouts is not None or seconds is not None:
            budget = Budget(playouts, seconds)
        if budget.playouts is None and budget.seconds is None:
            raise CarcassonneError("an MCTS player needs a playout or time budget")
        self.level = level
        self.budget = budget
        self.name = f"mcts:{level}"
        self.rng = random.Random(seed)
        self._action = NO_FOLLOWER
        #: Playouts and seconds spent on the last move (for benchmarks).
        self.last_playouts = 0
        self.last_seconds = 0.0

    def choose_placement(
        self, game: Game, player: int, tile: int, options: list[tuple[int, int]]
    ) -> int:
        """The searched move's placement; its figure action is kept for
        :meth:`choose_follower`."""
        key, rot, action = self.search(game.board, tile, player, game.remaining())
        self._action = action
        return options.index((key, rot))

    def choose_follower(self, game: Game, player: int, options: list[int]) -> int | None:
        """The figure action chosen with the placement."""
        return self._action if self._action in options else None

    def search(self, board: Board, tile: int, player: int, remaining: list[int]) -> Action:
        """The best move for ``player`` placing ``tile`` on ``board`` with ``remaining`` tiles
        (any order) still to be drawn."""
        start = time.perf_counter()
        moves = legal_actions(board, tile, player)
        if len(moves) == 1:
            self.last_playouts, self.last_seconds = 0, time.perf_counter() - start
            return moves[0]
        prior = prior_values(board, tile, player, moves)
        order = sorted(range(len(moves)), key=lambda i: -prior[i])
        moves = [moves[i] for i in order]
        prior = [prior[i] for i in order]
        budget = self.budget
        limit = budget.playouts if budget.playouts is not None else 1 << 30
        deadline = start + budget.seconds if budget.seconds is not None else math.inf
        n = len(moves)
        visits = [0] * n
        totals = [0.0] * n
        rng = self.rng
        players = len(board.scores)
        nxt = (player + 1) % players
        done = 0
        while done < limit and (done & 7 or time.perf_counter() < deadline):
            # progressive widening: the best-ordered moves first, more as playouts add up
            width = min(n, 2 + int(math.sqrt(done + 1)))
            log_n = math.log(done + 1)
            best_i = 0
            best_u = -math.inf
            for i in range(width):
                if visits[i] == 0:
                    best_i = i
                    break
                u = totals[i] / visits[i] + 0.5 * math.sqrt(log_n / visits[i])
                if u > best_u:
                    best_i, best_u = i, u
            key, rot, action = moves[best_i]
            sim = board.clone()
            sim.play(tile, key, rot, player, action)
            playout(sim, determinize(board, remaining, rng), nxt, rng)
            mine = sim.scores[player]
            other = max((s for p, s in enumerate(sim.scores) if p != player), default=0)
            margin = mine - other
            win = 1.0 if margin > 0 else (0.5 if margin == 0 else 0.0)
            visits[best_i] += 1
            totals[best_i] += 0.5 * win + 0.5 * (0.5 + 0.5 * math.tanh(margin / 20.0))
            done += 1
        self.last_playouts = done
        self.last_seconds = time.perf_counter() - start
        best = max(range(n), key=lambda i: (visits[i], prior[i]))
        return moves[best]


def parse_level(kind: str) -> str:
    """The level of a player kind ``mcts`` or ``mcts:LEVEL``."""
    _, _, level = kind.partition(":")
    level = level or "medium"
    if level not in LEVELS:
        raise CarcassonneError(
            f"player {kind!r}: unknown level {level!r} (expected {', '.join(LEVELS)})"
        )
    return level


__all__ = ["LEVELS", "Budget", "MctsPlayer", "determinize", "parse_level", "playout"]

"""A Monte-Carlo search player for Carcassonne.

For the drawn tile the player lists every move (placement and figure action, see
:func:`~tilelay.carcassonne.game.legal_actions`), orders them by the greedy player's one-turn
value (move ordering), and races the best ``width`` of them (plus the best move without a
figure) by *successive halving with common random numbers*: each round deals one
*determinization* of the hidden pile (the tiles not drawn yet, which every player may count, in
a random order; river tiles first while the River is open) and one playout seed, and every move
still in the race is played out with both: the same tiles in the same order and the same dice
for the greedy-biased playout policy, so that moves are compared against the same luck. The
budget is split over log2(width) phases; after each phase the worse half of the moves drops
out. A playout plays every player with a fast policy (the most connected of three random
placements; followers by a small heuristic) for :data:`ROUNDS` rounds (a tile for each player
in a round), then scores the end as if the game ended there (completed features were scored
as they closed; the others and the farms score as at the game's end): its value is the
searching player's lead. The move with the best total lead is played.

Cutting playouts off after a few rounds is an evaluation at a cut-off depth: a short playout
costs a fraction of one to the game's end, so the same time buys several times the playouts,
and the far future, which the random playout policy plays badly, no longer drowns the
difference between moves in noise. Against the greedy player, at about the same CPU time a
move (0.14-0.17 s): 300 playouts to the game's end won 84 % of 400 games (margin +22), 700
cut off after 6 rounds 90 % of 60 (+24), 600 after 10 rounds 94 % of 60 (+30) and 87 % ± 3 of
400 (+28; ``hard``, benchmarks/bench_carcassonne_bot.py).

This is a Monte-Carlo search of depth one with a bandit at the root. With tiles drawn at random
deeper trees (or UCB1 with progressive widening, tried first) paid less for their cost in
Python: measured in ``benchmarks/bench_carcassonne_bot.py``.

Levels (``mcts:easy``, ``mcts:medium``, ``mcts:hard``) set the budget; :class:`MctsPlayer` also
takes ``playouts`` and ``seconds`` directly. With a playout budget and no time limit the player is
deterministic for a given seed; every level stops at 1 s a move whatever its playouts.
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
from tilelay.carcassonne.game import Game, Player, legal_actions, region_value

Action = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a move may cost: at most ``playouts`` playouts and at most ``seconds``
    seconds (``None``: no limit of that kind)."""

    playouts: int | None
    seconds: float | None


#: The levels for people (the playouts of ``hard`` take about 0.17 s of a core).
LEVELS: dict[str, Budget] = {
    "easy": Budget(40, 1.0),
    "medium": Budget(200, 1.0),
    "hard": Budget(600, 1.0),
}

#: How many rounds (a tile for each player) a playout plays before its end is scored.
ROUNDS = 10


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


def playout(
    board: Board, pile: list[int], player: int, rng: random.Random, depth: int = 1 << 30
) -> None:
    """Play ``pile`` (drawn from the end) out on ``board`` from ``player`` on, at most
    ``depth`` tiles, then score the end as if the game ended there. Each turn looks at three
    random placements (squares of the frontier drawn at random until three fit the tile, or
    every placement when few do) and keeps the one with the most neighbours (compact boards
    complete features), then maybe places a follower (:func:`_policy_action`)."""
    players = len(board.scores)
    legal_keys = board.legal_keys
    frontier = board.frontier
    fits = board.compiled.fits
    river = board.compiled.river_types
    rand = rng.random
    neighbours = _NEIGHBOURS
    while pile and depth > 0:
        depth -= 1
        tile = pile.pop()
        key = rot = best = -1
        if not river[tile]:
            keys = list(frontier)
            n = len(keys)
            found = 0
            for _ in range(_SAMPLES):
                k = keys[int(rand() * n)]
                code = frontier[k]
                rots = fits[code][tile]
                if rots:
                    found += 1
                    if neighbours[code] > best:
                        key, best = k, neighbours[code]
                        rot = rots[int(rand() * len(rots))] if len(rots) > 1 else rots[0]
                    if found == 3:
                        break
        if key < 0:
            options = legal_keys(tile)
            if not options:
                continue
            count = len(options)
            for _ in range(3 if count > 1 else 1):
                k2, r2 = options[int(rand() * count)]
                n2 = neighbours[frontier[k2]]
                if n2 > best:
                    key, rot, best = k2, r2, n2
        board.place(tile, key, rot)
        action = _policy_action(board, player, rng)
        if action != NO_FOLLOWER:
            board.place_follower(player, action)
        board.score_turn()
        player = (player + 1) % players
    board.final_scoring()


#: Frontier squares a playout draws to find three placements before it lists them all.
_SAMPLES = 12

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
                value += 0.5 * region_value(after, node) - 1.5
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
        #: Search constants: how many of the best-ordered moves race, how many rounds a
        #: playout plays before its end is scored (:data:`ROUNDS`; ``None``: to the game's
        #: end), and what a follower left in the supply is worth then (in points, early in a
        #: game).
        self.width = 10
        self.rounds: int | None = ROUNDS
        self.follower_value = 0.0
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
        alive = order[: self.width]
        quiet = next((i for i in order if moves[i][2] == NO_FOLLOWER), None)
        if quiet is not None and quiet not in alive:
            alive.append(quiet)
        budget = self.budget
        limit = budget.playouts if budget.playouts is not None else 1 << 30
        deadline = start + budget.seconds if budget.seconds is not None else math.inf
        totals = dict.fromkeys(alive, 0.0)
        rng = self.rng
        players = len(board.scores)
        nxt = (player + 1) % players
        depth = self.rounds * players if self.rounds is not None else 1 << 30
        supply = self.follower_value * min(1.0, len(remaining) / 40.0)
        rounds = done = 0
        # successive halving with common random numbers: every move still in the race plays
        # the same determinized piles with the same playout seeds, so that the differences
        # between moves are not drowned in the luck of the draw; each of the log2(n) phases
        # gets an equal share of the budget, then the worse half drops out
        phases = max(1, math.ceil(math.log2(len(alive))))
        phase = 0
        phase_end = len(alive)  # the first round also measures the playout rate
        while len(alive) > 1 and done + len(alive) <= limit:
            now = time.perf_counter()
            if rounds and now > deadline:
                break
            if done >= phase_end:
                if rounds == 1 and deadline < math.inf:
                    limit = min(limit, done + int((deadline - now) * done / (now - start)))
                if phase > 0 and len(alive) > 2:
                    alive.sort(key=lambda i: -totals[i])
                    alive = alive[: max(2, (len(alive) + 1) // 2)]
                share = (limit - done) // max(1, phases - phase)
                phase_end = done + max(len(alive), share)
                phase += 1
            pile = determinize(board, remaining, rng)
            seed = rng.getrandbits(64)
            for i in alive:
                key, rot, action = moves[i]
                sim = board.clone()
                sim.play(tile, key, rot, player, action)
                playout(sim, pile[:], nxt, random.Random(seed), depth)
                totals[i] += _margin(sim, player, supply)
                done += 1
            rounds += 1
        self.last_playouts = done
        self.last_seconds = time.perf_counter() - start
        best = max(alive, key=lambda i: (totals[i], prior[i]))
        return moves[best]


def _margin(board: Board, player: int, supply: float) -> float:
    """The searching player's lead after a playout (whose end is scored): points, and
    followers left in the supply worth ``supply`` each."""
    scores = board.scores
    meeples = board.meeples
    mine = scores[player] + supply * meeples[player]
    other = max(
        (scores[p] + supply * meeples[p] for p in range(len(scores)) if p != player),
        default=0.0,
    )
    return mine - other


def parse_level(kind: str) -> str:
    """The level of a player kind ``mcts`` or ``mcts:LEVEL``."""
    _, colon, level = kind.partition(":")
    if not colon:
        level = "medium"  # plain ``mcts``; ``mcts:`` names no level and is refused
    if level not in LEVELS:
        raise CarcassonneError(
            f"player {kind!r}: unknown level {level!r} (expected {', '.join(LEVELS)})"
        )
    return level


__all__ = ["LEVELS", "ROUNDS", "Budget", "MctsPlayer", "determinize", "parse_level", "playout"]

"""What a game's scores are made of: the regions a turn completed, and the end-game breakdown
(points by kind of feature, during the game and at its end, and every farm city by city).

A :class:`Region` is a set of connected features on the board (a city, a road, a farm, or one
monastery or garden), named by its features ``(tile number, feature index)`` and the squares
it covers. :func:`completed_by_last_tile` gives the regions the last placed tile completed
(the features that score as it is placed); :func:`breakdown` the score sheet of a game.

Farms are broken down as the 2nd/3rd edition scores them: each farm with farmers scores 3
points per completed city it touches, to the players with the most farmers in it. With the
1st edition's farm scoring (each city scored once for all the farms that touch it)
:attr:`Breakdown.farms` is empty and the farm points are only in the lines.
"""

from __future__ import annotations

from dataclasses import dataclass

from tilelay.carcassonne.board import AROUND, FARM, Board, FarmScoring, xy_of
from tilelay.carcassonne.game import Game
from tilelay.carcassonne.tile import Kind

__all__ = [
    "SHEET_KINDS",
    "Breakdown",
    "FarmScore",
    "Region",
    "ScoreLine",
    "breakdown",
    "completed_by_last_tile",
    "region",
]


@dataclass(frozen=True, slots=True)
class Region:
    """Connected features of one kind: ``features`` as ``(tile number, feature index)`` and
    the ``squares`` ``(x, y)`` they lie on (for a monastery or garden: its own square; the
    squares around it count, but are not part of it)."""

    kind: Kind
    features: tuple[tuple[int, int], ...]
    squares: tuple[tuple[int, int], ...]

    @property
    def tiles(self) -> int:
        """How many tiles the region covers."""
        return len(self.squares)


@dataclass(frozen=True, slots=True)
class FarmScore:
    """One farm at the end: its region, each player's farmers in it, who scores, the
    completed cities it touches (3 points each) and the points each winner gets."""

    farm: Region
    farmers: tuple[int, ...]
    winners: tuple[int, ...]
    cities: tuple[Region, ...]
    points: int


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One player's points from one kind of feature: ``during`` the game (completed
    features, abbots taken back) and at the ``end`` (unfinished features, farms)."""

    player: int
    kind: Kind
    during: int
    end: int

    @property
    def total(self) -> int:
        """The line's points."""
        return self.during + self.end


@dataclass(frozen=True, slots=True)
class Breakdown:
    """A game's score sheet: a line per player and kind of feature (kinds in the order city,
    road, monastery, garden, farm; every player has every kind), the farms (see the module
    docstring) and each player's total."""

    lines: tuple[ScoreLine, ...]
    farms: tuple[FarmScore, ...]
    totals: tuple[int, ...]

    def line(self, player: int, kind: Kind) -> ScoreLine:
        """The line of ``player`` and ``kind``."""
        for line in self.lines:
            if line.player == player and line.kind is kind:
                return line
        raise KeyError((player, kind))


#: The kinds of a score sheet, in order.
SHEET_KINDS: tuple[Kind, ...] = (Kind.CITY, Kind.ROAD, Kind.MONASTERY, Kind.GARDEN, Kind.FARM)


def _tile_of(board: Board, node: int) -> tuple[int, int]:
    """``(tile number, feature index)`` of a node."""
    placed = board.placed
    lo, hi = 0, len(placed) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if placed[mid][3] <= node:
            lo = mid
        else:
            hi = mid - 1
    return lo, node - placed[lo][3]


def region(board: Board, node: int) -> Region:
    """The region of a node (a feature of a placed tile: ``placed[n][3] + feature``)."""
    root = board.find(node)
    members = [n for n in range(len(board.parent)) if board.find(n) == root]
    features = tuple(_tile_of(board, n) for n in members)
    numbers = sorted({number for number, _f in features})
    squares = tuple(sorted(xy_of(board.placed[n][2]) for n in numbers))
    return Region(Kind(board.kind[root]), features, squares)


def completed_by_last_tile(board: Board) -> list[Region]:
    """The cities, roads, monasteries and gardens the last placed tile completed (after its
    turn is scored), with or without followers on them."""
    if not board.placed:
        return []
    t, r, key, base = board.placed[board.last_tile]
    rot = board.compiled.rot
    out: list[Region] = []
    seen: set[int] = set()
    for i, kind in enumerate(rot[t][r].kinds):
        if kind > 1:  # cities and roads only; centred features below
            continue
        root = board.find(base + i)
        if root in seen or not board.done[root]:
            continue
        seen.add(root)
        out.append(region(board, base + i))
    for d in (0, *AROUND):
        number = board.grid.get(key + d)
        if number is None:
            continue
        nt, nr, _k, nbase = board.placed[number]
        centre = rot[nt][nr].monastery
        if centre < 0:
            continue
        node = nbase + centre
        if board.done[node] and board.monastery_count(node) == 9:
            out.append(region(board, node))
    return out


def _farm_scores(board: Board) -> list[FarmScore]:
    players = len(board.scores)
    out = []
    for node in range(len(board.parent)):
        if board.parent[node] != node or board.kind[node] != FARM or not board.followers[node]:
            continue
        counts = [0] * players
        for player, _n in board.followers[node]:
            counts[player] += 1
        best = max(counts)
        winners = tuple(p for p, c in enumerate(counts) if c == best)
        cities = tuple(region(board, c) for c in board.farm_cities(node) if board.opens[c] == 0)
        out.append(FarmScore(region(board, node), tuple(counts), winners, cities, 3 * len(cities)))
    out.sort(key=lambda f: (-f.points, f.farm.squares))
    return out


def breakdown(game: Game) -> Breakdown:
    """The score sheet of a game so far (at its end: the whole game)."""
    players = len(game.players)
    during: dict[tuple[int, Kind], int] = {}
    end: dict[tuple[int, Kind], int] = {}
    for turn in game.turns:
        for event in turn.events:
            for p in event.players:
                during[(p, event.kind)] = during.get((p, event.kind), 0) + event.points
    for event in game.final_events:
        for p in event.players:
            end[(p, event.kind)] = end.get((p, event.kind), 0) + event.points
    lines = tuple(
        ScoreLine(p, kind, during.get((p, kind), 0), end.get((p, kind), 0))
        for p in range(players)
        for kind in SHEET_KINDS
    )
    farms: tuple[FarmScore, ...] = ()
    if game.finished and game.rules.farm_scoring is FarmScoring.THIRD_EDITION:
        farms = tuple(_farm_scores(game.board))
    return Breakdown(lines, farms, tuple(game.board.scores))

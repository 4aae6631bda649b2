"""An independent route oracle for the tests and the route benchmark.

It finds the best routes the slow and plain way, sharing nothing with :mod:`tilelay.routes`
but the board's public API (:meth:`Board.tile_at`, the game's neighbours, tokens) and the tile
model: it walks every route from *every* stop path by path, with Python sets of the nodes,
paths and hex sides used, keeps those through a city holding the corporation's token, and
tries every combination of one route (or none) per train. The rules are those the
:mod:`tilelay.routes` docstring states, written again here from their statement.

What a train may run and earn is rated here too, from the train's own data and without
:mod:`tilelay.route_rules`: seed 003's n+m stops, towns counted or not and scoring or not,
cities double, diesels and H-trains (hex sides crossed: the route's sides), and 18xx.games'
``distance`` rows (each stop given a row naming its kind within ``visit``, the best set of
stops that fits ``pay`` and holds a token scored, times the row's multiplier) — tried every
way rather than reasoned about. A stop whose ``visit_cost`` is 0 uses none of the reach.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from tilelay.board import Board
from tilelay.tile import Edge, NodeKind, NodeRef, Path, Tile
from tilelay.tile import Node as TileNode
from tilelay.trains import Phase, ReachBase, TownCounting, TrainType

__all__ = ["OracleRoute", "best_total", "blocked", "rating", "routes_of"]

#: Combinations above this many are not tried (the oracle answers None).
LIMIT = 200_000

Node = tuple[str, int]  # (coord, node index)
PathId = tuple[str, int]  # (coord, path index)
Side = frozenset[tuple[str, int, int]]  # both (coord, edge, lane index) of a crossed side


@dataclass(frozen=True)
class OracleRoute:
    """A route as the oracle sees it: stops in order, paths and sides used."""

    stops: tuple[Node, ...]
    paths: frozenset[PathId]
    sides: frozenset[Side]


def _lane(path: Path, edge: int) -> tuple[int, int]:
    return path.a_lane if isinstance(path.a, Edge) and path.a.num == edge else path.b_lane


def _other_end(path: Path, end: Edge | NodeRef) -> Edge | NodeRef:
    return path.b if path.a == end else path.a


class _Walker:
    def __init__(self, board: Board, corporation: str, pass_blocked: bool = False) -> None:
        self.board = board
        #: whether routes may pass through blocked cities too (a game's rule then says which)
        self.pass_blocked = pass_blocked
        self.game = board.game
        self.corporation = corporation
        self.tiles: dict[str, Tile] = {c: board.tile_at(c) for c in self.game.hexes}
        self.found: dict[tuple[frozenset[PathId], frozenset[Side]], OracleRoute] = {}
        self.tokens = set(board.token_nodes(corporation))

    def kind(self, node: Node) -> NodeKind:
        return self.tiles[node[0]].nodes[node[1]].kind

    def blocked(self, node: Node) -> bool:
        """A city full of other corporations' tokens cannot be passed through."""
        coord, index = node
        tile = self.tiles[coord]
        if tile.nodes[index].kind is not NodeKind.CITY:
            return False
        city = [i for i, n in enumerate(tile.nodes) if n.kind is NodeKind.CITY].index(index)
        held = self.board.tokens.get((coord, city), ())
        slots = tile.nodes[index].slots
        return slots > 0 and len(held) >= slots and self.corporation not in held

    def paths_at(self, node: Node) -> list[int]:
        coord, index = node
        ref = NodeRef(index)
        return [j for j, p in enumerate(self.tiles[coord].paths) if not p.ignore and ref in p.ends]

    def walk_path(
        self,
        coord: str,
        j: int,
        start: Edge | NodeRef,
        stops: list[Node],
        nodes: set[Node],
        paths: set[PathId],
        sides: set[Side],
        first: bool,
    ) -> None:
        """Follow path ``j`` of ``coord`` from its end ``start`` onwards."""
        path = self.tiles[coord].paths[j]
        if (coord, j) in paths:
            return
        # a terminal path only as the first or the last path: it must end at its node
        if path.terminal and not first and not isinstance(_other_end(path, start), NodeRef):
            return
        paths = paths | {(coord, j)}
        end = _other_end(path, start)
        if isinstance(end, NodeRef):
            self.arrive((coord, end.index), stops, nodes, paths, sides, bool(path.terminal))
            return
        # across the hex side into the next hex
        edge = end.num
        other = self.game.neighbour(coord, edge)
        if other is None or self.board.impassable(coord, edge):
            return
        back = (edge + 3) % 6
        w1, i1 = _lane(path, edge)
        for k, q in enumerate(self.tiles[other].paths):
            if q.ignore or Edge(back) not in q.ends or not path.track.connects(q.track):
                continue
            w2, i2 = _lane(q, back)
            if w1 > 1 and w2 > 1 and not (w1 == w2 and i1 == w1 - 1 - i2):
                continue
            side: Side = frozenset(
                {(coord, edge, i1 if w1 > 1 else 0), (other, back, i2 if w2 > 1 else 0)}
            )
            if side in sides:
                continue
            self.walk_path(other, k, Edge(back), stops, nodes, paths, sides | {side}, False)

    def arrive(
        self,
        node: Node,
        stops: list[Node],
        nodes: set[Node],
        paths: set[PathId],
        sides: set[Side],
        by_terminal: bool,
    ) -> None:
        if node in nodes:
            return
        kind = self.kind(node)
        nodes = nodes | {node}
        if kind is NodeKind.JUNCTION:
            if by_terminal:
                return
            for j in self.paths_at(node):
                self.walk_path(node[0], j, NodeRef(node[1]), stops, nodes, paths, sides, False)
            return
        groups = set(self.tiles[node[0]].nodes[node[1]].groups)
        if any(groups & set(self.tiles[c].nodes[i].groups) for c, i in stops):
            return
        stops = [*stops, node]
        if self.tokens & set(stops):
            key = (frozenset(paths), frozenset(sides))
            self.found.setdefault(key, OracleRoute(tuple(stops), key[0], key[1]))
        if by_terminal or kind is NodeKind.OFFBOARD:
            return
        if self.blocked(node) and not self.pass_blocked:
            return
        for j in self.paths_at(node):
            self.walk_path(node[0], j, NodeRef(node[1]), stops, nodes, paths, sides, False)


def routes_of(board: Board, corporation: str, *, pass_blocked: bool = False) -> list[OracleRoute]:
    """Every legal route (any length) of ``corporation`` on ``board``, each once; with
    ``pass_blocked`` also those passing through cities other corporations' tokens fill
    (:func:`blocked` says which stops those are)."""
    walker = _Walker(board, corporation, pass_blocked)
    for coord, tile in walker.tiles.items():
        for index, node in enumerate(tile.nodes):
            if node.kind is NodeKind.JUNCTION:
                continue
            start = (coord, index)
            for j in walker.paths_at(start):
                walker.walk_path(coord, j, NodeRef(index), [start], {start}, set(), set(), True)
    return list(walker.found.values())


def blocked(board: Board, corporation: str, node: Node) -> bool:
    """Whether a route of ``corporation`` may not pass through ``node`` by the generic rule
    (a city other corporations' tokens fill)."""
    return _Walker(board, corporation).blocked(node)


def _fits(train: TrainType, kinds: Sequence[NodeKind]) -> bool:
    """Whether ``train`` (seed 003's fields) may run a route with (costed) stops of these
    kinds."""
    if train.major_stops < 0:
        return False
    towns = sum(1 for k in kinds if k is NodeKind.TOWN)
    majors = len(kinds) - towns
    unlimited = train.major_stops >= 99
    if not unlimited and majors > train.major_stops:
        return False
    counting = train.reach.count_towns
    if counting is TownCounting.NO or unlimited:
        return True
    as_minor = counting is TownCounting.MINOR or (
        counting is TownCounting.YES and train.minor_stops > 0
    )
    if not as_minor:
        return majors + towns <= train.major_stops
    minor = 10**6 if train.minor_stops >= 99 else train.minor_stops
    return towns <= minor + (train.major_stops - majors)


def _node(board: Board, stop: Node) -> TileNode:
    return board.tile_at(stop[0]).nodes[stop[1]]


def _base(board: Board, stop: Node, phase: Phase, train: TrainType) -> int:
    node = _node(board, stop)
    if node.revenue is None:
        return 0
    order = [p.name for p in board.game.phases]
    return node.revenue.at(
        phase.name, colors=phase.tiles, order=order, diesel=train.name.upper() == "D"
    )


def _value(board: Board, stop: Node, phase: Phase, train: TrainType) -> int:
    """What a stop earns a train read from seed 003's fields (or a numeric 18xx.games
    distance with a multiplier: every stop times it)."""
    node = _node(board, stop)
    value = _base(board, stop, phase, train)
    if node.kind is NodeKind.TOWN and not train.towns_score:
        return 0
    if train.multiplier != 1:
        return value * train.multiplier
    if node.kind in (NodeKind.CITY, NodeKind.OFFBOARD) and train.cities_score_double:
        return 2 * value
    return value


def _cost(node: TileNode) -> int:
    return node.visit_cost


def _assignable(kinds: Sequence[str], rows: Sequence[tuple[set[str], int]]) -> bool:
    """Whether each stop (by kind) can be given a row naming its kind, within each row's
    limit: tried every way."""
    choices = [[i for i, (names, _) in enumerate(rows) if kind in names] for kind in kinds]
    if any(not c for c in choices):
        return False
    for pick in itertools.product(*choices):
        used = [0] * len(rows)
        for i in pick:
            used[i] += 1
        if all(used[i] <= rows[i][1] for i in range(len(rows))):
            return True
    return False


def _rows_rating(
    board: Board, stops: Sequence[Node], phase: Phase, train: TrainType, tokens: set[Node]
) -> int | None:
    """The revenue of a route for a train given by 18xx.games' distance rows, or None when
    it may not run it: the costed stops must fit the rows' ``visit``; the train scores the
    best set of stops that fits their ``pay`` and holds a token."""
    rows = train.allowances
    kinds = [_node(board, s).kind.value for s in stops]
    costed = [k for s, k in zip(stops, kinds, strict=True) if _cost(_node(board, s))]
    if not _assignable(costed, [(set(r.kinds), min(r.visit, 10**6)) for r in rows]):
        return None
    multiplier: dict[str, int] = {}
    for kind in ("city", "town", "offboard"):
        first = next((r for r in rows if kind in r.kinds), None)
        m = train.multiplier if first is None or first.multiplier is None else first.multiplier
        multiplier[kind] = m
    pay_rows = [(set(r.kinds), min(r.pay, 10**6)) for r in rows]
    best: int | None = None
    for size in range(len(stops), 0, -1):
        for chosen in itertools.combinations(range(len(stops)), size):
            if not any(stops[i] in tokens for i in chosen):
                continue
            if not _assignable([kinds[i] for i in chosen], pay_rows):
                continue
            value = sum(_base(board, stops[i], phase, train) * multiplier[kinds[i]] for i in chosen)
            best = value if best is None else max(best, value)
    return best


def rating(
    board: Board, route: OracleRoute, phase: Phase, train: TrainType, tokens: set[Node]
) -> int | None:
    """The revenue of ``route`` for ``train``, or None when the train may not run it."""
    if train.major_stops < 0 or len(route.stops) < 2:
        return None
    if train.allowances:
        return _rows_rating(board, route.stops, phase, train, tokens)
    if train.reach.base is ReachBase.HEXES:
        # an H-train: as many hex sides crossed as its number, any number of stops
        if train.major_stops < 99 and len(route.sides) > train.major_stops:
            return None
    else:
        kinds = [_node(board, s).kind for s in route.stops if _cost(_node(board, s))]
        if not _fits(train, kinds):
            return None
    return sum(_value(board, s, phase, train) for s in route.stops)


def best_total(
    board: Board,
    corporation: str,
    phase: Phase,
    trains: Sequence[TrainType],
    pools: Sequence[int] | None = None,
) -> int | None:
    """The best total revenue of ``trains`` together (None: too many combinations to try).

    ``pools`` gives each train a kind of its own (18 Los Angeles' passenger and freight
    trains): the routes of trains of one kind share no track, those of different kinds may.
    Without it every train is of one kind."""
    kinds = list(pools) if pools is not None else [0] * len(trains)
    routes = routes_of(board, corporation)
    tokens = set(board.token_nodes(corporation))
    options: list[list[tuple[int, OracleRoute] | None]] = []
    size = 1
    for train in trains:
        opts: list[tuple[int, OracleRoute] | None] = [None]
        for r in routes:
            value = rating(board, r, phase, train, tokens)
            if value is not None:
                opts.append((value, r))
        options.append(opts)
        size *= len(opts)
    if size > LIMIT:
        return None
    best = 0
    for combo in itertools.product(*options):
        used_paths: dict[int, set[PathId]] = {}
        used_sides: dict[int, set[Side]] = {}
        ok = True
        total = 0
        for kind, choice in zip(kinds, combo, strict=True):
            if choice is None:
                continue
            value, r = choice
            paths = used_paths.setdefault(kind, set())
            sides = used_sides.setdefault(kind, set())
            if paths & r.paths or sides & r.sides:
                ok = False
                break
            paths |= r.paths
            sides |= r.sides
            total += value
        if ok:
            best = max(best, total)
    return best

"""Routes: which runs a corporation's trains may make on a board, their revenue, and the best.

The rules are those 18xx.games applies to 1889, 1830 and 18Chesapeake:

* a route walks along track **segments** (paths), never from city to city directly; it starts
  and ends at stops (city, town, offboard) and visits at least two stops;
* it never visits a node twice, and never uses a path or a hex side twice. A side with lanes
  carries one track per lane: the side of each lane is counted separately (lane indices seen
  from the hex the side is first numbered from);
* it passes through junctions; every city and town it passes through is a stop and counts
  against the train (no skipping);
* it cannot pass *through* an offboard, nor through a city whose slots are all filled by other
  corporations' tokens (it may start or end there); a ``terminal`` path may only be the first
  or last path of a route (the route stops at its node);
* no two stops of the same group (:attr:`tilelay.tile.Node.groups`);
* it includes at least one city holding the running corporation's token;
* a corporation's routes never share a path or a hex side.

Train lengths come from :class:`tilelay.trains.TrainType`: cities and offboards use major
stops; towns use minor stops or spare major ones (or nothing, when towns do not count); a
diesel (999) is unlimited. Revenue is the sum of the stops' revenues in the phase
(:meth:`tilelay.tile.Revenue.at`), cities and offboards counted twice for a train whose cities score
double, towns left out for a train whose towns do not score.

The search (:class:`RoutePlanner`, :func:`best_routes`) enumerates every legal route through
each of the corporation's token cities (two "arms" walked depth first from the token, path ends
and used track as plain ints), then chooses one route per train by an exact branch and bound
(routes sorted by revenue, bounded by the best remaining route per train).

>>> from tilelay.board import Board
>>> from tilelay.games import load_game
>>> from tilelay.catalogue import get_tile
>>> board = Board(load_game("1889")).with_home_tokens(["KO"]).lay("J3", get_tile("8"), 3)
>>> result = best_routes(board, "KO", ["2"], "2")
>>> result.revenue, result.routes[0].hexes
(50, ('J1', 'J3', 'K4'))
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tilelay.board import Board, TrackGraph
from tilelay.errors import TilelayError
from tilelay.tile import Edge, NodeKind, Path
from tilelay.trains import Phase, TrainType

__all__ = [
    "Route",
    "RouteError",
    "RoutePlanner",
    "RunResult",
    "best_routes",
    "route_revenue",
]

_JUNCTION, _CITY, _TOWN, _OFFBOARD = 0, 1, 2, 3
_KIND_CODE = {
    NodeKind.JUNCTION: _JUNCTION,
    NodeKind.CITY: _CITY,
    NodeKind.TOWN: _TOWN,
    NodeKind.OFFBOARD: _OFFBOARD,
}
_BIG = 1 << 30

Stop = tuple[str, int]


class RouteError(TilelayError, ValueError):
    """A route that is not legal, or a request the router cannot answer."""


@dataclass(frozen=True, slots=True)
class Route:
    """One train's run: ``stops`` as ``(coord, node index)`` in order, the ``hexes`` passed in
    order (a hex entered twice in a row listed once), the ``paths`` as ``(coord, path index)``
    in order, and the ``revenue`` for ``train``."""

    train: str
    stops: tuple[Stop, ...]
    hexes: tuple[str, ...]
    paths: tuple[tuple[str, int], ...]
    revenue: int


@dataclass(frozen=True, slots=True)
class RunResult:
    """The best routes of a corporation's trains: one :class:`Route` per train that runs
    (trains that cannot run are left out), the total ``revenue``, the ``phase`` name and how
    many distinct routes were enumerated (``candidates``)."""

    corporation: str
    phase: str
    routes: tuple[Route, ...]
    revenue: int
    candidates: int


# ------------------------------------------------------------------------------ the network


class _Net:
    """The board's track graph seen by one corporation, as flat lists for the walkers."""

    def __init__(self, board: Board, corporation: str) -> None:
        g = board.track_graph()
        self.board = board
        self.graph = g
        n_paths = len(g.paths)
        self.pathbit = [1 << p for p in range(n_paths)]
        tiles = {coord: board.tile_at(coord) for coord in {c for c, _ in g.nodes + g.paths}}
        # hex sides, one per lane: bit numbers above the paths' bits
        side_bits: dict[tuple[int, int], int] = {}
        sidebit = [0] * len(g.end_node)
        for e, s in enumerate(g.end_side):
            if s < 0:
                continue
            coord, j = g.paths[e >> 1]
            path = tiles[coord].paths[j]
            width, index = _lane_at(path, e & 1)
            if width > 1 and g.sides[s][0] != coord:
                index = width - 1 - index
            key = (s, index if width > 1 else 0)
            bit = side_bits.get(key)
            if bit is None:
                bit = n_paths + len(side_bits)
                side_bits[key] = bit
            sidebit[e] = 1 << bit
        self.sidebit = sidebit
        tokens = board.tokens
        kinds: list[int] = []
        passable: list[bool] = []
        group_bits: dict[str, int] = {}
        groups: list[int] = []
        self.token_nodes: list[int] = []
        for n, (coord, i) in enumerate(g.nodes):
            tile = tiles[coord]
            node = tile.nodes[i]
            kind = _KIND_CODE[node.kind]
            kinds.append(kind)
            ok = kind in (_JUNCTION, _TOWN)
            if kind == _CITY:
                city_index = sum(1 for m in tile.nodes[:i] if m.kind is NodeKind.CITY)
                here = tokens.get((coord, city_index), ())
                if corporation in here:
                    self.token_nodes.append(n)
                ok = corporation in here or node.slots <= 0 or len(here) < node.slots
            passable.append(ok)
            mask = 0
            for name in node.groups:
                mask |= 1 << group_bits.setdefault(name, len(group_bits))
            groups.append(mask)
        self.kind = kinds
        self.passable = passable
        self.groups = groups
        self.nodes_revenue = [tiles[c].nodes[i].revenue for c, i in g.nodes]
        self._enumerated: dict[tuple[int, int, int], dict[int, _Raw]] = {}

    def enumerate(self, max_major: int, max_total: int, towns_count: int) -> dict[int, _Raw]:
        """Every legal route within these limits, keyed by its track mask (cached)."""
        key = (max_major, max_total, towns_count)
        found = self._enumerated.get(key)
        if found is None:
            found = _enumerate(self, max_major, max_total, towns_count)
            self._enumerated[key] = found
        return found


# A raw route: (stop node ids in order, entering path ends in order, majors, towns)
_Raw = tuple[tuple[int, ...], tuple[int, ...], int, int]


def _lane_at(path: Path, which: int) -> tuple[int, int]:
    end = path.a if which == 0 else path.b
    assert isinstance(end, Edge)
    return path.a_lane if which == 0 else path.b_lane


def _enumerate(net: _Net, max_major: int, max_total: int, towns_count: int) -> dict[int, _Raw]:
    """Enumerate routes through the corporation's token cities: arm 1 walked from a token T,
    and at each stop where it may end, arm 2 walked from T with the first arm's track used
    (its first path end numbered above arm 1's, so that each pair is walked once)."""
    g: TrackGraph = net.graph
    end_node = g.end_node
    links = g.links
    node_ends = g.node_ends
    terminal = g.terminal
    pathbit = net.pathbit
    sidebit = net.sidebit
    kind = net.kind
    passable = net.passable
    groups = net.groups
    visited = bytearray(len(g.nodes))
    found: dict[int, _Raw] = {}
    trail1: list[int] = []
    stops1: list[int] = []
    trail2: list[int] = []
    stops2: list[int] = []
    # [token node, arm 1's first end, whether arm 1 left the token by a terminal path]
    state = [0, -1, 0]

    def emit(used: int, majors: int, towns: int) -> None:
        if used in found:
            return
        t = state[0]
        stops = (*reversed(stops1), t, *stops2)
        ends = (*[e ^ 1 for e in reversed(trail1)], *trail2)
        found[used] = (stops, ends, majors, towns)

    def cross(o: int, used: int, majors: int, towns: int, gmask: int, arm: int, term: bool) -> None:
        m = end_node[o]
        if m >= 0:
            arrive(m, used, majors, towns, gmask, arm, term)
            return
        sb = sidebit[o]
        if used & sb:
            return
        trail = trail1 if arm == 1 else trail2
        for f in links[o]:
            p = f >> 1
            pb = pathbit[p]
            if used & pb:
                continue
            trail.append(f)
            cross(f ^ 1, used | sb | pb, majors, towns, gmask, arm, terminal[p])
            trail.pop()

    def leave(n: int, used: int, majors: int, towns: int, gmask: int, arm: int, low: int) -> None:
        t = state[0]
        trail = trail1 if arm == 1 else trail2
        for e in node_ends[n]:
            if e <= low:
                continue
            p = e >> 1
            pb = pathbit[p]
            if used & pb:
                continue
            # a terminal path only as a route's first path, leaving the route's starting node
            if terminal[p] and not (n == t and arm == 1 and not trail1):
                continue
            if n == t and arm == 1 and not trail1:
                state[1] = e
                state[2] = 1 if terminal[p] else 0
            trail.append(e)
            cross(e ^ 1, used | pb, majors, towns, gmask, arm, False)
            trail.pop()

    def arrive(
        m: int, used: int, majors: int, towns: int, gmask: int, arm: int, term: bool
    ) -> None:
        if visited[m]:
            return
        k = kind[m]
        if k == _JUNCTION:
            if term:
                return
            visited[m] = 1
            leave(m, used, majors, towns, gmask, arm, -1)
            visited[m] = 0
            return
        gm = groups[m]
        if gm & gmask:
            return
        if k == _TOWN:
            towns += 1
        else:
            majors += 1
        if majors > max_major or majors + towns * towns_count > max_total:
            return
        gmask |= gm
        visited[m] = 1
        stops = stops1 if arm == 1 else stops2
        stops.append(m)
        emit(used, majors, towns)
        if arm == 1 and not state[2]:
            first = state[1]
            leave(state[0], used, majors, towns, gmask, 2, first)
        if passable[m] and not term and k != _OFFBOARD:
            leave(m, used, majors, towns, gmask, arm, -1)
        stops.pop()
        visited[m] = 0

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        for t in net.token_nodes:
            state[0] = t
            visited[t] = 1
            k = kind[t]
            start_towns = 1 if k == _TOWN else 0
            leave(t, 0, 1 - start_towns, start_towns, groups[t], 1, -1)
            visited[t] = 0
    finally:
        sys.setrecursionlimit(limit)
    return found


# ------------------------------------------------------------------------------ the planner


def _limits(train: TrainType) -> tuple[int, int, int]:
    """(max majors, max majors + counted towns, whether towns count) for a train."""
    major = train.max_major_stops
    minor = train.max_minor_stops
    if not train.runs:
        return (0, 0, 1)
    m = _BIG if major is None else major
    kind = train.town_stop_kind
    if kind is None:
        return (m, _BIG, 0)
    if kind == "major":
        return (m, m, 1)
    extra = _BIG if minor is None else minor
    return (m, min(_BIG, m + extra), 1)


def _fits(train: TrainType, majors: int, towns: int) -> bool:
    if not train.runs or majors + towns < 2:
        return False
    major = train.max_major_stops
    if major is not None and majors > major:
        return False
    kind = train.town_stop_kind
    if kind is None or major is None:
        return True
    if kind == "major":
        return majors + towns <= major
    minor = train.max_minor_stops
    if minor is None:
        return True
    return towns <= minor + (major - majors)


class RoutePlanner:
    """Routes of one corporation on one board in one phase (enumerations are cached).

    ``phase`` is a :class:`Phase` or a phase name of the board's game.
    """

    def __init__(self, board: Board, corporation: str, phase: Phase | str) -> None:
        game = board.game
        game.corporation(corporation)  # NotFoundError with close symbols
        self.board = board
        self.corporation = corporation
        self.phase = game.trains.phase(phase) if isinstance(phase, str) else phase
        self._net = _Net(board, corporation)

    def train(self, train: TrainType | str) -> TrainType:
        """A train type, or the game's train type of that name (:class:`NotFoundError`)."""
        if isinstance(train, TrainType):
            return train
        return self.board.game.trains.train_type(train)

    # --------------------------------------------------------------- enumeration

    def _raw(self, trains: Sequence[TrainType]) -> dict[int, _Raw]:
        limits = [_limits(t) for t in trains if t.runs]
        if not limits:
            return {}
        major = max(lim[0] for lim in limits)
        total = max(lim[1] for lim in limits)
        count = min(lim[2] for lim in limits)
        return self._net.enumerate(major, total, count)

    def _node_values(self, train: TrainType) -> list[int]:
        values: list[int] = []
        double = train.cities_score_double
        towns = train.towns_score
        phase = self.phase
        order = [p.name for p in self.board.game.phases]
        diesel = train.name.upper() == "D"
        for rev, k in zip(self._net.nodes_revenue, self._net.kind, strict=True):
            v = (
                0
                if rev is None
                else rev.at(phase.name, colors=phase.tiles, order=order, diesel=diesel)
            )
            if k == _TOWN and not towns:
                v = 0
            elif k in (_CITY, _OFFBOARD) and double:
                v *= 2
            values.append(v)
        return values

    def _scored(self, train: TrainType, raw: dict[int, _Raw]) -> list[tuple[int, int, _Raw]]:
        """(revenue, track mask, raw route) for the routes ``train`` may run, best first."""
        values = self._node_values(train)
        out = [
            (sum(values[n] for n in r[0]), mask, r)
            for mask, r in raw.items()
            if _fits(train, r[2], r[3])
        ]
        out.sort(key=lambda x: -x[0])
        return out

    def _route(self, train: TrainType, revenue: int, raw: _Raw) -> Route:
        g = self._net.graph
        paths = tuple(g.paths[e >> 1] for e in raw[1])
        hexes: list[str] = []
        for coord, _ in paths:
            if not hexes or hexes[-1] != coord:
                hexes.append(coord)
        stops = tuple(g.nodes[n] for n in raw[0])
        return Route(train.name, stops, tuple(hexes), paths, revenue)

    def candidates(self, train: TrainType | str) -> list[Route]:
        """Every legal route of ``train`` for the corporation, best revenue first."""
        t = self.train(train)
        return [self._route(t, rev, r) for rev, _, r in self._scored(t, self._raw([t]))]

    def find(self, train: TrainType | str, route: Sequence[str] | Sequence[Stop]) -> list[Route]:
        """The legal routes of ``train`` matching ``route`` in either direction, best first.

        ``route`` is the sequence of hexes the route passes (a hex entered twice in a row listed
        once) or of its stops as ``(coord, node index)``.
        """
        want = [x for x in route]
        if not want:
            return []
        by_stops = not isinstance(want[0], str)
        forward = tuple(want)
        backward = tuple(reversed(want))
        out = []
        for r in self.candidates(train):
            key: tuple[object, ...] = r.stops if by_stops else r.hexes
            if key in (forward, backward):
                out.append(r)
        return out

    # --------------------------------------------------------------- the optimum

    def best(self, trains: Iterable[TrainType | str]) -> RunResult:
        """The best routes for ``trains`` together (exact; see the module docstring)."""
        types = [self.train(t) for t in trains]
        raw = self._raw(types)
        # trains with more reach first: their lists bound the search best
        order = sorted(
            range(len(types)),
            key=lambda i: (-_limits(types[i])[1], -_limits(types[i])[0], types[i].name),
        )
        scored_by_name: dict[str, list[tuple[int, int, _Raw]]] = {}
        lists: list[list[tuple[int, int, _Raw]]] = []
        for i in order:
            t = types[i]
            if t.name not in scored_by_name:
                scored_by_name[t.name] = self._scored(t, raw)
            lists.append(scored_by_name[t.name])
        same = [i > 0 and types[order[i]] == types[order[i - 1]] for i in range(len(order))]
        total, picks = _choose(
            [[x[0] for x in lst] for lst in lists], [[x[1] for x in lst] for lst in lists], same
        )
        routes: list[Route] = []
        for slot, j in enumerate(picks):
            if j < 0:
                continue
            rev, _, r = lists[slot][j]
            routes.append(self._route(types[order[slot]], rev, r))
        return RunResult(self.corporation, self.phase.name, tuple(routes), total, len(raw))


def _choose(
    revenues: list[list[int]], masks: list[list[int]], same: list[bool]
) -> tuple[int, list[int]]:
    """Branch and bound: one route (index, or -1 for none) per list, masks disjoint, the
    largest total. Lists are sorted by revenue, best first; ``same[i]`` says list ``i`` belongs
    to the same train type as list ``i - 1`` (then its route index is larger, or both run
    nothing), which removes symmetric solutions."""
    n = len(revenues)
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + (revenues[i][0] if revenues[i] else 0)
    picks = [-1] * n
    best_picks = [-1] * n
    best = [0]
    # a greedy start
    used = 0
    total = 0
    for i in range(n):
        for j, mask in enumerate(masks[i]):
            if not mask & used:
                used |= mask
                total += revenues[i][j]
                best_picks[i] = j
                break
    best[0] = total

    def go(i: int, used: int, total: int, start: int) -> None:
        if i == n:
            if total > best[0]:
                best[0] = total
                best_picks[:] = picks
            return
        if total + suffix[i] <= best[0]:
            return
        rest = suffix[i + 1]
        revs = revenues[i]
        msks = masks[i]
        first = start if same[i] else 0
        nxt_same = i + 1 < n and same[i + 1]
        ceiling = best[0] - total - rest
        for j in range(first, len(revs)):
            rev = revs[j]
            if rev <= ceiling:
                break
            mask = msks[j]
            if mask & used:
                continue
            picks[i] = j
            go(i + 1, used | mask, total + rev, j + 1)
            ceiling = best[0] - total - rest
        picks[i] = -1
        if total + rest > best[0]:
            go(i + 1, used, total, len(revs) if nxt_same else 0)

    go(0, 0, 0, 0)
    return best[0], best_picks


# ------------------------------------------------------------------------------ functions


def best_routes(
    board: Board,
    corporation: str,
    trains: Iterable[TrainType | str],
    phase: Phase | str,
) -> RunResult:
    """The best routes of ``corporation``'s ``trains`` on ``board`` in ``phase`` (exact).

    Trains are :class:`TrainType` s or names of the game's trains; the phase a :class:`Phase`
    or a phase name. Unknown names raise :class:`~tilelay.errors.NotFoundError`.
    """
    return RoutePlanner(board, corporation, phase).best(trains)


def route_revenue(
    board: Board,
    corporation: str,
    train: TrainType | str,
    route: Sequence[str] | Sequence[Stop],
    phase: Phase | str,
) -> int:
    """The revenue of a given route (hexes passed, or stops as ``(coord, node index)``).

    Raises :class:`RouteError` when no legal route of the train matches. When several do (the
    hexes do not say which city of a hex), the best of them counts.
    """
    planner = RoutePlanner(board, corporation, phase)
    found = planner.find(train, route)
    if not found:
        shown = "-".join(x if isinstance(x, str) else f"{x[0]}.{x[1]}" for x in route)
        raise RouteError(
            f"no legal route {shown} for train {planner.train(train).name} of {corporation}"
        )
    return found[0].revenue

"""Routes: which runs a corporation's trains may make on a board, their revenue, and the best.

The generic rules (those 18xx.games applies to 1889, 1830 and 18Chesapeake):

* a route walks along track **segments** (paths), never from city to city directly; it starts
  and ends at stops (city, town, offboard) and visits at least two stops;
* it never visits a node twice, and never uses a path or a hex side twice. A side with lanes
  carries one track per lane: the side of each lane is counted separately (lane indices seen
  from the hex the side is first numbered from);
* it passes through junctions; every city and town it passes through is visited (no
  skipping), though an express train scores only its best stops;
* it cannot pass *through* an offboard, nor through a city whose slots are all filled by other
  corporations' tokens (it may start or end there); a ``terminal`` path may only be the first
  or last path of a route (the route stops at its node);
* no two stops of the same group (:attr:`tilelay.tile.Node.groups`);
* it includes at least one city holding the running corporation's token;
* a corporation's routes never share a path or a hex side.

What a train may visit and what it scores is :mod:`tilelay.route_rules` (a
:class:`~tilelay.route_rules.TrainSpec` per train: stop classes, n+m, express, H-trains,
multipliers); what one game adds (bonuses, penalties, its own legality, blocked hexes) is its
:class:`~tilelay.rules.GameRules`, found by :func:`tilelay.rules.rules_for`. A train the router
cannot rate exactly raises :class:`~tilelay.route_rules.UnsupportedTrain`.

The search (:class:`RoutePlanner`, :func:`best_routes`) enumerates every legal route through
each of the corporation's token cities (two "arms" walked depth first from the token, path ends
and used track as plain ints, cut off where no train could run the route any more), rates each
for each train, then chooses one route per train by an exact branch and bound (routes sorted
by revenue, bounded by the best remaining route per train, plus the most the game's whole-run
rule can add; each complete run evaluated exactly).

>>> from tilelay.board import Board, TrackGraph
>>> from tilelay.games import load_game
>>> from tilelay.catalogue import get_tile
>>> board = Board(load_game("1889")).with_home_tokens(["KO"]).lay("J3", get_tile("8"), 3)
>>> result = best_routes(board, "KO", ["2"], "2")
>>> result.revenue, result.routes[0].hexes
(50, ('J1', 'J3', 'K4'))
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from tilelay.board import Board, TrackGraph
from tilelay.errors import TilelayError
from tilelay.route_rules import CITY, OFFBOARD, TOWN, TrainSpec, UnsupportedTrain
from tilelay.rules import GameRules, RouteContext, RouteView, RunFacts, rules_for
from tilelay.trains import Phase, TrainType

__all__ = [
    "Route",
    "RouteError",
    "RoutePlanner",
    "RunResult",
    "UnsupportedTrain",
    "best_routes",
    "route_revenue",
]

_BIG = 1 << 30

Stop = tuple[str, int]


class RouteError(TilelayError, ValueError):
    """A route that is not legal, or a request the router cannot answer."""


@dataclass(frozen=True, slots=True)
class Route:
    """One train's run: ``stops`` as ``(coord, node index)`` in order, the ``hexes`` passed in
    order (a hex entered twice in a row listed once), the ``paths`` as ``(coord, path index)``
    in order, and the ``revenue`` for ``train``. ``scored`` lists the stops the train scores
    (all of ``stops`` but for an express train); ``bonus`` is the part of ``revenue`` the
    game's rules add for the route as a whole (an east-west run, an offboard pair)."""

    train: str
    stops: tuple[Stop, ...]
    hexes: tuple[str, ...]
    paths: tuple[tuple[str, int], ...]
    revenue: int
    scored: tuple[Stop, ...] = ()
    bonus: int = 0


@dataclass(frozen=True, slots=True)
class RunResult:
    """The best routes of a corporation's trains: one :class:`Route` per train that runs
    (trains that cannot run are left out), the total ``revenue``, the ``phase`` name and how
    many distinct routes were enumerated (``candidates``). ``run_bonus`` is what the game's
    whole-run rule adds to the routes' sum (negative for a penalty)."""

    corporation: str
    phase: str
    routes: tuple[Route, ...]
    revenue: int
    candidates: int
    run_bonus: int = 0


# ------------------------------------------------------------------------------ the network

# A raw route: (stop node ids in order, entering path ends in order, cities, towns, offboards,
# hex sides crossed)
_Raw = tuple[tuple[int, ...], tuple[int, ...], int, int, int, int]
# A rated route: (revenue, track mask, raw route, scored node ids, bonus)
_Rated = tuple[int, int, _Raw, tuple[int, ...], int]


class _Reach:
    """Where the enumeration may stop walking: a route (stop counts by class, hex sides
    crossed) that no train of the set could run, nor any longer route through it."""

    def __init__(self, specs: Sequence[TrainSpec]) -> None:
        self.specs = [s for s in specs if s.runs]
        limits = [s.hexes for s in self.specs]
        self.uses_hexes = any(h is not None for h in limits)
        bounded = [h for h in limits if h is not None]
        self.max_hexes = _BIG if len(bounded) < len(limits) else max(bounded, default=0)
        self.memo: dict[tuple[int, int, int, int], bool] = {}
        self.key = tuple(sorted({(s.rows, s.hexes) for s in self.specs}, key=repr))

    def ok(self, c: int, t: int, o: int, x: int) -> bool:
        key = (c, t, o, x if self.uses_hexes else 0)
        found = self.memo.get(key)
        if found is None:
            counts = (c, t, o)
            found = any(s.fits(counts) and (s.hexes is None or x <= s.hexes) for s in self.specs)
            self.memo[key] = found
        return found


class _Net:
    """The board's track graph seen by one corporation, as flat lists for the walkers."""

    def __init__(self, ctx: RouteContext) -> None:
        g = ctx.graph
        board = ctx.board
        self.ctx = ctx
        self.graph = g
        memo = board.memo
        bits = memo.get("routes.bits")
        if bits is None:
            bits = memo["routes.bits"] = _track_bits(board, g)
        assert isinstance(bits, tuple)
        self.pathbit: list[int] = bits[0]
        self.sidebit: list[int] = bits[1]
        rules = ctx.rules
        self.kind = ctx.classes
        self.cost = ctx.costs
        self.passable = [rules.passable(ctx, n) for n in range(len(g.nodes))]
        group_bits: dict[str, int] = {}
        for node in ctx.nodes:
            for name in node.groups:
                group_bits.setdefault(name, len(group_bits))
        groups: list[int] = []
        hex_bits: dict[str, int] = {}
        per_hex = rules.one_stop_per_hex
        for node, coord in zip(ctx.nodes, ctx.coords, strict=True):
            mask = 0
            for name in node.groups:
                mask |= 1 << group_bits[name]
            if per_hex and node.is_stop:
                # one stop per hex: the hex as a group of its own (bits above the groups')
                mask |= 1 << (len(group_bits) + hex_bits.setdefault(coord, len(hex_bits)))
            groups.append(mask)
        self.groups = groups
        self.token_nodes = [n for n, held in enumerate(ctx.tokened) if held]
        self._enumerated: dict[object, dict[int, _Raw]] = {}
        self._chains: list[list[_Chain] | None] | None = None

    def chains(self) -> list[list[_Chain] | None]:
        """The track from each node's path ends to the next stops, walked when first asked
        for (:meth:`chain`) and kept with the board (it is the same for every corporation)."""
        if self._chains is None:
            memo = self.ctx.board.memo
            found = memo.get("routes.chains")
            if found is None:
                found = memo["routes.chains"] = [None] * len(self.graph.end_node)
            self._chains = found  # type: ignore[assignment]
        assert self._chains is not None
        return self._chains

    def chain(self, e: int) -> list[_Chain]:
        """The chains of track from path end ``e`` (at a node) to the next stops."""
        chains = self.chains()
        found = chains[e]
        if found is None:
            found = chains[e] = _chains_from(self, e)
        return found

    def enumerate(self, reach: _Reach) -> dict[int, _Raw]:
        """Every legal route within ``reach``, keyed by its track mask (cached)."""
        found = self._enumerated.get(reach.key)
        if found is None:
            found = _enumerate(self, reach)
            self._enumerated[reach.key] = found
        return found


# A chain of track from a node to the next stop: (the stop's node id, the paths and sides it
# uses as a mask, hex sides crossed, the path ends entered in order, the junctions passed,
# whether its last path is terminal)
_Chain = tuple[int, int, int, tuple[int, ...], tuple[int, ...], bool]


def _track_bits(board: Board, g: TrackGraph) -> tuple[list[int], list[int]]:
    """A bit for each path, and for each path end at a hex side the bit of the track it uses
    there (one per side, or per lane: :attr:`TrackGraph.end_lane`), above the paths' bits."""
    n_paths = len(g.paths)
    pathbit = [1 << p for p in range(n_paths)]
    sidebit = [0 if lane < 0 else 1 << (n_paths + lane) for lane in g.end_lane]
    return pathbit, sidebit


def _chains_from(net: _Net, start: int) -> list[_Chain]:
    """Every way along the track from path end ``start`` (at a node) to the next stop
    (through plain track and junctions, never using a path, hex side or junction twice)."""
    g = net.graph
    end_node = g.end_node
    links = g.links
    node_ends = g.node_ends
    terminal = g.terminal
    pathbit = net.pathbit
    sidebit = net.sidebit
    kind = net.kind
    out: list[_Chain] = []
    ends: list[int] = [start]
    junctions: list[int] = []

    def cross(o: int, used: int, x: int, term: bool) -> None:
        m = end_node[o]
        if m >= 0:
            if kind[m] >= 0:
                last = term if len(ends) > 1 else False
                out.append((m, used, x, tuple(ends), tuple(junctions), last))
                return
            if term or m in junctions:
                return
            junctions.append(m)
            for f in node_ends[m]:
                p = f >> 1
                pb = pathbit[p]
                if used & pb or terminal[p]:
                    continue
                ends.append(f)
                cross(f ^ 1, used | pb, x, False)
                ends.pop()
            junctions.pop()
            return
        sb = sidebit[o]
        if used & sb:
            return
        for f in links[o]:
            p = f >> 1
            pb = pathbit[p]
            if used & pb:
                continue
            ends.append(f)
            cross(f ^ 1, used | sb | pb, x + 1, terminal[p])
            ends.pop()

    cross(start ^ 1, pathbit[start >> 1], 0, False)
    return out


def _enumerate(net: _Net, reach: _Reach) -> dict[int, _Raw]:
    """Enumerate routes through the corporation's token cities: arm 1 walked from a token T,
    and at each stop where it may end, arm 2 walked from T with the first arm's track used
    (its first path end numbered above arm 1's, so that each pair is walked once). Arms move
    from stop to stop along the precomputed chains (:func:`_chains`)."""
    g = net.graph
    node_ends = g.node_ends
    terminal = g.terminal
    pathbit = net.pathbit
    kind = net.kind
    cost = net.cost
    passable = net.passable
    groups = net.groups
    chains = net.chains()
    chain_of = net.chain
    ok = reach.ok
    max_x = reach.max_hexes
    visited = bytearray(len(g.nodes))
    found: dict[int, _Raw] = {}
    trail1: list[int] = []
    stops1: list[int] = []
    trail2: list[int] = []
    stops2: list[int] = []
    # [token node, arm 1's first end, whether arm 1 left the token by a terminal path]
    state = [0, -1, 0]

    def emit(used: int, c: int, t: int, o: int, x: int) -> None:
        if used in found:
            return
        start = state[0]
        stops = (*reversed(stops1), start, *stops2)
        ends = (*[e ^ 1 for e in reversed(trail1)], *trail2)
        found[used] = (stops, ends, c, t, o, x)

    def leave(
        n: int, used: int, c: int, t: int, o: int, x: int, gmask: int, arm: int, low: int
    ) -> None:
        trail = trail1 if arm == 1 else trail2
        first_of_route = n == state[0] and arm == 1 and not trail1
        for e in node_ends[n]:
            if e <= low:
                continue
            p = e >> 1
            if used & pathbit[p]:
                continue
            # a terminal path only as a route's first path, leaving the route's starting node
            if terminal[p] and not first_of_route:
                continue
            if first_of_route:
                state[1] = e
                state[2] = 1 if terminal[p] else 0
            found = chains[e]
            if found is None:
                found = chain_of(e)
            for m, mask, cx, cends, juncs, term in found:
                if used & mask or visited[m]:
                    continue
                nx = x + cx
                if nx > max_x:
                    continue
                if juncs:
                    if any(visited[j] for j in juncs):
                        continue
                    for j in juncs:
                        visited[j] = 1
                trail.extend(cends)
                arrive(m, used | mask, c, t, o, nx, gmask, arm, term)
                del trail[len(trail) - len(cends) :]
                for j in juncs:
                    visited[j] = 0

    def arrive(
        m: int, used: int, c: int, t: int, o: int, x: int, gmask: int, arm: int, term: bool
    ) -> None:
        gm = groups[m]
        if gm & gmask:
            return
        k = kind[m]
        if k == CITY:
            c += cost[m]
        elif k == TOWN:
            t += cost[m]
        else:
            o += cost[m]
        if not ok(c, t, o, x):
            return
        gmask |= gm
        visited[m] = 1
        stops = stops1 if arm == 1 else stops2
        stops.append(m)
        emit(used, c, t, o, x)
        if arm == 1 and not state[2]:
            leave(state[0], used, c, t, o, x, gmask, 2, state[1])
        if passable[m] and not term and k != OFFBOARD:
            leave(m, used, c, t, o, x, gmask, arm, -1)
        stops.pop()
        visited[m] = 0

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        for start in net.token_nodes:
            k = kind[start]
            if k < 0:
                continue
            w = cost[start]
            c0, t0, o0 = w * (k == CITY), w * (k == TOWN), w * (k == OFFBOARD)
            if not ok(c0, t0, o0, 0):
                continue
            state[0] = start
            visited[start] = 1
            leave(start, 0, c0, t0, o0, 0, groups[start], 1, -1)
            visited[start] = 0
    finally:
        sys.setrecursionlimit(limit)
    return found


# ------------------------------------------------------------------------------ the planner


class RoutePlanner:
    """Routes of one corporation on one board in one phase (enumerations are cached).

    ``phase`` is a :class:`Phase` or a phase name of the board's game. ``rules`` are the
    game's rules (default: :func:`tilelay.rules.rules_for` the board's game); ``facts`` what
    those rules may ask besides the board (company owners, assignments, optional rules).
    """

    def __init__(
        self,
        board: Board,
        corporation: str,
        phase: Phase | str,
        *,
        rules: GameRules | None = None,
        facts: RunFacts | None = None,
    ) -> None:
        game = board.game
        game.corporation(corporation)  # NotFoundError with close symbols
        self.board = board
        self.corporation = corporation
        self.phase = game.trains.phase(phase) if isinstance(phase, str) else phase
        self.rules = rules if rules is not None else rules_for(game)
        self.facts = facts if facts is not None else RunFacts()
        self.context = RouteContext(board, corporation, self.phase, self.facts, self.rules)
        self._net = _Net(self.context)
        self._specs: dict[TrainType, TrainSpec] = {}
        self._rated: dict[TrainSpec, list[_Rated]] = {}
        self._origin: dict[Route, tuple[TrainSpec, _Rated]] = {}

    def train(self, train: TrainType | str) -> TrainType:
        """A train type, or the game's train type of that name (:class:`NotFoundError`)."""
        if isinstance(train, TrainType):
            return train
        return self.board.game.trains.train_type(train)

    def spec(self, train: TrainType | str) -> TrainSpec:
        """How the game's rules rate ``train`` (:class:`UnsupportedTrain` when they cannot)."""
        t = self.train(train)
        found = self._specs.get(t)
        if found is None:
            found = self._specs[t] = self.rules.train_spec(t, self.context)
        return found

    # --------------------------------------------------------------- enumeration

    def _raw(self, specs: Sequence[TrainSpec]) -> dict[int, _Raw]:
        reach = _Reach(specs)
        if not reach.specs:
            return {}
        return self._net.enumerate(reach)

    def _rate(self, spec: TrainSpec, raw: dict[int, _Raw]) -> list[_Rated]:
        """The routes ``spec`` may run, rated (revenue with the route's bonus), best first."""
        found = self._rated.get(spec)
        if found is not None:
            return found
        ctx = self.context
        rules = self.rules
        values = ctx.values(spec)
        classes = ctx.classes
        tokened = ctx.tokened
        hooks = type(rules).route_hooks
        hex_limit = spec.hexes
        generic_hexes = type(rules).hex_distance is GameRules.hex_distance
        pays_all = spec.pays_all
        fits = spec.fits
        fit_memo: dict[tuple[int, int, int], bool] = {}
        minimum = spec.min_stops
        out: list[_Rated] = []
        for mask, r in raw.items():
            stops, ends, c, t, o, x = r
            if len(stops) < minimum:
                continue
            key = (c, t, o)
            fit = fit_memo.get(key)
            if fit is None:
                fit = fit_memo[key] = fits(key)
            if not fit:
                continue
            if hex_limit is not None and generic_hexes and x > hex_limit:
                continue
            if hex_limit is not None and not generic_hexes:
                probe = RouteView(ctx, spec, stops, stops, 0, ends)
                if rules.hex_distance(probe) > hex_limit:
                    continue
            all_paid = pays_all and (spec.scores_visits or len(stops) == c + t + o)
            if not hooks:
                if all_paid:
                    revenue = 0
                    for n in stops:
                        revenue += values[n]
                    paid = stops
                else:
                    revenue, chosen = spec.paid(
                        [classes[n] for n in stops],
                        [values[n] for n in stops],
                        [tokened[n] for n in stops],
                    )
                    if not chosen:
                        continue
                    paid = tuple(stops[i] for i in chosen)
                bonus = 0
            else:
                scored = self._score(spec, stops, ends, values, all_paid)
                if scored is None:
                    continue
                revenue, paid, bonus = scored
            out.append((revenue + bonus, mask, r, paid, bonus))
        out.sort(key=lambda x: -x[0])
        self._rated[spec] = out
        return out

    def _score(
        self,
        spec: TrainSpec,
        stops: tuple[int, ...],
        ends: tuple[int, ...],
        values: list[int],
        all_paid: bool,
    ) -> tuple[int, tuple[int, ...], int] | None:
        """What a route earns under the game's rules: (stops' revenue, scored node ids,
        bonus), or None when the game does not allow it. The game may choose the scored
        stops itself (:meth:`GameRules.paid_stops`); else every stop scores, or an express
        train's best set with its bonus."""
        ctx = self.context
        rules = self.rules
        view = RouteView(ctx, spec, stops, stops, 0, ends)
        if not rules.route_allowed(view):
            return None
        own = rules.paid_stops(view)
        if own is not None or all_paid:
            if own is not None:
                revenue, paid = own
            else:
                revenue, paid = sum(values[n] for n in stops), stops
            view.revenue, view.paid = revenue, paid
            if not rules.scored_allowed(view):
                return None
            return revenue, paid, rules.route_bonus(view)
        return self._express_with_bonus(spec, stops, ends, values)

    def _express_with_bonus(
        self, spec: TrainSpec, stops: tuple[int, ...], ends: tuple[int, ...], values: list[int]
    ) -> tuple[int, tuple[int, ...], int] | None:
        """An express route's best scored stops when the game's rules add bonuses: (stops'
        revenue, scored node ids, bonus), or None when no set is legal."""
        ctx = self.context
        rules = self.rules
        classes = [ctx.classes[n] for n in stops]
        tokened = [ctx.tokened[n] for n in stops]
        ceiling: int | None = None
        if type(rules).bonus_monotone:
            # no set's bonus exceeds the bonus of every stop scored
            ceiling = rules.route_bonus(RouteView(ctx, spec, stops, stops, 0, ends))
        best: tuple[int, tuple[int, ...], int] | None = None
        # the sets of one size at a time, largest first (as the engine tries them), each
        # size's best first
        for _, group in itertools.groupby(spec.paid_sets(classes, tokened), key=len):
            sets = sorted(
                ((sum(values[stops[i]] for i in chosen), chosen) for chosen in group),
                key=lambda x: -x[0],
            )
            for revenue, chosen in sets:
                if (
                    best is not None
                    and ceiling is not None
                    and revenue + ceiling <= (best[0] + best[2])
                ):
                    break
                paid = tuple(stops[i] for i in chosen)
                view = RouteView(ctx, spec, stops, paid, revenue, ends)
                if not rules.scored_allowed(view):
                    continue
                bonus = rules.route_bonus(view)
                if best is None or revenue + bonus > best[0] + best[2]:
                    best = (revenue, paid, bonus)
            if best is not None and best[0] + best[2] > 0:
                break  # the engine takes the largest size that earns anything
        return best

    def _route(self, spec: TrainSpec, rated: _Rated) -> Route:
        g = self._net.graph
        revenue, _, raw, paid, bonus = rated
        paths = tuple(g.paths[e >> 1] for e in raw[1])
        hexes: list[str] = []
        for coord, _ in paths:
            if not hexes or hexes[-1] != coord:
                hexes.append(coord)
        stops = tuple(g.nodes[n] for n in raw[0])
        scored = tuple(g.nodes[n] for n in paid)
        route = Route(spec.name, stops, tuple(hexes), paths, revenue, scored, bonus)
        self._origin[route] = (spec, rated)
        return route

    def _view(self, spec: TrainSpec, rated: _Rated) -> RouteView:
        revenue, _, raw, paid, bonus = rated
        return RouteView(self.context, spec, raw[0], paid, revenue - bonus, raw[1], bonus)

    def candidates(self, train: TrainType | str) -> list[Route]:
        """Every legal route of ``train`` for the corporation, best revenue first."""
        spec = self.spec(train)
        return [self._route(spec, r) for r in self._rate(spec, self._raw([spec]))]

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

    def chains(self, route: Route) -> list[tuple[str, ...]]:
        """The hexes of ``route`` (found by this planner) from stop to stop, in order: as
        18xx.games records a route's ``connections`` (consecutive hexes once)."""
        origin = self._origin.get(route)
        if origin is None:
            raise RouteError(f"route {'-'.join(route.hexes)} was not found by this planner")
        g = self._net.graph
        kind = self._net.kind
        out: list[tuple[str, ...]] = []
        chain: list[str] = []
        for e in origin[1][2][1]:
            coord = g.paths[e >> 1][0]
            if not chain or chain[-1] != coord:
                chain.append(coord)
            m = g.end_node[e ^ 1]
            if m >= 0 and kind[m] >= 0:
                out.append(tuple(chain))
                chain = [coord]
        return out

    def run_total(self, routes: Sequence[Route]) -> int:
        """The revenue of running ``routes`` (found by this planner) together: their sum, with
        the game's whole-run rule. Raises :class:`RouteError` when two of them share track."""
        used = 0
        views: list[RouteView] = []
        total = 0
        for route in routes:
            origin = self._origin.get(route)
            if origin is None:
                raise RouteError(f"route {'-'.join(route.hexes)} was not found by this planner")
            spec, rated = origin
            if used & rated[1]:
                raise RouteError(f"route {'-'.join(route.hexes)} shares track with another")
            used |= rated[1]
            total += route.revenue
            views.append(self._view(spec, rated))
        if type(self.rules).run_hooks and views:
            return self.rules.run_revenue(views, total)
        return total

    # --------------------------------------------------------------- the optimum

    def best(self, trains: Iterable[TrainType | str]) -> RunResult:
        """The best routes for ``trains`` together (exact; see the module docstring)."""
        types = [self.train(t) for t in trains]
        specs = [self.spec(t) for t in types]
        raw = self._raw(specs)
        # trains with more reach first: their lists bound the search best
        order = sorted(range(len(specs)), key=lambda i: _reach_key(specs[i]))
        lists: list[list[_Rated]] = []
        for i in order:
            lists.append(self._rate(specs[i], raw) if specs[i].runs else [])
        same = [i > 0 and specs[order[i]] == specs[order[i - 1]] for i in range(len(order))]
        revenues = [[x[0] for x in lst] for lst in lists]
        masks = [[x[1] for x in lst] for lst in lists]
        rules = self.rules
        exact: Callable[[list[int], int], int] | None = None
        bound = 0
        if type(rules).run_hooks:
            self.context.longest = max((len(r[0]) for r in raw.values()), default=0)
            bound = rules.run_bonus_bound(self.context)

            def exact(picks: list[int], total: int) -> int:
                views = [
                    self._view(specs[order[slot]], lists[slot][j])
                    for slot, j in enumerate(picks)
                    if j >= 0
                ]
                return rules.run_revenue(views, total)

        total, picks = _choose(revenues, masks, same, exact, bound)
        routes: list[Route] = []
        plain = 0
        for slot, j in enumerate(picks):
            if j < 0:
                continue
            rated = lists[slot][j]
            plain += rated[0]
            routes.append(self._route(specs[order[slot]], rated))
        return RunResult(
            self.corporation, self.phase.name, tuple(routes), total, len(raw), total - plain
        )


def _reach_key(spec: TrainSpec) -> tuple[int, int, str]:
    hexes = spec.hexes if spec.hexes is not None else 0
    stops = sum(min(r.visit, 1000) for r in spec.rows)
    return (-stops, -hexes, spec.name)


def _choose(
    revenues: list[list[int]],
    masks: list[list[int]],
    same: list[bool],
    exact: Callable[[list[int], int], int] | None = None,
    bound: int = 0,
) -> tuple[int, list[int]]:
    """Branch and bound: one route (index, or -1 for none) per list, masks disjoint, the
    largest total. Lists are sorted by revenue, best first; ``same[i]`` says list ``i`` belongs
    to the same train as list ``i - 1`` (then its route index is larger, or both run
    nothing), which removes symmetric solutions. With ``exact`` (a game's whole-run rule) each
    complete choice is worth ``exact(picks, sum)``, at most ``sum + bound``."""
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
    best[0] = total if exact is None else exact(best_picks, total)
    if exact is not None and best[0] < 0:
        best[0] = 0
        best_picks = [-1] * n

    def go(i: int, used: int, total: int, start: int) -> None:
        if i == n:
            value = total if exact is None else exact(picks, total)
            if value > best[0]:
                best[0] = value
                best_picks[:] = picks
            return
        if total + suffix[i] + bound <= best[0]:
            return
        rest = suffix[i + 1] + bound
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
    if exact is not None and all(p < 0 for p in best_picks):
        return max(best[0], 0), best_picks
    return best[0], best_picks


# ------------------------------------------------------------------------------ functions


def best_routes(
    board: Board,
    corporation: str,
    trains: Iterable[TrainType | str],
    phase: Phase | str,
    *,
    rules: GameRules | None = None,
    facts: RunFacts | None = None,
) -> RunResult:
    """The best routes of ``corporation``'s ``trains`` on ``board`` in ``phase`` (exact).

    Trains are :class:`TrainType` s or names of the game's trains; the phase a :class:`Phase`
    or a phase name. Unknown names raise :class:`~tilelay.errors.NotFoundError`; a train the
    router cannot rate exactly :class:`~tilelay.route_rules.UnsupportedTrain`.
    """
    return RoutePlanner(board, corporation, phase, rules=rules, facts=facts).best(trains)


def route_revenue(
    board: Board,
    corporation: str,
    train: TrainType | str,
    route: Sequence[str] | Sequence[Stop],
    phase: Phase | str,
    *,
    rules: GameRules | None = None,
    facts: RunFacts | None = None,
) -> int:
    """The revenue of a given route (hexes passed, or stops as ``(coord, node index)``).

    Raises :class:`RouteError` when no legal route of the train matches. When several do (the
    hexes do not say which city of a hex), the best of them counts.
    """
    planner = RoutePlanner(board, corporation, phase, rules=rules, facts=facts)
    found = planner.find(train, route)
    if not found:
        shown = "-".join(x if isinstance(x, str) else f"{x[0]}.{x[1]}" for x in route)
        raise RouteError(
            f"no legal route {shown} for train {planner.train(train).name} of {corporation}"
        )
    return found[0].revenue

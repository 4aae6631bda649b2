"""Routes: which runs a corporation's trains may make on a board, their revenue, and the best.

The generic rules (those 18xx.games applies to 1889, 1830 and 18Chesapeake):

* a route walks along track **segments** (paths), never from city to city directly; it starts
  and ends at stops (city, town, offboard) and visits at least two stops (but a train whose
  spec's ``min_stops`` is 1 may also run a route of one stop: a city with the corporation's
  token alone, on no track, which no other such route shares: 1822's local trains);
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
* a corporation's routes never share a path or a hex side (but those of trains of
  different track pools, :attr:`~tilelay.route_rules.TrainSpec.pool`, may: their masks are
  shifted clear of each other's; 18 Los Angeles' N and N/M trains, 1822's E-train).

What a train may visit and what it scores is :mod:`tilelay.route_rules` (a
:class:`~tilelay.route_rules.TrainSpec` per train: stop classes, n+m, express, H-trains,
multipliers); what one game adds (bonuses, penalties, its own legality, blocked hexes) is its
:class:`~tilelay.rules.GameRules`, found by :func:`tilelay.rules.rules_for`. A train the router
cannot rate exactly raises :class:`~tilelay.route_rules.UnsupportedTrain`.

The search (:class:`RoutePlanner`, :func:`best_routes`) enumerates every legal route through
each of the corporation's token cities (two "arms" walked depth first from the token, path ends
and used track as plain ints, cut off where no train could run the route any more; an arm is
its stops, with every way along the track between them as its alternatives, so that a late
board of double track and junctions walks and pairs each run of stops once), rates each
for each train, then chooses one route per train by an exact branch and bound (routes sorted
by revenue, bounded by the best remaining route per train, plus the most the game's whole-run
rule can add; each complete run evaluated exactly). Routes are bounded first and rated
exactly only where the bound cannot settle them: the walk keeps only routes that may matter
(:class:`_Search`; a walk made again, only those that may beside what the other trains earn
on routes leaving the tokens by other paths: :class:`_ExitNeeds`, and before it, where the
run found is far below the trains' bests, a better run is sought: :meth:`_Search._seeded`),
and the combination ranks each train's routes lazily, passing over at once the routes that
share a token's exit with those chosen (:class:`_Groups`). The ways along the track between
the same stops that use the same of the track the game rates
(:meth:`GameRules.rating_track`: all of them, in most games) are one route, rated once: the
combination chooses routes by the track all their ways use, and settles each run it finds by
choosing a way of each route that shares no track with the others' (:func:`_resolve`). A
late board's double track and junctions give a run of stops dozens of ways; a run of two
long trains there had hundreds of thousands of routes to combine.

>>> from tilelay.board import Board, TrackGraph
>>> from tilelay.games import load_game
>>> from tilelay.catalogue import get_tile
>>> board = Board(load_game("1889")).with_home_tokens(["KO"]).lay("J3", get_tile("8"), 3)
>>> result = best_routes(board, "KO", ["2"], "2")
>>> result.revenue, result.routes[0].hexes
(50, ('J1', 'J3', 'K4'))
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import operator
import sys
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from tilelay.board import Board
from tilelay.errors import NotFoundError, TilelayError
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
    many distinct routes were enumerated (``candidates``; the ways between the same stops
    that the game rates alike count once). ``run_bonus`` is what the game's
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
_Raw = tuple[tuple[int, ...], Sequence[int], int, int, int, int]
# A rated route: (revenue, track mask, raw route, scored node ids, bonus)
_Rated = tuple[int, int, _Raw, tuple[int, ...], int]
# An arm of a route as the walk builds it: (the stop reached, the path ends entered on the way
# there, the arm up to the stop before) or None at the route's first stop
_Link = tuple[int, tuple[int, ...], "_Link | None"] | None
# One way along the track of an arm (:func:`_grown`, :class:`_Arms`): (the track it uses, the
# nodes it visits besides the token, the hexes it enters where the game's rules ask, hex sides
# crossed, its stops and path ends, whether its last path is terminal, what a partner may not
# share: the track, the nodes, the stops' groups without the token's, the hexes)
_Way = tuple[int, int, int, int, _Link, bool, int]
# A route's ways along the track kept together (:func:`_walk`: the same stops in the same
# order, the same of the track the game rates, :meth:`GameRules.rating_track`): (the track
# every way uses, the track some way uses, arm 1's ways, arm 2's ways (None: a route of one
# arm), the rated track's bits, the part of them the ways use); a way of the route is a way
# of each arm, the two sharing nothing (:func:`_members`)
_Ways = tuple[int, int, tuple[_Way, ...], tuple[_Way, ...] | None, int, int]
# A route found by the walk: (track mask, bound value of its stops, cities, towns, offboards
# (by visit cost), hex sides crossed, first stop, arm 1, arm 2, its pruning sum, its counts
# packed (:func:`_pack`), its other ways (None: it has one)); its stops and path ends are
# unfolded from the arms only when asked (:func:`_unfold`); the track mask, arms and hex
# sides are those of one of its ways
_Found = tuple[int, int, int, int, int, int, int, _Link, _Link, int, int, "_Ways | None"]

#: No threshold: every route is walked.
_NO_THRESHOLD = -(1 << 60)

#: ``_BITS[i] == 1 << i`` (grown as boards need).
_BITS: list[int] = [1 << i for i in range(4096)]


def _bits(n: int) -> list[int]:
    """The list of single bits, at least ``n`` long."""
    while len(_BITS) < n:
        _BITS.extend(1 << i for i in range(len(_BITS), 2 * len(_BITS)))
    return _BITS


def _length(found: _Found) -> int:
    """How many stops a found route has."""
    n = 1
    for link in (found[7], found[8]):
        while link is not None:
            n += 1
            link = link[2]
    return n


def _unfold(found: _Found) -> tuple[tuple[int, ...], _PathEnds]:
    """A found route's stops and entering path ends, in order (arm 1 back to the first stop,
    then arm 2 out from it); the path ends worked out when first asked."""
    stops: list[int] = []
    link = found[7]
    while link is not None:
        stops.append(link[0])
        link = link[2]
    stops.append(found[6])
    link = found[8]
    if link is not None:
        arm: list[int] = []
        while link is not None:
            arm.append(link[0])
            link = link[2]
        arm.reverse()
        stops.extend(arm)
    return tuple(stops), _PathEnds(found)


class _PathEnds(Sequence[int]):
    """The path ends a found route enters, in order (:func:`_unfold`), worked out when first
    asked (most games' rules rate a route by its stops alone)."""

    __slots__ = ("_ends", "_found")

    def __init__(self, found: _Found) -> None:
        self._found: _Found | None = found
        self._ends: tuple[int, ...] = ()

    @property
    def ends(self) -> tuple[int, ...]:
        """The path ends."""
        found = self._found
        if found is not None:
            ends: list[int] = []
            link = found[7]
            while link is not None:
                _, cends, link = link
                # the chain walked backwards: its path ends in reverse, each the path's
                # other end
                ends.extend([f ^ 1 for f in reversed(cends)])
            link = found[8]
            if link is not None:
                arm: list[tuple[int, ...]] = []
                while link is not None:
                    arm.append(link[1])
                    link = link[2]
                for cends in reversed(arm):
                    ends.extend(cends)
            self._ends = tuple(ends)
            self._found = None
        return self._ends

    def __iter__(self) -> Iterator[int]:
        return iter(self.ends)

    def __len__(self) -> int:
        return len(self.ends)

    def __getitem__(self, index: Any) -> Any:
        return self.ends[index]


#: What :meth:`_Reach.needs` says of counts no train fits.
_NO_FIT = 1 << 62


class _Known:
    """What a set of trains allows by a route's counts packed in one int (:func:`_pack`):
    the trains that fit them (:meth:`_Reach.fitting`) and whether some train may run a
    route with a stop more (:meth:`_Reach.grows`). Kept for the trains (see :data:`_KNOWN`):
    they depend on the trains alone, whatever the board or the thresholds."""

    __slots__ = ("fitting", "grown")

    def __init__(self) -> None:
        #: counts -> the trains that fit them (by index, with the stops each may still
        #: score beyond the route's cities and offboards)
        self.fitting: dict[int, tuple[tuple[int, int], ...]] = {}
        #: counts (without hex sides) -> whether some train may run a route with a stop more
        self.grown: dict[int, bool] = {}


#: What each set of trains allows (:class:`_Known`).
_KNOWN: dict[tuple[TrainSpec, ...], _Known] = {}


class _Reach:
    """What trains a route's counts allow: a route (stop counts by class, hex sides crossed)
    that no train of the set could run, nor any longer route through it, is not followed;
    and, for a walk with thresholds (one per train, :meth:`set_thresholds`), the least sum of
    stop bound values a route needs for some train that may run it to reach its threshold.
    Train ``i`` earns at most ``scales[i]`` times that sum (1867's doubling 2+2 beside plain
    trains).

    When towns fill (``town_tops`` given: every train scores every city and offboard it
    visits, and towns only as far as its pay allows: 1860's and 1867's trains), a route's
    second sum counts its cities and offboards only, and needs, with the best towns of the
    map (``town_tops``: their prefix sums) that the trains could still score, to reach the
    threshold too."""

    def __init__(
        self,
        specs: Sequence[TrainSpec],
        scales: Sequence[int] | None = None,
        town_tops: list[int] | None = None,
        town_pays: Sequence[int] | None = None,
    ) -> None:
        self.specs = [s for s in specs if s.runs]
        limits = [s.hexes for s in self.specs]
        self.uses_hexes = any(h is not None for h in limits)
        bounded = [h for h in limits if h is not None]
        self.max_hexes = _BIG if len(bounded) < len(limits) else max(bounded, default=0)
        key = tuple(self.specs)
        known = _KNOWN.get(key)
        if known is None:
            if len(_KNOWN) > 4096:
                _KNOWN.clear()
            known = _KNOWN[key] = _Known()
        #: counts packed in one int (:func:`_pack`) -> the trains that fit them (kept in
        #: :meth:`fitting`)
        self.fits = known.fitting
        #: counts packed in one int, without hex sides -> whether some train may run a
        #: route with a stop more (kept in :meth:`grows`)
        self.grown = known.grown
        #: counts packed in one int (:func:`_pack`) -> the least sum of bound values a
        #: route with these counts needs, and the least second sum (:data:`_NO_FIT` when no
        #: train fits it)
        self.packed: dict[int, tuple[int, int]] = {}
        self.thresholds = [_NO_THRESHOLD] * len(self.specs)
        self.scales = list(scales) if scales is not None else [1] * len(self.specs)
        self.town_tops = town_tops
        self._pays = [s.pay_capacity(0b111) for s in self.specs]
        #: the most towns each train may score (by default as many as its rows pay for
        #: towns)
        self._town_pays = (
            list(town_pays)
            if town_pays is not None
            else [s.pay_capacity(1 << TOWN) for s in self.specs]
        )
        #: the least sum a route needs for each train, and for any (of any counts)
        self.least = [_NO_THRESHOLD] * len(self.specs)
        self.floor = _NO_THRESHOLD
        #: whether some train runs routes of one stop (a local train: its token's city alone)
        self.single = any(s.min_stops <= 1 for s in self.specs)

    @property
    def key(self) -> tuple[tuple[object, ...], ...]:
        """What the routes within this reach depend on (the trains' rows and hexes, whether
        one runs routes of one stop, and their names: a game's rules may end a train's
        routes at nodes of its own, :attr:`_Net.train_ends`)."""
        return tuple(
            sorted({(s.rows, s.hexes, s.min_stops <= 1, s.name) for s in self.specs}, key=repr)
        )

    def set_thresholds(self, thresholds: Sequence[int]) -> None:
        """Each train's threshold: a route is kept while some train that may run it could
        earn at least its threshold on it or on a longer route through it."""
        if list(thresholds) != self.thresholds:
            self.thresholds[:] = thresholds
            self.packed.clear()
            self.least = [-(-t // k) for t, k in zip(thresholds, self.scales, strict=True)]
            self.floor = min(self.least, default=_NO_THRESHOLD)

    def grows(self, code: int) -> bool:
        """Whether some train may run a route with one stop more (a city, a town or an
        offboard) than the counts packed in ``code`` (:func:`_pack`, without hex sides;
        kept in :attr:`grown`)."""
        c, t, o = code & _FIELD, code >> _SHIFT & _FIELD, code >> 2 * _SHIFT & _FIELD
        found = any(
            s.fits(more)
            for s in self.specs
            for more in ((c + 1, t, o), (c, t + 1, o), (c, t, o + 1))
        )
        self.grown[code] = found
        return found

    def fitting(self, code: int) -> tuple[tuple[int, int], ...]:
        """The trains (by index) that may run a route with the counts packed in ``code``
        (:func:`_pack`; none: no train fits them), each with the stops it may still score
        beyond the route's cities and offboards (kept in :attr:`fits`, whatever the
        thresholds)."""
        c, t, o = code & _FIELD, code >> _SHIFT & _FIELD, code >> 2 * _SHIFT & _FIELD
        x = code >> 3 * _SHIFT if self.uses_hexes else 0
        counts = (c, t, o)
        found = tuple(
            (i, max(pay - c - o, 0))
            for i, (s, pay) in enumerate(zip(self.specs, self._pays, strict=True))
            if s.fits(counts) and (s.hexes is None or x <= s.hexes)
        )
        self.fits[code] = found
        return found

    def single_need(self, counts: tuple[int, int, int]) -> int:
        """The least sum a route of one stop with these counts needs for some train that
        runs such routes (:data:`_NO_FIT` when none does)."""
        need = _NO_FIT
        for s, threshold, scale in zip(self.specs, self.thresholds, self.scales, strict=True):
            if s.min_stops <= 1 and s.fits(counts):
                need = min(need, -(-threshold // scale))
        return need

    def needs(self, code: int) -> tuple[int, int]:
        """The least sums a route with the counts packed in ``code`` (:func:`_pack`) needs
        (kept in :attr:`packed` until the thresholds change)."""
        fitting = self.fits.get(code)
        if fitting is None:
            fitting = self.fitting(code)
        need = need_w = _NO_FIT
        least = self.least
        tops = self.town_tops
        if tops is None:
            for i, _ in fitting:
                if least[i] < need:
                    need = least[i]
            found = (need, need)
        else:
            last = len(tops) - 1
            town_pays = self._town_pays
            for i, room in fitting:
                need = min(need, least[i])
                need_w = min(need_w, least[i] - tops[min(room, town_pays[i], last)])
            found = (need, need_w)
        self.packed[code] = found
        return found


#: Counts packed in one int: cities, towns, offboards and hex sides, a field each.
_SHIFT = 12
_FIELD = (1 << _SHIFT) - 1


def _pack(c: int, t: int, o: int, x: int) -> int:
    """Counts as one int, so that the counts of two arms add up as ints (each count below
    ``1 << _SHIFT``: more than any route has)."""
    return c | t << _SHIFT | o << 2 * _SHIFT | x << 3 * _SHIFT


class _Net:
    """The board's track graph seen by one corporation, as flat lists for the walk."""

    def __init__(self, ctx: RouteContext, within: frozenset[str] | None = None) -> None:
        g = ctx.graph
        self.ctx = ctx
        self.graph = g
        #: the hexes the net's track is kept to (None: the whole board; see :meth:`chain`)
        self.within = within
        #: the bits of a route's track (paths, then hex sides and lanes); above them, the bit
        #: of a one-stop route at node n is ``single_shift + n``
        self.single_shift = len(g.paths) + len(g.end_lane) + 1
        self.bits = _bits(self.single_shift)
        #: the bits of a route's mask, one-stop routes' included: a train's masks are shifted
        #: by its track pool times this (TrainSpec.pool)
        self.width = self.single_shift + len(g.nodes)
        rules = ctx.rules
        self.kind = ctx.classes
        self.cost = ctx.costs
        shared = ctx._shared
        if type(rules).passable is GameRules.passable or rules.passable_at_tokens:
            if rules.blocking:
                passable = list(shared.open)
                for n in shared.token_cities:
                    passable[n] = rules.passable(ctx, n)
            else:
                passable = [True] * len(g.nodes)
        else:
            passable = [rules.passable(ctx, n) for n in range(len(g.nodes))]
        self.passable = passable
        #: whether every stop uses some of a train's reach (visit cost 1 or more)
        self.costly = min(shared.stop_costs, default=1) >= 1
        per_hex = rules.one_stop_per_hex
        groups = shared.memo.get(("routes.groups", per_hex))
        if groups is None:
            groups = shared.memo[("routes.groups", per_hex)] = _group_masks(ctx, per_hex)
        self.groups: list[int] = groups
        self.token_nodes = [n for n in shared.token_cities if ctx.tokened[n]]
        #: the paths leaving the corporation's token cities (most routes share some)
        self.exits = 0
        for n in self.token_nodes:
            for e in g.node_ends[n]:
                self.exits |= self.bits[e >> 1]
        self._enumerated: dict[object, dict[int, _Found]] = {}
        chains = ctx.board.memo.get("routes.chains")
        if chains is None:
            chains = ctx.board.memo["routes.chains"] = [None] * len(g.end_node)
        #: the board's chains (shared by every net on the board), and the net's own when it is
        #: kept to some hexes
        self._board_chains: list[list[_Chain] | None] = chains  # type: ignore[assignment]
        self.chains: list[list[_Chain] | None] = (
            self._board_chains if within is None else [None] * len(g.end_node)
        )
        # the game's rules the walk applies itself (GameRules.walk_rules)
        walk = None if type(rules).walk_rules is GameRules.walk_rules else rules.walk_rules(ctx)
        #: whether a route may begin or end at each node (None: at every node)
        self.endable: list[bool] | None = None
        #: train name -> the only nodes its route may begin or end at (WalkRules.train_ends)
        self.train_ends: dict[str, frozenset[int]] = {}
        self._ends_of: dict[tuple[str, ...], list[bool] | None] = {}
        #: the nodes a route may pass through at most one of (None: no such node)
        self.pass_once: list[bool] | None = None
        #: whether a route may not enter a hex again after leaving it
        self.distinct = False
        #: what the track entering each hex may add to a route's bound (None: nothing)
        self.hex_values: list[int] | None = None
        self.token_hex: dict[int, int] = {}
        if walk is not None:
            if walk.no_ends:
                self.endable = [n not in walk.no_ends for n in range(len(g.nodes))]
            self.train_ends = dict(walk.train_ends)
            if walk.pass_once:
                self.pass_once = [n in walk.pass_once for n in range(len(g.nodes))]
            self.distinct = walk.distinct_hexes
            if any(v > 0 for v in walk.hex_bound.values()):
                coords = _hex_ids(ctx.board)[1]
                self.hex_values = [max(walk.hex_bound.get(c, 0), 0) for c in coords]
                #: what a token's own hex adds to the bound of its routes
                self.token_hex = {
                    n: max(walk.hex_bound.get(ctx.coords[n], 0), 0) for n in self.token_nodes
                }
        #: per path end, its chains' hexes entered (mask), their hex values and whether the
        #: chain enters a hex again (when the rules ask for hexes)
        self._chain_hexes: list[list[tuple[int, int, bool]] | None] | None = (
            [None] * len(g.end_node) if self.distinct or self.hex_values is not None else None
        )
        self._arrivals: list[int] | None = None

    def ends_for(self, specs: Sequence[TrainSpec]) -> list[bool] | None:
        """Whether a route of some of ``specs`` may begin or end at each node (None: at
        every node): :attr:`endable`, narrowed where each train has ends of its own
        (:attr:`train_ends`)."""
        if not self.train_ends:
            return self.endable
        names = tuple(sorted({s.name for s in specs}))
        if names in self._ends_of:
            return self._ends_of[names]
        found = self.endable
        if names and all(name in self.train_ends for name in names):
            allowed = frozenset().union(*(self.train_ends[name] for name in names))
            found = [(found is None or found[n]) and n in allowed for n in range(len(self.kind))]
        self._ends_of[names] = found
        return found

    def chain_hexes(self, e: int) -> list[tuple[int, int, bool]]:
        """For each chain from path end ``e`` (:meth:`chain`): the hexes it enters after
        its first (bits by :func:`_hex_ids`), the most the hexes it enters add to the bound
        (:attr:`hex_values`), and whether it enters a hex again itself."""
        cache = self._chain_hexes
        assert cache is not None
        found = cache[e]
        if found is None:
            path_hex = _hex_ids(self.ctx.board)[0]
            values = self.hex_values
            bits = self.bits
            found = []
            for chain in self.chain(e):
                seq: list[int] = []
                for f in chain[3]:
                    h = path_hex[f >> 1]
                    if not seq or seq[-1] != h:
                        seq.append(h)
                entered = 0
                for h in seq[1:]:
                    entered |= bits[h]
                value = 0 if values is None else sum(values[h] for h in seq[1:])
                found.append((entered, value, len(set(seq)) != len(seq)))
            cache[e] = found
        return found

    def arrivals(self) -> list[int]:
        """The most the hexes entered by a chain of track arriving at each node add to a
        route's bound (:attr:`hex_values`; 0 where none arrives): the rest of a route earns
        at most, for each stop it goes on to, the stop's bound value and this (kept)."""
        found = self._arrivals
        if found is None:
            g = self.graph
            found = [0] * len(g.nodes)
            for n, node_ends in enumerate(g.node_ends):
                if self.kind[n] < 0:
                    continue  # chains leave stops only (and pass junctions)
                for e in node_ends:
                    for (m, *_), (_, value, _) in zip(
                        self.chain(e), self.chain_hexes(e), strict=True
                    ):
                        if value > found[m]:
                            found[m] = value
            self._arrivals = found
        return found

    def chain(self, e: int) -> list[_Chain]:
        """The chains of track from path end ``e`` (at a node) to the next stops (walked
        when first asked for and kept with the board: they are the same for every
        corporation)."""
        found = self.chains[e]
        if found is None:
            whole = self._board_chains[e]
            if whole is None:
                whole = self._board_chains[e] = _chains_from(self, e)
            found = whole
            if self.within is not None:
                # only the chains whose track stays in the net's hexes
                paths = self.graph.paths
                within = self.within
                found = [c for c in whole if all(paths[f >> 1][0] in within for f in c[3])]
            self.chains[e] = found
        return found

    def enumerate(self, reach: _Reach) -> dict[int, _Found]:
        """Every legal route within ``reach``, keyed by its track mask (cached)."""
        found = self._enumerated.get(reach.key)
        if found is None:
            zero = [0] * len(self.kind)
            found, _ = _walk(self, reach, _grow(self, reach, zero, zero))
            self._enumerated[reach.key] = found
        return found


def _hex_ids(board: Board) -> tuple[list[int], list[str]]:
    """Each path's hex as a number, and the hexes numbered (kept with the board)."""
    found = board.memo.get("routes.hex_ids")
    if found is None:
        ids: dict[str, int] = {}
        path_hex = [ids.setdefault(coord, len(ids)) for coord, _ in board.track_graph().paths]
        found = board.memo["routes.hex_ids"] = (path_hex, list(ids))
    return found  # type: ignore[return-value]


def _group_masks(ctx: RouteContext, per_hex: bool) -> list[int]:
    """A bit mask per node of the groups it belongs to (a route stops at most once in a
    group); with ``per_hex`` each hex is a group of its stops as well."""
    shared = ctx._shared
    groups = [0] * len(ctx.nodes)
    group_bits: dict[str, int] = {}
    if shared.grouped:
        for n, node in enumerate(ctx.nodes):
            if node.groups:
                mask = 0
                for name in node.groups:
                    mask |= 1 << group_bits.setdefault(name, len(group_bits))
                groups[n] = mask
    if per_hex:
        # one stop per hex: the hex as a group of its own (bits above the groups')
        base = len(group_bits)
        hex_bits: dict[str, int] = {}
        coords = ctx.coords
        for n, k in enumerate(ctx.classes):
            if k >= 0:
                groups[n] |= 1 << (base + hex_bits.setdefault(coords[n], len(hex_bits)))
    return groups


# A chain of track from a node to the next stop: (the stop's node id, the paths and sides it
# uses as a mask, hex sides crossed, the path ends entered in order, the junctions passed (a
# bit per node, ``1 << node``), whether its last path is terminal)
_Chain = tuple[int, int, int, tuple[int, ...], int, bool]


def _chains_from(net: _Net, start: int) -> list[_Chain]:
    """Every way along the track from path end ``start`` (at a node) to the next stop
    (through plain track and junctions, never using a path, hex side or junction twice).
    Each path has a bit, and each hex side (or lane of a side: :attr:`TrackGraph.end_lane`)
    a bit above the paths'. Most chains are a path to a node of the hex, or track that does
    not branch to a stop a few hexes on: those are followed at once, the others walked."""
    g = net.graph
    end_node = g.end_node
    kind = net.kind
    bits = net.bits
    o = start ^ 1
    m = end_node[o]
    used = bits[start >> 1]
    if m >= 0:
        if kind[m] >= 0:
            return [(m, used, 0, (start,), 0, False)]
        return _walked_chains(net, start)
    lane = g.end_lane[o]
    used |= 0 if lane < 0 else bits[len(g.paths) + lane]
    terminal = g.terminal
    links = g.links
    out: list[_Chain] = []
    across = links[o]
    if len(across) == 1:
        # track that does not branch: followed hex by hex to its node
        end_lane = g.end_lane
        n_paths = len(g.paths)
        ends = [start]
        x = 0
        while True:
            f = across[0]
            p = f >> 1
            if used & bits[p]:
                return out
            used |= bits[p]
            ends.append(f)
            x += 1
            o = f ^ 1
            m = end_node[o]
            if m >= 0:
                if kind[m] < 0:
                    return _walked_chains(net, start)
                out.append((m, used, x, tuple(ends), 0, terminal[p]))
                return out
            lane = end_lane[o]
            if lane >= 0:
                if used & bits[n_paths + lane]:
                    return out
                used |= bits[n_paths + lane]
            across = links[o]
            if len(across) != 1:
                return _walked_chains(net, start) if across else out
    for f in across:
        p = f >> 1
        m = end_node[f ^ 1]
        if m < 0 or kind[m] < 0 or p == start >> 1:
            return _walked_chains(net, start)
        out.append((m, used | bits[p], 1, (start, f), 0, terminal[p]))
    return out


def _walked_chains(net: _Net, start: int) -> list[_Chain]:
    """:func:`_chains_from`, walked path by path."""
    g = net.graph
    end_node = g.end_node
    links = g.links
    node_ends = g.node_ends
    terminal = g.terminal
    end_lane = g.end_lane
    bits = net.bits
    n_paths = len(g.paths)
    kind = net.kind
    out: list[_Chain] = []
    ends: list[int] = [start]

    def cross(o: int, used: int, x: int, term: bool, junctions: int) -> None:
        m = end_node[o]
        if m >= 0:
            if kind[m] >= 0:
                last = term if len(ends) > 1 else False
                out.append((m, used, x, tuple(ends), junctions, last))
                return
            if term or junctions >> m & 1:
                return
            junctions |= 1 << m
            for f in node_ends[m]:
                p = f >> 1
                pb = bits[p]
                if used & pb or terminal[p]:
                    continue
                ends.append(f)
                cross(f ^ 1, used | pb, x, False, junctions)
                ends.pop()
            return
        lane = end_lane[o]
        sb = 0 if lane < 0 else bits[n_paths + lane]
        if used & sb:
            return
        for f in links[o]:
            p = f >> 1
            pb = bits[p]
            if used & pb:
                continue
            ends.append(f)
            cross(f ^ 1, used | sb | pb, x + 1, terminal[p], junctions)
            ends.pop()

    cross(start ^ 1, bits[start >> 1], 0, False, 0)
    return out


class _Arms:
    """The arms of routes from one token city: every way a route may leave the token and go
    on from stop to stop (as far as some train could run it), in the order a depth-first
    walk finds them, the arms through one first path end together and those ends in
    increasing order. Arm ``i``'s longer arms are ``i + 1 … end[i] - 1``. An arm is its
    stops (from one first path end): the ways along the track that visit them, each its own
    track, are its alternatives (``alts``), walked and paired together (a late board has many
    ways between two stops: double track, junctions).

    Per arm: its first path end (``first``), its ways (``alts``: each the track it uses, paths
    and hex sides; what a partner may not share: the track, then the nodes it visits besides
    the token, then its stops' groups without the token's, then the hexes it enters when the
    game's rules ask, or -1 for an arm whose first path is terminal: it has no partner; its
    stops and path ends; its hex sides crossed), what every way blocks (``block``: they
    share it, so a partner that shares any of it pairs with no way), the route's counts with
    the token (``counts``: cities, towns, offboards, hex sides crossed where some train counts
    them; ``code``: packed, :func:`_pack`, hex sides only then), its stops' sum of bound
    values and second sums (``v``, ``w``: see :class:`_Reach`), whether its last stop may end
    a route (``endable``; None: every stop may), the best ``v`` and ``w`` of it and its
    longer arms (``top``, ``top_w``), the first arm with a later first end (``rest``), and
    the best ``top`` and ``top_w`` of an arm that may pair with it (``partner``,
    ``partner_w``), and the next arm past it and its longer arms with a higher ``top``
    (``higher``: the arms in between are no better). The walk grows them as rows
    (:attr:`rows`, one tuple an arm), made columns by :meth:`finish`."""

    __slots__ = (
        "alts",
        "block",
        "code",
        "counts",
        "end",
        "endable",
        "first",
        "higher",
        "partner",
        "partner_w",
        "pruned",
        "rest",
        "rows",
        "size",
        "token",
        "top",
        "top_w",
        "v",
        "v0",
        "w",
        "w0",
    )

    # the columns (:meth:`finish`)
    first: list[int]
    alts: list[tuple[_Way, ...]]
    block: list[int]
    code: list[int]
    counts: list[tuple[int, int, int, int]]
    v: list[int]
    w: list[int]
    endable: list[bool] | None
    top: list[int]
    top_w: list[int]
    rest: list[int]
    partner: list[int]
    partner_w: list[int]
    higher: list[int]

    def __init__(self, token: int, v0: int, w0: int) -> None:
        self.token = token
        self.v0 = v0
        self.w0 = w0
        #: the arms as the walk grows them, a row each: (first, alts, block, code, counts,
        #: v, w, endable)
        self.rows: list[tuple[Any, ...]] = []
        self.end: list[int] = []
        #: how many ways the arms have (all arms' alternatives)
        self.size = 0
        #: what each train needed when an arm was last left out (:func:`_grown`; None:
        #: none was)
        self.pruned: list[int] | None = None

    def finish(self, endable: bool) -> None:
        """The arms' columns from their rows (with ``endable``, whether each may end a
        route), and the best sums of each arm's longer arms and partners: one pass from
        the last arm back."""
        rows = self.rows
        n = len(rows)
        columns: list[list[Any]] = (
            list(map(list, zip(*rows, strict=True))) if n else [[] for _ in range(8)]
        )
        firsts, self.alts, blocks, self.code, self.counts, vs, ws, ends_ok = columns
        self.rows = []
        self.first = firsts
        self.block = blocks
        self.v = vs
        self.w = ws
        self.endable = ends_ok if endable else None
        # the best sums of each arm and its longer arms (its direct longer arms' bests); of
        # those that may end a route only (an arm and its longer arms none of which may
        # make no route, nor pair with another: -_BIG)
        if endable:
            tops = [v if e else -_BIG for v, e in zip(vs, ends_ok, strict=True)]
            tops_w = [w if e else -_BIG for w, e in zip(ws, ends_ok, strict=True)]
        else:
            tops = list(vs)
            tops_w = list(ws)
        ends = self.end
        rest = [n] * n
        partner = [-1] * n
        partner_w = [-1] * n
        higher = [n] * n
        # the best tops of the arms from i on that may pair (not terminal), and of those
        # from the first arm with a later first end than arm i's (arms are grouped by first
        # end, in increasing order)
        suffix = suffix_w = later = later_w = -1
        j = n
        for i in range(n - 1, -1, -1):
            if i + 1 < n and firsts[i + 1] != firsts[i]:
                j = i + 1
                later, later_w = suffix, suffix_w
            rest[i] = j
            c = i + 1
            end = ends[i]
            best, best_w = tops[i], tops_w[i]
            while c < end:
                if tops[c] > best:
                    best = tops[c]
                if tops_w[c] > best_w:
                    best_w = tops_w[c]
                c = ends[c]
            tops[i], tops_w[i] = best, best_w
            c = end
            while c < n and tops[c] <= best:
                c = higher[c]
            higher[i] = c
            if blocks[i] >= 0:
                if best > suffix:
                    suffix = best
                if best_w > suffix_w:
                    suffix_w = best_w
                partner[i] = later
                partner_w[i] = later_w
        self.top = tops
        self.top_w = tops_w
        self.rest = rest
        self.partner = partner
        self.partner_w = partner_w
        self.higher = higher


def _grow(net: _Net, reach: _Reach, bound: Sequence[int], prune: Sequence[int]) -> list[_Arms]:
    """The arms from each of the corporation's token cities (:class:`_Arms`)."""
    return list(_grown(net, reach, bound, prune))


def _tops(values: Iterable[int], base: int) -> list[int]:
    """``base``, then ``base`` plus the prefix sums of the positive ``values``, best first."""
    out = [base]
    for b in sorted((b for b in values if b > 0), reverse=True):
        out.append(out[-1] + b)
    return out


class _Ceiling:
    """The most the rest of a route can add to an arm's sums (:func:`_grown`), by the
    reach it may still use (the reach the trains' rows give, less the arm's counts): the
    best stops of the map by bound value as far as that reach goes, with every stop that
    uses no reach, each with the most the hexes of track arriving there add
    (:meth:`_Net.arrivals`: a route enters its hexes on the way to its stops). When towns fill
    (:class:`_Reach`), the second sum (cities and offboards) with the best cities and
    offboards, and the best towns as far as the trains score them."""

    __slots__ = ("cap", "cap_major", "major", "pay", "town_pay", "towns", "v")

    def __init__(
        self,
        net: _Net,
        reach: _Reach,
        bound: Sequence[int],
        prune: Sequence[int],
        left_out: Collection[int] = (),
    ):
        kind = net.kind
        cost = net.cost
        # the stops left out (the tokens whose routes are walked already, and the arm's)
        stops = [n for n, k in enumerate(kind) if k >= 0 and n not in left_out]
        if net.hex_values is not None:
            # each stop a route goes on to with the hexes of the track arriving there
            arrive = net.arrivals()
            bound = [b + a for b, a in zip(bound, arrive, strict=True)]
            prune = [b + a for b, a in zip(prune, arrive, strict=True)]
        free = sum(max(bound[n], 0) for n in stops if cost[n] <= 0)
        specs = reach.specs
        #: the most reach (stops by visit cost) a route may use, and what the best stops
        #: that fill it earn (by the reach left: index capped at the last)
        self.cap = max((s.capacity(0b111) for s in specs), default=0)
        self.v = _tops((bound[n] for n in stops if cost[n] > 0), free)
        self.towns: list[int] | None = None
        self.major: list[int] = []
        self.cap_major = self.pay = self.town_pay = 0
        if reach.town_tops is not None:
            majors = (1 << CITY) | (1 << OFFBOARD)
            self.cap_major = max((s.capacity(majors) for s in specs), default=0)
            self.pay = max(reach._pays, default=0)
            self.town_pay = max(reach._town_pays, default=0)
            free_w = sum(max(prune[n], 0) for n in stops if kind[n] != TOWN and cost[n] <= 0)
            if net.hex_values is not None:
                # the towns' scores are the map's best (town_tops), the track arriving
                # at them not counted there
                free_w += sum(arrive[n] for n in stops if kind[n] == TOWN)
            self.major = _tops((prune[n] for n in stops if kind[n] != TOWN and cost[n] > 0), free_w)
            self.towns = reach.town_tops


def _onward(
    net: _Net, bound: Sequence[int], cap: int, left_out: Collection[int]
) -> list[list[int]] | None:
    """The most the stops a route goes on to from each node earn (their bound values and
    what the track arriving there adds, :meth:`_Net.arrivals`), by the reach they use (0 to
    ``cap``): the best walk from stop to stop along the chains of track, which may come
    back to a stop (so the most any route earns, but no route is walked), never to one of
    ``left_out``. None when some stop uses no reach (then walks are not bounded by it)."""
    kind = net.kind
    cost = net.cost
    passable = net.passable
    out = set(left_out)
    if any(k >= 0 and cost[n] <= 0 and n not in out for n, k in enumerate(kind)):
        return None
    g = net.graph
    hexy = net.hex_values is not None
    # each stop's steps: (next stop, the most reaching it adds, the most reaching it adds
    # where a route may go on from it (-_BIG: nowhere), its reach)
    steps: list[list[tuple[int, int, int, int]]] = [[] for _ in kind]
    for n, k in enumerate(kind):
        if k < 0:
            continue
        ends: dict[int, int] = {}
        ons: dict[int, int] = {}
        for e in g.node_ends[n]:
            values = net.chain_hexes(e) if hexy else None
            for i, (m, _, _, _, _, term) in enumerate(net.chain(e)):
                if m in out:
                    continue
                add = bound[m] + (values[i][1] if values is not None else 0)
                if add > ends.get(m, -_BIG):
                    ends[m] = add
                if not term and add > ons.get(m, -_BIG):
                    ons[m] = add
        steps[n] = [
            (m, add, ons.get(m, -_BIG) if passable[m] and kind[m] != OFFBOARD else -_BIG, cost[m])
            for m, add in ends.items()
        ]
    walks = [[0] * (cap + 1) for _ in kind]
    for r in range(1, cap + 1):
        for n, row in enumerate(walks):
            most = row[r - 1]
            for m, add, on, use in steps[n]:
                if use <= r:
                    value = on + walks[m][r - use]
                    if add > value:
                        value = add
                    if value > most:
                        most = value
            row[r] = most
    return walks


def _filled(
    w: int,
    majors: int,
    cap_major: int,
    pay: int,
    town_pay: int,
    tops: list[int],
    tops_major: list[int],
    town_tops: list[int],
) -> int:
    """The most a route through an arm earns when towns fill (:class:`_Ceiling`): the arm's
    cities and offboards (``w``, ``majors`` of them), and the best stops of the map for the
    stops it may still score (``pay`` in all, ``cap_major`` cities and offboards,
    ``town_pay`` towns): at most as many stops as are left to score, and at most the best
    cities and offboards there is room for with the best towns."""
    room = max(pay - majors, 0)
    most = tops[min(room, len(tops) - 1)]
    rest = max(cap_major - majors, 0)
    split = tops_major[min(rest, len(tops_major) - 1)] + town_tops[min(room, town_pay)]
    return w + (most if most < split else split)


def _ends_beyond(net: _Net, endable: list[bool], m: int, out: tuple[int, ...]) -> int:
    """The nodes a route may end at (``endable``) that some chain of track, from stop to
    stop, leads to from stop ``m`` (when a route may go on from it) without passing the
    nodes of ``out``: a bit each (``1 << node``), ``m``'s own left out."""
    kind = net.kind
    passable = net.passable
    node_ends = net.graph.node_ends
    chains = net.chains
    chain_of = net.chain
    seen = 1 << m
    for n in out:
        seen |= 1 << n
    found = 0
    todo = [m]
    while todo:
        a = todo.pop()
        if not passable[a] or kind[a] == OFFBOARD:
            continue
        for e in node_ends[a]:
            out_chains = chains[e]
            if out_chains is None:
                out_chains = chain_of(e)
            for b, *_ in out_chains:
                bit = 1 << b
                if seen & bit:
                    continue
                seen |= bit
                if endable[b]:
                    found |= bit
                todo.append(b)
    return found


def _grown(
    net: _Net,
    reach: _Reach,
    bound: Sequence[int],
    prune: Sequence[int],
    ceiling: Callable[[], _Ceiling] | None = None,
    watch: Callable[[_Found], None] | None = None,
    gate: list[int] | None = None,
    eager: bool = True,
    by_exits: _ExitNeeds | None = None,
    forbid: int = 0,
) -> Iterator[_Arms]:
    """The arms from each of the corporation's token cities (:class:`_Arms`), a token at a
    time. With ``ceiling`` (making a :class:`_Ceiling` when the walk first has a threshold),
    an arm whose sum with the most the rest of a route could add (by each train's reach
    left) stays below what each train needs when it is reached (:attr:`_Reach.least`, read
    as the walk raises them) is left out with its longer arms (:attr:`_Arms.pruned` says
    what they were): from the first arm when ``eager``, else once a token's arms are many
    (:data:`_NEAR_AFTER`: the test does not pay for small walks, nor where the thresholds
    are low, as they are beside other trains). Then also the rest of a route is bounded by
    where the arm ends (:func:`_onward`). Where the trains' routes end only at nodes of
    their own (:attr:`_Net.train_ends`: 1822's E-train), no arm is grown towards where no
    chain of track leads on to such a node it has not visited (:func:`_ends_beyond`).
    ``watch`` (with ``gate``, as :func:`_walk` takes them) sees each route of a token and
    one arm as its arm is grown, so that the floor rises before the token's arms are all
    grown. With ``by_exits``, what each train needs of an arm is also by the exits its ways
    all use (:class:`_ExitNeeds`). No arm uses the track ``forbid``."""
    g = net.graph
    node_ends = g.node_ends
    terminal = g.terminal
    bits = net.bits
    kind = net.kind
    cost = net.cost
    passable = net.passable
    groups = net.groups
    chains = net.chains
    chain_of = net.chain
    fits_get = reach.fits.get
    fitting = reach.fitting
    uses_hexes = reach.uses_hexes
    max_x = reach.max_hexes
    visited = bytearray(len(g.nodes))
    node_shift = len(g.paths) + len(g.end_lane) + 1
    group_shift = node_shift + len(g.nodes)
    # the game's walk rules (_Net): a route passing one of the pass-once nodes takes a group
    # bit of its own (so no route, nor two arms of one, passes two), and the hexes an arm
    # enters are bits above the groups' (two arms of one route enter no hex both)
    pass_once = net.pass_once
    distinct = net.distinct
    passed = hex_shift = 0
    if pass_once is not None or distinct:
        passed = 1 << max((gm.bit_length() for gm in groups), default=0)
        hex_shift = group_shift + passed.bit_length()
    chain_hexes = net.chain_hexes
    hex_cache = net._chain_hexes
    # the reach a route may still use beyond an arm, and the most it adds (worked out when
    # the walk first has a threshold)
    cap = last = cap_major = pay = town_pay = 0
    tops_v: list[int] = []
    tops_major: list[int] = []
    town_tops: list[int] | None = None

    def load(made: _Ceiling) -> None:
        nonlocal cap, tops_v, last, cap_major, tops_major, town_tops, pay, town_pay
        cap, tops_v, last = made.cap, made.v, len(made.v) - 1
        cap_major, tops_major = made.cap_major, made.major
        town_tops, pay, town_pay = made.towns, made.pay, made.town_pay
        town_pay = min(town_pay, len(town_tops) - 1 if town_tops is not None else 0)

    #: each node's closer ceiling for the token grown (:func:`_onward`; None: the map's
    #: best stops only), by the reach left, and the ceiling of an arm that ends where it is;
    #: made once a token's arms are many (_NEAR_AFTER), and for every later token
    near: list[list[int]] | None = None
    near_stop: list[int] = []
    #: whether the closer ceiling is made (None: not yet; False: the net has none)
    closer: bool | None = None
    #: the token being grown, and the stops its routes may not go to
    current: tuple[int, tuple[int, ...]] = (0, ())

    def onward(start: int, left_out: tuple[int, ...]) -> list[int] | None:
        """Make :data:`near` for the token ``start``; its routes' ceiling by the reach
        left (both its arms), or None when walks are not bounded."""
        nonlocal near, near_stop, closer
        walks = _onward(net, bound, cap, left_out) if cap <= _ONWARD_REACH else None
        if walks is None:
            closer = False
            near = None
            return None
        closer = True
        home = walks[start]
        tops = [tops_v[r if r < last else last] for r in range(cap + 1)]
        near_stop = [min(t, home[r]) for r, t in enumerate(tops)]
        near = [
            [min(t, max(row[a] + home[r - a] for a in range(r + 1))) for r, t in enumerate(tops)]
            for row in walks
        ]
        return [
            min(t, max(home[a] + home[r - a] for a in range(r + 1))) for r, t in enumerate(tops)
        ]

    #: each train's reach (as :attr:`_Reach.least`), and the least sum an arm using
    #: ``u`` of it needs for some train to reach its least with the best stops the rest
    #: of its reach may add (for the ceiling and thresholds it was worked out for)
    caps = [s.capacity(0b111) for s in reach.specs]
    one = len(caps) == 1
    # whether the ceiling is tested from the first arm, or once a token's arms are many;
    # whether it is tested now
    late = ceiling is not None and not eager
    active = eager and ceiling is not None
    #: per list of each train's least (by its identity: :attr:`_Reach.least`, or one of
    #: ``by_exits``), the arm needs worked out for the ceiling it was worked out with
    arm_needs: dict[int, list[int]] = {}
    need_tops: list[int] | None = None
    #: the most reach any route uses (every stop of the map's; worked out when first asked)
    most_use = -1

    def needs_by_use(least: list[int]) -> list[int]:
        nonlocal need_tops, most_use
        if tops_v is not need_tops:
            arm_needs.clear()
            need_tops = tops_v
        found = arm_needs.get(id(least))
        if found is not None:
            return found
        if most_use < 0:
            most_use = sum(max(cost[n], 0) for n, k in enumerate(kind) if k >= 0)
        found = arm_needs[id(least)] = [
            min(
                (
                    t - tops_v[c - u if c - u < last else last]
                    for c, t in zip(caps, least, strict=True)
                    if c >= u
                ),
                default=_BIG,
            )
            for u in range(min(cap, most_use) + 1)
        ]
        return found

    if gate is None:
        gate = [_BIG]
    endable = net.ends_for(reach.specs)
    token_ends = True
    #: for trains whose routes end only at nodes of their own (the E-train's own cities):
    #: the ends a route may come to beyond stop m, come from n, by (n, m), for the token
    #: being grown (not where the game's rules leave out a kind of stop as an end: most
    #: stops are still ends there, and looking for them costs more than it leaves out)
    beyond: dict[tuple[int, int], int] | None = None
    if endable is not None and all(s.name in net.train_ends for s in reach.specs):
        beyond = {}
    # the groups of the token whose arms are grown (a partner shares them: its block leaves
    # them out)
    g0 = 0
    # whether every stop uses some reach (then an arm no train could take a stop further
    # ends where it is)
    stop_costs = net.costly
    grown_get = reach.grown.get
    grows = reach.grows

    def leave(
        arms: _Arms,
        n: int,
        leaving: Sequence[int],
        ways: list[_Way],
        stops_seen: int,
        c: int,
        t: int,
        o: int,
        x: int,
        v: int,
        w: int,
        gmask: int,
        first: int,
        term_first: bool,
    ) -> None:
        """Grow the arms on from stop ``n`` through its path ends ``leaving``, where the
        arm's ways along the track (``ways``: the same stops, each its own track) arrive
        (from the token: none yet, and ``first`` < 0). Each stop ``m`` that some chain of
        track leads to, and that some of the ways may take it to, is an arm more (recorded
        as one row, with every way of getting there), grown on from ``m`` in turn."""
        nonlocal active
        if closer is None and arms.size >= _NEAR_AFTER:
            # many arms: the ceiling is worth testing, and a closer one worth making
            active = active or late
            if tops_v and town_tops is None:
                onward(*current)
        at_token = first < 0
        rows = arms.rows
        arm_ends = arms.end
        # the track every way uses
        common = ways[0][0]
        if len(ways) > 1:
            for way in ways:
                common &= way[0]
        # the ways to each next stop, by the stop, the hex sides crossed (where some train
        # counts them) and what the hexes entered add: the ways of one arm earn the same
        # (the key: the stop, then the hex sides above _KEY_STOP, the value above _KEY_HEXES)
        # (from the token, the arms through each first path end apart, in increasing order)
        batches = [(e,) for e in leaving] if at_token else [leaving]
        for batch in batches:
            ahead: dict[int, list[_Way]] = {}
            for e in batch:
                p = e >> 1
                if common & bits[p]:
                    continue
                if at_token:
                    first = e
                    term_first = terminal[p]
                elif terminal[p]:
                    # a terminal path only as a route's first path, leaving its first stop
                    continue
                out_chains = chains[e]
                if out_chains is None:
                    out_chains = chain_of(e)
                extras = None
                if hex_cache is not None:
                    extras = hex_cache[e]
                    if extras is None:
                        extras = chain_hexes(e)
                for index, (m, mask, cx, cends, jm, term) in enumerate(out_chains):
                    gm = groups[m]
                    if visited[m] or common & mask or gm & gmask or mask & forbid:
                        continue
                    nx = x + cx
                    if nx > max_x:
                        continue
                    entered = value = 0
                    if extras is not None:
                        entered, value, again = extras[index]
                        if not distinct:
                            entered = 0
                        elif again:
                            continue
                    seen_m = bits[m] | jm
                    # what a partner may not share besides the track, the nodes visited and the
                    # hexes entered: the stops' groups without the token's
                    shared = ((gmask | gm) ^ g0) << group_shift
                    bucket: list[_Way] | None = None
                    for used, seen, hexes, ax, link, _, _ in ways:
                        if used & mask or seen & jm or (distinct and entered & hexes):
                            continue
                        if bucket is None:
                            key = m | value << _KEY_HEXES
                            if uses_hexes:
                                key |= nx << _KEY_STOP
                            bucket = ahead.get(key)
                            if bucket is None:
                                bucket = ahead[key] = []
                        used |= mask
                        seen |= seen_m
                        hexes |= entered
                        bucket.append(
                            (
                                used,
                                seen,
                                hexes,
                                ax + cx,
                                (m, cends, link),
                                term,
                                used | seen << node_shift | shared | hexes << hex_shift,
                            )
                        )
            for key, reached in ahead.items():
                m = key & _KEY_NODE
                nx = key >> _KEY_STOP & _FIELD
                value = key >> _KEY_HEXES
                onward_ends = -1
                if beyond is not None:
                    # no end not visited beyond m (by any track, passing neither n nor the
                    # token): an arm that ends where no route may end makes no route, nor do
                    # its longer arms; one that may end there is not grown further
                    assert endable is not None
                    pair = (n, m)
                    onward_ends = beyond.get(pair, -1)
                    if onward_ends < 0:
                        onward_ends = beyond[pair] = _ends_beyond(net, endable, m, (n, current[0]))
                    onward_ends &= ~stops_seen
                    if not onward_ends and not endable[m]:
                        continue
                k = kind[m]
                mc, mt, mo = c, t, o
                if k == CITY:
                    mc += cost[m]
                elif k == TOWN:
                    mt += cost[m]
                else:
                    mo += cost[m]
                # the counts packed (as _pack does)
                counts = mc | mt << _SHIFT | mo << 2 * _SHIFT
                code = counts | nx << 3 * _SHIFT if uses_hexes else counts
                ok = fits_get(code)
                if ok is None:
                    ok = fitting(code)
                if not ok:
                    continue
                nv = v + value + bound[m]
                nw = w + value + prune[m]
                # the ways that may go on from m
                going = reached
                if not passable[m] or k == OFFBOARD:
                    going = []
                elif len(reached) > 1 or reached[0][5]:
                    going = [way for way in reached if not way[5]]
                if active and reach.floor > _NO_THRESHOLD:
                    if not tops_v:
                        assert ceiling is not None  # (eager and late need one)
                        load(ceiling())
                    base = arms.v0 + nv
                    if town_tops is None:
                        # some train must reach its least with the best stops the rest of
                        # its reach may add
                        u = mc + mt + mo
                        least = reach.least
                        if by_exits is not None:
                            # by the exits every way of the arm uses
                            ex = reached[0][6]
                            for way in reached:
                                ex &= way[6]
                            least = by_exits.least(ex)
                        if one:
                            room = cap - u
                            keep = base + tops_v[room if room < last else last] >= least[0]
                        else:
                            keep = base >= needs_by_use(least)[u]
                        if keep and near is not None:
                            # closer: the stops the route may go on to from here
                            row = near[m] if going else near_stop
                            if one:
                                keep = base + row[cap - u] >= least[0]
                            else:
                                keep = any(
                                    base + row[c - u] >= t
                                    for c, t in zip(caps, least, strict=True)
                                    if c >= u
                                )
                    else:
                        room = cap - mc - mt - mo
                        keep = base + tops_v[room if room < last else last] >= reach.floor
                        if keep:
                            keep = (
                                _filled(
                                    arms.w0 + nw,
                                    mc + mo,
                                    cap_major,
                                    pay,
                                    town_pay,
                                    tops_v,
                                    tops_major,
                                    town_tops,
                                )
                                >= reach.floor
                            )
                    if not keep:
                        # no route through this arm reaches what it needs
                        arms.pruned = reach.least
                        continue
                i = len(rows)
                # what every way blocks (none pairs with an arm whose first path is terminal)
                core = -1
                if not term_first:
                    core = reached[0][6]
                    if len(reached) > 1:
                        for way in reached:
                            core &= way[6]
                ends_ok = endable is None or endable[m]
                rows.append((first, tuple(reached), core, code, (mc, mt, mo, nx), nv, nw, ends_ok))
                arms.size += len(reached)
                arm_ends.append(0)
                if watch is not None and arms.v0 + nv >= gate[0] and token_ends and ends_ok:
                    # the routes of the token and this arm: they may raise the thresholds now
                    for used, _, _, ax, link, _, _ in reached:
                        watch(
                            (
                                used,
                                arms.v0 + nv,
                                mc,
                                mt,
                                mo,
                                ax,
                                arms.token,
                                link,
                                None,
                                arms.w0 + nw,
                                code,
                                None,
                            )
                        )
                if going and onward_ends:
                    mgmask = gmask | groups[m]
                    if stop_costs:
                        more = grown_get(counts)
                        if more is None:
                            more = grows(counts)
                        if not more:
                            # no train could visit a stop more: the arm ends here
                            arm_ends[i] = len(rows)
                            continue
                    if pass_once is not None and pass_once[m]:
                        if mgmask & passed:
                            arm_ends[i] = len(rows)
                            continue
                        mgmask |= passed
                    visited[m] = 1
                    leave(
                        arms,
                        m,
                        node_ends[m],
                        going,
                        stops_seen | bits[m],
                        mc,
                        mt,
                        mo,
                        nx,
                        nv,
                        nw,
                        mgmask,
                        first,
                        term_first,
                    )
                    visited[m] = 0
                arm_ends[i] = len(rows)

    tokens = net.token_nodes
    if eager and ceiling is not None and all(s.unlimited for s in reach.specs):
        # trains of unlimited reach: the rest of the map is always within reach, so the
        # ceiling leaves out no arm of a token, only whole tokens (below); the tokens of
        # most value first, as the routes through them raise the thresholds soonest, and
        # the later tokens' routes, which leave them out, may then fall short
        tokens = sorted(tokens, key=lambda n: -bound[n])
    #: the tokens whose arms are grown (the later tokens' routes leave them out)
    done: list[int] = []
    for start in tokens:
        k = kind[start]
        if k < 0:
            continue
        cw = cost[start]
        c0, t0, o0 = cw * (k == CITY), cw * (k == TOWN), cw * (k == OFFBOARD)
        code = _pack(c0, t0, o0, 0)
        ok = fits_get(code)
        if ok is None:
            ok = fitting(code)
        if not ok:
            continue
        extra = net.token_hex.get(start, 0)
        arms = _Arms(start, bound[start] + extra, prune[start] + extra)
        token_ends = endable is None or endable[start]
        if beyond is not None:
            beyond.clear()
        g0 = groups[start]
        visited[start] = 1
        grow = True
        near = None
        current = (start, (start,))
        if ceiling is not None:
            # the earlier tokens' stops left out of this token's ceilings
            left = [n for n in done if bound[n] > 0 or prune[n] > 0]
            current = (start, (*left, start))
        if ceiling is not None and reach.floor > _NO_THRESHOLD and (eager or active):
            # the most a route through this token earns, the earlier tokens left out
            load(_Ceiling(net, reach, bound, prune, current[1]) if left else ceiling())
            u = c0 + t0 + o0
            if town_tops is None:
                if one:
                    room = cap - u
                    grow = arms.v0 + tops_v[room if room < last else last] >= reach.floor
                else:
                    grow = arms.v0 >= needs_by_use(reach.least)[u]
                if grow and closer:
                    pair = onward(*current)
                    if pair is not None:
                        grow = any(
                            arms.v0 + pair[c - u] >= t
                            for c, t in zip(caps, reach.least, strict=True)
                            if c >= u
                        )
            else:
                room = cap - u
                most = arms.v0 + tops_v[room if room < last else last]
                if most >= reach.floor:
                    most = _filled(
                        arms.w0, c0 + o0, cap_major, pay, town_pay, tops_v, tops_major, town_tops
                    )
                grow = most >= reach.floor
            if not grow:
                # no route through this token reaches what it needs
                arms.pruned = reach.least
        done.append(start)
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20000))
        try:
            if grow:
                home: _Way = (0, 0, 0, 0, None, False, 0)
                leave(arms, start, node_ends[start], [home], 0, c0, t0, o0, 0, 0, 0, g0, -1, False)
        finally:
            sys.setrecursionlimit(limit)
        # the routes through this token are all found from its arms: the later tokens'
        # arms leave it out
        arms.finish(endable is not None)
        yield arms


def _walk(
    net: _Net,
    reach: _Reach,
    arms_of: Iterable[_Arms],
    watch: Callable[[_Found], None] | None = None,
    gate: list[int] | None = None,
    together: int | None = None,
    by_exits: _ExitNeeds | None = None,
) -> tuple[dict[int, _Found], bool]:
    """The routes through the corporation's token cities: each token's arms alone, and each
    arm with every later arm (a later first end) that shares none of its track, nodes or
    groups and with which some train may run it — in the order a depth-first walk of the
    routes (arm 1, then arm 2 from the token with arm 1's track used) finds them.

    With ``together`` (the track the game rates, :meth:`GameRules.rating_track`), the ways
    of a pair of arms (or of an arm alone) that use the same of that track are one route,
    found by one of them, with the others kept beside it (:data:`_Ways`); without, each way
    is a route of its own. With ``by_exits``, a route is kept only where it reaches what its
    trains need by the exits its ways all use, too (:class:`_ExitNeeds`).

    A route is kept only when its sums reach what its counts need (:meth:`_Reach.score`);
    arms whose best longer arm, with their best partner, cannot are skipped whole, as are
    an arm's partners whose best longer arm cannot. An arm's longer arms pass over the
    partners it found blocked (they block all it blocks). ``watch`` (if given) sees each
    new route whose sum reaches ``gate[0]``, and may raise the thresholds. Returns the
    routes, keyed by their track masks (the first found of each), and whether a threshold
    left any out."""
    packed = reach.packed
    packed_get = packed.get
    needs_of = reach.needs
    bits = net.bits
    fill = reach.town_tops is not None
    found: dict[int, _Found] = {}
    route: _Found
    cut = False
    ends_at = net.ends_for(reach.specs)
    if gate is None:
        gate = [_BIG]
    for arms in arms_of:
        if arms.pruned is not None:
            cut = True
        token = arms.token
        v0 = arms.v0
        w0 = arms.w0
        alts = arms.alts
        blocks = arms.block
        codes = arms.code
        counts = arms.counts
        vs = arms.v
        ws = arms.w
        ends = arms.end
        tops = arms.top
        tops_w = arms.top_w
        rests = arms.rest
        partners = arms.partner
        partners_w = arms.partner_w
        higher = arms.higher
        firsts = arms.first
        n = len(alts)
        #: the track every way of each arm uses and that some way uses, and its ways by the
        #: part of the rated track they use (made when asked: :func:`_spans`, :func:`_parts`)
        spans: list[tuple[int, int] | None] = [] if together is None else [None] * n
        parts: list[dict[int, list[_Way]] | None] = [] if together is None else [None] * n
        bc, bt, bo = _token_counts(net, token)
        own = _pack(bc, bt, bo, 0)
        # the game's rules of where routes end: an arm whose last stop may not end a route
        # makes no route of its own, nor with a partner (its longer arms may)
        endable = arms.endable
        token_ends = ends_at is None or ends_at[token]
        if reach.single and token_ends:
            if v0 >= reach.single_need((bc, bt, bo)):
                # the token's city alone (a local train's route): no track, its own bit
                # above the track's, so that two such routes of one city never run together
                single = 1 << (net.single_shift + token)
                if single not in found:
                    route = (single, v0, bc, bt, bo, 0, token, None, None, w0, own, None)
                    found[single] = route
                    if v0 >= gate[0] and watch is not None:
                        watch(route)
            else:
                cut = True
        # the partners known blocked (a flat list of [start, stop) ranges, in order) for
        # the arms being walked: an arm's longer arms block all it blocks, so they pass
        # over its ranges without testing them; (the end of its longer arms, its ranges)
        known: list[tuple[int, list[int]]] = []
        # (worth it only where a token's arms are many)
        deep = n >= _SKIPS_AFTER
        i = 0
        while i < n:
            while known and known[-1][0] <= i:
                known.pop()
            code = codes[i]
            needs = packed_get(code)
            if needs is None:
                needs = needs_of(code)
            need, need_w = needs
            if v0 + tops[i] + max(partners[i], 0) < need or (
                fill and w0 + tops_w[i] + max(partners_w[i], 0) < need_w
            ):
                # no route through this arm or a longer one reaches what it needs
                cut = True
                i = ends[i]
                continue
            alts_i = alts[i]
            vi = v0 + vs[i]
            wi = w0 + ws[i]
            ci, ti, oi, _ = counts[i]
            ends_i = endable is None or endable[i]
            reaches = vi >= need and wi >= need_w
            if reaches and by_exits is not None and vi < by_exits.most:
                # enough beside the other trains' routes that may run with it?
                used = blocks[i] if blocks[i] >= 0 else bits[firsts[i] >> 1]
                reaches = vi >= by_exits.need(used, code)
            if reaches:
                if ends_i and token_ends:
                    if together is None or len(alts_i) == 1:
                        for mi, _, _, xi, li, _, _ in alts_i:
                            if mi not in found:
                                route = (mi, vi, ci, ti, oi, xi, token, li, None, wi, code, None)
                                found[mi] = route
                                if vi >= gate[0] and watch is not None:
                                    watch(route)
                    else:
                        span_i = spans[i]
                        if span_i is None:
                            span_i = spans[i] = _spans(alts_i)
                        parts_i = parts[i]
                        if parts_i is None:
                            parts_i = parts[i] = _parts(alts_i, together)
                        for part, (way, *_) in parts_i.items():
                            mi = way[0]
                            if mi not in found:
                                kept = (span_i[0] | part, span_i[1], alts_i, None, together, part)
                                route = (
                                    mi,
                                    vi,
                                    ci,
                                    ti,
                                    oi,
                                    way[3],
                                    token,
                                    way[4],
                                    None,
                                    wi,
                                    code,
                                    kept,
                                )
                                found[mi] = route
                                if vi >= gate[0] and watch is not None:
                                    watch(route)
            else:
                cut = True
            bi = blocks[i]
            if bi >= 0 and partners[i] >= 0 and ends_i:
                base = code - own
                floor = reach.floor
                j = rests[i]
                skips = known[-1][1] if known else _NO_SKIPS
                k = 0
                last = len(skips)
                ahead = skips[0] if last else n
                # the ranges blocked for this arm's longer arms (None: it has none)
                out: list[int] | None = [] if deep and ends[i] > i + 1 else None
                while True:
                    if j >= ahead:
                        # a range known blocked: passed over
                        if k >= last:
                            break
                        stop = skips[k + 1]
                        if out is not None:
                            if out and out[-1] >= skips[k]:
                                if stop > out[-1]:
                                    out[-1] = stop
                            else:
                                out.append(skips[k])
                                out.append(stop)
                        if j < stop:
                            j = stop
                        k += 2
                        ahead = skips[k] if k < last else n
                        continue
                    top = vi + tops[j]
                    if top < floor:
                        # nor does any arm up to the next with a higher top
                        cut = True
                        j = higher[j]
                        continue
                    blocked = blocks[j] & bi
                    if not blocked:
                        code = base + codes[j]
                        needs = packed_get(code)
                        if needs is None:
                            needs = needs_of(code)
                        need, need_w = needs
                        if top < need or (fill and wi + tops_w[j] < need_w):
                            if need != _NO_FIT:
                                cut = True
                            j = ends[j]
                            continue
                        v = vi + vs[j]
                        w = wi + ws[j]
                        if (
                            by_exits is not None
                            and need <= v < by_exits.most
                            and v < by_exits.need(bi | blocks[j], code)
                        ):
                            # not enough beside the other trains' routes that may run with it
                            cut = True
                            j += 1
                            continue
                        if v >= need and w >= need_w:
                            if endable is None or endable[j]:
                                # every pair of ways that share nothing is a route (or, with
                                # ``together``, the pairs using the same of the rated track);
                                # where none is, no way of a longer arm pairs either
                                blocked = True
                                cj, tj, oj, _ = counts[j]
                                alts_j = alts[j]
                                if together is None or len(alts_i) * len(alts_j) == 1:
                                    for mi, _, _, xi, li, _, bi_way in alts_i:
                                        for mj, _, _, xj, lj, _, bj_way in alts_j:
                                            if bi_way & bj_way:
                                                continue
                                            blocked = False
                                            mask = mi | mj
                                            if mask in found:
                                                continue
                                            route = (
                                                mask,
                                                v,
                                                ci + cj - bc,
                                                ti + tj - bt,
                                                oi + oj - bo,
                                                xi + xj,
                                                token,
                                                li,
                                                lj,
                                                w,
                                                code,
                                                None,
                                            )
                                            found[mask] = route
                                            if v >= gate[0] and watch is not None:
                                                watch(route)
                                                floor = reach.floor
                                else:
                                    # the ways kept together: a route for each part of the
                                    # rated track pairs of them use
                                    parts_i = parts[i]
                                    if parts_i is None:
                                        parts_i = parts[i] = _parts(alts_i, together)
                                    parts_j = parts[j]
                                    if parts_j is None:
                                        parts_j = parts[j] = _parts(alts_j, together)
                                    pairs = _paired(parts_i, parts_j)
                                    if pairs:
                                        blocked = False
                                        span_i = spans[i]
                                        if span_i is None:
                                            span_i = spans[i] = _spans(alts_i)
                                        span_j = spans[j]
                                        if span_j is None:
                                            span_j = spans[j] = _spans(alts_j)
                                        core = span_i[0] | span_j[0]
                                        union = span_i[1] | span_j[1]
                                    for a, b, part in pairs:
                                        mask = a[0] | b[0]
                                        if mask in found:
                                            continue
                                        route = (
                                            mask,
                                            v,
                                            ci + cj - bc,
                                            ti + tj - bt,
                                            oi + oj - bo,
                                            a[3] + b[3],
                                            token,
                                            a[4],
                                            b[4],
                                            w,
                                            code,
                                            (core | part, union, alts_i, alts_j, together, part),
                                        )
                                        found[mask] = route
                                        if v >= gate[0] and watch is not None:
                                            watch(route)
                                            floor = reach.floor
                        else:
                            cut = True
                    if blocked:
                        if out is not None:
                            if out and out[-1] >= j:
                                if ends[j] > out[-1]:
                                    out[-1] = ends[j]
                            else:
                                out.append(j)
                                out.append(ends[j])
                        j = ends[j]
                        continue
                    j += 1
                if out is not None:
                    known.append((ends[i], out))
            i += 1
    return found, cut


def _spans(ways: tuple[_Way, ...]) -> tuple[int, int]:
    """The track every one of an arm's ways uses, and that some way uses."""
    core = union = ways[0][0]
    for way in ways:
        core &= way[0]
        union |= way[0]
    return core, union


def _parts(ways: tuple[_Way, ...], together: int) -> dict[int, list[_Way]]:
    """An arm's ways by the part of the track ``together`` they use, in order (all of them
    one part where it is 0)."""
    out: dict[int, list[_Way]] = {}
    for way in ways:
        out.setdefault(way[0] & together, []).append(way)
    return out


def _paired(
    parts_i: dict[int, list[_Way]], parts_j: dict[int, list[_Way]]
) -> list[tuple[_Way, _Way, int]]:
    """For each part of the rated track that pairs of two arms' ways use (their ways by
    part, :func:`_parts`), the first pair, one way of each arm, that shares nothing, and
    the part (:func:`_walk`); ``[]`` where no pair shares nothing."""
    out: dict[int, tuple[_Way, _Way, int]] = {}
    for part_i, firsts in parts_i.items():
        for part_j, seconds in parts_j.items():
            part = part_i | part_j
            if part in out:
                continue
            for a in firsts:
                block = a[6]
                b = next((b for b in seconds if not block & b[6]), None)
                if b is not None:
                    out[part] = (a, b, part)
                    break
    return list(out.values())


def _track(found: _Found) -> int:
    """The track every way of a found route uses (its mask where it has one way)."""
    kept = found[11]
    return found[0] if kept is None else kept[0]


def _any_track(found: _Found) -> int:
    """The track some way of a found route uses (its mask where it has one way)."""
    kept = found[11]
    return found[0] if kept is None else kept[1]


def _members(found: _Found) -> Iterator[tuple[int, _Way | None, _Way | None]]:
    """The ways of a found route (:data:`_Ways`): (track mask, arm 1's way, arm 2's way);
    a route of one way: its mask alone."""
    kept = found[11]
    if kept is None:
        yield found[0], None, None
        return
    _, _, ways_i, ways_j, together, part = kept
    if ways_j is None:
        for a in ways_i:
            if a[0] & together == part:
                yield a[0], a, None
        return
    for a in ways_i:
        block = a[6]
        for b in ways_j:
            if not block & b[6]:
                mask = a[0] | b[0]
                if mask & together == part:
                    yield mask, a, b


def _resolve(lists: Sequence[_Ranked], picks: Sequence[int]) -> list[_Found | None] | None:
    """A way for each route of a run (``picks``: a route index in each list, or -1 for
    none), no two sharing track, each route as that way (None: there is no such choice).
    The combination chooses routes by the track all their ways use (:func:`_track`); this
    settles a run it found."""
    chosen = [
        (lst.found[j], lst.shift) if j >= 0 else None for lst, j in zip(lists, picks, strict=True)
    ]
    out: list[_Found | None] = [c[0] if c is not None else None for c in chosen]
    several = [k for k, c in enumerate(chosen) if c is not None and c[0][11] is not None]
    if not several:
        return out
    used = 0
    for c in chosen:
        if c is not None and c[0][11] is None:
            used |= c[0][0] << c[1]
    # the routes with fewest ways first; each way tried once per the track the later
    # routes may use
    several.sort(key=lambda k: _count_ways(chosen[k]))
    later = [0] * (len(several) + 1)
    for i in range(len(several) - 1, -1, -1):
        item = chosen[several[i]]
        assert item is not None
        later[i] = later[i + 1] | _any_track(item[0]) << item[1]
    picked: list[tuple[int, _Way | None, _Way | None]] = []

    def choose(i: int, used: int) -> bool:
        if i == len(several):
            return True
        item = chosen[several[i]]
        assert item is not None
        found, shift = item
        tried: set[int] = set()
        for member in _members(found):
            mask = member[0] << shift
            if mask & used:
                continue
            key = mask & later[i + 1]
            if key in tried:
                continue
            tried.add(key)
            picked.append(member)
            if choose(i + 1, used | mask):
                return True
            picked.pop()
        return False

    if not choose(0, used):
        return None
    for k, (mask, a, b) in zip(several, picked, strict=True):
        item = chosen[k]
        assert item is not None and a is not None
        f = item[0]
        x = a[3] + (b[3] if b is not None else 0)
        out[k] = (
            mask,
            f[1],
            f[2],
            f[3],
            f[4],
            x,
            f[6],
            a[4],
            None if b is None else b[4],
            f[9],
            f[10],
            None,
        )
    return out


def _count_ways(item: tuple[_Found, int] | None) -> int:
    """How many ways a chosen route may have at most (its arms' ways' product)."""
    assert item is not None
    kept = item[0][11]
    if kept is None:
        return 1
    return len(kept[2]) * (len(kept[3]) if kept[3] is not None else 1)


#: The key of an arm's ways to a stop as :func:`_grown` groups them: the stop's node in the
#: low bits, the hex sides crossed above ``_KEY_STOP``, what the hexes entered add above
#: ``_KEY_HEXES``.
_KEY_STOP = 24
_KEY_NODE = (1 << _KEY_STOP) - 1
_KEY_HEXES = _KEY_STOP + _SHIFT

#: No partners known blocked (:func:`_walk`), and how many arms a token must have for its
#: walk to hand down the partners its arms found blocked.
_NO_SKIPS: list[int] = []
_SKIPS_AFTER = 256


def _token_counts(net: _Net, token: int) -> tuple[int, int, int]:
    """A token city's own counts (cities, towns, offboards by visit cost)."""
    k = net.kind[token]
    w = net.cost[token]
    return (w * (k == CITY), w * (k == TOWN), w * (k == OFFBOARD))


# ------------------------------------------------------------------------------ the planner

#: The specs of trains under rules that work them out from the train alone (the base rule's
#: :meth:`GameRules.train_spec`): (rules class, the train's id) -> (train, spec).
_SPECS: dict[tuple[type, int], tuple[TrainType, TrainSpec]] = {}


class _Ranked:
    """One train's routes, best first, rated exactly only as far as the search asks
    (:meth:`fill`). Routes wait in the order of their bounds; one is rated when its bound
    exceeds the best rated route not yet ranked, so the ranking is that of the exact
    revenues (ties: the routes rated in the order the walk found them, before those whose
    bound only equals their revenue; a tight bound leaves many such routes unrated). With
    ``refine`` (a closer bound of a route, :meth:`GameRules.stops_bound`), a route whose
    bound comes up is bounded closer first, and waits again by that bound where it is
    lower."""

    __slots__ = (
        "_heap",
        "_held",
        "_next",
        "_rate",
        "_refine",
        "_waiting",
        "found",
        "grouped",
        "masks",
        "revs",
        "shift",
        "unions",
    )

    def __init__(
        self,
        waiting: list[tuple[int, int, _Found]],
        rate: Callable[[_Found], int | None],
        shift: int = 0,
        refine: Callable[[_Found], int] | None = None,
    ) -> None:
        #: (bound, walk order, route), by bound (best first), then walk order
        self._waiting = waiting
        #: how far the routes' track masks are shifted (the train's track pool: routes of
        #: trains of different pools never collide)
        self.shift = shift
        self._next = 0
        self._heap: list[tuple[int, int, _Found]] = []
        #: the routes bounded closer, waiting by that bound (negated, walk order, route)
        self._held: list[tuple[int, int, _Found]] = []
        self._rate = rate
        self._refine = refine
        self.revs: list[int] = []
        #: the track every way of each ranked route uses, and that some way uses (shifted)
        self.masks: list[int] = []
        self.unions: list[int] = []
        self.found: list[_Found] = []
        #: whether some route ranked has several ways (:data:`_Ways`)
        self.grouped = False

    @classmethod
    def exact(cls, ranked: list[tuple[int, int, _Found]], shift: int = 0) -> _Ranked:
        """A list whose routes are rated already: (revenue, walk order, route), best first."""
        out = cls([], lambda f: None, shift)
        for revenue, _, found in ranked:
            out._take(revenue, found)
        return out

    def _advance(self) -> None:
        """Rate the waiting routes whose bound exceeds the best rated route not yet ranked
        (that route is then the best left)."""
        waiting = self._waiting
        heap = self._heap
        held = self._held
        rate = self._rate
        refine = self._refine
        i = self._next
        n = len(waiting)
        if refine is None:
            while i < n and (not heap or waiting[i][0] > -heap[0][0]):
                _, order, found = waiting[i]
                i += 1
                value = rate(found)
                if value is not None:
                    heapq.heappush(heap, (-value, order, found))
            self._next = i
            return
        while True:
            wait = waiting[i][0] if i < n else None
            if wait is not None and (not held or wait >= -held[0][0]):
                if heap and wait <= -heap[0][0]:
                    break
                _, order, found = waiting[i]
                i += 1
                closer = refine(found)
                if closer < wait:
                    heapq.heappush(held, (-closer, order, found))
                    continue
            elif held:
                if heap and -held[0][0] <= -heap[0][0]:
                    break
                _, order, found = heapq.heappop(held)
            else:
                break
            value = rate(found)
            if value is not None:
                heapq.heappush(heap, (-value, order, found))
        self._next = i

    def fill(self, j: int) -> bool:
        """Whether there is a ``j``-th best route (ranking as far as that)."""
        revs = self.revs
        if j < len(revs):
            return True
        heap = self._heap
        while len(revs) <= j:
            self._advance()
            if not heap:
                break
            value, _, found = heapq.heappop(heap)
            self._take(-value, found)
        return j < len(revs)

    def _take(self, revenue: int, found: _Found) -> None:
        """Rank ``found`` next, earning ``revenue``."""
        self.revs.append(revenue)
        kept = found[11]
        if kept is None:
            self.masks.append(found[0] << self.shift)
            self.unions.append(found[0] << self.shift)
        else:
            self.grouped = True
            self.masks.append(kept[0] << self.shift)
            self.unions.append(kept[1] << self.shift)
        self.found.append(found)

    @property
    def exhausted(self) -> bool:
        """Whether every route is ranked (or known not to run)."""
        return self._next == len(self._waiting) and not self._heap and not self._held

    def rank(self, size: int, ceiling: int) -> int:
        """Rank routes until ``size`` are ranked or the last earns ``ceiling`` or less (or
        none is left); how many are ranked."""
        revs = self.revs
        if len(revs) >= size or (revs and revs[-1] <= ceiling):
            return len(revs)
        heap = self._heap
        while True:
            self._advance()
            if not heap:
                break
            value, _, found = heapq.heappop(heap)
            self._take(-value, found)
            if -value <= ceiling or len(revs) >= size:
                break
        return len(revs)


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
        self._specs: dict[int, tuple[TrainType, TrainSpec]] = {}
        self._exact: dict[TrainSpec, dict[int, _Rated | None]] = {}
        #: found routes' stops and path ends by track mask (:func:`_unfold`, once a route)
        self._unfolded: dict[int, tuple[tuple[int, ...], _PathEnds]] = {}
        self._origin: dict[Route, tuple[TrainSpec, _Rated]] = {}
        #: nets kept to some hexes (:meth:`candidates`)
        self._within: dict[frozenset[str], _Net] = {}

    def train(self, train: TrainType | str) -> TrainType:
        """A train type, or the game's train type of that name, or one the game's rules make
        of another in play (:meth:`GameRules.train_type`; else :class:`NotFoundError`)."""
        if isinstance(train, TrainType):
            return train
        try:
            return self.board.game.trains.train_type(train)
        except NotFoundError:
            made = self.rules.train_type(self.board.game, train)
            if made is None:
                raise
            return made

    def spec(self, train: TrainType | str) -> TrainSpec:
        """How the game's rules rate ``train`` (:class:`UnsupportedTrain` when they cannot)."""
        t = self.train(train)
        # kept by the train's identity (a train type's hash walks all its fields)
        held = self._specs.get(id(t))
        if held is not None and held[0] is t:
            return held[1]
        kind = type(self.rules)
        if kind.train_spec is GameRules.train_spec:
            # the base rule reads the train alone
            shared = _SPECS.get((kind, id(t)))
            if shared is not None and shared[0] is t:
                found = shared[1]
            else:
                if len(_SPECS) > 4096:
                    _SPECS.clear()
                found = self.rules.train_spec(t, self.context)
                _SPECS[(kind, id(t))] = (t, found)
        else:
            found = self.rules.train_spec(t, self.context)
        self._specs[id(t)] = (t, found)
        return found

    # --------------------------------------------------------------- rating

    def _unfold(self, found: _Found) -> tuple[tuple[int, ...], _PathEnds]:
        """A found route's stops and path ends (:func:`_unfold`), kept by its track mask."""
        unfolded = self._unfolded.get(found[0])
        if unfolded is None:
            unfolded = self._unfolded[found[0]] = _unfold(found)
        return unfolded

    def rated(self, spec: TrainSpec, found: _Found) -> _Rated | None:
        """A found route rated exactly for ``spec`` (None when the train may not run it):
        its stop counts, length and reach, then what it earns under the game's rules."""
        cache = self._exact.get(spec)
        if cache is None:
            cache = self._exact[spec] = {}
        mask = found[0]
        if mask in cache:
            return cache[mask]
        out = cache[mask] = self._rated(spec, found)
        return out

    def _rated(self, spec: TrainSpec, found: _Found, fits: bool = False) -> _Rated | None:
        """:meth:`rated` worked out; ``fits``: the route's stop counts are known to fit the
        train (:func:`_runner` said so)."""
        ctx = self.context
        rules = self.rules
        mask, _, c, t, o, x = found[:6]
        if not fits and not spec.fits((c, t, o)):
            return None
        hex_limit = spec.hexes
        generic_hexes = type(rules).hex_distance is GameRules.hex_distance
        if hex_limit is not None and generic_hexes and x > hex_limit:
            return None
        stops, ends = self._unfold(found)
        if len(stops) < spec.min_stops:
            return None
        if hex_limit is not None and not generic_hexes:
            probe = RouteView(ctx, spec, stops, stops, 0, ends)
            if rules.hex_distance(probe) > hex_limit:
                return None
        values = ctx.values(spec)
        all_paid = spec.pays_all and (spec.scores_visits or len(stops) == c + t + o)
        if not type(rules).route_hooks:
            if all_paid:
                revenue = 0
                for n in stops:
                    revenue += values[n]
                paid = stops
            else:
                classes = ctx.classes
                tokened = ctx.tokened
                revenue, chosen = spec.paid(
                    [classes[n] for n in stops],
                    [values[n] for n in stops],
                    [tokened[n] for n in stops],
                )
                if not chosen:
                    return None
                paid = tuple(stops[i] for i in chosen)
            bonus = 0
        else:
            scored = self._score(spec, stops, ends, values, all_paid, mask)
            if scored is None:
                return None
            revenue, paid, bonus = scored
        return (revenue + bonus, mask, (stops, ends, c, t, o, x), paid, bonus)

    def _score(
        self,
        spec: TrainSpec,
        stops: tuple[int, ...],
        ends: Sequence[int],
        values: list[int],
        all_paid: bool,
        track: int,
    ) -> tuple[int, tuple[int, ...], int] | None:
        """What a route earns under the game's rules: (stops' revenue, scored node ids,
        bonus), or None when the game does not allow it. The game may choose the scored
        stops itself (:meth:`GameRules.paid_stops`); else every stop scores, or an express
        train's best set with its bonus. ``track``: the route's track mask."""
        ctx = self.context
        rules = self.rules
        view = RouteView(ctx, spec, stops, stops, 0, ends, track=track)
        if not rules.route_allowed(view):
            return None
        own = rules.paid_stops(view)
        if own is not None or all_paid:
            if own is not None:
                revenue, paid = own
            else:
                revenue, paid = sum(map(values.__getitem__, stops)), stops
            view.revenue, view.paid = revenue, paid
            if not rules.scored_allowed(view):
                return None
            return revenue, paid, rules.route_bonus(view)
        return self._express_with_bonus(spec, stops, ends, values, track)

    def _express_with_bonus(
        self,
        spec: TrainSpec,
        stops: tuple[int, ...],
        ends: Sequence[int],
        values: list[int],
        track: int,
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
            ceiling = rules.route_bonus(RouteView(ctx, spec, stops, stops, 0, ends, track=track))
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
                view = RouteView(ctx, spec, stops, paid, revenue, ends, track=track)
                if not rules.scored_allowed(view):
                    continue
                bonus = rules.route_bonus(view)
                if best is None or revenue + bonus > best[0] + best[2]:
                    best = (revenue, paid, bonus)
            if best is not None and best[0] + best[2] > 0:
                break  # the engine takes the largest size that earns anything
        return best

    def _revenue_of(self, spec: TrainSpec) -> Callable[[_Found], int | None]:
        """The exact revenue of a found route for ``spec`` (None when the train may not run
        it), kept as :meth:`rated` keeps it."""
        cache = self._exact.get(spec)
        if cache is None:
            cache = self._exact[spec] = {}
        runs = _runner(spec)
        rate = self._rated

        def revenue(found: _Found) -> int | None:
            mask = found[0]
            rated = cache.get(mask)
            if rated is None and mask not in cache:
                rated = cache[mask] = rate(spec, found, True) if runs(found) else None
            return None if rated is None else rated[0]

        return revenue

    def _bounded_revenue(self, spec: TrainSpec) -> Callable[[_Found], int | None]:
        """The revenue of a found route when it is its bound (no game hook, every stop
        paid, the bound values the train's): no unfolding."""
        runs = _runner(spec)

        def revenue(found: _Found) -> int | None:
            return found[1] if runs(found) else None

        return revenue

    def _route(self, spec: TrainSpec, rated: _Rated) -> Route:
        g = self._net.graph
        revenue, _, raw, paid, bonus = rated
        paths = tuple(g.paths[e >> 1] for e in raw[1])
        hexes: list[str] = []
        for coord, _ in paths:
            if not hexes or hexes[-1] != coord:
                hexes.append(coord)
        stops = tuple(g.nodes[n] for n in raw[0])
        if not hexes:
            hexes = [coord for coord, _ in stops]  # a route of one stop, on no track
        scored = tuple(g.nodes[n] for n in paid)
        route = Route(spec.name, stops, tuple(hexes), paths, revenue, scored, bonus)
        self._origin[route] = (spec, rated)
        return route

    def _view(self, spec: TrainSpec, rated: _Rated) -> RouteView:
        revenue, _, raw, paid, bonus = rated
        return RouteView(
            self.context, spec, raw[0], paid, revenue - bonus, raw[1], bonus, track=rated[1]
        )

    # --------------------------------------------------------------- every route

    def _all(self, spec: TrainSpec) -> list[_Rated]:
        """Every route ``spec`` may run, rated, best first (ties in walk order)."""
        if not spec.runs:
            return []
        found = self._net.enumerate(_Reach([spec]))
        out = [r for r in (self.rated(spec, f) for f in found.values()) if r is not None]
        out.sort(key=lambda r: -r[0])
        return out

    def candidates(
        self, train: TrainType | str, within: Iterable[str] | None = None
    ) -> list[Route]:
        """Every legal route of ``train`` for the corporation, best revenue first; with
        ``within``, those whose track stays in those hexes (a walk of them alone: a long
        train's routes over a whole late board are too many to list)."""
        spec = self.spec(train)
        if within is None:
            return [self._route(spec, r) for r in self._all(spec)]
        hexes = frozenset(within)
        net = self._within.get(hexes)
        if net is None:
            if len(self._within) > 64:
                self._within.clear()
            net = self._within[hexes] = _Net(self.context, hexes)
        if not spec.runs:
            return []
        found = net.enumerate(_Reach([spec]))
        out = [r for r in (self.rated(spec, f) for f in found.values()) if r is not None]
        out.sort(key=lambda r: -r[0])
        return [self._route(spec, r) for r in out]

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
        hexes = {w if isinstance(w, str) else w[0] for w in want}
        # a route passing the hexes given stays in them (its stops' hexes: it may pass others)
        for r in self.candidates(train, None if by_stops else hexes):
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
        the game's whole-run rule. Raises :class:`RouteError` when two of them share track
        (trains of one track pool)."""
        used = 0
        views: list[RouteView] = []
        total = 0
        for route in routes:
            origin = self._origin.get(route)
            if origin is None:
                raise RouteError(f"route {'-'.join(route.hexes)} was not found by this planner")
            spec, rated = origin
            mask = rated[1] << spec.pool * self._net.width
            if used & mask:
                raise RouteError(f"route {'-'.join(route.hexes)} shares track with another")
            used |= mask
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
        # trains with more reach first: their lists bound the search best
        order = sorted(range(len(specs)), key=lambda i: _reach_key(specs[i]))
        slots = [specs[i] for i in order]
        running = list(dict.fromkeys(s for s in slots if s.runs))
        if not running:
            return RunResult(self.corporation, self.phase.name, (), 0, 0)
        search = _Search(self, slots, running)
        total, picks, lists, candidates = search.run()
        # a way for each route chosen (the combination chose them by the track all their
        # ways use)
        chosen = _resolve(lists, picks)
        assert chosen is not None
        routes: list[Route] = []
        plain = 0
        for slot, found in enumerate(chosen):
            if found is None:
                continue
            rated = self.rated(slots[slot], found)
            assert rated is not None
            plain += rated[0]
            routes.append(self._route(slots[slot], rated))
        return RunResult(
            self.corporation, self.phase.name, tuple(routes), total, candidates, total - plain
        )


def _reach_key(spec: TrainSpec) -> tuple[int, int, str]:
    hexes = spec.hexes if spec.hexes is not None else 0
    stops = sum(min(r.visit, 1000) for r in spec.rows)
    return (-stops, -hexes, spec.name)


class _Walker:
    """One walk of a search (:class:`_Search`): some of the running trains, their routes
    bounded by one sum of stop values (``bound``; ``prune`` when towns fill, see
    :class:`_Reach`), kept within ``reach``; the arms it grew (kept for another walk) and
    what the rest of a route may add beyond an arm (:class:`_Ceiling`, made when first
    asked)."""

    __slots__ = ("_ceiling", "arms", "bound", "by_exits", "prune", "reach", "specs")

    def __init__(
        self, specs: list[TrainSpec], bound: list[int], prune: list[int], reach: _Reach
    ) -> None:
        self.specs = specs
        self.bound = bound
        self.prune = prune
        self.reach = reach
        self.arms: list[_Arms] | None = None
        #: whether the arms were cut by the exits their ways use too (:class:`_ExitNeeds`)
        self.by_exits = False
        self._ceiling: _Ceiling | None = None

    def ceiling(self, net: _Net) -> _Ceiling:
        """What the rest of a route may add beyond an arm."""
        if self._ceiling is None:
            self._ceiling = _Ceiling(net, self.reach, self.bound, self.prune)
        return self._ceiling


def _walk_groups(specs: Sequence[TrainSpec], arrays: Sequence[list[int]]) -> list[list[int]]:
    """The trains (by index) each walk of a search takes: all in one walk (their routes
    bounded by one sum, the most of their bound values), but a walk for each track pool
    (:attr:`TrainSpec.pool`) where the pools' bound values differ (a walk bounding a train
    by values it cannot earn, 1822's E-train beside a 2P, keeps routes that cannot pay it).
    Trains of different pools never share track, so no route of a run is lost between
    walks; the combination sees each train's routes from its own walk."""
    pools: dict[int, list[int]] = {}
    for i, s in enumerate(specs):
        pools.setdefault(s.pool, []).append(i)
    if len(pools) == 1:
        return [list(range(len(specs)))]
    first = arrays[0]
    if all(a is first or a == first for a in arrays):
        return [list(range(len(specs)))]
    return list(pools.values())


class _OtherBest:
    """The most one train (of a run's others) earns on a route that uses none of some
    exits (:class:`_ExitNeeds`): the best bound of its routes a walk kept whose ways all use
    none of them (``rows``: (bound, the exits all its ways use), best first, one per exits
    used), else what a route the walk left out earns at most (``floor``; a train may run
    nothing: 0)."""

    __slots__ = ("_known", "_using", "floor", "values")

    def __init__(self, rows: list[tuple[int, int]], floor: int) -> None:
        rows = [r for r in rows if r[0] > floor]
        #: the rows' bounds, best first, and per exit the rows using it (a bit per row)
        self.values = [value for value, _ in rows]
        self._using: dict[int, int] = {}
        for i, (_, used) in enumerate(rows):
            while used:
                low = used & -used
                self._using[low] = self._using.get(low, 0) | 1 << i
                used ^= low
        self.floor = floor
        self._known: dict[int, int] = {}

    def best(self, exits: int) -> int:
        """The most the train earns on a route using none of ``exits``."""
        found = self._known.get(exits)
        if found is None:
            # the first row using none of them
            taken = 0
            rest = exits
            using = self._using
            while rest:
                low = rest & -rest
                taken |= using.get(low, 0)
                rest ^= low
            i = (~taken & (taken + 1)).bit_length() - 1
            found = self.values[i] if i < len(self.values) else self.floor
            self._known[exits] = found
        return found


class _ExitNeeds:
    """What a route of each train of a walk must earn to be in a run worth more than one
    found (:class:`_Search`, step 2), by the exits every way of it uses (the paths leaving the
    corporation's token cities, where the routes of a run compete: the trains' best routes
    mostly leave the busiest token by the same paths): the run found, less the most each
    other train earns on a route that uses none of those exits (:class:`_OtherBest`; any
    route, for a train of another track pool), less the most the game's rule for runs adds.
    As sums of bound values (:attr:`_Reach.least`), never below the walk's own."""

    __slots__ = ("_known", "_others", "_reach", "_targets", "exits", "most")

    def __init__(
        self,
        reach: _Reach,
        exits: int,
        targets: list[int],
        others: list[list[tuple[_OtherBest, bool]]],
    ) -> None:
        self._reach = reach
        self.exits = exits
        #: per train: what its route and the others' must earn, less its bound's constant
        self._targets = targets
        #: per train: the other trains, each with whether it shares the train's track pool
        self._others = others
        self._known: dict[int, list[int]] = {}
        #: the most any train needs (of a route using every exit): a route reaching it
        #: reaches what its exits ask
        self.most = max(self.least(exits), default=_NO_THRESHOLD)

    def least(self, used: int) -> list[int]:
        """Each train's least sum for a route whose ways all use the track ``used``."""
        key = used & self.exits
        found = self._known.get(key)
        if found is None:
            reach = self._reach
            found = []
            for base, target, others, scale in zip(
                reach.least, self._targets, self._others, reach.scales, strict=True
            ):
                beside = sum(o.best(key if same else 0) for o, same in others)
                found.append(max(base, -(-(target - beside) // scale)))
            self._known[key] = found
        return found

    def need(self, used: int, code: int) -> int:
        """The least sum a route with the counts packed in ``code`` (:func:`_pack`) whose
        ways all use the track ``used`` needs for some train that may run it."""
        least = self.least(used)
        fitting = self._reach.fits.get(code)
        if fitting is None:
            fitting = self._reach.fitting(code)
        found = _NO_FIT
        for i, _ in fitting:
            if least[i] < found:
                found = least[i]
        return found


class _Search:
    """The best routes of trains together (:meth:`RoutePlanner.best`), exactly (see the
    module docstring):

    1. The walk keeps, for each train, the best revenue of a route it has rated so far
       (``B``), and does not follow a route whose stops, with the best the train could
       still add, cannot reach what it must (:class:`_Reach`). With one train (and no
       whole-run rule) a route must beat ``B``, and the walk's best is the answer; when the
       walk cut nothing, its routes are all the routes and go to step 3.
    2. A route of train ``i`` in a run worth more than ``S`` earns more than ``S`` minus
       every other train's ``B`` and the most the whole-run rule adds. So, with several
       trains, the same walk keeps the routes earning at least ``B - gap`` (less that most)
       for a gap of a sixteenth of the ``B``'s sum (as they rise), and combines them (step
       3): a run worth at least the sum of the ``B`` less the gap is the best; otherwise
       the run found proves a gap, and the routes are combined again within twice the last
       gap (or the gap proven, where that is not much more), the walk made again where it
       kept too few (at most :data:`_WIDEN` times wider), each combination seeking only runs
       better than the one found, without the routes that cannot make one with the most
       the other trains may earn beside them (:func:`_beside`; a walk made again keeps
       only the routes that may, by the exits their ways use: :class:`_ExitNeeds`). Where
       the game's rule for runs cannot change this run (:meth:`GameRules.run_applies`), the
       search is the generic one.
    3. One route per train (or none) with disjoint track, by branch and bound over each
       train's routes best first, rated exactly only as far as the bound asks
       (:class:`_Ranked`, :func:`_choose`).
    """

    def __init__(
        self,
        planner: RoutePlanner,
        slots: list[TrainSpec],
        running: list[TrainSpec],
        forbid: int = 0,
    ) -> None:
        self.planner = planner
        self.slots = slots
        self.running = running
        #: the track no route of the search may use (:meth:`_seeded`)
        self.forbid = forbid
        ctx = planner.context
        rules = planner.rules
        self.ctx = ctx
        self.rules = rules
        n = len(ctx.classes)
        #: whether the game's rule for runs may change what this run earns
        self.run_rules = rules.run_applies(ctx, sum(1 for s in slots if s.runs))
        #: the track the game rates (a route's ways that use the same of it are kept
        #: together: :func:`_walk`)
        self.together = rules.rating_track(ctx)
        bounds = [rules.route_bound(ctx, s) for s in running]
        self.exactable = all(b is not None for b in bounds)
        self.cheap: dict[TrainSpec, bool] = {}
        self.consts: dict[TrainSpec, int] = {}
        #: what bounds each train's revenue on a found route
        self.upper: dict[TrainSpec, Callable[[_Found], int]] = {}
        #: train s earns at most scale[s] times a route's bound sum plus consts[s]
        self.scale: dict[TrainSpec, int] = dict.fromkeys(running, 1)
        #: a closer bound of a train's revenue on a found route, asked before
        #: rating it (GameRules.stops_bound; None: none)
        self.tight: dict[TrainSpec, Callable[[_Found], int] | None] = dict.fromkeys(running)
        #: the walks, and each train's
        self.walkers: list[_Walker] = []
        self.walker_of: dict[TrainSpec, _Walker] = {}
        if not self.exactable:
            for s in running:
                self.consts[s] = _BIG
                self.cheap[s] = False
                self.upper[s] = lambda f: _BIG
            zero = [0] * n
            self._add(_Walker(running, zero, zero, _Reach(running)))
        else:
            arrays: list[list[int]] = [b[0] for b in bounds if b is not None]
            for group in _walk_groups(running, arrays):
                self._add(self._walker([running[i] for i in group], [bounds[i] for i in group]))
        self.rate = {
            s: planner._bounded_revenue(s) if self.cheap[s] else planner._revenue_of(s)
            for s in running
        }

    def _add(self, walker: _Walker) -> None:
        self.walkers.append(walker)
        for s in walker.specs:
            self.walker_of[s] = walker

    def _walker(
        self, specs: list[TrainSpec], bounds: Sequence[tuple[list[int], int] | None]
    ) -> _Walker:
        """The walk of ``specs`` (some of the running trains) by their bounds (one sum for
        them all: the most of their bound values, by their multipliers), with each train's
        bound of a found route (:attr:`upper`)."""
        ctx = self.ctx
        rules = self.rules
        planner = self.planner
        n = len(ctx.classes)
        arrays = [b[0] for b in bounds if b is not None]
        first = arrays[0]
        if all(a is first for a in arrays):
            scales = [1] * len(specs)
            base = first if min(first, default=0) >= 0 else [max(0, v) for v in first]
        else:
            # one sum for every train: train i earns at most scales[i] times it
            scales = [max(1, *s.multipliers) for s in specs]
            base = [0] * n
            for array, scale in zip(arrays, scales, strict=True):
                if scale == 1:
                    base = [a if a > b else b for a, b in zip(array, base, strict=True)]
                else:
                    base = [max(-(-a // scale), b) for a, b in zip(array, base, strict=True)]
        prune = base
        self.scale.update(zip(specs, scales, strict=True))
        costs = ctx._shared.stop_costs
        majors = (1 << CITY) | (1 << OFFBOARD)
        town = 1 << TOWN
        fill = (
            costs <= {0, 1}
            and all(s.pay_capacity(majors) >= s.capacity(majors) for s in specs)
            and any(s.capacity(town) > s.pay_capacity(town) for s in specs)
        )
        hooks = type(rules).route_hooks
        generic_hexes = type(rules).hex_distance is GameRules.hex_distance
        town_tops = [0]
        if fill:
            town_tops = _tops((v for v, k in zip(base, ctx.classes, strict=True) if k == TOWN), 0)
        # the most towns a train scores: as many as its rows pay for towns, but where the
        # game chooses the stops scored itself (1860's and 1867's towns fill the city
        # stops a route leaves unused), as many as it scores stops at all
        own_pay = type(rules).paid_stops is not GameRules.paid_stops
        town_pays = [s.pay_capacity(0b111) if own_pay else s.pay_capacity(town) for s in specs]
        for s, b, scale, town_pay in zip(specs, bounds, scales, town_pays, strict=True):
            assert b is not None
            self.consts[s] = b[1]
            self.cheap[s] = (
                not hooks
                and planner._net.hex_values is None
                and b[0] is base
                and b[1] == 0
                and scale == 1
                and s.pays_all
                and (s.scores_visits or costs <= {1})
                and s.min_stops <= 2
                and (s.hexes is None or generic_hexes)
            )
            self.upper[s] = _upper(scale, b[1], s.pay_capacity(0b111), town_pay, town_tops, fill)
            closer = rules.stops_bound(ctx, s)
            if closer is not None:
                self.tight[s] = _stops_upper(planner, closer)
        reach = _Reach(specs, scales, town_tops if fill else None, town_pays)
        if fill:
            # towns fill: the pruning sum counts cities and offboards (see _upper)
            prune = [0 if k == TOWN else v for v, k in zip(base, ctx.classes, strict=True)]
        return _Walker(specs, base, prune, reach)

    def run(self) -> tuple[int, list[int], list[_Ranked], int]:
        """(the best total, the route index per slot or -1, the slots' lists, how many
        routes were kept)."""
        planner = self.planner
        net = planner._net
        running = self.running
        walkers = self.walkers
        if not self.exactable:
            together = self.together
            return self._combine(
                [_walk(net, w.reach, self._arms(w), together=together)[0] for w in walkers], {}
            )
        consts = self.consts
        rate = self.rate
        upper = self.upper
        run_hooks = self.run_rules
        trains = [s for s in self.slots if s.runs]
        alone = len(trains) == 1 and not run_hooks
        extra = 0
        if not alone and run_hooks:
            self.ctx.longest = self._longest()
            extra = self.rules.run_bonus_bound(self.ctx)
        # steps 1 and 2 in one walk (a walk each for trains whose bounds differ: see
        # _walk_groups): each train's best so far, and the routes within the gap of the bests
        # so far kept (a sixteenth of their sum; none for a train alone)
        # (the trains by index in the walk's callbacks: a train spec hashes in Python)
        ups = [upper[s] for s in running]
        tights = [self.tight[s] for s in running]
        rates = [rate[s] for s in running]
        lows = [consts[s] for s in running]
        #: each slot's train, by index
        slot_of = [running.index(s) for s in trains]
        bests = [-1] * len(running)
        #: the first route (in walk order) earning each train's best
        best_routes: list[_Found | None] = [None] * len(running)
        share = 0 if alone else 16
        #: each walk's trains (by index), and the least bound sum a route of theirs must
        #: have to improve a best (its gate)
        each: list[list[int]] = [[running.index(s) for s in w.specs] for w in walkers]
        gates: list[list[int]] = [[_NO_THRESHOLD] for _ in walkers]

        def improves(found: _Found, trains: list[int]) -> bool:
            better = False
            for k in trains:
                if ups[k](found) <= bests[k]:
                    continue
                tight = tights[k]
                if tight is not None and tight(found) <= bests[k]:
                    continue
                value = rates[k](found)
                if value is not None and value > bests[k]:
                    bests[k] = value
                    best_routes[k] = found
                    better = True
            return better

        def tighten() -> None:
            # a route improves a train's best when it earns at least one more; one is kept
            # when it earns at least the best less the gap (and the run's bonus)
            gap = max(sum(max(bests[k], 0) for k in slot_of) // share, 1) + extra if share else 0
            for w, ks, gate in zip(walkers, each, gates, strict=True):
                improve = [bests[k] - lows[k] + 1 for k in ks]
                # never lowered (a train's threshold falls when another's best widens the
                # gap): the combination's bars are no lower than the highest (see below)
                w.reach.set_thresholds(
                    [
                        max(t - 1 - gap if share else t, old)
                        for t, old in zip(improve, w.reach.thresholds, strict=True)
                    ]
                )
                gate[0] = min(-(-t // k) for t, k in zip(improve, w.reach.scales, strict=True))

        def settle(held: list[_Found], trains: list[int]) -> None:
            # the routes kept unrated, each train's best first (by bound, then walk order)
            for k in trains:
                up = ups[k]
                tight = tights[k]
                for u, _, f in sorted(((up(f), i, f) for i, f in enumerate(held)), key=_first):
                    if u <= bests[k]:
                        break
                    if tight is not None and tight(f) <= bests[k]:
                        continue
                    value = rates[k](f)
                    if value is not None and value > bests[k]:
                        bests[k] = value
                        best_routes[k] = f
            tighten()

        found: list[dict[int, _Found]] = []
        #: whether each walk's thresholds left routes out
        cuts: list[bool] = []
        #: the first routes each walk sees, kept unrated while there are few (a small
        #: position is then one walk and one combination that rates only what it needs)
        pendings: list[list[list[_Found]]] = [[[]] for _ in walkers]
        for w, ks, gate, pending in zip(walkers, each, gates, pendings, strict=True):

            def watch(
                route: _Found, ks: list[int] = ks, pending: list[list[_Found]] = pending
            ) -> None:
                if pending:
                    pending[0].append(route)
                    if len(pending[0]) >= _EAGER:
                        settle(pending.pop(), ks)
                elif improves(route, ks):
                    tighten()

            def rated(ks: list[int] = ks, pending: list[list[_Found]] = pending) -> None:
                if pending:
                    settle(pending.pop(), ks)

            arms = self._arms(w, watch, gate, rated)
            routes, cut = _walk(net, w.reach, arms, watch, gate, self.together)
            found.append(routes)
            cuts.append(cut)
            if pending and len(found) < len(walkers):
                # the bests so far set the next walk's thresholds
                settle(pending.pop(), ks)
        if pendings[-1] and (alone or any(cuts)):
            # step 2 needs every train's best (where no walk cut a route, the combination
            # rates what it needs)
            settle(pendings[-1].pop(), each[-1])
        if alone:
            # the walk saw every route that could beat the best so far: its best is the
            # answer
            return self._alone(trains[0], best_routes[0], bests[0], len(found[0]))
        best = dict(zip(running, bests, strict=True))
        if not any(cuts):
            return self._combine(found, {})
        # step 2: the routes of a run within ``gap`` of every train's best, combined; the
        # gap widened until the run found is within it (then no run is better)
        tops = sum(max(best[s], 0) for s in trains)
        gap = max(tops // share, 1)
        result: tuple[int, list[int], list[_Ranked], int] | None = None
        olds: dict[TrainSpec, int] = {}
        while True:
            # the walk kept every route of a train whose bound reached the train's highest
            # threshold (every route, where its walk cut none): no bar is lower, and the gap
            # proven must be within every train's
            walked = {
                s: t + consts[s] if cut else _NO_THRESHOLD
                for w, cut in zip(walkers, cuts, strict=True)
                for s, t in zip(w.specs, w.reach.thresholds, strict=True)
            }
            bars = {s: max(best[s] - gap - extra, walked[s]) for s in running}
            within = min(best[s] - extra - bars[s] for s in running)
            # (worth asking beside the other trains' routes by exits only after walks that
            # kept many routes: see _EXITS_AFTER)
            many = sum(map(len, found)) >= _EXITS_AFTER
            others: dict[TrainSpec, _OtherBest] | None = None
            if result is None:
                result = self._combine(found, bars)
                if tops - result[0] > _WIDEN * gap and many:
                    # a run found too far below the trains' bests for one walk made again
                    # to prove it best (nor to ask much of its routes beside it)
                    others = self._others_best(found, walked)
                    result = self._seeded(result, found, others)
            else:
                # only a run better than the one found can change the answer, and it has a
                # route the last combination left out (one earning less than its bar)
                wider = self._combine(found, bars, result[0], olds)
                result = wider if wider[1] else (*result[:3], wider[3])
            olds = bars
            proven = tops - result[0]
            if proven <= within:
                return result
            # the next combination's gap: twice the last, or the gap proven where that is
            # not much more; where the walks kept too few routes for it, they are made
            # again, wider (a better run found between proves most runs, and leaves out
            # more routes beside it)
            step = min(proven, 2 * gap)
            if proven <= 2 * step:
                step = proven
            if any(best[s] - step - extra < walked[s] for s in running):
                wide = min(proven, _WIDEN * gap)
                exit_needs = None
                if many:
                    if others is None:
                        others = self._others_best(found, walked)
                    exit_needs = self._exit_needs(others, result[0], extra)
                for i, w in enumerate(walkers):
                    if cuts[i]:
                        w.reach.set_thresholds(
                            [best[s] - wide - extra - consts[s] for s in w.specs]
                        )
                        by_exits = None if exit_needs is None else exit_needs(w)
                        found[i], cuts[i] = _walk(
                            net,
                            w.reach,
                            self._arms(w, by_exits=by_exits),
                            together=self.together,
                            by_exits=by_exits,
                        )
            gap = step

    def _seeded(
        self,
        result: tuple[int, list[int], list[_Ranked], int],
        found: list[dict[int, _Found]],
        others: dict[TrainSpec, _OtherBest],
    ) -> tuple[int, list[int], list[_Ranked], int]:
        """A run better than ``result`` (the first combination's, of the routes the walks
        kept: ``found``, each walk's; ``others``: what each train earns on them beside some
        exits, :meth:`_others_best`) where one is quick to find: two trains of one track
        pool whose best routes leave each other little. The longer train's routes that, with
        the most the other earns on a route using none of their exits, promise most
        (:data:`_SEEDS` of them), each with the other's best route on the track it leaves
        (a search of that train alone). The walks made again then ask more of their routes
        beside it (:class:`_ExitNeeds`), and the search needs to widen less. Any better run
        has a route below its train's bar, as the first combination's result has (it was
        the best of the routes at their bars)."""
        trains = [s for s in self.slots if s.runs]
        if len(trains) != 2 or self.run_rules or trains[0].pool != trains[1].pool:
            return result
        first, second = trains
        beside = others[second]
        planner = self.planner
        exits = planner._net.exits
        upper = self.upper[first]
        runs_first = _runner(first)
        promising = sorted(
            (
                (upper(f) + beside.best(_track(f) & exits), i, f)
                for i, f in enumerate(found[self.walkers.index(self.walker_of[first])].values())
                if runs_first(f)
            ),
            key=_first,
        )
        runs = [i for i, s in enumerate(self.slots) if s.runs]
        shift = first.pool * planner._net.width
        best = result
        for promise, _, route in promising[:_SEEDS]:
            if promise <= best[0]:
                break
            rated = planner.rated(first, route)
            if rated is None:
                continue
            other = _Search(planner, [second], [second], forbid=route[0])
            if other.run_rules:
                return result
            total, picks, lists, _ = other.run()
            if picks[0] < 0 or rated[0] + total <= best[0]:
                continue
            out_lists = [_Ranked([], lambda f: None) for _ in self.slots]
            out_picks = [-1] * len(self.slots)
            out_lists[runs[0]] = _Ranked.exact([(rated[0], 0, route)], shift)
            out_lists[runs[1]] = _Ranked.exact([(total, 0, lists[0].found[picks[0]])], shift)
            out_picks[runs[0]] = out_picks[runs[1]] = 0
            best = (rated[0] + total, out_picks, out_lists, result[3])
        return best

    def _exit_needs(
        self, others: dict[TrainSpec, _OtherBest], seed: int, extra: int
    ) -> Callable[[_Walker], _ExitNeeds]:
        """What each walk made again asks of its routes by their exits (:class:`_ExitNeeds`),
        from what each train earns beside exits on the routes the last walks kept
        (``others``, :meth:`_others_best`), beside a run worth ``seed``."""
        exits = self.planner._net.exits
        trains = [s for s in self.slots if s.runs]

        def make(walker: _Walker) -> _ExitNeeds:
            per: list[list[tuple[_OtherBest, bool]]] = []
            targets: list[int] = []
            for s in walker.specs:
                rest = list(trains)
                rest.remove(s)
                per.append([(others[t], t.pool == s.pool) for t in rest])
                targets.append(seed + 1 - extra - self.consts[s])
            return _ExitNeeds(walker.reach, exits, targets, per)

        return make

    def _others_best(
        self, found: list[dict[int, _Found]], walked: dict[TrainSpec, int]
    ) -> dict[TrainSpec, _OtherBest]:
        """Each running train's most on a route using none of some exits
        (:class:`_OtherBest`), from the routes the walks kept (``found``, each walk's;
        ``walked``: each train's least bound kept, where its walk left routes out)."""
        exits = self.planner._net.exits
        of_walker = {id(w): i for i, w in enumerate(self.walkers)}
        others: dict[TrainSpec, _OtherBest] = {}
        for t in self.running:
            upper = self.upper[t]
            runs = _runner(t)
            best_by: dict[int, int] = {}
            for f in found[of_walker[id(self.walker_of[t])]].values():
                if runs(f):
                    used = _track(f) & exits
                    value = upper(f)
                    if value > best_by.get(used, -_BIG):
                        best_by[used] = value
            rows = sorted(((v, u) for u, v in best_by.items()), reverse=True)
            others[t] = _OtherBest(rows, max(walked[t] - 1, 0))
        return others

    def _alone(
        self, spec: TrainSpec, route: _Found | None, revenue: int, candidates: int
    ) -> tuple[int, list[int], list[_Ranked], int]:
        """:meth:`run`'s answer for one train: its best route (None: it runs nothing)."""
        empty = _Ranked([], lambda f: None)
        picks = [-1] * len(self.slots)
        lists = [empty] * len(self.slots)
        if route is None:
            return 0, picks, lists, candidates
        slot = next(i for i, s in enumerate(self.slots) if s.runs)
        lists[slot] = _Ranked.exact([(revenue, 0, route)])
        picks[slot] = 0
        return revenue, picks, lists, candidates

    def _arms(
        self,
        walker: _Walker,
        watch: Callable[[_Found], None] | None = None,
        gate: list[int] | None = None,
        settle: Callable[[], None] | None = None,
        by_exits: _ExitNeeds | None = None,
    ) -> Iterable[_Arms]:
        """The arms of a walk (:func:`_grown`): grown a token at a time as the walk comes to
        it, those no route could need at the thresholds the walk has reached left out; kept
        for another walk whose thresholds are no lower than those they were cut at.
        ``settle`` (the walk's routes kept unrated, rated) is called where a walk of one
        train comes to its next token: the thresholds it sets may leave the token out.
        ``by_exits``: what each train needs of an arm by its exits, too (:class:`_ExitNeeds`;
        they only rise from one walk to the next, so arms cut by them serve a later walk
        that has them)."""
        held = walker.arms
        least = walker.reach.least
        if (
            held is not None
            and (by_exits is not None or not walker.by_exits)
            and all(
                a.pruned is None or all(n >= p for n, p in zip(least, a.pruned, strict=True))
                for a in held
            )
        ):
            return held
        walker.by_exits = by_exits is not None
        return self._grown(walker, watch, gate, settle, by_exits)

    def _grown(
        self,
        walker: _Walker,
        watch: Callable[[_Found], None] | None,
        gate: list[int] | None,
        settle: Callable[[], None] | None,
        by_exits: _ExitNeeds | None = None,
    ) -> Iterator[_Arms]:
        net = self.planner._net
        # a train alone in its walk (and in one slot): its threshold is its best so far
        # (less the gap, beside other walks' trains), which the rest of a route often cannot
        # beat: the ceiling is tested from the first arm (with several trains the
        # thresholds are too low for it to pay in a small walk)
        alone = len([s for s in self.slots if s.runs and s in walker.specs]) == 1
        out: list[_Arms] = []
        for arms in _grown(
            net,
            walker.reach,
            walker.bound,
            walker.prune,
            lambda: walker.ceiling(net),
            watch,
            gate,
            alone,
            by_exits,
            self.forbid,
        ):
            out.append(arms)
            yield arms
            if alone and settle is not None:
                settle()
        walker.arms = out

    def _longest(self) -> int:
        """The most stops any route of the trains may have (for whole-run bounds)."""
        ctx = self.ctx
        stops = sum(1 for k in ctx.classes if k >= 0)
        free = sum(1 for k, w in zip(ctx.classes, ctx.costs, strict=True) if k >= 0 and w <= 0)
        reach = max(s.capacity(0b111) for s in self.running)
        return min(stops, reach + free)

    def _combine(
        self,
        found: list[dict[int, _Found]],
        bars: dict[TrainSpec, int],
        seed: int = -_BIG,
        olds: dict[TrainSpec, int] | None = None,
    ) -> tuple[int, list[int], list[_Ranked], int]:
        """Step 3 on ``found`` (the routes of each walk, :attr:`walkers`): routes of train
        ``s`` whose bound is below ``bars[s]`` left out; only runs worth more than ``seed``
        sought (no route indices, ``[]``, when there is none), and with ``olds`` (the bars
        of the combination that found ``seed``) only runs with a route below its train's
        old bar."""
        planner = self.planner
        rules = self.rules
        walked = [list(f.values()) for f in found]
        bound = 0
        if self.run_rules:
            # (worked out only for a game whose bound asks it: 1846's Mail Contract)
            self.ctx.longest = lambda: max((_length(f) for r in walked for f in r), default=0)
            bound = rules.run_bonus_bound(self.ctx)
        # each train's routes (bound or revenue, walk order, route), best first, and
        # whether they are rated
        held = self._held(walked, bars)
        if seed > -_BIG:
            held = _beside(held, self.slots, seed - bound, planner._net.width)
        lists: dict[TrainSpec, _Ranked] = {}
        for s, (ordered, rated) in held.items():
            shift = s.pool * planner._net.width
            if rated:
                lists[s] = _Ranked.exact(ordered, shift)
            else:
                lists[s] = _Ranked(ordered, self.rate[s], shift, self.tight[s])
        empty = _Ranked([], lambda f: None)
        slot_lists = [lists[s] if s.runs else empty for s in self.slots]
        slots = self.slots
        same = [i > 0 and slots[i] == slots[i - 1] for i in range(len(slots))]
        exact: Callable[[list[int], int], int] | None = None
        if self.run_rules:

            def exact(picks: list[int], total: int) -> int:
                views: list[RouteView] = []
                for slot, j in enumerate(picks):
                    if j >= 0:
                        rated = planner.rated(slots[slot], slot_lists[slot].found[j])
                        assert rated is not None
                        views.append(planner._view(slots[slot], rated))
                # (a run of no route earns nothing, whatever the game's rule for runs)
                return rules.run_revenue(views, total) if views else total

        exits = self.planner._net.exits
        old = None if olds is None else [olds.get(s, -_BIG) for s in slots]
        total, picks = _choose(slot_lists, same, exact, bound, seed, exits, old)
        return total, picks, slot_lists, sum(len(f) for f in found)

    def _held(
        self, walked: list[list[_Found]], bars: dict[TrainSpec, int]
    ) -> dict[TrainSpec, tuple[list[tuple[int, int, _Found]], bool]]:
        """Each running train's routes of ``walked`` (each walk's) that reach its bar, best
        first: (bound, walk order, route), or (revenue, …) where the revenue is cheap to
        rate (then True)."""
        out: dict[TrainSpec, tuple[list[tuple[int, int, _Found]], bool]] = {}
        of_walker = {id(w): i for i, w in enumerate(self.walkers)}
        for s in self.running:
            routes = walked[of_walker[id(self.walker_of[s])]]
            bar = bars.get(s, _NO_THRESHOLD)
            const = self.consts[s]
            rate = self.rate[s]
            if self.cheap[s]:
                ranked: list[tuple[int, int, _Found]] = []
                for i, f in enumerate(routes):
                    if f[1] >= bar:
                        value = rate(f)
                        if value is not None:
                            ranked.append((value, i, f))
                ranked.sort(key=lambda r: -r[0])
                out[s] = (ranked, True)
            else:
                upper = self.upper[s]
                runs = _runner(s)
                if bar > _NO_THRESHOLD and const < _BIG:
                    # scale * bound sum + const >= upper >= bar
                    least = -(-(bar - const) // self.scale[s])
                    waiting = [
                        (u, i, f)
                        for i, f in enumerate(routes)
                        if f[1] >= least and runs(f) and (u := upper(f)) >= bar
                    ]
                else:
                    waiting = [(upper(f), i, f) for i, f in enumerate(routes) if runs(f)]
                if const < _BIG:
                    waiting.sort(key=lambda w: -w[0])
                out[s] = (waiting, False)
        return out


def _beside(
    held: dict[TrainSpec, tuple[list[tuple[int, int, _Found]], bool]],
    slots: Sequence[TrainSpec],
    seed: int,
    width: int,
) -> dict[TrainSpec, tuple[list[tuple[int, int, _Found]], bool]]:
    """``held`` (each train's routes, best first, as :meth:`_Search._held` makes them)
    without the routes that can be in no run worth more than ``seed`` (less the most the
    game's rule for runs adds): with the most the other trains' routes earn beside them.
    A route beside one that uses a path of the other train's best route earns at most the
    other train's best route without that path (or nothing), so a route that uses much of
    the other trains' best track is worth little in a run."""
    # per train: its best value, its best route's track, and the best value without each
    # path of that track (0: no route without it)
    tops: dict[TrainSpec, tuple[int, int, dict[int, int]]] = {}
    for s, (ordered, _) in held.items():
        if not ordered:
            tops[s] = (0, 0, {})
            continue
        shift = s.pool * width
        best = max(ordered[0][0], 0)
        track = _track(ordered[0][2]) << shift
        without: dict[int, int] = {}
        open_ = track
        for value, _, found in ordered:
            mask = _track(found) << shift
            newly = open_ & ~mask
            while newly:
                low = newly & -newly
                without[low] = max(value, 0)
                newly ^= low
            open_ &= mask
            if not open_:
                break
        while open_:
            low = open_ & -open_
            without[low] = 0
            open_ ^= low
        tops[s] = (best, track, without)
    out: dict[TrainSpec, tuple[list[tuple[int, int, _Found]], bool]] = {}
    running = [s for s in slots if s.runs]
    for s, (ordered, rated) in held.items():
        others = list(running)
        others.remove(s)
        if not others:
            out[s] = (ordered, rated)
            continue
        shift = s.pool * width
        # the most and the least the other trains may earn beside a route: a route whose
        # value with the most is no more than the seed is left out, as are those after it
        # (best first); one whose value with the least is more, kept
        most_of = sum(tops[t][0] for t in others)
        least_of = sum(min([tops[t][0], *tops[t][2].values()]) for t in others)
        tracks = [tops[t][1] for t in others]
        #: the most the other trains earn beside a route, by the track it shares with
        #: their best routes
        beside: dict[tuple[int, ...], int] = {}
        kept: list[tuple[int, int, _Found]] = []
        for item in ordered:
            value = item[0]
            if value + most_of <= seed:
                break
            if value + least_of <= seed:
                mask = _track(item[2]) << shift
                key = tuple([mask & track for track in tracks])
                most = beside.get(key)
                if most is None:
                    most = 0
                    for t, shared in zip(others, key, strict=True):
                        best, _, without = tops[t]
                        while shared and best:
                            low = shared & -shared
                            if without[low] < best:
                                best = without[low]
                            shared ^= low
                        most += best
                    beside[key] = most
                if value + most <= seed:
                    continue
            kept.append(item)
        out[s] = (kept, rated)
    return out


def _runner(spec: TrainSpec) -> Callable[[_Found], bool]:
    """Whether ``spec``'s stop counts (and hex sides, without a game's own distance) allow a
    found route."""
    fits = spec.fits
    memo: dict[int, bool] = {}
    hex_limit = spec.hexes if spec.hexes is not None else _BIG

    single = spec.min_stops <= 1

    def runs(found: _Found) -> bool:
        if found[7] is None and not single:
            return False  # a route of one stop (see _walk)
        fit = memo.get(found[10])
        if fit is None:
            fit = memo[found[10]] = fits((found[2], found[3], found[4]))
        return fit and found[5] <= hex_limit

    return runs


def _upper(
    scale: int, const: int, pay: int, town_pay: int, town_tops: list[int], fill: bool
) -> Callable[[_Found], int]:
    """A bound of a train's revenue on a found route: ``scale`` times its stops' bound
    values plus ``const``; when towns fill (:class:`_Reach`), at most its cities' and
    offboards' and the best towns' that fit what the train may still score (``pay`` stops
    in all, ``town_pay`` towns)."""
    if not fill:
        if scale == 1:
            return lambda f: f[1] + const
        return lambda f: scale * f[1] + const
    last = min(len(town_tops) - 1, town_pay)

    def upper(f: _Found) -> int:
        room = pay - f[2] - f[4]
        filled = f[9] + town_tops[min(room, last)] if room > 0 else f[9]
        return scale * min(f[1], filled) + const

    return upper


def _stops_upper(
    planner: RoutePlanner, bound: Callable[[Sequence[int], int], int]
) -> Callable[[_Found], int]:
    """A game's closer bound of a found route (:meth:`GameRules.stops_bound`), from its
    stops (unfolded once a route) and its track mask."""
    unfold = planner._unfold
    #: the bound of each route by its track mask (a search combines its lists more than once)
    known: dict[int, int] = {}

    def tight(found: _Found) -> int:
        mask = found[0]
        value = known.get(mask)
        if value is None:
            value = known[mask] = bound(unfold(found)[0], mask)
        return value

    return tight


def _choose(
    lists: list[_Ranked],
    same: list[bool],
    exact: Callable[[list[int], int], int] | None = None,
    bound: int = 0,
    seed: int = -_BIG,
    exits: int = 0,
    olds: list[int] | None = None,
) -> tuple[int, list[int]]:
    """Branch and bound: one route (index, or -1 for none) per list, masks disjoint, the
    largest total; only totals above ``seed`` (a run known already) sought: ``(seed, [])``
    when there is none. Lists rank their routes by revenue, best first; ``same[i]`` says
    list ``i`` belongs to the same train as list ``i - 1`` (then its route index is larger,
    or both run nothing), which removes symmetric solutions. With ``exact`` (a game's
    whole-run rule) each complete choice is worth ``exact(picks, sum)``, at most
    ``sum + bound``.

    The lists after each are bounded by their own best choice (solved first, from the last
    list back: "Russian dolls"), not only by the sum of their best routes. ``exits`` is the
    track most routes share (the paths leaving the corporation's tokens): each list's
    routes are grouped by the part of it they use, so that the routes of a group that
    shares some of it with the routes chosen are passed over at once. ``olds`` (with
    ``seed``): the seed is the best run of routes earning at least ``olds[i]`` in list
    ``i`` (and maybe others), so only runs with a route earning less are sought."""
    n = len(lists)
    groups = [_Groups(lst, exits << lst.shift) for lst in lists]
    suffix = [0] * (n + 1)
    for k in range(n - 1, 0, -1):
        suffix[k] = _solve(lists, groups, same, k, suffix, None, 0)[0]
    return _solve(lists, groups, same, 0, suffix, exact, bound, seed, olds)


#: How many arms a token's walk grows before it works out a closer ceiling (:func:`_onward`),
#: and the most reach a train may have for it (longer, its tables cost more than they save).
_NEAR_AFTER = 2000
_ONWARD_REACH = 16

#: How much wider (at most) each walk after the first keeps routes than the last
#: (:class:`_Search`, step 2): wide enough that a second walk mostly proves the run found
#: best, not so wide that it keeps far more routes than that needs.
_WIDEN = 4

#: A walk made again asks of its routes what their exits need (:class:`_ExitNeeds`) where
#: the walks before kept at least this many routes (fewer: the walk made again is quick, and
#: asking costs more than it saves).
_EXITS_AFTER = 2048

#: How many of the longer train's most promising routes :meth:`_Search._seeded` tries.
_SEEDS = 8

#: How many routes the walk keeps unrated before it rates them and sets thresholds.
_EAGER = 64


def _first(item: tuple[int, int, _Found]) -> tuple[int, int]:
    """Routes (bound, walk order, route) best bound first, then in walk order."""
    return (-item[0], item[1])


#: How many routes the combination ranks at a time in a list it groups (:class:`_Groups`).
_CHUNK = 128

#: The most groups of routes by exits worth keeping (:class:`_Groups`); nor are more than
#: one for four routes.
_GROUPS = 512


#: The exits a list's routes are grouped by when all of them split the routes too finely.
_FEW = 6


def _busiest(masks: list[int], size: int, exits: int) -> int:
    """The :data:`_FEW` bits of ``exits`` the first ``size`` routes use most (those used by
    at least one in eight)."""
    count: dict[int, int] = {}
    for j in range(size):
        rest = masks[j] & exits
        while rest:
            low = rest & -rest
            count[low] = count.get(low, 0) + 1
            rest ^= low
    best = sorted(count, key=lambda b: -count[b])[:_FEW]
    out = 0
    for b in best:
        if count[b] * 8 >= size:
            out |= b
    return out


class _Groups:
    """A ranked list's routes grouped by the part of ``exits`` they use (see
    :func:`_choose`), as far as the list is ranked. When the exits split the routes too
    finely (more than :data:`_GROUPS` groups, or one for fewer than four routes), the list
    is grouped by the few exits most of its routes use (:func:`_busiest`), or else not
    grouped (``exits`` 0): the combination tries its routes in turn."""

    __slots__ = ("_done", "_open", "exits", "keys", "members", "ranked", "using")

    def __init__(self, ranked: _Ranked, exits: int) -> None:
        self.ranked = ranked
        self.exits = exits << ranked.shift
        #: each group's part of ``exits``, and the indices of its routes, in order
        self.keys: dict[int, int] = {}
        self.members: list[list[int]] = []
        #: a bit of ``exits`` -> the groups using it (a bit per group)
        self.using: dict[int, int] = {}
        #: the part of ``exits`` taken -> the groups free of it
        self._open: dict[int, list[list[int]]] = {}
        self._done = 0

    def rank(self, size: int, ceiling: int) -> int:
        """Rank the list as :meth:`_Ranked.rank` does, and group what it ranked."""
        ranked = self.ranked
        done = ranked.rank(size, ceiling)
        if self._done < done:
            self._group(ranked.masks, done)
        return done

    def free(self, used: int, ceiling: int, start: int, stop: int) -> list[int]:
        """The indices from ``start`` to ``stop`` (ranked already), in order, of the routes
        that earn more than ``ceiling`` and share no track with ``used``."""
        revs = self.ranked.revs
        masks = self.ranked.masks
        out: list[int] = []
        for group in self._free_groups(used):
            p = bisect.bisect_left(group, start) if start else 0
            for j in itertools.islice(group, p, None):
                if j >= stop or revs[j] <= ceiling:
                    break
                if not masks[j] & used:
                    out.append(j)
        out.sort()
        return out

    def first_free(self, used: int, ceiling: int, start: int) -> int:
        """The first route from ``start`` on that earns more than ``ceiling`` and shares no
        track with ``used`` (-1 when there is none), ranked a chunk at a time."""
        revs = self.ranked.revs
        masks = self.ranked.masks
        while True:
            stop = self.rank(start + _CHUNK, ceiling)
            found = -1
            for group in self._free_groups(used):
                p = bisect.bisect_left(group, start) if start else 0
                for j in itertools.islice(group, p, None):
                    if j >= stop or revs[j] <= ceiling or (found >= 0 and j > found):
                        break
                    if not masks[j] & used:
                        found = j
                        break
            if found >= 0 or stop <= start or revs[stop - 1] <= ceiling:
                return found
            start = stop

    def _free_groups(self, used: int) -> list[list[int]]:
        """The groups using none of the exits ``used`` takes."""
        taken = used & self.exits
        groups = self._open.get(taken)
        if groups is None:
            blocked = 0
            rest = taken
            while rest:
                low = rest & -rest
                blocked |= self.using.get(low, 0)
                rest ^= low
            groups = [g for i, g in enumerate(self.members) if not blocked >> i & 1]
            self._open[taken] = groups
        return groups

    def _group(self, masks: list[int], size: int) -> None:
        keys = self.keys
        members = self.members
        exits = self.exits
        for j in range(self._done, size):
            key = masks[j] & exits
            g = keys.get(key)
            if g is None:
                g = keys[key] = len(members)
                members.append([j])
                self._open.clear()
                rest = key
                while rest:
                    low = rest & -rest
                    self.using[low] = self.using.get(low, 0) | 1 << g
                    rest ^= low
            else:
                members[g].append(j)
        self._done = size
        ranked = self.ranked
        settled = size >= 256 or ranked.exhausted
        if exits and (len(members) > _GROUPS or (settled and len(members) * 4 > size)):
            # the exits split the routes too finely (a corporation with many tokens): the
            # exits most routes use (a few, when some are used by many), else no groups and
            # every route tried in turn
            self.exits = _busiest(masks, size, exits) if exits.bit_count() > _FEW else 0
            self.keys.clear()
            members.clear()
            self.using.clear()
            self._open.clear()
            self._done = 0
            self._group(masks, size)


def _solve(
    lists: list[_Ranked],
    groups: list[_Groups],
    same: list[bool],
    first: int,
    suffix: list[int],
    exact: Callable[[list[int], int], int] | None,
    bound: int,
    seed: int = -_BIG,
    olds: list[int] | None = None,
) -> tuple[int, list[int]]:
    """:func:`_choose` for the lists from ``first`` on, the lists after each bounded by
    ``suffix`` (the most they earn together), above ``seed``; with ``olds``, only runs
    with a route earning less than its list's ``olds`` entry."""
    n = len(lists)
    revenues = [lst.revs for lst in lists]
    masks = [lst.masks for lst in lists]
    fills = [lst.fill for lst in lists]
    picks = [-1] * n
    best_picks = [-1] * n
    best = [0]
    # a greedy start (by the track some way of a route uses: any way of each may run)
    used = 0
    total = 0
    for i in range(first, n):
        j = 0
        unions = lists[i].unions
        while fills[i](j):
            mask = unions[j]
            if not mask & used:
                used |= mask
                total += revenues[i][j]
                best_picks[i] = j
                break
            j += 1

    def runs(picks: list[int]) -> bool:
        # the routes are chosen by the track all their ways use: whether some way of each
        # shares no track with the others' (:func:`_resolve`)
        return not any(lst.grouped for lst in lists) or _resolve(lists, picks) is not None

    best[0] = total if exact is None else exact(best_picks, total)
    if exact is not None and best[0] < 0:
        best[0] = 0
        best_picks = [-1] * n
    if seed >= best[0]:
        best[0] = seed
        best_picks = []
    # with ``olds``: the most the lists from k on earn when one of them takes a route below
    # its old bar (each list's best route, but for that one)
    stale = [-_BIG] * (n + 1)
    if olds is not None:
        top = [max(revenues[m][0], 0) if fills[m](0) else 0 for m in range(n)]
        for k in range(first, n):
            most = sum(top[k:])
            stale[k] = max(most - top[m] + min(olds[m] - 1, top[m]) for m in range(k, n))

    def go(i: int, used: int, total: int, start: int, fresh: bool) -> None:
        if i == n:
            if not fresh:
                return  # the run is one of those the seed was the best of
            value = total if exact is None else exact(picks, total)
            if value > best[0] and runs(picks):
                best[0] = value
                best_picks[:] = picks
            return
        if i > first and total + suffix[i] + bound <= best[0]:
            return
        rest = suffix[i + 1] + bound
        revs = revenues[i]
        msks = masks[i]
        old = olds[i] if olds is not None else _BIG
        # what the later lists earn at most when they must take a route below its old bar
        later = rest if fresh else min(suffix[i + 1], stale[i + 1]) + bound
        if start >= 0 and (not used or not groups[i].exits):
            # nothing chosen yet, or routes not grouped: the routes in order, ranked only
            # as far as the (rising) best asks
            floor = total + rest
            j = start if same[i] else 0
            fill = fills[i]
            while fill(j):
                rev = revs[j]
                if rev + floor <= best[0]:
                    break
                mask = msks[j]
                if not mask & used and (rev < old or rev + total + later > best[0]):
                    picks[i] = j
                    go(i + 1, used | mask, total + rev, j + 1, fresh or rev < old)
                j += 1
            picks[i] = -1
        elif start >= 0 and exact is None and i == n - 1:
            # the last list: its best route that fits is the only one worth trying (one
            # earning less than ``old`` when the run needs one)
            lo = start if same[i] else 0
            ceiling = best[0] - total - rest
            if not fresh:
                if old - 1 <= ceiling:
                    lo = -1
                else:
                    done = groups[i].rank(_BIG, old - 1)
                    lo = max(lo, bisect.bisect_left(revs, 1 - old, 0, done, key=operator.neg))
            j = groups[i].first_free(used, ceiling, lo) if lo >= 0 else -1
            while j >= 0:
                picks[i] = j
                if runs(picks):
                    go(n, used | msks[j], total + revs[j], j + 1, True)
                    break
                # no way of the route runs beside the others' ways: the next that fits
                j = groups[i].first_free(used, ceiling, j + 1)
            picks[i] = -1
        elif start >= 0:
            # the routes a chunk at a time (ranked as far as the rising best asks), each
            # chunk's routes that fit found group by group
            group = groups[i]
            lo = start if same[i] else 0
            floor = total + rest
            while True:
                hi = group.rank(lo + _CHUNK, best[0] - floor)
                for j in group.free(used, best[0] - floor, lo, hi):
                    rev = revs[j]
                    if rev + floor <= best[0]:
                        break
                    if rev >= old and rev + total + later <= best[0]:
                        continue
                    picks[i] = j
                    go(i + 1, used | msks[j], total + rev, j + 1, fresh or rev < old)
                if hi <= lo or revs[hi - 1] + floor <= best[0]:
                    break
                lo = hi
            picks[i] = -1
        if total + later > best[0]:
            # running nothing here: the same train in the next list runs nothing either
            go(i + 1, used, total, -1 if i + 1 < n and same[i + 1] else 0, fresh)

    go(first, 0, 0, 0, olds is None)
    if exact is not None and best_picks and all(p < 0 for p in best_picks):
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

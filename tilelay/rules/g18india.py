"""18India: gauge changes, variable cities, route connections and commodities (18xx.games'
``G18India::Game#revenue_for``, ``#visited_stops``, ``#check_other`` and its
``GaugeChangeBorder`` and ``Assign`` steps).

* **Routes** begin and end at a city (not a town).
* **Gauge changes.** A tile laid so that its track meets its neighbour's across a province
  border turns that border, on both hexes, into a gauge change marker (from phase IV, whose
  status says ``no_gauge_change``, the border just goes); a border with a crossing cost goes
  once track crosses it. A corporation may remove a marker (``remove_border``). A route
  counts one visited city of no revenue per gauge change it crosses: as the engine counts
  them, the hex sides with any border that the route's track leaves or enters, over all its
  paths, halved (a marker lies on both hexes, so each crossing counts twice). They use the
  train's reach in cities: a 2-train never crosses one.
* **Variable cities** (Karachi, Lahore, Mumbai, Kochi, Chennai, Colombo, Nepal, China,
  Dhaka; ``+?``, the red hexes): each such city the train scores earns, besides its revenue,
  the largest revenue among the route's visited stops off the red hexes less 20 (at least
  0), times the train's multiplier. (The engine's test of a red tile compares its colour,
  a symbol, with a string: true in the browser, where the records are made, which is
  the rule; false under plain Ruby.)
* **Connections**: a route visiting both Delhi and Kochi earns 100, Karachi and Chennai 80,
  Lahore and Kolkata 80, Nepal and Mumbai 70.
* **Commodities**: a route whose track passes a commodity's source hex (by its location
  name; the jewelry's is the hex the P6 company assigned) and a hex of one of its
  destinations earns its bonus (spices: the best of the destinations' spice values), while
  the commodity is unclaimed or the corporation's own. Delivering it claims it for the
  corporation (ore and tea: both sources); assigning the jewelry claims it for the
  corporation operating then.

The express variants (``4E``…) score the best four cities, their bonus included, as the
engine tries the sets (:meth:`tilelay.routes.RoutePlanner`'s express rule).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from tilelay.board import Board
from tilelay.hexgeo import neighbour_edge
from tilelay.route_rules import CITY, TrainSpec, WalkRules
from tilelay.rules import (
    GameRules,
    GameState,
    RouteContext,
    RouteView,
    RunFacts,
    follow_rounds,
    register,
)
from tilelay.tile import Border, BorderType, Color, Tile
from tilelay.trains import Phase

__all__ = ["G18India"]

#: A border still on a hex: (coord, edge, type, cost)
_Side = tuple[str, int, str, int]


@dataclass(frozen=True, slots=True)
class _Tables:
    """What 18India's route hooks read of one search's position, as bits (kept in the
    search's memo): a route's track is an int with bit ``p`` for each graph path ``p`` it
    uses (:attr:`RouteView.track`), and the places it visits an int with a bit per place."""

    #: (number of bordered hex sides, the graph paths with that many as a mask), for the
    #: paths with any; empty when no border is left
    bordered: tuple[tuple[int, int], ...]
    #: per node: the bit of its location name where the bonuses name it (a variable city,
    #: a connection's place), else 0
    place: list[int]
    #: the bits of the variable cities
    variable: int
    #: per connection: the bits of both its places, and its bonus
    connections: tuple[tuple[int, int], ...]

    def places(self, stops: Sequence[int]) -> int:
        """The bits of the places ``stops`` visit."""
        place = self.place
        here = 0
        for n in stops:
            here |= place[n]
        return here


@register
class G18India(GameRules):
    """The rules of 18India that routes and replay ask about."""

    names = ("18 India", "18India")
    route_hooks = True
    bonus_monotone = True

    #: the variable cities (location names), and what their bonus is measured above
    variable_cities: ClassVar[frozenset[str]] = frozenset(
        {"KARACHI", "LAHORE", "MUMBAI", "KOCHI", "CHENNAI", "COLOMBO", "NEPAL", "CHINA", "DHAKA"}
    )
    variable_base: ClassVar[int] = 20
    #: the pairs of location names a route earns a bonus for visiting both of
    connections: ClassVar[tuple[tuple[str, str, int], ...]] = (
        ("DELHI", "KOCHI", 100),
        ("KARACHI", "CHENNAI", 80),
        ("LAHORE", "KOLKATA", 80),
        ("NEPAL", "MUMBAI", 70),
    )
    #: commodity source (location name) -> (the commodity claimed, its bonus (None: the
    #: best spice value of the destinations visited), its destinations)
    destinations: ClassVar[tuple[str, ...]] = (
        "KARACHI",
        "LAHORE",
        "MUMBAI",
        "KOCHI",
        "CHENNAI",
        "COLOMBO",
        "NEPAL",
        "CHINA",
        "HALDIA",
        "VISAKHAPATNAM",
    )
    commodities: ClassVar[Mapping[str, tuple[str, int | None, tuple[str, ...]]]] = {
        "OIL": ("OIL", 30, ("MUMBAI",)),
        "OPIUM": ("OPIUM", 100, ("LAHORE", "HALDIA")),
        "ORE1": ("ORE", 50, ("KARACHI", "CHENNAI")),
        "ORE2": ("ORE", 50, ("KARACHI", "CHENNAI")),
        "GOLD": ("GOLD", 50, ("KOCHI",)),
        "COTTON": ("COTTON", 40, ("KARACHI", "CHENNAI")),
        "TEA1": ("TEA", 70, ("VISAKHAPATNAM",)),
        "TEA2": ("TEA", 70, ("VISAKHAPATNAM",)),
        "RICE": ("RICE", 30, ("CHINA", "NEPAL")),
        "JEWELRY": ("JEWELRY", 20, destinations),
        "SPICES": ("SPICES", None, destinations),
    }
    spices: ClassVar[Mapping[str, int]] = {
        "KOCHI": 70,
        "COLOMBO": 50,
        "CHENNAI": 50,
        "LAHORE": 40,
        "MUMBAI": 40,
        "CHINA": 40,
        "NEPAL": 40,
        "KARACHI": 30,
        "HALDIA": 30,
        "VISAKHAPATNAM": 30,
    }
    #: the commodities a claim takes (a commodity's name -> its sources)
    claims: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "ORE": ("ORE1", "ORE2"),
        "TEA": ("TEA1", "TEA2"),
    }
    #: the source whose hex a company's assignment names, and the company
    jewelry: ClassVar[str] = "JEWELRY"
    jewelry_company: ClassVar[str] = "P6"
    #: the phase status after which province borders no longer become gauge changes
    no_gauge_change: ClassVar[str] = "no_gauge_change"

    # ------------------------------------------------------------------- lays

    #: GIPR chooses its home as it floats: an open city for its token, or a town's hex where
    #: it lays one of the green cities 12, 13, 205 and 206 in a step of its own before it has
    #: a token (18xx.games' ``G18India::Game#place_home_token``, ``Step::HomeTrack``); the
    #: hexes where that step lays none or that are no such town (``#town_to_green_city_hexes``).
    home_track_corporation: ClassVar[str] = "GIPR"
    home_track_tiles: ClassVar[tuple[str, ...]] = ("12", "13", "205", "206")
    home_track_never: ClassVar[frozenset[str]] = frozenset({"G8", "P17", "K38", "L39"})

    def _home_track(self, board: Board, corporation: str, coord: str) -> bool:
        """Whether a lay by ``corporation`` at ``coord`` is GIPR's home track: it has no
        token yet, and the hex holds one town (white or yellow), no city."""
        if corporation != self.home_track_corporation or board.tokens_of(corporation):
            return False
        here = board.tile_at(coord)
        return (
            coord not in self.home_track_never
            and here.color in (Color.WHITE, Color.YELLOW)
            and len(here.towns) == 1
            and not here.cities
        )

    def extra_lays(
        self, board: Board, corporation: str, coord: str, phase: Phase | None, facts: RunFacts
    ) -> dict[str, tuple[int, ...]]:
        """GIPR's home track: a green city on the town's hex, whatever the phase and the
        upgrade rules, in each rotation whose track stays on the map and keeps the track
        there (``HomeTrack#legal_tile_rotation?``), of a tile left in the supply."""
        if not self._home_track(board, corporation, coord):
            return {}
        old = board.tile_at(coord).exits()
        on_map = {e for e in range(6) if board.neighbour(coord, e) is not None}
        out: dict[str, tuple[int, ...]] = {}
        for name in self.home_track_tiles:
            if name not in board.game.manifest or board.available(name) == 0:
                continue
            tile = board.game.tile(name)
            rotations = tuple(
                r
                for r in range(6)
                if tile.rotated(r).exits() <= on_map and old <= tile.rotated(r).exits()
            )
            if rotations:
                out[name] = rotations
        return out

    def lay_filter(
        self, board: Board, corporation: str, coord: str
    ) -> Callable[[Tile], bool] | None:
        """GIPR's home track lays only its green cities."""
        if not self._home_track(board, corporation, coord):
            return None
        return lambda tile: tile.name in self.home_track_tiles

    # ------------------------------------------------------------------ routes

    def route_allowed(self, view: RouteView) -> bool:
        ctx = view.ctx
        classes = ctx.classes
        stops = view.stops
        if classes[stops[0]] != CITY or classes[stops[-1]] != CITY:
            return False
        gauges = self.gauge_changes(view)
        if not gauges:
            return True
        cities = sum(1 for n in stops if classes[n] == CITY)
        return cities + gauges <= view.spec.capacity(1 << CITY)

    def walk_rules(self, ctx: RouteContext) -> WalkRules:
        """A route begins and ends at a city: the walk ends none at another stop."""
        return WalkRules(no_ends=frozenset(n for n, k in enumerate(ctx.classes) if 0 <= k != CITY))

    def gauge_changes(self, view: RouteView) -> int:
        """The gauge changes the route crosses, as the engine counts them: the hex sides
        with a border that its paths reach, halved."""
        bordered = self._tables(view.ctx).bordered
        if not bordered:
            return 0
        # a route uses a path once: its paths with k bordered sides are the bits of its
        # track in the mask of such paths
        track = view.track
        count = 0
        for sides, paths in bordered:
            count += sides * (track & paths).bit_count()
        return count // 2

    def _path_sides(self, ctx: RouteContext) -> list[int] | None:
        """For each graph path, how many of its hex sides have a border (None: no border
        is left)."""
        sides = frozenset(
            (coord, edge) for coord, edge, _, _ in _borders(ctx.facts.extra, ctx.game)
        )
        if not sides:
            return None
        graph = ctx.graph
        found = []
        for coord, j in graph.paths:
            edges = ctx.hex_tile(coord).paths[j].edges()
            found.append(sum(1 for edge in edges if (coord, edge) in sides))
        return found

    def _tables(self, ctx: RouteContext) -> _Tables:
        """The search's :class:`_Tables` (made once a search)."""
        found = ctx.memo.get("india.tables")
        if found is None:
            bordered: dict[int, int] = {}
            for p, count in enumerate(self._path_sides(ctx) or ()):
                if count:
                    bordered[count] = bordered.get(count, 0) | 1 << p
            # a bit for each place the bonuses name
            wanted = set(self.variable_cities)
            for a, b, _ in self.connections:
                wanted.update((a, b))
            bit_of = {name: 1 << i for i, name in enumerate(sorted(wanted))}
            place = [bit_of.get(name or "", 0) for name in _names(ctx)]
            variable = 0
            for name in self.variable_cities:
                variable |= bit_of[name]
            connections = tuple((bit_of[a] | bit_of[b], value) for a, b, value in self.connections)
            found = ctx.memo["india.tables"] = _Tables(
                tuple(sorted(bordered.items())), place, variable, connections
            )
        assert isinstance(found, _Tables)
        return found

    def paid_stops(self, view: RouteView) -> tuple[int, tuple[int, ...]] | None:
        """An express train's scored cities: the engine tries every set of the most cities it
        pays for and keeps the best with its bonus; the bonus that depends on the set is the
        variable cities' (the same amount for each, whichever set), so the best set is the
        best by each city's revenue plus that amount."""
        spec = view.spec
        if spec.pays_all:
            return None
        ctx = view.ctx
        stops = view.stops
        # kept per train and stops (many routes of a search stop at the same stops by
        # other track, and the choice is the stops' alone)
        of_spec: dict[tuple[int, ...], tuple[int, tuple[int, ...]]]
        of_spec = _by_stops(ctx, "india.paid", spec)
        found = of_spec.get(stops)
        if found is None:
            found = of_spec[stops] = self._paid_stops(view)
        return found

    def _paid_stops(self, view: RouteView) -> tuple[int, tuple[int, ...]]:
        """:meth:`paid_stops` of an express train, worked out."""
        spec = view.spec
        ctx = view.ctx
        stops = view.stops
        values = ctx.values(spec)
        tables = self._tables(ctx)
        place, variable = tables.place, tables.variable
        if tables.places(stops) & variable:
            each = self.variable_each(view)
            worth = [values[n] + (each if place[n] & variable else 0) for n in stops]
        else:
            worth = [values[n] for n in stops]
        all_classes = ctx.classes
        all_tokened = ctx.tokened
        classes = [all_classes[n] for n in stops]
        tokened = [all_tokened[n] for n in stops]
        _, chosen = spec.paid(classes, worth, tokened)
        paid = tuple(map(stops.__getitem__, chosen))
        return sum(map(values.__getitem__, paid)), paid

    def route_bonus(self, view: RouteView) -> int:
        ctx = view.ctx
        stops = view.stops
        paid = view.paid
        # the bonus of the stops and the stops scored (the variable cities, connections),
        # kept per train and stops with the stops scored; the deliveries by the track
        of_spec: dict[tuple[int, ...], tuple[tuple[int, ...], int]]
        of_spec = _by_stops(ctx, "india.bonus", view.spec)
        held = of_spec.get(stops)
        if held is not None and (held[0] is paid or held[0] == paid):
            total = held[1]
        else:
            total = self._stops_bonus(view)
            of_spec[stops] = (paid, total)
        return total + self._delivered_bonus(ctx, view.track)

    def _stops_bonus(self, view: RouteView) -> int:
        """What the route's stops and the stops it scores earn besides their revenue: the
        variable cities' bonus and the connections."""
        tables = self._tables(view.ctx)
        here = tables.places(view.stops)
        total = self.variable_bonus(view) if here & tables.variable else 0
        for both, value in tables.connections:
            if here & both == both:
                total += value
        return total

    def _delivered_bonus(self, ctx: RouteContext, track: int) -> int:
        """:meth:`commodity_bonus` of a route by its track (bit ``p`` for graph path ``p``):
        each available source whose hex and some destination's hex it passes."""
        delivery, spice_places = self._track_masks(ctx)
        total = 0
        for source_mask, where_mask, value in delivery:
            if track & source_mask and track & where_mask:
                if value is None:
                    # the best spice value of the places passed (best first)
                    value = next(v for m, v in spice_places if track & m)
                total += value
        return total

    def variable_bonus(self, view: RouteView) -> int:
        """What the variable cities the train scores earn besides their revenue (each city
        by its name once)."""
        tables = self._tables(view.ctx)
        place = tables.place
        scored = 0
        for n in view.paid:
            scored |= place[n]
        scored &= tables.variable
        return scored.bit_count() * self.variable_each(view) if scored else 0

    def variable_each(self, view: RouteView) -> int:
        """What each variable city the route scores earns besides its revenue."""
        ctx = view.ctx
        spec = view.spec
        stops = view.stops
        # the last route's (the hooks rating one route ask it more than once)
        last = ctx.memo.get("india.each")
        if last is not None and last[0] is stops and last[1] is spec:
            each: int = last[2]
            return each
        top = max(map(self._rendered(ctx, spec).__getitem__, stops), default=0)
        each = max(top - self.variable_base, 0) * _multiplier(spec)
        ctx.memo["india.each"] = (stops, spec, each)
        return each

    def _rendered(self, ctx: RouteContext, spec: TrainSpec) -> list[int]:
        """Each node's revenue for ``spec`` off the red hexes (0 on them, and for a
        junction; kept per search and train)."""
        key = _RENDERED_KEYS[spec.diesel]
        found = ctx.memo.get(key)
        if found is None:
            red = Color.RED
            found = ctx.memo[key] = [
                ctx.base_value(n, spec) if k >= 0 and ctx.tile(n).color != red else 0
                for n, k in enumerate(ctx.classes)
            ]
        assert isinstance(found, list)
        return found

    def connection_bonus(self, visited: Sequence[str | None]) -> int:
        """What the route earns for the pairs of places it visits."""
        here = set(visited)
        return sum(v for a, b, v in self.connections if a in here and b in here)

    def delivered(
        self, facts_extra: Mapping[str, Any], corporation: str, hexes: Sequence[str], game: Any
    ) -> list[str]:
        """The commodity sources whose bonus a route over ``hexes`` earns ``corporation``."""
        names = [game.hexes[h].location_name for h in dict.fromkeys(hexes) if h in game.hexes]
        if facts_extra.get("india.jewelry") in hexes:
            names.append(self.jewelry)
        here = {n for n in names if n}
        claimed: Mapping[str, tuple[str, ...]] = dict(facts_extra.get("india.claimed", ()))
        own = set(claimed.get(corporation, ()))
        taken = {c for cs in claimed.values() for c in cs}
        out: list[str] = []
        for source in self.commodities:
            if source not in here or (source in taken and source not in own):
                continue
            if here & set(self.commodities[source][2]):
                out.append(source)
        return out

    def commodity_bonus(self, ctx: RouteContext, hexes: Sequence[str]) -> int:
        """What the commodities the route delivers earn."""
        extra = ctx.facts.extra
        total = 0
        for source in self.delivered(extra, ctx.corporation, hexes, ctx.game):
            value = self.commodities[source][1]
            if value is None:
                names = {ctx.game.hexes[h].location_name for h in hexes if h in ctx.game.hexes}
                value = max((self.spices.get(n or "", 0) for n in names), default=0)
            total += value
        return total

    def route_bound(self, ctx: RouteContext, spec: TrainSpec) -> tuple[list[int], int]:
        """The stops' values, and for each stop what a route visiting it may earn besides:
        a variable city its bonus at the board's largest revenue, a destination every
        available commodity it takes, the first place of each connection its bonus."""
        values = list(ctx.values(spec))
        top = max((ctx.base_value(n, spec) for n in range(len(values))), default=0)
        variable = max(top - self.variable_base, 0) * _multiplier(spec)
        commodity = self._commodity_bound(ctx)
        names = _names(ctx)
        for n, name in enumerate(names):
            if name is None or ctx.classes[n] < 0:
                continue
            add = variable if name in self.variable_cities else 0
            add += sum(v for a, _, v in self.connections if a == name)
            values[n] += add + commodity[n]
        return values, 0

    def stops_bound(
        self, ctx: RouteContext, spec: TrainSpec
    ) -> Callable[[Sequence[int], int], int]:
        """From a route's stops and track: none unless it begins and ends at a city; its
        best stops by their values with the variable cities' bonus at the route's own
        largest revenue off the red hexes (as :meth:`paid_stops` chooses them, as many of
        each class as the train scores), its connections, and the commodities it delivers
        (as :meth:`commodity_bonus` finds them: a source's hex and a destination's hex on
        its track)."""
        values = ctx.values(spec)
        classes = ctx.classes
        tables = self._tables(ctx)
        place = tables.place
        base = self.variable_base
        # each stop's revenue off the red hexes (0 on them)
        rendered = self._rendered(ctx, spec)
        variable = [bool(bits & tables.variable) for bits in place]
        mult = _multiplier(spec)
        pays = [min(spec.pay_capacity(1 << k), len(classes)) for k in range(3)]
        connections = tables.connections
        delivered = self._delivered_bonus

        # per node: the class the train scores it in (-1: it scores none of its class, or
        # it is no stop), and its value (at least 0); the classes the train scores
        scored_in = [k if 0 <= k < 3 and pays[k] > 0 else -1 for k in classes]
        worth_of = [max(v, 0) for v in values]
        paying = [(k, pays[k]) for k in range(3) if pays[k] > 0]
        rendered_of = rendered.__getitem__

        #: the bound of the stops alone (their values, connections) by the stops, -1 where
        #: the train may not visit them: many routes of a search stop at the same stops by
        #: other track
        known: dict[tuple[int, ...], int] = {}
        costs = ctx.costs
        fits = spec.fits

        def bound(stops: Sequence[int], track: int) -> int:
            if classes[stops[0]] != CITY or classes[stops[-1]] != CITY:
                return -1
            key = tuple(stops)
            total = known.get(key)
            if total is None:
                # (the search asks this of the routes of other trains too: a train's bound
                # of a route it may not run is left as -1)
                counts = [0, 0, 0]
                for n in key:
                    counts[classes[n]] += costs[n]
                total = known[key] = of_stops(key) if fits(counts) else -1
            if total < 0:
                return total
            return total + delivered(ctx, track)

        def of_stops(stops: tuple[int, ...]) -> int:
            top = max(map(rendered_of, stops))
            each = (top - base) * mult if top > base else 0
            worth: tuple[list[int], list[int], list[int]] = ([], [], [])
            here = 0
            for n in stops:
                here |= place[n]
                k = scored_in[n]
                if k >= 0:
                    worth[k].append(worth_of[n] + each if variable[n] else worth_of[n])
            total = 0
            for k, pay in paying:
                of_class = worth[k]
                if len(of_class) > pay:
                    of_class.sort(reverse=True)
                    del of_class[pay:]
                total += sum(of_class)
            for both, v in connections:
                if here & both == both:
                    total += v
            return total

        return bound

    def _track_masks(
        self, ctx: RouteContext
    ) -> tuple[list[tuple[int, int, int | None]], list[tuple[int, int]]]:
        """The commodities still available as masks of graph paths (bit ``p`` for path
        ``p``): per source, the paths of its hex (the jewelry's where it is assigned), of
        its destinations' hexes, and its bonus (None: the spices'); and per place with a
        spice value, the paths of its hexes and the value, best first (kept per search)."""
        found = ctx.memo.get("india.track_masks")
        if found is None:
            extra = ctx.facts.extra
            claimed: Mapping[str, tuple[str, ...]] = dict(extra.get("india.claimed", ()))
            own = set(claimed.get(ctx.corporation, ()))
            taken = {c for cs in claimed.values() for c in cs}
            jewelry = extra.get("india.jewelry")
            hexes = ctx.game.hexes
            # location name -> the paths of its hexes
            at: dict[str, int] = {}
            for p, (coord, _) in enumerate(ctx.graph.paths):
                name = hexes[coord].location_name if coord in hexes else None
                if name:
                    at[name] = at.get(name, 0) | 1 << p
                if coord == jewelry:
                    at[self.jewelry] = at.get(self.jewelry, 0) | 1 << p
            delivery: list[tuple[int, int, int | None]] = []
            for source, (_, value, where) in self.commodities.items():
                if source in taken and source not in own:
                    continue
                source_mask = at.get(source, 0)
                where_mask = 0
                for place in where:
                    where_mask |= at.get(place, 0)
                if source_mask and where_mask:
                    delivery.append((source_mask, where_mask, value))
            spice_places = sorted(
                ((at[p], v) for p, v in self.spices.items() if p in at), key=lambda mv: -mv[1]
            )
            found = ctx.memo["india.track_masks"] = (delivery, spice_places)
        assert isinstance(found, tuple)
        return found

    def _commodity_bound(self, ctx: RouteContext) -> list[int]:
        """Per node: what the commodities still available earn a route reaching it, as a
        destination of each (its own spice value for the spices; kept per search)."""
        found = ctx.memo.get("india.commodity_bound")
        if found is None:
            names = _names(ctx)
            extra = ctx.facts.extra
            claimed: Mapping[str, tuple[str, ...]] = dict(extra.get("india.claimed", ()))
            own = set(claimed.get(ctx.corporation, ()))
            taken = {c for cs in claimed.values() for c in cs}
            open_ = [s for s in self.commodities if s not in taken or s in own]
            found = [0] * len(names)
            for n, name in enumerate(names):
                if name is None or ctx.classes[n] < 0:
                    continue
                for source in open_:
                    _, value, where = self.commodities[source]
                    if name in where:
                        found[n] += self.spices.get(name, 0) if value is None else value
            ctx.memo["india.commodity_bound"] = found
        assert isinstance(found, list)
        return found

    # ------------------------------------------------------------------ replay

    def setup(self, state: GameState) -> None:
        state.extra["india.borders"] = frozenset(_initial_borders(state.game))
        state.extra["india.claimed"] = ()
        state.extra["india.jewelry"] = None

    def before_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        follow_rounds(state, action)

    def after_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        kind = action.get("type")
        if kind == "lay_tile":
            self.cross_borders(state, str(action.get("hex")))
        elif kind == "remove_border":
            coord, edge = action.get("hex"), action.get("edge")
            if isinstance(coord, str) and isinstance(edge, int) and coord in state.game.hexes:
                state.extra["india.borders"] = _without(
                    state.extra["india.borders"], state.game, coord, edge
                )
        elif kind == "assign" and action.get("entity") == self.jewelry_company:
            target = action.get("target")
            if isinstance(target, str):
                state.extra["india.jewelry"] = target
                claimant = self._operating(state)
                if claimant is not None:
                    self.claim(state, claimant, self.jewelry)
        elif kind == "run_routes":
            corp = str(action.get("entity"))
            for hexes in _recorded_hexes(action):
                for source in self.delivered(state.extra, corp, hexes, state.game):
                    self.claim(state, corp, self.commodities[source][0])

    def _operating(self, state: GameState) -> str | None:
        """The corporation operating now: the next one the record shows acting (a company
        of a player acts in the turn of the corporation operating)."""
        corps = {c.sym for c in state.game.corporations}
        for later in state.upcoming():
            entity = later.get("entity")
            if later.get("entity_type") == "company" and isinstance(entity, str):
                entity = state.companies.get(entity)
            elif later.get("entity_type", "corporation") != "corporation":
                continue
            if isinstance(entity, str) and entity in corps:
                return entity
        return None

    def claim(self, state: GameState, corporation: str, commodity: str) -> None:
        """``corporation`` claims ``commodity`` (once; ore and tea: both their sources)."""
        claimed = dict(state.extra.get("india.claimed", ()))
        own = claimed.get(corporation, ())
        sources = self.claims.get(commodity, (commodity,))
        if all(s in own for s in sources):
            return
        claimed[corporation] = (*own, *(s for s in sources if s not in own))
        state.extra["india.claimed"] = tuple(sorted(claimed.items()))

    def cross_borders(self, state: GameState, coord: str) -> None:
        """After a lay at ``coord``: each border of the hex its track now crosses (the
        neighbour's track meeting it) goes from both hexes; a province border becomes a
        gauge change marker on both, unless the phase says no more."""
        game = state.game
        if coord not in game.hexes:
            return
        borders: frozenset[_Side] = state.extra["india.borders"]
        mine = [b for b in borders if b[0] == coord]
        if not mine:
            return
        board = state.board
        exits = board.tile_at(coord).exits()
        markers = self.no_gauge_change not in state.phase.status
        for _, edge, kind, cost in mine:
            other = game.neighbour(coord, edge)
            if other is None or edge not in exits:
                continue
            back = neighbour_edge(edge)
            if back not in board.tile_at(other).exits():
                continue
            if kind == BorderType.PROVINCE.value:
                borders = _without(borders, game, coord, edge, only=(coord, edge, kind, cost))
                if markers:
                    gauge = BorderType.GAUGE_CHANGE.value
                    borders = borders | {(coord, edge, gauge, 0), (other, back, gauge, 0)}
            elif cost > 0:
                borders = _without(borders, game, coord, edge, only=(coord, edge, kind, cost))
        state.extra["india.borders"] = borders


def _recorded_hexes(action: Mapping[str, Any]) -> list[list[str]]:
    """The hexes each recorded route's track passes (its ``connections``; a connection
    names a hex, or ``"HEX a.b"`` for a path inside one)."""
    out: list[list[str]] = []
    routes = action.get("routes")
    for route in routes if isinstance(routes, list) else ():
        conns = route.get("connections") if isinstance(route, Mapping) else None
        hexes = [
            str(h).split(" ", 1)[0]
            for c in (conns if isinstance(conns, list) else ())
            if isinstance(c, list)
            for h in c
        ]
        out.append(list(dict.fromkeys(hexes)))
    return out


def _by_stops(ctx: RouteContext, key: str, spec: TrainSpec) -> dict[tuple[int, ...], Any]:
    """What the search keeps under ``key`` for ``spec`` by a route's stops (in its memo)."""
    known: dict[TrainSpec, dict[tuple[int, ...], Any]] | None = ctx.memo.get(key)
    if known is None:
        known = ctx.memo[key] = {}
    of_spec = known.get(spec)
    if of_spec is None:
        of_spec = known[spec] = {}
    return of_spec


#: the memo's keys of :meth:`G18India._rendered`, by whether the train is a diesel
_RENDERED_KEYS = {False: "india.rendered.False", True: "india.rendered.True"}


def _multiplier(spec: TrainSpec) -> int:
    return max(spec.multipliers[CITY], 1)


def _names(ctx: RouteContext) -> list[str | None]:
    """Each node's location name (its hex's)."""
    found = ctx.memo.get("india.names")
    if found is None:
        hexes = ctx.game.hexes
        found = ctx.memo["india.names"] = [
            hexes[c].location_name if c in hexes else None for c in ctx.coords
        ]
    assert isinstance(found, list)
    return found


def _border_side(coord: str, border: Border) -> _Side:
    kind = border.type.value if border.type is not None else ""
    return (coord, border.edge, kind, border.cost or 0)


def _initial_borders(game: Any) -> list[_Side]:
    return [_border_side(c, b) for c, h in game.hexes.items() for b in h.borders]


def _borders(extra: Mapping[str, Any], game: Any) -> frozenset[_Side]:
    found = extra.get("india.borders")
    if isinstance(found, frozenset):
        return found
    return frozenset(_initial_borders(game))


def _without(
    borders: frozenset[_Side], game: Any, coord: str, edge: int, only: _Side | None = None
) -> frozenset[_Side]:
    """``borders`` without the border ``only`` (every border at ``edge`` of ``coord`` when
    None) and every border of the neighbour on the facing edge."""
    other = game.neighbour(coord, edge)
    back = neighbour_edge(edge)
    return frozenset(
        b
        for b in borders
        if not (
            (b[0] == coord and b[1] == edge and (only is None or b == only))
            or (b[0] == other and b[1] == back)
        )
    )

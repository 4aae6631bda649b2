"""1822: local trains, pullmans, E-trains, destination bonuses, the English Channel, and
majors acquiring minors (18xx.games' ``G1822::Game#check_distance``, ``#check_overlap``,
``#revenue_for``, ``#company_bought``, and its ``Route``, ``FirstTurnHousekeeping``,
``MinorAcquisition``, ``PendingToken`` and ``DestinationToken`` steps).

Routes:

* An **L** or **LP** train is a *local* train (its city row visits one stop): besides a city
  and a town, it may run a route of one city with the corporation's token alone, on no track;
  no two local trains of a run use one city, and a local train never crosses the English
  Channel.
* A **pullman** (``P+``) runs no route: before its run a corporation may attach it to one of
  its trains (neither local nor the E-train), which runs as ``N+`` (``4+``): ``N`` cities and
  offboards, and any number of towns, every stop scoring.
* The **E-train** scores only the cities with the corporation's token (doubled); its English
  Channel token scores France instead, when the route reaches France. Its route visits two
  such cities at least and starts and ends at one (or at France through the Channel, where the
  corporation holds the Channel's token). It may share track with the other trains.
* A route that reaches the **English Channel** (``P43``) goes on to **France** (``Q44``):
  visiting one of them alone is not a route, nor are the two of them alone. (France costs no
  stop: the two count as one.)
* A route stops at most once in a hex, unless it stops in one of the double hexes (Swansea &
  Oystermouth, Hamilton & Coatbridge, Wigan & Bolton, Bath & Radstock).
* A run uses at most one of the two tracks between Merthyr Tydfil and Pontypool (``F33``'s
  edges 1 and 2).
* A major's route that visits both its home token's city and its destination token's city
  earns the destination city's revenue again (times the train's multiplier); one route of a
  run earns it, the best.

Mail contracts (``P6``, ``P7``) pay a subsidy to the treasury besides the revenue: they are no
part of a run's revenue, and are left out.

Replay:

* A minor's first train (bought in its first turn) is the depot's next L, whatever id the
  record gives it (always ``L-0``): replay takes the id the minor runs it under later.
* A company that is a train (``P1``, ``P3``, ``P4``, ``P13``, ``P14``, ``P19``) becomes that
  train when a corporation acquires it, and closes.
* A major acquiring a minor (``merge``, then a ``choose`` of payment and one of what to do
  with the minor's token): the minor's trains and companies become the major's; its token
  becomes the major's (``replace``; removed where the major has one in that city) or leaves the
  board (``exchange``, ``remove``). A minor still in the bid box has no token: ``replace`` puts
  the major's token in the minor's home city, or, for minor 14, lets the major place a token in
  London, which adds a slot where the city is full (as minor 14's own first token does).
* A destination token (``hex_token``) goes into the first city of the hex, adding a slot
  where it is full; the LNWR places its own at Manchester with its home token.
* A ``choose`` of a number before a run attaches the pullman to that train (see above), until
  the run is over.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from tilelay.errors import NotFoundError
from tilelay.games import Game
from tilelay.route_rules import CITY, TrainSpec, WalkRules
from tilelay.rules import GameRules, GameState, RouteContext, RouteView, register
from tilelay.tile import NodeKind
from tilelay.trains import UNLIMITED_STOPS, StopAllowance, TrainType

__all__ = ["G1822", "G1822MRS", "G1822NRS"]


@register
class G1822(GameRules):
    """The rules of 1822 that routes and replay ask about (see the module docstring)."""

    names = ("1822",)
    route_hooks = True
    run_hooks = True
    #: local trains (their city row visits one stop: 18xx.games' ``Train#local?``)
    local_trains: ClassVar[frozenset[str]] = frozenset({"L", "LP"})
    pullman: ClassVar[str] = "P+"
    e_train: ClassVar[str] = "E"
    #: hexes where a route may stop twice (and then anywhere)
    double_hexes: ClassVar[frozenset[str]] = frozenset({"D35", "F7", "H21", "H37"})
    english_channel: ClassVar[str | None] = "P43"
    france: ClassVar[str | None] = "Q44"
    #: a hex and the edges of which a run may use only one
    one_track_of: ClassVar[tuple[str, frozenset[int]] | None] = ("F33", frozenset({1, 2}))
    #: the corporation that places its destination token with its home token, and where
    two_home: ClassVar[tuple[str, str] | None] = ("LNWR", "I22")
    #: the companies that are trains: the train's id and type
    company_trains: ClassVar[Mapping[str, tuple[str, str]]] = {
        "P1": ("5P-0", "5P"),
        "P3": ("2P-0", "2P"),
        "P4": ("2P-1", "2P"),
        "P13": ("P+-0", "P+"),
        "P14": ("P+-1", "P+"),
        "P19": ("LP-0", "LP"),
    }
    #: the minor whose home token is placed by its owner, in a slot added for it, and where
    pending_home: ClassVar[tuple[str, str] | None] = ("14", "M38")
    #: the type of the minors' first trains
    first_train: ClassVar[str] = "L"

    # ------------------------------------------------------------------ routes

    def train_spec(self, train: TrainType, ctx: RouteContext | None = None) -> TrainSpec:
        if train.name == self.pullman:
            # no route of its own: it is attached to another train (see train_type)
            return TrainSpec(train.name, (), (0, 0, 0), runs=False)
        spec = super().train_spec(train, ctx)
        if train.name in self.local_trains:
            spec = replace(spec, min_stops=1)
        if train.name == self.e_train:
            # the E-train may share track with the other trains (not they with each other)
            spec = replace(spec, pool=1)
        return spec

    def train_type(self, game: Game, name: str) -> TrainType | None:
        """A train with the pullman attached, ``N+``: ``N`` cities and offboards, any number
        of towns, every stop scoring (18xx.games' ``Route#attach_pullman``)."""
        base_name = name[:-1]
        if not name.endswith("+") or name == self.pullman or base_name in self.local_trains:
            return None
        if base_name == self.e_train:
            return None
        try:
            base = game.trains.train_type(base_name)
        except NotFoundError:
            return None
        if base.allowances:
            rows = [a for a in base.allowances if "city" in a.kinds]
            reach = rows[0].visit if rows else 0
        else:
            reach = base.major_stops
        if reach <= 0 or reach >= UNLIMITED_STOPS:
            return None
        return TrainType(
            name,
            base.cost,
            reach,
            allowances=(
                StopAllowance(("city", "offboard"), UNLIMITED_STOPS, reach),
                StopAllowance(("town",), UNLIMITED_STOPS, UNLIMITED_STOPS),
            ),
        )

    def route_allowed(self, view: RouteView) -> bool:
        ctx = view.ctx
        stops = view.stops
        hex_of, double, channels, shared = self._node_hexes(ctx)
        # a stop of a hex with no other node (or of a double hex) is never a second stop in
        # its hex where the route stops in no double hex
        if (
            not shared.isdisjoint(stops)
            and len(set(map(hex_of.__getitem__, stops))) != len(stops)
            and not any(double[n] for n in stops)
        ):
            return False
        channel = 0
        if channels and not channels.isdisjoint(stops):
            channel = sum(1 for n in stops if n in channels)
        name = view.spec.name
        if channel:
            if name in self.local_trains or channel == 1:
                return False
            if channel == 2 and len(stops) == 2:
                return False
        if name == self.e_train:
            tokened = ctx.tokened
            classes = ctx.classes
            mine = [classes[n] == CITY and tokened[n] for n in stops]
            if sum(mine) < 2:
                return False
            ends = mine[0] + mine[-1]
            if ends == 1:
                return channel == 2 and self._channel_held(ctx)
            return ends == 2
        return True

    def _node_hexes(
        self, ctx: RouteContext
    ) -> tuple[list[int], list[bool], frozenset[int], frozenset[int]]:
        """Per node: its hex as a number, and whether the hex is a double hex; the nodes of
        the English Channel and France; and the nodes that share their hex with another
        node, of the hexes that are not double (kept per search)."""
        key = "g1822.node_hexes"
        found = ctx.memo.get(key)
        if found is None:
            coords = ctx.coords
            ids: dict[str, int] = {}
            hex_of = [ids.setdefault(c, len(ids)) for c in coords]
            double = [c in self.double_hexes for c in coords]
            sea = (self.english_channel, self.france)
            channels = frozenset(n for n, c in enumerate(coords) if c in sea)
            nodes_of = [0] * len(ids)
            for h in hex_of:
                nodes_of[h] += 1
            shared = frozenset(n for n, h in enumerate(hex_of) if nodes_of[h] > 1 and not double[n])
            found = ctx.memo[key] = (hex_of, double, channels, shared)
        assert isinstance(found, tuple)
        return found

    def _channel_held(self, ctx: RouteContext) -> bool:
        """Whether the corporation holds a token in the English Channel."""
        return any(
            ctx.coords[n] == self.english_channel and ctx.tokened[n]
            for n in range(len(ctx.coords))
            if ctx.classes[n] == CITY
        )

    def paid_stops(self, view: RouteView) -> tuple[int, tuple[int, ...]] | None:
        """The E-train's: the cities with the corporation's token, the Channel's paying
        France's revenue (when the route reaches France)."""
        if view.spec.name != self.e_train:
            return None
        ctx = view.ctx
        values = ctx.values(view.spec)
        coords = ctx.coords
        france = next((n for n in view.stops if coords[n] == self.france), None)
        total = 0
        paid: list[int] = []
        for n in view.stops:
            if ctx.classes[n] != CITY or not ctx.tokened[n]:
                continue
            if coords[n] == self.english_channel:
                total += values[france] if france is not None else 0
            else:
                total += values[n]
            paid.append(n)
        return total, tuple(paid)

    def route_bonus(self, view: RouteView) -> int:
        found = self._destination(view.ctx)
        if found is None:
            return 0
        home, destination = found
        if home not in view.stops or destination not in view.stops:
            return 0
        return view.ctx.base_value(destination, view.spec) * view.spec.multipliers[CITY]

    def route_bound(self, ctx: RouteContext, spec: TrainSpec) -> tuple[list[int], int]:
        found = self._destination(ctx)
        if spec.name == self.e_train:
            # the E-train earns at its own cities alone (the Channel's at most France's
            # too), and the destination bonus there
            values = ctx.values(spec)
            france = max(
                (values[n] for n in range(len(ctx.coords)) if ctx.coords[n] == self.france),
                default=0,
            )
            bound = [0] * len(values)
            for n in self._own_cities(ctx):
                channel = ctx.coords[n] == self.english_channel
                bound[n] = max(values[n], france) if channel else values[n]
            if found is not None:
                bound[found[1]] += ctx.base_value(found[1], spec) * spec.multipliers[CITY]
            return bound, 0
        if found is None:
            return ctx.values(spec), 0
        destination = found[1]
        bonus = ctx.base_value(destination, spec) * spec.multipliers[CITY]
        return ctx.bound_with(spec, {ctx.coords[destination]: bonus}), 0

    def walk_rules(self, ctx: RouteContext) -> WalkRules:
        """The E-train's route begins and ends at the corporation's own cities (or at France
        through the Channel, where the corporation holds the Channel's token)."""
        ends = set(self._own_cities(ctx))
        if self._channel_held(ctx):
            ends.update(n for n in range(len(ctx.coords)) if ctx.coords[n] == self.france)
        return WalkRules(train_ends={self.e_train: frozenset(ends)})

    def _own_cities(self, ctx: RouteContext) -> list[int]:
        """The cities with the corporation's token."""
        return [n for n in range(len(ctx.coords)) if ctx.classes[n] == CITY and ctx.tokened[n]]

    def _destination(self, ctx: RouteContext) -> tuple[int, int] | None:
        """The nodes of the corporation's home token and destination token, when it has
        placed both (kept per search)."""
        key = "g1822.destination"
        if key in ctx.memo:
            found: tuple[int, int] | None = ctx.memo[key]
            return found
        found = None
        corp = ctx.corporation
        where = dict(ctx.facts.extra.get("destinations", ()))
        game = ctx.game
        home = game.corporation(corp).home
        city = game.home_city(corp)
        if corp in where and home is not None and city is not None:
            home_node = _city_node(ctx, home, city)
            dest_node = _city_node(ctx, where[corp], 0)
            if (
                home_node is not None
                and dest_node is not None
                and ctx.tokened[home_node]
                and ctx.tokened[dest_node]
            ):
                found = (home_node, dest_node)
        ctx.memo[key] = found
        return found

    def run_revenue(self, views: Sequence[RouteView], total: int) -> int:
        """The routes' total, with one destination bonus (the best); a run the game does not
        allow (two local trains in one city, both tracks between Merthyr Tydfil and Pontypool)
        is worth less than running nothing."""
        ctx = views[0].ctx
        classes = ctx.classes
        local: set[int] = set()
        for view in views:
            if view.spec.name in self.local_trains:
                for n in view.stops:
                    if classes[n] == CITY:
                        if n in local:
                            return -1
                        local.add(n)
        if self.one_track_of is not None and self._both_tracks(views):
            return -1
        bonuses = [v.bonus for v in views if v.bonus]
        if len(bonuses) > 1:
            total -= sum(bonuses) - max(bonuses)
        return total

    def _both_tracks(self, views: Sequence[RouteView]) -> bool:
        assert self.one_track_of is not None
        coord, edges = self.one_track_of
        ctx = views[0].ctx
        key = "g1822.one_track"
        found: dict[int, frozenset[int]] | None = ctx.memo.get(key)
        if found is None:
            # the graph paths of the hex using some of the edges, and which
            graph = ctx.graph
            found = {}
            for p, (at, j) in enumerate(graph.paths):
                if at == coord:
                    on = frozenset(e for e in ctx.hex_tile(at).paths[j].edges() if e in edges)
                    if on:
                        found[p] = on
            ctx.memo[key] = found
        if not found:
            return False
        used: set[int] = set()
        for view in views:
            for p in view.paths:
                held = found.get(p)
                if held is not None:
                    used.update(held)
        return used == edges

    # ------------------------------------------------------------------ replay

    def translate(self, state: GameState, action: Mapping[str, Any]) -> Mapping[str, Any]:
        """A minor's first train is the depot's next L: the record names it ``L-0`` whatever
        it is, so replay takes the id the minor runs it under (or trades it in under) later,
        else the depot's next train's."""
        if action.get("type") != "buy_train" or action.get("exchange"):
            return action
        corp = action.get("entity")
        if not isinstance(corp, str) or _kind(state.game, corp) != "minor":
            return action
        if corp in state.extra.get("ran", ()) or state.trains.get(corp):
            return action
        train = action.get("train")
        variant = action.get("variant")
        if not isinstance(train, str) or variant not in (None, self.first_train):
            return action
        if train.rpartition("-")[0] != self.first_train:
            return action
        real = self._first_train_id(state, corp)
        return action if real is None or real == train else {**action, "train": real}

    def _first_train_id(self, state: GameState, corp: str) -> str | None:
        prefix = self.first_train + "-"
        for later in state.upcoming():
            kind = later.get("type")
            if kind == "merge" and later.get("corporation") == corp:
                break
            if later.get("entity") != corp:
                continue
            if kind == "run_routes":
                for route in later.get("routes") or ():
                    train = route.get("train") if isinstance(route, Mapping) else None
                    if isinstance(train, str) and train.startswith(prefix):
                        return train
            elif kind == "buy_train":
                traded = later.get("exchange")
                if isinstance(traded, str) and traded.startswith(prefix):
                    return traded
        return state.next_in_depot()

    def extra_slot(self, state: GameState, action: Mapping[str, Any]) -> bool:
        entity = action.get("entity")
        if entity is not None and entity == state.extra.get("pending_token"):
            return True
        if self.pending_home is not None:
            minor, _ = self.pending_home
            return entity == minor and not state.board.tokens_of(minor)
        return False

    def after_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        kind = action.get("type")
        entity = action.get("entity")
        if not isinstance(entity, str):
            return
        extra = state.extra
        if kind == "run_routes":
            if entity not in extra.get("ran", ()):
                extra["ran"] = (*extra.get("ran", ()), entity)
            self._detach_pullman(state)
        elif kind == "acquire_company":
            self._company_train(state, action)
        elif kind == "merge":
            minor = action.get("corporation")
            if isinstance(minor, str):
                extra["acquiring"] = (entity, minor, "pay")
        elif kind == "choose":
            self._choose(state, action, entity)
        elif kind == "place_token" and extra.get("pending_token") == entity:
            del extra["pending_token"]
        elif kind == "hex_token":
            coord = action.get("hex")
            if isinstance(coord, str):
                self._destination_token(state, action, entity, coord)
        if self.two_home is not None:
            corp, coord = self.two_home
            if (
                entity == corp
                and corp in state.started
                and state.board.tokens_of(corp)
                and corp not in dict(extra.get("destinations", ()))
            ):
                self._destination_token(state, action, corp, coord)

    def _company_train(self, state: GameState, action: Mapping[str, Any]) -> None:
        """A company that is a train becomes it and closes."""
        company = action.get("company")
        if not isinstance(company, str) or company not in self.company_trains:
            return
        owner = state.companies.get(company)
        if owner is None:
            return
        train_id, name = self.company_trains[company]
        for held in state.trains.values():
            held.pop(train_id, None)
        state.trains.setdefault(owner, {})[train_id] = name
        del state.companies[company]

    def _choose(self, state: GameState, action: Mapping[str, Any], entity: str) -> None:
        extra = state.extra
        choice = action.get("choice")
        acquiring = extra.get("acquiring")
        if acquiring is not None and acquiring[0] == entity:
            major, minor, stage = acquiring
            if stage == "pay":
                extra["acquiring"] = (major, minor, "token")
            else:
                del extra["acquiring"]
                self._acquire(state, action, major, minor, str(choice))
            return
        if isinstance(choice, str) and choice.isascii() and choice.isdigit():
            self._attach_pullman(state, entity, int(choice))

    def _acquire(
        self, state: GameState, action: Mapping[str, Any], major: str, minor: str, choice: str
    ) -> None:
        """``major`` acquires ``minor`` (see the module docstring)."""
        board = state.board
        tokens = board.tokens_of(minor)
        if tokens:
            if choice != "replace":
                for coord, city in tokens:
                    board = board.remove_token(coord, city, minor)
                state.board = board
            state.merge_into([minor], major)
        elif choice == "replace":
            if self.pending_home is not None and minor == self.pending_home[0]:
                state.extra["pending_token"] = major
            else:
                home = state.game.corporation(minor).home
                home_city = state.game.home_city(minor)
                if home is None or home_city is None:
                    raise state.fail(action, f"minor {minor} has no home city for {major}'s token")
                if (home, home_city) not in board.tokens_of(major):
                    state.board = board.place_token(home, home_city, major, extra_slot=True)
            state.merge_into([minor], major)
        else:
            state.merge_into([minor], major)

    def _destination_token(
        self, state: GameState, action: Mapping[str, Any], corp: str, coord: str
    ) -> None:
        """``corp``'s destination token in the first city of ``coord`` (a slot added where it
        is full; where ``corp`` has a token already, that one stays)."""
        board = state.board
        if coord not in state.game.hexes or not board.tile_at(coord).cities:
            raise state.fail(action, f"{corp}'s destination {coord} has no city")
        if (coord, 0) not in board.tokens_of(corp):
            state.board = board.place_token(coord, 0, corp, extra_slot=True)
        extra = state.extra
        kept = tuple(p for p in extra.get("destinations", ()) if p[0] != corp)
        extra["destinations"] = (*kept, (corp, coord))

    def _attach_pullman(self, state: GameState, corp: str, index: int) -> None:
        held = state.trains.get(corp, {})
        if self.pullman not in held.values():
            return
        choices = [
            t
            for t, name in held.items()
            if name not in (self.pullman, self.e_train)
            and name not in self.local_trains
            and t not in state.operated
        ]
        if index < len(choices):
            train = choices[index]
            state.extra["pullman"] = (corp, train, held[train])
            held[train] = held[train] + "+"

    def _detach_pullman(self, state: GameState) -> None:
        attached = state.extra.pop("pullman", None)
        if attached is None:
            return
        _, train, name = attached
        for held in state.trains.values():
            if held.get(train) == name + "+":
                held[train] = name


def _kind(game: Game, sym: str) -> str | None:
    for corp in game.corporations:
        if corp.sym == sym:
            return corp.kind
    return None


def _city_node(ctx: RouteContext, coord: str, city: int) -> int | None:
    """The graph node of city ``city`` (counting the tile's cities) of ``coord``."""
    tile = ctx.hex_tile(coord)
    cities = [i for i, n in enumerate(tile.nodes) if n.kind is NodeKind.CITY]
    if city >= len(cities):
        return None
    return ctx.graph.node_id.get((coord, cities[city]))


@register
class G1822MRS(G1822):
    """1822's Medium Regional Scenario: 1822's rules on part of its map (18xx.games'
    ``G1822MRS::Game`` changes the trains' numbers and the companies, not the routes)."""

    names = ("1822MRS",)


@register
class G1822NRS(G1822):
    """1822's North Regional Scenario: 1822's rules without the English Channel (18xx.games'
    ``G1822NRS::Game``)."""

    names = ("1822NRS",)
    english_channel = None
    france = None

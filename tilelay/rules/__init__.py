"""Game rules: what one game adds to the generic route rules and to replaying its records.

The route search (:mod:`tilelay.routes`) and the generic route rules
(:mod:`tilelay.route_rules`) know nothing of any one game. A game's own rules are a
:class:`GameRules` whose hooks the search calls, as Rails' revenue calculator calls its
revenue modifiers and 18xx.games calls a game's ``revenue_for`` / ``check_other`` /
``routes_revenue``:

========================  ==================================================================
hook                      what it says (default: the 18xx.games base rules)
========================  ==================================================================
``train_spec``            how a train of the game reaches and scores (:class:`TrainSpec`)
``stop_values``           what each stop earns a train (per node; e.g. doubled cities)
``passable``              whether a route may pass through a node (blocked hexes, tokens)
``route_allowed``         whether a route is legal for the game (one route at a time)
``scored_allowed``        whether it is legal with the stops it scores
``route_bonus``           what a route earns besides its stops (east-west, offboard pairs)
``run_revenue``           the total of a whole run (bonuses or penalties over all routes)
``run_bonus_bound``       the most ``run_revenue`` can add to the routes' sum (for the bound)
``run_applies``           whether ``run_revenue`` may change what this run earns
``route_bound``           the most a route can earn, per stop and in all (for the bound)
``stops_bound``           a closer bound of a route from its stops and track (before rating)
``walk_rules``            rules the walk applies itself (ends, passes, hexes entered again)
``hex_distance``          how far an H-train's route reaches (hex sides crossed)
``rating_track``          the track whose use changes what a route earns (ways rated once)
========================  ==================================================================

The search stays exact with route and run-level rules: it bounds a route by its stops'
``route_bound`` values and rates it exactly (``route_allowed`` … ``route_bonus``) only when the
bound can beat the best found; it bounds a run by its routes' revenues plus
``run_bonus_bound`` and evaluates each complete run with ``run_revenue``.

A game whose setup is drawn when it starts (18USA's red hexes and metropolises, from the
game's seed and its number of players: :class:`Start`) says so (:attr:`GameRules.seeded`) and
makes the game so started (:meth:`GameRules.game_for`), with the tiles it lays before play
(:meth:`GameRules.opening_lays`): replay starts a record's game from the record, a sandbox
board (:class:`~tilelay.sandbox.BoardState`) from the seed and players it is given.

Replaying a record asks the game's rules too (:meth:`GameRules.setup`,
:meth:`GameRules.translate`, :meth:`GameRules.before_action`, :meth:`GameRules.after_action`,
:meth:`GameRules.extra_slot`): what the game gives at the start (e.g. 1846's minors' first
trains), what an action really does where the record says less, and what an action does
that the generic replay does not know.

The rules of a game are found by its name (:func:`rules_for`); games without rules of their
own use :class:`GameRules` itself. Each game family's rules are a module of this package.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, compress, count
from operator import attrgetter
from typing import Any, ClassVar, Protocol

from tilelay.actions import TileLay
from tilelay.board import NEUTRAL, Board, TrackGraph
from tilelay.errors import NotFoundError
from tilelay.games import Game, normalise_name
from tilelay.route_rules import CITY, OFFBOARD, TOWN, TrainSpec, WalkRules, train_spec
from tilelay.tile import Node, NodeKind, Tile
from tilelay.trains import Phase, TrainType

__all__ = [
    "GameRules",
    "GameState",
    "RouteContext",
    "RouteView",
    "RunFacts",
    "Start",
    "Turn",
    "follow_rounds",
    "register",
    "rules_for",
]

_CLASS = {NodeKind.CITY: CITY, NodeKind.TOWN: TOWN, NodeKind.OFFBOARD: OFFBOARD}


@dataclass(frozen=True, slots=True)
class Start:
    """How a game is started, where its setup is drawn then (:attr:`GameRules.seeded`): the
    ``seed`` of its draws (None: none given), its number of ``players`` (0: not known) and
    the optional rules chosen (``options``)."""

    seed: int | None = None
    players: int = 0
    options: tuple[str, ...] = ()

    @classmethod
    def of_record(cls, record: Mapping[str, Any]) -> Start:
        """How a recorded game was started: its settings' ``seed``, else the digits of its id
        (as the 18xx.games engine takes them), its players and optional rules.

        >>> Start.of_record({"id": "hotseat-123", "players": [{}, {}], "settings": {}})
        Start(seed=123, players=2, options=())
        """
        settings = record.get("settings")
        if not isinstance(settings, Mapping):
            settings = {}
        seed = settings.get("seed")
        found: int | None = None
        if isinstance(seed, int) and not isinstance(seed, bool):
            found = seed
        elif isinstance(seed, str) and seed.isascii() and seed.isdigit():
            found = int(seed)
        else:
            digits = "".join(
                c if c.isascii() and c.isdigit() else " " for c in str(record.get("id", ""))
            ).split()
            found = int(digits[0][:18]) if digits else None
        players = record.get("players")
        chosen = settings.get("optional_rules")
        return cls(
            found,
            len(players) if isinstance(players, list) else 0,
            tuple(o for o in chosen if isinstance(o, str)) if isinstance(chosen, list) else (),
        )


@dataclass(frozen=True, slots=True)
class RunFacts:
    """What a game's route rules may ask about the moment of a run besides the board: who owns
    which private company (``companies``: company -> owner), what is assigned where
    (``assignments``: a hex or corporation -> the ids assigned to it, as 18xx.games'
    ``assign``), the record's optional rules, facts a game's replay keeps (``extra``; its
    values immutable), and the trains each corporation holds (``trains``: names)."""

    companies: Mapping[str, str] = field(default_factory=dict)
    assignments: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    optional_rules: frozenset[str] = frozenset()
    extra: Mapping[str, Any] = field(default_factory=dict)
    trains: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def owned_by(self, owner: str) -> list[str]:
        """The companies ``owner`` holds."""
        return [c for c, o in self.companies.items() if o == owner]

    def assigned(self, target: str, what: str) -> bool:
        """Whether ``what`` is assigned to ``target`` (a hex or a corporation)."""
        return what in self.assignments.get(target, ())


#: Phased revenues worked out: the moments they are worked out for (phase, its tiles,
#: diesel, the order of phases), numbered; and the revenues by (the revenue's id, the
#: moment's number) -> (the revenue, kept so that its id stays its own; its value).
_MOMENTS: dict[tuple[object, ...], int] = {}
_REVENUE_AT: dict[tuple[int, int], tuple[object, int]] = {}

# What the route search needs of each tile's nodes, worked out once per tile (tiles are
# immutable and shared by every board they lie on): id(tile) -> (the tile, kept so that its
# id stays its own; its facts)
_TILE_FACTS: dict[int, tuple[Tile, _TileFacts]] = {}


# What the route search needs of one node: (the node, its class (-1 for a junction), its
# visit cost, whether a route may pass through it when no token is there (the base rule),
# its revenue when that does not depend on the phase (else 0; junctions earn nothing), whether
# it does)
_NodeRow = tuple[Node, int, int, bool, int, bool]


def _node_row(node: Node) -> _NodeRow:
    """What the route search needs of ``node`` (see :data:`_NodeRow`)."""
    c = _CLASS.get(node.kind, -1)
    revenue = node.revenue
    return (
        node,
        c,
        node.visit_cost,
        c != OFFBOARD and not (c == CITY and node.slots <= 0),
        0 if revenue is None or revenue.phases or c < 0 else revenue.value,
        c >= 0 and revenue is not None and bool(revenue.phases),
    )


class _TileFacts:
    """One tile's nodes as the route search sees them (see :class:`_BoardNodes`): a row
    per node, so that a board joins its tiles' facts in one pass."""

    __slots__ = ("cities", "grouped", "rows", "stop_costs")

    def __init__(self, tile: Tile) -> None:
        nodes = tile.nodes
        self.rows = tuple(_node_row(n) for n in nodes)
        #: the node indices of the tile's cities, in order
        self.cities = tuple(i for i, n in enumerate(nodes) if n.kind is NodeKind.CITY)
        #: the visit costs of the tile's stops
        self.stop_costs = frozenset(row[2] for row in self.rows if row[1] >= 0)
        self.grouped = any(n.groups for n in nodes)


_ROWS = attrgetter("rows")
_GROUPED = attrgetter("grouped")
_STOP_COSTS = attrgetter("stop_costs")


def _tile_facts(tile: Tile) -> _TileFacts:
    found = _TILE_FACTS.get(id(tile))
    if found is None or found[0] is not tile:
        if len(_TILE_FACTS) > 200_000:
            _TILE_FACTS.clear()
        found = _TILE_FACTS[id(tile)] = (tile, _TileFacts(tile))
    return found[1]


class _BoardNodes:
    """What every search on one board sees of its nodes (kept with the board): built from
    each tile's facts, in the track graph's order (hex by hex, every node of a tile), and
    the tiles of the hexes with nodes."""

    def __init__(self, board: Board, graph: TrackGraph) -> None:
        coords = [c for c, _ in graph.nodes]
        # the tiles the graph was built from (a graph's nodes are its tiles' nodes, hex by
        # hex)
        tiles: Mapping[str, Tile] = graph.node_tiles
        keys = list(tiles)
        tile_list = list(tiles.values())
        held_facts = _TILE_FACTS
        per_tile: list[_TileFacts] = [
            found[1]
            if (found := held_facts.get(id(tile))) is not None and found[0] is tile
            else _tile_facts(tile)
            for tile in tile_list
        ]
        # the tiles' rows joined, in the graph's order
        rows: list[_NodeRow] = list(chain.from_iterable(map(_ROWS, per_tile)))
        grouped = any(map(_GROUPED, per_tile))
        stop_costs: frozenset[int] = frozenset().union(*map(_STOP_COSTS, per_tile))
        if len(rows) != len(graph.nodes):
            # not the tiles the graph was built from: the board's, node by node
            keys = list(dict.fromkeys(coords))
            tile_list = board.tiles_at(keys)
            tiles = dict(zip(keys, tile_list, strict=True))
            per_tile = [_tile_facts(tile) for tile in tile_list]
            rows = [_node_row(tiles[coord].nodes[index]) for coord, index in graph.nodes]
            grouped = any(row[0].groups for row in rows)
            stop_costs = frozenset(row[2] for row in rows if row[1] >= 0)
        nodes: list[Node] = []
        classes: list[int] = []
        costs: list[int] = []
        open_: list[bool] = []
        plain: list[int] = []
        phased_flags: list[bool] = []
        if rows:
            nodes, classes, costs, open_, plain, phased_flags = map(list, zip(*rows, strict=True))
        self.coords: list[str] = coords
        self.tiles = tiles
        self.nodes = nodes
        self.classes = classes
        self.costs = costs
        #: whether a route may pass through each node when no token is there
        self.open = open_
        #: each node's revenue when it does not depend on the phase (else 0), and the nodes
        #: whose revenue does
        self.plain = plain
        self.phased: list[int] = list(compress(count(), phased_flags))
        #: whether any node belongs to a group
        self.grouped = grouped
        #: the visit costs of the stops
        self.stop_costs = stop_costs
        held: list[tuple[str, ...]] = [()] * len(nodes)
        token_cities: list[int] = []
        node_id = graph.node_id
        facts_at = dict(zip(keys, per_tile, strict=True))
        for (coord, city), corps in board.tokens.items():
            facts = facts_at.get(coord)
            if facts is None:
                continue  # no node there
            cities = facts.cities
            if city < len(cities):
                n = node_id.get((coord, cities[city]))
                if n is not None:
                    held[n] = corps
                    token_cities.append(n)
        self.tokens = held
        self.token_cities = token_cities
        self.values: dict[tuple[object, ...], list[int]] = {}
        self.memo: dict[object, Any] = {}


class RouteContext:
    """One search's view of the board for the game's rules: the corporation, the phase, the
    :class:`RunFacts`, and the track graph's nodes with what the rules need of them."""

    def __init__(
        self,
        board: Board,
        corporation: str,
        phase: Phase,
        facts: RunFacts,
        rules: GameRules,
    ) -> None:
        self.board = board
        self.game = board.game
        self.corporation = corporation
        self.phase = phase
        self.facts = facts
        self.rules = rules
        graph = board.track_graph()
        self.graph = graph
        memo = board.memo
        shared = memo.get("rules.nodes")
        if shared is None:
            shared = memo["rules.nodes"] = _BoardNodes(board, graph)
        assert isinstance(shared, _BoardNodes)
        self.coords = shared.coords
        #: the tiles of the hexes with nodes (any hex: :meth:`hex_tile`)
        self.tiles = shared.tiles
        self.nodes = shared.nodes
        self.classes = shared.classes
        #: how much of a train's reach each stop uses (visit_cost: 0 for a port)
        self.costs = shared.costs
        self.tokens = shared.tokens
        self._shared = shared
        self._order = tuple(p.name for p in self.game.phases)
        #: the number of this moment for a diesel and for other trains (see _MOMENTS)
        self._moments: dict[bool, int] = {}
        self._values: dict[TrainSpec, list[int]] = {}
        #: what a game's rules work out once per search (their own keys)
        self.memo: dict[str, Any] = {}
        # the most stops of a route the search found (:attr:`longest`), or how to work it out
        self._longest: int | Callable[[], int] = len(self.nodes)
        tokened = [False] * len(self.nodes)
        neutral = rules.neutral_owner == corporation
        for n in shared.token_cities:
            held = shared.tokens[n]
            if corporation in held or (neutral and NEUTRAL in held):
                tokened[n] = True
        self.tokened = tokened

    @property
    def longest(self) -> int:
        """The most stops a route of the search's run has (whole-run bounds: 1846's Mail
        Contract); worked out when a rule first asks, where the search set how."""
        found = self._longest
        if not isinstance(found, int):
            found = self._longest = found()
        return found

    @longest.setter
    def longest(self, value: int | Callable[[], int]) -> None:
        self._longest = value

    def values(self, spec: TrainSpec) -> list[int]:
        """What each node earns ``spec`` when scored (the game's :meth:`GameRules.stop_values`,
        kept per train; the base rule's, which depends on the phase and train alone, per
        board too)."""
        found = self._values.get(spec)
        if found is None:
            if type(self.rules).stop_values is GameRules.stop_values:
                key = (self.phase.name, self.phase.tiles, spec.multipliers, spec.diesel)
                found = self._shared.values.get(key)
                if found is None:
                    found = self._shared.values[key] = self.rules.stop_values(self, spec)
            else:
                found = self.rules.stop_values(self, spec)
            self._values[spec] = found
        return found

    def base_values(self, spec: TrainSpec) -> list[int]:
        """The revenue of every node in the phase for ``spec`` (before any multiplier; 0 for
        junctions), kept per board, phase and whether the train is a diesel."""
        key = ("base", self.phase.name, self.phase.tiles, spec.diesel)
        shared = self._shared
        found = shared.values.get(key)
        if found is None:
            found = list(shared.plain)
            nodes = shared.nodes
            for n in shared.phased:
                found[n] = self.base_value_of(nodes[n], spec)
            shared.values[key] = found
        return found

    def bound_with(self, spec: TrainSpec, extra: Mapping[str, int]) -> list[int]:
        """``spec``'s stop values with ``extra[coord]`` added to every stop of the hexes it
        names (a fresh list: for :meth:`GameRules.route_bound`)."""
        out = list(self.values(spec))
        classes = self.classes
        node_id = self.graph.node_id
        for coord, add in extra.items():
            tile = self.tiles.get(coord)
            if not add or tile is None:
                continue
            for i in range(len(tile.nodes)):
                n = node_id.get((coord, i))
                if n is not None and classes[n] >= 0:
                    out[n] += add
        return out

    def assigned_hexes(self, what: str) -> list[str]:
        """The targets (hexes, corporations) ``what`` is assigned to."""
        return [t for t, ids in self.facts.assignments.items() if what in ids]

    def tile(self, node: int) -> Tile:
        """The tile holding ``node``."""
        return self.tiles[self.coords[node]]

    def hex_tile(self, coord: str) -> Tile:
        """The tile on hex ``coord``, with nodes or not (:attr:`tiles` holds only the tiles
        of the hexes with nodes)."""
        tile = self.tiles.get(coord)
        return tile if tile is not None else self.board.tile_at(coord)

    def base_value(self, node: int, spec: TrainSpec) -> int:
        """The revenue of ``node`` in the phase for ``spec`` (before any multiplier)."""
        return self.base_value_of(self.nodes[node], spec)

    def base_value_of(self, node: Node, spec: TrainSpec) -> int:
        """The revenue of a tile's ``node`` in the phase for ``spec`` (before any
        multiplier)."""
        revenue = node.revenue
        if revenue is None:
            return 0
        if not revenue.phases:
            return revenue.value
        # by the revenue's identity and a number for the moment (hashing neither)
        at = self._moments.get(spec.diesel)
        if at is None:
            moment = (self.phase.name, self.phase.tiles, spec.diesel, self._order)
            at = self._moments[spec.diesel] = _MOMENTS.setdefault(moment, len(_MOMENTS))
        key = (id(revenue), at)
        held = _REVENUE_AT.get(key)
        if held is not None and held[0] is revenue:
            return held[1]
        value = self._phased(revenue, spec)
        if len(_REVENUE_AT) > 100_000:
            _REVENUE_AT.clear()
        _REVENUE_AT[key] = (revenue, value)
        return value

    def _phased(self, revenue: Any, spec: TrainSpec) -> int:
        phase = self.phase
        found: int = revenue.at(
            phase.name, colors=phase.tiles, order=self._order, diesel=spec.diesel
        )
        return found


class RouteView:
    """One route of one train, as a game's hooks see it: ``stops`` (node ids, in order),
    ``paid`` (the node ids the train scores), ``revenue`` (what those stops earn), ``bonus``
    (what the game's :meth:`GameRules.route_bonus` adds; 0 while it is being asked), the
    train's ``spec``, and on demand the route's ``paths`` (graph path ids, in order), its
    ``track`` (the paths as bits) and ``hexes``."""

    __slots__ = ("_ends", "_paths", "_track", "bonus", "ctx", "paid", "revenue", "spec", "stops")

    def __init__(
        self,
        ctx: RouteContext,
        spec: TrainSpec,
        stops: tuple[int, ...],
        paid: tuple[int, ...],
        revenue: int,
        ends: Sequence[int],
        bonus: int = 0,
        track: int | None = None,
    ) -> None:
        self.ctx = ctx
        self.spec = spec
        self.stops = stops
        self.paid = paid
        self.revenue = revenue
        self.bonus = bonus
        self._ends = ends
        self._paths: tuple[int, ...] | None = None
        self._track = track

    @property
    def total(self) -> int:
        """What the route earns: its stops' revenue and its bonus."""
        return self.revenue + self.bonus

    @property
    def ends(self) -> Sequence[int]:
        """The graph path ends the route leaves each path by, in order (path id ``e >> 1``;
        for a game's rules that look a path up per end, without building :attr:`paths`)."""
        return self._ends

    @property
    def paths(self) -> tuple[int, ...]:
        """The graph path ids of the route, in order."""
        found = self._paths
        if found is None:
            found = self._paths = tuple(e >> 1 for e in self._ends)
        return found

    @property
    def track(self) -> int:
        """The route's paths as one int, bit ``p`` for graph path ``p``: whether it passes
        some paths is one ``&`` (bits above the paths' may say more of its track)."""
        found = self._track
        if found is None:
            found = 0
            for e in self._ends:
                found |= 1 << (e >> 1)
            self._track = found
        return found

    @property
    def hexes(self) -> tuple[str, ...]:
        """The hexes the route passes, in order (a hex entered twice in a row listed once)."""
        graph = self.ctx.graph
        out: list[str] = []
        for e in self._ends:
            coord = graph.paths[e >> 1][0]
            if not out or out[-1] != coord:
                out.append(coord)
        return tuple(out)

    @property
    def stop_hexes(self) -> tuple[str, ...]:
        """The hexes of the stops, in order."""
        return tuple(self.ctx.coords[n] for n in self.stops)

    def chains(self) -> list[tuple[int, ...]]:
        """The route's paths (graph ids) from stop to stop, in order."""
        graph = self.ctx.graph
        classes = self.ctx.classes
        out: list[tuple[int, ...]] = []
        chain: list[int] = []
        for e in self._ends:
            chain.append(e >> 1)
            m = graph.end_node[e ^ 1]
            if m >= 0 and classes[m] >= 0:
                out.append(tuple(chain))
                chain = []
        if chain:
            out.append(tuple(chain))
        return out

    def crossings(self) -> int:
        """The hex sides the route crosses (each path entered from a neighbouring hex)."""
        end_node = self.ctx.graph.end_node
        return sum(1 for e in self._ends if end_node[e] < 0)


class GameState(Protocol):
    """What a game's replay hooks may read and change of a record being replayed (the replay
    of :mod:`tilelay.replay` provides it)."""

    game: Game
    board: Board
    phase: Phase
    #: corporation -> {train id: train name}
    trains: dict[str, dict[str, str]]
    #: company -> owner
    companies: dict[str, str]
    #: hex or corporation -> assigned ids
    assignments: dict[str, tuple[str, ...]]
    optional_rules: frozenset[str]
    extra: dict[str, Any]
    #: train ids that have run in this operating round, and who ran them
    operated: dict[str, str]
    #: corporations that have acted (their home tokens placed when the game has them)
    started: set[str]

    def give_train(self, owner: str, name: str) -> str:
        """Give ``owner`` the next train of type ``name`` from the depot; its id."""
        ...

    def export_train(self, action: Mapping[str, Any]) -> str | None:
        """The depot's next train leaves the game (18xx.games' ``depot.export!``): phases,
        rusting and its events as if it were bought; its id (None: the depot is empty)."""
        ...

    def next_in_depot(self) -> str | None:
        """The id of the depot's next train (None: the depot is empty)."""
        ...

    def city_of(self, action: Mapping[str, Any], city_ref: str) -> tuple[str, int]:
        """The ``(coord, city index)`` of a record's city reference (``TILE-COPY-CITY``);
        raises the replay's error when it names no city on the board."""
        ...

    def depot_sale(self, action: Mapping[str, Any], owner: str | None) -> str | None:
        """The depot's next train goes to ``owner`` (None: leaves the game), as if bought;
        its id (None: the depot is empty)."""
        ...

    def depot_ahead(self, train_id: str) -> int | None:
        """How many of the depot's trains must go before ``train_id`` can be bought from it
        (None: it has left the depot)."""
        ...

    def upcoming(self) -> Sequence[Mapping[str, Any]]:
        """The actions in force after the one being applied."""
        ...

    def merge_into(self, sources: Sequence[str], target: str) -> None:
        """Corporations merge into ``target``: tokens, trains and companies."""
        ...

    def fail(self, action: Mapping[str, Any], message: str) -> Exception:
        """The error to raise for ``action``."""
        ...

    def game_lays(self, coord: str, tile_id: str, rotation: int) -> None:
        """The game lays tile ``tile_id`` (``NAME-COPY``) at ``coord`` itself, without an
        action (not one of the record's lays; its cities found by the record's references)."""
        ...


#: Actions only a corporation's operating turn has.
_OPERATING = frozenset({"lay_tile", "run_routes", "dividend", "buy_train"})
#: What players do in the rounds between operating rounds (in an operating round a player
#: only raises money, selling shares).
_PLAYER_ROUNDS = frozenset({"buy_shares", "par", "bid", "pass"})


@dataclass(frozen=True, slots=True)
class Turn:
    """What :func:`follow_rounds` says of an action: whether it shows the operating round
    before it over (``round_over``), and the corporation that begins a turn with it
    (``starts``; None when it continues the turn before or is not a corporation's)."""

    round_over: bool
    starts: str | None


def follow_rounds(
    state: GameState,
    action: Mapping[str, Any],
    *,
    other_rounds: frozenset[str] = frozenset(),
    ends: bool = False,
) -> Turn:
    """Follow operating rounds through a record, which does not mark them (call it before
    each action). An operating round begins with an action only a corporation's operating
    turn has (a lay, a run, a payout, a train bought), and is over at the first action that
    belongs to another round: a player buying, bidding, starting a corporation or passing,
    an action of a type in ``other_rounds`` (a game's merger round), one the game knows ends
    it (``ends``), or any action of a corporation that begins a second turn in it. Kept in
    ``state.extra``: ``operating`` (the corporations that have had a turn in the round),
    ``actor`` (the corporation whose turn it is; a company acts for its owner) and ``order``
    (corporations in the order they last began a turn: the operating order, which is the
    share price order)."""
    kind = action.get("type")
    extra = state.extra
    corp = _acting_corporation(state, action)
    starts = corp if corp is not None and corp != extra.get("actor") else None
    operated = extra.get("operating", ())
    over = bool(operated) and (
        ends
        or kind in other_rounds
        or (action.get("entity_type") == "player" and kind in _PLAYER_ROUNDS)
        or (starts is not None and starts in operated)
    )
    if over:
        operated = ()
    if corp is not None and corp not in operated and (operated or kind in _OPERATING):
        operated = (*operated, corp)
    extra["operating"] = operated
    if starts is not None:
        extra["actor"] = starts
        order = extra.get("order", ())
        extra["order"] = (*(c for c in order if c != starts), starts)
    return Turn(over, starts)


def _acting_corporation(state: GameState, action: Mapping[str, Any]) -> str | None:
    """The corporation an action is done by or for (a company's owner), if any."""
    entity = action.get("entity")
    if not isinstance(entity, str):
        return None
    if action.get("entity_type") == "company":
        entity = state.companies.get(entity, "")
    elif action.get("entity_type", "corporation") not in ("corporation", "minor"):
        return None
    return entity if any(c.sym == entity for c in state.game.corporations) else None


class GameRules:
    """The rules of a game that routes and replay ask about; every hook's default is the
    18xx.games base rule (see the module docstring). Subclass it per game and
    :func:`register` it under the game's names."""

    #: The game names the rules are for (as :func:`tilelay.games.normalise_name` gives them).
    names: ClassVar[tuple[str, ...]] = ()
    #: Whether the game defines what goods (freight) trains score.
    goods_trains: ClassVar[bool] = False
    #: Whether the game defines what halts are (its trains' rows count them as towns).
    halts: ClassVar[bool] = False
    #: Whether full cities and offboards stop routes passing through (18xx.games' blocking).
    blocking: ClassVar[bool] = True
    #: Whether the game's :meth:`passable` differs from the base rule only at cities with
    #: tokens (then the search asks it of those alone: 18USA's switcher).
    passable_at_tokens: ClassVar[bool] = False
    #: The corporation whose tokens neutral tokens are (1882's CN), if any.
    neutral_owner: ClassVar[str | None] = None
    #: Whether a route may stop only once in a hex (1867's "Route visits same hex twice").
    one_stop_per_hex: ClassVar[bool] = False
    #: Whether the game draws part of its setup, its map's too, when it starts (from a seed
    #: and the number of players: :class:`Start`, :meth:`game_for`).
    seeded: ClassVar[bool] = False
    #: Whether :meth:`route_bonus` never grows when fewer stops score (the search then bounds
    #: an express train's choice of stops by the bonus of them all).
    bonus_monotone: ClassVar[bool] = False

    # ------------------------------------------------------------------ routes

    def train_spec(self, train: TrainType, ctx: RouteContext | None = None) -> TrainSpec:
        """How ``train`` reaches and scores in this game."""
        return train_spec(train, goods=self.goods_trains, halts=self.halts)

    def stop_values(self, ctx: RouteContext, spec: TrainSpec) -> list[int]:
        """What each node earns ``spec`` when scored: the phase's revenue times the class's
        multiplier (junctions 0)."""
        base = ctx.base_values(spec)
        m_city, m_town, m_off = spec.multipliers
        if m_city == m_town == m_off:
            # junctions earn nothing already
            return list(base) if m_city == 1 else [b * m_city for b in base]
        mults = (m_city, m_town, m_off, 0)
        return [b * mults[cls] for b, cls in zip(base, ctx.classes, strict=True)]

    def passable(self, ctx: RouteContext, node: int) -> bool:
        """Whether a route of ``ctx.corporation`` may pass through ``node`` (a stop it may
        still start or end at): not an offboard, nor a city whose slots other corporations
        fill (a neutral token leaves it open)."""
        cls = ctx.classes[node]
        if not self.blocking:
            return True
        if cls == OFFBOARD:
            return False
        if cls != CITY:
            return True
        node_obj = ctx.nodes[node]
        held = ctx.tokens[node]
        if ctx.tokened[node] or NEUTRAL in held:
            return True
        return len(held) < node_obj.slots

    #: Set by subclasses that override a route-level hook (saves building views otherwise).
    route_hooks: ClassVar[bool] = False
    #: Set by subclasses that override :meth:`run_revenue`.
    run_hooks: ClassVar[bool] = False
    #: Set by subclasses whose route and run hooks read a route's stops alone, never its
    #: track (:meth:`rating_track` is then 0).
    stops_rated: ClassVar[bool] = False

    def route_allowed(self, view: RouteView) -> bool:
        """Whether the route, as it runs (``view.stops``: every stop it visits), is legal in
        this game beyond the generic rules (18xx.games' ``check_distance``)."""
        return True

    def scored_allowed(self, view: RouteView) -> bool:
        """Whether the route is legal with the stops it scores (``view.paid``; 18xx.games'
        ``check_other`` and the checks of ``revenue_for``)."""
        return True

    def route_bonus(self, view: RouteView) -> int:
        """What the route earns besides its stops."""
        return 0

    def paid_stops(self, view: RouteView) -> tuple[int, tuple[int, ...]] | None:
        """The revenue and node ids a route scores, when the game chooses them itself
        (``None``: the generic choice of :meth:`TrainSpec.paid`)."""
        return None

    def route_bound(self, ctx: RouteContext, spec: TrainSpec) -> tuple[list[int], int] | None:
        """A bound of what ``spec``'s routes earn in this position: a value per node and a
        constant such that every route's revenue with its bonus is at most its stops' bound
        values (counted as at least 0) plus the constant. The search rates exactly only the
        routes whose bound can still beat the best found, and stops walking where no longer
        route could. ``None``: no bound (every route is rated). The default: the train's
        stop values when the game leaves :meth:`route_bonus` and :meth:`paid_stops` alone,
        else ``None``."""
        cls = type(self)
        if cls.route_bonus is GameRules.route_bonus and cls.paid_stops is GameRules.paid_stops:
            return ctx.values(spec), 0
        return None

    def stops_bound(
        self, ctx: RouteContext, spec: TrainSpec
    ) -> Callable[[Sequence[int], int], int] | None:
        """A closer bound of what ``spec``'s routes earn than :meth:`route_bound`'s, from a
        route's stops (node ids, in order) and its track (an int with bit ``p`` set for
        each graph path ``p`` it uses; the bits above the paths' are the search's): a
        function of them at least the route's revenue with its bonus, when the train may
        run it (what it says of a route the train may not run does not matter). The
        search asks it of a route whose :meth:`route_bound` could beat the best found
        before rating the route exactly, so it pays where it is much cheaper than rating
        (an express train scoring its best stops). ``None``: no such bound (the
        default)."""
        return None

    def rating_track(self, ctx: RouteContext) -> int | None:
        """The track whose use may change what a route earns or whether it may run, as
        :attr:`RouteView.track` bits: routes visiting the same stops in the same order that
        use the same of it earn alike, whichever ways along the rest of the track they take
        (the search then rates them once, and keeps them together as one route with several
        ways: a late board's double track and junctions give a run of stops many). ``0``: a
        route earns by its stops alone; ``None``: by all its track (every way rated on its
        own). The default: 0 where the game leaves the route-level hooks and the rule for
        runs alone, or says its hooks read the stops alone (:attr:`stops_rated`), else
        None."""
        cls = type(self)
        own = cls.route_hooks or cls.run_hooks or cls.hex_distance is not GameRules.hex_distance
        return None if own and not cls.stops_rated else 0

    def train_type(self, game: Game, name: str) -> TrainType | None:
        """A train the game's rules make of another during play, by the name it runs under
        (1822's train with a pullman attached, ``4+``); ``None``: only the game's own trains
        have that name."""
        return None

    def walk_rules(self, ctx: RouteContext) -> WalkRules | None:
        """Rules the search applies as it walks, before any other route hook is asked
        (:class:`~tilelay.route_rules.WalkRules`: ends, passes, hexes entered again, a bound
        for the hexes the track enters); ``None``: none."""
        return None

    def hex_distance(self, view: RouteView) -> int:
        """How far an H-train's route reaches: the hex sides it crosses."""
        return view.crossings()

    def run_revenue(self, views: Sequence[RouteView], total: int) -> int:
        """The revenue of a whole run whose routes (one or more: the search never asks of a
        run of none) earn ``total`` together."""
        return total

    def run_bonus_bound(self, ctx: RouteContext) -> int:
        """The most :meth:`run_revenue` adds to the routes' total in this position."""
        return 0

    def rider_revenue(
        self, ctx: RouteContext, train: str, stops: Sequence[int], hexes: Sequence[str]
    ) -> int | None:
        """What a train that runs no route of its own (``train``: 18EU's pullman) earns at
        the ``hexes`` a record names, beside routes visiting the nodes ``stops``; None where
        the game has no such train, or it earns nothing there. :meth:`run_revenue` rates it
        at its best; a record names the stop the player chose."""
        return None

    def run_applies(self, ctx: RouteContext, trains: int) -> bool:
        """Whether :meth:`run_revenue` may make a run of ``trains`` routes in this position
        earn other than their total (default: whether the game has a rule of its own for
        runs, :attr:`run_hooks`). Where it may not, the search seeks the best routes as
        the generic rules do (a train alone: its best route). A game that narrows this
        narrows it for its variants too: one that changes :meth:`run_revenue` says here
        again where its own rule applies."""
        return type(self).run_hooks

    # ------------------------------------------------------------------ replay

    def game_for(self, game: Game, start: Start) -> Game:
        """The game as ``start`` starts it, where its setup is drawn then (:attr:`seeded`:
        18USA's offboard values, metropolises and the trains in its depot, from the seed and
        the number of players); default: ``game`` itself. Replay plays a record's game so
        (:meth:`Start.of_record`), with the rules of the game made."""
        return game

    def opening_lays(self, game: Game) -> tuple[TileLay, ...]:
        """The tiles the game lays before the first action, on the game as :meth:`game_for`
        made it (18USA's metropolises); default none."""
        return ()

    def setup(self, state: GameState) -> None:
        """What the game does before the first action (e.g. gives minors their trains)."""

    def translate(self, state: GameState, action: Mapping[str, Any]) -> Mapping[str, Any]:
        """The action as the game applies it, where the record says less than the game does
        (default: as recorded; e.g. 1822's minors' first trains, which the record names
        wrongly)."""
        return action

    def extra_slot(self, state: GameState, action: Mapping[str, Any]) -> bool:
        """Whether a ``place_token`` may take a slot beyond the city's (a token the game adds
        a slot for: 1822's pending tokens in London)."""
        return False

    def before_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        """What the game does just before an action is applied."""

    def after_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        """What the game does after an action is applied."""

    def event(self, state: GameState, kind: str, action: Mapping[str, Any]) -> None:
        """What a train's event (18xx.games' train ``events``, fired when the train is first
        bought) does, e.g. 18TN's ``civil_war``."""

    def home_tokens(self, state: GameState, entity: str) -> bool:
        """Whether replay places ``entity``'s home token when it first acts (default: yes)."""
        return True

    def lay_filter(
        self, board: Board, corporation: str, coord: str
    ) -> Callable[[Tile], bool] | None:
        """The game's own test of a tile ``corporation`` lays at ``coord`` (rotated as laid)
        beyond the board's rules, where it has one: 1849's ``legal_tile_rotation?`` (track
        meeting the corporation's track at the edges it reaches must be of its gauge). The
        engine asks it whether or not connectivity is checked. None (the default): no test."""
        return None

    def extra_lays(
        self, board: Board, corporation: str, coord: str, phase: Phase | None, facts: RunFacts
    ) -> dict[str, tuple[int, ...]]:
        """The tiles (with their rotations) ``corporation`` may lay at ``coord`` beyond what
        the board's rules allow: by what the companies it holds do in the game's track step
        (``facts``: who holds which company, and the game's own bookkeeping of their
        abilities: 18USA's resource tiles, laid with an ore, coal or oil company's ability,
        and a colour more on a hex without a city with P11), or in a step of the game's own
        (18 India's home track: a green city on the town where a corporation starts). None
        (the default)."""
        return {}


_RULES: dict[str, type[GameRules]] = {}


def register(cls: type[GameRules]) -> type[GameRules]:
    """Register a :class:`GameRules` subclass under its :attr:`GameRules.names` (decorator)."""
    for name in cls.names:
        _RULES[normalise_name(name)] = cls
    return cls


_FOR_GAME: dict[Game, GameRules] = {}
#: How many games' rules are kept (a game made for a record's players or seed is a game of
#: its own: without a bound, a server replaying records would keep every one).
_FOR_GAME_KEPT = 512


def corporation_lays(
    board: Board,
    corporation: str,
    coord: str,
    legal: Mapping[str, tuple[int, ...]],
    *,
    phase: Phase | None = None,
    facts: RunFacts | None = None,
) -> dict[str, tuple[int, ...]]:
    """``legal`` (tile -> rotations the board allows at ``coord``), with what the game lets
    ``corporation`` lay there too (where ``facts`` say which companies it holds:
    :meth:`GameRules.extra_lays`, in ``phase``), less what the game's own test of its lays
    there refuses (:meth:`GameRules.lay_filter`; a company or a name the game has no
    corporation of: as they are)."""
    if not any(c.sym == corporation for c in board.game.corporations):
        return dict(legal)
    rules = rules_for(board.game)
    if facts is not None:
        more = rules.extra_lays(board, corporation, coord, phase, facts)
        if more:
            legal = {
                name: tuple(sorted({*legal.get(name, ()), *more.get(name, ())}))
                for name in {**legal, **more}
            }
    test = rules.lay_filter(board, corporation, coord)
    if test is None:
        return dict(legal)
    out: dict[str, tuple[int, ...]] = {}
    for name, rotations in legal.items():
        tile = board.game.tile(name)
        kept = tuple(r for r in rotations if test(tile.rotated(r)))
        if kept:
            out[name] = kept
    return out


def rules_for(game: Game) -> GameRules:
    """The rules of ``game``: those its data names (``route_rules``: ``base`` for the
    18xx.games base rules, else a game's name), else those registered under its name, title
    or aliases, else the base rules (one instance per game: rules keep no state). Raises
    :class:`~tilelay.errors.NotFoundError` for a ``route_rules`` no rules answer to."""
    found = _FOR_GAME.get(game)
    if found is not None:
        return found
    _load_all()
    found = GameRules()
    if game.route_rules is not None:
        if normalise_name(game.route_rules) != "base":
            make = _RULES.get(normalise_name(game.route_rules))
            if make is None:
                raise NotFoundError(
                    f"game {game.name}: no route rules {game.route_rules!r}",
                    suggestions=["base", *sorted({c.names[0] for c in _RULES.values()})],
                )
            found = make()
    else:
        for name in (game.name, game.title, *game.aliases):
            make = _RULES.get(normalise_name(name))
            if make is not None:
                found = make()
                break
    if len(_FOR_GAME) >= _FOR_GAME_KEPT:
        _FOR_GAME.clear()  # (rules keep no state: made again when asked)
    _FOR_GAME[game] = found
    return found


_LOADED: list[bool] = []


def _load_all() -> None:
    if _LOADED:
        return
    _LOADED.append(True)
    import importlib
    import pkgutil

    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("g"):
            importlib.import_module(f"{__name__}.{info.name}")

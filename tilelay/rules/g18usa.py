"""18USA: a setup drawn from the record's seed, metropolises, resources, company towns,
subsidies, train upgrades and the limit on Mexico (18xx.games' ``G18USA::Game``, which
builds on 1817: see :mod:`tilelay.rules.g1817` for mergers, acquisitions, liquidation and
bridges).

**Setup.** The engine draws the game's setup from the record's seed with its own linear
congruential generator (:class:`EngineRandom`; 18xx.games' ``Game::Base#rand``): each draw
is shuffled by giving every item a draw and sorting by them. In order:

* the values of the twelve red hexes (:data:`OFFBOARD_VALUES` shuffled; each red hex takes
  the row of its place, :data:`RED_HEXES`);
* the private companies that leave the game: of each value, all but a number kept
  (:data:`KEPT`), P1 to P4 always in (and P10 with five players or more);
* three metropolises of the six potential ones (:data:`METROPOLISES`), whose yellow tiles the
  game lays at once (New York is one always);
* the subsidies of the subsidised hexes (:data:`SUBSIDIES` shuffled, the first ones to
  :data:`SUBSIDISED_HEXES` in order).

With fewer than five players one 2+, 4, 5 and 6 leave the depot. Under the optional rule
``seventeen_trains`` the depot is 1817's trains and 20 pullmans instead (whatever the number
of players), without 18USA's phases 3+ and 4+, and trains are exported as in 1817.
:meth:`G18USA.game_for` makes the game of a record so (the red hexes, the depot) and
:meth:`G18USA.setup` lays the metropolises.

**Replay.** A corporation's first token (its home, placed in the first stock round) takes
the subsidy of its hex: +10 (S10) or +10, +20 from phase 5 (S11) for every route stopping in
the hex from then on; the others give money or track, which the record shows. The private
companies a player puts into a corporation they start (``assign`` of a company) become the
corporation's. A company town tile (X20-X22) comes with a neutral token in its city, and a
token of the owner of P27, which laid it (unless it has eight tokens already). P8 (``assign``
to a red hex) marks that offboard (all of Mexico for a Mexican hex). At the end
of operating round 1.1 the depot's 2s are exported, at 1.2 its 2+s (and phase 3 begins if
it has not), at 2.1 none, at 2.2 its 3s, then one train per round.

**Train upgrades.** Before a run a corporation may attach (``choose`` ``T-U``: train ``T`` of
its trains that run, upgrade ``U`` of those it may attach) a switcher (P19: ``3/1``), an
extender (P30: one more stop, ``2+1``; only to trains that rust or become obsolete) or its
pullman (``5P``: 20 more for every stop but a rural junction) to a train, for that run (one
train may take several: ``2/1+1P``).

**The switcher** (``G18USA::Game#compute_stops``, ``#skipped_stop``, ``#check_connected``): the
train may visit one stop more (its distance raised by one, as the extender's), and skips one
of the stops it visits, which it does not score:

* a route of two stops skips none;
* a route passing through a city that blocks the corporation (one other corporations' tokens
  fill) skips that city: the switcher's train may pass through one such city (no other train
  may; nor this one through two);
* else it skips none unless it visits as many stops using its reach as its raised distance
  (a rural junction uses none); then it skips the one whose leaving out earns most (the
  first such in the route's order), never the only stop with the corporation's token;
* what a route earns besides its stops (below) is that of the stops it scores.

Routes may pass a blocked city only in a search for a corporation that may run the
switcher's train: where the facts list its trains (:class:`RunFacts`; replay's, the switcher
attached before the run), one of them has it; else it owns the switcher's company. A
switcher's train asked of another search is refused (:class:`UnsupportedTrain`). Where the
corporation owns the Great Northern too, the engine counts the route's bonus of it in
choosing the skip where the route earns it in the run (no route before it earns as much, none
after more: the run's routes in the order of its trains), which the run's revenue follows.

**Routes** (``G18USA::Game#revenue_for``, ``#check_distance``):

* a route earns, besides the stops it scores, 10 for each coal, 10 for each ore (20 on an
  ore-20 tile) and 10 for each oil (20 from phase 5) of the resource tiles its track passes
  (not its scored stops' hexes), and may pass a resource tile once only;
* a rural junction (X07-X09) is a stop of 10 that uses none of the train's reach, and no
  route begins or ends there;
* a route stopping at a company town (X20-X22) where the corporation has no token earns 10
  less;
* a route stopping in a hex with a subsidy's +10 earns 10 more, and one with P8's mark 10 more
  for P8's owner;
* the Great Northern (P17) pays its owner's route with the best of B2, B8, B14 and D20 (60)
  or B8 and B14 (30) that bonus once a run;
* no more than two routes of a run may stop in Mexico.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, TypeVar

from tilelay.actions import TileLay
from tilelay.board import NEUTRAL, Board
from tilelay.dsl import parse
from tilelay.errors import NotFoundError
from tilelay.games import Game
from tilelay.hexgeo import neighbour_edge
from tilelay.route_rules import CITY, TrainSpec, UnsupportedTrain, WalkRules
from tilelay.rules import (
    GameRules,
    GameState,
    RouteContext,
    RouteView,
    RunFacts,
    Start,
    register,
)
from tilelay.rules.g1817 import BRIDGE, G1817
from tilelay.tile import Color, Tile
from tilelay.trains import Phase, TrainManager, TrainType

__all__ = ["G18USA", "EngineRandom", "Setup", "draw_setup", "red_tile", "setup_of"]

_T = TypeVar("_T")

#: The rows of red hex values (yellow, green, brown, gray), shuffled at setup.
OFFBOARD_VALUES: tuple[tuple[int, int, int, int], ...] = (
    (20, 30, 40, 50),
    (20, 30, 40, 60),
    (20, 30, 50, 60),
    (20, 30, 50, 60),
    (20, 30, 60, 90),
    (20, 40, 50, 80),
    (30, 40, 40, 50),
    (30, 40, 50, 60),
    (30, 50, 60, 80),
    (30, 50, 60, 80),
    (40, 50, 40, 40),
)

#: The Mexican offboards (one area: ``groups:Mexico``).
MEXICO: tuple[str, ...] = ("I5", "I7", "I9", "I11", "J12", "K13")

#: The red hexes: coord -> (the node, the row of the shuffled values it takes, its exits,
#: the edges with a plain border).
RED_HEXES: dict[str, tuple[str, int, tuple[int, ...], tuple[int, ...]]] = {
    "A15": ("town", 3, (0, 5), ()),
    "A27": ("offboard", 0, (5, 0), ()),
    "B2": ("town", 4, (4, 5), ()),
    "E1": ("town", 6, (4, 5, 3), ()),
    "I5": ("offboard", 2, (2, 3), (4,)),
    "I7": ("offboard", 2, (2, 3), (4, 1)),
    "I9": ("offboard", 2, (2, 3), (4, 1)),
    "I11": ("offboard", 2, (2, 3, 4), (1, 5)),
    "J12": ("offboard", 2, (3, 4), (2, 5)),
    "J20": ("offboard", 1, (2,), ()),
    "J24": ("town", 5, (2, 3), ()),
    "K13": ("offboard", 2, (3,), (2,)),
}

#: Of each value, how many of the private companies that may leave the game stay.
KEPT: dict[int, int] = {30: 1, 40: 2, 60: 3, 80: 2, 90: 2, 120: 1}
#: The private companies always in the game (and P10 with five players or more).
ALWAYS_IN: tuple[str, ...] = ("P1", "P2", "P3", "P4")

#: The potential metropolises, in the engine's order of drawing: hex -> (tile, rotation).
METROPOLISES: dict[str, tuple[str, int]] = {
    "G3": ("X05", 3),
    "E11": ("X04s", 0),
    "H14": ("X03", 0),
    "H22": ("X01", 0),
    "I19": ("X06", 0),
    "D20": ("X02", 1),
}
#: How many of them become metropolises.
METROPOLIS_COUNT = 3

#: The subsidies, in the engine's order (S10: +10, S11: +10/+20 in the home hex).
SUBSIDIES: tuple[str, ...] = tuple(f"S{i}" for i in range(1, 17))
#: The hexes that take a subsidy, in order.
SUBSIDISED_HEXES: tuple[str, ...] = (
    *("B8", "B14", "C3", "D6", "D14", "E3", "E7"),
    *("E23", "G7", "G11", "G27", "H8", "I13", "I25"),
)
#: The subsidies that add to the revenue of routes stopping in their hex.
PLUS_TEN, PLUS_TEN_TWENTY = "S10", "S11"

#: The trains one of which leaves the depot with fewer than five players.
SHORT_ROSTER: tuple[str, ...] = ("2+", "4", "5", "6")

RURAL_TILES = frozenset({"X07", "X08", "X09"})
COMPANY_TOWN_TILES = frozenset({"X20", "X21", "X22"})
ORE20_TILES = frozenset({"7ore20", "8ore20", "9ore20", "7coalore20", "8coalore20", "9coalore20"})
#: The labels of the resources on tiles.
COAL, ORE, OIL = "⛏️", "⚒️", "🛢️"
#: The icon of each resource on a white hex (by its label): 18xx.games' ``RESOURCE_ICONS``.
RESOURCE_ICONS = {COAL: "coalcar", ORE: "mine", OIL: "oil-derrick"}
#: The colour a corporation holding P11 may lay beyond the phase's on a hex without a city
#: (18xx.games' ``P11Track#potential_tile_colors``), by the phase's latest colour.
_BEYOND = {"yellow": "green", "green": "brown", "brown": "gray"}

#: The upgrades a corporation may attach to a train for one run: (name suffix, company).
EXTENDER, SWITCHER, PULLMAN = "+1", "/1", "P"

#: The Great Northern's bonuses: the hexes a route must stop in, and what it earns.
GNR_BONUSES: tuple[tuple[frozenset[str], int], ...] = (
    (frozenset({"B2", "B8", "B14", "D20"}), 60),
    (frozenset({"B8", "B14"}), 30),
)

_RAND_A = 1_103_515_245
_RAND_C = 12_345
_RAND_M = 2**31


class EngineRandom:
    """18xx.games' random numbers (``Game::Base#rand``): a linear congruential generator
    started at the seed, each draw ``(a * last + c) mod 2**31``."""

    def __init__(self, seed: int) -> None:
        self.state = seed % _RAND_M

    def draw(self) -> int:
        """The next number."""
        self.state = (_RAND_A * self.state + _RAND_C) % _RAND_M
        return self.state

    def shuffled(self, items: Sequence[_T]) -> list[_T]:
        """``items`` ordered by a draw each (Ruby's ``sort_by { rand }``; draws never tie
        within a period of the generator)."""
        keys = [self.draw() for _ in items]
        return [item for _, item in sorted(zip(keys, items, strict=True), key=lambda p: p[0])]


@dataclass(frozen=True, slots=True)
class Setup:
    """What the engine draws for a game of 18USA (see the module docstring)."""

    seed: int
    players: int
    #: red hex -> its revenue in yellow, green, brown and gray phases
    red_values: Mapping[str, tuple[int, int, int, int]]
    #: the private companies that leave the game
    removed: frozenset[str]
    #: the potential metropolises that become metropolises
    metropolises: tuple[str, ...]
    #: hex -> the subsidy on it
    subsidies: Mapping[str, str]


def draw_setup(seed: int, players: int, companies: Sequence[tuple[str, int]]) -> Setup:
    """The setup the engine draws for ``seed`` and ``players`` players, given the game's
    private companies as ``(sym, value)`` in the game's order."""
    rand = EngineRandom(seed)
    rows = rand.shuffled(OFFBOARD_VALUES)
    red_values = {coord: rows[row] for coord, (_, row, _, _) in RED_HEXES.items()}
    always = set(ALWAYS_IN) | ({"P10"} if players >= 5 else set())
    by_value: dict[int, list[str]] = {}
    for sym, value in companies:
        if sym not in always:
            by_value.setdefault(value, []).append(sym)
    removed: set[str] = set()
    for value, group in by_value.items():
        order = rand.shuffled(group)
        removed.update(order[: len(group) - KEPT.get(value, len(group))])
    metros = tuple(rand.shuffled(list(METROPOLISES))[:METROPOLIS_COUNT])
    subsidies = rand.shuffled(SUBSIDIES)
    return Setup(
        seed,
        players,
        red_values,
        frozenset(removed),
        metros,
        dict(zip(SUBSIDISED_HEXES, subsidies, strict=False)),
    )


def red_tile(coord: str, values: tuple[int, int, int, int], name: str | None) -> Tile:
    """The red hex ``coord`` with the revenues ``values``."""
    kind, _, exits, borders = RED_HEXES[coord]
    revenue = "|".join(
        f"{c}_{v}" for c, v in zip(("yellow", "green", "brown", "gray"), values, strict=True)
    )
    node = f"{kind}=revenue:{revenue}"
    if coord in MEXICO:
        node += ",groups:Mexico" + (",hide:1" if coord != "I11" else "")
    parts = [node, *(f"path=a:{e},b:_0" for e in exits), *(f"border=edge:{e}" for e in borders)]
    tile = parse(";".join(parts), name=coord, color=Color.RED)
    return replace(tile, location_name=name)


#: The games made for setups: (the game's id, seed, players, the 1817 trains option) ->
#: (the game, the game made, its setup).
_GAMES: dict[tuple[int, int, int, bool], tuple[Game, Game, Setup]] = {}
#: The setup of each game made (by the game's identity).
_SETUPS: dict[int, tuple[Game, Setup]] = {}


def setup_of(game: Game) -> Setup | None:
    """The setup a game of 18USA was made with (:meth:`G18USA.game_for`), if any."""
    found = _SETUPS.get(id(game))
    return found[1] if found is not None and found[0] is game else None


@functools.cache
def _train_name(name: str) -> tuple[str, bool, frozenset[str]]:
    """A train's name split: its base name, whether a pullman is attached, and the other
    upgrades attached (:data:`SWITCHER`, :data:`EXTENDER`: one train may take both)."""
    pullman = name.endswith(PULLMAN) and name != PULLMAN
    rest = name[: -len(PULLMAN)] if pullman else name
    upgrades: set[str] = set()
    found = True
    while found:
        found = False
        for upgrade in (EXTENDER, SWITCHER):
            if upgrade not in upgrades and rest.endswith(upgrade) and len(rest) > len(upgrade):
                rest = rest[: -len(upgrade)]
                upgrades.add(upgrade)
                found = True
    return rest, pullman, frozenset(upgrades)


def _upgraded(base: str, pullman: bool, upgrades: frozenset[str]) -> str:
    """A train's name with upgrades attached (in one order: ``3/1+1P``)."""
    others = "".join(u for u in (SWITCHER, EXTENDER) if u in upgrades)
    return base + others + (PULLMAN if pullman else "")


@register
class G18USA(G1817):
    """The rules of 18USA that routes and replay ask about."""

    names = ("18USA",)
    seeded = True
    run_hooks = True
    # (passable differs from the base rule at blocked cities alone, which have tokens)
    passable_at_tokens = True
    mine_companies: ClassVar[frozenset[str]] = frozenset()
    ranch_companies: ClassVar[frozenset[str]] = frozenset()
    bridge_companies: ClassVar[frozenset[str]] = frozenset({"P2", "P21", "P22"})
    steel_mill: ClassVar[str] = ""
    #: the companies of the upgrades (the pullman is a train, ``P``)
    extender_company: ClassVar[str] = "P30"
    switcher_company: ClassVar[str] = "P19"
    p8_company: ClassVar[str] = "P8"
    company_town_company: ClassVar[str] = "P27"
    p11_company: ClassVar[str] = "P11"
    gnr_company: ClassVar[str] = "P17"

    # ------------------------------------------------------------------ setup

    def game_for(self, game: Game, start: Start) -> Game:
        if setup_of(game) is not None:
            return game
        seed = start.seed
        count = start.players
        if seed is None or not count:
            return game
        seventeen = "seventeen_trains" in start.options
        key = (id(game), seed, count, seventeen)
        found = _GAMES.get(key)
        if found is not None and found[0] is game:
            return found[1]
        setup = draw_setup(seed, count, [(c.sym, c.value) for c in game.companies])
        hexes = dict(game.hexes)
        for coord, values in setup.red_values.items():
            hexes[coord] = red_tile(coord, values, game.location_names.get(coord))
        train_data = game.train_data
        phase_data = game.phase_data
        trains = game.trains
        if seventeen:
            train_data, phase_data, trains = _seventeen_trains(game)
        elif count < 5:
            short = set(SHORT_ROSTER)
            train_data = tuple(
                {**t, "num": t["num"] - 1}
                if t.get("name") in short and isinstance(t.get("num"), int)
                else t
                for t in train_data
            )
            trains = replace(
                trains,
                card_types=tuple(
                    replace(c, quantity=c.quantity - 1) if c.name in short and c.quantity > 0 else c
                    for c in trains.card_types
                ),
            )
        variant = replace(
            game, hexes=hexes, train_data=train_data, phase_data=phase_data, trains=trains
        )
        if len(_GAMES) > 32:
            _GAMES.clear()
            _SETUPS.clear()
        _GAMES[key] = (game, variant, setup)
        _SETUPS[id(variant)] = (variant, setup)
        return variant

    def opening_lays(self, game: Game) -> tuple[TileLay, ...]:
        setup = setup_of(game)
        if setup is None:
            return ()
        return tuple(TileLay(coord, *METROPOLISES[coord]) for coord in setup.metropolises)

    def setup(self, state: GameState) -> None:
        setup = setup_of(state.game)
        if setup is None:
            return
        for lay in self.opening_lays(state.game):
            state.game_lays(lay.coord, f"{lay.tile}-0", lay.rotation)
        state.extra["usa.subsidies"] = tuple(sorted(setup.subsidies.items()))

    # ------------------------------------------------------------------ replay

    def before_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        extra = state.extra
        kind = action.get("type")
        started = action.get("corporation")
        if action.get("entity_type") == "player" and kind == "bid" and isinstance(started, str):
            extra["usa.starting"] = started
        super().before_action(state, action)
        if extra.get("operating") and extra.get("usa.subsidies"):
            # the first stock round is over: the unused subsidies leave the map
            extra["usa.subsidies"] = ()

    def export(self, state: GameState, action: Mapping[str, Any]) -> None:
        """The end of an operating round exports trains: all 2s after 1.1, all 2+s after 1.2
        (phase 3 begins then if it has not), none after 2.1, all 3s after 2.2, then the
        depot's next train."""
        if "seventeen_trains" in state.optional_rules:
            super().export(state, action)
            return
        extra = state.extra
        done = extra.get("usa.rounds", 0)
        extra["usa.rounds"] = done + 1
        if done == 2:
            return
        every = {0: "2", 1: "2+", 3: "3"}.get(done)
        if every is None:
            state.export_train(action)
            return
        while (nxt := state.next_in_depot()) is not None and nxt.rpartition("-")[0] == every:
            state.export_train(action)
        if done == 1 and "green" not in state.phase.tiles:
            phases = state.game.trains.phases
            names = [p.name for p in phases]
            if state.phase.name in names and names.index(state.phase.name) + 1 < len(phases):
                state.phase = phases[names.index(state.phase.name) + 1]

    def after_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        super().after_action(state, action)
        kind = action.get("type")
        entity = action.get("entity")
        extra = state.extra
        if kind == "run_routes":
            self.detach_upgrades(state)
        elif kind == "place_token" and isinstance(entity, str):
            self.take_subsidy(state, entity)
        elif kind == "lay_tile":
            coord = action.get("hex")
            if isinstance(coord, str) and state.board.tile_at(coord).name in COMPANY_TOWN_TILES:
                self.company_town(state, coord)
            elif isinstance(coord, str) and isinstance(entity, str):
                self.use_resource_abilities(state, entity, coord)
        elif kind == "assign":
            target = action.get("target")
            if not isinstance(target, str):
                return
            if action.get("entity_type") == "player" and action.get("target_type") == "company":
                corp = extra.get("usa.starting")
                if isinstance(corp, str):
                    state.companies[target] = corp
            elif entity == self.p8_company:
                extra["usa.p8"] = MEXICO if target in MEXICO else (target,)
        elif kind == "choose" and action.get("entity_type", "corporation") == "corporation":
            choice = action.get("choice")
            if isinstance(entity, str) and isinstance(choice, str):
                self.attach_upgrade(state, action, entity, choice)

    def use_resource_abilities(self, state: GameState, corp: str, coord: str) -> None:
        """A resource tile laid on a white hex uses the abilities that allowed it (one a
        resource: :func:`_assigned`); a company whose ability is used up closes
        (18xx.games' ``consume_abilities_to_lay_resource_tile``)."""
        tile = state.board.tile_at(coord)
        needs = _tile_resources(tile)
        printed = state.game.hex_tile(coord)
        if not needs or tile.name in ORE20_TILES or printed.color is not Color.WHITE:
            return
        held = [c for c, owner in state.companies.items() if owner == corp]
        abilities = _resource_abilities(state.game, held, coord, state.extra)
        used = dict(state.extra.get("usa.ability_uses", ()))
        for ability in (_assigned(needs, abilities) or {}).values():
            key = (ability.company, ability.index)
            used[key] = used.get(key, 0) + 1
            if ability.closes and used[key] >= (ability.count or 0):
                state.companies.pop(ability.company, None)
        state.extra["usa.ability_uses"] = tuple(sorted(used.items()))

    def extra_lays(
        self, board: Board, corporation: str, coord: str, phase: Phase | None, facts: RunFacts
    ) -> dict[str, tuple[int, ...]]:
        """A yellow resource tile on a white hex with those resources, where the companies
        the corporation holds have an unused ability for each of its resources there (one
        each: :func:`_assigned`), in the rotations a plain yellow tile could take
        (18xx.games' ``upgrades_to?``, ``can_lay_resource_tile?``); with P11, on a hex
        without a city, the tiles of a colour beyond the phase's (``P11Track``)."""
        held = facts.owned_by(corporation)
        if not held:
            return {}
        game = board.game
        here = board.tile_at(coord)
        out: dict[str, tuple[int, ...]] = {}
        if here.color is Color.WHITE:
            images = {i.image.rsplit("/", 1)[-1] for i in here.icons}
            resources = frozenset(r for r, icon in RESOURCE_ICONS.items() if icon in images)
            abilities = _resource_abilities(game, held, coord, facts.extra) if resources else []
            for name in game.manifest if abilities else ():
                tile = game.tile(name)
                needs = _tile_resources(tile)
                if (
                    tile.color is not Color.YELLOW
                    or name in ORE20_TILES
                    or not needs
                    or not needs <= resources
                    or _assigned(needs, abilities) is None
                ):
                    continue
                rotations = board.legal_rotations(coord, replace(tile, labels=()), phase=phase)
                if rotations:
                    out[name] = rotations
        if self.p11_company in held and not here.cities and phase is not None:
            latest = next((c for c in ("brown", "green", "yellow") if c in phase.tiles), None)
            beyond = _BEYOND.get(latest or "yellow")
            if beyond is not None:
                more = board.legal_lays(coord, phase=phase, also=(beyond,))
                out.update((n, r) for n, r in more.items() if game.tile(n).color.value == beyond)
        return out

    def lay_filter(
        self, board: Board, corporation: str, coord: str
    ) -> Callable[[Tile], bool] | None:
        """A resource tile laid on a white hex (by a company's ability) must have an exit
        towards a neighbour with a city, a town or an offboard that has track facing back,
        or may be upgraded to some tile (18xx.games' ``ResourceTrack#legal_tile_rotation?``);
        every other tile as the board has it."""
        if board.tile_at(coord).color is not Color.WHITE:
            return None
        toward: dict[int, bool] = {}

        def reaches(edge: int) -> bool:
            found = toward.get(edge)
            if found is None:
                found = toward[edge] = _stop_towards(board, coord, edge)
            return found

        def test(tile: Tile) -> bool:
            if tile.color is not Color.YELLOW or tile.name in ORE20_TILES:
                return True
            if not _tile_resources(tile):
                return True
            return any(reaches(e) for e in tile.exits())

        return test

    def company_town(self, state: GameState, coord: str) -> None:
        """A company town laid at ``coord``: the neutral token it comes with, and a token of
        the company town company's owner (unless it has eight tokens on the board already:
        the engine counts all it holds, placed or not); the company closes."""
        board = state.board
        if NEUTRAL not in board.tokens.get((coord, 0), ()):
            board = board.place_token(coord, 0, NEUTRAL, extra_slot=True)
        owner = state.companies.pop(self.company_town_company, None)
        corps = {c.sym for c in state.game.corporations}
        if owner in corps and len(board.tokens_of(owner)) < 8:
            board = board.place_token(coord, 0, owner, extra_slot=True)
        state.board = board

    def take_subsidy(self, state: GameState, corp: str) -> None:
        """A corporation's first token takes its hex's subsidy (in the first stock round)."""
        extra = state.extra
        subsidies = dict(extra.get("usa.subsidies", ()))
        tokens = state.board.tokens_of(corp)
        if not subsidies or len(tokens) != 1:
            return
        coord = tokens[0][0]
        subsidy = subsidies.pop(coord, None)
        extra["usa.subsidies"] = tuple(sorted(subsidies.items()))
        if subsidy in (PLUS_TEN, PLUS_TEN_TWENTY):
            extra["usa.icons"] = (*extra.get("usa.icons", ()), (coord, subsidy))

    def upgrade_choices(self, state: GameState, corp: str) -> list[str]:
        """The upgrades ``corp`` may attach now, in the engine's order."""
        attached = {u for _, _, _, u in state.extra.get("usa.attached", ())}
        out: list[str] = []
        if state.companies.get(self.switcher_company) == corp:
            out.append(SWITCHER)
        if state.companies.get(self.extender_company) == corp:
            out.append(EXTENDER)
        if PULLMAN in state.trains.get(corp, {}).values():
            out.append(PULLMAN)
        return [u for u in out if u not in attached]

    def attach_upgrade(
        self, state: GameState, action: Mapping[str, Any], corp: str, choice: str
    ) -> None:
        """``choose`` ``T-U``: upgrade ``U`` attached to train ``T`` for the run."""
        train_text, _, upgrade_text = choice.partition("-")
        if not (train_text.isascii() and train_text.isdigit()):
            return
        if not (upgrade_text.isascii() and upgrade_text.isdigit()):
            return
        upgrades = self.upgrade_choices(state, corp)
        if int(upgrade_text) >= len(upgrades):
            raise state.fail(action, f"{corp} has no upgrade {upgrade_text} to attach")
        upgrade = upgrades[int(upgrade_text)]
        held = state.trains.get(corp, {})
        rusting = _rusting(state.game)
        trains = [
            t
            for t, name in held.items()
            if state.operated.get(t, corp) == corp  # not one run for another this round
            and name != PULLMAN
            and (upgrade != EXTENDER or _train_name(name)[0] in rusting)
        ]
        if int(train_text) >= len(trains):
            raise state.fail(action, f"{corp} has no train {train_text} to attach {upgrade} to")
        train = trains[int(train_text)]
        before = held[train]
        base, pullman, others = _train_name(before)
        if upgrade == PULLMAN:
            held[train] = _upgraded(base, True, others)
        else:
            held[train] = _upgraded(base, pullman, others | {upgrade})
        attached = state.extra.get("usa.attached", ())
        if not any(t == train for _, t, _, _ in attached):
            attached = (*attached, (corp, train, before, upgrade))
        else:
            attached = (*attached, (corp, train, None, upgrade))
        state.extra["usa.attached"] = attached

    def detach_upgrades(self, state: GameState) -> None:
        """After a run the upgrades come off the trains."""
        for corp, train, before, _ in state.extra.pop("usa.attached", ()):
            held = state.trains.get(corp, {})
            if before is not None and train in held:
                held[train] = before

    # ------------------------------------------------------------------ routes

    def train_type(self, game: Game, name: str) -> TrainType | None:
        """A train with a switcher or an extender attached (``3/1``, ``2+1``: one stop more
        each) or a pullman (``5P``)."""
        base_name, pullman, others = _train_name(name)
        if not others and not pullman:
            return None
        try:
            base = game.trains.train_type(base_name)
        except NotFoundError:  # not one of the game's trains
            return None
        if not base.runs:
            return None
        stops = base.major_stops + len(others)
        return replace(base, name=name, major_stops=stops)

    def train_spec(self, train: TrainType, ctx: RouteContext | None = None) -> TrainSpec:
        spec = super().train_spec(train, ctx)
        if ctx is not None and _switcher(spec) and not self._switching(ctx):
            raise UnsupportedTrain(
                f"train {train.name} has the switcher attached, and {ctx.corporation} may not "
                f"run it here (the facts of the run list no train of its with the switcher "
                f"attached, or, where they list none of its trains, no {self.switcher_company} "
                "of its)"
            )
        return spec

    def _switching(self, ctx: RouteContext) -> bool:
        """Whether ``ctx.corporation`` may run a train with the switcher attached (then its
        routes may pass one blocked city: :meth:`passable`): where the facts list the
        trains it holds (as replay's do, the switcher attached before the run), one of them
        has it; else it owns the switcher's company. (A search of its other runs then
        passes no blocked city: the owner's runs without the switcher cost no more.)"""
        facts = ctx.facts
        corp = ctx.corporation
        held = facts.trains.get(corp)
        if held is not None:
            return any(SWITCHER in _train_name(t)[2] for t in held)
        return facts.companies.get(self.switcher_company) == corp

    def _blocked(self, ctx: RouteContext) -> frozenset[int]:
        """The cities that block ``ctx.corporation`` (other corporations' tokens fill them)
        when it may run a switcher's train, which may pass through one of them; else none
        (no route passes them). Per search."""
        found = ctx.memo.get("usa.blocked")
        if isinstance(found, frozenset):
            return found
        blocked: frozenset[int] = frozenset()
        if self._switching(ctx):
            base = GameRules.passable
            blocked = frozenset(
                n for n, k in enumerate(ctx.classes) if k == CITY and not base(self, ctx, n)
            )
        ctx.memo["usa.blocked"] = blocked
        return blocked

    def passable(self, ctx: RouteContext, node: int) -> bool:
        # a blocked city, where a switcher's train may run (once a route: walk_rules; for
        # that train only: route_allowed)
        return GameRules.passable(self, ctx, node) or node in self._blocked(ctx)

    def walk_rules(self, ctx: RouteContext) -> WalkRules:
        # no route begins or ends at a rural junction; a resource tile's goods bounded as the
        # track enters it; no route passes through two blocked cities
        rural = frozenset(
            n for n, coord in enumerate(ctx.coords) if ctx.tiles[coord].name in RURAL_TILES
        )
        return WalkRules(
            no_ends=rural, pass_once=self._blocked(ctx), hex_bound=self._resources(ctx)
        )

    def _resources(self, ctx: RouteContext) -> dict[str, int]:
        """What passing each resource hex earns (hex -> revenue), per search."""
        found = ctx.memo.get("usa.resources")
        if isinstance(found, dict):
            return found
        late = "brown" in ctx.phase.tiles
        out: dict[str, int] = {}
        for coord, tile in ctx.board.laid.items():
            if tile.color is Color.WHITE:
                continue
            label = "".join(lbl.text for lbl in tile.labels)
            value = 0
            if COAL in label:
                value += 10
            if ORE in label:
                value += 20 if tile.name in ORE20_TILES else 10
            if OIL in label:
                value += 20 if late else 10
            if value:
                out[coord] = value
        ctx.memo["usa.resources"] = out
        return out

    def route_allowed(self, view: RouteView) -> bool:
        if self._passed_blocked(view) is not None and not _switcher(view.spec):
            return False  # only the switcher's train passes through a blocked city
        facts = self._stop_facts(view.ctx)
        if not facts.twice:
            return True  # no resource tile may be passed twice on a walk (see _StopFacts)
        at = facts.end_resource
        passed: list[str] = []
        last: str | None = None
        for e in view.ends:
            h = at[e]
            if h is not None and h != last:
                passed.append(h)
            last = h
        return len(passed) == len(set(passed))

    def _stop_facts(self, ctx: RouteContext) -> _StopFacts:
        """What the route rules need of each node, per search."""
        found = ctx.memo.get("usa.stops")
        if isinstance(found, _StopFacts):
            return found
        facts = _StopFacts(self, ctx)
        ctx.memo["usa.stops"] = facts
        return facts

    def paid_stops(self, view: RouteView) -> tuple[int, tuple[int, ...]] | None:
        # the switcher's train skips a stop (the engine's skipped_stop); others score all
        if not _switcher(view.spec):
            return None
        values = view.ctx.values(view.spec)
        return _scored(view.stops, self._skipped(view, values), values)

    def _passed_blocked(self, view: RouteView) -> int | None:
        """The city blocking the corporation that the route passes through, if any (the
        first: a walk passes one at most)."""
        blocked = self._blocked(view.ctx)
        if blocked:
            for n in view.stops[1:-1]:
                if n in blocked:
                    return n
        return None

    def _skipped(
        self, view: RouteView, values: Sequence[int], rivals: tuple[int, int] = (-1, -1)
    ) -> int | None:
        """The stop a switcher's route skips, if any (see the module docstring). Where the
        corporation owns the Great Northern, a skip's bonus of it counts when the route would
        earn it in the run: ``rivals`` are the most of it the run's routes before and after
        this one earn (the engine gives it to the first route earning most; none: the
        route's alone)."""
        stops = view.stops
        if len(stops) <= 2:
            return None
        passed = self._passed_blocked(view)
        if passed is not None:
            return passed
        ctx = view.ctx
        costs = ctx.costs
        counted = [n for n in stops if costs[n] > 0]
        if len(counted) < view.spec.capacity(0b111):
            return None  # the raised distance: skipping is optional
        own = [n for n in counted if ctx.tokened[n]]
        if len(own) == 1:
            counted.remove(own[0])
        gnr = ctx.facts.companies.get(self.gnr_company) == ctx.corporation
        track = view.track if self._stop_facts(ctx).resource_track else None
        best: int | None = None
        best_total = 0
        for skip in counted:
            revenue, paid = _scored(stops, skip, values)
            probe = RouteView(ctx, view.spec, stops, paid, revenue, view.ends, track=track)
            total = revenue + self.route_bonus(probe)
            if gnr:
                earned = _gnr(probe)
                if earned > rivals[0] and earned >= rivals[1]:
                    total += earned
            if best is None or total > best_total:
                best, best_total = skip, total
        return best

    def route_bonus(self, view: RouteView) -> int:
        ctx = view.ctx
        facts = self._stop_facts(ctx)
        stops = view.paid  # what the stops scored earn (a switcher's skipped one nothing)
        bonus = sum(map(facts.per_stop.__getitem__, stops)) if facts.bridged else 0
        if _train_name(view.spec.name)[1]:
            bonus += 20 * (len(stops) - sum(map(facts.rural.__getitem__, stops)))
        if facts.towns and not facts.towns.isdisjoint(stops):
            bonus -= 10
        for nodes, value in facts.once:
            if not nodes.isdisjoint(stops):
                bonus += value
        if facts.resource_track:
            track = view.track
            bonus += sum(
                v for m, v, at in facts.resource_track if track & m and at.isdisjoint(stops)
            )
        return bonus

    def rating_track(self, ctx: RouteContext) -> int | None:
        # besides its stops, a route earns by the resource hexes its track passes, and may
        # not pass one twice: their paths
        out = 0
        for mask, _, _ in self._stop_facts(ctx).resource_track:
            out |= mask
        return out

    def route_bound(self, ctx: RouteContext, spec: TrainSpec) -> tuple[list[int], int]:
        # per stop: bridges, pullmans, the subsidies' and P8's bonuses at their stops (a
        # route earns each once; it may stop at one node of P8's Mexico), a company town's
        # -10 where only one may cost it; resources: walk_rules
        facts = self._stop_facts(ctx)
        values = [v + add for v, add in zip(ctx.values(spec), facts.per_stop, strict=True)]
        if _train_name(spec.name)[1]:
            for n, rural in enumerate(facts.rural):
                if ctx.classes[n] >= 0 and not rural:
                    values[n] += 20
        for nodes, value in facts.once:
            for n in nodes:
                values[n] += value
        if len(facts.towns) == 1:
            for n in facts.towns:
                values[n] -= 10
        return values, 0

    def run_revenue(self, views: Sequence[RouteView], total: int) -> int:
        if len(views) > 2:
            mexican = sum(1 for v in views if any(v.ctx.coords[n] in MEXICO for n in v.stops))
            if mexican > 2:
                return -(1 << 40)  # not a legal run
        ctx = views[0].ctx if views else None
        if ctx is not None and ctx.facts.companies.get(self.gnr_company) == ctx.corporation:
            gnrs = [_gnr(v) for v in views]
            for i, v in enumerate(views):
                if len(views) > 1 and _switcher(v.spec):
                    # the switcher's route was rated as if it earned the Great Northern's
                    # bonus (paid_stops); the engine counts it in choosing the skip only
                    # where no other route earns more (the first of equals: run order)
                    rivals = (max(gnrs[:i], default=-1), max(gnrs[i + 1 :], default=-1))
                    values = ctx.values(v.spec)
                    revenue, paid = _scored(v.stops, self._skipped(v, values, rivals), values)
                    if paid != v.paid:
                        probe = RouteView(
                            ctx, v.spec, v.stops, paid, revenue, v.ends, track=v.track
                        )
                        total += revenue + self.route_bonus(probe) - v.total
                        gnrs[i] = _gnr(probe)
            total += max(gnrs, default=0)
        return total

    def run_bonus_bound(self, ctx: RouteContext) -> int:
        if ctx.facts.companies.get(self.gnr_company) == ctx.corporation:
            # and a switcher's route may earn more by the skip run_revenue corrects, by less
            # than the bonus it was rated for
            most = max(b for _, b in GNR_BONUSES)
            return 2 * most if self._switching(ctx) else most
        return 0

    def run_applies(self, ctx: RouteContext, trains: int) -> bool:
        # the limit on Mexico bites a run of three routes or more; the Great Northern's
        # bonus its owner's runs
        return trains > 2 or ctx.facts.companies.get(self.gnr_company) == ctx.corporation


class _StopFacts:
    """What 18USA's route rules need of each node of a search's board: what each stop
    earns besides its revenue (a bridge: 10), whether it is a rural junction, the company
    towns where the corporation has no token, the bonuses a route earns once for stopping
    at any of some nodes (the subsidies' +10, P8's mark), what passing each resource hex
    earns and the resource hex of each path end. ``twice`` says whether a route may pass a
    resource hex twice on a walk: not when every resource tile with several paths joins
    them at a node (a walk passes a node once), as all of 18USA's do."""

    __slots__ = (
        "bridged",
        "end_resource",
        "once",
        "per_stop",
        "resource_track",
        "rural",
        "towns",
        "twice",
    )

    def __init__(self, rules: G18USA, ctx: RouteContext) -> None:
        coords = ctx.coords
        assigned = ctx.facts.assignments
        extra = ctx.facts.extra
        names = [ctx.tiles[c].name for c in coords]
        stop = [k >= 0 for k in ctx.classes]
        self.per_stop = [
            10 if s and BRIDGE in assigned.get(c, ()) else 0
            for s, c in zip(stop, coords, strict=True)
        ]
        self.bridged = any(self.per_stop)
        self.rural = [name in RURAL_TILES for name in names]
        tokens = ctx.board.tokens
        self.towns = frozenset(
            n
            for n, (s, name, c) in enumerate(zip(stop, names, coords, strict=True))
            if s and name in COMPANY_TOWN_TILES and ctx.corporation not in tokens.get((c, 0), ())
        )
        icons = dict(extra.get("usa.icons", ()))
        late = "brown" in ctx.phase.tiles
        once: list[tuple[frozenset[int], int]] = []
        for subsidy, value in ((PLUS_TEN, 10), (PLUS_TEN_TWENTY, 20 if late else 10)):
            hexes = {h for h, s in icons.items() if s == subsidy}
            if hexes:
                once.append((_nodes_in(ctx, hexes), value))
        marked = extra.get("usa.p8", ())
        if marked and ctx.facts.companies.get(rules.p8_company) == ctx.corporation:
            once.append((_nodes_in(ctx, set(marked)), 10))
        self.once = tuple((nodes, value) for nodes, value in once if nodes)
        resources = rules._resources(ctx)
        #: the resource hex of each path end of the track graph (None: not one)
        paths = ctx.graph.paths
        self.end_resource: list[str | None] = [
            c if c in resources else None for c, _ in paths for _ in (0, 1)
        ]
        #: each resource hex's paths as bits (RouteView.track), what passing it earns, and
        #: its stops (a route stopping there does not pass it)
        track: dict[str, int] = {}
        for p, (c, _) in enumerate(paths):
            if c in resources:
                track[c] = track.get(c, 0) | 1 << p
        self.resource_track = tuple(
            (m, resources[c], _nodes_in(ctx, {c})) for c, m in track.items()
        )
        self.twice = False
        for coord in resources:
            tile = ctx.hex_tile(coord)
            if len(tile.paths) > 1 and any(not p.nodes() for p in tile.paths):
                self.twice = True


def _nodes_in(ctx: RouteContext, hexes: set[str]) -> frozenset[int]:
    """The stops of ``hexes``."""
    return frozenset(
        n
        for n, (c, k) in enumerate(zip(ctx.coords, ctx.classes, strict=True))
        if k >= 0 and c in hexes
    )


def _gnr(view: RouteView) -> int:
    """The Great Northern's bonus a route's stops earn."""
    coords = view.ctx.coords
    hexes = {coords[n] for n in view.paid}
    return next((bonus for needed, bonus in GNR_BONUSES if needed <= hexes), 0)


def _seventeen_trains(
    game: Game,
) -> tuple[tuple[dict[str, Any], ...], tuple[dict[str, Any], ...], TrainManager]:
    """18USA's trains and phases under the optional rule ``seventeen_trains``, as the game's
    option gives them (:class:`~tilelay.games.GameOption`: read from the engine's
    ``G18USA::Game#game_trains`` and ``#game_phases``, 1817's trains and 20 pullmans, its
    phases but 3+ and 4+)."""
    option = game.option("seventeen_trains")
    if option.trains is None:
        raise NotFoundError(
            "18USA's optional rule seventeen_trains plays with 1817's trains, and this game's "
            "option does not say which trains (read 18USA from the 18xx.games engine)"
        )
    return option.train_data, option.phase_data, option.trains


def _scored(
    stops: tuple[int, ...], skipped: int | None, values: Sequence[int]
) -> tuple[int, tuple[int, ...]]:
    """What a route's stops earn without the one it skips (None: none), and those stops."""
    paid = stops if skipped is None else tuple(n for n in stops if n != skipped)
    return sum(map(values.__getitem__, paid)), paid


def _switcher(spec: TrainSpec) -> bool:
    """Whether a train has the switcher attached (by its name)."""
    return SWITCHER in _train_name(spec.name)[2]


def _rusting(game: Game) -> frozenset[str]:
    """The trains that rust or become obsolete (those an extender may go on)."""
    return frozenset(
        str(t.get("name"))
        for t in game.train_data
        if t.get("rusts_on") is not None or t.get("obsolete_on") is not None
    )


@dataclass(frozen=True, slots=True)
class _ResourceAbility:
    """A company's ``tile_lay`` ability that lays resource tiles (18USA's ore, coal and oil
    companies): the company, the ability's place among its abilities, the labels and tiles
    it lays, how many times it may be used (None: unlimited) and whether the company closes
    when it is used up."""

    company: str
    index: int
    tiles: tuple[str, ...]
    count: int | None
    closes: bool


def _tile_resources(tile: Tile) -> frozenset[str]:
    """The resources a tile carries, by its labels (18xx.games' ``tile_resources``)."""
    text = "".join(label.text for label in tile.labels)
    return frozenset(r for r in RESOURCE_ICONS if r in text)


def _resource_abilities(
    game: Game, held: Sequence[str], coord: str, extra: Mapping[str, Any]
) -> list[_ResourceAbility]:
    """The abilities of the companies ``held`` that lay a resource tile at ``coord`` and
    are not used up (``extra``: the uses so far, replay's ``usa.ability_uses``)."""
    used = dict(extra.get("usa.ability_uses", ()))
    out: list[_ResourceAbility] = []
    for company in game.companies:
        if company.sym not in held:
            continue
        for index, ability in enumerate(company.abilities):
            if ability.get("type") != "tile_lay" or coord not in (ability.get("hexes") or ()):
                continue
            tiles = tuple(str(t) for t in ability.get("tiles") or ())
            if not any(r in tiles for r in RESOURCE_ICONS):
                continue
            count = ability.get("count")
            count = count if isinstance(count, int) and not isinstance(count, bool) else None
            if count is not None and used.get((company.sym, index), 0) >= count:
                continue
            out.append(
                _ResourceAbility(
                    company.sym, index, tiles, count, bool(ability.get("closed_when_used_up"))
                )
            )
    return out


def _assigned(
    needs: frozenset[str], abilities: Sequence[_ResourceAbility]
) -> dict[str, _ResourceAbility] | None:
    """An ability for each resource ``needs``, as the engine chooses them
    (``abilities_to_lay_resource_tile``): of those laying the resource, the fewest tiles
    first, then the company's name; with two resources, an ability laying both only for
    a resource no other ability lays. None where some resource has none."""
    each = {
        r: sorted((a for a in abilities if r in a.tiles), key=lambda a: (len(a.tiles), a.company))
        for r in RESOURCE_ICONS  # (coal, ore, oil: the engine's order)
        if r in needs
    }
    if len(each) == 1:
        chosen = {r: found[0] if found else None for r, found in each.items()}
    else:
        lists = list(each.values())
        dups = [a for a in lists[0] if all(a in other for other in lists[1:])]
        firsts = {r: next((a for a in found if a not in dups), None) for r, found in each.items()}
        chosen = {}
        for r, first in firsts.items():
            chosen[r] = first if first is not None else (dups.pop(0) if dups else None)
    if any(a is None for a in chosen.values()):
        return None
    return {r: a for r, a in chosen.items() if a is not None}


def _stop_towards(board: Board, coord: str, edge: int) -> bool:
    """Whether the neighbour of ``coord`` across ``edge`` has a city, a town or an offboard
    (not a resource tile's) that either has track facing back or may take some tile of the
    supply (18xx.games' ``real_offboard?``, ``potential_future_tiles``)."""
    neighbour = board.neighbour(coord, edge)
    if neighbour is None:
        return False
    tile = board.tile_at(neighbour)
    # (a resource tile's mine is an offboard to the engine, not a real one)
    if not (tile.cities or tile.towns or (tile.offboards and not _tile_resources(tile))):
        return False
    if neighbour_edge(edge) in tile.exits():
        return True
    return any(board.legal_rotations(neighbour, name) for name in board.game.manifest)

"""Trains and phases of an 18xx game: the data model of seed 003 and its 18xx.games reading.

The model follows Rails' train configuration (seed 003):

* a :class:`TrainCardType` is a train card as the rules name it (``5`` in 1830, ``2/1+1`` in
  18Scan); it has one or two sides, each a :class:`TrainType` (name, cost, exchange cost, major
  and minor stops, :class:`Reach` and :class:`Score` rules). ``quantity`` -1 means unlimited;
* a :class:`Phase` has its tile colours, number of operating rounds, train limit and the train
  cards it rusts and releases when it starts; a card type names the phases its purchase starts
  (:class:`NewPhase`);
* a :class:`TrainManager` holds all of these, and a :class:`TrainDepot` holds the individual
  :class:`TrainCard` s (and the side chosen on each) in their portfolios: ``IPO``, ``Pool``,
  ``Scrapheap`` or a company's name.

The model is read from a Rails ``Game.xml`` (:func:`tilelay.xml.rails_game.read_rails_game`)
or from a built-in game definition in the 18xx.games shape (:func:`trains_from_game_data`).
Everything here is immutable; a depot changes by returning a new depot.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from tilelay.errors import GameDataError, NotFoundError, TilelayError

#: ``quantity`` of a train card type of which there are as many as wanted.
UNLIMITED = -1
#: A stop count at or above this means "as many stops as the route has" (Rails writes 99 for
#: D trains, 18xx.games 999).
UNLIMITED_STOPS = 99
#: The portfolios every game has; a company's portfolio is named by the company.
IPO = "IPO"
POOL = "Pool"
SCRAPHEAP = "Scrapheap"


@dataclass(frozen=True, slots=True)
class ReadWarning:
    """Something in the input that was not understood (an unknown tag, attribute or key)."""

    message: str
    source: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        where = ":".join(
            bit for bit in (self.source, None if self.line is None else str(self.line)) if bit
        )
        return f"{where}: {self.message}" if where else self.message


class ReachBase(StrEnum):
    """What a train's length counts: stops (the usual) or hexes (H-trains)."""

    STOPS = "stops"
    HEXES = "hexes"


class TownCounting(StrEnum):
    """Whether towns count against a train's length, and as which kind of stop.

    ``YES`` counts a town as a minor stop if the train has minor stops, else as a major stop;
    ``MAJOR`` / ``MINOR`` force the kind; ``NO`` means towns never count against the length.
    """

    YES = "yes"
    NO = "no"
    MAJOR = "major"
    MINOR = "minor"


class CityScore(StrEnum):
    """How a train scores city revenue: once (``single``) or twice (``double``)."""

    SINGLE = "single"
    DOUBLE = "double"


@dataclass(frozen=True, slots=True)
class Reach:
    """Rails' ``<Reach base countTowns>``: how a train's length is measured."""

    base: ReachBase = ReachBase.STOPS
    count_towns: TownCounting = TownCounting.YES


@dataclass(frozen=True, slots=True)
class Score:
    """Rails' ``<Score cities towns>``: what a train scores."""

    cities: CityScore = CityScore.SINGLE
    towns: bool = True


@dataclass(frozen=True, slots=True)
class TrainType:
    """One side of a train card: the train as it runs.

    ``major_stops`` -1 means a train that does not run normally (e.g. a Pullman);
    ``major_stops >= UNLIMITED_STOPS`` means unlimited (a diesel). ``max_visits`` is set for
    express trains that may pass through more stops than they score (18xx.games ``visit``).
    ``discounts`` maps the card types that may be traded in to the price reduction
    (18xx.games ``discount``); ``exchange_cost`` is Rails' price when trading one in.
    """

    name: str
    cost: int
    major_stops: int
    minor_stops: int = 0
    exchange_cost: int | None = None
    reach: Reach = Reach()
    score: Score = Score()
    max_visits: int | None = None
    discounts: tuple[tuple[str, int], ...] = ()

    @property
    def runs(self) -> bool:
        """Whether this train runs routes at all (``majorStops`` -1 means it does not)."""
        return self.major_stops >= 0

    @property
    def max_major_stops(self) -> int | None:
        """Major stops the train may count, ``None`` for unlimited (0 if it does not run)."""
        if self.major_stops >= UNLIMITED_STOPS:
            return None
        return max(self.major_stops, 0)

    @property
    def max_minor_stops(self) -> int | None:
        """Minor stops (the ``+m`` of an n+m train) it may count, ``None`` for unlimited."""
        return None if self.minor_stops >= UNLIMITED_STOPS else self.minor_stops

    @property
    def counts_hexes(self) -> bool:
        """Whether the train's reach is counted in hexes (H-trains) rather than stops."""
        return self.reach.base is ReachBase.HEXES

    @property
    def towns_count_against_length(self) -> bool:
        """Whether a town the train stops at uses up part of its length."""
        return self.reach.count_towns is not TownCounting.NO

    @property
    def town_stop_kind(self) -> str | None:
        """Which allowance a town uses: ``"major"``, ``"minor"`` or ``None`` (it is free)."""
        counting = self.reach.count_towns
        if counting is TownCounting.NO:
            return None
        if counting is TownCounting.YES:
            return "minor" if self.minor_stops > 0 else "major"
        return counting.value

    @property
    def cities_score_double(self) -> bool:
        """Whether city revenue counts twice for this train."""
        return self.score.cities is CityScore.DOUBLE

    @property
    def towns_score(self) -> bool:
        """Whether towns on the route add their revenue."""
        return self.score.towns

    def describe(self) -> str:
        """A one-line human description: stops, cost and rules."""
        if not self.runs:
            stops = "does not run"
        else:
            major = "unlimited" if self.max_major_stops is None else str(self.major_stops)
            stops = f"{major} major"
            if self.minor_stops:
                stops += f" + {self.minor_stops} minor"
            stops += " stops" if not self.counts_hexes else " hexes"
        bits = [stops, f"cost {self.cost}"]
        if self.exchange_cost is not None:
            bits.append(f"exchange {self.exchange_cost}")
        if self.max_visits is not None:
            bits.append(f"visits up to {self.max_visits}")
        kind = self.town_stop_kind
        bits.append(f"towns count as {kind} stops" if kind else "towns do not count")
        if not self.towns_score:
            bits.append("towns do not score")
        if self.cities_score_double:
            bits.append("cities score double")
        return ", ".join(bits)


@dataclass(frozen=True, slots=True)
class NewPhase:
    """Rails' ``<NewPhase phaseName trainIndex>``: buying card number ``train_index`` (1-based)
    of a type starts phase ``phase``."""

    phase: str
    train_index: int = 1


@dataclass(frozen=True, slots=True)
class TrainCardType:
    """A kind of train card (Rails' ``<TrainType>``): one side, or two for dual cards.

    ``rusts`` and ``releases`` name card types rusted / made available when the first card of
    this type is bought (Rails ``rustedTrain``, ``releasedTrain``/``alsoReleased``); the same
    things done by a phase are on :class:`Phase`. ``available_from`` is the phase from which
    it may be bought (Rails ``startPhase``). ``obsoleting`` (Rails) makes the card become
    obsolete instead of rusting; ``obsolete_on`` (18xx.games) names the card type whose purchase
    makes it obsolete. ``events`` are 18xx.games event names fired by its first purchase.
    """

    name: str
    quantity: int
    sides: tuple[TrainType, ...]
    initial_portfolio: str = IPO
    obsoleting: bool = False
    category: str = "passenger"
    class_name: str | None = None
    new_phases: tuple[NewPhase, ...] = ()
    available_from: str | None = None
    rusts: tuple[str, ...] = ()
    releases: tuple[str, ...] = ()
    obsolete_on: str | None = None
    events: tuple[str, ...] = ()

    @property
    def unlimited(self) -> bool:
        """Whether there is no limit on the number of cards of this type."""
        return self.quantity == UNLIMITED

    @property
    def dual(self) -> bool:
        """Whether the card has two sides the buyer chooses between."""
        return len(self.sides) > 1

    def side(self, name: str) -> TrainType:
        """The side called ``name``; raises :class:`NotFoundError`."""
        for side in self.sides:
            if side.name == name:
                return side
        raise NotFoundError(
            f"train card {self.name!r} has no side {name!r}",
            suggestions=[s.name for s in self.sides],
        )


@dataclass(frozen=True, slots=True)
class Extra:
    """A tag kept as it was written but not modelled (e.g. Rails' ``<Privates close="yes"/>``)."""

    tag: str
    attributes: tuple[tuple[str, str], ...] = ()
    children: tuple[Extra, ...] = ()


@dataclass(frozen=True, slots=True)
class Phase:
    """A game phase with its effective settings (Rails phases inherit from the previous one).

    ``limit_step`` is Rails' index (1-based) into the per-company-type train limits of
    CompanyManager.xml; ``train_limit`` / ``train_limits`` are the 18xx.games numbers (one for
    all companies, or per company type). ``rusts`` / ``releases`` name card types.
    """

    name: str
    real_name: str | None = None
    tiles: tuple[str, ...] = ()
    operating_rounds: int = 1
    limit_step: int | None = None
    train_limit: int | None = None
    train_limits: tuple[tuple[str, int], ...] = ()
    rusts: tuple[str, ...] = ()
    releases: tuple[str, ...] = ()
    trading_allowed: bool = False
    one_per_turn: bool = False
    one_per_type_per_turn: bool = False
    status: tuple[str, ...] = ()
    tile_lays: tuple[Extra, ...] = ()
    extras: tuple[Extra, ...] = ()


@dataclass(frozen=True, slots=True)
class TrainManager:
    """All train card types and phases of a game, with Rails' train-buying rules.

    ``warnings`` lists what the reader did not understand; it takes no part in equality.
    """

    card_types: tuple[TrainCardType, ...]
    phases: tuple[Phase, ...] = ()
    default_class: str | None = None
    discard_to: str = POOL
    remove_train_before_sr: bool = False
    dual_train_becomes_undecided_in_pool: bool = False
    face_value_if_different_presidents: bool = False
    obsolete_train_for: str = "EXCEPT_TRIGGERING"
    rails_class: str | None = None
    phase_manager_class: str | None = None
    source: str | None = field(default=None, compare=False)
    warnings: tuple[ReadWarning, ...] = field(default=(), compare=False)

    def card_type(self, name: str) -> TrainCardType:
        """The train card type called ``name``; raises :class:`NotFoundError`."""
        for card in self.card_types:
            if card.name == name:
                return card
        raise NotFoundError(
            f"no train card type {name!r}", suggestions=[c.name for c in self.card_types]
        )

    def train_type(self, name: str) -> TrainType:
        """The train type (card side) called ``name``; raises :class:`NotFoundError`."""
        for card in self.card_types:
            for side in card.sides:
                if side.name == name:
                    return side
        raise NotFoundError(
            f"no train type {name!r}",
            suggestions=[s.name for c in self.card_types for s in c.sides],
        )

    def card_type_of(self, train_name: str) -> TrainCardType:
        """The card type whose name, or one of whose sides' names, is ``train_name``."""
        for card in self.card_types:
            if card.name == train_name:
                return card
        for card in self.card_types:
            if any(side.name == train_name for side in card.sides):
                return card
        return self.card_type(train_name)

    def phase(self, name: str) -> Phase:
        """The phase called ``name``; raises :class:`NotFoundError`."""
        for phase in self.phases:
            if phase.name == name:
                return phase
        raise NotFoundError(f"no phase {name!r}", suggestions=[p.name for p in self.phases])

    def phase_started_by(self, card_name: str, index: int = 1) -> str | None:
        """The phase started by buying card number ``index`` (1-based) of a type, if any."""
        for new in self.card_type(card_name).new_phases:
            if new.train_index == index:
                return new.phase
        return None

    def trigger_of(self, phase_name: str) -> tuple[str, int] | None:
        """The card type and card number whose purchase starts a phase (None: the first)."""
        for card in self.card_types:
            for new in card.new_phases:
                if new.phase == phase_name:
                    return card.name, new.train_index
        return None

    def rusts_in_phase(self, card_name: str) -> str | None:
        """The phase at whose start cards of this type rust (or become obsolete), if any.

        Rusting by the purchase of another card type counts as the phase that purchase starts.
        """
        self.card_type(card_name)
        for phase in self.phases:
            if card_name in phase.rusts:
                return phase.name
        for card in self.card_types:
            if card_name in card.rusts:
                return self.phase_started_by(card.name)
        return None

    def rusted_by(self, card_name: str) -> str | None:
        """The card type whose (first) purchase rusts cards of this type, if any."""
        self.card_type(card_name)
        for card in self.card_types:
            if card_name in card.rusts:
                return card.name
        phase = self.rusts_in_phase(card_name)
        trigger = None if phase is None else self.trigger_of(phase)
        return None if trigger is None else trigger[0]

    def released_in_phase(self, card_name: str) -> str | None:
        """The phase at whose start cards of this type become available, if any is named."""
        card = self.card_type(card_name)
        if card.available_from is not None:
            return card.available_from
        for phase in self.phases:
            if card_name in phase.releases:
                return phase.name
        for other in self.card_types:
            if card_name in other.releases:
                return self.phase_started_by(other.name)
        return None

    def new_depot(self) -> TrainDepot:
        """The depot at the start of the game: every card in its initial portfolio."""
        cards: list[TrainCard] = []
        for card in self.card_types:
            count = 1 if card.unlimited else card.quantity
            for number in range(1, count + 1):
                chosen = card.sides[0].name if not card.dual else None
                cards.append(TrainCard(card.name, number, card.initial_portfolio, chosen))
        return TrainDepot(self, tuple(cards))


@dataclass(frozen=True, slots=True)
class TrainCard:
    """One train card: its type, number (1-based), holder and the side chosen (None: not yet)."""

    type_name: str
    number: int
    holder: str
    chosen: str | None = None

    @property
    def id(self) -> str:
        """The card's identifier, e.g. ``"2/1+1_3"``."""
        return f"{self.type_name}_{self.number}"


@dataclass(frozen=True, slots=True)
class TrainDepot:
    """Where every train card is: the IPO, the pool, the scrapheap or a company.

    For an unlimited card type one card waits in its initial portfolio; buying it puts the
    next one there.
    """

    manager: TrainManager
    cards: tuple[TrainCard, ...]

    def card(self, card_id: str) -> TrainCard:
        """The card with this id; raises :class:`NotFoundError`."""
        for card in self.cards:
            if card.id == card_id:
                return card
        raise NotFoundError(f"no train card {card_id!r}")

    def portfolio(self, holder: str) -> tuple[TrainCard, ...]:
        """The cards a portfolio (``IPO``, ``Pool``, ``Scrapheap`` or a company) holds."""
        return tuple(card for card in self.cards if card.holder == holder)

    def train(self, card_id: str) -> TrainType | None:
        """The train a card runs as (its chosen side), or None while undecided."""
        card = self.card(card_id)
        if card.chosen is None:
            return None
        return self.manager.card_type(card.type_name).side(card.chosen)

    def move(self, card_id: str, to: str, *, side: str | None = None) -> TrainDepot:
        """The depot after moving a card to ``to``, choosing ``side`` if given.

        A dual card must have a side once a company holds it; moving one to the pool makes it
        undecided again if the game says so (``DualTrainBecomesUndecidedInPool``).
        """
        card = self.card(card_id)
        ctype = self.manager.card_type(card.type_name)
        chosen = card.chosen
        if side is not None:
            ctype.side(side)
            if chosen is not None and chosen != side and card.holder not in (IPO, POOL):
                raise TilelayError(f"train card {card_id} already runs as {chosen}")
            chosen = side
        if to == POOL and ctype.dual and self.manager.dual_train_becomes_undecided_in_pool:
            chosen = None
        if to not in (IPO, POOL, SCRAPHEAP) and chosen is None:
            raise TilelayError(
                f"train card {card_id} has two sides; choose one of "
                + ", ".join(s.name for s in ctype.sides)
            )
        moved = replace(card, holder=to, chosen=chosen)
        cards = [moved if c is card else c for c in self.cards]
        if ctype.unlimited and card.holder == ctype.initial_portfolio:
            numbers = [c.number for c in cards if c.type_name == ctype.name]
            first = ctype.sides[0].name if not ctype.dual else None
            cards.append(TrainCard(ctype.name, max(numbers) + 1, ctype.initial_portfolio, first))
        return TrainDepot(self.manager, tuple(cards))

    def rust(self, card_names: Iterable[str]) -> TrainDepot:
        """The depot after cards of these types rust: wherever they are, to the scrapheap."""
        names = set(card_names)
        cards = tuple(
            replace(c, holder=SCRAPHEAP) if c.type_name in names else c for c in self.cards
        )
        return TrainDepot(self.manager, cards)


# --- 18xx.games game data --------------------------------------------------------------------

_TRAIN_KEYS = frozenset(
    {
        "name",
        "distance",
        "price",
        "num",
        "rusts_on",
        "obsolete_on",
        "available_on",
        "discount",
        "events",
        "variants",
        "multiplier",
    }
)
_VARIANT_KEYS = frozenset({"name", "distance", "price", "rusts_on", "discount", "multiplier"})
_PHASE_KEYS = frozenset({"name", "on", "train_limit", "tiles", "operating_rounds", "status"})
_MAJOR_NODES = frozenset({"city", "offboard"})
_MINOR_NODES = frozenset({"town", "halt"})


class _GameData:
    """Reading state for :func:`trains_from_game_data`: the source name and the warnings."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.warnings: list[ReadWarning] = []

    def fail(self, where: str, message: str) -> GameDataError:
        return GameDataError(f"{where}: {message}", source=self.source)

    def warn_unknown(self, where: str, entry: Mapping[str, Any], known: frozenset[str]) -> None:
        for key in entry:
            if key not in known:
                self.warnings.append(ReadWarning(f"{where}: unknown key {key!r}", self.source))

    def integer(self, where: str, value: object, what: str, *, minimum: int = 0) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise self.fail(where, f"{what} must be an integer >= {minimum}, not {value!r}")
        return value

    def text(self, where: str, value: object, what: str) -> str:
        if not isinstance(value, str | int) or isinstance(value, bool) or value == "":
            raise self.fail(where, f"{what} must be a name, not {value!r}")
        return str(value)

    def names(self, where: str, value: object, what: str) -> tuple[str, ...]:
        if isinstance(value, list | tuple):
            return tuple(self.text(where, v, what) for v in value)
        return (self.text(where, value, what),)

    def side(self, where: str, entry: Mapping[str, Any]) -> TrainType:
        name = self.text(where, entry.get("name"), "name")
        if "price" not in entry:
            raise self.fail(where, "train has no price")
        price = self.integer(where, entry["price"], "price")
        major, minor, visits, reach, towns_score = self.distance(where, entry.get("distance"))
        multiplier = entry.get("multiplier", 1)
        if multiplier not in (1, 2):
            raise self.fail(where, f"multiplier must be 1 or 2, not {multiplier!r}")
        discounts: list[tuple[str, int]] = []
        raw = entry.get("discount", {})
        if not isinstance(raw, Mapping):
            raise self.fail(where, f"discount must be a table of train: amount, not {raw!r}")
        for other, amount in raw.items():
            discounts.append((str(other), self.integer(where, amount, f"discount for {other}")))
        exchange = None
        if discounts and len({amount for _, amount in discounts}) == 1:
            exchange = price - discounts[0][1]
        score = Score(CityScore.DOUBLE if multiplier == 2 else CityScore.SINGLE, towns_score)
        return TrainType(
            name, price, major, minor, exchange, reach, score, visits, tuple(discounts)
        )

    def distance(self, where: str, distance: object) -> tuple[int, int, int | None, Reach, bool]:
        """Major stops, minor stops, visit limit, reach and whether towns score."""
        if isinstance(distance, int) and not isinstance(distance, bool):
            return self.integer(where, distance, "distance", minimum=1), 0, None, Reach(), True
        if not isinstance(distance, list) or not distance:
            raise self.fail(where, f"distance must be a number or a list, not {distance!r}")
        major = minor = visits = 0
        town_kind: str | None = None
        for part in distance:
            if not isinstance(part, Mapping):
                raise self.fail(where, f"distance entry must be a table, not {part!r}")
            self.warn_unknown(where + " distance", part, frozenset({"nodes", "pay", "visit"}))
            nodes = set(self.names(where, part.get("nodes"), "distance nodes"))
            unknown = nodes - _MAJOR_NODES - _MINOR_NODES
            if unknown:
                raise self.fail(where, f"unknown distance node kind {sorted(unknown)[0]!r}")
            pay = self.integer(where, part.get("pay"), "distance pay")
            visit = self.integer(where, part.get("visit", pay), "distance visit")
            visits += visit
            if nodes & _MAJOR_NODES:
                major += pay
                if nodes & _MINOR_NODES:
                    town_kind = "major"
            else:
                minor += pay
                town_kind = "minor"
        if major == 0:
            raise self.fail(where, "distance has no city or offboard stops")
        counting = {"major": TownCounting.MAJOR, "minor": TownCounting.YES}.get(
            town_kind or "", TownCounting.NO
        )
        pays = major + minor
        max_visits = visits if visits != pays else None
        return major, minor, max_visits, Reach(count_towns=counting), town_kind is not None


def trains_from_game_data(
    trains: Sequence[Mapping[str, Any]],
    phases: Sequence[Mapping[str, Any]],
    *,
    source: str,
    quantities: Mapping[str, int] | None = None,
) -> TrainManager:
    """The train manager of a game defined in the 18xx.games shape (``TRAINS``, ``PHASES``).

    A train's ``distance`` is a number n (n major stops; towns count as major stops) or a list
    of ``{nodes, pay, visit}``: city/offboard nodes give major stops, town/halt nodes minor
    ones; a ``visit`` larger than ``pay`` is kept as ``max_visits``. ``num: "unlimited"`` is
    -1; a train without ``num`` takes its number from ``quantities`` (18xx.games computes some
    in code, e.g. 1830's 6-trains) or is an error. ``variants`` become the second side of a
    dual card named ``"side1/side2"``. ``rusts_on`` / ``available_on`` name the train whose
    first purchase rusts / releases this one: put on the phase that train starts if there is
    one, else on that train's card type. ``discount`` is kept per side, and gives
    ``exchange_cost`` when all amounts are equal. Unknown keys give warnings in
    :attr:`TrainManager.warnings`; malformed values raise :class:`GameDataError`.
    """
    data = _GameData(source)
    quantities = quantities or {}
    cards: list[TrainCardType] = []
    pending: list[tuple[str, str, str, str]] = []  # (card, relation, train name, where)
    for index, entry in enumerate(trains):
        where = f"trains[{index}]"
        if not isinstance(entry, Mapping):
            raise data.fail(where, f"a train must be a table, not {entry!r}")
        data.warn_unknown(where, entry, _TRAIN_KEYS)
        sides = [data.side(where, entry)]
        for vindex, variant in enumerate(entry.get("variants", [])):
            vwhere = f"{where}.variants[{vindex}]"
            if not isinstance(variant, Mapping):
                raise data.fail(vwhere, f"a variant must be a table, not {variant!r}")
            data.warn_unknown(vwhere, variant, _VARIANT_KEYS)
            sides.append(data.side(vwhere, {"distance": entry.get("distance"), **variant}))
        name = "/".join(side.name for side in sides)
        if "num" in entry:
            num = entry["num"]
            quantity = (
                UNLIMITED if num == "unlimited" else data.integer(where, num, "num", minimum=1)
            )
        elif sides[0].name in quantities or name in quantities:
            quantity = quantities.get(name, quantities.get(sides[0].name, 0))
            quantity = data.integer(where, quantity, "quantity", minimum=1)
        else:
            raise data.fail(where, f"train {name!r} has no num (pass its quantity)")
        events: list[str] = []
        for event in entry.get("events", []):
            if not isinstance(event, Mapping) or "type" not in event:
                raise data.fail(where, f"an event must be a table with a type, not {event!r}")
            data.warn_unknown(where + " event", event, frozenset({"type"}))
            events.append(str(event["type"]))
        for key in ("rusts_on", "available_on", "obsolete_on"):
            if key in entry:
                pending.append((name, key, data.text(where, entry[key], key), where))
        cards.append(TrainCardType(name, quantity, tuple(sides), events=tuple(events)))

    def card_index(train: str, where: str) -> int:
        for i, card in enumerate(cards):
            if card.name == train or any(side.name == train for side in card.sides):
                return i
        raise data.fail(where, f"unknown train {train!r}")

    phase_list: list[Phase] = []
    phase_of_train: dict[str, int] = {}
    for index, entry in enumerate(phases):
        where = f"phases[{index}]"
        if not isinstance(entry, Mapping):
            raise data.fail(where, f"a phase must be a table, not {entry!r}")
        data.warn_unknown(where, entry, _PHASE_KEYS)
        name = data.text(where, entry.get("name"), "name")
        limit = entry.get("train_limit")
        train_limit: int | None = None
        train_limits: tuple[tuple[str, int], ...] = ()
        if isinstance(limit, Mapping):
            train_limits = tuple(
                (str(k), data.integer(where, v, f"train_limit {k}")) for k, v in limit.items()
            )
        elif limit is not None:
            train_limit = data.integer(where, limit, "train_limit")
        tiles = data.names(where, entry.get("tiles", []), "tiles") if entry.get("tiles") else ()
        rounds = data.integer(where, entry.get("operating_rounds", 1), "operating_rounds")
        status = data.names(where, entry["status"], "status") if entry.get("status") else ()
        phase_list.append(
            Phase(
                name,
                tiles=tiles,
                operating_rounds=rounds,
                train_limit=train_limit,
                train_limits=train_limits,
                status=status,
            )
        )
        if "on" in entry:
            for train in data.names(where, entry["on"], "on"):
                i = card_index(train, where)
                cards[i] = replace(cards[i], new_phases=(*cards[i].new_phases, NewPhase(name)))
                phase_of_train.setdefault(cards[i].name, len(phase_list) - 1)

    for card_name, key, train, where in pending:
        trigger = cards[card_index(train, where)].name
        if key == "obsolete_on":
            i = card_index(card_name, where)
            cards[i] = replace(cards[i], obsolete_on=trigger)
            continue
        rusts = key == "rusts_on"
        if trigger in phase_of_train:
            p = phase_of_train[trigger]
            phase = phase_list[p]
            if rusts:
                phase_list[p] = replace(phase, rusts=(*phase.rusts, card_name))
            else:
                phase_list[p] = replace(phase, releases=(*phase.releases, card_name))
        else:
            i = card_index(trigger, where)
            card = cards[i]
            if rusts:
                cards[i] = replace(card, rusts=(*card.rusts, card_name))
            else:
                cards[i] = replace(card, releases=(*card.releases, card_name))
    return TrainManager(
        tuple(cards), tuple(phase_list), source=source, warnings=tuple(data.warnings)
    )


# --- plain data ------------------------------------------------------------------------------


def _side_dict(side: TrainType) -> dict[str, Any]:
    return {
        "name": side.name,
        "cost": side.cost,
        "exchange_cost": side.exchange_cost,
        "major_stops": side.max_major_stops if side.runs else -1,
        "minor_stops": side.max_minor_stops,
        "runs": side.runs,
        "reach": side.reach.base.value,
        "towns_count_as": side.town_stop_kind,
        "towns_score": side.towns_score,
        "cities_score_double": side.cities_score_double,
        "max_visits": side.max_visits,
        "discounts": dict(side.discounts),
    }


def manager_to_dict(manager: TrainManager) -> dict[str, Any]:
    """The train manager as plain JSON-ready data (unlimited stops and quantities as None)."""
    return {
        "source": manager.source,
        "trains": [
            {
                "name": card.name,
                "quantity": None if card.unlimited else card.quantity,
                "initial_portfolio": card.initial_portfolio,
                "category": card.category,
                "obsoleting": card.obsoleting,
                "obsolete_on": card.obsolete_on,
                "sides": [_side_dict(side) for side in card.sides],
                "new_phases": [
                    {"phase": n.phase, "train_index": n.train_index} for n in card.new_phases
                ],
                "available_from": manager.released_in_phase(card.name),
                "rusts_in_phase": manager.rusts_in_phase(card.name),
                "rusted_by": manager.rusted_by(card.name),
                "rusts": list(card.rusts),
                "releases": list(card.releases),
                "events": list(card.events),
            }
            for card in manager.card_types
        ],
        "phases": [
            {
                "name": phase.name,
                "real_name": phase.real_name,
                "tiles": list(phase.tiles),
                "operating_rounds": phase.operating_rounds,
                "limit_step": phase.limit_step,
                "train_limit": phase.train_limit,
                "train_limits": dict(phase.train_limits),
                "rusts": list(phase.rusts),
                "releases": list(phase.releases),
                "trading_allowed": phase.trading_allowed,
                "status": list(phase.status),
            }
            for phase in manager.phases
        ],
        "rules": {
            "discard_to": manager.discard_to,
            "remove_train_before_sr": manager.remove_train_before_sr,
            "dual_train_becomes_undecided_in_pool": manager.dual_train_becomes_undecided_in_pool,
            "face_value_if_different_presidents": manager.face_value_if_different_presidents,
            "obsolete_train_for": manager.obsolete_train_for,
        },
        "warnings": [str(w) for w in manager.warnings],
    }

"""Trains and phases of an 18xx game: the data model of seed 003.

The model follows Rails' train configuration (seed 003):

* a :class:`TrainCardType` is a train card as the rules name it (``5`` in 1830, ``2/1+1`` in
  18Scan); it has one or two sides, each a :class:`TrainType` (name, cost, exchange cost, major
  and minor stops, :class:`Reach` and :class:`Score` rules). ``quantity`` -1 means unlimited;
* a :class:`Phase` has its tile colours, number of operating rounds, train limit and the train
  cards it rusts and releases when it starts; a card type names the phases its purchase starts
  (:class:`NewPhase`);
* a train that the 18xx.games engine describes by a ``distance`` list (``{nodes, pay, visit}``
  rows: express trains, trains that visit towns without scoring them, several stop classes)
  keeps those rows as :class:`StopAllowance` s, and its ``multiplier``;
* a :class:`TrainManager` holds all of these, and a :class:`TrainDepot` holds the individual
  :class:`TrainCard` s (and the side chosen on each) in their portfolios: ``IPO``, ``Pool``,
  ``Scrapheap`` or a company's name.

The model is read from a Rails ``Game.xml`` (:func:`tilelay.xml.rails_game.read_rails_game`)
or from game data in the 18xx.games shape (:func:`tilelay.train_data.trains_from_game_data`).
Everything here is immutable; a depot changes by returning a new depot.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum

from tilelay.errors import NotFoundError, ReadWarning, TilelayError

#: ``quantity`` of a train card type of which there are as many as wanted.
UNLIMITED = -1
#: A stop count at or above this means "as many stops as the route has" (Rails writes 99 for
#: D trains, 18xx.games 999).
UNLIMITED_STOPS = 99
#: The portfolios every game has; a company's portfolio is named by the company.
IPO = "IPO"
POOL = "Pool"
SCRAPHEAP = "Scrapheap"


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


#: The stop kinds a :class:`StopAllowance` may name (18xx.games' node types).
STOP_KINDS = ("city", "town", "offboard", "halt")


@dataclass(frozen=True, slots=True)
class StopAllowance:
    """One row of an 18xx.games ``distance`` list: stops of these ``kinds`` the train may
    ``visit`` (at most), of which it scores ``pay`` (the best ones), each times ``multiplier``
    (``None``: the train's own multiplier). ``visit`` and ``pay`` at or above
    :data:`UNLIMITED_STOPS` mean as many as the route has.

    >>> StopAllowance(("city", "offboard"), pay=3, visit=5).express
    True
    """

    kinds: tuple[str, ...]
    pay: int
    visit: int
    multiplier: int | None = None

    @property
    def express(self) -> bool:
        """Whether the row lets the train pass more stops than it scores."""
        return self.visit > self.pay


@dataclass(frozen=True, slots=True)
class TrainType:
    """One side of a train card: the train as it runs.

    ``major_stops`` -1 means a train that does not run normally (e.g. a Pullman);
    ``major_stops >= UNLIMITED_STOPS`` means unlimited (a diesel). ``max_visits`` is set for
    express trains that may pass through more stops than they score (18xx.games ``visit``).
    ``discounts`` maps the card types that may be traded in to the price reduction
    (18xx.games ``discount``); ``exchange_cost`` is Rails' price when trading one in.

    ``allowances`` are the rows of an 18xx.games ``distance`` list when the train was read
    from one (they then say exactly which stops it may visit and score; ``major_stops`` /
    ``minor_stops`` summarise them); ``multiplier`` multiplies every stop's revenue
    (18xx.games ``multiplier``); ``category`` is ``passenger`` or, for Rails' and 18VA's
    freight trains, ``goods``; ``track`` the gauge it runs on (18xx.games ``track_type``:
    ``broad``, or ``narrow`` for 1858's metre-gauge trains); ``requires_token`` False for a
    train that may run without the corporation's token on its route.
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
    allowances: tuple[StopAllowance, ...] = ()
    multiplier: int = 1
    category: str = "passenger"
    track: str = "broad"
    requires_token: bool = True

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
        if self.multiplier != 1:
            bits.append(f"revenue times {self.multiplier}")
        if self.category != "passenger":
            bits.append(f"{self.category} train")
        return ", ".join(bits)


@dataclass(frozen=True, slots=True)
class NewPhase:
    """Rails' ``<NewPhase phaseName trainIndex>``: buying card number ``train_index`` (1-based)
    of a type starts phase ``phase``."""

    phase: str
    train_index: int = 1
    #: the side of a card of several whose purchase alone starts the phase (None: any side):
    #: 1822's L/2 starts phase 2 bought as a 2, not as an L
    side: str | None = None


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
    #: how many cards there are by the number of players, where that decides it (18xx.games
    #: counts 1846's 2-trains in code: 7, 8, 9 for 3, 4, 5 players): ``(players, quantity)``
    #: pairs in order, ``quantity`` being the most players'; :meth:`for_players` picks one
    quantity_by_players: tuple[tuple[int, int], ...] = ()

    @property
    def unlimited(self) -> bool:
        """Whether there is no limit on the number of cards of this type."""
        return self.quantity == UNLIMITED

    def for_players(self, players: int) -> TrainCardType:
        """This card type as a game of ``players`` players has it (itself where its number
        does not depend on them, or the table does not name that many)."""
        for n, quantity in self.quantity_by_players:
            if n == players:
                return replace(self, quantity=quantity, quantity_by_players=())
        return self

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

    def for_players(self, players: int) -> TrainManager:
        """The trains of a game of ``players`` players (:meth:`TrainCardType.for_players`)."""
        if not any(card.quantity_by_players for card in self.card_types):
            return self
        cards = tuple(card.for_players(players) for card in self.card_types)
        return replace(self, card_types=cards)

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

    def phase_started_by(
        self, card_name: str, index: int = 1, side: str | None = None
    ) -> str | None:
        """The phase started by buying card number ``index`` (1-based) of a type, if any:
        bought as ``side`` where a phase is started by one side of the card only (None: as
        none of those). Where the purchase starts several phases one after another (18xx.games
        goes on while the next phase's ``on`` names it: 1822's first 3 starts phases 2 and 3),
        the last."""
        started = None
        for new in self.card_type(card_name).new_phases:
            if new.train_index == index and (new.side is None or new.side == side):
                started = new.phase
        return started

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

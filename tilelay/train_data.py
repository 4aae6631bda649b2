"""Trains and phases as data: the 18xx.games shape (``TRAINS``, ``PHASES``) read into the
model of :mod:`tilelay.trains`, and the model written back as plain JSON-ready data.

>>> manager = trains_from_game_data(
...     [{"name": "2", "distance": 2, "price": 80, "num": 6}],
...     [{"name": "2", "tiles": ["yellow"], "train_limit": 4}],
...     source="example",
... )
>>> manager.train_type("2").max_major_stops, manager.phases[0].tiles
(2, ('yellow',))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from tilelay import limits
from tilelay.errors import GameDataError, ReadWarning
from tilelay.trains import (
    UNLIMITED,
    CityScore,
    NewPhase,
    Phase,
    Reach,
    Score,
    StopAllowance,
    TownCounting,
    TrainCardType,
    TrainManager,
    TrainType,
)

__all__ = [
    "engine_distance",
    "manager_to_dict",
    "manager_to_game_data",
    "trains_from_game_data",
]

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
        "category",
        "salvage",
        "track_type",
        "no_local",
        "reserved",
        "requires_token",
        "buyable",
    }
)
_VARIANT_KEYS = frozenset(
    {
        "requires_token",
        "name",
        "distance",
        "price",
        "rusts_on",
        "discount",
        "multiplier",
        "obsolete_on",
        "available_on",
        "salvage",
        "track_type",
        "no_local",
    }
)
_PHASE_KEYS = frozenset(
    {"name", "on", "train_limit", "tiles", "operating_rounds", "status", "corporation_sizes"}
)
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
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not minimum <= value <= limits.MAX_AMOUNT
        ):
            raise self.fail(
                where,
                f"{what} must be an integer from {minimum} to {limits.MAX_AMOUNT:,}, "
                f"not {limits.shown(value)}",
            )
        return value

    def by_players(self, where: str, table: Mapping[Any, Any]) -> tuple[tuple[int, int], ...]:
        """A number of trains by the number of players (``{"3": 7, "4": 8}``), in order."""
        rows: list[tuple[int, int]] = []
        for players, count in table.items():
            text = str(players)
            if not text.isdigit() or not 1 <= int(text) <= limits.MAX_PLAYERS:
                raise self.fail(where, f"num: {players!r} is not a number of players")
            if any(n == int(text) for n, _ in rows):
                raise self.fail(where, f"num: {players!r} players given twice")
            rows.append((int(text), self.integer(where, count, "num", minimum=0)))
        if not rows:
            raise self.fail(where, "num: an empty table of numbers by players")
        return tuple(sorted(rows))

    def text(self, where: str, value: object, what: str) -> str:
        if not isinstance(value, str | int) or isinstance(value, bool) or value == "":
            raise self.fail(where, f"{what} must be a name, not {limits.shown(value)}")
        return str(value)

    def names(self, where: str, value: object, what: str) -> tuple[str, ...]:
        if isinstance(value, list | tuple):
            return tuple(self.text(where, v, what) for v in value)
        return (self.text(where, value, what),)

    def side(self, where: str, entry: Mapping[str, Any], category: str) -> TrainType:
        name = self.text(where, entry.get("name"), "name")
        if "price" not in entry:
            raise self.fail(where, "train has no price")
        price = self.integer(where, entry["price"], "price")
        major, minor, visits, reach, towns_score, rows = self.distance(where, entry.get("distance"))
        multiplier = entry.get("multiplier", 1)
        if multiplier is None:
            multiplier = 1
        multiplier = self.integer(where, multiplier, "multiplier")
        discounts: list[tuple[str, int]] = []
        raw = entry.get("discount") or {}
        if not isinstance(raw, Mapping):
            raise self.fail(where, f"discount must be a table of train: amount, not {raw!r}")
        for other, amount in raw.items():
            discounts.append((str(other), self.integer(where, amount, f"discount for {other}")))
        exchange = None
        if discounts and len({amount for _, amount in discounts}) == 1:
            exchange = price - discounts[0][1]
        score = Score(CityScore.DOUBLE if multiplier == 2 else CityScore.SINGLE, towns_score)
        return TrainType(
            name,
            price,
            major,
            minor,
            exchange,
            reach,
            score,
            visits,
            tuple(discounts),
            allowances=rows,
            multiplier=multiplier,
            category=category,
            track=str(entry.get("track_type") or "broad"),
            requires_token=entry.get("requires_token") is not False,
        )

    def distance(
        self, where: str, distance: object
    ) -> tuple[int, int, int | None, Reach, bool, tuple[StopAllowance, ...]]:
        """Major stops, minor stops, visit limit, reach, whether towns score, and the rows."""
        if isinstance(distance, int) and not isinstance(distance, bool):
            stops = self.integer(where, distance, "distance")
            # distance 0: a train that does not run (a Pullman, an add-on like 18KA's +1)
            return stops if stops else -1, 0, None, Reach(), True, ()
        if not isinstance(distance, list) or not distance:
            raise self.fail(where, f"distance must be a number or a list, not {distance!r}")
        major = minor = visits = 0
        town_kind: str | None = None
        towns_score = False
        rows: list[StopAllowance] = []
        for part in distance:
            if not isinstance(part, Mapping):
                raise self.fail(where, f"distance entry must be a table, not {part!r}")
            self.warn_unknown(
                where + " distance", part, frozenset({"nodes", "pay", "visit", "multiplier"})
            )
            kinds = self.names(where, part.get("nodes"), "distance nodes")
            nodes = set(kinds)
            unknown = nodes - _MAJOR_NODES - _MINOR_NODES
            if unknown:
                raise self.fail(where, f"unknown distance node kind {sorted(unknown)[0]!r}")
            pay = self.integer(where, part.get("pay"), "distance pay")
            visit = self.integer(where, part.get("visit", pay), "distance visit")
            row_multiplier = part.get("multiplier")
            if row_multiplier is not None:
                row_multiplier = self.integer(where, row_multiplier, "distance multiplier")
            rows.append(StopAllowance(tuple(kinds), pay, visit, row_multiplier))
            visits += visit
            if nodes & _MINOR_NODES and pay and row_multiplier != 0:
                towns_score = True
            if nodes & _MAJOR_NODES:
                major += pay
                if nodes & _MINOR_NODES:
                    town_kind = "major"
            elif pay:
                minor += pay
                town_kind = "minor"
        if major == 0 and minor == 0:
            raise self.fail(where, "distance has no stops that pay")
        counting = {"major": TownCounting.MAJOR, "minor": TownCounting.YES}.get(
            town_kind or "", TownCounting.NO
        )
        pays = sum(r.pay for r in rows)
        max_visits = visits if visits != pays else None
        return major, minor, max_visits, Reach(count_towns=counting), towns_score, tuple(rows)


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
    ones; a ``visit`` larger than ``pay`` is kept as ``max_visits``, and the rows themselves
    as the side's ``allowances``; ``distance`` 0 is a train that does not run (a Pullman);
    ``multiplier`` (any whole number) is kept as the side's. ``num: "unlimited"`` is
    -1; ``num`` may be a table by the number of players (``{"3": 7, "4": 8, "5": 9}``: 1846's
    2-trains, :attr:`~tilelay.trains.TrainCardType.quantity_by_players`); a train without
    ``num`` takes its number from ``quantities`` (18xx.games computes some in code) or is an
    error. ``variants`` become the second side of a dual card named ``"side1/side2"``.
    ``rusts_on`` (a name or a list) / ``available_on`` name the train whose first purchase
    rusts / releases this one: put on the phase that train starts if it alone starts it, else
    on that train's card type; an ``available_on`` naming a phase is kept as the card's
    ``available_from``. A phase's ``on`` names trains (or a
    variant, or ``NAME-N``: train number N of a type, from 0); an empty ``on`` starts nothing.
    A name that is no train is a warning (the engine ignores it too). ``discount`` is kept per
    side, and gives ``exchange_cost`` when all amounts are equal. Unknown keys give warnings in
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
        category = str(entry.get("category") or "passenger")
        sides = [data.side(where, entry, category)]
        for vindex, variant in enumerate(entry.get("variants") or []):
            vwhere = f"{where}.variants[{vindex}]"
            if not isinstance(variant, Mapping):
                raise data.fail(vwhere, f"a variant must be a table, not {variant!r}")
            data.warn_unknown(vwhere, variant, _VARIANT_KEYS | {"category"})
            merged = {
                "distance": entry.get("distance"),
                "multiplier": None,
                "track_type": entry.get("track_type"),
                "requires_token": entry.get("requires_token"),
                **variant,
            }
            vcategory = str(variant.get("category") or category)
            sides.append(data.side(vwhere, merged, vcategory))
        name = "/".join(side.name for side in sides)
        by_players: tuple[tuple[int, int], ...] = ()
        if "num" in entry and isinstance(entry["num"], Mapping):
            # a number by the number of players: {"3": 7, "4": 8, "5": 9}
            by_players = data.by_players(where, entry["num"])
            quantity = by_players[-1][1]
        elif "num" in entry:
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
        for event in entry.get("events") or []:
            if not isinstance(event, Mapping) or "type" not in event:
                raise data.fail(where, f"an event must be a table with a type, not {event!r}")
            data.warn_unknown(where + " event", event, frozenset({"type", "when"}))
            events.append(str(event["type"]))
        for key in ("rusts_on", "available_on", "obsolete_on"):
            if entry.get(key) is not None:
                for train in data.names(where, entry[key], key):
                    pending.append((name, key, train, where))
        cards.append(
            TrainCardType(
                name,
                quantity,
                tuple(sides),
                category=category,
                events=tuple(events),
                quantity_by_players=by_players,
            )
        )

    def side_of(i: int, train: str) -> str | None:
        """The side of card ``i`` that ``train`` names where the engine's phase change asks
        for that side only: a side other than the card's first (the engine's phases follow
        a train's first name, its ``sym``; a game that starts a phase by a variant, as
        1822's 2 of its L/2, does so by that variant alone)."""
        names = [side.name for side in cards[i].sides]
        base = train if train in names else train.rpartition("-")[0]
        if len(names) > 1 and base in names[1:]:
            return base
        return None

    def card_index(train: str) -> tuple[int, int] | None:
        """The card named ``train`` (or one of its sides; ``NAME-N`` names the card's train
        number N, counted from 0 as 18xx.games numbers trains) and the 1-based train index."""
        for i, card in enumerate(cards):
            if card.name == train or any(side.name == train for side in card.sides):
                return i, 1
        base, sep, number = train.rpartition("-")
        if sep and number.isdigit():
            found = card_index(base)
            if found is not None:
                return found[0], int(number) + 1
        return None

    def unknown(where: str, key: str, train: str) -> None:
        data.warnings.append(
            ReadWarning(f"{where}: {key} names unknown train {train!r} (ignored)", source)
        )

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
        on = entry.get("on")
        if on in (None, "", []):
            continue  # the first phase, or a phase nothing starts
        for train in data.names(where, on, "on"):
            found = card_index(train)
            if found is None:
                unknown(where, "on", train)
                continue
            i, number = found
            new = NewPhase(name, number, side_of(i, train))
            cards[i] = replace(cards[i], new_phases=(*cards[i].new_phases, new))
            if number == 1:
                phase_of_train.setdefault(cards[i].name, len(phase_list) - 1)

    phase_names = {p.name for p in phase_list}
    #: the card types whose first train starts each phase, by its name
    starters: dict[str, set[str]] = {}
    for card in cards:
        for new in card.new_phases:
            if new.train_index == 1:
                starters.setdefault(new.phase, set()).add(card.name)
    for card_name, key, train, where in pending:
        found = card_index(train)
        if key == "available_on" and train in phase_names and found is None:
            i = next(j for j, c in enumerate(cards) if c.name == card_name)
            cards[i] = replace(cards[i], available_from=train)
            continue
        if found is None:
            unknown(where, key, train)
            continue
        trigger = cards[found[0]].name
        if key == "obsolete_on":
            i = next(j for j, c in enumerate(cards) if c.name == card_name)
            cards[i] = replace(cards[i], obsolete_on=trigger)
            continue
        rusts = key == "rusts_on"
        started = phase_of_train.get(trigger)
        if started is not None and starters[phase_list[started].name] == {trigger}:
            # (on the phase only where that train alone starts it: 18CO's 5-trains rust when
            # an E is bought, not the 5D that starts the same phase)
            p = started
            phase = phase_list[p]
            if rusts:
                phase_list[p] = replace(phase, rusts=(*phase.rusts, card_name))
            else:
                phase_list[p] = replace(phase, releases=(*phase.releases, card_name))
        else:
            i = found[0]
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
        "multiplier": side.multiplier,
        "category": side.category,
        "distance": [
            {
                "nodes": list(row.kinds),
                "pay": row.pay,
                "visit": row.visit,
                **({} if row.multiplier is None else {"multiplier": row.multiplier}),
            }
            for row in side.allowances
        ],
    }


def manager_to_dict(manager: TrainManager) -> dict[str, Any]:
    """The train manager as plain JSON-ready data (unlimited stops and quantities as None)."""
    return {
        "source": manager.source,
        "trains": [
            {
                "name": card.name,
                "quantity": None if card.unlimited else card.quantity,
                "quantity_by_players": {str(n): q for n, q in card.quantity_by_players},
                "initial_portfolio": card.initial_portfolio,
                "category": card.category,
                "obsoleting": card.obsoleting,
                "obsolete_on": card.obsolete_on,
                "sides": [_side_dict(side) for side in card.sides],
                "new_phases": [
                    {"phase": n.phase, "train_index": n.train_index}
                    | ({} if n.side is None else {"side": n.side})
                    for n in card.new_phases
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


# --- the model as 18xx.games data ----------------------------------------------------------------


def engine_distance(side: TrainType) -> int | list[dict[str, Any]]:
    """A train's length as 18xx.games writes it: a number when towns count as cities and
    everything scores once, else ``{nodes, pay, visit}`` rows (999: unlimited).

    >>> engine_distance(TrainType("4", 300, 4))
    4
    >>> engine_distance(TrainType("2+2", 100, 2, minor_stops=2))[1]
    {'nodes': ['town'], 'pay': 2, 'visit': 2}
    """
    if side.allowances:
        return [
            {
                "nodes": list(row.kinds),
                "pay": row.pay,
                "visit": row.visit,
                **({} if row.multiplier is None else {"multiplier": row.multiplier}),
            }
            for row in side.allowances
        ]
    major = 999 if side.max_major_stops is None else side.max_major_stops
    if not side.runs:
        return 0
    kind = side.town_stop_kind
    if kind == "major" and side.towns_score:
        return major
    visit = major if side.max_visits is None else side.max_visits
    rows: list[dict[str, Any]] = [
        {
            "nodes": ["city", "offboard"]
            if kind == "minor" or kind is None
            else ["city", "offboard", "town"],
            "pay": major,
            "visit": visit,
        }
    ]
    if kind == "minor":
        minor = 999 if side.max_minor_stops is None else side.max_minor_stops
        rows.append({"nodes": ["town"], "pay": minor, "visit": minor})
    elif kind is None:
        rows.append({"nodes": ["town"], "pay": 999 if side.towns_score else 0, "visit": 999})
    return rows


def _side_data(side: TrainType) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": side.name,
        "distance": engine_distance(side),
        "price": side.cost,
    }
    if side.multiplier != 1:
        out["multiplier"] = side.multiplier
    elif side.cities_score_double:
        out["multiplier"] = 2
    if side.category != "passenger":
        out["category"] = side.category
    if side.discounts:
        out["discount"] = dict(side.discounts)
    return out


def manager_to_game_data(
    manager: TrainManager,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The trains and phases of ``manager`` in the 18xx.games shape that
    :func:`trains_from_game_data` reads (for games read from Rails or GE18XX, whose trains
    come as a model): each card type with its first side, the others as variants, its count,
    the train whose purchase rusts it; each phase with the train that starts it."""
    first = {card.name: card.sides[0].name for card in manager.card_types}
    trains: list[dict[str, Any]] = []
    for card in manager.card_types:
        entry = _side_data(card.sides[0])
        entry["num"] = (
            {str(n): q for n, q in card.quantity_by_players}
            if card.quantity_by_players
            else "unlimited"
            if card.unlimited
            else card.quantity
        )
        rusted_by = manager.rusted_by(card.name)
        if rusted_by is not None:
            entry["rusts_on"] = first.get(rusted_by, rusted_by)
        if card.obsolete_on is not None:
            entry["obsolete_on"] = first.get(card.obsolete_on, card.obsolete_on)
        if card.available_from is not None:
            entry["available_on"] = card.available_from
        if card.category != "passenger":
            entry["category"] = card.category
        if len(card.sides) > 1:
            entry["variants"] = [_side_data(side) for side in card.sides[1:]]
        trains.append(entry)
    phases: list[dict[str, Any]] = []
    for phase in manager.phases:
        p: dict[str, Any] = {"name": phase.name}
        trigger = manager.trigger_of(phase.name)
        if trigger is not None:
            name, index = trigger
            side = next(
                (n.side for n in manager.card_type(name).new_phases if n.phase == phase.name),
                None,
            )
            shown = side or first.get(name, name)
            p["on"] = shown if index == 1 else f"{shown}-{index - 1}"
        if phase.tiles:
            p["tiles"] = list(phase.tiles)
        if phase.train_limit is not None:
            p["train_limit"] = phase.train_limit
        elif phase.train_limits:
            p["train_limit"] = dict(phase.train_limits)
        if phase.operating_rounds >= 1:  # Rails writes -1 where a game decides in play (1880)
            p["operating_rounds"] = phase.operating_rounds
        phases.append(p)
    return trains, phases

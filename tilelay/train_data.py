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
    TownCounting,
    TrainCardType,
    TrainManager,
    TrainType,
)

__all__ = ["manager_to_dict", "trains_from_game_data"]

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

    def text(self, where: str, value: object, what: str) -> str:
        if not isinstance(value, str | int) or isinstance(value, bool) or value == "":
            raise self.fail(where, f"{what} must be a name, not {limits.shown(value)}")
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
            elif pay:
                minor += pay
                town_kind = "minor"
            # towns visited but paid nothing ({nodes: [town], pay: 0, visit: 99}, 18Scan's
            # 5E): they neither count against the length nor score
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
    dual card named ``"side1/side2"``. ``rusts_on`` names the train whose first purchase rusts
    this one: put on the phase that train starts if there is one, else on that train's card
    type. ``available_on`` names the phase that releases this one (as the engine reads it), or,
    if no phase has that name, a train as ``rusts_on`` does. ``discount`` is kept per side, and
    gives ``exchange_cost`` when all amounts are equal. Unknown keys give warnings in
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

    phase_index = {phase.name: i for i, phase in enumerate(phase_list)}
    for card_name, key, train, where in pending:
        if key == "available_on" and train in phase_index:
            # the engine makes a train available when the phase of that name starts
            # (Phase#available?), e.g. 1880's 2R in phase C2, which no train starts
            p = phase_index[train]
            phase = phase_list[p]
            phase_list[p] = replace(phase, releases=(*phase.releases, card_name))
            continue
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

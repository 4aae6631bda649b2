"""18EU: the red-to-red bonus, pullmans, and minors merging into corporations (18xx.games'
``G18EU::Game#revenue_for``, ``#check_overlap``, and its ``MinorExchange``, ``HomeToken``,
``ReplaceToken`` and ``FinalExchange`` steps).

* A route from a red hex to a red hex earns, besides its stops, a bonus for each city with
  the corporation's token it scores (per phase: 10 in phases 3 and 4, 20 in 5 and 6, 30 in
  8), at most the phase's cap (10, 10, 80, 80, 150).
* A route may not stop at two cities of one hex (Paris, Vienna, Berlin).
* A pullman (the P train) runs no route of its own: it earns the revenue of one city or
  off-board another route of the run visits (not alone, needing no track of its own), so the
  run earns the best such stop besides its routes: as 18xx.games' ``check_overlap`` says
  ("Pullman must reuse another route's city or off-board"), as Rails' ``PullmanRevenueModifier``
  rates it (the best major stop of the run) and as the engine of 2022 took the shared 18EU
  record's pullmans at London (A10, an off-board). The engine of today offers a pullman's one
  stop only among the cities with the corporation's token (its ``Route#connection_data`` for a
  one-stop route): its limit, not the game's rule. A holder left with no other train, or with
  more trains than its limit (a minor's: 2 to phase 3, then 1), must discard it, whenever
  trains are bought or change hands.

* A minor belongs to the player who won its auction (the last ``bid`` naming it); a
  corporation's president is the player who started it (``par``).
* A corporation's home token placed in the city of a minor its president owns takes that
  minor's place: the minor merges into it (its trains go to the corporation) and closes.
* A minor exchanged for a corporation's share (``buy_shares`` by the minor) merges into that
  corporation: its trains go to it, its token leaves the board (the corporation may put one
  of its own in its place: the record's next ``place_token``) and it closes. (18xx.games sends
  the trains to the depot instead when the share comes from the pool, which replay does not
  tell apart: it is the exception.)
* After the ``minor_exchange`` event, the stock round's final exchange closes every minor
  left (tokens gone, trains to the depot): replay closes them when the next operating round
  begins (no run comes between).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from tilelay.route_rules import CITY, OFFBOARD, TrainSpec
from tilelay.rules import (
    GameRules,
    GameState,
    RouteContext,
    RouteView,
    follow_rounds,
    register,
)
from tilelay.tile import Color
from tilelay.trains import TrainType

__all__ = ["G18EU"]

#: The stops a pullman may earn: a city or an off-board another route visits.
_PULLMAN_STOPS = frozenset((CITY, OFFBOARD))


@register
class G18EU(GameRules):
    """The rules of 18EU that replay asks about."""

    names = ("18EU",)
    route_hooks = True
    run_hooks = True
    stops_rated = True
    bonus_monotone = True
    #: the red-to-red bonus per phase: per token scored, at most
    red_to_red: ClassVar[Mapping[str, tuple[int, int]]] = {
        "2": (0, 0),
        "3": (10, 10),
        "4": (10, 10),
        "5": (20, 80),
        "6": (20, 80),
        "8": (30, 150),
    }
    pullman: ClassVar[str] = "P"

    # ------------------------------------------------------------------ routes

    def train_spec(self, train: TrainType, ctx: RouteContext | None = None) -> TrainSpec:
        if train.name == self.pullman:
            # no route of its own: see run_revenue
            return TrainSpec(train.name, (), (0, 0, 0), runs=False)
        return super().train_spec(train, ctx)

    def route_allowed(self, view: RouteView) -> bool:
        ctx = view.ctx
        classes = ctx.classes
        coords = ctx.coords
        hexes = [coords[n] for n in view.stops if classes[n] == CITY]
        return len(hexes) == len(set(hexes))

    def route_bonus(self, view: RouteView) -> int:
        paid = view.paid
        if len(paid) < 2:
            return 0
        ctx = view.ctx
        if ctx.tile(paid[0]).color != Color.RED or ctx.tile(paid[-1]).color != Color.RED:
            return 0
        per_token, most = self.red_to_red.get(ctx.phase.name, (0, 0))
        tokened = sum(1 for n in paid if ctx.classes[n] == CITY and ctx.tokened[n])
        return min(per_token * tokened, most)

    def route_bound(self, ctx: RouteContext, spec: TrainSpec) -> tuple[list[int], int]:
        return ctx.values(spec), self.red_to_red.get(ctx.phase.name, (0, 0))[1]

    def _pullmans(self, ctx: RouteContext) -> bool:
        return self.pullman in ctx.facts.trains.get(ctx.corporation, ())

    def run_applies(self, ctx: RouteContext, trains: int) -> bool:
        return self._pullmans(ctx)

    def run_revenue(self, views: Sequence[RouteView], total: int) -> int:
        ctx = views[0].ctx
        if not self._pullmans(ctx):
            return total
        spec = views[0].spec
        classes = ctx.classes
        best = max(
            (
                ctx.base_value(n, spec)
                for v in views
                for n in v.stops
                if classes[n] in _PULLMAN_STOPS
            ),
            default=0,
        )
        return total + best

    def rider_revenue(
        self, ctx: RouteContext, train: str, stops: Sequence[int], hexes: Sequence[str]
    ) -> int | None:
        if train != self.pullman:
            return None
        spec = TrainSpec(self.pullman, (), (1, 1, 1))
        named = set(hexes)
        return max(
            (
                ctx.base_value(n, spec)
                for n in stops
                if ctx.coords[n] in named and ctx.classes[n] in _PULLMAN_STOPS
            ),
            default=None,
        )

    def run_bonus_bound(self, ctx: RouteContext) -> int:
        if not self._pullmans(ctx):
            return 0
        spec = TrainSpec(self.pullman, (), (1, 1, 1))
        return max(
            (ctx.base_value(n, spec) for n, k in enumerate(ctx.classes) if k in _PULLMAN_STOPS),
            default=0,
        )

    # ------------------------------------------------------------------ replay

    def before_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        extra = state.extra
        kind = action.get("type")
        entity = action.get("entity")
        new_round = not extra.get("operating")
        over = follow_rounds(state, action).round_over
        if over and extra.get("exchange") == "triggered":
            extra["exchange"] = "due"
        if extra.get("operating") and (new_round or over) and extra.get("exchange") == "due":
            extra["exchange"] = "done"
            for minor in self._minors(state):
                self.close(state, minor, None)
        if action.get("entity_type") == "player":
            if kind == "bid" and isinstance(action.get("minor"), str):
                extra["owners"] = {**extra.get("owners", {}), action["minor"]: entity}
            elif kind == "par" and isinstance(action.get("corporation"), str):
                extra["presidents"] = {**extra.get("presidents", {}), action["corporation"]: entity}
        elif kind == "buy_shares" and action.get("entity_type") == "minor":
            shares = action.get("shares")
            if isinstance(entity, str) and isinstance(shares, list) and shares:
                corporation = str(shares[0]).rpartition("_")[0]
                if corporation in {c.sym for c in state.game.corporations}:
                    self.close(state, entity, corporation)
        elif kind == "place_token" and isinstance(entity, str):
            self.home(state, action, entity)

    def after_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        if action.get("type") == "buy_train":
            self.discard_pullmans(state)

    def discard_pullmans(self, state: GameState) -> None:
        """Holders of a pullman with no other train, or above their limit, discard it."""
        kinds = {c.sym: c.kind for c in state.game.corporations}
        phase = state.phase
        for holder, trains in state.trains.items():
            pullmans = [t for t, name in trains.items() if name == self.pullman]
            if not pullmans:
                continue
            if kinds.get(holder) == "minor":
                limit = 1 if phase.name.isdigit() and int(phase.name) > 3 else 2
            else:
                limit = dict(phase.train_limits).get(kinds.get(holder, ""), phase.train_limit or 99)
            if not 1 < len(trains) <= limit:
                del trains[pullmans[0]]

    def event(self, state: GameState, kind: str, action: Mapping[str, Any]) -> None:
        if kind == "minor_exchange":
            state.extra["exchange"] = "triggered"

    def home(self, state: GameState, action: Mapping[str, Any], corporation: str) -> None:
        """A corporation's first token, in the city of a minor its president owns: the minor
        merges into it."""
        board = state.board
        if board.tokens_of(corporation):
            return
        president = state.extra.get("presidents", {}).get(corporation)
        city = action.get("city")
        if president is None or not isinstance(city, str):
            return
        where = state.city_of(action, city)
        owners = state.extra.get("owners", {})
        for minor in self._minors(state):
            if owners.get(minor) == president and where in board.tokens_of(minor):
                self.close(state, minor, corporation)
                return

    @staticmethod
    def _minors(state: GameState) -> list[str]:
        return [c.sym for c in state.game.corporations if c.kind == "minor"]

    def close(self, state: GameState, minor: str, into: str | None) -> None:
        """``minor`` closes: its tokens leave the board, its trains go to ``into`` (None: the
        depot)."""
        board = state.board
        for coord, city in board.tokens_of(minor):
            board = board.remove_token(coord, city, minor)
        state.board = board
        trains = state.trains.pop(minor, {})
        if into is not None and trains:
            state.trains.setdefault(into, {}).update(trains)
            self.discard_pullmans(state)

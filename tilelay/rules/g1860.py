"""1860: halts, trains whose spare city stops serve towns, and no hex entered twice
(18xx.games' ``G1860::Game#check_distance``, ``#compute_stops``, ``#check_other``).

* A train ``n+m`` visits at most ``n`` cities and offboards, and any number of towns and
  halts; it scores every city and offboard it visits, and of its towns the best
  ``m + n - cities`` (the city stops it leaves unused serve towns). Halts earn no revenue
  (the halt subsidy is paid to the corporation, not as route revenue), so they only ever fill
  what is left.
* A route may not begin or end at a halt, nor enter a hex again after leaving it (unless
  the record's optional rule ``re_enter_hexes``).
* A route may pass through one city that other corporations' tokens fill (a tokened-out
  city: it scores as any city), and only one route of a run may (18xx.games'
  ``G1860::Game#check_connected``).
* An insolvent corporation runs the depot's cheapest train, leased (the record's run names
  a train still in the depot; it goes back after the run): a route earns 40 and 20 per stop,
  its stops its cities and offboards and as many towns, then halts, as its city allowance
  leaves room for (``40 + 20 × stops``: 18xx.games' new insolvency rules, its default).
* A run must have a route through the corporation's home city (its token there), and its
  routes must be joined to each other by the stops they share (18xx.games'
  ``check_home_token`` and ``check_intersection``).
* When the 9+5 is bought the Southern forms; from the stock round after it halts are ignored
  (a leased train counts none). Nationalization begins at the first round's end after it at
  which every corporation that has operated holds a train (18xx.games leaves out those in
  receivership, which replay does not follow); from then on a train's towns have only its
  spare city stops (``n - cities``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from tilelay.route_rules import CITY, TOWN, TrainSpec, WalkRules
from tilelay.rules import GameRules, GameState, RouteContext, RouteView, follow_rounds, register
from tilelay.trains import TrainType

__all__ = ["G1860"]

#: What a run that breaks a whole-run rule earns (less than any legal run, running nothing).
_ILLEGAL = -(1 << 40)


@register
class G1860(GameRules):
    """The rules of 1860 that routes ask about."""

    names = ("1860",)
    halts = True
    route_hooks = True
    run_hooks = True
    stops_rated = True
    #: whether a route may pass through a tokened-out city (once a run)
    bypass: ClassVar[bool] = True

    # ------------------------------------------------------------------ replay

    def before_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        extra = state.extra
        turn = follow_rounds(state, action)
        if extra.get("southern") and action.get("entity_type") == "player":
            extra["halts_ignored"] = True
        if (
            turn.round_over
            and extra.get("southern")
            and not extra.get("nationalization")
            and all(state.trains.get(c) for c in state.started)
        ):
            extra["nationalization"] = True
        if action.get("type") == "run_routes":
            self.lease(state, action)

    def lease(self, state: GameState, action: Mapping[str, Any]) -> None:
        """A run of a train nobody holds that is still in the depot: the insolvent
        corporation leases it for the run."""
        corp = action.get("entity")
        routes = action.get("routes")
        if not isinstance(corp, str) or not isinstance(routes, list):
            return
        held = {t for trains in state.trains.values() for t in trains}
        for route in routes:
            train = route.get("train") if isinstance(route, Mapping) else None
            if (
                isinstance(train, str)
                and train not in held
                and state.depot_ahead(train) is not None
            ):
                name = train.rpartition("-")[0] or train
                state.trains.setdefault(corp, {})[train] = name
                state.extra["leased"] = (corp, train)
                return

    def after_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        leased = state.extra.pop("leased", None)
        if leased is not None:
            corp, train = leased
            state.trains.get(corp, {}).pop(train, None)
            state.operated.pop(train, None)

    def event(self, state: GameState, kind: str, action: Mapping[str, Any]) -> None:
        if kind == "southern_forms":
            state.extra["southern"] = True

    # ------------------------------------------------------------------ routes

    def train_spec(self, train: TrainType, ctx: RouteContext | None = None) -> TrainSpec:
        spec = super().train_spec(train, ctx)
        if ctx is None or not (self._leased(ctx) or ctx.facts.extra.get("nationalization")):
            return spec
        # a leased train, and every train from nationalization on: towns only fill the city
        # stops a route leaves unused (the town row pays for none of its own)
        rows = tuple(replace(r, pay=0) if r.classes >> TOWN & 1 else r for r in spec.rows)
        return replace(spec, rows=rows)

    def passable(self, ctx: RouteContext, node: int) -> bool:
        # a tokened-out city may be passed (once a route: see walk_rules)
        return (self.bypass and ctx.classes[node] == CITY) or super().passable(ctx, node)

    def _bypasses(self, view: RouteView) -> int:
        """How many tokened-out cities the route passes through."""
        ctx = view.ctx
        base = super().passable
        return sum(1 for n in view.stops[1:-1] if not base(ctx, n))

    def walk_rules(self, ctx: RouteContext) -> WalkRules:
        # no route begins or ends at a halt, passes two tokened-out cities, or enters a hex
        # again (the walk applies these)
        nodes = ctx.nodes
        base = super().passable
        classes = ctx.classes
        return WalkRules(
            no_ends=frozenset(n for n, node in enumerate(nodes) if node.halt),
            pass_once=frozenset(
                n for n, c in enumerate(classes) if self.bypass and c == CITY and not base(ctx, n)
            ),
            distinct_hexes="re_enter_hexes" not in ctx.facts.optional_rules,
        )

    def run_revenue(self, views: Sequence[RouteView], total: int) -> int:
        ctx = views[0].ctx
        home = ctx.game.corporation(ctx.corporation).home
        coords = ctx.coords
        homes = {n for n, mine in enumerate(ctx.tokened) if mine and coords[n] == home}
        stops = [set(v.stops) for v in views]
        if not any(homes & s for s in stops):
            return _ILLEGAL
        if sum(1 for v in views if self._bypasses(v)) > 1:
            return _ILLEGAL
        # every route reached from the first through shared stops
        reached = [stops[0]]
        left = stops[1:]
        while left:
            joined = [s for s in left if any(s & r for r in reached)]
            if not joined:
                return _ILLEGAL
            reached += joined
            left = [s for s in left if not any(s is j for j in joined)]
        return total

    @staticmethod
    def _leased(ctx: RouteContext) -> bool:
        """Whether the corporation runs a leased train (it then has no other)."""
        leased = ctx.facts.extra.get("leased")
        return leased is not None and leased[0] == ctx.corporation

    def paid_stops(self, view: RouteView) -> tuple[int, tuple[int, ...]] | None:
        ctx = view.ctx
        spec = view.spec
        classes = ctx.classes
        nodes = ctx.nodes
        major = next((r for r in spec.rows if not r.classes >> TOWN & 1), None)
        minor = next((r for r in spec.rows if r.classes >> TOWN & 1), None)
        if major is None or minor is None:
            return None
        extra = ctx.facts.extra
        leased = self._leased(ctx)
        majors = [n for n in view.stops if classes[n] != TOWN]
        towns = [n for n in view.stops if classes[n] == TOWN and not nodes[n].halt]
        # the town row pays for none for a leased train and from nationalization on
        # (train_spec): then towns have only the spare city stops
        spare = max(minor.pay + major.pay - len(majors), 0)
        if leased:
            # every stop earns the same: as many as there is room for, towns before halts
            halts = [] if extra.get("halts_ignored") else [n for n in view.stops if nodes[n].halt]
            chosen = set((towns + halts)[:spare])
            paid = tuple(n for n in view.stops if n in chosen or classes[n] != TOWN)
            return 40 + 20 * len(paid), paid
        values = ctx.values(spec)
        best = set(sorted(towns, key=lambda n: -values[n])[:spare])
        paid = tuple(n for n in view.stops if n in best or classes[n] != TOWN)
        return sum(values[n] for n in paid), paid

    def route_bound(self, ctx: RouteContext, spec: TrainSpec) -> tuple[list[int], int]:
        if self._leased(ctx):
            # 40, and 20 a stop
            return [20 if c >= 0 else 0 for c in ctx.classes], 40
        # every route earns at most its stops' values
        return ctx.values(spec), 0

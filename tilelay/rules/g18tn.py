"""18TN: the Civil War.

The first 3' train bought gives every corporation that has trains (and the buyer) a Civil War
token; at its next run a corporation that runs all its trains loses the revenue of the one
that earns least (18xx.games' ``G18TN::Game#routes_revenue``), and the token goes with that
run (its payout, which the record leaves out when withholding is the only choice).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tilelay.rules import GameRules, GameState, RouteContext, RouteView, register

__all__ = ["G18TN"]

_KEY = "civil_war"


@register
class G18TN(GameRules):
    """The rules of 18TN that routes and replay ask about."""

    names = ("18TN",)
    run_hooks = True
    stops_rated = True

    def event(self, state: GameState, kind: str, action: Mapping[str, Any]) -> None:
        if kind != "civil_war":
            return
        buyer = str(action.get("entity"))
        held = {c for c, trains in state.trains.items() if trains}
        state.extra[_KEY] = frozenset({buyer, *held})

    def after_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        if action.get("type") in ("run_routes", "dividend"):
            tokens = state.extra.get(_KEY)
            corp = str(action.get("entity"))
            if tokens and corp in tokens:
                state.extra[_KEY] = frozenset(tokens - {corp})

    def run_revenue(self, views: Sequence[RouteView], total: int) -> int:
        ctx = views[0].ctx
        if ctx.corporation not in ctx.facts.extra.get(_KEY, ()):
            return total
        if len(views) < len(ctx.facts.trains.get(ctx.corporation, ())):
            return total
        return total - min(v.total for v in views)

    def run_bonus_bound(self, ctx: RouteContext) -> int:
        return 0

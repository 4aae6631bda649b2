"""1836Jr30: ports.

A route to a port (a stop in the group ``port``) must have two other stops; the port pays its
revenue once for each city on the route holding the corporation's token, instead of once
(18xx.games' ``G1836Jr30::Game#revenue_for``).
"""

from __future__ import annotations

from tilelay.route_rules import CITY, TrainSpec
from tilelay.rules import GameRules, RouteContext, RouteView, register

__all__ = ["G1836Jr30"]


def _port(view: RouteView) -> int | None:
    nodes = view.ctx.nodes
    return next((n for n in view.paid if "port" in nodes[n].groups), None)


@register
class G1836Jr30(GameRules):
    """The rules of 1836Jr30 that routes ask about."""

    names = ("1836Jr30", "1836Jr56")
    route_hooks = True
    stops_rated = True

    def scored_allowed(self, view: RouteView) -> bool:
        return _port(view) is None or len(view.paid) >= 3

    def route_bound(self, ctx: RouteContext, spec: TrainSpec) -> tuple[list[int], int]:
        # a port pays once per tokened city of the route: at most once per token city
        tokens = sum(1 for n, held in enumerate(ctx.tokened) if held and ctx.classes[n] == CITY)
        out = list(ctx.values(spec))
        for n, node in enumerate(ctx.nodes):
            if "port" in node.groups:
                out[n] *= max(tokens, 1)
        return out, 0

    def route_bonus(self, view: RouteView) -> int:
        port = _port(view)
        if port is None:
            return 0
        ctx = view.ctx
        per_token = ctx.values(view.spec)[port]
        tokened = sum(1 for n in view.paid if ctx.classes[n] == CITY and ctx.tokened[n])
        return per_token * (tokened - 1)

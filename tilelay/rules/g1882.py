"""1882: the CN's neutral tokens, and the bonus for running east to west.

Neutral tokens belong to the CN (they block nobody). A route from an eastern offboard (I1,
B2) to Hudson Bay (B12) earns 100 more (18xx.games' ``G1882::Game#revenue_for``).
"""

from __future__ import annotations

from tilelay.route_rules import TrainSpec
from tilelay.rules import GameRules, RouteContext, RouteView, register

__all__ = ["G1882"]

EAST = frozenset({"I1", "B2"})
WEST = "B12"


@register
class G1882(GameRules):
    """The rules of 1882 that routes ask about."""

    names = ("1882",)
    neutral_owner = "CN"
    route_hooks = True
    stops_rated = True

    def route_bound(self, ctx: RouteContext, spec: TrainSpec) -> tuple[list[int], int]:
        # the bonus needs Hudson Bay scored
        return ctx.bound_with(spec, {WEST: 100}), 0

    def route_bonus(self, view: RouteView) -> int:
        coords = view.ctx.coords
        hexes = {coords[n] for n in view.paid}
        return 100 if hexes & EAST and WEST in hexes else 0

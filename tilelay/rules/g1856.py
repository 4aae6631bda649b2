"""1856: the port, and the tunnel and bridge rights.

A corporation to which the Great Lakes Shipping Company is assigned earns 20 more on a route
to the hex the port marker is on; a corporation with the tunnel (Sarnia, B13) or bridge
(Buffalo, P17 and P19) right earns 10 more per such hex on a route (18xx.games'
``G1856::Game#revenue_for``). A right comes with buying the Sarnia tunnel or Niagara Falls
bridge company, or with buying a tunnel or bridge token (``special_buy``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tilelay.route_rules import TrainSpec
from tilelay.rules import GameRules, GameState, RouteContext, RouteView, register

__all__ = ["G1856"]

PORT = "GLSC"
TUNNEL = ("SCFTC", ("B13",))
BRIDGE = ("NFSBC", ("P17", "P19"))
RIGHT_BONUS = 10
PORT_BONUS = 20
_KEY = "hex_bonus"


def _grant(state: GameState, corporation: str, hexes: tuple[str, ...]) -> None:
    rights = dict(state.extra.get(_KEY, {}))
    rights[corporation] = tuple(sorted({*rights.get(corporation, ()), *hexes}))
    state.extra[_KEY] = rights


@register
class G1856(GameRules):
    """The rules of 1856 that routes and replay ask about."""

    names = ("1856",)
    route_hooks = True
    stops_rated = True

    def after_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        kind = action.get("type")
        corp = str(action.get("entity"))
        if kind == "buy_company":
            for company, hexes in (TUNNEL, BRIDGE):
                if action.get("company") == company:
                    _grant(state, corp, hexes)
        elif kind == "special_buy":
            what = str(action.get("description", "")).lower()
            if "tunnel" in what:
                _grant(state, corp, TUNNEL[1])
            elif "bridge" in what:
                _grant(state, corp, BRIDGE[1])

    def route_bound(self, ctx: RouteContext, spec: TrainSpec) -> tuple[list[int], int]:
        facts = ctx.facts
        extra: dict[str, int] = {}
        if facts.assigned(ctx.corporation, PORT):
            for h in ctx.assigned_hexes(PORT):
                extra[h] = extra.get(h, 0) + PORT_BONUS
        for h in facts.extra.get(_KEY, {}).get(ctx.corporation, ()):
            extra[h] = extra.get(h, 0) + RIGHT_BONUS
        return ctx.bound_with(spec, extra), 0

    def route_bonus(self, view: RouteView) -> int:
        ctx = view.ctx
        facts = ctx.facts
        hexes = {ctx.coords[n] for n in view.paid}
        bonus = 0
        if facts.assigned(ctx.corporation, PORT) and any(facts.assigned(h, PORT) for h in hexes):
            bonus += PORT_BONUS
        rights = facts.extra.get(_KEY, {}).get(ctx.corporation, ())
        bonus += RIGHT_BONUS * len(hexes & set(rights))
        return bonus

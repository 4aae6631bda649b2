"""1870: the cattle company, the Gulf shipping company, and destinations.

A route to the hex the Southern Cattle Company's token is on earns 10 more for the
corporation owning it; a route to the Gulf Shipping Company's port earns 20 more for its
owner (the closed port, ``GSCᶜ``, only for its owner), 10 for everyone else (18xx.games'
``G1870::Game#revenue_for``). A corporation that has connected its home to its destination
and put the destination token on the map (``choose`` "Map") earns a route's destination stop
twice when the route starts or ends there; its trains may then run again that turn.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

from tilelay.board import BoardError
from tilelay.route_rules import TrainSpec
from tilelay.rules import GameRules, GameState, RouteContext, RouteView, register

__all__ = ["G1870"]

CATTLE = "SCC"
PORT = "GSC"
CLOSED_PORT = "GSCᶜ"
_DESTINATION = "destination"  # corporation -> destination hex, once placed on the map


@register
class G1870(GameRules):
    """The rules of 1870 that routes and replay ask about."""

    names = ("1870",)
    route_hooks = True
    stops_rated = True

    def after_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        if action.get("type") != "choose" or action.get("choice") not in ("Map", "Charter"):
            return
        corp = str(action.get("entity"))
        entry = next((c for c in state.game.corporations if c.sym == corp), None)
        if entry is None or not entry.abilities:
            return
        hexes = entry.abilities[0].get("hexes") or []
        if not hexes:
            return
        destination = str(hexes[0])
        # the corporation's trains may run again (its connection run)
        for train_id in state.trains.get(corp, {}):
            state.operated.pop(train_id, None)
        if action.get("choice") != "Map":
            return
        reached = dict(state.extra.get(_DESTINATION, {}))
        reached[corp] = destination
        state.extra[_DESTINATION] = reached
        with contextlib.suppress(BoardError):  # already there
            state.board = state.board.place_token(destination, 0, corp, extra_slot=True)

    def route_bound(self, ctx: RouteContext, spec: TrainSpec) -> tuple[list[int], int]:
        facts = ctx.facts
        corp = ctx.corporation
        extra: dict[str, int] = {}

        def add(hexes: list[str], amount: int) -> None:
            for h in hexes:
                extra[h] = extra.get(h, 0) + amount

        if facts.assigned(corp, CATTLE):
            add(ctx.assigned_hexes(CATTLE), 10)
        if facts.assigned(corp, CLOSED_PORT):
            add(ctx.assigned_hexes(CLOSED_PORT), 20)
        add(ctx.assigned_hexes(PORT), 20 if facts.assigned(corp, PORT) else 10)
        out = ctx.bound_with(spec, extra)
        destination = facts.extra.get(_DESTINATION, {}).get(corp)
        if destination is not None:
            # the destination stop pays twice
            values = ctx.values(spec)
            for n, coord in enumerate(ctx.coords):
                if coord == destination:
                    out[n] += values[n]
        return out, 0

    def route_bonus(self, view: RouteView) -> int:
        ctx = view.ctx
        facts = ctx.facts
        corp = ctx.corporation
        hexes = {ctx.coords[n] for n in view.paid}
        bonus = 0
        if facts.assigned(corp, CATTLE) and any(facts.assigned(h, CATTLE) for h in hexes):
            bonus += 10
        if facts.assigned(corp, CLOSED_PORT) and any(facts.assigned(h, CLOSED_PORT) for h in hexes):
            bonus += 20
        if any(facts.assigned(h, PORT) for h in hexes):
            bonus += 20 if facts.assigned(corp, PORT) else 10
        destination = facts.extra.get(_DESTINATION, {}).get(corp)
        if destination is not None and len(view.paid) >= 2:
            values = ctx.values(view.spec)
            for n in (view.paid[0], view.paid[-1]):
                if ctx.coords[n] == destination:
                    bonus += values[n]
                    break
        return bonus

"""1846 (and 18 Los Angeles, built on it): minors, east-west runs, the private companies'
bonuses and the mail contract.

* Each minor company starts with a 2-train and its home token; a corporation buying a minor's
  private company takes its train, and its token (or the token goes, where the corporation
  already has one).
* A route from an eastern offboard (group ``E``) to a western one (label ``W``) earns the
  numbers on both ends' icons more (18xx.games' ``G1846::Game#east_west_bonus``).
* The Boomtown (20), the Meat Packing Company (30) and the Steamboat Company (20 for each port
  icon) add to a route stopping at the hex they are assigned to, for the corporation they are
  assigned to.
* The Mail Contract's owner earns 10 per stop of its longest route (a whole-run rule).
* When the private companies close, the minors close too, and a Steamboat no corporation owns
  loses its assignments; the ``remove_bonuses`` event takes every assignment away.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from tilelay.board import BoardError
from tilelay.rules import GameRules, GameState, RouteContext, RouteView, register
from tilelay.tile import Tile

__all__ = ["G1846"]

BONUSES = (("BT", 20, None), ("MPC", 30, None), ("SC", 20, "port"))
MAIL = "MAIL"


def _icon_names(tile: Tile) -> list[str]:
    return [icon.name or icon.image.rsplit("/", 1)[-1] for icon in tile.icons]


def _icon_number(tile: Tile) -> int:
    total = 0
    for name in _icon_names(tile):
        if name.isascii() and name.isdigit() and len(name) <= 6:
            total += int(name)
    return total


@register
class G1846(GameRules):
    """The rules of 1846 that routes and replay ask about."""

    names = ("1846", "1846 2p Variant")
    route_hooks = True
    bonus_monotone = True  # every bonus needs its stops scored
    run_hooks = True

    # ------------------------------------------------------------------ replay

    def setup(self, state: GameState) -> None:
        for corp in state.game.corporations:
            if corp.kind != "minor":
                continue
            state.give_train(corp.sym, "2")
            city = state.game.home_city(corp.sym)
            if corp.home is not None and city is not None:
                state.board = state.board.place_token(corp.home, city, corp.sym)

    def event(self, state: GameState, kind: str, action: Mapping[str, Any]) -> None:
        if kind == "remove_bonuses":
            state.assignments.clear()
        elif kind == "close_companies":
            minors = {c.sym for c in state.game.corporations if c.kind == "minor"}
            for minor in minors:
                state.trains.pop(minor, None)
                for (coord, city), corps in state.board.tokens.items():
                    if minor in corps:
                        state.board = state.board.remove_token(coord, city, minor)
            if state.companies.get("SC") not in {c.sym for c in state.game.corporations}:
                for key in list(state.assignments):
                    left = tuple(a for a in state.assignments[key] if a != "SC")
                    state.assignments[key] = left

    def after_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        if action.get("type") != "buy_company":
            return
        minor = str(action.get("company"))
        buyer = str(action.get("entity"))
        if minor not in {c.sym for c in state.game.corporations if c.kind == "minor"}:
            return
        trains = state.trains.pop(minor, {})
        state.trains.setdefault(buyer, {}).update(trains)
        for (coord, city), corps in state.board.tokens.items():
            if minor in corps:
                state.board = state.board.remove_token(coord, city, minor)
                if buyer not in corps:
                    with contextlib.suppress(BoardError):
                        state.board = state.board.place_token(coord, city, buyer, extra_slot=True)

    # ------------------------------------------------------------------ routes

    def route_bonus(self, view: RouteView) -> int:
        ctx = view.ctx
        facts = ctx.facts
        corp = ctx.corporation
        bonus = 0
        for company, amount, icon in BONUSES:
            if not facts.assigned(corp, company):
                continue
            stop = next((n for n in view.paid if facts.assigned(ctx.coords[n], company)), None)
            if stop is not None:
                tile = ctx.tile(stop)
                times = 1 if icon is None else _icon_names(tile).count(icon)
                bonus += amount * times
        east = next((n for n in view.paid if "E" in ctx.nodes[n].groups), None)
        west = next(
            (n for n in view.paid if any(lb.text == "W" for lb in ctx.tile(n).labels)), None
        )
        if east is not None and west is not None:
            bonus += _icon_number(ctx.tile(east)) + _icon_number(ctx.tile(west))
        return bonus

    def run_revenue(self, views: Sequence[RouteView], total: int) -> int:
        if not views:
            return total
        ctx = views[0].ctx
        if ctx.facts.companies.get(MAIL) != ctx.corporation:
            return total
        return total + 10 * max(len(v.stops) for v in views)

    def run_bonus_bound(self, ctx: RouteContext) -> int:
        if ctx.facts.companies.get(MAIL) != ctx.corporation:
            return 0
        return 10 * ctx.longest

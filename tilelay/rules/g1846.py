"""1846: minors, east-west runs, the private companies' bonuses and the mail contract (18 Los
Angeles builds on these rules: :mod:`tilelay.rules.g18la`).

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
from typing import Any, ClassVar

from tilelay.board import BoardError
from tilelay.route_rules import TrainSpec
from tilelay.rules import GameRules, GameState, RouteContext, RouteView, register
from tilelay.tile import Tile

__all__ = ["G1846", "close_minor", "icon_number", "minors"]

BONUSES: tuple[tuple[str, int, str | None], ...] = (
    ("BT", 20, None),
    ("MPC", 30, None),
    ("SC", 20, "port"),
)
MAIL = "MAIL"


def _icon_names(tile: Tile) -> list[str]:
    return [icon.name or icon.image.rsplit("/", 1)[-1] for icon in tile.icons]


def minors(state: GameState) -> list[str]:
    """The game's minor companies (as corporations)."""
    return [c.sym for c in state.game.corporations if c.kind == "minor"]


def close_minor(state: GameState, minor: str) -> None:
    """A minor closes: its trains and tokens go."""
    state.trains.pop(minor, None)
    for (coord, city), corps in state.board.tokens.items():
        if minor in corps:
            state.board = state.board.remove_token(coord, city, minor)


def icon_number(tile: Tile) -> int:
    """The sum of the numbers a tile's icons are named by (``1846/20``: 20)."""
    total = 0
    for name in _icon_names(tile):
        if name.isascii() and name.isdigit() and len(name) <= 6:
            total += int(name)
    return total


@register
class G1846(GameRules):
    """The rules of 1846 that routes and replay ask about."""

    names: ClassVar[tuple[str, ...]] = ("1846", "1846 2p Variant")
    #: The companies whose assignment adds to a route: (company, amount, the icon each of
    #: which counts once more, or None: once).
    bonuses: tuple[tuple[str, int, str | None], ...] = BONUSES
    route_hooks = True
    stops_rated = True
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
            for minor in minors(state):
                close_minor(state, minor)
            if state.companies.get("SC") not in {c.sym for c in state.game.corporations}:
                for key in list(state.assignments):
                    left = tuple(a for a in state.assignments[key] if a != "SC")
                    state.assignments[key] = left

    def after_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        if action.get("type") != "buy_company":
            return
        minor = str(action.get("company"))
        buyer = str(action.get("entity"))
        if minor not in minors(state):
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

    def route_bound(self, ctx: RouteContext, spec: TrainSpec) -> tuple[list[int], int]:
        # each bonus counted on every stop of the hexes that may earn it (the same for
        # every train)
        extra = ctx.memo.get("1846.bonus_hexes")
        if extra is None:
            extra = ctx.memo["1846.bonus_hexes"] = self._bonus_hexes(ctx)
        return ctx.bound_with(spec, extra), 0

    def _bonus_hexes(self, ctx: RouteContext) -> dict[str, int]:
        """The most each hex's stops may add to a route: the bonuses of the companies the
        corporation holds assigned there, and the icons of the bonus ends."""
        facts = ctx.facts
        extra: dict[str, int] = {}
        for company, amount, icon in self.bonuses:
            if not facts.assigned(ctx.corporation, company):
                continue
            for h in ctx.assigned_hexes(company):
                tile = ctx.tiles.get(h)
                if tile is not None:
                    times = 1 if icon is None else _icon_names(tile).count(icon)
                    extra[h] = extra.get(h, 0) + amount * times
        for coord, tile in ctx.tiles.items():
            if self.bonus_end(tile):
                extra[coord] = extra.get(coord, 0) + icon_number(tile)
        return extra

    def bonus_end(self, tile: Tile) -> bool:
        """Whether a stop on ``tile`` may be an end of the east-west bonus (an eastern
        offboard, group ``E``, or a western one, label ``W``)."""
        return any("E" in node.groups for node in tile.nodes) or any(
            lb.text == "W" for lb in tile.labels
        )

    def route_bonus(self, view: RouteView) -> int:
        ctx = view.ctx
        facts = ctx.facts
        corp = ctx.corporation
        bonus = 0
        for company, amount, icon in self.bonuses:
            if not facts.assigned(corp, company):
                continue
            stop = next((n for n in view.paid if facts.assigned(ctx.coords[n], company)), None)
            if stop is not None:
                tile = ctx.tile(stop)
                times = 1 if icon is None else _icon_names(tile).count(icon)
                bonus += amount * times
        return bonus + self.east_west_bonus(view)

    def east_west_bonus(self, view: RouteView) -> int:
        """A route from an eastern offboard (group ``E``) to a western one (label ``W``): the
        numbers on both ends' icons."""
        ctx = view.ctx
        east = next((n for n in view.paid if "E" in ctx.nodes[n].groups), None)
        west = next(
            (n for n in view.paid if any(lb.text == "W" for lb in ctx.tile(n).labels)), None
        )
        if east is not None and west is not None:
            return icon_number(ctx.tile(east)) + icon_number(ctx.tile(west))
        return 0

    def run_revenue(self, views: Sequence[RouteView], total: int) -> int:
        ctx = views[0].ctx
        if ctx.facts.companies.get(MAIL) != ctx.corporation:
            return total
        return total + 10 * max(len(v.stops) for v in views)

    def run_applies(self, ctx: RouteContext, trains: int) -> bool:
        return ctx.facts.companies.get(MAIL) == ctx.corporation

    def run_bonus_bound(self, ctx: RouteContext) -> int:
        if ctx.facts.companies.get(MAIL) != ctx.corporation:
            return 0
        return 10 * ctx.longest

"""1817: mines, ranches and bridges, and no hex visited twice (18xx.games'
``G1817::Game#revenue_for``).

* A mine company (MINC, CM, MAJC) laying a tile puts a mine on its hex, a ranch company (P22,
  P23) a ranch; the Pittsburgh steel mill (PSM) laying its tile removes the ranches beside it.
  A bridge company (UBC, OBC) assigned to a hex puts a bridge there.
* A route earns 10 more for each hex with a mine or a ranch its track passes, and 10 more
  for each stop it scores in a hex with a bridge. It may not begin or end in a hex with a
  mine or a ranch, nor stop twice in one hex.
* In the merger round a corporation merges another into itself (``merge`` naming it): its
  tokens (one where a city would hold two), trains and companies. In the acquisition round
  the winner of the auction of a corporation that has operated merges it into one of theirs:
  the one a ``merge`` by the player names, else the buyer that acts next to settle the
  loans, else the winner's one corporation that has operated (replay takes a corporation's
  president to be the winner of the auction that started it: it does not follow shares).
* At the end of each operating round the depot's next train is exported (all its 2s while
  the next is a 2), as if bought: phases, rusting.
* A corporation that ends its operating turn without a train goes into liquidation; unless
  acquired in the acquisition round after it, the bank liquidates it there, removing its
  tokens (replay removes them when the next operating round begins: no run comes between),
  and it may be started again. The record marks neither turns nor rounds: replay follows
  them with :func:`~tilelay.rules.follow_rounds`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from tilelay.route_rules import TrainSpec, WalkRules
from tilelay.rules import (
    GameRules,
    GameState,
    RouteContext,
    RouteView,
    follow_rounds,
    register,
)

__all__ = ["G1817"]

MINE, RANCH, BRIDGE = "mine", "ranch", "bridge"
#: The actions of 1817's merger and acquisition rounds that end an operating round.
_OTHER_ROUNDS = frozenset({"merge", "convert"})
#: What the buyer of an auctioned corporation does next (deciding on its loans).
_BUYER_ACTIONS = frozenset({"pass", "take_loan", "payoff_loan", "discard_train"})


@register
class G1817(GameRules):
    """The rules of 1817 that routes and replay ask about."""

    names = ("1817",)
    route_hooks = True
    one_stop_per_hex = True
    mine_companies: ClassVar[frozenset[str]] = frozenset({"MINC", "CM", "MAJC"})
    ranch_companies: ClassVar[frozenset[str]] = frozenset({"P22", "P23"})
    bridge_companies: ClassVar[frozenset[str]] = frozenset({"UBC", "OBC"})
    steel_mill: ClassVar[str] = "PSM"

    # ------------------------------------------------------------------ replay

    def before_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        extra = state.extra
        kind = action.get("type")
        entity = action.get("entity")
        auction = extra.get("auction")
        if action.get("entity_type") == "player":
            if kind == "bid":
                if auction is not None and auction != action.get("corporation"):
                    self.settle(state)
                extra["auction"] = action.get("corporation")
                extra["bidder"] = entity
            elif kind in ("buy_shares", "sell_shares", "par"):
                self.settle(state)
        elif action.get("entity_type") == "corporation" and auction is not None:
            if entity == auction:
                # the auction started it (its home token): its president is the winner
                extra["presidents"] = {**extra.get("presidents", {}), entity: extra["bidder"]}
                extra.pop("auction", None)
            elif kind in _BUYER_ACTIONS and isinstance(entity, str):
                # the buyer of the corporation just auctioned settles its loans
                self.acquire(state, auction, entity)
        new_round = not extra.get("operating")
        over = follow_rounds(state, action, other_rounds=_OTHER_ROUNDS).round_over
        operating = extra.get("operating", ())
        actor = extra.get("actor") if operating else None
        turn = extra.get("or_turn")
        if turn is not None and (over or actor != turn):
            # a corporation's operating turn is over (before the round's export, which may
            # rust its trains): without a train it liquidates
            extra["or_turn"] = None
            if not state.trains.get(turn):
                extra["liquidating"] = (*extra.get("liquidating", ()), turn)
        if over:
            self.export(state, action)
        if operating and actor is not None and action.get("entity_type") != "player":
            extra["or_turn"] = actor
            ran = extra.get("has_operated", ())
            if actor not in ran:
                extra["has_operated"] = (*ran, actor)
        if operating and (new_round or over):
            # an operating round begins: every train may run again (one a corporation merged
            # into another ran in the last round too)
            state.operated.clear()
            self.settle(state)
            self.bank_liquidates(state)

    def export(self, state: GameState, action: Mapping[str, Any]) -> None:
        """The end of an operating round exports the depot's next train (all its 2s while it
        has any)."""
        first = state.next_in_depot()
        state.export_train(action)
        if first is not None and first.rpartition("-")[0] == "2":
            while (nxt := state.next_in_depot()) is not None and nxt.rpartition("-")[0] == "2":
                state.export_train(action)

    def bank_liquidates(self, state: GameState) -> None:
        """The corporations in liquidation that no one acquired lose their tokens and may be
        started again."""
        extra = state.extra
        for corp in extra.pop("liquidating", ()):
            board = state.board
            for coord, city in board.tokens_of(corp):
                board = board.remove_token(coord, city, corp)
            state.board = board
            state.started.discard(corp)
            extra["has_operated"] = tuple(c for c in extra.get("has_operated", ()) if c != corp)

    def after_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        kind = action.get("type")
        entity = action.get("entity")
        if kind == "merge":
            self.merge(state, action)
            return
        target = action.get("hex") if kind == "lay_tile" else action.get("target")
        if action.get("entity_type") != "company" or not isinstance(target, str):
            return
        if kind == "lay_tile" and entity in self.mine_companies:
            _mark(state, target, MINE)
        elif kind == "lay_tile" and entity in self.ranch_companies:
            _mark(state, target, RANCH)
        elif kind == "lay_tile" and entity == self.steel_mill:
            for coord in state.board.neighbours(target).values():
                here = state.assignments.get(coord, ())
                if RANCH in here:
                    state.assignments[coord] = tuple(i for i in here if i != RANCH)
        elif kind == "assign" and entity in self.bridge_companies:
            _mark(state, target, BRIDGE)

    def merge(self, state: GameState, action: Mapping[str, Any]) -> None:
        """A merger (a corporation merges the one it names) or an acquisition (the player who
        won a corporation's auction merges it into the one it names)."""
        target = action.get("corporation")
        if not isinstance(target, str):
            return
        if action.get("entity_type") == "player":
            acquired = state.extra.get("auction")
            if isinstance(acquired, str) and acquired != target:
                self.acquire(state, acquired, target)
            return
        entity = action.get("entity")
        if isinstance(entity, str) and entity != target:
            self.absorb(state, target, entity)

    def settle(self, state: GameState) -> None:
        """The auction of a corporation that has operated is over and no action named the
        buyer: the winner's one corporation that has operated acquires it (18xx.games
        chooses it when the winner has one that may)."""
        extra = state.extra
        auctioned = extra.get("auction")
        if auctioned is None:
            return
        winner = extra.get("bidder")
        ran = extra.get("has_operated", ())
        mine = [
            c
            for c, p in extra.get("presidents", {}).items()
            if p == winner and c in ran and c != auctioned
        ]
        extra.pop("auction", None)
        if auctioned in ran and len(mine) == 1:
            self.absorb(state, auctioned, mine[0])

    def acquire(self, state: GameState, acquired: str, buyer: str) -> None:
        """``buyer`` acquires ``acquired`` if it has had an operating turn (else the auction
        was for its start)."""
        state.extra.pop("auction", None)
        if acquired in state.extra.get("has_operated", ()):
            self.absorb(state, acquired, buyer)

    @staticmethod
    def absorb(state: GameState, gone: str, into: str) -> None:
        """``gone`` merges into ``into`` and may be started again."""
        extra = state.extra
        state.merge_into([gone], into)
        extra["liquidating"] = tuple(c for c in extra.get("liquidating", ()) if c != gone)
        extra["has_operated"] = tuple(c for c in extra.get("has_operated", ()) if c != gone)
        state.started.discard(gone)

    # ------------------------------------------------------------------ routes

    def walk_rules(self, ctx: RouteContext) -> WalkRules:
        # no route begins or ends in a hex with a mine or a ranch; what their hexes add
        # bounded as the track enters them (the walk applies both)
        passed = {
            h: 10 * ((MINE in ids) + (RANCH in ids)) for h, ids in ctx.facts.assignments.items()
        }
        passed = {h: v for h, v in passed.items() if v}
        coords = ctx.coords
        classes = ctx.classes
        return WalkRules(
            no_ends=frozenset(n for n, c in enumerate(coords) if classes[n] >= 0 and c in passed),
            hex_bound=passed,
        )

    def route_bonus(self, view: RouteView) -> int:
        ctx = view.ctx
        assigned = ctx.facts.assignments
        if not assigned:
            return 0
        coords = ctx.coords
        bonus = 10 * sum(1 for n in view.paid if BRIDGE in assigned.get(coords[n], ()))
        for coord in set(view.hexes):
            here = assigned.get(coord, ())
            bonus += 10 * ((MINE in here) + (RANCH in here))
        return bonus

    def route_bound(self, ctx: RouteContext, spec: TrainSpec) -> tuple[list[int], int]:
        # a bridge counted on every stop of its hex (mines and ranches: walk_rules)
        assigned = ctx.facts.assignments
        bridges = {h: 10 for h, ids in assigned.items() if BRIDGE in ids}
        return ctx.bound_with(spec, bridges), 0


def _mark(state: GameState, coord: str, what: str) -> None:
    here = state.assignments.get(coord, ())
    if what not in here:
        state.assignments[coord] = (*here, what)

"""18MEX: the minors (18xx.games' ``G18MEX::Game``).

Each minor company starts with a 2-train and its home token (the game places them at the
start); when the minors close (the ``minors_closed`` event), their tokens leave the map and
their trains go.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tilelay.rules import GameRules, GameState, register

__all__ = ["G18MEX"]


@register
class G18MEX(GameRules):
    """The rules of 18MEX that replay asks about."""

    names = ("18MEX",)

    def setup(self, state: GameState) -> None:
        for corp in state.game.corporations:
            if corp.kind != "minor":
                continue
            state.give_train(corp.sym, "2")
            city = state.game.home_city(corp.sym)
            if corp.home is not None and city is not None:
                state.board = state.board.place_token(corp.home, city, corp.sym)

    def event(self, state: GameState, kind: str, action: Mapping[str, Any]) -> None:
        if kind != "minors_closed" or "delay_minor_close" in state.optional_rules:
            return
        for corp in state.game.corporations:
            if corp.kind != "minor":
                continue
            state.trains.pop(corp.sym, None)
            for (coord, city), corps in state.board.tokens.items():
                if corp.sym in corps:
                    state.board = state.board.remove_token(coord, city, corp.sym)

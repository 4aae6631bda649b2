"""18 Los Angeles (both editions), built on 1846's rules (:mod:`tilelay.rules.g1846`).

* The companies that add to a route where they are assigned are Los Angeles Citrus (30),
  Los Angeles Steamship (20 for each port icon) and, in the second edition, RKO Pictures (20)
  (18xx.games' ``G18LosAngeles::Game``: ``meat_packing``, ``steamboat``, ``boomtown``).
* The east-west bonus also runs north-south: a route with a stop labelled ``E`` and one
  labelled ``W`` earns the numbers on their icons; else one labelled ``N`` and one ``S``
  (labels such as ``N/W`` count for both letters).
* The game opens with a draft of the private companies and minors: a minor no player drafted
  closes when the draft ends (its home token goes), at the first action that is not a
  player's bid or pass (``G18LosAngeles::Game#init_round_finished``).

* The routes of passenger trains (``N``) may share track with those of freight trains
  (``N/M``), but not with each other's, and so for freight trains
  (``G18LosAngeles::Game#check_overlap``, ``#compute_other_paths``): a freight train's track
  pool is its own (:attr:`~tilelay.route_rules.TrainSpec.pool`).

Not modelled yet: the Angeles Public Dump's −20 token and the Redondo Junction token of the
second edition.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from tilelay.route_rules import TrainSpec
from tilelay.rules import GameState, RouteContext, RouteView, register
from tilelay.rules.g1846 import G1846, close_minor, icon_number, minors
from tilelay.tile import Tile
from tilelay.trains import TrainType

#: What replay keeps of the draft (:attr:`GameState.extra`): the companies drafted so far, and
#: whether the draft is over.
DRAFTED = "18la.drafted"
DRAFT_OVER = "18la.draft_over"

__all__ = ["G18LosAngeles"]


@register
class G18LosAngeles(G1846):
    """The rules of 18 Los Angeles that routes and replay ask about."""

    names: ClassVar[tuple[str, ...]] = ("18 Los Angeles", "18 Los Angeles 1", "18 Los Angeles 2")
    bonuses = (("RKO", 20, None), ("LAC", 30, None), ("LAS", 20, "port"))
    #: whether passenger and freight trains keep their track apart only from their own kind
    shared_track: ClassVar[bool] = True

    def train_spec(self, train: TrainType, ctx: RouteContext | None = None) -> TrainSpec:
        spec = super().train_spec(train, ctx)
        if self.shared_track and "/" in train.name:
            # a freight train (N/M): its own track pool
            return replace(spec, pool=1)
        return spec

    def before_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        super().before_action(state, action)
        if state.extra.get(DRAFT_OVER):
            return
        if action.get("entity_type") == "player" and action.get("type") in ("bid", "pass"):
            company = action.get("company")
            if isinstance(company, str):
                state.extra[DRAFTED] = state.extra.get(DRAFTED, frozenset()) | {company}
            return
        state.extra[DRAFT_OVER] = True
        drafted = state.extra.get(DRAFTED, frozenset())
        for minor in minors(state):
            if minor not in drafted:
                close_minor(state, minor)

    def bonus_end(self, tile: Tile) -> bool:
        return any(letter in lb.text for lb in tile.labels for letter in "EWNS")

    def east_west_bonus(self, view: RouteView) -> int:
        ctx = view.ctx

        def labelled(letter: str) -> int | None:
            for n in view.paid:
                if any(letter in label.text for label in ctx.tile(n).labels):
                    return n
            return None

        for one, other in (("E", "W"), ("N", "S")):
            first, second = labelled(one), labelled(other)
            if first is not None and second is not None:
                return icon_number(ctx.tile(first)) + icon_number(ctx.tile(second))
        return 0

"""1867 and 1861: hex bonuses, the capitals to Timmins bonus, towns that fill a train's
spare stops, and no hex visited twice (18xx.games' ``G1867::Game#revenue_for`` and
``#compute_stops``).

* A route may not visit two stops in one hex.
* A corporation earns a private company's ``hex_bonus`` (its amount once per bonus hex among
  the route's stops) while it owns the company.
* A route from Quebec, Montreal or Toronto to Timmins earns 40 more (times the train's
  multiplier); in 1861, from Moscow to Sevastopol.
* Towns score only as far as the train's city stops are not all used: the cities and
  offboards always score, the best towns fill the rest.
* The private companies are nationalized by the national (``nationalize_companies``).
* Minors merge into a major (``merge`` actions naming the minors, then the major) or convert
  into one (``convert``, then ``merge``): their tokens, trains and companies become the
  major's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tilelay.rules import GameRules, GameState, RouteContext, RouteView, register

__all__ = ["G1861", "G1867"]


@register
class G1867(GameRules):
    """The rules of 1867 (and 1861, built on it) that routes ask about."""

    names = ("1867",)
    route_hooks = True
    one_stop_per_hex = True
    #: the hexes of the capitals, and the hex a route from one earns 40 more for reaching
    capitals: frozenset[str] = frozenset({"F16", "L12", "O7"})
    bonus_hex = "D2"

    def event(self, state: GameState, kind: str, action: Mapping[str, Any]) -> None:
        if kind == "nationalize_companies":
            # the national takes every private company (its hex bonuses go with them)
            for company in list(state.companies):
                state.companies[company] = "(national)"

    def after_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        kind = action.get("type")
        if kind not in ("merge", "convert"):
            return
        entity = str(action.get("entity"))
        merging = list(state.extra.get("merging", ()))
        if kind == "convert":
            state.extra["merging"] = (entity,)
            return
        target = str(action.get("corporation"))
        kinds = {c.sym: c.kind for c in state.game.corporations}
        if kinds.get(target) == "minor":
            state.extra["merging"] = (*(merging or [entity]), target)
            return
        sources = merging or [entity]
        if entity not in sources:
            sources.append(entity)
        state.merge_into(sources, target)
        state.extra["merging"] = ()

    def paid_stops(self, view: RouteView) -> tuple[int, tuple[int, ...]] | None:
        ctx = view.ctx
        spec = view.spec
        if spec.scores_visits or not spec.rows:
            return None
        row = next((r for r in spec.rows if r.pay > 0), None)
        if row is None:
            return None
        values = ctx.values(spec)
        classes = ctx.classes
        stops = view.stops
        wanted = row.classes
        mandatory = 0
        for n in stops:
            if wanted >> classes[n] & 1:
                mandatory += 1
        if mandatory >= row.pay:
            paid = tuple(n for n in stops if wanted >> classes[n] & 1)
            return sum(values[n] for n in paid), paid
        # the best towns fill the spare stops (their bonuses never depend on towns)
        optional = [n for n in stops if not wanted >> classes[n] & 1]
        extra = set(sorted(optional, key=lambda n: -values[n])[: row.pay - mandatory])
        paid = tuple(n for n in stops if wanted >> classes[n] & 1 or n in extra)
        return sum(values[n] for n in paid), paid

    @staticmethod
    def _hex_bonuses(ctx: RouteContext) -> dict[str, int]:
        """The corporation's hex bonuses from the companies it owns: hex -> amount."""
        found = ctx.memo.get("hex_bonus")
        if found is None:
            found = {}
            for company, owner in ctx.facts.companies.items():
                if owner != ctx.corporation:
                    continue
                comp = next((c for c in ctx.game.companies if c.sym == company), None)
                if comp is None:
                    continue
                for ability in comp.abilities_of("hex_bonus"):
                    for h in ability.get("hexes") or ():
                        found[h] = found.get(h, 0) + int(ability.get("amount", 0))
            ctx.memo["hex_bonus"] = found
        return found

    def route_bonus(self, view: RouteView) -> int:
        ctx = view.ctx
        coords = ctx.coords
        hexes = {coords[n] for n in view.paid}
        bonuses = self._hex_bonuses(ctx)
        bonus = sum(bonuses.get(h, 0) for h in hexes) if bonuses else 0
        if self.bonus_hex in hexes and hexes & self.capitals:
            bonus += 40 * (view.spec.multipliers[0] or 1)
        return bonus


@register
class G1861(G1867):
    """The rules of 1861: 1867's, with Moscow (H8) and Sevastopol (Q3) for the bonus."""

    names = ("1861",)
    capitals = frozenset({"H8"})
    bonus_hex = "Q3"

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

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from tilelay.rules import GameRules, GameState, RouteView, register

__all__ = ["G1861", "G1867"]


@register
class G1867(GameRules):
    """The rules of 1867 (and 1861, built on it) that routes ask about."""

    names = ("1867",)
    route_hooks = True
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

    def route_allowed(self, view: RouteView) -> bool:
        hexes = view.stop_hexes
        return len(hexes) == len(set(hexes))

    def paid_stops(self, view: RouteView) -> tuple[int, tuple[int, ...]] | None:
        ctx = view.ctx
        spec = view.spec
        rows = spec.rows
        if not rows or spec.scores_visits:
            return None
        mandatory_row = next((r for r in rows if r.pay > 0), None)
        if mandatory_row is None:
            return None
        values = ctx.values(spec)
        stops = view.stops
        mandatory = [n for n in stops if mandatory_row.classes >> ctx.classes[n] & 1]
        optional = [n for n in stops if not mandatory_row.classes >> ctx.classes[n] & 1]
        if len(mandatory) >= mandatory_row.pay:
            paid = tuple(mandatory)
            return sum(values[n] for n in paid), paid
        need_token = not any(ctx.tokened[n] for n in mandatory)
        room = mandatory_row.pay - len(mandatory)
        choices: Sequence[tuple[int, ...]] = list(combinations(optional, room)) or [tuple(optional)]
        best: tuple[int, tuple[int, ...]] | None = None
        for extra in choices:
            if need_token and not any(ctx.tokened[n] for n in extra):
                continue
            chosen = set(mandatory) | set(extra)
            paid = tuple(n for n in stops if n in chosen)
            value = sum(values[n] for n in paid)
            if best is None or value > best[0]:
                best = (value, paid)
        return best if best is not None else (0, ())

    def route_bonus(self, view: RouteView) -> int:
        ctx = view.ctx
        hexes = {ctx.coords[n] for n in view.paid}
        bonus = 0
        for company, owner in ctx.facts.companies.items():
            if owner != ctx.corporation:
                continue
            comp = next((c for c in ctx.game.companies if c.sym == company), None)
            if comp is None:
                continue
            for ability in comp.abilities_of("hex_bonus"):
                amount = ability.get("amount", 0)
                bonus += sum(amount for h in hexes if h in (ability.get("hexes") or ()))
        if hexes & self.capitals and self.bonus_hex in hexes:
            bonus += 40 * (view.spec.multipliers[0] or 1)
        return bonus


@register
class G1861(G1867):
    """The rules of 1861: 1867's, with Moscow (H8) and Sevastopol (Q3) for the bonus."""

    names = ("1861",)
    capitals = frozenset({"H8"})
    bonus_hex = "Q3"

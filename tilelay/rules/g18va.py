"""18VA: passenger, freight (goods) and doubler trains, ports, offboard cities, coal mines
(18xx.games' ``G18VA::Game#check_distance`` and ``#revenue_for``).

* Trains whose name ends in G are freight (goods) trains, in D doublers (the 4D); others
  carry passengers. The trains' distance rows say what each visits and scores (passenger
  trains pass towns for nothing; freight trains score them).
* A route needs two paying stops that are not ports (towns pay only for freight trains);
  its cities that are not coal mines (``CMD``) may number at most the train's size.
* A port may be visited only by a corporation with a token in the city it serves; only
  freight trains may visit a coal mine.
* An offboard city (``OFFBOARD``) pays twice when the corporation has a token there; a
  doubler doubles plain cities and pays an offboard city twice (four times with a token).
  Freight and doubler trains pay a port twice, and a freight train its city too. A coal mine
  adds 20 per size of the train above one. The Steamboat adds 10 (20 for a doubler) to a
  route through the hex it is assigned to, for its corporation.
"""

from __future__ import annotations

from tilelay.route_rules import CITY, TOWN, TrainSpec
from tilelay.rules import GameRules, RouteContext, RouteView, register

__all__ = ["G18VA"]

PORT_TO_CITY = {"I4": "H3", "I6": "H5", "I14": "H13", "I16": "H15"}
STEAMBOAT = "P1"


def _kind(name: str) -> str:
    if name.endswith("G"):
        return "freight"
    if name.endswith("D"):
        return "doubler"
    return "passenger"


def _size(name: str) -> int:
    digits = ""
    for ch in name:
        if not ("0" <= ch <= "9") or len(digits) >= 6:
            break
        digits += ch
    return int(digits) if digits else 0


@register
class G18VA(GameRules):
    """The rules of 18VA that routes ask about."""

    names = ("18VA",)
    goods_trains = True
    route_hooks = True
    stops_rated = True

    def route_allowed(self, view: RouteView) -> bool:
        ctx = view.ctx
        name = view.spec.name
        kind = _kind(name)
        nodes = ctx.nodes
        groups = [nodes[n].groups for n in view.stops]
        classes = [ctx.classes[n] for n in view.stops]
        paying = sum(
            1
            for g, c in zip(groups, classes, strict=True)
            if "PORT" not in g and (c != TOWN or kind == "freight")
        )
        if paying < 2:
            return False
        cities = sum(
            1 for g, c in zip(groups, classes, strict=True) if c == CITY and "CMD" not in g
        )
        if cities > _size(name):
            return False
        for n, g in zip(view.stops, groups, strict=True):
            if "PORT" in g:
                served = PORT_TO_CITY.get(ctx.coords[n])
                if served is None or not self._tokened_city(view, served):
                    return False
            if "CMD" in g and kind != "freight":
                return False
        return True

    @staticmethod
    def _tokened_city(view: RouteView, coord: str) -> bool:
        ctx = view.ctx
        tile = ctx.board.tile_at(coord)
        cities = [i for i, node in enumerate(tile.nodes) if node.kind.value == "city"]
        if not cities:
            return False
        return ctx.corporation in ctx.board.tokens.get((coord, 0), ())

    def route_bound(self, ctx: RouteContext, spec: TrainSpec) -> tuple[list[int], int]:
        # each bonus of route_bonus counted on every stop that may earn it
        name = spec.name
        kind = _kind(name)
        values = ctx.values(spec)
        out = list(values)
        steamboat: set[str] = set()
        if ctx.facts.assigned(ctx.corporation, STEAMBOAT):
            steamboat = set(ctx.assigned_hexes(STEAMBOAT))
        classes = ctx.classes
        for n, node in enumerate(ctx.nodes):
            if classes[n] < 0:
                continue
            groups = node.groups
            value = values[n]
            if kind == "doubler" and classes[n] == CITY and not groups:
                out[n] += value
            if "OFFBOARD" in groups:
                if kind == "doubler":
                    out[n] += (3 if ctx.tokened[n] else 1) * value
                elif ctx.tokened[n]:
                    out[n] += value
            if "PORT" in groups and kind in ("freight", "doubler"):
                out[n] += value + (self._served(ctx, n, spec) if kind == "freight" else 0)
            if "CMD" in groups:
                out[n] += 20 * (_size(name) - 1)
            if ctx.coords[n] in steamboat:
                out[n] += 20 if kind == "doubler" else 10
        return out, 0

    @staticmethod
    def _served(ctx: RouteContext, port: int, spec: TrainSpec) -> int:
        """What the city a port serves earns a freight train besides."""
        served = PORT_TO_CITY.get(ctx.coords[port])
        if served is None:
            return 0
        nodes = ctx.board.tile_at(served).nodes
        stop = next((x for x in nodes if x.kind.value in ("city", "town")), None)
        if stop is None or stop.revenue is None:
            return 0
        return ctx.base_value_of(stop, spec)

    def route_bonus(self, view: RouteView) -> int:
        ctx = view.ctx
        name = view.spec.name
        kind = _kind(name)
        values = ctx.values(view.spec)
        nodes = ctx.nodes
        paid = view.paid
        bonus = 0
        hexes = {ctx.coords[n] for n in paid}
        if ctx.facts.assigned(ctx.corporation, STEAMBOAT) and any(
            ctx.facts.assigned(h, STEAMBOAT) for h in hexes
        ):
            bonus += 20 if kind == "doubler" else 10
        if kind == "doubler":
            bonus += sum(values[n] for n in paid if ctx.classes[n] == CITY and not nodes[n].groups)
        offboard = next((n for n in paid if "OFFBOARD" in nodes[n].groups), None)
        if offboard is not None:
            if kind == "doubler":
                bonus += (3 if ctx.tokened[offboard] else 1) * values[offboard]
            elif ctx.tokened[offboard]:
                bonus += values[offboard]
        port = next((n for n in paid if "PORT" in nodes[n].groups), None)
        if port is not None and kind in ("freight", "doubler"):
            bonus += values[port]
            if kind == "freight":
                bonus += self._served(ctx, port, view.spec)
        if any("CMD" in nodes[n].groups for n in paid):
            bonus += 20 * (_size(name) - 1)
        return bonus

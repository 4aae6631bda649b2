"""1849: H-trains, narrow gauge, the E-train, ports, and the CNM bonus (18xx.games'
``G1849::Game#check_distance``, ``#hex_edge_cost``, ``#check_other``, ``#revenue_for``).

* An nH train reaches n hex sides (any number of stops); a side crossed on narrow gauge
  counts twice, for the R6H on broad gauge. A route's track between two stops may not change
  from broad to narrow gauge.
* The E-train reaches anywhere but may not use narrow gauge; it doubles the revenue of the
  hexes of :data:`DOUBLE_FOR_E_TRAIN`.
* A route to a port must have two other stops.
* The corporation the CNM is assigned to earns 20 more on a route through the hex it marks.
* The Messina earthquake (the first 12H's event, ``G1849::Game#event_earthquake!``) returns
  Messina (B14) to its printed yellow tile and takes every token there out of the game.
* A tile a corporation lays where it has no token must, where its track meets a
  neighbour's track at an edge the corporation reaches, be of that track's gauge at one such
  edge at least (dual track meets either; ``G1849::Game#legal_tile_rotation?``): asked as the
  engine asks it, connectivity checked or not.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from typing import Any

from tilelay.board import Board
from tilelay.route_rules import UNLIMITED, Row, TrainSpec
from tilelay.rules import GameRules, GameState, RouteContext, RouteView, register
from tilelay.tile import Tile, Track
from tilelay.trains import TrainType

__all__ = ["G1849"]

PORT_HEXES = frozenset({"a12", "A5", "L14", "N8"})
#: The hex the Messina earthquake returns to its printed tile.
MESSINA = "B14"
DOUBLE_FOR_E_TRAIN = frozenset({"B14", "C5", "H12", "M13"})
CNM = "CNM"


def _tracks(view: RouteView, chain: tuple[int, ...]) -> set[Track]:
    ctx = view.ctx
    out: set[Track] = set()
    for p in chain:
        coord, index = ctx.graph.paths[p]
        out.add(ctx.board.tile_at(coord).paths[index].track)
    return out


@register
class G1849(GameRules):
    """The rules of 1849 that routes ask about."""

    names = ("1849",)
    route_hooks = True

    def event(self, state: GameState, kind: str, action: Mapping[str, Any]) -> None:
        if kind == "earthquake" and MESSINA in state.game.hexes:
            state.board = state.board.restored(MESSINA)

    def lay_filter(
        self, board: Board, corporation: str, coord: str
    ) -> Callable[[Tile], bool] | None:
        coord = board.game.hex_tile(coord).name
        if any(c == coord for c, _ in board.tokens_of(corporation)):
            return None  # its own city's hex: anything
        # (the engine has placed a corporation's home token as it floats: reached from it)
        seen = board if board.tokens_of(corporation) else board.with_home_tokens([corporation])
        edges = seen.reach(corporation).get(coord, frozenset())
        meeting: list[tuple[int, Track]] = []
        for edge in sorted(edges):
            across = board.neighbour(coord, edge)
            if across is None:
                continue
            back = (edge + 3) % 6
            theirs = next((p for p in board.tile_at(across).paths if back in p.edges()), None)
            if theirs is not None:
                meeting.append((edge, theirs.track))
        if not meeting:
            return None

        def allowed(tile: Tile) -> bool:
            met = False
            for edge, track in meeting:
                ours = next((p for p in tile.paths if edge in p.edges()), None)
                if ours is None:
                    continue
                met = True
                if _gauges_meet(ours.track, track):
                    return True
            return not met

        return allowed

    def train_spec(self, train: TrainType, ctx: RouteContext | None = None) -> TrainSpec:
        spec = super().train_spec(train, ctx)
        if not spec.runs:
            return spec
        every = Row(0b111, UNLIMITED, UNLIMITED)
        reach = train.max_major_stops
        hexes = None if reach is None or reach >= 99 else reach
        return TrainSpec(spec.name, (every,), spec.multipliers, hexes=hexes, diesel=spec.diesel)

    def hex_distance(self, view: RouteView) -> int:
        ctx = view.ctx
        graph = ctx.graph
        expensive = Track.BROAD if view.spec.name == "R6H" else Track.NARROW
        total = 0
        for chain in view.chains():
            tracks = _tracks(view, chain)
            kind = (
                Track.NARROW
                if Track.NARROW in tracks
                else Track.BROAD
                if Track.BROAD in tracks
                else Track.DUAL
            )
            edges = sum(
                1 for a, b in itertools.pairwise(chain) if graph.paths[a][0] != graph.paths[b][0]
            )
            total += 2 * edges if kind is expensive else edges
        return total

    def route_allowed(self, view: RouteView) -> bool:
        for chain in view.chains():
            tracks = _tracks(view, chain)
            if Track.BROAD in tracks and Track.NARROW in tracks:
                return False
            if view.spec.name == "E" and Track.NARROW in tracks:
                return False
        return True

    def scored_allowed(self, view: RouteView) -> bool:
        hexes = {view.ctx.coords[n] for n in view.paid}
        return not (hexes & PORT_HEXES and len(view.paid) <= 2)

    def route_bound(self, ctx: RouteContext, spec: TrainSpec) -> tuple[list[int], int]:
        extra: dict[str, int] = {}
        if ctx.facts.assigned(ctx.corporation, CNM):
            for h in ctx.assigned_hexes(CNM):
                extra[h] = 20
        out = ctx.bound_with(spec, extra)
        if spec.name == "E":
            values = ctx.values(spec)
            for n, coord in enumerate(ctx.coords):
                if coord in DOUBLE_FOR_E_TRAIN:
                    out[n] += values[n]
        return out, 0

    def route_bonus(self, view: RouteView) -> int:
        ctx = view.ctx
        bonus = 0
        if view.spec.name == "E":
            values = ctx.values(view.spec)
            bonus += sum(values[n] for n in view.paid if ctx.coords[n] in DOUBLE_FOR_E_TRAIN)
        facts = ctx.facts
        if facts.assigned(ctx.corporation, CNM) and any(
            facts.assigned(ctx.coords[n], CNM) for n in view.paid
        ):
            bonus += 20
        return bonus


def _gauges_meet(ours: Track, theirs: Track) -> bool:
    """Whether track of gauge ``ours`` may meet ``theirs`` (the engine's ``tracks_match?``
    with dual track meeting either)."""
    if ours is Track.DUAL:
        return True
    if ours is Track.BROAD:
        return theirs in (Track.BROAD, Track.DUAL)
    if ours is Track.NARROW:
        return theirs in (Track.NARROW, Track.DUAL)
    return False

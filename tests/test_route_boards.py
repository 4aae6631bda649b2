"""The router against the independent oracle (``tests/route_oracle.py``) on random hand-built
boards: random track between random stops, random tokens, random trains.

The fixed boards of ``test_routes`` and ``test_route_trains`` check each kind of train; these
drive the search's pruning where it matters: trains together (each train's best route first,
then the routes within a widening gap of it), routes cut where their stops cannot reach what
a train needs, town-filling trains (cities always scored, towns as far as the pay allows),
multiplied trains beside plain ones, H-trains, junctions, hex sides shared by several paths
and cities full of other corporations' tokens.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import route_oracle
from tests.test_route_trains import ALL, TRAINS, rows
from tilelay import dsl, routes
from tilelay.board import Board
from tilelay.games import Game, game_from_data
from tilelay.games.model import parse_coord
from tilelay.hexgeo import NEIGHBOUR_OFFSETS, Layout
from tilelay.route_rules import TrainSpec
from tilelay.routes import RoutePlanner
from tilelay.rules import GameRules
from tilelay.trains import TrainType

#: The hexes of the board (a flat map, three columns).
COORDS = ("A1", "A3", "A5", "A7", "B2", "B4", "B6", "B8", "C1", "C3", "C5", "C7", "D4", "D6")


def _edge(a: str, b: str) -> int | None:
    (ax, ay), (bx, by) = parse_coord(a), parse_coord(b)
    offsets = NEIGHBOUR_OFFSETS[Layout.FLAT]
    d = (bx - ax, by - ay)
    return offsets.index(d) if d in offsets else None


#: Every pair of neighbouring hexes.
LINKS = tuple(
    (a, b) for i, a in enumerate(COORDS) for b in COORDS[i + 1 :] if _edge(a, b) is not None
)

#: The trains drawn: every kind of the trains test, and one that fills with towns (visits
#: three towns, scores the best one, besides two cities or offboards always scored).
KINDS: dict[str, TrainType] = {
    **TRAINS,
    "2+1T": TrainType(
        "2+1T", 0, 2, allowances=rows((("city", "offboard"), 2, 2, None), (("town",), 1, 3, None))
    ),
    "3E": TrainType("3E", 0, 3, allowances=rows((ALL, 3, 5, None))),
}
del KINDS["P"]  # runs nowhere: nothing to compare

# a hex: "" (no track), "track", "junction", or a stop part with its revenue (more often)
STOP = st.one_of(
    st.sampled_from(["", "track", "track", "junction"]),
    st.builds(
        lambda v, s: f"city=revenue:{v},slots:{s}",
        st.integers(1, 8).map((10).__mul__),
        st.integers(1, 2),
    ),
    st.builds(lambda v: f"town=revenue:{v}", st.integers(1, 4).map((10).__mul__)),
    st.builds(
        lambda v: f"offboard=revenue:yellow_{v}|brown_{v + 20}", st.integers(1, 6).map((10).__mul__)
    ),
)


def _code(coord: str, part: str, links: list[tuple[str, str]]) -> str | None:
    """The tile code of a hex: its stop (or junction) joined to every linked side, or plain
    track joining every pair of its linked sides (several paths through one side)."""
    edges = sorted(
        e
        for a, b in links
        for e in ([_edge(a, b)] if a == coord else [_edge(b, a)] if b == coord else [])
        if e is not None
    )
    if part == "track":
        if len(edges) < 2:
            return None
        pairs = [(x, y) for i, x in enumerate(edges) for y in edges[i + 1 :]][:4]
        return ";".join(f"path=a:{x},b:{y}" for x, y in pairs)
    if not part or (part == "junction" and len(edges) < 2):
        return None
    terminal = ",terminal:1" if part.startswith("offboard") else ""
    return ";".join([part, *(f"path=a:{e},b:_0{terminal}" for e in edges)])


def build(parts: dict[str, str], links: list[tuple[str, str]]) -> Game | None:
    """A game of these hexes and links (None when it has no city for a home)."""
    hexes: list[dict[str, Any]] = []
    cities: list[str] = []
    for coord in COORDS:
        code = _code(coord, parts[coord], links)
        if code is None:
            continue
        color = "red" if parts[coord].startswith("offboard") else "white"
        hexes.append({"coords": [coord], "tile": dsl.parse(code, color=color)})
        if parts[coord].startswith("city"):
            cities.append(coord)
    if not cities:
        return None
    data = {
        "title": "Random",
        "layout": "flat",
        "hexes": hexes,
        "manifest": {},
        "corporations": [
            {"sym": "AA", "name": "Alpha", "home": cities[0]},
            {"sym": "BB", "name": "Beta", "home": cities[-1]},
        ],
        "trains": [{"name": "2", "distance": 2, "price": 80, "num": 4}],
        "phases": [
            {"name": "2", "tiles": ["yellow"]},
            {"name": "5", "on": "2", "tiles": ["yellow", "green", "brown"]},
        ],
    }
    return game_from_data(data, source="random board")


@st.composite
def positions(draw: st.DrawFn) -> tuple[Board, list[TrainType]]:
    parts = {c: draw(STOP) for c in COORDS}
    links = [link for link in LINKS if draw(st.integers(0, 3))]
    game = build(parts, links)
    if game is None:
        parts["A3"] = "city=revenue:30,slots:1"
        game = build(parts, links)
        assert game is not None
    cities = [c for c in COORDS if parts[c].startswith("city")]
    board = Board(game)
    ours = draw(st.lists(st.sampled_from(cities), min_size=1, max_size=2, unique=True))
    theirs = draw(st.lists(st.sampled_from(cities), max_size=2, unique=True))
    for coord in ours:
        board = board.place_token(coord, 0, "AA")
    for coord in theirs:
        if coord not in ours:
            board = board.place_token(coord, 0, "BB")
    names = draw(st.lists(st.sampled_from(sorted(KINDS)), min_size=1, max_size=3))
    return board, [KINDS[n] for n in names]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.sampled_from([1, 3, routes._CHUNK]))
def test_the_optimum_equals_the_oracle_on_random_boards(
    position: tuple[Board, list[TrainType]], chunk: int
) -> None:
    """Also with the combination ranking its grouped lists a route or three at a time (the
    shared fixtures' long lists rank a chunk at a time), and with every walk made again
    asking what the routes' exits need (the shared fixtures' do after walks that kept many
    routes: :data:`tilelay.routes._EXITS_AFTER`)."""
    board, trains = position
    phase = board.game.trains.phase("5")
    expected = route_oracle.best_total(board, "AA", phase, trains)
    if expected is None:
        return  # too many combinations for the oracle
    with mock.patch.object(routes, "_CHUNK", chunk), mock.patch.object(routes, "_EXITS_AFTER", 0):
        result = RoutePlanner(board, "AA", phase).best(trains)
    assert result.revenue == expected, [t.name for t in trains]
    assert sum(r.revenue for r in result.routes) == result.revenue
    used: set[tuple[str, int]] = set()
    for r in result.routes:
        assert not used & set(r.paths)
        used |= set(r.paths)


class _Pools(GameRules):
    """Rules giving each train (by name) a track pool: routes of trains of one pool share
    no track, those of different pools may (18 Los Angeles' N and N/M trains)."""

    def __init__(self, pools: dict[str, int]) -> None:
        self.pools = pools

    def train_spec(self, train: TrainType, ctx: Any = None) -> TrainSpec:
        return replace(super().train_spec(train, ctx), pool=self.pools[train.name])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.lists(st.integers(0, 1), min_size=len(KINDS), max_size=len(KINDS)))
def test_trains_of_two_track_pools_equal_the_oracle_on_random_boards(
    position: tuple[Board, list[TrainType]], drawn: list[int]
) -> None:
    board, trains = position
    pools = dict(zip(sorted(KINDS), drawn, strict=True))
    phase = board.game.trains.phase("5")
    expected = route_oracle.best_total(
        board, "AA", phase, trains, pools=[pools[t.name] for t in trains]
    )
    if expected is None:
        return  # too many combinations for the oracle
    with mock.patch.object(routes, "_EXITS_AFTER", 0):
        result = RoutePlanner(board, "AA", phase, rules=_Pools(pools)).best(trains)
    assert result.revenue == expected, [(t.name, pools[t.name]) for t in trains]
    used: dict[int, set[tuple[str, int]]] = {}
    for r in result.routes:
        mine = used.setdefault(pools[r.train], set())
        assert not mine & set(r.paths)
        mine |= set(r.paths)


def test_routes_of_several_ways_run_on_ways_that_share_no_track() -> None:
    """The search keeps the ways along the track between the same stops together, one route
    (:func:`tilelay.routes._walk`), and chooses a run's routes by the track all their ways
    use: a run found so is settled by choosing a way of each that shares no track with the
    others' (:func:`tilelay.routes._resolve`). Here the 2+1T's best route and the 1+2's both
    go between the town at B4 and the city at A5, each by either of two ways (direct, or round
    by A3): only one choice of them shares no track (a board hypothesis found where the run
    came out sharing track before the ways were settled)."""
    codes = {
        "A3": "path=a:0,b:5",
        "A5": "city=revenue:10;path=a:0,b:_0;path=a:3,b:_0;path=a:4,b:_0",
        "A7": "path=a:3,b:5",
        "B4": "town=revenue:10;path=a:1,b:_0;path=a:2,b:_0",
        "B8": "path=a:2,b:4",
        "C7": "path=a:1,b:4",
        "D4": "city=revenue:10",
        "D6": "city=revenue:10;path=a:1,b:_0",
    }
    data = {
        "title": "Ways",
        "layout": "flat",
        "hexes": [
            {"coords": [c], "tile": dsl.parse(code, color="white")} for c, code in codes.items()
        ],
        "manifest": {},
        "corporations": [{"sym": "AA", "name": "Alpha", "home": "A5"}],
        "trains": [{"name": "2", "distance": 2, "price": 80, "num": 4}],
        "phases": [{"name": "5", "tiles": ["yellow", "green", "brown"]}],
    }
    # (the tokens in this order: the walk comes to D6 first)
    board = Board(game_from_data(data, source="ways")).place_token("D6", 0, "AA")
    board = board.place_token("A5", 0, "AA")
    trains = [KINDS["1+2"], KINDS["2+1T"]]
    phase = board.game.trains.phase("5")
    result = RoutePlanner(board, "AA", phase).best(trains)
    assert result.revenue == route_oracle.best_total(board, "AA", phase, trains) == 50
    assert len(result.routes) == 2
    first, second = (set(r.paths) for r in result.routes)
    assert not first & second
    assert all({"A5", "B4"} <= {c for c, _ in r.stops} for r in result.routes)

"""Every kind of train on a hand-built board, against the independent route oracle.

The board (flat, columns A–C) has an offboard, cities of one and two slots, towns, a plain
track hex, a port (an offboard whose ``visit_cost`` is 0: it uses none of a train's reach)
and a second offboard, joined so that routes branch. Each train kind seed 003's ``<Reach>``
and ``<Score>`` and the 18xx.games engine's ``distance`` can describe is run alone and with
others; the router's optimum must equal what ``tests/route_oracle.py`` finds by trying every
route and every combination, rating each train from its own data.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests import route_oracle
from tilelay import dsl
from tilelay.board import Board
from tilelay.games import Game, game_from_data
from tilelay.games.model import parse_coord
from tilelay.hexgeo import NEIGHBOUR_OFFSETS, Layout
from tilelay.route_rules import TrainSpec, UnsupportedTrain, train_spec
from tilelay.routes import RouteError, RoutePlanner
from tilelay.rules import GameRules
from tilelay.trains import (
    CityScore,
    Reach,
    ReachBase,
    Score,
    StopAllowance,
    TownCounting,
    TrainType,
)

# coord -> (colour, stop part or "" for plain track); the track joins LINKS
STOPS = {
    "A1": ("red", "offboard=revenue:yellow_20|brown_40"),
    "A3": ("white", "city=revenue:20"),
    "A5": ("white", "town=revenue:10"),
    "A7": ("white", "city=revenue:30,slots:2"),
    "A9": ("white", "city=revenue:40"),
    "B4": ("white", "city=revenue:50"),
    "B6": ("white", ""),
    "B8": ("blue", "offboard=revenue:30"),
    "B10": ("white", "town=revenue:20"),
    "C11": ("red", "offboard=revenue:yellow_30|brown_50"),
}
LINKS = [
    ("A1", "A3"),
    ("A3", "A5"),
    ("A3", "B4"),
    ("A5", "A7"),
    ("B4", "B6"),
    ("B6", "A7"),
    ("A7", "B8"),
    ("A7", "A9"),
    ("A9", "B10"),
    ("B10", "C11"),
]
PORT = "B8"  # visit_cost 0


def _edge(a: str, b: str) -> int:
    (ax, ay), (bx, by) = parse_coord(a), parse_coord(b)
    return NEIGHBOUR_OFFSETS[Layout.FLAT].index((bx - ax, by - ay))


def track_code(coord: str, part: str) -> str:
    """The tile code of ``coord`` on a board whose track joins :data:`LINKS`: ``part``'s
    stop with a path to each linked neighbour (terminal from an offboard), or plain track
    through the hex."""
    edges = sorted(_edge(coord, b) for a, b in LINKS if a == coord) + sorted(
        _edge(coord, a) for a, b in LINKS if b == coord
    )
    if not part:
        assert len(edges) == 2
        return f"path=a:{edges[0]},b:{edges[1]}"
    terminal = ",terminal:1" if part.startswith("offboard") else ""
    return ";".join([part, *(f"path=a:{e},b:_0{terminal}" for e in edges)])


def build_game() -> Game:
    hexes: list[dict[str, Any]] = []
    for coord, (color, part) in STOPS.items():
        tile = dsl.parse(track_code(coord, part), color=color)
        if coord == PORT:
            node = replace(tile.nodes[0], visit_cost=0)
            tile = replace(tile, nodes=(node,))
        hexes.append({"coords": [coord], "tile": tile})
    data = {
        "title": "Trains",
        "layout": "flat",
        "hexes": hexes,
        "manifest": {},
        "corporations": [
            {"sym": "AA", "name": "Alpha", "home": "A3"},
            {"sym": "BB", "name": "Beta", "home": "A9"},
        ],
        "trains": [{"name": "2", "distance": 2, "price": 80, "num": 4}],
        "phases": [
            {"name": "2", "tiles": ["yellow"]},
            {"name": "5", "on": "2", "tiles": ["yellow", "green", "brown"]},
        ],
    }
    return game_from_data(data, source="trains test")


GAME = build_game()


def rows(*spec: tuple[tuple[str, ...], int, int, int | None]) -> tuple[StopAllowance, ...]:
    return tuple(StopAllowance(kinds, pay, visit, mult) for kinds, pay, visit, mult in spec)


ALL = ("city", "town", "offboard")
#: Every train kind, by name.
TRAINS: dict[str, TrainType] = {
    t.name: t
    for t in [
        TrainType("2", 0, 2),
        TrainType("3", 0, 3),
        TrainType("2+2", 0, 2, 2),
        TrainType("3T", 0, 3, reach=Reach(count_towns=TownCounting.NO)),
        TrainType("3N", 0, 3, score=Score(towns=False)),
        TrainType("2W", 0, 2, reach=Reach(count_towns=TownCounting.NO), score=Score(towns=False)),
        TrainType("2D", 0, 2, score=Score(cities=CityScore.DOUBLE)),
        TrainType("D", 0, 999),
        TrainType("3H", 0, 3, reach=Reach(base=ReachBase.HEXES)),
        TrainType("5H", 0, 5, reach=Reach(base=ReachBase.HEXES)),
        # 18xx.games distance rows: an express scoring the best 2 of up to 4 stops
        TrainType("2E", 0, 2, allowances=rows((ALL, 2, 4, None))),
        # n+m as rows, with a town row first
        TrainType("1+2", 0, 1, 2, allowances=rows((("town",), 2, 2, None), (ALL, 1, 1, None))),
        # towns visited for free and not paid (18VA's passenger trains)
        TrainType(
            "2V",
            0,
            2,
            allowances=rows(
                (("town",), 99, 99, 0), (("offboard",), 1, 1, None), (("city",), 2, 2, None)
            ),
        ),
        # a whole-train multiplier from numeric distance, and one per row
        TrainType("2x3", 0, 2, multiplier=3),
        TrainType(
            "2M",
            0,
            2,
            allowances=rows((("city", "offboard"), 2, 2, 2), (("town",), 99, 99, None)),
        ),
        TrainType("P", 0, -1),
    ]
}
GOODS = TrainType(
    "2G",
    0,
    2,
    allowances=rows((("town",), 99, 99, None), (("city", "offboard"), 2, 2, None)),
    category="goods",
)


class GoodsRules(GameRules):
    """A game whose rules say what goods trains score (as its rows say)."""

    goods_trains = True


def board(*extra_tokens: tuple[str, str]) -> Board:
    b = Board(GAME).with_home_tokens(["AA"])
    for coord, corp in extra_tokens:
        b = b.place_token(coord, 0, corp)
    return b


def oracle(b: Board, trains: list[TrainType]) -> int | None:
    return route_oracle.best_total(b, "AA", GAME.trains.phase("5"), trains)


@pytest.mark.parametrize("name", sorted(TRAINS))
def test_each_train_alone_equals_the_oracle(name: str) -> None:
    train = TRAINS[name]
    for b in (board(), board(("A9", "AA")), board(("B4", "BB"))):
        planner = RoutePlanner(b, "AA", "5")
        assert planner.best([train]).revenue == oracle(b, [train]), name


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(sorted(TRAINS)), min_size=2, max_size=3))
def test_trains_together_equal_the_oracle(names: list[str]) -> None:
    trains = [TRAINS[n] for n in names]
    b = board(("A9", "AA"))
    expected = oracle(b, trains)
    if expected is None:
        return  # too many combinations for the oracle
    result = RoutePlanner(b, "AA", "5").best(trains)
    assert result.revenue == expected, names
    used: set[tuple[str, int]] = set()
    for r in result.routes:
        assert not used & set(r.paths)
        used |= set(r.paths)


def test_train_kinds_score_differently_on_one_route() -> None:
    """The issue's complaint: a 2H, a 2E and a plain 2 must not earn the same."""
    b = board(("A9", "AA"))
    plain = TrainType("2", 0, 2)
    hexes = TrainType("2H", 0, 2, reach=Reach(base=ReachBase.HEXES))
    express = TrainType("2E", 0, 2, allowances=rows((ALL, 2, 99, None)))
    got = {t.name: RoutePlanner(b, "AA", "5").best([t]).revenue for t in (plain, hexes, express)}
    assert got == {t.name: oracle(b, [t]) for t in (plain, hexes, express)}
    assert len(set(got.values())) == 3, got


def test_the_port_uses_none_of_the_reach() -> None:
    b = board(("A7", "AA"))
    planner = RoutePlanner(b, "AA", "5")
    # three cities are too many for a 2-train; two cities and the port are not
    assert not planner.find(TRAINS["2"], [("A3", 0), ("B4", 0), ("A7", 0)])
    found = planner.find(TRAINS["2"], [("B4", 0), ("A7", 0), (PORT, 0)])
    assert found and found[0].revenue == 50 + 30 + 30


def test_goods_trains_are_refused_without_rules_and_exact_with_them() -> None:
    b = board(("A9", "AA"))
    with pytest.raises(UnsupportedTrain, match="goods train"):
        RoutePlanner(b, "AA", "5").best([GOODS])
    planner = RoutePlanner(b, "AA", "5", rules=GoodsRules())
    assert planner.best([GOODS]).revenue == oracle(b, [GOODS])


class PoolRules(GameRules):
    """Rules whose trains named with a ``/`` keep their track apart only from each other's
    (18 Los Angeles' freight trains beside its passenger trains, stated for any game)."""

    def train_spec(self, train: TrainType, ctx: Any = None) -> TrainSpec:
        spec = super().train_spec(train, ctx)
        return replace(spec, pool=1) if "/" in train.name else spec


def test_trains_of_different_pools_share_track_and_of_one_pool_do_not() -> None:
    """Two 3-trains keep their routes apart; a 3-train and a freight 3/5 (a pool of its
    own) may both run the best route, and two freight trains keep apart again: each equal
    to the oracle told which train is of which kind."""
    b = board(("A9", "AA"))
    three, freight = TRAINS["3"], TrainType("3/5", 0, 3)
    rules = PoolRules()
    alone = RoutePlanner(b, "AA", "5", rules=rules).best([three]).revenue
    apart = RoutePlanner(b, "AA", "5", rules=rules).best([three, three])
    shared = RoutePlanner(b, "AA", "5", rules=rules).best([three, freight])
    freights = RoutePlanner(b, "AA", "5", rules=rules).best([freight, freight])
    assert apart.revenue == oracle(b, [three, three]) < 2 * alone
    assert shared.revenue == 2 * alone
    assert shared.revenue == route_oracle.best_total(
        b, "AA", GAME.trains.phase("5"), [three, freight], pools=[0, 1]
    )
    first, second = shared.routes
    assert set(first.paths) & set(second.paths)
    assert (
        freights.revenue
        == apart.revenue
        == route_oracle.best_total(
            b, "AA", GAME.trains.phase("5"), [freight, freight], pools=[1, 1]
        )
    )
    # the recorded run of both on one track is legal only where the pools differ
    planner = RoutePlanner(b, "AA", "5", rules=rules)
    best = planner.best([three, freight])
    assert planner.run_total(best.routes) == 2 * alone
    plain = RoutePlanner(b, "AA", "5")
    same = plain.find(three, first.stops)[0], plain.find(freight, second.stops)[0]
    with pytest.raises(RouteError, match="shares track"):
        plain.run_total(same)


def test_trains_that_do_not_run_get_no_route() -> None:
    result = RoutePlanner(board(), "AA", "5").best([TRAINS["P"], TRAINS["2"]])
    assert [r.train for r in result.routes] == ["2"]
    assert not train_spec(TRAINS["P"]).runs


def test_halts_are_refused() -> None:
    halt = TrainType("1+1", 0, 1, 1, allowances=rows((("halt",), 1, 1, None), (ALL, 1, 1, None)))
    with pytest.raises(UnsupportedTrain, match="halts"):
        RoutePlanner(board(), "AA", "5").best([halt])


def test_trains_bound_to_a_gauge_or_running_without_tokens_are_refused() -> None:
    narrow = TrainType("2M", 0, 2, track="narrow")
    free = TrainType("2F", 0, 2, requires_token=False)
    for train, why in ((narrow, "narrow track only"), (free, "without a token")):
        with pytest.raises(UnsupportedTrain, match=why):
            RoutePlanner(board(), "AA", "5").best([train])

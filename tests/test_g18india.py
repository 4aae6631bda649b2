"""18India's rules: tokens placed again when a lay first brings track to a tile of two
cities, gauge change markers and their cost in reach, routes from city to city, variable
cities, connections and commodities.

Hand-built records on 18India's map (the engine's sources), each position's routes rated as
the 18xx.games engine rates them (``G18India::Game#revenue_for``); and routes of the shared
18India record, each using one rule, rated as the engine rated them when the record was
made."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import REFERENCE, corp, recorded_runs
from tilelay.audit import RecordAudit, audit_record
from tilelay.replay import ReplayStep, replay_steps
from tilelay.routes import RoutePlanner
from tilelay.rules import RouteView
from tilelay.rules.g18india import G18India

GAUGE = "gauge_change"


pytestmark = pytest.mark.usefixtures("engine_games")


def lay(entity: str, coord: str, tile: str, rotation: int) -> dict[str, Any]:
    return corp(entity, "lay_tile", hex=coord, tile=tile, rotation=rotation)


def buy(entity: str, train: str) -> dict[str, Any]:
    return corp(entity, "buy_train", train=train, price=1, variant=train.rpartition("-")[0])


def steps(actions: list[dict[str, Any]]) -> list[ReplayStep]:
    numbered = [{"id": i + 1, **a} for i, a in enumerate(actions)]
    return list(replay_steps({"title": "18 India", "actions": numbered}))


def planner(step: ReplayStep, corporation: str) -> RoutePlanner:
    return RoutePlanner(step.board, corporation, step.phase, facts=step.facts)


def markers(step: ReplayStep) -> set[tuple[str, int]]:
    return {(c, e) for c, e, kind, _ in step.facts.extra["india.borders"] if kind == GAUGE}


# ---------------------------------------------------------------------- Kolkata and Dhaka

KOLKATA = [
    lay("EIR", "P17", "235-0", 0),  # first track on Kolkata's two cities: EIR's home lifted
    corp("EIR", "place_token", city="235-0-0", slot=0),  # … and placed again
    lay("EIR", "Q18", "9-0", 1),
    buy("EIR", "2-0"),
]


def test_first_track_on_two_cities_lifts_the_tokens_and_the_record_places_them_again() -> None:
    out = steps(KOLKATA)
    assert out[0].board.tokens_of("EIR") == []
    assert out[1].board.tokens_of("EIR") == [("P17", 0)]
    assert not out[-1].notes


def test_a_variable_city_earns_the_best_revenue_off_the_red_hexes_less_20() -> None:
    """Kolkata (30) - Haldia (10) - Dhaka (30, variable): 70, and Dhaka earns 30 - 20 more
    (not Dhaka's own 30: it is red); the route may not end at Haldia, a town."""
    routes = planner(steps(KOLKATA)[-1], "EIR").candidates("2")
    assert [(r.hexes, r.revenue, r.bonus) for r in routes] == [
        (("R17", "Q18", "P19", "P17"), 80, 10)
    ]


# ---------------------------------------------------------------------- gauge changes

MUMBAI = [
    lay("WIP", "E24", "6-1", 2),
    lay("WIP", "F23", "3-1", 1),
    lay("WIP", "E22", "IND3-0", 1),
    buy("WIP", "2-0"),
    buy("WIP", "3-0"),
]


def test_track_across_a_province_border_makes_a_marker_on_both_hexes() -> None:
    """E24's track meets Mumbai's (D23) across E24's province border, and F23's town meets
    E22's across E22's: markers on both sides of both; E24's borders without track across
    stay province borders."""
    out = steps(MUMBAI)
    assert markers(out[0]) == {("E24", 2), ("D23", 5)}
    assert markers(out[-1]) == {("E24", 2), ("D23", 5), ("E22", 5), ("F23", 2)}
    borders = out[-1].facts.extra["india.borders"]
    assert ("E24", 0, "province", 0) in borders


def test_a_gauge_change_uses_a_city_of_the_train_s_reach() -> None:
    """Every route of WIP crosses a marker: a 2-train runs none, a 3-train runs them with
    two cities and the marker."""
    p = planner(steps(MUMBAI)[-1], "WIP")
    assert p.candidates("2") == []
    assert sorted((r.hexes, r.revenue) for r in p.candidates("3")) == [
        (("D23", "D21", "E22", "F23", "E24"), 120),
        (("D23", "E24"), 80),
    ]


def test_a_removed_marker_costs_nothing_more() -> None:
    out = steps([*MUMBAI, corp("WIP", "remove_border", hex="E24", edge=2)])
    assert markers(out[-1]) == {("E22", 5), ("F23", 2)}
    routes = planner(out[-1], "WIP").candidates("2")
    assert [(r.hexes, r.revenue) for r in routes] == [(("D23", "E24"), 80)]


# ---------------------------------------------------------------------- bonuses


def test_connections_pay_for_both_places_visited() -> None:
    rules = G18India()
    assert rules.connection_bonus(["DELHI", None, "KOCHI"]) == 100
    assert rules.connection_bonus(["NEPAL", "MUMBAI", "LAHORE", "KOLKATA"]) == 150
    assert rules.connection_bonus(["DELHI", "MUMBAI"]) == 0


def test_a_delivery_claims_the_commodity_and_the_jewelry_goes_to_the_operating_corporation() -> (
    None
):
    """WIP runs Mumbai - E22 - F23 - E24 (no commodity source); then a run passing H21
    (cotton) to Karachi and Chennai claims cotton; P6 assigning the jewelry in EIR's turn
    claims it for EIR."""
    rules = G18India()
    out = steps(
        [
            corp("WIP", "run_routes", routes=[{"train": "3-0", "connections": [["D23", "E24"]]}]),
            corp(
                "WIP",
                "run_routes",
                routes=[{"train": "3-0", "connections": [["K30", "H21", "A16"]]}],
            ),
            {"type": "assign", "entity": "P6", "entity_type": "company", "target": "F33"},
            lay("EIR", "P17", "235-0", 0),
        ]
    )
    assert dict(out[0].facts.extra["india.claimed"]) == {}
    # the position a run is rated in comes before its claim
    assert dict(out[1].facts.extra["india.claimed"]) == {}
    claimed = {"WIP": ("COTTON",), "EIR": ("JEWELRY",)}
    assert dict(out[2].facts.extra["india.claimed"]) == claimed
    assert out[-1].facts.extra["india.jewelry"] == "F33"
    extra = out[-1].facts.extra
    game = out[-1].board.game
    # cotton is WIP's now; jewelry EIR's; ore still unclaimed
    assert rules.delivered(extra, "WIP", ["H21", "A16"], game) == ["COTTON"]
    assert rules.delivered(extra, "BNR", ["H21", "A16"], game) == []
    assert rules.delivered(extra, "BNR", ["H15", "K30"], game) == ["ORE1"]
    assert rules.delivered(extra, "EIR", ["F33", "P19"], game) == ["JEWELRY"]
    assert rules.delivered(extra, "WIP", ["F33", "P19"], game) == []


# ---------------------------------------------------------------------- the shared record

RECORD = REFERENCE / "18xxgames" / "fixtures" / "18India__18India_game_end_bank.json"


@pytest.fixture(scope="module")
def audit(engine_games: None) -> RecordAudit:
    if not RECORD.exists():
        pytest.skip(f"reference data absent: {RECORD}")
    return audit_record(RECORD, optimum=False)


@pytest.mark.parametrize(
    ("action", "train", "revenue", "rule"),
    [
        (188, "2-0", 80, "Dhaka's variable bonus: Kolkata's 30 less 20"),
        (324, "3-1", 140, "a 3-train: two cities and a gauge change"),
        (374, "3-3", 150, "spices (I18) carried to Mumbai: 40"),
        (485, "4-0", 310, "a 4E: the best four cities of 13 stops, three gauge changes"),
        (617, "4-1", 800, "a 4E: connections 250, commodities 200, five gauge changes"),
        (923, "4x3-2", 1450, "a 4x3: variable bonus times 3, Delhi-Kochi"),
    ],
)
def test_recorded_routes_are_rated_as_the_engine_rated_them(
    audit: RecordAudit, action: int, train: str, revenue: int, rule: str
) -> None:
    (ran,) = [r for r in audit.runs if r.id == action]
    (route,) = [r for r in ran.recorded if r.train == train]
    assert route.problem is None, rule
    assert route.computed_revenue == route.recorded_revenue == revenue, rule


def test_the_bit_tables_rate_every_route_as_the_rules_by_name_and_path_do() -> None:
    """The search's bit tables (:class:`tilelay.rules.g18india._Tables`: the paths with
    bordered sides, the places the bonuses name) give each route of some positions of the
    shared record the gauge changes its paths cross and the bonus its places and hexes earn,
    as the rules state them (by the paths' sides, by location names and hexes), whether the
    route's track comes from the search or from its paths."""
    if not RECORD.exists():
        pytest.skip(f"reference data absent: {RECORD}")
    rules = G18India()
    checked = crossing = bonus = 0
    for step, corporation in recorded_runs(RECORD.stem, 3):
        plan = planner(step, corporation)
        ctx = plan.context
        sides = rules._path_sides(ctx)
        names = [
            ctx.game.hexes[c].location_name if c in ctx.game.hexes else None for c in ctx.coords
        ]
        for train in dict.fromkeys(step.runnable_names(corporation)):
            spec = plan.spec(train)
            if not spec.runs:
                continue
            for route in plan.candidates(train)[:300]:
                _, rated = plan._origin[route]
                view = plan._view(spec, rated)
                bare = RouteView(ctx, spec, view.stops, view.paid, view.revenue, view.ends)
                gauges = sum(sides[p] for p in view.paths) // 2 if sides else 0
                assert rules.gauge_changes(view) == rules.gauge_changes(bare) == gauges
                visited = [names[n] for n in view.stops]
                scored = {names[n] for n in view.paid} & rules.variable_cities
                expected = (
                    len(scored) * rules.variable_each(view)
                    + rules.connection_bonus(visited)
                    + rules.commodity_bonus(ctx, view.hexes)
                )
                assert rules.route_bonus(view) == rules.route_bonus(bare) == expected
                checked += 1
                crossing += gauges > 0
                bonus += expected > 0
    assert checked > 0 and crossing > 0 and bonus > 0


def test_what_is_kept_by_a_route_s_stops_is_what_the_stops_alone_give() -> None:
    """The closer bound keeps its part of the stops alone (their values and connections),
    the express choice of stops and the bonus of the stops and the stops scored are kept,
    by the route's stops: for each route of some positions of the shared record (many with
    the stops of another), the bound kept over all the routes is the bound worked out for
    the route alone, and the stops chosen and the bonus are those worked out again. The
    search asks a train's bound of the routes of the other trains it walks with too: it is
    -1 where the train may not visit the stops (some are; where it may,
    tests/test_route_bounds.py checks the bound)."""
    if not RECORD.exists():
        pytest.skip(f"reference data absent: {RECORD}")
    rules = G18India()
    checked = again = other = 0
    for step, corporation in recorded_runs(RECORD.stem, 3):
        plan = planner(step, corporation)
        ctx = plan.context
        specs = [plan.spec(t) for t in dict.fromkeys(step.runnable_names(corporation))]
        for spec in specs:
            if not spec.runs:
                continue
            kept = rules.stops_bound(ctx, spec)
            seen: set[tuple[int, ...]] = set()
            for route in plan.candidates(spec.name)[:300]:
                _, rated = plan._origin[route]
                view = plan._view(spec, rated)
                alone = rules.stops_bound(ctx, spec)
                assert kept(view.stops, view.track) == alone(view.stops, view.track)
                if not spec.pays_all:
                    assert rules.paid_stops(view) == rules._paid_stops(view)
                assert rules.route_bonus(view) == rules._stops_bonus(view) + rules._delivered_bonus(
                    ctx, view.track
                )
                checked += 1
                again += view.stops in seen
                seen.add(view.stops)
                # the route's stop counts (cities, towns, offboards by visit cost)
                counts = rated[2][2:5]
                for beside in specs:
                    if beside != spec and beside.runs and not beside.fits(counts):
                        assert rules.stops_bound(ctx, beside)(view.stops, view.track) == -1
                        other += 1
    assert checked > 0 and again > 0 and other > 0

"""1822's rules (:mod:`tilelay.rules.g1822`) on hand-built boards of the 1822 map, and its
replay on hand-made records. Each expectation is worked out from the rule (the engine's
``G1822::Game``) and the map's printed revenues; a pullman-attached train's optimum is checked
against the independent brute-force oracle (:mod:`tests.route_oracle`) too."""

from __future__ import annotations

from typing import Any

import pytest

from tests import route_oracle
from tests.conftest import recorded_runs, reference
from tilelay.board import Board
from tilelay.errors import NotFoundError
from tilelay.games import Game, load_game
from tilelay.replay import ReplayStep, replay_steps
from tilelay.routes import RoutePlanner, _Reach
from tilelay.rules import RouteView, RunFacts, rules_for
from tilelay.rules.g1822 import G1822, G1822MRS, G1822NRS

pytestmark = pytest.mark.usefixtures("engine_games")


@pytest.fixture(scope="module")
def game(engine_games: None) -> Game:
    return load_game("1822")


def board_of(game: Game, lays: list[tuple[str, str, int]], tokens: list[tuple[str, str]]) -> Board:
    board = Board(game)
    for coord, tile, rotation in lays:
        board = board.lay(coord, game.tile(tile), rotation)
    for coord, corp in tokens:
        board = board.place_token(coord, 0, corp, extra_slot=True)
    return board


def best(board: Board, corp: str, trains: list[str], phase: str, **facts: Any) -> int:
    planner = RoutePlanner(board, corp, phase, facts=RunFacts(extra=facts))
    return planner.best(trains).revenue


# Wales: Cardiff (F35, yellow 30) joins the gray cities E34 (yellow phase 30, gray 10) and,
# through the town G34, Merthyr Tydfil (F33, yellow phase 20, gray 10); E34 and F33 are joined
# twice: directly and through E32, each track ending at one of them (terminal, "ignore").
TOWN_G34 = ("G34", "4", 1)  # a straight town (10) from F35 to F33


def test_the_rules_are_1822s(game: Game) -> None:
    assert isinstance(rules_for(game), G1822)


def test_an_l_train_runs_its_token_s_city_alone_or_with_a_town(game: Game) -> None:
    alone = board_of(game, [], [("F35", "19")])
    routes = RoutePlanner(alone, "19", "1").best(["L"]).routes
    assert [(r.stops, r.hexes, r.revenue) for r in routes] == [((("F35", 0),), ("F35",), 30)]
    # a 2-train needs two stops: F35-E34
    assert best(alone, "19", ["2"], "1") == 60
    town = board_of(game, [TOWN_G34], [("F35", "19")])
    assert best(town, "19", ["L"], "1") == 40  # Cardiff and the town
    # the L never reaches a second city
    assert all(len(r.stops) <= 2 for r in RoutePlanner(town, "19", "1").candidates("L"))


def test_two_local_trains_never_use_one_city(game: Game) -> None:
    one = board_of(game, [TOWN_G34], [("F35", "19")])
    assert best(one, "19", ["L", "L"], "1") == 40  # not Cardiff twice (30 + 40)
    two = board_of(game, [TOWN_G34], [("F35", "19"), ("E34", "19")])
    assert best(two, "19", ["L", "L"], "1") == 70  # Cardiff and the town, E34 alone
    assert best(two, "19", ["LP", "L"], "1") == 70
    # a local train beside another train may use a city that one visits
    assert best(one, "19", ["L", "2"], "1") == 40 + 60


def test_the_two_tracks_between_merthyr_tydfil_and_pontypool_are_never_both_run(
    game: Game,
) -> None:
    board = board_of(game, [], [("F33", "20")])
    planner = RoutePlanner(board, "20", "1")
    direct = planner.find("2", ["F33", "E34"])
    around = planner.find("2", ["F33", "E32", "E34"])
    assert [r.revenue for r in direct] == [50] and [r.revenue for r in around] == [50]
    assert planner.run_total([direct[0]]) == 50
    assert planner.run_total([direct[0], around[0]]) < 0  # not a run the game allows
    assert planner.best(["2", "2"]).revenue == 50


def test_a_route_stops_twice_in_a_hex_only_in_a_double_hex(game: Game) -> None:
    # Swansea & Oystermouth (D35): a city (20) and a town (10) joined inside the hex
    board = board_of(game, [], [("D35", "24")])
    routes = RoutePlanner(board, "24", "1").candidates("L")
    assert (30, {("D35", 0), ("D35", 1)}) in [(r.revenue, set(r.stops)) for r in routes]
    view_rules = G1822()
    assert "D35" in view_rules.double_hexes and "M38" not in view_rules.double_hexes


def test_a_pullman_runs_no_route_and_makes_a_train_ignore_towns(game: Game) -> None:
    rules = rules_for(game)
    assert not rules.train_spec(game.trains.train_type("P+")).runs
    three_plus = rules.train_type(game, "3+")
    assert three_plus is not None
    spec = rules.train_spec(three_plus)
    assert spec.fits((3, 5, 0)) and not spec.fits((4, 0, 0))
    for name in ("L+", "LP+", "E+", "9+", "P+"):
        assert rules.train_type(game, name) is None
    board = board_of(game, [TOWN_G34], [("F35", "SWR")])
    with pytest.raises(NotFoundError):
        RoutePlanner(board, "SWR", "3").best(["L+"])
    # E34-F35-G34-F33: three cities and a town for the 3+, not for the 3
    assert best(board, "SWR", ["3"], "3") == 40 + 30 + 40
    assert best(board, "SWR", ["3+"], "3") == 40 + 30 + 10 + 40
    # Liverpool (G22) between the town G24 and H23, on to Manchester (I22): the oracle agrees
    # (a board without 1822's one-way tracks, which it does not walk)
    lancashire = board_of(game, [("G24", "4", 0), *HOME_TO_DESTINATION], [("G22", "LYR")])
    phase = game.trains.phase("3")
    assert best(lancashire, "LYR", ["3"], "3") == 30 + 20 + 40
    assert best(lancashire, "LYR", ["3+"], "3") == 10 + 30 + 20 + 40
    assert route_oracle.best_total(lancashire, "LYR", phase, [three_plus]) == 100


def test_the_e_train_scores_its_tokened_cities_doubled_between_them(game: Game) -> None:
    board = board_of(game, [TOWN_G34], [("F35", "SWR"), ("E34", "SWR")])
    # gray phase: E34 10, Cardiff 30, F33 10; only E34 and Cardiff have SWR's token, and the
    # route must end at them: E34-F35, doubled
    assert best(board, "SWR", ["E"], "7") == 2 * (10 + 30)
    one = board_of(game, [TOWN_G34], [("F35", "SWR")])
    assert best(one, "SWR", ["E"], "7") == 0  # one tokened city is no E route
    # the E-train shares track with the other trains: both run E34-F35
    planner = RoutePlanner(board, "SWR", "7")
    e_route = planner.find("E", ["E34", "F35"])[0]
    two = planner.find("2", ["E34", "F35"])[0]
    assert planner.run_total([e_route, two]) == 80 + 40
    assert planner.best(["E", "2"]).revenue == 80 + 40


CHANNEL = [("P43", "X4", 0), ("P41", "57", 0)]  # the Channel (0) joins Dover and France


def test_the_english_channel_goes_on_to_france(game: Game) -> None:
    board = board_of(game, CHANNEL, [("P41", "SECR")])
    planner = RoutePlanner(board, "SECR", "3")
    stops = {frozenset(c for c, _ in r.stops): r.revenue for r in planner.candidates("2")}
    # green phase: Dover (57) 20, France 60; the Channel and France count as one stop
    assert stops.get(frozenset({"P41", "P43", "Q44"})) == 80
    assert frozenset({"P41", "P43"}) not in stops
    assert planner.best(["2"]).revenue == 80
    assert planner.best(["L"]).revenue == 20  # a local train never crosses
    channel = board_of(game, CHANNEL, [("P43", "SECR")])
    assert best(channel, "SECR", ["2"], "3") == 80  # Channel and France alone: no route
    assert {r.stops[0][0] for r in RoutePlanner(channel, "SECR", "3").candidates("2")} <= {
        "P41",
        "P43",
    }


def test_the_e_train_through_the_channel_earns_france(game: Game) -> None:
    board = board_of(game, CHANNEL, [("P41", "SECR"), ("P43", "SECR")])
    # Dover doubled, the Channel's token pays France doubled (gray: 120)
    assert best(board, "SECR", ["E"], "7") == 2 * 20 + 2 * 120


HOME_TO_DESTINATION = [("H23", "6", 2)]  # Liverpool (G22, LYR's home) - H23 - Manchester


def test_a_route_from_home_to_destination_earns_the_destination_again(game: Game) -> None:
    board = board_of(game, HOME_TO_DESTINATION, [("G22", "LYR"), ("I22", "LYR")])
    placed = (("LYR", "I22"),)
    # G22 30, H23 20, I22 40; the destination's 40 once more
    assert best(board, "LYR", ["3"], "3") == 90
    assert best(board, "LYR", ["3"], "3", destinations=placed) == 130
    # a 2-train reaches Manchester from H23 only: no bonus without the home city
    assert best(board, "LYR", ["2"], "3", destinations=placed) == 20 + 40
    planner = RoutePlanner(board, "LYR", "3", facts=RunFacts(extra={"destinations": placed}))
    route = planner.best(["3"]).routes[0]
    assert route.bonus == 40
    # the E-train's bonus is doubled too (gray: G22 and I22 tiles as laid: 30 and 40)
    assert best(board, "LYR", ["E"], "7", destinations=placed) == 2 * (30 + 40) + 2 * 40


# ------------------------------------------------------------------------------ replay


def act(entity: str | int, type_: str, kind: str = "corporation", **fields: Any) -> dict[str, Any]:
    kind = "player" if isinstance(entity, int) else kind
    return {"type": type_, "entity": entity, "entity_type": kind, **fields}


def steps(actions: list[dict[str, Any]]) -> list[ReplayStep]:
    numbered = [{"id": i + 1, **a} for i, a in enumerate(actions)]
    return list(replay_steps({"title": "1822", "actions": numbered}))


def run(entity: str, *trains: tuple[str, list[list[str]]]) -> dict[str, Any]:
    routes = [{"train": t, "connections": c, "revenue": 0} for t, c in trains]
    return act(entity, "run_routes", routes=routes)


def test_a_minor_s_first_train_is_the_one_it_runs(game: Game) -> None:
    out = steps(
        [
            act("19", "buy_train", train="L-0", price=60, variant="L"),
            act("24", "buy_train", train="L-0", price=60, variant="L"),
            run("19", ("L-4", [["local", "F35"]])),
            run("24", ("L-5", [["local", "D35"]])),
            act("19", "buy_train", train="L-4", price=80, variant="2", exchange="L-4"),
        ]
    )
    assert out[0].trains["19"] == {"L-4": "L"}
    assert out[1].trains == {"19": {"L-4": "L"}, "24": {"L-5": "L"}}
    assert out[-1].trains["19"] == {"L-4": "2"}
    assert not any("did not see" in n for n in out[-1].notes)


def test_a_company_that_is_a_train_becomes_it(game: Game) -> None:
    out = steps(
        [
            act("LNWR", "acquire_company", company="P3"),
            act("MR", "acquire_company", company="P19"),
        ]
    )
    assert out[-1].trains == {"LNWR": {"2P-0": "2P"}, "MR": {"LP-0": "LP"}}
    assert "P3" not in out[-1].facts.companies and "P19" not in out[-1].facts.companies


def acquisition(minor: str, token: str) -> list[dict[str, Any]]:
    return [
        act("LYR", "merge", corporation=minor),
        act("LYR", "choose", choice="money"),
        act("LYR", "choose", choice=token),
    ]


def test_a_major_acquiring_a_minor_takes_its_trains_and_maybe_its_token(game: Game) -> None:
    start = [
        act("21", "buy_train", train="L-0", price=60, variant="L"),
        run("21", ("L-2", [["local", "E34"]])),
        act("LYR", "lay_tile", hex="H23", tile="6-0", rotation=2),
    ]
    replaced = steps(start + acquisition("21", "replace"))
    assert replaced[2].board.tokens[("E34", 0)] == ("21",)
    assert replaced[-1].board.tokens[("E34", 0)] == ("LYR",)
    assert replaced[-1].trains.get("LYR") == {"L-2": "L"}
    assert "21" not in replaced[-1].trains
    exchanged = steps(start + acquisition("21", "exchange"))
    assert ("E34", 0) not in exchanged[-1].board.tokens
    assert exchanged[-1].trains.get("LYR") == {"L-2": "L"}
    # a minor from the bid box: the major's token goes to the minor's home city
    bank = steps(
        [act("LYR", "lay_tile", hex="H23", tile="6-0", rotation=2), *acquisition("20", "replace")]
    )
    assert bank[-1].board.tokens[("F33", 0)] == ("LYR",)


def test_acquiring_minor_14_lets_the_major_add_a_slot_in_london(game: Game) -> None:
    out = steps(
        [
            act("LNWR", "pass"),
            *[{**a, "entity": "NBR"} for a in acquisition("14", "replace")],
            act("NBR", "place_token", city="M38-0-3", slot=0),
        ]
    )
    assert out[0].board.tokens[("M38", 3)] == ("LNWR",)
    assert out[-1].board.tokens[("M38", 3)] == ("LNWR", "NBR")
    # another corporation may not
    with pytest.raises(Exception, match="full"):
        steps([act("LNWR", "pass"), act("NBR", "place_token", city="M38-0-3", slot=0)])


def test_destination_tokens(game: Game) -> None:
    out = steps(
        [
            act("LNWR", "pass"),
            act("LYR", "hex_token", hex="I22", token_type="destination"),
        ]
    )
    # the LNWR places its destination token at Manchester with its home token; the LYR's
    # goes in beside it, a slot added for it... or the city's second slot
    assert out[0].board.tokens[("I22", 0)] == ("LNWR",)
    assert out[-1].board.tokens[("I22", 0)] == ("LNWR", "LYR")
    assert dict(out[-1].facts.extra["destinations"]) == {"LNWR": "I22", "LYR": "I22"}


def test_a_pullman_is_attached_for_one_run(game: Game) -> None:
    out = steps(
        [
            act("LYR", "buy_train", train="3-0", price=200, variant="3"),
            act("LYR", "buy_train", train="4-0", price=300, variant="4"),
            act("LYR", "acquire_company", company="P13"),
            act("LYR", "choose", choice="1"),
            run("LYR", ("3-0", [["G22", "H23"]])),
            act("LYR", "dividend", kind="payout"),
        ]
    )
    assert out[3].trains["LYR"] == {"3-0": "3", "4-0": "4+", "P+-0": "P+"}
    assert out[4].runnable_names("LYR") == ["3", "4+", "P+"]
    assert out[-1].trains["LYR"] == {"3-0": "3", "4-0": "4", "P+-0": "P+"}


def test_the_regional_scenarios_have_1822_s_rules(engine_games: None) -> None:
    mrs = rules_for(load_game("1822MRS"))
    nrs = rules_for(load_game("1822NRS"))
    assert type(mrs) is G1822MRS and mrs.english_channel == "P43"
    assert type(nrs) is G1822NRS and nrs.english_channel is None and nrs.france is None
    # the other games built on 1822 (MX, PNW, Africa) change its route rules: not these
    for title in ("1822MX", "1822PNW", "1822Africa"):
        assert not isinstance(rules_for(load_game(title)), G1822)


def test_the_shared_hexes_table_refuses_the_routes_the_rule_by_hexes_refuses(
    engine_games: None,
) -> None:
    """A route stops at most once in a hex unless it stops in a double hex: the test the
    search makes first (whether the route stops at a node that shares its hex, not a double
    hex, with another node: :meth:`G1822._node_hexes`) leaves the rule as it is stated, by
    the stops' hexes, for every route of the smaller trains in some positions of the shared
    1822 record (some of them stopping at such a node; the walk's groups keep them from
    stopping twice in these hexes, and a hand-built board above has a route refused)."""
    if not reference("18xxgames", "fixtures", "1822__33845.json").exists():
        pytest.skip("reference data absent: 1822__33845")
    rules = G1822()
    checked = shared = 0
    for step, corp in recorded_runs("1822__33845", 12):
        planner = RoutePlanner(step.board, corp, step.phase, facts=step.facts)
        ctx = planner.context
        sharing = rules._node_hexes(ctx)[3]
        for train in ("3", "5"):
            spec = planner.spec(train)
            for found in planner._net.enumerate(_Reach([spec])).values():
                stops, ends = planner._unfold(found)
                view = RouteView(ctx, spec, stops, stops, 0, ends)
                hexes = [ctx.coords[n] for n in stops]
                twice = len(set(hexes)) != len(hexes)
                double = any(c in rules.double_hexes for c in hexes)
                channel = sum(c in (rules.english_channel, rules.france) for c in hexes)
                lone = channel == 1 or (channel == 2 and len(stops) == 2)
                assert rules.route_allowed(view) == (not (twice and not double) and not lone)
                checked += 1
                shared += not sharing.isdisjoint(stops)
    assert checked > 0 and shared > 0

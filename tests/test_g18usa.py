"""18USA's rules: the setup the engine draws from a record's seed, what replay does with it
(metropolises, red hexes, the depot, subsidies, company towns, train upgrades), and the
route rules (resources, bridges, company towns, subsidies, pullmans, extenders, the
switcher, Mexico).

The draws are checked against what the 18xx.games engine holds after its setup under Ruby
(seed 109372, four players: the shared record's); hand-built records on 18USA's map (the
engine's sources) check replay; the shared record's routes, each using one rule, are rated
as the engine rated them when the record was made. The switcher's trains run on a
hand-built board with 18USA's rules, against a brute force that tries every route (blocked
cities passed or not) and rates it as the engine's ``skipped_stop`` and ``check_connected``
say."""

from __future__ import annotations

import itertools
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from tests import route_oracle
from tests.conftest import REFERENCE, corp
from tests.test_route_trains import track_code
from tilelay import dsl
from tilelay.audit import RecordAudit, audit_record
from tilelay.board import NEUTRAL, Board
from tilelay.games import Game, game_from_data, load_game
from tilelay.replay import RecordError, ReplayStep, load_record, replay_steps
from tilelay.route_rules import UnsupportedTrain
from tilelay.routes import RouteError, RoutePlanner
from tilelay.rules import GameRules, RunFacts, Start, g18usa, rules_for
from tilelay.rules.g18usa import G18USA, EngineRandom, draw_setup
from tilelay.tile import Tile

pytestmark = pytest.mark.usefixtures("engine_games")

SEED = 109372
PLAYERS = [{"id": i, "name": f"Player {i}"} for i in (1, 2, 3, 4)]


def record(actions: list[dict[str, Any]], seed: int = SEED) -> dict[str, Any]:
    numbered = [{"id": i + 1, **a} for i, a in enumerate(actions)]
    return {
        "id": seed,
        "title": "18USA",
        "players": PLAYERS,
        "settings": {"seed": seed, "optional_rules": []},
        "actions": numbered,
    }


def steps(actions: list[dict[str, Any]]) -> list[ReplayStep]:
    return list(replay_steps(record(actions)))


def player(entity: int, type_: str, **fields: Any) -> dict[str, Any]:
    return {"type": type_, "entity": entity, "entity_type": "player", **fields}


def planner(step: ReplayStep, corporation: str) -> RoutePlanner:
    return RoutePlanner(step.board, corporation, step.phase, facts=step.facts)


# ---------------------------------------------------------------------- the seeded setup


def test_the_engines_generator() -> None:
    rand = EngineRandom(1)
    assert [rand.draw() for _ in range(3)] == [1103527590, 377401575, 662824084]
    assert EngineRandom(2**31 + 1).draw() == 1103527590


def test_the_setup_drawn_for_the_records_seed_is_the_engines() -> None:
    """What the engine holds after its setup for seed 109372 and four players (printed
    under Ruby: ``closed?`` companies, ``active_metropolis_hexes``, ``subsidies_by_hex``, the
    red hexes' revenues)."""
    game = load_game("18USA")
    setup = draw_setup(SEED, 4, [(c.sym, c.value) for c in game.companies])
    assert setup.removed == {
        *("P6", "P7", "P9", "P10", "P12", "P13", "P14", "P17"),
        *("P19", "P20", "P23", "P25", "P26", "P28", "P29"),
    }
    assert setup.metropolises == ("H22", "D20", "I19")
    assert setup.subsidies == {
        "B8": "S3",
        "B14": "S12",
        "C3": "S13",
        "D6": "S11",
        "D14": "S9",
        "E3": "S5",
        "E7": "S6",
        "E23": "S8",
        "G7": "S2",
        "G11": "S14",
        "G27": "S16",
        "H8": "S10",
        "I13": "S4",
        "I25": "S1",
    }
    values = setup.red_values
    assert values["A15"] == (20, 30, 40, 60)
    assert values["A27"] == (30, 50, 60, 80)
    assert values["B2"] == (20, 30, 40, 50)
    assert values["E1"] == (20, 30, 60, 90)
    assert {values[h] for h in ("I5", "I7", "I9", "I11", "J12", "K13")} == {(30, 40, 50, 60)}
    assert values["J20"] == (30, 40, 40, 50)
    assert values["J24"] == (40, 50, 40, 40)


def test_a_record_without_settings_takes_the_digits_of_its_id_as_seed() -> None:
    assert Start.of_record({"id": "hotseat-123", "settings": {"seed": ""}}).seed == 123
    assert Start.of_record({"settings": {"seed": 7}}).seed == 7
    assert Start.of_record({"settings": {"seed": "12"}, "players": [{}, {}]}) == Start(12, 2)
    assert Start.of_record({}).seed is None


def test_replay_lays_the_metropolises_and_adds_the_red_hexes() -> None:
    (step,) = steps([player(1, "pass")])
    board = step.board
    assert (board.tile_at("H22").name, board.tile_at("H22").rotation) == ("X01", 0)
    assert (board.tile_at("D20").name, board.tile_at("D20").rotation) == ("X02", 1)
    assert board.tile_at("I19").name == "X06"
    assert board.tile_at("G3").name == "G3"  # not drawn: still a potential metropolis
    (node,) = board.tile_at("J20").nodes
    assert node.revenue is not None
    assert dict(node.revenue.phases) == {"yellow": 30, "green": 40, "brown": 40, "gray": 50}
    assert board.tile_at("I9").nodes[0].groups == ("Mexico",)
    # with four players one 2+, 4, 5 and 6 leave the depot
    nums = {t["name"]: t["num"] for t in board.game.train_data}
    assert (nums["2+"], nums["4"], nums["5"], nums["6"], nums["3"]) == (4, 7, 5, 4, 12)
    # the variant has rules of its own, 18USA's
    assert isinstance(rules_for(board.game), G18USA)
    # a record's city reference finds a metropolis the game laid
    (token,) = steps([corp("PRR", "place_token", city="X01-0-0", slot=0)])
    assert token.board.tokens_of("PRR") == [("H22", 0)]


def test_the_optional_rule_of_1817s_trains_plays_with_them() -> None:
    """``seventeen_trains``: 1817's trains (as the engine's 1817 has them, whatever the
    number of players) and 20 pullmans, 18USA's phases but those of the trains 1817 has not
    (18xx.games' ``G18USA::Game#game_trains``, ``#game_phases``); replay buys from them."""
    seventeen = load_game("1817")
    game = load_game("18USA")
    made = Start(SEED, len(PLAYERS))
    chosen = rules_for(game).game_for(game, Start(SEED, len(PLAYERS), ("seventeen_trains",)))
    roster = {c.name: c.quantity for c in chosen.trains.card_types}
    assert roster == {**{c.name: c.quantity for c in seventeen.trains.card_types}, "P": 20}
    assert "3+" not in roster and roster["2+"] == 4  # 18USA's own has a 3+ and five 2+s
    phases = [p.name for p in chosen.trains.phases]
    assert phases == [p.name for p in game.trains.phases if p.name not in ("3+", "4+")]
    # without the rule, 18USA's trains (less one of each short train for four players)
    plain = rules_for(game).game_for(game, made)
    assert {c.name for c in plain.trains.card_types} == {c.name for c in game.trains.card_types}
    # a record played with it replays on them
    (step,) = list(
        replay_steps(
            {
                **record([player(1, "pass")]),
                "settings": {"seed": SEED, "optional_rules": ["seventeen_trains"]},
            }
        )
    )
    assert step.board.game.trains == chosen.trains


def test_a_home_on_a_subsidy_of_ten_earns_its_routes_ten_more() -> None:
    """NYC's home in H8 takes S10 (+10 for every route stopping there), B&O's in D6 S11."""
    out = steps(
        [
            player(1, "bid", corporation="NYC", price=100),
            corp("NYC", "place_token", city="H8-0-0", slot=0),
            player(2, "bid", corporation="B&O", price=100),
            corp("B&O", "place_token", city="D6-0-0", slot=0),
        ]
    )
    assert dict(out[-1].facts.extra["usa.icons"]) == {"H8": "S10", "D6": "S11"}


def test_companies_put_in_at_start_and_a_company_town() -> None:
    """The companies a player puts into the corporation started are its own; P27 laying a
    company town gives it a neutral token and one of P27's owner, and closes."""
    out = steps(
        [
            player(1, "bid", corporation="SR", price=100),
            corp("SR", "place_token", city="F20-0-0", slot=0),
            player(1, "assign", target="P27", target_type="company"),
            player(1, "assign", target="P30", target_type="company"),
            {"type": "lay_tile", "entity": "P27", "entity_type": "company", "hex": "F18"}
            | {"tile": "X20-0", "rotation": 1},
        ]
    )
    assert out[3].facts.companies == {"P27": "SR", "P30": "SR"}
    board = out[-1].board
    assert board.tokens[("F18", 0)] == (NEUTRAL, "SR")
    assert out[-1].facts.companies == {"P30": "SR"}


def test_an_extender_and_a_pullman_are_attached_for_one_run() -> None:
    buy = {"price": 100, "variant": "2"}
    out = steps(
        [
            player(1, "bid", corporation="PRR", price=100),
            corp("PRR", "place_token", city="X01-0-0", slot=0),
            player(1, "assign", target="P30", target_type="company"),
            corp("PRR", "buy_train", train="2-0", **buy),
            corp("PRR", "buy_train", train="2-1", **buy),
            corp("PRR", "choose", choice="1-0"),
            corp("PRR", "run_routes", routes=[]),
            corp("PRR", "dividend", kind="payout"),
        ]
    )
    assert out[5].trains["PRR"] == {"2-0": "2", "2-1": "2+1"}
    assert out[-1].trains["PRR"] == {"2-0": "2", "2-1": "2"}
    rules = G18USA()
    game = out[0].board.game
    extended = rules.train_type(game, "2+1")
    pullman = rules.train_type(game, "5P")
    assert extended is not None and extended.major_stops == 3
    assert pullman is not None and pullman.major_stops == 5
    switched = rules.train_type(game, "5/1")
    assert switched is not None and switched.major_stops == 6
    assert rules.train_type(game, "9/1") is None  # not one of the game's trains


def test_a_switcher_is_attached_for_one_run_beside_an_extender() -> None:
    """Seed 109373 keeps P19 and P30: PRR attaches the switcher (upgrade 0, first in the
    engine's order) to its first 2, then the extender (now upgrade 0) to its second; both
    come off after the run. Its routes may then be sought with the switcher's train."""
    buy = {"price": 100, "variant": "2"}
    out = list(
        replay_steps(
            record(
                [
                    player(1, "bid", corporation="PRR", price=100),
                    corp("PRR", "place_token", city="X01-0-0", slot=0),
                    player(1, "assign", target="P19", target_type="company"),
                    player(1, "assign", target="P30", target_type="company"),
                    corp("PRR", "buy_train", train="2-0", **buy),
                    corp("PRR", "buy_train", train="2-1", **buy),
                    corp("PRR", "choose", choice="0-0"),
                    corp("PRR", "choose", choice="1-0"),
                    corp("PRR", "run_routes", routes=[]),
                    corp("PRR", "dividend", kind="payout"),
                ],
                seed=109373,
            )
        )
    )
    assert out[6].trains["PRR"] == {"2-0": "2/1", "2-1": "2"}
    assert out[7].trains["PRR"] == {"2-0": "2/1", "2-1": "2+1"}
    assert out[-1].trains["PRR"] == {"2-0": "2", "2-1": "2"}
    step = out[7]
    assert step.facts.companies["P19"] == "PRR"
    found = planner(step, "PRR")
    assert found.spec("2/1").capacity(0b111) == 3
    assert found.best(["2/1", "2+1"]).revenue == 0  # no track yet
    # both on one train, which visits two stops more
    both = replay_steps_list(
        [
            player(1, "bid", corporation="PRR", price=100),
            corp("PRR", "place_token", city="X01-0-0", slot=0),
            player(1, "assign", target="P19", target_type="company"),
            player(1, "assign", target="P30", target_type="company"),
            corp("PRR", "buy_train", train="2-0", **buy),
            corp("PRR", "choose", choice="0-0"),
            corp("PRR", "choose", choice="0-0"),
            corp("PRR", "run_routes", routes=[]),
            corp("PRR", "dividend", kind="payout"),
        ]
    )
    assert both[-2].trains["PRR"] == {"2-0": "2/1+1"}  # as it runs
    assert planner(both[-2], "PRR").spec("2/1+1").capacity(0b111) == 4
    assert both[-1].trains["PRR"] == {"2-0": "2"}
    # a corporation without the switcher may not attach it
    with pytest.raises(RecordError, match="no upgrade 1 to attach"):
        replay_steps_list(
            [
                player(1, "bid", corporation="PRR", price=100),
                corp("PRR", "place_token", city="X01-0-0", slot=0),
                player(1, "assign", target="P19", target_type="company"),
                corp("PRR", "buy_train", train="2-0", **buy),
                corp("PRR", "choose", choice="0-1"),
            ]
        )


def replay_steps_list(actions: list[dict[str, Any]]) -> list[ReplayStep]:
    return list(replay_steps(record(actions, seed=109373)))


def test_an_upgrade_that_cannot_be_attached_is_an_error_naming_the_action() -> None:
    with pytest.raises(RecordError, match="action 1: PRR has no upgrade 0 to attach"):
        steps([corp("PRR", "choose", choice="0-0")])


# ---------------------------------------------------------------------- the shared record

RECORD = REFERENCE / "18xxgames" / "fixtures" / "18USA__109372.json"

#: Recorded routes passing a junction twice (on different track), which the engine's route
#: check lets by and tilelay's routes never do.
JUNCTION_TWICE = {937, 1076, 1270, 1331, 1380, 1391, 1475}


@pytest.fixture(scope="module")
def audit(engine_games: None) -> RecordAudit:
    if not RECORD.exists():
        pytest.skip(f"reference data absent: {RECORD}")
    return audit_record(RECORD, optimum=False)


def test_the_record_replays_to_the_end_with_every_recorded_revenue(audit: RecordAudit) -> None:
    assert audit.error is None, audit.error
    assert len(audit.runs) == 113
    wrong = {
        run.id
        for run in audit.runs
        for r in run.recorded
        if r.problem is not None or r.computed_revenue != r.recorded_revenue
    }
    assert wrong == JUNCTION_TWICE


def _route(audit: RecordAudit, run_id: int, train: str) -> tuple[str | None, int | None, int]:
    run = next(r for r in audit.runs if r.id == run_id)
    rated = next(r for r in run.recorded if r.train == train)
    assert rated.route is not None
    return rated.train_type, rated.computed_revenue, rated.route.bonus


@pytest.mark.parametrize(
    ("run_id", "train", "expected", "rule"),
    [
        # E17 (bridge: +10) - E19 - D20: 20 + 30 + 10
        (228, "2-1", ("2", 60, 10), "a bridge"),
        # D14 - D16 (ore 20) - D18 - C19 (ore 20) - D20: the ores and D14's bridge
        (228, "2-0", ("2", 80, 30), "ore and a bridge"),
        # PRR's 2 with the extender: three stops I19 - H20 - H22
        (235, "2-2", ("2+1", 80, 0), "an extender"),
        # SR's company town F18 (its own token) and F20's bridge
        (240, "2-5", ("2", 60, 10), "a company town of one's own"),
        # MP at SR's company town: 10 less; E17's bridge 10 more
        (267, "2-13", ("2", 60, 10), "another's company town"),
        # NYC's home H8 with S10 to Mexico (I9)
        (246, "2-7", ("2", 60, 10), "a subsidy's +10"),
        # TP's 5 with the pullman: 20 a stop
        (981, "5-4", ("5P", 430, 150), "a pullman"),
    ],
)
def test_recorded_routes_are_rated_as_the_engine_rates_them(
    audit: RecordAudit, run_id: int, train: str, expected: tuple[str, int, int], rule: str
) -> None:
    assert _route(audit, run_id, train) == expected, rule


def test_no_more_than_two_routes_to_mexico() -> None:
    """``run_revenue`` refuses a run with three routes stopping in Mexico."""
    rules = G18USA()
    ctx = SimpleNamespace(coords=["I5", "I9", "H8", "J12"], facts=RunFacts(), corporation="NYC")

    def view(stops: tuple[int, ...]) -> Any:  # a stand-in for a RouteView
        return SimpleNamespace(stops=stops, ctx=ctx)

    two = [view((0, 2)), view((1, 2)), view((2,))]
    three = [view((0, 2)), view((1, 2)), view((3, 2))]
    assert rules.run_revenue(two, 200) == 200
    assert rules.run_revenue(three, 300) < 0


# ---------------------------------------------------------------------- the switcher

# A hand-built board with 18USA's rules (flat, columns A-C): coord -> (colour, stop part, tile
# name); the track joins tests/test_route_trains.py's LINKS (track_code). B4 is a rural
# junction (X07: a stop of 10 using none of the reach, where no route begins or ends).
SWITCH_STOPS = {
    "A1": ("red", "offboard=revenue:40", ""),
    "A3": ("white", "city=revenue:20", ""),
    "A5": ("white", "city=revenue:10", ""),
    "A7": ("white", "city=revenue:30", ""),
    "A9": ("white", "city=revenue:50", ""),
    "B4": ("yellow", "town=revenue:10,visit_cost:0", "X07"),
    "B6": ("white", "city=revenue:60", ""),
    "B8": ("white", "city=revenue:40", ""),
    "B10": ("white", "town=revenue:20", ""),
    "C11": ("red", "offboard=revenue:30", ""),
}
RURAL = "B4"


def _switch_game() -> Game:
    hexes: list[dict[str, Any]] = []
    for coord, (color, part, name) in SWITCH_STOPS.items():
        tile = dsl.parse(track_code(coord, part), color=color, name=name)
        if name:  # laid on the board (switch_board); the hex is empty
            RURAL_TILE.append(tile)
            tile = dsl.parse("", color="white")
        hexes.append({"coords": [coord], "tile": tile})
    data = {
        "title": "Switcher board",
        "route_rules": "18USA",
        "layout": "flat",
        "hexes": hexes,
        "manifest": {},
        "corporations": [
            {"sym": "AA", "name": "Alpha", "home": "A3"},
            {"sym": "BB", "name": "Beta", "home": "A9"},
            {"sym": "CC", "name": "Gamma", "home": "B6"},
        ],
        "trains": [
            {"name": n, "distance": int(n), "price": 100, "num": 4} for n in ("2", "3", "4")
        ],
        "phases": [{"name": "2", "tiles": ["yellow"]}],
    }
    return game_from_data(data, source="switcher test")


#: the rural junction laid on B4 (X07)
RURAL_TILE: list[Tile] = []
SWITCH_GAME = _switch_game()
#: AA owns the switcher's company
SWITCH_FACTS = RunFacts(companies={"P19": "AA"})


def switch_board(*tokens: tuple[str, str]) -> Board:
    board = Board(SWITCH_GAME).lay(RURAL, RURAL_TILE[0], 0).with_home_tokens(["AA"])
    for coord, corporation in tokens:
        board = board.place_token(coord, 0, corporation)
    return board


def _engine_rating(
    board: Board, stops: tuple[tuple[str, int], ...], distance: int, switcher: bool
) -> tuple[int, tuple[tuple[str, int], ...]] | None:
    """A route's revenue and scored stops as 18xx.games' 18USA rates it (written from its
    ``check_distance``, ``check_connected``, ``compute_stops`` and ``skipped_stop``), or
    None when the train may not run it."""
    tiles = {s: board.tile_at(s[0]) for s in stops}

    def value(s: tuple[str, int]) -> int:
        revenue = tiles[s].nodes[s[1]].revenue
        return 0 if revenue is None else revenue.value

    def cost(s: tuple[str, int]) -> int:
        return tiles[s].nodes[s[1]].visit_cost

    if len(stops) < 2 or {tiles[stops[0]].name, tiles[stops[-1]].name} & {"X07"}:
        return None
    passed = [s for s in stops[1:-1] if route_oracle.blocked(board, "AA", s)]
    if len(passed) > (1 if switcher else 0):
        return None
    if switcher:
        distance += 1
    if sum(cost(s) for s in stops) > distance:
        return None
    paid = list(stops)
    if switcher and len(stops) > 2:
        skipped = passed[0] if passed else None
        counted = [s for s in stops if cost(s) > 0]
        if skipped is None and len(counted) >= distance:
            own = [s for s in counted if s in board.token_nodes("AA")]
            if len(own) == 1:
                counted.remove(own[0])
            # the first stop whose leaving out earns most
            best = max(sum(value(t) for t in stops if t != s) for s in counted)
            skipped = next(s for s in counted if sum(value(t) for t in stops if t != s) == best)
        if skipped is not None:
            paid.remove(skipped)
    return sum(value(s) for s in paid), tuple(paid)


def _brute_force(board: Board, trains: list[str]) -> int:
    """The best run of ``trains`` (names, ``/1`` for the switcher) tried every way: every
    route, blocked cities passed or not, rated by :func:`_engine_rating`, every combination
    of one route or none per train keeping apart."""
    routes = route_oracle.routes_of(board, "AA", pass_blocked=True)
    options: list[list[tuple[int, Any] | None]] = []
    for name in trains:
        switcher = name.endswith("/1")
        distance = int(name.removesuffix("/1"))
        opts: list[tuple[int, Any] | None] = [None]
        for r in routes:
            rated = _engine_rating(board, r.stops, distance, switcher)
            if rated is not None:
                opts.append((rated[0], r))
        options.append(opts)
    best = 0
    for combo in itertools.product(*options):
        chosen = [c for c in combo if c is not None]
        paths = [p for _, r in chosen for p in r.paths]
        sides = [s for _, r in chosen for s in r.sides]
        if len(paths) == len(set(paths)) and len(sides) == len(set(sides)):
            best = max(best, sum(v for v, _ in chosen))
    return best


#: Boards for the switcher: other corporations' tokens (BB, CC fill one-slot cities)
SWITCH_BOARDS = {
    "open": (),
    "A7 blocked": (("A7", "BB"),),
    "A7 and B6 blocked": (("A7", "BB"), ("B6", "CC")),
    "A5 and A7 blocked": (("A5", "BB"), ("A7", "CC")),
    "a second token": (("A9", "AA"), ("B6", "CC")),
}


@pytest.mark.parametrize("tokens", sorted(SWITCH_BOARDS))
@pytest.mark.parametrize(
    "trains", [["2/1"], ["3/1"], ["4/1"], ["2"], ["3"], ["3/1", "2"], ["2/1", "3"]]
)
def test_a_switchers_train_equals_the_brute_force(tokens: str, trains: list[str]) -> None:
    """The best run equals every route tried and rated as the engine rates it; each route
    found scores the stops the engine's skipping leaves."""
    board = switch_board(*SWITCH_BOARDS[tokens])
    result = RoutePlanner(board, "AA", "2", facts=SWITCH_FACTS).best(trains)
    assert result.revenue == _brute_force(board, trains)
    for route in result.routes:
        distance = int(route.train.removesuffix("/1"))
        rated = _engine_rating(board, route.stops, distance, route.train.endswith("/1"))
        assert rated == (route.revenue, route.scored), route


def _best(board: Board, train: str) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
    result = RoutePlanner(board, "AA", "2", facts=SWITCH_FACTS).best([train])
    (route,) = result.routes
    return route.revenue, tuple(c for c, _ in route.stops), tuple(c for c, _ in route.scored)


def test_the_switcher_skips_the_stop_earning_least() -> None:
    """A 3 with the switcher (distance 4) runs A9 (50) - A7 (30) - B6 (60) - B4 (rural, 10)
    - A3 (AA, 20): four stops using reach, so one is skipped, the least: A7. It earns 140,
    the plain 3 130 (A1 - A3 - B4 - B6)."""
    board = switch_board()
    assert _best(board, "3/1") == (
        140,
        ("A9", "A7", "B6", "B4", "A3"),
        ("A9", "B6", "B4", "A3"),
    )
    assert _best(board, "3")[0] == 130
    # a 2 with it skips A1 (40) rather than B6 (60) on A1 - A3 - B4 - B6 (A3: its token)
    planner = RoutePlanner(board, "AA", "2", facts=SWITCH_FACTS)
    (found,) = planner.find("2/1", [("A1", 0), ("A3", 0), ("B4", 0), ("B6", 0)])
    assert (found.revenue, _coords(found.scored)) == (90, {"A3", "B4", "B6"})


def test_the_switcher_never_skips_the_only_token() -> None:
    """A 3 with the switcher on A3 (AA, 20) - A5 (10) - A7 (30) - A9 (50): four stops, its
    distance: it skips A5, the least; were A5 the token, it would skip A3."""
    planner = RoutePlanner(switch_board(), "AA", "2", facts=SWITCH_FACTS)
    route = [("A3", 0), ("A5", 0), ("A7", 0), ("A9", 0)]
    (found,) = planner.find("3/1", route)
    assert (found.revenue, _coords(found.scored)) == (100, {"A3", "A7", "A9"})
    # AA's only token at A5 (10): A3 (20) is skipped instead
    board = bare_board().place_token("A5", 0, "AA")
    planner = RoutePlanner(board, "AA", "2", facts=SWITCH_FACTS)
    (found,) = planner.find("3/1", route)
    assert (found.revenue, _coords(found.scored)) == (90, {"A5", "A7", "A9"})
    # with a second token at A9 either may go: the least, A5
    board = switch_board(("A5", "AA"))
    (found,) = RoutePlanner(board, "AA", "2", facts=SWITCH_FACTS).find("3/1", route)
    assert found.revenue == 100


def _coords(stops: tuple[tuple[str, int], ...]) -> set[str]:
    return {c for c, _ in stops}


def bare_board() -> Board:
    return Board(SWITCH_GAME).lay(RURAL, RURAL_TILE[0], 0)


def test_no_skip_below_the_distance() -> None:
    """A 3 with the switcher (distance 4) running three stops scores them all."""
    planner = RoutePlanner(switch_board(), "AA", "2", facts=SWITCH_FACTS)
    (found,) = planner.find("3/1", [("A3", 0), ("A5", 0), ("A7", 0)])
    assert (found.revenue, len(found.scored)) == (60, 3)
    (plain,) = planner.find("3", [("A3", 0), ("A5", 0), ("A7", 0)])
    assert plain.revenue == 60
    # nor on a route of two stops
    (found,) = planner.find("2/1", [("A1", 0), ("A3", 0)])
    assert found.revenue == 60


def test_a_rural_junction_uses_none_of_the_distance_nor_counts_for_a_skip() -> None:
    """A1 - A3 - B4 (rural) - B6 - A7: four stops using reach, the switcher's 3's distance:
    one skipped (A3 is the only token: A7 goes, 30); A3 - B4 - B6: two stops using reach,
    nothing skipped; a route may not end at B4."""
    planner = RoutePlanner(switch_board(), "AA", "2", facts=SWITCH_FACTS)
    (found,) = planner.find("3/1", [("A1", 0), ("A3", 0), ("B4", 0), ("B6", 0), ("A7", 0)])
    assert found.revenue == 40 + 20 + 10 + 60
    assert ("A7", 0) not in found.scored
    (found,) = planner.find("2/1", [("A3", 0), ("B4", 0), ("B6", 0)])
    assert (found.revenue, len(found.scored)) == (90, 3)
    assert not planner.find("2/1", [("A1", 0), ("A3", 0), ("B4", 0)])


def test_the_switcher_passes_one_blocked_city_and_skips_it() -> None:
    """BB fills A7: only the switcher's train passes it (and skips it, the blocked city
    first); CC filling B6 too, no route passes both."""
    board = switch_board(("A7", "BB"))
    planner = RoutePlanner(board, "AA", "2", facts=SWITCH_FACTS)
    through = [("A3", 0), ("A5", 0), ("A7", 0), ("A9", 0)]
    assert not planner.find("3", through)
    (found,) = planner.find("3/1", through)
    assert (found.revenue, _coords(found.scored)) == (80, {"A3", "A5", "A9"})
    # blocked cities at the ends are no bar to any train
    assert planner.find("3", [("A3", 0), ("A5", 0), ("A7", 0)])
    board = switch_board(("A7", "BB"), ("B6", "CC"))
    planner = RoutePlanner(board, "AA", "2", facts=SWITCH_FACTS)
    twice = [("A3", 0), ("B4", 0), ("B6", 0), ("A7", 0), ("A9", 0)]
    assert not planner.find("4/1", twice)
    assert planner.find("4/1", [("A3", 0), ("B4", 0), ("B6", 0), ("A7", 0)])


def test_what_a_skipped_stop_would_add_is_lost() -> None:
    """A5 takes a subsidy's +10 (S10): the switcher's 3 on A3 - A5 - A7 - A9 still skips A5
    (10 + 10 is less than A7's 30) and earns 100, not the +10; with a pullman too (``3/1P``)
    20 for each of the three stops it scores."""
    facts = RunFacts(companies={"P19": "AA"}, extra={"usa.icons": (("A5", "S10"),)})
    planner = RoutePlanner(switch_board(), "AA", "2", facts=facts)
    route = [("A3", 0), ("A5", 0), ("A7", 0), ("A9", 0)]
    (found,) = planner.find("3/1", route)
    assert (found.revenue, _coords(found.scored), found.bonus) == (100, {"A3", "A7", "A9"}, 0)
    (found,) = planner.find("3/1P", route)
    assert (found.revenue, found.bonus) == (160, 60)
    # without the switcher the +10 counts
    (found,) = planner.find("3", [("A3", 0), ("A5", 0), ("A7", 0)])
    assert (found.revenue, found.bonus) == (70, 10)


def test_the_great_northern_counts_in_the_skip_where_the_route_earns_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """AA owns the Great Northern too, its bonus (60) here for stopping at A5 and B6, or at
    A1 and A3. The switcher's 3 on A7 - B6 - B4 - A3 - A5 (four stops using reach) alone
    skips A7 (30) to keep the bonus; after a 2 earning as much (A1 - A3) it would not earn
    it, and the engine skips A5 (10) instead; before that 2 it is the first of equals and
    keeps it."""
    monkeypatch.setattr(
        g18usa,
        "GNR_BONUSES",
        ((frozenset({"A5", "B6"}), 60), (frozenset({"A1", "A3"}), 60)),
    )
    facts = RunFacts(companies={"P19": "AA", "P17": "AA"})
    planner = RoutePlanner(switch_board(), "AA", "2", facts=facts)
    (switched,) = planner.find("3/1", [("A7", 0), ("B6", 0), ("B4", 0), ("A3", 0), ("A5", 0)])
    assert (switched.revenue, _coords(switched.scored)) == (100, {"B6", "B4", "A3", "A5"})
    assert planner.run_total([switched]) == 100 + 60
    (two,) = planner.find("2", [("A1", 0), ("A3", 0)])
    assert planner.run_total([two, switched]) == 60 + 120 + 60
    assert planner.run_total([switched, two]) == 100 + 60 + 60
    # the best run stays exact: every pair of the trains' routes tried, in the run's order
    for trains in (["2", "3/1"], ["3/1", "2"], ["3/1", "3"]):
        best = 0
        firsts, seconds = (planner.candidates(t) for t in trains)
        for pair in itertools.product([None, *firsts], [None, *seconds]):
            chosen = [r for r in pair if r is not None]
            try:
                best = max(best, planner.run_total(chosen) if chosen else 0)
            except RouteError:
                continue  # they share track
        assert planner.best(trains).revenue == best, trains


def test_a_switchers_train_needs_the_facts_that_allow_it() -> None:
    """Without facts showing AA may attach the switcher its train is refused (the search
    would not have let its routes pass a blocked city); a train holding it is enough."""
    board = switch_board(("A7", "BB"))
    with pytest.raises(UnsupportedTrain, match="switcher"):
        RoutePlanner(board, "AA", "2").best(["3/1"])
    held = RunFacts(trains={"AA": ("3/1", "2")})
    result = RoutePlanner(board, "AA", "2", facts=held).best(["3/1"])
    assert result.revenue == _brute_force(board, ["3/1"])


def test_the_switchers_owner_passes_blocked_cities_only_with_it_attached() -> None:
    """A search of the switcher's owner passes a blocked city only where a train of its has
    the switcher attached (as replay's facts list its trains) or where the facts list none
    of its trains (then owning P19 is enough): its runs without the switcher walk no route
    they would refuse, and earn what they would without P19."""
    board = switch_board(("A7", "BB"))

    def passes(facts: RunFacts) -> bool:
        planner = RoutePlanner(board, "AA", "2", facts=facts)
        ctx = planner.context
        return any(
            planner._net.passable[n] and not GameRules.passable(planner.rules, ctx, n)
            for n in range(len(ctx.nodes))
        )

    assert passes(SWITCH_FACTS)  # trains not listed: P19 is enough
    plain = replace(SWITCH_FACTS, trains={"AA": ("3", "2")})
    assert not passes(plain)
    assert passes(replace(SWITCH_FACTS, trains={"AA": ("3/1", "2")}))
    runs = RoutePlanner(board, "AA", "2", facts=plain).best(["3", "2"]).revenue
    assert runs == RoutePlanner(board, "AA", "2").best(["3", "2"]).revenue
    with pytest.raises(UnsupportedTrain, match="switcher"):
        RoutePlanner(board, "AA", "2", facts=plain).best(["3/1"])


#: At some runs of the shared record, one train with the switcher attached (P19 given to the
#: corporation): the best route tilelay finds, as the 18xx.games engine rates that route
#: under Ruby (``Engine::Route`` of its connections, the switcher attached by the route
#: step's ``attach_upgrade``): corporation, train, revenue, stops visited, stops scored.
#: Each passes a blocked city or visits its raised distance; 437 and 790 carry the extender
#: too, 981 a pullman.
ENGINE_SWITCHED = {
    437: ("PRR", "2/1+1", 150, {"I19", "H20", "H22", "J24"}, {"I19", "H22", "J24"}),
    698: ("KCS", "3/1", 170, {"D14", "D20", "F18", "I19"}, {"D14", "F18", "I19"}),
    790: (
        "PRR",
        "4/1+1",
        320,
        {"C23", "D14", "D20", "F18", "I19", "H22"},
        {"C23", "D20", "F18", "I19", "H22"},
    ),
    981: (
        "TP",
        "5/1P",
        470,
        {"I5", "H8", "E17", "D20", "E23", "D28"},
        {"I5", "H8", "E17", "D20", "D28"},
    ),
}


def test_switched_routes_of_the_record_are_rated_as_the_engine_rates_them() -> None:
    if not RECORD.exists():
        pytest.skip(f"reference data absent: {RECORD}")
    found: dict[int, tuple[str, str, int, set[str], set[str]]] = {}
    for step in replay_steps(load_record(RECORD)):
        if step.action_id in ENGINE_SWITCHED:
            corporation, train, *_ = ENGINE_SWITCHED[step.action_id]
            # P19 given to the corporation, and the switcher attached to a train it holds
            held = (*step.facts.trains.get(corporation, ()), train)
            facts = replace(
                step.facts,
                companies={**step.facts.companies, "P19": corporation},
                trains={**step.facts.trains, corporation: held},
            )
            result = RoutePlanner(step.board, corporation, step.phase, facts=facts).best([train])
            (route,) = result.routes
            found[step.action_id] = (
                corporation,
                train,
                route.revenue,
                _coords(route.stops),
                _coords(route.scored),
            )
        if step.action_id >= max(ENGINE_SWITCHED):
            break
    assert found == ENGINE_SWITCHED

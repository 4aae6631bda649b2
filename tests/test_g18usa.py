"""18USA's rules: the setup the engine draws from a record's seed, what replay does with it
(metropolises, red hexes, the depot, subsidies, company towns, train upgrades), and the
route rules (resources, bridges, company towns, subsidies, pullmans, extenders, Mexico).

The draws are checked against what the 18xx.games engine holds after its setup under Ruby
(seed 109372, four players: the shared record's); hand-built records on 18USA's map (the
engine's sources) check replay; the shared record's routes, each using one rule, are rated
as the engine rated them when the record was made."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tests.conftest import REFERENCE, corp
from tilelay.audit import RecordAudit, audit_record
from tilelay.board import NEUTRAL
from tilelay.games import load_game
from tilelay.replay import RecordError, ReplayStep, replay_steps
from tilelay.routes import RoutePlanner
from tilelay.rules import RunFacts, rules_for
from tilelay.rules.g18usa import G18USA, EngineRandom, draw_setup, record_seed

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
    assert record_seed({"id": "hotseat-123", "settings": {"seed": ""}}) == 123
    assert record_seed({"settings": {"seed": 7}}) == 7
    assert record_seed({}) is None


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
    assert rules.train_type(game, "5/1") is None  # the switcher is not modelled


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

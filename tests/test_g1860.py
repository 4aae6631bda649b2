"""1860's rules: halts, spare city stops serving towns, tokened-out cities passed, leased
trains of insolvent corporations, the Southern and nationalization.

Replay's part on hand-built records; the route rules on positions of the shared 1860 record,
whose recorded routes each use one rule, rated as the 18xx.games engine rates them (its own
``Route#revenue`` under Ruby, on the same position)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import REFERENCE, corp
from tilelay.audit import RecordAudit, audit_record
from tilelay.replay import ReplayStep, replay_steps
from tilelay.route_rules import TOWN, UnsupportedTrain, train_spec
from tilelay.routes import RoutePlanner
from tilelay.trains import StopAllowance, TrainType

RECORD = REFERENCE / "18xxgames" / "fixtures" / "1860__19354.json"


pytestmark = pytest.mark.usefixtures("engine_games")


def buy(entity: str, train: str) -> dict[str, Any]:
    return corp(entity, "buy_train", train=train, price=1, variant=train.rpartition("-")[0])


def run(entity: str, train: str) -> dict[str, Any]:
    return corp(entity, "run_routes", routes=[{"train": train, "hexes": []}])


def steps(actions: list[dict[str, Any]]) -> list[ReplayStep]:
    numbered = [{"id": i + 1, **a} for i, a in enumerate(actions)]
    return list(replay_steps({"title": "1860", "actions": numbered}))


def test_halt_rows_count_as_towns_where_the_game_says_what_halts_are() -> None:
    rows = (
        StopAllowance(("city", "offboard"), 2, 2),
        StopAllowance(("town", "halt"), 1, 99),
    )
    train = TrainType("2+1", 0, 2, 1, allowances=rows)
    spec = train_spec(train, halts=True)
    assert spec.rows[1].classes == 1 << TOWN
    with pytest.raises(UnsupportedTrain, match="halts"):
        train_spec(train)


def test_an_insolvent_corporation_leases_the_depots_train_for_its_run() -> None:
    """NGStL runs the 8+4-0, still in the depot: it has it for the run only; C&N buys it
    later, with no note of a train taken on trust."""
    out = steps(
        [buy("C&N", "2+1-0"), run("NGStL", "8+4-0"), corp("C&N", "pass"), buy("C&N", "8+4-0")]
    )
    at_run, after = out[1], out[2]
    assert at_run.trains["NGStL"] == {"8+4-0": "8+4"}
    assert at_run.facts.extra["leased"] == ("NGStL", "8+4-0")
    assert after.trains.get("NGStL", {}) == {}
    assert "leased" not in after.facts.extra
    assert out[-1].trains["C&N"] == {"2+1-0": "2+1", "8+4-0": "8+4"}
    assert not out[-1].notes


def test_a_train_someone_holds_is_not_leased() -> None:
    out = steps([buy("C&N", "2+1-0"), run("C&N", "2+1-0")])
    assert "leased" not in out[-1].facts.extra


def test_the_southern_then_nationalization_at_a_rounds_end_when_all_have_trains() -> None:
    """The 9+5 forms the Southern; halts are ignored from the next stock round; once every
    corporation that has operated holds a train, nationalization begins at the end of the
    round (a corporation beginning its second turn in it), not before."""
    out = steps(
        [
            buy("C&N", "9+5-0"),  # the Southern forms
            corp("IOW", "pass"),  # IOW has operated, without a train
            {"type": "buy_shares", "entity": 1, "entity_type": "player", "shares": []},
            corp("C&N", "dividend"),  # a new operating round
            buy("IOW", "9+5-1"),  # every corporation holds a train now
            corp("C&N", "dividend"),  # C&N's second turn: the round is over
        ]
    )
    extras = [s.facts.extra for s in out]
    assert extras[0].get("southern") and not extras[0].get("halts_ignored")
    assert extras[2].get("halts_ignored")
    assert not any(e.get("nationalization") for e in extras[:5])
    assert extras[5].get("nationalization")


@pytest.fixture(scope="module")
def audit(engine_games: None) -> RecordAudit:
    if not RECORD.exists():
        pytest.skip(f"reference data absent: {RECORD}")
    return audit_record(RECORD)


@pytest.mark.parametrize(
    ("action", "revenue", "rule"),
    [
        (135, 100, "passes G5's city, which C&N's token fills"),
        (400, 200, "a leased 8+4: 40 and 20 for each of its 8 stops"),
        (484, 320, "nationalization: no second allowance for towns"),
        (486, 330, "nationalization"),
    ],
)
def test_recorded_routes_are_rated_as_the_engine_rates_them(
    audit: RecordAudit, action: int, revenue: int, rule: str
) -> None:
    (ran,) = [r for r in audit.runs if r.id == action]
    assert [r.computed_revenue for r in ran.recorded] == [revenue], rule


def test_a_run_with_no_route_is_not_asked_of_the_rule_for_runs() -> None:
    """A corporation whose train has no route (FYN's 3+2 at B4, hand-built from the shared
    record's map): the search's first run is of no route, which earns nothing; 1860's rule
    for runs (a run must visit the home city) is about the routes of a run, and is not asked
    of none (it raised IndexError: the board page answered 500)."""
    from tilelay.sandbox import BoardState

    actions = ("F2=787-0", "F4=742-3", "G3=741-5", "J4=5-1", "H4=744-2", "I5=743-2")
    actions += ("B4=115-5", "J6=746-2", "C5=743-2", "D6=742-2")
    actions += ("F2=C&N@0", "I3=IOW@0", "J4=IOW@0", "G5=C&N@0", "B4=FYN@0")
    board = BoardState("1860", actions=actions).board()
    planner = RoutePlanner(board, "FYN", "8")
    assert planner.rules.run_applies(planner.context, 1)
    result = planner.best(["3+2"])
    assert result.revenue >= 0 and all(r.revenue > 0 for r in result.routes)

"""18EU's rules: minors merging into corporations, the final exchange, pullmans.

Replay's part on hand-built records; the pullman's part of a run on positions of the shared
18EU record, whose recorded runs (the engine of 2022's) it rates as recorded: the pullman
earns a city or off-board another route visits (see :mod:`tilelay.rules.g18eu`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import REFERENCE
from tilelay.audit import RecordAudit, audit_record
from tilelay.replay import ReplayStep, load_record, replay_steps

RECORD = REFERENCE / "18xxgames" / "fixtures" / "18EU__74045.json"


pytestmark = pytest.mark.usefixtures("engine_games")


def act(entity: str | int, type_: str, kind: str = "corporation", **fields: Any) -> dict[str, Any]:
    kind = "player" if isinstance(entity, int) else kind
    return {"type": type_, "entity": entity, "entity_type": kind, **fields}


def buy(entity: str, train: str, kind: str = "corporation") -> dict[str, Any]:
    variant = train.rpartition("-")[0]
    return act(entity, "buy_train", kind, train=train, price=1, variant=variant)


def steps(actions: list[dict[str, Any]]) -> list[ReplayStep]:
    numbered = [{"id": i + 1, **a} for i, a in enumerate(actions)]
    return list(replay_steps({"title": "18EU", "actions": numbered}))


def holders(step: ReplayStep, coord: str) -> dict[int, tuple[str, ...]]:
    return {city: corps for (c, city), corps in step.board.tokens.items() if c == coord}


def test_a_home_token_in_the_presidents_minors_city_takes_the_minors_place() -> None:
    """Player 1 won minor 15 (home B17); BNR, which player 1 starts, places its home token
    there: minor 15 merges into it, its train with it."""
    out = steps(
        [
            act(1, "bid", minor="15", price=100),
            act("15", "pass", "minor"),
            buy("15", "2-0", "minor"),
            act(1, "par", corporation="BNR", share_price="100,2,4"),
            act("BNR", "place_token", city="B17-0-0", slot=0),
        ]
    )
    assert holders(out[2], "B17") == {0: ("15",)}
    assert holders(out[-1], "B17") == {0: ("BNR",)}
    assert out[-1].trains.get("BNR") == {"2-0": "2"}
    assert "15" not in out[-1].trains


def test_another_players_minor_keeps_its_city() -> None:
    out = steps(
        [
            act(2, "bid", minor="6", price=100),
            act("6", "pass", "minor"),
            act(1, "par", corporation="FS", share_price="100,2,4"),
            act("FS", "place_token", city="K14-0-0", slot=0),
        ]
    )
    assert holders(out[-1], "K14") == {0: ("FS",), 1: ("6",)}


def test_a_minor_exchanged_for_a_share_merges_into_the_corporation() -> None:
    out = steps(
        [
            act("6", "pass", "minor"),
            buy("6", "2-0", "minor"),
            act("6", "buy_shares", "minor", shares=["RPR_2"], percent=10),
        ]
    )
    assert holders(out[-1], "K14") == {}
    assert out[-1].trains.get("RPR") == {"2-0": "2"}


def test_the_final_exchange_closes_the_minors_left() -> None:
    """The 5 triggers the exchange; the round after it (a player's pass ends the operating
    round) closes minor 6 when the next operating round begins."""
    out = steps(
        [
            act("6", "pass", "minor"),
            buy("6", "2-0", "minor"),
            buy("BNR", "5-0"),
            act(1, "pass"),
            act("BNR", "dividend"),
        ]
    )
    assert holders(out[-2], "K14") == {1: ("6",)}
    assert holders(out[-1], "K14") == {}
    assert "6" not in out[-1].trains


def test_a_pullman_alone_or_above_the_limit_is_discarded() -> None:
    """Alone, FS's pullman goes at once; BNR keeps its own with two 3s (limit 4 in phase 3)
    and loses it when the 4 brings phase 4's limit of 3."""
    out = steps(
        [
            buy("FS", "P-0"),
            buy("BNR", "3-0"),
            buy("BNR", "P-1"),
            buy("BNR", "3-1"),
            buy("BNR", "4-0"),
        ]
    )
    assert out[0].trains.get("FS", {}) == {}
    assert out[3].trains["BNR"] == {"3-0": "3", "P-1": "P", "3-1": "3"}
    assert out[4].trains["BNR"] == {"3-0": "3", "3-1": "3", "4-0": "4"}


@pytest.fixture(scope="module")
def audit(engine_games: None) -> RecordAudit:
    if not RECORD.exists():
        pytest.skip(f"reference data absent: {RECORD}")
    return audit_record(RECORD)


@pytest.mark.parametrize(("action", "optimum"), [(467, 210), (478, 200), (795, 500)])
def test_the_pullman_adds_a_city_or_off_board_another_route_visits(
    audit: RecordAudit, action: int, optimum: int
) -> None:
    """At 467 BNR's pullman earns London (A10, an off-board) on its 3's route: the record's
    210, which the engine of 2022 took and tilelay once refused (it allowed only cities with
    the corporation's token, as the engine of today offers, for an optimum of 180)."""
    (ran,) = [r for r in audit.runs if r.id == action]
    assert "P" in ran.trains
    assert ran.optimal_revenue == optimum
    # the recorded run is legal, its pullman earning its recorded stop
    assert not ran.problems
    assert ran.computed_revenue == ran.recorded_revenue == optimum
    (pullman,) = [r for r in ran.recorded if r.train_type == "P"]
    assert pullman.computed_revenue == pullman.recorded_revenue


def test_every_recorded_pullman_run_earns_its_recorded_revenue(audit: RecordAudit) -> None:
    """The record's 15 runs with a pullman are legal with the revenue it gives, GSR's at 784
    and 828 too: its pullman took a stop worth 60 where another of its 8's stops pays 80, and
    a recorded pullman earns the stop the record names (GameRules.rider_revenue), not the
    best the whole-run rule would give it."""
    runs = [r for r in audit.runs if "P" in r.trains]
    assert len(runs) == 15
    for ran in runs:
        assert not ran.problems, (ran.id, ran.problems)
        assert ran.computed_revenue == ran.recorded_revenue, ran.id
    (gsr,) = [r for r in runs if r.id == 784]
    (pullman,) = [r for r in gsr.recorded if r.train_type == "P"]
    assert pullman.computed_revenue == pullman.recorded_revenue == 60
    assert gsr.optimal_revenue is not None and gsr.optimal_revenue > gsr.computed_revenue


def test_a_pullman_stopping_where_no_other_route_does_is_named(audit: RecordAudit) -> None:
    from dataclasses import replace

    from tilelay.audit import rate_recorded
    from tilelay.replay import recorded_routes
    from tilelay.routes import RoutePlanner

    (step,) = [s for s in replay_steps(load_record(RECORD)) if s.action_id == 467]
    corp = str(step.action["entity"])
    planner = RoutePlanner(step.board, corp, step.phase, facts=step.facts)
    routes = list(recorded_routes(step.action))
    routes = [replace(r, hexes=("K14",)) if r.train.startswith("P") else r for r in routes]
    rated, total, _ = rate_recorded(planner, routes, step.trains[corp])
    assert total is None
    assert any(r.problem and "stops at K14, where no other route does" in r.problem for r in rated)

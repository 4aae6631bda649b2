"""1817's rules: mines, ranches and bridges, the train exported at each operating round's end,
liquidation, mergers and acquisitions.

Replay's part on hand-built records; the route bonuses on positions of the shared 1817 record
whose recorded routes pass mines and stop at a bridge, rated as the 18xx.games engine rates
them (its own ``Route#revenue`` under Ruby, on the same position)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import REFERENCE
from tilelay.audit import RecordAudit, audit_record
from tilelay.replay import ReplayStep, replay_steps

RECORD = REFERENCE / "18xxgames" / "fixtures" / "1817__15528.json"


pytestmark = pytest.mark.usefixtures("engine_games")


def act(entity: str | int, type_: str, **fields: Any) -> dict[str, Any]:
    kind = "player" if isinstance(entity, int) else "corporation"
    return {"type": type_, "entity": entity, "entity_type": kind, **fields}


def company(entity: str, type_: str, **fields: Any) -> dict[str, Any]:
    return {"type": type_, "entity": entity, "entity_type": "company", **fields}


def buy(entity: str, train: str) -> dict[str, Any]:
    return act(entity, "buy_train", train=train, price=1, variant=train.rpartition("-")[0])


def steps(actions: list[dict[str, Any]]) -> list[ReplayStep]:
    numbered = [{"id": i + 1, **a} for i, a in enumerate(actions)]
    return list(replay_steps({"title": "1817", "actions": numbered}))


def holders(step: ReplayStep, coord: str) -> set[str]:
    return {c for (h, _), corps in step.board.tokens.items() if h == coord for c in corps}


def test_mines_ranches_and_bridges_go_where_their_companies_put_them() -> None:
    """MINC's lay puts a mine on G14, P22's a ranch on I12... which PSM's tile beside it
    takes away; OBC's assignment puts a bridge on H9."""
    out = steps(
        [
            company("MINC", "lay_tile", hex="G14", tile="8-4", rotation=0),
            company("P22", "lay_tile", hex="E14", tile="9-0", rotation=0),
            company("OBC", "assign", target="H9", target_type="hex"),
            company("PSM", "lay_tile", hex="F13", tile="X00-0", rotation=4),
        ]
    )
    assigned = out[2].facts.assignments
    assert "mine" in assigned["G14"] and "bridge" in assigned["H9"]
    assert "ranch" in assigned["E14"]
    assert "ranch" not in out[3].facts.assignments.get("E14", ())


def test_each_operating_rounds_end_exports_a_train() -> None:
    """The first round's end exports every 2 left, the second's the first 2+ (phase 2+)."""
    a, b = act("A&S", "dividend"), act("GT", "dividend")
    out = steps([buy("A&S", "2-0"), b, a, b, a, b])
    assert [s.phase.name for s in out] == ["2", "2", "2", "2", "2+", "2+"]


def test_a_corporation_without_a_train_at_its_turns_end_is_liquidated() -> None:
    """GT ends its turn without a train: in liquidation; no one acquires it, so when the next
    operating round begins its token is gone (and it may be started again)."""
    out = steps(
        [
            act("GT", "place_token", city="D7-0-0", slot=0),
            buy("A&S", "2-0"),
            act("GT", "pass"),  # GT's turn, without a train
            act(1, "pass"),  # the round is over
            act("A&S", "dividend"),  # the next begins
        ]
    )
    assert out[-2].facts.extra.get("liquidating") == ("GT",)
    assert holders(out[-2], "D7") == {"GT"}
    assert holders(out[-1], "D7") == set()


def test_a_merger_and_an_acquisition_move_tokens_and_trains() -> None:
    """In the merger round A&S merges GT (its token and train); in the acquisition round the
    winner of Belt's auction has A&S buy it (A&S settles the loans next)."""
    out = steps(
        [
            act("GT", "place_token", city="D7-0-0", slot=0),
            buy("GT", "2-0"),
            act("Belt", "place_token", city="D9-0-0", slot=0),
            buy("Belt", "2-1"),
            act("A&S", "dividend"),
            act("A&S", "merge", corporation="GT"),
            act(1, "bid", corporation="Belt", price=10),
            act("A&S", "pass"),
        ]
    )
    merged, acquired = out[5], out[7]
    assert holders(merged, "D7") == {"A&S"} and merged.trains["A&S"] == {"2-0": "2"}
    assert holders(acquired, "D9") == {"A&S"}
    assert acquired.trains["A&S"] == {"2-0": "2", "2-1": "2"}


def test_an_auction_that_starts_a_corporation_acquires_nothing() -> None:
    out = steps(
        [
            act(1, "bid", corporation="GT", price=100),
            act("GT", "place_token", city="D7-0-0", slot=0),
            act("A&S", "pass"),
        ]
    )
    assert holders(out[-1], "D7") == {"GT"}


@pytest.fixture(scope="module")
def audit(engine_games: None) -> RecordAudit:
    if not RECORD.exists():
        pytest.skip(f"reference data absent: {RECORD}")
    return audit_record(RECORD)


@pytest.mark.parametrize(
    ("action", "revenues"),
    [
        (235, [70]),  # J7-I8-H9: the mine at I8 passed, the bridge at H9 a stop
        (345, [90, 100]),  # and H9-H11-G14-F13: two mines passed, the bridge
    ],
)
def test_recorded_routes_are_rated_as_the_engine_rates_them(
    audit: RecordAudit, action: int, revenues: list[int]
) -> None:
    (ran,) = [r for r in audit.runs if r.id == action]
    assert [r.computed_revenue for r in ran.recorded] == revenues

"""1867's and 1861's nationals on hand-built records: corporations nationalized (their tokens
to the national, their trains to the depot or the RSR), trains exported at the end of
operating rounds, the RSR's home token and the trains it buys without actions.

The games are read from the 18xx.games engine's sources (skipped where they are absent)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import corp
from tilelay.replay import ReplayStep, replay_steps

pytestmark = pytest.mark.usefixtures("engine_games")


def player(type_: str, **fields: Any) -> dict[str, Any]:
    return {"type": type_, "entity": 1, "entity_type": "player", **fields}


def token(entity: str, city: str) -> dict[str, Any]:
    return corp(entity, "place_token", city=city, slot=0)


def buy(entity: str, train: str) -> dict[str, Any]:
    return corp(entity, "buy_train", train=train, price=1, variant=train.split("-")[0])


def steps(title: str, actions: list[dict[str, Any]]) -> list[ReplayStep]:
    numbered = [{"id": i + 1, **a} for i, a in enumerate(actions)]
    return list(replay_steps({"title": title, "actions": numbered}))


def holders(step: ReplayStep, coord: str) -> dict[int, tuple[str, ...]]:
    return {city: corps for (c, city), corps in step.board.tokens.items() if c == coord}


# ------------------------------------------------------------------------------ 1867


def test_the_cn_holds_toronto_from_the_start() -> None:
    (first,) = steps("1867", [player("pass")])
    assert holders(first, "F16") == {0: ("CN",)}


def test_trainless_minors_are_nationalized_when_the_4_is_bought() -> None:
    """BO and CV lose their 2s to the 4 and are nationalized: the CN takes BO's city, and
    none in Toronto, where it has a city already; KP keeps its 3 and its token."""
    out = steps(
        "1867",
        [
            token("BO", "D8-0-0"),
            buy("BO", "2-0"),
            token("CV", "F16-0-1"),
            buy("CV", "2-1"),
            token("KP", "G15-0-0"),
            buy("KP", "3-0"),
            buy("CS", "4-0"),
        ],
    )
    before, after = out[-2], out[-1]
    assert holders(before, "D8") == {0: ("BO",)}
    assert holders(before, "F16") == {0: ("CN",), 1: ("CV",)}
    assert holders(after, "D8") == {0: ("CN",)}
    assert holders(after, "F16") == {0: ("CN",)}
    assert holders(after, "G15") == {0: ("KP",)}
    assert after.trains == {"KP": {"3-0": "3"}, "CS": {"4-0": "4"}}


@pytest.mark.parametrize("first", ["CV", "KP"])
def test_the_cn_takes_one_city_of_montreal_from_whichever_operated_first(first: str) -> None:
    """CV and KP both hold cities of Montreal (L12); the CN takes the city of the one that
    began operating first in the latest round (the share price order), the other is freed."""
    second = "KP" if first == "CV" else "CV"
    cities = {"CV": "L12-0-0", "KP": "L12-0-1"}
    out = steps(
        "1867",
        [
            token(first, cities[first]),
            buy(first, "2-0"),
            token(second, cities[second]),
            buy(second, "2-1"),
            buy("CS", "4-0"),
        ],
    )
    index = {"CV": 0, "KP": 1}
    assert holders(out[-1], "L12") == {index[first]: ("CN",)}


def test_a_trainless_major_chooses_to_be_nationalized() -> None:
    out = steps(
        "1867",
        [
            token("CNR", "D8-0-0"),
            token("CNR", "G15-0-0"),
            corp("CNR", "choose", choice="nationalize"),
        ],
    )
    assert holders(out[-1], "D8") == {0: ("CN",)}
    assert holders(out[-1], "G15") == {0: ("CN",)}
    assert not out[-1].board.tokens_of("CNR")


def test_the_cn_keeps_its_last_token_for_montreal() -> None:
    """The CN has 8 tokens, one in Toronto and one kept for Montreal: of seven minors'
    cities outside Montreal it takes the six richest first, and the seventh stays empty."""
    minors = ["BO", "CV", "KP", "AE", "TN", "NO", "OP"]
    cities = ["D8", "F8", "E13", "E15", "C17", "I15", "N12"]
    actions: list[dict[str, Any]] = []
    for i, (m, c) in enumerate(zip(minors, cities, strict=True)):
        actions += [token(m, f"{c}-0-0"), buy(m, f"2-{i}")]
    out = steps("1867", [*actions, buy("CS", "4-0")])
    cn = out[-1].board.tokens_of("CN")
    assert len(cn) == 7  # Toronto and six of the seven
    assert sum(1 for c in cities if holders(out[-1], c)) == 6
    assert not any(m in corps for corps in out[-1].board.tokens.values() for m in minors)


def test_a_train_is_exported_at_the_end_of_each_operating_round_from_phase_4() -> None:
    """From phase 4 each operating round's end (a player's stock action, a merger, or a
    corporation operating again) sends the depot's next train away: the three 4s left go at
    the first three ends, the first 5 at the fourth, which starts phase 5."""
    cs, ca = corp("CS", "dividend"), corp("CA", "dividend")
    out = steps(
        "1867",
        [
            buy("CA", "3-0"),
            buy("CS", "4-0"),
            player("buy_shares", shares=["CNR_1"]),  # 4-1
            cs,
            ca,
            corp("BBG", "convert"),  # 4-2
            cs,
            ca,
            cs,  # CS operates again: 4-3
            ca,
            player("pass"),  # 5-0
        ],
    )
    phases = [s.phase.name for s in out]
    assert phases == ["3", "4", "4", "4", "4", "4", "4", "4", "4", "4", "5"]


def test_no_train_is_exported_before_phase_4() -> None:
    out = steps(
        "1867",
        [buy("BO", "3-0"), corp("BO", "dividend"), player("pass"), player("pass")],
    )
    assert out[-1].phase.name == "3"


# ------------------------------------------------------------------------------ 1861


def test_the_rsr_places_its_home_in_st_petersburgs_last_city_when_it_first_operates() -> None:
    out = steps("1861", [corp("RSR", "pass")])
    assert holders(out[-1], "E1") == {1: ("RSR",)}


def test_the_rsr_keeps_spws_city_of_st_petersburg_and_places_no_home_token() -> None:
    """SPW (home E1 city 0) is nationalized when the 4 rusts its 2: the RSR takes its city
    and its train would go with it; when the RSR then operates it has St Petersburg."""
    out = steps(
        "1861",
        [corp("SPW", "pass"), buy("SPW", "2-0"), buy("NW", "4-0"), corp("RSR", "pass")],
    )
    assert holders(out[-1], "E1") == {0: ("RSR",)}


def test_nationalized_minors_trains_go_to_the_rsr() -> None:
    """When the 8 is bought every minor is nationalized: RO's 7 goes to the RSR with its
    city at B4."""
    out = steps("1861", [corp("RO", "pass"), buy("RO", "7-0"), buy("NW", "8-0")])
    assert holders(out[-1], "B4") == {0: ("RSR",)}
    assert out[-1].trains["RSR"] == {"7-0": "7"}
    assert "RO" not in out[-1].trains


def test_the_rsr_buys_the_trains_a_later_depot_sale_shows_gone() -> None:
    """The RSR runs; the next train another corporation buys from the depot is a 2+2, sold
    from phase 8 on: the RSR bought the depot's trains up to the first 8 at the end of its
    run, so phase 8 starts there and the minors are nationalized at once."""
    out = steps(
        "1861",
        [
            corp("RO", "pass"),
            buy("RO", "2-0"),
            corp("RSR", "run_routes", routes=[]),
            corp("NW", "pass"),
            buy("NW", "2+2-0"),
        ],
    )
    at_run, after_run = out[2], out[3]
    assert at_run.phase.name != "8"
    assert after_run.phase.name == "8"
    assert "8" in after_run.trains["RSR"].values()
    assert holders(after_run, "B4") == {0: ("RSR",)}


def test_a_train_from_the_pool_tells_nothing_of_the_rsrs_buys() -> None:
    """NW's 2-0 comes from the pool; its 2-2 from the depot, which sold the 2-1 before it:
    to the RSR, at the end of its run."""
    out = steps(
        "1861",
        [
            buy("RO", "2-0"),
            corp("RO", "discard_train", train="2-0"),
            corp("RSR", "run_routes", routes=[]),
            corp("NW", "buy_train", train="2-0", price=1),
            buy("NW", "2-2"),
        ],
    )
    assert out[2].trains.get("RSR", {}) == {}
    assert out[3].trains["RSR"] == {"2-1": "2"}
    assert out[-1].trains["NW"] == {"2-0": "2", "2-2": "2"}

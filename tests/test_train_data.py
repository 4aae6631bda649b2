"""Trains and phases from 18xx.games-shaped data (tilelay.train_data)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import reference
from tilelay.errors import GameDataError
from tilelay.train_data import trains_from_game_data
from tilelay.trains import TrainManager
from tilelay.xml.rails_game import read_rails_game


def rails(game: str, **options: str) -> TrainManager:
    return read_rails_game(reference("rails", game, "Game.xml"), options=options)


def game_json(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(reference("18xxgames", "games", f"{name}.json").read_text())
    return data


# --- 18xx.games game data ----------------------------------------------------------------------


def test_1889_from_game_data() -> None:
    data = game_json("1889")
    m = trains_from_game_data(data["TRAINS"], data["PHASES"], source="1889.json")
    assert [(c.name, c.quantity, c.sides[0].cost) for c in m.card_types] == [
        ("2", 6, 80),
        ("3", 5, 180),
        ("4", 4, 300),
        ("5", 3, 450),
        ("6", 2, 630),
        ("D", -1, 1100),
    ]
    assert m.train_type("2").major_stops == 2 and m.train_type("2").town_stop_kind == "major"
    d = m.train_type("D")
    assert d.max_major_stops is None and d.exchange_cost == 800
    assert dict(d.discounts) == {"4": 300, "5": 300, "6": 300}
    assert [m.rusts_in_phase(n) for n in ("2", "3", "4")] == ["4", "6", "D"]
    assert m.released_in_phase("D") == "6"
    assert m.card_type("5").events == ("close_companies",)
    assert [p.train_limit for p in m.phases] == [4, 4, 3, 2, 2, 2]
    assert m.phase("5").tiles == ("yellow", "green", "brown")
    assert m.phase("3").status == ("can_buy_companies",)
    assert m.phase_started_by("6") == "6"
    assert m.warnings == ()


def test_1830_and_chesapeake_from_game_data_agree_with_rails() -> None:
    data = game_json("1830")
    with pytest.raises(GameDataError, match="no num"):
        trains_from_game_data(data["TRAINS"], data["PHASES"], source="1830.json")
    m = trains_from_game_data(
        data["TRAINS"], data["PHASES"], source="1830.json", quantities={"6": 2}
    )
    xml_model = rails("1830")
    for name in ("2", "3", "4", "5", "6"):
        assert m.card_type(name).quantity == xml_model.card_type(name).quantity
        assert m.train_type(name).cost == xml_model.train_type(name).cost
        assert m.rusts_in_phase(name) == xml_model.rusts_in_phase(name)
    data = game_json("18_chesapeake")
    ches = trains_from_game_data(data["TRAINS"], data["PHASES"], source="ches.json")
    assert [c.quantity for c in ches.card_types] == [7, 6, 5, 3, 2, -1]
    assert ches.train_type("D").exchange_cost == 700
    assert ches.phase("D").tiles[-1] == "gray"


def test_game_data_n_plus_m_variants_and_errors() -> None:
    trains = [
        {
            "name": "2",
            "distance": 2,
            "price": 100,
            "num": 3,
            "variants": [
                {
                    "name": "1+1",
                    "price": 80,
                    "distance": [
                        {"nodes": ["city", "offboard"], "pay": 1, "visit": 1},
                        {"nodes": ["town"], "pay": 1, "visit": 1},
                    ],
                }
            ],
        },
        {
            "name": "4E",
            "distance": [{"nodes": ["city", "offboard"], "pay": 4, "visit": 99}],
            "price": 600,
            "num": "unlimited",
            "multiplier": 2,
            "rusts_on": "9",
        },
        {"name": "9", "distance": 9, "price": 900, "num": 1, "shiny": True},
    ]
    phases = [{"name": "A", "tiles": ["yellow"], "train_limit": {"minor": 2, "major": 4}}]
    m = trains_from_game_data(trains, phases, source="g.toml")
    dual = m.card_type("2/1+1")
    assert dual.dual and dual.side("1+1").minor_stops == 1
    assert dual.side("1+1").town_stop_kind == "minor"
    express = m.train_type("4E")
    assert express.max_visits == 99 and express.major_stops == 4
    assert not express.towns_score and not express.towns_count_against_length
    assert express.cities_score_double
    # towns visited but paid nothing (18Scan's 5E): they neither count nor score
    skip = trains_from_game_data(
        [
            {
                "name": "5E",
                "distance": [
                    {"nodes": ["city"], "pay": 5, "visit": 5},
                    {"nodes": ["town"], "pay": 0, "visit": 99},
                ],
                "price": 600,
                "num": 2,
            }
        ],
        phases,
        source="g.toml",
    ).train_type("5E")
    assert skip.major_stops == 5 and skip.minor_stops == 0
    assert not skip.towns_score and not skip.towns_count_against_length
    assert m.card_type("9").rusts == ("4E",)  # no phase is started by the 9
    assert m.rusted_by("4E") == "9"
    assert m.phase("A").train_limits == (("minor", 2), ("major", 4))
    assert [w.message for w in m.warnings] == ["trains[2]: unknown key 'shiny'"]
    with pytest.raises(GameDataError, match=r"trains\[0\]: distance"):
        trains_from_game_data([{"name": "x", "price": 1, "num": 1}], [], source="g")
    with pytest.raises(GameDataError, match="num must be"):
        trains_from_game_data([{"name": "x", "distance": 2, "price": 1, "num": 0}], [], source="g")
    # a phase or rust trigger naming no train never happens (as in the engine): a warning
    odd = trains_from_game_data(
        [{"name": "x", "distance": 2, "price": 1, "num": 1, "rusts_on": ["Z", "x"]}],
        [{"name": "1", "on": ""}, {"name": "2", "on": "Z"}],
        source="g",
    )
    assert [w.message for w in odd.warnings] == [
        "phases[1]: on names unknown train 'Z' (ignored)",
        "trains[0]: rusts_on names unknown train 'Z' (ignored)",
    ]
    assert odd.card_type("x").rusts == ("x",)


def test_game_data_engine_shapes() -> None:
    """What the 18xx.games engine writes: distance 0, multiplier 3, rows with a multiplier,
    goods trains, NAME-N phase triggers, available_on naming a phase."""
    trains = [
        {"name": "2", "distance": 2, "price": 80, "num": 5},
        {"name": "P", "distance": 0, "price": 200, "num": "unlimited", "available_on": "B"},
        {"name": "3x3", "distance": 3, "price": 300, "num": 2, "multiplier": 3},
        {
            "name": "3",
            "price": 200,
            "num": 3,
            "distance": [
                {"nodes": ["town"], "pay": 99, "visit": 99, "multiplier": 0},
                {"nodes": ["city", "offboard"], "pay": 3, "visit": 3},
            ],
            "variants": [
                {
                    "name": "2G",
                    "price": 200,
                    "category": "goods",
                    "distance": [
                        {"nodes": ["town"], "pay": 99, "visit": 99},
                        {"nodes": ["city", "offboard"], "pay": 2, "visit": 2},
                    ],
                }
            ],
        },
    ]
    phases = [{"name": "A"}, {"name": "B", "on": "2-2"}, {"name": "C", "on": "2G"}]
    m = trains_from_game_data(trains, phases, source="g")
    assert not m.warnings
    assert not m.train_type("P").runs
    assert m.card_type("P").available_from == "B"
    assert m.train_type("3x3").multiplier == 3
    three = m.train_type("3")
    assert three.allowances[0].multiplier == 0 and not three.towns_score
    assert three.category == "passenger" and m.train_type("2G").category == "goods"
    assert m.train_type("2G").towns_score
    assert m.card_type("2").new_phases[0].phase == "B"
    assert m.card_type("2").new_phases[0].train_index == 3
    # phase C is started by the card bought as a 2G, not as a 3 (the engine's phases follow
    # the train bought: 1822's L/2 starts phase 2 as a 2 only)
    assert m.phase_started_by("3/2G", side="2G") == "C"
    assert m.phase_started_by("3/2G") is None and m.phase_started_by("3/2G", side="3") is None
    assert m.card_type("3/2G").new_phases[0].side == "2G"


def test_available_on_names_a_phase() -> None:
    """The engine's ``available_on`` is a phase name (``Phase#available?``): 1880's 2R comes
    in phase C2, which no train starts (found comparing 1880 with Rails')."""
    trains = [
        {"name": "2", "distance": 2, "price": 100, "num": 2},
        {"name": "8", "distance": 8, "price": 700, "num": 2},
        {"name": "2R", "distance": 2, "price": 250, "num": 1, "available_on": "C2"},
    ]
    phases = [
        {"name": "A1", "on": "2", "tiles": ["yellow"]},
        {"name": "C2", "on": "8", "tiles": ["yellow", "green"]},
    ]
    m = trains_from_game_data(trains, phases, source="g")
    assert m.card_type("2R").available_from == "C2"
    assert m.released_in_phase("2R") == "C2"


def test_a_rust_on_a_train_that_shares_its_phase_stays_with_that_train() -> None:
    """18CO's 5-trains rust when an E is bought, though a 5D starts the same phase first:
    the rust was put on the phase, so a 5D rusted them (found against the engine's facts)."""
    trains = [
        {"name": "5", "distance": 5, "price": 500, "num": 2, "rusts_on": "E"},
        {"name": "5D", "distance": 5, "price": 600, "num": 2},
        {"name": "E", "distance": 99, "price": 800, "num": 2},
    ]
    phases = [
        {"name": "5", "on": "5", "tiles": ["yellow"]},
        {"name": "6b", "on": ["5D", "E"], "tiles": ["yellow", "green"]},
    ]
    m = trains_from_game_data(trains, phases, source="g")
    assert m.rusted_by("5") == "E" and "5" not in m.phase("6b").rusts
    assert m.card_type("E").rusts == ("5",)
    # a train that alone starts its phase rusts them at that phase's start, as before
    alone = [{**phases[0]}, {"name": "6b", "on": ["E"], "tiles": ["yellow"]}]
    m = trains_from_game_data(trains, alone, source="g")
    assert m.phase("6b").rusts == ("5",) and m.rusted_by("5") == "E"


@pytest.mark.usefixtures("engine_games")
def test_1822s_local_trains_bring_no_phase_of_their_own() -> None:
    """1822's first L bought started phase 2 (the card L/2, whose 2 side does): an L runs
    in the first phase, a 2 in phase 2, and the command line says which side starts it."""
    from tilelay.games import load_game

    trains = load_game("1822").trains
    assert trains.phase_started_by("L/2", side="L") is None
    assert trains.phase_started_by("L/2", side="2") == "2"


def test_a_number_of_trains_by_the_players() -> None:
    """``num`` may be a table by the number of players (18xx.games counts 1846's 2-trains in
    code: 7, 8, 9 for 3, 4, 5 players): the card type keeps it, its ``quantity`` is the most
    players', ``for_players`` takes one, and it is written back as it was read. A table that
    names no number of players, or is empty, is refused naming the train."""
    from tilelay.train_data import manager_to_game_data

    data = [
        {"name": "2", "distance": 2, "price": 80, "num": {"4": 8, "3": 7, "5": 9}},
        {"name": "6", "distance": 6, "price": 800, "num": 9},
    ]
    manager = trains_from_game_data(data, [], source="t")
    two = manager.card_type("2")
    assert two.quantity_by_players == ((3, 7), (4, 8), (5, 9)) and two.quantity == 9
    assert two.for_players(3).quantity == 7 and two.for_players(3).quantity_by_players == ()
    assert two.for_players(6) is two
    four = manager.for_players(4)
    assert [c.quantity for c in four.card_types] == [8, 9]
    assert manager.card_type("6").for_players(4) is manager.card_type("6")
    written, _ = manager_to_game_data(manager)
    assert written[0]["num"] == {"3": 7, "4": 8, "5": 9} and written[1]["num"] == 9
    assert trains_from_game_data(written, [], source="t") == manager
    for bad, says in (
        ({"x": 3}, "not a number of players"),
        ({}, "an empty table"),
        ({"13": 3}, "not a number of players"),
        ({"3": 7, "03": 8}, "players given twice"),
        ({"3": "x"}, "must be an integer"),
    ):
        with pytest.raises(GameDataError, match=rf"trains\[0\]: num.*{says}"):
            trains_from_game_data([{**data[0], "num": bad}], [], source="t")

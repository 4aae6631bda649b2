"""Trains and phases: the seed 003 model, Rails Game.xml reading/writing, 18xx.games data."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tilelay.errors import GameDataError, NotFoundError, TilelayError, XMLFormatError
from tilelay.train_data import trains_from_game_data
from tilelay.trains import (
    IPO,
    POOL,
    SCRAPHEAP,
    CityScore,
    ReachBase,
    TownCounting,
    TrainManager,
)
from tilelay.xml.rails_game import read_rails_game, write_rails_trains

REFERENCE = (Path(__file__).parents[1] / ".." / "shared" / "reference").resolve()
RAILS = REFERENCE / "rails"
GAMES_JSON = REFERENCE / "18xxgames" / "games"


def rails(game: str, **options: str) -> TrainManager:
    path = RAILS / game / "Game.xml"
    if not path.is_file():
        pytest.skip(f"reference data absent: {path}")
    return read_rails_game(path, options=options)


def game_json(name: str) -> dict[str, Any]:
    path = GAMES_JSON / f"{name}.json"
    if not path.is_file():
        pytest.skip(f"reference data absent: {path}")
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def xml(trains: str, phases: str = "") -> bytes:
    phase_part = f'<Component name="PhaseManager">{phases}</Component>' if phases else ""
    return (
        f'<ComponentManager>\n<Component name="TrainManager">\n{trains}\n</Component>\n'
        f"{phase_part}</ComponentManager>"
    ).encode()


# --- the Rails reference files -------------------------------------------------------------


def reference_games() -> list[str]:
    if not RAILS.is_dir():
        return []
    return sorted(p.parent.name for p in RAILS.glob("*/Game.xml"))


@pytest.mark.parametrize("game", reference_games() or ["(absent)"])
def test_every_reference_game_reads_and_round_trips(game: str) -> None:
    manager = rails(game)
    assert manager.card_types and manager.phases
    written = write_rails_trains(manager)
    again = read_rails_game(written, source="written.xml")
    assert again == manager
    assert again.warnings == ()
    assert write_rails_trains(again) == written


def test_1830_six_train_types() -> None:
    m = rails("1830")
    facts = [(c.name, c.sides[0].cost, c.quantity, c.sides[0].major_stops) for c in m.card_types]
    assert facts == [
        ("2", 80, 6, 2),
        ("3", 180, 5, 3),
        ("4", 300, 4, 4),
        ("5", 450, 3, 5),
        ("6", 630, 2, 6),
        ("D", 1100, 6, 99),
    ]
    d = m.train_type("D")
    assert d.exchange_cost == 800
    assert d.max_major_stops is None
    assert [m.rusts_in_phase(n) for n in ("2", "3", "4", "5", "6", "D")] == [
        "4",
        "6",
        "D",
        None,
        None,
        None,
    ]
    assert m.rusted_by("2") == "4"
    assert m.released_in_phase("D") == "6"
    assert m.phase_started_by("3") == "3"
    assert m.phase("5").tiles == ("yellow", "green", "brown")
    assert m.phase("4").tiles == ("yellow", "green")  # inherited from phase 3
    assert [p.operating_rounds for p in m.phases] == [1, 2, 2, 3, 3, 3]
    assert [p.limit_step for p in m.phases] == [1, 1, 2, 3, 3, 3]
    assert m.phase("2").trading_allowed
    assert m.obsolete_train_for == "EXCEPT_TRIGGERING"
    assert not m.card_type("2").obsoleting
    assert m.warnings == ()


def test_1830_options_change_the_trains() -> None:
    wabash = rails("1830", Variant="Wabash")
    assert [(c.name, c.quantity) for c in wabash.card_types] == [
        ("2", 7),
        ("3", 6),
        ("4", 5),
        ("5", 4),
        ("6", 3),
        ("7", -1),
    ]
    assert wabash.card_type("7").unlimited
    assert wabash.phase("6").releases == ()
    coal = rails("1830", Variant="Coalfields")
    assert coal.obsolete_train_for == "ALL"
    assert coal.card_type("2").obsoleting and coal.card_type("4").obsoleting
    assert coal.card_type("4").quantity == 5
    assert coal.card_type("6").releases == ("7", "D")
    assert coal.train_type("D").cost == 900 and coal.train_type("D").exchange_cost == 750
    assert coal.phase("6").releases == ("7", "D")
    unlimited = rails("1830", UnlimitedTopTrains_D="yes")
    assert unlimited.card_type("D").quantity == -1


def test_18scan_dual_cards() -> None:
    m = rails("18Scan")
    card = m.card_type("2/1+1")
    assert card.dual and card.quantity == 6
    two, one_one = card.sides
    assert (two.name, two.major_stops, two.minor_stops, two.cost) == ("2", 2, 0, 100)
    assert (one_one.name, one_one.major_stops, one_one.minor_stops, one_one.cost) == (
        "1+1",
        1,
        1,
        80,
    )
    assert one_one.town_stop_kind == "minor" and two.town_stop_kind == "major"
    assert m.card_type_of("1+1") is card
    assert m.phase("4").rusts == ("2/1+1",)
    assert m.rusts_in_phase("2/1+1") == "4"
    assert m.dual_train_becomes_undecided_in_pool
    express = m.train_type("4D")
    assert express.cities_score_double and not express.towns_score
    assert not express.towns_count_against_length
    assert express.reach.base is ReachBase.STOPS  # from <Defaults>, only countTowns overridden
    assert m.released_in_phase("4D") == "5E"


def test_other_reference_facts() -> None:
    tn = rails("18TN")
    assert tn.phase_started_by("3", 4) == "3½"
    assert tn.phase_started_by("6", 2) == "6½"
    assert tn.card_type("4").obsoleting
    assert tn.phase("6½").rusts == ("4",)
    eu = rails("18EU")
    pullman = eu.card_type("P")
    assert pullman.initial_portfolio == POOL and not pullman.sides[0].runs
    assert eu.card_type("3").quantity == 5  # from the IfOption Extra3Trains=0
    assert rails("18EU", Extra3Trains="2").card_type("3").quantity == 7
    assert eu.train_type("2").reach.count_towns is TownCounting.NO
    assert rails("1880").discard_to == SCRAPHEAP
    assert rails("1851").face_value_if_different_presidents
    assert rails("18Chesapeake").remove_train_before_sr
    assert rails("18Chesapeake").train_type("D").exchange_cost == 700  # <Exchange cost>
    alt = rails("1856", **{"1856AlternateTrains": "yes"})
    assert [c.name for c in alt.card_types][-1] == "8"
    assert alt.phase("6").releases == ("8",)
    assert rails("1870").card_type("4").available_from == "3"
    assert rails("SOH").card_type("6").releases == ("3E",)
    assert rails("18AL").train_type("4D").cities_score_double
    assert rails("1835").phase("2").real_name == "1"


def test_reference_warnings_name_file_and_line() -> None:
    chesapeake = rails("18Chesapeake")
    assert [(w.line, w.message) for w in chesapeake.warnings] == [
        (45, "unknown attribute 'permanent' on <RemoveTrainBeforeSR>")
    ]
    assert str(chesapeake.warnings[0]).endswith(
        "18Chesapeake/Game.xml:45: " + "unknown attribute 'permanent' on <RemoveTrainBeforeSR>"
    )
    short = rails("18C2C", ShortGame="yes")
    assert short.card_type("3").quantity == 12
    assert any("'quantity' on <Component>" in w.message for w in short.warnings)


# --- inline XML ------------------------------------------------------------------------------


def test_defaults_then_train_type_then_train() -> None:
    m = read_rails_game(
        xml(
            """<Defaults><Reach base="hexes" countTowns="no"/><Score cities="double"/></Defaults>
            <TrainType name="A/B" quantity="2" cost="50" exchangeCost="40">
              <Reach countTowns="yes"/>
              <Train name="A" majorStops="3"/>
              <Train name="B" majorStops="2" minorStops="2" cost="70">
                <Score cities="single" towns="no"/>
              </Train>
            </TrainType>"""
        )
    )
    a, b = m.card_type("A/B").sides
    assert (a.cost, a.exchange_cost, b.cost, b.exchange_cost) == (50, 40, 70, 40)
    assert a.counts_hexes and a.towns_count_against_length
    assert a.score.cities is CityScore.DOUBLE and a.towns_score
    assert b.score.cities is CityScore.SINGLE and not b.towns_score
    assert b.town_stop_kind == "minor"
    assert m.phases == ()


@pytest.mark.parametrize(
    ("body", "line", "fragment"),
    [
        ('<TrainType name="2" majorStops="2" cost="80" quantity="0"/>', 3, "quantity"),
        ('<TrainType name="2" majorStops="2" cost="80" quantity="-3"/>', 3, "quantity"),
        ('<TrainType name="2" cost="80" quantity="3"/>', 3, "majorStops"),
        ('<TrainType name="2" majorStops="2" quantity="3"/>', 3, "cost"),
        ('<TrainType majorStops="2" cost="80" quantity="3"/>', 3, "name"),
        ('<TrainType name="2" majorStops="two" cost="80" quantity="1"/>', 3, "integer"),
        ('<TrainType name="2" majorStops="2" cost="80"/>', 3, "quantity"),
        ('<TrainType name="2" majorStops="-2" cost="80" quantity="1"/>', 3, "majorStops"),
        ('\n<DiscardTrain to="river"/>', 4, "Pool, Scrapheap"),
        ('<TrainType name="2" majorStops="2" cost="8" quantity="1" obsoleting="maybe"/>', 3, "yes"),
        ('<TrainType name="2" majorStops="2" cost="8" quantity="1"><NewPhase/></TrainType>', 3, ""),
        (
            '<TrainType name="2" majorStops="2" cost="8" quantity="1">\n'
            '<NewPhase phaseName="9"/></TrainType>',
            4,
            "unknown phase '9'",
        ),
        ('<IfOption name="X"><TrainType/></IfOption>', 3, "IfOption"),
    ],
)
def test_bad_input_is_an_error_with_line(body: str, line: int, fragment: str) -> None:
    phases = '<Phase name="2"><Tiles colour="yellow"/></Phase>'
    with pytest.raises(XMLFormatError) as info:
        read_rails_game(xml(body, phases), source="bad.xml")
    assert info.value.source == "bad.xml"
    assert info.value.line == line
    assert fragment in info.value.message


def test_unknown_tags_and_attributes_warn_with_line() -> None:
    m = read_rails_game(
        xml(
            '<TrainType name="2" majorStops="2" cost="80" quantity="1" colour="red"/>\n<Fancy/>',
            '<Phase name="2">\n<Tiles colour="yellow"/>\n<Weather rain="yes"/></Phase>',
        ),
        source="w.xml",
    )
    assert [(w.line, w.message) for w in m.warnings] == [
        (8, "unknown tag <Weather> in phase '2' (kept)"),
        (3, "unknown attribute 'colour' on <TrainType> of train type '2'"),
        (4, "unknown tag <Fancy> in TrainManager"),
    ]
    assert m.phase("2").extras[0].tag == "Weather"
    assert b"<Weather" in write_rails_trains(m)


def test_declared_options_and_user_options() -> None:
    data = b"""<ComponentManager>
    <Component name="GameManager"><GameOption name="Big" type="toggle" default="yes"/>
    <GameOption name="Size" values="S,M,L"/></Component>
    <Component name="TrainManager">
      <TrainType name="2" majorStops="2" cost="80" quantity="1">
        <IfOption name="Big" value="yes"><Attributes quantity="5"/></IfOption>
        <IfOption name="Size" value="M,L"><Attributes cost="99"/></IfOption>
      </TrainType>
    </Component></ComponentManager>"""
    m = read_rails_game(data)
    assert (m.card_type("2").quantity, m.train_type("2").cost) == (5, 80)
    m = read_rails_game(data, options={"Big": "no", "Size": "l", "Other": "1"})
    assert (m.card_type("2").quantity, m.train_type("2").cost) == (1, 99)
    assert [w.message for w in m.warnings] == ["option 'Other' is not used by this file"]


def test_write_is_stable_pretty_xml() -> None:
    m = rails("1830")
    out = write_rails_trains(m)
    assert out.startswith(b"<?xml version='1.0' encoding='UTF-8'?>\n<ComponentManager>\n\t<")
    assert (
        b'<TrainType name="D" quantity="6" majorStops="99" cost="1100" exchangeCost="800">' in out
    )


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
    assert m.card_type("9").rusts == ("4E",)  # no phase is started by the 9
    assert m.rusted_by("4E") == "9"
    assert m.phase("A").train_limits == (("minor", 2), ("major", 4))
    assert [w.message for w in m.warnings] == ["trains[2]: unknown key 'shiny'"]
    with pytest.raises(GameDataError, match=r"trains\[0\]: distance"):
        trains_from_game_data([{"name": "x", "price": 1, "num": 1}], [], source="g")
    with pytest.raises(GameDataError, match="num must be"):
        trains_from_game_data([{"name": "x", "distance": 2, "price": 1, "num": 0}], [], source="g")
    with pytest.raises(GameDataError, match="unknown train 'Z'"):
        trains_from_game_data(
            [{"name": "x", "distance": 2, "price": 1, "num": 1}],
            [{"name": "1", "on": "Z"}],
            source="g",
        )


# --- cards, portfolios and the depot -------------------------------------------------------


def test_depot_buying_dual_cards_and_rusting() -> None:
    m = rails("18Scan")
    depot = m.new_depot()
    assert len(depot.portfolio(IPO)) == 6 + 4 + 3 + 2 + 2 + 6
    card = depot.portfolio(IPO)[0]
    assert card.id == "2/1+1_1" and card.chosen is None
    with pytest.raises(TilelayError, match="choose one of 2, 1\\+1"):
        depot.move(card.id, "SJ")
    depot = depot.move(card.id, "SJ", side="1+1")
    assert depot.train(card.id) == m.train_type("1+1")
    assert [c.id for c in depot.portfolio("SJ")] == ["2/1+1_1"]
    depot = depot.move(card.id, POOL)
    assert depot.card(card.id).chosen is None  # DualTrainBecomesUndecidedInPool
    depot = depot.move(card.id, "NSB", side="2")
    assert depot.train(card.id) is not None and depot.train(card.id).name == "2"  # type: ignore[union-attr]
    depot = depot.rust(["2/1+1"])
    assert len(depot.portfolio(SCRAPHEAP)) == 6 and depot.portfolio("NSB") == ()
    with pytest.raises(NotFoundError):
        depot.card("nope")


def test_depot_unlimited_cards_replenish() -> None:
    m = rails("1870")
    depot = m.new_depot()
    assert [c.id for c in depot.portfolio(IPO) if c.type_name == "12"] == ["12_1"]
    depot = depot.move("12_1", "MKT")
    assert [c.id for c in depot.portfolio(IPO) if c.type_name == "12"] == ["12_2"]
    assert depot.train("12_1") == m.train_type("12")

"""Rails' Game.xml: TrainManager and PhaseManager read and written (tilelay.xml.rails_game)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import REFERENCE, reference
from tilelay.errors import GameDataError, XMLFormatError
from tilelay.sources.rails import load_rails_game
from tilelay.trains import POOL, SCRAPHEAP, CityScore, ReachBase, TownCounting, TrainManager
from tilelay.xml.rails_game import read_rails_game, write_rails_trains
from tilelay.xml.rails_options import game_options, option_values

RAILS = REFERENCE / "rails"


def rails(game: str, **options: str) -> TrainManager:
    return read_rails_game(reference("rails", game, "Game.xml"), options=options)


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
    # a value the file does not use (a misspelt one) would leave out every block of the
    # option, a game quietly changed: refused, naming the option and the values the file uses
    with pytest.raises(GameDataError) as info:
        read_rails_game(data, options={"Size": "XL"}, source="g.xml")
    assert str(info.value) == (
        "g.xml: option 'Size': 'XL' is not one of the values the game uses (S, M, L)"
    )
    with pytest.raises(GameDataError, match=r"option 'Big': 'maybe' .* \(yes, no\)"):
        read_rails_game(data, options={"Big": "maybe"})


def test_option_values_the_file_does_not_use_are_refused() -> None:
    """A value neither declared nor tested: refused, for an option tested only for yes or
    no (1856's 1856AlternateTrains) and for one the file declares with a list of values but
    does not test in its trains (1880's UnlimitedTiles); the values it uses pass, in any
    case."""
    with pytest.raises(GameDataError) as info:
        rails("1856", **{"1856AlternateTrains": "maybe"})
    assert str(info.value).endswith(
        "1856/Game.xml: option '1856AlternateTrains': 'maybe' is not one of the values the "
        "game uses (no, yes)"
    )
    alternate = rails("1856", **{"1856AlternateTrains": "YES"})
    assert alternate.card_types != rails("1856").card_types
    with pytest.raises(
        GameDataError, match=r"'UnlimitedTiles': 'bogus' .*\(No, Yellow Plain, Yes\)"
    ):
        rails("1880", UnlimitedTiles="bogus")
    assert rails("1880", UnlimitedTiles="yellow plain").card_types == rails("1880").card_types
    # values the game's other files test, Rails' known defaults, and a number of players
    assert rails("1830", Variant="Coalfields&Reading", NumberOfPlayers="5")
    assert rails("18EU", ExtraMinorFor4p="No") == rails("18EU")
    with pytest.raises(GameDataError, match=r"'NumberOfPlayers': 'many' .*\(a whole number\)"):
        rails("1830", NumberOfPlayers="many")


def test_option_values_of_the_game_files_next_to_game_xml(tmp_path: Path) -> None:
    """A value only the game's Map.xml tests (Game.xml names it in a <Component file>) is one
    the game uses; without the files (the XML as bytes) it is refused."""
    game = (
        b'<ComponentManager><Component name="Map" file="Map.xml"/>'
        b'<Component name="TrainManager"><TrainType name="2" majorStops="2" cost="80" '
        b'quantity="1"><IfOption name="Variant" value="A"><Attributes cost="90"/></IfOption>'
        b"</TrainType></Component></ComponentManager>"
    )
    (tmp_path / "Game.xml").write_bytes(game)
    (tmp_path / "Map.xml").write_bytes(b'<Map><IfOption name="Variant" value="B"/></Map>')
    m = read_rails_game(tmp_path / "Game.xml", options={"Variant": "B"})
    assert m.train_type("2").cost == 80
    with pytest.raises(GameDataError, match=r"'Variant': 'B' .*\(A, Basegame\)"):
        read_rails_game(game, options={"Variant": "B"})
    with pytest.raises(GameDataError, match=r"'Variant': 'C' .*\(A, B, Basegame\)"):
        read_rails_game(tmp_path / "Game.xml", options={"Variant": "C"})


def test_game_options_refuse_values_the_game_does_not_use() -> None:
    """A whole Rails game loaded with options checks them alike, against every file of the
    game (game_options, which load_rails_game uses)."""
    directory = reference("rails", "1830")
    assert game_options(directory, chosen={"Variant": "wabash"})["Variant"] == "wabash"
    with pytest.raises(GameDataError, match=r"1830/Game.xml: option 'Variant': 'Wabsh' is not"):
        game_options(directory, chosen={"Variant": "Wabsh"})
    with pytest.raises(GameDataError, match=r"option 'Variant': 'Wabsh' is not"):
        load_rails_game(directory, options={"Variant": "Wabsh"})
    assert option_values(None, reference("rails", "18EU"))["ExtraMinorFor4p"] == {
        "0 hamburg": "0 Hamburg",
        "16 frankfurt": "16 Frankfurt",
        "no": "No",
    }


def test_write_is_stable_pretty_xml() -> None:
    m = rails("1830")
    out = write_rails_trains(m)
    assert out.startswith(b"<?xml version='1.0' encoding='UTF-8'?>\n<ComponentManager>\n\t<")
    assert (
        b'<TrainType name="D" quantity="6" majorStops="99" cost="1100" exchangeCost="800">' in out
    )


def test_goods_trains_category_on_defaults_and_train() -> None:
    """18VA's freight trains: ``category="goods"`` on <Defaults> and on a card's <Train> side
    is kept per side (no warning), and writes back."""
    body = """
    <Defaults category="passenger"><Reach countTowns="no"/></Defaults>
    <TrainType name="2/1G" quantity="6">
        <Train name="2" majorStops="2" cost="100"/>
        <Train name="1G" majorStops="1" cost="100" category="goods"/>
    </TrainType>
    <TrainType name="4G" majorStops="4" cost="400" quantity="2" category="goods"/>
    """
    manager = read_rails_game(xml(body), source="18va.xml")
    assert not manager.warnings
    assert manager.train_type("2").category == "passenger"
    assert manager.train_type("1G").category == "goods"
    assert manager.train_type("4G").category == "goods"
    assert manager.card_type("4G").category == "goods"
    again = read_rails_game(write_rails_trains(manager), source="again.xml")
    assert again.card_types == manager.card_types

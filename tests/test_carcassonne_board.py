"""Placement and scoring on hand-built Carcassonne positions with known scores."""

from __future__ import annotations

import random

import pytest
from test_carcassonne_reference import RefBoard, ref_follower_options, ref_scores

from tilelay.carcassonne.board import (
    Board,
    FarmScoring,
    Placement,
    Rules,
    ScoreEvent,
    key_of,
    xy_of,
)
from tilelay.carcassonne.errors import CarcassonneError
from tilelay.carcassonne.tile import Kind
from tilelay.carcassonne.tileset import base_tileset


def test_positions_round_trip() -> None:
    assert xy_of(key_of(-3, 7)) == (-3, 7)
    with pytest.raises(CarcassonneError, match="off the board"):
        key_of(200, 0)


def test_start_board_placements() -> None:
    board = Board()
    assert board.tile_at(0, 0) == ("D", 0)
    # the crossroads fits only on the road ends of the start tile, in any rotation
    assert set(board.legal_placements("X")) == {
        Placement(x, 0, r) for x in (-1, 1) for r in range(4)
    }
    # a city cap fits above (turned to face south), or beside / below with its cap away
    got = {(p.x, p.y, p.rotation) for p in board.legal_placements("E")}
    assert got == {(0, -1, 2), (0, 1, 1), (0, 1, 2), (0, 1, 3)}
    # the monastery without road goes only below the start tile
    assert {(p.x, p.y, p.rotation) for p in board.legal_placements("B")} == {
        (0, 1, r) for r in range(4)
    }
    assert got == {p for p in RefBoard.of(board).legal(board.tileset.type("E"))}


def test_illegal_placement_is_refused() -> None:
    board = Board()
    with pytest.raises(CarcassonneError, match="cannot go at"):
        board.place_at("E", 1, 0, 0)  # city against the start tile's road
    with pytest.raises(CarcassonneError, match="cannot go at"):
        board.place_at("E", 5, 5, 0)  # touches nothing
    with pytest.raises(CarcassonneError, match="cannot go at"):
        board.place_at("E", 0, 0, 0)  # occupied
    with pytest.raises(CarcassonneError, match="rotation"):
        board.place_at("E", 0, -1, 4)


def test_two_separate_city_caps_on_one_tile() -> None:
    board = Board(players=2)
    board.place_at("H", 0, -1, 0)  # caps N and S; the south cap closes the start tile's city
    assert board.free_features() == [0, 1, 2]
    board.place_follower(0, 1)  # the south cap
    events = board.score_turn()
    assert events == [ScoreEvent(Kind.CITY, True, 2, 4, (0,))]
    assert board.scores == [4, 0]
    assert board.meeples == [7, 7]
    # the north cap is a city of its own, still open and free; the scored south cap is not
    _t, _r, _k, base = board.placed[1]
    assert not board.city_complete(base + 0)
    assert board.find(base + 0) != board.find(base + 1)
    assert board.free_features() == [0, 2]


def test_first_edition_small_city() -> None:
    board = Board(players=1, rules=Rules(first_edition_small_city=True))
    board.place_at("H", 0, -1, 0)
    board.place_follower(0, 1)
    assert board.score_turn() == [ScoreEvent(Kind.CITY, True, 2, 2, (0,))]


def test_farm_touching_one_city_through_two_tiles_counts_it_once() -> None:
    board = Board(players=2)
    board.place_at("E", 0, -1, 2)  # closes the 2-tile city with the start tile
    assert board.score_turn() == [ScoreEvent(Kind.CITY, True, 2, 4, ())]
    board.place_at("B", 1, -1, 0)
    board.score_turn()
    board.place_at("V", 1, 0, 0)  # road from the start tile turns south; big farm joins all
    board.place_follower(0, 1)  # farmer on the big farm
    board.score_turn()
    _t, _r, _k, base = board.placed[3]
    assert len(board.farm_cities(base + 1)) == 1
    events = board.final_scoring()
    assert ScoreEvent(Kind.FARM, False, 4, 3, (0,)) in events
    assert board.scores == [3, 0]
    assert ref_scores(board, 2) == [3, 0]


def test_farm_scores_cities_as_merged_at_the_end() -> None:
    # a farm touches two separate caps, which later become one completed city
    board = Board(players=1)
    board.place_at("N", 0, -1, 2)  # city S+E joins the start city
    board.score_turn()
    board.place_at("D", 1, 0, 0)  # its own cap, open to the north
    board.place_follower(0, 3)  # farmer on the farm south of the road (touches no city)
    board.score_turn()
    board.place_at("B", 0, 1, 0)
    board.place_follower(0, 0)  # monk
    board.score_turn()
    board.place_at("U", -1, 0, 1)
    board.place_follower(0, 2)  # farmer on the farm north of the road: touches both caps
    board.score_turn()
    board.place_at("N", 1, -1, 3)  # closes the city: start, N, N, D caps = 4 tiles
    events = board.score_turn()
    assert events == [ScoreEvent(Kind.CITY, True, 4, 8, ())]
    events = board.final_scoring()
    # the monk has 3 neighbours: (-1, 0), (0, 0) and (1, 0)
    assert ScoreEvent(Kind.MONASTERY, False, 4, 4, (0,)) in events
    farm_events = [e for e in events if e.kind is Kind.FARM]
    assert sorted(e.points for e in farm_events) == [0, 3]
    assert board.scores == [7]
    assert ref_scores(board, 1) == board.scores


def test_road_ending_at_crossroads_and_village() -> None:
    board = Board(players=2)
    board.place_at("X", 1, 0, 0)
    assert board.free_features() == [0, 1, 2, 3, 4, 5, 6, 7]
    board.place_follower(0, 3)  # the west leg, joined to the start tile's road
    assert board.score_turn() == []
    board.place_at("W", -1, 0, 0)  # village: its east leg ends the road
    assert board.free_features() == [1, 2, 3, 4, 5]  # the east leg joins the busy road
    events = board.score_turn()
    assert events == [ScoreEvent(Kind.ROAD, True, 3, 3, (0,))]
    assert board.scores == [3, 0]
    assert board.meeples == [7, 7]
    # the other legs of the crossroads are roads of their own, each open
    _t, _r, _k, base = board.placed[1]
    assert len({board.find(base + i) for i in range(4)}) == 4


def test_closed_road_loop_is_complete() -> None:
    board = Board(players=1)
    board.place_at("V", 0, 1, 3)
    board.place_follower(0, 0)
    assert board.score_turn() == []
    board.place_at("V", 1, 1, 0)
    assert board.score_turn() == []
    board.place_at("V", 1, 2, 1)
    assert board.score_turn() == []
    board.place_at("V", 0, 2, 2)
    assert board.score_turn() == [ScoreEvent(Kind.ROAD, True, 4, 4, (0,))]


def test_road_through_one_tile_twice_counts_the_tile_once() -> None:
    board = Board(players=1)
    board.place_at("X", 1, 0, 0)
    board.place_follower(0, 0)  # the north leg
    board.score_turn()
    board.place_at("V", 1, -1, 3)  # legs S and E
    board.score_turn()
    board.place_at("V", 2, -1, 0)  # legs W and S
    assert board.score_turn() == []
    board.place_at("V", 2, 0, 1)  # legs N and W: back into the crossroads' east leg
    assert board.score_turn() == [ScoreEvent(Kind.ROAD, True, 4, 4, (0,))]
    assert ref_scores(board, 1) == [4]


def test_tied_followers_both_score_in_full() -> None:
    board = Board(players=2)
    board.place_at("N", 0, -1, 2)  # city S + E, joined to the start tile's cap
    board.place_follower(0, 0)
    assert board.score_turn() == []
    board.place_at("D", 1, 0, 0)  # a separate cap, open to the north
    board.place_follower(1, 0)
    assert board.score_turn() == []
    board.place_at("N", 1, -1, 3)  # city W + S joins both
    assert board.free_features() == [1]
    events = board.score_turn()
    assert events == [ScoreEvent(Kind.CITY, True, 4, 8, (0, 1))]
    assert board.scores == [8, 8]


def test_majority_takes_all() -> None:
    board = Board(players=2)
    board.place_at("U", 1, 0, 1)
    board.score_turn()
    board.place_at("U", -1, 0, 1)
    board.score_turn()
    board.place_at("E", 1, -1, 3)  # cap facing west
    board.place_follower(0, 0)
    board.score_turn()
    board.place_at("E", -1, -1, 1)  # cap facing east
    board.place_follower(1, 0)
    board.score_turn()
    board.place_at("B", 1, -2, 0)
    board.score_turn()
    board.place_at("E", 0, -2, 2)  # cap facing south
    board.place_follower(0, 0)
    assert board.score_turn() == []
    board.place_at("C", 0, -1, 0)  # joins the four caps (start tile's too): 5 tiles, 1 pennant
    assert board.score_turn() == [ScoreEvent(Kind.CITY, True, 5, 12, (0,))]
    assert board.scores == [12, 0]
    assert board.meeples == [7, 7]
    assert ref_scores(board, 2) == [12, 0]


def test_incomplete_features_at_the_end() -> None:
    board = Board(players=2)
    board.place_at("F", 0, -1, 1)  # city N-S with a pennant, open to the north
    board.place_follower(0, 0)
    board.score_turn()
    board.place_at("A", 0, 1, 0)  # monastery below the start tile
    board.place_follower(1, 0)
    board.score_turn()
    board.place_at("U", 1, 0, 1)  # road E-W, joins the start road; open at both ends
    board.place_follower(0, 0)
    board.score_turn()
    events = board.final_scoring()
    assert sorted(events, key=lambda e: e.kind) == [
        ScoreEvent(Kind.CITY, False, 2, 3, (0,)),
        ScoreEvent(Kind.ROAD, False, 2, 2, (0,)),
        ScoreEvent(Kind.MONASTERY, False, 3, 3, (1,)),
    ]
    assert board.scores == [5, 3]
    assert ref_scores(board, 2) == [5, 3]


def test_completed_monastery_scores_nine() -> None:
    board = Board(players=1)
    board.place_at("B", 0, 1, 0)
    board.place_follower(0, 0)
    board.score_turn()
    spots = [
        (-1, 0, "U", 1),
        (1, 0, "U", 1),
        (-1, 1, "B", 0),
        (1, 1, "B", 0),
        (-1, 2, "B", 0),
        (0, 2, "B", 0),
    ]
    for x, y, name, r in spots:
        board.place_at(name, x, y, r)
        assert board.score_turn() == []
    board.place_at("B", 1, 2, 0)
    events = board.score_turn()
    assert ScoreEvent(Kind.MONASTERY, True, 9, 9, (0,)) in events
    assert board.scores == [9]
    assert board.meeples == [7]


def test_follower_on_busy_region_is_refused() -> None:
    board = Board(players=2)
    board.place_at("U", 1, 0, 1)
    board.place_follower(0, 0)
    board.score_turn()
    board.place_at("U", 2, 0, 1)
    assert board.free_features() == [1, 2]
    with pytest.raises(CarcassonneError, match="cannot take a follower"):
        board.place_follower(1, 0)
    assert ref_follower_options(board, 1) == [1, 2]


def test_out_of_followers() -> None:
    board = Board(players=1, rules=Rules(followers=1))
    board.place_at("U", 1, 0, 1)
    board.place_follower(0, 1)
    board.score_turn()
    board.place_at("U", 2, 0, 1)
    assert board.follower_options(0) == []
    with pytest.raises(CarcassonneError, match="no follower left"):
        board.place_follower(0, 2)


def _two_farms_on_one_city(rules: Rules) -> Board:
    board = Board(players=3, rules=rules)
    board.place_at("E", 0, -1, 2)  # closes a 2-tile city with the start tile
    board.place_follower(1, 1)  # farmer on the farm around the new cap
    board.score_turn()
    board.place_at("U", 1, 0, 1)
    board.place_follower(0, 2)  # farmer north of the road: touches the start tile's cap
    board.score_turn()
    board.place_at("U", 2, 0, 1)
    board.place_follower(2, 1)  # farmer south of the road: touches no city
    board.score_turn()
    board.final_scoring()
    return board


def test_third_edition_farms() -> None:
    board = _two_farms_on_one_city(Rules())
    assert board.scores == [3, 3, 0]
    assert ref_scores(board, 3) == [3, 3, 0]


def test_first_edition_farms() -> None:
    rules = Rules(farm_scoring=FarmScoring.FIRST_EDITION)
    board = _two_farms_on_one_city(rules)
    # both farms touch the one city; one farmer each: both score 4
    assert board.scores == [4, 4, 0]
    assert ref_scores(board, 3, rules) == [4, 4, 0]


def test_clone_is_independent() -> None:
    board = Board(players=2)
    copy = board.clone()
    copy.place_at("U", 1, 0, 1)
    copy.place_follower(0, 0)
    assert len(board.placed) == 1 and board.meeples == [7, 7]
    assert len(copy.placed) == 2 and copy.meeples == [6, 7]


def test_free_features_if_matches_placing() -> None:
    rng = random.Random(5)
    ts = base_tileset()
    for _game in range(3):
        board = Board(players=2)
        pile = ts.pile()
        rng.shuffle(pile)
        for turn, t in enumerate(pile):
            options = board.legal_keys(t)
            if not options:
                continue
            for key, rot in options[:12]:
                predicted = board.free_features_if(t, key, rot)
                trial = board.clone()
                trial.place(t, key, rot)
                assert predicted == trial.free_features()
            key, rot = rng.choice(options)
            board.place(t, key, rot)
            free = board.follower_options(turn % 2)
            if free and rng.random() < 0.6:
                board.place_follower(turn % 2, rng.choice(free))
            board.score_turn()

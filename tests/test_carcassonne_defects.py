"""The defects of the Carcassonne audit: ghost followers, two followers in one turn, a follower
on a feature the turn has already scored, and scoring the end twice."""

from __future__ import annotations

import pytest

from tilelay.carcassonne.board import Board
from tilelay.carcassonne.errors import CarcassonneError, TurnOrderError
from tilelay.carcassonne.players import new_game
from tilelay.errors import TilelayError


def _followers_from_supply(board: Board) -> int:
    return sum(board.rules.followers - m for m in board.meeples)


def test_returned_followers_leave_the_board() -> None:
    board = Board(players=2)
    board.place_at("N", 0, -1, 2)  # city S + E, joined to the start tile's cap
    board.place_follower(0, 0)
    board.score_turn()
    board.place_at("D", 1, 0, 0)  # a separate cap, open to the north
    board.place_follower(1, 0)
    board.score_turn()
    # two regions with one follower each: each listed once
    assert board.followers_on_board() == [(0, 1, 0), (1, 2, 0)]
    board.place_at("N", 1, -1, 3)  # joins both caps and completes the city
    # merged, not yet scored: still each follower once
    assert board.followers_on_board() == [(0, 1, 0), (1, 2, 0)]
    board.score_turn()
    assert board.meeples == [7, 7]
    assert board.followers_on_board() == []


def test_random_games_show_exactly_the_followers_out_of_supply() -> None:
    # the audit's example: seed 2, two players, move 5 showed a ghost follower
    for seed in range(40):
        game = new_game(2, seed=seed)
        while game.step() is not None:
            on_board = game.board.followers_on_board()
            assert len(on_board) == _followers_from_supply(game.board), (seed, len(game.turns))
            assert len(set(on_board)) == len(on_board)


def test_two_followers_on_one_tile_are_refused() -> None:
    board = Board(players=2)
    board.place_at("U", 1, 0, 1)  # road E-W with a farm on each side
    board.place_follower(0, 1)
    with pytest.raises(TurnOrderError, match="already placed a follower"):
        board.place_follower(0, 2)
    assert board.meeples == [6, 7]
    assert board.follower_options(0) == []


def test_no_follower_on_the_city_the_turn_has_completed() -> None:
    board = Board(players=2)
    board.place_at("E", 0, -1, 2)  # closes the start tile's city: 2 tiles
    board.score_turn()
    with pytest.raises(TurnOrderError, match="scored"):
        board.place_follower(0, 0)
    assert board.follower_options(0) == []
    assert board.meeples == [7, 7]
    assert board.followers_on_board() == []


def test_a_tile_before_the_last_one_is_scored_is_refused() -> None:
    board = Board(players=1)
    board.place_at("E", 0, -1, 2)
    with pytest.raises(TurnOrderError, match="score_turn"):
        board.place_at("U", 1, 0, 1)
    board.score_turn()
    with pytest.raises(TurnOrderError, match="scored"):
        board.score_turn()


def test_final_scoring_twice_is_refused() -> None:
    board = Board(players=2)
    board.place_at("U", 1, 0, 1)
    board.place_follower(0, 0)  # the road: 2 tiles at the end
    board.score_turn()
    board.final_scoring()
    assert board.scores == [2, 0]
    with pytest.raises(TurnOrderError, match="already"):
        board.final_scoring()
    assert board.scores == [2, 0]
    with pytest.raises(TurnOrderError, match="over"):
        board.place_at("U", -1, 0, 1)


def test_refusals_are_tilelay_errors() -> None:
    assert issubclass(TurnOrderError, CarcassonneError)
    assert issubclass(TurnOrderError, TilelayError)

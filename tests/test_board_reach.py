"""Where a corporation may lay track (Board.reach) and its lays (legal_lays(corporation=))."""

from __future__ import annotations

from tilelay.board import Board
from tilelay.games import load_game


def test_reach_from_a_home_token() -> None:
    game = load_game("1889")
    board = Board(game).with_home_tokens(["KO"])
    reach = board.reach("KO")
    # K4 (Takamatsu) has track to edges 0, 1 and 2: its own hex, all edges onto the map
    assert reach["K4"] == board.allowed_exits("K4")
    for edge, other in game.neighbours("K4").items():
        if edge in (0, 1, 2):
            assert (edge + 3) % 6 in reach[other], other
    assert "K8" not in reach  # nothing reaches Tokushima yet
    assert board.reach("AR") == {}  # no token: nowhere
    assert board.legal_lays("K8", corporation="AR") == {}


def test_lays_need_an_exit_on_a_reached_edge() -> None:
    game = load_game("1889")
    board = Board(game).with_home_tokens(["KO"])
    reached = board.reach("KO")["J3"]
    free = board.legal_lays("J3")
    mine = board.legal_lays("J3", corporation="KO")
    assert mine and set(mine) <= set(free)
    for name, rotations in mine.items():
        assert set(rotations) <= set(free[name])
        for r in rotations:
            assert game.tile(name).rotated(r).exits() & reached
    # a rotation left out has no exit towards K4
    left_out = [(n, r) for n, rs in free.items() for r in rs if r not in mine.get(n, ())]
    assert left_out
    for name, r in left_out:
        assert not game.tile(name).rotated(r).exits() & reached


def test_a_full_city_of_others_blocks_the_walk() -> None:
    game = load_game("1889")
    board = Board(game).with_home_tokens(["KO"]).lay("K6", game.tile("9"), 0)
    board = board.lay("K8", game.tile("6"), 1)  # K4 - K6 - K8 (city) - J9
    assert board.reach("KO")["J9"] == {4}
    blocked = board.place_token("K8", 0, "AR")  # K8's one slot taken by AR
    assert blocked.reach("KO")["K8"] == {3}  # the track into the city is reached ...
    assert "J9" not in blocked.reach("KO")  # ... not the track out of it
    assert "J9" in blocked.reach("AR")

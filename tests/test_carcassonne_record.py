"""Saved Carcassonne games: a game's moves made again, each checked (tilelay.carcassonne.record)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tilelay.carcassonne.errors import CarcassonneError
from tilelay.carcassonne.players import new_game
from tilelay.carcassonne.record import record, restore


def test_a_game_is_made_again_from_its_moves() -> None:
    game = new_game(["greedy", "random"], 7)
    scores = game.play()
    again = restore(record(game))
    assert [t.move for t in again.turns] == [t.move for t in game.turns]
    assert again.tile_name is None  # (the end is scored when the pile is found empty)
    assert list(again.board.scores) == scores


def test_moves_past_the_end_or_of_another_pile_are_named() -> None:
    game = new_game(["random", "random"], 3)
    game.play()
    saved = record(game)
    n = len(saved.moves)
    doubled = replace(saved, moves=saved.moves + saved.moves[:1])
    with pytest.raises(CarcassonneError) as info:
        restore(doubled)
    assert str(info.value) == (
        f"saved game: move {n + 1} places tile {saved.moves[0][0]!r} but the game ended after "
        f"move {n} (its pile is empty): the record has {n + 1} moves"
    )
    other = replace(saved, seed=saved.seed + 1)
    with pytest.raises(CarcassonneError, match=r"move 1 places tile .* but the pile deals"):
        restore(other)

"""The Carcassonne game engine and players, with property tests against the slow reference."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_carcassonne_reference import RefBoard, ref_follower_options, ref_scores

from tilelay.carcassonne.board import Board, FarmScoring, Rules, xy_of
from tilelay.carcassonne.errors import CarcassonneError
from tilelay.carcassonne.game import Game, Player, RandomPlayer, transcript
from tilelay.carcassonne.players import make_player, new_game
from tilelay.carcassonne.tileset import base_tileset


def _random_game_checked(seed: int, players: int, rules: Rules) -> Board:
    """A random game where every turn's placements and follower spots are checked against
    the reference search."""
    ts = base_tileset()
    rng = random.Random(seed)
    board = Board(ts, players=players, rules=rules)
    pile = ts.pile()
    rng.shuffle(pile)
    player = 0
    for t in pile:
        ref = RefBoard.of(board)
        options = board.legal_keys(t)
        got = {(*xy_of(k), r) for k, r in options}
        assert len(got) == len(options)
        assert got == ref.legal(ts.types[t])
        if not options:
            continue
        key, rot = rng.choice(options)
        board.place(t, key, rot)
        spots = board.follower_options(player)
        assert spots == ref_follower_options(board, player)
        if spots and rng.random() < 0.7:
            board.place_follower(player, rng.choice(spots))
        board.score_turn()
        player = (player + 1) % players
    board.final_scoring()
    return board


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 5))
def test_random_games_match_the_reference(seed: int, players: int) -> None:
    board = _random_game_checked(seed, players, Rules())
    ref = RefBoard.of(board)
    assert ref.all_match()
    assert board.scores == ref_scores(board, players)
    assert len(board.placed) + 0 <= 72


@settings(max_examples=3, deadline=None)
@given(st.integers(0, 2**32))
def test_random_games_with_old_rules_match_the_reference(seed: int) -> None:
    rules = Rules(first_edition_small_city=True, farm_scoring=FarmScoring.FIRST_EDITION)
    board = _random_game_checked(seed, 3, rules)
    assert board.scores == ref_scores(board, 3, rules)


class Checked(Player):
    """A random player that checks what the engine offers against the reference."""

    name = "checked"

    def __init__(self, seed: int) -> None:
        self.inner = RandomPlayer(seed)
        self.calls = 0

    def choose_placement(
        self, game: Game, player: int, tile: int, options: list[tuple[int, int]]
    ) -> int:
        ref = RefBoard.of(game.board).legal(game.tileset.types[tile])
        assert {(*xy_of(k), r) for k, r in options} == ref
        self.calls += 1
        return self.inner.choose_placement(game, player, tile, options)

    def choose_follower(self, game: Game, player: int, options: list[int]) -> int | None:
        assert options == ref_follower_options(game.board, player)
        return self.inner.choose_follower(game, player, options)


def test_game_engine_offers_what_the_reference_finds() -> None:
    players: list[Player] = [Checked(1), Checked(2)]
    game = Game(players, seed=11)
    scores = game.play()
    assert game.finished
    assert len(game.turns) + len(game.discarded) == 71
    assert len(game.board.placed) == len(game.turns) + 1
    assert scores == ref_scores(game.board, 2)
    assert [t.player for t in game.turns[:4]] == [0, 1, 0, 1]
    assert game.step() is None


def test_same_seed_same_game() -> None:
    a = new_game(3, seed=42)
    b = new_game(3, seed=42)
    assert a.play() == b.play()
    assert [t.placement for t in a.turns] == [t.placement for t in b.turns]
    c = new_game(3, seed=43)
    c.play()
    assert [t.placement for t in a.turns] != [t.placement for t in c.turns]


def test_greedy_beats_random_and_scores_add_up() -> None:
    wins = 0
    for seed in range(3):
        game = new_game(["greedy", "random"], seed=seed)
        scores = game.play()
        assert scores == ref_scores(game.board, 2)
        wins += scores[0] > scores[1]
    assert wins >= 2


def test_transcript_and_play_to() -> None:
    game = new_game(2, seed=5)
    game.play_to(10)
    assert len(game.turns) == 10
    lines = transcript(game)
    assert lines[0].startswith("  1. P1 (random): ")
    game.play()
    lines = transcript(game)
    assert "End of game:" in lines
    assert lines[-2:] == [
        f"  P1 (random): {game.board.scores[0]}",
        f"  P2 (random): {game.board.scores[1]}",
    ]


def test_bad_players() -> None:
    with pytest.raises(CarcassonneError, match="unknown player 'smart'"):
        make_player("smart")
    with pytest.raises(CarcassonneError, match="7 players"):
        new_game(7)

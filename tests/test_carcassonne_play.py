"""Moves from people, undo, saved games and the MCTS player."""

from __future__ import annotations

import json

import pytest

from tilelay.carcassonne.errors import CarcassonneError, IllegalMoveError, TurnOrderError
from tilelay.carcassonne.game import Game, HumanPlayer, Move, RandomPlayer
from tilelay.carcassonne.mcts import MctsPlayer
from tilelay.carcassonne.players import make_player, new_game
from tilelay.carcassonne.record import GameRecord, load_game, record, save_game


def _state(game: Game) -> tuple[object, ...]:
    b = game.board
    return (
        b.placements_made(),
        list(b.scores),
        list(b.meeples),
        list(b.abbots),
        b.followers_on_board(),
        game.current,
        game.tile,
        list(game.pile),
    )


def test_a_person_moves_with_make_move() -> None:
    game = Game([HumanPlayer(), RandomPlayer(1)], seed=3, abbot=True)
    assert game.tile_name is not None
    moves = game.legal_moves()
    assert moves and all(isinstance(m, Move) for m in moves)
    with pytest.raises(TurnOrderError, match="person"):
        game.step()
    with pytest.raises(IllegalMoveError, match="cannot go"):
        game.make_move(Move(9, 9, 0))
    bad = next(Move(m.x, m.y, m.rotation, 40) for m in moves)
    with pytest.raises(IllegalMoveError, match="not allowed"):
        game.make_move(bad)
    move = next(m for m in moves if m.follower is not None)
    turn = game.make_move(move)
    assert turn.move == move and turn.player == 0
    assert game.step() is not None  # the computer player's turn
    assert len(game.turns) == 2


def test_undo_replays_without_the_last_move() -> None:
    game = new_game(["random", "greedy"], seed=8, river=True, abbot=True)
    game.play_to(15)
    moves = [t.move for t in game.turns]
    other = new_game(["random", "greedy"], seed=8, river=True, abbot=True)
    other.replay(moves[:14])
    assert game.undo() == moves[14]
    assert _state(game) == _state(other)
    assert game.make_move(moves[14]).move == moves[14]
    with pytest.raises(TurnOrderError, match="no move"):
        new_game(2, seed=1).undo()


@pytest.mark.parametrize("options", [{}, {"river": True, "abbot": True}])
def test_save_and_resume_round_trip(options: dict[str, bool]) -> None:
    game = new_game(["random", "greedy", "human"], seed=21, **options)
    while game.current != 2 or len(game.turns) < 20:
        if game.current == 2:
            game.make_move(game.legal_moves()[-1])
        else:
            game.step()
    text = save_game(game)
    data = json.loads(text)
    assert data["players"] == ["random", "greedy", "human"]
    assert data["rules"]["river"] == options.get("river", False)
    assert len(data["moves"]) == len(game.turns)
    back = load_game(text)
    assert _state(back) == _state(game)
    assert save_game(back) == text
    assert GameRecord.from_json(text) == record(game)
    # the restored game goes on
    back.make_move(back.legal_moves()[0])
    assert len(back.turns) == len(game.turns) + 1


def test_bad_saved_games_are_refused() -> None:
    game = new_game(2, seed=4)
    game.play_to(3)
    data = json.loads(save_game(game))
    with pytest.raises(CarcassonneError, match="not a saved game"):
        GameRecord.from_dict({"format": "x"})
    data["moves"][1]["tile"] = "Q9"
    with pytest.raises(CarcassonneError, match="move 2 places tile 'Q9'"):
        load_game(json.dumps(data))
    data = json.loads(save_game(game))
    data["rules"]["river"] = "yes"
    with pytest.raises(CarcassonneError, match="river must be true or false"):
        load_game(json.dumps(data))
    data = json.loads(save_game(game))
    data["rules"]["followers"] = 1_000_000  # a player places at most one a turn
    with pytest.raises(CarcassonneError, match="followers must be a whole number from 0 to 100"):
        load_game(json.dumps(data))
    with pytest.raises(CarcassonneError, match="not JSON"):
        load_game("{")


def test_mcts_player_kinds() -> None:
    assert make_player("mcts").name == "mcts:medium"
    assert make_player("mcts:hard").name == "mcts:hard"
    with pytest.raises(CarcassonneError, match="unknown level 'expert'"):
        make_player("mcts:expert")


def test_mcts_plays_a_whole_game_with_river_and_abbot() -> None:
    bot = MctsPlayer(7, playouts=12, seconds=None)
    game = Game([bot, RandomPlayer(1)], seed=2, river=True, abbot=True)
    game.play()
    assert game.finished
    assert bot.last_playouts <= 12


def test_mcts_with_a_playout_budget_is_deterministic() -> None:
    def first_moves() -> list[Move]:
        game = Game([MctsPlayer(5, playouts=30, seconds=None), RandomPlayer(2)], seed=9)
        game.play_to(6)
        return [t.move for t in game.turns]

    assert first_moves() == first_moves()


def test_mcts_beats_random() -> None:
    wins = 0
    for seed in range(2):
        game = Game([MctsPlayer(seed, level="easy"), RandomPlayer(seed)], seed=seed)
        scores = game.play()
        wins += scores[0] > scores[1]
    assert wins == 2


def test_legal_actions_match_placing_then_asking() -> None:
    from tilelay.carcassonne.game import legal_actions

    for seed in range(3):
        game = new_game(["random", "random"], seed=seed, river=True, abbot=True)
        while (tile := game.draw()) is not None:
            board = game.board
            player = game.current
            predicted = legal_actions(board, tile, player)
            placed = []
            for key, rot in board.legal_keys(tile):
                trial = board.clone()
                trial.place(tile, key, rot)
                placed += [(key, rot, a) for a in trial.actions(player)]
            assert predicted == placed
            game.step()


def test_playouts_cut_off_after_their_rounds_and_score_the_end() -> None:
    import random

    from tilelay.carcassonne.mcts import ROUNDS, determinize, playout

    game = new_game(2, seed=3)
    game.play_to(10)
    game.draw()
    board = game.board
    pile = determinize(board, game.remaining(), random.Random(1))
    for depth in (1, 4, 12):
        sim = board.clone()
        rest = pile[:]
        playout(sim, rest, 0, random.Random(2), depth)
        assert len(rest) == len(pile) - depth  # exactly depth tiles drawn
        assert len(sim.placed) <= len(board.placed) + depth
        assert sum(sim.scores) > sum(board.scores)  # the features left open were scored
        with pytest.raises(CarcassonneError):
            sim.final_scoring()  # ... once, as at the game's end
    whole = board.clone()
    rest = pile[:]
    playout(whole, rest, 0, random.Random(2))
    assert rest == []  # no cut-off: to the game's end
    assert MctsPlayer(1).rounds == ROUNDS

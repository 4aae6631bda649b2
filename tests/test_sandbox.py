"""A board's state as a value: edits, rules refused by name, undo/redo, JSON (tilelay.sandbox)."""

from __future__ import annotations

import pytest

from tests.conftest import engine_games_known, offboard_revenues, recorded_runs
from tilelay.errors import NotFoundError
from tilelay.sandbox import BoardState, Edit, IllegalEdit, StateError, board_actions, game_key


def test_lay_rotate_replace_undo_redo() -> None:
    state = BoardState("1889").lay("K8", "57", 1)
    assert state.actions == ("K8=57-1",)
    assert state.board().tile_at("K8").name == "57"
    turned = state.rotate("K8")
    assert turned.actions == ("K8=57-4",)  # 57 is symmetric: 1 and 4 are the legal ones
    replaced = turned.replace_tile("K8", "57", 1)
    assert replaced.actions == ("K8=57-1",)
    assert [str(e) for e in replaced.done] == [
        "+0 K8=57-1",
        "0 K8=57-1>K8=57-4",
        "0 K8=57-4>K8=57-1",
    ]
    back = replaced.undo().undo()
    assert back.actions == ("K8=57-1",)
    assert back.redo().actions == ("K8=57-4",)
    assert back.undo().actions == () and back.undo().undo().actions == ()
    assert back.redo().redo().redo() == replaced  # redo as far as it goes
    # a new edit forgets what could be redone
    assert back.lay("J3", "8", 3).undone == ()


def test_refusals_name_the_rule() -> None:
    state = BoardState("1889")
    with pytest.raises(IllegalEdit, match="phase 2 allows yellow"):
        state.lay("K4", "440", 0)  # green in phase 2
    with pytest.raises(IllegalEdit, match="off the map"):
        state.lay("A10", "57", 0)
    with pytest.raises(NotFoundError, match="has no tile '1'"):
        state.lay("K8", "1", 0)
    with pytest.raises(IllegalEdit, match="laid only by a private"):
        state.lay("J9", "437", 0)
    state = state.lay("J3", "8", 3)
    with pytest.raises(IllegalEdit, match="cannot replace"):
        state.set_phase("3").lay("J3", "14", 0)
    with pytest.raises(NotFoundError, match="no phase '9'"):
        state.set_phase("9")  # a name not found, as a tile's or a corporation's
    with pytest.raises(StateError, match="24 trains at most, not 25"):
        state.with_routes("KO", ["2"] * 25)
    with pytest.raises(NotFoundError):
        state.place_token("K4", "XX")
    full = state.place_token("K4", "KO")
    with pytest.raises(IllegalEdit, match="already has a token"):
        full.place_token("K4", "KO")
    with pytest.raises(IllegalEdit, match="is full"):
        full.place_token("K4", "AR")
    with pytest.raises(IllegalEdit, match="no tile has been laid"):
        state.rotate("K8")


def test_copies_run_out() -> None:
    state = BoardState("1889")
    state = state.lay("K8", "57", 1).lay("G4", "57", 1)  # 1889 has two 57s
    assert "57" not in state.legal_lays("F3")
    with pytest.raises(IllegalEdit, match="no copy of tile 57 is left"):
        state.lay("F3", "57", 1)


def test_tokens_placed_removed_and_carried() -> None:
    state = BoardState("1889", phase="3").lay("K8", "57", 1).place_token("K8", "AR")
    assert state.board().tokens == {("K8", 0): ("AR",)}
    upgraded = state.lay("K8", "15", 1)
    assert upgraded.board().tokens == {("K8", 0): ("AR",)}
    removed = upgraded.remove_token("K8", "AR")
    assert removed.actions == ("K8=57-1", "K8=15-1")
    assert removed.undo().actions == upgraded.actions
    with pytest.raises(IllegalEdit, match="no token"):
        removed.remove_token("K8", "AR")


def test_phase_and_options() -> None:
    state = BoardState("1889")
    assert "Beg7" not in state.legal_lays("J3")
    beginner = state.with_options(["beginner_game"])
    assert "Beg7" in beginner.legal_lays("J3")
    laid = beginner.lay("J3", "Beg7", 0)
    with pytest.raises(IllegalEdit, match="Beg7 is on the map"):
        laid.with_options([])
    green = state.set_phase("3")
    assert green.phase == "3" and green.current_phase().name == "3"
    assert green.undo().phase is None
    assert state.set_phase("2") is state  # the first phase: no edit


def test_json_round_trip_and_bad_states() -> None:
    state = BoardState("1889").lay("K8", "57", 1).place_token("K8", "AR").set_phase("3")
    state = state.with_routes("AR", ["2", "3"]).undo().redo()
    assert BoardState.from_json(state.to_json()) == state
    assert BoardState.loads(state.dumps()) == state
    for bad, message in [
        ([], "JSON object"),
        ({"game": "1889", "x": 1}, "unknown field"),
        ({"game": 5}, "'game'"),
        ({"game": "1889", "actions": "K8=57-1"}, "list of strings"),
        ({"game": "1889", "actions": ["K8"]}, "action 1"),
        ({"game": "1889", "actions": ["K8=57-1", "K8=KO@3"]}, "action 2"),
        ({"game": "1889", "done": ["bogus"]}, "bad edit"),
        # a history that does not fit the actions: its undo (or redo) could never work
        ({"game": "1889", "actions": ["K4=KO@0"], "done": ["+5 J3=8-0"]}, "'done': edit"),
        ({"game": "1889", "actions": ["K4=KO@0"], "undone": ["-3 J3=8-0"]}, "'undone': edit"),
    ]:
        with pytest.raises(StateError, match=message):
            BoardState.from_json(bad)
    with pytest.raises(NotFoundError):
        BoardState.from_json({"game": "1999"})
    with pytest.raises(NotFoundError, match="no phase"):
        BoardState.from_json({"game": "1889", "phase": "Z"})


def test_edit_text_forms() -> None:
    for text in ("+3 K4=57-1", "-0 K4=KO@0", "2 K4=57-1>K4=57-2", "phase 2>3", "phase >3"):
        assert str(Edit.parse(text)) == text
    assert Edit.parse("+1 K4=57-1").inverse() == Edit(1, "K4=57-1", None)


def test_board_actions_rebuild_a_board() -> None:
    state = BoardState("1889", phase="3").lay("K8", "57", 1).place_token("K8", "AR")
    state = state.lay("K8", "15", 1).place_token("K8", "KO").lay("J3", "8", 3)
    board = state.board()
    rebuilt = BoardState("1889", actions=tuple(str(a) for a in board_actions(board))).board()
    assert rebuilt.tokens == board.tokens
    assert {c: (t.name, t.rotation) for c, t in rebuilt.laid.items()} == {
        c: (t.name, t.rotation) for c, t in board.laid.items()
    }


EXTRA_TOKENS = ("1822__33845", "1882__5236", "18LosAngeles1__19984", "18USA__109372")


@pytest.mark.parametrize("stem", [*EXTRA_TOKENS, "18VA__18VA_game_end_bank"])
def test_board_actions_rebuild_the_boards_of_recorded_games(stem: str) -> None:
    """Boards of recorded games whose tokens stand past their city's slots (abilities'
    extra slots; a tile of fewer slots laid over them) or are neutral: the actions rebuild
    them token for token, as the board page branches a board off a record's step (it
    refused these as full cities, or as of no corporation)."""
    checked = extra = 0
    for step, _ in recorded_runs(stem, 4):
        board = step.board
        game = board.game
        actions = tuple(str(a) for a in board_actions(board))
        rebuilt = BoardState(game_key(game), options=game.chosen_options, actions=actions).board()
        assert rebuilt.tokens == board.tokens, step.action_id
        assert {c: (t.name, t.rotation % 6) for c, t in rebuilt.laid.items()} == {
            c: (t.name, t.rotation % 6) for c, t in board.laid.items()
        }
        checked += 1
        extra += sum(1 for a in actions if a.endswith("+") or "(neutral)" in a)
    assert checked and extra


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("+3 K4=57-1", "tile 57 on K4, rotation 1"),
        ("-3 K4=KO@0", "KO's token in K4 taken off"),
        ("0 K4=57-1>K4=57-2", "tile 57 on K4, rotation 1 → tile 57 on K4, rotation 2"),
        ("phase 2>3", "the phase 2 → 3"),
        ("+0 K4=KO@1", "KO's token in K4 (city 1)"),
    ],
)
def test_an_edit_in_words(text: str, words: str) -> None:
    # what the board page's undo and redo buttons say (their text forms are for the state)
    assert Edit.parse(text).describe() == words


# ---------------------------------------------------------------------- drawn setups


def test_a_board_of_a_game_that_draws_its_setup_starts_from_its_seed() -> None:
    """18USA draws its red hexes' values and its metropolises from the game's seed and
    players: a board given them starts as a record with that seed does (the values the
    engine draws for seed 109372 and four players: tests/test_g18usa.py)."""
    with engine_games_known():
        plain = BoardState("18USA")
        assert "A27" not in plain.board().game.hexes  # the map as its data has it
        state = plain.with_setup(109372, 4)
        board = state.board()
        assert offboard_revenues(board.game, "A27") == {
            "yellow": 30,
            "green": 50,
            "brown": 60,
            "gray": 80,
        }
        # the metropolises drawn are laid before play, and are no action of the board's
        assert [board.tile_at(c).name for c in ("H22", "D20", "I19")] == ["X01", "X02", "X06"]
        assert board.tile_at("G3").name == "G3" and state.actions == ()
        # which take the green 592 (18USA's rule: tilelay/data/upgrade_rules.toml)
        assert "592" in state.set_phase("3").legal_lays("H22")
        # a board laid on it keeps the setup through JSON and undo
        laid = state.lay("E13", "7", 0)
        again = BoardState.from_json(laid.to_json())
        assert again == laid and again.to_json()["seed"] == 109372
        assert again.undo().board().tile_at("H22").name == "X01"
        # another seed draws another setup; the history goes, as with options
        other = laid.with_setup(5, 3)
        assert other.done == () and other.seed == 5 and other.players == 3
        assert other.board().tile_at("G3").name == "X05"  # Los Angeles drawn this time
        assert other.with_setup(None, None).board().tile_at("G3").name == "G3"


def test_a_seed_and_players_are_refused_where_the_game_cannot_start_so() -> None:
    with pytest.raises(IllegalEdit, match="1889 draws nothing from a seed"):
        BoardState("1889").with_setup(3, 4)
    with pytest.raises(IllegalEdit, match="played by 2 to 6 players, not 9"):
        BoardState("1889").with_setup(None, 9)
    assert BoardState("1889").with_setup(None, 4).players == 4
    with pytest.raises(StateError, match="'seed' must be null or a whole number"):
        BoardState.from_json({"game": "1889", "seed": "5"})
    with pytest.raises(StateError, match="1889 draws nothing from a seed"):
        BoardState.from_json({"game": "1889", "seed": 5, "players": 4})
    with engine_games_known():
        with pytest.raises(IllegalEdit, match="for a number of players: give one"):
            BoardState("18USA").with_setup(5, None)
        with pytest.raises(IllegalEdit, match="a seed is a whole number from 0"):
            BoardState("18USA").with_setup(-1, 4)


def test_a_boards_players_give_the_games_numbers_of_trains() -> None:
    with engine_games_known():
        twos = {
            n: BoardState("1846", players=n).resolve().trains.card_type("2").quantity
            for n in (3, 4, 5)
        }
        assert twos == {3: 7, 4: 8, 5: 9}
        # one game object for a number of players (a game is compared by identity: boards and
        # rules are kept by it, and a new one each time made the server keep them all)
        three = BoardState("1846", players=3)
        assert three.resolve() is three.resolve()
        assert (
            BoardState("18USA").with_setup(5, 3).resolve()
            is BoardState("18USA", seed=5, players=3).resolve()
        )

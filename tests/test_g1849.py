"""1849's rules that change the map: the Messina earthquake (see :mod:`tilelay.rules.g1849`).

Replayed on the shared 1849 record: the first 12H bought returns Messina (B14) to its printed
yellow tile and takes the tokens there out of the game, as the engine does
(``G1849::Game#event_earthquake!``); the tile laid there goes back to the supply."""

from __future__ import annotations

import pytest

from tests.conftest import REFERENCE
from tilelay.replay import load_record, replay_steps

RECORD = REFERENCE / "18xxgames" / "fixtures" / "1849__27939.json"

pytestmark = pytest.mark.usefixtures("engine_games")


def test_the_messina_earthquake_returns_messina_to_yellow() -> None:
    if not RECORD.is_file():
        pytest.skip(f"reference data absent: {RECORD}")
    before = None
    for step in replay_steps(load_record(RECORD)):
        action = step.action
        if action.get("type") == "buy_train" and str(action.get("train", "")).startswith("12H"):
            assert before is not None and before.board.tile_at("B14").name == "655"
            board = step.board
            assert board.tile_at("B14") is board.game.hex_tile("B14")
            assert not any(c == "B14" for c, _ in board.tokens)
            assert board.copies_on_board("655") == before.board.copies_on_board("655") - 1
            break
        before = step
    else:
        pytest.fail("no 12H bought in the record")


def test_a_tile_must_meet_the_corporations_track_in_its_gauge() -> None:
    """1849's legal_tile_rotation?: where a corporation's track reaches a hex and a
    neighbour's track meets an edge of it, the tile laid must meet it in its gauge at one such
    edge at least. At ATA's lay in L12 (action 26) the board allows tiles 7, 8 and 9 in
    rotations ATA's broad track there does not meet: the game's test leaves them out, as the
    engine lists them (``tilelay.rules.corporation_lays``); not for a name that is no
    corporation's, nor in a game without the rule."""
    if not RECORD.is_file():
        pytest.skip(f"reference data absent: {RECORD}")
    from tilelay.rules import corporation_lays

    before = None
    for step in replay_steps(load_record(RECORD)):
        if step.action_id == 26:
            break
        before = step
    assert before is not None
    board, phase = before.board, before.phase
    legal = board.legal_lays("L12", phase=phase)
    assert legal["8"] == (0, 1, 3, 5)
    kept = corporation_lays(board, "ATA", "L12", legal)
    assert (kept["7"], kept["8"], kept["9"]) == ((0, 1, 2), (0, 1), (0, 3))
    assert kept["77"] == legal["77"]  # (as the engine lists it too)
    assert corporation_lays(board, "NOSUCH", "L12", legal) == legal

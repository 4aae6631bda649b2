"""Tile lays and token placements as values with a text form (tilelay.actions)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tilelay.actions import ActionError, TileLay, TokenPlacement, parse_action, split_rotation
from tilelay.board import Board
from tilelay.games import load_game


def test_text_forms() -> None:
    assert TileLay.parse("K4=57-1") == TileLay("K4", "57", 1)
    assert TileLay.parse(" k4 = 57 ") == TileLay("K4", "57", 0)
    assert str(TileLay("K4", "X1", 0)) == "K4=X1-0"
    assert TokenPlacement.parse("K4=KO@1") == TokenPlacement("K4", "KO", 1)
    assert TokenPlacement.parse("K4=KO") == TokenPlacement("K4", "KO", 0)
    assert str(TokenPlacement("H6", "B&O", 0)) == "H6=B&O@0"
    assert parse_action("K4=KO@0") == TokenPlacement("K4", "KO")
    assert parse_action("K4=57-1") == TileLay("K4", "57", 1)
    # a token in an extra slot, and a neutral token
    assert TokenPlacement.parse("K4=KO@1+") == TokenPlacement("K4", "KO", 1, extra=True)
    assert str(TokenPlacement("K4", "KO", 1, extra=True)) == "K4=KO@1+"
    assert str(parse_action("I5=(neutral)@0")) == "I5=(neutral)@0"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("K4", "expected COORD=TILE"),
        ("K4=", "expected COORD=TILE"),
        ("=57", "bad hex ''"),
        ("4K=57", "bad hex '4K'"),
        ("K4=57-9", "rotation 9"),
        ("K4=57-" + "9" * 5000, "rotation 999999999999… in"),
    ],
)
def test_bad_tile_lays_say_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(ActionError, match=words):
        TileLay.parse(text)


@pytest.mark.parametrize("text", ["K4", "K4=@1", "K4=KO@x", "K4=KO@-²", "K4=KO@" + "9" * 5000])
def test_bad_token_placements_are_refused(text: str) -> None:
    with pytest.raises(ActionError):
        TokenPlacement.parse(text)


def test_split_rotation_prefers_known_names() -> None:
    assert split_rotation("9-1") == ("9", 1)
    assert split_rotation("5-1", {"5-1", "5"}) == ("5-1", None)
    assert split_rotation("zz-1", {"9"}) == ("zz-1", None)
    with pytest.raises(ActionError, match="out of range"):
        split_rotation("9-9", {"9"})


_coords = st.from_regex(r"[A-Z]{1,2}[1-9][0-9]?", fullmatch=True)
_names = st.from_regex(r"[A-Za-z0-9&]{1,6}", fullmatch=True)


@given(_coords, _names, st.integers(0, 5))
def test_tile_lay_round_trip(coord: str, tile: str, rotation: int) -> None:
    lay = TileLay(coord, tile, rotation)
    assert TileLay.parse(str(lay)) == lay


@given(_coords, _names, st.integers(0, 9))
def test_token_round_trip(coord: str, corporation: str, city: int) -> None:
    token = TokenPlacement(coord, corporation, city)
    assert TokenPlacement.parse(str(token)) == token


def test_board_apply() -> None:
    board = Board(load_game("1889")).apply(TileLay.parse("K8=57-1"))
    assert sorted(board.tile_at("K8").exits()) == [1, 4]
    board = board.apply(TokenPlacement.parse("K8=AR"))
    assert board.tokens == {("K8", 0): ("AR",)}

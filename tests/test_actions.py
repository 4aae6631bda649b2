"""Tile lays and token placements as values with a text form (tilelay.actions)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hypothesis import assume, given
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


def test_coordinates_are_canonical_in_the_value() -> None:
    """``k4`` and ``K4`` are one hex: the constructor writes it in capitals, as parse does,
    so a value made with ``k4`` reads back from its text."""
    lay = TileLay("k4", "57", 0)
    assert lay.coord == "K4" and str(lay) == "K4=57-0"
    assert TileLay.parse(str(lay)) == lay == TileLay.parse("k4=57")
    token = TokenPlacement(" h6 ", "B&O")
    assert token.coord == "H6" and TokenPlacement.parse(str(token)) == token


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: TileLay("K4", "57", True), "rotation must be a whole number 0-5, not bool"),
        (lambda: TileLay("K4", "57", "1"), "rotation must be a whole number 0-5, not str '1'"),
        (lambda: TileLay("K4", "57", 1.0), "rotation must be a whole number"),
        (lambda: TileLay("K4", "57", 6), "rotation 6 is out of range: expected 0-5"),
        (lambda: TileLay("K4", 57, 0), "a tile name must be text, not int"),
        (lambda: TileLay(None, "57", 0), "a hex coordinate must be text, not NoneType"),
        (lambda: TileLay("4K", "57", 0), "bad hex '4K'"),
        (lambda: TileLay("K4", "5 7", 0), "bad tile name '5 7': it holds a space"),
        (lambda: TileLay("K4", "a@b", 0), "bad tile name 'a@b': it holds '@'"),
        (lambda: TileLay("K4", "a=b", 0), "holds '='"),
        (lambda: TileLay("K4", "57-", 0), "ends with '-'"),
        (lambda: TileLay("K4", "", 0), "is empty"),
        (lambda: TileLay("K4", "5\n7", 0), "control character"),
        (lambda: TileLay("K4", "x" * 41, 0), "longer than 40"),
        (lambda: TokenPlacement("K4", "KO", 1.5), "city must be a whole number 0-99, not float"),
        (lambda: TokenPlacement("K4", "KO", "1"), "city must be a whole number 0-99, not str"),
        (lambda: TokenPlacement("K4", "KO", False), "city must be a whole number"),
        (lambda: TokenPlacement("K4", "KO", 100), "city 100 is out of range: expected 0-99"),
        (lambda: TokenPlacement("K4", "KO", 0, 1), "extra must be True or False, not int"),
        (lambda: TokenPlacement("K4", "K@O"), "bad corporation 'K@O': it holds '@'"),
        (lambda: TokenPlacement("K4", " 1"), "starts or ends with a space"),
        (lambda: TokenPlacement("K4", b"KO"), "a corporation must be text, not bytes"),
    ],
)
def test_constructors_refuse_what_no_text_says(make: Callable[[], object], words: str) -> None:
    with pytest.raises(ActionError, match=re.escape(words)):
        make()


@pytest.mark.parametrize("parse", [TileLay.parse, TokenPlacement.parse, parse_action])
@pytest.mark.parametrize("text", [None, b"K4=57", 4, ["K4=57"]])
def test_parse_refuses_what_is_not_text(parse: Callable[[object], object], text: object) -> None:
    with pytest.raises(ActionError, match="must be text, not"):
        parse(text)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("K4=57-", "expected a rotation 0-5 after '-'"),
        ("K4=57-1-", "expected a rotation 0-5 after '-'"),
        ("K4=5 7", "it holds a space"),
        ("K4=" + "x" * 41, "longer than 40"),
    ],
)
def test_malformed_tile_lays(text: str, words: str) -> None:
    with pytest.raises(ActionError, match=re.escape(words)):
        TileLay.parse(text)


def test_corporations_with_spaces_inside() -> None:
    """Some games' corporations have a space inside (1840's ``DT K&C``): written and read."""
    token = TokenPlacement("E9", "DT K&C", 1, extra=True)
    assert str(token) == "E9=DT K&C@1+"
    assert parse_action(str(token)) == token
    assert TokenPlacement.parse(" E9 = DT K&C @ 1 ") == TokenPlacement("E9", "DT K&C", 1)


#: Any text an action may hold as a coordinate (any case, spaces around), a tile's name or a
#: corporation's.
_any_coords = st.from_regex(r"\s{0,2}[A-Za-z]{1,3}-?[0-9]{1,3}\s{0,2}", fullmatch=True)
_any_names = st.one_of(
    st.text(min_size=1, max_size=41),
    st.from_regex(r"[-A-Za-z0-9&+() ]{1,8}", fullmatch=True),
)


def _made(make: Callable[[], object]) -> object:
    try:
        return make()
    except ActionError:
        return None


@given(_any_coords, _any_names, st.integers(0, 5))
def test_any_tile_lay_reads_back_from_its_text(coord: str, tile: str, rotation: int) -> None:
    lay = _made(lambda: TileLay(coord, tile, rotation))
    assume(lay is not None)
    assert isinstance(lay, TileLay)
    assert TileLay.parse(str(lay)) == lay
    assert parse_action(str(lay)) == lay


@given(_any_coords, _any_names, st.integers(0, 99), st.booleans())
def test_any_token_placement_reads_back_from_its_text(
    coord: str, corporation: str, city: int, extra: bool
) -> None:
    token = _made(lambda: TokenPlacement(coord, corporation, city, extra))
    assume(token is not None)
    assert isinstance(token, TokenPlacement)
    assert TokenPlacement.parse(str(token)) == token
    assert parse_action(str(token)) == token


@given(st.one_of(st.text(max_size=60), st.from_regex(r"[A-Za-z]{1,2}[0-9]{1,2}=.{0,12}")))
def test_any_text_reads_to_its_canonical_form_or_is_refused(text: str) -> None:
    """parse gives a value whose text reads back to it, or raises ActionError: nothing
    else."""
    action = _made(lambda: parse_action(text))
    if action is not None:
        assert isinstance(action, TileLay | TokenPlacement)
        assert parse_action(str(action)) == action


def test_board_apply() -> None:
    board = Board(load_game("1889")).apply(TileLay.parse("K8=57-1"))
    assert sorted(board.tile_at("K8").exits()) == [1, 4]
    board = board.apply(TokenPlacement.parse("K8=AR"))
    assert board.tokens == {("K8", 0): ("AR",)}

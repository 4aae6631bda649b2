"""The River and the Abbot: tile data, the seed form's extension, placement and scoring rules on
hand-built positions, and whole random games that keep the invariants."""

from __future__ import annotations

from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_carcassonne_reference import RefBoard

from tilelay.carcassonne.board import ABBOT, NO_FOLLOWER, RETURN_ABBOT, Board, Rules, ScoreEvent
from tilelay.carcassonne.errors import IllegalMoveError, TurnOrderError
from tilelay.carcassonne.game import Game, RandomPlayer
from tilelay.carcassonne.players import new_game
from tilelay.carcassonne.tile import (
    Kind,
    _without_pennants,
    from_seed,
    parse_seed,
    same_tile,
    to_seed,
)
from tilelay.carcassonne.tileset import (
    dump_tileset,
    game_tileset,
    garden_tileset,
    parse_tileset,
    river_tileset,
)

RIVER = Rules(river=True)
ABBOT_RULES = Rules(abbot=True)


@pytest.mark.parametrize("name", ["base.toml", "base-gardens.toml", "river.toml"])
def test_data_files_read_write_read_exactly(name: str) -> None:
    text = resources.files("tilelay.carcassonne").joinpath(f"data/{name}").read_text("utf-8")
    ts = parse_tileset(text, source=name)
    assert dump_tileset(ts) == text
    assert parse_tileset(dump_tileset(ts)) == ts


def test_tile_counts() -> None:
    assert river_tileset().total == 12
    assert garden_tileset().total == 72
    assert sum(t.count for t in garden_tileset().types if t.has_garden) == 8
    assert sum(t.count for t in river_tileset().types if t.has_garden) == 1
    both = game_tileset(river=True, abbot=True)
    assert both.total == 84 and both.start == "spring"


@pytest.mark.parametrize(
    "tile", [t for t in (*river_tileset().types, *garden_tileset().types)], ids=lambda t: t.name
)
def test_seed_form_round_trip(tile: object) -> None:
    from tilelay.carcassonne.tile import TileType

    assert isinstance(tile, TileType)
    form = to_seed(tile)
    assert parse_seed(form.text()) == form  # read -> write -> read
    assert same_tile(from_seed(form, tile.name), _without_pennants(tile))


def test_seed_form_extension_examples() -> None:
    garden_curve = parse_seed("0 N 0\nRv G N\n1 Rv 0\nwalls: none\n")
    tile = from_seed(garden_curve, "g")
    assert [f.text() for f in tile.features] == [
        "river S W",
        "garden",
        "farm Nw Ne En Es Se Wn",
        "farm Sw Ws",
    ]
    straight_road_garden = from_seed(parse_seed("0 R 1\nN RG N\n0 R 1\nwalls: none"), "Ug")
    assert same_tile(straight_road_garden, garden_tileset().type("Ug"))


# --- the River ---------------------------------------------------------------------------------


def test_the_spring_starts_and_the_river_goes_on_at_its_end() -> None:
    board = Board(rules=RIVER)
    assert board.tile_at(0, 0) == ("spring", 0)
    # the straight river only at the spring's east side, turned either way
    got = {(p.x, p.y, p.rotation) for p in board.legal_placements("river-straight")}
    assert got == {(1, 0, 0), (1, 0, 2)}


def test_no_u_turn() -> None:
    board = Board(rules=RIVER)
    board.place_at("river-curve", 1, 0, 0)  # river W -> S: heading east, turns right
    board.score_turn()
    # a curve at (1, 1) straight after it: from the north it may turn left (east, rotation 2)
    # but not right (west, rotation 1), which would be two right turns in a row: a U-turn
    got = {(p.x, p.y, p.rotation) for p in board.legal_placements("river-curve")}
    assert got == {(1, 1, 2)}
    with pytest.raises(IllegalMoveError, match="cannot go"):
        board.place_at("river-curve", 1, 1, 1)
    board.place_at("river-straight", 1, 1, 1)  # N -> S
    board.score_turn()
    # after a straight tile the next curve may turn either way (the official rule)
    got = {(p.x, p.y, p.rotation) for p in board.legal_placements("river-curve")}
    assert got == {(1, 2, 1), (1, 2, 2)}
    board.place_at("lake", 1, 2, 1)  # the lake's river (W) turned to face north
    board.score_turn()
    assert board.river_end == -1
    assert board.legal_placements("river-straight") == []


def test_a_city_on_the_river_scores_and_the_farm_goes_round_the_spring() -> None:
    board = Board(players=2, rules=RIVER)
    board.place_at("river-cities", 1, 0, 0)  # caps N and S, river W-E
    board.place_follower(0, 0)  # the north cap
    assert board.score_turn() == []
    board.place_at("river-straight", 2, 0, 0)
    board.place_follower(1, 2)  # the farm south of the river (Es Se Sw Ws)
    board.score_turn()
    _t, _r, _k, base = board.placed[2]
    # the river splits the tile's farms, but both banks meet round the spring (the official
    # ruling: the spring's farm is one farm), so north and south are one farm here
    assert board.find(base + 1) == board.find(base + 2)
    board.place_at("E", 1, -1, 2)  # a cap facing south closes the north city: 2 tiles, 4 points
    assert board.score_turn() == [ScoreEvent(Kind.CITY, True, 2, 4, (0,))]
    board.final_scoring()
    # the farmer's farm touches the completed north city (3) and the open south cap (0)
    assert board.scores == [4, 3]
    assert RefBoard.of(board).all_match()


def test_river_game_places_the_river_first_and_the_base_start_tile_in_the_pile() -> None:
    game = new_game(2, seed=5, river=True)
    game.play()
    names = [t.tile for t in game.turns]
    river = {t.name for t in river_tileset().types}
    assert all(n in river for n in names[:11]) and names[10] == "lake"
    assert not any(n in river for n in names[11:])
    assert names.count("D") + game.discarded.count("D") == 4
    assert len(game.board.placed) + len(game.discarded) == 84


# --- the Abbot ---------------------------------------------------------------------------------


def _garden_board() -> Board:
    board = Board(players=2, rules=ABBOT_RULES)
    board.place_at("Eg", 0, -1, 2)  # cap facing south (closes the start city) and a garden
    return board


def test_abbot_goes_on_gardens_and_monasteries_only() -> None:
    board = _garden_board()
    garden = 2  # features: city, farm, garden
    assert board.tileset.type("Eg").features[garden].kind is Kind.GARDEN
    assert garden not in board.follower_options(0)
    assert board.actions(0) == [NO_FOLLOWER, 0, 1, ABBOT + garden]
    with pytest.raises(IllegalMoveError, match="cannot take a follower"):
        board.place_follower(0, garden)
    board.place_abbot(0, garden)
    assert board.abbots == [0, 1] and board.meeples == [7, 7]
    with pytest.raises(TurnOrderError, match="already placed"):
        board.place_follower(0, 1)
    # the city closed by this tile (2 tiles) has no follower
    assert board.score_turn() == [ScoreEvent(Kind.CITY, True, 2, 4, ())]
    assert board.abbots_on_board() == [(0, 1, garden)]


def test_returning_the_abbot_scores_its_garden() -> None:
    board = _garden_board()
    board.place_abbot(0, 2)
    board.score_turn()
    board.place_at("U", 1, 0, 1)  # player 2: (1, 0) is in the garden's 3 x 3 square
    board.score_turn()
    board.place_at("U", -1, 0, 1)  # player 1: (-1, 0) too
    assert board.can_return_abbot(0) and RETURN_ABBOT in board.actions(0)
    # the 3 x 3 square around (0, -1) holds (0, -1), (0, 0), (1, 0), (-1, 0): 4 points
    assert board.return_abbot(0) == [ScoreEvent(Kind.GARDEN, False, 4, 4, (0,))]
    with pytest.raises(TurnOrderError, match="already placed"):
        board.place_follower(0, 0)
    board.score_turn()
    assert board.scores == [4, 0] and board.abbots == [1, 1]
    assert board.followers_on_board() == []
    with pytest.raises(IllegalMoveError, match="not on the board"):
        board.place_at("U", 2, 0, 1)
        board.return_abbot(0)


def test_abbot_on_a_completed_monastery_scores_nine_and_comes_back() -> None:
    board = Board(players=1, rules=ABBOT_RULES)
    board.place_at("B", 0, 1, 0)
    board.place_abbot(0, 0)
    board.score_turn()
    spots = [(-1, 0, "U", 1), (1, 0, "U", 1), (-1, 1, "B", 0), (1, 1, "B", 0)]
    spots += [(-1, 2, "B", 0), (0, 2, "B", 0)]
    for x, y, name, r in spots:
        board.place_at(name, x, y, r)
        assert board.abbot_options(0) == []  # the abbot is out
        board.score_turn()
    board.place_at("B", 1, 2, 0)  # the eighth neighbour: 9 points
    assert ScoreEvent(Kind.MONASTERY, True, 9, 9, (0,)) in board.score_turn()
    assert board.scores == [9] and board.abbots == [1] and board.meeples == [7]


def test_abbot_at_the_end_scores_like_a_monastery() -> None:
    board = _garden_board()
    board.place_abbot(1, 2)
    board.score_turn()
    board.place_at("U", 1, 0, 1)
    board.score_turn()
    # garden at (0, -1): itself, the start tile and (1, 0): 3 points to player 2
    assert ScoreEvent(Kind.GARDEN, False, 3, 3, (1,)) in board.final_scoring()
    assert board.scores == [0, 3]


def test_without_the_abbot_nobody_may_use_gardens() -> None:
    board = Board(players=1, tileset=garden_tileset())
    board.place_at("Eg", 0, -1, 2)
    assert board.actions(0) == [NO_FOLLOWER, 0, 1]
    with pytest.raises(IllegalMoveError, match="without the Abbot"):
        board.place_abbot(0, 2)


# --- whole games -------------------------------------------------------------------------------


def _check_invariants(board: Board) -> None:
    rules = board.rules
    out = sum(rules.followers - m for m in board.meeples)
    out += sum((1 if rules.abbot else 0) - a for a in board.abbots)
    on_board = board.followers_on_board()
    assert len(on_board) == out
    assert all(0 <= m <= rules.followers for m in board.meeples)
    for player, node in enumerate(board.abbot_at):
        assert (node >= 0) == (board.abbots[player] == 0 and rules.abbot)
    for player, number, feature in on_board:
        node = board.placed[number][3] + feature
        root = board.find(node)
        assert not board.done[root]
        kind = board.kind[root]
        assert kind != Kind.RIVER
        if kind in (Kind.CITY, Kind.ROAD):
            assert board.opens[root] > 0
        elif kind in (Kind.MONASTERY, Kind.GARDEN):
            assert board.monastery_count(root) < 9
        assert (player, node) in board.followers[root]


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 4), st.booleans())
def test_random_games_with_river_and_abbot_keep_the_invariants(
    seed: int, players: int, abbot: bool
) -> None:
    game = Game(
        [RandomPlayer(f"{seed}:{i}") for i in range(players)], seed, river=True, abbot=abbot
    )
    while game.step() is not None:
        _check_invariants(game.board)
    assert RefBoard.of(game.board).all_match()
    assert game.board.finished
    total = sum(e.points * len(e.players) for t in game.turns for e in t.events)
    total += sum(e.points * len(e.players) for e in game.final_events)
    assert total == sum(game.board.scores)

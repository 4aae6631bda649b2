"""Tests of the board: laying tiles, tokens, exits and the track graph (tilelay.board)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilelay import dsl
from tilelay.board import Board, BoardError, TrackGraph
from tilelay.catalogue import get_tile
from tilelay.errors import NotFoundError
from tilelay.games import Game, game_from_data, load_game
from tilelay.games.model import letters
from tilelay.hexgeo import NEIGHBOUR_OFFSETS, Layout, neighbour_edge
from tilelay.tile import Color, FutureLabel, NodeKind
from tilelay.trains import Phase
from tilelay.upgrades import rules_from_data


def board_1889() -> Board:
    return Board(load_game("1889"))


def mini_game(neighbours: dict[int, tuple[str, str]], centre_code: str = "") -> Game:
    """A flat map: a white hex C5 (tile string ``centre_code``) and, across the given edges,
    hexes of the given (colour, tile string); edges not given lead off the map."""
    hexes = [{"color": "white", "coords": ["C5"], "code": centre_code}]
    for edge, (color, code) in neighbours.items():
        dx, dy = NEIGHBOUR_OFFSETS[Layout.FLAT][edge]
        coord = f"{letters(2 + dx)}{5 + dy}"
        hexes.append({"color": color, "coords": [coord], "code": code})
    data = {
        "title": "Mini",
        "layout": "flat",
        "hexes": hexes,
        "manifest": {"9": 1, "14": 1, "57": 2},
        "phases": [{"name": "2", "tiles": ["yellow"]}, {"name": "3", "tiles": ["yellow", "green"]}],
    }
    return game_from_data(data, source="test")


# ------------------------------------------------------------------- laying


def test_tile_at_preprinted_and_laid() -> None:
    board = board_1889()
    assert board.tile_at("K8").location_name == "Tokushima"
    assert board.tile_at("K8").color is Color.WHITE
    laid = board.lay("K8", get_tile("57"), 1)
    tile = laid.tile_at("K8")
    assert tile.name == "57" and tile.color is Color.YELLOW
    assert sorted(tile.exits()) == [1, 4]
    assert tile.rotation == 1
    assert tile.location_name == "Tokushima"
    # the old board is unchanged
    assert board.tile_at("K8").color is Color.WHITE
    assert board.laid == {} and set(laid.laid) == {"K8"}


def test_off_the_map() -> None:
    board = board_1889()
    with pytest.raises(NotFoundError) as info:
        board.tile_at("K88")
    assert "K8" in info.value.suggestions
    with pytest.raises(NotFoundError):
        board.lay("Z1", get_tile("57"), 0)


# ------------------------------------------------------------------- tokens


def test_tokens_capacity_and_upgrade() -> None:
    board = board_1889().place_token("K8", 0, "AR")
    assert board.tokens == {("K8", 0): ("AR",)}
    with pytest.raises(BoardError, match="full"):
        board.place_token("K8", 0, "IR")
    with pytest.raises(BoardError, match="no city 1"):
        board.place_token("K8", 1, "IR")
    with pytest.raises(BoardError, match="already"):
        board.lay("K8", get_tile("15"), 0).place_token("K8", 0, "AR")
    yellow = board.lay("K8", get_tile("57"), 1)
    assert yellow.tokens == {("K8", 0): ("AR",)}
    green = yellow.lay("K8", get_tile("15"), 0)
    both = green.place_token("K8", 0, "IR", slot=1)
    assert both.tokens == {("K8", 0): ("AR", "IR")}
    assert both.token_count() == 2
    assert both.tokens_of("IR") == [("K8", 0)]
    assert both.token_nodes("IR") == [("K8", 0)]
    with pytest.raises(BoardError, match="full"):
        both.place_token("K8", 0, "SR")


def test_tokens_follow_their_track_on_oo_upgrades() -> None:
    board = Board(load_game("1830")).place_token("E5", 1, "ERIE")
    # a preprinted OO without track keeps the city index
    yellow = board.lay("E5", get_tile("59"), 0)
    assert yellow.tokens == {("E5", 1): ("ERIE",)}
    assert yellow.tile_at("E5").node_exits(1) == {2}
    both = yellow.place_token("E5", 0, "NYC")
    # 59: city 0 exits {0}, city 1 exits {2}; 65 turned 1: city 0 {1, 5}, city 1 {3, 4}.
    # No city keeps exit 0 or 2 -> an error rather than a silent guess.
    with pytest.raises(BoardError, match="keeps the track"):
        both.lay("E5", get_tile("65"), 1)
    # 65 unturned: city 0 {0, 4} keeps exit 0, city 1 {2, 3} keeps exit 2
    brown = both.lay("E5", get_tile("65"), 0)
    assert brown.tokens == {("E5", 0): ("NYC",), ("E5", 1): ("ERIE",)}
    # 65 turned 4 swaps the cities' places: city 0 {2, 4}, city 1 {0, 1}
    swapped = both.lay("E5", get_tile("65"), 4)
    assert swapped.tokens == {("E5", 1): ("NYC",), ("E5", 0): ("ERIE",)}


def test_home_tokens() -> None:
    board = Board(load_game("1830")).with_home_tokens()
    assert board.token_count() == 7  # ERIE's home (an OO hex) has no city index
    assert board.tokens[("G19", 0)] == ("NYNH",)
    assert board.tokens_of("ERIE") == []
    only = Board(load_game("1889")).with_home_tokens(["AR"])
    assert only.tokens == {("K8", 0): ("AR",)}


# -------------------------------------------------------------------- exits


def test_exits_into_fixed_hexes_and_off_the_map() -> None:
    board = board_1889()
    # B7 is gray with track at edges 1, 3 and 5
    assert board.neighbour("B9", 3) == "B7"
    assert not board.exit_allowed("B9", 3)  # B7 has no track at edge 0
    assert not board.connected_exits("B9", 3)
    assert board.exit_allowed("B5", 0)  # B7's edge 3 has track
    assert board.connected_exits("B5", 0)
    assert not board.exit_allowed("A10", 1)  # off the map
    assert not board.connected_exits("A10", 1)
    assert board.exit_allowed("J3", 2)  # into white I2
    assert not board.connected_exits("J3", 2)
    assert board.allowed_exits("B9") == frozenset({0, 1, 2, 4, 5}) - {
        e for e in range(6) if board.neighbour("B9", e) is None
    }
    # a gray tile laid later is no printed gray hex: track may run into its side (as the
    # 18xx.games engine judges neighbours: by the map as printed)
    gray = dsl.parse("path=a:0,b:3", name="gray", color="gray")
    laid = board.lay("I2", gray, 0)
    edge = next(e for e in range(6) if board.neighbour("J3", e) == "I2")
    assert neighbour_edge(edge) not in laid.tile_at("I2").exits()
    assert laid.exit_allowed("J3", edge)
    assert "B7 is printed gray with no track facing back" in str(
        board.why_illegal(
            "B9", "8", next(r for r in range(6) if 3 in get_tile("8").rotated(r).exits())
        )
    )


def test_impassable_border() -> None:
    board = Board(load_game("1830"))
    assert board.neighbour("E7", 5) == "F8"
    assert board.impassable("E7", 5) and board.impassable("F8", 2)
    assert not board.impassable("E7", 4)
    assert not board.exit_allowed("E7", 5)
    laid = board.lay("E7", get_tile("9"), 2).lay("F8", get_tile("9"), 2)  # both cross 2-5
    assert not laid.connected_exits("E7", 5)
    graph = laid.track_graph()
    assert graph.side_id[("E7", 5)] != graph.side_id[("F8", 2)]
    p = graph.path_id[("E7", 0)]
    e = 2 * p if graph.end_side[2 * p] == graph.side_id[("E7", 5)] else 2 * p + 1
    assert graph.links[e] == ()


# -------------------------------------------------------------- track graph


def _link_k4_to_i2(middle_code: str | None = None) -> Board:
    board = board_1889()
    middle = get_tile("9") if middle_code is None else dsl.parse(middle_code, color="yellow")
    rotation = 2 if middle_code is None else 0
    return board.lay("J3", middle, rotation).lay("I2", get_tile("57"), 2)


def test_graph_connects_cities_across_hexes() -> None:
    board = _link_k4_to_i2()
    assert board.neighbour("K4", 2) == "J3" and board.neighbour("J3", 2) == "I2"
    assert board.connected_exits("K4", 2) and board.connected_exits("I2", 5)
    graph = board.track_graph()
    k4 = graph.node_id[("K4", 0)]
    i2 = graph.node_id[("I2", 0)]
    assert graph.neighbours(k4) == {i2}
    assert graph.neighbours(i2) == {k4}
    assert graph.node_kinds[k4] is NodeKind.CITY
    # the walk of the docstring: K4 -> edge 2 -> J3 (one path) -> I2's city
    (start,) = [
        e
        for e in graph.node_ends[k4]
        if graph.end_side[e ^ 1] >= 0
        and graph.sides[graph.end_side[e ^ 1]] in (("K4", 2), ("J3", 5))
    ]
    (across,) = graph.links[start ^ 1]
    assert graph.paths[across >> 1][0] == "J3"
    (into_i2,) = graph.links[across ^ 1]
    assert graph.end_node[into_i2 ^ 1] == i2
    total_nodes = sum(len(board.tile_at(c).nodes) for c in board.game.hexes)
    assert len(graph.nodes) == total_nodes


@pytest.mark.parametrize(
    ("code", "joined"),
    [
        ("path=a:2,b:5", True),
        ("path=a:2,b:5,track:narrow", False),
        ("path=a:2,b:5,track:dual", True),
        ("path=a:2,b:5,ignore:1", False),
    ],
)
def test_graph_respects_gauge(code: str, joined: bool) -> None:
    graph = _link_k4_to_i2(code).track_graph()
    k4 = graph.node_id[("K4", 0)]
    i2 = graph.node_id[("I2", 0)]
    assert (i2 in graph.neighbours(k4)) is joined


def test_paths_sharing_an_edge_in_one_hex_do_not_join() -> None:
    game = load_game("1889")
    board = Board(game).lay("I8", game.tile("Beg23"), 0)  # paths 0-3 and 0-4
    graph = board.track_graph()
    ends = [2 * graph.path_id[("I8", j)] + k for j in (0, 1) for k in (0, 1)]
    mine = set(ends)
    for e in ends:
        assert not mine & set(graph.links[e])


def test_graph_is_cached_per_board() -> None:
    board = _link_k4_to_i2()
    assert board.track_graph() is board.track_graph()
    assert board.lay("K6", get_tile("9"), 0).track_graph() is not board.track_graph()


def _check_graph(graph: TrackGraph) -> None:
    for e, linked in enumerate(graph.links):
        for f in linked:
            assert e in graph.links[f]
            assert graph.end_side[e] == graph.end_side[f] >= 0
            assert graph.paths[e >> 1][0] != graph.paths[f >> 1][0]
        assert (graph.end_node[e] >= 0) != (graph.end_side[e] >= 0)
    for n, ends in enumerate(graph.node_ends):
        for e in ends:
            assert graph.end_node[e] == n
        for m in graph.neighbours(n):
            if graph.node_kinds[n] is not NodeKind.JUNCTION:
                assert n in graph.neighbours(m)


@settings(max_examples=15, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["B5", "C8", "D3", "D9", "E8", "H3", "I8", "I10", "J3", "K6"]),
            st.sampled_from(["7", "8", "9", "57", "58"]),
            st.integers(0, 5),
        ),
        max_size=8,
    )
)
def test_graph_links_are_symmetric(lays: list[tuple[str, str, int]]) -> None:
    board = board_1889()
    for coord, name, rotation in lays:
        board = board.lay(coord, get_tile(name), rotation)
    _check_graph(board.track_graph())


# --------------------------------------------------------------- legal lays


def test_legal_rotations_respect_map_edges() -> None:
    every = {e: ("white", "") for e in range(6)}
    # off the map across edges 4 and 5: tile 9 (0-3) fits only where 0 and 3 lead onto the map
    board = Board(mini_game({e: v for e, v in every.items() if e not in (4, 5)}))
    assert board.legal_rotations("C5", "9") == (0, 3)
    assert "off the map" in str(board.why_illegal("C5", "9", 1))
    # a red hex across edge 3 with track on its edge 0, facing back: every rotation
    red = ("red", "offboard=revenue:20;path=a:0,b:_0")
    board = Board(mini_game({**every, 3: red}))
    assert board.legal_rotations("C5", "9") == (0, 1, 2, 3, 4, 5)
    # the same red hex across edge 1 has no track facing back: track may not run into it
    board = Board(mini_game({**every, 1: red}))
    assert board.legal_rotations("C5", "9") == (0, 2, 3, 5)
    assert "red with no track facing back" in str(board.why_illegal("C5", "9", 1))
    # an impassable border on edge 0 of the centre hex
    board = Board(mini_game(every, "border=edge:0,type:impassable"))
    assert board.legal_rotations("C5", "9") == (1, 2, 4, 5)
    assert "impassable" in str(board.why_illegal("C5", "9", 0))


def test_legal_rotations_phase_and_supply() -> None:
    game = mini_game({e: ("white", "") for e in range(6)})
    board = Board(game)
    yellow_only, green = game.phases
    assert board.legal_rotations("C5", "9", phase=yellow_only) == (0, 1, 2, 3, 4, 5)
    assert board.legal_rotations("C5", "14", phase=yellow_only) == ()
    assert "phase 2 allows yellow" in str(board.why_illegal("C5", "14", 0, phase=yellow_only))
    assert board.available("9") == 1 and board.available("8") == 0
    laid = board.lay("C5", game.tile("9"), 0)
    assert laid.available("9") == 0
    assert "no copy of tile 9 is left" in str(laid.why_illegal("C5", "9", 0))
    # a city tile does not go on a plain hex; nothing is laid over a plain yellow with it
    assert board.legal_rotations("C5", "57") == ()
    assert "cannot replace" in str(board.why_illegal("C5", "57", 0))
    assert board.why_illegal("C5", "9", 0) is None
    assert set(board.legal_lays("C5", phase=green)) == {"9"}


def test_legal_lays_on_1889_keep_inside_the_map() -> None:
    game = load_game("1889")
    board = Board(game)
    plain = [c for c, tile in game.hexes.items() if tile.color is Color.WHITE and not tile.nodes]
    for coord in plain:
        allowed = board.allowed_exits(coord)
        for name, rotations in board.legal_lays(coord, phase=game.phases[0]).items():
            assert game.tile(name).color is Color.YELLOW
            for r in rotations:
                assert game.tile(name).rotated(r).exits() <= allowed


def test_tokens_removed_replaced_and_beyond_the_slots() -> None:
    from tilelay.board import NEUTRAL

    game = load_game("1889")
    board = Board(game).place_token("K4", 0, "KO")
    with pytest.raises(BoardError, match="full"):
        board.place_token("K4", 0, "AR")
    crowded = board.place_token("K4", 0, "AR", extra_slot=True)
    assert crowded.tokens[("K4", 0)] == ("KO", "AR")
    assert crowded.remove_token("K4", 0, "KO").tokens[("K4", 0)] == ("AR",)
    with pytest.raises(BoardError, match="no token"):
        board.remove_token("K4", 0, "AR")
    merged = crowded.replace_tokens("AR", "KO")
    assert merged.tokens[("K4", 0)] == ("KO",)  # one token where both were
    neutral = Board(game).place_token("K4", 0, NEUTRAL)
    assert neutral.tokens[("K4", 0)] == (NEUTRAL,)


def test_upgrades_keep_the_cities_groups_and_sticky_icons() -> None:
    from dataclasses import replace

    from tilelay.tile import Icon

    game = load_game("1889")
    board = Board(game)
    tile = board.tile_at("K4")
    city = next(i for i, n in enumerate(tile.nodes) if n.kind.value == "city")
    nodes = list(tile.nodes)
    nodes[city] = replace(nodes[city], groups=("Port",))
    marked = replace(tile, nodes=tuple(nodes), icons=(Icon("port", sticky=True),))
    laid = Board(game, {"K4": marked}).lay("K4", get_tile("14"), 0)
    new = laid.tile_at("K4")
    assert new.cities[0].groups == ("Port",)
    assert [i.image for i in new.icons] == ["port"]


def test_a_hex_label_of_the_games_rules_is_a_future_label_printed_there() -> None:
    """A game's upgrade rules may give a hex the label its tiles of a colour must carry (18GA's
    Augusta takes its own green tile): the board keeps it as a future label printed there."""
    plain = load_game("1889")
    game = replace(
        plain,
        upgrade_rules=rules_from_data(
            "labelled", {"hex_labels": {"F3": ["brown", "K"]}}, source="test"
        ),
    )
    green = Phase("5", tiles=("yellow", "green", "brown"))
    for g in (plain, game):
        board = Board(g).lay("F3", g.tile("57"), 0).lay("F3", g.tile("15"), 0)
        lays = board.legal_lays("F3", phase=green)
        assert lays == ({"465": (0,)} if g is game else {"448": (0,), "611": (5,)})
    why = Board(game).lay("F3", game.tile("57"), 0).lay("F3", game.tile("15"), 0)
    assert "a brown tile here must be labelled K (the hex's future label)" in str(
        why.why_illegal("F3", "448", 0, phase=green)
    )
    board = Board(game)
    assert board.future_label("F3") == FutureLabel("K", Color.BROWN)
    assert Board(plain).future_label("F3") is None


def test_a_restored_hex_is_as_printed() -> None:
    """``Board.restored``: the hex's printed tile again, the tile laid there back in the
    supply, its tokens gone, the rest of the board as it was."""
    game = load_game("1889")
    board = Board(game).with_home_tokens(["AR", "IR"]).lay("K8", game.tile("57"), 0)
    board = board.lay("J3", game.tile("8"), 3)
    home = next(c.home for c in game.corporations if c.sym == "AR")
    assert home == "K8"
    assert board.tokens[("K8", 0)] == ("AR",)
    again = board.restored("K8")
    assert (
        again.tile_at("K8") is game.hex_tile("K8")
        and again.available("57") == board.available("57") + 1
    )
    assert ("K8", 0) not in again.tokens and again.tokens == {
        k: v for k, v in board.tokens.items() if k[0] != "K8"
    }
    assert again.tile_at("J3").name == "8"

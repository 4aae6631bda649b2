"""SVG drawings of Carcassonne tiles and boards."""

from __future__ import annotations

from lxml import etree

from tilelay.carcassonne.board import Board
from tilelay.carcassonne.game import new_game
from tilelay.carcassonne.svg import anchor, board_svg, tile_svg
from tilelay.carcassonne.tile import Kind, TileType, parse_feature
from tilelay.carcassonne.tileset import base_tileset

NS = "{http://www.w3.org/2000/svg}"


def test_every_tile_draws_as_valid_svg() -> None:
    for tile in base_tileset().types:
        for rot in range(4):
            root = etree.fromstring(tile_svg(tile, rot).encode())
            assert root.tag == NS + "svg"
    d = tile_svg(base_tileset().type("D"), 1)
    assert "rotate(90 50 50)" in d
    assert d.count('stroke-width="12"') == 1  # one road


def test_city_shapes() -> None:
    ts = base_tileset()
    cap = tile_svg(ts.type("E"))
    assert 'd="M0 0 L100 0 Q50 56.7 0 0 Z"' in cap
    assert 'd="M0 0 L100 0 L100 100 L0 100 Z"' in tile_svg(ts.type("C"))
    assert tile_svg(ts.type("H")).count('fill="#d2a96a"') == 2  # two separate caps
    assert tile_svg(ts.type("N")).count('fill="#d2a96a"') == 1
    assert tile_svg(ts.type("Q")).count('fill="#2f56c0"') == 1  # a pennant


def test_anchors() -> None:
    assert anchor(parse_feature("monastery")) == (50.0, 50.0)
    assert anchor(parse_feature("city N E S W")) == (50.0, 50.0)
    assert anchor(parse_feature("road N S")) == (50.0, 50.0)
    assert anchor(parse_feature("road W")) == (22.5, 50.0)
    assert anchor(parse_feature("farm Es Se")) == (85.0, 75.0)


def test_board_drawing_is_stable_and_shows_followers() -> None:
    game = new_game(2, seed=3)
    game.play()
    a = board_svg(game.board)
    again = new_game(2, seed=3)
    again.play()
    assert board_svg(again.board) == a
    root = etree.fromstring(a.encode())
    tiles = [g for g in root.iter(NS + "g") if g.get("class") == "tile"]
    assert len(tiles) == len(game.board.placed)
    figures = [g for g in root.iter(NS + "g") if g.get("class", "").startswith("figure ")]
    assert len(figures) == len(game.board.followers_on_board())


def test_text_is_escaped() -> None:
    tile = TileType(
        "<&>", (parse_feature("monastery"), parse_feature("farm Nw Ne En Es Se Sw Ws Wn"))
    )
    svg = tile_svg(tile)
    assert "<title>&lt;&amp;&gt;</title>" in svg
    board = Board()
    assert "<title>a &amp; b</title>" in board_svg(board, title="a & b")
    assert tile.kinds(Kind.MONASTERY)


def test_board_tiles_fill_their_cells_exactly_at_any_size() -> None:
    import re

    game = new_game(2, seed=5)
    while game.step() is not None:
        pass
    for size in (48, 60, 37):
        drawing = board_svg(game.board, size=size)
        width = int(re.search(r'width="(\d+)"', drawing).group(1))  # type: ignore[union-attr]
        scales = set(re.findall(r'class="tile"[^>]* scale\(([0-9.]+)\)', drawing))
        assert scales == {f"{size / 100:.4f}".rstrip("0").rstrip(".")}
        xs = [int(x) for x in re.findall(r"translate\((\d+) ", drawing)]
        assert max(xs) + size == width  # the rightmost tile ends at the picture's edge

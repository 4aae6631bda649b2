"""SVG drawings of Carcassonne tiles and boards."""

from __future__ import annotations

import random

from lxml import etree

from tilelay.carcassonne.board import Board
from tilelay.carcassonne.players import new_game
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


def test_figures_farmers_lie_and_abbots_wear_robes() -> None:
    from tilelay.carcassonne.game import Move

    game = new_game(["human", "human"], seed=2, abbot=True)
    kinds: set[str] = set()
    rng = random.Random(1)
    while game.tile_name is not None and len(kinds) < 3:
        moves = game.legal_moves()
        abbots = [m for m in moves if m.abbot]
        farms = [
            m
            for m in moves
            if m.follower is not None
            and not m.abbot
            and game.tileset.types[game.tile].features[m.follower].kind is Kind.FARM  # type: ignore[index]
        ]
        move: Move = (abbots or farms or moves)[0] if rng.random() < 0.5 else rng.choice(moves)
        game.make_move(move)
        root = etree.fromstring(board_svg(game.board).encode())
        for g in root.iter(NS + "g"):
            cls = g.get("class", "")
            if cls.startswith("figure "):
                kinds.add(cls.split()[1])
                if cls == "figure farmer":
                    assert "rotate(-90)" in g.get("transform", "")  # lying down
                else:
                    assert "rotate" not in g.get("transform", "")  # standing upright
    assert kinds == {"follower", "farmer", "abbot"}


def test_coordinates_frame_and_layout() -> None:
    from tilelay.carcassonne.svg import board_layout

    game = new_game(2, seed=4)
    game.play_to(10)
    layout = board_layout(game.board, 50, pad=1, coordinates=True)
    xs = [p.x for _name, p in game.board.placements_made()]
    assert layout.x0 == min(xs) - 1
    assert layout.columns == max(xs) - min(xs) + 3
    drawing = board_svg(game.board, 50, pad=1, coordinates=True)
    root = etree.fromstring(drawing.encode())
    assert root.get("width") == str(layout.width)
    labels = [t.text for t in root.iter(NS + "text")]
    for x in range(layout.x0, layout.x0 + layout.columns):
        assert labels.count(str(x)) >= 2  # top and bottom (and maybe as a row number)
    for g in root.iter(NS + "g"):
        if g.get("class") == "tile":
            x, y = int(g.get("data-x", "")), int(g.get("data-y", ""))
            px, py = layout.cell(x, y)
            assert g.get("transform", "").startswith(f"translate({px} {py}) ")
            assert f"at ({x}, {y})" in "".join(g.itertext())  # the tooltip names the square


def test_pennants_stay_upright_and_inside_the_tile() -> None:
    import re

    tile = base_tileset().type("Q")  # city N E W with a pennant
    for rot in range(4):
        drawing = tile_svg(tile, rot)
        (pennant,) = re.findall(r'class="pennant" d="M([\d.]+) ([\d.]+) H([\d.]+)', drawing)
        x1, y1, x2 = (float(v) for v in pennant)
        assert x2 - x1 == 20  # a horizontal top edge: not turned with the tile
        assert x1 >= 0 and x2 <= 100 and 0 <= y1 <= 100


def test_highlight_and_anchors_apart() -> None:
    import math

    from tilelay.carcassonne.svg import anchors, highlight_svg
    from tilelay.carcassonne.tileset import game_tileset

    for tile in game_tileset(river=True, abbot=True).types:
        points = [
            p for p, f in zip(anchors(tile), tile.features, strict=True) if f.kind is not Kind.RIVER
        ]
        for i, a in enumerate(points):
            assert all(0 <= v <= 100 for v in a)
            for b in points[i + 1 :]:
                assert math.dist(a, b) >= 25, tile.name
    ts = base_tileset()
    assert 'class="highlight"' in highlight_svg(ts.type("C"), 0)
    game = new_game(2, seed=6)
    game.play_to(5)
    lit = board_svg(game.board, highlight=[(0, 0), (1, 0)])
    assert lit.count('class="highlight"') == 2


def test_gardens_are_drawn_off_cities_and_roads() -> None:
    import math
    import re

    from tilelay.carcassonne.svg import GARDEN, _city_polygon, _inside, _line_points, garden_point
    from tilelay.carcassonne.tileset import garden_tileset

    gardens = [t for t in garden_tileset().types if t.has_garden]
    assert gardens  # the Abbot's tiles
    for tile in gardens:
        point = garden_point(tile)
        cities = [_city_polygon(f.sides) for f in tile.features if f.kind is Kind.CITY]
        assert not any(_inside(point, poly) for poly in cities), tile.name
        lines = [p for f in tile.features if f.kind is Kind.ROAD for p in _line_points(f)]
        assert all(math.dist(point, p) >= 12 for p in lines), tile.name  # the circle's radius
        drawing = tile_svg(tile, 0)
        shape = rf'<circle cx="([\d.]+)" cy="([\d.]+)" r="12" fill="{GARDEN}"'
        circles = re.findall(shape, drawing)
        assert [(float(x), float(y)) for x, y in circles] == [point], tile.name
        garden = next(i for i, f in enumerate(tile.features) if f.kind is Kind.GARDEN)
        assert anchor_of(tile, garden) == point  # an abbot on the garden stands on it
    plain = [t for t in base_tileset().types if t.has_garden]
    assert plain == []  # gardens only with the Abbot
    assert f'fill="{GARDEN}"' not in tile_svg(base_tileset().type("B"), 0)


def anchor_of(tile: TileType, feature: int) -> tuple[float, float]:
    from tilelay.carcassonne.svg import anchors

    return anchors(tile)[feature]

"""The tile language's future labels, stubs and halts, and lenient reading of the rest."""

from __future__ import annotations

import pytest

from tilelay import dsl
from tilelay.board import Board
from tilelay.errors import TileSyntaxError
from tilelay.games.data import game_from_data
from tilelay.tile import Color, FutureLabel, NodeKind, Stub
from tilelay.tile_json import tile_from_dict, tile_to_dict


def test_future_label_stub_and_halt_read_write_and_turn() -> None:
    code = "city=revenue:0;halt=symbol:£,revenue:10;future_label=label:M,color:green;stub=edge:2"
    tile = dsl.parse(code)
    assert tile.future_label == FutureLabel("M", Color.GREEN)
    assert tile.stubs == (Stub(2),)
    halt = tile.nodes[1]
    assert halt.kind is NodeKind.TOWN and halt.halt and halt.symbol == "£"
    assert dsl.parse(dsl.write(tile)) == tile
    assert tile.rotated(2).stubs == (Stub(4),)
    assert tile_from_dict(tile_to_dict(tile)) == tile
    assert dsl.parse("future_label=color:brown").future_label == FutureLabel(None, Color.BROWN)
    with pytest.raises(TileSyntaxError, match="edge 0-5"):
        dsl.parse("stub=edge:7")


def test_a_future_label_rules_the_tile_of_its_colour() -> None:
    data = {
        "title": "Tiny",
        "layout": "flat",
        "hexes": [
            {
                "color": "white",
                "coords": ["B2"],
                "code": "city=revenue:0;future_label=label:M,color:green",
            },
            {"color": "white", "coords": ["A1", "C1", "A3", "C3", "B4", "B0"], "code": ""},
        ],
        "manifest": {"57": 1, "14": 1, "M14": 1},
        "tiles": {
            "M14": {
                "color": "green",
                "code": dsl.write(
                    dsl.parse(
                        "city=revenue:40,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:3,b:_0;path=a:4,b:_0;"
                        "label=M"
                    )
                ),
            }
        },
    }
    game = game_from_data(data, source="tiny")
    board = Board(game)
    assert board.future_label("B2") == FutureLabel("M", Color.GREEN)
    board = board.lay("B2", game.tile("57"), 0)
    assert board.future_label("B2") == FutureLabel("M", Color.GREEN)  # carried over
    lays = board.legal_lays("B2")
    assert "M14" in lays and "14" not in lays
    assert "labelled M" in str(board.why_illegal("B2", "14", 0))
    board = board.lay("B2", game.tile("M14"), 0)
    assert board.future_label("B2") is None  # used up by the green tile


def test_stubs_are_drawn() -> None:
    from tilelay.svg import tile_svg

    svg = tile_svg(dsl.parse("city=revenue:0;stub=edge:2", color="white"), size=50)
    assert svg.count('class="stub"') == 1 and 'data-edge="2"' in svg

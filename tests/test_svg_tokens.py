"""Station tokens on maps (tilelay.svg.overlays.tokens_group, drawn by map_svg by default)."""

from __future__ import annotations

import re

from tilelay.board import Board
from tilelay.games import load_game
from tilelay.svg import map_svg
from tilelay.svg.overlays import tokens_group


def test_tokens_are_drawn_in_their_corporations_colours() -> None:
    game = load_game("1889")
    board = Board(game).with_home_tokens(["KO", "AR"]).lay("K8", game.tile("57"), 1)
    svg = map_svg(game, board=board, size=40)
    tokens = re.findall(
        r'<g class="token" data-coord="(\w+)" data-city="(\d)" data-slot="(\d)"'
        r' data-corporation="(\w+)"><circle [^>]*fill="([^"]+)"',
        svg,
    )
    assert sorted(t[:4] for t in tokens) == [("K4", "0", "0", "KO"), ("K8", "0", "0", "AR")]
    colours = {t[3]: t[4] for t in tokens}
    assert colours["KO"].lower() == game.corporation("KO").color.lower()
    assert '<text class="token-text"' in svg and ">KO</text>" in svg
    # tokens come after the tiles: on top of the city they sit in
    assert svg.index('class="tokens"') > svg.rindex('class="hex"')


def test_tokens_fill_the_slots_in_order_and_can_be_left_out() -> None:
    game = load_game("1830")
    board = Board(game).lay("E5", game.tile("59"), 0)  # no tokens: nothing drawn
    assert 'class="tokens"' not in map_svg(game, board=board)
    board = Board(game).place_token("E19", 0, "NYC")
    two = Board(game).lay("H12", game.tile("57"), 0)
    two = two.lay("H12", game.tile("14"), 0).place_token("H12", 0, "PRR")  # two slots
    two = two.place_token("H12", 0, "B&O")
    group = tokens_group(game, two, 50)
    slots = re.findall(r'data-slot="(\d)" data-corporation="([^"]+)"', group)
    assert slots == [("0", "PRR"), ("1", "B&amp;O")]
    # two tokens in one city sit apart
    centres = re.findall(r'<circle cx="([-\d.]+)" cy="([-\d.]+)"', group)
    assert len(set(centres)) == 2
    assert 'class="tokens"' not in map_svg(game, board=two, tokens=False)
    assert 'class="tokens"' in map_svg(game, board=board)

"""Golden output of tilelay.svg: every drawing hashed and compared with a recorded file.

This pins the renderer's output byte for byte, so optimisations of :mod:`tilelay.svg` can be
shown to change nothing. The recorded hashes are in ``tests/data/svg_golden.json``; after a
deliberate change of a drawing, regenerate them with::

    .venv/bin/python tests/test_svg_golden.py --write

and commit that on its own, saying which drawings changed and why.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tilelay.board import Board
from tilelay.catalogue import tiles
from tilelay.games import Game, game_names, load_game
from tilelay.hexgeo import Layout
from tilelay.svg import map_svg, tile_svg, tiles_svg
from tilelay.tile import Tile

GOLDEN = Path(__file__).resolve().parent / "data" / "svg_golden.json"


def _every_tile(name: str) -> Game:
    """The game with every option that adds tiles (all of them drawn)."""
    game = load_game(name)
    return game.with_options(o.name for o in game.options if o.add_tiles)


class _Board:
    """A stand-in board: the game's manifest tiles laid round-robin on its hexes."""

    def __init__(self, game_name: str) -> None:
        game = _every_tile(game_name)
        manifest = [t for t, _ in game.manifest_tiles()]
        self.laid: dict[str, Tile] = {}
        for k, coord in enumerate(sorted(game.hexes)):
            if k % 2 == 0 and manifest:
                self.laid[coord] = manifest[k % len(manifest)].rotated(k % 6)

    def tile_at(self, coord: str) -> Tile | None:
        return self.laid.get(coord)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def drawings() -> Iterator[tuple[str, str]]:
    """(id, svg text) of every drawing the golden file covers."""
    all_tiles = list(tiles())
    for tile in all_tiles:
        for layout in (Layout.FLAT, Layout.POINTY):
            for rot in (0, 1):
                svg = tile_svg(tile.rotated(rot), layout=layout, size=100)
                yield f"tile/{tile.name}/{layout.value}/r{rot}", svg
    # options: a location name (placement of names), the region grid, no number, a fragment
    for tile in all_tiles:
        svg = tile_svg(tile.rotated(2), name="Springfield Junction", show_number=False)
        yield f"named/{tile.name}/flat/r2", svg
    by_name = {t.name: t for t in all_tiles}
    yield "grid/57/pointy", tile_svg(by_name["57"], layout=Layout.POINTY, grid=True)
    yield "sheet/first40", tiles_svg(all_tiles[:40], size=60, columns=7)
    for name in game_names():
        game = _every_tile(name)
        yield f"map/{name}", map_svg(game)
        yield f"map/{name}/board", map_svg(game, board=_Board(name), size=40)
        tokens = Board(game).with_home_tokens()
        yield f"map/{name}/tokens", map_svg(game, board=tokens, size=40)
        for tile, _ in game.manifest_tiles():
            yield f"game/{name}/{tile.name}", tile_svg(tile.rotated(3), layout=game.layout)


def current() -> dict[str, str]:
    """Hashes of the current output."""
    out: dict[str, str] = {}
    for key, svg in drawings():
        assert key not in out, key
        out[key] = _sha(svg)
    return out


def test_svg_output_is_unchanged() -> None:
    if not GOLDEN.exists():
        pytest.skip(f"golden file absent: {GOLDEN}")
    want: dict[str, str] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    got = current()
    assert sorted(got) == sorted(want)
    changed = sorted(k for k in want if got[k] != want[k])
    assert not changed, f"{len(changed)} drawings changed, e.g. {changed[:10]}"


def test_golden_covers_every_catalogue_tile_and_map() -> None:
    want: dict[str, str] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    names = {t.name for t in tiles()}
    assert {k.split("/")[1] for k in want if k.startswith("tile/")} == names
    assert len([k for k in want if k.startswith("tile/")]) == 4 * len(names)
    assert {f"map/{g}" for g in game_names()} <= set(want)


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        data = current()
        GOLDEN.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {len(data)} hashes to {GOLDEN}")
    else:
        print("usage: test_svg_golden.py --write")

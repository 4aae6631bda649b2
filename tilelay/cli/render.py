"""``tilelay render``: draw a tile, a game's map or a printable tile sheet to a file.

The format follows the output file's extension: ``.svg``, ``.png`` or ``.pdf`` (a tile sheet is
always a PDF). The file named with ``-o`` is the only file written.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from tilelay import convert, dsl, svg
from tilelay.catalogue import suggest
from tilelay.cli import decimal, integer
from tilelay.errors import NotFoundError, TilelayError
from tilelay.export import DEFAULT_HEX_MM, PAPER_MM, output_format, tile_sheet_pdf, write_drawing
from tilelay.files import looks_like_path, read_bytes
from tilelay.games import get_tile, load_game
from tilelay.hexgeo import Layout
from tilelay.limits import shown
from tilelay.tile import Tile


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add the ``render`` command and its sub-commands (``tile``, ``map``, ``sheet``)."""
    p = sub.add_parser("render", help="draw a tile, a map or a tile sheet to SVG, PNG or PDF")
    rsub = p.add_subparsers(dest="render_command", metavar="SUBCOMMAND", required=True)

    tile = rsub.add_parser("tile", help="draw one tile")
    tile.add_argument(
        "tile",
        metavar="NAME|CODE|FILE",
        help="a catalogue tile (57), a game's tile (1889:439), a tile string (with '=') or a "
        "tile file (seed-000 or Rails XML, JSON, tile strings); all its tiles unless --tile",
    )
    tile.add_argument("--tile", dest="pick", metavar="NAME", help="the tile to draw from FILE")
    tile.add_argument("--rotation", type=integer, default=0, help="turn the tile clockwise (0-5)")
    tile.add_argument(
        "--layout",
        choices=[x.value for x in Layout],
        default=None,
        help="hex orientation (default: the game's, else flat)",
    )
    tile.add_argument("--color", help="colour of a tile string (default yellow)")
    tile.add_argument("--grid", action="store_true", help="draw the triangular region grid")
    tile.add_argument(
        "--size", type=integer, default=100, help="hex radius in pixels (default 100)"
    )
    tile.add_argument("-o", "--output", required=True, metavar="FILE", help=".svg, .png or .pdf")
    tile.set_defaults(func=_tile)

    map_ = rsub.add_parser("map", help="draw a game's map")
    map_.add_argument(
        "game",
        metavar="GAME",
        help="a game, built-in (e.g. 1889) or from the sources of --games / TILELAY_GAMES",
    )
    map_.add_argument("--grid", action="store_true", help="draw the triangular region grid")
    map_.add_argument("--size", type=integer, default=40, help="hex radius in pixels (default 40)")
    map_.add_argument("-o", "--output", required=True, metavar="FILE", help=".svg, .png or .pdf")
    map_.set_defaults(func=_map)

    sheet = rsub.add_parser("sheet", help="print every tile of a game's manifest for cutting out")
    sheet.add_argument(
        "game",
        metavar="GAME",
        help="a game, built-in (e.g. 1889) or from the sources of --games / TILELAY_GAMES",
    )
    sheet.add_argument("--paper", choices=list(PAPER_MM), default="A4", help="paper (default A4)")
    sheet.add_argument(
        "--hex-size",
        type=decimal,
        default=DEFAULT_HEX_MM,
        metavar="MM",
        help=f"hex size flat side to flat side in mm (default {DEFAULT_HEX_MM})",
    )
    sheet.add_argument("-o", "--output", required=True, metavar="FILE.pdf", help="a .pdf file")
    sheet.set_defaults(func=_sheet)


def _check_size(size: int) -> None:
    if not 4 <= size <= 2000:
        raise TilelayError(f"--size must be 4-2000 pixels, got {size}")


def resolve_tile(spec: str, *, color: str = "yellow") -> tuple[Tile, Layout | None]:
    """The tile named by ``spec`` and the layout of its game (``None`` for generic tiles).

    ``spec`` is a tile string when it contains ``=``, a game tile when it is ``GAME:NAME``,
    else a catalogue tile name.
    """
    if "=" in spec:
        return dsl.parse(spec, color=color), None
    if ":" in spec:
        game_name, _, name = spec.partition(":")
        game = load_game(game_name)
        return game.tile(name), game.layout
    return get_tile(spec), None


def tiles_from_file(path: Path, *, layout: Layout, pick: str | None = None) -> list[Tile]:
    """The tiles of a tile file (format by extension, XML dialect sniffed); with ``pick``, the
    one tile of that name (:class:`~tilelay.errors.NotFoundError` with close names if absent).
    """
    fmt = convert.format_of(path)
    if fmt is None:
        raise TilelayError(
            f"{path}: cannot tell the format from the extension; expected .xml, .json, .txt or .dsl"
        )
    data = read_bytes(path, what="tile file")
    tiles = convert.read(data, fmt, source=str(path), layout=layout)
    if not tiles:
        raise TilelayError(f"{path}: holds no tiles")
    if pick is None:
        return tiles
    for t in tiles:
        if t.name == pick:
            return [t]
    names = [t.name for t in tiles]
    raise NotFoundError(f"{path}: no tile named {pick!r}", suggestions=suggest(pick, names))


def _tile(args: argparse.Namespace) -> int:
    output_format(args.output)
    if not 0 <= args.rotation <= 5:
        raise TilelayError(f"--rotation must be 0-5, got {args.rotation}")
    _check_size(args.size)
    if args.color is not None and "=" not in args.tile:
        # a named tile, or the tiles of a file, have colours of their own
        raise TilelayError(
            f"--color applies to a tile string; {shown(args.tile)} names tiles of their own colour"
        )
    path = Path(args.tile)
    if looks_like_path(args.tile) and not path.is_file():
        read_bytes(path, what="tile file")  # says why: missing, a folder, no permission
    if "=" not in args.tile and path.suffix and path.is_file():
        layout = Layout(args.layout) if args.layout else Layout.FLAT
        tiles = [
            t.rotated(args.rotation) for t in tiles_from_file(path, layout=layout, pick=args.pick)
        ]
        if len(tiles) == 1:
            drawing = svg.tile_svg(tiles[0], layout=layout, size=args.size, grid=args.grid)
        else:
            drawing = svg.tiles_svg(tiles, layout=layout, size=args.size, grid=args.grid)
        write_drawing(drawing, args.output)
        print(f"wrote {args.output} ({len(tiles)} tile{'s' if len(tiles) != 1 else ''})")
        return 0
    if args.pick is not None:
        raise TilelayError("--tile picks a tile from a tile file; give a file to draw from")
    tile, game_layout = resolve_tile(args.tile, color=args.color or "yellow")
    layout = Layout(args.layout) if args.layout else (game_layout or Layout.FLAT)
    drawing = svg.tile_svg(
        tile.rotated(args.rotation),
        layout=layout,
        size=args.size,
        grid=args.grid,
        show_number=True,
        standalone=True,
    )
    write_drawing(drawing, args.output)
    print(f"wrote {args.output}")
    return 0


def _map(args: argparse.Namespace) -> int:
    output_format(args.output)
    _check_size(args.size)
    game = load_game(args.game)
    write_drawing(svg.map_svg(game, size=args.size, grid=args.grid), args.output)
    print(f"wrote {args.output} ({game.title}, {len(game.hexes)} hexes)")
    return 0


def _sheet(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    pages = tile_sheet_pdf(game, args.output, paper=args.paper, hex_size_mm=args.hex_size)
    print(f"wrote {args.output} ({game.title}, {pages} page{'s' if pages != 1 else ''})")
    return 0

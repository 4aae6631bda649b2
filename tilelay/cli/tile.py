"""``tilelay tile``: read, write and show tiles in the 18xx.games tile language."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tilelay import dsl
from tilelay.cli import integer, one_line
from tilelay.errors import TilelayError
from tilelay.games import get_tile
from tilelay.limits import shown
from tilelay.tile import Tile
from tilelay.tile_json import tile_to_dict


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add the ``tile`` command and its sub-commands."""
    p = sub.add_parser("tile", help="read, write and show tiles in the tile language")
    tsub = p.add_subparsers(dest="tile_command", metavar="SUBCOMMAND", required=True)

    parse = tsub.add_parser(
        "parse",
        help="print the canonical form of a tile string ('-' reads one per line from stdin, "
        "and answers each on its line: the tile, or the error)",
    )
    parse.add_argument("code", metavar="CODE", help="a tile string, or - for standard input")
    parse.add_argument("--color", default="white", help="tile colour (default white)")
    parse.add_argument("--json", action="store_true", help="print the tile model as JSON")
    parse.set_defaults(func=_parse)

    show = tsub.add_parser("show", help="print a catalogue tile's canonical tile string")
    show.add_argument("name", metavar="NAME", help="tile name, e.g. 57 or 18Chesapeake:X1")
    show.add_argument("--rotation", type=integer, default=0, help="turn the tile clockwise (0-5)")
    show.add_argument("--json", action="store_true", help="print the tile model as JSON")
    show.set_defaults(func=_show)


def _emit(tile: Tile, as_json: bool) -> None:
    if as_json:
        print(json.dumps(tile_to_dict(tile), ensure_ascii=False))
    else:
        print(dsl.write(tile))


def _parse(args: argparse.Namespace) -> int:
    if args.code != "-":
        _emit(dsl.parse(args.code, color=args.color), args.json)
        return 0
    failed = 0
    for number, raw in enumerate(sys.stdin.buffer, start=1):
        try:
            try:
                text = raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError as bad:
                raise TilelayError(
                    f"not UTF-8 text (byte {bad.start + 1} is {raw[bad.start]:#04x})"
                ) from None
            tile = dsl.parse(text, color=args.color)
        except TilelayError as err:
            # said in the output's line of its own (an object with --json: JSON lines stay
            # JSON), so that output line N answers input line N
            failed += 1
            if args.json:
                print(json.dumps({"line": number, "error": one_line(str(err))}), flush=True)
            else:
                print(f"error: line {number}: {one_line(str(err))}", flush=True)
            continue
        _emit(tile, args.json)
    if failed:
        print(f"tilelay: {failed} line{'' if failed == 1 else 's'} failed", file=sys.stderr)
        return 2
    return 0


def _show(args: argparse.Namespace) -> int:
    if not 0 <= args.rotation <= 5:
        raise TilelayError(f"--rotation must be 0-5, got {args.rotation}")
    if "=" in args.name:
        raise TilelayError(
            f"{shown(args.name)} is a tile string: tile show prints a catalogue tile by its "
            "name (tile parse reads a tile string)"
        )
    _emit(get_tile(args.name, args.rotation), args.json)
    return 0

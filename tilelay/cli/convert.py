"""``tilelay convert``: between the tile language, seed 000's XML, Rails' XML and JSON."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tilelay.convert import FORMATS, format_of, read, write
from tilelay.errors import TilelayError
from tilelay.hexgeo import Layout


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add the ``convert`` command."""
    p = sub.add_parser(
        "convert",
        help="convert tiles between dsl, xml (seed 000), rails (read only) and json",
        description="Convert tiles. What the target format cannot express is listed on "
        "standard error, by tile and feature. DSL output is a JSON object of name -> tile "
        "string.",
    )
    p.add_argument("input", metavar="INPUT", help="input file ('-' for standard input)")
    p.add_argument("-o", "--output", metavar="OUTPUT", help="output file (default stdout)")
    p.add_argument("--from", dest="source_fmt", choices=FORMATS, help="input format")
    p.add_argument("--to", dest="target_fmt", choices=("dsl", "xml", "json"), help="output format")
    p.add_argument(
        "--layout", choices=("flat", "pointy"), default="flat", help="hex layout of XML sides"
    )
    p.set_defaults(func=_convert)


def _convert(args: argparse.Namespace) -> int:
    source_fmt = args.source_fmt or (None if args.input == "-" else format_of(args.input))
    if source_fmt is None:
        raise TilelayError(
            f"{args.input}: cannot tell the input format from the name; give --from "
            + "/".join(FORMATS)
        )
    target_fmt = args.target_fmt or (format_of(args.output) if args.output else None)
    if target_fmt is None:
        raise TilelayError("give the output format with --to dsl/xml/json (or an -o file name)")
    if args.input == "-":
        data: bytes = sys.stdin.buffer.read()
        source = "<stdin>"
    else:
        data = Path(args.input).read_bytes()
        source = args.input
    layout = Layout(args.layout)
    tiles = read(data, source_fmt, source=source, layout=layout)
    result = write(tiles, target_fmt, layout=layout)
    if args.output:
        Path(args.output).write_text(result.text, encoding="utf-8")
    else:
        sys.stdout.write(result.text)
    for loss in result.losses:
        print(f"tilelay: cannot express in {target_fmt}: {loss}", file=sys.stderr)
    return 0

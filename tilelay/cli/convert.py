"""``tilelay convert``: between the tile language, seed 000's XML, Rails' XML and JSON."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tilelay.convert import FORMATS, convert, format_of
from tilelay.errors import TilelayError
from tilelay.files import MAX_INPUT, check_suffix, read_bytes, write_text
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


#: The file name extensions each output format may be written to (the tile language is
#: written as a JSON object of name -> tile string, so .json is one of its own).
SUFFIXES: dict[str, tuple[str, ...]] = {
    "dsl": (".dsl", ".json", ".tile", ".txt"),
    "xml": (".xml",),
    "json": (".json",),
}


def _convert(args: argparse.Namespace) -> int:
    source_fmt = args.source_fmt or (None if args.input == "-" else format_of(args.input))
    if source_fmt is None:
        raise TilelayError(
            f"{args.input}: cannot tell the input format from the name; give --from "
            + "/".join(FORMATS)
        )
    target_fmt = args.target_fmt or (format_of(args.output) if args.output else None)
    if target_fmt is None:
        if args.output and args.output != "-":
            # (an -o name of no format's: say so, not that the format is missing)
            known = ", ".join(sorted({s for suffixes in SUFFIXES.values() for s in suffixes}))
            raise TilelayError(
                f"{args.output}: cannot tell the output format from the name (known: {known});"
                " give --to dsl/xml/json"
            )
        raise TilelayError("give the output format with --to dsl/xml/json (or an -o file name)")
    if args.output and args.output != "-":
        check_suffix(args.output, SUFFIXES[target_fmt], f"{target_fmt} output")
    if args.input == "-":
        data: bytes = sys.stdin.buffer.read(MAX_INPUT + 1)
        if len(data) > MAX_INPUT:
            raise TilelayError(f"<stdin>: more than {MAX_INPUT:,} bytes, the most read")
        source = "<stdin>"
    else:
        data = read_bytes(args.input, what="input file")
        source = args.input
    result = convert(data, source_fmt, target_fmt, source=source, layout=Layout(args.layout))
    if args.output and args.output != "-":
        write_text(args.output, result.text)
    else:
        sys.stdout.write(result.text)
    for loss in result.losses:
        print(f"tilelay: cannot express in {target_fmt}: {loss}", file=sys.stderr)
    return 0

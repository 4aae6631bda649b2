"""``tilelay tiles``: tile numbers across the catalogue, the built-in games and XML files."""

from __future__ import annotations

import argparse
from typing import Any

from tilelay.convert import conflicts
from tilelay.xml import load_tiles


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add the ``tiles`` command and its ``conflicts`` sub-command."""
    p = sub.add_parser("tiles", help="tile numbers across games and files")
    tsub = p.add_subparsers(dest="tiles_command", metavar="SUBCOMMAND", required=True)
    c = tsub.add_parser(
        "conflicts",
        help="list tile numbers whose track differs between the catalogue, the built-in "
        "games and XML files",
    )
    c.add_argument("files", metavar="FILES", nargs="*", help="XML tile files (seed 000 or Rails)")
    c.add_argument(
        "--no-catalogue",
        action="store_true",
        help="compare only the files given, not the catalogue and built-in games",
    )
    c.set_defaults(func=_conflicts)


def _conflicts(args: argparse.Namespace) -> int:
    sources = [(f, load_tiles(f)) for f in args.files]
    found = conflicts(sources, include_catalogue=not args.no_catalogue)
    for c in found:
        print(f"{c.name}:" + (f" ({c.note})" if c.note else ""))
        for label, code in c.definitions:
            print(f"  {label}: {code}")
    print(f"{len(found)} tile number(s) with differing definitions")
    return 0

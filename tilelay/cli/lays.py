"""``tilelay lays``: the tiles and rotations legal at every tile lay of recorded games.

Each record (an 18xx.games JSON export) is replayed on its game, with its options; at every
``lay_tile`` still in force the tiles and rotations the board allowed on that hex just before
it are listed (the manifest minus the tiles on the map, the upgrades of the tile there, the
colours of the phase; connectivity aside), with whether the recorded lay is among them.

The legal lays include what the game lets the corporation lay by the companies it holds
(18USA's resource tiles): :func:`tilelay.rules.corporation_lays`. A lay still not among them
but that a private company's ``tile_lay`` ability may have (the entity's own, or one its
corporation holds, naming that hex and tile) is said to be by that ability: a company's own
lays are not judged.

With ``--json``: one JSON object a line, per lay ``{record, id, entity, hex, tile, rotation,
phase, legal: {tile: [rotations]}, recorded_is_legal, ability}``, and per record that could not be
replayed (or read) ``{record, error}`` after the lays before the failure. The exit status is
2 when a record could not be replayed, else 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tilelay.cli import about, one_line, record_argument
from tilelay.errors import TilelayError
from tilelay.lays import record_lays


def register(sub: Any) -> None:
    """Add the ``lays`` command."""
    p = sub.add_parser(
        "lays",
        help="the legal tiles and rotations at every tile lay of recorded games",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "records",
        nargs="+",
        metavar="RECORD",
        help="recorded games (JSON files; - reads one from stdin)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object a line")
    p.set_defaults(func=cmd_lays)


def _text(record: str, lay: dict[str, Any]) -> str:
    legal = "; ".join(
        f"{tile}: {' '.join(str(r) for r in rotations)}" for tile, rotations in lay["legal"].items()
    )
    mark = "legal" if lay["recorded_is_legal"] else "NOT LEGAL"
    if not lay["recorded_is_legal"] and lay.get("ability"):
        # (a company's own lays are not judged)
        mark = f"by {lay['ability']}'s ability (not judged)"
    return (
        f"{record} #{lay['id']} {lay['entity']} {lay['hex']}: {lay['tile']}-{lay['rotation']} "
        f"{mark} | {legal or 'nothing'}"
    )


def cmd_lays(args: argparse.Namespace) -> int:
    """Run ``tilelay lays``."""
    status = 0
    out = sys.stdout
    for path in args.records:
        try:
            for lay in record_lays(record_argument(path)):
                data = {"record": path, **lay.to_json()}
                out.write(json.dumps(data) + "\n" if args.json else _text(path, data) + "\n")
        except TilelayError as err:
            status = 2
            if args.json:
                out.write(json.dumps({"record": path, "error": str(err)}) + "\n")
            else:
                print(f"tilelay: error: {one_line(about(path, str(err)))}", file=sys.stderr)
        out.flush()
    return status

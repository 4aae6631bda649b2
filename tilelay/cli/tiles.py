"""``tilelay tiles conflicts``: tile numbers defined differently across the catalogue, every
game known (built-in and those of ``--games``) and tile files, with a renumbering proposal."""

from __future__ import annotations

import argparse
import json
from typing import Any

from tilelay.numbering import conflicts, game_sources, propose_renumbering
from tilelay.xml import load_tiles


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add the ``tiles`` command and its ``conflicts`` sub-command."""
    p = sub.add_parser("tiles", help="tile numbers across games and files")
    tsub = p.add_subparsers(dest="tiles_command", metavar="SUBCOMMAND", required=True)
    c = tsub.add_parser(
        "conflicts",
        help="list tile numbers defined differently by the catalogue, the games known and "
        "XML files, and propose a renumbering",
    )
    c.add_argument("files", metavar="FILES", nargs="*", help="XML tile files (seed 000 or Rails)")
    c.add_argument(
        "--files-only",
        action="store_true",
        help="compare only the files given, not the catalogue and the games known",
    )
    c.add_argument("--renumber", action="store_true", help="also propose a renumbering")
    c.add_argument("--json", action="store_true", help="the conflicts (and proposal) as JSON")
    c.set_defaults(func=_conflicts)


def _conflicts(args: argparse.Namespace) -> int:
    sources = [] if args.files_only else game_sources()
    sources += [(f, load_tiles(f)) for f in args.files]
    found = conflicts(sources, include_catalogue=not args.files_only)
    proposal = propose_renumbering(found) if args.renumber else None
    if args.json:
        out: dict[str, Any] = {
            "conflicts": [
                {
                    "number": c.name,
                    "differences": list(c.differences),
                    "kinds": [
                        {"code": k.code, "color": k.color, "users": list(k.users)} for k in c.kinds
                    ],
                }
                for c in found
            ]
        }
        if proposal is not None:
            out["renumbering"] = {
                "changes": [
                    {"number": old, "code": code, "new": new, "users": list(users)}
                    for old, code, new, users in proposal.changes
                ],
                "sources_changed": list(proposal.changed_sources),
            }
        print(json.dumps(out, indent=1, ensure_ascii=False))
        return 0
    for c in found:
        print(f"{c.name}: {'; '.join(c.differences)}")
        for k in c.kinds:
            print(f"  {k.color} {k.code or '(no track)'}")
            print(f"    used by {', '.join(k.users)}")
    print(f"{len(found)} tile number(s) defined differently")
    if proposal is not None:
        print()
        print("renumbering (each number kept by one kind; the others get fresh numbers):")
        for old, code, new, users in proposal.changes:
            print(f"  {old} -> {new}: {code or '(no track)'}  [{', '.join(users)}]")
        print(
            f"{len(proposal.changes)} renumbered kind(s); "
            f"{len(proposal.changed_sources)} source(s) change a number"
        )
    return 0

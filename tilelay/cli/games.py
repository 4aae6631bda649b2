"""``tilelay games``: the games tilelay knows, and one game compared across its sources.

* ``tilelay games [--json]`` lists every game known: the built-in ones and those of the
  sources given with ``--games`` or ``TILELAY_GAMES`` (title, source, format, hexes, tiles,
  and how many things could not be read, listed in full with ``--problems``);
* ``tilelay games compare GAME [--json]`` compares the game as each source that has it reads
  it (:mod:`tilelay.compare`): every difference from the reference source (the first of
  built-in, 18xx.games, Rails, GE18XX that has the game, whatever the order of ``--games``),
  with its cause from ``tilelay/data/known_differences.toml``; the exit status is 1 when a
  difference has no known cause (a new fact to investigate), else 0;
* ``tilelay convert-game GAME --to toml|json`` writes one game in tilelay's format.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tilelay.games import Game, game_to_toml, load_game
from tilelay.games.model import UNLIMITED
from tilelay.games.registry import entries, registry_warnings
from tilelay.games.toml import conversion_losses
from tilelay.train_data import manager_to_game_data


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add the ``games`` and ``convert-game`` commands."""
    p = sub.add_parser(
        "games",
        help="list the games known (built-in, and those of --games / TILELAY_GAMES)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--json", action="store_true", help="one JSON object per game, in a list")
    p.add_argument("--problems", action="store_true", help="list what could not be read")
    p.set_defaults(func=_list)
    actions = p.add_subparsers(dest="games_command", metavar="ACTION")
    cmp = actions.add_parser(
        "compare",
        help="compare a game across the sources that have it, each difference with its cause",
        description="Compare a game as each source that has it reads it (built-in, 18xx.games, "
        "Rails, GE18XX) against the reference, the first of them in that order that has it "
        "(whatever the order of --games): every difference with its known cause. "
        "Exit status 1 when some difference has no known cause.",
    )
    cmp.add_argument("game", help="a game's title (any of its names, or TITLE@FORMAT)")
    cmp.add_argument("--json", action="store_true", help="the comparison as one JSON object")
    cmp.set_defaults(func=_compare)
    c = sub.add_parser("convert-game", help="write a game in tilelay's format (TOML) or as JSON")
    c.add_argument("game", help="a game's title (any game known)")
    c.add_argument("--to", choices=["toml", "json"], default="toml", help="the format (toml)")
    c.set_defaults(func=_convert)


def _summary(game: Game) -> dict[str, Any]:
    return {
        "title": game.name,
        "display_title": game.title,
        "source": game.source,
        "format": game.format,
        "layout": game.layout.value,
        "hexes": len(game.hexes),
        "tiles": sum(c for c in game.manifest.values() if c != UNLIMITED),
        "tile_kinds": len(game.manifest),
        "problems": [str(p) for p in game.problems],
    }


def _list(args: argparse.Namespace) -> int:
    games = [e.load() for e in entries()]
    if args.json:
        print(json.dumps([_summary(g) for g in games], indent=1, ensure_ascii=False))
        return 0
    for warning in registry_warnings():
        print(f"tilelay: warning: {warning}", file=sys.stderr)
    width = max((len(g.name) for g in games), default=5)
    print(f"{'title':<{width}}  {'format':<10} {'hexes':>5} {'tiles':>5}  problems  source")
    for g in games:
        s = _summary(g)
        print(
            f"{g.name:<{width}}  {g.format:<10} {s['hexes']:>5} {s['tiles']:>5}  "
            f"{len(g.problems):>8}  {g.source}"
        )
        if args.problems:
            for p in g.problems:
                print(f"    {p}")
    print(f"{len(games)} games")
    return 0


def game_json(game: Game) -> dict[str, Any]:
    """A game as JSON: title, layout, hexes (colour and canonical tile string), manifest
    (-1: unlimited), location names, corporations with homes, trains as the engine writes
    them, and the rest of tilelay's game data."""
    from tilelay import dsl

    trains, phases = (
        (list(game.train_data), list(game.phase_data))
        if game.train_data or game.phase_data
        else manager_to_game_data(game.trains)
    )
    data: dict[str, Any] = {
        "title": game.name,
        "display_title": game.title,
        "layout": game.layout.value,
        "hexes": {
            coord: {
                "color": tile.color.value + (tile.stripe.value if tile.stripe else ""),
                "code": dsl.write(tile),
            }
            for coord, tile in game.hexes.items()
        },
        "manifest": dict(game.manifest),
        "tiles": {
            name: {"color": t.color.value, "code": dsl.write(t)}
            for name, t in game.game_tiles.items()
        },
        "location_names": dict(game.location_names),
        "corporations": [
            {
                "sym": c.sym,
                "name": c.name,
                "home": c.home,
                "city": c.city,
                "kind": c.kind,
                **(
                    {"more_homes": [{"hex": h, "city": i} for h, i in c.more_homes]}
                    if c.more_homes
                    else {}
                ),
            }
            for c in game.corporations
        ],
        "companies": [
            {"sym": c.sym, "name": c.name, "value": c.value, "revenue": c.revenue}
            for c in game.companies
        ],
        "trains": trains,
        "phases": phases,
        "source": game.source,
        "format": game.format,
        "problems": [str(p) for p in game.problems],
    }
    return data


def _convert(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    if args.to == "json":
        print(json.dumps(game_json(game), indent=1, ensure_ascii=False))
    else:
        written = game_to_toml(game)
        sys.stdout.write(written)
        for loss in conversion_losses(game, written):
            print(f"tilelay: warning: {game.name}: {loss}", file=sys.stderr)
    return 0


def _compare(args: argparse.Namespace) -> int:
    from tilelay.compare import compare

    result = compare(args.game)
    if args.json:
        print(json.dumps(result.to_json(), indent=1, ensure_ascii=False))
        return 1 if result.unexplained else 0
    print(f"{result.title}: {', '.join(result.sources)} (each compared with {result.sources[0]})")
    if len(result.sources) < 2:
        print("  only one source has this game: nothing to compare")
    for note in result.notes:
        print(f"  note: {note}")
    for finding in result.findings:
        cause = finding.cause
        print(f"  {finding.difference}")
        print(f"      {'UNEXPLAINED' if cause is None else cause}")
    counts = ", ".join(f"{n} {name}" for name, n in result.counts().items())
    print(f"{len(result.findings)} differences" + (f": {counts}" if counts else ""))
    return 1 if result.unexplained else 0

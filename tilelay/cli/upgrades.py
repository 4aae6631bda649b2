"""``tilelay upgrades GAME`` and ``tilelay tileset``: computed upgrade tables and tile sets."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tilelay.errors import NotFoundError, TilelayError
from tilelay.files import check_suffix, write_text
from tilelay.games import Game, load_game
from tilelay.hexgeo import Layout
from tilelay.tile import Tile
from tilelay.upgrades import Upgrade, rules_for, upgrade_table
from tilelay.xml.tiledefs import read_tiledefs
from tilelay.xml.tileset import (
    TileManifest,
    TileSetEntry,
    TileSetGroup,
    apply_upgrades,
    manifest_layout,
    place_labels,
    read_tileset,
    tileset_to_xml,
)
from tilelay.xml.tileset_check import check_tileset


def game_table(name: str) -> tuple[Game, list[Upgrade], dict[str, Tile]]:
    """A game (built-in, or of a source given with ``--games``), its computed upgrade table
    and its manifest tiles by name."""
    game = load_game(name)
    tiles = {t.name: t for t, _ in game.manifest_tiles()}
    table = upgrade_table(list(tiles.values()), game.upgrade_rules)
    return game, table, tiles


def format_table(table: Sequence[Upgrade]) -> str:
    """The upgrade table as aligned text, one upgrade a line."""
    lines: list[str] = []
    for u in table:
        bits = [f"{u.old:>6} -> {u.new:<6} rotations {','.join(str(r) for r in u.rotations)}"]
        if u.hex_label:
            bits.append(f"on hex labelled {u.hex_label}")
        if u.hex_name:
            bits.append(f"on hex {u.hex_name}")
        if u.rule:
            bits.append(f"rule: {u.rule}" + (f" (phases {','.join(u.phases)})" if u.phases else ""))
        lines.append("  ".join(bits))
    return "\n".join(lines)


def _dump(table: Sequence[Upgrade]) -> str:
    return json.dumps([u.to_dict() for u in table], indent=2)


def cmd_upgrades(args: argparse.Namespace) -> int:
    """Print a game's upgrade table."""
    game, table, tiles = game_table(args.game)
    if args.tile is not None:
        if args.tile not in tiles:
            raise NotFoundError(
                f"game {game.name} has no tile {args.tile!r}",
                suggestions=[n for n in tiles if n.startswith(args.tile[:1])][:5],
            )
        table = [u for u in table if args.tile in (u.old, u.new)]
    print(_dump(table) if args.json else format_table(table))
    return 0


# ---------------------------------------------------------------------------- tile sets


def read_tile_definitions(paths: Sequence[Path], layout: Layout = Layout.FLAT) -> dict[str, Tile]:
    """Seed-000 tile definitions by tile number, place names moved off the labels."""
    out: dict[str, Tile] = {}
    for path in paths:
        for tile in read_tiledefs(path, layout=layout):
            out[tile.name] = place_labels(tile)
    return out


def _game_manifest(game: Any) -> TileManifest:
    groups: dict[str, list[TileSetEntry]] = {}
    for tile, count in game.manifest_tiles():
        groups.setdefault(tile.color.value.capitalize(), []).append(
            TileSetEntry(number=tile.name, quantity=count)
        )
    return TileManifest(
        groups=tuple(TileSetGroup(color=c, tiles=tuple(ts)) for c, ts in groups.items()),
        attributes=(("game", str(game.name)),),
    )


def _write_out(text: str, out: str | None) -> None:
    if out is None or out == "-":
        sys.stdout.write(text)
    else:
        write_text(out, text)


def cmd_tileset(args: argparse.Namespace) -> int:
    """Compute a tile set's upgrades; write, print or check them."""
    if args.out is not None and args.out != "-":
        check_suffix(args.out, (".xml",), "a tile set")
    if args.game is not None and (args.tiles or args.manifest):
        raise TilelayError("give either GAME or --tiles and --manifest, not both")
    if args.check and args.game is not None:
        raise TilelayError(
            "--check needs a hand-written tile set to check: --manifest TILESET.xml and "
            "--tiles FILE... (a game's tile set is computed; it has no hand-written upgrades)"
        )
    if args.check and (args.out is not None or args.json):
        raise TilelayError("--check prints a report: give it without -o/--out and --json")
    if args.game is not None:
        game, table, tiles = game_table(args.game)
        manifest = _game_manifest(game)
        rules = game.upgrade_rules
    else:
        if not args.tiles or args.manifest is None:
            raise TilelayError("tileset needs GAME, or --tiles FILE... and --manifest FILE")
        manifest = read_tileset(Path(args.manifest))
        tiles_all = read_tile_definitions([Path(p) for p in args.tiles], manifest_layout(manifest))
        rules = rules_for(manifest.game)
        missing = [e.number for e in manifest.entries() if e.number not in tiles_all]
        if missing:
            print(
                f"tilelay: warning: no definition for tile(s) {', '.join(missing)}; left out",
                file=sys.stderr,
            )
        tiles = {e.number: tiles_all[e.number] for e in manifest.entries() if e.number in tiles_all}
        table = upgrade_table(list(tiles.values()), rules)
        if args.check:
            report = check_tileset(manifest, tiles_all, rules, table)
            for f in report.findings:
                print(f)
            print(
                f"{report.agreeing} of {report.listed} hand-written upgrades agree "
                f"({100 * report.agreement:.1f} %); {len(report.findings)} finding(s)"
            )
            return 0 if not report.findings else 1
    if args.json:
        print(_dump(table))
        if args.out is None:
            return 0
    written = apply_upgrades(manifest, table, tiles)
    _write_out(tileset_to_xml(written), args.out)
    return 0


def register(sub: Any) -> None:
    """Add the ``upgrades`` and ``tileset`` commands."""
    p = sub.add_parser("upgrades", help="a game's upgrade table (which tile becomes which)")
    p.add_argument("game", help="a game, built-in or from the sources of --games / TILELAY_GAMES")
    p.add_argument("--tile", help="only upgrades from or to this tile")
    p.add_argument("--json", action="store_true", help="a JSON list of {from, to, rotations}")
    p.set_defaults(func=cmd_upgrades)

    t = sub.add_parser(
        "tileset",
        help="compute a tile set's upgrades with rotations (seed 000's TileSet XML)",
        description="Compute the upgrades (with rotations) of a game's tile set, or of a "
        "tile set file (--manifest, its tiles defined by --tiles), and write the tile set "
        "with them; or, with --check, check the upgrades a tile set file lists by hand "
        "against the computed ones.",
    )
    t.add_argument(
        "game",
        nargs="?",
        help="a game, built-in or from the sources of --games / TILELAY_GAMES (instead of "
        "--tiles/--manifest)",
    )
    t.add_argument("--tiles", nargs="+", metavar="FILE", help="seed-000 tile definition files")
    t.add_argument("--manifest", metavar="TILESET.xml", help="the tile set (numbers, quantities)")
    t.add_argument("-o", "--out", metavar="OUT.xml", help="write the tile set here")
    t.add_argument(
        "--check",
        action="store_true",
        help="list the upgrades the --manifest file lists by hand that differ from the "
        "computed ones (exit 1 if any); needs --manifest and --tiles, not GAME, -o or --json",
    )
    t.add_argument("--json", action="store_true", help="print the computed upgrades as JSON")
    t.set_defaults(func=cmd_tileset)

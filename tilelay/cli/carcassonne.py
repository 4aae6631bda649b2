"""``tilelay carcassonne``: play games between computer players, list and draw tiles.

Sub-commands:

- ``play --players N --seed S [--player random|greedy|mcts[:easy|medium|hard] ...] [--river]
  [--abbot] [--svg FILE] [--save FILE] [--quiet]``, or ``play --load FILE [--svg FILE]
  [--save FILE] [--quiet]``: a saved game played on by its own players with its own seed and
  rules (a game with a person's seat to play is refused: people play in the web app)
- ``tiles [--seed-form] [--file TILESET.toml]``: the tile set with counts and features
- ``tile NAME [--rotation R] [--svg FILE]``: one tile's features, seed form and drawing
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from tilelay.carcassonne.board import FarmScoring, Rules
from tilelay.carcassonne.errors import CarcassonneError
from tilelay.carcassonne.game import MAX_PLAYERS, MAX_SEED, MIN_PLAYERS, Game, transcript
from tilelay.carcassonne.players import ALL_KINDS, make_player, new_game
from tilelay.carcassonne.record import load_game, save_game
from tilelay.carcassonne.svg import board_svg, tile_svg
from tilelay.carcassonne.tile import TileType, to_seed
from tilelay.carcassonne.tileset import TileSet, base_tileset, load_tileset
from tilelay.cli import integer
from tilelay.files import check_suffix, read_text, write_text
from tilelay.limits import shown, whole

#: The options of a new game, which a loaded game has of its own.
NEW_GAME_OPTIONS = (
    ("players", "--players"),
    ("seed", "--seed"),
    ("player", "--player"),
    ("river", "--river"),
    ("abbot", "--abbot"),
    ("small_city_first_edition", "--small-city-first-edition"),
    ("farms", "--farms"),
)


def seed_argument(text: str) -> int:
    """An argparse ``type``: a game's seed, a whole number from 0 to ``MAX_SEED``."""
    value = whole(text, 0, MAX_SEED)
    if value is None:
        raise argparse.ArgumentTypeError(
            f"expected a whole number from 0 to {MAX_SEED} (2**63 - 1), not {shown(text)}"
        )
    return value


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``carcassonne`` command and its sub-commands."""
    parser = subparsers.add_parser(
        "carcassonne",
        help="play Carcassonne between computer players; list and draw tiles",
        description="Carcassonne: games between computer players, the tile set, drawings.",
    )
    sub = parser.add_subparsers(dest="carcassonne_command", metavar="SUBCOMMAND", required=True)

    play = sub.add_parser("play", help="play a game and print it with the final score")
    play.add_argument(
        "--players",
        type=integer,
        help=f"number of players, {MIN_PLAYERS} to {MAX_PLAYERS} (default 2)",
    )
    play.add_argument(
        "--seed",
        type=seed_argument,
        help=f"seed of the draw pile and players, 0 to {MAX_SEED} (default 0)",
    )
    play.add_argument(
        "--player",
        action="append",
        metavar="KIND",
        help="kind of each player in turn: random, greedy or mcts[:easy|medium|hard] "
        "(Monte-Carlo search, at most 1 s a move); once for all, or once per player",
    )
    play.add_argument("--river", action="store_true", help="play with the River (12 tiles)")
    play.add_argument(
        "--abbot", action="store_true", help="play with the Abbot (and the tiles with gardens)"
    )
    play.add_argument("--save", metavar="FILE", help="also write the game as JSON (to resume)")
    play.add_argument(
        "--load",
        metavar="FILE",
        help="resume a saved game with its own seed, options and players (computer players "
        "only, or a game that has ended: people play in the web app)",
    )
    play.add_argument("--svg", metavar="FILE", help="also write the final board as SVG")
    play.add_argument("--quiet", action="store_true", help="print only the final score")
    play.add_argument(
        "--small-city-first-edition",
        action="store_true",
        help="1st edition: a completed city of two tiles scores 1 per tile and pennant",
    )
    play.add_argument(
        "--farms",
        choices=[f.value for f in FarmScoring],
        help="farm scoring: third (3 per completed city, default) or first (1st edition)",
    )
    play.set_defaults(func=run_play)

    tiles = sub.add_parser("tiles", help="list the tile set")
    tiles.add_argument("--file", metavar="TOML", help="a tile set file (default: base game)")
    tiles.add_argument("--seed-form", action="store_true", help="also show the seed's form")
    tiles.set_defaults(func=run_tiles)

    tile = sub.add_parser("tile", help="one tile: features, seed form, optional SVG")
    tile.add_argument("name", help="tile name, e.g. D")
    tile.add_argument("--rotation", type=integer, default=0, help="quarter turns clockwise (0-3)")
    tile.add_argument("--file", metavar="TOML", help="a tile set file (default: base game)")
    tile.add_argument("--svg", metavar="FILE", help="write the drawing to FILE ('-' for stdout)")
    tile.set_defaults(func=run_tile)


def _player_kinds(args: argparse.Namespace) -> list[str]:
    count: int = 2 if args.players is None else args.players
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise CarcassonneError(
            f"--players {count}: expected a number from {MIN_PLAYERS} to {MAX_PLAYERS}"
        )
    kinds: list[str] = args.player or ["random"]
    for i, kind in enumerate(kinds):
        if kind == "human":
            raise CarcassonneError("--player human: people play in the web app, not here")
        try:
            kinds[i] = make_player(kind).name  # as it plays: mcts is mcts:medium
        except CarcassonneError:
            known = ", ".join(k for k in ALL_KINDS if k != "human")
            raise CarcassonneError(f"--player {kind}: expected one of {known}") from None
    if len(kinds) == 1:
        return kinds * count
    if len(kinds) != count:
        raise CarcassonneError(
            f"--player given {len(kinds)} times for {count} players (give it once or {count} times)"
        )
    return kinds


def _writable(path: str) -> None:
    """A :class:`CarcassonneError` naming ``path`` when a file cannot be written there."""
    folder = Path(path).parent
    if Path(path).is_dir():
        raise CarcassonneError(f"{path}: it is a folder, not a file")
    if not folder.is_dir():
        raise CarcassonneError(f"{path}: no folder {folder} to write it in")
    if not os.access(folder, os.W_OK):
        raise CarcassonneError(f"{path}: the folder {folder} cannot be written to")


def _load(args: argparse.Namespace) -> Game:
    """The saved game of ``--load``, refused when options of a new game are given too or when a
    person is to play in it."""
    given = [
        flag
        for name, flag in NEW_GAME_OPTIONS
        if getattr(args, name) is not None and getattr(args, name) is not False  # (0 is given)
    ]
    if given:
        raise CarcassonneError(
            f"--load {args.load}: {', '.join(given)} cannot be given with --load (a saved game "
            "is played on with its own players, seed and rules)"
        )
    text = read_text(args.load, limit=16 * 1024 * 1024, what="saved game", error=CarcassonneError)
    try:
        game = load_game(text)
    except CarcassonneError as err:
        raise CarcassonneError(f"{args.load}: {err}") from None
    game.draw()  # (an ended game's end is scored: nobody is to play)
    people = [i + 1 for i, p in enumerate(game.players) if p.name == "human"]
    if people and not game.finished:
        seats = " and ".join(str(n) for n in people)
        who = f"player {seats} is a person" if len(people) == 1 else f"players {seats} are people"
        raise CarcassonneError(
            f"{args.load}: {who}, and this command plays only computer players: import the "
            "file in the web app (/carcassonne/play) to play the game on"
        )
    return game


def run_play(args: argparse.Namespace) -> int:
    """Play one game and print it."""
    game: Game
    # the files asked for are checked before the game is played, not after
    if args.svg:
        check_suffix(args.svg, (".svg",), "the board drawing")
        _writable(args.svg)
    if args.save:
        check_suffix(args.save, (".json",), "the saved game")
        _writable(args.save)
    if args.load:
        game = _load(args)
        kinds = [p.name for p in game.players]
    else:
        kinds = _player_kinds(args)
        rules = Rules(
            first_edition_small_city=args.small_city_first_edition,
            farm_scoring=FarmScoring(args.farms or FarmScoring.THIRD_EDITION.value),
            river=args.river,
            abbot=args.abbot,
        )
        game = new_game(kinds, seed=args.seed or 0, rules=rules)
    game.play()
    if args.save:
        write_text(args.save, save_game(game))
    if not args.quiet:
        options = "".join(
            f", {name}"
            for name, on in (("River", game.rules.river), ("Abbot", game.rules.abbot))
            if on
        )
        print(f"Carcassonne, seed {game.seed}, {len(kinds)} players: {', '.join(kinds)}{options}")
        for line in transcript(game):
            print(line)
    scores = game.board.scores
    best = max(scores)
    winners = [f"P{i + 1}" for i, s in enumerate(scores) if s == best]
    parts = ", ".join(f"P{i + 1} {s}" for i, s in enumerate(scores))
    print(f"Final score: {parts} (winner: {' and '.join(winners)})")
    if args.svg:
        write_text(args.svg, board_svg(game.board, title=f"Carcassonne seed {game.seed}: {parts}"))
    return 0


def _tileset(args: argparse.Namespace) -> TileSet:
    return load_tileset(args.file) if args.file else base_tileset()


def run_tiles(args: argparse.Namespace) -> int:
    """List the tile set."""
    ts = _tileset(args)
    print(f"{ts.title}: {len(ts.types)} types, {ts.total} tiles, start tile {ts.start}")
    for t in ts.types:
        feats = "; ".join(f.text() for f in t.features)
        print(f"  {t.name} x{t.count}  {t.about}")
        print(f"      {feats}")
        if args.seed_form:
            try:
                form = " / ".join(to_seed(t).text().splitlines())
            except CarcassonneError as err:
                form = f"(none: {err.message})"
            print(f"      seed form: {form}")
    return 0


def run_tile(args: argparse.Namespace) -> int:
    """Show one tile."""
    if args.svg and args.svg != "-":
        check_suffix(args.svg, (".svg",), "the tile drawing")
    ts = _tileset(args)
    tile = ts.type(args.name)
    if not 0 <= args.rotation <= 3:
        raise CarcassonneError(f"--rotation {args.rotation}: expected 0, 1, 2 or 3")
    drawing = tile_svg(tile, args.rotation)
    if args.svg == "-":
        sys.stdout.write(drawing + "\n")
        return 0
    print(f"{tile.name} x{tile.count}: {tile.about}")
    for i, f in enumerate(tile.rotated_features(args.rotation)):
        print(f"  {i}: {f.text()}")
    try:
        print("seed form:")
        turned = TileType(tile.name, tile.rotated_features(args.rotation), tile.count)
        print(to_seed(turned).text(), end="")
    except CarcassonneError as err:
        print(f"  (none: {err.message})")
    if args.svg:
        write_text(args.svg, drawing)
    return 0

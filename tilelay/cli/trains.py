"""``tilelay trains FILE.xml|GAME``: a game's train cards, their sides and rules, and its phases."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

from tilelay.errors import NotFoundError, TilelayError
from tilelay.files import looks_like_path, read_bytes
from tilelay.sandbox import setup_problem
from tilelay.train_data import manager_to_dict
from tilelay.trains import TrainManager
from tilelay.xml.rails_game import read_rails_game


def parse_options(texts: list[str] | None) -> dict[str, str]:
    """``K=V,K2=V2`` (possibly given several times) as a mapping; raises TilelayError."""
    options: dict[str, str] = {}
    for text in texts or []:
        for piece in text.split(","):
            if not piece.strip():
                continue
            key, sep, value = piece.partition("=")
            if not sep or not key.strip():
                raise TilelayError(f"--options: expected NAME=VALUE, not {piece!r}")
            options[key.strip()] = value.strip()
    return options


#: How ``--options NAME=VALUE`` turns a game's optional rule on or off.
_ON = frozenset({"yes", "on", "true", "1"})
_OFF = frozenset({"no", "off", "false", "0"})


def game_options(texts: list[str] | None) -> list[str]:
    """A game's optional rules chosen with ``--options``: ``NAME`` or ``NAME=yes`` (on),
    ``NAME=no`` (off), comma-separated or given several times; raises TilelayError."""
    chosen: dict[str, bool] = {}
    for text in texts or []:
        for piece in text.split(","):
            name, sep, value = (part.strip() for part in piece.partition("="))
            if not name and not sep:
                continue
            if not name or (sep and value.lower() not in _ON | _OFF):
                raise TilelayError(
                    f"--options: expected an option's name, or NAME=yes or NAME=no, not {piece!r}"
                )
            chosen[name] = not sep or value.lower() in _ON
    return [name for name, on in chosen.items() if on]


def load(target: str, options: list[str] | None = None, players: int | None = None) -> TrainManager:
    """The train manager of a Game.xml file (``options``: its ``K=V`` values), or of a game
    known by name (built-in, or from the sources of ``--games``), with its optional rules
    ``options`` in force, for ``players`` players where given."""
    path = Path(target)
    if path.is_file():
        if players is not None:
            raise TilelayError("--players applies to a game, not to a Rails Game.xml file")
        return read_rails_game(path, options=parse_options(options))
    if looks_like_path(target):
        read_bytes(path, what="Game.xml file")  # says why: missing, a folder, no permission
    try:
        games = importlib.import_module("tilelay.games")
    except ImportError:
        games = None
    load_game = getattr(games, "load_game", None)
    if load_game is None:
        raise NotFoundError(f"unknown game {target!r} (not a file, and no built-in games)")
    game = load_game(target).with_options(game_options(options))
    if players is not None:
        why = setup_problem(game, None, players)
        if why is not None:
            raise TilelayError(f"--players: {why}")
        game = game.for_players(players)
    trains = getattr(game, "trains", None)
    if not isinstance(trains, TrainManager):
        raise TilelayError(f"game {target!r} has no trains")
    return trains


def format_text(manager: TrainManager) -> str:
    """The human-readable listing the command prints."""
    lines = [f"Train cards ({len(manager.card_types)}):"]
    for card in manager.card_types:
        count = "unlimited" if card.unlimited else f"{card.quantity}x"
        if card.quantity_by_players:
            count = ", ".join(f"{q}x with {n}" for n, q in card.quantity_by_players) + " players"
        head = f"  {card.name}: {count}"
        if card.initial_portfolio != "IPO":
            head += f", starts in {card.initial_portfolio}"
        if card.category != "passenger":
            head += f", {card.category}"
        lines.append(head)
        for side in card.sides:
            label = f"side {side.name}" if card.dual else "runs"
            lines.append(f"    {label}: {side.describe()}")
        facts: list[str] = []
        for new in card.new_phases:
            which = "first" if new.train_index == 1 else f"card #{new.train_index}"
            bought_as = f" as a {new.side}" if new.side is not None else ""
            facts.append(f"{which} bought{bought_as} starts phase {new.phase}")
        if (released := manager.released_in_phase(card.name)) is not None:
            facts.append(f"available from phase {released}")
        if (rusts := manager.rusts_in_phase(card.name)) is not None:
            verb = "becomes obsolete" if card.obsoleting else "rusts"
            facts.append(f"{verb} in phase {rusts}")
        if card.obsolete_on:
            facts.append(f"obsolete when {card.obsolete_on} is bought")
        if card.rusts:
            facts.append("buying it rusts " + ", ".join(card.rusts))
        if card.releases:
            facts.append("buying it releases " + ", ".join(card.releases))
        if card.events:
            facts.append("events: " + ", ".join(card.events))
        if facts:
            lines.append("    " + "; ".join(facts))
    lines.append(f"Phases ({len(manager.phases)}):")
    for phase in manager.phases:
        name = phase.name + (f" ({phase.real_name})" if phase.real_name else "")
        bits = [
            "tiles " + (",".join(phase.tiles) or "none"),
            f"{phase.operating_rounds} OR" + ("s" if phase.operating_rounds != 1 else ""),
        ]
        if phase.train_limit is not None:
            bits.append(f"train limit {phase.train_limit}")
        if phase.train_limits:
            bits.append("train limits " + ", ".join(f"{k} {v}" for k, v in phase.train_limits))
        if phase.limit_step is not None:
            bits.append(f"train limit step {phase.limit_step}")
        if phase.rusts:
            bits.append("rusts " + ",".join(phase.rusts))
        if phase.releases:
            bits.append("releases " + ",".join(phase.releases))
        if phase.status:
            bits.append("status " + ",".join(phase.status))
        lines.append(f"  {name}: " + "; ".join(bits))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Run ``tilelay trains``; returns the exit status."""
    manager = load(args.target, args.options, args.players)
    for warning in manager.warnings:
        print(f"tilelay: warning: {warning}", file=sys.stderr)
    if args.json:
        print(json.dumps(manager_to_dict(manager), indent=2))
    else:
        print(format_text(manager))
    return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``trains`` command."""
    parser = subparsers.add_parser(
        "trains",
        help="list a game's train cards and phases",
        description="List the train cards (with their sides and rules) and the phases of a "
        "Rails Game.xml or of a game, built-in or from the sources of --games / TILELAY_GAMES.",
    )
    parser.add_argument("target", metavar="FILE.xml|GAME", help="a Rails Game.xml or a game name")
    parser.add_argument(
        "--options",
        action="append",
        metavar="K=V,...",
        help="a Game.xml's options for its IfOption blocks (default: the file's defaults; "
        "each value one the game's files declare or test, yes/no for a toggle), or a game's "
        "optional rules (NAME, or NAME=yes / NAME=no)",
    )
    parser.add_argument(
        "--players",
        type=int,
        metavar="N",
        help="a game played by N players (trains counted by the players, options for some "
        "numbers of players)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.set_defaults(func=run)

"""The ``tilelay`` command.

Each concern registers its own sub-commands from a module of this package (``tile``, ``render``,
``serve``, ``convert``, ``upgrades``, ``trains``, ``carcassonne`` …). Errors that users cause are
printed as one line on standard error with exit status 2, never as a traceback: a
:class:`~tilelay.errors.TilelayError`, a path that cannot be read or written, and a command
line that does not parse (:class:`Parser` prints argparse's complaint as one line).
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from tilelay.errors import TilelayError
from tilelay.files import path_text
from tilelay.limits import shown, whole

__all__ = ["COMMAND_MODULES", "Parser", "build_parser", "integer", "main", "one_line"]

#: Characters that would break a message over lines or garble a terminal (line breaks as
#: str.splitlines knows them, and the other control characters), and how they are shown.
_UNPRINTABLE = {
    c: f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"
    for c in (*range(0x20), 0x7F, *range(0x80, 0xA0), 0x2028, 0x2029, *range(0xD800, 0xE000))
}


def one_line(text: str) -> str:
    """``text`` with line breaks and control characters written as escapes (``\\x0a``), so
    that a message naming a file called ``a\\nb`` is still one line."""
    return text.translate(_UNPRINTABLE)


#: Modules of this package that define sub-commands, each with ``register(subparsers)``.
COMMAND_MODULES: tuple[str, ...] = (
    "games",
    "tile",
    "render",
    "serve",
    "convert",
    "tiles",
    "upgrades",
    "trains",
    "carcassonne",
    "routes",
    "lays",
    "replay",
)


class Parser(argparse.ArgumentParser):
    """argparse's parser, complaining in one line (``tilelay render tile: error: …``) with
    exit status 2; sub-command parsers are of this class too."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{one_line(self.prog)}: error: {one_line(message)}\n")


def integer(text: str) -> int:
    """An argparse ``type``: a whole number in ASCII digits of at most 18 digits (each
    command checks its own range)."""
    value = whole(text, -(10**18), 10**18)
    if value is None:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {shown(text)}")
    return value


def decimal(text: str) -> float:
    """An argparse ``type``: a number in ASCII digits with an optional decimal part, at
    most 12 characters (``38``, ``6.5``; not ``1e1``, ``1_0`` or other scripts' digits)."""
    t = text.strip()
    if len(t) > 12 or not re.fullmatch(r"[0-9]+(\.[0-9]+)?", t):
        raise argparse.ArgumentTypeError(f"expected a number such as 38 or 6.5, not {shown(text)}")
    return float(t)


def about(argument: str, message: str) -> str:
    """``message`` led by what a command line argument names: a file (:func:`path_text`), or
    ``-``, standard input; once: a message that names it already is left as it is."""
    where = "standard input" if argument == "-" else path_text(argument)
    return message if message.startswith(f"{where}:") else f"{where}: {message}"


def record_argument(text: str) -> dict[str, Any]:
    """The recorded game a command line argument names: a JSON file, or ``-`` for standard
    input."""
    from tilelay.replay import MAX_RECORD_BYTES, load_record, read_record

    if text != "-":
        return load_record(text)
    data = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
    return read_record(data, source="standard input")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered."""
    parser = Parser(
        prog="tilelay",
        description="Tiles, maps, upgrades and routes for 18xx games, and Carcassonne.",
    )
    parser.add_argument(
        "--games",
        action="append",
        default=[],
        metavar="PATH",
        help="also know the games under PATH (repeatable): an 18xx.games checkout or its "
        "lib/engine, a Rails data/ directory, a GE18XX XML directory, or one game's directory; "
        "the variable TILELAY_GAMES adds paths too (joined as in PATH)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"tilelay.cli.{name}")
        module.register(sub)
    return parser


def _add_game_sources(paths: Sequence[str]) -> None:
    """Know the games of ``--games`` paths and of ``TILELAY_GAMES``; the paths are also put in
    ``TILELAY_GAMES`` for the processes this one starts (the web server's workers)."""
    from tilelay.sources.games import ENVIRONMENT_VARIABLE, add_paths, paths_from_environment

    from_environment = paths_from_environment()
    every = [*from_environment, *paths]
    if not every:
        return
    try:
        add_paths(from_environment)
    except TilelayError as err:
        # (a path the user did not type here: say where it came from)
        raise TilelayError(f"{err} (a path of {ENVIRONMENT_VARIABLE})") from None
    add_paths(paths)
    os.environ[ENVIRONMENT_VARIABLE] = os.pathsep.join(every)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        _add_game_sources(args.games)
        status: int = args.func(args)
    except TilelayError as err:
        print(f"tilelay: error: {one_line(str(err))}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except OSError as err:  # a path the command did not read through tilelay.files
        where = f"{err.filename}: " if err.filename else ""
        print(f"tilelay: error: {one_line(where + str(err.strerror or err))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""tilelay's own game files: game data (:mod:`tilelay.games.data`) written as TOML.

The built-in games are such files (``tilelay/games/data/*.toml``; ``1889.toml`` is a
commented example). :func:`read_game_toml` reads one with errors naming the file, line and
column; :func:`game_to_toml` writes any loaded game in the same format, which reads back to
the same game data.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

from tilelay.errors import GameDataError
from tilelay.files import read_text
from tilelay.games.data import SECTION_KEYS, game_from_data, game_to_data
from tilelay.games.model import Game
from tilelay.limits import read_toml

__all__ = ["conversion_losses", "game_to_toml", "load_game_file", "read_game_toml"]

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def read_game_toml(text: str, source: str) -> Game:
    """The game a TOML text of tilelay's game format describes (strict: see
    :func:`~tilelay.games.data.game_from_data`)."""
    data = read_toml(text, source=source, error=GameDataError)
    return game_from_data(data, source=source, text=text)


def load_game_file(path: str | Path) -> Game:
    """Read a game definition from a TOML file of tilelay's game format."""
    p = Path(path)
    text = read_text(p, limit=16 * 1024 * 1024, what="game file", error=GameDataError)
    return read_game_toml(text, str(p))


# ------------------------------------------------------------------------------ writing


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _string(key)


def _string(text: str) -> str:
    # JSON string escapes are valid TOML basic-string escapes
    return json.dumps(text, ensure_ascii=False)


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(str(k))} = {_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise GameDataError(f"cannot write {value!r} in TOML")


def _table(lines: list[str], header: str, table: Mapping[str, Any]) -> None:
    lines.append("")
    lines.append(header)
    for key, value in table.items():
        lines.append(f"{_key(str(key))} = {_value(value)}")


def game_to_toml(game: Game) -> str:
    """``game`` in tilelay's own game format (TOML text; :func:`read_game_toml` reads it)."""
    data = game_to_data(game)
    lines = [
        f"# {game.title} in tilelay's game format (tilelay/games/data/1889.toml explains it).",
        f"# Read from {game.source or 'an unnamed source'} ({game.format}).",
        "",
    ]
    for key, value in data.items():
        if key not in SECTION_KEYS:
            lines.append(f"{key} = {_value(value)}")
    for key in ("location_names", "manifest", "market", "upgrade_rules"):
        if key in data:
            _table(lines, f"[{key}]", data[key])
    for entry in data.get("hexes", []):
        _table(lines, "[[hexes]]", entry)
    for count, changed in data.get("hexes_by_players", {}).items():
        # (the hexes of the map for so many players that differ: hexes_by_players.N)
        if "removed" in changed:
            _table(lines, f"[hexes_by_players.{count}]", {"removed": changed["removed"]})
        for entry in changed.get("hexes", []):
            _table(lines, f"[[hexes_by_players.{count}.hexes]]", entry)
    for name, entry in data.get("tiles", {}).items():
        _table(lines, f"[tiles.{_key(name)}]", entry)
    for key in ("corporations", "companies", "trains", "phases", "options"):
        for entry in data.get(key, []):
            _table(lines, f"[[{key}]]", entry)
    return "\n".join(lines) + "\n"


def conversion_losses(game: Game, written: str) -> list[str]:
    """What ``game`` written in tilelay's format (``written``, :func:`game_to_toml`'s text)
    does not keep of its trains and phases: the facts of a game read from Rails or GE18XX
    that 18xx.games' shape of trains has no place for (a Rails "2+2" whose towns count as
    major stops, a train's trade-in price, a phase's own name, its tile lays), each field
    once with the trains or phases it is lost for. Empty for a game read from 18xx.games or
    tilelay's format."""
    again = read_game_toml(written, "converted")
    lost: dict[str, list[str]] = {}

    def compare(what: str, name: str, old: Any, new: Any) -> None:
        for f in fields(old):
            if f.name == "sides":
                continue
            if new is None or not _same(getattr(old, f.name), getattr(new, f.name)):
                lost.setdefault(f"{what} {f.name}", []).append(name)

    before, after = game.trains, again.trains
    for card in before.card_types:
        other = next((c for c in after.card_types if c.name == card.name), None)
        compare("train", card.name, card, other)
        for i, side in enumerate(card.sides):
            twin = other.sides[i] if other is not None and i < len(other.sides) else None
            compare("train", side.name, side, twin)
    for phase in before.phases:
        twin_phase = next((p for p in after.phases if p.name == phase.name), None)
        compare("phase", phase.name, phase, twin_phase)
    return [
        f"{key} (of {', '.join(dict.fromkeys(names))}) is not kept" for key, names in lost.items()
    ]


def _same(old: object, new: object) -> bool:
    """Whether a train's or phase's field kept its meaning (Rails writes an unlimited number
    of stops as 99, 18xx.games as 999)."""
    if isinstance(old, int) and isinstance(new, int) and old >= 99 and new >= 99:
        return True
    return old == new

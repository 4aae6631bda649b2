"""Tile sets: reading and writing the TOML files in ``tilelay/carcassonne/data``.

A tile set file looks like this (features in the text format of :mod:`tile`)::

    name = "base"
    title = "Carcassonne base game"
    start = "D"

    [tiles.D]
    about = "city cap with a straight road (the start tile)"
    count = 4
    features = ["city N", "road E W", "farm En Wn touches=0", "farm Es Se Sw Ws"]

``count`` includes the start tile. :func:`dump_tileset` writes a set back in exactly this
layout, so a file written by it reads and writes back unchanged.
"""

from __future__ import annotations

import bisect
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from tilelay.carcassonne.errors import CarcassonneError
from tilelay.carcassonne.tile import Feature, TileType, parse_feature
from tilelay.files import read_text
from tilelay.limits import MAX_COUNT, read_toml, shown, text_problem


@dataclass(frozen=True, slots=True)
class TileSet:
    """A named set of tile types and which type is the start tile."""

    name: str
    title: str
    types: tuple[TileType, ...]
    start: str
    about: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        names = [t.name for t in self.types]
        if len(set(names)) != len(names):
            raise CarcassonneError(f"tile set {self.name}: tile names repeat")
        if self.start not in names:
            raise CarcassonneError(f"tile set {self.name}: start tile {self.start!r} is not a tile")

    def type(self, name: str) -> TileType:
        """The tile type called ``name``."""
        for t in self.types:
            if t.name == name:
                return t
        raise CarcassonneError(f"tile set {self.name}: no tile {name!r}")

    def index(self, name: str) -> int:
        """Position of the tile type called ``name`` in :attr:`types`."""
        for i, t in enumerate(self.types):
            if t.name == name:
                return i
        raise CarcassonneError(f"tile set {self.name}: no tile {name!r}")

    @property
    def total(self) -> int:
        """Number of tiles, the start tile included."""
        return sum(t.count for t in self.types)

    def pile(self) -> list[int]:
        """Type indices of every tile except the start tile, in set order."""
        start = self.index(self.start)
        out: list[int] = []
        for i, t in enumerate(self.types):
            out.extend([i] * (t.count - (1 if i == start else 0)))
        return out


#: A tile's table header, ``[tiles.NAME]`` (the name bare, quoted or in single quotes).
_HEADER = (
    r"^[ \t]*\[[ \t]*tiles[ \t]*\.[ \t]*"
    r"""("(?:[^"\\\n]|\\.)*"|'[^'\n]*'|[A-Za-z0-9_-]+)"""
    r"[ \t]*\]"
)
#: Any table header (the end of a tile's table).
_TABLE = r"^[ \t]*\["


class _Lines:
    """Where things are in a tile set's text, for messages: the line of an offset, of a tile's
    table header and of each feature string in that table.

    The text is scanned three times (line starts, table headers, tile headers); a tile's
    features are looked for in its own table only, each after the one before, so reading a
    file is linear in its length (it was quadratic: every tile and feature searched the whole
    text from its start).
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0, *(m.end() for m in re.finditer("\n", text))]
        #: Offsets of every table header, in order.
        self.tables = [m.start() for m in re.finditer(_TABLE, text, re.MULTILINE)]
        #: Each tile's name -> where its header starts and ends.
        self.headers: dict[str, tuple[int, int]] = {}
        for m in re.finditer(_HEADER, text, re.MULTILINE):
            name = _key(m.group(1))
            if name is not None:
                self.headers.setdefault(name, (m.start(), m.end()))

    def line(self, offset: int) -> int:
        """The 1-based line of a character offset."""
        return bisect.bisect_right(self.starts, offset)

    def tile(self, name: str) -> int | None:
        """The line of tile ``name``'s header, if it has one."""
        where = self.headers.get(name)
        return None if where is None else self.line(where[0])

    def features(self, name: str, features: list[str]) -> list[int | None]:
        """The line of each of tile ``name``'s feature strings (``None`` where not found)."""
        where = self.headers.get(name)
        if where is None:
            return [None] * len(features)
        start = where[1]
        after = bisect.bisect_right(self.tables, where[0])
        end = self.tables[after] if after < len(self.tables) else len(self.text)
        out: list[int | None] = []
        for f in features:
            found = self.text.find(f'"{f}"', start, end)
            if found < 0:
                out.append(None)
                continue
            out.append(self.line(found))
            start = found + len(f) + 2
        return out

    def key(self, key: str) -> int | None:
        """The line of a top-level ``key = ...`` (for a message only)."""
        m = re.search(rf"^[ \t]*{re.escape(key)}[ \t]*=", self.text, re.MULTILINE)
        return self.line(m.start()) if m else None


def _key(raw: str) -> str | None:
    """A TOML key as written (bare, ``"basic"`` or ``'literal'``) as its text."""
    if raw.startswith("'"):
        return raw[1:-1]
    if raw.startswith('"'):
        try:
            value = tomllib.loads(f"k = {raw}")["k"]
        except tomllib.TOMLDecodeError:
            return None
        return value if isinstance(value, str) else None
    return raw


def _text(value: object, what: str, *, source: str | None, line: int | None) -> str:
    """``value`` when it is a string a tile set may hold (see :func:`text_problem`); else a
    :class:`CarcassonneError` naming ``what``, the file and the line."""
    if not isinstance(value, str):
        raise CarcassonneError(
            f"{what} must be a string, not {shown(value)}", source=source, line=line
        )
    problem = text_problem(value)
    if problem is not None:
        raise CarcassonneError(f"{what} {shown(value)} {problem}", source=source, line=line)
    return value


def parse_tileset(text: str, *, source: str | None = None) -> TileSet:
    """Read a tile set from TOML text; errors name the file and line. Names, the title and the
    descriptions must be strings without control characters (they are printed)."""
    data = read_toml(text, source=source, error=CarcassonneError)
    lines = _Lines(text)
    for key in ("name", "start", "tiles"):
        if key not in data:
            raise CarcassonneError(f"missing top-level key {key!r}", source=source)
    tiles = data["tiles"]
    if not isinstance(tiles, dict) or not tiles:
        raise CarcassonneError(
            "'tiles' must be tables [tiles.NAME]", source=source, line=lines.key("tiles")
        )
    top: dict[str, str] = {}
    for key in ("name", "title", "start"):
        if key in data:
            top[key] = _text(data[key], f"{key!r}", source=source, line=lines.key(key))
    about = data.get("about", [])
    if isinstance(about, str):
        about = [about]
    if not isinstance(about, list):
        raise CarcassonneError(
            f"'about' must be a string or a list of strings, not {shown(about)}",
            source=source,
            line=lines.key("about"),
        )
    notes = [_text(a, "'about'", source=source, line=lines.key("about")) for a in about]
    types: list[TileType] = []
    for name, body in tiles.items():
        line = lines.tile(name)
        _text(name, "tile name", source=source, line=line)
        if not isinstance(body, dict):
            raise CarcassonneError(f"tile {name}: expected a table", source=source, line=line)
        count = body.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MAX_COUNT:
            raise CarcassonneError(
                f"tile {name}: count must be a whole number from 0 to {MAX_COUNT:,}",
                source=source,
                line=line,
            )
        feats = body.get("features")
        if not isinstance(feats, list) or not all(isinstance(f, str) for f in feats):
            raise CarcassonneError(
                f"tile {name}: features must be a list of strings", source=source, line=line
            )
        unknown = set(body) - {"count", "features", "about"}
        if unknown:
            raise CarcassonneError(
                f"tile {name}: unknown key(s) {', '.join(sorted(unknown))} "
                "(expected count, features, about)",
                source=source,
                line=line,
            )
        tile_about = _text(body.get("about", ""), f"tile {name}: 'about'", source=source, line=line)
        parsed: list[Feature] = []
        for f, fline in zip(feats, lines.features(name, feats), strict=True):
            parsed.append(parse_feature(f, source=source, line=fline or line))
        try:
            types.append(TileType(name, tuple(parsed), count, tile_about))
        except CarcassonneError as err:
            raise err.located(source=source, line=line) from None
    try:
        return TileSet(
            top["name"],
            top.get("title", top["name"]),
            tuple(types),
            top["start"],
            tuple(notes),
        )
    except CarcassonneError as err:
        raise err.located(source=source) from None


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def dump_tileset(tileset: TileSet) -> str:
    """The TOML text of a tile set, in the canonical layout :func:`parse_tileset` reads."""
    out = [
        f"name = {_quote(tileset.name)}",
        f"title = {_quote(tileset.title)}",
        f"start = {_quote(tileset.start)}",
    ]
    if tileset.about:
        out.append("about = [")
        out.extend(f"    {_quote(a)}," for a in tileset.about)
        out.append("]")
    for t in tileset.types:
        out.append("")
        out.append(f"[tiles.{t.name}]")
        if t.about:
            out.append(f"about = {_quote(t.about)}")
        out.append(f"count = {t.count}")
        out.append("features = [")
        out.extend(f"    {_quote(f.text())}," for f in t.features)
        out.append("]")
    return "\n".join(out) + "\n"


def load_tileset(path: str | Path) -> TileSet:
    """Read a tile set file."""
    p = Path(path)
    text = read_text(p, limit=4 * 1024 * 1024, what="tile set", error=CarcassonneError)
    return parse_tileset(text, source=str(p))


def _packaged(name: str) -> TileSet:
    text = resources.files("tilelay.carcassonne").joinpath(f"data/{name}").read_text("utf-8")
    return parse_tileset(text, source=name)


@cache
def base_tileset() -> TileSet:
    """The base game's 72 tiles (24 types A-X), from ``data/base.toml``."""
    return _packaged("base.toml")


@cache
def garden_tileset() -> TileSet:
    """The base game's 72 tiles as in the 2nd/3rd edition, 8 of them with a garden (types
    ``Eg``, ``Hg``, ``Ig``, ``Mg``, ``Ng``, ``Rg``, ``Ug``, ``Vg``), from
    ``data/base-gardens.toml``."""
    return _packaged("base-gardens.toml")


@cache
def river_tileset() -> TileSet:
    """The River's 12 tiles (start tile: the spring), from ``data/river.toml``."""
    return _packaged("river.toml")


def combine(first: TileSet, second: TileSet, *, start: str | None = None) -> TileSet:
    """Two tile sets as one (names must not repeat); the start tile is ``start``, or the
    second set's."""
    return TileSet(
        f"{first.name}+{second.name}",
        f"{first.title}; {second.title}",
        first.types + second.types,
        start or second.start,
        first.about + second.about,
    )


@cache
def game_tileset(*, river: bool = False, abbot: bool = False) -> TileSet:
    """The tiles of a game: the base game (with gardens when playing with the Abbot), and the
    River's tiles, whose spring is then the start tile (the base start tile goes into the
    pile)."""
    base = garden_tileset() if abbot else base_tileset()
    return combine(base, river_tileset()) if river else base

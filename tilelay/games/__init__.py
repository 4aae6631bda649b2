"""Built-in game definitions: the map, the tile manifest, corporations, companies and trains.

Each game is a TOML file in ``tilelay/games/data/`` written in tilelay's own format (see
``1889.toml`` for a commented example): a title and aliases, the layout (``flat`` or
``pointy``), location names, the preprinted hexes grouped by colour and tile string (the tile
language of :mod:`tilelay.dsl`), the tile manifest (``[manifest]`` name = count, with the game's
own tiles under ``[tiles.<name>]``), corporations, companies, and ``[[trains]]`` /
``[[phases]]`` in the 18xx.games shape.

>>> game = load_game("shikoku 1889")
>>> game.name, game.layout.value, game.hex_tile("K8").location_name
('1889', 'flat', 'Tokushima')

Look-ups are forgiving: case, ``_``, ``-`` and spaces are ignored, and titles, display titles,
aliases and file names all work. A user's own file is read with :func:`load_game_file`.

Coordinates are letter + number (``K8``). On a flat map the letter is the column and the number
the row; on a pointy map the letter is the row and the number the column (a file may say
otherwise with ``axes = { x = "number", y = "letter" }``). :meth:`Game.coord_xy` gives the
doubled coordinates of :func:`tilelay.hexgeo.hex_center`.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from tilelay import dsl
from tilelay.catalogue import get_tile, natural_key, suggest, tile_codes
from tilelay.errors import GameDataError, NotFoundError, TilelayError
from tilelay.hexgeo import NEIGHBOUR_OFFSETS, Layout
from tilelay.tile import Color, Tile
from tilelay.trains import Phase, TrainManager, trains_from_game_data

__all__ = [
    "UNLIMITED",
    "Company",
    "Corporation",
    "Game",
    "find_games",
    "game_names",
    "load_game",
    "load_game_file",
    "normalise_name",
    "parse_coord",
]

#: Manifest count of a tile of which there is no limit.
UNLIMITED = -1

_COORD = re.compile(r"([A-Z]+)(-?\d+)")


def parse_coord(coord: str) -> tuple[int, int]:
    """A coordinate ``K8`` as (letter index, number): ``A`` is 0, ``Z`` 25, ``AA`` 26.

    Raises :class:`ValueError` for anything that is not capital letters followed by a number.
    """
    m = _COORD.fullmatch(coord)
    if m is None:
        raise ValueError(f"bad coordinate {coord!r}: expected letters and a number, e.g. K8")
    letters = 0
    for ch in m.group(1):
        letters = letters * 26 + (ord(ch) - ord("A") + 1)
    return letters - 1, int(m.group(2))


def _letters(index: int) -> str:
    out = ""
    n = index + 1
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(ord("A") + r) + out
    return out


def normalise_name(name: str) -> str:
    """A game name for matching: lower case without ``_``, ``-``, spaces, ``:`` or ``&``."""
    return re.sub(r"[\s_\-:&]+", "", name.lower())


@dataclass(frozen=True, slots=True)
class Corporation:
    """A public company: symbol, name, home hex (and city on a multi-city hex), token costs."""

    sym: str
    name: str
    home: str | None
    city: int | None = None
    tokens: tuple[int, ...] = (0,)
    color: str = "black"
    text_color: str | None = None
    float_percent: int | None = None


@dataclass(frozen=True, slots=True)
class Company:
    """A private company: value, revenue, a short description and the hexes it blocks."""

    sym: str
    name: str
    value: int
    revenue: int
    description: str | None = None
    blocks: tuple[str, ...] = ()
    min_players: int | None = None


@dataclass(frozen=True, slots=True, eq=False)
class Game:
    """A game definition (immutable; compared by identity).

    ``name`` is the short title (``"1889"``), ``title`` the display title (``"Shikoku 1889"``).
    ``hexes`` maps every map coordinate to its preprinted tile (named by the coordinate, with
    its colour and location name). ``manifest`` maps tile names to counts (-1: unlimited);
    ``game_tiles`` holds the game's own tile definitions. ``trains`` is the
    :class:`~tilelay.trains.TrainManager`; ``train_data`` / ``phase_data`` are the raw
    18xx.games-shaped tables it was read from. ``market`` lists the stock market rows.
    """

    name: str
    title: str
    layout: Layout
    hexes: dict[str, Tile]
    location_names: dict[str, str]
    manifest: dict[str, int]
    game_tiles: dict[str, Tile]
    corporations: tuple[Corporation, ...]
    companies: tuple[Company, ...]
    trains: TrainManager
    train_data: tuple[dict[str, Any], ...]
    phase_data: tuple[dict[str, Any], ...]
    aliases: tuple[str, ...] = ()
    subtitle: str | None = None
    designer: str | None = None
    publisher: str | None = None
    location: str | None = None
    players: tuple[int, int] | None = None
    market: tuple[tuple[str, ...], ...] = ()
    source: str = ""
    letter_is_x: bool = True
    _xy: dict[str, tuple[int, int]] = field(default_factory=dict, repr=False)
    _by_xy: dict[tuple[int, int], str] = field(default_factory=dict, repr=False)

    def __repr__(self) -> str:
        return f"Game(name={self.name!r}, title={self.title!r}, hexes={len(self.hexes)})"

    def __post_init__(self) -> None:
        for coord in self.hexes:
            letter, number = parse_coord(coord)
            xy = (letter, number) if self.letter_is_x else (number, letter)
            self._xy[coord] = xy
            self._by_xy[xy] = coord

    # ------------------------------------------------------------------- tiles

    @property
    def phases(self) -> tuple[Phase, ...]:
        """The phases, in order (from :attr:`trains`)."""
        return self.trains.phases

    def tile(self, name: str, rotation: int = 0) -> Tile:
        """Manifest tile ``name``: the game's own definition first, else the generic catalogue.

        Raises :class:`~tilelay.errors.NotFoundError` with close names when the game has no
        such tile.
        """
        own = self.game_tiles.get(name)
        if own is not None:
            return own.rotated(rotation)
        if name in self.manifest:
            return get_tile(name, rotation)
        raise NotFoundError(
            f"game {self.name} has no tile {name!r}",
            suggestions=suggest(name, [*self.manifest, *self.game_tiles]),
        )

    def manifest_tiles(self) -> list[tuple[Tile, int]]:
        """Every manifest tile with its count (-1: unlimited), in natural name order."""
        return [(self.tile(n), self.manifest[n]) for n in sorted(self.manifest, key=_tile_key)]

    def hex_tile(self, coord: str) -> Tile:
        """The preprinted tile at ``coord``; :class:`NotFoundError` with close coordinates."""
        tile = self.hexes.get(coord)
        if tile is None:
            tile = self.hexes.get(coord.strip().upper())
        if tile is None:
            raise NotFoundError(
                f"game {self.name} has no hex {coord!r}",
                suggestions=suggest(coord.upper(), list(self.hexes)),
            )
        return tile

    # -------------------------------------------------------------- geometry

    def coord_xy(self, coord: str) -> tuple[int, int]:
        """The doubled coordinates (col, row) of ``coord`` as in :func:`hexgeo.hex_center`.

        Works for any well-formed coordinate, on the map or not; raises :class:`ValueError`
        for a malformed one.
        """
        xy = self._xy.get(coord)
        if xy is not None:
            return xy
        letter, number = parse_coord(coord)
        return (letter, number) if self.letter_is_x else (number, letter)

    def xy_coord(self, xy: tuple[int, int]) -> str | None:
        """The map coordinate at doubled coordinates ``xy``, or ``None`` off the map."""
        return self._by_xy.get(xy)

    def neighbour(self, coord: str, edge: int) -> str | None:
        """The coordinate across ``edge`` of ``coord``, or ``None`` off the map."""
        x, y = self.coord_xy(coord)
        dx, dy = NEIGHBOUR_OFFSETS[self.layout][edge % 6]
        return self._by_xy.get((x + dx, y + dy))

    def neighbours(self, coord: str) -> dict[int, str]:
        """Edge -> neighbouring map coordinate, for the edges that lead onto the map."""
        out: dict[int, str] = {}
        for edge in range(6):
            n = self.neighbour(coord, edge)
            if n is not None:
                out[edge] = n
        return out

    def columns(self) -> list[tuple[str, int]]:
        """Column labels with their doubled x coordinate, left to right (for map edges)."""
        return self._labels(0)

    def rows(self) -> list[tuple[str, int]]:
        """Row labels with their doubled y coordinate, top to bottom (for map edges)."""
        return self._labels(1)

    def _labels(self, axis: int) -> list[tuple[str, int]]:
        values = sorted({xy[axis] for xy in self._xy.values()})
        letters = (axis == 0) == self.letter_is_x
        return [(_letters(v) if letters else str(v), v) for v in values]

    def home_hexes(self) -> dict[str, list[str]]:
        """Coordinate -> symbols of the corporations whose home is there."""
        out: dict[str, list[str]] = {}
        for corp in self.corporations:
            if corp.home is not None:
                out.setdefault(corp.home, []).append(corp.sym)
        return out

    def home_city(self, sym: str) -> int | None:
        """The city index of corporation ``sym``'s home: given, or the hex's only city.

        ``None`` when the corporation has no home or its home hex has several cities and the
        definition does not say which (the owner chooses in play).
        """
        corp = self.corporation(sym)
        if corp.home is None:
            return None
        if corp.city is not None:
            return corp.city
        return 0 if len(self.hexes[corp.home].cities) == 1 else None

    def corporation(self, sym: str) -> Corporation:
        """The corporation ``sym``; :class:`NotFoundError` with close symbols."""
        for corp in self.corporations:
            if corp.sym == sym:
                return corp
        raise NotFoundError(
            f"game {self.name} has no corporation {sym!r}",
            suggestions=suggest(sym, [c.sym for c in self.corporations]),
        )


def _tile_key(name: str) -> tuple[object, ...]:
    return (0, *natural_key(name)) if name[:1].isdigit() else (1, *_mixed_key(name))


def _mixed_key(name: str) -> list[tuple[int, int, str]]:
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.findall(r"\d+|\D+", name)]


# ------------------------------------------------------------------------ reading

_TOP_KEYS = frozenset(
    {
        "title",
        "display_title",
        "subtitle",
        "aliases",
        "designer",
        "publisher",
        "location",
        "players",
        "rules_url",
        "layout",
        "axes",
        "location_names",
        "hexes",
        "manifest",
        "tiles",
        "corporations",
        "companies",
        "trains",
        "phases",
        "market",
    }
)
_HEX_KEYS = frozenset({"color", "coords", "code"})
_TILE_KEYS = frozenset({"color", "code"})
_CORP_KEYS = frozenset(
    {"sym", "name", "home", "city", "tokens", "color", "text_color", "float_percent"}
)
_COMPANY_KEYS = frozenset(
    {"sym", "name", "value", "revenue", "description", "blocks", "min_players"}
)


class _Reader:
    """Reading state: the file name and text, for error messages with line numbers."""

    def __init__(self, source: str, text: str) -> None:
        self.source = source
        self.lines = text.splitlines()

    def line_of(self, *needles: str) -> int | None:
        """The first line holding every needle (to point errors at the right place)."""
        for i, line in enumerate(self.lines, 1):
            if all(n in line for n in needles):
                return i
        return None

    def fail(self, message: str, *needles: str) -> GameDataError:
        line = self.line_of(*needles) if needles else None
        return GameDataError(message, source=self.source, line=line)

    def table(self, data: Mapping[str, Any], key: str) -> dict[str, Any]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            raise self.fail(f"{key} must be a table", key)
        return value

    def array(self, data: Mapping[str, Any], key: str) -> list[dict[str, Any]]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.fail(f"{key} must be an array of tables ([[{key}]])", key)
        return value

    def text(self, where: str, value: object, what: str, *, optional: bool = False) -> str:
        if value is None and optional:
            return ""
        if not isinstance(value, str) or not value:
            raise self.fail(f"{where}: {what} must be a non-empty string, not {value!r}")
        return value

    def integer(self, where: str, value: object, what: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{where}: {what} must be an integer, not {value!r}")
        return value

    def strings(self, where: str, value: object, what: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(f"{where}: {what} must be a list of strings, not {value!r}")
        return tuple(value)

    def unknown(self, where: str, entry: Mapping[str, Any], known: frozenset[str]) -> None:
        extra = sorted(set(entry) - known)
        if extra:
            raise self.fail(
                f"{where}: unknown key {extra[0]!r} (expected one of {', '.join(sorted(known))})",
                f"{extra[0]} =",
            )

    def coord(self, where: str, coord: object) -> str:
        if not isinstance(coord, str):
            raise self.fail(f"{where}: coordinate must be a string, not {coord!r}")
        try:
            parse_coord(coord)
        except ValueError as err:
            raise self.fail(f"{where}: {err}", f'"{coord}"') from None
        return coord

    def color(self, where: str, value: object, *needles: str) -> tuple[Color, Color | None]:
        try:
            return Color.parse(self.text(where, value, "color"))
        except ValueError as err:
            raise self.fail(f"{where}: {err}", *needles) from None

    def tile(self, where: str, code: object, color: object, name: str, *needles: str) -> Tile:
        if not isinstance(code, str):
            raise self.fail(f"{where}: code must be a tile string, not {code!r}", *needles)
        tile_color, stripe = self.color(where, color, *needles)
        try:
            tile = dsl.parse(code, name=name, color=tile_color)
        except TilelayError as err:
            col = f" (column {err.column})" if err.column is not None else ""
            raise self.fail(f"{where}: bad tile string{col}: {err.message}", *needles) from None
        if stripe is not None:
            tile = replace(tile, stripe=stripe)
        return tile


def _read(text: str, source: str) -> Game:
    r = _Reader(source, text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(err))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(err))
        raise GameDataError(
            f"malformed TOML: {message}",
            source=source,
            line=int(m.group(1)) if m else None,
            column=int(m.group(2)) if m else None,
        ) from None
    r.unknown("game", data, _TOP_KEYS)
    title = r.text("game", data.get("title"), "title")
    display = r.text("game", data.get("display_title", title), "display_title")
    aliases = r.strings("game", data.get("aliases", []), "aliases")
    try:
        layout = Layout(str(data.get("layout", "")))
    except ValueError:
        raise r.fail(
            f"layout must be 'flat' or 'pointy', not {data.get('layout')!r}", "layout"
        ) from None
    axes = r.table(data, "axes") if "axes" in data else {}
    default_x = "letter" if layout is Layout.FLAT else "number"
    x_axis = axes.get("x", default_x)
    y_axis = axes.get("y", "number" if x_axis == "letter" else "letter")
    if {x_axis, y_axis} != {"letter", "number"}:
        raise r.fail("axes must be { x = 'letter', y = 'number' } or the other way", "axes")

    location_names: dict[str, str] = {}
    for coord, name in r.table(data, "location_names").items():
        location_names[r.coord("location_names", coord)] = r.text(
            f"location_names.{coord}", name, "name"
        )

    hexes: dict[str, Tile] = {}
    for i, entry in enumerate(r.array(data, "hexes")):
        where = f"hexes[{i}]"
        r.unknown(where, entry, _HEX_KEYS)
        coords = r.strings(where, entry.get("coords"), "coords")
        if not coords:
            raise r.fail(f"{where}: coords is empty")
        code = entry.get("code", "")
        needle = f"code = {_toml_str(code)}" if isinstance(code, str) else "code"
        base = r.tile(f"{where} ({coords[0]})", code, entry.get("color", "white"), "", needle)
        for coord in coords:
            r.coord(where, coord)
            if coord in hexes:
                raise r.fail(f"{where}: hex {coord} is defined twice", f'"{coord}"')
            hexes[coord] = replace(base, name=coord, location_name=location_names.get(coord))
    if not hexes:
        raise r.fail("the game has no hexes ([[hexes]] with coords)")
    for coord in location_names:
        if coord not in hexes:
            raise r.fail(
                f"location_names: {coord} is not a hex of the map",
                f"{coord} =",
            )

    game_tiles: dict[str, Tile] = {}
    for name, entry in r.table(data, "tiles").items():
        where = f"tiles.{name}"
        if not isinstance(entry, dict):
            raise r.fail(f"{where} must be a table with color and code", f"[tiles.{name}]")
        r.unknown(where, entry, _TILE_KEYS)
        game_tiles[name] = r.tile(
            where, entry.get("code"), entry.get("color"), name, f"[tiles.{name}]"
        )

    manifest: dict[str, int] = {}
    catalogue = tile_codes()
    for name, count in r.table(data, "manifest").items():
        where = f"manifest: tile {name}"
        if count == "unlimited":
            manifest[name] = UNLIMITED
        elif isinstance(count, int) and not isinstance(count, bool) and count >= 0:
            manifest[name] = count
        else:
            raise r.fail(f"{where}: count must be >= 0 or 'unlimited', not {count!r}", name)
        if name not in game_tiles and name not in catalogue:
            close = suggest(name, [*catalogue, *game_tiles])
            hint = f" (did you mean: {', '.join(close)}?)" if close else ""
            raise r.fail(
                f"{where}: no such tile in the game's [tiles] or the generic catalogue{hint}",
                f"{name} =",
            )

    corporations: list[Corporation] = []
    for i, entry in enumerate(r.array(data, "corporations")):
        where = f"corporations[{i}]"
        r.unknown(where, entry, _CORP_KEYS)
        sym = r.text(where, entry.get("sym"), "sym")
        where = f"corporation {sym}"
        home = r.coord(where, entry["home"]) if "home" in entry else None
        city = r.integer(where, entry["city"], "city") if "city" in entry else None
        if home is not None:
            if home not in hexes:
                raise r.fail(f"{where}: home {home} is not a hex of the map", f'"{home}"')
            n_cities = len(hexes[home].cities)
            if n_cities == 0:
                raise r.fail(f"{where}: home {home} has no city", f'"{home}"')
            if city is not None and not 0 <= city < n_cities:
                raise r.fail(f"{where}: home {home} has no city {city}", "city =")
        tokens = entry.get("tokens", [0])
        if not isinstance(tokens, list) or not all(
            isinstance(t, int) and not isinstance(t, bool) for t in tokens
        ):
            raise r.fail(f"{where}: tokens must be a list of costs")
        fp = entry.get("float_percent")
        corporations.append(
            Corporation(
                sym,
                r.text(where, entry.get("name"), "name"),
                home,
                city,
                tuple(tokens),
                r.text(where, entry.get("color", "black"), "color"),
                r.text(where, entry.get("text_color"), "text_color", optional=True) or None,
                None if fp is None else r.integer(where, fp, "float_percent"),
            )
        )

    companies: list[Company] = []
    for i, entry in enumerate(r.array(data, "companies")):
        where = f"companies[{i}]"
        r.unknown(where, entry, _COMPANY_KEYS)
        sym = r.text(where, entry.get("sym"), "sym")
        where = f"company {sym}"
        blocks = r.strings(where, entry.get("blocks", []), "blocks")
        for coord in blocks:
            if coord not in hexes:
                raise r.fail(f"{where}: blocked hex {coord} is not on the map", f'"{coord}"')
        mp = entry.get("min_players")
        companies.append(
            Company(
                sym,
                r.text(where, entry.get("name"), "name"),
                r.integer(where, entry.get("value"), "value"),
                r.integer(where, entry.get("revenue"), "revenue"),
                r.text(where, entry.get("description"), "description", optional=True) or None,
                blocks,
                None if mp is None else r.integer(where, mp, "min_players"),
            )
        )

    train_data = tuple(r.array(data, "trains"))
    phase_data = tuple(r.array(data, "phases"))
    trains = trains_from_game_data(train_data, phase_data, source=source)

    market_table = r.table(data, "market")
    rows = market_table.get("rows", [])
    if not isinstance(rows, list) or not all(
        isinstance(row, list) and all(isinstance(c, str) for c in row) for row in rows
    ):
        raise r.fail("market.rows must be a list of rows of strings", "rows")
    players = data.get("players")
    if players is not None and not (
        isinstance(players, list) and len(players) == 2 and all(isinstance(p, int) for p in players)
    ):
        raise r.fail("players must be [minimum, maximum]", "players")

    return Game(
        name=title,
        title=display,
        layout=layout,
        hexes=hexes,
        location_names=location_names,
        manifest=manifest,
        game_tiles=game_tiles,
        corporations=tuple(corporations),
        companies=tuple(companies),
        trains=trains,
        train_data=train_data,
        phase_data=phase_data,
        aliases=aliases,
        subtitle=r.text("game", data.get("subtitle"), "subtitle", optional=True) or None,
        designer=r.text("game", data.get("designer"), "designer", optional=True) or None,
        publisher=r.text("game", data.get("publisher"), "publisher", optional=True) or None,
        location=r.text("game", data.get("location"), "location", optional=True) or None,
        players=None if players is None else (players[0], players[1]),
        market=tuple(tuple(row) for row in rows),
        source=source,
        letter_is_x=x_axis == "letter",
    )


def _toml_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ------------------------------------------------------------------- the registry


def _data_files() -> dict[str, Any]:
    folder = resources.files("tilelay") / "games" / "data"
    return {
        entry.name[: -len(".toml")]: entry
        for entry in sorted(folder.iterdir(), key=lambda e: e.name)
        if entry.name.endswith(".toml")
    }


@cache
def _index() -> dict[str, str]:
    """Normalised name -> file stem, for every title, display title, alias and file stem."""
    out: dict[str, str] = {}
    for stem, entry in _data_files().items():
        source = f"tilelay/games/data/{entry.name}"
        try:
            data = tomllib.loads(entry.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError:
            data = {}  # reported in full by load_game
        names = [stem, str(data.get("title", stem)), str(data.get("display_title", ""))]
        names += [str(a) for a in data.get("aliases", [])]
        for n in names:
            key = normalise_name(n)
            if key and out.setdefault(key, stem) != stem:
                raise GameDataError(f"game name {n!r} is used by two games", source=source)
    return out


@cache
def _load_stem(stem: str) -> Game:
    entry = _data_files()[stem]
    return _read(entry.read_text(encoding="utf-8"), f"tilelay/games/data/{entry.name}")


@cache
def game_names() -> list[str]:
    """The short titles of the built-in games, sorted (e.g. ``["1830", "1889", ...]``)."""
    return sorted((_load_stem(stem).name for stem in _data_files()), key=str.lower)


def load_game(name: str) -> Game:
    """The built-in game called ``name`` (title, display title, alias or file name).

    Case, ``_``, ``-`` and spaces are ignored. Raises :class:`NotFoundError` with close names.
    """
    key = normalise_name(name)
    stem = _index().get(key)
    if stem is None:
        close = difflib.get_close_matches(key, list(_index()), n=5, cutoff=0.5)
        names = sorted({_load_stem(_index()[c]).name for c in close})
        raise NotFoundError(
            f"no game named {name!r} (games: {', '.join(game_names())})", suggestions=names
        )
    return _load_stem(stem)


def load_game_file(path: str | Path) -> Game:
    """Read a game definition from a TOML file of the built-in format."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as err:
        raise GameDataError(f"cannot read game file: {err.strerror}", source=str(p)) from None
    except UnicodeDecodeError as err:
        raise GameDataError(f"not UTF-8 text: {err.reason}", source=str(p)) from None
    return _read(text, str(p))


def find_games(pattern: str) -> list[Game]:
    """Built-in games matching ``pattern``: an exact name, else a substring, else close names.

    Names are compared as :func:`load_game` compares them. Returns games in name order; an
    empty list when nothing is close.
    """
    key = normalise_name(pattern)
    index = _index()
    if key in index:
        return [_load_stem(index[key])]
    stems = {stem for name, stem in index.items() if key and key in name}
    if not stems:
        stems = {index[c] for c in difflib.get_close_matches(key, list(index), n=5, cutoff=0.6)}
    return sorted((_load_stem(s) for s in stems), key=lambda g: g.name.lower())

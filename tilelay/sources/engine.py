"""Whole games read from a checkout of the 18xx.games engine's Ruby sources.

The engine (public repository tobymao/18xx) keeps each game in ``lib/engine/game/g_<name>/``:
``meta.rb`` (title, designers, player range…), ``map.rb`` (``LAYOUT``, ``AXES``, ``TILES``,
``LOCATION_NAMES``, ``HEXES``), ``entities.rb`` (``CORPORATIONS``, ``COMPANIES``, ``MINORS``)
and ``game.rb`` (the ``Game`` class: ``TRAINS``, ``PHASES``, ``MARKET``…). A game often builds
on another (``class Game < G1867::Game``, ``include G1846::Entities``). Generic tiles are in
``lib/engine/config/tile.rb``.

This module finds the games under a path and reads their data as constants, with
:mod:`tilelay.sources.ruby` (no Ruby is run). A constant whose value is computed in code is not
data: it is reported in :attr:`EngineGame.problems` and left out.

* :func:`find_games` — the games under a path (module names such as ``G1889``).
* :func:`read_game`, :func:`read_games` — :class:`EngineGame` records.
* :func:`generic_tiles` — the engine's generic tiles, ``{name: {"color", "code"}}``.
* :class:`EngineCheckout` — the same, sharing one parse of every file between calls.

An :class:`EngineGame` holds the data in the shape the engine's own JSON gives them
(``EngineGame.facts()`` is exactly that shape: symbols become strings, hash keys strings).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeAlias, cast

from tilelay.errors import NoGameError, NotDataError, RubySyntaxError
from tilelay.sources.ruby import (
    GameObject,
    Key,
    Problem,
    Program,
    Range,
    RubyFile,
    Symbol,
    Value,
    parse,
)

__all__ = [
    "DATA_CONSTANTS",
    "DATA_METHODS",
    "EngineCheckout",
    "EngineGame",
    "Found",
    "find_games",
    "generic_tiles",
    "read_game",
    "read_games",
]

Json: TypeAlias = Any
"""JSON-shaped data: ``None``, ``bool``, ``int``, ``float``, ``str``, lists and str-keyed dicts."""

DATA_CONSTANTS = (
    "LAYOUT",
    "AXES",
    "TILES",
    "LOCATION_NAMES",
    "HEXES",
    "CORPORATIONS",
    "MINORS",
    "COMPANIES",
    "TRAINS",
    "PHASES",
    "MARKET",
)
"""The constants of a game's class that :class:`EngineGame` reads."""

DATA_METHODS = (
    "game_hexes",
    "optional_hexes",
    "game_tiles",
    "optional_tiles",
    "game_location_names",
    "game_corporations",
    "game_minors",
    "game_companies",
    "game_trains",
    "game_phases",
    "game_market",
)
"""The engine's methods that turn a game's constants into its data when a game starts; a
game that overrides one computes that part in code (see :attr:`EngineGame.built_in_code`)."""

_TRAIN_KEYS = ("name", "distance", "price", "num", "rusts_on", "obsolete_on", "variants")
_PHASE_KEYS = ("name", "on", "tiles", "train_limit", "operating_rounds")
_CORPORATION_KEYS = ("sym", "name", "coordinates", "city", "tokens")
_COMPANY_KEYS = ("sym", "name", "value", "revenue")
_BASE_MODULE = "Engine::Game::Base"
_GENERIC_TABLES = (  # the tables the engine's Tile.for searches, in its order (not NONE)
    "WHITE",
    "YELLOW",
    "GREEN",
    "GREENBROWN",
    "BROWN",
    "BROWNGRAY",
    "GRAY",
    "RED",
    "BLUE",
    "BROWNSEPIA",
)


@dataclass(frozen=True, slots=True)
class Found:
    """Where a game's constant was read from: the module defining it, its file and line."""

    module: str
    source: str
    line: int

    def __str__(self) -> str:
        return f"{self.module} ({self.source}:{self.line})"


@dataclass(frozen=True, slots=True)
class OptionEffect:
    """What one optional rule of a game changes of its data as a game starts with it on and
    the other options off, where the game's own data methods (:data:`DATA_METHODS`) build
    that data and only build data: the engine's own code, run as data
    (:meth:`~tilelay.sources.ruby.Program.method_value` with the option)."""

    map: Mapping[str, Mapping[str, str] | None] = field(default_factory=dict)
    """The hexes whose tile differs from the map the game starts with
    (:meth:`EngineGame.played_map`), ``None`` where the map with the option has none: 18 Mex's
    Baja variant, 1873's AAG variant."""
    maps_by_players: Mapping[int, Mapping[str, Mapping[str, str] | None]] | None = None
    """With the option, for each number of players whose map differs from :attr:`map`'s (the
    most players'), the hexes that differ (as :attr:`EngineGame.maps_by_players`): 18GB's
    East-West map for two; ``None`` where they are the game's."""
    started: Mapping[str, Sequence[Mapping[str, Json]]] = field(default_factory=dict)
    """``TRAINS``, ``PHASES``, ``CORPORATIONS``, ``MINORS``, ``COMPANIES`` with the option,
    those that differ from the game's (:meth:`EngineGame.played`): 1856's 8-train variant's
    trains and phases."""
    market: Sequence[Json] | None = None
    """The stock market with the option, where it is built in code (1867's grid market)."""
    tiles: Mapping[str, Json] | None = None
    """``TILES`` with the option, where it is built in code (1888's North), or how many of
    each tile the game starts with where its ``optional_tiles`` hook takes some out (1860's
    two-player map, 1870's original tiles)."""
    counts_by_players: Mapping[str, Mapping[int, int]] | None = None
    """With the option's ``TRAINS``, how many of a train the game has by the number of
    players, where it counts them in code (as :attr:`EngineGame.counts_by_players`)."""

    @property
    def changes(self) -> tuple[str, ...]:
        """What the option changes: ``map``, ``trains``, ``phases``, ``corporations``,
        ``minors``, ``companies``, ``market``, ``tiles``."""
        out = ["map"] if self.map or self.maps_by_players is not None else []
        out.extend(c.lower() for c in self.started)
        if self.market is not None:
            out.append("market")
        if self.tiles is not None:
            out.append("tiles")
        return tuple(out)


@dataclass(frozen=True, slots=True)
class EngineGame:
    """One game of the engine, as its constants say.

    The data are JSON-shaped (symbols as strings) and read-only by convention. A constant that
    is not data is absent: its field keeps the empty default and :attr:`problems` says why.
    """

    name: str
    """The game's module, e.g. ``G1889``."""
    folder: str
    """Its folder, e.g. ``g_1889``."""
    module: str
    """The full name of its game class, e.g. ``Engine::Game::G1889::Game``."""
    title: str
    """The engine's title (``GAME_TITLE``, else the module name without ``G``)."""
    meta: Mapping[str, Json] = field(default_factory=dict)
    """The constants of its ``Meta`` module (``GAME_DISPLAY_TITLE``, ``PLAYER_RANGE``…)."""
    layout: str = ""
    """``flat`` or ``pointy`` (empty when not given)."""
    axes: Mapping[str, str] | None = None
    """``{"x": "number"|"letter", "y": …}`` when given."""
    hexes: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """The preprinted map: ``{coord: {"color", "code"}}``, one entry per coordinate."""
    tiles: Mapping[str, Json] | None = None
    """The tile manifest: name → count, ``"unlimited"``, or ``{"count", "color", "code"}``."""
    location_names: Mapping[str, str] = field(default_factory=dict)
    """``{coord: name}``."""
    trains: Sequence[Mapping[str, Json]] = ()
    """Train types as the engine writes them: ``name``, ``distance`` (a number, or a list of
    ``{"nodes", "pay", "visit"}`` for n+m and other mixed trains), ``price``, ``num``,
    ``rusts_on``, ``obsolete_on``, ``variants``… (every key the game gives)."""
    phases: Sequence[Mapping[str, Json]] = ()
    """``name``, ``on``, ``tiles``, ``train_limit``, ``operating_rounds``…"""
    corporations: Sequence[Mapping[str, Json]] = ()
    """``sym``, ``name``, home ``coordinates`` (and ``city`` where the hex has several),
    ``tokens``, ``color``, ``text_color``, ``logo``… (every key the game gives)."""
    minors: Sequence[Mapping[str, Json]] = ()
    """Minor companies with homes, where the game has them (same keys as corporations)."""
    companies: Sequence[Mapping[str, Json]] = ()
    """Private companies: ``sym``, ``name``, ``value``, ``revenue``, ``abilities``…"""
    market: Sequence[Json] = ()
    """The stock market: rows of cells (``"100p"``), or one row for a linear market."""
    found: Mapping[str, Found] = field(default_factory=dict)
    """Where each constant read came from (also the engine's defaults in ``Base``)."""
    built_in_code: Mapping[str, Found] = field(default_factory=dict)
    """The :data:`DATA_METHODS` the game overrides, where: that part of its data is computed
    when a game starts (an optional rule, a map variant, a map built in code), so the
    constants may not be the whole story."""
    started: Mapping[str, Sequence[Mapping[str, Json]]] = field(default_factory=dict)
    """What an overridden data method gives when a game starts with every optional rule off,
    for the methods that only build data (``{"CORPORATIONS": […]}`` for 18GA, whose
    corporations are a method): the game as it is played, where the constant is not."""
    started_map: Mapping[str, Mapping[str, str]] | None = None
    """The map as the game starts it with every optional rule off, where a data method
    (``optional_hexes``, ``game_hexes``) builds it and only builds data: 1824's, whose
    ``HEXES`` are those of 1837 it builds on; 1893's, which has no ``HEXES``. ``None`` where
    the map is :attr:`hexes`."""
    maps_by_players: Mapping[int, Mapping[str, Mapping[str, str] | None]] = field(
        default_factory=dict
    )
    """For each number of players whose map (built by ``optional_hexes`` for the players)
    differs from :meth:`played_map` (the most players'), the hexes that differ, ``None``
    where that map has none: 1824 Cisleithania's Budapest (G12) an offboard for two."""
    counts_by_players: Mapping[str, Mapping[int, int]] = field(default_factory=dict)
    """How many of a train the game has by the number of players, for the trains whose
    number it works out in code (``num_trains``) from the players alone: 1846's 2-trains,
    ``{3: 7, 4: 8, 5: 9}``; a train whose number is the same for every number of players has
    it as its ``num`` (:meth:`played`)."""
    max_exits: tuple[str, ...] = ()
    """``TILE_UPGRADES_MUST_USE_MAX_EXITS`` as the game's class has it (its own or an
    ancestor's: 1822's scenarios take 1822's ``cities``): the kinds of hex whose upgrades
    must have the most exits."""
    stubs_restricted: bool = False
    """Whether the game's class includes ``StubsAreRestricted`` (its own or an ancestor's):
    a tile laid must have track on the hex's stubs."""
    homes_each: Found | None = None
    """Where the game's own ``place_home_token`` places a home token at each of a
    corporation's ``coordinates`` (two home stations: 1894's Ouest at Le Havre and Paris,
    18Rhl's CCE, 1847AE's HLB), so that a corporation written with several homes starts in
    them all; ``None`` where the game does not (several homes are then a choice, or a
    rule of its code)."""
    started_tiles: Mapping[str, Json] | None = None
    """How many of each tile the game starts with (``unlimited`` as ``TILES`` has it), where
    its ``optional_tiles`` hook takes some of ``TILES`` out with the options off and that is
    data (1889's beginner tiles, 1893's grey-phase tiles); None: ``TILES``'."""
    option_effects: Mapping[str, OptionEffect] = field(default_factory=dict)
    """What each optional rule changes of the data, where the game's data methods build it
    (:class:`OptionEffect`; an option that changes nothing of it, or changes it in code that
    is not data, has none: a problem names the latter)."""
    problems: tuple[Problem, ...] = ()
    """Constants that are not data (or not in the expected shape), with file, line and why."""

    def played(self, constant: str) -> Sequence[Mapping[str, Json]]:
        """``TRAINS``, ``PHASES``, ``CORPORATIONS``, ``MINORS`` or ``COMPANIES`` as a game
        starts with: the data method's value (:attr:`started`) when it was read, else the
        constant's."""
        if constant in self.started:
            return self.started[constant]
        return {
            "TRAINS": self.trains,
            "PHASES": self.phases,
            "CORPORATIONS": self.corporations,
            "MINORS": self.minors,
            "COMPANIES": self.companies,
        }[constant]

    @property
    def display_title(self) -> str:
        """``GAME_DISPLAY_TITLE``, else the title."""
        shown = self.meta.get("GAME_DISPLAY_TITLE")
        return shown if isinstance(shown, str) else self.title

    def defines(self, constant: str) -> bool:
        """Whether the game itself (not the engine's ``Base`` defaults) defines ``constant``,
        as data or not."""
        where = self.found.get(constant)
        if where is not None:
            return where.module != _BASE_MODULE
        return any(p.constant.rsplit("::", 1)[-1] == constant for p in self.problems)

    def played_map(self) -> Mapping[str, Mapping[str, str]]:
        """The map as a game starts with: :attr:`started_map` where read, else
        :attr:`hexes`."""
        return self.hexes if self.started_map is None else self.started_map

    def problem(self, constant: str) -> Problem | None:
        """The problem reading ``constant`` (e.g. ``HEXES``), if any."""
        for p in self.problems:
            if p.constant.rsplit("::", 1)[-1] == constant:
                return p
        return None

    def facts(self) -> dict[str, Json]:
        """The data in the shape of the engine's own facts (``oracle/facts.rb``)."""
        return {
            "title": self.title,
            "module": self.module,
            "layout": self.layout,
            "axes": self.axes,
            "hexes": self.hexes,
            "tiles": self.tiles,
            "location_names": self.location_names,
            "trains": [_slice(t, _TRAIN_KEYS) for t in self.trains],
            "phases": [_slice(p, _PHASE_KEYS) for p in self.phases],
            "corporations": [_slice(c, _CORPORATION_KEYS) for c in self.corporations],
            "companies": [_slice(c, _COMPANY_KEYS) for c in self.companies],
        }


#: The data methods read when they only build data, and the constant each stands for.
_METHOD_CONSTANTS = {
    "game_trains": "TRAINS",
    "game_phases": "PHASES",
    "game_corporations": "CORPORATIONS",
    "game_minors": "MINORS",
    "game_companies": "COMPANIES",
}


def _slice(item: Mapping[str, Json], keys: Iterable[str]) -> dict[str, Json]:
    return {k: item[k] for k in keys if k in item}


def _json(value: Value) -> Json:
    """A value as Ruby's ``JSON.generate`` writes it: symbols as strings, keys as strings."""
    kind = type(value)
    if kind is str or kind is int or value is None:
        return value
    if kind is dict:
        assert isinstance(value, dict)
        return {
            k if type(k) is str else _json_key(k): v if type(v) is str else _json(v)
            for k, v in value.items()
        }
    if isinstance(value, dict):
        return {_json_key(k): _json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    if isinstance(value, Symbol):
        return str(value)
    if isinstance(value, Range):
        dots = "..." if value.exclusive else ".."
        return f"{_key_text(value.first)}{dots}{_key_text(value.last)}"
    return value


def _key_text(value: Value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | int | float):
        return str(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(json.dumps(_json(v)) for v in value) + "]"
    return str(_json(value))


def _json_key(key: Value) -> str:
    return _key_text(key)


def _snake(name: str) -> str:
    """``CitiesPlusTownsRouteDistanceStr`` → ``cities_plus_towns_route_distance_str``."""
    out: list[str] = []
    for i, c in enumerate(name):
        if c.isupper() and i and (name[i - 1].islower() or name[i - 1].isdigit()):
            out.append("_")
        out.append(c.lower())
    return "".join(out)


def _game_dir(path: Path) -> tuple[Path, Path | None]:
    """``(lib/engine/game, one g_<name> folder or None)`` for any accepted path."""
    path = path.resolve()
    if path.is_dir() and path.name.startswith("g_") and any(path.glob("*.rb")):
        return path.parent, path
    for candidate in (
        path / "lib" / "engine" / "game",
        path / "engine" / "game",
        path / "game",
        path,
    ):
        if candidate.is_dir() and any(candidate.glob("g_*/*.rb")):
            return candidate, None
    raise NoGameError(
        "no game of the 18xx.games engine here (expected a checkout, its lib, lib/engine, "
        "lib/engine/game or a g_<name> folder)",
        source=str(path),
    )


class EngineCheckout:
    """The games of one engine checkout, parsed once and read on demand.

    ``path`` is the checkout, its ``lib``, ``lib/engine``, ``lib/engine/game`` or one
    ``g_<name>`` folder (then only that game is listed; what it builds on is still read from
    beside it). Raises :class:`~tilelay.errors.NoGameError` when the path holds no game.
    """

    def __init__(self, path: str | Path) -> None:
        self.game_dir, self._only = _game_dir(Path(path))
        parents = self.game_dir.parents
        self.root = parents[2] if len(parents) > 2 else self.game_dir
        self.program = Program(missing=self._load_missing)
        self._folders: dict[str, Path] | None = None  # module name → folder
        self._siblings: dict[str, Path] | None = None
        self._loaded: set[Path] = set()
        self._parsed: dict[Path, RubyFile | None] = {}
        self._tried: set[str] = set()
        self.syntax_errors: list[RubySyntaxError] = []

    # ------------------------------------------------------------------ files

    def _name(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.root))
        except ValueError:
            return str(path)

    def _parse(self, path: Path) -> RubyFile | None:
        """The parse of ``path``, made once (``None`` after a syntax error, kept in
        :attr:`syntax_errors`)."""
        if path in self._parsed:
            return self._parsed[path]
        file: RubyFile | None = None
        try:
            file = parse(path, name=self._name(path))
        except RubySyntaxError as err:
            self.syntax_errors.append(err)
        self._parsed[path] = file
        return file

    def _load_file(self, path: Path) -> bool:
        if path in self._loaded:
            return False
        self._loaded.add(path)
        file = self._parse(path)
        if file is None:
            return False
        self.program.add(file)
        return True

    def _load_folder(self, folder: Path) -> bool:
        loaded = False
        for path in sorted(folder.glob("*.rb")):
            loaded = self._load_file(path) or loaded
        return loaded

    def _module_folders(self) -> dict[str, Path]:
        if self._folders is None:
            folders = [self._only] if self._only else sorted(self.game_dir.glob("g_*/"))
            self._folders = self._game_folders(folders)
        return self._folders

    def _game_folders(self, folders: list[Path]) -> dict[str, Path]:
        """``{module: folder}`` for game folders, the module read from each ``meta.rb``."""
        out: dict[str, Path] = {}
        for folder in folders:
            files = sorted(folder.glob("*.rb"))
            if not files:
                continue
            probe = folder / "meta.rb"
            if not probe.exists():
                stub = folder.with_suffix(".rb")
                probe = stub if stub.exists() else files[0]
            name = self._module_in(probe)
            if name:
                out[name] = folder
        return out

    def _module_in(self, path: Path) -> str | None:
        """The game module (``G1889``) a file defines, from its parse."""
        file = self._parse(path)
        if file is None:
            return None
        probe = Program()
        probe.add(file)
        for name in probe.modules():
            parts = name.split("::")
            if len(parts) >= 3 and parts[:2] == ["Engine", "Game"] and parts[2] != "Meta":
                return parts[2]
        return None

    def _load_missing(self, name: str) -> bool:
        """Load the files that may define ``name`` (``G1867``, ``Engine::Game::Base``,
        ``Engine::Config``…), as the engine's own ``require`` paths lay them out."""
        if name in self._tried:
            return False
        self._tried.add(name)
        parts = name.split("::")
        last = parts[-1]
        candidates: list[Path] = []
        folder = self._module_folders().get(last)
        if (
            folder is None
            and self._only is not None
            and (len(parts) == 1 or (parts[:2] == ["Engine", "Game"] and len(parts) == 3))
        ):
            folder = self._sibling_folders().get(last)
        if folder is not None:
            candidates.append(folder)
        if parts[0] == "Engine" and len(parts) > 1:
            path = self.game_dir.parent.joinpath(*(_snake(p) for p in parts[1:]))
            candidates += [path, path.with_suffix(".rb")]
        else:
            candidates.append(self.game_dir / f"{_snake(last)}.rb")
        loaded = False
        for path in candidates:
            if path.is_dir():
                loaded = self._load_folder(path) or loaded
            elif path.is_file():
                loaded = self._load_file(path) or loaded
        if loaded:
            self._tried.clear()
        return loaded

    def _sibling_folders(self) -> dict[str, Path]:
        """Every game folder beside the one given (what it builds on is read from there)."""
        if self._siblings is None:
            self._siblings = self._game_folders(sorted(self.game_dir.glob("g_*/")))
        return self._siblings

    # ------------------------------------------------------------------ games

    def games(self) -> list[str]:
        """The game modules found, sorted (``G1830``, ``G18Chesapeake``…)."""
        return sorted(self._module_folders())

    def load_all(self) -> None:
        """Parse every game folder now (reading many games is faster after it)."""
        for folder in self._module_folders().values():
            self._load_folder(folder)

    def read(self, name: str) -> EngineGame:
        """The game of module ``name`` (``G1889``; the folder name ``g_1889`` works too)."""
        folders = self._module_folders()
        if name not in folders:
            by_folder = {f.name: n for n, f in folders.items()}
            if name in by_folder:
                name = by_folder[name]
            else:
                raise NoGameError(f"no game {name} here", source=str(self.game_dir))
        self._load_folder(folders[name])
        return _read(self, name, folders[name])

    def read_all(self) -> list[EngineGame]:
        """Every game found, in :meth:`games` order."""
        self.load_all()
        return [self.read(name) for name in self.games()]

    def generic_tiles(self) -> dict[str, dict[str, str]]:
        """The engine's generic tiles (``lib/engine/config/tile.rb``), those its ``Tile.for``
        finds by name: ``{name: {"color", "code"}}``, colours as the tables name them
        (``greenbrown`` is green with a brown stripe…); a name in two tables is the first's."""
        path = self.game_dir.parent / "config" / "tile.rb"
        if not path.is_file():
            raise NoGameError("no generic tiles (config/tile.rb) here", source=str(path))
        self._load_file(path)
        module = "Engine::Config::Tile"
        out: dict[str, dict[str, str]] = {}
        for constant in _GENERIC_TABLES:
            try:
                value = self.program.value(module, constant)
            except (KeyError, NotDataError):
                continue
            if not isinstance(value, dict):
                continue
            for tile, code in value.items():
                if isinstance(tile, str) and isinstance(code, str) and tile not in out:
                    out[tile] = {"color": constant.lower(), "code": code}
        return out


def _hex_map(
    value: dict[Key, Value], where: Found, problems: list[Problem]
) -> dict[str, dict[str, str]]:
    """A map as the engine writes it (colour -> coordinates -> tile string) by coordinate;
    what is not such is added to ``problems``."""
    hexes: dict[str, dict[str, str]] = {}

    def problem(message: str) -> None:
        problems.append(Problem(where.source, where.line, f"{where.module}::HEXES", message))

    for color, group in value.items():
        if not isinstance(group, dict):
            problem(f"colour {color} does not hold a hash of hexes")
            continue
        for coords, code in group.items():
            if not isinstance(code, str):
                problem(f"hex {coords!r} has no tile string")
                continue
            for coord in coords if isinstance(coords, tuple) else (coords,):
                hexes[str(coord)] = {"color": str(color), "code": code}
    return hexes


def _player_counts(span: Json) -> range:
    """The numbers of players a ``PLAYER_RANGE`` ([least, most]) allows (none when it is
    not such)."""
    if isinstance(span, list) and len(span) == 2:
        least, most = span
        if isinstance(least, int) and isinstance(most, int) and 0 < least <= most <= 12:
            return range(least, most + 1)
    return range(0)


def _train_count(
    count_of: Callable[[int | None], Value], players: range
) -> tuple[int | None, dict[int, int]]:
    """How many of a train the game has with its options off (``count_of(n)``: what the
    engine's code gives for ``n`` players, or None unknown): one number, or one by the number
    of players (each of ``players``) where they differ; (None, {}) where that is not data."""
    by: dict[int, int] = {}
    try:
        for n in players:
            count = _count(count_of(n))
            if count is None:
                break
            by[n] = count
    except NotDataError:
        by = {}
    if by and len(by) == len(players):
        if len(set(by.values())) == 1:
            return next(iter(by.values())), {}
        return None, by
    try:
        return _count(count_of(None)), {}
    except NotDataError:
        return None, {}


def _counter(
    program: Program, klass: str, train: dict[str, Json], options: frozenset[str] = frozenset()
) -> Callable[[int | None], Value] | None:
    """How the game counts ``train`` in code (with the optional rules ``options`` on), by
    the number of players (see :func:`_train_count`), where it does: its
    ``num_trains(train)``, or (1824's ``init_train_handler``) its table ``num_trains_map``;
    else None."""
    if _own(program, klass, "num_trains"):
        arg = (cast(Value, train),)
        return lambda n: program.method_value(
            klass, "num_trains", options=options, args=arg, players=n
        )
    if _own(program, klass, "init_train_handler") and _own(program, klass, "num_trains_map"):
        name = str(train.get("name"))

        def from_table(n: int | None) -> Value:
            table = program.method_value(klass, "num_trains_map", options=options, players=n)
            return table.get(name) if isinstance(table, dict) else None

        return from_table
    return None


def _counted(
    program: Program,
    klass: str,
    trains: Sequence[Mapping[str, Json]],
    counts: range,
    options: frozenset[str] = frozenset(),
) -> tuple[list[dict[str, Json]], dict[str, dict[int, int]]]:
    """``trains`` with the number of each that the game counts in code (with ``options``
    on), where that is data: a number (1830's 6s), or one by the number of players (1846's
    2s: then the train has no ``num``, and the second value has them by its name)."""
    by_players: dict[str, dict[int, int]] = {}
    played = [dict(t) for t in trains]
    for train in played:
        count_of = _counter(program, klass, train, options)
        if count_of is not None:
            num, by = _train_count(count_of, counts)
            if by:
                # (the engine counts it by the players, whatever TRAINS says)
                by_players[str(train.get("name"))] = by
                train.pop("num", None)
            elif num is not None:
                train["num"] = num
    return played, by_players


def _own(program: Program, klass: str, method: str) -> bool:
    """Whether the game (not the engine's ``Base``) defines ``method``."""
    where = program.method_where(klass, method)
    return where is not None and where[0] != _BASE_MODULE


def _count(value: Value) -> int | None:
    """A number of trains as ``num_trains`` gives it (a whole number), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _starting_corporations(
    program: Program, klass: str, options: Json
) -> tuple[frozenset[str], dict[str, dict[str, Json]]] | None:
    """The corporations a game of the 1822 family may start with (its ``init_corporations``
    keeps those ``STARTING_CORPORATIONS`` names, or under its optional rule
    ``plus_expansion`` those of ``STARTING_CORPORATIONS_PLUS``; each changed as
    ``STARTING_CORPORATIONS_OVERRIDE`` says: its scenarios' smaller maps), where the game
    has these constants as data; else None. ``options``: the game's ``OPTIONAL_RULES``."""
    if not _own(program, klass, "init_corporations"):
        return None
    lists = ["STARTING_CORPORATIONS"]
    offered = (
        [o.get("sym") for o in options if isinstance(o, dict)] if isinstance(options, list) else []
    )
    if "plus_expansion" in offered:
        lists.append("STARTING_CORPORATIONS_PLUS")
    names: list[str] = []
    for constant in lists:
        try:
            value = program.value(klass, constant)
        except (KeyError, NotDataError):
            return None
        if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
            return None
        names += [str(n) for n in value]
    changes: dict[str, dict[str, Json]] = {}
    try:
        overrides = program.value(klass, "STARTING_CORPORATIONS_OVERRIDE")
    except (KeyError, NotDataError):
        overrides = None
    if isinstance(overrides, dict):
        for sym, change in overrides.items():
            if isinstance(change, dict):
                changes[str(sym)] = {str(k): _json(v) for k, v in change.items()}
    return frozenset(str(n) for n in names), changes


def _started_map(
    program: Program,
    klass: str,
    built: Mapping[str, Found],
    written: Found | None,
    hexes: dict[str, dict[str, str]],
    problems: list[Problem],
    counts: range = range(0),
    by_players: dict[int, dict[str, Mapping[str, str] | None]] | None = None,
) -> dict[str, dict[str, str]] | None:
    """The map as a game starts it with its options off, where a data method builds it
    (``built``: the game's own ``optional_hexes`` or ``game_hexes``) and only builds data,
    and it differs from ``hexes`` (its ``HEXES``, read from ``written``): 1824's, whose
    ``HEXES`` are 1837's; None otherwise, a problem saying why where the method is not data.
    A map built for the number of players (one of ``counts``) is the most players' (as a
    game's trains are), and the hexes that differ for fewer go to ``by_players`` (None: not
    on that map): 1824 Cisleithania's Budapest, 18GB's maps for two."""
    method = "optional_hexes" if "optional_hexes" in built else "game_hexes"
    where = built.get(method)
    if where is None:
        return None

    def problem(message: str) -> None:
        problems.append(Problem(where.source, where.line, f"{where.module}#{method}", message))

    try:
        value = program.method_value(klass, "optional_hexes")
    except NotDataError as err:
        values = _maps_by_players(program, klass, counts)
        if values is not None:
            most = max(values)
            # (what of the map read is not a map is the game's problem; the others' only
            # name the hexes that differ)
            started = _hex_map(values[most], where, problems)
            if by_players is not None:
                by_players.update(_by_players(values, started, where))
            return started if started != hexes else None
        instead = (
            f"the map read is {written.module}::HEXES, which may not be the one played"
            if hexes and written is not None
            else "no map is read"
        )
        problem(f"builds the map as a game starts ({err}); {instead}")
        return None
    if not isinstance(value, dict):
        problem("gives no hash of colours as a game starts; the map read is HEXES")
        return None
    started = _hex_map(value, where, problems)
    return started if started != hexes else None


def _differ(
    new: Mapping[str, Mapping[str, str]], old: Mapping[str, Mapping[str, str]]
) -> dict[str, Mapping[str, str] | None]:
    """The hexes of map ``new`` that differ from ``old``'s (None: not on ``new``), sorted."""
    return {c: new.get(c) for c in sorted({*new, *old}) if new.get(c) != old.get(c)}


def _by_players(
    values: Mapping[int, dict[Key, Value]], mapped: Mapping[str, Mapping[str, str]], where: Found
) -> dict[int, dict[str, Mapping[str, str] | None]]:
    """For each number of players whose map (``values``: as the engine builds them) differs
    from ``mapped`` (the most players'), the hexes that differ."""
    out: dict[int, dict[str, Mapping[str, str] | None]] = {}
    for n, value in sorted(values.items()):
        differ = _differ(_hex_map(value, where, []), mapped)
        if differ:
            out[n] = differ
    return out


def _maps_by_players(
    program: Program, klass: str, counts: range, options: frozenset[str] = frozenset()
) -> dict[int, dict[Key, Value]] | None:
    """What the game's ``optional_hexes`` builds for each number of players of ``counts``
    (with the optional rules ``options`` on): a hash of colours each (None where some
    number's is not data or no such hash, or no number of players is allowed)."""
    out: dict[int, dict[Key, Value]] = {}
    for n in counts:
        try:
            value = program.method_value(klass, "optional_hexes", options=options, players=n)
        except NotDataError:
            return None
        if not isinstance(value, dict):
            return None
        out[n] = value
    return out or None


def _map_values(
    program: Program, klass: str, counts: range, options: frozenset[str]
) -> tuple[dict[Key, Value], dict[int, dict[Key, Value]]] | None:
    """What the game's ``optional_hexes`` builds with ``options`` on: the map (of the most
    players, where it is built for them) and, where it is built for the players, each
    number's; None where it is not data."""
    try:
        value = program.method_value(klass, "optional_hexes", options=options)
    except NotDataError:
        values = _maps_by_players(program, klass, counts, options)
        if values is None:
            return None
        return values[max(values)], values
    return (value, {}) if isinstance(value, dict) else None


def _counts_of(tiles: Mapping[str, Json]) -> dict[str, Json]:
    """How many of each tile ``TILES`` gives (a tile's ``count``, 1 where it gives none)."""
    return {
        name: spec.get("count", 1) if isinstance(spec, dict) else spec
        for name, spec in tiles.items()
    }


def _tiles_left(
    program: Program, klass: str, tiles: Mapping[str, Json], options: frozenset[str]
) -> dict[str, Json] | None:
    """How many of each tile of ``tiles`` are left once the game's ``optional_tiles`` (with
    the optional rules ``options`` on) has taken some out: the hook runs on the game's tiles,
    each an object with its ``id`` (``57-0``, ``57-1``…) and ``name``, as the engine makes
    them; an unlimited tile is one object. None where the hook is not data."""
    counts = _counts_of(tiles)
    objects: list[Value] = []
    for name, count in counts.items():
        copies = count if isinstance(count, int) and count > 0 else 1
        objects.extend(GameObject(id=f"{name}-{i}", name=name) for i in range(copies))
    try:
        given = {"@tiles": objects, "@all_tiles": list(objects)}
        after = program.method_state(klass, "optional_tiles", given, options=options)
    except (KeyError, NotDataError):
        return None
    left = after.get("@tiles")
    if not isinstance(left, list):
        return None
    kept: dict[str, int] = {}
    for item in left:
        if isinstance(item, GameObject):
            kept[str(item["name"])] = kept.get(str(item["name"]), 0) + 1
    out: dict[str, Json] = {}
    for name, count in counts.items():
        if isinstance(count, int):
            out[name] = kept.get(name, 0)
        else:  # (unlimited: one object, kept or not)
            out[name] = count if name in kept else 0
    return out


def _mentions(program: Program, klass: str, method: str, option: str) -> bool:
    """Whether the game's ``method`` asks for the optional rule ``option`` (``:option`` in
    its text, or a method of the game's it calls that does: 1860's ``option_23p_map?``,
    1824's ``option_goods_time``)."""
    text = program.method_text(klass, method) or ""
    mark = re.compile(rf":{re.escape(option)}\b")
    if mark.search(text):
        return True
    for called in set(re.findall(r"\b([a-z_][a-z0-9_]*\??)", text)) - {method}:
        if mark.search(program.method_text(klass, called) or ""):
            return True
    return False


#: What each data method builds, as a problem names it.
_CHANGED = {
    "game_trains": "the trains",
    "game_phases": "the phases",
    "game_corporations": "the corporations",
    "game_minors": "the minors",
    "game_companies": "the private companies",
    "game_market": "the stock market",
    "game_tiles": "the tiles",
}


def _option_names(rules: Json) -> list[str]:
    """The names (``sym``) of a game's ``OPTIONAL_RULES``."""
    if not isinstance(rules, list):
        return []
    return [str(r["sym"]).lstrip(":") for r in rules if isinstance(r, dict) and r.get("sym")]


def _option_effects(
    program: Program,
    klass: str,
    built: Mapping[str, Found],
    rules: Json,
    played: Mapping[str, Mapping[str, str]],
    by_players: Mapping[int, Mapping[str, Mapping[str, str] | None]],
    trains: tuple[
        Sequence[Mapping[str, Json]], Sequence[Mapping[str, Json]], Mapping[str, Mapping[int, int]]
    ],
    tile_counts: tuple[Mapping[str, Json], Mapping[str, Json] | None],
    counts: range,
    problems: list[Problem],
) -> dict[str, OptionEffect]:
    """What each optional rule changes of the game's data as a game starts with it (and no
    other option), where the game's own data methods (``built``) build that data and only
    build data (:class:`OptionEffect`), and the numbers of trains the game counts in code
    (``trains``: the game's trains as written, as counted, and by the players); a problem
    names each option whose change is written in code that is not data (1860's two-player
    map), which is not applied; and the tiles (``tile_counts``: ``TILES``, and the counts
    the game starts with where its ``optional_tiles`` takes some out)."""
    unplayed, played_trains, counted_by = trains
    all_tiles, started_tiles = tile_counts
    names = _option_names(rules)
    # what each data method gives with the options off (None: not data), once for them all
    off: dict[str, Value] = {}
    for data_method in _CHANGED:
        if data_method in built and names:
            try:
                off[data_method] = program.method_value(klass, data_method)
            except (KeyError, NotDataError):
                off[data_method] = None
    map_method = next((m for m in ("optional_hexes", "game_hexes") if m in built), None)
    map_off = _map_values(program, klass, counts, frozenset()) if map_method and names else None
    out: dict[str, OptionEffect] = {}
    for option in names:
        on = frozenset({option})

        def problem(method: str, what: str, option: str = option, at: Found | None = None) -> None:
            where = built[method] if at is None else at
            problems.append(
                Problem(
                    where.source,
                    where.line,
                    f"{where.module}#{method}",
                    f"option {option}: changes {what} in code that is not data; "
                    "the option does not change it here",
                )
            )

        def value_with(
            method: str, on: frozenset[str] = on, option: str = option
        ) -> tuple[Value, bool]:
            """The method's value with the option on (None where it is not data: then a
            problem, where the value without it is data or the method asks for it), and
            whether that differs from its value without."""
            try:
                value = program.method_value(klass, method, options=on)
            except (KeyError, NotDataError):
                value = None
            if value is None and (
                off[method] is not None or _mentions(program, klass, method, option)
            ):
                problem(method, _CHANGED[method])
            return value, value is not None and value != off[method]

        changed: dict[str, Mapping[str, str] | None] = {}
        players_maps: dict[int, dict[str, Mapping[str, str] | None]] | None = None
        if map_method is not None:
            values = _map_values(program, klass, counts, on)
            if values is None:
                if map_off is not None or _mentions(program, klass, map_method, option):
                    problem(map_method, "the map")
            else:
                where = built[map_method]
                most, each = values
                mapped = _hex_map(most, where, [])
                changed = _differ(mapped, played)
                players_maps = _by_players(each, mapped, where)
                if players_maps == by_players and not changed:
                    players_maps = None
        lists: dict[str, list[dict[str, Json]]] = {}
        for method, constant in _METHOD_CONSTANTS.items():
            if method not in built:
                continue
            value, differs = value_with(method)
            if differs and isinstance(value, list) and all(isinstance(v, dict) for v in value):
                lists[constant] = [cast(dict[str, Json], _json(v)) for v in value]
        market: list[Json] | None = None
        if "game_market" in built:
            value, differs = value_with("game_market")
            if differs and isinstance(value, list):
                market = cast(list[Json], _json(value))
        tiles: dict[str, Json] | None = None
        if "game_tiles" in built:
            value, differs = value_with("game_tiles")
            if differs and isinstance(value, dict):
                tiles = cast(dict[str, Json], _json(value))
        # the trains counted with the option (1866's scenario by its options)
        counted, by = _counted(program, klass, lists.get("TRAINS", unplayed), counts, on)
        if (counted, by) != (list(played_trains), dict(counted_by)):
            lists["TRAINS"] = counted
        else:
            lists.pop("TRAINS", None)
        train_counts = by if "TRAINS" in lists else None
        if _own(program, klass, "init_tiles") and _mentions(program, klass, "init_tiles", option):
            # (the game makes its tiles in code of its own: 1824's Goods Time adds some)
            defined = program.method_where(klass, "init_tiles")
            if defined is not None:
                problem("init_tiles", "the tiles", at=Found(*defined))
        if "optional_tiles" in built:
            # the hook that takes tiles out of the game's as it starts, with the option
            kept = _tiles_left(program, klass, tiles if tiles is not None else all_tiles, on)
            base = started_tiles if started_tiles is not None else _counts_of(all_tiles)
            if kept is None:
                if _mentions(program, klass, "optional_tiles", option):
                    problem("optional_tiles", "the tiles")
            elif kept != base:
                tiles = kept
        effect = OptionEffect(changed, players_maps, lists, market, tiles, train_counts)
        if effect.changes:
            out[option] = effect
    return out


def _read(checkout: EngineCheckout, name: str, folder: Path) -> EngineGame:
    program = checkout.program
    base = f"Engine::Game::{name}"
    klass = f"{base}::Game"
    meta_module = f"{base}::Meta"
    problems: list[Problem] = []
    found: dict[str, Found] = {}
    for err in checkout.syntax_errors:  # in this game's folder or in the engine's shared files
        if err.source and (f"/{folder.name}/" in err.source or "/g_" not in err.source):
            problems.append(Problem(err.source, err.line or 0, "", err.message))

    def read(module: str, constant: str) -> Value:
        if not program.defines(module, constant):
            return None
        where = program.where(module, constant)
        try:
            value = program.value(module, constant)
        except NotDataError as err:
            problems.append(Problem.of(err))
            return None
        if where is not None:
            found[constant] = Found(*where)
        return value

    meta: dict[str, Json] = {}
    if program.has_module(meta_module):
        for constant in program.constant_names(meta_module):
            if program.defines(meta_module, constant):
                try:
                    meta[constant] = _json(program.value(meta_module, constant))
                except NotDataError as err:
                    problems.append(Problem.of(err))
    title = meta.get("GAME_TITLE")
    if not isinstance(title, str):
        title = name[1:]

    if not program.has_module(klass):
        problems.append(Problem(checkout._name(folder), 0, klass, "no Game class"))
        return EngineGame(name, folder.name, klass, title, meta, problems=tuple(problems))

    raw = {constant: read(klass, constant) for constant in DATA_CONSTANTS}
    built: dict[str, Found] = {}
    for method in DATA_METHODS:
        defined = program.method_where(klass, method)
        if defined is not None and defined[0] != _BASE_MODULE:
            built[method] = Found(*defined)

    def shape(constant: str, ok: bool, what: str) -> bool:
        if raw[constant] is None or ok:
            return raw[constant] is not None
        where = found.pop(constant)
        problems.append(Problem(where.source, where.line, f"{where.module}::{constant}", what))
        return False

    hexes: dict[str, dict[str, str]] = {}
    if shape("HEXES", isinstance(raw["HEXES"], dict), "not a hash of colours"):
        assert isinstance(raw["HEXES"], dict)
        hexes = _hex_map(raw["HEXES"], found["HEXES"], problems)

    counts = _player_counts(meta.get("PLAYER_RANGE"))
    maps_by_players: dict[int, dict[str, Mapping[str, str] | None]] = {}
    started_map = _started_map(
        program, klass, built, found.get("HEXES"), hexes, problems, counts, maps_by_players
    )

    def listed(constant: str) -> list[dict[str, Json]]:
        value = raw[constant]
        ok = isinstance(value, list) and all(isinstance(v, dict) for v in value)
        if not shape(constant, ok, "not a list of hashes"):
            return []
        return [_json(v) for v in value] if isinstance(value, list) else []

    # a data method that only builds data with the game's options off is read as the game
    # starts it (18GA's corporations, 1856's trains)
    started: dict[str, list[dict[str, Json]]] = {}
    for method, constant in _METHOD_CONSTANTS.items():
        if method not in built:
            continue
        try:
            value = program.method_value(klass, method)
        except (KeyError, NotDataError):
            continue
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            started[constant] = [_json(v) for v in value]

    corporations = listed("CORPORATIONS")
    starting = _starting_corporations(program, klass, meta.get("OPTIONAL_RULES"))
    if starting is not None:
        kept, changes = starting
        started["CORPORATIONS"] = [
            {**c, **changes.get(str(c.get("sym")), {})}
            for c in started.get("CORPORATIONS", corporations)
            if c.get("sym") in kept
        ]

    exits_kinds = read(klass, "TILE_UPGRADES_MUST_USE_MAX_EXITS")
    max_exits = (
        tuple(str(k) for k in exits_kinds if isinstance(k, str))
        if isinstance(exits_kinds, list)
        else ()
    )
    stubs_restricted = any(
        anc.rsplit("::", 1)[-1] == "StubsAreRestricted" for anc in program.ancestors(klass)
    )
    homes_each: Found | None = None
    placing = program.method_where(klass, "place_home_token")
    if placing is not None and placing[0] != _BASE_MODULE:
        text = program.method_text(klass, "place_home_token") or ""
        if re.search(r"\bcoordinates\.each\b", text):
            homes_each = Found(*placing)

    trains = listed("TRAINS")
    # how many of each train the game counts in code, where that is data with the options
    # off (1830's 6s), by the number of players where it depends on them (1846's 2s)
    unplayed = started.get("TRAINS", trains)
    played, by_players = _counted(program, klass, unplayed, counts)
    if played != unplayed:
        started["TRAINS"] = played

    if raw["TILES"] == []:  # a game without tiles (Rolling Stock) writes an empty list
        raw["TILES"] = {}
    is_hash = isinstance(raw["TILES"], dict)
    tiles = _json(raw["TILES"]) if shape("TILES", is_hash, "not a hash") else None
    # the tiles a game starts with, where its optional_tiles hook takes some out with the
    # options off (1889's beginner tiles, 1893's)
    started_tiles: dict[str, Json] | None = None
    if "optional_tiles" in built and isinstance(tiles, dict):
        started_tiles = _tiles_left(program, klass, tiles, frozenset())
        if started_tiles == _counts_of(tiles):
            started_tiles = None

    option_effects = _option_effects(
        program,
        klass,
        built,
        meta.get("OPTIONAL_RULES"),
        started_map if started_map is not None else hexes,
        maps_by_players,
        (unplayed, played, by_players),
        (tiles if isinstance(tiles, dict) else {}, started_tiles),
        counts,
        problems,
    )

    layout = raw["LAYOUT"]
    axes = _json(raw["AXES"])
    names = raw["LOCATION_NAMES"]
    market = raw["MARKET"]
    return EngineGame(
        name=name,
        folder=folder.name,
        module=klass,
        title=title,
        meta=meta,
        layout="" if layout is None else str(layout),
        axes=axes if isinstance(axes, dict) else None,
        hexes=hexes,
        tiles=tiles,
        location_names=_json(names) if isinstance(names, dict) else {},
        trains=trains,
        phases=listed("PHASES"),
        corporations=corporations,
        minors=listed("MINORS"),
        companies=listed("COMPANIES"),
        market=_json(market) if isinstance(market, list) else [],
        found=found,
        built_in_code=built,
        started=started,
        started_map=started_map,
        maps_by_players=maps_by_players,
        counts_by_players=by_players,
        homes_each=homes_each,
        max_exits=max_exits,
        stubs_restricted=stubs_restricted,
        started_tiles=started_tiles,
        option_effects=option_effects,
        problems=tuple(problems),
    )


def find_games(path: str | Path) -> list[str]:
    """The game modules of the engine checkout (or folder) at ``path``, sorted.

    Raises :class:`~tilelay.errors.NoGameError` when the path holds no game.
    """
    return EngineCheckout(path).games()


def read_game(path: str | Path, name: str | None = None) -> EngineGame:
    """Read one game: ``name`` under a checkout, or the one ``g_<name>`` folder ``path`` is."""
    checkout = EngineCheckout(path)
    if name is None:
        games = checkout.games()
        if len(games) != 1:
            raise NoGameError(
                f"{len(games)} games here; name one (e.g. {games[0] if games else 'G1889'})",
                source=str(path),
            )
        name = games[0]
    return checkout.read(name)


def read_games(path: str | Path) -> list[EngineGame]:
    """Read every game under ``path``."""
    return EngineCheckout(path).read_all()


def generic_tiles(path: str | Path) -> dict[str, dict[str, str]]:
    """The engine's generic tiles under ``path`` (see :meth:`EngineCheckout.generic_tiles`)."""
    return EngineCheckout(path).generic_tiles()

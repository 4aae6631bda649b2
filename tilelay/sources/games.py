"""Games of other engines as tilelay games, found under the paths a user gives.

A path may be a checkout of the 18xx.games engine (its root, ``lib``, ``lib/engine`` or
``lib/engine/game``, or one ``g_<name>`` folder), a Rails ``data/`` directory or one Rails
game's directory, a GE18XX XML directory or one GE18XX game's directory
(:data:`FORMAT_READERS` lists the formats known). :func:`discover` lists the games a path
holds as registry entries (:class:`tilelay.games.registry.GameEntry`), each loaded on first use;
:func:`add_paths` makes them known to :func:`tilelay.games.load_game` and everything that
takes a game (the command line's ``--games``, the ``TILELAY_GAMES`` variable).

Reading is cached on disk (:mod:`tilelay.sources.cache`), keyed by the sources' contents, so a
second start lists and loads the games without parsing their sources again.

The 18xx.games engine's data (:class:`~tilelay.sources.engine.EngineGame`) becomes game data
(:mod:`tilelay.games.data`) here: hexes grouped by colour and tile string, the manifest with
the game's own tiles, corporations and minors with their homes, private companies with the
hexes they block, trains and phases as the engine writes them, the market. What tilelay
cannot use is listed in :attr:`Game.problems`, each with its file and line.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from tilelay.catalogue import tile_codes
from tilelay.errors import NoGameError, ReadWarning, TilelayError
from tilelay.games import Game, game_from_data
from tilelay.games.model import changed_map, split_changes
from tilelay.games.registry import GameEntry, add_entries, add_warnings
from tilelay.games.toml import load_game_file
from tilelay.sources import cache
from tilelay.sources.engine import EngineCheckout, EngineGame, OptionEffect
from tilelay.sources.engine_codes import city_count, parse_engine_code, part_positions
from tilelay.sources.ge18xx import find_ge18xx_games, load_ge18xx_game
from tilelay.sources.rails import find_rails_games, load_rails_game
from tilelay.tile import Color

__all__ = [
    "ENVIRONMENT_VARIABLE",
    "FORMAT_READERS",
    "SourceReader",
    "add_paths",
    "discover",
    "engine_game",
    "engine_game_data",
    "paths_from_environment",
]

#: The environment variable naming game sources (paths joined as in ``PATH``).
ENVIRONMENT_VARIABLE = "TILELAY_GAMES"


class SourceReader:
    """One format's games under a path: what they are called and how to load each.

    ``games()`` lists ``(key, names)`` pairs (the first name is the title) and ``load(key)``
    reads one game. ``files()`` are the files whose contents key the cache.
    """

    format = ""

    def __init__(self, path: Path) -> None:
        self.path = path

    def files(self) -> list[Path]:
        raise NotImplementedError

    def games(self) -> list[tuple[str, list[str]]]:
        raise NotImplementedError

    def load(self, key: str) -> Game:
        raise NotImplementedError

    def source(self, key: str) -> str:
        """Where game ``key`` is read from (shown beside it)."""
        return str(self.path / key)


# ------------------------------------------------------------------ the 18xx.games engine


def _text(value: object) -> str | None:
    if isinstance(value, str) and value:
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value) and value:
        return ", ".join(value)
    return None


def _engine_tile(color: str, code: str) -> dict[str, Any]:
    """A hex group's or game tile's entry: the engine's string, or the tile read from it when
    its nodes need the engine's part numbers (:mod:`tilelay.sources.engine_codes`)."""
    positions = part_positions(code)
    if positions == list(range(len(positions))):
        return {"color": color, "code": code}
    try:
        main, stripe = Color.parse(color)
        tile = parse_engine_code(code, color=main)
    except (TilelayError, ValueError):
        return {"color": color, "code": code}  # said by the game data's reader
    return {"tile": replace(tile, stripe=stripe) if stripe is not None else tile}


def _hex_groups(hexes: Mapping[str, Mapping[str, str]]) -> list[dict[str, Any]]:
    groups: dict[tuple[str, str], list[str]] = {}
    for coord, spec in hexes.items():
        key = (str(spec.get("color", "white")) or "white", str(spec.get("code", "")))
        groups.setdefault(key, []).append(coord)
    return [
        {**_engine_tile(color, code), "coords": coords} for (color, code), coords in groups.items()
    ]


def _company_blocks(company: Mapping[str, Any]) -> list[str]:
    blocks: list[str] = []
    for ability in company.get("abilities") or []:
        if isinstance(ability, Mapping) and ability.get("type") == "blocks_hexes":
            blocks.extend(str(h) for h in ability.get("hexes") or [])
    return blocks


def _plain(value: Any) -> Any:
    """``value`` as plain data a TOML file can hold (``None`` where it cannot)."""
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        items = [_plain(v) for v in value]
        return [v for v in items if v is not None]
    if isinstance(value, Mapping):
        out = {str(k): _plain(v) for k, v in value.items()}
        return {k: v for k, v in out.items() if v is not None}
    return None


def _plain_abilities(entry: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [
        _plain(a)
        for a in entry.get("abilities") or []
        if isinstance(a, Mapping) and isinstance(a.get("type"), str)
    ]


def engine_game_data(game: EngineGame) -> tuple[dict[str, Any], list[ReadWarning]]:
    """The game data (:mod:`tilelay.games.data`) of an engine game, and what was adapted."""
    where = game.found.get("HEXES")
    source = where.source if where is not None else game.folder

    def at(constant: str) -> tuple[str, int | None]:
        """Where ``constant`` is written (the map's file, where it was not read)."""
        found = game.found.get(constant)
        return (found.source, found.line) if found is not None else (source, None)

    notes: list[ReadWarning] = []
    meta = game.meta
    aliases = [a for a in meta.get("GAME_ALIASES") or [] if isinstance(a, str)]
    played = game.played_map()
    hex_groups = _hex_groups(played)
    data: dict[str, Any] = {
        "title": game.title,
        "display_title": game.display_title,
        "aliases": [*aliases, game.name[1:] if game.name.startswith("G") else game.name],
        "layout": game.layout or "flat",
        "hexes": hex_groups,
        "location_names": dict(game.location_names),
    }
    if game.maps_by_players:
        # (the map built for fewer players: the hexes that differ, and those it has not)
        data["hexes_by_players"] = _by_players_data(game.maps_by_players)
    for key, meta_key in (
        ("subtitle", "GAME_SUBTITLE"),
        ("designer", "GAME_DESIGNER"),
        ("publisher", "GAME_PUBLISHER"),
        ("location", "GAME_LOCATION"),
        ("rules_url", "GAME_RULES_URL"),
    ):
        value = _text(meta.get(meta_key))
        if value is not None:
            data[key] = value
    players = meta.get("PLAYER_RANGE")
    if isinstance(players, list) and len(players) == 2 and all(isinstance(p, int) for p in players):
        data["players"] = players
    if game.axes:
        data["axes"] = dict(game.axes)
    own: dict[str, Any] = {}
    started = game.started_tiles or {}
    # (without a tile the game takes out as it starts, with its options off: 1889's
    # beginner tiles, which an option gives back)
    manifest = {
        name: count
        for name, count in _tile_counts(game.tiles or {}, own).items()
        if started.get(name, count) != 0
    }
    data["manifest"] = manifest
    if own:
        data["tiles"] = own
    data["corporations"] = _corporations_data(
        game, game.played("CORPORATIONS"), game.played("MINORS"), played, notes, at
    )
    data["companies"] = _companies_data(game.played("COMPANIES"))
    data["trains"] = _trains_data(game.played("TRAINS"), game.counts_by_players, notes, at)
    data["phases"] = _phases_data(game.played("PHASES"))
    data["market"] = _market_data(game.market)
    options = _options(meta.get("OPTIONAL_RULES"))
    for option in options:
        effect = game.option_effects.get(option["name"])
        if effect is not None:
            option.update(_option_effect_data(game, effect, data, played, notes, at))
    if options:
        data["options"] = options
    return data, notes


def _tile_counts(tiles: Mapping[str, Any], own: dict[str, Any]) -> dict[str, Any]:
    """How many of each tile the engine's ``TILES`` give (a number, or ``unlimited``); the
    tiles defined there (a table with a code) go to ``own``, the game's own tiles, where
    they are not yet."""
    counts: dict[str, Any] = {}
    for name, spec in tiles.items():
        if isinstance(spec, Mapping):
            if name not in own:
                own[name] = _engine_tile(str(spec.get("color", "white")), str(spec.get("code", "")))
            counts[name] = spec.get("count", 1)
        else:
            counts[name] = spec
    return counts


def _phases_data(entries: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The engine's phases as game data (a key the engine gives nil left out)."""
    return [{k: v for k, v in p.items() if v is not None} for p in entries]


def _market_data(market: Sequence[Any]) -> dict[str, Any]:
    """The engine's stock market as game data (a linear market: one row)."""
    rows = [r if isinstance(r, list) else [r] for r in market]
    return {"rows": [[str(c) for c in row] for row in rows]}


def _changed_data(changed: Mapping[str, Mapping[str, str] | None]) -> dict[str, Any]:
    """Hexes that differ from a map's as game data: ``hexes`` (groups) and ``removed``."""
    given, removed = split_changes(changed)
    out: dict[str, Any] = {"hexes": _hex_groups(given)} if given else {}
    if removed:
        out["removed"] = removed
    return out


def _by_players_data(
    by_players: Mapping[int, Mapping[str, Mapping[str, str] | None]],
) -> dict[str, Any]:
    return {str(n): _changed_data(changed) for n, changed in by_players.items()}


def _option_effect_data(
    game: EngineGame,
    effect: OptionEffect,
    data: dict[str, Any],
    played: Mapping[str, Mapping[str, str]],
    notes: list[ReadWarning],
    at: Callable[[str], tuple[str, int | None]],
) -> dict[str, Any]:
    """What an optional rule changes (:class:`~tilelay.sources.engine.OptionEffect`) as the
    game data of the option (:class:`~tilelay.games.GameOption`): its hexes, its map by the
    players, its trains and phases (both, where it changes either), corporations, companies
    and market, and the tiles it adds to and takes from the manifest (the tiles the game
    does not define added to the game's own, ``data``)."""
    out = _changed_data(effect.map)
    mapped = changed_map(played, effect.map)
    if effect.maps_by_players is not None:
        out["hexes_by_players"] = _by_players_data(effect.maps_by_players)
    started = effect.started
    if "TRAINS" in started or "PHASES" in started:
        by = effect.counts_by_players
        out["trains"] = _trains_data(
            started.get("TRAINS", game.played("TRAINS")),
            game.counts_by_players if by is None else by,
            notes,
            at,
        )
        out["phases"] = _phases_data(started.get("PHASES", game.played("PHASES")))
    if "CORPORATIONS" in started or "MINORS" in started:
        out["corporations"] = _corporations_data(
            game,
            started.get("CORPORATIONS", game.played("CORPORATIONS")),
            started.get("MINORS", game.played("MINORS")),
            mapped,
            notes,
            at,
        )
    if "COMPANIES" in started:
        out["companies"] = _companies_data(started["COMPANIES"])
    if effect.market is not None:
        out["market"] = _market_data(effect.market)
    if effect.tiles is not None:
        manifest: dict[str, Any] = data.get("manifest", {})
        counts = _tile_counts(effect.tiles, data.setdefault("tiles", {}))
        added = {n: c for n, c in counts.items() if c != 0 and manifest.get(n) != c}
        if added:
            out["add_tiles"] = added
        removed = [n for n in manifest if counts.get(n, 0) == 0]
        if removed:
            out["remove_tiles"] = removed
    return out


def _corporations_data(
    game: EngineGame,
    corporations_in: Sequence[Mapping[str, Any]],
    minors_in: Sequence[Mapping[str, Any]],
    played: Mapping[str, Mapping[str, str]],
    notes: list[ReadWarning],
    at: Callable[[str], tuple[str, int | None]],
) -> list[dict[str, Any]]:
    """The engine's corporations and minors as game data, on the map ``played``."""
    corporations: list[dict[str, Any]] = []

    def cities_at(coord: str) -> int:
        """How many cities the map as played prints at ``coord``."""
        return city_count(str(played.get(coord, {}).get("code", "")))

    for kind, entries in (("corporation", corporations_in), ("minor", minors_in)):
        for entry in entries:
            # (without the spaces around it: 18Dixie's minors' ' 1' sorts them first)
            sym = str(entry.get("sym")).strip()
            home = entry.get("coordinates")
            city = entry.get("city")
            cities = city if isinstance(city, list) else [city]
            more: list[dict[str, Any] | str] = []
            corp: dict[str, Any] = {
                "sym": sym,
                "name": str(entry.get("name") or entry.get("sym")).strip(),
                # a minor written among the corporations says so with its type (1867)
                "kind": "minor" if entry.get("type") == "minor" else kind,
            }
            if entry.get("tokens") == []:
                # no token, so no home token: the home is only where it stands (1858's
                # private railways, in towns; 1866's nationals)
                home = None
            elif isinstance(home, list):
                homes = [str(h) for h in home]
                home = homes[0] if homes else None
                if len(homes) > 1 and game.homes_each is None:
                    notes.append(
                        ReadWarning(
                            f"corporation {sym}: several homes {homes}; the first is used",
                            *at("CORPORATIONS" if kind == "corporation" else "MINORS"),
                        )
                    )
                elif len(homes) > 1:
                    # the game's place_home_token places a token in each (in the city
                    # given for it, else the first: Game#place_home_token's
                    # cities.first)
                    for i, coord in enumerate(homes[1:], 1):
                        index = cities[i] if i < len(cities) else None
                        if not isinstance(index, int):
                            index = 0
                        several = cities_at(coord) > 1
                        more.append({"hex": coord, "city": index} if several else coord)
                    if not isinstance(cities[0], int):
                        cities = [0]
            if isinstance(home, str):
                corp["home"] = home
            if more:
                corp["more_homes"] = more
            city = cities[0] if cities else None
            if isinstance(home, str) and isinstance(city, int) and cities_at(home) != 1:
                # (the engine reserves a tile of one city's city for any city asked:
                # 18VA's and 18Dixie's SR ask for city 1 of Richmond and Knoxville)
                corp["city"] = city
            tokens = entry.get("tokens")
            if isinstance(tokens, list) and all(isinstance(t, int) for t in tokens):
                corp["tokens"] = tokens
            for key in ("color", "text_color"):
                if isinstance(entry.get(key), str) and entry[key]:
                    corp[key] = entry[key]
            if isinstance(entry.get("float_percent"), int):
                corp["float_percent"] = entry["float_percent"]
            abilities = _plain_abilities(entry)
            if abilities:
                corp["abilities"] = abilities
            corporations.append(corp)
    return corporations


def _companies_data(entries: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The engine's private companies as game data."""
    companies: list[dict[str, Any]] = []
    for entry in entries:
        value, revenue = entry.get("value"), entry.get("revenue")
        company: dict[str, Any] = {
            "sym": str(entry.get("sym")).strip(),
            "name": str(entry.get("name") or entry.get("sym")).strip(),
            "value": value if isinstance(value, int) else 0,
            "revenue": revenue if isinstance(revenue, int) else 0,
        }
        if isinstance(entry.get("desc"), str) and entry["desc"]:
            company["description"] = entry["desc"]
        blocks = _company_blocks(entry)
        if blocks:
            company["blocks"] = blocks
        abilities = _plain_abilities(entry)
        if abilities:
            company["abilities"] = abilities
        companies.append(company)
    return companies


def _trains_data(
    entries: Sequence[Mapping[str, Any]],
    counts_by_players: Mapping[str, Mapping[int, int]],
    notes: list[ReadWarning],
    at: Callable[[str], tuple[str, int | None]],
) -> list[dict[str, Any]]:
    """The engine's trains as game data (counted by the players where the game counts
    them so: ``counts_by_players``)."""
    trains: list[dict[str, Any]] = []
    for entry in entries:
        # (a key the engine gives nil is one it does not give: 1868 Wyoming's on: nil)
        train = {k: v for k, v in entry.items() if v is not None}
        by = counts_by_players.get(str(train.get("name")))
        if by:
            # (counted by the players: a game of so many takes its number, Game.for_players)
            train["num"] = {str(n): c for n, c in by.items()}
        elif "num" not in train:
            train["num"] = "unlimited"
            notes.append(
                ReadWarning(
                    f"train {train.get('name')}: no num (the engine counts it in code); "
                    "taken as unlimited",
                    *at("TRAINS"),
                )
            )
        trains.append(train)
    return trains


def _options(rules: object) -> list[dict[str, Any]]:
    """The engine's ``OPTIONAL_RULES`` as game options (their effects are the engine's code)."""
    out: list[dict[str, Any]] = []
    for rule in rules if isinstance(rules, list) else []:
        if not isinstance(rule, Mapping) or not _text(rule.get("sym")):
            continue
        option: dict[str, Any] = {"name": str(rule["sym"]).lstrip(":")}
        option["title"] = _text(rule.get("short_name")) or option["name"]
        desc = _text(rule.get("desc"))
        if desc:
            option["description"] = desc.strip()
        players = rule.get("players")
        if isinstance(players, list) and players and all(type(n) is int for n in players):
            # (the numbers of players it is for: the engine drops it for others)
            option["players"] = list(players)
        out.append(option)
    return out


def engine_game(
    game: EngineGame,
    generic: Mapping[str, Mapping[str, str]] | None = None,
    *,
    source: str | None = None,
) -> Game:
    """The tilelay game of an engine game (lenient: see :func:`engine_game_data`).

    ``generic`` are the engine checkout's generic tiles: a manifest tile that tilelay's
    catalogue lacks is taken from them. ``source`` names the game's folder (default: its name).
    """
    data, notes = engine_game_data(game)
    if generic:
        known = tile_codes()
        own = data.setdefault("tiles", {})
        for name in data["manifest"]:
            if name not in known and name not in own and name in generic:
                spec = generic[name]
                own[name] = _engine_tile(str(spec.get("color", "white")), str(spec.get("code")))
    problems = [
        ReadWarning(p.message if not p.constant else f"{p.constant}: {p.message}", p.source, p.line)
        for p in game.problems
    ]
    read = game_from_data(
        data,
        source=source or game.folder,
        strict=False,
        format="18xx.games",
        problems=[*problems, *notes],
    )
    # the engine's location names are only shown: a named hex is not special for upgrades;
    # the upgrade rules its classes hold as data are its own (1822's scenarios inherit
    # 1822's max_exits, 1893 includes StubsAreRestricted)
    rules = replace(
        read.upgrade_rules,
        names_special=False,
        max_exits=game.max_exits,
        stubs_restricted=game.stubs_restricted or read.upgrade_rules.stubs_restricted,
    )
    return replace(read, upgrade_rules=rules)


class EngineReader(SourceReader):
    """The games of an 18xx.games engine checkout."""

    format = "18xx.games"

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self._checkout: EngineCheckout | None = None

    @property
    def checkout(self) -> EngineCheckout:
        if self._checkout is None:
            self._checkout = EngineCheckout(self.path)
        return self._checkout

    def files(self) -> list[Path]:
        game_dir = self.checkout.game_dir
        files = sorted(game_dir.rglob("*.rb"))
        tile_rb = game_dir.parent / "config" / "tile.rb"
        return [*files, tile_rb] if tile_rb.is_file() else files

    def games(self) -> list[tuple[str, list[str]]]:
        out: list[tuple[str, list[str]]] = []
        for name in self.checkout.games():
            game = self.checkout.read(name)
            if not game.played_map():
                continue  # no map as data (built in code): listed by the source's problems
            names = [game.title, game.display_title, name[1:], game.folder]
            names += [a for a in game.meta.get("GAME_ALIASES") or [] if isinstance(a, str)]
            out.append((name, names))
        return out

    def load(self, key: str) -> Game:
        try:
            generic = self.checkout.generic_tiles()
        except NoGameError:
            generic = {}
        game = self.checkout.read(key)
        return engine_game(game, generic, source=str(self.checkout.game_dir / game.folder))


class _DirectoryReader(SourceReader):
    """Games kept one per directory (Rails, GE18XX): listing a game reads it."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self._read: dict[str, Game] = {}
        self.skipped: list[ReadWarning] = []

    def directories(self) -> list[Path]:
        raise NotImplementedError

    def read(self, directory: Path) -> Game:
        raise NotImplementedError

    def files(self) -> list[Path]:
        out: list[Path] = []
        for d in self.directories():
            out.extend(sorted(f for f in d.iterdir() if f.is_file()))
        return out

    def key(self, directory: Path) -> str:
        return str(directory.relative_to(self.path)) if directory != self.path else "."

    def games(self) -> list[tuple[str, list[str]]]:
        out: list[tuple[str, list[str]]] = []
        for d in self.directories():
            key = self.key(d)
            try:
                game = self.read(d)
            except TilelayError as err:
                self.skipped.append(ReadWarning(err.message, str(d)))
                continue
            self._read[key] = game
            out.append((key, [game.name, game.title, *game.aliases]))
        return out

    def load(self, key: str) -> Game:
        game = self._read.get(key)
        return game if game is not None else self.read(self.path / key)


class RailsReader(_DirectoryReader):
    """The games of a Rails ``data/`` directory, or one Rails game's directory."""

    format = "rails"

    def directories(self) -> list[Path]:
        return find_rails_games(self.path)

    def read(self, directory: Path) -> Game:
        return load_rails_game(directory)


class GE18XXReader(_DirectoryReader):
    """The games of a GE18XX XML directory, or one GE18XX game's directory."""

    format = "ge18xx"

    def directories(self) -> list[Path]:
        return find_ge18xx_games(self.path)

    def files(self) -> list[Path]:
        files = super().files()
        for folder in (self.path, self.path.parent):
            tiles = folder / "Tiles"
            if tiles.is_dir():
                files.extend(sorted(tiles.glob("*.xml")))
            if (folder / "18xx-Games.xml").is_file():
                files.append(folder / "18xx-Games.xml")
        return files

    def read(self, directory: Path) -> Game:
        return load_ge18xx_game(directory)


class TomlReader(SourceReader):
    """Games in tilelay's own TOML format (what ``tilelay convert-game --to toml`` writes): one
    ``.toml`` file, or the ``.toml`` files of a folder, a game each."""

    format = "tilelay"

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.skipped: list[ReadWarning] = []
        self._read: dict[str, Game] = {}

    def files(self) -> list[Path]:
        if self.path.is_file():
            return [self.path]
        return sorted(f for f in self.path.glob("*.toml") if f.is_file())

    def _file(self, key: str) -> Path:
        return self.path if self.path.is_file() else self.path / key

    def games(self) -> list[tuple[str, list[str]]]:
        out: list[tuple[str, list[str]]] = []
        for f in self.files():
            try:
                game = load_game_file(f)
            except TilelayError as err:
                self.skipped.append(ReadWarning(err.message, str(f)))
                continue
            self._read[f.name] = game
            out.append((f.name, [game.name, game.title, *game.aliases]))
        return out

    def load(self, key: str) -> Game:
        game = self._read.get(key)
        return game if game is not None else load_game_file(self._file(key))

    def source(self, key: str) -> str:
        return str(self._file(key))


def _is_toml(path: Path) -> bool:
    if path.is_file():
        return path.suffix.lower() == ".toml"
    return path.is_dir() and any(f.is_file() for f in path.glob("*.toml"))


def _is_rails(path: Path) -> bool:
    if not path.is_dir():
        return False
    try:
        return bool(find_rails_games(path))
    except TilelayError:
        return False


def _is_ge18xx(path: Path) -> bool:
    if not path.is_dir():
        return False
    try:
        return bool(find_ge18xx_games(path))
    except TilelayError:
        return False


def _is_engine(path: Path) -> bool:
    for candidate in (path, path / "game", path / "engine" / "game", path / "lib/engine/game"):
        if candidate.is_dir() and any(candidate.glob("g_*")):
            return True
    return path.name.startswith("g_") and any(path.glob("*.rb"))


#: The formats known, each with the test of a path and its reader.
FORMAT_READERS: list[tuple[str, Callable[[Path], bool], Callable[[Path], SourceReader]]] = [
    ("18xx.games", _is_engine, EngineReader),
    ("ge18xx", _is_ge18xx, GE18XXReader),
    ("rails", _is_rails, RailsReader),
    ("tilelay", _is_toml, TomlReader),
]


def _reader(path: Path) -> SourceReader:
    if not path.exists():
        raise NoGameError("no such file or folder", source=str(path))
    for _, test, make in FORMAT_READERS:
        if test(path):
            return make(path)
    formats = ", ".join(name for name, _, _ in FORMAT_READERS)
    raise NoGameError(f"holds no game of a known format ({formats})", source=str(path))


def discover(path: str | Path) -> list[GameEntry]:
    """The games under ``path``, as registry entries (loaded on first use, through the cache).

    Raises :class:`~tilelay.errors.NoGameError` naming the path when it holds no game.
    """
    reader = _reader(Path(path))
    stored = cache.SourceCache(reader.format, reader.path, reader.files())
    listing = stored.listing()
    if listing is None:
        listing = reader.games()
        stored.store_listing(listing, skipped=getattr(reader, "skipped", []))
    skipped = stored.skipped()
    if not listing:
        if len(skipped) == 1 and Path(skipped[0].source or "") == Path(path):
            # the one file given, and why it does not read: said once, with its place
            raise NoGameError(skipped[0].message, source=skipped[0].source, line=skipped[0].line)
        reasons = "; ".join(str(w) for w in skipped)
        raise NoGameError(
            "holds no game that can be read" + (f": {reasons}" if reasons else ""),
            source=str(path),
        )
    note_skipped(skipped)
    entries: list[GameEntry] = []
    for key, names in listing:

        def loader(key: str = key) -> Game:
            game = stored.game(key)
            if game is None:
                game = reader.load(key)
                stored.store_game(key, game)
            return game

        entries.append(
            GameEntry(
                names[0],
                names[1] if len(names) > 1 and names[1] else names[0],
                tuple(n for n in names if n),
                reader.source(key),
                reader.format,
                loader,
            )
        )
    return entries


def note_skipped(skipped: Iterable[ReadWarning]) -> None:
    """List the games a source holds but that could not be read (e.g. Rails' incomplete
    1817) among the registry's warnings."""
    add_warnings(ReadWarning(f"not loaded: {w.message}", w.source, w.line) for w in skipped)


def paths_from_environment(environ: Mapping[str, str] | None = None) -> list[str]:
    """The paths in :data:`ENVIRONMENT_VARIABLE` (joined by ``os.pathsep``, empty ones left
    out)."""
    value = (os.environ if environ is None else environ).get(ENVIRONMENT_VARIABLE, "")
    return [p for p in value.split(os.pathsep) if p.strip()]


def add_paths(paths: Iterable[str | Path]) -> list[GameEntry]:
    """Make the games under ``paths`` known (after the built-in games; the first source of a
    title keeps it). Returns the entries added; a path holding no game is an error naming it."""
    added: list[GameEntry] = []
    for path in paths:
        entries = discover(path)
        add_entries(entries)
        added.extend(entries)
    return added

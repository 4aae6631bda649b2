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
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from tilelay.errors import NoGameError, ReadWarning, TilelayError
from tilelay.games import Game, game_from_data
from tilelay.games.registry import GameEntry, add_entries
from tilelay.sources import cache
from tilelay.sources.engine import EngineCheckout, EngineGame
from tilelay.sources.engine_codes import adapt_code, parse_engine_code

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


# ------------------------------------------------------------------ the 18xx.games engine


def _text(value: object) -> str | None:
    if isinstance(value, str) and value:
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value) and value:
        return ", ".join(value)
    return None


def _engine_tile(color: str, code: str) -> tuple[dict[str, Any], tuple[str, ...]]:
    """A hex group's or game tile's entry: the engine's string as it is when tilelay reads it,
    else the tile read from it adapted (:mod:`tilelay.sources.engine_codes`)."""
    adapted, extras, dropped = adapt_code(code)
    if adapted == code and not extras:
        return {"color": color, "code": code}, ()
    try:
        tile, dropped = parse_engine_code(code, color=color)
    except TilelayError:
        return {"color": color, "code": code}, ()
    return {"tile": tile}, dropped


def _hex_groups(
    hexes: Mapping[str, Mapping[str, str]],
) -> tuple[list[dict[str, Any]], list[str]]:
    groups: dict[tuple[str, str], list[str]] = {}
    for coord, spec in hexes.items():
        key = (str(spec.get("color", "white")) or "white", str(spec.get("code", "")))
        groups.setdefault(key, []).append(coord)
    out: list[dict[str, Any]] = []
    dropped: list[str] = []
    for (color, code), coords in groups.items():
        entry, left_out = _engine_tile(color, code)
        out.append({**entry, "coords": coords})
        dropped.extend(d for d in left_out if d not in dropped)
    return out, dropped


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
    notes: list[ReadWarning] = []
    meta = game.meta
    aliases = [a for a in meta.get("GAME_ALIASES") or [] if isinstance(a, str)]
    hex_groups, dropped = _hex_groups(game.hexes)
    data: dict[str, Any] = {
        "title": game.title,
        "display_title": game.display_title,
        "aliases": [*aliases, game.name[1:] if game.name.startswith("G") else game.name],
        "layout": game.layout or "flat",
        "hexes": hex_groups,
        "location_names": dict(game.location_names),
    }
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
    manifest: dict[str, Any] = {}
    own: dict[str, Any] = {}
    for name, spec in (game.tiles or {}).items():
        if isinstance(spec, Mapping):
            tile_entry, left_out = _engine_tile(
                str(spec.get("color", "white")), str(spec.get("code", ""))
            )
            own[name] = tile_entry
            dropped.extend(d for d in left_out if d not in dropped)
            manifest[name] = spec.get("count", 1)
        else:
            manifest[name] = spec
    data["manifest"] = manifest
    if own:
        data["tiles"] = own
    corporations: list[dict[str, Any]] = []
    for kind, entries in (
        ("corporation", game.played("CORPORATIONS")),
        ("minor", game.played("MINORS")),
    ):
        for entry in entries:
            home = entry.get("coordinates")
            if isinstance(home, list):
                if len(home) > 1:
                    notes.append(
                        ReadWarning(
                            f"corporation {entry.get('sym')}: several homes {home}; "
                            "the first is used",
                            source,
                        )
                    )
                home = home[0] if home else None
            corp: dict[str, Any] = {
                "sym": str(entry.get("sym")),
                "name": str(entry.get("name") or entry.get("sym")),
                # a minor written among the corporations says so with its type (1867)
                "kind": "minor" if entry.get("type") == "minor" else kind,
            }
            if isinstance(home, str):
                corp["home"] = home
            if isinstance(entry.get("city"), int):
                corp["city"] = entry["city"]
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
    data["corporations"] = corporations
    companies: list[dict[str, Any]] = []
    for entry in game.played("COMPANIES"):
        value, revenue = entry.get("value"), entry.get("revenue")
        company: dict[str, Any] = {
            "sym": str(entry.get("sym")),
            "name": str(entry.get("name") or entry.get("sym")),
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
    data["companies"] = companies
    trains: list[dict[str, Any]] = []
    for entry in game.played("TRAINS"):
        train = dict(entry)
        if "num" not in train:
            train["num"] = "unlimited"
            notes.append(
                ReadWarning(
                    f"train {train.get('name')}: no num (the engine counts it in code); "
                    "taken as unlimited",
                    source,
                )
            )
        trains.append(train)
    data["trains"] = trains
    data["phases"] = [dict(p) for p in game.played("PHASES")]
    rows = [r if isinstance(r, list) else [r] for r in game.market]
    data["market"] = {"rows": [[str(c) for c in row] for row in rows]}
    if dropped:
        notes.append(
            ReadWarning(
                "tile strings read without what only draws or restricts lays: "
                + ", ".join(dropped),
                source,
            )
        )
    return data, notes


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
        from tilelay.catalogue import tile_codes

        known = tile_codes()
        own = data.setdefault("tiles", {})
        for name in data["manifest"]:
            if name not in known and name not in own and name in generic:
                spec = generic[name]
                own[name] = _engine_tile(str(spec.get("color", "white")), str(spec.get("code")))[0]
    problems = [
        ReadWarning(p.message if not p.constant else f"{p.constant}: {p.message}", p.source, p.line)
        for p in game.problems
    ]
    return game_from_data(
        data,
        source=source or game.folder,
        strict=False,
        format="18xx.games",
        problems=[*problems, *notes],
    )


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
            if not game.hexes:
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


def _is_engine(path: Path) -> bool:
    for candidate in (path, path / "game", path / "engine" / "game", path / "lib/engine/game"):
        if candidate.is_dir() and any(candidate.glob("g_*")):
            return True
    return path.name.startswith("g_") and any(path.glob("*.rb"))


#: The formats known, each with the test of a path and its reader.
FORMAT_READERS: list[tuple[str, Callable[[Path], bool], Callable[[Path], SourceReader]]] = [
    ("18xx.games", _is_engine, EngineReader),
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
        stored.store_listing(listing)
    if not listing:
        raise NoGameError("holds no game whose map is data", source=str(path))
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
                str(reader.path / key),
                reader.format,
                loader,
            )
        )
    return entries


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
